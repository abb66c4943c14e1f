// PreviewSession's driven preview: a clip played through the rig's drives, with profile changes, kills and
// get-ups as events (PreviewSession.h, docs/preview.md "Driven preview").
#include "PreviewSessionInternal.h"

#include "marionette/runtime/PoseBlend.h"

#include <cmath>

namespace marionette::editor {

namespace {

/// How a body follows a get-up: every particle pinned at 20 Hz (sagging g/ω² = 0.6 mm) and every part turned
/// by a 20 Hz motor, critically damped, uncapped. Stronger motors (60 Hz) overpower the joint limits where the
/// blend passes through a pose the limits forbid (157° past one on the mannequin); at 20 Hz they hold (0.3°).
constexpr rig::DriveGains kGetUpGains{20.f, 1.f, 0.f, 20.f, 1.f, 0.f, false};

bool blendInRange(float seconds) { return seconds >= 0.f && seconds <= 60.f; }

std::int64_t findClip(const import::ImportedScene& mesh, const QString& name)
{
    const std::string wanted = name.toStdString();
    for (std::size_t c = 0; c < mesh.animations.size(); ++c)
        if (mesh.animations[c].name == wanted)
            return std::int64_t(c);
    return -1;
}

} // namespace

bool PreviewSession::startDriven(const rig::RigDescription& rig, const PreviewSettings& settings,
                                 const import::ImportedScene& mesh, const project::DrivenPlay& play, QString& error)
{
    // Everything named is checked before the session changes.
    const std::int64_t clip = findClip(mesh, play.clip);
    if (clip < 0) {
        error = QStringLiteral("the mesh has no animation clip '%1' to play").arg(play.clip);
        return false;
    }
    std::vector<std::size_t> getUps;
    for (const QString& name : play.getUpClips) {
        const std::int64_t c = findClip(mesh, name);
        if (c < 0) {
            error = QStringLiteral("the mesh has no get-up clip '%1'").arg(name);
            return false;
        }
        getUps.push_back(std::size_t(c));
    }
    const std::string profile = play.profile.toStdString();
    if (std::none_of(rig.driveProfiles.begin(), rig.driveProfiles.end(),
                     [&](const rig::DriveProfile& p) { return p.name == profile; })) {
        error = QStringLiteral("the rig has no drive profile '%1'").arg(play.profile);
        return false;
    }
    std::string why;
    ClipPlayback check;
    if (!check.init(rig, mesh, std::size_t(clip), why)) {
        error = QStringLiteral("clip '%1' cannot be played: %2").arg(play.clip, QString::fromStdString(why));
        return false;
    }
    if (!start(rig, settings, error))
        return false;
    auto drive = std::make_unique<Drive>();
    drive->mesh = &mesh;
    drive->getUpClips = std::move(getUps);
    drive->profile = std::uint32_t(mRig->findDriveProfile(profile));
    drive->raise = Transform{Quat{}, {0.f, sceneTopHeight(settings.scene), 0.f}};
    drive->play.init(mRig->description(), mesh, std::size_t(clip), why);
    drive->play.setPlacement(drive->raise);
    // The mesh shows the clip's first pose until the first step computes the bones.
    const std::vector<Mat4> first = drive->play.palette(0.0);
    const rig::RigDescription& r = mRig->description();
    mAnimPalette.resize(first.size());
    for (std::size_t b = 0; b < first.size(); ++b)
        mAnimPalette[b] = first[b] * r.bones[b].inverseBind;
    mDrive = std::move(drive);
    mDriven = play;
    restart();
    return true;
}

bool PreviewSession::isDriven() const { return mDriven.has_value() && mDrive != nullptr; }
const std::optional<project::DrivenPlay>& PreviewSession::drivenPlay() const { return mDriven; }

PreviewSession::DrivePhase PreviewSession::drivePhase() const
{
    return isDriven() && mSim ? mSim->drive.phase : DrivePhase::Off;
}

QString PreviewSession::driveProfile() const
{
    if (!isDriven() || !mSim || mSim->drive.phase == DrivePhase::Limp || mSim->drive.profile < 0)
        return {};
    return QString::fromStdString(mRig->driveProfiles()[std::size_t(mSim->drive.profile)].name);
}

std::vector<PreviewSession::PartError> PreviewSession::partTrackingErrors() const
{
    std::vector<PartError> out;
    if (!isDriven() || !isRunning())
        return out;
    out.resize(mRig->driveParts().size());
    for (std::uint32_t p = 0; p < out.size(); ++p) {
        float metres = 0.f, radians = 0.f;
        if (mSim->ragdoll->partTrackingError(p, metres, radians))
            out[p] = {metres, radians};
    }
    return out;
}

std::span<const Mat4> PreviewSession::driveTarget() const
{
    return isDriven() && mSim ? std::span<const Mat4>(mSim->drive.target) : std::span<const Mat4>();
}

std::int64_t PreviewSession::driveProfileIndex(const QString& profile, QString& error) const
{
    if (!isDriven() || !isRunning()) {
        error = QStringLiteral("the preview is not playing a clip through the drives");
        return -1;
    }
    const std::int32_t k = mRig->findDriveProfile(profile.toStdString());
    if (k < 0)
        error = QStringLiteral("the rig has no drive profile '%1'").arg(profile);
    return k;
}

bool PreviewSession::setDriveProfile(const QString& profile, float blendSeconds, QString& error)
{
    const std::int64_t k = driveProfileIndex(profile, error);
    if (k < 0)
        return false;
    if (!blendInRange(blendSeconds)) {
        error = QStringLiteral("the blend must be in [0, 60] s, not %1").arg(double(blendSeconds));
        return false;
    }
    Event e;
    e.kind = Event::Kind::DriveProfile;
    e.index = std::uint32_t(k);
    e.value = blendSeconds;
    addEvent(e);
    return true;
}

void PreviewSession::kill(float blendSeconds)
{
    if (!isDriven() || !isRunning() || !blendInRange(blendSeconds))
        return;
    Event e;
    e.kind = Event::Kind::DriveKill;
    e.value = blendSeconds;
    addEvent(e);
}

bool PreviewSession::getUp(float blendSeconds, QString& error)
{
    if (!isDriven() || !isRunning()) {
        error = QStringLiteral("the preview is not playing a clip through the drives");
        return false;
    }
    if (mDrive->getUpClips.empty()) {
        error = QStringLiteral("no get-up clip is set for the driven preview");
        return false;
    }
    if (!blendInRange(blendSeconds)) {
        error = QStringLiteral("the blend must be in [0, 60] s, not %1").arg(double(blendSeconds));
        return false;
    }
    Event e;
    e.kind = Event::Kind::DriveGetUp;
    e.index = Event::kPlayProfile;
    e.value = blendSeconds;
    addEvent(e);
    return true;
}

// ---- stepping --------------------------------------------------------------------------------------------

void PreviewSession::placeDriven()
{
    DriveRun& d = mSim->drive;
    d = DriveRun{};
    d.play = mDrive->play;
    d.phase = DrivePhase::Playing;
    d.profile = mDrive->profile;
    d.command = d.profile;
    d.target = d.play.palette(0.0);
    std::string ignored; // the clip and the profile were checked by startDriven()
    placeOnPalette(*mSim->ragdoll, d.target, d.play.palette(double(mSim->dt)), ignored);
    mSim->ragdoll->setDriveProfile(mRig->driveProfiles()[mDrive->profile].name, 0.f, &ignored);
    mSim->ragdoll->setPoseTarget(d.target, &ignored);
    mSim->staleSteps = 2;
}

void PreviewSession::applyDriveEvent(const Event& e)
{
    Sim& sim = *mSim;
    DriveRun& d = sim.drive;
    runtime::Ragdoll& body = *sim.ragdoll;
    const float blend = std::clamp(e.value, 0.f, 60.f);
    if (e.kind == Event::Kind::DriveProfile) {
        if (e.index >= mRig->driveProfiles().size())
            return;
        d.profile = e.index;
        if (d.phase == DrivePhase::GettingUp)
            return; // the play resumes with it
        body.setDriveProfile(mRig->driveProfiles()[e.index].name, blend);
        d.phase = DrivePhase::Playing;
        d.command = d.profile;
    } else if (e.kind == Event::Kind::DriveKill) {
        if (d.phase == DrivePhase::GettingUp) {
            d.clock = d.playClock; // the play goes on where it was
            d.getUp.reset();
        }
        body.goLimp(blend);
        d.resumeFrom.clear();
        d.resumeStart.clear();
        d.phase = DrivePhase::Limp;
        d.profile = -1;
        d.command = -1;
    } else if (e.kind == Event::Kind::DriveGetUp) {
        // From the body's palette, on the ground at 0 as the clips are authored.
        std::vector<Mat4> resting(mRig->bones().size());
        if (!body.boneMatrices(resting))
            return;
        const Mat4 lower = Mat4::fromTransform(mDrive->raise.inverse());
        for (Mat4& m : resting)
            m = lower * m;
        std::optional<GetUpChoice> choice =
            chooseGetUp(mRig->description(), *mDrive->mesh, mDrive->getUpClips, resting);
        if (!choice)
            return;
        if (d.phase != DrivePhase::GettingUp)
            d.playClock = d.clock;
        d.getUp = std::move(choice);
        d.resumeFrom.clear();
        d.resumeStart.clear();
        d.resting = std::move(resting);
        d.getUpBlend = blend;
        d.clock = 0.;
        d.phase = DrivePhase::GettingUp;
        d.profile = e.index == Event::kPlayProfile || e.index >= mRig->driveProfiles().size() ? std::int64_t(mDrive->profile)
                                                                                              : std::int64_t(e.index);
        // The body follows the blended palette as a powered ragdoll, not kinematically: every part pinned and
        // turned toward it, stiffly (kGetUpGains), so it rises with the clip while its sticks, limits and the
        // floor still hold (a kinematic body would take the mid-blend palette's shortened limbs and pass
        // through the floor).
        const std::vector<rig::DriveGains> follow(mRig->driveParts().size(), kGetUpGains);

        body.setDriveGains(follow, 0.f);
        d.command = -2;
        // The targets start on the body (the blend's weight 0), not where the play's were.
        body.clearPoseTarget();
        d.target = getUpPalette(*mRig, *mDrive->mesh, *d.getUp, d.resting, 0.f, d.getUpBlend);
        const Mat4 raise = Mat4::fromTransform(mDrive->raise);
        for (Mat4& m : d.target)
            m = raise * m;
        body.setPoseTarget(d.target);
    } else {
        return;
    }
    d.commandAt = sim.time;
    d.commandBlend = blend;
}

void PreviewSession::driveBeforeStep()
{
    if (!isDriven())
        return;
    Sim& sim = *mSim;
    DriveRun& d = sim.drive;
    const double dt = double(sim.dt);
    if (d.phase == DrivePhase::GettingUp && d.getUp) {
        const double length = double(mDrive->mesh->animations[d.getUp->clip].duration);
        if (d.clock + dt <= length + 1e-6) {
            d.target = getUpPalette(*mRig, *mDrive->mesh, *d.getUp, d.resting, float(d.clock + dt), d.getUpBlend);
            const Mat4 raise = Mat4::fromTransform(mDrive->raise);
            for (Mat4& m : d.target)
                m = raise * m;
            sim.ragdoll->setPoseTarget(d.target);
            return;
        }
        // The get-up is over: the play resumes where it ended, turned to its heading, on its profile.
        const std::vector<Mat4> end = getUpPalette(*mRig, *mDrive->mesh, *d.getUp, d.resting, float(length), d.getUpBlend);
        ClipPlayback raw = mDrive->play;
        raw.setPlacement({});
        const std::vector<Mat4> first = raw.palette(0.0);
        const std::size_t root = raw.rootBone();
        d.play.setPlacement(mDrive->raise * runtime::headingAlignment(first[root], end[root]));
        const Mat4 raise = Mat4::fromTransform(mDrive->raise);
        d.resumeFrom = end;
        for (Mat4& m : d.resumeFrom)
            m = raise * m;
        d.resumeStart = d.play.palette(0.0);
        d.resumeBlend = d.getUpBlend;
        d.getUp.reset();
        d.resting.clear();
        d.clock = 0.;
        d.phase = DrivePhase::Playing;
        if (d.profile < 0)
            d.profile = mDrive->profile;
        sim.ragdoll->setDriveProfile(mRig->driveProfiles()[std::size_t(d.profile)].name, 0.f);
        d.command = d.profile;
        d.commandAt = sim.time;
        d.commandBlend = 0.f;
    }
    d.target.resize(mRig->bones().size());
    d.play.palette(d.clock + dt, d.target);
    if (!d.resumeFrom.empty()) {
        const double w = d.resumeBlend > 0.f ? (d.clock + dt) / double(d.resumeBlend) : 1.0;
        if (w < 1.0) {
            const std::vector<Mat4> clip = d.target;
            runtime::blendPalettes(*mRig, d.resumeFrom, d.resumeStart, clip, float(w), d.target);
        } else {
            d.resumeFrom.clear();
            d.resumeStart.clear();
        }
    }
    sim.ragdoll->setPoseTarget(d.target);
}

void PreviewSession::redoDrive(const std::vector<rig::DriveGains>& gains)
{
    if (!isDriven())
        return;
    Sim& sim = *mSim;
    DriveRun& d = sim.drive;
    runtime::Ragdoll& body = *sim.ragdoll;
    body.setDriveGains(gains, 0.f);
    // A blend under way goes on for what is left of it.
    const double left = d.commandAt + double(d.commandBlend) - sim.time;
    if (left > 0.) {
        if (d.command >= 0)
            body.setDriveProfile(mRig->driveProfiles()[std::size_t(d.command)].name, float(left));
        else if (d.command == -1)
            body.goLimp(float(left));
    }
    if (!d.target.empty())
        body.setPoseTarget(d.target);
}

} // namespace marionette::editor
