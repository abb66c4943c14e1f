// Marionette runtime — rigs built in code: a humanoid shaped like the pipeline's auto-rig, a cloth sheet
// and a crate (a rigid prop as a particle tetrahedron with an embedded box). Used by samples, tests and
// benchmarks, and handy for games that want a ragdoll without authoring one. Also the placements of the
// benchmarks' piles scene.
#pragma once

#include "marionette/Math.h"
#include "marionette/rig/RigDescription.h"

#include <cstddef>
#include <vector>

namespace marionette::runtime {

struct HumanoidOptions {
    float height = 1.8f;        ///< metres, top of the head; the figure stands on y = 0 facing +Z, in a T-pose
    float mass = 75.f;          ///< kg in total
    bool selfCollision = true;  ///< capsule pairs between limbs and torso, min-distance ranges
};

/// Particle indices of the procedural humanoid (left = +X).
enum HumanoidParticle : int {
    kHipL, kHipR, kSpine, kShoulderL, kShoulderR, kNeck, kHead, kNose,
    kElbowL, kElbowAxisL, kWristL, kElbowR, kElbowAxisR, kWristR,
    kKneeL, kKneeAxisL, kAnkleL, kKneeR, kKneeAxisR, kAnkleR,
    kHumanoidParticleCount
};

/// Triangle indices of the procedural humanoid.
enum HumanoidTriangle : int {
    kPelvisTri, kChestTri, kHeadTri, kUpperArmLTri, kForearmLTri, kUpperArmRTri, kForearmRTri,
    kThighLTri, kShinLTri, kThighRTri, kShinRTri, kHumanoidTriangleCount
};

/// The humanoid's body parts as triangles (Rosen), in HumanoidTriangle order: name and particles. Limb
/// triangles run up along the bone (p0 → p1) and share the hinge edge (joint, axis particle) with their
/// neighbour. The auto-rig's humanoid template builds the same triangles on a character's skeleton.
struct HumanoidPart {
    const char* name;
    int p[3];
};
inline constexpr HumanoidPart kHumanoidParts[kHumanoidTriangleCount] = {
    {"pelvis", {kHipL, kHipR, kSpine}},
    {"chest", {kShoulderL, kShoulderR, kSpine}},
    {"head", {kNeck, kHead, kNose}},
    {"upperarm_l", {kShoulderL, kElbowL, kElbowAxisL}},
    {"forearm_l", {kElbowL, kWristL, kElbowAxisL}},
    {"upperarm_r", {kShoulderR, kElbowR, kElbowAxisR}},
    {"forearm_r", {kElbowR, kWristR, kElbowAxisR}},
    {"thigh_l", {kHipL, kKneeL, kKneeAxisL}},
    {"shin_l", {kKneeL, kAnkleL, kKneeAxisL}},
    {"thigh_r", {kHipR, kKneeR, kKneeAxisR}},
    {"shin_r", {kKneeR, kAnkleR, kKneeAxisR}},
};

/// Angular friction of the humanoid's joints (and of the auto-rig's templates): damping of the relative
/// spin, 1/s, and the speed below which a joint is held still, rad/s (about 46°/s).
constexpr float kHumanoidJointDamping = 3.f;
constexpr float kHumanoidJointStaticFriction = 0.8f;
/// Bend damping of the auto-rig's chain joints (angle constraints along tails, necks, ears, legs), 1/s.
constexpr float kChainJointDamping = 5.f;

/// 20 particles, 11 triangles (pelvis, chest, head, limbs), 10 angular constraints (spine and neck
/// swing/twist, shoulders and hips as cones with twist limits, elbows and knees as hinges that do not bend
/// backwards: two triangles sharing the hinge edge plus a one-sided twist range), self-collision ranges and
/// capsules, and a skeleton of 14 bones (11 triangle-driven, the neck stick-driven, the hands unbound).
rig::RigDescription makeHumanoid(const HumanoidOptions& options = {});

/// A sheet of `columns` × `rows` particles `spacing` apart in the XY plane, hanging from its top row
/// (y = 0, kinematic when pinTopRow) downward, with structural sticks (optionally tearable). Relaxed by
/// Gauss–Seidel: one substep of eight sweeps.
rig::RigDescription makeCloth(int columns, int rows, float spacing, bool pinTopRow = true, float tearRatio = 0.f);

/// A crate: four particles at alternate corners of the box (a regular tetrahedron), six rigid sticks, and
/// a collision box embedded in the tetrahedron. Centred at the origin.
rig::RigDescription makeCrate(Vec3 halfExtents, float mass);

class Rig;

/// Where `marionette bench` puts `count` bodies of `rig` in its piles scene (docs/cli.md): each lying down
/// (its up axis turned to horizontal about X, centred on its bind pose's middle) and randomly yawed (a fixed
/// seed), in piles of ten on a square grid, the lowest centre 1 m up and each next one a body's depth (at least
/// 0.5 m) higher.
std::vector<Transform> pilePlacements(const Rig& rig, std::size_t count);

} // namespace marionette::runtime
