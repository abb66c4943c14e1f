// The bone palette: each bone's rigid motion from bind, driven by a triangle's frame or a stick's
// direction (Solver::updateBones, once per fixed step), and the interpolated bone and skinning matrices a
// game reads from it.
#include "RagdollState.h"

#include <algorithm>
#include <utility>

namespace marionette::runtime {

void Solver::updateBones(Ragdoll& r)
{
    RagdollState& s = *r.mState;
    const Rig& rig = r.rig();
    const auto bones = rig.bones();
    if (bones.empty())
        return;
    std::swap(s.boneNow, s.bonePrev);
    const auto tris = rig.triangles();
    const auto bind = rig.bindPositions();
    auto unboundDelta = [&](const BoneData& b) {
        return b.parent >= 0 ? s.boneNow[std::size_t(b.parent)] : s.placement;
    };
    for (std::size_t i = 0; i < bones.size(); ++i) {
        const BoneData& b = bones[i];
        Transform D;
        if (b.driver < 0) {
            D = unboundDelta(b);
        } else if (b.driverKind == rig::BoneBinding::Driver::Triangle) {
            const TriangleData& t = tris[std::size_t(b.driver)];
            const Vec3 c = (s.x[t.p[0]] + s.x[t.p[1]] + s.x[t.p[2]]) * (1.f / 3.f);
            D = Transform{s.frameQ[std::size_t(b.driver)], c} * b.bindDriver.inverse(); // frames are fresh
        } else {
            const Quat parentRot = b.parent >= 0 ? s.boneNow[std::size_t(b.parent)].rotation : s.placement.rotation;
            const Vec3 d0 = parentRot.rotate(b.stickDirection);
            const Vec3 d = normalizeOr(s.x[b.stickB] - s.x[b.stickA], d0);
            const Quat R = normalize(rotationBetween(d0, d) * parentRot);
            D = {R, s.x[b.stickA] - R.rotate(bind[b.stickA])};
        }
        s.boneNow[i] = D;
    }
    // Unbound roots copy a bound descendant; their unbound children follow them again.
    bool changed = false;
    for (std::size_t i = 0; i < bones.size(); ++i)
        if (bones[i].follow >= 0) {
            s.boneNow[i] = s.boneNow[std::size_t(bones[i].follow)];
            changed = true;
        }
    if (changed)
        for (std::size_t i = 0; i < bones.size(); ++i)
            if (bones[i].driver < 0 && bones[i].parent >= 0)
                s.boneNow[i] = s.boneNow[std::size_t(bones[i].parent)];
}

Transform Ragdoll::boneDelta(std::uint32_t bone, float alpha) const
{
    const RagdollState& s = *mState;
    if (bone >= s.boneNow.size())
        return {};
    const float a = std::clamp(alpha, 0.f, 1.f);
    const Transform& p = s.bonePrev[bone];
    const Transform& n = s.boneNow[bone];
    return {nlerp(p.rotation, n.rotation, a), lerp(p.translation, n.translation, a)};
}

bool Ragdoll::boneMatrices(std::span<Mat4> out, float alpha) const
{
    const auto bones = mRig->bones();
    if (out.size() < bones.size())
        return false;
    for (std::uint32_t i = 0; i < bones.size(); ++i)
        out[i] = Mat4::fromTransform(boneDelta(i, alpha)) * bones[i].bindWorld;
    return true;
}

bool Ragdoll::skinningMatrices(std::span<Mat4> out, float alpha) const
{
    const auto bones = mRig->bones();
    if (out.size() < bones.size())
        return false;
    for (std::uint32_t i = 0; i < bones.size(); ++i)
        out[i] = Mat4::fromTransform(boneDelta(i, alpha)) * bones[i].bindWorld * bones[i].inverseBind;
    return true;
}

} // namespace marionette::runtime
