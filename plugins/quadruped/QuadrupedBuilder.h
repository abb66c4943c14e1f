// The quadruped rig on a mapped skeleton (docs/plugins/README.md, "quadruped"):
//  - pelvis triangle (hips and a mid-spine particle) and chest triangle (shoulders and the same mid-spine
//    particle) joined by a swing/twist spine joint; the neck base braced to the chest;
//  - head triangle (neck base, head, nose) on a swing/twist neck joint;
//  - each leg: an upper and a lower triangle sharing a knee axis particle (the humanoid's knees), a
//    swing/twist hip or shoulder joint, a hinge at the knee (elbow/stifle) from straight to 150° of flexion
//    in the plane of the bind pose's bend or, without one, the anatomical plane; a paw stick with a
//    ±40° law-of-cosines bend range at the ankle;
//  - the tail: a chain of capsule sticks braced to the pelvis, ±35° bend ranges at each joint;
//  - radii fitted to each part's skinned vertices (proportions of the bone lengths without vertices),
//    masses by typical segment fractions of a dog scaled to the requested total, self-collision ranges
//    between the paws and knees, bone bindings for every mapped bone.
#pragma once

#include "QuadrupedMapping.h"

#include "marionette/plugin/RigTemplate.h"

#include <string>
#include <vector>

namespace marionette::plugins {

/// Fills `out.rig` (whose bones are the input skeleton) from `map`. Returns false with out.error when a
/// part is degenerate (a leg with fewer than three joints, a triangle whose points are in one line).
bool buildQuadruped(const plugin::TemplateInput& in, const QuadrupedMapping& map, plugin::TemplateResult& out);

} // namespace marionette::plugins
