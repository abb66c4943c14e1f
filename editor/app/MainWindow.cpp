#include "MainWindow.h"

#include "GlProbe.h"
#include "LogPanel.h"
#include "OutlinerPanel.h"
#include "PreviewController.h"
#include "PreviewToolBar.h"
#include "PropertiesPanel.h"
#include "ValidationPanel.h"
#include "viewport/Viewport.h"

#include "marionette/editor/Validation.h"
#include "marionette/editor/commands/RemoveElementsCommand.h"
#include "marionette/editor/commands/SetElementViewCommand.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QMessageBox>
#include <QStackedWidget>
#include <QStatusBar>
#include <QToolBar>
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
    props->raise();
    auto* validation = dock(tr("Validation"), QStringLiteral("validationDock"), mValidation, Qt::BottomDockWidgetArea);
    auto* log = dock(tr("Log"), QStringLiteral("logDock"), mLog, Qt::BottomDockWidgetArea);
    tabifyDockWidget(validation, log);
    validation->raise();
    resizeDocks({validation}, {170}, Qt::Vertical);
    resizeDocks({findChild<QDockWidget*>(QStringLiteral("outlinerDock")), props}, {280, 320}, Qt::Horizontal);
    connect(mValidation, &ValidationPanel::culpritsActivated, this, [this](const std::vector<ElementRef>& refs) {
        mDocument.setSelection(refs);
        frameSelection();
    });
}

QAction* MainWindow::addAction(QMenu* menu, const QString& name, const QString& text, const QKeySequence& shortcut,
    std::function<void()> slot)
{
    auto* a = new QAction(text, this);
    a->setObjectName(name);
    if (!shortcut.isEmpty())
        a->setShortcut(shortcut);
    connect(a, &QAction::triggered, this, [slot = std::move(slot)] { slot(); });
    if (menu)
        menu->addAction(a);
    mActions[name] = a;
    return a;
}

QAction* MainWindow::action(const QString& name) const
{
    const auto it = mActions.find(name);
    return it == mActions.end() ? nullptr : it->second;
}

void MainWindow::createMenusAndToolbars()
{
    // File
    QMenu* file = menuBar()->addMenu(tr("&File"));
    addAction(file, QStringLiteral("fileNew"), tr("&New"), QKeySequence::New, [this] {
        mPreview->stop();
        if (maybeSave()) {
            mDocument.clear();
            mRecovery->discard();
        }
    });
    addAction(file, QStringLiteral("fileOpen"), tr("&Open…"), QKeySequence::Open, [this] { openPath(QString()); });
    mRecentMenu = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addSeparator();
    addAction(file, QStringLiteral("fileSave"), tr("&Save"), QKeySequence::Save, [this] { saveTo(mDocument.filePath()); });
    addAction(file, QStringLiteral("fileSaveAs"), tr("Save &As…"), QKeySequence::SaveAs, [this] { saveTo(QString()); });
    file->addSeparator();
    addAction(file, QStringLiteral("fileImportMesh"), tr("&Import Mesh…"), QKeySequence(tr("Ctrl+I")), [this] { importMesh(QString()); });
    addAction(file, QStringLiteral("fileExportRig"), tr("&Export Rig…"), QKeySequence(tr("Ctrl+E")), [this] { exportRig(QString()); });
    mExportMenu = file->addMenu(tr("Export &As"));
    rebuildExportMenu();
    file->addSeparator();
    addAction(file, QStringLiteral("fileQuit"), tr("&Quit"), QKeySequence::Quit, [this] { close(); });

    // Edit
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = mDocument.undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setObjectName(QStringLiteral("editUndo"));
    mActions[undo->objectName()] = undo;
    QAction* redo = mDocument.undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts({QKeySequence::Redo, QKeySequence(tr("Ctrl+Y"))});
    redo->setObjectName(QStringLiteral("editRedo"));
    mActions[redo->objectName()] = redo;
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    addAction(edit, QStringLiteral("editDelete"), tr("&Delete"), QKeySequence::Delete, [this] { deleteSelection(); });
    addAction(edit, QStringLiteral("editSelectAll"), tr("Select &All Particles"), QKeySequence::SelectAll, [this] {
        std::vector<ElementRef> all;
        for (const auto& p : mDocument.rig().particles)
            all.push_back({ElementKind::Particle, p.id});
        mDocument.setSelection(all);
    });
    addAction(edit, QStringLiteral("editSelectNone"), tr("Select &None"), QKeySequence(tr("Ctrl+Shift+A")), [this] { mDocument.setSelection({}); });
    edit->addSeparator();
    addAction(edit, QStringLiteral("editHide"), tr("&Hide Selected"), QKeySequence(tr("H")), [this] { setSelectionView(false, std::nullopt); });
    addAction(edit, QStringLiteral("editShowAll"), tr("&Show All"), QKeySequence(tr("Alt+H")), [this] {
        std::vector<ElementRef> hidden;
        for (const auto& v : mDocument.project().editor.elements)
            if (!v.visible)
                hidden.push_back(v.element);
        if (!hidden.empty())
            mDocument.undoStack()->push(new editor::SetElementViewCommand(&mDocument, hidden, true, std::nullopt));
    });
    addAction(edit, QStringLiteral("editLock"), tr("&Lock Selected"), QKeySequence(tr("Ctrl+L")), [this] { setSelectionView(std::nullopt, true); });
    addAction(edit, QStringLiteral("editUnlock"), tr("U&nlock Selected"), QKeySequence(tr("Ctrl+Shift+L")), [this] { setSelectionView(std::nullopt, false); });

    // View
    mViewMenu = menuBar()->addMenu(tr("&View"));
    addAction(mViewMenu, QStringLiteral("viewFrame"), tr("&Frame Selected"), QKeySequence(tr("F")), [this] { frameSelection(); });
    auto view = [this](viewport::Camera::View v) {
        if (mViewport) {
            mViewport->camera().setView(v);
            mViewport->update();
        }
    };
    addAction(mViewMenu, QStringLiteral("viewFront"), tr("F&ront"), QKeySequence(tr("1")), [view] { view(viewport::Camera::View::Front); });
    addAction(mViewMenu, QStringLiteral("viewSide"), tr("&Side"), QKeySequence(tr("3")), [view] { view(viewport::Camera::View::Right); });
    addAction(mViewMenu, QStringLiteral("viewTop"), tr("&Top"), QKeySequence(tr("7")), [view] { view(viewport::Camera::View::Top); });
    mViewMenu->addSeparator();
    auto toggle = [this](const QString& name, const QString& text, const QKeySequence& key, bool viewport::DisplayOptions::*member) {
        QAction* a = addAction(mViewMenu, name, text, key, [] {});
        a->setCheckable(true);
        a->setChecked(mDisplay.*member);
        connect(a, &QAction::toggled, this, [this, member](bool on) {
            viewport::DisplayOptions d = mDisplay;
            d.*member = on;
            setDisplay(d);
        });
        return a;
    };
    toggle(QStringLiteral("viewXray"), tr("&X-Ray"), QKeySequence(tr("Alt+X")), &viewport::DisplayOptions::xray);
    QMenu* opacity = mViewMenu->addMenu(tr("Mesh &Opacity"));
    auto* opacityGroup = new QActionGroup(this);
    for (int percent : {100, 60, 30, 0}) {
        QAction* a = addAction(opacity, QStringLiteral("viewOpacity%1").arg(percent), tr("%1 %").arg(percent), {}, [this, percent] {
            viewport::DisplayOptions d = mDisplay;
            d.meshOpacity = float(percent) / 100.f;
            setDisplay(d);
        });
        a->setCheckable(true);
        a->setChecked(percent == 100);
        opacityGroup->addAction(a);
    }
    QMenu* layers = mViewMenu->addMenu(tr("&Layers"));
    std::swap(layers, mViewMenu); // the toggles below go into the Layers submenu
    toggle(QStringLiteral("layerMesh"), tr("Mesh"), {}, &viewport::DisplayOptions::showMesh);
    toggle(QStringLiteral("layerSkeleton"), tr("Skeleton"), {}, &viewport::DisplayOptions::showSkeleton);
    toggle(QStringLiteral("layerParticles"), tr("Particles"), {}, &viewport::DisplayOptions::showParticles);
    toggle(QStringLiteral("layerSticks"), tr("Sticks and ranges"), {}, &viewport::DisplayOptions::showSticks);
    toggle(QStringLiteral("layerTriangles"), tr("Triangles"), {}, &viewport::DisplayOptions::showTriangles);
    toggle(QStringLiteral("layerAngular"), tr("Angular limits"), {}, &viewport::DisplayOptions::showAngular);
    toggle(QStringLiteral("layerShapes"), tr("Shapes and capsules"), {}, &viewport::DisplayOptions::showShapes);
    toggle(QStringLiteral("layerGrid"), tr("Grid"), {}, &viewport::DisplayOptions::showGrid);
    toggle(QStringLiteral("layerGround"), tr("Ground"), {}, &viewport::DisplayOptions::showGround);
    std::swap(layers, mViewMenu);
    mViewMenu->addSeparator();
    mPanelsMenu = mViewMenu->addMenu(tr("&Panels"));
    for (QDockWidget* d : findChildren<QDockWidget*>())
        mPanelsMenu->addAction(d->toggleViewAction());

    // Tools
    QMenu* tools = menuBar()->addMenu(tr("&Tools"));
    auto* toolGroup = new QActionGroup(this);
    QToolBar* toolBar = addToolBar(tr("Tools"));
    toolBar->setObjectName(QStringLiteral("toolsToolBar"));
    struct ToolEntry {
        const char* name;
        QString text;
        QKeySequence key;
        Tool tool;
    };
    const ToolEntry entries[] = {
        {"toolSelect", tr("&Select / Move"), QKeySequence(tr("Q")), Tool::Select},
        {"toolAddParticle", tr("Add &Particle"), QKeySequence(tr("P")), Tool::AddParticle},
        {"toolAddStick", tr("Add S&tick"), QKeySequence(tr("S")), Tool::AddStick},
        {"toolAddRange", tr("Add Min/Max &Range"), QKeySequence(tr("R")), Tool::AddRange},
        {"toolAddMinOnly", tr("Add M&in-Only Link"), QKeySequence(tr("Shift+N")), Tool::AddMinOnly},
        {"toolAddMaxOnly", tr("Add M&ax-Only Link"), QKeySequence(tr("Shift+M")), Tool::AddMaxOnly},
        {"toolMakeTriangle", tr("Make T&riangle"), QKeySequence(tr("T")), Tool::MakeTriangle},
        {"toolAddAngular", tr("Add An&gular Constraint"), QKeySequence(tr("G")), Tool::AddAngular},
    };
    for (const ToolEntry& e : entries) {
        const Tool tool = e.tool;
        QAction* a = addAction(tools, QString::fromLatin1(e.name), e.text, e.key, [this, tool] { mTools->setTool(tool); });
        a->setCheckable(true);
        a->setChecked(tool == Tool::Select);
        toolGroup->addAction(a);
        toolBar->addAction(a);
    }
    connect(mTools, &EditTools::toolChanged, this, [this, entries](Tool tool) {
        for (const ToolEntry& e : entries)
            if (e.tool == tool)
                mActions[QString::fromLatin1(e.name)]->setChecked(true);
    });
    addAction(nullptr, QStringLiteral("toolCancel"), tr("Cancel Tool"), QKeySequence(Qt::Key_Escape), [this] { mTools->setTool(Tool::Select); });
    QWidget::addAction(mActions[QStringLiteral("toolCancel")]);
    tools->addSeparator();
    QAction* autoRigAction = addAction(tools, QStringLiteral("toolAutoRig"), tr("&Auto-Rig…"), QKeySequence(tr("Ctrl+R")), [this] { autoRig(QString(), 75.f); });
    toolBar->addSeparator();
    toolBar->addAction(autoRigAction);

    QToolBar* fileBar = addToolBar(tr("File"));
    fileBar->setObjectName(QStringLiteral("fileToolBar"));
    for (const char* name : {"fileNew", "fileOpen", "fileSave", "fileImportMesh", "fileExportRig"})
        fileBar->addAction(mActions[QString::fromLatin1(name)]);
    fileBar->addAction(undo);
    fileBar->addAction(redo);
    insertToolBar(toolBar, fileBar);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    addAction(help, QStringLiteral("helpAbout"), tr("&About Marionette"), {}, [this] {
        QMessageBox::about(this, tr("About Marionette"),
            tr("<h3>Marionette %1</h3><p>Character-physics authoring: Verlet particles, sticks, ranges, triangles and "
               "angular constraints on a skinned character, exported as a .mrig for the runtime.</p>")
                .arg(QStringLiteral(MARIONETTE_VERSION)));
    });
}

void MainWindow::setDisplay(const viewport::DisplayOptions& options)
{
    mDisplay = options;
    if (mViewport) {
        mViewport->setDisplayOptions(mDisplay);
        mDocument.setViewState(mViewport->camera().state(), mDisplay.meshOpacity, mDisplay.xray);
    }
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
    mValidation->setIssues(editor::validateRig(mDocument.rig(), mDocument.mesh().get()));
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
    mDocument.undoStack()->push(command);
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
