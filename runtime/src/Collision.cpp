// Collision by projection (Jakobsen): particles as spheres, sticks as capsules moved by the c1/c2
// barycentric rule, boxes embedded in triangles or tetrahedra, against static planes, spheres, capsules,
// boxes and triangle meshes; self-collision between capsules; friction by penetration depth.
#include "RagdollState.h"
#include "ParticleSse.h"
#include "RagdollContacts.h"
#include "geometry/Geometry.h"
#include "geometry/TriangleMeshBvh.h"

#include <algorithm>
#include <cmath>

namespace marionette::runtime {

namespace {

constexpr float kMargin = 0.05f;   ///< contact candidates are kept this far out of touching
constexpr float kMeshSkin = 0.002f; ///< minimum thickness of a point against a triangle mesh
constexpr float kTouch = 0.001f;    ///< a contact this close counts as touching (static friction holds it)

geo::Obb staticObb(const StaticWorld::Box& b) { return {b.centre, b.axes, b.half}; }

Vec3 boxCorner(const geo::Obb& o, int k)
{
    return o.center + o.axes.c[0] * ((k & 1) ? o.half.x : -o.half.x) + o.axes.c[1] * ((k & 2) ? o.half.y : -o.half.y) +
           o.axes.c[2] * ((k & 4) ? o.half.z : -o.half.z);
}

/// Orthonormal basis closest to the columns of A (Gram–Schmidt, X first).
Mat3 orthonormalize(const Mat3& a)
{
    const Vec3 x = normalizeOr(a.c[0], {1, 0, 0});
    Vec3 y = a.c[1] - x * dot(x, a.c[1]);
    y = normalizeOr(y, anyPerpendicular(x));
    return Mat3::fromColumns(x, y, cross(x, y));
}

/// Inverse of a 3×3 matrix; false when singular.
bool invert3(const Mat3& m, Mat3& out)
{
    const Vec3 c0 = m.c[0], c1 = m.c[1], c2 = m.c[2];
    const Vec3 r0 = cross(c1, c2), r1 = cross(c2, c0), r2 = cross(c0, c1);
    const float det = dot(c0, r0);
    if (!(std::fabs(det) > 1e-18f))
        return false;
    out = Mat3::fromColumns(r0 / det, r1 / det, r2 / det).transposed();
    return true;
}

/// Pushes the side out of a static obstacle by `depth` along n (the obstacle does not move).
inline void pushOut(const ContactSide& side, Vec3 n, float depth)
{
    const float W = side.weight();
    if (W > 1e-12f)
        side.move(n * depth, 1.f / W);
}

/// Jakobsen's friction, applied with each projection: the contact point's tangential displacement this
/// step (x − x*) shrinks by μ·depth, where depth is this projection's; if it is within μ times the whole
/// step's projection, or below the static threshold (metres per step), it is removed (the point sticks).
/// Never reverses. Moves positions, so a resting body does not creep down a slope.
inline void contactFriction(const ContactSide& side, const Vec3* xPrev, Vec3 n, float depth, float stepDepth,
                            float mu, float staticThreshold)
{
    if (!(mu > 0.f))
        return;
    const float W = side.weight();
    if (!(W > 1e-12f))
        return;
    Vec3 v;
    for (std::uint32_t q = 0; q < side.count; ++q)
        v += (side.x[side.idx[q]] - xPrev[side.idx[q]]) * side.c[q];
    const Vec3 vt = v - n * dot(v, n);
    const float speed = length(vt);
    if (!(speed > 0.f))
        return;
    const float f = (speed <= mu * stepDepth || speed <= staticThreshold) ? 1.f : std::min(1.f, mu * depth / speed);
    side.move(vt, -f / W);
}

/// Sphere (p, r) against static obstacle `c`. prev: the particle's previous position (tunnelling guard).
bool pointVersusObstacle(const StaticWorld& world, const StaticContact& c, Vec3 p, float r, const Vec3* prev,
                         Vec3& n, float& depth)
{
    switch (c.obstacle) {
    case ObstacleKind::Plane: {
        const StaticWorld::Plane& pl = world.planes[c.obstacleIndex];
        depth = r - (dot(pl.n, p) - pl.d);
        n = pl.n;
        return depth > 0.f;
    }
    case ObstacleKind::Sphere: {
        const StaticWorld::Sphere& sp = world.spheres[c.obstacleIndex];
        return geo::penetrationPointSphere(p, r, sp.c, sp.r, n, depth);
    }
    case ObstacleKind::Capsule: {
        const StaticWorld::Capsule& cp = world.capsules[c.obstacleIndex];
        return geo::penetrationPointCapsule(p, r, cp.a, cp.b, cp.r, n, depth);
    }
    case ObstacleKind::Box: {
        Vec3 surface;
        return geo::penetrationPointObb(p, r, staticObb(world.boxes[c.obstacleIndex]), n, depth, surface);
    }
    case ObstacleKind::MeshTriangle: {
        // Triangles are thin: a point is kept a skin's width off them, so a resting point is never exactly
        // on the plane, where the next step could not tell which side it came from.
        Vec3 a, b, d;
        world.meshes[c.mesh]->triangle(c.obstacleIndex, a, b, d);
        return geo::penetrationPointTriangle(p, std::max(r, kMeshSkin), a, b, d, n, depth, prev);
    }
    }
    return false;
}

/// Capsule (a–b, r) against static obstacle `c`: contact parameter t on a–b.
bool segmentVersusObstacle(const StaticWorld& world, const StaticContact& c, Vec3 a, Vec3 b, float r, float& t,
                           Vec3& n, float& depth)
{
    switch (c.obstacle) {
    case ObstacleKind::Plane: {
        const StaticWorld::Plane& pl = world.planes[c.obstacleIndex];
        const float da = dot(pl.n, a) - pl.d, db = dot(pl.n, b) - pl.d;
        t = std::fabs(da - db) < 1e-6f ? 0.5f : (da < db ? 0.f : 1.f);
        depth = r - std::min(da, db);
        n = pl.n;
        return depth > 0.f;
    }
    case ObstacleKind::Sphere: {
        const StaticWorld::Sphere& sp = world.spheres[c.obstacleIndex];
        return geo::penetrationSegmentSphere(a, b, r, sp.c, sp.r, t, n, depth);
    }
    case ObstacleKind::Capsule: {
        const StaticWorld::Capsule& cp = world.capsules[c.obstacleIndex];
        return geo::penetrationSegmentCapsule(a, b, r, cp.a, cp.b, cp.r, t, n, depth);
    }
    case ObstacleKind::Box: {
        // Cheap rejection first: the capsule's bounds in the box frame must reach the box.
        const geo::Obb box = staticObb(world.boxes[c.obstacleIndex]);
        const Vec3 la = geo::toObbLocal(box, a), lb = geo::toObbLocal(box, b);
        const Vec3 lo = vmin(la, lb), hi = vmax(la, lb);
        if (lo.x > box.half.x + r || hi.x < -box.half.x - r || lo.y > box.half.y + r || hi.y < -box.half.y - r ||
            lo.z > box.half.z + r || hi.z < -box.half.z - r)
            return false;
        return geo::penetrationSegmentObb(a, b, r, box, t, n, depth);
    }
    case ObstacleKind::MeshTriangle: {
        Vec3 p, q, d;
        world.meshes[c.mesh]->triangle(c.obstacleIndex, p, q, d);
        return geo::penetrationSegmentTriangle(a, b, r, p, q, d, t, n, depth);
    }
    }
    return false;
}

/// Segment cast of a fast particle from `from` to `to` against every static obstacle; on a hit, the
/// earliest contact point lifted by the radius along the surface normal.
bool lineTest(const StaticWorld& world, Vec3 from, Vec3 to, float r, Vec3& out, Vec3& normal)
{
    float best = 2.f;
    Vec3 bestN;
    float t;
    Vec3 n;
    for (const StaticWorld::Plane& pl : world.planes) {
        const float d0 = dot(pl.n, from) - pl.d - r, d1 = dot(pl.n, to) - pl.d - r;
        if (d0 >= 0.f && d1 < 0.f) {
            t = d0 / (d0 - d1);
            if (t < best) {
                best = t;
                bestN = pl.n;
            }
        }
    }
    for (const StaticWorld::Sphere& sp : world.spheres)
        if (geo::segmentIntersectsSphere(from, to, sp.c, sp.r + r, t, n) && t > 0.f && t < best) {
            best = t;
            bestN = n;
        }
    for (const StaticWorld::Capsule& cp : world.capsules)
        if (geo::segmentIntersectsCapsule(from, to, cp.a, cp.b, cp.r + r, t, n) && t > 0.f && t < best) {
            best = t;
            bestN = n;
        }
    for (const StaticWorld::Box& b : world.boxes) {
        geo::Obb o = staticObb(b);
        o.half += Vec3{r, r, r};
        if (geo::segmentIntersectsObb(from, to, o, t, n) && t > 0.f && t < best) {
            best = t;
            bestN = n;
        }
    }
    for (const geo::TriangleMeshBvh* mesh : world.meshes) {
        std::uint32_t tri;
        if (mesh->raycastSegment(from, to, t, tri) && t < best) {
            Vec3 a, b, c;
            mesh->triangle(tri, a, b, c);
            Vec3 fn = normalizeOr(cross(b - a, c - a), {0, 1, 0});
            if (dot(fn, from - a) < 0.f)
                fn = -fn;
            best = t;
            bestN = fn;
            // radius: step back along the path so the sphere, not just its centre, stays in front
            const float along = -dot(to - from, fn);
            if (along > 1e-9f)
                best = std::max(0.f, t - r / along);
        }
    }
    if (best > 1.f)
        return false;
    out = lerp(from, to, best);
    normal = bestN;
    return true;
}

} // namespace

void Solver::boxFrame(const Ragdoll& r, std::uint32_t index, Vec3& centre, Mat3& axes)
{
    const RagdollState& s = *r.mState;
    const BoxData& b = r.rig().boxes()[index];
    Transform owner;
    if (b.particleCount == 3) {
        const std::uint32_t* p = b.particles;
        Mat3 f;
        if (!Rig::triangleFrame(s.x[p[0]], s.x[p[1]], s.x[p[2]], f))
            f = orthonormalize(Mat3{});
        owner = {toQuat(f), (s.x[p[0]] + s.x[p[1]] + s.x[p[2]]) * (1.f / 3.f)};
    } else {
        const Vec3 x0 = s.x[b.particles[0]];
        const Mat3 edges = Mat3::fromColumns(s.x[b.particles[1]] - x0, s.x[b.particles[2]] - x0, s.x[b.particles[3]] - x0);
        owner = {toQuat(orthonormalize(edges * b.bindInverseEdges)), x0};
    }
    const Transform world = owner * b.local;
    centre = world.translation;
    axes = toMat3(world.rotation);
}

void Solver::boxWeights(const Ragdoll& r, std::uint32_t index, Vec3 p, ContactSide& side)
{
    const RagdollState& s = *r.mState;
    const BoxData& b = r.rig().boxes()[index];
    side.x = s.x;
    side.w = s.w.data();
    side.count = b.particleCount;
    for (std::uint32_t k = 0; k < b.particleCount; ++k)
        side.idx[k] = b.particles[k];
    const Vec3 x0 = s.x[b.particles[0]];
    if (b.particleCount == 4) {
        Mat3 inv;
        const Mat3 e = Mat3::fromColumns(s.x[b.particles[1]] - x0, s.x[b.particles[2]] - x0, s.x[b.particles[3]] - x0);
        if (!invert3(e, inv)) {
            side.c[0] = side.c[1] = side.c[2] = side.c[3] = 0.25f;
            return;
        }
        const Vec3 l = inv * (p - x0);
        side.c[0] = 1.f - l.x - l.y - l.z;
        side.c[1] = l.x;
        side.c[2] = l.y;
        side.c[3] = l.z;
    } else {
        // Affine weights of p's projection onto the triangle's plane (may lie outside the triangle).
        const Vec3 e1 = s.x[b.particles[1]] - x0, e2 = s.x[b.particles[2]] - x0, d = p - x0;
        const float a11 = dot(e1, e1), a12 = dot(e1, e2), a22 = dot(e2, e2);
        const float det = a11 * a22 - a12 * a12;
        if (!(std::fabs(det) > 1e-18f)) {
            side.c[0] = side.c[1] = side.c[2] = 1.f / 3.f;
            return;
        }
        const float b1 = dot(d, e1), b2 = dot(d, e2);
        const float u = (a22 * b1 - a12 * b2) / det, v = (a11 * b2 - a12 * b1) / det;
        side.c[0] = 1.f - u - v;
        side.c[1] = u;
        side.c[2] = v;
    }
}

void Solver::colliderBounds(const Ragdoll& r, ColliderKind kind, std::uint32_t index, Vec3& lo, Vec3& hi)
{
    const RagdollState& s = *r.mState;
    const Rig& rig = r.rig();
    if (kind == ColliderKind::Particle) {
        const float rad = rig.radii()[index];
        lo = s.x[index] - Vec3{rad, rad, rad};
        hi = s.x[index] + Vec3{rad, rad, rad};
    } else if (kind == ColliderKind::Capsule) {
        const CapsuleData& c = rig.capsules()[index];
        const Vec3 e{c.radius, c.radius, c.radius};
        lo = vmin(s.x[c.a], s.x[c.b]) - e;
        hi = vmax(s.x[c.a], s.x[c.b]) + e;
    } else {
        geo::Obb o;
        boxFrame(r, index, o.center, o.axes);
        o.half = rig.boxes()[index].half;
        const geo::Aabb bb = geo::boundsOf(o);
        lo = bb.min;
        hi = bb.max;
    }
}

namespace {

/// Line test of a sphere of `radius` that moved from `prev` to `now` this substep: true when it moved further
/// than its radius (at least 5 mm) and ended more than that deep behind a surface it crossed; then `n` is the
/// surface normal and `behind` how far back along it the sphere must go to stand in front of it. Less than the
/// radius inside is left to the contacts, which push out with friction (a body sliding fast along the ground
/// is slowed by them as at any speed).
bool crossedSurface(const StaticWorld& world, Vec3 prev, Vec3 now, float radius, Vec3& n, float& behind)
{
    const float rad = std::max(radius, 0.005f);
    if (!(lengthSquared(now - prev) > rad * rad))
        return false;
    Vec3 hit;
    if (!lineTest(world, prev, now, radius, hit, n))
        return false;
    behind = dot(n, hit - now);
    return behind > rad;
}

} // namespace

void Solver::sweepFastParticles(Ragdoll& r, const StaticWorld& world)
{
    RagdollState& s = *r.mState;
    if (world.empty())
        return;
    const Rig& rig = r.rig();
    const auto radii = rig.radii();
    const std::size_t n = s.w.size();
    const float mu = rig.settings().friction;
    const float still = mu > 0.f ? rig.settings().staticFrictionSpeed * s.dt : 0.f;
    // Particles that moved further than their radius cannot skip thin geometry: what would carry one through
    // a surface is dropped (the motion along it kept), with the friction of that push.
    Vec3 nrm;
    float behind;
    for (std::size_t i = 0; i < n; ++i)
        if (s.w[i] > 0.f && crossedSurface(world, s.xPrev[i], s.x[i], radii[i], nrm, behind)) {
            s.x[i] += nrm * (behind + 1e-4f);
            contactFriction(particleSide(s, std::uint32_t(i)), s.xPrev, nrm, behind, behind, mu, still);
        }
    // The same for capsules, through the middle of their axis: a fast limb whose two ends pass either side
    // of a thin obstacle must not carry its middle through it. Both ends move (the c1/c2 rule at t = ½).
    const auto caps = rig.capsules();
    for (std::uint32_t c = 0; c < caps.size(); ++c) {
        const CapsuleData& cap = caps[c];
        if (capsuleTorn(rig, s, c) || (s.w[cap.a] <= 0.f && s.w[cap.b] <= 0.f))
            continue;
        const Vec3 mid = (s.x[cap.a] + s.x[cap.b]) * 0.5f, midPrev = (s.xPrev[cap.a] + s.xPrev[cap.b]) * 0.5f;
        if (crossedSurface(world, midPrev, mid, cap.radius, nrm, behind))
            pushOut(capsuleSide(s, cap, 0.5f), nrm, behind + 1e-4f);
    }
}

void Solver::beginStep(Ragdoll& r, const StaticWorld& world, Vec3 gravity, float dt)
{
    RagdollState& s = *r.mState;
    const Rig& rig = r.rig();
    const auto radii = rig.radii();
    const std::size_t n = s.w.size();
    beginDrives(r, dt);
    s.stats.newtonSteps = 0;
    s.stats.factorizations = 0;
    std::copy(s.x, s.x + n, s.xFrame.begin());
    s.frameDt = dt;
    // How far each particle may travel this step: its velocity and gravity over dt (the solver can move it
    // further, which the margin and the ground planes every particle keeps cover).
    const float g = length(gravity) * dt * dt;
    const float ratio = dt / s.dt;
    const Vec3* const x = s.x;
    const Vec3* const xPrev = s.xPrev;
    const float* const w = s.w.data();
    float* const reach = s.reach.data();
    // The bounds of the whole ragdoll start from its particles' spheres grown by their reach.
    Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
    std::size_t first = 0; // particles before this one are done
#if MARIONETTE_PARTICLE_SSE
    // Four particles at a time, each number as the loop below computes it, in the same order: the same bits.
    // Their coordinates are three registers of x y z x | y z x y | z x y z, transposed for the lengths.
    {
        const float* const X = &x[0].x;
        const float* const P = &xPrev[0].x;
        const __m128 zero = _mm_setzero_ps(), r4 = _mm_set1_ps(ratio), g4 = _mm_set1_ps(g);
        __m128 lo0 = _mm_set1_ps(INFINITY), lo1 = lo0, lo2 = lo0;
        __m128 hi0 = _mm_set1_ps(-INFINITY), hi1 = hi0, hi2 = hi0;
        for (; first + 4 <= n; first += 4) {
            const float* const xi = X + 3 * first;
            const float* const pi = P + 3 * first;
            const __m128 x0 = _mm_loadu_ps(xi), x1 = _mm_loadu_ps(xi + 4), x2 = _mm_loadu_ps(xi + 8);
            const __m128 d0 = _mm_sub_ps(x0, _mm_loadu_ps(pi)), d1 = _mm_sub_ps(x1, _mm_loadu_ps(pi + 4)),
                         d2 = _mm_sub_ps(x2, _mm_loadu_ps(pi + 8));
            const __m128 s0 = _mm_mul_ps(d0, d0), s1 = _mm_mul_ps(d1, d1), s2 = _mm_mul_ps(d2, d2);
            // s0 = x0 y0 z0 x1, s1 = y1 z1 x2 y2, s2 = z2 x3 y3 z3; _MM_SHUFFLE(d, c, b, a) takes A[a] A[b] B[c] B[d].
            const __m128 sx = _mm_shuffle_ps(s0, _mm_shuffle_ps(s1, s2, _MM_SHUFFLE(1, 1, 2, 2)), _MM_SHUFFLE(2, 0, 3, 0));
            const __m128 sy = _mm_shuffle_ps(_mm_shuffle_ps(s0, s1, _MM_SHUFFLE(0, 0, 1, 1)),
                                             _mm_shuffle_ps(s1, s2, _MM_SHUFFLE(2, 2, 3, 3)), _MM_SHUFFLE(2, 0, 2, 0));
            const __m128 sz = _mm_shuffle_ps(_mm_shuffle_ps(s0, s1, _MM_SHUFFLE(1, 1, 2, 2)),
                                             _mm_shuffle_ps(s2, s2, _MM_SHUFFLE(3, 3, 0, 0)), _MM_SHUFFLE(2, 0, 2, 0));
            const __m128 len = _mm_sqrt_ps(_mm_add_ps(_mm_add_ps(sx, sy), sz));
            const __m128 moving = _mm_cmpgt_ps(_mm_loadu_ps(w + first), zero);
            const __m128 rch = _mm_and_ps(moving, _mm_add_ps(_mm_mul_ps(len, r4), g4));
            _mm_storeu_ps(reach + first, rch);
            const __m128 rr = _mm_add_ps(_mm_loadu_ps(radii.data() + first), rch);
            __m128 e0, e1, e2;
            sse::spreadOverCoordinates(rr, e0, e1, e2);
            lo0 = _mm_min_ps(lo0, _mm_sub_ps(x0, e0)), hi0 = _mm_max_ps(hi0, _mm_add_ps(x0, e0));
            lo1 = _mm_min_ps(lo1, _mm_sub_ps(x1, e1)), hi1 = _mm_max_ps(hi1, _mm_add_ps(x1, e1));
            lo2 = _mm_min_ps(lo2, _mm_sub_ps(x2, e2)), hi2 = _mm_max_ps(hi2, _mm_add_ps(x2, e2));
        }
        // Lane j of register q holds coordinate (4q + j) mod 3.
        alignas(16) float l[12], h[12];
        _mm_store_ps(l, lo0), _mm_store_ps(l + 4, lo1), _mm_store_ps(l + 8, lo2);
        _mm_store_ps(h, hi0), _mm_store_ps(h + 4, hi1), _mm_store_ps(h + 8, hi2);
        for (int k = 0; k < 12; k += 3) {
            lo = vmin(lo, Vec3{l[k], l[k + 1], l[k + 2]});
            hi = vmax(hi, Vec3{h[k], h[k + 1], h[k + 2]});
        }
    }
#endif
    for (std::size_t i = first; i < n; ++i)
        reach[i] = w[i] > 0.f ? length(x[i] - xPrev[i]) * ratio + g : 0.f;

    // Bounds of every collider and of the whole ragdoll, grown by the reach of their particles.
    const auto swept = [&](ColliderKind kind, std::uint32_t index, Vec3& clo, Vec3& chi) {
        if (kind == ColliderKind::Particle) { // colliderBounds' sphere, inline: a cloth has thousands
            const Vec3 rad{radii[index], radii[index], radii[index]}, e{reach[index], reach[index], reach[index]};
            clo = (x[index] - rad) - e;
            chi = (x[index] + rad) + e;
            return;
        }
        colliderBounds(r, kind, index, clo, chi);
        float e = 0.f;
        if (kind == ColliderKind::Capsule) {
            const CapsuleData& c = rig.capsules()[index];
            e = std::max(s.reach[c.a], s.reach[c.b]);
        } else {
            const BoxData& b = rig.boxes()[index];
            for (std::uint32_t q = 0; q < b.particleCount; ++q)
                e = std::max(e, s.reach[b.particles[q]]);
        }
        clo -= Vec3{e, e, e};
        chi += Vec3{e, e, e};
    };
    for (std::size_t i = first; i < n; ++i) {
        const float rr = radii[i] + reach[i];
        const Vec3 e{rr, rr, rr};
        lo = vmin(lo, x[i] - e);
        hi = vmax(hi, x[i] + e);
    }
    const bool statics = !world.empty();
    const auto colliders = rig.colliders();
    for (std::size_t k = 0; k < colliders.size(); ++k) {
        swept(ColliderKind(colliders[k].kind), colliders[k].index, s.colliderLo[k], s.colliderHi[k]);
        s.colliderLo[k] -= Vec3{kMargin, kMargin, kMargin};
        s.colliderHi[k] += Vec3{kMargin, kMargin, kMargin};
        lo = vmin(lo, s.colliderLo[k]);
        hi = vmax(hi, s.colliderHi[k]);
    }
    s.aabbMin = lo - Vec3{kMargin, kMargin, kMargin};
    s.aabbMax = hi + Vec3{kMargin, kMargin, kMargin};

    // Static contact candidates.
    std::uint32_t count = 0, dropped = 0;
    const std::uint32_t capacity = std::uint32_t(s.contacts.size());
    auto add = [&](ColliderKind ck, std::uint32_t ci, ObstacleKind ok, std::uint32_t oi, std::uint16_t mesh) {
        if (count < capacity)
            s.contacts[count++] = {ck, ok, mesh, ci, oi, 0.f, {}, 0.f, 0.f, false};
        else
            ++dropped;
    };
    auto considerAll = [&](ColliderKind ck, std::uint32_t ci, Vec3 clo, Vec3 chi) {
        const geo::Aabb cb{clo - Vec3{kMargin, kMargin, kMargin}, chi + Vec3{kMargin, kMargin, kMargin}};
        for (std::uint32_t p = 0; p < world.planes.size(); ++p) {
            // Particles always get their planes (a dot product per iteration): the solver may move a particle
            // further than any margin within one step (a hard landing folding a limb), and a ground plane
            // must still stop it. Other colliders: when the bounds' support point along −n is within margin.
            const Vec3 pn = world.planes[p].n;
            const Vec3 sp{pn.x > 0.f ? cb.min.x : cb.max.x, pn.y > 0.f ? cb.min.y : cb.max.y, pn.z > 0.f ? cb.min.z : cb.max.z};
            if (ck == ColliderKind::Particle || dot(pn, sp) - world.planes[p].d < 0.f)
                add(ck, ci, ObstacleKind::Plane, p, 0);
        }
        for (std::uint32_t p = 0; p < world.spheres.size(); ++p) {
            const StaticWorld::Sphere& sp = world.spheres[p];
            if (geo::overlaps(cb, {sp.c - Vec3{sp.r, sp.r, sp.r}, sp.c + Vec3{sp.r, sp.r, sp.r}}))
                add(ck, ci, ObstacleKind::Sphere, p, 0);
        }
        for (std::uint32_t p = 0; p < world.capsules.size(); ++p) {
            const StaticWorld::Capsule& cp = world.capsules[p];
            if (geo::overlaps(cb, geo::fromSegment(cp.a, cp.b, cp.r)))
                add(ck, ci, ObstacleKind::Capsule, p, 0);
        }
        for (std::uint32_t p = 0; p < world.boxes.size(); ++p)
            if (geo::overlaps(cb, {world.boxes[p].aabbMin, world.boxes[p].aabbMax}))
                add(ck, ci, ObstacleKind::Box, p, 0);
        for (std::size_t m = 0; m < world.meshes.size(); ++m) {
            bool truncated = false;
            const std::size_t found = world.meshes[m]->overlap(cb, s.meshScratch, &truncated);
            dropped += truncated ? 1u : 0u; // more triangles near one collider than the scratch holds
            for (std::size_t k = 0; k < found; ++k)
                add(ck, ci, ObstacleKind::MeshTriangle, s.meshScratch[k], std::uint16_t(m));
        }
    };
    for (std::uint32_t i = 0; statics && i < n; ++i) {
        if (s.w[i] <= 0.f)
            continue;
        const float rr = radii[i] + s.reach[i];
        const Vec3 e{rr, rr, rr};
        considerAll(ColliderKind::Particle, i, s.x[i] - e, s.x[i] + e);
    }
    const auto caps = rig.capsules();
    for (std::uint32_t i = 0; statics && i < caps.size(); ++i) {
        if (capsuleTorn(rig, s, i))
            continue; // its stick tore: no capsule any more
        Vec3 clo, chi;
        swept(ColliderKind::Capsule, i, clo, chi);
        considerAll(ColliderKind::Capsule, i, clo, chi);
    }
    for (std::uint32_t i = 0; statics && i < rig.boxes().size(); ++i) {
        Vec3 clo, chi;
        swept(ColliderKind::Box, i, clo, chi);
        considerAll(ColliderKind::Box, i, clo, chi);
    }
    s.contactCount = count;
    s.stats.droppedContacts = dropped;
    s.stats.contacts = count;

    // Self-collision candidates: capsule pairs whose bounds come within the margin.
    const auto pairs = rig.selfCapsulePairs();
    std::uint32_t sp = 0;
    for (std::size_t k = 0; k + 1 < pairs.size(); k += 2) {
        if (capsuleTorn(rig, s, pairs[k]) || capsuleTorn(rig, s, pairs[k + 1]))
            continue;
        const CapsuleData& A = caps[pairs[k]];
        const CapsuleData& B = caps[pairs[k + 1]];
        const float ea = std::max(s.reach[A.a], s.reach[A.b]), eb = std::max(s.reach[B.a], s.reach[B.b]);
        const geo::Aabb a = geo::fromSegment(s.x[A.a], s.x[A.b], A.radius + kMargin + ea);
        const geo::Aabb b = geo::fromSegment(s.x[B.a], s.x[B.b], B.radius + eb);
        if (geo::overlaps(a, b))
            s.selfPairs[sp++] = std::uint32_t(k);
    }
    s.selfPairCount = sp;
}

void Solver::solveStaticContacts(Ragdoll& r, const StaticWorld& world)
{
    RagdollState& s = *r.mState;
    const Rig& rig = r.rig();
    const float mu = rig.settings().friction;
    // A contact sliding slower than the static friction speed sticks: this substep's share of it.
    const float still = mu > 0.f ? rig.settings().staticFrictionSpeed * s.dt : 0.f;
    // What was inside a surface before this substep comes out at kMaxDepenetrationSpeed at most (a push moves
    // a particle without moving where it was, so the push becomes velocity: 30 cm inside the floor, at 8
    // substeps, would leave it at 144 m/s).
    const float slack = kMaxDepenetrationSpeed * s.dt;
    const auto radii = rig.radii();
    const auto caps = rig.capsules();
    for (std::uint32_t k = 0; k < s.contactCount; ++k) {
        StaticContact& c = s.contacts[k];
        Vec3 n;
        float depth;
        if (c.collider == ColliderKind::Particle) {
            const std::uint32_t i = c.colliderIndex;
            if (!pointVersusObstacle(world, c, s.x[i], radii[i] + kTouch, &s.xPrev[i], n, depth))
                continue;
            depth -= kTouch;
            if (!c.heldKnown) {
                c.held = heldPenetration(depth, dot(s.x[i] - s.xPrev[i], n), slack);
                c.heldKnown = true;
            }
            depth -= c.held;
            if (depth > 0.f) {
                s.x[i] += n * depth;
                c.depth += depth;
                c.normal = n;
            }
            if (c.depth > 0.f)
                contactFriction(particleSide(s, i), s.xPrev, n, std::max(depth, 0.f), c.depth, mu, still);
        } else if (c.collider == ColliderKind::Capsule) {
            const CapsuleData& cap = caps[c.colliderIndex];
            float t;
            if (c.tKnown) {
                // Against a box, the segment-box solve runs once per step: later iterations test the capsule's
                // sphere at the closest point it found (the shapes move too little within a step for it to
                // slide far).
                t = c.tFirst;
                if (!pointVersusObstacle(world, c, lerp(s.x[cap.a], s.x[cap.b], t), cap.radius + kTouch, nullptr, n, depth))
                    continue;
            } else {
                if (!segmentVersusObstacle(world, c, s.x[cap.a], s.x[cap.b], cap.radius + kTouch, t, n, depth))
                    continue;
                if (c.obstacle == ObstacleKind::Box) {
                    c.tFirst = t;
                    c.tKnown = true;
                }
            }
            depth -= kTouch;
            if (!c.heldKnown) {
                const Vec3 motion = lerp(s.x[cap.a] - s.xPrev[cap.a], s.x[cap.b] - s.xPrev[cap.b], t);
                c.held = heldPenetration(depth, dot(motion, n), slack);
                c.heldKnown = true;
            }
            depth -= c.held;
            const ContactSide side = capsuleSide(s, cap, t);
            if (depth > 0.f) {
                pushOut(side, n, depth);
                c.depth += depth;
                c.normal = n;
                c.t = t;
            }
            if (c.depth > 0.f)
                contactFriction(side, s.xPrev, n, std::max(depth, 0.f), c.depth, mu, still);
        } else {
            // Box: every corner is a point carried by the owner particles' affine weights (Jakobsen §5).
            geo::Obb o;
            boxFrame(r, c.colliderIndex, o.center, o.axes);
            o.half = rig.boxes()[c.colliderIndex].half;
            float iterDepth = 0.f;
            Vec3 iterNormal;
            for (int corner = 0; corner < 8; ++corner) {
                const Vec3 p = boxCorner(o, corner);
                ContactSide side;
                boxWeights(r, c.colliderIndex, p, side);
                Vec3 prev; // where the corner was at the start of the step, for thin geometry
                for (std::uint32_t q = 0; q < side.count; ++q)
                    prev += s.xPrev[side.idx[q]] * side.c[q];
                if (!pointVersusObstacle(world, c, p, 0.f, &prev, n, depth))
                    continue;
                pushOut(side, n, depth);
                c.depth += depth;
                c.normal = n;
                iterDepth += depth;
                iterNormal += n * depth;
            }
            // Friction at the box's centre (all owner particles with positive weights), so holding one
            // corner cannot spin the box and push its centre backwards.
            if (c.depth > 0.f) {
                Vec3 centre;
                Mat3 axes;
                boxFrame(r, c.colliderIndex, centre, axes);
                ContactSide side;
                boxWeights(r, c.colliderIndex, centre, side);
                contactFriction(side, s.xPrev, normalizeOr(iterNormal, c.normal), iterDepth, c.depth, mu, still);
            }
        }
    }
}

std::uint32_t Solver::gatherContacts(Ragdoll& r, const StaticWorld& world, float band, GatheredContact* out,
                                     std::uint32_t capacity)
{
    RagdollState& s = *r.mState;
    const Rig& rig = r.rig();
    const auto radii = rig.radii();
    const auto caps = rig.capsules();
    std::uint32_t count = 0;
    for (std::uint32_t k = 0; k < s.contactCount && count < capacity; ++k) {
        StaticContact& c = s.contacts[k];
        Vec3 n;
        float depth;
        if (c.collider == ColliderKind::Particle) {
            const std::uint32_t i = c.colliderIndex;
            if (s.w[i] <= 0.f || !pointVersusObstacle(world, c, s.x[i], radii[i] + band, &s.xPrev[i], n, depth))
                continue;
            out[count++] = {{particleSide(s, i), n, depth - band - c.held}, -1, c.depth};
        } else if (c.collider == ColliderKind::Capsule) {
            const CapsuleData& cap = caps[c.colliderIndex];
            if (c.obstacle == ObstacleKind::Plane) {
                // A capsule lying on a plane rests on both ends: one contact each, so the contact point does
                // not jump from end to end as they take turns being the lower one.
                const StaticWorld::Plane& pl = world.planes[c.obstacleIndex];
                for (int end = 0; end < 2 && count < capacity; ++end) {
                    const Vec3 p = end == 0 ? s.x[cap.a] : s.x[cap.b];
                    const float dd = cap.radius + band - (dot(pl.n, p) - pl.d) - c.held;
                    if (dd > 0.f)
                        out[count++] = {{capsuleSide(s, cap, float(end)), pl.n, dd - band}, std::int32_t(c.colliderIndex), c.depth};
                }
                continue;
            }
            float t;
            if (!segmentVersusObstacle(world, c, s.x[cap.a], s.x[cap.b], cap.radius + band, t, n, depth))
                continue;
            out[count++] = {{capsuleSide(s, cap, t), n, depth - band - c.held}, std::int32_t(c.colliderIndex), c.depth};
        }
    }
    return count;
}

void Solver::solveSelfCollision(Ragdoll& r)
{
    RagdollState& s = *r.mState;
    const auto caps = r.rig().capsules();
    const auto pairs = r.rig().selfCapsulePairs();
    for (std::uint32_t k = 0; k < s.selfPairCount; ++k) {
        const CapsuleData& A = caps[pairs[s.selfPairs[k]]];
        const CapsuleData& B = caps[pairs[s.selfPairs[k] + 1]];
        float sa, tb;
        geo::closestSegmentSegment(s.x[A.a], s.x[A.b], s.x[B.a], s.x[B.b], sa, tb);
        const Vec3 d = lerp(s.x[A.a], s.x[A.b], sa) - lerp(s.x[B.a], s.x[B.b], tb);
        const float rr = A.radius + B.radius;
        const float d2 = lengthSquared(d);
        if (d2 >= rr * rr)
            continue;
        const float dist = std::sqrt(d2);
        const Vec3 n = dist > 1e-7f ? d / dist : anyPerpendicular(normalizeOr(s.x[A.b] - s.x[A.a], {0, 1, 0}));
        const ContactSide a = capsuleSide(s, A, sa), b = capsuleSide(s, B, tb);
        const float W = a.weight() + b.weight();
        if (!(W > 1e-12f))
            continue;
        const float depth = rr - dist;
        a.move(n, depth / W);
        b.move(-n, depth / W);
        // Coulomb friction between the two limbs, as between two ragdolls: a crossed arm and leg grip.
        s.selfDepth[k] += depth;
        contactFriction(r, a, r, b, n, depth, s.selfDepth[k]);
    }
}

} // namespace marionette::runtime
