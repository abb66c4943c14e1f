// MainWindow: the menus and tool bars, one function per menu; every entry is an action of mActions
// (ActionRegistry), found by its object name. The preview's menu is in MainWindowPreview.cpp, the recent
// files and the exporters' entries (which change at run time) in MainWindowFiles.cpp.
#include "DrivePanel.h"
#include "EditTools.h"
#include "ToolIcons.h"
#include "MainWindow.h"
#include "PreviewController.h"
#include "SymmetricEdits.h"
#include "viewport/Viewport.h"

#include "marionette/editor/document/commands/ReplaceRigCommand.h"
#include "marionette/editor/document/commands/SetElementViewCommand.h"

#include <QActionGroup>
#include <QDockWidget>
#include <QInputDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>
#include <QUndoStack>

#include <algorithm>
#include <cmath>

namespace marionette::app {

using project::ElementKind;
using project::ElementRef;

QAction* MainWindow::action(const QString& name) const { return mActions.find(name); }

void MainWindow::createMenusAndToolbars()
{
    createFileMenu();
    createEditMenu();
    createViewMenu();
    QToolBar* toolBar = createToolsMenu();
    QToolBar* fileBar = addToolBar(tr("File"));
    fileBar->setObjectName(QStringLiteral("fileToolBar"));
    // Icons keep the bars short enough for a 1280-pixel window (the names are in the tooltips and menus).
    const std::pair<const char*, QStyle::StandardPixmap> fileIcons[] = {
        {"fileNew", QStyle::SP_FileIcon}, {"fileOpen", QStyle::SP_DialogOpenButton}, {"fileSave", QStyle::SP_DialogSaveButton},
        {"fileImportMesh", QStyle::SP_ArrowDown}, {"fileExportRig", QStyle::SP_ArrowUp}, {"editUndo", QStyle::SP_ArrowBack},
        {"editRedo", QStyle::SP_ArrowForward}};
    for (const auto& [name, icon] : fileIcons)
        mActions.find(QString::fromLatin1(name))->setIcon(style()->standardIcon(icon));
    fileBar->setToolButtonStyle(Qt::ToolButtonIconOnly);
    toolBar->setToolButtonStyle(Qt::ToolButtonIconOnly);
    mActions.fill(fileBar, {"fileNew", "fileOpen", "fileSave", "fileImportMesh", "fileExportRig", "editUndo", "editRedo"});
    insertToolBar(toolBar, fileBar);
    createHelpMenu();
}

void MainWindow::createFileMenu()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    mActions.add(file, QStringLiteral("fileNew"), tr("&New"), QKeySequence::New, [this] {
        mPreview->stop();
        if (maybeSave()) {
            mDocument.clear();
            mRecovery->discard();
        }
    });
    mActions.add(file, QStringLiteral("fileOpen"), tr("&Open…"), QKeySequence::Open, [this] { openPath(QString()); });
    mRecentMenu = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addSeparator();
    mActions.add(file, QStringLiteral("fileSave"), tr("&Save"), QKeySequence::Save, [this] { saveTo(mDocument.filePath()); });
    mActions.add(file, QStringLiteral("fileSaveAs"), tr("Save &As…"), QKeySequence::SaveAs, [this] { saveTo(QString()); });
    file->addSeparator();
    mActions.add(file, QStringLiteral("fileImportMesh"), tr("&Import Mesh…"), QKeySequence(tr("Ctrl+I")), [this] { importMesh(QString()); });
    mActions.add(file, QStringLiteral("fileTransferRig"), tr("&Transfer Rig to Mesh…"), {}, [this] { transferRig(QString()); });
    mActions.add(file, QStringLiteral("fileExportRig"), tr("&Export Rig…"), QKeySequence(tr("Ctrl+E")), [this] { exportRig(QString()); });
    mExportMenu = file->addMenu(tr("Export &As"));
    rebuildExportMenu();
    file->addSeparator();
    mActions.add(file, QStringLiteral("fileQuit"), tr("&Quit"), QKeySequence::Quit, [this] { close(); });
}

void MainWindow::createEditMenu()
{
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = mDocument.undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setObjectName(QStringLiteral("editUndo"));
    QAction* redo = mDocument.undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts({QKeySequence::Redo, QKeySequence(tr("Ctrl+Y"))});
    redo->setObjectName(QStringLiteral("editRedo"));
    edit->addAction(mActions.adopt(undo));
    edit->addAction(mActions.adopt(redo));
    edit->addSeparator();
    mActions.add(edit, QStringLiteral("editDelete"), tr("&Delete"), QKeySequence::Delete, [this] { deleteSelection(); });
    mActions.add(edit, QStringLiteral("editSelectAll"), tr("Select &All Particles"), QKeySequence::SelectAll, [this] {
        std::vector<ElementRef> all;
        for (const auto& p : mDocument.rig().particles)
            all.push_back({ElementKind::Particle, p.id});
        mDocument.setSelection(all);
    });
    mActions.add(edit, QStringLiteral("editSelectNone"), tr("Select &None"), QKeySequence(tr("Ctrl+Shift+A")), [this] { mDocument.setSelection({}); });
    edit->addSeparator();
    mActions.add(edit, QStringLiteral("editHide"), tr("&Hide Selected"), QKeySequence(tr("H")), [this] { setSelectionView(false, std::nullopt); });
    mActions.add(edit, QStringLiteral("editShowAll"), tr("&Show All"), QKeySequence(tr("Alt+H")), [this] {
        std::vector<ElementRef> hidden;
        for (const auto& v : mDocument.project().editor.elements)
            if (!v.visible)
                hidden.push_back(v.element);
        if (!hidden.empty())
            mDocument.undoStack()->push(new editor::SetElementViewCommand(&mDocument, hidden, true, std::nullopt));
    });
    mActions.add(edit, QStringLiteral("editLock"), tr("&Lock Selected"), QKeySequence(tr("Ctrl+L")), [this] { setSelectionView(std::nullopt, true); });
    mActions.add(edit, QStringLiteral("editUnlock"), tr("U&nlock Selected"), QKeySequence(tr("Ctrl+Shift+L")), [this] { setSelectionView(std::nullopt, false); });
    edit->addSeparator();
    createSymmetryActions(edit);
    // The Drive panel's profile actions (powered ragdolls), in a submenu; they act on the panel's profile.
    QMenu* drive = edit->addMenu(tr("D&rive Profiles"));
    for (QAction* a : mDrive->panelActions()) {
        drive->addAction(a);
        mActions.adopt(a);
    }
}

void MainWindow::createSymmetryActions(QMenu* edit)
{
    // Symmetric editing: every edit repeated on the other side of the plane as one undo step (SymmetricEdits.h).
    auto settings = [this] { return mDocument.project().editor.symmetry; };
    QAction* on = mActions.addToggle(edit, QStringLiteral("editSymmetry"), tr("S&ymmetry"), QKeySequence(tr("Ctrl+M")),
                                     settings().enabled, [this, settings](bool enabled) {
                                         project::SymmetrySettings s = settings();
                                         s.enabled = enabled;
                                         mDocument.setSymmetry(s);
                                     });
    QMenu* plane = edit->addMenu(tr("Mirror &Plane"));
    plane->setObjectName(QStringLiteral("editMirrorPlaneMenu"));
    auto* axes = new QActionGroup(plane);
    const std::pair<project::MirrorAxis, QString> kAxes[] = {{project::MirrorAxis::X, tr("&X (left/right)")},
                                                               {project::MirrorAxis::Y, tr("&Y (up/down)")},
                                                               {project::MirrorAxis::Z, tr("&Z (front/back)")}};
    std::vector<QAction*> axisActions;
    for (const auto& [axis, text] : kAxes) {
        QAction* a = mActions.addToggle(plane, QStringLiteral("editMirrorAxis%1").arg(int(axis)), text, {}, settings().axis == axis,
                                        [this, settings, axis](bool checked) {
                                            if (!checked)
                                                return;
                                            project::SymmetrySettings s = settings();
                                            s.axis = axis;
                                            mDocument.setSymmetry(s);
                                        });
        axes->addAction(a);
        axisActions.push_back(a);
    }
    plane->addSeparator();
    mActions.add(plane, QStringLiteral("editMirrorPlaneAtSelection"), tr("Through the &Selection"), {}, [this, settings] {
        const std::vector<std::int32_t> selected = mDocument.selectedIndices(ElementKind::Particle);
        if (selected.empty()) {
            statusBar()->showMessage(tr("Select the particles the mirror plane goes through"), 4000);
            return;
        }
        project::SymmetrySettings s = settings();
        const editor::MirrorPlane at{s.axis, 0.f};
        float sum = 0.f;
        for (std::int32_t i : selected)
            sum += at.distance(mDocument.rig().particles[std::size_t(i)].position);
        s.offset = sum / float(selected.size());
        mDocument.setSymmetry(s);
        statusBar()->showMessage(tr("Mirror plane at %1 m").arg(double(s.offset), 0, 'f', 3), 4000);
    });
    mActions.add(plane, QStringLiteral("editMirrorPlaneAtOrigin"), tr("Through the &Origin"), {}, [this, settings] {
        project::SymmetrySettings s = settings();
        s.offset = 0.f;
        mDocument.setSymmetry(s);
    });
    mActions.add(plane, QStringLiteral("editSymmetryTolerance"), tr("&Tolerance…"), {}, [this, settings] {
        project::SymmetrySettings s = settings();
        bool ok = false;
        const double mm = QInputDialog::getDouble(this, tr("Symmetry Tolerance"),
                                                  tr("Particles this close to each other's mirror image, or to the plane, pair (mm):"),
                                                  double(s.tolerance) * 1000.0, 0.01, 1000.0, 2, &ok);
        if (!ok)
            return;
        s.tolerance = float(mm / 1000.0);
        mDocument.setSymmetry(s);
    });
    auto mirror = [this](bool leftToRight) {
        const project::SymmetrySettings& s = mDocument.project().editor.symmetry;
        const editor::MirrorSource left = leftSide(mDocument);
        const editor::MirrorSource from = leftToRight ? left
                                          : left == editor::MirrorSource::PositiveSide ? editor::MirrorSource::NegativeSide
                                                                                       : editor::MirrorSource::PositiveSide;
        const rig::RigDescription mirrored = editor::mirrorSide(mDocument.rig(), mirrorPairs(mDocument), editor::MirrorPlane::of(s),
                                                                s.tolerance, from, mirrorNamer());
        mDocument.undoStack()->push(
            new editor::ReplaceRigCommand(&mDocument, mirrored, leftToRight ? tr("Mirror Left to Right") : tr("Mirror Right to Left")));
    };
    mActions.add(edit, QStringLiteral("editMirrorLeftToRight"), tr("Mirror &Left → Right"), {}, [mirror] { mirror(true); });
    mActions.add(edit, QStringLiteral("editMirrorRightToLeft"), tr("Mirror &Right → Left"), {}, [mirror] { mirror(false); });
    // The menu follows the document (a project opened with its own settings).
    connect(&mDocument, &editor::Document::symmetryChanged, this, [this, on, axisActions] {
        const project::SymmetrySettings& s = mDocument.project().editor.symmetry;
        const QSignalBlocker block(on);
        on->setChecked(s.enabled);
        for (std::size_t k = 0; k < axisActions.size(); ++k) {
            const QSignalBlocker b(axisActions[k]);
            axisActions[k]->setChecked(int(s.axis) == int(k));
        }
        scheduleValidation();
    });
}

void MainWindow::createViewMenu()
{
    mViewMenu = menuBar()->addMenu(tr("&View"));
    mActions.add(mViewMenu, QStringLiteral("viewFrame"), tr("&Frame Selected"), QKeySequence(tr("F")), [this] { frameSelection(); });
    auto view = [this](viewport::Camera::View v) {
        if (mViewport)
            mViewport->setView(v); // in the preview, about the simulated body
    };
    mActions.add(mViewMenu, QStringLiteral("viewFront"), tr("F&ront"), QKeySequence(tr("1")), [view] { view(viewport::Camera::View::Front); });
    mActions.add(mViewMenu, QStringLiteral("viewSide"), tr("&Side"), QKeySequence(tr("3")), [view] { view(viewport::Camera::View::Right); });
    mActions.add(mViewMenu, QStringLiteral("viewTop"), tr("&Top"), QKeySequence(tr("7")), [view] { view(viewport::Camera::View::Top); });
    mViewMenu->addSeparator();
    // A display option toggled by a checkable entry of `menu`.
    auto toggle = [this](QMenu* menu, const QString& name, const QString& text, const QKeySequence& key,
                      bool viewport::DisplayOptions::*member) {
        mActions.addToggle(menu, name, text, key, mDisplay.*member, [this, member](bool on) {
            viewport::DisplayOptions d = mDisplay;
            d.*member = on;
            setDisplay(d);
        });
    };
    toggle(mViewMenu, QStringLiteral("viewXray"), tr("&X-Ray"), QKeySequence(tr("Alt+X")), &viewport::DisplayOptions::xray);
    // Drawing preferences of the user (not of a project): remembered between sessions.
    QSettings settings;
    mXrayWhilePlacing = settings.value(QStringLiteral("view/xrayWhilePlacing"), true).toBool();
    mDisplay.particleSize = std::clamp(settings.value(QStringLiteral("view/particleSize"), 1.0).toFloat(), 0.05f, 1.f);
    mDisplay.particleOpacity = std::clamp(settings.value(QStringLiteral("view/particleOpacity"), 1.0).toFloat(), 0.05f, 1.f);
    mDisplay.bonesAsLines = settings.value(QStringLiteral("view/bonesAsLines"), false).toBool();
    mActions.addToggle(mViewMenu, QStringLiteral("viewXrayWhilePlacing"), tr("X-Ray While &Placing"), {}, mXrayWhilePlacing, [this](bool on) {
        mXrayWhilePlacing = on;
        QSettings().setValue(QStringLiteral("view/xrayWhilePlacing"), on);
        setDisplay(mDisplay);
    });
    // A choice of percentages for a float display option, one checkable entry each.
    auto percentages = [this](QMenu* menu, const QString& prefix, const QString& key, std::initializer_list<int> values,
                           float viewport::DisplayOptions::*member) {
        auto* group = new QActionGroup(this);
        for (int percent : values) {
            QAction* a = mActions.add(menu, QStringLiteral("%1%2").arg(prefix).arg(percent), tr("%1 %").arg(percent), {}, [this, percent, key, member] {
                viewport::DisplayOptions d = mDisplay;
                d.*member = float(percent) / 100.f;
                QSettings().setValue(key, double(d.*member));
                setDisplay(d);
            });
            a->setCheckable(true);
            a->setChecked(std::lround(mDisplay.*member * 100.f) == percent);
            group->addAction(a);
        }
    };
    QMenu* rigDrawing = mViewMenu->addMenu(tr("&Rig Drawing"));
    percentages(rigDrawing->addMenu(tr("Particle &Size")), QStringLiteral("viewParticleSize"), QStringLiteral("view/particleSize"),
                {100, 50, 25}, &viewport::DisplayOptions::particleSize);
    percentages(rigDrawing->addMenu(tr("Particle &Opacity")), QStringLiteral("viewParticleOpacity"), QStringLiteral("view/particleOpacity"),
                {100, 60, 30}, &viewport::DisplayOptions::particleOpacity);
    mActions.addToggle(rigDrawing, QStringLiteral("viewBonesAsLines"), tr("Bones as &Lines"), {}, mDisplay.bonesAsLines, [this](bool on) {
        viewport::DisplayOptions d = mDisplay;
        d.bonesAsLines = on;
        QSettings().setValue(QStringLiteral("view/bonesAsLines"), on);
        setDisplay(d);
    });
    QMenu* opacity = mViewMenu->addMenu(tr("Mesh &Opacity"));
    auto* opacityGroup = new QActionGroup(this);
    for (int percent : {100, 60, 30, 0}) {
        QAction* a = mActions.add(opacity, QStringLiteral("viewOpacity%1").arg(percent), tr("%1 %").arg(percent), {}, [this, percent] {
            viewport::DisplayOptions d = mDisplay;
            d.meshOpacity = float(percent) / 100.f;
            setDisplay(d);
        });
        a->setCheckable(true);
        a->setChecked(percent == 100);
        opacityGroup->addAction(a);
    }
    QMenu* layers = mViewMenu->addMenu(tr("&Layers"));
    toggle(layers, QStringLiteral("layerMesh"), tr("Mesh"), {}, &viewport::DisplayOptions::showMesh);
    toggle(layers, QStringLiteral("layerSkeleton"), tr("Skeleton"), {}, &viewport::DisplayOptions::showSkeleton);
    toggle(layers, QStringLiteral("layerParticles"), tr("Particles"), {}, &viewport::DisplayOptions::showParticles);
    toggle(layers, QStringLiteral("layerSticks"), tr("Sticks and ranges"), {}, &viewport::DisplayOptions::showSticks);
    toggle(layers, QStringLiteral("layerTriangles"), tr("Triangles"), {}, &viewport::DisplayOptions::showTriangles);
    toggle(layers, QStringLiteral("layerAngular"), tr("Angular limits"), {}, &viewport::DisplayOptions::showAngular);
    toggle(layers, QStringLiteral("layerShapes"), tr("Shapes and capsules"), {}, &viewport::DisplayOptions::showShapes);
    toggle(layers, QStringLiteral("layerGrid"), tr("Grid"), {}, &viewport::DisplayOptions::showGrid);
    toggle(layers, QStringLiteral("layerGround"), tr("Ground"), {}, &viewport::DisplayOptions::showGround);
    mViewMenu->addSeparator();
    mActions.add(mViewMenu, QStringLiteral("viewDrivePanel"), tr("&Drive Panel"), QKeySequence(tr("Ctrl+Shift+D")), [this] {
        if (auto* dock = findChild<QDockWidget*>(QStringLiteral("driveDock"))) {
            dock->show();
            dock->raise();
        }
    });
    mPanelsMenu = mViewMenu->addMenu(tr("&Panels"));
    for (QDockWidget* d : findChildren<QDockWidget*>())
        mPanelsMenu->addAction(d->toggleViewAction());
}

QToolBar* MainWindow::createToolsMenu()
{
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
    const std::vector<ToolEntry> entries = {
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
        QAction* a = mActions.add(tools, QString::fromLatin1(e.name), e.text, e.key, [this, tool] { mTools->setTool(tool); });
        a->setIcon(toolIcon(tool, palette()));
        a->setToolTip(QStringLiteral("%1 (%2)").arg(QString(e.text).remove(QLatin1Char('&')), e.key.toString(QKeySequence::NativeText)));
        a->setCheckable(true);
        a->setChecked(tool == Tool::Select);
        toolGroup->addAction(a);
        toolBar->addAction(a);
    }
    connect(mTools, &EditTools::toolChanged, this, [this, entries](Tool tool) {
        for (const ToolEntry& e : entries)
            if (e.tool == tool)
                mActions.find(QString::fromLatin1(e.name))->setChecked(true);
        setDisplay(mDisplay); // X-ray while placing
    });
    QWidget::addAction(mActions.add(nullptr, QStringLiteral("toolCancel"), tr("Cancel Tool"), QKeySequence(Qt::Key_Escape),
        [this] { mTools->setTool(Tool::Select); }));
    tools->addSeparator();
    mActions.add(tools, QStringLiteral("toolAutoRig"), tr("&Auto-Rig…"), QKeySequence(tr("Ctrl+R")), [this] { autoRig(QString(), 75.f); });
    createRigToolsEntries(tools);
    mActions.fill(toolBar, {"", "toolAutoRig"});
    return toolBar;
}

void MainWindow::createHelpMenu()
{
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    mActions.add(help, QStringLiteral("helpAbout"), tr("&About Marionette"), {}, [this] {
        QMessageBox::about(this, tr("About Marionette"),
            tr("<h3>Marionette %1</h3><p>Character-physics authoring: Verlet particles, sticks, ranges, triangles and "
               "angular constraints on a skinned character, exported as a .mrig for the runtime.</p>")
                .arg(QStringLiteral(MARIONETTE_VERSION)));
    });
}

} // namespace marionette::app
