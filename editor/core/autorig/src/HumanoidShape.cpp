// The shape-based humanoid reading (docs/autorig.md, "Shape-based fallback"). A limb is a chain of three or more
// bones below a bone; two limbs below one bone that mirror each other are a pair; the pair nearest the root is
// the legs, the next pair up the trunk the arms, the chain rising above the arms the head. Left and right come
// from the bones' side names when they carry one, else the toes' facing, else the bend of knees and elbows,
// else the standard forward axis +Z.
#include "HumanoidShape.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <tuple>

namespace marionette::editor::autorig {

namespace {

using P = HumanoidPart;

constexpr float kPairReach = 1.25f;        ///< the longer limb of a pair reaches at most 25 % further
constexpr float kPairMirror = 0.2f;        ///< largest mirror error of a pair, as a fraction of its reach
constexpr float kMajorReach = 0.4f;        ///< limb pairs reach at least 40 % as far as the longest pair
constexpr float kShortLeaf = 0.3f;         ///< a last leaf shorter than this × its limb is a finger or an end bone
constexpr float kHandFingers = 0.5f;       ///< fingers reach less than this × the arm up to the hand
constexpr float kHeadEnd = 0.18f;          ///< a top leaf longer than this × the leg is the top-of-skull bone
constexpr float kStraight = radians(3.f);  ///< limbs bending less at every joint are straight
constexpr float kFootTurn = 0.643f;        ///< cos 50°: the foot is where the leg turns more than 50° from down
constexpr float kFeetReach = 0.15f;        ///< feet end within this × the pelvis height of the lowest joint
constexpr float kSagittal = 0.7f;          ///< |cos| of the angle between the legs' and the arms' mirror planes
constexpr float kFacing = 0.5f;            ///< a facing cue counts when its cosine with forward is above this
constexpr float kBendCue = 0.01f;          ///< knee/elbow offsets (fractions of the limb) that tell the front

bool finiteBone(const rig::Bone& b)
{
    for (float v : b.bindWorld.m)
        if (!std::isfinite(v))
            return false;
    return true;
}

/// A chain of bones below a branch bone: from its first bone to the joint farthest from that bone's.
struct Limb {
    std::vector<std::int32_t> path; ///< path.front() is a child of the branch bone
    float reach = 0.f;              ///< distance from the first joint to the last
    std::int32_t root() const { return path.front(); }
    std::int32_t end() const { return path.back(); }
};

/// Two limbs below one bone that mirror each other.
struct Pair {
    std::int32_t branch = rig::kNone;
    Limb a, b;
    Vec3 normal;          ///< of the mirror plane, from b's side toward a's
    float error = 0.f;    ///< mirror error as a fraction of the reach
    float reach = 0.f;    ///< mean of the two limbs'
    bool crowded = false; ///< another pair of limbs, disjoint from this one, mirrors below the same bone
};

/// The bones of one limb: upper (thigh, upper arm), middle (calf, forearm) and end (foot, hand) indices into
/// the limb's path.
struct LimbParts {
    std::size_t upper = 0, middle = 0, end = 0;
};

class Shape {
public:
    Shape(const std::vector<rig::Bone>& skeleton, const std::vector<ParsedName>& names)
        : mBones(skeleton), mNames(names), mTree(skeleton), mUsable(skeleton.size(), 0), mKids(skeleton.size()),
          mHeight(skeleton.size(), 0)
    {
        for (std::size_t i = 0; i < skeleton.size(); ++i) {
            const std::int32_t p = mTree.parent(std::int32_t(i));
            mUsable[i] = finiteBone(skeleton[i]) && (p == rig::kNone || mUsable[std::size_t(p)]);
            if (mUsable[i] && p != rig::kNone)
                mKids[std::size_t(p)].push_back(std::int32_t(i));
        }
        for (std::size_t i = skeleton.size(); i-- > 0;) // children after parents
            for (std::int32_t c : mKids[i])
                mHeight[i] = std::max(mHeight[i], mHeight[std::size_t(c)] + 1);
    }

    ShapeReading run();

private:
    Vec3 joint(std::int32_t b) const { return mTree.joint(b); }
    std::string quoted(std::int32_t b) const { return "'" + mBones[std::size_t(b)].name + "'"; }
    std::vector<std::int32_t> subtree(std::int32_t b) const;
    Limb limbFrom(std::int32_t root) const;
    bool mirror(std::int32_t branch, const Limb& a, const Limb& b, Pair& out) const;
    /// Points at 0, 1/3, 2/3 and 3/3 of the path's length along its joints.
    std::array<Vec3, 4> samples(const std::vector<std::int32_t>& path) const;
    /// Highest joint of b's subtree along `up`.
    float top(std::int32_t b, Vec3 up) const;
    /// Bend of the path at index i (between the segments to and from its joint), radians.
    float bend(const std::vector<std::int32_t>& path, std::size_t i) const;
    /// The middle joint strictly between path[from] and path[to]: the one that bends most, or, with every one
    /// straight, the one nearest the middle of the span.
    std::size_t middle(const std::vector<std::int32_t>& path, std::size_t from, std::size_t to) const;
    /// +1 when the names put `a` on the left and `b` on the right, −1 the other way round, 0 when they do not say.
    int sideHint(const Limb& a, const Limb& b) const;
    HumanoidMapping read(const Pair& legs, const Pair& arms, const std::vector<const Pair*>& major) const;

    const std::vector<rig::Bone>& mBones;
    const std::vector<ParsedName>& mNames;
    SkeletonTree mTree;
    std::vector<char> mUsable;
    std::vector<std::vector<std::int32_t>> mKids; ///< usable children
    std::vector<int> mHeight;                     ///< bones below, along the longest chain
};

std::vector<std::int32_t> Shape::subtree(std::int32_t b) const
{
    std::vector<std::int32_t> out{b};
    for (std::size_t i = 0; i < out.size(); ++i)
        for (std::int32_t c : mKids[std::size_t(out[i])])
            out.push_back(c);
    return out;
}

Limb Shape::limbFrom(std::int32_t root) const
{
    const Vec3 from = joint(root);
    std::int32_t far = root;
    float best = -1.f;
    for (std::int32_t d : subtree(root))
        if (const float dist = length(joint(d) - from); dist > best) {
            best = dist;
            far = d;
        }
    Limb l;
    for (std::int32_t x = far; x != root; x = mTree.parent(x))
        l.path.push_back(x);
    l.path.push_back(root);
    std::reverse(l.path.begin(), l.path.end());
    l.reach = best;
    return l;
}

bool Shape::mirror(std::int32_t branch, const Limb& a, const Limb& b, Pair& out) const
{
    const float lo = std::min(a.reach, b.reach), hi = std::max(a.reach, b.reach);
    if (!(lo > 0.f) || hi > kPairReach * lo)
        return false;
    const float reach = 0.5f * (a.reach + b.reach);
    // Points at 0, 1/3, 2/3 and all of each chain's length: a chain and its mirror image match point for point.
    std::array<Vec3, 4> pa, pb;
    for (int k = 0; k < 2; ++k)
        (k == 0 ? pa : pb) = samples((k == 0 ? a : b).path);
    Vec3 across, centre;
    for (std::size_t i = 0; i < 4; ++i) {
        across += pa[i] - pb[i];
        centre += (pa[i] + pb[i]) * 0.125f;
    }
    if (!(length(across) > 1e-3f * reach))
        return false;
    const Vec3 n = normalizeOr(across, {});
    auto reflect = [&](Vec3 x) { return x - n * (2.f * dot(x - centre, n)); };
    float error = std::fabs(dot(joint(branch) - centre, n));
    for (std::size_t i = 0; i < 4; ++i)
        error = std::max(error, length(reflect(pa[i]) - pb[i]));
    error /= reach;
    if (!(error <= kPairMirror))
        return false;
    out.branch = branch;
    out.a = a;
    out.b = b;
    out.normal = n;
    out.error = error;
    out.reach = reach;
    return true;
}

std::array<Vec3, 4> Shape::samples(const std::vector<std::int32_t>& path) const
{
    float total = 0.f;
    for (std::size_t i = 1; i < path.size(); ++i)
        total += length(joint(path[i]) - joint(path[i - 1]));
    std::array<Vec3, 4> out{joint(path.front()), joint(path.back()), joint(path.back()), joint(path.back())};
    for (std::size_t k = 1; k <= 2; ++k) {
        float left = total * float(k) / 3.f;
        for (std::size_t i = 1; i < path.size(); ++i) {
            const Vec3 a = joint(path[i - 1]), b = joint(path[i]);
            const float seg = length(b - a);
            if (left <= seg && seg > 0.f) {
                out[k] = lerp(a, b, left / seg);
                break;
            }
            left -= seg;
        }
    }
    return out;
}

float Shape::top(std::int32_t b, Vec3 up) const
{
    float t = -std::numeric_limits<float>::max();
    for (std::int32_t d : subtree(b))
        t = std::max(t, dot(joint(d), up));
    return t;
}

float Shape::bend(const std::vector<std::int32_t>& path, std::size_t i) const
{
    const Vec3 in = joint(path[i]) - joint(path[i - 1]), out = joint(path[i + 1]) - joint(path[i]);
    if (!(length(in) > 1e-9f) || !(length(out) > 1e-9f))
        return 0.f;
    return std::acos(std::clamp(dot(normalizeOr(in, {}), normalizeOr(out, {})), -1.f, 1.f));
}

std::size_t Shape::middle(const std::vector<std::int32_t>& path, std::size_t from, std::size_t to) const
{
    std::size_t best = from + 1;
    for (std::size_t i = from + 1; i < to; ++i)
        if (bend(path, i) > bend(path, best))
            best = i;
    if (bend(path, best) >= kStraight)
        return best;
    const Vec3 a = joint(path[from]), chord = joint(path[to]) - a;
    const float l2 = std::max(lengthSquared(chord), 1e-20f);
    auto offMiddle = [&](std::size_t i) { return std::fabs(dot(joint(path[i]) - a, chord) / l2 - 0.5f); };
    best = from + 1;
    for (std::size_t i = from + 1; i < to; ++i)
        if (offMiddle(i) < offMiddle(best))
            best = i;
    return best;
}

int Shape::sideHint(const Limb& a, const Limb& b) const
{
    auto score = [&](const Limb& l) {
        int s = 0;
        for (std::int32_t x : subtree(l.root()))
            s += mNames[std::size_t(x)].side == Side::Left ? 1 : mNames[std::size_t(x)].side == Side::Right ? -1 : 0;
        return s;
    };
    const int sa = score(a), sb = score(b);
    return sa > 0 && sb < 0 ? 1 : sa < 0 && sb > 0 ? -1 : 0;
}

ShapeReading Shape::run()
{
    ShapeReading out;
    HumanoidMapping& m = out.mapping;
    // Limb pairs: below each bone, the two chains of three or more bones that mirror each other best.
    std::vector<Pair> pairs;
    for (std::size_t bi = 0; bi < mBones.size(); ++bi) {
        if (!mUsable[bi])
            continue;
        std::vector<Limb> limbs;
        for (std::int32_t c : mKids[bi])
            if (mHeight[std::size_t(c)] >= 2)
                limbs.push_back(limbFrom(c));
        if (limbs.size() < 2)
            continue;
        out.tried = true;
        std::vector<Pair> here;
        for (std::size_t i = 0; i < limbs.size(); ++i)
            for (std::size_t j = i + 1; j < limbs.size(); ++j)
                if (Pair p; mirror(std::int32_t(bi), limbs[i], limbs[j], p))
                    here.push_back(p);
        if (here.empty())
            continue;
        const auto best = std::min_element(here.begin(), here.end(),
                                           [](const Pair& x, const Pair& y) { return x.error < y.error; });
        Pair chosen = *best;
        for (const Pair& p : here) {
            const bool disjoint = p.a.root() != chosen.a.root() && p.a.root() != chosen.b.root() &&
                                  p.b.root() != chosen.a.root() && p.b.root() != chosen.b.root();
            if (disjoint && p.reach >= kMajorReach * chosen.reach)
                chosen.crowded = true;
        }
        pairs.push_back(chosen);
    }
    if (!out.tried)
        return out;

    // The limb pairs (not fingers or toes): those reaching at least 40 % as far as the longest pair.
    float longest = 0.f;
    for (const Pair& p : pairs)
        longest = std::max(longest, p.reach);
    std::vector<const Pair*> major;
    for (const Pair& p : pairs)
        if (p.reach >= kMajorReach * longest)
            major.push_back(&p);
    if (major.empty()) {
        m.problem = "no two limbs of three or more bones mirror each other below one bone";
        return out;
    }
    if (major.size() == 1) {
        m.problem = "only one pair of limbs (below " + quoted(major.front()->branch) +
                    "); a humanoid has two, legs and arms";
        return out;
    }

    // Readings: legs below B1, arms below B2, in one tree; B2 not above B1 and in neither leg, B1 in neither
    // arm; B2 carries something besides the arms (the head chain); no other limb pair between them.
    struct Combo {
        const Pair* legs;
        const Pair* arms;
        bool stacked; ///< the legs' bone is an ancestor of the arms'
    };
    std::vector<Combo> combos;
    for (const Pair* legs : major)
        for (const Pair* arms : major) {
            const std::int32_t b1 = legs->branch, b2 = arms->branch;
            const std::int32_t common = mTree.lca(b1, b2);
            if (legs == arms || common == rig::kNone || mTree.isAncestorOrSelf(b2, b1))
                continue;
            if (mTree.isAncestorOrSelf(legs->a.root(), b2) || mTree.isAncestorOrSelf(legs->b.root(), b2) ||
                mTree.isAncestorOrSelf(arms->a.root(), b1) || mTree.isAncestorOrSelf(arms->b.root(), b1))
                continue;
            const auto& kids = mKids[std::size_t(b2)];
            if (std::none_of(kids.begin(), kids.end(),
                             [&](std::int32_t c) { return c != arms->a.root() && c != arms->b.root(); }))
                continue;
            const bool between = std::any_of(major.begin(), major.end(), [&](const Pair* o) {
                const std::int32_t b3 = o->branch;
                return b3 != b1 && b3 != b2 && mTree.isAncestorOrSelf(common, b3) &&
                       (mTree.isAncestorOrSelf(b3, b1) || mTree.isAncestorOrSelf(b3, b2));
            });
            if (!between)
                combos.push_back({legs, arms, mTree.isAncestorOrSelf(b1, b2)});
        }
    if (combos.empty()) {
        m.problem = "the limb pairs do not hang from one trunk (legs below, arms above them with a head beyond)";
        return out;
    }
    std::stable_sort(combos.begin(), combos.end(), [&](const Combo& x, const Combo& y) {
        return std::tuple(!x.stacked, mTree.depth(x.legs->branch), mTree.depth(x.arms->branch)) <
               std::tuple(!y.stacked, mTree.depth(y.legs->branch), mTree.depth(y.arms->branch));
    });
    std::vector<HumanoidMapping> fits;
    std::vector<const Combo*> fitCombos;
    std::string firstProblem;
    for (const Combo& c : combos) {
        HumanoidMapping r = read(*c.legs, *c.arms, major);
        if (r.complete()) {
            fits.push_back(std::move(r));
            fitCombos.push_back(&c);
        } else if (firstProblem.empty()) {
            firstProblem = r.problem;
        }
    }
    if (fits.empty()) {
        m.problem = firstProblem;
        return out;
    }
    for (std::size_t i = 1; i < fits.size(); ++i)
        if (fits[i].bones != fits.front().bones) {
            m.problem = "the shape reads two ways: legs below " + quoted(fitCombos[0]->legs->branch) + " and arms below " +
                        quoted(fitCombos[0]->arms->branch) + ", or legs below " + quoted(fitCombos[i]->legs->branch) +
                        " and arms below " + quoted(fitCombos[i]->arms->branch);
            return out;
        }
    m = std::move(fits.front());
    return out;
}

HumanoidMapping Shape::read(const Pair& legs, const Pair& arms, const std::vector<const Pair*>& major) const
{
    HumanoidMapping m;
    auto fail = [&](std::string why) {
        HumanoidMapping f;
        f.problem = std::move(why);
        return f;
    };
    for (const Pair* p : {&legs, &arms})
        if (p->crowded)
            return fail("more than one pair of limbs hangs from " + quoted(p->branch));
    const std::int32_t b1 = legs.branch, b2 = arms.branch;
    const Vec3 up = normalizeOr(joint(b2) - joint(b1), {});
    if (!(length(up) > 0.5f))
        return fail("the legs and the arms branch at one point");

    // Legs: the thigh is the first bone unless it runs sideways (a hip bone); the foot is where the leg turns
    // more than 50° away from down (toward the toes), or its last bone (not a short end leaf); the knee
    // between them bends most, or is the middle one.
    std::array<LimbParts, 2> leg;
    for (int k = 0; k < 2; ++k) {
        const std::vector<std::int32_t>& path = (k == 0 ? legs.a : legs.b).path;
        LimbParts& p = leg[std::size_t(k)];
        if (path.size() < 3)
            return fail("the leg below " + quoted(path.front()) + " has fewer than three bones");
        if (path.size() >= 4 && !(dot(normalizeOr(joint(path[1]) - joint(path[0]), {}), -up) >= 0.5f))
            p.upper = 1;
        p.end = 0;
        for (std::size_t i = p.upper + 2; i + 1 < path.size() && p.end == 0; ++i) {
            const Vec3 d = joint(path[i + 1]) - joint(path[i]);
            if (length(d) > 1e-9f && dot(normalizeOr(d, {}), -up) < kFootTurn)
                p.end = i;
        }
        if (p.end == 0) {
            const std::size_t last = path.size() - 1;
            const float seg = length(joint(path[last]) - joint(path[last - 1]));
            p.end = last >= p.upper + 3 && seg < kShortLeaf * length(joint(path[last]) - joint(path[p.upper])) ? last - 1 : last;
        }
        if (p.end < p.upper + 2)
            return fail("the leg below " + quoted(path.front()) + " has fewer than three bones");
        p.middle = middle(path, p.upper, p.end);
    }
    auto legBone = [&](int k, std::size_t i) { return (k == 0 ? legs.a : legs.b).path[i]; };
    const Vec3 hipMid = (joint(legBone(0, leg[0].upper)) + joint(legBone(1, leg[1].upper))) * 0.5f;

    // Arms: the hand is the last bone the fingers fan out from (two or more children, fingers shorter than
    // the arm up to there), else the last bone (not a short end leaf); the first bone is a clavicle when more
    // bones follow to the hand and its joint is nearer the trunk's axis than the hip joints are; the elbow
    // between upper arm and hand bends most, or is the middle one.
    auto lateral = [&](Vec3 x) {
        const Vec3 d = x - joint(b2);
        return length(d - up * dot(d, up));
    };
    const float hipLateral = 0.5f * (lateral(joint(legBone(0, leg[0].upper))) + lateral(joint(legBone(1, leg[1].upper))));
    std::array<LimbParts, 2> arm;
    for (int k = 0; k < 2; ++k) {
        const Limb& limb = k == 0 ? arms.a : arms.b;
        const std::vector<std::int32_t>& path = limb.path;
        LimbParts& p = arm[std::size_t(k)];
        if (path.size() < 3)
            return fail("the arm below " + quoted(path.front()) + " has fewer than three bones");
        const std::size_t last = path.size() - 1;
        p.end = 0;
        for (std::size_t i = last; i >= 2 && p.end == 0; --i)
            if (mKids[std::size_t(path[i])].size() >= 2 &&
                length(joint(limb.end()) - joint(path[i])) < kHandFingers * length(joint(path[i]) - joint(path[0])))
                p.end = i;
        if (p.end == 0) {
            const float seg = length(joint(path[last]) - joint(path[last - 1]));
            p.end = last >= 3 && seg < kShortLeaf * length(joint(path[last]) - joint(path[0])) ? last - 1 : last;
        }
        p.upper = p.end >= 3 && lateral(joint(path[0])) < hipLateral ? 1 : 0;
        if (p.end < p.upper + 2)
            return fail("the arm below " + quoted(path.front()) + " has fewer than three bones");
        p.middle = middle(path, p.upper, p.end);
    }
    auto armBone = [&](int k, std::size_t i) { return (k == 0 ? arms.a : arms.b).path[i]; };

    // Pelvis: where the legs branch (or where legs and spine meet), or a bone called hips/pelvis at or above
    // it; else stepping down while the parent's joint is nearer the hip joints (Biped's thighs hang from
    // Bip01 Spine, above Bip01 Pelvis).
    std::int32_t pelvis = mTree.isAncestorOrSelf(b1, b2) ? b1 : mTree.lca(b1, b2);
    std::int32_t named = rig::kNone;
    for (std::int32_t x = pelvis; x != rig::kNone; x = mTree.parent(x))
        if (named == rig::kNone && mNames[std::size_t(x)].cls == NameClass::Pelvis && mNames[std::size_t(x)].side == Side::None)
            named = x;
    if (named != rig::kNone)
        pelvis = named;
    else
        while (mTree.parent(pelvis) != rig::kNone &&
               length(joint(mTree.parent(pelvis)) - hipMid) < length(joint(pelvis) - hipMid))
            pelvis = mTree.parent(pelvis);

    // Chest: where the arms branch, or its parent when that bone lies above the arms' first joints (Biped
    // hangs its clavicles from the neck).
    std::int32_t chest = b2;
    const float armRoots = 0.5f * (dot(joint(arms.a.root()), up) + dot(joint(arms.b.root()), up));
    const std::int32_t below = mTree.parent(b2);
    if (dot(joint(b2), up) > armRoots + 0.02f * length(joint(b2) - joint(b1)) && below != rig::kNone &&
        below != pelvis && mTree.isAncestorOrSelf(pelvis, below))
        chest = below;
    if (chest == pelvis || !mTree.isAncestorOrSelf(pelvis, chest))
        return fail("the arms branch at the pelvis");

    // Head: a bone called head above the arms' bone (not in an arm); else the chain rising from there, up to
    // where three or more bones fan out (a face) or no child chain rises further (hair hangs down); a last
    // leaf longer than 18 % of the leg is the top of the skull (Mixamo's HeadTop_End), the head its parent.
    float legLength = 0.f;
    for (int k = 0; k < 2; ++k)
        legLength += 0.5f * (length(joint(legBone(k, leg[std::size_t(k)].middle)) - joint(legBone(k, leg[std::size_t(k)].upper))) +
                             length(joint(legBone(k, leg[std::size_t(k)].end)) - joint(legBone(k, leg[std::size_t(k)].middle))));
    std::vector<std::int32_t> headStarts;
    for (std::int32_t c : mKids[std::size_t(b2)])
        if (c != arms.a.root() && c != arms.b.root())
            headStarts.push_back(c);
    std::int32_t head = rig::kNone;
    for (std::int32_t s : headStarts)
        for (std::int32_t d : subtree(s))
            if (mNames[std::size_t(d)].cls == NameClass::Head && mNames[std::size_t(d)].side == Side::None &&
                (head == rig::kNone || mTree.depth(d) < mTree.depth(head)))
                head = d;
    if (head == rig::kNone) {
        auto highest = [&](const std::vector<std::int32_t>& bones) {
            return *std::max_element(bones.begin(), bones.end(),
                                     [&](std::int32_t x, std::int32_t y) { return top(x, up) < top(y, up); });
        };
        std::int32_t at = highest(headStarts);
        if (!(top(at, up) > dot(joint(b2), up)))
            return fail("nothing rises above the arms (no head)");
        for (;;) {
            const auto& kids = mKids[std::size_t(at)];
            if (kids.size() >= 3)
                break;
            if (kids.empty()) {
                const std::int32_t parent = mTree.parent(at);
                if (parent != b2 && parent != chest && length(joint(at) - joint(parent)) > kHeadEnd * legLength)
                    at = parent;
                break;
            }
            // Up the chain that rises: a hair strand or a jaw hanging from the head rises no further than its
            // own first joint.
            const std::int32_t next = highest(kids);
            const bool rises = mKids[std::size_t(next)].empty() || top(next, up) > dot(joint(next), up);
            if (!rises || !(top(next, up) > dot(joint(at), up)))
                break;
            at = next;
        }
        head = at;
    }

    // Left and right. The legs' mirror axis is across the body; which way is left depends on the facing.
    // Names first (bones whose names carry a side), then the toes (from each ankle to the farthest joint of
    // its foot, pointing forward), then the bend of knees (forward) and elbows (backward), then +Z.
    auto legAt = [&](int k, bool upper) { return joint(legBone(k, upper ? leg[std::size_t(k)].upper : leg[std::size_t(k)].end)); };
    Vec3 across = (legAt(0, true) + legAt(0, false)) - (legAt(1, true) + legAt(1, false));
    across = across - up * dot(across, up);
    if (!(length(across) > 1e-4f * legLength))
        return fail("the legs are not apart left and right");
    across = normalizeOr(across, {});
    const Vec3 front = cross(across, up); // forward when legs.a is the left leg
    auto armAt = [&](int k) {
        return joint(armBone(k, arm[std::size_t(k)].upper)) + joint(armBone(k, arm[std::size_t(k)].end));
    };
    const float armsAcross = dot(armAt(0) - armAt(1), across); // > 0: arms.a on legs.a's side
    if (!(std::fabs(armsAcross) > 1e-4f * legLength))
        return fail("the arms are not apart left and right");
    int sign = 0; // +1: legs.a is the left leg
    const int legHint = sideHint(legs.a, legs.b);
    const int armHint = sideHint(arms.a, arms.b) * (armsAcross > 0.f ? 1 : -1);
    if (legHint != 0 && armHint != 0 && legHint != armHint)
        return fail("the bone names put the left arm and the left leg on opposite sides");
    sign = legHint != 0 ? legHint : armHint;
    if (sign == 0) { // toes
        int votes = 0, against = 0;
        for (int k = 0; k < 2; ++k) {
            const std::int32_t foot = legBone(k, leg[std::size_t(k)].end);
            Vec3 toe = joint(foot);
            for (std::int32_t d : subtree(foot))
                if (length(joint(d) - joint(foot)) > length(toe - joint(foot)))
                    toe = joint(d);
            const Vec3 dir = toe - joint(foot), flat = dir - up * dot(dir, up);
            if (!(length(flat) > 0.5f * length(dir)) || !(length(flat) > 0.f))
                continue;
            const float c = dot(normalizeOr(flat, {}), front);
            if (c > kFacing)
                ++votes;
            else if (c < -kFacing)
                ++against;
        }
        if (votes > 0 && against == 0)
            sign = 1;
        else if (against > 0 && votes == 0)
            sign = -1;
    }
    if (sign == 0) { // knees bulge forward, elbows backward, off the line between their neighbours
        auto offset = [&](Vec3 a, Vec3 mid, Vec3 b) {
            const Vec3 ab = b - a;
            const float t = std::clamp(dot(mid - a, ab) / std::max(lengthSquared(ab), 1e-20f), 0.f, 1.f);
            return dot(mid - (a + ab * t), front) / std::max(length(ab), 1e-9f);
        };
        float knees = 0.f, elbows = 0.f;
        for (int k = 0; k < 2; ++k) {
            const LimbParts& l = leg[std::size_t(k)];
            knees += offset(joint(legBone(k, l.upper)), joint(legBone(k, l.middle)), joint(legBone(k, l.end)));
            const LimbParts& r = arm[std::size_t(k)];
            elbows += offset(joint(armBone(k, r.upper)), joint(armBone(k, r.middle)), joint(armBone(k, r.end)));
        }
        const bool conflict = std::fabs(knees) >= kBendCue && std::fabs(elbows) >= kBendCue && (knees > 0.f) == (elbows > 0.f);
        if (!conflict && std::fabs(knees - elbows) >= kBendCue)
            sign = knees - elbows > 0.f ? 1 : -1;
    }
    if (sign == 0) { // the standard forward axis
        const float c = dot(Vec3{0.f, 0.f, 1.f}, normalizeOr(front, {}));
        if (std::fabs(c) > kFacing)
            sign = c > 0.f ? 1 : -1;
    }
    if (sign == 0)
        return fail("cannot tell left from right: no side names, no toes, straight knees and elbows, and the "
                    "body does not face +Z or -Z");
    const int leftLeg = sign > 0 ? 0 : 1;
    const int leftArm = (armsAcross > 0.f) == (sign > 0) ? 0 : 1;

    auto set = [&](P part, std::int32_t bone) { m.bones[std::size_t(part)] = bone; };
    for (int side = 0; side < 2; ++side) { // 0 = left
        const int lk = side == 0 ? leftLeg : 1 - leftLeg, ak = side == 0 ? leftArm : 1 - leftArm;
        const LimbParts& l = leg[std::size_t(lk)];
        const LimbParts& a = arm[std::size_t(ak)];
        set(side == 0 ? P::ThighL : P::ThighR, legBone(lk, l.upper));
        set(side == 0 ? P::CalfL : P::CalfR, legBone(lk, l.middle));
        set(side == 0 ? P::FootL : P::FootR, legBone(lk, l.end));
        set(side == 0 ? P::UpperArmL : P::UpperArmR, armBone(ak, a.upper));
        set(side == 0 ? P::ForearmL : P::ForearmR, armBone(ak, a.middle));
        set(side == 0 ? P::HandL : P::HandR, armBone(ak, a.end));
    }
    set(P::Pelvis, pelvis);
    set(P::Chest, chest);
    set(P::Head, head);
    m.spine = mTree.between(pelvis, chest);
    m.neck = mTree.between(chest, head);
    set(P::Spine, m.spine.empty() ? rig::kNone : m.spine.front());
    set(P::Neck, m.neck.empty() ? rig::kNone : m.neck.front());
    for (int side = 0; side < 2; ++side) {
        auto& clav = side == 0 ? m.clavicleL : m.clavicleR;
        for (std::int32_t b : mTree.between(chest, m[side == 0 ? P::UpperArmL : P::UpperArmR]))
            if (std::find(m.neck.begin(), m.neck.end(), b) == m.neck.end())
                clav.push_back(b);
    }

    // The checks every mapping passes, then the shape's own: the legs reach the lowest joint (a tail does
    // not), the arms branch well above the legs and their hands stay above the knees, arms and legs mirror
    // about one plane, and no other limb pair hangs from the body outside the head.
    if (std::string why = humanoidShapeProblem(mTree, m); !why.empty())
        return fail(std::move(why));
    std::int32_t root = pelvis;
    while (mTree.parent(root) != rig::kNone)
        root = mTree.parent(root);
    float lowest = std::numeric_limits<float>::max();
    for (std::int32_t d : subtree(root))
        lowest = std::min(lowest, dot(joint(d), up));
    const float pelvisHeight = dot(joint(pelvis), up) - lowest;
    for (int k = 0; k < 2; ++k) {
        const std::vector<std::int32_t>& path = (k == 0 ? legs.a : legs.b).path;
        float legLowest = std::numeric_limits<float>::max();
        for (std::size_t i = leg[std::size_t(k)].upper; i < path.size(); ++i)
            legLowest = std::min(legLowest, dot(joint(path[i]), up));
        if (!(legLowest - lowest <= kFeetReach * pelvisHeight))
            return fail("the legs do not reach the lowest joints of the body");
    }
    const float hips = 0.5f * (dot(joint(m[P::ThighL]), up) + dot(joint(m[P::ThighR]), up));
    const float knees = 0.5f * (dot(joint(m[P::CalfL]), up) + dot(joint(m[P::CalfR]), up));
    const float trunk = dot(joint(head), up) - dot(joint(pelvis), up);
    for (P part : {P::UpperArmL, P::UpperArmR})
        if (!(dot(joint(m[part]), up) > hips + 0.25f * trunk))
            return fail("the arms do not branch above the legs");
    for (P part : {P::HandL, P::HandR})
        if (!(dot(joint(m[part]), up) > knees))
            return fail("the hands reach as low as the knees");
    if (!(std::fabs(dot(legs.normal, arms.normal)) >= kSagittal))
        return fail("the arms and the legs do not mirror about one plane");
    const std::int32_t headChain = mTree.childToward(b2, head);
    for (const Pair* o : major) {
        if (o == &legs || o == &arms)
            continue;
        const std::int32_t b3 = o->branch;
        const bool inHead = headChain != rig::kNone && mTree.isAncestorOrSelf(headChain, b3);
        const bool inLimb = mTree.isAncestorOrSelf(legs.a.root(), b3) || mTree.isAncestorOrSelf(legs.b.root(), b3) ||
                            mTree.isAncestorOrSelf(arms.a.root(), b3) || mTree.isAncestorOrSelf(arms.b.root(), b3);
        if (!inHead && !inLimb && mTree.lca(b3, pelvis) != rig::kNone)
            return fail("another pair of limbs hangs from " + quoted(b3) + " (a humanoid has two)");
    }
    return m;
}

} // namespace

ShapeReading readHumanoidShape(const std::vector<rig::Bone>& skeleton, const std::vector<ParsedName>& names)
{
    return Shape(skeleton, names).run();
}

} // namespace marionette::editor::autorig
