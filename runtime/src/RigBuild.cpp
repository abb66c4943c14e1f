// Rig's builders, one per element kind (the sticks' in RigSticks.cpp, the drives' in RigDrives.cpp):
// each turns its part of the validated description into the flat arrays the solver reads.
#include "marionette/runtime/Rig.h"

#include "Projection.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace marionette::runtime {

namespace {

Transform frameTransform(const Mat3& r, Vec3 origin)
{
    return {toQuat(r), origin};
}

Vec3 centroid(const std::vector<Vec3>& x, const TriangleData& t)
{
    return (x[t.p[0]] + x[t.p[1]] + x[t.p[2]]) * (1.f / 3.f);
}

} // namespace

Vec3 Rig::compileParticles()
{
    const rig::RigDescription& d = mDescription;
    const std::size_t n = d.particles.size();
    mBindPositions.resize(n);
    mInverseMasses.resize(n);
    mMasses.resize(n);
    mRadii.resize(n);
    mGroups.resize(n);
    mMasks.resize(n);
    Vec3 com;
    float total = 0.f;
    for (std::size_t i = 0; i < n; ++i) {
        const rig::Particle& p = d.particles[i];
        mBindPositions[i] = p.position;
        mMasses[i] = p.mass;
        mInverseMasses[i] = p.mass > 0.f ? 1.f / p.mass : 0.f;
        mRadii[i] = p.radius;
        mGroups[i] = p.group;
        mMasks[i] = p.mask;
        com += p.position * p.mass;
        total += p.mass;
    }
    mTotalMass = total;
    com = total > 0.f ? com / total : mBindPositions[0];
    return com;
}

void Rig::compileTriangles()
{
    for (const rig::Triangle& t : mDescription.triangles)
        mTriangles.push_back({{std::uint32_t(t.p[0]), std::uint32_t(t.p[1]), std::uint32_t(t.p[2])}});
}

void Rig::compileAngles()
{
    const rig::RigDescription& d = mDescription;
    for (const rig::AngleConstraint& a : d.angles)
        if (a.damping > 0.f)
            mBends.push_back({std::uint32_t(a.center), std::uint32_t(a.a), std::uint32_t(a.b), a.damping});
    for (const rig::AngleConstraint& a : d.angles) {
        if (a.form != rig::AngleConstraint::Form::DotProduct)
            continue;
        mAngles.push_back({std::uint32_t(a.center), std::uint32_t(a.a), std::uint32_t(a.b), std::cos(a.minAngle),
                           std::cos(a.maxAngle), a.minAngle, a.maxAngle, a.stiffness});
    }
}

std::vector<Mat3> Rig::bindFrames() const
{
    const auto& X = mBindPositions;
    std::vector<Mat3> frames(mDescription.triangles.size());
    for (std::size_t i = 0; i < mDescription.triangles.size(); ++i) {
        const TriangleData& t = mTriangles[i];
        // Succeeds: validation refused every triangle rig::isDegenerateTriangle() calls degenerate.
        Rig::triangleFrame(X[t.p[0]], X[t.p[1]], X[t.p[2]], frames[i]);
    }
    return frames;
}

void Rig::compileAngular(const std::vector<Mat3>& bindFrames)
{
    const auto& X = mBindPositions;
    for (const rig::AngularConstraint& a : mDescription.angular) {
        AngularData o{};
        o.triA = std::uint32_t(a.triangleA);
        o.triB = std::uint32_t(a.triangleB);
        o.limit = a.limit;
        o.rest = a.hasRestOrientation ? toMat3(a.restOrientation)
                                      : bindFrames[o.triA].transposed() * bindFrames[o.triB];
        o.coneAngle = a.coneAngle;
        o.cosCone = std::cos(a.coneAngle);
        const Vec3 t = normalizeOr(a.twistAxis, {0, 1, 0});
        Vec3 s1 = a.swingAxis1 - t * dot(a.swingAxis1, t);
        s1 = normalizeOr(s1, anyPerpendicular(t));
        o.twistFrame = toQuat(Mat3::fromColumns(s1, t, cross(s1, t)));
        o.frame = toMat3(o.twistFrame);
        o.restFrame = o.rest * o.frame;
        o.twistMinSin = std::sin(0.5f * a.twistMin);
        o.twistMinCos = std::cos(0.5f * a.twistMin);
        o.twistMaxSin = std::sin(0.5f * a.twistMax);
        o.twistMaxCos = std::cos(0.5f * a.twistMax);
        o.twistMin = a.twistMin;
        o.twistMax = a.twistMax;
        o.swing1 = a.swing1;
        o.swing2 = a.swing2;
        o.stiffness = a.stiffness;
        o.damping = a.damping;
        o.staticFrictionSpeed = a.staticFrictionSpeed;
        o.restQ = toQuat(o.rest);
        o.restFrameQ = normalize(o.restQ * o.twistFrame);
        auto sinHalf2 = [](float angle) {
            const float sh = std::sin(0.5f * std::clamp(angle, 0.f, kPi));
            return sh * sh;
        };
        o.sinHalfCone2 = sinHalf2(a.coneAngle);
        constexpr float kLocked = 1e-4f, kTolerance = 8.7e-4f; // as the solver's lock and tolerance
        o.sinHalfSwing2 = (a.swing1 < kLocked || a.swing2 < kLocked) ? sinHalf2(kTolerance)
                                                                     : sinHalf2(std::min(a.swing1, a.swing2));
        if (a.limit == rig::AngularLimit::SwingTwist) {
            const TriangleData& A = mTriangles[o.triA];
            const TriangleData& B = mTriangles[o.triB];
            std::uint32_t shared[3], sharedCount = 0;
            for (std::uint32_t pa : A.p)
                for (std::uint32_t pb : B.p)
                    if (pa == pb)
                        shared[sharedCount++] = pa;
            if (sharedCount == 2) {
                const Vec3 edge = normalizeOr(X[shared[1]] - X[shared[0]], Vec3{});
                const Vec3 twistWorld = bindFrames[o.triB] * t; // t: twist axis in B's frame
                const float along = dot(edge, twistWorld);
                if (std::fabs(along) >= std::cos(radians(5.f))) {
                    o.hinge = true;
                    o.hingeA = shared[0];
                    o.hingeB = shared[1];
                    o.hingeSign = along > 0.f ? 1.f : -1.f;
                    for (std::uint32_t k = 0; k < 3; ++k) {
                        if (A.p[k] != shared[0] && A.p[k] != shared[1])
                            o.freeA = A.p[k];
                        if (B.p[k] != shared[0] && B.p[k] != shared[1])
                            o.freeB = B.p[k];
                    }
                }
            }
        }
        mAngular.push_back(o);
    }
}

void Rig::compileAngularEdges()
{
    // The sticks on the edges of each angular constraint's two triangles: when one tears, the triangle is
    // open and the constraint built on it stops acting.
    if (!mTearable)
        return;
    std::unordered_map<std::uint64_t, std::uint32_t> byEnds;
    for (std::uint32_t k = 0; k < mSticks.size(); ++k) {
        const std::uint32_t a = std::min(mSticks[k].a, mSticks[k].b), b = std::max(mSticks[k].a, mSticks[k].b);
        byEnds.emplace((std::uint64_t(a) << 32) | b, k);
    }
    mAngularEdges.assign(6 * mAngular.size(), ~0u);
    for (std::size_t i = 0; i < mAngular.size(); ++i)
        for (int side = 0; side < 2; ++side) {
            const TriangleData& t = mTriangles[side == 0 ? mAngular[i].triA : mAngular[i].triB];
            for (int e = 0; e < 3; ++e) {
                const std::uint32_t a = std::min(t.p[e], t.p[(e + 1) % 3]), b = std::max(t.p[e], t.p[(e + 1) % 3]);
                const auto it = byEnds.find((std::uint64_t(a) << 32) | b);
                if (it != byEnds.end())
                    mAngularEdges[6 * i + 3 * std::size_t(side) + std::size_t(e)] = it->second;
            }
        }
}

void Rig::compileCapsules()
{
    const rig::RigDescription& d = mDescription;
    for (std::size_t i = 0; i < d.sticks.size(); ++i) {
        const rig::Stick& s = d.sticks[i];
        if (s.capsuleRadius > 0.f)
            mCapsules.push_back({std::uint32_t(s.a), std::uint32_t(s.b), s.capsuleRadius, s.group, s.mask, std::uint32_t(i)});
    }
    // Self-collision pairs: filter passes both ways, no shared particle, not joined by a rigid link.
    auto rigidlyLinked = [&](std::uint32_t a, std::uint32_t b) {
        for (const rig::Stick& s : d.sticks)
            if (s.kind == rig::StickKind::Rigid && ((std::uint32_t(s.a) == a && std::uint32_t(s.b) == b) ||
                                                    (std::uint32_t(s.a) == b && std::uint32_t(s.b) == a)))
                return true;
        return false;
    };
    const std::uint32_t selfCapsules = d.settings.selfCollision ? std::uint32_t(mCapsules.size()) : 0u;
    for (std::uint32_t i = 0; i < selfCapsules; ++i)
        for (std::uint32_t j = i + 1; j < selfCapsules; ++j) {
            const CapsuleData& A = mCapsules[i];
            const CapsuleData& B = mCapsules[j];
            if (!((A.group & B.mask) && (B.group & A.mask)))
                continue;
            if (A.a == B.a || A.a == B.b || A.b == B.a || A.b == B.b)
                continue;
            if (rigidlyLinked(A.a, B.a) || rigidlyLinked(A.a, B.b) || rigidlyLinked(A.b, B.a) || rigidlyLinked(A.b, B.b))
                continue;
            mSelfPairs.push_back(i);
            mSelfPairs.push_back(j);
        }
}

void Rig::compileBoxes(const std::vector<Mat3>& bindFrames)
{
    const auto& X = mBindPositions;
    for (const rig::Shape& s : mDescription.shapes) {
        BoxData b{};
        b.local = s.local;
        b.half = s.halfExtents;
        b.group = s.group;
        b.mask = s.mask;
        if (s.triangle != rig::kNone) {
            const TriangleData& t = mTriangles[std::size_t(s.triangle)];
            b.particleCount = 3;
            for (int k = 0; k < 3; ++k)
                b.particles[k] = t.p[k];
            b.particles[3] = t.p[0];
            b.bindOwner = frameTransform(bindFrames[std::size_t(s.triangle)], centroid(X, t));
        } else {
            b.particleCount = 4;
            for (int k = 0; k < 4; ++k)
                b.particles[k] = std::uint32_t(s.tetra[k]);
            const Vec3 x0 = X[b.particles[0]];
            const Mat3 edges = Mat3::fromColumns(X[b.particles[1]] - x0, X[b.particles[2]] - x0, X[b.particles[3]] - x0);
            // inverse of a 3×3 through the adjugate; validated not flat (rig::isFlatTetrahedron)
            const Vec3 c0 = edges.c[0], c1 = edges.c[1], c2 = edges.c[2];
            const float det = dot(c0, cross(c1, c2));
            const Vec3 r0 = cross(c1, c2) / det, r1 = cross(c2, c0) / det, r2 = cross(c0, c1) / det;
            b.bindInverseEdges = Mat3::fromColumns(r0, r1, r2).transposed();
            b.bindOwner = {Quat{}, x0};
        }
        mBoxes.push_back(b);
    }
}

void Rig::compileColliders()
{
    const std::size_t n = mBindPositions.size();
    std::vector<char> covered(n, 0);
    for (std::uint32_t i = 0; i < mCapsules.size(); ++i) {
        const CapsuleData& c = mCapsules[i];
        mColliders.push_back({1, i, c.group, c.mask});
        if (mRadii[c.a] <= c.radius)
            covered[c.a] = 1;
        if (mRadii[c.b] <= c.radius)
            covered[c.b] = 1;
    }
    for (std::uint32_t i = 0; i < n; ++i)
        if (!covered[i] && mRadii[i] > 0.f)
            mColliders.push_back({0, i, mGroups[i], mMasks[i]});
    for (std::uint32_t i = 0; i < mBoxes.size(); ++i)
        mColliders.push_back({2, i, mBoxes[i].group, mBoxes[i].mask});
}

void Rig::compilePins()
{
    for (const rig::Pin& p : mDescription.pins)
        mPins.push_back({std::uint32_t(p.particle), p.target, p.stiffness, p.kinematic});
}

void Rig::compileBones(const std::vector<Mat3>& bindFrames)
{
    const rig::RigDescription& d = mDescription;
    const auto& X = mBindPositions;
    mBones.resize(d.bones.size());
    for (std::size_t i = 0; i < d.bones.size(); ++i) {
        BoneData& b = mBones[i];
        b.parent = d.bones[i].parent;
        b.driver = -1;
        b.driverKind = rig::BoneBinding::Driver::Triangle;
        b.bindWorld = d.bones[i].bindWorld;
        b.inverseBind = d.bones[i].inverseBind;
    }
    for (const rig::BoneBinding& bb : d.bindings) {
        BoneData& b = mBones[std::size_t(bb.bone)];
        b.driver = bb.index;
        b.driverKind = bb.driver;
        if (bb.driver == rig::BoneBinding::Driver::Triangle) {
            const TriangleData& t = mTriangles[std::size_t(bb.index)];
            b.bindDriver = frameTransform(bindFrames[std::size_t(bb.index)], centroid(X, t));
        } else {
            const rig::Stick& s = d.sticks[std::size_t(bb.index)];
            b.stickA = std::uint32_t(s.a);
            b.stickB = std::uint32_t(s.b);
            b.stickDirection = normalizeOr(X[b.stickB] - X[b.stickA], {0, 1, 0});
            b.bindDriver = {Quat{}, X[b.stickA]};
        }
    }

    for (std::size_t i = 0; i < mBones.size(); ++i) {
        BoneData& b = mBones[i];
        b.follow = -1;
        if (b.parent != -1 || b.driver != -1)
            continue;
        for (std::size_t j = i + 1; j < mBones.size() && b.follow == -1; ++j) {
            if (mBones[j].driver == -1)
                continue;
            for (std::int32_t a = mBones[j].parent; a != -1; a = mBones[std::size_t(a)].parent)
                if (std::size_t(a) == i) {
                    b.follow = std::int32_t(j);
                    break;
                }
        }
    }
}

void Rig::compileProjection()
{
    // The direct projection holds every rigid stick exactly, so a stick that may tear is relaxed instead:
    // rigs with tearable sticks (and rigs too large for the projection) use Gauss–Seidel.
    if (mDescription.settings.solver == rig::SolverMode::Direct && !mTearable) {
        auto structure = std::make_unique<ProjectionStructure>();
        if (structure->build(*this))
            mProjection = std::move(structure);
    }
}

void Rig::compileBoundingRadius(Vec3 com)
{
    const auto& X = mBindPositions;
    float radius = 0.f, maxR = 0.f;
    for (std::size_t i = 0; i < X.size(); ++i) {
        radius = std::max(radius, length(X[i] - com));
        maxR = std::max(maxR, mRadii[i]);
    }
    for (const CapsuleData& c : mCapsules)
        maxR = std::max(maxR, c.radius);
    for (const BoxData& b : mBoxes)
        maxR = std::max(maxR, length(b.half));
    mBoundingRadius = radius + maxR;
}

} // namespace marionette::runtime
