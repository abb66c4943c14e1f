// Marionette — undo command: make a triangle (a body part with a full orientation, Rosen) from three
// particles. p0 is the frame's origin, p1 sets "up" (p1 − p0), p2 the side.
#pragma once

#include "marionette/editor/document/commands/AddElementCommand.h"

namespace marionette::editor {

class AddTriangleCommand : public AddElementCommand {
  public:
    /// Three distinct particle indices of the document's rig, in frame order.
    AddTriangleCommand(Document* document, std::int32_t p0, std::int32_t p1, std::int32_t p2);
};

} // namespace marionette::editor
