#include "viewport/RigPose.h"

#include "marionette/runtime/Rig.h"

#include <algorithm>
#include <cmath>

namespace marionette::viewport {

namespace {

/// The basis of a bone matrix made orthonormal (Gram–Schmidt: X kept, Y made perpendicular, Z = X × Y).
Mat3 orthonormalBasis(const Mat4& m)
{
    const Vec3 x = normalizeOr({m.m[0], m.m[1], m.m[2]}, {1, 0, 0});
    Vec3 y{m.m[4], m.m[5], m.m[6]};
    y = normalizeOr(y - x * dot(x, y), anyPerpendicular(x));
    return Mat3::fromColumns(x, y, cross(x, y));
}

/// Gram–Schmidt on the columns (X kept, Y made perpendicular, Z = X × Y).
Mat3 orthonormalized(const Mat3& m)
{
    const Vec3 x = normalizeOr(m.c[0], {1, 0, 0});
    const Vec3 y = normalizeOr(m.c[1] - x * dot(x, m.c[1]), anyPerpendicular(x));
    return Mat3::fromColumns(x, y, cross(x, y));
}

bool validIndex(std::int32_t i, std::size_t n)
{
    return i >= 0 && std::size_t(i) < n;
}

RigPose::Frame frameOf(const std::vector<Vec3>& x, const rig::Triangle& t)
{
    RigPose::Frame f;
    const std::size_t n = x.size();
    if (!validIndex(t.p[0], n) || !validIndex(t.p[1], n) || !validIndex(t.p[2], n))
        return f;
    const Vec3 a = x[std::size_t(t.p[0])], b = x[std::size_t(t.p[1])], c = x[std::size_t(t.p[2])];
    f.origin = (a + b + c) * (1.f / 3.f);
    f.valid = runtime::Rig::triangleFrame(a, b, c, f.axes);
    return f;
}

} // namespace

RigPose::RigPose(const ViewportScene& scene) : mRig(scene.rig)
{
    if (!mRig)
        return;
    const rig::RigDescription& r = *mRig;
    mPositions.resize(r.particles.size());
    const bool simulated = scene.particlePositions.size() == r.particles.size();
    for (std::size_t i = 0; i < r.particles.size(); ++i)
        mPositions[i] = simulated ? scene.particlePositions[i] : r.particles[i].position;

    std::vector<Vec3> bind(r.particles.size());
    for (std::size_t i = 0; i < r.particles.size(); ++i)
        bind[i] = r.particles[i].position;
    for (const rig::Triangle& t : r.triangles) {
        mTriangleFrames.push_back(frameOf(mPositions, t));
        mBindTriangleFrames.push_back(frameOf(bind, t));
    }
    computeBones(scene);
    computeAngular();
    computeShapes();
}

void RigPose::computeBones(const ViewportScene& scene)
{
    const std::vector<rig::Bone>& bones = mRig->bones;
    std::vector<Mat4> world(bones.size());
    for (std::size_t i = 0; i < bones.size(); ++i)
        world[i] = i < scene.bonePalette.size() ? scene.bonePalette[i] * bones[i].bindWorld : bones[i].bindWorld;
    mBones.resize(bones.size());
    std::vector<int> childCount(bones.size(), 0);
    std::vector<Vec3> childSum(bones.size());
    for (std::size_t i = 0; i < bones.size(); ++i) {
        mBones[i].head = world[i].translation();
        mBones[i].axes = orthonormalBasis(world[i]);
        const std::int32_t p = bones[i].parent;
        if (validIndex(p, bones.size()) && std::size_t(p) < i) {
            childCount[std::size_t(p)] += 1;
            childSum[std::size_t(p)] += mBones[i].head;
        }
    }
    for (std::size_t i = 0; i < bones.size(); ++i) {
        BoneSegment& b = mBones[i];
        if (childCount[i] > 0 && length(childSum[i] * (1.f / float(childCount[i])) - b.head) > 1e-5f) {
            b.tail = childSum[i] * (1.f / float(childCount[i]));
            continue;
        }
        float stub = 0.05f;
        Vec3 along = b.axes.c[1];
        const std::int32_t p = bones[i].parent;
        if (validIndex(p, bones.size()) && std::size_t(p) < i) {
            const Vec3 fromParent = mBones[i].head - mBones[std::size_t(p)].head;
            stub = std::max(0.5f * length(fromParent), 0.02f);
            along = normalizeOr(fromParent, along); // the limb goes on (a bone's own Y need not point along it)
        }
        b.tail = b.head + along * stub;
    }
}

void RigPose::computeAngular()
{
    const rig::RigDescription& r = *mRig;
    for (const rig::AngularConstraint& a : r.angular) {
        AngularAnchor anchor;
        if (!validIndex(a.triangleA, r.triangles.size()) || !validIndex(a.triangleB, r.triangles.size())) {
            mAngular.push_back(anchor);
            continue;
        }
        const auto ia = std::size_t(a.triangleA), ib = std::size_t(a.triangleB);
        const rig::Triangle& ta = r.triangles[ia];
        const rig::Triangle& tb = r.triangles[ib];
        Vec3 shared;
        int sharedCount = 0;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                if (ta.p[i] == tb.p[j] && validIndex(ta.p[i], mPositions.size())) {
                    shared += mPositions[std::size_t(ta.p[i])];
                    ++sharedCount;
                    anchor.minimumCone = std::max(anchor.minimumCone, 1.6f * r.particles[std::size_t(ta.p[i])].radius);
                }
        const Frame& fa = mTriangleFrames[ia];
        const Frame& fb = mTriangleFrames[ib];
        anchor.point = sharedCount > 0 ? shared * (1.f / float(sharedCount)) : (fa.origin + fb.origin) * 0.5f;
        anchor.length = std::max(length(fb.origin - anchor.point), 0.05f);
        // The limit frame seen from A: A_now · rest · twistFrame, rest = A_bindᵀ · B_bind unless given.
        const Frame& ba = mBindTriangleFrames[ia];
        const Frame& bb = mBindTriangleFrames[ib];
        if (fa.valid && ba.valid && bb.valid) {
            const Mat3 rest = a.hasRestOrientation ? toMat3(a.restOrientation) : ba.axes.transposed() * bb.axes;
            const Vec3 t = normalizeOr(a.twistAxis, {0, 1, 0});
            const Vec3 s1 = normalizeOr(a.swingAxis1 - t * dot(a.swingAxis1, t), anyPerpendicular(t));
            anchor.axes = orthonormalized(fa.axes * rest * Mat3::fromColumns(s1, t, cross(s1, t)));
            anchor.valid = true;
        }
        mAngular.push_back(anchor);
    }
}

void RigPose::sizeGizmos(const Camera& camera, QSize viewport)
{
    for (AngularAnchor& a : mAngular)
        if (a.valid) {
            const float perPixel = camera.worldPerPixel(a.point, viewport);
            if (std::isfinite(perPixel) && perPixel > 0.f)
                a.minimumCone = std::max(a.minimumCone, kConePixels * perPixel);
        }
}

void RigPose::computeShapes()
{
    const rig::RigDescription& r = *mRig;
    const std::size_t n = mPositions.size();
    for (const rig::Shape& s : r.shapes) {
        Frame owner;
        if (s.triangle != rig::kNone) {
            if (validIndex(s.triangle, mTriangleFrames.size()))
                owner = mTriangleFrames[std::size_t(s.triangle)];
        } else if (std::all_of(std::begin(s.tetra), std::end(s.tetra), [n](std::int32_t i) { return validIndex(i, n); })) {
            Vec3 x[4], b[4];
            for (int k = 0; k < 4; ++k) {
                x[k] = mPositions[std::size_t(s.tetra[k])];
                b[k] = r.particles[std::size_t(s.tetra[k])].position;
            }
            // owner rotation = orthonormalised (edges_now · edges_bind⁻¹), origin at corner 0
            const Mat3 e = Mat3::fromColumns(b[1] - b[0], b[2] - b[0], b[3] - b[0]);
            const float det = dot(e.c[0], cross(e.c[1], e.c[2]));
            if (std::fabs(det) > 1e-12f) {
                const Mat3 inv = Mat3::fromColumns(cross(e.c[1], e.c[2]) / det, cross(e.c[2], e.c[0]) / det,
                                                   cross(e.c[0], e.c[1]) / det)
                                     .transposed();
                const Mat3 now = Mat3::fromColumns(x[1] - x[0], x[2] - x[0], x[3] - x[0]);
                owner.axes = orthonormalized(now * inv);
                owner.origin = x[0];
                owner.valid = true;
            }
        }
        Frame world;
        if (owner.valid) {
            world.origin = owner.origin + owner.axes * s.local.translation;
            world.axes = owner.axes * toMat3(normalize(s.local.rotation));
            world.valid = true;
        }
        mShapes.push_back(world);
    }
}

Vec3 RigPose::stickMidpoint(std::size_t i) const
{
    const rig::Stick& s = mRig->sticks[i];
    if (!validIndex(s.a, mPositions.size()) || !validIndex(s.b, mPositions.size()))
        return {};
    return (mPositions[std::size_t(s.a)] + mPositions[std::size_t(s.b)]) * 0.5f;
}

Bounds RigPose::bounds() const
{
    Bounds b;
    if (!mRig)
        return b;
    for (std::size_t i = 0; i < mPositions.size(); ++i)
        b.add(mPositions[i], mRig->particles[i].radius);
    for (const BoneSegment& s : mBones) {
        b.add(s.head);
        b.add(s.tail);
    }
    for (std::size_t i = 0; i < mShapes.size(); ++i)
        if (mShapes[i].valid)
            b.add(mShapes[i].origin, length(mRig->shapes[i].halfExtents));
    return b;
}

} // namespace marionette::viewport
