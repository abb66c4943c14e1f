// From ragdoll back to animation (runtime/PoseBlend.h): how a root lies is compared whatever its heading, a
// clip is turned and moved onto a body, and an offset blend starts at the body's pose, ends on the clip and
// moves every bone by exactly the clip's motion plus a fixed share of its offset, however fast the clip turns.
#include "marionette/runtime/PoseBlend.h"
#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/Rig.h"

#include <QtTest/QtTest>

#include <cmath>
#include <vector>

#include "RuntimeTestSupport.h"

using namespace marionette;
using namespace marionette::runtime;
using namespace marionette::test;

namespace {

Mat4 pose(Quat q, Vec3 t) { return Mat4::fromTransform({q, t}); }
Vec3 at(const Mat4& m) { return {m.m[12], m.m[13], m.m[14]}; }

/// World palette of `rig` from a local rotation per bone (bind translations kept) and a root placement.
std::vector<Mat4> palette(const Rig& rig, const std::vector<Quat>& localTurn, const Transform& root)
{
    const auto bones = rig.bones();
    std::vector<Mat4> out(bones.size());
    for (std::size_t b = 0; b < bones.size(); ++b) {
        const rig::Bone& d = rig.description().bones[b];
        const Mat4 local = Mat4::fromTransform({localTurn[b], at(d.bindLocal)});
        out[b] = bones[b].parent >= 0 ? out[std::size_t(bones[b].parent)] * local : Mat4::fromTransform(root) * local;
    }
    return out;
}

} // namespace

class TestPoseBlend : public QObject {
    Q_OBJECT
private slots:
    void tilt_ignoresHeadingAndSeesFaceUpFromFaceDown();
    void closestTilt_picksTheCandidateLyingTheSameWay();
    void headingAlignment_placesTheClipRootOnTheBody();
    void blend_startsAtTheBodyAndEndsOnTheClip();
    void blend_movesBonesByTheClipPlusAFixedShareOfTheOffset();
    void blend_refusesWrongSizesAndWeights();
};

void TestPoseBlend::tilt_ignoresHeadingAndSeesFaceUpFromFaceDown()
{
    const Quat lying = Quat::fromAxisAngle({1.f, 0.f, 0.f}, radians(-90.f)); // face up (front +Z turned to +Y)
    const Mat4 a = pose(lying, {0.f, 0.1f, 0.f});
    const Mat4 turned = pose(Quat::fromAxisAngle({0.f, 1.f, 0.f}, radians(130.f)) * lying, {2.f, 0.1f, -1.f});
    const Mat4 prone = pose(Quat::fromAxisAngle({1.f, 0.f, 0.f}, radians(90.f)), {0.f, 0.1f, 0.f});
    EXPECT_NEAR(tiltDifference(a, turned), 0.f, 1e-3f);
    EXPECT_NEAR(tiltDifference(a, prone), kPi, 1e-3f);
    EXPECT_NEAR(tiltDifference(a, pose(Quat{}, {})), radians(90.f), 1e-3f);
}

void TestPoseBlend::closestTilt_picksTheCandidateLyingTheSameWay()
{
    const Mat4 up = pose(Quat::fromAxisAngle({1.f, 0.f, 0.f}, radians(-90.f)), {});
    const Mat4 down = pose(Quat::fromAxisAngle({1.f, 0.f, 0.f}, radians(90.f)), {});
    const Mat4 candidates[] = {up, down};
    const Mat4 body = pose(Quat::fromAxisAngle({0.f, 1.f, 0.f}, 2.f) * Quat::fromAxisAngle({1.f, 0.f, 0.f}, radians(75.f)), {});
    QCOMPARE(closestTilt(body, candidates), 1);
    const Mat4 bodyUp = pose(Quat::fromAxisAngle({0.f, 0.f, 1.f}, 0.3f) * Quat::fromAxisAngle({1.f, 0.f, 0.f}, radians(-100.f)), {});
    QCOMPARE(closestTilt(bodyUp, candidates), 0);
    QCOMPARE(closestTilt(body, {}), -1);
}

// The clip's root, lying face up heading +Z at the origin, taken onto a body lying face up heading 60° about
// +Y at (3, 0.12, −2): the aligned root has the body's heading and ground position, and the clip's height.
void TestPoseBlend::headingAlignment_placesTheClipRootOnTheBody()
{
    const Quat lying = Quat::fromAxisAngle({1.f, 0.f, 0.f}, radians(-90.f));
    const Mat4 clipRoot = pose(lying, {0.f, 0.1f, 0.f});
    const Quat heading = Quat::fromAxisAngle({0.f, 1.f, 0.f}, radians(60.f));
    const Mat4 body = pose(heading * lying, {3.f, 0.12f, -2.f});
    const Transform t = headingAlignment(clipRoot, body);
    const Mat4 aligned = Mat4::fromTransform(t) * clipRoot;
    EXPECT_VEC(at(aligned), (Vec3{3.f, 0.1f, -2.f}), 1e-4f);
    const Quat q = toQuat(Mat3::fromColumns({aligned.m[0], aligned.m[1], aligned.m[2]}, {aligned.m[4], aligned.m[5], aligned.m[6]},
                                            {aligned.m[8], aligned.m[9], aligned.m[10]}));
    EXPECT_NEAR(rotationAngle(q * (heading * lying).conjugate()), 0.f, 1e-3f);
}

namespace {

struct BlendPoses {
    std::vector<Mat4> body, start, later;
};

/// A humanoid's body pose, the clip's first pose and the clip a moment later, with every bone turned.
BlendPoses blendPoses(const Rig& rig)
{
    const std::size_t n = rig.bones().size();
    std::vector<Quat> bodyTurns(n), clipTurns(n), clipLater(n);
    for (std::size_t b = 0; b < n; ++b) {
        bodyTurns[b] = Quat::fromAxisAngle(normalizeOr(Vec3{float(b % 3), 1.f, float(b % 2)}, {0.f, 1.f, 0.f}), 0.9f);
        clipTurns[b] = Quat::fromAxisAngle({1.f, 0.f, 0.f}, -0.4f);
        clipLater[b] = Quat::fromAxisAngle({1.f, 0.f, 0.f}, -0.6f);
    }
    return {palette(rig, bodyTurns, {Quat{}, {0.f, 0.3f, 0.f}}), palette(rig, clipTurns, {Quat{}, {0.5f, 0.2f, 0.f}}),
            palette(rig, clipLater, {Quat::fromAxisAngle({0.f, 1.f, 0.f}, 1.2f), {0.6f, 0.2f, 0.f}})};
}

Quat rotationOfPose(const Mat4& m)
{
    return toQuat(Mat3::fromColumns({m.m[0], m.m[1], m.m[2]}, {m.m[4], m.m[5], m.m[6]}, {m.m[8], m.m[9], m.m[10]}));
}

} // namespace

void TestPoseBlend::blend_startsAtTheBodyAndEndsOnTheClip()
{
    BUILD_RIG(rig, makeHumanoid());
    const BlendPoses p = blendPoses(*rig);
    const std::size_t n = rig->bones().size();
    std::vector<Mat4> out(n);
    QVERIFY(blendPalettes(*rig, p.body, p.start, p.start, 0.f, out));
    for (std::size_t b = 0; b < n; ++b) {
        EXPECT_VEC(at(out[b]), at(p.body[b]), 1e-4f);
        EXPECT_NEAR(rotationAngle(rotationOfPose(out[b]) * rotationOfPose(p.body[b]).conjugate()), 0.f, 1e-3f);
    }
    QVERIFY(blendPalettes(*rig, p.body, p.start, p.later, 1.f, out));
    for (std::size_t b = 0; b < n; ++b) {
        EXPECT_VEC(at(out[b]), at(p.later[b]), 1e-4f);
        EXPECT_NEAR(rotationAngle(rotationOfPose(out[b]) * rotationOfPose(p.later[b]).conjugate()), 0.f, 1e-3f);
    }
}

// From weight w1 on the clip's first pose to weight w2 on a later pose whose root has turned 69°: each bone
// moves by the clip's own motion plus (w2 − w1) of its offset from the body, the clip's turn not carrying
// the offset along; and half-way, each bone's orientation is half-way (by angle) from the body's to the clip's.
void TestPoseBlend::blend_movesBonesByTheClipPlusAFixedShareOfTheOffset()
{
    BUILD_RIG(rig, makeHumanoid());
    const BlendPoses p = blendPoses(*rig);
    const std::size_t n = rig->bones().size();
    std::vector<Mat4> a(n), b2(n);
    const float w1 = 0.3f, w2 = 0.45f;
    QVERIFY(blendPalettes(*rig, p.body, p.start, p.start, w1, a));
    QVERIFY(blendPalettes(*rig, p.body, p.start, p.later, w2, b2));
    for (std::size_t b = 0; b < n; ++b) {
        const Vec3 expected = (at(p.later[b]) - at(p.start[b])) - (at(p.body[b]) - at(p.start[b])) * (w2 - w1);
        EXPECT_VEC(at(b2[b]) - at(a[b]), expected, 1e-4f);
    }
    std::vector<Mat4> half(n);
    QVERIFY(blendPalettes(*rig, p.body, p.start, p.start, 0.5f, half));
    for (std::size_t b = 0; b < n; ++b) {
        const float whole = rotationAngle(rotationOfPose(p.body[b]) * rotationOfPose(p.start[b]).conjugate());
        EXPECT_NEAR(rotationAngle(rotationOfPose(half[b]) * rotationOfPose(p.start[b]).conjugate()), 0.5f * whole, 1e-3f);
        EXPECT_NEAR(rotationAngle(rotationOfPose(p.body[b]) * rotationOfPose(half[b]).conjugate()), 0.5f * whole, 1e-3f);
    }
}

void TestPoseBlend::blend_refusesWrongSizesAndWeights()
{
    BUILD_RIG(rig, makeHumanoid());
    const std::size_t n = rig->bones().size();
    std::vector<Mat4> a(n), out(n, Mat4::fromTransform({Quat{}, {9.f, 9.f, 9.f}}));
    QVERIFY(!blendPalettes(*rig, std::span<const Mat4>(a).first(n - 1), a, a, 0.5f, out));
    QVERIFY(!blendPalettes(*rig, a, a, a, 1.5f, out));
    QVERIFY(!blendPalettes(*rig, a, a, a, std::nanf(""), out));
    for (const Mat4& m : out)
        QCOMPARE(at(m), (Vec3{9.f, 9.f, 9.f}));
}

QTEST_GUILESS_MAIN(TestPoseBlend)
#include "tst_poseblend.moc"
