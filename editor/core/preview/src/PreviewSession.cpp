// The editor's headless preview (PreviewSession.h, docs/preview.md): set-up, events, stepping, history.
#include "marionette/editor/preview/PreviewSession.h"

#include "PreviewSessionInternal.h"

#include "marionette/rig/Mrig.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <random>

namespace marionette::editor {

namespace {

/// A rotation drawn uniformly from `seed` (Shoemake), from raw mt19937 words so every platform agrees.
Quat randomRotation(std::uint32_t seed)
{
    std::mt19937 rng(seed);
    auto unit = [&] { return float(rng() >> 8) * (1.f / 16777216.f); };
    const float u1 = unit(), u2 = unit(), u3 = unit();
    const float a = std::sqrt(1.f - u1), b = std::sqrt(u1);
    const float t2 = 2.f * kPi * u2, t3 = 2.f * kPi * u3;
    return normalize(Quat{a * std::sin(t2), a * std::cos(t2), b * std::sin(t3), b * std::cos(t3)});
}

bool finite(Quat q) { return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w); }

} // namespace

PreviewSession::PreviewSession() : mHistory(std::make_unique<History>()) {}
PreviewSession::~PreviewSession() = default;

bool PreviewSession::isRunning() const { return mSim && mSim->ragdoll; }
std::uint64_t PreviewSession::stepIndex() const { return mSim ? mSim->step : 0; }
float PreviewSession::time() const { return mSim ? float(mSim->time) : 0.f; }
float PreviewSession::timeStep() const { return mSim ? mSim->dt : (mRig ? mRig->settings().timeStep : 1.f / 60.f); }
std::uint32_t PreviewSession::iterations() const { return mSim ? mSim->iterations : 0; }
bool PreviewSession::gravity() const { return mSim ? mSim->gravity : mSettings.gravity; }
const runtime::Ragdoll& PreviewSession::ragdoll() const { return *mSim->ragdoll; }
const rig::RigDescription& PreviewSession::rig() const { return mRig ? mRig->description() : mSource; }

bool PreviewSession::start(const rig::RigDescription& rig, const PreviewSettings& settings, QString& error)
{
    mSim.reset();
    mRig.reset();
    mEvents.clear();
    mNextEvent = 0;
    mHasFuture = false;
    mDrag = {};
    mAnimCurrent.clear();
    mAnimPrevious.clear();
    mAnimPalette.clear();
    mAnimStart.reset();
    mAnimScripted = false;
    mDriven.reset();
    mDrive.reset();
    mHistory->clear(1);
    if (settings.iterations != 0 && (settings.iterations < 1 || settings.iterations > 64)) {
        error = QStringLiteral("iterations must be in [1, 64] (0 = the rig's), not %1").arg(settings.iterations);
        return false;
    }
    if (settings.timeStep != 0.f && !(settings.timeStep > 0.f && settings.timeStep <= 0.1f)) {
        error = QStringLiteral("the time step must be in (0, 0.1] s (0 = the rig's), not %1").arg(double(settings.timeStep));
        return false;
    }
    if (!std::isfinite(settings.dropHeight) || (!settings.rotation.random && !finite(settings.rotation.rotation))) {
        error = QStringLiteral("the drop height and rotation must be finite");
        return false;
    }
    mSettings = settings;
    mSettings.historySteps = std::max<std::size_t>(1, settings.historySteps);
    mSource = rig;
    rig::RigDescription shipped = rig;
    if (settings.iterations)
        shipped.settings.iterations = settings.iterations;
    if (settings.timeStep > 0.f)
        shipped.settings.timeStep = settings.timeStep;
    std::string why;
    const std::vector<std::byte> bytes = rig::writeMrig(shipped, &why);
    if (bytes.empty()) {
        error = QStringLiteral("the rig cannot be previewed: %1").arg(QString::fromStdString(why));
        return false;
    }
    mRig = runtime::Rig::loadFromMemory(bytes, &why);
    if (!mRig) {
        error = QStringLiteral("the runtime cannot load the rig: %1").arg(QString::fromStdString(why));
        return false;
    }

    // Bind pose rotated about its bounding-box centre, centred over the drop point, lowest sphere at the
    // drop height above the scene's top.
    const auto bind = mRig->bindPositions();
    Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
    for (const Vec3& p : bind) {
        lo = vmin(lo, p);
        hi = vmax(hi, p);
    }
    const Vec3 centre = bind.empty() ? Vec3{} : (lo + hi) * 0.5f;
    const Quat R = settings.rotation.random ? randomRotation(settings.rotation.seed) : normalize(settings.rotation.rotation);
    const float lowest = bindBottom(*mRig, R, centre);
    mPlacement = settings.placement ? *settings.placement
                                    : Transform{R, Vec3{0.f, sceneTopHeight(settings.scene) + settings.dropHeight - lowest, 0.f} -
                                                       R.rotate(centre)};
    mGeometry = testSceneGeometry(settings.scene);
    restart();
    return true;
}

bool PreviewSession::startScenario(const rig::RigDescription& rig, const project::Scenario& scenario, QString& error,
                                   const import::ImportedScene* mesh, const std::optional<Transform>& placement)
{
    PreviewSettings s;
    s.placement = placement;
    s.scene = scenario.scene;
    s.dropHeight = scenario.dropHeight;
    s.rotation = scenario.initialRotation;
    s.historySteps = mSettings.historySteps;
    // Resolve the element ids before starting so a bad scenario leaves nothing half-built.
    std::vector<Event> events;
    auto findParticle = [&](rig::ElementId id) {
        for (std::size_t i = 0; i < rig.particles.size(); ++i)
            if (rig.particles[i].id == id)
                return std::int64_t(i);
        return std::int64_t(-1);
    };
    for (std::size_t k = 0; k < scenario.hits.size(); ++k) {
        const project::Hit& h = scenario.hits[k];
        Event e;
        e.frame = h.frame;
        e.scripted = true;
        e.vec = h.impulse;
        std::int64_t index = -1;
        if (h.target.kind == project::ElementKind::Stick) {
            for (std::size_t i = 0; i < rig.sticks.size(); ++i)
                if (rig.sticks[i].id == h.target.id)
                    index = std::int64_t(i);
            e.kind = Event::Kind::HitStick;
            e.value = h.along;
        } else if (h.target.kind == project::ElementKind::Particle) {
            index = findParticle(h.target.id);
            e.kind = Event::Kind::HitParticle;
        }
        if (index < 0) {
            error = QStringLiteral("scenario '%1': hit %2 names %3 %4, which the rig does not have")
                        .arg(scenario.name).arg(k).arg(QLatin1String(project::toString(h.target.kind))).arg(h.target.id);
            return false;
        }
        e.index = std::uint32_t(index);
        events.push_back(e);
    }
    for (std::size_t k = 0; k < scenario.drags.size(); ++k) {
        const project::Drag& d = scenario.drags[k];
        const std::int64_t index = findParticle(d.particle);
        if (index < 0 || d.endFrame < d.startFrame) {
            error = QStringLiteral("scenario '%1': drag %2 names particle %3, which the rig does not have")
                        .arg(scenario.name).arg(k).arg(d.particle);
            return false;
        }
        Event set;
        set.kind = Event::Kind::DragSet;
        set.frame = d.startFrame;
        set.index = std::uint32_t(index);
        set.vec = d.target;
        set.value = d.stiffness;
        set.scripted = true;
        events.push_back(set);
        Event release = set;
        release.kind = Event::Kind::DragRelease;
        release.frame = std::uint64_t(d.endFrame) + 1;
        events.push_back(release);
    }
    for (const project::Explosion& x : scenario.explosions) {
        Event e;
        e.kind = Event::Kind::Explosion;
        e.frame = x.frame;
        e.vec = x.centre;
        e.value = x.strength;
        e.radius = x.radius;
        e.scripted = true;
        events.push_back(e);
    }
    for (const project::SettingChange& c : scenario.settingChanges) {
        Event e;
        e.frame = c.frame;
        e.scripted = true;
        if (c.iterations) {
            e.kind = Event::Kind::Iterations;
            e.index = *c.iterations;
            events.push_back(e);
        }
        if (c.timeStep) {
            e.kind = Event::Kind::TimeStep;
            e.value = *c.timeStep;
            events.push_back(e);
        }
        if (c.gravity) {
            e.kind = Event::Kind::Gravity;
            e.flag = *c.gravity;
            events.push_back(e);
        }
    }
    if (scenario.driven) {
        if (scenario.animationStart) {
            error = QStringLiteral("scenario '%1' is driven and starts from an animation clip: it can only be one")
                        .arg(scenario.name);
            return false;
        }
        if (!mesh) {
            error = QStringLiteral("scenario '%1' plays the clip '%2' through the drives: it needs the project's source mesh")
                        .arg(scenario.name, scenario.driven->clip);
            return false;
        }
    } else if (!scenario.driveChanges.empty()) {
        error = QStringLiteral("scenario '%1' has drive changes but plays no clip through the drives").arg(scenario.name);
        return false;
    }
    for (std::size_t k = 0; k < scenario.driveChanges.size(); ++k) {
        const project::DriveChange& c = scenario.driveChanges[k];
        Event e;
        e.frame = c.frame;
        e.scripted = true;
        e.value = c.blend;
        e.kind = c.kind == project::DriveChange::Kind::Profile ? Event::Kind::DriveProfile
                 : c.kind == project::DriveChange::Kind::Kill  ? Event::Kind::DriveKill
                                                               : Event::Kind::DriveGetUp;
        e.index = Event::kPlayProfile;
        if (c.kind != project::DriveChange::Kind::Kill && !(c.kind == project::DriveChange::Kind::GetUp && c.profile.isEmpty())) {
            // Description order is the compiled rig's (runtime::Rig::driveProfiles()).
            const std::string name = c.profile.toStdString();
            std::size_t p = 0;
            while (p < rig.driveProfiles.size() && rig.driveProfiles[p].name != name)
                ++p;
            if (p == rig.driveProfiles.size()) {
                error = QStringLiteral("scenario '%1': drive change %2 names the drive profile '%3', which the rig does not have")
                            .arg(scenario.name).arg(k).arg(c.profile);
                return false;
            }
            e.index = std::uint32_t(p);
        }
        if (!(c.blend >= 0.f && c.blend <= 60.f)) {
            error = QStringLiteral("scenario '%1': drive change %2 blends over %3 s, outside [0, 60]")
                        .arg(scenario.name).arg(k).arg(double(c.blend));
            return false;
        }
        events.push_back(e);
    }
    std::size_t clip = 0;
    if (scenario.animationStart) {
        const QString& name = scenario.animationStart->clip;
        if (!mesh) {
            error = QStringLiteral("scenario '%1' starts from the animation clip '%2': it needs the project's source mesh")
                        .arg(scenario.name, name);
            return false;
        }
        const std::string wanted = name.toStdString();
        while (clip < mesh->animations.size() && mesh->animations[clip].name != wanted)
            ++clip;
        if (clip == mesh->animations.size()) {
            error = QStringLiteral("scenario '%1' starts from the animation clip '%2', which the mesh does not have")
                        .arg(scenario.name, name);
            return false;
        }
    }
    // Per frame: releases before sets (a segment that ends where the next begins leaves the pin set), then
    // the rest in the scenario's order (applyEvents() applies setting changes, pins, hits, explosions).
    auto rank = [](const Event& e) {
        return e.kind == Event::Kind::DragRelease ? 0 : (e.kind == Event::Kind::DragSet ? 1 : 2);
    };
    std::stable_sort(events.begin(), events.end(), [&](const Event& a, const Event& b) {
        return a.frame != b.frame ? a.frame < b.frame : rank(a) < rank(b);
    });
    if (scenario.driven) {
        QString why;
        if (!startDriven(rig, s, *mesh, *scenario.driven, why)) {
            error = QStringLiteral("scenario '%1': %2").arg(scenario.name, why);
            return false;
        }
    } else if (!start(rig, s, error)) {
        return false;
    }
    if (scenario.animationStart) {
        QString why;
        if (!startFromAnimation(*mesh, clip, scenario.animationStart->time, why)) {
            error = QStringLiteral("scenario '%1': %2").arg(scenario.name, why);
            mSim.reset();
            mRig.reset();
            return false;
        }
        mAnimScripted = true;
    }
    mEvents = std::move(events);
    mNextEvent = 0;
    return true;
}

void PreviewSession::restart()
{
    QString ignored;
    mSim = std::make_unique<Sim>();
    mSim->rig = mRig;
    mSim->gravity = mSettings.gravity;
    const bool animated = !mAnimCurrent.empty();
    const Transform placement =
        animated ? Transform{Quat{}, {0.f, sceneTopHeight(mSettings.scene), 0.f}} : mPlacement;
    mSim->create(placement, mSim->rig->settings().timeStep, mSettings.scene);
    if (animated) {
        mSim->ragdoll->setPose(mAnimCurrent, mAnimPrevious);
        mSim->staleSteps = 2;
    }
    if (isDriven())
        placeDriven();
    mNextEvent = 0;
    mHasFuture = false;
    mHistory->clear(mSettings.historySteps);
    updateStats(0.);
    record();
}

void PreviewSession::reset()
{
    if (!mRig)
        return;
    mEvents.erase(std::remove_if(mEvents.begin(), mEvents.end(), [](const Event& e) { return !e.scripted; }),
                  mEvents.end());
    mDrag = {};
    if (!mAnimScripted && !isDriven()) {
        mAnimCurrent.clear();
        mAnimPrevious.clear();
        mAnimPalette.clear();
        mAnimStart.reset();
    }
    restart();
}

// ---- events ---------------------------------------------------------------------------------------------

void PreviewSession::diverge()
{
    if (!mHasFuture || !mSim)
        return;
    mHasFuture = false;
    const std::uint64_t now = mSim->step;
    // Live events from now on belonged to the discarded future; scheduled (scenario) events stay.
    std::vector<Event> kept(mEvents.begin(), mEvents.begin() + std::ptrdiff_t(mNextEvent));
    for (std::size_t i = mNextEvent; i < mEvents.size(); ++i)
        if (mEvents[i].scripted)
            kept.push_back(mEvents[i]);
    mEvents = std::move(kept);
    mHistory->truncateAfter(now);
    // Live drags held at this step end here.
    for (const auto& [particle, pin] : mSim->pins)
        if (!pin.scripted) {
            Event e;
            e.kind = Event::Kind::DragRelease;
            e.index = particle;
            e.recorded = pin.recorded;
            e.frame = now;
            mEvents.insert(mEvents.begin() + std::ptrdiff_t(mNextEvent), e);
        }
}

void PreviewSession::addEvent(Event e)
{
    if (!mSim)
        return;
    diverge();
    e.frame = mSim->step;
    e.recorded = mRecording;
    e.scripted = false;
    // After every event due at this frame (scheduled ones included), so it is applied at the next step.
    const auto at = std::upper_bound(mEvents.begin() + std::ptrdiff_t(mNextEvent), mEvents.end(), e.frame,
                                     [](std::uint64_t f, const Event& x) { return f < x.frame; });
    mEvents.insert(at, e);
}

void PreviewSession::applyEvents()
{
    Sim& sim = *mSim;
    std::size_t end = mNextEvent;
    while (end < mEvents.size() && mEvents[end].frame <= sim.step)
        ++end;
    if (end == mNextEvent)
        return;
    const auto first = mEvents.begin() + std::ptrdiff_t(mNextEvent), last = mEvents.begin() + std::ptrdiff_t(end);
    // 1. Setting changes: one rebuild at most, the state carried over.
    std::uint32_t iterations = sim.iterations;
    float dt = sim.dt;
    for (auto it = first; it != last; ++it) {
        if (it->kind == Event::Kind::Iterations)
            iterations = it->index;
        else if (it->kind == Event::Kind::TimeStep)
            dt = it->value;
        else if (it->kind == Event::Kind::Gravity)
            sim.setGravity(it->flag);
    }
    if (iterations != sim.iterations || dt != sim.dt) {
        const std::vector<rig::DriveGains> gains(sim.ragdoll->driveGains().begin(), sim.ragdoll->driveGains().end());
        sim.rebuild(iterations, dt, mSettings.scene);
        redoDrive(gains);
    }
    // 1b. Drive changes (profile, kill, get-up), in the order given.
    for (auto it = first; it != last; ++it)
        if (it->kind == Event::Kind::DriveProfile || it->kind == Event::Kind::DriveKill ||
            it->kind == Event::Kind::DriveGetUp)
            applyDriveEvent(*it);
    // 2. Drag pins: the last word per particle at this frame.
    std::map<std::uint32_t, const Event*> drags;
    for (auto it = first; it != last; ++it)
        if (it->kind == Event::Kind::DragSet || it->kind == Event::Kind::DragRelease)
            drags[it->index] = &*it;
    for (const auto& [particle, e] : drags) {
        if (e->kind == Event::Kind::DragSet)
            sim.pin(particle, e->vec, e->value, e->scripted, e->recorded);
        else
            sim.unpin(particle);
    }
    // 3. Hits, 4. explosions, each in the order given.
    for (auto it = first; it != last; ++it) {
        if (it->kind == Event::Kind::HitParticle)
            sim.ragdoll->applyImpulse(it->index, it->vec);
        else if (it->kind == Event::Kind::HitStick)
            sim.ragdoll->applyImpulseOnStick(it->index, std::clamp(it->value, 0.f, 1.f), it->vec);
    }
    for (auto it = first; it != last; ++it)
        if (it->kind == Event::Kind::Explosion)
            sim.ragdoll->applyExplosion(it->vec, it->value, it->radius);
    mNextEvent = end;
}

void PreviewSession::step()
{
    if (!isRunning())
        return;
    diverge();
    applyEvents();
    driveBeforeStep();
    const auto t0 = std::chrono::steady_clock::now();
    mSim->world->step();
    const double micros = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    mSim->advanced();
    updateStats(micros);
    record();
}

// ---- history --------------------------------------------------------------------------------------------

void PreviewSession::record()
{
    mHistory->push(mSim->step, mSim->time, mSim->ragdoll->positions(), mSim->ragdoll->previousPositions(),
                   skinningPalette(1.f), mStats);
}

std::uint64_t PreviewSession::historyBegin() const { return mHistory->begin(); }
std::uint64_t PreviewSession::historyEnd() const { return mHistory->end(); }

std::span<const Vec3> PreviewSession::historyPositions(std::uint64_t step) const
{
    const History::Frame* f = mHistory->find(step);
    return f ? std::span<const Vec3>(f->positions) : std::span<const Vec3>();
}

std::span<const Mat4> PreviewSession::historyPalette(std::uint64_t step) const
{
    const History::Frame* f = mHistory->find(step);
    return f ? std::span<const Mat4>(f->palette) : std::span<const Mat4>();
}

double PreviewSession::historyTime(std::uint64_t step) const
{
    const History::Frame* f = mHistory->find(step);
    return f ? f->time : -1.0;
}

bool PreviewSession::seek(std::uint64_t step)
{
    if (!isRunning() || step < mHistory->begin() || step >= mHistory->end())
        return false;
    if (step == mSim->step && !mDrag.active)
        return true;
    // Re-simulate from the start: the runtime keeps solver caches (angular friction, sleep timers, last good
    // triangle frames) that positions alone do not restore. Deterministic, so bit for bit the same state.
    std::unique_ptr<History> keep = std::move(mHistory);
    mHistory = std::make_unique<History>();
    const PreviewStats stats = mStats;
    restart();
    while (mSim->step < step) {
        applyEvents();
        driveBeforeStep();
        mSim->world->step();
        mSim->advanced();
        measureRun();
    }
    mHistory = std::move(keep);
    const History::Frame* f = mHistory->find(step);
    mStats = f ? f->stats : stats;
    mDrag.active = false;
    mHasFuture = true; // the next step or interaction discards what came after `step`
    return true;
}

// ---- reading --------------------------------------------------------------------------------------------

std::span<const Vec3> PreviewSession::positions() const
{
    return isRunning() ? mSim->ragdoll->positions() : std::span<const Vec3>();
}

std::vector<Vec3> PreviewSession::interpolatedPositions(float alpha) const
{
    std::vector<Vec3> out;
    if (!isRunning())
        return out;
    const runtime::Ragdoll& r = *mSim->ragdoll;
    out.resize(r.particleCount());
    for (std::uint32_t i = 0; i < r.particleCount(); ++i)
        out[i] = r.interpolatedPosition(i, alpha);
    return out;
}

std::vector<Mat4> PreviewSession::skinningPalette(float alpha) const
{
    std::vector<Mat4> out;
    if (!isRunning())
        return out;
    out.resize(mRig->bones().size());
    if (mSim->step == 0 && !mAnimPalette.empty() && mAnimPalette.size() == out.size())
        return mAnimPalette; // the animation pose itself until the first step computes the bones
    // Right after a rebuild (or an animation start) the previous bones are the spawn's: do not blend with them.
    mSim->ragdoll->skinningMatrices(out, mSim->staleSteps > 0 ? 1.f : alpha);
    return out;
}

void PreviewSession::setRecording(bool on) { mRecording = on; }

} // namespace marionette::editor
