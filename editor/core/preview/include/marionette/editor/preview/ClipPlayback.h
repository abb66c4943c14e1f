// Marionette — a clip of the source mesh played on a rig's bones as a powered ragdoll's pose target: looped,
// its root motion carried on from loop to loop, placed in the world; the body spawned on it; the tracking error
// measured against it. One implementation for the editor's driven preview (PreviewSession) and for
// `marionette simulate --animation` (runDriven).
#pragma once

#include "marionette/Math.h"
#include "marionette/import/ImportedScene.h"
#include "marionette/rig/RigDescription.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace marionette::runtime {
class Ragdoll;
}

namespace marionette::editor {

/// A clip played on the rig's bones. Cheap to copy; refers to the scene it was made from, which must outlive it.
class ClipPlayback {
public:
    /// Plays `clip` of `scene` on `rig`'s bones (matched by name, rigBonesInScene). False with `error` (one
    /// line) when the clip is out of range, lasts no time, or no root bone of the rig is in the scene.
    bool init(const rig::RigDescription& rig, const import::ImportedScene& scene, std::size_t clip, std::string& error);
    bool valid() const { return mScene != nullptr; }
    std::size_t clip() const { return mClip; }
    float duration() const { return mDuration; }
    std::size_t rootBone() const { return mRoot; } ///< the rig's root bone the clip moves (the tracking reference)
    /// Where loop 0 of the clip is put in the world (default: where the clip is authored).
    void setPlacement(const Transform& placement) { mPlacement = placement; }
    const Transform& placement() const { return mPlacement; }
    /// The turn and shift one loop carries the root on (the last frame's root onto the first's heading and
    /// place, runtime::headingAlignment): the identity for a clip that stays in place.
    const Transform& loopMotion() const { return mLoop; }
    /// World matrices of the rig's bones `t` seconds into the play (t >= 0; past the clip's end it loops,
    /// loop k carried on by loopMotion() k times), the placement applied. `out` holds the rig's bone count.
    void palette(double t, std::span<Mat4> out) const;
    std::vector<Mat4> palette(double t) const;
    /// The same without looping: the clip at min(t, duration()) (a get-up played once).
    void paletteOnce(double t, std::span<Mat4> out) const;

private:
    const rig::RigDescription* mRig = nullptr;
    const import::ImportedScene* mScene = nullptr;
    std::size_t mClip = 0;
    float mDuration = 0.f;
    std::size_t mRoot = 0;
    std::vector<std::int32_t> mBones;
    Transform mPlacement, mLoop;
};

/// Places `ragdoll` on the pose target of palette `now`, moving as the pose moves toward `next` (Δt later):
/// its particles at `now`'s targets, their previous positions as far behind as `next`'s are ahead. The pose
/// target is cleared again. False with `error` on a palette of the wrong size or non-finite.
bool placeOnPalette(runtime::Ragdoll& ragdoll, std::span<const Mat4> now, std::span<const Mat4> next, std::string& error);

/// The tracking error of a body's bones (Ragdoll::boneMatrices) against a palette of the same rig: the worst
/// bone's position relative to bone `root` (metres) and the worst orientation difference in world space
/// (radians). Per bone errors go to `perBonePosition`/`perBoneAngle` when they have the bone count.
void trackingError(std::span<const Mat4> body, std::span<const Mat4> target, std::size_t root, float& metres,
                   float& radians, std::span<float> perBonePosition = {}, std::span<float> perBoneAngle = {});

} // namespace marionette::editor
