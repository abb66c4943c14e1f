// The Tools menu's rig-wide edits in a real window (Xvfb + Mesa), driven as a user would: Collision Groups…
// (rename groups, uncheck a cell of the matrix: the masks of both groups change, one undo step; the properties
// panel names the groups and edits them from its check list), Masses from Mesh… (the asked total spread over
// the particles, one undo step), and the Add Particle tool's mass from its neighbours with Keep Total Mass
// (remembered in the settings); and File ▸ Transfer Rig to Mesh… onto a scaled copy of the mannequin
// (ScaledCharacter.h): the particles move, one Undo restores the mesh and the rig.
#include "CollisionGroupsDialog.h"
#include "DialogDriver.h"
#include "LogPanel.h"
#include "MainWindow.h"
#include "MainWindowTestSupport.h"
#include "PropertiesPanel.h"
#include "ScaledCharacter.h"
#include "viewport/Viewport.h"

#include "marionette/editor/document/Masses.h"

#include <QCheckBox>
#include <QInputDialog>
#include <QListWidget>
#include <QMenu>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <algorithm>
#include <cmath>

using namespace marionette;
using namespace marionette::test;
using project::ElementKind;
using project::ElementRef;

class TestRigTools : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    void collisionGroups_matrixEditsBothGroupsMasksAsOneStep();
    void massesFromMesh_spreadsTheAskedTotalAsOneStep();
    void addParticle_takesItsNeighboursMassAndKeepsTheTotal();
    void transferRig_movesTheParticlesAndOneUndoRestoresMeshAndRig();
};

void TestRigTools::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    qputenv("MARIONETTE_PLUGIN_PATH", QByteArray(MARIONETTE_BIN_DIR "/plugins"));
    QSettings().remove(QStringLiteral("edit/keepTotalMass"));
    if (!QFileInfo::exists(kHuman))
        QFAIL("the sample mannequin is missing");
}

// The humanoid template's groups: torso 1, left arm 2, right arm 4, left leg 8, right leg 16; every mask all.
void TestRigTools::collisionGroups_matrixEditsBothGroupsMasksAsOneStep()
{
    app::MainWindow w;
    w.show();
    waitForViewport(w);
    editor::Document& doc = w.document();
    QVERIFY(w.importMesh(kHuman, QStringLiteral("humanoid"), 70.f));
    const rig::RigDescription before = doc.rig();
    const int steps = doc.undoStack()->count();

    bool sawAllGroups = false;
    const auto answered = answerNextDialog([&](QDialog* dialog) {
        auto* d = qobject_cast<app::CollisionGroupsDialog*>(dialog);
        auto* list = dialog->findChild<QListWidget*>(QStringLiteral("groupNames"));
        if (!d || !list) {
            dialog->reject();
            return;
        }
        sawAllGroups = list->count() == 5 && d->cell(1, 3) && d->cell(1, 3)->checkState() == Qt::Checked;
        list->item(1)->setText(QStringLiteral("left arm"));
        list->item(3)->setText(QStringLiteral("left leg"));
        d->cell(3, 1)->click(); // left arm and left leg no longer collide
        d->accept();
    });
    w.action(QStringLiteral("toolCollisionGroups"))->trigger();
    QTRY_VERIFY(answered->seen);
    QCOMPARE(answered->objectName, QStringLiteral("collisionGroupsDialog"));
    QVERIFY(sawAllGroups);
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Edit Collision Groups"));
    const auto& names = doc.project().collisionGroups;
    QCOMPARE(names.size(), std::size_t(2));
    QCOMPARE(names[0].bit, 1);
    QCOMPARE(names[0].name, QStringLiteral("left arm"));
    QCOMPARE(names[1].name, QStringLiteral("left leg"));
    // Every left-arm element now ignores the left leg and the other way round; nothing else changed.
    int armElements = 0, legElements = 0;
    auto check = [&](std::uint32_t group, std::uint32_t mask, std::uint32_t oldMask) {
        if (group == 2u) {
            ++armElements;
            QCOMPARE(mask, ~8u);
        } else if (group == 8u) {
            ++legElements;
            QCOMPARE(mask, ~2u);
        } else {
            QCOMPARE(mask, oldMask);
        }
    };
    for (std::size_t i = 0; i < before.particles.size(); ++i)
        check(doc.rig().particles[i].group, doc.rig().particles[i].mask, before.particles[i].mask);
    for (std::size_t i = 0; i < before.sticks.size(); ++i)
        if (before.sticks[i].capsuleRadius > 0.f)
            check(doc.rig().sticks[i].group, doc.rig().sticks[i].mask, before.sticks[i].mask);
        else
            QCOMPARE(doc.rig().sticks[i].mask, before.sticks[i].mask);
    QVERIFY(armElements >= 2 && legElements >= 2);

    // The properties panel names them: a left-leg particle is in "left leg" and collides with "all but left arm".
    const std::int32_t knee = particleNamed(doc.rig(), "knee_l");
    QVERIFY(knee >= 0);
    const ElementRef kneeRef{ElementKind::Particle, doc.rig().particles[std::size_t(knee)].id};
    doc.setSelection({kneeRef});
    auto* group = qobject_cast<QToolButton*>(w.properties()->editorFor(QStringLiteral("group")));
    auto* mask = qobject_cast<QToolButton*>(w.properties()->editorFor(QStringLiteral("mask")));
    QVERIFY(group && mask);
    QCOMPARE(group->text(), QStringLiteral("left leg"));
    QCOMPARE(mask->text(), QStringLiteral("all but left arm"));
    // Its check list: tick "left arm" in the mask: one step, the mask is all again.
    emit mask->menu()->aboutToShow();
    auto* leftArm = mask->menu()->findChild<QAction*>(QStringLiteral("bit_1"));
    QVERIFY(leftArm && leftArm->isCheckable() && !leftArm->isChecked());
    QCOMPARE(leftArm->text(), QStringLiteral("left arm"));
    leftArm->trigger();
    QCOMPARE(doc.rig().particles[std::size_t(knee)].mask, ~0u);
    QCOMPARE(mask->text(), QStringLiteral("all"));
    QCOMPARE(doc.undoStack()->count(), steps + 2);

    // Undo both: names and masks as imported.
    doc.undoStack()->undo();
    doc.undoStack()->undo();
    QVERIFY(doc.project().collisionGroups.empty());
    for (std::size_t i = 0; i < before.particles.size(); ++i)
        QCOMPARE(doc.rig().particles[i].mask, before.particles[i].mask);
    for (std::size_t i = 0; i < before.sticks.size(); ++i)
        QCOMPARE(doc.rig().sticks[i].mask, before.sticks[i].mask);
    QCOMPARE(group->text(), QStringLiteral("Group 4"));
}

void TestRigTools::massesFromMesh_spreadsTheAskedTotalAsOneStep()
{
    app::MainWindow w;
    w.show();
    waitForViewport(w);
    editor::Document& doc = w.document();
    QVERIFY(w.importMesh(kHuman, QStringLiteral("humanoid"), 70.f));
    const rig::RigDescription before = doc.rig();
    const int steps = doc.undoStack()->count();

    double offered = 0.0;
    const auto answered = answerNextDialog([&](QDialog* dialog) {
        auto* ask = qobject_cast<QInputDialog*>(dialog);
        if (!ask) {
            dialog->reject();
            return;
        }
        offered = ask->doubleValue();
        ask->setDoubleValue(60.0);
        ask->accept();
    });
    QVERIFY(w.massesFromMesh());
    QVERIFY(answered->seen);
    QCOMPARE(answered->objectName, QStringLiteral("massesFromMeshDialog"));
    QCOMPARE(offered, 70.0); // the rig's current total
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    QCOMPARE(doc.undoStack()->undoText(), QStringLiteral("Masses from Mesh"));
    QVERIFY(std::abs(editor::totalMass(doc.rig()) - 60.0) < 1e-4);
    float lightest = 1e9f, heaviest = 0.f;
    bool changed = false;
    for (std::size_t i = 0; i < before.particles.size(); ++i) {
        const float m = doc.rig().particles[i].mass;
        lightest = std::min(lightest, m);
        heaviest = std::max(heaviest, m);
        changed = changed || std::abs(m - before.particles[i].mass * 60.f / 70.f) > 1e-3f;
    }
    QVERIFY(changed); // not just the old masses scaled
    QVERIFY(lightest > 0.f && lightest >= heaviest / 10.f * 0.999f);
    doc.undoStack()->undo();
    for (std::size_t i = 0; i < before.particles.size(); ++i)
        QCOMPARE(doc.rig().particles[i].mass, before.particles[i].mass);

    // Cancelled: nothing happens.
    const auto cancelled = answerNextDialog([](QDialog* dialog) { dialog->reject(); });
    QVERIFY(!w.massesFromMesh());
    QVERIFY(cancelled->seen);
    QCOMPARE(doc.undoStack()->index(), steps);
}

void TestRigTools::addParticle_takesItsNeighboursMassAndKeepsTheTotal()
{
    app::MainWindow w;
    w.show();
    waitForViewport(w);
    editor::Document& doc = w.document();
    QVERIFY(w.importMesh(kHuman, QStringLiteral("humanoid"), 70.f));
    const rig::RigDescription before = doc.rig();
    const int steps = doc.undoStack()->count();

    QAction* keep = w.action(QStringLiteral("toolKeepTotalMass"));
    QVERIFY(keep && keep->isCheckable() && !keep->isChecked());
    keep->trigger();
    QVERIFY(keep->isChecked());
    QCOMPARE(QSettings().value(QStringLiteral("edit/keepTotalMass")).toBool(), true);

    // Click on the left thigh, halfway between hip and knee on screen.
    w.action(QStringLiteral("viewFront"))->trigger();
    w.action(QStringLiteral("viewFrame"))->trigger();
    QCoreApplication::processEvents();
    viewport::Viewport* vp = w.viewport();
    const std::int32_t hip = particleNamed(before, "hip_l"), knee = particleNamed(before, "knee_l");
    QVERIFY(hip >= 0 && knee >= 0);
    const QPoint click = (pixelOf(vp, before.particles[std::size_t(hip)].position) +
                          pixelOf(vp, before.particles[std::size_t(knee)].position)) / 2;
    w.action(QStringLiteral("toolAddParticle"))->trigger();
    QTest::mouseClick(vp, Qt::LeftButton, {}, click);
    QTRY_COMPARE(doc.rig().particles.size(), before.particles.size() + 1);
    QCOMPARE(doc.undoStack()->count(), steps + 1);

    // Its neighbours' mean, then everything scaled by 70 / (70 + that): the total stays 70 kg.
    const rig::Particle added = doc.rig().particles.back();
    const float mean = editor::neighbourMass(before, added.position);
    QVERIFY(mean > 0.5f && mean != 1.f);
    const double k = 70.0 / (70.0 + double(mean));
    QVERIFY2(std::abs(double(added.mass) - double(mean) * k) < 1e-4,
        qPrintable(QStringLiteral("%1 kg, neighbours %2 kg").arg(added.mass).arg(mean)));
    for (std::size_t i = 0; i < before.particles.size(); ++i)
        QVERIFY(std::abs(double(doc.rig().particles[i].mass) - double(before.particles[i].mass) * k) < 1e-4);
    QVERIFY(std::abs(editor::totalMass(doc.rig()) - 70.0) < 1e-3);
    doc.undoStack()->undo();
    QCOMPARE(doc.rig().particles.size(), before.particles.size());
    for (std::size_t i = 0; i < before.particles.size(); ++i)
        QCOMPARE(doc.rig().particles[i].mass, before.particles[i].mass);

    // Without Keep Total Mass: the neighbours' mean, the others untouched.
    keep->trigger();
    QCOMPARE(QSettings().value(QStringLiteral("edit/keepTotalMass")).toBool(), false);
    w.action(QStringLiteral("toolAddParticle"))->trigger();
    QTest::mouseClick(vp, Qt::LeftButton, {}, click);
    QTRY_COMPARE(doc.rig().particles.size(), before.particles.size() + 1);
    QCOMPARE(doc.rig().particles.back().mass, editor::neighbourMass(before, doc.rig().particles.back().position));
    QCOMPARE(doc.rig().particles[std::size_t(hip)].mass, before.particles[std::size_t(hip)].mass);
}

void TestRigTools::transferRig_movesTheParticlesAndOneUndoRestoresMeshAndRig()
{
    // The mannequin project beside its mesh, and the mannequin with long arms and short legs beside them.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString project = dir.filePath(QStringLiteral("mannequin.mproj"));
    QVERIFY(QFile::copy(kMannequin, project));
    QVERIFY(QFile::copy(kHuman, dir.filePath(QStringLiteral("mannequin.glb"))));
    app::MainWindow w;
    w.show();
    waitForViewport(w);
    editor::Document& doc = w.document();
    QVERIFY2(w.openProject(project), qPrintable(w.logPanel()->toPlainText()));
    QVERIFY(doc.mesh());
    test::LimbScale s;
    s.armL = s.armR = 1.25f;
    s.legL = s.legR = 0.8f;
    const import::ImportedScene scaled = test::scaledScene(*doc.mesh(), test::mannequinFactors(doc.mesh()->skeleton, s));
    const QString target = dir.filePath(QStringLiteral("long-arms.glb"));
    QString error;
    QVERIFY2(test::writeGlb(target, scaled, error), qPrintable(error));

    const rig::RigDescription before = doc.rig();
    const auto meshBefore = doc.mesh();
    const project::SourceMesh sourceBefore = doc.project().sourceMesh;
    const int steps = doc.undoStack()->count();
    QVERIFY2(w.transferRig(target), qPrintable(w.logPanel()->toPlainText()));
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    QCOMPARE(doc.project().sourceMesh.path, QStringLiteral("long-arms.glb"));
    QVERIFY(doc.mesh() != meshBefore);
    // The wrists moved out with the 25 % longer arms (0.53 m from shoulder to wrist: 13 cm), the ids stayed.
    const std::int32_t wrist = particleNamed(doc.rig(), "wrist_l");
    QVERIFY(wrist >= 0);
    const float moved = length(doc.rig().particles[std::size_t(wrist)].position - before.particles[std::size_t(wrist)].position);
    QVERIFY2(moved > 0.1f, qPrintable(QString::number(double(moved))));
    for (std::size_t i = 0; i < before.particles.size(); ++i)
        QCOMPARE(doc.rig().particles[i].id, before.particles[i].id);
    QVERIFY(w.logPanel()->toPlainText().contains(QStringLiteral("Transferred the rig to long-arms.glb: 21 of 21 bones paired")));

    doc.undoStack()->undo();
    QCOMPARE(doc.undoStack()->index(), steps);
    QCOMPARE(rigBytes(doc.rig()), rigBytes(before));
    QVERIFY(doc.mesh() == meshBefore);
    QCOMPARE(doc.project().sourceMesh.path, sourceBefore.path);
}

int main(int argc, char** argv)
{
    TestRigTools test;
    return marionette::test::runGuiTests(test, argc, argv);
}
#include "tst_rigtools.moc"
