// Marionette — undo command: move particles (the move gizmo, typed positions). Successive moves of the same
// particles within one drag (same `dragId`) merge into a single undo step.
#pragma once

#include "marionette/editor/document/Document.h"

#include <QUndoCommand>

namespace marionette::editor {

class MoveParticlesCommand : public QUndoCommand {
  public:
    /// Moves each particle of `particles` to the matching entry of `positions` (same length). A `dragId`
    /// of 0 never merges.
    MoveParticlesCommand(Document* document, std::vector<ElementRef> particles, std::vector<Vec3> positions,
        int dragId = 0);

    void redo() override;
    void undo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

  private:
    Document* mDocument;
    std::vector<ElementRef> mParticles;
    std::vector<Vec3> mBefore;
    std::vector<Vec3> mAfter;
    int mDragId;
};

} // namespace marionette::editor
