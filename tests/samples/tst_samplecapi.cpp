// samples/c_api run headless: the C program loads the sample rig through marionette.h, checks the bind-pose
// palette, steps, hits and reads the palette, and ends with every ragdoll above the floor; a rig it cannot
// load is one line naming the file, and exit code 1.
#include "ProcessRunner.h"
#include "TestFiles.h"

#include <QTemporaryDir>
#include <QTest>

using namespace marionette::test;

class TestSampleCApi : public QObject {
    Q_OBJECT

private slots:
    void run_readsThePaletteAndStaysAboveTheFloor();
    void badRig_oneLineNamingTheFile();
};

void TestSampleCApi::run_readsThePaletteAndStaysAboveTheFloor()
{
    const ProcessRun r = runProcess(QStringLiteral(SAMPLE_C_API), {});
    QVERIFY2(r.exitCode == 0 && r.err.isEmpty(), qPrintable(r.describe()));
    QVERIFY2(r.out.contains("mannequin.mrig: 20 particles, 43 sticks, 21 bones"), qPrintable(r.describe()));
    QVERIFY2(r.out.contains("spawned 4 ragdolls"), qPrintable(r.describe()));
    QVERIFY2(r.out.contains("palette: 21 skinning matrices per ragdoll, each the spawn placement"),
             qPrintable(r.describe()));
    QVERIFY2(r.out.contains("frame 60: shot ragdoll 0"), qPrintable(r.describe()));
    const QStringList end = r.capture(R"(end: 4 ragdolls after 300 frames, (\d) asleep, lowest particle at ([-\d.]+) m)");
    QVERIFY2(end.size() == 2, qPrintable(r.describe()));
    QVERIFY2(end[1].toDouble() > -0.01, qPrintable(r.describe()));
}

void TestSampleCApi::badRig_oneLineNamingTheFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString missing = dir.filePath(QStringLiteral("missing.mrig"));
    const QString garbage = dir.filePath(QStringLiteral("garbage.mrig"));
    QVERIFY(writeBytes(garbage, QByteArray("MRIG but not really a rig")));
    for (const QString& path : {missing, garbage}) {
        const ProcessRun r = runProcess(QStringLiteral(SAMPLE_C_API), {path});
        QVERIFY2(r.exitCode == 1, qPrintable(r.describe()));
        QVERIFY2(r.err.startsWith(QStringLiteral("error: ")) && r.err.contains(path + QStringLiteral(": ")),
                 qPrintable(r.describe()));
        QVERIFY2(r.err.trimmed().count('\n') == 0, qPrintable(r.describe()));
    }
}

QTEST_GUILESS_MAIN(TestSampleCApi)
#include "tst_samplecapi.moc"
