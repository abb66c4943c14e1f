// Contacts between ragdolls through the runtime's public API: a pile of humanoids resting on each other (and
// passing through each other with ragdoll collisions off), a prop resting on a lying body, and the
// broadphase's pairs and islands. Every assertion on a number prints the measured value.
#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "RuntimeTestSupport.h"

using namespace marionette;
using namespace marionette::runtime;
using namespace marionette::test;

class TestRagdollContacts : public QObject {
    Q_OBJECT

private slots:
    void ragdollPile_restsOnEachOther();
    void crateOnRagdoll_restsOnBody();
    void fastFall_doesNotSinkIntoBody_data();
    void fastFall_doesNotSinkIntoBody();
    void spawnedInsideEachOther_partWithoutBeingThrown_data();
    void spawnedInsideEachOther_partWithoutBeingThrown();
    void broadphase_farApartHasNoPairs_data();
    void broadphase_farApartHasNoPairs();
    void broadphase_overlappingPairCounted();
    void broadphase_boundsReachAsFarAsAParticleMoves_data();
    void broadphase_boundsReachAsFarAsAParticleMoves();
};

// --------------------------------------------------------------------------------- ragdoll vs ragdoll

namespace {

struct PileResult {
    float top = -INFINITY;      ///< highest particle after 5 s
    float lowest = INFINITY;    ///< lowest particle surface after 5 s
    bool finite = true;
    bool singleIslandWithContacts = false;
    std::uint32_t maxContacts = 0;
};

PileResult dropPile(const std::shared_ptr<const Rig>& humanoid, bool ragdollCollisions)
{
    WorldSettings ws;
    ws.ragdollCollisions = ragdollCollisions;
    World world(ws);
    world.addPlane({0.f, 1.f, 0.f}, 0.f);
    std::vector<RagdollHandle> handles;
    for (int i = 0; i < 10; ++i)
        handles.push_back(world.spawn(humanoid, lyingPlacement(0.2f + 0.4f * float(i), 0.45f * float(i))));
    PileResult out;
    for (int s = 0; s < 300; ++s) {
        world.step();
        const WorldStats& st = world.stats();
        out.maxContacts = std::max(out.maxContacts, st.ragdollContacts);
        if (st.islands == 1 && st.awakeRagdolls == 10 && st.ragdollContacts > 0)
            out.singleIslandWithContacts = true;
    }
    for (RagdollHandle h : handles) {
        const Ragdoll* r = world.ragdoll(h);
        if (!r || !allPointsFinite(r->positions())) {
            out.finite = false;
            continue;
        }
        out.top = std::max(out.top, highestParticle(*r));
        out.lowest = std::min(out.lowest, lowestSurface(*r));
    }
    return out;
}

} // namespace

void TestRagdollContacts::ragdollPile_restsOnEachOther()
{
    BUILD_RIG(humanoid, makeHumanoid());
    const PileResult pile = dropPile(humanoid, true);
    QVERIFY2(pile.finite, "non-finite positions in the pile");
    QVERIFY2(pile.lowest >= -0.01f, qPrintable(QStringLiteral("a particle is %1 m below the floor").arg(num(-pile.lowest))));
    QVERIFY2(pile.top > 0.4f, qPrintable(QStringLiteral("top of the pile at %1 m: they do not rest on each other").arg(num(pile.top))));
    QVERIFY2(pile.singleIslandWithContacts,
             qPrintable(QStringLiteral("never saw one island of 10 awake ragdolls with contacts (max contacts %1)").arg(pile.maxContacts)));

    const PileResult ghosts = dropPile(humanoid, false);
    QVERIFY2(ghosts.finite, "non-finite positions without ragdoll collisions");
    QCOMPARE(ghosts.maxContacts, 0u);
    QVERIFY2(ghosts.top < pile.top - 0.1f,
             qPrintable(QStringLiteral("top without ragdoll collisions %1 m vs with %2 m: they should interpenetrate").arg(num(ghosts.top), num(pile.top))));
}

void TestRagdollContacts::crateOnRagdoll_restsOnBody()
{
    BUILD_RIG(humanoid, makeHumanoid());
    const Vec3 half{0.2f, 0.2f, 0.2f};
    BUILD_RIG(crate, makeCrate(half, 10.f));
    World world;
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    SPAWN_RAGDOLL(body, world, humanoid, lyingPlacement(0.15f, 0.f));
    Ragdoll& man = *world.ragdoll(body);
    for (int i = 0; i < 120; ++i)
        world.step();
    // The chest: where the crate will land. Its top surface: highest capsule surface near the drop point.
    const Vec3 chest = (man.positions()[kSpine] + man.positions()[kNeck]) * 0.5f;
    auto bodyTopUnder = [&](Vec3 at) {
        float top = 0.f;
        for (const CapsuleData& c : man.rig().capsules()) {
            const Vec3 a = man.positions()[c.a], b = man.positions()[c.b];
            // capsules whose axis passes under the crate's footprint
            const Vec3 m = lerp(a, b, 0.5f);
            if (distanceToSegment({at.x, m.y, at.z}, a, b) < half.x)
                top = std::max(top, std::max(a.y, b.y) + c.radius);
        }
        return top;
    };
    const float top = bodyTopUnder(chest);
    QVERIFY2(top > 0.15f, qPrintable(QStringLiteral("lying body's top surface at %1 m?").arg(num(top))));
    SPAWN_RAGDOLL(box, world, crate, (Transform{Quat{}, {chest.x, top + 0.8f, chest.z}}));
    Ragdoll& c = *world.ragdoll(box);
    for (int i = 0; i < 180; ++i)
        world.step();
    QVERIFY(allPointsFinite(c.positions()) && allPointsFinite(man.positions()));
    const Vec3 centre = c.centreOfMass();
    const float topNow = bodyTopUnder(centre);
    QVERIFY2(centre.y > topNow + 0.5f * half.y,
             qPrintable(QStringLiteral("crate centre at %1, body top under it at %2 m: expected about %3 m (fell into the body?)")
                            .arg(str(centre), num(topNow), num(topNow + half.y))));
    QVERIFY2(centre.y > half.y + 0.05f,
             qPrintable(QStringLiteral("crate centre at %1 m: it lies on the floor, not on the body").arg(num(centre.y))));
}

namespace {

/// How deep (metres) the deepest capsule of a body at positions xa is inside any capsule of another body of
/// the same rig at xb (0 or less when none touch).
float deepestOverlap(const Rig& rig, std::span<const Vec3> xa, std::span<const Vec3> xb)
{
    float deepest = 0.f;
    for (const CapsuleData& ca : rig.capsules())
        for (const CapsuleData& cb : rig.capsules())
            deepest = std::max(deepest,
                               ca.radius + cb.radius - distanceBetweenSegments(xa[ca.a], xa[ca.b], xb[cb.a], xb[cb.b]));
    return deepest;
}

} // namespace

// A humanoid dropped lying, turned 30° about the vertical, onto another lying on the floor: its contacts
// must exist from the first substep it can reach the other in, not only once inside it. At 2 m it arrives
// at 6.3 m/s, 10 cm a step, more than the 3 cm contact margin; at 5 m at 9.9 m/s. The deepest overlap of any
// capsule of one with any of the other, after every step for 3 s, stays within 15 mm (a body pressed onto
// another rests some millimetres into it between the contact passes). With candidates kept only within the
// margin it reached 52 mm in both.
void TestRagdollContacts::fastFall_doesNotSinkIntoBody_data()
{
    QTest::addColumn<float>("height");
    QTest::newRow("2 m") << 2.f;
    QTest::newRow("5 m") << 5.f;
}

void TestRagdollContacts::fastFall_doesNotSinkIntoBody()
{
    QFETCH(float, height);
    BUILD_RIG(humanoid, makeHumanoid());
    World world;
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    const Transform lie{Quat::fromAxisAngle({1.f, 0.f, 0.f}, 0.5f * kPi), {}};
    SPAWN_RAGDOLL(below, world, humanoid, (Transform{Quat{}, {0.f, 0.15f, 0.9f}} * lie));
    SPAWN_RAGDOLL(above, world, humanoid,
                  (Transform{Quat::fromAxisAngle({0.f, 1.f, 0.f}, 0.5f), {0.f, height, 0.9f}} * lie));
    float deepest = 0.f;
    int at = -1;
    for (int step = 0; step < 180; ++step) {
        world.step();
        const float overlap = deepestOverlap(*humanoid, world.ragdoll(below)->positions(), world.ragdoll(above)->positions());
        if (overlap > deepest) {
            deepest = overlap;
            at = step;
        }
    }
    QVERIFY2(at >= 0, "the falling body never touched the lying one");
    QVERIFY2(deepest <= 0.015f, qPrintable(QStringLiteral("a capsule %1 mm inside the other body at step %2")
                                               .arg(double(deepest) * 1e3, 0, 'f', 1).arg(at)));
}

// Two humanoids spawned lying on the floor inside each other, side by side 5, 10 or 20 cm apart (as a game
// may spawn the ragdolls of two characters standing close): what was inside the other body before a
// substep comes out at a bounded speed (kMaxDepenetrationSpeed per contact), so no particle is thrown.
// Over the first 20 steps none moves faster than 20 m/s (with every push at full depth: 48 to 77 m/s),
// and after 3 s the bodies are apart: no capsule of one more than 15 mm into the other.
void TestRagdollContacts::spawnedInsideEachOther_partWithoutBeingThrown_data()
{
    QTest::addColumn<float>("gap");
    QTest::newRow("5 cm") << 0.05f;
    QTest::newRow("10 cm") << 0.1f;
    QTest::newRow("20 cm") << 0.2f;
}

void TestRagdollContacts::spawnedInsideEachOther_partWithoutBeingThrown()
{
    QFETCH(float, gap);
    BUILD_RIG(humanoid, makeHumanoid());
    World world;
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    const Transform lie{Quat::fromAxisAngle({1.f, 0.f, 0.f}, 0.5f * kPi), {}};
    SPAWN_RAGDOLL(a, world, humanoid, (Transform{Quat{}, {0.f, 0.15f, 0.9f}} * lie));
    SPAWN_RAGDOLL(b, world, humanoid, (Transform{Quat{}, {gap, 0.15f, 0.9f}} * lie));
    const RagdollHandle bodies[2] = {a, b};
    std::vector<Vec3> last[2];
    for (int k = 0; k < 2; ++k)
        last[k].assign(world.ragdoll(bodies[k])->positions().begin(), world.ragdoll(bodies[k])->positions().end());
    float fastest = 0.f;
    for (int step = 0; step < 180; ++step) {
        world.step();
        for (int k = 0; k < 2 && step < 20; ++k) {
            const auto x = world.ragdoll(bodies[k])->positions();
            for (std::size_t i = 0; i < x.size(); ++i) {
                fastest = std::max(fastest, length(x[i] - last[k][i]) * 60.f);
                last[k][i] = x[i];
            }
        }
    }
    QVERIFY2(fastest <= 20.f, qPrintable(QStringLiteral("a particle moved at %1 m/s").arg(double(fastest), 0, 'f', 1)));
    QVERIFY(worldSuites::allFinite(*world.ragdoll(a)) && worldSuites::allFinite(*world.ragdoll(b)));
    const float deepest = deepestOverlap(*humanoid, world.ragdoll(a)->positions(), world.ragdoll(b)->positions());
    QVERIFY2(deepest <= 0.015f, qPrintable(QStringLiteral("still %1 mm inside each other after 3 s").arg(double(deepest) * 1e3, 0, 'f', 1)));
}

// ----------------------------------------------------------------------------------------------- broadphase

void TestRagdollContacts::broadphase_farApartHasNoPairs_data()
{
    QTest::addColumn<int>("side");
    QTest::newRow("4 ragdolls") << 2;
    QTest::newRow("64 ragdolls") << 8;
}

void TestRagdollContacts::broadphase_farApartHasNoPairs()
{
    QFETCH(int, side);
    BUILD_RIG(humanoid, makeHumanoid());
    World world;
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    for (int j = 0; j < side; ++j)
        for (int i = 0; i < side; ++i) {
            SPAWN_RAGDOLL(h, world, humanoid, (Transform{Quat{}, {10.f * float(i), 0.5f, 10.f * float(j)}}));
        }
    const std::uint32_t count = std::uint32_t(side * side);
    for (int s = 0; s < 5; ++s) {
        world.step();
        const WorldStats& st = world.stats();
        QVERIFY2(st.ragdollPairs == 0, qPrintable(QStringLiteral("%1 broadphase pairs among %2 far-apart ragdolls").arg(st.ragdollPairs).arg(count)));
        QVERIFY2(st.islands == count, qPrintable(QStringLiteral("%1 islands for %2 independent ragdolls").arg(st.islands).arg(count)));
        QCOMPARE(st.ragdollContacts, 0u);
        QCOMPARE(st.awakeRagdolls, count);
    }
}

void TestRagdollContacts::broadphase_overlappingPairCounted()
{
    BUILD_RIG(humanoid, makeHumanoid());
    World world;
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    SPAWN_RAGDOLL(a, world, humanoid, (Transform{Quat{}, {0.f, 0.5f, 0.f}}));
    SPAWN_RAGDOLL(b, world, humanoid, (Transform{Quat{}, {0.3f, 0.5f, 0.f}}));
    SPAWN_RAGDOLL(far, world, humanoid, (Transform{Quat{}, {30.f, 0.5f, 0.f}}));
    world.step();
    const WorldStats& st = world.stats();
    QVERIFY2(st.ragdollPairs == 1, qPrintable(QStringLiteral("%1 broadphase pairs for two overlapping ragdolls and a far one").arg(st.ragdollPairs)));
    QVERIFY2(st.ragdollContacts > 0, "overlapping ragdolls produced no contacts");
    QVERIFY2(st.islands == 2, qPrintable(QStringLiteral("%1 islands: expected the touching pair plus the far one").arg(st.islands)));
}

// A ragdoll's bounds this step reach as far as its fastest particle may travel in it, so a body closing in
// fast is paired with another before it gets there. Two rows of eleven points (no radius, so no collider
// bounds stand in for theirs; no gravity) lie side by side 0.85 m apart; at rest their bounds (a 5 cm margin
// each side) leave 0.75 m between them. One point of the first row moves (0.5, 0.5, 0.5) m a step: its
// bounds grow by √0.75 = 0.866 m on every side, and the rows pair (without one of the three components they
// would grow by 0.707 m, and would not). The point is each of the four in one of the groups of four the
// bounds are found in, or 9, one of the last three, taken one at a time.
void TestRagdollContacts::broadphase_boundsReachAsFarAsAParticleMoves_data()
{
    QTest::addColumn<int>("fast");
    QTest::newRow("at rest") << -1;
    for (const int p : {4, 5, 6, 7, 9})
        QTest::addRow("particle %d moving", p) << p;
}

void TestRagdollContacts::broadphase_boundsReachAsFarAsAParticleMoves()
{
    QFETCH(int, fast);
    constexpr int kCount = 11;
    rig::RigDescription d;
    for (int i = 0; i < kCount; ++i)
        d.particles.push_back(particle({0.1f * float(i), 0.f, 0.f}, 1.f));
    BUILD_RIG(row, d);
    WorldSettings ws;
    ws.gravity = {};
    World world(ws);
    SPAWN_RAGDOLL(a, world, row, (Transform{Quat{}, {0.f, 1.f, 0.f}}));
    SPAWN_RAGDOLL(b, world, row, (Transform{Quat{}, {0.f, 1.f, 0.85f}}));
    Ragdoll* body = world.ragdoll(a);
    QVERIFY(body);
    std::vector<Vec3> x(body->positions().begin(), body->positions().end()), previous = x;
    if (fast >= 0)
        previous[std::size_t(fast)] -= Vec3{0.5f, 0.5f, 0.5f}; // a step's motion
    QVERIFY(body->setPose(x, previous));
    world.step();
    const std::uint32_t expected = fast >= 0 ? 1u : 0u;
    QVERIFY2(world.stats().ragdollPairs == expected,
             qPrintable(QStringLiteral("%1 broadphase pairs, expected %2").arg(world.stats().ragdollPairs).arg(expected)));
}

QTEST_APPLESS_MAIN(TestRagdollContacts)
#include "tst_ragdollcontacts.moc"
