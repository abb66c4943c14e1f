// samples/cloth run headless: the curtain hangs from its pins, the drag tears a strip out of it that falls to
// the floor, and with tearing out of reach nothing tears and nothing falls.
#include "ProcessRunner.h"
#include "TestFiles.h"

#include <QTest>

using namespace marionette::test;

class TestSampleCloth : public QObject {
    Q_OBJECT

private slots:
    void drag_tearsAStripAndTheRestHangs();
    void drag_tearsNothingWhenSticksHold();
    void drag_intoTheFloorThrowsNothing();
};

void TestSampleCloth::drag_tearsAStripAndTheRestHangs()
{
    const ProcessRun r = runProcess(QStringLiteral(SAMPLE_CLOTH), {QStringLiteral("--ascii")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QVERIFY2(r.out.contains("cloth: 40 x 30 particles 5 cm apart, 2330 sticks"), qPrintable(r.describe()));
    QVERIFY2(r.out.contains("frame 60: grab 16 particles") && r.out.contains("frame 120: let go"),
             qPrintable(r.describe()));
    const QStringList torn = r.capture(R"(torn: (\d+) of 2330 sticks)");
    QVERIFY2(torn.size() == 1, qPrintable(r.describe()));
    // A strip tears out (about a hundred sticks), not a shred of the whole curtain.
    QVERIFY2(torn[0].toInt() >= 30 && torn[0].toInt() <= 400, qPrintable(r.describe()));
    const QStringList hangs =
        r.capture(R"(hangs: highest free particle at ([-\d.]+) m, pins at ([\d.]+) m: below the pins; (\d+) particles torn off on the floor)");
    QVERIFY2(hangs.size() == 3, qPrintable(r.describe()));
    QVERIFY2(hangs[0].toDouble() < hangs[1].toDouble(), qPrintable(r.describe()));
    QVERIFY2(hangs[2].toInt() > 0, qPrintable(r.describe()));
    QVERIFY2(r.out.contains("|     ####"), qPrintable(r.describe())); // the ASCII drawing
}

void TestSampleCloth::drag_tearsNothingWhenSticksHold()
{
    const ProcessRun r = runProcess(QStringLiteral(SAMPLE_CLOTH), {QStringLiteral("--tear"), QStringLiteral("1000")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QVERIFY2(r.out.contains("torn: 0 of 2330 sticks"), qPrintable(r.describe()));
    QVERIFY2(r.out.contains("below the pins; 0 particles torn off on the floor"), qPrintable(r.describe()));
}

// A curtain 2.35 m long hangs with its bottom edge 15 cm above the floor, so the hand drags the patch 35 cm
// into it. Let go there, the patch comes out of the floor at no more than 5 m/s; it used to leave at 20 m/s
// and particles flew 15 m above the pins.
void TestSampleCloth::drag_intoTheFloorThrowsNothing()
{
    const ProcessRun r = runProcess(QStringLiteral(SAMPLE_CLOTH), {QStringLiteral("--columns"), QStringLiteral("64"),
                                                                  QStringLiteral("--rows"), QStringLiteral("48")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    const QStringList hangs =
        r.capture(R"(hangs: highest free particle at ([-\d.]+) m, pins at ([\d.]+) m: below the pins)");
    QVERIFY2(hangs.size() == 2, qPrintable(r.describe()));
    QVERIFY2(hangs[0].toDouble() < hangs[1].toDouble(), qPrintable(r.describe()));
}

QTEST_GUILESS_MAIN(TestSampleCloth)
#include "tst_samplecloth.moc"
