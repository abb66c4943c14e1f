// The mannequin's deterministic maths: sine, cosine and arctangent from +, −, ×, ÷ and √ in double (no libm,
// whose results differ between machines), and the vector and quaternion operations the clips and forward
// kinematics use. Built without fused multiply-add, so they give the same bits on every machine.
#include "mannequin.h"

#include <cmath>

namespace mannequin {

double dsin(double x)
{
    const double turns = x / (2.0 * kPi);
    const double k = turns >= 0.0 ? double(static_cast<long long>(turns + 0.5)) : -double(static_cast<long long>(0.5 - turns));
    x -= k * 2.0 * kPi; // [−π, π]
    if (x > 0.5 * kPi)
        x = kPi - x;
    else if (x < -0.5 * kPi)
        x = -kPi - x; // [−π/2, π/2]
    const double x2 = x * x;
    double term = x, sum = x;
    for (int n = 1; n <= 12; ++n) {
        term *= -x2 / double((2 * n) * (2 * n + 1));
        sum += term;
    }
    return sum;
}
double dcos(double x) { return dsin(x + 0.5 * kPi); }
double datan(double x)
{
    if (x < 0.0)
        return -datan(-x);
    if (x > 1.0)
        return 0.5 * kPi - datan(1.0 / x);
    constexpr double kSqrt3 = 1.7320508075688772, kTan15 = 0.2679491924311227;
    if (x > kTan15) // atan x = 30° + atan((√3·x − 1) / (x + √3)), the argument within [0, tan 15°]
        return kPi / 6.0 + datan((kSqrt3 * x - 1.0) / (x + kSqrt3));
    const double x2 = x * x;
    double power = x, sum = x;
    for (int n = 1; n <= 16; ++n) {
        power *= -x2;
        sum += power / double(2 * n + 1);
    }
    return sum;
}
double datan2(double y, double x)
{
    if (x > 0.0)
        return datan(y / x);
    if (x < 0.0)
        return y >= 0.0 ? datan(y / x) + kPi : datan(y / x) - kPi;
    return y > 0.0 ? 0.5 * kPi : (y < 0.0 ? -0.5 * kPi : 0.0);
}
double dacos(double c)
{
    c = c > 1.0 ? 1.0 : (c < -1.0 ? -1.0 : c);
    return datan2(std::sqrt(1.0 - c * c), c);
}

D3 operator+(D3 a, D3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
D3 operator-(D3 a, D3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
D3 operator*(D3 a, double s) { return {a.x * s, a.y * s, a.z * s}; }
double dot(D3 a, D3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
D3 cross(D3 a, D3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
double length(D3 a) { return std::sqrt(dot(a, a)); }
D3 normalized(D3 a) { return a * (1.0 / length(a)); }
D3 lerp(D3 a, D3 b, double s) { return a + (b - a) * s; }
D3 toD3(V3 v) { return {double(v.x), double(v.y), double(v.z)}; }

Q operator*(Q a, Q b)
{
    return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
Q conj(Q q) { return {-q.x, -q.y, -q.z, q.w}; }
D3 rotate(Q q, D3 v)
{
    const D3 u{q.x, q.y, q.z};
    const D3 t = cross(u, v) * 2.0;
    return v + t * q.w + cross(u, t);
}
Q axisAngle(D3 axis, double radians)
{
    const double s = dsin(0.5 * radians);
    return {axis.x * s, axis.y * s, axis.z * s, dcos(0.5 * radians)};
}
Q normalized(Q q)
{
    const double n = 1.0 / std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return {q.x * n, q.y * n, q.z * n, q.w * n};
}
Q fromTo(D3 a, D3 b)
{
    const D3 c = cross(a, b);
    return normalized(Q{c.x, c.y, c.z, 1.0 + dot(a, b)});
}
Q yawPitchRoll(double yaw, double pitch, double roll)
{
    return axisAngle({0, 1, 0}, yaw * kDeg) * axisAngle({1, 0, 0}, pitch * kDeg) * axisAngle({0, 0, 1}, roll * kDeg);
}
Q mirrored(Q q) { return {q.x, -q.y, -q.z, q.w}; }

} // namespace mannequin
