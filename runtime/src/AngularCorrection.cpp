// Turning two triangles against each other (AngularCorrection.h).
#include "AngularCorrection.h"

#include "FastMath.h"

#include <algorithm>
#include <cmath>

namespace marionette::runtime {

Turn turnOf(const RagdollState& s, const TriangleData& t, Vec3& u)
{
    Turn r{(s.x[t.p[0]] + s.x[t.p[1]] + s.x[t.p[2]]) * (1.f / 3.f), 0.f, false};
    std::uint32_t fixed[3];
    std::uint32_t nf = 0;
    for (std::uint32_t k = 0; k < 3; ++k)
        if (s.w[t.p[k]] <= 0.f)
            fixed[nf++] = t.p[k];
    if (nf == 3) {
        r.inertia = INFINITY;
        r.pinned = true;
        return r;
    }
    if (nf == 2) {
        // Only the component of the axis along the fixed edge can be corrected.
        const Vec3 e = normalizeOr(s.x[fixed[1]] - s.x[fixed[0]], u);
        const float along = dot(u, e);
        if (std::fabs(along) < 0.2f) {
            r.inertia = INFINITY;
            r.pinned = true;
            return r;
        }
        u = e * (along > 0.f ? 1.f : -1.f);
        r.pivot = s.x[fixed[0]];
    } else if (nf == 1) {
        r.pivot = s.x[fixed[0]];
    }
    r.pinned = nf > 0;
    for (std::uint32_t k = 0; k < 3; ++k) {
        const float w = s.w[t.p[k]];
        if (w <= 0.f)
            continue;
        const Vec3 d = s.x[t.p[k]] - r.pivot;
        const Vec3 perp = d - u * dot(d, u);
        r.inertia += dot(perp, perp) / w;
    }
    r.inertia = std::max(r.inertia, 1e-12f);
    return r;
}

void applyCorrection(RagdollState& s, const TriangleData& A, std::uint32_t ia, const TriangleData& B,
                     std::uint32_t ib, Vec3 u, float phi)
{
    Vec3 ua = u, ub = u;
    const Turn ta = turnOf(s, A, ua);
    const Turn tb = turnOf(s, B, ub);
    float shareA, shareB;
    if (std::isinf(ta.inertia) && std::isinf(tb.inertia))
        return;
    if (std::isinf(ta.inertia)) {
        shareA = 0.f;
        shareB = 1.f;
    } else if (std::isinf(tb.inertia)) {
        shareA = 1.f;
        shareB = 0.f;
    } else {
        shareA = tb.inertia / (ta.inertia + tb.inertia);
        shareB = ta.inertia / (ta.inertia + tb.inertia);
    }
    // A projected axis corrects only its component of the rotation.
    const Quat qa = fast::fromAxisAngle(ua, -phi * shareA * dot(ua, u));
    const Quat qb = fast::fromAxisAngle(ub, phi * shareB * dot(ub, u));
    const Vec3 ca = ta.pivot, cb = tb.pivot;

    SharedMoves to; // where each particle goes
    for (std::uint32_t k = 0; k < 3; ++k)
        to.add(A.p[k], shareA > 0.f ? ca + qa.rotate(s.x[A.p[k]] - ca) : s.x[A.p[k]]);
    for (std::uint32_t k = 0; k < 3; ++k)
        to.add(B.p[k], shareB > 0.f ? cb + qb.rotate(s.x[B.p[k]] - cb) : s.x[B.p[k]]);

    Vec3 moved[6];
    Vec3 momentum;
    float mass = 0.f;
    for (std::uint32_t k = 0; k < to.n; ++k) {
        const float w = s.w[to.ids[k]];
        moved[k] = w > 0.f ? to.mean(k) - s.x[to.ids[k]] : Vec3{};
        if (w > 0.f) {
            momentum += moved[k] / w;
            mass += 1.f / w;
        }
    }
    const bool recentre = !ta.pinned && !tb.pinned && mass > 0.f;
    const Vec3 shift = recentre ? momentum / -mass : Vec3{};
    for (std::uint32_t k = 0; k < to.n; ++k)
        if (s.w[to.ids[k]] > 0.f)
            s.x[to.ids[k]] += moved[k] + shift;
    // The triangles' frames turned with them (up to the averaging of shared particles, which the next
    // pass's fresh frames pick up): rotate the cached quaternions instead of rebuilding them.
    if (shareA > 0.f)
        s.frameQ[ia] = normalize(qa * s.frameQ[ia]);
    if (shareB > 0.f)
        s.frameQ[ib] = normalize(qb * s.frameQ[ib]);
}

void applyHinge(RagdollState& s, const AngularData& c, Vec3 e, float phi)
{
    const Vec3 pivot = s.x[c.hingeA];
    const float wa = s.w[c.freeA], wb = s.w[c.freeB];
    auto inertia = [&](std::uint32_t p, float w) {
        const Vec3 d = s.x[p] - pivot;
        const Vec3 perp = d - e * dot(d, e);
        return dot(perp, perp) / w;
    };
    const float ia = inertia(c.freeA, wa), ib = inertia(c.freeB, wb);
    const float sum = ia + ib;
    if (!(sum > 1e-12f))
        return; // both third particles on the hinge line: degenerate triangles, nothing to turn
    const float shareA = ib / sum, shareB = ia / sum;
    const Quat qa = fast::fromAxisAngle(e, -phi * shareA);
    const Quat qb = fast::fromAxisAngle(e, phi * shareB);
    const Vec3 da = pivot + qa.rotate(s.x[c.freeA] - pivot) - s.x[c.freeA];
    const Vec3 db = pivot + qb.rotate(s.x[c.freeB] - pivot) - s.x[c.freeB];
    const float wh0 = s.w[c.hingeA], wh1 = s.w[c.hingeB];
    Vec3 shift;
    if (wh0 > 0.f && wh1 > 0.f) {
        const float ma = 1.f / wa, mb = 1.f / wb;
        shift = (da * ma + db * mb) / -(ma + mb + 1.f / wh0 + 1.f / wh1);
        s.x[c.hingeA] += shift;
        s.x[c.hingeB] += shift;
    }
    s.x[c.freeA] += da + shift;
    s.x[c.freeB] += db + shift;
    s.frameQ[c.triA] = normalize(qa * s.frameQ[c.triA]);
    s.frameQ[c.triB] = normalize(qb * s.frameQ[c.triB]);
}

} // namespace marionette::runtime
