// Marionette runtime — closest-point, penetration and segment-cast primitives for the collision solver.
//
// Pure functions on marionette::Vec3; no allocation, no exceptions. Every function is robust to degenerate
// input (zero-length segments, coincident points, zero-area triangles, points at a box centre) and returns
// finite values for finite input of sane magnitude. Penetration conventions, shared by every function:
//   * `normal` is unit length and points out of the obstacle, toward the query sphere / capsule;
//   * `depth` is how far the query must move along `normal` to just touch the obstacle (>= 0);
//   * the function returns false (leaving outputs untouched) when there is no overlap.
// Segment parameters are in [0, 1]: point(t) = lerp(a, b, t). Radii are expected to be >= 0.
#pragma once

#include "marionette/Math.h"

#include <cfloat>
#include <cmath>

namespace marionette::runtime::geo {

using marionette::Mat3;
using marionette::Vec3;

/// Clamp to [0, 1]; NaN maps to 0.
inline float clamp01(float t) { return t > 0.f ? (t < 1.f ? t : 1.f) : 0.f; }

// ---------------------------------------------------------------------------------------------- Aabb

/// Axis-aligned box, closed: a point on the boundary is inside. Empty when min > max on some axis.
struct Aabb {
    Vec3 min, max;
};

/// The empty box (min = +FLT_MAX, max = -FLT_MAX): identity of merge(), overlaps nothing.
inline Aabb emptyAabb() { return {{FLT_MAX, FLT_MAX, FLT_MAX}, {-FLT_MAX, -FLT_MAX, -FLT_MAX}}; }
/// True when the two closed boxes share at least one point (touching counts).
inline bool overlaps(const Aabb& a, const Aabb& b)
{
    return a.min.x <= b.max.x && a.max.x >= b.min.x && a.min.y <= b.max.y && a.max.y >= b.min.y &&
           a.min.z <= b.max.z && a.max.z >= b.min.z;
}
/// `a` grown by r >= 0 on every side.
inline Aabb expand(const Aabb& a, float r) { return {a.min - Vec3{r, r, r}, a.max + Vec3{r, r, r}}; }
/// Smallest box holding both boxes.
inline Aabb merge(const Aabb& a, const Aabb& b) { return {vmin(a.min, b.min), vmax(a.max, b.max)}; }
/// Smallest box holding `a` and point p.
inline Aabb merge(const Aabb& a, Vec3 p) { return {vmin(a.min, p), vmax(a.max, p)}; }
/// True when p lies in the closed box.
inline bool contains(const Aabb& a, Vec3 p)
{
    return p.x >= a.min.x && p.x <= a.max.x && p.y >= a.min.y && p.y <= a.max.y && p.z >= a.min.z &&
           p.z <= a.max.z;
}
/// Bounds of the capsule with axis a–b and radius r >= 0 (r = 0: bounds of the segment).
inline Aabb fromSegment(Vec3 a, Vec3 b, float r) { return expand({vmin(a, b), vmax(a, b)}, r); }
/// Bounds of triangle abc.
inline Aabb fromTriangle(Vec3 a, Vec3 b, Vec3 c) { return {vmin(vmin(a, b), c), vmax(vmax(a, b), c)}; }

// ------------------------------------------------------------------------------------------ Segments

/// Parameter t in [0, 1] of the point of segment a–b closest to p; 0 when a == b.
inline float closestOnSegment(Vec3 p, Vec3 a, Vec3 b)
{
    const Vec3 d = b - a;
    const float l2 = dot(d, d);
    return l2 > 1e-30f ? clamp01(dot(p - a, d) / l2) : 0.f;
}

/// Closest points between segments p1–q1 (parameter s) and p2–q2 (parameter t), both in [0, 1]
/// (Ericson, Real-Time Collision Detection §5.1.9). Degenerate segments act as points; for parallel
/// segments s is the middle of the overlapping stretch, so resting contacts stay centred.
void closestSegmentSegment(Vec3 p1, Vec3 q1, Vec3 p2, Vec3 q2, float& s, float& t);

// ------------------------------------------------------------------------------- Spheres and capsules

/// Sphere (p, r) against solid sphere (centre, R). Coincident centres push along +Y.
inline bool penetrationPointSphere(Vec3 p, float r, Vec3 centre, float R, Vec3& normalOut, float& depthOut)
{
    const Vec3 d = p - centre;
    const float rr = r + R, d2 = dot(d, d);
    if (!(d2 < rr * rr))
        return false;
    normalOut = normalizeOr(d, Vec3{0.f, 1.f, 0.f});
    depthOut = rr - std::sqrt(d2);
    return true;
}

/// Sphere (p, r) against solid capsule with axis ca–cb and radius R (ca == cb: a sphere). A centre on the
/// axis is pushed along a fixed perpendicular of the axis.
inline bool penetrationPointCapsule(Vec3 p, float r, Vec3 ca, Vec3 cb, float R, Vec3& normalOut,
                                    float& depthOut)
{
    const Vec3 q = lerp(ca, cb, closestOnSegment(p, ca, cb));
    const Vec3 d = p - q;
    const float rr = r + R, d2 = dot(d, d);
    if (!(d2 < rr * rr))
        return false;
    normalOut = d2 > 1e-24f ? d * (1.f / std::sqrt(d2)) : anyPerpendicular(normalizeOr(cb - ca, {0.f, 0.f, 1.f}));
    depthOut = rr - std::sqrt(d2);
    return true;
}

/// Capsule (a–b, r) against solid sphere (centre, R); tOut is the parameter on a–b of the contact.
bool penetrationSegmentSphere(Vec3 a, Vec3 b, float r, Vec3 centre, float R, float& tOut, Vec3& normalOut,
                              float& depthOut);

/// Capsule (a–b, r) against solid capsule (ca–cb, R); tOut is the parameter on the moving segment a–b.
bool penetrationSegmentCapsule(Vec3 a, Vec3 b, float r, Vec3 ca, Vec3 cb, float R, float& tOut,
                               Vec3& normalOut, float& depthOut);

// ----------------------------------------------------------------------------------------- Boxes

/// Oriented box: columns of `axes` are orthonormal (local X, Y, Z), `half` holds the half extents (>= 0).
struct Obb {
    Vec3 center;
    Mat3 axes;
    Vec3 half;
};

/// p in the box's local frame.
inline Vec3 toObbLocal(const Obb& box, Vec3 p) { return box.axes.transposeMul(p - box.center); }
/// True when p lies in the closed box.
inline bool pointInsideObb(Vec3 p, const Obb& box)
{
    const Vec3 l = toObbLocal(box, p);
    return std::fabs(l.x) <= box.half.x && std::fabs(l.y) <= box.half.y && std::fabs(l.z) <= box.half.z;
}
/// World-space bounds of the box.
inline Aabb boundsOf(const Obb& box)
{
    const Mat3& m = box.axes;
    const Vec3 h = box.half;
    const Vec3 e{std::fabs(m.c[0].x) * h.x + std::fabs(m.c[1].x) * h.y + std::fabs(m.c[2].x) * h.z,
                 std::fabs(m.c[0].y) * h.x + std::fabs(m.c[1].y) * h.y + std::fabs(m.c[2].y) * h.z,
                 std::fabs(m.c[0].z) * h.x + std::fabs(m.c[1].z) * h.y + std::fabs(m.c[2].z) * h.z};
    return {box.center - e, box.center + e};
}

/// Sphere (p, radius) against the solid box. Outside: normal from the closest box point toward p. Centre
/// inside (even at the exact centre): pushed out through the nearest face (ties: lowest axis, + side),
/// depth = distance to that face + radius. surfacePointOut is the box surface point the normal starts from.
/// Returns true when depth > 0.
bool penetrationPointObb(Vec3 p, float radius, const Obb& box, Vec3& normalOut, float& depthOut,
                         Vec3& surfacePointOut);

/// Capsule (a–b, radius) against the solid box. tOut is exact: the point of a–b closest to the box, or
/// deepest inside it (the middle of the range when a whole stretch is equally close, e.g. a capsule lying
/// flat on a face); normal and depth are those of penetrationPointObb() for the sphere at lerp(a, b, tOut).
bool penetrationSegmentObb(Vec3 a, Vec3 b, float radius, const Obb& box, float& tOut, Vec3& normalOut,
                           float& depthOut);

// -------------------------------------------------------------------------------------- Triangles

/// True when abc has (numerically) zero area: coincident vertices or collinear to ~1e-6 rad.
inline bool isDegenerateTriangle(Vec3 a, Vec3 b, Vec3 c)
{
    const Vec3 ab = b - a, ac = c - a, n = cross(ab, ac);
    return !(dot(n, n) > 1e-12f * dot(ab, ab) * dot(ac, ac));
}

/// Point of triangle abc closest to p (Ericson §5.1.5); baryOut = weights of (a, b, c), summing to 1.
/// Zero-area triangles are handled as their three edges.
Vec3 closestPointOnTriangle(Vec3 p, Vec3 a, Vec3 b, Vec3 c, Vec3& baryOut);
/// Same, without the barycentrics.
inline Vec3 closestPointOnTriangle(Vec3 p, Vec3 a, Vec3 b, Vec3 c)
{
    Vec3 bary;
    return closestPointOnTriangle(p, a, b, c, bary);
}

/// Sphere (p, r) against the two-sided thin triangle abc; normal from the closest triangle point toward p.
/// When p lies on the triangle the face normal cross(b-a, c-a) is used. With `previousPosition` (the
/// particle's position before this step): if the move previous→p crossed the triangle (or ends on it),
/// the particle is pushed back to the side it came from: normal = face normal on the previous side,
/// depth = r + distance of p to the plane — so fast particles cannot tunnel through thin geometry.
bool penetrationPointTriangle(Vec3 p, float r, Vec3 a, Vec3 b, Vec3 c, Vec3& normalOut, float& depthOut,
                              const Vec3* previousPosition = nullptr);

/// Capsule (p0–p1, r) against the two-sided thin triangle abc; tOut on p0–p1 is the closest point (middle
/// of the range when the segment is parallel to the face). If the segment pierces the triangle, the end
/// nearer the plane is pushed back to the other end's side: tOut = 0 or 1, normal = face normal on that
/// side, depth = r + distance of that end to the plane.
bool penetrationSegmentTriangle(Vec3 p0, Vec3 p1, float r, Vec3 a, Vec3 b, Vec3 c, float& tOut,
                                Vec3& normalOut, float& depthOut);

/// True when the closed triangle abc and the box share a point (separating-axis test, Akenine-Möller).
bool triangleOverlapsAabb(Vec3 a, Vec3 b, Vec3 c, const Aabb& box);

// ---------------------------------------------------------------------------------- Segment casts

/// Segment p0–p1 against triangle abc, two-sided (Möller–Trumbore); tOut in [0, 1] is the crossing. Edges
/// count as hits; segments lying in the triangle's plane, zero-length segments and zero-area triangles miss.
bool segmentIntersectsTriangle(Vec3 p0, Vec3 p1, Vec3 a, Vec3 b, Vec3 c, float& tOut);

/// Segment p0–p1 against the solid box (slab test): first parameter tEnter in [0, 1] inside the box and the
/// outward normal of the face entered. p0 inside the box: tEnter = 0, normal of the nearest face.
bool segmentIntersectsObb(Vec3 p0, Vec3 p1, const Obb& box, float& tEnter, Vec3& normalOut);

/// Segment p0–p1 against the solid sphere (centre, R): first parameter tOut in [0, 1] on the sphere (0 when
/// p0 is inside) and the outward normal there (from the centre toward the hit point).
bool segmentIntersectsSphere(Vec3 p0, Vec3 p1, Vec3 centre, float R, float& tOut, Vec3& normalOut);

/// Segment p0–p1 against the solid capsule (ca–cb, R). Conservative: hits whenever the segment passes within
/// R of the axis; tOut is (to ~1e-7) the first parameter where the point is within R of the axis (0 when
/// p0 is inside); normalOut points from the axis toward that point.
bool segmentIntersectsCapsule(Vec3 p0, Vec3 p1, Vec3 ca, Vec3 cb, float R, float& tOut, Vec3& normalOut);

} // namespace marionette::runtime::geo
