// Bone-name parsing for the humanoid mapping: namespaces and prefixes stripped, split into words, side
// and numbers taken out, the rest joined into a key ("mixamorig:LeftForeArm" -> left, "forearm").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

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

} // namespace marionette::editor::autorig
