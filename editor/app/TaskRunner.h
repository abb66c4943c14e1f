// Marionette editor — long work (import, auto-rig) off the UI thread, behind a progress dialog with a
// Cancel button. The calls return when the work is done; meanwhile the UI keeps painting and answering
// (a nested event loop under a modal dialog, the standard QProgressDialog pattern).
#pragma once

#include "marionette/editor/pluginhost/MeshImport.h"

#include <QApplication>
#include <QEventLoop>
#include <QFutureWatcher>
#include <QProgressDialog>
#include <QString>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <limits>

class QWidget;

namespace marionette::app {

/// Imports request.path with `importer` (editor::importMesh) on a thread of its own; the built-in importer
/// reads in a child process, so a crashing file is a message. The dialog shows the importer's stages;
/// Cancel stops it (status Cancelled; a plugin importer is waited for, then its result dropped).
editor::MeshImportResult importWithProgress(QWidget* parent, plugin::MeshImporter& importer,
                                            editor::MeshImportRequest request);

/// Runs `work` on the thread pool with a busy dialog saying `label`; returns its result. The work cannot be
/// cancelled half-way (the auto-rig takes well under a second), so the dialog has no Cancel button.
template <typename F>
auto runWithProgress(QWidget* parent, const QString& label, F work) -> decltype(work())
{
    QProgressDialog dialog(label, QString(), 0, 0, parent);
    dialog.setWindowModality(Qt::WindowModal);
    dialog.setMinimumDuration(std::numeric_limits<int>::max());
    dialog.setCancelButton(nullptr);
    QTimer::singleShot(400, &dialog, [&dialog] { dialog.show(); });
    QFutureWatcher<decltype(work())> watcher;
    QEventLoop loop;
    QObject::connect(&watcher, &QFutureWatcherBase::finished, &loop, &QEventLoop::quit);
    watcher.setFuture(QtConcurrent::run(std::move(work)));
    if (!watcher.isFinished())
        loop.exec(QEventLoop::ExcludeUserInputEvents);
    return watcher.result();
}

} // namespace marionette::app
