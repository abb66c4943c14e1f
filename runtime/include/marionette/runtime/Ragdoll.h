// Marionette runtime — one simulated instance of a Rig inside a World.
//
// A Ragdoll owns one contiguous block of state (positions, previous positions, inverse masses, solver
// scratch, bone transforms) allocated when it is spawned; stepping it never allocates. Ragdolls are
// created and stepped by World; the methods here read results and apply motion control between steps.
// Every method that takes an index or a vector checks it and returns false instead of misbehaving.
#pragma once

#include "marionette/runtime/Rig.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace marionette::runtime {

class World;
struct RagdollState;

/// Per-step measurements of one ragdoll (for feedback, tests and the CLI).
struct RagdollStats {
    float maxStickError = 0.f;       ///< largest |L − clamp(L)| over sticks now (measured by stats()), metres
    float maxAngularViolation = 0.f; ///< largest excess over an angular limit after the step, radians
    std::uint32_t contacts = 0;      ///< static-geometry contact candidates solved this step
    std::uint32_t droppedContacts = 0; ///< static candidates that did not fit the preallocated buffers
    /// The direct projection's work this step (SolverMode::Direct; 0 otherwise): Newton steps taken (at most
    /// substeps × iterations, fewer when a substep converges early) and factorisations of the rigid sticks'
    /// system (one per Newton step, more when contacts that would pull are released and it is solved again).
    std::uint32_t newtonSteps = 0;
    std::uint32_t factorizations = 0;
};

class Ragdoll {
public:
    ~Ragdoll();
    Ragdoll(const Ragdoll&) = delete;
    Ragdoll& operator=(const Ragdoll&) = delete;

    const Rig& rig() const { return *mRig; }
    std::uint32_t particleCount() const;

    /// Current and previous positions (Verlet state), world space. Valid until the next step.
    std::span<const Vec3> positions() const;
    std::span<const Vec3> previousPositions() const;
    /// Current inverse masses (0 while kinematic or pinned kinematically).
    std::span<const float> inverseMasses() const;
    /// Position of particle i interpolated between the last two steps: alpha in [0, 1] (World::interpolation()).
    Vec3 interpolatedPosition(std::uint32_t i, float alpha) const;
    /// Velocity estimate (x − x*)/h of particle i over the last substep h.
    Vec3 velocity(std::uint32_t i) const;
    /// Mass-weighted centre of the movable particles.
    Vec3 centreOfMass() const;
    /// Linear momentum Σ m (x − x*)/h of the movable particles (over the last substep).
    Vec3 linearMomentum() const;

    // ---- motion control (between steps) -------------------------------------------------------------
    /// Instant impulse J (N·s) at particle i: its velocity changes by J/m. False on bad index, a kinematic
    /// particle or a non-finite J. Wakes the ragdoll.
    bool applyImpulse(std::uint32_t particle, Vec3 impulse);
    /// Impulse at the point lerp(a, b, t) of description stick `stick`, split between its ends by the
    /// barycentric weights (1 − t, t) so the point's velocity changes by J / m_eff. t in [0, 1].
    bool applyImpulseOnStick(std::uint32_t stick, float t, Vec3 impulse);
    /// Adds Δv to every movable particle (e.g. a vehicle's velocity).
    bool addVelocity(Vec3 deltaVelocity);
    /// Explosion at `centre`: each particle's velocity changes by strength / max(d², minDistance²) along the
    /// direction away from the centre, for particles within `radius`. strength in m³/s.
    bool applyExplosion(Vec3 centre, float strength, float radius, float minDistance = 0.25f);
    /// Inherit velocity from animation: places the particles at `current` with previous positions
    /// `previous` (two consecutive animation poses Δt apart). Both spans hold particleCount() finite points.
    bool setPose(std::span<const Vec3> current, std::span<const Vec3> previous);
    /// Teleports the whole ragdoll back to its rig's bind pose transformed by `placement`, at rest.
    void resetToBindPose(const Transform& placement);

    /// Holds particle i at `target`: kinematic (inverse mass 0, placed exactly) or a soft pull of
    /// `stiffness` in (0, 1] of the way to the target per 1/60 s. At most kMaxDynamicPins at once; false when
    /// full or invalid.
    bool setPin(std::uint32_t particle, Vec3 target, float stiffness = 1.f, bool kinematic = true);
    /// Releases a pin set with setPin(); the particle keeps the velocity it had. False if none.
    bool releasePin(std::uint32_t particle);
    static constexpr std::uint32_t kMaxDynamicPins = 16;

    // ---- drives (powered ragdolls; docs/physics.md "Drives") ------------------------------------------
    // A pose target says where every part should be (the game's animation); drive gains say how strongly
    // each part (Rig::driveParts()) follows it: a motor on its orientation relative to its parent part, a
    // pin on its world position, or kinematic. Every call checks its input first and, on failure, returns
    // false, sets *error (when given) to one line, and changes nothing.
    /// Pose target from a bone palette: world matrices of the rig's bones (Rig::bones() order, the space
    /// boneMatrices() returns). Each particle's target is palette[bone] applied to its bind position in that
    /// bone's space (Rig::driveTargets()). The step after the call moves the targets from the last ones to
    /// these (their velocity is what the damping follows). Wakes the ragdoll when a drive is on.
    bool setPoseTarget(std::span<const Mat4> boneWorld, std::string* error = nullptr);
    /// Pose target as a world position per particle (particleCount() finite points).
    bool setParticleTargets(std::span<const Vec3> targets, std::string* error = nullptr);
    /// Forgets the pose target: every drive stops acting (the gains are kept) and kinematic parts simulate.
    void clearPoseTarget();
    bool hasPoseTarget() const;
    /// The current target of every particle (empty without a pose target).
    std::span<const Vec3> particleTargets() const;
    /// Blends the gains from those in effect to profile `name`'s (Rig::driveProfiles()) over `seconds` (0:
    /// at once). A kinematic part starts simulating when a blend away from kinematic starts, and becomes
    /// kinematic when a blend toward it ends.
    bool setDriveProfile(std::string_view name, float seconds = 0.f, std::string* error = nullptr);
    /// Blends to the given gains of every part (Rig::driveParts().size() of them, each in its range).
    bool setDriveGains(std::span<const rig::DriveGains> perPart, float seconds = 0.f, std::string* error = nullptr);
    /// Sets one part's gains at once (ending any blend of that part).
    bool setPartGains(std::uint32_t part, const rig::DriveGains& gains, std::string* error = nullptr);
    /// Blends every part to no drive at all over `seconds`: the passive ragdoll ("kill").
    bool goLimp(float seconds = 0.f, std::string* error = nullptr);
    /// The gains in effect for every part.
    std::span<const rig::DriveGains> driveGains() const;
    /// How far part `part` is from its target now: its centre (centroid or stick middle) in metres, its
    /// orientation (triangle frame or stick direction) in radians. False without a target for it.
    bool partTrackingError(std::uint32_t part, float& metres, float& radians) const;

    // ---- state ---------------------------------------------------------------------------------------
    bool asleep() const;
    void wake();
    /// True once description stick `stick` has torn (stretched past its tear ratio).
    bool stickTorn(std::uint32_t stick) const;
    /// Measurements of the last step; maxStickError is measured when this is called. Not thread-safe
    /// against a concurrent step.
    const RagdollStats& stats() const;

    // ---- measurements (of the positions now; for tools, tests and the CLI) ---------------------------
    /// Strain of every compiled stick (Rig::sticks() order): (L − limit) / limit for the length limit it
    /// breaks (the rest length of a rigid stick), so > 0 stretched past its maximum, < 0 pressed below its
    /// minimum; 0 inside its limits, for torn sticks and for limits shorter than 1 µm. out.size() must be at
    /// least Rig::sticks().size(); false otherwise.
    bool stickStrains(std::span<float> out) const;
    /// Radians by which every angular constraint (Rig::angular() order) is beyond its limits, 0 inside or
    /// while one of its triangles is degenerate: a cone by its deviation angle, swing/twist by the distance
    /// of (twist, swing about each swing axis) from the limits, a hinge by its twist only (its shared edge
    /// holds the swing). out.size() must be at least Rig::angular().size(); false otherwise.
    bool angularExcesses(std::span<float> out) const;

    // ---- skinning ------------------------------------------------------------------------------------
    /// Bone world matrices (model space of the game object the rig was authored in) interpolated by alpha.
    /// out.size() must be at least the bone count; returns false otherwise.
    bool boneMatrices(std::span<Mat4> out, float alpha = 1.f) const;
    /// Skinning palette: bone world × inverse bind, interpolated by alpha.
    bool skinningMatrices(std::span<Mat4> out, float alpha = 1.f) const;
    /// The rigid world-space transform that takes bone b from its bind pose to its current pose.
    Transform boneDelta(std::uint32_t bone, float alpha = 1.f) const;

private:
    friend class World;
    friend struct Solver;
    Ragdoll(std::shared_ptr<const Rig> rig, const Transform& placement, float timeStep, std::uint32_t contactCapacity);

    std::shared_ptr<const Rig> mRig;
    std::unique_ptr<RagdollState> mState;
};

} // namespace marionette::runtime
