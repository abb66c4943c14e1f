// The constraint solver: Verlet integration, sticks, angle constraints, pins, step bookkeeping.
// Triangle angular constraints live in AngularSolver.cpp, collisions in Collision.cpp.
#include "InstructionSet.h"
#include "ParticleSse.h"
#include "RagdollState.h"
#include "StickLanes.h"
#include "marionette/runtime/World.h"

#include <algorithm>
#include <cmath>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#define MARIONETTE_STICKS_SSE 1
#endif

namespace marionette::runtime {

Ragdoll* Solver::create(std::shared_ptr<const Rig> rig, const Transform& placement, float dt,
                        std::uint32_t contactCapacity)
{
    return new Ragdoll(std::move(rig), placement, dt, contactCapacity);
}

void Solver::reserveContacts(Ragdoll& r, std::uint32_t capacity)
{
    RagdollState& s = *r.mState;
    if (s.contacts.size() < capacity)
        s.contacts.resize(capacity);
    if (r.rig().projection() && s.projection.contacts.size() < capacity)
        s.projection.contacts.resize(capacity);
}

void Solver::integrate(Ragdoll& r, Vec3 gravity, float h)
{
    RagdollState& s = *r.mState;
    const std::size_t n = s.w.size();
    // Damping as a rate per second: the velocity keeps e^(−damping·h) over a substep. The ratio carries the
    // velocity (x − x*)/h_prev over to a substep of another length.
    const float keep = std::exp(-r.rig().settings().damping * h) * (h / s.dt);
    const Vec3 a = gravity * (h * h);
    Vec3* x = s.x;
    Vec3* xp = s.xPrev;
    const float* w = s.w.data();
    std::size_t i = 0;
#if MARIONETTE_PARTICLE_SSE
    // Four particles (twelve floats, three registers) at a time, each float as the loop below computes it, in
    // the same order (no fused multiply-add): the same bits.
    {
        float* const X = &x[0].x;
        float* const XP = &xp[0].x;
        const __m128 k = _mm_set1_ps(keep), zero = _mm_setzero_ps(), one = _mm_set1_ps(1.f);
        const __m128 a0 = _mm_setr_ps(a.x, a.y, a.z, a.x), a1 = _mm_setr_ps(a.y, a.z, a.x, a.y),
                     a2 = _mm_setr_ps(a.z, a.x, a.y, a.z);
        for (; i + 4 <= n; i += 4) {
            const __m128 m = _mm_and_ps(_mm_cmpgt_ps(_mm_loadu_ps(w + i), zero), one); // 1 or 0 per particle
            __m128 m0, m1, m2;
            sse::spreadOverCoordinates(m, m0, m1, m2);
            float* const p = X + 3 * i;
            float* const q = XP + 3 * i;
            const __m128 x0 = _mm_loadu_ps(p), x1 = _mm_loadu_ps(p + 4), x2 = _mm_loadu_ps(p + 8);
            auto next = [k](__m128 xv, __m128 prev, __m128 av, __m128 mv) {
                return _mm_add_ps(xv, _mm_mul_ps(_mm_add_ps(_mm_mul_ps(_mm_sub_ps(xv, prev), k), av), mv));
            };
            _mm_storeu_ps(q, next(x0, _mm_loadu_ps(q), a0, m0));
            _mm_storeu_ps(q + 4, next(x1, _mm_loadu_ps(q + 4), a1, m1));
            _mm_storeu_ps(q + 8, next(x2, _mm_loadu_ps(q + 8), a2, m2));
        }
    }
#endif
    for (; i < n; ++i) {
        const float m = w[i] > 0.f ? 1.f : 0.f;
        const Vec3 xi = x[i];
        xp[i] = xi + ((xi - xp[i]) * keep + a) * m; // x' = x + k'(x − x*) + a·h², written over x*
    }
    std::swap(s.x, s.xPrev); // x* ← x without copying
    s.dt = h;
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
    // A stick tears when stretched past tearRatio by one fixed step's motion; a substep carries 1/substeps of
    // that motion, so the stretch allowed per substep is that share of the tear margin.
    const float share = Tear ? std::min(1.f, s.dt / s.frameDt) : 1.f;
    for (std::size_t k = 0; k < count; ++k) {
        const std::size_t i = reverse ? count - 1 - k : k;
        const StickData& c = sticks[i];
        float tearAt = 0.f;
        if constexpr (Tear) {
            if (torn[i])
                continue;
            const float limit = std::isfinite(c.maxLength) ? c.maxLength : c.minLength;
            tearAt = limit + (c.tearLength - limit) * share;
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
                if (d2 > tearAt * tearAt) {
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
                if (L > tearAt) {
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

#if MARIONETTE_STICKS_SSE
/// Gauss–Seidel pass over N independent blocks of four sticks (4·N sticks on 8·N distinct particles) at
/// once: the same projection as stickPass, lane by lane. Two blocks are done together when they are
/// independent of each other too, so the CPU overlaps their square roots and divisions. Sqrt: Jakobsen's
/// one-Newton-step square root.
template <bool Sqrt, std::size_t N>
inline void stickBlocks4(const StickBlock* blk, Vec3* x, const float* w, float omega)
{
    // 8 + 4 byte loads and stores: the same widths as an earlier block's stores to a shared particle, so the
    // CPU forwards them instead of stalling (a 16-byte load over two stores cannot be forwarded).
    auto load = [](const Vec3& p) {
        const __m128 xy = _mm_loadl_pi(_mm_setzero_ps(), reinterpret_cast<const __m64*>(&p.x));
        return _mm_movelh_ps(xy, _mm_load_ss(&p.z));
    };
    auto store = [](Vec3& p, __m128 v) {
        _mm_storel_pi(reinterpret_cast<__m64*>(&p.x), v);
        _mm_store_ss(&p.z, _mm_movehl_ps(v, v));
    };
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.f), om = _mm_set1_ps(omega);
    __m128 ax[N], ay[N], az[N], a3[N], bx[N], by[N], bz[N], b3[N], dx[N], dy[N], dz[N], wa[N], wb[N], scale[N];
    for (std::size_t k = 0; k < N; ++k) {
        const StickBlock& b = blk[k];
        ax[k] = load(x[b.a[0]]), ay[k] = load(x[b.a[1]]), az[k] = load(x[b.a[2]]), a3[k] = load(x[b.a[3]]);
        bx[k] = load(x[b.b[0]]), by[k] = load(x[b.b[1]]), bz[k] = load(x[b.b[2]]), b3[k] = load(x[b.b[3]]);
        wa[k] = _mm_setr_ps(w[b.a[0]], w[b.a[1]], w[b.a[2]], w[b.a[3]]);
        wb[k] = _mm_setr_ps(w[b.b[0]], w[b.b[1]], w[b.b[2]], w[b.b[3]]);
    }
    for (std::size_t k = 0; k < N; ++k) {
        _MM_TRANSPOSE4_PS(ax[k], ay[k], az[k], a3[k]);
        _MM_TRANSPOSE4_PS(bx[k], by[k], bz[k], b3[k]);
        const __m128 wsum = _mm_add_ps(wa[k], wb[k]);
        const __m128 movable = _mm_cmpgt_ps(wsum, zero);
        dx[k] = _mm_sub_ps(bx[k], ax[k]), dy[k] = _mm_sub_ps(by[k], ay[k]), dz[k] = _mm_sub_ps(bz[k], az[k]);
        const __m128 d2 =
            _mm_add_ps(_mm_add_ps(_mm_mul_ps(dx[k], dx[k]), _mm_mul_ps(dy[k], dy[k])), _mm_mul_ps(dz[k], dz[k]));
        const __m128 mn = _mm_load_ps(blk[k].minLength), mx = _mm_load_ps(blk[k].maxLength);
        if constexpr (Sqrt) {
            const __m128 below = _mm_cmplt_ps(d2, _mm_mul_ps(mn, mn));
            const __m128 above = _mm_cmpgt_ps(d2, _mm_mul_ps(mx, mx));
            const __m128 r = _mm_or_ps(_mm_and_ps(below, mn), _mm_andnot_ps(below, mx));
            const __m128 r2 = _mm_mul_ps(r, r);
            const __m128 denom = _mm_mul_ps(_mm_add_ps(d2, r2), wsum);
            const __m128 ok = _mm_and_ps(_mm_and_ps(_mm_or_ps(below, above), movable),
                                         _mm_cmpgt_ps(denom, _mm_set1_ps(1e-30f)));
            const __m128 safe = _mm_or_ps(_mm_and_ps(ok, denom), _mm_andnot_ps(ok, one));
            scale[k] = _mm_div_ps(_mm_mul_ps(_mm_load_ps(blk[k].stiffness), _mm_sub_ps(d2, r2)), safe);
            scale[k] = _mm_and_ps(ok, scale[k]);
        } else {
            const __m128 L = _mm_sqrt_ps(d2);
            const __m128 C = _mm_sub_ps(L, _mm_min_ps(_mm_max_ps(L, mn), mx));
            // Coinciding ends separate along +Y (as in stickPass).
            const __m128 apart = _mm_cmpgt_ps(L, _mm_set1_ps(1e-9f));
            dx[k] = _mm_and_ps(apart, dx[k]);
            dy[k] = _mm_or_ps(_mm_and_ps(apart, dy[k]), _mm_andnot_ps(apart, one));
            dz[k] = _mm_and_ps(apart, dz[k]);
            const __m128 len = _mm_or_ps(_mm_and_ps(apart, L), _mm_andnot_ps(apart, one));
            const __m128 safe = _mm_or_ps(_mm_and_ps(movable, wsum), _mm_andnot_ps(movable, one));
            scale[k] = _mm_div_ps(_mm_mul_ps(_mm_load_ps(blk[k].stiffness), C), _mm_mul_ps(len, safe));
            scale[k] = _mm_and_ps(movable, scale[k]);
        }
    }
    for (std::size_t k = 0; k < N; ++k) {
        const __m128 s = _mm_mul_ps(scale[k], om);
        const __m128 sa = _mm_mul_ps(wa[k], s), sb = _mm_mul_ps(wb[k], s);
        ax[k] = _mm_add_ps(ax[k], _mm_mul_ps(dx[k], sa));
        ay[k] = _mm_add_ps(ay[k], _mm_mul_ps(dy[k], sa));
        az[k] = _mm_add_ps(az[k], _mm_mul_ps(dz[k], sa));
        bx[k] = _mm_sub_ps(bx[k], _mm_mul_ps(dx[k], sb));
        by[k] = _mm_sub_ps(by[k], _mm_mul_ps(dy[k], sb));
        bz[k] = _mm_sub_ps(bz[k], _mm_mul_ps(dz[k], sb));
        _MM_TRANSPOSE4_PS(ax[k], ay[k], az[k], a3[k]);
        _MM_TRANSPOSE4_PS(bx[k], by[k], bz[k], b3[k]);
        const StickBlock& b = blk[k];
        store(x[b.a[0]], ax[k]), store(x[b.a[1]], ay[k]), store(x[b.a[2]], az[k]), store(x[b.a[3]], a3[k]);
        store(x[b.b[0]], bx[k]), store(x[b.b[1]], by[k]), store(x[b.b[2]], bz[k]), store(x[b.b[3]], b3[k]);
    }
}

/// Gauss–Seidel pass without tearing: independent blocks of four go through stickBlock4, the rest (blocks
/// that share a particle, the tail) through stickPass in the same order.
template <bool Sqrt>
void blockedPass(const Rig& rig, RagdollState& s, float omega, bool reverse)
{
    const auto sticks = rig.sticks();
    const auto blocks = rig.stickBlocks();
    const std::size_t nb = blocks.size();
    const std::size_t tail = nb * 4;
    auto scalar = [&](std::size_t first, std::size_t count) {
        stickPass<StickMode::GaussSeidel, Sqrt, false>(sticks.data() + first, count, s, omega, reverse, 0.f);
    };
    if (reverse && tail < sticks.size())
        scalar(tail, sticks.size() - tail);
    const float* w = s.w.data();
    auto run = [&](std::size_t i) {
        if (blocks[i].independent)
            stickBlocks4<Sqrt, 1>(&blocks[i], s.x, w, omega);
        else
            scalar(4 * i, 4);
    };
    if (!reverse) {
        for (std::size_t i = 0; i < nb;) {
            if ((i & 1u) == 0 && i + 1 < nb && blocks[i].pairedWithNext) {
                stickBlocks4<Sqrt, 2>(&blocks[i], s.x, w, omega);
                i += 2;
            } else {
                run(i++);
            }
        }
    } else {
        for (std::size_t i = nb; i > 0;) {
            if (i >= 2 && ((i - 2) & 1u) == 0 && blocks[i - 2].pairedWithNext) {
                stickBlocks4<Sqrt, 2>(&blocks[i - 2], s.x, w, omega);
                i -= 2;
            } else {
                run(--i);
            }
        }
    }
    if (!reverse && tail < sticks.size())
        scalar(tail, sticks.size() - tail);
}
#endif

template <StickMode Mode>
void stickPassDispatch(const Rig& rig, RagdollState& s, float omega, bool reverse, float invDt2)
{
    const auto sticks = rig.sticks();
    const bool sq = rig.settings().sqrtApproximation;
    const bool tear = rig.hasTearableSticks();
    if constexpr (Mode == StickMode::GaussSeidel) {
        const InstructionSet set = tear ? InstructionSet::Scalar : activeInstructionSet();
        if (set == InstructionSet::Avx2 && !rig.stickLanes().empty()) {
            lanePasses(rig, s, omega, reverse, 1);
            return;
        }
#if MARIONETTE_STICKS_SSE
        // The 4-wide blocks gather and scatter particles stored one after another, which costs a cloth in
        // sets of eight more than it saves (253 µs a step of the 64 × 64 at 4 iterations against 205 µs one
        // stick at a time): rigs with lanes take the sticks one by one when AVX2 is not there.
        if (set >= InstructionSet::Sse2 && rig.stickLanes().empty()) {
            if (sq)
                blockedPass<true>(rig, s, omega, reverse);
            else
                blockedPass<false>(rig, s, omega, reverse);
            return;
        }
#endif
    }
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
    case rig::SolverMode::Direct: // a rig too large for the direct solve relaxes by Gauss–Seidel
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

void Solver::solvePins(Ragdoll& r, std::uint32_t iterations)
{
    RagdollState& s = *r.mState;
    // A soft pin closes `stiffness` of the distance per 1/60 s: each of this substep's iterations takes
    // its share of that.
    const float share = 60.f * s.dt / float(std::max(1u, iterations));
    for (const PinState& p : s.pins) {
        if (p.kinematic)
            s.x[p.particle] = p.target;
        else if (s.w[p.particle] > 0.f)
            s.x[p.particle] += (p.target - s.x[p.particle]) * (1.f - std::pow(1.f - p.stiffness, share));
    }
}

void Solver::beginIterations(Ragdoll& r)
{
    RagdollState& s = *r.mState;
    if (r.rig().settings().solver == rig::SolverMode::Xpbd) // the only mode with multipliers per stick
        std::fill(s.lambda.begin(), s.lambda.end(), 0.f);
    for (std::uint32_t k = 0; k < s.contactCount; ++k) {
        s.contacts[k].depth = 0.f;
        s.contacts[k].tKnown = false;
        s.contacts[k].held = 0.f;
        s.contacts[k].heldKnown = false;
    }
    std::fill(s.selfDepth.begin(), s.selfDepth.begin() + s.selfPairCount, 0.f);
    if (r.rig().projection()) {
        std::fill(s.projection.coreLambdaSum.begin(), s.projection.coreLambdaSum.end(), 0.0);
        std::fill(s.projection.extraLambdaSum.begin(), s.projection.extraLambdaSum.end(), 0.0);
    }
    // Relaxation modes: angular friction acts once per substep, before the limits, toward last substep's
    // relative orientation (at one substep, exactly the per-step friction of rigs from before substeps).
    // The direct projection would undo part of such a position correction; it damps velocities instead
    // (jointFriction, at the end of the substep).
    if (!r.rig().projection())
        solveAngular(r, true);
}

void Solver::endSubstep(Ragdoll& r)
{
    RagdollState& s = *r.mState;
    if (r.rig().projection()) {
        // A soft pin is a spring to its target; in the direct mode, where nothing else damps it, it also has
        // a dashpot to the world at four times its rate (past critical: the body behind the particle adds
        // mass the spring does not see), so a dragged body settles on the target instead of swinging about it.
        for (const PinState& p : s.pins)
            if (!p.kinematic && s.w[p.particle] > 0.f && p.stiffness < 1.f) {
                const float rate = -std::log1p(-p.stiffness) * 60.f;
                const float keep = std::exp(-4.f * rate * s.dt);
                s.xPrev[p.particle] = s.x[p.particle] - (s.x[p.particle] - s.xPrev[p.particle]) * keep;
            }
    }
    sanitize(r);
    refreshTriangleFrames(r);
    if (r.rig().projection()) {
        jointFriction(r);
        // A particle static friction held on its surface in the last solve ends the substep at rest on it:
        // whatever velocity it still carries is an artefact of the corrections that put it back.
        for (std::size_t p = 0; p < s.w.size(); ++p)
            if (s.projection.lockCount[p] == 3)
                s.xPrev[p] = s.x[p];
    }
    bendDamping(r);
    recordRelativeOrientations(r);
}

bool Solver::iterate(Ragdoll& r, const StaticWorld& world, std::uint32_t iteration, bool checkConvergence)
{
    const std::uint32_t iterations = r.rig().settings().iterations;
    if (r.rig().projection()) {
        // Direct mode: the Gauss–Seidel passes of what the projection leaves out (soft pins, friction, and the
        // push of touching capsule pairs and particles out of each other and the surfaces), then the
        // projection, which holds them apart.
        solvePins(r, iterations);
        solveSelfCollision(r);
        solveStaticContacts(r, world);
        return project(r, world) && checkConvergence && projectionConverged(r);
    }
    const bool reverse = (iteration & 1u) != 0;
    solveSticks(r, reverse);
    solveAngles(r);
    solveAngular(r, false);
    solvePins(r, iterations);
    solveSelfCollision(r);
    solveStaticContacts(r, world);
    return false;
}

bool Solver::relaxSticksOnly(Ragdoll& r, std::uint32_t iterations)
{
    const RagdollState& s = *r.mState;
    const Rig& rig = r.rig();
    if (rig.projection() || rig.stickLanes().empty() || rig.hasTearableSticks() ||
        rig.settings().solver != rig::SolverMode::GaussSeidel || activeInstructionSet() != InstructionSet::Avx2)
        return false;
    if (!rig.angles().empty() || !rig.angular().empty() || !s.pins.empty() || s.selfPairCount != 0 ||
        s.contactCount != 0)
        return false;
    lanePasses(rig, *r.mState, rig.settings().overRelaxation, false, iterations);
    return true;
}

bool Solver::projectionConverged(Ragdoll& r)
{
    // Converged when no stick is off its length limits by more than 0.01 % and no angular limit is broken
    // by more than 0.1°.
    if (sticksOff(r, 1e-4f))
        return false;
    const auto cons = r.rig().angular();
    if (cons.empty())
        return true;
    refreshTriangleFrames(r);
    for (std::uint32_t i = 0; i < cons.size(); ++i) {
        Vec3 u;
        float rhs;
        if (limitRow(r, i, 0.f, u, rhs) && rhs > 1.75e-3f)
            return false;
    }
    return true;
}

void Solver::sanitize(Ragdoll& r)
{
    RagdollState& s = *r.mState;
    const auto bind = r.rig().bindPositions();
    const std::size_t n = s.w.size();
    // Within 1e7 m on every axis (a NaN or an infinity is not): a pass without branches finds whether any
    // particle is not, and only then does the one that puts them back run.
    auto sane = [](Vec3 p) { return (std::fabs(p.x) < 1e7f) & (std::fabs(p.y) < 1e7f) & (std::fabs(p.z) < 1e7f); };
    bool all = true;
    std::size_t i = 0;
#if MARIONETTE_PARTICLE_SSE
    {
        // The 3n coordinates four at a time.
        const float* const X = &s.x[0].x;
        const __m128 magnitude = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff)), bound = _mm_set1_ps(1e7f);
        __m128 ok = _mm_castsi128_ps(_mm_set1_epi32(-1));
        for (; i + 4 <= n; i += 4)
            for (int q = 0; q < 3; ++q)
                ok = _mm_and_ps(ok, _mm_cmplt_ps(_mm_and_ps(_mm_loadu_ps(X + 3 * i + 4 * q), magnitude), bound));
        all = _mm_movemask_ps(ok) == 0xf;
    }
#endif
    for (; i < n; ++i)
        all &= sane(s.x[i]);
    if (all)
        return;
    for (i = 0; i < n; ++i) {
        if (sane(s.x[i]))
            continue;
        // Fall back to where the particle was at the start of the step, at rest.
        const bool prevOk = isFinite(s.xPrev[i]);
        s.x[i] = prevOk ? s.xPrev[i] : bind[i];
        s.xPrev[i] = s.x[i];
    }
}

namespace {

/// How far compiled stick i is outside its length limits now (metres, 0 for a torn stick), and the limit
/// it is measured against.
float stickOverrun(const RagdollState& s, const StickData& c, std::size_t i, float& bound)
{
    if (!s.torn.empty() && s.torn[i])
        return bound = 0.f;
    const float L = length(s.x[c.b] - s.x[c.a]);
    bound = std::clamp(L, c.minLength, c.maxLength);
    return std::fabs(L - bound);
}

} // namespace

float Solver::maxStickError(const Ragdoll& r)
{
    const RagdollState& s = *r.mState;
    const auto sticks = r.rig().sticks();
    float worst = 0.f, bound;
    for (std::size_t i = 0; i < sticks.size(); ++i)
        worst = std::max(worst, stickOverrun(s, sticks[i], i, bound));
    return worst;
}

bool Solver::sticksOff(const Ragdoll& r, float tolerance)
{
    const RagdollState& s = *r.mState;
    const auto sticks = r.rig().sticks();
    float bound;
    for (std::size_t i = 0; i < sticks.size(); ++i)
        if (stickOverrun(s, sticks[i], i, bound) > tolerance * bound)
            return true;
    return false;
}

bool Solver::stretched(const Ragdoll& r) { return r.rig().projection() && sticksOff(r, kStretched); }

bool Solver::readyToSleep(const Ragdoll& r)
{
    const RagdollState& s = *r.mState;
    const float sleepTime = r.rig().settings().sleepTime;
    return sleepTime > 0.f && s.stillTime >= sleepTime;
}

void Solver::putToSleep(Ragdoll& r)
{
    RagdollState& s = *r.mState;
    s.asleep = true;
    for (std::size_t i = 0; i < s.w.size(); ++i)
        s.xPrev[i] = s.x[i];
}

void Solver::finishStep(Ragdoll& r, bool sleepAllowed, float dt)
{
    RagdollState& s = *r.mState;
    const Rig& rig = r.rig();
    endDrives(r);
    // Sleep: the fastest particle's speed over the step, smoothed over about 75 ms so contact jitter of a
    // resting body does not keep it awake, stays below the threshold for sleepTime seconds.
    const rig::Settings& st = rig.settings();
    if (sleepAllowed && st.sleepTime > 0.f) {
        float maxMove2 = 0.f;
        for (std::size_t i = 0; i < s.w.size(); ++i)
            maxMove2 = std::max(maxMove2, lengthSquared(s.x[i] - s.xFrame[i]));
        const float speed = std::sqrt(maxMove2) / dt;
        s.motion += (speed - s.motion) * (1.f - std::exp(-dt / 0.0747f));
        s.stillTime = s.motion < st.sleepVelocity ? s.stillTime + dt : 0.f;
    } else {
        s.stillTime = 0.f;
    }
    updateBones(r); // frames are fresh from the last substep
}

} // namespace marionette::runtime
