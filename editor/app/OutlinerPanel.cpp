#include "OutlinerPanel.h"

#include "SymmetricEdits.h"

#include "marionette/editor/document/commands/SetElementViewCommand.h"

#include <QHeaderView>
#include <QItemSelectionModel>

namespace marionette::app {

using project::ElementKind;
using project::ElementRef;

namespace {

constexpr int kKindRole = Qt::UserRole + 1;
constexpr int kIdRole = Qt::UserRole + 2;
constexpr int kGroupRole = Qt::UserRole + 3;

// Outliner order: what an artist looks for first.
constexpr ElementKind kOrder[] = {ElementKind::Bone, ElementKind::Particle, ElementKind::Stick, ElementKind::Triangle,
    ElementKind::Angular, ElementKind::Angle, ElementKind::Pin, ElementKind::Shape, ElementKind::Binding};

QString groupTitle(ElementKind kind)
{
    switch (kind) {
    case ElementKind::Bone: return QObject::tr("Skeleton");
    case ElementKind::Particle: return QObject::tr("Particles");
    case ElementKind::Stick: return QObject::tr("Sticks and ranges");
    case ElementKind::Triangle: return QObject::tr("Triangles");
    case ElementKind::Angular: return QObject::tr("Angular constraints");
    case ElementKind::Angle: return QObject::tr("Angle constraints");
    case ElementKind::Pin: return QObject::tr("Pins");
    case ElementKind::Shape: return QObject::tr("Shapes");
    case ElementKind::Binding: break;
    }
    return QObject::tr("Bone bindings");
}

QString displayName(const rig::RigDescription& rig, ElementKind kind, std::size_t index)
{
    const std::string& name = editor::nameAt(rig, kind, index);
    QString text = name.empty() ? QStringLiteral("#%1").arg(index) : QString::fromStdString(name);
    if (kind == ElementKind::Stick) {
        static const char* kinds[] = {"", " (range)", " (min)", " (max)"};
        text += QLatin1String(kinds[int(rig.sticks[index].kind) & 3]);
    }
    return text;
}

// An item of the Visible or Locked column.
QStandardItem* checkBoxItem(int column)
{
    auto* item = new QStandardItem;
    item->setCheckable(true);
    item->setEditable(false);
    item->setToolTip(column == OutlinerPanel::VisibleColumn ? QObject::tr("Visible in the viewport")
                                                            : QObject::tr("Locked: drawn but not pickable"));
    return item;
}

} // namespace

OutlinerPanel::OutlinerPanel(editor::Document* document, QWidget* parent) : QTreeView(parent), mDocument(document)
{
    setObjectName(QStringLiteral("outliner"));
    mModel.setHorizontalHeaderLabels({tr("Name"), tr("Visible"), tr("Locked")});
    setModel(&mModel);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setUniformRowHeights(true);
    header()->setStretchLastSection(false);
    header()->setSectionResizeMode(NameColumn, QHeaderView::Stretch);
    header()->setSectionResizeMode(VisibleColumn, QHeaderView::ResizeToContents);
    header()->setSectionResizeMode(LockedColumn, QHeaderView::ResizeToContents);
    for (ElementKind kind : kOrder)
        mExpanded[kind] = kind == ElementKind::Particle;

    connect(document, &editor::Document::structureChanged, this, &OutlinerPanel::rebuild);
    connect(document, &editor::Document::symmetryChanged, this, &OutlinerPanel::rebuild);
    connect(document, &editor::Document::elementsChanged, this, &OutlinerPanel::refreshNames);
    connect(document, &editor::Document::viewsChanged, this, &OutlinerPanel::refreshViews);
    connect(document, &editor::Document::selectionChanged, this, &OutlinerPanel::pullSelection);
    connect(selectionModel(), &QItemSelectionModel::selectionChanged, this, &OutlinerPanel::pushSelection);
    connect(&mModel, &QStandardItemModel::itemChanged, this, &OutlinerPanel::onItemChanged);
    connect(this, &QTreeView::expanded, this, [this](const QModelIndex& i) {
        if (i.data(kGroupRole).isValid())
            mExpanded[ElementKind(i.data(kGroupRole).toInt())] = true;
    });
    connect(this, &QTreeView::collapsed, this, [this](const QModelIndex& i) {
        if (i.data(kGroupRole).isValid())
            mExpanded[ElementKind(i.data(kGroupRole).toInt())] = false;
    });
    rebuild();
}

QList<QStandardItem*> OutlinerPanel::makeRow(ElementRef ref, const QString& name)
{
    auto* nameItem = new QStandardItem(name);
    nameItem->setEditable(false);
    nameItem->setData(int(ref.kind), kKindRole);
    nameItem->setData(ref.id, kIdRole);
    mItems[ref] = nameItem;
    // The boxes' states are set by refreshViews(), which rebuild() ends with.
    return {nameItem, checkBoxItem(VisibleColumn), checkBoxItem(LockedColumn)};
}

void OutlinerPanel::rebuild()
{
    mUpdating = true;
    mModel.removeRows(0, mModel.rowCount());
    mItems.clear();
    mGroups.clear();
    const rig::RigDescription& rig = mDocument->rig();
    mPairs = mDocument->project().editor.symmetry.enabled ? mirrorPairs(*mDocument) : editor::MirrorMap{};
    for (ElementKind kind : kOrder) {
        const std::size_t count = editor::countOf(rig, kind);
        if (count == 0 && kind != ElementKind::Particle)
            continue;
        auto* group = new QStandardItem(QStringLiteral("%1 (%2)").arg(groupTitle(kind)).arg(count));
        group->setEditable(false);
        group->setSelectable(false);
        group->setData(int(kind), kGroupRole);
        QStandardItem* groupVisible = checkBoxItem(VisibleColumn);
        groupVisible->setData(int(kind), kGroupRole);
        QStandardItem* groupLocked = checkBoxItem(LockedColumn);
        groupLocked->setData(int(kind), kGroupRole);
        mModel.appendRow({group, groupVisible, groupLocked});
        mGroups[kind] = group;
        std::vector<QStandardItem*> bones;
        for (std::size_t i = 0; i < count; ++i) {
            const ElementRef ref{kind, editor::idAt(rig, kind, i)};
            QList<QStandardItem*> row = makeRow(ref, rowText(kind, i));
            QStandardItem* parent = group;
            if (kind == ElementKind::Bone) {
                const std::int32_t p = rig.bones[i].parent;
                if (p >= 0 && std::size_t(p) < bones.size())
                    parent = bones[std::size_t(p)];
                bones.push_back(row.front());
            }
            parent->appendRow(row);
        }
        setExpanded(group->index(), mExpanded[kind]);
        if (kind == ElementKind::Bone && mExpanded[kind])
            expandRecursively(group->index());
    }
    mUpdating = false;
    refreshViews();
    pullSelection();
}

QString OutlinerPanel::rowText(ElementKind kind, std::size_t index) const
{
    const rig::RigDescription& rig = mDocument->rig();
    QString text = displayName(rig, kind, index);
    // With symmetry on, each element names its mirror partner.
    if (const std::int32_t j = mPairs.partner(kind, std::int32_t(index)); j != rig::kNone && std::size_t(j) != index &&
                                                                         std::size_t(j) < editor::countOf(rig, kind))
        text += QStringLiteral("  \u21c4 ") + displayName(rig, kind, std::size_t(j));
    return text;
}

void OutlinerPanel::refreshNames(const std::vector<ElementRef>& refs)
{
    const rig::RigDescription& rig = mDocument->rig();
    for (const ElementRef& ref : refs) {
        const auto it = mItems.find(ref);
        const std::int32_t i = editor::indexOf(rig, ref);
        if (it != mItems.end() && i != rig::kNone)
            it->second->setText(rowText(ref.kind, std::size_t(i)));
    }
}

void OutlinerPanel::refreshViews()
{
    mUpdating = true;
    std::map<ElementKind, std::pair<int, int>> hiddenLocked;
    for (auto& [ref, item] : mItems) {
        QStandardItem* parent = item->parent();
        if (!parent)
            continue;
        const bool visible = mDocument->isVisible(ref), locked = mDocument->isLocked(ref);
        parent->child(item->row(), VisibleColumn)->setCheckState(visible ? Qt::Checked : Qt::Unchecked);
        parent->child(item->row(), LockedColumn)->setCheckState(locked ? Qt::Checked : Qt::Unchecked);
        hiddenLocked[ref.kind].first += visible ? 0 : 1;
        hiddenLocked[ref.kind].second += locked ? 1 : 0;
    }
    for (auto& [kind, group] : mGroups) {
        const int count = int(editor::countOf(mDocument->rig(), kind));
        const auto [hidden, locked] = hiddenLocked[kind];
        auto state = [count](int n, bool positive) {
            const int on = positive ? n : count - n;
            return on == 0 ? Qt::Unchecked : on == count ? Qt::Checked : Qt::PartiallyChecked;
        };
        mModel.item(group->row(), VisibleColumn)->setCheckState(state(hidden, false));
        mModel.item(group->row(), LockedColumn)->setCheckState(state(locked, true));
    }
    mUpdating = false;
}

void OutlinerPanel::onItemChanged(QStandardItem* item)
{
    if (mUpdating || (item->column() != VisibleColumn && item->column() != LockedColumn))
        return;
    const bool on = item->checkState() != Qt::Unchecked;
    std::vector<ElementRef> refs;
    if (item->data(kGroupRole).isValid()) {
        const auto kind = ElementKind(item->data(kGroupRole).toInt());
        for (std::size_t i = 0; i < editor::countOf(mDocument->rig(), kind); ++i)
            refs.push_back({kind, editor::idAt(mDocument->rig(), kind, i)});
    } else {
        QStandardItem* parent = item->parent();
        QStandardItem* nameItem = parent ? parent->child(item->row(), NameColumn) : nullptr;
        if (!nameItem)
            return;
        refs.push_back({ElementKind(nameItem->data(kKindRole).toInt()), rig::ElementId(nameItem->data(kIdRole).toUInt())});
    }
    const bool visibility = item->column() == VisibleColumn;
    // Deferred: pushing rebuilds the check states, which must not happen inside itemChanged.
    QMetaObject::invokeMethod(this, [this, refs, visibility, on] {
        mDocument->undoStack()->push(new editor::SetElementViewCommand(mDocument, refs,
            visibility ? std::optional<bool>(on) : std::nullopt, visibility ? std::nullopt : std::optional<bool>(on)));
    }, Qt::QueuedConnection);
}

QModelIndex OutlinerPanel::indexOf(ElementRef ref) const
{
    const auto it = mItems.find(ref);
    return it == mItems.end() ? QModelIndex() : it->second->index();
}

void OutlinerPanel::pullSelection()
{
    if (mUpdating)
        return;
    mUpdating = true;
    QItemSelection selection;
    for (const ElementRef& ref : mDocument->selection()) {
        const QModelIndex index = indexOf(ref);
        if (index.isValid())
            selection.select(index, index.siblingAtColumn(LockedColumn));
    }
    selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
    if (!mDocument->selection().empty()) {
        const QModelIndex last = indexOf(mDocument->selection().back());
        if (last.isValid())
            scrollTo(last);
    }
    mUpdating = false;
}

void OutlinerPanel::pushSelection()
{
    if (mUpdating)
        return;
    std::vector<ElementRef> refs;
    for (const QModelIndex& index : selectionModel()->selectedRows(NameColumn))
        if (index.data(kKindRole).isValid())
            refs.push_back({ElementKind(index.data(kKindRole).toInt()), rig::ElementId(index.data(kIdRole).toUInt())});
    mUpdating = true;
    mDocument->setSelection(refs);
    mUpdating = false;
}

} // namespace marionette::app
