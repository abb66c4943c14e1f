#include "CollisionGroupsDialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace marionette::app {

using editor::CollisionCell;

namespace {
constexpr int kBitRole = Qt::UserRole + 1;
}

CollisionGroupsDialog::CollisionGroupsDialog(const std::vector<project::CollisionGroupName>& names,
    const editor::CollisionMatrix& matrix, std::uint32_t usedGroups, QWidget* parent)
    : QDialog(parent), mMatrix(matrix), mList(new QListWidget), mGrid(new QWidget), mAdd(new QPushButton(tr("Add Group")))
{
    setObjectName(QStringLiteral("collisionGroupsDialog"));
    setWindowTitle(tr("Collision Groups"));
    for (int bit = 0; bit < project::kCollisionGroupBits; ++bit) {
        const bool named = std::any_of(names.begin(), names.end(), [bit](const auto& g) { return g.bit == bit; });
        if (named || (usedGroups & (1u << bit)) || bit == 0)
            mShown.push_back(bit);
    }
    mList->setObjectName(QStringLiteral("groupNames"));
    mList->setToolTip(tr("Double-click a group to rename it"));
    for (int bit : mShown) {
        auto* item = new QListWidgetItem(editor::groupName(names, bit));
        item->setData(kBitRole, bit);
        item->setFlags(item->flags() | Qt::ItemIsEditable);
        mList->addItem(item);
    }
    connect(mList, &QListWidget::itemChanged, this, [this] { rebuildMatrix(); });
    mAdd->setObjectName(QStringLiteral("addGroup"));
    connect(mAdd, &QPushButton::clicked, this, [this] { addGroup(); });

    auto* left = new QVBoxLayout;
    left->addWidget(new QLabel(tr("Groups")));
    left->addWidget(mList, 1);
    left->addWidget(mAdd);
    auto* right = new QVBoxLayout;
    auto* explain = new QLabel(tr("A checked box: elements of the two groups collide. Partly checked: the "
                                  "elements' own masks disagree; left as they are unless clicked."));
    explain->setWordWrap(true);
    right->addWidget(explain);
    right->addWidget(mGrid, 1);
    auto* top = new QHBoxLayout;
    top->addLayout(left);
    top->addLayout(right, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top, 1);
    layout->addWidget(buttons);
    rebuildMatrix();
}

std::vector<project::CollisionGroupName> CollisionGroupsDialog::names() const
{
    std::vector<project::CollisionGroupName> out;
    for (int row = 0; row < mList->count(); ++row) {
        const QListWidgetItem* item = mList->item(row);
        const int bit = item->data(kBitRole).toInt();
        const QString name = item->text().trimmed().left(project::kMaxCollisionGroupNameLength);
        if (!name.isEmpty() && name != editor::groupName({}, bit))
            out.push_back({bit, name});
    }
    return out;
}

editor::CollisionMatrix CollisionGroupsDialog::matrix() const
{
    editor::CollisionMatrix m = mMatrix;
    for (const auto& [ab, box] : mCells) {
        const Qt::CheckState s = box->checkState();
        m.set(ab.first, ab.second, s == Qt::Checked ? CollisionCell::On
                                   : s == Qt::Unchecked ? CollisionCell::Off
                                                        : CollisionCell::Mixed);
    }
    return m;
}

QCheckBox* CollisionGroupsDialog::cell(int a, int b) const
{
    const auto it = mCells.find({std::min(a, b), std::max(a, b)});
    return it == mCells.end() ? nullptr : it->second;
}

bool CollisionGroupsDialog::addGroup()
{
    for (int bit = 0; bit < project::kCollisionGroupBits; ++bit)
        if (std::find(mShown.begin(), mShown.end(), bit) == mShown.end()) {
            mShown.insert(std::upper_bound(mShown.begin(), mShown.end(), bit), bit);
            auto* item = new QListWidgetItem(editor::groupName({}, bit));
            item->setData(kBitRole, bit);
            item->setFlags(item->flags() | Qt::ItemIsEditable);
            mList->insertItem(int(std::find(mShown.begin(), mShown.end(), bit) - mShown.begin()), item);
            mAdd->setEnabled(mShown.size() < std::size_t(project::kCollisionGroupBits));
            rebuildMatrix();
            return true;
        }
    return false;
}

void CollisionGroupsDialog::rebuildMatrix()
{
    mMatrix = matrix(); // keep what was clicked
    mCells.clear();
    delete mGrid->layout();
    qDeleteAll(mGrid->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly));
    auto* grid = new QGridLayout(mGrid);
    grid->setSpacing(2);
    for (std::size_t k = 0; k < mShown.size(); ++k) {
        const int bit = mShown[k];
        const QString name = mList->item(int(k))->text();
        auto* rowLabel = new QLabel(name);
        grid->addWidget(rowLabel, int(k) + 1, 0, Qt::AlignRight);
        auto* columnLabel = new QLabel(QString::number(bit + 1));
        columnLabel->setToolTip(name);
        grid->addWidget(columnLabel, 0, int(k) + 1, Qt::AlignCenter);
        for (std::size_t c = k; c < mShown.size(); ++c) {
            const int other = mShown[c];
            auto* box = new QCheckBox;
            box->setObjectName(QStringLiteral("cell_%1_%2").arg(bit).arg(other));
            box->setToolTip(tr("%1 collides with %2").arg(name, mList->item(int(c))->text()));
            const CollisionCell state = mMatrix.at(bit, other);
            box->setTristate(state == CollisionCell::Mixed);
            box->setCheckState(state == CollisionCell::On    ? Qt::Checked
                               : state == CollisionCell::Off ? Qt::Unchecked
                                                             : Qt::PartiallyChecked);
            // A click decides a mixed cell for every element: on or off from then on.
            connect(box, &QCheckBox::clicked, box, [box] { box->setTristate(false); });
            grid->addWidget(box, int(k) + 1, int(c) + 1, Qt::AlignCenter);
            mCells[{bit, other}] = box;
        }
    }
    grid->setRowStretch(int(mShown.size()) + 1, 1);
    grid->setColumnStretch(int(mShown.size()) + 1, 1);
}

} // namespace marionette::app
