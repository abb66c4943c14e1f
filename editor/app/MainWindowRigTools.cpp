// MainWindow: the Tools menu's rig-wide edits: Collision Groups…, Masses from Mesh…, Fit Limits from
// Animation…, Levels of Detail…, and the Add Particle tool's Keep Total Mass option.
#include "CollisionGroupsDialog.h"
#include "FitLimitsDialog.h"
#include "EditTools.h"
#include "LodDialog.h"
#include "LogPanel.h"
#include "MainWindow.h"

#include "marionette/editor/autorig/MeshMasses.h"
#include "marionette/editor/document/Masses.h"
#include "marionette/editor/document/commands/ReplaceElementsCommand.h"
#include "marionette/editor/document/commands/SetCollisionGroupsCommand.h"

#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QUndoStack>

namespace marionette::app {

namespace {
constexpr char kKeepTotalMassKey[] = "edit/keepTotalMass";
}

void MainWindow::createRigToolsEntries(QMenu* tools)
{
    const bool keep = QSettings().value(QLatin1String(kKeepTotalMassKey), false).toBool();
    mTools->setKeepTotalMass(keep);
    mActions.addToggle(tools, QStringLiteral("toolKeepTotalMass"), tr("&Keep Total Mass"), {}, keep, [this](bool on) {
        mTools->setKeepTotalMass(on);
        QSettings().setValue(QLatin1String(kKeepTotalMassKey), on);
    })->setToolTip(tr("Add Particle scales every mass so the rig's total stays as it was"));
    mActions.add(tools, QStringLiteral("toolMassesFromMesh"), tr("&Masses from Mesh…"), {}, [this] { massesFromMesh(); });
    mActions.add(tools, QStringLiteral("toolCollisionGroups"), tr("&Collision Groups…"), {}, [this] { editCollisionGroups(); });
    mActions.add(tools, QStringLiteral("toolFitLimits"), tr("&Fit Limits from Animation…"), {},
                 [this] { fitLimitsFromAnimation(); });
    mActions.add(tools, QStringLiteral("toolLevelsOfDetail"), tr("&Levels of Detail…"), {}, [this] { editLevelsOfDetail(); });
}

void MainWindow::fitLimitsFromAnimation()
{
    FitLimitsDialog dialog(&mDocument, &mPlugins, this);
    dialog.exec();
    if (!dialog.fitResult().joints.empty())
        mLog->info(dialog.status());
}

void MainWindow::editLevelsOfDetail()
{
    LodDialog dialog(mDocument, this);
    dialog.exec(); // each generated or removed level is its own undo step, pushed by the dialog
}

void MainWindow::editCollisionGroups()
{
    const rig::RigDescription& rig = mDocument.rig();
    const std::vector<project::CollisionGroupName>& before = mDocument.project().collisionGroups;
    CollisionGroupsDialog dialog(before, editor::collisionMatrix(rig), editor::usedGroupBits(rig), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const std::vector<project::CollisionGroupName> names = dialog.names();
    const editor::CollisionMatrix matrix = dialog.matrix();
    if (names == before && editor::applyCollisionMatrix(rig, matrix).empty())
        return; // nothing changed: no empty undo step
    mDocument.undoStack()->push(new editor::SetCollisionGroupsCommand(&mDocument, names, matrix));
}

bool MainWindow::massesFromMesh()
{
    if (!mDocument.mesh()) {
        showError(tr("Masses from Mesh"), tr("Masses from Mesh needs the imported mesh: import one first."));
        return false;
    }
    const double current = editor::totalMass(mDocument.rig());
    QInputDialog ask(this);
    ask.setObjectName(QStringLiteral("massesFromMeshDialog"));
    ask.setWindowTitle(tr("Masses from Mesh"));
    ask.setLabelText(tr("Total mass to spread over the particles by the volume each drives:"));
    ask.setInputMode(QInputDialog::DoubleInput);
    ask.setDoubleRange(0.1, 100000.0);
    ask.setDoubleDecimals(1);
    ask.setDoubleValue(current > 0.0 ? current : 75.0);
    if (ask.exec() != QDialog::Accepted)
        return false;
    const editor::MeshMasses result = editor::massesFromMesh(mDocument.rig(), *mDocument.mesh(), float(ask.doubleValue()));
    if (!result.error.empty()) {
        showError(tr("Masses from Mesh"), tr("Masses from Mesh: %1").arg(QString::fromStdString(result.error)));
        return false;
    }
    mDocument.undoStack()->push(new editor::ReplaceElementsCommand(&mDocument,
        editor::particlesWithMasses(mDocument.rig(), result.masses), tr("Masses from Mesh")));
    mLog->info(tr("Masses from Mesh: %1 kg over %2 particles by %3 L of %4 mesh")
                   .arg(ask.doubleValue(), 0, 'f', 1)
                   .arg(result.masses.size())
                   .arg(result.volume * 1000.0, 0, 'f', 1)
                   .arg(result.closed ? tr("closed") : tr("open (estimated)")));
    return true;
}

} // namespace marionette::app
