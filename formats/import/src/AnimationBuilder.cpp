// Animation clips (Builder.h): keys in seconds, converted with each bone's left/right frame conversion.
#include "Builder.h"
#include "Text.h"

#include <algorithm>
#include <cmath>

namespace marionette::import::detail {
namespace {

constexpr double kDefaultTicksPerSecond = 25.;
/// Keys this close past a clip's end (ticks) are inside it: Assimp's validation allows the same.
constexpr double kKeyTimeTolerance = 1e-3;

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

/// A key of the file kept by the lenient checks, with its index in the file's list (for messages).
template <class Key>
struct Kept {
    std::size_t index = 0;
    Key key;
};

bool finiteValue(const Vec3& v) { return isFinite(v); }
bool finiteValue(const Quat& q)
{
    return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w);
}
std::string valueText(const Vec3& v) { return cat(v); }
std::string valueText(const Quat& q) { return cat('(', q.x, ", ", q.y, ", ", q.z, ", ", q.w, ')'); }

/// One kind of keys of a channel, repaired: non-finite keys (time in seconds or value) dropped, sorted by
/// time, one key per time (the last one the file gives for that time). Each repair is a fault with a warning
/// (BuildContext::repair).
template <class Key>
std::vector<Kept<Key>> repairKeys(const BuildContext& ctx, const std::vector<Key>& keys, const char* kind,
                                  const std::string& where, double ticksPerSecond)
{
    std::vector<Kept<Key>> kept;
    kept.reserve(keys.size());
    std::size_t nonFinite = 0, first = 0;
    for (std::size_t k = 0; k < keys.size(); ++k) {
        // A time finite in ticks but not as float seconds is as unusable as a NaN.
        if (std::isfinite(float(keys[k].time / ticksPerSecond)) && finiteValue(keys[k].value)) {
            kept.push_back({k, keys[k]});
        } else if (nonFinite++ == 0) {
            first = k;
        }
    }
    if (nonFinite > 0) {
        const std::string more = nonFinite > 1 ? cat(" (and ", nonFinite - 1, " more)") : std::string();
        ctx.repair(cat(where, ": ", kind, " key ", first, " at ", keys[first].time, " is not finite ",
                       valueText(keys[first].value), more),
                   nonFinite > 1 ? "dropped them" : "dropped it");
    }
    auto byTime = [](const Kept<Key>& a, const Kept<Key>& b) { return a.key.time < b.key.time; };
    const auto unsorted = std::is_sorted_until(kept.begin(), kept.end(), byTime);
    if (unsorted != kept.end()) {
        ctx.repair(cat(where, ": ", kind, " keys not in time order (key ", unsorted->index, " at ", unsorted->key.time,
                       " after key ", (unsorted - 1)->index, " at ", (unsorted - 1)->key.time, ')'),
                   "sorted");
        std::stable_sort(kept.begin(), kept.end(), byTime);
    }
    std::size_t duplicates = 0, firstDuplicate = 0;
    std::vector<Kept<Key>> unique;
    unique.reserve(kept.size());
    for (const Kept<Key>& k : kept) {
        if (!unique.empty() && unique.back().key.time == k.key.time) {
            if (duplicates++ == 0)
                firstDuplicate = unique.size() - 1;
            unique.back() = k; // the last key the file gives for a time wins
        } else {
            unique.push_back(k);
        }
    }
    if (duplicates > 0)
        ctx.repair(cat(where, ": ", duplicates, ' ', kind, " key(s) at the same time as an earlier one (key ",
                       unique[firstDuplicate].index, " at ", unique[firstDuplicate].key.time, ')'),
                   "the last key of each time kept");
    return unique;
}

/// A channel of a clip after the lenient checks, before conversion.
struct PendingChannel {
    std::int32_t bone = 0;
    std::string where;
    std::vector<Kept<RawVectorKey>> positions, scales;
    std::vector<Kept<RawRotationKey>> rotations;
};

/// The latest key time of a clip's channels and the first key past `end` (kind, channel, key), if any.
struct KeySpan {
    double last = 0.;
    std::size_t pastEnd = 0;
    const PendingChannel* channel = nullptr;
    const char* kind = nullptr;
    std::size_t index = 0;
    double time = 0.;
};

KeySpan keySpan(const std::vector<PendingChannel>& channels, double end)
{
    KeySpan span;
    auto visit = [&](const PendingChannel& ch, const char* kind, const auto& keys) {
        for (const auto& k : keys) {
            span.last = std::max(span.last, k.key.time);
            if (k.key.time > end + kKeyTimeTolerance && span.pastEnd++ == 0) {
                span.channel = &ch;
                span.kind = kind;
                span.index = k.index;
                span.time = k.key.time;
            }
        }
    };
    for (const PendingChannel& ch : channels) {
        visit(ch, "position", ch.positions);
        visit(ch, "rotation", ch.rotations);
        visit(ch, "scale", ch.scales);
    }
    return span;
}

void convertChannel(const PendingChannel& raw, const ChannelConverter& cv, const ImportedBoneInfo& info,
                    BoneChannel& out)
{
    for (const auto& k : raw.positions)
        out.positions.push_back({cv.seconds(k.key.time), cv.position(k.key.value)});
    for (const auto& k : raw.rotations)
        out.rotations.push_back({cv.seconds(k.key.time), cv.rotation(k.key.value)});
    for (const auto& k : raw.scales)
        out.scales.push_back({cv.seconds(k.key.time), cv.scale(k.key.value)});

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
        std::vector<std::int32_t> channelOfBone(out.skeleton.size(), -1);
        std::vector<PendingChannel> pending;
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
            channelOfBone[size_t(bone)] = std::int32_t(pending.size());
            PendingChannel p;
            p.bone = bone;
            p.where = cat("animation ", named(clip.name), " bone ", named(out.skeleton[size_t(bone)].name));
            p.positions = repairKeys(ctx, ch.positions, "position", p.where, clip.ticksPerSecond);
            p.rotations = repairKeys(ctx, ch.rotations, "rotation", p.where, clip.ticksPerSecond);
            p.scales = repairKeys(ctx, ch.scales, "scale", p.where, clip.ticksPerSecond);
            if (p.positions.empty() && p.rotations.empty() && p.scales.empty()) {
                ctx.repair(cat(p.where, ": the channel has no usable key"),
                           "channel dropped (the bone keeps its rest pose)");
                continue;
            }
            pending.push_back(std::move(p));
        }

        // The duration, in ticks: a number >= 0 that covers every key.
        double duration = anim.duration;
        const bool usable = std::isfinite(float(duration / clip.ticksPerSecond)) && duration >= 0.;
        const KeySpan span = keySpan(pending, usable ? duration : 0.);
        if (!usable) {
            ctx.repair(cat("animation ", named(clip.name), ": duration ", duration, " is not a finite number >= 0"),
                       cat("set to the last key's time ", span.last));
            duration = span.last;
        } else if (span.pastEnd > 0) {
            ctx.repair(cat(span.channel->where, ": ", span.kind, " key ", span.index, " at ", span.time,
                           " past the clip's end ", duration,
                           span.pastEnd > 1 ? cat(" (and ", span.pastEnd - 1, " more keys)") : std::string()),
                       cat("duration extended to ", span.last));
            duration = span.last;
        }
        clip.duration = float(duration / clip.ticksPerSecond);

        for (const PendingChannel& p : pending) {
            ChannelConverter cv;
            cv.left = left[size_t(p.bone)];
            cv.rightRotation = axisInverse;
            cv.rightScale = 1. / (ctx.scale * ctx.sigma[size_t(p.bone)]);
            cv.axis = &upAxisRotation(ctx.up);
            cv.ticksPerSecond = clip.ticksPerSecond;
            BoneChannel channel;
            channel.bone = p.bone;
            convertChannel(p, cv, out.boneInfo[size_t(p.bone)], channel);
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
