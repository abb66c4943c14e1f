// Marionette — baking a simulation into an animation clip on the character's skeleton (docs/preview.md,
// "Baking to an animation clip").
//
// A PaletteRecording holds what the viewport showed at every step: the skinning palette of the preview
// (PreviewSession::skinningPalette(1), one matrix per rig bone, boneWorld · inverseBind). bakeClip() turns it
// into per-bone local keys on the mesh's skeleton:
//     boneWorld[b] = palette[b] · mesh.skeleton[b].bindWorld        local[b] = boneWorld[parent]⁻¹ · boneWorld[b]
// so a player that poses the skeleton with the keys and skins with the mesh's inverse binds reproduces the
// palette exactly: bones the rig drives, bones that follow their parent and roots the runtime places all
// come out as the preview drew them. writeGlb() and writeClipJson() (ClipFiles.h) write the clip.
#pragma once

#include "marionette/Math.h"
#include "marionette/import/ImportedScene.h"
#include "marionette/project/Project.h"
#include "marionette/rig/RigDescription.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace marionette::editor {

class PreviewSession;

/// The palettes of a simulation, one per recorded step.
struct PaletteRecording {
    std::vector<std::string> boneNames;      ///< the rig's bones, the order of every palette
    std::vector<std::uint64_t> steps;        ///< step index of each record, increasing
    std::vector<float> times;                ///< seconds simulated at each record, increasing
    std::vector<std::vector<Mat4>> palettes; ///< per record: boneWorld · inverseBind per rig bone
};

/// Replays `scenario` on `rig` exactly as runScenario() does (the same code path and duration) and records
/// the palette of every step, step 0 included. `mesh` is the project's source mesh (needed by a scenario
/// that starts from an animation clip). False with `error` one line when the scenario cannot run.
bool recordScenario(const rig::RigDescription& rig, const project::Scenario& scenario,
                    const import::ImportedScene* mesh, PaletteRecording& out, QString& error);

/// The palettes `session` recorded in its history for steps [first, last] (clamped to what it holds).
/// False with `error` when the session is not running or holds none of them.
bool recordHistory(const PreviewSession& session, std::uint64_t first, std::uint64_t last, PaletteRecording& out,
                   QString& error);

/// What part of a recording becomes the clip, and at what rate.
struct BakeOptions {
    std::string name = "simulation";     ///< the clip's name
    std::uint64_t firstStep = 0;         ///< first step baked (clamped to the recording)
    std::uint64_t lastStep = UINT64_MAX; ///< last step baked (clamped to the recording)
    std::uint32_t stepStride = 1;        ///< every n-th step from firstStep (the last one always included); >= 1
    /// 0: one key per recorded step (the simulation's own rate). > 0 (at most 1000): keys every 1/fps
    /// seconds from the first step's time to the last's, bone world rotations nlerped and positions and
    /// scales lerped between the steps around each key (the preview's interpolation); stepStride is ignored.
    float fps = 0.f;
};

/// One key of one bone: local = T(translation) · R(rotation) · S(scale), relative to the parent bone (for a
/// root bone: model space, i.e. the preview's scene).
struct BoneKey {
    Vec3 translation;
    Quat rotation; ///< unit; each bone's keys on one hemisphere of the previous (no flip between frames)
    Vec3 scale{1.f, 1.f, 1.f};
};

/// A baked clip on a skeleton: every bone keyed at every frame.
struct BakedClip {
    std::string name;
    std::vector<std::string> boneNames;  ///< the mesh skeleton's bones
    std::vector<std::int32_t> parents;   ///< parent bone index or -1; parents come before children
    std::vector<std::uint64_t> steps;    ///< the simulation step of each frame (the step before it when resampled)
    std::vector<float> times;            ///< seconds from the first frame (0) on, increasing
    /// Frames per second: fps, else the simulation's (1 / its first step, to a thousandth) / stepStride.
    float frameRate = 60.f;
    std::vector<BoneKey> keys;           ///< frame-major: keys[frame * boneCount() + bone]

    std::size_t boneCount() const { return boneNames.size(); }
    std::size_t frameCount() const { return times.size(); }
    const BoneKey& key(std::size_t frame, std::size_t bone) const { return keys[frame * boneCount() + bone]; }
    /// World (model-space) matrix of every bone at `frame`: the locals composed down the hierarchy.
    std::vector<Mat4> boneWorld(std::size_t frame) const;
};

/// Bakes `recording` onto `mesh`'s skeleton, which must be the rig's (the same bone names in the same order,
/// as the preview requires to skin the mesh). False with `error` one line (e.g. "the mesh has no skeleton",
/// "the rig's bones are not the mesh's skeleton: bone 3 is 'Neck' in the rig, 'neck' in the mesh", "no steps
/// to bake", "--fps must be in (0, 1000]").
bool bakeClip(const import::ImportedScene& mesh, const PaletteRecording& recording, const BakeOptions& options,
              BakedClip& out, QString& error);

/// local = T · R · S of an affine matrix (a negative determinant flips the x scale). Exposed for the tests.
BoneKey decomposeAffine(const Mat4& m);
Mat4 composeKey(const BoneKey& key);

} // namespace marionette::editor
