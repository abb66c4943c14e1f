// Levels of detail: which particles a level keeps (the chain merges) and how the rig is rebuilt on them.
#include "marionette/editor/autorig/Lod.h"

#include "marionette/rig/Validation.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <queue>
#include <set>
#include <utility>

namespace marionette::editor {

namespace {

using rig::RigDescription;

/// The tree of rigid sticks over the particles still alive, grown breadth-first from `root`: each reached
/// particle's parent is its nearest neighbour one level closer to the root.
struct ChainTree {
    std::vector<std::vector<std::int32_t>> neighbours;
    std::vector<std::int32_t> parent, children;
    std::vector<int> depth;
};

ChainTree growTree(const RigDescription& full, const std::vector<std::int32_t>& into, std::int32_t root)
{
    const std::size_t n = full.particles.size();
    ChainTree t;
    t.neighbours.resize(n);
    for (const rig::Stick& s : full.sticks) {
        if (s.kind != rig::StickKind::Rigid)
            continue;
        const std::int32_t a = into[std::size_t(s.a)], b = into[std::size_t(s.b)];
        if (a == b)
            continue;
        t.neighbours[std::size_t(a)].push_back(b);
        t.neighbours[std::size_t(b)].push_back(a);
    }
    t.depth.assign(n, -1);
    t.parent.assign(n, rig::kNone);
    t.children.assign(n, 0);
    std::queue<std::int32_t> queue;
    t.depth[std::size_t(root)] = 0;
    queue.push(root);
    while (!queue.empty()) {
        const std::int32_t p = queue.front();
        queue.pop();
        for (const std::int32_t q : t.neighbours[std::size_t(p)])
            if (t.depth[std::size_t(q)] < 0) {
                t.depth[std::size_t(q)] = t.depth[std::size_t(p)] + 1;
                queue.push(q);
            }
    }
    for (std::size_t p = 0; p < n; ++p) {
        if (t.depth[p] <= 0)
            continue;
        float best = INFINITY;
        for (const std::int32_t q : t.neighbours[p]) {
            if (t.depth[std::size_t(q)] != t.depth[p] - 1)
                continue;
            const float d = length(full.particles[p].position - full.particles[std::size_t(q)].position);
            if (d < best || (d == best && q < t.parent[p])) {
                best = d;
                t.parent[p] = q;
            }
        }
        ++t.children[std::size_t(t.parent[p])];
    }
    return t;
}

/// The widest deviation an angular constraint allows from its rest orientation, radians.
float jointRange(const rig::AngularConstraint& c)
{
    if (c.limit == rig::AngularLimit::Cone)
        return c.coneAngle;
    return std::max({c.swing1, c.swing2, std::abs(c.twistMin), std::abs(c.twistMax)});
}

float angleAt(Vec3 center, Vec3 a, Vec3 b)
{
    const Vec3 u = a - center, v = b - center;
    const float lu = length(u), lv = length(v);
    if (lu <= 0.f || lv <= 0.f)
        return 0.f;
    return std::acos(std::clamp(dot(u, v) / (lu * lv), -1.f, 1.f));
}

/// Chooses the particles to merge away: `into[i]` is the particle i was merged into (i when kept), `mass[i]`
/// what a kept particle carries. Returns an error line, or an empty string.
std::string chooseMerges(const RigDescription& full, int target, std::vector<std::int32_t>& into,
                         std::vector<double>& mass)
{
    const std::size_t n = full.particles.size();
    into.resize(n);
    std::iota(into.begin(), into.end(), 0);
    mass.resize(n);
    std::int32_t root = 0;
    for (std::size_t i = 0; i < n; ++i) {
        mass[i] = double(full.particles[i].mass);
        if (full.particles[i].mass > full.particles[std::size_t(root)].mass)
            root = std::int32_t(i);
    }
    std::vector<bool> pinned(n, false);
    for (const rig::Pin& pin : full.pins)
        pinned[std::size_t(pin.particle)] = true;
    // Mirror twins: another particle of the same mass and radius (within 0.1 %) as far from the root (within
    // 1 %). A particle with a twin goes only in the same round as it, so a symmetric rig stays symmetric.
    std::vector<std::int32_t> twin(n, rig::kNone);
    const Vec3 rootAt = full.particles[std::size_t(root)].position;
    const auto close = [](float a, float b, float tolerance) { return std::abs(a - b) <= tolerance * std::max(std::abs(a), std::abs(b)); };
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n && twin[i] < 0; ++j) {
            const rig::Particle &a = full.particles[i], &b = full.particles[j];
            if (i != j && twin[j] < 0 && length(a.position - b.position) > 0.f && close(a.mass, b.mass, 1e-3f) &&
                close(a.radius, b.radius, 1e-3f) &&
                close(length(a.position - rootAt), length(b.position - rootAt), 1e-2f)) {
                twin[i] = std::int32_t(j);
                twin[j] = std::int32_t(i);
            }
        }
    // A pass merges each particle at most once: a particle that took another's mass, or hung from one merged
    // away, waits for the next pass, so a chain loses every other joint before any two in a row.
    std::vector<bool> waits(n, false);
    int count = int(n);
    while (count > target) {
        const ChainTree tree = growTree(full, into, root);
        std::vector<std::pair<double, std::int32_t>> candidates;
        bool waiting = false;
        for (std::size_t p = 0; p < n; ++p) {
            if (into[p] != std::int32_t(p) || tree.depth[p] <= 0 || tree.children[p] > 1 || pinned[p])
                continue;
            if (waits[p]) {
                waiting = true;
                continue;
            }
            const std::int32_t up = tree.parent[p];
            if (mass[p] <= 0.0 || mass[std::size_t(up)] <= 0.0)
                continue;
            const float d = length(full.particles[p].position - full.particles[std::size_t(up)].position);
            // Each body frame (triangle) the merge would flatten counts again: frames go last.
            int frames = 0;
            for (const rig::Triangle& t : full.triangles) {
                const std::int32_t c[3] = {into[std::size_t(t.p[0])], into[std::size_t(t.p[1])], into[std::size_t(t.p[2])]};
                const bool alive = c[0] != c[1] && c[1] != c[2] && c[0] != c[2];
                const bool hasP = std::find(c, c + 3, std::int32_t(p)) != c + 3, hasUp = std::find(c, c + 3, up) != c + 3;
                frames += alive && hasP && hasUp ? 1 : 0;
            }
            candidates.emplace_back(mass[p] * double(d) * double(1 + frames), std::int32_t(p));
        }
        if (candidates.empty() && waiting) { // the pass is over
            std::fill(waits.begin(), waits.end(), false);
            continue;
        }
        if (candidates.empty())
            return "cannot reduce '" + full.name + "' below " + std::to_string(count) +
                   " particles: no other particle ends or continues a chain of rigid sticks";
        std::sort(candidates.begin(), candidates.end());
        // Clusters of equal cost (within 1 %): the first whose particles, neighbours left out, fit the count.
        std::vector<std::int32_t> chosen;
        for (std::size_t first = 0; first < candidates.size() && chosen.empty();) {
            std::size_t last = first;
            while (last < candidates.size() && candidates[last].first <= candidates[first].first * 1.01 + 1e-12)
                ++last;
            std::vector<std::int32_t> cluster;
            for (std::size_t k = first; k < last; ++k) {
                const std::int32_t p = candidates[k].second;
                const auto& near = tree.neighbours[std::size_t(p)];
                if (std::none_of(cluster.begin(), cluster.end(), [&](std::int32_t q) {
                        return std::find(near.begin(), near.end(), q) != near.end();
                    }))
                    cluster.push_back(p);
            }
            // A particle whose twin is still there goes only with it.
            const auto alone = [&](std::int32_t p) {
                const std::int32_t t = twin[std::size_t(p)];
                return t >= 0 && into[std::size_t(t)] == t &&
                       std::find(cluster.begin(), cluster.end(), t) == cluster.end();
            };
            cluster.erase(std::remove_if(cluster.begin(), cluster.end(), alone), cluster.end());
            if (!cluster.empty() && count - int(cluster.size()) >= target)
                chosen = cluster;
            first = last;
        }
        if (chosen.empty() && waiting) { // nothing fits this pass: the next one may
            std::fill(waits.begin(), waits.end(), false);
            continue;
        }
        if (chosen.empty()) { // the cheapest without a twin, else the cheapest
            const auto single = std::find_if(candidates.begin(), candidates.end(), [&](const auto& c) {
                const std::int32_t t = twin[std::size_t(c.second)];
                return t < 0 || into[std::size_t(t)] != t;
            });
            chosen.push_back(single != candidates.end() ? single->second : candidates.front().second);
        }
        for (const std::int32_t p : chosen) {
            const std::int32_t up = tree.parent[std::size_t(p)];
            waits[std::size_t(up)] = true;
            for (std::size_t q = 0; q < n; ++q)
                if (tree.parent[q] == p)
                    waits[q] = true;
            mass[std::size_t(up)] += mass[std::size_t(p)];
            mass[std::size_t(p)] = 0.0;
            for (std::int32_t& i : into)
                if (i == p)
                    i = up;
            --count;
        }
    }
    return {};
}

} // namespace

std::vector<std::int32_t> boundBones(const rig::RigDescription& rig)
{
    std::vector<std::int32_t> bones;
    for (const rig::BoneBinding& b : rig.bindings)
        bones.push_back(b.bone);
    std::sort(bones.begin(), bones.end());
    bones.erase(std::unique(bones.begin(), bones.end()), bones.end());
    return bones;
}

LodResult generateLod(const rig::RigDescription& full, int targetParticles)
{
    LodResult result;
    const int fullCount = int(full.particles.size());
    if (const std::string problem = full.validate(); !problem.empty()) {
        result.error = "the full rig does not validate: " + problem;
        return result;
    }
    if (full.bindings.empty()) {
        result.error = "the full rig binds no bone: a level of detail needs the bone bindings to carry over";
        return result;
    }
    if (targetParticles < kMinLodParticles || targetParticles >= fullCount) {
        result.error = "a level needs " + std::to_string(kMinLodParticles) + " or more particles and fewer than the full rig's " +
                       std::to_string(fullCount) + ", not " + std::to_string(targetParticles);
        return result;
    }
    std::vector<std::int32_t> into;
    std::vector<double> mass;
    if (std::string error = chooseMerges(full, targetParticles, into, mass); !error.empty()) {
        result.error = std::move(error);
        return result;
    }

    RigDescription& out = result.rig;
    out.name = full.name;
    out.settings = full.settings;
    out.bones = full.bones;
    // ---- particles ----
    std::vector<std::int32_t> newIndex(full.particles.size(), rig::kNone);
    for (std::size_t i = 0; i < full.particles.size(); ++i) {
        if (into[i] != std::int32_t(i))
            continue;
        newIndex[i] = std::int32_t(out.particles.size());
        result.keptParticles.push_back(std::int32_t(i));
        rig::Particle p = full.particles[i];
        p.mass = float(mass[i]);
        out.particles.push_back(p);
    }
    std::vector<std::int32_t>& pm = result.particleMap;
    pm.resize(full.particles.size());
    for (std::size_t i = 0; i < full.particles.size(); ++i)
        pm[i] = newIndex[std::size_t(into[i])];
    const auto moved = [&](std::int32_t i) { return into[std::size_t(i)] != i; };
    const auto at = [&](std::int32_t newParticle) { return out.particles[std::size_t(newParticle)].position; };

    // ---- sticks: untouched ones claim their pair first, relinked rigid ones take what is left ----
    std::vector<std::int32_t> stickMap(full.sticks.size(), rig::kNone);
    {
        std::map<std::pair<std::int32_t, std::int32_t>, std::size_t> owner; // pair -> full stick index
        std::vector<bool> keep(full.sticks.size(), false);
        for (int pass = 0; pass < 2; ++pass)
            for (std::size_t s = 0; s < full.sticks.size(); ++s) {
                const rig::Stick& st = full.sticks[s];
                const bool touched = moved(st.a) || moved(st.b);
                if ((pass == 0) == touched)
                    continue;
                const std::int32_t a = pm[std::size_t(st.a)], b = pm[std::size_t(st.b)];
                if (a == b || (touched && st.kind != rig::StickKind::Rigid))
                    continue;
                const auto key = std::minmax(a, b);
                if (owner.count(key) == 0) {
                    owner[key] = s;
                    keep[s] = true;
                }
            }
        std::vector<std::int32_t> keptIndex(full.sticks.size(), rig::kNone);
        for (std::size_t s = 0; s < full.sticks.size(); ++s) {
            if (!keep[s])
                continue;
            rig::Stick st = full.sticks[s];
            if (moved(st.a) || moved(st.b))
                st.restLength = -1.f;
            st.a = pm[std::size_t(st.a)];
            st.b = pm[std::size_t(st.b)];
            keptIndex[s] = std::int32_t(out.sticks.size());
            out.sticks.push_back(st);
        }
        for (std::size_t s = 0; s < full.sticks.size(); ++s) {
            const rig::Stick& st = full.sticks[s];
            const std::int32_t a = pm[std::size_t(st.a)], b = pm[std::size_t(st.b)];
            if (a == b)
                continue;
            const auto it = owner.find(std::minmax(a, b));
            if (it != owner.end() && (keep[s] || out.sticks[std::size_t(keptIndex[it->second])].kind == rig::StickKind::Rigid))
                stickMap[s] = keptIndex[it->second];
        }
    }
    const auto stickBetween = [&](std::int32_t a, std::int32_t b) -> std::int32_t {
        for (std::size_t s = 0; s < out.sticks.size(); ++s) {
            const rig::Stick& st = out.sticks[s];
            if (st.kind == rig::StickKind::Rigid && ((st.a == a && st.b == b) || (st.a == b && st.b == a)))
                return std::int32_t(s);
        }
        return rig::kNone;
    };

    // ---- triangles ----
    const std::size_t triangleCount = full.triangles.size();
    std::vector<std::int32_t> triMap(triangleCount, rig::kNone); // kept (possibly with moved corners)
    std::vector<bool> triChanged(triangleCount, false);
    for (std::size_t t = 0; t < triangleCount; ++t) {
        const rig::Triangle& tri = full.triangles[t];
        const std::int32_t p[3] = {pm[std::size_t(tri.p[0])], pm[std::size_t(tri.p[1])], pm[std::size_t(tri.p[2])]};
        if (p[0] == p[1] || p[1] == p[2] || p[0] == p[2] || rig::isDegenerateTriangle(at(p[0]), at(p[1]), at(p[2])))
            continue;
        const bool duplicate = std::any_of(out.triangles.begin(), out.triangles.end(), [&](const rig::Triangle& o) {
            return std::is_permutation(o.p, o.p + 3, p);
        });
        if (duplicate)
            continue;
        triChanged[t] = moved(tri.p[0]) || moved(tri.p[1]) || moved(tri.p[2]);
        triMap[t] = std::int32_t(out.triangles.size());
        rig::Triangle kept = tri;
        std::copy(p, p + 3, kept.p);
        out.triangles.push_back(kept);
    }
    // A dropped triangle's corners that remain; the kept triangle holding them (prefer one it was jointed to),
    // else the rigid stick between two of them.
    std::vector<std::set<std::int32_t>> corners(triangleCount);
    std::vector<std::int32_t> triRep(triangleCount, rig::kNone), triStick(triangleCount, rig::kNone);
    for (std::size_t t = 0; t < triangleCount; ++t) {
        for (const std::int32_t c : full.triangles[t].p)
            corners[t].insert(pm[std::size_t(c)]);
        if (triMap[t] >= 0 || corners[t].size() < 2)
            continue;
        const auto holds = [&](std::int32_t k) {
            const rig::Triangle& o = out.triangles[std::size_t(k)];
            return std::all_of(corners[t].begin(), corners[t].end(),
                               [&](std::int32_t c) { return std::find(o.p, o.p + 3, c) != o.p + 3; });
        };
        for (const rig::AngularConstraint& c : full.angular) {
            const std::int32_t other = c.triangleA == std::int32_t(t) ? c.triangleB
                                       : c.triangleB == std::int32_t(t) ? c.triangleA
                                                                          : rig::kNone;
            if (other >= 0 && triMap[std::size_t(other)] >= 0 && holds(triMap[std::size_t(other)])) {
                triRep[t] = triMap[std::size_t(other)];
                break;
            }
        }
        for (std::size_t k = 0; k < out.triangles.size() && triRep[t] < 0; ++k)
            if (holds(std::int32_t(k)))
                triRep[t] = std::int32_t(k);
        if (triRep[t] < 0 && corners[t].size() == 2)
            triStick[t] = stickBetween(*corners[t].begin(), *corners[t].rbegin());
    }
    const auto resolved = [&](std::int32_t t) { return triMap[std::size_t(t)] >= 0 ? triMap[std::size_t(t)] : triRep[std::size_t(t)]; };
    const auto reshaped = [&](std::int32_t t) { return triMap[std::size_t(t)] < 0 || triChanged[std::size_t(t)]; };

    // ---- angular constraints ----
    std::vector<float> merged(out.triangles.size(), 0.f); // range of the joints merged into each kept triangle
    for (const rig::AngularConstraint& c : full.angular) {
        const std::int32_t a = resolved(c.triangleA), b = resolved(c.triangleB);
        if (a >= 0 && a == b)
            merged[std::size_t(a)] += jointRange(c);
    }
    std::map<std::pair<std::int32_t, std::int32_t>, std::size_t> jointOf;
    for (const rig::AngularConstraint& c : full.angular) {
        const std::int32_t a = resolved(c.triangleA), b = resolved(c.triangleB);
        float range = jointRange(c);
        if (a >= 0 && reshaped(c.triangleA))
            range += merged[std::size_t(a)];
        if (b >= 0 && reshaped(c.triangleB))
            range += merged[std::size_t(b)];
        if (a >= 0 && b >= 0) {
            if (a == b)
                continue;
            const auto key = std::minmax(a, b);
            if (const auto it = jointOf.find(key); it != jointOf.end()) { // two joints onto one pair: the wider
                rig::AngularConstraint& o = out.angular[it->second];
                if (o.limit == rig::AngularLimit::Cone)
                    o.coneAngle = std::max(o.coneAngle, std::min(kPi, range));
                continue;
            }
            rig::AngularConstraint k = c;
            k.triangleA = a;
            k.triangleB = b;
            if (reshaped(c.triangleA) || reshaped(c.triangleB)) { // frames changed: axes no longer mean anything
                k.limit = rig::AngularLimit::Cone;
                k.coneAngle = std::min(kPi, range);
                k.hasRestOrientation = false;
            }
            jointOf[key] = out.angular.size();
            out.angular.push_back(k);
            continue;
        }
        // A side became a stick (or nothing): angle limits at the joint the two sides share.
        if (range >= kPi)
            continue;
        const auto sideParticles = [&](std::int32_t original, std::int32_t kept) -> std::vector<std::int32_t> {
            if (kept >= 0)
                return {out.triangles[std::size_t(kept)].p, out.triangles[std::size_t(kept)].p + 3};
            if (triStick[std::size_t(original)] >= 0) {
                const rig::Stick& s = out.sticks[std::size_t(triStick[std::size_t(original)])];
                return {s.a, s.b};
            }
            return {};
        };
        const std::vector<std::int32_t> sa = sideParticles(c.triangleA, a), sb = sideParticles(c.triangleB, b);
        if (sa.empty() || sb.empty())
            continue;
        std::int32_t joint = rig::kNone;
        for (const std::int32_t p : sa)
            if (std::find(sb.begin(), sb.end(), p) != sb.end())
                joint = p;
        if (joint < 0)
            continue;
        const std::vector<std::int32_t>& stickSide = a < 0 ? sa : sb;
        const std::vector<std::int32_t>& frameSide = a < 0 ? sb : sa;
        const std::int32_t end = stickSide[0] == joint ? stickSide[1] : stickSide[0];
        int arm = 0;
        for (const std::int32_t reference : frameSide) {
            if (reference == joint || reference == end)
                continue;
            rig::AngleConstraint l;
            l.name = c.name + (arm++ == 0 ? "_lod_a" : "_lod_b");
            l.center = joint;
            l.a = reference;
            l.b = end;
            const float bind = angleAt(at(joint), at(reference), at(end));
            l.minAngle = std::max(0.f, bind - range);
            l.maxAngle = std::min(kPi, bind + range);
            l.form = rig::AngleConstraint::Form::DotProduct;
            l.stiffness = c.stiffness;
            out.angles.push_back(l);
        }
    }

    // ---- angle constraints, pins, shapes: kept when nothing they name moved ----
    for (const rig::AngleConstraint& l : full.angles)
        if (!moved(l.center) && !moved(l.a) && !moved(l.b)) {
            rig::AngleConstraint k = l;
            k.center = pm[std::size_t(l.center)];
            k.a = pm[std::size_t(l.a)];
            k.b = pm[std::size_t(l.b)];
            out.angles.push_back(k);
        }
    for (const rig::Pin& pin : full.pins) { // pinned particles are never merged away
        rig::Pin k = pin;
        k.particle = pm[std::size_t(pin.particle)];
        out.pins.push_back(k);
    }
    for (const rig::Shape& s : full.shapes) {
        rig::Shape k = s;
        if (s.triangle >= 0) {
            if (triMap[std::size_t(s.triangle)] < 0 || triChanged[std::size_t(s.triangle)])
                continue;
            k.triangle = triMap[std::size_t(s.triangle)];
        } else {
            if (std::any_of(s.tetra, s.tetra + 4, [&](std::int32_t p) { return moved(p); }))
                continue;
            for (std::int32_t& p : k.tetra)
                p = pm[std::size_t(p)];
        }
        out.shapes.push_back(k);
    }

    // ---- bindings ----
    std::vector<bool> found(full.bindings.size(), false);
    out.bindings = full.bindings;
    for (std::size_t i = 0; i < full.bindings.size(); ++i) {
        const rig::BoneBinding& b = full.bindings[i];
        rig::BoneBinding& k = out.bindings[i];
        if (b.driver == rig::BoneBinding::Driver::Triangle) {
            const std::int32_t t = b.index;
            if (triMap[std::size_t(t)] >= 0) {
                k.index = triMap[std::size_t(t)];
                found[i] = true;
                if (triChanged[std::size_t(t)])
                    k.hasOffset = false;
            } else if (triRep[std::size_t(t)] >= 0 || triStick[std::size_t(t)] >= 0) {
                const bool onTriangle = triRep[std::size_t(t)] >= 0;
                k.driver = onTriangle ? rig::BoneBinding::Driver::Triangle : rig::BoneBinding::Driver::Stick;
                k.index = onTriangle ? triRep[std::size_t(t)] : triStick[std::size_t(t)];
                k.hasOffset = false;
                found[i] = true;
            }
        } else if (stickMap[std::size_t(b.index)] >= 0) {
            const rig::Stick& s = full.sticks[std::size_t(b.index)];
            k.index = stickMap[std::size_t(b.index)];
            const rig::Stick& now = out.sticks[std::size_t(k.index)];
            if (moved(s.a) || moved(s.b) || now.a != pm[std::size_t(s.a)]) // relinked or met from the other end
                k.hasOffset = false;
            found[i] = true;
        }
    }
    // The rest ride on the nearest bound bone up their chain (else the first bone bound at all).
    std::vector<std::int32_t> bindingOfBone(full.bones.size(), rig::kNone);
    for (std::size_t i = 0; i < full.bindings.size(); ++i)
        if (found[i] && bindingOfBone[std::size_t(full.bindings[i].bone)] < 0)
            bindingOfBone[std::size_t(full.bindings[i].bone)] = std::int32_t(i);
    std::int32_t fallback = rig::kNone;
    for (std::size_t bone = 0; bone < full.bones.size() && fallback < 0; ++bone)
        fallback = bindingOfBone[bone];
    for (std::size_t i = 0; i < full.bindings.size(); ++i) {
        if (found[i])
            continue;
        std::int32_t source = rig::kNone;
        for (std::int32_t bone = full.bones[std::size_t(full.bindings[i].bone)].parent; bone >= 0 && source < 0;
             bone = full.bones[std::size_t(bone)].parent)
            source = bindingOfBone[std::size_t(bone)];
        if (source < 0)
            source = fallback;
        if (source < 0) {
            result.error = "no driver of '" + full.name + "' survives at " + std::to_string(targetParticles) +
                           " particles to carry bone binding '" + full.bindings[i].name + "'";
            return result;
        }
        out.bindings[i].driver = out.bindings[std::size_t(source)].driver;
        out.bindings[i].index = out.bindings[std::size_t(source)].index;
        out.bindings[i].hasOffset = false;
    }

    // ---- drive profiles: every profile, with the parts whose triangle or stick the level kept ----
    for (const rig::DriveProfile& profile : full.driveProfiles) {
        rig::DriveProfile k = profile;
        k.parts.clear();
        for (const rig::DrivePart& part : profile.parts) {
            const bool triangle = part.kind == rig::DrivePartKind::Triangle;
            const std::vector<std::int32_t>& map = triangle ? triMap : stickMap;
            if (part.index < 0 || std::size_t(part.index) >= map.size() || map[std::size_t(part.index)] < 0)
                continue;
            const std::int32_t index = map[std::size_t(part.index)];
            const bool listed = std::any_of(k.parts.begin(), k.parts.end(), [&](const rig::DrivePart& o) {
                return o.kind == part.kind && o.index == index;
            });
            if (!listed)
                k.parts.push_back({part.kind, index, part.gains});
        }
        out.driveProfiles.push_back(std::move(k));
    }

    if (const std::string problem = out.validate(); !problem.empty()) {
        result.error = "the level of " + std::to_string(targetParticles) +
                       " particles does not validate (a level-generator bug): " + problem;
        return result;
    }
    result.ok = true;
    return result;
}

} // namespace marionette::editor
