// Marionette — undo command: make an imported mesh the project's source mesh (File ▸ Import Mesh), and name
// an unnamed project after it. The rig is left as it is; the application usually follows it with
// ApplyAutoRigCommand inside one macro.
#pragma once

#include "marionette/editor/document/Document.h"

#include <QUndoCommand>

namespace marionette::editor {

class ReplaceMeshCommand : public QUndoCommand {
  public:
    /// `name`: the project's name after the command; empty leaves the name as it is.
    ReplaceMeshCommand(Document* document, project::SourceMesh source, project::ImportSettings settings,
        std::shared_ptr<const import::ImportedScene> mesh, QString name = {});

    void redo() override;
    void undo() override;

  private:
    Document* mDocument;
    project::SourceMesh mSource, mSourceBefore;
    project::ImportSettings mSettings, mSettingsBefore;
    std::shared_ptr<const import::ImportedScene> mMesh, mMeshBefore;
    QString mName, mNameBefore;
};

} // namespace marionette::editor
