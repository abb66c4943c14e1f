// Rosen's triangle orientation constraints: cone and swing/twist limits, the relaxation modes' angular
// friction, and the triangle frames they read. (The friction and bend damping at the end of a substep are in
// JointDamping.cpp.)
#include "AngularCorrection.h"
#include "FastMath.h"
#include "RagdollState.h"

#include <algorithm>
#include <cmath>
#include <span>

namespace marionette::runtime {

namespace {

/// Current frame of triangle t, falling back to (and refreshing) the last good one.
inline const Mat3& frameOf(RagdollState& s, const TriangleData& t, std::uint32_t index)
{
    Mat3 f;
    if (Rig::triangleFrame(s.x[t.p[0]], s.x[t.p[1]], s.x[t.p[2]], f))
        s.frames[index] = f;
    return s.frames[index];
}

/// Twist of the deviation qc (constraint frame, w >= 0) about +Y, in (−π, π].
inline float twistAngle(Quat qc)
{
    return 2.f * fast::atan2(qc.y, qc.w);
}


/// sin² of half the rotation angle of the unit quaternion q.
inline float sinHalf2(Quat q) { return q.x * q.x + q.y * q.y + q.z * q.z; }

/// Violations below this (radians, 0.05°) are left alone: float noise on locked axes is not worth a correction.
constexpr float kAngularTolerance = 8.7e-4f;

/// Swing/twist clamp of the rotation q (constraint frame, twist about +Y). Returns true and the clamped
/// rotation when q lies outside the limits by more than the tolerance. The common in-limits case costs a
/// few multiplications: the twist range is tested on the half-angle quaternion without trigonometry.
bool clampSwingTwist(Quat q, const AngularData& c, Quat& clamped, float& excess)
{
    if (q.w < 0.f)
        q = {-q.x, -q.y, -q.z, -q.w};
    const float tl = std::sqrt(q.y * q.y + q.w * q.w);
    const Quat twist = tl > 1e-6f ? Quat{0.f, q.y / tl, 0.f, q.w / tl} : Quat{};
    const Quat swing = q * twist.conjugate(); // axis ⊥ Y
    const float sv2 = swing.x * swing.x + swing.z * swing.z;
    // Twist within [min, max] ⇔ its half angle within the half limits (w >= 0 keeps it in [−π/2, π/2]).
    const bool twistOk = twist.y * c.twistMinCos - twist.w * c.twistMinSin >= 0.f &&
                         twist.w * c.twistMaxSin - twist.y * c.twistMaxCos >= 0.f;
    constexpr float kLock = 1e-4f;
    const float s1 = c.swing1, s2 = c.swing2;
    const float halfTol = 0.5f * kAngularTolerance;
    if (twistOk) {
        if (sv2 <= halfTol * halfTol)
            return false; // swing below tolerance
        if (s1 >= kLock && s2 >= kLock) {
            // conservative: swing angle <= min limit (sinHalfSwing2 = sin²(min(s1, s2) / 2))
            if (sv2 <= c.sinHalfSwing2 * (swing.w * swing.w + sv2))
                return false;
        }
    }
    float tw = 2.f * fast::atan2(twist.y, twist.w);
    const float sv = std::sqrt(sv2);
    const float sAngle = 2.f * fast::atan2(sv, std::fabs(swing.w));
    const float sgn = swing.w < 0.f ? -1.f : 1.f;
    float a = sv > 1e-7f ? sAngle * sgn * swing.x / sv : 0.f; // swing about X (swing1)
    float b = sv > 1e-7f ? sAngle * sgn * swing.z / sv : 0.f; // swing about Z (swing2)
    if (tw > kPi)
        tw -= 2.f * kPi;
    if (tw < -kPi)
        tw += 2.f * kPi;

    const float twc = std::clamp(tw, c.twistMin, c.twistMax);
    float ac = a, bc = b;
    if (s1 < kLock)
        ac = 0.f;
    if (s2 < kLock)
        bc = 0.f;
    if (s1 >= kLock && s2 >= kLock) {
        const float e = (a / s1) * (a / s1) + (b / s2) * (b / s2);
        if (e > 1.f) {
            const float k = 1.f / std::sqrt(e);
            ac = a * k;
            bc = b * k;
        }
    } else if (s1 >= kLock) {
        ac = std::clamp(a, -s1, s1);
    } else if (s2 >= kLock) {
        bc = std::clamp(b, -s2, s2);
    }
    const float dt = twc - tw, da = ac - a, db = bc - b;
    excess = std::sqrt(dt * dt + da * da + db * db);
    if (excess <= kAngularTolerance)
        return false;
    const float sc = std::sqrt(ac * ac + bc * bc);
    const Quat swingC = sc > 1e-9f ? fast::fromAxisAngle({ac / sc, 0.f, bc / sc}, sc) : Quat{};
    clamped = swingC * fast::fromAxisAngle({0.f, 1.f, 0.f}, twc);
    return true;
}

/// Recomputes the frame of every triangle (keeping the last good one for degenerate triangles).
void refreshFrames(RagdollState& s, std::span<const TriangleData> tris)
{
    for (std::uint32_t i = 0; i < tris.size(); ++i)
        s.frameQ[i] = toQuatOrthonormal(frameOf(s, tris[i], i));
}

/// True when the swing/twist deviation qc (constraint frame, w >= 0) is certainly inside the limits:
/// the twist's half-angle quaternion is compared with the limits' without trigonometry, and the swing's
/// sin²(σ/2) = x² + z² with the smaller swing limit's.
inline bool insideSwingTwist(Quat qc, const AngularData& c)
{
    const bool twistOk = qc.y * c.twistMinCos - qc.w * c.twistMinSin >= 0.f &&
                         qc.w * c.twistMaxSin - qc.y * c.twistMaxCos >= 0.f;
    return twistOk && qc.x * qc.x + qc.z * qc.z <= c.sinHalfSwing2;
}

} // namespace

bool Solver::limitCorrection(const Ragdoll& r, std::uint32_t index, Vec3& u, float& phi, float& excess)
{
    const RagdollState& s = *r.mState;
    const AngularData& c = r.rig().angular()[index];
    const Quat qA = s.frameQ[c.triA];
    const Quat qB = s.frameQ[c.triB];
    if (c.limit == rig::AngularLimit::Cone) {
        // World rotation from where B would be at rest relative to A to where it is.
        const Quat dev = qB * (qA * c.restQ).conjugate();
        if (sinHalf2(dev) <= c.sinHalfCone2)
            return false;
        float theta;
        if (!fast::axisAngle(dev, u, theta))
            return false;
        const float over = theta - c.coneAngle;
        if (over <= kAngularTolerance)
            return false;
        excess = over;
        phi = -over;
        return true;
    }
    // Deviation in the constraint frame: (q_A·rest·F)⁻¹ (q_B·F).
    const Quat G = qA * c.restFrameQ;
    Quat qc = G.conjugate() * qB * c.twistFrame;
    if (qc.w < 0.f)
        qc = {-qc.x, -qc.y, -qc.z, -qc.w};
    if (c.hinge && s.w[c.freeA] > 0.f && s.w[c.freeB] > 0.f) {
        // Twist only (qc's swing-twist split: its Y and W parts), trig-free when inside, corrected about the
        // hinge line. The swing is the shared edge's business.
        const bool twistInside = qc.y * c.twistMinCos - qc.w * c.twistMinSin >= 0.f &&
                                 qc.w * c.twistMaxSin - qc.y * c.twistMaxCos >= 0.f;
        if (twistInside)
            return false;
        const float tw = twistAngle(qc);
        const float over = tw > c.twistMax ? tw - c.twistMax : (tw < c.twistMin ? tw - c.twistMin : 0.f);
        if (!(std::fabs(over) > kAngularTolerance))
            return false;
        excess = std::fabs(over);
        u = normalizeOr(s.x[c.hingeB] - s.x[c.hingeA], G.rotate(Vec3{0.f, 1.f, 0.f}));
        phi = -over * c.hingeSign;
        return true;
    }
    if (insideSwingTwist(qc, c))
        return false;
    Quat clamped;
    if (!clampSwingTwist(qc, c, clamped, excess))
        return false;
    Vec3 local;
    if (!fast::axisAngle(clamped * qc.conjugate(), local, phi)) // current → clamped, constraint frame
        return false;
    u = G.rotate(local);
    return true;
}

bool Solver::limitRow(const Ragdoll& r, std::uint32_t index, float band, Vec3& u, float& rhs)
{
    const RagdollState& s = *r.mState;
    if (angularTorn(r.rig(), s, index))
        return false;
    const AngularData& c = r.rig().angular()[index];
    const Quat qA = s.frameQ[c.triA];
    const Quat qB = s.frameQ[c.triB];
    if (c.limit == rig::AngularLimit::Cone) {
        const Quat dev = qB * (qA * c.restQ).conjugate();
        Vec3 axis;
        float theta;
        if (!fast::axisAngle(dev, axis, theta))
            return false;
        rhs = theta - c.coneAngle;
        if (!(rhs > -band))
            return false;
        u = -axis; // turning B back about the deviation's axis shrinks the deviation
        return true;
    }
    const Quat G = qA * c.restFrameQ;
    Quat qc = G.conjugate() * qB * c.twistFrame;
    if (qc.w < 0.f)
        qc = {-qc.x, -qc.y, -qc.z, -qc.w};
    const float tw = twistAngle(qc);
    const bool hinge = c.hinge && s.w[c.freeA] > 0.f && s.w[c.freeB] > 0.f;
    // Twist: about the hinge line for a hinge, about the constraint frame's twist axis otherwise.
    const Vec3 twistAxis = hinge ? normalizeOr(s.x[c.hingeB] - s.x[c.hingeA], G.rotate(Vec3{0.f, 1.f, 0.f})) * c.hingeSign
                                 : G.rotate(Vec3{0.f, 1.f, 0.f});
    const float overMax = tw - c.twistMax, overMin = c.twistMin - tw;
    if (!hinge) {
        // Swing beyond its ellipse: the clamp's correction (with the twist's, when that is broken too).
        Vec3 cu;
        float phi, excess;
        if (limitCorrection(r, index, cu, phi, excess)) {
            u = phi < 0.f ? -cu : cu;
            rhs = std::fabs(phi);
            return true;
        }
    }
    if (overMax > -band && overMax >= overMin) {
        u = -twistAxis;
        rhs = overMax;
        return true;
    }
    if (overMin > -band) {
        u = twistAxis;
        rhs = overMin;
        return true;
    }
    return false;
}

void Solver::solveAngular(Ragdoll& r, bool frictionPass)
{
    RagdollState& s = *r.mState;
    const Rig& rig = r.rig();
    const auto tris = rig.triangles();
    const auto cons = rig.angular();
    float worst = 0.f;
    if (cons.empty())
        return;
    refreshFrames(s, tris);
    const float h = s.dt;
    for (std::size_t i = 0; i < cons.size(); ++i) {
        if (angularTorn(rig, s, i))
            continue;
        const AngularData& c = cons[i];
        const TriangleData& A = tris[c.triA];
        const TriangleData& B = tris[c.triB];
        Vec3 u;
        float phi;
        if (frictionPass) {
            const Quat qA = s.frameQ[c.triA];
            const Quat qB = s.frameQ[c.triB];
            s.held[i] = 0;
            if ((c.damping <= 0.f && c.staticFrictionSpeed <= 0.f) || driven(s, c))
                continue;
            // Rotation of B relative to A since the last substep (or since static friction took hold): the
            // world rotation from where B was to where it is.
            const Quat change = qB * (qA * s.lastRelative[i]).conjugate();
            const float sh2 = sinHalf2(change);
            if (!(sh2 > 1e-14f))
                continue;
            // Static: turning slower than staticFrictionSpeed, it is put back. Dynamic: the relative spin
            // loses 1 − e^(−damping·h) of itself each substep.
            const float hold = 0.5f * c.staticFrictionSpeed * h;
            const bool stick = sh2 <= hold * hold;
            const float f = stick ? 1.f : 1.f - std::exp(-c.damping * h);
            float theta;
            if (f > 0.f && fast::axisAngle(change, u, theta)) {
                if (c.hinge && s.w[c.freeA] > 0.f && s.w[c.freeB] > 0.f) {
                    // Only the turn about the hinge line: the shared edge holds the rest.
                    const Vec3 e = normalizeOr(s.x[c.hingeB] - s.x[c.hingeA], u);
                    applyHinge(s, c, e, -theta * dot(u, e) * f);
                } else {
                    applyCorrection(s, A, c.triA, B, c.triB, u, -theta * f);
                }
                s.held[i] = stick ? 1 : 0;
            }
            continue;
        }
        float excess = 0.f;
        if (!limitCorrection(r, std::uint32_t(i), u, phi, excess))
            continue;
        worst = std::max(worst, excess);
        if (c.hinge && s.w[c.freeA] > 0.f && s.w[c.freeB] > 0.f)
            applyHinge(s, c, u, phi * c.stiffness);
        else
            applyCorrection(s, A, c.triA, B, c.triB, u, phi * c.stiffness);
    }
    if (!frictionPass)
        s.stats.maxAngularViolation = worst;
}

void Solver::refreshTriangleFrames(Ragdoll& r)
{
    refreshFrames(*r.mState, r.rig().triangles());
}

void Solver::recordRelativeOrientations(Ragdoll& r)
{
    RagdollState& s = *r.mState;
    const auto cons = r.rig().angular();
    // Frames were refreshed by finishStep. A joint static friction holds keeps the orientation where the hold
    // began: the next step puts it back there, so the other constraints cannot make it creep step by step.
    for (std::size_t i = 0; i < cons.size(); ++i)
        if (!s.held[i])
            s.lastRelative[i] = s.frameQ[cons[i].triA].conjugate() * s.frameQ[cons[i].triB];
}

} // namespace marionette::runtime
