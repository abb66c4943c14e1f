// Marionette — undo command: show/hide or lock/unlock elements (the outliner's eye and lock columns).
#pragma once

#include "marionette/editor/document/Document.h"

#include <QUndoCommand>

#include <optional>

namespace marionette::editor {

class SetElementViewCommand : public QUndoCommand {
  public:
    /// Sets visibility and/or lock (nullopt = leave as is) on every element of `refs`.
    SetElementViewCommand(Document* document, std::vector<ElementRef> refs, std::optional<bool> visible,
        std::optional<bool> locked);

    void redo() override;
    void undo() override;

  private:
    Document* mDocument;
    std::vector<ElementRef> mRefs;
    std::optional<bool> mVisible, mLocked;
    std::vector<project::ElementView> mBefore;
};

} // namespace marionette::editor
