#include "viewport/CameraFollow.h"

#include <cmath>

namespace marionette::viewport {

void CameraFollow::reset(Vec3 target, Vec3 centre)
{
    mTarget = target;
    mGoal = centre;
    mVelocity = {};
}

void CameraFollow::snap(Vec3 centre)
{
    reset(centre, centre);
}

Vec3 CameraFollow::advance(Vec3 centre, float seconds)
{
    if (!isFinite(centre) || !(seconds >= 0.f) || !std::isfinite(seconds))
        return mTarget;
    if (length(centre - mGoal) > kDeadZone)
        mGoal = centre;
    // Critically damped: x'' = −ω²x − 2ωx' for the offset x = target − goal, solved exactly over the step:
    // x(t) = (x0 + (v0 + ω x0) t) e^(−ωt), v(t) = (v0 − ω (v0 + ω x0) t) e^(−ωt).
    const float w = kStiffness;
    const Vec3 x0 = mTarget - mGoal;
    const Vec3 k = mVelocity + x0 * w;
    const float e = std::exp(-w * seconds);
    mTarget = mGoal + (x0 + k * seconds) * e;
    mVelocity = (mVelocity - k * (w * seconds)) * e;
    return mTarget;
}

bool CameraFollow::isSettled() const
{
    return length(mTarget - mGoal) < 1e-4f && length(mVelocity) < 1e-3f;
}

} // namespace marionette::viewport
