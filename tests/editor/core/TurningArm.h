// Test support: a two-bone mesh whose arm turns about Z from 0 to 90° over its one clip ("turn", 1 s), and a
// four-particle rig on it (one particle on the root, the arm's head and tip, one bound to no bone).
#pragma once

#include "marionette/import/ImportedScene.h"
#include "marionette/project/Project.h"
#include "marionette/rig/RigDescription.h"

#include <string>

namespace marionette::test {

struct TurningArm {
    import::ImportedScene mesh;
    rig::RigDescription rig;
};

inline TurningArm turningArm()
{
    TurningArm out;
    import::ImportedScene& mesh = out.mesh;
    rig::Bone root, arm;
    root.name = "root";
    arm.name = "arm";
    arm.parent = 0;
    arm.bindLocal = Mat4::fromRotationTranslation({}, {0.f, 1.f, 0.f});
    arm.bindWorld = arm.bindLocal;
    arm.inverseBind = Mat4::fromRotationTranslation({}, {0.f, -1.f, 0.f});
    mesh.skeleton = {root, arm};
    mesh.boneInfo.resize(2);
    mesh.boneInfo[1].restLocal = arm.bindLocal;
    import::AnimationClip clip;
    clip.name = "turn";
    clip.duration = 1.f;
    import::BoneChannel ch;
    ch.bone = 1;
    ch.positions = {{0.f, {0.f, 1.f, 0.f}}};
    ch.rotations = {{0.f, Quat{}}, {1.f, Quat::fromAxisAngle({0.f, 0.f, 1.f}, kPi / 2.f)}};
    ch.scales = {{0.f, {1.f, 1.f, 1.f}}};
    clip.channels = {ch};
    mesh.animations = {clip};

    rig::RigDescription& r = out.rig;
    r.bones = {root, arm};
    auto particle = [&](Vec3 at, std::int32_t bone) {
        rig::Particle p;
        p.name = std::string(1, char('a' + r.particles.size()));
        p.position = at;
        p.bone = bone;
        r.particles.push_back(p);
    };
    particle({0.f, 0.5f, 0.f}, 0);           // on the root
    particle({0.f, 1.f, 0.f}, 1);            // the arm's head
    particle({0.f, 2.f, 0.f}, 1);            // the arm's tip
    particle({0.2f, 1.9f, 0.f}, rig::kNone); // nearest bind head: the arm's (0, 1, 0)
    for (int i = 0; i < 3; ++i)
        for (int j = i + 1; j < 4; ++j) {
            rig::Stick st;
            st.a = i;
            st.b = j;
            r.sticks.push_back(st);
        }
    project::assignMissingIds(r);
    return out;
}

} // namespace marionette::test
