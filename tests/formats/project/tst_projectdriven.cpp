// Driven scenarios in a .mproj (docs/project-format.md `scenarios[].driven`, `driveChanges`, the driven
// expectations): a scenario that plays a clip through the rig's drive profiles, with profile changes, kills and
// get-ups at frames. Every key is optional within version 2: a scenario without them writes none (older projects
// rewrite unchanged), the committed version-2 fixture without them loads, and the committed driven fixture loads
// and rewrites byte for byte. Bad values, unknown profiles and impossible combinations are refused with the path.
//
// Set MARIONETTE_UPDATE_GOLDEN=1 to rewrite data/v2/driven.mproj after an intended change.
#include "ProjectTestSupport.h"

#include "marionette/project/Migration.h"
#include "marionette/project/ProjectFile.h"

#include <QFile>
#include <QtTest/QtTest>

using namespace marionette;
using namespace marionette::project;
using namespace marionette::test;

namespace {

const QString kFile = QStringLiteral("driven.mproj");

/// fullProject() with the drive profiles "balanced" and "stagger" and a third scenario, "walk, hit, get up":
/// walk at "balanced", stagger at frame 90, killed at 150, got up at 300 (resuming at "stagger"), with every
/// driven expectation set.
Project withDriven()
{
    Project p = fullProject();
    rig::DriveProfile balanced;
    balanced.name = "balanced";
    balanced.defaults.motorFrequency = 8.f;
    rig::DriveProfile stagger;
    stagger.name = "stagger";
    stagger.defaults.motorFrequency = 2.5f;
    p.rig.driveProfiles = {balanced, stagger};
    Scenario s;
    s.name = QStringLiteral("walk, hit, get up");
    s.dropHeight = 0.f;
    s.duration = 9.5f;
    s.driven = DrivenPlay{QStringLiteral("walk ☺"), QStringLiteral("balanced"),
                          {QStringLiteral("getup_back"), QStringLiteral("getup_front")}};
    s.driveChanges = {{90u, DriveChange::Kind::Profile, QStringLiteral("stagger"), 0.05f},
                      {150u, DriveChange::Kind::Kill, QString(), 0.f},
                      {300u, DriveChange::Kind::GetUp, QStringLiteral("stagger"), 1.25f},
                      {301u, DriveChange::Kind::GetUp, QString(), 0.2f}};
    s.hits = {{90u, {ElementKind::Particle, 40}, 0.5f, {0.f, 0.f, -40.f}}};
    s.expect.maxTrackingErrorCm = 3.f;
    s.expect.recoverWithin = 1.5f;
    s.expect.falls = true;
    s.expect.standsAtEnd = false;
    p.scenarios.push_back(s);
    return p;
}

QByteArray write(const Project& p)
{
    QString error;
    const QByteArray json = writeProject(p, error);
    if (!error.isEmpty())
        qFatal("%s", qPrintable(error));
    return json;
}

} // namespace

class TestProjectDriven : public QObject {
    Q_OBJECT

  private slots:
    void drivenScenario_roundTripsEveryField();
    void plainScenario_writesNoDrivenKey();
    void committedVersion2File_loadsWithNoDrivenScenario();
    void committedDrivenFixture_loadsAndRewritesByteForByte();
    void brokenDriven_isRefusedWithPath_data();
    void brokenDriven_isRefusedWithPath();
};

void TestProjectDriven::drivenScenario_roundTripsEveryField()
{
    const Project p = withDriven();
    const QByteArray first = write(p);
    Project back = sentinel();
    const LoadResult r = readProject(first, kFile, back);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(firstDifference(p, back), QString());
    QCOMPARE(write(back), first);
    const Scenario& s = back.scenarios.back();
    QVERIFY(s.driven);
    QCOMPARE(s.driven->getUpClips.size(), std::size_t(2));
    QCOMPARE(s.driveChanges[2].kind, DriveChange::Kind::GetUp);
    QCOMPARE(s.driveChanges[2].profile, QStringLiteral("stagger"));
    QCOMPARE(s.driveChanges[3].profile, QString());
    QCOMPARE(s.expect.standsAtEnd, std::optional<bool>(false));
    // A kill writes no profile; a get-up resuming with the play's profile writes none either.
    const QJsonArray changes = QJsonDocument::fromJson(first)
                                   .object()[QStringLiteral("scenarios")]
                                   .toArray()
                                   .last()
                                   .toObject()[QStringLiteral("driveChanges")]
                                   .toArray();
    QVERIFY(!changes[1].toObject().contains(QStringLiteral("profile")));
    QVERIFY(!changes[3].toObject().contains(QStringLiteral("profile")));
    QCOMPARE(changes[1].toObject()[QStringLiteral("kind")].toString(), QStringLiteral("kill"));
}

void TestProjectDriven::plainScenario_writesNoDrivenKey()
{
    const QByteArray json = write(fullProject());
    for (const char* key : {"driven", "driveChanges", "maxTrackingErrorCm", "recoverWithin", "falls", "standsAtEnd"})
        QVERIFY2(!json.contains(key), key);
}

// data/v2/robot.mproj was saved before driven scenarios existed: it loads with none and rewrites without them.
void TestProjectDriven::committedVersion2File_loadsWithNoDrivenScenario()
{
    const QString path = QStringLiteral(MARIONETTE_PROJECT_TEST_DATA "/v2/robot.mproj");
    Project p = sentinel();
    const LoadResult r = loadProject(path, p);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.fileVersion, 2);
    QVERIFY(!p.scenarios.empty());
    for (const Scenario& s : p.scenarios) {
        QVERIFY(!s.driven && s.driveChanges.empty());
        QVERIFY(!s.expect.maxTrackingErrorCm && !s.expect.recoverWithin && !s.expect.falls && !s.expect.standsAtEnd);
    }
    QVERIFY(!write(p).contains("driven"));
}

void TestProjectDriven::committedDrivenFixture_loadsAndRewritesByteForByte()
{
    const QString path = QStringLiteral(MARIONETTE_PROJECT_TEST_DATA "/v2/driven.mproj");
    const QByteArray expected = write(withDriven());
    if (qEnvironmentVariableIsSet("MARIONETTE_UPDATE_GOLDEN")) {
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly) && out.write(expected) == expected.size());
    }
    QFile file(path);
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
    const QByteArray bytes = file.readAll();
    Project loaded = sentinel();
    const LoadResult r = loadProject(path, loaded);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.fileVersion, 2);
    QCOMPARE(firstDifference(withDriven(), loaded), QString());
    QCOMPARE(write(loaded), bytes);
    QCOMPARE(bytes, expected);
}

void TestProjectDriven::brokenDriven_isRefusedWithPath_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("message");
    const auto row = [](const char* name, const char* path, const char* value, const char* message) {
        QTest::newRow(name) << QString::fromUtf8(path) << QString::fromUtf8(value) << QString::fromUtf8(message);
    };
    row("driven not an object", "scenarios[2].driven", "[]", "$.scenarios[2].driven: expected an object, found an array");
    row("no clip", "scenarios[2].driven.clip", "<remove>", "$.scenarios[2].driven.clip: missing required field");
    row("empty clip", "scenarios[2].driven.clip", "\"\"", "$.scenarios[2].driven.clip: names no clip");
    row("no profile", "scenarios[2].driven.profile", "<remove>", "$.scenarios[2].driven.profile: missing required field");
    row("unknown profile", "scenarios[2].driven.profile", "\"floppy\"",
        "$.scenarios[2].driven.profile: the rig has no drive profile \"floppy\"");
    row("get-up clip as number", "scenarios[2].driven.getUpClips[1]", "3",
        "$.scenarios[2].driven.getUpClips[1]: expected a string, found a number");
    row("empty get-up clip", "scenarios[2].driven.getUpClips[0]", "\"\"", "$.scenarios[2].driven.getUpClips[0]: names no clip");
    row("unknown driven field", "scenarios[2].driven.speed", "2", "$.scenarios[2].driven.speed: unknown field");
    row("driven and animation start", "scenarios[2].animationStart", "{\"clip\": \"walk\", \"time\": 0}",
        "$.scenarios[2].driven: a driven scenario cannot also have an animationStart");
    row("changes without a play", "scenarios[2].driven", "<remove>",
        "$.scenarios[2].driveChanges: drive changes need a \"driven\" play");
    row("unknown kind", "scenarios[2].driveChanges[0].kind", "\"dance\"",
        "$.scenarios[2].driveChanges[0].kind: unknown drive change \"dance\" (expected profile, kill or getUp)");
    row("no kind", "scenarios[2].driveChanges[0].kind", "<remove>", "$.scenarios[2].driveChanges[0].kind: missing required field");
    row("no frame", "scenarios[2].driveChanges[1].frame", "<remove>", "$.scenarios[2].driveChanges[1].frame: missing required field");
    row("frames out of order", "scenarios[2].driveChanges[1].frame", "10",
        "$.scenarios[2].driveChanges[1].frame: 10 is before the previous change's frame 90");
    row("unknown changed profile", "scenarios[2].driveChanges[0].profile", "\"floppy\"",
        "$.scenarios[2].driveChanges[0].profile: the rig has no drive profile \"floppy\"");
    row("profile change naming none", "scenarios[2].driveChanges[0].profile", "<remove>",
        "$.scenarios[2].driveChanges[0].profile: names no drive profile");
    row("kill with a profile", "scenarios[2].driveChanges[1].profile", "\"stagger\"",
        "$.scenarios[2].driveChanges[1].profile: a kill takes no profile");
    row("blend negative", "scenarios[2].driveChanges[0].blend", "-0.5",
        "$.scenarios[2].driveChanges[0].blend: -0.5 is outside [0, 60]");
    row("blend too long", "scenarios[2].driveChanges[2].blend", "61",
        "$.scenarios[2].driveChanges[2].blend: 61 is outside [0, 60]");
    row("get-up without clips", "scenarios[2].driven.getUpClips", "[]",
        "$.scenarios[2].driveChanges[2]: a get-up needs the driven play's getUpClips");
    row("unknown change field", "scenarios[2].driveChanges[0].weight", "1",
        "$.scenarios[2].driveChanges[0].weight: unknown field");
    row("tracking bound zero", "scenarios[2].expect.maxTrackingErrorCm", "0",
        "$.scenarios[2].expect.maxTrackingErrorCm: 0 is outside (0, 1000]");
    row("recovery beyond the duration", "scenarios[2].expect.recoverWithin", "10",
        "$.scenarios[2].expect.recoverWithin: 10 is outside (0, 9.5]");
    row("recovery without a bound", "scenarios[2].expect.maxTrackingErrorCm", "<remove>",
        "$.scenarios[2].expect.recoverWithin: needs maxTrackingErrorCm, the bound to recover below");
    row("falls as number", "scenarios[2].expect.falls", "1", "$.scenarios[2].expect.falls: expected true or false, found a number");
    row("driven expectation on a drop", "scenarios[0].expect.standsAtEnd", "true",
        "$.scenarios[0].expect: maxTrackingErrorCm, recoverWithin, falls and standsAtEnd need a \"driven\" play");
}

void TestProjectDriven::brokenDriven_isRefusedWithPath()
{
    QFETCH(QString, path);
    QFETCH(QString, value);
    QFETCH(QString, message);
    const QByteArray json = editedDocument(write(withDriven()), path, value);
    Project p = sentinel();
    const LoadResult r = readProject(json, kFile, p);
    QCOMPARE(r.error, kFile + QStringLiteral(": ") + message);
    QVERIFY(!r.error.contains(u'\n'));
    QVERIFY(isSentinel(p));
}

QTEST_GUILESS_MAIN(TestProjectDriven)
#include "tst_projectdriven.moc"
