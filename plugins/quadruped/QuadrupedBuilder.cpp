#include "QuadrupedBuilder.h"

#include "marionette/editor/autorig/AutoRigSupport.h"

#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/Rig.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace marionette::plugins {

using namespace editor::autorig;
using Driver = rig::BoneBinding::Driver;

namespace {

constexpr float kMaxFlexion = radians(150.f);

/// A leg's joints and the bones driven by each of its parts.
struct Leg {
    Vec3 hip, knee, ankle, toe;
    bool hasToe = false;
    std::size_t kneeIndex = 1, ankleIndex = 2; ///< positions in the mapping's bone chain
    int pHip = -1, pKnee = -1, pAxis = -1, pAnkle = -1, pToe = -1;
    int upperTri = -1, lowerTri = -1, footStick = -1;
    float upperR = 0.f, lowerR = 0.f, pawR = 0.f;
};

class Builder {
public:
    Builder(const plugin::TemplateInput& in, const QuadrupedMapping& map, plugin::TemplateResult& out)
        : mIn(in), mMap(map), mOut(out), mD(out.rig), mTree(out.rig.bones)
    {
    }
    bool run();

private:
    Vec3 joint(std::int32_t b) const { return mTree.joint(b); }
    Vec3 pos(int p) const { return mD.particles[std::size_t(p)].position; }
    bool fail(const std::string& what)
    {
        mOut.error = "quadruped template: " + what;
        return false;
    }
    float fit(const std::vector<std::int32_t>& bones, Vec3 a, Vec3 b, float fallback, const char* what);
    int particle(const std::string& name, Vec3 p, float radius, std::int32_t bone)
    {
        mD.particles.push_back(makeParticle(name, p, 0.f, radius, bone));
        return int(mD.particles.size() - 1);
    }
    int stick(const std::string& name, int a, int b, float capsule = 0.f)
    {
        mD.sticks.push_back(makeStick(name, a, b, capsule));
        return int(mD.sticks.size() - 1);
    }
    bool triangle(const std::string& name, int a, int b, int c, int& index);
    void addJoint(const std::string& name, int a, int b, Vec3 twistWorld, Vec3 swingWorld, float twistMin,
               float twistMax, float swing1, float swing2);
    void bend(const std::string& name, int center, int a, int b, float range);
    bool buildLeg(int k, Leg& leg);
    void bind(std::int32_t bone, Driver driver, int index);

    const plugin::TemplateInput& mIn;
    const QuadrupedMapping& mMap;
    plugin::TemplateResult& mOut;
    rig::RigDescription& mD;
    SkeletonTree mTree;
    std::vector<Mat3> mFrames;
    std::vector<char> mBound;
    std::vector<std::string> mProportional;
};

float Builder::fit(const std::vector<std::int32_t>& bones, Vec3 a, Vec3 b, float fallback, const char* what)
{
    std::vector<const std::vector<Vec3>*> lists;
    for (std::int32_t bone : bones)
        if (!mIn.boneVertices[std::size_t(bone)].empty())
            lists.push_back(&mIn.boneVertices[std::size_t(bone)]);
    bool fitted = false;
    const float r = fitRadius(lists, a, b, fallback, 0.3f * fallback, 3.f * fallback, &fitted);
    if (!fitted && std::find(mProportional.begin(), mProportional.end(), what) == mProportional.end())
        mProportional.emplace_back(what);
    return r;
}

bool Builder::triangle(const std::string& name, int a, int b, int c, int& index)
{
    Mat3 frame;
    if (!runtime::Rig::triangleFrame(pos(a), pos(b), pos(c), frame))
        return fail("the " + name + " triangle is degenerate (its joints are in one line)");
    mD.triangles.push_back(makeTriangle(name, a, b, c));
    mFrames.push_back(frame);
    index = int(mD.triangles.size() - 1);
    return true;
}

void Builder::addJoint(const std::string& name, int a, int b, Vec3 twistWorld, Vec3 swingWorld, float twistMin,
                    float twistMax, float swing1, float swing2)
{
    mD.angular.push_back(makeSwingTwist(name, a, b, mFrames[std::size_t(b)], twistWorld, swingWorld, mMap.up,
                                        twistMin, twistMax, swing1, swing2));
}

void Builder::bend(const std::string& name, int center, int a, int b, float range)
{
    const Vec3 u = pos(a) - pos(center), v = pos(b) - pos(center);
    if (!(length(u) > 1e-5f) || !(length(v) > 1e-5f))
        return;
    const float bind = std::acos(std::clamp(dot(u, v) / (length(u) * length(v)), -1.f, 1.f));
    rig::AngleConstraint c;
    c.name = name;
    c.center = center;
    c.a = a;
    c.b = b;
    c.minAngle = std::max(0.f, bind - range);
    c.maxAngle = std::min(kPi, bind + range);
    c.form = rig::AngleConstraint::Form::LawOfCosines;
    c.damping = runtime::kChainJointDamping;
    mD.angles.push_back(c);
}

void Builder::bind(std::int32_t bone, Driver driver, int index)
{
    if (bone == rig::kNone || mBound[std::size_t(bone)])
        return;
    mBound[std::size_t(bone)] = 1;
    mD.bindings.push_back(makeBinding(mD, bone, driver, index));
}

bool Builder::buildLeg(int k, Leg& leg)
{
    const std::vector<std::int32_t>& chain = mMap.legs[k];
    const std::string name = legName(k);
    const bool front = k == kFrontLeft || k == kFrontRight, left = k == kFrontLeft || k == kHindLeft;
    if (chain.size() < 3)
        return fail("leg " + name + " (" + listBones(mD.bones, chain) + ") has fewer than three joints");
    const std::size_t m = chain.size();
    leg.hip = joint(chain[0]);
    leg.ankleIndex = m >= 4 ? m - 2 : 2;
    leg.hasToe = m >= 4;
    leg.ankle = joint(chain[leg.ankleIndex]);
    leg.toe = joint(chain[m - 1]);
    float far = -1.f;
    for (std::size_t i = 1; i < leg.ankleIndex; ++i)
        if (const float dist = distanceToSegment(joint(chain[i]), leg.hip, leg.ankle); dist > far) {
            far = dist;
            leg.kneeIndex = i;
        }
    leg.knee = joint(chain[leg.kneeIndex]);
    const std::vector<std::int32_t> upper(chain.begin(), chain.begin() + std::ptrdiff_t(leg.kneeIndex));
    const std::vector<std::int32_t> lower(chain.begin() + std::ptrdiff_t(leg.kneeIndex), chain.begin() + std::ptrdiff_t(leg.ankleIndex));
    const std::vector<std::int32_t> paw(chain.begin() + std::ptrdiff_t(leg.ankleIndex), chain.end());
    leg.upperR = fit(upper, leg.hip, leg.knee, 0.16f * length(leg.knee - leg.hip), "upper leg");
    leg.lowerR = fit(lower, leg.knee, leg.ankle, 0.12f * length(leg.ankle - leg.knee), "lower leg");
    leg.pawR = leg.hasToe ? fit(paw, leg.ankle, leg.toe, 0.35f * length(leg.toe - leg.ankle), "paw") : 0.8f * leg.lowerR;
    leg.pawR = std::min(leg.pawR, 1.2f * leg.lowerR);

    // The hinge: the plane of the bind pose's bend when it is clear (over 10°), else the anatomical one
    // (elbows fold the forearm forward, stifles the shin backward).
    const Vec3 parentDir = normalizeOr(leg.knee - leg.hip, -mMap.up), childDir = normalizeOr(leg.ankle - leg.knee, parentDir);
    const Vec3 anatomical = (front ? mMap.forward : -mMap.forward);
    const Vec3 bendVec = childDir - parentDir * dot(childDir, parentDir);
    Vec3 flex = normalizeOr(anatomical - parentDir * dot(anatomical, parentDir), anyPerpendicular(parentDir));
    if (length(bendVec) > std::sin(radians(10.f))) {
        flex = normalizeOr(bendVec, flex);
        mOut.notes.push_back(name + " knee: hinge plane taken from the bind pose's bend of " +
                             std::to_string(int(std::lround(degrees(std::asin(std::min(1.f, length(bendVec))))))) + "°");
    }
    const Vec3 flexAxis = normalizeOr(cross(parentDir, flex), anyPerpendicular(parentDir));
    const float bent = std::atan2(dot(cross(parentDir, childDir), flexAxis), dot(parentDir, childDir));
    const Vec3 side = dot(flexAxis, mMap.left) * (left ? 1.f : -1.f) >= 0.f ? flexAxis : -flexAxis;

    leg.pHip = front ? (left ? 3 : 4) : (left ? 0 : 1);
    leg.pKnee = particle(name + "_knee", leg.knee, 0.5f * (leg.upperR + leg.lowerR), chain[leg.kneeIndex]);
    leg.pAxis = particle(name + "_knee_axis", leg.knee + side * (0.2f * length(leg.knee - leg.hip)), 0.35f * leg.lowerR, rig::kNone);
    leg.pAnkle = particle(name + "_ankle", leg.ankle, leg.pawR, chain[leg.ankleIndex]);
    if (leg.hasToe)
        leg.pToe = particle(name + "_toe", leg.toe, 0.8f * leg.pawR, chain[m - 1]);
    if (!triangle(name + "_upper", leg.pHip, leg.pKnee, leg.pAxis, leg.upperTri) ||
        !triangle(name + "_lower", leg.pKnee, leg.pAnkle, leg.pAxis, leg.lowerTri))
        return false;
    stick(name + "_upper", leg.pHip, leg.pKnee, leg.upperR);
    stick(name + "_lower", leg.pKnee, leg.pAnkle, leg.lowerR);
    stick(name + "_knee_axis", leg.pKnee, leg.pAxis);
    stick(name + "_upper_axis", leg.pHip, leg.pAxis);
    stick(name + "_lower_axis", leg.pAnkle, leg.pAxis);
    if (leg.hasToe) {
        leg.footStick = stick(name + "_paw", leg.pAnkle, leg.pToe, leg.pawR);
        bend(name + "_ankle", leg.pAnkle, leg.pKnee, leg.pToe, radians(40.f));
    }
    addJoint(name + "_knee", leg.upperTri, leg.lowerTri, flexAxis, leg.ankle - leg.knee, std::min(0.f, -bent),
          std::max(0.f, kMaxFlexion - bent), radians(3.f), radians(3.f));
    for (std::int32_t b : upper)
        bind(b, Driver::Triangle, leg.upperTri);
    for (std::int32_t b : lower)
        bind(b, Driver::Triangle, leg.lowerTri);
    bind(chain[leg.ankleIndex], leg.hasToe ? Driver::Stick : Driver::Triangle, leg.hasToe ? leg.footStick : leg.lowerTri);
    return true;
}

bool Builder::run()
{
    const QuadrupedMapping& q = mMap;
    mBound.assign(mD.bones.size(), 0);
    const Vec3 pelvisJ = joint(q.pelvis), chestJ = joint(q.chest);
    const Vec3 hipL = joint(q.legs[kHindLeft][0]), hipR = joint(q.legs[kHindRight][0]);
    const Vec3 shL = joint(q.legs[kFrontLeft][0]), shR = joint(q.legs[kFrontRight][0]);
    const float bodyLength = length((shL + shR) * 0.5f - (hipL + hipR) * 0.5f);
    if (!(bodyLength > 1e-4f))
        return fail("the shoulders and the hips are at the same place");

    // ---- the trunk: the mid-spine particle half way along the spine chain from the pelvis to the chest
    std::vector<Vec3> path{pelvisJ};
    for (std::int32_t b : q.spine)
        path.push_back(joint(b));
    path.push_back(chestJ);
    float total = 0.f, walked = 0.f;
    for (std::size_t i = 0; i + 1 < path.size(); ++i)
        total += length(path[i + 1] - path[i]);
    Vec3 spineP = ((hipL + hipR) * 0.5f + (shL + shR) * 0.5f) * 0.5f;
    for (std::size_t i = 0; i + 1 < path.size() && total > 1e-4f; ++i) {
        const float seg = length(path[i + 1] - path[i]);
        if (seg > 0.f && walked + seg >= 0.5f * total) {
            spineP = lerp(path[i], path[i + 1], (0.5f * total - walked) / seg);
            break;
        }
        walked += seg;
    }
    std::vector<std::int32_t> trunk = q.spine;
    trunk.push_back(q.pelvis);
    trunk.push_back(q.chest);
    const float torsoR = fit(trunk, (hipL + hipR) * 0.5f, (shL + shR) * 0.5f, 0.2f * bodyLength, "torso");
    const std::int32_t spineBone = q.spine.empty() ? q.pelvis : q.spine[q.spine.size() / 2];
    particle("hip_l", hipL, 0.f, q.legs[kHindLeft][0]);       // 0
    particle("hip_r", hipR, 0.f, q.legs[kHindRight][0]);      // 1
    particle("spine", spineP, torsoR, spineBone);             // 2
    particle("shoulder_l", shL, 0.f, q.legs[kFrontLeft][0]);  // 3
    particle("shoulder_r", shR, 0.f, q.legs[kFrontRight][0]); // 4
    int pelvisTri = -1, chestTri = -1;
    if (!triangle("pelvis", 0, 1, 2, pelvisTri) || !triangle("chest", 3, 4, 2, chestTri))
        return false;

    // ---- legs
    std::array<Leg, 4> legs;
    for (int k = 0; k < 4; ++k)
        if (!buildLeg(k, legs[std::size_t(k)]))
            return false;
    mD.particles[0].radius = 0.9f * legs[kHindLeft].upperR;
    mD.particles[1].radius = 0.9f * legs[kHindRight].upperR;
    mD.particles[3].radius = 0.9f * legs[kFrontLeft].upperR;
    mD.particles[4].radius = 0.9f * legs[kFrontRight].upperR;
    stick("pelvis", 0, 1, 0.5f * (legs[kHindLeft].upperR + legs[kHindRight].upperR));
    stick("back_l", 0, 2, 0.9f * torsoR);
    stick("back_r", 1, 2, 0.9f * torsoR);
    stick("shoulders", 3, 4, 0.5f * (legs[kFrontLeft].upperR + legs[kFrontRight].upperR));
    stick("chest_l", 3, 2, torsoR);
    stick("chest_r", 4, 2, torsoR);
    addJoint("spine", pelvisTri, chestTri, mMap.forward, mMap.left, radians(-15.f), radians(15.f), radians(25.f), radians(20.f));
    for (int k = 0; k < 4; ++k) {
        const Leg& leg = legs[std::size_t(k)];
        const bool front = k == kFrontLeft || k == kFrontRight;
        addJoint(std::string(legName(k)) + (front ? "_shoulder" : "_hip"), front ? chestTri : pelvisTri, leg.upperTri,
              leg.knee - leg.hip, mMap.left, radians(-20.f), radians(20.f), radians(70.f), radians(25.f));
    }

    // ---- neck and head: the neck base braced to the chest, a head triangle on a swing/twist joint
    int pNeck = -1, pHead = -1, pNose = -1, neckStick = -1, headTri = -1;
    if (q.head != rig::kNone) {
        const Vec3 headJ = joint(q.head);
        const Vec3 neckP = q.neck.empty() ? lerp(chestJ, headJ, 0.5f) : joint(q.neck.front());
        Vec3 noseP = headJ;
        for (std::size_t i = 0; i < mD.bones.size(); ++i)
            if (mTree.isAncestorOrSelf(q.head, std::int32_t(i)) && length(joint(std::int32_t(i)) - headJ) > length(noseP - headJ))
                noseP = joint(std::int32_t(i));
        if (length(noseP - headJ) < 0.05f * bodyLength) {
            float ahead = 0.f;
            for (const Vec3& v : mIn.boneVertices[std::size_t(q.head)])
                ahead = std::max(ahead, dot(v - headJ, mMap.forward));
            noseP = headJ + mMap.forward * (ahead > 0.05f * bodyLength ? ahead : 0.3f * bodyLength);
        }
        Vec3 headP = headJ;
        if (length(headP - neckP) < 0.05f * bodyLength)
            headP = lerp(headJ, noseP, 0.4f);
        const Vec3 e1 = headP - neckP, e2 = noseP - neckP;
        if (length(cross(e1, e2)) < 0.1f * lengthSquared(e2))
            headP += mMap.up * (0.15f * length(e2));
        std::vector<std::int32_t> headBones;
        for (std::size_t i = 0; i < mD.bones.size(); ++i)
            if (mTree.isAncestorOrSelf(q.head, std::int32_t(i)))
                headBones.push_back(std::int32_t(i));
        const float headR = fit(headBones, headP, noseP, 0.3f * length(noseP - headP), "head");
        const float neckR = fit(q.neck, neckP, headP, 0.6f * torsoR, "neck");
        pNeck = particle("neck", neckP, 0.8f * neckR, q.neck.empty() ? q.head : q.neck.front());
        pHead = particle("head", headP, headR, q.head);
        pNose = particle("nose", noseP, 0.5f * headR, q.head);
        if (!triangle("head", pNeck, pHead, pNose, headTri))
            return false;
        stick("neck_l", pNeck, 3);
        stick("neck_r", pNeck, 4);
        stick("neck_spine", pNeck, 2);
        neckStick = stick("neck", pNeck, pHead, neckR);
        stick("head_nose", pHead, pNose, 0.7f * headR);
        stick("nose_neck", pNose, pNeck);
        addJoint("neck", chestTri, headTri, headP - neckP, mMap.left, radians(-40.f), radians(40.f), radians(45.f), radians(35.f));
    }

    // ---- tail: capsule sticks from a base braced to the pelvis, bend ranges at each joint
    std::vector<int> tailP;
    std::vector<std::pair<std::int32_t, int>> tailBones; // bone, segment stick
    for (std::size_t i = 0; i < q.tail.size(); ++i) {
        const Vec3 at = joint(q.tail[i]);
        if (!tailP.empty() && length(at - pos(tailP.back())) < 0.03f * bodyLength)
            continue;
        tailP.push_back(particle("tail" + std::to_string(tailP.size()), at, 0.f, q.tail[i]));
        if (tailP.size() >= 2) {
            const int a = tailP[tailP.size() - 2], b = tailP.back();
            const std::int32_t bone = mD.particles[std::size_t(a)].bone;
            const float r = fit({bone}, pos(a), pos(b), 0.12f * length(pos(b) - pos(a)), "tail");
            tailBones.push_back({bone, stick(mD.bones[std::size_t(bone)].name, a, b, r)});
            mD.particles[std::size_t(a)].radius = std::max(mD.particles[std::size_t(a)].radius, r);
            mD.particles[std::size_t(b)].radius = r;
        }
    }
    if (tailP.size() >= 2) {
        stick("tail_base_l", tailP[0], 0);
        stick("tail_base_r", tailP[0], 1);
        stick("tail_base_spine", tailP[0], 2);
        for (std::size_t i = 0; i + 1 < tailP.size(); ++i)
            bend("tail_bend" + std::to_string(i), tailP[i], i == 0 ? 2 : tailP[i - 1], tailP[i + 1], radians(35.f));
    } else if (!tailP.empty()) {
        mD.particles.pop_back(); // a tail of one joint is no tail
        tailP.clear();
    }

    // ---- self-collision ranges: paws and knees never cross
    auto apart = [&](const std::string& name, int a, int b) {
        const float want = mD.particles[std::size_t(a)].radius + mD.particles[std::size_t(b)].radius;
        mD.sticks.push_back(makeMinDistance(name, a, b, std::min(want, 0.95f * length(pos(b) - pos(a)))));
    };
    apart("front_paws_apart", legs[kFrontLeft].pAnkle, legs[kFrontRight].pAnkle);
    apart("hind_paws_apart", legs[kHindLeft].pAnkle, legs[kHindRight].pAnkle);
    apart("front_knees_apart", legs[kFrontLeft].pKnee, legs[kFrontRight].pKnee);
    apart("hind_knees_apart", legs[kHindLeft].pKnee, legs[kHindRight].pKnee);
    apart("paws_apart_l", legs[kFrontLeft].pAnkle, legs[kHindLeft].pAnkle);
    apart("paws_apart_r", legs[kFrontRight].pAnkle, legs[kHindRight].pAnkle);

    // ---- masses: fractions of a dog's segments, no particle under a tenth of the heaviest
    std::vector<float> mass(mD.particles.size(), 0.f);
    auto share = [&](float fraction, std::initializer_list<std::pair<int, float>> parts) {
        for (const auto& [p, f] : parts)
            if (p >= 0)
                mass[std::size_t(p)] += fraction * f;
    };
    share(0.20f, {{0, 0.35f}, {1, 0.35f}, {2, 0.3f}});
    share(0.30f, {{3, 0.3f}, {4, 0.3f}, {2, 0.2f}, {pNeck >= 0 ? pNeck : 2, 0.2f}});
    if (pHead >= 0)
        share(0.07f, {{pHead, 0.6f}, {pNose, 0.15f}, {pNeck, 0.25f}});
    for (int k = 0; k < 4; ++k) {
        const Leg& l = legs[std::size_t(k)];
        const float s = k < 2 ? 1.f : 1.2f; // hind legs carry more muscle
        share(0.04f * s, {{l.pHip, 0.5f}, {l.pKnee, 0.35f}, {l.pAxis, 0.15f}});
        share(0.018f * s, {{l.pKnee, 0.5f}, {l.pAnkle, 0.5f}});
        share(0.007f * s, {{l.pAnkle, l.hasToe ? 0.5f : 1.f}, {l.pToe, 0.5f}});
    }
    for (int p : tailP)
        mass[std::size_t(p)] += 0.03f / float(tailP.size());
    const float heaviest = *std::max_element(mass.begin(), mass.end());
    for (std::size_t i = 0; i < mass.size(); ++i)
        mD.particles[i].mass = std::max(mass[i], heaviest / 10.f);
    normaliseMasses(mD, mIn.totalMass);

    // ---- bindings: trunk bones by the half of the spine they are in; then everything else follows
    bind(q.pelvis, Driver::Triangle, pelvisTri);
    bind(q.chest, Driver::Triangle, chestTri);
    for (std::int32_t b : q.spine)
        bind(b, Driver::Triangle, dot(joint(b) - spineP, mMap.forward) < 0.f ? pelvisTri : chestTri);
    for (std::int32_t b : q.neck)
        bind(b, Driver::Stick, neckStick);
    bind(q.head, Driver::Triangle, headTri);
    for (const auto& [bone, s] : tailBones)
        bind(bone, Driver::Stick, s);
    std::vector<std::int32_t> following;
    for (std::size_t i = 0; i < mD.bones.size(); ++i)
        if (!mBound[i])
            following.push_back(std::int32_t(i));
    if (!following.empty())
        mOut.notes.push_back("bones that follow their parent: " + listBones(mD.bones, following));
    if (!mProportional.empty()) {
        std::string note = "no skinned vertices for ";
        for (std::size_t i = 0; i < mProportional.size(); ++i)
            note.append(i ? ", " : "").append(mProportional[i]);
        mOut.notes.push_back(note + ": radii from proportions of the bone lengths");
    }
    mD.settings.selfCollision = true;
    resolveBindOverlaps(mD, mOut.notes);
    return true;
}

} // namespace

bool buildQuadruped(const plugin::TemplateInput& in, const QuadrupedMapping& map, plugin::TemplateResult& out)
{
    return Builder(in, map, out).run();
}

} // namespace marionette::plugins
