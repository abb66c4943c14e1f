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

    /// The Add Particle tool's edit: a particle whose mass is its neighbours' (Masses.h neighbourMass()); with
    /// `keepTotal`, every dynamic mass, the new one's included, is scaled so the rig's total stays as it was
    /// (massesKeepingTotal()). One undo step either way; the caller pushes the command.
    static AddParticleCommand* withNeighbourMass(Document* document, Vec3 position, float radius,
        std::int32_t bone, bool keepTotal);

  private:
    static rig::Particle make(const Document& document, Vec3 position, float radius, float mass, std::int32_t bone);
};

} // namespace marionette::editor
