// A powered ragdoll playing a clip (DrivenRun.h).
#include "marionette/editor/preview/DrivenRun.h"

#include "marionette/editor/preview/AnimationPose.h"
#include "marionette/editor/preview/ClipPlayback.h"
#include "marionette/editor/preview/RunFigures.h"
#include "marionette/editor/preview/TestScenes.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <algorithm>
#include <cmath>

namespace marionette::editor {

std::vector<std::int32_t> rigBonesInScene(const rig::RigDescription& rig, const import::ImportedScene& scene)
{
    std::vector<std::int32_t> out(rig.bones.size(), -1);
    for (std::size_t b = 0; b < rig.bones.size(); ++b)
        for (std::size_t s = 0; s < scene.skeleton.size(); ++s)
            if (scene.skeleton[s].name == rig.bones[b].name) {
                out[b] = std::int32_t(s);
                break;
            }
    return out;
}

std::vector<Mat4> rigPalette(const rig::RigDescription& rig, const import::ImportedScene& scene,
                             const std::vector<std::int32_t>& bonesInScene, std::size_t clip, float t)
{
    const std::vector<Mat4> world = sampleBoneWorld(scene, clip, t);
    if (world.empty())
        return {};
    std::vector<Mat4> out(rig.bones.size());
    for (std::size_t b = 0; b < rig.bones.size(); ++b) {
        const std::int32_t s = b < bonesInScene.size() ? bonesInScene[b] : -1;
        if (s >= 0)
            out[b] = world[std::size_t(s)];
        else if (rig.bones[b].parent >= 0)
            out[b] = out[std::size_t(rig.bones[b].parent)] * rig.bones[b].bindLocal;
        else
            out[b] = rig.bones[b].bindWorld;
    }
    return out;
}

DrivenRunResult runDriven(const rig::RigDescription& description, const import::ImportedScene& scene,
                          const DrivenRunOptions& options)
{
    DrivenRunResult out;
    std::string error;
    const std::shared_ptr<const runtime::Rig> rig = runtime::Rig::build(description, &error);
    if (!rig) {
        out.error = error;
        return out;
    }
    // The clip as the editor's driven preview plays it: looped with its root motion, on the scene's top.
    ClipPlayback play;
    if (!play.init(description, scene, options.clip, error)) {
        out.error = error;
        return out;
    }
    play.setPlacement(Transform{Quat{}, {0.f, sceneTopHeight(options.scene), 0.f}});
    const std::size_t root = play.rootBone();
    const float top = sceneTopHeight(options.scene);

    runtime::WorldSettings ws;
    ws.timeStep = rig->settings().timeStep;
    ws.gravity = rig->settings().gravity;
    ws.sleep = false;
    runtime::World world(ws);
    RunFigures figures(buildTestScene(world, options.scene));
    runtime::Ragdoll* r = world.ragdoll(world.spawn(rig, Transform{}, {}, &error));
    if (!r) {
        out.error = error;
        return out;
    }
    const float dt = rig->settings().timeStep;
    const float seconds = options.seconds >= 0.f ? options.seconds : scene.animations[options.clip].duration;
    const std::uint32_t frames = std::uint32_t(std::max(0L, std::lround(double(seconds) / double(dt))));
    const std::size_t n = rig->particleCount(), nb = description.bones.size();

    // Start in the clip's first pose, moving as it moves.
    std::vector<Mat4> palette = play.palette(0.0);
    if (!placeOnPalette(*r, palette, play.palette(double(dt)), error)) {
        out.error = error;
        return out;
    }
    if (!options.gains.empty() && !r->setDriveGains(options.gains, 0.f, &error)) {
        out.error = error;
        return out;
    }

    out.frames = frames;
    out.bonePosition.assign(nb, 0.f);
    out.boneAngle.assign(nb, 0.f);
    const std::size_t parts = rig->driveParts().size();
    out.partPosition.assign(parts, 0.f);
    out.partAngle.assign(parts, 0.f);
    out.particles.reserve(std::size_t(frames) * n);
    out.targets.reserve(std::size_t(frames) * n);
    std::vector<Mat4> mine(nb);
    std::vector<float> boneP(nb), boneA(nb);
    float lastHit = -1.f;
    for (const DrivenHit& h : options.hits)
        lastHit = std::max(lastHit, h.seconds);
    std::uint32_t calmSince = 0;
    bool calm = false;
    for (std::uint32_t f = 0; f < frames; ++f) {
        const float t = float(f + 1) * dt;
        play.palette(double(f + 1) * double(dt), palette);
        r->setPoseTarget(palette);
        for (const DrivenHit& h : options.hits)
            if (std::lround(double(h.seconds) / double(dt)) == long(f))
                r->applyImpulse(h.particle, h.impulse);
        for (const DrivenSwitch& sw : options.switches)
            if (std::lround(double(sw.seconds) / double(dt)) == long(f) && !r->setDriveGains(sw.gains, sw.blend, &error)) {
                out.error = error;
                return out;
            }
        if (options.killAt >= 0.f && std::lround(double(options.killAt) / double(dt)) == long(f))
            r->goLimp(options.killBlend);
        world.step();
        figures.measure(*r, t, dt);
        for (std::uint32_t p = 0; p < parts; ++p) {
            float metres = 0.f, angle = 0.f;
            if (r->partTrackingError(p, metres, angle)) {
                out.partPosition[p] = std::max(out.partPosition[p], metres);
                out.partAngle[p] = std::max(out.partAngle[p], angle);
            }
        }
        r->boneMatrices(mine);
        const Vec3 rootMine = mine[root].translation(), rootClip = palette[root].translation();
        float worstP = 0.f, worstA = 0.f;
        trackingError(mine, palette, root, worstP, worstA, boneP, boneA);
        for (std::size_t b = 0; b < nb; ++b) {
            if (boneP[b] > out.bonePosition[b])
                out.bonePosition[b] = boneP[b];
            if (boneA[b] > out.boneAngle[b])
                out.boneAngle[b] = boneA[b];
            out.finite = out.finite && std::isfinite(boneP[b]) && std::isfinite(boneA[b]);
        }
        out.framePosition.push_back(worstP);
        out.frameAngle.push_back(worstA);
        out.particles.insert(out.particles.end(), r->positions().begin(), r->positions().end());
        out.targets.insert(out.targets.end(), r->particleTargets().begin(), r->particleTargets().end());
        const float drop = rootMine.y - rootClip.y;
        out.lowestRootHeight = std::min(out.lowestRootHeight, drop);
        if (rootMine.y - top < 0.5f * (rootClip.y - top))
            out.fell = true;
        if (lastHit >= 0.f && t > lastHit) {
            const bool below = worstP < options.recoveredBelow;
            if (below && !calm)
                calmSince = f;
            calm = below;
        }
    }
    for (std::size_t b = 0; b < nb; ++b) {
        if (out.bonePosition[b] > out.worstPosition) {
            out.worstPosition = out.bonePosition[b];
            out.worstPositionBone = std::int32_t(b);
        }
        if (out.boneAngle[b] > out.worstAngle) {
            out.worstAngle = out.boneAngle[b];
            out.worstAngleBone = std::int32_t(b);
        }
    }
    out.finite = out.finite && figures.finite();
    out.maxStickError = figures.worstStickError();
    out.worstStick = figures.worstStick();
    out.maxLimitExcess = figures.worstLimitExcess();
    out.worstLimit = figures.worstLimit();
    out.maxPenetration = figures.maxPenetration();
    out.minHeight = frames > 0 ? figures.minHeight() : 0.f;
    if (lastHit >= 0.f && calm)
        out.recoveredAfter = float(calmSince + 1) * dt - lastHit;
    return out;
}

} // namespace marionette::editor
