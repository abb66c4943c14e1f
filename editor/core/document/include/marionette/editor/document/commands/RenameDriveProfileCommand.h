// Marionette — undo command: rename a drive profile (the Drive panel's Rename). Games find profiles by name
// (runtime::Rig::findDriveProfile), so names stay non-empty and unique.
#pragma once

#include "marionette/editor/document/commands/DriveProfilesCommand.h"

namespace marionette::editor {

class RenameDriveProfileCommand : public DriveProfilesCommand {
  public:
    /// Names the profile with id `profile` `name` (trimmed). Refuses (null, `error` one line) an unknown id,
    /// an empty name and a name any profile has (its own included: nothing would change). The caller pushes
    /// the command.
    static RenameDriveProfileCommand* create(Document* document, rig::ElementId profile, const QString& name,
                                             QString& error);

  private:
    RenameDriveProfileCommand(Document* document, rig::ElementId profile, const QString& name);
};

} // namespace marionette::editor
