// Project format versions. The hand-written version 0 fixture (data/v0/robot.mproj: index references, no
// ids, flat settings, cone limits in degrees) migrates with every value accounted for and reads exactly as
// the committed version 1 text it migrated to (data/v0/robot.migrated.mproj). The version 1 fixtures
// (data/v1/robot.mproj sets every field, data/v1/defaults.mproj leaves out the settings and most frictions) migrate
// to version 2 with the solver settings, angular friction and pin stiffness equal, bit for bit, to what the
// rig library's migrate functions give (what the .mrig reader gives for a format 1.0 file), keys left out
// taken as version 1's defaults, and an explicit solver; the migrated text is data/v1/robot.migrated.mproj.
// Broken old documents name the old path; a newer version is refused; the chain has one step per version.
//
// Set MARIONETTE_UPDATE_GOLDEN=1 to rewrite data/v1/robot.migrated.mproj after an intended format change.
#include "marionette/project/Migration.h"
#include "marionette/project/ProjectFile.h"

#include <QtTest/QtTest>

#include <cmath>
#include <functional>

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

/// The version 1 values data/v1/robot.mproj holds for what version 2 changed (fullProject() as a version 1
/// build saved it). A row of version1_value_migratesAsTheRigLibraryDoes changes one of them.
struct Version1Values {
    bool settingsOmitted = false; ///< the whole settings object left out: every setting at its default
    float timeStep = 1.f / 120.f;
    std::uint32_t iterations = 12;
    float drag = 0.02f;
    float staticFriction = 0.001f;
    rig::SolverMode solver = rig::SolverMode::Xpbd;
    float dynamicFriction = 0.25f; ///< angular[0]; angular[1] has 0 and 0
    float staticFrictionAngle = 0.01f;
    float pinStiffness = 0.5f;
};

/// What version 1's defaults were for the keys a version 1 document may leave out.
constexpr float kV1TimeStep = 1.f / 60.f;
constexpr std::uint32_t kV1Iterations = 8;
constexpr float kV1Drag = 0.01f;
constexpr float kV1StaticFriction = 0.0005f;

/// fullProject() as data/v1/robot.mproj with `v` reads after the migration, computed with the rig library's
/// functions (the ones the .mrig reader applies to a format 1.0 file).
Project migratedFullProject(const Version1Values& v)
{
    Project p = fullProject();
    rig::Settings& s = p.rig.settings;
    if (v.settingsOmitted)
        s = rig::Settings{};
    s.timeStep = v.timeStep;
    s.solver = v.solver;
    rig::migrateLegacySettings({v.timeStep, v.iterations, v.drag, v.staticFriction}, s);
    rig::migrateLegacyAngularFriction(v.dynamicFriction, v.staticFrictionAngle, v.timeStep, p.rig.angular[0]);
    rig::migrateLegacyAngularFriction(0.f, 0.f, v.timeStep, p.rig.angular[1]);
    for (rig::AngleConstraint& a : p.rig.angles)
        a.damping = 0.f; // version 1 had no bend damping; the migration adds none
    p.rig.pins[0].stiffness = rig::migrateLegacyPinStiffness(v.pinStiffness, v.iterations, v.timeStep);
    return p;
}

using Version1Edit = std::function<void(Version1Values&)>;

} // namespace

Q_DECLARE_METATYPE(Version1Edit)
Q_DECLARE_METATYPE(marionette::rig::SolverMode)

class TestProjectMigration : public QObject {
    Q_OBJECT

  private slots:
    void version0_migratesEveryValue();
    void version0_readsAsTheCommittedVersion1Text();
    void brokenVersion0_namesTheVersion0Path_data();
    void brokenVersion0_namesTheVersion0Path();
    void version1_convertsRatesAsTheRigLibraryDoes();
    void version1_value_migratesAsTheRigLibraryDoes_data();
    void version1_value_migratesAsTheRigLibraryDoes();
    void version1_documentOmittingDefaults_getsVersion1Behaviour();
    void version1_keepsItsSolver_data();
    void version1_keepsItsSolver();
    void version1_writesTheCommittedVersion2Text();
    void brokenVersion1_namesTheVersion1Path_data();
    void brokenVersion1_namesTheVersion1Path();
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
        QCOMPARE(nameOf(r0.sticks[i].kind), nameOf(kinds[i]));
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

    QCOMPARE(r0.pins[0].stiffness, 1.f); // absent: version 1's 1, which migrates to 1
    QVERIFY(r0.pins[0].kinematic);

    // Flat settings moved under rig.settings (0 -> 1), then became one substep with rates per second (1 -> 2);
    // the ones version 0 lacked have version 1's defaults: static friction 0.0005 m per step, Gauss–Seidel.
    const rig::Settings defaults;
    rig::Settings rates;
    rig::migrateLegacySettings({0.008333333f, 10u, 0.02f, kV1StaticFriction}, rates);
    QCOMPARE(r0.settings.gravity, (Vec3{0.f, -9.81f, 0.f}));
    QCOMPARE(r0.settings.timeStep, 0.008333333f);
    QCOMPARE(r0.settings.substeps, 1u);
    QCOMPARE(r0.settings.iterations, 10u);
    QCOMPARE(bitsOf(r0.settings.damping), bitsOf(rates.damping));
    QCOMPARE(bitsOf(r0.settings.staticFrictionSpeed), bitsOf(rates.staticFrictionSpeed));
    QCOMPARE(r0.settings.friction, 0.5f);
    QCOMPARE(r0.settings.maxSubsteps, defaults.maxSubsteps);
    QCOMPARE(nameOf(r0.settings.solver), nameOf(rig::SolverMode::GaussSeidel));
    QVERIFY(defaults.solver != rig::SolverMode::GaussSeidel); // so the solver above was written, not defaulted
    for (const rig::AngularConstraint& a : r0.angular) {
        QCOMPARE(a.damping, 0.f);
        QCOMPARE(a.staticFrictionSpeed, 0.f);
    }

    QVERIFY(r0.angles.empty() && r0.shapes.empty() && r0.bones.empty() && r0.bindings.empty());
    QVERIFY(p.scenarios.empty());
    QVERIFY(p.editor.elements.empty() && p.editor.selection.empty());
}

// The 0 -> 1 step gives the committed version 1 text (written by a version 1 build, so it spells out
// staticFriction and the solver that version 0 lacked); both then take the 1 -> 2 step to the same project.
void TestProjectMigration::version0_readsAsTheCommittedVersion1Text()
{
    Project fromV0, fromV1;
    const LoadResult r0 = loadProject(dataPath("v0/robot.mproj"), fromV0);
    QVERIFY2(r0.ok(), qPrintable(r0.error));
    const LoadResult r1 = loadProject(dataPath("v0/robot.migrated.mproj"), fromV1);
    QVERIFY2(r1.ok(), qPrintable(r1.error));
    QCOMPARE(r1.fileVersion, 1);
    QCOMPARE(firstDifference(fromV1, fromV0), QString());
    // The step by itself: version 1 with ids, the settings under the rig, nothing version 0 did not say.
    QJsonObject doc = QJsonDocument::fromJson(readFile(dataPath("v0/robot.mproj"))).object();
    QCOMPARE(migrationSteps()[0](doc), QString());
    QCOMPARE(doc.value(QStringLiteral("version")).toInt(), 1);
    const QJsonObject settings = doc[QStringLiteral("rig")].toObject()[QStringLiteral("settings")].toObject();
    QCOMPARE(settings.keys(), (QStringList{"drag", "friction", "gravity", "iterations", "timeStep"}));
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
    // Version 0 had no angle constraints at all, so no angle damping either.
    row("angles in version 0", "angles", "[{\"center\": 0, \"a\": 1, \"b\": 2, \"damping\": 2}]",
        "robot.mproj: $.angles: unknown field in a version 0 project");
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

void TestProjectMigration::version1_convertsRatesAsTheRigLibraryDoes()
{
    Project p;
    const LoadResult r = loadProject(dataPath("v1/robot.mproj"), p);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.fileVersion, 1);
    QCOMPARE(r.rigProblem, QString());
    const Version1Values v;
    const Project expected = migratedFullProject(v);
    // Every other field is as version 1 wrote it (Diff compares floats bit for bit).
    QCOMPARE(firstDifference(expected, p), QString());

    // The converted values one by one, bit for bit, and what they mean.
    const rig::Settings& s = p.rig.settings;
    QCOMPARE(s.substeps, 1u);    // one substep ...
    QCOMPARE(s.iterations, 12u); // ... of the same relaxation
    QCOMPARE(bitsOf(s.damping), bitsOf(expected.rig.settings.damping));
    QCOMPARE(bitsOf(s.staticFrictionSpeed), bitsOf(expected.rig.settings.staticFrictionSpeed));
    QCOMPARE(bitsOf(p.rig.angular[0].damping), bitsOf(expected.rig.angular[0].damping));
    QCOMPARE(bitsOf(p.rig.angular[0].staticFrictionSpeed), bitsOf(expected.rig.angular[0].staticFrictionSpeed));
    QCOMPARE(bitsOf(p.rig.pins[0].stiffness), bitsOf(expected.rig.pins[0].stiffness));
    QCOMPARE(nameOf(s.solver), nameOf(rig::SolverMode::Xpbd));
    // drag 0.02 per 1/120 s keeps 0.98 of the velocity per step: e^(−damping / 120) = 0.98.
    QVERIFY(std::fabs(s.damping - float(-std::log(0.98) * 120.0)) < 1e-4f);
    QVERIFY(std::fabs(s.staticFrictionSpeed - 0.12f) < 1e-6f); // 0.001 m per 1/120 s
    QVERIFY(std::fabs(p.rig.angular[0].damping - float(-std::log(0.75) * 120.0)) < 1e-3f);
    QVERIFY(std::fabs(p.rig.angular[0].staticFrictionSpeed - 1.2f) < 1e-5f); // 0.01 rad per 1/120 s
    QCOMPARE(p.rig.angular[1].damping, 0.f);
    QCOMPARE(p.rig.angular[1].staticFrictionSpeed, 0.f);
    // Angle constraints had no damping in version 1 and load undamped (fullProject() damps both).
    QCOMPARE(p.rig.angles.size(), std::size_t(2));
    for (const rig::AngleConstraint& a : p.rig.angles)
        QCOMPARE(a.damping, 0.f);
    QVERIFY(fullProject().rig.angles[0].damping > 0.f && fullProject().rig.angles[1].damping > 0.f);
    // 0.5 of the way per iteration, 12 iterations per 1/120 s: over 1/60 s, 24 halvings.
    QVERIFY(std::fabs(p.rig.pins[0].stiffness - float(1.0 - std::ldexp(1.0, -24))) < 1e-6f);
}

// One value of data/v1/robot.mproj left out (it then means version 1's default) or set to the end of its
// version 1 range (where the rig library caps the rate at the top of version 2's range).
void TestProjectMigration::version1_value_migratesAsTheRigLibraryDoes_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("value");
    QTest::addColumn<Version1Edit>("edit");
    const auto row = [](const char* name, const char* path, const char* value, Version1Edit edit) {
        QTest::newRow(name) << QString::fromUtf8(path) << QString::fromUtf8(value) << edit;
    };
    const char* omitted = "<remove>";
    row("omitted timeStep", "rig.settings.timeStep", omitted, [](Version1Values& v) { v.timeStep = kV1TimeStep; });
    row("omitted iterations", "rig.settings.iterations", omitted,
        [](Version1Values& v) { v.iterations = kV1Iterations; });
    row("omitted drag", "rig.settings.drag", omitted, [](Version1Values& v) { v.drag = kV1Drag; });
    row("omitted staticFriction", "rig.settings.staticFriction", omitted,
        [](Version1Values& v) { v.staticFriction = kV1StaticFriction; });
    row("omitted solver", "rig.settings.solver", omitted,
        [](Version1Values& v) { v.solver = rig::SolverMode::GaussSeidel; });
    row("omitted settings", "rig.settings", omitted, [](Version1Values& v) {
        v = {true,
             kV1TimeStep,
             kV1Iterations,
             kV1Drag,
             kV1StaticFriction,
             rig::SolverMode::GaussSeidel,
             v.dynamicFriction,
             v.staticFrictionAngle,
             v.pinStiffness};
    });
    row("omitted dynamicFriction", "rig.angular[0].dynamicFriction", omitted,
        [](Version1Values& v) { v.dynamicFriction = 0.f; });
    row("omitted staticFrictionAngle", "rig.angular[0].staticFrictionAngle", omitted,
        [](Version1Values& v) { v.staticFrictionAngle = 0.f; });
    row("omitted pin stiffness", "rig.pins[0].stiffness", omitted, [](Version1Values& v) { v.pinStiffness = 1.f; });
    row("longest step", "rig.settings.timeStep", "0.1", [](Version1Values& v) { v.timeStep = 0.1f; });
    row("most drag", "rig.settings.drag", "0.99", [](Version1Values& v) { v.drag = 0.99f; });
    row("most static friction", "rig.settings.staticFriction", "10",
        [](Version1Values& v) { v.staticFriction = 10.f; });
    row("most angular friction", "rig.angular[0].dynamicFriction", "0.999",
        [](Version1Values& v) { v.dynamicFriction = 0.999f; });
    row("widest friction angle", "rig.angular[0].staticFrictionAngle", "3.1415927",
        [](Version1Values& v) { v.staticFrictionAngle = kPi; });
    row("one iteration", "rig.settings.iterations", "1", [](Version1Values& v) { v.iterations = 1; });
    row("softest pin", "rig.pins[0].stiffness", "1e-4", [](Version1Values& v) { v.pinStiffness = 1e-4f; });
}

void TestProjectMigration::version1_value_migratesAsTheRigLibraryDoes()
{
    QFETCH(QString, path);
    QFETCH(QString, value);
    QFETCH(Version1Edit, edit);
    Version1Values v;
    edit(v);
    const Project expected = migratedFullProject(v);
    // Each row changes the outcome, so a step that ignored the value, or used version 2's default, fails it.
    QVERIFY(!firstDifference(migratedFullProject(Version1Values{}), expected).isEmpty());
    const QByteArray json = editedDocument(readFile(dataPath("v1/robot.mproj")), path, value);
    Project p;
    const LoadResult r = readProject(json, QStringLiteral("robot.mproj"), p); // a valid version 1 rig stays valid
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.fileVersion, 1);
    QCOMPARE(firstDifference(expected, p), QString());
}

// data/v1/defaults.mproj has no settings, angular constraints with no friction keys and with dynamicFriction
// only, and pins with and without stiffness: it behaves as a version 1 build ran it (8 iterations of 1/60 s,
// drag 0.01, 0.0005 m per step, Gauss–Seidel), not as version 2's defaults would (8 substeps of 2
// iterations, the direct solver).
void TestProjectMigration::version1_documentOmittingDefaults_getsVersion1Behaviour()
{
    Project p;
    const LoadResult r = loadProject(dataPath("v1/defaults.mproj"), p);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.fileVersion, 1);
    rig::Settings expected;
    expected.solver = rig::SolverMode::GaussSeidel;
    rig::migrateLegacySettings({kV1TimeStep, kV1Iterations, kV1Drag, kV1StaticFriction}, expected);
    Project want = p;
    want.rig.settings = expected;
    QCOMPARE(firstDifference(want, p), QString()); // every other setting at its (unchanged) default
    const rig::Settings& s = p.rig.settings;
    QCOMPARE(nameOf(s.solver), nameOf(rig::SolverMode::GaussSeidel));
    QCOMPARE(s.substeps, 1u);
    QCOMPARE(s.iterations, kV1Iterations);
    QCOMPARE(bitsOf(s.damping), bitsOf(expected.damping));
    QCOMPARE(bitsOf(s.staticFrictionSpeed), bitsOf(expected.staticFrictionSpeed));
    QVERIFY(std::fabs(s.damping - float(-std::log(0.99) * 60.0)) < 1e-5f);
    QVERIFY(std::fabs(s.staticFrictionSpeed - 0.03f) < 1e-6f);

    QCOMPARE(p.rig.angular.size(), std::size_t(2));
    rig::AngularConstraint a;
    rig::migrateLegacyAngularFriction(0.f, 0.f, kV1TimeStep, a);
    QCOMPARE(bitsOf(p.rig.angular[0].damping), bitsOf(a.damping));
    QCOMPARE(bitsOf(p.rig.angular[0].staticFrictionSpeed), bitsOf(a.staticFrictionSpeed));
    rig::migrateLegacyAngularFriction(0.1f, 0.f, kV1TimeStep, a);
    QCOMPARE(bitsOf(p.rig.angular[1].damping), bitsOf(a.damping));
    QCOMPARE(bitsOf(p.rig.angular[1].staticFrictionSpeed), bitsOf(a.staticFrictionSpeed));
    QVERIFY(a.damping > 6.f); // −ln(0.9)·60 ≈ 6.32

    QCOMPARE(p.rig.pins.size(), std::size_t(2));
    QCOMPARE(bitsOf(p.rig.pins[0].stiffness), bitsOf(rig::migrateLegacyPinStiffness(0.5f, kV1Iterations, kV1TimeStep)));
    QVERIFY(std::fabs(p.rig.pins[0].stiffness - (1.f - 1.f / 256.f)) < 1e-6f); // eight halvings per 1/60 s
    QCOMPARE(p.rig.pins[1].stiffness, 1.f);
}

void TestProjectMigration::version1_keepsItsSolver_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<rig::SolverMode>("solver");
    QTest::newRow("gauss-seidel") << QStringLiteral("\"gauss-seidel\"") << rig::SolverMode::GaussSeidel;
    QTest::newRow("jacobi") << QStringLiteral("\"jacobi\"") << rig::SolverMode::Jacobi;
    QTest::newRow("xpbd") << QStringLiteral("\"xpbd\"") << rig::SolverMode::Xpbd;
    QTest::newRow("absent: Gauss-Seidel") << QStringLiteral("<remove>") << rig::SolverMode::GaussSeidel;
}

void TestProjectMigration::version1_keepsItsSolver()
{
    QFETCH(QString, value);
    QFETCH(rig::SolverMode, solver);
    const QByteArray json =
        editedDocument(readFile(dataPath("v1/robot.mproj")), QStringLiteral("rig.settings.solver"), value);
    QJsonObject doc = QJsonDocument::fromJson(json).object();
    QCOMPARE(migrateToCurrent(doc, 1), QString());
    // Written out explicitly, whatever version 2's default is.
    const QJsonObject settings = doc[QStringLiteral("rig")].toObject()[QStringLiteral("settings")].toObject();
    QCOMPARE(settings[QStringLiteral("solver")].toString(), nameOf(solver));
    Project p;
    const LoadResult r = readProject(json, QStringLiteral("robot.mproj"), p);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(nameOf(p.rig.settings.solver), nameOf(solver));
}

void TestProjectMigration::version1_writesTheCommittedVersion2Text()
{
    Project p;
    const LoadResult r = loadProject(dataPath("v1/robot.mproj"), p);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QString error;
    const QByteArray written = writeProject(p, error);
    QCOMPARE(error, QString());
    const QString golden = dataPath("v1/robot.migrated.mproj");
    if (qEnvironmentVariableIsSet("MARIONETTE_UPDATE_GOLDEN")) {
        QFile out(golden);
        QVERIFY(out.open(QIODevice::WriteOnly) && out.write(written) == written.size());
    }
    QCOMPARE(written, readFile(golden));
    // The migrated text is an ordinary version 2 document.
    Project again;
    const LoadResult second = loadProject(golden, again);
    QVERIFY2(second.ok(), qPrintable(second.error));
    QCOMPARE(second.fileVersion, 2);
    QCOMPARE(firstDifference(p, again), QString());
}

void TestProjectMigration::brokenVersion1_namesTheVersion1Path_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("message");
    const auto row = [](const char* name, const char* path, const char* value, const char* message) {
        QTest::newRow(name) << QString::fromUtf8(path) << QString::fromUtf8(value) << QString::fromUtf8(message);
    };
    // Version 2 keys in a version 1 document would be overwritten by the step: refused.
    row("substeps in version 1", "rig.settings.substeps", "4",
        "robot.mproj: $.rig.settings.substeps: unknown field in a version 1 project");
    row("damping in version 1", "rig.settings.damping", "0.5",
        "robot.mproj: $.rig.settings.damping: unknown field in a version 1 project");
    row("static friction speed in version 1", "rig.settings.staticFrictionSpeed", "0.1",
        "robot.mproj: $.rig.settings.staticFrictionSpeed: unknown field in a version 1 project");
    row("angular damping in version 1", "rig.angular[1].damping", "3",
        "robot.mproj: $.rig.angular[1].damping: unknown field in a version 1 project");
    row("angular speed in version 1", "rig.angular[0].staticFrictionSpeed", "0",
        "robot.mproj: $.rig.angular[0].staticFrictionSpeed: unknown field in a version 1 project");
    row("angle damping in version 1", "rig.angles[0].damping", "2",
        "robot.mproj: $.rig.angles[0].damping: unknown field in a version 1 project");
    row("zero angle damping in version 1", "rig.angles[1].damping", "0",
        "robot.mproj: $.rig.angles[1].damping: unknown field in a version 1 project");
    row("direct solver in version 1", "rig.settings.solver", "\"direct\"",
        "robot.mproj: $.rig.settings.solver: unknown solver mode \"direct\" (expected gauss-seidel, jacobi or xpbd)");
    // Values the step converts are read as version 1 read them.
    row("drag as text", "rig.settings.drag", "\"low\"",
        "robot.mproj: $.rig.settings.drag: expected a number, found a string");
    row("fractional iterations", "rig.settings.iterations", "2.5",
        "robot.mproj: $.rig.settings.iterations: expected an integer, found 2.5");
    row("time step overflow", "rig.settings.timeStep", "1e39",
        "robot.mproj: $.rig.settings.timeStep: 1e+39 does not fit a 32-bit float");
    row("null pin stiffness", "rig.pins[0].stiffness", "null",
        "robot.mproj: $.rig.pins[0].stiffness: expected a number, found null");
    row("friction angle as text", "rig.angular[0].staticFrictionAngle", "\"0.01\"",
        "robot.mproj: $.rig.angular[0].staticFrictionAngle: expected a number, found a string");
    row("settings not an object", "rig.settings", "[]",
        "robot.mproj: $.rig.settings: expected an object, found an array");
    row("angular entry not an object", "rig.angular[1]", "3",
        "robot.mproj: $.rig.angular[1]: expected an object, found a number");
    row("angle entry not an object", "rig.angles[1]", "[]",
        "robot.mproj: $.rig.angles[1]: expected an object, found an array");
    row("angles not an array", "rig.angles", "{}", "robot.mproj: $.rig.angles: expected an array, found an object");
    row("pins not an array", "rig.pins", "{}", "robot.mproj: $.rig.pins: expected an array, found an object");
    row("rig not an object", "rig", "[]", "robot.mproj: $.rig: expected an object, found an array");
    row("speed beyond float", "rig.settings.staticFriction", "-3e38",
        "robot.mproj: $.rig.settings.staticFriction: -3e+38 per step at a timeStep of 0.008333334 s has no finite "
        "rate per second");
    // Problems the version 2 reader finds after the upgrade name the upgraded document.
    row("unknown key", "rig.settings.gravityScale", "2",
        "robot.mproj (upgraded from project version 1): $.rig.settings.gravityScale: unknown field");
    row("no rig", "rig", "<remove>", "robot.mproj (upgraded from project version 1): $.rig: missing required field");
    row("no iterations", "rig.settings.iterations", "0",
        "robot.mproj (upgraded from project version 1): $.rig.settings: iterations 0 outside [1, 64]");
}

void TestProjectMigration::brokenVersion1_namesTheVersion1Path()
{
    QFETCH(QString, path);
    QFETCH(QString, value);
    QFETCH(QString, message);
    const QByteArray json = editedDocument(readFile(dataPath("v1/robot.mproj")), path, value);
    Project out;
    out.name = QStringLiteral("sentinel");
    const LoadResult r = readProject(json, QStringLiteral("robot.mproj"), out);
    QCOMPARE(r.error, message);
    QCOMPARE(r.fileVersion, 1);
    QCOMPARE(out.name, QStringLiteral("sentinel"));
    QVERIFY(out.rig.particles.empty());
}

void TestProjectMigration::newerVersion_isRefusedAndNothingLoads()
{
    QByteArray json = readFile(dataPath("v1/robot.migrated.mproj"));
    QVERIFY(json.contains("\"version\": 2\n"));
    json.replace("\"version\": 2\n", "\"version\": 3\n");
    Project out;
    out.name = QStringLiteral("sentinel");
    const LoadResult r = readProject(json, QStringLiteral("future/robot.mproj"), out);
    QCOMPARE(
        r.error,
        QStringLiteral("future/robot.mproj: made by a newer Marionette (project version 3); this build reads up to 2"));
    QCOMPARE(r.fileVersion, 3);
    QCOMPARE(out.name, QStringLiteral("sentinel"));
}

void TestProjectMigration::chain_hasOneStepPerOlderVersion()
{
    QCOMPARE(kProjectVersion, 2);
    QCOMPARE(migrationSteps().size(), std::size_t(kProjectVersion));
    // Migrating a current document is a no-op; versions outside the chain are refused.
    QJsonObject doc = QJsonDocument::fromJson(readFile(dataPath("v1/robot.migrated.mproj"))).object();
    const QJsonObject before = doc;
    QCOMPARE(migrateToCurrent(doc, kProjectVersion), QString());
    QCOMPARE(doc, before);
    QCOMPARE(migrateToCurrent(doc, kProjectVersion + 1), QStringLiteral("$.version: no migration from version 3"));
    QCOMPARE(migrateToCurrent(doc, -1), QStringLiteral("$.version: no migration from version -1"));
    // The steps applied by hand: 0 -> 1 -> 2.
    QJsonObject v0 = QJsonDocument::fromJson(readFile(dataPath("v0/robot.mproj"))).object();
    QCOMPARE(migrationSteps()[0](v0), QString());
    QCOMPARE(v0.value(QStringLiteral("version")).toInt(), 1);
    QCOMPARE(v0.value(QStringLiteral("rig")).toObject().value(QStringLiteral("sticks")).toArray().size(), 5);
    QCOMPARE(migrationSteps()[1](v0), QString());
    QCOMPARE(v0.value(QStringLiteral("version")).toInt(), 2);
    const QJsonObject settings = v0[QStringLiteral("rig")].toObject()[QStringLiteral("settings")].toObject();
    QCOMPARE(settings.keys(), (QStringList{"damping", "friction", "gravity", "iterations", "solver",
                                           "staticFrictionSpeed", "substeps", "timeStep"}));
    QCOMPARE(settings[QStringLiteral("substeps")].toInteger(), 1);
    QCOMPARE(settings[QStringLiteral("solver")].toString(), QStringLiteral("gauss-seidel"));
    // A converted rate is written as the shortest text of the float the rig library computed.
    rig::Settings rates;
    rig::migrateLegacySettings({0.008333333f, 10u, 0.02f, kV1StaticFriction}, rates);
    QCOMPARE(bitsOf(float(settings[QStringLiteral("damping")].toDouble())), bitsOf(rates.damping));
    QCOMPARE(bitsOf(float(settings[QStringLiteral("staticFrictionSpeed")].toDouble())),
             bitsOf(rates.staticFrictionSpeed));
}

QTEST_GUILESS_MAIN(TestProjectMigration)
#include "tst_projectmigration.moc"
