// The hit tool's direction (docs/preview.md "Hits"): the impulse direction of each mode from hand-derived
// rays, the inward normal of a struck sphere and capsule, and the body's centre of mass the preview's camera
// follows.
#include "marionette/editor/preview/HitDirection.h"
#include "marionette/editor/preview/PreviewSession.h"

#include <QTest>

#include <cmath>

using namespace marionette;
using editor::HitDirection;

Q_DECLARE_METATYPE(marionette::Vec3)

namespace {

bool near(Vec3 a, Vec3 b, float tolerance = 1e-5f)
{
    return length(a - b) <= tolerance;
}

QByteArray text(Vec3 v)
{
    return QStringLiteral("(%1, %2, %3)").arg(double(v.x)).arg(double(v.y)).arg(double(v.z)).toUtf8();
}

/// Two particles 1 m apart on a vertical line (masses 1 and 3 kg, spheres 0.05 m) joined by a rigid stick
/// with a 0.1 m capsule. Starting a preview moves it (centred over the drop point, lowest sphere on the
/// floor), so tests read the placed positions.
rig::RigDescription pole(float massA = 1.f, float massB = 3.f)
{
    rig::RigDescription r;
    r.particles.push_back(rig::Particle{.name = "lower", .id = 1, .position = {0.f, 1.f, 0.f}, .mass = massA});
    r.particles.push_back(rig::Particle{.name = "upper", .id = 2, .position = {0.f, 2.f, 0.f}, .mass = massB});
    rig::Stick s{.name = "pole", .id = 3, .a = 0, .b = 1};
    s.capsuleRadius = 0.1f;
    r.sticks = {s};
    return r;
}

} // namespace

class TestHitDirection : public QObject {
    Q_OBJECT
  private slots:
    void viewRay_isTheNormalisedRay();
    void horizontal_isTheRayLevelled_data();
    void horizontal_isTheRayLevelled();
    void horizontal_straightDownOrUp_strikesTowardTheTopOfTheScreen();
    void surfaceNormal_isTheNormal_orTheRayWithoutOne();
    void hitNormal_pointsIntoTheStruckSphereOrCapsule();
    void centreOfMass_weighsTheParticlesByMass();
};

void TestHitDirection::viewRay_isTheNormalisedRay()
{
    const Vec3 d = editor::hitImpulseDirection(HitDirection::ViewRay, {0.f, -3.f, -4.f}, {1.f, 0.f, 0.f}, {0.f, 1.f, 0.f});
    QVERIFY2(near(d, {0.f, -0.6f, -0.8f}), text(d));
}

void TestHitDirection::horizontal_isTheRayLevelled_data()
{
    QTest::addColumn<Vec3>("ray");
    QTest::addColumn<Vec3>("expected");
    // The default camera: yaw 0, pitch 20° (the eye above the target on +Z): forward (0, −sin 20°, −cos 20°).
    const float s = std::sin(20.f * 3.14159265f / 180.f), c = std::cos(20.f * 3.14159265f / 180.f);
    QTest::newRow("front, raised 20°") << Vec3{0.f, -s, -c} << Vec3{0.f, 0.f, -1.f};
    QTest::newRow("from +X, raised 20°") << Vec3{-c, -s, 0.f} << Vec3{-1.f, 0.f, 0.f};
    QTest::newRow("3-4-5 down") << Vec3{3.f, -4.f, 4.f} << Vec3{0.6f, 0.f, 0.8f};
    QTest::newRow("from below") << Vec3{0.f, 5.f, -2.f} << Vec3{0.f, 0.f, -1.f};
}

void TestHitDirection::horizontal_isTheRayLevelled()
{
    QFETCH(Vec3, ray);
    QFETCH(Vec3, expected);
    const Vec3 d = editor::hitImpulseDirection(HitDirection::Horizontal, ray, {}, {0.f, 1.f, 0.f});
    QVERIFY2(near(d, expected), text(d));
    QCOMPARE(d.y, 0.f);
}

void TestHitDirection::horizontal_straightDownOrUp_strikesTowardTheTopOfTheScreen()
{
    // The top view (yaw 0, pitch 90°) looks down −Y with screen up −Z: the strike goes toward −Z, where a view
    // tilted a little from it would push.
    Vec3 d = editor::hitImpulseDirection(HitDirection::Horizontal, {0.f, -1.f, 0.f}, {}, {0.f, 0.f, -1.f});
    QVERIFY2(near(d, {0.f, 0.f, -1.f}), text(d));
    // Turned by 90° (screen up +X).
    d = editor::hitImpulseDirection(HitDirection::Horizontal, {0.f, -2.f, 0.f}, {}, {1.f, 0.f, 0.f});
    QVERIFY2(near(d, {1.f, 0.f, 0.f}), text(d));
    // The bottom view (pitch −90°) looks up +Y with screen up +Z: the view tilted from it looks toward −Z.
    d = editor::hitImpulseDirection(HitDirection::Horizontal, {0.f, 1.f, 0.f}, {}, {0.f, 0.f, 1.f});
    QVERIFY2(near(d, {0.f, 0.f, -1.f}), text(d));
    // A ray within 1e-3 of vertical counts as vertical.
    d = editor::hitImpulseDirection(HitDirection::Horizontal, {0.0005f, -1.f, 0.f}, {}, {0.f, 0.f, -1.f});
    QVERIFY2(near(d, {0.f, 0.f, -1.f}), text(d));
}

void TestHitDirection::surfaceNormal_isTheNormal_orTheRayWithoutOne()
{
    Vec3 d = editor::hitImpulseDirection(HitDirection::SurfaceNormal, {0.f, 0.f, -1.f}, {0.f, -2.f, 0.f}, {0.f, 1.f, 0.f});
    QVERIFY2(near(d, {0.f, -1.f, 0.f}), text(d));
    d = editor::hitImpulseDirection(HitDirection::SurfaceNormal, {0.f, 0.f, -2.f}, {}, {0.f, 1.f, 0.f});
    QVERIFY2(near(d, {0.f, 0.f, -1.f}), text(d));
    d = editor::hitImpulseDirection(HitDirection::SurfaceNormal, {0.f, 0.f, -2.f}, {NAN, 0.f, 0.f}, {0.f, 1.f, 0.f});
    QVERIFY2(near(d, {0.f, 0.f, -1.f}), text(d));
}

void TestHitDirection::hitNormal_pointsIntoTheStruckSphereOrCapsule()
{
    editor::PreviewSession s;
    QString error;
    rig::RigDescription r = pole();
    r.particles[0].radius = 0.2f; // a sphere wider than the capsule at end a
    QVERIFY2(s.start(r, {}, error), qPrintable(error));
    const Vec3 a = s.positions()[0], b = s.positions()[1];
    QCOMPARE(b.y - a.y, 1.f);
    // Toward −X at 0.1 m above a's centre: the sphere (r 0.2) is met at x = √(0.2² − 0.1²) = 0.1732 from
    // the centre, before the capsule (r 0.1, which ends at a): normal into it (−0.866, −0.5, 0).
    auto hit = s.hitRay(a + Vec3{1.f, 0.1f, 0.f}, {-1.f, 0.f, 0.f});
    QVERIFY(hit);
    QCOMPARE(int(hit->kind), int(editor::HitPoint::Kind::Particle));
    QCOMPARE(hit->index, 0u);
    QVERIFY2(near(hit->point, a + Vec3{0.17320508f, 0.1f, 0.f}, 1e-4f), text(hit->point - a));
    Vec3 n = s.hitNormal(*hit);
    QVERIFY2(near(n, {-0.8660254f, -0.5f, 0.f}, 1e-4f), text(n));
    // Toward −X at the pole's middle, 0.05 m in front of its axis (+Z): the capsule (r 0.1) is met at
    // x = √(0.1² − 0.05²) = 0.0866: normal into it (−0.866, 0, −0.5), at t = 0.5.
    hit = s.hitRay((a + b) * 0.5f + Vec3{1.f, 0.f, 0.05f}, {-1.f, 0.f, 0.f});
    QVERIFY(hit);
    QCOMPARE(int(hit->kind), int(editor::HitPoint::Kind::Stick));
    QVERIFY(std::fabs(hit->t - 0.5f) < 1e-4f);
    n = s.hitNormal(*hit);
    QVERIFY2(near(n, {-0.8660254f, 0.f, -0.5f}, 1e-4f), text(n));
    // The surface normal mode strikes along it.
    const Vec3 d = editor::hitImpulseDirection(HitDirection::SurfaceNormal, {-1.f, 0.f, 0.f}, n, {0.f, 1.f, 0.f});
    QVERIFY2(near(d, n), text(d));
    // A point at the centre has no normal; a hit naming nothing neither.
    editor::HitPoint centre;
    centre.point = a;
    QVERIFY(near(s.hitNormal(centre), {}));
    editor::HitPoint nothing;
    nothing.index = 7;
    QVERIFY(near(s.hitNormal(nothing), {}));
}

void TestHitDirection::centreOfMass_weighsTheParticlesByMass()
{
    editor::PreviewSession s;
    QString error;
    QVERIFY2(s.start(pole(1.f, 3.f), {}, error), qPrintable(error));
    Vec3 a = s.positions()[0], b = s.positions()[1];
    // (1·a + 3·b) / 4: three quarters of the way to b.
    QVERIFY2(near(s.centreOfMass(), a + (b - a) * 0.75f), text(s.centreOfMass()));
    // A kinematic particle (mass 0) does not count; all kinematic: the plain mean.
    editor::PreviewSession k;
    QVERIFY2(k.start(pole(0.f, 3.f), {}, error), qPrintable(error));
    QVERIFY2(near(k.centreOfMass(), k.positions()[1]), text(k.centreOfMass()));
    editor::PreviewSession none;
    QVERIFY2(none.start(pole(0.f, 0.f), {}, error), qPrintable(error));
    a = none.positions()[0];
    b = none.positions()[1];
    QVERIFY2(near(none.centreOfMass(), (a + b) * 0.5f), text(none.centreOfMass()));
    // Not running: the origin.
    QVERIFY(near(editor::PreviewSession().centreOfMass(), {}));
}

QTEST_APPLESS_MAIN(TestHitDirection)
#include "tst_hitdirection.moc"
