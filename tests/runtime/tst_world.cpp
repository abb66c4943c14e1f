// World-level tests of the Marionette runtime through its public API: the fixed-step accumulator, empty and
// emptied worlds, sleep and wake, bit-exact determinism (also across thread counts) and no heap allocation
// inside step(). Degenerate input and validation messages are tested in tst_robustness; the bone palette,
// motion control and a rigid prop in tst_motion. Every assertion on a number prints the measured value.
#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <QtTest/QtTest>

#if defined(Q_OS_UNIX)
#include <sys/wait.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "RuntimeTestSupport.h"

// ------------------------------------------------------------------------- counting global allocator
// Every form of operator new is replaced; allocations are counted only while gCountAllocations is set
// (from any thread: the world's workers allocate through the same functions).

namespace {
std::atomic<bool> gCountAllocations{false};
std::atomic<std::uint64_t> gAllocations{0};
std::atomic<std::uint64_t> gFrees{0};

void* countedAlloc(std::size_t n)
{
    if (gCountAllocations.load(std::memory_order_relaxed))
        gAllocations.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(n ? n : 1);
}

void* countedAlignedAlloc(std::size_t n, std::align_val_t al)
{
    if (gCountAllocations.load(std::memory_order_relaxed))
        gAllocations.fetch_add(1, std::memory_order_relaxed);
    std::size_t a = static_cast<std::size_t>(al);
    if (a < sizeof(void*))
        a = sizeof(void*);
    const std::size_t size = ((n ? n : 1) + a - 1) / a * a;
    return std::aligned_alloc(a, size);
}

void countedFree(void* p) noexcept
{
    if (p && gCountAllocations.load(std::memory_order_relaxed))
        gFrees.fetch_add(1, std::memory_order_relaxed);
    std::free(p);
}
} // namespace

void* operator new(std::size_t n)
{
    if (void* p = countedAlloc(n))
        return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n)
{
    if (void* p = countedAlloc(n))
        return p;
    throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return countedAlloc(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return countedAlloc(n); }
void* operator new(std::size_t n, std::align_val_t a)
{
    if (void* p = countedAlignedAlloc(n, a))
        return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t a)
{
    if (void* p = countedAlignedAlloc(n, a))
        return p;
    throw std::bad_alloc();
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept { return countedAlignedAlloc(n, a); }
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept { return countedAlignedAlloc(n, a); }
void operator delete(void* p) noexcept { countedFree(p); }
void operator delete[](void* p) noexcept { countedFree(p); }
void operator delete(void* p, std::size_t) noexcept { countedFree(p); }
void operator delete[](void* p, std::size_t) noexcept { countedFree(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { countedFree(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { countedFree(p); }
void operator delete(void* p, std::align_val_t) noexcept { countedFree(p); }
void operator delete[](void* p, std::align_val_t) noexcept { countedFree(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { countedFree(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { countedFree(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { countedFree(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { countedFree(p); }

Q_DECLARE_METATYPE(marionette::Transform)

using namespace marionette;
using namespace marionette::runtime;
using namespace marionette::test;
using namespace marionette::test::worldSuites;

namespace {

/// The placements of `count` humanoids in clusters of five that overlap one another (contacts, islands).
Transform clusterPlacement(int i)
{
    const int cluster = i / 5, member = i % 5;
    const float cx = float(cluster % 2) * 6.f, cz = float(cluster / 2) * 6.f;
    return {Quat::fromAxisAngle({0.f, 1.f, 0.f}, 0.7f * float(member)),
            {cx + 0.25f * float(member), 0.3f + 0.9f * float(member), cz + 0.1f * float(member)}};
}

} // namespace

class TestWorld : public QObject {
    Q_OBJECT

private slots:
    void world_holdsThousandsOfRagdolls();
    void accumulator_carriesLeftoverAndBoundsStalls();
    void accumulator_maxSubstepsSetting();
    void world_emptyAndEmptiedWorldsStep();
    void sleep_humanoidSettlesWithin5s_data();
    void sleep_humanoidSettlesWithin5s();
    void sleepOff_restingHumanoidsStayCalm();
    void sleep_asleepIsFrozenAndWakes();
    void sleep_newGeometryWakes();
    void determinism_bitIdenticalAcrossWorldsAndThreads();
    void allocation_noneInStep_data();
    void allocation_noneInStep();
};

// ---------------------------------------------------------------------------------------------- accumulator

void TestWorld::accumulator_carriesLeftoverAndBoundsStalls()
{
    BUILD_RIG(humanoid, makeHumanoid());
    WorldSettings ws;
    ws.timeStep = 1.f / 60.f;
    World world(ws);
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    SPAWN_RAGDOLL(h, world, humanoid, (Transform{Quat{}, {0.f, 0.5f, 0.f}}));
    const float dt = world.settings().timeStep;

    QCOMPARE(world.advance(0.01f), 0u);
    QCOMPARE(world.stepCount(), std::uint64_t(0));
    const float a1 = world.interpolation();
    QVERIFY2(std::fabs(a1 - 0.01f / dt) < 1e-4f, qPrintable(QStringLiteral("interpolation %1 after 0.01 s, expected %2").arg(num(a1), num(0.01f / dt))));

    QCOMPARE(world.advance(0.01f), 1u);
    QCOMPARE(world.stepCount(), std::uint64_t(1));
    const float a2 = world.interpolation();
    const float expected2 = (0.02f - dt) / dt; // 0.2
    QVERIFY2(std::fabs(a2 - expected2) < 1e-4f, qPrintable(QStringLiteral("interpolation %1 after 0.02 s, expected %2").arg(num(a2), num(expected2))));

    // A 5 s stall: at most maxSubsteps steps, and the excess is dropped, not carried.
    const std::uint32_t maxSub = world.settings().maxSubsteps;
    const std::uint32_t stallSteps = world.advance(5.f);
    QVERIFY2(stallSteps == maxSub, qPrintable(QStringLiteral("a 5 s stall took %1 steps, maxSubsteps is %2").arg(stallSteps).arg(maxSub)));
    QCOMPARE(world.stepCount(), std::uint64_t(1 + maxSub));
    const float a3 = world.interpolation();
    QVERIFY2(a3 >= 0.f && a3 < 1.f, qPrintable(QStringLiteral("interpolation %1 after a stall").arg(num(a3))));
    QCOMPARE(world.advance(0.f), 0u);
    const std::uint32_t next = world.advance(dt);
    QVERIFY2(next == 1u, qPrintable(QStringLiteral("advance(dt) after a stall took %1 steps: the stall was carried over").arg(next)));
    const float a4 = world.interpolation();

    // Invalid time takes no step and leaves the accumulator alone.
    QCOMPARE(world.advance(std::numeric_limits<float>::quiet_NaN()), 0u);
    QCOMPARE(world.advance(-1.f), 0u);
    QCOMPARE(world.advance(-std::numeric_limits<float>::infinity()), 0u);
    const std::uint32_t inf = world.advance(std::numeric_limits<float>::infinity());
    QVERIFY2(inf == 0u, qPrintable(QStringLiteral("advance(+inf) took %1 steps").arg(inf)));
    QVERIFY2(world.interpolation() == a4, qPrintable(QStringLiteral("interpolation changed from %1 to %2 by invalid times").arg(num(a4), num(world.interpolation()))));
    QCOMPARE(world.stepCount(), std::uint64_t(2 + maxSub));

    // Over many frames of 1/144 s the step count matches elapsed time / dt (leftover carried).
    std::uint64_t before = world.stepCount();
    const float a5 = world.interpolation();
    for (int i = 0; i < 144; ++i)
        world.advance(1.f / 144.f);
    const double elapsedSteps = double(world.stepCount() - before) + double(world.interpolation()) - double(a5);
    QVERIFY2(std::fabs(elapsedSteps - 60.0) < 0.01, qPrintable(QStringLiteral("1 s in 144 frames advanced %1 steps, expected 60").arg(num(elapsedSteps))));
}

void TestWorld::accumulator_maxSubstepsSetting()
{
    BUILD_RIG(humanoid, makeHumanoid());
    WorldSettings ws;
    ws.maxSubsteps = 8;
    World world(ws);
    SPAWN_RAGDOLL(h, world, humanoid, Transform{});
    QCOMPARE(world.advance(5.f), 8u);
    QVERIFY2(world.interpolation() < 1.f, qPrintable(num(world.interpolation())));
    QCOMPARE(world.advance(0.f), 0u);
}

namespace {

/// Runs `body` in a child process and returns its exit status (-1 when it died on a signal), so that a
/// crash fails one test instead of ending the whole suite.
template <class F>
int runIsolated(F body, int* signalOut)
{
#if defined(Q_OS_UNIX)
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
        for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
            std::signal(sig, SIG_DFL); // no QtTest crash handler (stack dump) in the child
        body();
        ::_exit(0);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) {
        *signalOut = WTERMSIG(status);
        return -1;
    }
    return WEXITSTATUS(status);
#else
    body();
    *signalOut = 0;
    return 0;
#endif
}

} // namespace

void TestWorld::world_emptyAndEmptiedWorldsStep()
{
    // A world without ragdolls (never any, or all removed) steps and advances like any other.
    int signal = 0;
    int status = runIsolated([] {
        World world;
        world.addPlane({0.f, 1.f, 0.f}, 0.f);
        world.step();
        if (world.advance(0.05f) != 3u)
            ::_exit(2);
        if (world.stepCount() != 4u)
            ::_exit(3);
    }, &signal);
    QVERIFY2(status == 0, qPrintable(QStringLiteral("stepping a world that never had a ragdoll: exit %1, signal %2").arg(status).arg(signal)));
    status = runIsolated([] {
        const auto rig = Rig::build(makeHumanoid());
        World world;
        const RagdollHandle h = world.spawn(rig);
        world.step();
        if (!world.remove(h) || world.ragdollCount() != 0 || world.ragdoll(h) != nullptr)
            ::_exit(2);
        world.step();
        // A new ragdoll never reuses the removed handle.
        const RagdollHandle h2 = world.spawn(rig);
        if (h2 == h || world.ragdoll(h) != nullptr)
            ::_exit(3);
        world.step();
    }, &signal);
    QVERIFY2(status == 0, qPrintable(QStringLiteral("stepping a world whose ragdolls were removed: exit %1, signal %2").arg(status).arg(signal)));
}

// ---------------------------------------------------------------------------------------------- sleep

namespace {

/// Seeded random drops of a humanoid: yaw anywhere, tilt up to 86° about a horizontal axis, 0.3-2 m up.
/// An LCG, so the cases are the same on every platform.
class RandomDrops {
public:
    Transform next()
    {
        const Vec3 tiltAxis = normalizeOr(Vec3{uniform() - 0.5f, 0.f, uniform() - 0.5f}, Vec3{1.f, 0.f, 0.f});
        const Quat q = Quat::fromAxisAngle({0.f, 1.f, 0.f}, uniform() * 2.f * kPi) * Quat::fromAxisAngle(tiltAxis, uniform() * 1.5f);
        const float height = 0.3f + 1.7f * uniform();
        return {q, {0.f, height, 0.f}};
    }

private:
    float uniform()
    {
        mSeed = mSeed * 1664525u + 1013904223u;
        return float(mSeed >> 8) / float(1u << 24);
    }
    std::uint32_t mSeed = 12345u;
};

} // namespace

void TestWorld::sleep_humanoidSettlesWithin5s_data()
{
    QTest::addColumn<int>("drops");
    QTest::addColumn<int>("asleepBy5s");
    QTest::addColumn<int>("asleepBy10s");
    // Over 100 such drops 89-94 sleep within 5 s and 98-99 within 10 s (29 and 30 of these 30). One
    // trajectory is not a test of settling: a tiny numeric change reshuffles which few drops are slow, so
    // the test counts, with a margin.
    QTest::newRow("30 random drops, default settings") << 30 << 24 << 27;
}

// Humanoids dropped from 0.3-2 m in random orientations (fixed seed) onto a floor, default sleep settings
// (below 0.05 m/s for 1 s): most are asleep within 5 s, nearly all within 10 s.
void TestWorld::sleep_humanoidSettlesWithin5s()
{
    QFETCH(int, drops);
    QFETCH(int, asleepBy5s);
    QFETCH(int, asleepBy10s);
    BUILD_RIG(humanoid, makeHumanoid()); // default sleep settings
    RandomDrops random;
    int by5 = 0, by10 = 0;
    QStringList slow;
    for (int c = 0; c < drops; ++c) {
        World world;
        QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
        SPAWN_RAGDOLL(h, world, humanoid, random.next());
        const Ragdoll& r = *world.ragdoll(h);
        int asleepAt = -1;
        float lowest = 0.f;
        for (int i = 0; i < 600 && asleepAt < 0; ++i) {
            world.step();
            if (r.asleep())
                asleepAt = i + 1;
        }
        for (const Vec3& p : r.positions())
            lowest = std::min(lowest, p.y);
        QVERIFY2(lowest > -0.01f, qPrintable(QStringLiteral("drop %1: a particle is %2 m below the floor").arg(c).arg(num(-lowest))));
        by5 += asleepAt > 0 && asleepAt <= 300 ? 1 : 0;
        by10 += asleepAt > 0 ? 1 : 0;
        if (asleepAt < 0 || asleepAt > 300)
            slow << (asleepAt < 0 ? QStringLiteral("%1 (awake at 10 s)").arg(c) : QStringLiteral("%1 (%2 s)").arg(c).arg(num(float(asleepAt) / 60.f)));
    }
    qInfo("%d of %d drops asleep within 5 s, %d within 10 s", by5, drops, by10);
    QVERIFY2(by5 >= asleepBy5s && by10 >= asleepBy10s,
             qPrintable(QStringLiteral("%1 of %2 asleep within 5 s (expected >= %3), %4 within 10 s (expected >= %5); slow drops: %6")
                            .arg(by5).arg(drops).arg(asleepBy5s).arg(by10).arg(asleepBy10s).arg(slow.join(QStringLiteral(", ")))));
}

// With sleep off, the same drops must come to rest and stay there: the solver may not keep a resting body
// moving or feed it energy (constraints that fight each other turn their corrections into velocity).
// Counted over 30 drops: how many still move faster than 5 cm/s in their tenth second, and how many have
// more kinetic energy in their tenth second than in their fifth. Currently 0 and 0 of 30; holding static
// angular friction in every iteration made it 18 and 4, clamping the swing of hinges as well 9 and 1.
void TestWorld::sleepOff_restingHumanoidsStayCalm()
{
    rig::RigDescription d = makeHumanoid();
    d.settings.sleepTime = 0.f;
    BUILD_RIG(humanoid, d);
    const auto masses = humanoid->masses();
    RandomDrops random;
    const int drops = 30;
    int moving = 0, gaining = 0;
    QStringList cases;
    for (int c = 0; c < drops; ++c) {
        World world;
        QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
        SPAWN_RAGDOLL(h, world, humanoid, random.next());
        const Ragdoll& r = *world.ragdoll(h);
        float energy5 = 0.f, energy10 = 0.f, fastest = 0.f;
        for (int i = 0; i < 600; ++i) {
            world.step();
            if (i < 240 || (i >= 300 && i < 540))
                continue;
            float energy = 0.f;
            for (std::uint32_t k = 0; k < r.particleCount(); ++k) {
                const Vec3 v = r.velocity(k);
                energy += 0.5f * masses[k] * dot(v, v);
                if (i >= 540)
                    fastest = std::max(fastest, length(v));
            }
            (i < 300 ? energy5 : energy10) = std::max(i < 300 ? energy5 : energy10, energy);
        }
        const bool isMoving = fastest > 0.05f, isGaining = energy10 > energy5 && energy10 > 0.01f;
        moving += isMoving ? 1 : 0;
        gaining += isGaining ? 1 : 0;
        if (isMoving || isGaining)
            cases << QStringLiteral("%1 (%2 m/s, %3 J -> %4 J)").arg(c).arg(num(fastest), num(energy5), num(energy10));
    }
    qInfo("%d of %d drops still moving at 10 s, %d gained energy from 5 s to 10 s", moving, drops, gaining);
    QVERIFY2(moving <= 4 && gaining <= 2,
             qPrintable(QStringLiteral("%1 of %2 drops still moving after 10 s (expected <= 4), %3 gaining energy (expected <= 2): %4")
                            .arg(moving).arg(drops).arg(gaining).arg(cases.join(QStringLiteral(", ")))));
}

// Geometry added while a ragdoll sleeps may touch it: the world wakes it, and a box that appears through its
// body pushes it out on the next steps.
void TestWorld::sleep_newGeometryWakes()
{
    BUILD_RIG(humanoid, makeHumanoid());
    World world;
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    SPAWN_RAGDOLL(h, world, humanoid, lyingPlacement(0.3f));
    Ragdoll& r = *world.ragdoll(h);
    for (int i = 0; i < 900 && !r.asleep(); ++i)
        world.step();
    QVERIFY2(r.asleep(), "the lying humanoid did not fall asleep within 15 s");
    const Vec3 before = r.centreOfMass();
    QVERIFY(world.addBox({Quat{}, {before.x, 0.f, before.z}}, {0.6f, 0.25f, 0.6f}) >= 0);
    QVERIFY2(!r.asleep(), "adding a box through a sleeping ragdoll left it asleep");
    for (int i = 0; i < 30; ++i)
        world.step();
    QVERIFY2(r.centreOfMass().y > before.y + 0.1f,
             qPrintable(QStringLiteral("centre of mass rose from %1 to %2 m: the box did not push it out")
                            .arg(num(before.y), num(r.centreOfMass().y))));
}

// Wake-up rules, with a sleep threshold loose enough that the humanoid is sure to fall asleep (whether it
// settles under the default threshold is sleep_humanoidSettlesWithin5s's business).
void TestWorld::sleep_asleepIsFrozenAndWakes()
{
    rig::RigDescription desc = makeHumanoid();
    desc.settings.sleepVelocity = 0.15f;
    desc.settings.sleepTime = 0.5f;
    BUILD_RIG(humanoid, desc);
    World world;
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    SPAWN_RAGDOLL(h, world, humanoid, lyingPlacement(0.15f));
    Ragdoll& r = *world.ragdoll(h);
    auto sleepWithin = [&](int steps) {
        for (int i = 0; i < steps; ++i) {
            world.step();
            if (r.asleep())
                return i + 1;
        }
        return -1;
    };
    QVERIFY2(sleepWithin(300) > 0, qPrintable(QStringLiteral("not asleep after 5 s; fastest particle %1 m/s").arg(num(maxSpeed(r)))));

    // Asleep: positions stay bit-identical, the world reports no awake ragdoll.
    const std::vector<Vec3> still = snapshot(r);
    for (int i = 0; i < 60; ++i)
        world.step();
    QVERIFY(r.asleep());
    QVERIFY2(std::memcmp(still.data(), r.positions().data(), still.size() * sizeof(Vec3)) == 0, "a sleeping ragdoll moved");
    QCOMPARE(world.stats().awakeRagdolls, 0u);
    for (std::uint32_t k = 0; k < r.particleCount(); ++k)
        QVERIFY2(length(r.velocity(k)) == 0.f, qPrintable(QStringLiteral("sleeping particle %1 has velocity %2").arg(k).arg(str(r.velocity(k)))));

    // An impulse wakes it and it moves.
    QVERIFY(r.applyImpulse(kHead, {0.f, 20.f, 5.f}));
    QVERIFY(!r.asleep());
    world.step();
    QVERIFY(!r.asleep());
    QVERIFY2(length(r.positions()[kHead] - still[kHead]) > 1e-3f,
             qPrintable(QStringLiteral("head moved %1 m after an impulse").arg(num(length(r.positions()[kHead] - still[kHead])))));

    // A pin wakes it.
    QVERIFY2(sleepWithin(300) > 0, "not asleep again after the impulse");
    const Vec3 wrist = r.positions()[kWristL];
    QVERIFY(r.setPin(kWristL, wrist + Vec3{0.f, 0.3f, 0.f}));
    QVERIFY(!r.asleep());
    world.step();
    QVERIFY(!r.asleep());
    QVERIFY2(length(r.positions()[kWristL] - (wrist + Vec3{0.f, 0.3f, 0.f})) < 1e-5f, qPrintable(str(r.positions()[kWristL])));
    QVERIFY(r.releasePin(kWristL));

    // A ragdoll dropped onto it wakes it.
    QVERIFY2(sleepWithin(300) > 0, "not asleep again after the pin");
    const std::vector<Vec3> resting = snapshot(r);
    const Vec3 centre = r.centreOfMass();
    SPAWN_RAGDOLL(h2, world, humanoid, (Transform{Quat::fromAxisAngle({0.f, 1.f, 0.f}, 1.f) * lyingPlacement(0.f).rotation, {centre.x, 0.8f, centre.z}}));
    bool woke = false;
    for (int i = 0; i < 120 && !woke; ++i) {
        world.step();
        woke = !r.asleep();
    }
    QVERIFY2(woke, "a ragdoll falling onto a sleeping one did not wake it");
    float moved = 0.f;
    for (int k = 0; k < 30; ++k) { // the half second after the landing
        world.step();
        for (std::size_t i = 0; i < resting.size(); ++i)
            moved = std::max(moved, length(r.positions()[i] - resting[i]));
    }
    QVERIFY2(moved > 1e-3f, qPrintable(QStringLiteral("the woken ragdoll moved at most %1 m").arg(num(moved))));

    // wake() and setGravity() wake it too.
    QVERIFY2(sleepWithin(600) > 0, "not asleep again after being landed on");
    r.wake();
    QVERIFY(!r.asleep());
    QVERIFY2(sleepWithin(300) > 0, "not asleep again after wake()");
    QVERIFY(world.setGravity({0.f, -9.81f, 0.5f}));
    QVERIFY(!r.asleep());
}

// ---------------------------------------------------------------------------------------------- determinism

namespace {

struct ScriptedWorld {
    std::unique_ptr<World> world;
    std::vector<RagdollHandle> handles;
};

ScriptedWorld makeScriptedWorld(const std::shared_ptr<const Rig>& humanoid, std::uint32_t threads)
{
    WorldSettings ws;
    ws.threads = threads;
    ScriptedWorld s;
    s.world = std::make_unique<World>(ws);
    s.world->addPlane({0.f, 1.f, 0.f}, 0.f);
    s.world->addBox(Transform{Quat::fromAxisAngle({0.f, 0.f, 1.f}, 0.3f), {3.f, 0.2f, 3.f}}, {0.6f, 0.2f, 0.6f});
    for (int i = 0; i < 20; ++i)
        s.handles.push_back(s.world->spawn(humanoid, clusterPlacement(i)));
    return s;
}

/// The same inputs between steps for every world: impulses, explosions, pins.
void scriptInputs(ScriptedWorld& s, int step)
{
    World& w = *s.world;
    if (step % 23 == 0) {
        Ragdoll* r = w.ragdoll(s.handles[std::size_t(step / 23) % s.handles.size()]);
        r->applyImpulse(std::uint32_t(step / 7) % r->particleCount(), {40.f, 120.f, -30.f});
    }
    if (step % 97 == 40)
        w.applyExplosion({3.f, 0.2f, 3.f}, 30.f, 8.f);
    if (step % 150 == 10) {
        Ragdoll* r = w.ragdoll(s.handles[3]);
        r->setPin(kHead, r->positions()[kHead] + Vec3{0.f, 1.f, 0.f}, 0.5f, false);
    }
    if (step % 150 == 70)
        w.ragdoll(s.handles[3])->releasePin(kHead);
    if (step == 300)
        w.ragdoll(s.handles[7])->applyImpulseOnStick(4, 0.3f, {0.f, 50.f, 10.f});
}

bool samePositions(const ScriptedWorld& a, const ScriptedWorld& b, QString& why)
{
    for (std::size_t k = 0; k < a.handles.size(); ++k) {
        const Ragdoll* ra = a.world->ragdoll(a.handles[k]);
        const Ragdoll* rb = b.world->ragdoll(b.handles[k]);
        if (ra->positions().size() != rb->positions().size() ||
            std::memcmp(ra->positions().data(), rb->positions().data(), ra->positions().size_bytes()) != 0 ||
            std::memcmp(ra->previousPositions().data(), rb->previousPositions().data(), ra->previousPositions().size_bytes()) != 0) {
            for (std::size_t i = 0; i < ra->positions().size(); ++i)
                if (std::memcmp(&ra->positions()[i], &rb->positions()[i], sizeof(Vec3)) != 0) {
                    why = QStringLiteral("ragdoll %1 particle %2: %3 vs %4").arg(k).arg(i).arg(str(ra->positions()[i]), str(rb->positions()[i]));
                    return false;
                }
            why = QStringLiteral("ragdoll %1: previous positions differ").arg(k);
            return false;
        }
    }
    return true;
}

} // namespace

void TestWorld::determinism_bitIdenticalAcrossWorldsAndThreads()
{
    BUILD_RIG(humanoid, makeHumanoid());
    ScriptedWorld a = makeScriptedWorld(humanoid, 1);
    ScriptedWorld b = makeScriptedWorld(humanoid, 1);
    ScriptedWorld c = makeScriptedWorld(humanoid, 2);
    QCOMPARE(c.world->settings().threads, 2u);
    std::uint32_t maxContacts = 0, maxIslands = 0;
    for (int s = 0; s < 600; ++s) {
        scriptInputs(a, s);
        scriptInputs(b, s);
        scriptInputs(c, s);
        a.world->step();
        b.world->step();
        c.world->step();
        QString why;
        QVERIFY2(samePositions(a, b, why), qPrintable(QStringLiteral("step %1, two single-thread worlds differ: %2").arg(s).arg(why)));
        QVERIFY2(samePositions(a, c, why), qPrintable(QStringLiteral("step %1, 1 vs 2 threads differ: %2").arg(s).arg(why)));
        maxContacts = std::max(maxContacts, a.world->stats().ragdollContacts);
        maxIslands = std::max(maxIslands, a.world->stats().islands);
    }
    // The scenario did exercise contacts and several islands.
    QVERIFY2(maxContacts > 0, "no ragdoll contacts in the determinism scenario");
    QVERIFY2(maxIslands > 1, qPrintable(QStringLiteral("at most %1 island: nothing to run in parallel").arg(maxIslands)));
    for (RagdollHandle h : a.handles)
        QVERIFY(allFinite(*a.world->ragdoll(h)));
}

// ---------------------------------------------------------------------------------------------- allocation

void TestWorld::allocation_noneInStep_data()
{
    QTest::addColumn<std::uint32_t>("threads");
    QTest::newRow("1 thread") << 1u;
    QTest::newRow("2 threads") << 2u;
}

void TestWorld::allocation_noneInStep()
{
    QFETCH(std::uint32_t, threads);
    BUILD_RIG(humanoid, makeHumanoid());
    BUILD_RIG(crate, makeCrate({0.2f, 0.15f, 0.25f}, 8.f));
    WorldSettings ws;
    ws.threads = threads;
    World world(ws);
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    // A triangle-mesh terrain (8 × 8 cells, bumpy) and boxes.
    std::vector<Vec3> v;
    std::vector<std::uint32_t> idx;
    for (int j = 0; j <= 8; ++j)
        for (int i = 0; i <= 8; ++i)
            v.push_back({float(i) * 2.f - 8.f, 0.05f * float((i * 7 + j * 3) % 5), float(j) * 2.f - 8.f});
    for (int j = 0; j < 8; ++j)
        for (int i = 0; i < 8; ++i) {
            const std::uint32_t a = std::uint32_t(j * 9 + i);
            idx.insert(idx.end(), {a, a + 9, a + 1, a + 1, a + 9, a + 10});
        }
    std::string error;
    QVERIFY2(world.addTriangleMesh(v, idx, &error) >= 0, error.c_str());
    QVERIFY(world.addBox(Transform{Quat{}, {1.f, 0.3f, 1.f}}, {0.5f, 0.3f, 0.5f}) >= 0);
    QVERIFY(world.addBox(Transform{Quat::fromAxisAngle({0.f, 1.f, 0.f}, 0.5f), {-3.f, 0.2f, 2.f}}, {1.f, 0.2f, 0.3f}) >= 0);
    QVERIFY(world.addSphere({4.f, 0.f, -4.f}, 0.5f) >= 0);
    QVERIFY(world.addCapsule({-4.f, 0.2f, -4.f}, {-2.f, 0.2f, -4.f}, 0.2f) >= 0);
    std::vector<RagdollHandle> handles;
    for (int i = 0; i < 20; ++i) {
        const RagdollHandle h = world.spawn(humanoid, clusterPlacement(i), {}, &error);
        QVERIFY2(h != kInvalidRagdoll, error.c_str());
        handles.push_back(h);
    }
    for (int i = 0; i < 4; ++i) {
        const RagdollHandle h = world.spawn(crate, Transform{Quat{}, {float(i) - 2.f, 3.f + float(i), 0.5f}}, {}, &error);
        QVERIFY2(h != kInvalidRagdoll, error.c_str());
        handles.push_back(h);
    }
    for (int i = 0; i < 10; ++i)
        world.step(); // warm up
    // Three ragdolls driven toward another's pose: motors, pins and a kinematic part, blends between gains.
    std::vector<rig::DriveGains> gains(humanoid->driveParts().size());
    for (rig::DriveGains& g : gains) {
        g.motorFrequency = 6.f;
        g.maxTorque = 200.f;
    }
    gains[kPelvisTri].pinFrequency = 2.f;
    gains[kShinLTri].kinematic = true;
    for (std::size_t k = 3; k < 6; ++k)
        QVERIFY(world.ragdoll(handles[k])->setDriveGains(gains));
    std::vector<Mat4> palette(humanoid->bones().size());

    std::uint64_t stepAllocations = 0, stepFrees = 0, controlAllocations = 0, controlFrees = 0;
    int firstStepWithAllocation = -1;
    for (int s = 0; s < 200; ++s) {
        // Motion control between steps (counted separately).
        gAllocations = 0;
        gFrees = 0;
        gCountAllocations = true;
        Ragdoll* r = world.ragdoll(handles[std::size_t(s) % 20]);
        r->applyImpulse(std::uint32_t(s) % r->particleCount(), {10.f, 60.f, 0.f});
        if (s % 20 == 0)
            world.applyExplosion({0.f, 0.f, 0.f}, 20.f, 6.f);
        Ragdoll* pinned = world.ragdoll(handles[1]);
        if (s % 40 == 5)
            pinned->setPin(kHead, pinned->positions()[kHead] + Vec3{0.f, 0.5f, 0.f}, 1.f, true);
        if (s % 40 == 25)
            pinned->releasePin(kHead);
        if (s % 40 == 6)
            world.ragdoll(handles[2])->setPin(kWristL, {0.f, 2.f, 0.f}, 0.3f, false);
        if (s % 40 == 30)
            world.ragdoll(handles[2])->releasePin(kWristL);
        world.ragdoll(handles[6])->boneMatrices(palette);
        for (std::size_t k = 3; k < 6; ++k)
            world.ragdoll(handles[k])->setPoseTarget(palette);
        if (s == 100)
            world.ragdoll(handles[4])->goLimp(0.5f);
        if (s == 150)
            world.ragdoll(handles[4])->setDriveGains(gains, 0.3f);
        if (s == 170)
            world.ragdoll(handles[5])->clearPoseTarget();
        gCountAllocations = false;
        controlAllocations += gAllocations.load();
        controlFrees += gFrees.load();

        gAllocations = 0;
        gFrees = 0;
        gCountAllocations = true;
        world.step();
        gCountAllocations = false;
        const std::uint64_t n = gAllocations.load();
        if (n > 0 && firstStepWithAllocation < 0)
            firstStepWithAllocation = s;
        stepAllocations += n;
        stepFrees += gFrees.load();
    }
    QVERIFY2(stepAllocations == 0,
             qPrintable(QStringLiteral("%1 allocations (%2 frees) inside 200 steps on %3 thread(s), first at step %4")
                            .arg(stepAllocations).arg(stepFrees).arg(threads).arg(firstStepWithAllocation)));
    QVERIFY2(stepFrees == 0, qPrintable(QStringLiteral("%1 frees inside 200 steps").arg(stepFrees)));
    QVERIFY2(controlAllocations == 0,
             qPrintable(QStringLiteral("%1 allocations (%2 frees) in impulses/explosions/pins between steps").arg(controlAllocations).arg(controlFrees)));
    // Sanity: the counter works.
    gAllocations = 0;
    gCountAllocations = true;
    auto* probe = new std::vector<int>(100);
    gCountAllocations = false;
    delete probe;
    QVERIFY2(gAllocations.load() >= 2, qPrintable(QStringLiteral("allocation counter saw %1 allocations for a new vector").arg(gAllocations.load())));
}

// A world holds thousands of ragdolls: 2,500 humanoids in rows of 50 on a floor, 1.5 m apart, two threads.
// Neighbours in a row touch when they fall over, so pairs and islands exist but stay local: every ragdoll is
// stepped, ends finite and on the floor, and the broadphase reports a pair count of the order of the
// ragdoll count, not of its square.
void TestWorld::world_holdsThousandsOfRagdolls()
{
    BUILD_RIG(humanoid, makeHumanoid());
    WorldSettings ws;
    ws.threads = 2;
    World world(ws);
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    constexpr int kSide = 50;
    std::vector<RagdollHandle> handles;
    for (int j = 0; j < kSide; ++j)
        for (int i = 0; i < kSide; ++i) {
            SPAWN_RAGDOLL(h, world, humanoid, (Transform{Quat{}, {1.5f * float(i), 0.2f, 1.5f * float(j)}}));
            handles.push_back(h);
        }
    QCOMPARE(world.ragdollCount(), std::size_t(kSide * kSide));
    std::uint32_t maxPairs = 0;
    for (int s = 0; s < 90; ++s) {
        world.step();
        maxPairs = std::max(maxPairs, world.stats().ragdollPairs);
    }
    QVERIFY2(maxPairs < 8u * kSide * kSide,
             qPrintable(QStringLiteral("%1 broadphase pairs among %2 ragdolls").arg(maxPairs).arg(kSide * kSide)));
    for (RagdollHandle h : handles) {
        const Ragdoll* r = world.ragdoll(h);
        QVERIFY(r);
        for (std::uint32_t k = 0; k < r->particleCount(); ++k) {
            const Vec3 p = r->positions()[k];
            QVERIFY2(isFinite(p) && p.y - r->rig().radii()[k] >= -0.01f,
                     qPrintable(QStringLiteral("particle %1 at (%2, %3, %4)").arg(k).arg(double(p.x)).arg(double(p.y)).arg(double(p.z))));
        }
    }
}

QTEST_APPLESS_MAIN(TestWorld)
#include "tst_world.moc"
