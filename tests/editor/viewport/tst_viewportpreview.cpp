// Tests of the Viewport's preview support in a real window (xcb under xvfb-run, Mesa llvmpipe): the
// feedback drawn from ViewportScene (stick strain colours, angular violations, contact dots, static scene
// boxes, the overlay text), the Preview interaction mode (previewPressed/Dragged/Released instead of
// clicks, rubber bands and gizmos; navigation unchanged), pointAtDepth/rayAt on the widget, and a
// measurement of a preview frame of the mannequin sample (printed, not asserted).
//
// Unless a test says otherwise the camera looks down −Z at (0, 0.5, 0) from 4 m; 400×300 pixels; grid
// and ground are off, so everything that is not drawn on purpose is the background colour.
#include "viewport/Viewport.h"
#include "viewport/ViewportColours.h"

#include "marionette/import/Import.h"
#include "marionette/project/ProjectFile.h"

#include <QElapsedTimer>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QSignalSpy>
#include <QtTest/QtTest>

#include "ViewportWindowTestSupport.h"

#include <algorithm>
#include <numeric>

using namespace marionette;
using namespace marionette::viewport;
using namespace marionette::test;

namespace {

constexpr QSize kSize{400, 300};

bool isReddish(QRgb c)
{
    return qRed(c) > 180 && qGreen(c) < 110 && qBlue(c) < 90;
}

bool isBluish(QRgb c)
{
    return qBlue(c) > 200 && qRed(c) < 100 && qBlue(c) > qGreen(c) + 60;
}

bool isWhitish(QRgb c)
{
    return qRed(c) > 200 && qGreen(c) > 200 && qBlue(c) > 200;
}

/// Red-dominant, antialiased line edges included.
bool isRedDominant(QRgb c)
{
    return qRed(c) > 90 && qRed(c) > 2 * qGreen(c) && qRed(c) > 2 * qBlue(c);
}

bool isOrange(QRgb c)
{
    return qRed(c) > 150 && qGreen(c) > 70 && qRed(c) > qBlue(c) + 60 && qRed(c) > qGreen(c);
}

bool isPink(QRgb c) // the impulse arrow (1, 0.3, 0.6), its cone's base darker
{
    return qRed(c) > 120 && qGreen(c) < 0.6 * qRed(c) && qBlue(c) > 0.4 * qRed(c) && qBlue(c) < 0.85 * qRed(c);
}

bool isGrey(QRgb c)
{
    return qRed(c) > 70 && std::abs(qRed(c) - qGreen(c)) < 12 && std::abs(qGreen(c) - qBlue(c)) < 12;
}

int count(const QImage& image, const QRect& rect, bool (*predicate)(QRgb))
{
    int n = 0;
    const QRect r = rect.intersected(image.rect());
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x)
            n += predicate(image.pixel(x, y)) ? 1 : 0;
    return n;
}

/// Paints synchronously into the widget's framebuffer and waits for the GL to finish (for timing).
class TimedViewport : public Viewport {
public:
    void paintNow()
    {
        makeCurrent();
        paintGL();
        context()->functions()->glFinish();
        doneCurrent();
    }
};

} // namespace

class TestViewportPreview : public QObject, private ShownViewport {
    Q_OBJECT

public:
    TestViewportPreview() : ShownViewport(kSize) {}

private slots:
    void init();
    void cleanup();
    void strain_stretchedRedCompressedBlueAtRestNormal();
    void angularViolation_drawsTheConeRed();
    void contacts_dotsOnTopAtThePoints();
    void staticBoxes_drawnShadedAndOpaque();
    void impulseArrow_onTopWithItsTipOnThePoint();
    void focus_frameAndViewKeysAimAtIt_panIsReported();
    void overlayText_inTheTopLeftCorner();
    void previewMode_pressDragReleaseInsteadOfEditing();
    void previewMode_navigationUnchangedAndDragsEndCleanly();
    void pointAtDepth_underThePixelAtTheReferenceDepth();
    void perf_mannequinPreviewFrame();

};

void TestViewportPreview::init()
{
    const QString error = showFixture();
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestViewportPreview::cleanup()
{
    dropFixture();
}

// Five horizontal sticks 1 m long: rigid +20 % (red), rigid −20 % (blue), rigid at rest (white), range
// +20 % (dashed, red where drawn), range at rest (dashed, its own yellow).
void TestViewportPreview::strain_stretchedRedCompressedBlueAtRestNormal()
{
    rig::RigDescription r;
    const float rows[3] = {1.0f, 0.5f, 0.f};
    for (int row = 0; row < 3; ++row)
        for (int side = 0; side < 2; ++side) {
            const float x0 = side == 0 ? -1.2f : 0.2f;
            const auto id = rig::ElementId(1 + 4 * row + 2 * side);
            r.particles.push_back(particle(id, {x0, rows[row], 0}));
            r.particles.push_back(particle(id + 1, {x0 + 1.f, rows[row], 0}));
        }
    // particles: row 0 left 0-1, right 2-3; row 1 left 4-5, right 6-7; row 2 left 8-9
    r.sticks = {stick(1, 0, 1), stick(2, 2, 3), stick(3, 4, 5), stick(4, 6, 7, rig::StickKind::Range),
                stick(5, 8, 9, rig::StickKind::Range)};
    ViewportScene s;
    s.rig = &r;
    s.stickStrain = {0.2f, -0.2f, 0.f, 0.2f, 0.f};
    DisplayOptions o = plainOptions();
    o.showParticles = false;
    mView->setDisplayOptions(o);
    mView->setScene(s);
    QImage image = render();

    const QRgb stretched = image.pixel(pixelOf({-0.7f, 1.0f, 0}));
    QVERIFY2(isReddish(stretched), qPrintable(describe(stretched)));
    const QRgb compressed = image.pixel(pixelOf({0.7f, 1.0f, 0}));
    QVERIFY2(isBluish(compressed), qPrintable(describe(compressed)));
    const QRgb rest = image.pixel(pixelOf({-0.7f, 0.5f, 0}));
    QVERIFY2(isWhitish(rest), qPrintable(describe(rest)));
    // dashed ranges: scan their middle 80 %
    const auto scan = [&](float x0, float y) {
        const QPoint a = pixelOf({x0 + 0.1f, y, 0}), b = pixelOf({x0 + 0.9f, y, 0});
        return QRect(a.x(), a.y(), b.x() - a.x(), 1);
    };
    const int drawnRange = count(image, scan(0.2f, 0.5f), [](QRgb c) { return !isBackground(c); });
    const int redRange = count(image, scan(0.2f, 0.5f), isReddish);
    QVERIFY2(redRange > 20 && redRange >= drawnRange * 3 / 4, qPrintable(QStringLiteral("%1 of %2").arg(redRange).arg(drawnRange)));
    QVERIFY2(drawnRange < scan(0.2f, 0.5f).width() - 5, "the stretched range is still dashed");
    const int restRange = count(image, scan(-1.2f, 0.f), [](QRgb c) { return !isBackground(c); });
    QVERIFY(restRange > 20);
    QCOMPARE(count(image, scan(-1.2f, 0.f), isReddish), 0);
    const QRect restRangeRect = scan(-1.2f, 0.f);
    bool yellow = false;
    for (int x = restRangeRect.left(); x <= restRangeRect.right() && !yellow; ++x) {
        const QRgb c = image.pixel(x, restRangeRect.top());
        yellow = qRed(c) > 200 && qGreen(c) > 170 && qBlue(c) < 100;
    }
    QVERIFY(yellow);

    // a small stretch is already visibly warmer than the rest colour, and selection does not hide strain
    s.stickStrain = {0.03f, -0.03f, 0.f, 0.f, 0.f};
    s.selection = {{project::ElementKind::Stick, 1}};
    mView->setScene(s);
    image = render();
    const QRgb slight = image.pixel(pixelOf({-0.7f, 1.0f, 0}));
    QVERIFY2(qBlue(slight) < 170 && qRed(slight) > 200, qPrintable(describe(slight)));
    const QRgb slightBlue = image.pixel(pixelOf({0.7f, 1.0f, 0}));
    QVERIFY2(qBlue(slightBlue) > qRed(slightBlue) + 40, qPrintable(describe(slightBlue)));

    // a strain vector of the wrong size is ignored
    s.stickStrain = {0.2f, -0.2f};
    s.selection.clear();
    mView->setScene(s);
    image = render();
    QVERIFY(isWhitish(image.pixel(pixelOf({-0.7f, 1.0f, 0}))));
    QVERIFY(isWhitish(image.pixel(pixelOf({0.7f, 1.0f, 0}))));
}

// Two triangles sharing particle (0, 0, 0) with a swing-twist constraint (twoTriangleRig, as in tst_angulargizmo).
void TestViewportPreview::angularViolation_drawsTheConeRed()
{
    rig::RigDescription r = twoTriangleRig(rig::AngularLimit::SwingTwist);
    ViewportScene s;
    s.rig = &r;
    DisplayOptions o = plainOptions();
    o.showParticles = false; // particles and the triangles' X axes would be red too
    o.showTriangles = false;
    mView->setDisplayOptions(o);
    mView->setCamera(frontCamera(kSize, {0, 0.2f, 0}, 2.f));
    // the cone is drawn within 0.3 m of the anchor
    const QPoint anchor = pixelOf({0, 0, 0});
    const int reach = pixelOf({0.35f, 0, 0}).x() - anchor.x();
    const QRect around(anchor - QPoint(reach, reach), anchor + QPoint(reach, reach));

    mView->setScene(s);
    QImage image = render();
    const int drawn = count(image, around, [](QRgb p) { return !isBackground(p); });
    QVERIFY(drawn > 100);
    QCOMPARE(count(image, around, isRedDominant), 0);

    s.angularViolation = {radians(0.3f)}; // within the 0.5° tolerance
    mView->setScene(s);
    QCOMPARE(count(render(), around, isRedDominant), 0);

    s.angularViolation = {radians(5.f)};
    mView->setScene(s);
    image = render();
    const int red = count(image, around, isRedDominant);
    QVERIFY2(red > drawn / 2, qPrintable(QStringLiteral("%1 red of %2 drawn").arg(red).arg(drawn)));
    // the handle sphere at the anchor is red too
    QVERIFY2(isRedDominant(image.pixel(anchor + QPoint(-2, 2))), qPrintable(describe(image.pixel(anchor + QPoint(-2, 2)))));
}

void TestViewportPreview::contacts_dotsOnTopAtThePoints()
{
    const Vec3 free{-1.f, 1.2f, 0.f};
    const Vec3 insideTheMesh{1.05f, 0.3f, 0.f}; // inside the red box, below particle 3
    const QPoint p = pixelOf(free), q = pixelOf(insideTheMesh);
    QImage image = render();
    QVERIFY(isBackground(image.pixel(p)));
    const QRgb meshBefore = image.pixel(q);
    QVERIFY2(qRed(meshBefore) > 100 && qGreen(meshBefore) < 40, qPrintable(describe(meshBefore)));

    ViewportScene s = mFixture->scene;
    s.contactPoints = {free, insideTheMesh};
    mView->setScene(s);
    image = render();
    for (QPoint at : {p, q}) {
        const QRgb c = image.pixel(at + QPoint(-1, 1));
        QVERIFY2(isOrange(c), qPrintable(QStringLiteral("(%1, %2) %3").arg(at.x()).arg(at.y()).arg(describe(c))));
    }
    // small: 12 pixels away is background again; constant on screen: as big from twice as far
    QVERIFY(isBackground(image.pixel(p + QPoint(12, 0))));
    const int near = count(image, QRect(p - QPoint(15, 15), QSize(31, 31)), isOrange);
    QVERIFY2(near > 20 && near < 250, qPrintable(QString::number(near)));
    mView->setCamera(frontCamera(kSize, {0, 0.5f, 0}, 8.f));
    const QPoint far = pixelOf(free);
    const int farCount = count(render(), QRect(far - QPoint(15, 15), QSize(31, 31)), isOrange);
    QVERIFY2(std::abs(farCount - near) <= near / 4, qPrintable(QStringLiteral("%1 vs %2").arg(farCount).arg(near)));
}

void TestViewportPreview::impulseArrow_onTopWithItsTipOnThePoint()
{
    // An arrow pointing right (+X) with its tip at (−0.6, 1.2, 0), 0.8 m long: the shaft runs from x = −1.4,
    // the head (0.2 m long, 0.08 m across) ends on the point.
    const Vec3 tip{-0.6f, 1.2f, 0.f};
    ViewportScene s = mFixture->scene;
    s.impulseArrows = {{tip, {1.f, 0.f, 0.f}, 0.8f, 1.f}};
    mView->setScene(s);
    QImage image = render();
    QCOMPARE(mView->onTopList().faces.size(), std::size_t(2 * 12 * 3)); // the cone's sides and base
    QCOMPARE(mView->onTopList().lines.size(), std::size_t(2));           // the shaft
    for (const Vec3 at : {tip - Vec3{0.6f, 0.f, 0.f}, tip - Vec3{0.3f, 0.f, 0.f}, tip - Vec3{0.1f, 0.f, 0.f}}) {
        const QRgb c = image.pixel(pixelOf(at));
        QVERIFY2(isPink(c), qPrintable(describe(c)));
    }
    QVERIFY(isBackground(image.pixel(pixelOf(tip + Vec3{0.05f, 0.f, 0.f})))); // nothing past the tip
    QVERIFY(isBackground(image.pixel(pixelOf(tip - Vec3{0.9f, 0.f, 0.f})))); // nor behind the tail
    // Over everything: pointing up into the red box mesh from below, its head is drawn inside the box.
    s.impulseArrows = {{{1.05f, 0.5f, 0.f}, {0.f, 1.f, 0.f}, 0.6f, 1.f}};
    mView->setScene(s);
    image = render();
    const QRgb inside = image.pixel(pixelOf({1.05f, 0.38f, 0.f}));
    QVERIFY2(isPink(inside), qPrintable(describe(inside)));
    // None: nothing on top.
    mView->setScene(mFixture->scene);
    render();
    QVERIFY(mView->onTopList().empty());
}

void TestViewportPreview::focus_frameAndViewKeysAimAtIt_panIsReported()
{
    // Without a focus F frames the scene (rig and mesh) about its middle; with one, about the focus, keeping
    // everything shown in view.
    ViewportScene s = mFixture->scene;
    s.focus = Vec3{-0.25f, 0.5f, 0.f};
    mView->setScene(s);
    mView->frameSelection();
    QCOMPARE(mView->camera().target(), (Vec3{-0.25f, 0.5f, 0.f}));
    for (const Vec3 p : {Vec3{-0.6f, 0.4f, 0.f}, Vec3{1.3f, 0.8f, 0.25f}, Vec3{1.3f, 0.2f, -0.25f}}) {
        const QPoint at = pixelOf(p);
        QVERIFY2(QRect(QPoint(0, 0), kSize).contains(at), qPrintable(QStringLiteral("%1, %2").arg(at.x()).arg(at.y())));
    }
    // A view key turns about the focus, wherever the target was.
    Camera c = mView->camera();
    c.setTarget({5.f, 5.f, 5.f});
    mView->setCamera(c);
    QTest::keyClick(mView.get(), Qt::Key_7);
    QCOMPARE(mView->camera().pitchDegrees(), 90.f);
    QCOMPARE(mView->camera().target(), (Vec3{-0.25f, 0.5f, 0.f}));
    // Without a focus the target stays.
    mView->setScene(mFixture->scene);
    mView->setCamera(c);
    QTest::keyClick(mView.get(), Qt::Key_1);
    QCOMPARE(mView->camera().target(), (Vec3{5.f, 5.f, 5.f}));
    // A pan is reported (the preview stops following on it); an orbit is not.
    QSignalSpy panned(mView.get(), &Viewport::panned);
    QTest::mousePress(mView.get(), Qt::LeftButton, Qt::AltModifier, QPoint(200, 150));
    QTest::mouseMove(mView.get(), QPoint(230, 150));
    QTest::mouseRelease(mView.get(), Qt::LeftButton, Qt::AltModifier, QPoint(230, 150));
    QCOMPARE(panned.count(), 0);
    QTest::mousePress(mView.get(), Qt::MiddleButton, Qt::ShiftModifier, QPoint(200, 150));
    QTest::mouseMove(mView.get(), QPoint(200, 190));
    QTest::mouseRelease(mView.get(), Qt::MiddleButton, Qt::ShiftModifier, QPoint(200, 190));
    QVERIFY(panned.count() >= 1);
    // Leaving the widget with no button held ends the hover (the hit tool's arrow goes).
    QSignalSpy left(mView.get(), &Viewport::hoverLeft);
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(mView.get(), &leave);
    QCOMPARE(left.count(), 1);
}

void TestViewportPreview::staticBoxes_drawnShadedAndOpaque()
{
    ViewportScene s = mFixture->scene;
    SceneBoxShape step;
    step.pose.translation = {-1.f, 0.25f, 0.f};
    step.halfExtents = {0.25f, 0.25f, 0.25f};
    SceneBoxShape shield; // in front of particle 2
    shield.pose.translation = {0.f, 0.5f, 0.6f};
    shield.pose.rotation = Quat::fromAxisAngle({0, 1, 0}, radians(30.f));
    shield.halfExtents = {0.12f, 0.12f, 0.05f};
    const QPoint particle2 = pixelOf({0.f, 0.5f, 0});
    const QRgb before = render().pixel(particle2);
    QVERIFY2(qBlue(before) > qRed(before) + 60, qPrintable(describe(before)));

    s.staticBoxes = {step, shield};
    mView->setScene(s);
    const QImage image = render();
    const QRgb face = image.pixel(pixelOf({-1.f, 0.2f, 0.25f}));
    QVERIFY2(isGrey(face) && !isBackground(face), qPrintable(describe(face)));
    // the edge of the box (its top front edge) is darker than the face
    const QRgb edge = image.pixel(pixelOf({-1.1f, 0.5f, 0.25f}));
    QVERIFY2(qRed(edge) < qRed(face) - 20, qPrintable(describe(edge) + QStringLiteral(" vs ") + describe(face)));
    // opaque: the particle behind the shield is hidden
    const QRgb hidden = image.pixel(particle2);
    QVERIFY2(isGrey(hidden), qPrintable(describe(hidden)));
    // shaded: the top face (seen from above) is lighter than the front face
    mView->setCamera([] {
        Camera c = frontCamera(kSize);
        c.setYawPitch(0.f, 40.f);
        return c;
    }());
    const QImage above = render();
    const QRgb top = above.pixel(pixelOf({-1.f, 0.5f, 0.f}));
    const QRgb front = above.pixel(pixelOf({-1.f, 0.1f, 0.25f}));
    QVERIFY2(isGrey(top) && isGrey(front) && qRed(top) > qRed(front) + 15,
             qPrintable(describe(top) + QStringLiteral(" vs ") + describe(front)));
}

void TestViewportPreview::overlayText_inTheTopLeftCorner()
{
    const QRect corner(0, 0, 220, 60);
    QCOMPARE(count(render(), corner, [](QRgb c) { return !isBackground(c); }), 0);
    ViewportScene s = mFixture->scene;
    s.overlayLines = {QStringLiteral("step 132  t 2.20 s  0.41 ms/step"), QStringLiteral("8 it  err 3.2 mm  1/4×")};
    mView->setScene(s);
    const QImage image = render();
    const int white = count(image, corner, [](QRgb c) { return qRed(c) > 170 && qGreen(c) > 170 && qBlue(c) > 170; });
    const int dark = count(image, corner, [](QRgb c) { return qRed(c) < 32 && qGreen(c) < 32 && qBlue(c) < 36; });
    QVERIFY2(white > 40, qPrintable(QString::number(white)));
    QVERIFY2(dark > 400, qPrintable(QString::number(dark)));
    QVERIFY(isBackground(image.pixel(3, 3))); // the box keeps a margin
    QVERIFY(isBackground(image.pixel(396, 296)));
    // the next frame (after QPainter touched the GL state) still draws the rig right
    const QImage again = render();
    const QRgb stick = again.pixel(pixelOf({-0.25f, 0.5f, 0}));
    QVERIFY2(isWhitish(stick), qPrintable(describe(stick)));
    const QRgb mesh = again.pixel(pixelOf({1.05f, 0.35f, 0.25f}));
    QVERIFY2(qRed(mesh) > 150 && qGreen(mesh) < 80, qPrintable(describe(mesh)));
    QCOMPARE(count(again, corner, [](QRgb c) { return qRed(c) > 170 && qGreen(c) > 170 && qBlue(c) > 170; }), white);
}

void TestViewportPreview::previewMode_pressDragReleaseInsteadOfEditing()
{
    const Vec3 origin{-1.f, 1.2f, 0.f};
    mView->setGizmo(origin);
    mView->setAngularGizmo(7);
    const QPoint o = pixelOf(origin);
    QVERIFY(!isBackground(render().pixel(o + QPoint(40, 0)))); // the X arrow is drawn in Edit mode
    QCOMPARE(mView->interactionMode(), InteractionMode::Edit);
    mView->setInteractionMode(InteractionMode::Preview);
    QCOMPARE(mView->interactionMode(), InteractionMode::Preview);
    QVERIFY(isBackground(render().pixel(o + QPoint(40, 0)))); // no gizmo in Preview

    QSignalSpy pressed(mView.get(), &Viewport::previewPressed);
    QSignalSpy dragged(mView.get(), &Viewport::previewDragged);
    QSignalSpy released(mView.get(), &Viewport::previewReleased);
    QSignalSpy clicked(mView.get(), &Viewport::clicked);
    QSignalSpy box(mView.get(), &Viewport::boxSelected);
    QSignalSpy moveStarted(mView.get(), &Viewport::moveStarted);
    QSignalSpy moveUpdated(mView.get(), &Viewport::moveUpdated);
    QSignalSpy angular(mView.get(), &Viewport::angularLimitDragged);
    // on the (hidden) gizmo's arrow, then far enough for a rubber band in Edit mode
    QTest::mousePress(mView.get(), Qt::LeftButton, Qt::ShiftModifier, o + QPoint(50, 0));
    QCOMPARE(pressed.count(), 1);
    QCOMPARE(pressed[0][0].toPointF(), QPointF(o + QPoint(50, 0)));
    QCOMPARE(pressed[0][1].value<Qt::KeyboardModifiers>(), Qt::KeyboardModifiers(Qt::ShiftModifier));
    QTest::mouseMove(mView.get(), o + QPoint(80, 25));
    QTest::mouseMove(mView.get(), o + QPoint(110, 40));
    QCOMPARE(dragged.count(), 2);
    QCOMPARE(dragged[0][0].toPointF(), QPointF(o + QPoint(80, 25)));
    QCOMPARE(dragged[1][0].toPointF(), QPointF(o + QPoint(110, 40)));
    const QImage during = render(); // no rubber band
    QVERIFY(isBackground(during.pixel(o + QPoint(80, 10))));
    QTest::mouseRelease(mView.get(), Qt::LeftButton, Qt::ShiftModifier, o + QPoint(110, 40));
    QCOMPARE(released.count(), 1);
    QCOMPARE(released[0][0].toPointF(), QPointF(o + QPoint(110, 40)));
    // a plain click is a press and a release, no clicked()
    QTest::mouseClick(mView.get(), Qt::LeftButton, Qt::NoModifier, QPoint(300, 40));
    QCOMPARE(pressed.count(), 2);
    QCOMPARE(pressed[1][0].toPointF(), QPointF(300, 40));
    QCOMPARE(pressed[1][1].value<Qt::KeyboardModifiers>(), Qt::KeyboardModifiers(Qt::NoModifier));
    QCOMPARE(released.count(), 2);
    QCOMPARE(dragged.count(), 2);
    QCOMPARE(clicked.count(), 0);
    QCOMPARE(box.count(), 0);
    QCOMPARE(moveStarted.count(), 0);
    QCOMPARE(moveUpdated.count(), 0);
    QCOMPARE(angular.count(), 0);
    QVERIFY(!mView->isMoving());

    // back in Edit mode everything is as before
    mView->setInteractionMode(InteractionMode::Edit);
    QVERIFY(!isBackground(render().pixel(o + QPoint(40, 0))));
    QTest::mousePress(mView.get(), Qt::LeftButton, Qt::NoModifier, o + QPoint(50, 0));
    QCOMPARE(moveStarted.count(), 1);
    QTest::mouseRelease(mView.get(), Qt::LeftButton, Qt::NoModifier, o + QPoint(60, 0));
    QTest::mouseClick(mView.get(), Qt::LeftButton, Qt::NoModifier, QPoint(300, 40));
    QCOMPARE(clicked.count(), 1);
    QCOMPARE(pressed.count(), 2);
    QCOMPARE(released.count(), 2);
}

void TestViewportPreview::previewMode_navigationUnchangedAndDragsEndCleanly()
{
    mView->setInteractionMode(InteractionMode::Preview);
    QSignalSpy pressed(mView.get(), &Viewport::previewPressed);
    QSignalSpy dragged(mView.get(), &Viewport::previewDragged);
    QSignalSpy released(mView.get(), &Viewport::previewReleased);
    QSignalSpy changed(mView.get(), &Viewport::cameraChanged);
    // Alt + left drag orbits
    const float yaw = mView->camera().yawDegrees();
    QTest::mousePress(mView.get(), Qt::LeftButton, Qt::AltModifier, QPoint(200, 150));
    QTest::mouseMove(mView.get(), QPoint(230, 150));
    QTest::mouseRelease(mView.get(), Qt::LeftButton, Qt::AltModifier, QPoint(230, 150));
    QCOMPARE(mView->camera().yawDegrees(), yaw - 12.f);
    // middle button orbits, Shift + middle pans, the wheel zooms, the view keys work
    QTest::mousePress(mView.get(), Qt::MiddleButton, Qt::ShiftModifier, QPoint(200, 150));
    QTest::mouseMove(mView.get(), QPoint(200, 190));
    QTest::mouseRelease(mView.get(), Qt::MiddleButton, Qt::ShiftModifier, QPoint(200, 190));
    const float distance = mView->camera().distance();
    QWheelEvent wheel(QPointF(200, 150), mView->mapToGlobal(QPointF(200, 150)), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(mView.get(), &wheel);
    QVERIFY(std::abs(mView->camera().distance() - distance * Camera::kZoomFactorPerStep) < 1e-4f);
    QTest::keyClick(mView.get(), Qt::Key_3);
    QCOMPARE(mView->camera().yawDegrees(), 90.f);
    QVERIFY(changed.count() >= 4);
    QCOMPARE(pressed.count(), 0);
    QCOMPARE(dragged.count(), 0);
    QCOMPARE(released.count(), 0);

    // Esc during a preview drag releases at the last position; the real release is then ignored
    QTest::mousePress(mView.get(), Qt::LeftButton, Qt::NoModifier, QPoint(100, 100));
    QTest::mouseMove(mView.get(), QPoint(120, 110));
    QTest::keyClick(mView.get(), Qt::Key_Escape);
    QCOMPARE(released.count(), 1);
    QCOMPARE(released[0][0].toPointF(), QPointF(120, 110));
    QTest::mouseMove(mView.get(), QPoint(130, 110));
    QTest::mouseRelease(mView.get(), Qt::LeftButton, Qt::NoModifier, QPoint(130, 110));
    QCOMPARE(released.count(), 1);
    QCOMPARE(dragged.count(), 1);
    // leaving Preview mode during a drag releases too
    QTest::mousePress(mView.get(), Qt::LeftButton, Qt::NoModifier, QPoint(50, 60));
    mView->setInteractionMode(InteractionMode::Edit);
    QCOMPARE(released.count(), 2);
    QCOMPARE(released[1][0].toPointF(), QPointF(50, 60));
    QSignalSpy clicked(mView.get(), &Viewport::clicked);
    QTest::mouseRelease(mView.get(), Qt::LeftButton, Qt::NoModifier, QPoint(50, 60));
    QCOMPARE(released.count(), 2);
    QCOMPARE(clicked.count(), 0);
    QCOMPARE(pressed.count(), 2);
}

void TestViewportPreview::pointAtDepth_underThePixelAtTheReferenceDepth()
{
    Camera c = frontCamera(kSize);
    c.setYawPitch(30.f, 25.f);
    mView->setCamera(c);
    const Vec3 reference{0.3f, 0.7f, -0.4f};
    for (const QPointF pixel : {QPointF(123.5, 77.25), QPointF(200, 150), QPointF(390, 10)}) {
        const std::optional<Vec3> p = mView->pointAtDepth(pixel, reference);
        QVERIFY(p);
        const Camera& cam = mView->camera();
        QVERIFY2(std::abs(cam.depthOf(*p) - cam.depthOf(reference)) < 1e-4f,
                 qPrintable(QStringLiteral("%1 vs %2").arg(double(cam.depthOf(*p))).arg(double(cam.depthOf(reference)))));
        const std::optional<QPointF> back = cam.project(*p, mView->size());
        QVERIFY(back);
        QVERIFY2(std::abs(back->x() - pixel.x()) < 2e-3 && std::abs(back->y() - pixel.y()) < 2e-3,
                 qPrintable(QStringLiteral("(%1, %2)").arg(back->x()).arg(back->y())));
        // on the widget's own ray through the pixel
        const Ray ray = mView->rayAt(pixel);
        const float t = dot(*p - ray.origin, ray.direction);
        QVERIFY(t > 0.f);
        QVERIFY(length(ray.at(t) - *p) < 1e-4f);
    }
    // the reference's own pixel gives it back; a plane behind the eye gives nothing
    const std::optional<Vec3> same = mView->pointAtDepth(QPointF(*mView->camera().project(reference, mView->size())), reference);
    QVERIFY(same && length(*same - reference) < 1e-4f);
    QVERIFY(!mView->pointAtDepth(QPointF(200, 150), mView->camera().eye() - mView->camera().forward()));
}

// A preview frame of the mannequin sample: a new bone palette and new particle positions every frame
// (everything else unchanged), 800×600. Prints the cost of setScene() and of the paint (finished on the
// GPU; Mesa's llvmpipe here, so the GL part is CPU time) next to a paint that changes nothing, and checks
// that the mesh is not uploaded again while the palette is uploaded once per frame.
void TestViewportPreview::perf_mannequinPreviewFrame()
{
    const QString dir = QStringLiteral(MARIONETTE_SAMPLES "/characters/mannequin");
    project::Project proj;
    const project::LoadResult loaded = project::loadProject(dir + QStringLiteral("/mannequin.mproj"), proj);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error));
    import::ImportOptions options;
    options.isolation = import::ImportOptions::Isolation::InProcess;
    options.animations = false;
    const QString meshPath = proj.sourceMesh.path.isEmpty() ? dir + QStringLiteral("/mannequin.glb")
                                                            : proj.sourceMesh.resolve(dir + QStringLiteral("/mannequin.mproj"));
    import::ImportResult imported = import::importScene(meshPath.toStdString(), options);
    QVERIFY2(imported.ok(), imported.error.c_str());
    const import::ImportedScene& mesh = imported.scene;
    const rig::RigDescription& r = proj.rig;
    QVERIFY(!r.particles.empty());
    QVERIFY(!mesh.skeleton.empty());

    TimedViewport view;
    view.setFixedSize(800, 600);
    view.setDisplayOptions(DisplayOptions{});
    ViewportScene base;
    base.rig = &r;
    base.mesh = &mesh;
    base.stickStrain.assign(r.sticks.size(), 0.f);
    base.angularViolation.assign(r.angular.size(), 0.f);
    base.overlayLines = {QStringLiteral("step 0  t 0.00 s  0.00 ms/step  8 it  err 0.0 mm  1×")};
    view.setScene(base);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(view.isUsable());
    view.frameSelection();
    const auto finish = [&] { view.paintNow(); };
    finish();
    finish();
    view.makeCurrent();
    const QByteArray renderer(reinterpret_cast<const char*>(view.context()->functions()->glGetString(GL_RENDERER)));
    view.doneCurrent();
    const Viewport::Stats before = view.stats();

    // Interleaved so that the load of a shared machine hits the three kinds of frame alike: a preview
    // frame (new palette, positions, strain, contacts, text), the same without overlay text, and a frame
    // where only the camera moved (the cost of drawing alone).
    constexpr int kFrames = 60;
    std::vector<double> setSceneMs, paintMs, noTextMs, idleMs;
    QElapsedTimer timer;
    const auto previewScene = [&](int f, bool text) {
        ViewportScene s = base;
        const float phase = 0.1f * float(f);
        s.bonePalette.resize(mesh.skeleton.size());
        for (std::size_t i = 0; i < s.bonePalette.size(); ++i) {
            s.bonePalette[i].m[12] = 0.02f * std::sin(phase + float(i));
            s.bonePalette[i].m[13] = 0.02f * std::cos(phase + 0.5f * float(i));
        }
        s.particlePositions.resize(r.particles.size());
        for (std::size_t i = 0; i < r.particles.size(); ++i)
            s.particlePositions[i] = r.particles[i].position + Vec3{0.02f * std::sin(phase + float(i)), 0.f, 0.f};
        for (std::size_t i = 0; i < s.stickStrain.size(); ++i)
            s.stickStrain[i] = 0.1f * std::sin(phase + float(i));
        s.contactPoints = {{0.1f, 0.f, 0.05f}, {-0.1f, 0.f, 0.05f}};
        if (text)
            s.overlayLines = {QStringLiteral("step %1  t %2 s  0.41 ms/step  8 it  err 3.2 mm  1×").arg(f).arg(f / 60., 0, 'f', 2)};
        else
            s.overlayLines.clear();
        return s;
    };
    for (int f = 0; f < kFrames; ++f) {
        ViewportScene s = previewScene(2 * f, true);
        timer.start();
        view.setScene(std::move(s));
        setSceneMs.push_back(double(timer.nsecsElapsed()) / 1e6);
        timer.start();
        finish();
        paintMs.push_back(double(timer.nsecsElapsed()) / 1e6);

        view.camera().orbit(0.5f, 0.f);
        timer.start();
        finish();
        idleMs.push_back(double(timer.nsecsElapsed()) / 1e6);

        view.setScene(previewScene(2 * f + 1, false));
        timer.start();
        finish();
        noTextMs.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    const Viewport::Stats after = view.stats();
    const auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    const auto maximum = [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); };
    qInfo("mannequin preview frame (%zu particles, %zu sticks, %zu bones, %zu mesh vertices, 800x600, %s): "
          "setScene median %.3f ms (max %.3f); paint+glFinish median %.2f ms (max %.2f), without overlay text "
          "%.2f ms; a paint where only the camera moved %.2f ms; over %d preview frames: mesh uploads %d, "
          "palette uploads %d, rig rebuilds %d",
          r.particles.size(), r.sticks.size(), mesh.skeleton.size(), std::size_t(mesh.vertexCount()),
          renderer.constData(), median(setSceneMs), maximum(setSceneMs), median(paintMs), maximum(paintMs),
          median(noTextMs), median(idleMs), 2 * kFrames,
          after.meshUploads - before.meshUploads, after.paletteUploads - before.paletteUploads,
          after.rigRebuilds - before.rigRebuilds);
    if (qEnvironmentVariableIsSet("MARIONETTE_VIEWPORT_SNAPSHOTS")) {
        ViewportScene s = previewScene(7, true);
        SceneBoxShape ledge;
        ledge.pose.translation = {0.6f, 0.15f, -0.3f};
        ledge.halfExtents = {0.3f, 0.15f, 0.4f};
        s.staticBoxes = {ledge};
        s.angularViolation.assign(r.angular.size(), 0.f);
        if (!s.angularViolation.empty())
            s.angularViolation[0] = 0.2f;
        view.setScene(std::move(s));
        DisplayOptions o;
        o.meshOpacity = 0.4f;
        view.setDisplayOptions(o);
        view.grabFramebuffer().save(qEnvironmentVariable("MARIONETTE_VIEWPORT_SNAPSHOTS") + QStringLiteral("/preview.png"));
    }
    QCOMPARE(after.meshUploads, before.meshUploads);
    QCOMPARE(after.paletteUploads - before.paletteUploads, 2 * kFrames);
    QCOMPARE(after.rigRebuilds - before.rigRebuilds, 2 * kFrames);
}

QTEST_MAIN(TestViewportPreview)
#include "tst_viewportpreview.moc"
