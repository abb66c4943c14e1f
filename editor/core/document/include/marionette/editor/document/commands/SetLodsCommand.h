// Marionette — undo command: the project's levels of detail replaced in one step (generating a level or
// removing one in Tools ▸ Levels of Detail…).
#pragma once

#include "marionette/editor/document/Document.h"

#include <QUndoCommand>

namespace marionette::editor {

class SetLodsCommand : public QUndoCommand {
  public:
    /// Replaces the document's levels with `lods`; `text` names the step ("Generate Level of Detail").
    SetLodsCommand(Document* document, std::vector<project::LodLevel> lods, const QString& text);

    void redo() override;
    void undo() override;

  private:
    Document* mDocument;
    std::vector<project::LodLevel> mLods, mOldLods;
};

} // namespace marionette::editor
