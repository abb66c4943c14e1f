// MainWindow: the preview (toolbar, menu, editing lock, scenarios, animation handoff).
#include "DrivePanel.h"
#include "LogPanel.h"
#include "MainWindow.h"
#include "OutlinerPanel.h"
#include "PreviewController.h"
#include "PreviewDialogs.h"
#include "PreviewToolBar.h"
#include "PropertiesPanel.h"
#include "TaskRunner.h"

#include "marionette/editor/preview/BakedClip.h"
#include "marionette/editor/preview/ClipFiles.h"
#include "marionette/editor/preview/ScenarioRunner.h"
#include "marionette/editor/document/commands/AddScenarioCommand.h"

#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>

namespace marionette::app {

void MainWindow::createPreview()
{
    mPreview = new PreviewController(&mDocument, mViewport, this);
    mPreviewBar = new PreviewToolBar(mPreview, &mDocument, this);
    addToolBarBreak();
    addToolBar(mPreviewBar);
    addToolBar(mPreviewBar->driveBar());
    addToolBar(Qt::BottomToolBarArea, mPreviewBar->timelineBar());
    // The driven preview's clip, profile and phase in the status bar.
    auto* driveStatus = new QLabel;
    driveStatus->setObjectName(QStringLiteral("previewDriveStatus"));
    statusBar()->addPermanentWidget(driveStatus);
    auto showDrive = [this, driveStatus] {
        const QString status = mPreview->driveStatus();
        driveStatus->setText(status.isEmpty() ? QString() : tr("Driven: %1").arg(status));
        driveStatus->setVisible(!status.isEmpty());
    };
    connect(mPreview, &PreviewController::frameReady, driveStatus, showDrive);
    connect(mPreview, &PreviewController::driveChanged, driveStatus, showDrive);
    showDrive();
    connect(mPreview, &PreviewController::frameReady, this, &MainWindow::refreshScene);
    connect(mPreview, &PreviewController::activeChanged, this, &MainWindow::setEditingLocked);
    connect(mPreview, &PreviewController::errorOccurred, this, [this](const QString& m) { showError(tr("Preview"), m); });
    connect(mPreviewBar, &PreviewToolBar::saveScenarioRequested, this, &MainWindow::askSaveScenario);
    connect(mPreviewBar, &PreviewToolBar::startFromAnimationRequested, this, &MainWindow::askStartFromAnimation);

    auto* menu = new QMenu(tr("&Preview"), this);
    menuBar()->insertMenu(menuBar()->actions().back(), menu); // before Help
    for (QAction* a : {mPreviewBar->playAction(), mPreviewBar->stepAction(), mPreviewBar->resetAction(), mPreviewBar->stopAction()}) {
        menu->addAction(a);
        mActions.adopt(a);
    }
    menu->addAction(mPreviewBar->followAction());
    menu->addSeparator();
    for (QAction* a : {mPreviewBar->killAction(), mPreviewBar->getUpAction()}) {
        menu->addAction(a);
        mActions.adopt(a);
    }
    menu->addSeparator();
    for (QAction* a : {mPreviewBar->recordAction(), mPreviewBar->saveScenarioAction(), mPreviewBar->animationAction()}) {
        menu->addAction(a);
        mActions.adopt(a);
    }
    for (QToolBar* bar : {static_cast<QToolBar*>(mPreviewBar), mPreviewBar->timelineBar(), mPreviewBar->driveBar()})
        for (QAction* a : bar->actions())
            if (!a->objectName().isEmpty())
                mActions.adopt(a); // the tools, gravity, ... for tests and shortcuts
    mActions.add(menu, QStringLiteral("previewRunScenarios"), tr("Run &Scenarios"), QKeySequence(tr("Ctrl+Shift+R")), [this] { runScenarios(); });
    mActions.add(menu, QStringLiteral("previewBake"), tr("&Bake to Animation…"), QKeySequence(), [this] { bakePreview(); });
}

void MainWindow::setEditingLocked(bool locked)
{
    // While the preview runs, the document cannot change: no edits, no undo, no new rig.
    for (const char* name : {"fileNew", "fileOpen", "fileImportMesh", "fileTransferRig", "editDelete", "editHide", "editShowAll", "editLock",
             "editUnlock", "editUndo", "editRedo", "toolAutoRig", "toolSelect", "toolAddParticle", "toolAddStick",
             "toolAddRange", "toolAddMinOnly", "toolAddMaxOnly", "toolMakeTriangle", "toolAddAngular", "toolFitLimits"})
        if (QAction* a = action(QString::fromLatin1(name)))
            a->setEnabled(!locked);
    mProperties->setEnabled(!locked);
    mOutliner->setEnabled(!locked);
    mDrive->setEditable(!locked); // still shown: the profiles being previewed
    if (auto* history = findChild<QDockWidget*>(QStringLiteral("historyDock")))
        history->widget()->setEnabled(!locked);
    if (!locked) {
        // Undo/redo enable themselves from the stack's state.
        action(QStringLiteral("editUndo"))->setEnabled(mDocument.undoStack()->canUndo());
        action(QStringLiteral("editRedo"))->setEnabled(mDocument.undoStack()->canRedo());
    }
    statusBar()->showMessage(locked ? tr("Previewing: editing is locked (Stop to edit again)") : tr("Editing"), 4000);
    refreshScene();
}

bool MainWindow::saveRecordedScenario(const QString& name, const project::Expectations& expectations)
{
    editor::PreviewSession* session = mPreview->session();
    if (!session || !mPreview->isRecording() || session->stepIndex() == 0)
        return false;
    project::Scenario scenario = session->recordedScenario(name, expectations);
    auto* command = new editor::AddScenarioCommand(&mDocument, std::move(scenario));
    const QString stored = command->scenario().name;
    mDocument.undoStack()->push(command);
    mLog->info(tr("Scenario '%1' saved: %2 hits, %3 drag segments, %4 s").arg(stored)
                   .arg(command->scenario().hits.size()).arg(command->scenario().drags.size())
                   .arg(double(command->scenario().duration), 0, 'f', 2));
    return true;
}

void MainWindow::askSaveScenario()
{
    editor::PreviewSession* session = mPreview->session();
    if (!session || !mPreview->isRecording() || session->stepIndex() == 0) {
        showError(tr("Save Scenario"), tr("Nothing recorded: switch Record on, then play, hit and drag."));
        return;
    }
    ScenarioDialog dialog(tr("scenario %1").arg(mDocument.project().scenarios.size() + 1),
        float(session->stepIndex()) * session->timeStep(), this);
    if (dialog.exec() == QDialog::Accepted)
        saveRecordedScenario(dialog.name(), dialog.expectations());
}

void MainWindow::askStartFromAnimation()
{
    const auto mesh = mDocument.mesh();
    if (!mesh || mesh->animations.empty()) {
        showError(tr("From Animation"), tr("The mesh has no animation clips."));
        return;
    }
    AnimationHandoffDialog dialog(*mesh, [this](std::size_t clip, float t) { mPreview->showAnimationPose(std::make_pair(clip, t)); }, this);
    const bool accepted = dialog.exec() == QDialog::Accepted;
    mPreview->showAnimationPose(std::nullopt);
    if (accepted && mPreview->startFromAnimation(dialog.clip(), dialog.time()))
        mPreview->play();
}

bool MainWindow::bakePreview(const QString& given)
{
    const QString title = tr("Bake to Animation");
    editor::PreviewSession* session = mPreview->session();
    const std::shared_ptr<const import::ImportedScene> mesh = mDocument.mesh();
    if (!session || session->stepIndex() <= session->historyBegin()) {
        showError(title, tr("Nothing to bake: play or step the preview first."));
        return false;
    }
    if (!mesh || mesh->skeleton.empty()) {
        showError(title, tr("The project has no skinned mesh to bake the animation onto."));
        return false;
    }
    mPreview->pause();
    QString path = given;
    if (path.isEmpty()) {
        const QFileInfo beside(suggestedExportPath(QStringLiteral("glb")));
        path = QFileDialog::getSaveFileName(this, title,
            beside.dir().filePath(beside.completeBaseName() + QStringLiteral("-bake.glb")),
            tr("glTF binary with the mesh (*.glb);;Clip JSON (*.json)"));
        if (path.isEmpty())
            return false;
        if (QFileInfo(path).suffix().isEmpty())
            path += QStringLiteral(".glb");
    }
    editor::ClipFormat format;
    if (!editor::clipFormatForPath(path, format)) {
        showError(title, tr("%1: name the file .glb or .json").arg(path));
        return false;
    }
    const project::SourceMesh& source = mDocument.project().sourceMesh;
    if (!source.path.isEmpty() && QFileInfo(source.resolve(mDocument.filePath())) == QFileInfo(path)) {
        showError(title, tr("%1 is the project's source mesh: choose another file").arg(path));
        return false;
    }
    QString error;
    editor::PaletteRecording recording;
    if (!editor::recordHistory(*session, session->historyBegin(), session->stepIndex(), recording, error)) {
        showError(title, error);
        return false;
    }
    editor::BakeOptions options;
    options.name = QFileInfo(path).completeBaseName().toStdString();
    const auto baked = runWithProgress(this, tr("Baking the animation…"), [&]() -> std::pair<bool, std::size_t> {
        editor::BakedClip clip;
        const bool ok = editor::bakeClip(*mesh, recording, options, clip, error) &&
                        editor::writeBakedClip(path, format, *mesh, clip, error);
        return {ok, clip.frameCount()};
    });
    if (!baked.first) {
        showError(title, error);
        return false;
    }
    mLog->info(tr("Baked %1 frames (steps %2 to %3) to %4").arg(baked.second).arg(recording.steps.front())
                   .arg(recording.steps.back()).arg(path));
    statusBar()->showMessage(tr("Baked %1").arg(path), 4000);
    return true;
}

int MainWindow::runScenarios()
{
    const auto& scenarios = mDocument.project().scenarios;
    if (scenarios.empty()) {
        mLog->info(tr("The project has no scenarios (record one in the preview)."));
        return 0;
    }
    int failed = 0;
    const auto mesh = mDocument.mesh(); // for scenarios that start from one of its clips
    for (const project::Scenario& s : scenarios) {
        const editor::ScenarioResult r = editor::runScenario(mDocument.rig(), s, mesh ? &*mesh : nullptr);
        if (r.passed)
            mLog->info(tr("PASS %1: settled at %2 s, penetration %3 mm, limit excess %4°").arg(s.name)
                           .arg(double(r.settledAt), 0, 'f', 2).arg(double(r.maxPenetration) * 1000.0, 0, 'f', 1)
                           .arg(double(r.maxLimitViolationDegrees), 0, 'f', 1));
        else {
            ++failed;
            mLog->error(tr("FAIL %1: %2").arg(s.name, r.failures.join(QStringLiteral("; "))));
        }
    }
    if (auto* dock = findChild<QDockWidget*>(QStringLiteral("logDock"))) {
        dock->show();
        dock->raise();
    }
    statusBar()->showMessage(tr("%1 of %2 scenarios passed").arg(int(scenarios.size()) - failed).arg(scenarios.size()), 6000);
    return failed;
}

} // namespace marionette::app
