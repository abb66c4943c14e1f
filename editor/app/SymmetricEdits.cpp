#include "SymmetricEdits.h"

#include "marionette/editor/autorig/BoneNames.h"
#include "marionette/editor/document/commands/SymmetricEditCommand.h"

#include <QUndoStack>

namespace marionette::app {

editor::MirrorMap mirrorPairs(const editor::Document& document)
{
    const project::SymmetrySettings& s = document.project().editor.symmetry;
    return editor::findMirrorPairs(document.rig(), editor::MirrorPlane::of(s), s.tolerance,
                                   editor::autorig::mirrorParticlesByName(document.rig()));
}

editor::MirrorNamer mirrorNamer()
{
    return [](const std::string& name) { return editor::autorig::mirroredName(name); };
}

void pushEdit(editor::Document* document, QUndoCommand* edit)
{
    const project::SymmetrySettings& s = document->project().editor.symmetry;
    if (!s.enabled) {
        document->undoStack()->push(edit);
        return;
    }
    document->undoStack()->push(new editor::SymmetricEditCommand(document, edit, mirrorPairs(*document), s, mirrorNamer()));
}

editor::MirrorSource leftSide(const editor::Document& document)
{
    const editor::MirrorPlane plane = editor::MirrorPlane::of(document.project().editor.symmetry);
    float vote = 0.f;
    for (const rig::Particle& p : document.rig().particles) {
        const editor::autorig::Side side = editor::autorig::splitSide(p.name).side;
        const float d = plane.distance(p.position);
        vote += side == editor::autorig::Side::Left ? d : side == editor::autorig::Side::Right ? -d : 0.f;
    }
    return vote < 0.f ? editor::MirrorSource::NegativeSide : editor::MirrorSource::PositiveSide;
}

} // namespace marionette::app
