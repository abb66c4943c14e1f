// Marionette — undo command: clear parts of a drive profile back to its defaults (their entries removed; the
// Drive panel's "Use defaults").
#pragma once

#include "marionette/editor/document/commands/DriveProfilesCommand.h"

namespace marionette::editor {

class ClearDrivePartsCommand : public DriveProfilesCommand {
  public:
    /// Removes the entries of `parts` (Triangle or Stick refs of the document's rig) from the profile with
    /// id `profile`; parts without an entry are left as they are. Refuses (null, `error` one line) what
    /// checkDriveParts() refuses and a set of parts none of which has an entry (nothing to clear). The caller
    /// pushes the command.
    static ClearDrivePartsCommand* create(Document* document, rig::ElementId profile,
                                          const std::vector<ElementRef>& parts, QString& error);

  private:
    ClearDrivePartsCommand(Document* document, rig::ElementId profile);
};

} // namespace marionette::editor
