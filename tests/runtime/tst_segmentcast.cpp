// Tests of the segment casts of marionette::runtime::geo (where a moving point first meets a triangle, box,
// sphere or capsule) against hand-derived values, dense sampling and closest points (fixed seeds).
#include "geometry/Geometry.h"

#include <QtTest/QtTest>

#include <cmath>
#include <random>

#include "GeometryTestSupport.h"

using namespace marionette;
using namespace marionette::runtime::geo;
using namespace marionette::test;

class TestSegmentCast : public QObject {
    Q_OBJECT

private slots:
    void segmentIntersectsTriangle_basic();
    void segmentIntersectsObb_basic();
    void segmentIntersectsObb_matchesSampling();
    void segmentIntersectsSphere_basic();
    void segmentIntersectsCapsule_basic();
    void segmentIntersectsCapsule_conservative();
};

void TestSegmentCast::segmentIntersectsTriangle_basic()
{
    float t = -1;
    QVERIFY(segmentIntersectsTriangle({0.5f, 0.5f, 1}, {0.5f, 0.5f, -1}, kTa, kTb, kTc, t));
    EXPECT_NEAR(t, 0.5f, kTol);
    QVERIFY(segmentIntersectsTriangle({0.5f, 0.5f, -1}, {0.5f, 0.5f, 3}, kTa, kTb, kTc, t)); // two-sided
    EXPECT_NEAR(t, 0.25f, kTol);
    QVERIFY(segmentIntersectsTriangle({1, 0, 1}, {1, 0, -1}, kTa, kTb, kTc, t)); // on an edge
    EXPECT_NEAR(t, 0.5f, kTol);
    QVERIFY(!segmentIntersectsTriangle({1.5f, 1.5f, 1}, {1.5f, 1.5f, -1}, kTa, kTb, kTc, t));
    QVERIFY(!segmentIntersectsTriangle({0.5f, 0.5f, 1}, {0.5f, 0.5f, 0.1f}, kTa, kTb, kTc, t)); // stops short
    QVERIFY(!segmentIntersectsTriangle({-1, 0.5f, 0}, {3, 0.5f, 0}, kTa, kTb, kTc, t));          // in the plane
    QVERIFY(!segmentIntersectsTriangle({0.5f, 0.5f, 0}, {0.5f, 0.5f, 0}, kTa, kTb, kTc, t));      // zero length
    QVERIFY(!segmentIntersectsTriangle({0.5f, 0, 1}, {0.5f, 0, -1}, {0, 0, 0}, {1, 0, 0}, {2, 0, 0}, t));
}

void TestSegmentCast::segmentIntersectsObb_basic()
{
    const Obb b = testBox();
    float t = -1;
    Vec3 n;
    QVERIFY(segmentIntersectsObb(world(b, {-3, 0, 0}), world(b, {3, 0, 0}), b, t, n));
    EXPECT_NEAR(t, 1.f / 3.f, kTol);
    EXPECT_VEC(n, -b.axes.c[0], kTol);
    QVERIFY(segmentIntersectsObb(world(b, {0, 0, 5}), world(b, {0, 0, -5}), b, t, n));
    EXPECT_NEAR(t, 0.3f, kTol);
    EXPECT_VEC(n, b.axes.c[2], kTol);
    QVERIFY(segmentIntersectsObb(world(b, {3, 3, 0}), world(b, {-1, -1, 0}), b, t, n)); // enters through +Y
    EXPECT_NEAR(t, 2.5f / 4.f, kTol);
    EXPECT_VEC(n, b.axes.c[1], kTol);
    QVERIFY(!segmentIntersectsObb(world(b, {-3, 0.6f, 0}), world(b, {3, 0.6f, 0}), b, t, n));
    QVERIFY(!segmentIntersectsObb(world(b, {-3, 0, 0}), world(b, {-1.5f, 0, 0}), b, t, n)); // stops short
    QVERIFY(!segmentIntersectsObb(world(b, {-3, 0, 0}), world(b, {-3, 0, 0}), b, t, n));     // zero length outside
    // Starting inside: t = 0, nearest face (+Y, 0.1 away).
    QVERIFY(segmentIntersectsObb(world(b, {0, 0.4f, 0}), world(b, {5, 0.4f, 0}), b, t, n));
    EXPECT_NEAR(t, 0.f, 0.f);
    EXPECT_VEC(n, b.axes.c[1], kTol);
}

void TestSegmentCast::segmentIntersectsObb_matchesSampling()
{
    std::mt19937 rng(1);
    const Obb b = testBox();
    int hits = 0;
    for (int it = 0; it < 500; ++it) {
        const Vec3 p0 = world(b, randomVec(rng, -3, 3)), p1 = world(b, randomVec(rng, -3, 3));
        float first = 2.f;
        for (int i = 0; i <= 2000 && first > 1.f; ++i)
            if (pointInsideObb(lerp(p0, p1, static_cast<float>(i) / 2000.f), b))
                first = static_cast<float>(i) / 2000.f;
        float t = -1;
        Vec3 n;
        const bool hit = segmentIntersectsObb(p0, p1, b, t, n);
        QVERIFY(hit || first > 1.f);
        if (!hit)
            continue;
        ++hits;
        QVERIFY(t <= first + 1e-5f);
        const Vec3 l = toObbLocal(b, lerp(p0, p1, t));
        QVERIFY(std::fabs(l.x) <= b.half.x + 1e-4f && std::fabs(l.y) <= b.half.y + 1e-4f &&
                std::fabs(l.z) <= b.half.z + 1e-4f);
        EXPECT_NEAR(length(n), 1.f, kTol);
        if (t > 0.f) // entering: the normal faces the segment's start
            QVERIFY(dot(n, p1 - p0) < 0.f);
    }
    QVERIFY(hits > 50);
}

void TestSegmentCast::segmentIntersectsSphere_basic()
{
    float t = -1;
    Vec3 n;
    QVERIFY(segmentIntersectsSphere({-2, 0, 0}, {2, 0, 0}, {0, 0, 0}, 1.f, t, n));
    EXPECT_NEAR(t, 0.25f, kTol);
    EXPECT_VEC(n, Vec3(-1, 0, 0), kTol);
    // Off-centre: hits where x² + 0.36 = 1, x = -0.8.
    QVERIFY(segmentIntersectsSphere({-2, 0.6f, 0}, {2, 0.6f, 0}, {0, 0, 0}, 1.f, t, n));
    EXPECT_NEAR(t, 0.3f, kTol);
    EXPECT_VEC(n, Vec3(-0.8f, 0.6f, 0), kTol);
    QVERIFY(segmentIntersectsSphere({0.5f, 0, 0}, {2, 0, 0}, {0, 0, 0}, 1.f, t, n)); // starts inside
    EXPECT_NEAR(t, 0.f, 0.f);
    EXPECT_VEC(n, Vec3(1, 0, 0), kTol);
    QVERIFY(segmentIntersectsSphere({0, 0, 0}, {0, 0, 0}, {0, 0, 0}, 1.f, t, n)); // zero length at the centre
    EXPECT_NEAR(length(n), 1.f, kTol);
    QVERIFY(!segmentIntersectsSphere({-2, 1.1f, 0}, {2, 1.1f, 0}, {0, 0, 0}, 1.f, t, n));
    QVERIFY(!segmentIntersectsSphere({-3, 0, 0}, {-1.5f, 0, 0}, {0, 0, 0}, 1.f, t, n)); // stops short
    QVERIFY(!segmentIntersectsSphere({2, 0, 0}, {3, 0, 0}, {0, 0, 0}, 1.f, t, n));      // moving away
}

void TestSegmentCast::segmentIntersectsCapsule_basic()
{
    const Vec3 ca{0, -1, 0}, cb{0, 1, 0};
    float t = -1;
    Vec3 n;
    QVERIFY(segmentIntersectsCapsule({-2, 0, 0}, {2, 0, 0}, ca, cb, 0.5f, t, n));
    EXPECT_NEAR(t, 0.375f, 1e-5f);
    EXPECT_VEC(n, Vec3(-1, 0, 0), kTol);
    // Over the top cap: (x, 1.3) within 0.5 of (0, 1) from x = -0.4.
    QVERIFY(segmentIntersectsCapsule({-2, 1.3f, 0}, {2, 1.3f, 0}, ca, cb, 0.5f, t, n));
    EXPECT_NEAR(t, 0.4f, 1e-5f);
    EXPECT_VEC(n, Vec3(-0.8f, 0.6f, 0), 1e-4f);
    QVERIFY(!segmentIntersectsCapsule({-2, 1.6f, 0}, {2, 1.6f, 0}, ca, cb, 0.5f, t, n));
    QVERIFY(!segmentIntersectsCapsule({-2, 0, 0}, {-0.6f, 0, 0}, ca, cb, 0.5f, t, n));
    QVERIFY(segmentIntersectsCapsule({0.2f, 0.5f, 0}, {2, 0, 0}, ca, cb, 0.5f, t, n)); // starts inside
    EXPECT_NEAR(t, 0.f, 0.f);
    EXPECT_VEC(n, Vec3(1, 0, 0), kTol);
    // Along the axis itself.
    QVERIFY(segmentIntersectsCapsule({0, -5, 0}, {0, 5, 0}, ca, cb, 0.5f, t, n));
    EXPECT_NEAR(t, 0.35f, 1e-5f);
    EXPECT_VEC(n, Vec3(0, -1, 0), kTol);
}

void TestSegmentCast::segmentIntersectsCapsule_conservative()
{
    std::mt19937 rng(1);
    int hits = 0;
    for (int it = 0; it < 500; ++it) {
        const Vec3 p0 = randomVec(rng, -2, 2), p1 = randomVec(rng, -2, 2);
        const Vec3 ca = randomVec(rng, -1, 1), cb = it % 5 == 0 ? ca : randomVec(rng, -1, 1);
        const float R = randomFloat(rng, 0.05f, 0.8f);
        float s = 0, u = 0;
        closestSegmentSegment(p0, p1, ca, cb, s, u);
        const bool within = length(lerp(p0, p1, s) - lerp(ca, cb, u)) <= R;
        float t = -1;
        Vec3 n;
        const bool hit = segmentIntersectsCapsule(p0, p1, ca, cb, R, t, n);
        QCOMPARE(hit, within);
        if (!hit)
            continue;
        ++hits;
        const Vec3 p = lerp(p0, p1, t);
        QVERIFY(length(p - lerp(ca, cb, closestOnSegment(p, ca, cb))) <= R + 1e-5f);
        // No earlier point is clearly inside.
        for (int i = 0; i <= 200; ++i) {
            const float ti = t * static_cast<float>(i) / 200.f;
            const Vec3 q = lerp(p0, p1, ti);
            if (ti < t - 1e-4f)
                QVERIFY(length(q - lerp(ca, cb, closestOnSegment(q, ca, cb))) >= R - 1e-4f);
        }
        EXPECT_NEAR(length(n), 1.f, kTol);
    }
    QVERIFY(hits > 50);
}

QTEST_APPLESS_MAIN(TestSegmentCast)
#include "tst_segmentcast.moc"
