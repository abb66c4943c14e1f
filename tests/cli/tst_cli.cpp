// The `marionette` executable run as a user runs it (QProcess): usage and exit codes, `validate` on good and
// bad rigs and projects, `info` in text and JSON checked against the rig that was written, `export`,
// `import` and `build`. The simulation commands (simulate, bench, render) are in tst_clisimulate.cpp.
#include "marionette/editor/document/Validation.h"
#include "marionette/project/Migration.h"
#include "marionette/project/ProjectFile.h"
#include "marionette/rig/Mrig.h"
#include "marionette/rig/MrigFormat.h"
#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/Rig.h"

#include "ProcessRunner.h"
#include "TestFiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace marionette;

namespace {

using Run = test::ProcessRun;
using test::readBytes;
using test::writeBytes;

Run cli(const QStringList& arguments) { return test::runProcess(QStringLiteral(MARIONETTE_CLI), arguments, 30000); }

} // namespace

class TestCli : public QObject {
    Q_OBJECT

    QTemporaryDir mDir;
    rig::RigDescription mHumanoid;
    QString mRig, mProject;

    QString path(const char* name) const { return mDir.filePath(QString::fromLatin1(name)); }

private slots:
    void initTestCase();
    void usage_exitCodes_data();
    void usage_exitCodes();
    void help_perCommand();
    void version_namesFormats();
    void validate_acceptsGoodFiles_data();
    void validate_acceptsGoodFiles();
    void validate_rejectsBadFiles_data();
    void validate_rejectsBadFiles();
    void validate_json();
    void validate_craftedCorpus();
    void validate_sameVerdictAsTheEditor_data();
    void validate_sameVerdictAsTheEditor();
    void info_text();
    void info_json_matchesRig();
    void info_solverSettings();
    void info_project();
    void info_driveProfiles();
    void validate_reportsDriveProfileFindings();
    void export_writesTheProjectsRig();
    void build_meshToRig_data();
    void build_meshToRig();
    void import_meshToProject();
    void import_massFromMesh_spreadsTheTotalByVolume();
    void build_badInput_data();
    void build_badInput();
};

void TestCli::initTestCase()
{
    QVERIFY(mDir.isValid());
    mHumanoid = runtime::makeHumanoid();
    project::assignMissingIds(mHumanoid);
    mRig = path("hero.mrig");
    std::string error;
    QVERIFY2(rig::saveMrig(mRig.toStdString(), mHumanoid, &error), error.c_str());
    project::Project proj;
    proj.name = QStringLiteral("hero");
    proj.rig = mHumanoid;
    mProject = path("hero.mproj");
    const project::SaveResult saved = project::saveProject(mProject, proj);
    QVERIFY2(saved.ok(), qPrintable(saved.error));
}

void TestCli::usage_exitCodes_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("stderrStart");
    QTest::newRow("no arguments") << QStringList{} << 2 << QStringLiteral("Usage: marionette COMMAND");
    QTest::newRow("unknown command") << QStringList{QStringLiteral("frobnicate")} << 2
                                     << QStringLiteral("error: unknown command 'frobnicate'");
    QTest::newRow("unknown global option") << QStringList{QStringLiteral("--frobnicate")} << 2
                                           << QStringLiteral("error: unknown option '--frobnicate'");
    QTest::newRow("unknown command option") << QStringList{QStringLiteral("validate"), QStringLiteral("--frob"), QStringLiteral("x")}
                                            << 2 << QStringLiteral("error: Unknown option 'frob'");
    QTest::newRow("validate without file") << QStringList{QStringLiteral("validate")} << 2
                                           << QStringLiteral("error: missing FILE argument");
    QTest::newRow("info with two files") << QStringList{QStringLiteral("info"), QStringLiteral("a"), QStringLiteral("b")} << 2
                                         << QStringLiteral("error: unexpected argument 'b'");
}

void TestCli::usage_exitCodes()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, stderrStart);
    const Run r = cli(arguments);
    QVERIFY2(r.exitCode == exitCode, qPrintable(r.describe()));
    QVERIFY2(r.err.startsWith(stderrStart), qPrintable(r.describe()));
    QVERIFY2(r.out.isEmpty(), qPrintable(r.describe()));
}

void TestCli::help_perCommand()
{
    Run r = cli({QStringLiteral("--help")});
    QVERIFY2(r.exitCode == 0 && r.out.startsWith(QLatin1String("Usage: marionette COMMAND")), qPrintable(r.describe()));
    QVERIFY2(r.out.contains(QLatin1String("\n  validate ")) && r.out.contains(QLatin1String("\n  info ")), qPrintable(r.out));
    r = cli({QStringLiteral("validate"), QStringLiteral("--help")});
    QVERIFY2(r.exitCode == 0 && r.out.startsWith(QLatin1String("Usage: marionette validate [--json] FILE")), qPrintable(r.describe()));
    r = cli({QStringLiteral("help"), QStringLiteral("info")});
    QVERIFY2(r.exitCode == 0 && r.out.startsWith(QLatin1String("Usage: marionette info [--json] RIG")), qPrintable(r.describe()));
}

void TestCli::version_namesFormats()
{
    const Run r = cli({QStringLiteral("--version")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QCOMPARE(r.out, QStringLiteral("marionette 0.1.0 (reads .mrig format up to %1.%2, .mproj version up to %3)\n")
                        .arg(rig::mrig::kVersionMajor).arg(rig::mrig::kVersionMinor).arg(project::kProjectVersion));
}

void TestCli::validate_acceptsGoodFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("format");
    const QString format = QStringLiteral(".mrig format %1.%2").arg(rig::mrig::kVersionMajor).arg(rig::mrig::kVersionMinor);
    QTest::newRow("binary rig") << QStringLiteral("hero.mrig") << format;
    QTest::newRow("project") << QStringLiteral("hero.mproj") << QStringLiteral(".mproj version %1").arg(project::kProjectVersion);
    QTest::newRow("binary rig without extension") << QStringLiteral("hero-rig") << format;
}

void TestCli::validate_acceptsGoodFiles()
{
    QFETCH(QString, file);
    QFETCH(QString, format);
    const QString p = mDir.filePath(file);
    if (!QFile::exists(p))
        QVERIFY(QFile::copy(mRig, p));
    const Run r = cli({QStringLiteral("validate"), p});
    QVERIFY2(r.exitCode == 0 && r.err.isEmpty(), qPrintable(r.describe()));
    QCOMPARE(r.out, QStringLiteral("%1: valid (%2): %3 particles, %4 sticks, %5 triangles, %6 angular constraints, %7 bones\n")
                        .arg(p, format)
                        .arg(mHumanoid.particles.size())
                        .arg(mHumanoid.sticks.size())
                        .arg(mHumanoid.triangles.size())
                        .arg(mHumanoid.angular.size())
                        .arg(mHumanoid.bones.size()));
}

void TestCli::validate_rejectsBadFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("bytes"); // written to `file` first unless empty
    QTest::addColumn<QString>("messageAfterPath");

    const QByteArray rigBytes = readBytes(mRig);
    QVERIFY(rigBytes.size() > 200);
    QByteArray flipped = rigBytes;
    flipped[flipped.size() - 9] = char(flipped[flipped.size() - 9] ^ 0x10);
    QTest::newRow("truncated rig") << QStringLiteral("truncated.mrig") << rigBytes.left(300)
                                   << QStringLiteral("header.fileSize: the header says %1 bytes but the file has 300").arg(rigBytes.size());
    QTest::newRow("bit flipped in a chunk") << QStringLiteral("flipped.mrig") << flipped << QStringLiteral("checksum");
    QTest::newRow("missing") << QStringLiteral("missing.mrig") << QByteArray() << QStringLiteral("no such file");
    QTest::newRow("text") << QStringLiteral("notes.txt") << QByteArray("just some words\n")
                          << QStringLiteral("neither a .mrig rig (no MRIG signature) nor a .mproj project (not a JSON document)");
    QTest::newRow("empty rig") << QStringLiteral("empty.mrig") << QByteArray("\0", 1).left(0) << QStringLiteral("");

    QByteArray project = readBytes(mProject);
    QVERIFY(!project.isEmpty());
    QTest::newRow("truncated project") << QStringLiteral("truncated.mproj") << project.left(project.size() / 2)
                                       << QStringLiteral("");
    // A stick pointing at a particle id nobody has.
    QJsonObject doc = QJsonDocument::fromJson(project).object();
    QJsonObject rigObject = doc.value(QStringLiteral("rig")).toObject();
    QJsonArray sticks = rigObject.value(QStringLiteral("sticks")).toArray();
    QJsonObject stick = sticks.at(3).toObject();
    stick.insert(QStringLiteral("b"), 9999);
    sticks.replace(3, stick);
    rigObject.insert(QStringLiteral("sticks"), sticks);
    doc.insert(QStringLiteral("rig"), rigObject);
    QTest::newRow("dangling id in a project") << QStringLiteral("dangling.mproj") << QJsonDocument(doc).toJson()
                                              << QStringLiteral("$.rig.sticks[3].b: no particle with id 9999");
}

void TestCli::validate_rejectsBadFiles()
{
    QFETCH(QString, file);
    QFETCH(QByteArray, bytes);
    QFETCH(QString, messageAfterPath);
    const QString p = mDir.filePath(file);
    if (!bytes.isEmpty() || file.startsWith(QLatin1String("empty")))
        QVERIFY(writeBytes(p, bytes));
    const Run r = cli({QStringLiteral("validate"), p});
    QVERIFY2(r.exitCode == 1, qPrintable(r.describe()));
    QVERIFY2(r.out.isEmpty(), qPrintable(r.describe()));
    // One line: "error: PATH: where: what".
    QVERIFY2(r.err.startsWith(QStringLiteral("error: %1: ").arg(p)), qPrintable(r.describe()));
    QVERIFY2(r.err.endsWith(QLatin1Char('\n')) && r.err.count(QLatin1Char('\n')) == 1, qPrintable(r.describe()));
    QVERIFY2(r.err.contains(messageAfterPath), qPrintable(r.describe()));
}

void TestCli::validate_json()
{
    Run r = cli({QStringLiteral("validate"), QStringLiteral("--json"), mRig});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(o.value(QStringLiteral("valid")).toBool(false), true);
    QCOMPARE(o.value(QStringLiteral("kind")).toString(), QStringLiteral("mrig"));
    QCOMPARE(o.value(QStringLiteral("file")).toString(), mRig);

    const QString bad = path("bad.mrig");
    QVERIFY(writeBytes(bad, QByteArray("MRIG")));
    r = cli({QStringLiteral("validate"), QStringLiteral("--json"), bad});
    QVERIFY2(r.exitCode == 1, qPrintable(r.describe()));
    o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(o.value(QStringLiteral("valid")).toBool(true), false);
    QVERIFY2(o.value(QStringLiteral("error")).toString().startsWith(bad + QStringLiteral(": ")), qPrintable(r.out));
    QVERIFY2(r.err.startsWith(QStringLiteral("error: ") + bad), qPrintable(r.describe()));
}

// Every crafted file of the .mrig corpus (tests/formats/rig/corpus): the good ones are valid, each bad one
// exits 1 with its expected message after the path, on one line, and nothing on stdout.
void TestCli::validate_craftedCorpus()
{
    const QString folder = QStringLiteral(MARIONETTE_MRIG_CORPUS);
    QFile list(folder + QStringLiteral("/expected.txt"));
    QVERIFY2(list.open(QIODevice::ReadOnly | QIODevice::Text), qPrintable(list.fileName()));
    int good = 0, bad = 0;
    while (!list.atEnd()) {
        const QString line = QString::fromUtf8(list.readLine()).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const qsizetype tab = line.indexOf(QLatin1Char('\t'));
        QVERIFY2(tab > 0, qPrintable(line));
        const QString file = folder + QLatin1Char('/') + line.left(tab);
        const QString expected = line.mid(tab + 1);
        const Run r = cli({QStringLiteral("validate"), file});
        if (expected == QLatin1String("OK")) {
            QVERIFY2(r.exitCode == 0 && r.err.isEmpty(), qPrintable(r.describe()));
            ++good;
        } else {
            QVERIFY2(r.exitCode == 1 && r.out.isEmpty(), qPrintable(r.describe()));
            QVERIFY2(r.err.startsWith(QStringLiteral("error: %1: ").arg(file)) && r.err.count(QLatin1Char('\n')) == 1,
                     qPrintable(r.describe()));
            QVERIFY2(r.err.contains(expected), qPrintable(QStringLiteral("expected '%1'\n%2").arg(expected, r.describe())));
            ++bad;
        }
    }
    QVERIFY2(good >= 4 && bad >= 50, qPrintable(QStringLiteral("%1 good and %2 bad files replayed").arg(good).arg(bad)));
}

void TestCli::validate_sameVerdictAsTheEditor_data()
{
    QTest::addColumn<int>("fault");
    QTest::newRow("a validation finding: a stick's ends are one particle") << 0;
    QTest::newRow("an editor check: a stick of zero length at bind") << 1;
}

// The same invalid project through the editor's validation (editor::validateRig, as the Validation list and
// File ▸ Export judge it) and through `marionette validate` and `export` (run as a user runs them): the
// same verdict, the CLI's error line is the editor's first error, --json lists every error.
void TestCli::validate_sameVerdictAsTheEditor()
{
    QFETCH(int, fault);
    project::Project proj;
    proj.name = QStringLiteral("faulty");
    proj.rig = mHumanoid;
    if (fault == 0) {
        proj.rig.sticks[3].b = proj.rig.sticks[3].a;
    } else {
        rig::Particle twin = proj.rig.particles[0];
        twin.name = "twin";
        twin.id = 0;
        proj.rig.particles.push_back(twin);
        rig::Stick link = proj.rig.sticks[0];
        link.name = "to_twin";
        link.id = 0;
        link.b = std::int32_t(proj.rig.particles.size() - 1);
        proj.rig.sticks.push_back(link);
        project::assignMissingIds(proj.rig);
    }
    const QString file = path(fault == 0 ? "same-particle.mproj" : "zero-length.mproj");
    const project::SaveResult saved = project::saveProject(file, proj);
    QVERIFY2(saved.ok(), qPrintable(saved.error));

    project::Project opened; // as the editor opens it
    project::LoadOptions lenient;
    lenient.acceptInvalidRig = true;
    QVERIFY(project::loadProject(file, opened, lenient).ok());
    const std::vector<editor::ValidationIssue> issues = editor::validateRig(opened.rig);
    QVERIFY(editor::hasErrors(issues));
    QVERIFY2(issues.front().message.contains(fault == 0 ? QStringLiteral("both ends are the same particle")
                                                        : QStringLiteral("zero length")),
             qPrintable(issues.front().message));
    const QString line = QStringLiteral("error: %1: %2\n").arg(file, issues.front().message);

    Run r = cli({QStringLiteral("validate"), file});
    QVERIFY2(r.exitCode == 1 && r.out.isEmpty(), qPrintable(r.describe()));
    QCOMPARE(r.err, line);

    r = cli({QStringLiteral("validate"), QStringLiteral("--json"), file});
    QVERIFY2(r.exitCode == 1, qPrintable(r.describe()));
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(o.value(QStringLiteral("valid")).toBool(true), false);
    QStringList errors;
    for (const editor::ValidationIssue& issue : issues)
        if (issue.severity == editor::Severity::Error)
            errors << issue.message;
    QCOMPARE(o.value(QStringLiteral("errors")).toVariant().toStringList(), errors);

    const QString out = path("faulty.mrig");
    r = cli({QStringLiteral("export"), file, QStringLiteral("-o"), out});
    QVERIFY2(r.exitCode == 1 && r.out.isEmpty(), qPrintable(r.describe()));
    QCOMPARE(r.err, line);
    QVERIFY(!QFileInfo::exists(out));
}

void TestCli::info_text()
{
    const Run r = cli({QStringLiteral("info"), mRig});
    QVERIFY2(r.exitCode == 0 && r.err.isEmpty(), qPrintable(r.describe()));
    const QStringList lines = r.out.split(QLatin1Char('\n'));
    QCOMPARE(lines.value(0), mRig);
    QVERIFY2(lines.value(1).startsWith(QStringLiteral("  format      .mrig format %1.%2, %3 bytes, ")
                                           .arg(rig::mrig::kVersionMajor).arg(rig::mrig::kVersionMinor).arg(QFileInfo(mRig).size())),
             qPrintable(r.out));
    QVERIFY2(r.out.contains(QStringLiteral("\n  particles   %1 (total mass 75 kg, 0 kinematic)\n").arg(mHumanoid.particles.size())),
             qPrintable(r.out));
    QVERIFY2(r.out.contains(QStringLiteral("\n  triangles   %1\n").arg(mHumanoid.triangles.size())), qPrintable(r.out));
    QVERIFY2(r.out.contains(QLatin1String("driven by triangle 'pelvis'")), qPrintable(r.out));
    // makeHumanoid()'s settings are the defaults: the direct solver, 8 substeps of 3 iterations, rates per second.
    QVERIFY2(r.out.contains(QLatin1String("\n  settings    solver direct, 8 substeps of 3 iterations per step of 0.0166667 s "
                                          "(at most 4 steps per advance)\n")),
             qPrintable(r.out));
    QVERIFY2(r.out.contains(QStringLiteral("m/s², damping 0.6 1/s, over-relaxation 1\n")), qPrintable(r.out));
    QVERIFY2(r.out.contains(QLatin1String("friction 0.6, static friction speed 0.12 m/s, sleep below 0.05 m/s for 1 s\n")),
             qPrintable(r.out));
    QVERIFY2(r.out.contains(QStringLiteral("\n  angular     %1 (").arg(mHumanoid.angular.size())) &&
                 r.out.contains(QStringLiteral("; %1 with friction)\n").arg(mHumanoid.angular.size())),
             qPrintable(r.out));
    // What the direct solve works on: the rig as the runtime compiles it.
    const std::shared_ptr<const runtime::Rig> compiled = runtime::Rig::build(mHumanoid);
    QVERIFY(compiled && compiled->directSolveShape());
    const runtime::Rig::DirectSolveShape shape = *compiled->directSolveShape();
    QVERIFY2(r.out.contains(QStringLiteral("\n  direct      %1 rigid sticks in one system (factor of %2 nonzeros, %3 pivots "
                                           "deep); %4 rows join it near their limits\n")
                                .arg(shape.rigidSticks)
                                .arg(shape.factorNonzeros)
                                .arg(shape.depth)
                                .arg(shape.limitRows)),
             qPrintable(r.out));
    const Run j = cli({QStringLiteral("info"), QStringLiteral("--json"), mRig});
    const QJsonObject direct = QJsonDocument::fromJson(j.out.toUtf8()).object().value(QStringLiteral("directSolve")).toObject();
    QCOMPARE(direct.value(QStringLiteral("rigidSticks")).toInteger(), qint64(shape.rigidSticks));
    QCOMPARE(direct.value(QStringLiteral("factorNonzeros")).toInteger(), qint64(shape.factorNonzeros));
    QCOMPARE(direct.value(QStringLiteral("depth")).toInteger(), qint64(shape.depth));
    QCOMPARE(direct.value(QStringLiteral("limitRows")).toInteger(), qint64(shape.limitRows));
    QVERIFY(shape.rigidSticks > 0 && shape.depth > 0 && shape.depth <= shape.rigidSticks);
}

// A rig with its own solver settings prints them, and counts as "with friction" exactly the joints whose
// damping or static friction speed is non-zero.
void TestCli::info_solverSettings()
{
    rig::RigDescription d = mHumanoid;
    d.settings.solver = rig::SolverMode::Xpbd;
    d.settings.substeps = 1;
    d.settings.iterations = 12;
    d.settings.maxSubsteps = 6;
    d.settings.damping = 2.5f;
    d.settings.staticFrictionSpeed = 0.25f;
    for (rig::AngularConstraint& a : d.angular)
        a.damping = a.staticFrictionSpeed = 0.f;
    d.angular[1].damping = 4.f;             // damping alone
    d.angular[3].staticFrictionSpeed = 0.5f; // static friction alone
    const QString file = path("settings.mrig");
    std::string error;
    QVERIFY2(rig::saveMrig(file.toStdString(), d, &error), error.c_str());
    Run r = cli({QStringLiteral("info"), file});
    QVERIFY2(r.exitCode == 0 && r.err.isEmpty(), qPrintable(r.describe()));
    QVERIFY2(r.out.contains(QLatin1String("  settings    solver xpbd, 1 substep of 12 iterations per step of 0.0166667 s "
                                          "(at most 6 steps per advance)\n")),
             qPrintable(r.out));
    QVERIFY2(r.out.contains(QLatin1String("damping 2.5 1/s")) && r.out.contains(QLatin1String("static friction speed 0.25 m/s")),
             qPrintable(r.out));
    QVERIFY2(r.out.contains(QLatin1String("; 2 with friction)")), qPrintable(r.out));

    r = cli({QStringLiteral("info"), QStringLiteral("--json"), file});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    const QJsonObject settings = o.value(QStringLiteral("settings")).toObject();
    QCOMPARE(settings.value(QStringLiteral("solver")).toString(), QStringLiteral("xpbd"));
    QCOMPARE(settings.value(QStringLiteral("substeps")).toInteger(), qint64(1));
    QCOMPARE(settings.value(QStringLiteral("iterations")).toInteger(), qint64(12));
    QCOMPARE(settings.value(QStringLiteral("maxSubsteps")).toInteger(), qint64(6));
    QCOMPARE(float(settings.value(QStringLiteral("damping")).toDouble()), 2.5f);
    QCOMPARE(float(settings.value(QStringLiteral("staticFrictionSpeed")).toDouble()), 0.25f);
    QCOMPARE(o.value(QStringLiteral("angular")).toObject().value(QStringLiteral("withFriction")).toInteger(), qint64(2));
    // The XPBD solver has no direct solve to describe.
    QVERIFY2(o.value(QStringLiteral("directSolve")).isNull(), qPrintable(r.out));
    QVERIFY2(!cli({QStringLiteral("info"), file}).out.contains(QLatin1String("\n  direct ")), "an XPBD rig has a direct solve line");
}

void TestCli::info_json_matchesRig()
{
    const Run r = cli({QStringLiteral("info"), QStringLiteral("--json"), mRig});
    QVERIFY2(r.exitCode == 0 && r.err.isEmpty(), qPrintable(r.describe()));
    QJsonParseError pe;
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8(), &pe).object();
    QVERIFY2(pe.error == QJsonParseError::NoError, qPrintable(pe.errorString()));
    const rig::RigDescription& d = mHumanoid;
    auto total = [&](const char* key) { return o.value(QLatin1String(key)).toObject().value(QStringLiteral("total")).toInteger(-1); };
    QCOMPARE(o.value(QStringLiteral("format")).toObject().value(QStringLiteral("major")).toInt(), 1);
    QCOMPARE(o.value(QStringLiteral("name")).toString(), QString::fromStdString(d.name));
    QCOMPARE(total("particles"), qint64(d.particles.size()));
    QCOMPARE(total("sticks"), qint64(d.sticks.size()));
    QCOMPARE(total("angular"), qint64(d.angular.size()));
    QCOMPARE(o.value(QStringLiteral("triangles")).toInteger(), qint64(d.triangles.size()));
    qint64 minOnly = 0, capsules = 0;
    for (const rig::Stick& s : d.sticks) {
        minOnly += s.kind == rig::StickKind::MinOnly ? 1 : 0;
        capsules += s.capsuleRadius > 0.f ? 1 : 0;
    }
    const QJsonObject sticks = o.value(QStringLiteral("sticks")).toObject();
    QCOMPARE(sticks.value(QStringLiteral("minOnly")).toInteger(), minOnly);
    QCOMPARE(sticks.value(QStringLiteral("capsules")).toInteger(), capsules);
    const QJsonObject bones = o.value(QStringLiteral("bones")).toObject();
    QCOMPARE(bones.value(QStringLiteral("total")).toInteger(), qint64(d.bones.size()));
    QCOMPARE(bones.value(QStringLiteral("bound")).toInteger(), qint64(d.bindings.size()));
    const QJsonArray list = bones.value(QStringLiteral("list")).toArray();
    QCOMPARE(list.size(), qsizetype(d.bones.size()));
    for (qsizetype i = 0; i < list.size(); ++i)
        QCOMPARE(list[i].toObject().value(QStringLiteral("name")).toString(), QString::fromStdString(d.bones[std::size_t(i)].name));
    const QJsonObject settings = o.value(QStringLiteral("settings")).toObject();
    QCOMPARE(settings.value(QStringLiteral("substeps")).toInteger(), qint64(8));
    QCOMPARE(settings.value(QStringLiteral("iterations")).toInteger(), qint64(rig::Settings{}.iterations));
    QCOMPARE(settings.value(QStringLiteral("maxSubsteps")).toInteger(), qint64(d.settings.maxSubsteps));
    QCOMPARE(float(settings.value(QStringLiteral("timeStep")).toDouble()), d.settings.timeStep);
    QCOMPARE(float(settings.value(QStringLiteral("damping")).toDouble()), 0.6f);
    QCOMPARE(float(settings.value(QStringLiteral("friction")).toDouble()), d.settings.friction);
    QCOMPARE(float(settings.value(QStringLiteral("staticFrictionSpeed")).toDouble()), 0.12f);
    QCOMPARE(settings.value(QStringLiteral("solver")).toString(), QStringLiteral("direct"));
    for (const char* old : {"drag", "staticFriction"})
        QVERIFY2(!settings.contains(QLatin1String(old)), old);
    QCOMPARE(o.value(QStringLiteral("angular")).toObject().value(QStringLiteral("withFriction")).toInteger(),
             qint64(d.angular.size()));
}

void TestCli::info_project()
{
    const Run r = cli({QStringLiteral("info"), QStringLiteral("--json"), mProject});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    const QJsonObject format = o.value(QStringLiteral("format")).toObject();
    QCOMPARE(format.value(QStringLiteral("kind")).toString(), QStringLiteral("mproj"));
    QCOMPARE(format.value(QStringLiteral("version")).toInt(), project::kProjectVersion);
    QCOMPARE(o.value(QStringLiteral("particles")).toObject().value(QStringLiteral("total")).toInteger(),
             qint64(mHumanoid.particles.size()));
}

// `info` lists the drive profiles of a .mrig and of a project: name, parts overridden, default gains.
void TestCli::info_driveProfiles()
{
    QVERIFY2(cli({QStringLiteral("info"), mRig}).out.contains(QLatin1String("\n  drives      no profiles\n")), "no profiles");
    rig::RigDescription d = mHumanoid;
    rig::DriveProfile stagger;
    stagger.name = "stagger";
    stagger.id = 7;
    stagger.defaults = {4.f, 1.f, 200.f, 0.f, 1.f, 0.f, false};
    stagger.parts = {{rig::DrivePartKind::Triangle, 0, {12.f, 0.5f, 0.f, 0.f, 1.f, 0.f, false}},
                     {rig::DrivePartKind::Stick, 0, {0.f, 1.f, 0.f, 0.f, 1.f, 0.f, true}}};
    rig::DriveProfile pinned;
    pinned.name = "pinned";
    pinned.defaults = {0.f, 1.f, 0.f, 2.5f, 0.7f, 0.f, false};
    pinned.parts = {{rig::DrivePartKind::Stick, 3, {}}};
    rig::DriveProfile frozen;
    frozen.name = "frozen";
    frozen.defaults.kinematic = true;
    d.driveProfiles = {stagger, pinned, frozen};
    const QString file = path("drives.mrig");
    std::string error;
    QVERIFY2(rig::saveMrig(file.toStdString(), d, &error), error.c_str());
    project::Project proj;
    proj.rig = d;
    const QString projectFile = path("drives.mproj");
    QVERIFY2(project::saveProject(projectFile, proj).ok(), "save");

    for (const QString& f : {file, projectFile}) {
        Run r = cli({QStringLiteral("info"), f});
        QVERIFY2(r.exitCode == 0 && r.err.isEmpty(), qPrintable(r.describe()));
        QVERIFY2(r.out.contains(QStringLiteral(
                     "\n  drives      3 profiles\n"
                     "    stagger          2 parts overridden     defaults motor 4 Hz (ratio 1, at most 200 N·m), pin off\n"
                     "    pinned           1 part overridden      defaults motor off, pin 2.5 Hz (ratio 0.7)\n"
                     "    frozen           0 parts overridden     defaults kinematic\n")),
                 qPrintable(r.out));

        r = cli({QStringLiteral("info"), QStringLiteral("--json"), f});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        const QJsonArray profiles =
            QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("driveProfiles")).toArray();
        QCOMPARE(profiles.size(), 3);
        const QJsonObject first = profiles[0].toObject();
        QCOMPARE(first.value(QStringLiteral("name")).toString(), QStringLiteral("stagger"));
        QCOMPARE(first.value(QStringLiteral("id")).toInteger(), qint64(7));
        QCOMPARE(first.value(QStringLiteral("parts")).toInteger(), qint64(2));
        const QJsonObject defaults = first.value(QStringLiteral("defaults")).toObject();
        QCOMPARE(defaults.value(QStringLiteral("motorFrequency")).toDouble(), 4.0);
        QCOMPARE(defaults.value(QStringLiteral("maxTorque")).toDouble(), 200.0);
        QCOMPARE(defaults.value(QStringLiteral("kinematic")).toBool(), false);
        QCOMPARE(profiles[2].toObject().value(QStringLiteral("defaults")).toObject().value(QStringLiteral("kinematic")).toBool(),
                 true);
    }
}

// A profile RigDescription validation refuses makes `validate` fail with its finding, the editor's verdict,
// and `--json` lists it among the errors. (A .mrig cannot hold such a profile: the reader refuses the record,
// as validate_craftedCorpus checks with the corpus's DRVP files.)
void TestCli::validate_reportsDriveProfileFindings()
{
    project::Project proj;
    proj.rig = mHumanoid;
    rig::DriveProfile p;
    p.name = "stagger";
    p.defaults.motorFrequency = 6.f;
    proj.rig.driveProfiles = {p};
    QString error;
    QByteArray json = project::writeProject(proj, error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(json.count("\"motorFrequency\": 6,"), qsizetype(1));
    json.replace("\"motorFrequency\": 6,", "\"motorFrequency\": 70,");
    const QString file = path("bad-drive.mproj");
    QVERIFY(writeBytes(file, json));
    const QString finding = QStringLiteral("driveProfiles[0] 'stagger': defaults.motorFrequency 70 outside [0, 60]");
    Run r = cli({QStringLiteral("validate"), file});
    QVERIFY2(r.exitCode == 1 && r.err == QStringLiteral("error: %1: %2\n").arg(file, finding), qPrintable(r.describe()));
    r = cli({QStringLiteral("validate"), QStringLiteral("--json"), file});
    const QJsonArray errors = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("errors")).toArray();
    QVERIFY2(!errors.isEmpty() && errors[0].toString().contains(finding), qPrintable(r.describe()));
}

// `export` writes the project's rig as a .mrig that reads back as the same rig; a failed export leaves an
// existing file as it was.
void TestCli::export_writesTheProjectsRig()
{
    const QString out = path("exported.mrig");
    Run r = cli({QStringLiteral("export"), mProject, QStringLiteral("-o"), out});
    QVERIFY2(r.exitCode == 0 && r.err.isEmpty(), qPrintable(r.describe()));
    QVERIFY2(r.out.startsWith(QStringLiteral("wrote %1 (%2 bytes): 20 particles").arg(out).arg(QFileInfo(out).size())), qPrintable(r.out));
    rig::RigDescription back;
    std::string error;
    QVERIFY2(rig::loadMrig(out.toStdString(), back, &error), error.c_str());
    // The same rig as the one the library wrote directly (bytes may differ: JSON keeps no sign of zero):
    // same description, same motion.
    auto infoOf = [](const QString& file) {
        QJsonObject o = QJsonDocument::fromJson(cli({QStringLiteral("info"), QStringLiteral("--json"), file}).out.toUtf8()).object();
        o.remove(QStringLiteral("file"));
        return o;
    };
    QCOMPARE(infoOf(out), infoOf(mRig));
    const QStringList sim{QStringLiteral("simulate"), QStringLiteral("--json"), QStringLiteral("--frames"), QStringLiteral("90")};
    QCOMPARE(cli(sim + QStringList{out}).out, cli(sim + QStringList{mRig}).out);

    // A broken project: exit 1, the file from before untouched.
    const QByteArray before = readBytes(out);
    const QString broken = path("broken.mproj");
    QVERIFY(writeBytes(broken, readBytes(mProject).left(200)));
    r = cli({QStringLiteral("export"), broken, QStringLiteral("-o"), out});
    QVERIFY2(r.exitCode == 1 && r.err.startsWith(QStringLiteral("error: %1: ").arg(broken)), qPrintable(r.describe()));
    QCOMPARE(readBytes(out), before);
    // An unwritable target.
    const QString nowhere = path("no/such/folder/out.mrig");
    r = cli({QStringLiteral("export"), mProject, QStringLiteral("-o"), nowhere});
    QVERIFY2(r.exitCode == 1 && r.err.startsWith(QStringLiteral("error: %1: ").arg(nowhere)), qPrintable(r.describe()));
    // No output named.
    r = cli({QStringLiteral("export"), mProject});
    QVERIFY2(r.exitCode == 2 && r.err.startsWith(QLatin1String("error: missing -o RIG.mrig")), qPrintable(r.describe()));
}

// `build MESH -o RIG --json` on Assimp's test models: the contract's keys, the template the skeleton calls
// for, and a rig that validates and falls without blowing up.
void TestCli::build_meshToRig_data()
{
    QTest::addColumn<QString>("mesh");
    QTest::addColumn<QString>("templateUsed");
    QTest::addColumn<int>("bones");
    QTest::newRow("X human (humanoid)") << QStringLiteral("X/BCN_Epileptic.X") << QStringLiteral("humanoid") << 54;
    QTest::newRow("glTF simple_skin (generic)") << QStringLiteral("glTF2/simple_skin/simple_skin.gltf") << QStringLiteral("generic") << 2;
}

void TestCli::build_meshToRig()
{
    QFETCH(QString, mesh);
    QFETCH(QString, templateUsed);
    QFETCH(int, bones);
    const QString source = QStringLiteral("/usr/share/assimp/models/") + mesh;
    if (!QFile::exists(source))
        QSKIP("Assimp's test models are not installed (Debian package assimp-testmodels)");
    const QString out = path("built.mrig");
    Run r = cli({QStringLiteral("build"), source, QStringLiteral("-o"), out, QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QStringList keys = o.keys();
    keys.sort();
    QCOMPARE(keys, (QStringList{QStringLiteral("angular"), QStringLiteral("bones"), QStringLiteral("bound_bones"), QStringLiteral("humanoid"),
                                QStringLiteral("notes"), QStringLiteral("particles"), QStringLiteral("sticks"), QStringLiteral("template"),
                                QStringLiteral("triangles"), QStringLiteral("unbound_bones"), QStringLiteral("warnings")}));
    // The import's warnings (both models have some, e.g. a skin bound in another pose than the nodes): in the
    // JSON as "FILE: where: what", on stderr as "warning: FILE: where: what", nothing else on stderr.
    QString printed;
    for (const QJsonValue& w : o.value(QStringLiteral("warnings")).toArray()) {
        QVERIFY2(w.toString().startsWith(source + QStringLiteral(": ")), qPrintable(w.toString()));
        printed += QStringLiteral("warning: ") + w.toString() + QLatin1Char('\n');
    }
    QCOMPARE(r.err, printed);
    QCOMPARE(o.value(QStringLiteral("template")).toString(), templateUsed);
    QCOMPARE(o.value(QStringLiteral("bones")).toInteger(), bones);
    QVERIFY2(o.value(QStringLiteral("bound_bones")).toInteger() >= 1 && o.value(QStringLiteral("bound_bones")).toInteger() <= bones, qPrintable(r.out));
    if (templateUsed == QLatin1String("humanoid")) {
        QCOMPARE(o.value(QStringLiteral("triangles")).toInteger(), 11);
        QCOMPARE(o.value(QStringLiteral("angular")).toInteger(), 10);
    }
    // The report of what the auto-rig decided: the template and why first among the notes, every bone no
    // binding drives by name, and the humanoid parts the skeleton matched (all of them exactly when the
    // humanoid template was used; otherwise what is missing).
    const QJsonArray notes = o.value(QStringLiteral("notes")).toArray();
    QVERIFY2(!notes.isEmpty() && notes.first().toString().startsWith(templateUsed + QStringLiteral(" template: ")), qPrintable(r.out));
    QCOMPARE(o.value(QStringLiteral("unbound_bones")).toArray().size(), bones - o.value(QStringLiteral("bound_bones")).toInteger());
    const QJsonObject humanoid = o.value(QStringLiteral("humanoid")).toObject();
    const bool isHumanoid = templateUsed == QLatin1String("humanoid");
    QCOMPARE(humanoid.value(QStringLiteral("complete")).toBool(), isHumanoid);
    QCOMPARE(humanoid.value(QStringLiteral("problem")).toString().isEmpty(), isHumanoid);
    const QJsonObject parts = humanoid.value(QStringLiteral("parts")).toObject();
    QCOMPARE(parts.size(), 17);
    if (isHumanoid)
        for (const char* part : {"pelvis", "chest", "head", "hand_l", "hand_r", "foot_l", "foot_r"})
            QVERIFY2(parts.value(QLatin1String(part)).isString(), part);
    else
        QVERIFY2(notes.first().toString().contains(humanoid.value(QStringLiteral("problem")).toString()), qPrintable(r.out));
    // The written file is the rig build described, and it survives a drop.
    r = cli({QStringLiteral("info"), QStringLiteral("--json"), out});
    const QJsonObject info = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(info.value(QStringLiteral("particles")).toObject().value(QStringLiteral("total")).toInteger(), o.value(QStringLiteral("particles")).toInteger());
    QCOMPARE(info.value(QStringLiteral("bones")).toObject().value(QStringLiteral("bound")).toInteger(), o.value(QStringLiteral("bound_bones")).toInteger());
    r = cli({QStringLiteral("simulate"), QStringLiteral("--json"), QStringLiteral("--drop"), QStringLiteral("2"), out});
    const QJsonObject sim = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QVERIFY2(r.exitCode == 0 && sim.value(QStringLiteral("finite")).toBool(), qPrintable(r.describe()));
    QVERIFY2(sim.value(QStringLiteral("min_height")).toDouble(-1.0) > -0.01, qPrintable(r.out));
}

// `import` writes a project that names its mesh by relative path and hash, records the conversion, and
// exports to the same rig `build` writes.
void TestCli::import_meshToProject()
{
    const QString source = QStringLiteral("/usr/share/assimp/models/X/BCN_Epileptic.X");
    if (!QFile::exists(source))
        QSKIP("Assimp's test models are not installed (Debian package assimp-testmodels)");
    const QString projectFile = path("bcn.mproj");
    Run r = cli({QStringLiteral("import"), source, QStringLiteral("-o"), projectFile});
    QVERIFY2(r.exitCode == 0 && r.out.startsWith(QStringLiteral("wrote %1 from %2: humanoid template: 20 particles").arg(projectFile, source)),
             qPrintable(r.describe()));
    project::Project proj;
    const project::LoadResult loaded = project::loadProject(projectFile, proj);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error));
    QCOMPARE(proj.sourceMesh.resolve(projectFile), QFileInfo(source).canonicalFilePath());
    QCOMPARE(proj.sourceMesh.sha256, project::SourceMesh::hashFile(source));
    QVERIFY2(proj.import.conversionNote.contains(QLatin1String("source unit")), qPrintable(proj.import.conversionNote));
    const QString fromProject = path("bcn-export.mrig"), direct = path("bcn-build.mrig");
    QCOMPARE(cli({QStringLiteral("export"), projectFile, QStringLiteral("-o"), fromProject}).exitCode, 0);
    QCOMPARE(cli({QStringLiteral("build"), source, QStringLiteral("-o"), direct}).exitCode, 0);
    const QStringList sim{QStringLiteral("simulate"), QStringLiteral("--json"), QStringLiteral("--frames"), QStringLiteral("60")};
    QCOMPARE(cli(sim + QStringList{fromProject}).out, cli(sim + QStringList{direct}).out);
}

// --mass-from-mesh: the template's rig with masses from the skinned volume (editor::massesFromMesh): the total
// kept, a note with the volume found, left and right alike, no particle under a tenth of the heaviest.
void TestCli::import_massFromMesh_spreadsTheTotalByVolume()
{
    const QString source = QStringLiteral("/usr/share/assimp/models/X/BCN_Epileptic.X");
    if (!QFile::exists(source))
        QSKIP("Assimp's test models are not installed (Debian package assimp-testmodels)");
    const QString plainFile = path("bcn-plain.mproj"), meshFile = path("bcn-mesh.mproj");
    Run r = cli({QStringLiteral("import"), source, QStringLiteral("--mass"), QStringLiteral("70"), QStringLiteral("-o"), plainFile});
    QCOMPARE(r.exitCode, 0);
    r = cli({QStringLiteral("import"), source, QStringLiteral("--mass"), QStringLiteral("70"), QStringLiteral("--mass-from-mesh"),
             QStringLiteral("-o"), meshFile});
    QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("note: masses from the mesh's skinned volume (")), qPrintable(r.describe()));
    project::Project plain, mesh;
    QVERIFY(project::loadProject(plainFile, plain).ok() && project::loadProject(meshFile, mesh).ok());
    QCOMPARE(mesh.rig.particles.size(), plain.rig.particles.size());
    double total = 0.0;
    float lightest = 1e9f, heaviest = 0.f;
    bool differs = false;
    for (std::size_t i = 0; i < mesh.rig.particles.size(); ++i) {
        const float m = mesh.rig.particles[i].mass;
        total += double(m);
        lightest = std::min(lightest, m);
        heaviest = std::max(heaviest, m);
        differs = differs || std::abs(m - plain.rig.particles[i].mass) > 0.05f;
    }
    QVERIFY2(std::abs(total - 70.0) < 1e-4, qPrintable(QString::number(total)));
    QVERIFY(differs);
    QVERIFY(lightest >= heaviest / 10.f * 0.999f);
    auto massOf = [&](const char* name) {
        for (const rig::Particle& p : mesh.rig.particles)
            if (p.name == name)
                return p.mass;
        return -1.f;
    };
    for (const char* side : {"hip", "shoulder", "knee", "ankle", "elbow", "wrist"}) {
        const float l = massOf((QByteArray(side) + "_l").constData()), rr = massOf((QByteArray(side) + "_r").constData());
        QVERIFY2(l > 0.f && std::abs(l - rr) <= 0.02f * l, side);
    }
}

void TestCli::build_badInput_data()
{
    QTest::addColumn<QStringList>("arguments"); // after "build"; "@" is replaced by the output path
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    const QString models = QStringLiteral("/usr/share/assimp/models/");
    QTest::newRow("static mesh") << QStringList{models + QStringLiteral("OBJ/box.obj"), QStringLiteral("-o"), QStringLiteral("@")} << 1
                                 << QStringLiteral("the auto-rig needs a skeleton (the mesh has no bones)");
    QTest::newRow("malformed glTF") << QStringList{models + QStringLiteral("glTF2/MissingBin/BoxTextured.gltf"), QStringLiteral("-o"), QStringLiteral("@")} << 1
                                    << QStringLiteral("error: ") + models + QStringLiteral("glTF2/MissingBin/BoxTextured.gltf: ");
    QTest::newRow("humanoid refused") << QStringList{models + QStringLiteral("glTF2/simple_skin/simple_skin.gltf"), QStringLiteral("-o"), QStringLiteral("@"),
                                                     QStringLiteral("--template"), QStringLiteral("humanoid")} << 1
                                      << QStringLiteral("humanoid template: missing pelvis");
    QTest::newRow("missing mesh") << QStringList{QStringLiteral("/nonexistent/hero.fbx"), QStringLiteral("-o"), QStringLiteral("@")} << 1
                                  << QStringLiteral("error: /nonexistent/hero.fbx: ");
    QTest::newRow("bad up axis") << QStringList{QStringLiteral("x.fbx"), QStringLiteral("-o"), QStringLiteral("@"), QStringLiteral("--up"), QStringLiteral("w")} << 2
                                 << QStringLiteral("error: --up must be y or z, not 'w'");
    QTest::newRow("bad template") << QStringList{QStringLiteral("x.fbx"), QStringLiteral("-o"), QStringLiteral("@"), QStringLiteral("--template"), QStringLiteral("cat")} << 2
                                  << QStringLiteral("error: --template must be auto, humanoid or generic, not 'cat'");
    QTest::newRow("bad scale") << QStringList{QStringLiteral("x.fbx"), QStringLiteral("-o"), QStringLiteral("@"), QStringLiteral("--scale"), QStringLiteral("-1")} << 2
                               << QStringLiteral("error: --scale must be a number in (0, 1e6], not '-1'");
    QTest::newRow("no output") << QStringList{QStringLiteral("x.fbx")} << 2 << QStringLiteral("error: missing -o RIG.mrig");
}

void TestCli::build_badInput()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    if (!QFile::exists(QStringLiteral("/usr/share/assimp/models/OBJ/box.obj")))
        QSKIP("Assimp's test models are not installed (Debian package assimp-testmodels)");
    const QString out = path("refused.mrig");
    QFile::remove(out);
    for (QString& a : arguments)
        if (a == QLatin1String("@"))
            a = out;
    const Run r = cli(QStringList{QStringLiteral("build")} + arguments);
    QVERIFY2(r.exitCode == exitCode && r.out.isEmpty() && r.err.contains(message), qPrintable(r.describe()));
    if (exitCode == 1)
        QVERIFY2(r.err.count(QLatin1Char('\n')) == 1, qPrintable(r.describe()));
    QVERIFY2(!QFile::exists(out), "a refused build wrote its output");
}

// `simulate --json` prints exactly the contract's keys; a drop onto each scene stays finite, above the floor,
// without penetration, and settles.
QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
