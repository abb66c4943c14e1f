// Tests of viewport::Camera: rays and projection agree, framing, orbit/pan/zoom, the axis views, ortho,
// and the round trip through project::Camera. Numbers are derived by hand in the comments.
#include "viewport/Camera.h"

#include <QtTest/QtTest>

#include "ViewportTestSupport.h"

#include <cmath>

Q_DECLARE_METATYPE(marionette::Vec3)

using namespace marionette;
using namespace marionette::viewport;
using namespace marionette::test;

namespace {

constexpr QSize kSize{800, 600};

Camera frontCamera(float distance = 3.f)
{
    Camera c;
    c.setViewportSize(kSize);
    c.setView(Camera::View::Front);
    c.setDistance(distance);
    return c;
}

} // namespace

class TestCamera : public QObject {
    Q_OBJECT

private slots:
    void rayThrough_centrePixelHitsTarget_data();
    void rayThrough_centrePixelHitsTarget();
    void project_roundTripsRayThrough_data();
    void project_roundTripsRayThrough();
    void project_behindTheEyeIsNothing();
    void pointAtDepth_projectsToThePixelAtTheReferenceDepth_data();
    void pointAtDepth_projectsToThePixelAtTheReferenceDepth();
    void pointAtDepth_planeBehindTheEyeIsNothing();
    void frame_putsTheWholeBoxInView_data();
    void frame_putsTheWholeBoxInView();
    void orbit_turnsYawAndPitchAndClampsPitch();
    void pan_sceneFollowsTheMouse();
    void zoom_scalesDistanceAndBack();
    void setView_placesTheEyeOnTheAxis();
    void orthographic_keepsTheFramingAtTheTarget();
    void state_roundTripsThroughProjectCamera();
};

void TestCamera::rayThrough_centrePixelHitsTarget_data()
{
    QTest::addColumn<float>("yaw");
    QTest::addColumn<float>("pitch");
    QTest::addColumn<bool>("ortho");
    QTest::newRow("front") << 0.f << 0.f << false;
    QTest::newRow("oblique") << 37.f << 25.f << false;
    QTest::newRow("top") << 0.f << 90.f << false;
    QTest::newRow("oblique ortho") << -120.f << -30.f << true;
}

void TestCamera::rayThrough_centrePixelHitsTarget()
{
    QFETCH(float, yaw);
    QFETCH(float, pitch);
    QFETCH(bool, ortho);
    Camera c;
    c.setTarget({0.5f, 1.f, -2.f});
    c.setYawPitch(yaw, pitch);
    c.setDistance(4.f);
    c.setOrthographic(ortho);
    const Ray r = c.rayThrough(QPointF(400, 300), kSize);
    // the target lies on the ray: distance from the target to the ray line is 0
    const float t = dot(c.target() - r.origin, r.direction);
    QVERIFY(t > 0.f);
    QVERIFY2(near(r.at(t), c.target()), qPrintable(str(r.at(t))));
    QVERIFY(near(r.direction, c.forward()));
    if (!ortho)
        QCOMPARE(t, 4.f);
}

void TestCamera::project_roundTripsRayThrough_data()
{
    QTest::addColumn<bool>("ortho");
    QTest::newRow("perspective") << false;
    QTest::newRow("orthographic") << true;
}

void TestCamera::project_roundTripsRayThrough()
{
    QFETCH(bool, ortho);
    Camera c;
    c.setYawPitch(30.f, 15.f);
    c.setOrthographic(ortho);
    for (QPointF p : {QPointF(0, 0), QPointF(400, 300), QPointF(123.5, 456.25), QPointF(799, 1)}) {
        const Ray r = c.rayThrough(p, kSize);
        for (float t : {0.5f, 3.f, 10.f}) {
            const std::optional<QPointF> back = c.project(r.at(t), kSize);
            QVERIFY(back);
            QVERIFY2(std::abs(back->x() - p.x()) < 0.01 && std::abs(back->y() - p.y()) < 0.01,
                     qPrintable(QStringLiteral("(%1, %2) -> (%3, %4)").arg(p.x()).arg(p.y()).arg(back->x()).arg(back->y())));
        }
    }
}

void TestCamera::project_behindTheEyeIsNothing()
{
    const Camera c = frontCamera(); // eye at (0, 0, 3) looking down −Z
    QVERIFY(!c.project({0, 0, 5}, kSize));
    QVERIFY(c.project({0, 0, 1}, kSize));
}

void TestCamera::pointAtDepth_projectsToThePixelAtTheReferenceDepth_data()
{
    QTest::addColumn<float>("yaw");
    QTest::addColumn<float>("pitch");
    QTest::addColumn<bool>("ortho");
    QTest::addColumn<QPointF>("pixel");
    QTest::addColumn<Vec3>("reference");
    QTest::newRow("front, centre, at the target") << 0.f << 0.f << false << QPointF(400, 300) << Vec3{0, 0, 0};
    QTest::newRow("front, corner, off-centre reference")
        << 0.f << 0.f << false << QPointF(13.5, 587.25) << Vec3{0.7f, -0.3f, 1.2f};
    QTest::newRow("orbited") << 35.f << -20.f << false << QPointF(612, 91) << Vec3{-0.4f, 1.1f, -0.8f};
    QTest::newRow("orbited ortho") << -60.f << 45.f << true << QPointF(120, 450) << Vec3{0.2f, 0.5f, 0.3f};
    QTest::newRow("ortho, reference behind the near plane")
        << 0.f << 0.f << true << QPointF(200, 200) << Vec3{0.f, 0.f, 2.9999f};
}

// The plane through the reference facing the camera: the result lies on the pixel's ray and has the
// reference's depth along forward(), so projecting it gives the pixel back.
void TestCamera::pointAtDepth_projectsToThePixelAtTheReferenceDepth()
{
    QFETCH(float, yaw);
    QFETCH(float, pitch);
    QFETCH(bool, ortho);
    QFETCH(QPointF, pixel);
    QFETCH(Vec3, reference);
    Camera c = frontCamera();
    c.setTarget({0.1f, 0.9f, -0.2f});
    c.setYawPitch(yaw, pitch);
    c.setOrthographic(ortho);
    const std::optional<Vec3> p = c.pointAtDepth(pixel, kSize, reference);
    QVERIFY(p);
    QVERIFY2(std::abs(c.depthOf(*p) - c.depthOf(reference)) < 1e-4f,
             qPrintable(QStringLiteral("%1 vs %2").arg(double(c.depthOf(*p))).arg(double(c.depthOf(reference)))));
    const std::optional<QPointF> back = c.project(*p, kSize);
    QVERIFY(back);
    QVERIFY2(std::abs(back->x() - pixel.x()) < 2e-3 && std::abs(back->y() - pixel.y()) < 2e-3,
             qPrintable(QStringLiteral("(%1, %2) for %3").arg(back->x()).arg(back->y()).arg(str(*p))));
    // the reference's own pixel gives the reference back
    const std::optional<QPointF> own = c.project(reference, kSize);
    QVERIFY(own);
    const std::optional<Vec3> same = c.pointAtDepth(*own, kSize, reference);
    QVERIFY2(same && near(*same, reference, 1e-4f), qPrintable(same ? str(*same) : QStringLiteral("none")));
}

void TestCamera::pointAtDepth_planeBehindTheEyeIsNothing()
{
    const Camera c = frontCamera(); // eye at (0, 0, 3) looking down −Z
    QVERIFY(!c.pointAtDepth({400, 300}, kSize, {0, 0, 5}));
    QVERIFY(!c.pointAtDepth({10, 10}, kSize, {0, 0, 3}));
    // 1 m in front of the eye: the centre pixel gives (0, 0, 2); 100 px right gives 100 × 2·tan 22.5° / 600 m
    const std::optional<Vec3> p = c.pointAtDepth({500, 300}, kSize, {5, -7, 2});
    QVERIFY(p);
    QVERIFY2(near(*p, {100.f * 2.f * std::tan(radians(22.5f)) / 600.f, 0.f, 2.f}), qPrintable(str(*p)));
}

void TestCamera::frame_putsTheWholeBoxInView_data()
{
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("ortho");
    QTest::newRow("wide") << QSize(800, 600) << false;
    QTest::newRow("tall") << QSize(300, 900) << false;
    QTest::newRow("wide ortho") << QSize(800, 600) << true;
}

void TestCamera::frame_putsTheWholeBoxInView()
{
    QFETCH(QSize, size);
    QFETCH(bool, ortho);
    Camera c;
    c.setViewportSize(size);
    c.setYawPitch(25.f, 30.f);
    c.setOrthographic(ortho);
    Bounds box;
    box.add({9.f, 0.f, -1.f});
    box.add({11.f, 2.f, 1.f});
    c.frame(box);
    QVERIFY(near(c.target(), {10.f, 1.f, 0.f}));
    if (!ortho && size == QSize(800, 600)) {
        // radius √3, vertical half-angle 22.5° is the narrower: d = 1.05·√3 / sin 22.5° = 4.7525
        QVERIFY(std::abs(c.distance() - 4.7525f) < 1e-3f);
    }
    double minX = 1e9, maxX = -1e9;
    for (int i = 0; i < 8; ++i) {
        const Vec3 corner{(i & 1) ? 11.f : 9.f, (i & 2) ? 2.f : 0.f, (i & 4) ? 1.f : -1.f};
        const std::optional<QPointF> p = c.project(corner, size);
        QVERIFY(p);
        QVERIFY2(p->x() >= 0 && p->x() <= size.width() && p->y() >= 0 && p->y() <= size.height(),
                 qPrintable(QStringLiteral("corner %1 at (%2, %3)").arg(i).arg(p->x()).arg(p->y())));
        minX = std::min(minX, p->x());
        maxX = std::max(maxX, p->x());
    }
    QVERIFY(maxX - minX > 0.3 * std::min(size.width(), size.height())); // framed, not a speck
}

void TestCamera::orbit_turnsYawAndPitchAndClampsPitch()
{
    Camera c; // yaw 0, pitch 20
    c.orbit(100.f, 0.f);
    QCOMPARE(c.yawDegrees(), -40.f); // 0.4° per pixel, dragging right turns the scene right
    c.orbit(0.f, 50.f);
    QCOMPARE(c.pitchDegrees(), 40.f);
    c.orbit(0.f, 1000.f);
    QCOMPARE(c.pitchDegrees(), 90.f);
    c.orbit(0.f, -2000.f);
    QCOMPARE(c.pitchDegrees(), -90.f);
    QCOMPARE(c.distance(), 3.f);
    QVERIFY(near(c.target(), {}));
}

void TestCamera::pan_sceneFollowsTheMouse()
{
    Camera c = frontCamera();
    // one pixel at the target's depth: 2·3·tan 22.5° / 600 = 0.00414214 m
    c.pan(100.f, 0.f);
    QVERIFY2(near(c.target(), {-0.414214f, 0, 0}), qPrintable(str(c.target())));
    const std::optional<QPointF> origin = c.project({0, 0, 0}, kSize);
    QVERIFY(origin);
    QVERIFY(std::abs(origin->x() - 500.) < 0.01 && std::abs(origin->y() - 300.) < 0.01);
    c.pan(-100.f, 100.f); // dragging down moves the scene down: the target goes up
    QVERIFY2(near(c.target(), {0, 0.414214f, 0}), qPrintable(str(c.target())));
    QCOMPARE(c.distance(), 3.f);
}

void TestCamera::zoom_scalesDistanceAndBack()
{
    Camera c = frontCamera();
    c.zoom(1.f);
    QVERIFY(std::abs(c.distance() - 2.55f) < 1e-5f);
    c.zoom(-1.f);
    QVERIFY(std::abs(c.distance() - 3.f) < 1e-5f);
    c.zoom(-1000.f);
    QCOMPARE(c.distance(), Camera::kMaxDistance);
    c.zoom(1000.f);
    QCOMPARE(c.distance(), Camera::kMinDistance);
}

void TestCamera::setView_placesTheEyeOnTheAxis()
{
    Camera c = frontCamera();
    QVERIFY(near(c.eye(), {0, 0, 3}));
    c.setView(Camera::View::Right);
    QVERIFY(near(c.eye(), {3, 0, 0}));
    c.setView(Camera::View::Left);
    QVERIFY(near(c.eye(), {-3, 0, 0}));
    c.setView(Camera::View::Back);
    QVERIFY(near(c.eye(), {0, 0, -3}));
    c.setView(Camera::View::Top);
    QVERIFY(near(c.eye(), {0, 3, 0}));
    QVERIFY(near(c.up(), {0, 0, -1}));
    QVERIFY(near(c.right(), {1, 0, 0}));
    c.setView(Camera::View::Bottom);
    QVERIFY(near(c.eye(), {0, -3, 0}));
}

void TestCamera::orthographic_keepsTheFramingAtTheTarget()
{
    Camera c = frontCamera();
    const std::optional<QPointF> perspective = c.project({1, 0.5f, 0}, kSize);
    c.setOrthographic(true);
    const std::optional<QPointF> ortho = c.project({1, 0.5f, 0}, kSize);
    QVERIFY(perspective && ortho);
    QVERIFY(std::abs(perspective->x() - ortho->x()) < 0.01 && std::abs(perspective->y() - ortho->y()) < 0.01);
    // 1 m at 0.00414214 m per pixel = 241.42 px right of the centre
    QVERIFY(std::abs(ortho->x() - 641.42) < 0.05);
    // in ortho, depth does not change the pixel
    const std::optional<QPointF> deeper = c.project({1, 0.5f, -2}, kSize);
    QVERIFY(deeper && std::abs(deeper->x() - ortho->x()) < 0.01);
}

void TestCamera::state_roundTripsThroughProjectCamera()
{
    project::Camera s;
    s.target = {1, 2, 3};
    s.yawDegrees = 33.f;
    s.pitchDegrees = -12.f;
    s.distance = 7.5f;
    s.projection = project::Projection::Orthographic;
    s.fieldOfViewDegrees = 60.f;
    const Camera c(s);
    const project::Camera back = c.state();
    QVERIFY(near(back.target, s.target));
    QCOMPARE(back.yawDegrees, 33.f);
    QCOMPARE(back.pitchDegrees, -12.f);
    QCOMPARE(back.distance, 7.5f);
    QCOMPARE(back.projection, project::Projection::Orthographic);
    QCOMPARE(back.fieldOfViewDegrees, 60.f);
    s.pitchDegrees = 140.f; // out of range: clamped
    s.distance = -1.f;
    QCOMPARE(Camera(s).state().pitchDegrees, 90.f);
    QCOMPARE(Camera(s).state().distance, Camera::kMinDistance);
}

QTEST_GUILESS_MAIN(TestCamera)
#include "tst_camera.moc"
