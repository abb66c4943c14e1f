// Marionette viewport — small view-space math on top of marionette/Math.h: rays, boxes, homogeneous
// points, projection matrices and a general 4×4 inverse. Plain C++, no GL, no Qt.
#pragma once

#include "marionette/Math.h"

#include <limits>

namespace marionette::viewport {

/// A half-line origin + t·direction, t >= 0; `direction` is unit length.
struct Ray {
    Vec3 origin;
    Vec3 direction{0.f, 0.f, -1.f};

    Vec3 at(float t) const { return origin + direction * t; }
};

/// An axis-aligned box; empty (isValid() false) until a point is added.
struct Bounds {
    Vec3 min{std::numeric_limits<float>::max(), std::numeric_limits<float>::max(),
             std::numeric_limits<float>::max()};
    Vec3 max{-std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(),
             -std::numeric_limits<float>::max()};

    bool isValid() const { return min.x <= max.x && min.y <= max.y && min.z <= max.z; }
    void add(Vec3 p)
    {
        min = vmin(min, p);
        max = vmax(max, p);
    }
    /// Adds a sphere (its bounding box).
    void add(Vec3 centre, float radius)
    {
        add(centre - Vec3{radius, radius, radius});
        add(centre + Vec3{radius, radius, radius});
    }
    void add(const Bounds& o)
    {
        if (o.isValid()) {
            add(o.min);
            add(o.max);
        }
    }
    Vec3 centre() const { return (min + max) * 0.5f; }
    Vec3 size() const { return max - min; }
};

struct Vec4 {
    float x = 0.f, y = 0.f, z = 0.f, w = 0.f;
};

/// m · (x, y, z, w).
Vec4 mul(const Mat4& m, Vec4 v);

/// OpenGL perspective projection (right-handed view space looking down −Z, NDC depth in [−1, 1]).
Mat4 perspective(float fovYRadians, float aspect, float nearPlane, float farPlane);
/// OpenGL orthographic projection of the view-space box [l, r] × [b, t] × [−n, −f].
Mat4 orthographic(float left, float right, float bottom, float top, float nearPlane, float farPlane);
/// Inverse of any invertible 4×4 matrix; false (out untouched) when singular.
bool invert(const Mat4& a, Mat4& out);

/// Ray parameter of the nearest intersection with a sphere at t >= 0 (the exit when the origin is inside);
/// false when the ray misses.
bool intersectSphere(const Ray& ray, Vec3 centre, float radius, float& t);
/// Möller–Trumbore ray/triangle test, both sides; t >= 0. `frontFacing` is true when the ray meets the
/// counter-clockwise side (dot(direction, normal) < 0).
bool intersectTriangle(const Ray& ray, Vec3 a, Vec3 b, Vec3 c, float& t, bool* frontFacing = nullptr);
/// Slab test against the box [min, max]; t of entry (0 when inside). false when missed.
bool intersectBox(const Ray& ray, Vec3 min, Vec3 max, float& t, float maxT = std::numeric_limits<float>::max());
/// Closest points between the ray and the segment [a, b]: the ray parameter t (>= 0), the segment
/// parameter s in [0, 1] and the distance between the two points.
float raySegmentDistance(const Ray& ray, Vec3 a, Vec3 b, float& t, float& s);

} // namespace marionette::viewport
