// marionette-editor: the authoring editor. Usage: marionette-editor [PROJECT.mproj | MESH]
#include "GlProbe.h"
#include "MainWindow.h"
#include "PreviewController.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QScreen>
#include <QTimer>

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
    parser.process(app);

    marionette::app::MainWindow window;
    window.show();
    const QStringList files = parser.positionalArguments();
    const QString picture = parser.value(screenshot);
    const double playSeconds = parser.value(play).toDouble();
    QTimer::singleShot(0, &window, [&window, files, picture, playSeconds] {
        if (picture.isEmpty())
            window.offerRecovery();
        if (!files.isEmpty())
            window.openPath(files.first());
        if (!picture.isEmpty() && playSeconds > 0) {
            window.preview()->settings().dropHeight = 1.f;
            window.preview()->play();
        }
        if (!picture.isEmpty())
            QTimer::singleShot(1500 + int(playSeconds * 1000), &window, [&window, picture] {
                window.preview()->pause();
                // The screen's pixels: QWidget::grab() re-renders the viewport without what QPainter drew over it.
                const bool saved = window.screen()->grabWindow(window.winId()).save(picture);
                QApplication::exit(saved ? 0 : 1);
            });
    });
    return QApplication::exec();
}
