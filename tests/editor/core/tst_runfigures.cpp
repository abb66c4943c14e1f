// RunFigures: the run figures `marionette simulate` reports and the preview shows, checked on a bar dropped
// flat onto the floor, whose fall and rest are known in closed form.
#include "marionette/editor/preview/RunFigures.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <QtTest>

#include <cmath>

using namespace marionette;

namespace {

constexpr float kRadius = 0.05f;
constexpr float kG = 9.81f;

/// Two 1 kg particles 0.5 m apart joined by a rigid stick (of this XPBD compliance, m/N), no drag.
std::shared_ptr<const runtime::Rig> bar(float compliance)
{
    rig::RigDescription d;
    d.name = "bar";
    d.particles.push_back({"a", 1, {-0.25f, 0.f, 0.f}, 1.f, kRadius});
    d.particles.push_back({"b", 2, {0.25f, 0.f, 0.f}, 1.f, kRadius});
    rig::Stick s;
    s.name = "bar";
    s.id = 3;
    s.a = 0;
    s.b = 1;
    s.compliance = compliance;
    d.sticks.push_back(s);
    d.settings.damping = 0.f;
    std::string error;
    auto r = runtime::Rig::build(d, &error);
    if (!r)
        qFatal("bar rig: %s", error.c_str());
    return r;
}

struct Run {
    runtime::World world;
    runtime::Ragdoll* ragdoll = nullptr;
    editor::RunFigures figures;
    float dt;
    long steps = 0;

    explicit Run(float height, float compliance = 0.f)
        : world([] {
              runtime::WorldSettings ws;
              ws.sleep = false;
              return ws;
          }()),
          figures(editor::buildTestScene(world, project::Scene::Floor)), dt(world.settings().timeStep)
    {
        // The spheres' bottoms `height` above the floor.
        ragdoll = world.ragdoll(world.spawn(bar(compliance), Transform{Quat{}, {0.f, height + kRadius, 0.f}}));
    }
    void step(long n)
    {
        for (long k = 0; k < n; ++k) {
            world.step();
            ++steps;
            figures.measure(*ragdoll, float(steps) * dt, dt);
        }
    }
};

} // namespace

class TestRunFigures : public QObject {
    Q_OBJECT

private slots:
    void fall_firstContactAtTheFreeFallTime();
    void rest_settlesStaysAboveTheFloorAndHoldsTheStick();
    void motionAfterRest_unsettlesUntilStillAgain();
    void impactWindow_coversHalfASecondAfterTheFirstContact();
};

void TestRunFigures::fall_firstContactAtTheFreeFallTime()
{
    Run run(1.25f);
    run.step(20);
    QCOMPARE(run.figures.firstContact(), -1.f);
    QCOMPARE(run.figures.contacts(), 0u);
    // Falling at g t after t seconds: the step's speed is the mean over it, g (t − dt/2).
    const float t = 20.f * run.dt;
    QVERIFY2(std::fabs(run.figures.fastest() - kG * (t - 0.5f * run.dt)) < 0.01f,
             qPrintable(QString::number(run.figures.fastest())));
    QCOMPARE(run.figures.settledAt(), -1.f);
    run.step(60);
    // Touching within 1 mm: the first step that ends at or after √(2 (h − 1 mm) / g).
    const float contact = std::sqrt(2.f * (1.25f - 0.001f) / kG);
    QVERIFY2(run.figures.firstContact() >= contact - 1e-4f && run.figures.firstContact() < contact + run.dt,
             qPrintable(QStringLiteral("%1 vs %2").arg(run.figures.firstContact()).arg(contact)));
    QVERIFY(run.figures.finite());
}

void TestRunFigures::rest_settlesStaysAboveTheFloorAndHoldsTheStick()
{
    Run run(0.5f);
    run.step(240);
    QVERIFY(run.figures.settledAt() > run.figures.firstContact());
    QVERIFY2(run.figures.settledAt() < 2.f, qPrintable(QString::number(run.figures.settledAt())));
    QCOMPARE(run.figures.contacts(), 2u);
    QVERIFY(run.figures.fastest() < editor::kSettleSpeed);
    // Resting on the floor: centres one radius up, spheres barely in it.
    QVERIFY2(std::fabs(run.figures.minHeight() - kRadius) < 1e-3f, qPrintable(QString::number(run.figures.minHeight())));
    QVERIFY(run.figures.maxPenetration() < 1e-3f);
    QVERIFY(run.figures.stepPenetration() <= run.figures.maxPenetration());
    // A rigid stick landing flat keeps its length; no angular constraint, no limit.
    QVERIFY(run.figures.worstStickError() < 1e-3f);
    QVERIFY(run.figures.impactStickError() <= run.figures.worstStickError());
    QCOMPARE(run.figures.worstLimit(), -1);
    QCOMPARE(run.figures.worstLimitExcess(), 0.f);
}

void TestRunFigures::motionAfterRest_unsettlesUntilStillAgain()
{
    Run run(0.5f);
    run.step(240);
    const float first = run.figures.settledAt();
    QVERIFY(first > 0.f);
    // Thrown up at 2 m/s: moving again, so not settled, until it has landed and stopped once more.
    run.ragdoll->applyImpulse(0, {0.f, 2.f, 0.f});
    run.ragdoll->applyImpulse(1, {0.f, 2.f, 0.f});
    run.step(1);
    QCOMPARE(run.figures.settledAt(), -1.f);
    run.step(300);
    QVERIFY2(run.figures.settledAt() > 240.f * run.dt, qPrintable(QString::number(run.figures.settledAt())));
    // The first contact is the run's first, not the second landing.
    QVERIFY(run.figures.firstContact() < first);
}

void TestRunFigures::impactWindow_coversHalfASecondAfterTheFirstContact()
{
    // A compliant bar lands, then is stretched by a pull on one end well after the window: the stretch
    // counts in the worst stick error but not in the impact figure.
    Run run(0.5f, 1e-3f);
    run.step(120);
    const float impact = run.figures.impactStickError();
    QVERIFY(run.figures.firstContact() + editor::kImpactWindow < 2.f);
    run.ragdoll->applyImpulse(1, {20.f, 0.f, 0.f}); // 20 m/s on one end stretches the compliant stick
    run.step(1);
    QVERIFY2(run.figures.stepStickError() > 10.f * impact + 1e-3f,
             qPrintable(QStringLiteral("%1 vs %2").arg(run.figures.stepStickError()).arg(impact)));
    QCOMPARE(run.figures.impactStickError(), impact);
    QCOMPARE(run.figures.worstStickError(), run.figures.stepStickError());
    QCOMPARE(run.figures.worstStick(), 0);
}

QTEST_APPLESS_MAIN(TestRunFigures)
#include "tst_runfigures.moc"
