// rig.driveProfiles in a .mproj (docs/project-format.md): named sets of per-part drive gains. The key is
// optional within version 2: a project without profiles writes no key (so older projects rewrite unchanged)
// and a file without it loads with none. Parts name their triangle or stick by id, like every reference in a
// project; missing gains take rig::DriveGains' defaults; bad values and dangling ids are refused with the path.
#include "ProjectTestSupport.h"

#include "marionette/project/Migration.h"
#include "marionette/project/ProjectFile.h"

#include <QFile>
#include <QtTest/QtTest>

using namespace marionette;
using namespace marionette::project;
using namespace marionette::test;

namespace {

const QString kFile = QStringLiteral("robot.mproj");

/// fullProject() with two profiles: "stagger" (id 40; defaults a 4 Hz motor; the chest triangle (id 6) with its
/// own 12 Hz motor and the neck stick (id 3) kinematic) and "limp" (id 0, every gain off, no parts).
Project withProfiles()
{
    Project p = fullProject();
    rig::DriveProfile stagger;
    stagger.name = "stagger";
    stagger.id = 40;
    stagger.defaults = {4.f, 1.f, 200.f, 0.f, 1.f, 0.f, false};
    stagger.parts.push_back({rig::DrivePartKind::Triangle, 1, {12.f, 0.5f, 1e6f, 0.25f, 10.f, 0.1f, false}});
    stagger.parts.push_back({rig::DrivePartKind::Stick, 1, {0.f, 1.f, 0.f, 60.f, 1.f, 50.f, true}});
    p.rig.driveProfiles.push_back(stagger);
    rig::DriveProfile limp;
    limp.name = "limp";
    p.rig.driveProfiles.push_back(limp);
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

QJsonObject rigObject(const QByteArray& json)
{
    return QJsonDocument::fromJson(json).object()[QStringLiteral("rig")].toObject();
}

} // namespace

class TestProjectDriveProfiles : public QObject {
    Q_OBJECT

  private slots:
    void profiles_roundTripEveryField();
    void parts_referToElementsById();
    void noProfiles_writesNoKey();
    void committedVersion2File_loadsWithNoProfiles();
    void missingFields_takeTheDefaults();
    void brokenProfile_isRefusedWithPath_data();
    void brokenProfile_isRefusedWithPath();
    void outOfRangeGain_loadsOnlyWhenAccepted();
    void fuzzSeed_loads();
};

void TestProjectDriveProfiles::profiles_roundTripEveryField()
{
    const Project p = withProfiles();
    QCOMPARE(QString::fromStdString(p.rig.validate()), QString());
    const QByteArray json = write(p);
    Project back = sentinel();
    const LoadResult r = readProject(json, kFile, back);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.fileVersion, 2);
    QCOMPARE(firstDifference(p, back), QString());
    QCOMPARE(back.rig.driveProfiles[0].parts[0].gains.maxTorque, 1e6f);
    QVERIFY(back.rig.driveProfiles[0].parts[1].gains.kinematic);
    QCOMPARE(write(back), json); // rewrites the same text
}

// A part is {"triangle": id} or {"stick": id} with its gains beside it; the defaults are an object of the
// seven gains; every key is written.
void TestProjectDriveProfiles::parts_referToElementsById()
{
    const QJsonArray profiles = rigObject(write(withProfiles()))[QStringLiteral("driveProfiles")].toArray();
    QCOMPARE(profiles.size(), 2);
    const QJsonObject stagger = profiles[0].toObject();
    QCOMPARE(stagger[QStringLiteral("id")].toInt(), 40);
    QCOMPARE(stagger[QStringLiteral("name")].toString(), QStringLiteral("stagger"));
    const QJsonObject defaults = stagger[QStringLiteral("defaults")].toObject();
    QCOMPARE(defaults.keys(), (QStringList{"kinematic", "maxForce", "maxTorque", "motorDamping", "motorFrequency",
                                           "pinDamping", "pinFrequency"}));
    QCOMPARE(defaults[QStringLiteral("motorFrequency")].toDouble(), 4.0);
    const QJsonArray parts = stagger[QStringLiteral("parts")].toArray();
    QCOMPARE(parts.size(), 2);
    const QJsonObject chest = parts[0].toObject(), neck = parts[1].toObject();
    QCOMPARE(chest[QStringLiteral("triangle")].toInt(), 6); // triangles[1] "chest" has id 6
    QVERIFY(!chest.contains(QStringLiteral("stick")));
    QCOMPARE(chest[QStringLiteral("motorFrequency")].toDouble(), 12.0);
    QCOMPARE(neck[QStringLiteral("stick")].toInt(), 3); // sticks[1] "neck" has id 3
    QCOMPARE(neck[QStringLiteral("kinematic")].toBool(), true);
    QCOMPARE(neck.keys().size(), 8);
    QCOMPARE(profiles[1].toObject()[QStringLiteral("parts")].toArray().size(), 0);

    // Reordering the triangles changes indices, not ids: the part follows its triangle.
    Project swapped = withProfiles();
    std::swap(swapped.rig.triangles[0], swapped.rig.triangles[1]);
    for (rig::AngularConstraint& a : swapped.rig.angular)
        std::swap(a.triangleA, a.triangleB);
    for (rig::Shape& s : swapped.rig.shapes)
        if (s.triangle >= 0)
            s.triangle = 1 - s.triangle;
    for (rig::BoneBinding& b : swapped.rig.bindings)
        if (b.driver == rig::BoneBinding::Driver::Triangle)
            b.index = 1 - b.index;
    swapped.rig.driveProfiles[0].parts[0].index = 0;
    const QJsonArray again = rigObject(write(swapped))[QStringLiteral("driveProfiles")].toArray();
    QCOMPARE(again[0].toObject()[QStringLiteral("parts")].toArray()[0].toObject()[QStringLiteral("triangle")].toInt(), 6);
}

void TestProjectDriveProfiles::noProfiles_writesNoKey()
{
    const QByteArray json = write(fullProject());
    QVERIFY(!rigObject(json).contains(QStringLiteral("driveProfiles")));
    QVERIFY(!json.contains("driveProfiles"));
}

// data/v2/robot.mproj was saved before profiles existed: it has no key, loads with none, and rewrites the same.
void TestProjectDriveProfiles::committedVersion2File_loadsWithNoProfiles()
{
    const QString path = QStringLiteral(MARIONETTE_PROJECT_TEST_DATA "/v2/robot.mproj");
    QFile file(path);
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
    const QByteArray bytes = file.readAll();
    QVERIFY(!bytes.contains("driveProfiles"));
    Project p = sentinel();
    const LoadResult r = loadProject(path, p);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.fileVersion, 2);
    QVERIFY(p.rig.driveProfiles.empty());
    QVERIFY(!write(p).contains("driveProfiles"));
}

void TestProjectDriveProfiles::missingFields_takeTheDefaults()
{
    QByteArray json = write(fullProject());
    json = editedDocument(json, QStringLiteral("rig.driveProfiles"),
                          QStringLiteral(R"([{"name": "bare"}, {"name": "part", "parts": [{"stick": 9, "pinFrequency": 2}]},
                                             {"name": "soft", "defaults": {"motorFrequency": 3}}])"));
    Project p = sentinel();
    const LoadResult r = readProject(json, kFile, p);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(p.rig.driveProfiles.size(), std::size_t(3));
    const rig::DriveGains none{};
    QCOMPARE(p.rig.driveProfiles[0].id, 0u);
    QCOMPARE(p.rig.driveProfiles[0].defaults, none);
    QVERIFY(p.rig.driveProfiles[0].parts.empty());
    const rig::DrivePart& part = p.rig.driveProfiles[1].parts.at(0);
    QCOMPARE(part.kind, rig::DrivePartKind::Stick);
    QCOMPARE(part.index, 2); // sticks[2] "arm" has id 9
    rig::DriveGains pinned{};
    pinned.pinFrequency = 2.f;
    QCOMPARE(part.gains, pinned);
    QCOMPARE(part.gains.motorDamping, 1.f);
    QCOMPARE(p.rig.driveProfiles[2].defaults.motorFrequency, 3.f);
    QCOMPARE(p.rig.driveProfiles[2].defaults.pinDamping, 1.f);
}

void TestProjectDriveProfiles::brokenProfile_isRefusedWithPath_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("message");
    const auto row = [](const char* name, const char* path, const char* value, const char* message) {
        QTest::newRow(name) << QString::fromUtf8(path) << QString::fromUtf8(value) << QString::fromUtf8(message);
    };
    row("not an array", "rig.driveProfiles", "{}", "$.rig.driveProfiles: expected an array, found an object");
    row("profile not an object", "rig.driveProfiles[1]", "3", "$.rig.driveProfiles[1]: expected an object, found a number");
    row("dangling triangle", "rig.driveProfiles[0].parts[0].triangle", "999",
        "$.rig.driveProfiles[0].parts[0].triangle: no triangle with id 999");
    row("dangling stick", "rig.driveProfiles[0].parts[1].stick", "5",
        "$.rig.driveProfiles[0].parts[1].stick: no stick with id 5");
    row("a particle's id as a stick", "rig.driveProfiles[0].parts[1].stick", "11",
        "$.rig.driveProfiles[0].parts[1].stick: no stick with id 11");
    row("both kinds", "rig.driveProfiles[0].parts[1].triangle", "5",
        "$.rig.driveProfiles[0].parts[1]: has both \"triangle\" and \"stick\"; a part is one of them");
    row("neither kind", "rig.driveProfiles[0].parts[0].triangle", "<remove>",
        "$.rig.driveProfiles[0].parts[0]: missing its part: a \"triangle\" or a \"stick\" field");
    row("id as text", "rig.driveProfiles[0].parts[0].triangle", "\"chest\"",
        "$.rig.driveProfiles[0].parts[0].triangle: expected an integer, found a string");
    row("gain as text", "rig.driveProfiles[0].parts[0].motorFrequency", "\"fast\"",
        "$.rig.driveProfiles[0].parts[0].motorFrequency: expected a number, found a string");
    row("default gain null", "rig.driveProfiles[1].defaults.pinDamping", "null",
        "$.rig.driveProfiles[1].defaults.pinDamping: expected a number, found null");
    row("kinematic as number", "rig.driveProfiles[0].defaults.kinematic", "1",
        "$.rig.driveProfiles[0].defaults.kinematic: expected true or false, found a number");
    row("gain beyond float", "rig.driveProfiles[0].defaults.maxForce", "1e39",
        "$.rig.driveProfiles[0].defaults.maxForce: 1e+39 does not fit a 32-bit float");
    row("unknown gain", "rig.driveProfiles[0].defaults.stiffness", "1",
        "$.rig.driveProfiles[0].defaults.stiffness: unknown field");
    row("unknown part field", "rig.driveProfiles[0].parts[0].bone", "900",
        "$.rig.driveProfiles[0].parts[0].bone: unknown field");
    row("unknown profile field", "rig.driveProfiles[1].active", "true", "$.rig.driveProfiles[1].active: unknown field");
    row("negative id", "rig.driveProfiles[1].id", "-1", "$.rig.driveProfiles[1].id: -1 is outside [0, 4294967295]");
    row("repeated id", "rig.driveProfiles[1].id", "40", "$.rig.driveProfiles[1].id: id 40 used by driveProfiles[0] too");
    row("more parts than triangles and sticks", "rig.driveProfiles[1].parts",
        "[{\"stick\": 1}, {\"stick\": 1}, {\"stick\": 1}, {\"stick\": 1}, {\"stick\": 1}, {\"stick\": 1}, {\"stick\": 1}]",
        "$.rig.driveProfiles[1].parts: 7 parts, but the rig has only 6 triangles and sticks");
    // RigDescription::validate()'s rules, with the profile's path.
    row("validate: frequency above 60", "rig.driveProfiles[0].parts[0].motorFrequency", "70",
        "$.rig.driveProfiles[0] 'stagger': parts[0].gains.motorFrequency 70 outside [0, 60]");
    row("validate: negative default damping", "rig.driveProfiles[1].defaults.motorDamping", "-1",
        "$.rig.driveProfiles[1] 'limp': defaults.motorDamping -1 outside [0, 10]");
    row("validate: repeated name", "rig.driveProfiles[1].name", "\"stagger\"",
        "$.rig.driveProfiles[1] 'stagger': name used by driveProfiles[0] too");
    row("validate: empty name", "rig.driveProfiles[1].name", "\"\"", "$.rig.driveProfiles[1]: a drive profile needs a name");
    row("validate: part twice", "rig.driveProfiles[0].parts[1]", "{\"triangle\": 6}",
        "$.rig.driveProfiles[0] 'stagger': parts[1].index: part listed twice (also parts[0])");
}

void TestProjectDriveProfiles::brokenProfile_isRefusedWithPath()
{
    QFETCH(QString, path);
    QFETCH(QString, value);
    QFETCH(QString, message);
    const QByteArray json = editedDocument(write(withProfiles()), path, value);
    Project p = sentinel();
    const LoadResult r = readProject(json, kFile, p);
    QCOMPARE(r.error, kFile + QStringLiteral(": ") + message);
    QVERIFY(!r.error.contains(u'\n'));
    QVERIFY(isSentinel(p));
}

// Like every range of RigDescription::validate(): refused by a strict load, kept with acceptInvalidRig so the
// editor can open the file and the artist fix it.
void TestProjectDriveProfiles::outOfRangeGain_loadsOnlyWhenAccepted()
{
    const QByteArray json =
        editedDocument(write(withProfiles()), QStringLiteral("rig.driveProfiles[0].defaults.pinFrequency"),
                       QStringLiteral("61"));
    LoadOptions options;
    options.acceptInvalidRig = true;
    Project lenient = sentinel();
    const LoadResult accepted = readProject(json, kFile, lenient, options);
    QCOMPARE(accepted.error, QString());
    QCOMPARE(accepted.rigProblem, QStringLiteral("$.rig.driveProfiles[0] 'stagger': defaults.pinFrequency 61 outside [0, 60]"));
    QCOMPARE(lenient.rig.driveProfiles[0].defaults.pinFrequency, 61.f);
}

// The fuzzer's seed with profiles (corpus/good_drive_profiles.mproj) is a valid project, so mutations start
// from documents that reach every profile check.
void TestProjectDriveProfiles::fuzzSeed_loads()
{
    Project p = sentinel();
    const LoadResult r =
        loadProject(QStringLiteral(MARIONETTE_PROJECT_TEST_DATA "/../corpus/good_drive_profiles.mproj"), p);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(p.rig.driveProfiles.size(), std::size_t(3));
    const rig::DriveProfile& stagger = p.rig.driveProfiles[0];
    QCOMPARE(stagger.parts.size(), std::size_t(2));
    QCOMPARE(stagger.parts[0].kind, rig::DrivePartKind::Triangle);
    QCOMPARE(stagger.parts[0].index, 0);
    QCOMPARE(stagger.parts[1].kind, rig::DrivePartKind::Stick);
    QCOMPARE(stagger.parts[1].index, 1); // the stick with id 2
    QVERIFY(stagger.parts[1].gains.kinematic);
    QCOMPARE(stagger.parts[1].gains.motorFrequency, 0.f);
    QCOMPARE(p.rig.driveProfiles[1].id, 0u);
}

QTEST_GUILESS_MAIN(TestProjectDriveProfiles)
#include "tst_projectdriveprofiles.moc"
