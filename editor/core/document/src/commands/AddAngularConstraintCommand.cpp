#include "marionette/editor/document/commands/AddAngularConstraintCommand.h"

#include <QCoreApplication>

namespace marionette::editor {

namespace {
rig::AngularConstraint make(std::int32_t a, std::int32_t b)
{
    rig::AngularConstraint c;
    c.triangleA = a;
    c.triangleB = b;
    c.limit = rig::AngularLimit::Cone;
    c.coneAngle = radians(45.f);
    return c;
}
} // namespace

AddAngularConstraintCommand::AddAngularConstraintCommand(Document* document, std::int32_t triangleA,
    std::int32_t triangleB)
    : AddElementCommand(document, make(triangleA, triangleB),
          QCoreApplication::translate("Commands", "Add Angular Constraint"), "angular")
{
}

} // namespace marionette::editor
