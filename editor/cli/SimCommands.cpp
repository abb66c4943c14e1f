// `marionette simulate RIG` and `marionette bench RIG`: headless runs of a rig through the runtime.
#include "Cli.h"
#include "RigFiles.h"

#include "marionette/editor/preview/Bench.h"
#include "marionette/editor/preview/RunFigures.h"
#include "marionette/editor/preview/TestScenes.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include <unistd.h>

namespace marionette::cli {

namespace {

using runtime::Ragdoll;
using runtime::RagdollHandle;
using runtime::World;

/// Overrides of a rig's solver schedule from the command line (0 / empty: the rig's own).
struct Schedule {
    long iterations = 0, substeps = 0;
    std::optional<rig::SolverMode> solver;
};

/// Reads --solver NAME into `schedule`; false (and a usage error in `code`) for an unknown name.
bool solverOption(const QCommandLineParser& parser, const QCommandLineOption& option, Schedule& schedule, Io& io,
                  const QString& command, int& code)
{
    if (!parser.isSet(option))
        return true;
    const QString name = parser.value(option);
    for (const rig::SolverMode mode : {rig::SolverMode::GaussSeidel, rig::SolverMode::Jacobi, rig::SolverMode::Xpbd,
                                       rig::SolverMode::Direct})
        if (name == QLatin1String(rig::toString(mode))) {
            schedule.solver = mode;
            return true;
        }
    code = usageError(io, command,
                      QStringLiteral("--solver must be gauss-seidel, jacobi, xpbd or direct, not '%1'").arg(name));
    return false;
}

/// The rig of `path` (a .mrig, or a .mproj's rig), compiled; on failure prints the error and sets code.
/// The rig's solver, iterations per substep and substeps overridden where `schedule` says.
std::shared_ptr<const runtime::Rig> loadRig(const QString& path, Io& io, int& code, const Schedule& schedule = {})
{
    RigFile file;
    if (const QString error = loadRigFile(path, file); !error.isEmpty()) {
        code = fail(io, error);
        return nullptr;
    }
    if (schedule.iterations > 0)
        file.rig.settings.iterations = std::uint32_t(schedule.iterations);
    if (schedule.substeps > 0)
        file.rig.settings.substeps = std::uint32_t(schedule.substeps);
    if (schedule.solver)
        file.rig.settings.solver = *schedule.solver;
    std::string error;
    auto rig = runtime::Rig::build(file.rig, &error);
    if (!rig)
        code = fail(io, QStringLiteral("%1: the runtime cannot build the rig: %2").arg(path, QString::fromStdString(error)));
    return rig;
}

struct Hit {
    std::uint32_t particle;
    Vec3 impulse;
    long frame;
};

const char* kSimulateHelp =
    "Usage: marionette simulate [options] RIG\n"
    "       marionette simulate PROJECT.mproj --scenario NAME | --all-scenarios [--json]\n"
    "       marionette simulate RIG|PROJECT --animation CLIP [options]\n\n"
    "Runs a rig (.mrig, or a .mproj's rig) headless: drops it onto a scene, applies hits, and reports whether\n"
    "it stayed finite, when it settled, the largest stick error, penetration and angular-limit excess.\n\n"
    "Options:\n"
    "  --frames N            steps of the rig's time step to run (default 300)\n"
    "  --drop HEIGHT         height of the bind pose's lowest point above the floor, metres (default 1)\n"
    "  --yaw DEGREES         turn the rig about the vertical before the drop, [-360, 360] (default 0)\n"
    "  --scene NAME          floor | stairs | ledge | box (default floor; see docs/preview.md)\n"
    "  --hit P:FX,FY,FZ@F    impulse (N·s) on particle P (a name or an index) at frame F; repeatable\n"
    "  --substeps N          override the rig's solver substeps per step, [1, 64]\n"
    "  --iterations N        override the rig's iterations per substep, [1, 64]\n"
    "  --solver NAME         override the rig's solver: gauss-seidel, jacobi, xpbd or direct\n"
    "  --json                print {\"frames\", \"finite\", \"settled_frame\", \"settle_seconds\",\n"
    "                        \"max_stick_error\", \"max_stick_error_impact\", \"max_stick_error_rest\",\n"
    "                        \"worst_stick\", \"max_penetration\", \"min_height\", \"max_limit_violation_deg\",\n"
    "                        \"worst_limit\", \"dropped_contacts\"}\n"
    "  --scenario NAME       replay the project's recorded scenario NAME (as the editor's preview does) and\n"
    "                        check its expectations; prints PASS/FAIL with the measured values\n"
    "  --all-scenarios       the same for every scenario of the project\n"
    "  --animation CLIP      instead of a drop, play CLIP through the rig's drives (a powered ragdoll) and\n"
    "                        report the tracking error; its options: 'marionette simulate --animation=x --help'\n"
    "  -h, --help            show this help\n\n"
    "With --scenario/--all-scenarios, --json prints {\"project\", \"passed\", \"scenarios\": [{\"name\", \"passed\",\n"
    "\"steps\", \"settled_at\", \"max_penetration\", \"max_limit_violation_deg\", \"failures\"}]}; the exit code is\n"
    "1 when any expectation fails (one 'error: PROJECT: scenario 'NAME': ...' line each on stderr).\n\n"
    "settled_frame is the first frame from which every particle moves slower than 5 cm/s (over each frame)\n"
    "to the end (-1 if it never does) and settle_seconds the time to the end of that frame (-1);\n"
    "max_stick_error is the largest |L - clamp(L, min, max)| / rest length over the run,\n"
    "max_stick_error_impact the same over the 0.5 s after the first contact and max_stick_error_rest over\n"
    "the last second; worst_stick and worst_limit name the stick and angular constraint with the largest\n"
    "error (\"\" when none); max_penetration the deepest particle sphere in the floor or a box (metres);\n"
    "min_height the lowest particle centre; max_limit_violation_deg the largest angular-limit excess after a\n"
    "step; dropped_contacts the contact candidates that did not fit the world's buffers over the run (0\n"
    "unless the world is overloaded). Exit codes: 0 success, 1 bad rig file or particle, 2 usage error.\n";

const char* kBenchHelp =
    "Usage: marionette bench [options] RIG\n\n"
    "Times World::step() on many ragdolls of a rig (.mrig, or a .mproj's rig).\n\n"
    "Options:\n"
    "  --ragdolls N     ragdolls to spawn (default 160)\n"
    "  --frames N       steps to time (default 500)\n"
    "  --threads N      threads stepping the world (default 1)\n"
    "  --iterations N   override the rig's iterations per substep, [1, 64]\n"
    "  --substeps N     override the rig's substeps per step, [1, 64]\n"
    "  --solver NAME    override the rig's solver: gauss-seidel, jacobi, xpbd or direct\n"
    "  --scene NAME     piles: piles of 10 on a 3 m grid, each body lying down, stacked 0.5 m apart from\n"
    "                   1 m up, random yaw (the runtime's benchmark scene); spread: one standing body per\n"
    "                   grid cell (default piles)\n"
    "  --no-sleep       ragdolls never fall asleep (every step costs the same)\n"
    "  --instruction-set NAME\n"
    "                   run the runtime's kernels on scalar, sse2 or avx2 instead of the best this\n"
    "                   machine has, to compare the paths\n"
    "  --json           print {\"ragdolls\", \"threads\", \"frames\", \"schedule\": {\"solver\", \"substeps\",\n"
    "                   \"iterations\"}, \"instruction_set\", \"us_per_step_median\", \"us_per_ragdoll_step\",\n"
    "                   \"direct_solve\": {\"rigid_sticks\", \"factor_nonzeros\", \"depth\", \"limit_rows\"} or null,\n"
    "                   \"newton_steps_per_ragdoll_step\", \"factorizations_per_ragdoll_step\"}\n"
    "  -h, --help       show this help\n\n"
    "us_per_step_median is the median wall time of one step; us_per_ragdoll_step that divided by the\n"
    "ragdoll count. The schedule is the rig's solver settings (after --iterations); the instruction set\n"
    "the one the runtime's kernels use (the best this machine has, or --instruction-set). With the direct\n"
    "solver, direct_solve is the system each projection solves: the rigid sticks in it, its factor's\n"
    "nonzeros and depth (the longest chain of pivots each waiting for the last), and the rows that join\n"
    "it near their limits; and\n"
    "newton_steps_per_ragdoll_step and factorizations_per_ragdoll_step count its work over the timed steps:\n"
    "projections taken (at most substeps x iterations; a substep that converges stops early) and solves of\n"
    "the rigid sticks' system (more than one per projection when contacts that would pull are let go).\n"
    "With the other solvers direct_solve is null and the counts 0.\n"
    "Run on an idle machine. Exit codes: 0 success, 1 bad rig file, 2 usage error.\n";

} // namespace

int simulateCommand(const QStringList& arguments, Io& io)
{
    for (const QString& a : arguments.mid(1))
        if (a == QLatin1String("--animation") || a == QLatin1String("-animation") ||
            a.startsWith(QLatin1String("--animation=")))
            return simulateDriven(arguments, io);
    QCommandLineParser parser;
    const QCommandLineOption frames(QStringLiteral("frames"), {}, QStringLiteral("N"));
    const QCommandLineOption drop(QStringLiteral("drop"), {}, QStringLiteral("HEIGHT"));
    const QCommandLineOption yaw(QStringLiteral("yaw"), {}, QStringLiteral("DEGREES"));
    const QCommandLineOption scene(QStringLiteral("scene"), {}, QStringLiteral("NAME"));
    const QCommandLineOption hit(QStringLiteral("hit"), {}, QStringLiteral("P:FX,FY,FZ@F"));
    const QCommandLineOption substeps(QStringLiteral("substeps"), {}, QStringLiteral("N"));
    const QCommandLineOption iterations(QStringLiteral("iterations"), {}, QStringLiteral("N"));
    const QCommandLineOption solver(QStringLiteral("solver"), {}, QStringLiteral("NAME"));
    const QCommandLineOption json(QStringLiteral("json"), {});
    const QCommandLineOption scenarioOption(QStringLiteral("scenario"), {}, QStringLiteral("NAME"));
    const QCommandLineOption allScenarios(QStringLiteral("all-scenarios"), {});
    parser.addOptions({frames, drop, yaw, scene, hit, substeps, iterations, solver, json, scenarioOption, allScenarios});
    if (const int code = parseCommand(arguments, parser, io, kSimulateHelp, "RIG"); code >= 0)
        return code;
    const QString command = arguments[0];
    if (parser.isSet(scenarioOption) || parser.isSet(allScenarios)) {
        if (parser.isSet(scenarioOption) && parser.isSet(allScenarios))
            return usageError(io, command, QStringLiteral("--scenario and --all-scenarios exclude each other"));
        for (const QCommandLineOption* o : {&frames, &drop, &yaw, &scene, &hit, &substeps, &iterations, &solver})
            if (parser.isSet(*o))
                return usageError(io, command, QStringLiteral("--%1 cannot be combined with a scenario: the scenario "
                                                              "says what to run").arg(o->names().constFirst()));
        return simulateScenarios(parser.positionalArguments().first(), parser.value(scenarioOption),
                                 parser.isSet(allScenarios), parser.isSet(json), io, command);
    }
    int code = kOk;
    long frameCount = 300;
    Schedule schedule;
    double dropHeight = 1.0, yawDegrees = 0.0;
    if (!intOption(parser, frames, 1, 1000000, frameCount, io, command, code) ||
        !floatOption(parser, drop, 0.0, 1000.0, dropHeight, io, command, code) ||
        !floatOption(parser, yaw, -360.0, 360.0, yawDegrees, io, command, code) ||
        !intOption(parser, substeps, 1, 64, schedule.substeps, io, command, code) ||
        !intOption(parser, iterations, 1, 64, schedule.iterations, io, command, code) ||
        !solverOption(parser, solver, schedule, io, command, code))
        return code;
    const QString sceneName = parser.isSet(scene) ? parser.value(scene) : QStringLiteral("floor");
    project::Scene sceneKind = project::Scene::Floor;
    if (!editor::sceneFromName(sceneName, sceneKind))
        return usageError(io, command, QStringLiteral("--scene must be floor, stairs, ledge or box, not '%1'").arg(sceneName));

    const QString path = parser.positionalArguments().first();
    const auto rig = loadRig(path, io, code, schedule);
    if (!rig)
        return code;
    const auto& particles = rig->description().particles;

    std::vector<Hit> hits;
    static const QRegularExpression hitSyntax(QStringLiteral("^(.+):([^,]+),([^,]+),([^@]+)@(\\d+)$"));
    for (const QString& h : parser.values(hit)) {
        const QRegularExpressionMatch m = hitSyntax.match(h);
        bool ok[4] = {m.hasMatch(), false, false, false};
        Vec3 j;
        if (ok[0]) {
            j = {m.captured(2).toFloat(&ok[1]), m.captured(3).toFloat(&ok[2]), m.captured(4).toFloat(&ok[3])};
        }
        if (!ok[0] || !ok[1] || !ok[2] || !ok[3] || !std::isfinite(j.x) || !std::isfinite(j.y) || !std::isfinite(j.z))
            return usageError(io, command, QStringLiteral("--hit '%1' is not PARTICLE:FX,FY,FZ@FRAME").arg(h));
        const QString who = m.captured(1);
        bool isIndex = false;
        const long index = who.toLong(&isIndex);
        long particle = -1;
        if (isIndex) {
            particle = index;
        } else {
            for (std::size_t i = 0; i < particles.size(); ++i)
                if (QString::fromStdString(particles[i].name) == who)
                    particle = long(i);
        }
        if (particle < 0 || std::size_t(particle) >= particles.size())
            return fail(io, QStringLiteral("%1: --hit '%2': no particle %3 (%4 particles)")
                                .arg(path, h, isIndex ? who : QStringLiteral("named '%1'").arg(who))
                                .arg(particles.size()));
        hits.push_back({std::uint32_t(particle), j, m.captured(5).toLong()});
    }

    runtime::WorldSettings ws;
    ws.timeStep = rig->settings().timeStep;
    ws.sleep = false; // settling is measured, not assumed
    World world(ws);
    const editor::SceneGeometry geometry = editor::buildTestScene(world, sceneKind);
    std::string error;
    const RagdollHandle h =
        world.spawn(rig,
                    Transform{Quat::fromAxisAngle({0.f, 1.f, 0.f}, radians(float(yawDegrees))),
                              {0.f, float(dropHeight) - editor::bindBottom(*rig), 0.f}},
                    {}, &error);
    Ragdoll* r = world.ragdoll(h);
    if (!r)
        return fail(io, QStringLiteral("%1: cannot spawn: %2").arg(path, QString::fromStdString(error)));

    const float dt = rig->settings().timeStep;
    const long restFrames = std::lround(1.0 / double(dt));
    editor::RunFigures figures(geometry);
    float restStickError = 0.f;
    std::uint64_t droppedContacts = 0;
    const bool progress = !parser.isSet(json) && isatty(STDERR_FILENO) && frameCount >= 2000;
    for (long f = 0; f < frameCount; ++f) {
        for (const Hit& hh : hits)
            if (hh.frame == f)
                r->applyImpulse(hh.particle, hh.impulse);
        world.step();
        figures.measure(*r, float(double(f + 1) * double(dt)), dt);
        droppedContacts += world.stats().droppedContacts;
        if (f >= frameCount - restFrames)
            restStickError = std::max(restStickError, figures.stepStickError());
        if (progress && f % 500 == 0)
            io.err << "\rsimulating: frame " << f << " of " << frameCount << Qt::flush;
    }
    if (progress)
        io.err << "\r" << QString(40, QLatin1Char(' ')) << "\r" << Qt::flush;
    const bool finite = figures.finite();
    const float maxStickError = figures.worstStickError(), impactStickError = figures.impactStickError(),
                maxPenetration = figures.maxPenetration(), minHeight = figures.minHeight();
    const long worstStick = figures.worstStick(), worstLimit = figures.worstLimit();
    const float limitDeg = figures.worstLimitExcess() * (180.f / kPi);
    const long settledFrame = figures.settledAt() >= 0.f ? std::lround(double(figures.settledAt()) / double(dt)) - 1 : -1;
    const double settleSeconds = settledFrame >= 0 ? double(settledFrame + 1) * double(dt) : -1.0;
    const QString stickName = worstStick < 0 ? QString() : QString::fromStdString(rig->stickName(std::size_t(worstStick)));
    const QString limitName =
        worstLimit < 0 ? QString() : QString::fromStdString(rig->description().angular[std::size_t(worstLimit)].name);
    if (parser.isSet(json)) {
        const QJsonObject o{{QStringLiteral("frames"), qint64(frameCount)},
                            {QStringLiteral("finite"), finite},
                            {QStringLiteral("settled_frame"), qint64(settledFrame)},
                            {QStringLiteral("settle_seconds"), settleSeconds},
                            {QStringLiteral("max_stick_error"), double(maxStickError)},
                            {QStringLiteral("max_stick_error_impact"), double(impactStickError)},
                            {QStringLiteral("max_stick_error_rest"), double(restStickError)},
                            {QStringLiteral("worst_stick"), stickName},
                            {QStringLiteral("max_penetration"), double(maxPenetration)},
                            {QStringLiteral("min_height"), double(minHeight)},
                            {QStringLiteral("max_limit_violation_deg"), double(limitDeg)},
                            {QStringLiteral("worst_limit"), limitName},
                            {QStringLiteral("dropped_contacts"), qint64(droppedContacts)}};
        io.out << QJsonDocument(o).toJson(QJsonDocument::Compact) << '\n';
    } else {
        auto percent = [](float v) { return QString::number(double(v) * 100.0, 'f', 2) + QStringLiteral(" %"); };
        io.out << path << ": " << frameCount << " frames on " << sceneName << " from " << dropHeight << " m\n"
               << "  finite              " << (finite ? "yes" : "NO") << '\n'
               << "  settled at frame    "
               << (settledFrame >= 0 ? QStringLiteral("%1 (%2 s)").arg(settledFrame).arg(settleSeconds, 0, 'f', 2)
                                     : QStringLiteral("never")) << '\n'
               << "  max stick error     " << percent(maxStickError)
               << (stickName.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(stickName)) << '\n'
               << "    at impact         " << percent(impactStickError) << '\n'
               << "    at rest           " << percent(restStickError) << '\n'
               << "  max penetration     " << QString::number(double(maxPenetration) * 1000.0, 'f', 1) << " mm\n"
               << "  lowest particle     " << QString::number(double(minHeight), 'f', 3) << " m\n"
               << "  max limit excess    " << QString::number(double(limitDeg), 'f', 2) << " deg"
               << (limitName.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(limitName)) << '\n';
        if (droppedContacts > 0)
            io.out << "  dropped contacts    " << droppedContacts << " (the world's contact buffers overflowed)\n";
    }
    return kOk;
}

int benchCommand(const QStringList& arguments, Io& io)
{
    QCommandLineParser parser;
    const QCommandLineOption ragdolls(QStringLiteral("ragdolls"), {}, QStringLiteral("N"));
    const QCommandLineOption frames(QStringLiteral("frames"), {}, QStringLiteral("N"));
    const QCommandLineOption threads(QStringLiteral("threads"), {}, QStringLiteral("N"));
    const QCommandLineOption iterations(QStringLiteral("iterations"), {}, QStringLiteral("N"));
    const QCommandLineOption substeps(QStringLiteral("substeps"), {}, QStringLiteral("N"));
    const QCommandLineOption solver(QStringLiteral("solver"), {}, QStringLiteral("NAME"));
    const QCommandLineOption scene(QStringLiteral("scene"), {}, QStringLiteral("NAME"));
    const QCommandLineOption noSleep(QStringLiteral("no-sleep"), {});
    const QCommandLineOption json(QStringLiteral("json"), {});
    const QCommandLineOption instructionSet(QStringLiteral("instruction-set"), {}, QStringLiteral("NAME"));
    parser.addOptions({ragdolls, frames, threads, iterations, substeps, solver, scene, noSleep, instructionSet, json});
    if (const int code = parseCommand(arguments, parser, io, kBenchHelp, "RIG"); code >= 0)
        return code;
    const QString command = arguments[0];
    int code = kOk;
    long count = 160, frameCount = 500, threadCount = 1;
    Schedule schedule;
    if (!intOption(parser, ragdolls, 1, 100000, count, io, command, code) ||
        !intOption(parser, frames, 1, 1000000, frameCount, io, command, code) ||
        !intOption(parser, threads, 1, 64, threadCount, io, command, code) ||
        !intOption(parser, iterations, 1, 64, schedule.iterations, io, command, code) ||
        !intOption(parser, substeps, 1, 64, schedule.substeps, io, command, code) ||
        !solverOption(parser, solver, schedule, io, command, code))
        return code;
    if (parser.isSet(instructionSet)) {
        const QString name = parser.value(instructionSet);
        const std::string best = runtime::instructionSet();
        if (!runtime::useInstructionSet(name.toStdString()))
            return usageError(io, command, QStringLiteral("--instruction-set must be scalar, sse2 or avx2, one this machine runs "
                                                          "(up to %1), not '%2'").arg(QLatin1String(best.c_str()), name));
    }
    const QString sceneName = parser.isSet(scene) ? parser.value(scene) : QStringLiteral("piles");
    if (sceneName != QLatin1String("piles") && sceneName != QLatin1String("spread"))
        return usageError(io, command, QStringLiteral("--scene must be piles or spread, not '%1'").arg(sceneName));
    const QString path = parser.positionalArguments().first();
    const auto rig = loadRig(path, io, code, schedule);
    if (!rig)
        return code;

    editor::BenchOptions options;
    options.ragdolls = count;
    options.frames = frameCount;
    options.threads = threadCount;
    options.sleep = !parser.isSet(noSleep);
    options.piles = sceneName == QLatin1String("piles");
    const bool progress = !parser.isSet(json) && isatty(STDERR_FILENO);
    QElapsedTimer sinceProgress;
    sinceProgress.start();
    if (progress)
        options.progress = [&](long done) {
            if (sinceProgress.elapsed() > 250) {
                io.err << "\rbench: frame " << done << " of " << frameCount << Qt::flush;
                sinceProgress.restart();
            }
        };
    const editor::BenchResult bench = editor::benchRig(rig, options);
    if (progress)
        io.err << "\r" << QString(40, QLatin1Char(' ')) << "\r" << Qt::flush;
    if (!bench.ok())
        return fail(io, QStringLiteral("%1: %2").arg(path, bench.error));
    const double median = bench.usPerStepMedian;
    const rig::Settings& st = rig->settings();
    const QString solverName = QLatin1String(rig::toString(st.solver));
    const QString instructions = QLatin1String(runtime::instructionSet());
    const std::optional<runtime::Rig::DirectSolveShape> shape = rig->directSolveShape();
    if (parser.isSet(json)) {
        const QJsonValue shapeJson = shape ? QJsonValue(QJsonObject{{QStringLiteral("rigid_sticks"), qint64(shape->rigidSticks)},
                                                                    {QStringLiteral("factor_nonzeros"), qint64(shape->factorNonzeros)},
                                                                    {QStringLiteral("depth"), qint64(shape->depth)},
                                                                    {QStringLiteral("limit_rows"), qint64(shape->limitRows)}})
                                           : QJsonValue(QJsonValue::Null);
        const QJsonObject ran{{QStringLiteral("solver"), solverName},
                              {QStringLiteral("substeps"), qint64(st.substeps)},
                              {QStringLiteral("iterations"), qint64(st.iterations)}};
        const QJsonObject o{{QStringLiteral("ragdolls"), qint64(count)},
                            {QStringLiteral("threads"), qint64(threadCount)},
                            {QStringLiteral("frames"), qint64(frameCount)},
                            {QStringLiteral("schedule"), ran},
                            {QStringLiteral("instruction_set"), instructions},
                            {QStringLiteral("us_per_step_median"), median},
                            {QStringLiteral("us_per_ragdoll_step"), median / double(count)},
                            {QStringLiteral("direct_solve"), shapeJson},
                            {QStringLiteral("newton_steps_per_ragdoll_step"), bench.newtonStepsPerRagdollStep},
                            {QStringLiteral("factorizations_per_ragdoll_step"), bench.factorizationsPerRagdollStep}};
        io.out << QJsonDocument(o).toJson(QJsonDocument::Compact) << '\n';
    } else {
        io.out << path << ": " << count << " ragdolls (" << sceneName << "), " << threadCount << " thread(s), "
               << frameCount << " steps" << (options.sleep ? "" : ", sleep off") << "\n"
               << "  schedule            " << solverName << ", " << st.substeps << " substep(s) x " << st.iterations
               << " iteration(s)\n"
               << "  instruction set     " << instructions << "\n";
        if (shape)
            io.out << "  direct solve        " << directSolveText(*shape) << "\n";
        io.out
               << "  median step         " << QString::number(median, 'f', 1) << " us\n"
               << "  per ragdoll         " << QString::number(median / double(count), 'f', 2) << " us\n";
        if (bench.newtonStepsPerRagdollStep > 0.0)
            io.out << "  projection          " << QString::number(bench.newtonStepsPerRagdollStep, 'f', 2)
                   << " Newton steps, " << QString::number(bench.factorizationsPerRagdollStep, 'f', 2)
                   << " factorisations per ragdoll-step\n";
    }
    return kOk;
}

} // namespace marionette::cli
