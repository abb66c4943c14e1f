// Marionette — undo command: add a particle at a point (on the mesh surface, at a joint, anywhere).
#pragma once

#include "marionette/editor/document/commands/AddElementCommand.h"

namespace marionette::editor {

class AddParticleCommand : public AddElementCommand {
  public:
    /// A particle at `position` with the given radius and mass; `bone` (or kNone) records the joint it was
    /// snapped to. The name is "<bone name>" when snapped and unused, else "particle<n>".
    AddParticleCommand(Document* document, Vec3 position, float radius, float mass = 1.f,
        std::int32_t bone = rig::kNone);

  private:
    static rig::Particle make(const Document& document, Vec3 position, float radius, float mass, std::int32_t bone);
};

} // namespace marionette::editor
