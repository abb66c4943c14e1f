#include "marionette/editor/document/commands/AddStickCommand.h"

#include <QCoreApplication>

namespace marionette::editor {

namespace {

QString textFor(rig::StickKind kind)
{
    switch (kind) {
    case rig::StickKind::Rigid: return QCoreApplication::translate("Commands", "Add Stick");
    case rig::StickKind::Range: return QCoreApplication::translate("Commands", "Add Min/Max Range");
    case rig::StickKind::MinOnly: return QCoreApplication::translate("Commands", "Add Min-Only Link");
    case rig::StickKind::MaxOnly: break;
    }
    return QCoreApplication::translate("Commands", "Add Max-Only Link");
}

const char* prefixFor(rig::StickKind kind)
{
    switch (kind) {
    case rig::StickKind::Rigid: return "stick";
    case rig::StickKind::Range: return "range";
    case rig::StickKind::MinOnly: return "min";
    case rig::StickKind::MaxOnly: break;
    }
    return "max";
}

} // namespace

AddStickCommand::AddStickCommand(Document* document, std::int32_t a, std::int32_t b, rig::StickKind kind)
    : AddElementCommand(document, make(document->rig(), a, b, kind), textFor(kind), prefixFor(kind))
{
}

rig::Stick AddStickCommand::make(const rig::RigDescription& rig, std::int32_t a, std::int32_t b, rig::StickKind kind)
{
    rig::Stick s;
    s.a = a;
    s.b = b;
    s.kind = kind;
    const float d = length(rig.particles[std::size_t(b)].position - rig.particles[std::size_t(a)].position);
    switch (kind) {
    case rig::StickKind::Rigid: s.restLength = -1.f; break; // the bind distance, followed if particles move
    case rig::StickKind::Range:
        s.minLength = 0.9f * d;
        s.maxLength = 1.1f * d;
        break;
    case rig::StickKind::MinOnly: s.minLength = d; break;
    case rig::StickKind::MaxOnly: s.maxLength = d; break;
    }
    return s;
}

} // namespace marionette::editor
