// What the files of make_mannequin share (the program that writes mannequin.glb; see make_mannequin.cpp):
//   body.cpp            the skeleton and the body's ellipsoids, forward kinematics, the rig's spheres
//   maths.cpp           deterministic sine, cosine, arctangent, vectors and quaternions in double
//   clips.cpp           the four animation clips (idle, walk, getup_back, getup_front)
//   make_mannequin.cpp  the mesh, the glTF writer and main
// Everything is in namespace mannequin with external linkage, so a name defined twice fails to link. Every file
// is compiled without fused multiply-add (-ffp-contract=off, samples/CMakeLists.txt): the output's bytes are
// the same on every machine.
#pragma once

#include <vector>

namespace mannequin {

// ---- The skeleton and the body (body.cpp) ------------------------------------------------------------------

struct V3 {
    float x, y, z;
};

/// The bones, in the order of kJoints (parents first).
// clang-format off
enum BoneIndex {
    kHips, kSpine, kSpine1, kNeck, kHead, kLShoulder, kLArm, kLForeArm, kLHand, kRShoulder, kRArm, kRForeArm,
    kRHand, kLUpLeg, kLLeg, kLFoot, kLToe, kRUpLeg, kRLeg, kRFoot, kRToe
};
// clang-format on
constexpr int kJointCount = kRToe + 1;

// The skeleton: name, parent (index in this table, parents first), joint position in the bind pose.
struct Joint {
    const char* name;
    int parent;
    V3 at;
};
/// The 21 joints with Mixamo's bone names, indexed by BoneIndex; the bind pose is a T-pose, metres.
extern const Joint kJoints[kJointCount];

// The body: axis-aligned ellipsoids (centre, radii along x, y, z), each skinned entirely to one bone.
struct Part {
    int bone;
    V3 centre, radii;
};
constexpr int kPartCount = 24;
/// The body's ellipsoids, in the order the mesh is written.
extern const Part kParts[kPartCount];

// ---- Deterministic maths (maths.cpp) ---------------------------------------------------------------------
// In double, from +, −, ×, ÷ and √ only (no libm), so the same bytes come out on every machine.

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180.0;

/// Sine and cosine of x radians (reduced by whole turns first: best for |x| of a few turns).
double dsin(double x);
double dcos(double x);
/// Arctangent of any x, in [−π/2, π/2].
double datan(double x);
/// The angle of (x, y) in (−π, π]; 0 for (0, 0).
double datan2(double y, double x);
/// Arccosine in [0, π]; c is clamped to [−1, 1].
double dacos(double c);

struct D3 {
    double x = 0, y = 0, z = 0;
};
D3 operator+(D3 a, D3 b);
D3 operator-(D3 a, D3 b);
D3 operator*(D3 a, double s);
double dot(D3 a, D3 b);
D3 cross(D3 a, D3 b);
double length(D3 a);
/// `a` scaled to length 1 (a must not be zero).
D3 normalized(D3 a);
/// a + (b − a)·s.
D3 lerp(D3 a, D3 b, double s);
D3 toD3(V3 v);

/// A rotation quaternion (x, y, z, w), identity by default.
struct Q {
    double x = 0, y = 0, z = 0, w = 1;
};
/// The rotation b, then a.
Q operator*(Q a, Q b);
Q conj(Q q);
/// v turned by the unit quaternion q.
D3 rotate(Q q, D3 v);
/// The rotation by `radians` about the unit vector `axis`.
Q axisAngle(D3 axis, double radians);
/// q scaled to length 1 (q must not be zero).
Q normalized(Q q);
/// The shortest rotation taking unit vector a to unit vector b (they must not be opposite).
Q fromTo(D3 a, D3 b);
/// Yaw about Y, then pitch about X (positive leans +Y toward +Z), then roll about Z; degrees.
Q yawPitchRoll(double yaw, double pitch, double roll);
/// A left-side rotation reflected to the right side (through the plane x = 0).
Q mirrored(Q q);

// ---- Poses (body.cpp) ------------------------------------------------------------------------------------

/// A pose: the root's translation and every bone's local rotation (identity: the bind pose, whose joints
/// carry no rotation).
struct Pose {
    D3 root{0, 0.95, 0};
    Q local[kJointCount];
};

/// A pose in world space: every joint's position and rotation.
struct Posed {
    D3 at[kJointCount];
    Q rot[kJointCount];
};

/// The world positions and rotations of `pose`'s joints.
Posed forwardKinematics(const Pose& pose);

/// The lowest bottom of the rig's particle spheres in `pose` (y of its centre minus its radius), and, if
/// `which` is not null, the index of that sphere.
double lowestBottom(const Pose& pose, int* which = nullptr);

// ---- The animation clips (clips.cpp) ---------------------------------------------------------------------

constexpr int kFps = 30; // the clips' key rate

/// The bones a clip turns (a rotation channel each) in the order of the channels; Hips also translates.
inline constexpr int kAnimated[] = {kHips,     kSpine1, kHead, kLArm,   kLForeArm, kRArm,
                                    kRForeArm, kLUpLeg, kLLeg, kRUpLeg, kRLeg};

/// An animation clip: its name (static storage) and a pose for every frame, at kFps.
struct Clip {
    const char* name;
    std::vector<Pose> frames; // at kFps
};

/// The four clips, in the order they are written: idle, walk, getup_back, getup_front. Exits the program with
/// a message if a leg cannot reach its foot (the tables and keys make sure none does).
std::vector<Clip> makeClips();

} // namespace mannequin
