#include "PreviewDialogs.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSlider>
#include <QVBoxLayout>

#include <cmath>

namespace marionette::app {

AnimationHandoffDialog::AnimationHandoffDialog(const import::ImportedScene& mesh,
    std::function<void(std::size_t, float)> showPose, QWidget* parent)
    : QDialog(parent), mMesh(mesh), mShowPose(std::move(showPose)), mClip(new QComboBox), mTime(new QSlider(Qt::Horizontal)),
      mTimeLabel(new QLabel)
{
    setWindowTitle(tr("Switch from Animation to Physics"));
    setObjectName(QStringLiteral("animationDialog"));
    for (const auto& clip : mesh.animations)
        mClip->addItem(QStringLiteral("%1 (%2 s)").arg(QString::fromStdString(clip.name)).arg(double(clip.duration), 0, 'f', 2));
    mTime->setRange(0, 1000);
    mTime->setMinimumWidth(320);
    connect(mClip, &QComboBox::currentIndexChanged, this, &AnimationHandoffDialog::update);
    connect(mTime, &QSlider::valueChanged, this, &AnimationHandoffDialog::update);
    auto* form = new QFormLayout;
    form->addRow(tr("Clip"), mClip);
    form->addRow(tr("Switch at"), mTime);
    form->addRow(QString(), mTimeLabel);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Switch to Physics"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("The ragdoll starts in the clip's pose with the velocity of its last two frames.")));
    layout->addLayout(form);
    layout->addWidget(buttons);
    update();
}

std::size_t AnimationHandoffDialog::clip() const { return std::size_t(std::max(0, mClip->currentIndex())); }

float AnimationHandoffDialog::time() const
{
    if (mMesh.animations.empty())
        return 0.f;
    return mMesh.animations[clip()].duration * float(mTime->value()) / 1000.f;
}

void AnimationHandoffDialog::update()
{
    mTimeLabel->setText(tr("%1 s").arg(double(time()), 0, 'f', 3));
    if (mShowPose && !mMesh.animations.empty())
        mShowPose(clip(), time());
}

ScenarioDialog::ScenarioDialog(const QString& suggestedName, float duration, QWidget* parent)
    : QDialog(parent), mName(new QLineEdit(suggestedName)), mSettle(new QCheckBox(tr("Comes to rest within"))),
      mSettleWithin(new QDoubleSpinBox), mPenetration(new QDoubleSpinBox), mLimit(new QDoubleSpinBox)
{
    setWindowTitle(tr("Save Scenario"));
    setObjectName(QStringLiteral("scenarioDialog"));
    mName->setObjectName(QStringLiteral("scenarioName"));
    mSettle->setChecked(true);
    mSettleWithin->setRange(0.05, double(duration));
    mSettleWithin->setValue(double(duration));
    mSettleWithin->setSuffix(tr(" s"));
    mPenetration->setRange(0.0, 1000.0);
    mPenetration->setDecimals(1);
    mPenetration->setValue(20.0);
    mPenetration->setSuffix(tr(" mm"));
    mLimit->setRange(0.0, 180.0);
    mLimit->setDecimals(1);
    mLimit->setValue(5.0);
    mLimit->setSuffix(tr("°"));
    auto* form = new QFormLayout;
    form->addRow(tr("Name"), mName);
    form->addRow(mSettle, mSettleWithin);
    form->addRow(tr("Penetration at most"), mPenetration);
    form->addRow(tr("Limit violation at most"), mLimit);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("The drop, hits and drags recorded (%1 s) replay headless with\n"
                                    "marionette simulate PROJECT.mproj --scenario NAME.").arg(double(duration), 0, 'f', 2)));
    layout->addLayout(form);
    layout->addWidget(buttons);
}

QString ScenarioDialog::name() const { return mName->text().trimmed(); }

project::Expectations ScenarioDialog::expectations() const
{
    project::Expectations e;
    if (mSettle->isChecked())
        e.settleWithin = float(mSettleWithin->value());
    e.maxPenetration = float(mPenetration->value() / 1000.0);
    e.maxLimitViolationDegrees = float(mLimit->value());
    return e;
}

} // namespace marionette::app
