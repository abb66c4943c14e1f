// Marionette — getting up: from a ragdoll at rest, the get-up clip whose first pose lies as the body lies
// (face up or face down, by the root bone's orientation), turned and moved to where the body lies, and the
// bone palette blended from the body's pose into the clip without a pop (runtime/PoseBlend.h does the math,
// which a game uses the same way).
#pragma once

#include "marionette/Math.h"
#include "marionette/import/ImportedScene.h"
#include "marionette/rig/RigDescription.h"

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace marionette::runtime {
class Rig;
}

namespace marionette::editor {

struct GetUpChoice {
    std::size_t clip = 0;   ///< index in scene.animations
    Transform alignment;    ///< applied to every bone of the clip: the body's heading and place
    float tilt = 0.f;       ///< radians between how the body lies and how the clip's first pose lies
    std::vector<std::int32_t> bonesInScene; ///< the rig's bones in the scene's skeleton (rigBonesInScene)
    std::vector<Mat4> start; ///< the clip's first frame, aligned: where the blend's offsets are taken from
};

/// Among `clips` (indices into scene.animations), the one whose first frame's root bone lies most like the
/// resting body's (`resting`: the ragdoll's bone palette, Ragdoll::boneMatrices()), aligned to it. Empty when
/// no clip is given, none is in range, or the rig has no root bone in the clips' skeleton.
std::optional<GetUpChoice> chooseGetUp(const rig::RigDescription& rig, const import::ImportedScene& scene,
                                       std::span<const std::size_t> clips, std::span<const Mat4> resting);

/// The palette `t` seconds into the chosen get-up: the aligned clip at t, with the resting pose's offset from
/// the clip's first frame fading out over the first `blendSeconds` (runtime::blendPalettes). Empty on a
/// palette of the wrong size.
std::vector<Mat4> getUpPalette(const runtime::Rig& rig, const import::ImportedScene& scene, const GetUpChoice& choice,
                               std::span<const Mat4> resting, float t, float blendSeconds);

} // namespace marionette::editor
