// A level of detail against its full rig (LodMeasure.h).
#include "marionette/editor/preview/LodMeasure.h"

#include "marionette/editor/preview/Bench.h"
#include "marionette/editor/preview/PreviewSession.h"
#include "marionette/editor/preview/RunFigures.h"
#include "marionette/editor/preview/ScenarioRunner.h"
#include "marionette/editor/preview/TestScenes.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace marionette::editor {

namespace {

/// The level's particle nearest to `point` (bind positions).
rig::ElementId nearestParticle(const rig::RigDescription& level, Vec3 point)
{
    float best = INFINITY;
    rig::ElementId id = 0;
    for (const rig::Particle& p : level.particles)
        if (const float d = length(p.position - point); d < best) {
            best = d;
            id = p.id;
        }
    return id;
}

template <class T> const T* byId(const std::vector<T>& elements, rig::ElementId id)
{
    for (const T& e : elements)
        if (e.id == id)
            return &e;
    return nullptr;
}

/// The scenario as it acts on the level: hits and drags on elements the level lacks moved to its particle
/// nearest to where they acted on the full rig.
project::Scenario retarget(const project::Scenario& s, const rig::RigDescription& full, const rig::RigDescription& level)
{
    project::Scenario out = s;
    for (project::Hit& hit : out.hits) {
        if (hit.target.kind == project::ElementKind::Particle) {
            if (!byId(level.particles, hit.target.id))
                if (const rig::Particle* p = byId(full.particles, hit.target.id))
                    hit.target.id = nearestParticle(level, p->position);
        } else if (!byId(level.sticks, hit.target.id)) {
            if (const rig::Stick* st = byId(full.sticks, hit.target.id)) {
                const Vec3 a = full.particles[std::size_t(st->a)].position, b = full.particles[std::size_t(st->b)].position;
                hit.target = {project::ElementKind::Particle, nearestParticle(level, a + (b - a) * hit.along)};
            }
        }
    }
    for (project::Drag& drag : out.drags)
        if (!byId(level.particles, drag.particle))
            if (const rig::Particle* p = byId(full.particles, drag.particle))
                drag.particle = nearestParticle(level, p->position);
    return out;
}

/// Bone world positions after every step (and at the start) of a scenario run; `placement` is the drop's
/// placement: the given one, or (when empty) the run's own, returned.
QString recordBones(const rig::RigDescription& rig, const project::Scenario& s, std::optional<Transform>& placement,
                    std::vector<std::vector<Vec3>>& frames)
{
    std::vector<Mat4> bones(rig.bones.size());
    const std::optional<Transform> given = placement;
    const ScenarioResult r = runScenario(rig, s, nullptr, [&](const PreviewSession& session) {
        if (!placement)
            placement = session.placement();
        session.ragdoll().boneMatrices(bones);
        std::vector<Vec3>& f = frames.emplace_back(bones.size());
        for (std::size_t b = 0; b < bones.size(); ++b)
            f[b] = {bones[b].m[12], bones[b].m[13], bones[b].m[14]};
    }, given);
    if (!r.started)
        return r.failures.join(QStringLiteral("; "));
    return {};
}

} // namespace

LodMeasureResult measureLod(const project::Project& project, const rig::RigDescription& level,
                            const LodMeasureOptions& options)
{
    LodMeasureResult result;
    std::vector<project::Scenario> runs;
    for (const project::Scenario& s : project.scenarios)
        if (!s.animationStart && !s.driven)
            runs.push_back(s);
    if (runs.empty())
        for (int heading = 0; heading < 4; ++heading) {
            project::Scenario drop;
            drop.name = QStringLiteral("2 m drop, heading %1°").arg(heading * 90);
            drop.dropHeight = 2.f;
            drop.duration = 5.f;
            drop.initialRotation.rotation = Quat::fromAxisAngle({0.f, 1.f, 0.f}, radians(90.f * float(heading)));
            runs.push_back(drop);
        }
    double sum = 0.0, largest = 0.0;
    std::uint64_t samples = 0, frameCount = 0;
    for (const project::Scenario& s : runs) {
        std::vector<std::vector<Vec3>> fullFrames, levelFrames;
        std::optional<Transform> placement; // the level starts where the full rig starts
        if (QString e = recordBones(project.rig, s, placement, fullFrames); !e.isEmpty()) {
            result.error = QStringLiteral("scenario '%1' with the full rig: %2").arg(s.name, e);
            return result;
        }
        if (QString e = recordBones(level, retarget(s, project.rig, level), placement, levelFrames); !e.isEmpty()) {
            result.error = QStringLiteral("scenario '%1' with the level: %2").arg(s.name, e);
            return result;
        }
        const std::size_t n = std::min(fullFrames.size(), levelFrames.size());
        const std::size_t boneCount = std::min(project.rig.bones.size(), level.bones.size());
        for (std::size_t f = 0; f < n; ++f)
            for (std::size_t b = 0; b < boneCount; ++b) {
                const double d = double(length(fullFrames[f][b] - levelFrames[f][b])) * 100.0;
                sum += d;
                largest = std::max(largest, d);
                ++samples;
            }
        frameCount += n;
    }
    project::LodMeasurement& m = result.measurement;
    m.errorMeanCm = samples > 0 ? float(sum / double(samples)) : 0.f;
    m.errorMaxCm = std::max(m.errorMeanCm, float(largest));
    m.runs = std::uint32_t(runs.size());
    m.frames = std::uint32_t(std::min<std::uint64_t>(frameCount, 0xffffffffu));

    std::string error;
    const std::shared_ptr<const runtime::Rig> built = runtime::Rig::build(level, &error);
    if (!built) {
        result.error = QStringLiteral("the level does not build: %1").arg(QString::fromStdString(error));
        return result;
    }
    BenchOptions bench;
    bench.ragdolls = options.benchRagdolls;
    bench.frames = options.benchFrames;
    const BenchResult timed = benchRig(built, bench);
    if (!timed.ok()) {
        result.error = timed.error;
        return result;
    }
    m.usPerRagdollStep = float(timed.usPerRagdollStep);
    m.benchRagdolls = std::uint32_t(bench.ragdolls);
    m.benchFrames = std::uint32_t(bench.frames);
    return result;
}

DropFigures dropFigures(const rig::RigDescription& description, float height, float seconds)
{
    DropFigures out;
    std::string error;
    const std::shared_ptr<const runtime::Rig> rig = runtime::Rig::build(description, &error);
    if (!rig) {
        out.error = QString::fromStdString(error);
        return out;
    }
    runtime::WorldSettings ws;
    ws.timeStep = rig->settings().timeStep;
    ws.sleep = false; // settling is measured, not assumed
    runtime::World world(ws);
    RunFigures figures(buildTestScene(world, project::Scene::Floor));
    runtime::Ragdoll* r =
        world.ragdoll(world.spawn(rig, Transform{Quat{}, {0.f, height - bindBottom(*rig), 0.f}}, {}, &error));
    if (!r) {
        out.error = QString::fromStdString(error);
        return out;
    }
    const float dt = rig->settings().timeStep;
    const long frames = std::lround(double(seconds) / double(dt)), lastSecond = std::lround(1.0 / double(dt));
    for (long f = 0; f < frames; ++f) {
        world.step();
        figures.measure(*r, float(double(f + 1) * double(dt)), dt);
        if (f >= frames - lastSecond) {
            out.maxStickError = std::max(out.maxStickError, figures.stepStickError());
            out.maxLimitDegrees = std::max(out.maxLimitDegrees, degrees(figures.stepLimitExcess()));
        }
    }
    out.finite = figures.finite();
    out.settledAt = figures.settledAt();
    out.worstStickError = figures.worstStickError();
    out.worstLimitDegrees = degrees(figures.worstLimitExcess());
    return out;
}

} // namespace marionette::editor
