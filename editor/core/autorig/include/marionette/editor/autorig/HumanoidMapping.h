// Marionette — which bones of a skeleton are which parts of a human body (the auto-rig's humanoid template).
//
// mapHumanoid() reads bone names first (Mixamo, Unreal mannequin, 3ds Max Biped, Blender Rigify / metarig and
// plain names; docs/autorig.md lists them) and the hierarchy second: limb chains must run upper arm → forearm
// → hand and thigh → calf → foot, the pelvis is where the legs branch (or the named hips/pelvis above that),
// the chest is where the arms branch, the head ends the chain above the chest. Then it checks the shape:
// left and right joints apart, legs pointing away from the head. When the names leave parts unfound, the
// skeleton's shape is read instead (two mirror-image legs branching at the pelvis, two arms higher up at the
// chest, a head chain above; left and right from the feet's facing) and completes the mapping where it agrees
// with every part the names found (docs/autorig.md, "Shape-based fallback"). Pure function of the skeleton;
// no Qt.
#pragma once

#include "marionette/rig/RigDescription.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace marionette::editor {

/// Body parts of the humanoid template. Spine and Neck are optional (a skeleton may attach the arms to its
/// only spine bone, or the head straight to the chest); every other part is required.
enum class HumanoidPart : std::uint8_t {
    Pelvis, Spine, Chest, Neck, Head,
    UpperArmL, ForearmL, HandL, UpperArmR, ForearmR, HandR,
    ThighL, CalfL, FootL, ThighR, CalfR, FootR,
};
constexpr std::size_t kHumanoidPartCount = 17;

/// "pelvis", "spine", "chest", "neck", "head", "upperarm_l", "forearm_l", "hand_l", ..., "thigh_l",
/// "calf_l", "foot_l", ... (the names used in messages and notes).
const char* toString(HumanoidPart part);
/// False for Spine and Neck.
bool isRequired(HumanoidPart part);

/// The result of mapHumanoid(). Bone indices refer to the skeleton that was mapped; rig::kNone = not found.
struct HumanoidMapping {
    std::array<std::int32_t, kHumanoidPartCount> bones{}; ///< filled with kNone by the constructor
    std::vector<std::int32_t> spine;      ///< bones strictly between pelvis and chest, from the pelvis up
    std::vector<std::int32_t> neck;       ///< bones strictly between chest and head, from the chest up
    std::vector<std::int32_t> clavicleL;  ///< bones strictly between the chest and the left upper arm
    std::vector<std::int32_t> clavicleR;  ///< (not on the chest–head chain)
    /// Empty when the skeleton has the shape of a human (all required parts found and the geometry checks
    /// passed); otherwise one line saying why not, e.g. "missing upperarm_l, forearm_l" or
    /// "the legs do not point away from the head". When the mapping is incomplete this is what the names
    /// found; `shapeProblem` says why the shape did not complete it.
    std::string problem;
    /// True when the shape-based fallback supplied parts (all of them when the names matched none); `byShape`
    /// lists them in enum order. The other parts, if any, came from the names.
    bool fromTopology = false;
    std::vector<HumanoidPart> byShape;
    /// When the names left parts unfound and the skeleton branches into limbs (some bone has two chains of
    /// three or more bones below it), why its shape did not complete the mapping, e.g. "the legs do not
    /// point away from the head" or "cannot tell left from right: ..."; empty otherwise.
    std::string shapeProblem;

    HumanoidMapping();
    std::int32_t operator[](HumanoidPart part) const { return bones[std::size_t(part)]; }
    bool complete() const { return problem.empty(); }
    /// Required parts without a bone, in enum order.
    std::vector<HumanoidPart> missing() const;
};

/// Maps `skeleton` (parents before children, bindWorld in metres) to the humanoid parts. Never fails: an
/// incomplete mapping carries what was found and `problem` says what is missing. Bones whose bindWorld is
/// not finite are treated as absent. Names first: a skeleton whose names map every part keeps that mapping
/// (or its problem); otherwise the shape-based fallback is tried, and taken when it finds a human whose parts
/// agree with every part the names mapped (`fromTopology`), or its reason is kept in `shapeProblem`.
HumanoidMapping mapHumanoid(const std::vector<rig::Bone>& skeleton);

} // namespace marionette::editor
