// Marionette — fitting angular limits to animation (docs/editor.md, "Fit Limits from Animation"): every frame of
// range-of-motion takes or mocap clips poses the rig's particles (AnimationPose.h), each angular constraint's
// relative orientation is decomposed as the runtime limits it (runtime::angularDeviation), and its cone or
// swing/twist limits are set to cover what was observed plus a margin.
#pragma once

#include "marionette/Math.h"
#include "marionette/import/ImportedScene.h"
#include "marionette/rig/RigDescription.h"

#include <cstddef>
#include <string>
#include <vector>

namespace marionette::editor {

/// One clip to fit from: clip `clip` of `scene` (not owned; it must outlive the call). The scene's skeleton is
/// matched to the rig's bones by name (particleBones), so a clip file should share the character's bind pose.
struct LimitFitClip {
    const import::ImportedScene* scene = nullptr;
    std::size_t clip = 0;
    std::string source; ///< the file it came from, first in messages ("rom.fbx")
};

struct LimitFitOptions {
    float margin = radians(5.f); ///< radians in [0, π/2], added around the observed range
    float sampleRate = 60.f;     ///< frames per second in (0, 1000], sampled besides every key time
};

/// Frames whose excess over a limit is at most this many radians are inside it: the solver's own tolerance
/// (0.05°), below which it leaves a joint alone.
inline constexpr float kLimitFitTolerance = 8.7e-4f;

struct JointFit {
    enum class Status {
        Fitted,     ///< limits set from the observed range
        NotCovered, ///< no clip moves a bone between its two triangles, or none turns it more than
                    ///< kLimitFitTolerance from rest: unchanged
        Skipped,    ///< a clip moves it, but its frames were unusable (degenerate triangles): unchanged
    };
    std::size_t index = 0; ///< in RigDescription::angular
    std::string name;
    rig::ElementId id = 0;
    Status status = Status::NotCovered;
    bool hinge = false;    ///< swing/twist between triangles sharing the twist axis' edge: twist fitted only
    std::string note;      ///< why it was not (fully) fitted, empty otherwise
    // Observed over the frames that measured it (radians; 0 when none).
    float maxAngle = 0.f;                  ///< largest whole rotation from rest (the cone's measure)
    float twistMin = 0.f, twistMax = 0.f;  ///< twist range
    float swing1Max = 0.f, swing2Max = 0.f; ///< largest |swing| about swingAxis1 and about swingAxis1 × twistAxis
    std::size_t frames = 0;        ///< frames that measured it
    std::size_t framesOutside = 0; ///< of those, beyond the previous limits by more than kLimitFitTolerance
    rig::AngularConstraint previous, fitted; ///< fitted == previous unless status is Fitted
};

struct LimitFitResult {
    /// The rig's angular constraints in order, same ids, with only the limit fields of fitted joints changed.
    std::vector<rig::AngularConstraint> constraints;
    std::vector<JointFit> joints; ///< one per angular constraint, in order
    std::size_t framesSampled = 0; ///< over all clips
    /// The fitted joints' new values, the ones that differ from the rig's (for ReplaceElementsCommand).
    std::vector<rig::AngularConstraint> changed() const;
};

/// "cone", "swing/twist" or "hinge": what the joint's limit is, as reports name it.
const char* limitKindName(const JointFit& joint);
/// "fitted", "not covered" or "skipped".
const char* fitStatusName(JointFit::Status status);
/// The limit in degrees to one decimal: "cone 60.0", "twist -30.0..30.0, swing 45.0 x 45.0" (swing1 x swing2),
/// or for a hinge "twist -5.0..140.0".
std::string limitText(const rig::AngularConstraint& c, bool hinge);
/// What the joint's frames showed, in the form of its limit (degrees): "54.2" for a cone, "twist -12.3..8.1,
/// swing 20.1 x 15.2" (largest |swing| per axis), "twist 0.0..49.0" for a hinge; empty when no frame measured it.
std::string observedText(const JointFit& joint);

/// Frame times of `clip`: every key time of every channel within [0, duration] plus k / rate, sorted, each once.
std::vector<float> limitFitTimes(const import::AnimationClip& clip, float rate);

/// Fits the angular limits of `rig` to `clips` (at least one). Cone: the largest observed angle + margin
/// (at most π). Swing/twist: the twist range [min(observed, 0) − margin, max(observed, 0) + margin] within
/// ±π; swing1/swing2 the observed per-axis maxima scaled up together until every observed swing point is in
/// the ellipse, each + margin (at most π). A hinge gets its twist range only. False with `error` one line
/// ("rom.fbx: shares no bone name with the rig") when the rig does not validate or has no bones, a clip
/// index is out of range, a clip's skeleton shares no bone name with the rig, a key is not finite, or an
/// option is out of range; `out` is then untouched.
bool fitLimits(const rig::RigDescription& rig, const std::vector<LimitFitClip>& clips, const LimitFitOptions& options,
               LimitFitResult& out, std::string& error);

} // namespace marionette::editor
