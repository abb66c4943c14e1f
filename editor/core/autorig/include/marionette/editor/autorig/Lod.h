// Marionette — levels of detail: a coarser rig generated from a full one (docs/autorig.md, "Levels of detail").
//
// generateLod() removes particles one chain at a time until the rig has the requested count, merging each
// removed particle into the kept one it hangs from (an elbow and wrist become the elbow: the forearm rides
// on the upper arm), and rebuilds everything that named it: sticks are relinked or dropped, a triangle that
// loses a corner is replaced by the kept triangle or stick that holds its remaining corners, joint limits
// across a removed body are widened by the merged joint's range, and every bone binding is carried to a
// driver of the level. The result is an ordinary rig::RigDescription (no format change): it validates,
// its masses add up to the full rig's, and it binds every bone the full rig binds.
#pragma once

#include "marionette/rig/RigDescription.h"

#include <cstdint>
#include <string>
#include <vector>

namespace marionette::editor {

/// The smallest particle count a level may ask for (one triangle).
constexpr int kMinLodParticles = 3;

struct LodResult {
    bool ok = false;
    std::string error;       ///< one line when !ok: what was refused and why
    rig::RigDescription rig; ///< the level: kept elements keep their ids; new limits have id 0
    /// For each particle of the level, the index of the full rig's particle it is.
    std::vector<std::int32_t> keptParticles;
    /// For each particle of the full rig, the index of the level's particle it was merged into (itself when
    /// kept).
    std::vector<std::int32_t> particleMap;
};

/// A level of `full` with exactly `targetParticles` particles.
///
/// What goes first: each round, the candidates are the particles that end a chain or sit inside one (at
/// most one particle hangs from them in the tree of rigid sticks grown from the heaviest particle), never
/// the root nor a kinematic one. A candidate's cost is the mass it carries (its own and what was merged into
/// it) times its distance to the particle it hangs from; the cheapest go first, mirror images (equal cost,
/// within 1 %) together while the count allows, so a symmetric rig stays symmetric; neighbours never go in
/// the same round, so a uniform chain keeps every other joint.
///
/// What follows from a merge (docs/autorig.md lists every rule): the removed particle's mass moves to the
/// particle that replaces it (the total is kept exactly); rigid sticks are relinked to it (rest length: the
/// bind distance), sticks whose ends meet and repeated sticks are dropped, and so are range, min-only and
/// max-only sticks (self-collision ranges) that named a removed particle; triangles that lose a corner or
/// become degenerate are dropped; an angular constraint on a dropped triangle moves to the kept triangle
/// holding the dropped one's corners, as a cone widened by the range of the joint merged away (at most
/// 180°), or, when a limb became a stick, becomes two dot-product angle limits at its joint against the
/// frame's other corners; shapes on a dropped triangle or a removed corner are dropped; pins follow their
/// particle. A binding keeps its driver when it survives; a dropped triangle's bone goes to the kept
/// triangle holding its corners, else to the stick between them, else to the driver of the nearest bound
/// bone up its chain; a moved binding's offset is recaptured at bind (hasOffset = false).
///
/// Refused (ok = false, error one line): a full rig that does not validate, one without bone bindings, a
/// target below kMinLodParticles or not below the full rig's count, or a rig whose chains cannot be reduced
/// to the target (say, sticks that form no tree).
LodResult generateLod(const rig::RigDescription& full, int targetParticles);

/// Indices of the bones `rig` binds (bindings' bones, sorted, no repeats).
std::vector<std::int32_t> boundBones(const rig::RigDescription& rig);

} // namespace marionette::editor
