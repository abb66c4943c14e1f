#include "marionette/editor/autorig/HumanoidMapping.h"

#include "HumanoidShape.h"

#include "marionette/editor/autorig/AutoRigSupport.h"
#include "marionette/editor/autorig/BoneNames.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace marionette::editor {

using autorig::NameClass;
using autorig::ParsedName;
using autorig::Side;
using autorig::SkeletonTree;

const char* toString(HumanoidPart part)
{
    static const char* const kNames[kHumanoidPartCount] = {
        "pelvis",     "spine",     "chest",  "neck",       "head",      "upperarm_l", "forearm_l", "hand_l", "upperarm_r",
        "forearm_r", "hand_r",    "thigh_l", "calf_l",     "foot_l",    "thigh_r",    "calf_r",    "foot_r"};
    const std::size_t i = std::size_t(part);
    return i < kHumanoidPartCount ? kNames[i] : "unknown";
}

bool isRequired(HumanoidPart part) { return part != HumanoidPart::Spine && part != HumanoidPart::Neck; }

HumanoidMapping::HumanoidMapping() { bones.fill(rig::kNone); }

std::vector<HumanoidPart> HumanoidMapping::missing() const
{
    std::vector<HumanoidPart> out;
    for (std::size_t i = 0; i < kHumanoidPartCount; ++i)
        if (isRequired(HumanoidPart(i)) && bones[i] == rig::kNone)
            out.push_back(HumanoidPart(i));
    return out;
}

namespace autorig {

std::string humanoidShapeProblem(const SkeletonTree& tree, const HumanoidMapping& m)
{
    using P = HumanoidPart;
    auto at = [&](P part) { return tree.joint(m[part]); };
    const std::int32_t pelvis = m[P::Pelvis], chest = m[P::Chest], head = m[P::Head];
    if (!tree.isAncestorOrSelf(pelvis, m[P::UpperArmL]) || !tree.isAncestorOrSelf(pelvis, m[P::UpperArmR]) ||
        !tree.isAncestorOrSelf(chest, head))
        return "the arms and the head do not hang from the spine above the pelvis";
    const Vec3 legsApart = at(P::ThighL) - at(P::ThighR), armsApart = at(P::UpperArmL) - at(P::UpperArmR);
    const Vec3 up = at(P::Head) - at(P::Pelvis);
    const float scale = length(up);
    if (!(scale > 1e-6f) || !(length(legsApart) > 1e-3f * scale) || !(length(armsApart) > 1e-3f * scale))
        return "the left and right joints (or the pelvis and the head) coincide";
    if (dot(legsApart, armsApart) <= 0.f)
        return "left and right are swapped between the arms and the legs";
    const Vec3 u = up / scale;
    for (P thigh : {P::ThighL, P::ThighR}) {
        const P foot = thigh == P::ThighL ? P::FootL : P::FootR;
        const Vec3 legDir = normalizeOr(tree.joint(m[foot]) - tree.joint(m[thigh]), Vec3{});
        if (!(dot(legDir, u) < -0.5f))
            return "the legs do not point away from the head";
    }
    return {};
}

} // namespace autorig

namespace {

bool finiteBone(const rig::Bone& b)
{
    for (float v : b.bindWorld.m)
        if (!std::isfinite(v))
            return false;
    return true;
}

class Mapper {
public:
    explicit Mapper(const std::vector<rig::Bone>& skeleton) : mTree(skeleton)
    {
        for (const rig::Bone& b : skeleton)
            mNames.push_back(finiteBone(b) ? autorig::parseBoneName(b.name) : ParsedName{});
        // "leg": the calf where the side also has a thigh (Mixamo UpLeg/Leg), else the thigh.
        for (Side side : {Side::Left, Side::Right}) {
            const bool hasThigh = std::any_of(mNames.begin(), mNames.end(), [&](const ParsedName& n) {
                return n.side == side && n.cls == NameClass::Thigh && !n.alias;
            });
            for (ParsedName& n : mNames)
                if (n.side == side && n.cls == NameClass::Leg)
                    n.cls = hasThigh ? NameClass::Calf : NameClass::Thigh;
            // Joint-style names (shoulder/elbow/wrist) when the side has no proper upper arm.
            const bool hasUpperArm = std::any_of(mNames.begin(), mNames.end(), [&](const ParsedName& n) {
                return n.side == side && n.cls == NameClass::UpperArm;
            });
            if (!hasUpperArm)
                for (ParsedName& n : mNames)
                    if (n.side == side && n.cls == NameClass::Clavicle) {
                        n.cls = NameClass::UpperArm;
                        n.alias = true;
                    }
        }
    }

    HumanoidMapping run();
    const std::vector<ParsedName>& names() const { return mNames; }

private:
    /// Candidates of a class and side, best first: proper names before aliases, DEF- before plain before
    /// ORG-/MCH-, lower numbers first ("upper_arm.L" before "upper_arm.L.001"), then shallower.
    std::vector<std::int32_t> candidates(NameClass cls, Side side) const
    {
        std::vector<std::int32_t> out;
        for (std::size_t i = 0; i < mNames.size(); ++i)
            if (mNames[i].cls == cls && mNames[i].side == side)
                out.push_back(std::int32_t(i));
        std::stable_sort(out.begin(), out.end(), [&](std::int32_t a, std::int32_t b) {
            const ParsedName& x = mNames[std::size_t(a)];
            const ParsedName& y = mNames[std::size_t(b)];
            return std::tuple(x.alias, int(x.prefix), x.number, mTree.depth(a)) <
                   std::tuple(y.alias, int(y.prefix), y.number, mTree.depth(b));
        });
        return out;
    }

    /// Best candidate of `cls` that is a proper ancestor of `below`.
    std::int32_t ancestorOf(NameClass cls, Side side, std::int32_t below) const
    {
        for (std::int32_t c : candidates(cls, side))
            if (c != below && mTree.isAncestorOrSelf(c, below))
                return c;
        return rig::kNone;
    }

    /// Upper → middle → end chain of one limb: the first end candidate with a middle and an upper above it;
    /// a missing middle is the bone just below the upper one on the way to the end.
    std::array<std::int32_t, 3> chain(NameClass upper, NameClass middle, NameClass end, Side side) const
    {
        std::array<std::int32_t, 3> best{rig::kNone, rig::kNone, rig::kNone};
        for (std::int32_t e : candidates(end, side)) {
            std::int32_t m = ancestorOf(middle, side, e);
            std::int32_t u = ancestorOf(upper, side, m != rig::kNone ? m : e);
            if (m == rig::kNone && u != rig::kNone) {
                const std::int32_t c = mTree.childToward(u, e);
                m = c != e ? c : rig::kNone;
            }
            if (u != rig::kNone && m != rig::kNone)
                return {u, m, e};
            if (best[2] == rig::kNone)
                best = {u, m, e};
        }
        if (best[2] == rig::kNone) { // no end: report what exists above
            const auto ms = candidates(middle, side);
            best[1] = ms.empty() ? rig::kNone : ms.front();
            best[0] = best[1] != rig::kNone ? ancestorOf(upper, side, best[1]) : rig::kNone;
            if (best[0] == rig::kNone) {
                const auto us = candidates(upper, side);
                best[0] = us.empty() ? rig::kNone : us.front();
            }
        }
        return best;
    }

    bool trunkNamed(std::int32_t b) const
    {
        const NameClass k = mNames[std::size_t(b)].cls;
        return k == NameClass::Trunk || k == NameClass::Neck || k == NameClass::Head;
    }

    int subtreeHeight(std::int32_t b) const
    {
        int h = 0;
        for (std::int32_t c : mTree.children(b))
            h = std::max(h, 1 + subtreeHeight(c));
        return h;
    }

    /// Head when no bone above the chest is called head: follow the chain up from the chest (children
    /// without a side, not leading to an arm), preferring trunk names (spine.004, spine.005, spine.006 in a
    /// Rigify rig) and then the longest chain; stop where face bones fan out (three or more such children)
    /// or before an unnamed end bone.
    std::int32_t topOfTrunk(std::int32_t chest, const HumanoidMapping& m) const
    {
        std::int32_t at = chest;
        for (;;) {
            std::vector<std::int32_t> next;
            for (std::int32_t c : mTree.children(at)) {
                const bool limb = mTree.isAncestorOrSelf(c, m[HumanoidPart::UpperArmL]) ||
                                  mTree.isAncestorOrSelf(c, m[HumanoidPart::UpperArmR]);
                const ParsedName& n = mNames[std::size_t(c)];
                if (!limb && n.side == Side::None && n.cls != NameClass::Clavicle)
                    next.push_back(c);
            }
            if (next.empty() || (at != chest && next.size() >= 3))
                return at == chest ? rig::kNone : at;
            const auto best = std::max_element(next.begin(), next.end(), [&](std::int32_t a, std::int32_t b) {
                return std::pair(trunkNamed(a), subtreeHeight(a)) < std::pair(trunkNamed(b), subtreeHeight(b));
            });
            if (mTree.children(*best).empty() && !trunkNamed(*best))
                return at == chest ? rig::kNone : at;
            at = *best;
        }
    }

    SkeletonTree mTree;
    std::vector<ParsedName> mNames;
};

HumanoidMapping Mapper::run()
{
    using P = HumanoidPart;
    HumanoidMapping m;
    auto set = [&](P part, std::int32_t bone) { m.bones[std::size_t(part)] = bone; };
    for (Side side : {Side::Left, Side::Right}) {
        const bool left = side == Side::Left;
        const auto arm = chain(NameClass::UpperArm, NameClass::Forearm, NameClass::Hand, side);
        const auto leg = chain(NameClass::Thigh, NameClass::Calf, NameClass::Foot, side);
        set(left ? P::UpperArmL : P::UpperArmR, arm[0]);
        set(left ? P::ForearmL : P::ForearmR, arm[1]);
        set(left ? P::HandL : P::HandR, arm[2]);
        set(left ? P::ThighL : P::ThighR, leg[0]);
        set(left ? P::CalfL : P::CalfR, leg[1]);
        set(left ? P::FootL : P::FootR, leg[2]);
    }

    // Chest: where the arms branch, stepping down from a neck (3ds Max Biped hangs the clavicles on the neck).
    std::int32_t chest = mTree.lca(m[P::UpperArmL], m[P::UpperArmR]);
    while (chest != rig::kNone && mTree.parent(chest) != rig::kNone &&
           (mNames[std::size_t(chest)].cls == NameClass::Neck || mNames[std::size_t(chest)].cls == NameClass::Head))
        chest = mTree.parent(chest);

    // Pelvis: where the legs branch (or, when the legs hang beside the spine, where legs and spine meet), or a
    // bone called hips/pelvis above that (the deepest such).
    const std::int32_t legRoot = mTree.lca(m[P::ThighL], m[P::ThighR]);
    std::int32_t pelvis = legRoot;
    if (legRoot != rig::kNone && chest != rig::kNone && !mTree.isAncestorOrSelf(legRoot, chest))
        pelvis = mTree.lca(legRoot, chest);
    std::int32_t named = rig::kNone;
    for (std::int32_t c : candidates(NameClass::Pelvis, Side::None))
        if (mTree.isAncestorOrSelf(c, pelvis) && (named == rig::kNone || mTree.depth(c) > mTree.depth(named)))
            named = c;
    if (named != rig::kNone)
        pelvis = named;
    set(P::Pelvis, pelvis);

    // Head: a bone called head above the chest, not inside a limb; else the top of the trunk chain.
    std::int32_t head = rig::kNone;
    if (chest != rig::kNone) {
        for (std::int32_t c : candidates(NameClass::Head, Side::None))
            if (c != chest && mTree.isAncestorOrSelf(chest, c)) {
                head = c;
                break;
            }
        if (head == rig::kNone)
            head = topOfTrunk(chest, m);
    }
    if (chest != rig::kNone && chest == pelvis && head != rig::kNone) {
        const std::int32_t c = mTree.childToward(pelvis, head);
        chest = c != head ? c : rig::kNone; // arms on the hips: the first bone above them is the chest
    }
    if (chest != rig::kNone && (pelvis == rig::kNone || !mTree.isAncestorOrSelf(pelvis, chest) || chest == pelvis))
        chest = rig::kNone;
    set(P::Chest, chest);
    set(P::Head, head);
    if (pelvis != rig::kNone && chest != rig::kNone)
        m.spine = mTree.between(pelvis, chest);
    if (chest != rig::kNone && head != rig::kNone)
        m.neck = mTree.between(chest, head);
    set(P::Spine, m.spine.empty() ? rig::kNone : m.spine.front());
    set(P::Neck, m.neck.empty() ? rig::kNone : m.neck.front());
    for (Side side : {Side::Left, Side::Right}) {
        const std::int32_t upper = m[side == Side::Left ? P::UpperArmL : P::UpperArmR];
        auto& clav = side == Side::Left ? m.clavicleL : m.clavicleR;
        for (std::int32_t b : mTree.between(chest, upper))
            if (std::find(m.neck.begin(), m.neck.end(), b) == m.neck.end())
                clav.push_back(b);
    }

    // What is missing, then whether the found bones have a human's shape.
    const std::vector<P> missing = m.missing();
    if (!missing.empty()) {
        m.problem = "missing ";
        for (std::size_t i = 0; i < missing.size(); ++i) {
            if (i)
                m.problem.append(", ");
            m.problem.append(toString(missing[i]));
        }
        return m;
    }
    m.problem = autorig::humanoidShapeProblem(mTree, m);
    return m;
}

} // namespace

HumanoidMapping mapHumanoid(const std::vector<rig::Bone>& skeleton)
{
    if (skeleton.empty()) {
        HumanoidMapping m;
        m.problem = "the skeleton is empty";
        return m;
    }
    Mapper mapper(skeleton);
    HumanoidMapping named = mapper.run();
    // Names first: when they find every part, their mapping (or the shape check it failed) stands.
    if (named.complete() || named.missing().empty())
        return named;
    const autorig::ShapeReading shape = autorig::readHumanoidShape(skeleton, mapper.names());
    if (!shape.tried)
        return named;
    if (!shape.mapping.complete()) {
        named.shapeProblem = shape.mapping.problem;
        return named;
    }
    // The shape completes the names only where it agrees with every part they mapped, and finishes no limb
    // the names began: a bone whose name is not read, below a named upper arm and forearm, is not taken for
    // the hand (it may be a palm, a twist or an IK bone the scheme names differently).
    const HumanoidMapping& s = shape.mapping;
    using P = HumanoidPart;
    for (std::size_t i = 0; i < kHumanoidPartCount; ++i)
        if (named.bones[i] != rig::kNone && named.bones[i] != s.bones[i]) {
            named.shapeProblem = std::string("the names make '") + skeleton[std::size_t(named.bones[i])].name + "' the " +
                                 toString(HumanoidPart(i)) + ", the shape " +
                                 (s.bones[i] == rig::kNone ? std::string("no bone")
                                                           : "'" + skeleton[std::size_t(s.bones[i])].name + "'");
            return named;
        }
    static constexpr P kLimbs[4][3] = {{P::UpperArmL, P::ForearmL, P::HandL},
                                       {P::UpperArmR, P::ForearmR, P::HandR},
                                       {P::ThighL, P::CalfL, P::FootL},
                                       {P::ThighR, P::CalfR, P::FootR}};
    for (const auto& limb : kLimbs) {
        std::string found, lacking;
        for (P part : limb) {
            std::string& list = named[part] != rig::kNone ? found : lacking;
            list.append(list.empty() ? "" : ", ").append(toString(part));
        }
        if (!found.empty() && !lacking.empty()) {
            named.shapeProblem = "the names map " + found + " but not " + lacking +
                                 ": the shape does not finish a limb the names began";
            return named;
        }
    }
    HumanoidMapping out = s;
    out.fromTopology = true;
    for (std::size_t i = 0; i < kHumanoidPartCount; ++i)
        if (named.bones[i] == rig::kNone && out.bones[i] != rig::kNone)
            out.byShape.push_back(HumanoidPart(i));
    return out;
}

} // namespace marionette::editor
