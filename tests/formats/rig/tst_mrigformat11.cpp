// Tests of what format 1.1 added to .mrig (FORMAT.md §5, §6, §9): every new field (substeps, iterations per
// substep, damping and static-friction speed, the Direct solver, angular damping and static-friction speed,
// pin stiffness per 1/60 s) survives write→read bit for bit; the legacy per-step fields the writer fills in
// SETT, ANGU and PINS are the documented equivalents and stay inside format 1.0's ranges; a reader that skips
// SOLV, ANGF and PINF (as a 1.0 reader does) gets a rig that behaves the same; and hostile SOLV/ANGF/PINF
// chunks are refused with exact one-line messages.
#include "MrigFormat11Cases.h"
#include "MrigSuiteSupport.h"
#include "MrigTestSupport.h"

#include "marionette/rig/Mrig.h"
#include "marionette/runtime/Procedural.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace marionette;
using namespace marionette::rig;
using namespace marionette::test;

namespace {

/// Relative closeness for values computed through exp/log/pow in binary32 (and absolute near zero).
bool near(double a, double b, double relative = 1e-3, double absolute = 1e-6)
{
    return std::fabs(a - b) <= std::max(absolute, relative * std::max(std::fabs(a), std::fabs(b)));
}

/// fullRig() with the rates and schedule of one data row.
struct Rates {
    SolverMode solver;
    std::uint32_t substeps, iterations;
    float damping, staticFrictionSpeed;
    float angularDamping, angularSpeed;
    float pinStiffness;
    float timeStep;
};

RigDescription rigWith(const Rates& r)
{
    RigDescription d = fullRig();
    Settings& s = d.settings;
    s.solver = r.solver;
    s.substeps = r.substeps;
    s.iterations = r.iterations;
    s.damping = r.damping;
    s.staticFrictionSpeed = r.staticFrictionSpeed;
    s.timeStep = r.timeStep;
    d.angular[0].damping = r.angularDamping;
    d.angular[0].staticFrictionSpeed = r.angularSpeed;
    d.pins[0].stiffness = r.pinStiffness;
    return d;
}

} // namespace

Q_DECLARE_METATYPE(Rates)

class TestMrigFormat11 : public QObject {
    Q_OBJECT

private slots:
    void newFields_roundTripBitExact_data();
    void newFields_roundTripBitExact();
    void legacyFields_areThePerStepEquivalents_data();
    void legacyFields_areThePerStepEquivalents();
    void readerSkippingNewChunks_getsTheSameBehaviour();
    void readerSkippingNewChunks_proceduralRigs();
    void handBuiltSample_readsNewChunksNotLegacyFields();
    void supersededLegacyFields_areNotUsed();
    void hostileFile_isRefusedWithExactMessage_data();
    void hostileFile_isRefusedWithExactMessage();
};

void TestMrigFormat11::newFields_roundTripBitExact_data()
{
    QTest::addColumn<Rates>("rates");
    const float dt = 1.f / 60.f;
    QTest::newRow("direct, defaults") << Rates{SolverMode::Direct, 8, 2, 0.6f, 0.12f, 0.f, 0.f, 1.f, dt};
    QTest::newRow("gauss-seidel 1x1, zero rates") << Rates{SolverMode::GaussSeidel, 1, 1, 0.f, 0.f, 0.f, 0.f, 1e-6f, dt};
    QTest::newRow("jacobi 64x64, top of every range")
        << Rates{SolverMode::Jacobi, 64, 64, 100.f, 100.f, 1000.f, 100.f, 1.f, 0.1f};
    QTest::newRow("xpbd 3x5, awkward floats")
        << Rates{SolverMode::Xpbd, 3, 5, 0.1f, 1e-40f, 1e-3f, 0.7f, 0.3f, 0.005f};
    QTest::newRow("direct 64x1, -0 rates") << Rates{SolverMode::Direct, 64, 1, -0.f, -0.f, -0.f, -0.f, 0.999f, 1e-4f};
}

void TestMrigFormat11::newFields_roundTripBitExact()
{
    QFETCH(Rates, rates);
    const RigDescription d = rigWith(rates);
    QCOMPARE(QString::fromStdString(d.validate()), QString());
    std::string error;
    const Bytes bytes = writeMrig(d, &error);
    QVERIFY2(!bytes.empty(), error.c_str());
    RigDescription back;
    QVERIFY2(readMrig(bytes, back, &error), error.c_str());
    QCOMPARE(QString::fromStdString(diffRigs(d, back)), QString());
    // Spelled out, in case diffRigs() ever misses one.
    QCOMPARE(back.settings.solver, rates.solver);
    QCOMPARE(back.settings.substeps, rates.substeps);
    QCOMPARE(back.settings.iterations, rates.iterations);
    QCOMPARE(bits(back.settings.damping), bits(rates.damping));
    QCOMPARE(bits(back.settings.staticFrictionSpeed), bits(rates.staticFrictionSpeed));
    QCOMPARE(bits(back.angular[0].damping), bits(rates.angularDamping));
    QCOMPARE(bits(back.angular[0].staticFrictionSpeed), bits(rates.angularSpeed));
    QCOMPARE(bits(back.angular[1].damping), bits(1000.f));
    QCOMPARE(bits(back.pins[0].stiffness), bits(rates.pinStiffness));
    QCOMPARE(bits(back.pins[2].stiffness), bits(1e-6f));
    // And the view holds them in SOLV, ANGF and PINF, bit for bit.
    MrigView view;
    QVERIFY2(view.open(bytes, &error), error.c_str());
    QVERIFY(view.solver());
    QCOMPARE(view.solver()->solver, std::uint32_t(rates.solver));
    QCOMPARE(view.solver()->substeps, rates.substeps);
    QCOMPARE(view.solver()->iterations, rates.iterations);
    QCOMPARE(bits(view.solver()->damping), bits(rates.damping));
    QCOMPARE(bits(view.solver()->staticFrictionSpeed), bits(rates.staticFrictionSpeed));
    QCOMPARE(view.solver()->reserved, 0u);
    QCOMPARE(bits(view.angularFriction()[0].damping), bits(rates.angularDamping));
    QCOMPARE(bits(view.angularFriction()[0].staticFrictionSpeed), bits(rates.angularSpeed));
    QCOMPARE(bits(view.pinStiffness()[0].stiffness), bits(rates.pinStiffness));
}

void TestMrigFormat11::legacyFields_areThePerStepEquivalents_data() { newFields_roundTripBitExact_data(); }

// FORMAT.md §6: what a 1.0 reader finds in SETT, ANGU and PINS of a 1.1 file, and that it is inside the
// ranges a 1.0 reader accepts.
void TestMrigFormat11::legacyFields_areThePerStepEquivalents()
{
    QFETCH(Rates, rates);
    const RigDescription d = rigWith(rates);
    MrigView view;
    std::string error;
    QVERIFY2(view.open(writeMrig(d), &error), error.c_str());
    const mrig::SettingsRecord& s = view.settings();
    const double dt = rates.timeStep;
    const std::uint32_t n = std::clamp(rates.substeps * rates.iterations, 1u, 64u);
    QCOMPARE(s.iterations, n);
    QCOMPARE(s.solver, rates.solver == SolverMode::Direct ? 0u : std::uint32_t(rates.solver));
    QCOMPARE(bits(s.timeStep), bits(rates.timeStep));
    QCOMPARE(s.maxSubsteps, d.settings.maxSubsteps);
    QCOMPARE(bits(s.friction), bits(d.settings.friction));
    QVERIFY2(near(s.drag, std::min(1.0 - std::exp(-rates.damping * dt), 0.99)), qPrintable(QString::number(s.drag)));
    QVERIFY2(near(s.staticFriction, std::min(rates.staticFrictionSpeed * dt, 10.0)), qPrintable(QString::number(s.staticFriction)));
    QVERIFY(s.drag >= 0.f && s.drag <= 0.99f && s.staticFriction >= 0.f && s.staticFriction <= 10.f);
    QVERIFY(s.iterations >= 1 && s.iterations <= 64);
    for (std::size_t i = 0; i < d.angular.size(); ++i) {
        const mrig::AngularRecord& a = view.angular()[i];
        QVERIFY(near(a.dynamicFriction, std::min(1.0 - std::exp(-d.angular[i].damping * dt), 0.999)));
        QVERIFY(near(a.staticFrictionAngle, std::min(d.angular[i].staticFrictionSpeed * dt, double(kPi))));
        QVERIFY(a.dynamicFriction >= 0.f && a.dynamicFriction <= 0.999f);
        QVERIFY(a.staticFrictionAngle >= 0.f && a.staticFrictionAngle <= kPi);
    }
    for (std::size_t i = 0; i < d.pins.size(); ++i) {
        const float p = d.pins[i].stiffness;
        const double perIteration = p >= 1.f ? 1.0 : std::clamp(1.0 - std::pow(1.0 - p, 60.0 * dt / n), 1e-6, 1.0);
        const float written = view.pins()[i].stiffness;
        QVERIFY2(near(written, perIteration, 1e-3, 1e-7), qPrintable(QStringLiteral("pin %1: %2, expected %3")
                                                                        .arg(i)
                                                                        .arg(double(written))
                                                                        .arg(perIteration)));
        QVERIFY(written > 0.f && written <= 1.f);
    }
}

// A reader that does not know SOLV, ANGF and PINF (format 1.0) reads the legacy fields; this build migrates
// them as it would for a 1.0 file. The rig it gets runs n = substeps × iterations relaxation sweeps in one
// substep, and the same rates where the per-step fields could hold them.
void TestMrigFormat11::readerSkippingNewChunks_getsTheSameBehaviour()
{
    RigDescription d = fullRig(); // 7 × 13 per step saturates the legacy iterations at 64
    d.pins[2].stiffness = 0.3f;   // 1e-6 is below what a per-iteration fraction can carry
    Bytes b = writeMrig(d);
    b = renameChunk(b, mrig::kTagSolver, mrig::makeTag('s', 'o', 'l', 'v'));
    b = renameChunk(b, mrig::kTagAngularFriction, mrig::makeTag('a', 'n', 'g', 'f'));
    b = renameChunk(b, mrig::kTagPinStiffness, mrig::makeTag('p', 'i', 'n', 'f'));
    MrigView view;
    std::string error;
    QVERIFY2(view.open(b, &error), error.c_str());
    QVERIFY(!view.solver());
    QVERIFY(view.angularFriction().empty() && view.pinStiffness().empty());
    QCOMPARE(view.info().unknownChunks, 3u);
    RigDescription old;
    QVERIFY2(view.toDescription(old, &error), error.c_str());
    QCOMPARE(old.settings.solver, SolverMode::GaussSeidel); // Direct is not a 1.0 mode
    QCOMPARE(old.settings.substeps, 1u);
    QCOMPARE(old.settings.iterations, 64u);
    QVERIFY2(near(old.settings.damping, d.settings.damping), qPrintable(QString::number(old.settings.damping)));
    QVERIFY(near(old.settings.staticFrictionSpeed, d.settings.staticFrictionSpeed));
    for (std::size_t i = 0; i < d.angular.size(); ++i) {
        QVERIFY2(near(old.angular[i].damping, d.angular[i].damping, 1e-3, 1e-30),
                 qPrintable(QStringLiteral("angular[%1].damping %2").arg(i).arg(double(old.angular[i].damping))));
        QVERIFY(near(old.angular[i].staticFrictionSpeed, d.angular[i].staticFrictionSpeed, 1e-3, 1e-30));
    }
    for (std::size_t i = 0; i < d.pins.size(); ++i)
        QVERIFY2(near(old.pins[i].stiffness, d.pins[i].stiffness),
                 qPrintable(QStringLiteral("pins[%1] %2").arg(i).arg(double(old.pins[i].stiffness))));
    // Everything that is not a rate or the schedule is the same.
    old.settings.solver = d.settings.solver;
    old.settings.substeps = d.settings.substeps;
    old.settings.iterations = d.settings.iterations;
    old.settings.damping = d.settings.damping;
    old.settings.staticFrictionSpeed = d.settings.staticFrictionSpeed;
    for (std::size_t i = 0; i < d.angular.size(); ++i) {
        old.angular[i].damping = d.angular[i].damping;
        old.angular[i].staticFrictionSpeed = d.angular[i].staticFrictionSpeed;
    }
    for (std::size_t i = 0; i < d.pins.size(); ++i)
        old.pins[i].stiffness = d.pins[i].stiffness;
    QCOMPARE(QString::fromStdString(diffRigs(d, old)), QString());
}

void TestMrigFormat11::readerSkippingNewChunks_proceduralRigs()
{
    for (const RigDescription& d : {runtime::makeHumanoid(), runtime::makeCloth(8, 6, 0.1f),
                                    runtime::makeCrate({0.3f, 0.2f, 0.4f}, 12.f)}) {
        Bytes b = writeMrig(d);
        QVERIFY(!b.empty());
        b = renameChunk(b, mrig::kTagSolver, mrig::makeTag('s', 'o', 'l', 'v'));
        b = renameChunk(b, mrig::kTagAngularFriction, mrig::makeTag('a', 'n', 'g', 'f'));
        b = renameChunk(b, mrig::kTagPinStiffness, mrig::makeTag('p', 'i', 'n', 'f'));
        RigDescription old;
        std::string error;
        QVERIFY2(readMrig(b, old, &error), error.c_str());
        QCOMPARE(old.settings.substeps, 1u);
        QCOMPARE(old.settings.iterations, std::clamp(d.settings.substeps * d.settings.iterations, 1u, 64u));
        QVERIFY(near(old.settings.damping, std::min(d.settings.damping, 100.f)));
        QVERIFY(near(old.settings.staticFrictionSpeed, d.settings.staticFrictionSpeed));
        for (std::size_t i = 0; i < d.angular.size(); ++i)
            QVERIFY(near(old.angular[i].damping, d.angular[i].damping) &&
                    near(old.angular[i].staticFrictionSpeed, d.angular[i].staticFrictionSpeed));
        for (std::size_t i = 0; i < d.pins.size(); ++i)
            QVERIFY(near(old.pins[i].stiffness, d.pins[i].stiffness));
    }
}

// The hand-built 1.1 sample: the rates come from SOLV, ANGF and PINF, not from the 1.0 fields beside them.
void TestMrigFormat11::handBuiltSample_readsNewChunksNotLegacyFields()
{
    const RawRig raw = rawSample11();
    RigDescription d;
    std::string error;
    QVERIFY2(readMrig(builderFor(raw).build(), d, &error), error.c_str());
    QCOMPARE(d.settings.solver, SolverMode::Direct);
    QCOMPARE(d.settings.substeps, 4u);
    QCOMPARE(d.settings.iterations, 3u); // SETT.iterations is 8
    QCOMPARE(d.settings.damping, 2.5f);
    QCOMPARE(d.settings.staticFrictionSpeed, 0.25f);
    QCOMPARE(d.angular[0].damping, 5.f);
    QCOMPARE(d.angular[0].staticFrictionSpeed, 0.5f);
    QCOMPARE(d.pins[0].stiffness, 0.75f); // PINS.stiffness is 1
    QCOMPARE(d.settings.timeStep, raw.settings.timeStep);
    QCOMPARE(d.settings.maxSubsteps, 4u);

    // The same rig without the 1.1 chunks is a 1.0 file: migrated.
    RigDescription legacy;
    QVERIFY2(readMrig(builderFor(rawSample()).build(), legacy, &error), error.c_str());
    Settings expected;
    migrateLegacySettings({raw.settings.timeStep, raw.settings.iterations, raw.settings.drag, raw.settings.staticFriction},
                          expected);
    QCOMPARE(legacy.settings.solver, SolverMode::GaussSeidel);
    QCOMPARE(legacy.settings.substeps, 1u);
    QCOMPARE(legacy.settings.iterations, 8u);
    QCOMPARE(bits(legacy.settings.damping), bits(expected.damping));
    QCOMPARE(bits(legacy.settings.staticFrictionSpeed), bits(expected.staticFrictionSpeed));
    QCOMPARE(legacy.pins[0].stiffness, 1.f);
}

// A 1.1 reader takes the rates from SOLV, ANGF and PINF only: the 1.0 fields they supersede are record-checked
// (finite, enums) but their ranges do not matter, as a 1.1 writer always fills them in range.
void TestMrigFormat11::supersededLegacyFields_areNotUsed()
{
    RawRig raw = rawSample11();
    raw.settings.drag = 5.f;
    raw.settings.staticFriction = -1.f;
    raw.settings.iterations = 0;
    raw.angular[0].dynamicFriction = 1.f;
    raw.pins[0].stiffness = 0.f;
    QCOMPARE(QString::fromStdString(readError(builderFor(raw).build())), QStringLiteral("OK"));
    raw.settings.solver = 3; // still a 1.0 field with a 1.0 range
    QCOMPARE(QString::fromStdString(readError(builderFor(raw).build())), QStringLiteral("SETT.solver: unknown value 3 (0 to 2)"));
}

void TestMrigFormat11::hostileFile_isRefusedWithExactMessage_data()
{
    addHostileFileRows(format11Cases());
    QVERIFY(format11Cases().size() >= 30);
}

void TestMrigFormat11::hostileFile_isRefusedWithExactMessage()
{
    QFETCH(Bytes, file);
    QFETCH(QString, message);
    QFETCH(bool, viewOpens);
    checkHostileFile(file, message, viewOpens);
}

QTEST_GUILESS_MAIN(TestMrigFormat11)
#include "tst_mrigformat11.moc"
