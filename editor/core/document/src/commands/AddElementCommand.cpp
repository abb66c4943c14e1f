#include "marionette/editor/document/commands/AddElementCommand.h"

namespace marionette::editor {

AddElementCommand::AddElementCommand(Document* document, AnyElement element, const QString& text,
    const std::string& namePrefix)
    : mDocument(document), mElement(std::move(element))
{
    setText(text);
    const ElementKind kind = kindOf(mElement);
    std::visit(
        [&](auto& e) {
            if (e.id == 0)
                e.id = nextId(mDocument->rig(), kind);
            if (e.name.empty())
                e.name = uniqueName(mDocument->rig(), kind, namePrefix);
        },
        mElement);
}

void AddElementCommand::redo()
{
    mSelectionBefore = mDocument->selection();
    mDocument->appendElement(mElement);
    QUndoCommand::redo(); // children (AddParticleCommand::withNeighbourMass's rescale) after the element
    mDocument->setSelection({ref()});
}

void AddElementCommand::undo()
{
    QUndoCommand::undo();
    mDocument->removeLastElement(kindOf(mElement));
    mDocument->setSelection(mSelectionBefore);
}

} // namespace marionette::editor
