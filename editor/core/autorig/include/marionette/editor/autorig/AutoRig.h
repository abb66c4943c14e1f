// Marionette — the auto-rig (DESIGN.md §7): from a skinned skeleton to an ordinary, editable rig.
//
// autoRig() takes plain data (a skeleton and, per bone, the bind positions of the vertices it skins most),
// so it does not depend on the importer. It picks a template:
//  - humanoid: when mapHumanoid() recognises the skeleton (HumanoidMapping.h), by its bone names or, failing
//    them, by its shape (the first note says which). The same layout as the
//    runtime's tuned makeHumanoid(): 20 particles in the order of runtime::HumanoidParticle, 11 triangles in
//    the order of runtime::HumanoidTriangle (pelvis, chest, head, upper arms, forearms, thighs, shins), elbows
//    and knees as hinges, 10 swing/twist joints with anatomical limits, self-collision ranges, radii fitted to
//    the skinned vertices, Dempster/Winter segment masses, bone bindings;
//  - generic: anything else (animals, props, tails): particles at significant joints (near ones merged),
//    triangles at branch points (and, with a helper particle, at a chain's first bone), stick-driven chain
//    segments with law-of-cosines bend ranges, cone limits between triangles, masses by bone volume.
// docs/autorig.md describes both, the naming schemes and the notes. The result passes
// RigDescription::validate() and Rig::build(); stable ids are left 0 (the project layer assigns them).
#pragma once

#include "marionette/Math.h"
#include "marionette/editor/autorig/HumanoidMapping.h"
#include "marionette/rig/RigDescription.h"

#include <cstdint>
#include <string>
#include <vector>

namespace marionette::editor {

enum class RigTemplate : std::uint8_t {
    Auto = 0,     ///< humanoid when the mapping is complete, else generic (notes say why)
    Humanoid = 1, ///< humanoid or fail naming the missing parts
    Generic = 2,  ///< always the generic template
};
const char* toString(RigTemplate t); ///< "auto", "humanoid", "generic"

struct AutoRigInput {
    /// Bones, parents before children, in model space: metres, +Y up (the importer's frame). Each bone's
    /// bindWorld is the pose its vertices were skinned in; the translation is the joint position; it may
    /// carry rotation and scale. bindLocal is recomputed from the parents' bindWorld. inverseBind is kept
    /// when bindWorld · inverseBind is the identity (within 1e-3), else recomputed (a note says so).
    /// Bone names are kept (an empty name becomes "bone<i>").
    std::vector<rig::Bone> skeleton;
    /// Empty, or one list per bone: model-space bind positions of the vertices that bone skins most.
    /// A bone with no vertices gets radii from proportions of its length.
    std::vector<std::vector<Vec3>> boneVertices;
    float totalMass = 75.f; ///< kg, finite and > 0; the particle masses add up to it
    RigTemplate requested = RigTemplate::Auto;
    std::string name;       ///< rig name; "autorig" when empty
};

struct AutoRigResult {
    bool ok = false;
    /// One line when !ok, e.g. "the auto-rig needs a skeleton (the mesh has no bones)",
    /// "bone 'LeftArm': bindWorld is not finite", "humanoid template: missing upperarm_l, forearm_l" (then
    /// "; by shape: ..." when the shape-based fallback was tried and refused).
    std::string error;
    rig::RigDescription rig;    ///< the rig when ok (validate() passes, Rig::build() succeeds)
    std::string templateUsed;   ///< "humanoid" or "generic" when ok
    /// The humanoid mapping that was tried (Auto, Humanoid), complete when the humanoid template was used.
    HumanoidMapping mapping;
    /// What an artist should know, one line each: why a template was (not) chosen ("humanoid template: every
    /// body part was found", "humanoid template: bones matched by the skeleton's shape, not their names",
    /// "generic template: not a humanoid (missing ...; by shape: ...)"), which bones follow their
    /// parent instead of being driven (fingers, toes, twist bones, extra bones), merged or skipped joints,
    /// radii taken from proportions (no skinned vertices) or shrunk so parts do not overlap at bind,
    /// recomputed inverse binds, hinge directions that came from the bind pose's bend.
    std::vector<std::string> notes;
};

/// Builds a rig for the skinned skeleton of `input`. Never throws; refuses bad input with `error` naming
/// the bone (non-finite or singular bind matrix, parent after child, non-finite vertex, wrong vertex list
/// count, bad mass).
AutoRigResult autoRig(const AutoRigInput& input);

/// The input checks and skeleton preparation autoRig() starts with, shared by everything that builds a rig
/// from an AutoRigInput (PluginHost::buildRig for rig template plugins). Checks the skeleton, vertex list
/// count, mass, bind matrices and vertices as autoRig() documents; sets `bones` to input.skeleton with
/// empty names replaced by "bone<i>", bindLocal recomputed from the parents' bindWorld, inverseBind
/// recomputed where it does not invert bindWorld, and ids 0; appends a note to `notes` for each renamed
/// bone and one listing the recomputed inverse binds. Returns "" or autoRig()'s one-line error, in which
/// case `bones` and `notes` may be partly filled.
std::string prepareAutoRigSkeleton(const AutoRigInput& input, std::vector<rig::Bone>& bones,
                                   std::vector<std::string>& notes);

} // namespace marionette::editor
