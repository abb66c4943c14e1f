// Tests of the 8-wide stick lanes of Gauss–Seidel rigs and of the choice of instruction set, through the
// public runtime API: which sticks Rig::build() puts in sets of eight and how, that every kernel path
// (scalar, SSE2, AVX2) relaxes a cloth to the same positions within rounding and each one to the bit across
// runs and thread counts, and that a step leaves the calling thread's floating-point mode as it found it.
#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <vector>

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

#define MARIONETTE_TEST_DIGITS 9
#include "RuntimeTestSupport.h"

using namespace marionette;
using namespace marionette::runtime;
using namespace marionette::test;

namespace {

/// The paths this machine can run, scalar first.
std::vector<std::string> runnablePaths()
{
    const std::string best = instructionSet();
    std::vector<std::string> paths;
    for (const char* name : {"scalar", "sse2", "avx2"}) {
        if (!useInstructionSet(name))
            continue;
        paths.push_back(name);
    }
    useInstructionSet(best);
    return paths;
}

/// Every particle of every ragdoll of `world`, in spawn order.
std::vector<Vec3> positionsOf(const World& world, const std::vector<RagdollHandle>& handles)
{
    std::vector<Vec3> out;
    for (RagdollHandle h : handles) {
        const auto p = world.ragdoll(h)->positions();
        out.insert(out.end(), p.begin(), p.end());
    }
    return out;
}

/// `count` copies of the 16 × 12 curtain side by side, each struck at its free bottom-right corner, after
/// 120 steps on `threads` threads: every particle, curtain after curtain; in *travel (if given), how far the
/// first curtain's particles got from their bind positions at most.
std::vector<Vec3> struckCurtains(const std::shared_ptr<const Rig>& rig, int count, std::uint32_t threads,
                                 bool groundFarBelow, float* travel = nullptr)
{
    WorldSettings ws = worldSettings({0.f, -9.81f, 0.f});
    ws.threads = threads;
    World world(ws);
    if (groundFarBelow)
        world.addPlane({0.f, 1.f, 0.f}, -100.f);
    std::vector<RagdollHandle> handles;
    for (int k = 0; k < count; ++k) {
        std::string error;
        const RagdollHandle h = world.spawn(rig, {Quat{}, {3.f * float(k), 0.f, 0.f}}, {}, &error);
        if (!world.ragdoll(h))
            return {};
        world.ragdoll(h)->applyImpulse(std::uint32_t(rig->particleCount() - 1), {0.8f, 0.f, 0.6f});
        handles.push_back(h);
    }
    for (int n = 0; n < 120; ++n) {
        world.step();
        const auto p = world.ragdoll(handles.front())->positions();
        for (std::size_t i = 0; travel && i < p.size(); ++i)
            *travel = std::max(*travel, length(p[i] - rig->bindPositions()[i]));
    }
    return positionsOf(world, handles);
}

bool bitIdentical(const std::vector<Vec3>& a, const std::vector<Vec3>& b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](Vec3 p, Vec3 q) {
               return std::memcmp(&p, &q, sizeof(Vec3)) == 0;
           });
}

} // namespace

class TestStickLanes : public QObject {
    Q_OBJECT

private slots:
    void cleanup();
    void cloth_setsOfEightInSolveOrder();
    void rigsWithoutSetsOfEight_data();
    void rigsWithoutSetsOfEight();
    void paths_agreeAndEachIsDeterministic_data();
    void paths_agreeAndEachIsDeterministic();
    void useInstructionSet_refusesWhatItCannotRun();
    void step_leavesTheCallersFloatModeAlone();

private:
    std::string mBest = instructionSet();
};

void TestStickLanes::cleanup()
{
    QVERIFY(useInstructionSet(mBest));
}

// makeCloth(64, 64): particle (row r, column c) is 64r + c; horizontal sticks (r, c)–(r, c + 1), vertical
// ones (r, c)–(r + 1, c); the top row is kinematic. Levels from the top: level r holds row r's 64 vertical
// sticks (r < 63) and its 63 horizontal ones. Sorted by index offset (64 before 1), the verticals form one set
// of 64 independent sticks with both ends consecutive: 8 Consecutive runs; the horizontals two sets, even
// columns (32 sticks: 4 Paired runs, ends 16 consecutive particles) and odd columns (31: 3 Paired runs and 7
// sticks one by one). So 63 × 8 = 504 Consecutive runs, 64 × 7 = 448 Paired ones, 952 in all, and
// 952 × 8 = 7,616 of the 8,064 sticks in lanes.
void TestStickLanes::cloth_setsOfEightInSolveOrder()
{
    BUILD_RIG(rig, makeCloth(64, 64, 0.02f, true));
    const auto sticks = rig->sticks();
    const auto lanes = rig->stickLanes();
    QCOMPARE(sticks.size(), std::size_t(8064));
    QCOMPARE(lanes.size(), std::size_t(952));
    std::size_t consecutive = 0, paired = 0;
    std::uint32_t next = 0; // lanes come in solve order and do not overlap
    for (const StickLanes& l : lanes) {
        QVERIFY2(l.first >= next && l.first + 8 <= sticks.size(),
                 qPrintable(QStringLiteral("run at %1 after one ending at %2").arg(l.first).arg(next)));
        next = l.first + 8;
        std::set<std::uint32_t> particles;
        for (std::uint32_t i = 0; i < 8; ++i) {
            const StickData& c = sticks[l.first + i];
            QCOMPARE(l.a[i], c.a);
            QCOMPARE(l.b[i], c.b);
            QCOMPARE(l.minLength[i], c.minLength);
            QCOMPARE(l.maxLength[i], c.maxLength);
            QCOMPARE(l.stiffness[i], c.stiffness);
            particles.insert(c.a);
            particles.insert(c.b);
        }
        QVERIFY2(particles.size() == 16, qPrintable(QStringLiteral("run at %1 shares a particle").arg(l.first)));
        for (std::uint32_t i = 0; i < 8; ++i) {
            if (l.layout == StickLanes::Layout::Consecutive) {
                QCOMPARE(l.a[i], l.a[0] + i);
                QCOMPARE(l.b[i], l.b[0] + i);
                QCOMPARE(l.b[i], l.a[i] + 64); // a vertical stick
            } else {
                QCOMPARE(l.layout, StickLanes::Layout::Paired);
                QCOMPARE(l.a[i], l.a[0] + 2 * i);
                QCOMPARE(l.b[i], l.a[i] + 1);
            }
        }
        consecutive += l.layout == StickLanes::Layout::Consecutive ? 1 : 0;
        paired += l.layout == StickLanes::Layout::Paired ? 1 : 0;
    }
    QCOMPARE(consecutive, std::size_t(504));
    QCOMPARE(paired, std::size_t(448));
    // The order still runs from the pinned row down: a stick never comes after one of a lower row.
    for (std::size_t k = 1; k < sticks.size(); ++k)
        QVERIFY2(sticks[k].a / 64 >= sticks[k - 1].a / 64,
                 qPrintable(QStringLiteral("stick %1 (row %2) after one of row %3").arg(k).arg(sticks[k].a / 64).arg(sticks[k - 1].a / 64)));
    // Every description stick is still compiled exactly once.
    std::vector<int> seen(sticks.size(), 0);
    for (std::size_t i = 0; i < sticks.size(); ++i)
        ++seen[rig->compiledStick(i)];
    QVERIFY(std::all_of(seen.begin(), seen.end(), [](int k) { return k == 1; }));
}

void TestStickLanes::rigsWithoutSetsOfEight_data()
{
    QTest::addColumn<int>("which");
    QTest::newRow("humanoid (the direct projection's rows keep their order)") << 0;
    QTest::newRow("Gauss-Seidel chain of 30 (one stick per level)") << 1;
    QTest::newRow("64x64 cloth relaxed by Jacobi (no order to keep)") << 2;
    QTest::newRow("tearable 64x64 cloth (where it tears depends on the order)") << 3;
}

void TestStickLanes::rigsWithoutSetsOfEight()
{
    QFETCH(int, which);
    rig::RigDescription d;
    if (which == 0) {
        d = makeHumanoid();
        QCOMPARE(d.settings.solver, rig::SolverMode::Direct);
    } else if (which == 1) {
        rig::Settings st;
        st.solver = rig::SolverMode::GaussSeidel;
        d = makeChain(30, 0.1f, st);
    } else if (which == 2) {
        d = makeCloth(64, 64, 0.02f, true);
        d.settings.solver = rig::SolverMode::Jacobi;
    } else {
        d = makeCloth(64, 64, 0.02f, true, 1.8f);
        QCOMPARE(d.settings.solver, rig::SolverMode::GaussSeidel);
    }
    BUILD_RIG(rig, d);
    QVERIFY(rig->stickLanes().empty());
    QVERIFY(!rig->sticks().empty());
}

void TestStickLanes::paths_agreeAndEachIsDeterministic_data()
{
    QTest::addColumn<bool>("sqrtApproximation");
    QTest::newRow("exact square root") << false;
    QTest::newRow("square-root approximation") << true;
}

// The 16 × 12 curtain struck at its corner for 120 steps (as tst_sticks' blocked-against-scalar test). Every
// path this machine runs must give, to the bit, the same positions on a second run and with a ground plane
// 100 m below (static contact candidates that never touch: one pass per iteration instead of all iterations
// at once), and three curtains the same on two threads as on one; and it must come within 1e-4 m of the
// scalar path (the kernels round in another order, and the 8-wide one fuses multiply-adds).
void TestStickLanes::paths_agreeAndEachIsDeterministic()
{
    QFETCH(bool, sqrtApproximation);
    rig::RigDescription d = makeCloth(16, 12, 0.05f, true);
    d.settings.sqrtApproximation = sqrtApproximation;
    BUILD_RIG(rig, d);
    QVERIFY(!rig->stickLanes().empty());
    const std::vector<std::string> paths = runnablePaths();
    QVERIFY(paths.size() >= 1 && paths.front() == "scalar");
    std::vector<Vec3> reference;
    for (const std::string& path : paths) {
        QVERIFY(useInstructionSet(path));
        QCOMPARE(std::string(instructionSet()), path);
        float travel = 0.f;
        const std::vector<Vec3> once = struckCurtains(rig, 1, 1, false, &travel);
        QVERIFY2(travel > 0.1f, qPrintable(QStringLiteral("the curtain barely moved (%1 m)").arg(num(travel))));
        QCOMPARE(once.size(), rig->particleCount());
        QVERIFY2(bitIdentical(once, struckCurtains(rig, 1, 1, false)), qPrintable(QString::fromStdString(path + ": two runs differ")));
        QVERIFY2(bitIdentical(once, struckCurtains(rig, 1, 1, true)),
                 qPrintable(QString::fromStdString(path + ": a ground plane 100 m below changed the curtain")));
        const std::vector<Vec3> three = struckCurtains(rig, 3, 1, false);
        QCOMPARE(three.size(), 3 * once.size());
        QVERIFY2(bitIdentical(three, struckCurtains(rig, 3, 2, false)),
                 qPrintable(QString::fromStdString(path + ": three curtains on two threads differ from one thread")));
        if (reference.empty()) {
            reference = once;
            continue;
        }
        float worst = 0.f;
        for (std::size_t i = 0; i < once.size(); ++i)
            worst = std::max(worst, length(once[i] - reference[i]));
        QVERIFY2(worst < 1e-4f, qPrintable(QStringLiteral("%1 differs from scalar by %2 m").arg(QString::fromStdString(path), num(worst))));
    }
}

void TestStickLanes::useInstructionSet_refusesWhatItCannotRun()
{
    const std::string before = instructionSet();
    for (const char* name : {"avx512", "", "SSE2", "neon"}) {
        QVERIFY2(!useInstructionSet(name), name);
        QCOMPARE(std::string(instructionSet()), before);
    }
    QVERIFY(useInstructionSet("scalar"));
    QCOMPARE(std::string(instructionSet()), std::string("scalar"));
    QVERIFY(useInstructionSet(before));
    QCOMPARE(std::string(instructionSet()), before);
}

// A step flushes subnormal numbers to zero (they cost a hundred times a normal operation on x86), but only
// for its own duration: the game's thread gets its floating-point mode back, whatever it was.
void TestStickLanes::step_leavesTheCallersFloatModeAlone()
{
#if defined(__SSE2__)
    SPAWN_SIM(sim, makeCloth(16, 12, 0.05f, true), worldSettings({0.f, -9.81f, 0.f}));
    const unsigned original = _mm_getcsr();
    for (const unsigned mode : {original & ~0x8040u, original | 0x8040u}) {
        _mm_setcsr(mode);
        sim.run(3);
        const unsigned after = _mm_getcsr() & ~0x3Fu; // without the sticky exception flags
        _mm_setcsr(original);
        QCOMPARE(after, mode & ~0x3Fu);
    }
#else
    QSKIP("the SSE control register is x86's");
#endif
}

QTEST_APPLESS_MAIN(TestStickLanes)
#include "tst_sticklanes.moc"
