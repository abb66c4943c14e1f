#include "marionette/editor/document/commands/AddParticleCommand.h"

#include <QCoreApplication>

namespace marionette::editor {

AddParticleCommand::AddParticleCommand(Document* document, Vec3 position, float radius, float mass, std::int32_t bone)
    : AddElementCommand(document, make(*document, position, radius, mass, bone),
          QCoreApplication::translate("Commands", "Add Particle"), "particle")
{
}

rig::Particle AddParticleCommand::make(const Document& document, Vec3 position, float radius, float mass,
    std::int32_t bone)
{
    const rig::RigDescription& rig = document.rig();
    rig::Particle p;
    p.position = position;
    p.radius = radius;
    p.mass = mass;
    if (bone >= 0 && std::size_t(bone) < rig.bones.size()) {
        p.bone = bone;
        const std::string& name = rig.bones[std::size_t(bone)].name;
        bool used = false;
        for (const rig::Particle& other : rig.particles)
            used = used || other.name == name;
        if (!used)
            p.name = name;
    }
    return p;
}

} // namespace marionette::editor
