// The mannequin's skeleton and body: the joint table (a 21-bone skeleton with Mixamo's bone names, standing on
// y = 0 facing +Z in a T-pose, glTF axes, metres, left = +X), the ellipsoids skinned to its bones, forward
// kinematics, and the particle spheres of the mannequin's rig that the clips keep above the floor.
#include "mannequin.h"

namespace mannequin {

// The skeleton, parents first; the index is the bone's BoneIndex.
// clang-format off
const Joint kJoints[kJointCount] = {
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

// The body, 24 ellipsoids.
const Part kParts[kPartCount] = {
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

namespace {

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

} // namespace

double lowestBottom(const Pose& pose, int* which)
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

} // namespace mannequin
