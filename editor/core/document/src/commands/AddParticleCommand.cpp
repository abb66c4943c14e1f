#include "marionette/editor/document/commands/AddParticleCommand.h"

#include "marionette/editor/document/Masses.h"
#include "marionette/editor/document/commands/ReplaceElementsCommand.h"

#include <QCoreApplication>

namespace marionette::editor {

AddParticleCommand::AddParticleCommand(Document* document, Vec3 position, float radius, float mass, std::int32_t bone)
    : AddElementCommand(document, make(*document, position, radius, mass, bone),
          QCoreApplication::translate("Commands", "Add Particle"), "particle")
{
}

AddParticleCommand* AddParticleCommand::withNeighbourMass(Document* document, Vec3 position, float radius,
    std::int32_t bone, bool keepTotal)
{
    const rig::RigDescription& rig = document->rig();
    const float mass = neighbourMass(rig, position);
    if (!keepTotal)
        return new AddParticleCommand(document, position, radius, mass, bone);
    std::vector<float> masses = massesKeepingTotal(rig, mass);
    auto* command = new AddParticleCommand(document, position, radius, masses.back(), bone);
    masses.pop_back();
    new ReplaceElementsCommand(document, particlesWithMasses(rig, masses), command->text(), command);
    return command;
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
