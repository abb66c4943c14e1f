// PreviewSession: what the artist does to the simulation, each an event applied at the next step().
#include "PreviewSessionInternal.h"

#include <cmath>

namespace marionette::editor {

void PreviewSession::setIterations(std::uint32_t iterations)
{
    if (iterations < 1 || iterations > 64)
        return;
    Event e;
    e.kind = Event::Kind::Iterations;
    e.index = iterations;
    addEvent(e);
}

void PreviewSession::setTimeStep(float seconds)
{
    if (!(seconds > 0.f && seconds <= 0.1f))
        return;
    Event e;
    e.kind = Event::Kind::TimeStep;
    e.value = seconds;
    addEvent(e);
}

void PreviewSession::setGravity(bool on)
{
    Event e;
    e.kind = Event::Kind::Gravity;
    e.flag = on;
    addEvent(e);
}

void PreviewSession::hitParticle(std::uint32_t particle, Vec3 impulse)
{
    if (!isRunning() || particle >= mSim->ragdoll->particleCount() || !isFinite(impulse))
        return;
    Event e;
    e.kind = Event::Kind::HitParticle;
    e.index = particle;
    e.vec = impulse;
    addEvent(e);
}

void PreviewSession::hitStick(std::uint32_t stick, float t, Vec3 impulse)
{
    if (!isRunning() || stick >= mRig->description().sticks.size() || !(t >= 0.f && t <= 1.f) || !isFinite(impulse))
        return;
    Event e;
    e.kind = Event::Kind::HitStick;
    e.index = stick;
    e.value = t;
    e.vec = impulse;
    addEvent(e);
}

void PreviewSession::explode(Vec3 centre, float strength, float radius)
{
    if (!isRunning() || !isFinite(centre) || !std::isfinite(strength) || !(radius > 0.f) || !std::isfinite(radius))
        return;
    Event e;
    e.kind = Event::Kind::Explosion;
    e.vec = centre;
    e.value = strength;
    e.radius = radius;
    addEvent(e);
}

void PreviewSession::beginDrag(std::uint32_t particle, Vec3 target)
{
    if (!isRunning() || particle >= mSim->ragdoll->particleCount() || !isFinite(target))
        return;
    if (mDrag.active && mDrag.particle != particle)
        endDrag();
    mDrag = {true, particle, target};
    Event e;
    e.kind = Event::Kind::DragSet;
    e.index = particle;
    e.vec = target;
    e.value = 1.f;
    addEvent(e);
}

void PreviewSession::updateDrag(Vec3 target)
{
    if (!mDrag.active || !isFinite(target) || length(target - mDrag.target) <= kDragStep)
        return;
    beginDrag(mDrag.particle, target);
}

void PreviewSession::endDrag()
{
    if (!mDrag.active)
        return;
    mDrag.active = false;
    Event e;
    e.kind = Event::Kind::DragRelease;
    e.index = mDrag.particle;
    addEvent(e);
}

} // namespace marionette::editor
