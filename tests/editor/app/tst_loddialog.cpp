// Tools ▸ Levels of Detail… in a real window (Xvfb + Mesa), driven as a user would: a level of 12 particles
// generated from the auto-rigged mannequin through the dialog shows in its table with its error and cost
// and is one undo step; Undo removes it (the table follows), Redo brings it back, Remove Level is one step.
#include "DialogDriver.h"
#include "LodDialog.h"
#include "MainWindow.h"
#include "MainWindowTestSupport.h"

#include "marionette/editor/autorig/Lod.h"
#include "marionette/runtime/Rig.h"

#include <QFileInfo>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace marionette;
using namespace marionette::test;

class TestLodDialog : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    void generate_addsAMeasuredLevelAsOneUndoStep();
};

void TestLodDialog::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    qputenv("MARIONETTE_PLUGIN_PATH", QByteArray(MARIONETTE_BIN_DIR "/plugins"));
    if (!QFileInfo::exists(kHuman))
        QFAIL("the sample mannequin is missing");
}

void TestLodDialog::generate_addsAMeasuredLevelAsOneUndoStep()
{
    app::MainWindow w;
    w.show();
    waitForViewport(w);
    editor::Document& doc = w.document();
    QVERIFY(w.importMesh(kHuman, QStringLiteral("humanoid"), 70.f));
    QCOMPARE(doc.rig().particles.size(), std::size_t(20));
    QVERIFY(doc.project().lods.empty());
    const int steps = doc.undoStack()->count();

    int rowsAfterGenerate = -1, rowsAfterUndo = -1, rowsAfterRedo = -1;
    QString particlesCell, boundCell, errorCell, costCell;
    const auto answered = answerNextDialog([&](QDialog* dialog) {
        auto* table = dialog->findChild<QTableWidget*>(QStringLiteral("lodTable"));
        auto* count = dialog->findChild<QSpinBox*>(QStringLiteral("lodParticles"));
        auto* ragdolls = dialog->findChild<QSpinBox*>(QStringLiteral("lodBenchRagdolls"));
        auto* frames = dialog->findChild<QSpinBox*>(QStringLiteral("lodBenchFrames"));
        auto* generate = dialog->findChild<QPushButton*>(QStringLiteral("lodGenerate"));
        if (!table || !count || !ragdolls || !frames || !generate) {
            dialog->reject();
            return;
        }
        ragdolls->setValue(4); // the cost is only checked to be measured here
        frames->setValue(10);
        count->setValue(12);
        generate->click();
        rowsAfterGenerate = table->rowCount();
        if (rowsAfterGenerate == 1) {
            particlesCell = table->item(0, 1)->text();
            boundCell = table->item(0, 2)->text();
            errorCell = table->item(0, 3)->text();
            costCell = table->item(0, 5)->text();
        }
        doc.undoStack()->undo(); // the table follows the document
        rowsAfterUndo = table->rowCount();
        doc.undoStack()->redo();
        rowsAfterRedo = table->rowCount();
        dialog->reject();
    });
    w.action(QStringLiteral("toolLevelsOfDetail"))->trigger();
    QTRY_VERIFY(answered->seen);
    QCOMPARE(answered->objectName, QStringLiteral("lodDialog"));
    QCOMPARE(rowsAfterGenerate, 1);
    QCOMPARE(particlesCell, QStringLiteral("12"));
    const std::size_t bound = editor::boundBones(doc.rig()).size();
    QCOMPARE(boundCell, QStringLiteral("%1/%1").arg(bound));
    QVERIFY2(errorCell.toDouble() > 0.0, qPrintable(errorCell));
    QVERIFY2(costCell.toDouble() > 0.0, qPrintable(costCell));
    QCOMPARE(rowsAfterUndo, 0);
    QCOMPARE(rowsAfterRedo, 1);

    // One undo step, named for the level; Undo removes the level and nothing else.
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Generate Level of Detail (12 particles)"));
    QCOMPARE(doc.project().lods.size(), std::size_t(1));
    const project::LodLevel& level = doc.project().lods[0];
    QCOMPARE(level.rig.particles.size(), std::size_t(12));
    QCOMPARE(editor::boundBones(level.rig), editor::boundBones(doc.rig()));
    QVERIFY(level.measurement && level.measurement->benchRagdolls == 4u && level.measurement->benchFrames == 10u);
    // File ▸ Export writes the level beside the rig, as `marionette export` does; it loads with its 12 particles.
    QTemporaryDir out;
    QVERIFY(w.exportRig(out.filePath(QStringLiteral("hero.mrig"))));
    std::string error;
    const std::shared_ptr<const runtime::Rig> exported = runtime::Rig::load(out.filePath(QStringLiteral("hero.lod1.mrig")).toStdString(), &error);
    QVERIFY2(exported, error.c_str());
    QCOMPARE(exported->description().particles.size(), std::size_t(12));
    QVERIFY(!QFileInfo::exists(out.filePath(QStringLiteral("hero.lod2.mrig"))));
    const rig::RigDescription rigBefore = doc.rig();
    doc.undoStack()->undo();
    QVERIFY(doc.project().lods.empty());
    QCOMPARE(doc.rig().particles.size(), rigBefore.particles.size());
    QCOMPARE(doc.undoStack()->index(), steps);
}

QTEST_MAIN(TestLodDialog)
#include "tst_loddialog.moc"
