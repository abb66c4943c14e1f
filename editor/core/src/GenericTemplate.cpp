// The generic template: any skeleton (animals, props, tails). Joints become particles (near-coincident ones
// merged), each bone with length becomes a body with a triangle (a branch's joints, or a chain segment with a
// helper particle), bodies are joined by cone limits, masses follow the bones' volumes.
#include "Templates.h"

#include "AutoRigSupport.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

namespace marionette::editor::autorig {

namespace {

constexpr float kCone = radians(45.f);

struct Body {
    std::int32_t origin = 0;          ///< particle of the first bone's joint
    std::vector<std::int32_t> ends;   ///< child joint particles (or a tail)
    std::int32_t triangle = -1;
    std::int32_t helper = -1;         ///< helper particle of a chain segment, or -1
    std::vector<std::int32_t> bones;  ///< bones driven by this body
    float radius = 0.f;
    float volume = 0.f;
};

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
    void makeBody(Body& body, const std::string& name, float scale);
    float fitBody(const Body& body, float fallback);

    const TemplateInput& mIn;
    rig::RigDescription& mD;
    std::vector<std::string>& mNotes;
    SkeletonTree mTree;
    std::map<std::pair<std::int32_t, std::int32_t>, std::int32_t> mLinks;
    std::vector<Body> mBodies;
};

float GenericBuilder::fitBody(const Body& body, float fallback)
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
    return std::clamp(quantile(d, 0.75f), 0.3f * fallback, 6.5f * fallback);
}

void GenericBuilder::makeBody(Body& body, const std::string& name, float scale)
{
    std::vector<std::int32_t> points{body.origin};
    points.insert(points.end(), body.ends.begin(), body.ends.end());
    float reach = 0.f;
    for (std::int32_t e : body.ends)
        reach = std::max(reach, length(pos(e) - pos(body.origin)));
    body.radius = fitBody(body, 0.15f * std::max(reach, 0.05f * scale));

    // The largest triangle of the body's joints; a chain segment (or joints in one line) gets a helper.
    std::int32_t best[3] = {-1, -1, -1};
    float bestArea = 0.f;
    for (std::size_t i = 0; i < points.size() && points.size() >= 3; ++i)
        for (std::size_t j = i + 1; j < points.size(); ++j)
            for (std::size_t k = j + 1; k < points.size(); ++k) {
                const Vec3 e1 = pos(points[j]) - pos(points[i]), e2 = pos(points[k]) - pos(points[i]);
                const float area = length(cross(e1, e2));
                if (area > 0.05f * std::max(lengthSquared(e1), lengthSquared(e2)) && area > bestArea) {
                    bestArea = area;
                    best[0] = points[i];
                    best[1] = points[j];
                    best[2] = points[k];
                }
            }
    if (best[0] < 0) {
        std::int32_t far = body.ends.front();
        for (std::int32_t e : body.ends)
            if (length(pos(e) - pos(body.origin)) > length(pos(far) - pos(body.origin)))
                far = e;
        const Vec3 dir = normalizeOr(pos(far) - pos(body.origin), {0, 1, 0});
        Vec3 axis{0, 1, 0};
        for (Vec3 a : {Vec3{0, 1, 0}, Vec3{0, 0, 1}, Vec3{1, 0, 0}})
            if (std::fabs(dot(a, dir)) < 0.9f) {
                axis = a;
                break;
            }
        const Vec3 perp = normalizeOr(axis - dir * dot(axis, dir), anyPerpendicular(dir));
        const float segment = length(pos(far) - pos(body.origin));
        std::string helperName = name;
        helperName.append("_axis");
        body.helper = addParticle(helperName, pos(body.origin) + perp * (0.25f * segment), rig::kNone);
        best[0] = body.origin;
        best[1] = far;
        best[2] = body.helper;
        points.push_back(body.helper);
    }
    mD.triangles.push_back(makeTriangle(name, best[0], best[1], best[2]));
    body.triangle = std::int32_t(mD.triangles.size() - 1);

    // Bones as capsules from the joint to each end; the rest of the body held rigid to its triangle.
    for (std::int32_t e : body.ends) {
        std::string n = name;
        if (body.ends.size() > 1)
            n.append("_").append(mD.particles[std::size_t(e)].name);
        link(std::move(n), body.origin, e, body.radius);
        body.volume += kPi * body.radius * body.radius * length(pos(e) - pos(body.origin)) +
                       4.f / 3.f * kPi * body.radius * body.radius * body.radius / float(body.ends.size());
    }
    for (int k = 0; k < 3; ++k) {
        std::string n = name;
        n.append("_edge").append(std::to_string(k));
        link(std::move(n), best[k], best[(k + 1) % 3]);
    }
    for (std::int32_t q : points)
        if (q != best[0] && q != best[1] && q != best[2])
            for (int k = 0; k < 3; ++k) {
                std::string n = name;
                n.append("_brace_").append(mD.particles[std::size_t(q)].name).append("_").append(std::to_string(k));
                link(std::move(n), q, best[k]);
            }
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
            const Vec3 dir = a != rig::kNone ? normalizeOr(pos(particleOf[r]) - pos(particleOf[std::size_t(a)]), localY)
                             : length(toCentroid) > 0.5f * mergeDistance ? normalizeOr(toCentroid, localY)
                                                                         : localY;
            std::vector<float> along;
            for (const Vec3& v : mIn.vertices[r])
                along.push_back(dot(v - pos(particleOf[r]), dir));
            const float extent = quantile(along, 0.9f);
            if (extent > mergeDistance) {
                std::string name = mD.bones[r].name;
                name.append("_end");
                e.insert(addParticle(std::move(name), pos(particleOf[r]) + dir * extent, rig::kNone));
            }
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
    for (Body& body : mBodies)
        makeBody(body, mD.bones[std::size_t(body.bones.front())].name, scale);

    // Cone limits between each body and the body of its nearest driven ancestor.
    std::set<std::pair<std::int32_t, std::int32_t>> joined;
    for (std::size_t k = 0; k < mBodies.size(); ++k) {
        std::int32_t a = mTree.parent(mBodies[k].bones.front());
        while (a != rig::kNone && (bodyOf[std::size_t(a)] < 0 || bodyOf[std::size_t(a)] == std::int32_t(k)))
            a = mTree.parent(a);
        if (a == rig::kNone || !joined.insert({bodyOf[std::size_t(a)], std::int32_t(k)}).second)
            continue;
        rig::AngularConstraint c;
        c.name = mD.bones[std::size_t(mBodies[k].bones.front())].name;
        c.triangleA = mBodies[std::size_t(bodyOf[std::size_t(a)])].triangle;
        c.triangleB = mBodies[k].triangle;
        c.limit = rig::AngularLimit::Cone;
        c.coneAngle = kCone;
        c.dynamicFriction = 0.02f;
        c.staticFrictionAngle = radians(0.1f);
        mD.angular.push_back(c);
    }

    // Masses: each body's volume spread over its particles (a helper takes 15 %), no particle below 1/20 of
    // the heaviest (stability: PHYSICS.md), then scaled to the total. Radii: the largest body touching it.
    for (const Body& body : mBodies) {
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
            mD.particles[std::size_t(body.helper)].radius = 0.3f * body.radius;
        }
    }
    float heaviest = 0.f;
    for (const rig::Particle& p : mD.particles)
        heaviest = std::max(heaviest, p.mass);
    for (rig::Particle& p : mD.particles)
        p.mass = std::max(p.mass, heaviest / 20.f);
    normaliseMasses(mD, mIn.totalMass);

    for (std::size_t i = 0; i < n; ++i)
        if (bodyOf[i] >= 0)
            mD.bindings.push_back(makeBinding(mD, std::int32_t(i), rig::BoneBinding::Driver::Triangle,
                                              mBodies[std::size_t(bodyOf[i])].triangle));
    if (!merged.empty())
        mNotes.push_back("joints within " + std::to_string(mergeDistance) +
                         " m of their parent's are merged into it: " + listBones(mD.bones, merged));
    if (!following.empty())
        mNotes.push_back("bones without length follow their parent: " + listBones(mD.bones, following));
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
