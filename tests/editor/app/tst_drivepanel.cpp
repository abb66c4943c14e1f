// The Drive panel (powered ragdolls) in a real window (Xvfb + Mesa), on the mannequin sample and its limp /
// stagger / balanced / stiff profiles: the table lists the runtime's parts with inherited and own values told
// apart; a cell edited with Edit ▸ Symmetry on sets the part and its partner in one undo step; rows select
// elements and the other way round; the defaults; the profile actions; a refused name; the findings. Then the
// driven preview through the tool bar and the Preview menu: the walk played through the edited profile, a hit
// with the Hit tool, a live profile switch, Kill and Get Up, the phase in the status bar, and every driven
// triangle coloured by its own tracking error.
#include "DrivePanel.h"
#include "MainWindow.h"
#include "MainWindowTestSupport.h"
#include "PreviewController.h"
#include "PreviewToolBar.h"
#include "viewport/RigDrawBuilder.h"
#include "viewport/Viewport.h"

#include "marionette/editor/document/DriveProfiles.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <algorithm>
#include <cmath>

using namespace marionette;
using namespace marionette::test;
using project::ElementKind;
using project::ElementRef;

namespace {

/// The table row of the part named `name` (the Part column's text), or -1.
int rowNamed(QTableWidget* table, const QString& name)
{
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->item(r, app::DrivePanel::kNameColumn)->text() == name)
            return r;
    return -1;
}

int columnOf(const QString& key)
{
    return int(editor::driveGainKeys().indexOf(key)) + 1;
}

ElementRef triangleNamed(const rig::RigDescription& rig, const char* name)
{
    for (const rig::Triangle& t : rig.triangles)
        if (t.name == name)
            return {ElementKind::Triangle, t.id};
    qFatal("no triangle %s", name);
    return {};
}

const rig::DriveProfile& profileNamed(const rig::RigDescription& rig, const char* name)
{
    const std::int32_t i = editor::driveProfileNamed(rig, QString::fromLatin1(name));
    if (i == rig::kNone)
        qFatal("no profile %s", name);
    return rig.driveProfiles[std::size_t(i)];
}

} // namespace

class TestDrivePanel : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    void tableEditsWithSymmetryAndSelection();
    void defaultsActionsAndFindings();
    void drivenPreviewHitKillGetUp();

  private:
    QTemporaryDir mDir;
};

void TestDrivePanel::initTestCase()
{
    useTestEnvironment(mDir.filePath(QStringLiteral("recovery")));
    if (!QFileInfo::exists(kMannequin))
        QFAIL("the sample mannequin is missing");
}

// View ▸ Drive Panel shows the panel; the balanced profile's table has a row per runtime part; the left upper
// arm's motor edited with symmetry on changes the right one too, one undo reverts both; rows and the
// document's selection follow each other.
void TestDrivePanel::tableEditsWithSymmetryAndSelection()
{
    app::MainWindow w;
    w.show();
    waitForViewport(w);
    QVERIFY(w.openProject(kMannequin));
    editor::Document& doc = w.document();
    w.action(QStringLiteral("viewDrivePanel"))->trigger();
    auto* dock = w.findChild<QDockWidget*>(QStringLiteral("driveDock"));
    QVERIFY(dock && dock->isVisible());
    app::DrivePanel* panel = w.drivePanel();
    QTRY_VERIFY(panel->isVisible());
    QListWidget* profiles = panel->profileList();
    QCOMPARE(profiles->count(), 4);
    QCOMPARE(profiles->item(2)->text(), QStringLiteral("balanced"));
    profiles->setCurrentRow(2);
    const rig::ElementId balanced = profileNamed(doc.rig(), "balanced").id;
    QCOMPARE(panel->currentProfile(), balanced);

    // Every part the runtime drives: the 11 triangles and the neck's stick.
    QTableWidget* table = panel->partsTable();
    QCOMPARE(table->rowCount(), int(editor::driveParts(doc.rig()).size()));
    QCOMPARE(table->rowCount(), int(doc.rig().triangles.size()) + 1);
    const int armL = rowNamed(table, QStringLiteral("upperarm_l")),
              armR = rowNamed(table, QStringLiteral("upperarm_r"));
    const int shin = rowNamed(table, QStringLiteral("shin_l"));
    QVERIFY(armL >= 0 && armR >= 0 && shin >= 0);
    const int motor = columnOf(QStringLiteral("motorFrequency")), pin = columnOf(QStringLiteral("pinFrequency"));
    // The arms inherit the defaults (30 Hz, grey italic); the shins have their own pins (bold).
    QCOMPARE(table->item(armL, motor)->data(Qt::EditRole).toDouble(), 30.0);
    QVERIFY(!table->item(armL, motor)->data(app::DrivePanel::kOverrideRole).toBool());
    QVERIFY(table->item(armL, motor)->font().italic());
    QVERIFY(table->item(shin, pin)->data(app::DrivePanel::kOverrideRole).toBool());
    QVERIFY(table->item(shin, pin)->font().bold());
    QCOMPARE(
        table->item(shin, pin)->data(Qt::EditRole).toDouble(),
        double(editor::driveGainsOf(doc.rig(), profileNamed(doc.rig(), "balanced"), triangleNamed(doc.rig(), "shin_l"))
                   .pinFrequency));

    // Symmetry on: the panel says so, and the left arm's motor reaches the right arm.
    QVERIFY(!panel->symmetricLabel()->isVisible());
    w.action(QStringLiteral("editSymmetry"))->trigger();
    QVERIFY(panel->symmetricLabel()->isVisible());
    const rig::DriveProfile before = profileNamed(doc.rig(), "balanced");
    const int steps = doc.undoStack()->count();
    table->selectRow(armL);
    table->item(armL, motor)->setData(Qt::EditRole, 12.0); // what the cell's spin box commits
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    const ElementRef left = triangleNamed(doc.rig(), "upperarm_l"), right = triangleNamed(doc.rig(), "upperarm_r");
    QCOMPARE(editor::driveGainsOf(doc.rig(), profileNamed(doc.rig(), "balanced"), left).motorFrequency, 12.f);
    QCOMPARE(editor::driveGainsOf(doc.rig(), profileNamed(doc.rig(), "balanced"), right).motorFrequency, 12.f);
    QCOMPARE(table->item(armR, motor)->data(Qt::EditRole).toDouble(), 12.0);
    QVERIFY(table->item(armR, motor)->data(app::DrivePanel::kOverrideRole).toBool());
    w.action(QStringLiteral("editUndo"))->trigger();
    QVERIFY(editor::sameDriveProfiles({profileNamed(doc.rig(), "balanced")}, {before}));
    QCOMPARE(table->item(armR, motor)->data(Qt::EditRole).toDouble(), 30.0);
    QVERIFY(!table->item(armR, motor)->data(app::DrivePanel::kOverrideRole).toBool());
    w.action(QStringLiteral("editSymmetry"))->trigger();

    // Rows select the triangles in the document (the viewport's selection) and the other way round.
    table->clearSelection();
    table->selectRow(armL);
    QCOMPARE(doc.selection(), std::vector<ElementRef>{left});
    doc.setSelection({right});
    const QModelIndexList rows = table->selectionModel()->selectedRows();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows.front().row(), armR);

    // Several rows edited at once (without symmetry): the kinematic box of one of two selected rows.
    table->clearSelection();
    table->selectionModel()->select(table->model()->index(armL, 0),
                                    QItemSelectionModel::Select | QItemSelectionModel::Rows);
    table->selectionModel()->select(table->model()->index(shin, 0),
                                    QItemSelectionModel::Select | QItemSelectionModel::Rows);
    table->item(shin, columnOf(QStringLiteral("kinematic")))->setCheckState(Qt::Checked);
    QVERIFY(editor::driveGainsOf(doc.rig(), profileNamed(doc.rig(), "balanced"), left).kinematic);
    QVERIFY(editor::driveGainsOf(doc.rig(), profileNamed(doc.rig(), "balanced"), triangleNamed(doc.rig(), "shin_l"))
                .kinematic);
    QVERIFY(!editor::driveGainsOf(doc.rig(), profileNamed(doc.rig(), "balanced"), right).kinematic);
    // Use Defaults on the left arm takes its entry away again.
    table->clearSelection();
    table->selectRow(armL);
    w.action(QStringLiteral("driveUseDefaults"))->trigger();
    QVERIFY(!editor::findDrivePart(doc.rig(), profileNamed(doc.rig(), "balanced"), left));
}

// The defaults' editors, Add / Duplicate / Rename / Remove through their actions, a refused rename, and a
// profile the panel flags.
void TestDrivePanel::defaultsActionsAndFindings()
{
    app::MainWindow w;
    w.show();
    waitForViewport(w);
    QVERIFY(w.openProject(kMannequin));
    editor::Document& doc = w.document();
    app::DrivePanel* panel = w.drivePanel();
    panel->profileList()->setCurrentRow(1); // stagger
    auto* hz = qobject_cast<QDoubleSpinBox*>(panel->defaultsEditor(QStringLiteral("motorFrequency")));
    QVERIFY(hz);
    QCOMPARE(hz->value(), 5.0);
    QCOMPARE(hz->maximum(), 60.0); // the field's range
    hz->setValue(7.5);
    QCOMPARE(profileNamed(doc.rig(), "stagger").defaults.motorFrequency, 7.5f);
    // Rows that inherit show the new default.
    QTableWidget* table = panel->partsTable();
    QCOMPARE(table->item(rowNamed(table, QStringLiteral("chest")), columnOf(QStringLiteral("motorFrequency")))
                 ->data(Qt::EditRole)
                 .toDouble(),
             7.5);

    const std::size_t count = doc.rig().driveProfiles.size();
    w.action(QStringLiteral("driveDuplicateProfile"))->trigger();
    QCOMPARE(doc.rig().driveProfiles.size(), count + 1);
    QCOMPARE(doc.rig().driveProfiles.back().name, std::string("stagger copy"));
    QCOMPARE(panel->currentProfile(), doc.rig().driveProfiles.back().id);
    QVERIFY(panel->renameCurrentProfile(QStringLiteral("shove")));
    QCOMPARE(doc.rig().driveProfiles.back().name, std::string("shove"));
    // A taken name is refused and said; the list keeps the name the profile has.
    QSignalSpy problems(panel, &app::DrivePanel::problem);
    panel->profileList()->currentItem()->setText(QStringLiteral("limp"));
    QCOMPARE(problems.count(), 1);
    QVERIFY(problems.front().front().toString().contains(QStringLiteral("'limp' exists already")));
    QCOMPARE(panel->profileList()->currentItem()->text(), QStringLiteral("shove"));
    w.action(QStringLiteral("driveAddProfile"))->trigger();
    QCOMPARE(doc.rig().driveProfiles.back().name, std::string("profile"));
    QVERIFY(doc.rig().driveProfiles.back().defaults == rig::DriveGains{});
    w.action(QStringLiteral("driveRemoveProfile"))->trigger();
    QCOMPARE(doc.rig().driveProfiles.size(), count + 1);

    // A profile whose name clashes (an old or hand-edited project) is listed in the panel's findings.
    QVERIFY(!panel->findingsLabel()->isVisible());
    project::Project p = doc.snapshot();
    p.rig.driveProfiles[2].name = "limp";
    doc.adopt(std::move(p), QString(), true);
    QTRY_VERIFY(panel->findingsLabel()->isVisible());
    QVERIFY2(panel->findingsLabel()->text().contains(QStringLiteral("name used by driveProfiles[0]")),
             qPrintable(panel->findingsLabel()->text()));
}

// The tracking colour each driven triangle should have, from the session's own errors (independently of the
// controller's mapping): max(metres / 3 cm, radians / 5°) through RigDrawBuilder::trackingColour.
static std::vector<viewport::Colour> expectedTriangleColours(const editor::PreviewSession& session)
{
    const std::vector<editor::PreviewSession::PartError> errors = session.partTrackingErrors();
    std::vector<viewport::Colour> out;
    for (std::size_t t = 0; t < session.rig().triangles.size() && t < errors.size(); ++t) // triangles come first
        out.push_back(viewport::RigDrawBuilder::trackingColour(
            std::max(errors[t].metres / 0.03f, errors[t].radians / (5.f * 3.14159265f / 180.f))));
    return out;
}

// The face colour of each triangle the viewport draws for its current scene (triangles only).
static std::vector<viewport::Colour> drawnTriangleColours(const viewport::Viewport& view)
{
    viewport::DisplayOptions only;
    only.showSkeleton = only.showParticles = only.showSticks = only.showAngular = only.showShapes = false;
    viewport::DrawList list;
    viewport::RigDrawBuilder::build(list, view.scene(), viewport::RigPose(view.scene()), only);
    std::vector<viewport::Colour> out;
    for (std::size_t k = 0; k + 2 < list.faces.size(); k += 3)
        out.push_back(list.faces[k].colour.withAlpha(1.f));
    return out;
}

static bool near(const viewport::Colour& a, const viewport::Colour& b)
{
    return std::fabs(a.r - b.r) < 1e-3f && std::fabs(a.g - b.g) < 1e-3f && std::fabs(a.b - b.b) < 1e-3f;
}

// The profile edited in the panel with symmetry on (both arms, one undo step), then the walk played through the
// drives from the tool bar; 'stagger' chosen live; a hit with the Hit tool; Kill; Get Up; the triangles drawn in
// their own tracking colours.
void TestDrivePanel::drivenPreviewHitKillGetUp()
{
    app::MainWindow w;
    w.show();
    waitForViewport(w);
    QVERIFY(w.openProject(kMannequin));
    QTRY_VERIFY(w.document().mesh()); // the clips come with the mesh
    editor::Document& doc = w.document();

    // The stiff profile's left forearm, edited in the panel with symmetry on: both forearms, one undo step.
    app::DrivePanel* panel = w.drivePanel();
    QVERIFY(panel->setCurrentProfile(profileNamed(doc.rig(), "stiff").id));
    w.action(QStringLiteral("editSymmetry"))->trigger();
    QTableWidget* table = panel->partsTable();
    const int forearm = rowNamed(table, QStringLiteral("forearm_l"));
    table->selectRow(forearm);
    const int steps = doc.undoStack()->count();
    table->item(forearm, columnOf(QStringLiteral("motorFrequency")))->setData(Qt::EditRole, 45.0);
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    const ElementRef left = triangleNamed(doc.rig(), "forearm_l"), right = triangleNamed(doc.rig(), "forearm_r");
    QCOMPARE(editor::driveGainsOf(doc.rig(), profileNamed(doc.rig(), "stiff"), right).motorFrequency, 45.f);
    w.action(QStringLiteral("editUndo"))->trigger();
    QCOMPARE(editor::driveGainsOf(doc.rig(), profileNamed(doc.rig(), "stiff"), left).motorFrequency, 60.f);
    QCOMPARE(editor::driveGainsOf(doc.rig(), profileNamed(doc.rig(), "stiff"), right).motorFrequency, 60.f);
    w.action(QStringLiteral("editRedo"))->trigger();
    QCOMPARE(editor::driveGainsOf(doc.rig(), profileNamed(doc.rig(), "stiff"), right).motorFrequency, 45.f);
    w.action(QStringLiteral("editSymmetry"))->trigger();

    // The walk, chosen in the clip box, played through the drives at the default profile.
    app::PreviewToolBar* bar = w.previewToolBar();
    QComboBox* clips = bar->clipBox();
    const int walk = clips->findData(QStringLiteral("walk"));
    QVERIFY2(walk > 0, "the mannequin has a walk clip");
    clips->setCurrentIndex(walk);
    emit clips->activated(walk);
    QVERIFY(!w.action(QStringLiteral("previewKill"))->isEnabled()); // nothing driven yet
    stepN(w, 90);
    editor::PreviewSession* session = w.preview()->session();
    QVERIFY(session && session->isDriven());
    QCOMPARE(session->drivenPlay()->clip, QStringLiteral("walk"));
    // The panel still shows the profiles while previewing, but edits nothing.
    QVERIFY(!panel->isEditable() && panel->partsTable()->isEnabled());
    QVERIFY(!panel->setDefault(QStringLiteral("motorFrequency"), 1.0));
    QCOMPARE(profileNamed(doc.rig(), "stiff").defaults.motorFrequency, 60.f);
    QCOMPARE(session->drivePhase(), editor::PreviewSession::DrivePhase::Playing);
    QCOMPARE(session->driveProfile(), QStringLiteral("balanced"));
    QCOMPARE(bar->profileBox()->currentText(), QStringLiteral("balanced"));
    auto* status = w.findChild<QLabel*>(QStringLiteral("previewDriveStatus"));
    QVERIFY(status && status->text().contains(QStringLiteral("walk · balanced · playing")));
    // Every triangle is drawn in its own tracking colour.
    QCOMPARE(w.viewport()->scene().triangleTracking.size(), doc.rig().triangles.size());
    auto coloursMatch = [&] {
        const std::vector<viewport::Colour> drawn = drawnTriangleColours(*w.viewport()),
                                            expected = expectedTriangleColours(*session);
        if (drawn.size() != expected.size() || drawn.size() != doc.rig().triangles.size())
            return false;
        for (std::size_t t = 0; t < drawn.size(); ++t)
            if (!near(drawn[t], expected[t]))
                return false;
        return true;
    };
    QVERIFY(coloursMatch());

    // 'stagger' chosen live in the profile box (soft motors: a hit shows).
    const int stagger = bar->profileBox()->findText(QStringLiteral("stagger"));
    bar->profileBox()->setCurrentIndex(stagger);
    emit bar->profileBox()->activated(stagger);
    stepN(w, 30); // (a change applies at the next step, as a hit does)
    QCOMPARE(session->driveProfile(), QStringLiteral("stagger"));

    // A hit on the chest with the Hit tool (hit, drag and explode stay active while driven): the chest leaves
    // its target, and the parts are coloured each by its own error.
    w.action(QStringLiteral("previewHit"))->trigger();
    w.preview()->setHitStrength(60.f);
    const rig::Triangle& chest =
        doc.rig().triangles[std::size_t(editor::indexOf(doc.rig(), triangleNamed(doc.rig(), "chest")))];
    const auto x = session->positions();
    const Vec3 centre = (x[std::size_t(chest.p[0])] + x[std::size_t(chest.p[1])] + x[std::size_t(chest.p[2])]) / 3.f;
    const std::uint64_t before = session->stepIndex();
    const float chestBefore = session->partTrackingErrors()[1].metres;
    QTest::mouseClick(w.viewport(), Qt::LeftButton, {}, pixelOf(w.viewport(), centre));
    QTRY_VERIFY(!w.viewport()->scene().impulseArrows.empty()); // the hit's arrow
    stepN(w, 15);
    QCOMPARE(session->stepIndex(), before + 15);
    QVERIFY2(session->partTrackingErrors()[1].metres > chestBefore + 0.03f,
             qPrintable(QStringLiteral("chest %1 m after the hit, %2 before")
                            .arg(double(session->partTrackingErrors()[1].metres))
                            .arg(double(chestBefore))));
    QVERIFY(coloursMatch());
    const std::vector<viewport::Colour> afterHit = drawnTriangleColours(*w.viewport());
    QVERIFY2(std::any_of(afterHit.begin(), afterHit.end(),
                         [&](const viewport::Colour& c) { return !near(c, afterHit.front()); }),
             "the parts are coloured each by its own error");

    // Kill (Preview ▸ Kill): limp, the body falls.
    const float standing = session->centreOfMass().y;
    QVERIFY(w.action(QStringLiteral("previewKill"))->isEnabled());
    w.action(QStringLiteral("previewKill"))->trigger();
    stepN(w, 150);
    QCOMPARE(session->drivePhase(), editor::PreviewSession::DrivePhase::Limp);
    QVERIFY2(session->centreOfMass().y < standing - 0.3f,
             qPrintable(QString::number(double(session->centreOfMass().y))));
    QVERIFY(status->text().contains(QStringLiteral("limp")));

    // Get Up (Preview ▸ Get Up): getting up, then the walk again.
    QVERIFY(w.action(QStringLiteral("previewGetUp"))->isEnabled());
    w.action(QStringLiteral("previewGetUp"))->trigger();
    stepN(w, 1);
    QCOMPARE(session->drivePhase(), editor::PreviewSession::DrivePhase::GettingUp);
    QVERIFY(status->text().contains(QStringLiteral("getting up")));
    for (int i = 0; i < 900 && session->drivePhase() == editor::PreviewSession::DrivePhase::GettingUp; ++i)
        stepN(w, 1);
    QCOMPARE(session->drivePhase(), editor::PreviewSession::DrivePhase::Playing);
    QVERIFY2(session->centreOfMass().y > standing - 0.15f,
             qPrintable(QString::number(double(session->centreOfMass().y))));
    QVERIFY(coloursMatch());

    // Back to the drop: the next preview is not driven.
    clips->setCurrentIndex(0);
    emit clips->activated(0);
    stepN(w, 1);
    QVERIFY(w.preview()->session() && !w.preview()->session()->isDriven());
    QVERIFY(w.viewport()->scene().triangleTracking.empty());
    w.action(QStringLiteral("previewStop"))->trigger();
    QVERIFY(panel->isEditable());
}

int main(int argc, char** argv)
{
    TestDrivePanel test;
    return runGuiTests(test, argc, argv);
}
#include "tst_drivepanel.moc"
