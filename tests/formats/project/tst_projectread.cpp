// Reading broken project documents: every malformed, truncated or semantically broken input gives one
// line naming the file and the JSON path of the problem, and leaves the output project untouched. The
// table edits one value of a valid document (fullProject() written out) per row; raw rows cover text that
// is not JSON at all. Truncation at every offset and thousands of single-byte corruptions never crash and
// never half-load, and whatever does load can be saved again.
#include "marionette/project/Migration.h"
#include "marionette/project/ProjectFile.h"

#include <QtTest/QtTest>

#include "ProjectTestSupport.h"

using namespace marionette;
using namespace marionette::project;
using namespace marionette::test;

namespace {

const QString kFile = QStringLiteral("robot.mproj");

QByteArray validDocument()
{
    QString error;
    const QByteArray json = writeProject(fullProject(), error);
    if (!error.isEmpty())
        qFatal("%s", qPrintable(error));
    return json;
}

/// `json`, whose rig breaks one of RigDescription::validate()'s rules, is refused by a strict load with
/// `problem` (one line, the project left untouched) and loads with acceptInvalidRig: no error, `problem` as
/// the rig's problem, the project in `lenient`.
void loadsOnlyWhenInvalidRigAccepted(const QByteArray& json, const QString& problem, Project& lenient)
{
    Project strict = sentinel();
    const LoadResult refused = readProject(json, kFile, strict);
    QCOMPARE(refused.error, kFile + QStringLiteral(": ") + problem);
    QVERIFY(!refused.error.contains(u'\n'));
    QCOMPARE(refused.fileVersion, kProjectVersion);
    QVERIFY(isSentinel(strict));

    lenient = sentinel();
    LoadOptions options;
    options.acceptInvalidRig = true;
    const LoadResult accepted = readProject(json, kFile, lenient, options);
    QCOMPARE(accepted.error, QString());
    QCOMPARE(accepted.rigProblem, problem);
}

} // namespace

class TestProjectRead : public QObject {
    Q_OBJECT

  private slots:
    void brokenDocument_reportsOneLineWithPath_data();
    void brokenDocument_reportsOneLineWithPath();
    void brokenText_reportsPositionOfTheSyntaxError_data();
    void brokenText_reportsPositionOfTheSyntaxError();
    void invalidRig_loadsOnlyWhenAccepted();
    void angleDamping_absentFromAVersion2File_loadsAsZero();
    void angleDamping_committedFileFromBeforeTheKey_loadsAsZero();
    void angleDamping_outOfRange_loadsOnlyWhenAccepted_data();
    void angleDamping_outOfRange_loadsOnlyWhenAccepted();
    void hugeSection_isRefusedBeforeAllocatingTheRig_data();
    void hugeSection_isRefusedBeforeAllocatingTheRig();
    void namesWithNewlines_stayOnOneLine();
    void truncation_atEveryOffset_failsCleanly();
    void corruption_ofSingleBytes_neverHalfLoads();
};

void TestProjectRead::brokenDocument_reportsOneLineWithPath_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("value"); // JSON text, or <remove>
    QTest::addColumn<QString>("message");
    const auto row = [](const char* name, const char* path, const char* value, const QString& message) {
        QTest::newRow(name) << QString::fromUtf8(path) << QString::fromUtf8(value) << message;
    };
    // Document level.
    row("missing format", "format", "<remove>", "$.format: missing required field; this is not a Marionette project");
    row("wrong format", "format", "\"tiled-map\"",
        "$.format: not a Marionette project (expected \"marionette-project\", found \"tiled-map\")");
    row("format not a string", "format", "1",
        "$.format: not a Marionette project (expected \"marionette-project\", found a number)");
    row("missing version", "version", "<remove>", "$.version: missing required field");
    row("version as text", "version", "\"1\"", "$.version: expected an integer, found a string");
    row("fractional version", "version", "1.5", "$.version: expected an integer, found 1.5");
    row("negative version", "version", "-1", "$.version: -1 is outside [0, 2147483647]");
    row("newer version", "version", "3", "made by a newer Marionette (project version 3); this build reads up to 2");
    row("much newer version", "version", "17",
        "made by a newer Marionette (project version 17); this build reads up to 2");
    row("unknown top-level field", "extra", "true", "$.extra: unknown field");
    row("missing rig", "rig", "<remove>", "$.rig: missing required field");
    row("rig not an object", "rig", "[]", "$.rig: expected an object, found an array");
    // Types and shapes.
    row("wrong type", "rig.particles[1].mass", "\"heavy\"",
        "$.rig.particles[1].mass: expected a number, found a string");
    row("null number", "rig.settings.damping", "null", "$.rig.settings.damping: expected a number, found null");
    row("bool as number", "rig.pins[0].kinematic", "1",
        "$.rig.pins[0].kinematic: expected true or false, found a number");
    row("name not a string", "rig.sticks[2].name", "[]", "$.rig.sticks[2].name: expected a string, found an array");
    row("element not an object", "rig.sticks[2]", "5", "$.rig.sticks[2]: expected an object, found a number");
    row("section not an array", "rig.pins", "{}", "$.rig.pins: expected an array, found an object");
    row("short vector", "rig.particles[0].position", "[1, 2]",
        "$.rig.particles[0].position: expected 3 numbers, found 2");
    row("vector element", "rig.pins[0].target", "[0, \"1\", 0]",
        "$.rig.pins[0].target[1]: expected a number, found a string");
    row("vector as object", "rig.settings.gravity", "{\"y\": -9.81}",
        "$.rig.settings.gravity: expected an array of 3 numbers, found an object");
    row("matrix size", "rig.bones[0].bindWorld", "[1, 2, 3]", "$.rig.bones[0].bindWorld: expected 16 numbers, found 3");
    row("quaternion size", "rig.angular[0].restOrientation", "[0, 0, 1]",
        "$.rig.angular[0].restOrientation: expected 4 numbers, found 3");
    row("transform field", "rig.shapes[0].local.rotation", "<remove>",
        "$.rig.shapes[0].local.rotation: missing required field");
    row("unknown field", "rig.sticks[0].stifness", "1", "$.rig.sticks[0].stifness: unknown field");
    row("unknown odd key", "rig.two words", "1", "$.rig[\"two words\"]: unknown field");
    row("unknown key with a newline", "rig.a\nb", "1", "$.rig[\"a\\nb\"]: unknown field");
    row("unknown settings field", "rig.settings.gravityScale", "2", "$.rig.settings.gravityScale: unknown field");
    // Version 1's per-step keys are not part of version 2: a version 2 document holding one is refused.
    row("version 1 drag", "rig.settings.drag", "0.01", "$.rig.settings.drag: unknown field");
    row("version 1 static friction", "rig.settings.staticFriction", "0.0005",
        "$.rig.settings.staticFriction: unknown field");
    row("version 1 angular friction", "rig.angular[0].dynamicFriction", "0.25",
        "$.rig.angular[0].dynamicFriction: unknown field");
    row("version 1 friction angle", "rig.angular[1].staticFrictionAngle", "0",
        "$.rig.angular[1].staticFrictionAngle: unknown field");
    // Angle damping: a number (a float), the range RigDescription::validate()'s (below).
    row("angle damping as text", "rig.angles[0].damping", "\"soft\"",
        "$.rig.angles[0].damping: expected a number, found a string");
    row("angle damping null", "rig.angles[1].damping", "null",
        "$.rig.angles[1].damping: expected a number, found null");
    row("angle damping as bool", "rig.angles[0].damping", "true",
        "$.rig.angles[0].damping: expected a number, found a boolean");
    row("angle damping as array", "rig.angles[1].damping", "[1]",
        "$.rig.angles[1].damping: expected a number, found an array");
    row("angle damping beyond float", "rig.angles[0].damping", "1e39",
        "$.rig.angles[0].damping: 1e+39 does not fit a 32-bit float");
    row("angle damping misspelt", "rig.angles[0].dampening", "1", "$.rig.angles[0].dampening: unknown field");
    // Numbers out of range.
    row("float overflow", "rig.particles[0].radius", "1e39",
        "$.rig.particles[0].radius: 1e+39 does not fit a 32-bit float");
    row("group below 0", "rig.sticks[0].group", "-1", "$.rig.sticks[0].group: -1 is outside [0, 4294967295]");
    row("mask above 32 bits", "rig.particles[3].mask", "4294967296",
        "$.rig.particles[3].mask: 4294967296 is outside [0, 4294967295]");
    row("fractional count", "rig.settings.iterations", "8.5",
        "$.rig.settings.iterations: expected an integer, found 8.5");
    row("fractional substeps", "rig.settings.substeps", "2.5",
        "$.rig.settings.substeps: expected an integer, found 2.5");
    row("negative substeps", "rig.settings.substeps", "-1", "$.rig.settings.substeps: -1 is outside [0, 4294967295]");
    row("substeps as text", "rig.settings.substeps", "\"8\"",
        "$.rig.settings.substeps: expected an integer, found a string");
    // Ids and references.
    row("missing id", "rig.particles[2].id", "<remove>", "$.rig.particles[2].id: missing required field");
    row("id 0", "rig.particles[0].id", "0", "$.rig.particles[0].id: 0 is outside [1, 4294967295]");
    row("id above 32 bits", "rig.triangles[0].id", "4294967296",
        "$.rig.triangles[0].id: 4294967296 is outside [1, 4294967295]");
    row("fractional id", "rig.pins[0].id", "1.5", "$.rig.pins[0].id: expected an integer, found 1.5");
    row("duplicate id", "rig.sticks[1].id", "7", "$.rig.sticks[1].id: duplicate stick id 7 (also $.rig.sticks[0].id)");
    row("duplicate bone id", "rig.bones[2].id", "900",
        "$.rig.bones[2].id: duplicate bone id 900 (also $.rig.bones[0].id)");
    row("missing reference", "rig.sticks[0].b", "<remove>", "$.rig.sticks[0].b: missing required field");
    row("reference as text", "rig.sticks[0].a", "\"10\"", "$.rig.sticks[0].a: expected an integer, found a string");
    row("null required reference", "rig.angles[0].center", "null",
        "$.rig.angles[0].center: expected an integer, found null");
    row("dangling stick end", "rig.sticks[3].b", "12", "$.rig.sticks[3].b: no particle with id 12");
    row("dangling angle arm", "rig.angles[1].a", "5", "$.rig.angles[1].a: no particle with id 5");
    row("dangling triangle corner", "rig.triangles[1].particles[2]", "99",
        "$.rig.triangles[1].particles[2]: no particle with id 99");
    row("dangling angular triangle", "rig.angular[0].triangleB", "7",
        "$.rig.angular[0].triangleB: no triangle with id 7");
    row("dangling pin", "rig.pins[0].particle", "11", "$.rig.pins[0].particle: no particle with id 11");
    // 42 is an angular constraint's id: each kind has its own id space.
    row("dangling shape owner", "rig.shapes[0].triangle", "42", "$.rig.shapes[0].triangle: no triangle with id 42");
    row("dangling tetra corner", "rig.shapes[1].tetra[3]", "60", "$.rig.shapes[1].tetra[3]: no particle with id 60");
    row("dangling bone parent", "rig.bones[1].parent", "5", "$.rig.bones[1].parent: no bone with id 5");
    row("dangling particle bone", "rig.particles[0].bone", "1", "$.rig.particles[0].bone: no bone with id 1");
    row("dangling binding bone", "rig.bindings[0].bone", "31", "$.rig.bindings[0].bone: no bone with id 31");
    row("dangling binding driver", "rig.bindings[1].stick", "6", "$.rig.bindings[1].stick: no stick with id 6");
    row("binding with two drivers", "rig.bindings[1].triangle", "5",
        "$.rig.bindings[1]: has both \"triangle\" and \"stick\"; a bone has one driver");
    row("binding without driver", "rig.bindings[0].triangle", "<remove>",
        "$.rig.bindings[0]: missing its driver: a \"triangle\" or a \"stick\" field");
    // Enums.
    row("unknown stick kind", "rig.sticks[0].kind", "\"elastic\"",
        "$.rig.sticks[0].kind: unknown stick kind \"elastic\" (expected rigid, range, min-only or max-only)");
    row("unknown angle form", "rig.angles[0].form", "\"sine\"",
        "$.rig.angles[0].form: unknown angle form \"sine\" (expected dot-product or law-of-cosines)");
    row("unknown limit", "rig.angular[1].limit", "\"hinge\"",
        "$.rig.angular[1].limit: unknown angular limit \"hinge\" (expected cone or swing-twist)");
    row("unknown shape kind", "rig.shapes[0].kind", "\"sphere\"",
        "$.rig.shapes[0].kind: unknown shape kind \"sphere\" (expected box)");
    row("unknown solver", "rig.settings.solver", "\"pbd\"",
        "$.rig.settings.solver: unknown solver mode \"pbd\" (expected gauss-seidel, jacobi, xpbd or direct)");
    row("enum in capitals", "rig.sticks[1].kind", "\"Range\"",
        "$.rig.sticks[1].kind: unknown stick kind \"Range\" (expected rigid, range, min-only or max-only)");
    // RigDescription::validate(), after the ids are resolved: its message with the element's path.
    row("validate: stiffness", "rig.sticks[0].stiffness", "0", "$.rig.sticks[0] 'spine': stiffness 0 outside (0, 1]");
    row("validate: negative mass", "rig.particles[4].mass", "-2",
        "$.rig.particles[4] 'knee': mass -2 outside [0, 1e+06]");
    row("validate: same particle twice", "rig.triangles[0].particles", "[10, 20, 10]",
        "$.rig.triangles[0] 'pelvis': uses the same particle twice");
    row("validate: parent after child", "rig.bones[0].parent", "899",
        "$.rig.bones[0] 'pelvis': parent 2 must be an earlier bone or -1");
    row("validate: settings", "rig.settings.iterations", "0", "$.rig.settings: iterations 0 outside [1, 64]");
    // The solver schedule and the rates: each range is RigDescription::validate()'s.
    row("validate: no substeps", "rig.settings.substeps", "0", "$.rig.settings: substeps 0 outside [1, 64]");
    row("validate: too many substeps", "rig.settings.substeps", "65", "$.rig.settings: substeps 65 outside [1, 64]");
    row("validate: too many iterations", "rig.settings.iterations", "65",
        "$.rig.settings: iterations 65 outside [1, 64]");
    row("validate: negative damping", "rig.settings.damping", "-0.5", "$.rig.settings: damping -0.5 outside [0, 100]");
    row("validate: damping above 100", "rig.settings.damping", "100.5",
        "$.rig.settings: damping 100.5 outside [0, 100]");
    row("validate: negative static friction speed", "rig.settings.staticFrictionSpeed", "-0.01",
        "$.rig.settings: staticFrictionSpeed -0.01 outside [0, 100]");
    row("validate: static friction speed above 100", "rig.settings.staticFrictionSpeed", "250",
        "$.rig.settings: staticFrictionSpeed 250 outside [0, 100]");
    row("validate: angular damping above 1000", "rig.angular[0].damping", "1000.5",
        "$.rig.angular[0] 'spine cone': damping 1000.5 outside [0, 1000]");
    row("validate: negative angular damping", "rig.angular[1].damping", "-3",
        "$.rig.angular[1] 'neck swing-twist': damping -3 outside [0, 1000]");
    row("validate: angular static friction speed", "rig.angular[0].staticFrictionSpeed", "101",
        "$.rig.angular[0] 'spine cone': staticFrictionSpeed 101 outside [0, 100]");
    row("validate: negative angular static friction speed", "rig.angular[1].staticFrictionSpeed", "-1",
        "$.rig.angular[1] 'neck swing-twist': staticFrictionSpeed -1 outside [0, 100]");
    row("validate: negative angle damping", "rig.angles[0].damping", "-1",
        "$.rig.angles[0] 'elbow': damping -1 outside [0, 1000]");
    row("validate: angle damping above 1000", "rig.angles[1].damping", "2000",
        "$.rig.angles[1] 'hip angle': damping 2000 outside [0, 1000]");
    row("validate: angle damping just above 1000", "rig.angles[0].damping", "1000.5",
        "$.rig.angles[0] 'elbow': damping 1000.5 outside [0, 1000]");
    row("validate: negative compliance", "rig.sticks[1].compliance", "-1e-06",
        "$.rig.sticks[1] 'neck': compliance -1e-06 outside [0, 1e+06]");
    row("validate: huge compliance", "rig.sticks[0].compliance", "2e6",
        "$.rig.sticks[0] 'spine': compliance 2e+06 outside [0, 1e+06]");
    row("emptied particle list", "rig.particles", "[]", "$.rig.sticks[0].a: no particle with id 10");
    // Editor state.
    row("editor: dangling view", "editor.elements[1].id", "40", "$.editor.elements[1].id: no stick with id 40");
    row("editor: unknown kind", "editor.selection[0].kind", "\"muscle\"",
        "$.editor.selection[0].kind: unknown element kind \"muscle\" (expected particle, stick, angle, triangle, "
        "angular, pin, shape, bone or binding)");
    row("editor: bad colour", "editor.elements[0].colour", "\"orange\"",
        "$.editor.elements[0].colour: expected a colour \"#rrggbb\" or \"#rrggbbaa\", found \"orange\"");
    row("editor: short colour", "editor.elements[0].colour", "\"#fff\"",
        "$.editor.elements[0].colour: expected a colour \"#rrggbb\" or \"#rrggbbaa\", found \"#fff\"");
    row("editor: pitch", "editor.camera.pitchDegrees", "95", "$.editor.camera.pitchDegrees: 95 is outside [-90, 90]");
    row("editor: projection", "editor.camera.projection", "\"fisheye\"",
        "$.editor.camera.projection: unknown projection \"fisheye\" (expected perspective or orthographic)");
    row("editor: opacity", "editor.meshOpacity", "1.5", "$.editor.meshOpacity: 1.5 is outside [0, 1]");
    row("editor: selected twice", "editor.selection[2]", "{\"kind\": \"triangle\", \"id\": 6}",
        "$.editor.selection[2]: triangle 6 is selected twice (also $.editor.selection[0])");
    // Scenarios.
    row("hit: dangling", "scenarios[0].hits[0].particle", "77",
        "$.scenarios[0].hits[0].particle: no particle with id 77");
    row("hit: two targets", "scenarios[0].hits[1].particle", "10",
        "$.scenarios[0].hits[1]: has both \"particle\" and \"stick\"; a hit has one target");
    row("hit: no target", "scenarios[0].hits[0].particle", "<remove>",
        "$.scenarios[0].hits[0]: missing its target: a \"particle\" or a \"stick\" field");
    row("hit: negative frame", "scenarios[0].hits[0].frame", "-3",
        "$.scenarios[0].hits[0].frame: -3 is outside [0, 4294967295]");
    row("hit: along", "scenarios[0].hits[1].along", "1.25", "$.scenarios[0].hits[1].along: 1.25 is outside [0, 1]");
    row("hit: huge impulse", "scenarios[0].hits[0].impulse", "[0, 2e6, 0]",
        "$.scenarios[0].hits[0].impulse: length 2e+06 N·s is above 1e+06");
    row("drag: backwards", "scenarios[0].drags[0].endFrame", "5",
        "$.scenarios[0].drags[0].endFrame: 5 is before startFrame 10");
    row("drag: dangling", "scenarios[0].drags[0].particle", "70",
        "$.scenarios[0].drags[0].particle: no particle with id 70");
    row("explosion: no radius", "scenarios[0].explosions", "[{\"frame\": 3, \"centre\": [0, 1, 0], \"strength\": 2}]",
        "$.scenarios[0].explosions[0].radius: missing required field");
    row("explosion: zero radius", "scenarios[0].explosions",
        "[{\"frame\": 3, \"centre\": [0, 1, 0], \"strength\": 2, \"radius\": 0}]",
        "$.scenarios[0].explosions[0].radius: 0 is outside (0, 1e+06]");
    row("explosion: negative strength", "scenarios[0].explosions",
        "[{\"frame\": 3, \"centre\": [0, 1, 0], \"strength\": -2, \"radius\": 1}]",
        "$.scenarios[0].explosions[0].strength: -2 is outside [0, 1e+06]");
    row("explosion: far away", "scenarios[0].explosions",
        "[{\"frame\": 3, \"centre\": [0, 2e6, 0], \"strength\": 2, \"radius\": 1}]",
        "$.scenarios[0].explosions[0].centre: length 2e+06 m from the origin is above 1e+06");
    row("setting change: nothing", "scenarios[0].settingChanges", "[{\"frame\": 3}]",
        "$.scenarios[0].settingChanges[0]: changes nothing: give \"iterations\", \"timeStep\" or \"gravity\"");
    row("setting change: no iterations", "scenarios[0].settingChanges", "[{\"frame\": 3, \"iterations\": 0}]",
        "$.scenarios[0].settingChanges[0].iterations: 0 outside [1, 64]");
    row("setting change: tiny step", "scenarios[0].settingChanges", "[{\"frame\": 3, \"timeStep\": 1e-6}]",
        "$.scenarios[0].settingChanges[0].timeStep: 1e-06 is outside [0.001, 0.1]");
    row("setting change: gravity a number", "scenarios[0].settingChanges", "[{\"frame\": 3, \"gravity\": 1}]",
        "$.scenarios[0].settingChanges[0].gravity: expected true or false, found a number");
    row("setting change: unknown setting", "scenarios[0].settingChanges", "[{\"frame\": 3, \"drag\": 1}]",
        "$.scenarios[0].settingChanges[0].drag: unknown field");
    row("animation start: no clip", "scenarios[0].animationStart", "{\"clip\": \"\", \"time\": 1}",
        "$.scenarios[0].animationStart.clip: names no clip");
    row("animation start: negative time", "scenarios[0].animationStart", "{\"clip\": \"walk\", \"time\": -1}",
        "$.scenarios[0].animationStart.time: -1 is outside [0, 1e+06]");
    row("scenario: zero duration", "scenarios[1].duration", "0", "$.scenarios[1].duration: 0 is outside (0, 600]");
    row("scenario: endless", "scenarios[1].duration", "1e9", "$.scenarios[1].duration: 1e+09 is outside (0, 600]");
    row("scenario: settles after the end", "scenarios[0].expect.settleWithin", "7",
        "$.scenarios[0].expect.settleWithin: 7 is outside (0, 6]");
    row("scenario: scene", "scenarios[0].scene", "\"moon\"",
        "$.scenarios[0].scene: unknown scene \"moon\" (expected floor, stairs, ledge or box)");
    row("scenario: rotation", "scenarios[0].initialRotation.quaternion", "[0, 0, 0, 2]",
        "$.scenarios[0].initialRotation.quaternion: not a unit quaternion (squared length 4)");
    row("scenario: limit violation", "scenarios[0].expect.maxLimitViolationDegrees", "270",
        "$.scenarios[0].expect.maxLimitViolationDegrees: 270 is outside [0, 180]");
    // Source mesh and import.
    row("mesh hash", "sourceMesh.sha256", "\"abc\"",
        "$.sourceMesh.sha256: expected 64 lowercase hexadecimal digits (SHA-256) or an empty string");
    row("import scale", "import.scaleToMetres", "-1", "$.import.scaleToMetres: -1 is outside (0, 1e+06]");
    row("import axis", "import.sourceUpAxis", "\"x\"", "$.import.sourceUpAxis: unknown axis \"x\" (expected y or z)");
}

void TestProjectRead::brokenDocument_reportsOneLineWithPath()
{
    QFETCH(QString, path);
    QFETCH(QString, value);
    QFETCH(QString, message);
    const QByteArray json = editedDocument(validDocument(), path, value);
    Project out = sentinel();
    const LoadResult r = readProject(json, kFile, out);
    QCOMPARE(r.error, kFile + QStringLiteral(": ") + message);
    QVERIFY(isSentinel(out));
}

void TestProjectRead::brokenText_reportsPositionOfTheSyntaxError_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty file") << QByteArray()
                                << QStringLiteral("invalid JSON at line 1, column 1 (offset 0): illegal value");
    // The text is 39 bytes; line 3 starts at offset 36. Qt reports an unterminated string one past the end
    // (offset 40); the column is counted up to the end of the text.
    QTest::newRow("cut short") << QByteArray("{\n  \"format\": \"marionette-project\",\n  \"")
                               << QStringLiteral("invalid JSON at line 3, column 4 (offset 40): unterminated string");
    QTest::newRow("bare word") << QByteArray("{\n  \"version\": 1,\n  oops\n}")
                               << QStringLiteral("invalid JSON at line 3, column 4 (offset 21): unterminated object");
    QTest::newRow("trailing text")
        << QByteArray("{\"version\": 1} x")
        << QStringLiteral("invalid JSON at line 1, column 16 (offset 15): garbage at the end of the document");
    QTest::newRow("NaN") << QByteArray("{\"version\": NaN}")
                         << QStringLiteral("invalid JSON at line 1, column 13 (offset 12): illegal number");
    QTest::newRow("number beyond double")
        << QByteArray("{\"version\": 1e400}")
        << QStringLiteral("invalid JSON at line 1, column 18 (offset 17): illegal number");
    QTest::newRow("deep nesting")
        << QByteArray(100000, '[')
        << QStringLiteral("invalid JSON at line 1, column 1026 (offset 1025): too deeply nested document");
    QTest::newRow("array at the top") << QByteArray("[1, 2]")
                                      << QStringLiteral("$: expected an object, found an array");
}

void TestProjectRead::brokenText_reportsPositionOfTheSyntaxError()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    Project out = sentinel();
    const LoadResult r = readProject(text, kFile, out);
    QCOMPARE(r.error, kFile + QStringLiteral(": ") + message);
    QVERIFY(isSentinel(out));
}

void TestProjectRead::invalidRig_loadsOnlyWhenAccepted()
{
    const QByteArray json =
        editedDocument(validDocument(), QStringLiteral("rig.sticks[1].tearRatio"), QStringLiteral("0.5"));
    Project lenient;
    loadsOnlyWhenInvalidRigAccepted(json, QStringLiteral("$.rig.sticks[1] 'neck': tearRatio must be 0 (never) or above 1"),
                                    lenient);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(lenient.rig.sticks[1].tearRatio, 0.5f);
    Project expected = fullProject();
    expected.rig.sticks[1].tearRatio = 0.5f;
    QCOMPARE(firstDifference(expected, lenient), QString());
}

// The key is optional: a version 2 file written before angle constraints had damping loads them undamped.
void TestProjectRead::angleDamping_absentFromAVersion2File_loadsAsZero()
{
    QByteArray json = validDocument();
    json = editedDocument(json, QStringLiteral("rig.angles[0].damping"), QStringLiteral("<remove>"));
    json = editedDocument(json, QStringLiteral("rig.angles[1].damping"), QStringLiteral("<remove>"));
    const QJsonArray angles =
        QJsonDocument::fromJson(json).object()[QStringLiteral("rig")].toObject()[QStringLiteral("angles")].toArray();
    QCOMPARE(angles.size(), 2);
    for (const QJsonValue& a : angles)
        QVERIFY(!a.toObject().contains(QStringLiteral("damping")));
    Project p = sentinel();
    const LoadResult r = readProject(json, kFile, p);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.fileVersion, kProjectVersion);
    QCOMPARE(r.rigProblem, QString());
    QCOMPARE(p.rig.angles.size(), std::size_t(2));
    QCOMPARE(bitsOf(p.rig.angles[0].damping), 0u);
    QCOMPARE(bitsOf(p.rig.angles[1].damping), 0u);
    Project expected = fullProject();
    expected.rig.angles[0].damping = 0.f;
    expected.rig.angles[1].damping = 0.f;
    QCOMPARE(firstDifference(expected, p), QString()); // nothing else changed
    // Saved again, the key is written out.
    QString error;
    const QByteArray again = writeProject(p, error);
    QCOMPARE(error, QString());
    QCOMPARE(again.count("\"damping\": 0,\n"), qsizetype(2));
}

// data/v2/before-angle-damping.mproj is data/v2/robot.mproj as saved before angle constraints had damping:
// a version 2 file without the key, which must keep loading (undamped) and gains the key when saved again.
void TestProjectRead::angleDamping_committedFileFromBeforeTheKey_loadsAsZero()
{
    const QString path = QStringLiteral(MARIONETTE_PROJECT_TEST_DATA "/v2/before-angle-damping.mproj");
    QFile file(path);
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
    const QByteArray bytes = file.readAll();
    QVERIFY(bytes.contains("\"angles\": [") && bytes.contains("\"version\": 2\n"));
    const QJsonArray angles =
        QJsonDocument::fromJson(bytes).object()[QStringLiteral("rig")].toObject()[QStringLiteral("angles")].toArray();
    QCOMPARE(angles.size(), 2);
    for (const QJsonValue& a : angles)
        QVERIFY(!a.toObject().contains(QStringLiteral("damping")));
    Project p = sentinel();
    const LoadResult r = loadProject(path, p);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.fileVersion, 2);
    QCOMPARE(r.rigProblem, QString());
    Project expected = fullProject();
    for (rig::AngleConstraint& a : expected.rig.angles)
        a.damping = 0.f;
    QCOMPARE(firstDifference(expected, p), QString());
}

void TestProjectRead::angleDamping_outOfRange_loadsOnlyWhenAccepted_data()
{
    QTest::addColumn<int>("angle");
    QTest::addColumn<QString>("value");
    QTest::addColumn<float>("loaded");
    QTest::addColumn<QString>("problem");
    QTest::newRow("-1") << 0 << QStringLiteral("-1") << -1.f
                        << QStringLiteral("$.rig.angles[0] 'elbow': damping -1 outside [0, 1000]");
    QTest::newRow("2000") << 1 << QStringLiteral("2000") << 2000.f
                          << QStringLiteral("$.rig.angles[1] 'hip angle': damping 2000 outside [0, 1000]");
}

// Like every range of RigDescription::validate(): refused by a strict load, loaded (and kept) with
// acceptInvalidRig, so the editor can open the file and the artist fix it.
void TestProjectRead::angleDamping_outOfRange_loadsOnlyWhenAccepted()
{
    QFETCH(int, angle);
    QFETCH(QString, value);
    QFETCH(float, loaded);
    QFETCH(QString, problem);
    const QByteArray json =
        editedDocument(validDocument(), QStringLiteral("rig.angles[%1].damping").arg(angle), value);
    Project lenient;
    loadsOnlyWhenInvalidRigAccepted(json, problem, lenient);
    if (QTest::currentTestFailed())
        return;
    Project expected = fullProject();
    expected.rig.angles[std::size_t(angle)].damping = loaded;
    QCOMPARE(firstDifference(expected, lenient), QString());
}

void TestProjectRead::hugeSection_isRefusedBeforeAllocatingTheRig_data()
{
    QTest::addColumn<int>("version");
    QTest::newRow("current version") << kProjectVersion;
    QTest::newRow("version 1, before its pins are migrated") << 1;
}

// 1,000,001 empty pins are 3 MB of JSON but would be 64 MB of rig; the count is refused before any of it
// (and, in a version 1 document, before the migration rewrites a million pins).
void TestProjectRead::hugeSection_isRefusedBeforeAllocatingTheRig()
{
    QFETCH(int, version);
    QByteArray json =
        R"({"format": "marionette-project", "version": )" + QByteArray::number(version) + R"(, "rig": {"pins": [)";
    json.reserve(json.size() + 3 * qsizetype(kMaxElementsPerKind) + 16);
    for (std::size_t i = 0; i <= kMaxElementsPerKind; ++i)
        json += i == 0 ? "{}" : ",{}";
    json += "]}}";
    Project out = sentinel();
    const LoadResult r = readProject(json, kFile, out);
    QCOMPARE(r.error,
             QStringLiteral("robot.mproj: $.rig.pins: 1000001 pins; a project holds at most 1000000 of each kind"));
    QVERIFY(isSentinel(out));
}

// Element names and file names are the artist's; a newline in one must not split a message.
void TestProjectRead::namesWithNewlines_stayOnOneLine()
{
    Project p = fullProject();
    p.rig.sticks[0].name = "sp\nine";
    p.rig.sticks[0].stiffness = 0.f;
    QString error;
    const QByteArray json = writeProject(p, error);
    QCOMPARE(error, QString());
    Project out = sentinel();
    QCOMPARE(readProject(json, QStringLiteral("two\nlines.mproj"), out).error,
             QStringLiteral("two lines.mproj: $.rig.sticks[0] 'sp ine': stiffness 0 outside (0, 1]"));
    LoadOptions lenient;
    lenient.acceptInvalidRig = true;
    QCOMPARE(readProject(json, kFile, out, lenient).rigProblem,
             QStringLiteral("$.rig.sticks[0] 'sp ine': stiffness 0 outside (0, 1]"));
    p.rig.sticks[0].id = 0;
    QVERIFY(writeProject(p, error).isEmpty());
    QCOMPARE(error,
             QStringLiteral("$.rig.sticks[0].id: the stick 'sp ine' has no id (0); assignMissingIds() gives it one"));
}

// Every proper prefix of a valid document is refused with a syntax error (only dropping the final newline
// leaves valid JSON), and the output is never touched.
void TestProjectRead::truncation_atEveryOffset_failsCleanly()
{
    const QByteArray json = validDocument();
    QVERIFY(json.size() > 10000);
    QVERIFY(json.endsWith("}\n"));
    int refused = 0;
    for (qsizetype n = 0; n < json.size(); ++n) {
        Project out = sentinel();
        const LoadResult r = readProject(json.left(n), kFile, out);
        if (n == json.size() - 1) {
            QVERIFY2(r.ok(), qPrintable(r.error));
            QCOMPARE(firstDifference(fullProject(), out), QString());
            continue;
        }
        if (!r.error.startsWith(QStringLiteral("robot.mproj: invalid JSON at line ")) || r.error.contains(u'\n') ||
            !isSentinel(out))
            QFAIL(qPrintable(QStringLiteral("prefix of %1 bytes: %2").arg(n).arg(r.error)));
        ++refused;
    }
    QCOMPARE(refused, int(json.size()) - 1);
}

// Replaces one byte at a time (every 23rd position, eight replacements each). A load either fails with one
// line and an untouched output, or succeeds; what succeeds can be written and reads back identical.
void TestProjectRead::corruption_ofSingleBytes_neverHalfLoads()
{
    const QByteArray json = validDocument();
    const char replacements[] = {'0', '9', '-', '"', '}', ']', 'x', ' '};
    int loaded = 0, refused = 0;
    for (qsizetype i = 0; i < json.size(); i += 23)
        for (const char c : replacements) {
            if (json[i] == c)
                continue;
            QByteArray bad = json;
            bad[i] = c;
            Project out = sentinel();
            LoadOptions options;
            options.acceptInvalidRig = (i / 23) % 2 == 1;
            const LoadResult r = readProject(bad, kFile, out, options);
            if (!r.ok()) {
                if (!r.error.startsWith(QStringLiteral("robot.mproj: ")) || r.error.contains(u'\n') || !isSentinel(out))
                    QFAIL(qPrintable(QStringLiteral("byte %1 -> '%2': %3").arg(i).arg(c).arg(r.error)));
                ++refused;
                continue;
            }
            ++loaded;
            QString error;
            const QByteArray again = writeProject(out, error);
            if (!error.isEmpty())
                QFAIL(qPrintable(
                    QStringLiteral("byte %1 -> '%2' loaded but cannot be saved: %3").arg(i).arg(c).arg(error)));
            Project back;
            const LoadResult second = readProject(again, kFile, back, options);
            if (!second.ok() || !firstDifference(out, back).isEmpty())
                QFAIL(qPrintable(QStringLiteral("byte %1 -> '%2': saved copy differs: %3 %4")
                                     .arg(i)
                                     .arg(c)
                                     .arg(second.error, firstDifference(out, back))));
        }
    // Digits inside numbers, spaces in indentation and similar edits still load; most edits do not.
    QVERIFY(loaded > 100);
    QVERIFY(refused > 1000);
}

QTEST_GUILESS_MAIN(TestProjectRead)
#include "tst_projectread.moc"
