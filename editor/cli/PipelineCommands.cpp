// `marionette import MESH -o PROJECT.mproj` and `marionette build MESH -o RIG.mrig`: Assimp import and the
// auto-rig, into a project or straight into a binary rig.
#include "Cli.h"
#include "MeshOptions.h"

#include "marionette/editor/autorig/AutoRig.h"
#include "marionette/editor/autorig/HumanoidMapping.h"
#include "marionette/editor/document/Validation.h"
#include "marionette/editor/pluginhost/MeshImport.h"
#include "marionette/editor/pluginhost/PluginHost.h"
#include "marionette/project/ProjectFile.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

#include <unistd.h>

namespace marionette::cli {

void MeshOptions::addTo(QCommandLineParser& parser) const { parser.addOptions({scale, up, strict}); }

int MeshOptions::request(const QCommandLineParser& parser, const QString& path, Io& io, const QString& command,
                         editor::MeshImportRequest& out) const
{
    out.path = path;
    out.strict = parser.isSet(strict);
    if (parser.isSet(scale)) {
        bool ok = false;
        const float s = parser.value(scale).toFloat(&ok);
        if (!ok || !std::isfinite(s) || !(s > 0.f) || s > 1e6f)
            return usageError(io, command, QStringLiteral("--scale must be a number in (0, 1e6], not '%1'").arg(parser.value(scale)));
        out.scale = s;
    }
    if (parser.isSet(up)) {
        const QString u = parser.value(up).toLower();
        if (u == QLatin1String("y"))
            out.upAxis = import::UpAxis::Y;
        else if (u == QLatin1String("z"))
            out.upAxis = import::UpAxis::Z;
        else
            return usageError(io, command, QStringLiteral("--up must be y or z, not '%1'").arg(parser.value(up)));
    }
    return -1;
}

editor::MeshImportResult importMeshFile(editor::MeshImportRequest& request, Io& io)
{
    const bool progress = isatty(STDERR_FILENO) != 0;
    if (progress)
        request.progress = [&io](float fraction, const QString& stage) {
            io.err << "\rimporting: " << stage.leftJustified(18) << ' ' << int(fraction * 100.f) << " %" << Qt::flush;
        };
    editor::MeshImportResult imported = editor::importMesh(pluginHost(), request);
    if (progress)
        io.err << "\r" << QString(40, QLatin1Char(' ')) << "\r" << Qt::flush;
    return imported;
}

namespace {

struct PipelineOptions {
    QCommandLineOption output{{QStringLiteral("o"), QStringLiteral("output")}, {}, QStringLiteral("FILE")};
    QCommandLineOption rigTemplate{QStringLiteral("template"), {}, QStringLiteral("NAME")};
    MeshOptions mesh;
    QCommandLineOption mass{QStringLiteral("mass"), {}, QStringLiteral("KG")};
    QCommandLineOption json{QStringLiteral("json"), {}};
    QCommandLineOption massFromMesh{QStringLiteral("mass-from-mesh"), {}};
};

/// What import and build share: the mesh imported and auto-rigged.
struct Rigged {
    import::ImportedScene scene;
    QStringList warnings; ///< "MESH: where: what"
    editor::AutoRigResult rig;
};

/// Parses the options and runs import + auto-rig. Returns -1 to go on, else the exit code.
int importAndRig(const QStringList& arguments, QCommandLineParser& parser, PipelineOptions& o, bool withJson,
                 const char* help, Io& io, Rigged& out)
{
    parser.addOptions({o.output, o.rigTemplate, o.mass, o.massFromMesh});
    o.mesh.addTo(parser);
    if (withJson)
        parser.addOption(o.json);
    if (const int code = parseCommand(arguments, parser, io, help, "MESH"); code >= 0)
        return code;
    const QString command = arguments[0];
    if (!parser.isSet(o.output) || parser.value(o.output).isEmpty())
        return usageError(io, command, QStringLiteral("missing -o %1").arg(command == QLatin1String("build") ? "RIG.mrig" : "PROJECT.mproj"));

    editor::MeshImportRequest request;
    if (const int code = o.mesh.request(parser, parser.positionalArguments().first(), io, command, request); code >= 0)
        return code;
    editor::PluginHost& host = pluginHost();
    const QString templateName = parser.isSet(o.rigTemplate) ? parser.value(o.rigTemplate) : QStringLiteral("auto");
    const plugin::RigTemplate* rigTemplate = host.rigTemplate(templateName);
    if (!rigTemplate) {
        QStringList fromPlugins;
        for (const editor::PluginRecord& r : host.records())
            if (r.kind == editor::PluginKind::Template && r.status == editor::PluginStatus::Loaded && !r.builtIn)
                fromPlugins << r.name;
        QString message = QStringLiteral("--template must be auto, humanoid or generic, not '%1'").arg(templateName);
        if (!fromPlugins.isEmpty())
            message += QStringLiteral(" (plugin templates: %1)").arg(fromPlugins.join(QStringLiteral(", ")));
        return usageError(io, command, message);
    }
    float totalMass = 75.f;
    if (parser.isSet(o.mass)) {
        bool ok = false;
        totalMass = parser.value(o.mass).toFloat(&ok);
        if (!ok || !std::isfinite(totalMass) || !(totalMass > 0.f) || totalMass > 1e6f)
            return usageError(io, command, QStringLiteral("--mass must be a number in (0, 1e6], not '%1'").arg(parser.value(o.mass)));
    }

    const QString& mesh = request.path;
    editor::MeshImportResult imported = importMeshFile(request, io);
    if (!imported.ok())
        return fail(io, imported.error);
    out.scene = std::move(imported.scene);
    out.warnings = imported.warnings;
    out.rig = editor::autoRigMesh(*rigTemplate, out.scene, totalMass);
    if (!out.rig.ok)
        return fail(io, QStringLiteral("%1: %2").arg(mesh, QString::fromStdString(out.rig.error)));
    if (parser.isSet(o.massFromMesh) && !editor::applyMeshMasses(out.rig, out.scene, totalMass))
        return fail(io, QStringLiteral("%1: --mass-from-mesh: %2").arg(mesh, QString::fromStdString(out.rig.notes.back())));
    return -1;
}

/// "warning: MESH: where: what" on stderr, one line per warning of the import.
void printWarnings(Io& io, const QStringList& warnings)
{
    for (const QString& line : warnings)
        io.err << "warning: " << line << '\n';
}

/// Bones a binding drives: one binding per bound bone (validate() refuses a bone bound twice).
std::size_t boundBones(const rig::RigDescription& d) { return d.bindings.size(); }

/// The bones no binding drives (they follow their parent), by name.
QStringList unboundBones(const rig::RigDescription& d)
{
    std::vector<bool> bound(d.bones.size());
    for (const rig::BoneBinding& b : d.bindings)
        bound[std::size_t(b.bone)] = true;
    QStringList out;
    for (std::size_t i = 0; i < d.bones.size(); ++i)
        if (!bound[i])
            out << QString::fromStdString(d.bones[i].name);
    return out;
}

/// What the auto-rig decided, for build --json: the humanoid parts the skeleton's bones were matched to
/// (null where none was found) and, when the skeleton is not a humanoid, why.
QJsonObject humanoidReport(const rig::RigDescription& d)
{
    const editor::HumanoidMapping m = editor::mapHumanoid(d.bones);
    QJsonObject parts;
    for (std::size_t p = 0; p < editor::kHumanoidPartCount; ++p) {
        const std::int32_t bone = m.bones[p];
        parts.insert(QLatin1String(editor::toString(editor::HumanoidPart(p))),
                     bone == rig::kNone ? QJsonValue() : QJsonValue(QString::fromStdString(d.bones[std::size_t(bone)].name)));
    }
    return {{QStringLiteral("complete"), m.complete()}, {QStringLiteral("parts"), parts},
            {QStringLiteral("problem"), QString::fromStdString(m.problem)}};
}

QString summary(const rig::RigDescription& d, const std::string& templateUsed)
{
    return QStringLiteral("%1 template: %2 particles, %3 sticks, %4 triangles, %5 angular constraints, %6 bones (%7 bound)")
        .arg(QString::fromStdString(templateUsed))
        .arg(d.particles.size()).arg(d.sticks.size()).arg(d.triangles.size()).arg(d.angular.size())
        .arg(d.bones.size()).arg(boundBones(d));
}

const char* kImportHelp =
    "Usage: marionette import MESH -o PROJECT.mproj [--template NAME] [--scale S] [--up y|z] [--mass KG]\n"
    "                         [--mass-from-mesh] [--strict]\n\n"
    "Imports a skinned mesh (any format Assimp or an importer plugin reads) in metres and +Y up, builds a\n"
    "ragdoll on its skeleton with the auto-rig or another template, and saves a project referring to the\n"
    "mesh (relative path and SHA-256).\n\n"
    "Options:\n"
    "  -o, --output PROJECT.mproj  the project to write (atomically; required)\n"
    "  --template NAME             auto (humanoid when the bone names map, else generic), humanoid, generic,\n"
    "                              or a plugin's template ('marionette plugins' lists them)\n"
    "  --scale S                   metres per unit of the file, replacing what it declares\n"
    "  --up y|z                    the file's up axis, replacing what it declares\n"
    "  --mass KG                   total mass of the ragdoll (default 75)\n"
    "  --mass-from-mesh            spread the total over the particles by the skinned volume each drives\n"
    "                              instead of the template's masses\n"
    "  --strict                    refuse a mesh with any fault the import would repair (keys past a clip's\n"
    "                              end, unsorted or non-finite keys, weights not summing to 1, a file failing\n"
    "                              Assimp's validation); by default they are repaired, each with a warning\n"
    "  -h, --help                  show this help\n\n"
    "The import's warnings go to stderr as 'warning: MESH: where: what' lines.\n"
    "Exit codes: 0 written; 1 unreadable mesh, no skeleton, a refused template or (--strict) a fault, with\n"
    "'error: ...'; 2 usage.\n";

const char* kBuildHelp =
    "Usage: marionette build MESH -o RIG.mrig [--template NAME] [--scale S] [--up y|z] [--mass KG]\n"
    "                        [--mass-from-mesh] [--strict] [--json]\n\n"
    "import, auto-rig and export in one go: the .mrig a game loads, straight from a skinned mesh.\n\n"
    "Options:\n"
    "  -o, --output RIG.mrig  the rig to write (atomically; required)\n"
    "  --template NAME        auto (humanoid when the bone names map, else generic), humanoid, generic,\n"
    "                         or a plugin's template ('marionette plugins' lists them)\n"
    "  --scale S              metres per unit of the file, replacing what it declares\n"
    "  --up y|z               the file's up axis, replacing what it declares\n"
    "  --mass KG              total mass of the ragdoll (default 75)\n"
    "  --mass-from-mesh       spread the total over the particles by the skinned volume each drives\n"
    "                         instead of the template's masses\n"
    "  --strict               refuse a mesh with any fault the import would repair (keys past a clip's end,\n"
    "                         unsorted or non-finite keys, weights not summing to 1, a file failing Assimp's\n"
    "                         validation); by default they are repaired, each with a warning\n"
    "  --json                 print {\"particles\", \"sticks\", \"triangles\", \"angular\", \"bones\", \"bound_bones\",\n"
    "                         \"template\", \"notes\", \"unbound_bones\", \"humanoid\": {\"complete\", \"parts\",\n"
    "                         \"problem\"}, \"warnings\"} (warnings: the 'MESH: where: what' lines)\n"
    "  -h, --help             show this help\n\n"
    "The import's warnings, and the editor's validation warnings on the rig ('MESH: rig: what'), go to\n"
    "stderr as 'warning: MESH: where: what' lines.\n"
    "Exit codes: 0 written; 1 unreadable mesh, no skeleton, a refused template, a rig the editor's validation\n"
    "refuses or (--strict) a fault, with\n"
    "'error: ...'; 2 usage.\n";

} // namespace

int importCommand(const QStringList& arguments, Io& io)
{
    QCommandLineParser parser;
    PipelineOptions o;
    Rigged rigged;
    if (const int code = importAndRig(arguments, parser, o, false, kImportHelp, io, rigged); code >= 0)
        return code;
    const QString mesh = parser.positionalArguments().first();
    const QString target = parser.value(o.output);
    project::Project proj;
    project::SourceMesh source;
    QString hashError;
    if (!editor::sourceMeshFor(mesh, target, source, &hashError))
        return fail(io, hashError);
    editor::recordImport(proj, mesh, source, rigged.scene.conversion); // as the editor records it

    proj.rig = std::move(rigged.rig.rig);
    project::assignMissingIds(proj);
    const project::SaveResult saved = project::saveProject(target, proj);
    if (!saved.ok())
        return fail(io, saved.error);
    io.out << "wrote " << target << " from " << mesh << ": " << summary(proj.rig, rigged.rig.templateUsed) << '\n';
    for (const std::string& note : rigged.rig.notes)
        io.out << "  note: " << QString::fromStdString(note) << '\n';
    printWarnings(io, rigged.warnings);
    return kOk;
}

int buildCommand(const QStringList& arguments, Io& io)
{
    QCommandLineParser parser;
    PipelineOptions o;
    Rigged rigged;
    if (const int code = importAndRig(arguments, parser, o, true, kBuildHelp, io, rigged); code >= 0)
        return code;
    const QString target = parser.value(o.output);
    const QString mesh = parser.positionalArguments().first();
    const rig::RigDescription& d = rigged.rig.rig;
    // What is written is judged as the editor and `marionette export` judge it (with the mesh, which names
    // skinned bones nothing drives); its warnings join the import's.
    const editor::RigVerdict verdict = editor::rigVerdict(d, &rigged.scene);
    if (!verdict.ok())
        return fail(io, QStringLiteral("%1: %2").arg(mesh, verdict.issues.front().message));
    for (const editor::ValidationIssue& issue : verdict.issues)
        rigged.warnings << QStringLiteral("%1: rig: %2").arg(mesh, issue.message);
    QString error;
    const plugin::ExportContext context{target, mesh, {}};
    if (!editor::PluginHost::exportRig(*pluginHost().exporter(QStringLiteral("mrig")), *verdict.valid, context, &error))
        return fail(io, error);
    // The report of what the auto-rig decided: the template and why (its notes), the bones it left unbound.
    QStringList notes;
    for (const std::string& note : rigged.rig.notes)
        notes << QString::fromStdString(note);
    const QStringList unbound = unboundBones(d);
    if (parser.isSet(o.json)) {
        const QJsonObject j{{QStringLiteral("particles"), qint64(d.particles.size())},
                            {QStringLiteral("sticks"), qint64(d.sticks.size())},
                            {QStringLiteral("triangles"), qint64(d.triangles.size())},
                            {QStringLiteral("angular"), qint64(d.angular.size())},
                            {QStringLiteral("bones"), qint64(d.bones.size())},
                            {QStringLiteral("bound_bones"), qint64(boundBones(d))},
                            {QStringLiteral("template"), QString::fromStdString(rigged.rig.templateUsed)},
                            {QStringLiteral("notes"), QJsonArray::fromStringList(notes)},
                            {QStringLiteral("unbound_bones"), QJsonArray::fromStringList(unbound)},
                            {QStringLiteral("humanoid"), humanoidReport(d)},
                            {QStringLiteral("warnings"), QJsonArray::fromStringList(rigged.warnings)}};
        io.out << QJsonDocument(j).toJson(QJsonDocument::Compact) << '\n';
    } else {
        io.out << "wrote " << target << ": " << summary(d, rigged.rig.templateUsed) << '\n';
        if (!unbound.isEmpty())
            io.out << "  unbound bones (they follow their parent): " << unbound.join(QStringLiteral(", ")) << '\n';
        for (const QString& note : notes)
            io.out << "  note: " << note << '\n';
    }
    printWarnings(io, rigged.warnings);
    return kOk;
}

} // namespace marionette::cli
