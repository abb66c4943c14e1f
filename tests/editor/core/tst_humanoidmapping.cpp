// Tests of mapHumanoid(): every naming scheme of docs/autorig.md mapped part by part (names first, the
// hierarchy where names are silent or ambiguous), and the skeletons it must not call human, each with the
// reason it gives.
#include "marionette/editor/autorig/HumanoidMapping.h"

#include <QtTest/QtTest>

#include <string>
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

QTEST_GUILESS_MAIN(TestHumanoidMapping)
#include "tst_humanoidmapping.moc"
