#include "PropertiesPanel.h"

#include "SymmetricEdits.h"

#include "marionette/editor/document/CollisionGroups.h"
#include "marionette/editor/document/commands/ChangePropertyCommand.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QVBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QSpinBox>
#include <QToolButton>

#include <bit>
#include <cmath>

namespace marionette::app {

using editor::PropertyDef;
using editor::PropertyType;

namespace {

QDoubleSpinBox* numberBox(const PropertyDef& def, double lo, double hi)
{
    auto* box = new QDoubleSpinBox;
    box->setDecimals(def.displayScale != 1.0 ? 2 : 4);
    box->setRange(lo * def.displayScale, hi * def.displayScale);
    box->setSingleStep(def.displayScale != 1.0 ? 1.0 : 0.01);
    box->setKeyboardTracking(false);
    box->setAccelerated(true);
    if (!def.unit.isEmpty())
        box->setSuffix(def.unit == QStringLiteral("°") ? def.unit : QStringLiteral(" ") + def.unit);
    box->setToolTip(def.toolTip);
    box->setSpecialValueText(def.minimumMeans); // at the minimum, what it stands for ("bind distance")
    box->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    box->setMinimumWidth(90);
    return box;
}

} // namespace

PropertiesPanel::PropertiesPanel(editor::Document* document, QWidget* parent) : QScrollArea(parent), mDocument(document)
{
    setObjectName(QStringLiteral("properties"));
    setWidgetResizable(true);
    connect(document, &editor::Document::selectionChanged, this, &PropertiesPanel::rebuild);
    connect(document, &editor::Document::structureChanged, this, &PropertiesPanel::rebuild);
    connect(document, &editor::Document::elementsChanged, this, &PropertiesPanel::refreshValues);
    connect(document, &editor::Document::settingsChanged, this, &PropertiesPanel::refreshValues);
    connect(document, &editor::Document::collisionGroupsChanged, this, &PropertiesPanel::refreshValues);
    rebuild();
}

QWidget* PropertiesPanel::editorFor(const QString& key) const
{
    for (const auto& [k, w] : mEditors)
        if (k == key)
            return w;
    return nullptr;
}

QVariant PropertiesPanel::currentValue(const QString& key, bool* mixed) const
{
    *mixed = false;
    const rig::RigDescription& rig = mDocument->rig();
    if (mTargets.empty())
        return editor::readSetting(rig.settings, key);
    QVariant first;
    for (const project::ElementRef& ref : mTargets) {
        const std::int32_t i = editor::indexOf(rig, ref);
        if (i == rig::kNone)
            continue;
        const QVariant v = editor::readProperty(rig, ref.kind, std::size_t(i), key);
        if (!first.isValid())
            first = v;
        else if (v != first)
            *mixed = true;
    }
    return first;
}

void PropertiesPanel::commit(const QString& key, const QVariant& value)
{
    if (mUpdating)
        return;
    const PropertyDef* def = editor::findProperty(mDefs, key);
    if (!def)
        return;
    const QString problem = editor::checkValue(*def, value);
    if (!problem.isEmpty()) {
        QMessageBox::warning(this, tr("Invalid value"), problem);
        refreshValues();
        return;
    }
    bool mixed = false;
    if (currentValue(key, &mixed) == value && !mixed)
        return; // every target already has it: no empty undo step
    auto* command = mTargets.empty() ? new editor::ChangePropertyCommand(mDocument, key, value)
                                     : new editor::ChangePropertyCommand(mDocument, mTargets, key, value);
    pushEdit(mDocument, command);
}

QWidget* PropertiesPanel::makeEditor(const PropertyDef& def)
{
    const QString key = def.key;
    switch (def.type) {
    case PropertyType::Float: {
        auto* box = numberBox(def, def.minimum, def.maximum);
        if (def.minimumExclusive)
            box->setMinimum((def.minimum + 1e-4) * def.displayScale);
        connect(box, &QDoubleSpinBox::valueChanged, this, [this, key, def](double v) { commit(key, v / def.displayScale); });
        mRefreshers.push_back([this, box, key, def] {
            bool mixed = false;
            const QVariant v = currentValue(key, &mixed);
            box->setValue(v.toDouble() * def.displayScale);
            box->setPrefix(mixed ? tr("(mixed) ") : QString());
        });
        return box;
    }
    case PropertyType::UInt: {
        if (def.maximum <= 1e6) {
            auto* box = new QSpinBox;
            box->setRange(int(def.minimum), int(def.maximum));
            box->setKeyboardTracking(false);
            box->setToolTip(def.toolTip);
            connect(box, &QSpinBox::valueChanged, this, [this, key](int v) { commit(key, qulonglong(v)); });
            mRefreshers.push_back([this, box, key] {
                bool mixed = false;
                box->setValue(int(currentValue(key, &mixed).toULongLong()));
                box->setPrefix(mixed ? tr("(mixed) ") : QString());
            });
            return box;
        }
        // 32-bit group and mask bits: the collision groups by name (CollisionGroups.h), a check list.
        auto* button = new QToolButton;
        button->setPopupMode(QToolButton::InstantPopup);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        button->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
        button->setToolTip(def.toolTip);
        auto* menu = new QMenu(button);
        button->setMenu(menu);
        mRefreshers.push_back([this, button, key] {
            bool mixed = false;
            const auto bits = std::uint32_t(currentValue(key, &mixed).toULongLong());
            button->setText(mixed ? tr("(mixed)") : editor::describeGroupBits(mDocument->project().collisionGroups, bits));
        });
        // Filled when it opens, so an entry is never deleted while its own toggle commits.
        connect(menu, &QMenu::aboutToShow, this, [this, menu, key] {
            bool mixed = false;
            const auto bits = std::uint32_t(currentValue(key, &mixed).toULongLong());
            const auto& names = mDocument->project().collisionGroups;
            menu->clear();
            // The groups that have a name or an element, the first, and this value's own when it has few.
            std::uint32_t shown = editor::usedGroupBits(mDocument->rig()) | 1u | (std::popcount(bits) <= 16 ? bits : 0u);
            for (const project::CollisionGroupName& g : names)
                shown |= 1u << g.bit;
            for (int bit = 0; bit < project::kCollisionGroupBits; ++bit) {
                if (!(shown & (1u << bit)))
                    continue;
                QAction* a = menu->addAction(editor::groupName(names, bit));
                a->setObjectName(QStringLiteral("bit_%1").arg(bit));
                a->setCheckable(true);
                a->setChecked(bits & (1u << bit));
                connect(a, &QAction::toggled, this, [this, key, bits, bit](bool on) {
                    commit(key, qulonglong(on ? bits | (1u << bit) : bits & ~(1u << bit)));
                });
            }
            menu->addSeparator();
            QAction* all = menu->addAction(tr("All"));
            all->setObjectName(QStringLiteral("bits_all"));
            connect(all, &QAction::triggered, this, [this, key] { commit(key, qulonglong(~0u)); });
            QAction* none = menu->addAction(tr("None"));
            none->setObjectName(QStringLiteral("bits_none"));
            connect(none, &QAction::triggered, this, [this, key] { commit(key, qulonglong(0)); });
        });
        return button;
    }
    case PropertyType::Bool: {
        auto* box = new QCheckBox;
        box->setToolTip(def.toolTip);
        connect(box, &QCheckBox::toggled, this, [this, key](bool on) { commit(key, on); });
        mRefreshers.push_back([this, box, key] {
            bool mixed = false;
            box->setChecked(currentValue(key, &mixed).toBool());
            box->setText(mixed ? tr("(mixed)") : QString());
        });
        return box;
    }
    case PropertyType::String: {
        auto* edit = new QLineEdit;
        edit->setMaxLength(256);
        connect(edit, &QLineEdit::editingFinished, this, [this, edit, key] { commit(key, edit->text()); });
        mRefreshers.push_back([this, edit, key] {
            bool mixed = false;
            const QString v = currentValue(key, &mixed).toString();
            edit->setText(mixed ? QString() : v);
            edit->setPlaceholderText(mixed ? tr("(mixed)") : QString());
        });
        return edit;
    }
    case PropertyType::Vec3: {
        // x, y and z one above the other, each as wide as the panel (side by side they were cut off in a
        // 320-pixel panel: "x 0.00(").
        auto* row = new QWidget;
        auto* layout = new QVBoxLayout(row);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->setSpacing(2);
        std::array<QDoubleSpinBox*, 3> boxes{};
        for (int c = 0; c < 3; ++c) {
            boxes[std::size_t(c)] = numberBox(def, def.minimumExclusive ? def.minimum + 1e-4 : def.minimum, def.maximum);
            boxes[std::size_t(c)]->setSuffix(QString());
            boxes[std::size_t(c)]->setPrefix(QStringLiteral("xyz").mid(c, 1) + QStringLiteral(" "));
            // As wide as the panel whatever their range (a wide range makes a very wide size hint).
            boxes[std::size_t(c)]->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
            boxes[std::size_t(c)]->setMinimumWidth(60);
            layout->addWidget(boxes[std::size_t(c)]);
        }
        for (int c = 0; c < 3; ++c)
            connect(boxes[std::size_t(c)], &QDoubleSpinBox::valueChanged, this, [this, boxes, key, def] {
                commit(key, QVariantList{boxes[0]->value() / def.displayScale, boxes[1]->value() / def.displayScale,
                                boxes[2]->value() / def.displayScale});
            });
        mRefreshers.push_back([this, boxes, key, def] {
            bool mixed = false;
            const auto v = editor::vec3FromVariant(currentValue(key, &mixed)).value_or(Vec3{});
            boxes[0]->setValue(double(v.x) * def.displayScale);
            boxes[1]->setValue(double(v.y) * def.displayScale);
            boxes[2]->setValue(double(v.z) * def.displayScale);
        });
        row->setToolTip(def.toolTip + (def.unit.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(def.unit)));
        return row;
    }
    case PropertyType::Enum: {
        auto* box = new QComboBox;
        box->addItems(def.enumNames);
        box->setToolTip(def.toolTip);
        connect(box, &QComboBox::activated, this, [this, key](int v) { commit(key, v); });
        mRefreshers.push_back([this, box, key] {
            bool mixed = false;
            box->setCurrentIndex(currentValue(key, &mixed).toInt());
        });
        return box;
    }
    case PropertyType::Element: break;
    }
    auto* label = new QLabel;
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    mRefreshers.push_back([this, label, key] {
        bool mixed = false;
        const QString v = currentValue(key, &mixed).toString();
        label->setText(mixed ? tr("(mixed)") : v);
    });
    return label;
}

void PropertiesPanel::rebuild()
{
    const auto& selection = mDocument->selection();
    mTargets.clear();
    if (!selection.empty())
        for (const project::ElementRef& ref : selection)
            if (ref.kind == selection.front().kind)
                mTargets.push_back(ref);
    mDefs = mTargets.empty() ? editor::settingsProperties() : editor::propertiesOf(mTargets.front().kind);
    mEditors.clear();
    mRefreshers.clear();

    mContent = new QWidget;
    auto* outer = new QVBoxLayout(mContent);
    mTitle = new QLabel;
    mTitle->setObjectName(QStringLiteral("propertiesTitle"));
    QFont bold = mTitle->font();
    bold.setBold(true);
    mTitle->setFont(bold);
    if (mTargets.empty())
        mTitle->setText(tr("Rig settings"));
    else {
        const QString kind = QString::fromUtf8(project::describe(mTargets.front().kind));
        mTitle->setText(mTargets.size() == 1 ? kind : tr("%1 %2s").arg(mTargets.size()).arg(kind));
        if (mTargets.size() != selection.size())
            mTitle->setText(mTitle->text() + tr(" (of %1 selected)").arg(selection.size()));
    }
    outer->addWidget(mTitle);
    mForm = new QFormLayout;
    mForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    outer->addLayout(mForm);
    outer->addStretch(1);
    for (const PropertyDef& def : mDefs) {
        QWidget* editor = makeEditor(def);
        editor->setObjectName(QStringLiteral("property_") + def.key);
        editor->setEnabled(!def.readOnly || def.type == PropertyType::Element);
        mForm->addRow(def.label, editor);
        mEditors.emplace_back(def.key, editor);
    }
    setWidget(mContent); // deletes the previous content
    refreshValues();
}

void PropertiesPanel::refreshValues()
{
    mUpdating = true;
    for (const auto& refresh : mRefreshers)
        refresh();
    mUpdating = false;
}

} // namespace marionette::app
