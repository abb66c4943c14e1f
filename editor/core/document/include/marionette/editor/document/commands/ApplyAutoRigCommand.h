// Marionette — undo command: replace the rig with one the auto-rig (or a template plugin) built, as a single
// undo step. Element views (visibility, locks) of the old rig are dropped; the selection is cleared.
#pragma once

#include "marionette/editor/document/Document.h"

#include <QUndoCommand>

namespace marionette::editor {

class ApplyAutoRigCommand : public QUndoCommand {
  public:
    /// `rig` gets stable ids for its elements (project::assignMissingIds) before it is applied.
    ApplyAutoRigCommand(Document* document, rig::RigDescription rig, const QString& templateName);

    void redo() override;
    void undo() override;

  private:
    Document* mDocument;
    rig::RigDescription mAfter;
    rig::RigDescription mBefore;
    std::vector<project::ElementView> mViewsBefore;
    std::vector<ElementRef> mSelectionBefore;
};

} // namespace marionette::editor
