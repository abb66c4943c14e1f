// Helpers shared by the geometry test suites (tst_geometry, tst_segmentcast, tst_bvh): Vec3 formatting for
// failure messages, a tolerance, a skew test box, seeded random numbers, a reference triangle, and the
// EXPECT_NEAR / EXPECT_VEC macros. Header-only; each suite is a single translation unit.
#pragma once

#include "geometry/Geometry.h"

#include <QtTest/QtTest>

#include <cmath>
#include <random>

namespace marionette::test {

inline QString str(Vec3 v)
{
    return QStringLiteral("(%1, %2, %3)").arg(v.x, 0, 'g', 8).arg(v.y, 0, 'g', 8).arg(v.z, 0, 'g', 8);
}

inline constexpr float kTol = 1e-5f;

// A box rotated about a skew axis, centre (1, 2, 3), half extents (1, 0.5, 2).
inline runtime::geo::Obb testBox()
{
    runtime::geo::Obb b;
    b.center = {1.f, 2.f, 3.f};
    b.axes = toMat3(Quat::fromAxisAngle(normalizeOr({1.f, 2.f, 3.f}, {0.f, 1.f, 0.f}), 0.7f));
    b.half = {1.f, 0.5f, 2.f};
    return b;
}
inline Vec3 world(const runtime::geo::Obb& b, Vec3 local) { return b.center + b.axes * local; }

inline Vec3 randomVec(std::mt19937& rng, float lo, float hi)
{
    std::uniform_real_distribution<float> u(lo, hi);
    const float x = u(rng), y = u(rng), z = u(rng);
    return {x, y, z};
}

inline float randomFloat(std::mt19937& rng, float lo, float hi)
{
    return std::uniform_real_distribution<float>(lo, hi)(rng);
}

// Reference triangle in the z = 0 plane; its face normal cross(b-a, c-a) is +Z.
inline const Vec3 kTa{0.f, 0.f, 0.f}, kTb{2.f, 0.f, 0.f}, kTc{0.f, 2.f, 0.f};

} // namespace marionette::test

/// Fails the test when |actual − expected| > tol (floats), printing both.
#define EXPECT_NEAR(actual, expected, tol)                                                                     \
    do {                                                                                                       \
        const float a_ = (actual), e_ = (expected);                                                            \
        if (!(std::fabs(a_ - e_) <= (tol)))                                                                    \
            QFAIL(qPrintable(QStringLiteral("%1 = %2, expected %3 (line %4)")                                  \
                                 .arg(QString::fromLatin1(#actual))                                            \
                                 .arg(a_, 0, 'g', 9)                                                           \
                                 .arg(e_, 0, 'g', 9)                                                           \
                                 .arg(__LINE__)));                                                             \
    } while (0)

/// Fails the test when |actual − expected| > tol (vectors), printing both.
#define EXPECT_VEC(actual, expected, tol)                                                                      \
    do {                                                                                                       \
        const ::marionette::Vec3 a_ = (actual), e_ = (expected);                                               \
        if (!(::marionette::length(a_ - e_) <= (tol)))                                                         \
            QFAIL(qPrintable(QStringLiteral("%1 = %2, expected %3 (line %4)")                                  \
                                 .arg(QString::fromLatin1(#actual), ::marionette::test::str(a_),               \
                                      ::marionette::test::str(e_))                                             \
                                 .arg(__LINE__)));                                                             \
    } while (0)
