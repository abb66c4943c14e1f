#include "marionette/editor/document/commands/ReplaceRigCommand.h"

namespace marionette::editor {

ReplaceRigCommand::ReplaceRigCommand(Document* document, rig::RigDescription rig, const QString& text)
    : mDocument(document), mAfter(std::move(rig)), mBefore(document->rig()), mViewsBefore(document->project().editor.elements)
{
    setText(text);
}

void ReplaceRigCommand::redo()
{
    std::vector<project::ElementView> kept;
    for (const project::ElementView& v : mViewsBefore)
        if (indexOf(mAfter, v.element) != rig::kNone)
            kept.push_back(v);
    mDocument->replaceRig(mAfter, std::move(kept));
}

void ReplaceRigCommand::undo() { mDocument->replaceRig(mBefore, mViewsBefore); }

} // namespace marionette::editor
