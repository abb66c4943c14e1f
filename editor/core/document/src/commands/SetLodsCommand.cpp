#include "marionette/editor/document/commands/SetLodsCommand.h"

namespace marionette::editor {

SetLodsCommand::SetLodsCommand(Document* document, std::vector<project::LodLevel> lods, const QString& text)
    : mDocument(document), mLods(std::move(lods)), mOldLods(document->project().lods)
{
    setText(text);
}

void SetLodsCommand::redo() { mDocument->setLods(mLods); }

void SetLodsCommand::undo() { mDocument->setLods(mOldLods); }

} // namespace marionette::editor
