// Seeded hard drops, the impact targets of the solver (docs/physics.md, "Impact quality"): a rig dropped from
// 1.3–3.5 m in a random orientation onto a floor, one random strike of up to 60 N·s on a random stick between
// frames 10 and 60, 600 frames at 60 Hz with default sleep. Shared by tst_impact (the procedural humanoid) and
// tst_samplehardrops (the sample characters). Header-only; include after RuntimeTestSupport.h.
#pragma once

#include "RuntimeTestSupport.h"

#include <QString>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

namespace marionette::test {

/// The value below which `fraction` of the values lie.
inline float percentile(std::vector<float> v, float fraction)
{
    if (v.empty())
        return 0.f;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(fraction * float(v.size())))];
}

/// Per drop: the worst hinge excess (°; angular constraints the runtime treats as hinges), the worst stick
/// error (% of its length or range) and when the body fell asleep for good (s; 99 when it never did).
struct HardDropFigures {
    std::vector<float> hingeDeg, stickPercent, asleepSeconds;
    int failedDrop = -1; ///< first drop that could not spawn or reached a non-finite position, or −1

    long notAsleepWithin(float seconds) const
    {
        return std::count_if(asleepSeconds.begin(), asleepSeconds.end(), [&](float t) { return t > seconds; });
    }
    QString describe() const
    {
        return QStringLiteral("%1 hard drops: hinge excess p50 %2° p90 %3° max %4°; stick error p50 %5 % p90 %6 % max "
                              "%7 %; asleep p50 %8 s p90 %9 s, %10 not asleep within 10 s")
            .arg(hingeDeg.size())
            .arg(num(percentile(hingeDeg, 0.5f), 3), num(percentile(hingeDeg, 0.9f), 3), num(percentile(hingeDeg, 1.f), 3),
                 num(percentile(stickPercent, 0.5f), 3), num(percentile(stickPercent, 0.9f), 3),
                 num(percentile(stickPercent, 1.f), 3), num(percentile(asleepSeconds, 0.5f), 3),
                 num(percentile(asleepSeconds, 0.9f), 3))
            .arg(notAsleepWithin(10.f));
    }
};

/// `count` seeded hard drops of `rig` (built from `d`), each in a world of its own with one floor plane.
inline HardDropFigures hardDrops(const rig::RigDescription& d, const std::shared_ptr<const runtime::Rig>& rig,
                                 std::uint32_t seed, int count)
{
    using namespace runtime;
    HardDropFigures out;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.f, 1.f);
    std::vector<float> strains(rig->sticks().size()), excesses(rig->angular().size());
    const auto angular = rig->angular();
    for (int drop = 0; drop < count; ++drop) {
        const float height = 1.3f + 2.2f * u(rng);
        const Vec3 axis = normalizeOr(Vec3{u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f}, {1.f, 0.f, 0.f});
        const Quat q = Quat::fromAxisAngle(axis, 2.f * kPi * u(rng));
        const int strikeFrame = 10 + int(50.f * u(rng));
        const std::uint32_t stick = std::uint32_t(u(rng) * float(d.sticks.size())) % std::uint32_t(d.sticks.size());
        const Vec3 strike = normalizeOr(Vec3{u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f}, {1.f, 0.f, 0.f}) * (60.f * u(rng));
        WorldSettings ws;
        ws.threads = 1;
        World world(ws);
        world.addPlane({0.f, 1.f, 0.f}, 0.f);
        // The body's lowest point, whatever the orientation, `height` above the floor.
        float low = 1e9f;
        for (const rig::Particle& p : d.particles)
            low = std::min(low, q.rotate(p.position).y - p.radius);
        const RagdollHandle h = world.spawn(rig, Transform{q, {0.f, height - low, 0.f}});
        Ragdoll* r = world.ragdoll(h);
        if (r == nullptr) {
            out.failedDrop = drop;
            return out;
        }
        float hinge = 0.f, worstStick = 0.f;
        int sleptAt = -1;
        for (int f = 0; f < 600; ++f) {
            if (f == strikeFrame)
                r->applyImpulseOnStick(stick, 0.5f, strike);
            world.step();
            if (!worldSuites::allFinite(*r) && out.failedDrop < 0)
                out.failedDrop = drop;
            r->angularExcesses(excesses);
            for (std::size_t k = 0; k < angular.size(); ++k)
                if (angular[k].hinge)
                    hinge = std::max(hinge, excesses[k]);
            r->stickStrains(strains);
            for (float s : strains)
                worstStick = std::max(worstStick, std::fabs(s));
            if (r->asleep() && sleptAt < 0)
                sleptAt = f + 1;
            if (!r->asleep())
                sleptAt = -1;
        }
        out.hingeDeg.push_back(degrees(hinge));
        out.stickPercent.push_back(worstStick * 100.f);
        out.asleepSeconds.push_back(sleptAt < 0 ? 99.f : float(sleptAt) / 60.f);
    }
    return out;
}

} // namespace marionette::test
