// Marionette editor — the properties panel: the editable properties (editor/core Properties.h) of the
// selected elements of one kind — the kind of the first selected element — or the rig's settings when
// nothing is selected. An edit applies to every selected element of that kind as one undo step; a value
// that differs between them is marked "(mixed)". Collision group and mask bits show as the groups' names
// (CollisionGroups.h) with a check list.
#pragma once

#include "marionette/editor/document/Document.h"
#include "marionette/editor/document/Properties.h"

#include <QScrollArea>

#include <functional>
#include <vector>

class QFormLayout;
class QLabel;

namespace marionette::app {

class PropertiesPanel : public QScrollArea {
    Q_OBJECT
  public:
    explicit PropertiesPanel(editor::Document* document, QWidget* parent = nullptr);

    /// The editor widget of a property (for tests and keyboard focus), or null.
    QWidget* editorFor(const QString& key) const;

  private:
    void rebuild();
    void refreshValues();
    QWidget* makeEditor(const editor::PropertyDef& def);
    void commit(const QString& key, const QVariant& value);
    QVariant currentValue(const QString& key, bool* mixed) const;

    editor::Document* mDocument;
    QWidget* mContent = nullptr;
    QFormLayout* mForm = nullptr;
    QLabel* mTitle = nullptr;
    std::vector<project::ElementRef> mTargets; ///< empty = rig settings
    std::vector<editor::PropertyDef> mDefs;
    std::vector<std::pair<QString, QWidget*>> mEditors;
    std::vector<std::function<void()>> mRefreshers;
    bool mUpdating = false;
};

} // namespace marionette::app
