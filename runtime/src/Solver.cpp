// The constraint solver: Verlet integration, sticks, angle constraints, pins, step bookkeeping.
// Triangle angular constraints live in AngularSolver.cpp, collisions in Collision.cpp.
#include "RagdollState.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace marionette::runtime {

Ragdoll* Solver::create(std::shared_ptr<const Rig> rig, const Transform& placement, float dt,
                        std::uint32_t contactCapacity)
{
    return new Ragdoll(std::move(rig), placement, dt, contactCapacity);
}

void Solver::integrate(Ragdoll& r, Vec3 gravity, float dt)
{
    RagdollState& s = *r.mState;
    const std::size_t n = s.w.size();
    const float keep = 1.f - r.rig().settings().drag;
    const Vec3 a = gravity * (dt * dt);
    Vec3* x = s.x;
    Vec3* xp = s.xPrev;
    const float* w = s.w.data();
    for (std::size_t i = 0; i < n; ++i) {
        const float m = w[i] > 0.f ? 1.f : 0.f;
        const Vec3 xi = x[i];
        xp[i] = xi + ((xi - xp[i]) * keep + a) * m; // x' = (2−k)x − (1−k)x* + aΔt², written over x*
    }
    std::swap(s.x, s.xPrev); // x* ← x without copying
    s.dt = dt;
}

namespace {

enum class StickMode { GaussSeidel, Jacobi, Xpbd };

/// One pass over the sticks. Sqrt: Jakobsen's one-Newton-step square root. Tear: sticks may tear.
template <StickMode Mode, bool Sqrt, bool Tear>
void stickPass(const StickData* sticks, std::size_t count, RagdollState& s, float omega, bool reverse, float invDt2)
{
    Vec3* x = s.x;
    const float* w = s.w.data();
    std::uint8_t* torn = s.torn.data();
    float* lambda = s.lambda.data();
    for (std::size_t k = 0; k < count; ++k) {
        const std::size_t i = reverse ? count - 1 - k : k;
        const StickData& c = sticks[i];
        if constexpr (Tear) {
            if (torn[i])
                continue;
        }
        const float wa = w[c.a], wb = w[c.b];
        const float wsum = wa + wb;
        if (wsum <= 0.f)
            continue;
        Vec3 d = x[c.b] - x[c.a];
        const float d2 = dot(d, d);
        float scale; // correction along d: x_a += wa·scale·d, x_b −= wb·scale·d
        if constexpr (Sqrt && Mode != StickMode::Xpbd) {
            float r;
            if (d2 < c.minLength * c.minLength)
                r = c.minLength;
            else if (d2 > c.maxLength * c.maxLength)
                r = c.maxLength;
            else
                continue;
            if constexpr (Tear) {
                if (d2 > c.tearLength * c.tearLength) {
                    torn[i] = 1;
                    continue;
                }
            }
            const float r2 = r * r;
            const float denom = (d2 + r2) * wsum;
            if (!(denom > 1e-30f))
                continue;
            scale = c.stiffness * (d2 - r2) / denom;
        } else {
            const float L = std::sqrt(d2);
            const float target = std::clamp(L, c.minLength, c.maxLength);
            if (L == target)
                continue;
            if constexpr (Tear) {
                if (L > c.tearLength) {
                    torn[i] = 1;
                    continue;
                }
            }
            float invL;
            if (L > 1e-9f) {
                invL = 1.f / L;
            } else { // coinciding ends: separate them along a fixed axis
                d = {0.f, 1.f, 0.f};
                invL = 1.f;
            }
            const float C = L - target;
            if constexpr (Mode == StickMode::Xpbd) {
                const float alpha = c.compliance * invDt2;
                const float dl = (-C - alpha * lambda[i]) / (wsum + alpha);
                lambda[i] += dl;
                scale = -dl * invL; // x_a −= wa·Δλ·u  ≡  x_a += wa·(−Δλ/L)·d
            } else {
                scale = c.stiffness * C * invL / wsum;
            }
        }
        if constexpr (Mode == StickMode::Jacobi) {
            s.jacobiDelta[c.a] += d * (wa * scale);
            s.jacobiDelta[c.b] -= d * (wb * scale);
            s.jacobiCount[c.a] += 1.f;
            s.jacobiCount[c.b] += 1.f;
        } else {
            scale *= omega;
            x[c.a] += d * (wa * scale);
            x[c.b] -= d * (wb * scale);
        }
    }
}

template <StickMode Mode>
void stickPassDispatch(const Rig& rig, RagdollState& s, float omega, bool reverse, float invDt2)
{
    const auto sticks = rig.sticks();
    const bool sq = rig.settings().sqrtApproximation;
    const bool tear = rig.hasTearableSticks();
    if (sq && tear)
        stickPass<Mode, true, true>(sticks.data(), sticks.size(), s, omega, reverse, invDt2);
    else if (sq)
        stickPass<Mode, true, false>(sticks.data(), sticks.size(), s, omega, reverse, invDt2);
    else if (tear)
        stickPass<Mode, false, true>(sticks.data(), sticks.size(), s, omega, reverse, invDt2);
    else
        stickPass<Mode, false, false>(sticks.data(), sticks.size(), s, omega, reverse, invDt2);
}

} // namespace

void Solver::solveSticks(Ragdoll& r, bool reverse)
{
    RagdollState& s = *r.mState;
    const Rig& rig = r.rig();
    const float omega = rig.settings().overRelaxation;
    const float invDt2 = 1.f / (s.dt * s.dt);
    switch (rig.settings().solver) {
    case rig::SolverMode::GaussSeidel:
        stickPassDispatch<StickMode::GaussSeidel>(rig, s, omega, reverse, invDt2);
        break;
    case rig::SolverMode::Xpbd:
        stickPassDispatch<StickMode::Xpbd>(rig, s, 1.f, reverse, invDt2);
        break;
    case rig::SolverMode::Jacobi: {
        std::fill(s.jacobiDelta.begin(), s.jacobiDelta.end(), Vec3{});
        std::fill(s.jacobiCount.begin(), s.jacobiCount.end(), 0.f);
        stickPassDispatch<StickMode::Jacobi>(rig, s, omega, reverse, invDt2);
        for (std::size_t i = 0; i < s.jacobiDelta.size(); ++i)
            if (s.jacobiCount[i] > 0.f)
                s.x[i] += s.jacobiDelta[i] * (omega / s.jacobiCount[i]);
        break;
    }
    }
}

void Solver::solveAngles(Ragdoll& r)
{
    RagdollState& s = *r.mState;
    Vec3* x = s.x;
    const float* w = s.w.data();
    for (const AngleData& c : r.rig().angles()) {
        const Vec3 a = x[c.a] - x[c.center];
        const Vec3 b = x[c.b] - x[c.center];
        const float la = length(a), lb = length(b);
        if (!(la > 1e-7f) || !(lb > 1e-7f))
            continue;
        const Vec3 ua = a / la, ub = b / lb;
        const float cosT = std::clamp(dot(ua, ub), -1.f, 1.f);
        float target;
        if (cosT > c.cosMin)
            target = c.minAngle; // angle too small
        else if (cosT < c.cosMax)
            target = c.maxAngle; // too large
        else
            continue;
        const float theta = std::acos(cosT);
        const float C = theta - target;
        // ∂θ/∂x_a = −(ub − cosθ·ua)/(|a| sinθ), likewise for b; the centre takes minus their sum.
        Vec3 pa = ub - ua * cosT, pb = ua - ub * cosT;
        float sinT = std::sqrt(std::max(0.f, 1.f - cosT * cosT));
        if (sinT < 1e-4f) { // arms (anti)parallel: bend in any plane containing them
            const Vec3 perp = anyPerpendicular(ua);
            pa = perp * (cosT > 0.f ? 1.f : -1.f);
            pb = -perp * (cosT > 0.f ? 1.f : -1.f);
            sinT = 1.f;
        }
        const Vec3 ga = pa * (-1.f / (la * sinT));
        const Vec3 gb = pb * (-1.f / (lb * sinT));
        const Vec3 gc = -(ga + gb);
        const float denom = w[c.a] * dot(ga, ga) + w[c.b] * dot(gb, gb) + w[c.center] * dot(gc, gc);
        if (!(denom > 1e-20f))
            continue;
        const float dl = -C * c.stiffness / denom;
        x[c.a] += ga * (w[c.a] * dl);
        x[c.b] += gb * (w[c.b] * dl);
        x[c.center] += gc * (w[c.center] * dl);
    }
}

void Solver::solvePins(Ragdoll& r)
{
    RagdollState& s = *r.mState;
    for (const PinState& p : s.pins) {
        if (p.kinematic)
            s.x[p.particle] = p.target;
        else if (s.w[p.particle] > 0.f)
            s.x[p.particle] += (p.target - s.x[p.particle]) * p.stiffness;
    }
}

void Solver::beginIterations(Ragdoll& r)
{
    RagdollState& s = *r.mState;
    std::fill(s.lambda.begin(), s.lambda.end(), 0.f);
    // Angular friction acts once per step, before the limits, toward last step's relative orientation.
    solveAngular(r, true);
}

void Solver::iterate(Ragdoll& r, const StaticWorld& world, std::uint32_t iteration)
{
    const bool reverse = (iteration & 1u) != 0;
    solveSticks(r, reverse);
    solveAngles(r);
    solveAngular(r, false);
    solvePins(r);
    solveSelfCollision(r);
    solveStaticContacts(r, world);
}

void Solver::sanitize(Ragdoll& r)
{
    RagdollState& s = *r.mState;
    const auto bind = r.rig().bindPositions();
    for (std::size_t i = 0; i < s.w.size(); ++i) {
        if (isFinite(s.x[i]) && std::fabs(s.x[i].x) < 1e7f && std::fabs(s.x[i].y) < 1e7f && std::fabs(s.x[i].z) < 1e7f)
            continue;
        // Fall back to where the particle was at the start of the step, at rest.
        const bool prevOk = isFinite(s.xPrev[i]);
        s.x[i] = prevOk ? s.xPrev[i] : bind[i];
        s.xPrev[i] = s.x[i];
    }
}

float Solver::maxStickError(const Ragdoll& r)
{
    const RagdollState& s = *r.mState;
    float worst = 0.f;
    const auto sticks = r.rig().sticks();
    for (std::size_t i = 0; i < sticks.size(); ++i) {
        if (!s.torn.empty() && s.torn[i])
            continue;
        const StickData& c = sticks[i];
        const float L = length(s.x[c.b] - s.x[c.a]);
        worst = std::max(worst, std::fabs(L - std::clamp(L, c.minLength, c.maxLength)));
    }
    return worst;
}

void Solver::finishStep(Ragdoll& r, bool sleepAllowed)
{
    RagdollState& s = *r.mState;
    sanitize(r);
    const Rig& rig = r.rig();
    // Sleep: the fastest particle's speed, smoothed over a few steps so contact jitter of a resting body
    // does not keep it awake, stays below the threshold for sleepTime seconds.
    const rig::Settings& st = rig.settings();
    if (sleepAllowed && st.sleepTime > 0.f) {
        float maxMove2 = 0.f;
        for (std::size_t i = 0; i < s.w.size(); ++i)
            maxMove2 = std::max(maxMove2, lengthSquared(s.x[i] - s.xPrev[i]));
        const float speed = std::sqrt(maxMove2) / s.dt;
        s.motion += (speed - s.motion) * 0.2f;
        s.stillTime = s.motion < st.sleepVelocity ? s.stillTime + s.dt : 0.f;
        if (s.stillTime >= st.sleepTime) {
            s.asleep = true;
            for (std::size_t i = 0; i < s.w.size(); ++i)
                s.xPrev[i] = s.x[i];
        }
    } else {
        s.stillTime = 0.f;
    }
    refreshTriangleFrames(r); // once, for both
    recordRelativeOrientations(r);
    updateBones(r);
}

} // namespace marionette::runtime
