#include "TransferRigDialog.h"

#include "AutoRigDialog.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace marionette::app {

TransferRigDialog::TransferRigDialog(const QString& meshPath, float totalMass, QWidget* parent)
    : QDialog(parent), mMap(new QLineEdit), mMass(totalMassBox())
{
    setWindowTitle(tr("Transfer Rig to Mesh"));
    setObjectName(QStringLiteral("transferRigDialog"));
    mMap->setObjectName(QStringLiteral("map"));
    mMap->setPlaceholderText(tr("none: pair bones by name, body part and naming scheme"));
    auto* browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, [this, meshPath] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Bone Map"), QFileInfo(meshPath).absolutePath(),
                                                          tr("Bone maps (*.json);;All files (*)"));
        if (!path.isEmpty())
            mMap->setText(path);
    });
    auto* mapRow = new QHBoxLayout;
    mapRow->addWidget(mMap);
    mapRow->addWidget(browse);
    mMass->setValue(double(totalMass));
    auto* form = new QFormLayout;
    form->addRow(tr("Bone map"), mapRow);
    form->addRow(tr("Total mass"), mMass);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Transfer"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("Apply this rig to %1: particles keep their place relative to their bones and the skin, "
                                "every constraint and limit is kept. This replaces the mesh and the rig (undoable).")
                                 .arg(QFileInfo(meshPath).fileName()));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

QString TransferRigDialog::mapPath() const { return mMap->text().trimmed(); }

float TransferRigDialog::totalMass() const { return float(mMass->value()); }

} // namespace marionette::app
