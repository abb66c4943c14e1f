// Marionette — timing World::step() on many ragdolls of one rig: what `marionette bench` measures, and the
// cost per ragdoll-step a level of detail reports (LodMeasure.h), from one definition.
#pragma once

#include <QString>

#include <functional>
#include <memory>

namespace marionette::runtime { class Rig; }

namespace marionette::editor {

struct BenchOptions {
    long ragdolls = 160; ///< ragdolls spawned, >= 1
    long frames = 500;   ///< steps timed, >= 1
    long threads = 1;    ///< threads stepping the world, [1, 64]
    bool sleep = true;   ///< ragdolls may fall asleep
    /// true: piles of 10 on a grid of cells max(3 m, 2.5 × the rig's bounding radius) apart, each body lying
    /// down, stacked one body's depth (at least 0.5 m) apart from 1 m up, random yaw (seed 7: the runtime's
    /// benchmark scene); false: one standing body per grid cell, its lowest point 1 m up.
    bool piles = true;
    /// Called after every timed step with the steps done so far (for a progress line); may be empty.
    std::function<void(long done)> progress;
};

struct BenchResult {
    QString error;              ///< empty on success, else "cannot spawn ragdoll N: why"
    double usPerStepMedian = 0; ///< median wall time of one step, microseconds
    double usPerRagdollStep = 0; ///< that divided by the ragdoll count
    /// The direct projection's work over the timed steps, per ragdoll-step (runtime::WorldStats; 0 unless the
    /// rig's solver is direct): Newton steps, and factorisations of the rigid sticks' system.
    double newtonStepsPerRagdollStep = 0;
    double factorizationsPerRagdollStep = 0;
    bool ok() const { return error.isEmpty(); }
};

/// Spawns `options.ragdolls` ragdolls of `rig` on a floor (y = 0) and times `options.frames` steps.
BenchResult benchRig(const std::shared_ptr<const runtime::Rig>& rig, const BenchOptions& options);

} // namespace marionette::editor
