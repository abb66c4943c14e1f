// A clip played on a rig's bones as a pose target (ClipPlayback.h).
#include "marionette/editor/preview/ClipPlayback.h"

#include "marionette/editor/preview/DrivenRun.h"
#include "marionette/runtime/PoseBlend.h"
#include "marionette/runtime/Ragdoll.h"

#include <algorithm>
#include <cmath>

namespace marionette::editor {

bool ClipPlayback::init(const rig::RigDescription& rig, const import::ImportedScene& scene, std::size_t clip,
                        std::string& error)
{
    *this = ClipPlayback();
    if (clip >= scene.animations.size()) {
        error = "clip " + std::to_string(clip) + " out of range (" + std::to_string(scene.animations.size()) + " clips)";
        return false;
    }
    const float duration = scene.animations[clip].duration;
    if (!(duration > 0.f) || !std::isfinite(duration)) {
        error = "clip '" + scene.animations[clip].name + "' lasts no time";
        return false;
    }
    std::vector<std::int32_t> bones = rigBonesInScene(rig, scene);
    std::int32_t root = -1;
    for (std::size_t b = 0; b < rig.bones.size() && root < 0; ++b)
        if (rig.bones[b].parent < 0 && bones[b] >= 0)
            root = std::int32_t(b);
    if (root < 0) {
        error = "no root bone of the rig is in the skeleton of clip '" + scene.animations[clip].name + "'";
        return false;
    }
    mRig = &rig;
    mScene = &scene;
    mClip = clip;
    mDuration = duration;
    mRoot = std::size_t(root);
    mBones = std::move(bones);
    const std::vector<Mat4> first = rigPalette(rig, scene, mBones, clip, 0.f);
    const std::vector<Mat4> last = rigPalette(rig, scene, mBones, clip, duration);
    mLoop = runtime::headingAlignment(first[mRoot], last[mRoot]);
    return true;
}

void ClipPlayback::paletteOnce(double t, std::span<Mat4> out) const
{
    if (!valid() || out.size() != mRig->bones.size())
        return;
    const std::vector<Mat4> clip =
        rigPalette(*mRig, *mScene, mBones, mClip, float(std::clamp(t, 0.0, double(mDuration))));
    const Mat4 place = Mat4::fromTransform(mPlacement);
    for (std::size_t b = 0; b < out.size(); ++b)
        out[b] = place * clip[b];
}

void ClipPlayback::palette(double t, std::span<Mat4> out) const
{
    if (!valid() || out.size() != mRig->bones.size())
        return;
    // Loop k: the clip at t − k·duration carried on by the loop's motion k times.
    const double loops = std::floor(std::max(t, 0.0) / double(mDuration));
    const double local = std::max(t, 0.0) - loops * double(mDuration);
    Transform carried = mPlacement;
    for (double k = 0.0; k < loops; k += 1.0)
        carried = carried * mLoop;
    const std::vector<Mat4> clip = rigPalette(*mRig, *mScene, mBones, mClip, float(local));
    const Mat4 place = Mat4::fromTransform(carried);
    for (std::size_t b = 0; b < out.size(); ++b)
        out[b] = place * clip[b];
}

std::vector<Mat4> ClipPlayback::palette(double t) const
{
    std::vector<Mat4> out(mRig ? mRig->bones.size() : 0);
    palette(t, out);
    return out;
}

bool placeOnPalette(runtime::Ragdoll& ragdoll, std::span<const Mat4> now, std::span<const Mat4> next, std::string& error)
{
    if (!ragdoll.setPoseTarget(now, &error))
        return false;
    const std::vector<Vec3> start(ragdoll.particleTargets().begin(), ragdoll.particleTargets().end());
    if (!ragdoll.setPoseTarget(next, &error)) {
        ragdoll.clearPoseTarget();
        return false;
    }
    std::vector<Vec3> before(start.size());
    for (std::size_t i = 0; i < start.size(); ++i)
        before[i] = start[i] * 2.f - ragdoll.particleTargets()[i];
    ragdoll.clearPoseTarget();
    if (!ragdoll.setPose(start, before)) {
        error = "the clip's pose is not finite";
        return false;
    }
    return true;
}

void trackingError(std::span<const Mat4> body, std::span<const Mat4> target, std::size_t root, float& metres,
                   float& radians, std::span<float> perBonePosition, std::span<float> perBoneAngle)
{
    metres = radians = 0.f;
    if (body.size() != target.size() || root >= body.size())
        return;
    const Vec3 rootBody = body[root].translation(), rootTarget = target[root].translation();
    for (std::size_t b = 0; b < body.size(); ++b) {
        const float p = length((body[b].translation() - rootBody) - (target[b].translation() - rootTarget));
        const float a = rotationAngle(rotationOf(body[b]) * rotationOf(target[b]).conjugate());
        // NaN propagates: a non-finite body is never "within" a bound.
        metres = std::isnan(p) ? p : std::max(metres, p);
        radians = std::isnan(a) ? a : std::max(radians, a);
        if (perBonePosition.size() == body.size())
            perBonePosition[b] = p;
        if (perBoneAngle.size() == body.size())
            perBoneAngle[b] = a;
    }
}

} // namespace marionette::editor
