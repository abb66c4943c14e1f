// Tests of marionette::runtime::geo: closest points and penetrations against hand-derived values, degenerate
// inputs (which must stay finite), and exactness checks of the segment queries against dense sampling.
// The segment casts are tested in tst_segmentcast, TriangleMeshBvh in tst_bvh.
#include "FastMath.h"
#include "geometry/Geometry.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <random>

#include "GeometryTestSupport.h"

using namespace marionette;
using namespace marionette::runtime::geo;
using namespace marionette::test;

namespace {

bool finite(float f) { return std::isfinite(f); }

} // namespace

#define EXPECT_FINITE(v) QVERIFY2(isFinite(v), qPrintable(QString::fromLatin1(#v) + QStringLiteral(" = ") + str(v)))

class TestGeometry : public QObject {
    Q_OBJECT

private slots:
    // The angular solver's polynomial trigonometry
    void fastMath_atan2MatchesLibm();
    void fastMath_rotationsMatchExact();
    // Aabb
    void aabb_helpers();
    // Segments
    void closestOnSegment_basic();
    void closestOnSegment_degenerate();
    void closestSegmentSegment_crossing();
    void closestSegmentSegment_clamped();
    void closestSegmentSegment_parallel();
    void closestSegmentSegment_degenerate();
    void closestSegmentSegment_matchesSampling();
    // Spheres and capsules
    void penetrationPointSphere_basic();
    void penetrationPointCapsule_basic();
    void penetrationSegmentSphere_basic();
    void penetrationSegmentCapsule_basic();
    void penetrationSegmentCapsule_matchesSampling();
    // Boxes
    void pointInsideObb_basic();
    void penetrationPointObb_outside();
    void penetrationPointObb_inside();
    void penetrationSegmentObb_basic();
    void penetrationSegmentObb_matchesSampling();
    // Triangles
    void closestPointOnTriangle_regions();
    void closestPointOnTriangle_degenerate();
    void penetrationPointTriangle_basic();
    void penetrationPointTriangle_previousPosition();
    void penetrationSegmentTriangle_basic();
    void penetrationSegmentTriangle_matchesSampling();
    void triangleOverlapsAabb_basic();
    // Degenerate inputs
    void degenerate_inputsStayFinite();
};

// ---------------------------------------------------------------------------------------------- Aabb

// fast::atan2 over the whole circle and every magnitude ratio: within 2e-6 rad of the C library's.
void TestGeometry::fastMath_atan2MatchesLibm()
{
    double worst = 0.0;
    for (int i = 0; i <= 20000; ++i) {
        const double t = -kPi + 2.0 * kPi * double(i) / 20000.0;
        for (const double radius : {1e-6, 0.3, 1.0, 250.0}) {
            const float y = float(std::sin(t) * radius), x = float(std::cos(t) * radius);
            worst = std::max(worst, std::fabs(double(runtime::fast::atan2(y, x)) - std::atan2(double(y), double(x))));
        }
    }
    QVERIFY2(worst < 2e-6, qPrintable(QStringLiteral("largest error %1 rad").arg(worst)));
    QCOMPARE(runtime::fast::atan2(0.f, 0.f), 0.f);
    QCOMPARE(runtime::fast::atan2(0.f, -1.f), 3.14159265359f);
}

// fast::fromAxisAngle is the same rotation as Quat::fromAxisAngle (up to the quaternion's sign) for any
// angle, including beyond ±π, and stays unit length.
void TestGeometry::fastMath_rotationsMatchExact()
{
    const Vec3 axis = Vec3{0.3f, -0.5f, 0.8f} * (1.f / std::sqrt(0.98f));
    float worst = 0.f, worstNorm = 0.f;
    for (int i = -3000; i <= 3000; ++i) {
        const float a = float(i) * 0.005f; // ±15 rad
        const Quat q = runtime::fast::fromAxisAngle(axis, a);
        const Quat r = Quat::fromAxisAngle(axis, a);
        const float same = std::fabs(q.x - r.x) + std::fabs(q.y - r.y) + std::fabs(q.z - r.z) + std::fabs(q.w - r.w);
        const float flipped = std::fabs(q.x + r.x) + std::fabs(q.y + r.y) + std::fabs(q.z + r.z) + std::fabs(q.w + r.w);
        worst = std::max(worst, std::min(same, flipped));
        worstNorm = std::max(worstNorm, std::fabs(std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w) - 1.f));
    }
    QVERIFY2(worst < 2e-6f, qPrintable(QStringLiteral("largest difference %1").arg(double(worst))));
    QVERIFY2(worstNorm < 1e-6f, qPrintable(QStringLiteral("largest |q| - 1: %1").arg(double(worstNorm))));
}

void TestGeometry::aabb_helpers()
{
    const Aabb a{{0, 0, 0}, {1, 1, 1}};
    QVERIFY(overlaps(a, Aabb{{1, 1, 1}, {2, 2, 2}})); // touching corner counts
    QVERIFY(!overlaps(a, Aabb{{1.01f, 0, 0}, {2, 1, 1}}));
    QVERIFY(!overlaps(a, Aabb{{0, -2, 0}, {1, -0.5f, 1}}));
    QVERIFY(!overlaps(a, emptyAabb()));
    const Aabb e = expand(a, 0.5f);
    EXPECT_VEC(e.min, Vec3(-0.5f, -0.5f, -0.5f), 0.f);
    EXPECT_VEC(e.max, Vec3(1.5f, 1.5f, 1.5f), 0.f);
    const Aabb m = merge(a, Aabb{{-1, 2, 0.5f}, {0, 3, 0.7f}});
    EXPECT_VEC(m.min, Vec3(-1, 0, 0), 0.f);
    EXPECT_VEC(m.max, Vec3(1, 3, 1), 0.f);
    const Aabb mp = merge(merge(emptyAabb(), Vec3{2, -1, 0}), Vec3{1, 1, 1});
    EXPECT_VEC(mp.min, Vec3(1, -1, 0), 0.f);
    EXPECT_VEC(mp.max, Vec3(2, 1, 1), 0.f);
    QVERIFY(contains(a, {1, 0, 0.5f}));
    QVERIFY(!contains(a, {1, 0, 1.0001f}));
    const Aabb s = fromSegment({1, 2, 3}, {-1, 5, 3}, 0.25f);
    EXPECT_VEC(s.min, Vec3(-1.25f, 1.75f, 2.75f), 0.f);
    EXPECT_VEC(s.max, Vec3(1.25f, 5.25f, 3.25f), 0.f);
    const Aabb t = fromTriangle(kTa, kTb, kTc);
    EXPECT_VEC(t.max, Vec3(2, 2, 0), 0.f);
    // A unit cube turned 45° about Y is sqrt(2) wide in X and Z.
    Obb b;
    b.axes = toMat3(Quat::fromAxisAngle({0, 1, 0}, kPi / 4));
    b.half = {0.5f, 0.5f, 0.5f};
    const Aabb bb = boundsOf(b);
    EXPECT_VEC(bb.max, Vec3(std::sqrt(0.5f), 0.5f, std::sqrt(0.5f)), kTol);
    EXPECT_VEC(bb.min, -bb.max, kTol);
}

// ------------------------------------------------------------------------------------------ Segments

void TestGeometry::closestOnSegment_basic()
{
    EXPECT_NEAR(closestOnSegment({0.5f, 1, 0}, {0, 0, 0}, {1, 0, 0}), 0.5f, kTol);
    EXPECT_NEAR(closestOnSegment({3, 2, 1}, {0, 0, 0}, {4, 0, 0}), 0.75f, kTol);
    EXPECT_NEAR(closestOnSegment({-2, 1, 0}, {0, 0, 0}, {1, 0, 0}), 0.f, 0.f);
    EXPECT_NEAR(closestOnSegment({7, -1, 0}, {0, 0, 0}, {1, 0, 0}), 1.f, 0.f);
}

void TestGeometry::closestOnSegment_degenerate()
{
    EXPECT_NEAR(closestOnSegment({1, 2, 3}, {1, 1, 1}, {1, 1, 1}), 0.f, 0.f);
    EXPECT_NEAR(closestOnSegment({1, 1, 1}, {1, 1, 1}, {1, 1, 1}), 0.f, 0.f);
    const float t = closestOnSegment({1e6f, 0, 0}, {0, 0, 0}, {1e-20f, 0, 0});
    QVERIFY(finite(t) && t >= 0.f && t <= 1.f);
}

void TestGeometry::closestSegmentSegment_crossing()
{
    float s = -1, t = -1;
    closestSegmentSegment({-1, 0, 0}, {1, 0, 0}, {0, -1, 1}, {0, 1, 1}, s, t);
    EXPECT_NEAR(s, 0.5f, kTol);
    EXPECT_NEAR(t, 0.5f, kTol);
    // Skew: x-axis segment [0, 2] and a z-parallel segment at x = 1.5, y = 1, z ∈ [-1, 3].
    closestSegmentSegment({0, 0, 0}, {2, 0, 0}, {1.5f, 1, -1}, {1.5f, 1, 3}, s, t);
    EXPECT_NEAR(s, 0.75f, kTol);
    EXPECT_NEAR(t, 0.25f, kTol);
}

void TestGeometry::closestSegmentSegment_clamped()
{
    float s = -1, t = -1;
    closestSegmentSegment({0, 0, 0}, {1, 0, 0}, {2, 1, 0}, {2, 3, 0}, s, t);
    EXPECT_NEAR(s, 1.f, kTol);
    EXPECT_NEAR(t, 0.f, kTol);
    closestSegmentSegment({0, 0, 0}, {1, 0, 0}, {-1, 2, -3}, {-1, 2, 3}, s, t);
    EXPECT_NEAR(s, 0.f, kTol);
    EXPECT_NEAR(t, 0.5f, kTol);
}

void TestGeometry::closestSegmentSegment_parallel()
{
    float s = -1, t = -1;
    // Segment 2 projects onto s ∈ [0.25, 0.75] of segment 1: the middle of that stretch.
    closestSegmentSegment({0, 0, 0}, {4, 0, 0}, {1, 1, 0}, {3, 1, 0}, s, t);
    EXPECT_NEAR(s, 0.5f, kTol);
    EXPECT_NEAR(t, 0.5f, kTol);
    // Antiparallel gives the same pair.
    closestSegmentSegment({0, 0, 0}, {4, 0, 0}, {3, 1, 0}, {1, 1, 0}, s, t);
    EXPECT_NEAR(s, 0.5f, kTol);
    EXPECT_NEAR(t, 0.5f, kTol);
    // Partial overlap [0.75, 1]: s = 0.875 (x = 3.5), which is 1/6 along x ∈ [3, 6].
    closestSegmentSegment({0, 0, 0}, {4, 0, 0}, {3, 1, 0}, {6, 1, 0}, s, t);
    EXPECT_NEAR(s, 0.875f, kTol);
    EXPECT_NEAR(t, 1.f / 6.f, kTol);
    // Disjoint: nearest ends.
    closestSegmentSegment({0, 0, 0}, {4, 0, 0}, {5, 1, 0}, {7, 1, 0}, s, t);
    EXPECT_NEAR(s, 1.f, kTol);
    EXPECT_NEAR(t, 0.f, kTol);
    // Collinear and overlapping: distance 0.
    closestSegmentSegment({0, 0, 0}, {2, 0, 0}, {1, 0, 0}, {3, 0, 0}, s, t);
    EXPECT_NEAR(length(lerp(Vec3{0, 0, 0}, Vec3{2, 0, 0}, s) - lerp(Vec3{1, 0, 0}, Vec3{3, 0, 0}, t)), 0.f, kTol);
    EXPECT_NEAR(s, 0.75f, kTol);
}

void TestGeometry::closestSegmentSegment_degenerate()
{
    float s = -1, t = -1;
    closestSegmentSegment({1, 1, 1}, {1, 1, 1}, {2, 2, 2}, {2, 2, 2}, s, t);
    QCOMPARE(s, 0.f);
    QCOMPARE(t, 0.f);
    closestSegmentSegment({0.5f, 1, 0}, {0.5f, 1, 0}, {0, 0, 0}, {1, 0, 0}, s, t);
    EXPECT_NEAR(s, 0.f, 0.f);
    EXPECT_NEAR(t, 0.5f, kTol);
    closestSegmentSegment({0, 0, 0}, {4, 0, 0}, {1, 5, 0}, {1, 5, 0}, s, t);
    EXPECT_NEAR(s, 0.25f, kTol);
    EXPECT_NEAR(t, 0.f, 0.f);
    closestSegmentSegment({0, 0, 0}, {1e-12f, 0, 0}, {0, 1, 0}, {1e-12f, 1, 1e-13f}, s, t);
    QVERIFY(finite(s) && finite(t) && s >= 0 && s <= 1 && t >= 0 && t <= 1);
}

void TestGeometry::closestSegmentSegment_matchesSampling()
{
    std::mt19937 rng(1);
    for (int it = 0; it < 300; ++it) {
        const Vec3 p1 = randomVec(rng, -1, 1), q1 = randomVec(rng, -1, 1), p2 = randomVec(rng, -1, 1);
        // Every third pair is nearly parallel.
        const Vec3 q2 = it % 3 == 0 ? p2 + (q1 - p1) * 0.7f + randomVec(rng, -1e-4f, 1e-4f) : randomVec(rng, -1, 1);
        float s = 0, t = 0;
        closestSegmentSegment(p1, q1, p2, q2, s, t);
        QVERIFY(s >= 0 && s <= 1 && t >= 0 && t <= 1);
        const float d = length(lerp(p1, q1, s) - lerp(p2, q2, t));
        float best = 1e9f;
        for (int i = 0; i <= 200; ++i) {
            const Vec3 p = lerp(p1, q1, static_cast<float>(i) / 200.f);
            best = std::min(best, length(p - lerp(p2, q2, closestOnSegment(p, p2, q2))));
        }
        QVERIFY2(d <= best + 1e-4f, qPrintable(QStringLiteral("iteration %1: %2 > %3").arg(it).arg(d).arg(best)));
    }
}

// ------------------------------------------------------------------------------- Spheres and capsules

void TestGeometry::penetrationPointSphere_basic()
{
    Vec3 n;
    float depth = -1;
    QVERIFY(penetrationPointSphere({0, 1.2f, 0}, 0.5f, {0, 0, 0}, 1.f, n, depth));
    EXPECT_VEC(n, Vec3(0, 1, 0), kTol);
    EXPECT_NEAR(depth, 0.3f, kTol);
    QVERIFY(penetrationPointSphere({3, 4, 0}, 1.f, {0, 0, 0}, 4.5f, n, depth));
    EXPECT_VEC(n, Vec3(0.6f, 0.8f, 0), kTol);
    EXPECT_NEAR(depth, 0.5f, kTol);
    QVERIFY(!penetrationPointSphere({0, 1.6f, 0}, 0.5f, {0, 0, 0}, 1.f, n, depth));
    // Coincident centres: +Y, full depth.
    QVERIFY(penetrationPointSphere({1, 1, 1}, 0.25f, {1, 1, 1}, 0.5f, n, depth));
    EXPECT_VEC(n, Vec3(0, 1, 0), 0.f);
    EXPECT_NEAR(depth, 0.75f, kTol);
}

void TestGeometry::penetrationPointCapsule_basic()
{
    const Vec3 ca{0, 0, 0}, cb{0, 2, 0};
    Vec3 n;
    float depth = -1;
    QVERIFY(penetrationPointCapsule({0.5f, 1, 0}, 0.2f, ca, cb, 0.5f, n, depth));
    EXPECT_VEC(n, Vec3(1, 0, 0), kTol);
    EXPECT_NEAR(depth, 0.2f, kTol);
    QVERIFY(!penetrationPointCapsule({0.8f, 1, 0}, 0.1f, ca, cb, 0.5f, n, depth));
    QVERIFY(penetrationPointCapsule({0, 2.6f, 0}, 0.2f, ca, cb, 0.5f, n, depth)); // over the top cap
    EXPECT_VEC(n, Vec3(0, 1, 0), kTol);
    EXPECT_NEAR(depth, 0.1f, kTol);
    // On the axis: any unit normal perpendicular to it, full depth.
    QVERIFY(penetrationPointCapsule({0, 1, 0}, 0.2f, ca, cb, 0.5f, n, depth));
    EXPECT_NEAR(length(n), 1.f, kTol);
    EXPECT_NEAR(dot(n, Vec3(0, 1, 0)), 0.f, kTol);
    EXPECT_NEAR(depth, 0.7f, kTol);
    // Zero-length capsule acts as a sphere, even at its centre.
    QVERIFY(penetrationPointCapsule({0, 0, 0.3f}, 0.f, ca, ca, 0.5f, n, depth));
    EXPECT_VEC(n, Vec3(0, 0, 1), kTol);
    EXPECT_NEAR(depth, 0.2f, kTol);
    QVERIFY(penetrationPointCapsule(ca, 0.1f, ca, ca, 0.5f, n, depth));
    EXPECT_NEAR(length(n), 1.f, kTol);
    EXPECT_NEAR(depth, 0.6f, kTol);
}

void TestGeometry::penetrationSegmentSphere_basic()
{
    Vec3 n;
    float t = -1, depth = -1;
    QVERIFY(penetrationSegmentSphere({-1, 0.5f, 0}, {1, 0.5f, 0}, 0.1f, {0, 0, 0}, 0.5f, t, n, depth));
    EXPECT_NEAR(t, 0.5f, kTol);
    EXPECT_VEC(n, Vec3(0, 1, 0), kTol);
    EXPECT_NEAR(depth, 0.1f, kTol);
    QVERIFY(penetrationSegmentSphere({1, 0, 0}, {3, 0, 0}, 0.25f, {0, 0, 0}, 1.f, t, n, depth)); // end touches
    EXPECT_NEAR(t, 0.f, 0.f);
    EXPECT_VEC(n, Vec3(1, 0, 0), kTol);
    EXPECT_NEAR(depth, 0.25f, kTol);
    QVERIFY(!penetrationSegmentSphere({-1, 1, 0}, {1, 1, 0}, 0.1f, {0, 0, 0}, 0.5f, t, n, depth));
    // Through the centre: perpendicular to the segment.
    QVERIFY(penetrationSegmentSphere({-1, 0, 0}, {1, 0, 0}, 0.1f, {0, 0, 0}, 0.5f, t, n, depth));
    EXPECT_NEAR(t, 0.5f, kTol);
    EXPECT_NEAR(length(n), 1.f, kTol);
    EXPECT_NEAR(n.x, 0.f, kTol);
    EXPECT_NEAR(depth, 0.6f, kTol);
}

void TestGeometry::penetrationSegmentCapsule_basic()
{
    Vec3 n;
    float t = -1, depth = -1;
    // Crossing at right angles, 0.3 apart in z.
    QVERIFY(penetrationSegmentCapsule({-1, 0, 0.3f}, {1, 0, 0.3f}, 0.1f, {0, -1, 0}, {0, 1, 0}, 0.25f, t, n, depth));
    EXPECT_NEAR(t, 0.5f, kTol);
    EXPECT_VEC(n, Vec3(0, 0, 1), kTol);
    EXPECT_NEAR(depth, 0.05f, kTol);
    // Parallel, overlapping on s ∈ [0.5, 1]: contact in the middle of it.
    QVERIFY(penetrationSegmentCapsule({0, 0.3f, 0}, {2, 0.3f, 0}, 0.1f, {1, 0, 0}, {5, 0, 0}, 0.25f, t, n, depth));
    EXPECT_NEAR(t, 0.75f, kTol);
    EXPECT_VEC(n, Vec3(0, 1, 0), kTol);
    EXPECT_NEAR(depth, 0.05f, kTol);
    QVERIFY(!penetrationSegmentCapsule({0, 0.4f, 0}, {2, 0.4f, 0}, 0.1f, {1, 0, 0}, {5, 0, 0}, 0.25f, t, n, depth));
    // Axes intersect: normal perpendicular to both, full depth.
    QVERIFY(penetrationSegmentCapsule({-1, 0, 0}, {1, 0, 0}, 0.1f, {0, -1, 0}, {0, 1, 0}, 0.25f, t, n, depth));
    EXPECT_NEAR(std::fabs(n.z), 1.f, kTol);
    EXPECT_NEAR(depth, 0.35f, kTol);
    // Collinear overlapping axes: some unit normal perpendicular to them.
    QVERIFY(penetrationSegmentCapsule({0, 0, 0}, {2, 0, 0}, 0.1f, {1, 0, 0}, {3, 0, 0}, 0.25f, t, n, depth));
    EXPECT_NEAR(length(n), 1.f, kTol);
    EXPECT_NEAR(n.x, 0.f, kTol);
    EXPECT_NEAR(depth, 0.35f, kTol);
}

void TestGeometry::penetrationSegmentCapsule_matchesSampling()
{
    std::mt19937 rng(1);
    int hits = 0;
    for (int it = 0; it < 300; ++it) {
        const Vec3 a = randomVec(rng, -1, 1), b = randomVec(rng, -1, 1);
        const Vec3 ca = randomVec(rng, -1, 1), cb = it % 4 == 0 ? ca + (b - a) * 0.5f : randomVec(rng, -1, 1);
        const float r = randomFloat(rng, 0.f, 0.3f), R = randomFloat(rng, 0.f, 0.3f);
        float sampled = -1.f;
        for (int i = 0; i <= 400; ++i) {
            Vec3 n;
            float d = 0;
            if (penetrationPointCapsule(lerp(a, b, static_cast<float>(i) / 400.f), r, ca, cb, R, n, d))
                sampled = std::max(sampled, d);
        }
        Vec3 n;
        float t = 0, depth = -1;
        const bool hit = penetrationSegmentCapsule(a, b, r, ca, cb, R, t, n, depth);
        QVERIFY(hit || sampled < 1e-5f);
        if (hit) {
            ++hits;
            QVERIFY(depth >= sampled - 1e-4f);
            QVERIFY(depth <= r + R + 1e-5f);
            EXPECT_NEAR(length(n), 1.f, kTol);
        }
    }
    QVERIFY(hits > 20);
}

// ----------------------------------------------------------------------------------------- Boxes

void TestGeometry::pointInsideObb_basic()
{
    const Obb b = testBox();
    QVERIFY(pointInsideObb(world(b, {0.9f, 0.4f, -1.9f}), b));
    QVERIFY(pointInsideObb(b.center, b));
    QVERIFY(!pointInsideObb(world(b, {1.1f, 0, 0}), b));
    QVERIFY(!pointInsideObb(world(b, {0, -0.55f, 0}), b));
    QVERIFY(!pointInsideObb(world(b, {0, 0, 2.05f}), b));
}

void TestGeometry::penetrationPointObb_outside()
{
    const Obb b = testBox();
    Vec3 n, surface;
    float depth = -1;
    QVERIFY(penetrationPointObb(world(b, {1.3f, 0, 0}), 0.5f, b, n, depth, surface));
    EXPECT_VEC(n, b.axes.c[0], kTol);
    EXPECT_NEAR(depth, 0.2f, kTol);
    EXPECT_VEC(surface, world(b, {1, 0, 0}), kTol);
    // Off an edge: local offset (0.3, 0.4, 0) from the edge point (1, 0.5, 0.7).
    QVERIFY(penetrationPointObb(world(b, {1.3f, 0.9f, 0.7f}), 0.6f, b, n, depth, surface));
    EXPECT_VEC(n, b.axes * Vec3(0.6f, 0.8f, 0), kTol);
    EXPECT_NEAR(depth, 0.1f, kTol);
    EXPECT_VEC(surface, world(b, {1, 0.5f, 0.7f}), kTol);
    QVERIFY(!penetrationPointObb(world(b, {1.3f, 0, 0}), 0.25f, b, n, depth, surface));
    QVERIFY(!penetrationPointObb(world(b, {1.3f, 0.9f, 0.7f}), 0.45f, b, n, depth, surface));
}

void TestGeometry::penetrationPointObb_inside()
{
    const Obb b = testBox();
    Vec3 n, surface;
    float depth = -1;
    // Gaps to the faces: x 0.8, y 0.4, z 0.5 — out through +Y.
    QVERIFY(penetrationPointObb(world(b, {0.2f, 0.1f, 1.5f}), 0.1f, b, n, depth, surface));
    EXPECT_VEC(n, b.axes.c[1], kTol);
    EXPECT_NEAR(depth, 0.5f, kTol);
    EXPECT_VEC(surface, world(b, {0.2f, 0.5f, 1.5f}), kTol);
    // Negative side.
    QVERIFY(penetrationPointObb(world(b, {0, -0.3f, 0}), 0.f, b, n, depth, surface));
    EXPECT_VEC(n, -b.axes.c[1], kTol);
    EXPECT_NEAR(depth, 0.2f, kTol);
    // Exactly at the centre: nearest face is ±Y (half 0.5); the + side is chosen.
    QVERIFY(penetrationPointObb(b.center, 0.25f, b, n, depth, surface));
    EXPECT_VEC(n, b.axes.c[1], kTol);
    EXPECT_NEAR(depth, 0.75f, kTol);
    EXPECT_VEC(surface, world(b, {0, 0.5f, 0}), kTol);
    // Flat box (zero half height): a point in its plane is pushed out along +Y by the radius.
    Obb flat = b;
    flat.half.y = 0.f;
    QVERIFY(penetrationPointObb(world(flat, {0.3f, 0, -0.2f}), 0.1f, flat, n, depth, surface));
    EXPECT_VEC(n, flat.axes.c[1], kTol);
    EXPECT_NEAR(depth, 0.1f, kTol);
    // On the surface with zero radius: touching, not penetrating.
    Obb axisAligned;
    axisAligned.half = {1, 1, 1};
    QVERIFY(!penetrationPointObb({1, 0, 0}, 0.f, axisAligned, n, depth, surface));
}

void TestGeometry::penetrationSegmentObb_basic()
{
    const Obb b = testBox();
    Vec3 n;
    float t = -1, depth = -1;
    // Lying flat 0.1 above the +Y face: contact at the middle.
    QVERIFY(penetrationSegmentObb(world(b, {-0.5f, 0.6f, 0}), world(b, {0.5f, 0.6f, 0}), 0.2f, b, t, n, depth));
    EXPECT_NEAR(t, 0.5f, 1e-4f);
    EXPECT_VEC(n, b.axes.c[1], kTol);
    EXPECT_NEAR(depth, 0.1f, kTol);
    // Tilted away from the face: contact at the low end.
    QVERIFY(penetrationSegmentObb(world(b, {-0.5f, 0.6f, 0}), world(b, {0.5f, 0.8f, 0}), 0.2f, b, t, n, depth));
    EXPECT_NEAR(t, 0.f, kTol);
    EXPECT_NEAR(depth, 0.1f, kTol);
    // Above the +Y face for x_local in [0, 1] (t in [0, 0.5], 0.4 away), then past its edge: contact in the
    // middle of the flat stretch.
    QVERIFY(penetrationSegmentObb(world(b, {0.f, 0.9f, 0.5f}), world(b, {2.f, 0.9f, 0.5f}), 0.45f, b, t, n, depth));
    EXPECT_NEAR(depth, 0.05f, kTol);
    EXPECT_VEC(n, b.axes.c[1], kTol);
    EXPECT_NEAR(t, 0.25f, 1e-3f);
    // Piercing along X at y = 0.1: deepest where |x| <= 0.6 (gap 0.4 to +Y), middle t = 0.5.
    QVERIFY(penetrationSegmentObb(world(b, {-3, 0.1f, 0}), world(b, {3, 0.1f, 0}), 0.1f, b, t, n, depth));
    EXPECT_NEAR(t, 0.5f, 1e-4f);
    EXPECT_VEC(n, b.axes.c[1], kTol);
    EXPECT_NEAR(depth, 0.5f, kTol);
    // Piercing along Z through the centre: deepest at the centre (gap 0.5 to ±Y).
    QVERIFY(penetrationSegmentObb(world(b, {0, 0, -4}), world(b, {0, 0, 2}), 0.f, b, t, n, depth));
    EXPECT_NEAR(t, 4.f / 6.f, 1e-4f);
    EXPECT_NEAR(depth, 0.5f, kTol);
    // Zero-length segment inside: as the point.
    QVERIFY(penetrationSegmentObb(world(b, {0.2f, 0.1f, 1.5f}), world(b, {0.2f, 0.1f, 1.5f}), 0.1f, b, t, n, depth));
    EXPECT_NEAR(depth, 0.5f, kTol);
    QVERIFY(!penetrationSegmentObb(world(b, {-1, 0.8f, 0}), world(b, {1, 0.9f, 0}), 0.2f, b, t, n, depth));
}

void TestGeometry::penetrationSegmentObb_matchesSampling()
{
    std::mt19937 rng(1);
    const Obb b = testBox();
    int hits = 0, inside = 0;
    for (int it = 0; it < 400; ++it) {
        const Vec3 a = world(b, randomVec(rng, -2.5f, 2.5f)), c = world(b, randomVec(rng, -2.5f, 2.5f));
        const float r = randomFloat(rng, 0.f, 0.5f);
        float sampled = -1.f;
        for (int i = 0; i <= 1000; ++i) {
            Vec3 n, s;
            float d = 0;
            if (penetrationPointObb(lerp(a, c, static_cast<float>(i) / 1000.f), r, b, n, d, s))
                sampled = std::max(sampled, d);
        }
        Vec3 n;
        float t = 0, depth = -1;
        const bool hit = penetrationSegmentObb(a, c, r, b, t, n, depth);
        QVERIFY2(hit || sampled < 1e-4f, qPrintable(QStringLiteral("iteration %1 missed (sampled %2)").arg(it).arg(sampled)));
        if (!hit)
            continue;
        ++hits;
        inside += depth > r ? 1 : 0;
        QVERIFY2(depth >= sampled - 1e-4f,
                 qPrintable(QStringLiteral("iteration %1: depth %2 < sampled %3").arg(it).arg(depth).arg(sampled)));
        EXPECT_NEAR(length(n), 1.f, kTol);
        // Consistent with the point query at tOut.
        Vec3 n2, s2;
        float d2 = 0;
        QVERIFY(penetrationPointObb(lerp(a, c, t), r, b, n2, d2, s2));
        EXPECT_NEAR(d2, depth, kTol);
    }
    QVERIFY(hits > 50);
    QVERIFY(inside > 20);
}

// -------------------------------------------------------------------------------------- Triangles

void TestGeometry::closestPointOnTriangle_regions()
{
    Vec3 bary;
    EXPECT_VEC(closestPointOnTriangle({0.5f, 0.5f, 3}, kTa, kTb, kTc, bary), Vec3(0.5f, 0.5f, 0), kTol);
    EXPECT_VEC(bary, Vec3(0.5f, 0.25f, 0.25f), kTol);
    EXPECT_VEC(closestPointOnTriangle({-1, -1, 0}, kTa, kTb, kTc, bary), kTa, 0.f);
    EXPECT_VEC(bary, Vec3(1, 0, 0), 0.f);
    EXPECT_VEC(closestPointOnTriangle({3, -1, 1}, kTa, kTb, kTc, bary), kTb, 0.f);
    EXPECT_VEC(bary, Vec3(0, 1, 0), 0.f);
    EXPECT_VEC(closestPointOnTriangle({-1, 3, -2}, kTa, kTb, kTc, bary), kTc, 0.f);
    EXPECT_VEC(bary, Vec3(0, 0, 1), 0.f);
    EXPECT_VEC(closestPointOnTriangle({1, -1, 0}, kTa, kTb, kTc, bary), Vec3(1, 0, 0), kTol);
    EXPECT_VEC(bary, Vec3(0.5f, 0.5f, 0), kTol);
    EXPECT_VEC(closestPointOnTriangle({-1, 1, 5}, kTa, kTb, kTc, bary), Vec3(0, 1, 0), kTol);
    EXPECT_VEC(bary, Vec3(0.5f, 0, 0.5f), kTol);
    EXPECT_VEC(closestPointOnTriangle({2, 2, 0}, kTa, kTb, kTc, bary), Vec3(1, 1, 0), kTol);
    EXPECT_VEC(bary, Vec3(0, 0.5f, 0.5f), kTol);
    EXPECT_VEC(closestPointOnTriangle({0.5f, 0.5f, 1}, kTa, kTb, kTc), Vec3(0.5f, 0.5f, 0), kTol);
}

void TestGeometry::closestPointOnTriangle_degenerate()
{
    Vec3 bary;
    // Collinear vertices: closest point of the segment hull.
    EXPECT_VEC(closestPointOnTriangle({1.5f, 1, 0}, {0, 0, 0}, {1, 0, 0}, {2, 0, 0}, bary), Vec3(1.5f, 0, 0), kTol);
    EXPECT_NEAR(bary.x + bary.y + bary.z, 1.f, kTol);
    EXPECT_VEC(bary.x * Vec3(0, 0, 0) + bary.y * Vec3(1, 0, 0) + bary.z * Vec3(2, 0, 0), Vec3(1.5f, 0, 0), kTol);
    // Two coincident vertices.
    EXPECT_VEC(closestPointOnTriangle({0.5f, 1, 1}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0}, bary), Vec3(0.5f, 0, 0), kTol);
    // All coincident.
    EXPECT_VEC(closestPointOnTriangle({3, 4, 5}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, bary), Vec3(1, 1, 1), 0.f);
    EXPECT_NEAR(bary.x + bary.y + bary.z, 1.f, kTol);
    // Point on a vertex / on an edge of a proper triangle.
    EXPECT_VEC(closestPointOnTriangle(kTb, kTa, kTb, kTc, bary), kTb, 0.f);
    EXPECT_VEC(closestPointOnTriangle({1, 1, 0}, kTa, kTb, kTc, bary), Vec3(1, 1, 0), kTol);
}

void TestGeometry::penetrationPointTriangle_basic()
{
    Vec3 n;
    float depth = -1;
    QVERIFY(penetrationPointTriangle({0.5f, 0.5f, 0.3f}, 0.5f, kTa, kTb, kTc, n, depth));
    EXPECT_VEC(n, Vec3(0, 0, 1), kTol);
    EXPECT_NEAR(depth, 0.2f, kTol);
    QVERIFY(penetrationPointTriangle({0.5f, 0.5f, -0.3f}, 0.5f, kTa, kTb, kTc, n, depth)); // two-sided
    EXPECT_VEC(n, Vec3(0, 0, -1), kTol);
    EXPECT_NEAR(depth, 0.2f, kTol);
    QVERIFY(penetrationPointTriangle({1, -0.3f, 0}, 0.5f, kTa, kTb, kTc, n, depth)); // beside an edge
    EXPECT_VEC(n, Vec3(0, -1, 0), kTol);
    EXPECT_NEAR(depth, 0.2f, kTol);
    QVERIFY(!penetrationPointTriangle({0.5f, 0.5f, 0.6f}, 0.5f, kTa, kTb, kTc, n, depth));
    // On the triangle, no history: face normal cross(b-a, c-a) = +Z, depth r.
    QVERIFY(penetrationPointTriangle({0.5f, 0.5f, 0}, 0.1f, kTa, kTb, kTc, n, depth));
    EXPECT_VEC(n, Vec3(0, 0, 1), kTol);
    EXPECT_NEAR(depth, 0.1f, kTol);
    // Zero-area triangle: still finite, pushes away from the segment it collapses to.
    QVERIFY(penetrationPointTriangle({1, 0.2f, 0}, 0.5f, {0, 0, 0}, {1, 0, 0}, {2, 0, 0}, n, depth));
    EXPECT_VEC(n, Vec3(0, 1, 0), kTol);
    EXPECT_NEAR(depth, 0.3f, kTol);
    QVERIFY(penetrationPointTriangle({1, 0, 0}, 0.5f, {0, 0, 0}, {1, 0, 0}, {2, 0, 0}, n, depth));
    EXPECT_NEAR(length(n), 1.f, kTol);
    EXPECT_NEAR(depth, 0.5f, kTol);
}

void TestGeometry::penetrationPointTriangle_previousPosition()
{
    Vec3 n;
    float depth = -1;
    const Vec3 below{0.5f, 0.5f, -1}, above{0.5f, 0.5f, 1};
    // On the triangle: pushed back to the side it came from.
    QVERIFY(penetrationPointTriangle({0.5f, 0.5f, 0}, 0.1f, kTa, kTb, kTc, n, depth, &below));
    EXPECT_VEC(n, Vec3(0, 0, -1), kTol);
    EXPECT_NEAR(depth, 0.1f, kTol);
    QVERIFY(penetrationPointTriangle({0.5f, 0.5f, 0}, 0.1f, kTa, kTb, kTc, n, depth, &above));
    EXPECT_VEC(n, Vec3(0, 0, 1), kTol);
    // Tunnelled 0.05 through from above: back above, depth r + 0.05 (without history: pushed further down).
    QVERIFY(penetrationPointTriangle({0.5f, 0.5f, -0.05f}, 0.1f, kTa, kTb, kTc, n, depth, &above));
    EXPECT_VEC(n, Vec3(0, 0, 1), kTol);
    EXPECT_NEAR(depth, 0.15f, kTol);
    QVERIFY(penetrationPointTriangle({0.5f, 0.5f, -0.05f}, 0.1f, kTa, kTb, kTc, n, depth));
    EXPECT_VEC(n, Vec3(0, 0, -1), kTol);
    EXPECT_NEAR(depth, 0.05f, kTol);
    // Far through: still pushed back.
    QVERIFY(penetrationPointTriangle({0.5f, 0.5f, -2.f}, 0.1f, kTa, kTb, kTc, n, depth, &above));
    EXPECT_VEC(n, Vec3(0, 0, 1), kTol);
    EXPECT_NEAR(depth, 2.1f, kTol);
    // Came round the edge (crossed the plane outside the triangle): ordinary closest-point push.
    const Vec3 beside{-1, 0.5f, 0.5f};
    QVERIFY(penetrationPointTriangle({-0.05f, 0.5f, -0.05f}, 0.1f, kTa, kTb, kTc, n, depth, &beside));
    EXPECT_VEC(n, Vec3(-std::sqrt(0.5f), 0, -std::sqrt(0.5f)), kTol);
    EXPECT_NEAR(depth, 0.1f - std::sqrt(0.005f), kTol);
    // Same side as before: history changes nothing.
    QVERIFY(penetrationPointTriangle({0.5f, 0.5f, 0.05f}, 0.1f, kTa, kTb, kTc, n, depth, &above));
    EXPECT_VEC(n, Vec3(0, 0, 1), kTol);
    EXPECT_NEAR(depth, 0.05f, kTol);
}

void TestGeometry::penetrationSegmentTriangle_basic()
{
    Vec3 n;
    float t = -1, depth = -1;
    // Parallel above the face: middle.
    QVERIFY(penetrationSegmentTriangle({0.2f, 0.2f, 0.1f}, {1.2f, 0.2f, 0.1f}, 0.3f, kTa, kTb, kTc, t, n, depth));
    EXPECT_NEAR(t, 0.5f, 1e-4f);
    EXPECT_VEC(n, Vec3(0, 0, 1), kTol);
    EXPECT_NEAR(depth, 0.2f, kTol);
    // Standing on the face.
    QVERIFY(penetrationSegmentTriangle({0.5f, 0.5f, 0.1f}, {0.5f, 0.5f, 1}, 0.3f, kTa, kTb, kTc, t, n, depth));
    EXPECT_NEAR(t, 0.f, 0.f);
    EXPECT_VEC(n, Vec3(0, 0, 1), kTol);
    EXPECT_NEAR(depth, 0.2f, kTol);
    // Piercing, 0.1 below: the lower end goes back up.
    QVERIFY(penetrationSegmentTriangle({0.5f, 0.5f, -0.1f}, {0.5f, 0.5f, 1}, 0.3f, kTa, kTb, kTc, t, n, depth));
    EXPECT_NEAR(t, 0.f, 0.f);
    EXPECT_VEC(n, Vec3(0, 0, 1), kTol);
    EXPECT_NEAR(depth, 0.4f, kTol);
    QVERIFY(penetrationSegmentTriangle({0.5f, 0.5f, -1}, {0.5f, 0.5f, 0.2f}, 0.f, kTa, kTb, kTc, t, n, depth));
    EXPECT_NEAR(t, 1.f, 0.f);
    EXPECT_VEC(n, Vec3(0, 0, -1), kTol);
    EXPECT_NEAR(depth, 0.2f, kTol);
    // Parallel to the edge y = 0, in the plane, 0.2 outside: middle.
    QVERIFY(penetrationSegmentTriangle({0.5f, -0.2f, 0}, {1.5f, -0.2f, 0}, 0.3f, kTa, kTb, kTc, t, n, depth));
    EXPECT_NEAR(t, 0.5f, 1e-4f);
    EXPECT_VEC(n, Vec3(0, -1, 0), kTol);
    EXPECT_NEAR(depth, 0.1f, kTol);
    // Vertical segment passing the edge y = 0 at distance 0.2.
    QVERIFY(penetrationSegmentTriangle({1, -0.2f, -1}, {1, -0.2f, 1}, 0.3f, kTa, kTb, kTc, t, n, depth));
    EXPECT_NEAR(t, 0.5f, kTol);
    EXPECT_VEC(n, Vec3(0, -1, 0), kTol);
    EXPECT_NEAR(depth, 0.1f, kTol);
    QVERIFY(!penetrationSegmentTriangle({1, -0.4f, -1}, {1, -0.4f, 1}, 0.3f, kTa, kTb, kTc, t, n, depth));
    // Zero-length segment: as a point.
    QVERIFY(penetrationSegmentTriangle({0.5f, 0.5f, 0.1f}, {0.5f, 0.5f, 0.1f}, 0.3f, kTa, kTb, kTc, t, n, depth));
    EXPECT_VEC(n, Vec3(0, 0, 1), kTol);
    EXPECT_NEAR(depth, 0.2f, kTol);
}

void TestGeometry::penetrationSegmentTriangle_matchesSampling()
{
    std::mt19937 rng(1);
    int hits = 0;
    for (int it = 0; it < 400; ++it) {
        const Vec3 a = randomVec(rng, -1, 1), b = randomVec(rng, -1, 1), c = randomVec(rng, -1, 1);
        const Vec3 p0 = randomVec(rng, -1.2f, 1.2f), p1 = randomVec(rng, -1.2f, 1.2f);
        const float r = randomFloat(rng, 0.f, 0.4f);
        float sampled = -1.f;
        for (int i = 0; i <= 400; ++i) {
            Vec3 n;
            float d = 0;
            if (penetrationPointTriangle(lerp(p0, p1, static_cast<float>(i) / 400.f), r, a, b, c, n, d))
                sampled = std::max(sampled, d);
        }
        Vec3 n;
        float t = 0, depth = -1;
        const bool hit = penetrationSegmentTriangle(p0, p1, r, a, b, c, t, n, depth);
        QVERIFY2(hit || sampled < 1e-4f, qPrintable(QStringLiteral("iteration %1 missed").arg(it)));
        if (!hit)
            continue;
        ++hits;
        QVERIFY2(depth >= sampled - 1e-4f,
                 qPrintable(QStringLiteral("iteration %1: depth %2 < sampled %3").arg(it).arg(depth).arg(sampled)));
        QVERIFY(t >= 0.f && t <= 1.f);
        EXPECT_NEAR(length(n), 1.f, kTol);
    }
    QVERIFY(hits > 50);
}

void TestGeometry::triangleOverlapsAabb_basic()
{
    // AABBs overlap but the box corner (1.1, 1.1) is past the hypotenuse x + y = 2.
    QVERIFY(!triangleOverlapsAabb(kTa, kTb, kTc, {{1.1f, 1.1f, -1}, {2, 2, 1}}));
    QVERIFY(triangleOverlapsAabb(kTa, kTb, kTc, {{0.9f, 0.9f, -1}, {2, 2, 1}}));
    QVERIFY(!triangleOverlapsAabb(kTa, kTb, kTc, {{0, 0, 0.01f}, {1, 1, 1}}));  // above
    QVERIFY(triangleOverlapsAabb(kTa, kTb, kTc, {{0, 0, 0}, {1, 1, 1}}));       // touching the plane
    QVERIFY(triangleOverlapsAabb(kTa, kTb, kTc, {{-5, -5, -5}, {5, 5, 5}}));    // containing
    QVERIFY(triangleOverlapsAabb(kTa, kTb, kTc, {{0.2f, 0.2f, -0.1f}, {0.3f, 0.3f, 0.1f}})); // inside the face
    // Tilted triangle x + z = 1 against a unit box touching at a corner region.
    QVERIFY(!triangleOverlapsAabb({1, -5, 0}, {1, 5, 0}, {0, 0, 1}, {{-1, -1, -1}, {0.45f, 1, 0.45f}}));
    QVERIFY(triangleOverlapsAabb({1, -5, 0}, {1, 5, 0}, {0, 0, 1}, {{-1, -1, -1}, {0.55f, 1, 0.55f}}));
}

// ------------------------------------------------------------------------------------ Degenerate inputs

void TestGeometry::degenerate_inputsStayFinite()
{
    const Vec3 o{0.3f, -0.2f, 0.7f};
    Vec3 n, s;
    float t = 0.5f, depth = 0.f, u = 0.5f;
    closestSegmentSegment(o, o, o, o, t, u);
    QVERIFY(finite(t) && finite(u));
    QVERIFY(penetrationPointSphere(o, 0.f, o, 0.f + 1e-3f, n, depth));
    EXPECT_FINITE(n);
    QVERIFY(penetrationPointCapsule(o, 0.1f, o, o, 0.1f, n, depth));
    EXPECT_FINITE(n);
    QVERIFY(penetrationSegmentSphere(o, o, 0.1f, o, 0.1f, t, n, depth));
    EXPECT_FINITE(n);
    QVERIFY(finite(t) && finite(depth));
    QVERIFY(penetrationSegmentCapsule(o, o, 0.1f, o, o, 0.1f, t, n, depth));
    EXPECT_FINITE(n);
    Obb point; // zero-size box at the origin
    point.half = {0, 0, 0};
    QVERIFY(penetrationPointObb({0, 0, 0}, 0.1f, point, n, depth, s));
    EXPECT_FINITE(n);
    EXPECT_FINITE(s);
    QVERIFY(penetrationSegmentObb({0, 0, 0}, {0, 0, 0}, 0.1f, point, t, n, depth));
    EXPECT_FINITE(n);
    QVERIFY(penetrationSegmentObb({-1, 0, 0}, {1, 0, 0}, 0.1f, point, t, n, depth));
    EXPECT_FINITE(n);
    EXPECT_NEAR(t, 0.5f, 1e-4f);
    QVERIFY(segmentIntersectsObb({0, 0, 0}, {0, 0, 0}, point, t, n));
    EXPECT_FINITE(n);
    Vec3 bary;
    EXPECT_FINITE(closestPointOnTriangle(o, o, o, o, bary));
    EXPECT_FINITE(bary);
    EXPECT_FINITE(closestPointOnTriangle({1, 1, 1}, {0, 0, 0}, {1e-20f, 0, 0}, {0, 1e-20f, 0}, bary));
    EXPECT_FINITE(bary);
    QVERIFY(penetrationPointTriangle(o, 0.1f, o, o, o, n, depth, &o));
    EXPECT_FINITE(n);
    QVERIFY(penetrationSegmentTriangle(o, o, 0.1f, o, o, o, t, n, depth));
    EXPECT_FINITE(n);
    QVERIFY(finite(t) && finite(depth));
    QVERIFY(penetrationSegmentTriangle({0, 0, 0}, {2, 0, 0}, 0.1f, {1, -1, 0}, {1, 1, 0}, {1, 0, 0}, t, n, depth));
    EXPECT_FINITE(n);
    QVERIFY(segmentIntersectsSphere(o, o, o, 0.f, t, n));
    EXPECT_FINITE(n);
    QVERIFY(segmentIntersectsCapsule(o, o, o, o, 0.f, t, n));
    EXPECT_FINITE(n);
    QVERIFY(finite(t));
}

QTEST_APPLESS_MAIN(TestGeometry)
#include "tst_geometry.moc"
