#include "marionette/editor/document/commands/ReplaceElementsCommand.h"

namespace marionette::editor {

ReplaceElementsCommand::ReplaceElementsCommand(Document* document, std::vector<AnyElement> values, const QString& text,
    QUndoCommand* parent)
    : QUndoCommand(text, parent), mDocument(document)
{
    const rig::RigDescription& rig = document->rig();
    for (AnyElement& value : values) {
        const std::int32_t i = indexOf(rig, {kindOf(value), idOf(value)});
        if (i == rig::kNone)
            continue;
        mOld.push_back(elementAt(rig, kindOf(value), std::size_t(i)));
        mNew.push_back(std::move(value));
    }
}

void ReplaceElementsCommand::redo()
{
    for (const AnyElement& e : mNew)
        mDocument->replaceElement({kindOf(e), idOf(e)}, e);
}

void ReplaceElementsCommand::undo()
{
    for (auto it = mOld.rbegin(); it != mOld.rend(); ++it)
        mDocument->replaceElement({kindOf(*it), idOf(*it)}, *it);
}

std::vector<AnyElement> particlesWithMasses(const rig::RigDescription& rig, const std::vector<float>& masses)
{
    std::vector<AnyElement> out;
    for (std::size_t i = 0; i < rig.particles.size() && i < masses.size(); ++i)
        if (rig.particles[i].mass != masses[i]) {
            rig::Particle p = rig.particles[i];
            p.mass = masses[i];
            out.emplace_back(std::move(p));
        }
    return out;
}

} // namespace marionette::editor
