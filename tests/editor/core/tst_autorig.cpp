// Tests of autoRig(): the humanoid template on every naming scheme (shape of the rig, hinges the runtime
// recognises, masses, radii fitted to the skinned vertices, bindings, the bind-pose palette), drops onto a
// floor through the runtime (finite, on the floor, at rest; knees and elbows never bending backwards, measured
// by the test from particle positions and the character's known front), the generic template (quadruped,
// tail, merged joints) and refused input. Every assertion on a number prints the measured value.
#include "marionette/editor/AutoRig.h"
#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "AutoRigTestSupport.h"

using namespace marionette;
using namespace marionette::editor;
using namespace marionette::test;

/// Fails the test when |actual − expected| > relTol·|expected|, printing both.
#define EXPECT_NEAR_REL(actual, expected, relTol)                                                              \
    do {                                                                                                       \
        const double a_ = (actual), e_ = (expected);                                                           \
        if (!(std::fabs(a_ - e_) <= double(relTol) * std::fabs(e_)))                                           \
            QFAIL(qPrintable(QStringLiteral("%1 = %2, expected %3 (line %4)")                                  \
                                 .arg(QString::fromLatin1(#actual), QString::number(a_), QString::number(e_))   \
                                 .arg(__LINE__)));                                                             \
    } while (0)

namespace {

QString num(double v) { return QString::number(v, 'g', 5); }

std::int32_t findByName(const auto& list, const std::string& name)
{
    for (std::size_t i = 0; i < list.size(); ++i)
        if (list[i].name == name)
            return std::int32_t(i);
    return -1;
}

SyntheticCharacter rowCharacter(int row) { return makeHumanoidCharacter(humanoidRows()[std::size_t(row)].spec); }

void addHumanoidRows()
{
    QTest::addColumn<int>("row");
    const auto rows = humanoidRows();
    for (std::size_t i = 0; i < rows.size(); ++i)
        QTest::newRow(rows[i].name) << int(i);
}

/// A world with a floor at y = 0, sleep off, one thread, and the rig spawned with `placement`.
struct Drop {
    std::shared_ptr<const runtime::Rig> rig;
    std::unique_ptr<runtime::World> world;
    runtime::Ragdoll* body = nullptr;
    std::string error;
};

Drop spawnOnFloor(const rig::RigDescription& d, const Transform& placement)
{
    Drop s;
    s.rig = runtime::Rig::build(d, &s.error);
    if (!s.rig)
        return s;
    runtime::WorldSettings ws;
    ws.sleep = false;
    ws.threads = 1;
    s.world = std::make_unique<runtime::World>(ws);
    s.world->addPlane({0.f, 1.f, 0.f}, 0.f);
    s.body = s.world->ragdoll(s.world->spawn(s.rig, placement, {}, &s.error));
    return s;
}

/// What a drop measured: finite all along, the lowest particle centre, the fastest particle at the end,
/// and the first frame after which every particle stayed below 5 cm/s.
struct DropResult {
    bool finite = true;
    float lowest = std::numeric_limits<float>::max();
    float finalSpeed = 0.f;
    int restFrame = -1;
};

DropResult runDrop(Drop& s, int frames)
{
    DropResult r;
    for (int n = 1; n <= frames; ++n) {
        s.world->step();
        float fastest = 0.f;
        for (std::uint32_t i = 0; i < s.body->particleCount(); ++i) {
            const Vec3 x = s.body->positions()[i];
            r.finite = r.finite && isFinite(x);
            r.lowest = std::min(r.lowest, x.y);
            fastest = std::max(fastest, length(s.body->velocity(i)));
        }
        if (fastest >= 0.05f)
            r.restFrame = -1;
        else if (r.restFrame < 0)
            r.restFrame = n;
        r.finalSpeed = fastest;
    }
    return r;
}

/// Largest deviation from the identity of the skinning palette of `d` spawned in its bind pose, or -1.
float bindPaletteError(const rig::RigDescription& d)
{
    Drop s = spawnOnFloor(d, {});
    if (!s.body)
        return -1.f;
    std::vector<Mat4> skin(d.bones.size());
    if (!s.body->skinningMatrices(skin))
        return -1.f;
    float worst = 0.f;
    for (const Mat4& m : skin)
        for (int k = 0; k < 16; ++k)
            worst = std::max(worst, std::fabs(m.m[k] - Mat4{}.m[k]));
    return worst;
}

QString describe(const DropResult& r)
{
    return QStringLiteral("finite %1, lowest particle centre %2 m, final speed %3 m/s, at rest from frame %4")
        .arg(r.finite)
        .arg(num(r.lowest), num(r.finalSpeed))
        .arg(r.restFrame);
}

/// The four hinges of a humanoid rig: particles root, joint, end and axis, and the anatomical direction the
/// end moves in when the joint flexes (the character's front for elbows, its back for knees).
struct HingeProbe {
    const char* name;
    std::int32_t root, joint, end, axis;
    Vec3 flexDirection;
};

std::vector<HingeProbe> hingeProbes(const rig::RigDescription& d, Vec3 forward)
{
    auto p = [&](const char* n) { return findByName(d.particles, n); };
    return {{"elbow_l", p("shoulder_l"), p("elbow_l"), p("wrist_l"), p("elbow_axis_l"), forward},
            {"elbow_r", p("shoulder_r"), p("elbow_r"), p("wrist_r"), p("elbow_axis_r"), forward},
            {"knee_l", p("hip_l"), p("knee_l"), p("ankle_l"), p("knee_axis_l"), -forward},
            {"knee_r", p("hip_r"), p("knee_r"), p("ankle_r"), p("knee_axis_r"), -forward}};
}

/// Signed flexion of a hinge from positions x: the angle from the upper segment's direction to the lower
/// one's about the hinge edge, positive toward flexion. `sign` fixes the edge's orientation at bind.
float flexion(std::span<const Vec3> x, const HingeProbe& h, float sign)
{
    const Vec3 u = x[std::size_t(h.joint)] - x[std::size_t(h.root)];
    const Vec3 c = x[std::size_t(h.end)] - x[std::size_t(h.joint)];
    const Vec3 e = normalizeOr(x[std::size_t(h.axis)] - x[std::size_t(h.joint)], {});
    return std::atan2(sign * dot(cross(u, c), e), dot(u, c));
}

/// Orientation of the hinge edge relative to flexion at bind: +1 when (upper × flexDirection) runs along
/// the edge from the joint to the axis particle.
float flexionSign(std::span<const Vec3> x, const HingeProbe& h)
{
    const Vec3 u = x[std::size_t(h.joint)] - x[std::size_t(h.root)];
    const Vec3 e = x[std::size_t(h.axis)] - x[std::size_t(h.joint)];
    return dot(cross(u, h.flexDirection), e) >= 0.f ? 1.f : -1.f;
}

std::vector<Vec3> bindPositions(const rig::RigDescription& d)
{
    std::vector<Vec3> x;
    for (const rig::Particle& p : d.particles)
        x.push_back(p.position);
    return x;
}

bool noteMentions(const AutoRigResult& r, const std::string& what)
{
    return std::any_of(r.notes.begin(), r.notes.end(), [&](const std::string& n) { return n.find(what) != std::string::npos; });
}

} // namespace

class TestAutoRig : public QObject {
    Q_OBJECT

private slots:
    void humanoid_rigShape_data() { addHumanoidRows(); }
    void humanoid_rigShape();
    void humanoid_massesFollowSegmentFractions();
    void humanoid_bindPoseSkinningIsIdentity_data() { addHumanoidRows(); }
    void humanoid_bindPoseSkinningIsIdentity();
    void humanoid_everyBoneBoundOrFollowing_data() { addHumanoidRows(); }
    void humanoid_everyBoneBoundOrFollowing();
    void humanoid_radiiGrowWithVertices();
    void humanoid_radiiFromProportionsWithoutVertices();
    void humanoid_hingesFlexTheAnatomicalWay_data() { addHumanoidRows(); }
    void humanoid_hingesFlexTheAnatomicalWay();
    void humanoid_dropComesToRest_data() { addHumanoidRows(); }
    void humanoid_dropComesToRest();
    void humanoid_hingesDoNotBendBackwards_data();
    void humanoid_hingesDoNotBendBackwards();
    void humanoid_settlesAsOftenAsMakeHumanoid();

    void generic_quadruped();
    void generic_quadrupedSettlesFromRandomDrops();
    void generic_tail_data();
    void generic_tail();
    void generic_mergesNearJointsAndSkipsZeroLengthBones();
    void auto_fallsBackToGenericWithTheReason_data();
    void auto_fallsBackToGenericWithTheReason();
    void input_inverseBindRecomputedWhenInconsistent();
    void input_refused_data();
    void input_refused();
};

// The humanoid layout: 20 particles, 11 triangles, 10 joints, every element named, ids left 0, settings at
// their defaults (8 iterations), validate() passes, and the compiled rig has exactly the elbows and knees
// as hinges.
void TestAutoRig::humanoid_rigShape()
{
    QFETCH(int, row);
    const SyntheticCharacter c = rowCharacter(row);
    const AutoRigResult r = autoRig(c.input);
    QVERIFY2(r.ok, r.error.c_str());
    QCOMPARE(QString::fromStdString(r.templateUsed), QStringLiteral("humanoid"));
    const rig::RigDescription& d = r.rig;
    QCOMPARE(d.particles.size(), std::size_t(20));
    QVERIFY2(d.triangles.size() >= 11, qPrintable(num(double(d.triangles.size()))));
    QVERIFY2(d.angular.size() >= 10, qPrintable(num(double(d.angular.size()))));
    QCOMPARE(QString::fromStdString(d.validate()), QString());
    QCOMPARE(d.settings.iterations, 8u);
    QVERIFY(d.settings.selfCollision);
    auto named = [](const auto& list, const char* what) {
        for (std::size_t i = 0; i < list.size(); ++i)
            if (list[i].name.empty() || list[i].id != 0)
                return QStringLiteral("%1[%2] unnamed or with an id").arg(what).arg(i);
        return QString();
    };
    QCOMPARE(named(d.particles, "particles"), QString());
    QCOMPARE(named(d.sticks, "sticks"), QString());
    QCOMPARE(named(d.triangles, "triangles"), QString());
    QCOMPARE(named(d.angular, "angular"), QString());
    QCOMPARE(named(d.bones, "bones"), QString());
    QCOMPARE(named(d.bindings, "bindings"), QString());
    std::string error;
    const auto compiled = runtime::Rig::build(d, &error);
    QVERIFY2(compiled, error.c_str());
    QStringList hinges;
    for (std::size_t i = 0; i < d.angular.size(); ++i)
        if (compiled->angular()[i].hinge)
            hinges << QString::fromStdString(d.angular[i].name);
    QCOMPARE(hinges, (QStringList{"elbow_l", "elbow_r", "knee_l", "knee_r"}));
}

// Masses add up to totalMass; the Dempster/Winter fractions show: the legs (thigh, shank, foot and 40 % of
// the pelvis at the hip) carry 21.8 % each, the head particles 6.1 %, left and right are equal.
void TestAutoRig::humanoid_massesFollowSegmentFractions()
{
    for (const HumanoidRow& row : humanoidRows()) {
        const SyntheticCharacter c = makeHumanoidCharacter(row.spec);
        const AutoRigResult r = autoRig(c.input);
        QVERIFY2(r.ok, r.error.c_str());
        double total = 0.;
        for (const rig::Particle& p : r.rig.particles)
            total += double(p.mass);
        const double M = double(c.input.totalMass);
        QVERIFY2(std::fabs(total - M) <= 1e-4 * M, qPrintable(QStringLiteral("%1: %2 kg for %3").arg(row.name, num(total), num(M))));
        auto mass = [&](std::initializer_list<const char*> names) {
            double m = 0.;
            for (const char* n : names)
                m += double(r.rig.particles[std::size_t(findByName(r.rig.particles, n))].mass);
            return m / M;
        };
        const double legL = mass({"hip_l", "knee_l", "knee_axis_l", "ankle_l"});
        const double legR = mass({"hip_r", "knee_r", "knee_axis_r", "ankle_r"});
        const double head = mass({"head", "nose"});
        QVERIFY2(std::fabs(legL - 0.2178) < 1e-4 && std::fabs(legR - legL) < 1e-5,
                 qPrintable(QStringLiteral("legs %1 and %2 of the total").arg(num(legL), num(legR))));
        QVERIFY2(std::fabs(head - 0.06075) < 1e-4, qPrintable(QStringLiteral("head %1 of the total").arg(num(head))));
    }
}

// Spawned in its bind pose, the runtime's skinning palette is the identity (to 1e-4) and every bone's world
// matrix is its bindWorld: driven, stick-driven and following bones alike, with rotated and scaled frames.
void TestAutoRig::humanoid_bindPoseSkinningIsIdentity()
{
    QFETCH(int, row);
    const SyntheticCharacter c = rowCharacter(row);
    const AutoRigResult r = autoRig(c.input);
    QVERIFY2(r.ok, r.error.c_str());
    Drop s = spawnOnFloor(r.rig, {});
    QVERIFY2(s.body, s.error.c_str());
    const std::size_t n = r.rig.bones.size();
    std::vector<Mat4> skin(n), world(n);
    QVERIFY(s.body->skinningMatrices(skin));
    QVERIFY(s.body->boneMatrices(world));
    float worstSkin = 0.f, worstWorld = 0.f;
    std::string worstBone;
    for (std::size_t b = 0; b < n; ++b) {
        const Mat4 id;
        for (int k = 0; k < 16; ++k) {
            const float e = std::fabs(skin[b].m[k] - id.m[k]);
            if (e > worstSkin) {
                worstSkin = e;
                worstBone = r.rig.bones[b].name;
            }
            worstWorld = std::max(worstWorld, std::fabs(world[b].m[k] - c.input.skeleton[b].bindWorld.m[k]));
        }
    }
    QVERIFY2(worstSkin <= 1e-4f, qPrintable(QStringLiteral("skinning matrix off identity by %1 (bone %2)")
                                                .arg(num(worstSkin), QString::fromStdString(worstBone))));
    QVERIFY2(worstWorld <= 1e-4f, qPrintable(QStringLiteral("bone matrix off bindWorld by %1").arg(num(worstWorld))));
}

// Every bone is driven (a binding) or named in a note as following its parent; the body-part bones are driven
// by their part: hands by the forearm triangle, feet by the shin triangle, neck bones by the neck stick,
// clavicles by the chest; fingers and toes follow.
void TestAutoRig::humanoid_everyBoneBoundOrFollowing()
{
    QFETCH(int, row);
    const SyntheticCharacter c = rowCharacter(row);
    const AutoRigResult r = autoRig(c.input);
    QVERIFY2(r.ok, r.error.c_str());
    const rig::RigDescription& d = r.rig;
    std::vector<int> binding(d.bones.size(), -1);
    for (std::size_t i = 0; i < d.bindings.size(); ++i)
        binding[std::size_t(d.bindings[i].bone)] = int(i);
    for (std::size_t b = 0; b < d.bones.size(); ++b)
        if (binding[b] < 0)
            QVERIFY2(noteMentions(r, d.bones[b].name), qPrintable(QStringLiteral("bone %1 is neither driven nor in a note")
                                                                      .arg(QString::fromStdString(d.bones[b].name))));
    auto driver = [&](HumanoidPart part) {
        const int i = binding[std::size_t(r.mapping[part])];
        if (i < 0)
            return QStringLiteral("unbound");
        const rig::BoneBinding& bb = d.bindings[std::size_t(i)];
        return bb.driver == rig::BoneBinding::Driver::Triangle
                   ? QStringLiteral("triangle ") + QString::fromStdString(d.triangles[std::size_t(bb.index)].name)
                   : QStringLiteral("stick ") + QString::fromStdString(d.sticks[std::size_t(bb.index)].name);
    };
    QCOMPARE(driver(HumanoidPart::Pelvis), QStringLiteral("triangle pelvis"));
    QCOMPARE(driver(HumanoidPart::Chest), QStringLiteral("triangle chest"));
    QCOMPARE(driver(HumanoidPart::Head), QStringLiteral("triangle head"));
    QCOMPARE(driver(HumanoidPart::UpperArmL), QStringLiteral("triangle upperarm_l"));
    QCOMPARE(driver(HumanoidPart::HandL), QStringLiteral("triangle forearm_l"));
    QCOMPARE(driver(HumanoidPart::HandR), QStringLiteral("triangle forearm_r"));
    QCOMPARE(driver(HumanoidPart::CalfR), QStringLiteral("triangle shin_r"));
    QCOMPARE(driver(HumanoidPart::FootL), QStringLiteral("triangle shin_l"));
    if (r.mapping[HumanoidPart::Neck] != rig::kNone)
        QCOMPARE(driver(HumanoidPart::Neck), QStringLiteral("stick neck_head"));
    for (std::int32_t b : r.mapping.clavicleL) {
        const int i = binding[std::size_t(b)];
        QVERIFY(i >= 0);
        QCOMPARE(QString::fromStdString(d.triangles[std::size_t(d.bindings[std::size_t(i)].index)].name), QStringLiteral("chest"));
    }
    const HumanoidSpec spec = humanoidRows()[std::size_t(row)].spec;
    if (spec.scheme == Scheme::Mixamo) {
        QVERIFY(binding[std::size_t(findByName(d.bones, "mixamorig:LeftHandIndex1"))] < 0);
        QVERIFY(noteMentions(r, "fingers follow the hand: mixamorig:LeftHandIndex1"));
        QVERIFY(noteMentions(r, "toes follow the foot: mixamorig:LeftToeBase"));
    }
    if (spec.scheme == Scheme::Unreal) {
        QVERIFY(noteMentions(r, "twist and segment bones follow their parent: upperarm_twist_01_l"));
        QVERIFY(noteMentions(r, "root"));
    }
}

// The upper arm's capsule radius is the radius of the vertex ring given to the upper arm bone (within 5 %):
// 3, 5 and 8 cm give three growing radii.
void TestAutoRig::humanoid_radiiGrowWithVertices()
{
    float last = 0.f;
    for (float ring : {0.03f, 0.05f, 0.08f}) {
        HumanoidSpec s;
        s.scheme = Scheme::Unreal;
        s.upperArmRadius = ring;
        const AutoRigResult r = autoRig(makeHumanoidCharacter(s).input);
        QVERIFY2(r.ok, r.error.c_str());
        const float got = r.rig.sticks[std::size_t(findByName(r.rig.sticks, "upperarm_l"))].capsuleRadius;
        QVERIFY2(std::fabs(got - ring) <= 0.05f * ring, qPrintable(QStringLiteral("ring %1 m -> capsule %2 m").arg(num(ring), num(got))));
        QVERIFY2(got > last, qPrintable(QStringLiteral("%1 after %2").arg(num(got), num(last))));
        last = got;
    }
}

// Without skinned vertices the radii are proportions of the bone lengths (upper arm: 0.19 of its length),
// and a note says so.
void TestAutoRig::humanoid_radiiFromProportionsWithoutVertices()
{
    HumanoidSpec s;
    s.scheme = Scheme::Plain;
    s.vertices = false;
    const SyntheticCharacter c = makeHumanoidCharacter(s);
    const AutoRigResult r = autoRig(c.input);
    QVERIFY2(r.ok, r.error.c_str());
    QVERIFY(noteMentions(r, "radii from proportions of the bone lengths"));
    const rig::Stick& arm = r.rig.sticks[std::size_t(findByName(r.rig.sticks, "upperarm_l"))];
    const float len = length(r.rig.particles[std::size_t(arm.b)].position - r.rig.particles[std::size_t(arm.a)].position);
    EXPECT_NEAR_REL(arm.capsuleRadius, 0.19f * len, 1e-4f);
}

// In the bind pose, each hinge's range points the anatomical way for this character (forward for elbows,
// backward for knees, whichever way it faces): turning the lower limb by +30° about the constraint's twist
// axis (inside the range) moves its end toward flexion, −30° away from it; and the lower limit is exactly
// straight (or the bind pose, when that is already straight or bent backwards).
void TestAutoRig::humanoid_hingesFlexTheAnatomicalWay()
{
    QFETCH(int, row);
    const SyntheticCharacter c = rowCharacter(row);
    const AutoRigResult r = autoRig(c.input);
    QVERIFY2(r.ok, r.error.c_str());
    const rig::RigDescription& d = r.rig;
    const std::vector<Vec3> x = bindPositions(d);
    for (const HingeProbe& h : hingeProbes(d, c.forward)) {
        const rig::AngularConstraint& j = d.angular[std::size_t(findByName(d.angular, h.name))];
        QVERIFY2(j.twistMax >= radians(30.f), qPrintable(QStringLiteral("%1: upper limit %2°").arg(h.name, num(degrees(j.twistMax)))));
        const rig::Triangle& tb = d.triangles[std::size_t(j.triangleB)];
        Mat3 frame;
        QVERIFY(runtime::Rig::triangleFrame(x[std::size_t(tb.p[0])], x[std::size_t(tb.p[1])], x[std::size_t(tb.p[2])], frame));
        const Vec3 axis = frame * j.twistAxis;
        const Vec3 lower = normalizeOr(x[std::size_t(h.end)] - x[std::size_t(h.joint)], {});
        const float flexing = dot(Quat::fromAxisAngle(axis, radians(30.f)).rotate(lower) - lower, h.flexDirection);
        const float extending = dot(Quat::fromAxisAngle(axis, radians(-30.f)).rotate(lower) - lower, h.flexDirection);
        QVERIFY2(flexing > 0.3f && extending < -0.3f,
                 qPrintable(QStringLiteral("%1: +30° moves the end %2 toward flexion, -30° moves it %3")
                                .arg(h.name, num(flexing), num(extending))));
        const float sign = flexionSign(x, h);
        const float bind = flexion(x, h, sign);
        const float straightest = bind + j.twistMin; // flexion at the lower limit
        QVERIFY2(std::fabs(straightest) <= radians(0.5f) || (j.twistMin == 0.f && bind <= 0.f),
                 qPrintable(QStringLiteral("%1: bind flexion %2°, lower limit %3° reaches %4°")
                                .arg(h.name, num(degrees(bind)), num(degrees(j.twistMin)), num(degrees(straightest)))));
    }
}

// Dropped from 2 m (tilted 35° sideways and forward), every scheme's rig stays finite, no particle centre
// goes below −1 cm, and after 360 frames (6 s, sleep off) every particle is slower than 5 cm/s. (Like the
// runtime's own humanoid, a few per cent of drops end with a limb vibrating against the body — self-collision
// contacts have no friction — so the placement is fixed; humanoid_settlesAsOftenAsMakeHumanoid covers
// random drops.)
void TestAutoRig::humanoid_dropComesToRest()
{
    QFETCH(int, row);
    const SyntheticCharacter c = rowCharacter(row);
    const AutoRigResult r = autoRig(c.input);
    QVERIFY2(r.ok, r.error.c_str());
    const Transform placement{Quat::fromAxisAngle(normalizeOr(c.left + c.forward * 0.3f, {1, 0, 0}), radians(35.f)),
                              {0.f, 2.f, 0.f}};
    Drop s = spawnOnFloor(r.rig, placement);
    QVERIFY2(s.body, s.error.c_str());
    const DropResult m = runDrop(s, 360);
    qInfo("%s: %s", humanoidRows()[std::size_t(row)].name, qPrintable(describe(m)));
    QVERIFY2(m.finite, qPrintable(describe(m)));
    QVERIFY2(m.lowest >= -0.01f, qPrintable(describe(m)));
    QVERIFY2(m.finalSpeed < 0.05f, qPrintable(describe(m)));
}

void TestAutoRig::humanoid_hingesDoNotBendBackwards_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<bool>("struck");
    const auto rows = humanoidRows();
    for (std::size_t i = 0; i < rows.size(); ++i)
        for (bool struck : {false, true}) {
            const QString name = QString::fromLatin1(rows[i].name) +
                                 (struck ? QStringLiteral(", standing, struck the wrong way") : QStringLiteral(", dropped face down"));
            QTest::newRow(qPrintable(name)) << int(i) << struck;
        }
}

// The scenarios of tst_angular's humanoid_hingesDoNotBendBackwards on every scheme's rig: dropped face down
// from 1 m; or standing on the floor and struck the wrong way at frame 10 (ankles forward at 14 m/s, wrists
// backward at 28 m/s: what tst_angular's 40 N·s does to makeHumanoid's particles; scaled with the size for the
// toy). The flexion of every elbow and knee, measured from the particles about the hinge edge with the
// character's own front (not the constraint's numbers), never goes past straight by more than 1° (dropped)
// or 2.5° (struck).
void TestAutoRig::humanoid_hingesDoNotBendBackwards()
{
    QFETCH(int, row);
    QFETCH(bool, struck);
    const SyntheticCharacter c = rowCharacter(row);
    const AutoRigResult r = autoRig(c.input);
    QVERIFY2(r.ok, r.error.c_str());
    // Face down: the front turns to −Y (a rotation about the character's left axis), 1 m up.
    const Transform place = struck ? Transform{} : Transform{Quat::fromAxisAngle(c.left, radians(90.f)), {0.f, 1.f, 0.f}};
    Drop s = spawnOnFloor(r.rig, place);
    QVERIFY2(s.body, s.error.c_str());
    const std::vector<HingeProbe> probes = hingeProbes(r.rig, c.forward);
    const std::vector<Vec3> bind = bindPositions(r.rig);
    float sign[4], lowest[4];
    for (int k = 0; k < 4; ++k) {
        sign[k] = flexionSign(bind, probes[std::size_t(k)]);
        lowest[k] = flexion(bind, probes[std::size_t(k)], sign[k]);
    }
    const Vec3 forward = place.rotation.rotate(c.forward);
    const float size = humanoidRows()[std::size_t(row)].spec.height / 1.8f;
    auto strike = [&](const char* particle, Vec3 velocity) {
        const std::int32_t i = findByName(r.rig.particles, particle);
        return s.body->applyImpulse(std::uint32_t(i), velocity * r.rig.particles[std::size_t(i)].mass);
    };
    for (int n = 1; n <= 180; ++n) {
        if (n == 10 && struck) {
            QVERIFY(strike("ankle_l", forward * (14.f * size)) && strike("ankle_r", forward * (14.f * size)));
            QVERIFY(strike("wrist_l", forward * (-28.f * size)) && strike("wrist_r", forward * (-28.f * size)));
        }
        s.world->step();
        for (int k = 0; k < 4; ++k)
            lowest[k] = std::min(lowest[k], flexion(s.body->positions(), probes[std::size_t(k)], sign[k]));
    }
    const float tolerance = struck ? 2.5f : 1.f;
    QString all;
    bool ok = true;
    for (int k = 0; k < 4; ++k) {
        all += QStringLiteral(" %1 %2°;").arg(probes[std::size_t(k)].name, num(degrees(lowest[k])));
        ok = ok && degrees(lowest[k]) >= -tolerance;
    }
    QVERIFY2(ok, qPrintable(QStringLiteral("bent backwards beyond %1°:").arg(num(tolerance)) + all));
}

// Over 100 random drops (random yaw and tilt up to 86°, 0.3–2 m, as docs/physics.md measures the runtime's
// humanoid), the auto-rigs of two schemes are still moving faster than 5 cm/s after 10 s (sleep off) at most
// 5 times more than runtime::makeHumanoid() is (the outcome of one drop is chaotic; a few per cent of drops
// end with a limb vibrating against the body for either rig).
void TestAutoRig::humanoid_settlesAsOftenAsMakeHumanoid()
{
    auto stillMoving = [](const rig::RigDescription& d) {
        std::mt19937 rng(1);
        std::uniform_real_distribution<float> u(0.f, 1.f);
        int moving = 0;
        for (int i = 0; i < 100; ++i) {
            const float yaw = u(rng) * 2.f * kPi, tilt = u(rng) * radians(86.f), height = 0.3f + 1.7f * u(rng),
                        azimuth = u(rng) * 2.f * kPi;
            const Quat q = Quat::fromAxisAngle({0, 1, 0}, yaw) *
                           Quat::fromAxisAngle({std::cos(azimuth), 0, std::sin(azimuth)}, tilt);
            Drop s = spawnOnFloor(d, {q, {0.f, height, 0.f}});
            if (!s.body)
                return -1;
            const DropResult m = runDrop(s, 600);
            moving += m.finalSpeed >= 0.05f || !m.finite ? 1 : 0;
        }
        return moving;
    };
    const int reference = stillMoving(runtime::makeHumanoid());
    QVERIFY(reference >= 0);
    for (int row : {0, 3}) {
        const AutoRigResult r = autoRig(rowCharacter(row).input);
        QVERIFY2(r.ok, r.error.c_str());
        const int moving = stillMoving(r.rig);
        qInfo("%s: %d of 100 still moving at 10 s; makeHumanoid: %d", humanoidRows()[std::size_t(row)].name, moving, reference);
        QVERIFY2(moving >= 0 && moving <= reference + 5, qPrintable(QStringLiteral("%1 vs %2").arg(moving).arg(reference)));
    }
}

/// Angle at `center` between the arms to a and b, radians.
static float angleAt(std::span<const Vec3> x, const rig::AngleConstraint& c)
{
    const Vec3 u = x[std::size_t(c.a)] - x[std::size_t(c.center)], v = x[std::size_t(c.b)] - x[std::size_t(c.center)];
    return std::acos(std::clamp(dot(u, v) / (length(u) * length(v)), -1.f, 1.f));
}

/// The largest excess of the rig's law-of-cosines ranges at positions x, as the distance between the outer
/// particles beyond its range (what the constraint enforces; metres) and as the angle beyond its range.
struct BendExcess {
    float metres = 0.f, radians = 0.f;
};

static BendExcess worstBendExcess(std::span<const Vec3> x, const rig::RigDescription& d)
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

// A quadruped with animal names: generic template. The branch points (pelvis: spine, hind legs, tail; chest:
// neck, front legs) are triangles joined by a cone (90°: 45° for each joint between them); every other bone
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
    QCOMPARE(d.angular[0].limit, rig::AngularLimit::Cone);
    EXPECT_NEAR_REL(degrees(d.angular[0].coneAngle), 90.f, 1e-4f);
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
        float lowest = std::numeric_limits<float>::max();
        for (const rig::Particle& p : r.rig.particles)
            lowest = std::min(lowest, q.rotate(p.position).y - p.radius);
        Drop s = spawnOnFloor(r.rig, {q, {0.f, 2.f - lowest, 0.f}});
        QVERIFY2(s.body, s.error.c_str());
        const DropResult m = runDrop(s, 360);
        QVERIFY2(m.finite && m.lowest >= -0.01f, qPrintable(QStringLiteral("drop %1: ").arg(i) + describe(m)));
        moving += m.finalSpeed >= 0.05f ? 1 : 0;
    }
    QVERIFY2(moving <= 2, qPrintable(QStringLiteral("%1 of 30 still moving").arg(moving)));
}

void TestAutoRig::generic_tail_data()
{
    QTest::addColumn<int>("bones");
    QTest::newRow("1 bone") << 1;
    QTest::newRow("2 bones") << 2;
    QTest::newRow("8 bones") << 8;
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
