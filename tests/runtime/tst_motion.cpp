// Motion of ragdolls through the public API of the Marionette runtime: the bone palette (bind pose, rigid
// motion, interpolation between steps), motion control (impulses, explosions, setPose, kinematic and soft
// pins) and a rigid prop (a crate keeps its shape and comes to rest on the floor). Every assertion on a
// number prints the measured value.
#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "RuntimeTestSupport.h"

using namespace marionette;
using namespace marionette::runtime;
using namespace marionette::test;
using namespace marionette::test::worldSuites;

namespace {

float maxMatrixDifference(const Mat4& a, const Mat4& b)
{
    float m = 0.f;
    for (int i = 0; i < 16; ++i)
        m = std::max(m, std::fabs(a.m[i] - b.m[i]));
    return m;
}


} // namespace

class TestMotion : public QObject {
    Q_OBJECT

private slots:
    void bones_bindPoseIsIdentityPalette();
    void bones_followRigidMotion();
    void bones_interpolateHalfway();
    void motion_impulseChangesVelocityByJOverM();
    void motion_impulseOnStickSplitsBarycentric();
    void motion_explosionFallsOffWithSquaredDistance();
    void motion_setPoseInheritsVelocity();
    void motion_kinematicPinHoldsExactly();
    void motion_softPinApproachesTarget();
    void motion_releasePinRestoresMass();
    void rigidProp_crateKeepsShapeAndRestsOnFloor();
};

// ---------------------------------------------------------------------------------------------- bones

namespace {

/// Rigid transform used by the bone tests: rotate 90° about +Y, then translate by (1, 2, 3).
Transform rigidMove() { return {Quat::fromAxisAngle({0.f, 1.f, 0.f}, kPi / 2.f), {1.f, 2.f, 3.f}}; }

std::vector<Vec3> transformedBind(const Rig& rig, const Transform& t)
{
    std::vector<Vec3> out;
    for (const Vec3& p : rig.bindPositions())
        out.push_back(t.apply(p));
    return out;
}

const char* driverName(const BoneData& b)
{
    if (b.driver < 0)
        return "unbound";
    return b.driverKind == rig::BoneBinding::Driver::Triangle ? "triangle-driven" : "stick-driven";
}

} // namespace

void TestMotion::bones_bindPoseIsIdentityPalette()
{
    BUILD_RIG(humanoid, makeHumanoid());
    World world;
    SPAWN_RAGDOLL(h, world, humanoid, Transform{});
    const Ragdoll& r = *world.ragdoll(h);
    const std::size_t n = humanoid->bones().size();
    QVERIFY(n > 0);
    std::vector<Mat4> skin(n), bones(n);
    QVERIFY(r.skinningMatrices(skin));
    QVERIFY(r.boneMatrices(bones));
    QVERIFY(!r.boneMatrices(std::span<Mat4>(bones.data(), n - 1)));
    for (std::size_t i = 0; i < n; ++i) {
        const float ds = maxMatrixDifference(skin[i], Mat4{});
        QVERIFY2(ds <= 1e-5f, qPrintable(QStringLiteral("bone %1 (%2): skinning matrix differs from identity by %3").arg(i).arg(driverName(humanoid->bones()[i])).arg(num(ds))));
        const float db = maxMatrixDifference(bones[i], humanoid->description().bones[i].bindWorld);
        QVERIFY2(db <= 1e-5f, qPrintable(QStringLiteral("bone %1 (%2): bone matrix differs from bind by %3").arg(i).arg(driverName(humanoid->bones()[i])).arg(num(db))));
    }
}

void TestMotion::bones_followRigidMotion()
{
    BUILD_RIG(humanoid, makeHumanoid());
    WorldSettings ws;
    ws.gravity = {0.f, 0.f, 0.f};
    World world(ws);
    SPAWN_RAGDOLL(h, world, humanoid, Transform{});
    Ragdoll& r = *world.ragdoll(h);
    const Transform T = rigidMove();
    const std::vector<Vec3> pose = transformedBind(*humanoid, T);
    QVERIFY(r.setPose(pose, pose));
    world.step(); // no gravity and no velocity: the pose stays, the bones follow it
    const std::size_t n = humanoid->bones().size();
    std::vector<Mat4> bones(n), skin(n);
    QVERIFY(r.boneMatrices(bones));
    QVERIFY(r.skinningMatrices(skin));
    const Mat4 M = Mat4::fromTransform(T);
    int kinds[3] = {0, 0, 0};
    for (std::size_t i = 0; i < n; ++i) {
        const BoneData& b = humanoid->bones()[i];
        kinds[b.driver < 0 ? 2 : (b.driverKind == rig::BoneBinding::Driver::Triangle ? 0 : 1)]++;
        const Mat4 expected = M * humanoid->description().bones[i].bindWorld;
        const float d = maxMatrixDifference(bones[i], expected);
        QVERIFY2(d <= 1e-4f, qPrintable(QStringLiteral("bone %1 '%2' (%3): bone matrix off the rigid transform by %4; translation %5 vs %6")
                                           .arg(i).arg(QString::fromStdString(humanoid->description().bones[i].name)).arg(driverName(b)).arg(num(d))
                                           .arg(str(bones[i].translation()), str(expected.translation()))));
        const float ds = maxMatrixDifference(skin[i], M);
        QVERIFY2(ds <= 1e-4f, qPrintable(QStringLiteral("bone %1 (%2): skinning matrix off the rigid transform by %3").arg(i).arg(driverName(b)).arg(num(ds))));
    }
    QVERIFY2(kinds[0] > 0 && kinds[1] > 0 && kinds[2] > 0,
             qPrintable(QStringLiteral("bone kinds: %1 triangle, %2 stick, %3 unbound").arg(kinds[0]).arg(kinds[1]).arg(kinds[2])));
}

void TestMotion::bones_interpolateHalfway()
{
    BUILD_RIG(humanoid, makeHumanoid());
    WorldSettings ws;
    ws.gravity = {0.f, 0.f, 0.f};
    World world(ws);
    SPAWN_RAGDOLL(h, world, humanoid, Transform{});
    Ragdoll& r = *world.ragdoll(h);
    const Transform T1 = rigidMove();
    const Transform T2{T1.rotation, T1.translation + Vec3{0.6f, -0.2f, 0.4f}};
    const std::vector<Vec3> p1 = transformedBind(*humanoid, T1), p2 = transformedBind(*humanoid, T2);
    QVERIFY(r.setPose(p1, p1));
    world.step();
    QVERIFY(r.setPose(p2, p2));
    world.step();
    const std::size_t n = humanoid->bones().size();
    std::vector<Mat4> half(n);
    QVERIFY(r.boneMatrices(half, 0.5f));
    const Mat4 M1 = Mat4::fromTransform(T1), M2 = Mat4::fromTransform(T2);
    for (std::size_t i = 0; i < n; ++i) {
        const Mat4& bind = humanoid->description().bones[i].bindWorld;
        const Vec3 expected = lerp((M1 * bind).translation(), (M2 * bind).translation(), 0.5f);
        const Vec3 got = half[i].translation();
        QVERIFY2(length(got - expected) <= 1e-4f,
                 qPrintable(QStringLiteral("bone %1 (%2) at alpha 0.5: translation %3, expected halfway %4")
                                .arg(i).arg(driverName(humanoid->bones()[i])).arg(str(got), str(expected))));
    }
    // alpha 0 and 1 are the two poses.
    std::vector<Mat4> a0(n), a1(n);
    QVERIFY(r.boneMatrices(a0, 0.f));
    QVERIFY(r.boneMatrices(a1, 1.f));
    for (std::size_t i = 0; i < n; ++i) {
        const Mat4& bind = humanoid->description().bones[i].bindWorld;
        QVERIFY2(maxMatrixDifference(a0[i], M1 * bind) <= 1e-4f, qPrintable(QStringLiteral("bone %1 at alpha 0").arg(i)));
        QVERIFY2(maxMatrixDifference(a1[i], M2 * bind) <= 1e-4f, qPrintable(QStringLiteral("bone %1 at alpha 1").arg(i)));
    }
}

// ---------------------------------------------------------------------------------------------- motion control

void TestMotion::motion_impulseChangesVelocityByJOverM()
{
    BUILD_RIG(humanoid, makeHumanoid());
    World world;
    SPAWN_RAGDOLL(h, world, humanoid, Transform{});
    Ragdoll& r = *world.ragdoll(h);
    const Vec3 J{3.f, -6.f, 9.f};
    for (std::uint32_t i : {std::uint32_t(kHead), std::uint32_t(kWristL), std::uint32_t(kSpine)}) {
        const Vec3 before = r.velocity(i);
        QVERIFY(r.applyImpulse(i, J));
        const Vec3 dv = r.velocity(i) - before;
        const Vec3 expected = J / humanoid->masses()[i];
        QVERIFY2(length(dv - expected) <= 1e-3f * length(expected),
                 qPrintable(QStringLiteral("particle %1 (%2 kg): Δv %3, expected J/m = %4").arg(i).arg(num(humanoid->masses()[i])).arg(str(dv), str(expected))));
    }
    // Other particles are untouched.
    QVERIFY2(length(r.velocity(kAnkleL)) == 0.f, qPrintable(str(r.velocity(kAnkleL))));
}

void TestMotion::motion_impulseOnStickSplitsBarycentric()
{
    rig::RigDescription d = pointsRig({{0.f, 1.f, 0.f}, {1.f, 1.f, 0.f}});
    rig::Stick s;
    s.a = 0;
    s.b = 1;
    d.sticks.push_back(s);
    BUILD_RIG(stick, d);
    World world;
    SPAWN_RAGDOLL(h, world, stick, Transform{});
    Ragdoll& r = *world.ragdoll(h);
    const Vec3 J{0.f, 8.f, 0.f};
    QVERIFY(r.applyImpulseOnStick(0, 0.25f, J));
    const Vec3 va = r.velocity(0), vb = r.velocity(1);
    // Jakobsen §5 with weights c = (0.75, 0.25): Δvᵢ = wᵢ·cᵢ·J.
    QVERIFY2(length(va - J * 0.75f) <= 1e-3f, qPrintable(QStringLiteral("near end Δv %1, expected %2").arg(str(va), str(J * 0.75f))));
    QVERIFY2(length(vb - J * 0.25f) <= 1e-3f, qPrintable(QStringLiteral("far end Δv %1, expected %2").arg(str(vb), str(J * 0.25f))));
    QVERIFY2(std::fabs(va.y / vb.y - 3.f) <= 0.01f, qPrintable(QStringLiteral("ratio %1, expected 0.75/0.25 = 3").arg(num(va.y / vb.y))));

    // Unequal masses: Δvᵢ = cᵢ J / mᵢ.
    d.particles[1].mass = 3.f;
    BUILD_RIG(heavy, d);
    SPAWN_RAGDOLL(h2, world, heavy, (Transform{Quat{}, {0.f, 0.f, 2.f}}));
    Ragdoll& r2 = *world.ragdoll(h2);
    QVERIFY(r2.applyImpulseOnStick(0, 0.25f, J));
    QVERIFY2(length(r2.velocity(0) - J * 0.75f) <= 1e-3f, qPrintable(str(r2.velocity(0))));
    QVERIFY2(length(r2.velocity(1) - J * (0.25f / 3.f)) <= 1e-3f, qPrintable(str(r2.velocity(1))));
}

void TestMotion::motion_explosionFallsOffWithSquaredDistance()
{
    BUILD_RIG(points, pointsRig({{1.f, 0.f, 0.f}, {2.f, 0.f, 0.f}, {0.f, 0.f, 5.f}}));
    World world;
    SPAWN_RAGDOLL(h, world, points, Transform{});
    Ragdoll& r = *world.ragdoll(h);
    QVERIFY(r.applyExplosion({0.f, 0.f, 0.f}, 10.f, 3.f, 0.25f));
    const Vec3 v1 = r.velocity(0), v2 = r.velocity(1), v3 = r.velocity(2);
    QVERIFY2(length(v1 - Vec3{10.f, 0.f, 0.f}) <= 1e-3f, qPrintable(QStringLiteral("Δv at 1 m: %1, expected (10, 0, 0)").arg(str(v1))));
    QVERIFY2(length(v2 - Vec3{2.5f, 0.f, 0.f}) <= 1e-3f, qPrintable(QStringLiteral("Δv at 2 m: %1, expected (2.5, 0, 0)").arg(str(v2))));
    const float ratio = length(v1) / length(v2);
    QVERIFY2(std::fabs(ratio - 4.f) <= 4e-3f, qPrintable(QStringLiteral("ratio of Δv at 1 m and 2 m: %1, expected 4").arg(num(ratio))));
    QVERIFY2(length(v3) == 0.f, qPrintable(QStringLiteral("particle outside the radius got %1").arg(str(v3))));
}

void TestMotion::motion_setPoseInheritsVelocity()
{
    BUILD_RIG(humanoid, makeHumanoid());
    WorldSettings ws;
    ws.gravity = {0.f, 0.f, 0.f};
    World world(ws);
    SPAWN_RAGDOLL(h, world, humanoid, Transform{});
    Ragdoll& r = *world.ragdoll(h);
    const Vec3 v{1.5f, 0.5f, -2.f};
    const Transform now{Quat{}, {0.f, 1.f, 0.f}};
    const Transform before{Quat{}, now.translation - v * kDt};
    const std::vector<Vec3> current = transformedBind(*humanoid, now), previous = transformedBind(*humanoid, before);
    QVERIFY(r.setPose(current, previous));
    for (std::uint32_t i = 0; i < r.particleCount(); ++i)
        QVERIFY2(length(r.velocity(i) - v) <= 1e-3f, qPrintable(QStringLiteral("particle %1 velocity %2 after setPose, expected %3").arg(i).arg(str(r.velocity(i)), str(v))));
    const float decay = std::exp(-humanoid->settings().damping * kDt); // per step, at any substep count
    world.step();
    for (std::uint32_t i = 0; i < r.particleCount(); ++i) {
        const Vec3 expected = v * decay;
        QVERIFY2(length(r.velocity(i) - expected) <= 2e-3f,
                 qPrintable(QStringLiteral("particle %1 continues at %2, expected e^(−damping·Δt)·v = %3").arg(i).arg(str(r.velocity(i)), str(expected))));
    }
}

void TestMotion::motion_kinematicPinHoldsExactly()
{
    BUILD_RIG(humanoid, makeHumanoid());
    World world;
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    SPAWN_RAGDOLL(h, world, humanoid, (Transform{Quat{}, {0.f, 0.1f, 0.f}}));
    Ragdoll& r = *world.ragdoll(h);
    const Vec3 target{0.7f, 2.1f, 0.3f}; // lift the body by its wrist
    QVERIFY(r.setPin(kWristL, target));
    QCOMPARE(r.inverseMasses()[kWristL], 0.f);
    for (int i = 0; i < 120; ++i) {
        world.step();
        const Vec3 p = r.positions()[kWristL];
        QVERIFY2(p == target, qPrintable(QStringLiteral("step %1: pinned wrist at %2, target %3").arg(i).arg(str(p), str(target))));
    }
    // Dragging: a new target each step is reached exactly.
    for (int i = 0; i < 30; ++i) {
        const Vec3 t = target + Vec3{0.02f * float(i), 0.f, 0.f};
        QVERIFY(r.setPin(kWristL, t));
        world.step();
        QVERIFY2(r.positions()[kWristL] == t, qPrintable(QStringLiteral("dragged wrist at %1, target %2").arg(str(r.positions()[kWristL]), str(t))));
    }
    QVERIFY(allFinite(r));
    // The body hangs below the wrist.
    QVERIFY2(r.positions()[kAnkleL].y < target.y - 0.5f, qPrintable(QStringLiteral("ankle at %1").arg(str(r.positions()[kAnkleL]))));
}

void TestMotion::motion_softPinApproachesTarget()
{
    BUILD_RIG(humanoid, makeHumanoid());
    WorldSettings ws;
    ws.gravity = {0.f, 0.f, 0.f};
    World world(ws);
    SPAWN_RAGDOLL(h, world, humanoid, Transform{});
    Ragdoll& r = *world.ragdoll(h);
    const Vec3 target = r.positions()[kWristL] + Vec3{0.f, 0.5f, 0.3f};
    const float d0 = length(r.positions()[kWristL] - target);
    QVERIFY(r.setPin(kWristL, target, 0.2f, false));
    QVERIFY2(r.inverseMasses()[kWristL] == humanoid->inverseMasses()[kWristL], "a soft pin changed the inverse mass");
    world.step();
    const float d1 = length(r.positions()[kWristL] - target);
    QVERIFY2(d1 < d0 && d1 > 1e-3f, qPrintable(QStringLiteral("after one step the soft pin is %1 m from the target (started %2 m): expected a partial approach").arg(num(d1), num(d0))));
    // It closes in step after step at first...
    float last = d1;
    for (int i = 0; i < 4; ++i) {
        world.step();
        const float d = length(r.positions()[kWristL] - target);
        QVERIFY2(d < last, qPrintable(QStringLiteral("step %1: distance to the target %2 m, was %3 m").arg(i + 2).arg(num(d), num(last))));
        last = d;
    }
    // ...and then stays near it (the body it drags swings about the pinned wrist, so not monotonically).
    double sum = 0.0;
    float worst = 0.f;
    for (int i = 0; i < 120; ++i) {
        world.step();
        const float d = length(r.positions()[kWristL] - target);
        if (i >= 60) {
            sum += d;
            worst = std::max(worst, d);
        }
    }
    const double mean = sum / 60.0;
    QVERIFY2(mean < 0.05 * d0 && worst < 0.2f * d0,
             qPrintable(QStringLiteral("over the last second the soft pin is on average %1 m (at worst %2 m) from its target (started %3 m)")
                            .arg(num(mean), num(worst), num(d0))));
    QVERIFY(allFinite(r));
}

void TestMotion::motion_releasePinRestoresMass()
{
    BUILD_RIG(humanoid, makeHumanoid());
    World world;
    SPAWN_RAGDOLL(h, world, humanoid, Transform{});
    Ragdoll& r = *world.ragdoll(h);
    const float w = humanoid->inverseMasses()[kHead];
    QVERIFY(w > 0.f);
    QVERIFY(!r.releasePin(kHead)); // nothing to release
    QVERIFY(r.setPin(kHead, {0.f, 2.f, 0.f}));
    QCOMPARE(r.inverseMasses()[kHead], 0.f);
    world.step();
    QVERIFY(r.setPin(kHead, {0.f, 2.1f, 0.f})); // re-pinning keeps the saved mass
    QCOMPARE(r.inverseMasses()[kHead], 0.f);
    for (int i = 0; i < 60; ++i)
        world.step(); // held still: the head's velocity is zero
    QVERIFY2(length(r.velocity(kHead)) < 1e-4f, qPrintable(str(r.velocity(kHead))));
    QVERIFY(r.releasePin(kHead));
    QCOMPARE(r.inverseMasses()[kHead], w);
    QVERIFY2(length(r.velocity(kHead)) < 1e-4f, qPrintable(QStringLiteral("released head velocity %1: it should keep the velocity it had").arg(str(r.velocity(kHead)))));
    QVERIFY(!r.releasePin(kHead));
    // Kinematic → soft on the same particle restores the mass while still pinned.
    QVERIFY(r.setPin(kNose, {0.f, 2.f, 0.f}, 1.f, true));
    QCOMPARE(r.inverseMasses()[kNose], 0.f);
    QVERIFY(r.setPin(kNose, {0.f, 2.f, 0.f}, 0.5f, false));
    QCOMPARE(r.inverseMasses()[kNose], humanoid->inverseMasses()[kNose]);
    QVERIFY(r.releasePin(kNose));
    // The released particle falls again.
    const float y = 2.1f;
    for (int i = 0; i < 10; ++i)
        world.step();
    QVERIFY2(r.positions()[kHead].y < y, qPrintable(QStringLiteral("released head at %1, was %2").arg(num(r.positions()[kHead].y), num(y))));
    // Pin capacity: at most kMaxDynamicPins at once.
    int accepted = 0;
    for (std::uint32_t i = 0; i < r.particleCount(); ++i)
        accepted += r.setPin(i, r.positions()[i]) ? 1 : 0;
    QVERIFY2(accepted == int(Ragdoll::kMaxDynamicPins), qPrintable(QStringLiteral("%1 pins accepted, capacity %2").arg(accepted).arg(Ragdoll::kMaxDynamicPins)));
    for (std::uint32_t i = 0; i < r.particleCount(); ++i)
        r.releasePin(i);
    for (std::uint32_t i = 0; i < r.particleCount(); ++i)
        QCOMPARE(r.inverseMasses()[i], humanoid->inverseMasses()[i]);
}

// ---------------------------------------------------------------------------------------------- rigid prop

void TestMotion::rigidProp_crateKeepsShapeAndRestsOnFloor()
{
    const Vec3 half{0.2f, 0.2f, 0.2f};
    BUILD_RIG(crate, makeCrate(half, 10.f));
    World world;
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    SPAWN_RAGDOLL(h, world, crate, (Transform{Quat::fromAxisAngle(normalizeOr({1.f, 0.f, 1.f}, {0.f, 1.f, 0.f}), 0.3f), {0.f, 1.2f, 0.f}}));
    Ragdoll& r = *world.ragdoll(h);
    const auto& sticks = crate->description().sticks;
    QCOMPARE(sticks.size(), std::size_t(6));
    float worstDuring = 0.f;
    for (int i = 0; i < 180; ++i) {
        world.step();
        for (const rig::Stick& s : sticks) {
            const float rest = length(crate->bindPositions()[std::size_t(s.b)] - crate->bindPositions()[std::size_t(s.a)]);
            const float L = length(r.positions()[std::size_t(s.b)] - r.positions()[std::size_t(s.a)]);
            worstDuring = std::max(worstDuring, std::fabs(L - rest));
        }
    }
    QVERIFY(allFinite(r));
    for (std::size_t k = 0; k < sticks.size(); ++k) {
        const rig::Stick& s = sticks[k];
        const float rest = length(crate->bindPositions()[std::size_t(s.b)] - crate->bindPositions()[std::size_t(s.a)]);
        const float L = length(r.positions()[std::size_t(s.b)] - r.positions()[std::size_t(s.a)]);
        QVERIFY2(std::fabs(L - rest) <= 0.001f, qPrintable(QStringLiteral("stick %1: length %2, rest %3 (worst during the fall %4)").arg(k).arg(num(L), num(rest), num(worstDuring))));
    }
    // Box corners: the four particles sit on alternate corners, the others are their reflections
    // through the centre.
    const auto x = r.positions();
    const Vec3 c = (x[0] + x[1] + x[2] + x[3]) * 0.25f;
    float lowest = INFINITY;
    for (std::size_t i = 0; i < 4; ++i) {
        lowest = std::min(lowest, x[i].y);
        lowest = std::min(lowest, (c * 2.f - x[i]).y);
    }
    QVERIFY2(std::fabs(lowest) <= 0.005f, qPrintable(QStringLiteral("lowest box corner at y = %1 (centre %2)").arg(num(lowest), str(c))));
    QVERIFY2(maxSpeed(r) < 0.05f, qPrintable(QStringLiteral("crate still moving at %1 m/s").arg(num(maxSpeed(r)))));
}

QTEST_APPLESS_MAIN(TestMotion)
#include "tst_motion.moc"
