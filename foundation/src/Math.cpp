#include "marionette/Math.h"

namespace marionette {

bool invertAffine(const Mat4& a, Mat4& out)
{
    // Invert the upper 3×3 by cofactors, then the translation.
    const float a00 = a(0, 0), a01 = a(0, 1), a02 = a(0, 2);
    const float a10 = a(1, 0), a11 = a(1, 1), a12 = a(1, 2);
    const float a20 = a(2, 0), a21 = a(2, 1), a22 = a(2, 2);
    const float c00 = a11 * a22 - a12 * a21;
    const float c01 = a12 * a20 - a10 * a22;
    const float c02 = a10 * a21 - a11 * a20;
    const float det = a00 * c00 + a01 * c01 + a02 * c02;
    if (!(std::fabs(det) > 1e-20f) || !std::isfinite(det))
        return false;
    const float id = 1.f / det;
    Mat4 r;
    r.at(0, 0) = c00 * id;
    r.at(0, 1) = (a02 * a21 - a01 * a22) * id;
    r.at(0, 2) = (a01 * a12 - a02 * a11) * id;
    r.at(1, 0) = c01 * id;
    r.at(1, 1) = (a00 * a22 - a02 * a20) * id;
    r.at(1, 2) = (a02 * a10 - a00 * a12) * id;
    r.at(2, 0) = c02 * id;
    r.at(2, 1) = (a01 * a20 - a00 * a21) * id;
    r.at(2, 2) = (a00 * a11 - a01 * a10) * id;
    const Vec3 t{a(0, 3), a(1, 3), a(2, 3)};
    for (int row = 0; row < 3; ++row)
        r.at(row, 3) = -(r(row, 0) * t.x + r(row, 1) * t.y + r(row, 2) * t.z);
    r.at(3, 0) = r.at(3, 1) = r.at(3, 2) = 0.f;
    r.at(3, 3) = 1.f;
    out = r;
    return true;
}

} // namespace marionette
