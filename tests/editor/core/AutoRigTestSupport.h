// Synthetic skinned skeletons for the auto-rig suites: a humanoid in every naming scheme the template knows
// (Mixamo, Unreal mannequin, 3ds Max Biped, Rigify DEF bones, Rigify metarig, plain names), posed in a T- or
// A-pose, optionally with bent elbows and knees, facing +Z or −Z, at any height, with bone frames that are
// identity, Blender-like (+Y along the bone) or scaled; and a quadruped and a tail. Vertices are rings
// around the bones (a known radius per part), a sphere for the head and a block for each foot. Then what
// the suites look at results with (names, notes, bind positions, a relative-tolerance check).
// Header-only; each suite is one translation unit.
#pragma once

#include "marionette/Math.h"
#include "marionette/editor/autorig/AutoRig.h"
#include "marionette/rig/RigDescription.h"

#include <QString>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace marionette::test {

enum class Scheme { Mixamo, Unreal, Biped, Rigify, Metarig, Plain, PlainWords };
enum class BoneFrames { Identity, AlongBone, Centimetres };

struct HumanoidSpec {
    Scheme scheme = Scheme::Mixamo;
    bool aPose = false;        ///< arms 40° down instead of horizontal
    bool bent = false;         ///< elbows bent 20° forward, knees 15° backward in the bind pose
    bool facingMinusZ = false; ///< turned 180° about +Y (the character's left is then −X)
    float height = 1.8f;
    BoneFrames frames = BoneFrames::Identity;
    bool vertices = true;
    float upperArmRadius = 0.045f; ///< at 1.8 m; scaled with the height
};

struct SyntheticCharacter {
    editor::AutoRigInput input;
    std::map<editor::HumanoidPart, std::string> expected; ///< bone name per part ("" = none)
    Vec3 forward, left;                                   ///< the character's directions
};

namespace synth {

inline Vec3 rotateAbout(Vec3 p, Vec3 pivot, Vec3 axis, float angle)
{
    return Quat::fromAxisAngle(normalizeOr(axis, {0, 1, 0}), angle).rotate(p - pivot) + pivot;
}

/// Canonical joints of a 1.8 m human, T-pose, facing +Z, left = +X, feet on y = 0; then posed.
inline std::map<std::string, Vec3> joints(const HumanoidSpec& s)
{
    std::map<std::string, Vec3> j = {
        {"root", {0, 0, 0}},          {"pelvis", {0, 0.95f, 0}},     {"spine1", {0, 1.05f, -0.01f}},
        {"spine2", {0, 1.17f, -0.015f}}, {"spine3", {0, 1.30f, -0.02f}}, {"neck", {0, 1.50f, -0.01f}},
        {"head", {0, 1.60f, 0}},      {"headtop", {0, 1.80f, 0}},
    };
    for (float side : {1.f, -1.f}) {
        const std::string x = side > 0 ? "_l" : "_r";
        j["clav" + x] = {side * 0.04f, 1.45f, 0.f};
        j["upper" + x] = {side * 0.17f, 1.45f, -0.02f};
        j["fore" + x] = {side * 0.45f, 1.45f, -0.04f};
        j["hand" + x] = {side * 0.71f, 1.45f, -0.02f};
        j["finger1" + x] = {side * 0.80f, 1.45f, 0.f};
        j["finger2" + x] = {side * 0.84f, 1.45f, 0.f};
        j["thumb" + x] = {side * 0.74f, 1.44f, 0.04f};
        j["pelvisside" + x] = {side * 0.06f, 0.98f, 0.03f};
        j["thigh" + x] = {side * 0.09f, 0.92f, 0.f};
        j["calf" + x] = {side * 0.10f, 0.50f, 0.015f};
        j["foot" + x] = {side * 0.10f, 0.08f, -0.02f};
        j["toe" + x] = {side * 0.10f, 0.02f, 0.12f};
        j["toeend" + x] = {side * 0.10f, 0.02f, 0.20f};
        const Vec3 F{0, 0, 1};
        if (s.bent) { // knee flexion turns the shin backward
            const Vec3 h = cross(j["calf" + x] - j["thigh" + x], -F);
            for (const char* k : {"foot", "toe", "toeend"})
                j[k + x] = rotateAbout(j[k + x], j["calf" + x], h, radians(15.f));
        }
        if (s.aPose)
            for (const char* k : {"fore", "hand", "finger1", "finger2", "thumb"})
                j[k + x] = rotateAbout(j[k + x], j["upper" + x], F, -side * radians(40.f));
        if (s.bent) { // elbow flexion turns the forearm forward
            const Vec3 h = cross(j["fore" + x] - j["upper" + x], F);
            for (const char* k : {"hand", "finger1", "finger2", "thumb"})
                j[k + x] = rotateAbout(j[k + x], j["fore" + x], h, radians(20.f));
        }
        j["uppermid" + x] = lerp(j["upper" + x], j["fore" + x], 0.5f);
        j["foremid" + x] = lerp(j["fore" + x], j["hand" + x], 0.5f);
        j["thighmid" + x] = lerp(j["thigh" + x], j["calf" + x], 0.5f);
        j["calfmid" + x] = lerp(j["calf" + x], j["foot" + x], 0.5f);
    }
    j["neckmid"] = lerp(j["neck"], j["head"], 0.5f);
    return j;
}

struct BoneDef {
    std::string name, parent, key;
};

/// Bones of a scheme: name, parent name ("" = root) and the canonical joint. Sided entries use '#' for
/// the scheme's side spelling, '*' for "L"/"R" and '@' for the canonical side suffix.
inline std::vector<BoneDef> schemeBones(Scheme scheme)
{
    std::vector<BoneDef> c; // centre
    std::vector<BoneDef> s; // one side, expanded below
    std::vector<std::pair<std::string, std::string>> sides; // spelling left/right
    switch (scheme) {
    case Scheme::Mixamo:
        c = {{"mixamorig:Hips", "", "pelvis"},          {"mixamorig:Spine", "mixamorig:Hips", "spine1"},
             {"mixamorig:Spine1", "mixamorig:Spine", "spine2"}, {"mixamorig:Spine2", "mixamorig:Spine1", "spine3"},
             {"mixamorig:Neck", "mixamorig:Spine2", "neck"}, {"mixamorig:Head", "mixamorig:Neck", "head"},
             {"mixamorig:HeadTop_End", "mixamorig:Head", "headtop"}};
        s = {{"mixamorig:#Shoulder", "mixamorig:Spine2", "clav@"}, {"mixamorig:#Arm", "mixamorig:#Shoulder", "upper@"},
             {"mixamorig:#ForeArm", "mixamorig:#Arm", "fore@"},     {"mixamorig:#Hand", "mixamorig:#ForeArm", "hand@"},
             {"mixamorig:#HandIndex1", "mixamorig:#Hand", "finger1@"},
             {"mixamorig:#HandIndex2", "mixamorig:#HandIndex1", "finger2@"},
             {"mixamorig:#HandThumb1", "mixamorig:#Hand", "thumb@"}, {"mixamorig:#UpLeg", "mixamorig:Hips", "thigh@"},
             {"mixamorig:#Leg", "mixamorig:#UpLeg", "calf@"},       {"mixamorig:#Foot", "mixamorig:#Leg", "foot@"},
             {"mixamorig:#ToeBase", "mixamorig:#Foot", "toe@"},     {"mixamorig:#Toe_End", "mixamorig:#ToeBase", "toeend@"}};
        sides = {{"Left", "Right"}};
        break;
    case Scheme::Unreal:
        c = {{"root", "", "root"},         {"pelvis", "root", "pelvis"},     {"spine_01", "pelvis", "spine1"},
             {"spine_02", "spine_01", "spine2"}, {"spine_03", "spine_02", "spine3"}, {"neck_01", "spine_03", "neck"},
             {"head", "neck_01", "head"},   {"ik_foot_root", "root", "root"}};
        s = {{"clavicle_#", "spine_03", "clav@"},          {"upperarm_#", "clavicle_#", "upper@"},
             {"upperarm_twist_01_#", "upperarm_#", "uppermid@"}, {"lowerarm_#", "upperarm_#", "fore@"},
             {"lowerarm_twist_01_#", "lowerarm_#", "foremid@"}, {"hand_#", "lowerarm_#", "hand@"},
             {"index_01_#", "hand_#", "finger1@"},          {"index_02_#", "index_01_#", "finger2@"},
             {"thumb_01_#", "hand_#", "thumb@"},            {"thigh_#", "pelvis", "thigh@"},
             {"thigh_twist_01_#", "thigh_#", "thighmid@"},  {"calf_#", "thigh_#", "calf@"},
             {"calf_twist_01_#", "calf_#", "calfmid@"},     {"foot_#", "calf_#", "foot@"},
             {"ball_#", "foot_#", "toe@"},                  {"ik_foot_#", "ik_foot_root", "foot@"}};
        sides = {{"l", "r"}};
        break;
    case Scheme::Biped: // thighs hang from Bip01 Spine and clavicles from the neck, as 3ds Max builds it
        c = {{"Bip01", "", "root"},                 {"Bip01 Pelvis", "Bip01", "pelvis"},
             {"Bip01 Spine", "Bip01 Pelvis", "spine1"}, {"Bip01 Spine1", "Bip01 Spine", "spine2"},
             {"Bip01 Spine2", "Bip01 Spine1", "spine3"}, {"Bip01 Neck", "Bip01 Spine2", "neck"},
             {"Bip01 Head", "Bip01 Neck", "head"},   {"Bip01 HeadNub", "Bip01 Head", "headtop"}};
        s = {{"Bip01 # Thigh", "Bip01 Spine", "thigh@"},   {"Bip01 # Calf", "Bip01 # Thigh", "calf@"},
             {"Bip01 # Foot", "Bip01 # Calf", "foot@"},    {"Bip01 # Toe0", "Bip01 # Foot", "toe@"},
             {"Bip01 # Toe0Nub", "Bip01 # Toe0", "toeend@"}, {"Bip01 # Clavicle", "Bip01 Neck", "clav@"},
             {"Bip01 # UpperArm", "Bip01 # Clavicle", "upper@"}, {"Bip01 # Forearm", "Bip01 # UpperArm", "fore@"},
             {"Bip01 # ForeTwist", "Bip01 # Forearm", "foremid@"}, {"Bip01 # Hand", "Bip01 # Forearm", "hand@"},
             {"Bip01 # Finger0", "Bip01 # Hand", "thumb@"}, {"Bip01 # Finger1", "Bip01 # Hand", "finger1@"},
             {"Bip01 # Finger11", "Bip01 # Finger1", "finger2@"}};
        sides = {{"L", "R"}};
        break;
    case Scheme::Rigify: // deform bones of a generated rig, exported under an "Armature|" namespace
        c = {{"Armature|DEF-spine", "", "pelvis"},                    {"Armature|DEF-spine.001", "Armature|DEF-spine", "spine1"},
             {"Armature|DEF-spine.002", "Armature|DEF-spine.001", "spine2"}, {"Armature|DEF-spine.003", "Armature|DEF-spine.002", "spine3"},
             {"Armature|DEF-spine.004", "Armature|DEF-spine.003", "neck"}, {"Armature|DEF-spine.005", "Armature|DEF-spine.004", "neckmid"},
             {"Armature|DEF-spine.006", "Armature|DEF-spine.005", "head"}};
        s = {{"Armature|DEF-shoulder.#", "Armature|DEF-spine.003", "clav@"},
             {"Armature|DEF-upper_arm.#", "Armature|DEF-shoulder.#", "upper@"},
             {"Armature|DEF-upper_arm.#.001", "Armature|DEF-upper_arm.#", "uppermid@"},
             {"Armature|DEF-forearm.#", "Armature|DEF-upper_arm.#.001", "fore@"},
             {"Armature|DEF-forearm.#.001", "Armature|DEF-forearm.#", "foremid@"},
             {"Armature|DEF-hand.#", "Armature|DEF-forearm.#.001", "hand@"},
             {"Armature|DEF-f_index.01.#", "Armature|DEF-hand.#", "finger1@"},
             {"Armature|DEF-pelvis.#", "Armature|DEF-spine", "pelvisside@"},
             {"Armature|DEF-thigh.#", "Armature|DEF-spine", "thigh@"},
             {"Armature|DEF-thigh.#.001", "Armature|DEF-thigh.#", "thighmid@"},
             {"Armature|DEF-shin.#", "Armature|DEF-thigh.#.001", "calf@"},
             {"Armature|DEF-shin.#.001", "Armature|DEF-shin.#", "calfmid@"},
             {"Armature|DEF-foot.#", "Armature|DEF-shin.#.001", "foot@"},
             {"Armature|DEF-toe.#", "Armature|DEF-foot.#", "toe@"}};
        sides = {{"L", "R"}};
        break;
    case Scheme::Metarig:
        c = {{"spine", "", "pelvis"},          {"spine.001", "spine", "spine1"},   {"spine.002", "spine.001", "spine2"},
             {"spine.003", "spine.002", "spine3"}, {"spine.004", "spine.003", "neck"}, {"spine.005", "spine.004", "neckmid"},
             {"spine.006", "spine.005", "head"}};
        s = {{"shoulder.#", "spine.003", "clav@"}, {"upper_arm.#", "shoulder.#", "upper@"},
             {"forearm.#", "upper_arm.#", "fore@"}, {"hand.#", "forearm.#", "hand@"},
             {"palm.01.#", "hand.#", "finger1@"},  {"pelvis.#", "spine", "pelvisside@"},
             {"thigh.#", "spine", "thigh@"},       {"shin.#", "thigh.#", "calf@"},
             {"foot.#", "shin.#", "foot@"},         {"toe.#", "foot.#", "toe@"}};
        sides = {{"L", "R"}};
        break;
    case Scheme::Plain:
        c = {{"hips", "", "pelvis"}, {"spine", "hips", "spine3"}, {"neck", "spine", "neck"}, {"head", "neck", "head"}};
        s = {{"upperarm_#", "spine", "upper@"}, {"forearm_#", "upperarm_#", "fore@"}, {"hand_#", "forearm_#", "hand@"},
             {"thigh_#", "hips", "thigh@"},    {"calf_#", "thigh_#", "calf@"},       {"foot_#", "calf_#", "foot@"}};
        sides = {{"l", "r"}};
        break;
    case Scheme::PlainWords: // every side spelling at once
        c = {{"Hips", "", "pelvis"}, {"Spine", "Hips", "spine2"}, {"Chest", "Spine", "spine3"},
             {"Neck", "Chest", "neck"}, {"Head", "Neck", "head"}};
        s = {{"#UpperArm", "Chest", "upper@"}, {"# forearm", "#UpperArm", "fore@"}, {"hand.*", "# forearm", "hand@"},
             {"* Thigh", "Hips", "thigh@"},   {"calf_*", "* Thigh", "calf@"},     {"Foot.*", "calf_*", "foot@"}};
        sides = {{"Left", "Right"}};
        break;
    }
    std::vector<BoneDef> out = c;
    for (int k = 0; k < 2; ++k) {
        const std::string spelled = k == 0 ? sides[0].first : sides[0].second;
        const std::string suffix = k == 0 ? "_l" : "_r";
        auto expand = [&](const std::string& t) {
            std::string o;
            for (char ch : t) {
                if (ch == '#')
                    o.append(spelled);
                else if (ch == '*')
                    o.push_back(k == 0 ? 'L' : 'R');
                else if (ch == '@')
                    o.append(suffix);
                else
                    o.push_back(ch);
            }
            return o;
        };
        for (const BoneDef& b : s)
            out.push_back({expand(b.name), expand(b.parent), expand(b.key)});
    }
    return out;
}

inline std::vector<Vec3> ring(Vec3 a, Vec3 b, float r)
{
    std::vector<Vec3> v;
    const Vec3 d = normalizeOr(b - a, {0, 1, 0});
    const Vec3 u = anyPerpendicular(d), w = cross(d, u);
    for (int i = 1; i <= 6; ++i)
        for (int k = 0; k < 8; ++k) {
            const float t = float(i) / 7.f, phi = float(k) * kPi / 4.f;
            v.push_back(lerp(a, b, t) + (u * std::cos(phi) + w * std::sin(phi)) * r);
        }
    return v;
}

} // namespace synth

/// A humanoid in `spec`'s scheme and pose.
inline SyntheticCharacter makeHumanoidCharacter(const HumanoidSpec& spec)
{
    using editor::HumanoidPart;
    std::map<std::string, Vec3> j = synth::joints(spec);
    const std::vector<synth::BoneDef> defs = synth::schemeBones(spec.scheme);
    // Vertex groups (canonical key of the bone that skins them), in the posed 1.8 m frame.
    std::map<std::string, std::vector<Vec3>> groups;
    const float ua = spec.upperArmRadius;
    groups["pelvis"] = synth::ring(j["thigh_l"], j["thigh_r"], 0.11f);
    groups["spine1"] = synth::ring(j["spine1"], j["spine2"], 0.12f);
    groups["spine2"] = synth::ring(j["spine2"], j["spine3"], 0.125f);
    groups["spine3"] = synth::ring(j["spine3"], j["neck"], 0.13f);
    groups["neck"] = synth::ring(j["neck"], j["head"], 0.05f);
    for (int i = 0; i < 60; ++i) { // head: a sphere of radius 0.1 around 10 cm above the head joint
        const float z = -1.f + 2.f * (float(i) + 0.5f) / 60.f, phi = float(i) * 2.39996f, r = std::sqrt(1.f - z * z);
        groups["head"].push_back(j["head"] + Vec3{0.f, 0.1f, 0.02f} + Vec3{r * std::cos(phi), z, r * std::sin(phi)} * 0.1f);
    }
    for (const std::string x : {"_l", "_r"}) {
        groups["upper" + x] = synth::ring(j["upper" + x], j["fore" + x], ua);
        groups["fore" + x] = synth::ring(j["fore" + x], j["hand" + x], 0.038f);
        groups["hand" + x] = synth::ring(j["hand" + x], j["finger1" + x], 0.03f);
        groups["thigh" + x] = synth::ring(j["thigh" + x], j["calf" + x], 0.07f);
        groups["calf" + x] = synth::ring(j["calf" + x], j["foot" + x], 0.05f);
        const Vec3 a = j["foot" + x];
        for (float dx : {-0.045f, 0.045f})
            for (float y : {0.f, a.y + 0.02f})
                for (float z : {a.z - 0.06f, j["toe" + x].z + 0.06f})
                    groups["foot" + x].push_back({a.x + dx, y, z});
    }

    SyntheticCharacter out;
    const float k = spec.height / 1.8f;
    const Quat turn = spec.facingMinusZ ? Quat::fromAxisAngle({0, 1, 0}, kPi) : Quat{};
    auto place = [&](Vec3 p) { return turn.rotate(p) * k; };
    out.forward = turn.rotate({0, 0, 1});
    out.left = turn.rotate({1, 0, 0});
    std::map<std::string, int> index;
    for (const synth::BoneDef& d : defs) {
        rig::Bone b;
        b.name = d.name;
        b.parent = d.parent.empty() ? rig::kNone : index.at(d.parent);
        const Vec3 at = place(j.at(d.key));
        Mat3 r;
        if (spec.frames != BoneFrames::Identity) { // +Y toward the first child, or along the parent's bone
            Vec3 dir{0, 1, 0};
            bool found = false;
            for (const synth::BoneDef& c : defs)
                if (c.parent == d.name && length(place(j.at(c.key)) - at) > 1e-4f) {
                    dir = normalizeOr(place(j.at(c.key)) - at, dir);
                    found = true;
                    break;
                }
            if (!found && b.parent != rig::kNone) {
                const Mat4& pw = out.input.skeleton[std::size_t(b.parent)].bindWorld;
                dir = normalizeOr(at - Vec3{pw.m[12], pw.m[13], pw.m[14]}, dir);
            }
            r = toMat3(rotationBetween({0, 1, 0}, dir));
        }
        const float sc = spec.frames == BoneFrames::Centimetres ? 0.01f : 1.f;
        r = Mat3::fromColumns(r.c[0] * sc, r.c[1] * sc, r.c[2] * sc);
        b.bindWorld = Mat4::fromRotationTranslation(r, at);
        invertAffine(b.bindWorld, b.inverseBind);
        index[d.name] = int(out.input.skeleton.size());
        out.input.skeleton.push_back(b);
        std::vector<Vec3> verts;
        if (spec.vertices)
            if (auto g = groups.find(d.key); g != groups.end() && d.key != "root")
                for (const Vec3& v : g->second)
                    verts.push_back(place(v));
        out.input.boneVertices.push_back(std::move(verts));
        groups.erase(d.key); // one bone per group (ik_foot_l shares foot_l's joint, not its skin)
    }
    out.input.totalMass = spec.height < 1.f ? 2.f : 75.f;

    auto name = [&](const char* key) {
        for (const synth::BoneDef& d : defs)
            if (d.key == key)
                return d.name;
        return std::string();
    };
    out.expected = {{HumanoidPart::Pelvis, name("pelvis")},   {HumanoidPart::Spine, name("spine1")},
                    {HumanoidPart::Chest, name("spine3")},    {HumanoidPart::Neck, name("neck")},
                    {HumanoidPart::Head, name("head")},       {HumanoidPart::UpperArmL, name("upper_l")},
                    {HumanoidPart::ForearmL, name("fore_l")}, {HumanoidPart::HandL, name("hand_l")},
                    {HumanoidPart::UpperArmR, name("upper_r")}, {HumanoidPart::ForearmR, name("fore_r")},
                    {HumanoidPart::HandR, name("hand_r")},    {HumanoidPart::ThighL, name("thigh_l")},
                    {HumanoidPart::CalfL, name("calf_l")},    {HumanoidPart::FootL, name("foot_l")},
                    {HumanoidPart::ThighR, name("thigh_r")},  {HumanoidPart::CalfR, name("calf_r")},
                    {HumanoidPart::FootR, name("foot_r")}};
    if (spec.scheme == Scheme::PlainWords)
        out.expected[HumanoidPart::Spine] = name("spine2");
    return out;
}

/// A bone at `at` (identity rotation) with `parent`.
inline rig::Bone bone(const std::string& name, int parent, Vec3 at)
{
    rig::Bone b;
    b.name = name;
    b.parent = parent;
    b.bindWorld = Mat4::fromRotationTranslation(Mat3{}, at);
    invertAffine(b.bindWorld, b.inverseBind);
    return b;
}

/// A dog-sized quadruped facing +Z: spine, neck, head, four legs of three bones and paws, a tail. Names are
/// `names[0..12]` for: hips, spine, chest, neck, head, front upper/lower/paw (left), hind upper/lower/paw
/// (left), tail base; right legs get the left name with "L" replaced by "R".
inline editor::AutoRigInput makeQuadruped(bool humanoidNames)
{
    editor::AutoRigInput in;
    auto add = [&](const std::string& name, const std::string& parent, Vec3 at, float radius) {
        int p = rig::kNone;
        for (std::size_t i = 0; i < in.skeleton.size(); ++i)
            if (in.skeleton[i].name == parent)
                p = int(i);
        in.skeleton.push_back(bone(name, p, at));
        in.boneVertices.emplace_back();
        if (p != rig::kNone && radius > 0.f) {
            const Mat4& pw = in.skeleton[std::size_t(p)].bindWorld;
            in.boneVertices[std::size_t(p)] = synth::ring({pw.m[12], pw.m[13], pw.m[14]}, at, radius);
        }
    };
    const bool h = humanoidNames;
    add(h ? "Hips" : "Pelvis", "", {0, 0.6f, -0.4f}, 0.f);
    add(h ? "Spine" : "Spine1", h ? "Hips" : "Pelvis", {0, 0.62f, -0.12f}, 0.13f);
    add(h ? "Spine2" : "Chest", h ? "Spine" : "Spine1", {0, 0.64f, 0.2f}, 0.14f);
    add("Neck", h ? "Spine2" : "Chest", {0, 0.72f, 0.38f}, 0.13f);
    add("Head", "Neck", {0, 0.82f, 0.5f}, 0.07f);
    add("HeadEnd", "Head", {0, 0.8f, 0.72f}, 0.08f);
    for (const char* side : {"L", "R"}) {
        const float x = side[0] == 'L' ? 0.12f : -0.12f;
        const std::string s = side, left = side[0] == 'L' ? "Left" : "Right";
        const std::string chest = h ? "Spine2" : "Chest", hips = h ? "Hips" : "Pelvis";
        const std::string f1 = h ? left + "Arm" : "FrontLeg" + s + "1", f2 = h ? left + "ForeArm" : "FrontLeg" + s + "2",
                          f3 = h ? left + "Hand" : "FrontPaw" + s, b1 = h ? left + "UpLeg" : "HindLeg" + s + "1",
                          b2 = h ? left + "Leg" : "HindLeg" + s + "2", b3 = h ? left + "Foot" : "HindPaw" + s;
        add(f1, chest, {x, 0.55f, 0.26f}, 0.f);
        add(f2, f1, {x, 0.3f, 0.28f}, 0.05f);
        add(f3, f2, {x, 0.06f, 0.26f}, 0.04f);
        add(f3 + "_end", f3, {x, 0.f, 0.32f}, 0.03f);
        add(b1, hips, {x, 0.55f, -0.42f}, 0.f);
        add(b2, b1, {x, 0.3f, -0.33f}, 0.06f);
        add(b3, b2, {x, 0.07f, -0.45f}, 0.04f);
        add(b3 + "_end", b3, {x, 0.f, -0.4f}, 0.03f);
    }
    add("Tail1", h ? "Hips" : "Pelvis", {0, 0.62f, -0.5f}, 0.f);
    add("Tail2", "Tail1", {0, 0.6f, -0.7f}, 0.04f);
    add("Tail3", "Tail2", {0, 0.55f, -0.88f}, 0.03f);
    add("Tail4", "Tail3", {0, 0.5f, -1.03f}, 0.02f);
    in.totalMass = 30.f;
    return in;
}

/// A straight tail of `bones` bones along −Z from (0, 1, 0), each `step` long, vertex rings of radius
/// 0.05 m tapering to 0.01 m (the last bone skins a tip that reaches one more step).
inline editor::AutoRigInput makeTail(int bones, float step = 0.12f)
{
    editor::AutoRigInput in;
    for (int i = 0; i < bones; ++i) {
        const Vec3 at{0.f, 1.f, -step * float(i)};
        in.skeleton.push_back(bone("Tail" + std::to_string(i + 1), i - 1, at));
        const float r = 0.05f - 0.04f * float(i) / float(std::max(1, bones - 1));
        in.boneVertices.push_back(synth::ring(at, at + Vec3{0.f, 0.f, -step}, r));
    }
    in.totalMass = 3.f;
    return in;
}

} // namespace marionette::test

namespace marionette::test {

/// The humanoid rows shared by the suites: every naming scheme, T- and A-poses, bent limbs, both facings,
/// a 0.5 m toy and a 1.7 m figure, identity, along-the-bone and centimetre-scaled bone frames.
struct HumanoidRow {
    const char* name;
    HumanoidSpec spec;
};

inline std::vector<HumanoidRow> humanoidRows()
{
    HumanoidSpec s;
    std::vector<HumanoidRow> rows;
    s = {};
    s.scheme = Scheme::Mixamo;
    s.frames = BoneFrames::AlongBone;
    rows.push_back({"Mixamo, T-pose, facing +Z", s});
    s.aPose = true;
    s.facingMinusZ = true;
    rows.push_back({"Mixamo, A-pose, facing -Z", s});
    s = {};
    s.scheme = Scheme::Unreal;
    rows.push_back({"Unreal mannequin, T-pose, twist and IK bones", s});
    s = {};
    s.scheme = Scheme::Biped;
    s.aPose = true;
    s.bent = true;
    s.frames = BoneFrames::Centimetres;
    rows.push_back({"3ds Max Biped, A-pose, bent limbs, centimetre bone frames", s});
    s = {};
    s.scheme = Scheme::Rigify;
    s.height = 0.5f;
    s.frames = BoneFrames::AlongBone;
    rows.push_back({"Rigify DEF bones, 0.5 m toy", s});
    s = {};
    s.scheme = Scheme::Metarig;
    s.aPose = true;
    s.bent = true;
    s.facingMinusZ = true;
    s.height = 1.7f;
    s.frames = BoneFrames::AlongBone;
    rows.push_back({"Rigify metarig, A-pose, bent limbs, facing -Z, 1.7 m", s});
    s = {};
    s.scheme = Scheme::Plain;
    s.vertices = false;
    rows.push_back({"plain names, T-pose, no skinned vertices", s});
    s = {};
    s.scheme = Scheme::PlainWords;
    s.aPose = true;
    s.facingMinusZ = true;
    rows.push_back({"Left/Right/L/.L/_L spellings, A-pose, facing -Z", s});
    return rows;
}

} // namespace marionette::test

namespace marionette::test {

/// `skeleton` with every bone renamed to a name no naming scheme reads, hierarchy and bind pose kept: "b0",
/// "b1", ... in index order when `seed` is 0, else a random permutation of names such as "qzvk17".
inline std::vector<rig::Bone> scrambleNames(std::vector<rig::Bone> skeleton, unsigned seed = 0)
{
    std::vector<std::size_t> order(skeleton.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::mt19937 rng(seed);
    if (seed != 0)
        std::shuffle(order.begin(), order.end(), rng);
    static const char kLetters[] = "qzvkxw"; // no side letter (l, r) and no body-part word can come out
    for (std::size_t i = 0; i < skeleton.size(); ++i) {
        std::string name = seed == 0 ? "b" : "";
        if (seed != 0)
            for (int k = 0; k < 4; ++k)
                name.push_back(kLetters[rng() % 6]);
        skeleton[i].name = name + std::to_string(order[i]);
    }
    return skeleton;
}

/// `in` with its bones reordered (parents still first): the bones on the character's right (joint more than
/// 2 cm to the right of the plane through the origin across `left`) before those on its left, the middle
/// ones first. Parent indices and per-bone vertex lists follow. `newIndex`, when given, receives each old
/// bone's new index.
inline editor::AutoRigInput rightBeforeLeft(const editor::AutoRigInput& in, Vec3 left, std::vector<int>* newIndex = nullptr)
{
    std::vector<std::size_t> order;
    for (int group = 0; group < 3; ++group) // 0 middle, 1 right, 2 left
        for (std::size_t i = 0; i < in.skeleton.size(); ++i) {
            const Mat4& m = in.skeleton[i].bindWorld;
            const float x = dot(Vec3{m.m[12], m.m[13], m.m[14]}, left);
            if ((x < -0.02f ? 1 : x > 0.02f ? 2 : 0) == group)
                order.push_back(i);
        }
    std::vector<int> index(in.skeleton.size());
    for (std::size_t k = 0; k < order.size(); ++k)
        index[order[k]] = int(k);
    editor::AutoRigInput out = in;
    for (std::size_t k = 0; k < order.size(); ++k) {
        out.skeleton[k] = in.skeleton[order[k]];
        const int p = in.skeleton[order[k]].parent;
        out.skeleton[k].parent = p == rig::kNone ? rig::kNone : index[std::size_t(p)];
        if (!in.boneVertices.empty())
            out.boneVertices[k] = in.boneVertices[order[k]];
    }
    if (newIndex)
        *newIndex = index;
    return out;
}

} // namespace marionette::test

/// Fails the test when |actual − expected| > relTol·|expected|, printing both.
#define EXPECT_NEAR_REL(actual, expected, relTol)                                                              \
    do {                                                                                                       \
        const double a_ = (actual), e_ = (expected);                                                           \
        if (!(std::fabs(a_ - e_) <= double(relTol) * std::fabs(e_)))                                           \
            QFAIL(qPrintable(QStringLiteral("%1 = %2, expected %3 (line %4)")                                  \
                                 .arg(QString::fromLatin1(#actual), QString::number(a_), QString::number(e_))   \
                                 .arg(__LINE__)));                                                             \
    } while (0)

namespace marionette::test {

/// A number for failure messages (5 significant digits).
inline QString num(double v) { return QString::number(v, 'g', 5); }

/// Index of the first element of `list` (particles, sticks, triangles, bones, ...) called `name`, or -1.
inline std::int32_t findByName(const auto& list, const std::string& name)
{
    for (std::size_t i = 0; i < list.size(); ++i)
        if (list[i].name == name)
            return std::int32_t(i);
    return -1;
}

/// True when one of the result's notes contains `what`.
inline bool noteMentions(const editor::AutoRigResult& r, const std::string& what)
{
    return std::any_of(r.notes.begin(), r.notes.end(), [&](const std::string& n) { return n.find(what) != std::string::npos; });
}

/// "" when every angular constraint of `d` has this angular friction (the templates give every joint the
/// humanoid's: runtime::kHumanoidJointDamping, kHumanoidJointStaticFriction), else the first that has not.
inline QString angularFrictionProblem(const rig::RigDescription& d, float damping, float staticFrictionSpeed)
{
    for (const rig::AngularConstraint& a : d.angular)
        if (a.damping != damping || a.staticFrictionSpeed != staticFrictionSpeed)
            return QStringLiteral("%1: damping %2 1/s, static friction %3 rad/s; expected %4, %5")
                .arg(QString::fromStdString(a.name), num(double(a.damping)), num(double(a.staticFrictionSpeed)),
                     num(double(damping)), num(double(staticFrictionSpeed)));
    return {};
}

/// "" when the solver settings are rig::Settings' defaults (substeps, iterations per substep, rates per
/// second, solver), else the first that differs. The templates leave them so; they set only self-collision.
inline QString solverSettingsProblem(const rig::Settings& s)
{
    const rig::Settings d;
    if (s.timeStep != d.timeStep || s.maxSubsteps != d.maxSubsteps)
        return QStringLiteral("step %1 s, %2 steps per advance").arg(num(double(s.timeStep))).arg(s.maxSubsteps);
    if (s.substeps != d.substeps || s.iterations != d.iterations)
        return QStringLiteral("%1 substeps of %2 iterations").arg(s.substeps).arg(s.iterations);
    if (s.damping != d.damping || s.friction != d.friction || s.staticFrictionSpeed != d.staticFrictionSpeed)
        return QStringLiteral("damping %1 1/s, friction %2, static friction speed %3 m/s")
            .arg(num(double(s.damping)), num(double(s.friction)), num(double(s.staticFrictionSpeed)));
    if (s.solver != d.solver)
        return QStringLiteral("solver %1").arg(QLatin1String(rig::toString(s.solver)));
    return {};
}

/// Angle at `c.center` between the arms to c.a and c.b at positions `x`, radians.
inline float angleAt(std::span<const Vec3> x, const rig::AngleConstraint& c)
{
    const Vec3 u = x[std::size_t(c.a)] - x[std::size_t(c.center)], v = x[std::size_t(c.b)] - x[std::size_t(c.center)];
    return std::acos(std::clamp(dot(u, v) / (length(u) * length(v)), -1.f, 1.f));
}

/// The particles' bind positions, by index.
inline std::vector<Vec3> bindPositions(const rig::RigDescription& d)
{
    std::vector<Vec3> x;
    for (const rig::Particle& p : d.particles)
        x.push_back(p.position);
    return x;
}

} // namespace marionette::test
