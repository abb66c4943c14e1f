#include "marionette/editor/document/commands/AddTriangleCommand.h"

#include <QCoreApplication>

namespace marionette::editor {

namespace {
rig::Triangle make(std::int32_t p0, std::int32_t p1, std::int32_t p2)
{
    rig::Triangle t;
    t.p[0] = p0;
    t.p[1] = p1;
    t.p[2] = p2;
    return t;
}
} // namespace

AddTriangleCommand::AddTriangleCommand(Document* document, std::int32_t p0, std::int32_t p1, std::int32_t p2)
    : AddElementCommand(document, make(p0, p1, p2), QCoreApplication::translate("Commands", "Make Triangle"),
          "triangle")
{
}

} // namespace marionette::editor
