// The generic template: any skeleton (animals, props, tails). Joints become particles (near-coincident ones
// merged). Each bone with length becomes a body: a branch point's joints make a triangle (full frame); a
// chain segment is a stick that drives its bone by direction, with a helper particle and a triangle only
// where no ancestor has a frame. Bends are limited by law-of-cosines ranges at every joint, relative
// orientations of triangle bodies by swing/twist limits (swing in a cone, twist about the body's axis);
// masses follow the bones' volumes.
#include "Templates.h"

#include "marionette/editor/autorig/AutoRigSupport.h"
#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/Rig.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

namespace marionette::editor::autorig {

namespace {

constexpr float kBend = radians(45.f);     ///< bend allowed at each joint of a chain, from the bind pose
constexpr float kMaxCone = radians(150.f);
/// Twist allowed at each joint between two framed bodies. Their limit is swing/twist only where the swing
/// stays within kMaxTwistSwing: towards a half-turn of swing the twist about the body's axis is not defined
/// (the decomposition is singular there), and past a cone of two joints a cone limits better.
constexpr float kTwist = radians(30.f);
constexpr float kMaxTwistSwing = radians(90.f);
/// The most a run of segments (a tail, a rope, a tentacle) may curl in all (one and a half turns), shared
/// among its joints by the lengths of the links they join: a long chain of short links does not coil on
/// itself. Runs of up to 12 equal links keep kBend at every joint.
constexpr float kChainCurl = 3.f * kPi;
constexpr float kShortArm = 0.25f; ///< a bend's parent arm shorter than this fraction of the body's is not damped

struct Body {
    std::int32_t origin = 0;          ///< particle of the first bone's joint
    std::vector<std::int32_t> ends;   ///< child joint particles (or a tail)
    std::vector<std::int32_t> bones;  ///< bones driven by this body
    std::int32_t parent = -1;         ///< body of the nearest ancestor bone with a body of its own
    std::int32_t far = -1;            ///< the end furthest from the origin
    std::int32_t stick = -1;          ///< segment: the bone stick origin → far
    std::int32_t triangle = -1;       ///< branch, or a segment without a framed ancestor
    std::int32_t helper = -1;         ///< helper particle of a framed segment
    float radius = 0.f;
    float volume = 0.f;
};

std::string joined(const std::string& a, const char* sep, const std::string& b)
{
    std::string s = a;
    s.append(sep).append(b);
    return s;
}

class GenericBuilder {
public:
    GenericBuilder(const TemplateInput& in, rig::RigDescription& d, std::vector<std::string>& notes)
        : mIn(in), mD(d), mNotes(notes), mTree(d.bones)
    {
    }
    bool run(std::string* error);

private:
    Vec3 pos(std::int32_t p) const { return mD.particles[std::size_t(p)].position; }
    std::int32_t addParticle(std::string name, Vec3 p, std::int32_t bone)
    {
        mD.particles.push_back(makeParticle(std::move(name), p, 0.f, 0.f, bone));
        return std::int32_t(mD.particles.size() - 1);
    }
    /// A rigid stick between a and b unless one exists already; returns its index.
    std::int32_t link(std::string name, std::int32_t a, std::int32_t b, float capsule = 0.f)
    {
        const auto key = std::minmax(a, b);
        if (auto it = mLinks.find(key); it != mLinks.end()) {
            rig::Stick& s = mD.sticks[std::size_t(it->second)];
            s.capsuleRadius = std::max(s.capsuleRadius, capsule);
            return it->second;
        }
        mD.sticks.push_back(makeStick(std::move(name), a, b, capsule));
        mLinks[key] = std::int32_t(mD.sticks.size() - 1);
        return mLinks[key];
    }
    float fitBody(const Body& body, float fallback) const;
    void makeBody(Body& body, const std::string& name, bool framedAncestor);
    void limitBend(const Body& body, const std::string& name);
    bool twistMeasurable(std::int32_t triangleA, std::int32_t triangleB) const;
    float reachOf(const Body& b) const
    {
        float r = 0.f;
        for (std::int32_t e : b.ends)
            r = std::max(r, length(pos(e) - pos(b.origin)));
        return r;
    }

    const TemplateInput& mIn;
    rig::RigDescription& mD;
    std::vector<std::string>& mNotes;
    SkeletonTree mTree;
    std::map<std::pair<std::int32_t, std::int32_t>, std::int32_t> mLinks;
    std::vector<Body> mBodies;
    std::vector<std::int32_t> mRun;   ///< per body: its unbranched run of segments, or -1
    std::vector<float> mRunLength;    ///< per run: the sum of its links' lengths
};

float GenericBuilder::fitBody(const Body& body, float fallback) const
{
    std::vector<float> d;
    for (std::int32_t b : body.bones)
        for (const Vec3& v : mIn.vertices[std::size_t(b)]) {
            float best = 3.4e38f;
            for (std::int32_t e : body.ends)
                best = std::min(best, distanceToSegment(v, pos(body.origin), pos(e)));
            d.push_back(best);
        }
    if (d.empty())
        return fallback;
    return std::clamp(quantile(d, 0.75f), 0.3f * fallback, 4.f * fallback);
}

void GenericBuilder::makeBody(Body& body, const std::string& name, bool framedAncestor)
{
    body.far = body.ends.front();
    for (std::int32_t e : body.ends)
        if (length(pos(e) - pos(body.origin)) > length(pos(body.far) - pos(body.origin)))
            body.far = e;
    const float reach = length(pos(body.far) - pos(body.origin));
    body.radius = fitBody(body, 0.15f * reach);

    // A branch: the largest triangle of its joints (not in one line).
    std::vector<std::int32_t> points{body.origin};
    points.insert(points.end(), body.ends.begin(), body.ends.end());
    std::int32_t best[3] = {-1, -1, -1};
    float bestArea = 0.f;
    for (std::size_t i = 0; i < points.size() && points.size() >= 3; ++i)
        for (std::size_t j = i + 1; j < points.size(); ++j)
            for (std::size_t k = j + 1; k < points.size(); ++k) {
                const Vec3 e1 = pos(points[j]) - pos(points[i]), e2 = pos(points[k]) - pos(points[i]);
                const float area = length(cross(e1, e2));
                if (area > 0.1f * std::max(lengthSquared(e1), lengthSquared(e2)) && area > bestArea) {
                    bestArea = area;
                    best[0] = points[i];
                    best[1] = points[j];
                    best[2] = points[k];
                }
            }
    if (best[0] < 0) {
        // A segment: the bone stick drives the bone. It needs a frame of its own (a helper particle
        // off the bone) only when no ancestor has one to carry the twist from.
        body.stick = link(name, body.origin, body.far, body.radius);
        if (framedAncestor)
            return;
        const Vec3 dir = normalizeOr(pos(body.far) - pos(body.origin), {0, 1, 0});
        Vec3 axis{0, 1, 0};
        for (Vec3 a : {Vec3{0, 1, 0}, Vec3{0, 0, 1}, Vec3{1, 0, 0}})
            if (std::fabs(dot(a, dir)) < 0.9f) {
                axis = a;
                break;
            }
        const Vec3 perp = normalizeOr(axis - dir * dot(axis, dir), anyPerpendicular(dir));
        body.helper = addParticle(joined(name, "", "_axis"), pos(body.origin) + perp * (0.3f * reach), rig::kNone);
        best[0] = body.origin;
        best[1] = body.far;
        best[2] = body.helper;
        points.push_back(body.helper);
    }
    mD.triangles.push_back(makeTriangle(name, best[0], best[1], best[2]));
    body.triangle = std::int32_t(mD.triangles.size() - 1);
    // Bones as capsules from the joint to each end; the rest held rigid to the triangle.
    for (std::int32_t e : body.ends)
        link(body.ends.size() > 1 ? joined(name, "_", mD.particles[std::size_t(e)].name) : name, body.origin, e,
             body.radius);
    for (int k = 0; k < 3; ++k)
        link(joined(name, "_edge", std::to_string(k)), best[k], best[(k + 1) % 3]);
    for (std::int32_t q : points)
        if (q != best[0] && q != best[1] && q != best[2])
            for (int k = 0; k < 3; ++k)
                link(joined(joined(name, "_brace_", mD.particles[std::size_t(q)].name), "_", std::to_string(k)), q,
                     best[k]);
}

/// Law-of-cosines range at the body's joint between the parent side and the body's far end: the bend may
/// change by kBend either way from the bind pose (a cone about the bind direction, without twist).
void GenericBuilder::limitBend(const Body& body, const std::string& name)
{
    const Body& parent = mBodies[std::size_t(body.parent)];
    const std::int32_t o = body.origin;
    std::int32_t back = -1; // the parent's point furthest from the joint
    std::vector<std::int32_t> candidates{parent.origin};
    candidates.insert(candidates.end(), parent.ends.begin(), parent.ends.end());
    for (std::int32_t c : candidates)
        if (c != o && c != body.far && (back < 0 || length(pos(c) - pos(o)) > length(pos(back) - pos(o))))
            back = c;
    if (back < 0)
        return;
    const Vec3 a = pos(back) - pos(o), b = pos(body.far) - pos(o);
    const float la = length(a), lb = length(b);
    if (!(la > 1e-6f) || !(lb > 1e-6f))
        return;
    const float bind = std::acos(std::clamp(dot(a, b) / (la * lb), -1.f, 1.f));
    // Inside a run of segments the joint takes its share of the run's curl, by the links' lengths.
    float bend = kBend;
    if (const std::int32_t run = mRun[std::size_t(&body - mBodies.data())]; run >= 0 && mRun[std::size_t(body.parent)] == run)
        bend = std::min(kBend, kChainCurl * 0.5f * (reachOf(parent) + reachOf(body)) / mRunLength[std::size_t(run)]);
    rig::AngleConstraint c;
    c.name = joined(name, "", "_bend");
    c.center = o;
    c.a = back;
    c.b = body.far;
    c.minAngle = std::max(0.f, bind - bend);
    c.maxAngle = std::min(kPi, bind + bend);
    c.form = rig::AngleConstraint::Form::LawOfCosines;
    // Bend damping measures the bend's speed against the parent arm's turn; a parent arm much shorter than
    // the body's (a stub of a root inside the body's capsule) turns fast with small jitter, and damping
    // against it pushes the long arm around: such a bend is limited but not damped.
    c.damping = la < kShortArm * lb ? 0.f : runtime::kChainJointDamping;
    mD.angles.push_back(c);
}

/// Whether a twist limit between two triangles can hold without fighting contacts: neither frame much
/// smaller than the other (longest edges within kShortArm). A small frame (a hand made of finger tips
/// beside a trunk) turns by degrees when its particles move by millimetres on the ground; a twist limit
/// against a large one then corrects contact jitter forever. Such a pair keeps a cone.
bool GenericBuilder::twistMeasurable(std::int32_t triangleA, std::int32_t triangleB) const
{
    auto size = [&](std::int32_t t) {
        const rig::Triangle& tri = mD.triangles[std::size_t(t)];
        float longest = 0.f;
        for (int k = 0; k < 3; ++k)
            longest = std::max(longest, length(pos(tri.p[(k + 1) % 3]) - pos(tri.p[k])));
        return longest;
    };
    const float a = size(triangleA), b = size(triangleB);
    return std::min(a, b) >= kShortArm * std::max(a, b);
}

bool GenericBuilder::run(std::string* error)
{
    const std::size_t n = mD.bones.size();
    std::vector<float> lengths;
    for (std::size_t i = 0; i < n; ++i)
        if (const std::int32_t p = mTree.parent(std::int32_t(i)); p != rig::kNone) {
            const float l = length(mTree.joint(std::int32_t(i)) - mTree.joint(p));
            if (l > 1e-6f)
                lengths.push_back(l);
        }
    float scale = quantile(lengths, 0.5f);
    if (!(scale > 0.f)) { // no bone has length: the vertices give the size
        std::vector<float> d;
        for (std::size_t i = 0; i < n; ++i)
            for (const Vec3& v : mIn.vertices[i])
                d.push_back(length(v - mTree.joint(std::int32_t(i))));
        scale = quantile(d, 0.9f);
    }
    if (!(scale > 1e-6f)) {
        *error = "generic template: no bone has a length and no skinned vertices give the skeleton a size";
        return false;
    }
    const float mergeDistance = 0.2f * scale, coincident = 0.02f * scale;

    // Joint particles, parents first; a joint near its parent's particle is merged into it.
    std::vector<std::int32_t> particleOf(n, -1);
    std::vector<std::int32_t> merged;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int32_t b = std::int32_t(i), p = mTree.parent(b);
        const Vec3 j = mTree.joint(b);
        if (p != rig::kNone && length(j - pos(particleOf[std::size_t(p)])) < mergeDistance) {
            particleOf[i] = particleOf[std::size_t(p)];
            merged.push_back(b);
            continue;
        }
        for (std::size_t q = 0; q < mD.particles.size() && particleOf[i] < 0; ++q)
            if (length(mD.particles[q].position - j) < coincident)
                particleOf[i] = std::int32_t(q);
        if (particleOf[i] < 0)
            particleOf[i] = addParticle(mD.bones[i].name, j, b);
    }

    // Each bone's distinct child joints (through merged children); a leaf reaches as far as its vertices.
    std::vector<std::vector<std::int32_t>> ends(n);
    for (std::size_t r = n; r-- > 0;) {
        const std::int32_t b = std::int32_t(r);
        std::set<std::int32_t> e;
        for (std::int32_t c : mTree.children(b)) {
            if (particleOf[std::size_t(c)] != particleOf[r])
                e.insert(particleOf[std::size_t(c)]);
            else
                e.insert(ends[std::size_t(c)].begin(), ends[std::size_t(c)].end());
        }
        if (e.empty() && !mIn.vertices[r].empty()) {
            std::int32_t a = mTree.parent(b);
            while (a != rig::kNone && particleOf[std::size_t(a)] == particleOf[r])
                a = mTree.parent(a);
            const Mat4& m = mD.bones[r].bindWorld;
            const Vec3 localY = normalizeOr(Vec3{m.m[4], m.m[5], m.m[6]}, {0, 1, 0});
            // Along the bone from the previous joint; a root reaches toward its vertices' centroid.
            Vec3 centroid;
            for (const Vec3& v : mIn.vertices[r])
                centroid += v / float(mIn.vertices[r].size());
            const Vec3 toCentroid = centroid - pos(particleOf[r]);
            const Vec3 boneDir = a != rig::kNone ? normalizeOr(pos(particleOf[r]) - pos(particleOf[std::size_t(a)]), localY)
                                 : length(toCentroid) > 0.5f * mergeDistance ? normalizeOr(toCentroid, localY)
                                                                             : localY;
            auto reach = [&](Vec3 dir) {
                std::vector<float> along;
                for (const Vec3& v : mIn.vertices[r])
                    along.push_back(dot(v - pos(particleOf[r]), dir));
                return quantile(along, 0.9f);
            };
            // Along the bone; when its vertices do not reach on that way, toward their centroid: a limb
            // hanging off a flat hierarchy (every limb a child of one root, as in Half-Life's models) starts
            // at the hip or the shoulder, and its skin runs from there down the leg, not on from the root.
            Vec3 dir = boneDir;
            float extent = reach(boneDir);
            const bool besideSiblings = mTree.parent(b) != rig::kNone && mTree.children(mTree.parent(b)).size() >= 2;
            if (const Vec3 c = normalizeOr(toCentroid, boneDir); besideSiblings && extent <= mergeDistance &&
                                                                 length(toCentroid) > 0.5f * mergeDistance && reach(c) > mergeDistance) {
                dir = c;
                extent = reach(c);
            }
            if (extent > mergeDistance)
                e.insert(addParticle(joined(mD.bones[r].name, "", "_end"), pos(particleOf[r]) + dir * extent, rig::kNone));
        }
        ends[r].assign(e.begin(), e.end());
    }

    // Bodies: bones with the same joint and the same ends share one.
    std::map<std::pair<std::int32_t, std::vector<std::int32_t>>, std::size_t> bodyIndex;
    std::vector<std::int32_t> bodyOf(n, -1);
    std::vector<std::int32_t> following;
    for (std::size_t i = 0; i < n; ++i) {
        if (ends[i].empty()) {
            following.push_back(std::int32_t(i));
            continue;
        }
        const auto key = std::make_pair(particleOf[i], ends[i]);
        auto it = bodyIndex.find(key);
        if (it == bodyIndex.end()) {
            Body body;
            body.origin = particleOf[i];
            body.ends = ends[i];
            for (std::int32_t a = mTree.parent(std::int32_t(i)); a != rig::kNone && body.parent < 0; a = mTree.parent(a))
                body.parent = bodyOf[std::size_t(a)];
            it = bodyIndex.emplace(key, mBodies.size()).first;
            mBodies.push_back(std::move(body));
        }
        mBodies[it->second].bones.push_back(std::int32_t(i));
        bodyOf[i] = std::int32_t(it->second);
    }
    if (mBodies.empty()) {
        *error = "generic template: no bone has a length and no skinned vertices give one a size";
        return false;
    }
    // Each body's child bodies, counted once: the stubs below and the runs of segments use them.
    std::vector<int> childBodies(mBodies.size(), 0);
    std::vector<std::int32_t> lastChild(mBodies.size(), -1);
    for (std::size_t c = 0; c < mBodies.size(); ++c)
        if (const std::int32_t p = mBodies[c].parent; p >= 0) {
            ++childBodies[std::size_t(p)];
            lastChild[std::size_t(p)] = std::int32_t(c);
        }
    // A stub: a root segment much shorter than its only child body (a root bone inside the body it carries,
    // as exporters often add). A frame on it would be tiny and would turn the whole rig's twist; the child
    // carries the frame instead.
    std::vector<char> stub(mBodies.size(), 0);
    for (std::size_t k = 0; k < mBodies.size(); ++k)
        stub[k] = mBodies[k].parent < 0 && mBodies[k].ends.size() == 1 && childBodies[k] == 1 &&
                  reachOf(mBodies[k]) < kShortArm * reachOf(mBodies[std::size_t(lastChild[k])]);
    std::vector<char> framed(mBodies.size(), 0); // the body or an ancestor body has a triangle
    for (std::size_t k = 0; k < mBodies.size(); ++k) {
        Body& body = mBodies[k];
        const bool ancestorFramed = body.parent >= 0 && framed[std::size_t(body.parent)];
        makeBody(body, mD.bones[std::size_t(body.bones.front())].name, ancestorFramed || stub[k]);
        framed[k] = ancestorFramed || body.triangle >= 0;
    }

    // Runs of segments: a segment whose parent is a segment with no other child body continues its run.
    mRun.assign(mBodies.size(), -1);
    for (std::size_t k = 0; k < mBodies.size(); ++k) {
        const Body& body = mBodies[k];
        if (body.stick < 0)
            continue;
        const bool continues = body.parent >= 0 && mBodies[std::size_t(body.parent)].stick >= 0 &&
                               childBodies[std::size_t(body.parent)] == 1;
        if (continues) {
            mRun[k] = mRun[std::size_t(body.parent)];
        } else {
            mRun[k] = std::int32_t(mRunLength.size());
            mRunLength.push_back(0.f);
        }
        mRunLength[std::size_t(mRun[k])] += reachOf(body);
    }

    // Limits: a bend range at each joint; a swing/twist limit between each triangle and its nearest triangle
    // ancestor, wider by kBend and kTwist for every stick-driven segment between them (a segment has no
    // frame: its twist is carried from its parent, and the two frames' limit bounds the run's).
    for (std::size_t k = 0; k < mBodies.size(); ++k) {
        const Body& body = mBodies[k];
        const std::string& name = mD.bones[std::size_t(body.bones.front())].name;
        if (body.parent < 0)
            continue;
        const Body& parent = mBodies[std::size_t(body.parent)];
        if (body.triangle < 0 || parent.triangle < 0)
            limitBend(body, name);
        if (body.triangle < 0)
            continue;
        int between = 0;
        std::int32_t t = body.parent;
        while (t >= 0 && mBodies[std::size_t(t)].triangle < 0) {
            ++between;
            t = mBodies[std::size_t(t)].parent;
        }
        if (t < 0)
            continue;
        const std::int32_t parentTriangle = mBodies[std::size_t(t)].triangle;
        const float swing = std::min(kMaxCone, kBend * float(1 + between));
        const rig::Triangle& tri = mD.triangles[std::size_t(body.triangle)];
        const Vec3 axis = pos(body.far) - pos(body.origin);
        Mat3 frame;
        if (swing <= kMaxTwistSwing + 1e-4f && twistMeasurable(parentTriangle, body.triangle) &&
            runtime::Rig::triangleFrame(pos(tri.p[0]), pos(tri.p[1]), pos(tri.p[2]), frame) && length(axis) > 1e-6f) {
            // Swing within the cone about the body's axis; twist about it within kTwist per joint between
            // the two frames (the segments between carry theirs). The first swing axis is the triangle's
            // normal.
            const Vec3 normal = cross(pos(tri.p[1]) - pos(tri.p[0]), pos(tri.p[2]) - pos(tri.p[0]));
            const float twist = kTwist * float(1 + between);
            mD.angular.push_back(makeSwingTwist(name, parentTriangle, body.triangle, frame, axis, normal, {0, 1, 0},
                                                -twist, twist, swing, swing));
            continue;
        }
        rig::AngularConstraint c;
        c.name = name;
        c.triangleA = parentTriangle;
        c.triangleB = body.triangle;
        c.limit = rig::AngularLimit::Cone;
        c.coneAngle = swing;
        c.damping = runtime::kHumanoidJointDamping;
        c.staticFrictionSpeed = runtime::kHumanoidJointStaticFriction;
        mD.angular.push_back(c);
    }

    // Masses: each body's volume spread over its particles (a helper takes 15 %), no particle below a tenth
    // of the heaviest (PHYSICS.md: mass ratios within 1:10), then scaled to the total. Radii: the largest
    // body touching the particle.
    for (Body& body : mBodies) {
        for (std::int32_t e : body.ends)
            body.volume += kPi * body.radius * body.radius * length(pos(e) - pos(body.origin)) +
                           4.f / 3.f * kPi * body.radius * body.radius * body.radius / float(body.ends.size());
        std::vector<std::int32_t> pts{body.origin};
        pts.insert(pts.end(), body.ends.begin(), body.ends.end());
        const float share = body.helper >= 0 ? 0.85f : 1.f;
        for (std::int32_t p : pts) {
            rig::Particle& q = mD.particles[std::size_t(p)];
            q.mass += share * body.volume / float(pts.size());
            q.radius = std::max(q.radius, body.radius);
        }
        if (body.helper >= 0) {
            mD.particles[std::size_t(body.helper)].mass += 0.15f * body.volume;
            // The helper is a contact sphere too, so a segment lying on the ground rests on three points and
            // cannot roll about its own axis with its frame swinging through the floor: as large as fits in
            // the body's capsule at its distance from the axis, and no smaller than a quarter of the capsule
            // (a thin segment's helper then stands out of it, a small foot).
            const float offset = length(pos(body.helper) - pos(body.origin));
            mD.particles[std::size_t(body.helper)].radius = std::max(body.radius - offset, 0.f);
        }
    }
    float heaviest = 0.f;
    for (const rig::Particle& p : mD.particles)
        heaviest = std::max(heaviest, p.mass);
    for (rig::Particle& p : mD.particles)
        p.mass = std::max(p.mass, heaviest / 10.f);
    normaliseMasses(mD, mIn.totalMass);

    for (std::size_t i = 0; i < n; ++i) {
        if (bodyOf[i] < 0)
            continue;
        const Body& body = mBodies[std::size_t(bodyOf[i])];
        mD.bindings.push_back(body.triangle >= 0
                                  ? makeBinding(mD, std::int32_t(i), rig::BoneBinding::Driver::Triangle, body.triangle)
                                  : makeBinding(mD, std::int32_t(i), rig::BoneBinding::Driver::Stick, body.stick));
    }
    if (!merged.empty()) {
        std::string note = "joints within ";
        note.append(std::to_string(mergeDistance)).append(" m of their parent's are merged into it: ");
        mNotes.push_back(note.append(listBones(mD.bones, merged)));
    }
    if (!following.empty()) {
        std::string note = "bones without length follow their parent: ";
        mNotes.push_back(note.append(listBones(mD.bones, following)));
    }
    mD.settings.selfCollision = true;
    resolveBindOverlaps(mD, mNotes);
    return true;
}

} // namespace

bool buildGeneric(const TemplateInput& in, rig::RigDescription& out, std::vector<std::string>& notes,
                  std::string* error)
{
    return GenericBuilder(in, out, notes).run(error);
}

} // namespace marionette::editor::autorig
