// Helpers shared by the runtime test suites (tst_verlet, tst_sticks, tst_angular, tst_collision,
// tst_ragdollcontacts, tst_world, tst_robustness, tst_motion): number formatting for failure messages, small rig
// builders, a rig spawned alone in a world of its own (Sim), a few measures of a ragdoll (speed, lowest surface,
// highest particle, distance to a segment), humanoid placements, the released chain of
// tst_verlet and tst_sticks, the helpers of the world suites (namespace worldSuites), and the EXPECT_VEC /
// EXPECT_NEAR / SPAWN_SIM / BUILD_RIG / SPAWN_RAGDOLL macros. Header-only; each suite is a single translation
// unit.
//
// A suite may set, before including this header:
//   MARIONETTE_TEST_DIGITS     significant digits printed by str() and num() (default 7)
//   MARIONETTE_TEST_VEC_DIFF   1: an EXPECT_VEC failure also prints |actual − expected| and the tolerance
//                              (default 0)
#pragma once

#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <vector>

#ifndef MARIONETTE_TEST_DIGITS
#define MARIONETTE_TEST_DIGITS 7
#endif

#ifndef MARIONETTE_TEST_VEC_DIFF
#define MARIONETTE_TEST_VEC_DIFF 0
#endif

namespace marionette::test {

// ------------------------------------------------------------------------------------------ formatting

inline QString str(Vec3 v, int digits = MARIONETTE_TEST_DIGITS)
{
    return QStringLiteral("(%1, %2, %3)").arg(v.x, 0, 'g', digits).arg(v.y, 0, 'g', digits).arg(v.z, 0, 'g', digits);
}

inline QString num(double v, int digits = MARIONETTE_TEST_DIGITS) { return QString::number(v, 'g', digits); }

/// Failure message of EXPECT_VEC; `withDiff` adds |actual − expected| and the tolerance.
inline QString vecFailure(const char* expression, Vec3 actual, Vec3 expected, double tol, int line, bool withDiff)
{
    if (withDiff)
        return QStringLiteral("%1 = %2, expected %3 (|diff| %4 > %5, line %6)")
            .arg(QString::fromLatin1(expression), str(actual), str(expected), num(length(actual - expected)), num(tol))
            .arg(line);
    return QStringLiteral("%1 = %2, expected %3 (line %4)")
        .arg(QString::fromLatin1(expression), str(actual), str(expected))
        .arg(line);
}

// ------------------------------------------------------------------------------------------ rig builders

constexpr float kDt = 1.f / 60.f;

/// A particle; radius 0 (the default) gives it no collision sphere, so nothing but the constraints under
/// test acts on it.
inline rig::Particle particle(Vec3 p, float mass, float radius = 0.f)
{
    rig::Particle q;
    q.position = p;
    q.mass = mass;
    q.radius = radius;
    return q;
}

/// A rigid stick; rest < 0 (the default) takes the bind distance.
inline rig::Stick stick(int a, int b, float rest = -1.f)
{
    rig::Stick s;
    s.a = a;
    s.b = b;
    s.restLength = rest;
    return s;
}

/// Per-rig settings with everything that is not under test switched off: no sleep, and no damping unless
/// asked (1/s). Jakobsen's relaxation: Gauss–Seidel, one substep of `iterations` sweeps per step, the
/// schedule the seeds' worked examples are about.
inline rig::Settings quietSettings(std::uint32_t iterations = 8, float damping = 0.f)
{
    rig::Settings s;
    s.solver = rig::SolverMode::GaussSeidel;
    s.substeps = 1;
    s.damping = damping;
    s.sleepTime = 0.f;
    s.iterations = iterations;
    return s;
}

/// Damping (1/s) that removes `fraction` of the velocity per step of dt (the seeds' per-step drag k).
inline float dampingForDrag(float fraction, float dt = 1.f / 60.f) { return -std::log1p(-fraction) / dt; }

/// World settings with sleep off and a single thread.
inline runtime::WorldSettings worldSettings(Vec3 gravity, float dt = 1.f / 60.f)
{
    runtime::WorldSettings w;
    w.gravity = gravity;
    w.timeStep = dt;
    w.sleep = false;
    w.threads = 1;
    return w;
}

// ------------------------------------------------------------------------------------------ Sim

/// A rig spawned alone in a world of its own.
struct Sim {
    std::shared_ptr<const runtime::Rig> rig;
    std::unique_ptr<runtime::World> world;
    runtime::Ragdoll* body = nullptr;
    std::string error;

    Vec3 x(std::uint32_t i) const { return body->positions()[i]; }
    Vec3 xPrev(std::uint32_t i) const { return body->previousPositions()[i]; }
    float distance(std::uint32_t a, std::uint32_t b) const { return length(x(b) - x(a)); }
    void run(int steps)
    {
        for (int i = 0; i < steps; ++i)
            world->step();
    }
};

inline Sim makeSim(const rig::RigDescription& d, const runtime::WorldSettings& ws, const Transform& placement = {})
{
    Sim s;
    s.rig = runtime::Rig::build(d, &s.error);
    if (!s.rig)
        return s;
    s.world = std::make_unique<runtime::World>(ws);
    const runtime::RagdollHandle h = s.world->spawn(s.rig, placement, {}, &s.error);
    s.body = s.world->ragdoll(h);
    if (!s.body && s.error.empty())
        s.error = "spawn returned no ragdoll";
    return s;
}

// ------------------------------------------------------------------------------------------ ragdoll measures

/// True when every point is finite.
inline bool allPointsFinite(std::span<const Vec3> points)
{
    for (const Vec3& p : points)
        if (!isFinite(p))
            return false;
    return true;
}

/// Largest particle speed of the ragdoll.
inline float maxSpeed(const runtime::Ragdoll& r)
{
    float m = 0.f;
    for (std::uint32_t i = 0; i < r.particleCount(); ++i)
        m = std::max(m, length(r.velocity(i)));
    return m;
}

/// Lowest value of (particle y − radius) over the ragdoll.
inline float lowestSurface(const runtime::Ragdoll& r)
{
    float m = INFINITY;
    const auto radii = r.rig().radii();
    for (std::uint32_t i = 0; i < r.particleCount(); ++i)
        m = std::min(m, r.positions()[i].y - radii[i]);
    return m;
}

/// Highest particle of the ragdoll (y).
inline float highestParticle(const runtime::Ragdoll& r)
{
    float m = -INFINITY;
    for (const Vec3& p : r.positions())
        m = std::max(m, p.y);
    return m;
}

/// Closest distance from p to segment a–b.
inline float distanceToSegment(Vec3 p, Vec3 a, Vec3 b)
{
    const Vec3 d = b - a;
    const float l2 = dot(d, d);
    const float t = l2 > 0.f ? std::clamp(dot(p - a, d) / l2, 0.f, 1.f) : 0.f;
    return length(p - lerp(a, b, t));
}

/// Distance between segments a0a1 and b0b1. The distance from a point moving along a0a1 to b0b1 is convex
/// in its position, so a ternary search finds the closest pair to float precision.
inline float distanceBetweenSegments(Vec3 a0, Vec3 a1, Vec3 b0, Vec3 b1)
{
    float lo = 0.f, hi = 1.f;
    for (int k = 0; k < 80; ++k) {
        const float m1 = lo + (hi - lo) / 3.f, m2 = hi - (hi - lo) / 3.f;
        if (distanceToSegment(lerp(a0, a1, m1), b0, b1) < distanceToSegment(lerp(a0, a1, m2), b0, b1))
            hi = m2;
        else
            lo = m1;
    }
    return distanceToSegment(lerp(a0, a1, 0.5f * (lo + hi)), b0, b1);
}

// ------------------------------------------------------------------------------------------ placements

/// Placement of a humanoid lying face up (head toward −Z, nose up) with its bind-pose spine at height
/// `height`; a small height puts its back capsules just above y = 0.
inline Transform lyingPlacement(float height)
{
    const Quat lie = Quat::fromAxisAngle({1.f, 0.f, 0.f}, -kPi / 2.f); // +Y (head) → −Z, +Z (nose) → +Y
    return {lie, {0.f, height, 0.9f}};
}

/// Placement of a humanoid lying face up, centred on the origin in x/z, turned by `yaw` about +Y, with its
/// bind-pose spine at height `height`.
inline Transform lyingPlacement(float height, float yaw)
{
    const Transform turn{Quat::fromAxisAngle({0.f, 1.f, 0.f}, yaw), {}};
    return turn * lyingPlacement(height);
}

// ------------------------------------------------------------------------------------------ released chain

/// A chain of `links` sticks along +X, `spacing` apart, its first particle kinematic (mass 0).
inline rig::RigDescription makeChain(int links, float spacing, const rig::Settings& settings)
{
    rig::RigDescription d;
    d.name = "chain";
    for (int i = 0; i <= links; ++i)
        d.particles.push_back(particle({float(i) * spacing, 0.f, 0.f}, i == 0 ? 0.f : 0.1f));
    for (int i = 0; i < links; ++i)
        d.sticks.push_back(stick(i, i + 1));
    d.settings = settings;
    return d;
}

/// Stick errors of a chain of rest length `spacing`: the largest |L − r| and the total Σ|L − r| (how much
/// longer the whole chain is than at rest).
struct ChainError {
    float worst = -1.f;
    float total = -1.f;
};

inline ChainError chainError(const Sim& s, float spacing)
{
    ChainError e{0.f, 0.f};
    for (const rig::Stick& st : s.rig->description().sticks) {
        const float err = std::fabs(s.distance(std::uint32_t(st.a), std::uint32_t(st.b)) - spacing);
        e.worst = std::max(e.worst, err);
        e.total += err;
    }
    return e;
}

/// Stick errors of a 30-link horizontal chain (0.1 m links, 0.1 kg particles) released under gravity from
/// a kinematic end, after `steps` steps. No drag.
inline ChainError chainErrorAfter(rig::SolverMode mode, std::uint32_t iterations, float omega, int steps,
                                  std::string* error)
{
    rig::Settings st = quietSettings(iterations);
    st.solver = mode;
    st.overRelaxation = omega;
    Sim s = makeSim(makeChain(30, 0.1f, st), worldSettings({0.f, -9.81f, 0.f}));
    if (!s.body) {
        *error = s.error;
        return {};
    }
    s.run(steps);
    return chainError(s, 0.1f);
}

// ------------------------------------------------------------------------------------------ world suites

/// Helpers of tst_world, tst_robustness and tst_motion, which use this namespace. A namespace of its own:
/// tst_collision has an allFinite() of its own (current positions only).
namespace worldSuites {

/// Current and previous positions finite.
inline bool allFinite(const runtime::Ragdoll& r)
{
    return allPointsFinite(r.positions()) && allPointsFinite(r.previousPositions());
}

/// Copy of a ragdoll's positions.
inline std::vector<Vec3> snapshot(const runtime::Ragdoll& r) { return {r.positions().begin(), r.positions().end()}; }

/// A rig of `points` unconnected 1 kg particles (radius 0: no contacts among them).
inline rig::RigDescription pointsRig(std::initializer_list<Vec3> points)
{
    rig::RigDescription d;
    d.name = "points";
    for (const Vec3& p : points) {
        rig::Particle q;
        q.position = p;
        q.radius = 0.f;
        q.mass = 1.f;
        d.particles.push_back(q);
    }
    return d;
}

} // namespace worldSuites

} // namespace marionette::test

// ------------------------------------------------------------------------------------------ macros

/// Fails the test when |actual − expected| > tol (vectors), printing both.
#define EXPECT_VEC(actual, expected, tol)                                                                      \
    do {                                                                                                       \
        const ::marionette::Vec3 a_ = (actual), e_ = (expected);                                               \
        if (!(::marionette::length(a_ - e_) <= (tol)))                                                         \
            QFAIL(qPrintable(::marionette::test::vecFailure(#actual, a_, e_, double(tol), __LINE__,           \
                                                            bool(MARIONETTE_TEST_VEC_DIFF))));                 \
    } while (0)

/// Fails the test when |actual − expected| > tol (numbers, compared in double), printing both and the tolerance.
#define EXPECT_NEAR(actual, expected, tol)                                                                     \
    do {                                                                                                       \
        const double a_ = (actual), e_ = (expected);                                                           \
        if (!(std::fabs(a_ - e_) <= double(tol)))                                                              \
            QFAIL(qPrintable(QStringLiteral("%1 = %2, expected %3 ± %4 (line %5)")                             \
                                 .arg(QString::fromLatin1(#actual), ::marionette::test::num(a_),              \
                                      ::marionette::test::num(e_), ::marionette::test::num(double(tol)))      \
                                 .arg(__LINE__)));                                                             \
    } while (0)

/// `Sim sim = makeSim(description, worldSettings[, placement])`, failing the test when nothing was spawned.
#define SPAWN_SIM(sim, ...)                                                                                    \
    ::marionette::test::Sim sim = ::marionette::test::makeSim(__VA_ARGS__);                                    \
    QVERIFY2(sim.body, sim.error.c_str())

/// Builds `desc` into `const std::shared_ptr<const Rig> var`, failing the test with the build error.
#define BUILD_RIG(var, desc)                                                                                   \
    std::string var##Error;                                                                                    \
    const std::shared_ptr<const ::marionette::runtime::Rig> var =                                              \
        ::marionette::runtime::Rig::build((desc), &var##Error);                                                \
    QVERIFY2(var, var##Error.c_str())

/// Spawns `rig` into `world` as `const RagdollHandle handle`, failing the test with the spawn error.
#define SPAWN_RAGDOLL(handle, world, rig, placement)                                                           \
    std::string handle##Error;                                                                                 \
    const ::marionette::runtime::RagdollHandle handle = (world).spawn((rig), (placement), {}, &handle##Error); \
    QVERIFY2(handle != ::marionette::runtime::kInvalidRagdoll, handle##Error.c_str())
