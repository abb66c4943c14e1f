// Tests of autoRig() beyond the humanoid template (tst_autorighumanoid covers that one): the generic
// template (quadruped, tail, merged joints) with drops onto a floor through the runtime, the fallback from
// Auto to generic with the reason, recomputed inverse binds and refused input. Every assertion on a number
// prints the measured value.
#include "marionette/editor/autorig/AutoRig.h"
#include "marionette/runtime/Procedural.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "AutoRigTestSupport.h"
#include "RagdollDropTestSupport.h"

using namespace marionette;
using namespace marionette::editor;
using namespace marionette::test;

namespace {

/// The largest excess of the rig's law-of-cosines ranges at positions x, as the distance between the outer
/// particles beyond its range (what the constraint enforces; metres) and as the angle beyond its range.
struct BendExcess {
    float metres = 0.f, radians = 0.f;
};

BendExcess worstBendExcess(std::span<const Vec3> x, const rig::RigDescription& d)
{
    BendExcess worst;
    for (const rig::AngleConstraint& c : d.angles) {
        const float A = length(d.particles[std::size_t(c.a)].position - d.particles[std::size_t(c.center)].position);
        const float B = length(d.particles[std::size_t(c.b)].position - d.particles[std::size_t(c.center)].position);
        auto distance = [&](float angle) { return std::sqrt(std::max(0.f, A * A + B * B - 2.f * A * B * std::cos(angle))); };
        const float L = length(x[std::size_t(c.b)] - x[std::size_t(c.a)]), a = angleAt(x, c);
        worst.metres = std::max({worst.metres, distance(c.minAngle) - L, L - distance(c.maxAngle)});
        worst.radians = std::max({worst.radians, c.minAngle - a, a - c.maxAngle});
    }
    return worst;
}

} // namespace

class TestAutoRig : public QObject {
    Q_OBJECT

private slots:
    void generic_quadruped();
    void generic_quadrupedSettlesFromRandomDrops();
    void generic_twistBetweenFramesIsLimited();
    void generic_tail_data();
    void generic_tail();
    void generic_mergesNearJointsAndSkipsZeroLengthBones();
    void auto_fallsBackToGenericWithTheReason_data();
    void auto_fallsBackToGenericWithTheReason();
    void input_inverseBindRecomputedWhenInconsistent();
    void input_refused_data();
    void input_refused();
};

// A quadruped with animal names: generic template. The branch points (pelvis: spine, hind legs, tail; chest:
// neck, front legs) are triangles joined by a swing/twist limit about the spine (swing 90° and twist ±60°:
// 45° and 30° for each joint between them); every other bone
// is a stick that drives its bone, with a law-of-cosines bend range (±45° from the bind pose) at its joint;
// leaf bones without vertices follow their parent; the bind-pose palette is the identity. validate() passes,
// masses add up, radii follow the vertex rings, and a 2 m drop stays finite, on the floor, and comes to rest
// with its bend ranges held to within 5 mm (the runtime's resting stick residual; a degree or two on the
// short paws).
void TestAutoRig::generic_quadruped()
{
    const AutoRigInput in = makeQuadruped(false);
    const AutoRigResult r = autoRig(in);
    QVERIFY2(r.ok, r.error.c_str());
    QCOMPARE(QString::fromStdString(r.templateUsed), QStringLiteral("generic"));
    const rig::RigDescription& d = r.rig;
    QCOMPARE(QString::fromStdString(d.validate()), QString());
    QStringList triangles;
    for (const rig::Triangle& t : d.triangles)
        triangles << QString::fromStdString(t.name);
    QCOMPARE(triangles, (QStringList{"Pelvis", "Chest"}));
    QCOMPARE(d.angular.size(), std::size_t(1));
    const rig::AngularConstraint& spine = d.angular[0];
    QCOMPARE(spine.limit, rig::AngularLimit::SwingTwist);
    EXPECT_NEAR_REL(degrees(spine.swing1), 90.f, 1e-4f);
    EXPECT_NEAR_REL(degrees(spine.swing2), 90.f, 1e-4f);
    EXPECT_NEAR_REL(degrees(spine.twistMax), 60.f, 1e-4f);
    EXPECT_NEAR_REL(degrees(spine.twistMin), -60.f, 1e-4f);
    {   // The twist axis is the chest body's bone direction (chest joint → neck), in the chest triangle's frame.
        const std::vector<Vec3> x = bindPositions(d);
        const rig::Triangle& chest = d.triangles[std::size_t(spine.triangleB)];
        Mat3 frame;
        QVERIFY(runtime::Rig::triangleFrame(x[std::size_t(chest.p[0])], x[std::size_t(chest.p[1])], x[std::size_t(chest.p[2])], frame));
        const Vec3 along = normalizeOr(x[std::size_t(findByName(d.particles, "Neck"))] - x[std::size_t(findByName(d.particles, "Chest"))], {});
        const float off = degrees(std::acos(std::clamp(dot(frame * spine.twistAxis, along), -1.f, 1.f)));
        QVERIFY2(off < 0.01f, qPrintable(QStringLiteral("twist axis %1° off the chest → neck direction").arg(num(off))));
    }
    QCOMPARE(angularFrictionProblem(d, runtime::kHumanoidJointDamping, runtime::kHumanoidJointStaticFriction), QString());
    QCOMPARE(solverSettingsProblem(d.settings), QString());
    QCOMPARE(d.angles.size(), std::size_t(19)); // spine 1, chest, neck, head, 3 per leg, tail 1-3
    const std::vector<Vec3> bind = bindPositions(d);
    for (const rig::AngleConstraint& c : d.angles) {
        QCOMPARE(c.form, rig::AngleConstraint::Form::LawOfCosines);
        const float a = angleAt(bind, c);
        QVERIFY2(a >= c.minAngle && a <= c.maxAngle && c.maxAngle - c.minAngle >= radians(45.f),
                 qPrintable(QStringLiteral("%1: bind %2° in [%3°, %4°]").arg(QString::fromStdString(c.name), num(degrees(a)),
                                                                               num(degrees(c.minAngle)), num(degrees(c.maxAngle)))));
    }
    double total = 0.;
    for (const rig::Particle& p : d.particles)
        total += double(p.mass);
    QVERIFY2(std::fabs(total - 30.) < 1e-3, qPrintable(num(total)));
    std::vector<int> binding(d.bones.size(), -1);
    for (std::size_t i = 0; i < d.bindings.size(); ++i)
        binding[std::size_t(d.bindings[i].bone)] = int(i);
    for (std::size_t b = 0; b < d.bones.size(); ++b)
        QVERIFY2(binding[b] >= 0 || noteMentions(r, d.bones[b].name), d.bones[b].name.c_str());
    auto driver = [&](const char* bone) {
        const int i = binding[std::size_t(findByName(d.bones, bone))];
        return i < 0 ? -1 : int(d.bindings[std::size_t(i)].driver);
    };
    QCOMPARE(driver("Pelvis"), int(rig::BoneBinding::Driver::Triangle));
    QCOMPARE(driver("Chest"), int(rig::BoneBinding::Driver::Triangle));
    QCOMPARE(driver("Spine1"), int(rig::BoneBinding::Driver::Stick));
    QCOMPARE(driver("FrontLegL2"), int(rig::BoneBinding::Driver::Stick));
    QCOMPARE(driver("Tail4"), -1);
    QVERIFY(noteMentions(r, "bones without length follow their parent: HeadEnd, FrontPawL_end"));
    const float palette = bindPaletteError(d);
    QVERIFY2(palette >= 0.f && palette <= 1e-4f, qPrintable(QStringLiteral("bind-pose skinning off identity by %1").arg(num(palette))));
    // The tail's radii follow its vertex rings (4, 3, 2 cm from base to tip).
    const float t1 = d.sticks[std::size_t(findByName(d.sticks, "Tail1"))].capsuleRadius;
    const float t3 = d.sticks[std::size_t(findByName(d.sticks, "Tail3"))].capsuleRadius;
    QVERIFY2(std::fabs(t1 - 0.04f) < 0.004f && std::fabs(t3 - 0.02f) < 0.002f, qPrintable(num(t1) + " " + num(t3)));

    Drop s = spawnOnFloor(d, {Quat{}, {0.f, 2.f, 0.f}});
    QVERIFY2(s.body, s.error.c_str());
    const DropResult m = runDrop(s, 360);
    const BendExcess excess = worstBendExcess(s.body->positions(), d);
    const QString bends = QStringLiteral("bend ranges exceeded at rest by at most %1 m (%2°)").arg(num(excess.metres), num(degrees(excess.radians)));
    qInfo("quadruped: %s, %s", qPrintable(describe(m)), qPrintable(bends));
    QVERIFY2(m.finite && m.lowest >= -0.01f && m.finalSpeed < 0.05f, qPrintable(describe(m)));
    QVERIFY2(excess.metres <= 0.005f, qPrintable(bends));
}

// 30 drops of the quadruped from 2 m above the floor in random orientations: all finite, none below −1 cm,
// and at most two still moving faster than 5 cm/s after 6 s (sleep off).
void TestAutoRig::generic_quadrupedSettlesFromRandomDrops()
{
    const AutoRigResult r = autoRig(makeQuadruped(false));
    QVERIFY2(r.ok, r.error.c_str());
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(0.f, 1.f);
    int moving = 0;
    for (int i = 0; i < 30; ++i) {
        const Vec3 axis = normalizeOr(Vec3{u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f}, {1, 0, 0});
        const Quat q = Quat::fromAxisAngle(axis, u(rng) * kPi);
        Drop s = spawnOnFloor(r.rig, dropPlacement(r.rig, q, 2.f));
        QVERIFY2(s.body, s.error.c_str());
        const DropResult m = runDrop(s, 360);
        QVERIFY2(m.finite && m.lowest >= -0.01f, qPrintable(QStringLiteral("drop %1: ").arg(i) + describe(m)));
        moving += m.finalSpeed >= 0.05f ? 1 : 0;
    }
    qInfo("%d of 30 drops still moving after 6 s", moving);
    QVERIFY2(moving <= 2, qPrintable(QStringLiteral("%1 of 30 still moving").arg(moving)));
}

void TestAutoRig::generic_tail_data()
{
    QTest::addColumn<int>("bones");
    QTest::newRow("1 bone") << 1;
    QTest::newRow("2 bones") << 2;
    QTest::newRow("8 bones") << 8;
}

// Twist between two framed bodies is limited, not only their swing: the quadruped's front half (chest
// triangle and everything beyond it) turned 75° about the chest's axis (inside the 90° swing cone, beyond the ±60°
// twist), weightless and at rest, is turned back to within the twist limit (+1°) within 10 frames and stays
// there for the second that follows, the runtime's measured excess ends below 1°, and the swing stays within
// its limit. The twist is measured here from the
// two triangles' frames: the relative rotation from the bind pose, decomposed about the constraint's axis.
void TestAutoRig::generic_twistBetweenFramesIsLimited()
{
    AutoRigResult r = autoRig(makeQuadruped(false));
    QVERIFY2(r.ok, r.error.c_str());
    rig::RigDescription& d = r.rig;
    d.settings.gravity = {0.f, 0.f, 0.f};
    QCOMPARE(d.angular.size(), std::size_t(1));
    const rig::AngularConstraint& j = d.angular[0];
    std::string error;
    const std::shared_ptr<const runtime::Rig> rig = runtime::Rig::build(d, &error);
    QVERIFY2(rig, error.c_str());
    runtime::WorldSettings ws;
    ws.sleep = false;
    ws.threads = 1;
    runtime::World world(ws);
    runtime::Ragdoll* body = world.ragdoll(world.spawn(rig, {}, {}, &error));
    QVERIFY2(body, error.c_str());

    const std::vector<Vec3> bind = bindPositions(d);
    const rig::Triangle& ta = d.triangles[std::size_t(j.triangleA)];
    const rig::Triangle& tb = d.triangles[std::size_t(j.triangleB)];
    auto frameOf = [](std::span<const Vec3> x, const rig::Triangle& t) {
        Mat3 f;
        runtime::Rig::triangleFrame(x[std::size_t(t.p[0])], x[std::size_t(t.p[1])], x[std::size_t(t.p[2])], f);
        return f;
    };
    const Mat3 restRelative = frameOf(bind, ta).transposed() * frameOf(bind, tb);
    struct SwingTwist {
        float twist = 0.f, swing = 0.f; // degrees
    };
    auto measure = [&](std::span<const Vec3> x) {
        // The change of B relative to A since the bind pose, expressed in B's frame, split about the axis.
        const Mat3 relative = frameOf(x, ta).transposed() * frameOf(x, tb);
        Quat q = toQuat(restRelative.transposed() * relative);
        if (q.w < 0.f)
            q = {-q.x, -q.y, -q.z, -q.w};
        const float along = dot(q.vec(), j.twistAxis);
        const float twist = 2.f * std::atan2(along, q.w);
        const Quat t = normalize(Quat{j.twistAxis.x * along, j.twistAxis.y * along, j.twistAxis.z * along, q.w});
        const Quat swing = q * t.conjugate();
        return SwingTwist{degrees(twist), degrees(2.f * std::acos(std::clamp(std::fabs(swing.w), 0.f, 1.f)))};
    };

    // Turn the front half about the twist axis through the chest joint.
    const Vec3 chest = bind[std::size_t(findByName(d.particles, "Chest"))];
    const Vec3 axis = frameOf(bind, tb) * j.twistAxis;
    const Quat turn = Quat::fromAxisAngle(axis, radians(75.f));
    std::vector<Vec3> turned = bind;
    for (Vec3& p : turned)
        if (dot(p - chest, axis) > -0.01f)
            p = chest + turn.rotate(p - chest);
    QVERIFY(body->setPose(turned, turned));
    const SwingTwist before = measure(body->positions());
    QVERIFY2(std::fabs(std::fabs(before.twist) - 75.f) < 1.f && before.swing < 1.f,
             qPrintable(QStringLiteral("set up with twist %1°, swing %2°").arg(num(before.twist), num(before.swing))));

    // Within a few frames, and from then on (the correction turns the half back; it does not overshoot
    // past the other side's limit).
    float worstLater = 0.f;
    for (int n = 0; n < 60; ++n) {
        world.step();
        if (n >= 10)
            worstLater = std::max(worstLater, std::fabs(measure(body->positions()).twist));
    }
    const SwingTwist after = measure(body->positions());
    std::vector<float> excess(rig->angular().size());
    QVERIFY(body->angularExcesses(excess));
    const QString what = QStringLiteral("twist %1° → %2° (at most %3° from frame 10 on; limit ±%4°), swing %5° "
                                        "(limit %6°), runtime excess %7°")
                             .arg(num(before.twist), num(after.twist), num(worstLater), num(degrees(j.twistMax)),
                                  num(after.swing), num(degrees(j.swing1)), num(degrees(excess[0])));
    qInfo("%s", qPrintable(what));
    QVERIFY2(worstLater <= degrees(j.twistMax) + 1.f, qPrintable(what));
    QVERIFY2(degrees(excess[0]) < 1.f, qPrintable(what));
    QVERIFY2(after.swing <= degrees(j.swing1) + 1.f, qPrintable(what));
}

// A tail chain: the first bone has no ancestor to carry its twist from, so it gets a helper particle and a
// triangle (a full frame); the others are sticks driving their bones, with a bend range at each joint; the
// last reaches to the tip of its vertices. Dropped from 2 m it stays finite, on the floor, comes to rest, and
// its bend ranges hold to within 5 mm.
void TestAutoRig::generic_tail()
{
    QFETCH(int, bones);
    const AutoRigInput in = makeTail(bones);
    const AutoRigResult r = autoRig(in);
    QVERIFY2(r.ok, r.error.c_str());
    QCOMPARE(QString::fromStdString(r.templateUsed), QStringLiteral("generic"));
    const rig::RigDescription& d = r.rig;
    QCOMPARE(QString::fromStdString(d.validate()), QString());
    QCOMPARE(d.triangles.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(d.triangles[0].name), QStringLiteral("Tail1"));
    QVERIFY(findByName(d.particles, "Tail1_axis") >= 0);
    QCOMPARE(d.angular.size(), std::size_t(0));
    QCOMPARE(d.angles.size(), std::size_t(bones - 1));
    QCOMPARE(d.particles.size(), std::size_t(bones + 2)); // joints, the tip, the helper
    QCOMPARE(d.bindings.size(), std::size_t(bones));
    QCOMPARE(d.bindings[0].driver, rig::BoneBinding::Driver::Triangle);
    for (std::size_t i = 1; i < d.bindings.size(); ++i)
        QCOMPARE(d.bindings[i].driver, rig::BoneBinding::Driver::Stick);
    const float palette = bindPaletteError(d);
    QVERIFY2(palette >= 0.f && palette <= 1e-4f, qPrintable(QStringLiteral("bind-pose skinning off identity by %1").arg(num(palette))));
    const rig::Particle& tip = d.particles[std::size_t(findByName(d.particles, "Tail" + std::to_string(bones) + "_end"))];
    EXPECT_NEAR_REL(-tip.position.z, 0.12f * float(bones) - 0.12f * (1.f / 7.f), 0.02f);
    Drop s = spawnOnFloor(d, {Quat::fromAxisAngle({1, 0, 0}, 0.3f), {0.f, 2.f, 0.f}});
    QVERIFY2(s.body, s.error.c_str());
    const DropResult m = runDrop(s, 360);
    QVERIFY2(m.finite && m.lowest >= -0.01f && m.finalSpeed < 0.05f, qPrintable(describe(m)));
    const BendExcess e = worstBendExcess(s.body->positions(), d);
    QVERIFY2(e.metres <= 0.005f, qPrintable(QStringLiteral("bend ranges exceeded by %1 m (%2°)").arg(num(e.metres), num(degrees(e.radians)))));
}

// A root and a hips bone at the same point, a zero-length end bone and a joint 1 mm from its parent: joints
// closer than 20 % of the median bone length merge into their parent's particle (noted), the coincident root
// shares the hips' body, and bones that reach nowhere (c, whose only child sits on its joint, and that child)
// follow their parent (noted).
void TestAutoRig::generic_mergesNearJointsAndSkipsZeroLengthBones()
{
    AutoRigInput in;
    in.skeleton = {bone("root", rig::kNone, {0, 1, 0}), bone("hips", 0, {0, 1, 0}), bone("a", 1, {0, 1, -0.2f}),
                   bone("a_fix", 2, {0, 1, -0.201f}), bone("b", 3, {0, 1, -0.4f}), bone("c", 4, {0, 1, -0.6f}),
                   bone("c_end", 5, {0, 1, -0.6f})};
    const AutoRigResult r = autoRig(in);
    QVERIFY2(r.ok, r.error.c_str());
    const rig::RigDescription& d = r.rig;
    QCOMPARE(findByName(d.particles, "root") >= 0, true);
    QCOMPARE(findByName(d.particles, "hips"), -1);
    QCOMPARE(findByName(d.particles, "a_fix"), -1);
    QVERIFY(noteMentions(r, "merged into it: hips, a_fix, c_end"));
    QVERIFY(noteMentions(r, "bones without length follow their parent: c, c_end"));
    std::vector<int> tri(d.bones.size(), -1);
    for (const rig::BoneBinding& b : d.bindings)
        tri[std::size_t(b.bone)] = b.index;
    QVERIFY(tri[0] >= 0);
    QCOMPARE(tri[0], tri[1]); // root and hips: same joint, same ends
    QCOMPARE(tri[5], -1);
    QCOMPARE(tri[6], -1);
    QCOMPARE(QString::fromStdString(d.validate()), QString());
}

void TestAutoRig::auto_fallsBackToGenericWithTheReason_data()
{
    QTest::addColumn<bool>("humanoidNames");
    QTest::addColumn<QString>("note");
    QTest::newRow("quadruped") << false << QStringLiteral("generic template: not a humanoid (missing pelvis, chest, head, upperarm_l");
    QTest::newRow("quadruped with Mixamo names")
        << true << QStringLiteral("generic template: not a humanoid (the legs do not point away from the head)");
}

// Auto on skeletons that are not humans gives the generic rig with the reason as the first note; Humanoid
// requested on them fails with the same reason.
void TestAutoRig::auto_fallsBackToGenericWithTheReason()
{
    QFETCH(bool, humanoidNames);
    QFETCH(QString, note);
    AutoRigInput in = makeQuadruped(humanoidNames);
    AutoRigResult r = autoRig(in);
    QVERIFY2(r.ok, r.error.c_str());
    QCOMPARE(QString::fromStdString(r.templateUsed), QStringLiteral("generic"));
    QVERIFY(!r.notes.empty());
    QVERIFY2(QString::fromStdString(r.notes.front()).startsWith(note), r.notes.front().c_str());
    in.requested = RigTemplate::Humanoid;
    r = autoRig(in);
    QVERIFY(!r.ok);
    QVERIFY2(QString::fromStdString(r.error).startsWith(QStringLiteral("humanoid template: ")), r.error.c_str());
}

// An inverse bind that does not invert bindWorld is replaced by the inverse (noted), so the bind-pose
// palette is the identity; one that does is kept bit for bit.
void TestAutoRig::input_inverseBindRecomputedWhenInconsistent()
{
    HumanoidSpec s;
    s.scheme = Scheme::Mixamo;
    AutoRigInput in = makeHumanoidCharacter(s).input;
    const std::size_t hand = std::size_t(findByName(in.skeleton, "mixamorig:LeftHand"));
    in.skeleton[hand].inverseBind = Mat4{};
    const AutoRigResult r = autoRig(in);
    QVERIFY2(r.ok, r.error.c_str());
    QVERIFY(noteMentions(r, "inverse bind matrices recomputed from bindWorld (they did not invert it) for mixamorig:LeftHand"));
    const Mat4 product = r.rig.bones[hand].bindWorld * r.rig.bones[hand].inverseBind;
    for (int k = 0; k < 16; ++k)
        QVERIFY(std::fabs(product.m[k] - Mat4{}.m[k]) < 1e-5f);
    QVERIFY(r.rig.bones[0].inverseBind == in.skeleton[0].inverseBind);
}

void TestAutoRig::input_refused_data()
{
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("error");
    QTest::newRow("empty skeleton") << 0 << QStringLiteral("the auto-rig needs a skeleton (the mesh has no bones)");
    QTest::newRow("humanoid requested on a tail")
        << 1 << QStringLiteral("humanoid template: missing pelvis, chest, head, upperarm_l, forearm_l, hand_l, upperarm_r, "
                               "forearm_r, hand_r, thigh_l, calf_l, foot_l, thigh_r, calf_r, foot_r");
    QTest::newRow("NaN in a bind matrix") << 2 << QStringLiteral("bone 'Tail3': bindWorld is not finite");
    QTest::newRow("singular bind matrix") << 3 << QStringLiteral("bone 'Tail2': bindWorld cannot be inverted");
    QTest::newRow("parent after child") << 4 << QStringLiteral("bone 'Tail2': its parent must be an earlier bone (parents first)");
    QTest::newRow("infinite vertex") << 5 << QStringLiteral("bone 'Tail1': a skinned vertex is not finite");
    QTest::newRow("vertex lists") << 6 << QStringLiteral("boneVertices has 2 lists for 5 bones (give none or one per bone)");
    QTest::newRow("zero mass") << 7 << QStringLiteral("totalMass must be a finite number of kilograms above 0");
}

// Bad input is refused with one line naming the bone; nothing is built.
void TestAutoRig::input_refused()
{
    QFETCH(int, which);
    QFETCH(QString, error);
    AutoRigInput in = makeTail(5);
    switch (which) {
    case 0: in = {}; break;
    case 1: in.requested = RigTemplate::Humanoid; break;
    case 2: in.skeleton[2].bindWorld.m[13] = std::numeric_limits<float>::quiet_NaN(); break;
    case 3: in.skeleton[1].bindWorld.m[5] = 0.f; in.skeleton[1].bindWorld.m[0] = 0.f; break;
    case 4: in.skeleton[1].parent = 3; break;
    case 5: in.boneVertices[0][3].x = std::numeric_limits<float>::infinity(); break;
    case 6: in.boneVertices.resize(2); break;
    case 7: in.totalMass = 0.f; break;
    default: break;
    }
    const AutoRigResult r = autoRig(in);
    QVERIFY(!r.ok);
    QCOMPARE(QString::fromStdString(r.error), error);
    QVERIFY(r.rig.particles.empty());
}

QTEST_GUILESS_MAIN(TestAutoRig)
#include "tst_autorig.moc"
