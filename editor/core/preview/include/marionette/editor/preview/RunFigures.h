// Marionette — the figures of a run on a test scene, measured step by step: the numbers
// `marionette simulate` reports and the preview's overlay shows, from one definition.
#pragma once

#include "marionette/editor/preview/TestScenes.h"

#include <cstdint>
#include <vector>

namespace marionette::runtime { class Ragdoll; }

namespace marionette::editor {

/// Distance from a scene surface (beyond the particle's radius) within which a particle counts as touching
/// it for contacts(), metres.
constexpr float kRunContactMargin = 0.005f;
/// Settled: every particle moves slower than this over a step, m/s.
constexpr float kSettleSpeed = 0.05f;
/// The impact window: this long after the first contact, seconds.
constexpr float kImpactWindow = 0.5f;

/// Measures one ragdoll's run on a test scene. Call measure() after every fixed step of the world (the
/// ragdoll's interpolation start is then the step's start, which settling is measured from).
class RunFigures {
public:
    explicit RunFigures(SceneGeometry geometry);

    /// Takes the ragdoll's state after a step of `dt` seconds that ended `time` seconds into the run.
    void measure(const runtime::Ragdoll& ragdoll, float time, float dt);

    // ---- this step ------------------------------------------------------------------------------------
    float stepStickError() const { return mStepStick; }     ///< largest |L − clamp(L)| / rest length
    float stepLimitExcess() const { return mStepLimit; }    ///< radians, largest angular-limit excess
    float stepPenetration() const { return mStepPenetration; } ///< metres, deepest particle sphere
    std::uint32_t contacts() const { return mContacts; }    ///< particles within kRunContactMargin of a surface
    float fastest() const { return mFastest; }              ///< m/s, fastest particle over the step

    // ---- since the start ------------------------------------------------------------------------------
    bool finite() const { return mFinite; }                 ///< no position has been NaN or infinite
    float worstStickError() const { return mWorstStick; }   ///< largest stepStickError()
    std::int32_t worstStick() const { return mWorstStickIndex; } ///< its compiled stick (Rig::stickName), or -1
    float impactStickError() const { return mImpactStick; } ///< the same over the steps ending in the impact window
    float firstContact() const { return mFirstContact; }    ///< seconds: a particle first within 1 mm, or -1
    float worstLimitExcess() const { return mWorstLimit; }  ///< radians
    std::int32_t worstLimit() const { return mWorstLimitIndex; } ///< its angular constraint, or -1
    float maxPenetration() const { return mMaxPenetration; }
    float minHeight() const { return mMinHeight; }          ///< lowest particle centre (+inf before a step)
    float settledAt() const { return mSettledAt; }          ///< seconds: since when settled (to now), or -1

private:
    SceneGeometry mGeometry;
    std::vector<float> mStrains, mExcesses;
    float mStepStick = 0.f, mStepLimit = 0.f, mStepPenetration = 0.f, mFastest = 0.f;
    std::uint32_t mContacts = 0;
    bool mFinite = true;
    float mWorstStick = 0.f, mImpactStick = 0.f, mFirstContact = -1.f, mWorstLimit = 0.f;
    std::int32_t mWorstStickIndex = -1, mWorstLimitIndex = -1;
    float mMaxPenetration = 0.f, mMinHeight;
    float mSettledAt = -1.f;
};

} // namespace marionette::editor
