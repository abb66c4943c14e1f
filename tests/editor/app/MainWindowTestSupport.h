// What the main-window suites share: the sample character they import, the rig as comparable bytes, and the
// test runner (the GL surface format, the application, a watchdog that closes a dialog nobody answers).
#pragma once

#include "GlProbe.h"

#include "marionette/project/ProjectFile.h"

#include <QApplication>
#include <QDialog>
#include <QElapsedTimer>
#include <QPointer>
#include <QTest>
#include <QTimer>

namespace marionette::test {

inline const QString kHuman = QStringLiteral(MARIONETTE_SAMPLES "/characters/mannequin/mannequin.glb");

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
