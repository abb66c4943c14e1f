// Fitting angular limits to animation clips (LimitFit.h).
#include "marionette/editor/preview/LimitFit.h"

#include "marionette/editor/preview/AnimationPose.h"
#include "marionette/runtime/AngularDeviation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace marionette::editor {

namespace {

/// Longest clip sampled: more frames than this at the sample rate is refused, not allocated.
constexpr double kMaxFrames = 1e6;

bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
bool finite(Quat q) { return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w); }

/// "clip 'walk': bone 'arm': rotation key 3 is not finite", or empty.
std::string nonFiniteKey(const import::ImportedScene& scene, const import::AnimationClip& clip)
{
    const std::string prefix = "clip '" + clip.name + "': ";
    if (!std::isfinite(clip.duration) || clip.duration < 0.f)
        return prefix + "its duration is not a finite number of seconds";
    for (const import::BoneChannel& ch : clip.channels) {
        const std::string bone = ch.bone >= 0 && std::size_t(ch.bone) < scene.skeleton.size()
                                     ? "bone '" + scene.skeleton[std::size_t(ch.bone)].name + "': "
                                     : "bone " + std::to_string(ch.bone) + ": ";
        auto check = [&](const auto& keys, const char* kind) -> std::string {
            for (std::size_t k = 0; k < keys.size(); ++k)
                if (!std::isfinite(keys[k].time) || !finite(keys[k].value))
                    return prefix + bone + kind + " key " + std::to_string(k) + " is not finite";
            return {};
        };
        for (const std::string& e : {check(ch.positions, "position"), check(ch.rotations, "rotation"),
                                     check(ch.scales, "scale")})
            if (!e.empty())
                return e;
    }
    return {};
}

/// Whether the clip turns any bone between the bones of the joint's particles and their lowest common
/// ancestor (a channel on the ancestor itself or above moves both triangles together).
bool clipMovesJoint(const import::ImportedScene& scene, const std::vector<char>& animated,
                    const std::vector<std::int32_t>& bones)
{
    std::vector<std::int32_t> chains[6];
    std::size_t n = 0;
    for (std::int32_t b : bones) {
        if (b < 0 || n == 6)
            continue;
        for (std::int32_t k = b; k >= 0 && std::size_t(k) < scene.skeleton.size(); k = scene.skeleton[std::size_t(k)].parent) {
            chains[n].push_back(k);
            if (chains[n].size() > scene.skeleton.size())
                break; // a cycle cannot happen in an imported skeleton; stay finite anyway
        }
        ++n;
    }
    if (n == 0)
        return false;
    // The lowest common ancestor: the first bone of chain 0 (root-most last) on every other chain.
    std::int32_t lca = -1;
    for (std::int32_t candidate : chains[0]) {
        bool onAll = true;
        for (std::size_t i = 1; i < n && onAll; ++i)
            onAll = std::find(chains[i].begin(), chains[i].end(), candidate) != chains[i].end();
        if (onAll) {
            lca = candidate;
            break;
        }
    }
    for (std::size_t i = 0; i < n; ++i)
        for (std::int32_t b : chains[i]) {
            if (b == lca)
                break;
            if (animated[std::size_t(b)])
                return true;
        }
    return false;
}

/// Observations of one joint over all frames.
struct Observed {
    std::size_t frames = 0, outside = 0;
    float maxAngle = 0.f, twistMin = 0.f, twistMax = 0.f, swing1 = 0.f, swing2 = 0.f;
    std::vector<float> a, b; ///< swing points (swing1, swing2 components)
    bool covered = false;
};

/// The smallest semi-axes along (swing1, swing2) proportional to the observed per-axis maxima whose ellipse
/// holds every point, each + margin, at most π.
void fitSwing(const Observed& o, float margin, float& s1, float& s2)
{
    constexpr float kFloor = 1e-4f; // the runtime's lock threshold: a narrower axis is locked at 0
    const float ea = std::max(o.swing1, kFloor), eb = std::max(o.swing2, kFloor);
    float k = 1.f;
    for (std::size_t i = 0; i < o.a.size(); ++i)
        k = std::max(k, std::sqrt((o.a[i] / ea) * (o.a[i] / ea) + (o.b[i] / eb) * (o.b[i] / eb)));
    s1 = std::min(k * ea + margin, kPi);
    s2 = std::min(k * eb + margin, kPi);
}

/// Degrees to one decimal, "0.0" rather than "-0.0".
std::string deg(float radians)
{
    const double tenths = std::round(double(degrees(radians)) * 10.0);
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", tenths == 0.0 ? 0.0 : tenths / 10.0);
    return text;
}

} // namespace

const char* limitKindName(const JointFit& joint)
{
    if (joint.previous.limit == rig::AngularLimit::Cone)
        return "cone";
    return joint.hinge ? "hinge" : "swing/twist";
}

const char* fitStatusName(JointFit::Status status)
{
    switch (status) {
    case JointFit::Status::Fitted: return "fitted";
    case JointFit::Status::NotCovered: return "not covered";
    case JointFit::Status::Skipped: return "skipped";
    }
    return "";
}

std::string limitText(const rig::AngularConstraint& c, bool hinge)
{
    if (c.limit == rig::AngularLimit::Cone)
        return "cone " + deg(c.coneAngle);
    std::string s = "twist " + deg(c.twistMin) + ".." + deg(c.twistMax);
    if (!hinge)
        s += ", swing " + deg(c.swing1) + " x " + deg(c.swing2);
    return s;
}

std::string observedText(const JointFit& joint)
{
    if (joint.frames == 0)
        return {};
    if (joint.previous.limit == rig::AngularLimit::Cone)
        return deg(joint.maxAngle);
    std::string s = "twist " + deg(joint.twistMin) + ".." + deg(joint.twistMax);
    if (!joint.hinge)
        s += ", swing " + deg(joint.swing1Max) + " x " + deg(joint.swing2Max);
    return s;
}

std::vector<rig::AngularConstraint> LimitFitResult::changed() const
{
    std::vector<rig::AngularConstraint> out;
    for (const JointFit& j : joints)
        if (j.status == JointFit::Status::Fitted &&
            (j.fitted.coneAngle != j.previous.coneAngle || j.fitted.twistMin != j.previous.twistMin ||
             j.fitted.twistMax != j.previous.twistMax || j.fitted.swing1 != j.previous.swing1 ||
             j.fitted.swing2 != j.previous.swing2))
            out.push_back(j.fitted);
    return out;
}

std::vector<float> limitFitTimes(const import::AnimationClip& clip, float rate)
{
    std::vector<float> times;
    const float end = std::isfinite(clip.duration) ? std::max(clip.duration, 0.f) : 0.f;
    for (const import::BoneChannel& ch : clip.channels) {
        for (const import::VectorKey& k : ch.positions)
            times.push_back(k.time);
        for (const import::RotationKey& k : ch.rotations)
            times.push_back(k.time);
        for (const import::VectorKey& k : ch.scales)
            times.push_back(k.time);
    }
    if (rate > 0.f && std::isfinite(rate)) {
        const double count = std::min(std::floor(double(end) * rate), kMaxFrames);
        for (double k = 0; k <= count; ++k)
            times.push_back(float(k / rate));
    }
    std::erase_if(times, [&](float t) { return !(t >= 0.f && t <= end); });
    if (times.empty())
        times.push_back(0.f);
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    return times;
}

bool fitLimits(const rig::RigDescription& rig, const std::vector<LimitFitClip>& clips, const LimitFitOptions& options,
               LimitFitResult& out, std::string& error)
{
    if (!(options.margin >= 0.f && options.margin <= 0.5f * kPi + 1e-6f)) {
        error = "the margin must be within [0, 90] degrees";
        return false;
    }
    if (!(options.sampleRate > 0.f && options.sampleRate <= 1000.f)) {
        error = "the sample rate must be within (0, 1000] frames per second";
        return false;
    }
    if (clips.empty()) {
        error = "no clip to fit the limits to";
        return false;
    }
    if (rig.bones.empty()) {
        error = "the rig has no bones to match the clips' bones to";
        return false;
    }
    std::string why;
    const std::shared_ptr<const runtime::Rig> compiled = runtime::Rig::build(rig, &why);
    if (!compiled) {
        error = "the rig is not valid: " + why;
        return false;
    }
    for (const LimitFitClip& c : clips) {
        if (!c.scene || c.clip >= c.scene->animations.size()) {
            error = c.source + ": no clip " + std::to_string(c.clip);
            return false;
        }
        const bool shares = std::any_of(rig.bones.begin(), rig.bones.end(),
                                        [&](const rig::Bone& b) { return c.scene->findBone(b.name) != rig::kNone; });
        if (!shares) {
            error = c.source + ": shares no bone name with the rig";
            return false;
        }
        if (const std::string bad = nonFiniteKey(*c.scene, c.scene->animations[c.clip]); !bad.empty()) {
            error = c.source + ": " + bad;
            return false;
        }
        if (double(c.scene->animations[c.clip].duration) * options.sampleRate > kMaxFrames) {
            error = c.source + ": clip '" + c.scene->animations[c.clip].name + "' is too long to sample";
            return false;
        }
    }

    const std::size_t count = rig.angular.size();
    const auto data = compiled->angular();
    std::vector<Observed> seen(count);
    std::size_t framesSampled = 0;
    for (const LimitFitClip& c : clips) {
        const import::ImportedScene& scene = *c.scene;
        const import::AnimationClip& clip = scene.animations[c.clip];
        const std::vector<std::int32_t> bones = particleBones(rig, scene);
        std::vector<char> animated(scene.skeleton.size(), 0);
        for (const import::BoneChannel& ch : clip.channels)
            if (ch.bone >= 0 && std::size_t(ch.bone) < animated.size())
                animated[std::size_t(ch.bone)] = 1;
        std::vector<std::size_t> joints;
        for (std::size_t i = 0; i < count; ++i) {
            const rig::AngularConstraint& a = rig.angular[i];
            std::vector<std::int32_t> jointBones;
            for (std::int32_t t : {a.triangleA, a.triangleB})
                for (std::int32_t p : rig.triangles[std::size_t(t)].p)
                    jointBones.push_back(bones[std::size_t(p)]);
            if (clipMovesJoint(scene, animated, jointBones)) {
                joints.push_back(i);
                seen[i].covered = true;
            }
        }
        for (float t : limitFitTimes(clip, options.sampleRate)) {
            ++framesSampled;
            if (joints.empty())
                continue;
            const std::vector<Vec3> x = posedParticles(rig, scene, bones, sampleBoneWorld(scene, c.clip, t));
            for (std::size_t i : joints) {
                const runtime::AngularData& d = data[i];
                const auto& ta = compiled->triangles()[d.triA].p;
                const auto& tb = compiled->triangles()[d.triB].p;
                Mat3 fa, fb;
                if (!runtime::Rig::triangleFrame(x[ta[0]], x[ta[1]], x[ta[2]], fa) ||
                    !runtime::Rig::triangleFrame(x[tb[0]], x[tb[1]], x[tb[2]], fb))
                    continue;
                const runtime::AngularDeviation dev =
                    runtime::angularDeviation(d, toQuatOrthonormal(fa), toQuatOrthonormal(fb));
                Observed& o = seen[i];
                if (o.frames == 0) {
                    o.twistMin = o.twistMax = dev.twist;
                } else {
                    o.twistMin = std::min(o.twistMin, dev.twist);
                    o.twistMax = std::max(o.twistMax, dev.twist);
                }
                ++o.frames;
                o.maxAngle = std::max(o.maxAngle, dev.angle);
                o.swing1 = std::max(o.swing1, std::fabs(dev.swing1));
                o.swing2 = std::max(o.swing2, std::fabs(dev.swing2));
                o.a.push_back(dev.swing1);
                o.b.push_back(dev.swing2);
                if (runtime::angularExcess(d, dev) > kLimitFitTolerance)
                    ++o.outside;
            }
        }
    }

    LimitFitResult result;
    result.framesSampled = framesSampled;
    result.constraints = rig.angular;
    for (std::size_t i = 0; i < count; ++i) {
        const Observed& o = seen[i];
        JointFit j;
        j.index = i;
        j.name = rig.angular[i].name;
        j.id = rig.angular[i].id;
        j.hinge = data[i].hinge;
        j.previous = j.fitted = rig.angular[i];
        j.frames = o.frames;
        j.framesOutside = o.outside;
        j.maxAngle = o.maxAngle;
        j.twistMin = o.twistMin;
        j.twistMax = o.twistMax;
        j.swing1Max = o.swing1;
        j.swing2Max = o.swing2;
        if (!o.covered) {
            j.status = JointFit::Status::NotCovered;
            j.note = "not covered: no clip moves a bone between its triangles";
        } else if (o.frames > 0 && o.maxAngle <= kLimitFitTolerance) {
            // The clips animate bones around it, but none turns one triangle against the other (a bone's own
            // rotation does not move the particle at its head): no range to fit.
            j.status = JointFit::Status::NotCovered;
            j.note = "not covered: no clip turns it from its rest pose";
        } else if (o.frames == 0) {
            j.status = JointFit::Status::Skipped;
            j.note = "skipped: its triangles are degenerate in every frame";
        } else {
            j.status = JointFit::Status::Fitted;
            rig::AngularConstraint& f = j.fitted;
            const float m = options.margin;
            if (f.limit == rig::AngularLimit::Cone) {
                f.coneAngle = std::min(o.maxAngle + m, kPi);
            } else {
                f.twistMin = std::max(std::min(o.twistMin, 0.f) - m, -kPi);
                f.twistMax = std::min(std::max(o.twistMax, 0.f) + m, kPi);
                if (j.hinge)
                    j.note = "hinge: twist fitted; its shared edge holds the swing (swing limits kept)";
                else
                    fitSwing(o, m, f.swing1, f.swing2);
            }
            result.constraints[i] = f;
        }
        result.joints.push_back(std::move(j));
    }
    out = std::move(result);
    return true;
}

} // namespace marionette::editor
