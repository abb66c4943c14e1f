// Getting up (GetUp.h).
#include "marionette/editor/preview/GetUp.h"

#include "marionette/editor/preview/DrivenRun.h"
#include "marionette/runtime/PoseBlend.h"
#include "marionette/runtime/Rig.h"

#include <algorithm>

namespace marionette::editor {

namespace {

std::int32_t rootBone(const rig::RigDescription& rig, const std::vector<std::int32_t>& inScene)
{
    for (std::size_t b = 0; b < rig.bones.size(); ++b)
        if (rig.bones[b].parent < 0 && inScene[b] >= 0)
            return std::int32_t(b);
    return -1;
}

} // namespace

std::optional<GetUpChoice> chooseGetUp(const rig::RigDescription& rig, const import::ImportedScene& scene,
                                       std::span<const std::size_t> clips, std::span<const Mat4> resting)
{
    const std::vector<std::int32_t> inScene = rigBonesInScene(rig, scene);
    const std::int32_t root = rootBone(rig, inScene);
    if (root < 0 || resting.size() != rig.bones.size())
        return std::nullopt;
    std::vector<std::vector<Mat4>> firsts;
    std::vector<Mat4> firstRoots;
    std::vector<std::size_t> valid;
    for (std::size_t c : clips) {
        std::vector<Mat4> first = rigPalette(rig, scene, inScene, c, 0.f);
        if (first.empty())
            continue;
        firstRoots.push_back(first[std::size_t(root)]);
        firsts.push_back(std::move(first));
        valid.push_back(c);
    }
    const Mat4& body = resting[std::size_t(root)];
    const std::int32_t k = runtime::closestTilt(body, firstRoots);
    if (k < 0)
        return std::nullopt;
    GetUpChoice choice;
    choice.clip = valid[std::size_t(k)];
    choice.alignment = runtime::headingAlignment(firstRoots[std::size_t(k)], body);
    choice.tilt = runtime::tiltDifference(body, firstRoots[std::size_t(k)]);
    choice.bonesInScene = inScene;
    choice.start = std::move(firsts[std::size_t(k)]);
    const Mat4 place = Mat4::fromTransform(choice.alignment);
    for (Mat4& m : choice.start)
        m = place * m;
    return choice;
}

std::vector<Mat4> getUpPalette(const runtime::Rig& rig, const import::ImportedScene& scene, const GetUpChoice& choice,
                               std::span<const Mat4> resting, float t, float blendSeconds)
{
    std::vector<Mat4> clip = rigPalette(rig.description(), scene, choice.bonesInScene, choice.clip, t);
    if (clip.empty() || resting.size() != clip.size() || choice.start.size() != clip.size())
        return {};
    const Mat4 place = Mat4::fromTransform(choice.alignment);
    for (Mat4& m : clip)
        m = place * m;
    const float w = blendSeconds > 0.f ? std::clamp(t / blendSeconds, 0.f, 1.f) : 1.f;
    std::vector<Mat4> out(clip.size());
    if (!runtime::blendPalettes(rig, resting, choice.start, clip, w, out))
        return {};
    return out;
}

} // namespace marionette::editor
