#include "marionette/editor/document/commands/SetCollisionGroupsCommand.h"

#include "marionette/editor/document/commands/ReplaceElementsCommand.h"

#include <QCoreApplication>

namespace marionette::editor {

SetCollisionGroupsCommand::SetCollisionGroupsCommand(Document* document, std::vector<project::CollisionGroupName> names,
    const CollisionMatrix& matrix)
    : mDocument(document), mNames(std::move(names)), mOldNames(document->project().collisionGroups)
{
    setText(QCoreApplication::translate("Commands", "Edit Collision Groups"));
    // The masks, as a child: QUndoCommand runs children after this command's redo and before its undo.
    new ReplaceElementsCommand(document, applyCollisionMatrix(document->rig(), matrix), text(), this);
}

void SetCollisionGroupsCommand::redo()
{
    mDocument->setCollisionGroups(mNames);
    QUndoCommand::redo();
}

void SetCollisionGroupsCommand::undo()
{
    QUndoCommand::undo();
    mDocument->setCollisionGroups(mOldNames);
}

} // namespace marionette::editor
