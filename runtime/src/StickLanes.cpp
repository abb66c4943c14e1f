// The 8-wide Gauss–Seidel stick pass (StickLanes.h): the positions are split into x, y and z arrays for the
// pass; each run of eight independent sticks (Rig::stickLanes()) is loaded whole when its ends are runs of
// consecutive particles or pairs of neighbours, gathered otherwise, solved in one AVX2 register per
// coordinate and stored back; the sticks between the runs are solved one by one on the same arrays, in the
// compiled order, as Solver.cpp's one-at-a-time pass solves them (to the bit).
#include "StickLanes.h"

#include "InstructionSet.h"
#include "RagdollState.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#if MARIONETTE_AVX2_KERNELS
#include <immintrin.h>
#endif

namespace marionette::runtime {

namespace {

/// Floats from one coordinate's array to the next: the particles rounded up to a multiple of eight.
std::size_t laneStride(std::size_t particles)
{
    return (particles + 7) & ~std::size_t(7);
}

} // namespace

std::size_t laneScratchSize(std::size_t particles)
{
    return 3 * laneStride(particles) + 8;
}

#if MARIONETTE_AVX2_KERNELS

namespace {

#define MR_AVX2 __attribute__((target("avx2,fma")))

/// One stick as Solver.cpp's stickPass solves it (Gauss–Seidel, no tearing), on the separate arrays.
template <bool Sqrt>
MR_AVX2 inline void stickOne(const StickData& c, float* X, float* Y, float* Z, const float* w, float omega)
{
    const float wa = w[c.a], wb = w[c.b];
    const float wsum = wa + wb;
    if (wsum <= 0.f)
        return;
    float dx = X[c.b] - X[c.a], dy = Y[c.b] - Y[c.a], dz = Z[c.b] - Z[c.a];
    const float d2 = dx * dx + dy * dy + dz * dz;
    float scale;
    if constexpr (Sqrt) {
        float r;
        if (d2 < c.minLength * c.minLength)
            r = c.minLength;
        else if (d2 > c.maxLength * c.maxLength)
            r = c.maxLength;
        else
            return;
        const float r2 = r * r;
        const float denom = (d2 + r2) * wsum;
        if (!(denom > 1e-30f))
            return;
        scale = c.stiffness * (d2 - r2) / denom;
    } else {
        const float L = std::sqrt(d2);
        const float target = std::clamp(L, c.minLength, c.maxLength);
        if (L == target)
            return;
        float invL;
        if (L > 1e-9f) {
            invL = 1.f / L;
        } else { // coinciding ends: separate them along +Y
            dx = 0.f, dy = 1.f, dz = 0.f;
            invL = 1.f;
        }
        scale = c.stiffness * (L - target) * invL / wsum;
    }
    scale *= omega;
    const float sa = wa * scale, sb = wb * scale;
    X[c.a] += dx * sa, Y[c.a] += dy * sa, Z[c.a] += dz * sa;
    X[c.b] -= dx * sb, Y[c.b] -= dy * sb, Z[c.b] -= dz * sb;
}

/// Eight independent sticks at once: the same correction as stickOne, lane by lane.
template <bool Sqrt>
MR_AVX2 inline void stickEight(const StickLanes& l, float* X, float* Y, float* Z, const float* w, __m256 omega)
{
    using Layout = StickLanes::Layout;
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.f);
    __m256 xa, ya, za, xb, yb, zb, wa, wb;
    // Paired: sixteen consecutive particles a0 b0 a1 b1 ...; split into the a and the b lanes.
    auto split = [](const float* p, __m256& a, __m256& b) MR_AVX2 {
        const __m256 v0 = _mm256_loadu_ps(p), v1 = _mm256_loadu_ps(p + 8);
        const __m256 lo = _mm256_permute2f128_ps(v0, v1, 0x20), hi = _mm256_permute2f128_ps(v0, v1, 0x31);
        a = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
        b = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1));
    };
    if (l.layout == Layout::Consecutive) {
        const std::uint32_t a = l.a[0], b = l.b[0];
        xa = _mm256_loadu_ps(X + a), ya = _mm256_loadu_ps(Y + a), za = _mm256_loadu_ps(Z + a);
        xb = _mm256_loadu_ps(X + b), yb = _mm256_loadu_ps(Y + b), zb = _mm256_loadu_ps(Z + b);
        wa = _mm256_loadu_ps(w + a), wb = _mm256_loadu_ps(w + b);
    } else if (l.layout == Layout::Paired) {
        const std::uint32_t a = l.a[0];
        split(X + a, xa, xb), split(Y + a, ya, yb), split(Z + a, za, zb), split(w + a, wa, wb);
    } else {
        const __m256i ia = _mm256_load_si256(reinterpret_cast<const __m256i*>(l.a));
        const __m256i ib = _mm256_load_si256(reinterpret_cast<const __m256i*>(l.b));
        xa = _mm256_i32gather_ps(X, ia, 4), ya = _mm256_i32gather_ps(Y, ia, 4), za = _mm256_i32gather_ps(Z, ia, 4);
        xb = _mm256_i32gather_ps(X, ib, 4), yb = _mm256_i32gather_ps(Y, ib, 4), zb = _mm256_i32gather_ps(Z, ib, 4);
        wa = _mm256_i32gather_ps(w, ia, 4), wb = _mm256_i32gather_ps(w, ib, 4);
    }
    const __m256 wsum = _mm256_add_ps(wa, wb);
    const __m256 movable = _mm256_cmp_ps(wsum, zero, _CMP_GT_OQ);
    __m256 dx = _mm256_sub_ps(xb, xa), dy = _mm256_sub_ps(yb, ya), dz = _mm256_sub_ps(zb, za);
    const __m256 d2 = _mm256_fmadd_ps(dz, dz, _mm256_fmadd_ps(dy, dy, _mm256_mul_ps(dx, dx)));
    const __m256 mn = _mm256_load_ps(l.minLength), mx = _mm256_load_ps(l.maxLength);
    const __m256 stiffness = _mm256_load_ps(l.stiffness);
    __m256 scale;
    if constexpr (Sqrt) {
        const __m256 below = _mm256_cmp_ps(d2, _mm256_mul_ps(mn, mn), _CMP_LT_OQ);
        const __m256 above = _mm256_cmp_ps(d2, _mm256_mul_ps(mx, mx), _CMP_GT_OQ);
        const __m256 r = _mm256_blendv_ps(mx, mn, below);
        const __m256 r2 = _mm256_mul_ps(r, r);
        const __m256 denom = _mm256_mul_ps(_mm256_add_ps(d2, r2), wsum);
        const __m256 ok = _mm256_and_ps(_mm256_and_ps(_mm256_or_ps(below, above), movable),
                                        _mm256_cmp_ps(denom, _mm256_set1_ps(1e-30f), _CMP_GT_OQ));
        scale = _mm256_div_ps(_mm256_mul_ps(stiffness, _mm256_sub_ps(d2, r2)), _mm256_blendv_ps(one, denom, ok));
        scale = _mm256_and_ps(ok, scale);
    } else {
        const __m256 L = _mm256_sqrt_ps(d2);
        const __m256 C = _mm256_sub_ps(L, _mm256_min_ps(_mm256_max_ps(L, mn), mx));
        const __m256 apart = _mm256_cmp_ps(L, _mm256_set1_ps(1e-9f), _CMP_GT_OQ);
        dx = _mm256_and_ps(apart, dx);
        dy = _mm256_blendv_ps(one, dy, apart);
        dz = _mm256_and_ps(apart, dz);
        const __m256 len = _mm256_blendv_ps(one, L, apart);
        const __m256 safe = _mm256_blendv_ps(one, wsum, movable);
        scale = _mm256_div_ps(_mm256_mul_ps(stiffness, C), _mm256_mul_ps(len, safe));
        scale = _mm256_and_ps(movable, scale);
    }
    const __m256 s = _mm256_mul_ps(scale, omega);
    const __m256 sa = _mm256_mul_ps(wa, s), sb = _mm256_mul_ps(wb, s);
    xa = _mm256_fmadd_ps(dx, sa, xa), ya = _mm256_fmadd_ps(dy, sa, ya), za = _mm256_fmadd_ps(dz, sa, za);
    xb = _mm256_fnmadd_ps(dx, sb, xb), yb = _mm256_fnmadd_ps(dy, sb, yb), zb = _mm256_fnmadd_ps(dz, sb, zb);
    if (l.layout == Layout::Consecutive) {
        const std::uint32_t a = l.a[0], b = l.b[0];
        _mm256_storeu_ps(X + a, xa), _mm256_storeu_ps(Y + a, ya), _mm256_storeu_ps(Z + a, za);
        _mm256_storeu_ps(X + b, xb), _mm256_storeu_ps(Y + b, yb), _mm256_storeu_ps(Z + b, zb);
        return;
    }
    if (l.layout == Layout::Paired) {
        auto merge = [](float* p, __m256 a, __m256 b) MR_AVX2 {
            const __m256 lo = _mm256_unpacklo_ps(a, b), hi = _mm256_unpackhi_ps(a, b);
            _mm256_storeu_ps(p, _mm256_permute2f128_ps(lo, hi, 0x20));
            _mm256_storeu_ps(p + 8, _mm256_permute2f128_ps(lo, hi, 0x31));
        };
        merge(X + l.a[0], xa, xb), merge(Y + l.a[0], ya, yb), merge(Z + l.a[0], za, zb);
        return;
    }
    alignas(32) float out[6][8];
    _mm256_store_ps(out[0], xa), _mm256_store_ps(out[1], ya), _mm256_store_ps(out[2], za);
    _mm256_store_ps(out[3], xb), _mm256_store_ps(out[4], yb), _mm256_store_ps(out[5], zb);
    for (int k = 0; k < 8; ++k) {
        X[l.a[k]] = out[0][k], Y[l.a[k]] = out[1][k], Z[l.a[k]] = out[2][k];
        X[l.b[k]] = out[3][k], Y[l.b[k]] = out[4][k], Z[l.b[k]] = out[5][k];
    }
}

float* alignedLanes(float* p)
{
    return reinterpret_cast<float*>((reinterpret_cast<std::uintptr_t>(p) + 31) & ~std::uintptr_t(31));
}

/// Passes [0, passes) of an iteration sequence (pass k runs reversed when k is odd, from `firstReversed`),
/// with the positions in the lane arrays from the first to the last.
template <bool Sqrt>
MR_AVX2 void passes(const Rig& rig, RagdollState& s, float omega, bool firstReversed, std::uint32_t count)
{
    const std::size_t n = s.w.size();
    // x, y and z each from a 32-byte boundary, so a run of eight particles from a multiple of eight is one
    // aligned load (laneScratchSize()).
    const std::size_t stride = laneStride(n);
    float* const X = alignedLanes(s.laneX.data());
    float* const Y = X + stride;
    float* const Z = Y + stride;
    const Vec3* const x = s.x;
    for (std::size_t i = 0; i < n; ++i)
        X[i] = x[i].x, Y[i] = x[i].y, Z[i] = x[i].z;
    const float* const w = s.w.data();
    const auto sticks = rig.sticks();
    const auto lanes = rig.stickLanes();
    const std::size_t m = sticks.size(), nl = lanes.size();
    const __m256 om = _mm256_set1_ps(omega);
    for (std::uint32_t pass = 0; pass < count; ++pass) {
        const bool reverse = firstReversed != ((pass & 1u) != 0);
        if (!reverse) {
            std::size_t at = 0;
            for (std::size_t k = 0; k <= nl; ++k) {
                const std::size_t until = k < nl ? lanes[k].first : m;
                for (; at < until; ++at)
                    stickOne<Sqrt>(sticks[at], X, Y, Z, w, omega);
                if (k < nl) {
                    stickEight<Sqrt>(lanes[k], X, Y, Z, w, om);
                    at += 8;
                }
            }
        } else {
            std::size_t at = m; // sticks [0, at) remain
            for (std::size_t k = nl;; --k) {
                const std::size_t until = k > 0 ? lanes[k - 1].first + 8 : 0;
                for (; at > until; --at)
                    stickOne<Sqrt>(sticks[at - 1], X, Y, Z, w, omega);
                if (k == 0)
                    break;
                stickEight<Sqrt>(lanes[k - 1], X, Y, Z, w, om);
                at = lanes[k - 1].first;
            }
        }
    }
    Vec3* const out = s.x;
    for (std::size_t i = 0; i < n; ++i)
        out[i] = {X[i], Y[i], Z[i]};
}

#undef MR_AVX2

} // namespace

void lanePasses(const Rig& rig, RagdollState& s, float omega, bool firstReversed, std::uint32_t count)
{
    if (rig.settings().sqrtApproximation)
        passes<true>(rig, s, omega, firstReversed, count);
    else
        passes<false>(rig, s, omega, firstReversed, count);
}

#else

void lanePasses(const Rig&, RagdollState&, float, bool, std::uint32_t) {}

#endif

} // namespace marionette::runtime
