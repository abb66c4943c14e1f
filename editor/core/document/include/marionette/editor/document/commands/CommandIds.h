// Marionette — QUndoCommand::id() values of the commands that merge with their predecessor.
#pragma once

namespace marionette::editor {

enum CommandId : int {
    kChangePropertyCommandId = 1,
    kMoveParticlesCommandId = 2,
    kSymmetricEditCommandId = 3,
    kSetDriveDefaultsCommandId = 4,
    kSetDrivePartsCommandId = 5,
};

} // namespace marionette::editor
