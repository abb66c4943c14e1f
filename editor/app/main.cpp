// marionette-editor: the authoring editor. Usage: marionette-editor [PROJECT.mproj | MESH]
#include "DrivePanel.h"
#include "GlProbe.h"
#include "MainWindow.h"
#include "PreviewController.h"
#include "PreviewToolBar.h"
#include "viewport/Viewport.h"

#include "marionette/editor/document/DriveProfiles.h"
#include "marionette/editor/preview/PreviewSession.h"

#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QMouseEvent>
#include <QSignalBlocker>
#include <QSlider>
#include <QScreen>
#include <QTimer>

#include <algorithm>
#include <vector>

namespace {

/// For a picture: the Hit tool striking horizontally at 60 N·s, seen from above at an angle (an arrow along
/// the view is seen end-on), the cursor on the body part nearest its centre of mass.
void aimHitTool(marionette::app::MainWindow& window)
{
    using namespace marionette;
    const editor::PreviewSession* session = window.preview()->session();
    viewport::Viewport* view = window.viewport();
    if (!session || !view)
        return;
    window.action(QStringLiteral("previewHit"))->trigger();
    QComboBox* direction = window.previewToolBar()->hitDirectionBox();
    {
        const QSignalBlocker quiet(direction); // shown, not remembered as the user's choice
        direction->setCurrentIndex(direction->findData(QStringLiteral("horizontal")));
    }
    window.preview()->setHitDirection(editor::HitDirection::Horizontal);
    if (auto* strength = window.findChild<QSlider*>(QStringLiteral("previewStrength")))
        strength->setValue(60);
    view->camera().setYawPitch(35.f, 40.f);
    view->camera().setDistance(2.2f);
    view->update();
    const Vec3 centre = session->centreOfMass();
    std::vector<Vec3> candidates{centre};
    candidates.insert(candidates.end(), session->positions().begin(), session->positions().end());
    std::stable_sort(candidates.begin() + 1, candidates.end(),
                     [centre](Vec3 a, Vec3 b) { return length(a - centre) < length(b - centre); });
    for (const Vec3& p : candidates) {
        const auto pixel = view->camera().project(p, view->size());
        if (!pixel)
            continue;
        const viewport::Ray ray = view->rayAt(*pixel);
        if (!session->hitRay(ray.origin, ray.direction))
            continue;
        QMouseEvent move(QEvent::MouseMove, *pixel, view->mapToGlobal(*pixel), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(view, &move);
        return;
    }
}

} // namespace

int main(int argc, char** argv)
{
    marionette::app::setDefaultSurfaceFormat();
    QApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Marionette"));
    QApplication::setOrganizationName(QStringLiteral("Marionette"));
    QApplication::setApplicationVersion(QStringLiteral(MARIONETTE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Marionette: author ragdolls on skinned characters."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("A project (.mproj) to open, or a mesh to import."));
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
        QStringLiteral("Open the file, save a picture of the window to PATH and quit."), QStringLiteral("PATH"));
    parser.addOption(screenshot);
    QCommandLineOption play(QStringLiteral("play"),
        QStringLiteral("With --screenshot: run the preview for SECONDS (dropped from 1 m) before the picture."), QStringLiteral("SECONDS"));
    parser.addOption(play);
    QCommandLineOption aim(QStringLiteral("aim-hit"),
        QStringLiteral("With --screenshot and --play: then take the Hit tool (horizontal) and hover the body, to show the impulse arrow."));
    parser.addOption(aim);
    QCommandLineOption panel(QStringLiteral("panel"),
        QStringLiteral("Show and raise the dock of the panel NAME (outliner, properties, history, drive, validation, log)."),
        QStringLiteral("NAME"));
    parser.addOption(panel);
    QCommandLineOption drive(QStringLiteral("drive"),
        QStringLiteral("With --screenshot and --play: play the mesh's clip CLIP through the drives (a driven preview) instead of a "
                       "drop, at the drive profile PROFILE (default: balanced), shown in the Drive panel too."),
        QStringLiteral("CLIP[:PROFILE]"));
    parser.addOption(drive);
    QCommandLineOption trigger(QStringLiteral("action"),
        QStringLiteral("With --screenshot: trigger the menu action NAME (its object name, e.g. viewOpacity30) after opening the file; repeatable."),
        QStringLiteral("NAME"));
    parser.addOption(trigger);
    parser.process(app);

    marionette::app::MainWindow window;
    window.show();
    const QStringList files = parser.positionalArguments();
    const QString picture = parser.value(screenshot);
    const double playSeconds = parser.value(play).toDouble();
    const bool aimHit = parser.isSet(aim);
    const QString panelName = parser.value(panel);
    const QString driveClip = parser.value(drive);
    const QStringList actions = parser.values(trigger);
    QTimer::singleShot(0, &window, [&window, files, picture, playSeconds, aimHit, panelName, driveClip, actions] {
        if (picture.isEmpty())
            window.offerRecovery();
        if (!files.isEmpty())
            window.openPath(files.first());
        for (const QString& name : actions)
            if (QAction* a = window.action(name))
                a->trigger();
        if (auto* dock = panelName.isEmpty() ? nullptr : window.findChild<QDockWidget*>(panelName + QStringLiteral("Dock"))) {
            dock->show();
            dock->raise();
        }
        if (!picture.isEmpty() && playSeconds > 0) {
            window.preview()->settings().dropHeight = 1.f;
            const QStringList clipProfile = driveClip.split(QLatin1Char(':'));
            if (clipProfile.size() > 1) {
                window.preview()->setDriveProfile(clipProfile[1]);
                const std::int32_t i = marionette::editor::driveProfileNamed(window.document().rig(), clipProfile[1]);
                if (i >= 0)
                    window.drivePanel()->setCurrentProfile(window.document().rig().driveProfiles[std::size_t(i)].id);
            }
            window.preview()->setDrivenClip(clipProfile.value(0));
            window.preview()->play();
        }
        if (!picture.isEmpty())
            QTimer::singleShot(1500 + int(playSeconds * 1000), &window, [&window, picture, aimHit] {
                window.preview()->pause();
                if (aimHit)
                    aimHitTool(window);
                QTimer::singleShot(aimHit ? 500 : 0, &window, [&window, picture] {
                    // The screen's pixels: QWidget::grab() re-renders the viewport without what QPainter drew over it.
                    const bool saved = window.screen()->grabWindow(window.winId()).save(picture);
                    QApplication::exit(saved ? 0 : 1);
                });
            });
    });
    return QApplication::exec();
}
