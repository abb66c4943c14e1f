// Scenarios beyond hits and drags (docs/preview.md): explosions, live setting changes (iterations, time
// step, gravity, and the start's overrides) and an animation start are recorded by PreviewSession, go
// through the project file, and replay bit for bit; runScenario needs the mesh for an animation start.
#include "PreviewTestSupport.h"
#include "TurningArm.h"

#include "marionette/editor/preview/PreviewSession.h"
#include "marionette/editor/preview/ScenarioRunner.h"
#include "marionette/project/Project.h"
#include "marionette/project/ProjectFile.h"
#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/Ragdoll.h"

#include <QtTest>

#include <cmath>
#include <cstring>

using namespace marionette;
using editor::PreviewSession;
using editor::PreviewSettings;
using test::copy;
using test::humanoid;
using test::sameBits;

namespace {

/// The scenario written to a project file and read back, as the editor saves it and the CLI reads it.
project::Scenario throughTheFile(const rig::RigDescription& r, const project::Scenario& s)
{
    project::Project p;
    p.name = QStringLiteral("events");
    p.rig = r;
    p.scenarios.push_back(s);
    QString error;
    const QByteArray json = project::writeProject(p, error);
    if (json.isEmpty())
        qFatal("writeProject: %s", qPrintable(error));
    project::Project back;
    const project::LoadResult loaded = project::readProject(json, QStringLiteral("events.mproj"), back);
    if (!loaded.ok() || back.scenarios.size() != 1)
        qFatal("readProject: %s", qPrintable(loaded.error));
    return back.scenarios[0];
}

/// Replays `scenario` and compares every step with `x` (x[0] the start).
bool replaysAs(const rig::RigDescription& r, const project::Scenario& scenario, const std::vector<std::vector<Vec3>>& x,
               const import::ImportedScene* mesh, QString& why)
{
    PreviewSession replay;
    if (!replay.startScenario(r, scenario, why, mesh))
        return false;
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (i > 0)
            replay.step();
        if (!sameBits(replay.positions(), x[i])) {
            why = QStringLiteral("step %1 differs").arg(i);
            return false;
        }
    }
    return true;
}

} // namespace

class TestScenarioEvents : public QObject {
    Q_OBJECT

private slots:
    void explosionsAndSettingChanges_replayBitForBit();
    void startOverrides_becomeAChangeAtFrameZero();
    void animationStart_replaysFromTheClipWithTheMesh();
    void runScenario_withoutTheMeshOrTheClip_failsNamingIt();
    void runScenario_followsTimeStepChangesToTheDuration();
};

void TestScenarioEvents::explosionsAndSettingChanges_replayBitForBit()
{
    const rig::RigDescription r = humanoid();
    PreviewSession live;
    PreviewSettings settings;
    settings.scene = project::Scene::Stairs;
    settings.dropHeight = 0.5f;
    QString error;
    QVERIFY2(live.start(r, settings, error), qPrintable(error));
    live.setRecording(true);
    std::vector<std::vector<Vec3>> x{copy(live.positions())};
    auto run = [&](int n) {
        for (int i = 0; i < n; ++i) {
            live.step();
            x.push_back(copy(live.positions()));
        }
    };
    run(20);
    const Vec3 below = live.positions()[runtime::kSpine] - Vec3{0.f, 0.3f, 0.f};
    live.explode(below, 4.f, 2.f);
    run(10);
    live.setIterations(3);
    live.setTimeStep(1.f / 90.f);
    run(15);
    live.setGravity(false);
    run(10);
    live.setGravity(true);
    live.setTimeStep(1.f / 60.f);
    live.explode(live.positions()[runtime::kHead] + Vec3{0.3f, 0.f, 0.f}, 2.f, 1.f);
    run(40);
    // The blast moved the body: it is not what a plain drop does.
    PreviewSession plain;
    QVERIFY(plain.start(r, settings, error));
    for (int i = 0; i < 25; ++i)
        plain.step();
    QVERIFY(length(plain.positions()[runtime::kSpine] - x[25][runtime::kSpine]) > 0.01f);

    const project::Scenario recorded = live.recordedScenario(QStringLiteral("events"), {});
    QCOMPARE(recorded.explosions.size(), std::size_t(2));
    QCOMPARE(recorded.explosions[0].frame, 20u);
    QCOMPARE(recorded.explosions[0].strength, 4.f);
    QCOMPARE(recorded.explosions[1].frame, 55u);
    QCOMPARE(recorded.settingChanges.size(), std::size_t(3));
    QCOMPARE(recorded.settingChanges[0].frame, 30u);
    QCOMPARE(recorded.settingChanges[0].iterations, std::optional<std::uint32_t>(3u));
    QCOMPARE(recorded.settingChanges[0].timeStep, std::optional<float>(1.f / 90.f));
    QVERIFY(!recorded.settingChanges[0].gravity);
    QCOMPARE(recorded.settingChanges[1].frame, 45u);
    QCOMPARE(recorded.settingChanges[1].gravity, std::optional<bool>(false));
    QCOMPARE(recorded.settingChanges[2].frame, 55u);
    QCOMPARE(recorded.settingChanges[2].gravity, std::optional<bool>(true));
    QCOMPARE(recorded.settingChanges[2].timeStep, std::optional<float>(1.f / 60.f));
    // The duration is the time simulated: 30 + 25 steps of 1/60 s and 15 + 10 of 1/90 s.
    QVERIFY(std::fabs(recorded.duration - (70.f / 60.f + 25.f / 90.f)) < 1e-4f);

    const project::Scenario back = throughTheFile(r, recorded);
    QCOMPARE(back.explosions.size(), std::size_t(2));
    QCOMPARE(back.settingChanges.size(), std::size_t(3));
    QVERIFY2(replaysAs(r, back, x, nullptr, error), qPrintable(error));
    // The headless run takes the same steps: as many as the recording.
    const editor::ScenarioResult res = editor::runScenario(r, back);
    QCOMPARE(res.steps, std::uint64_t(x.size() - 1));
}

void TestScenarioEvents::startOverrides_becomeAChangeAtFrameZero()
{
    const rig::RigDescription r = humanoid();
    PreviewSession live;
    PreviewSettings settings;
    settings.dropHeight = 0.4f;
    settings.iterations = 2;
    settings.timeStep = 1.f / 120.f;
    settings.gravity = false;
    QString error;
    QVERIFY2(live.start(r, settings, error), qPrintable(error));
    live.setRecording(true);
    std::vector<std::vector<Vec3>> x{copy(live.positions())};
    live.hitParticle(runtime::kHead, {0.f, 0.f, 4.f});
    for (int i = 0; i < 60; ++i) {
        live.step();
        x.push_back(copy(live.positions()));
    }
    const project::Scenario recorded = live.recordedScenario(QStringLiteral("overrides"), {});
    QCOMPARE(recorded.settingChanges.size(), std::size_t(1));
    const project::SettingChange& c = recorded.settingChanges[0];
    QCOMPARE(c.frame, 0u);
    QCOMPARE(c.iterations, std::optional<std::uint32_t>(2u));
    QCOMPARE(c.timeStep, std::optional<float>(1.f / 120.f));
    QCOMPARE(c.gravity, std::optional<bool>(false));
    // Without gravity the body only drifts from the hit: it never reaches the floor 0.4 m below.
    QVERIFY(x.back()[runtime::kSpine].y > x.front()[runtime::kSpine].y - 0.01f);
    QVERIFY2(replaysAs(r, throughTheFile(r, recorded), x, nullptr, error), qPrintable(error));
}

void TestScenarioEvents::animationStart_replaysFromTheClipWithTheMesh()
{
    const test::TurningArm arm = test::turningArm();
    PreviewSession live;
    QString error;
    QVERIFY2(live.start(arm.rig, {}, error), qPrintable(error));
    QVERIFY2(live.startFromAnimation(arm.mesh, 0, 0.4f, error), qPrintable(error));
    live.setRecording(true);
    std::vector<std::vector<Vec3>> x{copy(live.positions())};
    for (int i = 0; i < 45; ++i) {
        if (i == 10)
            live.hitParticle(2, {0.f, 0.f, 1.f});
        live.step();
        x.push_back(copy(live.positions()));
    }
    const project::Scenario recorded = live.recordedScenario(QStringLiteral("from the clip"), {});
    QVERIFY(recorded.animationStart.has_value());
    QCOMPARE(recorded.animationStart->clip, QStringLiteral("turn"));
    QCOMPARE(recorded.animationStart->time, 0.4f);
    const project::Scenario back = throughTheFile(arm.rig, recorded);
    QVERIFY(back.animationStart.has_value());
    QVERIFY2(replaysAs(arm.rig, back, x, &arm.mesh, error), qPrintable(error));

    // reset() keeps a scenario's animation start: the replay starts from the clip again.
    PreviewSession replay;
    QVERIFY2(replay.startScenario(arm.rig, back, error, &arm.mesh), qPrintable(error));
    for (int i = 0; i < 20; ++i)
        replay.step();
    replay.reset();
    QVERIFY(sameBits(replay.positions(), x[0]));
    // A live animation start is not kept by a later plain start().
    QVERIFY2(live.start(arm.rig, {}, error), qPrintable(error));
    QVERIFY(!live.recordedScenario(QStringLiteral("plain"), {}).animationStart);
}

void TestScenarioEvents::runScenario_withoutTheMeshOrTheClip_failsNamingIt()
{
    const test::TurningArm arm = test::turningArm();
    project::Scenario s;
    s.name = QStringLiteral("wave");
    s.duration = 1.f;
    s.animationStart = project::AnimationStart{QStringLiteral("turn"), 0.2f};
    editor::ScenarioResult res = editor::runScenario(arm.rig, s);
    QVERIFY(!res.passed);
    QCOMPARE(res.failures.size(), 1);
    QVERIFY2(res.failures[0].contains(QStringLiteral("'turn'")) && res.failures[0].contains(QStringLiteral("source mesh")),
             qPrintable(res.failures[0]));
    s.animationStart->clip = QStringLiteral("wave");
    res = editor::runScenario(arm.rig, s, &arm.mesh);
    QVERIFY(!res.passed);
    QVERIFY2(res.failures[0].contains(QStringLiteral("'wave', which the mesh does not have")), qPrintable(res.failures[0]));
    s.animationStart->clip = QStringLiteral("turn");
    res = editor::runScenario(arm.rig, s, &arm.mesh);
    QVERIFY2(res.failures.isEmpty() || !res.failures[0].contains(QStringLiteral("mesh")), qPrintable(res.failures.join('\n')));
    QCOMPARE(res.steps, std::uint64_t(60));
}

void TestScenarioEvents::runScenario_followsTimeStepChangesToTheDuration()
{
    const rig::RigDescription r = humanoid();
    project::Scenario s;
    s.name = QStringLiteral("fine");
    s.duration = 2.f;
    s.dropHeight = 0.2f;
    project::SettingChange c;
    c.frame = 30; // 0.5 s at 1/60 s, then 1.5 s at 1/240 s: 30 + 360 steps
    c.timeStep = 1.f / 240.f;
    s.settingChanges.push_back(c);
    const editor::ScenarioResult res = editor::runScenario(r, s);
    QCOMPARE(res.steps, std::uint64_t(390));
}

QTEST_GUILESS_MAIN(TestScenarioEvents)
#include "tst_scenarioevents.moc"
