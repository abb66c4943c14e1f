// Metres and +Y up, whatever the file uses: Collada <unit>/<up_axis> (crafted twins describing one arm in
// centimetres Z-up and in metres Y-up, plus Assimp's own Collada files), FBX UnitScaleFactor and UpAxis,
// Blender's Z-up, the scale / up-axis overrides, and the record of what was applied. Conversions must act
// the same way on positions, normals, bind matrices and animation keys.
#include "ImportTestSupport.h"

#include <QtTest/QtTest>

using namespace marionette;
using namespace marionette::import;
using namespace marionette::test;

namespace {

/// (x, y, z) of a Z-up file lands at (x, z, -y).
Vec3 zUpToYUp(Vec3 p) { return {p.x, p.z, -p.y}; }

std::vector<Vec3> allPositions(const ImportedScene& s)
{
    std::vector<Vec3> out;
    for (const ImportedMesh& m : s.meshes)
        out.insert(out.end(), m.positions.begin(), m.positions.end());
    return out;
}

float largestDistance(const std::vector<Vec3>& a, const std::vector<Vec3>& b)
{
    if (a.size() != b.size())
        return 1e30f;
    float d = 0.f;
    for (size_t i = 0; i < a.size(); ++i)
        d = std::max(d, length(a[i] - b[i]));
    return d;
}

bool hasWarning(const ImportedScene& s, const char* part)
{
    return std::any_of(s.warnings.begin(), s.warnings.end(),
                       [&](const std::string& w) { return w.find(part) != std::string::npos; });
}

} // namespace

class TestImportConversion : public QObject {
    Q_OBJECT

private slots:
    void collada_centimetreZupArmEqualsMetreYupArm();
    void collada_armKeysBendTheElbowForward();
    void collada_assimpModelsUnitsAndAxes_data();
    void collada_assimpModelsUnitsAndAxes();
    void fbx_centimetresBecomeMetres();
    void fbx_zUpFileIsRotated();
    void blend_isZup();
    void smd_isZupLikeTheSameModelInB3d();
    void idFormats_areInchesByConvention();
    void overrides_scaleAndUpAxisAreAppliedAndRecorded();
    void overrides_badScaleIsRefused_data();
    void overrides_badScaleIsRefused();
};

void TestImportConversion::collada_centimetreZupArmEqualsMetreYupArm()
{
    // data/arm_*.dae: one arm 1 m long along "up", shoulder at the origin and elbow half-way, written once
    // in metres with Y_UP and once in centimetres (<unit meter="0.01">) with Z_UP.
    const ImportResult metre = importFile(importData("arm_metre_yup.dae"));
    const ImportResult centimetre = importFile(importData("arm_centimetre_zup.dae"));
    QVERIFY2(metre.ok(), metre.error.c_str());
    QVERIFY2(centimetre.ok(), centimetre.error.c_str());
    const ImportedScene& a = metre.scene;
    const ImportedScene& b = centimetre.scene;

    QCOMPARE(a.conversion.sourceUnit, std::string("metre"));
    QCOMPARE(a.conversion.sourceUpAxis, UpAxis::Y);
    QCOMPARE(a.conversion.scale, 1.f);
    QCOMPARE(b.conversion.sourceUnit, std::string("centimetre"));
    QCOMPARE(b.conversion.sourceUnitMetres, 0.01);
    QCOMPARE(b.conversion.scale, 0.01f);
    QCOMPARE(b.conversion.sourceUpAxis, UpAxis::Z);
    QVERIFY(!b.conversion.scaleOverridden && !b.conversion.upAxisOverridden);
    // The recorded matrix maps file coordinates: (0, 0, 100) cm, Z up, is (0, 1, 0) m.
    QVERIFY(length(b.conversion.matrix.transformPoint({0.f, 0.f, 100.f}) - Vec3(0.f, 1.f, 0.f)) < 1e-6f);

    // Positions: the arm stands from y = 0 to y = 1 m, 10 cm thick, in both.
    const auto box = b.bounds();
    QVERIFY(length(box[0] - Vec3(-0.05f, 0.f, -0.05f)) < 1e-6f);
    QVERIFY(length(box[1] - Vec3(0.05f, 1.f, 0.05f)) < 1e-6f);
    QVERIFY(largestDistance(allPositions(a), allPositions(b)) < 1e-6f);
    for (size_t v = 0; v < a.meshes[0].normals.size(); ++v)
        QVERIFY(length(a.meshes[0].normals[v] - b.meshes[0].normals[v]) < 1e-5f);

    // Bones: same names, parents and matrices (the elbow 0.5 m up, frames without the unit's scale).
    QCOMPARE(b.skeleton.size(), size_t(2));
    QCOMPARE(b.skeleton[1].name, std::string("elbow"));
    QCOMPARE(b.skeleton[1].bindWorld.translation(), Vec3(0.f, 0.5f, 0.f));
    for (size_t i = 0; i < 2; ++i) {
        QVERIFY(maxDifference(a.skeleton[i].bindWorld, b.skeleton[i].bindWorld) < 1e-6f);
        QVERIFY(maxDifference(a.skeleton[i].bindLocal, b.skeleton[i].bindLocal) < 1e-6f);
        QVERIFY(maxDifference(a.skeleton[i].inverseBind, b.skeleton[i].inverseBind) < 1e-6f);
        QVERIFY(maxDifference(a.boneInfo[i].restLocal, b.boneInfo[i].restLocal) < 1e-6f);
    }
    // Keys: the same pose at every sampled time.
    QCOMPARE(b.animations.size(), size_t(1));
    for (float t : {0.f, 0.25f, 0.5f, 1.f}) {
        const auto pa = boneWorlds(a, &a.animations[0], t), pb = boneWorlds(b, &b.animations[0], t);
        for (size_t i = 0; i < pa.size(); ++i)
            QVERIFY2(maxDifference(pa[i], pb[i]) < 1e-5f, qPrintable(QString::number(double(t))));
    }
}

void TestImportConversion::collada_armKeysBendTheElbowForward()
{
    // The clip turns the elbow 0°, 45°, 90° about +X at 0, 0.5, 1 s. Turning +90° about X takes the forearm
    // (pointing up) to point along +Z in Y-up, and the cm Z-up file's forearm (along +Z) to -Y, which is
    // +Z after conversion: both tips end at (0, 0.5, 0.5) m.
    for (const char* file : {"arm_metre_yup.dae", "arm_centimetre_zup.dae"}) {
        const ImportResult r = importFile(importData(file));
        QVERIFY2(r.ok(), r.error.c_str());
        const ImportedScene& s = r.scene;
        QCOMPARE(s.animations[0].duration, 1.f);
        QCOMPARE(bindPoseSkinningError(s), 0.f);
        std::vector<Vec3> tipAtRest, tipBent, tipAtStart;
        const std::vector<Vec3> bent = skin(s, s.meshes[0], boneWorlds(s, &s.animations[0], 1.f));
        const std::vector<Vec3> start = skin(s, s.meshes[0], boneWorlds(s, &s.animations[0], 0.f));
        for (size_t v = 0; v < bent.size(); ++v)
            if (s.meshes[0].positions[v].y > 0.99f) {
                tipAtRest.push_back(s.meshes[0].positions[v]);
                tipBent.push_back(bent[v]);
                tipAtStart.push_back(start[v]);
            }
        QCOMPARE(tipAtRest.size(), size_t(4));
        QVERIFY(length(centroid(tipAtRest) - Vec3(0.f, 1.f, 0.f)) < 1e-6f);
        QVERIFY(length(centroid(tipAtStart) - Vec3(0.f, 1.f, 0.f)) < 1e-5f); // the first key is the bind pose
        QVERIFY2(length(centroid(tipBent) - Vec3(0.f, 0.5f, 0.5f)) < 1e-5f, file);
    }
}

void TestImportConversion::collada_assimpModelsUnitsAndAxes_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("unit");
    QTest::addColumn<double>("metres");
    QTest::addColumn<int>("up");
    QTest::addColumn<float>("height"); ///< extent along +Y after conversion, metres
    // <unit meter="0.0254" name="inch"/> Z_UP: a cube from z = 0 to z = 2 inches.
    QTest::newRow("cube_with_2UVs inch Z-up") << assimpModel("Collada/cube_with_2UVs.DAE") << "inch" << 0.0254
                                            << int(UpAxis::Z) << 0.0508f;
    // <unit meter="0.01" name="centimeter"/> Y_UP: the duck's positions span y = 9.929 .. 163.97 (cm).
    QTest::newRow("duck centimetre Y-up") << assimpModel("Collada/duck.dae") << "centimetre" << 0.01 << int(UpAxis::Y)
                                          << 1.5404f;
    // MakeHuman's character: <unit meter="1.0000" name="meter"/> Y_UP, positions span y = 0.0005 .. 1.6599.
    QTest::newRow("human.zae metre Y-up") << assimpModel("Collada/human.zae") << "metre" << 1. << int(UpAxis::Y)
                                          << 1.6594f;
}

void TestImportConversion::collada_assimpModelsUnitsAndAxes()
{
    QFETCH(QString, path);
    QFETCH(QString, unit);
    QFETCH(double, metres);
    QFETCH(int, up);
    QFETCH(float, height);
    MARIONETTE_REQUIRE_FILE(path);
    const ImportResult r = importFile(path);
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(QString::fromStdString(r.scene.conversion.sourceUnit), unit);
    QCOMPARE(r.scene.conversion.sourceUnitMetres, metres);
    QCOMPARE(int(r.scene.conversion.sourceUpAxis), up);
    const auto box = r.scene.bounds();
    QVERIFY2(std::fabs((box[1].y - box[0].y) - height) < 1e-3f * height, qPrintable(QString::number(double(box[1].y - box[0].y))));
}

void TestImportConversion::fbx_centimetresBecomeMetres()
{
    // UnitScaleFactor 1: one FBX unit is a centimetre. Importing with the scale forced to 1 (metre per unit)
    // must give exactly 100 times the lengths: positions, bone translations and position keys; rotations and
    // weights unchanged.
    const QString path = assimpModel("FBX/huesitos.fbx");
    MARIONETTE_REQUIRE_FILE(path);
    const ImportResult cm = importFile(path);
    ImportOptions raw;
    raw.scale = 1.f;
    const ImportResult unscaled = importFile(path, raw);
    QVERIFY2(cm.ok(), cm.error.c_str());
    QVERIFY2(unscaled.ok(), unscaled.error.c_str());
    QCOMPARE(cm.scene.conversion.sourceUnit, std::string("centimetre"));
    QCOMPARE(cm.scene.conversion.scale, 0.01f);
    QVERIFY(unscaled.scene.conversion.scaleOverridden);
    QCOMPARE(unscaled.scene.conversion.sourceUnit, std::string("centimetre")); // what the file says, still
    const auto a = allPositions(cm.scene), b = allPositions(unscaled.scene);
    QCOMPARE(a.size(), b.size());
    const float size = sceneSize(unscaled.scene);
    for (size_t i = 0; i < a.size(); ++i)
        QVERIFY(length(a[i] * 100.f - b[i]) < 1e-5f * size);
    QCOMPARE(cm.scene.skeleton.size(), unscaled.scene.skeleton.size());
    for (size_t i = 0; i < cm.scene.skeleton.size(); ++i) {
        const Mat4& m = cm.scene.skeleton[i].bindWorld;
        const Mat4& u = unscaled.scene.skeleton[i].bindWorld;
        QVERIFY(length(m.translation() * 100.f - u.translation()) < 1e-5f * size);
        for (int k : {0, 1, 2, 4, 5, 6, 8, 9, 10})
            QVERIFY(std::fabs(m.m[k] - u.m[k]) < 1e-5f);
    }
    const BoneChannel& kc = cm.scene.animations.at(0).channels.at(3);
    const BoneChannel& ku = unscaled.scene.animations.at(0).channels.at(3);
    QCOMPARE(kc.positions.size(), ku.positions.size());
    for (size_t k = 0; k < kc.positions.size(); ++k)
        QVERIFY(length(kc.positions[k].value * 100.f - ku.positions[k].value) < 1e-5f * size);
    // The size in metres: the bone chain of this Blender scene stands 4.6 m (Blender's default 1 m bones).
    const auto box = cm.scene.bounds();
    QVERIFY(box[1].y - box[0].y > 4.f && box[1].y - box[0].y < 6.f);
}

void TestImportConversion::fbx_zUpFileIsRotated()
{
    // 3ds Max export with UpAxis 2 (Z) and UnitScaleFactor 100 (metres): a box 1.2 units tall along Z.
    const QString path = assimpModel("FBX/embedded_ascii/box.FBX");
    MARIONETTE_REQUIRE_FILE(path);
    const ImportResult converted = importFile(path);
    ImportOptions asIs;
    asIs.upAxis = UpAxis::Y;
    const ImportResult unrotated = importFile(path, asIs);
    QVERIFY2(converted.ok(), converted.error.c_str());
    QVERIFY2(unrotated.ok(), unrotated.error.c_str());
    QCOMPARE(converted.scene.conversion.sourceUpAxis, UpAxis::Z);
    QCOMPARE(converted.scene.conversion.sourceUnit, std::string("metre"));
    QVERIFY(unrotated.scene.conversion.upAxisOverridden);
    const auto a = allPositions(converted.scene), b = allPositions(unrotated.scene);
    QCOMPARE(a.size(), size_t(24));
    for (size_t i = 0; i < a.size(); ++i)
        QVERIFY(length(a[i] - zUpToYUp(b[i])) < 1e-6f);
    for (size_t i = 0; i < a.size(); ++i)
        QVERIFY(length(converted.scene.meshes[0].normals[i] - zUpToYUp(unrotated.scene.meshes[0].normals[i])) < 1e-6f);
    const auto box = converted.scene.bounds();
    QVERIFY(std::fabs(box[0].y) < 1e-6f && std::fabs(box[1].y - 1.2f) < 1e-5f); // standing on y = 0, 1.2 m tall
}

void TestImportConversion::blend_isZup()
{
    // Assimp 5.2 leaves Blender's Z-up coordinates alone; the import rotates them.
    const QString path = assimpModel("BLEND/HUMAN.blend");
    MARIONETTE_REQUIRE_FILE(path);
    const ImportResult converted = importFile(path);
    ImportOptions asIs;
    asIs.upAxis = UpAxis::Y;
    const ImportResult unrotated = importFile(path, asIs);
    QVERIFY2(converted.ok(), converted.error.c_str());
    QVERIFY2(unrotated.ok(), unrotated.error.c_str());
    QCOMPARE(converted.scene.conversion.sourceUpAxis, UpAxis::Z);
    QCOMPARE(converted.scene.conversion.sourceUnit, std::string("unknown"));
    const auto a = allPositions(converted.scene), b = allPositions(unrotated.scene);
    QCOMPARE(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i)
        QVERIFY(length(a[i] - zUpToYUp(b[i])) < 1e-5f);
    // The figure is taller than wide once upright.
    const auto box = converted.scene.bounds();
    QVERIFY(box[1].y - box[0].y > 2.f * (box[1].x - box[0].x) * 0.5f);
}

void TestImportConversion::smd_isZupLikeTheSameModelInB3d()
{
    // Wuson ships as Valve SMD (Source engine: Z up) and as BlitzBasic B3D (Y up); converted, both stand the
    // same way: 1.52 units tall along +Y, 3.24 long along Z.
    const QString smd = assimpModel("SMD/WusonSMD.smd"), b3d = assimpModel("B3D/WusonBlitz.b3d");
    MARIONETTE_REQUIRE_FILE(smd);
    MARIONETTE_REQUIRE_FILE(b3d);
    const ImportResult a = importFile(smd);
    const ImportResult b = importFile(b3d);
    QVERIFY2(a.ok(), a.error.c_str());
    QVERIFY2(b.ok(), b.error.c_str());
    QCOMPARE(a.scene.conversion.sourceUpAxis, UpAxis::Z);
    QCOMPARE(b.scene.conversion.sourceUpAxis, UpAxis::Y);
    const auto boxA = a.scene.bounds(), boxB = b.scene.bounds();
    QVERIFY2(length(boxA[0] - boxB[0]) < 1e-3f && length(boxA[1] - boxB[1]) < 1e-3f,
             qPrintable(QTest::toString(boxA[0]) + QStringLiteral(" / ") + QTest::toString(boxA[1])));
    QVERIFY(std::fabs(boxA[1].y - 1.52f) < 0.01f);
}

// MD5 (Doom 3) and the Half-Life MDL write no unit; their engines measure in inches. SimpleCube.md5mesh is
// a cube 64 units wide: 64 × 0.0254 = 1.6256 m. An explicit scale still replaces the convention.
void TestImportConversion::idFormats_areInchesByConvention()
{
    const QString md5 = assimpModel("MD5/SimpleCube.md5mesh");
    MARIONETTE_REQUIRE_FILE(md5);
    const ImportResult r = importFile(md5);
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.scene.conversion.sourceUnit, std::string("inch"));
    QVERIFY(r.scene.conversion.unitByConvention);
    QCOMPARE(r.scene.conversion.scale, 0.0254f);
    const auto box = r.scene.bounds();
    QVERIFY2(std::fabs(box[1].x - box[0].x - 64.f * 0.0254f) < 1e-4f, qPrintable(QTest::toString(box[1] - box[0])));
    ImportOptions o;
    o.scale = 1.f;
    const ImportResult native = importFile(md5, o);
    QVERIFY2(native.ok(), native.error.c_str());
    QVERIFY(native.scene.conversion.scaleOverridden);
    QCOMPARE(native.scene.conversion.sourceUnit, std::string("inch")); // the file's unit stays on record
    const auto nativeBox = native.scene.bounds();
    QVERIFY(std::fabs(nativeBox[1].x - nativeBox[0].x - 64.f) < 1e-3f);

    const QString man = assimpModel("MDL/MDL (HL1)/man.mdl");
    MARIONETTE_REQUIRE_FILE(man);
    const ImportResult hl = importFile(man);
    QVERIFY2(hl.ok(), hl.error.c_str());
    QCOMPARE(hl.scene.conversion.sourceUnit, std::string("inch"));
    QVERIFY(hl.scene.conversion.unitByConvention);
    // A format that declares its unit (glTF, Collada) is never marked as a convention.
    const ImportResult dae = importFile(importData("arm_metre_yup.dae"));
    QVERIFY2(dae.ok(), dae.error.c_str());
    QVERIFY(!dae.scene.conversion.unitByConvention);
}

void TestImportConversion::overrides_scaleAndUpAxisAreAppliedAndRecorded()
{
    ImportOptions o;
    o.scale = 2.f;
    o.upAxis = UpAxis::Z;
    const ImportResult plain = importFile(importData("arm_metre_yup.dae"));
    const ImportResult r = importFile(importData("arm_metre_yup.dae"), o);
    QVERIFY2(plain.ok(), plain.error.c_str());
    QVERIFY2(r.ok(), r.error.c_str());
    const ImportConversion& c = r.scene.conversion;
    QVERIFY(c.scaleOverridden && c.upAxisOverridden);
    QCOMPARE(c.scale, 2.f);
    QCOMPARE(c.sourceUpAxis, UpAxis::Z);
    QCOMPARE(c.sourceUnit, std::string("metre")); // the file's own unit stays on record
    const auto a = allPositions(plain.scene), b = allPositions(r.scene);
    for (size_t i = 0; i < a.size(); ++i)
        QVERIFY(length(zUpToYUp(a[i]) * 2.f - b[i]) < 1e-6f);
    // The elbow: (0, 0.5, 0) read as Z-up and doubled is (0, 0, -1); its frame stays rigid.
    QVERIFY(length(r.scene.skeleton[1].bindWorld.translation() - Vec3(0.f, 0.f, -1.f)) < 1e-6f);
    QCOMPARE(bindPoseSkinningError(r.scene), 0.f);
    QVERIFY(!hasWarning(r.scene, "scale"));
    // Keys follow: the bent tip, (0, 0.5, 0.5) in the plain import, is at 2·(0, 0.5, -0.5).
    const std::vector<Vec3> bent = skin(r.scene, r.scene.meshes[0], boneWorlds(r.scene, &r.scene.animations[0], 1.f));
    std::vector<Vec3> tip;
    for (size_t v = 0; v < bent.size(); ++v)
        if (plain.scene.meshes[0].positions[v].y > 0.99f)
            tip.push_back(bent[v]);
    QVERIFY(length(centroid(tip) - Vec3(0.f, 1.f, -1.f)) < 1e-5f);
}

void TestImportConversion::overrides_badScaleIsRefused_data()
{
    QTest::addColumn<float>("scale");
    QTest::newRow("zero") << 0.f;
    QTest::newRow("negative") << -1.f;
    QTest::newRow("nan") << std::numeric_limits<float>::quiet_NaN();
    QTest::newRow("infinite") << std::numeric_limits<float>::infinity();
}

void TestImportConversion::overrides_badScaleIsRefused()
{
    QFETCH(float, scale);
    ImportOptions o;
    o.scale = scale;
    const std::string path = importData("arm_metre_yup.dae").toStdString();
    const ImportResult r = importScene(path, o);
    QCOMPARE(r.status, ImportStatus::Failed);
    QCOMPARE(r.error.rfind(path + ": the scale option must be a finite number > 0", 0), size_t(0));
}

QTEST_APPLESS_MAIN(TestImportConversion)
#include "tst_importconversion.moc"
