#include "marionette/import/ImportJob.h"

#include <utility>

namespace marionette::import {

ImportJob::ImportJob(std::string path, ImportOptions options, ProgressCallback progress, CompletionCallback finished)
    : mPath(std::move(path)), mOptions(std::move(options)), mProgress(std::move(progress)),
      mFinished(std::move(finished)), mThread([this](std::stop_token stop) { run(std::move(stop)); })
{
}

ImportJob::~ImportJob()
{
    mThread.request_stop();
    if (mThread.joinable())
        mThread.join();
}

void ImportJob::cancel() { mThread.request_stop(); }

bool ImportJob::cancelRequested() const { return mThread.get_stop_token().stop_requested(); }

void ImportJob::run(std::stop_token stop)
{
    ImportResult result = importScene(mPath, mOptions, mProgress, stop);
    {
        std::lock_guard lock(mMutex);
        mResult = std::move(result);
    }
    if (mFinished) {
        try {
            mFinished(mResult);
        } catch (...) {
            // Callbacks must not throw (ImportJob.h); the job still finishes.
        }
    }
    {
        std::lock_guard lock(mMutex);
        mFinishedFlag = true;
    }
    mDone.notify_all();
}

bool ImportJob::isFinished() const
{
    std::lock_guard lock(mMutex);
    return mFinishedFlag;
}

const ImportResult& ImportJob::wait()
{
    if (std::this_thread::get_id() == mThread.get_id())
        return mResult; // from a callback: the result as it stands
    std::unique_lock lock(mMutex);
    mDone.wait(lock, [this] { return mFinishedFlag; });
    return mResult;
}

bool ImportJob::waitFor(std::chrono::milliseconds timeout)
{
    if (std::this_thread::get_id() == mThread.get_id())
        return false;
    std::unique_lock lock(mMutex);
    return mDone.wait_for(lock, timeout, [this] { return mFinishedFlag; });
}

ImportResult ImportJob::takeResult()
{
    wait();
    std::lock_guard lock(mMutex);
    return std::exchange(mResult, ImportResult{});
}

} // namespace marionette::import
