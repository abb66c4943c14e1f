#include "marionette/editor/autorig/BoneNames.h"

#include <array>
#include <cctype>
#include <vector>

namespace marionette::editor::autorig {

namespace {

bool isUpper(char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }
bool isLower(char c) { return std::islower(static_cast<unsigned char>(c)) != 0; }
bool isDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool isAlpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

std::string lower(std::string_view s)
{
    std::string o(s);
    for (char& c : o)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return o;
}

bool startsWithNoCase(std::string_view s, std::string_view prefix)
{
    return s.size() >= prefix.size() && lower(s.substr(0, prefix.size())) == prefix;
}

/// Words of a name: split at non-alphanumerics, between letters and digits, and at camelCase boundaries
/// ("LeftUpLeg" -> Left Up Leg, "LUpperArm" -> L Upper Arm, "Spine1" -> Spine 1).
std::vector<std::string> words(std::string_view s)
{
    std::vector<std::string> out;
    std::string cur;
    auto flush = [&] {
        if (!cur.empty())
            out.push_back(lower(cur));
        cur.clear();
    };
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (!isAlpha(c) && !isDigit(c)) {
            flush();
            continue;
        }
        if (!cur.empty()) {
            const char p = cur.back();
            const bool digitBoundary = isDigit(p) != isDigit(c);
            const bool camel = isLower(p) && isUpper(c);
            const bool acronymEnd = isUpper(p) && isUpper(c) && i + 1 < s.size() && isLower(s[i + 1]);
            if (digitBoundary || camel || acronymEnd)
                flush();
        }
        cur.push_back(c);
    }
    flush();
    return out;
}

Side sideWord(const std::string& w)
{
    if (w == "l" || w == "left" || w == "lf" || w == "lft")
        return Side::Left;
    if (w == "r" || w == "right" || w == "rt" || w == "rgt")
        return Side::Right;
    return Side::None;
}

bool isNoise(const std::string& w)
{
    static const std::array<const char*, 12> kNoise = {"bip", "mixamorig", "armature", "cc", "base", "jnt",
                                                       "joint", "bone", "bn", "b", "def", "org"};
    for (const char* n : kNoise)
        if (w == n)
            return true;
    return false;
}

struct KeyClass {
    const char* key;
    NameClass cls;
    bool sided; ///< the class needs a side (limbs); sideless classes refuse a side and vice versa
    bool alias;
};

constexpr KeyClass kKeys[] = {
    {"hips", NameClass::Pelvis, false, false},     {"hip", NameClass::Pelvis, false, false},
    {"pelvis", NameClass::Pelvis, false, false},   {"spine", NameClass::Trunk, false, false},
    {"chest", NameClass::Trunk, false, false},     {"upperchest", NameClass::Trunk, false, false},
    {"torso", NameClass::Trunk, false, false},     {"abdomen", NameClass::Trunk, false, false},
    {"back", NameClass::Trunk, false, false},      {"waist", NameClass::Trunk, false, false},
    {"neck", NameClass::Neck, false, false},       {"head", NameClass::Head, false, false},
    {"clavicle", NameClass::Clavicle, true, false}, {"shoulder", NameClass::Clavicle, true, false},
    {"collar", NameClass::Clavicle, true, false},  {"collarbone", NameClass::Clavicle, true, false},
    {"upperarm", NameClass::UpperArm, true, false}, {"arm", NameClass::UpperArm, true, false},
    {"uparm", NameClass::UpperArm, true, false},   {"humerus", NameClass::UpperArm, true, false},
    {"forearm", NameClass::Forearm, true, false},  {"lowerarm", NameClass::Forearm, true, false},
    {"lowarm", NameClass::Forearm, true, false},   {"elbow", NameClass::Forearm, true, true},
    {"hand", NameClass::Hand, true, false},        {"wrist", NameClass::Hand, true, true},
    {"thigh", NameClass::Thigh, true, false},      {"upleg", NameClass::Thigh, true, false},
    {"upperleg", NameClass::Thigh, true, false},   {"femur", NameClass::Thigh, true, false},
    {"hip", NameClass::Thigh, true, true},         {"calf", NameClass::Calf, true, false},
    {"shin", NameClass::Calf, true, false},        {"lowerleg", NameClass::Calf, true, false},
    {"crus", NameClass::Calf, true, false},        {"knee", NameClass::Calf, true, true},
    {"leg", NameClass::Leg, true, false},          {"foot", NameClass::Foot, true, false},
    {"ankle", NameClass::Foot, true, true},
};

} // namespace

ParsedName parseBoneName(std::string_view name)
{
    ParsedName out;
    if (const std::size_t cut = name.find_last_of(":|"); cut != std::string_view::npos && cut + 1 < name.size())
        name.remove_prefix(cut + 1);
    static const std::array<std::pair<const char*, NamePrefix>, 3> kPrefixes = {
        {{"def", NamePrefix::Def}, {"org", NamePrefix::Org}, {"mch", NamePrefix::Mch}}};
    for (const auto& [p, kind] : kPrefixes)
        if (startsWithNoCase(name, p) && name.size() > 4 && (name[3] == '-' || name[3] == '_')) {
            out.prefix = kind;
            name.remove_prefix(4);
            break;
        }

    bool afterNoise = false; // "Bip01": the number belongs to the noise word
    for (std::string w : words(name)) {
        if (isDigit(w[0])) {
            if (!afterNoise)
                out.number = std::stoi(w.size() > 6 ? w.substr(w.size() - 6) : w);
            afterNoise = false;
            continue;
        }
        afterNoise = false;
        if (const Side s = sideWord(w); s != Side::None) {
            out.side = s;
            continue;
        }
        // Glued side: "leftarm", "rightupleg", "armleft".
        for (const auto& [word, side] : {std::pair{"left", Side::Left}, std::pair{"right", Side::Right}}) {
            const std::string_view sw(word);
            if (w.size() > sw.size() && w.compare(0, sw.size(), sw) == 0) {
                out.side = side;
                w.erase(0, sw.size());
            } else if (w.size() > sw.size() && w.compare(w.size() - sw.size(), sw.size(), sw) == 0) {
                out.side = side;
                w.erase(w.size() - sw.size());
            }
        }
        if (isNoise(w)) {
            afterNoise = true;
            continue;
        }
        out.key.append(w);
    }
    for (const KeyClass& k : kKeys)
        if (out.key == k.key && k.sided == (out.side != Side::None)) {
            out.cls = k.cls;
            out.alias = k.alias;
            break;
        }
    return out;
}

} // namespace marionette::editor::autorig
