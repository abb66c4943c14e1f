#include "marionette/editor/document/commands/SetElementViewCommand.h"

#include <QCoreApplication>

#include <algorithm>

namespace marionette::editor {

SetElementViewCommand::SetElementViewCommand(Document* document, std::vector<ElementRef> refs,
    std::optional<bool> visible, std::optional<bool> locked)
    : mDocument(document), mRefs(std::move(refs)), mVisible(visible), mLocked(locked)
{
    if (visible)
        setText(*visible ? QCoreApplication::translate("Commands", "Show") : QCoreApplication::translate("Commands", "Hide"));
    else
        setText(locked.value_or(false) ? QCoreApplication::translate("Commands", "Lock")
                                       : QCoreApplication::translate("Commands", "Unlock"));
}

void SetElementViewCommand::redo()
{
    mBefore = mDocument->project().editor.elements;
    std::vector<project::ElementView> views = mBefore;
    for (const ElementRef& ref : mRefs) {
        if (indexOf(mDocument->rig(), ref) == rig::kNone)
            continue;
        auto it = std::find_if(views.begin(), views.end(), [ref](const auto& v) { return v.element == ref; });
        if (it == views.end()) {
            views.push_back({ref, true, false, std::nullopt});
            it = views.end() - 1;
        }
        if (mVisible)
            it->visible = *mVisible;
        if (mLocked)
            it->locked = *mLocked;
    }
    // Entries back at the defaults are dropped so the saved state stays small.
    std::erase_if(views, [](const auto& v) { return v.visible && !v.locked && !v.colour; });
    mDocument->setElementViews(std::move(views));
}

void SetElementViewCommand::undo() { mDocument->setElementViews(mBefore); }

} // namespace marionette::editor
