// runScenario (ScenarioRunner.h): a recorded scenario replayed headless against its expectations.
#include "marionette/editor/preview/ScenarioRunner.h"
#include "marionette/project/Project.h"
#include "marionette/runtime/Procedural.h"

#include <QtTest>

using namespace marionette;

namespace {

rig::RigDescription humanoid()
{
    rig::RigDescription r = runtime::makeHumanoid();
    project::assignMissingIds(r);
    return r;
}

/// A drop from 0.3 m onto the floor, 5 s long, with a push on the head at 0.5 s: at rest (asleep) within
/// 5 s, the product's settle target.
project::Scenario drop()
{
    project::Scenario s;
    s.name = QStringLiteral("drop");
    s.dropHeight = 0.3f;
    s.duration = 5.f;
    project::Hit h;
    h.frame = 30;
    h.target = {project::ElementKind::Particle, 0};
    h.impulse = {0.f, 0.f, 2.f};
    s.hits.push_back(h);
    s.expect.settleWithin = 5.f;
    s.expect.maxPenetration = 0.02f;
    s.expect.maxLimitViolationDegrees = 10.f;
    return s;
}

} // namespace

class TestScenarioRunner : public QObject {
    Q_OBJECT

private slots:
    void run_passesAReachableScenario();
    void run_failsImpossibleExpectationsWithOneLineEach();
    void run_reportsAnElementTheRigDoesNotHave();
};

void TestScenarioRunner::run_passesAReachableScenario()
{
    rig::RigDescription r = humanoid();
    project::Scenario s = drop();
    s.hits[0].target.id = r.particles[runtime::kHead].id;
    const editor::ScenarioResult res = editor::runScenario(r, s);
    QVERIFY2(res.passed, qPrintable(res.failures.join(QLatin1Char('\n'))));
    QCOMPARE(res.steps, std::uint64_t(300)); // 5 s at 1/60 s
    QVERIFY(res.settledAt > 0.5f && res.settledAt <= 5.f);
    QVERIFY(res.maxPenetration < 0.02f);
}

void TestScenarioRunner::run_failsImpossibleExpectationsWithOneLineEach()
{
    rig::RigDescription r = humanoid();
    project::Scenario s = drop();
    s.hits[0].target.id = r.particles[runtime::kHead].id;
    s.duration = 0.5f;
    s.expect.settleWithin = 0.1f;
    s.expect.maxPenetration = 0.f;
    s.expect.maxLimitViolationDegrees = 0.f;
    // The left wrist dragged 10 cm into the floor from 0.25 s: a kinematic pin holds it there, so the
    // sphere (radius r) is 0.1 m + r deep whatever the contacts do.
    project::Drag d;
    d.particle = r.particles[runtime::kWristL].id;
    d.startFrame = 15;
    d.endFrame = 29;
    d.target = {0.8f, -0.1f, 0.f};
    s.drags.push_back(d);
    const editor::ScenarioResult res = editor::runScenario(r, s);
    QVERIFY(!res.passed);
    QCOMPARE(res.settledAt, -1.f);
    QCOMPARE(res.steps, std::uint64_t(30));
    const float depth = 0.1f + r.particles[runtime::kWristL].radius;
    QVERIFY(std::fabs(res.maxPenetration - depth) < 1e-5f);
    QVERIFY(res.maxLimitViolationDegrees > 0.05f); // the solver leaves some excess while the body lands
    QCOMPARE(res.failures.size(), 3);
    QCOMPARE(res.failures[0], QStringLiteral("settle: still moving after 0.5 s (expected within 0.1 s)"));
    QCOMPARE(res.failures[1], QStringLiteral("penetration: %1 mm into the scene (expected at most 0.0 mm)")
                                  .arg(QString::number(double(depth) * 1000.0, 'f', 1)));
    QCOMPARE(res.failures[2], QStringLiteral("limits: %1 deg beyond an angular limit (expected at most 0.00 deg)")
                                  .arg(QString::number(double(res.maxLimitViolationDegrees), 'f', 2)));
}

void TestScenarioRunner::run_reportsAnElementTheRigDoesNotHave()
{
    const rig::RigDescription r = humanoid();
    project::Scenario s = drop();
    s.hits[0].target.id = 9999;
    const editor::ScenarioResult res = editor::runScenario(r, s);
    QVERIFY(!res.passed);
    QCOMPARE(res.failures, QStringList{QStringLiteral("scenario 'drop': hit 0 names particle 9999, which the rig does not have")});
    QCOMPARE(res.steps, std::uint64_t(0));
}

QTEST_GUILESS_MAIN(TestScenarioRunner)
#include "tst_scenariorunner.moc"
