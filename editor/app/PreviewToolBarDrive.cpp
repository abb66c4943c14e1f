// PreviewToolBar: the driven preview's bar (powered ragdolls, docs/preview.md "Driven preview"): the clip played
// through the drives, the drive profile, Kill and Get Up. The rest of the class is in PreviewToolBar.cpp.
#include "PreviewToolBar.h"

#include "PreviewController.h"

#include "marionette/editor/document/Document.h"

#include <QComboBox>
#include <QSignalBlocker>

namespace marionette::app {

void PreviewToolBar::createDriveBar(QWidget* parent)
{
    mDriveBar = new QToolBar(tr("Driven Preview"), parent);
    mDriveBar->setObjectName(QStringLiteral("previewDriveBar"));
    mClip = new QComboBox;
    mClip->setObjectName(QStringLiteral("previewClip"));
    mClip->setToolTip(tr("Play a clip of the mesh through the rig's drives (a powered ragdoll: hit, drag and explode "
                         "still work); none: the ordinary drop"));
    mClip->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(mClip, &QComboBox::activated, this,
            [this](int i) { mPreview->setDrivenClip(mClip->itemData(i).toString()); });
    mDriveBar->addWidget(mClip);
    mProfile = new QComboBox;
    mProfile->setObjectName(QStringLiteral("previewProfile"));
    mProfile->setToolTip(tr("The drive profile (the Drive panel's): switched live with a %1 s blend")
                             .arg(double(PreviewController::kDriveBlendSeconds)));
    mProfile->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(mProfile, &QComboBox::activated, this, [this](int i) { mPreview->setDriveProfile(mProfile->itemText(i)); });
    mDriveBar->addWidget(mProfile);
    mKill = mDriveBar->addAction(tr("Kill"), this, [this] { mPreview->kill(); });
    mKill->setObjectName(QStringLiteral("previewKill"));
    mKill->setShortcut(QKeySequence(tr("Ctrl+K")));
    mKill->setToolTip(tr("Every drive blends to limp: the body falls (Ctrl+K)"));
    mGetUp = mDriveBar->addAction(tr("Get Up"), this, [this] { mPreview->getUp(); });
    mGetUp->setObjectName(QStringLiteral("previewGetUp"));
    mGetUp->setShortcut(QKeySequence(tr("Ctrl+G")));
    mGetUp->setToolTip(
        tr("Get up with the mesh's get-up clip (named getup…) that lies as the body lies, then play on (Ctrl+G)"));

    connect(mDocument, &editor::Document::meshChanged, this, &PreviewToolBar::syncDrive);
    connect(mDocument, &editor::Document::driveProfilesChanged, this, &PreviewToolBar::syncDrive);
    connect(mPreview, &PreviewController::driveChanged, this, &PreviewToolBar::syncDrive);
    connect(mPreview, &PreviewController::activeChanged, this, &PreviewToolBar::syncDrive);
    connect(mPreview, &PreviewController::frameReady, this, [this] {
        // Kill and Get Up follow the phase (a get-up ends by itself).
        const editor::PreviewSession* s = mPreview->session();
        const bool driven = s && s->isDriven();
        const auto phase = driven ? s->drivePhase() : editor::PreviewSession::DrivePhase::Off;
        mKill->setEnabled(driven && phase != editor::PreviewSession::DrivePhase::Limp);
        mGetUp->setEnabled(driven && phase != editor::PreviewSession::DrivePhase::GettingUp &&
                           !mPreview->getUpClips().isEmpty());
    });
    syncDrive();
}

void PreviewToolBar::syncDrive()
{
    const QSignalBlocker quietClip(mClip), quietProfile(mProfile);
    mClip->clear();
    mClip->addItem(tr("Drop (no clip)"), QString());
    if (const auto mesh = mDocument->mesh())
        for (const import::AnimationClip& clip : mesh->animations)
            mClip->addItem(tr("Drive: %1").arg(QString::fromStdString(clip.name)), QString::fromStdString(clip.name));
    const int clip = mClip->findData(mPreview->drivenClip());
    mClip->setCurrentIndex(clip < 0 ? 0 : clip);
    mClip->setEnabled(mClip->count() > 1);

    mProfile->clear();
    for (const rig::DriveProfile& p : mDocument->rig().driveProfiles)
        mProfile->addItem(QString::fromStdString(p.name));
    const editor::PreviewSession* s = mPreview->session();
    const bool driven = s && s->isDriven();
    const QString shown = driven && !s->driveProfile().isEmpty() ? s->driveProfile() : mPreview->startProfile();
    mProfile->setCurrentIndex(mProfile->findText(shown));
    mProfile->setEnabled(mProfile->count() > 0 && !mPreview->drivenClip().isEmpty());
    const auto phase = driven ? s->drivePhase() : editor::PreviewSession::DrivePhase::Off;
    mKill->setEnabled(driven && phase != editor::PreviewSession::DrivePhase::Limp);
    mGetUp->setEnabled(driven && phase != editor::PreviewSession::DrivePhase::GettingUp &&
                       !mPreview->getUpClips().isEmpty());
}

} // namespace marionette::app
