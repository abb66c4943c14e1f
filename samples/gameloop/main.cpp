// gameloop: the frame loop a game runs around the Marionette runtime.
//
// Loads a .mrig, builds a small level (a floor, a flight of stairs, boxes), drops many ragdolls on it, shoots
// and blows them up on a schedule, and runs the simulation at a fixed step fed by the display's frame time
// through the accumulator, reading every ragdoll's skinning palette each frame as a renderer would. At the
// end it reports the frame cost and the state of the ragdolls.
//
//   gameloop [RIG.mrig] [--count N] [--frames N] [--hz HZ] [--threads N]
//
// The display clock is simulated (HZ frames per second with a little jitter and one long stall three quarters in), so
// the run is the same on every machine and needs no window; only the timings are measured for real.
#include "marionette/runtime/World.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace marionette;
using namespace marionette::runtime;

namespace {

struct Options {
    std::string rig = MARIONETTE_SAMPLE_RIG; // the mannequin exported by the build
    int count = 32;                          // ragdolls
    int frames = 600;                        // display frames
    float hz = 75.f;                         // display refresh rate: not the physics rate, on purpose
    int threads = 1;
};

bool parseOptions(int argc, char** argv, Options& o)
{
    for (int i = 1; i < argc; ++i) {
        const bool hasValue = i + 1 < argc;
        if (!std::strcmp(argv[i], "--count") && hasValue)
            o.count = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--frames") && hasValue)
            o.frames = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--hz") && hasValue)
            o.hz = float(std::atof(argv[++i]));
        else if (!std::strcmp(argv[i], "--threads") && hasValue)
            o.threads = std::atoi(argv[++i]);
        else if (argv[i][0] != '-')
            o.rig = argv[i];
        else
            return false;
    }
    return o.count >= 1 && o.count <= 4096 && o.frames >= 1 && o.hz >= 1.f && o.hz <= 1000.f &&
           o.threads >= 1 && o.threads <= 64;
}

// The level: static geometry never moves, so it is added once. Ragdolls collide with it by projection.
struct Level {
    float halfSize; // the play area is [-halfSize, halfSize]² on the floor
    int stairs = 0, boxes = 0;
};

Level buildLevel(World& world, int ragdolls)
{
    Level level{1.f + 0.8f * std::ceil(std::sqrt(float(ragdolls)))};
    world.addPlane({0.f, 1.f, 0.f}, 0.f); // the floor: the half-space y <= 0 is solid

    // A flight of six 18 cm steps along the -Z edge: each step is a box from the floor to its tread.
    for (int s = 0; s < 6; ++s) {
        const float rise = 0.18f * float(s + 1), depth = 0.3f;
        const Transform pose{Quat{}, {0.f, rise * 0.5f, -level.halfSize + 0.5f * depth + depth * float(5 - s)}};
        world.addBox(pose, {level.halfSize * 0.5f, rise * 0.5f, depth * 0.5f});
        ++level.stairs;
    }
    // Boxes on a ring, turned about Y, for the ragdolls to land on and slide off.
    for (int b = 0; b < 5; ++b) {
        const float angle = 2.f * kPi * float(b) / 5.f;
        const Vec3 at{0.5f * level.halfSize * std::cos(angle), 0.35f, 0.5f * level.halfSize * std::sin(angle)};
        world.addBox({Quat::fromAxisAngle({0.f, 1.f, 0.f}, angle), at}, {0.5f, 0.35f, 0.4f});
        ++level.boxes;
    }
    return level;
}

// Drops the ragdolls on a grid over the level, each turned about Y and lifted 1-3 m above the floor.
std::vector<RagdollHandle> spawnRagdolls(World& world, const std::shared_ptr<const Rig>& rig, const Level& level,
                                         int count, std::mt19937& random)
{
    // The rig's lowest point in its bind pose, so the drop height does not depend on where it was authored.
    float lowest = 1e30f;
    for (std::size_t i = 0; i < rig->particleCount(); ++i)
        lowest = std::min(lowest, rig->bindPositions()[i].y - rig->radii()[i]);

    std::uniform_real_distribution<float> unit(0.f, 1.f);
    const int columns = int(std::ceil(std::sqrt(float(count))));
    const float cell = 2.f * (level.halfSize - 0.8f) / float(columns);
    std::vector<RagdollHandle> handles;
    for (int i = 0; i < count; ++i) {
        const float x = -level.halfSize + 0.8f + cell * (float(i % columns) + 0.5f);
        const float z = -level.halfSize + 0.8f + cell * (float(i / columns) + 0.5f);
        const Transform placement{Quat::fromAxisAngle({0.f, 1.f, 0.f}, 2.f * kPi * unit(random)),
                                  {x, 1.f + 2.f * unit(random) - lowest, z}};
        std::string error;
        const RagdollHandle h = world.spawn(rig, placement, {}, &error); // allocates here, never in step()
        if (h == kInvalidRagdoll) {
            std::fprintf(stderr, "error: spawn: %s\n", error.c_str());
            std::exit(1);
        }
        handles.push_back(h);
    }
    return handles;
}

// A shot: an impulse on the ragdoll's heaviest particle (its torso, in a humanoid), sized to change the
// whole body's momentum by 1.5 m/s so it reads the same for any rig.
void shoot(Ragdoll& ragdoll, Vec3 direction)
{
    const auto masses = ragdoll.rig().masses();
    const auto heaviest = std::uint32_t(std::max_element(masses.begin(), masses.end()) - masses.begin());
    ragdoll.applyImpulse(heaviest, direction * (1.5f * ragdoll.rig().totalMass())); // wakes it too
}

double percentile(std::vector<double> values, double p)
{
    std::sort(values.begin(), values.end());
    return values[std::size_t(p * double(values.size() - 1) + 0.5)];
}

} // namespace

int main(int argc, char** argv)
{
    Options options;
    if (!parseOptions(argc, argv, options)) {
        std::fprintf(stderr, "usage: gameloop [RIG.mrig] [--count 1..4096] [--frames N] [--hz HZ] [--threads N]\n");
        return 2;
    }

    // 1. Load the rig once; every ragdoll shares it. A bad file is a message naming the file, never a crash.
    std::string error;
    const std::shared_ptr<const Rig> rig = Rig::load(options.rig, &error);
    if (!rig) {
        std::fprintf(stderr, "error: %s\n", error.c_str()); // "PATH: what is wrong"
        return 1;
    }
    const std::size_t boneCount = rig->bones().size();
    std::printf("gameloop: %s: %zu particles, %zu sticks, %zu bones, %.1f kg\n", options.rig.c_str(),
                rig->particleCount(), rig->description().sticks.size(), boneCount, double(rig->totalMass()));

    // 2. The world: fixed step 1/60 s, at most 4 steps per frame, so a stall cannot spiral.
    WorldSettings settings;
    settings.timeStep = 1.f / 60.f;
    settings.maxSubsteps = 4;
    settings.threads = std::uint32_t(options.threads);
    World world(settings);
    const Level level = buildLevel(world, options.count);
    std::mt19937 random(7); // fixed seed: the same run every time
    const std::vector<RagdollHandle> handles = spawnRagdolls(world, rig, level, options.count, random);
    std::printf("level: floor, %d stairs, %d boxes, %.0f m square; %d ragdolls dropped from 1-3 m\n", level.stairs,
                level.boxes, double(2.f * level.halfSize), options.count);
    std::printf("display %.0f Hz, fixed step 1/%.0f s, at most %u steps per frame, %d thread(s)\n",
                double(options.hz), double(1.f / settings.timeStep), settings.maxSubsteps, options.threads);

    // The renderer's skinning palette, one per ragdoll, allocated before the loop (the loop never allocates).
    std::vector<std::vector<Mat4>> palettes(handles.size(), std::vector<Mat4>(boneCount));

    std::vector<double> frameMs;
    frameMs.reserve(std::size_t(options.frames));
    double stepSeconds = 0.0, displayTime = 0.0;
    std::uint64_t steps = 0;
    std::uniform_real_distribution<float> jitter(-0.1f, 0.1f);
    for (int frame = 1; frame <= options.frames; ++frame) {
        // 3. The display's frame time: 1/HZ with ±10 % jitter, and one 0.25 s stall (a loading hitch) late on.
        float frameTime = (1.f + jitter(random)) / options.hz;
        if (frame == 3 * options.frames / 4)
            frameTime = 0.25f;
        displayTime += double(frameTime);

        // 4. Gameplay, between steps: shots at 1 s and 4 s, an explosion at 2.5 s.
        const int second = int(options.hz);
        if (frame == second || frame == 4 * second) {
            int shots = 0;
            for (std::size_t i = frame == second ? 0 : 1; i < handles.size(); i += 2, ++shots) {
                const float a = 2.f * kPi * float(i) / float(handles.size());
                shoot(*world.ragdoll(handles[i]), {std::cos(a), 0.4f, std::sin(a)});
            }
            std::printf("frame %4d: shot %d ragdolls\n", frame, shots);
        }
        if (frame == 5 * second / 2) {
            // Every particle within halfSize gains 15 / d² m/s away from the centre (at most 15 m/s, within 1 m).
            world.applyExplosion({0.f, 0.f, 0.f}, 15.f, level.halfSize, 1.f);
            std::printf("frame %4d: explosion at the centre of the level\n", frame);
        }

        const auto start = std::chrono::steady_clock::now();
        // 5. Physics: advance() adds the frame time to the accumulator and takes as many fixed steps as fit
        // (0, 1 or more), at most maxSubsteps; the leftover time waits for the next frame.
        const std::uint32_t taken = world.advance(frameTime);
        const auto stepped = std::chrono::steady_clock::now();

        // 6. Rendering: blend the last two steps by the leftover fraction, so motion is smooth at any rate.
        const float alpha = world.interpolation();
        for (std::size_t i = 0; i < handles.size(); ++i)
            world.ragdoll(handles[i])->skinningMatrices(palettes[i], alpha); // upload these to the skinning shader
        const auto end = std::chrono::steady_clock::now();

        frameMs.push_back(std::chrono::duration<double, std::milli>(end - start).count());
        stepSeconds += std::chrono::duration<double>(stepped - start).count();
        steps += taken;
        if (frameTime > float(settings.maxSubsteps) * settings.timeStep) {
            const float dropped = frameTime - float(settings.maxSubsteps) * settings.timeStep;
            std::printf("frame %4d: stall of %.2f s: %u steps taken, about %.2f s of it dropped\n", frame,
                        double(frameTime), taken, double(dropped));
        }
    }

    // 7. Report: frame cost and the final state.
    const double ragdollSteps = double(steps) * double(handles.size());
    std::printf("frames %d (%.2f s of display time), %llu fixed steps (%.2f s simulated)\n", options.frames,
                displayTime, static_cast<unsigned long long>(steps), double(steps) * double(settings.timeStep));
    std::printf("frame cost: median %.3f ms, p95 %.3f ms, max %.3f ms; %.2f us per ragdoll-step\n",
                percentile(frameMs, 0.5), percentile(frameMs, 0.95), percentile(frameMs, 1.0),
                ragdollSteps > 0 ? stepSeconds * 1e6 / ragdollSteps : 0.0);

    int asleep = 0, below = 0;
    float lowestParticle = 1e30f;
    for (RagdollHandle h : handles) {
        const Ragdoll& r = *world.ragdoll(h);
        asleep += r.asleep() ? 1 : 0;
        bool under = false;
        for (const Vec3& p : r.positions()) {
            lowestParticle = std::min(lowestParticle, p.y);
            under = under || !std::isfinite(p.y) || p.y < -0.01f; // a particle's centre under the floor
        }
        below += under ? 1 : 0;
    }
    std::printf("end: %zu ragdolls, %d asleep, %d below the floor (lowest particle at %.3f m)\n", handles.size(),
                asleep, below, double(lowestParticle));
    return 0;
}
