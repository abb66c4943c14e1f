#include "marionette/editor/autorig/AutoRigSupport.h"

#include "marionette/runtime/Procedural.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

namespace marionette::editor::autorig {

SkeletonTree::SkeletonTree(const std::vector<rig::Bone>& bones)
    : mParent(bones.size()), mChildren(bones.size()), mJoint(bones.size()), mDepth(bones.size(), 0)
{
    for (std::size_t i = 0; i < bones.size(); ++i) {
        const std::int32_t p = bones[i].parent;
        mParent[i] = (p >= 0 && std::size_t(p) < i) ? p : rig::kNone;
        const Mat4& m = bones[i].bindWorld;
        mJoint[i] = {m.m[12], m.m[13], m.m[14]};
        if (mParent[i] != rig::kNone) {
            mChildren[std::size_t(mParent[i])].push_back(std::int32_t(i));
            mDepth[i] = mDepth[std::size_t(mParent[i])] + 1;
        }
    }
}

bool SkeletonTree::isAncestorOrSelf(std::int32_t a, std::int32_t b) const
{
    if (a < 0 || b < 0)
        return false;
    for (std::int32_t x = b; x != rig::kNone; x = parent(x))
        if (x == a)
            return true;
    return false;
}

std::int32_t SkeletonTree::lca(std::int32_t a, std::int32_t b) const
{
    if (a < 0 || b < 0)
        return rig::kNone;
    while (a != b) {
        if (depth(a) >= depth(b) && a != rig::kNone)
            a = parent(a);
        else
            b = parent(b);
        if (a == rig::kNone || b == rig::kNone)
            return rig::kNone;
    }
    return a;
}

std::vector<std::int32_t> SkeletonTree::between(std::int32_t top, std::int32_t bottom) const
{
    std::vector<std::int32_t> out;
    if (!isAncestorOrSelf(top, bottom) || top == bottom)
        return out;
    for (std::int32_t x = parent(bottom); x != top; x = parent(x))
        out.push_back(x);
    std::reverse(out.begin(), out.end());
    return out;
}

std::int32_t SkeletonTree::childToward(std::int32_t top, std::int32_t bottom) const
{
    if (!isAncestorOrSelf(top, bottom) || top == bottom)
        return rig::kNone;
    std::int32_t x = bottom;
    while (parent(x) != top)
        x = parent(x);
    return x;
}

float distanceToSegment(Vec3 p, Vec3 a, Vec3 b)
{
    const Vec3 ab = b - a;
    const float l2 = lengthSquared(ab);
    const float t = l2 > 1e-20f ? std::clamp(dot(p - a, ab) / l2, 0.f, 1.f) : 0.f;
    return length(p - (a + ab * t));
}

float segmentDistance(Vec3 a, Vec3 b, Vec3 c, Vec3 d)
{
    // Closest points of two segments (Ericson, Real-Time Collision Detection 5.1.9), clamped.
    const Vec3 d1 = b - a, d2 = d - c, r = a - c;
    const float A = dot(d1, d1), E = dot(d2, d2), F = dot(d2, r);
    float s = 0.f, t = 0.f;
    if (A <= 1e-20f && E <= 1e-20f)
        return length(a - c);
    if (A <= 1e-20f) {
        t = std::clamp(F / E, 0.f, 1.f);
    } else {
        const float C = dot(d1, r);
        if (E <= 1e-20f) {
            s = std::clamp(-C / A, 0.f, 1.f);
        } else {
            const float B = dot(d1, d2), den = A * E - B * B;
            s = den > 1e-20f ? std::clamp((B * F - C * E) / den, 0.f, 1.f) : 0.f;
            t = (B * s + F) / E;
            if (t < 0.f) {
                t = 0.f;
                s = std::clamp(-C / A, 0.f, 1.f);
            } else if (t > 1.f) {
                t = 1.f;
                s = std::clamp((B - C) / A, 0.f, 1.f);
            }
        }
    }
    return length((a + d1 * s) - (c + d2 * t));
}

float quantile(std::vector<float>& values, float q)
{
    if (values.empty())
        return 0.f;
    const std::size_t k = std::min(values.size() - 1, std::size_t(q * float(values.size() - 1) + 0.5f));
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(k), values.end());
    return values[k];
}

float fitRadius(const std::vector<const std::vector<Vec3>*>& vertices, Vec3 a, Vec3 b, float fallback, float lo,
                float hi, bool* fitted)
{
    std::vector<float> d;
    for (const std::vector<Vec3>* list : vertices)
        if (list)
            for (const Vec3& v : *list)
                d.push_back(distanceToSegment(v, a, b));
    if (fitted)
        *fitted = !d.empty();
    if (d.empty())
        return fallback;
    return std::clamp(quantile(d, 0.75f), lo, hi);
}

rig::Particle makeParticle(std::string name, Vec3 position, float mass, float radius, std::int32_t bone,
                           std::uint32_t group)
{
    rig::Particle p;
    p.name = std::move(name);
    p.position = position;
    p.mass = mass;
    p.radius = radius;
    p.bone = bone;
    p.group = group;
    return p;
}

rig::Stick makeStick(std::string name, std::int32_t a, std::int32_t b, float capsuleRadius, std::uint32_t group)
{
    rig::Stick s;
    s.name = std::move(name);
    s.a = a;
    s.b = b;
    s.capsuleRadius = capsuleRadius;
    s.group = group;
    return s;
}

rig::Stick makeMinDistance(std::string name, std::int32_t a, std::int32_t b, float minLength)
{
    rig::Stick s;
    s.name = std::move(name);
    s.a = a;
    s.b = b;
    s.kind = rig::StickKind::MinOnly;
    s.minLength = minLength;
    return s;
}

rig::Triangle makeTriangle(std::string name, std::int32_t p0, std::int32_t p1, std::int32_t p2)
{
    rig::Triangle t;
    t.name = std::move(name);
    t.p[0] = p0;
    t.p[1] = p1;
    t.p[2] = p2;
    return t;
}

rig::AngularConstraint makeSwingTwist(std::string name, std::int32_t a, std::int32_t b, const Mat3& frameB,
                                      Vec3 twistWorld, Vec3 swingWorld, Vec3 fallbackTwist, float twistMin,
                                      float twistMax, float swing1, float swing2)
{
    const Vec3 t = normalizeOr(twistWorld, fallbackTwist);
    const Vec3 s = normalizeOr(swingWorld - t * dot(swingWorld, t), anyPerpendicular(t));
    rig::AngularConstraint j;
    j.name = std::move(name);
    j.triangleA = a;
    j.triangleB = b;
    j.limit = rig::AngularLimit::SwingTwist;
    j.twistAxis = normalizeOr(frameB.transposeMul(t), {0, 1, 0});
    const Vec3 sb = frameB.transposeMul(s);
    j.swingAxis1 = normalizeOr(sb - j.twistAxis * dot(sb, j.twistAxis), anyPerpendicular(j.twistAxis));
    j.twistMin = std::max(twistMin, -kPi);
    j.twistMax = std::min(twistMax, kPi);
    j.swing1 = swing1;
    j.swing2 = swing2;
    j.damping = runtime::kHumanoidJointDamping;
    j.staticFrictionSpeed = runtime::kHumanoidJointStaticFriction;
    return j;
}

rig::BoneBinding makeBinding(const rig::RigDescription& d, std::int32_t bone, rig::BoneBinding::Driver driver,
                             std::int32_t index)
{
    rig::BoneBinding b;
    b.name = d.bones[std::size_t(bone)].name;
    b.bone = bone;
    b.driver = driver;
    b.index = index;
    b.hasOffset = false; // Rig::build captures it from the bind pose
    return b;
}

std::string listBones(const std::vector<rig::Bone>& skeleton, const std::vector<std::int32_t>& bones,
                      std::size_t limit)
{
    std::string s;
    for (std::size_t i = 0; i < bones.size() && i < limit; ++i) {
        if (i)
            s.append(", ");
        s.append(skeleton[std::size_t(bones[i])].name);
    }
    if (bones.size() > limit)
        s.append(" and ").append(std::to_string(bones.size() - limit)).append(" more");
    return s;
}

void normaliseMasses(rig::RigDescription& d, float total)
{
    double sum = 0.;
    for (const rig::Particle& p : d.particles)
        sum += double(p.mass);
    if (!(sum > 0.))
        return;
    const double k = double(total) / sum;
    for (rig::Particle& p : d.particles)
        p.mass = float(double(p.mass) * k);
}

void resolveBindOverlaps(rig::RigDescription& d, std::vector<std::string>& notes)
{
    std::set<std::pair<std::int32_t, std::int32_t>> rigid;
    for (const rig::Stick& s : d.sticks)
        if (s.kind == rig::StickKind::Rigid) {
            rigid.insert({s.a, s.b});
            rigid.insert({s.b, s.a});
        }
    std::vector<std::size_t> caps;
    for (std::size_t i = 0; i < d.sticks.size(); ++i)
        if (d.sticks[i].capsuleRadius > 0.f)
            caps.push_back(i);
    std::vector<float> fitted(d.sticks.size());
    for (std::size_t i = 0; i < d.sticks.size(); ++i)
        fitted[i] = d.sticks[i].capsuleRadius;
    auto pos = [&](std::int32_t p) { return d.particles[std::size_t(p)].position; };
    bool stillTouching = false;
    std::set<std::size_t> shrunk;
    for (int pass = 0; pass < 8; ++pass) {
        stillTouching = false;
        for (std::size_t i = 0; i < caps.size(); ++i)
            for (std::size_t j = i + 1; j < caps.size(); ++j) {
                rig::Stick& A = d.sticks[caps[i]];
                rig::Stick& B = d.sticks[caps[j]];
                if (!((A.group & B.mask) && (B.group & A.mask)))
                    continue;
                if (A.a == B.a || A.a == B.b || A.b == B.a || A.b == B.b)
                    continue;
                if (rigid.count({A.a, B.a}) || rigid.count({A.a, B.b}) || rigid.count({A.b, B.a}) ||
                    rigid.count({A.b, B.b}))
                    continue;
                const float dist = segmentDistance(pos(A.a), pos(A.b), pos(B.a), pos(B.b));
                const float sum = A.capsuleRadius + B.capsuleRadius;
                if (sum <= 0.95f * dist)
                    continue;
                const float k = 0.95f * dist / sum;
                A.capsuleRadius = std::max(A.capsuleRadius * k, 0.4f * fitted[caps[i]]);
                B.capsuleRadius = std::max(B.capsuleRadius * k, 0.4f * fitted[caps[j]]);
                shrunk.insert(caps[i]);
                shrunk.insert(caps[j]);
                stillTouching = stillTouching || A.capsuleRadius + B.capsuleRadius > 0.95f * dist;
            }
        if (!stillTouching)
            break;
    }
    for (std::size_t i : shrunk) {
        std::string n = "capsule '";
        n.append(d.sticks[i].name).append("' radius reduced from ");
        n.append(std::to_string(fitted[i])).append(" to ").append(std::to_string(d.sticks[i].capsuleRadius));
        n.append(" m so it does not touch another part in the bind pose");
        notes.push_back(std::move(n));
    }
    if (stillTouching) {
        d.settings.selfCollision = false;
        notes.emplace_back("self-collision between capsules is off: some parts overlap in the bind pose even "
                           "with reduced radii");
    }
}

} // namespace marionette::editor::autorig
