// Headless scenario runs (ScenarioRunner.h).
#include "marionette/editor/preview/ScenarioRunner.h"

#include "marionette/editor/preview/PreviewSession.h"

#include <algorithm>
#include <cmath>

namespace marionette::editor {

namespace {
constexpr float kPenetrationTolerance = 1e-6f;
constexpr float kLimitToleranceDegrees = 0.05f;
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
    result.passed = result.failures.isEmpty();
    return result;
}

} // namespace marionette::editor
