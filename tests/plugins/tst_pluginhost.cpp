// The plugin host: built-ins registered like plugins, the shipped plugins found and loaded from a folder,
// libraries refused before they are loaded (another interface version, a foreign or unknown IID) or after
// (no interface, a taken name), libraries that are not plugins or not libraries reported as failed, the
// default folders and MARIONETTE_PLUGIN_PATH, and the checks around export, templates and import.
#include "AutoRigTestSupport.h"
#include "PluginTestSupport.h"

#include "marionette/editor/pluginhost/PluginHost.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace marionette;
using editor::PluginHost;
using editor::PluginKind;
using editor::PluginRecord;
using editor::PluginStatus;

namespace {

const PluginRecord* findFile(const PluginHost& host, const QString& fileName)
{
    for (const PluginRecord& r : host.records())
        if (QFileInfo(r.file).fileName() == fileName)
            return &r;
    return nullptr;
}

QString libName(const char* base) { return QStringLiteral("lib%1.so").arg(QLatin1String(base)); }

} // namespace

class TestPluginHost : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void refusedLibraries_areNeverLoaded();
    void builtIns_registeredLikePlugins();
    void shippedPlugins_loadFromTheirFolder();
    void refusal_data();
    void refusal();
    void brokenFiles_failWithoutCrashing();
    void folders_missingAndRepeated();
    void defaultFolders_environmentOverrides();
    void exportRig_checksAndWritesAtomically();
    void buildRig_checksInputAndResult();
    void importScene_throughAPluginImporter();

private:
    QString mMarker;
    QTemporaryDir mTemp;
};

void TestPluginHost::initTestCase()
{
    QVERIFY(mTemp.isValid());
    mMarker = mTemp.filePath(QStringLiteral("loaded.txt"));
    qputenv("MARIONETTE_TEST_LOAD_MARKER", mMarker.toLocal8Bit());
}

// The built-ins are records like any plugin's: exporter mrig, importer assimp, templates auto, humanoid and
// generic, found by name, listed first.
void TestPluginHost::builtIns_registeredLikePlugins()
{
    PluginHost host;
    QCOMPARE(host.names(PluginKind::Exporter), QStringList{QStringLiteral("mrig")});
    QCOMPARE(host.names(PluginKind::Importer), QStringList{QStringLiteral("assimp")});
    QCOMPARE(host.names(PluginKind::Template), (QStringList{QStringLiteral("auto"), QStringLiteral("humanoid"), QStringLiteral("generic")}));
    for (const PluginRecord& r : host.records()) {
        QVERIFY(r.builtIn);
        QCOMPARE(r.status, PluginStatus::Loaded);
        QVERIFY(r.file.isEmpty());
        QVERIFY(r.interfaceId.endsWith(QLatin1String("/1")));
        QVERIFY(!r.displayName.isEmpty());
    }
    QVERIFY(host.exporter(QStringLiteral("mrig")));
    QCOMPARE(host.exporter(QStringLiteral("mrig"))->fileExtension(), QStringLiteral("mrig"));
    QVERIFY(!host.exporter(QStringLiteral("json")));
    QVERIFY(host.rigTemplate(QStringLiteral("generic")));
    QVERIFY(!host.rigTemplate(QStringLiteral("quadruped")));
    QCOMPARE(host.importerFor(QStringLiteral("hero.fbx")), host.importer(QStringLiteral("assimp")));
}

// bin/plugins holds the shipped plugins; they load, carry the version of their metadata, and come after
// the built-ins.
void TestPluginHost::shippedPlugins_loadFromTheirFolder()
{
    PluginHost host;
    host.loadFolder(test::pluginDir());
    QCOMPARE(host.folders().size(), std::size_t(1));
    QVERIFY(host.folders()[0].exists);
    QCOMPARE(host.names(PluginKind::Exporter), (QStringList{QStringLiteral("mrig"), QStringLiteral("c-header"), QStringLiteral("json")}));
    QCOMPARE(host.names(PluginKind::Template).last(), QStringLiteral("quadruped"));
    QCOMPARE(host.names(PluginKind::Importer), (QStringList{QStringLiteral("assimp"), QStringLiteral("iqm")}));
    for (const char* base : {"marionette_json_exporter", "marionette_cheader_exporter", "marionette_quadruped",
                             "marionette_iqm_importer"}) {
        const PluginRecord* r = findFile(host, libName(base));
        QVERIFY2(r, base);
        QVERIFY2(r->status == PluginStatus::Loaded, qPrintable(r->message));
        QVERIFY(r->message.isEmpty());
        QCOMPARE(r->version, QStringLiteral("1.0.0"));
        QVERIFY(!r->builtIn && r->instance);
        QVERIFY(r->file.startsWith(test::pluginDir()));
    }
    const plugin::RigExporter* json = host.exporter(QStringLiteral("json"));
    QVERIFY(json);
    QCOMPARE(json->fileExtension(), QStringLiteral("json"));
    QCOMPARE(host.record(PluginKind::Template, QStringLiteral("quadruped"))->kind, PluginKind::Template);
    QVERIFY(!host.record(PluginKind::Template, QStringLiteral("quadruped"))->description.isEmpty());
}

void TestPluginHost::refusal_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("status");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("message"); // after "<file>: "
    QTest::newRow("another interface version") << libName("test_wrong_version") << int(PluginStatus::Refused) << int(PluginKind::Exporter)
                                               << QStringLiteral("built for RigExporter/99, this Marionette supports RigExporter/1");
    QTest::newRow("foreign IID") << libName("test_foreign_iid") << int(PluginStatus::Refused) << int(PluginKind::Unknown)
                                 << QStringLiteral("not a Marionette plugin (IID 'org.example.Exporter/1')");
    QTest::newRow("unknown interface") << libName("test_unknown_interface") << int(PluginStatus::Refused) << int(PluginKind::Unknown)
                                       << QStringLiteral("built for Frobnicator/1, an interface this Marionette does not know "
                                                         "(it supports RigExporter/1, MeshImporter/1, RigTemplate/1)");
    QTest::newRow("name taken by a built-in") << libName("test_name_clash") << int(PluginStatus::Refused) << int(PluginKind::Exporter)
                                              << QStringLiteral("exporter name 'mrig' is already taken by the built-in exporter");
    QTest::newRow("no Q_INTERFACES") << libName("test_no_interface") << int(PluginStatus::Refused) << int(PluginKind::Exporter)
                                     << QStringLiteral("its root object (TestExporter) does not implement RigExporter/1 (Q_INTERFACES missing?)");
    QTest::newRow("not a plugin") << libName("test_not_a_plugin") << int(PluginStatus::Failed) << int(PluginKind::Unknown)
                                  << QStringLiteral("not a Qt plugin (");
    QTest::newRow("good exporter") << libName("test_good_exporter") << int(PluginStatus::Loaded) << int(PluginKind::Exporter) << QString();
    QTest::newRow("good importer") << libName("test_mskel_importer") << int(PluginStatus::Loaded) << int(PluginKind::Importer) << QString();
}

// Every library of the test folder gets a record with the status and the one-line message it deserves.
void TestPluginHost::refusal()
{
    QFETCH(QString, file);
    QFETCH(int, status);
    QFETCH(int, kind);
    QFETCH(QString, message);
    PluginHost host;
    host.loadFolder(test::testPluginDir());
    const PluginRecord* r = findFile(host, file);
    QVERIFY2(r, qPrintable(file));
    QCOMPARE(int(r->status), status);
    QCOMPARE(int(r->kind), kind);
    if (message.isEmpty()) {
        QVERIFY2(r->message.isEmpty(), qPrintable(r->message));
    } else {
        QVERIFY2(r->message.startsWith(test::testPluginDir() + QLatin1Char('/') + file + QStringLiteral(": ") + message), qPrintable(r->message));
        QVERIFY2(!r->message.contains(QLatin1Char('\n')), qPrintable(r->message));
        QVERIFY(!r->instance);
    }
}

// A library refused for its IID never runs a line: its static initialiser would have written its name
// to the marker file, as the ones that were instantiated did. (First: a library stays loaded once loaded.)
void TestPluginHost::refusedLibraries_areNeverLoaded()
{
    PluginHost host;
    host.loadFolder(test::testPluginDir());
    QFile marker(mMarker);
    QVERIFY(marker.open(QIODevice::ReadOnly));
    const QStringList loaded = QString::fromUtf8(marker.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const char* refused : {"wrongversion", "foreign", "frobnicator"})
        QVERIFY2(!loaded.contains(QLatin1String(refused)), refused);
    QVERIFY2(loaded.contains(QStringLiteral("testexport")), qPrintable(loaded.join(QLatin1Char(','))));
    const plugin::RigExporter* e = host.exporter(QStringLiteral("testexport"));
    QVERIFY(e);
    QByteArray out;
    QString error;
    QVERIFY(e->write(rig::RigDescription{}, {}, out, error));
    QCOMPARE(out, QByteArray("test export of \n"));
    QVERIFY(!host.exporter(QStringLiteral("wrongversion")));
}

// A file named like a library that holds garbage, an empty one and a truncated plugin: failed with Qt's
// reason, never a crash; files not named like libraries are not looked at.
void TestPluginHost::brokenFiles_failWithoutCrashing()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    auto write = [&](const QString& name, const QByteArray& bytes) {
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    };
    write(QStringLiteral("libgarbage.so"), QByteArray(4096, '\x7f') + "ELF garbage");
    write(QStringLiteral("libempty.so"), {});
    QFile good(test::pluginDir() + QStringLiteral("/libmarionette_json_exporter.so"));
    QVERIFY(good.open(QIODevice::ReadOnly));
    write(QStringLiteral("libtruncated.so"), good.read(good.size() / 3));
    write(QStringLiteral("README.txt"), "not a library");
    PluginHost host;
    host.loadFolder(dir.path());
    QCOMPARE(host.records().size(), std::size_t(5 + 3)); // the built-ins and the three libraries
    for (const char* name : {"libgarbage.so", "libempty.so", "libtruncated.so"}) {
        const PluginRecord* r = findFile(host, QLatin1String(name));
        QVERIFY2(r, name);
        QCOMPARE(r->status, PluginStatus::Failed);
        QVERIFY2(r->message.startsWith(dir.filePath(QLatin1String(name)) + QStringLiteral(": not a Qt plugin")), qPrintable(r->message));
        QVERIFY2(!r->message.contains(QLatin1Char('\n')), qPrintable(r->message));
    }
    QCOMPARE(host.names(PluginKind::Exporter), QStringList{QStringLiteral("mrig")});
}

// A missing folder is recorded and skipped; a folder (or the same library) seen twice is loaded once; a
// second copy of a plugin elsewhere is refused for its name.
void TestPluginHost::folders_missingAndRepeated()
{
    PluginHost host;
    host.loadFolders({QStringLiteral("/nonexistent/plugins"), test::pluginDir(), test::pluginDir() + QStringLiteral("/../plugins")});
    QCOMPARE(host.folders().size(), std::size_t(2));
    QVERIFY(!host.folders()[0].exists);
    QCOMPARE(host.records().size(), std::size_t(5 + 4)); // the built-ins and the four shipped plugins, once
    QTemporaryDir copy;
    QVERIFY(QFile::copy(test::pluginDir() + QStringLiteral("/libmarionette_json_exporter.so"), copy.filePath(QStringLiteral("libjson_copy.so"))));
    host.loadFolder(copy.path());
    const PluginRecord* r = findFile(host, QStringLiteral("libjson_copy.so"));
    QVERIFY(r);
    QCOMPARE(r->status, PluginStatus::Refused);
    QVERIFY2(r->message.endsWith(QStringLiteral("exporter name 'json' is already taken by %1/libmarionette_json_exporter.so").arg(test::pluginDir())),
             qPrintable(r->message));
}

// MARIONETTE_PLUGIN_PATH replaces the default folders (next to the executable, the user's); set empty it
// leaves the built-ins alone.
void TestPluginHost::defaultFolders_environmentOverrides()
{
    const QByteArray saved = qgetenv("MARIONETTE_PLUGIN_PATH");
    const bool wasSet = qEnvironmentVariableIsSet("MARIONETTE_PLUGIN_PATH");
    qunsetenv("MARIONETTE_PLUGIN_PATH");
    QCOMPARE(PluginHost::defaultFolders(), (QStringList{PluginHost::applicationPluginFolder(), PluginHost::userPluginFolder()}));
    QVERIFY(PluginHost::applicationPluginFolder().endsWith(QLatin1String("/plugins")));
    QVERIFY(PluginHost::userPluginFolder().endsWith(QLatin1String("/marionette/plugins")));
    qputenv("MARIONETTE_PLUGIN_PATH", (test::pluginDir() + QStringLiteral("::/a/b")).toLocal8Bit());
    QCOMPARE(PluginHost::defaultFolders(), (QStringList{test::pluginDir(), QStringLiteral("/a/b")}));
    qputenv("MARIONETTE_PLUGIN_PATH", QByteArray());
    QCOMPARE(PluginHost::defaultFolders(), QStringList());
    PluginHost host;
    host.loadDefaultFolders();
    QCOMPARE(host.records().size(), std::size_t(5));
    if (wasSet)
        qputenv("MARIONETTE_PLUGIN_PATH", saved);
    else
        qunsetenv("MARIONETTE_PLUGIN_PATH");
}

// exportRig: an invalid rig or one the runtime refuses is reported naming the source; the bytes land
// atomically; an unwritable target leaves nothing behind.
void TestPluginHost::exportRig_checksAndWritesAtomically()
{
    PluginHost host;
    const plugin::RigExporter& mrig = *host.exporter(QStringLiteral("mrig"));
    const QString target = mTemp.filePath(QStringLiteral("out.mrig"));
    QString error;
    QVERIFY2(PluginHost::exportRig(mrig, runtime::makeHumanoid(), {target, QStringLiteral("hero.mproj"), {}}, &error), qPrintable(error));
    QVERIFY(QFileInfo(target).size() > 1000);
    rig::RigDescription bad = runtime::makeHumanoid();
    bad.sticks[0].b = 99;
    QVERIFY(!PluginHost::exportRig(mrig, bad, {target, QStringLiteral("hero.mproj"), {}}, &error));
    QVERIFY2(error.startsWith(QStringLiteral("hero.mproj: the rig is invalid: sticks[0]")), qPrintable(error));
    QVERIFY(QFileInfo(target).size() > 1000);
    const QString nowhere = mTemp.filePath(QStringLiteral("no/such/folder/out.mrig"));
    QVERIFY(!PluginHost::exportRig(mrig, runtime::makeHumanoid(), {nowhere, {}, {}}, &error));
    QVERIFY2(error.startsWith(nowhere + QStringLiteral(": cannot write: ")), qPrintable(error));
    QByteArray bytes;
    QVERIFY(PluginHost::exportRigBytes(mrig, runtime::makeHumanoid(), {}, bytes, &error));
    QVERIFY(bytes.startsWith("MRIG"));
    QVERIFY(!PluginHost::exportRig(mrig, runtime::makeHumanoid(), {}, &error));
}

// buildRig: autoRig()'s input checks and messages, the template's own error, and the template's name.
void TestPluginHost::buildRig_checksInputAndResult()
{
    PluginHost host;
    const plugin::RigTemplate& generic = *host.rigTemplate(QStringLiteral("generic"));
    editor::AutoRigResult r = PluginHost::buildRig(generic, {});
    QVERIFY(!r.ok);
    QCOMPARE(QString::fromStdString(r.error), QStringLiteral("the auto-rig needs a skeleton (the mesh has no bones)"));
    editor::AutoRigInput in;
    in.skeleton = {test::bone("a", rig::kNone, {0, 0, 0}), test::bone("b", 0, {0, 0.5f, 0})};
    in.totalMass = -1.f;
    QCOMPARE(QString::fromStdString(PluginHost::buildRig(generic, in).error), QStringLiteral("totalMass must be a finite number of kilograms above 0"));
    in.totalMass = 5.f;
    r = PluginHost::buildRig(generic, in);
    QVERIFY2(r.ok, r.error.c_str());
    QCOMPARE(QString::fromStdString(r.templateUsed), QStringLiteral("generic"));
    QCOMPARE(r.rig.bones.size(), std::size_t(2));
    r = PluginHost::buildRig(*host.rigTemplate(QStringLiteral("humanoid")), in);
    QVERIFY(!r.ok);
    QVERIFY2(QString::fromStdString(r.error).startsWith(QLatin1String("humanoid template: missing")), r.error.c_str());
    r = PluginHost::buildRig(*host.rigTemplate(QStringLiteral("auto")), in);
    QVERIFY(r.ok);
    QCOMPARE(QString::fromStdString(r.templateUsed), QStringLiteral("generic"));
}

// importScene through the test importer: the scene comes back checked; a broken file is one line naming
// the line; the Assimp importer is the fallback for other files.
void TestPluginHost::importScene_throughAPluginImporter()
{
    PluginHost host;
    host.loadFolder(test::testPluginDir());
    plugin::MeshImporter* mskel = host.importerFor(test::testData("dog.mskel"));
    QVERIFY(mskel);
    QCOMPARE(mskel->shortName(), QStringLiteral("mskel"));
    QCOMPARE(host.importerFor(QStringLiteral("hero.fbx")), host.importer(QStringLiteral("assimp")));
    import::ImportedScene scene;
    QString error;
    QVERIFY2(PluginHost::importScene(*mskel, test::testData("dog.mskel"), {}, scene, &error), qPrintable(error));
    QCOMPARE(scene.skeleton.size(), std::size_t(26));
    QCOMPARE(QString::fromStdString(scene.validate()), QString());
    const QString broken = mTemp.filePath(QStringLiteral("broken.mskel"));
    QFile f(broken);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("bone a - 0 0 0\nbone b x 0 1 0 0.1\n");
    f.close();
    QVERIFY(!PluginHost::importScene(*mskel, broken, {}, scene, &error));
    QCOMPARE(error, broken + QStringLiteral(":2: bone 'b' names an unknown parent 'x'"));
    QVERIFY(scene.skeleton.empty());
}

QTEST_GUILESS_MAIN(TestPluginHost)
#include "tst_pluginhost.moc"
