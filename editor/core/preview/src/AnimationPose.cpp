// Sampling imported animation clips (AnimationPose.h).
#include "marionette/editor/preview/AnimationPose.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace marionette::editor {

namespace {

/// Index of the last key at or before t and the blend toward the next one.
template <typename Key>
void bracket(const std::vector<Key>& keys, float t, std::size_t& i, float& f)
{
    i = 0;
    f = 0.f;
    if (keys.size() < 2 || !(t > keys.front().time))
        return;
    if (t >= keys.back().time) {
        i = keys.size() - 1;
        return;
    }
    const auto it = std::upper_bound(keys.begin(), keys.end(), t, [](float v, const Key& k) { return v < k.time; });
    i = std::size_t(it - keys.begin()) - 1;
    const float span = keys[i + 1].time - keys[i].time;
    f = span > 0.f ? (t - keys[i].time) / span : 0.f;
}

Vec3 sample(const std::vector<import::VectorKey>& keys, float t, Vec3 fallback)
{
    if (keys.empty())
        return fallback;
    std::size_t i;
    float f;
    bracket(keys, t, i, f);
    return f > 0.f ? lerp(keys[i].value, keys[i + 1].value, f) : keys[i].value;
}

Quat sample(const std::vector<import::RotationKey>& keys, float t)
{
    if (keys.empty())
        return {};
    std::size_t i;
    float f;
    bracket(keys, t, i, f);
    return f > 0.f ? nlerp(keys[i].value, keys[i + 1].value, f) : normalize(keys[i].value);
}


} // namespace

std::vector<Mat4> sampleBoneWorld(const import::ImportedScene& scene, std::size_t clip, float t)
{
    if (clip >= scene.animations.size())
        return {};
    const import::AnimationClip& c = scene.animations[clip];
    const std::size_t n = scene.skeleton.size();
    std::vector<const import::BoneChannel*> channel(n, nullptr);
    for (const import::BoneChannel& ch : c.channels)
        if (ch.bone >= 0 && std::size_t(ch.bone) < n)
            channel[std::size_t(ch.bone)] = &ch;
    std::vector<Mat4> world(n);
    for (std::size_t b = 0; b < n; ++b) {
        Mat4 local;
        if (const import::BoneChannel* ch = channel[b]) {
            const Vec3 p = sample(ch->positions, t, {});
            const Quat q = sample(ch->rotations, t);
            const Vec3 s = sample(ch->scales, t, {1.f, 1.f, 1.f});
            const Mat3 r = toMat3(q);
            local = Mat4::fromRotationTranslation(Mat3::fromColumns(r.c[0] * s.x, r.c[1] * s.y, r.c[2] * s.z), p);
        } else {
            local = b < scene.boneInfo.size() ? scene.boneInfo[b].restLocal : scene.skeleton[b].bindLocal;
        }
        const std::int32_t parent = scene.skeleton[b].parent;
        world[b] = parent >= 0 && std::size_t(parent) < b ? world[std::size_t(parent)] * local : local;
    }
    return world;
}

std::vector<Mat4> animationPalette(const import::ImportedScene& scene, std::size_t clip, float t, float height)
{
    std::vector<Mat4> world = sampleBoneWorld(scene, clip, t);
    Mat4 raise;
    raise.m[13] = height;
    for (std::size_t b = 0; b < world.size(); ++b)
        world[b] = raise * world[b] * scene.skeleton[b].inverseBind;
    return world;
}

std::vector<std::int32_t> particleBones(const rig::RigDescription& rig, const import::ImportedScene& scene)
{
    std::vector<std::int32_t> out(rig.particles.size(), rig::kNone);
    if (scene.skeleton.empty())
        return out;
    for (std::size_t i = 0; i < rig.particles.size(); ++i) {
        const rig::Particle& p = rig.particles[i];
        if (p.bone >= 0 && std::size_t(p.bone) < rig.bones.size()) {
            out[i] = scene.findBone(rig.bones[std::size_t(p.bone)].name);
            if (out[i] != rig::kNone)
                continue;
        }
        // A particle without a bone of its own (a limb's end, a triangle's axis point) moves with the bone its
        // stick or triangle drives: the tip of the forearm stick turns with the forearm.
        for (const rig::BoneBinding& binding : rig.bindings) {
            if (binding.bone < 0 || std::size_t(binding.bone) >= rig.bones.size() || out[i] != rig::kNone)
                continue;
            bool drives = false;
            if (binding.driver == rig::BoneBinding::Driver::Stick && binding.index >= 0 && std::size_t(binding.index) < rig.sticks.size())
                drives = rig.sticks[std::size_t(binding.index)].a == std::int32_t(i) || rig.sticks[std::size_t(binding.index)].b == std::int32_t(i);
            else if (binding.driver == rig::BoneBinding::Driver::Triangle && binding.index >= 0 && std::size_t(binding.index) < rig.triangles.size())
                for (std::int32_t corner : rig.triangles[std::size_t(binding.index)].p)
                    drives = drives || corner == std::int32_t(i);
            if (drives)
                out[i] = scene.findBone(rig.bones[std::size_t(binding.bone)].name);
        }
        if (out[i] != rig::kNone)
            continue;
        float best = std::numeric_limits<float>::infinity();
        for (std::size_t b = 0; b < scene.skeleton.size(); ++b) {
            const float d = lengthSquared(scene.skeleton[b].bindWorld.translation() - p.position);
            if (d < best) {
                best = d;
                out[i] = std::int32_t(b);
            }
        }
    }
    return out;
}

std::vector<Vec3> posedParticles(const rig::RigDescription& rig, const import::ImportedScene& scene,
                                 const std::vector<std::int32_t>& bones, const std::vector<Mat4>& boneWorld)
{
    std::vector<Vec3> out(rig.particles.size());
    for (std::size_t i = 0; i < out.size(); ++i) {
        const std::int32_t b = i < bones.size() ? bones[i] : rig::kNone;
        const Vec3 p = rig.particles[i].position;
        if (b < 0 || std::size_t(b) >= boneWorld.size() || std::size_t(b) >= scene.skeleton.size()) {
            out[i] = p;
            continue;
        }
        out[i] = (boneWorld[std::size_t(b)] * scene.skeleton[std::size_t(b)].inverseBind).transformPoint(p);
    }
    return out;
}

} // namespace marionette::editor
