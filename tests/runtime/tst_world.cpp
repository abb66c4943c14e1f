// World-level tests of the Marionette runtime through its public API: the fixed-step accumulator, sleep and
// wake, bit-exact determinism (also across thread counts), no heap allocation inside step(), degenerate
// input, validation messages, the bone palette, motion control and a rigid prop. Every assertion on a
// number prints the measured value.
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
#include <iterator>
#include <limits>
#include <memory>
#include <new>
#include <random>
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

namespace {

/// Current and previous positions finite.
bool allFinite(const Ragdoll& r) { return allPointsFinite(r.positions()) && allPointsFinite(r.previousPositions()); }

float maxMatrixDifference(const Mat4& a, const Mat4& b)
{
    float m = 0.f;
    for (int i = 0; i < 16; ++i)
        m = std::max(m, std::fabs(a.m[i] - b.m[i]));
    return m;
}

bool finiteMatrix(const Mat4& a)
{
    for (float v : a.m)
        if (!std::isfinite(v))
            return false;
    return true;
}

Vec3 translationOf(const Mat4& a) { return {a.m[12], a.m[13], a.m[14]}; }

/// Copy of a ragdoll's positions.
std::vector<Vec3> snapshot(const Ragdoll& r) { return {r.positions().begin(), r.positions().end()}; }

/// A rig of `points` unconnected 1 kg particles (radius 0: no contacts among them).
rig::RigDescription pointsRig(std::initializer_list<Vec3> points)
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

/// A small, valid rig exercising every list: 4 particles, a stick, two triangles sharing an edge, an
/// angular constraint between them, an angle constraint, a pin, a box, two bones and a binding.
rig::RigDescription validSmallRig()
{
    rig::RigDescription d = pointsRig({{0.f, 0.f, 0.f}, {0.f, 1.f, 0.f}, {1.f, 0.f, 0.f}, {0.f, 0.f, 1.f}});
    d.name = "small";
    rig::Stick s;
    s.name = "s0";
    s.a = 0;
    s.b = 1;
    d.sticks.push_back(s);
    for (int k = 0; k < 2; ++k) {
        rig::Triangle t;
        t.p[0] = 0;
        t.p[1] = 1;
        t.p[2] = 2 + k;
        d.triangles.push_back(t);
    }
    rig::AngularConstraint a;
    a.name = "a0";
    a.triangleA = 0;
    a.triangleB = 1;
    d.angular.push_back(a);
    rig::AngleConstraint ang;
    ang.name = "angle0";
    ang.center = 0;
    ang.a = 1;
    ang.b = 2;
    d.angles.push_back(ang);
    rig::Shape box;
    box.name = "box0";
    box.tetra[0] = 0; box.tetra[1] = 1; box.tetra[2] = 2; box.tetra[3] = 3;
    d.shapes.push_back(box);
    for (int k = 0; k < 2; ++k) {
        rig::Bone bone;
        bone.parent = k - 1;
        d.bones.push_back(bone);
    }
    rig::BoneBinding b;
    b.bone = 0;
    b.index = 0;
    d.bindings.push_back(b);
    return d;
}

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
    void accumulator_carriesLeftoverAndBoundsStalls();
    void accumulator_maxSubstepsSetting();
    void world_emptyAndEmptiedWorldsStep();
    void sleep_humanoidSettlesWithin5s_data();
    void sleep_humanoidSettlesWithin5s();
    void sleep_asleepIsFrozenAndWakes();
    void determinism_bitIdenticalAcrossWorldsAndThreads();
    void allocation_noneInStep_data();
    void allocation_noneInStep();
    void degenerate_coincidingAndZeroLength();
    void degenerate_collinearTriangleRefused();
    void degenerate_refusedInputs();
    void degenerate_randomAbuseStaysFinite();
    void validation_messagesNameTheElement_data();
    void validation_messagesNameTheElement();
    void bones_bindPoseIsIdentityPalette();
    void bones_followRigidMotion();
    void bones_interpolateHalfway();
    void motion_impulseChangesVelocityByJOverM();
    void motion_impulseOnStickSplitsBarycentric();
    void motion_explosionFallsOffWithSquaredDistance();
    void motion_setPoseInheritsVelocity();
    void motion_kinematicPinHoldsExactly();
    void motion_softPinApproachesTarget();
    void motion_releasePinRestoresMass();
    void rigidProp_crateKeepsShapeAndRestsOnFloor();
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

void TestWorld::sleep_humanoidSettlesWithin5s_data()
{
    QTest::addColumn<Transform>("placement");
    QTest::newRow("standing, dropped from 0.3 m") << Transform{Quat{}, {0.f, 0.3f, 0.f}};
    QTest::newRow("standing, dropped from 2 m") << Transform{Quat{}, {0.f, 2.f, 0.f}};
    QTest::newRow("lying on the floor") << lyingPlacement(0.15f);
}

void TestWorld::sleep_humanoidSettlesWithin5s()
{
    QFETCH(Transform, placement);
    BUILD_RIG(humanoid, makeHumanoid()); // default sleep settings
    World world;
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    SPAWN_RAGDOLL(h, world, humanoid, placement);
    Ragdoll& r = *world.ragdoll(h);
    float lastSecondMax = 0.f;
    std::uint32_t fastest = 0;
    for (int i = 0; i < 300 && !r.asleep(); ++i) {
        world.step();
        if (i >= 240)
            for (std::uint32_t k = 0; k < r.particleCount(); ++k)
                if (length(r.velocity(k)) > lastSecondMax) {
                    lastSecondMax = length(r.velocity(k));
                    fastest = k;
                }
    }
    QVERIFY2(r.asleep(), qPrintable(QStringLiteral("not asleep after 5 s (sleep below %1 m/s for %2 s); in the last second particle %3 '%4' moved at up to %5 m/s")
                                        .arg(num(humanoid->settings().sleepVelocity), num(humanoid->settings().sleepTime)).arg(fastest)
                                        .arg(QString::fromStdString(humanoid->description().particles[fastest].name), num(lastSecondMax))));
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
    for (int i = 0; i < 10; ++i)
        world.step();
    float moved = 0.f;
    for (std::size_t i = 0; i < resting.size(); ++i)
        moved = std::max(moved, length(r.positions()[i] - resting[i]));
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

// ---------------------------------------------------------------------------------------------- degenerate input

void TestWorld::degenerate_coincidingAndZeroLength()
{
    // Two particles at the same spot joined by a 0.3 m stick: they must separate, finitely.
    rig::RigDescription coinciding = pointsRig({{0.f, 1.f, 0.f}, {0.f, 1.f, 0.f}});
    rig::Stick s;
    s.a = 0;
    s.b = 1;
    s.restLength = 0.3f;
    coinciding.sticks.push_back(s);
    BUILD_RIG(coincidingRig, coinciding);
    // Two particles 0.3 m apart joined by a zero-length stick: they collapse onto one point, finitely.
    rig::RigDescription zero = pointsRig({{0.f, 1.f, 0.f}, {0.3f, 1.f, 0.f}});
    s.restLength = 0.f;
    zero.sticks.push_back(s);
    BUILD_RIG(zeroRig, zero);
    // A zero-length stick from the bind pose (coinciding particles, rest length = bind distance = 0).
    rig::RigDescription bindZero = pointsRig({{0.f, 1.f, 0.f}, {0.f, 1.f, 0.f}});
    s.restLength = -1.f;
    bindZero.sticks.push_back(s);
    BUILD_RIG(bindZeroRig, bindZero);

    World world;
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    SPAWN_RAGDOLL(a, world, coincidingRig, Transform{});
    SPAWN_RAGDOLL(b, world, zeroRig, (Transform{Quat{}, {2.f, 0.f, 0.f}}));
    SPAWN_RAGDOLL(c, world, bindZeroRig, (Transform{Quat{}, {4.f, 0.f, 0.f}}));
    for (int i = 0; i < 120; ++i) {
        world.step();
        for (RagdollHandle h : {a, b, c})
            QVERIFY2(allFinite(*world.ragdoll(h)), qPrintable(QStringLiteral("non-finite at step %1").arg(i)));
    }
    const Ragdoll& ra = *world.ragdoll(a);
    const float la = length(ra.positions()[1] - ra.positions()[0]);
    QVERIFY2(std::fabs(la - 0.3f) < 0.01f, qPrintable(QStringLiteral("coinciding particles separated to %1 m, stick length 0.3").arg(num(la))));
    const Ragdoll& rb = *world.ragdoll(b);
    const float lb = length(rb.positions()[1] - rb.positions()[0]);
    QVERIFY2(lb < 0.01f, qPrintable(QStringLiteral("zero-length stick holds its ends %1 m apart").arg(num(lb))));

    // A humanoid whose particles all coincide (every stick zero, every triangle degenerate) stays finite.
    BUILD_RIG(humanoid, makeHumanoid());
    SPAWN_RAGDOLL(hh, world, humanoid, (Transform{Quat{}, {-3.f, 0.f, 0.f}}));
    Ragdoll& rh = *world.ragdoll(hh);
    std::vector<Vec3> same(rh.particleCount(), Vec3{-3.f, 1.f, 0.f});
    QVERIFY(rh.setPose(same, same));
    // Also a pose where each limb triangle is collinear.
    for (int i = 0; i < 240; ++i) {
        world.step();
        QVERIFY2(allFinite(rh), qPrintable(QStringLiteral("collapsed humanoid non-finite at step %1").arg(i)));
        if (i == 120) {
            std::vector<Vec3> line(rh.particleCount());
            for (std::uint32_t k = 0; k < rh.particleCount(); ++k)
                line[k] = {-3.f + 0.1f * float(k), 1.f, 0.f};
            QVERIFY(rh.setPose(line, line));
        }
    }
    std::vector<Mat4> bones(humanoid->bones().size());
    QVERIFY(rh.boneMatrices(bones));
    for (std::size_t i = 0; i < bones.size(); ++i)
        QVERIFY2(finiteMatrix(bones[i]), qPrintable(QStringLiteral("bone %1 matrix not finite after degenerate poses").arg(i)));
}

void TestWorld::degenerate_collinearTriangleRefused()
{
    rig::RigDescription d = pointsRig({{0.f, 0.f, 0.f}, {1.f, 0.f, 0.f}, {2.f, 0.f, 0.f}});
    rig::Triangle t;
    t.name = "flat";
    t.p[0] = 0; t.p[1] = 1; t.p[2] = 2;
    d.triangles.push_back(t);
    std::string error;
    const auto rig = Rig::build(d, &error);
    QVERIFY2(!rig, "a collinear triangle was accepted");
    QVERIFY2(error.find("triangles[0]") != std::string::npos, error.c_str());
    // The same for coinciding corners.
    d.particles[2].position = d.particles[1].position;
    error.clear();
    QVERIFY(!Rig::build(d, &error));
    QVERIFY2(error.find("triangles[0]") != std::string::npos, error.c_str());
}

void TestWorld::degenerate_refusedInputs()
{
    BUILD_RIG(humanoid, makeHumanoid());
    World world;
    SPAWN_RAGDOLL(h, world, humanoid, Transform{});
    Ragdoll& r = *world.ragdoll(h);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<Vec3> before = snapshot(r);
    const std::vector<Vec3> prevBefore(r.previousPositions().begin(), r.previousPositions().end());

    QVERIFY2(!r.applyImpulse(kHead, {nan, 0.f, 0.f}), "NaN impulse accepted");
    QVERIFY2(!r.applyImpulse(kHead, {0.f, inf, 0.f}), "Inf impulse accepted");
    QVERIFY2(!r.applyImpulse(r.particleCount(), {0.f, 1.f, 0.f}), "impulse on particle out of range accepted");
    QVERIFY2(!r.applyImpulseOnStick(0, 0.5f, {nan, 0.f, 0.f}), "NaN stick impulse accepted");
    QVERIFY2(!r.applyImpulseOnStick(0, nan, {0.f, 1.f, 0.f}), "NaN stick parameter accepted");
    QVERIFY2(!r.applyImpulseOnStick(0, 1.5f, {0.f, 1.f, 0.f}), "stick parameter 1.5 accepted");
    QVERIFY2(!r.applyImpulseOnStick(std::uint32_t(humanoid->description().sticks.size()), 0.5f, {0.f, 1.f, 0.f}), "stick out of range accepted");
    QVERIFY2(!r.addVelocity({nan, 0.f, 0.f}), "NaN velocity accepted");
    QVERIFY2(!r.setPin(kHead, {inf, 0.f, 0.f}), "Inf pin target accepted");
    QVERIFY2(!r.setPin(kHead, {0.f, nan, 0.f}), "NaN pin target accepted");
    QVERIFY2(!r.setPin(kHead, {0.f, 1.f, 0.f}, 0.f), "pin stiffness 0 accepted");
    QVERIFY2(!r.setPin(kHead, {0.f, 1.f, 0.f}, nan), "pin stiffness NaN accepted");
    QVERIFY2(!r.applyExplosion({nan, 0.f, 0.f}, 1.f, 1.f), "NaN explosion centre accepted");
    QVERIFY2(!r.applyExplosion({0.f, 0.f, 0.f}, inf, 1.f), "Inf explosion strength accepted");
    std::vector<Vec3> bad = before;
    bad[3].y = nan;
    QVERIFY2(!r.setPose(bad, before), "setPose with NaN accepted");
    QVERIFY2(!r.setPose(std::span<const Vec3>(before.data(), before.size() - 1), before), "setPose with too few points accepted");
    QVERIFY2(!world.setGravity({0.f, nan, 0.f}), "NaN gravity accepted");
    // Refused calls changed nothing.
    QVERIFY2(std::memcmp(before.data(), r.positions().data(), before.size() * sizeof(Vec3)) == 0, "refused calls moved particles");
    QVERIFY2(std::memcmp(prevBefore.data(), r.previousPositions().data(), prevBefore.size() * sizeof(Vec3)) == 0,
             "refused calls changed velocities");
    QCOMPARE(r.inverseMasses()[kHead], humanoid->inverseMasses()[kHead]);

    // A huge but finite impulse is accepted and the world stays finite.
    QVERIFY(r.applyImpulse(kHead, {1e30f, -1e30f, 1e30f}));
    for (int i = 0; i < 30; ++i) {
        world.step();
        QVERIFY2(allFinite(r), qPrintable(QStringLiteral("non-finite after a 1e30 impulse, step %1").arg(i)));
    }
    // Explosion centred exactly on a particle.
    QVERIFY(r.applyExplosion(r.positions()[kSpine], 50.f, 2.f));
    for (int i = 0; i < 30; ++i) {
        world.step();
        QVERIFY2(allFinite(r), qPrintable(QStringLiteral("non-finite after an explosion on a particle, step %1").arg(i)));
    }
    // Static geometry with bad parameters is refused with a message.
    std::string error;
    QCOMPARE(world.addPlane({0.f, 0.f, 0.f}, 0.f, &error), -1);
    QVERIFY(!error.empty());
    QCOMPARE(world.addSphere({0.f, 0.f, 0.f}, -1.f), -1);
    QCOMPARE(world.addBox(Transform{}, {0.f, 1.f, 1.f}), -1);
    const Vec3 tri[3] = {{0.f, 0.f, 0.f}, {1.f, 0.f, 0.f}, {0.f, 0.f, 1.f}};
    const std::uint32_t badIndex[3] = {0, 1, 5};
    QCOMPARE(world.addTriangleMesh(tri, badIndex), -1);
}

void TestWorld::degenerate_randomAbuseStaysFinite()
{
    BUILD_RIG(humanoid, makeHumanoid());
    rig::RigDescription pair = pointsRig({{0.f, 1.f, 0.f}, {0.f, 1.f, 0.f}});
    rig::Stick s;
    s.a = 0;
    s.b = 1;
    s.restLength = 0.2f;
    s.capsuleRadius = 0.05f;
    pair.sticks.push_back(s);
    BUILD_RIG(pairRig, pair);
    rig::RigDescription zero = pointsRig({{0.f, 1.f, 0.f}, {0.2f, 1.f, 0.f}, {0.1f, 1.2f, 0.f}});
    for (int k = 0; k < 3; ++k) {
        rig::Stick z;
        z.a = k;
        z.b = (k + 1) % 3;
        z.restLength = 0.f;
        zero.sticks.push_back(z);
    }
    BUILD_RIG(zeroRig, zero);
    BUILD_RIG(crate, makeCrate({0.2f, 0.2f, 0.2f}, 5.f));

    World world;
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    const Vec3 tri[4] = {{-3.f, 0.5f, -3.f}, {3.f, 0.5f, -3.f}, {3.f, 0.5f, 3.f}, {-3.f, 0.5f, 3.f}};
    const std::uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    QVERIFY(world.addTriangleMesh(tri, idx) >= 0);
    std::vector<RagdollHandle> handles;
    for (int i = 0; i < 3; ++i) {
        SPAWN_RAGDOLL(h, world, humanoid, (Transform{Quat{}, {float(i) * 0.4f, 1.f, 0.f}}));
        handles.push_back(h);
    }
    for (const auto& extra : {pairRig, zeroRig, crate}) {
        const RagdollHandle h = world.spawn(extra, Transform{Quat{}, {0.f, 2.f, 0.2f}});
        QVERIFY(h != kInvalidRagdoll);
        handles.push_back(h);
    }

    std::mt19937 rng(12345u);
    auto uniform = [&] { return float(rng() >> 8) * (1.f / 16777216.f); };
    int refusedNaN = 0, hugeAccepted = 0;
    for (int step = 0; step < 10000; ++step) {
        Ragdoll& r = *world.ragdoll(handles[rng() % handles.size()]);
        const std::uint32_t p = std::uint32_t(rng() % r.particleCount());
        const Vec3 dir = normalizeOr({uniform() - 0.5f, uniform() - 0.5f, uniform() - 0.5f}, {0.f, 1.f, 0.f});
        switch (rng() % 8) {
        case 0: { // any magnitude from 1e-3 to 1e30
            const float mag = std::pow(10.f, -3.f + 33.f * uniform());
            if (r.applyImpulse(p, dir * mag) && mag > 1e20f)
                ++hugeAccepted;
            break;
        }
        case 1:
            if (!r.applyImpulse(p, {std::numeric_limits<float>::quiet_NaN(), 1.f, 0.f}))
                ++refusedNaN;
            else
                QFAIL(qPrintable(QStringLiteral("step %1: NaN impulse accepted").arg(step)));
            break;
        case 2:
            QVERIFY2(!r.setPin(p, {std::numeric_limits<float>::infinity(), 0.f, 0.f}),
                     qPrintable(QStringLiteral("step %1: Inf pin target accepted").arg(step)));
            break;
        case 3: // explosion exactly at a particle
            r.applyExplosion(r.positions()[p], std::pow(10.f, 6.f * uniform()), 3.f, 0.25f);
            break;
        case 4:
            r.applyImpulseOnStick(std::uint32_t(rng() % std::max<std::size_t>(1, r.rig().description().sticks.size())),
                                  uniform(), dir * std::pow(10.f, 4.f * uniform()));
            break;
        case 5:
            if (uniform() < 0.05f)
                r.setPin(p, r.positions()[p] + dir, uniform() * 0.9f + 0.1f, uniform() < 0.5f);
            else
                r.releasePin(p);
            break;
        default:
            break;
        }
        world.step();
        for (RagdollHandle h : handles) {
            const Ragdoll& q = *world.ragdoll(h);
            if (!allFinite(q))
                QFAIL(qPrintable(QStringLiteral("step %1: ragdoll %2 has a non-finite position").arg(step).arg(h)));
        }
        if (step % 1000 == 999) // occasionally bring everyone back so they keep colliding
            for (std::size_t k = 0; k < handles.size(); ++k)
                world.ragdoll(handles[k])->resetToBindPose(Transform{Quat{}, {0.3f * float(k), 1.f, 0.f}});
    }
    QVERIFY2(refusedNaN > 100, qPrintable(QStringLiteral("only %1 NaN impulses tried").arg(refusedNaN)));
    QVERIFY2(hugeAccepted > 10, qPrintable(QStringLiteral("only %1 huge impulses accepted").arg(hugeAccepted)));
    for (RagdollHandle h : handles) {
        const Ragdoll& q = *world.ragdoll(h);
        std::vector<Mat4> bones(q.rig().bones().size());
        QVERIFY(q.boneMatrices(bones));
        for (const Mat4& m : bones)
            QVERIFY2(finiteMatrix(m), "non-finite bone matrix after random abuse");
    }
}

// ---------------------------------------------------------------------------------------------- validation

namespace {

struct ValidationCase {
    const char* name;
    void (*mutate)(rig::RigDescription&);
    const char* expect1;
    const char* expect2;
};

const ValidationCase kValidationCases[] = {
    {"stick index out of range", [](rig::RigDescription& d) { d.sticks[0].b = 7; }, "sticks[0]", "out of range"},
    {"stick negative index", [](rig::RigDescription& d) { d.sticks[0].a = -2; }, "sticks[0]", "out of range"},
    {"stick same particle twice", [](rig::RigDescription& d) { d.sticks[0].b = 0; }, "sticks[0]", "same particle"},
    {"stick stiffness 0", [](rig::RigDescription& d) { d.sticks[0].stiffness = 0.f; }, "sticks[0]", "stiffness"},
    {"stick range max below min",
     [](rig::RigDescription& d) {
         d.sticks[0].kind = rig::StickKind::Range;
         d.sticks[0].minLength = 1.f;
         d.sticks[0].maxLength = 0.5f;
     },
     "sticks[0]", "maxLength"},
    {"stick tear ratio 0.5", [](rig::RigDescription& d) { d.sticks[0].tearRatio = 0.5f; }, "sticks[0]", "tearRatio"},
    {"negative radius", [](rig::RigDescription& d) { d.particles[0].radius = -0.1f; }, "particles[0]", "radius"},
    {"mass NaN", [](rig::RigDescription& d) { d.particles[0].mass = std::numeric_limits<float>::quiet_NaN(); }, "particles[0]", "mass"},
    {"negative mass", [](rig::RigDescription& d) { d.particles[2].mass = -1.f; }, "particles[2]", "mass"},
    {"position Inf", [](rig::RigDescription& d) { d.particles[1].position.x = std::numeric_limits<float>::infinity(); }, "particles[1]", "position"},
    {"no particles", [](rig::RigDescription& d) { d = rig::RigDescription{}; }, "particles", "no particles"},
    {"angle same particle", [](rig::RigDescription& d) { d.angles[0].b = 0; }, "angles[0]", "same particle"},
    {"angle max below min",
     [](rig::RigDescription& d) {
         d.angles[0].minAngle = 1.f;
         d.angles[0].maxAngle = 0.5f;
     },
     "angles[0]", "maxAngle"},
    {"triangle index out of range", [](rig::RigDescription& d) { d.triangles[1].p[2] = 9; }, "triangles[1]", "out of range"},
    {"collinear triangle", [](rig::RigDescription& d) { d.particles[2].position = {0.f, 2.f, 0.f}; }, "triangles[0]", "degenerate"},
    {"angular same triangle twice", [](rig::RigDescription& d) { d.angular[0].triangleB = 0; }, "angular[0]", "same"},
    {"angular triangle out of range", [](rig::RigDescription& d) { d.angular[0].triangleB = 5; }, "angular[0]", "out of range"},
    {"angular twist max below min",
     [](rig::RigDescription& d) {
         d.angular[0].twistMin = 0.5f;
         d.angular[0].twistMax = -0.5f;
     },
     "angular[0]", "twistMax"},
    {"angular cone NaN", [](rig::RigDescription& d) { d.angular[0].coneAngle = std::numeric_limits<float>::quiet_NaN(); }, "angular[0]", "coneAngle"},
    {"pin target Inf", [](rig::RigDescription& d) {
         rig::Pin p;
         p.particle = 1;
         p.target = {0.f, std::numeric_limits<float>::infinity(), 0.f};
         d.pins.push_back(p);
     }, "pins[0]", "target"},
    {"pin particle out of range", [](rig::RigDescription& d) {
         rig::Pin p;
         p.particle = 4;
         d.pins.push_back(p);
     }, "pins[0]", "out of range"},
    {"shape flat tetrahedron", [](rig::RigDescription& d) { d.shapes[0].tetra[3] = d.shapes[0].tetra[2]; }, "shapes[0]", "flat"},
    {"shape zero half extent", [](rig::RigDescription& d) { d.shapes[0].halfExtents.y = 0.f; }, "shapes[0]", "halfExtents"},
    {"bone parent after itself", [](rig::RigDescription& d) { d.bones[0].parent = 1; }, "bones[0]", "parent"},
    {"bone parent itself", [](rig::RigDescription& d) { d.bones[1].parent = 1; }, "bones[1]", "parent"},
    {"bone matrix NaN", [](rig::RigDescription& d) { d.bones[1].bindWorld.m[5] = std::numeric_limits<float>::quiet_NaN(); }, "bones[1]", "finite"},
    {"binding bone out of range", [](rig::RigDescription& d) { d.bindings[0].bone = 2; }, "bindings[0]", "out of range"},
    {"binding triangle out of range", [](rig::RigDescription& d) { d.bindings[0].index = 2; }, "bindings[0]", "triangle"},
    {"bone bound twice", [](rig::RigDescription& d) { d.bindings.push_back(d.bindings[0]); }, "bindings[1]", "twice"},
    {"iterations 0", [](rig::RigDescription& d) { d.settings.iterations = 0; }, "settings", "iterations"},
    {"time step 0", [](rig::RigDescription& d) { d.settings.timeStep = 0.f; }, "settings", "timeStep"},
    {"drag 1", [](rig::RigDescription& d) { d.settings.drag = 1.f; }, "settings", "drag"},
    {"gravity NaN", [](rig::RigDescription& d) { d.settings.gravity.y = std::numeric_limits<float>::quiet_NaN(); }, "settings", "gravity"},
    {"friction negative", [](rig::RigDescription& d) { d.settings.friction = -1.f; }, "settings", "friction"},
};

} // namespace

void TestWorld::validation_messagesNameTheElement_data()
{
    QTest::addColumn<int>("index");
    for (int i = 0; i < int(std::size(kValidationCases)); ++i)
        QTest::newRow(kValidationCases[i].name) << i;
}

void TestWorld::validation_messagesNameTheElement()
{
    QFETCH(int, index);
    const ValidationCase& c = kValidationCases[index];
    rig::RigDescription d = validSmallRig();
    {
        std::string error;
        QVERIFY2(Rig::build(d, &error), qPrintable(QStringLiteral("the base rig is refused: ") + QString::fromStdString(error)));
    }
    c.mutate(d);
    std::string error;
    const auto rig = Rig::build(d, &error);
    QVERIFY2(!rig, qPrintable(QStringLiteral("'%1' was accepted").arg(QString::fromLatin1(c.name))));
    const QString message = QString::fromStdString(error);
    QVERIFY2(error.find(c.expect1) != std::string::npos,
             qPrintable(QStringLiteral("message '%1' lacks '%2'").arg(message, QString::fromLatin1(c.expect1))));
    QVERIFY2(error.find(c.expect2) != std::string::npos,
             qPrintable(QStringLiteral("message '%1' lacks '%2'").arg(message, QString::fromLatin1(c.expect2))));
    QVERIFY2(error.find('\n') == std::string::npos, qPrintable(QStringLiteral("message is not one line: '%1'").arg(message)));
    QVERIFY2(d.validate() == error, "validate() and Rig::build() disagree");
}

// ---------------------------------------------------------------------------------------------- bones

namespace {

/// Rigid transform used by the bone tests: rotate 90° about +Y, then translate by (1, 2, 3).
Transform rigidMove() { return {Quat::fromAxisAngle({0.f, 1.f, 0.f}, kPi / 2.f), {1.f, 2.f, 3.f}}; }

std::vector<Vec3> transformedBind(const Rig& rig, const Transform& t)
{
    std::vector<Vec3> out;
    for (const Vec3& p : rig.bindPositions())
        out.push_back(t.apply(p));
    return out;
}

const char* driverName(const BoneData& b)
{
    if (b.driver < 0)
        return "unbound";
    return b.driverKind == rig::BoneBinding::Driver::Triangle ? "triangle-driven" : "stick-driven";
}

} // namespace

void TestWorld::bones_bindPoseIsIdentityPalette()
{
    BUILD_RIG(humanoid, makeHumanoid());
    World world;
    SPAWN_RAGDOLL(h, world, humanoid, Transform{});
    const Ragdoll& r = *world.ragdoll(h);
    const std::size_t n = humanoid->bones().size();
    QVERIFY(n > 0);
    std::vector<Mat4> skin(n), bones(n);
    QVERIFY(r.skinningMatrices(skin));
    QVERIFY(r.boneMatrices(bones));
    QVERIFY(!r.boneMatrices(std::span<Mat4>(bones.data(), n - 1)));
    for (std::size_t i = 0; i < n; ++i) {
        const float ds = maxMatrixDifference(skin[i], Mat4{});
        QVERIFY2(ds <= 1e-5f, qPrintable(QStringLiteral("bone %1 (%2): skinning matrix differs from identity by %3").arg(i).arg(driverName(humanoid->bones()[i])).arg(num(ds))));
        const float db = maxMatrixDifference(bones[i], humanoid->description().bones[i].bindWorld);
        QVERIFY2(db <= 1e-5f, qPrintable(QStringLiteral("bone %1 (%2): bone matrix differs from bind by %3").arg(i).arg(driverName(humanoid->bones()[i])).arg(num(db))));
    }
}

void TestWorld::bones_followRigidMotion()
{
    BUILD_RIG(humanoid, makeHumanoid());
    WorldSettings ws;
    ws.gravity = {0.f, 0.f, 0.f};
    World world(ws);
    SPAWN_RAGDOLL(h, world, humanoid, Transform{});
    Ragdoll& r = *world.ragdoll(h);
    const Transform T = rigidMove();
    const std::vector<Vec3> pose = transformedBind(*humanoid, T);
    QVERIFY(r.setPose(pose, pose));
    world.step(); // no gravity and no velocity: the pose stays, the bones follow it
    const std::size_t n = humanoid->bones().size();
    std::vector<Mat4> bones(n), skin(n);
    QVERIFY(r.boneMatrices(bones));
    QVERIFY(r.skinningMatrices(skin));
    const Mat4 M = Mat4::fromTransform(T);
    int kinds[3] = {0, 0, 0};
    for (std::size_t i = 0; i < n; ++i) {
        const BoneData& b = humanoid->bones()[i];
        kinds[b.driver < 0 ? 2 : (b.driverKind == rig::BoneBinding::Driver::Triangle ? 0 : 1)]++;
        const Mat4 expected = M * humanoid->description().bones[i].bindWorld;
        const float d = maxMatrixDifference(bones[i], expected);
        QVERIFY2(d <= 1e-4f, qPrintable(QStringLiteral("bone %1 '%2' (%3): bone matrix off the rigid transform by %4; translation %5 vs %6")
                                           .arg(i).arg(QString::fromStdString(humanoid->description().bones[i].name)).arg(driverName(b)).arg(num(d))
                                           .arg(str(translationOf(bones[i])), str(translationOf(expected)))));
        const float ds = maxMatrixDifference(skin[i], M);
        QVERIFY2(ds <= 1e-4f, qPrintable(QStringLiteral("bone %1 (%2): skinning matrix off the rigid transform by %3").arg(i).arg(driverName(b)).arg(num(ds))));
    }
    QVERIFY2(kinds[0] > 0 && kinds[1] > 0 && kinds[2] > 0,
             qPrintable(QStringLiteral("bone kinds: %1 triangle, %2 stick, %3 unbound").arg(kinds[0]).arg(kinds[1]).arg(kinds[2])));
}

void TestWorld::bones_interpolateHalfway()
{
    BUILD_RIG(humanoid, makeHumanoid());
    WorldSettings ws;
    ws.gravity = {0.f, 0.f, 0.f};
    World world(ws);
    SPAWN_RAGDOLL(h, world, humanoid, Transform{});
    Ragdoll& r = *world.ragdoll(h);
    const Transform T1 = rigidMove();
    const Transform T2{T1.rotation, T1.translation + Vec3{0.6f, -0.2f, 0.4f}};
    const std::vector<Vec3> p1 = transformedBind(*humanoid, T1), p2 = transformedBind(*humanoid, T2);
    QVERIFY(r.setPose(p1, p1));
    world.step();
    QVERIFY(r.setPose(p2, p2));
    world.step();
    const std::size_t n = humanoid->bones().size();
    std::vector<Mat4> half(n);
    QVERIFY(r.boneMatrices(half, 0.5f));
    const Mat4 M1 = Mat4::fromTransform(T1), M2 = Mat4::fromTransform(T2);
    for (std::size_t i = 0; i < n; ++i) {
        const Mat4& bind = humanoid->description().bones[i].bindWorld;
        const Vec3 expected = lerp(translationOf(M1 * bind), translationOf(M2 * bind), 0.5f);
        const Vec3 got = translationOf(half[i]);
        QVERIFY2(length(got - expected) <= 1e-4f,
                 qPrintable(QStringLiteral("bone %1 (%2) at alpha 0.5: translation %3, expected halfway %4")
                                .arg(i).arg(driverName(humanoid->bones()[i])).arg(str(got), str(expected))));
    }
    // alpha 0 and 1 are the two poses.
    std::vector<Mat4> a0(n), a1(n);
    QVERIFY(r.boneMatrices(a0, 0.f));
    QVERIFY(r.boneMatrices(a1, 1.f));
    for (std::size_t i = 0; i < n; ++i) {
        const Mat4& bind = humanoid->description().bones[i].bindWorld;
        QVERIFY2(maxMatrixDifference(a0[i], M1 * bind) <= 1e-4f, qPrintable(QStringLiteral("bone %1 at alpha 0").arg(i)));
        QVERIFY2(maxMatrixDifference(a1[i], M2 * bind) <= 1e-4f, qPrintable(QStringLiteral("bone %1 at alpha 1").arg(i)));
    }
}

// ---------------------------------------------------------------------------------------------- motion control

void TestWorld::motion_impulseChangesVelocityByJOverM()
{
    BUILD_RIG(humanoid, makeHumanoid());
    World world;
    SPAWN_RAGDOLL(h, world, humanoid, Transform{});
    Ragdoll& r = *world.ragdoll(h);
    const Vec3 J{3.f, -6.f, 9.f};
    for (std::uint32_t i : {std::uint32_t(kHead), std::uint32_t(kWristL), std::uint32_t(kSpine)}) {
        const Vec3 before = r.velocity(i);
        QVERIFY(r.applyImpulse(i, J));
        const Vec3 dv = r.velocity(i) - before;
        const Vec3 expected = J / humanoid->masses()[i];
        QVERIFY2(length(dv - expected) <= 1e-3f * length(expected),
                 qPrintable(QStringLiteral("particle %1 (%2 kg): Δv %3, expected J/m = %4").arg(i).arg(num(humanoid->masses()[i])).arg(str(dv), str(expected))));
    }
    // Other particles are untouched.
    QVERIFY2(length(r.velocity(kAnkleL)) == 0.f, qPrintable(str(r.velocity(kAnkleL))));
}

void TestWorld::motion_impulseOnStickSplitsBarycentric()
{
    rig::RigDescription d = pointsRig({{0.f, 1.f, 0.f}, {1.f, 1.f, 0.f}});
    rig::Stick s;
    s.a = 0;
    s.b = 1;
    d.sticks.push_back(s);
    BUILD_RIG(stick, d);
    World world;
    SPAWN_RAGDOLL(h, world, stick, Transform{});
    Ragdoll& r = *world.ragdoll(h);
    const Vec3 J{0.f, 8.f, 0.f};
    QVERIFY(r.applyImpulseOnStick(0, 0.25f, J));
    const Vec3 va = r.velocity(0), vb = r.velocity(1);
    // Jakobsen §5 with weights c = (0.75, 0.25): Δvᵢ = wᵢ·cᵢ·J.
    QVERIFY2(length(va - J * 0.75f) <= 1e-3f, qPrintable(QStringLiteral("near end Δv %1, expected %2").arg(str(va), str(J * 0.75f))));
    QVERIFY2(length(vb - J * 0.25f) <= 1e-3f, qPrintable(QStringLiteral("far end Δv %1, expected %2").arg(str(vb), str(J * 0.25f))));
    QVERIFY2(std::fabs(va.y / vb.y - 3.f) <= 0.01f, qPrintable(QStringLiteral("ratio %1, expected 0.75/0.25 = 3").arg(num(va.y / vb.y))));

    // Unequal masses: Δvᵢ = cᵢ J / mᵢ.
    d.particles[1].mass = 3.f;
    BUILD_RIG(heavy, d);
    SPAWN_RAGDOLL(h2, world, heavy, (Transform{Quat{}, {0.f, 0.f, 2.f}}));
    Ragdoll& r2 = *world.ragdoll(h2);
    QVERIFY(r2.applyImpulseOnStick(0, 0.25f, J));
    QVERIFY2(length(r2.velocity(0) - J * 0.75f) <= 1e-3f, qPrintable(str(r2.velocity(0))));
    QVERIFY2(length(r2.velocity(1) - J * (0.25f / 3.f)) <= 1e-3f, qPrintable(str(r2.velocity(1))));
}

void TestWorld::motion_explosionFallsOffWithSquaredDistance()
{
    BUILD_RIG(points, pointsRig({{1.f, 0.f, 0.f}, {2.f, 0.f, 0.f}, {0.f, 0.f, 5.f}}));
    World world;
    SPAWN_RAGDOLL(h, world, points, Transform{});
    Ragdoll& r = *world.ragdoll(h);
    QVERIFY(r.applyExplosion({0.f, 0.f, 0.f}, 10.f, 3.f, 0.25f));
    const Vec3 v1 = r.velocity(0), v2 = r.velocity(1), v3 = r.velocity(2);
    QVERIFY2(length(v1 - Vec3{10.f, 0.f, 0.f}) <= 1e-3f, qPrintable(QStringLiteral("Δv at 1 m: %1, expected (10, 0, 0)").arg(str(v1))));
    QVERIFY2(length(v2 - Vec3{2.5f, 0.f, 0.f}) <= 1e-3f, qPrintable(QStringLiteral("Δv at 2 m: %1, expected (2.5, 0, 0)").arg(str(v2))));
    const float ratio = length(v1) / length(v2);
    QVERIFY2(std::fabs(ratio - 4.f) <= 4e-3f, qPrintable(QStringLiteral("ratio of Δv at 1 m and 2 m: %1, expected 4").arg(num(ratio))));
    QVERIFY2(length(v3) == 0.f, qPrintable(QStringLiteral("particle outside the radius got %1").arg(str(v3))));
}

void TestWorld::motion_setPoseInheritsVelocity()
{
    BUILD_RIG(humanoid, makeHumanoid());
    WorldSettings ws;
    ws.gravity = {0.f, 0.f, 0.f};
    World world(ws);
    SPAWN_RAGDOLL(h, world, humanoid, Transform{});
    Ragdoll& r = *world.ragdoll(h);
    const Vec3 v{1.5f, 0.5f, -2.f};
    const Transform now{Quat{}, {0.f, 1.f, 0.f}};
    const Transform before{Quat{}, now.translation - v * kDt};
    const std::vector<Vec3> current = transformedBind(*humanoid, now), previous = transformedBind(*humanoid, before);
    QVERIFY(r.setPose(current, previous));
    for (std::uint32_t i = 0; i < r.particleCount(); ++i)
        QVERIFY2(length(r.velocity(i) - v) <= 1e-3f, qPrintable(QStringLiteral("particle %1 velocity %2 after setPose, expected %3").arg(i).arg(str(r.velocity(i)), str(v))));
    const float k = humanoid->settings().drag;
    world.step();
    for (std::uint32_t i = 0; i < r.particleCount(); ++i) {
        const Vec3 expected = v * (1.f - k);
        QVERIFY2(length(r.velocity(i) - expected) <= 2e-3f,
                 qPrintable(QStringLiteral("particle %1 continues at %2, expected (1 − drag)·v = %3").arg(i).arg(str(r.velocity(i)), str(expected))));
    }
}

void TestWorld::motion_kinematicPinHoldsExactly()
{
    BUILD_RIG(humanoid, makeHumanoid());
    World world;
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    SPAWN_RAGDOLL(h, world, humanoid, (Transform{Quat{}, {0.f, 0.1f, 0.f}}));
    Ragdoll& r = *world.ragdoll(h);
    const Vec3 target{0.7f, 2.1f, 0.3f}; // lift the body by its wrist
    QVERIFY(r.setPin(kWristL, target));
    QCOMPARE(r.inverseMasses()[kWristL], 0.f);
    for (int i = 0; i < 120; ++i) {
        world.step();
        const Vec3 p = r.positions()[kWristL];
        QVERIFY2(p == target, qPrintable(QStringLiteral("step %1: pinned wrist at %2, target %3").arg(i).arg(str(p), str(target))));
    }
    // Dragging: a new target each step is reached exactly.
    for (int i = 0; i < 30; ++i) {
        const Vec3 t = target + Vec3{0.02f * float(i), 0.f, 0.f};
        QVERIFY(r.setPin(kWristL, t));
        world.step();
        QVERIFY2(r.positions()[kWristL] == t, qPrintable(QStringLiteral("dragged wrist at %1, target %2").arg(str(r.positions()[kWristL]), str(t))));
    }
    QVERIFY(allFinite(r));
    // The body hangs below the wrist.
    QVERIFY2(r.positions()[kAnkleL].y < target.y - 0.5f, qPrintable(QStringLiteral("ankle at %1").arg(str(r.positions()[kAnkleL]))));
}

void TestWorld::motion_softPinApproachesTarget()
{
    BUILD_RIG(humanoid, makeHumanoid());
    WorldSettings ws;
    ws.gravity = {0.f, 0.f, 0.f};
    World world(ws);
    SPAWN_RAGDOLL(h, world, humanoid, Transform{});
    Ragdoll& r = *world.ragdoll(h);
    const Vec3 target = r.positions()[kWristL] + Vec3{0.f, 0.5f, 0.3f};
    const float d0 = length(r.positions()[kWristL] - target);
    QVERIFY(r.setPin(kWristL, target, 0.2f, false));
    QVERIFY2(r.inverseMasses()[kWristL] == humanoid->inverseMasses()[kWristL], "a soft pin changed the inverse mass");
    world.step();
    const float d1 = length(r.positions()[kWristL] - target);
    QVERIFY2(d1 < d0 && d1 > 1e-3f, qPrintable(QStringLiteral("after one step the soft pin is %1 m from the target (started %2 m): expected a partial approach").arg(num(d1), num(d0))));
    // It closes in step after step at first...
    float last = d1;
    for (int i = 0; i < 4; ++i) {
        world.step();
        const float d = length(r.positions()[kWristL] - target);
        QVERIFY2(d < last, qPrintable(QStringLiteral("step %1: distance to the target %2 m, was %3 m").arg(i + 2).arg(num(d), num(last))));
        last = d;
    }
    // ...and then stays near it (the body it drags swings about the pinned wrist, so not monotonically).
    double sum = 0.0;
    float worst = 0.f;
    for (int i = 0; i < 120; ++i) {
        world.step();
        const float d = length(r.positions()[kWristL] - target);
        if (i >= 60) {
            sum += d;
            worst = std::max(worst, d);
        }
    }
    const double mean = sum / 60.0;
    QVERIFY2(mean < 0.05 * d0 && worst < 0.2f * d0,
             qPrintable(QStringLiteral("over the last second the soft pin is on average %1 m (at worst %2 m) from its target (started %3 m)")
                            .arg(num(mean), num(worst), num(d0))));
    QVERIFY(allFinite(r));
}

void TestWorld::motion_releasePinRestoresMass()
{
    BUILD_RIG(humanoid, makeHumanoid());
    World world;
    SPAWN_RAGDOLL(h, world, humanoid, Transform{});
    Ragdoll& r = *world.ragdoll(h);
    const float w = humanoid->inverseMasses()[kHead];
    QVERIFY(w > 0.f);
    QVERIFY(!r.releasePin(kHead)); // nothing to release
    QVERIFY(r.setPin(kHead, {0.f, 2.f, 0.f}));
    QCOMPARE(r.inverseMasses()[kHead], 0.f);
    world.step();
    QVERIFY(r.setPin(kHead, {0.f, 2.1f, 0.f})); // re-pinning keeps the saved mass
    QCOMPARE(r.inverseMasses()[kHead], 0.f);
    for (int i = 0; i < 60; ++i)
        world.step(); // held still: the head's velocity is zero
    QVERIFY2(length(r.velocity(kHead)) < 1e-4f, qPrintable(str(r.velocity(kHead))));
    QVERIFY(r.releasePin(kHead));
    QCOMPARE(r.inverseMasses()[kHead], w);
    QVERIFY2(length(r.velocity(kHead)) < 1e-4f, qPrintable(QStringLiteral("released head velocity %1: it should keep the velocity it had").arg(str(r.velocity(kHead)))));
    QVERIFY(!r.releasePin(kHead));
    // Kinematic → soft on the same particle restores the mass while still pinned.
    QVERIFY(r.setPin(kNose, {0.f, 2.f, 0.f}, 1.f, true));
    QCOMPARE(r.inverseMasses()[kNose], 0.f);
    QVERIFY(r.setPin(kNose, {0.f, 2.f, 0.f}, 0.5f, false));
    QCOMPARE(r.inverseMasses()[kNose], humanoid->inverseMasses()[kNose]);
    QVERIFY(r.releasePin(kNose));
    // The released particle falls again.
    const float y = 2.1f;
    for (int i = 0; i < 10; ++i)
        world.step();
    QVERIFY2(r.positions()[kHead].y < y, qPrintable(QStringLiteral("released head at %1, was %2").arg(num(r.positions()[kHead].y), num(y))));
    // Pin capacity: at most kMaxDynamicPins at once.
    int accepted = 0;
    for (std::uint32_t i = 0; i < r.particleCount(); ++i)
        accepted += r.setPin(i, r.positions()[i]) ? 1 : 0;
    QVERIFY2(accepted == int(Ragdoll::kMaxDynamicPins), qPrintable(QStringLiteral("%1 pins accepted, capacity %2").arg(accepted).arg(Ragdoll::kMaxDynamicPins)));
    for (std::uint32_t i = 0; i < r.particleCount(); ++i)
        r.releasePin(i);
    for (std::uint32_t i = 0; i < r.particleCount(); ++i)
        QCOMPARE(r.inverseMasses()[i], humanoid->inverseMasses()[i]);
}

// ---------------------------------------------------------------------------------------------- rigid prop

void TestWorld::rigidProp_crateKeepsShapeAndRestsOnFloor()
{
    const Vec3 half{0.2f, 0.2f, 0.2f};
    BUILD_RIG(crate, makeCrate(half, 10.f));
    World world;
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    SPAWN_RAGDOLL(h, world, crate, (Transform{Quat::fromAxisAngle(normalizeOr({1.f, 0.f, 1.f}, {0.f, 1.f, 0.f}), 0.3f), {0.f, 1.2f, 0.f}}));
    Ragdoll& r = *world.ragdoll(h);
    const auto& sticks = crate->description().sticks;
    QCOMPARE(sticks.size(), std::size_t(6));
    float worstDuring = 0.f;
    for (int i = 0; i < 180; ++i) {
        world.step();
        for (const rig::Stick& s : sticks) {
            const float rest = length(crate->bindPositions()[std::size_t(s.b)] - crate->bindPositions()[std::size_t(s.a)]);
            const float L = length(r.positions()[std::size_t(s.b)] - r.positions()[std::size_t(s.a)]);
            worstDuring = std::max(worstDuring, std::fabs(L - rest));
        }
    }
    QVERIFY(allFinite(r));
    for (std::size_t k = 0; k < sticks.size(); ++k) {
        const rig::Stick& s = sticks[k];
        const float rest = length(crate->bindPositions()[std::size_t(s.b)] - crate->bindPositions()[std::size_t(s.a)]);
        const float L = length(r.positions()[std::size_t(s.b)] - r.positions()[std::size_t(s.a)]);
        QVERIFY2(std::fabs(L - rest) <= 0.001f, qPrintable(QStringLiteral("stick %1: length %2, rest %3 (worst during the fall %4)").arg(k).arg(num(L), num(rest), num(worstDuring))));
    }
    // Box corners: the four particles sit on alternate corners, the others are their reflections
    // through the centre.
    const auto x = r.positions();
    const Vec3 c = (x[0] + x[1] + x[2] + x[3]) * 0.25f;
    float lowest = INFINITY;
    for (std::size_t i = 0; i < 4; ++i) {
        lowest = std::min(lowest, x[i].y);
        lowest = std::min(lowest, (c * 2.f - x[i]).y);
    }
    QVERIFY2(std::fabs(lowest) <= 0.005f, qPrintable(QStringLiteral("lowest box corner at y = %1 (centre %2)").arg(num(lowest), str(c))));
    QVERIFY2(maxSpeed(r) < 0.05f, qPrintable(QStringLiteral("crate still moving at %1 m/s").arg(num(maxSpeed(r)))));
}

QTEST_APPLESS_MAIN(TestWorld)
#include "tst_world.moc"
