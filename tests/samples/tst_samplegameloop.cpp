// samples/gameloop run headless: it loads each sample rig, spawns, shoots and blows up the ragdolls on its
// schedule, takes bounded fixed steps through a stall, and reports frame cost and a final state with every
// ragdoll above the floor. A missing or damaged .mrig is one line naming the file, and exit code 1.
#include "ProcessRunner.h"
#include "TestFiles.h"

#include <QTemporaryDir>
#include <QTest>

using namespace marionette::test;

class TestSampleGameLoop : public QObject {
    Q_OBJECT

private slots:
    void run_reportsFrameCostAndAllAboveTheFloor_data();
    void run_reportsFrameCostAndAllAboveTheFloor();
    void badRig_oneLineNamingTheFile_data();
    void badRig_oneLineNamingTheFile();
    void badOption_usage();

private:
    static QString gameloop() { return QStringLiteral(SAMPLE_GAMELOOP); }
};

void TestSampleGameLoop::run_reportsFrameCostAndAllAboveTheFloor_data()
{
    QTest::addColumn<QString>("rig"); // empty: the default, the mannequin
    QTest::newRow("mannequin (default)") << QString();
    QTest::newRow("BCN_Epileptic") << QStringLiteral(MARIONETTE_SAMPLE_RIG_DIR "/bcn_epileptic/bcn_epileptic.mrig");
    QTest::newRow("Testwuson") << QStringLiteral(MARIONETTE_SAMPLE_RIG_DIR "/wuson/wuson.mrig");
}

void TestSampleGameLoop::run_reportsFrameCostAndAllAboveTheFloor()
{
    QFETCH(QString, rig);
    QStringList args{QStringLiteral("--count"), QStringLiteral("12"), QStringLiteral("--frames"), QStringLiteral("400")};
    if (!rig.isEmpty())
        args.prepend(rig);
    const ProcessRun r = runProcess(gameloop(), args);
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));

    // The schedule at 75 Hz: shots at 1 s and 4 s (every other ragdoll), the explosion at 2.5 s, the stall at
    // 3/4 of the run, limited to 4 steps.
    QVERIFY2(r.out.contains("frame   75: shot 6 ragdolls"), qPrintable(r.describe()));
    QVERIFY2(r.out.contains("frame  187: explosion"), qPrintable(r.describe()));
    QVERIFY2(r.out.contains("frame  300: shot 6 ragdolls"), qPrintable(r.describe()));
    QVERIFY2(r.out.contains("frame  300: stall of 0.25 s: 4 steps taken"), qPrintable(r.describe()));

    // The accumulator: about 60 steps per second of display time, less what the stall dropped.
    const QStringList time = r.capture(R"(frames 400 \(([\d.]+) s of display time\), (\d+) fixed steps)");
    QVERIFY2(time.size() == 2, qPrintable(r.describe()));
    const double expectedSteps = (time[0].toDouble() - (0.25 - 4.0 / 60.0)) * 60.0;
    QVERIFY2(std::abs(time[1].toDouble() - expectedSteps) <= 1.0, qPrintable(r.describe()));

    const QStringList cost =
        r.capture(R"(frame cost: median ([\d.]+) ms, p95 ([\d.]+) ms, max ([\d.]+) ms; ([\d.]+) us per ragdoll-step)");
    QVERIFY2(cost.size() == 4, qPrintable(r.describe()));
    QVERIFY2(cost[0].toDouble() <= cost[1].toDouble() && cost[1].toDouble() <= cost[2].toDouble(),
             qPrintable(r.describe()));
    QVERIFY2(cost[3].toDouble() > 0.0, qPrintable(r.describe()));

    const QStringList end = r.capture(R"(end: (\d+) ragdolls, (\d+) asleep, (\d+) below the floor)");
    QVERIFY2(end.size() == 3, qPrintable(r.describe()));
    QCOMPARE(end[0].toInt(), 12);
    QCOMPARE(end[2].toInt(), 0);
}

void TestSampleGameLoop::badRig_oneLineNamingTheFile_data()
{
    QTest::addColumn<QByteArray>("bytes"); // null: the file does not exist
    QTest::addColumn<QString>("reason");
    const QByteArray good = readBytes(QStringLiteral(MARIONETTE_SAMPLE_RIG_DIR "/mannequin/mannequin.mrig"));
    QTest::newRow("missing") << QByteArray() << "cannot open";
    QTest::newRow("empty") << QByteArray("") << "";
    QTest::newRow("truncated") << good.left(good.size() / 2) << "";
    QTest::newRow("not a rig") << QByteArray("{\"this is\": \"JSON\"}\n") << "";
    QByteArray flipped = good;
    flipped[flipped.size() - 40] = char(flipped[flipped.size() - 40] ^ 0x5a);
    QTest::newRow("damaged byte") << flipped << "";
}

void TestSampleGameLoop::badRig_oneLineNamingTheFile()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, reason);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("bad.mrig"));
    if (!bytes.isNull())
        QVERIFY(writeBytes(path, bytes));

    const ProcessRun r = runProcess(gameloop(), {path, QStringLiteral("--frames"), QStringLiteral("10")});
    QVERIFY2(r.exitCode == 1, qPrintable(r.describe()));
    const QString line = r.err.trimmed();
    QVERIFY2(!line.contains('\n'), qPrintable(r.describe()));
    QVERIFY2(line.startsWith(QStringLiteral("error: ") + path + QStringLiteral(": ")), qPrintable(r.describe()));
    QVERIFY2(line.size() > QStringLiteral("error: ").size() + path.size() + 2, qPrintable(r.describe()));
    QVERIFY2(line.contains(reason), qPrintable(r.describe()));
    QVERIFY2(r.out.isEmpty(), qPrintable(r.describe()));
}

void TestSampleGameLoop::badOption_usage()
{
    const ProcessRun r = runProcess(gameloop(), {QStringLiteral("--count"), QStringLiteral("0")});
    QVERIFY2(r.exitCode == 2 && r.err.startsWith(QStringLiteral("usage: gameloop")), qPrintable(r.describe()));
}

QTEST_GUILESS_MAIN(TestSampleGameLoop)
#include "tst_samplegameloop.moc"
