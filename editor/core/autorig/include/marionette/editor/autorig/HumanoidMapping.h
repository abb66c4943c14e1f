// Marionette — which bones of a skeleton are which parts of a human body (the auto-rig's humanoid template).
//
// mapHumanoid() reads bone names first (Mixamo, Unreal mannequin, 3ds Max Biped, Blender Rigify / metarig and
// plain names; docs/autorig.md lists them) and the hierarchy second: limb chains must run upper arm → forearm
// → hand and thigh → calf → foot, the pelvis is where the legs branch (or the named hips/pelvis above that),
// the chest is where the arms branch, the head ends the chain above the chest. Then it checks the shape:
// left and right joints apart, legs pointing away from the head. Pure function of the skeleton; no Qt.
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
    /// "the legs do not point away from the head".
    std::string problem;

    HumanoidMapping();
    std::int32_t operator[](HumanoidPart part) const { return bones[std::size_t(part)]; }
    bool complete() const { return problem.empty(); }
    /// Required parts without a bone, in enum order.
    std::vector<HumanoidPart> missing() const;
};

/// Maps `skeleton` (parents before children, bindWorld in metres) to the humanoid parts. Never fails: an
/// incomplete mapping carries what was found and `problem` says what is missing. Bones whose bindWorld is
/// not finite are treated as absent.
HumanoidMapping mapHumanoid(const std::vector<rig::Bone>& skeleton);

} // namespace marionette::editor
