// Marionette — undo command: the Collision Groups dialog's edit in one step: the groups' names (project
// metadata) and the element masks the matrix gives (CollisionGroups.h applyCollisionMatrix).
#pragma once

#include "marionette/editor/document/CollisionGroups.h"
#include "marionette/editor/document/Document.h"

#include <QUndoCommand>

namespace marionette::editor {

class SetCollisionGroupsCommand : public QUndoCommand {
  public:
    /// Names the groups `names` (replacing every name) and applies `matrix` to the document's rig.
    SetCollisionGroupsCommand(Document* document, std::vector<project::CollisionGroupName> names,
        const CollisionMatrix& matrix);

    void redo() override;
    void undo() override;

  private:
    Document* mDocument;
    std::vector<project::CollisionGroupName> mNames, mOldNames;
};

} // namespace marionette::editor
