#include "marionette/rig/RigDescription.h"

#include <algorithm>
#include <cmath>

namespace marionette::rig {

const char* toString(StickKind kind)
{
    switch (kind) {
    case StickKind::Rigid: return "rigid";
    case StickKind::Range: return "range";
    case StickKind::MinOnly: return "min-only";
    case StickKind::MaxOnly: return "max-only";
    }
    return "unknown";
}

const DriveGains& DriveProfile::gainsOf(DrivePartKind kind, std::int32_t index) const
{
    for (const DrivePart& p : parts)
        if (p.kind == kind && p.index == index)
            return p.gains;
    return defaults;
}

const char* toString(SolverMode mode)
{
    switch (mode) {
    case SolverMode::GaussSeidel: return "gauss-seidel";
    case SolverMode::Jacobi: return "jacobi";
    case SolverMode::Xpbd: return "xpbd";
    case SolverMode::Direct: return "direct";
    }
    return "unknown";
}

namespace {
// The tops of validate()'s ranges for the rates (settings damping, speeds, angular damping).
constexpr float kMaxDamping = 100.f;
constexpr float kMaxSpeed = 100.f;
constexpr float kMaxAngularDamping = 1000.f;
} // namespace

void migrateLegacySettings(const LegacySettings& legacy, Settings& out)
{
    const float dt = legacy.timeStep > 0.f ? legacy.timeStep : 1.f / 60.f;
    out.substeps = 1;
    out.iterations = legacy.iterations;
    // Capped at the tops of validate()'s ranges: a valid legacy rig (drag up to 0.99, 10 m per step, any step
    // down to a few milliseconds) can ask for more than the rates allow, and must still load. NaN stays NaN
    // (validate() refuses it).
    out.damping = legacy.drag > 0.f && legacy.drag < 1.f ? std::min(-std::log1p(-legacy.drag) / dt, kMaxDamping)
                                                         : (legacy.drag <= 0.f ? 0.f : kMaxDamping);
    out.staticFrictionSpeed = std::min(legacy.staticFriction / dt, kMaxSpeed);
}

void migrateLegacyAngularFriction(float dynamicFriction, float staticFrictionAngle, float timeStep, AngularConstraint& out)
{
    const float dt = timeStep > 0.f ? timeStep : 1.f / 60.f;
    out.damping = dynamicFriction > 0.f && dynamicFriction < 1.f
                      ? std::min(-std::log1p(-dynamicFriction) / dt, kMaxAngularDamping)
                      : (dynamicFriction <= 0.f ? 0.f : kMaxAngularDamping);
    out.staticFrictionSpeed = std::min(staticFrictionAngle / dt, kMaxSpeed); // capped as in migrateLegacySettings
}

float migrateLegacyPinStiffness(float stiffness, std::uint32_t iterations, float timeStep)
{
    if (!(stiffness < 1.f))
        return 1.f;
    const float dt = timeStep > 0.f ? timeStep : 1.f / 60.f;
    // Per iteration s, iterations n per step of dt: over 1/60 s the remaining distance keeps (1 − s)^(n/(60 dt)).
    const float perReference = 1.f - std::pow(1.f - stiffness, float(iterations) / (60.f * dt));
    return std::clamp(perReference, 1e-6f, 1.f);
}

} // namespace marionette::rig
