// Internal: contacts between the colliders of two ragdolls, for World's island solver.
#pragma once

#include "RagdollState.h"

namespace marionette::runtime {

/// Ragdoll-ragdoll candidates are kept when their shapes are this close to touching (metres).
constexpr float kContactMargin = 0.03f;

/// Whether two sphere/capsule colliders are within kContactMargin of touching.
bool nearEnough(Ragdoll& ra, const ColliderRef& ca, Ragdoll& rb, const ColliderRef& cb);

/// Contact between two colliders: the contact points as barycentric sides of each ragdoll, the normal n
/// (from B toward A) and the penetration depth. False when they do not touch.
bool colliderContact(Ragdoll& ra, const ColliderRef& ca, Ragdoll& rb, const ColliderRef& cb, ContactSide& sa,
                     ContactSide& sb, Vec3& n, float& depth);

/// Friction between two ragdolls' contact points, with each projection: their relative tangential motion
/// this step shrinks by μ·depth (μ the mean of the two rigs'), or stops within μ × the step's depth or
/// below the static threshold. Never reverses.
void contactFriction(Ragdoll& ra, const ContactSide& sa, Ragdoll& rb, const ContactSide& sb, Vec3 n, float depth,
                     float stepDepth);

} // namespace marionette::runtime
