// Marionette — running a recorded scenario headless and checking its expectations (docs/preview.md), for
// `marionette simulate PROJECT --scenario NAME` and a game's CI. The run is PreviewSession's replay: the same
// code path as the editor's preview.
#pragma once

#include "marionette/import/ImportedScene.h"
#include "marionette/project/Project.h"
#include "marionette/rig/RigDescription.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <optional>

namespace marionette::editor {

class PreviewSession;

struct ScenarioResult {
    bool passed = false;
    bool started = false; ///< the scenario could start (else failures holds why)
    /// One line per failed expectation, e.g. "settle: still moving after 3.0 s (expected within 3.0 s)";
    /// a scenario that cannot run at all has one line saying why (and passed = false).
    QStringList failures;
    float settledAt = -1.f;              ///< seconds: when the ragdoll fell asleep for good (to the end), or -1
    float maxPenetration = 0.f;          ///< metres: deepest particle sphere in the scene, from the second step on
    float maxLimitViolationDegrees = 0.f; ///< largest PreviewSession::angularViolation() over the run
    std::uint64_t steps = 0;             ///< steps run: until the time simulated is the duration, to the
                                         ///< nearest step (round(duration / step) when the step is fixed)
    // Driven scenarios (Scenario::driven). The tracking error of a step is trackingError() of the body's bones
    // against the palette the drives follow (PreviewSession::driveTarget()), relative to the clip's root bone.
    bool driven = false;
    /// Centimetres: the worst tracking error over the steps the body plays its clip and recovers from nothing
    /// (Expectations::maxTrackingErrorCm), -1 when there were none.
    float maxTrackingErrorCm = -1.f;
    float maxTrackingErrorAt = -1.f;     ///< seconds: when it happened
    /// Seconds from the last disturbance (hit, explosion, drag, end of a get-up) until the tracking error went
    /// below the recovery bound (maxTrackingErrorCm, else 3 cm) for good; -1 when it did not, or nothing disturbed it.
    float recoveredAfter = -1.f;
    float lastDisturbance = -1.f;        ///< seconds: when the last disturbance happened, or -1
    float fellAt = -1.f;                 ///< seconds: when the root bone first went below half the clip's root height, or -1
    /// At the end: the drive phase, the root bone's height over the clip's (both above the scene's top), and
    /// the tracking error (cm).
    int endPhase = 0;                    ///< PreviewSession::DrivePhase
    float endRootHeightRatio = 0.f;
    float endTrackingErrorCm = -1.f;
};

/// Replays `scenario` on `rig` for its duration and checks scenario.expect: settleWithin (asleep at the end,
/// having fallen asleep no later than that, with the rig's sleep settings), maxPenetration, and
/// maxLimitViolationDegrees. The last two allow float rounding of a resting contact (1 µm) and the solver's
/// angular tolerance (0.05°): an expectation of 0 means "none beyond rounding".
/// A driven scenario also checks maxTrackingErrorCm, recoverWithin, falls and standsAtEnd (Project.h).
/// A scenario with an animation start or a driven play needs the project's source mesh (`mesh`, imported as the project
/// records it); without it the run fails with one line saying so.
/// `afterStep`, when given, sees the session once at the start (step 0) and after every step (a bake
/// records the palettes through it, BakedClip.h). `placement`, when set, replaces the drop's placement
/// (PreviewSettings::placement).
ScenarioResult runScenario(const rig::RigDescription& rig, const project::Scenario& scenario,
                           const import::ImportedScene* mesh = nullptr,
                           const std::function<void(const PreviewSession&)>& afterStep = {},
                           const std::optional<Transform>& placement = std::nullopt);

} // namespace marionette::editor
