// Tests of AngularGizmo: where the limit handles are and the angle a drag gives. Triangle B = (0,0,0),
// (0,1,0), (1,0,0) has the frame right −X, up +Y, facing −Z, so with the default axes (twist = B's Y,
// swing axis 1 = B's X) the limit frame is s1 = −X, t = +Y, s2 = −Z at the shared particle (0, 0, 0).
// B's centroid is (1/3, 1/3, 0): anchor length √2/3 = 0.471405, cone length 0.6 × that = 0.282843, twist
// arc centre (0, 0.141421, 0), radius 0.35 × 0.282843 = 0.098995.
#include "viewport/AngularGizmo.h"

#include <QtTest/QtTest>

#include "ViewportTestSupport.h"

using namespace marionette;
using namespace marionette::viewport;
using namespace marionette::test;

namespace {

constexpr QSize kSize{800, 600};
constexpr float kLen = 0.282843f;

struct Rig {
    rig::RigDescription rig;
    ViewportScene scene;

    explicit Rig(rig::AngularLimit limit) : rig(twoTriangleRig(limit)) { scene.rig = &rig; }
};

Camera camera(Camera::View view)
{
    Camera c;
    c.setViewportSize(kSize);
    c.setView(view);
    c.setDistance(3.f);
    return c;
}

} // namespace

class TestAngularGizmo : public QObject {
    Q_OBJECT

private slots:
    void handles_onTheConeRimAndTwistArc();
    void handles_noneForAMissingOrHiddenConstraint();
    void drag_swing2FollowsTheCursorAndClamps();
    void drag_twistMaxFollowsTheCursorAndStaysAboveTwistMin();
    void drag_coneAngleInItsPlane();
    void cone_reachesOutOfThePivotSphereAndKeepsItsSizeOnScreen();
    void leafBone_continuesItsParentsDirection();
};

void TestAngularGizmo::handles_onTheConeRimAndTwistArc()
{
    Rig r(rig::AngularLimit::SwingTwist);
    const RigPose pose(r.scene);
    AngularGizmo g;
    g.setConstraint(7);
    const std::vector<AngularGizmo::HandlePoint> h = g.handles(r.scene, pose);
    QCOMPARE(h.size(), std::size_t(4));
    const float s = std::sin(radians(45.f)), c = std::cos(radians(45.f)), twistR = 0.35f * kLen;
    // swing1 45°: t·cos + s2·sin; swing2 45°: t·cos − s1·sin; twist θ: centre + (s1·cos θ − s2·sin θ)·r
    QVERIFY2(near(h[0].position, Vec3{0, c, -s} * kLen), qPrintable(str(h[0].position)));
    QVERIFY2(near(h[1].position, Vec3{s, c, 0} * kLen), qPrintable(str(h[1].position)));
    QVERIFY2(near(h[2].position, Vec3{-c * twistR, 0.5f * kLen, -s * twistR}), qPrintable(str(h[2].position))); // −45°
    QVERIFY2(near(h[3].position, Vec3{-c * twistR, 0.5f * kLen, s * twistR}), qPrintable(str(h[3].position)));  // +45°
    const Camera front = camera(Camera::View::Front);
    QCOMPARE(g.hitTest(r.scene, pose, front, kSize, front.project(h[1].position, kSize).value() + QPointF(3, 3)),
             std::optional<AngularLimitHandle>(AngularLimitHandle::Swing2));
    QVERIFY(!g.hitTest(r.scene, pose, front, kSize, QPointF(10, 10)));
}

void TestAngularGizmo::handles_noneForAMissingOrHiddenConstraint()
{
    Rig r(rig::AngularLimit::Cone);
    const RigPose pose(r.scene);
    AngularGizmo g;
    QVERIFY(g.handles(r.scene, pose).empty());
    g.setConstraint(8);
    QVERIFY(g.handles(r.scene, pose).empty());
    g.setConstraint(7);
    QCOMPARE(g.handles(r.scene, pose).size(), std::size_t(1)); // a cone limit has one handle
    r.scene.hidden = {{project::ElementKind::Angular, 7}};
    QVERIFY(g.handles(r.scene, pose).empty());
    QVERIFY(!g.begin(AngularLimitHandle::Swing1, r.scene, pose));
}

void TestAngularGizmo::drag_swing2FollowsTheCursorAndClamps()
{
    Rig r(rig::AngularLimit::SwingTwist);
    const RigPose pose(r.scene);
    AngularGizmo g;
    g.setConstraint(7);
    const Camera c = camera(Camera::View::Front); // the plane of swing 2 is z = 0, seen face on
    QVERIFY(g.begin(AngularLimitHandle::Swing2, r.scene, pose));
    QCOMPARE(g.originalAngle(), radians(45.f));
    // angle = atan2(v·(−s1), v·t) = atan2(x, y)
    std::optional<float> a = g.drag(r.scene, pose, c, kSize, c.project({0.3f, 0.f, 0.f}, kSize).value());
    QVERIFY(a && std::abs(*a - radians(90.f)) < 1e-3f);
    a = g.drag(r.scene, pose, c, kSize, c.project({0.1f, 0.173205f, 0.f}, kSize).value());
    QVERIFY(a && std::abs(*a - radians(30.f)) < 1e-3f);
    QVERIFY(near(g.handles(r.scene, pose)[1].position, Vec3{0.5f, 0.866025f, 0} * kLen)); // drawn at the dragged angle
    a = g.drag(r.scene, pose, c, kSize, c.project({-0.2f, 0.1f, 0.f}, kSize).value()); // past the axis: 0
    QVERIFY(a && *a == 0.f);
    g.end();
    QVERIFY(!g.isDragging());
}

void TestAngularGizmo::drag_twistMaxFollowsTheCursorAndStaysAboveTwistMin()
{
    Rig r(rig::AngularLimit::SwingTwist);
    const RigPose pose(r.scene);
    AngularGizmo g;
    g.setConstraint(7);
    const Camera c = camera(Camera::View::Top); // the twist plane y = 0.1414 is across the view
    QVERIFY(g.begin(AngularLimitHandle::TwistMax, r.scene, pose));
    // v = hit − centre; angle = atan2(−v·s2, v·s1) = atan2(z, −x)
    const float y = 0.5f * kLen;
    std::optional<float> a = g.drag(r.scene, pose, c, kSize, c.project({0.f, y, 0.1f}, kSize).value());
    QVERIFY(a && std::abs(*a - radians(90.f)) < 1e-3f);
    a = g.drag(r.scene, pose, c, kSize, c.project({-0.1f, y, 0.f}, kSize).value());
    QVERIFY(a && std::abs(*a) < 1e-3f);
    a = g.drag(r.scene, pose, c, kSize, c.project({0.f, y, -0.1f}, kSize).value()); // −90° < twistMin −45°
    QVERIFY(a && std::abs(*a - radians(-45.f)) < 1e-4f);
}

void TestAngularGizmo::drag_coneAngleInItsPlane()
{
    Rig r(rig::AngularLimit::Cone);
    const RigPose pose(r.scene);
    AngularGizmo g;
    g.setConstraint(7);
    const Camera c = camera(Camera::View::Right); // the plane x = 0 holds t (+Y) and s2 (−Z)
    QVERIFY(g.begin(AngularLimitHandle::Swing1, r.scene, pose));
    QCOMPARE(g.originalAngle(), radians(60.f));
    // angle = atan2(v·s2, v·t) = atan2(−z, y)
    const std::optional<float> a = g.drag(r.scene, pose, c, kSize, c.project({0.f, 0.f, -0.2f}, kSize).value());
    QVERIFY(a && std::abs(*a - radians(90.f)) < 1e-3f);
    // looking along the plane (front view: the plane x = 0 is edge on) gives nothing
    const Camera front = camera(Camera::View::Front);
    QVERIFY(!g.drag(r.scene, pose, front, kSize, QPointF(400, 300)));
}

// The gizmo's cone (and the handles on its rim) reach out of a big pivot sphere (a knee): 1.6 × its radius; and
// seen from far away it still spans RigPose::kConePixels on screen, while drawing, handles and drags agree.
void TestAngularGizmo::cone_reachesOutOfThePivotSphereAndKeepsItsSizeOnScreen()
{
    Rig r(rig::AngularLimit::Cone);
    r.rig.particles[0].radius = 0.4f; // the shared pivot at the origin
    RigPose pose(r.scene);
    QCOMPARE(AngularGizmo::coneLength(pose.angular()[0]), 0.64f); // 1.6 × 0.4 > 0.6 × 0.4714
    AngularGizmo g;
    g.setConstraint(7);
    QVERIFY(length(g.handles(r.scene, pose)[0].position) > 0.4f); // outside the sphere
    r.rig.particles[0].radius = 0.05f;
    Camera far = camera(Camera::View::Front);
    far.setDistance(60.f);
    RigPose seen(r.scene);
    QCOMPARE(AngularGizmo::coneLength(seen.angular()[0]), kLen); // near: its own length
    seen.sizeGizmos(far, kSize);
    const float len = AngularGizmo::coneLength(seen.angular()[0]);
    const QPointF a = far.project({0, 0, 0}, kSize).value(), b = far.project({0, len, 0}, kSize).value();
    QVERIFY2(std::fabs(std::hypot(a.x() - b.x(), a.y() - b.y()) - double(RigPose::kConePixels)) < 1.0,
             qPrintable(QString::number(std::hypot(a.x() - b.x(), a.y() - b.y()))));
    const std::vector<AngularGizmo::HandlePoint> h = g.handles(r.scene, seen);
    // the cone limit (60° by default) on the rim: t·cos + s2·sin, s2 = −Z
    QVERIFY2(near(h[0].position, Vec3{0, std::cos(radians(60.f)), -std::sin(radians(60.f))} * len, 1e-3f), qPrintable(str(h[0].position)));
}

// A leaf bone (a hand with no fingers) is drawn going on along its parent, half its parent's length, whatever
// its own axes (the mannequin's bones all have the world's axes: drawn along their Y they stood up as spikes).
void TestAngularGizmo::leafBone_continuesItsParentsDirection()
{
    rig::RigDescription rig;
    rig::Bone forearm, hand;
    forearm.name = "forearm";
    forearm.bindWorld = Mat4::fromTransform(Transform{Quat{}, {0.2f, 1.4f, 0.f}});
    hand.name = "hand";
    hand.parent = 0;
    hand.bindWorld = Mat4::fromTransform(Transform{Quat{}, {0.5f, 1.4f, 0.f}});
    rig.bones = {forearm, hand};
    ViewportScene scene;
    scene.rig = &rig;
    const RigPose pose(scene);
    QVERIFY2(near(pose.bones()[1].tail, Vec3{0.65f, 1.4f, 0.f}), qPrintable(str(pose.bones()[1].tail)));
}

QTEST_GUILESS_MAIN(TestAngularGizmo)
#include "tst_angulargizmo.moc"
