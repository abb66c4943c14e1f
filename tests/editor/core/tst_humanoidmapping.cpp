// Tests of mapHumanoid(): every naming scheme of docs/autorig.md mapped part by part (names first, the
// hierarchy where names are silent or ambiguous), and the skeletons it must not call human, each with the
// reason it gives.
#include "marionette/editor/autorig/HumanoidMapping.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "AutoRigTestSupport.h"

using namespace marionette;
using namespace marionette::editor;
using namespace marionette::test;

namespace {

QString boneName(const std::vector<rig::Bone>& skeleton, std::int32_t b)
{
    return b == rig::kNone ? QString() : QString::fromStdString(skeleton[std::size_t(b)].name);
}

std::vector<std::string> names(const std::vector<rig::Bone>& skeleton, const std::vector<std::int32_t>& bones)
{
    std::vector<std::string> out;
    for (std::int32_t b : bones)
        out.push_back(skeleton[std::size_t(b)].name);
    return out;
}

/// Joint-named skeleton (Kinect/BVH style: ShoulderLeft, ElbowLeft, WristLeft, HipLeft, KneeLeft, AnkleLeft).
std::vector<rig::Bone> jointStyleSkeleton()
{
    std::vector<rig::Bone> b;
    b.push_back(bone("SpineBase", rig::kNone, {0, 0.95f, 0}));
    b.push_back(bone("SpineMid", 0, {0, 1.2f, 0}));
    b.push_back(bone("Neck", 1, {0, 1.5f, 0}));
    b.push_back(bone("Head", 2, {0, 1.6f, 0}));
    for (const char* side : {"Left", "Right"}) {
        const float x = side[0] == 'L' ? 1.f : -1.f;
        const std::string s = side;
        const int at = int(b.size());
        b.push_back(bone("Shoulder" + s, 1, {0.17f * x, 1.45f, 0}));
        b.push_back(bone("Elbow" + s, at, {0.45f * x, 1.45f, 0}));
        b.push_back(bone("Wrist" + s, at + 1, {0.71f * x, 1.45f, 0}));
        b.push_back(bone("Hip" + s, 0, {0.09f * x, 0.92f, 0}));
        b.push_back(bone("Knee" + s, at + 3, {0.1f * x, 0.5f, 0}));
        b.push_back(bone("Ankle" + s, at + 4, {0.1f * x, 0.08f, 0}));
    }
    return b;
}

/// A skeleton laid out like Assimp's BCN_Epileptic.X (hierarchy_legsBesideTheSpineAndAnUnnamedHead).
std::vector<rig::Bone> bcnLikeSkeleton()
{
    std::vector<rig::Bone> b;
    auto add = [&](const char* name, const char* parent, Vec3 at) {
        int p = rig::kNone;
        for (std::size_t i = 0; i < b.size(); ++i)
            if (parent && b[i].name == parent)
                p = int(i);
        b.push_back(bone(name, p, at));
    };
    add("B_Root_Pelvis_L", nullptr, {0, 0.95f, 0});
    add("B_LowerPelvis", "B_Root_Pelvis_L", {0, 0.93f, 0});
    add("B_Root_Pelvis_T", "B_Root_Pelvis_L", {0, 0.95f, 0});
    add("B_Spine1", "B_Root_Pelvis_T", {0, 1.05f, 0});
    add("B_Spine4", "B_Spine1", {0, 1.35f, 0});
    add("B_Root_Neck_T", "B_Spine4", {0, 1.48f, 0});
    add("B_Root_Neck_H", "B_Root_Neck_T", {0, 1.55f, 0});
    add("B_Neck", "B_Root_Neck_H", {0, 1.6f, 0});
    for (const char* face : {"B_Jaw", "B_UpperLip", "B_Eye_Left", "B_Eye_Right", "B_PTail1"})
        add(face, "B_Neck", {0, 1.68f, 0.08f});
    for (const char* side : {"Left", "Right"}) {
        const float x = side[0] == 'L' ? 1.f : -1.f;
        const std::string s = side;
        add(("B_Hip_" + s).c_str(), "B_LowerPelvis", {0.09f * x, 0.92f, 0});
        add(("B_Knee_" + s).c_str(), ("B_Hip_" + s).c_str(), {0.1f * x, 0.5f, 0});
        add(("B_Ankle_" + s).c_str(), ("B_Knee_" + s).c_str(), {0.1f * x, 0.08f, 0});
        add(("B_Clavicle_" + s).c_str(), "B_Spine4", {0.03f * x, 1.45f, 0});
        add(("B_UpperArm_" + s).c_str(), ("B_Clavicle_" + s).c_str(), {0.19f * x, 1.45f, 0});
        add(("B_ForeArm_" + s).c_str(), ("B_UpperArm_" + s).c_str(), {0.46f * x, 1.45f, 0});
        add(("B_Hand_" + s).c_str(), ("B_ForeArm_" + s).c_str(), {0.72f * x, 1.45f, 0});
    }
    return b;
}

/// "" when `got` maps every part, spine, neck and clavicle chain to the same bones as `want`, else the first
/// difference.
QString sameParts(const std::vector<rig::Bone>& skeleton, const HumanoidMapping& want, const HumanoidMapping& got)
{
    for (std::size_t i = 0; i < kHumanoidPartCount; ++i)
        if (want.bones[i] != got.bones[i])
            return QStringLiteral("%1: bone %2 (%3), expected %4 (%5)")
                .arg(toString(HumanoidPart(i)))
                .arg(got.bones[i])
                .arg(boneName(skeleton, got.bones[i]))
                .arg(want.bones[i])
                .arg(boneName(skeleton, want.bones[i]));
    if (want.spine != got.spine || want.neck != got.neck || want.clavicleL != got.clavicleL || want.clavicleR != got.clavicleR)
        return QStringLiteral("the spine, neck or clavicle chains differ");
    return {};
}

/// The skeletons the tests above map by their names: every humanoid row, the joint-named and the BCN-like one.
std::vector<std::pair<QString, std::vector<rig::Bone>>> namedSkeletons()
{
    std::vector<std::pair<QString, std::vector<rig::Bone>>> out;
    for (const HumanoidRow& row : humanoidRows())
        out.emplace_back(QString::fromLatin1(row.name), makeHumanoidCharacter(row.spec).input.skeleton);
    out.emplace_back(QStringLiteral("joint-style names"), jointStyleSkeleton());
    out.emplace_back(QStringLiteral("BCN-like hierarchy"), bcnLikeSkeleton());
    return out;
}

/// `skeleton` without the bone called `name` and everything below it (parents re-indexed).
std::vector<rig::Bone> withoutBranch(const std::vector<rig::Bone>& skeleton, const std::string& name)
{
    std::vector<int> index(skeleton.size(), -1);
    std::vector<char> gone(skeleton.size(), 0);
    std::vector<rig::Bone> out;
    for (std::size_t i = 0; i < skeleton.size(); ++i) {
        const int p = skeleton[i].parent;
        gone[i] = skeleton[i].name == name || (p >= 0 && gone[std::size_t(p)]);
        if (gone[i])
            continue;
        index[i] = int(out.size());
        out.push_back(skeleton[i]);
        out.back().parent = p >= 0 ? index[std::size_t(p)] : rig::kNone;
    }
    return out;
}

Vec3 jointOf(const std::vector<rig::Bone>& skeleton, std::int32_t b)
{
    const Mat4& m = skeleton[std::size_t(b)].bindWorld;
    return {m.m[12], m.m[13], m.m[14]};
}

} // namespace

class TestHumanoidMapping : public QObject {
    Q_OBJECT

private slots:
    void scheme_mapsEveryPart_data();
    void scheme_mapsEveryPart();
    void scheme_spineNeckAndClavicles();
    void names_deformBonesWinOverOrgBones();
    void names_jointStyleNamesAreUnderstood();
    void hierarchy_legsBesideTheSpineAndAnUnnamedHead();
    void incomplete_saysWhatIsMissing_data();
    void incomplete_saysWhatIsMissing();
    void shape_scrambledNamesMapLikeNames_data();
    void shape_scrambledNamesMapLikeNames();
    void shape_leftIsTheCharactersLeftInAnyIndexOrder_data();
    void shape_leftIsTheCharactersLeftInAnyIndexOrder();
    void shape_extraBonesDoNotConfuseIt();
    void shape_notHumanoid_data();
    void shape_notHumanoid();
    void shape_completesPartialNames();
    void shape_sideNamesDecideLeftWithoutOtherCues();
    void shape_doesNotFinishALimbTheNamesBegan();
    void shape_twoBodiesAreAmbiguous();
};

void TestHumanoidMapping::scheme_mapsEveryPart_data()
{
    QTest::addColumn<int>("row");
    const auto rows = humanoidRows();
    for (std::size_t i = 0; i < rows.size(); ++i)
        QTest::newRow(rows[i].name) << int(i);
}

// Each scheme's synthetic character (AutoRigTestSupport.h) is mapped completely, and every one of the 17
// parts is the bone the scheme uses for it (spine: the lowest bone between pelvis and chest, or none).
void TestHumanoidMapping::scheme_mapsEveryPart()
{
    QFETCH(int, row);
    const SyntheticCharacter c = makeHumanoidCharacter(humanoidRows()[std::size_t(row)].spec);
    const HumanoidMapping m = mapHumanoid(c.input.skeleton);
    QVERIFY2(m.complete(), m.problem.c_str());
    QVERIFY(m.missing().empty());
    for (std::size_t i = 0; i < kHumanoidPartCount; ++i) {
        const HumanoidPart part = HumanoidPart(i);
        const QString got = boneName(c.input.skeleton, m[part]);
        const QString want = QString::fromStdString(c.expected.at(part));
        QVERIFY2(got == want, qPrintable(QStringLiteral("%1: mapped to '%2', expected '%3'").arg(toString(part), got, want)));
    }
}

// The chains between the parts: Mixamo's spine runs Spine, Spine1 below the chest Spine2; the Biped's
// clavicles hang from the neck, which stays on the neck chain and is not a clavicle; Rigify's neck has two
// bones (spine.004, spine.005).
void TestHumanoidMapping::scheme_spineNeckAndClavicles()
{
    HumanoidSpec s;
    s.scheme = Scheme::Mixamo;
    SyntheticCharacter c = makeHumanoidCharacter(s);
    HumanoidMapping m = mapHumanoid(c.input.skeleton);
    QCOMPARE(names(c.input.skeleton, m.spine), (std::vector<std::string>{"mixamorig:Spine", "mixamorig:Spine1"}));
    QCOMPARE(names(c.input.skeleton, m.neck), (std::vector<std::string>{"mixamorig:Neck"}));
    QCOMPARE(names(c.input.skeleton, m.clavicleL), (std::vector<std::string>{"mixamorig:LeftShoulder"}));

    s.scheme = Scheme::Biped;
    c = makeHumanoidCharacter(s);
    m = mapHumanoid(c.input.skeleton);
    QCOMPARE(names(c.input.skeleton, m.neck), (std::vector<std::string>{"Bip01 Neck"}));
    QCOMPARE(names(c.input.skeleton, m.clavicleR), (std::vector<std::string>{"Bip01 R Clavicle"}));
    QCOMPARE(names(c.input.skeleton, m.spine), (std::vector<std::string>{"Bip01 Spine", "Bip01 Spine1"}));

    s.scheme = Scheme::Rigify;
    c = makeHumanoidCharacter(s);
    m = mapHumanoid(c.input.skeleton);
    QCOMPARE(names(c.input.skeleton, m.neck),
             (std::vector<std::string>{"Armature|DEF-spine.004", "Armature|DEF-spine.005"}));
}

// A Rigify export with both ORG- and DEF- chains (ORG first in the file): the deform bones are mapped.
void TestHumanoidMapping::names_deformBonesWinOverOrgBones()
{
    HumanoidSpec s;
    s.scheme = Scheme::Rigify;
    SyntheticCharacter c = makeHumanoidCharacter(s);
    std::vector<rig::Bone> org;
    for (const rig::Bone& b : c.input.skeleton) {
        rig::Bone o = b;
        std::string n = o.name;
        n.replace(n.find("DEF-"), 4, "ORG-");
        o.name = n;
        org.push_back(o);
    }
    const int offset = int(org.size());
    for (rig::Bone b : c.input.skeleton) {
        b.parent = b.parent == rig::kNone ? rig::kNone : b.parent + offset;
        org.push_back(b);
    }
    const HumanoidMapping m = mapHumanoid(org);
    QVERIFY2(m.complete(), m.problem.c_str());
    for (HumanoidPart p : {HumanoidPart::UpperArmL, HumanoidPart::ForearmR, HumanoidPart::ThighL, HumanoidPart::FootR,
                           HumanoidPart::Pelvis, HumanoidPart::Head}) {
        const QString got = boneName(org, m[p]);
        QVERIFY2(got.contains(QStringLiteral("DEF-")), qPrintable(QStringLiteral("%1 -> %2").arg(toString(p), got)));
    }
}

// Joint-named skeletons (Kinect/BVH style: ShoulderLeft, ElbowLeft, WristLeft, HipLeft, KneeLeft,
// AnkleLeft) map: the shoulder is the upper arm when nothing else is, the elbow the forearm, and so on.
void TestHumanoidMapping::names_jointStyleNamesAreUnderstood()
{
    const std::vector<rig::Bone> b = jointStyleSkeleton();
    const HumanoidMapping m = mapHumanoid(b);
    QVERIFY2(m.complete(), m.problem.c_str());
    QCOMPARE(boneName(b, m[HumanoidPart::Pelvis]), QStringLiteral("SpineBase"));
    QCOMPARE(boneName(b, m[HumanoidPart::Chest]), QStringLiteral("SpineMid"));
    QCOMPARE(boneName(b, m[HumanoidPart::UpperArmL]), QStringLiteral("ShoulderLeft"));
    QCOMPARE(boneName(b, m[HumanoidPart::ForearmR]), QStringLiteral("ElbowRight"));
    QCOMPARE(boneName(b, m[HumanoidPart::HandL]), QStringLiteral("WristLeft"));
    QCOMPARE(boneName(b, m[HumanoidPart::ThighR]), QStringLiteral("HipRight"));
    QCOMPARE(boneName(b, m[HumanoidPart::CalfL]), QStringLiteral("KneeLeft"));
    QCOMPARE(boneName(b, m[HumanoidPart::FootR]), QStringLiteral("AnkleRight"));
}

// A skeleton laid out like Assimp's BCN_Epileptic.X: "B_" prefixes, joint-style leg names, the legs and
// the spine hanging from the root through two different bones, and no bone called head (the head bone is
// "B_Neck", with the face bones fanning out of it). The pelvis is where legs and spine meet, the head is
// where the face bones fan out, the bones between chest and head are the neck.
void TestHumanoidMapping::hierarchy_legsBesideTheSpineAndAnUnnamedHead()
{
    const std::vector<rig::Bone> b = bcnLikeSkeleton();
    const HumanoidMapping m = mapHumanoid(b);
    QVERIFY2(m.complete(), m.problem.c_str());
    QCOMPARE(boneName(b, m[HumanoidPart::Pelvis]), QStringLiteral("B_Root_Pelvis_L"));
    QCOMPARE(boneName(b, m[HumanoidPart::Spine]), QStringLiteral("B_Root_Pelvis_T"));
    QCOMPARE(boneName(b, m[HumanoidPart::Chest]), QStringLiteral("B_Spine4"));
    QCOMPARE(boneName(b, m[HumanoidPart::Neck]), QStringLiteral("B_Root_Neck_T"));
    QCOMPARE(boneName(b, m[HumanoidPart::Head]), QStringLiteral("B_Neck"));
    QCOMPARE(names(b, m.neck), (std::vector<std::string>{"B_Root_Neck_T", "B_Root_Neck_H"}));
    QCOMPARE(boneName(b, m[HumanoidPart::UpperArmR]), QStringLiteral("B_UpperArm_Right"));
    QCOMPARE(boneName(b, m[HumanoidPart::ThighL]), QStringLiteral("B_Hip_Left"));
    QCOMPARE(boneName(b, m[HumanoidPart::CalfR]), QStringLiteral("B_Knee_Right"));
    QCOMPARE(boneName(b, m[HumanoidPart::FootL]), QStringLiteral("B_Ankle_Left"));
}

void TestHumanoidMapping::incomplete_saysWhatIsMissing_data()
{
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("problem");
    QTest::newRow("tail") << 0 << QStringLiteral("missing pelvis, chest, head, upperarm_l, forearm_l, hand_l, upperarm_r, "
                                                 "forearm_r, hand_r, thigh_l, calf_l, foot_l, thigh_r, calf_r, foot_r");
    QTest::newRow("quadruped") << 1 << QStringLiteral("missing pelvis, chest, head, upperarm_l, forearm_l, hand_l, upperarm_r, "
                                                      "forearm_r, hand_r, thigh_l, calf_l, foot_l, thigh_r, calf_r, foot_r");
    QTest::newRow("quadruped with Mixamo names") << 2 << QStringLiteral("the legs do not point away from the head");
    QTest::newRow("Mixamo without the left hand") << 3 << QStringLiteral("missing hand_l");
    QTest::newRow("left and right swapped on the legs") << 4
                                                        << QStringLiteral("left and right are swapped between the arms and the legs");
    QTest::newRow("empty") << 5 << QStringLiteral("the skeleton is empty");
}

// Skeletons that are not complete humans: the problem names every missing required part in enum order, or
// the shape check that failed.
void TestHumanoidMapping::incomplete_saysWhatIsMissing()
{
    QFETCH(int, which);
    QFETCH(QString, problem);
    std::vector<rig::Bone> b;
    if (which == 0)
        b = makeTail(6).skeleton;
    else if (which == 1 || which == 2)
        b = makeQuadruped(which == 2).skeleton;
    else if (which == 3 || which == 4) {
        HumanoidSpec s;
        s.scheme = Scheme::Mixamo;
        b = makeHumanoidCharacter(s).input.skeleton;
        for (rig::Bone& x : b) {
            if (which == 3 && x.name == "mixamorig:LeftHand")
                x.name = "mixamorig:LeftPalm";
            const bool legChain = x.name.find("Leg") != std::string::npos || x.name.find("Foot") != std::string::npos ||
                                  x.name.find("Toe") != std::string::npos;
            if (which == 4 && legChain) // LeftUpLeg <-> RightUpLeg, ...
                x.name = x.name.find("Left") != std::string::npos ? x.name.replace(x.name.find("Left"), 4, "Right")
                                                                 : x.name.replace(x.name.find("Right"), 5, "Left");
        }
    }
    const HumanoidMapping m = mapHumanoid(b);
    QVERIFY(!m.complete());
    QCOMPARE(QString::fromStdString(m.problem), problem);
}

void TestHumanoidMapping::shape_scrambledNamesMapLikeNames_data()
{
    QTest::addColumn<int>("which");
    QTest::addColumn<int>("seed");
    const auto skeletons = namedSkeletons();
    for (std::size_t i = 0; i < skeletons.size(); ++i)
        for (int seed : {0, 7})
            QTest::newRow(qPrintable(QStringLiteral("%1, %2").arg(skeletons[i].first, seed ? QStringLiteral("shuffled names")
                                                                                         : QStringLiteral("b0..bN"))))
                << int(i) << seed;
}

// The target: every skeleton mapped by its names above, its names replaced by meaningless ones ("b0".."bN"
// or a shuffle of names like "qzvk17") and hierarchy and bind pose kept, maps by its shape to exactly the same
// bone for every part, the same spine, neck and clavicle chains, and says it came from the shape.
void TestHumanoidMapping::shape_scrambledNamesMapLikeNames()
{
    QFETCH(int, which);
    QFETCH(int, seed);
    const std::vector<rig::Bone> skeleton = namedSkeletons()[std::size_t(which)].second;
    const HumanoidMapping byNames = mapHumanoid(skeleton);
    QVERIFY2(byNames.complete(), byNames.problem.c_str());
    QVERIFY(!byNames.fromTopology);
    const std::vector<rig::Bone> scrambled = scrambleNames(skeleton, unsigned(seed));
    const HumanoidMapping m = mapHumanoid(scrambled);
    QVERIFY2(m.complete(), qPrintable(QString::fromStdString(m.problem + " / by shape: " + m.shapeProblem)));
    QVERIFY(m.fromTopology);
    QCOMPARE(m.byShape.size(), std::size_t(std::count_if(m.bones.begin(), m.bones.end(), [](std::int32_t b) { return b != rig::kNone; })));
    QCOMPARE(sameParts(skeleton, byNames, m), QString());
}

void TestHumanoidMapping::shape_leftIsTheCharactersLeftInAnyIndexOrder_data()
{
    QTest::addColumn<int>("row");
    const auto rows = humanoidRows();
    for (std::size_t i = 0; i < rows.size(); ++i)
        QTest::newRow(rows[i].name) << int(i);
}

// Mirrored: the right side's bones come before the left side's in the skeleton, then the names are scrambled.
// Left is still the character's left, judged by geometry: the left hand, upper arm, thigh and foot lie on the
// side of the character's left given its facing (+Z or -Z, T- or A-pose), and the parts are the names' parts.
void TestHumanoidMapping::shape_leftIsTheCharactersLeftInAnyIndexOrder()
{
    QFETCH(int, row);
    const SyntheticCharacter c = makeHumanoidCharacter(humanoidRows()[std::size_t(row)].spec);
    const std::vector<rig::Bone> swapped = rightBeforeLeft(c.input, c.left).skeleton;
    for (std::size_t i = 0; i < swapped.size(); ++i)
        QVERIFY(swapped[i].parent < int(i));
    const HumanoidMapping byNames = mapHumanoid(swapped);
    QVERIFY2(byNames.complete(), byNames.problem.c_str());
    const std::vector<rig::Bone> scrambled = scrambleNames(swapped, 11);
    const HumanoidMapping m = mapHumanoid(scrambled);
    QVERIFY2(m.complete(), m.shapeProblem.c_str());
    QVERIFY(m.fromTopology);
    QCOMPARE(sameParts(swapped, byNames, m), QString());
    const Vec3 pelvis = jointOf(scrambled, m[HumanoidPart::Pelvis]);
    for (HumanoidPart part : {HumanoidPart::HandL, HumanoidPart::UpperArmL, HumanoidPart::ThighL, HumanoidPart::FootL}) {
        const float side = dot(jointOf(scrambled, m[part]) - pelvis, c.left);
        QVERIFY2(side > 0.f, qPrintable(QStringLiteral("%1 is %2 m toward the character's left").arg(toString(part), num(side))));
    }
}

// A humanoid with everything a game character carries (the Unreal mannequin's twist and IK bones, five
// three-bone fingers per hand, two toes per foot, a weapon bone in the right hand, two hair strands from
// the head and a tail from the pelvis, reaching back and down to knee height), its names scrambled: the
// shape maps it like the names do, and no tail bone is taken for a leg.
void TestHumanoidMapping::shape_extraBonesDoNotConfuseIt()
{
    HumanoidSpec spec;
    spec.scheme = Scheme::Unreal;
    std::vector<rig::Bone> b = makeHumanoidCharacter(spec).input.skeleton;
    auto index = [&](const std::string& name) { return int(findByName(b, name)); };
    auto chain = [&](const std::string& prefix, int parent, Vec3 from, Vec3 step, int count) {
        for (int k = 0; k < count; ++k) {
            b.push_back(bone(prefix + std::to_string(k + 1), parent, from + step * float(k)));
            parent = int(b.size()) - 1;
        }
    };
    for (const char* side : {"l", "r"}) {
        const float x = side[0] == 'l' ? 1.f : -1.f;
        const std::string s = side;
        const int hand = index("hand_" + s), foot = index("foot_" + s);
        const char* fingers[] = {"middle_", "ring_", "pinky_"};
        for (int f = 0; f < 3; ++f)
            chain(std::string(fingers[f]) + s + "_", hand, {x * 0.80f, 1.45f, -0.02f - 0.02f * float(f)}, {x * 0.03f, 0.f, 0.f}, 3);
        chain("toe_big_" + s + "_", foot, {x * 0.09f, 0.02f, 0.12f}, {0.f, 0.f, 0.03f}, 2);
        chain("toe_small_" + s + "_", foot, {x * 0.12f, 0.02f, 0.11f}, {0.f, 0.f, 0.025f}, 2);
        chain("hair_" + s + "_", index("head"), {x * 0.06f, 1.72f, -0.08f}, {x * 0.02f, -0.08f, -0.02f}, 4);
    }
    b.push_back(bone("weapon_r", index("hand_r"), {-0.76f, 1.42f, 0.05f}));
    chain("tail_", index("pelvis"), {0.f, 0.9f, -0.12f}, {0.f, -0.1f, -0.14f}, 6);
    const HumanoidMapping byNames = mapHumanoid(b);
    QVERIFY2(byNames.complete(), byNames.problem.c_str());
    const std::vector<rig::Bone> scrambled = scrambleNames(b, 5);
    const HumanoidMapping m = mapHumanoid(scrambled);
    QVERIFY2(m.complete(), m.shapeProblem.c_str());
    QCOMPARE(sameParts(b, byNames, m), QString());
    for (HumanoidPart part : {HumanoidPart::ThighL, HumanoidPart::CalfL, HumanoidPart::FootL, HumanoidPart::ThighR,
                              HumanoidPart::CalfR, HumanoidPart::FootR})
        QVERIFY2(b[std::size_t(m[part])].name.rfind("tail_", 0) != 0, toString(part));
}

void TestHumanoidMapping::shape_notHumanoid_data()
{
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("shapeProblem");
    QTest::newRow("quadruped (dog.mskel)") << 0 << QStringLiteral("the legs do not point away from the head");
    QTest::newRow("quadruped, scrambled names") << 1 << QStringLiteral("the legs do not point away from the head");
    QTest::newRow("snake (a 24-bone chain)") << 2 << QString();
    QTest::newRow("tree of random branches") << 3 << QStringLiteral("no two limbs of three or more bones mirror each other below one bone");
    QTest::newRow("humanoid missing its left arm")
        << 4 << QStringLiteral("only one pair of limbs (below 'b0'); a humanoid has two, legs and arms");
}

// Skeletons that are not humans stay unmapped: the names' problem is unchanged ("missing ..." with every
// required part, since none of these names a limb) and the shape says why it is not a human either; a
// chain that never branches into limbs has no shape to read (shapeProblem empty).
void TestHumanoidMapping::shape_notHumanoid()
{
    QFETCH(int, which);
    QFETCH(QString, shapeProblem);
    std::vector<rig::Bone> b;
    switch (which) {
    case 0: b = makeQuadruped(false).skeleton; break;
    case 1: b = scrambleNames(makeQuadruped(false).skeleton); break;
    case 2: b = scrambleNames(makeTail(24).skeleton); break;
    case 3: {
        std::mt19937 rng(2024);
        std::uniform_real_distribution<float> u(-1.f, 1.f);
        b.push_back(bone("b0", rig::kNone, {0.f, 1.f, 0.f}));
        for (int i = 1; i < 60; ++i) {
            const int parent = int(rng() % std::uint32_t(b.size()));
            const Vec3 at = jointOf(b, parent) + Vec3{u(rng), u(rng), u(rng)} * 0.2f;
            b.push_back(bone(std::to_string(i), parent, at));
        }
        b = scrambleNames(b);
        break;
    }
    case 4: {
        HumanoidSpec s;
        s.scheme = Scheme::Mixamo;
        b = scrambleNames(withoutBranch(makeHumanoidCharacter(s).input.skeleton, "mixamorig:LeftShoulder"));
        break;
    }
    default: break;
    }
    const HumanoidMapping m = mapHumanoid(b);
    QVERIFY(!m.complete());
    QVERIFY(!m.fromTopology);
    QVERIFY2(QString::fromStdString(m.problem).startsWith(QStringLiteral("missing pelvis, chest, head, ")), m.problem.c_str());
    qInfo("problem: %s; by shape: %s", m.problem.c_str(), m.shapeProblem.c_str());
    QCOMPARE(QString::fromStdString(m.shapeProblem), shapeProblem);
}

// Partial names: a Mixamo skeleton whose legs are named in another language (no side word) maps its arms,
// head and names by name; the shape completes pelvis, spine, chest and legs, agreeing with every named part,
// and the result is the full names' mapping. byShape lists what the shape added.
void TestHumanoidMapping::shape_completesPartialNames()
{
    HumanoidSpec s;
    s.scheme = Scheme::Mixamo;
    const std::vector<rig::Bone> full = makeHumanoidCharacter(s).input.skeleton;
    const HumanoidMapping byNames = mapHumanoid(full);
    std::vector<rig::Bone> b = full;
    const std::vector<std::pair<std::string, std::string>> spanish = {
        {"UpLeg", "Muslo"}, {"Leg", "Pierna"}, {"Foot", "Pie"}, {"ToeBase", "Dedos"}, {"Toe_End", "Punta"}};
    for (rig::Bone& x : b)
        for (const auto& [en, es] : spanish)
            for (const char* side : {"Left", "Right"})
                if (x.name == std::string("mixamorig:").append(side).append(en)) {
                    x.name = es;
                    x.name.append(side[0] == 'L' ? "Izquierdo" : "Derecho");
                }
    const HumanoidMapping m = mapHumanoid(b);
    QVERIFY2(m.complete(), qPrintable(QString::fromStdString(m.problem + " / by shape: " + m.shapeProblem)));
    QVERIFY(m.fromTopology);
    QStringList byShape;
    for (HumanoidPart p : m.byShape)
        byShape << QString::fromLatin1(toString(p));
    QCOMPARE(byShape.join(QLatin1Char(' ')), QStringLiteral("pelvis spine chest neck thigh_l calf_l foot_l thigh_r calf_r foot_r"));
    QCOMPARE(sameParts(full, byNames, m), QString());
}

// Side words in names of another language ("Hombro_L") decide left and right when nothing else can: the
// joint-style skeleton turned to face -Z has no toes and straight limbs, so without names the standard
// forward axis (+Z) would make its left the right. With the side words its left hand is "Muneca_L"; the
// same skeleton scrambled falls back to +Z, documented.
void TestHumanoidMapping::shape_sideNamesDecideLeftWithoutOtherCues()
{
    std::vector<rig::Bone> b = jointStyleSkeleton();
    const std::vector<std::pair<std::string, std::string>> spanish = {
        {"SpineBase", "Base"}, {"SpineMid", "Medio"}, {"Neck", "Cuello"}, {"Head", "Cabeza"}, {"Shoulder", "Hombro"},
        {"Elbow", "Codo"}, {"Wrist", "Muneca"}, {"Hip", "Cadera"}, {"Knee", "Rodilla"}, {"Ankle", "Tobillo"}};
    for (rig::Bone& x : b) {
        for (const auto& [en, es] : spanish)
            if (x.name.rfind(en, 0) == 0) {
                const std::string rest = x.name.substr(en.size());
                x.name = es;
                x.name.append(rest == "Left" ? "_L" : rest == "Right" ? "_R" : "");
                break;
            }
        x.bindWorld.m[12] = -x.bindWorld.m[12]; // turned 180° about +Y: facing -Z, its left is -X
        x.bindWorld.m[14] = -x.bindWorld.m[14];
        invertAffine(x.bindWorld, x.inverseBind);
    }
    const HumanoidMapping m = mapHumanoid(b);
    QVERIFY2(m.complete(), m.shapeProblem.c_str());
    QVERIFY(m.fromTopology);
    QCOMPARE(boneName(b, m[HumanoidPart::HandL]), QStringLiteral("Muneca_L"));
    QCOMPARE(boneName(b, m[HumanoidPart::ThighR]), QStringLiteral("Cadera_R"));
    QCOMPARE(boneName(b, m[HumanoidPart::Head]), QStringLiteral("Cabeza"));
    const std::vector<rig::Bone> scrambled = scrambleNames(b);
    const HumanoidMapping blind = mapHumanoid(scrambled);
    QVERIFY2(blind.complete(), blind.shapeProblem.c_str());
    QVERIFY(jointOf(scrambled, blind[HumanoidPart::HandL]).x > 0.f);
}

// Names that map part of a limb are not finished by the shape: Mixamo with LeftHand renamed LeftPalm stays
// "missing hand_l" (incomplete_saysWhatIsMissing), and the shape says why it did not take LeftPalm.
void TestHumanoidMapping::shape_doesNotFinishALimbTheNamesBegan()
{
    HumanoidSpec s;
    s.scheme = Scheme::Mixamo;
    std::vector<rig::Bone> b = makeHumanoidCharacter(s).input.skeleton;
    b[std::size_t(findByName(b, "mixamorig:LeftHand"))].name = "mixamorig:LeftPalm";
    const HumanoidMapping m = mapHumanoid(b);
    QVERIFY(!m.complete());
    QVERIFY(!m.fromTopology);
    QCOMPARE(QString::fromStdString(m.problem), QStringLiteral("missing hand_l"));
    QCOMPARE(QString::fromStdString(m.shapeProblem),
             QStringLiteral("the names map upperarm_l, forearm_l but not hand_l: the shape does not finish a limb the names began"));
}

// Two bodies that read alike (a Rigify export's ORG- and DEF- skeletons, which names tell apart) are
// ambiguous once the names are scrambled: the shape refuses rather than pick one.
void TestHumanoidMapping::shape_twoBodiesAreAmbiguous()
{
    HumanoidSpec s;
    s.scheme = Scheme::Rigify;
    std::vector<rig::Bone> b = makeHumanoidCharacter(s).input.skeleton;
    const int offset = int(b.size());
    for (int i = 0; i < offset; ++i) {
        rig::Bone copy = b[std::size_t(i)];
        copy.parent = copy.parent == rig::kNone ? rig::kNone : copy.parent + offset;
        b.push_back(copy);
    }
    const HumanoidMapping m = mapHumanoid(scrambleNames(b));
    QVERIFY(!m.complete());
    QVERIFY2(QString::fromStdString(m.shapeProblem).startsWith(QStringLiteral("the shape reads two ways: legs below 'b0'")),
             m.shapeProblem.c_str());
}

QTEST_GUILESS_MAIN(TestHumanoidMapping)
#include "tst_humanoidmapping.moc"
