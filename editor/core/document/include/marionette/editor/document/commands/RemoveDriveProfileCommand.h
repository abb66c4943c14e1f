// Marionette — undo command: remove a drive profile from the rig (the Drive panel's Remove).
#pragma once

#include "marionette/editor/document/commands/DriveProfilesCommand.h"

namespace marionette::editor {

class RemoveDriveProfileCommand : public DriveProfilesCommand {
  public:
    /// Removes the profile with id `profile`; refuses (null, `error` one line) an unknown id. The caller
    /// pushes the command.
    static RemoveDriveProfileCommand* create(Document* document, rig::ElementId profile, QString& error);

  private:
    RemoveDriveProfileCommand(Document* document, rig::ElementId profile, std::int32_t index);
};

} // namespace marionette::editor
