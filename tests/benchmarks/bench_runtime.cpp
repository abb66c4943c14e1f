// Marionette runtime benchmarks (Google Benchmark).
//
// Every benchmark reports a per-unit figure as a user counter (us_per_step, us_per_ragdoll_step_median,
// ns_per_stick_per_iteration, ...). Timed regions contain only World::step() (plus the loop overhead of
// reading a clock per chunk); world creation, spawning, re-spawning and impulses run outside the timed
// region. Nothing here asserts on timings: targets are documented in docs/benchmarks.md.
//
// Each benchmark also checks the simulation for sanity (non-finite positions, ragdolls below the floor) and
// reports a problem with SkipWithError so a broken runtime cannot produce a "fast" number silently.

#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace marionette;
using namespace marionette::runtime;
using Clock = std::chrono::steady_clock;

constexpr float kPi = 3.14159265358979f;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

/// The solver schedules compared: 0 the defaults (direct, 8 substeps × 3 iterations), 1 the relaxation rigs had
/// before substeps (Gauss–Seidel, one step of 8 iterations).
enum Schedule : int { kDefaultSchedule = 0, kRelaxation8 = 1 };

void applySchedule(rig::RigDescription& d, int schedule)
{
    if (schedule == kRelaxation8) {
        d.settings.solver = rig::SolverMode::GaussSeidel;
        d.settings.substeps = 1;
        d.settings.iterations = 8;
    }
}

std::string scheduleName(const rig::Settings& s)
{
    return std::string(rig::toString(s.solver)) + " " + std::to_string(s.substeps) + " substep(s) x " +
           std::to_string(s.iterations) + " iterations";
}

std::shared_ptr<const Rig> buildHumanoid(int schedule, std::string* error)
{
    rig::RigDescription d = makeHumanoid();
    applySchedule(d, schedule);
    return Rig::build(d, error);
}

/// Checks every particle of `r` is finite and above `floorY`; returns an empty string when sane, else a
/// one-line description of the first problem.
std::string checkRagdoll(const Ragdoll& r, float floorY)
{
    const auto p = r.positions();
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (!std::isfinite(p[i].x) || !std::isfinite(p[i].y) || !std::isfinite(p[i].z))
            return "non-finite position of particle " + std::to_string(i);
        if (p[i].y < floorY)
            return "particle " + std::to_string(i) + " below the floor (y = " + std::to_string(p[i].y) + ")";
    }
    return {};
}

Transform yawed(Vec3 at, float yawRadians)
{
    return {Quat::fromAxisAngle({0.f, 1.f, 0.f}, yawRadians), at};
}

// ---- (a) one humanoid on a floor with a box --------------------------------------------------------------

/// Times World::step() of one humanoid (sleep off, 1 thread) that keeps tumbling: it is spawned 1 m up,
/// falls for 60 untimed steps so contacts exist, and every 120 steps (untimed) gets a kick back toward the
/// box so it never settles. With `withStatics` false there is no floor or box: the ragdoll is re-spawned
/// every 120 steps (untimed) and only self-collision and the constraints are solved.
/// With `driven`, every part has a 30 Hz critically damped motor toward the bind pose's relative orientations
/// and the pelvis and shins are pinned to it, and the pose target is set again before every step (timed: a
/// game does it every frame). Without statics both runs have no contacts, so driven against undriven there is
/// the cost of drives alone; on the floor the drives change how the body lands, and its contacts with it.
void humanoidStep(benchmark::State& state, bool withStatics, bool driven = false)
{
    const int schedule = int(state.range(0));
    std::string error;
    const std::shared_ptr<const Rig> rig = buildHumanoid(schedule, &error);
    if (!rig) {
        state.SkipWithError(("Rig::build(makeHumanoid()) failed: " + error).c_str());
        return;
    }

    WorldSettings ws;
    ws.sleep = false;
    ws.threads = 1;
    World world(ws);
    if (withStatics) {
        if (world.addPlane({0.f, 1.f, 0.f}, 0.f, &error) < 0
            || world.addBox({Quat{}, {0.f, 0.25f, 0.35f}}, {0.5f, 0.25f, 0.3f}, &error) < 0) {
            state.SkipWithError(("static geometry: " + error).c_str());
            return;
        }
    }
    const Transform spawnAt = yawed({0.f, 1.f, 0.f}, 0.3f);
    const RagdollHandle handle = world.spawn(rig, spawnAt, {}, &error);
    Ragdoll* ragdoll = world.ragdoll(handle);
    if (!ragdoll) {
        state.SkipWithError(("spawn failed: " + error).c_str());
        return;
    }
    std::vector<Mat4> bindPalette;
    for (const BoneData& b : rig->bones())
        bindPalette.push_back(b.bindWorld);
    if (driven) {
        // Every drive at work, as the mannequin's "balanced" profile: a 30 Hz motor on every part, the pelvis
        // pinned at 15 Hz and the shins at 8 Hz (each pin also capped, so the cap's test is paid for too).
        std::vector<rig::DriveGains> gains(rig->driveParts().size());
        for (rig::DriveGains& g : gains)
            g.motorFrequency = 30.f;
        const std::pair<int, float> pins[] = {{kPelvisTri, 15.f}, {kShinLTri, 8.f}, {kShinRTri, 8.f}};
        for (const auto& [triangle, hz] : pins) {
            const std::int32_t part = rig->drivePart(rig::DrivePartKind::Triangle, std::uint32_t(triangle));
            if (part < 0) {
                state.SkipWithError("the humanoid has no drive part for a pinned triangle");
                return;
            }
            gains[std::size_t(part)].pinFrequency = hz;
            gains[std::size_t(part)].maxForce = 2000.f;
        }
        if (!ragdoll->setPoseTarget(bindPalette, &error) || !ragdoll->setDriveGains(gains, 0.f, &error)) {
            state.SkipWithError(("drives: " + error).c_str());
            return;
        }
    }
    for (int i = 0; i < 60; ++i)
        world.step();

    const float floorY = withStatics ? -0.25f : -1e30f;
    std::uint64_t kicks = 0;
    auto kick = [&] {
        if (!withStatics) {
            ragdoll->resetToBindPose(yawed({0.f, 1.f, 0.f}, 0.3f * float(kicks)));
            ragdoll->applyImpulseOnStick(0, 0.5f, {15.f, 0.f, 5.f});
            ragdoll->applyImpulse(kWristL, {0.f, 4.f, 3.f});
        } else {
            // Up and back toward the box, alternating spin, so it keeps landing on the box and the floor.
            const Vec3 com = ragdoll->centreOfMass();
            Vec3 home{-com.x, 0.f, 0.35f - com.z};
            const float len = std::sqrt(home.x * home.x + home.z * home.z);
            home = len > 1e-3f ? home * (1.5f / len) : Vec3{};
            ragdoll->addVelocity({home.x, 3.5f, home.z});
            const float side = (kicks % 2 == 0) ? 1.f : -1.f;
            ragdoll->applyImpulse(kWristL, {0.f, 0.f, 6.f * side});
            ragdoll->applyImpulse(kAnkleR, {0.f, 0.f, -6.f * side});
        }
        ++kicks;
    };
    kick();

    double timed = 0.0;
    std::uint64_t steps = 0, contacts = 0, newtonSteps = 0, factorizations = 0;
    std::string problem;
    Clock::time_point chunk = Clock::now();
    for (auto _ : state) {
        if (driven)
            ragdoll->setPoseTarget(bindPalette);
        world.step();
        contacts += ragdoll->stats().contacts;
        newtonSteps += ragdoll->stats().newtonSteps;
        factorizations += ragdoll->stats().factorizations;
        if (++steps % 120 == 0) {
            timed += secondsSince(chunk);
            state.PauseTiming();
            problem = checkRagdoll(*ragdoll, floorY);
            if (!problem.empty()) {
                // SkipWithError stops the (paused) timer; break right after it, as Google Benchmark requires.
                state.SkipWithError(("simulation misbehaved after " + std::to_string(steps) + " steps: " +
                                     problem).c_str());
                break;
            }
            kick();
            state.ResumeTiming();
            chunk = Clock::now();
        }
    }
    if (!problem.empty())
        return;
    timed += secondsSince(chunk);
    problem = checkRagdoll(*ragdoll, floorY);
    if (!problem.empty()) {
        state.SkipWithError(("simulation misbehaved: " + problem).c_str());
        return;
    }

    state.counters["us_per_step"] = benchmark::Counter(timed * 1e6, benchmark::Counter::kAvgIterations);
    if (withStatics) // (no statics: always 0, which only makes the aggregates print "-nan%")
        state.counters["contacts_per_step"] =
            benchmark::Counter(double(contacts), benchmark::Counter::kAvgIterations);
    if (const auto shape = rig->directSolveShape()) { // the projection's system and work (RagdollStats)
        state.counters["newton_steps_per_step"] =
            benchmark::Counter(double(newtonSteps), benchmark::Counter::kAvgIterations);
        state.counters["factorizations_per_step"] =
            benchmark::Counter(double(factorizations), benchmark::Counter::kAvgIterations);
        state.counters["solve_depth"] = shape->depth;
    }
    state.SetLabel(std::string(withStatics ? "floor+box" : "no statics") + (driven ? ", driven (30 Hz motors, pelvis and shins pinned)" : "") +
                   ", 1 humanoid, " +
                   std::to_string(rig->particleCount()) + " particles, " + std::to_string(rig->sticks().size()) +
                   " sticks, " + scheduleName(rig->settings()) + ", sleep off, 1 thread");
}

void BM_HumanoidStep(benchmark::State& state) { humanoidStep(state, true); }
void BM_HumanoidStep_NoCollision(benchmark::State& state) { humanoidStep(state, false); }

void BM_HumanoidStep_Driven(benchmark::State& state) { humanoidStep(state, true, true); }
void BM_HumanoidStep_NoCollision_Driven(benchmark::State& state) { humanoidStep(state, false, true); }

BENCHMARK(BM_HumanoidStep)->ArgName("schedule")->Arg(kDefaultSchedule)->Arg(kRelaxation8);
BENCHMARK(BM_HumanoidStep_Driven)->ArgName("schedule")->Arg(kDefaultSchedule);
BENCHMARK(BM_HumanoidStep_NoCollision)->ArgName("schedule")->Arg(kDefaultSchedule)->Arg(kRelaxation8);
BENCHMARK(BM_HumanoidStep_NoCollision_Driven)->ArgName("schedule")->Arg(kDefaultSchedule);

// ---- (b) 160 humanoids in 16 piles ------------------------------------------------------------------------

constexpr int kPileGrid = 4;          // 4 × 4 piles
constexpr int kPerPile = 10;
constexpr int kPileRagdolls = kPileGrid * kPileGrid * kPerPile; // 160
constexpr int kPileSteps = 500;

/// Spawns the 160 ragdolls. The humanoid stands on y = 0 in a T-pose; in a pile each lies face down
/// (rotated about X, centred on its middle), randomly yawed, 0.5 m above the previous one, the lowest 1 m up.
bool spawnPiles(World& world, const std::shared_ptr<const Rig>& rig, std::string* error)
{
    std::mt19937 rng(20240611u); // fixed seed: every run builds the same piles
    const Quat lieDown = Quat::fromAxisAngle({1.f, 0.f, 0.f}, 0.5f * kPi); // up -> +Z, facing -> -Y
    const Transform centre{Quat{}, {0.f, -0.9f, 0.f}};
    for (int gx = 0; gx < kPileGrid; ++gx)
        for (int gz = 0; gz < kPileGrid; ++gz)
            for (int k = 0; k < kPerPile; ++k) {
                const float yaw = float(double(rng()) / 4294967296.0) * 2.f * kPi;
                const Vec3 at{(float(gx) - 1.5f) * 3.f, 1.f + 0.5f * float(k), (float(gz) - 1.5f) * 3.f};
                const Transform placement =
                    Transform{Quat::fromAxisAngle({0.f, 1.f, 0.f}, yaw), at} * Transform{lieDown, {}} * centre;
                if (world.spawn(rig, placement, {}, error) == kInvalidRagdoll)
                    return false;
            }
    return true;
}

void BM_Piles(benchmark::State& state)
{
    const auto threads = static_cast<std::uint32_t>(state.range(0));
    std::string error;
    const std::shared_ptr<const Rig> rig = buildHumanoid(kDefaultSchedule, &error);
    if (!rig) {
        state.SkipWithError(("Rig::build(makeHumanoid()) failed: " + error).c_str());
        return;
    }
    WorldSettings ws;
    ws.sleep = false;
    ws.threads = threads;
    ws.ragdollCollisions = true;
    ws.timeStep = 1.f / 60.f;

    std::vector<double> stepSeconds; // every timed step of every benchmark iteration
    stepSeconds.reserve(std::size_t(kPileSteps) * 4);
    WorldStats last{};
    std::uint32_t maxDropped = 0;
    double newtonSteps = 0.0, factorizations = 0.0; // over every timed step
    std::array<RagdollHandle, kPileRagdolls> handles{};
    for (auto _ : state) {
        // Untimed (manual time): a fresh world and 160 spawns.
        World world(ws);
        if (world.addPlane({0.f, 1.f, 0.f}, 0.f, &error) < 0 || !spawnPiles(world, rig, &error)) {
            state.SkipWithError(("setup failed: " + error).c_str());
            return;
        }
        double total = 0.0;
        for (int s = 0; s < kPileSteps; ++s) {
            const Clock::time_point t0 = Clock::now();
            world.step();
            const double dt = secondsSince(t0);
            total += dt;
            stepSeconds.push_back(dt);
            maxDropped = std::max(maxDropped, world.stats().droppedContacts);
            newtonSteps += world.stats().newtonSteps;
            factorizations += world.stats().factorizations;
        }
        state.SetIterationTime(total);
        last = world.stats();

        const std::size_t n = world.ragdolls(handles);
        for (std::size_t i = 0; i < n; ++i) {
            const std::string problem = checkRagdoll(*world.ragdoll(handles[i]), -0.25f);
            if (!problem.empty()) {
                state.SkipWithError(("ragdoll " + std::to_string(i) + " after " + std::to_string(kPileSteps) +
                                     " steps: " + problem).c_str());
                return;
            }
        }
    }

    std::vector<double> sorted = stepSeconds;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    const double median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    const double mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / double(n);
    const double perRagdoll = 1e6 / double(kPileRagdolls);
    state.counters["us_per_ragdoll_step_median"] = median * perRagdoll;
    state.counters["us_per_ragdoll_step_mean"] = mean * perRagdoll;
    state.counters["us_per_ragdoll_step_max"] = sorted.back() * perRagdoll;
    state.counters["islands"] = last.islands;
    state.counters["ragdollPairs"] = last.ragdollPairs;
    state.counters["ragdollContacts"] = last.ragdollContacts;
    state.counters["droppedContacts_max"] = maxDropped;
    state.counters["newton_steps_per_ragdoll_step"] = newtonSteps / double(n) / double(kPileRagdolls);
    state.counters["factorizations_per_ragdoll_step"] = factorizations / double(n) / double(kPileRagdolls);
    state.SetLabel(std::to_string(kPileRagdolls) + " humanoids in 16 piles, " + std::to_string(kPileSteps) +
                   " steps at 60 Hz, " + scheduleName(rig->settings()) + ", sleep off, " + std::to_string(threads) + " thread(s)");
}

BENCHMARK(BM_Piles)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// ---- (c) a 64 × 64 cloth ----------------------------------------------------------------------------------

void BM_Cloth(benchmark::State& state)
{
    const auto iterations = static_cast<std::uint32_t>(state.range(0));
    rig::RigDescription d = makeCloth(64, 64, 0.02f, true);
    d.settings.iterations = iterations;
    const std::size_t descriptionSticks = d.sticks.size();
    std::string error;
    const std::shared_ptr<const Rig> rig = Rig::build(d, &error);
    if (!rig) {
        state.SkipWithError(("Rig::build(makeCloth()) failed: " + error).c_str());
        return;
    }
    WorldSettings ws;
    ws.sleep = false;
    ws.threads = 1;
    World world(ws);
    const RagdollHandle handle = world.spawn(rig, yawed({0.f, 2.f, 0.f}, 0.f), {0.f, 0.f, 1.f}, &error);
    const Ragdoll* cloth = world.ragdoll(handle);
    if (!cloth) {
        state.SkipWithError(("spawn failed: " + error).c_str());
        return;
    }
    for (int i = 0; i < 10; ++i)
        world.step();

    const Clock::time_point start = Clock::now();
    for (auto _ : state)
        world.step();
    const double seconds = secondsSince(start);

    const std::string problem = checkRagdoll(*cloth, -1e30f);
    if (!problem.empty()) {
        state.SkipWithError(("simulation misbehaved: " + problem).c_str());
        return;
    }
    const double sticks = double(rig->sticks().size());
    state.counters["us_per_step"] = benchmark::Counter(seconds * 1e6, benchmark::Counter::kAvgIterations);
    state.counters["ns_per_stick_per_iteration"] =
        benchmark::Counter(seconds * 1e9 / (sticks * double(iterations)), benchmark::Counter::kAvgIterations);
    state.SetLabel("cloth 64x64, " + std::to_string(rig->sticks().size()) + " compiled sticks (" +
                   std::to_string(descriptionSticks) + " described), " + std::to_string(iterations) +
                   " iterations, no ground, sleep off");
}

BENCHMARK(BM_Cloth)->ArgName("iterations")->Arg(1)->Arg(4);

// ---- micro benchmarks -------------------------------------------------------------------------------------

/// Rig::build() of the procedural humanoid (validation, compilation, self-collision pair table).
void BM_RigBuild(benchmark::State& state)
{
    const rig::RigDescription d = makeHumanoid();
    for (auto _ : state) {
        std::shared_ptr<const Rig> rig = Rig::build(d);
        if (!rig) {
            state.SkipWithError("Rig::build(makeHumanoid()) failed");
            break;
        }
        benchmark::DoNotOptimize(rig.get());
    }
    state.SetLabel("humanoid: " + std::to_string(d.particles.size()) + " particles, " +
                   std::to_string(d.sticks.size()) + " sticks");
}
BENCHMARK(BM_RigBuild)->Unit(benchmark::kMicrosecond);

/// World::spawn() + remove() of a humanoid (the allocation of its state block).
void BM_SpawnRemove(benchmark::State& state)
{
    std::string error;
    const std::shared_ptr<const Rig> rig = buildHumanoid(kDefaultSchedule, &error);
    if (!rig) {
        state.SkipWithError(("Rig::build(makeHumanoid()) failed: " + error).c_str());
        return;
    }
    World world;
    for (auto _ : state) {
        const RagdollHandle h = world.spawn(rig, yawed({0.f, 1.f, 0.f}, 0.f));
        benchmark::DoNotOptimize(h);
        world.remove(h);
    }
}
BENCHMARK(BM_SpawnRemove);

/// Ragdoll::skinningMatrices() of a humanoid (13 bones) at an interpolated alpha.
void BM_SkinningMatrices(benchmark::State& state)
{
    std::string error;
    const std::shared_ptr<const Rig> rig = buildHumanoid(kDefaultSchedule, &error);
    if (!rig) {
        state.SkipWithError(("Rig::build(makeHumanoid()) failed: " + error).c_str());
        return;
    }
    WorldSettings ws;
    ws.sleep = false;
    World world(ws);
    world.addPlane({0.f, 1.f, 0.f}, 0.f);
    const Ragdoll* ragdoll = world.ragdoll(world.spawn(rig, yawed({0.f, 0.5f, 0.f}, 0.f)));
    if (!ragdoll) {
        state.SkipWithError("spawn failed");
        return;
    }
    for (int i = 0; i < 30; ++i)
        world.step();
    std::vector<Mat4> palette(rig->bones().size());
    for (auto _ : state) {
        bool ok = ragdoll->skinningMatrices(palette, 0.5f);
        benchmark::DoNotOptimize(ok);
        benchmark::DoNotOptimize(palette.data());
        benchmark::ClobberMemory();
    }
    state.SetLabel(std::to_string(palette.size()) + " bones");
}
BENCHMARK(BM_SkinningMatrices);

/// The latencies the direct projection's factorisation waits on (docs/benchmarks.md, "The floor"): each level
/// of the rigid sticks' elimination tree divides by the pivot below it and subtracts a product from its own
/// pivot, each waiting for the last. A chain of 1,000 such operations, as this build compiles them (double
/// precision, no -march: a multiply then a subtract, no fused multiply-add); the counter is ns per operation.
void BM_LatencyDivide(benchmark::State& state)
{
    volatile double seed = 1.0000001; // opaque to the compiler: nothing folds
    double x = seed;
    const double y = seed;
    const Clock::time_point start = Clock::now();
    for (auto _ : state) {
        for (int i = 0; i < 1000; ++i)
            x = y / x;
        benchmark::DoNotOptimize(x);
    }
    state.counters["ns_per_op"] =
        benchmark::Counter(secondsSince(start) * 1e9 / 1000.0, benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_LatencyDivide);

void BM_LatencyMultiplySubtract(benchmark::State& state)
{
    volatile double seed = 0.5;
    double x = seed;
    const double a = seed, b = seed;
    const Clock::time_point start = Clock::now();
    for (auto _ : state) {
        for (int i = 0; i < 1000; ++i)
            x = a - x * b;
        benchmark::DoNotOptimize(x);
    }
    state.counters["ns_per_op"] =
        benchmark::Counter(secondsSince(start) * 1e9 / 1000.0, benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_LatencyMultiplySubtract);

// ---- settling after a drop ---------------------------------------------------------------------------

/// Twelve humanoids dropped from 2.5 m in random orientations (fixed seed) onto a floor, each simulated for
/// 6 s with sleep off. Reports how fast a step is and how quickly the bodies come to rest: the mean kinetic
/// energy from 1.5 s to 6 s (J) and how many still have a particle faster than 5 cm/s at 6 s. Energy that
/// lingers after the impact is the solver's to remove; the counters make changes to it measurable.
void BM_DropSettle(benchmark::State& state)
{
    rig::RigDescription d = makeHumanoid();
    applySchedule(d, int(state.range(0)));
    std::string error;
    const std::shared_ptr<const Rig> rig = Rig::build(d, &error);
    if (!rig) {
        state.SkipWithError(error.c_str());
        return;
    }
    double lateEnergy = 0.0, stepSeconds = 0.0;
    int unsettled = 0, drops = 0;
    for (auto _ : state) {
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> u(-1.f, 1.f);
        lateEnergy = 0.0;
        unsettled = 0;
        drops = 0;
        stepSeconds = 0.0;
        for (int trial = 0; trial < 12; ++trial, ++drops) {
            WorldSettings ws;
            ws.sleep = false;
            World world(ws);
            world.addPlane({0.f, 1.f, 0.f}, 0.f);
            const Vec3 axis = normalizeOr(Vec3{u(rng), u(rng), u(rng)}, {0.f, 1.f, 0.f});
            Ragdoll* r = world.ragdoll(world.spawn(rig, {Quat::fromAxisAngle(axis, 3.f * u(rng)), {0.f, 2.5f, 0.f}}));
            double late = 0.0;
            for (int i = 0; i < 360; ++i) {
                const auto start = Clock::now();
                world.step();
                stepSeconds += secondsSince(start);
                if (i < 90)
                    continue;
                double e = 0.0;
                for (std::uint32_t k = 0; k < r->particleCount(); ++k)
                    e += 0.5 * double(d.particles[k].mass) * double(lengthSquared(r->velocity(k)));
                late += e / 270.0;
            }
            float fastest = 0.f;
            for (std::uint32_t k = 0; k < r->particleCount(); ++k)
                fastest = std::max(fastest, length(r->velocity(k)));
            unsettled += fastest > 0.05f ? 1 : 0;
            lateEnergy += late / 12.0;
        }
    }
    state.counters["late_kinetic_energy_J"] = lateEnergy;
    state.counters["unsettled_of_12"] = unsettled;
    state.counters["us_per_step"] = 1e6 * stepSeconds / (double(drops) * 360.0);
    state.SetLabel("12 random 2.5 m drops, 6 s each, sleep off, " + scheduleName(rig->settings()));
}
BENCHMARK(BM_DropSettle)->ArgName("schedule")->Arg(kDefaultSchedule)->Arg(kRelaxation8)->Iterations(1)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
