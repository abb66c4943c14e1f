// Tests of viewport::CameraFollow, the preview camera following a body: the dead zone, the critically damped
// glide (hand-derived offsets (1 + ωt)·e^(−ωt)), no overshoot, the same path at any frame rate, the lag behind
// a steadily moving body (2v/ω), and Camera::frame about a chosen centre.
#include "viewport/Camera.h"
#include "viewport/CameraFollow.h"

#include <QtTest/QtTest>

#include <cmath>

using namespace marionette;
using namespace marionette::viewport;

class TestCameraFollow : public QObject {
    Q_OBJECT

private slots:
    void advance_insideTheDeadZone_keepsTheTarget();
    void advance_glidesCriticallyDampedWithoutOvershoot();
    void advance_isTheSameAtAnyFrameRate();
    void advance_trailsASteadyBodyBy2vOverOmega();
    void advance_badInputChangesNothing();
    void snap_jumpsToTheBody();
    void frameAboutACentre_keepsTheBoxInViewWithTheTargetOnTheCentre();
};

void TestCameraFollow::advance_insideTheDeadZone_keepsTheTarget()
{
    CameraFollow f;
    f.snap({0.f, 1.f, 0.f});
    // 1.5 cm of jitter (under the 2 cm dead zone): the goal and the target stay.
    for (int i = 0; i < 10; ++i)
        f.advance({i % 2 ? 0.015f : -0.015f, 1.f, 0.f}, 1.f / 60.f);
    QCOMPARE(f.goal(), (Vec3{0.f, 1.f, 0.f}));
    QCOMPARE(f.target(), (Vec3{0.f, 1.f, 0.f}));
    QVERIFY(f.isSettled());
    // 2.5 cm: the goal moves onto the centre.
    f.advance({0.025f, 1.f, 0.f}, 0.f);
    QCOMPARE(f.goal(), (Vec3{0.025f, 1.f, 0.f}));
}

void TestCameraFollow::advance_glidesCriticallyDampedWithoutOvershoot()
{
    CameraFollow f;
    f.reset({0.f, 0.f, 0.f}, {0.f, 0.f, 0.f});
    // A 1 m step of the body along −Y, from rest: offset (1 + ωt)·e^(−ωt) with ω = 20/s.
    f.advance({0.f, -1.f, 0.f}, 0.05f); // ωt = 1: 2/e = 0.735759
    QVERIFY2(std::fabs(f.target().y - (-1.f + 0.735759f)) < 1e-5f, qPrintable(QString::number(double(f.target().y))));
    float previous = f.target().y;
    for (int i = 0; i < 30; ++i) { // 0.15 s more: ωt = 4 at 0.2 s, 5·e^(−4) = 0.091578
        f.advance({0.f, -1.f, 0.f}, 0.005f);
        QVERIFY(f.target().y <= previous); // always toward the goal ...
        QVERIFY(f.target().y >= -1.f);     // ... never past it
        previous = f.target().y;
    }
    QVERIFY2(std::fabs(f.target().y - (-1.f + 0.091578f)) < 1e-4f, qPrintable(QString::number(double(f.target().y))));
    QVERIFY(!f.isSettled());
    f.advance({0.f, -1.f, 0.f}, 2.f); // (1 + 40)·e^(−40): nothing left
    QVERIFY(f.isSettled());
}

void TestCameraFollow::advance_isTheSameAtAnyFrameRate()
{
    CameraFollow once, often;
    once.reset({0.f, 0.f, 0.f}, {0.f, 0.f, 0.f});
    often.reset({0.f, 0.f, 0.f}, {0.f, 0.f, 0.f});
    once.advance({2.f, 0.f, -1.f}, 0.1f);
    for (int i = 0; i < 10; ++i)
        often.advance({2.f, 0.f, -1.f}, 0.01f);
    QVERIFY(length(once.target() - often.target()) < 1e-5f);
    QVERIFY(length(once.velocity() - often.velocity()) < 1e-4f);
    // ωt = 2: offset 3·e^(−2) = 0.406006 of the step.
    QVERIFY(length(once.target() - Vec3{2.f, 0.f, -1.f} * (1.f - 0.406006f)) < 1e-5f);
}

void TestCameraFollow::advance_trailsASteadyBodyBy2vOverOmega()
{
    // A body falling at 1 m/s for 2 s, at 60 frames per second. The goal trails the body by up to the 2 cm
    // dead zone and the target trails the goal by 2v/ω = 0.1 m: the view is 0.1 to 0.12 m behind.
    CameraFollow f;
    f.snap({0.f, 5.f, 0.f});
    Vec3 body{0.f, 5.f, 0.f};
    for (int i = 0; i < 120; ++i) {
        body.y -= 1.f / 60.f;
        f.advance(body, 1.f / 60.f);
    }
    const float lag = f.target().y - body.y;
    QVERIFY2(lag > 0.09f && lag < 0.125f, qPrintable(QString::number(double(lag))));
}

void TestCameraFollow::advance_badInputChangesNothing()
{
    CameraFollow f;
    f.reset({1.f, 2.f, 3.f}, {0.f, 0.f, 0.f});
    f.advance({NAN, 0.f, 0.f}, 0.1f);
    f.advance({5.f, 0.f, 0.f}, -1.f);
    f.advance({5.f, 0.f, 0.f}, INFINITY);
    QCOMPARE(f.target(), (Vec3{1.f, 2.f, 3.f}));
    QCOMPARE(f.goal(), (Vec3{0.f, 0.f, 0.f}));
}

void TestCameraFollow::snap_jumpsToTheBody()
{
    CameraFollow f;
    f.reset({0.f, 0.f, 0.f}, {0.f, 0.f, 0.f});
    f.advance({3.f, 0.f, 0.f}, 0.02f);
    QVERIFY(length(f.velocity()) > 0.f);
    f.snap({-1.f, 0.5f, 2.f});
    QCOMPARE(f.target(), (Vec3{-1.f, 0.5f, 2.f}));
    QCOMPARE(f.goal(), (Vec3{-1.f, 0.5f, 2.f}));
    QVERIFY(f.isSettled());
}

void TestCameraFollow::frameAboutACentre_keepsTheBoxInViewWithTheTargetOnTheCentre()
{
    Camera c;
    c.setViewportSize({800, 600});
    c.setYawPitch(30.f, 20.f);
    // A body lying along X, 2 m long and 0.3 m thick, whose centre of mass is off its box's middle.
    Bounds box;
    box.add({-1.f, 0.f, -0.15f});
    box.add({1.f, 0.3f, 0.15f});
    const Vec3 com{0.4f, 0.12f, 0.f};
    c.frame(box, com);
    QCOMPARE(c.target(), com);
    QCOMPARE(c.yawDegrees(), 30.f); // the angles are kept
    QCOMPARE(c.pitchDegrees(), 20.f);
    // The farthest corner from the centre, (−1, 0.3, ±0.15), is √(1.4² + 0.18² + 0.15²) = 1.4195 m away; the
    // distance is 1.05 × that / sin(22.5°) (the vertical half-angle is the smaller at 4:3).
    QVERIFY2(std::fabs(c.distance() - 1.05f * 1.41951f / std::sin(22.5f * 3.14159265f / 180.f)) < 1e-3f,
             qPrintable(QString::number(double(c.distance()))));
    for (float x : {-1.f, 1.f})
        for (float y : {0.f, 0.3f})
            for (float z : {-0.15f, 0.15f}) {
                const auto p = c.project({x, y, z}, {800, 600});
                QVERIFY(p && p->x() > 0. && p->x() < 800. && p->y() > 0. && p->y() < 600.);
            }
    // A bad centre or box changes nothing.
    const project::Camera before = c.state();
    c.frame(box, {NAN, 0.f, 0.f});
    c.frame(Bounds{}, com);
    QCOMPARE(c.target(), before.target);
    QCOMPARE(c.distance(), before.distance);
}

QTEST_APPLESS_MAIN(TestCameraFollow)
#include "tst_camerafollow.moc"
