// The preview in the real main window under Xvfb: play a dropped rig, hit, drag, reset, the skinned mesh
// following, a recorded scenario replayed headless, editing locked, and the UI thread's frame cost.
#include "DialogDriver.h"
#include "MainWindowTestSupport.h"
#include "GlProbe.h"
#include "MainWindow.h"
#include "PreviewController.h"
#include "viewport/Viewport.h"

#include "marionette/editor/preview/PreviewSession.h"
#include "marionette/editor/preview/ScenarioRunner.h"
#include "marionette/project/ProjectFile.h"
#include "marionette/runtime/Ragdoll.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QSlider>
#include <QStandardPaths>
#include <QComboBox>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace marionette;
using namespace marionette::test;
using project::ElementKind;

namespace {

std::int32_t stickBetween(const rig::RigDescription& rig, std::int32_t a, std::int32_t b)
{
    for (std::size_t i = 0; i < rig.sticks.size(); ++i)
        if (std::minmax(rig.sticks[i].a, rig.sticks[i].b) == std::minmax(a, b))
            return std::int32_t(i);
    return -1;
}

} // namespace

class TestPreview : public QObject {
    Q_OBJECT
  private slots:
    void init();
    void cleanup();
    void droppedRig_comesToRestAboveTheFloor_withTheMeshFollowing();
    void hit_movesTheHitSideFirst();
    void drag_movesTheParticleToTheCursorAtItsDepth();
    void reset_restoresTheDropPoseBitForBit_andStopUnlocksEditing();
    void recordedScenario_replaysHeadlessWithTheSameOutcome();
    void playing_keepsTheUiThreadResponsive();
    void animationHandoff_startsFromTheClipPoseWithItsVelocity();
    void stairs_drawnAsStepsStandingOnTheFloor();

  private:
    std::unique_ptr<app::MainWindow> mWindow;
    QTemporaryDir mDir;
};

void TestPreview::init()
{
    mWindow = std::make_unique<app::MainWindow>();
    mWindow->show();
    QVERIFY(QTest::qWaitForWindowExposed(mWindow.get()));
    QVERIFY2(mWindow->viewport(), qPrintable(mWindow->glProblem()));
    QVERIFY(mWindow->openProject(kMannequin));
    QVERIFY(mWindow->document().mesh());
    mWindow->action(QStringLiteral("viewFront"))->trigger();
    mWindow->action(QStringLiteral("viewFrame"))->trigger();
    QCoreApplication::processEvents();
}

void TestPreview::cleanup()
{
    if (mWindow) {
        mWindow->preview()->stop();
        std::shared_ptr<DialogRecord> dialog;
        if (mWindow->document().isModified()) // closing asks to save: discard (an unused answer would catch the next test's dialog)
            dialog = answerNextDialog(pressButton(QStringLiteral("Discard")), 3000);
        mWindow->close();
        mWindow.reset();
    }
}

void TestPreview::droppedRig_comesToRestAboveTheFloor_withTheMeshFollowing()
{
    app::MainWindow& w = *mWindow;
    const QByteArray rigBefore = project::writeProject(w.document().snapshot(), *std::make_unique<QString>());
    w.preview()->settings().dropHeight = 0.6f;
    w.preview()->settings().rotation.rotation = Quat::fromAxisAngle({1, 0, 0}, radians(-80.f));
    stepN(w, 1);
    editor::PreviewSession* session = w.preview()->session();
    QVERIFY(session);
    QVERIFY(!w.action(QStringLiteral("editDelete"))->isEnabled()); // editing is locked
    QVERIFY(!w.action(QStringLiteral("toolAddParticle"))->isEnabled());
    int steps = 1;
    while (!session->stats().asleep && steps < 900) {
        stepN(w, 10);
        steps += 10;
    }
    QVERIFY2(session->stats().asleep, qPrintable(QStringLiteral("still moving after %1 steps").arg(steps)));
    const auto& particles = w.document().rig().particles;
    for (std::size_t i = 0; i < particles.size(); ++i)
        QVERIFY2(session->positions()[i].y > particles[i].radius - 0.02f,
            qPrintable(QStringLiteral("%1 at y=%2").arg(QString::fromStdString(particles[i].name)).arg(session->positions()[i].y)));
    // The mesh follows: skinned with the palette the viewport draws with, it lies on the floor, not where
    // it stood.
    const viewport::ViewportScene& scene = w.viewport()->scene();
    QCOMPARE(scene.bonePalette.size(), w.document().mesh()->skeleton.size());
    float lowest = 1e9f, highest = -1e9f;
    for (const auto& m : w.document().mesh()->meshes)
        for (std::size_t v = 0; v < m.positions.size(); ++v) {
            Vec3 skinned{};
            for (int k = 0; k < import::kMaxInfluences; ++k) {
                const auto bone = m.influences.empty() ? -1 : m.influences[v].bone[std::size_t(k)];
                if (bone < 0)
                    continue;
                skinned = skinned + scene.bonePalette[std::size_t(bone)].transformPoint(m.positions[v]) * m.influences[v].weight[std::size_t(k)];
            }
            lowest = std::min(lowest, skinned.y);
            highest = std::max(highest, skinned.y);
        }
    QVERIFY2(lowest > -0.05f, qPrintable(QString::number(double(lowest))));
    QVERIFY2(highest < 0.9f, qPrintable(QString::number(double(highest)))); // lying down: no longer 1.8 m tall
    // The document was not touched.
    w.preview()->stop();
    QCOMPARE(project::writeProject(w.document().snapshot(), *std::make_unique<QString>()), rigBefore);
}

void TestPreview::hit_movesTheHitSideFirst()
{
    app::MainWindow& w = *mWindow;
    viewport::Viewport* vp = w.viewport();
    const rig::RigDescription& rig = w.document().rig();
    const std::int32_t elbowL = particleNamed(rig, "elbow_l"), wristL = particleNamed(rig, "wrist_l");
    const std::int32_t elbowR = particleNamed(rig, "elbow_r"), wristR = particleNamed(rig, "wrist_r");
    QVERIFY(elbowL >= 0 && wristL >= 0 && elbowR >= 0 && wristR >= 0);
    QVERIFY(stickBetween(rig, elbowL, wristL) >= 0);
    w.preview()->settings().gravity = false;
    stepN(w, 1);
    editor::PreviewSession* session = w.preview()->session();
    const std::vector<Vec3> before(session->positions().begin(), session->positions().end());
    w.action(QStringLiteral("previewHit"))->trigger();
    const Vec3 forearmMid = (before[std::size_t(elbowL)] + before[std::size_t(wristL)]) * 0.5f;
    QTest::mouseClick(vp, Qt::LeftButton, {}, pixelOf(vp, forearmMid));
    stepN(w, 3);
    auto moved = [&](std::int32_t i) { return length(session->positions()[std::size_t(i)] - before[std::size_t(i)]); };
    QVERIFY2(moved(wristL) + moved(elbowL) > 0.01f, "the hit did nothing");
    QVERIFY2(moved(wristL) + moved(elbowL) > 5.f * (moved(wristR) + moved(elbowR)),
        qPrintable(QStringLiteral("left %1 m, right %2 m").arg(moved(wristL) + moved(elbowL)).arg(moved(wristR) + moved(elbowR))));
}

void TestPreview::drag_movesTheParticleToTheCursorAtItsDepth()
{
    app::MainWindow& w = *mWindow;
    viewport::Viewport* vp = w.viewport();
    const std::int32_t wrist = particleNamed(w.document().rig(), "wrist_r");
    w.preview()->settings().gravity = false;
    stepN(w, 1);
    editor::PreviewSession* session = w.preview()->session();
    const Vec3 grabbed = session->positions()[std::size_t(wrist)];
    const QPoint from = pixelOf(vp, grabbed);
    const QPoint to = from + QPoint(0, -60); // raise the hand
    w.action(QStringLiteral("previewDrag"))->trigger();
    QTest::mousePress(vp, Qt::LeftButton, {}, from);
    for (int k = 1; k <= 6; ++k)
        QTest::mouseMove(vp, from + (to - from) * k / 6);
    stepN(w, 60);
    const Vec3 now = session->positions()[std::size_t(wrist)];
    const QPoint at = pixelOf(vp, now);
    QVERIFY2((at - to).manhattanLength() <= 4, qPrintable(QStringLiteral("at %1,%2, cursor %3,%4").arg(at.x()).arg(at.y()).arg(to.x()).arg(to.y())));
    const float depthBefore = dot(grabbed - vp->camera().eye(), vp->camera().forward());
    const float depthNow = dot(now - vp->camera().eye(), vp->camera().forward());
    QVERIFY2(std::fabs(depthNow - depthBefore) < 0.01f, qPrintable(QStringLiteral("%1 vs %2").arg(depthNow).arg(depthBefore)));
    QTest::mouseRelease(vp, Qt::LeftButton, {}, to);
}

void TestPreview::reset_restoresTheDropPoseBitForBit_andStopUnlocksEditing()
{
    app::MainWindow& w = *mWindow;
    w.preview()->settings().dropHeight = 1.f;
    stepN(w, 1);
    editor::PreviewSession* session = w.preview()->session();
    w.action(QStringLiteral("previewReset"))->trigger();
    const std::vector<Vec3> start(session->positions().begin(), session->positions().end());
    stepN(w, 40);
    w.action(QStringLiteral("previewHit"))->trigger();
    QTest::mouseClick(w.viewport(), Qt::LeftButton, {}, pixelOf(w.viewport(), session->positions()[0]));
    stepN(w, 20);
    w.action(QStringLiteral("previewReset"))->trigger();
    QCOMPARE(session->stepIndex(), std::uint64_t(0));
    for (std::size_t i = 0; i < start.size(); ++i) {
        QCOMPARE(session->positions()[i].x, start[i].x);
        QCOMPARE(session->positions()[i].y, start[i].y);
        QCOMPARE(session->positions()[i].z, start[i].z);
    }
    w.action(QStringLiteral("previewStop"))->trigger();
    QVERIFY(!w.preview()->isActive());
    QVERIFY(w.viewport()->scene().particlePositions.empty()); // the rig as edited again
    QVERIFY(w.action(QStringLiteral("editDelete"))->isEnabled());
}

void TestPreview::recordedScenario_replaysHeadlessWithTheSameOutcome()
{
    app::MainWindow& w = *mWindow;
    viewport::Viewport* vp = w.viewport();
    w.preview()->settings().dropHeight = 0.3f;
    w.action(QStringLiteral("previewRecord"))->trigger();
    QVERIFY(w.preview()->isRecording());
    stepN(w, 30);
    editor::PreviewSession* session = w.preview()->session();
    w.action(QStringLiteral("previewHit"))->trigger();
    const std::int32_t head = particleNamed(w.document().rig(), "head");
    QTest::mouseClick(vp, Qt::LeftButton, {}, pixelOf(vp, session->positions()[std::size_t(head)]));
    stepN(w, 20);
    w.action(QStringLiteral("previewDrag"))->trigger();
    // Grab a hand or foot the viewport shows in front of the rest of the body (as an artist would).
    std::int32_t grabbed = -1;
    for (const char* name : {"wrist_l", "wrist_r", "ankle_l", "ankle_r", "head"}) {
        const std::int32_t p = particleNamed(w.document().rig(), name);
        const std::optional<viewport::Pick> pick = vp->pickAt(pixelOf(vp, session->positions()[std::size_t(p)]));
        if (pick && pick->element.kind == project::ElementKind::Particle && pick->index == p) {
            grabbed = p;
            break;
        }
    }
    QVERIFY2(grabbed >= 0, "no hand, foot or head of the fallen body can be picked");
    const QPoint from = pixelOf(vp, session->positions()[std::size_t(grabbed)]);
    QTest::mousePress(vp, Qt::LeftButton, {}, from);
    for (int k = 1; k <= 10; ++k) {
        QTest::mouseMove(vp, from + QPoint(4 * k, -3 * k));
        stepN(w, 2);
    }
    QTest::mouseRelease(vp, Qt::LeftButton, {}, from + QPoint(40, -30));
    stepN(w, 100);
    const std::uint64_t steps = session->stepIndex();
    const std::vector<Vec3> live(session->positions().begin(), session->positions().end());
    project::Expectations expect;
    expect.settleWithin.reset();
    expect.maxPenetration = 0.05f;
    expect.maxLimitViolationDegrees = 90.f;
    const std::size_t shipped = w.document().project().scenarios.size(); // the sample's own
    QVERIFY(w.saveRecordedScenario(QStringLiteral("hit and drag"), expect));
    QCOMPARE(w.document().project().scenarios.size(), shipped + 1);
    const project::Scenario scenario = w.document().project().scenarios.back();
    QCOMPARE(scenario.name, QStringLiteral("hit and drag"));
    QVERIFY(!scenario.hits.empty());
    QVERIFY(!scenario.drags.empty());

    // Headless, as the CLI runs it: the same positions after the same number of steps, bit for bit.
    editor::PreviewSession replay;
    QString error;
    QVERIFY2(replay.startScenario(w.document().rig(), scenario, error), qPrintable(error));
    while (replay.stepIndex() < steps)
        replay.step();
    for (std::size_t i = 0; i < live.size(); ++i)
        QVERIFY2(replay.positions()[i] == live[i], qPrintable(QStringLiteral("particle %1 differs").arg(i)));

    // And through the command line on the saved project.
    w.preview()->stop();
    const QString project = mDir.filePath(QStringLiteral("recorded.mproj"));
    QVERIFY(w.saveTo(project));
    QProcess cli;
    cli.start(QStringLiteral(MARIONETTE_BIN_DIR "/marionette"), {QStringLiteral("simulate"), project, QStringLiteral("--scenario"), QStringLiteral("hit and drag")});
    QVERIFY(cli.waitForFinished(60000));
    QVERIFY2(cli.exitCode() == 0, qPrintable(QString::fromUtf8(cli.readAllStandardOutput() + cli.readAllStandardError())));
}

void TestPreview::playing_keepsTheUiThreadResponsive()
{
    app::MainWindow& w = *mWindow;
    w.preview()->settings().dropHeight = 1.f;
    w.action(QStringLiteral("previewPlay"))->trigger();
    QVERIFY(w.preview()->isPlaying());
    QElapsedTimer played;
    played.start();
    QTest::qWait(2000);
    // A loaded machine paints fewer frames in those 2 s (Mesa's software rasteriser shares the cores): play on
    // until the display has shown a few frames and the simulation has run half a second.
    QTRY_VERIFY_WITH_TIMEOUT(w.preview()->frameTimes().frames > 5 && w.preview()->session()->stepIndex() > 30, 30000);
    const double seconds = double(played.elapsed()) / 1000.0;
    w.action(QStringLiteral("previewPlay"))->trigger(); // pause
    QVERIFY(!w.preview()->isPlaying());
    // The numbers are on screen: light text pixels in the viewport's top-left corner.
    QCOMPARE(w.viewport()->scene().overlayLines.size(), qsizetype(5));
    const QImage frame = w.viewport()->grabFramebuffer();
    int light = 0;
    for (int y = 8; y < 70; ++y)
        for (int x = 8; x < 300; ++x)
            light += QColor(frame.pixel(x, y)).lightness() > 180 ? 1 : 0;
    QVERIFY2(light > 100, qPrintable(QString::number(light)));
    const auto times = w.preview()->frameTimes();
    // Reported, not asserted (machines differ): the UI thread's time per display frame spent on the simulation
    // and the scene (painting is Mesa's software rasteriser here and is not part of it).
    qInfo("preview of the mannequin: %zu frames in %.1f s, simulation + scene %.3f ms median, %.3f ms max per frame, %llu steps",
        times.frames, seconds, times.medianMs, times.maxMs, static_cast<unsigned long long>(w.preview()->session()->stepIndex()));
    QVERIFY(times.frames > 5);
    // Fixed steps at the rig's rate whatever the frame rate: 2 s of play is about 120 steps of 1/60 s (the
    // accumulator drops time only when a frame would need more than four steps, so a slow frame loses time).
    QVERIFY(w.preview()->session()->stepIndex() > 30);
}

void TestPreview::animationHandoff_startsFromTheClipPoseWithItsVelocity()
{
    app::MainWindow& w = *mWindow;
    const QString model = QStringLiteral("/usr/share/assimp/models/X/anim_test.x");
    if (!QFileInfo::exists(model))
        QSKIP("Assimp's test models are not installed (Debian package assimp-testmodels)");
    QVERIFY(w.importMesh(model, QStringLiteral("generic"), 20.f));
    const auto mesh = w.document().mesh();
    QVERIFY(mesh && !mesh->animations.empty());
    // The dialog plays the clip on the mesh while its slider moves; switch at 60 % of the clip.
    std::size_t paletteWhileChoosing = 0;
    auto dialog = answerNextDialog([&](QDialog* d) {
        auto* slider = d->findChild<QSlider*>();
        slider->setValue(600);
        paletteWhileChoosing = w.viewport()->scene().bonePalette.size();
        d->accept();
    });
    w.action(QStringLiteral("previewFromAnimation"))->trigger();
    QVERIFY(dialog->seen);
    QCOMPARE(dialog->objectName, QStringLiteral("animationDialog"));
    QCOMPARE(paletteWhileChoosing, mesh->skeleton.size());
    editor::PreviewSession* session = w.preview()->session();
    QVERIFY(session);
    QVERIFY(w.preview()->isPlaying());
    w.preview()->pause();
    // The clip's pose differs from the bind pose, and the body inherits the clip's motion.
    float moved = 0.f;
    editor::PreviewSession bind;
    QString error;
    editor::PreviewSettings settings;
    QVERIFY(bind.start(w.document().rig(), settings, error));
    for (std::size_t i = 0; i < session->positions().size(); ++i)
        moved = std::max(moved, length(session->positions()[i] - bind.positions()[i]));
    QVERIFY2(moved > 0.01f, qPrintable(QString::number(double(moved))));
    const auto previous = session->ragdoll().previousPositions(); // Verlet's x*: the clip one step earlier
    float speed = 0.f;
    for (std::size_t i = 0; i < previous.size(); ++i)
        speed = std::max(speed, length(session->positions()[i] - previous[i]) / session->timeStep());
    QVERIFY2(speed > 0.01f, qPrintable(QStringLiteral("fastest particle %1 m/s").arg(double(speed))));
    qInfo("anim_test at 60 %%: pose %.3f m from bind, fastest particle %.3f m/s", double(moved), double(speed));
}

// The stairs scene is drawn as it is: six steps standing on the floor, each 0.18 m higher and 0.3 m further
// back, not as blocks reaching a metre down through the translucent floor (which read as towers).
void TestPreview::stairs_drawnAsStepsStandingOnTheFloor()
{
    app::MainWindow& w = *mWindow;
    auto* scene = w.findChild<QComboBox*>(QStringLiteral("previewScene"));
    QVERIFY(scene);
    scene->setCurrentIndex(scene->findData(int(project::Scene::Stairs)));
    stepN(w, 1);
    QCoreApplication::processEvents();
    const std::vector<viewport::SceneBoxShape>& boxes = w.viewport()->scene().staticBoxes;
    QCOMPARE(int(boxes.size()), 6);
    for (int k = 0; k < 6; ++k) {
        const viewport::SceneBoxShape& b = boxes[std::size_t(k)];
        const float bottom = b.pose.translation.y - b.halfExtents.y, top = b.pose.translation.y + b.halfExtents.y;
        QVERIFY2(std::fabs(bottom) < 1e-5f, qPrintable(QStringLiteral("step %1 starts at y = %2").arg(k).arg(double(bottom))));
        QVERIFY(std::fabs(top - 0.18f * float(k + 1)) < 1e-5f);
        QVERIFY(std::fabs(b.pose.translation.z - (-0.15f - 0.3f * float(k))) < 1e-5f);
    }
}

int main(int argc, char** argv)
{
    QTemporaryDir recovery;
    useTestEnvironment(recovery.path());
    TestPreview test;
    return runGuiTests(test, argc, argv);
}

#include "tst_preview.moc"
