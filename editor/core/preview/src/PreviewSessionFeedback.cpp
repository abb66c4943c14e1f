// PreviewSession feedback: stick strain, angular-limit violation, contacts, stats, and ray picking.
#include "PreviewSessionInternal.h"

#include <algorithm>
#include <cmath>

namespace marionette::editor {

namespace {

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

void PreviewSession::measureRun()
{
    // The run's figures start afresh with the first step (step 0, the drop pose, is not part of the run).
    if (mSim->step <= 1 || !mSim->figures)
        mSim->figures.emplace(mGeometry);
    mSim->figures->measure(*mSim->ragdoll, float(mSim->time), mSim->dt);
}

void PreviewSession::updateStats(double micros)
{
    measureRun();
    const RunFigures& f = *mSim->figures;
    const runtime::Ragdoll& r = *mSim->ragdoll;
    PreviewStats s;
    s.stepMicroseconds = micros;
    s.maxStickError = r.stats().maxStickError;
    s.maxAngularViolation = f.stepLimitExcess();
    s.maxPenetration = f.stepPenetration();
    s.contacts = f.contacts();
    s.asleep = r.asleep();
    s.worstStickError = f.worstStickError();
    s.worstStick = f.worstStick();
    s.impactStickError = f.impactStickError();
    s.firstContact = f.firstContact();
    s.worstLimitExcess = f.worstLimitExcess();
    s.worstLimit = f.worstLimit();
    s.settledAt = f.settledAt();
    mStats = s;
}

std::string PreviewSession::compiledStickName(std::int32_t k) const
{
    if (!isRunning() || k < 0 || std::size_t(k) >= mSim->rig->sticks().size())
        return {};
    return mSim->rig->stickName(std::size_t(k));
}

std::vector<float> PreviewSession::stickStrain() const
{
    std::vector<float> out;
    if (!isRunning())
        return out;
    const runtime::Rig& rig = *mSim->rig;
    std::vector<float> compiled(rig.sticks().size());
    mSim->ragdoll->stickStrains(compiled);
    out.resize(rig.description().sticks.size(), 0.f);
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = compiled[rig.compiledStick(i)];
    return out;
}

std::vector<float> PreviewSession::angularViolation() const
{
    std::vector<float> out;
    if (!isRunning())
        return out;
    out.resize(mSim->rig->angular().size(), 0.f);
    mSim->ragdoll->angularExcesses(out);
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
        if (d <= radii[i] + kRunContactMargin)
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

Vec3 PreviewSession::hitNormal(const HitPoint& hit) const
{
    if (!isRunning())
        return {};
    const auto x = mSim->ragdoll->positions();
    Vec3 centre;
    if (hit.kind == HitPoint::Kind::Particle) {
        if (hit.index >= x.size())
            return {};
        centre = x[hit.index];
    } else {
        const auto& sticks = mSim->rig->description().sticks;
        if (hit.index >= sticks.size())
            return {};
        const rig::Stick& s = sticks[hit.index];
        const float t = std::clamp(hit.t, 0.f, 1.f);
        centre = x[std::size_t(s.a)] * (1.f - t) + x[std::size_t(s.b)] * t;
    }
    const Vec3 inward = centre - hit.point;
    const float l = length(inward);
    return l > 1e-6f && std::isfinite(l) ? inward / l : Vec3{};
}

Vec3 PreviewSession::centreOfMass(float alpha) const
{
    if (!isRunning())
        return {};
    const runtime::Ragdoll& r = *mSim->ragdoll;
    const auto masses = mSim->rig->masses();
    Vec3 weighted, plain;
    float total = 0.f;
    for (std::uint32_t i = 0; i < r.particleCount(); ++i) {
        const Vec3 p = r.interpolatedPosition(i, alpha);
        const float m = i < masses.size() ? masses[i] : 0.f;
        plain = plain + p;
        if (m > 0.f) {
            weighted = weighted + p * m;
            total += m;
        }
    }
    if (total > 0.f)
        return weighted / total;
    return r.particleCount() ? plain / float(r.particleCount()) : Vec3{};
}

} // namespace marionette::editor
