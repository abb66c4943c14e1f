// `marionette simulate RIG` and `marionette bench RIG`: headless runs of a rig through the runtime.
#include "Cli.h"
#include "RigFiles.h"

#include "marionette/editor/TestScenes.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <unistd.h>

namespace marionette::cli {

namespace {

using runtime::Ragdoll;
using runtime::RagdollHandle;
using runtime::World;

/// Reads an integer option in [lo, hi]; false (with a usage error printed) when it is not one.
bool intOption(const QCommandLineParser& p, const QCommandLineOption& o, long lo, long hi, long& out, Io& io,
               const QString& command, int& code)
{
    if (!p.isSet(o))
        return true;
    bool ok = false;
    const long v = p.value(o).toLong(&ok);
    if (!ok || v < lo || v > hi) {
        code = usageError(io, command, QStringLiteral("--%1 must be an integer in [%2, %3], not '%4'")
                                           .arg(o.names().constLast()).arg(lo).arg(hi).arg(p.value(o)));
        return false;
    }
    out = v;
    return true;
}

bool floatOption(const QCommandLineParser& p, const QCommandLineOption& o, double lo, double hi, double& out, Io& io,
                 const QString& command, int& code)
{
    if (!p.isSet(o))
        return true;
    bool ok = false;
    const double v = p.value(o).toDouble(&ok);
    if (!ok || !std::isfinite(v) || v < lo || v > hi) {
        code = usageError(io, command, QStringLiteral("--%1 must be a number in [%2, %3], not '%4'")
                                           .arg(o.names().constLast()).arg(lo).arg(hi).arg(p.value(o)));
        return false;
    }
    out = v;
    return true;
}

/// The rig of `path` (a .mrig, or a .mproj's rig), compiled; on failure prints the error and sets code.
std::shared_ptr<const runtime::Rig> loadRig(const QString& path, Io& io, int& code, long iterations = 0)
{
    RigFile file;
    if (const QString error = loadRigFile(path, file); !error.isEmpty()) {
        code = fail(io, error);
        return nullptr;
    }
    if (iterations > 0)
        file.rig.settings.iterations = std::uint32_t(iterations);
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
    "       marionette simulate PROJECT.mproj --scenario NAME | --all-scenarios [--json]\n\n"
    "Runs a rig (.mrig, or a .mproj's rig) headless: drops it onto a scene, applies hits, and reports whether\n"
    "it stayed finite, when it settled, the largest stick error, penetration and angular-limit excess.\n\n"
    "Options:\n"
    "  --frames N            steps of the rig's time step to run (default 300)\n"
    "  --drop HEIGHT         height of the bind pose's lowest point above the floor, metres (default 1)\n"
    "  --scene NAME          floor | stairs | ledge | box (default floor; see docs/preview.md)\n"
    "  --hit P:FX,FY,FZ@F    impulse (N·s) on particle P (a name or an index) at frame F; repeatable\n"
    "  --json                print {\"frames\", \"finite\", \"settled_frame\", \"max_stick_error\",\n"
    "                        \"max_penetration\", \"min_height\", \"max_limit_violation_deg\"}\n"
    "  --scenario NAME       replay the project's recorded scenario NAME (as the editor's preview does) and\n"
    "                        check its expectations; prints PASS/FAIL with the measured values\n"
    "  --all-scenarios       the same for every scenario of the project\n"
    "  -h, --help            show this help\n\n"
    "With --scenario/--all-scenarios, --json prints {\"project\", \"passed\", \"scenarios\": [{\"name\", \"passed\",\n"
    "\"steps\", \"settled_at\", \"max_penetration\", \"max_limit_violation_deg\", \"failures\"}]}; the exit code is\n"
    "1 when any expectation fails (one 'error: PROJECT: scenario 'NAME': ...' line each on stderr).\n\n"
    "settled_frame is the first frame from which every particle stays slower than 5 cm/s to the end (-1 if\n"
    "it never does); max_stick_error is the largest |L - clamp(L, min, max)| / rest length over the run;\n"
    "max_penetration the deepest particle sphere in the floor or a box (metres); min_height the lowest\n"
    "particle centre; max_limit_violation_deg the largest angular-limit excess after the solver's last\n"
    "iteration of a step. Exit codes: 0 success, 1 bad rig file or particle, 2 usage error.\n";

const char* kBenchHelp =
    "Usage: marionette bench [options] RIG\n\n"
    "Times World::step() on many ragdolls of a rig (.mrig, or a .mproj's rig).\n\n"
    "Options:\n"
    "  --ragdolls N     ragdolls to spawn (default 160)\n"
    "  --frames N       steps to time (default 500)\n"
    "  --threads N      threads stepping the world (default 1)\n"
    "  --iterations N   override the rig's relaxation iterations\n"
    "  --scene NAME     piles: piles of 10 on a 3 m grid, each body lying down, stacked 0.5 m apart from\n"
    "                   1 m up, random yaw (the runtime's benchmark scene); spread: one standing body per\n"
    "                   grid cell (default piles)\n"
    "  --no-sleep       ragdolls never fall asleep (every step costs the same)\n"
    "  --json           print {\"ragdolls\", \"threads\", \"frames\", \"us_per_step_median\", \"us_per_ragdoll_step\"}\n"
    "  -h, --help       show this help\n\n"
    "us_per_step_median is the median wall time of one step; us_per_ragdoll_step that divided by the\n"
    "ragdoll count. Run on an idle machine. Exit codes: 0 success, 1 bad rig file, 2 usage error.\n";

} // namespace

int simulateCommand(const QStringList& arguments, Io& io)
{
    QCommandLineParser parser;
    const QCommandLineOption frames(QStringLiteral("frames"), {}, QStringLiteral("N"));
    const QCommandLineOption drop(QStringLiteral("drop"), {}, QStringLiteral("HEIGHT"));
    const QCommandLineOption scene(QStringLiteral("scene"), {}, QStringLiteral("NAME"));
    const QCommandLineOption hit(QStringLiteral("hit"), {}, QStringLiteral("P:FX,FY,FZ@F"));
    const QCommandLineOption json(QStringLiteral("json"), {});
    const QCommandLineOption scenarioOption(QStringLiteral("scenario"), {}, QStringLiteral("NAME"));
    const QCommandLineOption allScenarios(QStringLiteral("all-scenarios"), {});
    parser.addOptions({frames, drop, scene, hit, json, scenarioOption, allScenarios});
    if (const int code = parseCommand(arguments, parser, io, kSimulateHelp, "RIG"); code >= 0)
        return code;
    const QString command = arguments[0];
    if (parser.isSet(scenarioOption) || parser.isSet(allScenarios)) {
        if (parser.isSet(scenarioOption) && parser.isSet(allScenarios))
            return usageError(io, command, QStringLiteral("--scenario and --all-scenarios exclude each other"));
        for (const QCommandLineOption* o : {&frames, &drop, &scene, &hit})
            if (parser.isSet(*o))
                return usageError(io, command, QStringLiteral("--%1 cannot be combined with a scenario: the scenario "
                                                              "says what to run").arg(o->names().constFirst()));
        return simulateScenarios(parser.positionalArguments().first(), parser.value(scenarioOption),
                                 parser.isSet(allScenarios), parser.isSet(json), io, command);
    }
    int code = kOk;
    long frameCount = 300;
    double dropHeight = 1.0;
    if (!intOption(parser, frames, 1, 1000000, frameCount, io, command, code) ||
        !floatOption(parser, drop, 0.0, 1000.0, dropHeight, io, command, code))
        return code;
    const QString sceneName = parser.isSet(scene) ? parser.value(scene) : QStringLiteral("floor");
    project::Scene sceneKind = project::Scene::Floor;
    if (!editor::sceneFromName(sceneName, sceneKind))
        return usageError(io, command, QStringLiteral("--scene must be floor, stairs, ledge or box, not '%1'").arg(sceneName));

    const QString path = parser.positionalArguments().first();
    const auto rig = loadRig(path, io, code);
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
        world.spawn(rig, Transform{Quat{}, {0.f, float(dropHeight) - bindBottom(*rig), 0.f}}, {}, &error);
    Ragdoll* r = world.ragdoll(h);
    if (!r)
        return fail(io, QStringLiteral("%1: cannot spawn: %2").arg(path, QString::fromStdString(error)));

    const auto sticks = rig->sticks();
    const auto radii = rig->radii();
    bool finite = true;
    long settledFrame = -1;
    float maxStickError = 0.f, maxPenetration = 0.f, minHeight = std::numeric_limits<float>::infinity(), maxLimit = 0.f;
    const bool progress = !parser.isSet(json) && isatty(STDERR_FILENO) && frameCount >= 2000;
    for (long f = 0; f < frameCount; ++f) {
        for (const Hit& hh : hits)
            if (hh.frame == f)
                r->applyImpulse(hh.particle, hh.impulse);
        world.step();
        const auto x = r->positions();
        float fastest = 0.f;
        for (std::uint32_t i = 0; i < x.size(); ++i) {
            if (!std::isfinite(x[i].x) || !std::isfinite(x[i].y) || !std::isfinite(x[i].z))
                finite = false;
            minHeight = std::min(minHeight, x[i].y);
            maxPenetration = std::max(maxPenetration, editor::penetrationDepth(geometry, x[i], radii[i]));
            fastest = std::max(fastest, length(r->velocity(i)));
        }
        for (std::uint32_t k = 0; k < sticks.size(); ++k) {
            if (r->stickTorn(k))
                continue;
            const float L = length(x[sticks[k].b] - x[sticks[k].a]);
            const float target = std::clamp(L, sticks[k].minLength, sticks[k].maxLength);
            const float rest = std::isfinite(sticks[k].maxLength) ? sticks[k].maxLength : sticks[k].minLength;
            if (rest > 1e-6f)
                maxStickError = std::max(maxStickError, std::fabs(L - target) / rest);
        }
        maxLimit = std::max(maxLimit, r->stats().maxAngularViolation);
        if (fastest < 0.05f) {
            if (settledFrame < 0)
                settledFrame = f;
        } else {
            settledFrame = -1;
        }
        if (progress && f % 500 == 0)
            io.err << "\rsimulating: frame " << f << " of " << frameCount << Qt::flush;
    }
    if (progress)
        io.err << "\r" << QString(40, QLatin1Char(' ')) << "\r" << Qt::flush;
    const float limitDeg = maxLimit * (180.f / kPi);
    if (parser.isSet(json)) {
        const QJsonObject o{{QStringLiteral("frames"), qint64(frameCount)},
                            {QStringLiteral("finite"), finite},
                            {QStringLiteral("settled_frame"), qint64(settledFrame)},
                            {QStringLiteral("max_stick_error"), double(maxStickError)},
                            {QStringLiteral("max_penetration"), double(maxPenetration)},
                            {QStringLiteral("min_height"), double(minHeight)},
                            {QStringLiteral("max_limit_violation_deg"), double(limitDeg)}};
        io.out << QJsonDocument(o).toJson(QJsonDocument::Compact) << '\n';
    } else {
        io.out << path << ": " << frameCount << " frames on " << sceneName << " from " << dropHeight << " m\n"
               << "  finite              " << (finite ? "yes" : "NO") << '\n'
               << "  settled at frame    " << (settledFrame >= 0 ? QString::number(settledFrame) : QStringLiteral("never")) << '\n'
               << "  max stick error     " << QString::number(double(maxStickError) * 100.0, 'f', 2) << " %\n"
               << "  max penetration     " << QString::number(double(maxPenetration) * 1000.0, 'f', 1) << " mm\n"
               << "  lowest particle     " << QString::number(double(minHeight), 'f', 3) << " m\n"
               << "  max limit excess    " << QString::number(double(limitDeg), 'f', 2) << " deg\n";
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
    const QCommandLineOption scene(QStringLiteral("scene"), {}, QStringLiteral("NAME"));
    const QCommandLineOption noSleep(QStringLiteral("no-sleep"), {});
    const QCommandLineOption json(QStringLiteral("json"), {});
    parser.addOptions({ragdolls, frames, threads, iterations, scene, noSleep, json});
    if (const int code = parseCommand(arguments, parser, io, kBenchHelp, "RIG"); code >= 0)
        return code;
    const QString command = arguments[0];
    int code = kOk;
    long count = 160, frameCount = 500, threadCount = 1, iterationCount = 0;
    if (!intOption(parser, ragdolls, 1, 100000, count, io, command, code) ||
        !intOption(parser, frames, 1, 1000000, frameCount, io, command, code) ||
        !intOption(parser, threads, 1, 64, threadCount, io, command, code) ||
        !intOption(parser, iterations, 1, 64, iterationCount, io, command, code))
        return code;
    const QString sceneName = parser.isSet(scene) ? parser.value(scene) : QStringLiteral("piles");
    if (sceneName != QLatin1String("piles") && sceneName != QLatin1String("spread"))
        return usageError(io, command, QStringLiteral("--scene must be piles or spread, not '%1'").arg(sceneName));
    const QString path = parser.positionalArguments().first();
    const auto rig = loadRig(path, io, code, iterationCount);
    if (!rig)
        return code;

    runtime::WorldSettings ws;
    ws.timeStep = rig->settings().timeStep;
    ws.threads = std::uint32_t(threadCount);
    ws.sleep = !parser.isSet(noSleep);
    World world(ws);
    world.addPlane({0.f, 1.f, 0.f}, 0.f);
    const bool piles = sceneName == QLatin1String("piles");
    const long cells = piles ? (count + 9) / 10 : count;
    const long side = std::max(1L, long(std::ceil(std::sqrt(double(cells)))));
    const float spacing = std::max(3.f, 2.5f * rig->boundingRadius());
    // The bind pose's bounds: piles lie each body down (its up axis turned to horizontal about X, centred on
    // its middle) and stack them, the lowest centre 1 m up, one body's depth (at least 0.5 m) apart.
    Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
    for (std::size_t i = 0; i < rig->particleCount(); ++i) {
        const Vec3 r{rig->radii()[i], rig->radii()[i], rig->radii()[i]};
        lo = vmin(lo, rig->bindPositions()[i] - r);
        hi = vmax(hi, rig->bindPositions()[i] + r);
    }
    const Vec3 middle = (lo + hi) * 0.5f;
    const float layer = std::max(0.5f, 1.2f * (hi.z - lo.z)); // lying down, the body's depth becomes its height
    const Transform lieDown{Quat::fromAxisAngle({1.f, 0.f, 0.f}, 0.5f * kPi), {}};
    const float lift = 1.f - bindBottom(*rig);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> yaw(0.f, 2.f * kPi);
    for (long i = 0; i < count; ++i) {
        const long cell = piles ? i / 10 : i, level = piles ? i % 10 : 0;
        const Quat turn = Quat::fromAxisAngle({0.f, 1.f, 0.f}, yaw(rng));
        const float x = spacing * float(cell % side), z = spacing * float(cell / side);
        const Transform placement = piles ? Transform{turn, {x, 1.f + layer * float(level), z}} * lieDown *
                                                Transform{Quat{}, -middle}
                                          : Transform{turn, {x, lift, z}};
        std::string error;
        if (world.spawn(rig, placement, {}, &error) == runtime::kInvalidRagdoll)
            return fail(io, QStringLiteral("%1: cannot spawn ragdoll %2: %3").arg(path).arg(i).arg(QString::fromStdString(error)));
    }
    std::vector<double> stepMicros;
    stepMicros.reserve(std::size_t(frameCount));
    const bool progress = !parser.isSet(json) && isatty(STDERR_FILENO);
    QElapsedTimer sinceProgress;
    sinceProgress.start();
    for (long f = 0; f < frameCount; ++f) {
        const auto t0 = std::chrono::steady_clock::now();
        world.step();
        stepMicros.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
        if (progress && sinceProgress.elapsed() > 250) {
            io.err << "\rbench: frame " << f + 1 << " of " << frameCount << Qt::flush;
            sinceProgress.restart();
        }
    }
    if (progress)
        io.err << "\r" << QString(40, QLatin1Char(' ')) << "\r" << Qt::flush;
    std::vector<double> sorted = stepMicros;
    std::nth_element(sorted.begin(), sorted.begin() + std::ptrdiff_t(sorted.size() / 2), sorted.end());
    const double median = sorted[sorted.size() / 2];
    if (parser.isSet(json)) {
        const QJsonObject o{{QStringLiteral("ragdolls"), qint64(count)},
                            {QStringLiteral("threads"), qint64(threadCount)},
                            {QStringLiteral("frames"), qint64(frameCount)},
                            {QStringLiteral("us_per_step_median"), median},
                            {QStringLiteral("us_per_ragdoll_step"), median / double(count)}};
        io.out << QJsonDocument(o).toJson(QJsonDocument::Compact) << '\n';
    } else {
        io.out << path << ": " << count << " ragdolls (" << sceneName << "), " << threadCount << " thread(s), "
               << frameCount << " steps" << (ws.sleep ? "" : ", sleep off") << "\n"
               << "  median step         " << QString::number(median, 'f', 1) << " us\n"
               << "  per ragdoll         " << QString::number(median / double(count), 'f', 2) << " us\n";
    }
    return kOk;
}

} // namespace marionette::cli
