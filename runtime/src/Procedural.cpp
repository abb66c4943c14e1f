#include "marionette/runtime/Procedural.h"

#include "marionette/runtime/Rig.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

namespace marionette::runtime {

namespace {

rig::Stick link(const char* name, int a, int b, float capsule = 0.f)
{
    rig::Stick s;
    s.name = name;
    s.a = a;
    s.b = b;
    s.capsuleRadius = capsule;
    return s;
}

rig::Stick minRange(const char* name, int a, int b, float minLength)
{
    rig::Stick s;
    s.name = name;
    s.a = a;
    s.b = b;
    s.kind = rig::StickKind::MinOnly;
    s.minLength = minLength;
    return s;
}

Mat4 translation(Vec3 t) { return Mat4::fromRotationTranslation(Mat3{}, t); }

} // namespace

rig::RigDescription makeHumanoid(const HumanoidOptions& o)
{
    using namespace rig;
    RigDescription d;
    d.name = "humanoid";
    const float k = o.height / 1.8f;
    struct P { const char* name; Vec3 p; float mass, radius; std::uint32_t group; };
    // Left is +X, front is +Z; T-pose.
    const P parts[kHumanoidParticleCount] = {
        {"hip_l", {0.10f, 0.95f, 0.f}, 6.f, 0.07f, 1},      {"hip_r", {-0.10f, 0.95f, 0.f}, 6.f, 0.07f, 1},
        {"spine", {0.f, 1.18f, 0.03f}, 10.f, 0.08f, 1},     {"shoulder_l", {0.19f, 1.45f, 0.f}, 6.f, 0.06f, 1},
        {"shoulder_r", {-0.19f, 1.45f, 0.f}, 6.f, 0.06f, 1}, {"neck", {0.f, 1.53f, 0.f}, 4.f, 0.05f, 1},
        {"head", {0.f, 1.72f, 0.f}, 4.f, 0.11f, 1},         {"nose", {0.f, 1.64f, 0.10f}, 1.f, 0.03f, 1},
        {"elbow_l", {0.46f, 1.45f, 0.f}, 1.5f, 0.045f, 2},   {"elbow_axis_l", {0.46f, 1.51f, 0.f}, 0.5f, 0.02f, 2},
        {"wrist_l", {0.72f, 1.45f, 0.f}, 1.2f, 0.045f, 2},   {"elbow_r", {-0.46f, 1.45f, 0.f}, 1.5f, 0.045f, 4},
        {"elbow_axis_r", {-0.46f, 1.51f, 0.f}, 0.5f, 0.02f, 4}, {"wrist_r", {-0.72f, 1.45f, 0.f}, 1.2f, 0.045f, 4},
        {"knee_l", {0.10f, 0.52f, 0.f}, 4.f, 0.06f, 8},      {"knee_axis_l", {0.17f, 0.52f, 0.f}, 1.f, 0.02f, 8},
        {"ankle_l", {0.10f, 0.08f, 0.f}, 2.5f, 0.06f, 8},    {"knee_r", {-0.10f, 0.52f, 0.f}, 4.f, 0.06f, 16},
        {"knee_axis_r", {-0.17f, 0.52f, 0.f}, 1.f, 0.02f, 16}, {"ankle_r", {-0.10f, 0.08f, 0.f}, 2.5f, 0.06f, 16},
    };
    float total = 0.f;
    for (const P& p : parts)
        total += p.mass;
    for (const P& p : parts) {
        Particle q;
        q.name = p.name;
        q.position = p.p * k;
        q.mass = p.mass * o.mass / total;
        q.radius = p.radius * k;
        q.group = p.group;
        d.particles.push_back(q);
    }

    // Body parts as triangles (Rosen). Limb triangles: up runs along the bone.
    for (int i = 0; i < kHumanoidTriangleCount; ++i) {
        Triangle t;
        t.name = kHumanoidParts[i].name;
        for (int j = 0; j < 3; ++j)
            t.p[j] = kHumanoidParts[i].p[j];
        d.triangles.push_back(t);
    }

    // Sticks: bones first (with capsules), then the remaining triangle edges, then the neck's bracing.
    const float c = k;
    d.sticks = {
        link("pelvis", kHipL, kHipR, 0.10f * c),          link("torso", kSpine, kNeck, 0.13f * c),
        link("shoulders", kShoulderL, kShoulderR, 0.06f * c),
        link("upperarm_l", kShoulderL, kElbowL, 0.05f * c), link("forearm_l", kElbowL, kWristL, 0.045f * c),
        link("upperarm_r", kShoulderR, kElbowR, 0.05f * c), link("forearm_r", kElbowR, kWristR, 0.045f * c),
        link("thigh_l", kHipL, kKneeL, 0.075f * c),       link("shin_l", kKneeL, kAnkleL, 0.055f * c),
        link("thigh_r", kHipR, kKneeR, 0.075f * c),       link("shin_r", kKneeR, kAnkleR, 0.055f * c),
        link("neck_head", kNeck, kHead),
        link("pelvis_spine_l", kHipL, kSpine),            link("pelvis_spine_r", kHipR, kSpine),
        link("chest_spine_l", kShoulderL, kSpine),        link("chest_spine_r", kShoulderR, kSpine),
        link("neck_l", kNeck, kShoulderL),                link("neck_r", kNeck, kShoulderR),
        link("head_nose", kHead, kNose),                  link("nose_neck", kNose, kNeck),
    };
    auto group = [&](std::size_t i, std::uint32_t g) { d.sticks[i].group = g; };
    // Capsule groups: torso 1, left arm 2, right arm 4, left leg 8, right leg 16.
    group(0, 1); group(1, 1); group(2, 1); group(3, 2); group(4, 2); group(5, 4); group(6, 4);
    group(7, 8); group(8, 8); group(9, 16); group(10, 16);
    // Every capsule collides with everything (other ragdolls, props, and non-adjacent parts of its own
    // body); the groups let a game filter further.
    if (o.selfCollision) {
        d.sticks.push_back(minRange("knees_apart", kKneeL, kKneeR, 0.12f * c));
        d.sticks.push_back(minRange("ankles_apart", kAnkleL, kAnkleR, 0.12f * c));
        d.sticks.push_back(minRange("wrist_l_torso", kWristL, kSpine, 0.16f * c));
        d.sticks.push_back(minRange("wrist_r_torso", kWristR, kSpine, 0.16f * c));
        d.sticks.push_back(minRange("wrist_l_hip", kWristL, kHipL, 0.10f * c));
        d.sticks.push_back(minRange("wrist_r_hip", kWristR, kHipR, 0.10f * c));
        d.sticks.push_back(minRange("wrist_l_head", kWristL, kHead, 0.15f * c));
        d.sticks.push_back(minRange("wrist_r_head", kWristR, kHead, 0.15f * c));
        d.sticks.push_back(minRange("wrists_apart", kWristL, kWristR, 0.10f * c));
        d.sticks.push_back(minRange("elbow_l_spine", kElbowL, kSpine, 0.14f * c));
        d.sticks.push_back(minRange("elbow_r_spine", kElbowR, kSpine, 0.14f * c));
    }
    d.settings.selfCollision = o.selfCollision;

    // Angular constraints. Axes are given in world space at bind and converted into B's triangle frame.
    Mat3 frames[kHumanoidTriangleCount];
    for (int i = 0; i < kHumanoidTriangleCount; ++i)
        Rig::triangleFrame(d.particles[kHumanoidParts[i].p[0]].position, d.particles[kHumanoidParts[i].p[1]].position,
                           d.particles[kHumanoidParts[i].p[2]].position, frames[i]);
    auto joint = [&](const char* name, int a, int b, Vec3 twistWorld, Vec3 swingWorld, float twistMin,
                     float twistMax, float swing1, float swing2) {
        AngularConstraint j;
        j.name = name;
        j.triangleA = a;
        j.triangleB = b;
        j.limit = AngularLimit::SwingTwist;
        j.twistAxis = frames[b].transposeMul(twistWorld);
        j.swingAxis1 = frames[b].transposeMul(swingWorld);
        j.twistMin = radians(twistMin);
        j.twistMax = radians(twistMax);
        j.swing1 = radians(swing1);
        j.swing2 = radians(swing2);
        j.damping = kHumanoidJointDamping;
        j.staticFrictionSpeed = kHumanoidJointStaticFriction;
        d.angular.push_back(j);
    };
    const Vec3 X{1, 0, 0}, Y{0, 1, 0}, Z{0, 0, 1};
    joint("spine", kPelvisTri, kChestTri, Y, X, -20.f, 20.f, 30.f, 20.f);
    joint("neck", kChestTri, kHeadTri, Y, X, -60.f, 60.f, 40.f, 30.f);
    joint("shoulder_l", kChestTri, kUpperArmLTri, X, Z, -60.f, 60.f, 80.f, 80.f);
    joint("shoulder_r", kChestTri, kUpperArmRTri, -X, Z, -60.f, 60.f, 80.f, 80.f);
    // Elbows: hinge about Y in the T-pose; flexion brings the forearm forward (+Z).
    joint("elbow_l", kUpperArmLTri, kForearmLTri, Y, X, -150.f, 0.f, 3.f, 3.f);
    joint("elbow_r", kUpperArmRTri, kForearmRTri, Y, X, 0.f, 150.f, 3.f, 3.f);
    joint("hip_l", kPelvisTri, kThighLTri, -Y, X, -30.f, 30.f, 90.f, 45.f);
    joint("hip_r", kPelvisTri, kThighRTri, -Y, X, -30.f, 30.f, 90.f, 45.f);
    // Knees: hinge about X; flexion brings the shin backward (−Z).
    joint("knee_l", kThighLTri, kShinLTri, X, Y, 0.f, 150.f, 3.f, 3.f);
    joint("knee_r", kThighRTri, kShinRTri, X, Y, 0.f, 150.f, 3.f, 3.f);
    d.angular[0].stiffness = 1.f; // the spine is held firmly: small limits

    // Skeleton: joints with identity bind rotation; bones driven by their triangles, the neck by its stick.
    struct B { const char* name; int parent; Vec3 at; int tri; };
    const B bones[] = {
        {"pelvis", -1, d.particles[kSpine].position * 0.f + Vec3{0.f, 0.95f * k, 0.f}, kPelvisTri},
        {"chest", 0, d.particles[kSpine].position, kChestTri},
        {"neck", 1, d.particles[kNeck].position, -1},
        {"head", 2, d.particles[kNeck].position + Vec3{0.f, 0.05f * k, 0.f}, kHeadTri},
        {"upperarm_l", 1, d.particles[kShoulderL].position, kUpperArmLTri},
        {"forearm_l", 4, d.particles[kElbowL].position, kForearmLTri},
        {"hand_l", 5, d.particles[kWristL].position, -1},
        {"upperarm_r", 1, d.particles[kShoulderR].position, kUpperArmRTri},
        {"forearm_r", 7, d.particles[kElbowR].position, kForearmRTri},
        {"hand_r", 8, d.particles[kWristR].position, -1},
        {"thigh_l", 0, d.particles[kHipL].position, kThighLTri},
        {"shin_l", 10, d.particles[kKneeL].position, kShinLTri},
        {"thigh_r", 0, d.particles[kHipR].position, kThighRTri},
        {"shin_r", 12, d.particles[kKneeR].position, kShinRTri},
    };
    for (const B& b : bones) {
        Bone bone;
        bone.name = b.name;
        bone.parent = b.parent;
        bone.bindWorld = translation(b.at);
        const Vec3 parentAt = b.parent >= 0 ? bones[b.parent].at : Vec3{};
        bone.bindLocal = translation(b.at - parentAt);
        bone.inverseBind = translation(-b.at);
        d.bones.push_back(bone);
    }
    for (int i = 0; i < int(std::size(bones)); ++i) {
        if (bones[i].tri >= 0) {
            BoneBinding bb;
            bb.bone = i;
            bb.driver = BoneBinding::Driver::Triangle;
            bb.index = bones[i].tri;
            d.bindings.push_back(bb);
        }
    }
    BoneBinding neck;
    neck.bone = 2;
    neck.driver = BoneBinding::Driver::Stick;
    neck.index = 11; // neck_head
    d.bindings.push_back(neck);
    return d;
}

rig::RigDescription makeCloth(int columns, int rows, float spacing, bool pinTopRow, float tearRatio)
{
    rig::RigDescription d;
    d.name = "cloth";
    if (columns < 1 || rows < 1 || !(spacing > 0.f))
        return d; // empty: validate() reports it
    for (int r = 0; r < rows; ++r)
        for (int col = 0; col < columns; ++col) {
            rig::Particle p;
            p.name = std::to_string(r);
            p.name.insert(0, 1, 'p');
            p.name.push_back('_');
            p.name.append(std::to_string(col));
            p.position = {float(col) * spacing, -float(r) * spacing, 0.f};
            p.mass = (pinTopRow && r == 0) ? 0.f : 0.1f;
            p.radius = 0.f;
            d.particles.push_back(p);
        }
    auto at = [&](int r, int col) { return r * columns + col; };
    for (int r = 0; r < rows; ++r)
        for (int col = 0; col < columns; ++col) {
            if (col + 1 < columns) {
                rig::Stick s;
                s.a = at(r, col);
                s.b = at(r, col + 1);
                s.tearRatio = tearRatio;
                d.sticks.push_back(s);
            }
            if (r + 1 < rows) {
                rig::Stick s;
                s.a = at(r, col);
                s.b = at(r + 1, col);
                s.tearRatio = tearRatio;
                d.sticks.push_back(s);
            }
        }
    // The Verlet tutorial's curtain: Gauss–Seidel relaxation, one substep of eight sweeps (far too many
    // sticks for a direct solve, and a curtain needs no exact lengths).
    d.settings.solver = rig::SolverMode::GaussSeidel;
    d.settings.substeps = 1;
    d.settings.iterations = 8;
    d.settings.sleepTime = 0.f;
    return d;
}

rig::RigDescription makeCrate(Vec3 h, float mass)
{
    rig::RigDescription d;
    d.name = "crate";
    const Vec3 corners[4] = {{-h.x, -h.y, -h.z}, {h.x, h.y, -h.z}, {h.x, -h.y, h.z}, {-h.x, h.y, h.z}};
    for (int i = 0; i < 4; ++i) {
        rig::Particle p;
        p.name = std::to_string(i);
        p.name.insert(0, "corner");
        p.position = corners[i];
        p.mass = mass / 4.f;
        p.radius = 0.f;
        d.particles.push_back(p);
    }
    for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b) {
            rig::Stick s;
            s.a = a;
            s.b = b;
            d.sticks.push_back(s);
        }
    rig::Shape box;
    box.name = "box";
    box.kind = rig::ShapeKind::Box;
    box.tetra[0] = 0;
    box.tetra[1] = 1;
    box.tetra[2] = 2;
    box.tetra[3] = 3;
    box.local = {Quat{}, -corners[0]}; // owner frame is (identity, corner 0) at bind; the box is centred on 0
    box.halfExtents = h;
    d.shapes.push_back(box);
    return d;
}

std::vector<Transform> pilePlacements(const Rig& rig, std::size_t count)
{
    const std::size_t cells = (count + 9) / 10;
    const std::size_t side = std::max<std::size_t>(1, std::size_t(std::ceil(std::sqrt(double(cells)))));
    const float spacing = std::max(3.f, 2.5f * rig.boundingRadius());
    Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
    for (std::size_t i = 0; i < rig.particleCount(); ++i) {
        const Vec3 r{rig.radii()[i], rig.radii()[i], rig.radii()[i]};
        lo = vmin(lo, rig.bindPositions()[i] - r);
        hi = vmax(hi, rig.bindPositions()[i] + r);
    }
    const Vec3 middle = (lo + hi) * 0.5f;
    const float layer = std::max(0.5f, 1.2f * (hi.z - lo.z)); // lying down, the body's depth becomes its height
    const Transform lieDown{Quat::fromAxisAngle({1.f, 0.f, 0.f}, 0.5f * kPi), {}};
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> yaw(0.f, 2.f * kPi);
    std::vector<Transform> placements;
    placements.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t cell = i / 10, level = i % 10;
        const Quat turn = Quat::fromAxisAngle({0.f, 1.f, 0.f}, yaw(rng));
        const Vec3 at{spacing * float(cell % side), 1.f + layer * float(level), spacing * float(cell / side)};
        placements.push_back(Transform{turn, at} * lieDown * Transform{Quat{}, -middle});
    }
    return placements;
}

} // namespace marionette::runtime
