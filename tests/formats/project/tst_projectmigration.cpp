// Project format versions: the hand-written version 0 fixture (data/v0/robot.mproj: index references, no
// ids, flat settings, cone limits in degrees) migrates to version 1 with every value accounted for and
// writes exactly data/v0/robot.migrated.mproj; broken version 0 documents name the version 0 path; a newer
// version is refused; the chain has one step per older version.
//
// Set MARIONETTE_UPDATE_GOLDEN=1 to rewrite data/v0/robot.migrated.mproj after an intended format change.
#include "marionette/project/Migration.h"
#include "marionette/project/ProjectFile.h"

#include <QtTest/QtTest>

#include "ProjectTestSupport.h"

using namespace marionette;
using namespace marionette::project;
using namespace marionette::test;

namespace {

QString dataPath(const char* relative)
{
    return QStringLiteral(MARIONETTE_PROJECT_TEST_DATA "/") + QLatin1StringView(relative);
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

} // namespace

class TestProjectMigration : public QObject {
    Q_OBJECT

  private slots:
    void version0_migratesEveryValue();
    void version0_writesTheCommittedVersion1Text();
    void brokenVersion0_namesTheVersion0Path_data();
    void brokenVersion0_namesTheVersion0Path();
    void newerVersion_isRefusedAndNothingLoads();
    void chain_hasOneStepPerOlderVersion();
};

void TestProjectMigration::version0_migratesEveryValue()
{
    Project p;
    const LoadResult r = loadProject(dataPath("v0/robot.mproj"), p);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.fileVersion, 0);
    QCOMPARE(r.rigProblem, QString());

    QCOMPARE(p.name, QStringLiteral("Robot (prototype)"));
    QCOMPARE(p.rig.name, std::string("Robot (prototype)"));
    QCOMPARE(p.sourceMesh.path, QStringLiteral("../meshes/robot.fbx"));
    QCOMPARE(p.sourceMesh.sha256, QString()); // version 0 did not record it
    QCOMPARE(p.import.scaleToMetres, 0.01);
    QCOMPARE(p.import.sourceUpAxis, UpAxis::Z);
    QVERIFY(p.import.unitConversionApplied); // unitScale != 1
    QVERIFY(p.import.axisConversionApplied); // zUp
    QVERIFY(!p.import.flipWindingOrder);
    QVERIFY(!p.import.flipUVs);
    QCOMPARE(p.import.conversionNote, QStringLiteral("upgraded from project version 0"));

    // Element i of each list gets id i + 1; references keep pointing at the same elements.
    const rig::RigDescription& r0 = p.rig;
    QCOMPARE(r0.particles.size(), std::size_t(5));
    for (std::size_t i = 0; i < r0.particles.size(); ++i)
        QCOMPARE(r0.particles[i].id, rig::ElementId(i + 1));
    QCOMPARE(r0.particles[1].name, std::string("chest"));
    QCOMPARE(r0.particles[1].position, (Vec3{0.f, 1.4f, 0.05f}));
    QCOMPARE(r0.particles[1].mass, 8.f);
    QCOMPARE(r0.particles[1].radius, rig::Particle{}.radius); // absent: the default
    QCOMPARE(r0.particles[4].mass, 0.5f);

    QCOMPARE(r0.sticks.size(), std::size_t(5));
    const rig::StickKind kinds[] = {rig::StickKind::Rigid, rig::StickKind::Rigid, rig::StickKind::Range,
                                    rig::StickKind::MinOnly, rig::StickKind::MaxOnly};
    const int ends[][2] = {{0, 1}, {1, 3}, {2, 4}, {4, 0}, {1, 2}};
    for (std::size_t i = 0; i < 5; ++i) {
        QCOMPARE(r0.sticks[i].id, rig::ElementId(i + 1));
        QCOMPARE(r0.sticks[i].kind, kinds[i]);
        QCOMPARE(r0.sticks[i].a, ends[i][0]);
        QCOMPARE(r0.sticks[i].b, ends[i][1]);
    }
    QCOMPARE(r0.sticks[0].restLength, -1.f); // bind distance
    QCOMPARE(r0.sticks[1].stiffness, 0.8f);
    QCOMPARE(r0.sticks[2].minLength, 0.3f);
    QCOMPARE(r0.sticks[2].maxLength, 0.52f);
    QCOMPARE(r0.sticks[3].minLength, 0.25f);
    QCOMPARE(r0.sticks[4].maxLength, 0.25f);
    QCOMPARE(r0.sticks[4].restLength, 0.2f);

    QCOMPARE(r0.triangles.size(), std::size_t(2));
    QCOMPARE(r0.triangles[1].id, 2u);
    QCOMPARE(r0.triangles[1].p[0], 1);
    QCOMPARE(r0.triangles[1].p[1], 3);
    QCOMPARE(r0.triangles[1].p[2], 2);

    // Cones become angular constraints with the limit in radians, computed as rig::radians(float) does.
    QCOMPARE(r0.angular.size(), std::size_t(2));
    QCOMPARE(r0.angular[0].name, std::string("neck"));
    QCOMPARE(r0.angular[0].limit, rig::AngularLimit::Cone);
    QCOMPARE(r0.angular[0].triangleA, 0);
    QCOMPARE(r0.angular[0].triangleB, 1);
    QCOMPARE(bitsOf(r0.angular[0].coneAngle), bitsOf(radians(45.f)));
    QCOMPARE(r0.angular[1].id, 2u);
    QCOMPARE(r0.angular[1].name, std::string());
    QCOMPARE(r0.angular[1].triangleA, 1);
    QCOMPARE(bitsOf(r0.angular[1].coneAngle), bitsOf(rig::AngularConstraint{}.coneAngle)); // absent: 60°

    QCOMPARE(r0.pins.size(), std::size_t(1));
    QCOMPARE(r0.pins[0].particle, 4);
    QCOMPARE(r0.pins[0].target, (Vec3{0.7f, 1.6f, 0.2f}));

    // Flat settings moved under rig.settings; the ones version 0 lacked keep their defaults.
    const rig::Settings defaults;
    QCOMPARE(r0.settings.gravity, (Vec3{0.f, -9.81f, 0.f}));
    QCOMPARE(r0.settings.timeStep, 0.008333333f);
    QCOMPARE(r0.settings.iterations, 10u);
    QCOMPARE(r0.settings.drag, 0.02f);
    QCOMPARE(r0.settings.friction, 0.5f);
    QCOMPARE(r0.settings.maxSubsteps, defaults.maxSubsteps);
    QCOMPARE(r0.settings.solver, defaults.solver);

    QVERIFY(r0.angles.empty() && r0.shapes.empty() && r0.bones.empty() && r0.bindings.empty());
    QVERIFY(p.scenarios.empty());
    QVERIFY(p.editor.elements.empty() && p.editor.selection.empty());
}

void TestProjectMigration::version0_writesTheCommittedVersion1Text()
{
    Project p;
    const LoadResult r = loadProject(dataPath("v0/robot.mproj"), p);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QString error;
    const QByteArray written = writeProject(p, error);
    QCOMPARE(error, QString());
    const QString golden = dataPath("v0/robot.migrated.mproj");
    if (qEnvironmentVariableIsSet("MARIONETTE_UPDATE_GOLDEN")) {
        QFile out(golden);
        QVERIFY(out.open(QIODevice::WriteOnly) && out.write(written) == written.size());
    }
    QCOMPARE(written, readFile(golden));
    // The migrated text is an ordinary version 1 document.
    Project again;
    const LoadResult second = loadProject(golden, again);
    QVERIFY2(second.ok(), qPrintable(second.error));
    QCOMPARE(second.fileVersion, 1);
    QCOMPARE(firstDifference(p, again), QString());
}

void TestProjectMigration::brokenVersion0_namesTheVersion0Path_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("message");
    const auto row = [](const char* name, const char* path, const char* value, const char* message) {
        QTest::newRow(name) << QString::fromUtf8(path) << QString::fromUtf8(value) << QString::fromUtf8(message);
    };
    row("stick end out of range", "sticks[1].b", "7", "robot.mproj: $.sticks[1].b: index 7 out of range (5 particles)");
    row("negative corner", "triangles[0].particles[1]", "-1",
        "robot.mproj: $.triangles[0].particles[1]: -1 is outside [0, 2147483647]");
    row("cone triangle out of range", "cones[0].triangleB", "2",
        "robot.mproj: $.cones[0].triangleB: index 2 out of range (2 triangles)");
    row("pin without particle", "pins[0].particle", "<remove>",
        "robot.mproj: $.pins[0].particle: missing required field");
    row("index as text", "sticks[0].a", "\"0\"", "robot.mproj: $.sticks[0].a: expected an integer, found a string");
    row("cone in text", "cones[0].maxAngleDegrees", "\"45\"",
        "robot.mproj: $.cones[0].maxAngleDegrees: expected a number, found a string");
    row("unknown element field", "particles[0].colour", "\"red\"",
        "robot.mproj: $.particles[0].colour: unknown field in a version 0 project");
    row("version 1 field in version 0", "rig", "{}", "robot.mproj: $.rig: unknown field in a version 0 project");
    row("sticks not an array", "sticks", "{}", "robot.mproj: $.sticks: expected an array, found an object");
    row("unit scale as text", "unitScale", "\"cm\"", "robot.mproj: $.unitScale: expected a number, found a string");
    // Problems the version 1 reader finds after the upgrade name the upgraded document.
    row("mass as text", "particles[1].mass", "\"heavy\"",
        "robot.mproj (upgraded from project version 0): $.rig.particles[1].mass: expected a number, found a string");
    row("invalid rig", "sticks[1].stiffness", "0",
        "robot.mproj (upgraded from project version 0): $.rig.sticks[1] 'neck': stiffness 0 outside (0, 1]");
    row("zero unit scale", "unitScale", "0",
        "robot.mproj (upgraded from project version 0): $.import.scaleToMetres: 0 is outside (0, 1e+06]");
}

void TestProjectMigration::brokenVersion0_namesTheVersion0Path()
{
    QFETCH(QString, path);
    QFETCH(QString, value);
    QFETCH(QString, message);
    const QByteArray json = editedDocument(readFile(dataPath("v0/robot.mproj")), path, value);
    Project out;
    out.name = QStringLiteral("sentinel");
    const LoadResult r = readProject(json, QStringLiteral("robot.mproj"), out);
    QCOMPARE(r.error, message);
    QCOMPARE(r.fileVersion, 0);
    QCOMPARE(out.name, QStringLiteral("sentinel"));
    QVERIFY(out.rig.particles.empty());
}

void TestProjectMigration::newerVersion_isRefusedAndNothingLoads()
{
    QByteArray json = readFile(dataPath("v0/robot.migrated.mproj"));
    QVERIFY(json.contains("\"version\": 1\n"));
    json.replace("\"version\": 1\n", "\"version\": 2\n");
    Project out;
    out.name = QStringLiteral("sentinel");
    const LoadResult r = readProject(json, QStringLiteral("future/robot.mproj"), out);
    QCOMPARE(
        r.error,
        QStringLiteral("future/robot.mproj: made by a newer Marionette (project version 2); this build reads up to 1"));
    QCOMPARE(r.fileVersion, 2);
    QCOMPARE(out.name, QStringLiteral("sentinel"));
}

void TestProjectMigration::chain_hasOneStepPerOlderVersion()
{
    QCOMPARE(migrationSteps().size(), std::size_t(kProjectVersion));
    // Migrating a current document is a no-op; versions outside the chain are refused.
    QJsonObject doc = QJsonDocument::fromJson(readFile(dataPath("v0/robot.migrated.mproj"))).object();
    const QJsonObject before = doc;
    QCOMPARE(migrateToCurrent(doc, kProjectVersion), QString());
    QCOMPARE(doc, before);
    QCOMPARE(migrateToCurrent(doc, kProjectVersion + 1), QStringLiteral("$.version: no migration from version 2"));
    QCOMPARE(migrateToCurrent(doc, -1), QStringLiteral("$.version: no migration from version -1"));
    // One step applied by hand gives the document the reader then accepts as version 1.
    QJsonObject v0 = QJsonDocument::fromJson(readFile(dataPath("v0/robot.mproj"))).object();
    QCOMPARE(migrationSteps()[0](v0), QString());
    QCOMPARE(v0.value(QStringLiteral("version")).toInt(), 1);
    QCOMPARE(v0.value(QStringLiteral("rig")).toObject().value(QStringLiteral("sticks")).toArray().size(), 5);
}

QTEST_GUILESS_MAIN(TestProjectMigration)
#include "tst_projectmigration.moc"
