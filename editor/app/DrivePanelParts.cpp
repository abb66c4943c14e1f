// DrivePanel: the parts table (the runtime's drive parts, one gain per column, inherited values told apart from
// a part's own), its edits and its selection; the rest of the panel is in DrivePanel.cpp.
#include "DrivePanel.h"

#include "marionette/editor/document/DriveProfiles.h"
#include "marionette/editor/document/commands/ClearDrivePartsCommand.h"
#include "marionette/editor/document/commands/SetDrivePartsCommand.h"

#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QStyledItemDelegate>
#include <QTableWidget>

#include <algorithm>
#include <set>

namespace marionette::app {

using project::ElementKind;
using project::ElementRef;

namespace {

/// The table's number cells are edited in a spin box with the gain's range.
class GainDelegate : public QStyledItemDelegate {
  public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem&, const QModelIndex& index) const override
    {
        const QStringList keys = editor::driveGainKeys();
        const int k = index.column() - 1;
        if (k < 0 || k >= keys.size() - 1)
            return nullptr;
        QDoubleSpinBox* box = DrivePanel::gainBox(keys[k]);
        box->setParent(parent);
        box->setFrame(false);
        return box;
    }
    void setEditorData(QWidget* editor, const QModelIndex& index) const override
    {
        static_cast<QDoubleSpinBox*>(editor)->setValue(index.data(Qt::EditRole).toDouble());
    }
    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override
    {
        auto* box = static_cast<QDoubleSpinBox*>(editor);
        box->interpretText();
        model->setData(index, box->value(), Qt::EditRole);
    }
};

QString partName(const rig::RigDescription& rig, ElementRef ref)
{
    const std::int32_t i = editor::indexOf(rig, ref);
    const std::string& name = editor::nameAt(rig, ref.kind, std::size_t(i));
    const QString text = name.empty() ? QStringLiteral("#%1").arg(i) : QString::fromStdString(name);
    return ref.kind == ElementKind::Stick ? text + QObject::tr(" (stick)") : text;
}

} // namespace

void DrivePanel::createPartsTable()
{
    QStringList headers{tr("Part")};
    for (const QString& key : editor::driveGainKeys())
        headers << shortLabel(key);
    mTable = new QTableWidget(0, int(headers.size()));
    mTable->setObjectName(QStringLiteral("driveParts"));
    mTable->setHorizontalHeaderLabels(headers);
    for (int k = 0; k < editor::driveGainKeys().size(); ++k)
        mTable->horizontalHeaderItem(k + 1)->setToolTip(editor::driveGainLabel(editor::driveGainKeys()[k]));
    mTable->verticalHeader()->setDefaultSectionSize(mTable->fontMetrics().height() + 6);
    mTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    mTable->setSelectionMode(QAbstractItemView::ExtendedSelection);
    mTable->setItemDelegate(new GainDelegate(mTable));
    mTable->verticalHeader()->setVisible(false);
    mTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    mTable->horizontalHeader()->setStretchLastSection(true);
}

bool DrivePanel::setSelectedPartsGain(const QString& key, const QVariant& value)
{
    QString error;
    return push(editor::SetDrivePartsCommand::create(mDocument, mProfile, selectedParts(), key, value, error), error);
}

bool DrivePanel::useDefaultsForSelectedParts()
{
    QString error;
    return push(editor::ClearDrivePartsCommand::create(mDocument, mProfile, selectedParts(), error), error);
}

std::vector<ElementRef> DrivePanel::selectedParts() const
{
    std::set<int> rows;
    for (const QModelIndex& index : mTable->selectionModel()->selectedIndexes())
        rows.insert(index.row());
    std::vector<ElementRef> parts;
    for (int row : rows)
        if (row >= 0 && std::size_t(row) < mRows.size())
            parts.push_back(mRows[std::size_t(row)]);
    return parts;
}

void DrivePanel::cellEdited(QTableWidgetItem* item)
{
    if (mUpdating)
        return;
    if (!mEditable) { // (nothing should edit a cell then; put back what the rig has)
        rebuildTable();
        return;
    }
    const int row = item->row(), column = item->column();
    const QStringList keys = editor::driveGainKeys();
    if (column < 1 || column > keys.size() || row < 0 || std::size_t(row) >= mRows.size())
        return;
    const QString key = keys[column - 1];
    const QVariant value = key == QLatin1String("kinematic") ? QVariant(item->checkState() == Qt::Checked)
                                                             : QVariant(item->data(Qt::EditRole).toDouble());
    // The edited row and, when it is one of them, every other selected row.
    if (!mTable->selectionModel()->isRowSelected(row, QModelIndex()))
        mTable->selectRow(row); // (and so the document's selection)
    if (!setSelectedPartsGain(key, value))
        rebuildTable(); // the cell back to what the rig has
}

void DrivePanel::rebuildTable()
{
    const rig::RigDescription& rig = mDocument->rig();
    const std::int32_t pi = editor::driveProfileIndex(rig, mProfile);
    const QStringList keys = editor::driveGainKeys();
    mUpdating = true;
    mRows = editor::driveParts(rig);
    mTable->setRowCount(int(mRows.size()));
    // Items are updated in place (never deleted here: this runs inside a cell's own itemChanged).
    auto itemAt = [this](int row, int column) {
        QTableWidgetItem* item = mTable->item(row, column);
        if (!item) {
            item = new QTableWidgetItem;
            mTable->setItem(row, column, item);
        }
        return item;
    };
    for (std::size_t r = 0; r < mRows.size(); ++r) {
        QTableWidgetItem* name = itemAt(int(r), kNameColumn);
        name->setText(partName(rig, mRows[r]));
        name->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
        const rig::DriveProfile* profile = pi == rig::kNone ? nullptr : &rig.driveProfiles[std::size_t(pi)];
        const bool own = profile && editor::findDrivePart(rig, *profile, mRows[r]);
        const rig::DriveGains gains = profile ? editor::driveGainsOf(rig, *profile, mRows[r]) : rig::DriveGains{};
        for (int k = 0; k < keys.size(); ++k) {
            QTableWidgetItem* cell = itemAt(int(r), k + 1);
            const QVariant v = editor::driveGain(gains, keys[k]);
            if (keys[k] == QLatin1String("kinematic")) {
                cell->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled |
                               (mEditable ? Qt::ItemIsUserCheckable : Qt::NoItemFlags));
                cell->setCheckState(v.toBool() ? Qt::Checked : Qt::Unchecked);
            } else {
                cell->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable);
                cell->setData(Qt::EditRole, v.toDouble()); // (0 N·m or N: shown as 0, "no limit" in the editor)
            }
            cell->setData(kOverrideRole, own);
            QFont font = cell->font();
            font.setItalic(!own);
            font.setBold(own);
            cell->setFont(font);
            cell->setForeground(own ? palette().color(QPalette::Text)
                                    : palette().color(QPalette::Disabled, QPalette::Text));
            cell->setToolTip(own ? tr("This part's own value") : tr("Inherited from the profile's defaults"));
            if (!profile)
                cell->setFlags(Qt::NoItemFlags);
        }
    }
    mUpdating = false;
    selectionFromDocument();
}

void DrivePanel::selectionFromDocument()
{
    if (mUpdating)
        return;
    mUpdating = true;
    mTable->clearSelection();
    const auto& selection = mDocument->selection();
    const int columns = mTable->columnCount();
    for (std::size_t r = 0; r < mRows.size(); ++r)
        if (std::find(selection.begin(), selection.end(), mRows[r]) != selection.end())
            mTable->selectionModel()->select(
                QItemSelection(mTable->model()->index(int(r), 0), mTable->model()->index(int(r), columns - 1)),
                QItemSelectionModel::Select);
    mUpdating = false;
}

void DrivePanel::selectionToDocument()
{
    if (mUpdating)
        return;
    mUpdating = true;
    mDocument->setSelection(selectedParts());
    mUpdating = false;
}

} // namespace marionette::app
