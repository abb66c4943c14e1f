// `marionette transfer PROJECT MESH -o OUT` run as a user runs it (QProcess): the mannequin sample's rig onto
// a .glb of the mannequin with its limbs scaled (written here, ScaledCharacter.h), compared with what
// `marionette import` auto-rigs on the same file; onto another sample character, whose extra bones the report
// lists and which then drops believably (`marionette simulate`); refusals with one `error:` line and exit
// codes 1/2, no file written.
#include "marionette/import/Import.h"
#include "marionette/project/ProjectFile.h"

#include "ProcessRunner.h"
#include "ScaledCharacter.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace marionette;

namespace {

using Run = test::ProcessRun;

Run cli(const QStringList& arguments) { return test::runProcess(QStringLiteral(MARIONETTE_CLI), arguments, 120000); }

const QString kSample = QStringLiteral(MARIONETTE_SAMPLES "/characters");

QJsonObject jsonOf(const Run& r)
{
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

} // namespace

class TestCliTransfer : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void transfer_scaledMannequinWhereImportPutsTheParticles();
    void transfer_otherCharacterReportsUnmappedBonesAndDrops();
    void transfer_mapAndTotalMass();
    void transfer_refusals_data();
    void transfer_refusals();

private:
    QTemporaryDir mDir;
    QString mProject, mScaled;
};

void TestCliTransfer::initTestCase()
{
    QVERIFY(mDir.isValid());
    mProject = kSample + QStringLiteral("/mannequin/mannequin.mproj");
    import::ImportResult imported = import::importScene((kSample + QStringLiteral("/mannequin/mannequin.glb")).toStdString());
    QVERIFY2(imported.ok(), imported.error.c_str());
    test::LimbScale s;
    s.armL = s.armR = 1.2f;
    s.legL = s.legR = 0.85f;
    s.spine = 1.1f;
    s.neck = 0.9f;
    const import::ImportedScene scaled = test::scaledScene(imported.scene, test::mannequinFactors(imported.scene.skeleton, s));
    mScaled = mDir.filePath(QStringLiteral("scaled.glb"));
    QString error;
    QVERIFY2(test::writeGlb(mScaled, scaled, error), qPrintable(error));
}

void TestCliTransfer::transfer_scaledMannequinWhereImportPutsTheParticles()
{
    const QString out = mDir.filePath(QStringLiteral("out/transferred.mproj"));
    QVERIFY(QDir().mkpath(mDir.filePath(QStringLiteral("out"))));
    const Run r = cli({QStringLiteral("transfer"), mProject, mScaled, QStringLiteral("-o"), out, QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    const QJsonObject j = jsonOf(r);
    QCOMPARE(j.value(QStringLiteral("output")).toString(), out);
    QCOMPARE(j.value(QStringLiteral("particles")).toInt(), 20);
    QCOMPARE(j.value(QStringLiteral("bones")).toInt(), 21);
    QCOMPARE(j.value(QStringLiteral("pairs")).toArray().size(), 21);
    QVERIFY(j.value(QStringLiteral("unmapped_source")).toArray().isEmpty());
    QVERIFY(j.value(QStringLiteral("dropped")).toArray().isEmpty());
    QVERIFY(std::fabs(j.value(QStringLiteral("total_mass")).toDouble() - 75.0) < 1e-3);
    QVERIFY(j.value(QStringLiteral("largest_move")).toDouble() > 0.05);
    for (const char* key : {"fallbacks", "notes", "warnings", "unmapped_target"})
        QVERIFY2(j.value(QLatin1String(key)).isArray(), key);

    // The project: the new mesh (relative path), the source's scenarios, the transferred rig.
    project::Project transferred, source, autoRigged;
    QVERIFY(project::loadProject(out, transferred).ok());
    QVERIFY(project::loadProject(mProject, source).ok());
    QCOMPARE(transferred.sourceMesh.path, QStringLiteral("../scaled.glb"));
    QCOMPARE(transferred.scenarios.size(), source.scenarios.size());
    QCOMPARE(transferred.rig.settings.iterations, source.rig.settings.iterations);
    const QString imported = mDir.filePath(QStringLiteral("imported.mproj"));
    const Run i = cli({QStringLiteral("import"), mScaled, QStringLiteral("-o"), imported});
    QVERIFY2(i.exitCode == 0, qPrintable(i.describe()));
    QVERIFY(project::loadProject(imported, autoRigged).ok());
    QCOMPARE(transferred.rig.particles.size(), autoRigged.rig.particles.size());
    for (std::size_t p = 0; p < transferred.rig.particles.size(); ++p) {
        QCOMPARE(transferred.rig.particles[p].id, source.rig.particles[p].id);
        QVERIFY2(length(transferred.rig.particles[p].position - autoRigged.rig.particles[p].position) <= 0.01f,
                 transferred.rig.particles[p].name.c_str());
    }

    // The human report: one summary line naming the file.
    const Run h = cli({QStringLiteral("transfer"), mProject, mScaled, QStringLiteral("-o"), out});
    QVERIFY2(h.exitCode == 0, qPrintable(h.describe()));
    QVERIFY(h.out.startsWith(QStringLiteral("wrote %1: ").arg(out)));
    QVERIFY(h.out.contains(QStringLiteral("21 of 21 bones paired, 75 kg")));
}

void TestCliTransfer::transfer_otherCharacterReportsUnmappedBonesAndDrops()
{
    // BCN_Epileptic (54 bones: fingers, face, a three-bone spine) takes the mannequin's 21-bone rig.
    const QString out = mDir.filePath(QStringLiteral("bcn.mproj"));
    const Run r = cli({QStringLiteral("transfer"), mProject, kSample + QStringLiteral("/bcn_epileptic/BCN_Epileptic.X"),
                       QStringLiteral("-o"), out, QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    const QJsonObject j = jsonOf(r);
    QCOMPARE(j.value(QStringLiteral("bones")).toInt(), 54);
    const QJsonArray unmapped = j.value(QStringLiteral("unmapped_target")).toArray();
    QVERIFY(unmapped.contains(QStringLiteral("B_Jaw")));
    QVERIFY(unmapped.contains(QStringLiteral("B_Finger1_Left")));
    QCOMPARE(unmapped.size() + j.value(QStringLiteral("pairs")).toArray().size(), 54);
    // Every mannequin bone found its part: the body by the humanoid mapping, the toes by the name scheme.
    QVERIFY(j.value(QStringLiteral("unmapped_source")).toArray().isEmpty());
    QVERIFY(j.value(QStringLiteral("dropped")).toArray().isEmpty());
    for (const QJsonValue& p : j.value(QStringLiteral("pairs")).toArray()) {
        const QJsonObject o = p.toObject();
        const QString how = o.value(QStringLiteral("how")).toString();
        QVERIFY2(how == (o.value(QStringLiteral("source")).toString().endsWith(QLatin1String("ToeBase")) ? "scheme" : "humanoid"),
                 qPrintable(o.value(QStringLiteral("source")).toString()));
    }

    const Run s = cli({QStringLiteral("simulate"), out, QStringLiteral("--drop"), QStringLiteral("2"),
                       QStringLiteral("--frames"), QStringLiteral("600"), QStringLiteral("--json")});
    QVERIFY2(s.exitCode == 0, qPrintable(s.describe()));
    const QJsonObject f = jsonOf(s);
    qInfo("BCN_Epileptic 2 m drop: settle %.2f s, stick error %.3f %%, limit excess %.2f deg",
          f.value(QStringLiteral("settle_seconds")).toDouble(), f.value(QStringLiteral("max_stick_error")).toDouble() * 100,
          f.value(QStringLiteral("max_limit_violation_deg")).toDouble());
    QVERIFY(f.value(QStringLiteral("finite")).toBool());
    const double settle = f.value(QStringLiteral("settle_seconds")).toDouble();
    QVERIFY(settle >= 0.0 && settle <= 10.0);
    QVERIFY(f.value(QStringLiteral("max_stick_error")).toDouble() <= 0.02);
    QVERIFY(f.value(QStringLiteral("max_limit_violation_deg")).toDouble() <= 2.0);
}

void TestCliTransfer::transfer_mapAndTotalMass()
{
    // The same character with one bone renamed, paired through a map file, at 60 kg.
    const QString map = mDir.filePath(QStringLiteral("map.json"));
    QFile f(map);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"LeftToeBase": "LeftToeBase", "Head": "Head"})");
    f.close();
    const QString out = mDir.filePath(QStringLiteral("mapped.mproj"));
    const Run r = cli({QStringLiteral("transfer"), mProject, mScaled, QStringLiteral("-o"), out, QStringLiteral("--map"), map,
                       QStringLiteral("--total-mass"), QStringLiteral("60"), QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    const QJsonObject j = jsonOf(r);
    QVERIFY(std::fabs(j.value(QStringLiteral("total_mass")).toDouble() - 60.0) < 1e-3);
    int viaMap = 0;
    for (const QJsonValue& p : j.value(QStringLiteral("pairs")).toArray())
        viaMap += p.toObject().value(QStringLiteral("how")).toString() == QLatin1String("map");
    QCOMPARE(viaMap, 2);
}

void TestCliTransfer::transfer_refusals_data()
{
    QTest::addColumn<QStringList>("arguments"); // MESH, then options; PROJECT and -o are added
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("error");         // the first stderr line starts with it
    QTest::newRow("missing mesh") << QStringList{QStringLiteral("@/missing.glb")} << 1 << QStringLiteral("error: @/missing.glb");
    QTest::newRow("bad map JSON") << QStringList{QStringLiteral("#"), QStringLiteral("--map"), QStringLiteral("@/bad.json")} << 1
                                  << QStringLiteral("error: @/bad.json: not JSON");
    QTest::newRow("map names a missing bone")
        << QStringList{QStringLiteral("#"), QStringLiteral("--map"), QStringLiteral("@/missing-bone.json")} << 1
        << QStringLiteral("error: @/missing-bone.json: map: the target has no bone 'Pelvis'");
    QTest::newRow("negative total mass") << QStringList{QStringLiteral("#"), QStringLiteral("--total-mass"), QStringLiteral("-1")}
                                         << 2 << QStringLiteral("error: --total-mass must be a number in (0, 1e6], not '-1'");
    QTest::newRow("bad scale") << QStringList{QStringLiteral("#"), QStringLiteral("--scale"), QStringLiteral("0")} << 2
                               << QStringLiteral("error: --scale must be a number");
    QTest::newRow("no mesh argument") << QStringList{} << 2 << QStringLiteral("error: missing PROJECT.mproj MESH argument");
}

void TestCliTransfer::transfer_refusals()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, error);
    auto write = [&](const char* name, const QByteArray& bytes) {
        QFile f(mDir.filePath(QLatin1String(name)));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    };
    write("bad.json", "{\"Hips\": ");
    write("missing-bone.json", R"({"Hips": "Pelvis"})");
    for (QString& a : arguments)
        a = a == QLatin1String("#") ? mScaled : a.replace(QLatin1Char('@'), mDir.path());
    error.replace(QLatin1Char('@'), mDir.path());
    const QString out = mDir.filePath(QStringLiteral("refused.mproj"));
    const Run r = cli(QStringList{QStringLiteral("transfer"), mProject} + arguments + QStringList{QStringLiteral("-o"), out});
    QVERIFY2(r.exitCode == exitCode, qPrintable(r.describe()));
    const QStringList errors = r.err.split(QLatin1Char('\n'), Qt::SkipEmptyParts).filter(QStringLiteral("error:"));
    QCOMPARE(errors.size(), 1);
    QVERIFY2(errors.first().startsWith(error), qPrintable(r.describe()));
    QVERIFY(!QFile::exists(out));
}

QTEST_GUILESS_MAIN(TestCliTransfer)
#include "tst_clitransfer.moc"
