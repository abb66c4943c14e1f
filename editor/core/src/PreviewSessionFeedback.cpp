// PreviewSession feedback: stick strain, angular-limit violation, contacts, stats, and ray picking.
#include "PreviewSessionInternal.h"

#include <algorithm>
#include <cmath>

namespace marionette::editor {

namespace {

/// Radians by which frames qA, qB break angular constraint c (0 inside), measured as the runtime's solver
/// measures it: a cone by the deviation angle from the rest relative orientation; swing/twist by the
/// distance of (twist, swing about X, swing about Z) from its clamp into the limits (twist range, swing
/// ellipse); a hinge by its twist only (its shared edge holds the swing).
float violation(const runtime::AngularData& c, Quat qA, Quat qB)
{
    if (c.limit == rig::AngularLimit::Cone) {
        const Quat dev = qB * (qA * c.restQ).conjugate();
        return std::max(0.f, rotationAngle(dev) - c.coneAngle);
    }
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
    const float dt = std::clamp(tw, c.twistMin, c.twistMax) - tw;
    if (c.hinge)
        return std::fabs(dt);
    const Quat swing = q * twist.conjugate();
    const float sv = std::sqrt(swing.x * swing.x + swing.z * swing.z);
    const float angle = 2.f * std::atan2(sv, std::fabs(swing.w));
    const float sgn = swing.w < 0.f ? -1.f : 1.f;
    const float a = sv > 1e-7f ? angle * sgn * swing.x / sv : 0.f;
    const float b = sv > 1e-7f ? angle * sgn * swing.z / sv : 0.f;
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

/// Ray (o, unit d) against sphere (c, r): entry distance >= 0 (0 when o is inside), or -1.
float raySphere(Vec3 o, Vec3 d, Vec3 c, float r)
{
    const Vec3 oc = o - c;
    const float b = dot(oc, d);
    const float cc = dot(oc, oc) - r * r;
    if (cc <= 0.f)
        return 0.f;
    const float h = b * b - cc;
    if (h < 0.f || b > 0.f)
        return -1.f;
    return -b - std::sqrt(h);
}

/// Ray (o, unit d) against the capsule (a, b, r): entry distance >= 0, or -1.
float rayCapsule(Vec3 o, Vec3 d, Vec3 a, Vec3 b, float r)
{
    float best = -1.f;
    auto take = [&](float t) {
        if (t >= 0.f && (best < 0.f || t < best))
            best = t;
    };
    take(raySphere(o, d, a, r));
    take(raySphere(o, d, b, r));
    const Vec3 ba = b - a;
    const float baba = dot(ba, ba);
    if (baba > 1e-12f) {
        const Vec3 oa = o - a;
        const float bard = dot(ba, d), baoa = dot(ba, oa), rdoa = dot(d, oa), oaoa = dot(oa, oa);
        const float qa = baba - bard * bard;
        const float qb = baba * rdoa - baoa * bard;
        const float qc = baba * oaoa - baoa * baoa - r * r * baba;
        if (qa > 1e-12f) {
            const float h = qb * qb - qa * qc;
            if (h >= 0.f) {
                float t = (-qb - std::sqrt(h)) / qa;
                if (qc <= 0.f)
                    t = 0.f; // origin inside the infinite cylinder
                const float y = baoa + t * bard;
                if (y > 0.f && y < baba)
                    take(t);
            }
        }
    }
    return best;
}

} // namespace

void PreviewSession::updateStats(double micros)
{
    PreviewStats s;
    s.stepMicroseconds = micros;
    const runtime::Ragdoll& r = *mSim->ragdoll;
    s.maxStickError = r.stats().maxStickError;
    for (float v : angularViolation())
        s.maxAngularViolation = std::max(s.maxAngularViolation, v);
    const auto x = r.positions();
    const auto radii = mSim->rig->radii();
    for (std::size_t i = 0; i < x.size(); ++i) {
        s.maxPenetration = std::max(s.maxPenetration, penetrationDepth(mGeometry, x[i], radii[i]));
        float d;
        nearestSurfacePoint(mGeometry, x[i], &d);
        if (d <= radii[i] + kContactMargin)
            ++s.contacts;
    }
    s.asleep = r.asleep();
    mStats = s;
}

std::vector<float> PreviewSession::stickStrain() const
{
    std::vector<float> out;
    if (!isRunning())
        return out;
    const runtime::Rig& rig = *mSim->rig;
    const auto& sticks = rig.description().sticks;
    const auto x = mSim->ragdoll->positions();
    out.resize(sticks.size(), 0.f);
    for (std::size_t i = 0; i < sticks.size(); ++i) {
        if (mSim->ragdoll->stickTorn(std::uint32_t(i)))
            continue;
        const runtime::StickData& c = rig.sticks()[rig.compiledStick(i)];
        const float L = length(x[c.b] - x[c.a]);
        if (sticks[i].kind == rig::StickKind::Rigid) {
            out[i] = c.maxLength > 1e-9f ? L / c.maxLength - 1.f : 0.f;
        } else if (L < c.minLength) {
            out[i] = c.minLength > 1e-9f ? (L - c.minLength) / c.minLength : 0.f;
        } else if (L > c.maxLength) {
            out[i] = c.maxLength > 1e-9f ? (L - c.maxLength) / c.maxLength : 0.f;
        }
    }
    return out;
}

std::vector<float> PreviewSession::angularViolation() const
{
    std::vector<float> out;
    if (!isRunning())
        return out;
    const runtime::Rig& rig = *mSim->rig;
    const auto x = mSim->ragdoll->positions();
    const auto tris = rig.triangles();
    std::vector<Quat> frames(tris.size());
    std::vector<bool> ok(tris.size());
    for (std::size_t i = 0; i < tris.size(); ++i) {
        Mat3 f;
        ok[i] = runtime::Rig::triangleFrame(x[tris[i].p[0]], x[tris[i].p[1]], x[tris[i].p[2]], f);
        if (ok[i])
            frames[i] = toQuatOrthonormal(f);
    }
    out.resize(rig.angular().size(), 0.f);
    for (std::size_t i = 0; i < out.size(); ++i) {
        const runtime::AngularData& c = rig.angular()[i];
        if (ok[c.triA] && ok[c.triB]) // a degenerate triangle has no orientation to measure
            out[i] = violation(c, frames[c.triA], frames[c.triB]);
    }
    return out;
}

std::vector<Vec3> PreviewSession::contactPoints() const
{
    std::vector<Vec3> out;
    if (!isRunning())
        return out;
    const auto x = mSim->ragdoll->positions();
    const auto radii = mSim->rig->radii();
    for (std::size_t i = 0; i < x.size(); ++i) {
        float d;
        const Vec3 p = nearestSurfacePoint(mGeometry, x[i], &d);
        if (d <= radii[i] + kContactMargin)
            out.push_back(p);
    }
    return out;
}

std::optional<HitPoint> PreviewSession::hitRay(Vec3 origin, Vec3 dir) const
{
    if (!isRunning() || !isFinite(origin) || !isFinite(dir) || !(lengthSquared(dir) > 1e-20f))
        return std::nullopt;
    const Vec3 d = dir / length(dir);
    const auto x = mSim->ragdoll->positions();
    const auto radii = mSim->rig->radii();
    const auto& sticks = mSim->rig->description().sticks;
    std::optional<HitPoint> best;
    auto consider = [&](HitPoint::Kind kind, std::uint32_t index, float t) {
        if (t < 0.f || (best && t >= best->distance))
            return;
        HitPoint h;
        h.kind = kind;
        h.index = index;
        h.distance = t;
        h.point = origin + d * t;
        best = h;
    };
    // Sticks first: on a tie (a capsule's end cap and its particle's sphere) the body part wins.
    for (std::uint32_t k = 0; k < sticks.size(); ++k) {
        const rig::Stick& s = sticks[k];
        float r = s.capsuleRadius;
        if (!(r > 0.f) && s.kind == rig::StickKind::Rigid)
            r = std::min(radii[std::size_t(s.a)], radii[std::size_t(s.b)]);
        if (!(r > 0.f) || mSim->ragdoll->stickTorn(k))
            continue;
        consider(HitPoint::Kind::Stick, k, rayCapsule(origin, d, x[std::size_t(s.a)], x[std::size_t(s.b)], r));
    }
    for (std::uint32_t i = 0; i < x.size(); ++i)
        if (radii[i] > 0.f)
            consider(HitPoint::Kind::Particle, i, raySphere(origin, d, x[i], radii[i]));
    if (best && best->kind == HitPoint::Kind::Stick) {
        const rig::Stick& s = sticks[best->index];
        const Vec3 a = x[std::size_t(s.a)], ab = x[std::size_t(s.b)] - a;
        const float l2 = dot(ab, ab);
        best->t = l2 > 1e-12f ? std::clamp(dot(best->point - a, ab) / l2, 0.f, 1.f) : 0.5f;
    }
    return best;
}

} // namespace marionette::editor
