// Running extensions through the plugin host with the checks every caller needs: exports (validated rig,
// atomic write), rig templates (checked input, checked rig) and imports (checked scene).
#include "marionette/editor/PluginHost.h"

#include "marionette/runtime/Rig.h"

#include <QSaveFile>

#include <cmath>
#include <limits>

namespace marionette::editor {

namespace {

QString str(const std::string& s) { return QString::fromStdString(s); }

bool finite(const Mat4& m)
{
    for (float v : m.m)
        if (!std::isfinite(v))
            return false;
    return true;
}

float deviationFromIdentity(const Mat4& m)
{
    const Mat4 id;
    float worst = 0.f;
    for (int i = 0; i < 16; ++i)
        worst = std::max(worst, std::fabs(m.m[i] - id.m[i]));
    return worst;
}

/// The checks and normalisation autoRig() applies (docs/autorig.md), with its messages, for templates that
/// are handed a checked skeleton. Returns "" or the error.
std::string prepareInput(const AutoRigInput& in, plugin::TemplateInput& out, std::vector<std::string>& notes)
{
    std::string recomputed;
    if (in.skeleton.empty())
        return "the auto-rig needs a skeleton (the mesh has no bones)";
    if (!in.boneVertices.empty() && in.boneVertices.size() != in.skeleton.size())
        return "boneVertices has " + std::to_string(in.boneVertices.size()) + " lists for " +
               std::to_string(in.skeleton.size()) + " bones (give none or one per bone)";
    if (!std::isfinite(in.totalMass) || !(in.totalMass > 0.f) || in.totalMass > 1e6f)
        return "totalMass must be a finite number of kilograms above 0";
    out.skeleton = in.skeleton;
    out.boneVertices = in.boneVertices;
    out.boneVertices.resize(in.skeleton.size());
    out.totalMass = in.totalMass;
    out.name = in.name.empty() ? "autorig" : in.name;
    for (std::size_t i = 0; i < out.skeleton.size(); ++i) {
        rig::Bone& b = out.skeleton[i];
        if (b.name.empty()) {
            b.name = "bone" + std::to_string(i);
            notes.push_back("bones[" + std::to_string(i) + "] has no name: called " + b.name);
        }
        auto fail = [&b](const char* what) { return "bone '" + b.name + "': " + what; };
        if (b.parent != rig::kNone && (b.parent < 0 || std::size_t(b.parent) >= i))
            return fail("its parent must be an earlier bone (parents first)");
        Mat4 inv;
        if (!finite(b.bindWorld))
            return fail("bindWorld is not finite");
        if (!invertAffine(b.bindWorld, inv) || !finite(inv))
            return fail("bindWorld cannot be inverted");
        if (std::fabs(b.bindWorld.m[12]) > 1e5f || std::fabs(b.bindWorld.m[13]) > 1e5f || std::fabs(b.bindWorld.m[14]) > 1e5f)
            return fail("its joint is further than 100 km from the origin");
        for (const Vec3& v : out.boneVertices[i])
            if (!isFinite(v))
                return fail("a skinned vertex is not finite");
        if (!finite(b.inverseBind) || deviationFromIdentity(b.bindWorld * b.inverseBind) > 1e-3f) {
            b.inverseBind = inv;
            recomputed.append(recomputed.empty() ? "" : ", ").append(b.name);
        }
        if (b.parent == rig::kNone) {
            b.bindLocal = b.bindWorld;
        } else {
            Mat4 parentInv;
            invertAffine(out.skeleton[std::size_t(b.parent)].bindWorld, parentInv);
            b.bindLocal = parentInv * b.bindWorld;
        }
        b.id = 0;
    }
    if (!recomputed.empty())
        notes.push_back("inverse bind matrices recomputed from bindWorld (they did not invert it) for " + recomputed);
    return {};
}

} // namespace

bool PluginHost::exportRigBytes(const plugin::RigExporter& exporter, const rig::RigDescription& rig,
                                const plugin::ExportContext& context, QByteArray& out, QString* error)
{
    const QString source = context.sourcePath.isEmpty() ? context.targetPath : context.sourcePath;
    auto failed = [&](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    if (const std::string e = rig.validate(); !e.empty())
        return failed(QStringLiteral("%1: the rig is invalid: %2").arg(source, str(e)));
    std::string e;
    if (!runtime::Rig::build(rig, &e))
        return failed(QStringLiteral("%1: the runtime cannot build the rig: %2").arg(source, str(e)));
    out.clear();
    QString why;
    if (!exporter.write(rig, context, out, why))
        return failed(QStringLiteral("%1: %2 export: %3")
                          .arg(context.targetPath.isEmpty() ? source : context.targetPath, exporter.shortName(),
                               why.isEmpty() ? QStringLiteral("failed without saying why") : why));
    return true;
}

bool PluginHost::exportRig(const plugin::RigExporter& exporter, const rig::RigDescription& rig,
                           const plugin::ExportContext& context, QString* error)
{
    if (context.targetPath.isEmpty()) {
        if (error)
            *error = QStringLiteral("no file to export to");
        return false;
    }
    QByteArray bytes;
    if (!exportRigBytes(exporter, rig, context, bytes, error))
        return false;
    QSaveFile file(context.targetPath);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = QStringLiteral("%1: cannot write: %2").arg(context.targetPath, file.errorString());
        file.cancelWriting();
        return false;
    }
    return true;
}

AutoRigResult PluginHost::buildRig(const plugin::RigTemplate& tmpl, const AutoRigInput& input)
{
    AutoRigResult out;
    plugin::TemplateInput in;
    std::vector<std::string> inputNotes;
    if (std::string e = prepareInput(input, in, inputNotes); !e.empty()) {
        out.error = std::move(e);
        return out;
    }
    const std::string name = tmpl.shortName().toStdString();
    plugin::TemplateResult r;
    r.rig.name = in.name;
    r.rig.bones = in.skeleton;
    r.rig.settings = rig::Settings{};
    const bool built = tmpl.build(in, r);
    out.notes = std::move(inputNotes);
    out.notes.insert(out.notes.end(), r.notes.begin(), r.notes.end());
    if (!built) {
        out.error = r.error.empty() ? "template '" + name + "' failed without saying why" : std::move(r.error);
        return out;
    }
    bool sameSkeleton = r.rig.bones.size() == in.skeleton.size();
    for (std::size_t i = 0; sameSkeleton && i < in.skeleton.size(); ++i)
        sameSkeleton = r.rig.bones[i].name == in.skeleton[i].name && r.rig.bones[i].parent == in.skeleton[i].parent;
    std::string check = sameSkeleton ? r.rig.validate() : "it added, removed or reordered bones";
    if (check.empty() && !runtime::Rig::build(r.rig, &check) && check.empty())
        check = "the runtime refused it";
    if (!check.empty()) {
        out.error = "template '" + name + "' made an invalid rig: " + check;
        return out;
    }
    out.ok = true;
    out.rig = std::move(r.rig);
    out.templateUsed = r.templateUsed.empty() ? name : std::move(r.templateUsed);
    return out;
}

bool PluginHost::importScene(plugin::MeshImporter& importer, const QString& path,
                             const plugin::ImportSettings& settings, import::ImportedScene& out, QString* error)
{
    out = import::ImportedScene{};
    QString why;
    if (!importer.read(path, settings, out, why)) {
        out = import::ImportedScene{};
        if (error)
            *error = why.isEmpty() ? QStringLiteral("%1: the %2 importer failed without saying why").arg(path, importer.shortName()) : why;
        return false;
    }
    std::string check = out.meshes.empty() ? std::string("no mesh") : out.validate();
    if (!check.empty()) {
        if (error)
            *error = QStringLiteral("%1: the %2 importer made an invalid scene: %3").arg(path, importer.shortName(), str(check));
        out = import::ImportedScene{};
        return false;
    }
    if (out.sourcePath.empty())
        out.sourcePath = path.toStdString();
    return true;
}

} // namespace marionette::editor
