// Rig transfer (RigTransfer.h; docs/autorig.md, "Rig transfer"): bone pairing, bone-relative particle
// placement with skin radii, and the elements carried over with their ids.
#include "marionette/editor/autorig/RigTransfer.h"

#include "marionette/editor/autorig/AutoRigSupport.h"
#include "marionette/editor/autorig/BoneNames.h"
#include "marionette/editor/autorig/HumanoidMapping.h"

#include "marionette/runtime/Rig.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace marionette::editor {

namespace {

using autorig::quantile;

constexpr float kWindow = 0.25f;        ///< half-width, in bone lengths, of the vertices measured for a radius
constexpr std::size_t kMinVertices = 4; ///< fewer near the parameter: the bone's vertices at any parameter
constexpr float kFallbackRadius = 0.2f; ///< skin radius of a bone without vertices, in bone lengths
constexpr float kRatioSpread = 2.f;     ///< skin ratios kept within this factor of the bone's length ratio

Vec3 jointOf(const rig::Bone& b) { return {b.bindWorld.m[12], b.bindWorld.m[13], b.bindWorld.m[14]}; }
Vec3 column(const rig::Bone& b, int c) { return {b.bindWorld.m[c * 4], b.bindWorld.m[c * 4 + 1], b.bindWorld.m[c * 4 + 2]}; }

/// A bone as a line: head, unit direction, length, and the vertices it skins most.
struct BoneAxis {
    Vec3 head, dir;
    float length = 0.f;
    const std::vector<Vec3>* vertices = nullptr;

    Vec3 tail() const { return head + dir * length; }
    /// Median distance to the line of the vertices within kWindow of parameter t (all of them when too few
    /// are), or -1 when there are none.
    float skinRadius(float t) const
    {
        if (!vertices || vertices->empty())
            return -1.f;
        std::vector<float> near, all;
        for (const Vec3& v : *vertices) {
            const Vec3 d = v - head;
            const float along = dot(d, dir);
            const float r = marionette::length(d - dir * along);
            all.push_back(r);
            if (std::fabs(along / length - t) <= kWindow)
                near.push_back(r);
        }
        const float r = quantile(near.size() >= kMinVertices ? near : all, 0.5f);
        return r > 1e-4f ? r : -1.f;
    }
};

/// The axis of `bone` of `bones`: toward the joint of `tail` (a bone index) when given, else a leaf's:
/// along the direction from its parent's joint (its own Y axis for a root), as long as its vertices reach.
BoneAxis boneAxis(const std::vector<rig::Bone>& bones, std::int32_t bone, std::int32_t tail,
                  const std::vector<Vec3>* vertices)
{
    BoneAxis a;
    const rig::Bone& b = bones[std::size_t(bone)];
    a.head = jointOf(b);
    a.vertices = vertices;
    const Vec3 yAxis = normalizeOr(column(b, 1), {0, 1, 0});
    if (tail != rig::kNone && length(jointOf(bones[std::size_t(tail)]) - a.head) > 1e-5f) {
        const Vec3 d = jointOf(bones[std::size_t(tail)]) - a.head;
        a.length = length(d);
        a.dir = d / a.length;
    } else {
        float parentLength = 0.f;
        a.dir = yAxis;
        if (b.parent != rig::kNone) {
            const Vec3 d = a.head - jointOf(bones[std::size_t(b.parent)]);
            parentLength = length(d);
            a.dir = normalizeOr(d, yAxis);
        }
        std::vector<float> reach;
        if (vertices)
            for (const Vec3& v : *vertices)
                reach.push_back(dot(v - a.head, a.dir));
        a.length = quantile(reach, 0.97f);
        if (!(a.length > 1e-3f))
            a.length = parentLength > 1e-3f ? 0.5f * parentLength : 0.1f;
    }
    return a;
}

/// The character's own axes as a rotation (columns left, up, forward): for a skeleton mapHumanoid() reads
/// completely, up from the pelvis to the head and left across the hips and shoulders (as the humanoid
/// template measures them); the model's axes otherwise. Radial offsets are carried in these axes, so they
/// do not depend on how each skeleton rolls its bones.
Mat3 bodyFrame(const std::vector<rig::Bone>& bones, const HumanoidMapping& m, bool humanoid)
{
    if (!humanoid)
        return {};
    auto joint = [&](HumanoidPart p) { return jointOf(bones[std::size_t(m[p])]); };
    const Vec3 up = normalizeOr(joint(HumanoidPart::Head) - joint(HumanoidPart::Pelvis), {0, 1, 0});
    const Vec3 across = normalizeOr(joint(HumanoidPart::ThighL) - joint(HumanoidPart::ThighR), {}) +
                        normalizeOr(joint(HumanoidPart::UpperArmL) - joint(HumanoidPart::UpperArmR), {});
    const Vec3 left = normalizeOr(across - up * dot(across, up), anyPerpendicular(up));
    return Mat3::fromColumns(left, up, cross(left, up));
}

/// Pairs source bones with target bones: the map, then equal names, then the humanoid parts, then the
/// bone-name scheme (same key, side and number, one candidate).
struct Pairing {
    std::vector<std::int32_t> toTarget;   ///< per source bone, kNone when unpaired
    std::vector<std::int32_t> fromTarget; ///< per target bone
    std::vector<const char*> how;
    std::string error;
    HumanoidMapping hs, ht; ///< each skeleton's humanoid parts

    Pairing(const std::vector<rig::Bone>& src, const std::vector<rig::Bone>& dst, const RigTransferOptions& options)
        : toTarget(src.size(), rig::kNone), fromTarget(dst.size(), rig::kNone), how(src.size(), "")
    {
        auto find = [](const std::vector<rig::Bone>& bones, const std::string& name) {
            for (std::size_t i = 0; i < bones.size(); ++i)
                if (bones[i].name == name)
                    return std::int32_t(i);
            return rig::kNone;
        };
        for (const auto& [s, t] : options.boneMap) {
            const std::int32_t a = find(src, s), b = find(dst, t);
            if (a == rig::kNone) {
                error = "map: the rig has no bone '" + s + "'";
                return;
            }
            if (b == rig::kNone) {
                error = "map: the target has no bone '" + t + "'";
                return;
            }
            if (toTarget[std::size_t(a)] != rig::kNone || fromTarget[std::size_t(b)] != rig::kNone) {
                error = "map: bone '" + (toTarget[std::size_t(a)] != rig::kNone ? s : t) + "' is mapped twice";
                return;
            }
            pair(a, b, "map");
        }
        for (std::size_t i = 0; i < src.size(); ++i)
            if (toTarget[i] == rig::kNone)
                if (const std::int32_t b = find(dst, src[i].name); b != rig::kNone && fromTarget[std::size_t(b)] == rig::kNone)
                    pair(std::int32_t(i), b, "name");
        hs = mapHumanoid(src);
        ht = mapHumanoid(dst);
        for (std::size_t p = 0; p < kHumanoidPartCount; ++p)
            pairIfFree(hs.bones[p], ht.bones[p], "humanoid");
        for (const auto& [cs, ct] : {std::pair{&hs.spine, &ht.spine}, std::pair{&hs.neck, &ht.neck},
                                     std::pair{&hs.clavicleL, &ht.clavicleL}, std::pair{&hs.clavicleR, &ht.clavicleR}}) {
            if (cs->size() == ct->size()) {
                for (std::size_t k = 0; k < cs->size(); ++k)
                    pairIfFree((*cs)[k], (*ct)[k], "humanoid");
            } else if (!cs->empty() && !ct->empty()) {
                pairIfFree(cs->front(), ct->front(), "humanoid");
                pairIfFree(cs->back(), ct->back(), "humanoid");
            }
        }
        std::vector<autorig::ParsedName> names;
        for (const rig::Bone& b : dst)
            names.push_back(autorig::parseBoneName(b.name));
        for (std::size_t i = 0; i < src.size(); ++i) {
            if (toTarget[i] != rig::kNone)
                continue;
            const autorig::ParsedName n = autorig::parseBoneName(src[i].name);
            if (n.key.empty())
                continue;
            std::int32_t only = rig::kNone;
            int count = 0;
            for (std::size_t j = 0; j < dst.size(); ++j)
                if (fromTarget[j] == rig::kNone && names[j].key == n.key && names[j].side == n.side &&
                    names[j].number == n.number) {
                    only = std::int32_t(j);
                    ++count;
                }
            if (count == 1)
                pair(std::int32_t(i), only, "scheme");
        }
    }

private:
    void pair(std::int32_t s, std::int32_t t, const char* h)
    {
        toTarget[std::size_t(s)] = t;
        fromTarget[std::size_t(t)] = s;
        how[std::size_t(s)] = h;
    }
    void pairIfFree(std::int32_t s, std::int32_t t, const char* h)
    {
        if (s != rig::kNone && t != rig::kNone && toTarget[std::size_t(s)] == rig::kNone &&
            fromTarget[std::size_t(t)] == rig::kNone)
            pair(s, t, h);
    }
};

Mat3 frameOf(const rig::RigDescription& d, const std::vector<Vec3>& pos, std::int32_t triangle, bool* ok)
{
    Mat3 m;
    const rig::Triangle& t = d.triangles[std::size_t(triangle)];
    *ok = runtime::Rig::triangleFrame(pos[std::size_t(t.p[0])], pos[std::size_t(t.p[1])], pos[std::size_t(t.p[2])], m) && *ok;
    return m;
}

} // namespace

RigTransferResult transferRig(const rig::RigDescription& source, const AutoRigInput& sourceMesh,
                              const AutoRigInput& target, const RigTransferOptions& options)
{
    RigTransferResult out;
    auto refuse = [&](std::string e) {
        out.error = std::move(e);
        out.rig = {};
        return out;
    };
    if (options.totalMass && (!std::isfinite(*options.totalMass) || !(*options.totalMass > 0.f) || *options.totalMass > 1e6f))
        return refuse("total mass must be a finite number of kilograms above 0 (at most 1e6)");
    if (std::string e = source.validate(); !e.empty())
        return refuse("rig: " + e);
    if (source.bones.empty())
        return refuse("rig: it has no skeleton to transfer from");
    // The two characters' skeletons, checked and prepared as the auto-rig does.
    std::vector<rig::Bone> srcMeshBones, dst;
    std::vector<std::string> notes;
    AutoRigInput check = sourceMesh;
    check.totalMass = 75.f;
    if (std::string e = prepareAutoRigSkeleton(check, srcMeshBones, notes); !e.empty())
        return refuse("source mesh: " + e);
    check = target;
    check.totalMass = 75.f;
    if (std::string e = prepareAutoRigSkeleton(check, dst, notes); !e.empty())
        return refuse("target: " + e);

    const std::vector<rig::Bone>& src = source.bones;
    std::vector<const std::vector<Vec3>*> srcVertices(src.size(), nullptr), dstVertices(dst.size(), nullptr);
    for (std::size_t i = 0; i < src.size(); ++i)
        for (std::size_t j = 0; j < srcMeshBones.size() && j < sourceMesh.boneVertices.size(); ++j)
            if (srcMeshBones[j].name == src[i].name)
                srcVertices[i] = &sourceMesh.boneVertices[j];
    for (std::size_t j = 0; j < dst.size() && j < target.boneVertices.size(); ++j)
        dstVertices[j] = &target.boneVertices[j];

    const Pairing pairing(src, dst, options);
    if (!pairing.error.empty())
        return refuse(pairing.error);
    const auto& map = pairing.toTarget;
    if (std::all_of(map.begin(), map.end(), [](std::int32_t t) { return t == rig::kNone; }))
        return refuse("no bone of the target matches a bone of the rig (by name, map, humanoid parts or bone-name "
                      "scheme)");
    for (std::size_t i = 0; i < src.size(); ++i) {
        if (map[i] == rig::kNone)
            out.unmappedSource.push_back(src[i].name);
        else
            out.pairs.push_back({src[i].name, dst[std::size_t(map[i])].name, pairing.how[i]});
    }
    for (std::size_t j = 0; j < dst.size(); ++j)
        if (pairing.fromTarget[j] == rig::kNone)
            out.unmappedTarget.push_back(dst[j].name);

    // Each paired bone's axis on both sides: toward the farthest paired child; toward the farthest child when
    // none is paired (on the target: turned and scaled as its parent bone was); else as a leaf.
    const bool humanoid = pairing.hs.complete() && pairing.ht.complete();
    const Mat3 srcBody = bodyFrame(src, pairing.hs, humanoid), dstBody = bodyFrame(dst, pairing.ht, humanoid);
    /// A direction of the source in the target's body, turned as the source bone `b`'s axis turned.
    auto turnLike = [&](const BoneAxis& s, const BoneAxis& t, Vec3 v) {
        return dstBody * rotationBetween(srcBody.transposeMul(s.dir), dstBody.transposeMul(t.dir)).rotate(srcBody.transposeMul(v));
    };
    const std::size_t nb = src.size();
    std::vector<BoneAxis> sAxis(nb), tAxis(nb);
    for (std::size_t i = 0; i < nb; ++i) {
        if (map[i] == rig::kNone)
            continue;
        std::int32_t tail = rig::kNone, anyTail = rig::kNone;
        float farthest = 0.f, farthestAny = 0.f;
        for (std::size_t c = 0; c < nb; ++c)
            if (src[c].parent == std::int32_t(i)) {
                const float d = length(jointOf(src[c]) - jointOf(src[i]));
                if (d > farthestAny) {
                    farthestAny = d;
                    anyTail = std::int32_t(c);
                }
                if (map[c] != rig::kNone && d > farthest) {
                    farthest = d;
                    tail = std::int32_t(c);
                }
            }
        const std::int32_t parent = src[i].parent;
        if (tail == rig::kNone && anyTail != rig::kNone && parent != rig::kNone && map[std::size_t(parent)] != rig::kNone) {
            // The source bone ends at a child the target lacks (a hand bone without its counterpart): the target's
            // end is where the parent bone's turn and scale take the source's.
            sAxis[i] = boneAxis(src, std::int32_t(i), anyTail, srcVertices[i]);
            tAxis[i] = boneAxis(dst, map[i], rig::kNone, dstVertices[std::size_t(map[i])]);
            const BoneAxis &sp = sAxis[std::size_t(parent)], &tp = tAxis[std::size_t(parent)];
            tAxis[i].dir = normalizeOr(turnLike(sp, tp, sAxis[i].dir), tAxis[i].dir);
            tAxis[i].length = sAxis[i].length * tp.length / sp.length;
            out.notes.push_back(src[i].name + ": its child " + src[std::size_t(anyTail)].name +
                                " has no counterpart: its end placed as its parent bone's length and turn say");
            continue;
        }
        sAxis[i] = boneAxis(src, std::int32_t(i), tail, srcVertices[i]);
        tAxis[i] = boneAxis(dst, map[i], tail == rig::kNone ? rig::kNone : map[std::size_t(tail)],
                            dstVertices[std::size_t(map[i])]);
    }

    // Bones each particle's triangles and sticks drive (through the bindings).
    const std::size_t np = source.particles.size();
    std::vector<std::vector<std::int32_t>> driven(np);
    for (const rig::BoneBinding& b : source.bindings) {
        std::vector<std::int32_t> ps;
        if (b.driver == rig::BoneBinding::Driver::Triangle)
            ps.assign(std::begin(source.triangles[std::size_t(b.index)].p), std::end(source.triangles[std::size_t(b.index)].p));
        else
            ps = {source.sticks[std::size_t(b.index)].a, source.sticks[std::size_t(b.index)].b};
        for (std::int32_t p : ps)
            driven[std::size_t(p)].push_back(b.bone);
    }
    auto nearest = [&](Vec3 p, const std::vector<std::int32_t>& bones) {
        std::int32_t best = rig::kNone;
        float bestD = 0.f;
        for (std::int32_t b : bones) {
            if (map[std::size_t(b)] == rig::kNone)
                continue;
            const float d = autorig::distanceToSegment(p, sAxis[std::size_t(b)].head, sAxis[std::size_t(b)].tail());
            if (best == rig::kNone || d < bestD - 1e-5f || (d < bestD + 1e-5f && b < best)) {
                best = b;
                bestD = d;
            }
        }
        return best;
    };
    std::vector<std::int32_t> allBones(nb);
    for (std::size_t i = 0; i < nb; ++i)
        allBones[i] = std::int32_t(i);

    out.rig = source;
    rig::RigDescription& d = out.rig;
    std::vector<Vec3> before(np), after(np);
    std::vector<float> ratio(np, 1.f);
    for (std::size_t i = 0; i < np; ++i) {
        const rig::Particle& sp = source.particles[i];
        const Vec3 p = sp.position;
        before[i] = p;
        std::int32_t anchor = rig::kNone;
        if (sp.bone != rig::kNone && map[std::size_t(sp.bone)] != rig::kNone) {
            anchor = sp.bone;
        } else {
            const std::string lost =
                sp.bone != rig::kNone ? ", its bone " + src[std::size_t(sp.bone)].name + " has no counterpart" : std::string();
            if ((anchor = nearest(p, driven[i])) != rig::kNone) {
                if (!lost.empty())
                    out.fallbacks.push_back(sp.name + ": anchored to the bone its triangle or stick drives (" +
                                            src[std::size_t(anchor)].name + ")" + lost);
            } else {
                anchor = nearest(p, allBones);
                out.fallbacks.push_back(sp.name + ": anchored to the nearest bone segment (" + src[std::size_t(anchor)].name +
                                        ")" + lost);
            }
        }
        const BoneAxis& a = sAxis[std::size_t(anchor)];
        const BoneAxis& b = tAxis[std::size_t(anchor)];
        const Vec3 off = p - a.head;
        const float along = dot(off, a.dir);
        const float t = along / a.length;
        const Vec3 radial = off - a.dir * along;
        float ra = a.skinRadius(t), rb = b.skinRadius(t);
        if (ra < 0.f || rb < 0.f) {
            ra = kFallbackRadius * a.length;
            rb = kFallbackRadius * b.length;
            if (length(radial) > 1e-4f)
                out.fallbacks.push_back(sp.name + ": no skinned vertices around " + src[std::size_t(anchor)].name +
                                        " on one side: its offset from the bone scaled by the bone's length");
        }
        // A skin ratio far from the bone's length ratio is a different build of body there (a hip bone whose
        // vertices take in the buttock), not a wider limb: held within a factor of kRatioSpread of it.
        const float lengthRatio = b.length / a.length, skin = rb / ra;
        const float k = std::clamp(skin, lengthRatio / kRatioSpread, lengthRatio * kRatioSpread);
        if (k != skin)
            out.notes.push_back(sp.name + ": the skin around " + dst[std::size_t(map[std::size_t(anchor)])].name + " is " +
                                std::to_string(skin).substr(0, 4) + " times the rig's, its bone " +
                                std::to_string(lengthRatio).substr(0, 4) + " times as long: offset and radius scaled by " +
                                std::to_string(k).substr(0, 4));
        // The radial offset in the body's axes, turned by the least rotation from the source bone's direction
        // to the target's, scaled by the skin radii.
        after[i] = b.head + b.dir * (t * b.length) + turnLike(a, b, radial) * k;
        ratio[i] = k;
        rig::Particle& q = d.particles[i];
        q.position = after[i];
        q.radius = sp.radius * ratio[i];
        q.bone = sp.bone == rig::kNone ? rig::kNone : map[std::size_t(sp.bone)];
        out.largestMove = std::max(out.largestMove, length(after[i] - p));
    }

    // Masses to the total.
    double sum = 0.;
    for (const rig::Particle& q : source.particles)
        sum += double(q.mass);
    const double total = options.totalMass ? double(*options.totalMass) : sum;
    if (!(sum > 0.))
        return refuse("rig: no particle has mass (every one is kinematic), so there is nothing to scale to a total");
    for (rig::Particle& q : d.particles)
        q.mass = float(double(q.mass) * total / sum);

    // Sticks: lengths follow the new bind distances; capsules the local skin.
    for (rig::Stick& s : d.sticks) {
        const float l0 = length(before[std::size_t(s.b)] - before[std::size_t(s.a)]);
        const float l1 = length(after[std::size_t(s.b)] - after[std::size_t(s.a)]);
        const float k = l0 > 1e-6f ? l1 / l0 : 1.f;
        if (s.restLength >= 0.f)
            s.restLength *= k;
        s.minLength *= k;
        s.maxLength *= k;
        s.capsuleRadius *= 0.5f * (ratio[std::size_t(s.a)] + ratio[std::size_t(s.b)]);
    }
    // Angular constraints: limits stay, an explicit rest orientation keeps its turn from the bind pose.
    for (rig::AngularConstraint& c : d.angular) {
        if (!c.hasRestOrientation)
            continue;
        bool ok = true;
        const Mat3 a0 = frameOf(source, before, c.triangleA, &ok), b0 = frameOf(source, before, c.triangleB, &ok);
        const Mat3 a1 = frameOf(source, after, c.triangleA, &ok), b1 = frameOf(source, after, c.triangleB, &ok);
        if (!ok)
            continue; // validation below names the degenerate triangle
        const Quat bind0 = toQuat(a0.transposed() * b0), bind1 = toQuat(a1.transposed() * b1);
        c.restOrientation = normalize(bind1 * (bind0.conjugate() * c.restOrientation));
    }
    for (rig::Pin& p : d.pins)
        p.target = p.target + (after[std::size_t(p.particle)] - before[std::size_t(p.particle)]);
    for (rig::Shape& s : d.shapes) {
        float k = 0.f;
        int n = 0;
        if (s.triangle != rig::kNone)
            for (std::int32_t p : d.triangles[std::size_t(s.triangle)].p)
                k += ratio[std::size_t(p)], ++n;
        else
            for (std::int32_t p : s.tetra)
                k += ratio[std::size_t(p)], ++n;
        k /= float(std::max(n, 1));
        s.halfExtents = s.halfExtents * k;
        s.local.translation = s.local.translation * k;
    }

    // The target's skeleton, with the ids of the bones it took over; bindings follow their bones.
    d.bones = dst;
    for (std::size_t i = 0; i < nb; ++i)
        if (map[i] != rig::kNone)
            d.bones[std::size_t(map[i])].id = src[i].id;
    d.bindings.clear();
    for (std::size_t i = 0; i < source.bindings.size(); ++i) {
        rig::BoneBinding b = source.bindings[i];
        const std::int32_t t = map[std::size_t(b.bone)];
        if (t == rig::kNone) {
            out.dropped.push_back("bindings[" + std::to_string(i) + "] '" + b.name + "': bone '" +
                                  src[std::size_t(b.bone)].name + "' has no counterpart on the target");
            continue;
        }
        if (b.name == src[std::size_t(b.bone)].name)
            b.name = dst[std::size_t(t)].name;
        b.bone = t;
        b.hasOffset = false; // captured from the new bind pose by Rig::build
        b.offset = {};
        d.bindings.push_back(std::move(b));
    }
    autorig::resolveBindOverlaps(d, out.notes);
    for (const rig::Finding& f : d.findings())
        if (f.severity == rig::Severity::Error)
            return refuse("the transferred rig is not valid: " + f.message);
    out.ok = true;
    return out;
}

} // namespace marionette::editor
