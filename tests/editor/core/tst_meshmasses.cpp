// Masses from the mesh (editor/autorig MeshMasses.h) on hand-made skinned boxes whose volumes are known: a
// 2 × 1 × 1 box (2 m³) skinned half to each of two bones gives them equal masses, a 1:3 split of every
// vertex's weights gives 1:3, a bone nothing drives passes its volume to its driven parent, inside-out
// winding changes nothing, an open box is measured part by part (2/3 m³ a half), the total is kept to float rounding, and bad input (no
// skeleton, no skin, zero volume, NaN, bad total, no dynamic particle) is refused with one line.
#include "marionette/editor/autorig/MeshMasses.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace marionette;

namespace {

rig::Bone bone(const char* name, std::int32_t parent, Vec3 head)
{
    rig::Bone b;
    b.name = name;
    b.parent = parent;
    b.bindWorld.m[12] = head.x;
    b.bindWorld.m[13] = head.y;
    b.bindWorld.m[14] = head.z;
    b.inverseBind.m[12] = -head.x;
    b.inverseBind.m[13] = -head.y;
    b.inverseBind.m[14] = -head.z;
    return b;
}

/// A closed 2 × 1 × 1 box centred on the origin (x in [-1, 1]), outward counter-clockwise triangles, skinned
/// to bones "A" (head at x = -0.5) and "B" (x = 0.5) by `weightA(vertex position)`, and "C", a child of B
/// that skins nothing unless `toC`.
import::ImportedScene box(float (*weightA)(Vec3), bool toC = false)
{
    import::ImportedScene s;
    s.skeleton = {bone("A", rig::kNone, {-0.5f, 0, 0}), bone("B", 0, {0.5f, 0, 0}), bone("C", 1, {1.f, 0, 0})};
    import::ImportedMesh m;
    m.name = "box";
    m.positions = {{-1, -.5f, -.5f}, {1, -.5f, -.5f}, {1, .5f, -.5f}, {-1, .5f, -.5f},
                   {-1, -.5f, .5f},  {1, -.5f, .5f},  {1, .5f, .5f},  {-1, .5f, .5f}};
    m.indices = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 3, 7, 6, 3, 6, 2, 0, 4, 7, 0, 7, 3, 1, 2, 6, 1, 6, 5};
    for (const Vec3& p : m.positions) {
        import::VertexInfluences in;
        const float a = weightA(p);
        in.bone = {0, toC ? 2 : 1, rig::kNone, rig::kNone};
        in.weight = {a, 1.f - a, 0.f, 0.f};
        m.influences.push_back(in);
    }
    m.normals.assign(m.positions.size(), Vec3{0, 1, 0});
    s.meshes.push_back(m);
    return s;
}

float halfByX(Vec3 p) { return p.x < 0 ? 1.f : 0.f; }
float quarterEverywhere(Vec3) { return 0.25f; }

rig::Particle particle(Vec3 at, std::int32_t boneIndex)
{
    rig::Particle p;
    p.position = at;
    p.bone = boneIndex;
    return p;
}

/// Four particles: sticks p0-p1 drive A, p2-p3 drive B (C follows B). Bones as in box().
rig::RigDescription drivenRig(const import::ImportedScene& scene)
{
    rig::RigDescription r;
    r.bones = scene.skeleton;
    r.particles = {particle({-1, 0, 0}, 0), particle({0, 0, 0}, 1), particle({0.1f, 0, 0}, 1), particle({1, 0, 0}, 2)};
    rig::Stick s0, s1;
    s0.a = 0, s0.b = 1, s1.a = 2, s1.b = 3;
    r.sticks = {s0, s1};
    rig::BoneBinding d0, d1;
    d0.bone = 0, d0.driver = rig::BoneBinding::Driver::Stick, d0.index = 0;
    d1.bone = 1, d1.driver = rig::BoneBinding::Driver::Stick, d1.index = 1;
    r.bindings = {d0, d1};
    return r;
}

double sum(const std::vector<float>& v)
{
    float s = 0.f; // as a float total would be summed
    for (float m : v)
        s += m;
    return double(s);
}

} // namespace

class TestMeshMasses : public QObject {
    Q_OBJECT
  private slots:
    void halfEach_givesEqualMassesAndTheBoxVolume();
    void oneToThree_givesOneToThree();
    void undrivenBone_givesItsVolumeToItsParentsDrivers();
    void rigWithoutBindings_usesTheParticlesMadeFromTheBones();
    void insideOut_givesTheSameMasses();
    void openBox_isEstimatedAndKeepsTheTotal();
    void kinematicParticle_staysKinematicAndIdleParticlesGetATenth();
    void badInput_isRefusedWithOneLine_data();
    void badInput_isRefusedWithOneLine();
};

void TestMeshMasses::halfEach_givesEqualMassesAndTheBoxVolume()
{
    const import::ImportedScene scene = box(halfByX);
    const editor::MeshMasses r = editor::massesFromMesh(drivenRig(scene), scene, 80.f);
    QVERIFY2(r.error.empty(), r.error.c_str());
    QVERIFY(r.closed);
    QCOMPARE(r.volume, 2.0);
    QVERIFY(std::abs(r.boneVolumes[0] - 1.0) < 1e-12 && std::abs(r.boneVolumes[1] - 1.0) < 1e-12);
    QCOMPARE(r.masses.size(), std::size_t(4));
    for (float m : r.masses)
        QVERIFY2(std::abs(m - 20.f) < 1e-5f, qPrintable(QString::number(m)));
    QCOMPARE(sum(r.masses), 80.0);
}

void TestMeshMasses::oneToThree_givesOneToThree()
{
    const import::ImportedScene scene = box(quarterEverywhere);
    const editor::MeshMasses r = editor::massesFromMesh(drivenRig(scene), scene, 10.f);
    QVERIFY2(r.error.empty(), r.error.c_str());
    QVERIFY(std::abs(r.boneVolumes[0] - 0.5) < 1e-12 && std::abs(r.boneVolumes[1] - 1.5) < 1e-12);
    // A's 2.5 kg over p0 and p1, B's 7.5 kg over p2 and p3.
    const float expected[4] = {1.25f, 1.25f, 3.75f, 3.75f};
    for (int i = 0; i < 4; ++i)
        QVERIFY2(std::abs(r.masses[std::size_t(i)] - expected[i]) < 1e-5f, qPrintable(QString::number(r.masses[std::size_t(i)])));
    QCOMPARE(sum(r.masses), 10.0);
}

void TestMeshMasses::undrivenBone_givesItsVolumeToItsParentsDrivers()
{
    const import::ImportedScene scene = box(halfByX, /*toC*/ true);
    const editor::MeshMasses r = editor::massesFromMesh(drivenRig(scene), scene, 8.f);
    QVERIFY2(r.error.empty(), r.error.c_str());
    QVERIFY(std::abs(r.boneVolumes[2] - 1.0) < 1e-12 && r.boneVolumes[1] == 0.0);
    for (float m : r.masses)
        QVERIFY(std::abs(m - 2.f) < 1e-6f);
}

void TestMeshMasses::rigWithoutBindings_usesTheParticlesMadeFromTheBones()
{
    const import::ImportedScene scene = box(quarterEverywhere);
    rig::RigDescription r;
    r.bones = scene.skeleton;
    r.particles = {particle({-0.5f, 0, 0}, 0), particle({0.5f, 0, 0}, 1)};
    const editor::MeshMasses m = editor::massesFromMesh(r, scene, 4.f);
    QVERIFY2(m.error.empty(), m.error.c_str());
    QVERIFY(std::abs(m.masses[0] - 1.f) < 1e-6f && std::abs(m.masses[1] - 3.f) < 1e-6f);
    // Particles not made from a bone: each bone's volume goes to the particle nearest its joint.
    r.particles = {particle({0.6f, 0, 0}, rig::kNone), particle({-0.4f, 0, 0}, rig::kNone)};
    const editor::MeshMasses n = editor::massesFromMesh(r, scene, 4.f);
    QVERIFY(std::abs(n.masses[0] - 3.f) < 1e-6f && std::abs(n.masses[1] - 1.f) < 1e-6f);
}

void TestMeshMasses::insideOut_givesTheSameMasses()
{
    import::ImportedScene scene = box(quarterEverywhere);
    for (std::size_t t = 0; t < scene.meshes[0].indices.size(); t += 3)
        std::swap(scene.meshes[0].indices[t + 1], scene.meshes[0].indices[t + 2]);
    const editor::MeshMasses r = editor::massesFromMesh(drivenRig(scene), scene, 10.f);
    QVERIFY2(r.error.empty(), r.error.c_str());
    QVERIFY(r.closed && std::abs(r.volume - 2.0) < 1e-12);
    QVERIFY(std::abs(r.masses[0] - 1.25f) < 1e-5f && std::abs(r.masses[3] - 3.75f) < 1e-5f);
}

// Without its +x face the box is open: each half is measured to its own centre, (-1, 0, 0) and (1, 0, 0). Its
// end face is flat through that centre (no volume); each of the four side faces, 0.5 m from it with 1 m² of
// its triangles on the half's side, gives 1/3 × 1 × 0.5 = 1/6 m³: 2/3 m³ each, equal masses.
void TestMeshMasses::openBox_isEstimatedAndKeepsTheTotal()
{
    import::ImportedScene scene = box(halfByX);
    auto& idx = scene.meshes[0].indices;
    idx.resize(idx.size() - 6); // no +x face
    const editor::MeshMasses r = editor::massesFromMesh(drivenRig(scene), scene, 70.f);
    QVERIFY2(r.error.empty(), r.error.c_str());
    QVERIFY(!r.closed);
    QVERIFY2(std::abs(r.boneVolumes[0] - 2.0 / 3.0) < 1e-12 && std::abs(r.boneVolumes[1] - 2.0 / 3.0) < 1e-12,
        qPrintable(QStringLiteral("%1 %2").arg(r.boneVolumes[0]).arg(r.boneVolumes[1])));
    for (float m : r.masses)
        QVERIFY(std::abs(m - 17.5f) < 1e-5f);
    QCOMPARE(sum(r.masses), 70.0);
}

void TestMeshMasses::kinematicParticle_staysKinematicAndIdleParticlesGetATenth()
{
    const import::ImportedScene scene = box(halfByX);
    rig::RigDescription r = drivenRig(scene);
    r.particles[0].mass = 0.f;                               // kinematic: A's volume all to p1
    r.particles.push_back(particle({5, 5, 5}, rig::kNone)); // drives nothing
    const editor::MeshMasses m = editor::massesFromMesh(r, scene, 10.f);
    QVERIFY2(m.error.empty(), m.error.c_str());
    // Volumes: p1 1, p2 0.5, p3 0.5, p4 0 -> a tenth of the heaviest, 0.1; total 2.1 -> 10 kg.
    QCOMPARE(m.masses[0], 0.f);
    QVERIFY(std::abs(m.masses[1] - float(10.0 / 2.1)) < 1e-5f);
    QVERIFY(std::abs(m.masses[2] - float(5.0 / 2.1)) < 1e-5f);
    QVERIFY(std::abs(m.masses[4] - float(1.0 / 2.1)) < 1e-5f);
    QCOMPARE(sum(m.masses), 10.0);
}

using SceneEdit = void (*)(import::ImportedScene&, rig::RigDescription&, float&);
Q_DECLARE_METATYPE(SceneEdit)

void TestMeshMasses::badInput_isRefusedWithOneLine_data()
{
    QTest::addColumn<SceneEdit>("edit");
    QTest::addColumn<QString>("error");
    QTest::newRow("no skeleton") << SceneEdit([](import::ImportedScene& s, rig::RigDescription&, float&) {
        s.skeleton.clear();
        s.meshes[0].influences.clear();
    }) << QStringLiteral("the mesh has no skeleton");
    QTest::newRow("no skin") << SceneEdit([](import::ImportedScene& s, rig::RigDescription&, float&) {
        s.meshes[0].influences.clear();
    }) << QStringLiteral("no vertex of the mesh is bound to a bone (the mesh has no skin)");
    QTest::newRow("flat box") << SceneEdit([](import::ImportedScene& s, rig::RigDescription&, float&) {
        for (Vec3& p : s.meshes[0].positions)
            p.y = 0.f;
    }) << QStringLiteral("the mesh encloses no volume its skin gives to bones");
    QTest::newRow("NaN vertex") << SceneEdit([](import::ImportedScene& s, rig::RigDescription&, float&) {
        s.meshes[0].positions[5].z = std::numeric_limits<float>::quiet_NaN();
    }) << QStringLiteral("mesh 'box' vertex 5 is not finite");
    QTest::newRow("NaN total") << SceneEdit([](import::ImportedScene&, rig::RigDescription&, float& total) {
        total = std::numeric_limits<float>::quiet_NaN();
    }) << QStringLiteral("total mass must be a finite number of kilograms above 0 (at most 1e6)");
    QTest::newRow("zero total") << SceneEdit([](import::ImportedScene&, rig::RigDescription&, float& total) {
        total = 0.f;
    }) << QStringLiteral("total mass must be a finite number of kilograms above 0 (at most 1e6)");
    QTest::newRow("all kinematic") << SceneEdit([](import::ImportedScene&, rig::RigDescription& r, float&) {
        for (rig::Particle& p : r.particles)
            p.mass = 0.f;
    }) << QStringLiteral("the rig has no dynamic particle (every mass is 0)");
    QTest::newRow("index out of range") << SceneEdit([](import::ImportedScene& s, rig::RigDescription&, float&) {
        s.meshes[0].indices[4] = 99;
    }) << QStringLiteral("mesh 'box': vertex index 99 out of range");
}

void TestMeshMasses::badInput_isRefusedWithOneLine()
{
    QFETCH(SceneEdit, edit);
    QFETCH(QString, error);
    import::ImportedScene scene = box(halfByX);
    rig::RigDescription r = drivenRig(scene);
    float total = 75.f;
    edit(scene, r, total);
    const editor::MeshMasses m = editor::massesFromMesh(r, scene, total);
    QCOMPARE(QString::fromStdString(m.error), error);
    QVERIFY(m.masses.empty());
}

QTEST_GUILESS_MAIN(TestMeshMasses)
#include "tst_meshmasses.moc"
