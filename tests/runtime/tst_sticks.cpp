// Tests of the relaxation of sticks and angles in marionette::runtime through its public API (Rig, World,
// Ragdoll): the square-root approximation, stick kinds, tearing, stiffness and mass weighting, the XPBD,
// Jacobi and over-relaxed solver modes, and the angle constraints. Every expectation is derived by hand
// from /work/shared/PHYSICS.md; the derivation is written next to each assertion.
#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

// Failure messages print 9 significant digits, and EXPECT_VEC also the difference and the tolerance.
#define MARIONETTE_TEST_DIGITS 9
#define MARIONETTE_TEST_VEC_DIFF 1
#include "RuntimeTestSupport.h"

using namespace marionette;
using namespace marionette::runtime;
using namespace marionette::test;

Q_DECLARE_METATYPE(marionette::rig::StickKind)
Q_DECLARE_METATYPE(marionette::rig::AngleConstraint::Form)

namespace {

/// Static elongation of a 1 kg mass hanging 1 m below a kinematic particle on a stick, averaged over the
/// last 0.5 s of `seconds` (damping of 5 % per 60 Hz step damps the bounce).
float hangingElongation(rig::SolverMode mode, float dt, std::uint32_t iterations, float stiffness, float compliance,
                        std::string* error, float seconds = 6.f)
{
    rig::RigDescription d;
    d.particles = {particle({0.f, 0.f, 0.f}, 0.f), particle({0.f, -1.f, 0.f}, 1.f)};
    rig::Stick s = stick(0, 1, 1.f);
    s.stiffness = stiffness;
    s.compliance = compliance;
    d.sticks = {s};
    d.settings = quietSettings(iterations, dampingForDrag(0.05f));
    d.settings.solver = mode;
    Sim sim = makeSim(d, worldSettings({0.f, -9.81f, 0.f}, dt));
    if (!sim.body) {
        *error = sim.error;
        return -1.f;
    }
    const int steps = int(std::lround(seconds / dt));
    const int tail = int(std::lround(0.5f / dt));
    double sum = 0.0;
    for (int i = 0; i < steps; ++i) {
        sim.world->step();
        if (i >= steps - tail)
            sum += double(sim.distance(0, 1)) - 1.0;
    }
    return float(sum / tail);
}

/// Four free 1 kg particles 0.3 m apart along +X, joined by three sticks at their lengths.
rig::RigDescription freeChainOfFour()
{
    rig::RigDescription d;
    for (int i = 0; i < 4; ++i)
        d.particles.push_back(particle({0.3f * float(i), 0.f, 0.f}, 1.f));
    for (int i = 0; i + 1 < 4; ++i)
        d.sticks.push_back(stick(i, i + 1));
    return d;
}

float angleAt(Vec3 centre, Vec3 a, Vec3 b)
{
    const Vec3 ua = normalizeOr(a - centre, {1, 0, 0}), ub = normalizeOr(b - centre, {1, 0, 0});
    return std::acos(std::clamp(dot(ua, ub), -1.f, 1.f));
}

} // namespace

class TestSticks : public QObject {
    Q_OBJECT

private slots:
    void sqrtApproximation_boundedAndConverges_data();
    void sqrtApproximation_boundedAndConverges();
    void stickKinds_projectAsSpecified_data();
    void stickKinds_projectAsSpecified();
    void tearing_overstretchedSticksTear_data();
    void tearing_overstretchedSticksTear();
    void tearing_belowRatioNeverTears();
    void blockedSolver_matchesScalar_data();
    void blockedSolver_matchesScalar();
    void xpbd_elongationIndependentOfStepAndIterations();
    void stiffness_gaussSeidelDependsOnIterations();
    void jacobi_convergesChain();
    void overRelaxation_reducesChainError_data();
    void overRelaxation_reducesChainError();
    void angleConstraint_holdsLimits_data();
    void angleConstraint_holdsLimits();
    void bendDamping_swingDecaysExponentially_data();
    void bendDamping_swingDecaysExponentially();
    void bendDamping_leavesRigidMotionAndMomentum();
    void direct_statsCountProjectionWork();
    void direct_solveShapeOfAChain();
};

// Two 1 kg particles at distance L₀ = (1 + ε)·r, r = 1, at rest, no gravity, one iteration. The exact
// projection gives L = r. The one-Newton-step approximation moves each end by ½·d·(d·d − r²)/(d·d + r²), so
//   L₁ = L₀·2r²/(L₀² + r²) = r·2(1 + ε)/(1 + (1 + ε)²),   L₁ − r = −r·ε²/(2 + 2ε + ε²)  (≈ −r·ε²/2),
// bounded by r·ε²/(2(1 − |ε|)). Iterating L ← 2L·r²/(L² + r²) converges quadratically to r.
void TestSticks::sqrtApproximation_boundedAndConverges_data()
{
    QTest::addColumn<float>("eps");
    for (float e : {-0.2f, -0.05f, -0.01f, 0.01f, 0.05f, 0.2f})
        QTest::newRow(qPrintable(QStringLiteral("stretch %1%").arg(double(e) * 100.0))) << e;
}

void TestSticks::sqrtApproximation_boundedAndConverges()
{
    QFETCH(float, eps);
    const float r = 1.f, L0 = r * (1.f + eps);
    auto rigWith = [&](bool approx, std::uint32_t iterations) {
        rig::RigDescription d;
        d.particles = {particle({0.f, 0.f, 0.f}, 1.f), particle({L0, 0.f, 0.f}, 1.f)};
        d.sticks = {stick(0, 1, r)};
        d.settings = quietSettings(iterations);
        d.settings.sqrtApproximation = approx;
        return d;
    };
    SPAWN_SIM(exact, rigWith(false, 1), worldSettings({}));
    SPAWN_SIM(approx, rigWith(true, 1), worldSettings({}));
    exact.world->step();
    approx.world->step();
    EXPECT_NEAR(exact.distance(0, 1), r, 1e-6);

    const double e = eps;
    const double L1 = double(r) * 2.0 * (1.0 + e) / (1.0 + (1.0 + e) * (1.0 + e));
    EXPECT_NEAR(approx.distance(0, 1), L1, 2e-6);
    const double bound = double(r) * e * e / (2.0 * (1.0 - std::fabs(e)));
    const double err = std::fabs(double(approx.distance(0, 1)) - double(r));
    QVERIFY2(err <= bound + 1e-6, qPrintable(QStringLiteral("approximate length off by %1, bound ε²/(2(1−|ε|)) = %2").arg(num(err), num(bound))));
    // Both ends differ from the exact projection by half the length error, along the stick, symmetrically.
    const double halfErr = std::fabs(L1 - double(r)) / 2.0;
    EXPECT_NEAR(length(approx.x(0) - exact.x(0)), halfErr, 2e-6);
    EXPECT_NEAR(length(approx.x(1) - exact.x(1)), halfErr, 2e-6);
    EXPECT_NEAR(approx.x(0).y, 0.0, 0.0);
    EXPECT_NEAR(approx.x(0).x + approx.x(1).x, double(L0), 2e-6); // centre unchanged (equal masses)

    // Many iterations converge to the same rest length.
    SPAWN_SIM(many, rigWith(true, 16), worldSettings({}));
    many.world->step();
    EXPECT_NEAR(many.distance(0, 1), r, 1e-4);
    // …and so do many steps with one iteration each.
    approx.run(20);
    EXPECT_NEAR(approx.distance(0, 1), r, 1e-4);
}

// Two particles on the X axis, a at 0 and b at L₀, at rest; no gravity, no drag, ONE iteration. Expected
// end positions by hand: C = L − target, a moves +w_a/(w_a+w_b)·s·C toward b, b moves the rest back.
void TestSticks::stickKinds_projectAsSpecified_data()
{
    QTest::addColumn<rig::StickKind>("kind");
    QTest::addColumn<float>("rest");
    QTest::addColumn<float>("minLength");
    QTest::addColumn<float>("maxLength");
    QTest::addColumn<float>("stiffness");
    QTest::addColumn<float>("massA");
    QTest::addColumn<float>("massB");
    QTest::addColumn<float>("L0");
    QTest::addColumn<float>("expectA");
    QTest::addColumn<float>("expectB");
    using K = rig::StickKind;
    QTest::newRow("range: inside does nothing") << K::Range << -1.f << 0.8f << 1.2f << 1.f << 1.f << 1.f << 1.f << 0.f << 1.f;
    QTest::newRow("range: at max does nothing") << K::Range << -1.f << 0.8f << 1.2f << 1.f << 1.f << 1.f << 1.2f << 0.f << 1.2f;
    QTest::newRow("range: stretched pulled to max") << K::Range << -1.f << 0.8f << 1.2f << 1.f << 1.f << 1.f << 1.5f << 0.15f << 1.35f;
    QTest::newRow("range: compressed pushed to min") << K::Range << -1.f << 0.8f << 1.2f << 1.f << 1.f << 1.f << 0.6f << -0.1f << 0.7f;
    QTest::newRow("min-only: short pushed to min") << K::MinOnly << -1.f << 1.f << 0.f << 1.f << 1.f << 1.f << 0.5f << -0.25f << 0.75f;
    QTest::newRow("min-only: any longer allowed") << K::MinOnly << -1.f << 1.f << 0.f << 1.f << 1.f << 1.f << 3.f << 0.f << 3.f;
    QTest::newRow("max-only: long pulled to max") << K::MaxOnly << -1.f << 0.f << 1.f << 1.f << 1.f << 1.f << 3.f << 1.f << 2.f;
    QTest::newRow("max-only: any shorter allowed") << K::MaxOnly << -1.f << 0.f << 1.f << 1.f << 1.f << 1.f << 0.5f << 0.f << 0.5f;
    QTest::newRow("rigid: stiffness 0.5 moves half") << K::Rigid << 1.f << 0.f << 0.f << 0.5f << 1.f << 1.f << 2.f << 0.25f << 1.75f;
    QTest::newRow("rigid: stiffness 1 moves all") << K::Rigid << 1.f << 0.f << 0.f << 1.f << 1.f << 1.f << 2.f << 0.5f << 1.5f;
    // 1 kg : 3 kg — w = 1 : 1/3, so a moves 3/4 of C = 1 and b 1/4: displacement ratio 3 : 1.
    QTest::newRow("rigid: 1 kg vs 3 kg move 3:1") << K::Rigid << 1.f << 0.f << 0.f << 1.f << 1.f << 3.f << 2.f << 0.75f << 1.75f;
    QTest::newRow("rigid: kinematic end stays") << K::Rigid << 1.f << 0.f << 0.f << 1.f << 0.f << 2.f << 2.f << 0.f << 1.f;
}

void TestSticks::stickKinds_projectAsSpecified()
{
    QFETCH(rig::StickKind, kind);
    QFETCH(float, rest);
    QFETCH(float, minLength);
    QFETCH(float, maxLength);
    QFETCH(float, stiffness);
    QFETCH(float, massA);
    QFETCH(float, massB);
    QFETCH(float, L0);
    QFETCH(float, expectA);
    QFETCH(float, expectB);
    rig::RigDescription d;
    d.particles = {particle({0.f, 0.f, 0.f}, massA), particle({L0, 0.f, 0.f}, massB)};
    rig::Stick s = stick(0, 1, rest);
    s.kind = kind;
    s.minLength = minLength;
    s.maxLength = maxLength;
    s.stiffness = stiffness;
    d.sticks = {s};
    d.settings = quietSettings(1);
    SPAWN_SIM(sim, d, worldSettings({}));
    sim.world->step();
    EXPECT_VEC(sim.x(0), (Vec3{expectA, 0.f, 0.f}), 1e-6f);
    EXPECT_VEC(sim.x(1), (Vec3{expectB, 0.f, 0.f}), 1e-6f);
    if (expectA == 0.f && expectB == L0) { // "does nothing" means nothing: bit-exact
        QCOMPARE(sim.x(0).x, 0.f);
        QCOMPARE(sim.x(1).x, L0);
    }
    const float da = sim.x(0).x, db = L0 - sim.x(1).x;
    if (massA > 0.f && da != 0.f) // mass weighting: displacements in the ratio m_b : m_a
        EXPECT_NEAR(double(da) / double(db), double(massB) / double(massA), 1e-5);
}

// makeCloth(6, 6, 0.1 m, pinned top row, tearRatio 1.5): a kinematic pin drags the bottom-right corner away
// (jumping 1 m at once, or at 3 m/s). Sticks pulled past 1.5 × 0.1 m tear until the corner is cut off
// from the pinned row; every position stays finite; a stick whose length stayed below 1.2 × rest at the end
// of every step up to and including the step it would have torn in does not tear. On a jump the corner's
// own two sticks are stretched to ~10× at once and are exactly the ones that tear.
void TestSticks::tearing_overstretchedSticksTear_data()
{
    QTest::addColumn<float>("speed"); // m/s of the pin target; 0 = jump at once
    QTest::addColumn<bool>("direct");  // the cloth asks for the direct solver (its tearable sticks relax)
    QTest::newRow("jump 1 m") << 0.f << false;
    QTest::newRow("drag at 3 m/s") << 3.f << false;
    QTest::newRow("jump 1 m, direct solver asked for") << 0.f << true;
}

void TestSticks::tearing_overstretchedSticksTear()
{
    QFETCH(float, speed);
    QFETCH(bool, direct);
    const int cols = 6, rows = 6;
    const float spacing = 0.1f, ratio = 1.5f, dt = 1.f / 60.f;
    rig::RigDescription d = makeCloth(cols, rows, spacing, true, ratio);
    if (direct) {
        const rig::Settings defaults;
        d.settings.solver = defaults.solver;
        d.settings.substeps = defaults.substeps;
        d.settings.iterations = defaults.iterations;
    }
    SPAWN_SIM(sim, d, worldSettings({0.f, -9.81f, 0.f}, dt));
    const std::uint32_t corner = std::uint32_t(rows * cols - 1);
    const Vec3 start = sim.x(corner), offset{0.3f, 0.f, 1.f};
    const std::size_t count = d.sticks.size();
    std::vector<float> worstRatio(count, 0.f);
    std::vector<char> tornBefore(count, 0);
    std::vector<int> incident;
    for (std::size_t i = 0; i < count; ++i)
        if (std::uint32_t(d.sticks[i].a) == corner || std::uint32_t(d.sticks[i].b) == corner)
            incident.push_back(int(i));
    QCOMPARE(incident.size(), std::size_t(2));
    for (int n = 1; n <= 60; ++n) {
        const float pull = speed > 0.f ? std::min(1.f, speed * dt * float(n)) : 1.f;
        QVERIFY(sim.body->setPin(corner, start + offset * pull));
        sim.world->step();
        for (std::uint32_t i = 0; i < sim.body->particleCount(); ++i)
            QVERIFY2(isFinite(sim.x(i)) && isFinite(sim.xPrev(i)), qPrintable(QStringLiteral("particle %1 at %2").arg(i).arg(str(sim.x(i)))));
        for (std::size_t i = 0; i < count; ++i) {
            if (tornBefore[i])
                continue;
            worstRatio[i] = std::max(worstRatio[i], sim.distance(std::uint32_t(d.sticks[i].a), std::uint32_t(d.sticks[i].b)) / spacing);
            tornBefore[i] = sim.body->stickTorn(std::uint32_t(i)) ? 1 : 0;
        }
    }
    EXPECT_VEC(sim.x(corner), start + offset, 1e-6f);
    // Cut off: no path of intact sticks joins the corner to the pinned top row.
    std::vector<int> component(std::size_t(rows * cols));
    for (std::size_t i = 0; i < component.size(); ++i)
        component[i] = int(i);
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t i = 0; i < count; ++i) {
            if (sim.body->stickTorn(std::uint32_t(i)))
                continue;
            int& ca = component[std::size_t(d.sticks[i].a)];
            int& cb = component[std::size_t(d.sticks[i].b)];
            if (ca != cb) {
                ca = cb = std::min(ca, cb);
                changed = true;
            }
        }
    }
    QVERIFY2(component[corner] >= cols, qPrintable(QStringLiteral("the dragged corner is still tied to the pinned row (component %1)").arg(component[corner])));
    QString torn;
    int quiet = 0;
    for (std::size_t i = 0; i < count; ++i) {
        if (sim.body->stickTorn(std::uint32_t(i)))
            torn += QStringLiteral(" %1(%2-%3, worst %4x)").arg(i).arg(d.sticks[i].a).arg(d.sticks[i].b).arg(num(worstRatio[i]));
        if (worstRatio[i] >= 1.2f)
            continue;
        ++quiet;
        QVERIFY2(!sim.body->stickTorn(std::uint32_t(i)),
                 qPrintable(QStringLiteral("stick %1 tore though it never exceeded %2 x rest").arg(i).arg(num(worstRatio[i]))));
    }
    QVERIFY2(quiet >= int(count) / 2, qPrintable(QStringLiteral("only %1 sticks stayed calm; torn:").arg(quiet) + torn));
    if (speed == 0.f) {
        int tornCount = 0;
        for (std::size_t i = 0; i < count; ++i)
            tornCount += sim.body->stickTorn(std::uint32_t(i)) ? 1 : 0;
        for (int i : incident)
            QVERIFY2(sim.body->stickTorn(std::uint32_t(i)), qPrintable(QStringLiteral("corner stick %1 did not tear; torn:").arg(i) + torn));
        QVERIFY2(tornCount == 2, qPrintable(QStringLiteral("%1 sticks torn:").arg(tornCount) + torn));
    }
}

// The same cloth with its corner pinned only 2 cm out of place: the cloth sags a few percent, nothing
// tears in 2 s, and every stick stays well below 1.5 × rest.
void TestSticks::tearing_belowRatioNeverTears()
{
    const int cols = 6, rows = 6;
    const float spacing = 0.1f;
    const rig::RigDescription d = makeCloth(cols, rows, spacing, true, 1.5f);
    SPAWN_SIM(sim, d, worldSettings({0.f, -9.81f, 0.f}));
    const std::uint32_t corner = std::uint32_t(rows * cols - 1);
    QVERIFY(sim.body->setPin(corner, sim.x(corner) + Vec3{0.f, -0.02f, 0.f}));
    float worst = 0.f;
    for (int n = 0; n < 120; ++n) {
        sim.world->step();
        for (const rig::Stick& s : d.sticks)
            worst = std::max(worst, sim.distance(std::uint32_t(s.a), std::uint32_t(s.b)) / spacing);
    }
    QVERIFY2(worst < 1.3f, qPrintable(QStringLiteral("a stick reached %1 x rest").arg(num(worst))));
    for (std::size_t i = 0; i < d.sticks.size(); ++i)
        QVERIFY2(!sim.body->stickTorn(std::uint32_t(i)), qPrintable(QStringLiteral("stick %1 tore below the ratio").arg(i)));
}

// Rigs without tearable sticks run Gauss–Seidel over blocks of four independent sticks at once (SIMD); a
// tear ratio no stick reaches sends the same rig, in the same compiled order, through the one-at-a-time path.
// Both must give the same motion up to float rounding: a cloth swinging from its top row, hit on a corner.
// (A cloth wide enough for sets of eight independent sticks takes the 8-wide lanes instead, in another
// order: tst_sticklanes. At 7 columns no level holds eight, and both rigs keep the order of the blocks.)
void TestSticks::blockedSolver_matchesScalar_data()
{
    QTest::addColumn<bool>("sqrtApproximation");
    QTest::newRow("exact square root") << false;
    QTest::newRow("square-root approximation") << true;
}

void TestSticks::blockedSolver_matchesScalar()
{
    QFETCH(bool, sqrtApproximation);
    const int cols = 7, rows = 6;
    rig::RigDescription blocked = makeCloth(cols, rows, 0.05f, true, 0.f);
    rig::RigDescription scalar = makeCloth(cols, rows, 0.05f, true, 1000.f);
    blocked.settings.sqrtApproximation = scalar.settings.sqrtApproximation = sqrtApproximation;
    SPAWN_SIM(a, blocked, worldSettings({0.f, -9.81f, 0.f}));
    SPAWN_SIM(b, scalar, worldSettings({0.f, -9.81f, 0.f}));
    QVERIFY(a.body->rig().stickLanes().empty() && b.body->rig().stickLanes().empty());
    std::size_t independentBlocks = 0;
    for (const StickBlock& blk : a.body->rig().stickBlocks())
        independentBlocks += blk.independent ? 1 : 0;
    QVERIFY2(independentBlocks * 4 * 3 >= a.body->rig().sticks().size(), // a third of the sticks go through blocks
             qPrintable(QStringLiteral("only %1 independent blocks of %2 sticks").arg(independentBlocks).arg(a.body->rig().sticks().size())));
    const std::uint32_t corner = std::uint32_t(rows * cols - 1);
    a.body->applyImpulse(corner, {0.8f, 0.f, 0.6f});
    b.body->applyImpulse(corner, {0.8f, 0.f, 0.6f});
    float worst = 0.f, travel = 0.f;
    for (int n = 0; n < 120; ++n) {
        a.world->step();
        b.world->step();
        for (std::uint32_t i = 0; i < std::uint32_t(rows * cols); ++i) {
            worst = std::max(worst, length(a.x(i) - b.x(i)));
            travel = std::max(travel, length(a.x(i) - a.body->rig().bindPositions()[i]));
        }
    }
    QVERIFY2(travel > 0.1f, qPrintable(QStringLiteral("the cloth barely moved (%1 m)").arg(num(travel))));
    QVERIFY2(worst < 1e-4f, qPrintable(QStringLiteral("blocked and scalar solvers differ by %1 m").arg(num(worst))));
    for (std::size_t i = 0; i < scalar.sticks.size(); ++i)
        QVERIFY(!b.body->stickTorn(std::uint32_t(i)));
}

// XPBD: 1 kg on a stick of compliance α = 1e-3 m/N under a kinematic particle. At rest each step gravity
// stretches the stick by gΔt² and one solve leaves C = α̃/(w + α̃)·(C + gΔt²), α̃ = α/Δt²: C = m·g·α exactly,
// whatever Δt and the iteration count (a single constraint converges in one iteration).
void TestSticks::xpbd_elongationIndependentOfStepAndIterations()
{
    const float alpha = 1e-3f, expected = 1.f * 9.81f * alpha;
    std::string e;
    const float coarse = hangingElongation(rig::SolverMode::Xpbd, 1.f / 60.f, 4, 1.f, alpha, &e);
    QVERIFY2(coarse >= 0.f, e.c_str());
    const float fine = hangingElongation(rig::SolverMode::Xpbd, 1.f / 120.f, 16, 1.f, alpha, &e);
    QVERIFY2(fine >= 0.f, e.c_str());
    const float single = hangingElongation(rig::SolverMode::Xpbd, 1.f / 60.f, 1, 1.f, alpha, &e);
    QVERIFY2(single >= 0.f, e.c_str());
    const QString msg = QStringLiteral("elongation (1/60 s, 4 it) %1 m, (1/120 s, 16 it) %2 m, (1/60 s, 1 it) %3 m; m·g·α = %4 m")
                            .arg(num(coarse), num(fine), num(single), num(expected));
    QVERIFY2(std::fabs(coarse - expected) <= 0.05f * expected, qPrintable(msg));
    QVERIFY2(std::fabs(fine - expected) <= 0.05f * expected, qPrintable(msg));
    QVERIFY2(std::fabs(single - expected) <= 0.05f * expected, qPrintable(msg));
    QVERIFY2(std::fabs(coarse - fine) <= 0.02f * std::max(coarse, fine), qPrintable(msg));
}

// Gauss–Seidel stiffness s = 0.5 on the same hanging mass: each iteration keeps (1 − s) of C, so at rest
// C = (C + gΔt²)·(1 − s)ⁿ, i.e. C = gΔt²·qⁿ/(1 − qⁿ) with q = 1 − s: 9.08e-4 m at n = 2, 1.82e-4 m at n = 4
// (Δt = 1/60 s), about 1e-8 m at (1/120 s, 16 it). The elongation depends on the iteration count.
void TestSticks::stiffness_gaussSeidelDependsOnIterations()
{
    const float dt = 1.f / 60.f, g = 9.81f;
    auto expectedFor = [&](float h, int n) {
        const double qn = std::pow(0.5, n);
        return double(g) * double(h) * double(h) * qn / (1.0 - qn);
    };
    std::string e;
    const float two = hangingElongation(rig::SolverMode::GaussSeidel, dt, 2, 0.5f, 0.f, &e);
    QVERIFY2(two >= 0.f, e.c_str());
    const float four = hangingElongation(rig::SolverMode::GaussSeidel, dt, 4, 0.5f, 0.f, &e);
    QVERIFY2(four >= 0.f, e.c_str());
    const float fine = hangingElongation(rig::SolverMode::GaussSeidel, dt / 2.f, 16, 0.5f, 0.f, &e);
    QVERIFY2(fine >= -1e-6f, e.c_str());
    const QString msg = QStringLiteral("elongation 2 it %1 m (expected %2), 4 it %3 m (expected %4), (1/120 s, 16 it) %5 m")
                            .arg(num(two), num(expectedFor(dt, 2)), num(four), num(expectedFor(dt, 4)), num(fine));
    QVERIFY2(std::fabs(two - expectedFor(dt, 2)) <= 0.05 * expectedFor(dt, 2), qPrintable(msg));
    QVERIFY2(std::fabs(four - expectedFor(dt, 4)) <= 0.05 * expectedFor(dt, 4), qPrintable(msg));
    QVERIFY2(std::fabs(two - four) > 0.2f * std::max(two, four), qPrintable(msg));
    QVERIFY2(std::fabs(four - fine) > 0.2f * std::max(four, fine), qPrintable(msg));
}

// Jacobi (averaged) relaxation converges the released 30-link chain too. Scale: with no relaxation the
// first link would stretch by the distance the chain falls in 2 s, ½g·t² = 19.6 m. With 16 Jacobi
// iterations, after 120 steps the worst stick must be within 2 cm (a fifth of a link; the reference gives
// 1.07 cm) and the whole chain within 0.25 m of its 3 m rest length (reference 0.17 m), and one Jacobi
// iteration must be far worse (reference: 0.60 m worst, 10.4 m total).
void TestSticks::jacobi_convergesChain()
{
    std::string e;
    const ChainError jacobi = chainErrorAfter(rig::SolverMode::Jacobi, 16, 1.f, 120, &e);
    QVERIFY2(jacobi.worst >= 0.f, e.c_str());
    const ChainError jacobi1 = chainErrorAfter(rig::SolverMode::Jacobi, 1, 1.f, 120, &e);
    QVERIFY2(jacobi1.worst >= 0.f, e.c_str());
    const QString msg = QStringLiteral("Jacobi 16 it: worst %1 m, total %2 m; Jacobi 1 it: worst %3 m, total %4 m")
                            .arg(num(jacobi.worst), num(jacobi.total), num(jacobi1.worst), num(jacobi1.total));
    QVERIFY2(jacobi.worst < 0.02f, qPrintable(msg));
    QVERIFY2(jacobi.total < 0.25f, qPrintable(msg));
    QVERIFY2(jacobi.worst < 0.1f * jacobi1.worst && jacobi.total < 0.1f * jacobi1.total, qPrintable(msg));
}

// Successive over-relaxation ω = 1.5 speeds up Gauss–Seidel: at a fixed iteration count the chain's total
// stretch Σ|L − r| after 60 steps is lower than with ω = 1 (reference, 4 iterations: 0.51 vs 0.93 m; 8: 0.19
// vs 0.47 m; 16: 0.065 vs 0.19 m). Note: the single worst stick is NOT reduced (4 it: 0.17 vs 0.09 m in the
// reference too): the over-shoot of the last links turns into velocity, so only the total is asserted.
void TestSticks::overRelaxation_reducesChainError_data()
{
    QTest::addColumn<std::uint32_t>("iterations");
    QTest::newRow("4 iterations") << 4u;
    QTest::newRow("8 iterations") << 8u;
    QTest::newRow("16 iterations") << 16u;
}

void TestSticks::overRelaxation_reducesChainError()
{
    QFETCH(std::uint32_t, iterations);
    std::string e;
    const ChainError plain = chainErrorAfter(rig::SolverMode::GaussSeidel, iterations, 1.f, 60, &e);
    QVERIFY2(plain.total >= 0.f, e.c_str());
    const ChainError sor = chainErrorAfter(rig::SolverMode::GaussSeidel, iterations, 1.5f, 60, &e);
    QVERIFY2(sor.total >= 0.f, e.c_str());
    QVERIFY2(sor.total < 0.8f * plain.total,
             qPrintable(QStringLiteral("total stretch ω = 1.5: %1 m, ω = 1: %2 m (worst stick %3 vs %4 m)")
                            .arg(num(sor.total), num(plain.total), num(sor.worst), num(plain.worst))));
}

// Angle limits at a kinematic centre with two 1 m arms held by rigid sticks; no gravity, 8 iterations.
// Dot-product form: θ is projected onto [min, max] with the arm lengths kept to first order. Law of
// cosines: a min/max stick between the arm ends of length √(A² + B² − 2AB·cos θ); with rigid arms that
// is the same limit. After the first step and for 1 s after, θ stays inside the limit ± 0.5°.
// (The law-of-cosines form is only checked on a minimum: holding a maximum near 180° it converges slowly,
// since the a–b link is then almost parallel to the arms: from 170° to a 120° limit 8 iterations reach only
// 162.7°. That is the geometry of the form, not a solver fault.)
void TestSticks::angleConstraint_holdsLimits_data()
{
    QTest::addColumn<rig::AngleConstraint::Form>("form");
    QTest::addColumn<float>("bend");
    QTest::addColumn<float>("minAngle");
    QTest::addColumn<float>("maxAngle");
    using F = rig::AngleConstraint::Form;
    QTest::newRow("dot product: 30 deg opened to >= 60") << F::DotProduct << 30.f << 60.f << 180.f;
    QTest::newRow("law of cosines: 30 deg opened to >= 60") << F::LawOfCosines << 30.f << 60.f << 180.f;
    QTest::newRow("dot product: 170 deg closed to <= 120") << F::DotProduct << 170.f << 0.f << 120.f;
    QTest::newRow("dot product: 90 deg inside [60, 120] untouched") << F::DotProduct << 90.f << 60.f << 120.f;
    QTest::newRow("law of cosines: 90 deg inside [60, 120] untouched") << F::LawOfCosines << 90.f << 60.f << 120.f;
}

void TestSticks::angleConstraint_holdsLimits()
{
    QFETCH(rig::AngleConstraint::Form, form);
    QFETCH(float, bend);
    QFETCH(float, minAngle);
    QFETCH(float, maxAngle);
    rig::RigDescription d;
    const float b = radians(bend);
    d.particles = {particle({0.f, 0.f, 0.f}, 0.f), particle({1.f, 0.f, 0.f}, 1.f),
                   particle({std::cos(b), std::sin(b), 0.f}, 1.f)};
    d.sticks = {stick(0, 1), stick(0, 2)};
    rig::AngleConstraint a;
    a.center = 0;
    a.a = 1;
    a.b = 2;
    a.minAngle = radians(minAngle);
    a.maxAngle = radians(maxAngle);
    a.form = form;
    d.angles = {a};
    d.settings = quietSettings(8);
    SPAWN_SIM(sim, d, worldSettings({}));
    const bool inside = bend >= minAngle && bend <= maxAngle;
    float lo = 180.f, hi = 0.f;
    for (int n = 1; n <= 60; ++n) {
        sim.world->step();
        const float theta = degrees(angleAt(sim.x(0), sim.x(1), sim.x(2)));
        lo = std::min(lo, theta);
        hi = std::max(hi, theta);
        if (n == 1 && !inside) { // the first step already brought it to the violated bound
            const float bound = bend < minAngle ? minAngle : maxAngle;
            EXPECT_NEAR(theta, bound, 0.5);
        }
        EXPECT_NEAR(sim.distance(0, 1), 1.0, 1e-3);
        EXPECT_NEAR(sim.distance(0, 2), 1.0, 1e-3);
    }
    const QString msg = QStringLiteral("angle ranged over [%1°, %2°], limit [%3°, %4°]").arg(num(lo), num(hi)).arg(num(minAngle), num(maxAngle));
    QVERIFY2(lo >= minAngle - 0.5f && hi <= maxAngle + 0.5f, qPrintable(msg));
    if (inside) { // nothing to do: bit-exact rest
        EXPECT_NEAR(lo, bend, 1e-3);
        EXPECT_NEAR(hi, bend, 1e-3);
    }
}

// A link fixed in space (two kinematic particles, the centre at the origin and `a` along −x) and a 1 kg
// particle b on a 1 m stick from the centre, no gravity: b moves on the unit sphere at constant speed v₀
// (Verlet keeps |v| of a circular motion to a fraction of a percent over a second). With bend damping k its
// motion relative to the link decays as v₀·e^(−kt), in the link's bend plane and about the link alike (the
// second is b circling round the link's own line, which the link, fixed, does not follow).
void TestSticks::bendDamping_swingDecaysExponentially_data()
{
    QTest::addColumn<int>("solver");
    QTest::addColumn<Vec3>("start"); // b's bind position
    QTest::addColumn<Vec3>("velocity");
    QTest::addColumn<float>("damping");
    const Vec3 side{0.f, 1.f, 0.f}, along{1.f, 0.f, 0.f};
    for (const int solver : {int(rig::SolverMode::GaussSeidel), int(rig::SolverMode::Direct)}) {
        const char* name = solver == int(rig::SolverMode::Direct) ? "direct" : "gauss-seidel";
        QTest::addRow("%s: bending in the link's plane, 2/s", name) << solver << side << Vec3{-1.f, 0.f, 0.f} << 2.f;
        QTest::addRow("%s: circling round the link, 2/s", name) << solver << side << Vec3{0.f, 0.f, 1.f} << 2.f;
        QTest::addRow("%s: straight on, swinging, 0.5/s", name) << solver << along << Vec3{0.f, 1.f, 0.f} << 0.5f;
        QTest::addRow("%s: no damping keeps the speed", name) << solver << side << Vec3{0.f, 0.f, 1.f} << 0.f;
    }
}

void TestSticks::bendDamping_swingDecaysExponentially()
{
    QFETCH(int, solver);
    QFETCH(Vec3, start);
    QFETCH(Vec3, velocity);
    QFETCH(float, damping);
    rig::RigDescription d;
    d.particles = {particle({0.f, 0.f, 0.f}, 0.f), particle({-1.f, 0.f, 0.f}, 0.f), particle(start, 1.f)};
    d.sticks = {stick(0, 2)};
    rig::AngleConstraint a;
    a.center = 0;
    a.a = 1;
    a.b = 2;
    a.minAngle = 0.f;
    a.maxAngle = kPi;
    a.form = rig::AngleConstraint::Form::LawOfCosines;
    a.damping = damping;
    d.angles = {a};
    d.settings = quietSettings(8);
    d.settings.solver = rig::SolverMode(solver);
    d.settings.substeps = solver == int(rig::SolverMode::Direct) ? 8 : 1;
    d.settings.iterations = solver == int(rig::SolverMode::Direct) ? 3 : 8;
    SPAWN_SIM(sim, d, worldSettings({}));
    QVERIFY(sim.body->applyImpulse(2, velocity));
    sim.run(60);
    const float expected = std::exp(-damping * 1.f);
    const float speed = length(sim.body->velocity(2));
    QVERIFY2(std::fabs(speed - expected) < 0.03f * expected + 1e-3f,
             qPrintable(QStringLiteral("speed after 1 s %1 m/s, expected %2").arg(num(speed), num(expected))));
    EXPECT_NEAR(sim.distance(0, 2), 1.0, 1e-3);
}

// A free chain of four 1 kg particles, every joint damped at 10/s, no gravity. Spun rigidly (about an axis
// across the chain) and pushed, it keeps spinning and drifting: the damping sees no bending. Then struck
// on one end so it bends: the bending dies out while the total momentum stays what the strike made it.
// (Velocities are differences of float positions a substep, 1/480 s, apart, and the damping moves previous
// positions by small amounts: half a metre from the origin each move rounds by up to 3e-8 m, 1.4e-5 m/s,
// and a second has about 4,000 of them; hence 4e-3 kg·m/s. Without the damping's moves the drift is
// below 1e-3.)
void TestSticks::bendDamping_leavesRigidMotionAndMomentum()
{
    rig::RigDescription d = freeChainOfFour();
    for (int i = 1; i + 1 < 4; ++i) {
        rig::AngleConstraint a;
        a.center = i;
        a.a = i - 1;
        a.b = i + 1;
        a.minAngle = 0.f;
        a.maxAngle = kPi;
        a.form = rig::AngleConstraint::Form::LawOfCosines;
        a.damping = 10.f;
        d.angles.push_back(a);
    }
    d.settings = quietSettings(3);
    d.settings.solver = rig::SolverMode::Direct;
    d.settings.substeps = 8;
    SPAWN_SIM(sim, d, worldSettings({}));
    // Rigid spin at ω = 2 rad/s about z through the middle (x = 0.45) plus a push along z at 0.1 m/s.
    const float omega = 2.f;
    for (std::uint32_t i = 0; i < 4; ++i)
        QVERIFY(sim.body->applyImpulse(i, Vec3{0.f, omega * (0.3f * float(i) - 0.45f), 0.1f}));
    sim.run(60);
    // Still spinning at ω and drifting at 0.1 m/s.
    const Vec3 middle = (sim.x(1) + sim.x(2)) * 0.5f;
    const Vec3 arm = sim.x(3) - middle;
    const Vec3 spin = cross(arm, sim.body->velocity(3) - (sim.body->velocity(1) + sim.body->velocity(2)) * 0.5f) /
                      lengthSquared(arm);
    QVERIFY2(std::fabs(length(spin) - omega) < 0.02f * omega, qPrintable(QStringLiteral("spin %1 rad/s").arg(num(length(spin)))));
    Vec3 momentum;
    for (std::uint32_t i = 0; i < 4; ++i)
        momentum += sim.body->velocity(i);
    EXPECT_VEC(momentum, Vec3(0.f, 0.f, 0.4f), 4e-3);
    // A strike across one end bends the chain; the bending is gone after a second (e^−10), the momentum
    // the strike added is kept.
    QVERIFY(sim.body->applyImpulse(3, Vec3{0.f, 0.f, 0.5f}));
    sim.run(60);
    Vec3 after;
    for (std::uint32_t i = 0; i < 4; ++i)
        after += sim.body->velocity(i);
    EXPECT_VEC(after, Vec3(0.f, 0.f, 0.9f), 4e-3);
    for (int j = 1; j < 3; ++j) {
        const float bend = angleAt(sim.x(std::uint32_t(j)), sim.x(std::uint32_t(j - 1)), sim.x(std::uint32_t(j + 1)));
        const float bendLater = [&] {
            sim.run(6);
            return angleAt(sim.x(std::uint32_t(j)), sim.x(std::uint32_t(j - 1)), sim.x(std::uint32_t(j + 1)));
        }();
        QVERIFY2(std::fabs(degrees(bendLater - bend)) < 0.5f,
                 qPrintable(QStringLiteral("joint %1 still bending: %2 deg in 0.1 s").arg(j).arg(num(degrees(bendLater - bend)))));
    }
}

// The direct solver's work shows in the stats, per ragdoll and summed over the world. The rig: a chain of
// four with a third particle joined rigidly to both ends of its first link (a triangle of sticks). At rest and at its lengths it is converged after each
// substep's first projection: one Newton step and one factorisation per substep, 8 in a step of 8 substeps.
// Struck, a substep takes up to its 3 iterations; a factorisation is repeated only when contacts are let
// go (there are none here), so there are as many as Newton steps. Relaxing by Gauss–Seidel takes neither.
void TestSticks::direct_statsCountProjectionWork()
{
    auto chain = [](rig::SolverMode solver) {
        rig::RigDescription d = freeChainOfFour();
        d.particles.push_back(particle({0.15f, 0.25f, 0.f}, 1.f));
        d.sticks.push_back(stick(0, 4));
        d.sticks.push_back(stick(1, 4));
        d.settings = quietSettings(3);
        d.settings.solver = solver;
        d.settings.substeps = 8;
        return d;
    };
    BUILD_RIG(direct, chain(rig::SolverMode::Direct));
    BUILD_RIG(relaxed, chain(rig::SolverMode::GaussSeidel));
    World world(worldSettings({}));
    SPAWN_RAGDOLL(still, world, direct, Transform{});
    SPAWN_RAGDOLL(swung, world, direct, (Transform{Quat{}, {0.f, 2.f, 0.f}}));
    SPAWN_RAGDOLL(gs, world, relaxed, (Transform{Quat{}, {0.f, 4.f, 0.f}}));
    Ragdoll& a = *world.ragdoll(still);
    Ragdoll& b = *world.ragdoll(swung);
    world.step();
    QCOMPARE(a.stats().newtonSteps, 8u);
    QCOMPARE(a.stats().factorizations, 8u);
    QCOMPARE(world.ragdoll(gs)->stats().newtonSteps, 0u);
    QCOMPARE(world.ragdoll(gs)->stats().factorizations, 0u);
    // Strike the triangle's tip out of its plane at 30 m/s: 0.25 m from the link, it turns ~0.25 rad a substep
    // about it, and a projection along the sticks' present directions leaves them second-order off.
    QVERIFY(b.applyImpulse(4, Vec3{0.f, 0.f, 30.f}));
    std::uint32_t most = 0;
    for (int f = 0; f < 10; ++f) {
        world.step();
        const RagdollStats& sb = b.stats();
        QVERIFY2(sb.newtonSteps >= 8u && sb.newtonSteps <= 24u, qPrintable(QString::number(sb.newtonSteps)));
        QCOMPARE(sb.factorizations, sb.newtonSteps);
        most = std::max(most, sb.newtonSteps);
        QCOMPARE(world.stats().newtonSteps, a.stats().newtonSteps + sb.newtonSteps);
        QCOMPARE(world.stats().factorizations, a.stats().factorizations + sb.factorizations);
    }
    QVERIFY2(most > 8u, "the struck triangle never needed a second Newton step in a substep");
}

// The shape of the direct solve of a chain of three rigid sticks (rows r0, r1, r2, each coupled to the next
// through the particle they share) with a range stick from end to end. Eliminating the fewest-coupled row
// first takes r0, then r1, then r2: the factor has one nonzero below each of r0 and r1 (2 in all), and each
// pivot needs the one before it, 3 deep. The range stick joins only near its limits: 1 such row. Relaxed by
// Gauss–Seidel, the rig has no direct solve.
void TestSticks::direct_solveShapeOfAChain()
{
    rig::RigDescription d = freeChainOfFour();
    rig::Stick range = stick(0, 3);
    range.kind = rig::StickKind::Range;
    range.minLength = 0.5f;
    range.maxLength = 0.95f;
    d.sticks.push_back(range);
    d.settings = quietSettings(3);
    d.settings.solver = rig::SolverMode::Direct;
    BUILD_RIG(direct, d);
    const std::optional<Rig::DirectSolveShape> shape = direct->directSolveShape();
    QVERIFY(shape.has_value());
    QCOMPARE(shape->rigidSticks, 3u);
    QCOMPARE(shape->factorNonzeros, 2u);
    QCOMPARE(shape->depth, 3u);
    QCOMPARE(shape->limitRows, 1u);
    d.settings.solver = rig::SolverMode::GaussSeidel;
    BUILD_RIG(relaxed, d);
    QVERIFY(!relaxed->directSolveShape().has_value());
}

QTEST_APPLESS_MAIN(TestSticks)
#include "tst_sticks.moc"
