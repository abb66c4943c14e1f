// Marionette editor — the outliner: every element of the rig by kind (the skeleton as its hierarchy), with
// its name, a visibility and a lock column. Selection follows the document both ways; the eye and lock
// boxes push SetElementViewCommand (a group's box applies to all its elements).
#pragma once

#include "marionette/editor/document/Document.h"
#include "marionette/editor/document/Symmetry.h"

#include <QStandardItemModel>
#include <QTreeView>

#include <map>

namespace marionette::app {

class OutlinerPanel : public QTreeView {
    Q_OBJECT
  public:
    explicit OutlinerPanel(editor::Document* document, QWidget* parent = nullptr);

    /// The row of an element (column 0), or an invalid index.
    QModelIndex indexOf(project::ElementRef ref) const;
    QStandardItemModel* outlinerModel() { return &mModel; }

    enum Column { NameColumn = 0, VisibleColumn = 1, LockedColumn = 2 };

  private:
    void rebuild();
    /// The row's text: the element's name, and its mirror partner's with symmetry on ("elbow_l ⇄ elbow_r").
    QString rowText(project::ElementKind kind, std::size_t index) const;
    void refreshNames(const std::vector<project::ElementRef>& refs);
    void refreshViews();
    void pullSelection();
    void pushSelection();
    void onItemChanged(QStandardItem* item);
    QList<QStandardItem*> makeRow(project::ElementRef ref, const QString& name);

    editor::Document* mDocument;
    QStandardItemModel mModel;
    std::map<project::ElementRef, QStandardItem*> mItems;
    std::map<project::ElementKind, QStandardItem*> mGroups;
    std::map<project::ElementKind, bool> mExpanded;
    bool mUpdating = false;
    editor::MirrorMap mPairs; ///< with symmetry on, the rig's mirror pairs (rebuild() finds them)
};

} // namespace marionette::app
