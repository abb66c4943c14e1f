// A character with its limbs scaled, for the rig-transfer suites (tst_rigtransfer, tests/cli/tst_clitransfer,
// tests/editor/app/tst_rigtools): each bone b gets a factor s_b and the transform
//     T_b(x) = J'_b + s_b · (x − J_b),   J'_b = T_parent(J_b)   (a root keeps its joint),
// so a child joint moves with its parent bone and every vertex with its bones, blended by skin weight
// (v' = Σ w_k T_bk(v)). Bind rotations are kept; bone lengths and the skin's girth around them scale by s_b.
// writeGlb() saves such a character as a .glb for the command-line and editor suites. Header-only; needs
// Marionette::import (types) and Marionette::editorpreview (the baked-clip glTF writer).
#pragma once

#include "marionette/Math.h"
#include "marionette/editor/preview/BakedClip.h"
#include "marionette/editor/preview/ClipFiles.h"
#include "marionette/import/ImportedScene.h"

#include <QString>

#include <map>
#include <string>
#include <vector>

namespace marionette::test {

/// Per-limb factors of the mannequin sample (samples/characters/mannequin, Mixamo names); 1 = unchanged.
struct LimbScale {
    float armL = 1.f, armR = 1.f; ///< Left/RightShoulder, Arm, ForeArm, Hand
    float legL = 1.f, legR = 1.f; ///< Left/RightUpLeg, Leg, Foot, ToeBase
    float spine = 1.f;            ///< Hips, Spine, Spine1 (the trunk from the pelvis up)
    float neck = 1.f;             ///< Neck
};

/// The factor of each bone of `skeleton` under `s` (the head and unknown bones keep 1).
inline std::vector<float> mannequinFactors(const std::vector<rig::Bone>& skeleton, const LimbScale& s)
{
    const std::map<std::string, float> byName{
        {"LeftShoulder", s.armL}, {"LeftArm", s.armL},  {"LeftForeArm", s.armL},  {"LeftHand", s.armL},
        {"RightShoulder", s.armR}, {"RightArm", s.armR}, {"RightForeArm", s.armR}, {"RightHand", s.armR},
        {"LeftUpLeg", s.legL},   {"LeftLeg", s.legL},   {"LeftFoot", s.legL},     {"LeftToeBase", s.legL},
        {"RightUpLeg", s.legR},  {"RightLeg", s.legR},  {"RightFoot", s.legR},    {"RightToeBase", s.legR},
        {"Hips", s.spine},       {"Spine", s.spine},    {"Spine1", s.spine},      {"Neck", s.neck}};
    std::vector<float> f;
    for (const rig::Bone& b : skeleton) {
        const auto it = byName.find(b.name);
        f.push_back(it == byName.end() ? 1.f : it->second);
    }
    return f;
}

/// `scene` with bone b scaled by factors[b] as the header describes (bindWorld, bindLocal, inverseBind,
/// vertices; normals and everything else kept).
inline import::ImportedScene scaledScene(const import::ImportedScene& scene, const std::vector<float>& factors)
{
    import::ImportedScene out = scene;
    const std::size_t n = scene.skeleton.size();
    auto jointOf = [](const rig::Bone& b) { return Vec3{b.bindWorld.m[12], b.bindWorld.m[13], b.bindWorld.m[14]}; };
    std::vector<Vec3> from(n), to(n);
    for (std::size_t b = 0; b < n; ++b) {
        from[b] = jointOf(scene.skeleton[b]);
        const std::int32_t p = scene.skeleton[b].parent;
        to[b] = p < 0 ? from[b] : to[std::size_t(p)] + (from[b] - from[std::size_t(p)]) * factors[std::size_t(p)];
    }
    auto move = [&](std::int32_t b, Vec3 x) { return to[std::size_t(b)] + (x - from[std::size_t(b)]) * factors[std::size_t(b)]; };
    for (std::size_t b = 0; b < n; ++b) {
        rig::Bone& bone = out.skeleton[b];
        bone.bindWorld.m[12] = to[b].x;
        bone.bindWorld.m[13] = to[b].y;
        bone.bindWorld.m[14] = to[b].z;
        invertAffine(bone.bindWorld, bone.inverseBind);
        if (bone.parent < 0) {
            bone.bindLocal = bone.bindWorld;
        } else {
            Mat4 parentInverse;
            invertAffine(out.skeleton[std::size_t(bone.parent)].bindWorld, parentInverse);
            bone.bindLocal = parentInverse * bone.bindWorld;
        }
    }
    for (import::ImportedMesh& m : out.meshes)
        for (std::size_t v = 0; v < m.positions.size(); ++v) {
            const Vec3 x = m.positions[v];
            if (m.isSkinned()) {
                Vec3 sum;
                float w = 0.f;
                for (int k = 0; k < import::kMaxInfluences; ++k)
                    if (m.influences[v].bone[std::size_t(k)] >= 0) {
                        sum = sum + move(m.influences[v].bone[std::size_t(k)], x) * m.influences[v].weight[std::size_t(k)];
                        w += m.influences[v].weight[std::size_t(k)];
                    }
                if (w > 0.f)
                    m.positions[v] = sum / w;
            } else if (m.rigidBone >= 0) {
                m.positions[v] = move(m.rigidBone, x);
            }
        }
    return out;
}

/// Writes `scene` (skinned mesh and skeleton at its bind pose) to `path` as binary glTF, through the writer
/// of baked clips with a one-frame clip holding the bind pose. False with `error` one line.
inline bool writeGlb(const QString& path, const import::ImportedScene& scene, QString& error)
{
    editor::BakedClip clip;
    clip.name = "bind";
    clip.steps = {0};
    clip.times = {0.f};
    for (const rig::Bone& b : scene.skeleton) {
        clip.boneNames.push_back(b.name);
        clip.parents.push_back(b.parent);
        clip.keys.push_back(editor::decomposeAffine(b.bindLocal));
    }
    return editor::writeBakedClip(path, editor::ClipFormat::Glb, scene, clip, error);
}

} // namespace marionette::test
