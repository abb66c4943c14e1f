// Marionette — how far a level of detail (autorig/Lod.h) strays from the full rig and what a step of it
// costs: the figures `marionette lod` stores in the project and `marionette info` prints.
#pragma once

#include "marionette/project/Project.h"
#include "marionette/rig/RigDescription.h"

#include <QString>

#include <cstdint>

namespace marionette::editor {

struct LodMeasureOptions {
    long benchRagdolls = 160; ///< the cost is timed as `marionette bench` times it (Bench.h): piles, one thread
    long benchFrames = 500;
};

/// The figures of one level, as stored (project::LodMeasurement), or an error.
struct LodMeasureResult {
    QString error; ///< empty on success, else one line (a rig that does not build, a scenario that cannot run)
    project::LodMeasurement measurement;
    bool ok() const { return error.isEmpty(); }
};

/// Runs each of the project's scenarios with the full rig (project.rig) and with `level` side by side and
/// compares every bone's world position (Ragdoll::boneMatrices) frame by frame: the mean and the largest
/// distance over bones and frames, in cm. Scenarios that start from an animation clip or play one through
/// the drives need the source mesh and are left out; a project without other scenarios is compared over plain 2 m drops onto the floor at
/// four headings (0°, 90°, 180°, 270°), 5 s each. A hit or drag on a particle or stick the level lacks acts
/// on the level's particle nearest to where it acted on the full rig. Then times the level with benchRig()
/// (µs per ragdoll-step). `level` must validate.
LodMeasureResult measureLod(const project::Project& project, const rig::RigDescription& level,
                            const LodMeasureOptions& options = {});

/// How a rig behaves after a drop onto the floor (RunFigures, sleep off).
struct DropFigures {
    QString error;             ///< the rig does not build
    bool finite = false;       ///< no position ever NaN or infinite
    float settledAt = -1.f;    ///< seconds: at rest (every particle under kSettleSpeed) from then on, or -1
    float maxStickError = 0.f; ///< largest stick error over the last second, fraction of the rest length
    float maxLimitDegrees = 0.f; ///< largest angular-limit excess over the last second
    float worstStickError = 0.f;   ///< the same over the whole run (the impact included)
    float worstLimitDegrees = 0.f; ///< the same over the whole run
};

/// Drops `rig` with its lowest point `height` above the floor and runs `seconds`.
DropFigures dropFigures(const rig::RigDescription& rig, float height = 2.f, float seconds = 10.f);

} // namespace marionette::editor
