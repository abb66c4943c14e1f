// Marionette — undo command: the whole rig replaced by an edited copy of itself (Edit ▸ Mirror Left → Right),
// as one step. Elements keep their ids; the views (visibility, locks) of the elements that remain are kept.
#pragma once

#include "marionette/editor/document/Document.h"

#include <QUndoCommand>

namespace marionette::editor {

class ReplaceRigCommand : public QUndoCommand {
  public:
    ReplaceRigCommand(Document* document, rig::RigDescription rig, const QString& text);

    void redo() override;
    void undo() override;

  private:
    Document* mDocument;
    rig::RigDescription mAfter, mBefore;
    std::vector<project::ElementView> mViewsBefore;
};

} // namespace marionette::editor
