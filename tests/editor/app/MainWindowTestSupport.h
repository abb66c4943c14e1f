// What the main-window suites share: the sample character they import, the rig as comparable bytes, finding
// a particle and a point's pixel, waiting for the viewport, and the test runner (the GL surface format, the
// application, a watchdog that closes a dialog nobody answers).
#pragma once

#include "GlProbe.h"
#include "MainWindow.h"
#include "viewport/Viewport.h"

#include "marionette/project/ProjectFile.h"

#include <QApplication>
#include <QDialog>
#include <QElapsedTimer>
#include <QPointer>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>

namespace marionette::test {

inline const QString kHuman = QStringLiteral(MARIONETTE_SAMPLES "/characters/mannequin/mannequin.glb");
inline const QString kMannequin = QStringLiteral(MARIONETTE_SAMPLES "/characters/mannequin/mannequin.mproj");

/// The rig as canonical bytes (the project writer's JSON of a project holding only the rig).
inline QByteArray rigBytes(const rig::RigDescription& rig)
{
    project::Project p;
    p.rig = rig;
    QString error;
    const QByteArray bytes = project::writeProject(p, error);
    if (!error.isEmpty())
        qWarning("%s", qPrintable(error));
    return bytes;
}

/// Index of the particle named `name`, or -1.
inline std::int32_t particleNamed(const rig::RigDescription& rig, const char* name)
{
    for (std::size_t i = 0; i < rig.particles.size(); ++i)
        if (rig.particles[i].name == name)
            return std::int32_t(i);
    return -1;
}

/// The viewport pixel `p` projects to, or (-1, -1) behind the camera.
inline QPoint pixelOf(viewport::Viewport* v, Vec3 p)
{
    const auto pixel = v->camera().project(p, v->size());
    return pixel ? pixel->toPoint() : QPoint(-1, -1);
}

/// Waits until the window is exposed and its viewport has a GL context.
inline void waitForViewport(app::MainWindow& w)
{
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY2(w.viewport(), qPrintable(w.glProblem()));
    QTRY_VERIFY_WITH_TIMEOUT(w.viewport()->isValid(), 10000);
    QCoreApplication::processEvents();
}

/// Steps the preview `n` times (Preview ▸ Step).
inline void stepN(app::MainWindow& w, int n)
{
    for (int i = 0; i < n; ++i)
        w.action(QStringLiteral("previewStep"))->trigger();
}

#ifdef MARIONETTE_BIN_DIR
/// The editor's surroundings for a test: QStandardPaths' test mode, autosaves in `recoveryDir`, the plugins
/// of this build.
inline void useTestEnvironment(const QString& recoveryDir)
{
    QStandardPaths::setTestModeEnabled(true);
    qputenv("MARIONETTE_RECOVERY_DIR", recoveryDir.toUtf8());
    qputenv("MARIONETTE_PLUGIN_PATH", QByteArray(MARIONETTE_BIN_DIR "/plugins"));
}
#endif

/// Runs `test` in a QApplication with the editor's surface format. A dialog nobody answers would block a
/// test forever: any modal dialog left open for 20 s is closed.
inline int runGuiTests(QObject& test, int argc, char** argv)
{
    app::setDefaultSurfaceFormat();
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("MarionetteTests"));
    QTimer watchdog;
    QPointer<QWidget> seen;
    QElapsedTimer since;
    QObject::connect(&watchdog, &QTimer::timeout, [&] {
        QWidget* modal = QApplication::activeModalWidget();
        if (modal != seen) {
            seen = modal;
            since.start();
        } else if (modal && since.elapsed() > 20000) {
            qWarning("closing an unanswered dialog: %s", qPrintable(modal->windowTitle()));
            if (auto* dialog = qobject_cast<QDialog*>(modal))
                dialog->reject();
            else
                modal->close();
        }
    });
    watchdog.start(250);
    return QTest::qExec(&test, argc, argv);
}

} // namespace marionette::test
