// PreviewSession (docs/preview.md): the editor's simulation through the shipping runtime — start placement,
// reset, free fall, hits, drags, history, recording and replay, live setting changes, feedback.
#include "PreviewTestSupport.h"
#include "TurningArm.h"

#include "marionette/editor/preview/PreviewSession.h"
#include "marionette/project/Project.h"
#include "marionette/project/ProjectFile.h"
#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/Ragdoll.h"

#include <QtTest>

#include <cmath>
#include <cstring>

using namespace marionette;
using editor::PreviewSession;
using editor::PreviewSettings;
using test::copy;
using test::humanoid;
using test::sameBits;

namespace {

/// Index of the description stick joining particles a and b.
std::uint32_t stickBetween(const rig::RigDescription& r, int a, int b)
{
    for (std::size_t i = 0; i < r.sticks.size(); ++i)
        if ((r.sticks[i].a == a && r.sticks[i].b == b) || (r.sticks[i].a == b && r.sticks[i].b == a))
            return std::uint32_t(i);
    return ~0u;
}

} // namespace

class TestPreviewSession : public QObject {
    Q_OBJECT

private slots:
    void stats_reportTheRunAsSimulateDoes();
    void start_placesLowestSphereAtDropHeightOverTheDropPoint();
    void start_refusesAnInvalidRig();
    void reset_restoresTheStartPlacementBitForBit();
    void drop_comesToRestAboveTheFloor();
    void freeFall_matchesTheVerletProjectileWithDrag();
    void hitStick_movesTheHitSideFirstAndAddsTheImpulse();
    void drag_holdsTheParticleOnTheTarget();
    void hitRay_findsTheNearestBodyPart();
    void seek_restoresAStepAndSteppingOnMatchesTheOriginalRun();
    void seek_thenInteracting_discardsTheFuture();
    void record_replaysBitForBitThroughTheProjectFile();
    void setTimeStep_keepsPositionsAndVelocities();
    void setIterations_carriesTheStateOver();
    void startFromAnimation_takesTheClipPoseAndVelocity();
    void feedback_strainAndViolationAreZeroAtBind();
};

void TestPreviewSession::start_placesLowestSphereAtDropHeightOverTheDropPoint()
{
    const rig::RigDescription r = humanoid();
    for (const project::Scene scene : {project::Scene::Floor, project::Scene::Ledge}) {
        PreviewSession s;
        PreviewSettings settings;
        settings.scene = scene;
        settings.dropHeight = 0.75f;
        QString error;
        QVERIFY2(s.start(r, settings, error), qPrintable(error));
        QCOMPARE(s.stepIndex(), std::uint64_t(0));
        QCOMPARE(s.historyBegin(), std::uint64_t(0));
        QCOMPARE(s.historyEnd(), std::uint64_t(1));
        const auto x = s.positions();
        float lowest = INFINITY, minX = INFINITY, maxX = -INFINITY, minZ = INFINITY, maxZ = -INFINITY;
        for (std::size_t i = 0; i < x.size(); ++i) {
            lowest = std::min(lowest, x[i].y - r.particles[i].radius);
            minX = std::min(minX, x[i].x);
            maxX = std::max(maxX, x[i].x);
            minZ = std::min(minZ, x[i].z);
            maxZ = std::max(maxZ, x[i].z);
        }
        // Floor top 0, ledge top 1: lowest sphere 0.75 m above; bounding box centred on x = z = 0.
        QVERIFY(std::fabs(lowest - (editor::sceneTopHeight(scene) + 0.75f)) < 1e-5f);
        QVERIFY(std::fabs(minX + maxX) < 1e-5f);
        QVERIFY(std::fabs(minZ + maxZ) < 1e-5f);
        // At rest: previous positions equal positions.
        QVERIFY(sameBits(s.positions(), s.ragdoll().previousPositions()));
    }
}

void TestPreviewSession::start_refusesAnInvalidRig()
{
    rig::RigDescription r = humanoid();
    r.sticks[0].b = 400;
    PreviewSession s;
    QString error;
    QVERIFY(!s.start(r, {}, error));
    QVERIFY(!s.isRunning());
    QVERIFY(error.startsWith(QStringLiteral("the rig cannot be previewed: ")));
    QVERIFY(!error.contains(QLatin1Char('\n')));
}

void TestPreviewSession::reset_restoresTheStartPlacementBitForBit()
{
    const rig::RigDescription r = humanoid();
    PreviewSession s;
    PreviewSettings settings;
    settings.dropHeight = 0.3f;
    settings.rotation.random = true;
    settings.rotation.seed = 42;
    QString error;
    QVERIFY2(s.start(r, settings, error), qPrintable(error));
    const std::vector<Vec3> x0 = copy(s.positions());
    for (int i = 0; i < 40; ++i)
        s.step();
    s.hitParticle(runtime::kHead, {3.f, 0.f, 0.f});
    s.beginDrag(runtime::kWristL, {0.5f, 1.5f, 0.f});
    for (int i = 0; i < 20; ++i)
        s.step();
    s.setIterations(3);
    s.step();
    QVERIFY(!sameBits(s.positions(), x0));
    s.reset();
    QCOMPARE(s.stepIndex(), std::uint64_t(0));
    QCOMPARE(s.time(), 0.f);
    QVERIFY(!s.dragging());
    QVERIFY(sameBits(s.positions(), x0));
    QVERIFY(sameBits(s.ragdoll().previousPositions(), x0));
    QCOMPARE(s.historyEnd(), std::uint64_t(1));
    QCOMPARE(s.iterations(), r.settings.iterations);
    // A second start with the same seed gives the same placement (the random rotation is deterministic).
    PreviewSession t;
    QVERIFY(t.start(r, settings, error));
    QVERIFY(sameBits(t.positions(), x0));
}

void TestPreviewSession::drop_comesToRestAboveTheFloor()
{
    const rig::RigDescription r = humanoid();
    PreviewSession s;
    PreviewSettings settings;
    settings.dropHeight = 0.5f;
    QString error;
    QVERIFY2(s.start(r, settings, error), qPrintable(error));
    int steps = 0;
    while (!s.stats().asleep && steps < 900) {
        s.step();
        ++steps;
    }
    QVERIFY2(s.stats().asleep, qPrintable(QStringLiteral("still moving after %1 steps").arg(steps)));
    const auto x = s.positions();
    for (std::size_t i = 0; i < x.size(); ++i)
        QVERIFY2(x[i].y >= r.particles[i].radius - 0.01f,
                 qPrintable(QStringLiteral("%1 at y = %2").arg(QString::fromStdString(r.particles[i].name)).arg(x[i].y)));
    QVERIFY(s.stats().contacts > 0);
    QCOMPARE(s.contactPoints().size(), std::size_t(s.stats().contacts));
    for (const Vec3& c : s.contactPoints())
        QCOMPARE(c.y, 0.f);
    QVERIFY(s.stats().maxPenetration < 0.01f);
}

void TestPreviewSession::freeFall_matchesTheVerletProjectileWithDrag()
{
    // Each step is `substeps` Verlet substeps of h = Δt/substeps: x_{j+1} = x_j + q(x_j − x_{j−1}) + a·h² with
    // q = e^(−damping·h). From rest the substep displacement d_j = a·h²(1 − qʲ)/(1 − q), so after j substeps
    // y_j − y_0 = a·h²/(1 − q) · (j − q(1 − qʲ)/(1 − q)).
    const rig::RigDescription r = humanoid();
    PreviewSession s;
    PreviewSettings settings;
    settings.dropHeight = 2.f;
    QString error;
    QVERIFY2(s.start(r, settings, error), qPrintable(error));
    const std::vector<Vec3> x0 = copy(s.positions());
    const double dt = r.settings.timeStep, a = r.settings.gravity.y, c = r.settings.damping;
    const double h = dt / double(r.settings.substeps), q = std::exp(-c * h), k = 1.0 - q;
    QCOMPARE(s.timeStep(), float(dt));
    for (int n = 1; n <= 30; ++n) { // 0.5 s: 1.1 m of fall, well clear of the floor
        s.step();
        const double j = double(n) * double(r.settings.substeps);
        const double expected = a * h * h / k * (j - q * (1.0 - std::pow(q, j)) / k);
        const auto x = s.positions();
        // Every particle falls as the projectile; the joints' static friction may shift a particle sideways by
        // a fraction of a millimetre inside the body, but the centre of mass keeps no horizontal motion.
        Vec3 centre0, centre;
        float mass = 0.f;
        for (std::size_t i = 0; i < x.size(); ++i) {
            QVERIFY2(std::fabs(double(x[i].y - x0[i].y) - expected) < 2e-4,
                     qPrintable(QStringLiteral("step %1 particle %2: fell %3, expected %4").arg(n).arg(i)
                                    .arg(double(x[i].y - x0[i].y)).arg(expected)));
            QVERIFY(std::fabs(x[i].x - x0[i].x) < 1e-3f && std::fabs(x[i].z - x0[i].z) < 1e-3f);
            centre0 += x0[i] * r.particles[i].mass;
            centre += x[i] * r.particles[i].mass;
            mass += r.particles[i].mass;
        }
        const Vec3 shift = (centre - centre0) / mass;
        QVERIFY2(std::fabs(shift.x) < 1e-5f && std::fabs(shift.z) < 1e-5f,
                 qPrintable(QStringLiteral("step %1: centre of mass moved sideways (%2, %3)").arg(n).arg(shift.x).arg(shift.z)));
        QCOMPARE(s.stats().contacts, 0u);
    }
    // Damping is a rate, so the fall approaches the exact solution of v' = g − c·v from rest,
    // y(t) = g/c·(t − (1 − e^(−ct))/c): 1.1123 m at t = 0.5 s for c = 0.6 /s (1.2263 m without damping).
    const double t = 0.5, exact = 9.81 / c * (t - (1.0 - std::exp(-c * t)) / c);
    const double fell = double(x0[0].y - s.positions()[0].y);
    QVERIFY2(std::fabs(fell - exact) < 0.01, qPrintable(QStringLiteral("fell %1 m, exact %2 m").arg(fell).arg(exact)));
}

void TestPreviewSession::hitStick_movesTheHitSideFirstAndAddsTheImpulse()
{
    const rig::RigDescription r = humanoid();
    PreviewSession s;
    PreviewSettings settings;
    settings.dropHeight = 1.f;
    settings.gravity = false;
    QString error;
    QVERIFY2(s.start(r, settings, error), qPrintable(error));
    const std::uint32_t forearmL = stickBetween(r, runtime::kElbowL, runtime::kWristL);
    QVERIFY(forearmL != ~0u);
    const Vec3 J{0.f, 0.f, 6.f}; // N·s, forward, at the middle of the left forearm
    s.hitStick(forearmL, 0.5f, J);
    const std::vector<Vec3> x0 = copy(s.positions());
    s.step();
    // Before any contact, the solver conserves momentum: after one step P = e^(−damping·Δt)·J.
    const Vec3 P = s.ragdoll().linearMomentum();
    const float keep = std::exp(-r.settings.damping * r.settings.timeStep);
    QVERIFY2(length(P - J * keep) < 1e-3f * length(J),
             qPrintable(QStringLiteral("P = (%1, %2, %3)").arg(P.x).arg(P.y).arg(P.z)));
    for (int i = 0; i < 4; ++i)
        s.step();
    auto moved = [&](std::initializer_list<int> ids) {
        float sum = 0.f;
        for (int id : ids)
            sum += length(s.positions()[std::size_t(id)] - x0[std::size_t(id)]);
        return sum / float(ids.size());
    };
    const float left = moved({runtime::kElbowL, runtime::kWristL, runtime::kShoulderL});
    const float right = moved({runtime::kElbowR, runtime::kWristR, runtime::kShoulderR});
    QVERIFY2(left > 3.f * right, qPrintable(QStringLiteral("left %1 m, right %2 m").arg(left).arg(right)));
    QVERIFY(s.positions()[runtime::kWristL].z > x0[runtime::kWristL].z + 0.02f);
}

void TestPreviewSession::drag_holdsTheParticleOnTheTarget()
{
    const rig::RigDescription r = humanoid();
    PreviewSession s;
    PreviewSettings settings;
    settings.dropHeight = 0.f;
    QString error;
    QVERIFY2(s.start(r, settings, error), qPrintable(error));
    const Vec3 wrist = s.positions()[runtime::kWristL];
    const Vec3 target = wrist + Vec3{0.1f, 0.3f, 0.2f};
    s.beginDrag(runtime::kWristL, target);
    QVERIFY(s.dragging());
    for (int i = 0; i < 30; ++i)
        s.step();
    QVERIFY(length(s.positions()[runtime::kWristL] - target) < 0.003f);
    // The pin follows in steps of more than 1 cm: a 5 mm move is ignored, a 2 cm move taken.
    s.updateDrag(target + Vec3{0.005f, 0.f, 0.f});
    QCOMPARE(s.dragTarget(), target);
    const Vec3 target2 = target + Vec3{0.f, 0.f, 0.02f};
    s.updateDrag(target2);
    QCOMPARE(s.dragTarget(), target2);
    for (int i = 0; i < 10; ++i)
        s.step();
    QVERIFY(length(s.positions()[runtime::kWristL] - target2) < 0.003f);
    s.endDrag();
    QVERIFY(!s.dragging());
    for (int i = 0; i < 60; ++i)
        s.step();
    QVERIFY(s.positions()[runtime::kWristL].y < target2.y - 0.05f); // released: it falls
}

void TestPreviewSession::hitRay_findsTheNearestBodyPart()
{
    const rig::RigDescription r = humanoid();
    PreviewSession s;
    QString error;
    QVERIFY2(s.start(r, {}, error), qPrintable(error));
    const auto x = s.positions();
    const std::uint32_t forearmL = stickBetween(r, runtime::kElbowL, runtime::kWristL);
    // A ray from in front (+Z) straight at the middle of the left forearm.
    const Vec3 mid = (x[runtime::kElbowL] + x[runtime::kWristL]) * 0.5f;
    const auto hit = s.hitRay(mid + Vec3{0.f, 0.f, 2.f}, {0.f, 0.f, -1.f});
    QVERIFY(hit.has_value());
    QCOMPARE(int(hit->kind), int(editor::HitPoint::Kind::Stick));
    QCOMPARE(hit->index, forearmL);
    QVERIFY(std::fabs(hit->t - 0.5f) < 0.02f);
    QVERIFY(hit->point.z > mid.z && hit->point.z < mid.z + 0.2f);
    QVERIFY(std::fabs(hit->distance - (2.f - (hit->point.z - mid.z))) < 1e-4f);
    // A ray past everything finds nothing.
    QVERIFY(!s.hitRay(mid + Vec3{0.f, 5.f, 2.f}, {0.f, 0.f, -1.f}).has_value());
}

void TestPreviewSession::seek_restoresAStepAndSteppingOnMatchesTheOriginalRun()
{
    const rig::RigDescription r = humanoid();
    PreviewSession s;
    PreviewSettings settings;
    settings.dropHeight = 0.4f;
    settings.historySteps = 100;
    QString error;
    QVERIFY2(s.start(r, settings, error), qPrintable(error));
    std::vector<std::vector<Vec3>> x{copy(s.positions())}, xp{copy(s.ragdoll().previousPositions())};
    for (int i = 0; i < 150; ++i) {
        s.step();
        x.push_back(copy(s.positions()));
        xp.push_back(copy(s.ragdoll().previousPositions()));
    }
    QCOMPARE(s.historyBegin(), std::uint64_t(51)); // the last 100 of steps 0..150
    QCOMPARE(s.historyEnd(), std::uint64_t(151));
    QVERIFY(!s.seek(50));
    QVERIFY(sameBits(s.historyPositions(120), x[120]));
    QVERIFY(s.seek(70));
    QCOMPARE(s.stepIndex(), std::uint64_t(70));
    QVERIFY(std::fabs(s.time() - 70.f / 60.f) < 1e-5f);
    QVERIFY(sameBits(s.positions(), x[70]));
    QVERIFY(sameBits(s.ragdoll().previousPositions(), xp[70]));
    QCOMPARE(s.historyEnd(), std::uint64_t(151)); // the future stays until something new happens
    QVERIFY(s.seek(140)); // forward again
    QVERIFY(sameBits(s.positions(), x[140]));
    QVERIFY(s.seek(70));
    for (int i = 71; i <= 150; ++i) {
        s.step();
        QVERIFY2(sameBits(s.positions(), x[std::size_t(i)]), qPrintable(QStringLiteral("step %1").arg(i)));
        QVERIFY(sameBits(s.ragdoll().previousPositions(), xp[std::size_t(i)]));
    }
}

void TestPreviewSession::seek_thenInteracting_discardsTheFuture()
{
    const rig::RigDescription r = humanoid();
    PreviewSession s;
    PreviewSettings settings;
    settings.dropHeight = 0.4f;
    QString error;
    QVERIFY2(s.start(r, settings, error), qPrintable(error));
    s.setRecording(true);
    for (int i = 0; i < 20; ++i)
        s.step();
    s.hitParticle(runtime::kHead, {0.f, 0.f, 1.f});
    s.beginDrag(runtime::kWristR, {-1.f, 1.f, 0.f});
    for (int i = 0; i < 20; ++i)
        s.step();
    QCOMPARE(s.recordedScenario(QStringLiteral("a"), {}).hits.size(), std::size_t(1));
    QVERIFY(s.seek(10));
    QVERIFY(!s.dragging()); // seeking ends the drag
    QCOMPARE(s.historyEnd(), std::uint64_t(41));
    s.step();
    QCOMPARE(s.historyEnd(), std::uint64_t(12));
    const project::Scenario sc = s.recordedScenario(QStringLiteral("a"), {});
    QVERIFY(sc.hits.empty());
    QVERIFY(sc.drags.empty());
    QVERIFY(std::fabs(sc.duration - 11.f / 60.f) < 1e-6f);
}

void TestPreviewSession::record_replaysBitForBitThroughTheProjectFile()
{
    const rig::RigDescription r = humanoid();
    PreviewSession live;
    PreviewSettings settings;
    settings.scene = project::Scene::Box;
    settings.dropHeight = 0.2f;
    settings.rotation.rotation = Quat::fromAxisAngle({0.f, 1.f, 0.f}, 0.7f);
    QString error;
    QVERIFY2(live.start(r, settings, error), qPrintable(error));
    live.setRecording(true);
    std::vector<std::vector<Vec3>> x{copy(live.positions())};
    auto run = [&](int n) {
        for (int i = 0; i < n; ++i) {
            live.step();
            x.push_back(copy(live.positions()));
        }
    };
    run(12);
    live.hitParticle(runtime::kHead, {0.f, 0.5f, 3.f});
    live.hitParticle(runtime::kSpine, {1.f, 0.f, 0.f}); // two hits on one frame, kept in order
    run(7);
    live.hitStick(stickBetween(r, runtime::kElbowL, runtime::kWristL), 0.3f, {0.f, 2.f, -2.f});
    run(3);
    Vec3 target = live.positions()[runtime::kWristR] + Vec3{0.f, 0.4f, 0.f};
    live.beginDrag(runtime::kWristR, target);
    for (int i = 0; i < 25; ++i) { // the cursor moves 7 mm a step: a new segment every second step or so
        target += Vec3{0.007f, 0.f, 0.f};
        live.updateDrag(target);
        run(1);
    }
    live.endDrag();
    run(30);
    live.explode({5.f, 0.f, 5.f}, 1.f, 0.5f); // out of range: recorded, and replayed to no effect
    run(40);
    const project::Scenario recorded = live.recordedScenario(QStringLiteral("replay"), {});
    QCOMPARE(recorded.hits.size(), std::size_t(3));
    QCOMPARE(recorded.hits[0].frame, 12u);
    QCOMPARE(recorded.hits[2].target.kind, project::ElementKind::Stick);
    QVERIFY(recorded.drags.size() >= 8);
    QCOMPARE(recorded.drags.front().startFrame, 22u);
    QCOMPARE(recorded.drags.back().endFrame, 46u);
    for (std::size_t i = 1; i < recorded.drags.size(); ++i)
        QCOMPARE(recorded.drags[i].startFrame, recorded.drags[i - 1].endFrame + 1);
    QCOMPARE(recorded.explosions.size(), std::size_t(1));
    QCOMPARE(recorded.explosions[0].frame, 77u);
    QVERIFY(recorded.settingChanges.empty() && !recorded.animationStart);
    QCOMPARE(recorded.scene, project::Scene::Box);
    QVERIFY(std::fabs(recorded.duration - float(x.size() - 1) / 60.f) < 1e-5f);

    // Through the project file, as the editor saves it and the command line reads it.
    project::Project p;
    p.name = QStringLiteral("replay");
    p.rig = r;
    p.scenarios.push_back(recorded);
    const QByteArray json = project::writeProject(p, error);
    QVERIFY2(!json.isEmpty(), qPrintable(error));
    project::Project back;
    const project::LoadResult loaded = project::readProject(json, QStringLiteral("replay.mproj"), back);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error));
    QCOMPARE(back.scenarios.size(), std::size_t(1));

    PreviewSession replay;
    QVERIFY2(replay.startScenario(back.rig, back.scenarios[0], error), qPrintable(error));
    QVERIFY(sameBits(replay.positions(), x[0]));
    for (std::size_t i = 1; i < x.size(); ++i) {
        replay.step();
        QVERIFY2(sameBits(replay.positions(), x[i]), qPrintable(QStringLiteral("step %1 differs").arg(i)));
    }
    // reset() keeps a scenario's scheduled events: the replay plays again identically.
    replay.reset();
    for (std::size_t i = 1; i < 40; ++i)
        replay.step();
    QVERIFY(sameBits(replay.positions(), x[39]));
}

void TestPreviewSession::setTimeStep_keepsPositionsAndVelocities()
{
    const rig::RigDescription r = humanoid();
    PreviewSession s;
    PreviewSettings settings;
    settings.dropHeight = 3.f;
    QString error;
    QVERIFY2(s.start(r, settings, error), qPrintable(error));
    for (int i = 0; i < 10; ++i)
        s.step();
    const std::vector<Vec3> x = copy(s.positions());
    const float v = s.ragdoll().velocity(0).y;
    s.setTimeStep(1.f / 120.f);
    QVERIFY(sameBits(s.positions(), x)); // nothing happens before the next step
    s.step();
    QCOMPARE(s.timeStep(), 1.f / 120.f);
    QVERIFY(std::fabs(s.time() - (10.f / 60.f + 1.f / 120.f)) < 1e-6f);
    // Free fall carries on at the same speed: the velocity v (of the last substep) is carried into substeps of
    // h' = Δt'/substeps, each keeping e^(−damping·h') of it and adding g·h'.
    const double h = (1.0 / 120.0) / double(r.settings.substeps), q = std::exp(-double(r.settings.damping) * h);
    double d = double(v) * h, fell = 0.0;
    for (std::uint32_t j = 0; j < r.settings.substeps; ++j) {
        d = d * q - 9.81 * h * h;
        fell += d;
    }
    const double expected = d / h;
    QVERIFY2(std::fabs(double(s.ragdoll().velocity(0).y) - expected) < 1e-3,
             qPrintable(QStringLiteral("%1 vs %2").arg(s.ragdoll().velocity(0).y).arg(expected)));
    QVERIFY2(std::fabs(double(s.positions()[0].y - x[0].y) - fell) < 1e-5,
             qPrintable(QStringLiteral("moved %1, expected %2").arg(s.positions()[0].y - x[0].y).arg(fell)));
}

void TestPreviewSession::setIterations_carriesTheStateOver()
{
    const rig::RigDescription r = humanoid();
    PreviewSession a, b;
    PreviewSettings settings;
    settings.dropHeight = 3.f;
    QString error;
    QVERIFY(a.start(r, settings, error));
    QVERIFY(b.start(r, settings, error));
    for (int i = 0; i < 10; ++i) {
        a.step();
        b.step();
    }
    a.setIterations(3);
    a.setGravity(false);
    a.step();
    b.setGravity(false);
    b.step();
    QCOMPARE(a.iterations(), 3u);
    QVERIFY(!a.gravity());
    // In free fall the constraints only see float rounding, so the rebuilt rig (3 iterations per substep)
    // continues where the old one (2) would have gone, to rounding.
    for (std::size_t i = 0; i < a.positions().size(); ++i)
        QVERIFY(length(a.positions()[i] - b.positions()[i]) < 1e-5f);
}

void TestPreviewSession::startFromAnimation_takesTheClipPoseAndVelocity()
{
    // Two bones: a root at the origin and a child 1 m up that turns about Z from 0 to 90° over 1 s.
    const test::TurningArm arm = test::turningArm();
    const import::ImportedScene& mesh = arm.mesh;
    const rig::RigDescription& r = arm.rig;
    QVERIFY2(r.validate().empty(), r.validate().c_str());

    PreviewSession s;
    QString error;
    QVERIFY2(s.start(r, {}, error), qPrintable(error));
    const float t = 0.5f, dt = s.timeStep();
    QVERIFY2(s.startFromAnimation(mesh, 0, t, error), qPrintable(error));
    QCOMPARE(s.stepIndex(), std::uint64_t(0));
    auto posed = [&](Vec3 bind, float time, bool onArm) {
        if (!onArm)
            return bind;
        const Quat q = nlerp(Quat{}, Quat::fromAxisAngle({0.f, 0.f, 1.f}, kPi / 2.f), time);
        return Vec3{0.f, 1.f, 0.f} + q.rotate(bind - Vec3{0.f, 1.f, 0.f});
    };
    const bool onArm[4] = {false, true, true, true};
    for (std::size_t i = 0; i < 4; ++i) {
        const Vec3 now = posed(r.particles[i].position, t, onArm[i]);
        const Vec3 before = posed(r.particles[i].position, t - dt, onArm[i]);
        QVERIFY2(length(s.positions()[i] - now) < 1e-5f, qPrintable(QString::number(i)));
        QVERIFY2(length(s.ragdoll().velocity(std::uint32_t(i)) - (now - before) / dt) < 1e-3f,
                 qPrintable(QString::number(i)));
    }
    // The tip at 45°: (−sin 45°, 1 + cos 45°, 0). nlerp from q0 = 1 to q1 = (0, 0, s, c), s = sin 45°,
    // c = cos 45°, has half angle h(t) = atan(t·s / (1 − t(1 − c))), so at t = ½ the arm turns at
    // 2·h'(½) = 2·s / (d²·(1 + tan² 22.5°)) = 1.657 rad/s (d = 1 − ½(1 − c)): the tip's speed in m/s.
    QVERIFY(length(s.positions()[2] - Vec3{-0.70710678f, 1.70710678f, 0.f}) < 1e-5f);
    QVERIFY2(std::fabs(length(s.ragdoll().velocity(2)) - 1.657f) < 0.01f,
             qPrintable(QString::number(length(s.ragdoll().velocity(2)))));
    // The clip's palette moves the tip's bind position to the same place.
    const std::vector<Mat4> palette = s.animationPalette(mesh, 0, t);
    QCOMPARE(palette.size(), std::size_t(2));
    QVERIFY(length(palette[1].transformPoint({0.f, 2.f, 0.f}) - s.positions()[2]) < 1e-5f);
    QVERIFY(!s.startFromAnimation(mesh, 3, t, error));
    QVERIFY(error.contains(QStringLiteral("no animation clip 3")));
    // reset() goes back to the bind-pose drop.
    s.reset();
    QVERIFY(std::fabs(s.positions()[1].y - s.positions()[0].y - 0.5f) < 1e-5f);
}

void TestPreviewSession::feedback_strainAndViolationAreZeroAtBind()
{
    const rig::RigDescription r = humanoid();
    PreviewSession s;
    QString error;
    QVERIFY2(s.start(r, {}, error), qPrintable(error));
    const std::vector<float> strain = s.stickStrain();
    QCOMPARE(strain.size(), r.sticks.size());
    for (float v : strain)
        QVERIFY(std::fabs(v) < 1e-5f);
    const std::vector<float> ang = s.angularViolation();
    QCOMPARE(ang.size(), r.angular.size());
    for (float v : ang)
        QVERIFY(v < 1e-4f);
    QCOMPARE(s.skinningPalette(1.f).size(), r.bones.size());
}

// The overlay's run figures: the first contact is the first step a particle comes within 1 mm of the floor,
// the worst stick error and limit excess are the largest seen so far (and the impact's no more), and the
// body is reported settled once it stops, with the stick's and the limit's names available.
void TestPreviewSession::stats_reportTheRunAsSimulateDoes()
{
    const rig::RigDescription r = humanoid();
    PreviewSession s;
    PreviewSettings settings;
    settings.dropHeight = 1.f;
    QString error;
    QVERIFY2(s.start(r, settings, error), qPrintable(error));
    float contactAt = -1.f, worstSeen = 0.f;
    for (int n = 1; n <= 360; ++n) {
        s.step();
        for (std::size_t i = 0; i < s.positions().size() && contactAt < 0.f; ++i)
            if (s.positions()[i].y - r.particles[i].radius <= 0.001f)
                contactAt = s.time();
        const editor::PreviewStats& st = s.stats();
        QCOMPARE(st.firstContact, contactAt);
        QVERIFY(st.worstStickError >= worstSeen); // never forgets
        worstSeen = st.worstStickError;
        QVERIFY(st.impactStickError <= st.worstStickError);
        QVERIFY(st.worstLimitExcess >= st.maxAngularViolation);
    }
    const editor::PreviewStats& st = s.stats();
    QVERIFY2(contactAt > 0.3f && contactAt < 0.6f, qPrintable(QString::number(contactAt))); // 1 m of fall: 0.45 s
    QVERIFY2(st.settledAt > contactAt && st.settledAt < 6.f, qPrintable(QString::number(st.settledAt)));
    QVERIFY(st.worstStick >= 0 && !s.compiledStickName(st.worstStick).empty());
    QVERIFY2(st.worstStickError > 0.f && st.worstStickError < 0.01f, qPrintable(QString::number(st.worstStickError)));
    QVERIFY(st.worstLimit < std::int32_t(r.angular.size()));
}

QTEST_GUILESS_MAIN(TestPreviewSession)
#include "tst_previewsession.moc"
