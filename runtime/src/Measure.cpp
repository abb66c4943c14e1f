// Measurements of a ragdoll's constraint errors from its current positions: what tools, tests and the
// command line report (the solver's own tolerances do not enter).
#include "RagdollState.h"
#include "marionette/runtime/AngularDeviation.h"

#include <algorithm>
#include <cmath>

namespace marionette::runtime {

namespace {

/// Radians by which frames qA, qB break angular constraint c (0 inside).
float excessOf(const AngularData& c, Quat qA, Quat qB) { return angularExcess(c, angularDeviation(c, qA, qB)); }

} // namespace

AngularDeviation angularDeviation(const AngularData& c, Quat qA, Quat qB)
{
    AngularDeviation d{};
    d.angle = rotationAngle(qB * (qA * c.restQ).conjugate());
    const Quat G = qA * c.restFrameQ;
    Quat q = G.conjugate() * qB * c.twistFrame;
    if (q.w < 0.f)
        q = {-q.x, -q.y, -q.z, -q.w};
    const float tl = std::sqrt(q.y * q.y + q.w * q.w);
    const Quat twist = tl > 1e-6f ? Quat{0.f, q.y / tl, 0.f, q.w / tl} : Quat{};
    float tw = 2.f * std::atan2(twist.y, twist.w);
    if (tw > kPi)
        tw -= 2.f * kPi;
    if (tw < -kPi)
        tw += 2.f * kPi;
    d.twist = tw;
    const Quat swing = q * twist.conjugate();
    const float sv = std::sqrt(swing.x * swing.x + swing.z * swing.z);
    const float angle = 2.f * std::atan2(sv, std::fabs(swing.w));
    const float sgn = swing.w < 0.f ? -1.f : 1.f;
    d.swing1 = sv > 1e-7f ? angle * sgn * swing.x / sv : 0.f;
    d.swing2 = sv > 1e-7f ? angle * sgn * swing.z / sv : 0.f;
    return d;
}

float angularExcess(const AngularData& c, const AngularDeviation& d)
{
    if (c.limit == rig::AngularLimit::Cone)
        return std::max(0.f, d.angle - c.coneAngle);
    const float dt = std::clamp(d.twist, c.twistMin, c.twistMax) - d.twist;
    if (c.hinge)
        return std::fabs(dt);
    const float a = d.swing1, b = d.swing2;
    constexpr float kLock = 1e-4f;
    float ac = a, bc = b;
    if (c.swing1 < kLock)
        ac = 0.f;
    if (c.swing2 < kLock)
        bc = 0.f;
    if (c.swing1 >= kLock && c.swing2 >= kLock) {
        const float e = (a / c.swing1) * (a / c.swing1) + (b / c.swing2) * (b / c.swing2);
        if (e > 1.f) {
            ac = a / std::sqrt(e);
            bc = b / std::sqrt(e);
        }
    } else if (c.swing1 >= kLock) {
        ac = std::clamp(a, -c.swing1, c.swing1);
    } else if (c.swing2 >= kLock) {
        bc = std::clamp(b, -c.swing2, c.swing2);
    }
    return std::sqrt(dt * dt + (ac - a) * (ac - a) + (bc - b) * (bc - b));
}

bool Ragdoll::stickStrains(std::span<float> out) const
{
    const auto sticks = mRig->sticks();
    if (out.size() < sticks.size())
        return false;
    const RagdollState& s = *mState;
    for (std::size_t k = 0; k < sticks.size(); ++k) {
        const StickData& c = sticks[k];
        out[k] = 0.f;
        if (!s.torn.empty() && s.torn[k])
            continue;
        const float L = length(s.x[c.b] - s.x[c.a]);
        const float limit = L < c.minLength ? c.minLength : (L > c.maxLength ? c.maxLength : 0.f);
        if (limit > 1e-6f)
            out[k] = (L - limit) / limit;
    }
    return true;
}

bool Ragdoll::angularExcesses(std::span<float> out) const
{
    const auto cons = mRig->angular();
    if (out.size() < cons.size())
        return false;
    const RagdollState& s = *mState;
    const auto tris = mRig->triangles();
    for (std::size_t i = 0; i < cons.size(); ++i) {
        const AngularData& c = cons[i];
        const TriangleData& A = tris[c.triA];
        const TriangleData& B = tris[c.triB];
        if (angularTorn(*mRig, s, i)) {
            out[i] = 0.f; // torn open: the constraint no longer acts
            continue;
        }
        Mat3 fa, fb;
        out[i] = Rig::triangleFrame(s.x[A.p[0]], s.x[A.p[1]], s.x[A.p[2]], fa) &&
                         Rig::triangleFrame(s.x[B.p[0]], s.x[B.p[1]], s.x[B.p[2]], fb)
                     ? excessOf(c, toQuatOrthonormal(fa), toQuatOrthonormal(fb))
                     : 0.f;
    }
    return true;
}

} // namespace marionette::runtime
