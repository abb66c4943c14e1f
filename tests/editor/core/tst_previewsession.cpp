// PreviewSession (docs/preview.md): the editor's simulation through the shipping runtime — start placement,
// reset, free fall, hits, drags, history, recording and replay, live setting changes, feedback.
#include "marionette/editor/PreviewSession.h"
#include "marionette/project/Project.h"
#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/Ragdoll.h"

#include <QtTest>

#include <cmath>
#include <cstring>

using namespace marionette;
using editor::PreviewSession;
using editor::PreviewSettings;

namespace {

/// The procedural humanoid with stable ids (the editor always has them; scenarios name elements by id).
rig::RigDescription humanoid()
{
    rig::RigDescription r = runtime::makeHumanoid();
    project::assignMissingIds(r);
    return r;
}

std::vector<Vec3> copy(std::span<const Vec3> s) { return {s.begin(), s.end()}; }

bool sameBits(std::span<const Vec3> a, std::span<const Vec3> b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec3)) == 0;
}

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
    void start_placesLowestSphereAtDropHeightOverTheDropPoint();
    void start_refusesAnInvalidRig();
    void reset_restoresTheStartPlacementBitForBit();
    void drop_comesToRestAboveTheFloor();
    void freeFall_matchesTheVerletProjectileWithDrag();
    void hitStick_movesTheHitSideFirstAndAddsTheImpulse();
    void drag_holdsTheParticleOnTheTarget();
    void hitRay_findsTheNearestBodyPart();
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
    // x_{n+1} = x_n + (1 − k)(x_n − x_{n−1}) + a·Δt², starting at rest: the step d_n = x_n − x_{n−1} obeys
    // d_n = a·Δt²·(1 − (1 − k)ⁿ)/k, so y_n − y_0 = a·Δt²/k · (n − (1 − k)(1 − (1 − k)ⁿ)/k).
    const rig::RigDescription r = humanoid();
    PreviewSession s;
    PreviewSettings settings;
    settings.dropHeight = 2.f;
    QString error;
    QVERIFY2(s.start(r, settings, error), qPrintable(error));
    const std::vector<Vec3> x0 = copy(s.positions());
    const double k = r.settings.drag, dt = r.settings.timeStep, a = r.settings.gravity.y;
    QCOMPARE(s.timeStep(), float(dt));
    for (int n = 1; n <= 30; ++n) { // 0.5 s: 1.2 m of fall, well clear of the floor
        s.step();
        const double expected = a * dt * dt / k * (n - (1.0 - k) * (1.0 - std::pow(1.0 - k, n)) / k);
        const auto x = s.positions();
        for (std::size_t i = 0; i < x.size(); ++i) {
            QVERIFY2(std::fabs(double(x[i].y - x0[i].y) - expected) < 2e-4,
                     qPrintable(QStringLiteral("step %1 particle %2: fell %3, expected %4").arg(n).arg(i)
                                    .arg(double(x[i].y - x0[i].y)).arg(expected)));
            QVERIFY(std::fabs(x[i].x - x0[i].x) < 1e-4f && std::fabs(x[i].z - x0[i].z) < 1e-4f);
        }
        QCOMPARE(s.stats().contacts, 0u);
    }
    // Without drag, Verlet from rest falls g·Δt²·n(n+1)/2 = 1.2671 m in 30 steps; k = 0.01 per step takes
    // about 9% off by step 30 (1.1528 m).
    const double fell = double(x0[0].y - s.positions()[0].y);
    QVERIFY2(std::fabs(fell - 1.1528) < 1e-3, qPrintable(QString::number(fell)));
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
    // Before any contact, the solver conserves momentum: after one step P = (1 − k)·J (the drag's share).
    const Vec3 P = s.ragdoll().linearMomentum();
    const float keep = 1.f - r.settings.drag;
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

QTEST_GUILESS_MAIN(TestPreviewSession)
#include "tst_previewsession.moc"
