// Rig transfer (RigTransfer.h): the mannequin sample's rig moved onto copies of its character with limbs
// scaled 0.8–1.25 (ScaledCharacter.h). Every particle must land within 1 cm of where the auto-rig puts it
// on the scaled character, the rig must validate, keep its ids and mass total, and a 2 m drop onto the floor
// must stay finite, settle within 10 s and hold sticks within 2 % and angular limits within 2° (the figures
// `marionette simulate --json` reports, measured by the same RunFigures). Bad input is refused by one line.
#include "marionette/editor/autorig/RigTransfer.h"
#include "marionette/editor/autorig/SceneInput.h"
#include "marionette/editor/preview/RunFigures.h"
#include "marionette/import/Import.h"
#include "marionette/project/ProjectFile.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include "ScaledCharacter.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace marionette;

namespace {

const QString kProject = QStringLiteral(MARIONETTE_SAMPLES "/characters/mannequin/mannequin.mproj");
constexpr float kCentimetre = 0.01f;

struct DropFigures {
    bool finite = false;
    float settleSeconds = -1.f, stickError = 0.f, limitDegrees = 0.f;
};

/// `marionette simulate --drop 2 --frames 600 --json` on `d`: the bind pose's lowest point 2 m above the
/// floor, 10 s, sleep off.
DropFigures dropTwoMetres(const rig::RigDescription& d)
{
    DropFigures f;
    std::string error;
    const auto rig = runtime::Rig::build(d, &error);
    if (!rig)
        qFatal("Rig::build: %s", error.c_str());
    runtime::WorldSettings ws;
    ws.timeStep = rig->settings().timeStep;
    ws.sleep = false;
    runtime::World world(ws);
    editor::RunFigures figures(editor::buildTestScene(world, project::Scene::Floor));
    runtime::Ragdoll* r =
        world.ragdoll(world.spawn(rig, Transform{Quat{}, {0.f, 2.f - editor::bindBottom(*rig), 0.f}}, {}, &error));
    if (!r)
        qFatal("spawn: %s", error.c_str());
    const float dt = ws.timeStep;
    const long frames = std::lround(10.0 / double(dt));
    for (long n = 1; n <= frames; ++n) {
        world.step();
        figures.measure(*r, float(n) * dt, dt);
    }
    f.finite = figures.finite();
    f.settleSeconds = figures.settledAt();
    f.stickError = figures.worstStickError();
    f.limitDegrees = degrees(figures.worstLimitExcess());
    return f;
}

float worstDistance(const rig::RigDescription& a, const rig::RigDescription& b, std::string* worstName = nullptr)
{
    float worst = 0.f;
    for (std::size_t i = 0; i < a.particles.size() && i < b.particles.size(); ++i) {
        const float d = length(a.particles[i].position - b.particles[i].position);
        if (d >= worst && worstName)
            *worstName = a.particles[i].name;
        worst = std::max(worst, d);
    }
    return worst;
}

template <class T>
std::vector<rig::ElementId> idsOf(const std::vector<T>& v)
{
    std::vector<rig::ElementId> ids;
    for (const T& e : v)
        ids.push_back(e.id);
    return ids;
}

} // namespace

class TestRigTransfer : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void identity_reproducesTheRig();
    void scaledLimbs_particlesWhereTheAutoRigPutsThem_data();
    void scaledLimbs_particlesWhereTheAutoRigPutsThem();
    void otherNamingScheme_pairsBonesByHumanoidParts();
    void map_pairsRenamedBones();
    void missingBone_reportedWithTheParticleFallbackAndTheDroppedBinding();
    void totalMass_rescalesTheMasses();
    void badInput_refusedWithOneLine_data();
    void badInput_refusedWithOneLine();

private:
    editor::RigTransferResult transfer(const import::ImportedScene& target, const editor::RigTransferOptions& o = {})
    {
        return editor::transferRig(mProject.rig, mSourceInput, editor::autoRigInputFromScene(target), o);
    }

    project::Project mProject;
    import::ImportedScene mMesh;
    editor::AutoRigInput mSourceInput;
};

void TestRigTransfer::initTestCase()
{
    const project::LoadResult loaded = project::loadProject(kProject, mProject);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error));
    import::ImportOptions options;
    options.scale = float(mProject.import.scaleToMetres);
    import::ImportResult imported = import::importScene(mProject.sourceMesh.resolve(kProject).toStdString(), options);
    QVERIFY2(imported.ok(), imported.error.c_str());
    mMesh = std::move(imported.scene);
    mSourceInput = editor::autoRigInputFromScene(mMesh);
    // The sample's rig is the auto-rig's on its mesh, so "where the auto-rig puts it" is a fair reference.
    const editor::AutoRigResult own = editor::autoRig(mSourceInput);
    QVERIFY2(own.ok, own.error.c_str());
    QVERIFY(worstDistance(own.rig, mProject.rig) < 1e-4f);
}

void TestRigTransfer::identity_reproducesTheRig()
{
    const editor::RigTransferResult r = transfer(mMesh);
    QVERIFY2(r.ok, r.error.c_str());
    QVERIFY(r.unmappedSource.empty() && r.unmappedTarget.empty() && r.dropped.empty() && r.fallbacks.empty());
    const rig::RigDescription& a = mProject.rig;
    const rig::RigDescription& b = r.rig;
    QCOMPARE(b.particles.size(), a.particles.size());
    for (std::size_t i = 0; i < a.particles.size(); ++i) {
        QVERIFY2(length(a.particles[i].position - b.particles[i].position) < 1e-4f, a.particles[i].name.c_str());
        QVERIFY(std::fabs(a.particles[i].radius - b.particles[i].radius) < 1e-4f);
        QVERIFY(std::fabs(a.particles[i].mass - b.particles[i].mass) < 1e-4f);
        QCOMPARE(b.particles[i].bone, a.particles[i].bone);
    }
    for (std::size_t i = 0; i < a.sticks.size(); ++i) {
        QVERIFY(std::fabs(a.sticks[i].minLength - b.sticks[i].minLength) < 1e-4f);
        QVERIFY(std::fabs(a.sticks[i].capsuleRadius - b.sticks[i].capsuleRadius) < 1e-4f);
    }
    QCOMPARE(idsOf(b.bones), idsOf(a.bones));
    QCOMPARE(idsOf(b.bindings), idsOf(a.bindings));
    QVERIFY(r.largestMove < 1e-4f);
}

void TestRigTransfer::scaledLimbs_particlesWhereTheAutoRigPutsThem_data()
{
    QTest::addColumn<float>("armL");
    QTest::addColumn<float>("armR");
    QTest::addColumn<float>("legL");
    QTest::addColumn<float>("legR");
    QTest::addColumn<float>("spine");
    QTest::addColumn<float>("neck");
    QTest::newRow("long arms, short legs") << 1.25f << 1.25f << 0.8f << 0.8f << 1.1f << 0.9f;
    QTest::newRow("short arms, long legs") << 0.8f << 0.8f << 1.25f << 1.25f << 0.9f << 1.2f;
    QTest::newRow("all 1.25") << 1.25f << 1.25f << 1.25f << 1.25f << 1.25f << 1.25f;
    QTest::newRow("all 0.8") << 0.8f << 0.8f << 0.8f << 0.8f << 0.8f << 0.8f;
    QTest::newRow("lopsided") << 1.2f << 0.85f << 0.9f << 1.15f << 1.f << 1.25f;
    QTest::newRow("long trunk, short legs") << 1.f << 1.f << 0.8f << 0.8f << 1.25f << 0.8f;
}

void TestRigTransfer::scaledLimbs_particlesWhereTheAutoRigPutsThem()
{
    QFETCH(float, armL);
    QFETCH(float, armR);
    QFETCH(float, legL);
    QFETCH(float, legR);
    QFETCH(float, spine);
    QFETCH(float, neck);
    const import::ImportedScene target =
        test::scaledScene(mMesh, test::mannequinFactors(mMesh.skeleton, {armL, armR, legL, legR, spine, neck}));
    QVERIFY(target.validate().empty());
    const editor::RigTransferResult r = transfer(target);
    QVERIFY2(r.ok, r.error.c_str());
    const editor::AutoRigResult reference = editor::autoRig(editor::autoRigInputFromScene(target));
    QVERIFY2(reference.ok, reference.error.c_str());
    std::string worstName;
    const float worst = worstDistance(r.rig, reference.rig, &worstName);
    qInfo("worst particle distance to the auto-rig's placement: %.2f mm (%s); the particles moved up to %.1f cm",
          double(worst) * 1e3, worstName.c_str(), double(r.largestMove) * 1e2);
    QVERIFY2(worst <= kCentimetre, worstName.c_str());
    QVERIFY(r.largestMove > 2 * kCentimetre); // the target really differs

    // Valid, ids kept, masses to the source's total.
    QVERIFY(r.rig.findings().empty());
    QCOMPARE(idsOf(r.rig.particles), idsOf(mProject.rig.particles));
    QCOMPARE(idsOf(r.rig.sticks), idsOf(mProject.rig.sticks));
    QCOMPARE(idsOf(r.rig.triangles), idsOf(mProject.rig.triangles));
    QCOMPARE(idsOf(r.rig.angular), idsOf(mProject.rig.angular));
    QCOMPARE(idsOf(r.rig.bindings), idsOf(mProject.rig.bindings));
    QCOMPARE(idsOf(r.rig.bones), idsOf(mProject.rig.bones));
    double before = 0., after = 0.;
    for (std::size_t i = 0; i < r.rig.particles.size(); ++i) {
        before += double(mProject.rig.particles[i].mass);
        after += double(r.rig.particles[i].mass);
    }
    QVERIFY(std::fabs(after - before) < 1e-3);
    // Limits unchanged.
    for (std::size_t i = 0; i < r.rig.angular.size(); ++i) {
        QCOMPARE(r.rig.angular[i].twistMin, mProject.rig.angular[i].twistMin);
        QCOMPARE(r.rig.angular[i].swing1, mProject.rig.angular[i].swing1);
    }

    const DropFigures f = dropTwoMetres(r.rig);
    qInfo("2 m drop: finite %d, settled at %.2f s, max stick error %.2f %%, max limit excess %.2f deg", f.finite,
          double(f.settleSeconds), double(f.stickError) * 100.0, double(f.limitDegrees));
    QVERIFY(f.finite);
    QVERIFY(f.settleSeconds >= 0.f && f.settleSeconds <= 10.f);
    QVERIFY(f.stickError <= 0.02f);
    QVERIFY(f.limitDegrees <= 2.f);
}

void TestRigTransfer::otherNamingScheme_pairsBonesByHumanoidParts()
{
    // The scaled mannequin with Unreal-style names: nothing pairs by name, the humanoid parts pair the rest.
    import::ImportedScene target =
        test::scaledScene(mMesh, test::mannequinFactors(mMesh.skeleton, {1.1f, 1.1f, 0.9f, 0.9f, 1.f, 1.f}));
    const std::map<std::string, std::string> unreal{
        {"Hips", "pelvis"},           {"Spine", "spine_01"},        {"Spine1", "spine_02"},
        {"Neck", "neck_01"},          {"Head", "head"},             {"LeftShoulder", "clavicle_l"},
        {"LeftArm", "upperarm_l"},    {"LeftForeArm", "lowerarm_l"}, {"LeftHand", "hand_l"},
        {"RightShoulder", "clavicle_r"}, {"RightArm", "upperarm_r"}, {"RightForeArm", "lowerarm_r"},
        {"RightHand", "hand_r"},      {"LeftUpLeg", "thigh_l"},     {"LeftLeg", "calf_l"},
        {"LeftFoot", "foot_l"},       {"LeftToeBase", "ball_l"},    {"RightUpLeg", "thigh_r"},
        {"RightLeg", "calf_r"},       {"RightFoot", "foot_r"},      {"RightToeBase", "ball_r"}};
    for (rig::Bone& b : target.skeleton)
        b.name = unreal.at(b.name);
    const editor::RigTransferResult r = transfer(target);
    QVERIFY2(r.ok, r.error.c_str());
    for (const auto& p : r.pairs)
        QCOMPARE(unreal.at(p.source), p.target);
    const editor::AutoRigResult reference = editor::autoRig(editor::autoRigInputFromScene(target));
    QVERIFY(worstDistance(r.rig, reference.rig) <= kCentimetre);
    // Toes are not humanoid parts and "ball" is not "ToeBase": reported (the rig drives no toe anyway).
    QVERIFY(r.rig.findings().empty());
    QCOMPARE(r.unmappedSource, (std::vector<std::string>{"LeftToeBase", "RightToeBase"}));
    QCOMPARE(r.unmappedTarget, (std::vector<std::string>{"ball_l", "ball_r"}));
    QVERIFY(r.dropped.empty());
}

void TestRigTransfer::map_pairsRenamedBones()
{
    import::ImportedScene target = mMesh;
    for (rig::Bone& b : target.skeleton)
        if (b.name == "LeftHand")
            b.name = "Mitt";
    // Without the map the humanoid parts pair it anyway; with it, the map says how.
    editor::RigTransferOptions o;
    o.boneMap = {{"LeftHand", "Mitt"}};
    const editor::RigTransferResult r = transfer(target, o);
    QVERIFY2(r.ok, r.error.c_str());
    bool viaMap = false;
    for (const auto& p : r.pairs)
        viaMap = viaMap || (p.source == "LeftHand" && p.target == "Mitt" && p.how == "map");
    QVERIFY(viaMap);
    QVERIFY(r.largestMove < 1e-4f);
}

void TestRigTransfer::missingBone_reportedWithTheParticleFallbackAndTheDroppedBinding()
{
    // The mannequin without its left hand bone (a leaf): its vertices go to the forearm.
    editor::AutoRigInput target = editor::autoRigInputFromScene(mMesh);
    std::int32_t hand = rig::kNone;
    for (std::size_t b = 0; b < target.skeleton.size(); ++b)
        if (target.skeleton[b].name == "LeftHand")
            hand = std::int32_t(b);
    QVERIFY(hand != rig::kNone);
    const std::int32_t forearm = target.skeleton[std::size_t(hand)].parent;
    for (const rig::Bone& b : target.skeleton)
        QVERIFY(b.parent != hand);
    auto& lists = target.boneVertices;
    lists[std::size_t(forearm)].insert(lists[std::size_t(forearm)].end(), lists[std::size_t(hand)].begin(),
                                       lists[std::size_t(hand)].end());
    target.skeleton.erase(target.skeleton.begin() + hand);
    lists.erase(lists.begin() + hand);
    for (rig::Bone& b : target.skeleton)
        if (b.parent > hand)
            --b.parent;

    const editor::RigTransferResult r = editor::transferRig(mProject.rig, mSourceInput, target);
    QVERIFY2(r.ok, r.error.c_str());
    QCOMPARE(r.unmappedSource, std::vector<std::string>{"LeftHand"});
    QVERIFY(r.unmappedTarget.empty());
    QCOMPARE(r.fallbacks, std::vector<std::string>{"wrist_l: anchored to the bone its triangle or stick drives "
                                                   "(LeftForeArm), its bone LeftHand has no counterpart"});
    QCOMPARE(r.dropped.size(), std::size_t(1));
    QVERIFY2(r.dropped.front().find("'LeftHand': bone 'LeftHand' has no counterpart on the target") != std::string::npos,
             r.dropped.front().c_str());
    QCOMPARE(r.rig.bindings.size(), mProject.rig.bindings.size() - 1);
    // The wrist is the forearm's end on both characters: it stays where it was, and so does everything else.
    // The forearm, whose child the target lacks, ends where its parent's proportions (unchanged) say.
    QVERIFY(std::find(r.notes.begin(), r.notes.end(),
                      "LeftForeArm: its child LeftHand has no counterpart: its end placed as its parent bone's length "
                      "and turn say") != r.notes.end());
    QVERIFY(r.largestMove < 1e-4f);
    QVERIFY(r.rig.findings().empty());
}

void TestRigTransfer::totalMass_rescalesTheMasses()
{
    editor::RigTransferOptions o;
    o.totalMass = 60.f;
    const editor::RigTransferResult r = transfer(mMesh, o);
    QVERIFY2(r.ok, r.error.c_str());
    double sum = 0., source = 0.;
    for (const rig::Particle& p : r.rig.particles)
        sum += double(p.mass);
    for (const rig::Particle& p : mProject.rig.particles)
        source += double(p.mass);
    QVERIFY(std::fabs(sum - 60.0) < 1e-3);
    // Proportions kept: each particle's share of the total is the source's.
    for (std::size_t i = 0; i < r.rig.particles.size(); ++i)
        QVERIFY(std::fabs(double(r.rig.particles[i].mass) / 60.0 - double(mProject.rig.particles[i].mass) / source) < 1e-5);
}

void TestRigTransfer::badInput_refusedWithOneLine_data()
{
    QTest::addColumn<QString>("what");
    QTest::addColumn<QString>("expected");
    QTest::newRow("no bone in common") << "foreign" << "no bone of the target matches";
    QTest::newRow("map: missing source bone") << "map-source" << "map: the rig has no bone 'Tail'";
    QTest::newRow("map: missing target bone") << "map-target" << "map: the target has no bone 'Pelvis'";
    QTest::newRow("NaN vertex") << "nan-vertex" << "target: bone 'LeftForeArm': a skinned vertex is not finite";
    QTest::newRow("NaN bind pose") << "nan-bind" << "target: bone 'Neck': bindWorld is not finite";
    QTest::newRow("zero total mass") << "zero-mass" << "total mass must be a finite number";
    QTest::newRow("NaN total mass") << "nan-mass" << "total mass must be a finite number";
}

void TestRigTransfer::badInput_refusedWithOneLine()
{
    QFETCH(QString, what);
    QFETCH(QString, expected);
    editor::AutoRigInput target = editor::autoRigInputFromScene(mMesh);
    editor::RigTransferOptions o;
    auto bone = [&](const char* name) -> rig::Bone& {
        for (rig::Bone& b : target.skeleton)
            if (b.name == name)
                return b;
        qFatal("no bone %s", name);
    };
    if (what == "foreign") {
        // A three-link chain ("a" → "b" → "c"): not a human, no name in common.
        target.skeleton.resize(3);
        target.boneVertices.resize(3);
        const char* names[3] = {"a", "b", "c"};
        for (int i = 0; i < 3; ++i) {
            target.skeleton[std::size_t(i)] = {};
            target.skeleton[std::size_t(i)].name = names[i];
            target.skeleton[std::size_t(i)].parent = i - 1;
            target.skeleton[std::size_t(i)].bindWorld.m[13] = 0.3f * float(i);
            target.boneVertices[std::size_t(i)].clear();
        }
    } else if (what == "map-source") {
        o.boneMap = {{"Tail", "Hips"}};
    } else if (what == "map-target") {
        o.boneMap = {{"Hips", "Pelvis"}};
    } else if (what == "nan-vertex") {
        for (std::size_t b = 0; b < target.skeleton.size(); ++b)
            if (target.skeleton[b].name == "LeftForeArm")
                target.boneVertices[b][0].y = std::numeric_limits<float>::quiet_NaN();
    } else if (what == "nan-bind") {
        bone("Neck").bindWorld.m[13] = std::numeric_limits<float>::quiet_NaN();
    } else if (what == "zero-mass") {
        o.totalMass = 0.f;
    } else if (what == "nan-mass") {
        o.totalMass = std::numeric_limits<float>::quiet_NaN();
    }
    const editor::RigTransferResult r = editor::transferRig(mProject.rig, mSourceInput, target, o);
    QVERIFY(!r.ok);
    QVERIFY2(QString::fromStdString(r.error).contains(expected), r.error.c_str());
    QVERIFY(!r.error.empty() && r.error.find('\n') == std::string::npos);
    QVERIFY(r.rig.particles.empty());
}

QTEST_GUILESS_MAIN(TestRigTransfer)
#include "tst_rigtransfer.moc"
