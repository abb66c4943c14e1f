// Contacts between the colliders of two ragdolls (spheres, capsules, embedded boxes): candidate culling,
// contact geometry and friction. Called by World for the ragdoll pairs its broadphase finds.
#include "RagdollContacts.h"

#include "geometry/Geometry.h"

#include <algorithm>
#include <cmath>

namespace marionette::runtime {

namespace {

/// Collider as a segment (sphere: a == b) with radius; boxes are handled separately.
void segmentOf(Ragdoll& r, const ColliderRef& c, Vec3& a, Vec3& b, float& radius)
{
    const RagdollState& st = Solver::state(r);
    if (c.kind == 1) {
        const CapsuleData& cap = r.rig().capsules()[c.index];
        a = st.x[cap.a];
        b = st.x[cap.b];
        radius = cap.radius;
    } else {
        a = b = st.x[c.index];
        radius = r.rig().radii()[c.index];
    }
}

/// How far a sphere or capsule collider's particles may travel this step (RagdollState::reach).
float travelOf(Ragdoll& r, const ColliderRef& c)
{
    const RagdollState& st = Solver::state(r);
    if (c.kind == 1) {
        const CapsuleData& cap = r.rig().capsules()[c.index];
        return std::max(st.reach[cap.a], st.reach[cap.b]);
    }
    return st.reach[c.index];
}

} // namespace

bool nearEnough(Ragdoll& ra, const ColliderRef& ca, Ragdoll& rb, const ColliderRef& cb)
{
    Vec3 a0, a1, b0, b1;
    float rA, rB;
    segmentOf(ra, ca, a0, a1, rA);
    segmentOf(rb, cb, b0, b1, rB);
    float s = 0.f, t = 0.f;
    geo::closestSegmentSegment(a0, a1, b0, b1, s, t);
    const float reach = rA + rB + kContactMargin + travelOf(ra, ca) + travelOf(rb, cb);
    return lengthSquared(lerp(a0, a1, s) - lerp(b0, b1, t)) <= reach * reach;
}

namespace {

/// Box of ragdoll rb against a segment collider of ragdoll ra. n points from the box toward ra.
bool boxVersusSegment(Ragdoll& ra, const ColliderRef& ca, Ragdoll& rb, std::uint32_t box, ContactSide& sa,
                      ContactSide& sb, Vec3& n, float& depth)
{
    Vec3 a, b;
    float radius;
    segmentOf(ra, ca, a, b, radius);
    geo::Obb obb;
    Solver::boxFrame(rb, box, obb.center, obb.axes);
    obb.half = rb.rig().boxes()[box].half;
    float t = 0.f;
    if (ca.kind == 1) {
        if (!geo::penetrationSegmentObb(a, b, radius, obb, t, n, depth))
            return false;
        sa = capsuleSide(Solver::state(ra), ra.rig().capsules()[ca.index], t);
    } else {
        Vec3 surface;
        if (!geo::penetrationPointObb(a, radius, obb, n, depth, surface))
            return false;
        sa = particleSide(Solver::state(ra), ca.index);
    }
    const Vec3 p = lerp(a, b, t) - n * (radius - depth); // the box surface point touched
    Solver::boxWeights(rb, box, p, sb);
    return true;
}

bool boxVersusBox(Ragdoll& ra, std::uint32_t boxA, Ragdoll& rb, std::uint32_t boxB, ContactSide& sa, ContactSide& sb,
                  Vec3& n, float& depth)
{
    // Deepest corner of either box inside the other.
    geo::Obb oa, ob;
    Solver::boxFrame(ra, boxA, oa.center, oa.axes);
    oa.half = ra.rig().boxes()[boxA].half;
    Solver::boxFrame(rb, boxB, ob.center, ob.axes);
    ob.half = rb.rig().boxes()[boxB].half;
    float best = 0.f;
    bool found = false;
    for (int side = 0; side < 2; ++side) {
        const geo::Obb& src = side == 0 ? oa : ob;
        const geo::Obb& dst = side == 0 ? ob : oa;
        for (int k = 0; k < 8; ++k) {
            const Vec3 corner = src.center + src.axes.c[0] * ((k & 1) ? src.half.x : -src.half.x) +
                                src.axes.c[1] * ((k & 2) ? src.half.y : -src.half.y) +
                                src.axes.c[2] * ((k & 4) ? src.half.z : -src.half.z);
            Vec3 nn, surface;
            float d;
            if (!geo::penetrationPointObb(corner, 0.f, dst, nn, d, surface) || d <= best)
                continue;
            best = d;
            found = true;
            depth = d;
            if (side == 0) { // corner of A inside B: normal from B toward A
                n = nn;
                Solver::boxWeights(ra, boxA, corner, sa);
                Solver::boxWeights(rb, boxB, surface, sb);
            } else {         // corner of B inside A: nn points out of A toward B
                n = -nn;
                Solver::boxWeights(rb, boxB, corner, sb);
                Solver::boxWeights(ra, boxA, surface, sa);
            }
        }
    }
    return found;
}

} // namespace

bool colliderContact(Ragdoll& ra, const ColliderRef& ca, Ragdoll& rb, const ColliderRef& cb, ContactSide& sa,
                     ContactSide& sb, Vec3& n, float& depth, SegmentParams* params)
{
    if (ca.kind == 2 && cb.kind == 2)
        return boxVersusBox(ra, ca.index, rb, cb.index, sa, sb, n, depth);
    if (cb.kind == 2)
        return boxVersusSegment(ra, ca, rb, cb.index, sa, sb, n, depth);
    if (ca.kind == 2) {
        if (!boxVersusSegment(rb, cb, ra, ca.index, sb, sa, n, depth))
            return false;
        n = -n;
        return true;
    }
    Vec3 a0, a1, b0, b1;
    float ra_, rb_;
    segmentOf(ra, ca, a0, a1, ra_);
    segmentOf(rb, cb, b0, b1, rb_);
    float s = 0.f, t = 0.f;
    if (params && params->known) {
        s = params->s;
        t = params->t;
    } else {
        geo::closestSegmentSegment(a0, a1, b0, b1, s, t);
        if (params)
            *params = {s, t, true};
    }
    const Vec3 d = lerp(a0, a1, s) - lerp(b0, b1, t);
    const float dist2 = lengthSquared(d);
    const float rsum = ra_ + rb_;
    if (dist2 >= rsum * rsum)
        return false;
    const float dist = std::sqrt(dist2);
    n = dist > 1e-7f ? d / dist : Vec3{0.f, 1.f, 0.f};
    depth = rsum - dist;
    if (ca.kind == 1)
        sa = capsuleSide(Solver::state(ra), ra.rig().capsules()[ca.index], s);
    else
        sa = particleSide(Solver::state(ra), ca.index);
    if (cb.kind == 1)
        sb = capsuleSide(Solver::state(rb), rb.rig().capsules()[cb.index], t);
    else
        sb = particleSide(Solver::state(rb), cb.index);
    return true;
}

void contactFriction(Ragdoll& ra, const ContactSide& sa, Ragdoll& rb, const ContactSide& sb, Vec3 n, float depth,
                     float stepDepth)
{
    const rig::Settings& A = ra.rig().settings();
    const rig::Settings& B = rb.rig().settings();
    const float mu = 0.5f * (A.friction + B.friction);
    if (!(mu > 0.f))
        return;
    const float W = sa.weight() + sb.weight();
    if (!(W > 1e-12f))
        return;
    const Vec3* pa = Solver::state(ra).xPrev;
    const Vec3* pb = Solver::state(rb).xPrev;
    Vec3 v;
    for (std::uint32_t q = 0; q < sa.count; ++q)
        v += (sa.x[sa.idx[q]] - pa[sa.idx[q]]) * sa.c[q];
    for (std::uint32_t q = 0; q < sb.count; ++q)
        v -= (sb.x[sb.idx[q]] - pb[sb.idx[q]]) * sb.c[q];
    const Vec3 vt = v - n * dot(v, n);
    const float speed = length(vt);
    if (!(speed > 0.f))
        return;
    const float still = 0.5f * (A.staticFrictionSpeed * Solver::state(ra).dt + B.staticFrictionSpeed * Solver::state(rb).dt);
    const float f = (speed <= mu * stepDepth || speed <= still) ? 1.f : std::min(1.f, mu * depth / speed);
    sa.move(vt, -f / W);
    sb.move(vt, f / W);
}

} // namespace marionette::runtime
