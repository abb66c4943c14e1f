// Collision tests of the Marionette runtime through its public API: friction by penetration depth
// (Jakobsen), the static friction threshold, the c1/c2 barycentric rule for sticks hitting an obstacle,
// tunnelling through thin geometry, ragdolls settling on the ground and on static shapes, bodies that start
// inside a surface, and self-collision (min-distance ranges and the capsule group/mask filter). Contacts
// between ragdolls are in tst_ragdollcontacts. Every assertion on a number prints the measured value.
#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "RuntimeTestSupport.h"

using namespace marionette;
using namespace marionette::runtime;
using namespace marionette::test;

namespace {

/// A rig made of one particle (a ball), resting nowhere in particular.
rig::RigDescription ballRig(float radius, float mass = 1.f)
{
    rig::RigDescription d;
    d.name = "ball";
    rig::Particle p;
    p.name = "ball";
    p.radius = radius;
    p.mass = mass;
    d.particles.push_back(p);
    return d;
}

/// Closest distance between segments p1–q1 and p2–q2 (Ericson §5.1.9).
float segmentDistance(Vec3 p1, Vec3 q1, Vec3 p2, Vec3 q2)
{
    const Vec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
    const float a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
    float s = 0.f, t = 0.f;
    if (a <= 1e-12f && e <= 1e-12f)
        return length(r);
    if (a <= 1e-12f) {
        t = std::clamp(f / e, 0.f, 1.f);
    } else {
        const float c = dot(d1, r);
        if (e <= 1e-12f) {
            s = std::clamp(-c / a, 0.f, 1.f);
        } else {
            const float b = dot(d1, d2), denom = a * e - b * b;
            s = denom > 1e-12f ? std::clamp((b * f - c * e) / denom, 0.f, 1.f) : 0.f;
            t = (b * s + f) / e;
            if (t < 0.f) {
                t = 0.f;
                s = std::clamp(-c / a, 0.f, 1.f);
            } else if (t > 1.f) {
                t = 1.f;
                s = std::clamp((b - c) / a, 0.f, 1.f);
            }
        }
    }
    return length((p1 + d1 * s) - (p2 + d2 * t));
}

/// Current positions finite (the previous ones are not checked).
bool allFinite(const Ragdoll& r) { return allPointsFinite(r.positions()); }


} // namespace

class TestCollision : public QObject {
    Q_OBJECT

private slots:
    void friction_crateStopsAtCoulombDistance_data();
    void friction_crateStopsAtCoulombDistance();
    void friction_zeroKeepsSliding();
    void staticFriction_particleStaysOnTiltedPlane_data();
    void staticFriction_particleStaysOnTiltedPlane();
    void stickContact_nearEndMovesMoreAndNoPenetration();
    void stickContact_barycentricSplitIsC1OverC2();
    void tunnelling_fastParticleStopsAtThinWall_data();
    void tunnelling_fastParticleStopsAtThinWall();
    void humanoidDrop_settlesOnGround_data();
    void humanoidDrop_settlesOnGround();
    void deepPenetration_comesOutWithoutBeingThrown_data();
    void deepPenetration_comesOutWithoutBeingThrown();
    void staticShapes_particlesRestOnTop();
    void selfCollision_minRangesHoldFoldedArm();
    void selfCollision_capsuleFilter_data();
    void selfCollision_capsuleFilter();
};

// ------------------------------------------------------------------------------------------------ friction

// Jakobsen's friction reduces a contact's tangential motion per step by μ × (the depth it was projected out
// by during that step). A body resting on the ground sinks g·Δt² per step under gravity and is projected
// back by the same amount, so its tangential displacement per step shrinks by μ·g·Δt², i.e. its velocity by
// μ·g·Δt per step: a constant deceleration μ·g, which is Coulomb's law. Hence the stopping distance
// v²/(2μg). The match is approximate (several contacts of one body share the load, depth is accumulated
// over iterations, the static threshold snaps the last millimetres), so we allow 30%. Drag is switched off
// so that only friction decelerates the crate.
// The rate is per second, so the distance is the same at 2, 4 and 8 substeps (the default solver; one
// substep of 1/60 s lands the crate's corners 2.7 mm deep each step, which overstates friction).
void TestCollision::friction_crateStopsAtCoulombDistance_data()
{
    QTest::addColumn<std::uint32_t>("substeps");
    for (std::uint32_t n : {2u, 4u, 8u})
        QTest::newRow(qPrintable(QStringLiteral("%1 substeps").arg(n))) << n;
}

void TestCollision::friction_crateStopsAtCoulombDistance()
{
    QFETCH(std::uint32_t, substeps);
    rig::RigDescription desc = makeCrate({0.2f, 0.2f, 0.2f}, 10.f);
    desc.settings.friction = 0.6f;
    desc.settings.damping = 0.f;
    desc.settings.substeps = substeps;
    BUILD_RIG(crate, desc);
    World world;
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    SPAWN_RAGDOLL(h, world, crate, (Transform{Quat{}, {0.f, 0.2f, 0.f}}));
    Ragdoll& r = *world.ragdoll(h);
    for (int i = 0; i < 30; ++i)
        world.step();
    QVERIFY2(maxSpeed(r) < 0.05f, qPrintable(QStringLiteral("crate not at rest before the push: %1 m/s").arg(maxSpeed(r))));

    const float v0 = 3.f;
    QVERIFY(r.addVelocity({v0, 0.f, 0.f}));
    const float x0 = r.centreOfMass().x;
    float prevX = x0;
    float minVx = INFINITY;
    int stopStep = -1;
    for (int i = 0; i < 180; ++i) {
        world.step();
        const float x = r.centreOfMass().x;
        const float vx = (x - prevX) / kDt;
        prevX = x;
        minVx = std::min(minVx, vx);
        QVERIFY2(vx >= -5e-3f, qPrintable(QStringLiteral("centre velocity reversed at step %1: vx = %2 m/s").arg(i).arg(num(vx))));
        if (stopStep < 0 && std::fabs(vx) < 1e-3f)
            stopStep = i;
    }
    QVERIFY2(stopStep >= 0, qPrintable(QStringLiteral("crate still sliding after 3 s, last vx %1").arg(num((r.centreOfMass().x - prevX) / kDt))));
    const float distance = r.centreOfMass().x - x0;
    const float mu = 0.6f, g = 9.81f;
    const float expected = v0 * v0 / (2.f * mu * g);
    QVERIFY2(std::fabs(distance - expected) <= 0.3f * expected,
             qPrintable(QStringLiteral("stopping distance %1 m vs v²/(2μg) = %2 m (ratio %3), stopped after %4 steps")
                            .arg(num(distance), num(expected), num(distance / expected)).arg(stopStep + 1)));
    QVERIFY2(allFinite(r), "crate positions not finite");
}

void TestCollision::friction_zeroKeepsSliding()
{
    rig::RigDescription desc = makeCrate({0.2f, 0.2f, 0.2f}, 10.f);
    desc.settings.friction = 0.f;
    desc.settings.damping = 0.f;
    BUILD_RIG(crate, desc);
    World world;
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    SPAWN_RAGDOLL(h, world, crate, (Transform{Quat{}, {0.f, 0.2f, 0.f}}));
    Ragdoll& r = *world.ragdoll(h);
    for (int i = 0; i < 30; ++i)
        world.step();
    QVERIFY(r.addVelocity({3.f, 0.f, 0.f}));
    for (int i = 0; i < 60; ++i)
        world.step();
    const Vec3 p = r.centreOfMass();
    world.step();
    const float speed = (r.centreOfMass().x - p.x) / kDt;
    QVERIFY2(speed > 2.5f, qPrintable(QStringLiteral("speed after 1 s without friction: %1 m/s (expected > 2.5)").arg(num(speed))));
}

void TestCollision::staticFriction_particleStaysOnTiltedPlane_data()
{
    QTest::addColumn<float>("mu");
    QTest::addColumn<float>("staticThreshold"); // m/s
    QTest::addColumn<bool>("shouldStay");
    // μ = 1 > tan 10° ≈ 0.18: friction alone holds it; with the default static threshold too.
    QTest::newRow("mu 1, default threshold") << 1.f << rig::Settings{}.staticFrictionSpeed << true;
    QTest::newRow("mu 1, no threshold") << 1.f << 0.f << true;
    // Control: frictionless, no threshold: it must slide, or the test above proves nothing.
    QTest::newRow("mu 0, no threshold (slides)") << 0.f << 0.f << false;
}

void TestCollision::staticFriction_particleStaysOnTiltedPlane()
{
    QFETCH(float, mu);
    QFETCH(float, staticThreshold);
    QFETCH(bool, shouldStay);
    rig::RigDescription desc = ballRig(0.05f);
    desc.settings.friction = mu;
    desc.settings.staticFrictionSpeed = staticThreshold;
    BUILD_RIG(ball, desc);
    World world;
    const float tilt = radians(10.f);
    const Vec3 n{std::sin(tilt), std::cos(tilt), 0.f};
    QVERIFY(world.addPlane(n, 0.f) >= 0);
    SPAWN_RAGDOLL(h, world, ball, (Transform{Quat{}, n * 0.05f}));
    Ragdoll& r = *world.ragdoll(h);
    world.step(); // first contact
    const Vec3 start = r.positions()[0];
    for (int i = 0; i < 120; ++i)
        world.step();
    const Vec3 end = r.positions()[0];
    const float moved = length(end - start);
    QVERIFY2(isFinite(end), qPrintable(str(end)));
    if (shouldStay)
        QVERIFY2(moved < 0.001f, qPrintable(QStringLiteral("particle moved %1 m over 2 s on a 10° slope (μ %2), from %3 to %4")
                                               .arg(num(moved), num(mu), str(start), str(end))));
    else
        QVERIFY2(moved > 0.01f, qPrintable(QStringLiteral("frictionless particle moved only %1 m over 2 s").arg(num(moved))));
    // Never sinks into the slope.
    const float gap = dot(end, n) - 0.05f;
    QVERIFY2(gap > -0.002f, qPrintable(QStringLiteral("particle is %1 m inside the slope").arg(num(-gap))));
}

// ------------------------------------------------------------------------------------------ c1/c2 rule

namespace {

/// Two 1 kg particles `span` apart along +X from `left`, joined by a rigid stick with a capsule.
rig::RigDescription stickRig(Vec3 left, float span, float capsule)
{
    rig::RigDescription d;
    d.name = "stick";
    for (int i = 0; i < 2; ++i) {
        rig::Particle p;
        p.name = std::string(1, char(97 + i)); // "a", "b"
        p.position = left + Vec3{span * float(i), 0.f, 0.f};
        p.mass = 1.f;
        p.radius = 0.f;
        d.particles.push_back(p);
    }
    rig::Stick s;
    s.name = "stick";
    s.a = 0;
    s.b = 1;
    s.capsuleRadius = capsule;
    d.sticks.push_back(s);
    return d;
}

} // namespace

void TestCollision::stickContact_nearEndMovesMoreAndNoPenetration()
{
    const float R = 0.25f, r = 0.05f;
    const Vec3 bump{0.25f, 0.f, 0.f}; // under the stick at 25% of its length
    rig::RigDescription desc = stickRig({0.f, 0.5f, 0.f}, 1.f, r);
    desc.settings = quietSettings(8, rig::Settings{}.damping); // Jakobsen's scheme: one step, relaxation
    BUILD_RIG(stick, desc);
    World world;
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    QVERIFY(world.addSphere(bump, R) >= 0);
    SPAWN_RAGDOLL(h, world, stick, Transform{});
    Ragdoll& rd = *world.ragdoll(h);
    const float k = 1.f - std::exp(-desc.settings.damping * kDt); // velocity fraction damped per step
    bool contactSeen = false;
    for (int i = 0; i < 180; ++i) {
        // Where each end would be after this step in free fall.
        Vec3 predicted[2];
        for (std::uint32_t e = 0; e < 2; ++e) {
            const Vec3 x = rd.positions()[e], xp = rd.previousPositions()[e];
            predicted[e] = x + (x - xp) * (1.f - k) + world.settings().gravity * (kDt * kDt);
        }
        world.step();
        const Vec3 a = rd.positions()[0], b = rd.positions()[1];
        QVERIFY2(isFinite(a) && isFinite(b), qPrintable(str(a) + str(b)));
        const float gap = distanceToSegment(bump, a, b) - (R + r);
        QVERIFY2(gap >= -0.002f, qPrintable(QStringLiteral("step %1: stick penetrates the bump by %2 m (ends %3 %4)")
                                                .arg(i).arg(num(-gap), str(a), str(b))));
        const float da = a.y - predicted[0].y, db = b.y - predicted[1].y;
        if (!contactSeen && (da > 1e-6f || db > 1e-6f)) {
            contactSeen = true;
            QVERIFY2(da > db, qPrintable(QStringLiteral("step %1 of contact: near end pushed up %2 m, far end %3 m")
                                             .arg(i).arg(num(da), num(db))));
            QVERIFY2(da > 2.f * db, qPrintable(QStringLiteral("step %1 of contact: near end pushed up %2 m, far end %3 m (ratio %4, c1/c2 = 3)")
                                                   .arg(i).arg(num(da), num(db), num(da / db))));
        }
    }
    QVERIFY2(contactSeen, "the stick never touched the bump");
}

// One isolated projection: a horizontal stick overlapping a sphere that touches it at t = 0.25, no gravity,
// one iteration. Jakobsen §5: xᵢ += wᵢcᵢλD with λ = 1/Σwᵢcᵢ², so the ends move in the ratio c1/c2 = 3 and the
// touching point moves by exactly the penetration depth.
void TestCollision::stickContact_barycentricSplitIsC1OverC2()
{
    const float R = 0.2f, r = 0.05f, depth = 0.01f;
    const Vec3 centre{0.25f, 0.f, 0.f};
    rig::RigDescription desc = stickRig({0.f, R + r - depth, 0.f}, 1.f, r);
    desc.settings = quietSettings(1, 0.f);
    BUILD_RIG(stick, desc);
    WorldSettings ws;
    ws.gravity = {0.f, 0.f, 0.f};
    World world(ws);
    QVERIFY(world.addSphere(centre, R) >= 0);
    SPAWN_RAGDOLL(h, world, stick, Transform{});
    Ragdoll& rd = *world.ragdoll(h);
    const Vec3 a0 = rd.positions()[0], b0 = rd.positions()[1];
    world.step();
    const Vec3 da = rd.positions()[0] - a0, db = rd.positions()[1] - b0;
    QVERIFY2(db.y > 1e-5f, qPrintable(QStringLiteral("far end did not move: %1 (near end %2)").arg(str(db), str(da))));
    const float ratio = da.y / db.y;
    QVERIFY2(std::fabs(ratio - 3.f) <= 0.15f,
             qPrintable(QStringLiteral("end displacements %1 and %2: ratio %3, expected c1/c2 = 3 ± 5%").arg(str(da), str(db), num(ratio))));
    // The contact point (t = 0.25) moved out by the depth: 0.75·da + 0.25·db = depth.
    const float pointMove = 0.75f * da.y + 0.25f * db.y;
    QVERIFY2(std::fabs(pointMove - depth) <= 0.1f * depth,
             qPrintable(QStringLiteral("contact point moved %1 m, penetration was %2 m").arg(num(pointMove), num(depth))));
    QVERIFY2(std::fabs(da.x) < 1e-5f && std::fabs(db.x) < 1e-5f && std::fabs(da.z) < 1e-5f && std::fabs(db.z) < 1e-5f,
             qPrintable(QStringLiteral("sideways motion: %1 %2").arg(str(da), str(db))));
}

// ------------------------------------------------------------------------------------------- tunnelling

void TestCollision::tunnelling_fastParticleStopsAtThinWall_data()
{
    QTest::addColumn<int>("kind");
    QTest::newRow("thin box") << 0;
    QTest::newRow("triangle mesh") << 1;
    QTest::newRow("plane") << 2;
}

void TestCollision::tunnelling_fastParticleStopsAtThinWall()
{
    QFETCH(int, kind);
    const float radius = 0.01f;
    BUILD_RIG(ball, ballRig(radius));
    WorldSettings ws;
    ws.gravity = {0.f, 0.f, 0.f};
    World world(ws);
    std::string error;
    // The wall's near face is the plane x = 0; the particle comes from x = −1 along +X at 200 m/s
    // (3.3 m per step: it would land far behind the wall without a line test).
    if (kind == 0) {
        QVERIFY2(world.addBox(Transform{Quat{}, {0.01f, 0.f, 0.f}}, {0.01f, 2.f, 2.f}, &error) >= 0, error.c_str());
    } else if (kind == 1) {
        const Vec3 v[4] = {{0.f, -2.f, -2.f}, {0.f, 2.f, -2.f}, {0.f, 2.f, 2.f}, {0.f, -2.f, 2.f}};
        const std::uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
        QVERIFY2(world.addTriangleMesh(v, idx, &error) >= 0, error.c_str());
    } else {
        QVERIFY2(world.addPlane({-1.f, 0.f, 0.f}, 0.f, &error) >= 0, error.c_str()); // solid where x >= 0
    }
    const RagdollHandle h = world.spawn(ball, Transform{Quat{}, {-1.f, 0.3f, 0.1f}}, {200.f, 0.f, 0.f}, &error);
    QVERIFY2(h != kInvalidRagdoll, error.c_str());
    Ragdoll& r = *world.ragdoll(h);
    for (int i = 0; i < 60; ++i) {
        world.step();
        const Vec3 p = r.positions()[0];
        QVERIFY2(isFinite(p), qPrintable(str(p)));
        QVERIFY2(p.x < 0.f, qPrintable(QStringLiteral("step %1: particle at %2 is behind the wall's near face x = 0").arg(i).arg(str(p))));
    }
    const Vec3 p = r.positions()[0];
    QVERIFY2(p.x <= -radius + 0.001f && p.x > -0.1f,
             qPrintable(QStringLiteral("particle ended at %1; expected resting against the wall at x = %2").arg(str(p), num(-radius))));
}

// ------------------------------------------------------------------------------------------ humanoid drop
// A humanoid dropped standing from 2 m lies on the floor, nothing more than 1 cm below it, and comes to rest
// within 8 s (how quickly random drops settle is counted in tst_world).

void TestCollision::humanoidDrop_settlesOnGround_data()
{
    QTest::addColumn<int>("iterations");
    QTest::newRow("4 iterations") << 4;
    QTest::newRow("8 iterations") << 8;
}

void TestCollision::humanoidDrop_settlesOnGround()
{
    QFETCH(int, iterations);
    rig::RigDescription desc = makeHumanoid();
    desc.settings.iterations = std::uint32_t(iterations);
    BUILD_RIG(humanoid, desc);
    World world;
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    SPAWN_RAGDOLL(h, world, humanoid, (Transform{Quat{}, {0.f, 2.f, 0.f}}));
    Ragdoll& r = *world.ragdoll(h);
    float lowest = 0.f;
    for (int i = 0; i < 480; ++i) {
        world.step();
        QVERIFY2(allFinite(r), qPrintable(QStringLiteral("non-finite position at step %1").arg(i)));
        if (i >= 120) // after the impact
            lowest = std::min(lowest, lowestSurface(r));
    }
    QVERIFY2(lowest >= -0.01f, qPrintable(QStringLiteral("a particle went %1 m below the floor").arg(num(-lowest))));
    const float speed = maxSpeed(r);
    QVERIFY2(speed < 0.05f, qPrintable(QStringLiteral("fastest particle still moves at %1 m/s after 8 s").arg(num(speed))));
    QVERIFY2(highestParticle(r) < 1.f, qPrintable(QStringLiteral("highest particle at %1 m: it did not fall").arg(num(highestParticle(r)))));
}

// A body that finds itself deep inside a surface (let go by a hand that dragged it into the floor, spawned
// there) comes out of it no faster than 5 m/s (kMaxDepenetrationSpeed): the push out of what was already
// inside is spread over substeps. Without that, 30 cm under the floor a particle left at 0.3 m per substep,
// 144 m/s at the default 8 substeps, and a humanoid spawned knee-deep flew 100 m up.
void TestCollision::deepPenetration_comesOutWithoutBeingThrown_data()
{
    QTest::addColumn<bool>("humanoid");
    QTest::newRow("particle, Gauss-Seidel") << false;
    QTest::newRow("humanoid, direct") << true;
}

void TestCollision::deepPenetration_comesOutWithoutBeingThrown()
{
    QFETCH(bool, humanoid);
    rig::RigDescription desc = humanoid ? makeHumanoid() : worldSuites::pointsRig({{0.f, 0.f, 0.f}});
    if (!humanoid) {
        desc.particles[0].radius = 0.05f;
        desc.settings.solver = rig::SolverMode::GaussSeidel;
    }
    QCOMPARE(desc.settings.solver, humanoid ? rig::SolverMode::Direct : rig::SolverMode::GaussSeidel);
    BUILD_RIG(rig, desc);
    World world;
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    SPAWN_RAGDOLL(h, world, rig, (Transform{Quat{}, {0.f, -0.3f, 0.f}}));
    Ragdoll& r = *world.ragdoll(h);
    const float substep = world.settings().timeStep / float(rig->settings().substeps);
    float fastestUp = 0.f;
    for (int i = 0; i < 300; ++i) {
        world.step();
        QVERIFY2(allFinite(r), qPrintable(QStringLiteral("non-finite position at step %1").arg(i)));
        for (std::uint32_t p = 0; p < r.particleCount(); ++p)
            fastestUp = std::max(fastestUp, (r.positions()[p].y - r.previousPositions()[p].y) / substep);
    }
    QVERIFY2(fastestUp <= 5.5f, qPrintable(QStringLiteral("thrown out of the floor at %1 m/s").arg(num(fastestUp))));
    QVERIFY2(fastestUp >= 0.5f, qPrintable(QStringLiteral("came out at only %1 m/s").arg(num(fastestUp))));
    QVERIFY2(lowestSurface(r) > -0.005f, qPrintable(QStringLiteral("still %1 m inside the floor after 5 s").arg(num(-lowestSurface(r)))));
    QVERIFY2(maxSpeed(r) < 0.05f, qPrintable(QStringLiteral("still moving at %1 m/s after 5 s").arg(num(maxSpeed(r)))));
}

// ------------------------------------------------------------------------------------------ static shapes

void TestCollision::staticShapes_particlesRestOnTop()
{
    const float r = 0.05f;
    BUILD_RIG(ball, ballRig(r));
    World world;
    std::string error;
    // A triangle-mesh floor: a 10 × 10 grid of 1 m cells (200 triangles) over x, z in [−5, 5], plus a ramp
    // rising 0.7 m over 2 m along +Z (19°, below atan μ = 31°, so friction holds a ball on it).
    std::vector<Vec3> vertices;
    std::vector<std::uint32_t> indices;
    for (int j = 0; j <= 10; ++j)
        for (int i = 0; i <= 10; ++i)
            vertices.push_back({float(i) - 5.f, 0.f, float(j) - 5.f});
    for (int j = 0; j < 10; ++j)
        for (int i = 0; i < 10; ++i) {
            const std::uint32_t v0 = std::uint32_t(j * 11 + i), v1 = v0 + 1, v2 = v0 + 11, v3 = v0 + 12;
            indices.insert(indices.end(), {v0, v2, v1, v1, v2, v3});
        }
    const std::uint32_t rampBase = std::uint32_t(vertices.size());
    const Vec3 ramp[4] = {{2.f, 0.f, 1.f}, {4.f, 0.f, 1.f}, {4.f, 0.7f, 3.f}, {2.f, 0.7f, 3.f}};
    vertices.insert(vertices.end(), std::begin(ramp), std::end(ramp));
    indices.insert(indices.end(), {rampBase, rampBase + 2, rampBase + 1, rampBase, rampBase + 3, rampBase + 2});
    QVERIFY2(world.addTriangleMesh(vertices, indices, &error) >= 0, error.c_str());

    const Vec3 sphereC{-3.f, 0.5f, -3.f};
    const float sphereR = 0.3f;
    QVERIFY2(world.addSphere(sphereC, sphereR, &error) >= 0, error.c_str());
    const Vec3 capA{-3.f, 0.4f, 2.f}, capB{-1.f, 0.4f, 2.f};
    const float capR = 0.2f;
    QVERIFY2(world.addCapsule(capA, capB, capR, &error) >= 0, error.c_str());
    const Vec3 boxC{2.f, 0.3f, -3.f}, boxHalf{0.5f, 0.3f, 0.5f};
    QVERIFY2(world.addBox(Transform{Quat{}, boxC}, boxHalf, &error) >= 0, error.c_str());

    struct Drop { const char* what; Vec3 at; };
    const Drop drops[] = {
        {"sphere", {sphereC.x, 2.f, sphereC.z}},
        {"capsule", {-2.f, 2.f, 2.f}},
        {"box", {2.1f, 2.f, -2.9f}},
        {"mesh floor (cell interior)", {0.3f, 1.f, 0.6f}},
        {"mesh floor (grid vertex)", {-1.f, 1.f, -1.f}},
        {"mesh floor (cell diagonal)", {-2.5f, 1.f, 0.5f}},
        {"ramp", {3.f, 2.f, 2.f}},
    };
    std::vector<RagdollHandle> handles;
    for (const Drop& d : drops) {
        const RagdollHandle h = world.spawn(ball, Transform{Quat{}, d.at}, {}, &error);
        QVERIFY2(h != kInvalidRagdoll, error.c_str());
        handles.push_back(h);
    }
    for (int i = 0; i < 180; ++i)
        world.step();

    const Vec3 rampN = normalizeOr(cross(ramp[3] - ramp[0], ramp[1] - ramp[0]), {0.f, 1.f, 0.f}); // upward
    for (std::size_t k = 0; k < handles.size(); ++k) {
        const Vec3 p = world.ragdoll(handles[k])->positions()[0];
        const QString where = QString::fromLatin1(drops[k].what);
        QVERIFY2(isFinite(p), qPrintable(where + QStringLiteral(": ") + str(p)));
        float penetration = 0.f;
        bool onTop = false;
        switch (k) {
        case 0:
            penetration = sphereR + r - length(p - sphereC);
            onTop = p.y > sphereC.y + sphereR;
            break;
        case 1:
            penetration = capR + r - distanceToSegment(p, capA, capB);
            onTop = p.y > capA.y + capR;
            break;
        case 2:
            penetration = (boxC.y + boxHalf.y + r) - p.y;
            onTop = p.y > boxC.y + boxHalf.y && std::fabs(p.x - boxC.x) < boxHalf.x && std::fabs(p.z - boxC.z) < boxHalf.z;
            break;
        case 6: {
            const float height = dot(p - ramp[0], rampN);
            penetration = r - height;
            onTop = height > 0.f && p.x > 2.f && p.x < 4.f && p.z > 1.f && p.z < 3.f;
            break;
        }
        default:
            penetration = r - p.y;
            onTop = p.y > 0.f;
            break;
        }
        QVERIFY2(onTop, qPrintable(QStringLiteral("%1: ball ended at %2, not on top").arg(where, str(p))));
        QVERIFY2(penetration < 0.005f, qPrintable(QStringLiteral("%1: ball at %2 penetrates by %3 m").arg(where, str(p), num(penetration))));
        QVERIFY2(penetration > -0.005f, qPrintable(QStringLiteral("%1: ball at %2 hovers %3 m above the surface").arg(where, str(p), num(-penetration))));
    }
}

// ------------------------------------------------------------------------------------------ self-collision

void TestCollision::selfCollision_minRangesHoldFoldedArm()
{
    HumanoidOptions options;
    options.selfCollision = true;
    const rig::RigDescription desc = makeHumanoid(options);
    BUILD_RIG(humanoid, desc);
    WorldSettings ws;
    ws.gravity = {0.f, 0.f, 0.f};
    World world(ws);
    SPAWN_RAGDOLL(h, world, humanoid, Transform{});
    Ragdoll& r = *world.ragdoll(h);
    // Fold both arms into the torso: soft pins drag the wrists onto the spine and the head, and impulses
    // push the elbows in; then release and let the solver relax.
    float closestDuringFold = INFINITY;
    for (int i = 0; i < 40; ++i) {
        const Vec3 spine = r.positions()[kSpine];
        QVERIFY(r.setPin(kWristL, spine, 0.5f, false));
        QVERIFY(r.setPin(kWristR, r.positions()[kHead], 0.5f, false));
        QVERIFY(r.applyImpulse(kElbowL, (spine - r.positions()[kElbowL]) * 2.f));
        world.step();
        closestDuringFold = std::min(closestDuringFold, length(r.positions()[kWristL] - r.positions()[kSpine]));
    }
    QVERIFY(r.releasePin(kWristL));
    QVERIFY(r.releasePin(kWristR));
    for (int i = 0; i < 60; ++i)
        world.step();
    QVERIFY(allFinite(r));
    // Every min-distance range (knees, ankles, wrists to torso/hips/head, elbows to spine) holds.
    int ranges = 0;
    for (const rig::Stick& s : desc.sticks) {
        if (s.kind != rig::StickKind::MinOnly)
            continue;
        ++ranges;
        const float L = length(r.positions()[std::size_t(s.b)] - r.positions()[std::size_t(s.a)]);
        QVERIFY2(L >= s.minLength - 0.005f,
                 qPrintable(QStringLiteral("range '%1': distance %2 m after relaxation, minimum %3 m (closest while folding: wrist–spine %4 m)")
                                .arg(QString::fromStdString(s.name), num(L), num(s.minLength), num(closestDuringFold))));
    }
    QVERIFY2(ranges >= 2, "the humanoid has no min-distance ranges");
    const float wrist = length(r.positions()[kWristL] - r.positions()[kSpine]);
    QVERIFY2(wrist >= 0.16f - 0.005f, qPrintable(QStringLiteral("wrist–spine distance %1 m, range 0.16 m").arg(num(wrist))));
}

void TestCollision::selfCollision_capsuleFilter_data()
{
    QTest::addColumn<std::uint32_t>("groupA");
    QTest::addColumn<std::uint32_t>("maskA");
    QTest::addColumn<std::uint32_t>("groupB");
    QTest::addColumn<std::uint32_t>("maskB");
    QTest::addColumn<bool>("collide");
    QTest::newRow("matching masks") << 1u << 1u << 1u << 1u << true;
    QTest::newRow("different groups that see each other") << 1u << 2u << 2u << 1u << true;
    QTest::newRow("mask 0") << 1u << ~0u << 1u << 0u << false;
    QTest::newRow("groups excluded by masks") << 1u << 1u << 2u << 2u << false;
}

void TestCollision::selfCollision_capsuleFilter()
{
    QFETCH(std::uint32_t, groupA);
    QFETCH(std::uint32_t, maskA);
    QFETCH(std::uint32_t, groupB);
    QFETCH(std::uint32_t, maskB);
    QFETCH(bool, collide);
    // Two separate capsules of one rig, crossing at right angles: A along X at y = 0, B along Z at y = 0.3.
    rig::RigDescription d;
    d.name = "cross";
    const Vec3 at[4] = {{-0.5f, 0.f, 0.f}, {0.5f, 0.f, 0.f}, {0.f, 0.3f, -0.5f}, {0.f, 0.3f, 0.5f}};
    for (const Vec3& p : at) {
        rig::Particle q;
        q.position = p;
        q.radius = 0.f;
        d.particles.push_back(q);
    }
    const float cr = 0.05f;
    for (int k = 0; k < 2; ++k) {
        rig::Stick s;
        s.a = 2 * k;
        s.b = 2 * k + 1;
        s.capsuleRadius = cr;
        s.group = k == 0 ? groupA : groupB;
        s.mask = k == 0 ? maskA : maskB;
        d.sticks.push_back(s);
    }
    BUILD_RIG(cross, d);
    QCOMPARE(cross->selfCapsulePairs().size(), collide ? std::size_t(2) : std::size_t(0));
    WorldSettings ws;
    ws.gravity = {0.f, 0.f, 0.f};
    World world(ws);
    SPAWN_RAGDOLL(h, world, cross, Transform{});
    Ragdoll& r = *world.ragdoll(h);
    QVERIFY(r.applyImpulse(2, {0.f, -2.f, 0.f}));
    QVERIFY(r.applyImpulse(3, {0.f, -2.f, 0.f}));
    float minGap = INFINITY;
    for (int i = 0; i < 30; ++i) {
        world.step();
        const auto x = r.positions();
        const float dist = segmentDistance(x[0], x[1], x[2], x[3]);
        const float above = (x[2].y + x[3].y) * 0.5f - (x[0].y + x[1].y) * 0.5f;
        minGap = std::min(minGap, above >= 0.f ? dist : -dist);
    }
    const auto x = r.positions();
    const float relative = (x[2].y + x[3].y) * 0.5f - (x[0].y + x[1].y) * 0.5f;
    if (collide) {
        QVERIFY2(minGap >= 2.f * cr - 0.005f,
                 qPrintable(QStringLiteral("capsules came %1 m close (radii sum %2 m)").arg(num(minGap), num(2.f * cr))));
        QVERIFY2(relative > 0.f, qPrintable(QStringLiteral("B ended %1 m relative to A: it passed through").arg(num(relative))));
    } else {
        QVERIFY2(relative < -0.3f, qPrintable(QStringLiteral("B ended %1 m relative to A: it should have passed through (filtered pair)").arg(num(relative))));
    }
}

QTEST_APPLESS_MAIN(TestCollision)
#include "tst_collision.moc"
