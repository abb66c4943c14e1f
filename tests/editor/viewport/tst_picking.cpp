// Tests of the viewport's picking (Picking.h): particles, sticks, triangles, hidden/locked elements, box
// selection, the mesh's entry/exit points and the nearest joint. The camera looks down −Z from (0, 0, 5)
// at an 800×600 viewport: a pixel at depth 5 is 2·5·tan 22.5° / 600 = 0.0069036 m, so 1 m at z = 0 is
// 144.853 px from the centre (400, 300).
#include "viewport/MeshRaycaster.h"
#include "viewport/Picking.h"

#include <QElapsedTimer>
#include <QtTest/QtTest>

#include "ViewportTestSupport.h"

using namespace marionette;
using namespace marionette::viewport;
using namespace marionette::test;
using project::ElementKind;
using project::ElementRef;

namespace {

constexpr QSize kSize{800, 600};
constexpr double kPixelsPerMetre = 144.853; // at z = 0

Camera frontCamera()
{
    Camera c;
    c.setViewportSize(kSize);
    c.setView(Camera::View::Front);
    c.setDistance(5.f);
    return c;
}

QPointF pixelOf(float x, float y)
{
    return {400. + double(x) * kPixelsPerMetre, 300. - double(y) * kPixelsPerMetre};
}

} // namespace

class TestPicking : public QObject {
    Q_OBJECT

private slots:
    void pickAt_particleUnderTheCursor();
    void pickAt_nearerOfTwoOverlappingParticles();
    void pickAt_skipsHiddenAndLocked_data();
    void pickAt_skipsHiddenAndLocked();
    void pickAt_tinyParticleHasAMinimumScreenSize();
    void pickAt_stickWithinToleranceOnly_data();
    void pickAt_stickWithinToleranceOnly();
    void pickAt_particleWinsOverStickWinsOverTriangle();
    void pickAt_boxShapeAndBone();
    void pickAt_switchedOffLayerIsNotPicked();
    void pickInRect_selectsCentresInside();
    void surfacePoint_cubeEntryExitAndMidpoint_data();
    void surfacePoint_cubeEntryExitAndMidpoint();
    void surfacePoint_limbCentreAndMiss();
    void surfacePoint_followsTheSkinningPalette();
    void surfacePoint_openMeshHasNoExit();
    void surfacePoint_largeMeshPicksFast();
    void nearestJoint_nearestHeadWithinReach();
};

void TestPicking::pickAt_particleUnderTheCursor()
{
    rig::RigDescription r;
    r.particles = {particle(11, {0, 0, 0}, 0.1f), particle(12, {1, 0, 0}, 0.1f)};
    ViewportScene s;
    s.rig = &r;
    std::optional<Pick> p = pickAt(s, frontCamera(), kSize, pixelOf(0, 0));
    QVERIFY(p);
    QCOMPARE(p->element, (ElementRef{ElementKind::Particle, 11}));
    QCOMPARE(p->index, 0);
    QVERIFY2(near(p->point, {0, 0, 0.1f}), qPrintable(str(p->point))); // the sphere's front
    QVERIFY(std::abs(p->depth - 4.9f) < 1e-4f);
    p = pickAt(s, frontCamera(), kSize, pixelOf(1.05f, 0.05f));
    QVERIFY(p);
    QCOMPARE(p->element.id, 12u);
    QVERIFY(!pickAt(s, frontCamera(), kSize, pixelOf(0.5f, 0)));
    s.rig = nullptr;
    QVERIFY(!pickAt(s, frontCamera(), kSize, pixelOf(0, 0)));
}

void TestPicking::pickAt_nearerOfTwoOverlappingParticles()
{
    rig::RigDescription r;
    r.particles = {particle(1, {0, 0, 0}, 0.1f), particle(2, {0.05f, 0, 1}, 0.1f), particle(3, {0, 0, -1}, 0.2f)};
    ViewportScene s;
    s.rig = &r;
    const std::optional<Pick> p = pickAt(s, frontCamera(), kSize, pixelOf(0.02f, 0));
    QVERIFY(p);
    QCOMPARE(p->element.id, 2u); // z = 1 is nearest the eye at z = 5
}

void TestPicking::pickAt_skipsHiddenAndLocked_data()
{
    QTest::addColumn<bool>("locked");
    QTest::newRow("hidden") << false;
    QTest::newRow("locked") << true;
}

void TestPicking::pickAt_skipsHiddenAndLocked()
{
    QFETCH(bool, locked);
    rig::RigDescription r;
    r.particles = {particle(1, {0, 0, 0}, 0.1f), particle(2, {0, 0, 1}, 0.1f)};
    ViewportScene s;
    s.rig = &r;
    (locked ? s.locked : s.hidden).push_back({ElementKind::Particle, 2});
    std::optional<Pick> p = pickAt(s, frontCamera(), kSize, pixelOf(0, 0));
    QVERIFY(p);
    QCOMPARE(p->element.id, 1u);
    (locked ? s.locked : s.hidden).push_back({ElementKind::Particle, 1});
    QVERIFY(!pickAt(s, frontCamera(), kSize, pixelOf(0, 0)));
    // another kind with the same id is not affected
    s.hidden = {{ElementKind::Stick, 1}};
    s.locked.clear();
    p = pickAt(s, frontCamera(), kSize, pixelOf(0, 0));
    QVERIFY(p && p->element.id == 2u);
}

void TestPicking::pickAt_tinyParticleHasAMinimumScreenSize()
{
    rig::RigDescription r;
    r.particles = {particle(1, {0, 0, 0}, 0.001f)}; // 0.14 px on screen
    ViewportScene s;
    s.rig = &r;
    QVERIFY(pickAt(s, frontCamera(), kSize, QPointF(403, 300)));  // within kMinParticlePixels = 5
    QVERIFY(!pickAt(s, frontCamera(), kSize, QPointF(407, 300)));
}

void TestPicking::pickAt_stickWithinToleranceOnly_data()
{
    QTest::addColumn<double>("offsetPixels");
    QTest::addColumn<bool>("picked");
    QTest::newRow("on the line") << 0. << true;
    QTest::newRow("4 px above") << -4. << true;
    QTest::newRow("5.5 px below") << 5.5 << true;
    QTest::newRow("7 px above") << -7. << false;
    QTest::newRow("10 px below") << 10. << false;
}

void TestPicking::pickAt_stickWithinToleranceOnly()
{
    QFETCH(double, offsetPixels);
    QFETCH(bool, picked);
    rig::RigDescription r;
    r.particles = {particle(1, {-1, 0, 0}, 0.01f), particle(2, {1, 0, 0}, 0.01f)};
    r.sticks = {stick(7, 0, 1, rig::StickKind::Range)};
    ViewportScene s;
    s.rig = &r;
    const std::optional<Pick> p = pickAt(s, frontCamera(), kSize, pixelOf(0.5f, 0) + QPointF(0, offsetPixels));
    QCOMPARE(bool(p), picked);
    if (p) {
        QCOMPARE(p->element, (ElementRef{ElementKind::Stick, 7}));
        QVERIFY2(near(p->point, {0.5f, 0, 0}, 1e-3f), qPrintable(str(p->point)));
    }
}

void TestPicking::pickAt_particleWinsOverStickWinsOverTriangle()
{
    rig::RigDescription r;
    r.particles = {particle(1, {0, 0, 0}, 0.f), particle(2, {1, 0, 0}, 0.f), particle(3, {0, 1, 0}, 0.f)};
    r.sticks = {stick(5, 0, 1)};
    rig::Triangle t;
    t.id = 9;
    t.p[0] = 0, t.p[1] = 1, t.p[2] = 2;
    r.triangles = {t};
    ViewportScene s;
    s.rig = &r;
    const Camera c = frontCamera();
    std::optional<Pick> p = pickAt(s, c, kSize, pixelOf(0, 0) + QPointF(2, -2)); // on particle 1, inside the triangle
    QVERIFY(p);
    QCOMPARE(p->element, (ElementRef{ElementKind::Particle, 1}));
    p = pickAt(s, c, kSize, pixelOf(0.5f, 0) + QPointF(0, -3)); // the stick along the triangle's edge
    QVERIFY(p);
    QCOMPARE(p->element, (ElementRef{ElementKind::Stick, 5}));
    p = pickAt(s, c, kSize, pixelOf(0.25f, 0.25f)); // inside, away from edges
    QVERIFY(p);
    QCOMPARE(p->element, (ElementRef{ElementKind::Triangle, 9}));
    QVERIFY(near(p->point, {0.25f, 0.25f, 0}, 1e-3f));
    // a nearer particle in front of the triangle beats it; a triangle in front of a particle beats it
    // (1.2, 0.3, −1) is seen through (1, 0.25, 0), outside the triangle; (0.2, 0.2, −1) through
    // (0.167, 0.167, 0), inside it
    r.particles.push_back(particle(4, {1.2f, 0.3f, -1.f}, 0.1f));
    p = pickAt(s, c, kSize, c.project({1.2f, 0.3f, -1.f}, kSize).value());
    QVERIFY(p);
    QCOMPARE(p->element, (ElementRef{ElementKind::Particle, 4}));
    r.particles[3].position = {0.2f, 0.2f, -1.f};
    p = pickAt(s, c, kSize, c.project({0.2f, 0.2f, -1.f}, kSize).value());
    QVERIFY(p);
    QCOMPARE(p->element, (ElementRef{ElementKind::Triangle, 9}));
}

void TestPicking::pickAt_boxShapeAndBone()
{
    rig::RigDescription r;
    r.particles = {particle(1, {-2, 0, 0}, 0.01f), particle(2, {-2, 1, 0}, 0.01f), particle(3, {-1, 0, 0}, 0.01f)};
    rig::Triangle t;
    t.id = 1;
    t.p[0] = 0, t.p[1] = 1, t.p[2] = 2;
    r.triangles = {t};
    // triangle frame: origin = centroid (−5/3, 1/3, 0), up = +Y, facing = up × (p2 − p0) = −Z, right = −X
    rig::Shape box;
    box.id = 4;
    box.triangle = 0;
    box.local.translation = {1.f, 0, 0}; // 1 m along right (−X): centre (−8/3, 1/3, 0)
    box.halfExtents = {0.2f, 0.2f, 0.2f};
    r.shapes = {box};
    rig::Bone root, child;
    root.id = 20;
    root.bindWorld.m[12] = 1.f;
    child.id = 21;
    child.parent = 0;
    child.bindWorld.m[12] = 2.f;
    child.bindWorld.m[13] = 1.f;
    r.bones = {root, child};
    ViewportScene s;
    s.rig = &r;
    const Camera c = frontCamera();
    std::optional<Pick> p = pickAt(s, c, kSize, pixelOf(-8.f / 3.f, 1.f / 3.f));
    QVERIFY(p);
    QCOMPARE(p->element, (ElementRef{ElementKind::Shape, 4}));
    // the front face z = 0.2 is met at 4.8/5 of the way to z = 0: (−8/3, 1/3)·0.96
    QVERIFY2(near(p->point, {-2.56f, 0.32f, 0.2f}, 1e-3f), qPrintable(str(p->point)));
    p = pickAt(s, c, kSize, pixelOf(1.5f, 0.5f)); // middle of the root bone (1,0,0) -> (2,1,0)
    QVERIFY(p);
    QCOMPARE(p->element, (ElementRef{ElementKind::Bone, 20}));
}

void TestPicking::pickAt_switchedOffLayerIsNotPicked()
{
    rig::RigDescription r;
    r.particles = {particle(1, {0, 0, 0}, 0.1f)};
    ViewportScene s;
    s.rig = &r;
    DisplayOptions layers;
    layers.showParticles = false;
    QVERIFY(!pickAt(s, frontCamera(), kSize, pixelOf(0, 0), layers));
    QVERIFY(pickInRect(s, frontCamera(), kSize, QRectF(0, 0, 800, 600), layers).empty());
}

void TestPicking::pickInRect_selectsCentresInside()
{
    rig::RigDescription r;
    r.particles = {particle(1, {0, 0, 0}), particle(2, {1, 0, 0}), particle(3, {-1, 0, 0}), particle(4, {1, 0.2f, 0})};
    r.sticks = {stick(8, 1, 3), stick(9, 0, 2)}; // midpoints (1, 0.1, 0) and (−0.5, 0, 0)
    ViewportScene s;
    s.rig = &r;
    s.hidden = {{ElementKind::Particle, 4}};
    // x in [450, 700] is 0.345 .. 2.07 m; y in [250, 350] is ±0.345 m
    std::vector<ElementRef> got = pickInRect(s, frontCamera(), kSize, QRectF(QPointF(700, 350), QPointF(450, 250)));
    const std::vector<ElementRef> expected{{ElementKind::Particle, 2}, {ElementKind::Stick, 8}};
    QCOMPARE(got, expected);
    got = pickInRect(s, frontCamera(), kSize, QRectF(0, 0, 800, 600));
    QCOMPARE(got.size(), std::size_t(5)); // three visible particles and two sticks
}

void TestPicking::surfacePoint_cubeEntryExitAndMidpoint_data()
{
    QTest::addColumn<float>("x");
    QTest::addColumn<float>("y");
    QTest::addColumn<Vec3>("entry");
    QTest::addColumn<Vec3>("exit");
    // the ray from (0, 0, 5) through (x, y, 0) meets z = 0.5 at 0.9 of the way and z = −0.5 at 1.1
    QTest::newRow("centre") << 0.f << 0.f << Vec3{0, 0, 0.5f} << Vec3{0, 0, -0.5f};
    QTest::newRow("off centre") << 0.2f << 0.1f << Vec3{0.18f, 0.09f, 0.5f} << Vec3{0.22f, 0.11f, -0.5f};
    // through (0.45, 0, 0): enters the front at 0.9 (x = 0.405); it would reach the side x = 0.5 at 1.111
    // (z = −0.556), past the back face, so it leaves through the back at 1.1: (0.495, 0, −0.5)
    QTest::newRow("near the side") << 0.45f << 0.f << Vec3{0.405f, 0, 0.5f} << Vec3{0.495f, 0, -0.5f};
}

void TestPicking::surfacePoint_cubeEntryExitAndMidpoint()
{
    QFETCH(float, x);
    QFETCH(float, y);
    QFETCH(Vec3, entry);
    QFETCH(Vec3, exit);
    const import::ImportedScene mesh = boxScene({-0.5f, -0.5f, -0.5f}, {0.5f, 0.5f, 0.5f});
    ViewportScene s;
    s.mesh = &mesh;
    const Camera c = frontCamera();
    const std::optional<SurfacePoint> sp = surfacePoint(s, c, kSize, c.project({x, y, 0}, kSize).value());
    QVERIFY(sp);
    QVERIFY(sp->hasExit);
    QVERIFY2(near(sp->entry, entry), qPrintable(str(sp->entry)));
    QVERIFY2(near(sp->exit, exit), qPrintable(str(sp->exit)));
    QVERIFY2(near(sp->midpoint, (entry + exit) * 0.5f), qPrintable(str(sp->midpoint)));
    QVERIFY(near(sp->entryNormal, {0, 0, 1}));
}

void TestPicking::surfacePoint_limbCentreAndMiss()
{
    // a limb along X, radius 0.1, seen from the front: its centre line is at z = 0
    const import::ImportedScene mesh = cylinderScene(-1.f, 1.f, 0.1f, 32);
    ViewportScene s;
    s.mesh = &mesh;
    Camera c = frontCamera();
    c.setOrthographic(true); // parallel rays: entry z = +r·cos(a), exit −r·cos(a) on the polygon
    std::optional<SurfacePoint> sp = surfacePoint(s, c, kSize, pixelOf(0.3f, 0));
    QVERIFY(sp && sp->hasExit);
    // at y = 0 the ray crosses the 32-gon at its vertices (angle ±90°): z = ±0.1
    QVERIFY2(near(sp->entry, {0.3f, 0, 0.1f}), qPrintable(str(sp->entry)));
    QVERIFY2(near(sp->exit, {0.3f, 0, -0.1f}), qPrintable(str(sp->exit)));
    QVERIFY2(near(sp->midpoint, {0.3f, 0, 0}), qPrintable(str(sp->midpoint)));
    QVERIFY(!surfacePoint(s, c, kSize, pixelOf(0.3f, 0.2f)));
    s.mesh = nullptr;
    QVERIFY(!surfacePoint(s, c, kSize, pixelOf(0.3f, 0)));
}

void TestPicking::surfacePoint_followsTheSkinningPalette()
{
    import::ImportedScene mesh = boxScene({-0.5f, -0.5f, -0.5f}, {0.5f, 0.5f, 0.5f});
    rig::Bone bone;
    bone.name = "root";
    mesh.skeleton = {bone};
    for (std::size_t i = 0; i < mesh.meshes[0].positions.size(); ++i) {
        import::VertexInfluences in;
        in.bone[0] = 0;
        in.weight[0] = 1.f;
        mesh.meshes[0].influences.push_back(in);
    }
    ViewportScene s;
    s.mesh = &mesh;
    Mat4 up;
    up.m[13] = 1.f; // palette moves the bone 1 m up
    s.bonePalette = {up};
    const Camera c = frontCamera();
    const std::optional<SurfacePoint> sp = surfacePoint(s, c, kSize, pixelOf(0, 1));
    QVERIFY(sp && sp->hasExit);
    QVERIFY2(near(sp->entry, {0, 0.9f, 0.5f}), qPrintable(str(sp->entry)));
    QVERIFY2(near(sp->midpoint, {0, 1, 0}), qPrintable(str(sp->midpoint)));
    const MeshRaycaster cache(mesh, s.bonePalette);
    const std::optional<SurfacePoint> cached = surfacePoint(s, c, kSize, pixelOf(0, 1), &cache);
    QVERIFY(cached && near(cached->midpoint, sp->midpoint));
    QVERIFY(!surfacePoint(s, c, kSize, pixelOf(0, 0) + QPointF(0, 80))); // the bind position is empty now
}

void TestPicking::surfacePoint_openMeshHasNoExit()
{
    import::ImportedScene mesh;
    import::ImportedMesh m;
    m.positions = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
    m.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    m.indices = {0, 1, 2, 0, 2, 3};
    mesh.meshes = {m};
    ViewportScene s;
    s.mesh = &mesh;
    const std::optional<SurfacePoint> sp = surfacePoint(s, frontCamera(), kSize, pixelOf(0.2f, 0.3f));
    QVERIFY(sp);
    QVERIFY(!sp->hasExit);
    QVERIFY(near(sp->entry, {0.2f, 0.3f, 0}));
    QVERIFY(near(sp->exit, sp->entry) && near(sp->midpoint, sp->entry));
}

void TestPicking::surfacePoint_largeMeshPicksFast()
{
    // 2 × 50 000 triangles: 5 000 boxes of 12 triangles... use a 160-sided limb, 50 000+ triangles
    import::ImportedScene mesh;
    for (int k = 0; k < 105; ++k) {
        import::ImportedScene limb = cylinderScene(-1.f, 1.f, 0.1f + 0.001f * float(k), 160);
        mesh.meshes.push_back(std::move(limb.meshes[0]));
    }
    QVERIFY(mesh.triangleCount() >= 50000);
    ViewportScene s;
    s.mesh = &mesh;
    const Camera c = frontCamera();
    QElapsedTimer timer;
    timer.start();
    const MeshRaycaster cache(mesh, {});
    const qint64 buildMs = timer.elapsed();
    timer.restart();
    int found = 0;
    for (int i = 0; i < 200; ++i)
        found += surfacePoint(s, c, kSize, pixelOf(-0.9f + 0.009f * float(i), 0.05f), &cache).has_value();
    const double perPickMs = double(timer.nsecsElapsed()) / 1e6 / 200.;
    qInfo("50k triangles: BVH built in %lld ms, %.3f ms per pick", buildMs, perPickMs);
    QCOMPARE(found, 200);
    QVERIFY2(perPickMs < 4., qPrintable(QString::number(perPickMs)));
}

void TestPicking::nearestJoint_nearestHeadWithinReach()
{
    rig::RigDescription r;
    rig::Bone a, b;
    a.id = 1;
    b.id = 2;
    b.parent = 0;
    b.bindWorld.m[12] = 1.f;
    r.bones = {a, b};
    ViewportScene s;
    s.rig = &r;
    const Camera c = frontCamera();
    QCOMPARE(nearestJoint(s, c, kSize, QPointF(540, 303)), std::optional<int>(1)); // head 2 at (544.85, 300)
    QCOMPARE(nearestJoint(s, c, kSize, QPointF(395, 300)), std::optional<int>(0));
    QVERIFY(!nearestJoint(s, c, kSize, QPointF(470, 300))); // 70 px from both
    QVERIFY(nearestJoint(s, c, kSize, QPointF(470, 300), 100.f));
    s.hidden = {{ElementKind::Bone, 2}};
    QVERIFY(!nearestJoint(s, c, kSize, QPointF(540, 303)));
}

QTEST_GUILESS_MAIN(TestPicking)
#include "tst_picking.moc"
