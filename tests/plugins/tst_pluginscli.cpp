// The `marionette` executable with plugins, run as a user runs it (QProcess): `plugins` lists built-ins,
// loaded plugins and refused libraries with their reasons; `export --format` writes through the JSON and
// header exporters; an unknown format is a usage error listing the available ones; `build` and `import`
// with `--template quadruped` rig a quadruped read by a plugin importer; without MARIONETTE_PLUGIN_PATH the
// executable finds bin/plugins next to itself.
#include "PluginTestSupport.h"

#include "marionette/project/ProjectFile.h"
#include "marionette/rig/Mrig.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace marionette;
using test::ProcessRun;
using test::runCli;

class TestPluginsCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void plugins_listsLoadedAndRefused();
    void plugins_humanReadable();
    void plugins_defaultFolderNextToTheExecutable();
    void export_throughPluginFormats_data();
    void export_throughPluginFormats();
    void export_unknownFormatIsAUsageError();
    void build_quadrupedTemplate();
    void import_quadrupedTemplateThenExport();
    void template_unknownListsPluginTemplates();

private:
    QString path(const char* name) const { return mDir.filePath(QLatin1String(name)); }

    QTemporaryDir mDir;
    QString mPluginPath; ///< bin/plugins and the test plugins
    QString mProject;    ///< a quadruped project made by `import`
};

void TestPluginsCli::initTestCase()
{
    QVERIFY(mDir.isValid());
    mPluginPath = test::pluginDir() + QLatin1Char(':') + test::testPluginDir();
    mProject = path("dog.mproj");
    const ProcessRun r = runCli({QStringLiteral("import"), test::testData("dog.mskel"), QStringLiteral("-o"), mProject,
                             QStringLiteral("--template"), QStringLiteral("quadruped"), QStringLiteral("--mass"), QStringLiteral("30")},
                            mPluginPath);
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
}

// --json: one object per built-in and per library, with name, kind, interface, version, file and status;
// the wrong-version plugin is refused with its message; the folders are listed.
void TestPluginsCli::plugins_listsLoadedAndRefused()
{
    const ProcessRun r = runCli({QStringLiteral("plugins"), QStringLiteral("--json")}, mPluginPath);
    QVERIFY2(r.exitCode == 0 && r.err.isEmpty(), qPrintable(r.describe()));
    const QJsonObject root = QJsonDocument::fromJson(r.out.toUtf8()).object();
    const QJsonArray folders = root.value(QStringLiteral("folders")).toArray();
    QCOMPARE(folders.size(), 2);
    QCOMPARE(folders[0].toObject().value(QStringLiteral("path")).toString(), test::pluginDir());
    QMap<QString, QJsonObject> byFile, loaded;
    for (const QJsonValue& v : root.value(QStringLiteral("plugins")).toArray()) {
        const QJsonObject o = v.toObject();
        QStringList keys = o.keys();
        keys.sort();
        QCOMPARE(keys, (QStringList{QStringLiteral("builtIn"), QStringLiteral("displayName"), QStringLiteral("file"), QStringLiteral("interface"),
                                    QStringLiteral("kind"), QStringLiteral("message"), QStringLiteral("name"), QStringLiteral("status"),
                                    QStringLiteral("version")}));
        byFile[QFileInfo(o.value(QStringLiteral("file")).toString()).fileName()] = o;
        if (o.value(QStringLiteral("status")).toString() == QLatin1String("loaded"))
            loaded[o.value(QStringLiteral("kind")).toString() + QLatin1Char(':') + o.value(QStringLiteral("name")).toString()] = o;
    }
    for (const char* key : {"exporter:mrig", "exporter:json", "exporter:c-header", "exporter:testexport", "importer:assimp",
                            "importer:mskel", "template:auto", "template:humanoid", "template:generic", "template:quadruped"})
        QVERIFY2(loaded.contains(QLatin1String(key)), key);
    QVERIFY(loaded[QStringLiteral("exporter:mrig")].value(QStringLiteral("builtIn")).toBool());
    const QJsonObject json = loaded[QStringLiteral("exporter:json")];
    QCOMPARE(json.value(QStringLiteral("interface")).toString(), QStringLiteral("RigExporter/1"));
    QCOMPARE(json.value(QStringLiteral("version")).toString(), QStringLiteral("1.0.0"));
    QCOMPARE(json.value(QStringLiteral("file")).toString(), test::pluginDir() + QStringLiteral("/libmarionette_json_exporter.so"));
    const QJsonObject wrong = byFile.value(QStringLiteral("libtest_wrong_version.so"));
    QCOMPARE(wrong.value(QStringLiteral("status")).toString(), QStringLiteral("refused"));
    QCOMPARE(wrong.value(QStringLiteral("kind")).toString(), QStringLiteral("exporter"));
    QCOMPARE(wrong.value(QStringLiteral("interface")).toString(), QStringLiteral("RigExporter/99"));
    QCOMPARE(wrong.value(QStringLiteral("message")).toString(),
             test::testPluginDir() + QStringLiteral("/libtest_wrong_version.so: built for RigExporter/99, this Marionette supports RigExporter/1"));
    QCOMPARE(byFile.value(QStringLiteral("libtest_not_a_plugin.so")).value(QStringLiteral("status")).toString(), QStringLiteral("failed"));
}

// The text listing: sections per kind, then what did not load with why, then the folders.
void TestPluginsCli::plugins_humanReadable()
{
    const ProcessRun r = runCli({QStringLiteral("plugins")}, mPluginPath);
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QVERIFY2(r.out.startsWith(QLatin1String("exporters (export --format NAME)\n  mrig ")), qPrintable(r.out));
    QVERIFY(r.out.contains(QStringLiteral("  quadruped   Quadruped (dog, horse, cat)  [RigTemplate/1 1.0.0, %1/libmarionette_quadruped.so]").arg(test::pluginDir())));
    QVERIFY(r.out.contains(QStringLiteral("\nnot loaded\n")));
    QVERIFY(r.out.contains(QStringLiteral("  refused: %1/libtest_wrong_version.so: built for RigExporter/99, this Marionette supports RigExporter/1\n")
                               .arg(test::testPluginDir())));
    QVERIFY(r.out.contains(QStringLiteral("\nplugin folders\n  %1\n  %2\n").arg(test::pluginDir(), test::testPluginDir())));
    QCOMPARE(runCli({QStringLiteral("plugins"), QStringLiteral("extra")}, mPluginPath).exitCode, 2);
}

// Without MARIONETTE_PLUGIN_PATH: bin/plugins beside the executable, then the user folder.
void TestPluginsCli::plugins_defaultFolderNextToTheExecutable()
{
    const ProcessRun r = runCli({QStringLiteral("plugins"), QStringLiteral("--json")}, QString());
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    const QJsonArray folders = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("folders")).toArray();
    QVERIFY(folders.size() == 2);
    QCOMPARE(QFileInfo(folders[0].toObject().value(QStringLiteral("path")).toString()).canonicalFilePath(), QFileInfo(test::pluginDir()).canonicalFilePath());
    QVERIFY(folders[1].toObject().value(QStringLiteral("path")).toString().endsWith(QLatin1String("/marionette/plugins")));
    QVERIFY(r.out.contains(QLatin1String("\"name\":\"json\"")));
    QVERIFY(!r.out.contains(QLatin1String("wrongversion")));
}

void TestPluginsCli::export_throughPluginFormats_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("file");
    QTest::newRow("json") << QStringLiteral("json") << QStringLiteral("dog.json");
    QTest::newRow("c-header") << QStringLiteral("c-header") << QStringLiteral("dog_rig.h");
    QTest::newRow("mrig (default)") << QString() << QStringLiteral("dog.mrig");
}

// The file is the exporter's bytes for the project's rig: the JSON parses with the rig's counts, the header
// carries its arrays, the .mrig reads back; the summary line names the file and its size.
void TestPluginsCli::export_throughPluginFormats()
{
    QFETCH(QString, format);
    QFETCH(QString, file);
    const QString out = mDir.filePath(file);
    QStringList args{QStringLiteral("export"), mProject, QStringLiteral("-o"), out};
    if (!format.isEmpty())
        args << QStringLiteral("--format") << format;
    const ProcessRun r = runCli(args, mPluginPath);
    QVERIFY2(r.exitCode == 0 && r.err.isEmpty(), qPrintable(r.describe()));
    QVERIFY2(r.out.startsWith(QStringLiteral("wrote %1 (%2 bytes): ").arg(out).arg(QFileInfo(out).size())), qPrintable(r.out));
    project::Project proj;
    QVERIFY(project::loadProject(mProject, proj).ok());
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    if (format == QLatin1String("json")) {
        const QJsonObject root = QJsonDocument::fromJson(bytes).object();
        QCOMPARE(root.value(QStringLiteral("format")).toString(), QStringLiteral("marionette.rig+json"));
        QCOMPARE(std::size_t(root.value(QStringLiteral("particles")).toArray().size()), proj.rig.particles.size());
        QCOMPARE(std::size_t(root.value(QStringLiteral("bones")).toArray().size()), proj.rig.bones.size());
        QVERIFY(root.value(QStringLiteral("generator")).toString().startsWith(QLatin1String("marionette ")));
        // Ids assigned by the project survive.
        QCOMPARE(root.value(QStringLiteral("particles")).toArray()[0].toObject().value(QStringLiteral("id")).toInteger(), qint64(proj.rig.particles[0].id));
    } else if (format == QLatin1String("c-header")) {
        QVERIFY(bytes.contains(QStringLiteral("static const MarionetteParticle dog_rig_particles[%1] = {").arg(proj.rig.particles.size()).toUtf8()));
        QVERIFY(bytes.contains("exported from dog.mproj by marionette "));
    } else {
        rig::RigDescription back;
        std::string error;
        QVERIFY2(rig::loadMrig(out.toStdString(), back, &error), error.c_str());
        QCOMPARE(back.particles.size(), proj.rig.particles.size());
    }
}

// An unknown format: exit 2, nothing written, the available formats listed (built-in first).
void TestPluginsCli::export_unknownFormatIsAUsageError()
{
    const QString out = path("dog.fbx");
    ProcessRun r = runCli({QStringLiteral("export"), mProject, QStringLiteral("-o"), out, QStringLiteral("--format"), QStringLiteral("fbx")}, mPluginPath);
    QVERIFY2(r.exitCode == 2 && r.out.isEmpty(), qPrintable(r.describe()));
    QVERIFY2(r.err.startsWith(QLatin1String("error: unknown format 'fbx' (available: mrig, c-header, json, testexport)\n")), qPrintable(r.err));
    QVERIFY(!QFile::exists(out));
    r = runCli({QStringLiteral("export"), mProject, QStringLiteral("--format"), QStringLiteral("json")}, mPluginPath);
    QVERIFY2(r.exitCode == 2 && r.err.startsWith(QLatin1String("error: missing -o FILE.json")), qPrintable(r.describe()));
    // With no plugin folder only the built-in format is there.
    r = runCli({QStringLiteral("export"), mProject, QStringLiteral("-o"), out, QStringLiteral("--format"), QStringLiteral("json")}, QStringLiteral(""));
    QVERIFY2(r.exitCode == 2 && r.err.startsWith(QLatin1String("error: unknown format 'json' (available: mrig)")), qPrintable(r.describe()));
}

// build --template quadruped on a quadruped read by the test importer: the summary, a rig that validates
// and comes to rest above the floor in `simulate`.
void TestPluginsCli::build_quadrupedTemplate()
{
    const QString out = path("built-dog.mrig");
    ProcessRun r = runCli({QStringLiteral("build"), test::testData("dog.mskel"), QStringLiteral("-o"), out, QStringLiteral("--template"),
                       QStringLiteral("quadruped"), QStringLiteral("--mass"), QStringLiteral("30"), QStringLiteral("--json")},
                      mPluginPath);
    QVERIFY2(r.exitCode == 0 && r.err.isEmpty(), qPrintable(r.describe()));
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(o.value(QStringLiteral("template")).toString(), QStringLiteral("quadruped"));
    QCOMPARE(o.value(QStringLiteral("triangles")).toInt(), 11);
    QCOMPARE(o.value(QStringLiteral("angular")).toInt(), 10);
    QCOMPARE(o.value(QStringLiteral("bones")).toInt(), 26);
    r = runCli({QStringLiteral("validate"), out}, mPluginPath);
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    r = runCli({QStringLiteral("simulate"), QStringLiteral("--json"), QStringLiteral("--drop"), QStringLiteral("1"), QStringLiteral("--frames"),
                QStringLiteral("600"), out},
               mPluginPath);
    const QJsonObject sim = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QVERIFY2(r.exitCode == 0 && sim.value(QStringLiteral("finite")).toBool(), qPrintable(r.describe()));
    QVERIFY2(sim.value(QStringLiteral("min_height")).toDouble(-1.0) > -0.01, qPrintable(r.out));
    QVERIFY2(sim.value(QStringLiteral("settled_frame")).toInt(-1) >= 0, qPrintable(r.out));
    // A humanoid template on the dog is refused with the template's reason.
    r = runCli({QStringLiteral("build"), test::testData("dog.mskel"), QStringLiteral("-o"), path("no.mrig"), QStringLiteral("--template"),
                QStringLiteral("humanoid")},
               mPluginPath);
    QVERIFY2(r.exitCode == 1 && r.err.startsWith(QStringLiteral("error: %1: humanoid template: ").arg(test::testData("dog.mskel"))), qPrintable(r.describe()));
}

// import --template quadruped writes a project whose rig is the quadruped; the project records the
// importer's conversion.
void TestPluginsCli::import_quadrupedTemplateThenExport()
{
    project::Project proj;
    const project::LoadResult loaded = project::loadProject(mProject, proj);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error));
    QCOMPARE(proj.rig.triangles.size(), std::size_t(11));
    QCOMPARE(QString::fromStdString(proj.rig.triangles[0].name), QStringLiteral("pelvis"));
    QVERIFY(proj.import.conversionNote.startsWith(QLatin1String("mskel (test)")));
    double total = 0.;
    for (const rig::Particle& p : proj.rig.particles)
        total += double(p.mass);
    QVERIFY(std::fabs(total - 30.) < 1e-3);
}

// An unknown template keeps the built-in message and adds the plugin templates.
void TestPluginsCli::template_unknownListsPluginTemplates()
{
    const ProcessRun r = runCli({QStringLiteral("build"), test::testData("dog.mskel"), QStringLiteral("-o"), path("x.mrig"), QStringLiteral("--template"),
                             QStringLiteral("cat")},
                            mPluginPath);
    QVERIFY2(r.exitCode == 2, qPrintable(r.describe()));
    QVERIFY2(r.err.startsWith(QLatin1String("error: --template must be auto, humanoid or generic, not 'cat' (plugin templates: quadruped)\n")),
             qPrintable(r.err));
}

QTEST_GUILESS_MAIN(TestPluginsCli)
#include "tst_pluginscli.moc"
