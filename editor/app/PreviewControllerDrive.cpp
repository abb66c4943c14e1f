// PreviewController: the driven preview (powered ragdolls, docs/preview.md "Driven preview"): a clip of the mesh
// played through the rig's drives, the profile switched live, kill and get-up, and the tracking error of every
// driven part coloured in the viewport. The rest of the class is in PreviewController.cpp.
#include "PreviewController.h"

#include "viewport/ViewportScene.h"

#include "marionette/editor/document/DriveProfiles.h"

#include <algorithm>
#include <cmath>

namespace marionette::app {

bool PreviewController::startSession(editor::PreviewSession& session, QString& error)
{
    mDrivenMesh.reset();
    if (mDrivenClip.isEmpty())
        return session.start(mDocument->rig(), mSettings, error);
    const auto mesh = mDocument->mesh();
    if (!mesh) {
        error = tr("A driven preview plays a clip of the mesh: the project's mesh is not loaded");
        return false;
    }
    const QString profile = startProfile();
    if (profile.isEmpty()) {
        error = tr("A driven preview needs a drive profile: add one in the Drive panel");
        return false;
    }
    const QStringList getUps = getUpClips();
    const project::DrivenPlay play{mDrivenClip, profile, std::vector<QString>(getUps.begin(), getUps.end())};
    if (!session.startDriven(mDocument->rig(), mSettings, *mesh, play, error))
        return false;
    mDrivenMesh = mesh; // startDriven keeps a pointer to it
    return true;
}

void PreviewController::setDrivenClip(const QString& clip)
{
    if (clip == mDrivenClip)
        return;
    mDrivenClip = clip;
    emit driveChanged();
    if (!mSession)
        return;
    // Start again in the new mode, playing if it was.
    const bool playing = isPlaying();
    stop();
    if (playing)
        play();
    else
        ensureSession();
}

QString PreviewController::startProfile() const
{
    const auto& profiles = mDocument->rig().driveProfiles;
    auto has = [&](const QString& name) {
        return std::any_of(profiles.begin(), profiles.end(),
                           [&](const rig::DriveProfile& p) { return p.name == name.toStdString(); });
    };
    if (!mDriveProfile.isEmpty() && has(mDriveProfile))
        return mDriveProfile;
    if (has(QStringLiteral("balanced")))
        return QStringLiteral("balanced");
    return profiles.empty() ? QString() : QString::fromStdString(profiles.front().name);
}

bool PreviewController::setDriveProfile(const QString& profile)
{
    mDriveProfile = profile;
    if (mSession && mSession->isDriven()) {
        QString error;
        if (!mSession->setDriveProfile(profile, kDriveBlendSeconds, error)) {
            emit errorOccurred(error);
            emit driveChanged();
            return false;
        }
    }
    emit driveChanged();
    return true;
}

bool PreviewController::kill()
{
    if (!mSession || !mSession->isDriven())
        return false;
    mSession->kill(kDriveBlendSeconds);
    emit driveChanged();
    return true;
}

bool PreviewController::getUp()
{
    if (!mSession || !mSession->isDriven())
        return false;
    QString error;
    if (!mSession->getUp(kDriveBlendSeconds, error)) {
        emit errorOccurred(error);
        return false;
    }
    emit driveChanged();
    return true;
}

QStringList PreviewController::getUpClips() const
{
    QStringList out;
    if (const auto mesh = mDocument->mesh())
        for (const import::AnimationClip& clip : mesh->animations)
            if (QString::fromStdString(clip.name).startsWith(QLatin1String("getup"), Qt::CaseInsensitive))
                out << QString::fromStdString(clip.name);
    return out;
}

QString PreviewController::driveStatus() const
{
    if (!mSession || !mSession->isDriven())
        return {};
    QString phase;
    switch (mSession->drivePhase()) {
    case editor::PreviewSession::DrivePhase::Off:
        phase = tr("off");
        break;
    case editor::PreviewSession::DrivePhase::Playing:
        phase = tr("playing");
        break;
    case editor::PreviewSession::DrivePhase::Limp:
        phase = tr("limp");
        break;
    case editor::PreviewSession::DrivePhase::GettingUp:
        phase = tr("getting up");
        break;
    }
    const QString profile = mSession->driveProfile();
    return tr("%1 · %2 · %3").arg(mSession->drivenPlay()->clip, profile.isEmpty() ? tr("no drives") : profile, phase);
}

void PreviewController::decorateDriven(viewport::ViewportScene& scene) const
{
    if (!mSession || !mSession->isDriven())
        return;
    const std::vector<editor::PreviewSession::PartError> errors = mSession->partTrackingErrors();
    // The runtime's parts, in its order (editor::driveParts() follows runtime::Rig::driveParts()'s rule).
    const rig::RigDescription& rig = mSession->rig();
    const std::vector<project::ElementRef> parts = editor::driveParts(rig);
    scene.triangleTracking.assign(rig.triangles.size(), -1.f);
    scene.stickTracking.assign(rig.sticks.size(), -1.f);
    float worst = -1.f;
    std::size_t worstPart = 0;
    for (std::size_t k = 0; k < errors.size() && k < parts.size(); ++k) {
        const editor::PreviewSession::PartError& e = errors[k];
        if (e.metres < 0.f)
            continue; // no target
        const float tolerances = std::max(e.metres / kTrackingMetres, std::max(e.radians, 0.f) / kTrackingRadians);
        std::vector<float>& out =
            parts[k].kind == project::ElementKind::Triangle ? scene.triangleTracking : scene.stickTracking;
        if (const std::int32_t i = editor::indexOf(rig, parts[k]); i >= 0 && std::size_t(i) < out.size())
            out[std::size_t(i)] = tolerances;
        if (tolerances > worst) {
            worst = tolerances;
            worstPart = k;
        }
    }
    QString worstText;
    if (worst >= 0.f) {
        const project::ElementRef p = parts[worstPart];
        const std::string& name = editor::nameAt(rig, p.kind, std::size_t(editor::indexOf(rig, p)));
        worstText = tr("   worst %1: %2 cm, %3°")
                        .arg(QString::fromStdString(name))
                        .arg(double(errors[worstPart].metres) * 100.0, 0, 'f', 1)
                        .arg(double(errors[worstPart].radians) * 180.0 / 3.14159265358979, 0, 'f', 1);
    }
    scene.overlayLines << tr("driven: %1%2").arg(driveStatus(), worstText)
                       << tr("tracking: green on target → yellow at %1 cm or %2° → red at %3 cm or %4°")
                              .arg(double(kTrackingMetres) * 100.0, 0, 'f', 0)
                              .arg(double(kTrackingRadians) * 180.0 / 3.14159265358979, 0, 'f', 0)
                              .arg(double(kTrackingMetres * viewport::kTrackingSaturation) * 100.0, 0, 'f', 0)
                              .arg(double(kTrackingRadians * viewport::kTrackingSaturation) * 180.0 / 3.14159265358979,
                                   0, 'f', 0);
}

} // namespace marionette::app
