#include "MainWindow.h"

#include "GlProbe.h"
#include "LogPanel.h"
#include "DrivePanel.h"
#include "OutlinerPanel.h"
#include "PreviewController.h"
#include "PreviewToolBar.h"
#include "PropertiesPanel.h"
#include "SymmetricEdits.h"
#include "ValidationPanel.h"
#include "viewport/Viewport.h"

#include "marionette/editor/document/Validation.h"
#include "marionette/editor/document/commands/RemoveElementsCommand.h"
#include "marionette/editor/document/commands/SetElementViewCommand.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QPushButton>
#include <QMessageBox>
#include <QStackedWidget>
#include <QStatusBar>
#include <QUndoView>

#include <algorithm>

namespace marionette::app {

using project::ElementKind;
using project::ElementRef;

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setObjectName(QStringLiteral("mainWindow"));
    resize(1400, 900);
    mPlugins.loadDefaultFolders();
    mRecovery = std::make_unique<editor::RecoverySession>();

    createViewport();
    mTools = new EditTools(&mDocument, mViewport, this);
    createDocks();
    createMenusAndToolbars();
    createPreview();
    if (mViewport)
        mViewport->setDisplayOptions(shownDisplay()); // the remembered drawing preferences

    mStatusCounts = new QLabel;
    statusBar()->addPermanentWidget(mStatusCounts);
    connect(mTools, &EditTools::hint, this, [this](const QString& text) { statusBar()->showMessage(text); });
    connect(mTools, &EditTools::previewChanged, this, &MainWindow::refreshScene);
    connect(mTools, &EditTools::toolChanged, this, [this](Tool) { refreshScene(); });

    connect(&mDocument, &editor::Document::structureChanged, this, [this] { refreshScene(); scheduleValidation(); });
    connect(&mDocument, &editor::Document::elementsChanged, this, [this] { refreshScene(); scheduleValidation(); });
    connect(&mDocument, &editor::Document::settingsChanged, this, &MainWindow::scheduleValidation);
    connect(&mDocument, &editor::Document::viewsChanged, this, &MainWindow::refreshScene);
    connect(&mDocument, &editor::Document::selectionChanged, this, &MainWindow::refreshScene);
    connect(&mDocument, &editor::Document::meshChanged, this, [this] {
        if (mViewport)
            mViewport->meshChanged();
        refreshScene();
        scheduleValidation();
    });
    connect(&mDocument, &editor::Document::modifiedChanged, this, &MainWindow::refreshTitle);
    connect(&mDocument, &editor::Document::filePathChanged, this, &MainWindow::refreshTitle);
    connect(mDocument.undoStack(), &QUndoStack::indexChanged, this, [this] { ++mEditCounter; });

    mValidationTimer.setSingleShot(true);
    mValidationTimer.setInterval(150);
    connect(&mValidationTimer, &QTimer::timeout, this, &MainWindow::runValidation);

    // Autosave every minute while there are unsaved changes (MARIONETTE_AUTOSAVE_MS changes the period).
    const int period = qEnvironmentVariableIsSet("MARIONETTE_AUTOSAVE_MS") ? qEnvironmentVariableIntValue("MARIONETTE_AUTOSAVE_MS") : 60'000;
    mAutosaveTimer.setInterval(std::max(period, 50));
    connect(&mAutosaveTimer, &QTimer::timeout, this, &MainWindow::autosaveNow);
    mAutosaveTimer.start();

    refreshTitle();
    refreshScene();
    runValidation();
    mTools->setTool(Tool::Select);
    mLog->info(tr("Marionette %1 ready. %2 plugin(s) loaded.")
                   .arg(QStringLiteral(MARIONETTE_VERSION))
                   .arg(std::count_if(mPlugins.records().begin(), mPlugins.records().end(),
                       [](const auto& r) { return !r.builtIn && r.status == editor::PluginStatus::Loaded; })));
    for (const auto& record : mPlugins.records())
        if (record.status != editor::PluginStatus::Loaded)
            mLog->warning(record.message);
    if (!mGlProblem.isEmpty())
        mLog->error(tr("Viewport unavailable: %1").arg(mGlProblem));
}

MainWindow::~MainWindow() = default;

void MainWindow::createViewport()
{
    mCentre = new QStackedWidget;
    mGlMessage = new QLabel;
    mGlMessage->setObjectName(QStringLiteral("glMessage"));
    mGlMessage->setAlignment(Qt::AlignCenter);
    mGlMessage->setWordWrap(true);
    mGlMessage->setMargin(40);
    mCentre->addWidget(mGlMessage);
    mGlProblem = probeOpenGl();
    if (mGlProblem.isEmpty()) {
        mViewport = new viewport::Viewport;
        mViewport->setObjectName(QStringLiteral("viewport"));
        mCentre->addWidget(mViewport);
        mCentre->setCurrentWidget(mViewport);
        connect(mViewport, &viewport::Viewport::glUnavailable, this, [this](const QString& reason) {
            mGlProblem = reason;
            mGlMessage->setText(tr("<h3>The 3-D viewport is not available</h3><p>%1</p><p>Marionette needs OpenGL 3.3 "
                                   "core. Everything else works: edit the rig in the outliner and properties, save, "
                                   "export.</p>").arg(reason.toHtmlEscaped()));
            mCentre->setCurrentWidget(mGlMessage);
            mLog->error(tr("Viewport unavailable: %1").arg(reason));
        });
        connect(mViewport, &viewport::Viewport::cameraChanged, this, [this] {
            mDocument.setViewState(mViewport->camera().state(), mDisplay.meshOpacity, mDisplay.xray);
        });
    } else {
        mGlMessage->setText(tr("<h3>The 3-D viewport is not available</h3><p>%1.</p><p>Marionette needs OpenGL 3.3 core. "
                               "Everything else works: edit the rig in the outliner and properties, save, export.</p>")
                                .arg(mGlProblem.toHtmlEscaped()));
    }
    setCentralWidget(mCentre);
}

void MainWindow::createDocks()
{
    auto dock = [this](const QString& title, const QString& name, QWidget* widget, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(widget);
        addDockWidget(area, d);
        return d;
    };
    mOutliner = new OutlinerPanel(&mDocument);
    mProperties = new PropertiesPanel(&mDocument);
    mValidation = new ValidationPanel;
    mLog = new LogPanel;
    auto* history = new QUndoView(mDocument.undoStack());
    history->setEmptyLabel(tr("<original>"));
    dock(tr("Outliner"), QStringLiteral("outlinerDock"), mOutliner, Qt::LeftDockWidgetArea);
    auto* props = dock(tr("Properties"), QStringLiteral("propertiesDock"), mProperties, Qt::RightDockWidgetArea);
    auto* hist = dock(tr("History"), QStringLiteral("historyDock"), history, Qt::RightDockWidgetArea);
    tabifyDockWidget(props, hist);
    mDrive = new DrivePanel(&mDocument);
    auto* drive = dock(tr("Drive"), QStringLiteral("driveDock"), mDrive, Qt::RightDockWidgetArea);
    tabifyDockWidget(props, drive);
    props->raise();
    auto* validation = dock(tr("Validation"), QStringLiteral("validationDock"), mValidation, Qt::BottomDockWidgetArea);
    auto* log = dock(tr("Log"), QStringLiteral("logDock"), mLog, Qt::BottomDockWidgetArea);
    tabifyDockWidget(validation, log);
    validation->raise();
    resizeDocks({validation}, {170}, Qt::Vertical);
    resizeDocks({findChild<QDockWidget*>(QStringLiteral("outlinerDock")), props}, {280, 320}, Qt::Horizontal);
    connect(mDrive, &DrivePanel::problem, this, [this](const QString& message) {
        statusBar()->showMessage(message, 6000);
        mLog->warning(message);
    });
    connect(mValidation, &ValidationPanel::culpritsActivated, this, [this](const std::vector<ElementRef>& refs) {
        mDocument.setSelection(refs);
        frameSelection();
    });
}

void MainWindow::setDisplay(const viewport::DisplayOptions& options)
{
    mDisplay = options;
    if (mViewport) {
        mViewport->setDisplayOptions(shownDisplay());
        mDocument.setViewState(mViewport->camera().state(), mDisplay.meshOpacity, mDisplay.xray);
    }
}

viewport::DisplayOptions MainWindow::shownDisplay() const
{
    viewport::DisplayOptions shown = mDisplay;
    // While a tool places elements, the rig shows through the mesh (a new particle inside it is seen).
    if (mXrayWhilePlacing && mTools && mTools->tool() != Tool::Select)
        shown.xray = true;
    return shown;
}

void MainWindow::refreshScene()
{
    const rig::RigDescription& rig = mDocument.rig();
    if (mStatusCounts)
        mStatusCounts->setText(tr("%1 particles · %2 sticks · %3 triangles · %4 angular · %5 selected")
                                   .arg(rig.particles.size()).arg(rig.sticks.size()).arg(rig.triangles.size())
                                   .arg(rig.angular.size()).arg(mDocument.selection().size()));
    if (!mViewport)
        return;
    viewport::ViewportScene scene;
    scene.rig = &rig;
    scene.mesh = mDocument.mesh().get();
    if (mTools)
        scene.particlePositions = mTools->previewPositions();
    scene.selection = mDocument.selection();
    if (mTools && !(mPreview && mPreview->isActive()))
        scene.hovered = mTools->hovered();
    const bool previewing = mPreview && mPreview->isActive();
    if (mPreview)
        mPreview->decorate(scene);
    for (const auto& v : mDocument.project().editor.elements) {
        if (!v.visible)
            scene.hidden.push_back(v.element);
        if (v.locked)
            scene.locked.push_back(v.element);
    }
    mViewport->setScene(std::move(scene));
    mViewport->setGizmo(mTools && !previewing ? mTools->gizmoOrigin() : std::nullopt);
    mViewport->setAngularGizmo(mTools && !previewing ? mTools->angularGizmo() : std::nullopt);
}

void MainWindow::refreshTitle()
{
    setWindowTitle(QStringLiteral("%1[*] — Marionette").arg(mDocument.displayName()));
    setWindowModified(mDocument.isModified());
}

void MainWindow::scheduleValidation() { mValidationTimer.start(); }

void MainWindow::runValidation()
{
    std::vector<editor::ValidationIssue> issues = editor::validateRig(mDocument.rig(), mDocument.mesh().get());
    // With symmetry on, the pairs that are not mirror images (warnings, after the rig's own problems).
    if (const project::SymmetrySettings& s = mDocument.project().editor.symmetry; s.enabled) {
        const std::vector<editor::ValidationIssue> asymmetric =
            editor::symmetryIssues(mDocument.rig(), mirrorPairs(mDocument), editor::MirrorPlane::of(s), s.tolerance);
        issues.insert(issues.end(), asymmetric.begin(), asymmetric.end());
    }
    mValidation->setIssues(issues);
}

void MainWindow::deleteSelection()
{
    std::vector<ElementRef> refs;
    bool skippedBones = false;
    for (const ElementRef& r : mDocument.selection()) {
        if (r.kind == ElementKind::Bone)
            skippedBones = true; // the skeleton comes from the mesh
        else if (!mDocument.isLocked(r))
            refs.push_back(r);
    }
    if (skippedBones)
        statusBar()->showMessage(tr("Bones come from the mesh and are not deleted"), 4000);
    if (refs.empty())
        return;
    auto* command = new editor::RemoveElementsCommand(&mDocument, refs);
    if (command->removed().size() > refs.size())
        mLog->info(tr("Deleting %1 element(s) with %2 that depend on them").arg(refs.size()).arg(command->removed().size() - refs.size()));
    pushEdit(&mDocument, command);
}

void MainWindow::setSelectionView(std::optional<bool> visible, std::optional<bool> locked)
{
    if (!mDocument.selection().empty())
        mDocument.undoStack()->push(new editor::SetElementViewCommand(&mDocument, mDocument.selection(), visible, locked));
}

void MainWindow::frameSelection()
{
    // The viewport frames what its scene selects (everything when nothing is); its cameraChanged() records
    // the view in the document.
    if (mViewport)
        mViewport->frameSelection();
}

void MainWindow::showError(const QString& title, const QString& message)
{
    mLog->error(message);
    QMessageBox box(QMessageBox::Critical, title, message, QMessageBox::Ok, this);
    box.setObjectName(QStringLiteral("errorDialog"));
    box.exec();
}

bool MainWindow::autosaveNow()
{
    if (!mDocument.isModified() || mAutosavedAt == mEditCounter)
        return false;
    QString error;
    if (!mRecovery->write(mDocument.snapshot(), mDocument.filePath(), error)) {
        mLog->warning(tr("Autosave failed: %1").arg(error));
        return false;
    }
    mAutosavedAt = mEditCounter;
    statusBar()->showMessage(tr("Autosaved"), 2000);
    return true;
}

void MainWindow::offerRecovery()
{
    for (const editor::RecoveryEntry& entry : mRecovery->orphans()) {
        QMessageBox box(QMessageBox::Question, tr("Recover unsaved work"),
            tr("Marionette did not close properly. Unsaved changes to <b>%1</b> were autosaved at %2.<br>Recover them?")
                .arg(entry.displayName.toHtmlEscaped(), entry.savedAt.toLocalTime().toString(Qt::TextDate)),
            QMessageBox::NoButton, this);
        box.setObjectName(QStringLiteral("recoveryDialog"));
        QPushButton* recover = box.addButton(tr("Recover"), QMessageBox::AcceptRole);
        QPushButton* discard = box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
        box.addButton(tr("Later"), QMessageBox::RejectRole);
        box.setDefaultButton(recover);
        box.exec();
        if (box.clickedButton() == discard) {
            editor::RecoverySession::remove(entry);
            continue;
        }
        if (box.clickedButton() != recover)
            continue;
        project::Project project;
        QString error;
        if (!editor::RecoverySession::recover(entry, project, error)) {
            showError(tr("Recovery failed"), error);
            continue;
        }
        if (!maybeSave())
            return;
        mDocument.adopt(std::move(project), entry.originalPath, true);
        editor::RecoverySession::remove(entry);
        mLog->info(tr("Recovered %1 from the autosave of %2").arg(entry.displayName, entry.savedAt.toString(Qt::ISODate)));
        loadProjectMesh();
        autosaveNow();
        return; // one document at a time; later orphans stay for the next start
    }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    mPreview->pause();
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    mRecovery->discard();
    event->accept();
}

} // namespace marionette::app
