// Drives (powered ragdolls) through the public runtime API: a motor is a spring on a part's orientation
// relative to its parent with the natural frequency and damping ratio it is given (measured period, no
// overshoot when critically damped), a capped motor turns a joint no faster than its maximum torque allows,
// a pin sags under gravity by exactly g/ω², kinematic parts ride their targets, drives are internal (linear
// momentum kept), gains of zero are exactly the passive ragdoll, profiles blend over time, a bone palette
// places the targets, and bad input changes nothing.
#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <QtTest/QtTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "RuntimeTestSupport.h"

using namespace marionette;
using namespace marionette::runtime;
using namespace marionette::test;

namespace {

constexpr float kTwoPi = 6.28318530718f;

/// Two free triangles 1 m apart (unit masses), joined by a cone limit wide enough never to act: what turns
/// them is the motor alone. No gravity, drag or joint friction; sleep off.
rig::RigDescription twoTriangles()
{
    rig::RigDescription d;
    d.name = "two triangles";
    const Vec3 corners[3] = {{0.f, 0.f, 0.f}, {0.f, 0.3f, 0.f}, {0.2f, 0.f, 0.f}};
    for (int t = 0; t < 2; ++t)
        for (const Vec3& c : corners)
            d.particles.push_back(particle(c + Vec3{float(t), 0.f, 0.f}, 1.f));
    for (int t = 0; t < 2; ++t) {
        rig::Triangle tri;
        tri.p[0] = 3 * t;
        tri.p[1] = 3 * t + 1;
        tri.p[2] = 3 * t + 2;
        d.triangles.push_back(tri);
    }
    rig::AngularConstraint c;
    c.triangleA = 0;
    c.triangleB = 1;
    c.limit = rig::AngularLimit::Cone;
    c.coneAngle = kPi;
    d.angular.push_back(c);
    d.settings.damping = 0.f;
    d.settings.sleepTime = 0.f;
    return d;
}

WorldSettings weightless()
{
    WorldSettings ws;
    ws.gravity = {};
    ws.sleep = false;
    return ws;
}

/// Signed angle (radians) about world z of the rotation taking A's frame to B's (both triangles stay in the
/// xy-plane, so it is a rotation about z).
float relativeAngleZ(const Ragdoll& r)
{
    const auto x = r.positions();
    Mat3 fa, fb;
    if (!Rig::triangleFrame(x[0], x[1], x[2], fa) || !Rig::triangleFrame(x[3], x[4], x[5], fb))
        return std::numeric_limits<float>::quiet_NaN();
    const Quat q = toQuat(fb * fa.transposed());
    return 2.f * std::atan2(q.z, q.w);
}

/// Targets: A where it is at bind, B turned by `angle` about z through its centroid.
std::vector<Vec3> turnedTargets(const Rig& rig, float angle)
{
    std::vector<Vec3> t(rig.bindPositions().begin(), rig.bindPositions().end());
    const Vec3 c = (t[3] + t[4] + t[5]) * (1.f / 3.f);
    const Quat q = Quat::fromAxisAngle({0.f, 0.f, 1.f}, angle);
    for (int i = 3; i < 6; ++i)
        t[std::size_t(i)] = c + q.rotate(t[std::size_t(i)] - c);
    return t;
}

/// Gains for the motor of part B (part 1) only.
std::vector<rig::DriveGains> motorOnB(const Rig& rig, float hz, float zeta, float maxTorque = 0.f)
{
    std::vector<rig::DriveGains> g(rig.driveParts().size());
    g[1].motorFrequency = hz;
    g[1].motorDamping = zeta;
    g[1].maxTorque = maxTorque;
    return g;
}

/// Σ m r⊥² of particles [first, first + 3) about the z axis through their centroid.
float inertiaZ(const Rig& rig, int first)
{
    const auto x = rig.bindPositions();
    const auto m = rig.masses();
    Vec3 c;
    for (int i = first; i < first + 3; ++i)
        c += x[std::size_t(i)] / 3.f;
    float inertia = 0.f;
    for (int i = first; i < first + 3; ++i) {
        const Vec3 d = x[std::size_t(i)] - c;
        inertia += m[std::size_t(i)] * (d.x * d.x + d.y * d.y);
    }
    return inertia;
}

bool bitwiseEqual(std::span<const Vec3> a, std::span<const Vec3> b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec3)) == 0;
}

/// Bone world matrices of the rig's bind pose.
std::vector<Mat4> bindPalette(const Rig& rig)
{
    std::vector<Mat4> p;
    for (const BoneData& b : rig.bones())
        p.push_back(b.bindWorld);
    return p;
}

} // namespace

class TestDrives : public QObject {
    Q_OBJECT
private slots:
    void motor_oscillatesAtItsFrequency_data();
    void motor_oscillatesAtItsFrequency();
    void motor_criticallyDampedDoesNotOvershoot();
    void motor_maxTorqueCapsTheAngularAcceleration();
    void pin_sagsUnderGravityByGOverOmegaSquared();
    void kinematicParts_rideTheirTargetsWhileTheRestReacts();
    void zeroGains_areExactlyThePassiveRagdoll();
    void profiles_blendOverTime();
    void palette_placesTheTargets();
    void badInput_isRefusedAndChangesNothing();
};

void TestDrives::motor_oscillatesAtItsFrequency_data()
{
    QTest::addColumn<float>("hz");
    QTest::newRow("1 Hz") << 1.f;
    QTest::newRow("2 Hz") << 2.f;
    QTest::newRow("5 Hz") << 5.f;
}

// Undamped, the relative angle swings about the target as θ* − θ0·cos(2πf·t): the upward crossings of the
// target are one period 1/f apart. Linear momentum stays zero (the motor is internal): within float rounding,
// 0.2 % of the momentum Σ m|v| the particles carry at their fastest.
void TestDrives::motor_oscillatesAtItsFrequency()
{
    QFETCH(float, hz);
    SPAWN_SIM(sim, twoTriangles(), weightless());
    const float target = radians(30.f);
    std::string error;
    QVERIFY2(sim.body->setParticleTargets(turnedTargets(*sim.rig, target), &error), error.c_str());
    QVERIFY2(sim.body->setDriveGains(motorOnB(*sim.rig, hz, 0.f), 0.f, &error), error.c_str());
    std::vector<double> crossings;
    float before = relativeAngleZ(*sim.body) - target;
    const int steps = int(std::lround(4.f / hz / kDt));
    float maxMomentum = 0.f, maxMotion = 0.f;
    for (int s = 1; s <= steps; ++s) {
        sim.run(1);
        const float now = relativeAngleZ(*sim.body) - target;
        if (before < 0.f && now >= 0.f)
            crossings.push_back((double(s) - 1.0 + double(-before / (now - before))) * kDt);
        before = now;
        maxMomentum = std::max(maxMomentum, length(sim.body->linearMomentum()));
        float motion = 0.f;
        for (std::uint32_t i = 0; i < 6; ++i)
            motion += sim.rig->masses()[i] * length(sim.body->velocity(i));
        maxMotion = std::max(maxMotion, motion);
    }
    QVERIFY2(crossings.size() >= 3, qPrintable(QStringLiteral("%1 upward crossings in 4 periods").arg(crossings.size())));
    const double period = (crossings.back() - crossings.front()) / double(crossings.size() - 1);
    EXPECT_NEAR(period, 1.0 / hz, 0.02 / hz);
    QVERIFY2(maxMomentum < 2e-3f * maxMotion,
             qPrintable(QStringLiteral("linear momentum reached %1 N·s (Σ m|v| at most %2)").arg(maxMomentum).arg(maxMotion)));
}

// Critically damped (ζ = 1): the angle closes on the target without passing it, and after one period
// (ω·t = 2π) is within (1 + 2π)·e^(−2π) ≈ 1.4 % of the starting error (here within 3 %).
void TestDrives::motor_criticallyDampedDoesNotOvershoot()
{
    SPAWN_SIM(sim, twoTriangles(), weightless());
    const float target = radians(30.f), hz = 2.f;
    QVERIFY(sim.body->setParticleTargets(turnedTargets(*sim.rig, target)));
    QVERIFY(sim.body->setDriveGains(motorOnB(*sim.rig, hz, 1.f)));
    float most = -1.f;
    const int period = int(std::lround(1.f / hz / kDt));
    for (int s = 1; s <= 3 * period; ++s) {
        sim.run(1);
        const float a = relativeAngleZ(*sim.body);
        most = std::max(most, a);
        if (s == period)
            QVERIFY2(std::fabs(a - target) < 0.03f * target,
                     qPrintable(QStringLiteral("after one period %1° from the target").arg(degrees(std::fabs(a - target)))));
    }
    QVERIFY2(most <= target + radians(0.2f), qPrintable(QStringLiteral("overshot to %1°").arg(degrees(most))));
}

// A motor far stronger than its cap applies the cap every substep: the relative angle then grows as
// ½·(τ/I)·t², I the two triangles' effective inertia I_A·I_B/(I_A + I_B) about the axis.
void TestDrives::motor_maxTorqueCapsTheAngularAcceleration()
{
    SPAWN_SIM(sim, twoTriangles(), weightless());
    const float ia = inertiaZ(*sim.rig, 0), ib = inertiaZ(*sim.rig, 3), inertia = ia * ib / (ia + ib);
    const float tau = 0.02f; // N·m
    QVERIFY(sim.body->setParticleTargets(turnedTargets(*sim.rig, radians(90.f))));
    QVERIFY(sim.body->setDriveGains(motorOnB(*sim.rig, 20.f, 0.f, tau)));
    const int steps = 12;
    sim.run(steps);
    const float t = float(steps) * kDt;
    const float expected = 0.5f * tau / inertia * t * t;
    const float turned = relativeAngleZ(*sim.body);
    QVERIFY2(expected < radians(60.f), "the cap must keep the motor short of its target in this test");
    EXPECT_NEAR(turned, expected, 0.04f * expected);
}

// Every particle pinned at 10 Hz, critically damped, hanging in gravity: the spring balances gravity at
// g/ω² below the target (2.5 mm), whatever the particle's mass.
void TestDrives::pin_sagsUnderGravityByGOverOmegaSquared()
{
    rig::RigDescription d = makeHumanoid();
    d.settings.sleepTime = 0.f;
    WorldSettings ws;
    ws.sleep = false;
    SPAWN_SIM(sim, d, ws, Transform{Quat{}, {0.f, 3.f, 0.f}});
    std::vector<Vec3> targets(sim.body->positions().begin(), sim.body->positions().end());
    QVERIFY(sim.body->setParticleTargets(targets));
    rig::DriveGains pin;
    pin.pinFrequency = 10.f;
    pin.pinDamping = 1.f;
    QVERIFY(sim.body->setDriveGains(std::vector<rig::DriveGains>(sim.rig->driveParts().size(), pin)));
    sim.run(180);
    const float omega = kTwoPi * 10.f, sag = 9.81f / (omega * omega);
    for (std::size_t i = 0; i < targets.size(); ++i) {
        const Vec3 off = sim.body->positions()[i] - targets[i];
        EXPECT_NEAR(off.y, -sag, 0.05f * sag);
        EXPECT_NEAR(std::hypot(off.x, off.z), 0.f, 1e-4f);
    }
}

// Legs kinematic on a moving target (walking in place at 1 m/s along z) while an impulse hits the chest: the
// leg particles are on their targets to 1 mm at every step, and the chest is knocked away from its target.
void TestDrives::kinematicParts_rideTheirTargetsWhileTheRestReacts()
{
    WorldSettings ws;
    ws.sleep = false;
    SPAWN_SIM(sim, makeHumanoid(), ws, Transform{Quat{}, {0.f, 0.02f, 0.f}});
    QVERIFY(sim.world->addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    const Rig& rig = *sim.rig;
    std::vector<rig::DriveGains> gains(rig.driveParts().size());
    for (int t : {kThighLTri, kShinLTri, kThighRTri, kShinRTri})
        gains[std::size_t(t)].kinematic = true;
    for (int t : {kChestTri, kHeadTri, kUpperArmLTri, kForearmLTri, kUpperArmRTri, kForearmRTri}) {
        gains[std::size_t(t)].motorFrequency = 4.f;
        gains[std::size_t(t)].motorDamping = 1.f;
    }
    gains[kPelvisTri].pinFrequency = 3.f;
    QVERIFY(sim.body->setDriveGains(gains));
    const std::vector<Vec3> start(sim.body->positions().begin(), sim.body->positions().end());
    float worstLeg = 0.f, chestKnock = 0.f;
    for (int s = 1; s <= 90; ++s) {
        std::vector<Vec3> targets = start;
        for (Vec3& p : targets)
            p.z += float(s) * kDt;
        QVERIFY(sim.body->setParticleTargets(targets));
        if (s == 30)
            QVERIFY(sim.body->applyImpulse(kShoulderL, {0.f, 0.f, -15.f}));
        sim.run(1);
        for (int p : {kKneeL, kKneeAxisL, kAnkleL, kKneeR, kKneeAxisR, kAnkleR})
            worstLeg = std::max(worstLeg, length(sim.body->positions()[std::size_t(p)] - targets[std::size_t(p)]));
        float m = 0.f, a = 0.f;
        if (sim.body->partTrackingError(kChestTri, m, a) && s > 30)
            chestKnock = std::max(chestKnock, m);
    }
    QVERIFY2(worstLeg <= 1e-3f, qPrintable(QStringLiteral("a leg particle was %1 mm off its target").arg(worstLeg * 1e3f)));
    QVERIFY2(chestKnock > 0.02f, qPrintable(QStringLiteral("the hit moved the chest only %1 cm").arg(chestKnock * 100.f)));
}

// Gains of zero everywhere, with a pose target far away that changes every step: the ragdoll falls exactly as
// one with no drive at all (bit for bit).
void TestDrives::zeroGains_areExactlyThePassiveRagdoll()
{
    WorldSettings ws;
    SPAWN_SIM(passive, makeHumanoid(), ws, Transform{Quat::fromAxisAngle({1.f, 0.f, 0.f}, 0.7f), {0.f, 2.f, 0.f}});
    SPAWN_SIM(driven, makeHumanoid(), ws, Transform{Quat::fromAxisAngle({1.f, 0.f, 0.f}, 0.7f), {0.f, 2.f, 0.f}});
    QVERIFY(passive.world->addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    QVERIFY(driven.world->addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    QVERIFY(driven.body->setDriveGains(std::vector<rig::DriveGains>(driven.rig->driveParts().size())));
    std::vector<Mat4> palette = bindPalette(*driven.rig);
    for (int s = 0; s < 150; ++s) {
        for (Mat4& m : palette)
            m.m[12] += 0.01f;
        QVERIFY(driven.body->setPoseTarget(palette));
        passive.run(1);
        driven.run(1);
    }
    QVERIFY(bitwiseEqual(passive.body->positions(), driven.body->positions()));
    QVERIFY(bitwiseEqual(passive.body->previousPositions(), driven.body->previousPositions()));
}

// setDriveProfile blends linearly from the gains in effect to the profile's over the time given; a part a
// profile lists gets its own gains, the others the profile's defaults; goLimp(0) ends every drive at once.
void TestDrives::profiles_blendOverTime()
{
    rig::RigDescription d = makeHumanoid();
    rig::DriveProfile limp;
    limp.name = "limp";
    rig::DriveProfile stiff;
    stiff.name = "stiff";
    stiff.defaults.motorFrequency = 8.f;
    rig::DrivePart pelvis;
    pelvis.index = kPelvisTri;
    pelvis.gains.pinFrequency = 2.f;
    stiff.parts.push_back(pelvis);
    d.driveProfiles = {limp, stiff};
    WorldSettings ws;
    ws.sleep = false;
    SPAWN_SIM(sim, d, ws, Transform{Quat{}, {0.f, 0.02f, 0.f}});
    QCOMPARE(sim.rig->findDriveProfile("stiff"), 1);
    QVERIFY(sim.body->setParticleTargets(std::vector<Vec3>(sim.body->positions().begin(), sim.body->positions().end())));
    std::string error;
    QVERIFY2(sim.body->setDriveProfile("stiff", 0.5f, &error), error.c_str());
    sim.run(15);
    EXPECT_NEAR(sim.body->driveGains()[kChestTri].motorFrequency, 4.f, 1e-3f);
    EXPECT_NEAR(sim.body->driveGains()[kPelvisTri].pinFrequency, 1.f, 1e-3f);
    EXPECT_NEAR(sim.body->driveGains()[kPelvisTri].motorFrequency, 0.f, 0.f);
    sim.run(15);
    EXPECT_NEAR(sim.body->driveGains()[kChestTri].motorFrequency, 8.f, 1e-5f);
    EXPECT_NEAR(sim.body->driveGains()[kPelvisTri].pinFrequency, 2.f, 1e-5f);
    sim.run(15);
    EXPECT_NEAR(sim.body->driveGains()[kChestTri].motorFrequency, 8.f, 0.f);
    QVERIFY(sim.body->goLimp(0.f));
    for (const rig::DriveGains& g : sim.body->driveGains())
        QVERIFY(g == rig::DriveGains{});
}

// A palette that bends the left forearm bone 90° about the elbow's hinge line (elbow → elbow axis particle)
// puts the left wrist's target on the bent forearm and leaves every other particle's target at its bind
// position (the axis particle is on the line).
void TestDrives::palette_placesTheTargets()
{
    SPAWN_SIM(sim, makeHumanoid(), WorldSettings{});
    const Rig& rig = *sim.rig;
    std::vector<Mat4> palette = bindPalette(rig);
    std::size_t forearm = 0;
    while (forearm < rig.description().bones.size() && rig.description().bones[forearm].name != "forearm_l")
        ++forearm;
    QVERIFY(forearm < palette.size());
    const Vec3 elbow = rig.bindPositions()[kElbowL];
    const Vec3 hinge = normalizeOr(rig.bindPositions()[kElbowAxisL] - elbow, {});
    QVERIFY(length(hinge) > 0.5f);
    const Quat q = Quat::fromAxisAngle(hinge, radians(90.f));
    const Mat4 turn = Mat4::fromTransform({q, elbow - q.rotate(elbow)});
    for (std::size_t b = 0; b < palette.size(); ++b)
        for (std::int32_t a = std::int32_t(b); a != -1; a = rig.bones()[std::size_t(a)].parent)
            if (std::size_t(a) == forearm) {
                palette[b] = turn * palette[b];
                break;
            }
    std::string error;
    QVERIFY2(sim.body->setPoseTarget(palette, &error), error.c_str());
    const auto t = sim.body->particleTargets();
    QCOMPARE(t.size(), rig.particleCount());
    const Vec3 wrist = rig.bindPositions()[kWristL];
    EXPECT_VEC(t[kWristL], elbow + q.rotate(wrist - elbow), 1e-5f);
    for (int p = 0; p < kHumanoidParticleCount; ++p)
        if (p != kWristL)
            EXPECT_VEC(t[std::size_t(p)], rig.bindPositions()[std::size_t(p)], 1e-5f);
}

// Wrong palette size, a non-finite matrix or target, gains out of range, an unknown profile, a bad part or
// blend time: false, one line naming the problem, and the ragdoll steps exactly as one never asked.
void TestDrives::badInput_isRefusedAndChangesNothing()
{
    rig::RigDescription d = makeHumanoid();
    rig::DriveProfile p;
    p.name = "balanced";
    d.driveProfiles.push_back(p);
    SPAWN_SIM(reference, d, WorldSettings{}, Transform{Quat{}, {0.f, 1.f, 0.f}});
    SPAWN_SIM(sim, d, WorldSettings{}, Transform{Quat{}, {0.f, 1.f, 0.f}});
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const std::size_t parts = sim.rig->driveParts().size();
    std::string error;
    auto refused = [&](bool ok, const char* expected) {
        const bool pass = !ok && error.find(expected) != std::string::npos;
        if (!pass)
            qWarning("expected a refusal mentioning '%s', got ok=%d '%s'", expected, int(ok), error.c_str());
        error.clear();
        return pass;
    };
    std::vector<Mat4> palette = bindPalette(*sim.rig);
    QVERIFY(refused(sim.body->setPoseTarget(std::span<const Mat4>(palette).first(3), &error), "palette of 3 bones, the rig has 14"));
    palette[5].m[13] = nan;
    QVERIFY(refused(sim.body->setPoseTarget(palette, &error), "bone 5 'forearm_l' has a non-finite matrix"));
    std::vector<Vec3> targets(sim.rig->particleCount());
    targets[3].y = INFINITY;
    QVERIFY(refused(sim.body->setParticleTargets(targets, &error), "particle 3"));
    std::vector<rig::DriveGains> gains(parts);
    gains[2].motorFrequency = nan;
    QVERIFY(refused(sim.body->setDriveGains(gains, 0.f, &error), "drive part 2: motorFrequency"));
    gains[2].motorFrequency = 1.f;
    gains[4].pinDamping = -1.f;
    QVERIFY(refused(sim.body->setDriveGains(gains, 0.f, &error), "drive part 4: pinDamping"));
    QVERIFY(refused(sim.body->setDriveGains(std::span<const rig::DriveGains>(gains).first(2), 0.f, &error), "2 parts given"));
    gains[4].pinDamping = 1.f;
    QVERIFY(refused(sim.body->setDriveGains(gains, nan, &error), "blend time"));
    QVERIFY(refused(sim.body->setDriveProfile("stiff", 0.f, &error), "drive profile 'stiff' not in the rig (it has 'balanced')"));
    rig::DriveGains strong;
    strong.motorFrequency = 61.f;
    QVERIFY(refused(sim.body->setPartGains(0, strong, &error), "motorFrequency"));
    QVERIFY(refused(sim.body->setPartGains(std::uint32_t(parts), rig::DriveGains{}, &error), "out of range"));
    QVERIFY(!sim.body->hasPoseTarget());
    for (const rig::DriveGains& g : sim.body->driveGains())
        QVERIFY(g == rig::DriveGains{});
    reference.run(60);
    sim.run(60);
    QVERIFY(bitwiseEqual(reference.body->positions(), sim.body->positions()));
    QVERIFY(allPointsFinite(sim.body->positions()));
}

QTEST_GUILESS_MAIN(TestDrives)
#include "tst_drives.moc"
