// Marionette — the editable rig description (DESIGN.md §3).
//
// A RigDescription is plain data: vectors of elements that refer to each other by index. The editor and
// the pipeline build one; the `.mrig` reader produces one; the runtime compiles one into an immutable
// `runtime::Rig` shared by many ragdolls. Nothing here allocates during simulation or depends on Qt.
//
// Indices are 0-based positions in the owning vector. Angles are radians, lengths metres, masses kg.
#pragma once

#include "marionette/Math.h"
#include "marionette/rig/Finding.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace marionette::rig {

/// Stable identifier of an element across edits (the editor assigns them; 0 means "none given").
using ElementId = std::uint32_t;
constexpr std::int32_t kNone = -1;

/// A point mass. mass == 0 makes it kinematic (inverse mass 0: only moved by the caller).
struct Particle {
    std::string name;
    ElementId id = 0;
    Vec3 position;                    ///< bind position, world space of the bind pose
    float mass = 1.f;                 ///< kg, >= 0; 0 = kinematic
    float radius = 0.05f;             ///< collision sphere radius, >= 0 (0 = point)
    std::uint32_t group = 1;          ///< collision group bits
    std::uint32_t mask = ~0u;         ///< groups this particle collides with
    std::int32_t bone = kNone;        ///< bone it was created from, or kNone
};

/// How a distance link constrains its length L.
enum class StickKind : std::uint8_t {
    Rigid = 0,   ///< L = rest
    Range = 1,   ///< minLength <= L <= maxLength (Rosen's min/max constraint)
    MinOnly = 2, ///< L >= minLength (Jakobsen's unilateral constraint; self-collision ranges)
    MaxOnly = 3, ///< L <= maxLength (rope)
};

/// A distance link between two particles.
struct Stick {
    std::string name;
    ElementId id = 0;
    std::int32_t a = 0, b = 0;      ///< particle indices, distinct
    StickKind kind = StickKind::Rigid;
    float restLength = -1.f;        ///< Rigid: target length; < 0 = bind distance
    float minLength = 0.f;          ///< Range / MinOnly
    float maxLength = 0.f;          ///< Range / MaxOnly
    float stiffness = 1.f;          ///< (0, 1]: fraction of the correction applied per iteration
    float compliance = 0.f;         ///< XPBD compliance α (m/N), >= 0; used in the XPBD solver mode
    float tearRatio = 0.f;          ///< 0 = never; else removed when L > tearRatio × rest (or max) length
    float capsuleRadius = 0.f;      ///< > 0 gives the stick a collision capsule of that radius
    std::uint32_t group = 1;        ///< capsule collision group bits
    std::uint32_t mask = ~0u;       ///< capsule collision mask
};

/// Angle at particle `center` between the arms to `a` and `b`, kept inside [minAngle, maxAngle].
struct AngleConstraint {
    enum class Form : std::uint8_t {
        DotProduct = 0,   ///< angle projection on the three particles (Jakobsen's dot-product constraint)
        LawOfCosines = 1, ///< becomes a min/max distance link between a and b (tutorial, step 8)
    };
    std::string name;
    ElementId id = 0;
    std::int32_t center = 0, a = 0, b = 0;
    float minAngle = 0.f;           ///< radians, [0, π]
    float maxAngle = kPi;           ///< radians, [minAngle, π]
    float stiffness = 1.f;          ///< (0, 1]
    Form form = Form::DotProduct;
    /// Bend damping, 1/s in [0, 1000]: b's motion relative to the link center→a decays as exp(−damping·t)
    /// (the link takes the reaction). 0 = none. In .mrig 1.2 (BNDD) and .mproj 2.
    float damping = 0.f;
};

/// A body part with a full orientation (Rosen): frame up = p1 − p0, facing = up × (p2 − p0).
struct Triangle {
    std::string name;
    ElementId id = 0;
    std::int32_t p[3] = {0, 0, 0};
};

/// Limits an angular constraint enforces on the relative orientation of two triangles.
enum class AngularLimit : std::uint8_t {
    Cone = 0,       ///< total deviation from the rest relative orientation <= coneAngle (Rosen)
    SwingTwist = 1, ///< twist about `twistAxis` in [twistMin, twistMax], swing inside the (swing1, swing2) ellipse
};

/// Orientation constraint between triangles A and B (Rosen), with angular friction.
struct AngularConstraint {
    std::string name;
    ElementId id = 0;
    std::int32_t triangleA = 0, triangleB = 0;
    AngularLimit limit = AngularLimit::Cone;
    float coneAngle = radians(60.f);   ///< Cone: maximum deviation, [0, π]
    Vec3 twistAxis{0, 1, 0};           ///< SwingTwist: unit axis in B's triangle frame
    Vec3 swingAxis1{1, 0, 0};          ///< SwingTwist: first swing axis in B's frame (⊥ twistAxis)
    float twistMin = -radians(45.f);   ///< radians, [−π, π]
    float twistMax = radians(45.f);    ///< radians, [twistMin, π]
    float swing1 = radians(45.f);      ///< radians, [0, π]: swing limit about swingAxis1
    float swing2 = radians(45.f);      ///< radians, [0, π]: swing limit about swingAxis1 × twistAxis
    float stiffness = 1.f;             ///< (0, 1]
    float damping = 0.f;               ///< 1/s, [0, 1000]: the joint's relative spin decays as e^(−damping·t)
    float staticFrictionSpeed = 0.f;   ///< rad/s, [0, 100]: a joint turning slower than this is held still
                                       ///< until something pushes it harder than that speed per substep
    bool hasRestOrientation = false;   ///< false = capture R_Aᵀ R_B from the bind pose
    Quat restOrientation;              ///< R_Aᵀ R_B at rest when hasRestOrientation
};

/// A particle held to a world target: an IK handle. Stiffness 1 with `kinematic` makes it immovable.
struct Pin {
    std::string name;
    ElementId id = 0;
    std::int32_t particle = 0;
    Vec3 target;
    float stiffness = 1.f;  ///< (0, 1]: fraction of the way to the target per 1/60 s (1 = all the way)
    bool kinematic = true;  ///< true: inverse mass 0 while pinned and placed exactly on the target
};

enum class ShapeKind : std::uint8_t {
    Box = 0, ///< convex box bound to a triangle frame or embedded in a tetrahedron of four particles
};

/// Collision shapes beyond particle spheres and stick capsules.
/// A box is attached either to a triangle (frame + offset) or to a tetrahedron of four particles whose
/// corners carry barycentric weights (Jakobsen §5: embedding a body in a tetrahedron).
struct Shape {
    std::string name;
    ElementId id = 0;
    ShapeKind kind = ShapeKind::Box;
    std::int32_t triangle = kNone;         ///< frame owner, or kNone
    std::int32_t tetra[4] = {kNone, kNone, kNone, kNone}; ///< embedding tetrahedron, when triangle is kNone
    Transform local;                       ///< box centre/orientation in the owner's bind frame
    Vec3 halfExtents{0.1f, 0.1f, 0.1f};    ///< > 0
    std::uint32_t group = 1;
    std::uint32_t mask = ~0u;
};

struct Bone {
    std::string name;
    ElementId id = 0;
    std::int32_t parent = kNone;    ///< index of a bone earlier in the list, or kNone for a root
    Mat4 bindLocal;                 ///< relative to the parent at bind
    Mat4 bindWorld;                 ///< model space at bind
    Mat4 inverseBind;               ///< skin's inverse bind matrix (model → bone space)
};

/// What drives a bone in the simulation.
struct BoneBinding {
    enum class Driver : std::uint8_t {
        Triangle = 0, ///< full frame of a triangle
        Stick = 1,    ///< direction of a stick, twist carried from the parent by minimal rotation
    };
    std::string name;
    ElementId id = 0;
    std::int32_t bone = 0;
    Driver driver = Driver::Triangle;
    std::int32_t index = 0;          ///< triangle or stick index
    bool hasOffset = false;          ///< false = capture from the bind pose
    Transform offset;                ///< driver frame⁻¹ × bone world at bind
};

/// How strongly one body part follows a pose target (powered ragdolls, docs/physics.md "Drives"). Each spring
/// is an XPBD constraint whose compliance comes from a natural frequency and a damping ratio, so the same
/// gains behave the same on a light or a heavy part and at any substep count. A frequency of 0 turns that
/// spring off; gains that are all off are exactly the passive ragdoll.
struct DriveGains {
    float motorFrequency = 0.f; ///< Hz, [0, 60]: the part's orientation relative to its parent part springs
                                ///< toward the target's at this natural frequency (a "motor"); 0 = none
    float motorDamping = 1.f;   ///< damping ratio, [0, 10] (1 = critically damped)
    float maxTorque = 0.f;      ///< N·m, [0, 1e6]: the most the motor may apply (a hit can overpower it); 0 = no limit
    float pinFrequency = 0.f;   ///< Hz, [0, 60]: the part's particles spring toward their target world
                                ///< positions ("pin to animation", for the root or the feet); 0 = none
    float pinDamping = 1.f;     ///< damping ratio, [0, 10]
    float maxForce = 0.f;       ///< N per particle, [0, 1e6]: the most the pin may apply; 0 = no limit
    bool kinematic = false;     ///< the part follows the target exactly (its particles are placed, not simulated)

    friend bool operator==(const DriveGains&, const DriveGains&) = default;
};

/// The numeric fields of DriveGains as the formats name them (the .mrig's DriveGainsRecord order, the
/// .mproj's keys), each with its range [0, max]: one table for validation, the readers and the writers.
struct DriveGainField {
    const char* name;
    float DriveGains::*member;
    float max;
};
inline constexpr DriveGainField kDriveGainFields[6] = {
    {"motorFrequency", &DriveGains::motorFrequency, 60.f}, {"motorDamping", &DriveGains::motorDamping, 10.f},
    {"maxTorque", &DriveGains::maxTorque, 1e6f},           {"pinFrequency", &DriveGains::pinFrequency, 60.f},
    {"pinDamping", &DriveGains::pinDamping, 10.f},         {"maxForce", &DriveGains::maxForce, 1e6f},
};

/// A body part a drive acts on: a triangle (its frame) or a stick (its direction).
enum class DrivePartKind : std::uint8_t { Triangle = 0, Stick = 1 };

/// The gains of one part in a profile.
struct DrivePart {
    DrivePartKind kind = DrivePartKind::Triangle;
    std::int32_t index = 0;  ///< triangle or stick index
    DriveGains gains;
};

/// A named set of per-part gains ("limp", "stagger", "balanced", "stiff"). Parts not listed get `defaults`.
struct DriveProfile {
    std::string name;              ///< non-empty, unique in the rig
    ElementId id = 0;
    DriveGains defaults;
    std::vector<DrivePart> parts;  ///< each part at most once

    /// The gains of triangle/stick `index`: its entry in `parts`, else `defaults`.
    const DriveGains& gainsOf(DrivePartKind kind, std::int32_t index) const;
};

enum class SolverMode : std::uint8_t {
    GaussSeidel = 0, ///< constraints applied one after another (Jakobsen); over-relaxation applies
    Jacobi = 1,      ///< corrections averaged per particle then applied (Rosen)
    Xpbd = 2,        ///< compliance-based, stiffness independent of step and iteration count
    Direct = 3,      ///< every substep, sticks, limits and contacts projected together by a direct solve
};

/// Solver settings. Rates are per second, so a rig behaves the same at any substep count.
struct Settings {
    Vec3 gravity{0.f, -9.81f, 0.f};
    float timeStep = 1.f / 60.f;       ///< seconds, (0, 0.1]: the fixed step of the world's clock
    std::uint32_t maxSubsteps = 4;     ///< fixed steps one advance() call may take (the rest of a stall is dropped), [1, 64]
    std::uint32_t substeps = 8;        ///< solver substeps each fixed step is split into, [1, 64]
    std::uint32_t iterations = 3;      ///< per substep, [1, 64]: Newton steps at most (Direct) or relaxation sweeps
    float damping = 0.6f;              ///< 1/s, [0, 100]: velocities decay as e^(−damping·t) (air drag)
    float friction = 0.6f;             ///< μ, [0, 10⁴]: Coulomb friction against static geometry and other ragdolls
    float staticFrictionSpeed = 0.12f; ///< m/s, [0, 100]: a contact sliding slower than this sticks
    float sleepVelocity = 0.05f;       ///< m/s; all particles slower than this for sleepTime -> sleep
    float sleepTime = 1.f;             ///< seconds, 0 disables sleep
    float overRelaxation = 1.f;        ///< ω in [1, 2): Gauss–Seidel SOR factor / Jacobi averaging factor
    bool sqrtApproximation = false;    ///< one-Newton-step sqrt for sticks (Jakobsen)
    bool selfCollision = true;         ///< capsules of one ragdoll collide with each other (group/mask filtered)
    SolverMode solver = SolverMode::Direct;
};

/// Settings of a rig written before substeps and per-second rates (a .mrig of format 1.0, a .mproj of
/// version 1): relaxation per step, drag and frictions per step.
struct LegacySettings {
    float timeStep;
    std::uint32_t iterations;   ///< per step
    float drag;                 ///< velocity fraction removed per step
    float staticFriction;       ///< metres per step
};
/// The settings that reproduce a legacy rig's behaviour: one substep of the same relaxation, with drag and
/// static friction turned into rates per second (damping = −ln(1 − drag)/Δt, speed = distance/Δt), capped
/// at the top of their ranges (100 /s, 100 m/s).
void migrateLegacySettings(const LegacySettings& legacy, Settings& out);
/// A legacy angular constraint's friction as rates: damping = −ln(1 − dynamicFriction)/Δt (at most 1000 /s),
/// staticFrictionSpeed = staticFrictionAngle/Δt (at most 100 rad/s).
void migrateLegacyAngularFriction(float dynamicFriction, float staticFrictionAngle, float timeStep, AngularConstraint& out);
/// A legacy soft pin's stiffness (fraction per iteration) as the fraction per 1/60 s it gave.
float migrateLegacyPinStiffness(float stiffness, std::uint32_t iterations, float timeStep);

/// The whole rig. `findings()` reports every problem, `validate()` the first (rig::validated() in
/// Validation.h validates once and hands out the proof later steps take instead of validating again).
struct RigDescription {
    std::string name;
    std::vector<Particle> particles;
    std::vector<Stick> sticks;
    std::vector<AngleConstraint> angles;
    std::vector<Triangle> triangles;
    std::vector<AngularConstraint> angular;
    std::vector<Pin> pins;
    std::vector<Shape> shapes;
    std::vector<Bone> bones;
    std::vector<BoneBinding> bindings;
    std::vector<DriveProfile> driveProfiles; ///< powered-ragdoll gains by name (.mrig 1.3, .mproj 2 rig.driveProfiles)
    Settings settings;

    /// Checks every index, count, float and limit, and every triangle and embedding tetrahedron for
    /// degeneracy (rig::isDegenerateTriangle, rig::isFlatTetrahedron). Returns every problem found, in
    /// check order (elements in the order of the vectors above, then the settings); empty when the rig is
    /// usable. A check that needs another one to pass (an index before what it indexes) is skipped when that
    /// one fails, so each finding is a separate problem. Allocates only for the findings.
    std::vector<Finding> findings() const;
    /// The message of the first error of findings(), or an empty string when the rig is usable: one line
    /// such as `sticks[12] 'l_forearm': particle b index 40 out of range (31 particles)`. Stops at that
    /// first error.
    std::string validate() const;
};

/// Human-readable names of enums, used in messages.
const char* toString(StickKind kind);
const char* toString(SolverMode mode);

} // namespace marionette::rig
