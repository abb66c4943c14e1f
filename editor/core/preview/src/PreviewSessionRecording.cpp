// PreviewSession: the recorded scenario and the animation hand-off.
#include "PreviewSessionInternal.h"

#include "marionette/editor/preview/AnimationPose.h"

#include <algorithm>
#include <cmath>

namespace marionette::editor {

project::Scenario PreviewSession::recordedScenario(const QString& name, const project::Expectations& expect) const
{
    project::Scenario sc;
    sc.name = name;
    sc.scene = mSettings.scene;
    sc.dropHeight = mSettings.dropHeight;
    sc.initialRotation = mSettings.rotation;
    sc.expect = expect;
    const std::uint64_t steps = stepIndex();
    sc.duration = time();
    if (mAnimStart)
        sc.animationStart = mAnimStart;
    if (isDriven())
        sc.driven = mDriven;
    const rig::RigDescription& r = mSource;
    // Only what has happened (events due before the current step ran) and was recorded or scheduled.
    auto wanted = [&](const Event& e) { return e.frame < steps && (e.recorded || e.scripted); };
    // Setting changes: one per frame, the last word per setting (as applyEvents() applies them). A scenario
    // starts with the rig's settings, so the start's overrides become a change at frame 0.
    std::map<std::uint64_t, project::SettingChange> changes;
    if (mSettings.iterations != 0)
        changes[0].iterations = mSettings.iterations;
    if (mSettings.timeStep > 0.f)
        changes[0].timeStep = mSettings.timeStep;
    if (!mSettings.gravity)
        changes[0].gravity = false;
    for (const Event& e : mEvents) {
        if (!wanted(e))
            continue;
        if (e.kind == Event::Kind::HitParticle && e.index < r.particles.size()) {
            project::Hit h;
            h.frame = std::uint32_t(e.frame);
            h.target = {project::ElementKind::Particle, r.particles[e.index].id};
            h.impulse = e.vec;
            sc.hits.push_back(h);
        } else if (e.kind == Event::Kind::HitStick && e.index < r.sticks.size()) {
            project::Hit h;
            h.frame = std::uint32_t(e.frame);
            h.target = {project::ElementKind::Stick, r.sticks[e.index].id};
            h.along = e.value;
            h.impulse = e.vec;
            sc.hits.push_back(h);
        } else if (e.kind == Event::Kind::Explosion) {
            sc.explosions.push_back({std::uint32_t(e.frame), e.vec, e.value, e.radius});
        } else if (e.kind == Event::Kind::Iterations) {
            changes[e.frame].iterations = e.index;
        } else if (e.kind == Event::Kind::TimeStep) {
            changes[e.frame].timeStep = e.value;
        } else if (e.kind == Event::Kind::Gravity) {
            changes[e.frame].gravity = e.flag;
        } else if (e.kind == Event::Kind::DriveProfile || e.kind == Event::Kind::DriveKill ||
                   e.kind == Event::Kind::DriveGetUp) {
            project::DriveChange c;
            c.frame = std::uint32_t(e.frame);
            c.kind = e.kind == Event::Kind::DriveProfile ? project::DriveChange::Kind::Profile
                     : e.kind == Event::Kind::DriveKill  ? project::DriveChange::Kind::Kill
                                                         : project::DriveChange::Kind::GetUp;
            if (e.kind != Event::Kind::DriveKill && mRig && e.index < mRig->driveProfiles().size())
                c.profile = QString::fromStdString(mRig->driveProfiles()[e.index].name);
            c.blend = e.value;
            sc.driveChanges.push_back(c);
        }
    }
    for (auto& [frame, change] : changes) {
        change.frame = std::uint32_t(frame);
        sc.settingChanges.push_back(change);
    }
    // Drags: per frame the last word per particle (as applyEvents() does); a segment runs from a set to the
    // frame before the next set or release of that particle, or to the last step taken.
    struct Open {
        bool on = false;
        std::uint64_t start = 0;
        Vec3 target;
        float stiffness = 1.f;
    };
    std::map<std::uint32_t, Open> open;
    std::vector<project::Drag> drags;
    auto close = [&](std::uint32_t particle, Open& o, std::uint64_t lastFrame) {
        if (o.on && lastFrame >= o.start && particle < r.particles.size())
            drags.push_back({r.particles[particle].id, std::uint32_t(o.start), std::uint32_t(lastFrame), o.target,
                             o.stiffness});
        o.on = false;
    };
    for (std::size_t i = 0; i < mEvents.size();) {
        const std::uint64_t frame = mEvents[i].frame;
        std::map<std::uint32_t, const Event*> last;
        for (; i < mEvents.size() && mEvents[i].frame == frame; ++i)
            if (wanted(mEvents[i]) &&
                (mEvents[i].kind == Event::Kind::DragSet || mEvents[i].kind == Event::Kind::DragRelease))
                last[mEvents[i].index] = &mEvents[i];
        for (const auto& [particle, e] : last) {
            Open& o = open[particle];
            if (frame > 0)
                close(particle, o, frame - 1);
            else
                o.on = false;
            if (e->kind == Event::Kind::DragSet)
                o = {true, frame, e->vec, e->value};
        }
    }
    if (steps > 0)
        for (auto& [particle, o] : open)
            close(particle, o, steps - 1);
    std::stable_sort(drags.begin(), drags.end(),
                     [](const project::Drag& a, const project::Drag& b) { return a.startFrame < b.startFrame; });
    sc.drags = std::move(drags);
    return sc;
}

bool PreviewSession::startFromAnimation(const import::ImportedScene& mesh, std::size_t clip, float clipTime,
                                        QString& error)
{
    if (!mRig) {
        error = QStringLiteral("the preview has not been started");
        return false;
    }
    if (clip >= mesh.animations.size() || mesh.skeleton.empty()) {
        error = QStringLiteral("the mesh has no animation clip %1 (%2 clips)").arg(clip).arg(mesh.animations.size());
        return false;
    }
    if (!std::isfinite(clipTime)) {
        error = QStringLiteral("the clip time is not a finite number");
        return false;
    }
    const rig::RigDescription& r = mRig->description();
    const std::vector<std::int32_t> bones = particleBones(r, mesh);
    const Vec3 raise{0.f, sceneTopHeight(mSettings.scene), 0.f};
    const float dt = timeStep();
    std::vector<Vec3> now = posedParticles(r, mesh, bones, sampleBoneWorld(mesh, clip, clipTime));
    std::vector<Vec3> before = posedParticles(r, mesh, bones, sampleBoneWorld(mesh, clip, clipTime - dt));
    for (std::size_t i = 0; i < now.size(); ++i) {
        now[i] += raise;
        before[i] += raise;
        if (!isFinite(now[i]) || !isFinite(before[i])) {
            error = QStringLiteral("the clip's pose is not finite at %1 s").arg(double(clipTime));
            return false;
        }
    }
    // The palette shown until the first step: the clip's, per rig bone matched by name.
    const std::vector<Mat4> clipPalette = animationPalette(mesh, clip, clipTime);
    std::vector<Mat4> palette(r.bones.size());
    bool matched = true;
    for (std::size_t b = 0; b < r.bones.size(); ++b) {
        const std::int32_t m = mesh.findBone(r.bones[b].name);
        if (m < 0 || std::size_t(m) >= clipPalette.size()) {
            matched = false;
            break;
        }
        palette[b] = clipPalette[std::size_t(m)];
    }
    mEvents.erase(std::remove_if(mEvents.begin(), mEvents.end(), [](const Event& e) { return !e.scripted; }),
                  mEvents.end());
    mDrag = {};
    mAnimStart = project::AnimationStart{QString::fromStdString(mesh.animations[clip].name), clipTime};
    mDriven.reset(); // a hand-off drops the body: no longer driven
    mDrive.reset();
    mAnimScripted = false;
    mAnimCurrent = std::move(now);
    mAnimPrevious = std::move(before);
    mAnimPalette = matched ? std::move(palette) : std::vector<Mat4>{};
    restart();
    return true;
}

std::vector<Mat4> PreviewSession::animationPalette(const import::ImportedScene& mesh, std::size_t clip, float t) const
{
    return editor::animationPalette(mesh, clip, t, sceneTopHeight(mSettings.scene));
}

} // namespace marionette::editor
