// Marionette — undo command: add an angular (triangle orientation) constraint between two triangles
// (Rosen). It starts as a 45° cone about the bind pose's relative orientation; the limits are edited in
// the properties panel or with the viewport's limit gizmo.
#pragma once

#include "marionette/editor/document/commands/AddElementCommand.h"

namespace marionette::editor {

class AddAngularConstraintCommand : public AddElementCommand {
  public:
    /// Two distinct triangle indices of the document's rig: `triangleA` is the parent side.
    AddAngularConstraintCommand(Document* document, std::int32_t triangleA, std::int32_t triangleB);
};

} // namespace marionette::editor
