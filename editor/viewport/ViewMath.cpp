#include "viewport/ViewMath.h"

#include <algorithm>
#include <cmath>

namespace marionette::viewport {

Vec4 mul(const Mat4& m, Vec4 v)
{
    return {m.m[0] * v.x + m.m[4] * v.y + m.m[8] * v.z + m.m[12] * v.w,
            m.m[1] * v.x + m.m[5] * v.y + m.m[9] * v.z + m.m[13] * v.w,
            m.m[2] * v.x + m.m[6] * v.y + m.m[10] * v.z + m.m[14] * v.w,
            m.m[3] * v.x + m.m[7] * v.y + m.m[11] * v.z + m.m[15] * v.w};
}

Mat4 perspective(float fovYRadians, float aspect, float nearPlane, float farPlane)
{
    const float f = 1.f / std::tan(0.5f * fovYRadians);
    Mat4 p;
    p.m[0] = f / aspect;
    p.m[5] = f;
    p.m[10] = (farPlane + nearPlane) / (nearPlane - farPlane);
    p.m[11] = -1.f;
    p.m[14] = 2.f * farPlane * nearPlane / (nearPlane - farPlane);
    p.m[15] = 0.f;
    return p;
}

Mat4 orthographic(float left, float right, float bottom, float top, float nearPlane, float farPlane)
{
    Mat4 p;
    p.m[0] = 2.f / (right - left);
    p.m[5] = 2.f / (top - bottom);
    p.m[10] = -2.f / (farPlane - nearPlane);
    p.m[12] = -(right + left) / (right - left);
    p.m[13] = -(top + bottom) / (top - bottom);
    p.m[14] = -(farPlane + nearPlane) / (farPlane - nearPlane);
    return p;
}

bool invert(const Mat4& a, Mat4& out)
{
    const float* m = a.m;
    float inv[16];
    inv[0] = m[5] * m[10] * m[15] - m[5] * m[11] * m[14] - m[9] * m[6] * m[15] + m[9] * m[7] * m[14] +
             m[13] * m[6] * m[11] - m[13] * m[7] * m[10];
    inv[4] = -m[4] * m[10] * m[15] + m[4] * m[11] * m[14] + m[8] * m[6] * m[15] - m[8] * m[7] * m[14] -
             m[12] * m[6] * m[11] + m[12] * m[7] * m[10];
    inv[8] = m[4] * m[9] * m[15] - m[4] * m[11] * m[13] - m[8] * m[5] * m[15] + m[8] * m[7] * m[13] +
             m[12] * m[5] * m[11] - m[12] * m[7] * m[9];
    inv[12] = -m[4] * m[9] * m[14] + m[4] * m[10] * m[13] + m[8] * m[5] * m[14] - m[8] * m[6] * m[13] -
              m[12] * m[5] * m[10] + m[12] * m[6] * m[9];
    inv[1] = -m[1] * m[10] * m[15] + m[1] * m[11] * m[14] + m[9] * m[2] * m[15] - m[9] * m[3] * m[14] -
             m[13] * m[2] * m[11] + m[13] * m[3] * m[10];
    inv[5] = m[0] * m[10] * m[15] - m[0] * m[11] * m[14] - m[8] * m[2] * m[15] + m[8] * m[3] * m[14] +
             m[12] * m[2] * m[11] - m[12] * m[3] * m[10];
    inv[9] = -m[0] * m[9] * m[15] + m[0] * m[11] * m[13] + m[8] * m[1] * m[15] - m[8] * m[3] * m[13] -
             m[12] * m[1] * m[11] + m[12] * m[3] * m[9];
    inv[13] = m[0] * m[9] * m[14] - m[0] * m[10] * m[13] - m[8] * m[1] * m[14] + m[8] * m[2] * m[13] +
              m[12] * m[1] * m[10] - m[12] * m[2] * m[9];
    inv[2] = m[1] * m[6] * m[15] - m[1] * m[7] * m[14] - m[5] * m[2] * m[15] + m[5] * m[3] * m[14] +
             m[13] * m[2] * m[7] - m[13] * m[3] * m[6];
    inv[6] = -m[0] * m[6] * m[15] + m[0] * m[7] * m[14] + m[4] * m[2] * m[15] - m[4] * m[3] * m[14] -
             m[12] * m[2] * m[7] + m[12] * m[3] * m[6];
    inv[10] = m[0] * m[5] * m[15] - m[0] * m[7] * m[13] - m[4] * m[1] * m[15] + m[4] * m[3] * m[13] +
              m[12] * m[1] * m[7] - m[12] * m[3] * m[5];
    inv[14] = -m[0] * m[5] * m[14] + m[0] * m[6] * m[13] + m[4] * m[1] * m[14] - m[4] * m[2] * m[13] -
              m[12] * m[1] * m[6] + m[12] * m[2] * m[5];
    inv[3] = -m[1] * m[6] * m[11] + m[1] * m[7] * m[10] + m[5] * m[2] * m[11] - m[5] * m[3] * m[10] -
             m[9] * m[2] * m[7] + m[9] * m[3] * m[6];
    inv[7] = m[0] * m[6] * m[11] - m[0] * m[7] * m[10] - m[4] * m[2] * m[11] + m[4] * m[3] * m[10] +
             m[8] * m[2] * m[7] - m[8] * m[3] * m[6];
    inv[11] = -m[0] * m[5] * m[11] + m[0] * m[7] * m[9] + m[4] * m[1] * m[11] - m[4] * m[3] * m[9] -
              m[8] * m[1] * m[7] + m[8] * m[3] * m[5];
    inv[15] = m[0] * m[5] * m[10] - m[0] * m[6] * m[9] - m[4] * m[1] * m[10] + m[4] * m[2] * m[9] +
              m[8] * m[1] * m[6] - m[8] * m[2] * m[5];
    const float det = m[0] * inv[0] + m[1] * inv[4] + m[2] * inv[8] + m[3] * inv[12];
    if (!(std::fabs(det) > 1e-30f))
        return false;
    const float s = 1.f / det;
    for (int i = 0; i < 16; ++i)
        out.m[i] = inv[i] * s;
    return true;
}

bool intersectSphere(const Ray& ray, Vec3 centre, float radius, float& t)
{
    const Vec3 oc = ray.origin - centre;
    const float b = dot(oc, ray.direction);
    const float c = dot(oc, oc) - radius * radius;
    const float disc = b * b - c;
    if (disc < 0.f)
        return false;
    const float root = std::sqrt(disc);
    float hit = -b - root;
    if (hit < 0.f)
        hit = -b + root;
    if (hit < 0.f)
        return false;
    t = hit;
    return true;
}

bool intersectTriangle(const Ray& ray, Vec3 a, Vec3 b, Vec3 c, float& t, bool* frontFacing)
{
    const Vec3 e1 = b - a, e2 = c - a;
    const Vec3 p = cross(ray.direction, e2);
    const float det = dot(e1, p);
    if (std::fabs(det) < 1e-12f)
        return false;
    const float inv = 1.f / det;
    const Vec3 s = ray.origin - a;
    const float u = dot(s, p) * inv;
    if (u < 0.f || u > 1.f)
        return false;
    const Vec3 q = cross(s, e1);
    const float v = dot(ray.direction, q) * inv;
    if (v < 0.f || u + v > 1.f)
        return false;
    const float hit = dot(e2, q) * inv;
    if (hit < 0.f)
        return false;
    t = hit;
    if (frontFacing)
        *frontFacing = det > 0.f; // det = −dot(direction, e1 × e2)
    return true;
}

bool intersectBox(const Ray& ray, Vec3 min, Vec3 max, float& t, float maxT)
{
    float t0 = 0.f, t1 = maxT;
    for (int axis = 0; axis < 3; ++axis) {
        const float o = ray.origin[axis], d = ray.direction[axis];
        const float lo = min[axis], hi = max[axis];
        if (std::fabs(d) < 1e-20f) {
            if (o < lo || o > hi)
                return false;
            continue;
        }
        float ta = (lo - o) / d, tb = (hi - o) / d;
        if (ta > tb)
            std::swap(ta, tb);
        t0 = std::max(t0, ta);
        t1 = std::min(t1, tb);
        if (t0 > t1)
            return false;
    }
    t = t0;
    return true;
}

float raySegmentDistance(const Ray& ray, Vec3 a, Vec3 b, float& t, float& s)
{
    const Vec3 d = b - a;
    const Vec3 r = ray.origin - a;
    const float dd = dot(d, d);
    const float rd = dot(ray.direction, d);
    const float rr = dot(ray.direction, r);
    const float dr = dot(d, r);
    if (dd < 1e-20f) {
        s = 0.f;
        t = std::max(0.f, -rr);
    } else {
        const float denom = dd - rd * rd; // |dir| = 1
        s = denom > 1e-12f * dd ? std::clamp((dr - rd * rr) / denom, 0.f, 1.f) : 0.f;
        // t for that s, then s again for the clamped t
        t = std::max(0.f, rd * s - rr);
        s = std::clamp((dot(ray.origin + ray.direction * t - a, d)) / dd, 0.f, 1.f);
        t = std::max(0.f, dot(a + d * s - ray.origin, ray.direction));
    }
    return length(ray.at(t) - (a + d * s));
}

} // namespace marionette::viewport
