// Baking a simulation into an animation clip (BakedClip.h).
#include "marionette/editor/preview/BakedClip.h"

#include "marionette/editor/preview/PreviewSession.h"
#include "marionette/editor/preview/ScenarioRunner.h"

#include <algorithm>
#include <cmath>

namespace marionette::editor {

namespace {

constexpr float kMaxFps = 1000.f;

QString str(const std::string& s) { return QString::fromStdString(s); }

Quat sameHemisphere(Quat q, Quat reference)
{
    const float d = q.x * reference.x + q.y * reference.y + q.z * reference.z + q.w * reference.w;
    return d < 0.f ? Quat{-q.x, -q.y, -q.z, -q.w} : q;
}

/// World matrices of the recording's record `r` on the mesh skeleton: palette · bindWorld.
std::vector<BoneKey> worldKeys(const import::ImportedScene& mesh, const PaletteRecording& rec, std::size_t r)
{
    std::vector<BoneKey> out(mesh.skeleton.size());
    for (std::size_t b = 0; b < out.size(); ++b)
        out[b] = decomposeAffine(rec.palettes[r][b] * mesh.skeleton[b].bindWorld);
    return out;
}

} // namespace

BoneKey decomposeAffine(const Mat4& m)
{
    BoneKey k;
    k.translation = {m.m[12], m.m[13], m.m[14]};
    Vec3 c[3] = {{m.m[0], m.m[1], m.m[2]}, {m.m[4], m.m[5], m.m[6]}, {m.m[8], m.m[9], m.m[10]}};
    k.scale = {length(c[0]), length(c[1]), length(c[2])};
    if (dot(cross(c[0], c[1]), c[2]) < 0.f)
        k.scale.x = -k.scale.x;
    const float s[3] = {k.scale.x, k.scale.y, k.scale.z};
    for (int i = 0; i < 3; ++i)
        c[i] = s[i] != 0.f ? c[i] * (1.f / s[i]) : Vec3{};
    k.rotation = toQuat(Mat3::fromColumns(c[0], c[1], c[2]));
    return k;
}

Mat4 composeKey(const BoneKey& key)
{
    const Mat3 r = toMat3(key.rotation);
    return Mat4::fromRotationTranslation(
        Mat3::fromColumns(r.c[0] * key.scale.x, r.c[1] * key.scale.y, r.c[2] * key.scale.z), key.translation);
}

std::vector<Mat4> BakedClip::boneWorld(std::size_t frame) const
{
    std::vector<Mat4> world(boneCount());
    if (frame >= frameCount())
        return world;
    for (std::size_t b = 0; b < world.size(); ++b) {
        const Mat4 local = composeKey(key(frame, b));
        const std::int32_t p = parents[b];
        world[b] = p >= 0 && std::size_t(p) < b ? world[std::size_t(p)] * local : local;
    }
    return world;
}

bool recordScenario(const rig::RigDescription& rig, const project::Scenario& scenario,
                    const import::ImportedScene* mesh, PaletteRecording& out, QString& error)
{
    out = {};
    for (const rig::Bone& b : rig.bones)
        out.boneNames.push_back(b.name);
    const ScenarioResult result = runScenario(rig, scenario, mesh, [&](const PreviewSession& s) {
        const std::span<const Mat4> palette = s.historyPalette(s.stepIndex());
        out.steps.push_back(s.stepIndex());
        out.times.push_back(float(s.historyTime(s.stepIndex())));
        out.palettes.emplace_back(palette.begin(), palette.end());
    });
    if (!result.started) {
        error = result.failures.value(0, QStringLiteral("scenario '%1' cannot run").arg(scenario.name));
        return false;
    }
    return true;
}

bool recordHistory(const PreviewSession& session, std::uint64_t first, std::uint64_t last, PaletteRecording& out,
                   QString& error)
{
    out = {};
    if (!session.isRunning()) {
        error = QStringLiteral("the preview is not running");
        return false;
    }
    for (const rig::Bone& b : session.rig().bones)
        out.boneNames.push_back(b.name);
    first = std::max(first, session.historyBegin());
    last = std::min(last, session.historyEnd() - 1);
    for (std::uint64_t step = first; step <= last && session.historyEnd() > 0; ++step) {
        const std::span<const Mat4> palette = session.historyPalette(step);
        out.steps.push_back(step);
        out.times.push_back(float(session.historyTime(step)));
        out.palettes.emplace_back(palette.begin(), palette.end());
    }
    if (out.steps.empty()) {
        error = QStringLiteral("the preview holds no steps to bake");
        return false;
    }
    return true;
}

bool bakeClip(const import::ImportedScene& mesh, const PaletteRecording& rec, const BakeOptions& options,
              BakedClip& out, QString& error)
{
    out = {};
    const std::size_t n = mesh.skeleton.size();
    if (n == 0) {
        error = QStringLiteral("the mesh has no skeleton to bake onto");
        return false;
    }
    if (rec.boneNames.size() != n) {
        error = QStringLiteral("the rig's bones are not the mesh's skeleton: the rig has %1 bones, the mesh %2")
                    .arg(rec.boneNames.size()).arg(n);
        return false;
    }
    for (std::size_t b = 0; b < n; ++b)
        if (rec.boneNames[b] != mesh.skeleton[b].name) {
            error = QStringLiteral("the rig's bones are not the mesh's skeleton: bone %1 is '%2' in the rig, '%3' in the mesh")
                        .arg(b).arg(str(rec.boneNames[b]), str(mesh.skeleton[b].name));
            return false;
        }
    if (!(options.fps == 0.f || (options.fps > 0.f && options.fps <= kMaxFps))) {
        error = QStringLiteral("the frame rate must be in (0, %1] frames per second, not %2").arg(double(kMaxFps)).arg(double(options.fps));
        return false;
    }
    if (options.stepStride < 1) {
        error = QStringLiteral("the frame step must be at least 1");
        return false;
    }
    // The records in [firstStep, lastStep].
    std::size_t lo = 0, hi = rec.steps.size();
    while (lo < hi && rec.steps[lo] < options.firstStep)
        ++lo;
    while (hi > lo && rec.steps[hi - 1] > options.lastStep)
        --hi;
    if (lo == hi || rec.palettes.size() != rec.steps.size() || rec.times.size() != rec.steps.size()) {
        error = QStringLiteral("no steps to bake");
        return false;
    }
    for (std::size_t r = lo; r < hi; ++r)
        if (rec.palettes[r].size() != n) {
            error = QStringLiteral("step %1 has no skinning palette for the %2 bones").arg(rec.steps[r]).arg(n);
            return false;
        }

    out.name = options.name;
    for (const rig::Bone& b : mesh.skeleton) {
        out.boneNames.push_back(b.name);
        out.parents.push_back(b.parent);
    }
    // The frames as world keys per bone: records themselves, or blends of the records around each time.
    std::vector<std::vector<BoneKey>> worlds;
    const float t0 = rec.times[lo];
    if (options.fps > 0.f) {
        out.frameRate = options.fps;
        const float span = rec.times[hi - 1] - t0;
        const std::size_t frames = std::size_t(std::floor(double(span) * double(options.fps) + 1e-4)) + 1;
        std::size_t r = lo;
        for (std::size_t f = 0; f < frames; ++f) {
            const float t = std::min(t0 + float(double(f) / double(options.fps)), rec.times[hi - 1]);
            while (r + 1 < hi && rec.times[r + 1] <= t)
                ++r;
            std::vector<BoneKey> a = worldKeys(mesh, rec, r);
            if (r + 1 < hi && t > rec.times[r]) {
                const float alpha = (t - rec.times[r]) / (rec.times[r + 1] - rec.times[r]);
                const std::vector<BoneKey> b = worldKeys(mesh, rec, r + 1);
                for (std::size_t k = 0; k < n; ++k) {
                    a[k].translation = lerp(a[k].translation, b[k].translation, alpha);
                    a[k].rotation = nlerp(a[k].rotation, b[k].rotation, alpha);
                    a[k].scale = lerp(a[k].scale, b[k].scale, alpha);
                }
            }
            out.steps.push_back(rec.steps[r]);
            out.times.push_back(t - t0);
            worlds.push_back(std::move(a));
        }
    } else {
        std::vector<std::size_t> chosen;
        for (std::size_t r = lo; r < hi; r += options.stepStride)
            chosen.push_back(r);
        if (chosen.back() != hi - 1)
            chosen.push_back(hi - 1); // the last step always ends the clip
        for (std::size_t r : chosen) {
            out.steps.push_back(rec.steps[r]);
            out.times.push_back(rec.times[r] - t0);
            worlds.push_back(worldKeys(mesh, rec, r));
        }
        // The simulation's rate from its first step, to a thousandth (a 1/60 s step in float is 60 fps).
        const double firstStep = hi - lo > 1 ? double(rec.times[lo + 1]) - double(rec.times[lo]) : 0.0;
        const double rate = firstStep > 0.0 ? std::round(1000.0 / firstStep) / 1000.0 : 60.0;
        out.frameRate = float(rate / double(options.stepStride));
    }
    // Locals: the parent's world inverted, times the bone's world.
    out.keys.resize(worlds.size() * n);
    std::vector<Mat4> world(n), inverse(n);
    for (std::size_t f = 0; f < worlds.size(); ++f) {
        for (std::size_t b = 0; b < n; ++b) {
            world[b] = composeKey(worlds[f][b]);
            if (!invertAffine(world[b], inverse[b])) {
                error = QStringLiteral("bone '%1' collapses at step %2").arg(str(out.boneNames[b])).arg(out.steps[f]);
                out = {};
                return false;
            }
        }
        for (std::size_t b = 0; b < n; ++b) {
            const std::int32_t p = out.parents[b];
            BoneKey k = p >= 0 ? decomposeAffine(inverse[std::size_t(p)] * world[b]) : worlds[f][b];
            if (f > 0)
                k.rotation = sameHemisphere(k.rotation, out.keys[(f - 1) * n + b].rotation);
            out.keys[f * n + b] = k;
        }
    }
    return true;
}

} // namespace marionette::editor
