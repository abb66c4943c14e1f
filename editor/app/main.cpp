// marionette-editor: the authoring editor. Usage: marionette-editor [PROJECT.mproj | MESH]
#include "GlProbe.h"
#include "MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>
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
    parser.process(app);

    marionette::app::MainWindow window;
    window.show();
    const QStringList files = parser.positionalArguments();
    QTimer::singleShot(0, &window, [&window, files] {
        window.offerRecovery();
        if (!files.isEmpty())
            window.openPath(files.first());
    });
    return QApplication::exec();
}
