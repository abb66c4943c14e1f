// Headless scenario runs (ScenarioRunner.h).
#include "marionette/editor/preview/ScenarioRunner.h"

#include "marionette/editor/preview/ClipPlayback.h"
#include "marionette/editor/preview/DrivenRun.h"
#include "marionette/editor/preview/PreviewSession.h"
#include "marionette/runtime/Ragdoll.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace marionette::editor {

namespace {
constexpr float kPenetrationTolerance = 1e-6f;
constexpr float kLimitToleranceDegrees = 0.05f;
constexpr float kRecoveredBelowCm = 3.f; ///< the recovery bound when the scenario sets no maxTrackingErrorCm
constexpr float kFallenBelow = 0.5f;     ///< fallen: the root under this fraction of the clip's root height
constexpr float kStandingAbove = 0.8f;   ///< standing: the root at least this fraction of it

/// Tracks a driven run step by step for the driven expectations (ScenarioResult's driven figures).
class DrivenMeasure {
public:
    DrivenMeasure(const project::Scenario& scenario, const rig::RigDescription& rig, const import::ImportedScene& mesh)
        : mBound(scenario.expect.maxTrackingErrorCm.value_or(kRecoveredBelowCm) * 0.01f),
          mTop(sceneTopHeight(scenario.scene))
    {
        for (const project::Hit& h : scenario.hits)
            mDisturbed.insert(h.frame);
        for (const project::Explosion& x : scenario.explosions)
            mDisturbed.insert(x.frame);
        for (const project::Drag& d : scenario.drags)
            for (std::uint64_t f = d.startFrame; f <= d.endFrame; ++f)
                mDisturbed.insert(f);
        const std::vector<std::int32_t> inScene = rigBonesInScene(rig, mesh);
        for (std::size_t b = 0; b < rig.bones.size() && !mRoot; ++b)
            if (rig.bones[b].parent < 0 && inScene[b] >= 0)
                mRoot = b;
        mBones.resize(rig.bones.size());
    }

    /// After the step taken from state `frame`.
    void measure(const PreviewSession& session, std::uint64_t frame, ScenarioResult& r)
    {
        const PreviewSession::DrivePhase phase = session.drivePhase();
        const std::span<const Mat4> target = session.driveTarget();
        const float t = session.time();
        if (!mRoot || target.size() != mBones.size() || !session.ragdoll().boneMatrices(mBones))
            return;
        float metres = 0.f, radians = 0.f;
        trackingError(mBones, target, *mRoot, metres, radians);
        const bool playing = phase == PreviewSession::DrivePhase::Playing;
        const bool disturbed = mDisturbed.count(frame) || (playing && mPhase == PreviewSession::DrivePhase::GettingUp);
        mPhase = phase;
        mSamples.push_back({t, float(double(t) - double(session.timeStep())), metres, playing, disturbed});
        const float body = mBones[*mRoot].m[13] - mTop, clip = target[*mRoot].m[13] - mTop;
        if (phase != PreviewSession::DrivePhase::GettingUp && r.fellAt < 0.f && !(body >= kFallenBelow * clip))
            r.fellAt = t;
        r.endPhase = int(phase);
        r.endRootHeightRatio = clip > 0.f ? body / clip : 0.f;
        r.endTrackingErrorCm = metres * 100.f;
    }

    /// At the end: each disturbance is recovered from at the first step from which the error stays below the
    /// bound until the next disturbance (or the end); the steps in between are not held to the bound.
    void finish(ScenarioResult& r) const
    {
        std::vector<bool> recovering(mSamples.size(), false);
        for (std::size_t i = mSamples.size(); i-- > 0;) {
            if (!mSamples[i].disturbed)
                continue;
            std::size_t next = i + 1;
            while (next < mSamples.size() && !mSamples[next].disturbed)
                ++next;
            std::size_t calm = next; // first step of the calm run that lasts to `next`
            while (calm > i && mSamples[calm - 1].metres < mBound)
                --calm;
            for (std::size_t k = i; k < calm; ++k)
                recovering[k] = true;
            if (next == mSamples.size()) { // the last disturbance
                r.lastDisturbance = mSamples[i].start;
                r.recoveredAfter = calm < mSamples.size() ? mSamples[calm].end - mSamples[i].start : -1.f;
            }
        }
        for (std::size_t i = 0; i < mSamples.size(); ++i)
            if (mSamples[i].playing && !recovering[i] && !(mSamples[i].metres * 100.f <= r.maxTrackingErrorCm)) {
                r.maxTrackingErrorCm = mSamples[i].metres * 100.f;
                r.maxTrackingErrorAt = mSamples[i].end;
            }
    }

private:
    struct Sample {
        float end, start; ///< seconds at the step's end and start
        float metres;
        bool playing, disturbed;
    };
    float mBound, mTop;
    std::set<std::uint64_t> mDisturbed;
    std::optional<std::size_t> mRoot;
    std::vector<Mat4> mBones;
    std::vector<Sample> mSamples;
    PreviewSession::DrivePhase mPhase = PreviewSession::DrivePhase::Playing;
};

void checkDriven(const project::Expectations& e, const PreviewSession& session, ScenarioResult& r)
{
    auto num = [](double v, int decimals) { return QString::number(v, 'f', decimals); };
    if (e.maxTrackingErrorCm && r.maxTrackingErrorCm > *e.maxTrackingErrorCm)
        r.failures << QStringLiteral("tracking: %1 cm off the clip at %2 s (expected at most %3 cm)")
                          .arg(num(r.maxTrackingErrorCm, 1), num(r.maxTrackingErrorAt, 2), num(*e.maxTrackingErrorCm, 1));
    if (e.recoverWithin) {
        const float bound = e.maxTrackingErrorCm.value_or(kRecoveredBelowCm);
        if (r.lastDisturbance < 0.f)
            r.failures << QStringLiteral("recovery: nothing disturbed the body to recover from");
        else if (r.recoveredAfter < 0.f)
            r.failures << QStringLiteral("recovery: not back below %1 cm %2 s after the last disturbance (expected within %3 s)")
                              .arg(num(bound, 1), num(session.time() - r.lastDisturbance, 2), num(*e.recoverWithin, 2));
        else if (r.recoveredAfter > *e.recoverWithin + 0.5f * session.timeStep())
            r.failures << QStringLiteral("recovery: back below %1 cm %2 s after the last disturbance (expected within %3 s)")
                              .arg(num(bound, 1), num(r.recoveredAfter, 2), num(*e.recoverWithin, 2));
    }
    if (e.falls && *e.falls && r.fellAt < 0.f)
        r.failures << QStringLiteral("falls: the body never fell (expected it to)");
    if (e.falls && !*e.falls && r.fellAt >= 0.f)
        r.failures << QStringLiteral("falls: the body fell at %1 s (expected it not to)").arg(num(r.fellAt, 2));
    if (e.standsAtEnd && *e.standsAtEnd) {
        if (r.endPhase != int(PreviewSession::DrivePhase::Playing))
            r.failures << QStringLiteral("stands: at the end the body is %1 (expected it playing its clip)")
                              .arg(r.endPhase == int(PreviewSession::DrivePhase::Limp) ? QStringLiteral("limp")
                                                                                      : QStringLiteral("getting up"));
        else if (!(r.endRootHeightRatio >= kStandingAbove))
            r.failures << QStringLiteral("stands: at the end the root is at %1 % of the clip's height (expected at least %2 %)")
                              .arg(num(r.endRootHeightRatio * 100.0, 0), num(kStandingAbove * 100.0, 0));
    }
}

} // namespace

ScenarioResult runScenario(const rig::RigDescription& rig, const project::Scenario& scenario,
                           const import::ImportedScene* mesh,
                           const std::function<void(const PreviewSession&)>& afterStep,
                           const std::optional<Transform>& placement)
{
    ScenarioResult result;
    PreviewSession session;
    QString error;
    if (!session.startScenario(rig, scenario, error, mesh, placement)) {
        result.failures << error;
        return result;
    }
    result.started = true;
    result.driven = session.isDriven();
    std::optional<DrivenMeasure> driven;
    if (result.driven && mesh)
        driven.emplace(scenario, session.rig(), *mesh);
    if (afterStep)
        afterStep(session);
    // Until the simulated time reaches the duration (to the nearest step: the step may change on the way).
    // A scenario's step is at least 1 ms (ProjectCheck), so a 600 s scenario is at most 600 000 steps.
    const double duration = std::isfinite(scenario.duration) ? std::min(double(scenario.duration), 600.0) : 0.0;
    float maxViolation = 0.f;
    bool wasAsleep = session.stats().asleep;
    for (std::uint64_t i = 0; double(session.time()) < duration - 0.5 * double(session.timeStep()) && i < 1000000; ++i) {
        ++result.steps;
        session.step();
        if (driven)
            driven->measure(session, session.stepIndex() - 1, result);
        if (afterStep)
            afterStep(session);
        const PreviewStats& s = session.stats();
        if (i > 0) // the first step may still resolve the spawn pose
            result.maxPenetration = std::max(result.maxPenetration, s.maxPenetration);
        maxViolation = std::max(maxViolation, s.maxAngularViolation);
        if (s.asleep && !wasAsleep)
            result.settledAt = session.time();
        else if (!s.asleep)
            result.settledAt = -1.f;
        wasAsleep = s.asleep;
    }
    result.maxLimitViolationDegrees = degrees(maxViolation);

    const project::Expectations& e = scenario.expect;
    auto num = [](double v, int decimals) { return QString::number(v, 'f', decimals); };
    if (e.settleWithin) {
        const float within = *e.settleWithin;
        if (result.settledAt < 0.f)
            result.failures << QStringLiteral("settle: still moving after %1 s (expected within %2 s)")
                                   .arg(num(session.time(), 1), num(within, 1));
        else if (result.settledAt > within + 0.5f * session.timeStep())
            result.failures << QStringLiteral("settle: came to rest at %1 s (expected within %2 s)")
                                   .arg(num(result.settledAt, 2), num(within, 1));
    }
    // Tolerances: float rounding of a resting contact (1 µm) and the solver's own angular tolerance (0.05°).
    if (result.maxPenetration > e.maxPenetration + kPenetrationTolerance)
        result.failures << QStringLiteral("penetration: %1 mm into the scene (expected at most %2 mm)")
                               .arg(num(result.maxPenetration * 1000.0, 1), num(e.maxPenetration * 1000.0, 1));
    if (result.maxLimitViolationDegrees > e.maxLimitViolationDegrees + kLimitToleranceDegrees)
        result.failures << QStringLiteral("limits: %1 deg beyond an angular limit (expected at most %2 deg)")
                               .arg(num(result.maxLimitViolationDegrees, 2), num(e.maxLimitViolationDegrees, 2));
    if (driven)
        driven->finish(result);
    if (result.driven)
        checkDriven(e, session, result);
    result.passed = result.failures.isEmpty();
    return result;
}

} // namespace marionette::editor
