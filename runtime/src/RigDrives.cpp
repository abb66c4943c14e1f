// Rig::compileDrives: the parts drives act on, where each particle's target comes from, and the profiles
// as per-part gains (docs/physics.md, "Drives").
#include "marionette/runtime/Rig.h"

#include <algorithm>

namespace marionette::runtime {

namespace {

bool contains(const TriangleData& t, std::uint32_t p) { return t.p[0] == p || t.p[1] == p || t.p[2] == p; }

} // namespace

void Rig::compileDrives()
{
    const rig::RigDescription& d = mDescription;
    const std::size_t n = mBindPositions.size();

    // Parts: every triangle; its parent is the other triangle of the angular constraint it is B of.
    for (std::uint32_t t = 0; t < mTriangles.size(); ++t) {
        DrivePartData part{rig::DrivePartKind::Triangle, t, {mTriangles[t].p[0], mTriangles[t].p[1], mTriangles[t].p[2]},
                           3, -1, -1};
        for (std::uint32_t a = 0; a < mAngular.size(); ++a)
            if (mAngular[a].triB == t) {
                part.parent = std::int32_t(mAngular[a].triA);
                part.angular = std::int32_t(a);
                break;
            }
        mDriveParts.push_back(part);
    }
    // Then every stick that drives a bone or that a profile names; its parent is a triangle holding one of its
    // ends (that end is the pivot it turns about).
    std::vector<char> stickPart(d.sticks.size(), 0);
    for (const rig::BoneBinding& b : d.bindings)
        if (b.driver == rig::BoneBinding::Driver::Stick)
            stickPart[std::size_t(b.index)] = 1;
    for (const rig::DriveProfile& p : d.driveProfiles)
        for (const rig::DrivePart& q : p.parts)
            if (q.kind == rig::DrivePartKind::Stick)
                stickPart[std::size_t(q.index)] = 1;
    for (std::uint32_t i = 0; i < d.sticks.size(); ++i) {
        if (!stickPart[i])
            continue;
        std::uint32_t pivot = std::uint32_t(d.sticks[i].a), tip = std::uint32_t(d.sticks[i].b);
        std::int32_t parent = -1;
        for (int end = 0; end < 2 && parent == -1; ++end) {
            for (std::uint32_t t = 0; t < mTriangles.size(); ++t)
                if (contains(mTriangles[t], pivot) && !contains(mTriangles[t], tip)) {
                    parent = std::int32_t(t);
                    break;
                }
            if (parent == -1)
                std::swap(pivot, tip);
        }
        if (parent == -1) // no triangle holds either end alone: pins only, about a
            std::swap(pivot, tip);
        mDriveParts.push_back({rig::DrivePartKind::Stick, i, {pivot, tip, tip}, 2, parent, -1});
    }

    // Targets: a particle follows the bone it was made from, else the bone a triangle or stick holding it
    // drives (the deepest such bone, so a joint's particle follows the limb that starts at it).
    auto depth = [&](std::int32_t bone) {
        int k = 0;
        for (std::int32_t b = bone; b != -1; b = mBones[std::size_t(b)].parent)
            ++k;
        return k;
    };
    mDriveTargets.assign(n, DriveTargetData{-1, {}});
    for (std::uint32_t i = 0; i < n; ++i) {
        std::int32_t bone = d.particles[i].bone;
        if (bone < 0 || std::size_t(bone) >= mBones.size()) {
            bone = -1;
            for (const rig::BoneBinding& b : d.bindings) {
                const bool holds = b.driver == rig::BoneBinding::Driver::Triangle
                                       ? contains(mTriangles[std::size_t(b.index)], i)
                                       : (std::uint32_t(d.sticks[std::size_t(b.index)].a) == i ||
                                          std::uint32_t(d.sticks[std::size_t(b.index)].b) == i);
                if (holds && (bone == -1 || depth(b.bone) > depth(bone)))
                    bone = b.bone;
            }
        }
        if (bone == -1)
            continue;
        Mat4 inv;
        if (!invertAffine(mBones[std::size_t(bone)].bindWorld, inv))
            continue;
        mDriveTargets[i] = {bone, inv.transformPoint(mBindPositions[i])};
    }

    for (const rig::DriveProfile& p : d.driveProfiles) {
        DriveProfileData data{p.name, {}};
        data.gains.reserve(mDriveParts.size());
        for (const DrivePartData& part : mDriveParts)
            data.gains.push_back(p.gainsOf(part.kind, std::int32_t(part.index)));
        mDriveProfiles.push_back(std::move(data));
    }
}

std::int32_t Rig::drivePart(rig::DrivePartKind kind, std::uint32_t index) const
{
    if (kind == rig::DrivePartKind::Triangle)
        return index < mTriangles.size() ? std::int32_t(index) : -1;
    for (std::size_t k = mTriangles.size(); k < mDriveParts.size(); ++k)
        if (mDriveParts[k].index == index)
            return std::int32_t(k);
    return -1;
}

std::int32_t Rig::findDriveProfile(std::string_view name) const
{
    for (std::size_t k = 0; k < mDriveProfiles.size(); ++k)
        if (mDriveProfiles[k].name == name)
            return std::int32_t(k);
    return -1;
}

} // namespace marionette::runtime
