#include "ActionRegistry.h"

#include <QMenu>
#include <QToolBar>

namespace marionette::app {

QAction* ActionRegistry::add(QMenu* menu, const QString& name, const QString& text, const QKeySequence& shortcut,
    std::function<void()> slot)
{
    auto* a = new QAction(text, mOwner);
    a->setObjectName(name);
    if (!shortcut.isEmpty())
        a->setShortcut(shortcut);
    if (slot)
        QObject::connect(a, &QAction::triggered, mOwner, [slot = std::move(slot)] { slot(); });
    if (menu)
        menu->addAction(a);
    return adopt(a);
}

QAction* ActionRegistry::addToggle(QMenu* menu, const QString& name, const QString& text, const QKeySequence& shortcut,
    bool checked, std::function<void(bool)> toggled)
{
    QAction* a = add(menu, name, text, shortcut, {});
    a->setCheckable(true);
    a->setChecked(checked);
    QObject::connect(a, &QAction::toggled, mOwner, [toggled = std::move(toggled)](bool on) { toggled(on); });
    return a;
}

QAction* ActionRegistry::adopt(QAction* action)
{
    mActions[action->objectName()] = action;
    return action;
}

QAction* ActionRegistry::find(const QString& name) const
{
    const auto it = mActions.find(name);
    return it == mActions.end() ? nullptr : it->second;
}

void ActionRegistry::fill(QToolBar* bar, std::initializer_list<const char*> names) const
{
    for (const char* name : names) {
        if (!*name)
            bar->addSeparator();
        else if (QAction* a = find(QString::fromLatin1(name)))
            bar->addAction(a);
    }
}

} // namespace marionette::app
