#include "marionette/editor/document/commands/RemoveElementsCommand.h"

#include <QCoreApplication>

#include <algorithm>

namespace marionette::editor {

RemoveElementsCommand::RemoveElementsCommand(Document* document, const std::vector<ElementRef>& refs)
    : mDocument(document), mRemoved(withDependents(document->rig(), refs))
{
    setText(mRemoved.size() == 1 ? QCoreApplication::translate("Commands", "Delete %1")
                                       .arg(QString::fromUtf8(project::describe(mRemoved.front().kind)))
                                 : QCoreApplication::translate("Commands", "Delete %n Elements", nullptr,
                                       int(mRemoved.size())));
}

void RemoveElementsCommand::redo()
{
    // The whole rig is kept for undo: removal renumbers the index references of everything after the removed
    // elements, and restoring a snapshot is exact where re-inserting would have to undo that renumbering.
    mBefore = mDocument->rig();
    mViewsBefore = mDocument->project().editor.elements;
    mSelectionBefore = mDocument->selection();
    rig::RigDescription after = mBefore;
    removeElements(after, mRemoved);
    std::vector<project::ElementView> views = mViewsBefore;
    std::erase_if(views, [this](const project::ElementView& v) {
        return std::binary_search(mRemoved.begin(), mRemoved.end(), v.element);
    });
    mDocument->replaceRig(std::move(after), std::move(views));
}

void RemoveElementsCommand::undo()
{
    mDocument->replaceRig(mBefore, mViewsBefore);
    mDocument->setSelection(mSelectionBefore);
}

} // namespace marionette::editor
