// Marionette editor — the Drive panel (powered ragdolls, issue 15; docs/editor.md "Drive panel"): the rig's
// drive profiles (add, duplicate, rename, remove), the selected profile's defaults, and a table of its parts
// (editor::driveParts(): every triangle, and the sticks that drive a bone or a profile lists) with their
// gains. A cell the part inherits from the defaults is grey and italic; a part's own value (an override) is in
// bold. Editing a cell sets that gain on every selected row (one undo step; the rows without an entry get
// one); "Use Defaults" clears the selected rows' entries. Rows selected here select their triangles and
// sticks in the document (and so in the viewport), and the other way round. With Edit ▸ Symmetry on (shown
// as "Symmetric" above the table), every edit goes through pushEdit() and reaches the left/right partners.
// The profiles' validation findings (editor::driveProfileFindings) are listed at the bottom.
#pragma once

#include "marionette/editor/document/Document.h"

#include <QWidget>

class QAction;
class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QTableWidget;
class QTableWidgetItem;
class QUndoCommand;

namespace marionette::app {

class DrivePanel : public QWidget {
    Q_OBJECT
  public:
    explicit DrivePanel(editor::Document* document, QWidget* parent = nullptr);

    /// Columns of the parts table: the part's name, then one per editor::driveGainKeys() entry.
    static constexpr int kNameColumn = 0;
    /// Item data role holding true on a cell whose value is the part's own (an override), false when inherited.
    static constexpr int kOverrideRole = Qt::UserRole + 1;

    /// The profile shown (0 when the rig has none).
    rig::ElementId currentProfile() const { return mProfile; }
    /// Shows the profile with that id; false when the rig has no such profile.
    bool setCurrentProfile(rig::ElementId id);

    QListWidget* profileList() const { return mProfiles; }
    QTableWidget* partsTable() const { return mTable; }
    /// The defaults' editor of gain `key` (a QDoubleSpinBox, or a QCheckBox for "kinematic"), or null.
    QWidget* defaultsEditor(const QString& key) const;
    QLabel* symmetricLabel() const { return mSymmetric; }
    QLabel* findingsLabel() const { return mFindings; }

    /// The panel's actions (object names driveAddProfile, driveDuplicateProfile, driveRenameProfile,
    /// driveRemoveProfile, driveUseDefaults), for the main window's menu and its action registry.
    QList<QAction*> panelActions() const;

    /// Off while the preview runs (the document is locked): the profiles and parts are shown, selecting rows
    /// still selects, nothing can be edited.
    void setEditable(bool editable);
    bool isEditable() const { return mEditable; }

    // What the actions and the table do, for the main window and the tests. Each is one undo step and
    // returns false (after problem()) when the document refuses it.
    bool addProfile(bool duplicateCurrent);
    bool renameCurrentProfile(const QString& name);
    bool removeCurrentProfile();
    bool setDefault(const QString& key, const QVariant& value);
    /// Sets gain `key` to `value` on the parts of the table's selected rows.
    bool setSelectedPartsGain(const QString& key, const QVariant& value);
    /// Clears the selected rows' entries back to the defaults.
    bool useDefaultsForSelectedParts();

    /// A spin box for gain `key` with its kDriveGainFields range ("no limit" at 0 for the maxima).
    static QDoubleSpinBox* gainBox(const QString& key);
    /// A column header short enough for a narrow dock ("Motor ζ"; editor::driveGainLabel() is the tooltip).
    static QString shortLabel(const QString& key);

  signals:
    /// A refused edit, in one line (the main window shows it in the status bar and the log).
    void problem(const QString& message);

  private:
    static bool isFrequency(const QString& key);
    void createPartsTable(); // DrivePanelParts.cpp, with the table's other functions
    void rebuildProfiles();
    void rebuildTable();
    void refreshDefaults();
    void refreshFindings();
    void refreshSymmetric();
    void refreshEnabled();
    void selectionFromDocument();
    void selectionToDocument();
    void cellEdited(QTableWidgetItem* item);
    std::vector<project::ElementRef> selectedParts() const;
    bool push(QUndoCommand* command, const QString& error);

    editor::Document* mDocument;
    rig::ElementId mProfile = 0;
    std::vector<project::ElementRef> mRows; ///< the parts, one per table row
    QListWidget* mProfiles = nullptr;
    QTableWidget* mTable = nullptr;
    QLabel* mSymmetric = nullptr;
    QLabel* mFindings = nullptr;
    std::vector<std::pair<QString, QWidget*>> mDefaults;
    QAction *mAdd = nullptr, *mDuplicate = nullptr, *mRename = nullptr, *mRemove = nullptr, *mUseDefaults = nullptr;
    bool mUpdating = false;
    bool mEditable = true;
};

} // namespace marionette::app
