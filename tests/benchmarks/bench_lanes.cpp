// Lanes of ragdolls, measured where they can gain the most (docs/benchmarks.md, "Lanes of ragdolls,
// measured"): one Newton pass over a rig's rigid sticks, the core of the direct projection (Projection.h):
// each stick's row, J W Jᵀ assembled in the factor's layout, the up-looking LDLᵀ along the schedule
// SparseLdl::analyse() fixed for the rig, the forward and backward solves, and the corrections applied. It
// runs for one body (scalar float, scalar double) and for 8 bodies (float) or 4 (double) of the same rig at
// once, one per AVX2 lane, on flat arrays laid out before the loop: no lookups but the schedule's. There are
// no contacts, limits or contact locks, so every lane takes the same path: the best case for lanes.
//
// BM_LaneOccupancy measures the other half of the question: how much of a lane's time would be spent
// waiting. Lanes advance in lock-step, so a group of bodies takes as many solves as its busiest member. It
// runs `marionette bench`'s piles (160 mannequins, 16 piles, sleep off) and reports, per group size, the share
// of lane slots doing work, from each body's solves per step (RagdollStats). Per step, not per substep or
// Newton step as lock-step would be: the figure is an upper bound.
//
// The program first checks the kernels (and each BM_CorePass its own): every lane ends where the scalar kernel
// of its precision puts that body, and three passes bring every stick of every lane within 0.01 % of its
// length. A failed check is the program's exit code.
//
// Built with AVX2 and FMA (the whole file); main() refuses to run on a processor without them.
#include "Projection.h"
#include "SparseLdl.h"
#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <benchmark/benchmark.h>
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace marionette;
using namespace marionette::runtime;

namespace {

using F8 = float __attribute__((vector_size(32)));
using D4 = double __attribute__((vector_size(32)));

/// One number, or one per lane: the operations the kernel needs beyond + − × ÷.
template <class V>
struct Lanes { // one body: float or double
    using Scalar = V;
    static constexpr int kWidth = 1;
    static V sqrt(V v) { return std::sqrt(v); }
    static V abs(V v) { return std::fabs(v); }
    static V select(bool c, V a, V b) { return c ? a : b; }
};
template <>
struct Lanes<F8> {
    using Scalar = float;
    static constexpr int kWidth = 8;
    static F8 sqrt(F8 v) { return F8(_mm256_sqrt_ps(__m256(v))); }
    static F8 abs(F8 v) { return F8(_mm256_andnot_ps(_mm256_set1_ps(-0.f), __m256(v))); }
    template <class Mask>
    static F8 select(Mask c, F8 a, F8 b) { return c ? a : b; }
};
template <>
struct Lanes<D4> {
    using Scalar = double;
    static constexpr int kWidth = 4;
    static D4 sqrt(D4 v) { return D4(_mm256_sqrt_pd(__m256d(v))); }
    static D4 abs(D4 v) { return D4(_mm256_andnot_pd(_mm256_set1_pd(-0.), __m256d(v))); }
    template <class Mask>
    static D4 select(Mask c, D4 a, D4 b) { return c ? a : b; }
};

template <class V>
V splat(double v)
{
    return V{} + typename Lanes<V>::Scalar(v);
}

/// A rig's rigid sticks as the kernel reads them: rows in the caller's numbering (the projection's core),
/// their couplings with the shared particles and the sign of each row's gradient there, and where each
/// value goes in the factor's layout.
struct CoreLayout {
    std::uint32_t rows = 0, particles = 0;
    std::vector<std::uint32_t> a, b;   ///< the row's particles: gradient −u at a, +u at b
    std::vector<float> rest, compliance; ///< length, and compliance / h² at 8 substeps of 60 Hz
    std::vector<std::uint32_t> diagonalSlot;
    struct Coupling {
        std::uint32_t slot, i, j, shared;
        std::uint32_t p[2];
        float sign[2];
    };
    std::vector<Coupling> couplings;
    std::vector<std::uint32_t> perm, ap, ai, lp, li, rowBegin, rowColumn, rowFirst, rowSlot;
    std::vector<float> w;   ///< inverse masses
    std::vector<Vec3> bind; ///< bind pose

    bool build(const Rig& rig)
    {
        const ProjectionStructure* ps = rig.projection();
        if (!ps)
            return false;
        const auto sticks = rig.sticks();
        const float h = rig.settings().timeStep / float(rig.settings().substeps);
        rows = std::uint32_t(ps->core.size());
        particles = std::uint32_t(rig.particleCount());
        for (const ProjectionRow& r : ps->core) {
            a.push_back(r.p[0]);
            b.push_back(r.p[1]);
            rest.push_back(sticks[r.index].minLength);
            compliance.push_back(sticks[r.index].compliance / (h * h));
        }
        diagonalSlot = ps->diagonalSlot;
        for (const runtime::Coupling& c : ps->couplings) {
            Coupling o{c.slot, c.i, c.j, c.shared, {0, 0}, {0.f, 0.f}};
            for (std::uint32_t s = 0; s < c.shared; ++s) {
                const std::uint32_t qi = c.gI[s] & 1u, qj = c.wgJ[s] & 1u; // which end of row i and of row j
                o.p[s] = ps->core[c.i].p[qi];
                o.sign[s] = (qi ? 1.f : -1.f) * (qj ? 1.f : -1.f);
            }
            couplings.push_back(o);
        }
        const SparseLdl::Schedule s = ps->ldl.schedule();
        auto copy = [](std::span<const std::uint32_t> from) { return std::vector<std::uint32_t>(from.begin(), from.end()); };
        perm = copy(s.perm), ap = copy(s.ap), ai = copy(s.ai), lp = copy(s.lp), li = copy(s.li);
        rowBegin = copy(s.rowBegin), rowColumn = copy(s.rowColumn), rowFirst = copy(s.rowFirst), rowSlot = copy(s.rowSlot);
        w.assign(rig.inverseMasses().begin(), rig.inverseMasses().end());
        bind.assign(rig.bindPositions().begin(), rig.bindPositions().end());
        return true;
    }
};

/// One Newton pass of the core for Lanes<V>::kWidth bodies at once.
template <class V>
struct CorePass {
    using Ops = Lanes<V>;
    using Scalar = typename Ops::Scalar;
    const CoreLayout& c;
    std::vector<V> x, y, z, w;                     // per particle
    std::vector<V> ux, uy, uz, rhs;                // per row: unit vector b − a, length error
    std::vector<V> ax, lx, d, col, lambda, fx, fy, fz; // factor layout, L, D, work column, multipliers, forces

    explicit CorePass(const CoreLayout& layout)
        : c(layout), x(c.particles), y(c.particles), z(c.particles), w(c.particles), ux(c.rows), uy(c.rows),
          uz(c.rows), rhs(c.rows), ax(c.ai.size()), lx(c.li.size()), d(c.rows), col(c.rows), lambda(c.rows),
          fx(c.particles), fy(c.particles), fz(c.particles)
    {
    }

    Scalar& at(std::vector<V>& v, std::size_t i, int lane) { return reinterpret_cast<Scalar*>(&v[i])[lane]; }

    /// Lane `lane` holds the bind pose moved by `noise` (metres, normal per coordinate).
    void place(int lane, std::mt19937& rng, float noise)
    {
        std::normal_distribution<float> n(0.f, noise);
        for (std::uint32_t p = 0; p < c.particles; ++p) {
            at(x, p, lane) = c.bind[p].x + n(rng);
            at(y, p, lane) = c.bind[p].y + n(rng);
            at(z, p, lane) = c.bind[p].z + n(rng);
            at(w, p, lane) = c.w[p];
        }
    }

    /// Worst relative stick error of one lane.
    double stickError(int lane)
    {
        double worst = 0.0;
        for (std::uint32_t i = 0; i < c.rows; ++i) {
            const double dx = at(x, c.b[i], lane) - at(x, c.a[i], lane), dy = at(y, c.b[i], lane) - at(y, c.a[i], lane),
                         dz = at(z, c.b[i], lane) - at(z, c.a[i], lane);
            worst = std::max(worst, std::fabs(std::sqrt(dx * dx + dy * dy + dz * dz) - c.rest[i]) / c.rest[i]);
        }
        return worst;
    }

    void pass()
    {
        const std::uint32_t m = c.rows;
        // Rows: C = rest − L along u, and the diagonal of J W Jᵀ (w_a + w_b, as Solver::project regularises it).
        for (std::uint32_t i = 0; i < m; ++i) {
            const std::uint32_t pa = c.a[i], pb = c.b[i];
            const V dx = x[pb] - x[pa], dy = y[pb] - y[pa], dz = z[pb] - z[pa];
            const V L = Ops::sqrt(dx * dx + dy * dy + dz * dz);
            const V inv = splat<V>(1.0) / L;
            ux[i] = dx * inv, uy[i] = dy * inv, uz[i] = dz * inv;
            rhs[i] = splat<V>(c.rest[i]) - L;
            const V wsum = w[pa] + w[pb];
            ax[c.diagonalSlot[i]] = wsum + splat<V>(c.compliance[i]) + splat<V>(1e-12) + wsum * splat<V>(1e-7);
        }
        for (const CoreLayout::Coupling& k : c.couplings) {
            const V cosine = ux[k.i] * ux[k.j] + uy[k.i] * uy[k.j] + uz[k.i] * uz[k.j];
            V weight = w[k.p[0]] * splat<V>(k.sign[0]);
            if (k.shared > 1)
                weight += w[k.p[1]] * splat<V>(k.sign[1]);
            ax[k.slot] = weight * cosine;
        }
        // Up-looking LDLᵀ along the schedule (SparseLdl::factor, lane by lane).
        for (std::uint32_t k = 0; k < m; ++k) {
            const std::uint32_t last = c.ap[k + 1] - 1;
            for (std::uint32_t p = c.ap[k]; p < last; ++p)
                col[c.ai[p]] = ax[p];
            const V diagonal = ax[last];
            V dk = diagonal;
            for (std::uint32_t t = c.rowBegin[k], end = c.rowBegin[k + 1]; t < end; ++t) {
                const std::uint32_t i = c.rowColumn[t], slot = c.rowSlot[t];
                const V yi = col[i];
                col[i] = V{};
                for (std::uint32_t p = c.rowFirst[t]; p < slot; ++p)
                    col[c.li[p]] -= lx[p] * yi;
                const V lki = yi / d[i];
                dk -= lki * yi;
                lx[slot] = lki;
            }
            d[k] = Ops::select((dk > splat<V>(1e-10) * Ops::abs(diagonal)) & (dk > V{}), dk, splat<V>(1e30));
        }
        // λ = A⁻¹ C: forward, D⁻¹, backward.
        for (std::uint32_t k = 0; k < m; ++k)
            lambda[k] = rhs[c.perm[k]];
        for (std::uint32_t j = 0; j < m; ++j)
            for (std::uint32_t p = c.lp[j]; p < c.lp[j + 1]; ++p)
                lambda[c.li[p]] -= lx[p] * lambda[j];
        for (std::uint32_t j = 0; j < m; ++j)
            lambda[j] /= d[j];
        for (std::uint32_t j = m; j-- > 0;) {
            V v = lambda[j];
            for (std::uint32_t p = c.lp[j]; p < c.lp[j + 1]; ++p)
                v -= lx[p] * lambda[c.li[p]];
            lambda[j] = v;
        }
        // Corrections: x += W Jᵀ λ.
        for (std::uint32_t p = 0; p < c.particles; ++p)
            fx[p] = fy[p] = fz[p] = V{};
        for (std::uint32_t k = 0; k < m; ++k) {
            const std::uint32_t i = c.perm[k];
            const V gx = ux[i] * lambda[k], gy = uy[i] * lambda[k], gz = uz[i] * lambda[k];
            fx[c.b[i]] += gx, fy[c.b[i]] += gy, fz[c.b[i]] += gz;
            fx[c.a[i]] -= gx, fy[c.a[i]] -= gy, fz[c.a[i]] -= gz;
        }
        for (std::uint32_t p = 0; p < c.particles; ++p)
            x[p] += w[p] * fx[p], y[p] += w[p] * fy[p], z[p] += w[p] * fz[p];
    }
};

/// The rig of argument `which`: 0 the procedural humanoid, 1 the sample mannequin.
std::shared_ptr<const Rig> benchRig(int which, std::string& error)
{
    if (which == 0)
        return Rig::build(makeHumanoid(), &error);
#ifdef MARIONETTE_SAMPLE_MANNEQUIN
    return Rig::load(MARIONETTE_SAMPLE_MANNEQUIN, &error);
#else
    error = "the sample mannequin's path is not known to this build";
    return nullptr;
#endif
}

/// Noise on the bind pose: about what a substep's motion leaves a falling body off its sticks.
constexpr float kNoise = 0.001f;

/// Places a perturbed pose in every lane of `lanes` and checks the kernel on it: three passes of the lanes
/// must leave every lane within 10 µm of three scalar passes on that lane's body, and every stick within
/// 0.01 % of its length. Returns what is wrong, or an empty string; `apart` gets the largest distance.
template <class V>
std::string checkLanes(const CoreLayout& layout, CorePass<V>& lanes, double& apart)
{
    using Scalar = typename Lanes<V>::Scalar;
    constexpr int kWidth = Lanes<V>::kWidth;
    std::mt19937 rng(11);
    for (int l = 0; l < kWidth; ++l)
        lanes.place(l, rng, kNoise);
    const std::vector<V> startX = lanes.x, startY = lanes.y, startZ = lanes.z;
    for (int k = 0; k < 3; ++k)
        lanes.pass();
    CorePass<Scalar> one(layout);
    apart = 0.0;
    double worst = 0.0;
    for (int l = 0; l < kWidth; ++l) {
        for (std::uint32_t p = 0; p < layout.particles; ++p) {
            one.x[p] = reinterpret_cast<const Scalar*>(&startX[p])[l];
            one.y[p] = reinterpret_cast<const Scalar*>(&startY[p])[l];
            one.z[p] = reinterpret_cast<const Scalar*>(&startZ[p])[l];
            one.w[p] = lanes.at(lanes.w, p, l);
        }
        for (int k = 0; k < 3; ++k)
            one.pass();
        for (std::uint32_t p = 0; p < layout.particles; ++p)
            apart = std::max({apart, std::fabs(double(one.x[p] - lanes.at(lanes.x, p, l))),
                              std::fabs(double(one.y[p] - lanes.at(lanes.y, p, l))),
                              std::fabs(double(one.z[p] - lanes.at(lanes.z, p, l)))});
        worst = std::max(worst, lanes.stickError(l));
    }
    if (apart < 1e-5 && worst < 1e-4)
        return {};
    char message[160];
    std::snprintf(message, sizeof message, "%d-lane kernel: lanes %.3g m from the scalar kernel, sticks %.3g off after 3 passes",
                  kWidth, apart, worst);
    return message;
}

template <class V>
void BM_CorePass(benchmark::State& state)
{
    constexpr int kWidth = Lanes<V>::kWidth;
    std::string error;
    const std::shared_ptr<const Rig> rig = benchRig(int(state.range(0)), error);
    CoreLayout layout;
    if (!rig || !layout.build(*rig)) {
        state.SkipWithError(rig ? "the rig has no direct projection" : error.c_str());
        return;
    }
    CorePass<V> lanes(layout);
    double apart = 0.0;
    const std::string problem = checkLanes(layout, lanes, apart);
    if (!problem.empty()) {
        state.SkipWithError(problem.c_str());
        return;
    }

    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    for (auto _ : state) {
        lanes.pass();
        benchmark::DoNotOptimize(lanes.x.data());
    }
    const double ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
    state.counters["ns_per_body_pass"] = benchmark::Counter(ns / kWidth, benchmark::Counter::kAvgIterations);
    state.counters["lane_error_m"] = apart;
    state.SetLabel(std::string(state.range(0) ? "mannequin" : "humanoid") + ": " + std::to_string(layout.rows) +
                   " rigid sticks, factor " + std::to_string(layout.li.size()) + " nonzeros, " +
                   std::to_string(kWidth) + (kWidth > 1 ? " bodies at once" : " body"));
}

/// Lane slots busy when the piles' bodies advance in groups of `state.range(0)` (spawn order: neighbours in a
/// pile together), and when each step's bodies are first sorted by their solves (an oracle grouping).
void BM_LaneOccupancy(benchmark::State& state)
{
    const std::size_t width = std::size_t(state.range(0));
    std::string error;
    const std::shared_ptr<const Rig> rig = benchRig(1, error);
    if (!rig) {
        state.SkipWithError(error.c_str());
        return;
    }
    constexpr int kRagdolls = 160, kSteps = 300;
    double busy = 0.0, slots = 0.0, sortedSlots = 0.0, newtonBusy = 0.0, newtonSlots = 0.0;
    for (auto _ : state) {
        WorldSettings ws;
        ws.timeStep = rig->settings().timeStep;
        ws.threads = 1;
        ws.sleep = false;
        World world(ws);
        world.addPlane({0.f, 1.f, 0.f}, 0.f);
        // The piles of `marionette bench --no-sleep`.
        std::vector<RagdollHandle> handles;
        for (const Transform& placement : pilePlacements(*rig, kRagdolls)) {
            handles.push_back(world.spawn(rig, placement, {}, &error));
            if (handles.back() == kInvalidRagdoll) {
                state.SkipWithError(("spawn failed: " + error).c_str());
                return;
            }
        }
        std::vector<std::uint32_t> solves(kRagdolls), newton(kRagdolls);
        for (int step = 0; step < kSteps; ++step) {
            world.step();
            for (int i = 0; i < kRagdolls; ++i) {
                solves[std::size_t(i)] = world.ragdoll(handles[std::size_t(i)])->stats().factorizations;
                newton[std::size_t(i)] = world.ragdoll(handles[std::size_t(i)])->stats().newtonSteps;
            }
            auto groupSlots = [width](const std::vector<std::uint32_t>& v) {
                double total = 0.0;
                for (std::size_t g = 0; g < v.size(); g += width)
                    total += double(width) * *std::max_element(v.begin() + std::ptrdiff_t(g),
                                                               v.begin() + std::ptrdiff_t(std::min(v.size(), g + width)));
                return total;
            };
            busy += std::accumulate(solves.begin(), solves.end(), 0.0);
            slots += groupSlots(solves);
            newtonBusy += std::accumulate(newton.begin(), newton.end(), 0.0);
            newtonSlots += groupSlots(newton);
            std::sort(solves.begin(), solves.end());
            sortedSlots += groupSlots(solves);
        }
    }
    state.counters["solve_slots_busy_pct"] = 100.0 * busy / slots;
    state.counters["solve_slots_busy_sorted_pct"] = 100.0 * busy / sortedSlots;
    state.counters["newton_slots_busy_pct"] = 100.0 * newtonBusy / newtonSlots;
    state.SetLabel("mannequin piles, 160 bodies, " + std::to_string(kSteps) + " steps, groups of " + std::to_string(width));
}
BENCHMARK(BM_LaneOccupancy)->ArgName("lanes")->Arg(4)->Arg(8)->Arg(16)->Iterations(1)->Unit(benchmark::kSecond);

void BM_CorePass_ScalarFloat(benchmark::State& s) { BM_CorePass<float>(s); }
void BM_CorePass_ScalarDouble(benchmark::State& s) { BM_CorePass<double>(s); }
void BM_CorePass_Lanes8Float(benchmark::State& s) { BM_CorePass<F8>(s); }
void BM_CorePass_Lanes4Double(benchmark::State& s) { BM_CorePass<D4>(s); }

BENCHMARK(BM_CorePass_ScalarFloat)->ArgName("mannequin")->Arg(0)->Arg(1);
BENCHMARK(BM_CorePass_ScalarDouble)->ArgName("mannequin")->Arg(0)->Arg(1);
BENCHMARK(BM_CorePass_Lanes8Float)->ArgName("mannequin")->Arg(0)->Arg(1);
BENCHMARK(BM_CorePass_Lanes4Double)->ArgName("mannequin")->Arg(0)->Arg(1);

} // namespace

int main(int argc, char** argv)
{
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
        std::fprintf(stderr, "bench_lanes: this processor has no AVX2 and FMA, which the lanes need\n");
        return 0;
    }
    // The kernels' check, whatever the filter: a failure is the run's exit code (a benchmark's own error is not).
    for (int which = 0; which < 2; ++which) {
        std::string error;
        const std::shared_ptr<const Rig> rig = benchRig(which, error);
        CoreLayout layout;
        if (!rig || !layout.build(*rig)) {
            std::fprintf(stderr, "bench_lanes: %s\n", rig ? "the rig has no direct projection" : error.c_str());
            return 1;
        }
        double apart = 0.0;
        CorePass<F8> f8(layout);
        CorePass<D4> d4(layout);
        for (const std::string& problem : {checkLanes(layout, f8, apart), checkLanes(layout, d4, apart)})
            if (!problem.empty()) {
                std::fprintf(stderr, "bench_lanes: %s: %s\n", which ? "mannequin" : "humanoid", problem.c_str());
                return 1;
            }
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
