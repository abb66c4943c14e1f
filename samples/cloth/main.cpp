// cloth: the tearable curtain of the Verlet cloth tutorial, on the Marionette runtime.
//
// A curtain of particles joined by sticks to their right and lower neighbours hangs from its pinned top row.
// At a scheduled frame a hand grabs a point near its bottom edge and drags it down and towards the viewer,
// as the tutorial's mouse does; sticks stretched past their tear ratio break, and the curtain rips. The same
// World, Rig and Ragdoll that run characters run the cloth: a rig is any set of particles and constraints.
//
//   cloth [--frames N] [--columns N] [--rows N] [--tear RATIO] [--ascii]
//
// Prints how many sticks tore and whether the curtain still hangs below its pins; --ascii draws it.
#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/World.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace marionette;
using namespace marionette::runtime;

namespace {

struct Options {
    int frames = 300;
    int columns = 40, rows = 30;
    float spacing = 0.05f; // 2 m × 1.5 m
    float tearRatio = 1.8f; // a stick breaks when stretched past 1.8 times its rest length
    bool ascii = false;
};

bool parseOptions(int argc, char** argv, Options& o)
{
    for (int i = 1; i < argc; ++i) {
        const bool hasValue = i + 1 < argc;
        if (!std::strcmp(argv[i], "--frames") && hasValue)
            o.frames = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--columns") && hasValue)
            o.columns = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--rows") && hasValue)
            o.rows = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--tear") && hasValue)
            o.tearRatio = float(std::atof(argv[++i]));
        else if (!std::strcmp(argv[i], "--ascii"))
            o.ascii = true;
        else
            return false;
    }
    return o.frames >= 1 && o.columns >= 3 && o.columns <= 512 && o.rows >= 3 && o.rows <= 512 && o.tearRatio > 1.f;
}

// Draws the intact sticks, seen from the front, from the pins down to the floor (holes show as gaps).
void drawAscii(const Ragdoll& cloth, Vec3 pinCorner, float width)
{
    constexpr int W = 72, H = 30;
    char grid[H][W + 1];
    for (auto& line : grid) {
        std::memset(line, ' ', W);
        line[W] = '\0';
    }
    const auto positions = cloth.positions();
    const auto sticks = cloth.rig().description().sticks;
    for (std::uint32_t s = 0; s < sticks.size(); ++s) {
        if (cloth.stickTorn(s))
            continue;
        for (float t : {0.f, 0.5f, 1.f}) {
            const Vec3 p = positions[std::uint32_t(sticks[s].a)] * (1.f - t) + positions[std::uint32_t(sticks[s].b)] * t;
            const int x = int((p.x - pinCorner.x + 0.1f * width) / (1.2f * width) * W);
            const int y = int((pinCorner.y - p.y) / pinCorner.y * (H - 1)); // the last line is the floor
            if (x >= 0 && x < W && y >= 0 && y < H)
                grid[y][x] = '#';
        }
    }
    for (const auto& line : grid)
        std::printf("  |%s|\n", line);
}

} // namespace

int main(int argc, char** argv)
{
    Options o;
    if (!parseOptions(argc, argv, o)) {
        std::fprintf(stderr, "usage: cloth [--frames N] [--columns 3..512] [--rows 3..512] [--tear RATIO>1] [--ascii]\n");
        return 2;
    }

    // 1. The curtain as a rig: a grid in the XY plane hanging down from y = 0, its top row kinematic
    // (mass 0: the tutorial's "pin PM"), every stick tearable. Relaxation makes a long hanging chain of sticks
    // stretch under its own weight when the iterations are few (8: the top rows 37 % longer; 16: 18 %), so
    // the curtain takes 16, or it would tear by itself.
    rig::RigDescription curtain = makeCloth(o.columns, o.rows, o.spacing, true, o.tearRatio);
    curtain.settings.iterations = 16;
    std::string error;
    const std::shared_ptr<const Rig> rig = Rig::build(curtain, &error);
    if (!rig) {
        std::fprintf(stderr, "error: %s\n", error.c_str());
        return 1;
    }
    const std::size_t stickCount = rig->description().sticks.size();

    // 2. A world with a floor, and the curtain hung with its top edge 2.5 m up, centred on x = 0.
    // Every movable particle is a contact candidate against every plane, so the contact buffer reserved per
    // ragdoll (96 by default, plenty for a character) must hold one per particle here.
    WorldSettings settings;
    settings.contactsPerRagdoll = std::uint32_t(o.columns * o.rows);
    World world(settings);
    world.addPlane({0.f, 1.f, 0.f}, 0.f);
    const float width = float(o.columns - 1) * o.spacing;
    const Vec3 pinCorner{-0.5f * width, 2.5f, 0.f};
    const RagdollHandle handle = world.spawn(rig, {Quat{}, pinCorner}, {}, &error);
    Ragdoll& cloth = *world.ragdoll(handle);
    std::printf("cloth: %d x %d particles %.0f cm apart, %zu sticks tearing at %.1f x their length, %d pinned\n",
                o.columns, o.rows, double(o.spacing * 100.f), stickCount, double(o.tearRatio), o.columns);

    // 3. The schedule: hang still for a second, then grab a 4 × 4 patch at the middle of the bottom edge (16
    // pins, the most a ragdoll takes besides its rig's own) and pull it down at 0.5 m/s for a second, as the
    // tutorial's mouse drags the points under it; then let go.
    std::vector<std::uint32_t> grabbed;
    for (int row = o.rows - 4; row < o.rows; ++row)
        for (int column = o.columns / 2 - 2; column < o.columns / 2 + 2; ++column)
            grabbed.push_back(std::uint32_t(row * o.columns + column));
    std::vector<Vec3> hands(grabbed.size());
    const int grabFrame = 60, releaseFrame = 120;
    const Vec3 dragVelocity{0.f, -0.5f, 0.f};
    for (int frame = 1; frame <= o.frames; ++frame) {
        for (std::size_t k = 0; frame >= grabFrame && frame < releaseFrame && k < grabbed.size(); ++k) {
            if (frame == grabFrame)
                hands[k] = cloth.positions()[grabbed[k]];
            hands[k] += dragVelocity * world.settings().timeStep;
            cloth.setPin(grabbed[k], hands[k]); // kinematic: the particle is put on the hand every iteration
        }
        if (frame == grabFrame)
            std::printf("frame %d: grab %zu particles at the bottom edge and pull them down\n", frame, grabbed.size());
        if (frame == releaseFrame) {
            for (std::uint32_t particle : grabbed)
                cloth.releasePin(particle); // it keeps the velocity it had
            std::printf("frame %d: let go\n", frame);
        }
        world.step(); // one fixed step; a game would call world.advance(frameSeconds) instead
    }

    // 4. Report: torn sticks, and where the curtain is relative to its pins.
    std::size_t torn = 0;
    for (std::uint32_t s = 0; s < stickCount; ++s)
        torn += cloth.stickTorn(s) ? 1 : 0;
    float highest = -1e30f;
    int onFloor = 0;
    const auto positions = cloth.positions();
    const auto inverseMasses = cloth.inverseMasses();
    for (std::size_t i = 0; i < positions.size(); ++i)
        if (inverseMasses[i] > 0.f) { // the free particles
            highest = std::max(highest, positions[i].y);
            onFloor += positions[i].y < 0.05f ? 1 : 0;
        }
    if (o.ascii)
        drawAscii(cloth, pinCorner, width);
    std::printf("torn: %zu of %zu sticks\n", torn, stickCount);
    std::printf("hangs: highest free particle at %.3f m, pins at %.3f m: %s; %d particles torn off on the floor\n",
                double(highest), double(pinCorner.y), highest < pinCorner.y ? "below the pins" : "NOT below the pins",
                onFloor);
    return 0;
}
