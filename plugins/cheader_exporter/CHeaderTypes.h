// The element types shared by every rig header the C header exporter writes (docs/plugins/c-header-export.md),
// as the C text that goes into each header. Plain C++: no Qt.
#pragma once

#include "marionette/rig/RigDescription.h"

#include <string_view>

namespace marionette::plugins {

/// The struct and enumeration definitions, guarded by MARIONETTE_RIG_HEADER_VERSION so that several rig
/// headers can share one translation unit, and refusing (#error) headers of another version in the same one.
/// A change to any struct's layout bumps the version (both places in the text) and docs/plugins/c-header-export.md.
inline constexpr std::string_view kRigHeaderTypes = R"(#ifndef MARIONETTE_RIG_HEADER_VERSION
#define MARIONETTE_RIG_HEADER_VERSION 3

/* Values of the int32_t fields named kind, form, limit, driver and solver. */
enum { MARIONETTE_STICK_RIGID = 0, MARIONETTE_STICK_RANGE = 1, MARIONETTE_STICK_MIN_ONLY = 2, MARIONETTE_STICK_MAX_ONLY = 3 };
enum { MARIONETTE_ANGLE_DOT_PRODUCT = 0, MARIONETTE_ANGLE_LAW_OF_COSINES = 1 };
enum { MARIONETTE_ANGULAR_CONE = 0, MARIONETTE_ANGULAR_SWING_TWIST = 1 };
enum { MARIONETTE_SHAPE_BOX = 0 };
enum { MARIONETTE_DRIVER_TRIANGLE = 0, MARIONETTE_DRIVER_STICK = 1 };
enum { MARIONETTE_DRIVE_PART_TRIANGLE = 0, MARIONETTE_DRIVE_PART_STICK = 1 };
enum { MARIONETTE_SOLVER_GAUSS_SEIDEL = 0, MARIONETTE_SOLVER_JACOBI = 1, MARIONETTE_SOLVER_XPBD = 2, MARIONETTE_SOLVER_DIRECT = 3 };

typedef struct MarionetteParticle {
    const char* name; uint32_t id;
    float position[3];      /* bind position, m */
    float mass;             /* kg; 0 = kinematic */
    float inverseMass;      /* 1/mass, 0 for kinematic particles */
    float radius;           /* collision sphere, m */
    uint32_t group, mask;   /* collision filter bits */
    int32_t bone;           /* bone it was made from, -1 = none */
} MarionetteParticle;

typedef struct MarionetteStick {
    const char* name; uint32_t id;
    int32_t a, b;           /* particles */
    int32_t kind;           /* MARIONETTE_STICK_* */
    float restLength;       /* m; already resolved: the bind distance when the rig asks for it */
    float minLength, maxLength, stiffness, compliance, tearRatio, capsuleRadius;
    uint32_t group, mask;   /* capsule collision filter bits */
} MarionetteStick;

typedef struct MarionetteAngle {
    const char* name; uint32_t id;
    int32_t center, a, b;   /* particles */
    float minAngle, maxAngle, stiffness; /* radians, radians, (0, 1] */
    int32_t form;           /* MARIONETTE_ANGLE_* */
} MarionetteAngle;

typedef struct MarionetteTriangle {
    const char* name; uint32_t id;
    int32_t p[3];           /* frame: up = p1 - p0, facing = up x (p2 - p0) */
} MarionetteTriangle;

typedef struct MarionetteAngular {
    const char* name; uint32_t id;
    int32_t triangleA, triangleB;
    int32_t limit;          /* MARIONETTE_ANGULAR_* */
    float coneAngle;
    float twistAxis[3], swingAxis1[3]; /* unit, in B's triangle frame */
    float twistMin, twistMax, swing1, swing2, stiffness;
    float damping;              /* 1/s: the joint's relative spin decays as e^(-damping t) */
    float staticFrictionSpeed;  /* rad/s: a joint turning slower than this is held still */
    int32_t hasRestOrientation; /* 0: capture R_A^T R_B from the bind pose */
    float restOrientation[4];   /* x, y, z, w */
} MarionetteAngular;

typedef struct MarionettePin {
    const char* name; uint32_t id;
    int32_t particle;
    float target[3];
    float stiffness;        /* (0, 1]: fraction of the way to the target per 1/60 s */
    int32_t kinematic;
} MarionettePin;

typedef struct MarionetteShape {
    const char* name; uint32_t id;
    int32_t kind;           /* MARIONETTE_SHAPE_* */
    int32_t triangle;       /* frame owner, or -1 ... */
    int32_t tetra[4];       /* ... the embedding tetrahedron's particles */
    float localRotation[4], localTranslation[3], halfExtents[3];
    uint32_t group, mask;
} MarionetteShape;

typedef struct MarionetteBone {
    const char* name; uint32_t id;
    int32_t parent;         /* an earlier bone, or -1 */
    float bindLocal[16], bindWorld[16], inverseBind[16]; /* column-major */
} MarionetteBone;

typedef struct MarionetteBinding {
    const char* name; uint32_t id;
    int32_t bone;
    int32_t driver;         /* MARIONETTE_DRIVER_* */
    int32_t index;          /* the triangle or stick */
    int32_t hasOffset;      /* 0: capture from the bind pose */
    float offsetRotation[4], offsetTranslation[3];
} MarionetteBinding;

typedef struct MarionetteDriveGains { /* a frequency of 0 turns that spring off; all off = the passive ragdoll */
    float motorFrequency;   /* Hz, [0, 60]: the part's orientation relative to its parent part springs to the target's */
    float motorDamping;     /* damping ratio, [0, 10] (1 = critically damped) */
    float maxTorque;        /* N m, [0, 1e6]: the most the motor applies; 0 = no limit */
    float pinFrequency;     /* Hz, [0, 60]: the part's particles spring to their target world positions */
    float pinDamping;       /* damping ratio, [0, 10] */
    float maxForce;         /* N per particle, [0, 1e6]: the most the pin applies; 0 = no limit */
    int32_t kinematic;      /* non-zero: the part follows the target exactly */
} MarionetteDriveGains;

typedef struct MarionetteDrivePart {
    int32_t kind;           /* MARIONETTE_DRIVE_PART_* */
    int32_t index;          /* the triangle or stick */
    MarionetteDriveGains gains;
} MarionetteDrivePart;

typedef struct MarionetteDriveProfile {
    const char* name; uint32_t id;
    MarionetteDriveGains defaults;      /* the gains of every part not in parts */
    const MarionetteDrivePart* parts;   /* each part at most once; NULL when partCount is 0 */
    uint32_t partCount;
} MarionetteDriveProfile;

typedef struct MarionetteSettings {
    float gravity[3]; float timeStep; /* m/s^2, s */
    uint32_t maxSubsteps;   /* fixed steps per advance */
    uint32_t substeps;      /* solver substeps per fixed step */
    uint32_t iterations;    /* per substep */
    float damping;          /* 1/s: velocities decay as e^(-damping t) */
    float friction;         /* Coulomb mu */
    float staticFrictionSpeed; /* m/s: contacts sliding slower than this stick */
    float sleepVelocity, sleepTime, overRelaxation;
    int32_t sqrtApproximation, selfCollision, solver; /* solver: MARIONETTE_SOLVER_* */
} MarionetteSettings;

typedef struct MarionetteRigData {
    const char* name;
    const MarionetteParticle* particles; uint32_t particleCount;
    const MarionetteStick* sticks; uint32_t stickCount;
    const MarionetteAngle* angles; uint32_t angleCount;
    const MarionetteTriangle* triangles; uint32_t triangleCount;
    const MarionetteAngular* angular; uint32_t angularCount;
    const MarionettePin* pins; uint32_t pinCount;
    const MarionetteShape* shapes; uint32_t shapeCount;
    const MarionetteBone* bones; uint32_t boneCount;
    const MarionetteBinding* bindings; uint32_t bindingCount;
    const MarionetteDriveProfile* driveProfiles; uint32_t driveProfileCount;
    MarionetteSettings settings;
} MarionetteRigData;

#elif MARIONETTE_RIG_HEADER_VERSION != 3
#error "Marionette rig headers of different versions in one translation unit: export them again"
#endif

)";

/// True when `types` declares the float fields of MarionetteDriveGains in rig::kDriveGainFields order: the
/// writer fills the struct positionally from that table.
constexpr bool declaresGainsInTableOrder(std::string_view types)
{
    std::size_t at = types.find("typedef struct MarionetteDriveGains");
    for (const rig::DriveGainField& field : rig::kDriveGainFields) {
        if (at == std::string_view::npos)
            return false;
        const std::string_view name = field.name;
        at = types.find("float ", at);
        if (at == std::string_view::npos || types.substr(at + 6, name.size()) != name ||
            types[at + 6 + name.size()] != ';')
            return false;
        at += 6 + name.size();
    }
    return at != std::string_view::npos && types.find("int32_t kinematic;", at) < types.find("} MarionetteDriveGains;");
}
static_assert(declaresGainsInTableOrder(kRigHeaderTypes), "MarionetteDriveGains must follow rig::kDriveGainFields");

} // namespace marionette::plugins
