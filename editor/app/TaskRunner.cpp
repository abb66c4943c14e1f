#include "TaskRunner.h"


#include <QPointer>
#include <QTimer>

#include <limits>

namespace marionette::app {

editor::MeshImportResult importWithProgress(QWidget* parent, plugin::MeshImporter& importer,
                                            editor::MeshImportRequest request)
{
    QProgressDialog dialog(QObject::tr("Importing %1…").arg(request.path), QObject::tr("Cancel"), 0, 1000, parent);
    dialog.setWindowTitle(QObject::tr("Import"));
    dialog.setWindowModality(Qt::WindowModal);
    // Shown after 300 ms whether or not progress arrives (a big file can sit in one stage for seconds).
    dialog.setMinimumDuration(std::numeric_limits<int>::max());
    dialog.setAutoClose(false);
    dialog.setAutoReset(false);
    QTimer::singleShot(300, &dialog, [&dialog] { dialog.show(); });
    QPointer<QProgressDialog> guard(&dialog);
    request.progress = [guard](float fraction, const QString& stage) {
        QMetaObject::invokeMethod(qApp, [guard, fraction, stage] {
            if (guard) {
                guard->setValue(int(fraction * 1000.f));
                guard->setLabelText(stage);
            }
        }, Qt::QueuedConnection);
    };
    std::stop_source stop;
    QObject::connect(&dialog, &QProgressDialog::canceled, &dialog, [&stop] { stop.request_stop(); });
    QFutureWatcher<editor::MeshImportResult> watcher;
    QEventLoop loop;
    QObject::connect(&watcher, &QFutureWatcherBase::finished, &loop, &QEventLoop::quit);
    watcher.setFuture(QtConcurrent::run([&importer, request, token = stop.get_token()] {
        return editor::importMesh(importer, request, token);
    }));
    if (!watcher.isFinished())
        loop.exec();
    return watcher.result();
}

} // namespace marionette::app
