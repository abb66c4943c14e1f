// Round trips of the project document: Project -> JSON -> Project keeps every field of every element type
// bit for bit (a project setting every field off its default, the procedural humanoid, crate and cloth),
// floats are written with the fewest digits that read back exactly, and the writer refuses, with the JSON
// path, every project it cannot write faithfully. The committed fixture of the current version pins the text.
//
// Set MARIONETTE_UPDATE_GOLDEN=1 to rewrite data/v<current version>/robot.mproj after an intended change.
#include "marionette/project/Migration.h"
#include "marionette/project/ProjectFile.h"
#include "marionette/runtime/Procedural.h"

#include <QtTest/QtTest>

#include <cfloat>
#include <cmath>
#include <functional>
#include <limits>
#include <random>

#include "ProjectTestSupport.h"

using namespace marionette;
using namespace marionette::project;
using namespace marionette::test;

using ProjectEdit = std::function<void(Project&)>;
Q_DECLARE_METATYPE(ProjectEdit)
Q_DECLARE_METATYPE(marionette::rig::SolverMode)

namespace {

/// write -> read; fails the test on any error.
Project roundTrip(const Project& p, QByteArray* written = nullptr)
{
    QString error;
    const QByteArray json = writeProject(p, error);
    if (!error.isEmpty())
        qFatal("writeProject failed: %s", qPrintable(error));
    Project back;
    const LoadResult r = readProject(json, QStringLiteral("memory.mproj"), back);
    if (!r.ok())
        qFatal("readProject failed: %s", qPrintable(r.error));
    if (written)
        *written = json;
    return back;
}

QString dataPath(const char* relative)
{
    return QStringLiteral(MARIONETTE_PROJECT_TEST_DATA "/") + QLatin1StringView(relative);
}

} // namespace

class TestProjectRoundTrip : public QObject {
    Q_OBJECT

  private slots:
    void fullProject_keepsEveryFieldAndRewritesTheSameText();
    void scenarioEvents_roundTripAndAreWrittenOnlyWhenUsed();
    void collisionGroupNames_roundTripAndAreWrittenOnlyWhenNamed();
    void lods_roundTripAndAreWrittenOnlyWhenPresent();
    void lods_hostileEntriesAreRefusedNamingTheField_data();
    void lods_hostileEntriesAreRefusedNamingTheField();
    void version2_writesTheRateKeysAndNoneOfVersion1s();
    void angleDamping_isWrittenForEveryAngleAndReadBack_data();
    void angleDamping_isWrittenForEveryAngleAndReadBack();
    void solverMode_roundTripsByName_data();
    void solverMode_roundTripsByName();
    void rateFields_keepTheirRangeLimitsExactly_data();
    void rateFields_keepTheirRangeLimitsExactly();
    void proceduralRig_keepsEveryField_data();
    void proceduralRig_keepsEveryField();
    void floats_randomBitPatternsReadBackExactly();
    void floats_areWrittenWithTheFewestDigits_data();
    void floats_areWrittenWithTheFewestDigits();
    void negativeZero_readsBackAsZero();
    void idsNotIndices_referencesSurviveReordering();
    void committedFixture_loadsAndRewritesByteForByte();
    void write_refusesWhatItCannotWriteFaithfully_data();
    void write_refusesWhatItCannotWriteFaithfully();
    void write_acceptsAnInvalidRig();
};

void TestProjectRoundTrip::fullProject_keepsEveryFieldAndRewritesTheSameText()
{
    const Project p = fullProject();
    QCOMPARE(QString::fromStdString(p.rig.validate()), QString());
    QByteArray first;
    const Project back = roundTrip(p, &first);
    QCOMPARE(firstDifference(p, back), QString());
    QString error;
    QCOMPARE(writeProject(back, error), first);
    QCOMPARE(error, QString());
    // Diff-friendly: indented, one element per array entry, key order sorted, vectors as arrays.
    QVERIFY(first.startsWith("{\n    \"editor\": {\n"));
    QVERIFY(first.contains("\"format\": \"marionette-project\",\n"));
    QVERIFY(first.contains("\"version\": 2\n}\n"));
    QVERIFY(first.contains("\"position\": [\n                    0,\n                    1,\n                    0\n"));
}

// Explosions, setting changes and an animation start read back exactly; a scenario without them writes none
// of their keys, so its text is what builds that predate them read.
void TestProjectRoundTrip::scenarioEvents_roundTripAndAreWrittenOnlyWhenUsed()
{
    Project p = fullProject();
    QString error;
    const QByteArray plain = writeProject(p, error);
    QVERIFY(!plain.contains("explosions") && !plain.contains("settingChanges") && !plain.contains("animationStart"));
    Scenario& s = p.scenarios[0];
    s.explosions = {{12u, {0.5f, -0.25f, 3.f}, 7.5f, 1.25f}, {40u, {}, 0.f, 0.1f}};
    SettingChange iterationsAndStep;
    iterationsAndStep.frame = 0;
    iterationsAndStep.iterations = 3;
    iterationsAndStep.timeStep = 1.f / 120.f;
    SettingChange gravityOff;
    gravityOff.frame = 30;
    gravityOff.gravity = false;
    s.settingChanges = {iterationsAndStep, gravityOff};
    s.animationStart = AnimationStart{QStringLiteral("walk ☺"), 0.35f};
    QByteArray first;
    const Project back = roundTrip(p, &first);
    QCOMPARE(firstDifference(p, back), QString());
    QCOMPARE(writeProject(back, error), first);
    QVERIFY(first.contains("\"settingChanges\"") && first.contains("\"animationStart\""));
    // A change writes only the settings it changes.
    QVERIFY(!back.scenarios[0].settingChanges[1].iterations && !back.scenarios[0].settingChanges[1].timeStep);
    QVERIFY(!back.scenarios[1].animationStart && back.scenarios[1].explosions.empty());
}

// Group names are editor metadata in an optional section: a project without names is written without it (so
// the committed fixtures, which have none, load and rewrite unchanged), one with names keeps bit and name.
void TestProjectRoundTrip::collisionGroupNames_roundTripAndAreWrittenOnlyWhenNamed()
{
    Project p = fullProject();
    QString error;
    QVERIFY(!writeProject(p, error).contains("collisionGroups"));
    p.collisionGroups = {{0, QStringLiteral("body")}, {3, QStringLiteral("props ☺")}, {31, QStringLiteral("last")}};
    QByteArray first;
    const Project back = roundTrip(p, &first);
    QVERIFY(first.contains("\"collisionGroups\""));
    QCOMPARE(back.collisionGroups.size(), std::size_t(3));
    for (std::size_t i = 0; i < 3; ++i)
        QVERIFY(back.collisionGroups[i] == p.collisionGroups[i]);
    QCOMPARE(writeProject(back, error), first);
    // Reading: a bit outside 0..31 and a repeated bit are refused with the path.
    QByteArray bad = first;
    bad.replace("\"bit\": 31", "\"bit\": 32");
    Project out;
    LoadResult r = readProject(bad, QStringLiteral("groups.mproj"), out);
    QVERIFY(!r.ok());
    QVERIFY2(r.error.contains(QStringLiteral("collisionGroups[2].bit")), qPrintable(r.error));
    bad = first;
    bad.replace("\"bit\": 31", "\"bit\": 3");
    r = readProject(bad, QStringLiteral("groups.mproj"), out);
    QVERIFY2(r.error.contains(QStringLiteral("collisionGroups[2].bit: bit 3 is named twice")), qPrintable(r.error));
}

namespace {

/// fullProject() with two levels of detail: its own rig (measured) and its rig without the last bone
/// binding (not measured).
Project projectWithLods()
{
    Project p = fullProject();
    LodLevel measured;
    measured.targetParticles = 12;
    measured.rig = p.rig;
    measured.measurement = LodMeasurement{1.25f, 7.5f, 3.125f, 4, 2044, 160, 500};
    LodLevel plain;
    plain.targetParticles = 7;
    plain.rig = p.rig;
    plain.rig.bindings.pop_back();
    p.lods = {measured, plain};
    return p;
}

} // namespace

// Levels of detail are optional ("lods", written only when there are some, so a project without them is
// written as before); each keeps its target, its rig with its ids, and its figures with their settings.
void TestProjectRoundTrip::lods_roundTripAndAreWrittenOnlyWhenPresent()
{
    QString error;
    QVERIFY(!writeProject(fullProject(), error).contains("\"lods\""));
    const Project p = projectWithLods();
    QByteArray first;
    const Project back = roundTrip(p, &first);
    QVERIFY(first.contains("\"lods\""));
    QCOMPARE(back.lods.size(), std::size_t(2));
    for (std::size_t i = 0; i < 2; ++i) {
        QCOMPARE(back.lods[i].targetParticles, p.lods[i].targetParticles);
        Project a, b;
        a.rig = p.lods[i].rig;
        b.rig = back.lods[i].rig;
        QCOMPARE(firstDifference(a, b), QString());
        QCOMPARE(back.lods[i].measurement.has_value(), p.lods[i].measurement.has_value());
    }
    const LodMeasurement& m = *back.lods[0].measurement;
    QCOMPARE(m.errorMeanCm, 1.25f);
    QCOMPARE(m.errorMaxCm, 7.5f);
    QCOMPARE(m.usPerRagdollStep, 3.125f);
    QCOMPARE(m.runs, 4u);
    QCOMPARE(m.frames, 2044u);
    QCOMPARE(m.benchRagdolls, 160u);
    QCOMPARE(m.benchFrames, 500u);
    QCOMPARE(writeProject(back, error), first);
}

void TestProjectRoundTrip::lods_hostileEntriesAreRefusedNamingTheField_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("value"); // JSON text, or <remove>
    QTest::addColumn<QString>("message");
    const auto row = [](const char* name, const char* path, const char* value, const char* message) {
        QTest::newRow(name) << QString::fromUtf8(path) << QString::fromUtf8(value) << QString::fromUtf8(message);
    };
    row("not a list", "lods", "{}", "$.lods: expected an array, found an object");
    row("entry not an object", "lods[1]", "12", "$.lods[1]: expected an object, found a number");
    row("target too small", "lods[0].targetParticles", "2", "$.lods[0].targetParticles: 2 is outside [3, 1000000]");
    row("target as text", "lods[0].targetParticles", "\"12\"", "$.lods[0].targetParticles: expected an integer, found a string");
    row("target missing", "lods[1].targetParticles", "<remove>", "$.lods[1].targetParticles: missing required field");
    row("rig missing", "lods[1].rig", "<remove>", "$.lods[1].rig: missing required field");
    row("rig invalid", "lods[0].rig.particles[0].mass", "-1", "$.lods[0].rig: the level's rig is not valid: particles[0]");
    row("rig dangling", "lods[0].rig.sticks[0].a", "999", "$.lods[0].rig.sticks[0].a: no particle with id 999");
    row("negative error", "lods[0].measurement.errorMeanCm", "-1", "$.lods[0].measurement.errorMeanCm: -1 is outside [0, 1e+06]");
    row("max below mean", "lods[0].measurement.errorMaxCm", "1", "$.lods[0].measurement.errorMaxCm: 1 is outside [1.25, 1e+06]");
    row("cost as text", "lods[0].measurement.usPerRagdollStep", "\"fast\"",
        "$.lods[0].measurement.usPerRagdollStep: expected a number, found a string");
    row("huge cost", "lods[0].measurement.usPerRagdollStep", "1e30", "$.lods[0].measurement.usPerRagdollStep: 1e+30 is outside [0, 1e+09]");
    row("no runs", "lods[0].measurement.runs", "0", "$.lods[0].measurement.runs: 0 is outside [1, 1000000]");
    row("settings missing", "lods[0].measurement.benchFrames", "<remove>", "$.lods[0].measurement.benchFrames: missing required field");
    row("unknown field", "lods[0].quality", "1", "$.lods[0].quality: unknown field");
    row("unknown measurement field", "lods[0].measurement.fps", "1", "$.lods[0].measurement.fps: unknown field");
}

void TestProjectRoundTrip::lods_hostileEntriesAreRefusedNamingTheField()
{
    QFETCH(QString, path);
    QFETCH(QString, value);
    QFETCH(QString, message);
    QString error;
    const QByteArray json = editedDocument(writeProject(projectWithLods(), error), path, value);
    QCOMPARE(error, QString());
    Project out;
    out.name = QStringLiteral("untouched");
    const LoadResult r = readProject(json, QStringLiteral("lods.mproj"), out);
    QVERIFY(!r.ok());
    QVERIFY2(r.error.startsWith(QStringLiteral("lods.mproj: ") + message), qPrintable(r.error));
    QVERIFY(!r.error.contains(u'\n'));
    QCOMPARE(out.name, QStringLiteral("untouched"));
}

// Version 2 stores the solver schedule (substeps, iterations per substep) and rates per second; the per-step
// keys of version 1 are gone from settings and angular constraints.
void TestProjectRoundTrip::version2_writesTheRateKeysAndNoneOfVersion1s()
{
    QString error;
    const QByteArray json = writeProject(fullProject(), error);
    QCOMPARE(error, QString());
    const QJsonObject rigObject = QJsonDocument::fromJson(json).object()[QStringLiteral("rig")].toObject();
    const QJsonObject settings = rigObject[QStringLiteral("settings")].toObject();
    QCOMPARE(settings.keys(), (QStringList{"damping", "friction", "gravity", "iterations", "maxSubsteps",
                                           "overRelaxation", "selfCollision", "sleepTime", "sleepVelocity", "solver",
                                           "sqrtApproximation", "staticFrictionSpeed", "substeps", "timeStep"}));
    QCOMPARE(settings[QStringLiteral("substeps")].toInteger(), 3);
    QCOMPARE(settings[QStringLiteral("iterations")].toInteger(), 12);
    QCOMPARE(settings[QStringLiteral("damping")].toDouble(), 2.75);
    QCOMPARE(settings[QStringLiteral("staticFrictionSpeed")].toDouble(), 0.0625);
    QCOMPARE(settings[QStringLiteral("solver")].toString(), QStringLiteral("xpbd"));
    const QJsonArray angular = rigObject[QStringLiteral("angular")].toArray();
    QCOMPARE(angular.size(), 2);
    for (const QJsonValue& v : angular) {
        const QJsonObject a = v.toObject();
        QVERIFY(a.contains(QStringLiteral("damping")) && a.contains(QStringLiteral("staticFrictionSpeed")));
        QVERIFY(!a.contains(QStringLiteral("dynamicFriction")) && !a.contains(QStringLiteral("staticFrictionAngle")));
    }
    QCOMPARE(angular[0].toObject()[QStringLiteral("damping")].toDouble(), 17.25);
    QCOMPARE(angular[0].toObject()[QStringLiteral("staticFrictionSpeed")].toDouble(), 0.625);
    QCOMPARE(angular[1].toObject()[QStringLiteral("damping")].toDouble(), 1000.0);
    const QJsonArray angles = rigObject[QStringLiteral("angles")].toArray();
    QCOMPARE(angles.size(), 2);
    QCOMPARE(angles[0].toObject()[QStringLiteral("damping")].toDouble(), 12.5);
    QCOMPARE(angles[1].toObject()[QStringLiteral("damping")].toDouble(), 0.375);
}

// Bend damping (1/s) of angle constraints: written for every angle, 0 included (the writer writes every
// field), as the shortest text that reads back as the same float, and read back bit for bit.
void TestProjectRoundTrip::angleDamping_isWrittenForEveryAngleAndReadBack_data()
{
    QTest::addColumn<float>("value");
    QTest::addColumn<QString>("text");
    QTest::newRow("none") << 0.f << QStringLiteral("0");
    QTest::newRow("1/3") << 1.f / 3.f << QStringLiteral("0.33333334");
    QTest::newRow("0.1") << 0.1f << QStringLiteral("0.1");
    QTest::newRow("smallest subnormal") << std::numeric_limits<float>::denorm_min() << QStringLiteral("1e-45");
    QTest::newRow("below 1000") << std::nextafter(1000.f, 0.f) << QStringLiteral("999.99994");
    QTest::newRow("1000, the top of the range") << 1000.f << QStringLiteral("1000");
}

void TestProjectRoundTrip::angleDamping_isWrittenForEveryAngleAndReadBack()
{
    QFETCH(float, value);
    QFETCH(QString, text);
    Project p = fullProject();
    p.rig.angles[1].damping = value;
    QCOMPARE(QString::fromStdString(p.rig.validate()), QString()); // in range: a strict load accepts it
    QByteArray json;
    const Project back = roundTrip(p, &json);
    QCOMPARE(bitsOf(back.rig.angles[1].damping), bitsOf(value));
    QCOMPARE(bitsOf(back.rig.angles[0].damping), bitsOf(12.5f));
    QCOMPARE(firstDifference(p, back), QString());
    const QJsonArray angles = QJsonDocument::fromJson(json)
                                  .object()[QStringLiteral("rig")]
                                  .toObject()[QStringLiteral("angles")]
                                  .toArray();
    QCOMPARE(angles.size(), 2);
    for (const QJsonValue& a : angles)
        QVERIFY(a.toObject().contains(QStringLiteral("damping")));
    // The hip angle's (id 101) own "damping" line: keys are sorted, so it comes just before its "id".
    const QByteArray line = ("\"damping\": " + text + ",\n").toUtf8();
    const qsizetype hip = json.indexOf("\"id\": 101");
    QVERIFY(hip > 0);
    const qsizetype at = json.lastIndexOf("\"damping\": ", hip);
    QVERIFY2(at > 0 && json.mid(at, line.size()) == line, json.mid(at, line.size()).constData());
}

void TestProjectRoundTrip::solverMode_roundTripsByName_data()
{
    QTest::addColumn<rig::SolverMode>("mode");
    QTest::addColumn<QString>("name");
    QTest::newRow("gauss-seidel") << rig::SolverMode::GaussSeidel << QStringLiteral("gauss-seidel");
    QTest::newRow("jacobi") << rig::SolverMode::Jacobi << QStringLiteral("jacobi");
    QTest::newRow("xpbd") << rig::SolverMode::Xpbd << QStringLiteral("xpbd");
    QTest::newRow("direct") << rig::SolverMode::Direct << QStringLiteral("direct");
}

void TestProjectRoundTrip::solverMode_roundTripsByName()
{
    QFETCH(rig::SolverMode, mode);
    QFETCH(QString, name);
    Project p = fullProject();
    p.rig.settings.solver = mode;
    QByteArray json;
    const Project back = roundTrip(p, &json);
    QVERIFY2(json.contains(("\"solver\": \"" + name + "\"").toUtf8()), json.constData());
    QCOMPARE(nameOf(back.rig.settings.solver), nameOf(mode));
    QCOMPARE(firstDifference(p, back), QString());
}

void TestProjectRoundTrip::rateFields_keepTheirRangeLimitsExactly_data()
{
    QTest::addColumn<ProjectEdit>("edit");
    const auto row = [](const char* name, ProjectEdit edit) { QTest::newRow(name) << edit; };
    row("one substep", [](Project& p) { p.rig.settings.substeps = 1; });
    row("64 substeps", [](Project& p) { p.rig.settings.substeps = 64; });
    row("one iteration", [](Project& p) { p.rig.settings.iterations = 1; });
    row("64 iterations", [](Project& p) { p.rig.settings.iterations = 64; });
    row("no damping", [](Project& p) { p.rig.settings.damping = 0.f; });
    row("damping 100", [](Project& p) { p.rig.settings.damping = 100.f; });
    row("damping 1/3", [](Project& p) { p.rig.settings.damping = 1.f / 3.f; });
    row("static friction speed 100", [](Project& p) { p.rig.settings.staticFrictionSpeed = 100.f; });
    row("smallest static friction speed",
        [](Project& p) { p.rig.settings.staticFrictionSpeed = std::numeric_limits<float>::denorm_min(); });
    row("angular damping 0", [](Project& p) { p.rig.angular[0].damping = 0.f; });
    row("angular static friction 100", [](Project& p) { p.rig.angular[0].staticFrictionSpeed = 100.f; });
    row("angular damping below 1000", [](Project& p) { p.rig.angular[1].damping = std::nextafter(1000.f, 0.f); });
    row("angle damping 0", [](Project& p) { p.rig.angles[0].damping = 0.f; });
    row("angle damping 1000", [](Project& p) { p.rig.angles[1].damping = 1000.f; });
    row("softest pin", [](Project& p) { p.rig.pins[0].stiffness = 1e-6f; });
    row("compliance 1e6", [](Project& p) { p.rig.sticks[2].compliance = 1e6f; });
}

void TestProjectRoundTrip::rateFields_keepTheirRangeLimitsExactly()
{
    QFETCH(ProjectEdit, edit);
    Project p = fullProject();
    edit(p);
    QCOMPARE(QString::fromStdString(p.rig.validate()), QString()); // in range: a strict load accepts it
    const Project back = roundTrip(p);
    QCOMPARE(firstDifference(p, back), QString());
}

void TestProjectRoundTrip::proceduralRig_keepsEveryField_data()
{
    QTest::addColumn<int>("which");
    QTest::addColumn<int>("expectedElements");
    // Humanoid: 20 particles, 11 triangles, 10 angular constraints, 14 bones, 12 bindings, plus sticks,
    // angles and ranges; counted below rather than restated.
    QTest::newRow("humanoid") << 0 << -1;
    QTest::newRow("crate") << 1 << 4 + 6 + 1;   // 4 particles, 6 sticks, 1 embedded box
    QTest::newRow("cloth 4x3") << 2 << 12 + 17; // 12 particles, 3·3 + 4·2 = 17 structural sticks
}

void TestProjectRoundTrip::proceduralRig_keepsEveryField()
{
    QFETCH(int, which);
    QFETCH(int, expectedElements);
    Project p;
    p.name = QStringLiteral("procedural");
    p.rig = which == 0   ? runtime::makeHumanoid()
            : which == 1 ? runtime::makeCrate({0.3f, 0.2f, 0.1f}, 12.f)
                         : runtime::makeCloth(4, 3, 0.1f, true, 1.5f);
    const rig::RigDescription& r = p.rig;
    const std::size_t elements = r.particles.size() + r.sticks.size() + r.angles.size() + r.triangles.size() +
                                 r.angular.size() + r.pins.size() + r.shapes.size() + r.bones.size() +
                                 r.bindings.size();
    if (expectedElements >= 0)
        QCOMPARE(elements, std::size_t(expectedElements));
    QCOMPARE(assignMissingIds(p), elements); // procedural rigs come without ids
    const Project back = roundTrip(p);
    QCOMPARE(firstDifference(p, back), QString());
}

// Bone matrices take any finite float, so 50 bones carry 2,400 random bit patterns (every exponent and
// sign, subnormals included) plus the edge values.
void TestProjectRoundTrip::floats_randomBitPatternsReadBackExactly()
{
    std::mt19937 random(20261122u);
    std::vector<float> values = {
        0.f,        1.f,        -1.f,       0.1f,         1.f / 3.f,
        FLT_MIN,    -FLT_MIN,   FLT_MAX,    -FLT_MAX,     std::numeric_limits<float>::denorm_min(),
        16777216.f, 16777215.f, 8388607.5f, 9.223372e18f, 1e-38f,
        3.4028e38f, kPi,        1e-45f};
    while (values.size() < 50 * 48) {
        const float f = floatFromBits(std::uint32_t(random()));
        if (std::isfinite(f))
            values.push_back(f);
    }
    Project p;
    p.rig.particles.resize(1);
    p.rig.bones.resize(50);
    std::size_t k = 0;
    for (rig::Bone& b : p.rig.bones)
        for (Mat4* m : {&b.bindLocal, &b.bindWorld, &b.inverseBind})
            for (float& f : m->m)
                f = values[k++];
    assignMissingIds(p);
    const Project back = roundTrip(p);
    k = 0;
    for (const rig::Bone& b : back.rig.bones)
        for (const Mat4* m : {&b.bindLocal, &b.bindWorld, &b.inverseBind})
            for (const float f : m->m) {
                if (bitsOf(f) != bitsOf(values[k]))
                    QFAIL(qPrintable(QStringLiteral("value %1: wrote 0x%2, read 0x%3")
                                         .arg(k)
                                         .arg(bitsOf(values[k]), 8, 16, QLatin1Char('0'))
                                         .arg(bitsOf(f), 8, 16, QLatin1Char('0'))));
                ++k;
            }
    QCOMPARE(k, values.size());
}

void TestProjectRoundTrip::floats_areWrittenWithTheFewestDigits_data()
{
    QTest::addColumn<float>("value");
    QTest::addColumn<QString>("text");
    // The double nearest 0.1f is 0.100000001490116119...; a float needs only "0.1" to be found again.
    QTest::newRow("0.1") << 0.1f << QStringLiteral("0.1");
    QTest::newRow("1/3") << 1.f / 3.f << QStringLiteral("0.33333334");
    QTest::newRow("integer") << 12.f << QStringLiteral("12");
    QTest::newRow("2^24") << 16777216.f << QStringLiteral("16777216");
    QTest::newRow("-9.81") << -9.81f << QStringLiteral("-9.81");
    QTest::newRow("1e-7") << 1e-7f << QStringLiteral("1e-07");
    QTest::newRow("FLT_MAX") << FLT_MAX << QStringLiteral("3.4028235e+38");
    QTest::newRow("smallest subnormal") << std::numeric_limits<float>::denorm_min() << QStringLiteral("1e-45");
    QTest::newRow("pi") << kPi << QStringLiteral("3.1415927");
}

void TestProjectRoundTrip::floats_areWrittenWithTheFewestDigits()
{
    QFETCH(float, value);
    QFETCH(QString, text);
    Project p;
    p.rig.particles.resize(1);
    p.rig.particles[0].mass = value; // writing does not validate, so any finite value goes
    assignMissingIds(p);
    QString error;
    const QByteArray json = writeProject(p, error);
    QCOMPARE(error, QString());
    QVERIFY2(json.contains(("\"mass\": " + text + ",\n").toUtf8()), json.constData());
    const QJsonValue read = QJsonDocument::fromJson(json)
                                .object()[QStringLiteral("rig")]
                                .toObject()[QStringLiteral("particles")]
                                .toArray()[0]
                                .toObject()[QStringLiteral("mass")];
    QCOMPARE(bitsOf(static_cast<float>(read.toDouble())), bitsOf(value));
}

// Qt keeps JSON numbers as doubles and writes −0.0 as "0": the sign of zero is the one thing not kept.
void TestProjectRoundTrip::negativeZero_readsBackAsZero()
{
    Project p = fullProject();
    p.rig.particles[0].position.x = -0.f;
    QByteArray json;
    const Project back = roundTrip(p, &json);
    QCOMPARE(bitsOf(back.rig.particles[0].position.x), 0u);
    QCOMPARE(firstDifference(p, back), QString()); // sameFloat() counts ±0 as equal
}

// A stick refers to particles 10 and 20 by id; moving particles around in the file changes nothing.
void TestProjectRoundTrip::idsNotIndices_referencesSurviveReordering()
{
    const Project p = fullProject();
    QString error;
    const QByteArray json = writeProject(p, error);
    QJsonObject root = QJsonDocument::fromJson(json).object();
    QJsonObject rigObject = root[QStringLiteral("rig")].toObject();
    QJsonArray particles = rigObject[QStringLiteral("particles")].toArray();
    QJsonArray reversed;
    for (qsizetype i = particles.size() - 1; i >= 0; --i)
        reversed.append(particles[i]);
    rigObject[QStringLiteral("particles")] = reversed;
    root[QStringLiteral("rig")] = rigObject;
    Project back;
    const LoadResult r = readProject(QJsonDocument(root).toJson(), {}, back);
    QVERIFY2(r.ok(), qPrintable(r.error));
    // Particle i is now at index 4 − i; every reference followed it.
    QCOMPARE(back.rig.particles[4].name, std::string("hip"));
    QCOMPARE(back.rig.sticks[0].a, 4); // spine: hip (id 10) ...
    QCOMPARE(back.rig.sticks[0].b, 3); // ... to chest (id 20)
    QCOMPARE(back.rig.triangles[1].p[0], 3);
    QCOMPARE(back.rig.triangles[1].p[1], 1);
    QCOMPARE(back.rig.triangles[1].p[2], 2);
    QCOMPARE(back.rig.shapes[1].tetra[3], 0); // knee, id 50, was last
    QCOMPARE(back.rig.pins[0].particle, 2);   // épaule stays in the middle
}

void TestProjectRoundTrip::committedFixture_loadsAndRewritesByteForByte()
{
    // The fixture of the current version; older versions' fixtures stay as they are, for migration tests.
    const QString path = dataPath("v%1/robot.mproj").arg(kProjectVersion);
    QString error;
    const QByteArray expected = writeProject(fullProject(), error);
    QCOMPARE(error, QString());
    if (qEnvironmentVariableIsSet("MARIONETTE_UPDATE_GOLDEN")) {
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly) && out.write(expected) == expected.size());
    }
    QFile file(path);
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
    const QByteArray bytes = file.readAll();
    Project loaded;
    const LoadResult r = loadProject(path, loaded);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.fileVersion, kProjectVersion);
    QCOMPARE(firstDifference(fullProject(), loaded), QString());
    QCOMPARE(writeProject(loaded, error), bytes);
    QCOMPARE(bytes, expected);
}

void TestProjectRoundTrip::write_refusesWhatItCannotWriteFaithfully_data()
{
    QTest::addColumn<ProjectEdit>("edit");
    QTest::addColumn<QString>("message");
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    QTest::newRow("id 0") << ProjectEdit([](Project& p) { p.rig.particles[1].id = 0; })
                          << QStringLiteral("$.rig.particles[1].id: the particle 'chest' has no id (0); "
                                            "assignMissingIds() gives it one");
    QTest::newRow("duplicate id") << ProjectEdit([](Project& p) {
        p.rig.sticks[2].id = 7;
    }) << QStringLiteral("$.rig.sticks[2].id: duplicate stick id 7 (also $.rig.sticks[0].id)");
    QTest::newRow("NaN") << ProjectEdit([nan](Project& p) { p.rig.particles[0].position.y = nan; })
                         << QStringLiteral("$.rig.particles[0].position[1]: nan cannot be saved (not a finite number)");
    QTest::newRow("infinity") << ProjectEdit([inf](Project& p) { p.rig.settings.damping = -inf; })
                              << QStringLiteral("$.rig.settings.damping: -inf cannot be saved (not a finite number)");
    QTest::newRow("infinite angle damping")
        << ProjectEdit([inf](Project& p) { p.rig.angles[1].damping = inf; })
        << QStringLiteral("$.rig.angles[1].damping: inf cannot be saved (not a finite number)");
    QTest::newRow("NaN angle damping")
        << ProjectEdit([nan](Project& p) { p.rig.angles[0].damping = nan; })
        << QStringLiteral("$.rig.angles[0].damping: nan cannot be saved (not a finite number)");
    QTest::newRow("NaN in a matrix") << ProjectEdit([nan](Project& p) {
        p.rig.bones[2].inverseBind.m[13] = nan;
    }) << QStringLiteral("$.rig.bones[2].inverseBind[13]: nan cannot be saved (not a finite number)");
    QTest::newRow("index out of range") << ProjectEdit([](Project& p) {
        p.rig.sticks[0].b = 40;
    }) << QStringLiteral("$.rig.sticks[0].b: particle index 40 out of range (5 particles)");
    QTest::newRow("triangle corner -1") << ProjectEdit([](Project& p) {
        p.rig.triangles[0].p[1] = -1;
    }) << QStringLiteral("$.rig.triangles[0].particles[1]: particle index -1 out of range (5 particles)");
    QTest::newRow("binding driver index")
        << ProjectEdit([](Project& p) { p.rig.bindings[1].index = 4; })
        << QStringLiteral("$.rig.bindings[1].stick: stick index 4 out of range (4 sticks)");
    QTest::newRow("unknown stick kind") << ProjectEdit([](Project& p) { p.rig.sticks[0].kind = rig::StickKind(9); })
                                        << QStringLiteral("$.rig.sticks[0].kind: unknown stick kind 9 cannot be saved");
    QTest::newRow("unknown driver") << ProjectEdit([](Project& p) {
        p.rig.bindings[0].driver = rig::BoneBinding::Driver(5);
    }) << QStringLiteral("$.rig.bindings[0]: unknown driver 5 cannot be saved");
    QTest::newRow("selection of a missing particle")
        << ProjectEdit([](Project& p) { p.editor.selection[1].id = 11; })
        << QStringLiteral("$.editor.selection[1].id: no particle with id 11");
    QTest::newRow("two views of one element")
        << ProjectEdit([](Project& p) { p.editor.elements.push_back(p.editor.elements[0]); })
        << QStringLiteral("$.editor.elements[3]: second entry for particle 20 (the first is $.editor.elements[0])");
    QTest::newRow("hit on a missing stick") << ProjectEdit([](Project& p) { p.scenarios[0].hits[1].target.id = 8; })
                                            << QStringLiteral("$.scenarios[0].hits[1].stick: no stick with id 8");
    QTest::newRow("hit on a bone") << ProjectEdit([](Project& p) {
        p.scenarios[0].hits[0].target.kind = ElementKind::Bone;
    }) << QStringLiteral("$.scenarios[0].hits[0]: a hit targets a particle or a stick, not a bone");
    QTest::newRow("drag of a missing particle")
        << ProjectEdit([](Project& p) { p.scenarios[0].drags[0].particle = 0; })
        << QStringLiteral("$.scenarios[0].drags[0].particle: no particle with id 0");
    QTest::newRow("negative duration") << ProjectEdit([](Project& p) { p.scenarios[1].duration = -1.f; })
                                       << QStringLiteral("$.scenarios[1].duration: -1 is outside (0, 600]");
    QTest::newRow("uppercase hash") << ProjectEdit(
                                           [](Project& p) { p.sourceMesh.sha256 = p.sourceMesh.sha256.toUpper(); })
                                    << QStringLiteral("$.sourceMesh.sha256: expected 64 lowercase hexadecimal digits "
                                                      "(SHA-256) or an empty string");
    QTest::newRow("zero scale") << ProjectEdit([](Project& p) { p.import.scaleToMetres = 0.0; })
                                << QStringLiteral("$.import.scaleToMetres: 0 is outside (0, 1e+06]");
    QTest::newRow("too many particles") << ProjectEdit([](Project& p) {
        p.rig.particles.resize(kMaxElementsPerKind + 1);
    }) << QStringLiteral("$.rig.particles: 1000001 particles; a project holds at most 1000000 of each kind");
    QTest::newRow("empty group name") << ProjectEdit([](Project& p) { p.collisionGroups = {{2, QString()}}; })
                                      << QStringLiteral("$.collisionGroups[0].name: expected a name of 1 to 64 characters");
    QTest::newRow("group bit 32") << ProjectEdit([](Project& p) { p.collisionGroups = {{32, QStringLiteral("x")}}; })
                                  << QStringLiteral("$.collisionGroups[0].bit: 32 is outside [0, 31]");
    QTest::newRow("camera at the target") << ProjectEdit([](Project& p) { p.editor.camera.distance = 0.f; })
                                          << QStringLiteral("$.editor.camera.distance: 0 is outside (0, 1e+06]");
}

void TestProjectRoundTrip::write_refusesWhatItCannotWriteFaithfully()
{
    QFETCH(ProjectEdit, edit);
    QFETCH(QString, message);
    Project p = fullProject();
    edit(p);
    QString error = QStringLiteral("stale");
    const QByteArray json = writeProject(p, error);
    QCOMPARE(error, message);
    QVERIFY(json.isEmpty());
}

// Saving must never refuse an artist's half-finished edit: an invalid rig is written, and reads back with
// acceptInvalidRig (tst_projectread covers the strict load).
void TestProjectRoundTrip::write_acceptsAnInvalidRig()
{
    Project p = fullProject();
    p.rig.sticks[0].b = p.rig.sticks[0].a; // both ends on the hip
    QCOMPARE(QString::fromStdString(p.rig.validate()),
             QStringLiteral("sticks[0] 'spine': both ends are the same particle"));
    QString error;
    const QByteArray json = writeProject(p, error);
    QCOMPARE(error, QString());
    Project back;
    LoadOptions lenient;
    lenient.acceptInvalidRig = true;
    const LoadResult r = readProject(json, QStringLiteral("robot.mproj"), back, lenient);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.rigProblem, QStringLiteral("$.rig.sticks[0] 'spine': both ends are the same particle"));
    QCOMPARE(firstDifference(p, back), QString());
}

QTEST_GUILESS_MAIN(TestProjectRoundTrip)
#include "tst_projectroundtrip.moc"
