// An IQM file (IqmFile.h) turned into an import::ImportedScene in metres, right-handed, +Y up.
//
// Frame: IQM files are Z-up (Cube 2, Tesseract and Blender's exporter), right-handed; the up axis becomes +Y
// by (x, y, z) -> (x, z, -y) unless SceneOptions::upAxis says otherwise. Triangles are wound clockwise seen
// from the front in IQM (Cube 2's convention), so each triangle's last two vertices are swapped to make them
// counter-clockwise; texture v is flipped (v' = 1 - v: IQM's v = 0 is the image's top).
// Units: IQM carries none, and its files come at any size (the engines scale models in their configs; the
// IQM SDK's mrfixit is 7.9 units tall). Without SceneOptions::scale the bind pose is scaled to
// kDefaultHeight tall along the up axis, the conversion records the factor (sourceUnit "unknown") and a
// warning says so; a given scale replaces the fit.
// Skeleton: every joint is a bone (parents first, as the file guarantees), bindWorld = parent.bindWorld ·
// T·R·S of the joint, converted; a joint frame's uniform scale moves into its inverse bind and keys, as the
// Assimp path does. Skin: up to four weights per vertex, joined per bone, sorted, renormalised to sum 1.
// Animations: one clip per animation at its frame rate, one channel per bone; a channel group (translation,
// rotation, scale) the poses animate gets one key per frame, the others one key at time 0.
#pragma once

#include "IqmFile.h"

#include "marionette/import/ImportedScene.h"

#include <functional>
#include <optional>
#include <string>

namespace marionette::plugins::iqm {

/// The height, in metres, the bind pose is scaled to when no scale is given: a person's, the height the
/// import workflow's size check proposes too (editor::kPersonHeight, which a plugin does not link).
constexpr float kDefaultHeight = 1.75f;
/// Frames per second of an animation whose frame rate is 0, negative or not finite.
constexpr float kDefaultFramerate = 25.f;

struct SceneOptions {
    std::optional<float> scale;           ///< metres per file unit; finite and > 0 when set (replaces the fit)
    std::optional<import::UpAxis> upAxis; ///< the file's up axis (Z when unset)
    bool animations = true;               ///< false: no clips
    std::string folder;                   ///< the file's folder, to resolve texture names ("" = current)
    /// Progress within the build, fraction in [0, 1] never decreasing, with a stage name; may be empty.
    std::function<void(float fraction, const char* stage)> progress;
};

/// Fills `out` (default-constructed) from `file`. False with `error` one line without the path when the
/// file holds no triangle, a scale option is unusable, a joint's bind pose is singular, or an animation
/// computes a value that is not finite ("animation 'idle' frame 3 joint 5 'Hip': channel 2 is not finite").
/// On success `out` passes ImportedScene::validate(); out.sourcePath is left to the caller.
bool buildScene(const File& file, const SceneOptions& options, import::ImportedScene& out, std::string& error);

} // namespace marionette::plugins::iqm
