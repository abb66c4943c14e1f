// Marionette — the editor's document (DESIGN.md §9, STYLE.md 7): the project being edited, its undo stack,
// the selection, and the imported mesh it was built on.
//
// Views observe the document through its signals and never change it directly: every edit is a QUndoCommand
// (editor/commands/) pushed on undoStack(), and the commands use the mutation functions below, which emit
// the signals. Selection is not part of the undo history (as in most DCC tools) and does not make the document
// modified; it is written into the project's editor state when saving.
#pragma once

#include "marionette/editor/document/RigEdit.h"
#include "marionette/import/ImportedScene.h"
#include "marionette/project/Project.h"

#include <QObject>
#include <QString>
#include <QUndoStack>

#include <memory>
#include <vector>

namespace marionette::editor {

class Document : public QObject {
    Q_OBJECT
  public:
    explicit Document(QObject* parent = nullptr);
    ~Document() override;

    const project::Project& project() const { return mProject; }
    const rig::RigDescription& rig() const { return mProject.rig; }
    QUndoStack* undoStack() { return &mUndoStack; }

    /// The imported mesh (bind pose), or null when the project has none or it is not loaded (yet).
    const std::shared_ptr<const import::ImportedScene>& mesh() const { return mMesh; }

    /// Absolute path of the .mproj, empty for a document never saved.
    QString filePath() const { return mFilePath; }
    /// "name.mproj", or "Untitled" for a document never saved.
    QString displayName() const;
    /// True when there are changes not saved to filePath().
    bool isModified() const;

    // --- Whole-document operations (not undoable: they replace the history) -------------------------------

    /// Empties the document: no mesh, an empty rig, no file, a clean undo stack.
    void clear();
    /// Loads a .mproj. On failure the document is unchanged and `error` holds one line naming the file.
    /// The mesh is not loaded here (it can take long): the caller imports sourceMesh and calls attachMesh().
    bool load(const QString& path, QString& error);
    /// Takes over a project read elsewhere (recovery, tests). `path` may be empty; `modified` marks it unsaved.
    void adopt(project::Project project, const QString& path, bool modified);
    /// Saves to `path` atomically (the old file is untouched on failure), records the path and marks the
    /// document clean. On failure returns false with `error` naming the file.
    bool save(const QString& path, QString& error);
    /// The project as it would be saved now (with the current selection in its editor state).
    project::Project snapshot() const;
    /// Records how the viewport looks (camera, mesh opacity, X-ray) for the next save. Not an edit: it does
    /// not make the document modified.
    void setViewState(const project::Camera& camera, float meshOpacity, bool xray);
    /// Symmetric editing's settings (Edit ▸ Symmetry), kept in the project's editor state for the next save.
    /// Not an edit: it does not make the document modified.
    void setSymmetry(const project::SymmetrySettings& symmetry);
    /// Shows `mesh` (already imported from project().sourceMesh) without changing the project.
    void attachMesh(std::shared_ptr<const import::ImportedScene> mesh);

    // --- Selection -----------------------------------------------------------------------------------------

    const std::vector<ElementRef>& selection() const { return mSelection; }
    /// Replaces the selection (refs to missing elements dropped, repeats removed, order kept).
    void setSelection(std::vector<ElementRef> refs);
    bool isSelected(ElementRef ref) const;
    /// The selected elements of one kind, as rig indices, in selection order.
    std::vector<std::int32_t> selectedIndices(ElementKind kind) const;

    // --- Element views (visibility, lock) ------------------------------------------------------------------

    bool isVisible(ElementRef ref) const;
    bool isLocked(ElementRef ref) const;

    // --- Mutations, for undo commands only -----------------------------------------------------------------

    void appendElement(AnyElement element);
    void removeLastElement(ElementKind kind);
    /// Replaces the whole rig (and the editor state that refers to it).
    void replaceRig(rig::RigDescription rig, std::vector<project::ElementView> views);
    /// Replaces one element in place (same kind and id; references unchanged).
    void replaceElement(ElementRef ref, const AnyElement& element);
    void setParticlePositions(const std::vector<ElementRef>& particles, const std::vector<Vec3>& positions);
    void setSettings(const rig::Settings& settings);
    void setElementViews(std::vector<project::ElementView> views);
    void setMeshSource(project::SourceMesh source, project::ImportSettings settings,
        std::shared_ptr<const import::ImportedScene> mesh);
    void setProjectName(const QString& name);
    /// Replaces the named collision groups (kept in bit order; editor metadata, the .mrig has only bits).
    void setCollisionGroups(std::vector<project::CollisionGroupName> groups);
    /// Replaces the project's levels of detail (project::LodLevel; generated rigs kept beside the rig).
    void setLods(std::vector<project::LodLevel> lods);
    /// Replaces the rig's drive profiles (powered ragdolls; DriveProfiles.h). Their parts must name triangles
    /// and sticks of the rig.
    void setDriveProfiles(std::vector<rig::DriveProfile> profiles);
    void appendScenario(project::Scenario scenario);
    void removeLastScenario();

  signals:
    /// Elements were added, removed or the rig replaced: indices may have changed.
    void structureChanged();
    /// These elements changed values (position, a property); nothing was added or removed.
    void elementsChanged(const std::vector<marionette::project::ElementRef>& refs);
    void settingsChanged();
    void viewsChanged();
    void meshChanged();
    void scenariosChanged();
    void collisionGroupsChanged();
    void symmetryChanged();
    void lodsChanged();
    /// The rig's drive profiles changed (added, removed, renamed, gains edited), or the rig was replaced.
    void driveProfilesChanged();
    void selectionChanged();
    void modifiedChanged(bool modified);
    void filePathChanged(const QString& path);

  private:
    void resetHistory(bool modified);
    void emitModified();
    /// Drops selected elements the rig no longer has; true when any were dropped.
    bool pruneSelection();

    project::Project mProject;
    std::shared_ptr<const import::ImportedScene> mMesh;
    std::vector<ElementRef> mSelection;
    QUndoStack mUndoStack;
    QString mFilePath;
    bool mModifiedOutsideHistory = false; ///< recovered or migrated documents are unsaved without any command
    bool mLastModified = false;
};

} // namespace marionette::editor
