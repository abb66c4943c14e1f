// Dropping a rig onto a floor through the runtime, for the suites that check what a rig template made
// (tst_autorig, tst_autorighumanoid, tests/plugins/tst_quadruped): a world with a floor at y = 0, sleep off
// and one thread; what a drop measured; the bind-pose skinning palette. Header-only; needs
// Marionette::runtime.
#pragma once

#include "marionette/Math.h"
#include "marionette/rig/RigDescription.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <QString>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace marionette::test {

/// A world with a floor at y = 0 (sleep off, one thread) and one ragdoll of the rig. body is null when the
/// rig or the spawn was refused (error says why).
struct Drop {
    std::shared_ptr<const runtime::Rig> rig;
    std::unique_ptr<runtime::World> world;
    runtime::Ragdoll* body = nullptr;
    std::vector<float> radii; ///< the description's particle radii, by particle index
    std::string error;
};

inline Drop spawnOnFloor(const rig::RigDescription& d, const Transform& placement)
{
    Drop s;
    s.rig = runtime::Rig::build(d, &s.error);
    if (!s.rig)
        return s;
    for (const rig::Particle& p : d.particles)
        s.radii.push_back(p.radius);
    runtime::WorldSettings ws;
    ws.sleep = false;
    ws.threads = 1;
    s.world = std::make_unique<runtime::World>(ws);
    s.world->addPlane({0.f, 1.f, 0.f}, 0.f);
    s.body = s.world->ragdoll(s.world->spawn(s.rig, placement, {}, &s.error));
    return s;
}

/// The placement that turns `d` by `rotation` and lifts it so its lowest particle sphere is `height` above
/// the floor.
inline Transform dropPlacement(const rig::RigDescription& d, Quat rotation, float height)
{
    float lowest = std::numeric_limits<float>::max();
    for (const rig::Particle& p : d.particles)
        lowest = std::min(lowest, rotation.rotate(p.position).y - p.radius);
    return {rotation, {0.f, height - lowest, 0.f}};
}

/// What a drop measured: finite all along, the lowest particle centre and the lowest point of any particle
/// sphere, the fastest particle at the end, and the first frame after which every particle stayed below
/// 5 cm/s (-1 when it never did).
struct DropResult {
    bool finite = true;
    float lowest = std::numeric_limits<float>::max();
    float lowestSurface = std::numeric_limits<float>::max();
    float finalSpeed = 0.f;
    int restFrame = -1;
};

/// Steps the world of `s` (whose body must exist) `frames` times.
inline DropResult runDrop(Drop& s, int frames)
{
    DropResult r;
    const float dt = s.world->settings().timeStep;
    std::vector<Vec3> last(s.body->positions().begin(), s.body->positions().end());
    for (int n = 1; n <= frames; ++n) {
        s.world->step();
        float fastest = 0.f; // over the frame, as `marionette simulate` measures it
        for (std::uint32_t i = 0; i < s.body->particleCount(); ++i) {
            const Vec3 x = s.body->positions()[i];
            r.finite = r.finite && isFinite(x);
            r.lowest = std::min(r.lowest, x.y);
            r.lowestSurface = std::min(r.lowestSurface, x.y - (i < s.radii.size() ? s.radii[i] : 0.f));
            fastest = std::max(fastest, length(x - last[i]) / dt);
            last[i] = x;
        }
        if (fastest >= 0.05f)
            r.restFrame = -1;
        else if (r.restFrame < 0)
            r.restFrame = n;
        r.finalSpeed = fastest;
    }
    return r;
}

inline QString describe(const DropResult& r)
{
    auto num = [](float v) { return QString::number(double(v), 'g', 5); };
    return QStringLiteral("finite %1, lowest particle centre %2 m, lowest sphere point %3 m, final speed %4 m/s, "
                          "at rest from frame %5")
        .arg(r.finite)
        .arg(num(r.lowest), num(r.lowestSurface), num(r.finalSpeed))
        .arg(r.restFrame);
}

/// Largest deviation from the identity of the skinning palette of `d` spawned in its bind pose, or -1 when
/// it cannot be spawned.
inline float bindPaletteError(const rig::RigDescription& d)
{
    Drop s = spawnOnFloor(d, {});
    if (!s.body)
        return -1.f;
    std::vector<Mat4> skin(d.bones.size());
    if (!s.body->skinningMatrices(skin))
        return -1.f;
    float worst = 0.f;
    for (const Mat4& m : skin)
        for (int k = 0; k < 16; ++k)
            worst = std::max(worst, std::fabs(m.m[k] - Mat4{}.m[k]));
    return worst;
}

} // namespace marionette::test
