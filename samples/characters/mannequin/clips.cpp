// The mannequin's animation clips.
//
// Four clips on the skeleton, keyed at 30 frames per second with LINEAR interpolation: idle, walk, getup_back
// and getup_front, the clips a powered ragdoll of the mannequin's rig (mannequin.mproj) is driven with. Only
// the bones that own a part of the rig turn: Hips (translation and rotation), Spine1, Head, the arms,
// forearms, thighs and shins; Spine, Neck, the shoulders, hands, feet and toes keep their bind rotation. The
// elbows and knees bend about the hinge axes the rig gives them, and every joint stays inside the rig's
// limits; the rig's particle spheres stay on or above the floor (y = 0). The arms hang 30° out from the sides
// (standing, walking, lying, kneeling), clear of the rig's pelvis capsule (radius 23 cm), so no two of the
// capsules the rig collides with each other overlap in any frame. No joint moves more than 6 cm in 1/60 s in
// idle and the get-ups (8 cm in the walk, whose swing foot peaks at 7): a limb swinging from down to up goes
// round through pointing out to the side, and the rolls and the stride take their time. makeClips (at the end)
// samples them at kFps.
//
// The numbers are computed in double with maths.cpp's sine, cosine and arctangent (+, −, ×, ÷ and √ only, no
// libm), then rounded to float by the writer, so the same bytes come out on every machine.
#include "mannequin.h"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

namespace mannequin {

[[noreturn]] void fail(const char* what, double t)
{
    std::fprintf(stderr, "make_mannequin: %s at %.3f s\n", what, t);
    std::exit(1);
}

// ---- Limbs ----
// Left-side parameters; the right side gives its own in mirrored coordinates (x outward) and mirrors the
// rotation back.

namespace { // the clips' own helpers

/// A limb bone's rotation turning its rest direction `rest` to `dir`, then about `dir` until its local +Z
/// (the side its joint bends away from or toward) faces `toward` as nearly as it can.
Q aimed(D3 rest, D3 dir, D3 toward)
{
    const D3 d = normalized(dir);
    const Q swing = fromTo(rest, d);
    const D3 f0 = rotate(swing, {0, 0, 1});
    const D3 h = toward - d * dot(toward, d);
    if (length(h) < 1e-9)
        return swing;
    const double twist = datan2(dot(cross(f0, h), d), dot(f0, h));
    return axisAngle(d, twist) * swing;
}
/// The upper arm's rotation in the chest's frame pointing along `dir` (x outward), turned about its own axis
/// so the elbow, which bends the forearm toward the upper arm's local +Z (about its −Y: the rig's hinge),
/// bends it toward `bend`.
Q armRotation(D3 dir, D3 bend) { return aimed({1, 0, 0}, dir, bend); }
/// The thigh's rotation in the pelvis' frame pointing along `dir` (x outward), turned about its axis so the
/// knee (which bends the shin toward the thigh's local −Z) points toward `knee`.
Q legRotation(D3 dir, D3 knee) { return aimed({0, -1, 0}, dir, knee); }
Q elbow(double degrees) { return axisAngle({0, -1, 0}, degrees * kDeg); } // left; mirrored for the right
Q knee(double degrees) { return axisAngle({1, 0, 0}, degrees * kDeg); }   // both sides

constexpr double kThigh = 0.41; // hip–knee, as long as knee–ankle in the bind pose

/// Two-bone leg reaching from the hip joint (world) to the ankle target (world): sets the thigh (in the
/// pelvis' frame `pelvis`) and the knee, the knee bending in the leg's sagittal plane.
void reach(Pose& pose, int upLeg, int leg, Q pelvis, D3 hip, D3 ankle, double t)
{
    const D3 d = ankle - hip;
    const double D = length(d);
    const double most = 2.0 * kThigh * dcos(0.5 * 4.0 * kDeg); // the knee stays bent at least 4°
    if (!(D <= most))
        fail("a leg cannot reach its foot", t);
    const double k = 2.0 * dacos(D / (2.0 * kThigh));
    const double side = datan2(d.x, -d.y);
    const double pitch = datan2(d.z, std::sqrt(d.x * d.x + d.y * d.y));
    const Q thigh = axisAngle({0, 0, 1}, side) * axisAngle({1, 0, 0}, -(pitch + 0.5 * k));
    pose.local[upLeg] = conj(pelvis) * thigh;
    pose.local[leg] = axisAngle({1, 0, 0}, k);
}

D3 hipJoint(const Pose& pose, int upLeg)
{
    return pose.root + rotate(pose.local[kHips], toD3(kJoints[upLeg].at) - toD3(kJoints[kHips].at));
}

/// Arms hanging at the sides: abducted `out` degrees from the vertical, swung `forward` degrees about the
/// shoulder axis, elbow bent forward.
void hangArms(Pose& pose, double outL, double forwardL, double elbowL, double outR, double forwardR, double elbowR)
{
    auto dir = [](double out, double forward) {
        const D3 hang{dsin(out * kDeg), -dcos(out * kDeg), 0};
        return rotate(axisAngle({1, 0, 0}, -forward * kDeg), hang);
    };
    pose.local[kLArm] = armRotation(dir(outL, forwardL), {0, 0, 1});
    pose.local[kLForeArm] = elbow(elbowL);
    pose.local[kRArm] = mirrored(armRotation(dir(outR, forwardR), {0, 0, 1}));
    pose.local[kRForeArm] = mirrored(elbow(elbowR));
}

// ---- idle: 4 s, standing, breathing twice and shifting the weight from foot to foot once ----
Pose idlePose(int frame)
{
    const double t = double(frame) / kFps;
    const double shift = 2.0 * kPi * t / 4.0, breath = 2.0 * kPi * t / 2.0;
    Pose p;
    const double roll = 1.5 * dsin(shift);
    p.root = {0.015 * dsin(shift), 0.946 + 0.002 * dcos(2.0 * shift), 0.0};
    p.local[kHips] = yawPitchRoll(2.0 * dsin(shift + 0.5), 2.0, roll);
    p.local[kSpine1] = yawPitchRoll(-1.5 * dsin(shift + 0.5), -1.0 + 1.2 * dsin(breath), -0.8 * roll);
    p.local[kHead] = yawPitchRoll(4.0 * dsin(shift - 0.8), 1.5 + 1.0 * dsin(breath + 1.0), 0.0);
    hangArms(p, 30.0 + 1.5 * dsin(breath), 4.0, 14.0 + 2.0 * dsin(shift), 30.0 + 1.5 * dsin(breath), 4.0,
             14.0 - 2.0 * dsin(shift));
    reach(p, kLUpLeg, kLLeg, p.local[kHips], hipJoint(p, kLUpLeg), {0.1, 0.09, 0.0}, t);
    reach(p, kRUpLeg, kRLeg, p.local[kHips], hipJoint(p, kRUpLeg), {-0.1, 0.09, 0.0}, t);
    return p;
}

// ---- walk: 4 cycles of 1.1 s (33 frames), 1.2 m/s along +Z ----
constexpr int kWalkCycleFrames = 33, kWalkCycles = 4;
constexpr double kStride = 1.32;  // two steps: 1.2 m/s × 1.1 s
constexpr double kStance = 0.55;  // of the cycle a foot is down (double support 5% twice)
constexpr double kAnkleY = 0.09;  // the ankle's height standing (its sphere 3.4 mm above the floor)

/// The ankle of a foot whose stance starts at cycle phase 0 of cycle `cycle`, at phase `phase` in [0, 1).
D3 footAt(double x, int cycle, double phase)
{
    const double planted = kStride * (double(cycle) + 0.5 * kStance); // under the pelvis mid-stance
    if (phase < kStance)
        return {x, kAnkleY, planted};
    const double s = (phase - kStance) / (1.0 - kStance);
    // Forward along a cubic that leaves the floor at a third of the body's speed and lands at rest; up along
    // half a sine steepened at the start (the heel comes up before the foot swings), at most 8 cm.
    const double along = 0.6 * (s - 2.0 * s * s + s * s * s) + s * s * (3.0 - 2.0 * s);
    const double lift = 0.05 * dsin(kPi * s) * (1.0 + 2.0 * (1.0 - s) * (1.0 - s));
    return {x, kAnkleY + lift, planted + kStride * along};
}

Pose walkPose(int frame)
{
    const double t = double(frame) / kFps;
    const int cycle = frame / kWalkCycleFrames;
    const double phase = double(frame % kWalkCycleFrames) / kWalkCycleFrames;
    // w: the cycle's phase angle (0 when the left foot lands); mid: the same centred on the double supports,
    // where the pelvis is lowest (0.025 and 0.525 of the cycle).
    const double w = 2.0 * kPi * phase, mid = w - kPi * (kStance - 0.5);
    Pose p;
    const double yaw = -7.0 * dcos(w), roll = 3.0 * dsin(mid);
    p.root = {0.015 * dsin(mid), 0.878 - 0.02 * dcos(2.0 * mid), kStride * double(frame) / kWalkCycleFrames};
    p.local[kHips] = yawPitchRoll(yaw, 4.0, roll);
    p.local[kSpine1] = yawPitchRoll(-1.4 * yaw, -1.5, -roll);
    p.local[kHead] = yawPitchRoll(0.4 * yaw, 2.0, 0.0);
    const double swing = 18.0 * dcos(w); // the right arm forward when the left foot lands
    hangArms(p, 30.0, -swing, 16.0 - 8.0 * swing / 18.0, 30.0, swing, 16.0 + 8.0 * swing / 18.0);
    const double right = phase < 0.5 ? phase + 0.5 : phase - 0.5;
    const int rightCycle = phase < 0.5 ? cycle - 1 : cycle;
    D3 footL = footAt(0.1, cycle, phase), footR = footAt(-0.1, rightCycle, right);
    footR.z += 0.5 * kStride;
    reach(p, kLUpLeg, kLLeg, p.local[kHips], hipJoint(p, kLUpLeg), footL, t);
    reach(p, kRUpLeg, kRLeg, p.local[kHips], hipJoint(p, kRUpLeg), footR, t);
    return p;
}

// ---- get-ups: key poses, eased between (smoothstep), the root set down so the lowest sphere touches ----

/// A key pose of a get-up. Angles in degrees; limb directions in the parent's frame with x outward (the right
/// side mirrored); the root's height is not keyed: each frame is set down until its lowest sphere touches the
/// floor, then raised by `lift`.
struct Key {
    double t = 0;
    double x = 0, z = 0;                          // root
    double yaw = 0, pitch = 0, roll = 0, spin = 0; // root: yaw about Y, pitch about X, roll about Z, spin about
                                                   // the body's own long axis (applied first)
    double chestPitch = 0, chestYaw = 0, chestRoll = 0;
    double headPitch = 0, headYaw = 0, headRoll = 0;
    D3 armL{1, 0, 0}, bendL{0, 0, 1};
    double elbowL = 0;
    D3 armR{1, 0, 0}, bendR{0, 0, 1};
    double elbowR = 0;
    D3 legL{0, -1, 0}, kneeL{0, 0, 1};
    double kneeLDeg = 0;
    D3 legR{0, -1, 0}, kneeR{0, 0, 1};
    double kneeRDeg = 0;
    double lift = 0;
};

Pose keyPose(const Key& k)
{
    Pose p;
    p.root = {k.x, 0.0, k.z};
    p.local[kHips] = yawPitchRoll(k.yaw, k.pitch, k.roll) * axisAngle({0, 1, 0}, k.spin * kDeg);
    p.local[kSpine1] = yawPitchRoll(k.chestYaw, k.chestPitch, k.chestRoll);
    p.local[kHead] = yawPitchRoll(k.headYaw, k.headPitch, k.headRoll);
    p.local[kLArm] = armRotation(k.armL, k.bendL);
    p.local[kLForeArm] = elbow(k.elbowL);
    p.local[kRArm] = mirrored(armRotation(k.armR, k.bendR));
    p.local[kRForeArm] = mirrored(elbow(k.elbowR));
    p.local[kLUpLeg] = legRotation(k.legL, k.kneeL);
    p.local[kLLeg] = knee(k.kneeLDeg);
    p.local[kRUpLeg] = mirrored(legRotation(k.legR, k.kneeR));
    p.local[kRLeg] = knee(k.kneeRDeg);
    p.root.y = k.lift - lowestBottom(p);
    return p;
}

Key blend(const Key& a, const Key& b, double s)
{
    auto mix = [s](double u, double v) { return u + (v - u) * s; };
    Key k;
    k.t = mix(a.t, b.t);
    k.x = mix(a.x, b.x), k.z = mix(a.z, b.z);
    k.yaw = mix(a.yaw, b.yaw), k.pitch = mix(a.pitch, b.pitch), k.roll = mix(a.roll, b.roll);
    k.spin = mix(a.spin, b.spin);
    k.chestPitch = mix(a.chestPitch, b.chestPitch), k.chestYaw = mix(a.chestYaw, b.chestYaw);
    k.chestRoll = mix(a.chestRoll, b.chestRoll);
    k.headPitch = mix(a.headPitch, b.headPitch), k.headYaw = mix(a.headYaw, b.headYaw);
    k.headRoll = mix(a.headRoll, b.headRoll);
    k.armL = lerp(a.armL, b.armL, s), k.bendL = lerp(a.bendL, b.bendL, s), k.elbowL = mix(a.elbowL, b.elbowL);
    k.armR = lerp(a.armR, b.armR, s), k.bendR = lerp(a.bendR, b.bendR, s), k.elbowR = mix(a.elbowR, b.elbowR);
    k.legL = lerp(a.legL, b.legL, s), k.kneeL = lerp(a.kneeL, b.kneeL, s), k.kneeLDeg = mix(a.kneeLDeg, b.kneeLDeg);
    k.legR = lerp(a.legR, b.legR, s), k.kneeR = lerp(a.kneeR, b.kneeR, s), k.kneeRDeg = mix(a.kneeRDeg, b.kneeRDeg);
    k.lift = mix(a.lift, b.lift);
    return k;
}

/// The get-up at `frame`: its keys eased with smoothstep; the last frame is the bind pose exactly.
Pose getupPose(const std::vector<Key>& keys, int frame)
{
    const double t = double(frame) / kFps;
    std::size_t i = 0;
    while (i + 2 < keys.size() && t > keys[i + 1].t)
        ++i;
    const Key& a = keys[i];
    const Key& b = keys[i + 1];
    double u = (t - a.t) / (b.t - a.t);
    u = u < 0.0 ? 0.0 : (u > 1.0 ? 1.0 : u);
    if (frame == int(keys.back().t * kFps + 0.5)) {
        Pose bind;
        bind.root.z = keys.back().z;
        return bind;
    }
    return keyPose(blend(a, b, u * u * (3.0 - 2.0 * u)));
}

// Lying face down, head toward +Z, arms 30° out from the sides: how a ragdoll comes to rest on its front.
Key proneKey()
{
    Key k;
    // On the belly (the rig's spine particle, ahead of the hips, is the trunk's lowest), the head turned aside
    // (about the neck particle's vertical: the head triangle keeps its shape) and raised a little.
    k.pitch = 88.0;
    k.chestPitch = 4.0;
    k.headPitch = -10.0, k.headYaw = 55.0;
    k.armL = k.armR = {0.5, -0.866, 0.05}, k.elbowL = k.elbowR = 5.0;
    k.legL = k.legR = {0.03, -1.0, 0.0}, k.kneeLDeg = k.kneeRDeg = 3.0;
    k.lift = 0.004; // between the keys the limbs cut their arcs' corners by a few millimetres
    return k;
}

/// From lying face down (`start`) to standing: hands beside the chest, push up onto the knees, kneel up, the
/// left foot forward, stand up over it and bring the right foot beside it. Times from `t0`; `quick` scales the
/// phases whose joints move slowly (the push-up and the last step), not the kneeling up and the stride.
void pushUpAndStand(std::vector<Key>& keys, const Key& start, double t0, double quick)
{
    Key k = start;
    // Hands beside the chest, elbows up, knees starting to bend.
    k.t = t0 += 0.45;
    k.headYaw = 0.0, k.headPitch = -10.0;
    k.armL = k.armR = {0.3, -0.85, -0.4}, k.bendL = k.bendR = {0, 0.5, 1}, k.elbowL = k.elbowR = 110.0;
    k.kneeLDeg = k.kneeRDeg = 12.0;
    keys.push_back(k);
    // Pushed up on straight arms and the knees, shins on the floor.
    k.t = t0 += quick * 0.55;
    k.z = -0.06, k.pitch = 60.0, k.chestPitch = 0.0, k.headPitch = -8.0;
    k.armL = k.armR = {0.26, -0.48, 0.84}, k.bendL = k.bendR = {-1, 0.3, 0.3}, k.elbowL = k.elbowR = 10.0;
    k.legL = k.legR = {0.03, -1.0, 0.0}, k.kneeLDeg = k.kneeRDeg = 30.0;
    keys.push_back(k);
    // Kneeling upright.
    k.t = t0 += 0.55;
    k.z = -0.45, k.pitch = 5.0, k.headPitch = 0.0;
    k.armL = k.armR = {0.5, -0.866, 0.1}, k.bendL = k.bendR = {0, 0, 1}, k.elbowL = k.elbowR = 20.0;
    k.legL = k.legR = {0.03, -1.0, 0.05}, k.kneeLDeg = k.kneeRDeg = 86.0;
    keys.push_back(k);
    // The left foot forward (half kneeling).
    k.t = t0 += 0.65;
    k.z = -0.45, k.pitch = 8.0;
    k.legL = {0.05, -0.34, 0.94}, k.kneeLDeg = 40.0;
    keys.push_back(k);
    // Standing up over the left foot.
    k.t = t0 += quick * 0.5;
    k.z = 0.0, k.pitch = 5.0;
    k.armL = k.armR = {0.5, -0.86, 0.1}, k.elbowL = k.elbowR = 10.0;
    k.legL = {0.0, -1.0, 0.1}, k.kneeLDeg = 8.0;
    k.legR = {0.0, -1.0, -0.35}, k.kneeRDeg = 10.0;
    keys.push_back(k);
    // Standing in the bind pose.
    Key stand;
    stand.t = t0 += quick * 0.4;
    stand.z = 0.1;
    stand.lift = lowestBottom(Pose{}); // the feet as high as in the bind pose
    keys.push_back(stand);
}

/// A key halfway between `a` and `b` (at `t`) with the right arm out to the side in the parent's frame
/// instead: a swing between pointing down and up (or back) goes round through it rather than straight across.
Key rightArmOut(const Key& a, const Key& b, double t, D3 out)
{
    Key k = blend(a, b, 0.5);
    k.t = t;
    k.armR = out, k.bendR = {0, 0, 1};
    return k;
}

std::vector<Key> getupFrontKeys()
{
    std::vector<Key> keys{proneKey()};
    pushUpAndStand(keys, keys.front(), 0.0, 1.0);
    return keys;
}

std::vector<Key> getupBackKeys()
{
    // Lying on the back, head toward +Z: the prone pose spun half a turn about the body's long axis.
    Key k = proneKey();
    k.x = -0.4, k.spin = 180.0;
    k.pitch = 90.0, k.chestPitch = 4.0;
    k.headPitch = 10.0, k.headYaw = 0.0;
    k.legL = k.legR = {0.03, -1.0, 0.06};
    std::vector<Key> keys{k};
    // The left knee up, the right arm up beside the head (out to the side on the way), the left arm reaching
    // across: rolling to the right.
    Key up = k;
    up.t = 0.65;
    up.spin = 150.0, up.x = -0.35;
    up.armR = {0.26, 0.96, 0.05}, up.elbowR = 10.0;
    up.armL = {0.3, -0.2, 0.93}, up.elbowL = 30.0;
    up.legL = {0.05, -0.7, 0.7}, up.kneeLDeg = 70.0;
    keys.push_back(rightArmOut(k, up, 0.3, {1.0, 0.0, 0.05}));
    keys.push_back(up);
    // On the right side, over the right arm.
    k = up;
    k.t = 1.0;
    k.spin = 90.0, k.x = -0.15, k.headPitch = 0.0;
    k.armL = {0.3, -0.3, 0.9};
    keys.push_back(k);
    // Face down, the left hand already beside the chest.
    Key prone = proneKey();
    prone.t = 1.35;
    prone.x = 0.0, prone.headYaw = 0.0;
    prone.armR = {0.26, 0.96, 0.05}, prone.elbowR = 10.0;
    prone.armL = {0.3, -0.85, -0.4}, prone.bendL = {0, 0.5, 1}, prone.elbowL = 110.0;
    keys.push_back(prone);
    // The right hand brought down beside the chest round the side, then up as from lying face down.
    const std::size_t last = keys.size();
    pushUpAndStand(keys, prone, 1.7, 0.75);
    keys.insert(keys.begin() + std::ptrdiff_t(last), rightArmOut(prone, keys[last], 1.7, {1.0, 0.0, -0.2}));
    return keys;
}

} // namespace

std::vector<Clip> makeClips()
{
    std::vector<Clip> clips;
    Clip idle{"idle", {}};
    for (int f = 0; f <= 4 * kFps; ++f)
        idle.frames.push_back(idlePose(f));
    Clip walk{"walk", {}};
    for (int f = 0; f <= kWalkCycles * kWalkCycleFrames; ++f)
        walk.frames.push_back(walkPose(f));
    clips.push_back(std::move(idle));
    clips.push_back(std::move(walk));
    for (const auto& [name, keys] : {std::pair{"getup_back", getupBackKeys()}, std::pair{"getup_front", getupFrontKeys()}}) {
        Clip c{name, {}};
        const int last = int(keys.back().t * kFps + 0.5);
        for (int f = 0; f <= last; ++f)
            c.frames.push_back(getupPose(keys, f));
        clips.push_back(std::move(c));
    }
    return clips;
}

} // namespace mannequin
