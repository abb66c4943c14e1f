// Marionette — the base of the drive-profile undo commands (AddDriveProfileCommand, RemoveDriveProfileCommand,
// RenameDriveProfileCommand, SetDriveDefaultsCommand, SetDrivePartsCommand, ClearDrivePartsCommand): each
// builds the rig's profiles as they are after its edit; redo puts those in, undo the profiles from before.
// Profiles are small (a few gains per part), so a whole copy is the simplest exact undo.
#pragma once

#include "marionette/editor/document/Document.h"

#include <QUndoCommand>

namespace marionette::editor {

class DriveProfilesCommand : public QUndoCommand {
  public:
    void redo() override;
    void undo() override;

    /// The id of the profile the command edits (or adds).
    rig::ElementId profileId() const { return mProfileId; }

  protected:
    /// Reads the document's profiles as "before" (and "after", for the subclass to edit).
    DriveProfilesCommand(Document* document, rig::ElementId profile);
    /// The profile being edited in mAfter (it must exist there).
    rig::DriveProfile& edited();
    /// For merging value edits: takes `next`'s result and marks the step obsolete when it changes nothing.
    void takeResultOf(const DriveProfilesCommand& next);

    Document* mDocument;
    rig::ElementId mProfileId;
    std::vector<rig::DriveProfile> mBefore, mAfter;
};

} // namespace marionette::editor
