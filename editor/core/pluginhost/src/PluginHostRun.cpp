// Running extensions through the plugin host with the checks every caller needs: exports (validated rig,
// atomic write), rig templates (checked input, checked rig) and imports (checked scene).
#include "marionette/editor/pluginhost/PluginHost.h"

#include "BuiltinAssimpImporter.h"
#include "BuiltinMrigExporter.h"

#include "marionette/project/AtomicFile.h"
#include "marionette/runtime/Rig.h"

#include <QFileInfo>


namespace marionette::editor {

namespace {

QString str(const std::string& s) { return QString::fromStdString(s); }

/// Where export messages start: the source of the rig, or the target when there is no source.
QString sourceOf(const plugin::ExportContext& context)
{
    return context.sourcePath.isEmpty() ? context.targetPath : context.sourcePath;
}

/// autoRig()'s input checks and skeleton preparation (prepareAutoRigSkeleton), then the template's input.
/// Returns "" or the error.
std::string prepareInput(const AutoRigInput& in, plugin::TemplateInput& out, std::vector<std::string>& notes)
{
    if (std::string e = prepareAutoRigSkeleton(in, out.skeleton, notes); !e.empty())
        return e;
    out.boneVertices = in.boneVertices;
    out.boneVertices.resize(in.skeleton.size());
    out.totalMass = in.totalMass;
    out.name = in.name.empty() ? "autorig" : in.name;
    return {};
}

} // namespace

bool PluginHost::exportRigBytes(const plugin::RigExporter& exporter, const rig::RigDescription& rig,
                                const plugin::ExportContext& context, QByteArray& out, QString* error)
{
    std::string e;
    const std::optional<rig::Validated> valid = rig::validated(rig, &e);
    if (!valid) {
        if (error)
            *error = QStringLiteral("%1: the rig is invalid: %2").arg(sourceOf(context), str(e));
        return false;
    }
    return exportRigBytes(exporter, *valid, context, out, error);
}

bool PluginHost::exportRigBytes(const plugin::RigExporter& exporter, const rig::Validated& rig,
                                const plugin::ExportContext& context, QByteArray& out, QString* error)
{
    const QString source = sourceOf(context);
    auto failed = [&](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    // Through the builder once (it refuses nothing validation passed), so every export has been compiled.
    if (!runtime::Rig::build(rig))
        return failed(QStringLiteral("%1: the runtime cannot build the rig").arg(source));
    out.clear();
    QString why;
    const auto* builtIn = dynamic_cast<const BuiltinMrigExporter*>(&exporter);
    const bool written = builtIn ? builtIn->writeValidated(rig, out, why) : exporter.write(rig.description(), context, out, why);
    if (!written)
        return failed(QStringLiteral("%1: %2 export: %3")
                          .arg(context.targetPath.isEmpty() ? source : context.targetPath, exporter.shortName(),
                               why.isEmpty() ? QStringLiteral("failed without saying why") : why));
    return true;
}

namespace {

/// Writes `bytes` to context.targetPath atomically.
bool writeAtomically(const QByteArray& bytes, const plugin::ExportContext& context, QString* error)
{
    QString why;
    if (project::writeFileAtomically(context.targetPath, bytes, why))
        return true;
    if (error)
        *error = why;
    return false;
}

/// exportRigBytes() for `rig` (a description or its proof of validation), written to context.targetPath.
template <typename RigOrProof>
bool exportToFile(const plugin::RigExporter& exporter, const RigOrProof& rig, const plugin::ExportContext& context,
                  QString* error)
{
    if (context.targetPath.isEmpty()) {
        if (error)
            *error = QStringLiteral("no file to export to");
        return false;
    }
    QByteArray bytes;
    return PluginHost::exportRigBytes(exporter, rig, context, bytes, error) && writeAtomically(bytes, context, error);
}

} // namespace

bool PluginHost::exportRig(const plugin::RigExporter& exporter, const rig::RigDescription& rig,
                           const plugin::ExportContext& context, QString* error)
{
    return exportToFile(exporter, rig, context, error);
}

bool PluginHost::exportRig(const plugin::RigExporter& exporter, const rig::Validated& rig,
                           const plugin::ExportContext& context, QString* error)
{
    return exportToFile(exporter, rig, context, error);
}

QString PluginHost::levelPath(const QString& target, int level)
{
    const QString suffix = QFileInfo(target).suffix();
    const QString lod = QStringLiteral(".lod%1").arg(level);
    if (suffix.isEmpty())
        return target + lod;
    return target.left(target.size() - suffix.size() - 1) + lod + u'.' + suffix;
}

bool PluginHost::exportLevels(const plugin::RigExporter& exporter, const std::vector<project::LodLevel>& levels,
                              const plugin::ExportContext& context, std::vector<QString>& written, QString* error)
{
    for (std::size_t k = 0; k < levels.size(); ++k) {
        plugin::ExportContext level = context;
        level.targetPath = levelPath(context.targetPath, int(k + 1));
        if (!exportToFile(exporter, levels[k].rig, level, error))
            return false;
        written.push_back(level.targetPath);
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
    std::string check = sameSkeleton ? std::string() : "it added, removed or reordered bones";
    if (check.empty() && !runtime::Rig::build(r.rig, &check) && check.empty()) // validates once
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
                             const plugin::ImportSettings& settings, import::ImportedScene& out, QString* error,
                             std::stop_token stop, bool* cancelled)
{
    out = import::ImportedScene{};
    QString why;
    bool stopped = false;
    auto* builtIn = dynamic_cast<BuiltinAssimpImporter*>(&importer);
    const bool read = builtIn ? builtIn->read(path, settings, out, why, stop, stopped) : importer.read(path, settings, out, why);
    stopped = stopped || stop.stop_requested();
    if (cancelled)
        *cancelled = stopped;
    if (stopped) {
        out = import::ImportedScene{};
        if (error)
            *error = QStringLiteral("%1: import cancelled").arg(path);
        return false;
    }
    if (!read) {
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
