// Internal: contacts between the colliders of two ragdolls, for World's island solver.
#pragma once

#include "RagdollState.h"

namespace marionette::runtime {

/// Ragdoll-ragdoll candidates are kept when their shapes are this close to touching (metres), beyond how far
/// they may travel toward each other this step.
constexpr float kContactMargin = 0.03f;

/// Whether two sphere/capsule colliders are within kContactMargin of touching, plus how far each one's
/// particles may travel this step (RagdollState::reach: their velocity and gravity over the step). A body
/// falling fast onto another so has its contacts from the first substep it could reach it in, instead of
/// being found only once inside it (limbs 5 cm deep in a 2 m drop onto a lying body, and up to 46 cm in the
/// piles, pushed out again at full depth).
bool nearEnough(Ragdoll& ra, const ColliderRef& ca, Ragdoll& rb, const ColliderRef& cb);

/// Where along each sphere/capsule axis two colliders are closest (0 for a sphere), found by the first
/// iteration of a step and kept for the others: within one step the shapes move too little for the closest
/// points to slide far, and the segment-segment solve is the contact's main cost.
struct SegmentParams {
    float s = 0.f, t = 0.f;
    bool known = false;
};

/// Contact between two colliders: the contact points as barycentric sides of each ragdoll, the normal n
/// (from B toward A) and the penetration depth. False when they do not touch. With `params`, sphere and
/// capsule pairs use params' closest points when known, and store them when not.
bool colliderContact(Ragdoll& ra, const ColliderRef& ca, Ragdoll& rb, const ColliderRef& cb, ContactSide& sa,
                     ContactSide& sb, Vec3& n, float& depth, SegmentParams* params = nullptr);

/// Friction between two ragdolls' contact points, with each projection: their relative tangential motion
/// this step shrinks by μ·depth (μ the mean of the two rigs'), or stops within μ × the step's depth or
/// below the static threshold. Never reverses.
void contactFriction(Ragdoll& ra, const ContactSide& sa, Ragdoll& rb, const ContactSide& sb, Vec3 n, float depth,
                     float stepDepth);

} // namespace marionette::runtime
