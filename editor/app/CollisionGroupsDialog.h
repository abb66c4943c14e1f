// Marionette editor — Tools ▸ Collision Groups…: the named groups (rename; up to 32) and the symmetric matrix
// "group A collides with group B" (editor/document CollisionGroups.h). A cell whose elements disagree (custom
// masks) shows partly checked and is left as each element has it unless clicked. OK applies everything as
// one undo step (SetCollisionGroupsCommand).
#pragma once

#include "marionette/editor/document/CollisionGroups.h"

#include <QDialog>

#include <map>
#include <vector>

class QCheckBox;
class QGridLayout;
class QLabel;
class QListWidget;
class QPushButton;

namespace marionette::app {

class CollisionGroupsDialog : public QDialog {
    Q_OBJECT
  public:
    /// Shows the groups that are named or that some element is in (at least the first).
    CollisionGroupsDialog(const std::vector<project::CollisionGroupName>& names, const editor::CollisionMatrix& matrix,
        std::uint32_t usedGroups, QWidget* parent = nullptr);

    /// The names as edited: every shown group whose name is not empty nor its default "Group <n>".
    std::vector<project::CollisionGroupName> names() const;
    /// The matrix as edited (cells of groups not shown as given).
    editor::CollisionMatrix matrix() const;
    /// The check box of the cell (a, b), either order, or null when a group is not shown.
    QCheckBox* cell(int a, int b) const;
    /// Shows the next group without a name or elements (false when all 32 are shown).
    bool addGroup();

  private:
    void rebuildMatrix();

    editor::CollisionMatrix mMatrix;
    std::vector<int> mShown; ///< group bits, ascending
    QListWidget* mList = nullptr;
    QWidget* mGrid = nullptr;
    QPushButton* mAdd = nullptr;
    std::map<std::pair<int, int>, QCheckBox*> mCells; ///< (a <= b)
};

} // namespace marionette::app
