// Tools ▸ Fit Limits from Animation… in a real window (Xvfb + Mesa), driven as a user would: the BCN_Epileptic
// sample opened, the dialog found, a clip file added (one of another character refused at Fit), the clip
// ticked, the margin set (remembered), Fit: the angular constraints take the fitted limits as one undo step,
// the report lists every joint, and one Undo restores them all.
#include "DialogDriver.h"
#include "FitLimitsDialog.h"
#include "LogPanel.h"
#include "MainWindow.h"
#include "MainWindowTestSupport.h"

#include "marionette/editor/preview/LimitFit.h"

#include <QDoubleSpinBox>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace marionette;
using namespace marionette::test;

namespace {

const QString kProject = QStringLiteral(MARIONETTE_SAMPLES "/characters/bcn_epileptic/bcn_epileptic.mproj");
const QString kClipFile = QStringLiteral(MARIONETTE_SAMPLES "/characters/bcn_epileptic/BCN_Epileptic.X");
const QString kStranger = QStringLiteral(MARIONETTE_SAMPLES "/characters/wuson/Testwuson.X");

bool sameLimits(const rig::AngularConstraint& a, const rig::AngularConstraint& b)
{
    return a.id == b.id && a.coneAngle == b.coneAngle && a.twistMin == b.twistMin && a.twistMax == b.twistMax &&
           a.swing1 == b.swing1 && a.swing2 == b.swing2 && a.stiffness == b.stiffness && a.limit == b.limit;
}

/// Checks only the rows whose text starts with `clip` and ends with `source`.
void tickOnly(QListWidget* list, const QString& clip, const QString& source)
{
    for (int row = 0; row < list->count(); ++row) {
        QListWidgetItem* item = list->item(row);
        const bool wanted = item->text().startsWith(clip + QStringLiteral(" — ")) && item->text().contains(source);
        item->setCheckState(wanted ? Qt::Checked : Qt::Unchecked);
    }
}

} // namespace

class TestFitLimits : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    void fitLimits_dialogFitsAsOneUndoStep();

  private:
    QTemporaryDir mRecovery;
};

void TestFitLimits::initTestCase()
{
    useTestEnvironment(mRecovery.path());
    QSettings().remove(QStringLiteral("limits/fitMargin"));
}

void TestFitLimits::fitLimits_dialogFitsAsOneUndoStep()
{
    app::MainWindow w;
    w.show();
    waitForViewport(w);
    QVERIFY2(w.openProject(kProject), qPrintable(w.logPanel()->toPlainText()));
    editor::Document& doc = w.document();
    QVERIFY(doc.mesh());
    QCOMPARE(doc.mesh()->animations.size(), std::size_t(1));
    const rig::RigDescription before = doc.rig();
    const int steps = doc.undoStack()->count();

    // What the fit must give: the clip at 7.5°, computed here on the mesh the window loaded.
    editor::LimitFitOptions options;
    options.margin = radians(7.5f);
    editor::LimitFitResult expected;
    std::string error;
    QVERIFY(editor::fitLimits(before, {{doc.mesh().get(), 0, "mesh"}}, options, expected, error));
    QVERIFY(!expected.changed().empty());

    int clipRows = 0, reportRows = 0;
    double shownMargin = -1.0;
    QString refused, fitted;
    const auto answered = answerNextDialog([&](QDialog* dialog) {
        auto* fit = qobject_cast<app::FitLimitsDialog*>(dialog);
        if (!fit) {
            dialog->reject();
            return;
        }
        shownMargin = fit->marginBox()->value();
        // Another character's clips: listed, refused at Fit with the file named; no undo step.
        QVERIFY(fit->addClipFile(kStranger));
        tickOnly(fit->clipList(), QStringLiteral("Wuson_Run"), kStranger);
        fit->findChild<QPushButton*>(QStringLiteral("fitButton"))->click();
        refused = fit->status();
        // The same character's file: its clip ticked alone, margin 7.5°, Fit.
        QVERIFY(fit->addClipFile(kClipFile));
        clipRows = fit->clipList()->count();
        tickOnly(fit->clipList(), QStringLiteral("Epileptisch"), kClipFile);
        fit->marginBox()->setValue(7.5);
        fit->findChild<QPushButton*>(QStringLiteral("fitButton"))->click();
        fitted = fit->status();
        reportRows = fit->reportTable()->rowCount();
        dialog->reject(); // Close
    });
    w.action(QStringLiteral("toolFitLimits"))->trigger();
    QTRY_VERIFY(answered->seen);
    QCOMPARE(answered->objectName, QStringLiteral("fitLimitsDialog"));
    QCOMPARE(shownMargin, 5.0); // the default, nothing remembered yet
    QCOMPARE(refused, QStringLiteral("%1: shares no bone name with the rig").arg(kStranger));
    QCOMPARE(clipRows, 1 + 3 + 1); // the mesh's clip, Testwuson's three, the file's one
    QVERIFY2(fitted.startsWith(QStringLiteral("%1 of %2 angular limits changed").arg(expected.changed().size()).arg(before.angular.size())),
             qPrintable(fitted));
    QCOMPARE(reportRows, int(before.angular.size()));
    QCOMPARE(QSettings().value(QStringLiteral("limits/fitMargin")).toDouble(), 7.5);

    // One undo step holding every fitted limit.
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Fit Limits from Animation"));
    QCOMPARE(doc.rig().angular.size(), before.angular.size());
    int differ = 0;
    for (std::size_t i = 0; i < before.angular.size(); ++i) {
        QVERIFY2(sameLimits(doc.rig().angular[i], expected.constraints[i]), before.angular[i].name.c_str());
        differ += sameLimits(doc.rig().angular[i], before.angular[i]) ? 0 : 1;
    }
    QCOMPARE(std::size_t(differ), expected.changed().size());

    // Undo restores every limit at once; Redo brings the fit back.
    doc.undoStack()->undo();
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    for (std::size_t i = 0; i < before.angular.size(); ++i)
        QVERIFY2(sameLimits(doc.rig().angular[i], before.angular[i]), before.angular[i].name.c_str());
    doc.undoStack()->redo();
    for (std::size_t i = 0; i < before.angular.size(); ++i)
        QVERIFY(sameLimits(doc.rig().angular[i], expected.constraints[i]));

    // The margin is remembered for the next time.
    const auto again = answerNextDialog([&](QDialog* dialog) {
        if (auto* fit = qobject_cast<app::FitLimitsDialog*>(dialog))
            shownMargin = fit->marginBox()->value();
        dialog->reject();
    });
    w.action(QStringLiteral("toolFitLimits"))->trigger();
    QTRY_VERIFY(again->seen);
    QCOMPARE(shownMargin, 7.5);
    QCOMPARE(doc.undoStack()->count(), steps + 1); // closing without Fit adds no step
}

int main(int argc, char** argv)
{
    TestFitLimits test;
    return marionette::test::runGuiTests(test, argc, argv);
}
#include "tst_fitlimits.moc"
