// `marionette simulate PROJECT --scenario NAME | --all-scenarios` run as a user runs it (QProcess): PASS/FAIL
// lines, `error:` lines naming the project and scenario, JSON, exit codes 0/1/2, refusals.
#include "marionette/project/ProjectFile.h"
#include "marionette/rig/Mrig.h"
#include "marionette/runtime/Procedural.h"

#include "ProcessRunner.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace marionette;

namespace {

using Run = test::ProcessRun;

Run cli(const QStringList& arguments) { return test::runProcess(QStringLiteral(MARIONETTE_CLI), arguments, 30000); }

QStringList lines(const QString& text) { return text.split(QLatin1Char('\n'), Qt::SkipEmptyParts); }

/// A scenario of `seconds` that starts from `clip` at 0.5 s instead of a drop.
project::Scenario fromClip(const char* name, const char* clip, float seconds)
{
    project::Scenario s;
    s.name = QString::fromUtf8(name);
    s.duration = seconds;
    s.animationStart = project::AnimationStart{QString::fromUtf8(clip), 0.5f};
    s.expect.maxPenetration = 0.05f;
    return s;
}

} // namespace

class TestCliScenarios : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void scenario_passingExitsZero();
    void scenario_failingExitsOneWithErrorLines();
    void allScenarios_runsEveryOneAndFailsIfAnyFails();
    void allScenarios_json();
    void scenario_unknownNameListsTheScenarios();
    void scenario_refusedOnABinaryRigAndWithSceneOptions();
    void scenario_startingFromAClip_importsTheProjectsMesh();

private:
    QTemporaryDir mDir;
    QString mProject, mPassing, mRig;
};

void TestCliScenarios::initTestCase()
{
    QVERIFY(mDir.isValid());
    project::Project p;
    p.name = QStringLiteral("hero");
    p.rig = runtime::makeHumanoid();
    project::assignMissingIds(p.rig);
    // "drop": 0.3 m onto the floor with a push on the head; at rest (asleep) within 5 s.
    project::Scenario drop;
    drop.name = QStringLiteral("drop");
    drop.dropHeight = 0.3f;
    drop.duration = 5.f;
    project::Hit h;
    h.frame = 30;
    h.target = {project::ElementKind::Particle, p.rig.particles[runtime::kHead].id};
    h.impulse = {0.f, 0.f, 2.f};
    drop.hits.push_back(h);
    drop.expect.settleWithin = 5.f;
    drop.expect.maxPenetration = 0.02f;
    drop.expect.maxLimitViolationDegrees = 10.f;
    // "rush": half a second, expected to settle in 0.1 s and not to penetrate at all.
    project::Scenario rush = drop;
    rush.name = QStringLiteral("rush");
    rush.duration = 0.5f;
    rush.expect.settleWithin = 0.1f;
    p.scenarios = {drop, rush};
    mProject = mDir.filePath(QStringLiteral("hero.mproj"));
    const project::SaveResult saved = project::saveProject(mProject, p);
    QVERIFY2(saved.ok(), qPrintable(saved.error));
    p.scenarios = {drop};
    mPassing = mDir.filePath(QStringLiteral("passing.mproj"));
    QVERIFY(project::saveProject(mPassing, p).ok());
    mRig = mDir.filePath(QStringLiteral("hero.mrig"));
    std::string error;
    QVERIFY2(rig::saveMrig(mRig.toStdString(), p.rig, &error), error.c_str());
}

void TestCliScenarios::scenario_passingExitsZero()
{
    const Run r = cli({QStringLiteral("simulate"), mProject, QStringLiteral("--scenario"), QStringLiteral("drop")});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.err, QString());
    QCOMPARE(lines(r.out).size(), 1);
    QVERIFY2(r.out.startsWith(QStringLiteral("PASS drop: settled at ")), qPrintable(r.out));
    QVERIFY(r.out.contains(QStringLiteral(", 300 steps")));
}

void TestCliScenarios::scenario_failingExitsOneWithErrorLines()
{
    const Run r = cli({QStringLiteral("simulate"), mProject, QStringLiteral("--scenario"), QStringLiteral("rush")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.out.startsWith(QStringLiteral("FAIL rush: not settled, ")), qPrintable(r.out));
    QVERIFY(r.out.contains(QStringLiteral("(settle: still moving after 0.5 s (expected within 0.1 s))")));
    QCOMPARE(lines(r.err), QStringList{QStringLiteral("error: %1: scenario 'rush': settle: still moving after 0.5 s "
                                                      "(expected within 0.1 s)").arg(mProject)});
}

void TestCliScenarios::allScenarios_runsEveryOneAndFailsIfAnyFails()
{
    Run r = cli({QStringLiteral("simulate"), mProject, QStringLiteral("--all-scenarios")});
    QCOMPARE(r.exitCode, 1);
    const QStringList out = lines(r.out);
    QCOMPARE(out.size(), 2);
    QVERIFY(out[0].startsWith(QStringLiteral("PASS drop: ")));
    QVERIFY(out[1].startsWith(QStringLiteral("FAIL rush: ")));
    QCOMPARE(lines(r.err).size(), 1);
    r = cli({QStringLiteral("simulate"), mPassing, QStringLiteral("--all-scenarios")});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(lines(r.out).size(), 1);
}

void TestCliScenarios::allScenarios_json()
{
    const Run r = cli({QStringLiteral("simulate"), mProject, QStringLiteral("--all-scenarios"), QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 1);
    QJsonParseError pe;
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8(), &pe).object();
    QCOMPARE(pe.error, QJsonParseError::NoError);
    QCOMPARE(o[QStringLiteral("project")].toString(), mProject);
    QCOMPARE(o[QStringLiteral("passed")].toBool(true), false);
    const QJsonArray s = o[QStringLiteral("scenarios")].toArray();
    QCOMPARE(s.size(), 2);
    const QJsonObject drop = s[0].toObject(), rush = s[1].toObject();
    QCOMPARE(drop[QStringLiteral("name")].toString(), QStringLiteral("drop"));
    QVERIFY(drop[QStringLiteral("passed")].toBool());
    QCOMPARE(drop[QStringLiteral("steps")].toInt(), 300);
    const double settled = drop[QStringLiteral("settled_at")].toDouble();
    QVERIFY(settled > 0.5 && settled <= 5.0);
    QVERIFY(drop[QStringLiteral("max_penetration")].toDouble() < 0.02);
    QVERIFY(drop[QStringLiteral("failures")].toArray().isEmpty());
    QCOMPARE(rush[QStringLiteral("passed")].toBool(true), false);
    QCOMPARE(rush[QStringLiteral("settled_at")].toDouble(), -1.0);
    QCOMPARE(rush[QStringLiteral("failures")].toArray().first().toString(),
             QStringLiteral("settle: still moving after 0.5 s (expected within 0.1 s)"));
    QCOMPARE(lines(r.err).size(), 1); // stdout stays pure JSON; the failure is on stderr as well
}

void TestCliScenarios::scenario_unknownNameListsTheScenarios()
{
    const Run r = cli({QStringLiteral("simulate"), mProject, QStringLiteral("--scenario"), QStringLiteral("nope")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.startsWith(QStringLiteral("error: no scenario 'nope' in %1 (it has: drop, rush)\n").arg(mProject)),
             qPrintable(r.err));
    QCOMPARE(r.out, QString());
}

void TestCliScenarios::scenario_refusedOnABinaryRigAndWithSceneOptions()
{
    Run r = cli({QStringLiteral("simulate"), mRig, QStringLiteral("--scenario"), QStringLiteral("drop")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.startsWith(QStringLiteral("error: %1 is a binary rig: scenarios live in projects (.mproj)\n").arg(mRig)),
             qPrintable(r.err));
    r = cli({QStringLiteral("simulate"), mProject, QStringLiteral("--all-scenarios"), QStringLiteral("--frames"),
             QStringLiteral("10")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.startsWith(QStringLiteral("error: --frames cannot be combined with a scenario")));
    r = cli({QStringLiteral("simulate"), mProject, QStringLiteral("--all-scenarios"), QStringLiteral("--scenario"),
             QStringLiteral("drop")});
    QCOMPARE(r.exitCode, 2);
    // The plain drop on a project still works as before.
    r = cli({QStringLiteral("simulate"), mProject, QStringLiteral("--frames"), QStringLiteral("5"), QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 0);
}

// A project imported from a skinned, animated glTF (Assimp's test model): a scenario that starts from its
// clip makes the CLI import the project's mesh; a clip the mesh lacks, or a missing mesh, fails naming it.
void TestCliScenarios::scenario_startingFromAClip_importsTheProjectsMesh()
{
    const QString mesh = QStringLiteral("/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf");
    QVERIFY2(QFileInfo::exists(mesh), "assimp-testmodels is not installed (scripts/deps installs it)");
    const QString path = mDir.filePath(QStringLiteral("skin.mproj"));
    const Run imported = cli({QStringLiteral("import"), mesh, QStringLiteral("-o"), path});
    QVERIFY2(imported.exitCode == 0, qPrintable(imported.describe()));
    project::Project p;
    QVERIFY(project::loadProject(path, p).ok());
    p.scenarios = {fromClip("clip", "animation0", 1.f), fromClip("missing clip", "walk", 1.f)};
    QVERIFY(project::saveProject(path, p).ok());

    Run r = cli({QStringLiteral("simulate"), path, QStringLiteral("--scenario"), QStringLiteral("clip")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QVERIFY2(r.out.startsWith(QStringLiteral("PASS clip: ")) && r.out.contains(QStringLiteral(", 60 steps")), qPrintable(r.out));
    r = cli({QStringLiteral("simulate"), path, QStringLiteral("--scenario"), QStringLiteral("missing clip")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("starts from the animation clip 'walk', which the mesh does not have")),
             qPrintable(r.err));

    // Moved away from its mesh: a warning names the problem and the clip scenario fails saying why.
    const QString moved = mDir.filePath(QStringLiteral("elsewhere/skin.mproj"));
    QVERIFY(QDir().mkpath(QFileInfo(moved).path()));
    QVERIFY(QFile::copy(path, moved));
    r = cli({QStringLiteral("simulate"), moved, QStringLiteral("--scenario"), QStringLiteral("clip")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.startsWith(QStringLiteral("warning: ")) && r.err.contains(QStringLiteral("needs the project's source mesh")),
             qPrintable(r.err));
}

QTEST_GUILESS_MAIN(TestCliScenarios)
#include "tst_cliscenarios.moc"
