// The generic template on chains (tails, ropes, tentacles; docs/autorig.md, "Generic template"): each joint
// of a long chain gets its share of one and a half turns for the whole chain; a 20-bone chain dropped from
// 2 m at the rig's default settings, flat, tilted, upside down or on either end, comes to rest within 5 s and
// bends no joint past its limit by more than 1° at any frame, and its links keep apart (the chain does not
// pass through itself); the same for chains of 19 short and 12 long links.
#include "marionette/editor/autorig/AutoRig.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "AutoRigTestSupport.h"
#include "RagdollDropTestSupport.h"

using namespace marionette;
using namespace marionette::editor;
using namespace marionette::test;

namespace {

/// The largest excess over the bend limits of `d` at positions `x`, radians.
float bendExcess(std::span<const Vec3> x, const rig::RigDescription& d)
{
    float worst = 0.f;
    for (const rig::AngleConstraint& c : d.angles) {
        const float a = angleAt(x, c);
        worst = std::max({worst, c.minAngle - a, a - c.maxAngle});
    }
    return worst;
}

/// The closest two joint particles of the chain that are not neighbours (two or more links apart), minus
/// the sum of their radii: negative when their spheres overlap (the chain passed through itself).
float closestNonNeighbours(std::span<const Vec3> x, const rig::RigDescription& d, const std::vector<std::int32_t>& joints)
{
    float closest = 1e9f;
    for (std::size_t i = 0; i < joints.size(); ++i)
        for (std::size_t j = i + 2; j < joints.size(); ++j) {
            const auto a = std::size_t(joints[i]), b = std::size_t(joints[j]);
            closest = std::min(closest, length(x[a] - x[b]) - d.particles[a].radius - d.particles[b].radius);
        }
    return closest;
}

struct ChainRun {
    DropResult drop;
    float worstBend = 0.f;  ///< radians, over every frame
    float closest = 1e9f;   ///< metres, over every frame (see closestNonNeighbours)
};

ChainRun dropChain(const rig::RigDescription& d, const std::vector<std::int32_t>& joints, Quat turn, int frames)
{
    ChainRun run;
    Drop s = spawnOnFloor(d, dropPlacement(d, turn, 2.f));
    if (!s.body)
        return run;
    const float dt = s.world->settings().timeStep;
    std::vector<Vec3> last(s.body->positions().begin(), s.body->positions().end());
    for (int n = 1; n <= frames; ++n) {
        s.world->step();
        const auto x = s.body->positions();
        float fastest = 0.f;
        for (std::size_t i = 0; i < x.size(); ++i) {
            run.drop.finite = run.drop.finite && isFinite(x[i]);
            run.drop.lowest = std::min(run.drop.lowest, x[i].y);
            fastest = std::max(fastest, length(x[i] - last[i]) / dt);
            last[i] = x[i];
        }
        run.drop.restFrame = fastest >= 0.05f ? -1 : run.drop.restFrame < 0 ? n : run.drop.restFrame;
        run.drop.finalSpeed = fastest;
        run.worstBend = std::max(run.worstBend, bendExcess(x, d));
        run.closest = std::min(run.closest, closestNonNeighbours(x, d, joints));
    }
    return run;
}

std::vector<std::int32_t> jointParticles(const rig::RigDescription& d, int bones)
{
    std::vector<std::int32_t> out;
    for (int i = 0; i < bones; ++i)
        out.push_back(findByName(d.particles, "Tail" + std::to_string(i + 1)));
    out.push_back(findByName(d.particles, "Tail" + std::to_string(bones) + "_end"));
    return out;
}

} // namespace

class TestGenericChain : public QObject {
    Q_OBJECT

private slots:
    void chain_settlesAndHoldsItsBends_data()
    {
        QTest::addColumn<int>("bones");
        QTest::addColumn<float>("step");
        QTest::addColumn<float>("tilt");
        QTest::newRow("20 bones of 10 cm, tilted 0.3 rad") << 20 << 0.1f << 0.3f;
        QTest::newRow("20 bones of 10 cm, flat") << 20 << 0.1f << 0.f;
        QTest::newRow("20 bones of 10 cm, turned 3 rad") << 20 << 0.1f << 3.f;
        QTest::newRow("20 bones of 10 cm, turned -1.5 rad (on its tip)") << 20 << 0.1f << -1.5f;
        QTest::newRow("20 bones of 10 cm, turned 1.3 rad") << 20 << 0.1f << 1.3f;
        QTest::newRow("20 bones of 10 cm, turned 1.5 rad (on its root)") << 20 << 0.1f << 1.5f;
        QTest::newRow("19 bones of 5 cm") << 19 << 0.05f << 0.3f;
        QTest::newRow("12 bones of 25 cm") << 12 << 0.25f << 0.8f;
    }

    void chain_settlesAndHoldsItsBends()
    {
        QFETCH(int, bones);
        QFETCH(float, step);
        QFETCH(float, tilt);
        AutoRigInput in = makeTail(bones, step);
        const AutoRigResult r = autoRig(in);
        QVERIFY2(r.ok, r.error.c_str());
        const rig::RigDescription& d = r.rig;
        QCOMPARE(d.angles.size(), std::size_t(bones - 1)); // a bend limit at every joint
        // Each joint's share of one and a half turns for the whole chain, by the links it joins, at most 45°
        // (the tip link reaches 6/7 of a step: tst_autorig): 20 links of 10 cm bend 27.2° a joint, 12 the full
        // 45°. The chain is straight at bind (180° at every joint), so the range is [180° − bend, 180°].
        for (std::size_t j = 0; j + 1 < d.angles.size(); ++j) {
            const rig::AngleConstraint& c = d.angles[j];
            const float expected = std::min(radians(45.f), 3.f * kPi / (float(bones) - 1.f / 7.f));
            QVERIFY2(std::fabs((kPi - c.minAngle) - expected) < radians(0.1f) && std::fabs(c.maxAngle - kPi) < 1e-5f,
                     qPrintable(QStringLiteral("joint %1: [%2°, %3°], expected a bend of %4°").arg(j).arg(double(c.minAngle) * 180.0 / kPi)
                                    .arg(double(c.maxAngle) * 180.0 / kPi).arg(double(expected) * 180.0 / kPi)));
        }
        const std::vector<std::int32_t> joints = jointParticles(d, bones);
        QVERIFY(std::find(joints.begin(), joints.end(), -1) == joints.end());
        const ChainRun run = dropChain(d, joints, Quat::fromAxisAngle({1, 0, 0}, tilt), 600);
        const QString what = describe(run.drop) + QStringLiteral(", worst bend excess %1°, closest non-neighbours %2 m")
                                                        .arg(double(run.worstBend) * 180.0 / kPi, 0, 'f', 2).arg(double(run.closest), 0, 'f', 4);
        qInfo("%d bones of %g m, tilt %g: %s", bones, double(step), double(tilt), qPrintable(what));
        QVERIFY2(run.drop.finite && run.drop.lowest > -0.01f, qPrintable(what));
        QVERIFY2(run.drop.restFrame >= 0 && run.drop.restFrame <= 300, qPrintable(what)); // at rest within 5 s
        QVERIFY2(run.worstBend <= radians(1.f), qPrintable(what));
        QVERIFY2(run.closest > -0.01f, qPrintable(what)); // never through itself (1 cm of slack)
    }
};

QTEST_GUILESS_MAIN(TestGenericChain)
#include "tst_genericchain.moc"
