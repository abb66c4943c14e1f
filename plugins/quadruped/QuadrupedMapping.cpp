#include "QuadrupedMapping.h"

#include "marionette/editor/autorig/AutoRigSupport.h"
#include "marionette/editor/autorig/BoneNames.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace marionette::plugins {

using editor::autorig::SkeletonTree;

const char* legName(int leg)
{
    static const char* names[4] = {"front_l", "front_r", "hind_l", "hind_r"};
    return leg >= 0 && leg < 4 ? names[leg] : "leg";
}

namespace {

/// Lower case, without a "namespace:" or "Armature|" prefix.
std::string lower(const std::string& s)
{
    std::string o = s.substr(s.find_last_of(":|") == std::string::npos ? 0 : s.find_last_of(":|") + 1);
    for (char& c : o)
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    return o;
}

bool contains(const std::string& lowerName, std::initializer_list<const char*> words)
{
    for (const char* w : words)
        if (lowerName.find(w) != std::string::npos)
            return true;
    return false;
}

/// +1 for a front-leg name, -1 for a hind-leg name, 0 when the name says neither.
int frontVote(const std::string& name)
{
    const std::string n = lower(name);
    if (contains(n, {"front", "fore", "arm", "hand", "shoulder", "humerus", "scapula", "radius", "ulna", "carp", "wrist",
                     "elbow", "clav"}))
        return 1;
    if (contains(n, {"hind", "rear", "back_leg", "backleg", "thigh", "upleg", "femur", "tibia", "hock", "tars", "stifle",
                     "foot", "knee", "calf", "shin"}))
        return -1;
    return 0;
}

std::string joinNames(const std::vector<rig::Bone>& bones, const std::vector<std::int32_t>& list)
{
    return editor::autorig::listBones(bones, list, 6);
}

class Mapper {
public:
    explicit Mapper(const std::vector<rig::Bone>& bones) : mBones(bones), mTree(bones) {}
    QuadrupedMapping run();

private:
    Vec3 joint(std::int32_t b) const { return mTree.joint(b); }
    std::int32_t findNamed(std::initializer_list<const char*> words) const;
    /// Follows the chain from `start` down, at each branch toward `target` (when given) or the child whose
    /// subtree reaches furthest from `from`.
    std::vector<std::int32_t> chainFrom(std::int32_t start, std::int32_t target, Vec3 from) const;
    float reach(std::int32_t b, Vec3 from) const;

    const std::vector<rig::Bone>& mBones;
    SkeletonTree mTree;
};

std::int32_t Mapper::findNamed(std::initializer_list<const char*> words) const
{
    for (std::size_t i = 0; i < mBones.size(); ++i)
        if (contains(lower(mBones[i].name), words))
            return std::int32_t(i);
    return rig::kNone;
}

float Mapper::reach(std::int32_t b, Vec3 from) const
{
    float best = length(joint(b) - from);
    for (std::int32_t c : mTree.children(b))
        best = std::max(best, reach(c, from));
    return best;
}

std::vector<std::int32_t> Mapper::chainFrom(std::int32_t start, std::int32_t target, Vec3 from) const
{
    std::vector<std::int32_t> chain{start};
    std::int32_t b = start;
    while (!mTree.children(b).empty()) {
        std::int32_t next = rig::kNone;
        for (std::int32_t c : mTree.children(b))
            if (target != rig::kNone && mTree.isAncestorOrSelf(c, target))
                next = c;
        if (next == rig::kNone)
            for (std::int32_t c : mTree.children(b))
                if (next == rig::kNone || reach(c, from) > reach(next, from))
                    next = c;
        chain.push_back(next);
        b = next;
    }
    return chain;
}

QuadrupedMapping Mapper::run()
{
    QuadrupedMapping m;
    const std::size_t n = mBones.size();
    float minY = 3.4e38f, maxY = -3.4e38f;
    for (std::size_t i = 0; i < n; ++i) {
        minY = std::min(minY, joint(std::int32_t(i)).y);
        maxY = std::max(maxY, joint(std::int32_t(i)).y);
    }
    const float height = maxY - minY;
    if (!(height > 1e-4f)) {
        m.problem = "all joints are at one height: a quadruped stands on its feet in the bind pose";
        return m;
    }
    const float low = minY + 0.3f * height;

    // ---- feet: low leaves, toes of one paw grouped
    std::vector<std::vector<std::int32_t>> feet;
    std::vector<std::int32_t> footRoot;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int32_t b = std::int32_t(i);
        if (!mTree.children(b).empty() || joint(b).y > low || contains(lower(mBones[i].name), {"tail"}))
            continue;
        bool grouped = false;
        for (std::size_t f = 0; f < feet.size() && !grouped; ++f) {
            const std::int32_t l = mTree.lca(b, feet[f].front());
            if (l != rig::kNone && joint(l).y <= low && length(joint(l) - joint(b)) < 0.3f * height) {
                feet[f].push_back(b);
                footRoot[f] = mTree.lca(footRoot[f], b);
                grouped = true;
            }
        }
        if (!grouped) {
            feet.push_back({b});
            footRoot.push_back(b);
        }
    }
    if (feet.size() != 4) {
        std::vector<std::int32_t> firsts;
        for (const auto& f : feet)
            firsts.push_back(f.front());
        m.problem = std::to_string(feet.size()) + " feet reach the ground (four are needed)" +
                    (firsts.empty() ? std::string() : ": " + joinNames(mBones, firsts));
        return m;
    }

    // ---- legs: from the foot up to below the first ancestor that carries another foot
    std::vector<int> footCount(n, 0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::int32_t r : footRoot)
            footCount[i] += mTree.isAncestorOrSelf(std::int32_t(i), r) ? 1 : 0;
    std::array<std::vector<std::int32_t>, 4> legs;
    std::array<std::int32_t, 4> tops{};
    for (int f = 0; f < 4; ++f) {
        std::int32_t a = footRoot[std::size_t(f)];
        while (mTree.parent(a) != rig::kNone && footCount[std::size_t(mTree.parent(a))] == 1)
            a = mTree.parent(a);
        if (mTree.parent(a) == rig::kNone) {
            m.problem = "the leg of '" + mBones[std::size_t(feet[std::size_t(f)].front())].name + "' is not attached to a body";
            return m;
        }
        std::int32_t leaf = feet[std::size_t(f)].front();
        for (std::int32_t l : feet[std::size_t(f)])
            if (length(joint(l) - joint(a)) > length(joint(leaf) - joint(a)))
                leaf = l;
        tops[std::size_t(f)] = a;
        legs[std::size_t(f)].push_back(a);
        for (std::int32_t b : mTree.between(a, leaf))
            legs[std::size_t(f)].push_back(b);
        if (leaf != a)
            legs[std::size_t(f)].push_back(leaf);
    }

    // ---- pairs side by side: the pairing with the shortest distances between top joints
    const int pairings[3][4] = {{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 1, 2}};
    int best = 0;
    float bestSum = 3.4e38f;
    for (int p = 0; p < 3; ++p) {
        const int* q = pairings[p];
        const float sum = length(joint(tops[std::size_t(q[0])]) - joint(tops[std::size_t(q[1])])) +
                          length(joint(tops[std::size_t(q[2])]) - joint(tops[std::size_t(q[3])]));
        if (sum < bestSum) {
            bestSum = sum;
            best = p;
        }
    }
    const int pair[2][2] = {{pairings[best][0], pairings[best][1]}, {pairings[best][2], pairings[best][3]}};
    std::int32_t attach[2];
    for (int k = 0; k < 2; ++k)
        attach[k] = mTree.lca(tops[std::size_t(pair[k][0])], tops[std::size_t(pair[k][1])]);
    if (attach[0] == rig::kNone || attach[1] == rig::kNone) {
        m.problem = "the legs are not in one skeleton tree";
        return m;
    }

    // ---- which pair is the front: names, then a head or tail named bone, then the neck's height, then the root
    int votes[2] = {0, 0};
    for (int k = 0; k < 2; ++k)
        for (int leg : pair[k])
            for (std::int32_t b : legs[std::size_t(leg)])
                votes[k] += frontVote(mBones[std::size_t(b)].name);
    const std::int32_t headNamed = findNamed({"head", "skull"});
    const std::int32_t tailNamed = findNamed({"tail"});
    int front = -1;
    if (votes[0] != votes[1]) {
        front = votes[0] > votes[1] ? 0 : 1;
    } else if (headNamed != rig::kNone || tailNamed != rig::kNone) {
        const std::int32_t ref = headNamed != rig::kNone ? headNamed : tailNamed;
        const float d0 = length(joint(ref) - joint(attach[0])), d1 = length(joint(ref) - joint(attach[1]));
        front = (d0 < d1) == (ref == headNamed) ? 0 : 1;
        m.notes.push_back(std::string("front legs: the pair nearer the bone named ") + (ref == headNamed ? "head" : "tail (hind)"));
    } else {
        float branch[2] = {-3.4e38f, -3.4e38f};
        for (int k = 0; k < 2; ++k)
            for (std::int32_t c : mTree.children(attach[k]))
                if (footCount[std::size_t(c)] == 0 && !mTree.isAncestorOrSelf(c, attach[1 - k]))
                    for (std::size_t i = 0; i < n; ++i)
                        if (mTree.isAncestorOrSelf(c, std::int32_t(i)))
                            branch[k] = std::max(branch[k], joint(std::int32_t(i)).y);
        if (std::fabs(branch[0] - branch[1]) > 0.05f * height)
            front = branch[0] > branch[1] ? 0 : 1;
        else
            front = mTree.isAncestorOrSelf(attach[0], attach[1]) ? 1 : 0;
        m.notes.push_back("front legs: no bone name tells front from hind; the pair with the higher branch (the neck) "
                          "or further from the root is the front");
    }
    const int hind = 1 - front;
    m.chest = attach[front];
    m.pelvis = attach[hind];

    // ---- directions
    auto mid = [&](int k) { return (joint(tops[std::size_t(pair[k][0])]) + joint(tops[std::size_t(pair[k][1])])) * 0.5f; };
    Vec3 fwd = mid(front) - mid(hind);
    fwd.y = 0.f;
    m.forward = normalizeOr(fwd, {0, 0, 1});
    m.left = normalizeOr(cross(m.up, m.forward), {1, 0, 0});

    // ---- sides: names, else geometry
    bool sidesFromGeometry = false;
    for (int k = 0; k < 2; ++k) {
        int side[2] = {0, 0}; // +1 left, -1 right
        for (int j = 0; j < 2; ++j)
            for (std::int32_t b : legs[std::size_t(pair[k][j])]) {
                const auto s = editor::autorig::parseBoneName(mBones[std::size_t(b)].name).side;
                side[j] += s == editor::autorig::Side::Left ? 1 : s == editor::autorig::Side::Right ? -1 : 0;
            }
        int leftLeg = pair[k][0], rightLeg = pair[k][1];
        if (side[0] > 0 && side[1] < 0) {
        } else if (side[0] < 0 && side[1] > 0) {
            std::swap(leftLeg, rightLeg);
        } else {
            sidesFromGeometry = true;
            if (dot(joint(tops[std::size_t(leftLeg)]) - joint(tops[std::size_t(rightLeg)]), m.left) < 0.f)
                std::swap(leftLeg, rightLeg);
        }
        const int base = k == front ? kFrontLeft : kHindLeft;
        m.legs[base] = legs[std::size_t(leftLeg)];
        m.legs[base + 1] = legs[std::size_t(rightLeg)];
    }
    if (sidesFromGeometry)
        m.notes.push_back("left and right legs told apart by their position (the names do not say)");

    // ---- spine between pelvis and chest
    if (m.pelvis != m.chest) {
        if (mTree.isAncestorOrSelf(m.pelvis, m.chest)) {
            m.spine = mTree.between(m.pelvis, m.chest);
        } else if (mTree.isAncestorOrSelf(m.chest, m.pelvis)) {
            m.spine = mTree.between(m.chest, m.pelvis);
            std::reverse(m.spine.begin(), m.spine.end());
        } else {
            const std::int32_t l = mTree.lca(m.pelvis, m.chest);
            for (std::int32_t b = mTree.parent(m.pelvis); b != l; b = mTree.parent(b))
                m.spine.push_back(b);
            m.spine.push_back(l);
            for (std::int32_t b : mTree.between(l, m.chest))
                m.spine.push_back(b);
        }
    }

    // ---- neck and head from the chest, tail from the pelvis
    auto branches = [&](std::int32_t at, std::int32_t other) {
        std::vector<std::int32_t> out;
        for (std::int32_t c : mTree.children(at))
            if (footCount[std::size_t(c)] == 0 && !mTree.isAncestorOrSelf(c, other))
                out.push_back(c);
        return out;
    };
    std::int32_t neckStart = rig::kNone;
    for (std::int32_t c : branches(m.chest, m.pelvis))
        if (headNamed != rig::kNone ? mTree.isAncestorOrSelf(c, headNamed)
                                    : (neckStart == rig::kNone || reach(c, joint(m.chest)) > reach(neckStart, joint(m.chest))))
            neckStart = c;
    if (neckStart != rig::kNone) {
        const std::vector<std::int32_t> chain = chainFrom(neckStart, headNamed, joint(m.chest));
        std::size_t h = chain.size() - 1;
        if (headNamed != rig::kNone && std::find(chain.begin(), chain.end(), headNamed) != chain.end())
            h = std::size_t(std::find(chain.begin(), chain.end(), headNamed) - chain.begin());
        else
            while (h > 0 && mTree.children(chain[h]).empty())
                --h;
        m.head = chain[h];
        m.neck.assign(chain.begin(), chain.begin() + std::ptrdiff_t(h));
    } else {
        m.notes.push_back("no neck or head found beside the front legs: the rig has no head");
    }
    std::int32_t tailStart = rig::kNone;
    for (std::int32_t c : branches(m.pelvis, m.chest)) {
        if (neckStart != rig::kNone && mTree.isAncestorOrSelf(c, neckStart))
            continue;
        const bool named = tailNamed != rig::kNone && mTree.isAncestorOrSelf(c, tailNamed);
        const bool backward = dot(joint(chainFrom(c, rig::kNone, joint(m.pelvis)).back()) - joint(m.pelvis), m.forward) < 0.f;
        if (named || (tailStart == rig::kNone && backward))
            tailStart = c;
    }
    if (tailStart != rig::kNone)
        m.tail = chainFrom(tailStart, tailNamed, joint(m.pelvis));
    return m;
}

} // namespace

QuadrupedMapping mapQuadruped(const std::vector<rig::Bone>& skeleton)
{
    return Mapper(skeleton).run();
}

} // namespace marionette::plugins
