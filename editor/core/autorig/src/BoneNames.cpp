#include "marionette/editor/autorig/BoneNames.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
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

/// One word of a name: where it starts and how long it is.
struct WordSpan {
    std::size_t begin = 0, size = 0;
};

/// Words of a name: split at non-alphanumerics, between letters and digits, and at camelCase boundaries
/// ("LeftUpLeg" -> Left Up Leg, "LUpperArm" -> L Upper Arm, "Spine1" -> Spine 1).
std::vector<WordSpan> wordSpans(std::string_view s)
{
    std::vector<WordSpan> out;
    WordSpan cur;
    auto flush = [&](std::size_t next) {
        if (cur.size > 0)
            out.push_back(cur);
        cur = {next, 0};
    };
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (!isAlpha(c) && !isDigit(c)) {
            flush(i + 1);
            continue;
        }
        if (cur.size > 0) {
            const char p = s[i - 1];
            const bool digitBoundary = isDigit(p) != isDigit(c);
            const bool camel = isLower(p) && isUpper(c);
            const bool acronymEnd = isUpper(p) && isUpper(c) && i + 1 < s.size() && isLower(s[i + 1]);
            if (digitBoundary || camel || acronymEnd)
                flush(i);
        }
        if (cur.size == 0)
            cur.begin = i;
        ++cur.size;
    }
    flush(s.size());
    return out;
}

std::vector<std::string> words(std::string_view s)
{
    std::vector<std::string> out;
    for (const WordSpan& w : wordSpans(s))
        out.push_back(lower(s.substr(w.begin, w.size)));
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

namespace {

/// The side a glued word starts or ends with ("leftarm", "armright"), and the length of that side part.
Side gluedSide(const std::string& w, bool& atStart, std::size_t& length)
{
    for (const auto& [word, side] : {std::pair{std::string_view("left"), Side::Left}, std::pair{std::string_view("right"), Side::Right}}) {
        if (w.size() > word.size() && w.compare(0, word.size(), word) == 0) {
            atStart = true;
            length = word.size();
            return side;
        }
        if (w.size() > word.size() && w.compare(w.size() - word.size(), word.size(), word) == 0) {
            atStart = false;
            length = word.size();
            return side;
        }
    }
    return Side::None;
}

/// `to` spelled in the letter case of `from` ("L" -> "R", "left" -> "right", "Left" -> "Right", "LEFT" -> "RIGHT").
std::string inCaseOf(std::string_view from, std::string_view to)
{
    std::string out(to);
    const bool allUpper = std::all_of(from.begin(), from.end(), [](char c) { return !isLower(c); });
    for (std::size_t i = 0; i < out.size(); ++i)
        if (allUpper || (i == 0 && isUpper(from[0])))
            out[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[i])));
    return out;
}

std::string_view oppositeSideWord(const std::string& w)
{
    static const std::array<std::pair<std::string_view, std::string_view>, 8> kPairs = {{{"l", "r"}, {"r", "l"},
        {"left", "right"}, {"right", "left"}, {"lf", "rt"}, {"rt", "lf"}, {"lft", "rgt"}, {"rgt", "lft"}}};
    for (const auto& [a, b] : kPairs)
        if (w == a)
            return b;
    return {};
}

} // namespace

SidedName splitSide(std::string_view name)
{
    SidedName out;
    for (std::string w : words(name)) {
        if (const Side s = sideWord(w); s != Side::None) {
            out.side = s;
            continue;
        }
        bool atStart = false;
        std::size_t length = 0;
        if (const Side s = gluedSide(w, atStart, length); s != Side::None) {
            out.side = s;
            w.erase(atStart ? 0 : w.size() - length, length);
        }
        if (!out.rest.empty())
            out.rest.push_back(' ');
        out.rest.append(w);
    }
    return out;
}

std::string mirroredName(std::string_view name)
{
    std::string out(name);
    // From the last word back, so earlier spans stay valid.
    const std::vector<WordSpan> spans = wordSpans(name);
    for (auto it = spans.rbegin(); it != spans.rend(); ++it) {
        const std::string_view original = name.substr(it->begin, it->size);
        const std::string w = lower(original);
        if (const std::string_view opposite = oppositeSideWord(w); !opposite.empty()) {
            out.replace(it->begin, it->size, inCaseOf(original, opposite));
            continue;
        }
        bool atStart = false;
        std::size_t length = 0;
        if (const Side s = gluedSide(w, atStart, length); s != Side::None) {
            const std::size_t at = atStart ? it->begin : it->begin + it->size - length;
            const std::string_view part = name.substr(at, length);
            out.replace(at, length, inCaseOf(part, s == Side::Left ? "right" : "left"));
        }
    }
    return out;
}

std::vector<std::int32_t> mirrorPartnersByName(const std::vector<std::string>& names)
{
    std::vector<std::int32_t> partner(names.size(), -1);
    std::map<std::string, std::vector<std::int32_t>> left, right;
    for (std::size_t i = 0; i < names.size(); ++i) {
        SidedName n = splitSide(names[i]);
        if (n.side == Side::Left)
            left[n.rest].push_back(std::int32_t(i));
        else if (n.side == Side::Right)
            right[n.rest].push_back(std::int32_t(i));
    }
    for (const auto& [rest, ls] : left)
        if (auto r = right.find(rest); r != right.end() && ls.size() == 1 && r->second.size() == 1) {
            partner[std::size_t(ls[0])] = r->second[0];
            partner[std::size_t(r->second[0])] = ls[0];
        }
    return partner;
}

std::vector<std::int32_t> mirrorParticlesByName(const rig::RigDescription& rig)
{
    std::vector<std::string> names, bones;
    for (const rig::Particle& p : rig.particles)
        names.push_back(p.name);
    for (const rig::Bone& b : rig.bones)
        bones.push_back(b.name);
    std::vector<std::int32_t> partner = mirrorPartnersByName(names);
    const std::vector<std::int32_t> bonePartner = mirrorPartnersByName(bones);
    // The particle made from each bone, when exactly one is.
    std::vector<std::int32_t> madeFrom(rig.bones.size(), -1);
    for (std::size_t i = 0; i < rig.particles.size(); ++i)
        if (const std::int32_t b = rig.particles[i].bone; b >= 0 && std::size_t(b) < madeFrom.size())
            madeFrom[std::size_t(b)] = madeFrom[std::size_t(b)] == -1 ? std::int32_t(i) : -2;
    auto viaBone = [&](std::size_t i) -> std::int32_t {
        const std::int32_t b = rig.particles[i].bone;
        if (b < 0 || std::size_t(b) >= rig.bones.size() || bonePartner[std::size_t(b)] < 0)
            return -1;
        return std::max(madeFrom[std::size_t(bonePartner[std::size_t(b)])], -1);
    };
    for (std::size_t i = 0; i < partner.size(); ++i)
        if (partner[i] < 0)
            if (const std::int32_t j = viaBone(i); j >= 0 && partner[std::size_t(j)] < 0 && viaBone(std::size_t(j)) == std::int32_t(i)) {
                partner[i] = j;
                partner[std::size_t(j)] = std::int32_t(i);
            }
    return partner;
}

} // namespace marionette::editor::autorig
