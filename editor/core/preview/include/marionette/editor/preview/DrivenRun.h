// Marionette — a powered ragdoll playing a clip: the rig spawned in the clip's first pose on a test scene,
// driven toward the clip every step with given gains, with hits and a kill along the way, and the tracking
// error measured against the clip (issue "Powered ragdolls"; `marionette simulate --animation`, the tests).
#pragma once

#include "marionette/Math.h"
#include "marionette/import/ImportedScene.h"
#include "marionette/project/Project.h"
#include "marionette/rig/RigDescription.h"

#include <cstdint>
#include <string>
#include <vector>

namespace marionette::editor {

/// The rig's bones matched to a scene's skeleton by name: index into scene.skeleton per rig bone, or -1.
std::vector<std::int32_t> rigBonesInScene(const rig::RigDescription& rig, const import::ImportedScene& scene);

/// World matrices of the rig's bones for `clip` at time t (a bone the scene lacks keeps its bind pose relative
/// to its parent). Empty when `clip` is out of range.
std::vector<Mat4> rigPalette(const rig::RigDescription& rig, const import::ImportedScene& scene,
                             const std::vector<std::int32_t>& bonesInScene, std::size_t clip, float t);

/// An impulse during a driven run: at `seconds`, `impulse` (N·s) on particle `particle`.
struct DrivenHit {
    float seconds = 0.f;
    std::uint32_t particle = 0;
    Vec3 impulse;
};

/// A change of drive gains during a driven run: from `seconds` on, blend to `gains` over `blend` seconds (e.g.
/// to a "stagger" profile at a hit, back to "balanced" after it).
struct DrivenSwitch {
    float seconds = 0.f;
    std::vector<rig::DriveGains> gains;
    float blend = 0.f;
};

struct DrivenRunOptions {
    std::size_t clip = 0;
    float seconds = -1.f;                 ///< length of the run; < 0: the clip's duration (longer runs loop
                                          ///< the clip with its root motion, ClipPlayback)
    std::vector<rig::DriveGains> gains;   ///< per drive part (runtime::Rig::driveParts()); empty: none
    std::vector<DrivenHit> hits;
    std::vector<DrivenSwitch> switches;   ///< gain changes, in any order
    float killAt = -1.f;                  ///< seconds: the drives blend to limp from then (< 0: never)
    float killBlend = 0.2f;               ///< seconds the kill's blend takes
    project::Scene scene = project::Scene::Floor;
    /// Error below which the body counts as recovered after the last hit (root-relative bone positions).
    float recoveredBelow = 0.03f;
};

/// What a driven run measured. Errors compare the ragdoll's bones (Ragdoll::boneMatrices) with the clip's:
/// positions relative to the root bone (metres), orientations in world space (radians).
struct DrivenRunResult {
    std::string error;                    ///< non-empty: the run did not happen (why)
    std::uint32_t frames = 0;
    std::vector<float> framePosition;     ///< per frame: the worst bone's root-relative position error
    std::vector<float> frameAngle;        ///< per frame: the worst bone's orientation error
    std::vector<float> bonePosition;      ///< per rig bone: its worst position error over the run
    std::vector<float> boneAngle;         ///< per rig bone: its worst orientation error over the run
    float worstPosition = 0.f, worstAngle = 0.f;
    std::int32_t worstPositionBone = -1, worstAngleBone = -1;
    /// Per rig particle, per frame: world position (for the tests' displacement measures), frames × particles.
    std::vector<Vec3> particles;
    std::vector<Vec3> targets;            ///< the same for the particles' targets
    float recoveredAfter = -1.f;          ///< seconds from the last hit until the error stayed below the bound
    bool fell = false;                    ///< the root bone's height dropped below half the clip's at some frame
    float lowestRootHeight = 0.f;         ///< root bone height minus the clip's, at its lowest (m)
    bool finite = true;
    /// Per drive part (runtime::Rig::driveParts()): its worst Ragdoll::partTrackingError over the run, the
    /// distance of its centre from its target (m) and the angle of its frame or direction from the target's.
    std::vector<float> partPosition, partAngle;
    /// The run's figures on its scene (RunFigures, as `marionette simulate` reports a drop): the largest stick
    /// error (relative to the rest length) and its compiled stick (Rig::stickName, -1: none), the largest
    /// angular-limit excess (radians) and its constraint (-1: none), the deepest penetration and the lowest
    /// particle centre (metres).
    float maxStickError = 0.f;
    std::int32_t worstStick = -1;
    float maxLimitExcess = 0.f;
    std::int32_t worstLimit = -1;
    float maxPenetration = 0.f, minHeight = 0.f;
};

/// Runs `rig` driven by `options.clip` of `scene` (its skeleton matched to the rig's bones by name), played by
/// ClipPlayback on the scene's top as the editor's driven preview plays it.
DrivenRunResult runDriven(const rig::RigDescription& rig, const import::ImportedScene& scene,
                          const DrivenRunOptions& options);

} // namespace marionette::editor
