// A minimal game loop on the Marionette runtime alone: spawn the procedural humanoid above a ground plane,
// step 60 times (one second) and print the head height. Exits 1 on any failure.
#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/World.h"

#include <cmath>
#include <cstdio>
#include <string>

int main()
{
    using namespace marionette;
    using namespace marionette::runtime;
    std::string error;
    const auto rig = Rig::build(makeHumanoid(), &error);
    if (!rig) {
        std::fprintf(stderr, "consumer: rig refused: %s\n", error.c_str());
        return 1;
    }
    World world;
    if (world.addPlane({0.f, 1.f, 0.f}, 0.f, &error) < 0) {
        std::fprintf(stderr, "consumer: %s\n", error.c_str());
        return 1;
    }
    const RagdollHandle handle = world.spawn(rig, Transform{Quat{}, {0.f, 1.f, 0.f}}, {}, &error);
    const Ragdoll* ragdoll = world.ragdoll(handle);
    if (!ragdoll) {
        std::fprintf(stderr, "consumer: spawn failed: %s\n", error.c_str());
        return 1;
    }
    const float start = ragdoll->positions()[kHead].y;
    for (int i = 0; i < 60; ++i)
        world.step();
    const float head = ragdoll->positions()[kHead].y;
    std::printf("head height after 60 steps: %.4f m (started at %.4f m)\n", double(head), double(start));
    if (!std::isfinite(head) || !(head < start) || head < -0.5f) {
        std::fprintf(stderr, "consumer: implausible head height %f\n", double(head));
        return 1;
    }
    return 0;
}
