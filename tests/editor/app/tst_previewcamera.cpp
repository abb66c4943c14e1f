// The preview's view of the simulated body in the real main window under Xvfb: Follow Body keeps the fallen
// body framed (orbit and zoom still work, a pan turns it off), F and the view keys aim at the current pose, and
// the hit tool shows its impulse as an arrow and strikes a body lying on the floor horizontally through the view.
#include "DialogDriver.h"
#include "MainWindowTestSupport.h"
#include "GlProbe.h"
#include "MainWindow.h"
#include "PreviewController.h"
#include "PreviewToolBar.h"
#include "viewport/Viewport.h"

#include "marionette/editor/preview/PreviewSession.h"

#include <QComboBox>
#include <QSettings>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

#include <cmath>

using namespace marionette;
using namespace marionette::test;

namespace {

/// The simulated pose's bounds: every particle sphere.
viewport::Bounds poseBounds(const editor::PreviewSession& s, const rig::RigDescription& rig)
{
    viewport::Bounds b;
    for (std::size_t i = 0; i < s.positions().size(); ++i)
        b.add(s.positions()[i], rig.particles[i].radius);
    return b;
}

/// How many of the bounds' eight corners project inside the viewport.
int cornersInView(viewport::Viewport* v, const viewport::Bounds& b)
{
    int inside = 0;
    for (float x : {b.min.x, b.max.x})
        for (float y : {b.min.y, b.max.y})
            for (float z : {b.min.z, b.max.z}) {
                const auto p = v->camera().project({x, y, z}, v->size());
                inside += p && p->x() >= 0. && p->x() <= v->width() && p->y() >= 0. && p->y() <= v->height() ? 1 : 0;
            }
    return inside;
}

QString text(Vec3 v)
{
    return QStringLiteral("(%1, %2, %3)").arg(double(v.x), 0, 'f', 3).arg(double(v.y), 0, 'f', 3).arg(double(v.z), 0, 'f', 3);
}

} // namespace

class TestPreviewCamera : public QObject {
    Q_OBJECT
  private slots:
    void init();
    void cleanup();
    void followBody_keepsTheFallenBodyFramed_orbitAndZoomWork_panTurnsItOff();
    void frameAndViewKeys_inPreview_aimAtTheCurrentPose();
    void hitTool_showsItsArrow_andStrikesALyingBodyHorizontally();
    void settings_rememberFollowAndHitDirection();

  private:
    /// Drops the mannequin on its back from `height`, steps until it sleeps on the floor; the session.
    editor::PreviewSession* dropAndSettle(float height);

    std::unique_ptr<app::MainWindow> mWindow;
};

void TestPreviewCamera::init()
{
    QSettings().remove(QStringLiteral("preview")); // the defaults: follow on, view-ray hits
    mWindow = std::make_unique<app::MainWindow>();
    mWindow->resize(1280, 860);
    mWindow->show();
    QVERIFY(QTest::qWaitForWindowExposed(mWindow.get()));
    QVERIFY2(mWindow->viewport(), qPrintable(mWindow->glProblem()));
    QVERIFY(mWindow->openProject(kMannequin));
    mWindow->action(QStringLiteral("viewFrame"))->trigger();
    QCoreApplication::processEvents();
}

void TestPreviewCamera::cleanup()
{
    if (mWindow) {
        mWindow->preview()->stop();
        std::shared_ptr<DialogRecord> dialog;
        if (mWindow->document().isModified())
            dialog = answerNextDialog(pressButton(QStringLiteral("Discard")), 3000);
        mWindow->close();
        mWindow.reset();
    }
    QSettings().remove(QStringLiteral("preview"));
}

editor::PreviewSession* TestPreviewCamera::dropAndSettle(float height)
{
    app::MainWindow& w = *mWindow;
    w.preview()->settings().dropHeight = height;
    w.preview()->settings().rotation.rotation = Quat::fromAxisAngle({1, 0, 0}, radians(-80.f));
    stepN(w, 1);
    editor::PreviewSession* session = w.preview()->session();
    for (int steps = 1; session && !session->stats().asleep && steps < 900; steps += 10)
        stepN(w, 10);
    return session && session->stats().asleep ? session : nullptr;
}

void TestPreviewCamera::followBody_keepsTheFallenBodyFramed_orbitAndZoomWork_panTurnsItOff()
{
    app::MainWindow& w = *mWindow;
    viewport::Viewport* vp = w.viewport();
    QAction* follow = w.action(QStringLiteral("previewFollow"));
    QVERIFY(follow && follow->isCheckable());
    QVERIFY(follow->isChecked()); // on by default
    const rig::RigDescription& rig = w.document().rig();
    const viewport::Camera before = vp->camera();
    w.preview()->settings().dropHeight = 1.f;
    w.preview()->settings().rotation.rotation = Quat::fromAxisAngle({1, 0, 0}, radians(-80.f));
    // Played in real time: the target glides after the falling body.
    w.action(QStringLiteral("previewPlay"))->trigger();
    editor::PreviewSession* session = w.preview()->session();
    QVERIFY(session);
    QTRY_VERIFY_WITH_TIMEOUT(session->stats().asleep, 60000);
    // The body lies on the floor, far from where it stood: the head has come down from 1.7 m.
    float moved = 0.f;
    for (std::size_t i = 0; i < rig.particles.size(); ++i)
        moved = std::max(moved, length(session->positions()[i] - rig.particles[i].position));
    QVERIFY2(moved > 1.f, qPrintable(QString::number(double(moved))));
    // The view is on it: the target within 3 cm of its centre of mass, the user's angles and distance kept.
    QTRY_VERIFY2(length(vp->camera().target() - session->centreOfMass()) < 0.03f,
                 qPrintable(text(vp->camera().target()) + QStringLiteral(" vs ") + text(session->centreOfMass())));
    QVERIFY2(length(vp->camera().target() - before.target()) > 0.5f, qPrintable(text(vp->camera().target())));
    QCOMPARE(vp->camera().yawDegrees(), before.yawDegrees());
    QCOMPARE(vp->camera().pitchDegrees(), before.pitchDegrees());
    QCOMPARE(vp->camera().distance(), before.distance());
    QCOMPARE(cornersInView(vp, poseBounds(*session, rig)), 8);

    // Orbit (Alt + left drag, 0.4° per pixel) and zoom (the wheel) while following: the view turns and
    // closes in about the body, which stays the target.
    const QPoint centre(vp->width() / 2, vp->height() / 2);
    QTest::mousePress(vp, Qt::LeftButton, Qt::AltModifier, centre);
    QTest::mouseMove(vp, centre + QPoint(50, 0));
    QTest::mouseRelease(vp, Qt::LeftButton, Qt::AltModifier, centre + QPoint(50, 0));
    QVERIFY2(std::fabs(vp->camera().yawDegrees() - (before.yawDegrees() - 20.f)) < 0.01f,
             qPrintable(QString::number(double(vp->camera().yawDegrees()))));
    QWheelEvent wheel(QPointF(centre), vp->mapToGlobal(QPointF(centre)), {}, {0, 120}, Qt::NoButton, {}, Qt::NoScrollPhase, false);
    QApplication::sendEvent(vp, &wheel);
    QVERIFY2(std::fabs(vp->camera().distance() - before.distance() * 0.85f) < 1e-3f,
             qPrintable(QString::number(double(vp->camera().distance()))));
    QVERIFY(follow->isChecked());
    QTest::qWait(200);
    QVERIFY(length(vp->camera().target() - session->centreOfMass()) < 0.03f);

    // A pan (Shift + middle drag) looks elsewhere on purpose: following stops and the view stays there.
    QTest::mousePress(vp, Qt::MiddleButton, Qt::ShiftModifier, centre);
    QTest::mouseMove(vp, centre + QPoint(200, 0));
    QTest::mouseRelease(vp, Qt::MiddleButton, Qt::ShiftModifier, centre + QPoint(200, 0));
    QVERIFY(!follow->isChecked());
    QVERIFY(!w.preview()->followBody());
    const Vec3 panned = vp->camera().target();
    QVERIFY(length(panned - session->centreOfMass()) > 0.3f);
    QTest::qWait(200);
    QCOMPARE(vp->camera().target(), panned);
    // Turning it back on glides back to the body.
    follow->trigger();
    QVERIFY(w.preview()->followBody());
    QTRY_VERIFY(length(vp->camera().target() - session->centreOfMass()) < 0.03f);
    w.action(QStringLiteral("previewPlay"))->trigger(); // pause
}

void TestPreviewCamera::frameAndViewKeys_inPreview_aimAtTheCurrentPose()
{
    app::MainWindow& w = *mWindow;
    viewport::Viewport* vp = w.viewport();
    const rig::RigDescription& rig = w.document().rig();
    w.action(QStringLiteral("previewFollow"))->trigger(); // off: the camera stays where it is put
    QVERIFY(!w.preview()->followBody());
    editor::PreviewSession* session = dropAndSettle(1.f);
    QVERIFY(session);
    const Vec3 com = session->centreOfMass();
    QVERIFY2(com.y < 0.4f, qPrintable(text(com))); // lying down
    // Look at empty space: the bind pose's chest height, 3 m to the side, close up.
    viewport::Camera away = vp->camera();
    away.setTarget({3.f, 1.2f, 0.f});
    away.setDistance(1.5f);
    vp->setCamera(away);
    QCOMPARE(cornersInView(vp, poseBounds(*session, rig)), 0);
    // F frames the body as it lies now, about its centre of mass.
    w.action(QStringLiteral("viewFrame"))->trigger();
    QVERIFY2(length(vp->camera().target() - com) < 1e-4f, qPrintable(text(vp->camera().target())));
    QCOMPARE(cornersInView(vp, poseBounds(*session, rig)), 8);
    QVERIFY(vp->camera().distance() < 6.f); // framed, not lost in the distance
    // A view key turns about the body too, from wherever the target was.
    away = vp->camera();
    away.setTarget({-2.f, 2.f, 1.f});
    vp->setCamera(away);
    w.action(QStringLiteral("viewSide"))->trigger();
    QCOMPARE(vp->camera().yawDegrees(), 90.f);
    QCOMPARE(vp->camera().pitchDegrees(), 0.f);
    QVERIFY2(length(vp->camera().target() - com) < 1e-4f, qPrintable(text(vp->camera().target())));
    // In editing again, F frames the rig as it is edited (standing, its centre near 0.9 m).
    w.preview()->stop();
    w.action(QStringLiteral("viewFrame"))->trigger();
    QVERIFY2(vp->camera().target().y > 0.6f, qPrintable(text(vp->camera().target())));
}

void TestPreviewCamera::hitTool_showsItsArrow_andStrikesALyingBodyHorizontally()
{
    app::MainWindow& w = *mWindow;
    viewport::Viewport* vp = w.viewport();
    const rig::RigDescription& rig = w.document().rig();
    editor::PreviewSession* session = dropAndSettle(0.5f);
    QVERIFY(session);
    // The default camera (yaw 0, raised 20°, 3 m away) on the body.
    project::Camera state;
    state.target = session->centreOfMass();
    vp->setCamera(viewport::Camera(state));
    w.action(QStringLiteral("previewHit"))->trigger();
    auto* strength = w.findChild<QSlider*>(QStringLiteral("previewStrength"));
    auto* direction = w.findChild<QComboBox*>(QStringLiteral("previewHitDirection"));
    QVERIFY(strength && direction);
    strength->setValue(150);
    QCOMPARE(direction->currentData().toString(), QStringLiteral("viewRay")); // the default
    const std::int32_t spine = particleNamed(rig, "spine");
    QVERIFY(spine >= 0);
    const QPoint at = pixelOf(vp, session->positions()[std::size_t(spine)]);
    const Vec3 ray = vp->rayAt(at).direction;
    QVERIFY2(ray.y < -0.2f, qPrintable(text(ray))); // from above: the view ray runs into the floor

    // Hovering the body shows the arrow: along the view ray, 0.25 m × √(150 / 10) long.
    QTest::mouseMove(vp, at);
    QCOMPARE(vp->scene().impulseArrows.size(), std::size_t(1));
    viewport::ImpulseArrow arrow = vp->scene().impulseArrows.front();
    QVERIFY2(dot(arrow.direction, ray) > 0.9999f, qPrintable(text(arrow.direction)));
    QVERIFY(std::fabs(arrow.length - 0.25f * std::sqrt(15.f)) < 1e-4f);
    const auto hit = session->hitRay(vp->rayAt(at).origin, ray);
    QVERIFY(hit);
    QVERIFY(length(arrow.point - hit->point) < 1e-5f);
    QTRY_VERIFY(!vp->onTopList().faces.empty()); // drawn: the head's cone ...
    QVERIFY(!vp->onTopList().lines.empty());       // ... and the shaft
    // Surface normal: into the struck shape.
    direction->setCurrentIndex(direction->findData(QStringLiteral("surfaceNormal")));
    arrow = vp->scene().impulseArrows.front();
    QVERIFY2(length(arrow.direction - session->hitNormal(*hit)) < 1e-5f, qPrintable(text(arrow.direction)));
    // Horizontal: the view ray levelled.
    direction->setCurrentIndex(direction->findData(QStringLiteral("horizontal")));
    QCOMPARE(w.preview()->hitDirection(), editor::HitDirection::Horizontal);
    arrow = vp->scene().impulseArrows.front();
    const Vec3 level = normalizeOr(Vec3{ray.x, 0.f, ray.z}, {});
    QCOMPARE(arrow.direction.y, 0.f);
    QVERIFY2(dot(arrow.direction, level) > 0.9999f, qPrintable(text(arrow.direction)));
    // Off the body, no arrow.
    QTest::mouseMove(vp, QPoint(5, vp->height() - 5));
    QVERIFY(vp->scene().impulseArrows.empty());

    // The hit: the arrow stays while the hit is under way, though nothing is hovered.
    const Vec3 comBefore = session->centreOfMass();
    QTest::mouseClick(vp, Qt::LeftButton, {}, at);
    QTest::mouseMove(vp, QPoint(5, vp->height() - 5));
    QCOMPARE(vp->scene().impulseArrows.size(), std::size_t(1));
    QVERIFY(dot(vp->scene().impulseArrows.front().direction, level) > 0.9999f);
    stepN(w, 6);
    // 150 N·s on a 75 kg body is 2 m/s for its centre of mass: 0.2 m in the 0.1 s of six steps without
    // friction. Lying on the floor it slides along the view's horizontal direction, most of that.
    const Vec3 d = session->centreOfMass() - comBefore;
    const float along = dot(d, level);
    const float across = length(d - level * along - Vec3{0.f, d.y, 0.f});
    qInfo("horizontal hit: centre of mass moved %s m, %.3f along the view", qPrintable(text(d)), double(along));
    QVERIFY2(along > 0.1f, qPrintable(text(d)));
    QVERIFY2(along < 0.205f, qPrintable(text(d))); // the impulse, not more: momentum J and no more
    QVERIFY2(across < 0.3f * along, qPrintable(text(d)));
    QVERIFY2(std::fabs(d.y) < 0.3f * along, qPrintable(text(d)));
    // Played on, the arrow goes once the hit is over.
    stepN(w, int(std::ceil(app::PreviewController::kHitArrowSeconds / session->timeStep())));
    QVERIFY(vp->scene().impulseArrows.empty());
}

void TestPreviewCamera::settings_rememberFollowAndHitDirection()
{
    app::MainWindow& w = *mWindow;
    auto* direction = w.findChild<QComboBox*>(QStringLiteral("previewHitDirection"));
    QVERIFY(direction);
    direction->setCurrentIndex(direction->findData(QStringLiteral("surfaceNormal")));
    w.action(QStringLiteral("previewFollow"))->trigger(); // off
    QVERIFY(!w.preview()->followBody());
    // A new window (the next start of the editor) has them as left.
    app::MainWindow other;
    QCOMPARE(other.findChild<QComboBox*>(QStringLiteral("previewHitDirection"))->currentData().toString(),
             QStringLiteral("surfaceNormal"));
    QCOMPARE(other.preview()->hitDirection(), editor::HitDirection::SurfaceNormal);
    QVERIFY(!other.action(QStringLiteral("previewFollow"))->isChecked());
    QVERIFY(!other.preview()->followBody());
    // A pan turns following off for this preview only: the next one follows again, as chosen.
    w.action(QStringLiteral("previewFollow"))->trigger(); // on
    stepN(w, 1);
    viewport::Viewport* vp = w.viewport();
    const QPoint centre(vp->width() / 2, vp->height() / 2);
    QTest::mousePress(vp, Qt::MiddleButton, Qt::ShiftModifier, centre);
    QTest::mouseMove(vp, centre + QPoint(30, 0));
    QTest::mouseRelease(vp, Qt::MiddleButton, Qt::ShiftModifier, centre + QPoint(30, 0));
    QVERIFY(!w.preview()->followBody());
    w.preview()->stop();
    stepN(w, 1);
    QVERIFY(w.preview()->followBody());
    QVERIFY(w.action(QStringLiteral("previewFollow"))->isChecked());
}

int main(int argc, char** argv)
{
    QTemporaryDir recovery;
    useTestEnvironment(recovery.path());
    TestPreviewCamera test;
    return runGuiTests(test, argc, argv);
}

#include "tst_previewcamera.moc"
