// Internal: double-precision affine transforms for the import's frame conversions (node chains of a few
// dozen matrices, inverses of scaled bind matrices). Public results are floats (marionette::Mat4).
#pragma once

#include "marionette/Math.h"

#include <cmath>

namespace marionette::import::detail {

struct V3d {
    double x = 0., y = 0., z = 0.;
    V3d operator+(V3d o) const { return {x + o.x, y + o.y, z + o.z}; }
    V3d operator-(V3d o) const { return {x - o.x, y - o.y, z - o.z}; }
    V3d operator*(double s) const { return {x * s, y * s, z * s}; }
    Vec3 toFloat() const { return {float(x), float(y), float(z)}; }
    static V3d of(Vec3 v) { return {v.x, v.y, v.z}; }
};
inline double dot(V3d a, V3d b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline V3d cross(V3d a, V3d b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
inline double length(V3d v) { return std::sqrt(dot(v, v)); }

/// p' = L·p + t, L stored row-major.
struct Affine {
    double l[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    double t[3] = {0, 0, 0};

    static Affine scaling(double s)
    {
        Affine a;
        for (int i = 0; i < 3; ++i)
            a.l[i][i] = s;
        return a;
    }
    static Affine translation(V3d v)
    {
        Affine a;
        a.t[0] = v.x;
        a.t[1] = v.y;
        a.t[2] = v.z;
        return a;
    }
    static Affine fromQuat(const Quat& q)
    {
        const Mat3 r = toMat3(q);
        Affine a;
        for (int c = 0; c < 3; ++c)
            for (int r2 = 0; r2 < 3; ++r2)
                a.l[r2][c] = r.c[c][r2];
        return a;
    }

    Affine operator*(const Affine& o) const
    {
        Affine r;
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j)
                r.l[i][j] = l[i][0] * o.l[0][j] + l[i][1] * o.l[1][j] + l[i][2] * o.l[2][j];
            r.t[i] = l[i][0] * o.t[0] + l[i][1] * o.t[1] + l[i][2] * o.t[2] + t[i];
        }
        return r;
    }
    V3d point(V3d p) const
    {
        return {l[0][0] * p.x + l[0][1] * p.y + l[0][2] * p.z + t[0],
                l[1][0] * p.x + l[1][1] * p.y + l[1][2] * p.z + t[1],
                l[2][0] * p.x + l[2][1] * p.y + l[2][2] * p.z + t[2]};
    }
    V3d vector(V3d p) const
    {
        return {l[0][0] * p.x + l[0][1] * p.y + l[0][2] * p.z, l[1][0] * p.x + l[1][1] * p.y + l[1][2] * p.z,
                l[2][0] * p.x + l[2][1] * p.y + l[2][2] * p.z};
    }
    /// Inverse-transpose of L applied to v: how a normal moves (not normalised).
    V3d normal(V3d n) const
    {
        const V3d c0{l[0][0], l[1][0], l[2][0]}, c1{l[0][1], l[1][1], l[2][1]}, c2{l[0][2], l[1][2], l[2][2]};
        // det·L^-T has the columns c1×c2, c2×c0, c0×c1; only the sign of det matters before normalising.
        const V3d r = cross(c1, c2) * n.x + cross(c2, c0) * n.y + cross(c0, c1) * n.z;
        return det() < 0. ? r * -1. : r;
    }
    V3d translationPart() const { return {t[0], t[1], t[2]}; }
    V3d column(int c) const { return {l[0][c], l[1][c], l[2][c]}; }
    double det() const
    {
        return l[0][0] * (l[1][1] * l[2][2] - l[1][2] * l[2][1]) - l[0][1] * (l[1][0] * l[2][2] - l[1][2] * l[2][0]) +
               l[0][2] * (l[1][0] * l[2][1] - l[1][1] * l[2][0]);
    }
    /// Cube root of |det|: the uniform scale of the linear part.
    double uniformScale() const { return std::cbrt(std::fabs(det())); }
    /// Linear part multiplied by s (translation unchanged).
    Affine scaledLinear(double s) const
    {
        Affine r = *this;
        for (auto& row : r.l)
            for (double& v : row)
                v *= s;
        return r;
    }
    bool inverse(Affine& out) const
    {
        const double d = det();
        if (!std::isfinite(d) || std::fabs(d) < 1e-300)
            return false;
        const double id = 1. / d;
        Affine r;
        r.l[0][0] = (l[1][1] * l[2][2] - l[1][2] * l[2][1]) * id;
        r.l[0][1] = (l[0][2] * l[2][1] - l[0][1] * l[2][2]) * id;
        r.l[0][2] = (l[0][1] * l[1][2] - l[0][2] * l[1][1]) * id;
        r.l[1][0] = (l[1][2] * l[2][0] - l[1][0] * l[2][2]) * id;
        r.l[1][1] = (l[0][0] * l[2][2] - l[0][2] * l[2][0]) * id;
        r.l[1][2] = (l[0][2] * l[1][0] - l[0][0] * l[1][2]) * id;
        r.l[2][0] = (l[1][0] * l[2][1] - l[1][1] * l[2][0]) * id;
        r.l[2][1] = (l[0][1] * l[2][0] - l[0][0] * l[2][1]) * id;
        r.l[2][2] = (l[0][0] * l[1][1] - l[0][1] * l[1][0]) * id;
        for (int i = 0; i < 3; ++i)
            r.t[i] = -(r.l[i][0] * t[0] + r.l[i][1] * t[1] + r.l[i][2] * t[2]);
        out = r;
        return true;
    }
    bool isFinite() const
    {
        for (int i = 0; i < 3; ++i) {
            if (!std::isfinite(t[i]))
                return false;
            for (int j = 0; j < 3; ++j)
                if (!std::isfinite(l[i][j]))
                    return false;
        }
        return true;
    }
    /// Largest absolute difference of the linear parts, and of the translations divided by `lengthScale`.
    double distance(const Affine& o, double lengthScale) const
    {
        double d = 0.;
        for (int i = 0; i < 3; ++i) {
            d = std::fmax(d, std::fabs(t[i] - o.t[i]) / lengthScale);
            for (int j = 0; j < 3; ++j)
                d = std::fmax(d, std::fabs(l[i][j] - o.l[i][j]));
        }
        return d;
    }
    bool isIdentity(double tolerance, double lengthScale) const { return distance(Affine{}, lengthScale) <= tolerance; }

    Mat4 toMat4() const
    {
        Mat4 m;
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3; ++r)
                m.at(r, c) = float(l[r][c]);
        for (int r = 0; r < 3; ++r)
            m.at(r, 3) = float(t[r]);
        return m;
    }
    static Affine fromMat4(const Mat4& m)
    {
        Affine a;
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3; ++r)
                a.l[r][c] = m(r, c);
        for (int r = 0; r < 3; ++r)
            a.t[r] = m(r, 3);
        return a;
    }
};

} // namespace marionette::import::detail
