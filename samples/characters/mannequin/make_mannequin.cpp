// make_mannequin: writes mannequin.glb, the sample humanoid: a wooden artist's mannequin 1.8 m tall, standing
// on y = 0 facing +Z in a T-pose (glTF axes, metres, left = +X), made of ellipsoids that each follow one bone
// of a 21-bone skeleton with Mixamo's bone names, so `marionette import` picks the humanoid template; and four
// animation clips on that skeleton (idle, walk, getup_back, getup_front; see "The animation clips" below).
//
//   make_mannequin OUT.glb
//
// The output is byte-for-byte reproducible: the geometry is axis-aligned and its sines and cosines are
// constants, and the clips' trigonometry is this file's own, so only +, −, ×, ÷ and √ (exactly rounded in IEEE
// arithmetic, built without fused multiply-add) produce it. The committed
// mannequin.glb is this program's output; tests/samples checks that regenerating it changes nothing, since
// the project (mannequin.mproj) records the mesh's SHA-256.
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace {

struct V3 {
    float x, y, z;
};

// The skeleton: name, parent (index in this table, parents first), joint position in the bind pose.
struct Joint {
    const char* name;
    int parent;
    V3 at;
};
// clang-format off
const Joint kJoints[] = {
    {"Hips", -1, {0.f, 0.95f, 0.f}},              // 0
    {"Spine", 0, {0.f, 1.05f, 0.f}},              // 1
    {"Spine1", 1, {0.f, 1.25f, 0.f}},             // 2  chest
    {"Neck", 2, {0.f, 1.48f, 0.f}},               // 3
    {"Head", 3, {0.f, 1.58f, 0.f}},               // 4
    {"LeftShoulder", 2, {0.05f, 1.43f, 0.f}},     // 5
    {"LeftArm", 5, {0.18f, 1.43f, 0.f}},          // 6
    {"LeftForeArm", 6, {0.46f, 1.43f, 0.f}},      // 7
    {"LeftHand", 7, {0.71f, 1.43f, 0.f}},         // 8
    {"RightShoulder", 2, {-0.05f, 1.43f, 0.f}},   // 9
    {"RightArm", 9, {-0.18f, 1.43f, 0.f}},        // 10
    {"RightForeArm", 10, {-0.46f, 1.43f, 0.f}},   // 11
    {"RightHand", 11, {-0.71f, 1.43f, 0.f}},      // 12
    {"LeftUpLeg", 0, {0.1f, 0.91f, 0.f}},         // 13
    {"LeftLeg", 13, {0.1f, 0.5f, 0.f}},           // 14
    {"LeftFoot", 14, {0.1f, 0.09f, 0.f}},         // 15
    {"LeftToeBase", 15, {0.1f, 0.02f, 0.13f}},    // 16
    {"RightUpLeg", 0, {-0.1f, 0.91f, 0.f}},       // 17
    {"RightLeg", 17, {-0.1f, 0.5f, 0.f}},         // 18
    {"RightFoot", 18, {-0.1f, 0.09f, 0.f}},       // 19
    {"RightToeBase", 19, {-0.1f, 0.02f, 0.13f}},  // 20
};
constexpr int kJointCount = int(sizeof kJoints / sizeof kJoints[0]);

// The body: axis-aligned ellipsoids (centre, radii along x, y, z), each skinned entirely to one bone.
struct Part {
    int bone;
    V3 centre, radii;
};
const Part kParts[] = {
    {0, {0.f, 0.95f, 0.f}, {0.17f, 0.11f, 0.11f}},      // pelvis
    {1, {0.f, 1.13f, 0.f}, {0.14f, 0.12f, 0.1f}},       // abdomen
    {2, {0.f, 1.33f, 0.f}, {0.19f, 0.15f, 0.12f}},      // chest
    {3, {0.f, 1.51f, 0.f}, {0.05f, 0.07f, 0.05f}},      // neck
    {4, {0.f, 1.69f, 0.01f}, {0.09f, 0.12f, 0.105f}},   // head
    {4, {0.f, 1.68f, 0.11f}, {0.015f, 0.025f, 0.02f}},  // nose (shows which way the figure faces)
    {6, {0.18f, 1.43f, 0.f}, {0.06f, 0.06f, 0.06f}},    // left shoulder ball
    {6, {0.32f, 1.43f, 0.f}, {0.15f, 0.05f, 0.05f}},    // left upper arm
    {7, {0.46f, 1.43f, 0.f}, {0.04f, 0.04f, 0.04f}},    // left elbow ball
    {7, {0.585f, 1.43f, 0.f}, {0.13f, 0.045f, 0.045f}}, // left forearm
    {8, {0.78f, 1.43f, 0.f}, {0.08f, 0.025f, 0.05f}},   // left hand
    {10, {-0.18f, 1.43f, 0.f}, {0.06f, 0.06f, 0.06f}},
    {10, {-0.32f, 1.43f, 0.f}, {0.15f, 0.05f, 0.05f}},
    {11, {-0.46f, 1.43f, 0.f}, {0.04f, 0.04f, 0.04f}},
    {11, {-0.585f, 1.43f, 0.f}, {0.13f, 0.045f, 0.045f}},
    {12, {-0.78f, 1.43f, 0.f}, {0.08f, 0.025f, 0.05f}},
    {13, {0.1f, 0.71f, 0.f}, {0.08f, 0.22f, 0.08f}},    // left thigh
    {14, {0.1f, 0.5f, 0.f}, {0.055f, 0.055f, 0.055f}},  // left knee ball
    {14, {0.1f, 0.29f, 0.f}, {0.06f, 0.21f, 0.06f}},    // left shin
    {15, {0.1f, 0.045f, 0.04f}, {0.05f, 0.045f, 0.12f}},// left foot (its sole on y = 0)
    {17, {-0.1f, 0.71f, 0.f}, {0.08f, 0.22f, 0.08f}},
    {18, {-0.1f, 0.5f, 0.f}, {0.055f, 0.055f, 0.055f}},
    {18, {-0.1f, 0.29f, 0.f}, {0.06f, 0.21f, 0.06f}},
    {19, {-0.1f, 0.045f, 0.04f}, {0.05f, 0.045f, 0.12f}},
};
// clang-format on

// cos and sin of k · 22.5°, k = 0..16, as constants (no libm: the same bytes on every machine).
constexpr int kSlices = 16, kStacks = 8;
constexpr float kCos[kSlices + 1] = {1.f,         0.92387953f,  0.70710678f,  0.38268343f,  0.f,
                                     -0.38268343f, -0.70710678f, -0.92387953f, -1.f,         -0.92387953f,
                                     -0.70710678f, -0.38268343f, 0.f,          0.38268343f,  0.70710678f,
                                     0.92387953f,  1.f};
constexpr float kSin[kSlices + 1] = {0.f,          0.38268343f,  0.70710678f,  0.92387953f, 1.f,
                                     0.92387953f,  0.70710678f,  0.38268343f,  0.f,         -0.38268343f,
                                     -0.70710678f, -0.92387953f, -1.f,         -0.92387953f, -0.70710678f,
                                     -0.38268343f, 0.f};

// ---- The animation clips ---------------------------------------------------------------------------------
// Four clips on the skeleton, keyed at 30 frames per second with LINEAR interpolation: idle, walk, getup_back
// and getup_front, the clips a powered ragdoll of the mannequin's rig (mannequin.mproj) is driven with. Only
// the bones that own a part of the rig turn: Hips (translation and rotation), Spine1, Head, the arms,
// forearms, thighs and shins; Spine, Neck, the shoulders, hands, feet and toes keep their bind rotation. The
// elbows and knees bend about the hinge axes the rig gives them, and every joint stays inside the rig's
// limits; the rig's particle spheres stay on or above the floor (y = 0). The arms hang 30° out from the sides
// (standing, walking, lying, kneeling), clear of the rig's pelvis capsule (radius 23 cm), so no two of the
// capsules the rig collides with each other overlap in any frame.
//
// The numbers are computed in double with the sine, cosine and arctangent below (+, −, ×, ÷ and √ only, no
// libm), then rounded to float, so the same bytes come out on every machine.

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180.0;

double dsin(double x)
{
    const double turns = x / (2.0 * kPi);
    const double k = turns >= 0.0 ? double(static_cast<long long>(turns + 0.5)) : -double(static_cast<long long>(0.5 - turns));
    x -= k * 2.0 * kPi; // [−π, π]
    if (x > 0.5 * kPi)
        x = kPi - x;
    else if (x < -0.5 * kPi)
        x = -kPi - x; // [−π/2, π/2]
    const double x2 = x * x;
    double term = x, sum = x;
    for (int n = 1; n <= 12; ++n) {
        term *= -x2 / double((2 * n) * (2 * n + 1));
        sum += term;
    }
    return sum;
}
double dcos(double x) { return dsin(x + 0.5 * kPi); }
double datan(double x)
{
    if (x < 0.0)
        return -datan(-x);
    if (x > 1.0)
        return 0.5 * kPi - datan(1.0 / x);
    constexpr double kSqrt3 = 1.7320508075688772, kTan15 = 0.2679491924311227;
    if (x > kTan15) // atan x = 30° + atan((√3·x − 1) / (x + √3)), the argument within [0, tan 15°]
        return kPi / 6.0 + datan((kSqrt3 * x - 1.0) / (x + kSqrt3));
    const double x2 = x * x;
    double power = x, sum = x;
    for (int n = 1; n <= 16; ++n) {
        power *= -x2;
        sum += power / double(2 * n + 1);
    }
    return sum;
}
double datan2(double y, double x)
{
    if (x > 0.0)
        return datan(y / x);
    if (x < 0.0)
        return y >= 0.0 ? datan(y / x) + kPi : datan(y / x) - kPi;
    return y > 0.0 ? 0.5 * kPi : (y < 0.0 ? -0.5 * kPi : 0.0);
}
double dacos(double c)
{
    c = c > 1.0 ? 1.0 : (c < -1.0 ? -1.0 : c);
    return datan2(std::sqrt(1.0 - c * c), c);
}

struct D3 {
    double x = 0, y = 0, z = 0;
};
D3 operator+(D3 a, D3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
D3 operator-(D3 a, D3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
D3 operator*(D3 a, double s) { return {a.x * s, a.y * s, a.z * s}; }
double dot(D3 a, D3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
D3 cross(D3 a, D3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
double length(D3 a) { return std::sqrt(dot(a, a)); }
D3 normalized(D3 a) { return a * (1.0 / length(a)); }
D3 lerp(D3 a, D3 b, double s) { return a + (b - a) * s; }
D3 toD3(V3 v) { return {double(v.x), double(v.y), double(v.z)}; }

struct Q {
    double x = 0, y = 0, z = 0, w = 1;
};
Q operator*(Q a, Q b)
{
    return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
Q conj(Q q) { return {-q.x, -q.y, -q.z, q.w}; }
D3 rotate(Q q, D3 v)
{
    const D3 u{q.x, q.y, q.z};
    const D3 t = cross(u, v) * 2.0;
    return v + t * q.w + cross(u, t);
}
Q axisAngle(D3 axis, double radians)
{
    const double s = dsin(0.5 * radians);
    return {axis.x * s, axis.y * s, axis.z * s, dcos(0.5 * radians)};
}
Q normalized(Q q)
{
    const double n = 1.0 / std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return {q.x * n, q.y * n, q.z * n, q.w * n};
}
/// The shortest rotation taking unit vector a to unit vector b (they must not be opposite).
Q fromTo(D3 a, D3 b)
{
    const D3 c = cross(a, b);
    return normalized(Q{c.x, c.y, c.z, 1.0 + dot(a, b)});
}
/// Yaw about Y, then pitch about X (positive leans +Y toward +Z), then roll about Z; degrees.
Q yawPitchRoll(double yaw, double pitch, double roll)
{
    return axisAngle({0, 1, 0}, yaw * kDeg) * axisAngle({1, 0, 0}, pitch * kDeg) * axisAngle({0, 0, 1}, roll * kDeg);
}
/// A left-side rotation reflected to the right side (through the plane x = 0).
Q mirrored(Q q) { return {q.x, -q.y, -q.z, q.w}; }

enum BoneIndex {
    kHips, kSpine, kSpine1, kNeck, kHead, kLShoulder, kLArm, kLForeArm, kLHand, kRShoulder, kRArm, kRForeArm,
    kRHand, kLUpLeg, kLLeg, kLFoot, kLToe, kRUpLeg, kRLeg, kRFoot, kRToe
};
// The bones a clip turns (a rotation channel each) in the order of the channels; Hips also translates.
constexpr int kAnimated[] = {kHips,  kSpine1, kHead,   kLArm, kLForeArm, kRArm,
                             kRForeArm, kLUpLeg, kLLeg, kRUpLeg, kRLeg};

/// A pose: the root's translation and every bone's local rotation (identity: the bind pose, whose joints
/// carry no rotation).
struct Pose {
    D3 root{0, 0.95, 0};
    Q local[kJointCount];
};

struct Posed {
    D3 at[kJointCount];
    Q rot[kJointCount];
};

Posed forwardKinematics(const Pose& pose)
{
    Posed w;
    for (int b = 0; b < kJointCount; ++b) {
        const int p = kJoints[b].parent;
        if (p < 0) {
            w.rot[b] = pose.local[b];
            w.at[b] = pose.root;
        } else {
            w.rot[b] = w.rot[p] * pose.local[b];
            w.at[b] = w.at[p] + rotate(w.rot[p], toD3(kJoints[b].at) - toD3(kJoints[p].at));
        }
    }
    return w;
}

// The rig's particles (mannequin.mproj, as the humanoid auto-rig places them): the bone each follows, its
// bind position and its radius (rounded up to the millimetre's tenth), for keeping the spheres above the floor.
struct Sphere {
    const char* name;
    int bone;
    D3 at;
    double radius;
};
const Sphere kSpheres[] = {
    {"hip_l", kLUpLeg, {0.1, 0.91, 0}, 0.0688},          {"hip_r", kRUpLeg, {-0.1, 0.91, 0}, 0.0688},
    {"spine", kSpine, {0, 1.144, 0.0305}, 0.0855},         {"shoulder_l", kLArm, {0.18, 1.43, 0}, 0.0720},
    {"shoulder_r", kRArm, {-0.18, 1.43, 0}, 0.0720},       {"neck", kNeck, {0, 1.48, 0}, 0.0570},
    {"head", kHead, {0, 1.7015, 0}, 0.1144},               {"nose", kHead, {0, 1.6214, 0.1029}, 0.0309},
    {"elbow_l", kLForeArm, {0.46, 1.43, 0}, 0.0416},       {"elbow_axis_l", kLArm, {0.46, 1.4916, 0}, 0.0188},
    {"wrist_l", kLHand, {0.71, 1.43, 0}, 0.0416},          {"elbow_r", kRForeArm, {-0.46, 1.43, 0}, 0.0416},
    {"elbow_axis_r", kRArm, {-0.46, 1.4916, 0}, 0.0188},   {"wrist_r", kRHand, {-0.71, 1.43, 0}, 0.0416},
    {"knee_l", kLLeg, {0.1, 0.5, 0}, 0.0645},              {"knee_axis_l", kLUpLeg, {0.1656, 0.5, 0}, 0.0193},
    {"ankle_l", kLFoot, {0.1, 0.09, 0}, 0.0866},           {"knee_r", kRLeg, {-0.1, 0.5, 0}, 0.0645},
    {"knee_axis_r", kRUpLeg, {-0.1656, 0.5, 0}, 0.0193},   {"ankle_r", kRFoot, {-0.1, 0.09, 0}, 0.0866},
};
constexpr int kSphereCount = int(sizeof kSpheres / sizeof kSpheres[0]);

D3 spherePosition(const Posed& w, const Sphere& s)
{
    return w.at[s.bone] + rotate(w.rot[s.bone], s.at - toD3(kJoints[s.bone].at));
}

/// The lowest sphere bottom of the pose (y of its centre minus its radius), and which sphere it is.
double lowestBottom(const Pose& pose, int* which = nullptr)
{
    const Posed w = forwardKinematics(pose);
    double low = 1e9;
    for (int i = 0; i < kSphereCount; ++i) {
        const double bottom = spherePosition(w, kSpheres[i]).y - kSpheres[i].radius;
        if (bottom < low) {
            low = bottom;
            if (which)
                *which = i;
        }
    }
    return low;
}

[[noreturn]] void fail(const char* what, double t)
{
    std::fprintf(stderr, "make_mannequin: %s at %.3f s\n", what, t);
    std::exit(1);
}

// ---- Limbs ----
// Left-side parameters; the right side gives its own in mirrored coordinates (x outward) and mirrors the
// rotation back.

/// A limb bone's rotation turning its rest direction `rest` to `dir`, then about `dir` until its local +Z
/// (the side its joint bends away from or toward) faces `toward` as nearly as it can.
Q aimed(D3 rest, D3 dir, D3 toward)
{
    const D3 d = normalized(dir);
    const Q swing = fromTo(rest, d);
    const D3 f0 = rotate(swing, {0, 0, 1});
    const D3 h = toward - d * dot(toward, d);
    if (length(h) < 1e-9)
        return swing;
    const double twist = datan2(dot(cross(f0, h), d), dot(f0, h));
    return axisAngle(d, twist) * swing;
}
/// The upper arm's rotation in the chest's frame pointing along `dir` (x outward), turned about its own axis
/// so the elbow, which bends the forearm toward the upper arm's local +Z (about its −Y: the rig's hinge),
/// bends it toward `bend`.
Q armRotation(D3 dir, D3 bend) { return aimed({1, 0, 0}, dir, bend); }
/// The thigh's rotation in the pelvis' frame pointing along `dir` (x outward), turned about its axis so the
/// knee (which bends the shin toward the thigh's local −Z) points toward `knee`.
Q legRotation(D3 dir, D3 knee) { return aimed({0, -1, 0}, dir, knee); }
Q elbow(double degrees) { return axisAngle({0, -1, 0}, degrees * kDeg); } // left; mirrored for the right
Q knee(double degrees) { return axisAngle({1, 0, 0}, degrees * kDeg); }   // both sides

constexpr double kThigh = 0.41; // hip–knee, as long as knee–ankle in the bind pose

/// Two-bone leg reaching from the hip joint (world) to the ankle target (world): sets the thigh (in the
/// pelvis' frame `pelvis`) and the knee, the knee bending in the leg's sagittal plane.
void reach(Pose& pose, int upLeg, int leg, Q pelvis, D3 hip, D3 ankle, double t)
{
    const D3 d = ankle - hip;
    const double D = length(d);
    const double most = 2.0 * kThigh * dcos(0.5 * 4.0 * kDeg); // the knee stays bent at least 4°
    if (!(D <= most))
        fail("a leg cannot reach its foot", t);
    const double k = 2.0 * dacos(D / (2.0 * kThigh));
    const double side = datan2(d.x, -d.y);
    const double pitch = datan2(d.z, std::sqrt(d.x * d.x + d.y * d.y));
    const Q thigh = axisAngle({0, 0, 1}, side) * axisAngle({1, 0, 0}, -(pitch + 0.5 * k));
    pose.local[upLeg] = conj(pelvis) * thigh;
    pose.local[leg] = axisAngle({1, 0, 0}, k);
}

D3 hipJoint(const Pose& pose, int upLeg)
{
    return pose.root + rotate(pose.local[kHips], toD3(kJoints[upLeg].at) - toD3(kJoints[kHips].at));
}

/// Arms hanging at the sides: abducted `out` degrees from the vertical, swung `forward` degrees about the
/// shoulder axis, elbow bent forward.
void hangArms(Pose& pose, double outL, double forwardL, double elbowL, double outR, double forwardR, double elbowR)
{
    auto dir = [](double out, double forward) {
        const D3 hang{dsin(out * kDeg), -dcos(out * kDeg), 0};
        return rotate(axisAngle({1, 0, 0}, -forward * kDeg), hang);
    };
    pose.local[kLArm] = armRotation(dir(outL, forwardL), {0, 0, 1});
    pose.local[kLForeArm] = elbow(elbowL);
    pose.local[kRArm] = mirrored(armRotation(dir(outR, forwardR), {0, 0, 1}));
    pose.local[kRForeArm] = mirrored(elbow(elbowR));
}

constexpr int kFps = 30;

// ---- idle: 4 s, standing, breathing twice and shifting the weight from foot to foot once ----
Pose idlePose(int frame)
{
    const double t = double(frame) / kFps;
    const double shift = 2.0 * kPi * t / 4.0, breath = 2.0 * kPi * t / 2.0;
    Pose p;
    const double roll = 1.5 * dsin(shift);
    p.root = {0.015 * dsin(shift), 0.946 + 0.002 * dcos(2.0 * shift), 0.0};
    p.local[kHips] = yawPitchRoll(2.0 * dsin(shift + 0.5), 2.0, roll);
    p.local[kSpine1] = yawPitchRoll(-1.5 * dsin(shift + 0.5), -1.0 + 1.2 * dsin(breath), -0.8 * roll);
    p.local[kHead] = yawPitchRoll(4.0 * dsin(shift - 0.8), 1.5 + 1.0 * dsin(breath + 1.0), 0.0);
    hangArms(p, 30.0 + 1.5 * dsin(breath), 4.0, 14.0 + 2.0 * dsin(shift), 30.0 + 1.5 * dsin(breath), 4.0,
             14.0 - 2.0 * dsin(shift));
    reach(p, kLUpLeg, kLLeg, p.local[kHips], hipJoint(p, kLUpLeg), {0.1, 0.09, 0.0}, t);
    reach(p, kRUpLeg, kRLeg, p.local[kHips], hipJoint(p, kRUpLeg), {-0.1, 0.09, 0.0}, t);
    return p;
}

// ---- walk: 4 cycles of 1.1 s (33 frames), 1.2 m/s along +Z ----
constexpr int kWalkCycleFrames = 33, kWalkCycles = 4;
constexpr double kStride = 1.32;  // two steps: 1.2 m/s × 1.1 s
constexpr double kStance = 0.55;  // of the cycle a foot is down (double support 5% twice)
constexpr double kAnkleY = 0.09;  // the ankle's height standing (its sphere 3.4 mm above the floor)

/// The ankle of a foot whose stance starts at cycle phase 0 of cycle `cycle`, at phase `phase` in [0, 1).
D3 footAt(double x, int cycle, double phase)
{
    const double planted = kStride * (double(cycle) + 0.5 * kStance); // under the pelvis mid-stance
    if (phase < kStance)
        return {x, kAnkleY, planted};
    const double s = (phase - kStance) / (1.0 - kStance);
    // Forward along a cubic that leaves the floor at a third of the body's speed and lands at rest; up along
    // half a sine steepened at the start (the heel comes up before the foot swings), at most 8 cm.
    const double along = 0.6 * (s - 2.0 * s * s + s * s * s) + s * s * (3.0 - 2.0 * s);
    const double lift = 0.05 * dsin(kPi * s) * (1.0 + 2.0 * (1.0 - s) * (1.0 - s));
    return {x, kAnkleY + lift, planted + kStride * along};
}

Pose walkPose(int frame)
{
    const double t = double(frame) / kFps;
    const int cycle = frame / kWalkCycleFrames;
    const double phase = double(frame % kWalkCycleFrames) / kWalkCycleFrames;
    // w: the cycle's phase angle (0 when the left foot lands); mid: the same centred on the double supports,
    // where the pelvis is lowest (0.025 and 0.525 of the cycle).
    const double w = 2.0 * kPi * phase, mid = w - kPi * (kStance - 0.5);
    Pose p;
    const double yaw = -7.0 * dcos(w), roll = 3.0 * dsin(mid);
    p.root = {0.015 * dsin(mid), 0.878 - 0.02 * dcos(2.0 * mid), kStride * double(frame) / kWalkCycleFrames};
    p.local[kHips] = yawPitchRoll(yaw, 4.0, roll);
    p.local[kSpine1] = yawPitchRoll(-1.4 * yaw, -1.5, -roll);
    p.local[kHead] = yawPitchRoll(0.4 * yaw, 2.0, 0.0);
    const double swing = 18.0 * dcos(w); // the right arm forward when the left foot lands
    hangArms(p, 30.0, -swing, 16.0 - 8.0 * swing / 18.0, 30.0, swing, 16.0 + 8.0 * swing / 18.0);
    const double right = phase < 0.5 ? phase + 0.5 : phase - 0.5;
    const int rightCycle = phase < 0.5 ? cycle - 1 : cycle;
    D3 footL = footAt(0.1, cycle, phase), footR = footAt(-0.1, rightCycle, right);
    footR.z += 0.5 * kStride;
    reach(p, kLUpLeg, kLLeg, p.local[kHips], hipJoint(p, kLUpLeg), footL, t);
    reach(p, kRUpLeg, kRLeg, p.local[kHips], hipJoint(p, kRUpLeg), footR, t);
    return p;
}

// ---- get-ups: key poses, eased between (smoothstep), the root set down so the lowest sphere touches ----

/// A key pose of a get-up. Angles in degrees; limb directions in the parent's frame with x outward (the right
/// side mirrored); the root's height is not keyed: each frame is set down until its lowest sphere touches the
/// floor, then raised by `lift`.
struct Key {
    double t = 0;
    double x = 0, z = 0;                          // root
    double yaw = 0, pitch = 0, roll = 0, spin = 0; // root: yaw about Y, pitch about X, roll about Z, spin about
                                                   // the body's own long axis (applied first)
    double chestPitch = 0, chestYaw = 0, chestRoll = 0;
    double headPitch = 0, headYaw = 0, headRoll = 0;
    D3 armL{1, 0, 0}, bendL{0, 0, 1};
    double elbowL = 0;
    D3 armR{1, 0, 0}, bendR{0, 0, 1};
    double elbowR = 0;
    D3 legL{0, -1, 0}, kneeL{0, 0, 1};
    double kneeLDeg = 0;
    D3 legR{0, -1, 0}, kneeR{0, 0, 1};
    double kneeRDeg = 0;
    double lift = 0;
};

Pose keyPose(const Key& k)
{
    Pose p;
    p.root = {k.x, 0.0, k.z};
    p.local[kHips] = yawPitchRoll(k.yaw, k.pitch, k.roll) * axisAngle({0, 1, 0}, k.spin * kDeg);
    p.local[kSpine1] = yawPitchRoll(k.chestYaw, k.chestPitch, k.chestRoll);
    p.local[kHead] = yawPitchRoll(k.headYaw, k.headPitch, k.headRoll);
    p.local[kLArm] = armRotation(k.armL, k.bendL);
    p.local[kLForeArm] = elbow(k.elbowL);
    p.local[kRArm] = mirrored(armRotation(k.armR, k.bendR));
    p.local[kRForeArm] = mirrored(elbow(k.elbowR));
    p.local[kLUpLeg] = legRotation(k.legL, k.kneeL);
    p.local[kLLeg] = knee(k.kneeLDeg);
    p.local[kRUpLeg] = mirrored(legRotation(k.legR, k.kneeR));
    p.local[kRLeg] = knee(k.kneeRDeg);
    p.root.y = k.lift - lowestBottom(p);
    return p;
}

Key blend(const Key& a, const Key& b, double s)
{
    auto mix = [s](double u, double v) { return u + (v - u) * s; };
    Key k;
    k.t = mix(a.t, b.t);
    k.x = mix(a.x, b.x), k.z = mix(a.z, b.z);
    k.yaw = mix(a.yaw, b.yaw), k.pitch = mix(a.pitch, b.pitch), k.roll = mix(a.roll, b.roll);
    k.spin = mix(a.spin, b.spin);
    k.chestPitch = mix(a.chestPitch, b.chestPitch), k.chestYaw = mix(a.chestYaw, b.chestYaw);
    k.chestRoll = mix(a.chestRoll, b.chestRoll);
    k.headPitch = mix(a.headPitch, b.headPitch), k.headYaw = mix(a.headYaw, b.headYaw);
    k.headRoll = mix(a.headRoll, b.headRoll);
    k.armL = lerp(a.armL, b.armL, s), k.bendL = lerp(a.bendL, b.bendL, s), k.elbowL = mix(a.elbowL, b.elbowL);
    k.armR = lerp(a.armR, b.armR, s), k.bendR = lerp(a.bendR, b.bendR, s), k.elbowR = mix(a.elbowR, b.elbowR);
    k.legL = lerp(a.legL, b.legL, s), k.kneeL = lerp(a.kneeL, b.kneeL, s), k.kneeLDeg = mix(a.kneeLDeg, b.kneeLDeg);
    k.legR = lerp(a.legR, b.legR, s), k.kneeR = lerp(a.kneeR, b.kneeR, s), k.kneeRDeg = mix(a.kneeRDeg, b.kneeRDeg);
    k.lift = mix(a.lift, b.lift);
    return k;
}

/// The get-up at `frame`: its keys eased with smoothstep; the last frame is the bind pose exactly.
Pose getupPose(const std::vector<Key>& keys, int frame)
{
    const double t = double(frame) / kFps;
    std::size_t i = 0;
    while (i + 2 < keys.size() && t > keys[i + 1].t)
        ++i;
    const Key& a = keys[i];
    const Key& b = keys[i + 1];
    double u = (t - a.t) / (b.t - a.t);
    u = u < 0.0 ? 0.0 : (u > 1.0 ? 1.0 : u);
    if (frame == int(keys.back().t * kFps + 0.5)) {
        Pose bind;
        bind.root.z = keys.back().z;
        return bind;
    }
    return keyPose(blend(a, b, u * u * (3.0 - 2.0 * u)));
}

// Lying face down, head toward +Z, arms 30° out from the sides: how a ragdoll comes to rest on its front.
Key proneKey()
{
    Key k;
    // On the belly (the rig's spine particle, ahead of the hips, is the trunk's lowest), the head turned aside
    // (about the neck particle's vertical: the head triangle keeps its shape) and raised a little.
    k.pitch = 88.0;
    k.chestPitch = 4.0;
    k.headPitch = -10.0, k.headYaw = 55.0;
    k.armL = k.armR = {0.5, -0.866, 0.05}, k.elbowL = k.elbowR = 5.0;
    k.legL = k.legR = {0.03, -1.0, 0.0}, k.kneeLDeg = k.kneeRDeg = 3.0;
    k.lift = 0.004; // between the keys the limbs cut their arcs' corners by a few millimetres
    return k;
}

/// From lying face down (`start`) to standing: hands beside the chest, push up onto the knees, kneel up, the
/// left foot forward, stand up over it and bring the right foot beside it. Times from `t0`.
void pushUpAndStand(std::vector<Key>& keys, const Key& start, double t0, double scale)
{
    Key k = start;
    // Hands beside the chest, elbows up, knees starting to bend.
    k.t = t0 + scale * 0.45;
    k.headYaw = 0.0, k.headPitch = -10.0;
    k.armL = k.armR = {0.3, -0.85, -0.4}, k.bendL = k.bendR = {0, 0.5, 1}, k.elbowL = k.elbowR = 110.0;
    k.kneeLDeg = k.kneeRDeg = 12.0;
    keys.push_back(k);
    // Pushed up on straight arms and the knees, shins on the floor.
    k.t = t0 + scale * 1.0;
    k.z = -0.06, k.pitch = 60.0, k.chestPitch = 0.0, k.headPitch = -8.0;
    k.armL = k.armR = {0.26, -0.48, 0.84}, k.bendL = k.bendR = {-1, 0.3, 0.3}, k.elbowL = k.elbowR = 10.0;
    k.legL = k.legR = {0.03, -1.0, 0.0}, k.kneeLDeg = k.kneeRDeg = 30.0;
    keys.push_back(k);
    // Kneeling upright.
    k.t = t0 + scale * 1.55;
    k.z = -0.45, k.pitch = 5.0, k.headPitch = 0.0;
    k.armL = k.armR = {0.5, -0.866, 0.1}, k.bendL = k.bendR = {0, 0, 1}, k.elbowL = k.elbowR = 20.0;
    k.legL = k.legR = {0.03, -1.0, 0.05}, k.kneeLDeg = k.kneeRDeg = 86.0;
    keys.push_back(k);
    // The left foot forward (half kneeling).
    k.t = t0 + scale * 2.0;
    k.z = -0.45, k.pitch = 8.0;
    k.legL = {0.05, -0.34, 0.94}, k.kneeLDeg = 40.0;
    keys.push_back(k);
    // Standing up over the left foot.
    k.t = t0 + scale * 2.5;
    k.z = 0.0, k.pitch = 5.0;
    k.armL = k.armR = {0.5, -0.86, 0.1}, k.elbowL = k.elbowR = 10.0;
    k.legL = {0.0, -1.0, 0.1}, k.kneeLDeg = 8.0;
    k.legR = {0.0, -1.0, -0.35}, k.kneeRDeg = 10.0;
    keys.push_back(k);
    // Standing in the bind pose.
    Key stand;
    stand.t = t0 + scale * 2.9;
    stand.z = 0.1;
    stand.lift = lowestBottom(Pose{}); // the feet as high as in the bind pose
    keys.push_back(stand);
}

std::vector<Key> getupFrontKeys()
{
    std::vector<Key> keys{proneKey()};
    pushUpAndStand(keys, keys.front(), 0.0, 1.0);
    return keys;
}

std::vector<Key> getupBackKeys()
{
    // Lying on the back, head toward +Z: the prone pose spun half a turn about the body's long axis.
    Key k = proneKey();
    k.x = -0.4, k.spin = 180.0;
    k.pitch = 90.0, k.chestPitch = 4.0;
    k.headPitch = 10.0, k.headYaw = 0.0;
    k.legL = k.legR = {0.03, -1.0, 0.06};
    std::vector<Key> keys{k};
    // The left knee up, the right arm up beside the head, the left arm reaching across: rolling to the right.
    k.t = 0.3;
    k.spin = 150.0, k.x = -0.35;
    k.armR = {0.26, 0.96, 0.05}, k.elbowR = 10.0;
    k.armL = {0.3, -0.2, 0.93}, k.elbowL = 30.0;
    k.legL = {0.05, -0.7, 0.7}, k.kneeLDeg = 70.0;
    keys.push_back(k);
    // On the right side, over the right arm.
    k.t = 0.55;
    k.spin = 90.0, k.x = -0.15, k.headPitch = 0.0;
    k.armL = {0.3, -0.3, 0.9};
    keys.push_back(k);
    // Face down, the left hand already beside the chest.
    Key prone = proneKey();
    prone.t = 0.8;
    prone.x = 0.0, prone.headYaw = 0.0;
    prone.armR = {0.26, 0.96, 0.05}, prone.elbowR = 10.0;
    prone.armL = {0.3, -0.85, -0.4}, prone.bendL = {0, 0.5, 1}, prone.elbowL = 110.0;
    keys.push_back(prone);
    pushUpAndStand(keys, prone, 0.8, 2.2 / 2.9);
    return keys;
}

struct Clip {
    const char* name;
    std::vector<Pose> frames; // at kFps
};

std::vector<Clip> makeClips()
{
    std::vector<Clip> clips;
    Clip idle{"idle", {}};
    for (int f = 0; f <= 4 * kFps; ++f)
        idle.frames.push_back(idlePose(f));
    Clip walk{"walk", {}};
    for (int f = 0; f <= kWalkCycles * kWalkCycleFrames; ++f)
        walk.frames.push_back(walkPose(f));
    clips.push_back(std::move(idle));
    clips.push_back(std::move(walk));
    for (const auto& [name, keys] : {std::pair{"getup_back", getupBackKeys()}, std::pair{"getup_front", getupFrontKeys()}}) {
        Clip c{name, {}};
        const int last = int(keys.back().t * kFps + 0.5);
        for (int f = 0; f <= last; ++f)
            c.frames.push_back(getupPose(keys, f));
        clips.push_back(std::move(c));
    }
    return clips;
}

struct Mesh {
    std::vector<V3> positions, normals;
    std::vector<std::array<std::uint8_t, 4>> joints;
    std::vector<std::array<float, 4>> weights;
    std::vector<std::uint16_t> indices;
};

// A latitude-longitude ellipsoid: (kStacks + 1) rings of (kSlices + 1) vertices (the seam is duplicated).
void addEllipsoid(Mesh& mesh, const Part& part)
{
    const auto first = std::uint16_t(mesh.positions.size());
    for (int i = 0; i <= kStacks; ++i) {
        // Polar angle i · 22.5° from +Y: the slice table covers it since kStacks = kSlices / 2.
        const float ringY = kCos[i], ringR = kSin[i];
        for (int j = 0; j <= kSlices; ++j) {
            const V3 unit{ringR * kSin[j], ringY, ringR * kCos[j]};
            const V3 r = part.radii;
            mesh.positions.push_back({part.centre.x + unit.x * r.x, part.centre.y + unit.y * r.y,
                                      part.centre.z + unit.z * r.z});
            // The normal of an ellipsoid at the image of a unit-sphere point u is normalise(u / radii).
            const V3 n{unit.x / r.x, unit.y / r.y, unit.z / r.z};
            const float inv = 1.f / std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
            mesh.normals.push_back({n.x * inv, n.y * inv, n.z * inv});
            mesh.joints.push_back({std::uint8_t(part.bone), 0, 0, 0});
            mesh.weights.push_back({1.f, 0.f, 0.f, 0.f});
        }
    }
    for (int i = 0; i < kStacks; ++i)
        for (int j = 0; j < kSlices; ++j) {
            const auto a = std::uint16_t(first + i * (kSlices + 1) + j), b = std::uint16_t(a + kSlices + 1);
            // Counter-clockwise seen from outside (glTF front faces).
            for (std::uint16_t v : {a, b, std::uint16_t(a + 1), std::uint16_t(a + 1), b, std::uint16_t(b + 1)})
                mesh.indices.push_back(v);
        }
}

// Appends raw bytes of a vector to the binary chunk, 4-byte aligned; returns the offset.
template <class T>
std::size_t append(std::vector<std::uint8_t>& bin, const std::vector<T>& data)
{
    const std::size_t offset = bin.size();
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(data.data());
    bin.insert(bin.end(), bytes, bytes + data.size() * sizeof(T));
    while (bin.size() % 4)
        bin.push_back(0);
    return offset;
}

// Appends printf-formatted text to `out`.
[[gnu::format(printf, 2, 3)]] void add(std::string& out, const char* format, ...)
{
    char text[512];
    std::va_list args;
    va_start(args, format);
    std::vsnprintf(text, sizeof text, format, args);
    va_end(args);
    out += text;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_mannequin OUT.glb\n");
        return 2;
    }

    Mesh mesh;
    for (const Part& part : kParts)
        addEllipsoid(mesh, part);
    V3 lo = mesh.positions[0], hi = lo;
    for (const V3& p : mesh.positions) {
        lo = {std::fmin(lo.x, p.x), std::fmin(lo.y, p.y), std::fmin(lo.z, p.z)};
        hi = {std::fmax(hi.x, p.x), std::fmax(hi.y, p.y), std::fmax(hi.z, p.z)};
    }
    // Inverse bind matrices: the joints carry no rotation, so each is a translation by −(joint position).
    std::vector<std::array<float, 16>> inverseBinds;
    for (const Joint& j : kJoints)
        inverseBinds.push_back({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -j.at.x, -j.at.y, -j.at.z, 1});

    std::vector<std::uint8_t> bin;
    // Buffer views and accessors: 0 positions (with the bounds glTF requires), 1 normals, 2 joints, 3 weights,
    // 4 inverse binds, 5 indices; then per clip its key times and one output per channel.
    std::string views, accessors;
    int accessorCount = 0;
    auto addView = [&](std::size_t offset, std::size_t size, const char* extra) {
        add(views, R"(%s{"buffer":0,"byteOffset":%zu,"byteLength":%zu%s})", accessorCount ? "," : "", offset, size, extra);
    };
    auto addAccessor = [&](int componentType, std::size_t count, const char* type, const std::string& extra) {
        add(accessors, R"(%s{"bufferView":%d,"componentType":%d,"count":%zu,"type":"%s"%s})", accessorCount ? "," : "",
            accessorCount, componentType, count, type, extra.c_str());
        return accessorCount++;
    };
    const std::size_t vertexCount = mesh.positions.size();
    std::string bounds;
    add(bounds, R"(,"min":[%.9g,%.9g,%.9g],"max":[%.9g,%.9g,%.9g])", double(lo.x), double(lo.y), double(lo.z),
        double(hi.x), double(hi.y), double(hi.z));
    addView(append(bin, mesh.positions), vertexCount * 12, "");
    addAccessor(5126, vertexCount, "VEC3", bounds);
    addView(append(bin, mesh.normals), vertexCount * 12, "");
    addAccessor(5126, vertexCount, "VEC3", "");
    addView(append(bin, mesh.joints), vertexCount * 4, "");
    addAccessor(5121, vertexCount, "VEC4", "");
    addView(append(bin, mesh.weights), vertexCount * 16, "");
    addAccessor(5126, vertexCount, "VEC4", "");
    addView(append(bin, inverseBinds), inverseBinds.size() * 64, "");
    addAccessor(5126, inverseBinds.size(), "MAT4", "");
    addView(append(bin, mesh.indices), mesh.indices.size() * 2, R"(,"target":34963)");
    addAccessor(5123, mesh.indices.size(), "SCALAR", "");

    // The clips: each animated bone's rotation and the root's translation at every frame (LINEAR).
    std::string animations;
    const std::vector<Clip> clips = makeClips();
    for (std::size_t c = 0; c < clips.size(); ++c) {
        const Clip& clip = clips[c];
        const std::size_t frames = clip.frames.size();
        std::vector<float> times;
        for (std::size_t f = 0; f < frames; ++f)
            times.push_back(float(f) / float(kFps));
        addView(append(bin, times), frames * 4, "");
        std::string timeBounds;
        add(timeBounds, R"(,"min":[%.9g],"max":[%.9g])", double(times.front()), double(times.back()));
        const int input = addAccessor(5126, frames, "SCALAR", timeBounds);
        std::string samplers, channels;
        int sampler = 0;
        auto addChannel = [&](int bone, const char* path, int output) {
            add(samplers, R"(%s{"input":%d,"output":%d,"interpolation":"LINEAR"})", sampler ? "," : "", input, output);
            add(channels, R"(%s{"sampler":%d,"target":{"node":%d,"path":"%s"}})", sampler ? "," : "", sampler, bone + 1,
                path);
            ++sampler;
        };
        std::vector<std::array<float, 3>> root;
        for (const Pose& p : clip.frames)
            root.push_back({float(p.root.x), float(p.root.y), float(p.root.z)});
        addView(append(bin, root), frames * 12, "");
        addChannel(kHips, "translation", addAccessor(5126, frames, "VEC3", ""));
        for (int bone : kAnimated) {
            std::vector<std::array<float, 4>> rotations;
            for (const Pose& p : clip.frames) {
                Q q = normalized(p.local[bone]);
                if (q.w < 0.0)
                    q = {-q.x, -q.y, -q.z, -q.w};
                rotations.push_back({float(q.x), float(q.y), float(q.z), float(q.w)});
            }
            addView(append(bin, rotations), frames * 16, "");
            addChannel(bone, "rotation", addAccessor(5126, frames, "VEC4", ""));
        }
        add(animations, R"(%s{"name":"%s","samplers":[)", c ? "," : "", clip.name);
        animations += samplers + R"(],"channels":[)" + channels + "]}";
    }

    // The glTF document. Node 0 is the skinned mesh, nodes 1.. the joints (joint i is node i + 1).
    std::string json;
    add(json, R"({"asset":{"version":"2.0","generator":"Marionette samples/characters/mannequin/make_mannequin"},)"
              R"("scene":0,"scenes":[{"name":"mannequin","nodes":[0,1]}],)"
              R"("nodes":[{"name":"mannequin","mesh":0,"skin":0})");
    for (int i = 0; i < kJointCount; ++i) {
        const Joint& j = kJoints[i];
        const V3 parent = j.parent < 0 ? V3{0, 0, 0} : kJoints[j.parent].at;
        add(json, R"(,{"name":"%s","translation":[%.9g,%.9g,%.9g])", j.name, double(j.at.x - parent.x),
            double(j.at.y - parent.y), double(j.at.z - parent.z));
        bool hasChildren = false;
        for (int c = 0; c < kJointCount; ++c)
            if (kJoints[c].parent == i) {
                add(json, "%s%d", hasChildren ? "," : R"(,"children":[)", c + 1);
                hasChildren = true;
            }
        json += hasChildren ? "]}" : "}";
    }
    json += R"(],"skins":[{"name":"mannequin","inverseBindMatrices":4,"skeleton":1,"joints":[)";
    for (int i = 0; i < kJointCount; ++i)
        add(json, "%s%d", i ? "," : "", i + 1);
    json += R"(]}],"materials":[{"name":"wood","pbrMetallicRoughness":{"baseColorFactor":[0.78,0.6,0.42,1],)"
            R"("metallicFactor":0,"roughnessFactor":0.7}}],"meshes":[{"name":"mannequin","primitives":[{)"
            R"("attributes":{"POSITION":0,"NORMAL":1,"JOINTS_0":2,"WEIGHTS_0":3},"indices":5,"material":0}]}],)";
    json += R"("animations":[)" + animations + "],";
    add(json, R"("buffers":[{"byteLength":%zu}],"bufferViews":[)", bin.size());
    json += views + R"(],"accessors":[)" + accessors + "]}";
    while (json.size() % 4)
        json += ' '; // the JSON chunk is padded with spaces

    // GLB container: header, JSON chunk, BIN chunk (all little-endian 32-bit fields).
    std::vector<std::uint8_t> glb;
    auto u32 = [&glb](std::size_t v) {
        for (int shift = 0; shift < 32; shift += 8)
            glb.push_back(std::uint8_t(v >> shift));
    };
    u32(0x46546C67); // "glTF"
    u32(2);
    u32(12 + 8 + json.size() + 8 + bin.size());
    u32(json.size());
    u32(0x4E4F534A); // "JSON"
    glb.insert(glb.end(), json.begin(), json.end());
    u32(bin.size());
    u32(0x004E4942); // "BIN\0"
    glb.insert(glb.end(), bin.begin(), bin.end());

    std::FILE* out = std::fopen(argv[1], "wb");
    if (!out || std::fwrite(glb.data(), 1, glb.size(), out) != glb.size() || std::fclose(out) != 0) {
        std::fprintf(stderr, "make_mannequin: %s: cannot write: %s\n", argv[1], std::strerror(errno));
        return 1;
    }
    std::printf("wrote %s (%zu bytes): %zu vertices, %zu triangles, %d bones, %zu clips\n", argv[1], glb.size(),
                vertexCount, mesh.indices.size() / 3, kJointCount, clips.size());
    return 0;
}
