// `marionette transfer PROJECT.mproj MESH -o OUT.mproj`: a project's rig applied to another character
// (editor::transferRig), written as a project on that mesh with the source project's scenarios and settings.
#include "Cli.h"
#include "MeshOptions.h"

#include "marionette/editor/autorig/RigTransfer.h"
#include "marionette/editor/autorig/SceneInput.h"
#include "marionette/editor/pluginhost/BoneMapFile.h"
#include "marionette/editor/pluginhost/MeshImport.h"
#include "marionette/project/ProjectFile.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace marionette::cli {

namespace {

const char* kTransferHelp =
    "Usage: marionette transfer PROJECT.mproj MESH -o OUT.mproj [--map FILE.json] [--total-mass KG]\n"
    "                           [--scale S] [--up y|z] [--strict] [--json]\n\n"
    "Applies the project's rig to another character with other bone lengths or proportions: each particle\n"
    "keeps its bone, its place along the bone and its offset from it relative to the skin's radius there;\n"
    "every stick, limit, triangle, shape, pin and binding is carried over with its id, lengths and radii\n"
    "follow the new body and the masses keep their shares of the total (docs/autorig.md, \"Rig transfer\").\n"
    "Bones pair by --map, then by equal names, then by the humanoid body parts and bone-name schemes the\n"
    "auto-rig reads. OUT is the source project on MESH: the transferred rig, the project's scenarios,\n"
    "settings and collision groups; it is written atomically.\n\n"
    "Options:\n"
    "  -o, --output OUT.mproj  the project to write (required)\n"
    "  --map FILE.json         a JSON object pairing bones: {\"SOURCE_BONE\": \"TARGET_BONE\", ...}\n"
    "  --total-mass KG         total mass of the particles on the new character, (0, 1e6] (default: the\n"
    "                          source rig's)\n"
    "  --scale S               metres per unit of MESH, replacing what it declares\n"
    "  --up y|z                MESH's up axis, replacing what it declares\n"
    "  --strict                refuse a MESH with any fault the import would repair\n"
    "  --json                  print {\"output\", \"particles\", \"sticks\", \"triangles\", \"angular\", \"bones\",\n"
    "                          \"total_mass\", \"largest_move\", \"pairs\": [{\"source\", \"target\", \"how\"}],\n"
    "                          \"unmapped_source\", \"unmapped_target\", \"fallbacks\", \"dropped\", \"notes\",\n"
    "                          \"warnings\"}\n"
    "  -h, --help              show this help\n\n"
    "The report lists the rig's bones MESH has no counterpart for, MESH's bones nothing maps to (they follow\n"
    "their parent), particles placed by a fallback and elements left out, with why.\n"
    "Exit codes: 0 written; 1 an unreadable project, mesh or map, no bone in common, a map naming a missing\n"
    "bone, or a rig that does not validate, with 'error: FILE: what'; 2 usage.\n";

QStringList strings(const std::vector<std::string>& v)
{
    QStringList out;
    for (const std::string& s : v)
        out << QString::fromStdString(s);
    return out;
}

} // namespace

int transferCommand(const QStringList& arguments, Io& io)
{
    QCommandLineParser parser;
    const QCommandLineOption output({QStringLiteral("o"), QStringLiteral("output")}, {}, QStringLiteral("FILE"));
    const QCommandLineOption mapOption(QStringLiteral("map"), {}, QStringLiteral("FILE"));
    const QCommandLineOption totalMass(QStringLiteral("total-mass"), {}, QStringLiteral("KG"));
    const QCommandLineOption json(QStringLiteral("json"), {});
    MeshOptions meshOptions;
    parser.addOptions({output, mapOption, totalMass, json});
    meshOptions.addTo(parser);
    if (const int code = parseCommand(arguments, parser, io, kTransferHelp, "PROJECT.mproj MESH", 2); code >= 0)
        return code;
    const QString command = arguments[0];
    if (!parser.isSet(output) || parser.value(output).isEmpty())
        return usageError(io, command, QStringLiteral("missing -o OUT.mproj"));
    const QString projectPath = parser.positionalArguments()[0], meshPath = parser.positionalArguments()[1];
    const QString target = parser.value(output);
    editor::RigTransferOptions options;
    if (parser.isSet(totalMass)) {
        bool ok = false;
        const float kg = parser.value(totalMass).toFloat(&ok);
        if (!ok || !std::isfinite(kg) || !(kg > 0.f) || kg > 1e6f)
            return usageError(io, command,
                              QStringLiteral("--total-mass must be a number in (0, 1e6], not '%1'").arg(parser.value(totalMass)));
        options.totalMass = kg;
    }
    editor::MeshImportRequest request;
    if (const int code = meshOptions.request(parser, meshPath, io, command, request); code >= 0)
        return code;
    const QString mapPath = parser.value(mapOption);
    if (parser.isSet(mapOption))
        if (const QString e = editor::readBoneMapFile(mapPath, options.boneMap); !e.isEmpty())
            return fail(io, e);

    project::Project proj;
    if (const project::LoadResult r = project::loadProject(projectPath, proj); !r.ok())
        return fail(io, r.error);
    QString error;
    const std::optional<import::ImportedScene> sourceMesh = importProjectMesh(proj, projectPath, io, error);
    if (!sourceMesh)
        return fail(io, QStringLiteral("%1: the transfer measures the rig's character on its source mesh: %2")
                            .arg(projectPath, error.isEmpty() ? QStringLiteral("the project has none") : error));
    editor::MeshImportResult imported = importMeshFile(request, io);
    if (!imported.ok())
        return fail(io, imported.error);
    for (const QString& w : imported.warnings)
        io.err << "warning: " << w << '\n';

    const editor::RigTransferResult r =
        editor::transferRig(proj.rig, editor::autoRigInputFromScene(*sourceMesh), editor::autoRigInputFromScene(imported.scene),
                            options);
    if (!r.ok) {
        const QString e = QString::fromStdString(r.error);
        const QString& file = e.startsWith(QLatin1String("map:")) && !mapPath.isEmpty() ? mapPath
                            : e.startsWith(QLatin1String("rig:")) || e.startsWith(QLatin1String("source mesh:")) ? projectPath
                                                                                                              : meshPath;
        return fail(io, QStringLiteral("%1: %2").arg(file, e));
    }

    // The source project on the new mesh: its scenarios, settings and collision groups kept.
    project::SourceMesh source;
    if (!editor::sourceMeshFor(meshPath, target, source, &error))
        return fail(io, error);
    editor::recordImport(proj, meshPath, source, imported.scene.conversion);
    proj.rig = r.rig;
    project::assignMissingIds(proj);
    project::pruneEditorState(proj);
    if (const project::SaveResult saved = project::saveProject(target, proj); !saved.ok())
        return fail(io, saved.error);

    double total = 0.;
    for (const rig::Particle& p : proj.rig.particles)
        total += double(p.mass);
    const rig::RigDescription& d = proj.rig;
    if (parser.isSet(json)) {
        QJsonArray pairs;
        for (const auto& p : r.pairs)
            pairs.append(QJsonObject{{QStringLiteral("source"), QString::fromStdString(p.source)},
                                     {QStringLiteral("target"), QString::fromStdString(p.target)},
                                     {QStringLiteral("how"), QString::fromStdString(p.how)}});
        const QJsonObject o{{QStringLiteral("output"), target},
                            {QStringLiteral("particles"), qint64(d.particles.size())},
                            {QStringLiteral("sticks"), qint64(d.sticks.size())},
                            {QStringLiteral("triangles"), qint64(d.triangles.size())},
                            {QStringLiteral("angular"), qint64(d.angular.size())},
                            {QStringLiteral("bones"), qint64(d.bones.size())},
                            {QStringLiteral("total_mass"), total},
                            {QStringLiteral("largest_move"), double(r.largestMove)},
                            {QStringLiteral("pairs"), pairs},
                            {QStringLiteral("unmapped_source"), QJsonArray::fromStringList(strings(r.unmappedSource))},
                            {QStringLiteral("unmapped_target"), QJsonArray::fromStringList(strings(r.unmappedTarget))},
                            {QStringLiteral("fallbacks"), QJsonArray::fromStringList(strings(r.fallbacks))},
                            {QStringLiteral("dropped"), QJsonArray::fromStringList(strings(r.dropped))},
                            {QStringLiteral("notes"), QJsonArray::fromStringList(strings(r.notes))},
                            {QStringLiteral("warnings"), QJsonArray::fromStringList(imported.warnings)}};
        io.out << QJsonDocument(o).toJson(QJsonDocument::Compact) << '\n';
        return kOk;
    }
    io.out << "wrote " << target << ": the rig of " << projectPath << " on " << meshPath << ": " << d.particles.size()
           << " particles, " << d.sticks.size() << " sticks, " << d.angular.size() << " angular constraints, "
           << r.pairs.size() << " of " << d.bones.size() << " bones paired, " << QString::number(total, 'g', 4)
           << " kg; particles moved up to " << QString::number(double(r.largestMove) * 100.0, 'f', 1) << " cm\n";
    auto list = [&](const char* what, const std::vector<std::string>& v) {
        if (!v.empty())
            io.out << "  " << what << ": " << strings(v).join(QStringLiteral(", ")) << '\n';
    };
    list("rig bones without a counterpart", r.unmappedSource);
    list("mesh bones nothing maps to (they follow their parent)", r.unmappedTarget);
    for (const std::string& f : r.fallbacks)
        io.out << "  fallback: " << QString::fromStdString(f) << '\n';
    for (const std::string& f : r.dropped)
        io.out << "  dropped: " << QString::fromStdString(f) << '\n';
    for (const std::string& n : r.notes)
        io.out << "  note: " << QString::fromStdString(n) << '\n';
    return kOk;
}

} // namespace marionette::cli
