// Internal: maps the import's steps onto one 0..1 progress, never decreasing, and throttles callbacks.
#pragma once

#include "marionette/import/Import.h"

#include <algorithm>
#include <string_view>

namespace marionette::import::detail {

class ProgressReporter {
public:
    explicit ProgressReporter(const ProgressCallback& callback) : mCallback(callback) {}

    /// Starts a stage covering [begin, end] of the whole import and reports `begin`.
    void enter(std::string_view stage, float begin, float end)
    {
        mStage = stage;
        mBegin = begin;
        mEnd = end;
        report(begin, true);
    }
    /// `t` in [0, 1] of the current stage.
    void within(float t) { report(mBegin + (mEnd - mBegin) * std::clamp(t, 0.f, 1.f), false); }
    void done()
    {
        mStage = stage::kDone;
        report(1.f, true);
    }

private:
    void report(float fraction, bool force)
    {
        fraction = std::max(fraction, mLast);
        if (!mCallback || (!force && fraction - mLastSent < 0.005f))
            return;
        mLast = fraction;
        mLastSent = fraction;
        try {
            mCallback(fraction, mStage);
        } catch (...) {
            // Callbacks must not throw (Import.h); one that does is ignored rather than ending the import.
        }
    }

    const ProgressCallback& mCallback;
    std::string_view mStage = stage::kReading;
    float mBegin = 0.f, mEnd = 1.f;
    float mLast = 0.f, mLastSent = -1.f;
};

} // namespace marionette::import::detail
