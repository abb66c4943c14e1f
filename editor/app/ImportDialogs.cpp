#include "ImportDialogs.h"

#include "AutoRigDialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace marionette::app {

ImportOptionsDialog::ImportOptionsDialog(const QString& path, const ImportOptions& initial, QWidget* parent)
    : QDialog(parent), mOverrideScale(new QCheckBox(tr("Replace the file's unit:"))), mScale(new QDoubleSpinBox),
      mUpAxis(new QComboBox), mStrict(new QCheckBox(tr("Strict: refuse a file with any fault instead of repairing it")))
{
    setWindowTitle(tr("Import Mesh"));
    setObjectName(QStringLiteral("importOptionsDialog"));
    mOverrideScale->setObjectName(QStringLiteral("overrideScale"));
    mScale->setObjectName(QStringLiteral("scale"));
    mScale->setDecimals(6);
    mScale->setRange(1e-6, 1e6);
    mScale->setSuffix(tr(" m per unit"));
    mScale->setValue(double(initial.scale.value_or(1.f)));
    mOverrideScale->setChecked(initial.scale.has_value());
    mScale->setEnabled(initial.scale.has_value());
    connect(mOverrideScale, &QCheckBox::toggled, mScale, &QWidget::setEnabled);
    mUpAxis->setObjectName(QStringLiteral("upAxis"));
    mUpAxis->addItem(tr("As the file says"));
    mUpAxis->addItem(tr("Y up"), int(import::UpAxis::Y));
    mUpAxis->addItem(tr("Z up"), int(import::UpAxis::Z));
    mUpAxis->addItem(tr("X up"), int(import::UpAxis::X));
    if (initial.upAxis)
        mUpAxis->setCurrentIndex(mUpAxis->findData(int(*initial.upAxis)));
    mStrict->setObjectName(QStringLiteral("strict"));
    mStrict->setChecked(initial.strict);

    auto* form = new QFormLayout;
    auto* scaleRow = new QHBoxLayout;
    scaleRow->addWidget(mOverrideScale);
    scaleRow->addWidget(mScale, 1);
    form->addRow(tr("Scale"), scaleRow);
    form->addRow(tr("Up axis"), mUpAxis);
    form->addRow(QString(), mStrict);
    auto* note = new QLabel(tr("Most files say their unit and up axis; replace them only when the model comes in at "
                               "the wrong size or lying down. After reading, the size is checked and a scale "
                               "proposed if it looks wrong."));
    note->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Import"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    auto* file = new QLabel(QFileInfo(path).fileName());
    file->setToolTip(path);
    layout->addWidget(file);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(buttons);
    setMinimumWidth(440);
}

ImportOptions ImportOptionsDialog::options() const
{
    ImportOptions o;
    if (mOverrideScale->isChecked())
        o.scale = float(mScale->value());
    if (const QVariant axis = mUpAxis->currentData(); axis.isValid())
        o.upAxis = import::UpAxis(axis.toInt());
    o.strict = mStrict->isChecked();
    return o;
}

ImportResultDialog::ImportResultDialog(const QString& summary, const QStringList& warnings,
                                       std::optional<float> proposedScale, const std::vector<Choice>& choices,
                                       const QString& preferred, QWidget* parent)
    : QDialog(parent), mChoice(new QComboBox), mMass(totalMassBox()), mDescription(new QLabel), mChoices(choices),
      mProposedScale(proposedScale)
{
    setWindowTitle(tr("Import Mesh"));
    setObjectName(QStringLiteral("importResultDialog"));
    auto* layout = new QVBoxLayout(this);
    auto* what = new QLabel(summary);
    what->setObjectName(QStringLiteral("summary"));
    what->setWordWrap(true);
    layout->addWidget(what);

    auto* list = new QListWidget;
    list->setObjectName(QStringLiteral("warnings"));
    list->setWordWrap(true);
    for (const QString& w : warnings)
        list->addItem(w);
    if (warnings.isEmpty())
        list->addItem(tr("No warnings."));
    list->setMinimumHeight(90);
    layout->addWidget(new QLabel(tr("Warnings (%1)").arg(warnings.size())));
    layout->addWidget(list, 1);
    if (proposedScale) {
        auto* again = new QPushButton(tr("Import at scale %1").arg(QString::number(double(*proposedScale), 'g', 4)));
        again->setObjectName(QStringLiteral("useProposedScale"));
        again->setToolTip(tr("Read the file again with this many metres per unit (the size check's proposal)."));
        connect(again, &QPushButton::clicked, this, [this] { done(kReimport); });
        auto* row = new QHBoxLayout;
        row->addStretch(1);
        row->addWidget(again);
        layout->addLayout(row);
    }

    mChoice->setObjectName(QStringLiteral("rigChoice"));
    for (const Choice& c : choices)
        mChoice->addItem(c.label, c.name);
    if (const int i = mChoice->findData(preferred); i >= 0)
        mChoice->setCurrentIndex(i);
    mDescription->setWordWrap(true);
    auto update = [this] {
        const int i = mChoice->currentIndex();
        const bool known = i >= 0 && std::size_t(i) < mChoices.size();
        mDescription->setText(known ? mChoices[std::size_t(i)].description : QString());
        const QString name = known ? mChoices[std::size_t(i)].name : QString();
        mMass->setEnabled(name != QLatin1String(kKeepRig) && name != QLatin1String(kNoRig));
    };
    connect(mChoice, &QComboBox::currentIndexChanged, this, update);
    update();
    auto* form = new QFormLayout;
    form->addRow(tr("Rig"), mChoice);
    form->addRow(QString(), mDescription);
    form->addRow(tr("Total mass"), mMass);
    layout->addLayout(form);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Import"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    setMinimumWidth(560);
}

QString ImportResultDialog::choice() const { return mChoice->currentData().toString(); }

float ImportResultDialog::totalMass() const { return float(mMass->value()); }

} // namespace marionette::app
