// Marionette — rig transfer: a rig built (and tuned) on one character applied to another whose skeleton
// has other lengths or proportions (docs/autorig.md, "Rig transfer").
//
// Each particle is placed bone-relatively: its anchor bone (the bone it was made from, else the bone of the
// nearest segment among the bones its triangles and sticks drive, else the nearest bone segment), its
// parameter t along that bone (head → child head; for a leaf along the direction from its parent's joint,
// over the extent of its skinned vertices) and its radial offset from the bone line in the bone's frame
// divided by the skin radius around the bone at t. On the target the point is rebuilt from the mapped
// bone and the target's skin radius there. Every element keeps its id; lengths, radii and masses follow the
// new body. Pure function of plain data; no Qt.
#pragma once

#include "marionette/editor/autorig/AutoRig.h"
#include "marionette/rig/RigDescription.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace marionette::editor {

struct RigTransferOptions {
    /// Source bone name → target bone name pairs that take precedence over the automatic pairing. Every
    /// name must exist on its side and each bone may appear once per side, or the transfer is refused.
    std::vector<std::pair<std::string, std::string>> boneMap;
    /// Total of the particle masses on the target, kg, finite in (0, 1e6]; unset = the source rig's total.
    std::optional<float> totalMass;
};

struct RigTransferResult {
    bool ok = false;
    /// One line when !ok, e.g. "target: bone 'Hips': bindWorld is not finite", "map: the target has no bone
    /// 'Pelvis'", "no bone of the target matches a bone of the rig (by name, map or humanoid scheme)".
    std::string error;
    rig::RigDescription rig; ///< when ok: passes findings() without errors; ids as in the source, new bones 0
    /// How each source bone found its target: (source name, target name, "map" | "name" | "humanoid" |
    /// "scheme"), in source bone order.
    struct BonePair {
        std::string source, target, how;
    };
    std::vector<BonePair> pairs;
    std::vector<std::string> unmappedSource; ///< source bones without a counterpart
    std::vector<std::string> unmappedTarget; ///< target bones nothing maps to (they follow their parent)
    /// Particles placed by a fallback, one line each: "elbow_axis_l: anchored to the bone its triangle
    /// drives (LeftArm)", "tail_tip: anchored to the nearest bone segment (Spine)", "x: no skinned vertices
    /// near LeftHand: offsets scaled by the bone length".
    std::vector<std::string> fallbacks;
    /// Elements left out, one line each naming them and why: "bindings[3] 'Tail': bone 'Tail' has no
    /// counterpart on the target".
    std::vector<std::string> dropped;
    /// What else an artist should know, one line each: skin ratios held near the bone's length ratio
    /// ("hip_l: the skin around B_Hip_Left is 3.61 times the rig's, its bone 1.05 times as long: offset and
    /// radius scaled by 2.10"), capsules shrunk because they touch at bind (the auto-rig's rule).
    std::vector<std::string> notes;
    /// Largest distance a particle moved from its source position, metres (the identity transfer gives 0).
    float largestMove = 0.f;
};

/// Transfers `source` (a rig whose bones are the source character's skeleton, matched to `sourceMesh`'s
/// bones by name) onto the character of `target`. `sourceMesh` and `target` are what
/// autoRigInputFromScene() makes of each character's imported scene (skeleton and, per bone, the vertices
/// it skins most; their totalMass, requested and name are ignored). Never throws: bad input (a non-finite
/// bind matrix or vertex on either side, a map naming a missing bone, no bone in common, a bad total
/// mass, a result that fails validation) gives `error` and no rig.
RigTransferResult transferRig(const rig::RigDescription& source, const AutoRigInput& sourceMesh,
                              const AutoRigInput& target, const RigTransferOptions& options = {});

} // namespace marionette::editor
