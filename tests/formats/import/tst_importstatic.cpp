// Meshes without a skeleton import as static meshes (empty skeleton, no weights, no clips): OBJ, BLEND and
// Collada; a mesh without a skin under a bone follows that bone rigidly; materials carry the base colour and
// the base-colour texture as stored, resolved next to the source file, or marked embedded.
#include "ImportTestSupport.h"

#include <QDir>
#include <QtTest/QtTest>

using namespace marionette;
using namespace marionette::import;
using namespace marionette::test;

namespace {

const ImportedMaterial* findMaterial(const ImportedScene& s, const std::string& name)
{
    for (const ImportedMaterial& m : s.materials)
        if (m.name == name)
            return &m;
    return nullptr;
}

} // namespace

class TestImportStatic : public QObject {
    Q_OBJECT

private slots:
    void staticFiles_haveNoSkeletonNoWeightsNoClips_data();
    void staticFiles_haveNoSkeletonNoWeightsNoClips();
    void objSpider_groupsMaterialsAndTextures();
    void colladaHuman_materialsAndEmbeddedTexture();
    void gltfTextures_fileNextToSourceOrEmbedded();
    void gltfBaseColourFactor();
    void meshUnderBoneWithoutSkin_followsTheBoneRigidly();
    void supportedExtensions_listAssimpsFormats();
};

void TestImportStatic::staticFiles_haveNoSkeletonNoWeightsNoClips_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("meshes");
    QTest::addColumn<int>("triangles");
    // spider.obj: 19 groups; its faces make 1368 triangles.
    QTest::newRow("OBJ spider") << assimpModel("OBJ/spider.obj") << 19 << 1368;
    // HUMAN.blend: Assimp 5.2.5 reads Blender's meshes (it never reads armatures): 2 × 4280 triangles.
    QTest::newRow("BLEND HUMAN") << assimpModel("BLEND/HUMAN.blend") << 2 << 8560;
    // human.zae: MakeHuman's body and eyes, no controller.
    QTest::newRow("Collada human.zae") << assimpModel("Collada/human.zae") << 2 << 28796;
    QTest::newRow("glTF2 BoxTextured") << assimpModel("glTF2/BoxTextured-glTF/BoxTextured.gltf") << 1 << 12;
}

void TestImportStatic::staticFiles_haveNoSkeletonNoWeightsNoClips()
{
    QFETCH(QString, path);
    QFETCH(int, meshes);
    QFETCH(int, triangles);
    MARIONETTE_REQUIRE_FILE(path);
    const ImportResult r = importFile(path);
    QVERIFY2(r.ok(), r.error.c_str());
    const ImportedScene& s = r.scene;
    QCOMPARE(s.validate(), std::string());
    QVERIFY(!s.hasSkeleton());
    QVERIFY(s.boneInfo.empty());
    QVERIFY(s.animations.empty());
    QCOMPARE(int(s.meshes.size()), meshes);
    QCOMPARE(int(s.triangleCount()), triangles);
    for (const ImportedMesh& m : s.meshes) {
        QVERIFY(!m.isSkinned());
        QVERIFY(m.influences.empty());
        QCOMPARE(m.rigidBone, rig::kNone);
        QCOMPARE(m.unweightedVertices, size_t(0));
        QCOMPARE(m.normals.size(), m.positions.size());
    }
}

void TestImportStatic::objSpider_groupsMaterialsAndTextures()
{
    const QString path = assimpModel("OBJ/spider.obj");
    MARIONETTE_REQUIRE_FILE(path);
    const ImportResult r = importFile(path);
    QVERIFY2(r.ok(), r.error.c_str());
    const ImportedScene& s = r.scene;
    QCOMPARE(s.meshes[0].name, std::string("HLeib01")); // "g HLeib01", the first group
    QCOMPARE(s.conversion.sourceUnit, std::string("unknown"));
    QCOMPARE(s.conversion.scale, 1.f);
    // spider.mtl: "map_Kd .\wal67ar_small.jpg" (a Windows-style relative path), the file sits next to the OBJ.
    const ImportedMaterial* skin = findMaterial(s, "Skin");
    QVERIFY(skin);
    QCOMPARE(skin->baseColorTexture, std::string(".\\wal67ar_small.jpg"));
    QVERIFY(!skin->textureEmbedded);
    QVERIFY(skin->textureFound);
    QCOMPARE(QString::fromStdString(skin->baseColorTexturePath),
             QDir::cleanPath(QFileInfo(path).absolutePath() + QStringLiteral("/wal67ar_small.jpg")));
    for (const ImportedMesh& m : s.meshes)
        QVERIFY(m.material >= 0 && size_t(m.material) < s.materials.size());
}

void TestImportStatic::colladaHuman_materialsAndEmbeddedTexture()
{
    const QString path = assimpModel("Collada/human.zae");
    MARIONETTE_REQUIRE_FILE(path);
    const ImportResult r = importFile(path);
    QVERIFY2(r.ok(), r.error.c_str());
    const ImportedScene& s = r.scene;
    // Collada ids, which are unique (name attributes may repeat): <geometry id="human-baseMesh" name="human-base">
    // placed by <node id="human-baseObject" name="human-base">.
    QCOMPARE(s.meshes[0].name, std::string("human-baseMesh"));
    QCOMPARE(s.meshes[0].nodeName, std::string("human-baseObject"));
    QCOMPARE(s.meshes[1].name, std::string("human-highpolyeyesMesh"));
    // <diffuse><color>0.5903 0.4400 0.3380 1.0000</color>
    const ImportedMaterial* skin = findMaterial(s, "DefaultSkin");
    QVERIFY(skin);
    const std::array<float, 4> expected{0.5903f, 0.44f, 0.338f, 1.f};
    for (size_t i = 0; i < 4; ++i)
        QVERIFY(std::fabs(skin->baseColor[i] - expected[i]) < 1e-6f);
    QVERIFY(skin->baseColorTexture.empty());
    // <init_from>./textures/brown_eye.png</init_from>: the image is inside the .zae archive.
    const ImportedMaterial* eye = findMaterial(s, "Eye_brown");
    QVERIFY(eye);
    QCOMPARE(eye->baseColorTexture, std::string("./textures/brown_eye.png"));
    QVERIFY(eye->textureEmbedded);
    QVERIFY(eye->baseColorTexturePath.empty());
    QVERIFY(!eye->textureFound);
}

void TestImportStatic::gltfTextures_fileNextToSourceOrEmbedded()
{
    const QString separate = assimpModel("glTF2/BoxTextured-glTF/BoxTextured.gltf");
    const QString binary = assimpModel("glTF2/BoxTextured-glTF-Binary/BoxTextured.glb");
    MARIONETTE_REQUIRE_FILE(separate);
    MARIONETTE_REQUIRE_FILE(binary);
    const ImportResult a = importFile(separate);
    const ImportResult b = importFile(binary);
    QVERIFY2(a.ok(), a.error.c_str());
    QVERIFY2(b.ok(), b.error.c_str());
    // "images": [{"uri": "CesiumLogoFlat.png"}] beside the .gltf; the .glb keeps the PNG in its BIN chunk.
    const ImportedMaterial* texA = findMaterial(a.scene, "Texture");
    const ImportedMaterial* texB = findMaterial(b.scene, "Texture");
    QVERIFY(texA && texB);
    QCOMPARE(texA->baseColorTexture, std::string("CesiumLogoFlat.png"));
    QVERIFY(!texA->textureEmbedded && texA->textureFound);
    QCOMPARE(QString::fromStdString(texA->baseColorTexturePath),
             QFileInfo(separate).absolutePath() + QStringLiteral("/CesiumLogoFlat.png"));
    QCOMPARE(texB->baseColorTexture, std::string("*0"));
    QVERIFY(texB->textureEmbedded);
    QCOMPARE(texB->embeddedTexture, 0);
    QVERIFY(texB->baseColorTexturePath.empty() && !texB->textureFound);
}

void TestImportStatic::gltfBaseColourFactor()
{
    // BoxBadNormals.glb: "materials":[{"name":"Red","pbrMetallicRoughness":{"baseColorFactor":[0.8,0,0,1]}}]
    const QString path = assimpModel("glTF2/BoxBadNormals-glTF-Binary/BoxBadNormals.glb");
    MARIONETTE_REQUIRE_FILE(path);
    const ImportResult r = importFile(path);
    QVERIFY2(r.ok(), r.error.c_str());
    const ImportedMaterial* red = findMaterial(r.scene, "Red");
    QVERIFY(red);
    QCOMPARE(red->baseColor, (std::array<float, 4>{0.8f, 0.f, 0.f, 1.f}));
    QCOMPARE(r.scene.meshes.at(0).material, std::int32_t(red - r.scene.materials.data()));
}

void TestImportStatic::meshUnderBoneWithoutSkin_followsTheBoneRigidly()
{
    // data/arm_with_hand.dae: the skinned arm plus a triangle "hand" placed by a node under the elbow joint,
    // 0.6 m above it: from y = 1.1 to 1.2 m.
    const ImportResult r = importFile(importData("arm_with_hand.dae"));
    QVERIFY2(r.ok(), r.error.c_str());
    const ImportedScene& s = r.scene;
    QCOMPARE(s.validate(), std::string());
    QCOMPARE(s.skeleton.size(), size_t(2)); // the hand's node is no bone: no skin refers to it
    const auto hand = std::find_if(s.meshes.begin(), s.meshes.end(), [](const ImportedMesh& m) { return m.name == "hand-mesh"; });
    QVERIFY(hand != s.meshes.end());
    QCOMPARE(hand->rigidBone, s.findBone("elbow"));
    QVERIFY(hand->isSkinned());
    for (const VertexInfluences& inf : hand->influences) {
        QCOMPARE(inf.count(), 1);
        QCOMPARE(inf.bone[0], s.findBone("elbow"));
        QCOMPARE(inf.weight[0], 1.f);
    }
    QCOMPARE(centroid(hand->positions).y, (1.1f + 1.1f + 1.2f) / 3.f);
    // The elbow turns 90° about +X at t = 1 s: the apex (0, 1.2, 0), 0.7 m above the elbow, goes to (0, 0.5, 0.7).
    const std::vector<Vec3> bent = skin(s, *hand, boneWorlds(s, &s.animations.at(0), 1.f));
    for (size_t v = 0; v < bent.size(); ++v)
        if (hand->positions[v].y > 1.15f)
            QVERIFY2(length(bent[v] - Vec3(0.f, 0.5f, 0.7f)) < 1e-5f, qPrintable(QTest::toString(bent[v])));
}

void TestImportStatic::supportedExtensions_listAssimpsFormats()
{
    const std::vector<std::string> extensions = supportedExtensions();
    for (const char* e : {".fbx", ".gltf", ".glb", ".dae", ".zae", ".x", ".blend", ".obj", ".md5mesh", ".smd", ".b3d"})
        QVERIFY2(std::find(extensions.begin(), extensions.end(), e) != extensions.end(), e);
    QVERIFY(std::is_sorted(extensions.begin(), extensions.end()));
    QVERIFY(std::adjacent_find(extensions.begin(), extensions.end()) == extensions.end());
    for (const std::string& e : extensions) {
        QVERIFY(e.size() > 1 && e[0] == '.');
        QVERIFY2(std::none_of(e.begin(), e.end(), [](char c) { return c >= 'A' && c <= 'Z'; }), e.c_str());
    }
}

QTEST_APPLESS_MAIN(TestImportStatic)
#include "tst_importstatic.moc"
