/* Marionette — C API of the character-physics runtime.
 *
 * A plain C99/C11 header over the C++ runtime (marionette::runtime): compile-time and link-time
 * independent of C++ for the caller (link the static library `Marionette::runtime` with a C++ linker, or
 * add the C++ standard library yourself).
 *
 * Conventions
 *   - Right-handed, +Y up, metres, kilograms, seconds, radians.
 *   - Every function except the *Default() initialisers and mrLastError() returns an MrResult. On failure
 *     nothing is written to the output parameters (except where a function says otherwise, e.g. the
 *     required count of a too-small buffer), and mrLastError() describes the problem.
 *   - No function throws, aborts or crashes on bad input that can be detected: NULL pointers, unknown
 *     ragdoll handles, out-of-range indices, non-finite floats and counts are reported as errors. Pointers
 *     to freed objects or buffers shorter than the count you pass cannot be detected.
 *   - Ownership: objects returned through an `Mr...**` out-parameter belong to the caller and are freed
 *     with the matching mrRigRelease() / mrWorldDestroy(). Arrays passed in are copied before the call
 *     returns; the caller keeps ownership of them.
 *
 * Threading
 *   - Rigs are immutable once created: use one from any number of threads and worlds at once.
 *     mrRigRetain() / mrRigRelease() are thread-safe.
 *   - A world, and the ragdolls in it, must be used by one thread at a time (the world may internally
 *     step on several threads, see MrWorldSettings.threads). Different worlds are independent.
 *   - mrLastError() is per thread.
 */
#ifndef MARIONETTE_MARIONETTE_H
#define MARIONETTE_MARIONETTE_H

#include <stddef.h>
#include <stdint.h>

#ifndef MR_API
#define MR_API
#endif

/* Version of the C API declared here. It is incremented whenever a declaration below changes
 * incompatibly (a function's parameters or result, a struct's layout, an enum value's meaning); adding
 * functions, enum values or macros is compatible and leaves it unchanged. mrGetCApiVersion() returns the
 * value the library was built with: a program compares it with this macro (see "version" below). */
#define MR_C_API_VERSION 2 /* 2: MrRigDesc gained profiles/profileCount (drive profiles) at its end */

/* Version of the Marionette library this header belongs to (semantic versioning). The runtime's version
 * is defined here: runtime/CMakeLists.txt reads it from these lines, and refuses to configure when the
 * top-level project(Marionette VERSION ...) differs, so the two cannot drift apart. mrGetVersion() and
 * mrGetVersionString() return the values the library was built with. */
#define MR_VERSION_MAJOR 0
#define MR_VERSION_MINOR 1
#define MR_VERSION_PATCH 0
/* "MAJOR.MINOR.PATCH", e.g. "0.1.0" (built from the three numbers above). */
#define MR_VERSION_STRING                                                                                 \
    MR_STRINGIFY_(MR_VERSION_MAJOR) "." MR_STRINGIFY_(MR_VERSION_MINOR) "." MR_STRINGIFY_(MR_VERSION_PATCH)
#define MR_STRINGIFY_(x) MR_STRINGIFY2_(x)
#define MR_STRINGIFY2_(x) #x

#ifdef __cplusplus
extern "C" {
#endif

/* ---- results ------------------------------------------------------------------------------------- */

typedef enum MrResult {
    MR_OK = 0,
    MR_INVALID_ARGUMENT = 1, /* NULL pointer, non-finite float, value out of range, buffer too small */
    MR_INVALID_RIG = 2,      /* a rig description failed validation; the message names the element */
    MR_NOT_FOUND = 3,        /* the ragdoll handle (or pin) does not exist in that world, or no element
                                of the rig has the name looked up (mrRigFindElement(), mrRigFindBone(),
                                mrRigFindDriveProfile()) */
    MR_OUT_OF_MEMORY = 4,
    MR_INTERNAL = 5          /* unexpected failure inside the runtime (please report it) */
} MrResult;

/* The message of the last call that failed on the calling thread, or "" if none has failed yet.
 * Never NULL. The text stays valid until the next failing call on the same thread; successful calls do
 * not clear it. */
MR_API const char* mrLastError(void);

/* Short constant name of a result code ("MR_OK", "MR_INVALID_ARGUMENT", ...); "MR_UNKNOWN" otherwise. */
MR_API const char* mrResultString(MrResult result);

/* ---- version ------------------------------------------------------------------------------------- *
 *
 * These three functions never change incompatibly, whatever MR_C_API_VERSION becomes, so a program can
 * always call them to check the library it runs against:
 *
 *     uint32_t api = 0;
 *     if (mrGetCApiVersion(&api) != MR_OK || api != MR_C_API_VERSION)
 *         ... built against another C API than the library's: do not use it ...
 */

/* The library's version: MR_VERSION_MAJOR, _MINOR and _PATCH as they were when it was built.
 * Fails: MR_INVALID_ARGUMENT (a pointer NULL). */
MR_API MrResult mrGetVersion(uint32_t* major, uint32_t* minor, uint32_t* patch);

/* *out receives the library's MR_VERSION_STRING ("MAJOR.MINOR.PATCH"), a static string that is never freed.
 * Fails: MR_INVALID_ARGUMENT (out NULL). */
MR_API MrResult mrGetVersionString(const char** out);

/* *out receives the MR_C_API_VERSION the library was built with.
 * Fails: MR_INVALID_ARGUMENT (out NULL). */
MR_API MrResult mrGetCApiVersion(uint32_t* out);

/* ---- instruction set ------------------------------------------------------------------------------ *
 *
 * The solver's vector kernels come in three builds, and the library picks the widest this processor runs
 * when it first starts: "avx2" (x86-64 with AVX2 and FMA), "sse2" (any x86-64) or "scalar" (other
 * processors). Every path runs every rig; each is deterministic on its own, and their results differ in
 * the last bits (the order of rounding). */

/* *nameOut receives the instruction set the kernels use now: "avx2", "sse2" or "scalar" (a static string).
 * Fails: MR_INVALID_ARGUMENT (nameOut NULL). */
MR_API MrResult mrGetInstructionSet(const char** nameOut);

/* Limits the kernels to `name` ("scalar", "sse2" or "avx2"), to compare the paths or to reproduce a run of
 * a machine that lacks the wider one. It applies to every world of the process: call it between steps.
 * Fails: MR_INVALID_ARGUMENT (name NULL, not one of the three, or an instruction set this processor cannot
 * run; nothing changes and mrLastError() quotes the name). */
MR_API MrResult mrUseInstructionSet(const char* name);

/* ---- value types --------------------------------------------------------------------------------- */

typedef struct MrVec3 { float x, y, z; } MrVec3;

/* Unit quaternion; rotation by angle t about unit axis a is (a*sin(t/2), cos(t/2)). Identity: {0,0,0,1}. */
typedef struct MrQuat { float x, y, z, w; } MrQuat;

/* Rigid transform applied to a point p as rotation*p + translation. rotation must be a unit quaternion
 * (|q| within 1e-3 of 1; it is renormalised). */
typedef struct MrTransform {
    MrQuat rotation;
    MrVec3 translation;
} MrTransform;

/* 4x4 matrix, column-major (OpenGL order): element (row r, column c) is m[c*4 + r]; translation is
 * m[12], m[13], m[14]. Upload as is. */
typedef struct MrMat4 { float m[16]; } MrMat4;

/* Opaque handles. */
typedef struct MrRig MrRig;
typedef struct MrWorld MrWorld;

/* A ragdoll in a world. 0 is never a valid handle. A handle is never reused after mrWorldRemove(). */
typedef uint64_t MrRagdoll;
#define MR_INVALID_RAGDOLL ((MrRagdoll)0)

/* ---- rig descriptions (mrRigCreate) -------------------------------------------------------------- *
 *
 * Start every element from its *Default() initialiser and change the fields you need: a zeroed struct
 * is NOT the default (mass 0 is kinematic, stiffness 0 is rejected, restLength 0 is a zero-length stick).
 * Indices are 0-based positions in the corresponding array. Names are optional (NULL = unnamed), are
 * copied, and appear in validation messages. Booleans are int: 0 false, anything else true. */

/* A point mass. */
typedef struct MrParticleDesc {
    const char* name;
    MrVec3 position;   /* bind position (model space of the bind pose); |coordinates| <= 1e6 */
    float mass;        /* kg in [0, 1e6]; 0 = kinematic (moved only by the caller / pins)   default 1 */
    float radius;      /* collision sphere radius in [0, 100]; 0 = point                   default 0.05 */
    uint32_t group;    /* collision group bits                                              default 1 */
    uint32_t mask;     /* groups it collides with                                           default ~0 */
} MrParticleDesc;

/* How a stick constrains its length L. Values of MrStickDesc.kind. */
typedef enum MrStickKind {
    MR_STICK_RIGID = 0,    /* L = restLength */
    MR_STICK_RANGE = 1,    /* minLength <= L <= maxLength */
    MR_STICK_MIN_ONLY = 2, /* L >= minLength */
    MR_STICK_MAX_ONLY = 3  /* L <= maxLength (rope) */
} MrStickKind;

/* A distance link between particles a and b (distinct). */
typedef struct MrStickDesc {
    const char* name;
    int32_t a, b;          /* particle indices */
    int32_t kind;          /* an MrStickKind                                           default RIGID */
    float restLength;      /* RIGID: target length; < 0 = the bind distance                default -1 */
    float minLength;       /* RANGE / MIN_ONLY, [0, 1e6]                                   default 0 */
    float maxLength;       /* RANGE / MAX_ONLY, [minLength, 1e6]                           default 0 */
    float stiffness;       /* (0, 1]: fraction of the correction per iteration              default 1 */
    float compliance;      /* compliance (m/N) >= 0, used by MR_SOLVER_XPBD and _DIRECT    default 0 */
    float tearRatio;       /* 0 = never tears, else > 1: tears when L > ratio * rest/max     default 0 */
    float capsuleRadius;   /* > 0 gives the stick a collision capsule, [0, 100]             default 0 */
    uint32_t group;        /* capsule collision group bits                                   default 1 */
    uint32_t mask;         /* capsule collision mask                                        default ~0 */
} MrStickDesc;

/* Values of MrAngleDesc.form. */
typedef enum MrAngleForm {
    MR_ANGLE_DOT_PRODUCT = 0,   /* angle projection on the three particles */
    MR_ANGLE_LAW_OF_COSINES = 1 /* becomes a min/max distance link between a and b */
} MrAngleForm;

/* Keeps the angle at `center` between the arms to a and b inside [minAngle, maxAngle]. */
typedef struct MrAngleDesc {
    const char* name;
    int32_t center, a, b;  /* three distinct particle indices */
    float minAngle;        /* radians, [0, pi]                                             default 0 */
    float maxAngle;        /* radians, [minAngle, pi]                                      default pi */
    float stiffness;       /* (0, 1]                                                       default 1 */
    int32_t form;          /* an MrAngleForm                                     default DOT_PRODUCT */
} MrAngleDesc;

/* A body part with a full orientation: frame up = p1 - p0, facing = up x (p2 - p0). The three particles
 * must be distinct and not collinear in the bind pose. */
typedef struct MrTriangleDesc {
    const char* name;
    int32_t p[3];
} MrTriangleDesc;

/* Values of MrAngularDesc.limit. */
typedef enum MrAngularLimit {
    MR_ANGULAR_CONE = 0,       /* total deviation from the rest relative orientation <= coneAngle */
    MR_ANGULAR_SWING_TWIST = 1 /* twist in [twistMin, twistMax] about twistAxis, swing inside an ellipse */
} MrAngularLimit;

/* Orientation limit between triangles A and B (distinct), with angular friction. */
typedef struct MrAngularDesc {
    const char* name;
    int32_t triangleA, triangleB;
    int32_t limit;               /* an MrAngularLimit                                  default CONE */
    float coneAngle;             /* CONE: radians, [0, pi]                           default 60 deg */
    MrVec3 twistAxis;            /* SWING_TWIST: unit axis in B's triangle frame        default +Y */
    MrVec3 swingAxis1;           /* SWING_TWIST: unit, perpendicular to twistAxis       default +X */
    float twistMin, twistMax;    /* radians, -pi <= twistMin <= twistMax <= pi     default -45/45 deg */
    float swing1, swing2;        /* radians, [0, pi]: about swingAxis1 / swingAxis1 x twistAxis
                                                                                    default 45/45 deg */
    float stiffness;             /* (0, 1]                                                default 1 */
    float damping;               /* 1/s [0, 1000]: the joint's relative spin decays as e^(-damping t)
                                                                                        default 0 */
    float staticFrictionSpeed;   /* rad/s [0, 100]: a joint turning slower than this is held default 0 */
    int32_t hasRestOrientation;  /* 0 = capture R_A^T R_B from the bind pose               default 0 */
    MrQuat restOrientation;      /* R_A^T R_B at rest when hasRestOrientation (unit)  default identity */
} MrAngularDesc;

/* A particle held to a world-space target from spawn on (release it with mrRagdollReleasePin()). */
typedef struct MrPinDesc {
    const char* name;
    int32_t particle;
    MrVec3 target;         /* world space */
    float stiffness;       /* (0, 1]: fraction of the way to the target per 1/60 s          default 1 */
    int32_t kinematic;     /* non-zero: immovable and placed exactly on the target          default 1 */
} MrPinDesc;

/* Values of MrRigSettings.solver. */
typedef enum MrSolverMode {
    MR_SOLVER_GAUSS_SEIDEL = 0, /* constraints one after another; overRelaxation is the SOR factor */
    MR_SOLVER_JACOBI = 1,       /* corrections averaged per particle then applied */
    MR_SOLVER_XPBD = 2,         /* compliance based: stiffness independent of step and iterations */
    MR_SOLVER_DIRECT = 3        /* sticks, limits and contacts projected together by a direct solve */
} MrSolverMode;

/* Per-rig solver settings. Gravity and the time step belong to the world (MrWorldSettings). Rates are per
 * second, so a rig behaves the same at any substep count. */
typedef struct MrRigSettings {
    uint32_t substeps;         /* solver substeps per world step, [1, 64]                     default 8 */
    uint32_t iterations;       /* per substep, [1, 64]: Newton steps (DIRECT) or sweeps       default 3 */
    float damping;             /* 1/s [0, 100]: velocities decay as e^(-damping t)          default 0.6 */
    float friction;            /* contact friction coefficient, [0, 1e4]                   default 0.6 */
    float staticFrictionSpeed; /* m/s [0, 100]: contacts sliding slower than this stick   default 0.12 */
    float sleepVelocity;       /* m/s, [0, 100]: sleep when all particles are slower...    default 0.05 */
    float sleepTime;           /* ...for this long, seconds [0, 3600]; 0 disables sleep      default 1 */
    float overRelaxation;      /* [1, 1.99]: Gauss-Seidel SOR / Jacobi averaging factor      default 1 */
    int32_t sqrtApproximation; /* non-zero: one-Newton-step square root for sticks          default 0 */
    int32_t solver;            /* an MrSolverMode                                        default DIRECT */
} MrRigSettings;

/* ---- drive profiles of a rig description (powered ragdolls) ------------------------------------ *
 *
 * A drive profile is a named set of gains saying how strongly each body part (a triangle's frame or a
 * stick's direction) follows an animation's pose: a motor springs the part's orientation relative to its
 * parent part toward the target's, a pin springs its particles toward their target world positions, and a
 * kinematic part follows the target exactly. Each spring is given by a natural frequency and a damping
 * ratio, so the same gains behave alike on light and heavy parts and at any substep count; a frequency of
 * 0 turns that spring off. Parts a profile does not list get its defaults. Rigs carry profiles from
 * MrRigDesc.profiles or from a .mrig file (format 1.3); the functions below look them up. */

typedef struct MrDriveGains {
    float motorFrequency; /* Hz, [0, 60]: the motor's natural frequency; 0 = no motor              default 0 */
    float motorDamping;   /* damping ratio, [0, 10] (1 = critically damped)                        default 1 */
    float maxTorque;      /* N m, [0, 1e6]: the most the motor applies; 0 = no limit               default 0 */
    float pinFrequency;   /* Hz, [0, 60]: the pin's natural frequency; 0 = no pin                  default 0 */
    float pinDamping;     /* damping ratio, [0, 10]                                                default 1 */
    float maxForce;       /* N per particle, [0, 1e6]: the most the pin applies; 0 = no limit      default 0 */
    int32_t kinematic;    /* non-zero: the part follows the target exactly                         default 0 */
} MrDriveGains;

typedef enum MrDrivePartKind {
    MR_DRIVE_PART_TRIANGLE = 0, /* index is into MrRigDesc.triangles */
    MR_DRIVE_PART_STICK = 1     /* index is into MrRigDesc.sticks */
} MrDrivePartKind;

/* One part a profile gives its own gains; each part at most once per profile. */
typedef struct MrDrivePartDesc {
    int32_t kind;          /* an MrDrivePartKind                                            default TRIANGLE */
    int32_t index;         /* triangle or stick index                                               default 0 */
    MrDriveGains gains;    /*                                                        default mrDriveGainsDefault() */
} MrDrivePartDesc;

typedef struct MrDriveProfileDesc {
    const char* name;             /* required: non-empty and unique among the rig's profiles (copied) */
    MrDriveGains defaults;        /* the gains of every part not in `parts`                           */
    const MrDrivePartDesc* parts; /* may be NULL when partCount is 0                                   */
    size_t partCount;
} MrDriveProfileDesc;

/* Initialisers returning the documented defaults: every spring off (a limp part), not kinematic; a part
 * on triangle 0 with those gains; a profile without a name, with those defaults and no parts. */
MR_API MrDriveGains mrDriveGainsDefault(void);
MR_API MrDrivePartDesc mrDrivePartDescDefault(void);
MR_API MrDriveProfileDesc mrDriveProfileDescDefault(void);

/* A whole rig as arrays. A count may be 0 with a NULL pointer; a non-zero count needs a non-NULL
 * pointer to at least that many elements. At least one particle is required. Rigs built this way have
 * no skeleton (mrRigBoneCount() is 0).
 *
 * C API version 2 appended `profiles` and `profileCount` at the end. A program that starts from
 * mrRigDescDefault() (or zero-initialises the struct) and sets the fields it uses compiles unchanged and
 * gets no profiles; a binary built against version 1 must be rebuilt (the struct is larger), which
 * mrGetCApiVersion() tells it. */
typedef struct MrRigDesc {
    const char* name;                  /* optional */
    const MrParticleDesc* particles;
    size_t particleCount;
    const MrStickDesc* sticks;
    size_t stickCount;
    const MrAngleDesc* angles;
    size_t angleCount;
    const MrTriangleDesc* triangles;
    size_t triangleCount;
    const MrAngularDesc* angular;
    size_t angularCount;
    const MrPinDesc* pins;
    size_t pinCount;
    MrRigSettings settings;
    const MrDriveProfileDesc* profiles; /* drive profiles (C API version 2); NULL with profileCount 0: none */
    size_t profileCount;
} MrRigDesc;

/* Initialisers returning the documented defaults. MrRigDesc: no elements, no profiles, default settings. */
MR_API MrRigDesc mrRigDescDefault(void);
MR_API MrRigSettings mrRigSettingsDefault(void);
MR_API MrParticleDesc mrParticleDescDefault(void);
MR_API MrStickDesc mrStickDescDefault(void);
MR_API MrAngleDesc mrAngleDescDefault(void);
MR_API MrTriangleDesc mrTriangleDescDefault(void);
MR_API MrAngularDesc mrAngularDescDefault(void);
MR_API MrPinDesc mrPinDescDefault(void);

/* ---- rigs ---------------------------------------------------------------------------------------- *
 *
 * A rig is the compiled, immutable description shared by every ragdoll spawned from it. It is reference
 * counted: a new rig has one reference; mrRigRetain() adds one, mrRigRelease() drops one and frees the
 * handle at zero. Ragdolls hold their own reference to the compiled rig, so releasing a rig while
 * ragdolls spawned from it are alive is safe (they keep it alive until they are removed). */

/* Procedural humanoid standing on y = 0 facing +Z in a T-pose: 20 particles, 11 triangles, 10 angular
 * joints, self-collision, and a 14-bone skeleton (11 triangle-driven, the neck stick-driven, the
 * hands unbound: they follow their parents). height in [0.1, 100] m (top of the head), mass in
 * (0, 1e6] kg (total). *out receives a new rig.
 * Fails: MR_INVALID_ARGUMENT (out NULL, value out of range or not finite), MR_OUT_OF_MEMORY. */
MR_API MrResult mrRigCreateHumanoid(float height, float mass, MrRig** out);

/* Cloth sheet of cols x rows particles `spacing` apart in the XY plane, hanging from its top row at
 * y = 0 downward (the top row is kinematic when pinTopRow is non-zero), with structural sticks.
 * cols, rows in [1, 4096] with cols*rows <= 1048576; spacing in (0, 100]; tearRatio 0 (never tears)
 * or in (1, 1e6]. No skeleton.
 * Fails: MR_INVALID_ARGUMENT, MR_OUT_OF_MEMORY. */
MR_API MrResult mrRigCreateCloth(int cols, int rows, float spacing, int pinTopRow, float tearRatio, MrRig** out);

/* Crate centred at the origin: a particle tetrahedron carrying a collision box of half extents `half`
 * (each in (0, 1e3]), total mass in (0, 1e6]. No skeleton.
 * Fails: MR_INVALID_ARGUMENT, MR_INVALID_RIG (a box so small that its tetrahedron is degenerate),
 * MR_OUT_OF_MEMORY. */
MR_API MrResult mrRigCreateCrate(MrVec3 half, float mass, MrRig** out);

/* Compiles a rig from arrays (copied; desc may be freed afterwards), with its drive profiles.
 * Fails: MR_INVALID_ARGUMENT (desc or out NULL, NULL array with a non-zero count, a count above
 * INT32_MAX), MR_INVALID_RIG (validation failed; mrLastError() names the first bad element, e.g.
 * "sticks[0] 'rope': particle b index 7 out of range (2 particles)", or profile, e.g.
 * "driveProfiles[0] 'stagger': parts[0].gains.motorFrequency 70 outside [0, 60]"). */
MR_API MrResult mrRigCreate(const MrRigDesc* desc, MrRig** out);

/* Loads a .mrig file (formats/rig/FORMAT.md) and compiles it. Any bytes are safe: a damaged, truncated
 * or hostile file is refused, never read out of bounds.
 * Fails: MR_INVALID_ARGUMENT (path or out NULL), MR_INVALID_RIG (unreadable, malformed or invalid file;
 * mrLastError() starts with the path and names the chunk and field, e.g. "hero.mrig: STCK[12].particleB:
 * index 40 out of range (31 particles)"), MR_OUT_OF_MEMORY. */
MR_API MrResult mrRigLoadFile(const char* path, MrRig** out);

/* mrRigLoadFile() from `size` bytes at `data` (copied; may be freed afterwards).
 * Fails: MR_INVALID_ARGUMENT (data NULL with a non-zero size, out NULL), MR_INVALID_RIG, MR_OUT_OF_MEMORY. */
MR_API MrResult mrRigLoadMemory(const void* data, size_t size, MrRig** out);

/* Adds a reference to rig. Fails: MR_INVALID_ARGUMENT (rig NULL). */
MR_API MrResult mrRigRetain(MrRig* rig);

/* Drops a reference; the handle is freed when the last one goes (ragdolls keep the compiled rig alive
 * on their own). NULL is a no-op returning MR_OK. */
MR_API MrResult mrRigRelease(MrRig* rig);

/* Number of particles / description sticks / bones (skeleton bones; 0 for rigs without a skeleton).
 * Fails: MR_INVALID_ARGUMENT (a pointer NULL). */
MR_API MrResult mrRigParticleCount(const MrRig* rig, uint32_t* count);
MR_API MrResult mrRigStickCount(const MrRig* rig, uint32_t* count);
MR_API MrResult mrRigBoneCount(const MrRig* rig, uint32_t* count);

/* *out receives the rig's solver settings: those given to mrRigCreate(), the defaults for the procedural
 * rigs, or those stored in the .mrig file (every field of MrRigSettings; a file's world-level gravity and
 * time step are not reported, see MrWorldSettings).
 * Fails: MR_INVALID_ARGUMENT (a pointer NULL). */
MR_API MrResult mrRigGetSettings(const MrRig* rig, MrRigSettings* out);

/* *on receives 1 when the capsules of one ragdoll of this rig collide with each other (self-collision,
 * filtered by their groups and masks), else 0.
 * Fails: MR_INVALID_ARGUMENT (a pointer NULL). */
MR_API MrResult mrRigSelfCollision(const MrRig* rig, int32_t* on);

/* ---- names ----------------------------------------------------------------------------------------- *
 *
 * Every element of a rig has a name: the one it was created with (MrRigDesc, a procedural rig, a .mrig
 * file), or "" when it has none. Returned names are never NULL, are UTF-8 by convention, and stay valid
 * as long as the rig does (until the mrRigRelease() that drops its last reference); do not free them.
 * Names need not be unique: a lookup by name returns the lowest index with that exact (case-sensitive)
 * name, and "" finds nothing. Lookups compare names one by one: do them once after loading, not every
 * frame. Indices are those of the rig description (the order of MrRigDesc's arrays or of the file). */

/* Kinds of named elements. Values of the `kind` parameters below. */
typedef enum MrElementKind {
    MR_ELEMENT_PARTICLE = 0, /* MrRigDesc.particles: the indices of mrRagdollGetPositions() and impulses */
    MR_ELEMENT_STICK = 1,    /* MrRigDesc.sticks: description sticks (mrRagdollIsStickTorn() ...) */
    MR_ELEMENT_ANGLE = 2,    /* MrRigDesc.angles: angle constraints */
    MR_ELEMENT_TRIANGLE = 3, /* MrRigDesc.triangles */
    MR_ELEMENT_ANGULAR = 4,  /* MrRigDesc.angular: angular constraints */
    MR_ELEMENT_BONE = 5      /* skeleton bones: the order of the bone and skinning matrices */
} MrElementKind;

/* *name receives the rig's own name ("" when it has none). Fails: MR_INVALID_ARGUMENT (a pointer NULL). */
MR_API MrResult mrRigName(const MrRig* rig, const char** name);

/* *count receives the number of elements of `kind` (an MrElementKind).
 * Fails: MR_INVALID_ARGUMENT (a pointer NULL, kind not an MrElementKind). */
MR_API MrResult mrRigElementCount(const MrRig* rig, int32_t kind, uint32_t* count);

/* *name receives the name of element `index` of `kind`.
 * Fails: MR_INVALID_ARGUMENT (a pointer NULL, kind not an MrElementKind, index >= the count). */
MR_API MrResult mrRigElementName(const MrRig* rig, int32_t kind, uint32_t index, const char** name);

/* *index receives the lowest index of an element of `kind` named `name`.
 * Fails: MR_INVALID_ARGUMENT (a pointer NULL, kind not an MrElementKind), MR_NOT_FOUND (no element of that
 * kind has that name, or name is ""; mrLastError() quotes the name). */
MR_API MrResult mrRigFindElement(const MrRig* rig, int32_t kind, const char* name, uint32_t* index);

/* Bones, by index in [0, mrRigBoneCount()) (the order of mrRagdollGetBoneMatrices()). mrRigBoneName() and
 * mrRigFindBone() are mrRigElementName() and mrRigFindElement() with MR_ELEMENT_BONE.
 * *parent receives the index of the bone's parent (always lower than the bone's own), or -1 for a root.
 * All three fail: MR_INVALID_ARGUMENT (a pointer NULL, bone index out of range), and mrRigFindBone()
 * MR_NOT_FOUND (no bone has that name, or name is ""). */
MR_API MrResult mrRigBoneName(const MrRig* rig, uint32_t bone, const char** name);
MR_API MrResult mrRigBoneParent(const MrRig* rig, uint32_t bone, int32_t* parent);
MR_API MrResult mrRigFindBone(const MrRig* rig, const char* name, uint32_t* bone);

/* ---- drive profiles of a rig ------------------------------------------------------------------------ *
 *
 * The rig's drive profiles, by index in [0, count) (the order of MrRigDesc.profiles or of the file); what
 * uses them on a ragdoll is below with the ragdolls. Names are unique within a rig and stay valid as long
 * as the rig does.
 * mrRigDriveProfileCount(): *count receives the number of profiles (0 for the procedural rigs).
 * mrRigDriveProfileName(): *name receives the name of profile `profile`.
 * mrRigFindDriveProfile(): *profile receives the index of the profile named `name`.
 * All three fail: MR_INVALID_ARGUMENT (a pointer NULL, profile index out of range), and
 * mrRigFindDriveProfile() MR_NOT_FOUND (no profile has that name, or name is ""; mrLastError() quotes the
 * name). */
MR_API MrResult mrRigDriveProfileCount(const MrRig* rig, uint32_t* count);
MR_API MrResult mrRigDriveProfileName(const MrRig* rig, uint32_t profile, const char** name);
MR_API MrResult mrRigFindDriveProfile(const MrRig* rig, const char* name, uint32_t* profile);

/* ---- worlds -------------------------------------------------------------------------------------- */

typedef struct MrWorldSettings {
    MrVec3 gravity;             /* m/s^2, finite                                     default (0,-9.81,0) */
    float timeStep;             /* fixed step in seconds, (0, 0.1]                         default 1/60 */
    uint32_t maxSubsteps;       /* steps mrWorldAdvance() may take per call, [1, 64]          default 4 */
    uint32_t threads;           /* threads stepping ragdolls, including the caller, [1, 64]   default 1 */
    int32_t ragdollCollisions;  /* non-zero: ragdolls collide with each other                 default 1 */
    int32_t sleep;              /* non-zero: resting ragdolls may fall asleep                 default 1 */
    uint32_t contactsPerRagdoll;/* contact buffer reserved per spawned ragdoll, [1, 65536]  default 96 */
} MrWorldSettings;

MR_API MrWorldSettings mrWorldSettingsDefault(void);

/* *out receives the world settings the rig was authored with: mrWorldSettingsDefault() with the gravity,
 * fixed time step and steps per advance stored in the rig (the editor's preview and `marionette simulate` run
 * it so). A game passes them to mrWorldCreate() to play the rig as its artist saw it.
 * Fails: MR_INVALID_ARGUMENT (a pointer NULL). */
MR_API MrResult mrRigAuthoredWorldSettings(const MrRig* rig, MrWorldSettings* out);

/* Creates an empty world. settings NULL = mrWorldSettingsDefault(). *out receives the new world.
 * Fails: MR_INVALID_ARGUMENT (out NULL, a setting out of range), MR_OUT_OF_MEMORY. */
MR_API MrResult mrWorldCreate(const MrWorldSettings* settings, MrWorld** out);

/* Destroys the world and every ragdoll in it (their handles become invalid). NULL is a no-op (MR_OK). */
MR_API MrResult mrWorldDestroy(MrWorld* world);

/* Changes gravity between steps (wakes every ragdoll). Fails: MR_INVALID_ARGUMENT (not finite). */
MR_API MrResult mrWorldSetGravity(MrWorld* world, MrVec3 gravity);

/* Static collision geometry, added between steps. idOut (optional, may be NULL) receives the shape's
 * index among shapes of its kind.
 *
 * Plane: the half-space dot(n, x) <= offset is solid; normal is normalised here (must be finite and
 * non-zero). The ground is normal (0,1,0), offset 0. */
MR_API MrResult mrWorldAddPlane(MrWorld* world, MrVec3 normal, float offset, int32_t* idOut);
/* Box of half extents `half` (each > 0) at `pose` (NULL = identity). */
MR_API MrResult mrWorldAddBox(MrWorld* world, const MrTransform* pose, MrVec3 half, int32_t* idOut);
/* Sphere: radius > 0. */
MR_API MrResult mrWorldAddSphere(MrWorld* world, MrVec3 centre, float radius, int32_t* idOut);
/* Capsule: segment a-b swept by radius > 0. */
MR_API MrResult mrWorldAddCapsule(MrWorld* world, MrVec3 a, MrVec3 b, float radius, int32_t* idOut);
/* Triangle mesh (e.g. a level): `vertices` holds vertexCount points as x,y,z floats (3*vertexCount
 * floats, all finite), `indices` holds indexCount vertex indices (a multiple of 3, each < vertexCount).
 * Degenerate triangles are ignored. Both arrays are copied.
 * All four: Fails MR_INVALID_ARGUMENT (world NULL, non-finite or out-of-range values, NULL arrays with
 * non-zero counts), MR_OUT_OF_MEMORY. */
MR_API MrResult mrWorldAddTriangleMesh(MrWorld* world, const float* vertices, size_t vertexCount,
                                       const uint32_t* indices, size_t indexCount, int32_t* idOut);

/* Spawns a ragdoll of `rig` in its bind pose transformed by `placement` (NULL = identity), moving at
 * `velocity` (m/s, finite). The ragdoll holds its own reference to the rig. Allocates its state here
 * (stepping never allocates). *out receives the handle.
 * Fails: MR_INVALID_ARGUMENT (NULL world/rig/out, non-unit rotation, non-finite values),
 * MR_OUT_OF_MEMORY. */
MR_API MrResult mrWorldSpawn(MrWorld* world, const MrRig* rig, const MrTransform* placement, MrVec3 velocity,
                             MrRagdoll* out);

/* Removes a ragdoll; its handle is never valid again. Fails: MR_INVALID_ARGUMENT (world NULL),
 * MR_NOT_FOUND (handle not live in this world, including 0). */
MR_API MrResult mrWorldRemove(MrWorld* world, MrRagdoll ragdoll);

/* Number of live ragdolls. Fails: MR_INVALID_ARGUMENT. */
MR_API MrResult mrWorldRagdollCount(const MrWorld* world, uint32_t* count);

/* Runs exactly one fixed step of settings.timeStep. Fails: MR_INVALID_ARGUMENT (world NULL). */
MR_API MrResult mrWorldStep(MrWorld* world);

/* Adds `seconds` (finite, >= 0; values above 1 count as 1) to the fixed-step accumulator and runs as many
 * steps as fit, at most maxSubsteps (excess time is dropped). stepsOut (optional) receives the number of
 * steps taken. Fails: MR_INVALID_ARGUMENT. */
MR_API MrResult mrWorldAdvance(MrWorld* world, float seconds, uint32_t* stepsOut);

/* Render blend factor in [0, 1): leftover accumulator time / time step. Pass it as `alpha` to
 * mrRagdollGetPositions() and the matrix getters. Fails: MR_INVALID_ARGUMENT. */
MR_API MrResult mrWorldInterpolation(const MrWorld* world, float* alphaOut);

/* Measurements of a world. "Now" counts describe the world at the call; "last step" ones the most recent
 * fixed step (all 0 before the first). */
typedef struct MrWorldStats {
    uint64_t steps;            /* fixed steps taken since the world was created (simulated time: steps *
                                  timeStep) */
    double lastStepSeconds;    /* wall-clock seconds the last step took; after an mrWorldAdvance() that
                                  took several steps, their average */
    uint32_t ragdolls;         /* live ragdolls, now (mrWorldRagdollCount()) */
    uint32_t asleepRagdolls;   /* live ragdolls asleep, now (not simulated until touched or woken) */
    uint32_t awakeRagdolls;    /* ragdolls simulated in the last step */
    uint32_t islands;          /* groups of touching ragdolls solved together in the last step */
    uint32_t ragdollPairs;     /* broadphase pairs of ragdolls with overlapping bounds, last step */
    uint32_t ragdollContacts;  /* contact candidates between ragdolls, last step */
    uint32_t staticContacts;   /* contact candidates with static geometry, over the ragdolls awake in the
                                  last step */
    uint32_t droppedContacts;  /* contact candidates that did not fit the buffers in the last step (they
                                  were ignored); above 0, raise MrWorldSettings.contactsPerRagdoll */
} MrWorldStats;

/* *out receives the world's measurements (the last step records them; asleepRagdolls
 * looks at each ragdoll once).
 * Fails: MR_INVALID_ARGUMENT (a pointer NULL). */
MR_API MrResult mrWorldGetStats(const MrWorld* world, MrWorldStats* out);

/* The direct solver's work in the last step (rigs whose solver is direct; 0 before the first step and for
 * the other solvers), summed over the ragdolls awake in it: *newtonSteps the projections taken (at least
 * one per substep for each such ragdoll) and *factorizations the factorisations they needed (one per
 * projection, and one more each time a contact is let go and the body solved again). Either pointer may be
 * NULL. Fails: MR_INVALID_ARGUMENT (world NULL). */
MR_API MrResult mrWorldGetSolverCounts(const MrWorld* world, uint32_t* newtonSteps, uint32_t* factorizations);

/* Explosion at `centre` affecting every ragdoll: each movable particle within `radius` (> 0) gains
 * velocity strength / max(d^2, minDistance^2) (m/s; strength in m^3/s, finite, negative pulls inward)
 * away from the centre. minDistance > 0 (0.25 is typical). Fails: MR_INVALID_ARGUMENT. */
MR_API MrResult mrWorldExplosion(MrWorld* world, MrVec3 centre, float strength, float radius, float minDistance);

/* ---- ragdolls ------------------------------------------------------------------------------------ *
 *
 * All of these fail with MR_INVALID_ARGUMENT when world is NULL and MR_NOT_FOUND when the handle does
 * not name a live ragdoll of that world. Motion control applies between steps and wakes the ragdoll.
 * Particle indices are those of the rig description; stick indices are description sticks. */

/* Instant impulse J (N*s, finite) on a particle: its velocity changes by J / mass.
 * Fails: MR_INVALID_ARGUMENT (particle out of range or kinematic/kinematically pinned). */
MR_API MrResult mrRagdollApplyImpulse(MrWorld* world, MrRagdoll ragdoll, uint32_t particle, MrVec3 impulse);

/* Impulse at the point lerp(a, b, t) of description stick `stick`, t in [0, 1], shared by its ends.
 * Fails: MR_INVALID_ARGUMENT (stick out of range, t outside [0, 1], both ends immovable). */
MR_API MrResult mrRagdollApplyImpulseOnStick(MrWorld* world, MrRagdoll ragdoll, uint32_t stick, float t,
                                             MrVec3 impulse);

/* Holds a particle at `target` (world space, finite): kinematic (non-zero: immovable, placed exactly)
 * or a soft pull of `stiffness` in (0, 1] of the way per 1/60 s. Calling it again for the same particle moves
 * the pin. At most 16 pins beyond those of the rig.
 * Fails: MR_INVALID_ARGUMENT (particle out of range, bad values, all pin slots used). */
MR_API MrResult mrRagdollSetPin(MrWorld* world, MrRagdoll ragdoll, uint32_t particle, MrVec3 target,
                                float stiffness, int kinematic);

/* Releases the pin on a particle (set by mrRagdollSetPin() or by the rig); the particle keeps its
 * velocity. Fails: MR_INVALID_ARGUMENT (particle out of range), MR_NOT_FOUND (no pin on it). */
MR_API MrResult mrRagdollReleasePin(MrWorld* world, MrRagdoll ragdoll, uint32_t particle);

/* Places the particles at `current` with previous positions `previous` (two animation poses one time
 * step apart: the ragdoll inherits their velocity). previous NULL = current (at rest). count must equal
 * the rig's particle count; all points finite.
 * Fails: MR_INVALID_ARGUMENT. */
MR_API MrResult mrRagdollSetPose(MrWorld* world, MrRagdoll ragdoll, const MrVec3* current,
                                 const MrVec3* previous, size_t count);

/* Particle positions interpolated between the last two steps by alpha in [0, 1] (1 = latest step; see
 * mrWorldInterpolation()). *count (required) receives the particle count as soon as world, ragdoll and
 * alpha are valid, even if the call then fails. With out NULL and capacity 0 only the count is written
 * (a size query). If capacity is smaller than the count, the call fails with MR_INVALID_ARGUMENT without
 * touching out.
 * Fails: MR_INVALID_ARGUMENT (count NULL, out NULL with capacity > 0, capacity too small, alpha). */
MR_API MrResult mrRagdollGetPositions(MrWorld* world, MrRagdoll ragdoll, MrVec3* out, size_t capacity,
                                      size_t* count, float alpha);

/* Bone world matrices (model space of the scene the rig was authored in), interpolated by alpha in
 * [0, 1]; *count receives the bone count (mrRigBoneCount()). Same buffer rules as
 * mrRagdollGetPositions(). */
MR_API MrResult mrRagdollGetBoneMatrices(MrWorld* world, MrRagdoll ragdoll, MrMat4* out, size_t capacity,
                                         size_t* count, float alpha);

/* Skinning palette: bone world matrix x inverse bind matrix, interpolated by alpha in [0, 1]. Same
 * buffer rules as mrRagdollGetPositions(). */
MR_API MrResult mrRagdollGetSkinningMatrices(MrWorld* world, MrRagdoll ragdoll, MrMat4* out, size_t capacity,
                                             size_t* count, float alpha);

/* *asleep receives 1 when the ragdoll is asleep (not simulated until touched or woken), else 0.
 * Fails: MR_INVALID_ARGUMENT (asleep NULL). */
MR_API MrResult mrRagdollIsAsleep(const MrWorld* world, MrRagdoll ragdoll, int* asleep);

/* Wakes a sleeping ragdoll. */
MR_API MrResult mrRagdollWake(MrWorld* world, MrRagdoll ragdoll);

/* *torn receives 1 once description stick `stick` has torn, else 0.
 * Fails: MR_INVALID_ARGUMENT (stick out of range, torn NULL). */
MR_API MrResult mrRagdollIsStickTorn(const MrWorld* world, MrRagdoll ragdoll, uint32_t stick, int* torn);

/* ---- drives (powered ragdolls) -------------------------------------------------------------------- *
 *
 * A ragdoll can follow an animation while it stays physical (docs/physics.md, "Drives"). Give it a pose
 * target every frame (the bone world matrices your animation computes, in mrRagdollGetBoneMatrices()'s order
 * and space) and gains per part saying how strongly each part follows it: a motor on its orientation relative
 * to its parent part, a pin on its particles' world positions, or kinematic. Parts are the rig's triangles
 * (part i = triangle i) followed by the sticks that drive a bone or that a profile names
 * (mrRigDrivePartCount(), mrRigDrivePart()). Gains of zero everywhere (the default) are the passive ragdoll.
 * Every function checks everything first and changes nothing when it fails. None allocates.
 *
 * mrRigDrivePartCount(): *count receives the number of parts.
 * mrRigDrivePart(): *kind (an MrDrivePartKind) and *index (triangle or stick index) of part `part`.
 * Both fail: MR_INVALID_ARGUMENT (a pointer NULL, part out of range). */
MR_API MrResult mrRigDrivePartCount(const MrRig* rig, uint32_t* count);
MR_API MrResult mrRigDrivePart(const MrRig* rig, uint32_t part, int32_t* kind, uint32_t* index);

/* Pose target from a bone palette: `count` must be the rig's bone count, every matrix finite. The next step
 * moves the targets from the last ones to these. Fails: MR_INVALID_ARGUMENT (NULL, wrong count, non-finite),
 * MR_NOT_FOUND (ragdoll). */
MR_API MrResult mrRagdollSetPoseTarget(MrWorld* world, MrRagdoll ragdoll, const MrMat4* boneWorld, size_t count);
/* Pose target as one world position per particle (`count` = the particle count, all finite). */
MR_API MrResult mrRagdollSetParticleTargets(MrWorld* world, MrRagdoll ragdoll, const MrVec3* targets, size_t count);
/* Forgets the pose target: the drives stop acting (the gains are kept), kinematic parts simulate again. */
MR_API MrResult mrRagdollClearPoseTarget(MrWorld* world, MrRagdoll ragdoll);
/* Blends the gains to those of the rig's profile `name` over `seconds` (0: at once; in [0, 3600]).
 * Fails: MR_NOT_FOUND (no such profile; the message lists the rig's), MR_INVALID_ARGUMENT. */
MR_API MrResult mrRagdollSetDriveProfile(MrWorld* world, MrRagdoll ragdoll, const char* name, float seconds);
/* Blends to the gains of every part (`count` = the part count, each in the ranges of MrDriveGains). */
MR_API MrResult mrRagdollSetDriveGains(MrWorld* world, MrRagdoll ragdoll, const MrDriveGains* perPart, size_t count,
                                       float seconds);
/* Sets one part's gains at once. */
MR_API MrResult mrRagdollSetPartGains(MrWorld* world, MrRagdoll ragdoll, uint32_t part, const MrDriveGains* gains);
/* Blends every part to no drive at all over `seconds`: the passive ragdoll (a kill). */
MR_API MrResult mrRagdollGoLimp(MrWorld* world, MrRagdoll ragdoll, float seconds);
/* How far part `part` is from its target: *metres (its centre), *radians (its orientation).
 * Fails: MR_INVALID_ARGUMENT (NULL, part out of range, no pose target placing it). */
MR_API MrResult mrRagdollPartTrackingError(const MrWorld* world, MrRagdoll ragdoll, uint32_t part, float* metres,
                                           float* radians);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MARIONETTE_MARIONETTE_H */
