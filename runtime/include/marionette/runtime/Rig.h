// Marionette runtime — the compiled, immutable rig shared by every ragdoll spawned from it.
//
// Rig::build() validates a rig::RigDescription (or takes one already validated) and turns it into flat arrays laid out for the solver:
// sticks sorted root-to-leaf, law-of-cosines angle constraints folded into sticks, triangle edges made sure
// of, rest orientations and bone-binding offsets captured from the bind pose, self-collision capsule pairs
// precomputed from the group/mask filter. A Rig never changes after build(); share it with shared_ptr.
#pragma once

#include "marionette/Math.h"
#include "marionette/rig/RigDescription.h"
#include "marionette/rig/Validation.h"

#include <cstdint>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace marionette::runtime {

struct ProjectionStructure;

/// A distance constraint as the solver sees it: L is clamped into [minLength, maxLength].
/// Rigid: min == max. Min-only: max = +inf. Max-only: min = 0. 32 bytes.
struct StickData {
    std::uint32_t a, b;
    float minLength, maxLength;
    float stiffness;    ///< (0, 1]
    float compliance;   ///< XPBD α
    float tearLength;   ///< +inf = never tears
    std::uint32_t source; ///< index in RigDescription::sticks, or ~0u for generated links
};

/// Four consecutive compiled sticks, sticks()[4k .. 4k+3], laid out lane by lane for the 4-wide solver.
/// `independent` is set when the four touch eight distinct particles, so they can be solved at once;
/// `pairedWithNext` when this block and the next are both independent and share no particle either.
struct alignas(16) StickBlock {
    float minLength[4], maxLength[4], stiffness[4];
    std::uint32_t a[4], b[4];
    bool independent;
    bool pairedWithNext;
};

/// Eight compiled sticks on sixteen distinct particles, sticks()[first .. first + 8), laid out lane by lane
/// for the 8-wide kernel of Gauss–Seidel rigs (Rig::stickLanes()).
struct alignas(32) StickLanes {
    std::uint32_t a[8], b[8];
    float minLength[8], maxLength[8], stiffness[8];
    std::uint32_t first;
    /// Where the ends' particles are, for the kernel to load and store them whole when it can.
    enum class Layout : std::uint8_t {
        Scattered,   ///< anywhere: gathered and scattered one by one
        Consecutive, ///< a[l] = a[0] + l and b[l] = b[0] + l (a cloth's vertical sticks)
        Paired,      ///< a[l] = a[0] + 2l and b[l] = a[l] + 1: sixteen consecutive particles (its horizontal ones)
    } layout;
};

struct AngleData {
    std::uint32_t center, a, b;
    float cosMin, cosMax; ///< cos(minAngle) >= cos(maxAngle)
    float minAngle, maxAngle, stiffness;
};

/// A bend joint with damping: the middle particle `center` joins the chain links to `a` and `b`.
struct BendData {
    std::uint32_t center, a, b;
    float damping; ///< 1/s: the joint's relative motion decays as exp(−damping·t)
};

struct TriangleData {
    std::uint32_t p[3];
};

struct AngularData {
    std::uint32_t triA, triB;
    rig::AngularLimit limit;
    Mat3 rest;            ///< R_Aᵀ R_B at bind
    float cosCone;        ///< cos(coneAngle)
    float coneAngle;
    Quat twistFrame;      ///< rotates the constraint frame (X = swing1, Y = twist, Z = swing2) into B's frame
    Mat3 frame;           ///< twistFrame as a matrix
    Mat3 restFrame;       ///< rest × frame: the constraint frame seen from A at rest
    float twistMinSin, twistMinCos, twistMaxSin, twistMaxCos; ///< sin/cos of half the twist limits
    float twistMin, twistMax, swing1, swing2;
    float stiffness;
    float damping;             ///< 1/s: decay rate of the joint's relative spin (angular dynamic friction)
    float staticFrictionSpeed; ///< rad/s: the joint is held while it turns slower than this
    // Precomputed for the trig-free in-limit tests on quaternions (sin² of half angles).
    Quat restQ;                ///< rest as a quaternion
    Quat restFrameQ;           ///< restQ × twistFrame
    float sinHalfCone2;        ///< sin²(coneAngle / 2)
    float sinHalfSwing2;       ///< sin²(min(swing1, swing2) / 2), or of the tolerance when an axis is locked
    // Hinge: a swing/twist constraint between triangles sharing the edge its twist axis runs along (within
    // 5° at bind). The shared edge holds the swing at zero; the solver limits the twist by turning each
    // triangle's third particle about the hinge line, so the shared particles never move against each other
    // (while both third particles can move; otherwise as any swing/twist constraint).
    bool hinge;
    std::uint32_t hingeA, hingeB; ///< the shared particles; +twist turns B about hingeB − hingeA (hingeSign)
    std::uint32_t freeA, freeB;   ///< the third particle of A and of B
    float hingeSign;              ///< +1 when the twist axis points from hingeA to hingeB at bind, else −1
};

struct CapsuleData {
    std::uint32_t a, b;   ///< particles
    float radius;
    std::uint32_t group, mask;
    std::uint32_t stick;  ///< index in RigDescription::sticks
};

/// A box bound to a triangle frame (3 particles) or embedded in a tetrahedron (4 particles).
struct BoxData {
    std::uint32_t particles[4];
    std::uint32_t particleCount; ///< 3 (triangle frame) or 4 (tetrahedron)
    Transform local;             ///< box frame relative to the owner's bind frame
    Vec3 half;
    std::uint32_t group, mask;
    Mat3 bindInverseEdges;       ///< tetrahedron: inverse of [x1−x0, x2−x0, x3−x0] at bind
    Transform bindOwner;         ///< owner frame at bind (triangle frame or tetra frame)
};

struct BoneData {
    std::int32_t parent;
    std::int32_t driver;         ///< -1 unbound, else triangle or stick index (see driverKind)
    rig::BoneBinding::Driver driverKind;
    Mat4 bindWorld, inverseBind;
    Transform bindDriver;        ///< triangle frame at bind, or (identity, start particle) for sticks
    Vec3 stickDirection;         ///< unit stick direction at bind (stick-driven bones)
    std::uint32_t stickA, stickB;
    std::int32_t follow;         ///< unbound root: bone whose motion it copies (first bound descendant), or -1
};

/// A shape that collides with other ragdolls: a stick capsule, a particle sphere not already covered by a
/// capsule end, or a box. kind: 0 particle sphere, 1 capsule, 2 box.
struct ColliderRef {
    std::uint8_t kind;
    std::uint32_t index;
    std::uint32_t group, mask;
};

struct PinData {
    std::uint32_t particle;
    Vec3 target;
    float stiffness;
    bool kinematic;
};

/// A body part drives act on (powered ragdolls): a triangle, whose frame turns toward its target frame, or a
/// stick, whose direction turns toward its target direction; both relative to the parent triangle.
struct DrivePartData {
    rig::DrivePartKind kind;
    std::uint32_t index;          ///< triangle or description stick
    std::uint32_t particles[3];   ///< the triangle's corners, or the stick's pivot (on the parent) and tip
    std::uint32_t count;          ///< 3 or 2
    std::int32_t parent;          ///< triangle the motor turns it against, or -1 (a root: pins only)
    std::int32_t angular;         ///< the angular constraint joining parent and part, or -1
};

/// Where particle i wants to be given a bone palette: palette[bone] · local (bone -1: nowhere).
struct DriveTargetData {
    std::int32_t bone;
    Vec3 local;
};

/// A drive profile compiled for the solver: the gains of every part (Rig::driveParts() order).
struct DriveProfileData {
    std::string name;
    std::vector<rig::DriveGains> gains;
};

/// The compiled rig. All arrays are fixed after build().
class Rig {
public:
    /// Validates `description` (rig::validated()) and compiles it. Returns null and sets *error (if given)
    /// to a one-line message naming the offending element when the description is unusable: validate()'s
    /// message. Validation is the only refusal: every description that passes it builds.
    static std::shared_ptr<const Rig> build(const rig::RigDescription& description, std::string* error = nullptr);
    /// Compiles a description already validated (rig::validated(), the .mrig readers), without validating
    /// it again. Never null.
    static std::shared_ptr<const Rig> build(const rig::Validated& description);
    /// Reads a `.mrig` file (formats/rig/FORMAT.md) and builds it. On failure returns null and sets *error to
    /// one line starting with the path: `hero.mrig: STCK[12].particleB: index 40 out of range (31 particles)`.
    static std::shared_ptr<const Rig> load(const std::string& path, std::string* error = nullptr);
    /// load() from bytes already in memory (a game's own file system or archive). Any bytes are safe.
    static std::shared_ptr<const Rig> loadFromMemory(std::span<const std::byte> bytes, std::string* error = nullptr);

    const rig::RigDescription& description() const { return mDescription; }
    const rig::Settings& settings() const { return mDescription.settings; }

    std::size_t particleCount() const { return mBindPositions.size(); }
    std::span<const Vec3> bindPositions() const { return mBindPositions; }
    std::span<const float> inverseMasses() const { return mInverseMasses; }
    std::span<const float> masses() const { return mMasses; }
    std::span<const float> radii() const { return mRadii; }
    std::span<const std::uint32_t> groups() const { return mGroups; }
    std::span<const std::uint32_t> masks() const { return mMasks; }
    std::span<const StickData> sticks() const { return mSticks; }
    /// sticks() in blocks of four (the last partial block is not included).
    std::span<const StickBlock> stickBlocks() const { return mStickBlocks; }
    /// Gauss–Seidel rigs whose sticks fall into sets of eight independent ones (a cloth; not rigs the direct
    /// projection solves): those sets, in solve order. sticks() is then ordered level by level from the
    /// kinematic particles, each level's sticks set by set, and a set's eight sticks are consecutive there;
    /// the sticks between two sets are solved one by one. Empty for other rigs.
    std::span<const StickLanes> stickLanes() const { return mStickLanes; }
    std::span<const AngleData> angles() const { return mAngles; }
    /// Bend joints with damping (angle constraints of either form whose damping > 0), in description order.
    std::span<const BendData> bends() const { return mBends; }
    std::span<const TriangleData> triangles() const { return mTriangles; }
    std::span<const AngularData> angular() const { return mAngular; }
    std::span<const CapsuleData> capsules() const { return mCapsules; }
    std::span<const BoxData> boxes() const { return mBoxes; }
    std::span<const PinData> pins() const { return mPins; }
    std::span<const BoneData> bones() const { return mBones; }
    /// Parts drives act on: every triangle (in order), then every stick that drives a bone or that a profile
    /// lists.
    std::span<const DrivePartData> driveParts() const { return mDriveParts; }
    /// Index in driveParts() of triangle or description stick `index`, or -1 when it is not a part.
    std::int32_t drivePart(rig::DrivePartKind kind, std::uint32_t index) const;
    /// Per particle: the bone whose pose places it, and its position in that bone's bind space.
    std::span<const DriveTargetData> driveTargets() const { return mDriveTargets; }
    std::span<const DriveProfileData> driveProfiles() const { return mDriveProfiles; }
    /// Index in driveProfiles() of the profile named `name`, or -1.
    std::int32_t findDriveProfile(std::string_view name) const;
    /// Pairs of capsule indices that may collide with each other (filter passed, no shared particle).
    std::span<const std::uint32_t> selfCapsulePairs() const { return mSelfPairs; }
    /// Shapes that collide with other ragdolls (capsules, uncovered particle spheres, boxes).
    std::span<const ColliderRef> colliders() const { return mColliders; }
    /// Index in sticks() of RigDescription::sticks[i] (all description sticks survive compilation).
    std::uint32_t compiledStick(std::size_t descriptionIndex) const { return mStickRemap[descriptionIndex]; }
    /// What compiled stick k enforces, for messages: the description stick's name, "angle 'NAME'" for a
    /// law-of-cosines angle constraint, or "triangle 'NAME' edge" for a triangle edge the description lacked.
    std::string stickName(std::size_t compiledIndex) const;
    /// The law-of-cosines angle constraint compiled stick k enforces, or -1.
    std::int32_t stickAngle(std::size_t compiledIndex) const;
    bool hasTearableSticks() const { return mTearable; }
    /// Tearable rigs: the compiled sticks on the edges of angular constraint i's two triangles (6 from 6·i,
    /// ~0u where the edge has no stick); empty otherwise.
    std::span<const std::uint32_t> angularEdgeSticks() const { return mAngularEdges; }
    float totalMass() const { return mTotalMass; }
    /// Radius of the bind pose around its centre of mass plus the largest collision radius.
    float boundingRadius() const { return mBoundingRadius; }

    /// The direct projection's structure (SolverMode::Direct), or null when the rig relaxes by Gauss–Seidel
    /// (another mode, or too many constraints for a direct solve). Internal.
    const ProjectionStructure* projection() const { return mProjection.get(); }

    /// What the direct solve of a Newton step works on (docs/physics.md): the rigid sticks it solves as one
    /// sparse system, the nonzeros of that system's factor, the factor's depth (the longest chain of pivots
    /// each waiting for the one before it: what one solve's latency follows, however wide the machine), and
    /// the rows that join the system when near their limits (length ranges, angular limits, capsule contacts).
    struct DirectSolveShape {
        std::uint32_t rigidSticks = 0;
        std::uint32_t factorNonzeros = 0;
        std::uint32_t depth = 0;
        std::uint32_t limitRows = 0;
    };
    /// The shape of the direct solve, or nothing when the rig relaxes by Gauss–Seidel (another solver, or
    /// too large for a direct solve).
    std::optional<DirectSolveShape> directSolveShape() const;

    ~Rig();

    /// Rosen's triangle frame of points p0, p1, p2 as a rotation [right | up | facing]. Returns false
    /// (leaving `out` unchanged) when the points are (nearly) collinear or coincide; never for points
    /// rig::isDegenerateTriangle() accepts (the validation test, stricter than this numerical guard for
    /// the triangles a simulation deforms).
    static bool triangleFrame(Vec3 p0, Vec3 p1, Vec3 p2, Mat3& out);

private:
    Rig() = default;

    // The builders build(const rig::Validated&) calls, one per element kind, in this order (RigBuild.cpp,
    // RigSticks.cpp; drives: RigDrives.cpp). Each fills its arrays from mDescription and what the builders
    // before it compiled.
    /// Bind positions, masses, radii and filters, the total mass. Returns the bind pose's centre of mass.
    Vec3 compileParticles();
    /// The triangles' corners, in description order.
    void compileTriangles();
    /// Description sticks, law-of-cosines angles and the triangle edges the description lacks, as [min, max]
    /// clamps ordered root-to-leaf and into independent 4-wide blocks, and for Gauss–Seidel rigs into the sets
    /// of eight when most sticks fall into them (RigSticks.cpp); triangles compiled first.
    void compileSticks();
    /// Bend joints with damping, and the dot-product angle constraints.
    void compileAngles();
    /// Each triangle's frame in the bind pose (Rig::triangleFrame).
    std::vector<Mat3> bindFrames() const;
    /// Angular constraints: rest orientation, constraint frame, the limits' precomputed terms, hinges.
    void compileAngular(const std::vector<Mat3>& bindFrames);
    /// Tearable rigs: the sticks on the edges of each angular constraint's triangles; sticks compiled first.
    void compileAngularEdges();
    /// Stick capsules, then the self-collision capsule pairs.
    void compileCapsules();
    /// Boxes bound to a triangle frame or embedded in a tetrahedron, with their owner's bind frame.
    void compileBoxes(const std::vector<Mat3>& bindFrames);
    /// The shapes other ragdolls collide with; capsules and boxes compiled first.
    void compileColliders();
    void compilePins();
    /// Bones, their bindings to triangles and sticks, and which bone each unbound root follows.
    void compileBones(const std::vector<Mat3>& bindFrames);
    /// Fills the drive tables from the description (RigDrives.cpp); bones and triangles compiled first.
    void compileDrives();
    /// The direct projection's structure when the rig asks for it and can use it; everything else compiled first.
    void compileProjection();
    /// mBoundingRadius around the bind pose's centre of mass `com`; particles, capsules and boxes compiled first.
    void compileBoundingRadius(Vec3 com);

    /// StickData::source tags while building (mStickOrigin keeps them): a law-of-cosines angle constraint, a
    /// triangle's missing edge; below kFromAngle, a description stick.
    static constexpr std::uint32_t kFromAngle = 1u << 30;
    static constexpr std::uint32_t kFromTriangle = 2u << 30;

    rig::RigDescription mDescription;
    std::vector<Vec3> mBindPositions;
    std::vector<float> mInverseMasses, mMasses, mRadii;
    std::vector<std::uint32_t> mGroups, mMasks;
    std::vector<StickData> mSticks;
    std::vector<StickBlock> mStickBlocks;
    std::vector<StickLanes> mStickLanes;
    std::vector<std::uint32_t> mStickRemap;
    /// Per compiled stick: where it comes from (kind in the top two bits: 0 stick, 1 angle, 2 triangle).
    std::vector<std::uint32_t> mStickOrigin;
    std::vector<AngleData> mAngles;
    std::vector<BendData> mBends;
    std::vector<TriangleData> mTriangles;
    std::vector<AngularData> mAngular;
    std::vector<std::uint32_t> mAngularEdges; ///< tearable rigs: 6 per angular constraint, ~0u where no stick
    std::unique_ptr<ProjectionStructure> mProjection;
    std::vector<CapsuleData> mCapsules;
    std::vector<BoxData> mBoxes;
    std::vector<PinData> mPins;
    std::vector<BoneData> mBones;
    std::vector<DrivePartData> mDriveParts;
    std::vector<DriveTargetData> mDriveTargets;
    std::vector<DriveProfileData> mDriveProfiles;
    std::vector<std::uint32_t> mSelfPairs;
    std::vector<ColliderRef> mColliders;
    bool mTearable = false;
    float mTotalMass = 0.f;
    float mBoundingRadius = 0.f;
};

} // namespace marionette::runtime
