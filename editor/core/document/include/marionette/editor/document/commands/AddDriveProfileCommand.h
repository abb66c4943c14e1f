// Marionette — undo command: add a drive profile to the rig (the Drive panel's Add and Duplicate), empty (every
// gain at rig::DriveGains' defaults: the passive ragdoll) or a copy of another profile.
#pragma once

#include "marionette/editor/document/commands/DriveProfilesCommand.h"

namespace marionette::editor {

class AddDriveProfileCommand : public DriveProfilesCommand {
  public:
    /// A profile named `name` (trimmed; empty: "profile", or "<source> copy", made unique), a copy of the
    /// profile with id `copyOf` (0: an empty one), with a fresh id (profileId()). Refuses (null, `error` one
    /// line) a name another profile has and an unknown `copyOf`. The caller pushes the command.
    static AddDriveProfileCommand* create(Document* document, const QString& name, rig::ElementId copyOf,
                                          QString& error);

  private:
    AddDriveProfileCommand(Document* document, rig::DriveProfile profile);
};

} // namespace marionette::editor
