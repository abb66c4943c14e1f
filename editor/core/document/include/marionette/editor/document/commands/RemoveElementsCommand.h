// Marionette — undo command: delete elements together with everything that depends on them (the sticks
// and triangles of a deleted particle, the angular constraints of a deleted triangle, ...), as one step.
#pragma once

#include "marionette/editor/document/Document.h"

#include <QUndoCommand>

namespace marionette::editor {

class RemoveElementsCommand : public QUndoCommand {
  public:
    /// `refs` may name missing elements (ignored). dependents() says what will go with them.
    RemoveElementsCommand(Document* document, const std::vector<ElementRef>& refs);

    void redo() override;
    void undo() override;

    /// Everything the command removes: `refs` and their dependents.
    const std::vector<ElementRef>& removed() const { return mRemoved; }

  private:
    Document* mDocument;
    std::vector<ElementRef> mRemoved;
    rig::RigDescription mBefore;
    std::vector<project::ElementView> mViewsBefore;
    std::vector<ElementRef> mSelectionBefore;
};

} // namespace marionette::editor
