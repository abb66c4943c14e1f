// Animation clips (Builder.h): keys in seconds, converted with each bone's left/right frame conversion.
#include "Builder.h"
#include "Text.h"

#include <algorithm>
#include <cmath>

namespace marionette::import::detail {
namespace {

constexpr double kDefaultTicksPerSecond = 25.;

/// Where each source axis lands under the up-axis rotation (a signed permutation): scales permute.
Vec3 permuteScale(const Affine& rotation, Vec3 s)
{
    float out[3] = {1.f, 1.f, 1.f};
    const float in[3] = {s.x, s.y, s.z};
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r)
            if (std::fabs(rotation.l[r][c]) > 0.5)
                out[r] = in[c];
    return {out[0], out[1], out[2]};
}

template <class Key>
bool sortedByTime(const std::vector<Key>& keys)
{
    return std::is_sorted(keys.begin(), keys.end(), [](const Key& a, const Key& b) { return a.time < b.time; });
}

struct ChannelConverter {
    Similarity left;      ///< left = s·R·p + t
    Quat rightRotation;   ///< right = k · R_C⁻¹ (no translation)
    double rightScale = 1.;
    const Affine* axis = nullptr;
    double ticksPerSecond = 25.;

    Vec3 position(Vec3 p) const
    {
        return (V3d::of(left.rotation.rotate(p)) * left.scale + left.translation).toFloat();
    }
    Quat rotation(Quat q) const { return normalize(left.rotation * normalize(q) * rightRotation); }
    Vec3 scale(Vec3 s) const { return permuteScale(*axis, s) * float(left.scale * rightScale); }
    float seconds(double ticks) const { return float(ticks / ticksPerSecond); }
};

std::string convertChannel(const RawChannel& raw, const ChannelConverter& cv, const ImportedBoneInfo& info,
                           const std::string& where, BoneChannel& out)
{
    for (const auto& k : raw.positions)
        if (!std::isfinite(k.time) || !isFinite(k.value))
            return cat(where, ": position key at ", k.time, " is not finite");
    for (const auto& k : raw.rotations)
        if (!std::isfinite(k.time) || !std::isfinite(k.value.x) || !std::isfinite(k.value.y) ||
            !std::isfinite(k.value.z) || !std::isfinite(k.value.w))
            return cat(where, ": rotation key at ", k.time, " is not finite");
    for (const auto& k : raw.scales)
        if (!std::isfinite(k.time) || !isFinite(k.value))
            return cat(where, ": scale key at ", k.time, " is not finite");
    for (const auto& k : raw.positions)
        out.positions.push_back({cv.seconds(k.time), cv.position(k.value)});
    for (const auto& k : raw.rotations)
        out.rotations.push_back({cv.seconds(k.time), cv.rotation(k.value)});
    for (const auto& k : raw.scales)
        out.scales.push_back({cv.seconds(k.time), cv.scale(k.value)});

    // Kinds the file does not animate hold the rest value (glTF's rule for un-animated paths).
    Vec3 t, s;
    Quat r;
    decompose(Affine::fromMat4(info.restLocal), t, r, s);
    if (out.positions.empty())
        out.positions.push_back({0.f, t});
    if (out.rotations.empty())
        out.rotations.push_back({0.f, r});
    if (out.scales.empty())
        out.scales.push_back({0.f, s});
    auto byTime = [](const auto& a, const auto& b) { return a.time < b.time; };
    if (!sortedByTime(out.positions))
        std::stable_sort(out.positions.begin(), out.positions.end(), byTime);
    if (!sortedByTime(out.rotations))
        std::stable_sort(out.rotations.begin(), out.rotations.end(), byTime);
    if (!sortedByTime(out.scales))
        std::stable_sort(out.scales.begin(), out.scales.end(), byTime);
    return {};
}

} // namespace

std::string buildAnimations(BuildContext& ctx, ImportedScene& out)
{
    if (!ctx.options.animations)
        return {};
    const Quat axisInverse = toQuat(Mat3::fromColumns(upAxisRotation(ctx.up).column(0).toFloat(),
                                                      upAxisRotation(ctx.up).column(1).toFloat(),
                                                      upAxisRotation(ctx.up).column(2).toFloat()))
                                 .conjugate();
    std::vector<Similarity> left(out.skeleton.size());
    std::vector<std::string> approximate;
    for (size_t b = 0; b < out.skeleton.size(); ++b) {
        double residual = 0.;
        left[b] = toSimilarity(ctx.left[b], ctx.extentM, residual);
        if (residual > 1e-4)
            approximate.push_back(named(out.skeleton[b].name));
    }
    if (!approximate.empty())
        ctx.warn(cat("keys of ", approximate.size(), " bone(s) converted approximately (a parent node carries shear "
                     "or non-uniform scale), e.g. ", approximate.front()));

    const auto& raw = ctx.raw.animations;
    for (size_t a = 0; a < raw.size(); ++a) {
        if (ctx.stopped())
            return {};
        const RawAnimation& anim = raw[a];
        AnimationClip clip;
        clip.name = anim.name.empty() ? cat("animation", a) : anim.name;
        clip.ticksPerSecond = anim.ticksPerSecond > 0. && std::isfinite(anim.ticksPerSecond) ? anim.ticksPerSecond
                                                                                              : kDefaultTicksPerSecond;
        if (!std::isfinite(anim.duration) || anim.duration < 0.)
            return cat("animation ", named(clip.name), ": duration is not a finite number >= 0");
        clip.duration = float(anim.duration / clip.ticksPerSecond);
        std::vector<std::int32_t> channelOfBone(out.skeleton.size(), -1);
        size_t ignored = 0, duplicates = 0;
        for (const RawChannel& ch : anim.channels) {
            const auto node = ctx.nodeByName.find(ch.node);
            const std::int32_t bone = node == ctx.nodeByName.end() ? -1 : ctx.boneOfNode[size_t(node->second)];
            if (bone < 0) {
                ++ignored;
                continue;
            }
            if (channelOfBone[size_t(bone)] >= 0) {
                ++duplicates;
                continue;
            }
            ChannelConverter cv;
            cv.left = left[size_t(bone)];
            cv.rightRotation = axisInverse;
            cv.rightScale = 1. / (ctx.scale * ctx.sigma[size_t(bone)]);
            cv.axis = &upAxisRotation(ctx.up);
            cv.ticksPerSecond = clip.ticksPerSecond;
            BoneChannel channel;
            channel.bone = bone;
            const std::string where = cat("animation ", named(clip.name), " bone ", named(out.skeleton[size_t(bone)].name));
            if (std::string e = convertChannel(ch, cv, out.boneInfo[size_t(bone)], where, channel); !e.empty())
                return e;
            channelOfBone[size_t(bone)] = std::int32_t(clip.channels.size());
            clip.channels.push_back(std::move(channel));
        }
        std::sort(clip.channels.begin(), clip.channels.end(),
                  [](const BoneChannel& x, const BoneChannel& y) { return x.bone < y.bone; });
        if (ignored > 0)
            ctx.warn(cat("animation ", named(clip.name), ": ", ignored, " channel(s) animate nodes that are not bones; ignored"));
        if (duplicates > 0)
            ctx.warn(cat("animation ", named(clip.name), ": ", duplicates, " second channel(s) for one bone ignored"));
        if (clip.channels.empty()) {
            ctx.warn(cat("animation ", named(clip.name), " animates no bone; dropped"));
            continue;
        }
        out.animations.push_back(std::move(clip));
        if (ctx.progress)
            ctx.progress(float(a + 1) / float(raw.size()));
    }
    return {};
}

} // namespace marionette::import::detail
