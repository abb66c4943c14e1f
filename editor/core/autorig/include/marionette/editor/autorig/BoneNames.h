// Bone-name parsing for the humanoid mapping: namespaces and prefixes stripped, split into words, side
// and numbers taken out, the rest joined into a key ("mixamorig:LeftForeArm" -> left, "forearm"); and the
// left/right pairs of names that symmetric editing uses.
#pragma once

#include "marionette/rig/RigDescription.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace marionette::editor::autorig {

enum class Side : std::uint8_t { None, Left, Right };

/// Rigify-style prefix of a bone name; deform bones win over plain names, plain over ORG-/MCH-.
enum class NamePrefix : std::uint8_t { Def = 0, None = 1, Org = 2, Mch = 3 };

/// What a bone name says about the body part.
enum class NameClass : std::uint8_t {
    None,
    Pelvis,   ///< hips, hip, pelvis (no side)
    Trunk,    ///< spine, chest, upperchest, torso, abdomen, back, waist (no side)
    Neck,     ///< neck (no side)
    Head,     ///< head (no side)
    Clavicle, ///< clavicle, shoulder, collar, collarbone (sided)
    UpperArm, ///< upperarm, arm, uparm, humerus
    Forearm,  ///< forearm, lowerarm, lowarm; alias elbow
    Hand,     ///< hand; alias wrist
    Thigh,    ///< thigh, upleg, upperleg, femur; alias hip (sided)
    Calf,     ///< calf, shin, lowerleg, crus; alias knee
    Leg,      ///< leg: the calf when the side has a thigh (Mixamo's UpLeg/Leg), else the thigh
    Foot,     ///< foot; alias ankle
};

struct ParsedName {
    std::string key;          ///< lower-case words without side, numbers and noise, joined: "upperarm"
    Side side = Side::None;
    NamePrefix prefix = NamePrefix::None;
    int number = -1;          ///< last number in the name ("spine.003" -> 3), -1 when none
    NameClass cls = NameClass::None;
    bool alias = false;       ///< joint-style name (elbow, wrist, knee, ankle, sided hip): lower priority
};

/// Parses one bone name. Case-insensitive; strips everything up to the last ':' or '|' ("mixamorig:",
/// "Armature|"), DEF-/ORG-/MCH- prefixes and noise words (bip, mixamorig, armature, cc, base, jnt, joint,
/// bone, bn, b, def, org); side as a word (l, r, left, right, lf, rt) or glued ("LeftArm", "leftarm",
/// "ArmLeft").
ParsedName parseBoneName(std::string_view name);

/// A name without its side: the remaining words, lower-case, space-separated ("Bip01 L Thigh" -> "bip 01
/// thigh", Left; "mixamorig:LeftForeArm" -> "mixamorig fore arm", Left; "spine" -> "spine", None).
struct SidedName {
    std::string rest;
    Side side = Side::None;
};
SidedName splitSide(std::string_view name);

/// The name of the other side, spelled as the name spells its side ("elbow_l" -> "elbow_r", "Thigh.L" ->
/// "Thigh.R", "mixamorig:LeftArm" -> "mixamorig:RightArm", "LEFT_hand" -> "RIGHT_hand", "armleft" ->
/// "armright"); the name unchanged when it names no side.
std::string mirroredName(std::string_view name);

/// For each name, the index of the name on the other side with the same words otherwise (every naming scheme
/// parseBoneName knows: "_l"/"_r", ".L"/".R", "Left"/"Right", "L "/"R ", glued), or -1: no side, no
/// partner, or more than one candidate on either side.
std::vector<std::int32_t> mirrorPartnersByName(const std::vector<std::string>& names);

/// For each particle of `rig`, its partner by name (mirrorPartnersByName on the particles' names), else
/// through the bone it was made from (the one particle made from that bone's partner), or -1.
std::vector<std::int32_t> mirrorParticlesByName(const rig::RigDescription& rig);

} // namespace marionette::editor::autorig
