// Timing steps of many ragdolls (Bench.h).
#include "marionette/editor/preview/Bench.h"

#include "marionette/editor/preview/TestScenes.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace marionette::editor {

BenchResult benchRig(const std::shared_ptr<const runtime::Rig>& rig, const BenchOptions& options)
{
    BenchResult result;
    const long count = std::max(1L, options.ragdolls), frameCount = std::max(1L, options.frames);
    runtime::WorldSettings ws;
    ws.timeStep = rig->settings().timeStep;
    ws.threads = std::uint32_t(std::clamp(options.threads, 1L, 64L));
    ws.sleep = options.sleep;
    runtime::World world(ws);
    world.addPlane({0.f, 1.f, 0.f}, 0.f);
    const bool piles = options.piles;
    const long cells = piles ? (count + 9) / 10 : count;
    const long side = std::max(1L, long(std::ceil(std::sqrt(double(cells)))));
    const float spacing = std::max(3.f, 2.5f * rig->boundingRadius());
    // The bind pose's bounds: piles lie each body down (its up axis turned to horizontal about X, centred on
    // its middle) and stack them, the lowest centre 1 m up, one body's depth (at least 0.5 m) apart.
    Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
    for (std::size_t i = 0; i < rig->particleCount(); ++i) {
        const Vec3 r{rig->radii()[i], rig->radii()[i], rig->radii()[i]};
        lo = vmin(lo, rig->bindPositions()[i] - r);
        hi = vmax(hi, rig->bindPositions()[i] + r);
    }
    const Vec3 middle = (lo + hi) * 0.5f;
    const float layer = std::max(0.5f, 1.2f * (hi.z - lo.z)); // lying down, the body's depth becomes its height
    const Transform lieDown{Quat::fromAxisAngle({1.f, 0.f, 0.f}, 0.5f * kPi), {}};
    const float lift = 1.f - bindBottom(*rig);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> yaw(0.f, 2.f * kPi);
    for (long i = 0; i < count; ++i) {
        const long cell = piles ? i / 10 : i, level = piles ? i % 10 : 0;
        const Quat turn = Quat::fromAxisAngle({0.f, 1.f, 0.f}, yaw(rng));
        const float x = spacing * float(cell % side), z = spacing * float(cell / side);
        const Transform placement = piles ? Transform{turn, {x, 1.f + layer * float(level), z}} * lieDown *
                                                Transform{Quat{}, -middle}
                                          : Transform{turn, {x, lift, z}};
        std::string error;
        if (world.spawn(rig, placement, {}, &error) == runtime::kInvalidRagdoll) {
            result.error = QStringLiteral("cannot spawn ragdoll %1: %2").arg(i).arg(QString::fromStdString(error));
            return result;
        }
    }
    std::vector<double> stepMicros;
    stepMicros.reserve(std::size_t(frameCount));
    double newtonSteps = 0.0, factorizations = 0.0;
    for (long f = 0; f < frameCount; ++f) {
        const auto t0 = std::chrono::steady_clock::now();
        world.step();
        stepMicros.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
        newtonSteps += double(world.stats().newtonSteps);
        factorizations += double(world.stats().factorizations);
        if (options.progress)
            options.progress(f + 1);
    }
    std::nth_element(stepMicros.begin(), stepMicros.begin() + std::ptrdiff_t(stepMicros.size() / 2), stepMicros.end());
    result.usPerStepMedian = stepMicros[stepMicros.size() / 2];
    result.usPerRagdollStep = result.usPerStepMedian / double(count);
    result.newtonStepsPerRagdollStep = newtonSteps / (double(frameCount) * double(count));
    result.factorizationsPerRagdollStep = factorizations / (double(frameCount) * double(count));
    return result;
}

} // namespace marionette::editor
