// `marionette import` and `build` on faulty meshes (tests/formats/import/B3dModel.h): by default the import
// repairs and the command succeeds with one `warning: FILE: where: what` line per warning on stderr (and in
// `build --json`'s "warnings"); with --strict each fault refuses the mesh with one `error:` line, exit 1 and
// no output file. The warnings and errors themselves are tst_importlenient's; here they are checked as the
// command line prints them.
#include "B3dModel.h"
#include "ProcessRunner.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace marionette;
using namespace marionette::test;

Q_DECLARE_METATYPE(marionette::test::B3dFault)

namespace {

using Run = test::ProcessRun;

Run cli(const QStringList& arguments) { return test::runProcess(QStringLiteral(MARIONETTE_CLI), arguments, 30000); }

const QString kClip = QStringLiteral("animation 'animation0'");

} // namespace

class TestCliStrict : public QObject {
    Q_OBJECT

    QTemporaryDir mDir;

    QString write(B3dFault fault, const QString& name)
    {
        const QString path = mDir.filePath(name + QStringLiteral(".b3d"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(b3dModel(fault)) < 0)
            return {};
        return path;
    }

private slots:
    void faults_data();
    void build_lenientWarnsOnStderrAndInJson();
    void build_lenientWarnsOnStderrAndInJson_data() { faults_data(); }
    void buildAndImport_strictRefuses();
    void buildAndImport_strictRefuses_data() { faults_data(); }
    void goodModel_noWarningAndStrictAccepts();
};

// Per fault: the warnings of a lenient import (after "FILE: ") and the error of --strict (after "FILE: ");
// no warnings for a file the import refuses in both modes (a NaN vertex).
void TestCliStrict::faults_data()
{
    QTest::addColumn<B3dFault>("fault");
    QTest::addColumn<QStringList>("warnings");
    QTest::addColumn<QString>("strictError");
    const QString validation = QStringLiteral("Validation failed: aiNodeAnim::mPositionKeys[2].mTime (21.00000) is larger than "
                                              "aiAnimation::mDuration (which is 20.00000)");
    QTest::newRow("key past the end")
        << B3dFault::KeyPastEnd
        << QStringList{QStringLiteral("the file failed Assimp's validation (%1); read without it").arg(validation),
                       kClip + QStringLiteral(" bone 'hip': position key 2 at 21 past the clip's end 20; duration extended to 21")}
        << QStringLiteral("Assimp could not read the file: ") + validation;
    QTest::newRow("unsorted keys")
        << B3dFault::UnsortedKeys
        << QStringList{kClip + QStringLiteral(" bone 'hip': position keys not in time order (key 2 at 10 after key 1 at 20); sorted")}
        << kClip + QStringLiteral(" bone 'hip': position keys not in time order (key 2 at 10 after key 1 at 20)");
    QTest::newRow("nan key") << B3dFault::NanKey
                             << QStringList{kClip + QStringLiteral(" bone 'hip': position key 1 at 10 is not finite (nan, 0.5, -0); dropped it")}
                             << kClip + QStringLiteral(" bone 'hip': position key 1 at 10 is not finite (nan, 0.5, -0)");
    QTest::newRow("nan vertex") << B3dFault::NanVertex << QStringList{}
                                << QStringLiteral("mesh 'mesh0' vertex 11: position is not finite (nan, 2, -0)");
    QTest::newRow("weights not summing to 1")
        << B3dFault::WeightsNotOne
        << QStringList{QStringLiteral("mesh 'mesh0': the bone weights of 1 of 6 vertices do not sum to 1 (vertex 4: 0.5); renormalised")}
        << QStringLiteral("mesh 'mesh0': the bone weights of 1 of 6 vertices do not sum to 1 (vertex 4: 0.5)");
}

void TestCliStrict::build_lenientWarnsOnStderrAndInJson()
{
    QFETCH(B3dFault, fault);
    QFETCH(QStringList, warnings);
    QFETCH(QString, strictError);
    const QString mesh = write(fault, QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('_')));
    const QString out = mDir.filePath(QStringLiteral("lenient.mrig"));
    QFile::remove(out);
    const Run r = cli({QStringLiteral("build"), mesh, QStringLiteral("-o"), out, QStringLiteral("--json")});
    if (warnings.isEmpty()) { // refused in both modes, with the strict error
        QVERIFY2(r.exitCode == 1 && r.out.isEmpty(), qPrintable(r.describe()));
        QCOMPARE(r.err, QStringLiteral("error: %1: %2\n").arg(mesh, strictError));
        return;
    }
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QVERIFY(QFile::exists(out));
    QStringList expected, printed;
    for (const QString& w : warnings)
        expected << mesh + QStringLiteral(": ") + w;
    for (const QString& w : expected)
        printed << QStringLiteral("warning: ") + w;
    QCOMPARE(r.err, printed.join(QLatin1Char('\n')) + QLatin1Char('\n'));
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QStringList json;
    for (const QJsonValue& v : o.value(QStringLiteral("warnings")).toArray())
        json << v.toString();
    QCOMPARE(json, expected);
}

void TestCliStrict::buildAndImport_strictRefuses()
{
    QFETCH(B3dFault, fault);
    QFETCH(QString, strictError);
    const QString mesh = write(fault, QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('_')));
    const QString rig = mDir.filePath(QStringLiteral("strict.mrig")), project = mDir.filePath(QStringLiteral("strict.mproj"));
    QFile::remove(rig);
    QFile::remove(project);
    const Run built = cli({QStringLiteral("build"), mesh, QStringLiteral("-o"), rig, QStringLiteral("--strict"), QStringLiteral("--json")});
    QVERIFY2(built.exitCode == 1 && built.out.isEmpty(), qPrintable(built.describe()));
    QCOMPARE(built.err, QStringLiteral("error: %1: %2\n").arg(mesh, strictError));
    QVERIFY(!QFile::exists(rig));
    const Run imported = cli({QStringLiteral("import"), mesh, QStringLiteral("-o"), project, QStringLiteral("--strict")});
    QVERIFY2(imported.exitCode == 1 && imported.out.isEmpty(), qPrintable(imported.describe()));
    QCOMPARE(imported.err, QStringLiteral("error: %1: %2\n").arg(mesh, strictError));
    QVERIFY(!QFile::exists(project));
}

void TestCliStrict::goodModel_noWarningAndStrictAccepts()
{
    const QString mesh = write(B3dFault::None, QStringLiteral("good"));
    const QString rig = mDir.filePath(QStringLiteral("good.mrig")), project = mDir.filePath(QStringLiteral("good.mproj"));
    Run r = cli({QStringLiteral("build"), mesh, QStringLiteral("-o"), rig, QStringLiteral("--strict"), QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0 && r.err.isEmpty(), qPrintable(r.describe()));
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QVERIFY(o.value(QStringLiteral("warnings")).isArray());
    QVERIFY(o.value(QStringLiteral("warnings")).toArray().isEmpty());
    r = cli({QStringLiteral("import"), mesh, QStringLiteral("-o"), project, QStringLiteral("--strict")});
    QVERIFY2(r.exitCode == 0 && r.err.isEmpty() && r.out.startsWith(QStringLiteral("wrote ")), qPrintable(r.describe()));
}

QTEST_GUILESS_MAIN(TestCliStrict)
#include "tst_clistrict.moc"
