// Marionette runtime — from ragdoll back to animation: choosing the get-up clip whose first pose lies the way
// the body lies, placing that clip where the body is, and blending bone palettes without a pop.
//
// Palettes are bone world matrices in Rig::bones() order (what Ragdoll::boneMatrices() returns and what a
// game's animation gives Ragdoll::setPoseTarget()). Nothing here allocates.
#pragma once

#include "marionette/Math.h"
#include "marionette/runtime/Rig.h"

#include <cstdint>
#include <span>

namespace marionette::runtime {

/// The angle (radians) between how two poses of the same root bone lie, whatever their heading: the angle
/// between world `up` seen from the root's orientation in `a` and in `b`. 0 when one is the other turned about
/// `up`; π when one lies face up and the other face down.
float tiltDifference(const Mat4& a, const Mat4& b, Vec3 up = {0.f, 1.f, 0.f});

/// Index of the candidate whose root pose (candidates[k], e.g. each get-up clip's first frame) lies most like
/// `root` (the resting ragdoll's root bone), by tiltDifference(); -1 when there are none.
std::int32_t closestTilt(const Mat4& root, std::span<const Mat4> candidates, Vec3 up = {0.f, 1.f, 0.f});

/// The turn about `up` and the shift across it that take `clipRoot` onto `root`'s heading and place: the
/// transform to apply to every bone of the clip so it starts where the body lies (its height stays the
/// clip's, whose first pose lies on the ground).
Transform headingAlignment(const Mat4& clipRoot, const Mat4& root, Vec3 up = {0.f, 1.f, 0.f});

/// Blends a pose into a moving clip without a pop: each bone's world offset from the clip's first pose to `from`
/// (a rotation along the short arc and a translation, both in world space) is taken once and fades linearly
/// to nothing as `weight` goes from 0 to 1, on top of the clip as it plays (`to` now). With weight 0 the result
/// is `from` whenever `to` is `toStart`; with weight 1 it is `to`. Because the offset is fixed and held in world
/// space, it neither switches arcs nor rides the clip's motion: over a step of the weight, every bone moves by
/// exactly what the clip moves it plus its offset times that step (a 1 m offset faded over 60 frames adds at
/// most 1.7 cm a frame). Scale comes from `to`. False (out untouched) on sizes other than the bone count or a
/// weight outside [0, 1].
bool blendPalettes(const Rig& rig, std::span<const Mat4> from, std::span<const Mat4> toStart, std::span<const Mat4> to,
                   float weight, std::span<Mat4> out);

} // namespace marionette::runtime
