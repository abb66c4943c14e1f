// Marionette — undo command: add a distance link between two particles: a rigid stick, a min/max range,
// a min-only or a max-only link. Limits default from the particles' bind distance d:
// rigid: rest = d; range: [0.9 d, 1.1 d]; min-only: min = d; max-only: max = d.
#pragma once

#include "marionette/editor/document/commands/AddElementCommand.h"

namespace marionette::editor {

class AddStickCommand : public AddElementCommand {
  public:
    /// `a` and `b` are distinct particle indices of the document's rig.
    AddStickCommand(Document* document, std::int32_t a, std::int32_t b, rig::StickKind kind);

    static rig::Stick make(const rig::RigDescription& rig, std::int32_t a, std::int32_t b, rig::StickKind kind);
};

} // namespace marionette::editor
