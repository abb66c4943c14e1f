// `marionette simulate PROJECT --scenario NAME | --all-scenarios`: recorded preview scenarios replayed headless
// (editor::runScenario, the preview's own code path) and checked against their expectations; and
// `marionette bake PROJECT --scenario NAME -o FILE`: one replayed and written as an animation clip.
#include "Cli.h"
#include "RigFiles.h"

#include "marionette/editor/pluginhost/MeshImport.h"
#include "marionette/editor/preview/BakedClip.h"
#include "marionette/editor/preview/ClipFiles.h"
#include "marionette/editor/preview/ScenarioRunner.h"
#include "marionette/project/ProjectFile.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <optional>

namespace marionette::cli {

namespace {

/// "no scenario 'x' in hero.mproj (it has: drop, rush)", or "(it has none)".
QString noSuchScenario(const project::Project& proj, const QString& name, const QString& path)
{
    QStringList names;
    for (const project::Scenario& s : proj.scenarios)
        names << s.name;
    return names.isEmpty() ? QStringLiteral("no scenario '%1' in %2 (it has none)").arg(name, path)
                           : QStringLiteral("no scenario '%1' in %2 (it has: %3)").arg(name, path, names.join(QStringLiteral(", ")));
}

} // namespace

std::optional<import::ImportedScene> importProjectMesh(const project::Project& proj, const QString& path, Io& io,
                                                       QString& error)
{
    editor::MeshImportRequest request;
    QStringList warnings;
    std::optional<import::ImportedScene> mesh;
    if (editor::projectMeshRequest(proj, path, request, &warnings, &error)) {
        editor::MeshImportResult imported = editor::importMesh(pluginHost(), request);
        warnings << imported.warnings;
        if (imported.ok())
            mesh = std::move(imported.scene);
        else
            error = imported.error;
    }
    for (const QString& w : warnings)
        io.err << "warning: " << w << '\n';
    return mesh;
}

namespace {

const char* kBakeHelp =
    "Usage: marionette bake PROJECT.mproj --scenario NAME -o FILE.glb|FILE.json [--fps N] [--format glb|json]\n\n"
    "Replays a recorded scenario of the project headless (as 'simulate --scenario' and the editor's preview do)\n"
    "and writes what the preview shows as an animation clip on the character's skeleton: every bone keyed at\n"
    "every step (local translation, rotation and scale relative to its parent). A .glb is binary glTF 2.0 with\n"
    "the skinned mesh, the skeleton and the clip, for a game engine or a DCC tool; a .json is the clip alone\n"
    "(docs/formats.md). The project's source mesh is imported as the project records it. The file is replaced\n"
    "atomically: on any failure an existing FILE is left as it was and no partial file is written.\n\n"
    "Options:\n"
    "  --scenario NAME    the scenario to bake (required)\n"
    "  -o, --output FILE  the file to write (required)\n"
    "  --format NAME      glb or json (default: from FILE's extension)\n"
    "  --fps N            keys per second, in (0, 1000] (default: the simulation's step, 60 for 1/60 s)\n"
    "  -h, --help         show this help\n\n"
    "Exit codes: 0 written; 1 bad project, no source mesh, a rig whose bones are not the mesh's skeleton, a\n"
    "scenario that cannot run, or a write failure, with 'error: ...' on stderr; 2 usage error (an unknown\n"
    "scenario, format or --fps).\n";

/// Loads PATH, which must be a project (scenarios live in projects), for `bake` and `simulate --scenario`:
/// kOk, else the exit code with its one error line printed.
int loadScenarioProject(const QString& path, Io& io, const QString& command, project::Project& proj)
{
    RigFile file;
    if (const QString error = loadRigFile(path, file); !error.isEmpty())
        return fail(io, error);
    if (file.kind != RigFile::Kind::Project)
        return usageError(io, command, QStringLiteral("%1 is a binary rig: scenarios live in projects (.mproj)").arg(path));
    if (const project::LoadResult r = project::loadProject(path, proj); !r.ok())
        return fail(io, r.error);
    return kOk;
}

} // namespace

int bakeCommand(const QStringList& arguments, Io& io)
{
    QCommandLineParser parser;
    const QCommandLineOption scenarioOption(QStringLiteral("scenario"), QStringLiteral("Scenario."), QStringLiteral("NAME"));
    const QCommandLineOption output({QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("Output file."),
                                    QStringLiteral("FILE"));
    const QCommandLineOption format(QStringLiteral("format"), QStringLiteral("glb or json."), QStringLiteral("NAME"));
    const QCommandLineOption fps(QStringLiteral("fps"), QStringLiteral("Keys per second."), QStringLiteral("N"));
    parser.addOptions({scenarioOption, output, format, fps});
    if (const int code = parseCommand(arguments, parser, io, kBakeHelp, "PROJECT.mproj"); code >= 0)
        return code;
    const QString command = arguments[0];
    if (!parser.isSet(scenarioOption))
        return usageError(io, command, QStringLiteral("missing --scenario NAME"));
    if (!parser.isSet(output) || parser.value(output).isEmpty())
        return usageError(io, command, QStringLiteral("missing -o FILE.glb or -o FILE.json"));
    const QString path = parser.positionalArguments().first();
    const QString target = parser.value(output);
    editor::ClipFormat clipFormat = editor::ClipFormat::Glb;
    if (parser.isSet(format)) {
        const QString f = parser.value(format);
        if (f == QLatin1String("glb"))
            clipFormat = editor::ClipFormat::Glb;
        else if (f == QLatin1String("json"))
            clipFormat = editor::ClipFormat::Json;
        else
            return usageError(io, command, QStringLiteral("unknown format '%1' (available: glb, json)").arg(f));
    } else if (!editor::clipFormatForPath(target, clipFormat)) {
        return usageError(io, command, QStringLiteral("cannot tell the format of %1 from its extension: name it .glb or "
                                                      ".json, or give --format").arg(target));
    }
    editor::BakeOptions options;
    if (parser.isSet(fps)) {
        bool ok = false;
        const double value = parser.value(fps).toDouble(&ok);
        if (!ok || !std::isfinite(value) || value <= 0.0 || value > 1000.0)
            return usageError(io, command, QStringLiteral("--fps must be a number in (0, 1000], not '%1'").arg(parser.value(fps)));
        options.fps = float(value);
    }

    project::Project proj;
    if (const int failed = loadScenarioProject(path, io, command, proj); failed != kOk)
        return failed;
    const QString name = parser.value(scenarioOption);
    const auto scenario = std::find_if(proj.scenarios.begin(), proj.scenarios.end(),
                                       [&](const project::Scenario& s) { return s.name == name; });
    if (scenario == proj.scenarios.end())
        return usageError(io, command, noSuchScenario(proj, name, path));
    QString error;
    const std::optional<import::ImportedScene> mesh = importProjectMesh(proj, path, io, error);
    if (!mesh)
        return fail(io, QStringLiteral("%1: cannot bake without the source mesh: %2")
                            .arg(path, error.isEmpty() ? QStringLiteral("the project has none") : error));

    editor::PaletteRecording recording;
    if (!editor::recordScenario(proj.rig, *scenario, &*mesh, recording, error))
        return fail(io, QStringLiteral("%1: %2").arg(path, error));
    options.name = name.toStdString();
    editor::BakedClip clip;
    if (!editor::bakeClip(*mesh, recording, options, clip, error))
        return fail(io, QStringLiteral("%1: scenario '%2': %3").arg(path, name, error));
    if (!editor::writeBakedClip(target, clipFormat, *mesh, clip, error))
        return fail(io, error);
    io.out << "wrote " << target << " (" << QFileInfo(target).size() << " bytes): clip '" << name << "', "
           << clip.frameCount() << " frames at " << clip.frameRate << " fps ("
           << QString::number(double(clip.times.back()), 'f', 2) << " s), " << clip.boneCount() << " bones";
    if (clipFormat == editor::ClipFormat::Glb)
        io.out << ", " << mesh->vertexCount() << " vertices";
    io.out << '\n';
    return kOk;
}

int simulateScenarios(const QString& path, const QString& name, bool all, bool json, Io& io, const QString& command)
{
    project::Project proj;
    if (const int failed = loadScenarioProject(path, io, command, proj); failed != kOk)
        return failed;

    std::vector<const project::Scenario*> chosen;
    for (const project::Scenario& s : proj.scenarios)
        if (all || s.name == name)
            chosen.push_back(&s);
    if (!all && chosen.empty())
        return usageError(io, command, noSuchScenario(proj, name, path));
    if (chosen.empty())
        return fail(io, QStringLiteral("%1: the project has no scenarios to run").arg(path));

    // A scenario that starts from an animation clip or plays one through the drives needs the source mesh,
    // imported as the project records.
    std::optional<import::ImportedScene> mesh;
    if (std::any_of(chosen.begin(), chosen.end(), [](const project::Scenario* s) {
            return s->animationStart.has_value() || s->driven.has_value();
        })) {
        QString why;
        mesh = importProjectMesh(proj, path, io, why);
        if (!mesh)
            io.err << "warning: " << path << ": "
                   << (why.isEmpty() ? QStringLiteral("the project has no source mesh to take animation clips from") : why) << '\n';
    }

    bool allPassed = true;
    QJsonArray results;
    QStringList errors;
    for (const project::Scenario* s : chosen) {
        const editor::ScenarioResult r = editor::runScenario(proj.rig, *s, mesh ? &*mesh : nullptr);
        allPassed = allPassed && r.passed;
        for (const QString& f : r.failures)
            errors << QStringLiteral("%1: scenario '%2': %3").arg(path, s->name, f);
        static const char* const kPhases[] = {"off", "playing", "limp", "getting up"};
        const char* endPhase = r.endPhase >= 0 && r.endPhase < 4 ? kPhases[r.endPhase] : "off";
        if (json) {
            QJsonObject o{{QStringLiteral("name"), s->name},
                          {QStringLiteral("passed"), r.passed},
                          {QStringLiteral("steps"), qint64(r.steps)},
                          {QStringLiteral("settled_at"), double(r.settledAt)},
                          {QStringLiteral("max_penetration"), double(r.maxPenetration)},
                          {QStringLiteral("max_limit_violation_deg"), double(r.maxLimitViolationDegrees)},
                          {QStringLiteral("failures"), QJsonArray::fromStringList(r.failures)}};
            if (r.driven)
                o.insert(QStringLiteral("driven"),
                         QJsonObject{{QStringLiteral("max_tracking_cm"), double(r.maxTrackingErrorCm)},
                                     {QStringLiteral("max_tracking_at"), double(r.maxTrackingErrorAt)},
                                     {QStringLiteral("last_disturbance"), double(r.lastDisturbance)},
                                     {QStringLiteral("recovered_after"), double(r.recoveredAfter)},
                                     {QStringLiteral("fell_at"), double(r.fellAt)},
                                     {QStringLiteral("end_phase"), QString::fromLatin1(endPhase)},
                                     {QStringLiteral("end_root_height_ratio"), double(r.endRootHeightRatio)},
                                     {QStringLiteral("end_tracking_cm"), double(r.endTrackingErrorCm)}});
            results.append(o);
            continue;
        }
        const QString settled = r.settledAt >= 0.f ? QStringLiteral("settled at %1 s").arg(r.settledAt, 0, 'f', 2)
                                                   : QStringLiteral("not settled");
        io.out << (r.passed ? "PASS " : "FAIL ") << s->name << ": " << settled << ", penetration "
               << QString::number(double(r.maxPenetration) * 1000.0, 'f', 1) << " mm, limit excess "
               << QString::number(double(r.maxLimitViolationDegrees), 'f', 2) << " deg, " << r.steps << " steps";
        if (r.driven) {
            io.out << "; tracking "
                   << (r.maxTrackingErrorCm >= 0.f ? QString::number(double(r.maxTrackingErrorCm), 'f', 2) + QStringLiteral(" cm")
                                                   : QStringLiteral("-"));
            if (r.lastDisturbance >= 0.f)
                io.out << ", " << (r.recoveredAfter >= 0.f ? QStringLiteral("recovered after %1 s").arg(double(r.recoveredAfter), 0, 'f', 2)
                                                           : QStringLiteral("not recovered"));
            io.out << ", " << (r.fellAt >= 0.f ? QStringLiteral("fell at %1 s").arg(double(r.fellAt), 0, 'f', 2)
                                               : QStringLiteral("did not fall"))
                   << ", ends " << endPhase << " at " << QString::number(double(r.endRootHeightRatio) * 100.0, 'f', 0)
                   << " % of the clip's root height";
        }
        if (!r.passed)
            io.out << " (" << r.failures.join(QStringLiteral("; ")) << ")";
        io.out << '\n';
    }
    if (json)
        io.out << QJsonDocument(QJsonObject{{QStringLiteral("project"), path},
                                            {QStringLiteral("passed"), allPassed},
                                            {QStringLiteral("scenarios"), results}})
                      .toJson(QJsonDocument::Compact)
               << '\n';
    io.out.flush();
    for (const QString& e : errors)
        io.err << "error: " << e << '\n';
    return allPassed ? kOk : kUserError;
}

} // namespace marionette::cli
