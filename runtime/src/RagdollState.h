// Internal: the per-instance state block of a Ragdoll and the solver entry points World calls.
#pragma once

#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/World.h"

#include "Projection.h"

#include <cstdint>
#include <vector>

namespace marionette::runtime {

namespace geo { class TriangleMeshBvh; }

/// What a contact's collider is on a ragdoll.
enum class ColliderKind : std::uint8_t { Particle = 0, Capsule = 1, Box = 2 };
/// What a static contact's obstacle is.
enum class ObstacleKind : std::uint8_t { Plane = 0, Sphere = 1, Capsule = 2, Box = 3, MeshTriangle = 4 };

/// A candidate contact between a ragdoll collider and a static obstacle, found once per step and
/// re-evaluated every iteration.
struct StaticContact {
    ColliderKind collider;
    ObstacleKind obstacle;
    std::uint16_t mesh;         ///< mesh id for MeshTriangle
    std::uint32_t colliderIndex;///< particle, capsule or box (box: corner in the high 3 bits)
    std::uint32_t obstacleIndex;
    float depth;                ///< projection accumulated over the step (static friction uses it)
    Vec3 normal;                ///< last contact normal
    float t;                    ///< capsule: last contact parameter
    float tFirst = 0.f;         ///< capsule against a box: closest point found in the step's first touching iteration
    bool tKnown = false;        ///< tFirst holds (the later iterations test the sphere there)
    /// Penetration the contact leaves for later substeps (metres; Solver::solveStaticContacts): what the
    /// particle or capsule had before this substep beyond what kMaxDepenetrationSpeed lets it leave at. Set
    /// when the contact first touches in a substep (heldKnown).
    float held = 0.f;
    bool heldKnown = false;
};

/// The fastest (m/s) a contact's push makes a particle or capsule leave a surface it was already inside
/// before the substep (spawned or let go there, dragged in by a pin), or two ragdolls' contact points part
/// (spawned inside each other); one already leaving faster is not pushed further. Deeper penetration comes
/// out over several substeps instead of becoming velocity at once. Contacts of
/// bodies landing, resting and sliding over edges stay below it (the sample characters' drops are the same
/// to the bit with or without it; at 3 m/s one of them is not: sliding over a ledge's edge a capsule's
/// closest point jumps a few millimetres inside).
constexpr float kMaxDepenetrationSpeed = 5.f;

/// The part of a contact's penetration `depth` it leaves for later substeps: with `motion` the distance the
/// point has moved out along the normal this substep (negative moving in) and `slack` kMaxDepenetrationSpeed
/// times the substep, a push may take it out by at most max(slack − motion, 0) this substep, so that it
/// ends the substep moving out by no more than max(slack, motion). A push that undoes the substep's approach
/// (up to slack beyond it) is never held back.
inline float heldPenetration(float depth, float motion, float slack)
{
    const float allowed = slack > motion ? slack - motion : 0.f;
    return depth > allowed ? depth - allowed : 0.f;
}

/// Up to four particles of one ragdoll carrying a contact point with affine weights.
struct ContactSide {
    Vec3* x = nullptr;
    const float* w = nullptr;
    std::uint32_t idx[4] = {0, 0, 0, 0};
    float c[4] = {0, 0, 0, 0};
    std::uint32_t count = 0;

    Vec3 point() const { return pointIn(x); }
    /// The same point over other positions of the ragdoll (its previous ones, say).
    Vec3 pointIn(const Vec3* positions) const
    {
        Vec3 p;
        for (std::uint32_t k = 0; k < count; ++k)
            p += positions[idx[k]] * c[k];
        return p;
    }
    /// Σ w c² (the side's generalised inverse mass for this point).
    float weight() const
    {
        float s = 0.f;
        for (std::uint32_t k = 0; k < count; ++k)
            s += w[idx[k]] * c[k] * c[k];
        return s;
    }
    /// Moves the side by w c λ D.
    void move(Vec3 d, float lambda) const
    {
        for (std::uint32_t k = 0; k < count; ++k)
            x[idx[k]] += d * (w[idx[k]] * c[k] * lambda);
    }
};

/// A static contact that penetrates now: the contact point on the ragdoll, the surface normal, the depth.
struct ContactRow {
    ContactSide side;
    Vec3 normal;
    float depth;
};

/// Static world geometry as the solver reads it.
struct StaticWorld {
    struct Plane { Vec3 n; float d; };
    struct Sphere { Vec3 c; float r; };
    struct Capsule { Vec3 a, b; float r; };
    struct Box { Vec3 centre; Mat3 axes; Vec3 half; Vec3 aabbMin, aabbMax; };
    std::vector<Plane> planes;
    std::vector<Sphere> spheres;
    std::vector<Capsule> capsules;
    std::vector<Box> boxes;
    std::vector<const geo::TriangleMeshBvh*> meshes;

    bool empty() const
    {
        return planes.empty() && spheres.empty() && capsules.empty() && boxes.empty() && meshes.empty();
    }
};

/// A static contact near its surface now, for the direct projection: the row, and the capsule it lies
/// along (or −1 for a particle sphere or a box).
struct GatheredContact {
    ContactRow row;
    std::int32_t capsule;
    float pushed;    ///< how far the Gauss–Seidel contact pass pushed it out along the normal this substep
};

/// Per-ragdoll numbers of the direct projection (sized at spawn from the rig's ProjectionStructure).
struct ProjectionScratch {
    // The core (rigid sticks): gradients (two per row), right-hand sides, multipliers, matrix values.
    std::vector<std::uint8_t> coreActive;
    std::vector<std::uint8_t> coreFree;        ///< per core row, this pass: active and not held by contact locks
    std::vector<Vec3> coreG, coreWG;           ///< per core row: the gradient at both ends, and W times it
    std::vector<double> coreRhs, coreLambda, coreLambdaSum;
    std::vector<double> z, invPivot;           ///< the core's right-hand side and 1/D in the factor's numbering
    std::vector<float> coreCompliance;
    SparseLdl::Work work;
    // Extra rows acting this step (at most kMaxProjectionExtra): which candidate, gradients (six per row),
    // right-hand sides, multipliers; y holds L⁻¹Pᵀ·b for each (core-sized columns, SparseLdl::forward) and
    // yScaled that times D⁻¹ (set only where y is nonzero, the row's reach); K the Schur complement.
    std::uint32_t extraCount = 0;
    std::vector<std::uint32_t> extraRow;       ///< candidate in ProjectionStructure::extra, or kNoCandidate
    std::vector<ProjectionRow> rows;           ///< the rows themselves (candidates and this step's capsule pairs)
    std::vector<Vec3> extraG;
    std::vector<double> extraRhs, extraLambda, y, yScaled, K, dense, denseRhs;
    std::vector<std::uint32_t> bIndex, bCount; ///< per extra row: the core rows it couples with (sparse b)
    std::vector<std::uint32_t> bSlot;          ///< per core row: its place in the b being gathered, or ~0
    std::vector<std::uint32_t> reach, reachCount; ///< per extra row: where y is nonzero (factor numbering)
    std::vector<std::uint64_t> rowMask;        ///< per extra row: its particles as bits, modulo 64
    std::vector<double> bValue;
    std::vector<std::uint8_t> extraUnilateral, extraOn;
    std::vector<std::uint8_t> extraFree;       ///< per extra row, this pass: 0 held by locks, 1 may act, 2 taken
                                               ///< back once by the active set
    std::vector<std::uint32_t> onList;
    std::vector<float> extraCompliance;
    std::vector<double> extraLambdaSum;        ///< per candidate: λ accumulated over the substep (compliance)
    std::vector<Vec3> force;                   ///< per particle: Σ g λ
    std::vector<Vec3> saved;                   ///< per particle: positions before the solve, for the fallback
    std::vector<std::uint8_t> lockCount;       ///< per particle: contact normals it may not move along
    std::vector<std::uint8_t> lockChanged;     ///< per particle: its locks were let go since the last solve
    std::vector<std::uint8_t> refactor;        ///< per core row (factor numbering): its row of L is redone
    std::vector<Vec3> lockNormal, lockSurface; ///< 3 per particle: orthonormalised, and the surface normal
    std::vector<float> capsuleDepth, capsuleT; ///< per capsule: deepest contact along it this step
    std::vector<Vec3> capsuleNormal;
    std::vector<GatheredContact> contacts;
};

struct PinState {
    std::uint32_t particle;
    Vec3 target;
    float stiffness;
    bool kinematic;
    float savedInverseMass; ///< restored on release
};

/// Pose targets and drive gains of one ragdoll (Drives.cpp). Sized at spawn; stepping never allocates.
struct DriveState {
    std::vector<Vec3> target, targetPrev;     ///< per particle, world: the target now and one fixed step ago
    std::vector<std::uint8_t> placed;         ///< per particle: a bone of the palette places it
    bool active = false;                      ///< a pose target is set
    bool fresh = false;                       ///< set since the last step (the step moves from targetPrev to it)
    std::vector<rig::DriveGains> from, to, now; ///< per part: the blend's ends and the gains in effect
    float blendTime = 0.f, blendDuration = 0.f;
    bool anyGains = false;                    ///< some part has a motor, a pin or is kinematic now
    std::vector<std::uint8_t> kinematic;      ///< per particle: placed on its target this step
    std::vector<float> pinOmega, pinZeta, pinMaxForce; ///< per particle, this step (the strongest part's)
    bool particlesClear = true; ///< no particle kinematic or pinned by a part (the tables above all zero)
    std::vector<Quat> rel0, rel1;             ///< per triangle part: target orientation relative to the parent
    std::vector<Vec3> dir0, dir1;             ///< per stick part: target direction in the parent's frame
    std::vector<Vec3> targetTurn;             ///< per part: the target's relative turn over the step (rotation vector)
    std::vector<std::uint8_t> motorOk;        ///< per part: its target (and its parent's) is placed
};

struct RagdollState {
    // Verlet state (structure of arrays; x and xPrev are swapped each step, not copied).
    std::vector<Vec3> bufA, bufB;
    Vec3* x = nullptr;
    Vec3* xPrev = nullptr;             ///< positions one substep ago
    std::vector<Vec3> xFrame;          ///< positions at the end of the previous fixed step (render interpolation)
    std::vector<float> reach;          ///< per particle: how far it may travel this step (swept candidate bounds)
    std::vector<float> w;            ///< current inverse masses
    // Solver scratch
    std::vector<float> lambda;       ///< XPBD multipliers per compiled stick
    std::vector<std::uint8_t> torn;  ///< per compiled stick
    std::vector<float> laneX;        ///< rigs with stick lanes: x, y and z of every particle during a lane pass
    std::vector<Vec3> jacobiDelta;
    std::vector<float> jacobiCount;
    std::vector<Mat3> frames;        ///< last good frame per triangle (degenerate fallback)
    std::vector<Quat> frameQ;        ///< the same frames as quaternions (angular constraints)
    std::vector<Quat> lastRelative;  ///< R_Aᵀ R_B at the end of the last step, per angular constraint
                                     ///< (while static friction holds the joint: where the hold began)
    std::vector<std::uint8_t> held;  ///< per angular constraint: static friction held it this step
    /// Per angular constraint and per bend joint: the share of relative spin its damping takes in a substep
    /// of length dampingStep, 1 − e^(−damping·h) (recomputed when the substep length changes).
    std::vector<float> jointTake, bendTake;
    float dampingStep = -1.f;
    std::vector<StaticContact> contacts;
    std::uint32_t contactCount = 0;
    std::vector<std::uint32_t> selfPairs; ///< capsule pairs near enough this step
    std::uint32_t selfPairCount = 0;
    std::vector<float> selfDepth;          ///< per near pair: depth pushed out this substep (friction's budget)
    std::vector<std::uint32_t> meshScratch;
    std::vector<PinState> pins;
    std::vector<Vec3> colliderLo, colliderHi; ///< bounds of Rig::colliders() this step
    // Bone transforms: rigid delta from bind, now and one step ago
    std::vector<Transform> boneNow, bonePrev;
    ProjectionScratch projection;
    DriveState drive;
    // Bookkeeping
    Transform placement;            ///< spawn placement (unbound root bones follow it)
    float dt = 1.f / 60.f;          ///< length of the last substep: velocities are (x − x*)/dt
    float frameDt = 1.f / 60.f;     ///< length of the last fixed step
    float stillTime = 0.f;
    float motion = 0.f;             ///< smoothed fastest particle speed (m/s), for sleep
    bool asleep = false;
    bool wakeRequested = false;
    Vec3 aabbMin, aabbMax;          ///< bounds of the colliders this step (incl. radii, margin)
    RagdollStats stats;
    std::uint32_t island = 0;
};

/// A joint whose part (triangle B) has a motor toward a pose target has no friction of its own: the motor's
/// damping is the joint's (static friction would hold it against the motor).
inline bool driven(const RagdollState& s, const AngularData& c)
{
    return s.drive.active && s.drive.now[c.triB].motorFrequency > 0.f;
}

/// Whether a torn stick opened one of angular constraint i's triangles: then the constraint no longer acts.
inline bool angularTorn(const Rig& rig, const RagdollState& s, std::size_t i)
{
    if (s.torn.empty())
        return false;
    const auto edges = rig.angularEdgeSticks();
    for (std::size_t q = 6 * i; q < 6 * i + 6; ++q)
        if (edges[q] != ~0u && s.torn[edges[q]])
            return true;
    return false;
}

/// Whether capsule c's stick has torn: then the capsule no longer collides.
inline bool capsuleTorn(const Rig& rig, const RagdollState& s, std::uint32_t c)
{
    return !s.torn.empty() && s.torn[rig.compiledStick(rig.capsules()[c].stick)];
}

inline ContactSide particleSide(RagdollState& s, std::uint32_t i)
{
    ContactSide side;
    side.x = s.x;
    side.w = s.w.data();
    side.idx[0] = i;
    side.c[0] = 1.f;
    side.count = 1;
    return side;
}

/// A contact point at lerp(a, b, t) on a capsule's axis (weights 1 − t and t: Jakobsen's c1/c2).
inline ContactSide capsuleSide(RagdollState& s, const CapsuleData& c, float t)
{
    ContactSide side;
    side.x = s.x;
    side.w = s.w.data();
    side.idx[0] = c.a;
    side.idx[1] = c.b;
    side.c[0] = 1.f - t;
    side.c[1] = t;
    side.count = 2;
    return side;
}

/// A direct-mode body with a stick this far off its length after its iterations (relative) gets up to as
/// many again.
constexpr float kStretched = 0.005f;

/// The solver: free functions over a ragdoll's state. All are allocation-free.
struct Solver {
    static RagdollState& state(Ragdoll& r) { return *r.mState; }
    static const RagdollState& state(const Ragdoll& r) { return *r.mState; }
    static Ragdoll* create(std::shared_ptr<const Rig> rig, const Transform& placement, float dt,
                           std::uint32_t contactCapacity);
    /// Grows the ragdoll's static contact buffers to hold `capacity` candidates (never shrinks; between steps).
    static void reserveContacts(Ragdoll& r, std::uint32_t capacity);

    /// Start of a fixed step of dt seconds: remembers the positions for interpolation, then finds the static
    /// contact candidates, self-collision candidates and bounds over the motion the step may make.
    static void beginStep(Ragdoll& r, const StaticWorld& world, Vec3 gravity, float dt);
    /// One Verlet substep of h seconds (velocity carried over from the previous substep's length).
    static void integrate(Ragdoll& r, Vec3 gravity, float h);
    /// Line test of particles that moved further than their radius this substep.
    static void sweepFastParticles(Ragdoll& r, const StaticWorld& world);
    static void beginIterations(Ragdoll& r);
    /// One iteration of the substep's constraint solve. True when the ragdoll has converged (direct mode);
    /// without `checkConvergence` (the caller goes on, or stops, whatever the answer) it is not measured and
    /// the answer is false.
    static bool iterate(Ragdoll& r, const StaticWorld& world, std::uint32_t iteration, bool checkConvergence);
    /// A body on the 8-wide stick lanes whose iterations this substep would do nothing but relax its sticks
    /// (no angle or angular constraints, pins, touching capsule pairs or static contacts), alone in its
    /// island: runs its `iterations` iterations at once, the positions kept in the lanes' arrays from the
    /// first pass to the last (the same result as iterate() `iterations` times, to the bit). False, doing
    /// nothing, for any other body.
    static bool relaxSticksOnly(Ragdoll& r, std::uint32_t iterations);
    /// End of a substep: fresh triangle frames and relative orientations for the next substep's friction.
    static void endSubstep(Ragdoll& r);
    /// Angular friction on velocities: each joint's relative spin over the substep decays by its damping, or
    /// stops when slower than its static friction speed. Moves previous positions only (frames fresh).
    static void jointFriction(Ragdoll& r);
    /// Bend damping on velocities: at each damped bend joint, the far particle's motion relative to the link
    /// center→a (turning with it, without spin about it) decays at the joint's rate; the link takes the
    /// reaction (linear momentum kept, and angular momentum but about the link itself, which a link of two
    /// particles cannot take). Moves previous positions only.
    static void bendDamping(Ragdoll& r);
    /// Whether the ragdoll has been still for its rig's sleep time (finishStep measures it).
    static bool readyToSleep(const Ragdoll& r);
    /// Puts the ragdoll to sleep at rest where it is. World does this to whole islands at once.
    static void putToSleep(Ragdoll& r);
    /// End of the fixed step: measures stillness for sleep, updates the bones.
    static void finishStep(Ragdoll& r, bool sleepAllowed, float dt);

    // Pieces (exposed for tests of single constraints through the public API only).
    static void solveSticks(Ragdoll& r, bool reverse);
    static void solveAngles(Ragdoll& r);
    /// frictionPass: angular friction (once per step, before the iterations); otherwise the limits.
    static void solveAngular(Ragdoll& r, bool frictionPass);
    /// Kinematic pins placed, soft pins pulled (their share of this substep's iterations).
    static void solvePins(Ragdoll& r, std::uint32_t iterations);
    /// The correction angular constraint `index` needs now (frames must be fresh): rotate B relative to A by
    /// phi about world axis u. False when it is within its limits; excess: radians beyond them.
    static bool limitCorrection(const Ragdoll& r, std::uint32_t index, Vec3& u, float& phi, float& excess);
    /// The static contact candidates that penetrate now (at most `capacity`); returns the count.
    /// Static contacts within `band` of touching now, for the direct projection (at most `capacity`).
    static std::uint32_t gatherContacts(Ragdoll& r, const StaticWorld& world, float band, GatheredContact* out,
                                        std::uint32_t capacity);
    /// One Newton step of the direct projection (SolverMode::Direct); see Projection.h.
    static bool project(Ragdoll& r, const StaticWorld& world);
    /// After a projection: every stick within 0.01 % of its limits and every angular limit within 0.1°.
    static bool projectionConverged(Ragdoll& r);
    /// The row angular constraint `index` needs when it is beyond its limits or within `band` of them (frames
    /// must be fresh): turning B relative to A by `rhs` about world axis u brings it onto the limit (rhs <= 0
    /// while inside the band). False when it is further inside.
    static bool limitRow(const Ragdoll& r, std::uint32_t index, float band, Vec3& u, float& rhs);
    static void solveStaticContacts(Ragdoll& r, const StaticWorld& world);
    static void solveSelfCollision(Ragdoll& r);
    /// Drives (Drives.cpp). beginDrives: at the start of a fixed step, advances the gains' blend and readies
    /// the step's targets. solveDrives: after each substep's integration, places kinematic parts and applies
    /// the pins and motors. endDrives: at the end of the step, the target becomes the previous one.
    static void allocateDrives(Ragdoll& r);
    static void beginDrives(Ragdoll& r, float dt);
    static void solveDrives(Ragdoll& r, std::uint32_t substep, std::uint32_t substeps);
    static void endDrives(Ragdoll& r);
    /// The bone palette from the drivers' current state (BonePalette.cpp; triangle frames must be fresh).
    static void updateBones(Ragdoll& r);
    /// Recomputes every triangle's frame (matrix and quaternion) from the current positions.
    static void refreshTriangleFrames(Ragdoll& r);
    /// Stores R_Aᵀ R_B of every angular constraint for next step's angular friction (frames must be fresh).
    static void recordRelativeOrientations(Ragdoll& r);
    static void sanitize(Ragdoll& r);
    /// Direct mode: a stick that has not torn is off its length limits by more than kStretched of them, now
    /// (the world then gives the substep more iterations). Always false for the relaxation modes.
    static bool stretched(const Ragdoll& r);
    /// Some stick that has not torn is off its length limits by more than `tolerance` of the limit, now.
    static bool sticksOff(const Ragdoll& r, float tolerance);
    /// Largest |L − clamp(L, min, max)| over the sticks that have not torn, now.
    static float maxStickError(const Ragdoll& r);

    /// A collider of ragdoll r as a contact side and its geometry: particle sphere, capsule, box.
    static void colliderBounds(const Ragdoll& r, ColliderKind kind, std::uint32_t index, Vec3& lo, Vec3& hi);
    /// Current box of rig box `index`: centre, axes, half extents.
    static void boxFrame(const Ragdoll& r, std::uint32_t index, Vec3& centre, Mat3& axes);
    /// Affine weights of world point p over the box's owner particles.
    static void boxWeights(const Ragdoll& r, std::uint32_t index, Vec3 p, ContactSide& side);
};

} // namespace marionette::runtime
