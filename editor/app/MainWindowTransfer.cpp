// MainWindow: File ▸ Transfer Rig to Mesh…: the document's rig applied to another character
// (editor::transferRig, docs/autorig.md "Rig transfer"), which replaces the mesh and the rig as one undo step.
#include "LogPanel.h"
#include "MainWindow.h"
#include "PreviewController.h"
#include "TaskRunner.h"
#include "TransferRigDialog.h"

#include "marionette/editor/autorig/RigTransfer.h"
#include "marionette/editor/autorig/SceneInput.h"
#include "marionette/editor/document/commands/ApplyAutoRigCommand.h"
#include "marionette/editor/document/commands/ReplaceMeshCommand.h"
#include "marionette/editor/pluginhost/BoneMapFile.h"
#include "marionette/editor/pluginhost/MeshImport.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QUndoStack>

namespace marionette::app {

bool MainWindow::transferRig(const QString& given, const QString& mapPath, std::optional<float> totalMass)
{
    mPreview->stop();
    const auto sourceMesh = mDocument.mesh();
    if (!sourceMesh || sourceMesh->skeleton.empty() || mDocument.rig().particles.empty()) {
        showError(tr("Transfer Rig"), tr("The transfer needs a rig on an imported mesh with a skeleton (File ▸ Import Mesh): "
                                         "its skin is what the particles are placed against."));
        return false;
    }
    const bool ask = given.isEmpty();
    QString path = given, map = mapPath;
    editor::RigTransferOptions options;
    options.totalMass = totalMass;
    if (ask) {
        path = QFileDialog::getOpenFileName(this, tr("Transfer Rig to Mesh"), QFileInfo(mDocument.filePath()).absolutePath(),
                                            editor::meshFileFilter(mPlugins));
        if (path.isEmpty())
            return false;
        float total = 0.f;
        for (const rig::Particle& p : mDocument.rig().particles)
            total += p.mass;
        TransferRigDialog dialog(path, total, this);
        if (dialog.exec() != QDialog::Accepted)
            return false;
        map = dialog.mapPath();
        options.totalMass = dialog.totalMass();
    }
    if (!map.isEmpty())
        if (const QString e = editor::readBoneMapFile(map, options.boneMap); !e.isEmpty()) {
            showError(tr("Transfer failed"), e);
            return false;
        }
    plugin::MeshImporter* importer = mPlugins.importerFor(path);
    if (!importer) {
        showError(tr("Transfer failed"), tr("%1: no importer reads this file").arg(path));
        return false;
    }
    mLog->info(tr("Importing %1 (%2)…").arg(path, importer->shortName()));
    editor::MeshImportRequest request;
    request.path = path;
    editor::MeshImportResult imported = importWithProgress(this, *importer, request);
    if (!imported.ok()) {
        if (imported.status == import::ImportStatus::Cancelled)
            mLog->info(tr("Import cancelled"));
        else
            showError(tr("Transfer failed"), imported.error);
        return false;
    }
    for (const QString& w : imported.warnings)
        mLog->warning(w);
    auto scene = std::make_shared<const import::ImportedScene>(std::move(imported.scene));
    const editor::RigTransferResult result = runWithProgress(this, tr("Transferring the rig…"), [&] {
        return editor::transferRig(mDocument.rig(), editor::autoRigInputFromScene(*sourceMesh),
                                   editor::autoRigInputFromScene(*scene), options);
    });
    if (!result.ok) {
        showError(tr("Transfer failed"), QStringLiteral("%1: %2").arg(path, QString::fromStdString(result.error)));
        return false;
    }
    project::SourceMesh source;
    QString why;
    if (!editor::sourceMeshFor(path, mDocument.filePath(), source, &why)) {
        showError(tr("Transfer failed"), why);
        return false;
    }
    project::Project recorded;
    recorded.name = mDocument.project().name;
    editor::recordImport(recorded, path, source, scene->conversion);

    QUndoStack* stack = mDocument.undoStack();
    stack->beginMacro(tr("Transfer Rig to %1").arg(QFileInfo(path).fileName()));
    stack->push(new editor::ReplaceMeshCommand(&mDocument, recorded.sourceMesh, recorded.import, scene, recorded.name));
    auto* apply = new editor::ApplyAutoRigCommand(&mDocument, result.rig, QStringLiteral("transfer"));
    const std::vector<std::string> dropped = apply->droppedDriveParts();
    stack->push(apply);
    stack->endMacro();
    for (const std::string& part : dropped)
        mLog->warning(tr("Drive profile part dropped (the transferred rig has no such element): %1").arg(QString::fromStdString(part)));

    // The report, in the log and (when asked) in a message box.
    QStringList report;
    report << tr("Transferred the rig to %1: %2 of %3 bones paired; particles moved up to %4 cm")
                  .arg(QFileInfo(path).fileName()).arg(result.pairs.size()).arg(scene->skeleton.size())
                  .arg(double(result.largestMove) * 100.0, 0, 'f', 1);
    auto list = [&](const QString& what, const std::vector<std::string>& v) {
        QStringList names;
        for (const std::string& s : v)
            names << QString::fromStdString(s);
        if (!names.isEmpty())
            report << QStringLiteral("%1: %2").arg(what, names.join(QStringLiteral(", ")));
    };
    list(tr("Rig bones without a counterpart"), result.unmappedSource);
    list(tr("Mesh bones nothing maps to (they follow their parent)"), result.unmappedTarget);
    for (const std::string& f : result.fallbacks)
        report << tr("Fallback: %1").arg(QString::fromStdString(f));
    for (const std::string& d : result.dropped)
        report << tr("Dropped: %1").arg(QString::fromStdString(d));
    for (const std::string& n : result.notes)
        report << tr("Note: %1").arg(QString::fromStdString(n));
    mLog->info(report.front());
    for (qsizetype i = 1; i < report.size(); ++i)
        mLog->info(QStringLiteral("  %1").arg(report[i]));
    frameSelection();
    if (ask)
        QMessageBox::information(this, tr("Transfer Rig"), report.join(QLatin1Char('\n')));
    return true;
}

} // namespace marionette::app
