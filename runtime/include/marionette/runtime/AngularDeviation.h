// Marionette runtime — an angular constraint's relative orientation decomposed as the solver limits it, and
// the excess over its limits (Ragdoll::angularExcesses' measure), for tools that measure poses.
#pragma once

#include "marionette/runtime/Rig.h"

namespace marionette::runtime {

/// The relative orientation of an angular constraint's two triangles, decomposed as the solver limits it:
/// from the rest relative orientation, in the constraint frame (X = swingAxis1, Y = twistAxis,
/// Z = swingAxis1 × twistAxis, all in B's frame).
struct AngularDeviation {
    float angle;  ///< radians, [0, π]: the whole rotation (what a cone limits)
    float twist;  ///< radians, (−π, π]: about the twist axis (what twistMin/twistMax limit)
    float swing1; ///< radians, [−π, π]: the swing's component about swingAxis1 (the ellipse's swing1 axis)
    float swing2; ///< radians, [−π, π]: the swing's component about swingAxis1 × twistAxis (swing2 axis)
};

/// Deviation of constraint c for triangle frames qA, qB (unit quaternions of Rig::triangleFrame's matrices).
AngularDeviation angularDeviation(const AngularData& c, Quat qA, Quat qB);

/// Radians by which `d` lies beyond c's limits, 0 inside: Ragdoll::angularExcesses' measure (a cone by its
/// angle, swing/twist by the distance of (twist, swing1, swing2) from its clamp into the twist range and the
/// swing ellipse, a hinge by its twist only).
float angularExcess(const AngularData& c, const AngularDeviation& d);

} // namespace marionette::runtime
