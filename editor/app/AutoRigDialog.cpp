#include "AutoRigDialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSettings>
#include <QVBoxLayout>

namespace marionette::app {

QDoubleSpinBox* totalMassBox()
{
    auto* mass = new QDoubleSpinBox;
    mass->setObjectName(QStringLiteral("mass"));
    mass->setRange(0.1, 100000.0);
    mass->setDecimals(1);
    mass->setSuffix(QStringLiteral(" kg"));
    mass->setValue(75.0);
    return mass;
}

AutoRigDialog::AutoRigDialog(const std::vector<Choice>& templates, QWidget* parent)
    : QDialog(parent), mTemplate(new QComboBox), mMass(totalMassBox()), mMassFromMesh(new QCheckBox(tr("Masses from the mesh's volume"))),
      mDescription(new QLabel), mChoices(templates)
{
    setWindowTitle(tr("Auto-Rig"));
    setObjectName(QStringLiteral("autoRigDialog"));
    mTemplate->setObjectName(QStringLiteral("template"));
    for (const Choice& c : templates)
        mTemplate->addItem(c.name);
    mDescription->setWordWrap(true);
    mDescription->setMinimumWidth(360);
    auto update = [this] {
        const int i = mTemplate->currentIndex();
        mDescription->setText(i >= 0 && std::size_t(i) < mChoices.size() ? mChoices[std::size_t(i)].description : QString());
    };
    connect(mTemplate, &QComboBox::currentIndexChanged, this, update);
    update();

    auto* form = new QFormLayout;
    form->addRow(tr("Template"), mTemplate);
    form->addRow(QString(), mDescription);
    form->addRow(tr("Total mass"), mMass);
    mMassFromMesh->setObjectName(QStringLiteral("massFromMesh"));
    mMassFromMesh->setToolTip(tr("Spread the total over the particles by the skinned volume each drives, instead of the "
                                 "template's table (which the sample characters settle better with)"));
    mMassFromMesh->setChecked(QSettings().value(QStringLiteral("autoRig/massFromMesh"), false).toBool());
    connect(mMassFromMesh, &QCheckBox::toggled, this, [](bool on) { QSettings().setValue(QStringLiteral("autoRig/massFromMesh"), on); });
    form->addRow(QString(), mMassFromMesh);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Build Rig"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Build a ragdoll on the mesh's skeleton. This replaces the current rig (undoable).")));
    layout->addLayout(form);
    layout->addWidget(buttons);
}

QString AutoRigDialog::templateName() const { return mTemplate->currentText(); }

void AutoRigDialog::setTemplateName(const QString& name)
{
    const int i = mTemplate->findText(name);
    if (i >= 0)
        mTemplate->setCurrentIndex(i);
}

float AutoRigDialog::totalMass() const { return float(mMass->value()); }

void AutoRigDialog::setTotalMass(float kg) { mMass->setValue(double(kg)); }

bool AutoRigDialog::massFromMesh() const { return mMassFromMesh->isChecked(); }

} // namespace marionette::app
