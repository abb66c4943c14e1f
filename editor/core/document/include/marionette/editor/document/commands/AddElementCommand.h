// Marionette — undo command: append one element to the rig and select it. The base of the Add*Command
// classes, which only build the element; this class gives it an id and a unique name on the first redo.
#pragma once

#include "marionette/editor/document/Document.h"

#include <QUndoCommand>

namespace marionette::editor {

class AddElementCommand : public QUndoCommand {
  public:
    /// `element`'s references must be valid indices of the document's rig when the command is pushed.
    /// An id of 0 gets a fresh id; an empty name gets "<namePrefix><n>".
    AddElementCommand(Document* document, AnyElement element, const QString& text, const std::string& namePrefix);

    void redo() override;
    void undo() override;

    /// The element as added (id and name assigned once redo() has run).
    ElementRef ref() const { return {kindOf(mElement), idOf(mElement)}; }

  private:
    Document* mDocument;
    AnyElement mElement;
    std::vector<ElementRef> mSelectionBefore;
};

} // namespace marionette::editor
