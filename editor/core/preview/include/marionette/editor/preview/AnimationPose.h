// Marionette — sampling an imported animation clip: bone world transforms at a time, and the positions of
// rig particles carried along by them (PreviewSession's animation hand-off, Jakobsen's motion control).
#pragma once

#include "marionette/Math.h"
#include "marionette/import/ImportedScene.h"
#include "marionette/rig/RigDescription.h"

#include <cstddef>
#include <vector>

namespace marionette::editor {

/// World (model-space) matrix of every bone of scene.skeleton for `clip` at time t (clamped to the keys):
/// positions and scales lerped, rotations nlerped along the short arc between the surrounding keys;
/// local = T·R·S; bones without a channel use boneInfo's restLocal (bindLocal when boneInfo is missing).
/// Empty when `clip` is out of range.
std::vector<Mat4> sampleBoneWorld(const import::ImportedScene& scene, std::size_t clip, float t);

/// Skinning palette of `clip` at time t: boneWorld · inverseBind per scene.skeleton bone, raised by `height`
/// (the preview's scene top). Empty when `clip` is out of range.
std::vector<Mat4> animationPalette(const import::ImportedScene& scene, std::size_t clip, float t, float height);

/// The bone of scene.skeleton each rig particle follows: the bone named like the rig bone it was created
/// from (Particle::bone), else the bone a binding makes its stick or triangle drive (the tip of a limb turns
/// with the limb), else the bone whose bind head (bindWorld translation) is nearest its bind position.
/// kNone for every particle when the skeleton is empty.
std::vector<std::int32_t> particleBones(const rig::RigDescription& rig, const import::ImportedScene& scene);

/// Particle positions carried by the bones: boneWorld[b] · inverseBind[b] · bindPosition.
std::vector<Vec3> posedParticles(const rig::RigDescription& rig, const import::ImportedScene& scene,
                                 const std::vector<std::int32_t>& bones, const std::vector<Mat4>& boneWorld);

} // namespace marionette::editor
