// The humanoid template: the layout of runtime::makeHumanoid() (20 particles, 11 triangles, 10 joints, the
// same element order) placed on the character's own joints, with its own directions, radii and masses.
#include "Templates.h"

#include "marionette/editor/autorig/AutoRigSupport.h"

#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/Rig.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace marionette::editor::autorig {

namespace {

using P = HumanoidPart;
using namespace marionette::runtime; // kHipL, ..., kPelvisTri, ... (the makeHumanoid order)

constexpr float kMaxFlexion = radians(150.f);

/// A limb's hinge: the flexion axis h (positive rotation about h bends the limb), where the axis particle
/// goes, and the bend the bind pose already has.
struct Hinge {
    Vec3 flexAxis;     ///< h, unit
    Vec3 axisParticle; ///< position of the elbow/knee axis particle
    float bend = 0.f;  ///< signed bind bend about h, radians (positive = flexed)
    bool fromBend = false;
};

/// root → mid → end is upper arm + forearm or thigh + shin. Anatomically the limb flexes toward
/// `flexDirection` (forward for elbows, backward for knees); a clear bend in the bind pose (over 10°, within
/// 60° of that direction) gives the exact plane instead. `outward` picks the side the axis particle sits on.
Hinge makeHinge(Vec3 root, Vec3 mid, Vec3 end, Vec3 flexDirection, Vec3 fallbackFlex, Vec3 outward, float offset)
{
    Hinge h;
    const Vec3 parentDir = normalizeOr(mid - root, {0, -1, 0});
    const Vec3 childDir = normalizeOr(end - mid, parentDir);
    const Vec3 anat = flexDirection - parentDir * dot(flexDirection, parentDir);
    const bool anatOk = length(anat) > 0.2f;
    const Vec3 bendVec = childDir - parentDir * dot(childDir, parentDir);
    const float bendSin = length(bendVec);
    Vec3 flex;
    if (bendSin > std::sin(radians(10.f)) && (!anatOk || dot(bendVec / bendSin, normalizeOr(anat, {})) > 0.5f)) {
        flex = bendVec / bendSin;
        h.fromBend = true;
    } else if (anatOk) {
        flex = normalizeOr(anat, {});
    } else {
        flex = normalizeOr(fallbackFlex - parentDir * dot(fallbackFlex, parentDir), anyPerpendicular(parentDir));
    }
    h.flexAxis = normalizeOr(cross(parentDir, flex), anyPerpendicular(parentDir));
    h.bend = std::atan2(dot(cross(parentDir, childDir), h.flexAxis), dot(parentDir, childDir));
    const Vec3 side = dot(h.flexAxis, outward) >= 0.f ? h.flexAxis : -h.flexAxis;
    h.axisParticle = mid + side * offset;
    return h;
}

class HumanoidBuilder {
public:
    HumanoidBuilder(const TemplateInput& in, const HumanoidMapping& m, rig::RigDescription& d,
                    std::vector<std::string>& notes)
        : mIn(in), mMap(m), mD(d), mNotes(notes), mTree(d.bones)
    {
    }

    bool run(std::string* error);

private:
    Vec3 joint(P part) const { return mTree.joint(mMap[part]); }
    float height(Vec3 p) const { return dot(p, mUp); }
    void assignRegions(float spineHeight);
    float fit(P region, Vec3 a, Vec3 b, float fallback, const char* what);
    void addJoint(const char* name, int a, int b, Vec3 twistWorld, Vec3 swingWorld, float twistMin,
                  float twistMax, float swing1, float swing2);
    void bindBones();
    void addDriveProfiles();

    const TemplateInput& mIn;
    const HumanoidMapping& mMap;
    rig::RigDescription& mD;
    std::vector<std::string>& mNotes;
    SkeletonTree mTree;
    Vec3 mUp, mLeft, mForward;
    std::vector<int> mRegion;     ///< HumanoidPart index per bone, -1 outside the body
    std::vector<char> mPrimary;   ///< the bone gets a binding of its own
    std::vector<std::string> mProportional;
    std::array<Mat3, kHumanoidTriangleCount> mFrames;
};

void HumanoidBuilder::assignRegions(float spineHeight)
{
    const std::size_t n = mD.bones.size();
    mRegion.assign(n, -1);
    mPrimary.assign(n, 0);
    auto mark = [&](std::int32_t b, P part) {
        mRegion[std::size_t(b)] = int(part);
        mPrimary[std::size_t(b)] = 1;
    };
    for (std::size_t i = 0; i < kHumanoidPartCount; ++i)
        if (P(i) != P::Spine && P(i) != P::Neck && mMap.bones[i] != rig::kNone)
            mark(mMap.bones[i], P(i));
    for (std::int32_t b : mMap.spine)
        mark(b, height(mTree.joint(b)) < spineHeight ? P::Pelvis : P::Chest);
    for (std::int32_t b : mMap.neck)
        mark(b, P::Neck);
    for (const auto* clav : {&mMap.clavicleL, &mMap.clavicleR})
        for (std::int32_t b : *clav)
            mark(b, P::Chest);
    for (P thigh : {P::ThighL, P::ThighR})
        for (std::int32_t b : mTree.between(mMap[P::Pelvis], mMap[thigh]))
            if (mRegion[std::size_t(b)] < 0)
                mark(b, P::Pelvis);
    for (std::size_t i = 0; i < n; ++i) {
        const std::int32_t p = mTree.parent(std::int32_t(i));
        if (mRegion[i] < 0 && p != rig::kNone && mTree.isAncestorOrSelf(mMap[P::Pelvis], std::int32_t(i)))
            mRegion[i] = mRegion[std::size_t(p)];
    }
}

float HumanoidBuilder::fit(P region, Vec3 a, Vec3 b, float fallback, const char* what)
{
    std::vector<const std::vector<Vec3>*> lists;
    for (std::size_t i = 0; i < mRegion.size(); ++i)
        if (mRegion[i] == int(region) && !mIn.vertices[i].empty())
            lists.push_back(&mIn.vertices[i]);
    bool fitted = false;
    const float r = fitRadius(lists, a, b, fallback, 0.3f * fallback, 3.f * fallback, &fitted);
    if (!fitted)
        mProportional.emplace_back(what);
    return r;
}

void HumanoidBuilder::addJoint(const char* name, int a, int b, Vec3 twistWorld, Vec3 swingWorld, float twistMin,
                               float twistMax, float swing1, float swing2)
{
    mD.angular.push_back(makeSwingTwist(name, a, b, mFrames[std::size_t(b)], twistWorld, swingWorld, mUp, twistMin,
                                        twistMax, swing1, swing2));
}

bool HumanoidBuilder::run(std::string* error)
{
    // ---- the character's own directions and size
    const Vec3 hipL = joint(P::ThighL), hipR = joint(P::ThighR), shL = joint(P::UpperArmL), shR = joint(P::UpperArmR);
    const Vec3 headJ = joint(P::Head), pelvisJ = joint(P::Pelvis);
    mUp = normalizeOr(headJ - pelvisJ, {0, 1, 0});
    const Vec3 across = normalizeOr(hipL - hipR, {}) + normalizeOr(shL - shR, {});
    mLeft = normalizeOr(across - mUp * dot(across, mUp), anyPerpendicular(mUp));
    mForward = cross(mLeft, mUp);
    const Vec3 ankleMid = (joint(P::FootL) + joint(P::FootR)) * 0.5f;
    const float H = height(headJ - ankleMid) / 0.83f; // head joint at ~87 % of the height, ankles at ~4 %
    if (!(H > 1e-4f)) {
        *error = "humanoid template: the head is not above the feet";
        return false;
    }
    const Vec3 hipMid = (hipL + hipR) * 0.5f, shMid = (shL + shR) * 0.5f;
    const Vec3 neckP = mMap[P::Neck] != rig::kNone ? joint(P::Neck) : headJ;

    // Spine particle: on the trunk chain at 45 % of the way from the hips up to the shoulders, and off the
    // plane of the shoulders and neck so the chest's four points are not flat.
    std::vector<Vec3> trunk{pelvisJ};
    for (std::int32_t b : mMap.spine)
        trunk.push_back(mTree.joint(b));
    trunk.push_back(joint(P::Chest));
    for (std::int32_t b : mMap.neck)
        trunk.push_back(mTree.joint(b));
    trunk.push_back(headJ);
    const float target = height(hipMid) + 0.45f * height(shMid - hipMid);
    Vec3 spineP = lerp(hipMid, shMid, 0.45f);
    for (std::size_t i = 0; i + 1 < trunk.size(); ++i) {
        const float ha = height(trunk[i]), hb = height(trunk[i + 1]);
        if (ha <= target && hb >= target && hb > ha) {
            spineP = lerp(trunk[i], trunk[i + 1], (target - ha) / (hb - ha));
            break;
        }
    }
    {
        Vec3 nrm = normalizeOr(cross(shL - shR, neckP - shMid), mForward);
        if (dot(nrm, mForward) < 0.f)
            nrm = -nrm;
        const float off = dot(spineP - shMid, nrm);
        if (std::fabs(off) < 0.015f * H)
            spineP += nrm * (0.017f * H - off);
    }
    assignRegions(height(spineP));

    // ---- head
    const std::int32_t headBone = mMap[P::Head];
    std::vector<const std::vector<Vec3>*> headVerts;
    for (std::size_t i = 0; i < mRegion.size(); ++i)
        if (mRegion[i] == int(P::Head) && !mIn.vertices[i].empty())
            headVerts.push_back(&mIn.vertices[i]);
    float headLen = 0.f;
    {
        std::vector<float> up;
        for (const auto* l : headVerts)
            for (const Vec3& v : *l)
                up.push_back(height(v - headJ));
        headLen = quantile(up, 0.97f);
        if (headLen < 0.09f * H)
            for (std::size_t i = 0; i < mD.bones.size(); ++i)
                if (std::int32_t(i) != headBone && mTree.isAncestorOrSelf(headBone, std::int32_t(i)))
                    headLen = std::max(headLen, height(mTree.joint(std::int32_t(i)) - headJ));
        if (headLen < 0.09f * H)
            headLen = 0.125f * H;
        headLen = std::clamp(headLen, 0.08f * H, 0.2f * H);
    }
    const Vec3 headP = headJ + mUp * (0.55f * headLen);
    float headR = 0.5f * headLen;
    {
        std::vector<float> dist;
        for (const auto* l : headVerts)
            for (const Vec3& v : *l)
                dist.push_back(length(v - headP));
        if (dist.empty())
            mProportional.emplace_back("head");
        else
            headR = std::clamp(quantile(dist, 0.6f), 0.3f * headLen, 0.8f * headLen);
    }
    const Vec3 noseP = headP + mForward * (0.9f * headR) - mUp * (0.7f * headR);

    // ---- limbs and hinges
    const Vec3 elbowL = joint(P::ForearmL), elbowR = joint(P::ForearmR), wristL = joint(P::HandL), wristR = joint(P::HandR);
    const Vec3 kneeL = joint(P::CalfL), kneeR = joint(P::CalfR), ankleL = joint(P::FootL), ankleR = joint(P::FootR);
    const Hinge elbowHL = makeHinge(shL, elbowL, wristL, mForward, mUp, mUp + mLeft, 0.22f * length(elbowL - shL));
    const Hinge elbowHR = makeHinge(shR, elbowR, wristR, mForward, mUp, mUp - mLeft, 0.22f * length(elbowR - shR));
    const Hinge kneeHL = makeHinge(hipL, kneeL, ankleL, -mForward, -mUp, mLeft, 0.16f * length(kneeL - hipL));
    const Hinge kneeHR = makeHinge(hipR, kneeR, ankleR, -mForward, -mUp, -mLeft, 0.16f * length(kneeR - hipR));
    const Hinge* hinges[4] = {&elbowHL, &elbowHR, &kneeHL, &kneeHR};
    const char* hingeNames[4] = {"elbow_l", "elbow_r", "knee_l", "knee_r"};
    for (int k = 0; k < 4; ++k)
        if (hinges[k]->fromBend) {
            std::string note = hingeNames[k];
            note.append(": hinge plane taken from the bind pose's bend of ")
                .append(std::to_string(int(std::lround(degrees(hinges[k]->bend)))))
                .append("°");
            mNotes.push_back(std::move(note));
        }

    // ---- radii: fitted to the skinned vertices, else proportions of the bone length
    const float uaL = fit(P::UpperArmL, shL, elbowL, 0.19f * length(elbowL - shL), "upperarm_l");
    const float uaR = fit(P::UpperArmR, shR, elbowR, 0.19f * length(elbowR - shR), "upperarm_r");
    const float faL = fit(P::ForearmL, elbowL, wristL, 0.17f * length(wristL - elbowL), "forearm_l");
    const float faR = fit(P::ForearmR, elbowR, wristR, 0.17f * length(wristR - elbowR), "forearm_r");
    const float thL = fit(P::ThighL, hipL, kneeL, 0.17f * length(kneeL - hipL), "thigh_l");
    const float thR = fit(P::ThighR, hipR, kneeR, 0.17f * length(kneeR - hipR), "thigh_r");
    const float shinL = fit(P::CalfL, kneeL, ankleL, 0.125f * length(ankleL - kneeL), "calf_l");
    const float shinR = fit(P::CalfR, kneeR, ankleR, 0.125f * length(ankleR - kneeR), "calf_r");
    const float torsoR = fit(P::Chest, spineP, neckP, 0.37f * length(neckP - spineP), "chest");
    const float pelvisR = fit(P::Pelvis, hipL, hipR, 0.5f * length(hipL - hipR), "pelvis");
    const float shouldersR = 0.6f * (uaL + uaR);
    auto ankleRadius = [&](P foot, Vec3 ankle, float shin) {
        std::vector<float> below;
        for (std::size_t i = 0; i < mRegion.size(); ++i)
            if (mRegion[i] == int(foot))
                for (const Vec3& v : mIn.vertices[i])
                    below.push_back(height(ankle - v));
        if (below.empty()) {
            mProportional.emplace_back(toString(foot));
            return 1.1f * shin;
        }
        return std::clamp(quantile(below, 0.95f), 0.6f * shin, 2.5f * shin);
    };
    const float ankleRL = ankleRadius(P::FootL, ankleL, shinL), ankleRR = ankleRadius(P::FootR, ankleR, shinR);
    const float kneeRL = 0.5f * (thL + shinL), kneeRR = 0.5f * (thR + shinR);

    // ---- particles (makeHumanoid order), masses by Dempster/Winter segment fractions (docs/autorig.md)
    std::array<float, kHumanoidParticleCount> mass{};
    auto share = [&](float fraction, std::initializer_list<std::pair<int, float>> parts) {
        for (const auto& [p, f] : parts)
            mass[std::size_t(p)] += fraction * f;
    };
    share(0.142f, {{kHipL, 0.4f}, {kHipR, 0.4f}, {kSpine, 0.2f}});                              // pelvis
    share(0.139f, {{kSpine, 1.f}});                                                             // abdomen
    share(0.216f, {{kShoulderL, 0.3f}, {kShoulderR, 0.3f}, {kSpine, 0.2f}, {kNeck, 0.2f}});     // thorax
    share(0.081f, {{kHead, 0.6f}, {kNose, 0.15f}, {kNeck, 0.25f}});                            // head and neck
    for (const auto& [sh, el, ax, wr] : {std::array{kShoulderL, kElbowL, kElbowAxisL, kWristL},
                                         std::array{kShoulderR, kElbowR, kElbowAxisR, kWristR}}) {
        share(0.028f, {{sh, 0.5f}, {el, 0.35f}, {ax, 0.15f}}); // upper arm
        share(0.016f, {{el, 0.5f}, {wr, 0.5f}});               // forearm
        share(0.006f, {{wr, 1.f}});                            // hand
    }
    for (const auto& [hp, kn, ax, an] : {std::array{kHipL, kKneeL, kKneeAxisL, kAnkleL},
                                         std::array{kHipR, kKneeR, kKneeAxisR, kAnkleR}}) {
        share(0.100f, {{hp, 0.5f}, {kn, 0.35f}, {ax, 0.15f}}); // thigh
        share(0.0465f, {{kn, 0.5f}, {an, 0.5f}});              // shank
        share(0.0145f, {{an, 1.f}});                           // foot
    }
    const float M = mIn.totalMass;
    auto add = [&](const char* name, Vec3 p, int index, float radius, std::int32_t bone, std::uint32_t group) {
        mD.particles.push_back(makeParticle(name, p, mass[std::size_t(index)] * M, radius, bone, group));
    };
    add("hip_l", hipL, kHipL, 0.93f * thL, mMap[P::ThighL], 1);
    add("hip_r", hipR, kHipR, 0.93f * thR, mMap[P::ThighR], 1);
    add("spine", spineP, kSpine, 0.6f * torsoR, mMap.spine.empty() ? mMap[P::Chest] : mMap.spine.back(), 1);
    add("shoulder_l", shL, kShoulderL, shouldersR, mMap[P::UpperArmL], 1);
    add("shoulder_r", shR, kShoulderR, shouldersR, mMap[P::UpperArmR], 1);
    add("neck", neckP, kNeck, 0.4f * torsoR, mMap[P::Neck] != rig::kNone ? mMap[P::Neck] : headBone, 1);
    add("head", headP, kHead, headR, headBone, 1);
    add("nose", noseP, kNose, 0.27f * headR, headBone, 1);
    add("elbow_l", elbowL, kElbowL, faL, mMap[P::ForearmL], 2);
    add("elbow_axis_l", elbowHL.axisParticle, kElbowAxisL, 0.45f * faL, rig::kNone, 2);
    add("wrist_l", wristL, kWristL, faL, mMap[P::HandL], 2);
    add("elbow_r", elbowR, kElbowR, faR, mMap[P::ForearmR], 4);
    add("elbow_axis_r", elbowHR.axisParticle, kElbowAxisR, 0.45f * faR, rig::kNone, 4);
    add("wrist_r", wristR, kWristR, faR, mMap[P::HandR], 4);
    add("knee_l", kneeL, kKneeL, kneeRL, mMap[P::CalfL], 8);
    add("knee_axis_l", kneeHL.axisParticle, kKneeAxisL, 0.35f * shinL, rig::kNone, 8);
    add("ankle_l", ankleL, kAnkleL, ankleRL, mMap[P::FootL], 8);
    add("knee_r", kneeR, kKneeR, kneeRR, mMap[P::CalfR], 16);
    add("knee_axis_r", kneeHR.axisParticle, kKneeAxisR, 0.35f * shinR, rig::kNone, 16);
    add("ankle_r", ankleR, kAnkleR, ankleRR, mMap[P::FootR], 16);
    normaliseMasses(mD, M);

    // ---- triangles (makeHumanoid order); limb triangles share the hinge edge (joint, axis particle)
    for (int i = 0; i < kHumanoidTriangleCount; ++i) {
        const runtime::HumanoidPart& part = runtime::kHumanoidParts[i];
        mD.triangles.push_back(makeTriangle(part.name, part.p[0], part.p[1], part.p[2]));
        const Vec3 a = mD.particles[std::size_t(part.p[0])].position, b = mD.particles[std::size_t(part.p[1])].position,
                   c = mD.particles[std::size_t(part.p[2])].position;
        if (!Rig::triangleFrame(a, b, c, mFrames[std::size_t(i)])) {
            *error = "humanoid template: the ";
            error->append(part.name).append(" triangle is degenerate (its joints are in one line)");
            return false;
        }
    }

    // ---- sticks: bones with capsules (groups: torso 1, left arm 2, right arm 4, left leg 8, right leg 16),
    // the bracing of pelvis, chest and head, the limb triangles' axis edges, then self-collision ranges.
    mD.sticks = {
        makeStick("pelvis", kHipL, kHipR, pelvisR, 1),        makeStick("torso", kSpine, kNeck, torsoR, 1),
        makeStick("shoulders", kShoulderL, kShoulderR, shouldersR, 1),
        makeStick("upperarm_l", kShoulderL, kElbowL, uaL, 2), makeStick("forearm_l", kElbowL, kWristL, faL, 2),
        makeStick("upperarm_r", kShoulderR, kElbowR, uaR, 4), makeStick("forearm_r", kElbowR, kWristR, faR, 4),
        makeStick("thigh_l", kHipL, kKneeL, thL, 8),          makeStick("shin_l", kKneeL, kAnkleL, shinL, 8),
        makeStick("thigh_r", kHipR, kKneeR, thR, 16),         makeStick("shin_r", kKneeR, kAnkleR, shinR, 16),
        makeStick("neck_head", kNeck, kHead),
        makeStick("pelvis_spine_l", kHipL, kSpine),           makeStick("pelvis_spine_r", kHipR, kSpine),
        makeStick("chest_spine_l", kShoulderL, kSpine),       makeStick("chest_spine_r", kShoulderR, kSpine),
        makeStick("neck_l", kNeck, kShoulderL),               makeStick("neck_r", kNeck, kShoulderR),
        makeStick("head_nose", kHead, kNose),                 makeStick("nose_neck", kNose, kNeck),
        makeStick("elbow_axis_l", kElbowL, kElbowAxisL),      makeStick("upperarm_axis_l", kShoulderL, kElbowAxisL),
        makeStick("forearm_axis_l", kWristL, kElbowAxisL),    makeStick("elbow_axis_r", kElbowR, kElbowAxisR),
        makeStick("upperarm_axis_r", kShoulderR, kElbowAxisR), makeStick("forearm_axis_r", kWristR, kElbowAxisR),
        makeStick("knee_axis_l", kKneeL, kKneeAxisL),         makeStick("thigh_axis_l", kHipL, kKneeAxisL),
        makeStick("shin_axis_l", kAnkleL, kKneeAxisL),        makeStick("knee_axis_r", kKneeR, kKneeAxisR),
        makeStick("thigh_axis_r", kHipR, kKneeAxisR),         makeStick("shin_axis_r", kAnkleR, kKneeAxisR),
    };
    auto pos = [&](int p) { return mD.particles[std::size_t(p)].position; };
    auto rad = [&](int p) { return mD.particles[std::size_t(p)].radius; };
    auto apart = [&](const char* name, int a, int b, float minLength) {
        mD.sticks.push_back(makeMinDistance(name, a, b, std::min(minLength, 0.95f * length(pos(b) - pos(a)))));
    };
    apart("knees_apart", kKneeL, kKneeR, rad(kKneeL) + rad(kKneeR));
    apart("ankles_apart", kAnkleL, kAnkleR, rad(kAnkleL) + rad(kAnkleR));
    apart("wrist_l_torso", kWristL, kSpine, rad(kWristL) + 0.9f * torsoR);
    apart("wrist_r_torso", kWristR, kSpine, rad(kWristR) + 0.9f * torsoR);
    apart("wrist_l_hip", kWristL, kHipL, rad(kWristL) + 0.8f * rad(kHipL));
    apart("wrist_r_hip", kWristR, kHipR, rad(kWristR) + 0.8f * rad(kHipR));
    apart("wrist_l_head", kWristL, kHead, 0.95f * (rad(kWristL) + headR));
    apart("wrist_r_head", kWristR, kHead, 0.95f * (rad(kWristR) + headR));
    apart("wrists_apart", kWristL, kWristR, 1.1f * (rad(kWristL) + rad(kWristR)));
    apart("elbow_l_spine", kElbowL, kSpine, rad(kElbowL) + 0.75f * torsoR);
    apart("elbow_r_spine", kElbowR, kSpine, rad(kElbowR) + 0.75f * torsoR);

    // ---- joints (makeHumanoid order and limits; axes from this character's directions)
    const Vec3 armL = elbowL - shL, armR = elbowR - shR, legL = kneeL - hipL, legR = kneeR - hipR;
    auto deg = [](float d) { return radians(d); };
    addJoint("spine", kPelvisTri, kChestTri, mUp, mLeft, deg(-20.f), deg(20.f), deg(30.f), deg(20.f));
    addJoint("neck", kChestTri, kHeadTri, mUp, mLeft, deg(-60.f), deg(60.f), deg(40.f), deg(30.f));
    addJoint("shoulder_l", kChestTri, kUpperArmLTri, armL, mForward, deg(-60.f), deg(60.f), deg(80.f), deg(80.f));
    addJoint("shoulder_r", kChestTri, kUpperArmRTri, armR, mForward, deg(-60.f), deg(60.f), deg(80.f), deg(80.f));
    // Hinges: the twist axis is the flexion axis, along the shared edge (joint, axis particle); the range
    // runs from straight (−bind bend, never backwards past it) to 150° of flexion.
    auto hinge = [&](const char* name, int a, int b, const Hinge& h, Vec3 limb) {
        addJoint(name, a, b, h.flexAxis, limb, std::min(0.f, -h.bend), std::max(0.f, kMaxFlexion - h.bend), deg(3.f),
                 deg(3.f));
    };
    hinge("elbow_l", kUpperArmLTri, kForearmLTri, elbowHL, wristL - elbowL);
    hinge("elbow_r", kUpperArmRTri, kForearmRTri, elbowHR, wristR - elbowR);
    addJoint("hip_l", kPelvisTri, kThighLTri, legL, mLeft, deg(-30.f), deg(30.f), deg(90.f), deg(45.f));
    addJoint("hip_r", kPelvisTri, kThighRTri, legR, mLeft, deg(-30.f), deg(30.f), deg(90.f), deg(45.f));
    hinge("knee_l", kThighLTri, kShinLTri, kneeHL, ankleL - kneeL);
    hinge("knee_r", kThighRTri, kShinRTri, kneeHR, ankleR - kneeR);

    bindBones();
    addDriveProfiles();
    if (!mProportional.empty()) {
        std::string note = "no skinned vertices for ";
        for (std::size_t i = 0; i < mProportional.size(); ++i)
            note.append(i ? ", " : "").append(mProportional[i]);
        note.append(": radii from proportions of the bone lengths");
        mNotes.push_back(std::move(note));
    }
    mD.settings.selfCollision = true;
    resolveBindOverlaps(mD, mNotes);
    return true;
}

// The four drive profiles a game starts from (issue "Powered ragdolls"): every part turned toward the animation
// by a motor, the pelvis and the shins also pinned to it (the root holds the body up, the feet stay planted).
// Frequencies as tuned on the mannequin sample: "balanced" tracks a walk within 3 cm and 5°, "stagger" gives way
// to a hit, "stiff" barely does, "limp" is the passive ragdoll.
void HumanoidBuilder::addDriveProfiles()
{
    struct Gains {
        const char* name;
        float motor, pelvisPin, shinPin;
    };
    constexpr Gains kProfiles[] = {{"limp", 0.f, 0.f, 0.f}, {"stagger", 5.f, 5.f, 5.f}, {"balanced", 30.f, 15.f, 8.f},
                                   {"stiff", 60.f, 20.f, 10.f}};
    for (const Gains& g : kProfiles) {
        rig::DriveProfile profile;
        profile.name = g.name;
        profile.defaults.motorFrequency = g.motor;
        auto pinned = [&](int triangle, float pin) {
            if (pin <= 0.f)
                return;
            rig::DrivePart part{rig::DrivePartKind::Triangle, triangle, profile.defaults};
            part.gains.pinFrequency = pin;
            profile.parts.push_back(part);
        };
        pinned(kPelvisTri, g.pelvisPin);
        pinned(kShinLTri, g.shinPin);
        pinned(kShinRTri, g.shinPin);
        mD.driveProfiles.push_back(std::move(profile));
    }
}

void HumanoidBuilder::bindBones()
{
    using Driver = rig::BoneBinding::Driver;
    auto triangleOf = [](P region) -> int {
        switch (region) {
        case P::Pelvis: return kPelvisTri;
        case P::Chest: return kChestTri;
        case P::Head: return kHeadTri;
        case P::UpperArmL: return kUpperArmLTri;
        case P::ForearmL: case P::HandL: return kForearmLTri;
        case P::UpperArmR: return kUpperArmRTri;
        case P::ForearmR: case P::HandR: return kForearmRTri;
        case P::ThighL: return kThighLTri;
        case P::CalfL: case P::FootL: return kShinLTri;
        case P::ThighR: return kThighRTri;
        case P::CalfR: case P::FootR: return kShinRTri;
        default: return -1;
        }
    };
    constexpr std::int32_t kNeckHeadStick = 11;
    std::vector<std::int32_t> outside, fingers, toes, headExtras, limbExtras, bodyExtras;
    for (std::size_t i = 0; i < mD.bones.size(); ++i) {
        const std::int32_t b = std::int32_t(i);
        const int region = mRegion[i];
        if (mPrimary[i] && region == int(P::Neck)) {
            mD.bindings.push_back(makeBinding(mD, b, Driver::Stick, kNeckHeadStick));
            continue;
        }
        if (mPrimary[i] && triangleOf(P(region)) >= 0) {
            mD.bindings.push_back(makeBinding(mD, b, Driver::Triangle, triangleOf(P(region))));
            continue;
        }
        if (region < 0)
            outside.push_back(b);
        else if (region == int(P::HandL) || region == int(P::HandR))
            fingers.push_back(b);
        else if (region == int(P::FootL) || region == int(P::FootR))
            toes.push_back(b);
        else if (region == int(P::Head) || region == int(P::Neck))
            headExtras.push_back(b);
        else if (region == int(P::Pelvis) || region == int(P::Chest))
            bodyExtras.push_back(b);
        else
            limbExtras.push_back(b);
    }
    auto note = [&](const std::vector<std::int32_t>& bones, const char* what) {
        if (bones.empty())
            return;
        std::string s = what;
        s.append(": ").append(listBones(mD.bones, bones));
        mNotes.push_back(std::move(s));
    };
    note(fingers, "fingers follow the hand");
    note(toes, "toes follow the foot");
    note(headExtras, "head bones follow their parent");
    note(limbExtras, "twist and segment bones follow their parent");
    note(bodyExtras, "extra torso bones follow their parent");
    note(outside, "bones outside the body are not driven (a root copies its first driven descendant, the pelvis; "
                  "the others follow their parent)");
}

} // namespace

bool buildHumanoid(const TemplateInput& in, const HumanoidMapping& mapping, rig::RigDescription& out,
                   std::vector<std::string>& notes, std::string* error)
{
    return HumanoidBuilder(in, mapping, out, notes).run(error);
}

} // namespace marionette::editor::autorig
