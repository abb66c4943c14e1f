// Tests of MoveGizmo: handle hit tests at a constant screen size, drags along an arrow move along its
// axis only, the centre square moves in the view plane, axis locks during a drag. Front camera at
// (0, 0, 5), 800×600: 1 m at z = 0 is 144.853 px.
#include "viewport/MoveGizmo.h"

#include <QtTest/QtTest>

#include "ViewportTestSupport.h"

using namespace marionette;
using namespace marionette::viewport;
using namespace marionette::test;

namespace {

constexpr QSize kSize{800, 600};

Camera camera(float yaw = 0.f, float pitch = 0.f)
{
    Camera c;
    c.setViewportSize(kSize);
    c.setYawPitch(yaw, pitch);
    c.setDistance(5.f);
    return c;
}

} // namespace

class TestMoveGizmo : public QObject {
    Q_OBJECT

private slots:
    void hitTest_squareArrowsAndNothing();
    void arrowLength_isConstantOnScreen();
    void drag_arrowMovesAlongItsAxisOnly();
    void drag_squareMovesInTheViewPlane();
    void toggleAxisLock_locksAndUnlocks();
    void begin_withoutOriginDoesNothing();
};

void TestMoveGizmo::hitTest_squareArrowsAndNothing()
{
    MoveGizmo g;
    const Camera c = camera(30.f, 20.f);
    QCOMPARE(g.hitTest(c, kSize, QPointF(400, 300)), MoveGizmo::Handle::None);
    g.setOrigin(Vec3{0, 0, 0}); // the camera's target: at the centre pixel
    QCOMPARE(g.hitTest(c, kSize, QPointF(400, 300)), MoveGizmo::Handle::Plane);
    const float len = g.arrowLength(c, kSize);
    for (auto h : {MoveGizmo::Handle::X, MoveGizmo::Handle::Y, MoveGizmo::Handle::Z}) {
        const QPointF tip = c.project(MoveGizmo::axisVector(h) * (0.8f * len), kSize).value();
        QCOMPARE(g.hitTest(c, kSize, tip), h);
    }
    QCOMPARE(g.hitTest(c, kSize, QPointF(400, 300) + QPointF(-60, 60)), MoveGizmo::Handle::None);
}

void TestMoveGizmo::arrowLength_isConstantOnScreen()
{
    MoveGizmo g;
    g.setOrigin(Vec3{0, 0, 0});
    Camera c = camera();
    // 90 px at 0.0069036 m/px = 0.62132 m
    QVERIFY(std::abs(g.arrowLength(c, kSize) - 0.62132f) < 1e-4f);
    c.setDistance(10.f);
    QVERIFY(std::abs(g.arrowLength(c, kSize) - 1.24264f) < 1e-4f);
}

void TestMoveGizmo::drag_arrowMovesAlongItsAxisOnly()
{
    MoveGizmo g;
    g.setOrigin(Vec3{0, 0, 0});
    const Camera c = camera();
    QVERIFY(g.begin(MoveGizmo::Handle::X, c, kSize, QPointF(440, 300)));
    // 144.853 px right along the arrow: exactly 1 m
    Vec3 d = g.drag(c, kSize, QPointF(440 + 144.853, 300));
    QVERIFY2(near(d, {1, 0, 0}, 1e-3f), qPrintable(str(d)));
    QVERIFY(near(*g.drawnOrigin(), {1, 0, 0}, 1e-3f));
    // and 50 px up as well: still along X only; the ray through (1.276, 0.345, 0) passes nearest the axis
    // at x = 1.26997 (perspective), 0.99383 from the start at 0.27614
    d = g.drag(c, kSize, QPointF(440 + 144.853, 250));
    QCOMPARE(d.y, 0.f);
    QCOMPARE(d.z, 0.f);
    QVERIFY2(std::abs(d.x - 0.99383f) < 1e-3f, qPrintable(str(d)));
    d = g.drag(c, kSize, QPointF(440 - 72.4265, 300)); // the path does not matter
    QVERIFY2(near(d, {-0.5f, 0, 0}, 1e-3f), qPrintable(str(d)));
    d = g.end();
    QVERIFY(near(d, {-0.5f, 0, 0}, 1e-3f));
    QVERIFY(!g.isDragging());
    QVERIFY(near(*g.drawnOrigin(), {0, 0, 0})); // the app moves the origin, not the gizmo
}

void TestMoveGizmo::drag_squareMovesInTheViewPlane()
{
    MoveGizmo g;
    g.setOrigin(Vec3{0, 0, 0});
    const Camera c = camera();
    QVERIFY(g.begin(MoveGizmo::Handle::Plane, c, kSize, QPointF(400, 300)));
    const Vec3 d = g.drag(c, kSize, QPointF(400 + 144.853, 300 - 2 * 144.853));
    QVERIFY2(near(d, {1, 2, 0}, 1e-3f), qPrintable(str(d)));
}

void TestMoveGizmo::toggleAxisLock_locksAndUnlocks()
{
    MoveGizmo g;
    g.setOrigin(Vec3{0, 0, 0});
    const Camera c = camera();
    QVERIFY(g.begin(MoveGizmo::Handle::Plane, c, kSize, QPointF(400, 300)));
    Vec3 d = g.drag(c, kSize, QPointF(400 + 144.853, 300 - 144.853));
    QVERIFY(near(d, {1, 1, 0}, 1e-3f));
    // locked to Y: the ray from (0, 0, 5) along (1, 1, −5) passes nearest the Y axis at
    // s = (b·d·w)/(1 − b²) with b = 1/√27, d·w = 25/√27: s = 25/26
    d = g.toggleAxisLock(MoveGizmo::Handle::Y, c, kSize);
    QCOMPARE(g.constraint(), MoveGizmo::Handle::Y);
    QVERIFY2(near(d, {0, 25.f / 26.f, 0}, 1e-3f), qPrintable(str(d)));
    d = g.toggleAxisLock(MoveGizmo::Handle::X, c, kSize);
    QVERIFY2(near(d, {25.f / 26.f, 0, 0}, 1e-3f), qPrintable(str(d)));
    d = g.toggleAxisLock(MoveGizmo::Handle::X, c, kSize); // again: back to the square
    QCOMPARE(g.constraint(), MoveGizmo::Handle::Plane);
    QVERIFY(near(d, {1, 1, 0}, 1e-3f));
    // Z points at the camera: no motion can be read along it, the delta stays 0
    d = g.toggleAxisLock(MoveGizmo::Handle::Z, c, kSize);
    QVERIFY(near(d, {0, 0, 0}));
}

void TestMoveGizmo::begin_withoutOriginDoesNothing()
{
    MoveGizmo g;
    QVERIFY(!g.begin(MoveGizmo::Handle::X, camera(), kSize, QPointF(400, 300)));
    g.setOrigin(Vec3{0, 0, 0});
    QVERIFY(!g.begin(MoveGizmo::Handle::None, camera(), kSize, QPointF(400, 300)));
    QVERIFY(!g.isDragging());
}

QTEST_GUILESS_MAIN(TestMoveGizmo)
#include "tst_movegizmo.moc"
