// Marionette — an import running on a thread of its own, for the editor (progress bar, cancel button)
// and the command line (progress on a terminal).
//
//   ImportJob job(path, options, [](float f, std::string_view stage) { ... },  // on the job's thread
//                 [](const ImportResult& r) { ... });                          // on the job's thread
//   ...
//   job.cancel();                       // optional: finishes soon with ImportStatus::Cancelled
//   const ImportResult& r = job.wait(); // or poll isFinished()
//
// Threading: both callbacks run on the job's thread. The completion callback runs once, after the result is
// final and before wait() returns or isFinished() becomes true; a Qt caller typically posts the result to
// the GUI thread from it (QMetaObject::invokeMethod with Qt::QueuedConnection). Callbacks must not throw
// and must not destroy the job. Destroying a job that is still running cancels it and blocks until its
// thread has ended (so keep the job alive while the import is wanted).
#pragma once

#include "marionette/import/Import.h"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace marionette::import {

class ImportJob {
public:
    using CompletionCallback = std::function<void(const ImportResult&)>;

    /// Starts importing `path` at once on a new thread.
    ImportJob(std::string path, ImportOptions options = {}, ProgressCallback progress = {},
              CompletionCallback finished = {});
    ~ImportJob();

    ImportJob(const ImportJob&) = delete;
    ImportJob& operator=(const ImportJob&) = delete;

    const std::string& path() const { return mPath; }

    /// Asks the import to stop; returns at once, from any thread. Without effect once finished.
    void cancel();
    bool cancelRequested() const;

    /// True once the result is final (and the completion callback has returned).
    bool isFinished() const;
    /// Blocks until finished and returns the result, which stays valid and unchanged until takeResult()
    /// or destruction. Called from one of the job's own callbacks it does not block (that would never
    /// end) and returns the result as it stands.
    const ImportResult& wait();
    /// Like wait() with a limit: false when the job is still running after `timeout`.
    bool waitFor(std::chrono::milliseconds timeout);
    /// Waits, then moves the result out (the job keeps an empty, failed result).
    ImportResult takeResult();

private:
    void run(std::stop_token stop);

    std::string mPath;
    ImportOptions mOptions;
    ProgressCallback mProgress;
    CompletionCallback mFinished;

    mutable std::mutex mMutex;
    std::condition_variable mDone;
    bool mFinishedFlag = false;
    ImportResult mResult;
    std::jthread mThread; // last: started after every other member exists, joined before they go
};

} // namespace marionette::import
