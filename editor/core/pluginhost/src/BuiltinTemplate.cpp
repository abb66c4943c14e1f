#include "BuiltinTemplate.h"

namespace marionette::editor {

QString BuiltinTemplate::displayName() const
{
    switch (mWhich) {
    case editor::RigTemplate::Auto: return QStringLiteral("Automatic (humanoid when the bones map, else generic)");
    case editor::RigTemplate::Humanoid: return QStringLiteral("Humanoid");
    case editor::RigTemplate::Generic: return QStringLiteral("Generic (any skeleton)");
    }
    return {};
}

QString BuiltinTemplate::description() const
{
    switch (mWhich) {
    case editor::RigTemplate::Auto:
        return QStringLiteral("The humanoid template when the bone names and hierarchy map to a complete human "
                              "(Mixamo, Unreal, 3ds Max Biped, Rigify, plain names), the generic one otherwise.");
    case editor::RigTemplate::Humanoid:
        return QStringLiteral("Pelvis, chest and head triangles, elbows and knees as hinges, swing/twist joints "
                              "with anatomical limits, self-collision ranges. Fails naming the missing body parts.");
    case editor::RigTemplate::Generic:
        return QStringLiteral("Any skeleton: particles at joints, triangles at branch points, stick-driven chains "
                              "with bend ranges, cone limits between triangles, masses by bone volume.");
    }
    return {};
}

bool BuiltinTemplate::build(const plugin::TemplateInput& input, plugin::TemplateResult& result) const
{
    AutoRigInput in;
    in.skeleton = input.skeleton;
    in.boneVertices = input.boneVertices;
    in.totalMass = input.totalMass;
    in.requested = mWhich;
    in.name = input.name;
    AutoRigResult r = autoRig(in);
    result.notes = std::move(r.notes);
    if (!r.ok) {
        result.error = std::move(r.error);
        return false;
    }
    result.rig = std::move(r.rig);
    result.templateUsed = std::move(r.templateUsed);
    return true;
}

} // namespace marionette::editor
