#include "marionette/runtime/Rig.h"

#include "marionette/rig/Mrig.h"

#include "Projection.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <unordered_map>

namespace marionette::runtime {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr std::uint32_t kFromAngle = 1u << 30;    ///< StickData::source tag while building: an angle constraint
constexpr std::uint32_t kFromTriangle = 2u << 30; ///< ... a triangle's missing edge

Transform frameTransform(const Mat3& r, Vec3 origin)
{
    return {toQuat(r), origin};
}

Vec3 centroid(const std::vector<Vec3>& x, const TriangleData& t)
{
    return (x[t.p[0]] + x[t.p[1]] + x[t.p[2]]) * (1.f / 3.f);
}

/// Breadth-first depth of every particle over the stick graph. The roots are the kinematic particles
/// (inverse mass 0: pins, the top row of a curtain), from which corrections should flow; a component
/// without one starts from its most connected particle.
std::vector<std::uint32_t> particleDepths(std::size_t n, const std::vector<StickData>& sticks,
                                          const std::vector<float>& inverseMasses)
{
    constexpr std::uint32_t kUnset = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::vector<std::uint32_t>> adj(n);
    for (const StickData& s : sticks) {
        adj[s.a].push_back(s.b);
        adj[s.b].push_back(s.a);
    }
    std::vector<std::uint32_t> depth(n, kUnset);
    std::queue<std::uint32_t> q;
    auto flood = [&] {
        while (!q.empty()) {
            const std::uint32_t i = q.front();
            q.pop();
            for (std::uint32_t j : adj[i])
                if (depth[j] == kUnset) {
                    depth[j] = depth[i] + 1;
                    q.push(j);
                }
        }
    };
    for (std::size_t i = 0; i < n; ++i)
        if (inverseMasses[i] <= 0.f && !adj[i].empty()) {
            depth[i] = 0;
            q.push(std::uint32_t(i));
        }
    flood();
    for (;;) {
        std::size_t root = n;
        std::size_t best = 0;
        for (std::size_t i = 0; i < n; ++i)
            if (depth[i] == kUnset && (root == n || adj[i].size() > best)) {
                root = i;
                best = adj[i].size();
            }
        if (root == n)
            break;
        depth[root] = 0;
        q.push(std::uint32_t(root));
        flood();
    }
    return depth;
}

} // namespace

Rig::~Rig() = default;

std::string Rig::stickName(std::size_t k) const
{
    if (k >= mStickOrigin.size())
        return {};
    const std::uint32_t origin = mStickOrigin[k], index = origin & (kFromAngle - 1);
    if (origin < kFromAngle)
        return mDescription.sticks[index].name;
    if ((origin & ~(kFromAngle - 1)) == kFromAngle)
        return "angle '" + mDescription.angles[index].name + "'";
    return "triangle '" + mDescription.triangles[index].name + "' edge";
}

std::int32_t Rig::stickAngle(std::size_t k) const
{
    if (k >= mStickOrigin.size() || (mStickOrigin[k] & ~(kFromAngle - 1)) != kFromAngle)
        return -1;
    return std::int32_t(mStickOrigin[k] & (kFromAngle - 1));
}

bool Rig::triangleFrame(Vec3 p0, Vec3 p1, Vec3 p2, Mat3& out)
{
    const Vec3 e1 = p1 - p0;
    const float l1 = lengthSquared(e1);
    if (!(l1 > 1e-16f))
        return false;
    const Vec3 up = e1 * (1.f / std::sqrt(l1));
    const Vec3 f = cross(up, p2 - p0);
    const float lf = lengthSquared(f);
    if (!(lf > 1e-14f * lengthSquared(p2 - p0)) || !(lf > 1e-20f))
        return false;
    const Vec3 facing = f * (1.f / std::sqrt(lf));
    out = Mat3::fromColumns(cross(up, facing), up, facing);
    return true;
}

std::shared_ptr<const Rig> Rig::load(const std::string& path, std::string* error)
{
    rig::RigDescription d;
    const std::optional<rig::Validated> valid = rig::loadValidatedMrig(path, d, error); // validates once
    return valid ? build(*valid) : nullptr;
}

std::shared_ptr<const Rig> Rig::loadFromMemory(std::span<const std::byte> bytes, std::string* error)
{
    rig::RigDescription d;
    const std::optional<rig::Validated> valid = rig::readValidatedMrig(bytes, d, error); // validates once
    return valid ? build(*valid) : nullptr;
}

std::shared_ptr<const Rig> Rig::build(const rig::RigDescription& d, std::string* error)
{
    const std::optional<rig::Validated> valid = rig::validated(d, error);
    return valid ? build(*valid) : nullptr;
}

std::shared_ptr<const Rig> Rig::build(const rig::Validated& valid)
{
    const rig::RigDescription& d = valid.description();
    std::shared_ptr<Rig> r(new Rig());
    r->mDescription = d;
    const std::size_t n = d.particles.size();
    r->mBindPositions.resize(n);
    r->mInverseMasses.resize(n);
    r->mMasses.resize(n);
    r->mRadii.resize(n);
    r->mGroups.resize(n);
    r->mMasks.resize(n);
    Vec3 com;
    float total = 0.f;
    for (std::size_t i = 0; i < n; ++i) {
        const rig::Particle& p = d.particles[i];
        r->mBindPositions[i] = p.position;
        r->mMasses[i] = p.mass;
        r->mInverseMasses[i] = p.mass > 0.f ? 1.f / p.mass : 0.f;
        r->mRadii[i] = p.radius;
        r->mGroups[i] = p.group;
        r->mMasks[i] = p.mask;
        com += p.position * p.mass;
        total += p.mass;
    }
    r->mTotalMass = total;
    com = total > 0.f ? com / total : r->mBindPositions[0];
    const auto& X = r->mBindPositions;

    // Sticks: every kind becomes a [min, max] clamp.
    std::vector<StickData> sticks;
    sticks.reserve(d.sticks.size() + 3 * d.triangles.size() + d.angles.size());
    for (std::size_t i = 0; i < d.sticks.size(); ++i) {
        const rig::Stick& s = d.sticks[i];
        const float bind = length(X[s.b] - X[s.a]);
        const float rest = s.restLength >= 0.f ? s.restLength : bind;
        StickData o{std::uint32_t(s.a), std::uint32_t(s.b), rest, rest, s.stiffness, s.compliance, kInf, std::uint32_t(i)};
        float tearBase = rest;
        switch (s.kind) {
        case rig::StickKind::Rigid: break;
        case rig::StickKind::Range: o.minLength = s.minLength; o.maxLength = s.maxLength; tearBase = s.maxLength; break;
        case rig::StickKind::MinOnly: o.minLength = s.minLength; o.maxLength = kInf; tearBase = std::max(bind, s.minLength); break;
        case rig::StickKind::MaxOnly: o.minLength = 0.f; o.maxLength = s.maxLength; tearBase = s.maxLength; break;
        }
        if (s.tearRatio > 0.f) {
            o.tearLength = s.tearRatio * std::max(tearBase, 1e-6f);
            r->mTearable = true;
        }
        sticks.push_back(o);
    }
    // Law-of-cosines angle constraints become a distance range between the two outer particles.
    for (const rig::AngleConstraint& a : d.angles) {
        if (a.form != rig::AngleConstraint::Form::LawOfCosines)
            continue;
        const float A = length(X[a.a] - X[a.center]);
        const float B = length(X[a.b] - X[a.center]);
        auto dist = [&](float th) { return std::sqrt(std::max(0.f, A * A + B * B - 2.f * A * B * std::cos(th))); };
        sticks.push_back({std::uint32_t(a.a), std::uint32_t(a.b), dist(a.minAngle), dist(a.maxAngle), a.stiffness, 0.f,
                          kInf, kFromAngle | std::uint32_t(&a - d.angles.data())});
    }
    // Triangle edges are enforced by rigid sticks; add those the description lacks.
    auto hasLink = [&](std::uint32_t a, std::uint32_t b) {
        return std::any_of(sticks.begin(), sticks.end(), [&](const StickData& s) {
            return s.minLength == s.maxLength && ((s.a == a && s.b == b) || (s.a == b && s.b == a));
        });
    };
    for (const rig::Triangle& t : d.triangles) {
        r->mTriangles.push_back({{std::uint32_t(t.p[0]), std::uint32_t(t.p[1]), std::uint32_t(t.p[2])}});
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t a = std::uint32_t(t.p[k]), b = std::uint32_t(t.p[(k + 1) % 3]);
            if (!hasLink(a, b)) {
                const float L = length(X[b] - X[a]);
                sticks.push_back({a, b, L, L, 1.f, 0.f, kInf, kFromTriangle | std::uint32_t(&t - d.triangles.data())});
            }
        }
    }
    // Order root-to-leaf (the solver alternates direction every iteration).
    const std::vector<std::uint32_t> depth = particleDepths(n, sticks, r->mInverseMasses);
    std::stable_sort(sticks.begin(), sticks.end(), [&](const StickData& a, const StickData& b) {
        return std::min(depth[a.a], depth[a.b]) < std::min(depth[b.a], depth[b.b]);
    });
    // Within one depth level, order the sticks so that each aligned block of four shares no particle, nor
    // with the block before it: the level-by-level root-to-leaf sweep is kept (it carries a correction down a
    // chain in one iteration), while the solver handles an independent block in one 4-wide pass, two
    // independent blocks together, and the CPU overlaps one block's square roots and divisions with the next
    // one's instead of waiting for their results.
    {
        auto level = [&](const StickData& c) { return std::min(depth[c.a], depth[c.b]); };
        std::vector<StickData> ordered;
        ordered.reserve(sticks.size());
        std::vector<char> used;
        for (std::size_t begin = 0, end = 0; begin < sticks.size(); begin = end) {
            while (end < sticks.size() && level(sticks[end]) == level(sticks[begin]))
                ++end;
            used.assign(end - begin, 0);
            std::size_t firstUnused = begin;
            for (std::size_t placed = begin; placed < end; ++placed) {
                while (used[firstUnused - begin])
                    ++firstUnused;
                // The current block, and the previous one when the current one is the second of a pair.
                const std::size_t blockStart = ordered.size() & ~std::size_t(3);
                const std::size_t windowStart = (blockStart & 4u) != 0 ? blockStart - 4 : blockStart;
                std::size_t pick = firstUnused;
                constexpr std::size_t kLookahead = 32;
                for (std::size_t k = firstUnused, seen = 0; k < end && seen < kLookahead; ++k) {
                    if (used[k - begin])
                        continue;
                    ++seen;
                    bool clash = false;
                    for (std::size_t j = windowStart; j < ordered.size(); ++j) {
                        const StickData& o = ordered[j];
                        clash = clash || o.a == sticks[k].a || o.a == sticks[k].b || o.b == sticks[k].a ||
                                o.b == sticks[k].b;
                    }
                    if (!clash) {
                        pick = k;
                        break;
                    }
                }
                used[pick - begin] = 1;
                ordered.push_back(sticks[pick]);
            }
        }
        sticks = std::move(ordered);
    }
    r->mStickRemap.assign(d.sticks.size(), 0);
    r->mStickOrigin.resize(sticks.size());
    for (std::size_t i = 0; i < sticks.size(); ++i) {
        r->mStickOrigin[i] = sticks[i].source;
        if (sticks[i].source >= kFromAngle)
            sticks[i].source = ~0u; // generated: no description stick
        else
            r->mStickRemap[sticks[i].source] = std::uint32_t(i);
    }
    r->mSticks = std::move(sticks);
    for (std::size_t k = 0; k + 4 <= r->mSticks.size(); k += 4) {
        StickBlock blk{};
        std::uint32_t touched[8];
        for (std::size_t l = 0; l < 4; ++l) {
            const StickData& c = r->mSticks[k + l];
            blk.a[l] = c.a;
            blk.b[l] = c.b;
            blk.minLength[l] = c.minLength;
            blk.maxLength[l] = c.maxLength;
            blk.stiffness[l] = c.stiffness;
            touched[2 * l] = c.a;
            touched[2 * l + 1] = c.b;
        }
        blk.independent = true;
        for (std::size_t i = 0; i < 8; ++i)
            for (std::size_t j = i + 1; j < 8; ++j)
                blk.independent = blk.independent && touched[i] != touched[j];
        r->mStickBlocks.push_back(blk);
    }
    for (std::size_t k = 0; k + 1 < r->mStickBlocks.size(); ++k) {
        StickBlock& p = r->mStickBlocks[k];
        const StickBlock& q = r->mStickBlocks[k + 1];
        bool apart = p.independent && q.independent;
        for (std::size_t i = 0; i < 4 && apart; ++i)
            for (std::size_t j = 0; j < 4; ++j)
                apart = apart && p.a[i] != q.a[j] && p.a[i] != q.b[j] && p.b[i] != q.a[j] && p.b[i] != q.b[j];
        p.pairedWithNext = apart;
    }

    for (const rig::AngleConstraint& a : d.angles)
        if (a.damping > 0.f)
            r->mBends.push_back({std::uint32_t(a.center), std::uint32_t(a.a), std::uint32_t(a.b), a.damping});
    for (const rig::AngleConstraint& a : d.angles) {
        if (a.form != rig::AngleConstraint::Form::DotProduct)
            continue;
        r->mAngles.push_back({std::uint32_t(a.center), std::uint32_t(a.a), std::uint32_t(a.b), std::cos(a.minAngle),
                              std::cos(a.maxAngle), a.minAngle, a.maxAngle, a.stiffness});
    }

    std::vector<Mat3> bindFrames(d.triangles.size());
    for (std::size_t i = 0; i < d.triangles.size(); ++i) {
        const TriangleData& t = r->mTriangles[i];
        // Succeeds: validation refused every triangle rig::isDegenerateTriangle() calls degenerate.
        Rig::triangleFrame(X[t.p[0]], X[t.p[1]], X[t.p[2]], bindFrames[i]);
    }
    for (const rig::AngularConstraint& a : d.angular) {
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
            const TriangleData& A = r->mTriangles[o.triA];
            const TriangleData& B = r->mTriangles[o.triB];
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
        r->mAngular.push_back(o);
    }
    // The sticks on the edges of each angular constraint's two triangles: when one tears, the triangle is
    // open and the constraint built on it stops acting.
    if (r->mTearable) {
        std::unordered_map<std::uint64_t, std::uint32_t> byEnds;
        for (std::uint32_t k = 0; k < r->mSticks.size(); ++k) {
            const std::uint32_t a = std::min(r->mSticks[k].a, r->mSticks[k].b), b = std::max(r->mSticks[k].a, r->mSticks[k].b);
            byEnds.emplace((std::uint64_t(a) << 32) | b, k);
        }
        r->mAngularEdges.assign(6 * r->mAngular.size(), ~0u);
        for (std::size_t i = 0; i < r->mAngular.size(); ++i)
            for (int side = 0; side < 2; ++side) {
                const TriangleData& t = r->mTriangles[side == 0 ? r->mAngular[i].triA : r->mAngular[i].triB];
                for (int e = 0; e < 3; ++e) {
                    const std::uint32_t a = std::min(t.p[e], t.p[(e + 1) % 3]), b = std::max(t.p[e], t.p[(e + 1) % 3]);
                    const auto it = byEnds.find((std::uint64_t(a) << 32) | b);
                    if (it != byEnds.end())
                        r->mAngularEdges[6 * i + 3 * std::size_t(side) + std::size_t(e)] = it->second;
                }
            }
    }

    for (std::size_t i = 0; i < d.sticks.size(); ++i) {
        const rig::Stick& s = d.sticks[i];
        if (s.capsuleRadius > 0.f)
            r->mCapsules.push_back({std::uint32_t(s.a), std::uint32_t(s.b), s.capsuleRadius, s.group, s.mask, std::uint32_t(i)});
    }
    // Self-collision pairs: filter passes both ways, no shared particle, not joined by a rigid link.
    auto rigidlyLinked = [&](std::uint32_t a, std::uint32_t b) {
        for (const rig::Stick& s : d.sticks)
            if (s.kind == rig::StickKind::Rigid && ((std::uint32_t(s.a) == a && std::uint32_t(s.b) == b) ||
                                                    (std::uint32_t(s.a) == b && std::uint32_t(s.b) == a)))
                return true;
        return false;
    };
    const std::uint32_t selfCapsules = d.settings.selfCollision ? std::uint32_t(r->mCapsules.size()) : 0u;
    for (std::uint32_t i = 0; i < selfCapsules; ++i)
        for (std::uint32_t j = i + 1; j < selfCapsules; ++j) {
            const CapsuleData& A = r->mCapsules[i];
            const CapsuleData& B = r->mCapsules[j];
            if (!((A.group & B.mask) && (B.group & A.mask)))
                continue;
            if (A.a == B.a || A.a == B.b || A.b == B.a || A.b == B.b)
                continue;
            if (rigidlyLinked(A.a, B.a) || rigidlyLinked(A.a, B.b) || rigidlyLinked(A.b, B.a) || rigidlyLinked(A.b, B.b))
                continue;
            r->mSelfPairs.push_back(i);
            r->mSelfPairs.push_back(j);
        }

    for (const rig::Shape& s : d.shapes) {
        BoxData b{};
        b.local = s.local;
        b.half = s.halfExtents;
        b.group = s.group;
        b.mask = s.mask;
        if (s.triangle != rig::kNone) {
            const TriangleData& t = r->mTriangles[std::size_t(s.triangle)];
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
        r->mBoxes.push_back(b);
    }

    {
        std::vector<char> covered(n, 0);
        for (std::uint32_t i = 0; i < r->mCapsules.size(); ++i) {
            const CapsuleData& c = r->mCapsules[i];
            r->mColliders.push_back({1, i, c.group, c.mask});
            if (r->mRadii[c.a] <= c.radius)
                covered[c.a] = 1;
            if (r->mRadii[c.b] <= c.radius)
                covered[c.b] = 1;
        }
        for (std::uint32_t i = 0; i < n; ++i)
            if (!covered[i] && r->mRadii[i] > 0.f)
                r->mColliders.push_back({0, i, r->mGroups[i], r->mMasks[i]});
        for (std::uint32_t i = 0; i < r->mBoxes.size(); ++i)
            r->mColliders.push_back({2, i, r->mBoxes[i].group, r->mBoxes[i].mask});
    }

    for (const rig::Pin& p : d.pins)
        r->mPins.push_back({std::uint32_t(p.particle), p.target, p.stiffness, p.kinematic});

    r->mBones.resize(d.bones.size());
    for (std::size_t i = 0; i < d.bones.size(); ++i) {
        BoneData& b = r->mBones[i];
        b.parent = d.bones[i].parent;
        b.driver = -1;
        b.driverKind = rig::BoneBinding::Driver::Triangle;
        b.bindWorld = d.bones[i].bindWorld;
        b.inverseBind = d.bones[i].inverseBind;
    }
    for (const rig::BoneBinding& bb : d.bindings) {
        BoneData& b = r->mBones[std::size_t(bb.bone)];
        b.driver = bb.index;
        b.driverKind = bb.driver;
        if (bb.driver == rig::BoneBinding::Driver::Triangle) {
            const TriangleData& t = r->mTriangles[std::size_t(bb.index)];
            b.bindDriver = frameTransform(bindFrames[std::size_t(bb.index)], centroid(X, t));
        } else {
            const rig::Stick& s = d.sticks[std::size_t(bb.index)];
            b.stickA = std::uint32_t(s.a);
            b.stickB = std::uint32_t(s.b);
            b.stickDirection = normalizeOr(X[b.stickB] - X[b.stickA], {0, 1, 0});
            b.bindDriver = {Quat{}, X[b.stickA]};
        }
    }

    for (std::size_t i = 0; i < r->mBones.size(); ++i) {
        BoneData& b = r->mBones[i];
        b.follow = -1;
        if (b.parent != -1 || b.driver != -1)
            continue;
        for (std::size_t j = i + 1; j < r->mBones.size() && b.follow == -1; ++j) {
            if (r->mBones[j].driver == -1)
                continue;
            for (std::int32_t a = r->mBones[j].parent; a != -1; a = r->mBones[std::size_t(a)].parent)
                if (std::size_t(a) == i) {
                    b.follow = std::int32_t(j);
                    break;
                }
        }
    }

    r->compileDrives();

    // The direct projection holds every rigid stick exactly, so a stick that may tear is relaxed instead:
    // rigs with tearable sticks (and rigs too large for the projection) use Gauss–Seidel.
    if (d.settings.solver == rig::SolverMode::Direct && !r->mTearable) {
        auto structure = std::make_unique<ProjectionStructure>();
        if (structure->build(*r))
            r->mProjection = std::move(structure);
    }

    float radius = 0.f, maxR = 0.f;
    for (std::size_t i = 0; i < n; ++i) {
        radius = std::max(radius, length(X[i] - com));
        maxR = std::max(maxR, r->mRadii[i]);
    }
    for (const CapsuleData& c : r->mCapsules)
        maxR = std::max(maxR, c.radius);
    for (const BoxData& b : r->mBoxes)
        maxR = std::max(maxR, length(b.half));
    r->mBoundingRadius = radius + maxR;
    return r;
}

} // namespace marionette::runtime
