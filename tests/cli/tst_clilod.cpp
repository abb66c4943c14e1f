// `marionette lod`, and the levels in `export` and `info`, run as a user runs them (QProcess): the mannequin
// sample reduced to 12 and 7 particles, stored in the project, exported as NAME.lod1.mrig and NAME.lod2.mrig
// beside NAME.mrig, and described by `info` with each level's error and cost; refusals with one `error:` line.
#include "marionette/project/ProjectFile.h"
#include "marionette/rig/Mrig.h"

#include "ProcessRunner.h"

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

Run cli(const QStringList& arguments) { return test::runProcess(QStringLiteral(MARIONETTE_CLI), arguments, 300000); }

const QString kSample = QStringLiteral(MARIONETTE_SAMPLES "/characters/mannequin");

bool matches(const QString& text, const QString& pattern) { return QRegularExpression(pattern).match(text).hasMatch(); }

} // namespace

class TestCliLod : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void lod_storesMeasuredLevelsThatExportAndInfoShow();
    void lod_refusals_data();
    void lod_refusals();

private:
    QTemporaryDir mDir;
    QString mProject;
};

void TestCliLod::initTestCase()
{
    QVERIFY(mDir.isValid());
    mProject = mDir.filePath(QStringLiteral("mannequin.mproj"));
    QVERIFY(QFile::copy(kSample + QStringLiteral("/mannequin.mproj"), mProject));
    QVERIFY(QFile::copy(kSample + QStringLiteral("/mannequin.glb"), mDir.filePath(QStringLiteral("mannequin.glb"))));
}

void TestCliLod::lod_storesMeasuredLevelsThatExportAndInfoShow()
{
    const QString out = mDir.filePath(QStringLiteral("levels.mproj"));
    const Run r = cli({QStringLiteral("lod"), mProject, QStringLiteral("--levels"), QStringLiteral("7,12"),
                       QStringLiteral("-o"), out, QStringLiteral("--bench-ragdolls"), QStringLiteral("8"),
                       QStringLiteral("--bench-frames"), QStringLiteral("20")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QVERIFY2(r.out.startsWith(QStringLiteral("wrote %1: 2 levels of %2 (error over 4 runs; cost over 8 ragdolls x 20 steps)")
                                  .arg(out, mProject)), qPrintable(r.out));
    // The table: the full rig, then the finer level first; every level binds all 19 bones.
    QVERIFY2(matches(r.out, QStringLiteral("\n  full +20 +19/19 +0\\.00 cm +0\\.00 cm +[0-9.]+\n")), qPrintable(r.out));
    QVERIFY2(matches(r.out, QStringLiteral("\n  lod1 +12 +19/19 +[0-9.]+ cm +[0-9.]+ cm +[0-9.]+ +[0-9.]+ s, ")), qPrintable(r.out));
    QVERIFY2(matches(r.out, QStringLiteral("\n  lod2 +7 +19/19 +[0-9.]+ cm +[0-9.]+ cm +[0-9.]+ +[0-9.]+ s, ")), qPrintable(r.out));

    project::Project p;
    const project::LoadResult loaded = project::loadProject(out, p);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error));
    QCOMPARE(p.lods.size(), std::size_t(2));
    QCOMPARE(p.lods[0].targetParticles, 12u);
    QCOMPARE(p.lods[1].targetParticles, 7u);
    QCOMPARE(p.lods[0].rig.particles.size(), std::size_t(12));
    QCOMPARE(p.lods[1].rig.particles.size(), std::size_t(7));
    for (const project::LodLevel& level : p.lods) {
        QVERIFY(level.measurement.has_value());
        QCOMPARE(level.measurement->benchRagdolls, 8u);
        QCOMPARE(level.measurement->benchFrames, 20u);
        QCOMPARE(level.measurement->runs, 4u);
        QVERIFY(level.measurement->errorMeanCm > 0.f);
    }

    // export: the rig and one file per level beside it, each said so.
    const QString rigPath = mDir.filePath(QStringLiteral("hero.mrig"));
    const Run e = cli({QStringLiteral("export"), out, QStringLiteral("-o"), rigPath});
    QVERIFY2(e.exitCode == 0, qPrintable(e.describe()));
    for (int k = 1; k <= 2; ++k) {
        const QString levelPath = mDir.filePath(QStringLiteral("hero.lod%1.mrig").arg(k));
        QVERIFY2(e.out.contains(QStringLiteral("wrote %1 (").arg(levelPath)), qPrintable(e.out));
        QVERIFY2(e.out.contains(QStringLiteral("level of detail %1 of 2, %2 particles, 19 bound bones").arg(k).arg(k == 1 ? 12 : 7)),
                 qPrintable(e.out));
        rig::RigDescription level;
        std::string error;
        QVERIFY2(rig::loadMrig(levelPath.toStdString(), level, &error), error.c_str());
        QCOMPARE(level.particles.size(), std::size_t(k == 1 ? 12 : 7));
        QCOMPARE(level.bones.size(), p.rig.bones.size());
    }

    // info: each level's particles, bound bones, error and cost, as stored.
    const Run i = cli({QStringLiteral("info"), out});
    QVERIFY2(i.exitCode == 0, qPrintable(i.describe()));
    QVERIFY2(i.out.contains(QStringLiteral("  levels      2 of detail (exported as NAME.lodK.mrig)\n")), qPrintable(i.out));
    for (std::size_t k = 0; k < 2; ++k) {
        const project::LodMeasurement& m = *p.lods[k].measurement;
        const QString line = QStringLiteral("    lod%1  %2 particles, 19/19 bones bound, error mean %3 cm, max %4 cm, %5 us/ragdoll-step "
                                            "(4 runs, %6 frames; 8 ragdolls x 20 steps)\n")
                                 .arg(k + 1).arg(p.lods[k].rig.particles.size())
                                 .arg(double(m.errorMeanCm), 0, 'f', 2).arg(double(m.errorMaxCm), 0, 'f', 2)
                                 .arg(double(m.usPerRagdollStep), 0, 'f', 2).arg(m.frames);
        QVERIFY2(i.out.contains(line), qPrintable(line + i.out));
    }
    const Run j = cli({QStringLiteral("info"), QStringLiteral("--json"), out});
    QVERIFY2(j.exitCode == 0, qPrintable(j.describe()));
    const QJsonArray lods = QJsonDocument::fromJson(j.out.toUtf8()).object()[QStringLiteral("lods")].toArray();
    QCOMPARE(lods.size(), 2);
    QCOMPARE(lods[1].toObject()[QStringLiteral("particles")].toInt(), 7);
    QCOMPARE(lods[1].toObject()[QStringLiteral("boundBones")].toInt(), 19);
    QCOMPARE(lods[1].toObject()[QStringLiteral("errorMeanCm")].toDouble(), double(p.lods[1].measurement->errorMeanCm));
    QCOMPARE(lods[1].toObject()[QStringLiteral("usPerRagdollStep")].toDouble(), double(p.lods[1].measurement->usPerRagdollStep));
}

void TestCliLod::lod_refusals_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("error");
    const QString out = QStringLiteral("never.mproj");
    QTest::newRow("no levels") << QStringList{QStringLiteral("-o"), out} << 2 << QStringLiteral("error: missing --levels N[,N...]");
    QTest::newRow("no output") << QStringList{QStringLiteral("--levels"), QStringLiteral("12")} << 2
                               << QStringLiteral("error: missing -o OUT.mproj");
    QTest::newRow("not a count") << QStringList{QStringLiteral("--levels"), QStringLiteral("12,many"), QStringLiteral("-o"), out}
                                 << 2 << QStringLiteral("error: --levels: 'many' is not a particle count");
    QTest::newRow("too few") << QStringList{QStringLiteral("--levels"), QStringLiteral("2"), QStringLiteral("-o"), out} << 1
                             << QStringLiteral("--levels 2: a level needs 3 or more particles and fewer than the full rig's 20, not 2");
    QTest::newRow("as many as the rig") << QStringList{QStringLiteral("--levels"), QStringLiteral("20"), QStringLiteral("-o"), out}
                                        << 1 << QStringLiteral("--levels 20: a level needs");
    QTest::newRow("bad bench") << QStringList{QStringLiteral("--levels"), QStringLiteral("12"), QStringLiteral("-o"), out,
                                              QStringLiteral("--bench-frames"), QStringLiteral("0")}
                               << 2 << QStringLiteral("error: --bench-frames must be an integer in [1, 1000000], not '0'");
}

void TestCliLod::lod_refusals()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, error);
    const Run r = cli(QStringList{QStringLiteral("lod"), mProject} + arguments);
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY2(r.err.startsWith(QStringLiteral("error: ")) && r.err.contains(error), qPrintable(r.describe()));
    if (exitCode == 1)
        QVERIFY2(r.err.startsWith(QStringLiteral("error: %1: ").arg(mProject)), qPrintable(r.err));
    QVERIFY(!QFile::exists(QStringLiteral("never.mproj")));
}

QTEST_GUILESS_MAIN(TestCliLod)
#include "tst_clilod.moc"
