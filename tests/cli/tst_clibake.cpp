// `marionette bake PROJECT --scenario NAME -o FILE` run as a user runs it (QProcess): the mannequin sample's
// scenario written as .glb (re-imported here through formats/import) and as the clip JSON; refusals with one
// `error:` line, exit codes 1/2 and no file left behind.
#include "marionette/import/Import.h"
#include "marionette/project/ProjectFile.h"
#include "marionette/runtime/Procedural.h"

#include "ProcessRunner.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace marionette;

namespace {

using Run = test::ProcessRun;

Run cli(const QStringList& arguments) { return test::runProcess(QStringLiteral(MARIONETTE_CLI), arguments, 120000); }

QStringList lines(const QString& text) { return text.split(QLatin1Char('\n'), Qt::SkipEmptyParts); }

const QString kSample = QStringLiteral(MARIONETTE_SAMPLES "/characters/mannequin");
const QString kHit = QStringLiteral("hit on the right forearm");

} // namespace

class TestCliBake : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void bake_glbReimportsWithTheClipAndTheMesh();
    void bake_jsonAtAChosenRate();
    void bake_refusals_data();
    void bake_refusals();

private:
    QTemporaryDir mDir;
    QString mProject, mNoMesh;
};

void TestCliBake::initTestCase()
{
    QVERIFY(mDir.isValid());
    // The sample project beside its mesh (it refers to mannequin.glb by a relative path).
    mProject = mDir.filePath(QStringLiteral("mannequin.mproj"));
    QVERIFY(QFile::copy(kSample + QStringLiteral("/mannequin.mproj"), mProject));
    QVERIFY(QFile::copy(kSample + QStringLiteral("/mannequin.glb"), mDir.filePath(QStringLiteral("mannequin.glb"))));
    // A project with a rig and a scenario but no source mesh.
    project::Project p;
    p.name = QStringLiteral("meshless");
    p.rig = runtime::makeHumanoid();
    project::assignMissingIds(p.rig);
    project::Scenario drop;
    drop.name = QStringLiteral("drop");
    drop.duration = 1.f;
    p.scenarios = {drop};
    mNoMesh = mDir.filePath(QStringLiteral("meshless.mproj"));
    const project::SaveResult saved = project::saveProject(mNoMesh, p);
    QVERIFY2(saved.ok(), qPrintable(saved.error));
}

void TestCliBake::bake_glbReimportsWithTheClipAndTheMesh()
{
    const QString target = mDir.filePath(QStringLiteral("fall.glb"));
    const Run r = cli({QStringLiteral("bake"), mProject, QStringLiteral("--scenario"), kHit, QStringLiteral("-o"), target});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    // The sample's own import warning (bones that weight no vertex), nothing else.
    for (const QString& line : lines(r.err))
        QVERIFY2(line.startsWith(QStringLiteral("warning: ")), qPrintable(r.err));
    // 8 s at the rig's 1/60 s: 480 steps and step 0.
    QVERIFY2(r.out.startsWith(QStringLiteral("wrote %1 (").arg(target)), qPrintable(r.out));
    QVERIFY2(r.out.contains(QStringLiteral("clip '%1', 481 frames at 60 fps (8.00 s), 21 bones, ").arg(kHit)), qPrintable(r.out));
    const import::ImportResult back = import::importScene(target.toStdString());
    QVERIFY2(back.ok(), back.error.c_str());
    QCOMPARE(back.scene.skeleton.size(), std::size_t(21));
    QVERIFY(back.scene.meshes[0].isSkinned());
    QCOMPARE(back.scene.animations.size(), std::size_t(1));
    QCOMPARE(back.scene.animations[0].name, kHit.toStdString());
    QVERIFY(qAbs(back.scene.animations[0].duration - 8.f) < 1e-3f);
    QCOMPARE(back.scene.animations[0].channels.size(), std::size_t(21)); // every bone keyed
    QCOMPARE(back.scene.animations[0].channels[0].positions.size(), std::size_t(481));
}

void TestCliBake::bake_jsonAtAChosenRate()
{
    const QString target = mDir.filePath(QStringLiteral("fall.json"));
    const Run r = cli({QStringLiteral("bake"), mProject, QStringLiteral("--scenario"), kHit, QStringLiteral("-o"), target,
                       QStringLiteral("--fps"), QStringLiteral("30")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QVERIFY2(r.out.contains(QStringLiteral("241 frames at 30 fps (8.00 s), 21 bones\n")), qPrintable(r.out));
    QFile file(target);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject doc = QJsonDocument::fromJson(file.readAll()).object();
    QCOMPARE(doc.value(QStringLiteral("format")).toString(), QStringLiteral("marionette.clip+json"));
    QCOMPARE(doc.value(QStringLiteral("version")).toInt(), 1);
    QCOMPARE(doc.value(QStringLiteral("frameRate")).toDouble(), 30.0);
    QCOMPARE(doc.value(QStringLiteral("frameCount")).toInt(), 241);
    QCOMPARE(float(doc.value(QStringLiteral("times")).toArray()[1].toDouble()), 1.f / 30.f);
    const QJsonArray bones = doc.value(QStringLiteral("bones")).toArray();
    QCOMPARE(bones.size(), qsizetype(21));
    QCOMPARE(bones[0].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("Hips"));
    QVERIFY(bones[0].toObject().value(QStringLiteral("parent")).isNull());
    QCOMPARE(bones[0].toObject().value(QStringLiteral("rotation")).toArray().size(), qsizetype(241));
    // --format overrides the extension.
    const QString other = mDir.filePath(QStringLiteral("fall.bin"));
    const Run g = cli({QStringLiteral("bake"), mProject, QStringLiteral("--scenario"), kHit, QStringLiteral("-o"), other,
                       QStringLiteral("--format"), QStringLiteral("glb"), QStringLiteral("--fps"), QStringLiteral("10")});
    QVERIFY2(g.exitCode == 0, qPrintable(g.describe()));
    QFile glb(other);
    QVERIFY(glb.open(QIODevice::ReadOnly));
    QCOMPARE(glb.read(4), QByteArray("glTF"));
}

void TestCliBake::bake_refusals_data()
{
    QTest::addColumn<QStringList>("arguments"); // after PROJECT; "@" is the target, "%" the temporary folder
    QTest::addColumn<bool>("meshless");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("error"); // the error line's start; "@" is the target, "#" the project
    QTest::newRow("unknown scenario")
        << QStringList{QStringLiteral("--scenario"), QStringLiteral("fly"), QStringLiteral("-o"), QStringLiteral("@")}
        << false << 2
        << QStringLiteral("error: no scenario 'fly' in # (it has: drop on the floor, tumble down the stairs, hit on the "
                          "right forearm, dragged by the head, hit while walking, killed while walking, get up)");
    QTest::newRow("no mesh") << QStringList{QStringLiteral("--scenario"), QStringLiteral("drop"), QStringLiteral("-o"), QStringLiteral("@")}
                             << true << 1 << QStringLiteral("error: #: cannot bake without the source mesh: the project has none");
    QTest::newRow("unwritable") << QStringList{QStringLiteral("--scenario"), kHit, QStringLiteral("-o"), QStringLiteral("%/no/such/folder/fall.glb")}
                                << false << 1 << QStringLiteral("error: %/no/such/folder/fall.glb: cannot write: ");
    QTest::newRow("fps zero") << QStringList{QStringLiteral("--scenario"), kHit, QStringLiteral("-o"), QStringLiteral("@"),
                                             QStringLiteral("--fps"), QStringLiteral("0")}
                              << false << 2 << QStringLiteral("error: --fps must be a number in (0, 1000], not '0'");
    QTest::newRow("fps word") << QStringList{QStringLiteral("--scenario"), kHit, QStringLiteral("-o"), QStringLiteral("@"),
                                             QStringLiteral("--fps"), QStringLiteral("fast")}
                              << false << 2 << QStringLiteral("error: --fps must be a number in (0, 1000], not 'fast'");
    QTest::newRow("extension") << QStringList{QStringLiteral("--scenario"), kHit, QStringLiteral("-o"), QStringLiteral("%/fall.fbx")}
                               << false << 2 << QStringLiteral("error: cannot tell the format of %/fall.fbx from its extension");
    QTest::newRow("format") << QStringList{QStringLiteral("--scenario"), kHit, QStringLiteral("-o"), QStringLiteral("@"),
                                           QStringLiteral("--format"), QStringLiteral("fbx")}
                            << false << 2 << QStringLiteral("error: unknown format 'fbx' (available: glb, json)");
    QTest::newRow("no scenario") << QStringList{QStringLiteral("-o"), QStringLiteral("@")} << false << 2
                                 << QStringLiteral("error: missing --scenario NAME");
}

void TestCliBake::bake_refusals()
{
    QFETCH(QStringList, arguments);
    QFETCH(bool, meshless);
    QFETCH(int, exitCode);
    QFETCH(QString, error);
    const QString project = meshless ? mNoMesh : mProject;
    const QString target = mDir.filePath(QStringLiteral("refused.glb"));
    QFile::remove(target);
    QStringList args{QStringLiteral("bake"), project};
    for (QString a : arguments)
        args << (a == QLatin1String("@") ? target : a.replace(QLatin1Char('%'), mDir.path()));
    error.replace(QLatin1Char('@'), target).replace(QLatin1Char('%'), mDir.path()).replace(QLatin1Char('#'), project);
    const Run r = cli(args);
    QVERIFY2(r.exitCode == exitCode, qPrintable(r.describe()));
    QCOMPARE(r.out, QString());
    const QStringList errors = lines(r.err).filter(QRegularExpression(QStringLiteral("^error: ")));
    QCOMPARE(errors.size(), 1);
    QVERIFY2(errors[0].startsWith(error), qPrintable(r.err));
    // Nothing written: no target, no temporary file beside it.
    QVERIFY(!QFile::exists(target));
    QVERIFY(!QFile::exists(mDir.filePath(QStringLiteral("no/such/folder/fall.glb"))));
    QCOMPARE(QDir(mDir.path()).entryList({QStringLiteral("refused*")}, QDir::Files), QStringList());
}

QTEST_GUILESS_MAIN(TestCliBake)
#include "tst_clibake.moc"
