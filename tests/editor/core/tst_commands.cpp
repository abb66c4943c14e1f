// editor/core Document and undo commands, without widgets: each command's redo changes what it says and its
// undo restores the document exactly (the rig field by field and bit for bit, the project JSON with the
// editor state and selection); merging; one step per compound edit; the clean state; the signals; and a
// long seeded random session undone and redone to the bit.
#include "AutoRigTestSupport.h"
#include "RigDump.h"
#include "RigEditTestSupport.h"

#include "marionette/editor/document/Document.h"
#include "marionette/editor/document/Properties.h"
#include "marionette/editor/document/commands/AddAngularConstraintCommand.h"
#include "marionette/editor/document/commands/AddParticleCommand.h"
#include "marionette/editor/document/commands/AddStickCommand.h"
#include "marionette/editor/document/commands/AddTriangleCommand.h"
#include "marionette/editor/document/commands/ApplyAutoRigCommand.h"
#include "marionette/editor/document/commands/ChangePropertyCommand.h"
#include "marionette/editor/document/commands/MoveParticlesCommand.h"
#include "marionette/editor/document/commands/RemoveElementsCommand.h"
#include "marionette/editor/document/commands/ReplaceRigCommand.h"
#include "marionette/editor/document/commands/ReplaceMeshCommand.h"
#include "marionette/editor/document/commands/SetElementViewCommand.h"
#include "marionette/editor/document/commands/SetLodsCommand.h"
#include "marionette/project/ProjectFile.h"
#include "marionette/runtime/Procedural.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>
#include <random>

using namespace marionette;
using namespace marionette::test;
using editor::Document;

namespace {

struct State {
    QStringList rig;
    QByteArray project; ///< writeProject() of the snapshot: rig, mesh, editor state with views and selection
};

State stateOf(const Document& doc)
{
    QString error;
    State s{dumpRig(doc.rig()), project::writeProject(doc.snapshot(), error)};
    if (!error.isEmpty())
        s.project = "writeProject failed: " + error.toUtf8();
    return s;
}

#define COMPARE_STATE(actual, expected)                                                                          \
    do {                                                                                                         \
        const State a_ = (actual), e_ = (expected);                                                              \
        QCOMPARE(a_.rig, e_.rig);                                                                                \
        QCOMPARE(a_.project, e_.project);                                                                        \
    } while (false)

std::unique_ptr<Document> documentWith(rig::RigDescription rig)
{
    auto doc = std::make_unique<Document>();
    project::Project p;
    p.name = QStringLiteral("test");
    p.rig = std::move(rig);
    doc->adopt(std::move(p), QString(), false);
    return doc;
}

rig::RigDescription twoParticles(Vec3 a, Vec3 b)
{
    rig::RigDescription r;
    r.particles = {P(0, a, kNone), P(1, b, kNone)};
    return r;
}

std::vector<ElementRef> refs(const Document& doc, const QStringList& names) { return refsNamed(doc.rig(), names); }

} // namespace

class TestCommands : public QObject {
    Q_OBJECT
  private slots:
    // Tools ▸ Levels of Detail…'s step: the project's levels replaced, undone and redone, each time signalled
    // and marking the document modified; the rig itself untouched.
    void setLods_isOneStepBothWays()
    {
        auto doc = documentWith(sampleRig());
        const rig::RigDescription rig = doc->rig();
        QSignalSpy changed(doc.get(), &Document::lodsChanged);
        project::LodLevel level;
        level.targetParticles = 3;
        level.rig = rig;
        level.rig.particles.resize(3);
        doc->undoStack()->push(new editor::SetLodsCommand(doc.get(), {level}, QStringLiteral("Generate Level of Detail (3 particles)")));
        QCOMPARE(doc->project().lods.size(), std::size_t(1));
        QCOMPARE(doc->project().lods[0].rig.particles.size(), std::size_t(3));
        QCOMPARE(doc->undoStack()->undoText(), QStringLiteral("Generate Level of Detail (3 particles)"));
        QVERIFY(doc->isModified());
        QCOMPARE(dumpRig(doc->rig()), dumpRig(rig));
        doc->undoStack()->undo();
        QVERIFY(doc->project().lods.empty());
        QVERIFY(!doc->isModified());
        doc->undoStack()->redo();
        QCOMPARE(doc->project().lods.size(), std::size_t(1));
        QCOMPARE(changed.count(), 3);
    }

    // Edit ▸ Mirror Left → Right's step: the whole rig replaced; views of the elements that remain are kept.
    void replaceRig_keepsTheViewsOfTheElementsThatRemain()
    {
        auto doc = documentWith(sampleRig());
        const rig::RigDescription before = doc->rig();
        const ElementRef first{ElementKind::Particle, before.particles[0].id}, last{ElementKind::Particle, before.particles.back().id};
        doc->undoStack()->push(new editor::SetElementViewCommand(doc.get(), {first, last}, false, true));
        rig::RigDescription after = before;
        after.particles[0].position += Vec3{0.f, 1.f, 0.f};
        editor::removeElements(after, editor::withDependents(after, {last}));
        doc->undoStack()->push(new editor::ReplaceRigCommand(doc.get(), after, QStringLiteral("Mirror Left to Right")));
        QCOMPARE(dumpRig(doc->rig()), dumpRig(after));
        QVERIFY(!doc->isVisible(first) && doc->isLocked(first));
        QCOMPARE(doc->project().editor.elements.size(), std::size_t(1));
        doc->undoStack()->undo();
        QCOMPARE(dumpRig(doc->rig()), dumpRig(before));
        QVERIFY(!doc->isVisible(last) && doc->isLocked(last));
    }

    void addParticle_redoUndo_restoresRigAndSelection()
    {
        auto doc = documentWith(sampleRig());
        doc->setSelection(refs(*doc, {"p0"}));
        const State before = stateOf(*doc);
        auto* cmd = new editor::AddParticleCommand(doc.get(), {1, 2, 3}, 0.04f, 2.f);
        doc->undoStack()->push(cmd);
        QCOMPARE(doc->rig().particles.size(), std::size_t(7));
        const rig::Particle& p = doc->rig().particles.back();
        QCOMPARE(p.id, rig::ElementId(136)); // one above sampleId(5) = 135
        QCOMPARE(p.name, std::string("particle1"));
        QCOMPARE(p.position, (Vec3{1, 2, 3}));
        QCOMPARE(p.radius, 0.04f);
        QCOMPARE(p.mass, 2.f);
        QCOMPARE(p.bone, kNone);
        QCOMPARE(doc->selection(), (std::vector<ElementRef>{{ElementKind::Particle, 136}}));
        QCOMPARE(cmd->ref(), (ElementRef{ElementKind::Particle, 136}));
        const State after = stateOf(*doc);
        doc->undoStack()->undo();
        COMPARE_STATE(stateOf(*doc), before);
        doc->undoStack()->redo();
        COMPARE_STATE(stateOf(*doc), after);
    }

    void addParticle_snappedToJoint_takesTheBoneName()
    {
        auto doc = documentWith(sampleRig());
        doc->undoStack()->push(new editor::AddParticleCommand(doc.get(), {0, 2, 0}, 0.05f, 1.f, 2));
        QCOMPARE(doc->rig().particles.back().name, std::string("b2"));
        QCOMPARE(doc->rig().particles.back().bone, 2);
        doc->undoStack()->push(new editor::AddParticleCommand(doc.get(), {0, 2, 0}, 0.05f, 1.f, 2));
        QCOMPARE(doc->rig().particles.back().name, std::string("particle1")); // "b2" is taken
        QCOMPARE(doc->rig().particles.back().bone, 2);
    }

    void addStick_defaultsFromBindDistance_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<float>("minLength");
        QTest::addColumn<float>("maxLength");
        QTest::addColumn<QString>("name");
        // particles (0,0,0) and (0,3,4): bind distance 5
        QTest::newRow("rigid: rest = bind distance (-1)") << int(rig::StickKind::Rigid) << 0.f << 0.f << "stick1";
        QTest::newRow("range: [0.9 d, 1.1 d]") << int(rig::StickKind::Range) << 4.5f << 5.5f << "range1";
        QTest::newRow("min-only: d") << int(rig::StickKind::MinOnly) << 5.f << 0.f << "min1";
        QTest::newRow("max-only: d") << int(rig::StickKind::MaxOnly) << 0.f << 5.f << "max1";
    }
    void addStick_defaultsFromBindDistance()
    {
        QFETCH(int, kind);
        QFETCH(float, minLength);
        QFETCH(float, maxLength);
        QFETCH(QString, name);
        auto doc = documentWith(twoParticles({0, 0, 0}, {0, 3, 4}));
        const State before = stateOf(*doc);
        doc->undoStack()->push(new editor::AddStickCommand(doc.get(), 1, 0, rig::StickKind(kind)));
        QCOMPARE(doc->rig().sticks.size(), std::size_t(1));
        const rig::Stick& s = doc->rig().sticks[0];
        QCOMPARE(s.a, 1);
        QCOMPARE(s.b, 0);
        QCOMPARE(int(s.kind), kind);
        QCOMPARE(s.restLength, -1.f); // "< 0 = bind distance", for every kind
        QCOMPARE(s.minLength, minLength);
        QCOMPARE(s.maxLength, maxLength);
        QCOMPARE(QString::fromStdString(s.name), name);
        QCOMPARE(s.id, rig::ElementId(1));
        QCOMPARE(QString::fromStdString(doc->rig().validate()), QString());
        const State after = stateOf(*doc);
        doc->undoStack()->undo();
        COMPARE_STATE(stateOf(*doc), before);
        doc->undoStack()->redo();
        COMPARE_STATE(stateOf(*doc), after);
    }

    void addTriangle_redoUndo()
    {
        auto doc = documentWith(sampleRig());
        const State before = stateOf(*doc);
        doc->undoStack()->push(new editor::AddTriangleCommand(doc.get(), 0, 1, 3));
        const rig::Triangle& t = doc->rig().triangles.back();
        QCOMPARE(doc->rig().triangles.size(), std::size_t(4));
        QCOMPARE((std::vector<int>{t.p[0], t.p[1], t.p[2]}), (std::vector<int>{0, 1, 3}));
        QCOMPARE(t.name, std::string("triangle1"));
        QCOMPARE(t.id, rig::ElementId(115));
        QCOMPARE(doc->selection(), (std::vector<ElementRef>{{ElementKind::Triangle, 115}}));
        doc->undoStack()->undo();
        COMPARE_STATE(stateOf(*doc), before);
    }

    void addAngularConstraint_isA45DegreeCone()
    {
        auto doc = documentWith(sampleRig());
        const State before = stateOf(*doc);
        doc->undoStack()->push(new editor::AddAngularConstraintCommand(doc.get(), 2, 0));
        const rig::AngularConstraint& c = doc->rig().angular.back();
        QCOMPARE(c.triangleA, 2);
        QCOMPARE(c.triangleB, 0);
        QCOMPARE(c.limit, rig::AngularLimit::Cone);
        QCOMPARE(c.coneAngle, radians(45.f));
        QCOMPARE(c.name, std::string("angular1"));
        QCOMPARE(c.id, rig::ElementId(108));
        QCOMPARE(QString::fromStdString(doc->rig().validate()), QString());
        doc->undoStack()->undo();
        COMPARE_STATE(stateOf(*doc), before);
    }

    void removeElements_withDependents_isOneStep()
    {
        auto doc = documentWith(sampleRig());
        doc->undoStack()->push(new editor::SetElementViewCommand(doc.get(), refs(*doc, {"s0", "s2"}), false, std::nullopt));
        doc->setSelection(refs(*doc, {"p1", "s2"}));
        const State before = stateOf(*doc);
        const int count = doc->undoStack()->count();
        auto* cmd = new editor::RemoveElementsCommand(doc.get(), refs(*doc, {"p1"}));
        QCOMPARE(namesOf(doc->rig(), cmd->removed()),
            (QStringList{"a0", "d0", "d1", "g0", "h1", "p1", "s0", "s1", "t0"}));
        doc->undoStack()->push(cmd);
        QCOMPARE(doc->undoStack()->count(), count + 1);
        rig::RigDescription expected = sampleRig();
        editor::removeElements(expected, editor::withDependents(expected, refsNamed(expected, {"p1"})));
        QCOMPARE(dumpRig(doc->rig()), dumpRig(expected));
        QCOMPARE(doc->selection(), refs(*doc, {"s2"}));                     // p1 went
        QCOMPARE(doc->project().editor.elements.size(), std::size_t(1));    // s0's view went with it
        QVERIFY(!doc->isVisible(refNamed(doc->rig(), "s2")));
        const State after = stateOf(*doc);
        doc->undoStack()->undo();
        COMPARE_STATE(stateOf(*doc), before);
        QCOMPARE(doc->selection(), refs(*doc, {"p1", "s2"}));
        doc->undoStack()->redo();
        COMPARE_STATE(stateOf(*doc), after);
    }

    // A drive profile names triangles and sticks by index: deleting one drops the parts that named it and
    // renumbers the others (the profiles stay, even with no part left); undo brings the parts back.
    void removeElements_dropsTheDriveProfilePartsOfRemovedElements()
    {
        rig::RigDescription r = sampleRig(); // sticks s0 (p0–p1) s1 (p1–p2) s2 s3, triangles t0 (p0 p1 p2) t1 t2
        rig::DriveProfile stagger;
        stagger.name = "stagger";
        stagger.defaults.motorFrequency = 4.f;
        const rig::DriveGains chest{12.f, 1.f, 0.f, 0.f, 1.f, 0.f, false}, neck{0.f, 1.f, 0.f, 0.f, 1.f, 0.f, true};
        stagger.parts = {{rig::DrivePartKind::Triangle, 0, {}}, {rig::DrivePartKind::Triangle, 2, chest},
                         {rig::DrivePartKind::Stick, 1, {}}, {rig::DrivePartKind::Stick, 3, neck}};
        rig::DriveProfile limp;
        limp.name = "limp";
        limp.parts = {{rig::DrivePartKind::Triangle, 0, chest}};
        r.driveProfiles = {stagger, limp};
        QCOMPARE(QString::fromStdString(r.validate()), QString());
        auto doc = documentWith(r);
        const State before = stateOf(*doc);

        doc->undoStack()->push(new editor::RemoveElementsCommand(doc.get(), refs(*doc, {"p1"}))); // takes s0 s1 t0
        const rig::RigDescription& after = doc->rig();
        QCOMPARE(after.triangles.size(), std::size_t(2));
        QCOMPARE(after.sticks.size(), std::size_t(2));
        QCOMPARE(after.driveProfiles.size(), std::size_t(2));
        const std::vector<rig::DrivePart>& parts = after.driveProfiles[0].parts;
        QCOMPARE(parts.size(), std::size_t(2));
        QCOMPARE(parts[0].kind, rig::DrivePartKind::Triangle);
        QCOMPARE(after.triangles[std::size_t(parts[0].index)].name, std::string("t2")); // index 2 -> 1
        QCOMPARE(parts[0].gains, chest);
        QCOMPARE(parts[1].kind, rig::DrivePartKind::Stick);
        QCOMPARE(after.sticks[std::size_t(parts[1].index)].name, std::string("s3")); // index 3 -> 1
        QCOMPARE(parts[1].gains, neck);
        QCOMPARE(after.driveProfiles[0].defaults.motorFrequency, 4.f);
        QVERIFY(after.driveProfiles[1].parts.empty());
        QCOMPARE(QString::fromStdString(after.validate()), QString());
        const State removed = stateOf(*doc);

        doc->undoStack()->undo();
        COMPARE_STATE(stateOf(*doc), before);
        QCOMPARE(doc->rig().driveProfiles[0].parts.size(), std::size_t(4));
        QCOMPARE(doc->rig().driveProfiles[1].parts.size(), std::size_t(1));
        doc->undoStack()->redo();
        COMPARE_STATE(stateOf(*doc), removed);
    }

    void moveParticles_mergesWithinOneDrag_data()
    {
        QTest::addColumn<int>("firstDrag");
        QTest::addColumn<int>("secondDrag");
        QTest::addColumn<QStringList>("secondParticles");
        QTest::addColumn<int>("steps");
        QTest::newRow("same drag, same particles: one step") << 7 << 7 << QStringList{"p0", "p2"} << 1;
        QTest::newRow("another drag") << 7 << 8 << QStringList{"p0", "p2"} << 2;
        QTest::newRow("drag id 0 never merges") << 0 << 0 << QStringList{"p0", "p2"} << 2;
        QTest::newRow("same drag, other particles") << 7 << 7 << QStringList{"p0"} << 2;
    }
    void moveParticles_mergesWithinOneDrag()
    {
        QFETCH(int, firstDrag);
        QFETCH(int, secondDrag);
        QFETCH(QStringList, secondParticles);
        QFETCH(int, steps);
        auto doc = documentWith(sampleRig());
        const State before = stateOf(*doc);
        QUndoStack* stack = doc->undoStack();
        stack->push(new editor::MoveParticlesCommand(doc.get(), refs(*doc, {"p0", "p2"}), {{0, 0, 0.5f}, {1, 0, 0.5f}}, firstDrag));
        const State middle = stateOf(*doc);
        const auto second = refs(*doc, secondParticles);
        stack->push(new editor::MoveParticlesCommand(doc.get(), second,
            std::vector<Vec3>(second.size(), Vec3{0.25f, 0.25f, 0.25f}), secondDrag));
        QCOMPARE(stack->count(), steps);
        QCOMPARE(doc->rig().particles[0].position, (Vec3{0.25f, 0.25f, 0.25f}));
        const Vec3 p2 = steps == 1 || second.size() == 2 ? Vec3{0.25f, 0.25f, 0.25f} : Vec3{1, 0, 0.5f};
        QCOMPARE(doc->rig().particles[2].position, p2);
        const State after = stateOf(*doc);
        stack->undo();
        COMPARE_STATE(stateOf(*doc), steps == 1 ? before : middle);
        stack->setIndex(0);
        COMPARE_STATE(stateOf(*doc), before);
        stack->setIndex(stack->count());
        COMPARE_STATE(stateOf(*doc), after);
    }

    void changeProperty_merges_data()
    {
        QTest::addColumn<QStringList>("secondTargets");
        QTest::addColumn<QString>("secondKey");
        QTest::addColumn<int>("steps");
        QTest::newRow("same property, same elements: one step") << QStringList{"p0", "p2"} << "radius" << 1;
        QTest::newRow("another property") << QStringList{"p0", "p2"} << "mass" << 2;
        QTest::newRow("other elements") << QStringList{"p0"} << "radius" << 2;
    }
    void changeProperty_merges()
    {
        QFETCH(QStringList, secondTargets);
        QFETCH(QString, secondKey);
        QFETCH(int, steps);
        auto doc = documentWith(sampleRig());
        const State before = stateOf(*doc);
        QUndoStack* stack = doc->undoStack();
        stack->push(new editor::ChangePropertyCommand(doc.get(), refs(*doc, {"p0", "p2"}), "radius", 0.125));
        stack->push(new editor::ChangePropertyCommand(doc.get(), refs(*doc, secondTargets), secondKey, 0.25));
        QCOMPARE(stack->count(), steps);
        const State after = stateOf(*doc);
        stack->setIndex(0);
        COMPARE_STATE(stateOf(*doc), before);
        stack->setIndex(stack->count());
        COMPARE_STATE(stateOf(*doc), after);
    }

    void changeProperty_settings_mergeAndRestore()
    {
        auto doc = documentWith(sampleRig());
        const State before = stateOf(*doc);
        QUndoStack* stack = doc->undoStack();
        stack->push(new editor::ChangePropertyCommand(doc.get(), "iterations", qulonglong(10)));
        stack->push(new editor::ChangePropertyCommand(doc.get(), "iterations", qulonglong(12)));
        QCOMPARE(stack->count(), 1);
        QCOMPARE(doc->rig().settings.iterations, 12u);
        stack->push(new editor::ChangePropertyCommand(doc.get(), "gravity", QVariantList{0.0, -1.5, 0.0}));
        QCOMPARE(stack->count(), 2);
        QCOMPARE(doc->rig().settings.gravity, (Vec3{0, -1.5f, 0}));
        stack->setIndex(0);
        COMPARE_STATE(stateOf(*doc), before);
    }

    void changeProperty_multiSelection_isOneStep()
    {
        auto doc = documentWith(sampleRig());
        const State before = stateOf(*doc);
        std::vector<ElementRef> changed;
        connect(doc.get(), &Document::elementsChanged, this,
            [&](const std::vector<ElementRef>& r) { changed.insert(changed.end(), r.begin(), r.end()); });
        doc->undoStack()->push(new editor::ChangePropertyCommand(doc.get(), refs(*doc, {"s0", "s2", "s3"}), "kind", 1));
        QCOMPARE(doc->undoStack()->count(), 1);
        for (int i : {0, 2, 3})
            QCOMPARE(doc->rig().sticks[std::size_t(i)].kind, rig::StickKind::Range);
        QCOMPARE(doc->rig().sticks[1].kind, rig::StickKind::Rigid);
        QCOMPARE(changed, refs(*doc, {"s0", "s2", "s3"}));
        doc->undoStack()->undo();
        COMPARE_STATE(stateOf(*doc), before);
    }

    void changeProperty_noTargets_changesNothing()
    {
        auto doc = documentWith(sampleRig());
        const State before = stateOf(*doc);
        // An empty multi-selection: nothing to change, nothing in the history (and no settings touched).
        doc->undoStack()->push(new editor::ChangePropertyCommand(doc.get(), std::vector<ElementRef>{}, "radius", 0.5));
        doc->undoStack()->push(new editor::ChangePropertyCommand(doc.get(), std::vector<ElementRef>{}, "damping", 1.5));
        QCOMPARE(doc->undoStack()->count(), 0);
        COMPARE_STATE(stateOf(*doc), before);
        QVERIFY(!doc->isModified());
    }

    void applyAutoRig_isOneStep()
    {
        auto doc = documentWith(sampleRig());
        doc->undoStack()->push(new editor::SetElementViewCommand(doc.get(), refs(*doc, {"p0"}), std::nullopt, true));
        doc->setSelection(refs(*doc, {"t1", "p3"}));
        const State before = stateOf(*doc);
        const editor::AutoRigResult made = editor::autoRig(makeHumanoidCharacter({}).input);
        QVERIFY2(made.ok, made.error.c_str());
        doc->undoStack()->push(new editor::ApplyAutoRigCommand(doc.get(), made.rig, QStringLiteral("humanoid")));
        QCOMPARE(doc->undoStack()->count(), 2);
        QCOMPARE(doc->rig().particles.size(), made.rig.particles.size());
        QCOMPARE(project::checkElementIds(doc->rig()), QString()); // every element got a unique id
        QVERIFY(doc->selection().empty());
        QVERIFY(doc->project().editor.elements.empty());
        const State after = stateOf(*doc);
        doc->undoStack()->undo();
        COMPARE_STATE(stateOf(*doc), before);
        QVERIFY(doc->isLocked(refNamed(doc->rig(), "p0")));
        doc->undoStack()->redo();
        COMPARE_STATE(stateOf(*doc), after);
    }

    // Re-running the auto-rig keeps what an artist tuned: a profile of the old rig replaces the template's of the
    // same name, its parts found again by element name; a profile the template lacks is kept; a part whose
    // element the new rig lacks is dropped and reported; undo brings the old profiles back.
    void applyAutoRig_keepsTheDriveProfilesByElementName()
    {
        const editor::AutoRigResult made = editor::autoRig(makeHumanoidCharacter({}).input);
        QVERIFY2(made.ok, made.error.c_str());
        rig::RigDescription tuned = made.rig;
        project::assignMissingIds(tuned);
        auto triangleNamed = [](const rig::RigDescription& r, const std::string& name) {
            for (std::size_t i = 0; i < r.triangles.size(); ++i)
                if (r.triangles[i].name == name)
                    return std::int32_t(i);
            return rig::kNone;
        };
        rig::DriveProfile* balanced = nullptr;
        for (rig::DriveProfile& p : tuned.driveProfiles)
            if (p.name == "balanced")
                balanced = &p;
        QVERIFY(balanced);
        rig::DriveGains chest;
        chest.motorFrequency = 42.f;
        balanced->parts.push_back({rig::DrivePartKind::Triangle, triangleNamed(tuned, "chest"), chest});
        rig::DriveProfile guard;
        guard.name = "guard";
        guard.defaults.motorFrequency = 12.f;
        guard.parts.push_back({rig::DrivePartKind::Triangle, triangleNamed(tuned, "head"), chest});
        tuned.driveProfiles.push_back(guard);
        tuned.triangles[std::size_t(triangleNamed(tuned, "head"))].name = "helmet"; // the new rig has no "helmet"
        project::assignMissingIds(tuned);
        auto doc = documentWith(tuned);
        const State before = stateOf(*doc);

        auto* command = new editor::ApplyAutoRigCommand(doc.get(), made.rig, QStringLiteral("humanoid"));
        QCOMPARE(command->droppedDriveParts(), (std::vector<std::string>{"guard: helmet"}));
        doc->undoStack()->push(command);
        const rig::RigDescription& now = doc->rig();
        QCOMPARE(project::checkElementIds(now), QString());
        QStringList names;
        for (const rig::DriveProfile& p : now.driveProfiles)
            names << QString::fromStdString(p.name);
        QCOMPARE(names, (QStringList{"limp", "stagger", "balanced", "stiff", "guard"}));
        const rig::DriveProfile& kept = now.driveProfiles[2];
        QCOMPARE(kept.gainsOf(rig::DrivePartKind::Triangle, triangleNamed(now, "chest")).motorFrequency, 42.f);
        QCOMPARE(kept.parts.size(), balanced->parts.size());
        QCOMPARE(now.driveProfiles[4].defaults.motorFrequency, 12.f);
        QVERIFY(now.driveProfiles[4].parts.empty());
        doc->undoStack()->undo();
        COMPARE_STATE(stateOf(*doc), before);
        QCOMPARE(doc->rig().driveProfiles.size(), tuned.driveProfiles.size());
        QCOMPARE(doc->rig().driveProfiles.back().name, std::string("guard"));
        QCOMPARE(doc->rig().driveProfiles.back().parts.size(), std::size_t(1)); // "helmet" is back
    }

    void setElementView_redoUndo()
    {
        auto doc = documentWith(sampleRig());
        const State before = stateOf(*doc);
        const auto targets = refs(*doc, {"s1", "t0"});
        doc->undoStack()->push(new editor::SetElementViewCommand(doc.get(), targets, false, true));
        QVERIFY(!doc->isVisible(targets[0]) && doc->isLocked(targets[1]));
        QVERIFY(doc->isVisible(refNamed(doc->rig(), "s0")));
        const State after = stateOf(*doc);
        doc->undoStack()->push(new editor::SetElementViewCommand(doc.get(), targets, true, false));
        QVERIFY(doc->project().editor.elements.empty()); // back to the defaults: no entries kept
        doc->undoStack()->undo();
        COMPARE_STATE(stateOf(*doc), after);
        doc->undoStack()->undo();
        COMPARE_STATE(stateOf(*doc), before);
    }

    void replaceMesh_redoUndo()
    {
        auto doc = documentWith(sampleRig());
        const State before = stateOf(*doc);
        QSignalSpy meshChanged(doc.get(), &Document::meshChanged);
        auto scene = std::make_shared<import::ImportedScene>();
        project::SourceMesh source{QStringLiteral("/assets/hero.glb"), QString()};
        project::ImportSettings settings;
        settings.scaleToMetres = 0.01;
        doc->undoStack()->push(new editor::ReplaceMeshCommand(doc.get(), source, settings, scene));
        QCOMPARE(doc->mesh().get(), scene.get());
        QCOMPARE(doc->project().sourceMesh.path, QStringLiteral("/assets/hero.glb"));
        QCOMPARE(doc->project().import.scaleToMetres, 0.01);
        doc->undoStack()->undo();
        QVERIFY(!doc->mesh());
        COMPARE_STATE(stateOf(*doc), before);
        QCOMPARE(meshChanged.count(), 2);
    }

    void randomSession_undoAllRedoAll_isExact();

    void isModified_followsCleanState()
    {
        auto doc = documentWith(sampleRig());
        QSignalSpy modified(doc.get(), &Document::modifiedChanged);
        QVERIFY(!doc->isModified());
        doc->undoStack()->push(new editor::AddParticleCommand(doc.get(), {0, 3, 0}, 0.05f));
        QVERIFY(doc->isModified());
        doc->undoStack()->undo();
        QVERIFY(!doc->isModified());
        doc->undoStack()->redo();
        QVERIFY(doc->isModified());
        QCOMPARE(modified.count(), 3);
        QCOMPARE(modified.at(0).at(0).toBool(), true);
        QCOMPARE(modified.at(1).at(0).toBool(), false);
        QCOMPARE(modified.at(2).at(0).toBool(), true);
        doc->setSelection(refs(*doc, {"p2"})); // selection is not an edit
        QCOMPARE(modified.count(), 3);
    }

    void signals_fireForEachKindOfChange()
    {
        auto doc = documentWith(sampleRig());
        QSignalSpy structure(doc.get(), &Document::structureChanged);
        QSignalSpy settings(doc.get(), &Document::settingsChanged);
        QSignalSpy views(doc.get(), &Document::viewsChanged);
        QSignalSpy selection(doc.get(), &Document::selectionChanged);
        std::vector<std::vector<ElementRef>> elements;
        connect(doc.get(), &Document::elementsChanged, this, [&](const std::vector<ElementRef>& r) { elements.push_back(r); });
        QUndoStack* stack = doc->undoStack();

        stack->push(new editor::AddStickCommand(doc.get(), 0, 4, rig::StickKind::MaxOnly));
        QCOMPARE(structure.count(), 1);
        QCOMPARE(selection.count(), 1); // the new stick is selected
        QVERIFY(elements.empty() && settings.isEmpty() && views.isEmpty());

        const auto moved = refs(*doc, {"p3"});
        stack->push(new editor::MoveParticlesCommand(doc.get(), moved, {{0, 0, 2}}));
        QCOMPARE(elements, (std::vector<std::vector<ElementRef>>{moved}));
        const auto renamed = refs(*doc, {"t1"});
        stack->push(new editor::ChangePropertyCommand(doc.get(), renamed, "name", QString("chest")));
        QCOMPARE(elements.back(), renamed);
        QCOMPARE(doc->rig().triangles[1].name, std::string("chest"));
        QCOMPARE(structure.count(), 1);

        stack->push(new editor::ChangePropertyCommand(doc.get(), "damping", 1.5));
        QCOMPARE(settings.count(), 1);
        QCOMPARE(doc->rig().settings.damping, 1.5f);
        stack->push(new editor::SetElementViewCommand(doc.get(), moved, false, std::nullopt));
        QCOMPARE(views.count(), 1);

        doc->setSelection(refs(*doc, {"p0", "p0", "p9"})); // repeats and missing dropped
        QCOMPARE(selection.count(), 2);
        QCOMPARE(doc->selection(), refs(*doc, {"p0"}));
        doc->setSelection(refs(*doc, {"p0"})); // unchanged: no signal
        QCOMPARE(selection.count(), 2);

        stack->push(new editor::RemoveElementsCommand(doc.get(), refs(*doc, {"p0"})));
        QCOMPARE(structure.count(), 2);
        QCOMPARE(selection.count(), 3); // p0 was selected
        QVERIFY(doc->selection().empty());
        stack->undo();
        QCOMPARE(structure.count(), 3);
        QCOMPARE(doc->selection(), refs(*doc, {"p0"}));
        QCOMPARE(doc->selectedIndices(ElementKind::Particle), (std::vector<std::int32_t>{0}));
    }
};

// A seeded random session on the humanoid: adds of every kind, removals with dependents, moves in and out of
// drags, property edits on one or many elements and on the settings, view changes, now and then an undo or
// a redo. The state is recorded at every undo index; undoing everything walks back through exactly those
// states to the start, redoing everything walks forward to the end.
void TestCommands::randomSession_undoAllRedoAll_isExact()
{
    rig::RigDescription start = runtime::makeHumanoid();
    project::assignMissingIds(start);
    auto doc = documentWith(start);
    QUndoStack* stack = doc->undoStack();
    std::mt19937 rng(20240611u);
    auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
    auto real = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    auto point = [&] { return Vec3{float(real(-1, 1)), float(real(0, 2)), float(real(-1, 1))}; };
    auto distinct = [&](std::size_t n, std::size_t count) {
        std::vector<std::int32_t> out;
        while (out.size() < count)
            if (const auto i = std::int32_t(pick(n)); std::find(out.begin(), out.end(), i) == out.end())
                out.push_back(i);
        return out;
    };
    auto randomValue = [&](const editor::PropertyDef& d) -> QVariant {
        const double lo = std::max(d.minimum, -10.0), hi = std::min(d.maximum, 10.0);
        switch (d.type) {
        case editor::PropertyType::Float: return d.minimumExclusive ? real(lo + (hi - lo) * 0.01, hi) : real(lo, hi);
        case editor::PropertyType::UInt: return qulonglong(lo + double(pick(std::size_t(hi - lo) + 1)));
        case editor::PropertyType::Bool: return pick(2) == 1;
        case editor::PropertyType::String: return QStringLiteral("n%1").arg(pick(1000));
        case editor::PropertyType::Vec3: return QVariantList{real(lo, hi), real(lo, hi), real(lo, hi)};
        case editor::PropertyType::Enum: return int(pick(std::size_t(d.enumNames.size())));
        case editor::PropertyType::Element: break;
        }
        return {};
    };

    std::vector<State> states{stateOf(*doc)};
    int pushes = 0, undos = 0, redos = 0;
    for (int step = 0; step < 300; ++step) {
        const rig::RigDescription& r = doc->rig();
        const std::size_t op = pick(12);
        QUndoCommand* cmd = nullptr;
        if (op == 0)
            cmd = new editor::AddParticleCommand(doc.get(), point(), float(real(0.01, 0.1)));
        else if (op == 1 && r.particles.size() >= 2) {
            const auto p = distinct(r.particles.size(), 2);
            cmd = new editor::AddStickCommand(doc.get(), p[0], p[1], rig::StickKind(pick(4)));
        } else if (op == 2 && r.particles.size() >= 3) {
            const auto p = distinct(r.particles.size(), 3);
            cmd = new editor::AddTriangleCommand(doc.get(), p[0], p[1], p[2]);
        } else if (op == 3 && r.triangles.size() >= 2) {
            const auto t = distinct(r.triangles.size(), 2);
            cmd = new editor::AddAngularConstraintCommand(doc.get(), t[0], t[1]);
        } else if (op == 4) {
            const auto kind = ElementKind(pick(project::kElementKindCount));
            const std::size_t n = editor::countOf(r, kind);
            if (n > 0 && (kind != ElementKind::Particle || n > 6))
                cmd = new editor::RemoveElementsCommand(doc.get(), {{kind, editor::idAt(r, kind, pick(n))}});
        } else if (op == 5 || op == 6) {
            std::vector<ElementRef> moved;
            for (std::int32_t i : distinct(r.particles.size(), 1 + pick(2)))
                moved.push_back({ElementKind::Particle, r.particles[std::size_t(i)].id});
            std::vector<Vec3> to;
            for (std::size_t k = 0; k < moved.size(); ++k)
                to.push_back(point());
            cmd = new editor::MoveParticlesCommand(doc.get(), moved, to, int(pick(3)));
        } else if (op == 7) {
            const auto kind = ElementKind(pick(project::kElementKindCount));
            const std::size_t n = editor::countOf(r, kind);
            std::vector<const editor::PropertyDef*> writable;
            for (const auto& d : editor::propertiesOf(kind))
                if (!d.readOnly)
                    writable.push_back(&d);
            if (n > 0 && !writable.empty()) {
                const editor::PropertyDef& d = *writable[pick(writable.size())];
                std::vector<ElementRef> targets;
                for (std::size_t k = 0, many = 1 + pick(3); k < many; ++k)
                    targets.push_back({kind, editor::idAt(r, kind, pick(n))});
                std::sort(targets.begin(), targets.end());
                targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
                cmd = new editor::ChangePropertyCommand(doc.get(), targets, d.key, randomValue(d));
            }
        } else if (op == 8) {
            const auto& defs = editor::settingsProperties();
            const editor::PropertyDef& d = defs[pick(defs.size())];
            cmd = new editor::ChangePropertyCommand(doc.get(), d.key, randomValue(d));
        } else if (op == 9) {
            const auto kind = ElementKind(pick(project::kElementKindCount));
            if (const std::size_t n = editor::countOf(r, kind); n > 0)
                cmd = new editor::SetElementViewCommand(doc.get(), {{kind, editor::idAt(r, kind, pick(n))}},
                    pick(2) ? std::optional<bool>(pick(2) == 1) : std::nullopt, std::optional<bool>(pick(2) == 1));
        } else if (op == 10 && stack->canUndo()) {
            stack->undo();
            ++undos;
            COMPARE_STATE(stateOf(*doc), states[std::size_t(stack->index())]);
        } else if (op == 11 && stack->canRedo()) {
            stack->redo();
            ++redos;
            COMPARE_STATE(stateOf(*doc), states[std::size_t(stack->index())]);
        }
        if (!cmd)
            continue;
        stack->push(cmd);
        ++pushes;
        states.resize(std::size_t(stack->index()) + 1); // a push drops the redo branch; a merge rewrites the top
        states.back() = stateOf(*doc);
    }
    QVERIFY2(pushes > 150 && undos > 5 && redos > 2, qPrintable(QStringLiteral("%1 %2 %3").arg(pushes).arg(undos).arg(redos)));
    QCOMPARE(std::size_t(stack->index()) + 1, states.size());
    const int end = stack->index();
    while (stack->canUndo()) {
        stack->undo();
        COMPARE_STATE(stateOf(*doc), states[std::size_t(stack->index())]);
    }
    COMPARE_STATE(stateOf(*doc), states.front());
    QCOMPARE(dumpRig(doc->rig()), dumpRig(start));
    QVERIFY(!doc->isModified());
    while (stack->index() < end) {
        stack->redo();
        COMPARE_STATE(stateOf(*doc), states[std::size_t(stack->index())]);
    }
}

QTEST_GUILESS_MAIN(TestCommands)
#include "tst_commands.moc"
