// Marionette editor — the main window's actions, made one way and found by object name ("fileSave",
// "toolAddStick", ...): the menus, tool bars and shortcuts use them, and the GUI tests trigger them by name.
#pragma once

#include <QAction>
#include <QKeySequence>
#include <QString>

#include <functional>
#include <initializer_list>
#include <map>

class QMenu;
class QToolBar;

namespace marionette::app {

class ActionRegistry {
  public:
    /// Actions are children of `owner` (the main window).
    explicit ActionRegistry(QObject* owner) : mOwner(owner) {}

    /// A new action named `name` with `text` and `shortcut` (may be empty), running `slot` when triggered,
    /// appended to `menu` (none: not in a menu).
    QAction* add(QMenu* menu, const QString& name, const QString& text, const QKeySequence& shortcut,
        std::function<void()> slot);
    /// A checkable action, checked or not; `toggled` runs with each new state.
    QAction* addToggle(QMenu* menu, const QString& name, const QString& text, const QKeySequence& shortcut,
        bool checked, std::function<void(bool)> toggled);
    /// Registers an action made elsewhere (the undo stack's, a plugin exporter's) under its object name.
    QAction* adopt(QAction* action);
    /// The action named `name`, or null.
    QAction* find(const QString& name) const;
    /// Appends the named actions to `bar` in order; "" appends a separator.
    void fill(QToolBar* bar, std::initializer_list<const char*> names) const;
    const std::map<QString, QAction*>& all() const { return mActions; }

  private:
    QObject* mOwner;
    std::map<QString, QAction*> mActions;
};

} // namespace marionette::app
