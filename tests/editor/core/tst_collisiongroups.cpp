// Collision groups by name and their matrix (editor/document CollisionGroups.h), the masses of a new particle
// (Masses.h), and their commands, without widgets: the matrix derived from hand-set group and mask bits (On,
// Off, Mixed), applying it (unchanged: no edit; one cell: exactly the masks it names), the dialog's edit as one
// undo step with the names, ReplaceElementsCommand, and Add Particle taking its neighbours' mass and keeping
// the total in one step.
#include "marionette/editor/document/CollisionGroups.h"
#include "marionette/editor/document/Document.h"
#include "marionette/editor/document/Masses.h"
#include "marionette/editor/document/commands/AddParticleCommand.h"
#include "marionette/editor/document/commands/ReplaceElementsCommand.h"
#include "marionette/editor/document/commands/SetCollisionGroupsCommand.h"

#include <QtTest>

using namespace marionette;
using editor::CollisionCell;
using editor::Document;

namespace {

constexpr std::uint32_t kBody = 1u << 0, kArms = 1u << 1, kProps = 1u << 2;

rig::Particle particle(rig::ElementId id, Vec3 at, std::uint32_t group, std::uint32_t mask, float mass = 1.f)
{
    rig::Particle p;
    p.id = id;
    p.name = QByteArray("p").append(QByteArray::number(id)).toStdString();
    p.position = at;
    p.group = group;
    p.mask = mask;
    p.mass = mass;
    return p;
}

/// Two body particles that ignore the arms, an arm particle and an arm capsule that ignore the body, a stick
/// without a capsule (not a collider), and a prop box colliding with body and arms only (mask 0b011).
project::Project groupsProject()
{
    project::Project p;
    rig::RigDescription& r = p.rig;
    r.particles = {particle(1, {0, 0, 0}, kBody, ~kArms), particle(2, {0, 1, 0}, kBody, ~kArms),
                   particle(3, {1, 1, 0}, kArms, ~kBody), particle(4, {1, 0, 0}, kArms, ~kBody)};
    rig::Stick capsule;
    capsule.id = 1, capsule.name = "arm", capsule.a = 2, capsule.b = 3, capsule.capsuleRadius = 0.05f;
    capsule.group = kArms, capsule.mask = ~kBody;
    rig::Stick plain;
    plain.id = 2, plain.name = "plain", plain.a = 0, plain.b = 1, plain.group = 1u << 7, plain.mask = 0;
    r.sticks = {capsule, plain};
    rig::Triangle t;
    t.id = 1, t.name = "t", t.p[0] = 0, t.p[1] = 1, t.p[2] = 2;
    r.triangles = {t};
    rig::Shape box;
    box.id = 1, box.name = "prop", box.triangle = 0, box.group = kProps, box.mask = kBody | kArms;
    r.shapes = {box};
    return p;
}

} // namespace

class TestCollisionGroups : public QObject {
    Q_OBJECT
  private slots:
    void matrix_isDerivedFromGroupsAndMasks();
    void derivedMatrix_appliedChangesNothing();
    void oneCell_changesTheMasksOfBothGroupsOnly();
    void mixedCell_keepsEachElementsBitUntilSet();
    void setCollisionGroups_isOneUndoStepWithTheNames();
    void names_describeBits();
    void addParticle_takesItsNeighboursMass();
    void addParticle_keepingTheTotal_isOneUndoStep();
};

void TestCollisionGroups::matrix_isDerivedFromGroupsAndMasks()
{
    const project::Project p = groupsProject();
    const editor::CollisionMatrix m = editor::collisionMatrix(p.rig);
    QCOMPARE(m.at(0, 0), CollisionCell::On);
    QCOMPARE(m.at(0, 1), CollisionCell::Off);
    QCOMPARE(m.at(1, 0), CollisionCell::Off);
    QCOMPARE(m.at(1, 1), CollisionCell::On);
    QCOMPARE(m.at(0, 2), CollisionCell::On);  // the prop's mask has body, the body's masks have props
    QCOMPARE(m.at(2, 2), CollisionCell::Off); // the prop ignores props
    QCOMPARE(m.at(2, 5), CollisionCell::Off); // ... and group 6, which nothing is in
    QCOMPARE(m.at(0, 5), CollisionCell::On);
    QCOMPARE(m.at(7, 7), CollisionCell::On);  // the capsule-less stick's bits do not count
    QCOMPARE(editor::usedGroupBits(p.rig), kBody | kArms | kProps);
}

void TestCollisionGroups::derivedMatrix_appliedChangesNothing()
{
    project::Project p = groupsProject();
    p.rig.particles[1].mask &= ~kProps; // a custom mask: (body, props) is Mixed
    QCOMPARE(editor::collisionMatrix(p.rig).at(0, 2), CollisionCell::Mixed);
    QVERIFY(editor::applyCollisionMatrix(p.rig, editor::collisionMatrix(p.rig)).empty());
}

void TestCollisionGroups::oneCell_changesTheMasksOfBothGroupsOnly()
{
    const project::Project p = groupsProject();
    editor::CollisionMatrix m = editor::collisionMatrix(p.rig);
    m.set(0, 1, CollisionCell::On); // body collides with arms
    const std::vector<editor::AnyElement> changed = editor::applyCollisionMatrix(p.rig, m);
    QCOMPARE(changed.size(), std::size_t(5)); // four particles and the capsule; the prop and plain stick not
    for (const editor::AnyElement& e : changed) {
        QVERIFY(editor::kindOf(e) != project::ElementKind::Shape);
        const std::uint32_t mask = std::visit([](const auto& x) -> std::uint32_t {
            if constexpr (requires { x.mask; })
                return x.mask;
            else
                return 0;
        }, e);
        QCOMPARE(mask, ~0u);
    }
}

void TestCollisionGroups::mixedCell_keepsEachElementsBitUntilSet()
{
    project::Project p = groupsProject();
    p.rig.particles[1].mask &= ~kProps;
    editor::CollisionMatrix m = editor::collisionMatrix(p.rig);
    m.set(0, 1, CollisionCell::On);
    Document d;
    d.adopt(p, QString(), false);
    d.undoStack()->push(new editor::SetCollisionGroupsCommand(&d, {}, m));
    QCOMPARE(d.rig().particles[0].mask, ~0u);
    QCOMPARE(d.rig().particles[1].mask, ~kProps); // its own props bit kept
    // Setting the mixed cell Off: both body particles lose props, the prop loses body.
    m = editor::collisionMatrix(d.rig());
    QCOMPARE(m.at(0, 2), CollisionCell::Mixed);
    m.set(0, 2, CollisionCell::Off);
    d.undoStack()->push(new editor::SetCollisionGroupsCommand(&d, {}, m));
    QCOMPARE(d.rig().particles[0].mask, ~kProps);
    QCOMPARE(d.rig().particles[1].mask, ~kProps);
    QCOMPARE(d.rig().shapes[0].mask, kArms);
    QCOMPARE(editor::collisionMatrix(d.rig()).at(0, 2), CollisionCell::Off);
}

void TestCollisionGroups::setCollisionGroups_isOneUndoStepWithTheNames()
{
    Document d;
    d.adopt(groupsProject(), QString(), false);
    QSignalSpy names(&d, &Document::collisionGroupsChanged);
    editor::CollisionMatrix m = editor::collisionMatrix(d.rig());
    m.set(1, 1, CollisionCell::Off); // arms do not collide with arms
    d.undoStack()->push(new editor::SetCollisionGroupsCommand(
        &d, {{1, QStringLiteral("arms")}, {0, QStringLiteral("body")}}, m));
    QCOMPARE(d.undoStack()->count(), 1);
    QCOMPARE(d.undoStack()->undoText(), QStringLiteral("Edit Collision Groups"));
    QCOMPARE(d.project().collisionGroups.size(), std::size_t(2));
    QCOMPARE(d.project().collisionGroups[0].name, QStringLiteral("body")); // kept in bit order
    QCOMPARE(d.rig().particles[2].mask, ~(kBody | kArms));
    QCOMPARE(d.rig().sticks[0].mask, ~(kBody | kArms));
    QCOMPARE(d.rig().shapes[0].mask, kBody | kArms); // (props, arms) did not change
    QCOMPARE(d.rig().particles[0].mask, ~kArms);
    QVERIFY(d.isModified());
    d.undoStack()->undo();
    QVERIFY(d.project().collisionGroups.empty());
    QCOMPARE(d.rig().particles[2].mask, ~kBody);
    QCOMPARE(d.rig().shapes[0].mask, kBody | kArms);
    QVERIFY(!d.isModified());
    d.undoStack()->redo();
    QCOMPARE(d.rig().sticks[0].mask, ~(kBody | kArms));
    QCOMPARE(names.count(), 3);
    // Saved with the project, the names come back; the bits are the rig's.
    QCOMPARE(d.snapshot().collisionGroups[1].name, QStringLiteral("arms"));
}

void TestCollisionGroups::names_describeBits()
{
    const std::vector<project::CollisionGroupName> names{{0, QStringLiteral("body")}, {2, QStringLiteral("props")}};
    QCOMPARE(editor::groupName(names, 2), QStringLiteral("props"));
    QCOMPARE(editor::groupName(names, 1), QStringLiteral("Group 2"));
    QCOMPARE(editor::describeGroupBits(names, 0), QStringLiteral("none"));
    QCOMPARE(editor::describeGroupBits(names, ~0u), QStringLiteral("all"));
    QCOMPARE(editor::describeGroupBits(names, kBody | kProps), QStringLiteral("body, props"));
    QCOMPARE(editor::describeGroupBits(names, ~kArms), QStringLiteral("all but Group 2"));
}

void TestCollisionGroups::addParticle_takesItsNeighboursMass()
{
    project::Project p;
    p.rig.particles = {particle(1, {0, 0, 0}, 1, ~0u, 2.f), particle(2, {1, 0, 0}, 1, ~0u, 2.f),
                       particle(3, {0, 1, 0}, 1, ~0u, 4.f), particle(4, {10, 0, 0}, 1, ~0u, 8.f),
                       particle(5, {0.1f, 0, 0}, 1, ~0u, 0.f)}; // kinematic: not a neighbour
    QCOMPARE(editor::neighbourMass(p.rig, {0.1f, 0.1f, 0}), 8.f / 3.f);
    QCOMPARE(editor::neighbourMass(rig::RigDescription{}, {}), 1.f);
    Document d;
    d.adopt(p, QString(), false);
    d.undoStack()->push(editor::AddParticleCommand::withNeighbourMass(&d, {0.1f, 0.1f, 0}, 0.05f, rig::kNone, false));
    QCOMPARE(d.rig().particles.size(), std::size_t(6));
    QCOMPARE(d.rig().particles.back().mass, 8.f / 3.f);
    QCOMPARE(d.rig().particles[3].mass, 8.f); // the others untouched
}

void TestCollisionGroups::addParticle_keepingTheTotal_isOneUndoStep()
{
    project::Project p;
    p.rig.particles = {particle(1, {0, 0, 0}, 1, ~0u, 2.f), particle(2, {1, 0, 0}, 1, ~0u, 2.f),
                       particle(3, {0, 1, 0}, 1, ~0u, 4.f), particle(4, {10, 0, 0}, 1, ~0u, 8.f),
                       particle(5, {0, 0, 5}, 1, ~0u, 0.f)};
    Document d;
    d.adopt(p, QString(), false);
    d.undoStack()->push(editor::AddParticleCommand::withNeighbourMass(&d, {0.1f, 0.1f, 0}, 0.05f, rig::kNone, true));
    QCOMPARE(d.undoStack()->count(), 1);
    // Total 16 kg; the new particle's 8/3 kg makes 56/3, so every dynamic mass is scaled by 16 / (56/3) = 6/7.
    const auto& q = d.rig().particles;
    QCOMPARE(q.size(), std::size_t(6));
    QVERIFY(qAbs(q[5].mass - 16.f / 7.f) < 1e-6f);
    QVERIFY(qAbs(q[0].mass - 12.f / 7.f) < 1e-6f);
    QVERIFY(qAbs(q[3].mass - 48.f / 7.f) < 1e-6f);
    QCOMPARE(q[4].mass, 0.f);
    QVERIFY(qAbs(editor::totalMass(d.rig()) - 16.0) < 1e-5);
    QCOMPARE(d.selection().size(), std::size_t(1)); // the new particle, selected
    d.undoStack()->undo();
    QCOMPARE(d.rig().particles.size(), std::size_t(5));
    QCOMPARE(d.rig().particles[0].mass, 2.f);
    QCOMPARE(d.rig().particles[3].mass, 8.f);
    d.undoStack()->redo();
    QVERIFY(qAbs(d.rig().particles[5].mass - 16.f / 7.f) < 1e-6f);
    // ReplaceElementsCommand alone: masses of named particles, one step, restored exactly on undo.
    d.undoStack()->push(new editor::ReplaceElementsCommand(&d, editor::particlesWithMasses(d.rig(), {1, 1, 1, 1, 0, 1}),
        QStringLiteral("Masses")));
    QCOMPARE(editor::totalMass(d.rig()), 5.0);
    d.undoStack()->undo();
    QVERIFY(qAbs(d.rig().particles[3].mass - 48.f / 7.f) < 1e-6f);
}

QTEST_GUILESS_MAIN(TestCollisionGroups)
#include "tst_collisiongroups.moc"
