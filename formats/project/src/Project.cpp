#include "marionette/project/Project.h"
#include "marionette/project/ElementIndex.h"

#include "ProjectInternal.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <limits>
#include <unordered_set>

namespace marionette::project {

namespace {

struct KindNames {
    const char* json;
    const char* words;
    const char* section;
};

constexpr KindNames kKindNames[kElementKindCount] = {
    {"particle", "particle", "particles"},
    {"stick", "stick", "sticks"},
    {"angle", "angle constraint", "angles"},
    {"triangle", "triangle", "triangles"},
    {"angular", "angular constraint", "angular"},
    {"pin", "pin", "pins"},
    {"shape", "shape", "shapes"},
    {"bone", "bone", "bones"},
    {"binding", "bone binding", "bindings"},
};

const KindNames& names(ElementKind kind)
{
    const auto i = std::size_t(kind);
    return kKindNames[i < std::size_t(kElementKindCount) ? i : 0];
}

} // namespace

const char* toString(ElementKind kind)
{
    return names(kind).json;
}
const char* describe(ElementKind kind)
{
    return names(kind).words;
}
const char* sectionName(ElementKind kind)
{
    return names(kind).section;
}

bool elementKindFromString(QStringView text, ElementKind& kind)
{
    for (int i = 0; i < kElementKindCount; ++i)
        if (text == QLatin1StringView(kKindNames[i].json)) {
            kind = ElementKind(i);
            return true;
        }
    return false;
}

// ---- source mesh ---------------------------------------------------------------------------------------

QString SourceMesh::resolve(const QString& projectFilePath) const
{
    if (path.isEmpty())
        return {};
    const QDir folder = QFileInfo(projectFilePath).absoluteDir();
    return QDir::cleanPath(folder.absoluteFilePath(path));
}

QString SourceMesh::relativePath(const QString& meshFilePath, const QString& projectFilePath)
{
    const QDir folder = QFileInfo(projectFilePath).absoluteDir();
    return QDir::fromNativeSeparators(folder.relativeFilePath(QFileInfo(meshFilePath).absoluteFilePath()));
}

QString SourceMesh::hashFile(const QString& filePath, QString* error)
{
    const QFileInfo info(filePath);
    QFile file(filePath);
    const QString problem = !info.exists()                    ? QStringLiteral("no such file")
                            : info.isDir()                    ? QStringLiteral("it is a folder")
                            : !info.isFile()                  ? QStringLiteral("not a regular file")
                            : !file.open(QIODevice::ReadOnly) ? file.errorString()
                                                              : QString();
    if (!problem.isEmpty()) {
        if (error)
            *error = QStringLiteral("%1: cannot read the mesh: %2").arg(filePath, problem);
        return {};
    }
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!hash.addData(&file)) {
        if (error)
            *error = QStringLiteral("%1: cannot read the mesh: %2").arg(filePath, file.errorString());
        return {};
    }
    return QString::fromLatin1(hash.result().toHex());
}

// ---- ids -----------------------------------------------------------------------------------------------

std::size_t assignMissingIds(rig::RigDescription& rig)
{
    std::size_t given = 0;
    detail::forEachSection(rig, [&](ElementKind, auto& elements) {
        std::unordered_set<rig::ElementId> used;
        rig::ElementId next = 0;
        bool missing = false;
        for (const auto& e : elements) {
            if (e.id != 0)
                used.insert(e.id);
            next = std::max(next, e.id);
            missing = missing || e.id == 0;
        }
        if (!missing)
            return;
        for (auto& e : elements) {
            if (e.id != 0)
                continue;
            // Past the largest id; on overflow, the smallest unused one (a rig cannot use 2^32 − 1 ids).
            do {
                next = next == std::numeric_limits<rig::ElementId>::max() ? 1 : next + 1;
            } while (used.count(next));
            e.id = next;
            used.insert(next);
            ++given;
        }
    });
    return given;
}

std::size_t assignMissingIds(Project& project)
{
    std::size_t given = assignMissingIds(project.rig);
    for (LodLevel& level : project.lods)
        given += assignMissingIds(level.rig);
    return given;
}

std::size_t pruneEditorState(Project& project)
{
    const ElementIndex index(project.rig);
    EditorState& e = project.editor;
    const std::size_t before = e.elements.size() + e.selection.size();
    e.elements.erase(std::remove_if(e.elements.begin(), e.elements.end(),
                                    [&](const ElementView& v) { return !index.contains(v.element); }),
                     e.elements.end());
    e.selection.erase(
        std::remove_if(e.selection.begin(), e.selection.end(), [&](const ElementRef& r) { return !index.contains(r); }),
        e.selection.end());
    return before - (e.elements.size() + e.selection.size());
}

// ---- element index -------------------------------------------------------------------------------------

ElementIndex::ElementIndex(const rig::RigDescription& rig)
{
    detail::forEachSection(rig, [&](ElementKind kind, const auto& elements) {
        auto& map = mMaps[std::size_t(kind)];
        mCounts[std::size_t(kind)] = elements.size();
        map.reserve(elements.size());
        for (std::size_t i = 0; i < elements.size(); ++i)
            if (elements[i].id != 0)
                map.emplace(elements[i].id, static_cast<std::int32_t>(i)); // keeps the first of duplicates
    });
}

std::int32_t ElementIndex::find(ElementKind kind, rig::ElementId id) const
{
    if (std::size_t(kind) >= mMaps.size())
        return rig::kNone;
    const auto& map = mMaps[std::size_t(kind)];
    const auto it = map.find(id);
    return it == map.end() ? rig::kNone : it->second;
}

namespace detail {

rig::ElementId idAt(const rig::RigDescription& rig, ElementKind kind, std::size_t index)
{
    rig::ElementId id = 0;
    forEachSection(rig, [&](ElementKind k, const auto& elements) {
        if (k == kind)
            id = elements[index].id;
    });
    return id;
}

} // namespace detail

} // namespace marionette::project
