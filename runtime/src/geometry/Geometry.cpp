#include "Geometry.h"

#include <algorithm>

namespace marionette::runtime::geo {

namespace {

constexpr float kTinyLength2 = 1e-20f; // squared lengths below this are treated as zero
constexpr float kTinyComponent = 1e-12f; // direction components below this are treated as parallel

Vec3 axisVector(int axis, float sign)
{
    return {axis == 0 ? sign : 0.f, axis == 1 ? sign : 0.f, axis == 2 ? sign : 0.f};
}

Vec3 withComponent(Vec3 v, int axis, float value)
{
    return {axis == 0 ? value : v.x, axis == 1 ? value : v.y, axis == 2 ? value : v.z};
}

// Squared distance from the local point l to the box [-h, h].
float boxDistance2(Vec3 l, Vec3 h)
{
    const Vec3 d = l - vmax(vmin(l, h), -h);
    return dot(d, d);
}

// Axis of the face nearest to the local point l and the gap to it (>= 0 inside; ties: lowest axis).
int nearestFace(Vec3 l, Vec3 h, float& gap)
{
    int axis = 0;
    gap = h.x - std::fabs(l.x);
    for (int i = 1; i < 3; ++i) {
        const float g = h[i] - std::fabs(l[i]);
        if (g < gap) {
            gap = g;
            axis = i;
        }
    }
    return axis;
}

// Candidate parameters of a convex 1-D minimisation; picks the middle of the near-optimal range, which is
// itself near-optimal by convexity. Fixed capacity, no allocation.
struct Candidates {
    static constexpr int kCapacity = 32;
    float t[kCapacity];
    float score[kCapacity];
    int n = 0;

    void add(float tt, float s)
    {
        if (n < kCapacity) {
            t[n] = tt;
            score[n] = s;
            ++n;
        }
    }
    // relTol/absTol: a candidate is near-optimal when score <= best + |best| * relTol + absTol.
    float pick(float relTol, float absTol) const
    {
        float best = FLT_MAX;
        for (int i = 0; i < n; ++i)
            best = std::min(best, score[i]);
        const float limit = best + std::fabs(best) * relTol + absTol;
        float lo = 1.f, hi = 0.f;
        for (int i = 0; i < n; ++i)
            if (score[i] <= limit) {
                lo = std::min(lo, t[i]);
                hi = std::max(hi, t[i]);
            }
        return lo <= hi ? clamp01(0.5f * (lo + hi)) : 0.f;
    }
};

// Unit face normal of abc, or zero when the triangle is degenerate.
Vec3 faceNormal(Vec3 a, Vec3 b, Vec3 c)
{
    return isDegenerateTriangle(a, b, c) ? Vec3{} : normalizeOr(cross(b - a, c - a), Vec3{});
}

Vec3 closestOnEdges(Vec3 p, Vec3 a, Vec3 b, Vec3 c, Vec3& bary)
{
    const Vec3 v[3] = {a, b, c};
    float best = FLT_MAX;
    Vec3 result = a;
    bary = {1.f, 0.f, 0.f};
    for (int e = 0; e < 3; ++e) {
        const int f = (e + 1) % 3;
        const float t = closestOnSegment(p, v[e], v[f]);
        const Vec3 q = lerp(v[e], v[f], t);
        const float d2 = lengthSquared(p - q);
        if (d2 < best) {
            best = d2;
            result = q;
            float w[3] = {0.f, 0.f, 0.f};
            w[e] = 1.f - t;
            w[f] = t;
            bary = {w[0], w[1], w[2]};
        }
    }
    return result;
}

} // namespace

void closestSegmentSegment(Vec3 p1, Vec3 q1, Vec3 p2, Vec3 q2, float& s, float& t)
{
    const Vec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
    const float a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
    if (a <= kTinyLength2 && e <= kTinyLength2) {
        s = t = 0.f;
        return;
    }
    if (a <= kTinyLength2) {
        s = 0.f;
        t = clamp01(f / e);
        return;
    }
    const float c = dot(d1, r);
    if (e <= kTinyLength2) {
        t = 0.f;
        s = clamp01(-c / a);
        return;
    }
    const float b = dot(d1, d2);
    const float denom = a * e - b * b; // = a·e·sin²(angle), >= 0
    if (denom > 1e-6f * a * e) {
        s = clamp01((b * f - c * e) / denom);
    } else {
        // Parallel: middle of the stretch of segment 1 facing segment 2 (an end when they don't overlap).
        const float s0 = clamp01(-c / a), s1 = clamp01((b - c) / a);
        s = 0.5f * (s0 + s1);
    }
    const float tn = b * s + f;
    if (tn < 0.f) {
        t = 0.f;
        s = clamp01(-c / a);
    } else if (tn > e) {
        t = 1.f;
        s = clamp01((b - c) / a);
    } else {
        t = clamp01(tn / e);
    }
}

bool penetrationSegmentSphere(Vec3 a, Vec3 b, float r, Vec3 centre, float R, float& tOut, Vec3& normalOut,
                              float& depthOut)
{
    const float t = closestOnSegment(centre, a, b);
    const Vec3 d = lerp(a, b, t) - centre;
    const float rr = r + R, d2 = dot(d, d);
    if (!(d2 < rr * rr))
        return false;
    tOut = t;
    normalOut = d2 > 1e-24f ? d * (1.f / std::sqrt(d2)) : anyPerpendicular(normalizeOr(b - a, {0.f, 0.f, 1.f}));
    depthOut = rr - std::sqrt(d2);
    return true;
}

bool penetrationSegmentCapsule(Vec3 a, Vec3 b, float r, Vec3 ca, Vec3 cb, float R, float& tOut,
                               Vec3& normalOut, float& depthOut)
{
    float s = 0.f, u = 0.f;
    closestSegmentSegment(a, b, ca, cb, s, u);
    const Vec3 d = lerp(a, b, s) - lerp(ca, cb, u);
    const float rr = r + R, d2 = dot(d, d);
    if (!(d2 < rr * rr))
        return false;
    tOut = s;
    if (d2 > 1e-24f) {
        normalOut = d * (1.f / std::sqrt(d2));
    } else { // axes cross: push perpendicular to both (or to the obstacle's axis when they are parallel)
        const Vec3 axis = normalizeOr(cb - ca, normalizeOr(b - a, {0.f, 0.f, 1.f}));
        normalOut = normalizeOr(cross(b - a, cb - ca), anyPerpendicular(axis));
    }
    depthOut = rr - std::sqrt(d2);
    return true;
}

bool penetrationPointObb(Vec3 p, float radius, const Obb& box, Vec3& normalOut, float& depthOut,
                         Vec3& surfacePointOut)
{
    const Vec3 l = toObbLocal(box, p), h = box.half;
    const Vec3 q = vmax(vmin(l, h), -h);
    const Vec3 d = l - q;
    const float d2 = dot(d, d);
    Vec3 nl, sl;
    float depth;
    if (d2 > 0.f) {
        if (!(d2 < radius * radius))
            return false;
        const float dist = std::sqrt(d2);
        nl = normalizeOr(d, Vec3{0.f, 1.f, 0.f});
        sl = q;
        depth = radius - dist;
    } else {
        float gap = 0.f;
        const int axis = nearestFace(l, h, gap);
        const float sign = l[axis] < 0.f ? -1.f : 1.f;
        nl = axisVector(axis, sign);
        sl = withComponent(l, axis, sign * h[axis]);
        depth = std::max(gap, 0.f) + radius;
    }
    if (!(depth > 0.f))
        return false;
    normalOut = box.axes * nl;
    surfacePointOut = box.center + box.axes * sl;
    depthOut = depth;
    return true;
}

bool penetrationSegmentObb(Vec3 a, Vec3 b, float radius, const Obb& box, float& tOut, Vec3& normalOut,
                           float& depthOut)
{
    const Vec3 A = toObbLocal(box, a), D = box.axes.transposeMul(b - a), h = box.half;
    const float scale = std::max({h.x, h.y, h.z, 1e-6f});
    Candidates cand;
    // Stretch [tin, tout] of the segment inside the box (slab clip).
    float tin = 0.f, tout = 1.f;
    for (int i = 0; i < 3 && tin <= tout; ++i) {
        if (std::fabs(D[i]) <= kTinyComponent) {
            if (std::fabs(A[i]) > h[i])
                tout = -1.f;
            continue;
        }
        const float t1 = (-h[i] - A[i]) / D[i], t2 = (h[i] - A[i]) / D[i];
        tin = std::max(tin, std::min(t1, t2));
        tout = std::min(tout, std::max(t1, t2));
    }
    float t = 0.f;
    if (tin <= tout) {
        // Inside: maximise the gap to the nearest face, a concave piecewise-linear function of t. Its optimum
        // is at tin, tout or where two of the six face-distance lines h_i ∓ (A_i + D_i t) cross.
        float c[6], m[6];
        for (int k = 0; k < 6; ++k) {
            const int i = k / 2;
            const float s = (k & 1) ? -1.f : 1.f;
            c[k] = h[i] - s * A[i];
            m[k] = -s * D[i];
        }
        auto score = [&](float tt) {
            float gap = 0.f;
            nearestFace(A + D * tt, h, gap);
            return -gap;
        };
        cand.add(tin, score(tin));
        cand.add(tout, score(tout));
        for (int k = 0; k < 6; ++k)
            for (int j = k + 1; j < 6; ++j) {
                const float dm = m[k] - m[j];
                if (std::fabs(dm) <= kTinyComponent)
                    continue;
                const float tx = (c[j] - c[k]) / dm;
                if (tx > tin && tx < tout)
                    cand.add(tx, score(tx));
            }
        t = cand.pick(0.f, 1e-6f * scale);
    } else {
        // Outside: squared distance is convex and piecewise quadratic between the parameters where a
        // coordinate crosses a slab boundary; minimise each piece in closed form.
        float bp[8];
        int nb = 0;
        bp[nb++] = 0.f;
        bp[nb++] = 1.f;
        for (int i = 0; i < 3; ++i) {
            if (std::fabs(D[i]) <= kTinyComponent)
                continue;
            for (float s : {-1.f, 1.f}) {
                const float tb = (s * h[i] - A[i]) / D[i];
                if (tb > 0.f && tb < 1.f)
                    bp[nb++] = tb;
            }
        }
        for (int u = 1; u < nb; ++u) // insertion sort (std::sort trips a GCC 12 -Warray-bounds false positive)
            for (int v = u; v > 0 && bp[v - 1] > bp[v]; --v)
                std::swap(bp[v - 1], bp[v]);
        for (int k = 0; k + 1 < nb; ++k) {
            const float t0 = bp[k], t1 = bp[k + 1];
            const Vec3 lm = A + D * (0.5f * (t0 + t1));
            float alpha = 0.f, beta = 0.f;
            for (int i = 0; i < 3; ++i) {
                if (std::fabs(lm[i]) > h[i]) { // outside this slab on the whole piece
                    alpha += D[i] * D[i];
                    beta += D[i] * (A[i] - (lm[i] > 0.f ? h[i] : -h[i]));
                }
            }
            cand.add(t0, boxDistance2(A + D * t0, h));
            cand.add(t1, boxDistance2(A + D * t1, h));
            if (alpha > kTinyLength2) {
                const float ts = std::clamp(-beta / alpha, t0, t1);
                cand.add(ts, boxDistance2(A + D * ts, h));
            }
        }
        t = cand.pick(1e-5f, 1e-12f * scale * scale);
    }
    Vec3 surface;
    if (!penetrationPointObb(lerp(a, b, t), radius, box, normalOut, depthOut, surface))
        return false;
    tOut = t;
    return true;
}

Vec3 closestPointOnTriangle(Vec3 p, Vec3 a, Vec3 b, Vec3 c, Vec3& baryOut)
{
    const Vec3 ab = b - a, ac = c - a, ap = p - a;
    const Vec3 n = cross(ab, ac);
    if (!(dot(n, n) > 1e-10f * dot(ab, ab) * dot(ac, ac)))
        return closestOnEdges(p, a, b, c, baryOut);
    const float d1 = dot(ab, ap), d2 = dot(ac, ap);
    if (d1 <= 0.f && d2 <= 0.f) {
        baryOut = {1.f, 0.f, 0.f};
        return a;
    }
    const Vec3 bp = p - b;
    const float d3 = dot(ab, bp), d4 = dot(ac, bp);
    if (d3 >= 0.f && d4 <= d3) {
        baryOut = {0.f, 1.f, 0.f};
        return b;
    }
    const float vc = d1 * d4 - d3 * d2;
    if (vc <= 0.f && d1 >= 0.f && d3 <= 0.f) {
        const float v = d1 - d3 > 0.f ? clamp01(d1 / (d1 - d3)) : 0.f;
        baryOut = {1.f - v, v, 0.f};
        return a + ab * v;
    }
    const Vec3 cp = p - c;
    const float d5 = dot(ab, cp), d6 = dot(ac, cp);
    if (d6 >= 0.f && d5 <= d6) {
        baryOut = {0.f, 0.f, 1.f};
        return c;
    }
    const float vb = d5 * d2 - d1 * d6;
    if (vb <= 0.f && d2 >= 0.f && d6 <= 0.f) {
        const float w = d2 - d6 > 0.f ? clamp01(d2 / (d2 - d6)) : 0.f;
        baryOut = {1.f - w, 0.f, w};
        return a + ac * w;
    }
    const float va = d3 * d6 - d5 * d4;
    if (va <= 0.f && d4 - d3 >= 0.f && d5 - d6 >= 0.f) {
        const float den = (d4 - d3) + (d5 - d6);
        const float w = den > 0.f ? clamp01((d4 - d3) / den) : 0.f;
        baryOut = {0.f, 1.f - w, w};
        return b + (c - b) * w;
    }
    const float sum = va + vb + vc;
    if (!(sum > 0.f))
        return closestOnEdges(p, a, b, c, baryOut);
    const float v = vb / sum, w = vc / sum;
    baryOut = {1.f - v - w, v, w};
    return a + ab * v + ac * w;
}

bool penetrationPointTriangle(Vec3 p, float r, Vec3 a, Vec3 b, Vec3 c, Vec3& normalOut, float& depthOut,
                              const Vec3* previousPosition)
{
    const Vec3 fn = faceNormal(a, b, c);
    const bool hasFace = dot(fn, fn) > 0.5f;
    const float dc = dot(p - a, fn);
    if (previousPosition && hasFace) {
        const float dp = dot(*previousPosition - a, fn);
        if (dp != 0.f && dc * dp <= 0.f) {
            // The move crossed (or ended on) the plane: where, and is that point on the triangle?
            const Vec3 x = lerp(*previousPosition, p, clamp01(dp / (dp - dc)));
            const float size2 = std::max({lengthSquared(b - a), lengthSquared(c - a), lengthSquared(c - b)});
            if (lengthSquared(x - closestPointOnTriangle(x, a, b, c)) <= 1e-10f * size2) {
                const float depth = r + std::fabs(dc);
                if (!(depth > 0.f))
                    return false;
                normalOut = dp > 0.f ? fn : -fn;
                depthOut = depth;
                return true;
            }
        }
    }
    const Vec3 d = p - closestPointOnTriangle(p, a, b, c);
    const float d2 = dot(d, d);
    if (!(d2 < r * r))
        return false;
    normalOut = d2 > 1e-24f ? d * (1.f / std::sqrt(d2)) : (hasFace ? fn : Vec3{0.f, 1.f, 0.f});
    depthOut = r - std::sqrt(d2);
    return true;
}

bool penetrationSegmentTriangle(Vec3 p0, Vec3 p1, float r, Vec3 a, Vec3 b, Vec3 c, float& tOut,
                                Vec3& normalOut, float& depthOut)
{
    const Vec3 fn = faceNormal(a, b, c);
    const bool hasFace = dot(fn, fn) > 0.5f;
    float tx = 0.f;
    if (hasFace && segmentIntersectsTriangle(p0, p1, a, b, c, tx)) {
        const float d0 = dot(p0 - a, fn), d1 = dot(p1 - a, fn);
        const bool pushStart = std::fabs(d0) <= std::fabs(d1);
        const float depth = r + std::fabs(pushStart ? d0 : d1);
        if (!(depth > 0.f))
            return false;
        tOut = pushStart ? 0.f : 1.f;
        normalOut = (pushStart ? d1 : d0) >= 0.f ? fn : -fn;
        depthOut = depth;
        return true;
    }
    // Closest pair: at a segment end, or between the segment and a triangle edge.
    Candidates cand;
    cand.add(0.f, lengthSquared(p0 - closestPointOnTriangle(p0, a, b, c)));
    cand.add(1.f, lengthSquared(p1 - closestPointOnTriangle(p1, a, b, c)));
    const Vec3 v[3] = {a, b, c};
    for (int e = 0; e < 3; ++e) {
        float s = 0.f, u = 0.f;
        closestSegmentSegment(p0, p1, v[e], v[(e + 1) % 3], s, u);
        cand.add(s, lengthSquared(lerp(p0, p1, s) - lerp(v[e], v[(e + 1) % 3], u)));
    }
    const float t = cand.pick(1e-5f, 1e-14f);
    const Vec3 p = lerp(p0, p1, t);
    const Vec3 d = p - closestPointOnTriangle(p, a, b, c);
    const float d2 = dot(d, d);
    if (!(d2 < r * r))
        return false;
    tOut = t;
    if (d2 > 1e-24f)
        normalOut = d * (1.f / std::sqrt(d2));
    else if (hasFace)
        normalOut = dot(lerp(p0, p1, 0.5f) - a, fn) < 0.f ? -fn : fn;
    else
        normalOut = anyPerpendicular(normalizeOr(p1 - p0, {0.f, 0.f, 1.f}));
    depthOut = r - std::sqrt(d2);
    return true;
}

bool triangleOverlapsAabb(Vec3 a, Vec3 b, Vec3 c, const Aabb& box)
{
    const Vec3 centre = (box.min + box.max) * 0.5f, e = (box.max - box.min) * 0.5f;
    const Vec3 v0 = a - centre, v1 = b - centre, v2 = c - centre;
    // Separated along `axis` when the triangle's projection misses the box's [-rad, rad].
    auto separated = [&](Vec3 axis) {
        const float p0 = dot(v0, axis), p1 = dot(v1, axis), p2 = dot(v2, axis);
        const float rad = e.x * std::fabs(axis.x) + e.y * std::fabs(axis.y) + e.z * std::fabs(axis.z);
        return std::min({p0, p1, p2}) > rad || std::max({p0, p1, p2}) < -rad;
    };
    for (int i = 0; i < 3; ++i)
        if (separated(axisVector(i, 1.f)))
            return false;
    const Vec3 edges[3] = {v1 - v0, v2 - v1, v0 - v2};
    for (int i = 0; i < 3; ++i)
        for (const Vec3& f : edges)
            if (separated(cross(axisVector(i, 1.f), f)))
                return false;
    return !separated(cross(edges[0], edges[1]));
}

bool segmentIntersectsTriangle(Vec3 p0, Vec3 p1, Vec3 a, Vec3 b, Vec3 c, float& tOut)
{
    const Vec3 d = p1 - p0, e1 = b - a, e2 = c - a;
    const Vec3 h = cross(d, e2);
    const float det = dot(e1, h); // = -dot(d, cross(e1, e2))
    if (!(std::fabs(det) > 1e-6f * std::sqrt(lengthSquared(d) * lengthSquared(cross(e1, e2)))))
        return false; // parallel to the plane, zero-length segment or zero-area triangle
    const float inv = 1.f / det;
    const Vec3 s = p0 - a;
    const float u = inv * dot(s, h);
    if (u < 0.f || u > 1.f)
        return false;
    const Vec3 q = cross(s, e1);
    const float v = inv * dot(d, q);
    if (v < 0.f || u + v > 1.f)
        return false;
    const float t = inv * dot(e2, q);
    if (t < 0.f || t > 1.f)
        return false;
    tOut = t;
    return true;
}

bool segmentIntersectsObb(Vec3 p0, Vec3 p1, const Obb& box, float& tEnter, Vec3& normalOut)
{
    const Vec3 A = toObbLocal(box, p0), D = box.axes.transposeMul(p1 - p0), h = box.half;
    float tin = 0.f, tout = 1.f;
    int axis = -1;
    float sign = 1.f;
    for (int i = 0; i < 3; ++i) {
        if (std::fabs(D[i]) <= kTinyComponent) {
            if (std::fabs(A[i]) > h[i])
                return false;
            continue;
        }
        const float t1 = (-h[i] - A[i]) / D[i], t2 = (h[i] - A[i]) / D[i];
        const float tNear = std::min(t1, t2);
        if (tNear > tin) {
            tin = tNear;
            axis = i;
            sign = D[i] > 0.f ? -1.f : 1.f; // entering through the face the segment moves toward
        }
        tout = std::min(tout, std::max(t1, t2));
        if (tin > tout)
            return false;
    }
    if (axis < 0) { // p0 inside (or on) the box
        float gap = 0.f;
        axis = nearestFace(A, h, gap);
        sign = A[axis] < 0.f ? -1.f : 1.f;
    }
    tEnter = tin;
    normalOut = box.axes * axisVector(axis, sign);
    return true;
}

bool segmentIntersectsSphere(Vec3 p0, Vec3 p1, Vec3 centre, float R, float& tOut, Vec3& normalOut)
{
    const Vec3 d = p1 - p0, m = p0 - centre;
    const Vec3 back = normalizeOr(-d, {0.f, 1.f, 0.f});
    const float cc = dot(m, m) - R * R;
    if (cc <= 0.f) {
        tOut = 0.f;
        normalOut = normalizeOr(m, back);
        return true;
    }
    const float a = dot(d, d), b = dot(m, d);
    if (!(a > kTinyLength2) || b >= 0.f)
        return false; // no motion, or moving away from the sphere
    const float disc = b * b - a * cc;
    if (disc < 0.f)
        return false;
    const float t = (-b - std::sqrt(disc)) / a;
    if (!(t <= 1.f))
        return false;
    tOut = clamp01(t);
    normalOut = normalizeOr(p0 + d * tOut - centre, back);
    return true;
}

bool segmentIntersectsCapsule(Vec3 p0, Vec3 p1, Vec3 ca, Vec3 cb, float R, float& tOut, Vec3& normalOut)
{
    float s = 0.f, u = 0.f;
    closestSegmentSegment(p0, p1, ca, cb, s, u);
    if (!(lengthSquared(lerp(p0, p1, s) - lerp(ca, cb, u)) <= R * R))
        return false;
    // Distance to the axis is convex along the segment: bisect for the first point within reach. `reach`
    // absorbs rounding between the two closest-point computations, so the invariant holds at `hi`.
    auto axisDist2 = [&](float t) {
        const Vec3 p = lerp(p0, p1, t);
        return lengthSquared(p - lerp(ca, cb, closestOnSegment(p, ca, cb)));
    };
    const float reach2 = std::max(R * R, axisDist2(s));
    float lo = 0.f, hi = s;
    if (axisDist2(0.f) <= reach2) {
        hi = 0.f;
    } else {
        for (int i = 0; i < 32 && hi - lo > 1e-7f; ++i) {
            const float mid = 0.5f * (lo + hi);
            (axisDist2(mid) <= reach2 ? hi : lo) = mid;
        }
    }
    const Vec3 p = lerp(p0, p1, hi);
    tOut = hi;
    normalOut = normalizeOr(p - lerp(ca, cb, closestOnSegment(p, ca, cb)), normalizeOr(p0 - p1, {0.f, 1.f, 0.f}));
    return true;
}

} // namespace marionette::runtime::geo
