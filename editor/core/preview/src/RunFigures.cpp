// Run figures on a test scene (RunFigures.h).
#include "marionette/editor/preview/RunFigures.h"

#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace marionette::editor {

RunFigures::RunFigures(SceneGeometry geometry)
    : mGeometry(std::move(geometry)), mMinHeight(std::numeric_limits<float>::infinity())
{
}

void RunFigures::measure(const runtime::Ragdoll& r, float time, float dt)
{
    const auto x = r.positions();
    const auto radii = r.rig().radii();
    mStrains.resize(r.rig().sticks().size());
    mExcesses.resize(r.rig().angular().size());
    mStepPenetration = 0.f;
    mFastest = 0.f;
    mContacts = 0;
    for (std::uint32_t i = 0; i < x.size(); ++i) {
        if (!std::isfinite(x[i].x) || !std::isfinite(x[i].y) || !std::isfinite(x[i].z))
            mFinite = false;
        mMinHeight = std::min(mMinHeight, x[i].y);
        mStepPenetration = std::max(mStepPenetration, penetrationDepth(mGeometry, x[i], radii[i]));
        float d;
        nearestSurfacePoint(mGeometry, x[i], &d);
        if (d <= radii[i] + kRunContactMargin)
            ++mContacts;
        // The impact window starts at the first step a particle touches something (within 1 mm).
        if (mFirstContact < 0.f && d <= radii[i] + 0.001f)
            mFirstContact = time;
        // Over the whole step (what the eye sees), not the solver's substep jitter.
        mFastest = std::max(mFastest, length(x[i] - r.interpolatedPosition(i, 0.f)) / dt);
    }
    mMaxPenetration = std::max(mMaxPenetration, mStepPenetration);

    r.stickStrains(mStrains);
    mStepStick = 0.f;
    for (std::size_t k = 0; k < mStrains.size(); ++k) {
        const float e = std::fabs(mStrains[k]);
        mStepStick = std::max(mStepStick, e);
        if (e > mWorstStick) {
            mWorstStick = e;
            mWorstStickIndex = std::int32_t(k);
        }
    }
    // The steps ending after the first contact's step and less than the window after it (half a step of slack
    // keeps the count of steps exact in floating point).
    if (mFirstContact >= 0.f && time < mFirstContact + kImpactWindow - 0.5f * dt)
        mImpactStick = std::max(mImpactStick, mStepStick);

    r.angularExcesses(mExcesses);
    mStepLimit = 0.f;
    for (std::size_t k = 0; k < mExcesses.size(); ++k) {
        mStepLimit = std::max(mStepLimit, mExcesses[k]);
        if (mExcesses[k] > mWorstLimit) {
            mWorstLimit = mExcesses[k];
            mWorstLimitIndex = std::int32_t(k);
        }
    }

    if (mFastest >= kSettleSpeed)
        mSettledAt = -1.f;
    else if (mSettledAt < 0.f)
        mSettledAt = time;
}

} // namespace marionette::editor
