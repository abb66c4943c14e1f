// Marionette editor — the main window (DESIGN.md §9): the viewport in the centre, the outliner, properties,
// validation list and log in docks, menus and toolbars with shortcuts, a status bar. It owns the document,
// the plugin host and the autosave session. File operations are in MainWindowFiles.cpp.
//
// The public functions below are what the menus call after their file dialogs; the GUI tests call them
// with paths (and drive the viewport with mouse events).
#pragma once

#include "ActionRegistry.h"
#include "EditTools.h"
#include "ImportDialogs.h"

#include "marionette/editor/document/Document.h"
#include "marionette/editor/pluginhost/PluginHost.h"
#include "marionette/editor/document/Recovery.h"
#include "viewport/DisplayOptions.h"

#include <QMainWindow>
#include <QTimer>

#include <map>
#include <optional>
#include <memory>

class QLabel;
class QToolBar;
class QStackedWidget;

namespace marionette::viewport {
class Viewport;
}

namespace marionette::app {

class DrivePanel;
class LogPanel;
class PreviewController;
class PreviewToolBar;
class OutlinerPanel;
class PropertiesPanel;
class ValidationPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    editor::Document& document() { return mDocument; }
    /// Null when OpenGL 3.3 is unavailable (then glProblem() says why and the centre shows it).
    viewport::Viewport* viewport() const { return mViewport; }
    QString glProblem() const { return mGlProblem; }
    EditTools* tools() const { return mTools; }
    LogPanel* logPanel() const { return mLog; }
    ValidationPanel* validationPanel() const { return mValidation; }
    OutlinerPanel* outliner() const { return mOutliner; }
    PropertiesPanel* properties() const { return mProperties; }
    /// The Drive panel (drive profiles of powered ragdolls), in the "driveDock" dock.
    DrivePanel* drivePanel() const { return mDrive; }
    editor::PluginHost& plugins() { return mPlugins; }
    PreviewController* preview() const { return mPreview; }
    PreviewToolBar* previewToolBar() const { return mPreviewBar; }
    /// Saves what the preview recorded as a scenario of the project (one undo step). False when nothing
    /// was recorded or no preview runs.
    bool saveRecordedScenario(const QString& name, const project::Expectations& expectations);
    /// Replays every scenario of the project headless and reports to the log; returns how many failed.
    int runScenarios();
    /// Preview ▸ Bake to Animation: the preview's history, from its first held step to the one shown, baked
    /// onto the mesh's skeleton and written to `path` (.glb with the skinned mesh, or .json; asked in a file
    /// dialog opened in the project's folder when empty) off the UI thread. False (after a message) when
    /// nothing was simulated, there is no skinned mesh, or the write fails.
    bool bakePreview(const QString& path = {});
    /// The action of a menu entry by object name ("fileSave", "editUndo", "toolAddStick" ...), or null.
    QAction* action(const QString& name) const;

    /// A .mproj opens as a project; anything else is imported as a mesh. False (after a dialog) on failure.
    bool openPath(const QString& path);
    /// Opens a project (after asking to save unsaved changes). On failure a dialog shows the one-line
    /// message and the current document stays as it was.
    bool openProject(const QString& path);
    /// Imports a mesh off the UI thread with a progress dialog, then auto-rigs it with `templateName`, all
    /// one undo step. An empty `templateName` asks: the options dialog (scale, up axis, strict) before the
    /// file is read, the result dialog (warnings, a proposed scale, the rig: a template or keep the current
    /// one) after; "none" or "keep" keeps the current rig. `options` apply when nothing is asked.
    bool importMesh(const QString& path, const QString& templateName = {}, float totalMass = 75.f,
                    const ImportOptions& options = {});
    /// Replaces the rig with the template's (one undo step). Needs a mesh with a skeleton.
    bool autoRig(const QString& templateName, float totalMass);
    /// File ▸ Transfer Rig to Mesh…: applies the rig to the character of the mesh at `path`
    /// (editor::transferRig) and makes it the document's mesh, one undo step; the report goes to the log. An
    /// empty `path` asks for the mesh, a bone map file and the total mass, and shows the report. False
    /// (after an error dialog) when refused. MainWindowTransfer.cpp.
    bool transferRig(const QString& path, const QString& mapPath = {}, std::optional<float> totalMass = {});
    /// Tools ▸ Collision Groups…: the named groups and their matrix; OK applies them as one undo step.
    void editCollisionGroups(); // MainWindowRigTools.cpp
    void editLevelsOfDetail();  // MainWindowRigTools.cpp
    /// Tools ▸ Masses from Mesh…: asks the total (the rig's total by default) and spreads it over the particles
    /// by the skinned volume each drives (editor::massesFromMesh), one undo step. False (after a dialog) when
    /// cancelled or refused.
    bool massesFromMesh();
    /// Tools ▸ Fit Limits from Animation…: the dialog that fits the angular limits to the mesh's clips and
    /// to clip files, one undo step per Fit (MainWindowRigTools.cpp).
    void fitLimitsFromAnimation();
    bool saveTo(const QString& path);
    /// Validates, then exports with the exporter `format` ("mrig", or a plugin's). Refused, with the
    /// validation list shown, when the rig has errors.
    bool exportRig(const QString& path, const QString& format = QStringLiteral("mrig"));
    /// Where Export (and Save for a new project) offers to write a file with `extension`: beside the project,
    /// named after it; for an unsaved project beside its mesh; else the home folder.
    QString suggestedExportPath(const QString& extension) const;
    /// Asks to save unsaved changes: true when the caller may go on (saved, discarded, or nothing to save).
    bool maybeSave();
    /// Offers to recover autosaves left by editor sessions that crashed (called once after start).
    void offerRecovery();
    /// Writes the recovery file now if there are changes since the last autosave. Returns true if written.
    bool autosaveNow();
    editor::RecoverySession& recovery() { return *mRecovery; }

  protected:
    void closeEvent(QCloseEvent* event) override;

  private:
    void createViewport();
    void createDocks();
    void createMenusAndToolbars(); // MainWindowActions.cpp
    void createFileMenu();
    void createEditMenu();
    void createViewMenu();
    QToolBar* createToolsMenu(); ///< returns the tools' tool bar
    void createRigToolsEntries(QMenu* tools); // MainWindowRigTools.cpp
    void createHelpMenu();
    void refreshScene();
    void refreshTitle();
    void createSymmetryActions(QMenu* edit);
    void scheduleValidation();
    void runValidation();
    void loadProjectMesh();
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    void rebuildExportMenu();
    void deleteSelection();
    void setSelectionView(std::optional<bool> visible, std::optional<bool> locked);
    void frameSelection();
    void setDisplay(const viewport::DisplayOptions& options);
    /// What the viewport draws: the display options, with X-ray on while a placing tool is active (when
    /// View ▸ X-Ray While Placing is on).
    viewport::DisplayOptions shownDisplay() const;
    void showError(const QString& title, const QString& message);
    void createPreview();
    void setEditingLocked(bool locked);
    void askSaveScenario();
    void askStartFromAnimation();
    std::vector<std::pair<QString, QString>> templateChoices() const;

    editor::Document mDocument;
    editor::PluginHost mPlugins;
    std::unique_ptr<editor::RecoverySession> mRecovery;
    viewport::Viewport* mViewport = nullptr;
    QString mGlProblem;
    QStackedWidget* mCentre = nullptr;
    QLabel* mGlMessage = nullptr;
    EditTools* mTools = nullptr;
    PreviewController* mPreview = nullptr;
    PreviewToolBar* mPreviewBar = nullptr;
    OutlinerPanel* mOutliner = nullptr;
    PropertiesPanel* mProperties = nullptr;
    DrivePanel* mDrive = nullptr;
    ValidationPanel* mValidation = nullptr;
    LogPanel* mLog = nullptr;
    QLabel* mStatusCounts = nullptr;
    QMenu* mRecentMenu = nullptr;
    QMenu* mExportMenu = nullptr;
    QMenu* mViewMenu = nullptr;
    QMenu* mPanelsMenu = nullptr;
    ActionRegistry mActions{this};
    viewport::DisplayOptions mDisplay;
    bool mXrayWhilePlacing = true;
    QTimer mAutosaveTimer;
    QTimer mValidationTimer;
    int mEditCounter = 0;     ///< bumped on every change of the undo stack's index
    int mAutosavedAt = -1;    ///< mEditCounter when the recovery file was last written
};

} // namespace marionette::app
