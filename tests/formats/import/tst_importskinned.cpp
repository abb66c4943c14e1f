// Skinned characters from Assimp's test models: skeleton (count, names, parents before children), weights
// (at most 4 per vertex, summing to 1), clips (duration in seconds, channels, keys), the bind pose reproducing
// the positions through bindWorld · inverseBind, and the animated pose matching what the file's own
// skinning gives (worked out by hand from the glTF file's buffers).
#include "ImportTestSupport.h"

#include <QtTest/QtTest>

using namespace marionette;
using namespace marionette::import;
using namespace marionette::test;

class TestImportSkinned : public QObject {
    Q_OBJECT

private slots:
    void simpleSkin_skeletonWeightsAndClip();
    void simpleSkin_clipBendsTheTopAsTheFileSays();
    void xAnimTest_skinBonesWithoutNodesBecomeRoots();
    void fbx_blenderRigWithClip();
    void colladaBoneNames_areNodeIds();
    void repeatedNodeNames_areMadeUnique();
    void everySkinnedFile_isValidAndBindPoseReproducesPositions_data();
    void everySkinnedFile_isValidAndBindPoseReproducesPositions();
    void skinnedPosition_blendsRigidAndUnbound();
    void skinBonesWeightingNothing_areKeptWithAWarning();
};

void TestImportSkinned::simpleSkin_skeletonWeightsAndClip()
{
    const QString path = assimpModel("glTF2/simple_skin/simple_skin.gltf");
    MARIONETTE_REQUIRE_FILE(path);
    const ImportResult r = importFile(path);
    QVERIFY2(r.ok(), r.error.c_str());
    const ImportedScene& s = r.scene;
    QCOMPARE(s.validate(), std::string());
    QCOMPARE(s.conversion.format, std::string("glTF2 Importer"));
    QCOMPARE(s.conversion.sourceUnit, std::string("metre"));

    // skins[0].joints = [1, 2]: node 1 is node 2's parent; node 0 (the scene root, holding the mesh) is no bone.
    QCOMPARE(s.skeleton.size(), size_t(2));
    QCOMPARE(s.skeleton[0].name, std::string("nodes[1]"));
    QCOMPARE(s.skeleton[1].name, std::string("nodes[2]"));
    QCOMPARE(s.skeleton[0].parent, rig::kNone);
    QCOMPARE(s.skeleton[1].parent, 0);
    QVERIFY(s.boneInfo[0].skinned && s.boneInfo[1].skinned);
    // Both inverse bind matrices are translate(-0.5, -1, 0): the skin's bind pose puts both joints at
    // (0.5, 1, 0), while node 1 rests at (0, 1, 0). The bind pose comes from the skin; the rest pose is kept.
    QCOMPARE(s.skeleton[0].bindWorld.translation(), Vec3(0.5f, 1.f, 0.f));
    QCOMPARE(s.skeleton[1].bindWorld.translation(), Vec3(0.5f, 1.f, 0.f));
    QCOMPARE(s.boneInfo[0].restLocal.translation(), Vec3(0.f, 1.f, 0.f));
    QVERIFY(s.boneInfo[0].bindDiffersFromRest);
    QVERIFY(!s.boneInfo[1].bindDiffersFromRest);

    // 10 vertices in five rows y = 0, 0.5, ..., 2; WEIGHTS_0 per row: (1, 0), (.75, .25), (.5, .5), (.25, .75), (0, 1).
    QCOMPARE(s.meshes.size(), size_t(1));
    const ImportedMesh& m = s.meshes[0];
    QCOMPARE(m.positions.size(), size_t(10));
    QCOMPARE(m.triangleCount(), size_t(8));
    QCOMPARE(m.unweightedVertices, size_t(0));
    QCOMPARE(m.truncatedVertices, size_t(0));
    for (size_t v = 0; v < m.positions.size(); ++v) {
        const int row = int(std::lround(m.positions[v].y * 2.f));
        QVERIFY(row >= 0 && row <= 4);
        const float w1 = 0.25f * float(row), w0 = 1.f - w1;
        const VertexInfluences& inf = m.influences[v];
        QCOMPARE(inf.count(), row == 0 || row == 4 ? 1 : 2);
        float sum = 0.f, onBone0 = 0.f, onBone1 = 0.f;
        for (int k = 0; k < inf.count(); ++k) {
            sum += inf.weight[size_t(k)];
            (inf.bone[size_t(k)] == 0 ? onBone0 : onBone1) += inf.weight[size_t(k)];
            if (k > 0)
                QVERIFY(inf.weight[size_t(k)] <= inf.weight[size_t(k - 1)]); // strongest first
        }
        QVERIFY(std::fabs(sum - 1.f) < 1e-6f);
        QVERIFY(std::fabs(onBone0 - w0) < 1e-6f);
        QVERIFY(std::fabs(onBone1 - w1) < 1e-6f);
    }

    // One clip: a rotation channel on node 2 with 12 keys at 0, 0.5, ..., 5.5 s (input accessor in ticks of 1 ms).
    QCOMPARE(s.animations.size(), size_t(1));
    const AnimationClip& clip = s.animations[0];
    QCOMPARE(clip.duration, 5.5f);
    QCOMPARE(clip.ticksPerSecond, 1000.);
    QCOMPARE(clip.channels.size(), size_t(1));
    QCOMPARE(clip.channels[0].bone, 1);
    QCOMPARE(clip.channels[0].rotations.size(), size_t(12));
    QCOMPARE(clip.channels[0].rotations[11].time, 5.5f);
    // Kinds the file does not animate hold the rest value: node 2 has no translation and unit scale.
    QCOMPARE(clip.channels[0].positions.size(), size_t(1));
    QCOMPARE(clip.channels[0].positions[0].value, Vec3(0.f, 0.f, 0.f));
    QCOMPARE(clip.channels[0].scales[0].value, Vec3(1.f, 1.f, 1.f));
}

void TestImportSkinned::simpleSkin_clipBendsTheTopAsTheFileSays()
{
    const QString path = assimpModel("glTF2/simple_skin/simple_skin.gltf");
    MARIONETTE_REQUIRE_FILE(path);
    const ImportResult r = importFile(path);
    QVERIFY2(r.ok(), r.error.c_str());
    const ImportedScene& s = r.scene;
    // At t = 1 s the key is (0, 0, 0.7071, 0.7071): node 2 turned 90° about +Z. glTF skinning of the top row
    // (weight 1 on node 2): joint(1 s) · IBM · v = T(0,1,0) · Rz(90°) · T(-0.5,-1,0) · v.
    //   (0, 2, 0) -> Rz(90°)·(-0.5, 1, 0) + (0, 1, 0) = (-1, 0.5, 0);   (1, 2, 0) -> (-1, 1.5, 0)
    const std::vector<Vec3> posed = skin(s, s.meshes[0], boneWorlds(s, &s.animations[0], 1.f));
    int checked = 0;
    for (size_t v = 0; v < posed.size(); ++v) {
        const Vec3 p = s.meshes[0].positions[v];
        if (std::fabs(p.y - 2.f) > 1e-6f)
            continue;
        const Vec3 expected = p.x < 0.5f ? Vec3(-1.f, 0.5f, 0.f) : Vec3(-1.f, 1.5f, 0.f);
        QVERIFY2(length(posed[v] - expected) < 1e-5f, qPrintable(QTest::toString(posed[v])));
        ++checked;
    }
    QCOMPARE(checked, 2);
}

void TestImportSkinned::xAnimTest_skinBonesWithoutNodesBecomeRoots()
{
    // anim_test.txt: "the mesh refers to four bones, only two of them are stored in the node hierarchy".
    const QString path = assimpModel("X/anim_test.x");
    MARIONETTE_REQUIRE_FILE(path);
    const ImportResult r = importFile(path);
    QVERIFY2(r.ok(), r.error.c_str());
    const ImportedScene& s = r.scene;
    QCOMPARE(s.validate(), std::string());
    QCOMPARE(s.skeleton.size(), size_t(4));
    QCOMPARE(s.skeleton[0].name, std::string("joint1"));
    QCOMPARE(s.skeleton[1].name, std::string("joint2"));
    QCOMPARE(s.skeleton[1].parent, 0);
    QCOMPARE(s.skeleton[2].name, std::string("joint3"));
    QCOMPARE(s.skeleton[3].name, std::string("joint4"));
    QCOMPARE(s.skeleton[2].parent, rig::kNone);
    QCOMPARE(s.skeleton[3].parent, rig::kNone);
    QVERIFY(std::any_of(s.warnings.begin(), s.warnings.end(),
                        [](const std::string& w) { return w.find("'joint3', 'joint4' have no node") != std::string::npos; }));
    QCOMPARE(s.meshes.size(), size_t(1));
    QCOMPARE(s.meshes[0].name, std::string("pCylinder1"));
    QCOMPARE(s.meshes[0].unweightedVertices, size_t(0));
    QVERIFY(bindPoseSkinningError(s) < 1e-4f);

    // AnimationSet cylinder_test: keys at frames 1..24 with AnimTicksPerSecond 24, for pCylinder1, joint2,
    // joint1 and ikHandle1; the two that are not bones are dropped.
    QCOMPARE(s.animations.size(), size_t(1));
    const AnimationClip& clip = s.animations[0];
    QCOMPARE(clip.name, std::string("cylinder_test"));
    QCOMPARE(clip.ticksPerSecond, 24.);
    QCOMPARE(clip.duration, 1.f);
    QCOMPARE(clip.channels.size(), size_t(2));
    QCOMPARE(clip.channels[0].bone, 0);
    QCOMPARE(clip.channels[1].bone, 1);
    QCOMPARE(clip.channels[1].rotations.size(), size_t(24));
    QCOMPARE(clip.channels[1].rotations.front().time, 1.f / 24.f);
    QCOMPARE(clip.channels[1].rotations.back().time, 1.f);
}

void TestImportSkinned::fbx_blenderRigWithClip()
{
    // Exported by Blender 2.90 (FBX 7400, UnitScaleFactor 1 = centimetres): Armature node scaled by 100,
    // bones Bone, Bone.001 .. Bone.013 in two chains, one action of 20 frames at 24 fps.
    const QString path = assimpModel("FBX/animation_with_skeleton.fbx");
    MARIONETTE_REQUIRE_FILE(path);
    const ImportResult r = importFile(path);
    QVERIFY2(r.ok(), r.error.c_str());
    const ImportedScene& s = r.scene;
    QCOMPARE(s.validate(), std::string());
    QCOMPARE(s.conversion.sourceUnit, std::string("centimetre"));
    QCOMPARE(s.skeleton.size(), size_t(15));
    QCOMPARE(s.skeleton[0].name, std::string("Armature"));
    QVERIFY(!s.boneInfo[0].skinned); // an ancestor no skin references, kept
    QCOMPARE(s.skeleton[1].name, std::string("Bone"));
    QCOMPARE(s.skeleton[1].parent, 0);
    QCOMPARE(s.findBone("Bone.007"), 8);
    QCOMPARE(s.skeleton[8].parent, 0); // the second chain starts at the armature again
    for (size_t b = 1; b < s.skeleton.size(); ++b)
        QVERIFY(s.skeleton[b].parent >= 0 && size_t(s.skeleton[b].parent) < b);
    // Bone frames are rigid although the Armature node carries a scale of 100: columns of unit length.
    for (const rig::Bone& bone : s.skeleton)
        for (int c = 0; c < 3; ++c) {
            const Vec3 column{bone.bindWorld(0, c), bone.bindWorld(1, c), bone.bindWorld(2, c)};
            QVERIFY2(std::fabs(length(column) - 1.f) < 1e-4f, bone.name.c_str());
        }
    // The mesh has vertices with up to 6 weights: the 4 largest are kept and renormalised.
    const ImportedMesh& m = s.meshes.at(0);
    QVERIFY(m.truncatedVertices > 0);
    for (const VertexInfluences& inf : m.influences) {
        QVERIFY(inf.count() >= 1 && inf.count() <= kMaxInfluences);
        float sum = 0.f;
        for (int k = 0; k < inf.count(); ++k)
            sum += inf.weight[size_t(k)];
        QVERIFY(std::fabs(sum - 1.f) < 1e-5f);
    }
    QCOMPARE(s.animations.size(), size_t(1));
    QCOMPARE(s.animations[0].name, std::string("Armature|ArmatureAction"));
    QCOMPARE(s.animations[0].ticksPerSecond, 24.);
    QCOMPARE(s.animations[0].duration, 20.f / 24.f);
    QCOMPARE(s.animations[0].channels.size(), size_t(15));
    QVERIFY(bindPoseSkinningError(s) < 1e-4f);
}

void TestImportSkinned::colladaBoneNames_areNodeIds()
{
    // <node id="Armature_Bone" name="Bone" sid="Bone" type="JOINT"> under <node id="Armature" name="Armature">:
    // bones carry the unique ids (names may repeat across armatures in one file).
    const QString path = assimpModel("Collada/box_nested_animation.dae");
    MARIONETTE_REQUIRE_FILE(path);
    const ImportResult r = importFile(path);
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.scene.skeleton.size(), size_t(2));
    QCOMPARE(r.scene.skeleton[0].name, std::string("Armature"));
    QCOMPARE(r.scene.skeleton[1].name, std::string("Armature_Bone"));
    QCOMPARE(r.scene.skeleton[1].parent, 0);
    QVERIFY(!r.scene.boneInfo[0].skinned && r.scene.boneInfo[1].skinned);
}

void TestImportSkinned::repeatedNodeNames_areMadeUnique()
{
    // data/duplicate_ancestor_names.gltf: root nodes "spine" (0, 1, 0) -> "arm" and "spine" (0, 2, 0) -> "leg";
    // the skin binds arm and leg, so both spines are bones.
    const ImportResult r = importFile(importData("duplicate_ancestor_names.gltf"));
    QVERIFY2(r.ok(), r.error.c_str());
    const ImportedScene& s = r.scene;
    QCOMPARE(s.validate(), std::string());
    QCOMPARE(s.skeleton.size(), size_t(4));
    QCOMPARE(s.skeleton[0].name, std::string("spine"));
    QCOMPARE(s.skeleton[1].name, std::string("arm"));
    QCOMPARE(s.skeleton[2].name, std::string("spine#2"));
    QCOMPARE(s.skeleton[3].name, std::string("leg"));
    QCOMPARE(s.boneInfo[2].sourceName, std::string("spine"));
    QCOMPARE(s.skeleton[3].parent, 2);
    QCOMPARE(s.skeleton[2].bindWorld.translation(), Vec3(0.f, 2.f, 0.f));
    QCOMPARE(s.skeleton[3].bindWorld.translation(), Vec3(-1.f, 2.f, 0.f));
    QVERIFY(std::find(s.warnings.begin(), s.warnings.end(),
                      std::string("bone names must be unique; renamed 'spine' -> 'spine#2'")) != s.warnings.end());
    // The third vertex is shared half and half.
    const VertexInfluences& shared = s.meshes[0].influences.at(2);
    QCOMPARE(shared.count(), 2);
    QCOMPARE(shared.weight[0], 0.5f);
    QCOMPARE(shared.weight[1], 0.5f);
    QCOMPARE(shared.bone[0], 1); // equal weights: the lower bone index first
    QCOMPARE(shared.bone[1], 3);
}

void TestImportSkinned::everySkinnedFile_isValidAndBindPoseReproducesPositions_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("bones");
    QTest::addColumn<int>("clips");
    QTest::newRow("glTF2 simple_skin") << assimpModel("glTF2/simple_skin/simple_skin.gltf") << 2 << 1;
    QTest::newRow("X anim_test") << assimpModel("X/anim_test.x") << 4 << 1;
    // Testwuson: 37 skinned bones plus their unskinned root "Root"; clips Run, Walk and Bind.
    QTest::newRow("X Testwuson") << assimpModel("X/Testwuson.X") << 38 << 3;
    QTest::newRow("X BCN_Epileptic (3 skinned meshes)") << assimpModel("X/BCN_Epileptic.X") << 54 << 1;
    QTest::newRow("FBX animation_with_skeleton") << assimpModel("FBX/animation_with_skeleton.fbx") << 15 << 1;
    QTest::newRow("FBX huesitos") << assimpModel("FBX/huesitos.fbx") << 10 << 1;
    QTest::newRow("Collada box_nested_animation (Z-up)") << assimpModel("Collada/box_nested_animation.dae") << 2 << 1;
    // MD5: root, joint1 and their unskinned ancestors <MD5_Hierarchy> and origin.
    QTest::newRow("MD5 SimpleCube") << assimpModel("MD5/SimpleCube.md5mesh") << 4 << 0;
    QTest::newRow("SMD WusonSMD") << assimpModel("SMD/WusonSMD.smd") << 1 << 1;
    QTest::newRow("Collada arm, cm, Z-up (crafted)") << importData("arm_centimetre_zup.dae") << 2 << 1;
}

void TestImportSkinned::everySkinnedFile_isValidAndBindPoseReproducesPositions()
{
    QFETCH(QString, path);
    QFETCH(int, bones);
    QFETCH(int, clips);
    MARIONETTE_REQUIRE_FILE(path);
    const ImportResult r = importFile(path);
    QVERIFY2(r.ok(), r.error.c_str());
    const ImportedScene& s = r.scene;
    QCOMPARE(s.validate(), std::string());
    QCOMPARE(int(s.skeleton.size()), bones);
    QCOMPARE(int(s.animations.size()), clips);
    QVERIFY(std::any_of(s.meshes.begin(), s.meshes.end(), [](const ImportedMesh& m) { return m.isSkinned(); }));
    for (size_t b = 0; b < s.skeleton.size(); ++b) {
        const Mat4 product = s.skeleton[b].bindWorld * s.skeleton[b].inverseBind;
        QVERIFY2(maxDifference(product, Mat4{}) < 1e-4f, s.skeleton[b].name.c_str());
    }
    const float error = bindPoseSkinningError(s);
    QVERIFY2(error < 1e-4f, qPrintable(QString::number(double(error))));
    // Every clip poses every vertex at a finite place.
    for (const AnimationClip& clip : s.animations) {
        const std::vector<Mat4> world = boneWorlds(s, &clip, clip.duration * 0.5f);
        for (const ImportedMesh& m : s.meshes)
            for (const Vec3& p : skin(s, m, world))
                QVERIFY(isFinite(p));
    }
}

void TestImportSkinned::skinnedPosition_blendsRigidAndUnbound()
{
    // The one CPU skinning the viewport's picking and `marionette render` share.
    ImportedMesh m;
    m.positions = {{1.f, 0.f, 0.f}, {0.f, 2.f, 0.f}};
    m.influences.resize(2);
    m.influences[0].bone = {0, 1, 0, 0};
    m.influences[0].weight = {0.25f, 0.75f, 0.f, 0.f};
    m.influences[1].bone = {1, 2, 0, 0};
    m.influences[1].weight = {0.5f, 0.5f, 0.f, 0.f}; // bone 2 is not in the palette below
    const Mat4 up = Mat4::fromTransform({Quat{}, {0.f, 4.f, 0.f}});
    const Mat4 turn = Mat4::fromTransform({Quat::fromAxisAngle({0.f, 0.f, 1.f}, 1.5707964f), {}});
    const std::vector<Mat4> palette{up, turn};
    Vec3 out;
    // Vertex 0: 0.25 × (1, 4, 0) + 0.75 × (0, 1, 0), by hand.
    QVERIFY(skinnedPosition(m, 0, palette, out));
    QVERIFY(length(out - Vec3{0.25f, 1.75f, 0.f}) < 1e-5f);
    // Vertex 1: only bone 1 is in the palette, so its weight is the whole: (0, 2, 0) turned a quarter.
    QVERIFY(skinnedPosition(m, 1, palette, out));
    QVERIFY(length(out - Vec3{-2.f, 0.f, 0.f}) < 1e-5f);
    // No palette: nothing moves the vertex; it stays at its bind position.
    QVERIFY(!skinnedPosition(m, 1, {}, out));
    QCOMPARE(out, m.positions[1]);
    // A rigidly bound mesh follows its bone's matrix.
    ImportedMesh rigid;
    rigid.positions = {{1.f, 0.f, 0.f}};
    rigid.rigidBone = 1;
    QVERIFY(skinnedPosition(rigid, 0, palette, out));
    QVERIFY(length(out - Vec3{0.f, 1.f, 0.f}) < 1e-5f);
    rigid.rigidBone = 5; // not in the palette
    QVERIFY(!skinnedPosition(rigid, 0, palette, out));
    QCOMPARE(out, rigid.positions[0]);
}

// huesitos.fbx's skin names Bone.005 without weighting a vertex with it: it stays a bone of the skeleton,
// with one warning naming it, and it is not a fault (a strict import does not refuse it for that).
void TestImportSkinned::skinBonesWeightingNothing_areKeptWithAWarning()
{
    const QString path = assimpModel("FBX/huesitos.fbx");
    MARIONETTE_REQUIRE_FILE(path);
    const ImportResult r = importFile(path);
    QVERIFY2(r.ok(), r.error.c_str());
    const auto& w = r.scene.warnings;
    const std::string expected = "mesh 'Cylinder': the skin names 1 bone(s) that weight no vertex (Bone.005); kept as bones of the skeleton";
    QCOMPARE(std::count(w.begin(), w.end(), expected), std::ptrdiff_t(1));
    QVERIFY(std::any_of(r.scene.skeleton.begin(), r.scene.skeleton.end(), [](const rig::Bone& b) { return b.name == "Bone.005"; }));
    for (const std::string& fault : r.scene.faults)
        QVERIFY2(fault.find("weight no vertex") == std::string::npos, fault.c_str());
}

QTEST_APPLESS_MAIN(TestImportSkinned)
#include "tst_importskinned.moc"
