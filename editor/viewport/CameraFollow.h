// Marionette viewport — the camera following a moving body (the preview's "Follow Body", docs/viewport.md):
// the orbit target glides after a goal point with a critically damped spring, and the goal moves only when
// the body's centre leaves a small dead zone around it, so a body at rest that jitters by millimetres does not
// shake the view and a falling one is tracked without overshoot. Only the target moves: the orbit angles and
// the distance stay the user's. Plain C++ (no GL, no Qt).
#pragma once

#include "marionette/Math.h"

namespace marionette::viewport {

class CameraFollow {
public:
    /// The goal moves to the body's centre once that is more than this far from it, metres.
    static constexpr float kDeadZone = 0.02f;
    /// Stiffness ω of the critically damped spring, 1/s: a step of the goal is left at (1 + ωt)·e^(−ωt) of
    /// its size after t seconds (74 % after 50 ms, 9 % after 200 ms, never overshooting); a body moving
    /// steadily at v is trailed by 2v/ω.
    static constexpr float kStiffness = 20.f;

    /// Starts following from the camera's current `target`, at rest, with the goal at `centre` (nothing
    /// moves until advance() is called).
    void reset(Vec3 target, Vec3 centre);
    /// Jumps to the body: the target and the goal become `centre`, at rest.
    void snap(Vec3 centre);
    /// The body's centre is now `centre`; advances the spring by `seconds` (exactly, whatever the frame
    /// rate: two advances of t/2 equal one of t) and returns the new target. Non-finite input or a
    /// negative time leaves everything as it was.
    Vec3 advance(Vec3 centre, float seconds);

    Vec3 target() const { return mTarget; }
    Vec3 goal() const { return mGoal; }
    Vec3 velocity() const { return mVelocity; }
    /// The target is on the goal (within 0.1 mm) and at rest (below 1 mm/s): no frame needs to move it.
    bool isSettled() const;

private:
    Vec3 mTarget, mGoal, mVelocity;
};

} // namespace marionette::viewport
