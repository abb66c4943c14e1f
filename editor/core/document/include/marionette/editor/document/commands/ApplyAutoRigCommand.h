// Marionette — undo command: replace the rig with one the auto-rig (or a template plugin) built, as a single
// undo step. Element views (visibility, locks) of the old rig are dropped; the selection is cleared. The old
// rig's drive profiles are carried over by element name (carryDriveProfiles), overriding the new rig's
// profiles of the same name: re-running the auto-rig does not lose an artist's tuning.
#pragma once

#include "marionette/editor/document/Document.h"

#include <QUndoCommand>

namespace marionette::editor {

class ApplyAutoRigCommand : public QUndoCommand {
  public:
    /// `rig` gets the document's drive profiles (carryDriveProfiles) and stable ids for its elements
    /// (project::assignMissingIds) before it is applied.
    ApplyAutoRigCommand(Document* document, rig::RigDescription rig, const QString& templateName);

    /// The profile parts whose element the new rig lacks ("profile: element"), for the log.
    const std::vector<std::string>& droppedDriveParts() const { return mDroppedDriveParts; }

    void redo() override;
    void undo() override;

  private:
    Document* mDocument;
    rig::RigDescription mAfter;
    rig::RigDescription mBefore;
    std::vector<project::ElementView> mViewsBefore;
    std::vector<ElementRef> mSelectionBefore;
    std::vector<std::string> mDroppedDriveParts;
};

} // namespace marionette::editor
