// Tests of the Viewport widget in a real window (xcb under xvfb-run, Mesa llvmpipe): what it draws where,
// the display options (layers, mesh opacity, X-ray), GPU skinning with more bones than a uniform array
// holds, the mouse (click, rubber band, gizmo drag, axis lock, cancel, Alt+drag orbit), the view keys, and
// a forced shader failure that must disable the widget without crashing.
//
// The camera looks down −Z at (0, 0.5, 0) from 4 m; 400×300 pixels. Grid and ground are off unless a
// test says otherwise, so everything that is not the character is the background colour.
#include "viewport/Viewport.h"
#include "viewport/ViewportColours.h"

#include <QSignalSpy>
#include <QtTest/QtTest>

#include "ViewportWindowTestSupport.h"

using namespace marionette;
using namespace marionette::viewport;
using namespace marionette::test;

namespace {

constexpr QSize kSize{400, 300};

} // namespace

class TestViewport : public QObject, private ShownViewport {
    Q_OBJECT

public:
    TestViewport() : ShownViewport(kSize) {}

private slots:
    void init();
    void cleanup();
    void draw_characterOverBackground();
    void draw_particlesLayerOffRemovesThem();
    void draw_hiddenParticleIsNotDrawn();
    void draw_meshOpacityZeroHidesTheMesh();
    void draw_xrayShowsParticlesInsideTheMesh();
    void draw_gridAndGroundBelowTheCharacter();
    void draw_skinnedWithMoreBonesThanAUniformArray();
    void mouse_clickEmitsClickedAtThePixel();
    void mouse_dragOnEmptySpaceEmitsBoxSelected();
    void gizmo_arrowDragMovesAlongThatAxisOnly();
    void gizmo_axisLockAndCancel();
    void angularGizmo_dragEmitsTheNewLimit();
    void navigation_altDragOrbitsTheCamera();
    void navigation_keysAndWheel();
    void glFailure_disablesWithoutCrashing();

};

void TestViewport::init()
{
    const QString error = showFixture();
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestViewport::cleanup()
{
    dropFixture();
}

void TestViewport::draw_characterOverBackground()
{
    const QImage image = render();
    QVERIFY(!image.isNull());
    const QRgb particle = image.pixel(pixelOf({-0.5f, 0.5f, 0}) + QPoint(0, -5)); // above the stick
    QVERIFY2(!isBackground(particle) && qBlue(particle) > qRed(particle), qPrintable(describe(particle)));
    const QRgb stickPixel = image.pixel(pixelOf({-0.25f, 0.5f, 0}));
    QVERIFY2(qRed(stickPixel) > 150 && qGreen(stickPixel) > 150 && qBlue(stickPixel) > 150, qPrintable(describe(stickPixel)));
    const QRgb mesh = image.pixel(pixelOf({1.05f, 0.35f, 0.25f}));
    QVERIFY2(qRed(mesh) > 150 && qGreen(mesh) < 80 && qBlue(mesh) < 80, qPrintable(describe(mesh)));
    for (QPoint p : {QPoint(3, 3), QPoint(396, 296), QPoint(200, 40), pixelOf({0.5f, 0.2f, 0})})
        QVERIFY2(isBackground(image.pixel(p)),
                 qPrintable(QStringLiteral("(%1, %2) %3").arg(p.x()).arg(p.y()).arg(describe(image.pixel(p)))));
}

void TestViewport::draw_particlesLayerOffRemovesThem()
{
    const QPoint p = pixelOf({-0.5f, 0.5f, 0}) + QPoint(0, -5);
    QVERIFY(!isBackground(render().pixel(p)));
    DisplayOptions o = plainOptions();
    o.showParticles = false;
    mView->setDisplayOptions(o);
    QVERIFY2(isBackground(render().pixel(p)), qPrintable(describe(render().pixel(p))));
    o.showParticles = true;
    o.showSticks = false;
    mView->setDisplayOptions(o);
    QVERIFY(isBackground(render().pixel(pixelOf({-0.25f, 0.5f, 0}))));
}

void TestViewport::draw_hiddenParticleIsNotDrawn()
{
    const QPoint p = pixelOf({0.f, 0.5f, 0}) + QPoint(0, 5);
    const QRgb before = render().pixel(p);
    QVERIFY(!isBackground(before));
    ViewportScene s = mFixture->scene;
    s.hidden = {{project::ElementKind::Particle, 2}};
    mView->setScene(s);
    QVERIFY(isBackground(render().pixel(p)));
    s.hidden.clear();
    s.selection = {{project::ElementKind::Particle, 2}};
    mView->setScene(s);
    const QRgb selected = render().pixel(p); // orange: more red than blue
    QVERIFY2(qRed(selected) > qBlue(selected) && qRed(before) < qBlue(before), qPrintable(describe(selected)));
}

void TestViewport::draw_meshOpacityZeroHidesTheMesh()
{
    const QPoint p = pixelOf({1.05f, 0.35f, 0.25f});
    const QRgb opaque = render().pixel(p);
    DisplayOptions o = plainOptions();
    o.meshOpacity = 0.5f;
    mView->setDisplayOptions(o);
    const QRgb half = render().pixel(p);
    QVERIFY2(qRed(half) < qRed(opaque) && qRed(half) > int(colours::kBackground.r * 255.f) + 30, qPrintable(describe(half)));
    o.meshOpacity = 0.f;
    mView->setDisplayOptions(o);
    QVERIFY2(isBackground(render().pixel(p)), qPrintable(describe(render().pixel(p))));
    o.meshOpacity = 1.f;
    o.showMesh = false;
    mView->setDisplayOptions(o);
    QVERIFY(isBackground(render().pixel(p)));
}

void TestViewport::draw_xrayShowsParticlesInsideTheMesh()
{
    const QPoint p = pixelOf({1.05f, 0.5f, 0.f});
    const QRgb hidden = render().pixel(p);
    QVERIFY2(qRed(hidden) > 150 && qBlue(hidden) < 80, qPrintable(describe(hidden))); // the box covers it
    DisplayOptions o = plainOptions();
    o.xray = true;
    mView->setDisplayOptions(o);
    const QRgb xray = render().pixel(p);
    QVERIFY2(qBlue(xray) > qBlue(hidden) + 60, qPrintable(describe(xray)));
}

void TestViewport::draw_gridAndGroundBelowTheCharacter()
{
    Camera c = frontCamera(kSize);
    c.setYawPitch(20.f, 35.f); // looking down on the floor
    mView->setCamera(c);
    const QPoint floor = pixelOf({-0.5f, 0.f, 1.0f});
    const QRgb without = render().pixel(floor);
    QVERIFY(isBackground(without));
    mView->setDisplayOptions(DisplayOptions{});
    const QRgb with = render().pixel(floor);
    if (qEnvironmentVariableIsSet("MARIONETTE_VIEWPORT_SNAPSHOTS")) {
        ViewportScene s = mFixture->scene;
        s.hovered = project::ElementRef{project::ElementKind::Particle, 2};
        s.selection = {{project::ElementKind::Stick, 10}};
        mView->setScene(s);
        mView->setGizmo(Vec3{-1.f, 1.2f, 0.f});
        render().save(qEnvironmentVariable("MARIONETTE_VIEWPORT_SNAPSHOTS") + QStringLiteral("/grid.png"));
    }
    QVERIFY2(!isBackground(with), qPrintable(describe(with)));
}

void TestViewport::draw_skinnedWithMoreBonesThanAUniformArray()
{
    import::ImportedScene& mesh = mFixture->mesh;
    mesh.skeleton.resize(200);
    for (std::size_t i = 0; i < mesh.skeleton.size(); ++i)
        mesh.skeleton[i].name = std::to_string(i); // unique names
    for (std::size_t v = 0; v < mesh.meshes[0].positions.size(); ++v) {
        import::VertexInfluences in;
        in.bone[0] = 150;
        in.weight[0] = 1.f;
        mesh.meshes[0].influences.push_back(in);
    }
    mView->meshChanged();
    const QPoint bind = pixelOf({1.05f, 0.35f, 0.25f});
    QVERIFY(qRed(render().pixel(bind)) > 150);
    ViewportScene s = mFixture->scene;
    s.bonePalette.resize(200);
    s.bonePalette[150].m[13] = 1.f; // bone 150 one metre up
    mView->setScene(s);
    const QImage image = render();
    QVERIFY2(isBackground(image.pixel(bind)), qPrintable(describe(image.pixel(bind))));
    const QRgb moved = image.pixel(pixelOf({1.05f, 1.35f, 0.25f}));
    QVERIFY2(qRed(moved) > 150 && qGreen(moved) < 80, qPrintable(describe(moved)));
    // the pick ray follows the skinned mesh too
    const std::optional<SurfacePoint> sp = mView->surfacePoint(pixelOf({1.05f, 1.5f, 0.f}));
    QVERIFY(sp && sp->hasExit);
    QVERIFY(std::abs(sp->midpoint.z) < 1e-3f && std::abs(sp->entry.z - 0.25f) < 1e-3f);
}

void TestViewport::mouse_clickEmitsClickedAtThePixel()
{
    QSignalSpy clicked(mView.get(), &Viewport::clicked);
    QSignalSpy box(mView.get(), &Viewport::boxSelected);
    QTest::mouseClick(mView.get(), Qt::LeftButton, Qt::ShiftModifier, QPoint(120, 80));
    QCOMPARE(clicked.count(), 1);
    QCOMPARE(clicked[0][0].toPointF(), QPointF(120, 80));
    QCOMPARE(clicked[0][1].value<Qt::KeyboardModifiers>(), Qt::KeyboardModifiers(Qt::ShiftModifier));
    QCOMPARE(box.count(), 0);
    // what was clicked, through the viewport's own pick helper
    const std::optional<Pick> pick = mView->pickAt(pixelOf({-0.5f, 0.5f, 0}));
    QVERIFY(pick);
    QCOMPARE(pick->element, (project::ElementRef{project::ElementKind::Particle, 1}));
}

void TestViewport::mouse_dragOnEmptySpaceEmitsBoxSelected()
{
    QSignalSpy clicked(mView.get(), &Viewport::clicked);
    QSignalSpy box(mView.get(), &Viewport::boxSelected);
    QTest::mousePress(mView.get(), Qt::LeftButton, Qt::NoModifier, QPoint(170, 120));
    QTest::mouseMove(mView.get(), QPoint(200, 150));
    QTest::mouseMove(mView.get(), QPoint(60, 200));
    const QImage during = render(); // the rubber band is drawn
    QVERIFY(!isBackground(during.pixel(60, 160)));
    QTest::mouseRelease(mView.get(), Qt::LeftButton, Qt::NoModifier, QPoint(60, 200));
    QCOMPARE(clicked.count(), 0);
    QCOMPARE(box.count(), 1);
    QCOMPARE(box[0][0].toRectF(), QRectF(60, 120, 110, 80));
    // particle 1 at (154.7, 150) is inside; the stick's middle at (177.4, 150) is not
    const std::vector<project::ElementRef> inside = mView->pickInRect(box[0][0].toRectF());
    QCOMPARE(inside, (std::vector<project::ElementRef>{{project::ElementKind::Particle, 1}}));
}

void TestViewport::gizmo_arrowDragMovesAlongThatAxisOnly()
{
    const Vec3 origin{-1.f, 1.2f, 0.f};
    mView->setGizmo(origin);
    const QPoint o = pixelOf(origin);
    QVERIFY(!isBackground(render().pixel(o + QPoint(40, 0)))); // the X arrow is drawn
    QSignalSpy started(mView.get(), &Viewport::moveStarted);
    QSignalSpy updated(mView.get(), &Viewport::moveUpdated);
    QSignalSpy finished(mView.get(), &Viewport::moveFinished);
    QSignalSpy box(mView.get(), &Viewport::boxSelected);
    QTest::mousePress(mView.get(), Qt::LeftButton, Qt::NoModifier, o + QPoint(50, 0));
    QCOMPARE(started.count(), 1);
    QTest::mouseMove(mView.get(), o + QPoint(80, 25));
    QTest::mouseMove(mView.get(), o + QPoint(110, 40));
    QTest::mouseRelease(mView.get(), Qt::LeftButton, Qt::NoModifier, o + QPoint(110, 40));
    QVERIFY(updated.count() >= 2);
    for (const QList<QVariant>& args : updated) {
        const Vec3 d = args[0].value<Vec3>();
        QCOMPARE(d.y, 0.f);
        QCOMPARE(d.z, 0.f);
        QVERIFY(d.x > 0.f);
    }
    QCOMPARE(finished.count(), 1);
    const Vec3 total = finished[0][0].value<Vec3>();
    QCOMPARE(total.y, 0.f);
    QCOMPARE(total.z, 0.f);
    // 60 px at the gizmo's depth (4 m): 60 × 2·4·tan 22.5° / 300 = 0.6627 m, a little less in perspective
    QVERIFY2(total.x > 0.6f && total.x < 0.67f, qPrintable(QString::number(double(total.x))));
    QCOMPARE(box.count(), 0);
}

void TestViewport::gizmo_axisLockAndCancel()
{
    const Vec3 origin{-1.f, 1.2f, 0.f};
    mView->setGizmo(origin);
    const QPoint o = pixelOf(origin);
    QSignalSpy updated(mView.get(), &Viewport::moveUpdated);
    QSignalSpy cancelled(mView.get(), &Viewport::moveCancelled);
    QSignalSpy finished(mView.get(), &Viewport::moveFinished);
    QTest::mousePress(mView.get(), Qt::LeftButton, Qt::NoModifier, o); // the centre square
    QTest::mouseMove(mView.get(), o + QPoint(30, -30));
    Vec3 d = updated.last()[0].value<Vec3>();
    QVERIFY(d.x > 0.f && d.y > 0.f && std::abs(d.z) < 1e-5f); // in the view plane
    QTest::keyClick(mView.get(), Qt::Key_Y);
    d = updated.last()[0].value<Vec3>();
    QVERIFY(d.x == 0.f && d.y > 0.f && d.z == 0.f);
    QTest::keyClick(mView.get(), Qt::Key_Y); // unlock
    d = updated.last()[0].value<Vec3>();
    QVERIFY(d.x > 0.f && d.y > 0.f);
    QTest::keyClick(mView.get(), Qt::Key_Escape);
    QCOMPARE(cancelled.count(), 1);
    QVERIFY(!mView->isMoving());
    QTest::mouseRelease(mView.get(), Qt::LeftButton, Qt::NoModifier, o + QPoint(30, -30));
    QCOMPARE(finished.count(), 0);
    // the right button cancels too
    QTest::mousePress(mView.get(), Qt::LeftButton, Qt::NoModifier, o + QPoint(0, -50)); // the Y arrow
    QVERIFY(mView->isMoving());
    QTest::mousePress(mView.get(), Qt::RightButton, Qt::NoModifier, o + QPoint(0, -60));
    QCOMPARE(cancelled.count(), 2);
}

// Two triangles sharing particle (0, 0, 0), limit frame s1 = −X, t = +Y, s2 = −Z (twoTriangleRig): the
// swing-2 handle moves in the plane z = 0 at angle atan2(x, y) from +Y, 0.282843 m from the anchor (at least
// RigPose::kConePixels on screen).
void TestViewport::angularGizmo_dragEmitsTheNewLimit()
{
    rig::RigDescription r = twoTriangleRig(rig::AngularLimit::SwingTwist);
    ViewportScene s;
    s.rig = &r;
    mView->setScene(s);
    Camera cam = frontCamera(kSize);
    cam.setTarget({0, 0.2f, 0});
    cam.setDistance(2.f);
    mView->setCamera(cam);
    mView->setAngularGizmo(7);
    // The cone is 0.6 × 0.471405 long, or kConePixels on screen if that is longer.
    const float len = std::max(0.282843f, RigPose::kConePixels * cam.worldPerPixel({0, 0, 0}, kSize)), k = std::sqrt(0.5f);
    const QPoint handle = pixelOf(Vec3{k, k, 0} * len);
    QSignalSpy dragged(mView.get(), &Viewport::angularLimitDragged);
    QSignalSpy finished(mView.get(), &Viewport::angularLimitDragFinished);
    QSignalSpy cancelled(mView.get(), &Viewport::angularLimitDragCancelled);
    QSignalSpy clicked(mView.get(), &Viewport::clicked);
    QTest::mousePress(mView.get(), Qt::LeftButton, Qt::NoModifier, handle);
    QTest::mouseMove(mView.get(), pixelOf({0.3f, 0.02f, 0}));
    QTest::mouseMove(mView.get(), pixelOf({0.3f, 0.f, 0}));
    QTest::mouseRelease(mView.get(), Qt::LeftButton, Qt::NoModifier, pixelOf({0.3f, 0.f, 0}));
    QVERIFY(dragged.count() >= 1);
    QCOMPARE(dragged.last()[0].toUInt(), 7u);
    QCOMPARE(dragged.last()[1].value<AngularLimitHandle>(), AngularLimitHandle::Swing2);
    QCOMPARE(finished.count(), 1);
    QVERIFY2(std::abs(finished[0][2].toFloat() - radians(90.f)) < 0.02f, qPrintable(QString::number(finished[0][2].toDouble())));
    QCOMPARE(clicked.count(), 0);
    // Esc during a drag gives the value back
    QTest::mousePress(mView.get(), Qt::LeftButton, Qt::NoModifier, handle);
    QTest::mouseMove(mView.get(), pixelOf({0.3f, 0.f, 0}));
    QTest::keyClick(mView.get(), Qt::Key_Escape);
    QCOMPARE(cancelled.count(), 1);
    QCOMPARE(cancelled[0][2].toFloat(), radians(45.f));
    QTest::mouseRelease(mView.get(), Qt::LeftButton, Qt::NoModifier, pixelOf({0.3f, 0.f, 0}));
    QCOMPARE(finished.count(), 1);
}

void TestViewport::navigation_altDragOrbitsTheCamera()
{
    QSignalSpy changed(mView.get(), &Viewport::cameraChanged);
    QSignalSpy clicked(mView.get(), &Viewport::clicked);
    QSignalSpy box(mView.get(), &Viewport::boxSelected);
    const float yaw = mView->camera().yawDegrees();
    QTest::mousePress(mView.get(), Qt::LeftButton, Qt::AltModifier, QPoint(200, 150));
    QTest::mouseMove(mView.get(), QPoint(230, 150));
    QTest::mouseMove(mView.get(), QPoint(260, 150));
    QTest::mouseRelease(mView.get(), Qt::LeftButton, Qt::AltModifier, QPoint(260, 150));
    QCOMPARE(mView->camera().yawDegrees(), yaw - 24.f); // 60 px × 0.4°
    QVERIFY(changed.count() >= 2);
    QCOMPARE(clicked.count(), 0);
    QCOMPARE(box.count(), 0);
    // middle button with Shift pans
    const Vec3 target = mView->camera().target();
    QTest::mousePress(mView.get(), Qt::MiddleButton, Qt::ShiftModifier, QPoint(200, 150));
    QTest::mouseMove(mView.get(), QPoint(200, 190));
    QTest::mouseRelease(mView.get(), Qt::MiddleButton, Qt::ShiftModifier, QPoint(200, 190));
    QVERIFY(mView->camera().target().y > target.y + 0.1f);
}

void TestViewport::navigation_keysAndWheel()
{
    QTest::keyClick(mView.get(), Qt::Key_3);
    QCOMPARE(mView->camera().yawDegrees(), 90.f);
    QTest::keyClick(mView.get(), Qt::Key_3, Qt::ControlModifier);
    QCOMPARE(mView->camera().yawDegrees(), -90.f);
    QTest::keyClick(mView.get(), Qt::Key_7, Qt::KeypadModifier);
    QCOMPARE(mView->camera().pitchDegrees(), 90.f);
    QTest::keyClick(mView.get(), Qt::Key_1);
    QCOMPARE(mView->camera().yawDegrees(), 0.f);
    QCOMPARE(mView->camera().pitchDegrees(), 0.f);
    QTest::keyClick(mView.get(), Qt::Key_5);
    QVERIFY(mView->camera().isOrthographic());
    QTest::keyClick(mView.get(), Qt::Key_5);
    QVERIFY(!mView->camera().isOrthographic());
    const float distance = mView->camera().distance();
    QWheelEvent wheel(QPointF(200, 150), mView->mapToGlobal(QPointF(200, 150)), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(mView.get(), &wheel);
    QVERIFY(std::abs(mView->camera().distance() - distance * Camera::kZoomFactorPerStep) < 1e-4f);
    // F with particle 1 selected centres on it
    ViewportScene s = mFixture->scene;
    s.selection = {{project::ElementKind::Particle, 1}};
    mView->setScene(s);
    QTest::keyClick(mView.get(), Qt::Key_F);
    QVERIFY(length(mView->camera().target() - Vec3{-0.5f, 0.5f, 0}) < 1e-4f);
    QVERIFY(mView->camera().distance() < 1.f);
}

void TestViewport::glFailure_disablesWithoutCrashing()
{
    Viewport broken;
    broken.setForceGlFailure(true);
    broken.setFixedSize(kSize);
    broken.setScene(mFixture->scene);
    QSignalSpy unavailable(&broken, &Viewport::glUnavailable);
    broken.show();
    QVERIFY(QTest::qWaitForWindowExposed(&broken));
    QTRY_COMPARE(unavailable.count(), 1);
    QVERIFY(!broken.isUsable());
    QVERIFY2(broken.failureReason().contains(QStringLiteral("shader")), qPrintable(broken.failureReason()));
    QCOMPARE(unavailable[0][0].toString(), broken.failureReason());
    broken.update();
    broken.grabFramebuffer(); // paints nothing, does not crash
    QTest::mouseClick(&broken, Qt::LeftButton, Qt::NoModifier, QPoint(10, 10));
    QVERIFY(mView->isUsable()); // other viewports are not affected
}

QTEST_MAIN(TestViewport)
#include "tst_viewport.moc"
