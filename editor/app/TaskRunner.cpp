#include "TaskRunner.h"

#include "marionette/import/ImportJob.h"

#include <QPointer>
#include <QTimer>

#include <limits>

namespace marionette::app {

import::ImportResult importWithProgress(QWidget* parent, const QString& path, const import::ImportOptions& options)
{
    QProgressDialog dialog(QObject::tr("Importing %1…").arg(path), QObject::tr("Cancel"), 0, 1000, parent);
    dialog.setWindowTitle(QObject::tr("Import"));
    dialog.setWindowModality(Qt::WindowModal);
    // Shown after 300 ms whether or not progress arrives (a big file can sit in one stage for seconds).
    dialog.setMinimumDuration(std::numeric_limits<int>::max());
    dialog.setAutoClose(false);
    dialog.setAutoReset(false);
    QTimer::singleShot(300, &dialog, [&dialog] { dialog.show(); });
    QEventLoop loop;
    QPointer<QProgressDialog> guard(&dialog);
    QPointer<QEventLoop> loopGuard(&loop);
    auto progress = [guard](float fraction, std::string_view stage) {
        const QString text = QString::fromUtf8(stage.data(), qsizetype(stage.size()));
        QMetaObject::invokeMethod(qApp, [guard, fraction, text] {
            if (guard) {
                guard->setValue(int(fraction * 1000.f));
                guard->setLabelText(text);
            }
        }, Qt::QueuedConnection);
    };
    auto finished = [loopGuard](const import::ImportResult&) {
        QMetaObject::invokeMethod(qApp, [loopGuard] {
            if (loopGuard)
                loopGuard->quit();
        }, Qt::QueuedConnection);
    };
    import::ImportJob job(path.toStdString(), options, progress, finished);
    QObject::connect(&dialog, &QProgressDialog::canceled, &dialog, [&job] { job.cancel(); });
    if (!job.isFinished())
        loop.exec();
    return job.takeResult();
}

} // namespace marionette::app
