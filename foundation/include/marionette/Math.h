// Marionette — small value types for 3D math (the foundation library, below formats/rig and the runtime;
// every layer uses them).
//
// Plain structs, no dependencies, no Qt, no Eigen. Conventions: right-handed, +Y up, metres.
// Mat3 is column-major: columns c[0], c[1], c[2] are the images of the X, Y and Z axes.
// Mat4 is column-major as well (OpenGL order), so `Mat4::m` can be uploaded as is.
#pragma once

#include <cmath>
#include <cstdint>

namespace marionette {

struct Vec3 {
    float x = 0.f, y = 0.f, z = 0.f;

    constexpr Vec3() = default;
    constexpr Vec3(float ax, float ay, float az) : x(ax), y(ay), z(az) {}

    constexpr Vec3 operator+(Vec3 o) const { return {x + o.x, y + o.y, z + o.z}; }
    constexpr Vec3 operator-(Vec3 o) const { return {x - o.x, y - o.y, z - o.z}; }
    constexpr Vec3 operator-() const { return {-x, -y, -z}; }
    constexpr Vec3 operator*(float s) const { return {x * s, y * s, z * s}; }
    constexpr Vec3 operator/(float s) const { return {x / s, y / s, z / s}; }
    constexpr Vec3& operator+=(Vec3 o) { x += o.x; y += o.y; z += o.z; return *this; }
    constexpr Vec3& operator-=(Vec3 o) { x -= o.x; y -= o.y; z -= o.z; return *this; }
    constexpr Vec3& operator*=(float s) { x *= s; y *= s; z *= s; return *this; }
    constexpr bool operator==(const Vec3&) const = default;
    constexpr float operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }
};

constexpr Vec3 operator*(float s, Vec3 v) { return v * s; }
constexpr float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
constexpr Vec3 cross(Vec3 a, Vec3 b)
{
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
constexpr Vec3 cmul(Vec3 a, Vec3 b) { return {a.x * b.x, a.y * b.y, a.z * b.z}; }
constexpr Vec3 vmin(Vec3 a, Vec3 b) { return {a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y, a.z < b.z ? a.z : b.z}; }
constexpr Vec3 vmax(Vec3 a, Vec3 b) { return {a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y, a.z > b.z ? a.z : b.z}; }
constexpr float lengthSquared(Vec3 v) { return dot(v, v); }
inline float length(Vec3 v) { return std::sqrt(dot(v, v)); }
constexpr Vec3 lerp(Vec3 a, Vec3 b, float t) { return a + (b - a) * t; }
inline bool isFinite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

/// Unit vector along v, or `fallback` when |v| is below 1e-12 (never divides by zero).
inline Vec3 normalizeOr(Vec3 v, Vec3 fallback)
{
    const float l2 = dot(v, v);
    if (!(l2 > 1e-24f))
        return fallback;
    return v * (1.f / std::sqrt(l2));
}

/// Any unit vector perpendicular to the unit vector n.
inline Vec3 anyPerpendicular(Vec3 n)
{
    const Vec3 a = std::fabs(n.x) < 0.57f ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
    return normalizeOr(cross(n, a), Vec3{0, 0, 1});
}

/// 3×3 matrix, column-major. For a rotation, columns are the rotated basis vectors.
struct Mat3 {
    Vec3 c[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

    static constexpr Mat3 fromColumns(Vec3 a, Vec3 b, Vec3 d)
    {
        Mat3 m;
        m.c[0] = a;
        m.c[1] = b;
        m.c[2] = d;
        return m;
    }
    constexpr Vec3 operator*(Vec3 v) const { return c[0] * v.x + c[1] * v.y + c[2] * v.z; }
    constexpr Mat3 operator*(const Mat3& o) const { return fromColumns((*this) * o.c[0], (*this) * o.c[1], (*this) * o.c[2]); }
    constexpr Mat3 transposed() const
    {
        return fromColumns({c[0].x, c[1].x, c[2].x}, {c[0].y, c[1].y, c[2].y}, {c[0].z, c[1].z, c[2].z});
    }
    /// transposed() * v, without building the transpose.
    constexpr Vec3 transposeMul(Vec3 v) const { return {dot(c[0], v), dot(c[1], v), dot(c[2], v)}; }
    constexpr float trace() const { return c[0].x + c[1].y + c[2].z; }
    constexpr bool operator==(const Mat3&) const = default;
};

/// Unit quaternion (x, y, z, w); rotation by angle θ about unit axis a is (a·sin θ/2, cos θ/2).
struct Quat {
    float x = 0.f, y = 0.f, z = 0.f, w = 1.f;

    constexpr Quat() = default;
    constexpr Quat(float ax, float ay, float az, float aw) : x(ax), y(ay), z(az), w(aw) {}

    static Quat fromAxisAngle(Vec3 unitAxis, float radians)
    {
        const float h = 0.5f * radians;
        const float s = std::sin(h);
        return {unitAxis.x * s, unitAxis.y * s, unitAxis.z * s, std::cos(h)};
    }
    constexpr Vec3 vec() const { return {x, y, z}; }
    constexpr Quat conjugate() const { return {-x, -y, -z, w}; }
    constexpr Quat operator*(const Quat& q) const
    {
        return {w * q.x + x * q.w + y * q.z - z * q.y, w * q.y - x * q.z + y * q.w + z * q.x,
                w * q.z + x * q.y - y * q.x + z * q.w, w * q.w - x * q.x - y * q.y - z * q.z};
    }
    constexpr Vec3 rotate(Vec3 v) const
    {
        const Vec3 u{x, y, z};
        const Vec3 t = cross(u, v) * 2.f;
        return v + t * w + cross(u, t);
    }
    constexpr bool operator==(const Quat&) const = default;
};

inline Quat normalize(Quat q)
{
    const float l2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    if (!(l2 > 1e-30f))
        return {};
    const float s = 1.f / std::sqrt(l2);
    return {q.x * s, q.y * s, q.z * s, q.w * s};
}

/// Rotation angle in [0, π] of a unit quaternion (the short way round).
inline float rotationAngle(Quat q)
{
    const float s = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
    return 2.f * std::atan2(s, std::fabs(q.w));
}

/// Rotation matrix of a unit quaternion.
constexpr Mat3 toMat3(Quat q)
{
    const float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    const float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    const float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    return Mat3::fromColumns({1 - 2 * (yy + zz), 2 * (xy + wz), 2 * (xz - wy)},
                             {2 * (xy - wz), 1 - 2 * (xx + zz), 2 * (yz + wx)},
                             {2 * (xz + wy), 2 * (yz - wx), 1 - 2 * (xx + yy)});
}

/// Quaternion of a rotation matrix with orthonormal columns (Shepperd's method, robust for every angle),
/// not renormalised: use it on frames built orthonormal; toQuat() below accepts any rotation matrix.
inline Quat toQuatOrthonormal(const Mat3& m)
{
    const float m00 = m.c[0].x, m11 = m.c[1].y, m22 = m.c[2].z;
    const float tr = m00 + m11 + m22;
    if (tr > 0.f) {
        const float s = std::sqrt(tr + 1.f);
        const float k = 0.5f / s;
        return {(m.c[1].z - m.c[2].y) * k, (m.c[2].x - m.c[0].z) * k, (m.c[0].y - m.c[1].x) * k, 0.5f * s};
    }
    if (m00 > m11 && m00 > m22) {
        const float s = std::sqrt(1.f + m00 - m11 - m22);
        const float k = 0.5f / s;
        return {0.5f * s, (m.c[1].x + m.c[0].y) * k, (m.c[2].x + m.c[0].z) * k, (m.c[1].z - m.c[2].y) * k};
    }
    if (m11 > m22) {
        const float s = std::sqrt(1.f + m11 - m00 - m22);
        const float k = 0.5f / s;
        return {(m.c[1].x + m.c[0].y) * k, 0.5f * s, (m.c[2].y + m.c[1].z) * k, (m.c[2].x - m.c[0].z) * k};
    }
    const float s = std::sqrt(1.f + m22 - m00 - m11);
    const float k = 0.5f / s;
    return {(m.c[2].x + m.c[0].z) * k, (m.c[2].y + m.c[1].z) * k, 0.5f * s, (m.c[0].y - m.c[1].x) * k};
}

/// Unit quaternion of a rotation matrix (renormalised, so slightly non-orthonormal input is fine).
inline Quat toQuat(const Mat3& m) { return normalize(toQuatOrthonormal(m)); }

/// Normalised linear interpolation along the short arc; t in [0, 1].
inline Quat nlerp(Quat a, Quat b, float t)
{
    const float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    const float s = d < 0.f ? -1.f : 1.f;
    return normalize({a.x + (s * b.x - a.x) * t, a.y + (s * b.y - a.y) * t, a.z + (s * b.z - a.z) * t,
                      a.w + (s * b.w - a.w) * t});
}

/// Shortest rotation taking unit vector `from` onto unit vector `to` (minimal rotation, no twist).
inline Quat rotationBetween(Vec3 from, Vec3 to)
{
    const float d = dot(from, to);
    if (d < -0.999999f)
        return Quat::fromAxisAngle(anyPerpendicular(from), 3.14159265358979f);
    const Vec3 c = cross(from, to);
    return normalize({c.x, c.y, c.z, 1.f + d});
}

/// Rigid transform: rotation then translation. Applied to a point: p' = rotation·p + translation.
struct Transform {
    Quat rotation;
    Vec3 translation;

    constexpr Vec3 apply(Vec3 p) const { return rotation.rotate(p) + translation; }
    constexpr Transform operator*(const Transform& o) const
    {
        return {rotation * o.rotation, rotation.rotate(o.translation) + translation};
    }
    constexpr Transform inverse() const
    {
        const Quat ci = rotation.conjugate();
        return {ci, ci.rotate(-translation)};
    }
    constexpr bool operator==(const Transform&) const = default;
};

/// 4×4 matrix, column-major (m[col*4 + row]); used for bind matrices and skinning palettes, which may
/// carry scale, so they are kept as general affine matrices rather than Transform.
struct Mat4 {
    float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

    constexpr float operator()(int row, int col) const { return m[col * 4 + row]; }
    constexpr float& at(int row, int col) { return m[col * 4 + row]; }
    constexpr Mat4 operator*(const Mat4& o) const
    {
        Mat4 r;
        for (int c = 0; c < 4; ++c)
            for (int rr = 0; rr < 4; ++rr) {
                float s = 0.f;
                for (int k = 0; k < 4; ++k)
                    s += (*this)(rr, k) * o(k, c);
                r.at(rr, c) = s;
            }
        return r;
    }
    constexpr Vec3 transformPoint(Vec3 p) const
    {
        return {m[0] * p.x + m[4] * p.y + m[8] * p.z + m[12], m[1] * p.x + m[5] * p.y + m[9] * p.z + m[13],
                m[2] * p.x + m[6] * p.y + m[10] * p.z + m[14]};
    }
    static constexpr Mat4 fromRotationTranslation(const Mat3& r, Vec3 t)
    {
        Mat4 o;
        for (int c = 0; c < 3; ++c) {
            o.m[c * 4 + 0] = r.c[c].x;
            o.m[c * 4 + 1] = r.c[c].y;
            o.m[c * 4 + 2] = r.c[c].z;
            o.m[c * 4 + 3] = 0.f;
        }
        o.m[12] = t.x;
        o.m[13] = t.y;
        o.m[14] = t.z;
        o.m[15] = 1.f;
        return o;
    }
    static Mat4 fromTransform(const Transform& t) { return fromRotationTranslation(toMat3(t.rotation), t.translation); }
    /// Column c: 0–2 the (scaled) basis vectors, 3 the translation.
    constexpr Vec3 column(int c) const { return {m[c * 4], m[c * 4 + 1], m[c * 4 + 2]}; }
    constexpr Vec3 translation() const { return column(3); }
    constexpr bool operator==(const Mat4&) const = default;
};

/// The rotation of an affine matrix as a unit quaternion: its basis columns normalised (scale removed; a zero
/// column keeps the identity's). `scale`, when given, gets the columns' lengths.
inline Quat rotationOf(const Mat4& m, Vec3* scale = nullptr)
{
    Mat3 r;
    float s[3];
    for (int c = 0; c < 3; ++c) {
        s[c] = length(m.column(c));
        if (s[c] > 1e-12f)
            r.c[c] = m.column(c) / s[c];
    }
    if (scale)
        *scale = {s[0], s[1], s[2]};
    return toQuat(r);
}

/// Inverse of an affine matrix (last row 0 0 0 1). Returns false, leaving `out` untouched, when singular.
bool invertAffine(const Mat4& a, Mat4& out);

constexpr float kPi = 3.14159265358979323846f;
constexpr float degrees(float radians) { return radians * (180.f / kPi); }
constexpr float radians(float degrees) { return degrees * (kPi / 180.f); }

} // namespace marionette
