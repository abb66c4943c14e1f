// The IQM importer's frame conversion (IqmSceneBuilder.h): double-precision affine maps for bind poses that
// chain dozens of joints, and the map from the file's frame (Z-up, file units) to Marionette's (metres, +Y up).
// Internal to plugins/iqm; header-only.
#pragma once

#include "marionette/Math.h"
#include "marionette/import/ImportedScene.h"

#include <cmath>

namespace marionette::plugins::iqm {

/// An affine map in double precision, p' = l·p + t (l row-major): bind poses chain dozens of joints.
struct Affine {
    double l[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    double t[3] = {0, 0, 0};

    /// T(translate) · R(rotate) · S(scale), IQM's joint transform.
    static Affine trs(Vec3 translate, Quat rotate, Vec3 scale)
    {
        const Mat3 r = toMat3(rotate);
        const double s[3] = {scale.x, scale.y, scale.z};
        Affine a;
        for (int row = 0; row < 3; ++row) {
            for (int col = 0; col < 3; ++col)
                a.l[row][col] = double(r.c[col][row]) * s[col];
        }
        a.t[0] = translate.x;
        a.t[1] = translate.y;
        a.t[2] = translate.z;
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
    double det() const
    {
        return l[0][0] * (l[1][1] * l[2][2] - l[1][2] * l[2][1]) - l[0][1] * (l[1][0] * l[2][2] - l[1][2] * l[2][0]) +
               l[0][2] * (l[1][0] * l[2][1] - l[1][1] * l[2][0]);
    }
    bool inverse(Affine& out) const
    {
        const double d = det();
        if (!std::isfinite(d) || std::fabs(d) < 1e-300)
            return false;
        Affine r;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
                const int a = (j + 1) % 3, b = (j + 2) % 3, c = (i + 1) % 3, e = (i + 2) % 3;
                r.l[i][j] = (l[a][c] * l[b][e] - l[a][e] * l[b][c]) / d;
            }
        for (int i = 0; i < 3; ++i)
            r.t[i] = -(r.l[i][0] * t[0] + r.l[i][1] * t[1] + r.l[i][2] * t[2]);
        out = r;
        return true;
    }
    Vec3 point(Vec3 p) const
    {
        return {float(l[0][0] * p.x + l[0][1] * p.y + l[0][2] * p.z + t[0]),
                float(l[1][0] * p.x + l[1][1] * p.y + l[1][2] * p.z + t[1]),
                float(l[2][0] * p.x + l[2][1] * p.y + l[2][2] * p.z + t[2])};
    }
    Vec3 vector(Vec3 p) const
    {
        return {float(l[0][0] * p.x + l[0][1] * p.y + l[0][2] * p.z),
                float(l[1][0] * p.x + l[1][1] * p.y + l[1][2] * p.z),
                float(l[2][0] * p.x + l[2][1] * p.y + l[2][2] * p.z)};
    }
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
};

/// The rotation that takes the file's up axis to +Y (ImportedScene.h's UpAxis).
inline Affine upRotation(import::UpAxis axis)
{
    static const Affine z{{{1, 0, 0}, {0, 0, 1}, {0, -1, 0}}, {0, 0, 0}}; // (x, y, z) -> (x, z, -y)
    static const Affine x{{{0, -1, 0}, {1, 0, 0}, {0, 0, 1}}, {0, 0, 0}}; // (x, y, z) -> (-y, x, z)
    return axis == import::UpAxis::Z ? z : (axis == import::UpAxis::X ? x : Affine{});
}

/// The file's frame to Marionette's: C = scale · R. Bone frames conjugate by it (C·W·C⁻¹: rotations turn,
/// translations turn and scale); points and normals map by it.
struct Conversion {
    Affine rotation;   ///< R
    Quat rotationQ;    ///< R as a quaternion
    double scale = 1.; ///< metres per file unit

    Vec3 point(Vec3 p) const { return rotation.vector(p) * float(scale); }
    Vec3 direction(Vec3 d) const { return rotation.vector(d); }
    Quat rotate(Quat q) const { return normalize(rotationQ * q * rotationQ.conjugate()); }
    /// R·diag(s)·Rᵀ of a signed permutation R: the scales permute.
    Vec3 scaleAxes(Vec3 s) const
    {
        const float in[3] = {s.x, s.y, s.z};
        float out[3] = {1.f, 1.f, 1.f};
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c)
                if (std::fabs(rotation.l[r][c]) > 0.5)
                    out[r] = in[c];
        return {out[0], out[1], out[2]};
    }
    Affine frame(const Affine& w) const
    {
        Affine g;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
                double v = 0.;
                for (int a = 0; a < 3; ++a)
                    for (int b = 0; b < 3; ++b)
                        v += rotation.l[i][a] * w.l[a][b] * rotation.l[j][b];
                g.l[i][j] = v;
            }
        for (int i = 0; i < 3; ++i)
            g.t[i] = scale * (rotation.l[i][0] * w.t[0] + rotation.l[i][1] * w.t[1] + rotation.l[i][2] * w.t[2]);
        return g;
    }
};

/// Unit vector along v computed in double (a float |v|² overflows for |v| > 1e19), or `fallback`.
inline Vec3 unitOr(Vec3 v, Vec3 fallback)
{
    const double x = v.x, y = v.y, z = v.z, l = std::sqrt(x * x + y * y + z * z);
    if (!std::isfinite(l) || !(l > 1e-30))
        return fallback;
    return {float(x / l), float(y / l), float(z / l)};
}

} // namespace marionette::plugins::iqm
