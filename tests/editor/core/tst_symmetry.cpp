// Symmetric editing (Symmetry.h, SymmetricEditCommand): left/right names in the auto-rig's naming schemes,
// the pairs of the mannequin sample's rig, one side mirrored onto the other (the mannequin mirrored equals
// itself within 1e-5), and edits on one side repeated on the other as one undo step: a limit, a drag, an
// added particle and stick, a deletion. Asymmetries are listed for the validation list.
#include "marionette/editor/autorig/BoneNames.h"
#include "marionette/editor/document/Document.h"
#include "marionette/editor/document/Symmetry.h"
#include "marionette/editor/document/commands/AddParticleCommand.h"
#include "marionette/editor/document/commands/AddStickCommand.h"
#include "marionette/editor/document/commands/ChangePropertyCommand.h"
#include "marionette/editor/document/commands/MoveParticlesCommand.h"
#include "marionette/editor/document/commands/RemoveElementsCommand.h"
#include "marionette/editor/document/commands/SymmetricEditCommand.h"
#include "marionette/project/ProjectFile.h"

#include <QtTest/QtTest>

#include <cmath>

#include "SampleProject.h"

using namespace marionette;
using namespace marionette::editor;

namespace {

MirrorMap pairsOf(const rig::RigDescription& rig, const project::SymmetrySettings& s = {})
{
    return findMirrorPairs(rig, MirrorPlane::of(s), s.tolerance, autorig::mirrorParticlesByName(rig));
}

std::int32_t named(const rig::RigDescription& rig, ElementKind kind, const char* name)
{
    for (std::size_t i = 0; i < countOf(rig, kind); ++i)
        if (nameAt(rig, kind, i) == name)
            return std::int32_t(i);
    return rig::kNone;
}

MirrorNamer namer() { return [](const std::string& n) { return autorig::mirroredName(n); }; }

/// The largest difference between two rigs' values (metres, kilograms and radians alike), with what it is.
struct Difference {
    float value = 0.f;
    QString where;
    void note(float v, const QString& what)
    {
        if (!(v <= value)) {
            value = v;
            where = what;
        }
    }
};

Difference compareRigs(const rig::RigDescription& a, const rig::RigDescription& b)
{
    Difference d;
    if (a.particles.size() != b.particles.size() || a.sticks.size() != b.sticks.size() || a.angular.size() != b.angular.size() ||
        a.triangles.size() != b.triangles.size() || a.angles.size() != b.angles.size()) {
        d.note(1e9f, QStringLiteral("element counts"));
        return d;
    }
    for (std::size_t i = 0; i < a.particles.size(); ++i) {
        const QString n = QString::fromStdString(a.particles[i].name);
        d.note(length(a.particles[i].position - b.particles[i].position), n + " position");
        d.note(std::fabs(a.particles[i].mass - b.particles[i].mass), n + " mass");
        d.note(std::fabs(a.particles[i].radius - b.particles[i].radius), n + " radius");
    }
    for (std::size_t i = 0; i < a.sticks.size(); ++i) {
        const QString n = QString::fromStdString(a.sticks[i].name);
        d.note(std::fabs(a.sticks[i].restLength - b.sticks[i].restLength) + std::fabs(a.sticks[i].minLength - b.sticks[i].minLength) +
                   std::fabs(a.sticks[i].maxLength - b.sticks[i].maxLength) + std::fabs(a.sticks[i].capsuleRadius - b.sticks[i].capsuleRadius),
               n + " lengths");
        d.note(a.sticks[i].a == b.sticks[i].a && a.sticks[i].b == b.sticks[i].b ? 0.f : 1e9f, n + " ends");
    }
    for (std::size_t i = 0; i < a.angular.size(); ++i) {
        const rig::AngularConstraint &x = a.angular[i], &y = b.angular[i];
        const QString n = QString::fromStdString(x.name);
        d.note(length(x.twistAxis - y.twistAxis), n + " twist axis");
        d.note(length(x.swingAxis1 - y.swingAxis1), n + " swing axis");
        d.note(std::fabs(x.twistMin - y.twistMin) + std::fabs(x.twistMax - y.twistMax), n + " twist range");
        d.note(std::fabs(x.swing1 - y.swing1) + std::fabs(x.swing2 - y.swing2) + std::fabs(x.coneAngle - y.coneAngle), n + " swing");
        d.note(x.limit == y.limit && x.hasRestOrientation == y.hasRestOrientation ? 0.f : 1e9f, n + " kind");
    }
    return d;
}

Document* documentWith(project::Project p, QObject* parent)
{
    auto* doc = new Document(parent);
    doc->adopt(std::move(p), QString(), false);
    return doc;
}

void pushSymmetric(Document* doc, QUndoCommand* edit, const project::SymmetrySettings& s = {})
{
    doc->undoStack()->push(new SymmetricEditCommand(doc, edit, pairsOf(doc->rig(), s), s, namer()));
}

} // namespace

class TestSymmetry : public QObject {
    Q_OBJECT

private slots:
    void names_mirroredInEveryScheme_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("mirrored");
        QTest::newRow("_l") << "elbow_l" << "elbow_r";
        QTest::newRow(".R") << "Thigh.R" << "Thigh.L";
        QTest::newRow("Blender numbered") << "Finger2.L.001" << "Finger2.R.001";
        QTest::newRow("mixamo") << "mixamorig:LeftForeArm" << "mixamorig:RightForeArm";
        QTest::newRow("3ds Max biped") << "Bip01 L Thigh" << "Bip01 R Thigh";
        QTest::newRow("upper case") << "LEFT_hand" << "RIGHT_hand";
        QTest::newRow("glued lower case") << "armleft" << "armright";
        QTest::newRow("Unreal") << "upperarm_twist_01_r" << "upperarm_twist_01_l";
        QTest::newRow("no side") << "spine_02" << "spine_02";
        QTest::newRow("side letters inside words stay") << "calf" << "calf";
    }
    void names_mirroredInEveryScheme()
    {
        QFETCH(QString, name);
        QFETCH(QString, mirrored);
        QCOMPARE(QString::fromStdString(autorig::mirroredName(name.toStdString())), mirrored);
    }

    void names_pairOnlyWhenUnique()
    {
        const std::vector<std::string> names{"hand_l", "hand_r", "Bip01 L Foot", "Bip01 R Foot", "spine", "ear_l", "ear_r", "ear.R"};
        const std::vector<std::int32_t> p = autorig::mirrorPartnersByName(names);
        QCOMPARE(p, (std::vector<std::int32_t>{1, 0, 3, 2, -1, -1, -1, -1})); // two right ears: ambiguous
    }

    void mannequin_pairsEverySidedElement()
    {
        const rig::RigDescription rig = test::mannequinProject().rig;
        const MirrorMap m = pairsOf(rig);
        for (std::size_t i = 0; i < rig.particles.size(); ++i) {
            const std::int32_t j = m.particles[i];
            const float x = rig.particles[i].position.x;
            QVERIFY2(j != rig::kNone, rig.particles[i].name.c_str());
            if (std::fabs(x) <= 0.01f)
                QCOMPARE(j, std::int32_t(i)); // on the plane: its own mirror
            else
                QCOMPARE(QString::fromStdString(rig.particles[std::size_t(j)].name),
                         QString::fromStdString(autorig::mirroredName(rig.particles[i].name)));
        }
        for (std::size_t i = 0; i < rig.angular.size(); ++i) {
            const std::int32_t j = m.angular[i];
            QVERIFY2(j != rig::kNone, rig.angular[i].name.c_str());
            QCOMPARE(QString::fromStdString(rig.angular[std::size_t(j)].name), QString::fromStdString(autorig::mirroredName(rig.angular[i].name)));
        }
        for (std::size_t i = 0; i < rig.sticks.size(); ++i)
            QVERIFY2(m.sticks[i] != rig::kNone, rig.sticks[i].name.c_str());
        for (std::size_t i = 0; i < rig.triangles.size(); ++i)
            QVERIFY2(m.triangles[i] != rig::kNone, rig.triangles[i].name.c_str());
        // 8 particle pairs (hips, shoulders, elbows, elbow axes, wrists, knees, knee axes, ankles), 4 arm and
        // leg triangles, 4 angular joints (shoulder, elbow, hip, knee).
        std::size_t particlePairs = 0;
        for (std::size_t i = 0; i < m.particles.size(); ++i)
            particlePairs += m.particles[i] > std::int32_t(i);
        QCOMPARE(particlePairs, std::size_t(8));
        // Without names the positions find the same pairs.
        const MirrorMap byPosition = findMirrorPairs(rig, {}, 0.01f);
        QCOMPARE(byPosition.particles, m.particles);
        QCOMPARE(byPosition.angular, m.angular);
        QVERIFY(symmetryIssues(rig, m, {}, 0.01f).empty());
    }

    void mannequin_mirroredEqualsItself_data()
    {
        QTest::addColumn<bool>("leftToRight");
        QTest::newRow("left -> right") << true;
        QTest::newRow("right -> left") << false;
    }
    void mannequin_mirroredEqualsItself()
    {
        QFETCH(bool, leftToRight);
        const rig::RigDescription rig = test::mannequinProject().rig;
        // The mannequin's left is +X.
        const rig::RigDescription mirrored = mirrorSide(rig, pairsOf(rig), {}, 0.01f,
                                                        leftToRight ? MirrorSource::PositiveSide : MirrorSource::NegativeSide, namer());
        const Difference d = compareRigs(rig, mirrored);
        QVERIFY2(d.value <= 1e-5f, qPrintable(QStringLiteral("%1 differs by %2").arg(d.where).arg(double(d.value))));
    }

    // A rig with its right side scrambled is made whole by mirroring the left: limits, lengths and positions.
    void mirror_restoresADamagedSide()
    {
        const rig::RigDescription original = test::mannequinProject().rig;
        rig::RigDescription damaged = original;
        damaged.particles[std::size_t(named(damaged, ElementKind::Particle, "wrist_r"))].position += Vec3{0.05f, -0.1f, 0.02f};
        damaged.particles[std::size_t(named(damaged, ElementKind::Particle, "knee_r"))].mass *= 2.f;
        rig::AngularConstraint& knee = damaged.angular[std::size_t(named(damaged, ElementKind::Angular, "knee_r"))];
        knee.twistMax = 1.f;
        knee.swing1 = 0.3f;
        const MirrorMap m = pairsOf(damaged);
        const std::vector<ValidationIssue> issues = symmetryIssues(damaged, m, {}, 0.01f);
        QStringList messages;
        for (const ValidationIssue& i : issues)
            messages << i.message;
        QCOMPARE(issues.size(), std::size_t(3));
        QVERIFY2(messages.join('\n').contains("particles 'wrist_l' and 'wrist_r': not symmetric (positions 0.114 m from mirror images)"),
                 qPrintable(messages.join('\n')));
        QVERIFY2(messages.join('\n').contains("particles 'knee_l' and 'knee_r': not symmetric (masses 4.37 and 8.74 kg)"), qPrintable(messages.join('\n')));
        QVERIFY2(messages.join('\n').contains("angular constraints 'knee_l' and 'knee_r': not symmetric (limits"), qPrintable(messages.join('\n')));
        const rig::RigDescription fixed = mirrorSide(damaged, m, {}, 0.01f, MirrorSource::PositiveSide, namer());
        const Difference d = compareRigs(original, fixed);
        QVERIFY2(d.value <= 1e-5f, qPrintable(QStringLiteral("%1 differs by %2").arg(d.where).arg(double(d.value))));
    }

    // Elements with no partner are created on the other side, named for it; a plane other than x = 0.
    void mirror_createsMissingElementsAcrossAnyPlane()
    {
        rig::RigDescription rig;
        auto particle = [&](const char* name, Vec3 p) {
            rig::Particle q;
            q.name = name;
            q.id = nextId(rig, ElementKind::Particle);
            q.position = p;
            q.mass = 2.f;
            rig.particles.push_back(q);
        };
        // Plane z = 0.3; a "front" chain on z > 0.3 and a particle on the plane.
        particle("root", {0.f, 1.f, 0.3f});
        particle("arm_l", {0.f, 1.f, 0.8f});
        particle("hand_l", {0.2f, 1.f, 1.1f});
        rig::Stick s;
        s.name = "forearm_l";
        s.id = 1;
        s.a = 1;
        s.b = 2;
        s.capsuleRadius = 0.04f;
        rig.sticks.push_back(s);
        s.name = "upper";
        s.id = 2;
        s.a = 0;
        s.b = 1;
        rig.sticks.push_back(s);
        project::SymmetrySettings settings;
        settings.axis = project::MirrorAxis::Z;
        settings.offset = 0.3f;
        const MirrorPlane plane = MirrorPlane::of(settings);
        const MirrorMap m = pairsOf(rig, settings);
        QCOMPARE(m.particles, (std::vector<std::int32_t>{0, -1, -1}));
        const rig::RigDescription out = mirrorSide(rig, m, plane, settings.tolerance, MirrorSource::PositiveSide, namer());
        QCOMPARE(out.particles.size(), std::size_t(5));
        QCOMPARE(out.sticks.size(), std::size_t(4));
        const rig::Particle& hand = out.particles[std::size_t(named(out, ElementKind::Particle, "hand_r"))];
        QVERIFY2(length(hand.position - Vec3{0.2f, 1.f, -0.5f}) < 1e-6f, qPrintable(QStringLiteral("%1 %2 %3").arg(hand.position.x).arg(hand.position.y).arg(hand.position.z)));
        QCOMPARE(hand.mass, 2.f);
        const std::int32_t forearm = named(out, ElementKind::Stick, "forearm_r");
        QVERIFY(forearm != rig::kNone);
        QCOMPARE(out.sticks[std::size_t(forearm)].capsuleRadius, 0.04f);
        QCOMPARE(out.particles[std::size_t(out.sticks[std::size_t(forearm)].b)].name, std::string("hand_r"));
        QVERIFY(named(out, ElementKind::Stick, "upper_mirror1") != rig::kNone); // no side in its name
        QCOMPARE(QString::fromStdString(out.validate()), QString());
    }

    // Editing a left limit with the gizmo (a run of property changes, merged) changes the right one to the
    // mirrored value; one undo puts both back.
    void edit_limitOnOneSideIsOneStepOnBoth()
    {
        QObject owner;
        Document* doc = documentWith(test::mannequinProject(), &owner);
        const rig::RigDescription before = doc->rig();
        const std::int32_t left = named(before, ElementKind::Angular, "elbow_l"), right = named(before, ElementKind::Angular, "elbow_r");
        const ElementRef ref{ElementKind::Angular, before.angular[std::size_t(left)].id};
        for (double v : {2.3, 2.1, 1.9}) // a drag: three steps that merge
            pushSymmetric(doc, new ChangePropertyCommand(doc, {ref}, QStringLiteral("twistMax"), v));
        QCOMPARE(doc->undoStack()->count(), 1);
        const rig::AngularConstraint& l = doc->rig().angular[std::size_t(left)];
        const rig::AngularConstraint& r = doc->rig().angular[std::size_t(right)];
        QCOMPARE(l.twistMax, 1.9f);
        // The right elbow's axis points the other way (-x) in its own frame, so the same flexion range is
        // [0, 1.9] about it: mirrored, its limit is the left's.
        QCOMPARE(r.twistMin, before.angular[std::size_t(right)].twistMin);
        QVERIFY2(std::fabs(r.twistMax - 1.9f) < 1e-5f, qPrintable(QString::number(double(r.twistMax))));
        QVERIFY2(length(r.twistAxis - before.angular[std::size_t(right)].twistAxis) < 1e-5f, "the right axis keeps its convention");
        QVERIFY(symmetryIssues(doc->rig(), pairsOf(doc->rig()), {}, 0.01f).empty());
        doc->undoStack()->undo();
        QCOMPARE(compareRigs(doc->rig(), before).value, 0.f);
        doc->undoStack()->redo();
        QVERIFY2(std::fabs(doc->rig().angular[std::size_t(right)].twistMax - 1.9f) < 1e-5f, "redo");
    }

    void edit_dragMovesThePartnerMirrored()
    {
        QObject owner;
        Document* doc = documentWith(test::mannequinProject(), &owner);
        const rig::RigDescription before = doc->rig();
        const std::int32_t wl = named(before, ElementKind::Particle, "wrist_l"), wr = named(before, ElementKind::Particle, "wrist_r");
        const ElementRef ref{ElementKind::Particle, before.particles[std::size_t(wl)].id};
        const Vec3 start = before.particles[std::size_t(wl)].position;
        for (float t : {0.02f, 0.05f, 0.1f})
            pushSymmetric(doc, new MoveParticlesCommand(doc, {ref}, {start + Vec3{t, -t, 0.5f * t}}, 7)); // one drag
        QCOMPARE(doc->undoStack()->count(), 1);
        const Vec3 r = doc->rig().particles[std::size_t(wr)].position;
        const Vec3 expected = Vec3{-start.x - 0.1f, start.y - 0.1f, start.z + 0.05f};
        QVERIFY2(length(r - expected) < 1e-6f, qPrintable(QStringLiteral("%1 %2 %3").arg(r.x).arg(r.y).arg(r.z)));
        doc->undoStack()->undo();
        QCOMPARE(compareRigs(doc->rig(), before).value, 0.f);
        // Moving both partners at once is taken as given: neither is mirrored onto the other.
        const ElementRef rref{ElementKind::Particle, before.particles[std::size_t(wr)].id};
        pushSymmetric(doc, new MoveParticlesCommand(doc, {ref, rref}, {start + Vec3{0.f, 0.1f, 0.f}, start}));
        QVERIFY(length(doc->rig().particles[std::size_t(wr)].position - start) < 1e-6f);
    }

    void edit_addedAndRemovedOnBothSides()
    {
        QObject owner;
        Document* doc = documentWith(test::mannequinProject(), &owner);
        const rig::RigDescription before = doc->rig();
        const std::size_t particles = before.particles.size(), sticks = before.sticks.size();
        pushSymmetric(doc, new AddParticleCommand(doc, {0.6f, 1.2f, 0.1f}, 0.03f, 1.5f));
        QCOMPARE(doc->rig().particles.size(), particles + 2);
        const rig::Particle& added = doc->rig().particles[particles];
        const rig::Particle& mirror = doc->rig().particles[particles + 1];
        QVERIFY(length(mirror.position - Vec3{-0.6f, 1.2f, 0.1f}) < 1e-6f);
        QCOMPARE(mirror.mass, added.mass);
        // On the plane: no copy.
        pushSymmetric(doc, new AddParticleCommand(doc, {0.004f, 1.3f, 0.2f}, 0.03f, 1.5f));
        QCOMPARE(doc->rig().particles.size(), particles + 3);
        // A stick from the new particle to the left elbow: its mirror joins the mirror and the right elbow.
        const std::int32_t elbowL = named(before, ElementKind::Particle, "elbow_l"), elbowR = named(before, ElementKind::Particle, "elbow_r");
        pushSymmetric(doc, new AddStickCommand(doc, std::int32_t(particles), elbowL, rig::StickKind::Rigid));
        QCOMPARE(doc->rig().sticks.size(), sticks + 2);
        const rig::Stick& ms = doc->rig().sticks[sticks + 1];
        QCOMPARE(std::minmax(ms.a, ms.b), std::minmax(std::int32_t(particles + 1), elbowR));
        QCOMPARE(doc->undoStack()->count(), 3);
        // Removing the left stick removes the right one.
        pushSymmetric(doc, new RemoveElementsCommand(doc, {{ElementKind::Stick, doc->rig().sticks[sticks].id}}));
        QCOMPARE(doc->rig().sticks.size(), sticks);
        doc->undoStack()->undo();
        QCOMPARE(doc->rig().sticks.size(), sticks + 2);
        for (int i = 0; i < 3; ++i)
            doc->undoStack()->undo();
        QCOMPARE(compareRigs(doc->rig(), before).value, 0.f);
        QCOMPARE(doc->rig().particles.size(), particles);
    }

    void project_keepsTheSymmetrySettings()
    {
        project::Project p = test::mannequinProject();
        p.editor.symmetry = {true, project::MirrorAxis::Z, 0.25f, 0.002f};
        QString error;
        const QByteArray bytes = project::writeProject(p, error);
        QVERIFY2(!bytes.isEmpty(), qPrintable(error));
        project::Project back;
        const project::LoadResult r = project::readProject(bytes, QStringLiteral("sym.mproj"), back);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(back.editor.symmetry, p.editor.symmetry);
        // Absent when default: projects without it rewrite unchanged.
        QVERIFY(!project::writeProject(test::mannequinProject(), error).contains("\"symmetry\""));
    }

    void project_refusesBadSymmetrySettings_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("axis") << QByteArray(R"({"axis": "w"})") << "editor.symmetry.axis";
        QTest::newRow("tolerance 0") << QByteArray(R"({"tolerance": 0})") << "editor.symmetry.tolerance";
        QTest::newRow("tolerance 2") << QByteArray(R"({"tolerance": 2})") << "editor.symmetry.tolerance";
        QTest::newRow("offset") << QByteArray(R"({"offset": 1e9})") << "editor.symmetry.offset";
        QTest::newRow("enabled") << QByteArray(R"({"enabled": "yes"})") << "editor.symmetry.enabled";
        QTest::newRow("unknown key") << QByteArray(R"({"mirror": 1})") << "editor.symmetry";
    }
    void project_refusesBadSymmetrySettings()
    {
        QFETCH(QByteArray, value);
        QFETCH(QString, message);
        QFile f(test::kMannequinProject);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray json = f.readAll();
        const qsizetype at = json.indexOf("\"xray\"");
        QVERIFY(at > 0);
        json.insert(at, "\"symmetry\": " + value + ", ");
        project::Project p;
        const project::LoadResult r = project::readProject(json, QStringLiteral("bad.mproj"), p);
        QVERIFY(!r.ok());
        QVERIFY2(r.error.startsWith(QStringLiteral("bad.mproj")) && r.error.contains(message), qPrintable(r.error));
        QVERIFY(!r.error.contains('\n'));
    }
};

QTEST_GUILESS_MAIN(TestSymmetry)
#include "tst_symmetry.moc"
