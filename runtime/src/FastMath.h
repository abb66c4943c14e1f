// Internal: polynomial atan2 and half-angle sin/cos for the angular solver's hot path. Accurate to about
// 1e-6 rad, branch-light and independent of the C library (so results do not depend on its version).
#pragma once

#include "marionette/Math.h"

#include <cmath>

namespace marionette::runtime::fast {

/// atan2(y, x) in [−π, π], |error| < 2e-6 rad. atan2(0, 0) = 0.
inline float atan2(float y, float x)
{
    const float ax = std::fabs(x), ay = std::fabs(y);
    const float hi = std::max(ax, ay), lo = std::min(ax, ay);
    if (!(hi > 0.f))
        return 0.f;
    const float a = lo / hi; // [0, 1]
    const float s = a * a;
    // Minimax polynomial for atan(a) on [0, 1] (odd, degree 11).
    float r = -0.0040540580f;
    r = r * s + 0.0218612288f;
    r = r * s - 0.0559098861f;
    r = r * s + 0.0964200441f;
    r = r * s - 0.1390853351f;
    r = r * s + 0.1994653599f;
    r = r * s - 0.3332985605f;
    r = r * s * a + a;
    if (ay > ax)
        r = 1.57079632679f - r;
    if (x < 0.f)
        r = 3.14159265359f - r;
    return y < 0.f ? -r : r;
}

/// sin and cos of h for |h| <= π/2 (half rotation angles), |error| < 1e-7.
inline void sinCos(float h, float& s, float& c)
{
    const float h2 = h * h;
    // Taylor series to h¹¹ (truncation < 6e-8 at π/2).
    s = h * (1.f + h2 * (-1.f / 6.f + h2 * (1.f / 120.f + h2 * (-1.f / 5040.f + h2 * (1.f / 362880.f - h2 / 39916800.f)))));
    c = 1.f + h2 * (-0.5f + h2 * (4.1666638e-2f + h2 * (-1.3888378e-3f + h2 * (2.4760495e-5f - h2 * 2.6051615e-7f))));
}

/// Rotation by `radians` about a unit axis (angles beyond ±π become the same rotation the short way, so
/// the half angle stays within the polynomials' range).
inline Quat fromAxisAngle(Vec3 unitAxis, float radians)
{
    constexpr float kPiF = 3.14159265359f;
    if (radians > kPiF || radians < -kPiF)
        radians = std::remainder(radians, 2.f * kPiF);
    float s, c;
    sinCos(0.5f * radians, s, c);
    return {unitAxis.x * s, unitAxis.y * s, unitAxis.z * s, c};
}

/// Axis and angle (in [0, π]) of the unit quaternion q; false for (near) identity.
inline bool axisAngle(Quat q, Vec3& axis, float& angle)
{
    const Vec3 v = q.w < 0.f ? -q.vec() : q.vec();
    const float sv = length(v);
    if (!(sv > 1e-7f))
        return false;
    axis = v / sv;
    angle = 2.f * atan2(sv, std::fabs(q.w));
    return true;
}

} // namespace marionette::runtime::fast
