#include "DrivePanel.h"

#include "SymmetricEdits.h"

#include "marionette/editor/document/DriveProfiles.h"
#include "marionette/editor/document/commands/AddDriveProfileCommand.h"
#include "marionette/editor/document/commands/RemoveDriveProfileCommand.h"
#include "marionette/editor/document/commands/RenameDriveProfileCommand.h"
#include "marionette/editor/document/commands/SetDriveDefaultsCommand.h"

#include <QAction>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <set>

namespace marionette::app {

using project::ElementKind;
using project::ElementRef;

namespace {

constexpr int kProfileIdRole = Qt::UserRole + 2;

/// The range [0, max] of a numeric gain.
double maximumOf(const QString& key)
{
    for (const rig::DriveGainField& f : rig::kDriveGainFields)
        if (key == QLatin1String(f.name))
            return double(f.max);
    return 0.0;
}

} // namespace

QString DrivePanel::shortLabel(const QString& key)
{
    if (key == QLatin1String("motorFrequency"))
        return QObject::tr("Motor Hz");
    if (key == QLatin1String("motorDamping"))
        return QObject::tr("Motor ζ");
    if (key == QLatin1String("maxTorque"))
        return QObject::tr("Torque");
    if (key == QLatin1String("pinFrequency"))
        return QObject::tr("Pin Hz");
    if (key == QLatin1String("pinDamping"))
        return QObject::tr("Pin ζ");
    if (key == QLatin1String("maxForce"))
        return QObject::tr("Force");
    return QObject::tr("Kinematic");
}

bool DrivePanel::isFrequency(const QString& key)
{
    return key.endsWith(QLatin1String("Frequency"));
}

QDoubleSpinBox* DrivePanel::gainBox(const QString& key)
{
    auto* box = new QDoubleSpinBox;
    box->setRange(0.0, maximumOf(key));
    box->setDecimals(isFrequency(key) || key.endsWith(QLatin1String("Damping")) ? 2 : 1);
    box->setSingleStep(isFrequency(key) ? 1.0 : key.endsWith(QLatin1String("Damping")) ? 0.1 : 10.0);
    box->setKeyboardTracking(false);
    box->setAccelerated(true);
    if (!isFrequency(key) && !key.endsWith(QLatin1String("Damping")))
        box->setSpecialValueText(QObject::tr("no limit")); // 0 = unlimited
    return box;
}

DrivePanel::DrivePanel(editor::Document* document, QWidget* parent) : QWidget(parent), mDocument(document)
{
    setObjectName(QStringLiteral("drivePanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    // Profiles, with their actions as tool buttons beside the list.
    auto action = [this](const char* name, const QString& text, const QString& tip, auto slot) {
        auto* a = new QAction(text, this);
        a->setObjectName(QString::fromLatin1(name));
        a->setToolTip(tip);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    mAdd = action("driveAddProfile", tr("Add Profile"), tr("A new profile: every gain off (the passive ragdoll)"),
                  [this] { addProfile(false); });
    mDuplicate = action("driveDuplicateProfile", tr("Duplicate Profile"), tr("A copy of the selected profile"),
                        [this] { addProfile(true); });
    mRename = action("driveRenameProfile", tr("Rename Profile…"),
                     tr("Rename the selected profile (games find it by name)"), [this] {
                         const int row = mProfiles->currentRow();
                         if (row >= 0)
                             mProfiles->editItem(mProfiles->item(row));
                     });
    mRemove = action("driveRemoveProfile", tr("Remove Profile"), tr("Remove the selected profile"),
                     [this] { removeCurrentProfile(); });
    mUseDefaults =
        action("driveUseDefaults", tr("Use Defaults"), tr("The selected parts take the profile's defaults again"),
               [this] { useDefaultsForSelectedParts(); });

    auto* top = new QHBoxLayout;
    mProfiles = new QListWidget;
    mProfiles->setObjectName(QStringLiteral("driveProfiles"));
    mProfiles->setMaximumHeight(4 * mProfiles->fontMetrics().height() + 12);
    top->addWidget(mProfiles, 1);
    auto* buttons = new QGridLayout;
    int n = 0;
    for (const auto& [a, text] : {std::pair{mAdd, tr("Add")},
                                  {mDuplicate, tr("Duplicate")},
                                  {mRename, tr("Rename")},
                                  {mRemove, tr("Remove")}}) {
        a->setIconText(text);
        auto* b = new QToolButton;
        b->setDefaultAction(a);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        b->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        buttons->addWidget(b, n / 2, n % 2);
        ++n;
    }
    buttons->setRowStretch(2, 1);
    top->addLayout(buttons);
    layout->addLayout(top);

    // The selected profile's defaults: the motor's gains in the left column, the pin's in the right.
    auto* defaults = new QGridLayout;
    defaults->setColumnStretch(1, 1);
    defaults->setColumnStretch(3, 1);
    int at = 0;
    for (const QString& key : editor::driveGainKeys()) {
        QWidget* editor = nullptr;
        if (key == QLatin1String("kinematic")) {
            auto* box = new QCheckBox;
            connect(box, &QCheckBox::toggled, this, [this, key](bool on) {
                if (!mUpdating)
                    setDefault(key, on);
            });
            editor = box;
        } else {
            auto* box = gainBox(key);
            connect(box, &QDoubleSpinBox::valueChanged, this, [this, key](double v) {
                if (!mUpdating)
                    setDefault(key, v);
            });
            editor = box;
        }
        editor->setObjectName(QStringLiteral("driveDefault_") + key);
        editor->setToolTip(editor::driveGainLabel(key));
        editor->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
        editor->setMinimumWidth(60);
        const int row = at < 6 ? at % 3 : 3, column = at < 6 ? 2 * (at / 3) : 0; // kDriveGainFields: motor ×3, pin ×3
        defaults->addWidget(new QLabel(shortLabel(key)), row, column);
        defaults->addWidget(editor, row, column + 1);
        mDefaults.emplace_back(key, editor);
        ++at;
    }
    auto* defaultsTitle = new QLabel(tr("<b>Defaults</b> (every part the profile does not list)"));
    layout->addWidget(defaultsTitle);
    layout->addLayout(defaults);

    // Parts.
    auto* partsBar = new QHBoxLayout;
    partsBar->addWidget(new QLabel(tr("<b>Parts</b>")));
    mSymmetric = new QLabel;
    mSymmetric->setObjectName(QStringLiteral("driveSymmetric"));
    mSymmetric->setToolTip(tr("Edit ▸ Symmetry: edits reach each part's left/right partner"));
    partsBar->addWidget(mSymmetric);
    partsBar->addStretch(1);
    auto* useDefaults = new QToolButton;
    useDefaults->setDefaultAction(mUseDefaults);
    partsBar->addWidget(useDefaults);
    layout->addLayout(partsBar);

    createPartsTable();
    layout->addWidget(mTable, 1);

    mFindings = new QLabel;
    mFindings->setObjectName(QStringLiteral("driveFindings"));
    mFindings->setWordWrap(true);
    mFindings->setStyleSheet(QStringLiteral("color: #c0392b"));
    layout->addWidget(mFindings);

    connect(mProfiles, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
        if (mUpdating || !item)
            return;
        mProfile = rig::ElementId(item->data(kProfileIdRole).toUInt());
        rebuildTable();
        refreshDefaults();
    });
    connect(mProfiles, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        if (mUpdating)
            return;
        const auto id = rig::ElementId(item->data(kProfileIdRole).toUInt());
        const std::int32_t i = editor::driveProfileIndex(mDocument->rig(), id);
        if (i != rig::kNone &&
            item->text() != QString::fromStdString(mDocument->rig().driveProfiles[std::size_t(i)].name)) {
            mProfile = id;
            if (!renameCurrentProfile(item->text()))
                rebuildProfiles(); // back to the name it has
        }
    });
    connect(mTable, &QTableWidget::itemChanged, this, &DrivePanel::cellEdited);
    connect(mTable, &QTableWidget::itemSelectionChanged, this, &DrivePanel::selectionToDocument);

    connect(document, &editor::Document::driveProfilesChanged, this, [this] {
        rebuildProfiles();
        rebuildTable();
        refreshDefaults();
        refreshFindings();
    });
    connect(document, &editor::Document::structureChanged, this, [this] {
        rebuildTable();
        refreshFindings();
    });
    connect(document, &editor::Document::elementsChanged, this, &DrivePanel::rebuildTable); // names
    connect(document, &editor::Document::selectionChanged, this, &DrivePanel::selectionFromDocument);
    connect(document, &editor::Document::symmetryChanged, this, &DrivePanel::refreshSymmetric);
    rebuildProfiles();
    rebuildTable();
    refreshDefaults();
    refreshFindings();
    refreshSymmetric();
}

QList<QAction*> DrivePanel::panelActions() const
{
    return {mAdd, mDuplicate, mRename, mRemove, mUseDefaults};
}

QWidget* DrivePanel::defaultsEditor(const QString& key) const
{
    for (const auto& [k, w] : mDefaults)
        if (k == key)
            return w;
    return nullptr;
}

bool DrivePanel::setCurrentProfile(rig::ElementId id)
{
    if (editor::driveProfileIndex(mDocument->rig(), id) == rig::kNone)
        return false;
    mProfile = id;
    rebuildProfiles();
    rebuildTable();
    refreshDefaults();
    return true;
}

bool DrivePanel::push(QUndoCommand* command, const QString& error)
{
    if (command && !mEditable) {
        delete command;
        emit problem(tr("Drive panel: the document is locked while previewing (Stop to edit)"));
        return false;
    }
    if (!command) {
        emit problem(tr("Drive panel: %1").arg(error));
        return false;
    }
    pushEdit(mDocument, command);
    return true;
}

bool DrivePanel::addProfile(bool duplicateCurrent)
{
    QString error;
    auto* command =
        editor::AddDriveProfileCommand::create(mDocument, QString(), duplicateCurrent ? mProfile : 0, error);
    const rig::ElementId added = command ? command->profileId() : 0;
    if (!push(command, error))
        return false;
    return setCurrentProfile(added);
}

bool DrivePanel::renameCurrentProfile(const QString& name)
{
    QString error;
    return push(editor::RenameDriveProfileCommand::create(mDocument, mProfile, name, error), error);
}

bool DrivePanel::removeCurrentProfile()
{
    QString error;
    return push(editor::RemoveDriveProfileCommand::create(mDocument, mProfile, error), error);
}

bool DrivePanel::setDefault(const QString& key, const QVariant& value)
{
    const std::int32_t i = editor::driveProfileIndex(mDocument->rig(), mProfile);
    if (i != rig::kNone && editor::driveGain(mDocument->rig().driveProfiles[std::size_t(i)].defaults, key) == value)
        return true; // no empty undo step
    QString error;
    return push(editor::SetDriveDefaultsCommand::create(mDocument, mProfile, key, value, error), error);
}

void DrivePanel::rebuildProfiles()
{
    const rig::RigDescription& rig = mDocument->rig();
    if (editor::driveProfileIndex(rig, mProfile) == rig::kNone)
        mProfile = rig.driveProfiles.empty() ? 0 : rig.driveProfiles.front().id;
    mUpdating = true;
    // Items are updated in place when the count stays (a rename: this runs inside the item's own itemChanged).
    if (mProfiles->count() != int(rig.driveProfiles.size())) {
        mProfiles->clear();
        for (std::size_t i = 0; i < rig.driveProfiles.size(); ++i)
            new QListWidgetItem(mProfiles);
    }
    std::set<std::int32_t> faulty;
    for (const editor::DriveProfileFinding& f : editor::driveProfileFindings(rig))
        faulty.insert(f.profile);
    for (std::size_t i = 0; i < rig.driveProfiles.size(); ++i) {
        const rig::DriveProfile& p = rig.driveProfiles[i];
        QListWidgetItem* item = mProfiles->item(int(i));
        item->setText(QString::fromStdString(p.name));
        item->setData(kProfileIdRole, p.id);
        item->setFlags(mEditable ? item->flags() | Qt::ItemIsEditable : item->flags() & ~Qt::ItemIsEditable);
        item->setToolTip(tr("%n part(s) with gains of their own", nullptr, int(p.parts.size())));
        item->setForeground(faulty.count(std::int32_t(i)) ? QBrush(QColor(0xc0, 0x39, 0x2b)) : palette().text());
        if (p.id == mProfile)
            mProfiles->setCurrentItem(item);
    }
    mUpdating = false;
    refreshEnabled();
}

void DrivePanel::setEditable(bool editable)
{
    mEditable = editable;
    refreshEnabled();
    rebuildProfiles(); // names editable or not
    rebuildTable();
}

void DrivePanel::refreshEnabled()
{
    const bool any = mProfile != 0;
    mAdd->setEnabled(mEditable);
    for (QAction* a : {mDuplicate, mRename, mRemove, mUseDefaults})
        a->setEnabled(mEditable && any);
    for (const auto& [key, w] : mDefaults)
        w->setEnabled(mEditable && any);
    mTable->setEditTriggers(mEditable ? QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                                            QAbstractItemView::AnyKeyPressed
                                      : QAbstractItemView::NoEditTriggers);
}

void DrivePanel::refreshDefaults()
{
    const std::int32_t pi = editor::driveProfileIndex(mDocument->rig(), mProfile);
    const rig::DriveGains gains =
        pi == rig::kNone ? rig::DriveGains{} : mDocument->rig().driveProfiles[std::size_t(pi)].defaults;
    mUpdating = true;
    for (const auto& [key, w] : mDefaults) {
        if (auto* box = qobject_cast<QDoubleSpinBox*>(w))
            box->setValue(editor::driveGain(gains, key).toDouble());
        else if (auto* check = qobject_cast<QCheckBox*>(w))
            check->setChecked(gains.kinematic);
    }
    mUpdating = false;
}

void DrivePanel::refreshFindings()
{
    QStringList lines;
    for (const editor::DriveProfileFinding& f : editor::driveProfileFindings(mDocument->rig()))
        lines << f.message.toHtmlEscaped();
    mFindings->setText(lines.join(QStringLiteral("<br>")));
    mFindings->setVisible(!lines.isEmpty());
}

void DrivePanel::refreshSymmetric()
{
    const project::SymmetrySettings& s = mDocument->project().editor.symmetry;
    mSymmetric->setText(s.enabled ? tr("⇋ Symmetric") : QString());
    mSymmetric->setVisible(s.enabled);
}

} // namespace marionette::app
