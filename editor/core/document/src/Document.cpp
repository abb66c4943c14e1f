#include "marionette/editor/document/Document.h"

#include "marionette/editor/document/DriveProfiles.h"
#include "marionette/project/Migration.h"
#include "marionette/project/ProjectFile.h"

#include <QFileInfo>

#include <algorithm>

namespace marionette::editor {

Document::Document(QObject* parent) : QObject(parent)
{
    connect(&mUndoStack, &QUndoStack::cleanChanged, this, [this] { emitModified(); });
    connect(&mUndoStack, &QUndoStack::indexChanged, this, [this] { emitModified(); });
}

Document::~Document()
{
    // Commands hold no pointers back into the stack, but clear it first so none outlives the document's data.
    mUndoStack.clear();
}

QString Document::displayName() const
{
    return mFilePath.isEmpty() ? QStringLiteral("Untitled") : QFileInfo(mFilePath).fileName();
}

bool Document::isModified() const { return mModifiedOutsideHistory || !mUndoStack.isClean(); }

void Document::emitModified()
{
    const bool now = isModified();
    if (now != mLastModified) {
        mLastModified = now;
        emit modifiedChanged(now);
    }
}

void Document::resetHistory(bool modified)
{
    mUndoStack.clear();
    mUndoStack.setClean();
    mModifiedOutsideHistory = modified;
    emitModified();
}

void Document::clear()
{
    adopt(project::Project{}, QString(), false);
    attachMesh(nullptr);
}

bool Document::load(const QString& path, QString& error)
{
    project::Project loaded;
    project::LoadOptions options;
    // An unfinished rig is still the artist's work: open it. Its problems are the validation list's to judge
    // (editor::validateRig), so the load does not validate it too.
    options.acceptInvalidRig = true;
    options.validateRig = false;
    const project::LoadResult result = project::loadProject(path, loaded, options);
    if (!result.ok()) {
        error = result.error;
        return false;
    }
    const bool migrated = result.fileVersion != project::kProjectVersion;
    adopt(std::move(loaded), QFileInfo(path).absoluteFilePath(), migrated);
    attachMesh(nullptr);
    return true;
}

void Document::adopt(project::Project project, const QString& path, bool modified)
{
    project::assignMissingIds(project);
    assignDriveProfileIds(project.rig); // the commands name profiles by id; the format lets them lack one
    mProject = std::move(project);
    mSelection = mProject.editor.selection;
    if (mFilePath != path) {
        mFilePath = path;
        emit filePathChanged(mFilePath);
    }
    resetHistory(modified);
    emit structureChanged();
    emit settingsChanged();
    emit viewsChanged();
    emit scenariosChanged();
    emit collisionGroupsChanged();
    emit driveProfilesChanged();
    emit selectionChanged();
}

project::Project Document::snapshot() const
{
    project::Project out = mProject;
    out.editor.selection = mSelection;
    project::pruneEditorState(out);
    return out;
}

bool Document::save(const QString& path, QString& error)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    project::Project out = snapshot();
    // The mesh path is stored relative to the project file: re-express it for the folder saved into.
    const QString meshPath = mProject.sourceMesh.resolve(mFilePath.isEmpty() ? absolute : mFilePath);
    if (!meshPath.isEmpty())
        out.sourceMesh.path = project::SourceMesh::relativePath(meshPath, absolute);
    const project::SaveResult result = project::saveProject(absolute, out);
    if (!result.ok()) {
        error = result.error;
        return false;
    }
    mProject.sourceMesh.path = out.sourceMesh.path;
    if (absolute != mFilePath) {
        mFilePath = absolute;
        emit filePathChanged(mFilePath);
    }
    mModifiedOutsideHistory = false;
    mUndoStack.setClean();
    emitModified();
    return true;
}

void Document::setViewState(const project::Camera& camera, float meshOpacity, bool xray)
{
    mProject.editor.camera = camera;
    mProject.editor.meshOpacity = meshOpacity;
    mProject.editor.xray = xray;
}

void Document::attachMesh(std::shared_ptr<const import::ImportedScene> mesh)
{
    mMesh = std::move(mesh);
    emit meshChanged();
}

void Document::setSelection(std::vector<ElementRef> refs)
{
    std::vector<ElementRef> clean;
    clean.reserve(refs.size());
    for (const ElementRef& ref : refs)
        if (indexOf(mProject.rig, ref) != rig::kNone && std::find(clean.begin(), clean.end(), ref) == clean.end())
            clean.push_back(ref);
    if (clean == mSelection)
        return;
    mSelection = std::move(clean);
    emit selectionChanged();
}

bool Document::isSelected(ElementRef ref) const
{
    return std::find(mSelection.begin(), mSelection.end(), ref) != mSelection.end();
}

std::vector<std::int32_t> Document::selectedIndices(ElementKind kind) const
{
    std::vector<std::int32_t> out;
    for (const ElementRef& ref : mSelection)
        if (ref.kind == kind)
            if (const std::int32_t i = indexOf(mProject.rig, ref); i != rig::kNone)
                out.push_back(i);
    return out;
}

bool Document::isVisible(ElementRef ref) const
{
    for (const auto& view : mProject.editor.elements)
        if (view.element == ref)
            return view.visible;
    return true;
}

bool Document::isLocked(ElementRef ref) const
{
    for (const auto& view : mProject.editor.elements)
        if (view.element == ref)
            return view.locked;
    return false;
}

bool Document::pruneSelection()
{
    return std::erase_if(mSelection, [this](ElementRef ref) { return indexOf(mProject.rig, ref) == rig::kNone; }) > 0;
}

void Document::appendElement(AnyElement element)
{
    editor::appendElement(mProject.rig, std::move(element));
    emit structureChanged();
}

void Document::removeLastElement(ElementKind kind)
{
    editor::removeLastElement(mProject.rig, kind);
    const bool selectionLost = pruneSelection();
    emit structureChanged();
    if (selectionLost)
        emit selectionChanged();
}

void Document::setSymmetry(const project::SymmetrySettings& symmetry)
{
    if (mProject.editor.symmetry == symmetry)
        return;
    mProject.editor.symmetry = symmetry;
    emit symmetryChanged();
}

void Document::replaceRig(rig::RigDescription rig, std::vector<project::ElementView> views)
{
    mProject.rig = std::move(rig);
    assignDriveProfileIds(mProject.rig);
    mProject.editor.elements = std::move(views);
    const bool selectionLost = pruneSelection();
    emit structureChanged();
    emit settingsChanged();
    emit viewsChanged();
    emit driveProfilesChanged();
    if (selectionLost)
        emit selectionChanged();
}

void Document::replaceElement(ElementRef ref, const AnyElement& element)
{
    const std::int32_t i = indexOf(mProject.rig, ref);
    if (i == rig::kNone || kindOf(element) != ref.kind)
        return;
    std::visit(
        [&](const auto& e) {
            using T = std::decay_t<decltype(e)>;
            auto& rig = mProject.rig;
            if constexpr (std::is_same_v<T, rig::Particle>) rig.particles[std::size_t(i)] = e;
            else if constexpr (std::is_same_v<T, rig::Stick>) rig.sticks[std::size_t(i)] = e;
            else if constexpr (std::is_same_v<T, rig::AngleConstraint>) rig.angles[std::size_t(i)] = e;
            else if constexpr (std::is_same_v<T, rig::Triangle>) rig.triangles[std::size_t(i)] = e;
            else if constexpr (std::is_same_v<T, rig::AngularConstraint>) rig.angular[std::size_t(i)] = e;
            else if constexpr (std::is_same_v<T, rig::Pin>) rig.pins[std::size_t(i)] = e;
            else if constexpr (std::is_same_v<T, rig::Shape>) rig.shapes[std::size_t(i)] = e;
            else if constexpr (std::is_same_v<T, rig::Bone>) rig.bones[std::size_t(i)] = e;
            else rig.bindings[std::size_t(i)] = e;
        },
        element);
    emit elementsChanged({ref});
}

void Document::setParticlePositions(const std::vector<ElementRef>& particles, const std::vector<Vec3>& positions)
{
    for (std::size_t k = 0; k < particles.size() && k < positions.size(); ++k)
        if (const std::int32_t i = indexOf(mProject.rig, particles[k]); i != rig::kNone)
            mProject.rig.particles[std::size_t(i)].position = positions[k];
    emit elementsChanged(particles);
}

void Document::setSettings(const rig::Settings& settings)
{
    mProject.rig.settings = settings;
    emit settingsChanged();
}

void Document::setElementViews(std::vector<project::ElementView> views)
{
    mProject.editor.elements = std::move(views);
    emit viewsChanged();
}

void Document::setMeshSource(project::SourceMesh source, project::ImportSettings settings,
    std::shared_ptr<const import::ImportedScene> mesh)
{
    mProject.sourceMesh = std::move(source);
    mProject.import = std::move(settings);
    attachMesh(std::move(mesh));
}

void Document::setProjectName(const QString& name) { mProject.name = name; }

void Document::setCollisionGroups(std::vector<project::CollisionGroupName> groups)
{
    std::sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) { return a.bit < b.bit; });
    mProject.collisionGroups = std::move(groups);
    emit collisionGroupsChanged();
}

void Document::setLods(std::vector<project::LodLevel> lods)
{
    mProject.lods = std::move(lods);
    emit lodsChanged();
}

void Document::setDriveProfiles(std::vector<rig::DriveProfile> profiles)
{
    mProject.rig.driveProfiles = std::move(profiles);
    emit driveProfilesChanged();
}

void Document::appendScenario(project::Scenario scenario)
{
    mProject.scenarios.push_back(std::move(scenario));
    emit scenariosChanged();
}

void Document::removeLastScenario()
{
    if (!mProject.scenarios.empty())
        mProject.scenarios.pop_back();
    emit scenariosChanged();
}

} // namespace marionette::editor
