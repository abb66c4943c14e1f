// Timing steps of many ragdolls (Bench.h).
#include "marionette/editor/preview/Bench.h"

#include "marionette/editor/preview/TestScenes.h"
#include "marionette/runtime/Procedural.h"
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
    // Piles: runtime::pilePlacements. Otherwise standing on a square grid, the bind pose's lowest point 1 m up,
    // randomly yawed.
    std::vector<Transform> placements;
    if (options.piles) {
        placements = runtime::pilePlacements(*rig, std::size_t(count));
    } else {
        const long side = std::max(1L, long(std::ceil(std::sqrt(double(count)))));
        const float spacing = std::max(3.f, 2.5f * rig->boundingRadius());
        const float lift = 1.f - bindBottom(*rig);
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> yaw(0.f, 2.f * kPi);
        for (long i = 0; i < count; ++i) {
            const Quat turn = Quat::fromAxisAngle({0.f, 1.f, 0.f}, yaw(rng));
            placements.push_back(Transform{turn, {spacing * float(i % side), lift, spacing * float(i / side)}});
        }
    }
    for (std::size_t i = 0; i < placements.size(); ++i) {
        std::string error;
        if (world.spawn(rig, placements[i], {}, &error) == runtime::kInvalidRagdoll) {
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
