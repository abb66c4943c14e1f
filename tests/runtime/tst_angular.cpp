// Tests of Rosen's triangle orientation constraints in marionette::runtime through the public API: a free
// hinge, cone and swing/twist limits, momentum conservation and the inertia split of a correction, angular
// friction, the procedural humanoid's hinges, and degenerate triangles. Every orientation is measured by the
// test itself from the particle positions (Rig::triangleFrame only builds the frame of three points), and
// swing/twist is decomposed here independently of the runtime: swing = the minimal rotation taking the twist
// axis t to Δ·t, twist = swingᵀ·Δ (a rotation about t).
#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "RuntimeTestSupport.h"

using namespace marionette;
using namespace marionette::runtime;
using namespace marionette::test;

Q_DECLARE_METATYPE(marionette::Vec3)
Q_DECLARE_METATYPE(marionette::rig::SolverMode)

namespace {

rig::Triangle triangle(int a, int b, int c)
{
    rig::Triangle t;
    t.p[0] = a;
    t.p[1] = b;
    t.p[2] = c;
    return t;
}

/// Rosen frame of description triangle t from positions x; false (out untouched) when degenerate.
bool frameOf(std::span<const Vec3> x, const rig::Triangle& t, Mat3& out)
{
    return Rig::triangleFrame(x[std::size_t(t.p[0])], x[std::size_t(t.p[1])], x[std::size_t(t.p[2])], out);
}

/// Rotation angle (radians, [0, π]) of a rotation matrix.
float angleOf(const Mat3& r) { return rotationAngle(toQuat(r)); }

/// Rotation vector (axis × angle, angle in [0, π]) of a unit quaternion.
Vec3 rotationVector(Quat q)
{
    if (q.w < 0.f)
        q = {-q.x, -q.y, -q.z, -q.w};
    const Vec3 v = q.vec();
    const float s = length(v);
    if (!(s > 1e-9f))
        return {};
    return v * (2.f * std::atan2(s, q.w) / s);
}

/// Swing/twist of the rotation d about the unit twist axis t: d = swing·twist, swing the minimal rotation
/// carrying t onto d·t, twist a rotation about t. twist in (−π, π]; swing as a rotation vector ⊥ t.
void swingTwist(const Mat3& d, Vec3 t, Vec3& swing, float& twist)
{
    const Quat q = toQuat(d);
    const Quat sw = rotationBetween(t, normalizeOr(d * t, t));
    Quat tw = sw.conjugate() * q;
    if (tw.w < 0.f)
        tw = {-tw.x, -tw.y, -tw.z, -tw.w};
    twist = 2.f * std::atan2(dot(tw.vec(), t), tw.w);
    if (twist > kPi)
        twist -= 2.f * kPi;
    swing = rotationVector(sw);
}

/// Deviation Δ = Q₀ᵀ·R_Aᵀ·R_B of an angular constraint between triangles A and B (PHYSICS.md).
bool deviation(std::span<const Vec3> x, const rig::Triangle& A, const rig::Triangle& B, const Mat3& rest, Mat3& out)
{
    Mat3 ra, rb;
    if (!frameOf(x, A, ra) || !frameOf(x, B, rb))
        return false;
    out = rest.transposed() * (ra.transposed() * rb);
    return true;
}

/// Relative orientation R_Aᵀ·R_B at the bind pose of description d.
Mat3 bindRelative(const rig::RigDescription& d, int a, int b)
{
    std::vector<Vec3> x;
    for (const rig::Particle& p : d.particles)
        x.push_back(p.position);
    Mat3 ra, rb;
    frameOf(x, d.triangles[std::size_t(a)], ra);
    frameOf(x, d.triangles[std::size_t(b)], rb);
    return ra.transposed() * rb;
}

/// Impulses giving particles `ids` the velocity of a rigid rotation ω about `pivot` (J = m·ω × r).
void spin(Sim& s, std::initializer_list<std::uint32_t> ids, Vec3 pivot, Vec3 omega)
{
    for (std::uint32_t i : ids)
        s.body->applyImpulse(i, cross(omega, s.x(i) - pivot) * s.rig->masses()[i]);
}

/// Two triangles joined at particle 0 (a ball joint). A = {0, 1, 2} hangs below, B = {0, 3, 4} points up.
/// B's frame at bind: up = +Y, facing = −Z, right = −X.
rig::RigDescription ballJoint(float massA = 1.f, float massB = 1.f)
{
    rig::RigDescription d;
    d.name = "ball joint";
    d.particles = {particle({0.f, 0.f, 0.f}, 1.f), particle({0.f, -0.5f, 0.f}, massA), particle({0.3f, -0.3f, 0.f}, massA),
                   particle({0.f, 0.5f, 0.f}, massB), particle({0.3f, 0.3f, 0.f}, massB)};
    d.triangles = {triangle(0, 1, 2), triangle(0, 3, 4)};
    return d;
}

} // namespace

class TestAngular : public QObject {
    Q_OBJECT

private slots:
    void hinge_relativeRotationStaysAboutSharedEdge();
    void cone_deviationStaysWithinLimit_data();
    void cone_deviationStaysWithinLimit();
    void swingTwist_staysWithinEachBound_data();
    void swingTwist_staysWithinEachBound();
    void correction_conservesLinearMomentum();
    void correction_splitsByInertia_data();
    void correction_splitsByInertia();
    void friction_dynamicDampsSwing_data();
    void friction_dynamicDampsSwing();
    void friction_staticHoldsStill_data();
    void friction_staticHoldsStill();
    void humanoid_hingesDoNotBendBackwards_data();
    void humanoid_hingesDoNotBendBackwards();
    void degenerateTriangle_staysFinite_data();
    void degenerateTriangle_staysFinite();
};

// Two triangles sharing the edge 0–1 (4 particles, 5 rigid sticks from the triangle edges), no angular
// constraint, no gravity, random impulses for 2 s. With e_A the edge in A's frame and D = Q·Q₀ᵀ the change
// of R_Aᵀ·R_B since bind (expressed in A's frame), R_A·e_A = R_B·Q₀ᵀ·e_A = edge gives D·e_A = e_A: D is a
// rotation about the edge. Measured as the swing of D off e_A: ≤ 1°. The vertex orders are chosen so that
// the shared edge is the "up" axis of neither frame.
void TestAngular::hinge_relativeRotationStaysAboutSharedEdge()
{
    rig::RigDescription d;
    d.particles = {particle({0.f, 0.f, 0.f}, 1.f), particle({0.f, 1.f, 0.f}, 1.f), particle({1.f, 0.5f, 0.f}, 1.f),
                   particle({0.f, 0.5f, 1.f}, 1.f)};
    d.triangles = {triangle(2, 0, 1), triangle(0, 3, 1)};
    d.settings = quietSettings(8, dampingForDrag(0.01f));
    const Mat3 rest = bindRelative(d, 0, 1);
    Mat3 ra0;
    {
        std::vector<Vec3> x;
        for (const rig::Particle& p : d.particles)
            x.push_back(p.position);
        QVERIFY(frameOf(x, d.triangles[0], ra0));
    }
    const Vec3 edgeInA = ra0.transposeMul(Vec3{0.f, 1.f, 0.f});
    SPAWN_SIM(sim, d, worldSettings({}));
    std::mt19937 rng(1234);
    std::uniform_real_distribution<float> u(-0.3f, 0.3f);
    std::uniform_int_distribution<int> pick(0, 3);
    float worstSwing = 0.f, maxHinge = 0.f, worstStick = 0.f;
    for (int n = 1; n <= 120; ++n) {
        QVERIFY(sim.body->applyImpulse(std::uint32_t(pick(rng)), {u(rng), u(rng), u(rng)}));
        sim.world->step();
        const auto x = sim.body->positions();
        Mat3 ra, rb;
        QVERIFY(frameOf(x, d.triangles[0], ra));
        QVERIFY(frameOf(x, d.triangles[1], rb));
        const Mat3 D = (ra.transposed() * rb) * rest.transposed();
        Vec3 sw;
        float tw;
        swingTwist(D, edgeInA, sw, tw);
        worstSwing = std::max(worstSwing, length(sw));
        maxHinge = std::max(maxHinge, std::fabs(tw));
        worstStick = std::max(worstStick, sim.body->stats().maxStickError);
    }
    const QString msg = QStringLiteral("axis off the edge by up to %1°, hinge angle up to %2°, stick error up to %3 m")
                            .arg(num(degrees(worstSwing)), num(degrees(maxHinge)), num(worstStick));
    QVERIFY2(degrees(worstSwing) <= 1.f, qPrintable(msg));
    QVERIFY2(degrees(maxHinge) >= 5.f, qPrintable(QStringLiteral("the hinge hardly moved: ") + msg));
}

// Ball joint (A = {0,1,2}, B = {0,3,4} sharing particle 0), cone limit 30°, 8 iterations, no gravity,
// drag 0.02. The child is spun far past the limit (10 rad/s about a swing axis, the twist axis, a mixed axis),
// or held by kinematic pins 90° away for 0.5 s and released. After every step (once released) the deviation
// angle of Δ = Q₀ᵀ·R_Aᵀ·R_B is ≤ 30° + 1°, and the limit was actually reached (≥ 29°).
void TestAngular::cone_deviationStaysWithinLimit_data()
{
    QTest::addColumn<Vec3>("omega");
    QTest::addColumn<bool>("pinned");
    QTest::addColumn<bool>("kinematicParent");
    QTest::newRow("spun about a swing axis") << Vec3{10.f, 0.f, 0.f} << false << false;
    QTest::newRow("spun about the twist axis") << Vec3{0.f, 10.f, 0.f} << false << false;
    QTest::newRow("spun about a mixed axis") << Vec3{5.77f, 5.77f, 5.77f} << false << false;
    QTest::newRow("pinned 90 deg away then released") << Vec3{} << true << false;
    // The parent (and so the joint particle) kinematic: a limb hanging from an animated body.
    QTest::newRow("kinematic parent, spun about a swing axis") << Vec3{10.f, 0.f, 0.f} << false << true;
}

void TestAngular::cone_deviationStaysWithinLimit()
{
    QFETCH(Vec3, omega);
    QFETCH(bool, pinned);
    QFETCH(bool, kinematicParent);
    rig::RigDescription d = ballJoint();
    if (kinematicParent)
        for (int i = 0; i < 3; ++i)
            d.particles[std::size_t(i)].mass = 0.f;
    rig::AngularConstraint c;
    c.triangleA = 0;
    c.triangleB = 1;
    c.limit = rig::AngularLimit::Cone;
    c.coneAngle = radians(30.f);
    d.angular = {c};
    d.settings = quietSettings(8, dampingForDrag(0.02f));
    const Mat3 rest = bindRelative(d, 0, 1);
    SPAWN_SIM(sim, d, worldSettings({}));
    int released = 0;
    if (pinned) {
        const Quat r = Quat::fromAxisAngle({1.f, 0.f, 0.f}, radians(90.f));
        QVERIFY(sim.body->setPin(3, r.rotate(sim.x(3))));
        QVERIFY(sim.body->setPin(4, r.rotate(sim.x(4))));
        for (int n = 0; n < 30; ++n) // 0.5 s held 90° away
            sim.world->step();
        // B cannot move, so the limit dragged A along: A turned by at least 90° − 30° (less 5° slack).
        Mat3 a0, a1;
        {
            std::vector<Vec3> bind;
            for (const rig::Particle& p : d.particles)
                bind.push_back(p.position);
            QVERIFY(frameOf(bind, d.triangles[0], a0));
        }
        QVERIFY(frameOf(sim.body->positions(), d.triangles[0], a1));
        QVERIFY2(degrees(angleOf(a1 * a0.transposed())) >= 55.f,
                 qPrintable(QStringLiteral("the parent turned only %1° while the child was held 90° away").arg(num(degrees(angleOf(a1 * a0.transposed()))))));
        QVERIFY(sim.body->releasePin(3));
        QVERIFY(sim.body->releasePin(4));
        released = 30;
    } else {
        spin(sim, {3, 4}, sim.x(0), omega);
    }
    float worst = 0.f, reached = 0.f;
    int worstStep = 0;
    Mat3 dev;
    QVERIFY(deviation(sim.body->positions(), d.triangles[0], d.triangles[1], rest, dev));
    reached = angleOf(dev);
    for (int n = 1; n <= 120; ++n) {
        sim.world->step();
        QVERIFY(deviation(sim.body->positions(), d.triangles[0], d.triangles[1], rest, dev));
        const float a = angleOf(dev);
        if (a > worst) {
            worst = a;
            worstStep = n + released;
        }
        reached = std::max(reached, a);
    }
    const QString msg = QStringLiteral("deviation up to %1° (step %2), limit 30°").arg(num(degrees(worst))).arg(worstStep);
    QVERIFY2(degrees(worst) <= 31.f, qPrintable(msg));
    QVERIFY2(degrees(reached) >= 29.f, qPrintable(QStringLiteral("never reached the limit: ") + msg));
}

// Ball joint with a SwingTwist limit: twist about B's up axis t = (0,1,0) in [−10°, 40°], swing1 about
// s1 = (1,0,0) up to 20°, swing2 about s1 × t = (0,0,1) up to 35° (all in B's frame; at bind B's frame is
// [−X | Y | −Z] in world). The child is spun at 8 rad/s about one axis at a time, past one bound. Measured by
// this test's own decomposition of Δ = Q₀ᵀ·R_Aᵀ·R_B about t: at every step twist ∈ [−10°, 40°] ± 1° and the
// swing inside the (20°, 35°) ellipse + 1°; the driven bound is reached within 1°.
void TestAngular::swingTwist_staysWithinEachBound_data()
{
    QTest::addColumn<Vec3>("omega"); // world, about particle 0
    QTest::addColumn<int>("bound");  // 0 twist max, 1 twist min, 2 swing1, 3 swing2
    QTest::newRow("twist past +40") << Vec3{0.f, 8.f, 0.f} << 0;
    QTest::newRow("twist past -10") << Vec3{0.f, -8.f, 0.f} << 1;
    QTest::newRow("swing1 past 20") << Vec3{-8.f, 0.f, 0.f} << 2;
    QTest::newRow("swing1 past -20") << Vec3{8.f, 0.f, 0.f} << 2;
    QTest::newRow("swing2 past 35") << Vec3{0.f, 0.f, -8.f} << 3;
    QTest::newRow("swing2 past -35") << Vec3{0.f, 0.f, 8.f} << 3;
}

void TestAngular::swingTwist_staysWithinEachBound()
{
    QFETCH(Vec3, omega);
    QFETCH(int, bound);
    rig::RigDescription d = ballJoint();
    rig::AngularConstraint c;
    c.triangleA = 0;
    c.triangleB = 1;
    c.limit = rig::AngularLimit::SwingTwist;
    c.twistAxis = {0.f, 1.f, 0.f};
    c.swingAxis1 = {1.f, 0.f, 0.f};
    c.twistMin = radians(-10.f);
    c.twistMax = radians(40.f);
    c.swing1 = radians(20.f);
    c.swing2 = radians(35.f);
    d.angular = {c};
    d.settings = quietSettings(8, dampingForDrag(0.02f));
    const Mat3 rest = bindRelative(d, 0, 1);
    SPAWN_SIM(sim, d, worldSettings({}));
    spin(sim, {3, 4}, sim.x(0), omega);
    const Vec3 t = c.twistAxis, s1 = c.swingAxis1, s2 = cross(s1, t);
    float twMin = 0.f, twMax = 0.f, s1Max = 0.f, s2Max = 0.f, worstEllipse = -1.f;
    for (int n = 1; n <= 120; ++n) {
        sim.world->step();
        Mat3 dev;
        QVERIFY(deviation(sim.body->positions(), d.triangles[0], d.triangles[1], rest, dev));
        Vec3 sw;
        float tw;
        swingTwist(dev, t, sw, tw);
        twMin = std::min(twMin, tw);
        twMax = std::max(twMax, tw);
        const float a = dot(sw, s1), b = dot(sw, s2);
        s1Max = std::max(s1Max, std::fabs(a));
        s2Max = std::max(s2Max, std::fabs(b));
        // Excess of the swing over the ellipse limit in its own direction.
        const float mag = std::sqrt(a * a + b * b);
        if (mag > 1e-6f) {
            const float ca = a / mag, sb = b / mag;
            const float lim = 1.f / std::sqrt((ca / c.swing1) * (ca / c.swing1) + (sb / c.swing2) * (sb / c.swing2));
            worstEllipse = std::max(worstEllipse, mag - lim);
        }
    }
    const QString msg = QStringLiteral("twist [%1°, %2°], |swing1| ≤ %3°, |swing2| ≤ %4°, ellipse excess %5°")
                            .arg(num(degrees(twMin)), num(degrees(twMax)), num(degrees(s1Max)), num(degrees(s2Max)),
                                 num(degrees(worstEllipse)));
    QVERIFY2(degrees(twMin) >= -11.f && degrees(twMax) <= 41.f, qPrintable(msg));
    QVERIFY2(degrees(worstEllipse) <= 1.f, qPrintable(msg));
    switch (bound) {
    case 0: QVERIFY2(std::fabs(degrees(twMax) - 40.f) <= 1.f, qPrintable(QStringLiteral("twist max not reached: ") + msg)); break;
    case 1: QVERIFY2(std::fabs(degrees(twMin) + 10.f) <= 1.f, qPrintable(QStringLiteral("twist min not reached: ") + msg)); break;
    case 2: QVERIFY2(std::fabs(degrees(s1Max) - 20.f) <= 1.f, qPrintable(QStringLiteral("swing1 limit not reached: ") + msg)); break;
    case 3: QVERIFY2(std::fabs(degrees(s2Max) - 35.f) <= 1.f, qPrintable(QStringLiteral("swing2 limit not reached: ") + msg)); break;
    default: QFAIL("bad row");
    }
}

// No gravity, no drag, no contacts: the ball joint moves at 3 m/s along X (starting at x = −0.75 m so
// positions stay small) while equal and opposite impulses on B's tips spin it into the 30° cone limit.
// Sticks are mass-weighted and the angular correction re-centres the moved particles on their mass
// centre, so Σ m·(x − x*)/Δt is the same before and after every step (relative 1e-5), and the centre of
// mass moves on x_c(t) = x_c(0) + v·t.
void TestAngular::correction_conservesLinearMomentum()
{
    rig::RigDescription d = ballJoint(1.f, 2.f);
    rig::AngularConstraint c;
    c.triangleA = 0;
    c.triangleB = 1;
    c.coneAngle = radians(30.f);
    d.angular = {c};
    d.settings = quietSettings(8, 0.f);
    const Mat3 rest = bindRelative(d, 0, 1);
    const float dt = 1.f / 60.f;
    SPAWN_SIM(sim, d, worldSettings({}, dt), Transform{Quat{}, Vec3{-0.75f, 0.f, 0.f}});
    QVERIFY(sim.body->addVelocity({3.f, 0.f, 0.f}));
    QVERIFY(sim.body->applyImpulse(3, {0.f, 0.f, 3.f}));
    QVERIFY(sim.body->applyImpulse(4, {0.f, 0.f, -3.f}));
    const float mass = sim.rig->totalMass();
    const Vec3 p0 = sim.body->linearMomentum();
    QVERIFY2(std::fabs(p0.x - 3.f * mass) <= 1e-3f * mass, qPrintable(str(p0)));
    const Vec3 v = p0 / mass;
    const Vec3 c0 = sim.body->centreOfMass();
    float worstRel = 0.f, worstCom = 0.f, reached = 0.f;
    for (int n = 1; n <= 30; ++n) {
        const Vec3 before = sim.body->linearMomentum();
        sim.world->step();
        const Vec3 after = sim.body->linearMomentum();
        worstRel = std::max(worstRel, length(after - before) / length(before));
        worstCom = std::max(worstCom, length(sim.body->centreOfMass() - (c0 + v * (dt * float(n)))));
        Mat3 dev;
        QVERIFY(deviation(sim.body->positions(), d.triangles[0], d.triangles[1], rest, dev));
        reached = std::max(reached, angleOf(dev));
        QCOMPARE(sim.body->stats().contacts, 0u);
    }
    const QString msg = QStringLiteral("momentum change up to %1 (relative), centre of mass off its line by %2 m, deviation reached %3°")
                            .arg(num(worstRel), num(worstCom), num(degrees(reached)));
    QVERIFY2(degrees(reached) >= 29.f, qPrintable(QStringLiteral("limit never hit: ") + msg));
    QVERIFY2(worstRel <= 1e-5f, qPrintable(msg));
    QVERIFY2(worstCom <= 1e-4f, qPrintable(msg));
}

// Two separate, congruent triangles in the z = 0 plane (no shared particle, no link between them): B is
// turned 60° about Z relative to A while the given rest orientation is the identity, so a 30° cone is
// violated by φ = 30° about Z. One iteration, no gravity: I_k = m_k·Σ|r|² about Z, so A turns φ·I_B/(I_A + I_B)
// and B turns φ·I_A/(I_A + I_B), in opposite senses, and the deviation ends at exactly 30°.
void TestAngular::correction_splitsByInertia_data()
{
    QTest::addColumn<float>("massA");
    QTest::addColumn<float>("massB");
    QTest::newRow("heavy A (10 kg), light B (1 kg)") << 10.f << 1.f;
    QTest::newRow("equal masses") << 1.f << 1.f;
    QTest::newRow("light A (1 kg), heavy B (10 kg)") << 1.f << 10.f;
}

void TestAngular::correction_splitsByInertia()
{
    QFETCH(float, massA);
    QFETCH(float, massB);
    const Vec3 shape[3] = {{0.f, 0.3f, 0.f}, {-0.26f, -0.15f, 0.f}, {0.26f, -0.15f, 0.f}};
    const Quat turn = Quat::fromAxisAngle({0.f, 0.f, 1.f}, radians(60.f));
    rig::RigDescription d;
    for (const Vec3& p : shape)
        d.particles.push_back(particle(Vec3{-1.f, 0.f, 0.f} + p, massA));
    for (const Vec3& p : shape)
        d.particles.push_back(particle(Vec3{1.f, 0.f, 0.f} + turn.rotate(p), massB));
    d.triangles = {triangle(0, 1, 2), triangle(3, 4, 5)};
    rig::AngularConstraint c;
    c.triangleA = 0;
    c.triangleB = 1;
    c.coneAngle = radians(30.f);
    c.hasRestOrientation = true;
    c.restOrientation = Quat{};
    d.angular = {c};
    d.settings = quietSettings(1, 0.f);
    SPAWN_SIM(sim, d, worldSettings({}));
    Mat3 a0, b0, a1, b1;
    QVERIFY(frameOf(sim.body->positions(), d.triangles[0], a0));
    QVERIFY(frameOf(sim.body->positions(), d.triangles[1], b0));
    QVERIFY2(std::fabs(degrees(angleOf(a0.transposed() * b0)) - 60.f) < 1e-3f, "bind deviation is not 60°");
    sim.world->step();
    QVERIFY(frameOf(sim.body->positions(), d.triangles[0], a1));
    QVERIFY(frameOf(sim.body->positions(), d.triangles[1], b1));
    const float turnA = degrees(angleOf(a1 * a0.transposed())), turnB = degrees(angleOf(b1 * b0.transposed()));
    float sumR2 = 0.f; // Σ|r|² about Z through the centroid (the origin of `shape`), the same for both
    for (const Vec3& p : shape)
        sumR2 += lengthSquared(p);
    const float IA = massA * sumR2, IB = massB * sumR2;
    const float expectA = 30.f * IB / (IA + IB), expectB = 30.f * IA / (IA + IB);
    const float dev = degrees(angleOf(a1.transposed() * b1));
    const QString msg = QStringLiteral("A turned %1° (expected %2°), B turned %3° (expected %4°), deviation now %5°")
                            .arg(num(turnA), num(expectA), num(turnB), num(expectB), num(dev));
    QVERIFY2(std::fabs(turnA - expectA) <= 0.01f && std::fabs(turnB - expectB) <= 0.01f, qPrintable(msg));
    QVERIFY2(std::fabs(dev - 30.f) <= 0.01f, qPrintable(msg));
    if (massA > massB)
        QVERIFY2(turnB > turnA, qPrintable(msg));
    // Each triangle turned about its own centroid (the shape's centroid is its origin): none moved.
    for (int k = 0; k < 2; ++k) {
        const Vec3 centroid = (sim.x(std::uint32_t(3 * k)) + sim.x(std::uint32_t(3 * k + 1)) + sim.x(std::uint32_t(3 * k + 2))) / 3.f;
        EXPECT_VEC(centroid, (Vec3{k == 0 ? -1.f : 1.f, 0.f, 0.f}), 1e-5f);
    }
}

// A pendulum of two triangles with a kinematic parent, hinged about Z, released 30° from the vertical
// under gravity, no drag, 8 iterations; the angular constraint is a 180° cone (never violated) carrying only
// friction. Dynamic friction 0.3 pulls the relative orientation 30% of the way back to last step's every
// step, so the swing amplitude over the last 2.2 s (more than a period) of 5 s must be below half the
// frictionless one. (Without friction the amplitude also decays, 30° → 22.6° in 5 s at 60 Hz, as for a
// single particle on a stick: Jakobsen's projection along the new radial direction is not energy
// conserving; it converges with Δt, 27.9° at 240 Hz. So the frictionless run is only required to swing.) Rows: the child shares the hinge edge with the parent (the natural rig), or hangs from it
// by braced sticks (no shared particle).
namespace {

struct Pendulum {
    rig::RigDescription d;
    int hingeA = 0, hingeB = 1; // particles on the hinge axis in the child (for the swing angle)
    std::uint32_t tip = 0;      // the child's swinging particle
};

/// A pendulum whose joint has angular damping (1/s) and static friction (°/s), solved by `solver`: Gauss–Seidel
/// with one substep of 8 sweeps, or the default direct solver with its substeps.
Pendulum makePendulum(bool sharedEdge, float releaseDeg, float damping, float staticFrictionDegPerSecond,
                      rig::SolverMode solver)
{
    Pendulum p;
    const float s = std::sin(radians(releaseDeg)), c = std::cos(radians(releaseDeg));
    rig::RigDescription& d = p.d;
    // Parent: kinematic, hinge edge along Z through the origin, apex above.
    d.particles = {particle({0.f, 0.f, -0.2f}, 0.f), particle({0.f, 0.f, 0.2f}, 0.f), particle({0.f, 0.5f, 0.f}, 0.f)};
    d.triangles = {triangle(0, 1, 2)};
    if (sharedEdge) {
        d.particles.push_back(particle({s, -c, 0.f}, 1.f));
        d.triangles.push_back(triangle(0, 1, 3));
        p.tip = 3;
    } else {
        // Child {3, 4, 5}: 3 and 4 sit 0.1 m out along the pendulum from the hinge particles, 5 is the tip.
        d.particles.push_back(particle({0.1f * s, -0.1f * c, -0.2f}, 1.f));
        d.particles.push_back(particle({0.1f * s, -0.1f * c, 0.2f}, 1.f));
        d.particles.push_back(particle({s, -c, 0.f}, 1.f));
        d.triangles.push_back(triangle(3, 4, 5));
        d.sticks = {stick(0, 3), stick(1, 4), stick(0, 4), stick(1, 3), stick(0, 5), stick(1, 5)};
        p.tip = 5;
    }
    rig::AngularConstraint a;
    a.triangleA = 0;
    a.triangleB = 1;
    a.limit = rig::AngularLimit::Cone;
    a.coneAngle = kPi;
    a.damping = damping;
    a.staticFrictionSpeed = radians(staticFrictionDegPerSecond);
    d.angular = {a};
    d.settings = quietSettings(8, 0.f);
    if (solver != rig::SolverMode::GaussSeidel) {
        const rig::Settings defaults;
        d.settings.solver = solver;
        d.settings.substeps = defaults.substeps;
        d.settings.iterations = defaults.iterations;
    }
    return p;
}

/// Signed swing angle of the pendulum tip about the Z hinge, from the downward vertical.
float swingAngle(Vec3 tip) { return std::atan2(tip.x, -tip.y); }

} // namespace

void TestAngular::friction_dynamicDampsSwing_data()
{
    QTest::addColumn<bool>("sharedEdge");
    QTest::addColumn<rig::SolverMode>("solver");
    QTest::newRow("shared hinge edge, Gauss-Seidel") << true << rig::SolverMode::GaussSeidel;
    QTest::newRow("braced sticks, Gauss-Seidel") << false << rig::SolverMode::GaussSeidel;
    QTest::newRow("shared hinge edge, direct, substeps") << true << rig::SolverMode::Direct;
    QTest::newRow("braced sticks, direct, substeps") << false << rig::SolverMode::Direct;
}

void TestAngular::friction_dynamicDampsSwing()
{
    QFETCH(bool, sharedEdge);
    QFETCH(rig::SolverMode, solver);
    float amplitude[2] = {0.f, 0.f};
    // 0.3 of the relative turn per 1/60 s step, as a rate: about 21.4 /s.
    const float dampings[2] = {0.f, dampingForDrag(0.3f)};
    for (int k = 0; k < 2; ++k) {
        const Pendulum p = makePendulum(sharedEdge, 30.f, dampings[k], 0.f, solver);
        SPAWN_SIM(sim, p.d, worldSettings({0.f, -9.81f, 0.f}));
        for (int n = 1; n <= 300; ++n) { // 5 s; the period is about 2 s
            sim.world->step();
            if (n > 300 - 132)
                amplitude[k] = std::max(amplitude[k], std::fabs(swingAngle(sim.x(p.tip))));
        }
    }
    const QString msg = QStringLiteral("amplitude over the last 2.2 s: %1° without friction, %2° with angular damping 21.4 /s")
                            .arg(num(degrees(amplitude[0])), num(degrees(amplitude[1])));
    QVERIFY2(degrees(amplitude[0]) >= 15.f, qPrintable(QStringLiteral("frictionless pendulum lost its swing: ") + msg));
    QVERIFY2(amplitude[1] < 0.5f * amplitude[0], qPrintable(msg));
}

// Static friction 600°/s (10° per 1/60 s): the same pendulum, held at 20° from the vertical under gravity and
// nudged (0.01 N·s): every step's change of relative orientation (gravity: gΔt²·sin 20° ≈ 1e-3 rad) is far
// below the threshold, so it is held fully: the relative orientation stays within 1e-4 rad of its start over
// 1 s (a child hung by braced sticks: 0.5°).
void TestAngular::friction_staticHoldsStill_data()
{
    QTest::addColumn<bool>("sharedEdge");
    QTest::addColumn<rig::SolverMode>("solver");
    QTest::newRow("shared hinge edge, Gauss-Seidel") << true << rig::SolverMode::GaussSeidel;
    QTest::newRow("braced sticks, Gauss-Seidel") << false << rig::SolverMode::GaussSeidel;
    QTest::newRow("shared hinge edge, direct, substeps") << true << rig::SolverMode::Direct;
    QTest::newRow("braced sticks, direct, substeps") << false << rig::SolverMode::Direct;
}

// Static friction holds once per step, before the iterations, toward the orientation where the hold began.
// A child sharing the hinge edge stays put exactly; one hung by braced sticks is pulled by them during the
// iterations after the hold, by at most one step's worth (bounded: it does not creep), which the next
// step's hold takes back. Without static friction the same pendulum swings down.
void TestAngular::friction_staticHoldsStill()
{
    QFETCH(bool, sharedEdge);
    QFETCH(rig::SolverMode, solver);
    float worst[2] = {0.f, 0.f};
    float tip[2] = {0.f, 0.f};
    for (int withFriction = 0; withFriction < 2; ++withFriction) {
        const Pendulum p = makePendulum(sharedEdge, 20.f, 0.f, withFriction ? 600.f : 0.f, solver);
        SPAWN_SIM(sim, p.d, worldSettings({0.f, -9.81f, 0.f}));
        const Mat3 rest = bindRelative(p.d, 0, 1);
        QVERIFY(sim.body->applyImpulse(p.tip, {0.01f, 0.f, 0.f}));
        for (int n = 1; n <= 120; ++n) {
            sim.world->step();
            Mat3 dev;
            QVERIFY(deviation(sim.body->positions(), p.d.triangles[0], p.d.triangles[1], rest, dev));
            worst[withFriction] = std::max(worst[withFriction], angleOf(dev));
        }
        tip[withFriction] = degrees(swingAngle(sim.x(p.tip)));
    }
    QVERIFY2(worst[0] > radians(10.f), qPrintable(QStringLiteral("without static friction the pendulum moved only %1°").arg(num(degrees(worst[0])))));
    const float allowed = sharedEdge ? 1e-4f : radians(0.5f);
    QVERIFY2(worst[1] <= allowed, qPrintable(QStringLiteral("held joint moved %1 rad (%2°), tip now at %3°")
                                                 .arg(num(worst[1]), num(degrees(worst[1])), num(tip[1]))));
}

// makeHumanoid(): knees (twist about the knee axis in [0°, 150°], flexion = shin backward) and elbows
// (left [−150°, 0°], right [0°, 150°]) must not bend backwards. Rows: dropped face down from 1 m onto the
// ground; face down with the shins struck forward (the hyper-extension direction, body +Z) mid-fall; standing
// with shins struck forward and forearms struck backward. Twist measured about each joint's twist axis from
// the rig description, at every step: within the limits ± 1°.
void TestAngular::humanoid_hingesDoNotBendBackwards_data()
{
    QTest::addColumn<bool>("faceDown");
    QTest::addColumn<float>("strike"); // N·s on each ankle forward and each wrist backward, at step 10
    QTest::newRow("dropped face down") << true << 0.f;
    QTest::newRow("face down, shins struck forward") << true << 40.f;
    QTest::newRow("standing, shins and forearms struck the wrong way") << false << 40.f;
}

void TestAngular::humanoid_hingesDoNotBendBackwards()
{
    QFETCH(bool, faceDown);
    QFETCH(float, strike);
    const rig::RigDescription d = makeHumanoid();
    QCOMPARE(d.angular.size(), std::size_t(10));
    // Placement: face down turns the body's +Z (front) to −Y and its +Y (up) to +Z, 1 m above the ground.
    const Transform place = faceDown ? Transform{Quat::fromAxisAngle({1.f, 0.f, 0.f}, radians(90.f)), {0.f, 1.f, 0.f}}
                                     : Transform{Quat{}, {0.f, 0.f, 0.f}};
    WorldSettings ws = worldSettings({0.f, -9.81f, 0.f});
    SPAWN_SIM(sim, d, ws, place);
    QVERIFY(sim.world->addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    const int hinges[4] = {4, 5, 8, 9}; // elbow_l, elbow_r, knee_l, knee_r
    Mat3 rest[4];
    for (int k = 0; k < 4; ++k) {
        const rig::AngularConstraint& c = d.angular[std::size_t(hinges[k])];
        rest[k] = bindRelative(d, c.triangleA, c.triangleB);
    }
    const Vec3 forward = place.rotation.rotate({0.f, 0.f, 1.f});
    float lo[4], hi[4];
    std::fill(std::begin(lo), std::end(lo), 0.f);
    std::fill(std::begin(hi), std::end(hi), 0.f);
    for (int n = 1; n <= 180; ++n) {
        if (n == 10 && strike > 0.f) {
            QVERIFY(sim.body->applyImpulse(kAnkleL, forward * strike));
            QVERIFY(sim.body->applyImpulse(kAnkleR, forward * strike));
            QVERIFY(sim.body->applyImpulse(kWristL, forward * -strike));
            QVERIFY(sim.body->applyImpulse(kWristR, forward * -strike));
        }
        sim.world->step();
        for (int k = 0; k < 4; ++k) {
            const rig::AngularConstraint& c = d.angular[std::size_t(hinges[k])];
            Mat3 dev;
            QVERIFY(deviation(sim.body->positions(), d.triangles[std::size_t(c.triangleA)], d.triangles[std::size_t(c.triangleB)], rest[k], dev));
            Vec3 sw;
            float tw;
            swingTwist(dev, c.twistAxis, sw, tw);
            lo[k] = std::min(lo[k], degrees(tw));
            hi[k] = std::max(hi[k], degrees(tw));
        }
        for (std::uint32_t i = 0; i < sim.body->particleCount(); ++i)
            QVERIFY2(isFinite(sim.x(i)), qPrintable(QStringLiteral("particle %1 at step %2").arg(i).arg(n)));
    }
    QString all;
    bool ok = true;
    // Strikes of 40 N·s throw 1-2 kg particles at tens of m/s: eight iterations may leave a hinge up to about
    // 1.2° past its limit for a step while the arm is pressed into the floor. Unstruck, within 1°.
    const float tolerance = strike > 0.f ? 1.5f : 1.f;
    for (int k = 0; k < 4; ++k) {
        const rig::AngularConstraint& c = d.angular[std::size_t(hinges[k])];
        const float tmin = degrees(c.twistMin), tmax = degrees(c.twistMax);
        all += QStringLiteral(" %1: [%2°, %3°] in [%4°, %5°];").arg(QString::fromStdString(c.name)).arg(num(lo[k]), num(hi[k]), num(tmin), num(tmax));
        ok = ok && lo[k] >= tmin - tolerance && hi[k] <= tmax + tolerance;
    }
    QVERIFY2(ok, qPrintable(QStringLiteral("hinge twist out of range:") + all));
}

// makeHumanoid(): the left forearm's three particles (elbow, wrist, elbow axis) are pinned kinematically on
// one line (or onto one point) for 1 s, then released for 1 s. Positions stay finite, boneMatrices() has no
// NaN, and while degenerate the forearm frame falls back to the last good one: the forearm bone's rotation
// does not change from step to step.
void TestAngular::degenerateTriangle_staysFinite_data()
{
    QTest::addColumn<bool>("coincident");
    QTest::newRow("collinear") << false;
    QTest::newRow("coincident") << true;
}

void TestAngular::degenerateTriangle_staysFinite()
{
    QFETCH(bool, coincident);
    const rig::RigDescription d = makeHumanoid();
    SPAWN_SIM(sim, d, worldSettings({0.f, -9.81f, 0.f}));
    QVERIFY(sim.world->addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    const std::size_t bones = d.bones.size();
    std::vector<Mat4> m(bones), prev(bones);
    std::size_t forearmBone = bones;
    for (std::size_t i = 0; i < bones; ++i)
        if (d.bones[i].name == "forearm_l")
            forearmBone = i;
    QVERIFY(forearmBone < bones);
    const Vec3 elbow = sim.x(kElbowL);
    const Vec3 dir{0.6f, -0.8f, 0.f};
    QVERIFY(sim.body->setPin(kElbowL, elbow));
    QVERIFY(sim.body->setPin(kElbowAxisL, coincident ? elbow : elbow + dir * 0.06f));
    QVERIFY(sim.body->setPin(kWristL, coincident ? elbow : elbow + dir * 0.26f));
    for (int n = 1; n <= 120; ++n) {
        if (n == 61) {
            QVERIFY(sim.body->releasePin(kElbowL));
            QVERIFY(sim.body->releasePin(kElbowAxisL));
            QVERIFY(sim.body->releasePin(kWristL));
        }
        sim.world->step();
        for (std::uint32_t i = 0; i < sim.body->particleCount(); ++i)
            QVERIFY2(isFinite(sim.x(i)) && isFinite(sim.body->previousPositions()[i]),
                     qPrintable(QStringLiteral("particle %1 = %2 at step %3").arg(i).arg(str(sim.x(i))).arg(n)));
        QVERIFY(sim.body->boneMatrices(m));
        for (std::size_t b = 0; b < bones; ++b)
            for (float v : m[b].m)
                QVERIFY2(std::isfinite(v), qPrintable(QStringLiteral("bone %1 matrix not finite at step %2").arg(b).arg(n)));
        if (n >= 3 && n <= 60) { // degenerate since step 1 (pins land in the first iteration): frame held
            float diff = 0.f;
            for (int r = 0; r < 3; ++r)
                for (int col = 0; col < 3; ++col)
                    diff = std::max(diff, std::fabs(m[forearmBone](r, col) - prev[forearmBone](r, col)));
            QVERIFY2(diff <= 1e-6f, qPrintable(QStringLiteral("forearm bone rotation changed by %1 at step %2 while degenerate").arg(num(diff)).arg(n)));
        }
        prev = m;
    }
}

QTEST_APPLESS_MAIN(TestAngular)
#include "tst_angular.moc"
