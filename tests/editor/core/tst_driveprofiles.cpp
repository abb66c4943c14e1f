// Editing drive profiles (DriveProfiles.h and the drive-profile commands) on the mannequin sample's rig and its
// limp / stagger / balanced / stiff profiles: the parts the editor lists are the runtime's; add (empty or a
// copy), remove, rename, defaults and per-part gains each one undoable step that undo restores exactly; value
// edits merge; bad input is refused with nothing changed; with symmetry, a part's edit and its clearing reach
// its left/right partner in the same step; deleting a triangle drops its entries and undo brings them back;
// mirroring a side copies the entries; the profiles' validation findings.
#include "marionette/editor/autorig/BoneNames.h"
#include "marionette/editor/document/Document.h"
#include "marionette/editor/document/DriveProfiles.h"
#include "marionette/editor/document/Symmetry.h"
#include "marionette/editor/document/commands/AddDriveProfileCommand.h"
#include "marionette/editor/document/commands/ClearDrivePartsCommand.h"
#include "marionette/editor/document/commands/RemoveDriveProfileCommand.h"
#include "marionette/editor/document/commands/RemoveElementsCommand.h"
#include "marionette/editor/document/commands/RenameDriveProfileCommand.h"
#include "marionette/editor/document/commands/SetDriveDefaultsCommand.h"
#include "marionette/editor/document/commands/SetDrivePartsCommand.h"
#include "marionette/editor/document/commands/SymmetricEditCommand.h"
#include "marionette/runtime/Rig.h"

#include <QSignalSpy>
#include <QtTest/QtTest>

#include <cmath>
#include <limits>

#include "SampleProject.h"

using namespace marionette;
using namespace marionette::editor;

namespace {

Document* mannequin(QObject* owner)
{
    auto* doc = new Document(owner);
    doc->adopt(test::mannequinProject(), QString(), false);
    return doc;
}

ElementRef named(const rig::RigDescription& rig, ElementKind kind, const char* name)
{
    for (std::size_t i = 0; i < countOf(rig, kind); ++i)
        if (nameAt(rig, kind, i) == name)
            return {kind, idAt(rig, kind, i)};
    qFatal("no element named %s", name);
    return {};
}

rig::ElementId profileId(const Document& doc, const char* name)
{
    const std::int32_t i = driveProfileNamed(doc.rig(), QString::fromLatin1(name));
    if (i == rig::kNone)
        qFatal("no drive profile named %s", name);
    return doc.rig().driveProfiles[std::size_t(i)].id;
}

const rig::DriveProfile& profileOf(const Document& doc, rig::ElementId id)
{
    return doc.rig().driveProfiles[std::size_t(driveProfileIndex(doc.rig(), id))];
}

/// Pushes a command `create` made, failing the test when it was refused.
template <class Command> void push(Document* doc, Command* command, const QString& error)
{
    QVERIFY2(command, qPrintable(error));
    doc->undoStack()->push(command);
}

void pushSymmetric(Document* doc, QUndoCommand* edit)
{
    const project::SymmetrySettings s;
    const MirrorMap pairs =
        findMirrorPairs(doc->rig(), MirrorPlane::of(s), s.tolerance, autorig::mirrorParticlesByName(doc->rig()));
    doc->undoStack()->push(
        new SymmetricEditCommand(doc, edit, pairs, s, [](const std::string& n) { return autorig::mirroredName(n); }));
}

} // namespace

class TestDriveProfiles : public QObject {
    Q_OBJECT

  private slots:
    // The panel's rows are the runtime's parts: every triangle, then the sticks that drive a bone or a
    // profile lists, in the runtime's order.
    void parts_areTheRuntimesParts()
    {
        QObject owner;
        Document* doc = mannequin(&owner);
        rig::RigDescription rig = doc->rig();
        // A profile that lists a stick no binding drives makes it a part too.
        const std::int32_t spare = std::int32_t(rig.sticks.size() - 1);
        rig.driveProfiles.front().parts.push_back({rig::DrivePartKind::Stick, spare, {}});
        std::string error;
        const auto built = runtime::Rig::build(rig, &error);
        QVERIFY2(built, error.c_str());
        const std::vector<ElementRef> mine = driveParts(rig);
        QCOMPARE(mine.size(), built->driveParts().size());
        for (std::size_t k = 0; k < mine.size(); ++k) {
            const runtime::DrivePartData& part = built->driveParts()[k];
            const ElementKind kind = elementKindOf(part.kind);
            QCOMPARE(mine[k], (ElementRef{kind, idAt(rig, kind, part.index)}));
        }
        QCOMPARE(mine.size(), rig.triangles.size() + 2); // the neck's stick and the spare one
        QCOMPARE(mine.back(), (ElementRef{ElementKind::Stick, rig.sticks.back().id}));
    }

    void add_emptyOrACopy()
    {
        QObject owner;
        Document* doc = mannequin(&owner);
        const std::vector<rig::DriveProfile> before = doc->rig().driveProfiles;
        QSignalSpy changed(doc, &Document::driveProfilesChanged);
        QString error;
        auto* empty = AddDriveProfileCommand::create(doc, QString(), 0, error);
        push(doc, empty, error);
        const rig::DriveProfile& added = doc->rig().driveProfiles.back();
        QCOMPARE(added.name, std::string("profile"));
        QVERIFY(added.defaults == rig::DriveGains{});
        QVERIFY(added.parts.empty());
        QCOMPARE(added.id, rig::ElementId(5)); // the sample's ids are 1..4
        QCOMPARE(empty->profileId(), added.id);
        QCOMPARE(changed.count(), 1);

        const rig::ElementId balanced = profileId(*doc, "balanced");
        push(doc, AddDriveProfileCommand::create(doc, QString(), balanced, error), error);
        const rig::DriveProfile& copy = doc->rig().driveProfiles.back();
        QCOMPARE(copy.name, std::string("balanced copy"));
        QCOMPARE(copy.id, rig::ElementId(6));
        const rig::DriveProfile& source = profileOf(*doc, balanced);
        QVERIFY(copy.defaults == source.defaults);
        QCOMPARE(copy.parts.size(), source.parts.size());
        for (std::size_t k = 0; k < copy.parts.size(); ++k)
            QVERIFY(copy.parts[k].index == source.parts[k].index && copy.parts[k].gains == source.parts[k].gains);
        // A second unnamed copy does not take the first one's name.
        push(doc, AddDriveProfileCommand::create(doc, QStringLiteral("  "), balanced, error), error);
        QCOMPARE(doc->rig().driveProfiles.back().name, std::string("balanced copy 2"));

        for (int i = 0; i < 3; ++i)
            doc->undoStack()->undo();
        QVERIFY(sameDriveProfiles(doc->rig().driveProfiles, before));
    }

    void add_refusesATakenNameOrAnUnknownSource()
    {
        QObject owner;
        Document* doc = mannequin(&owner);
        QString error;
        QVERIFY(!AddDriveProfileCommand::create(doc, QStringLiteral("stiff"), 0, error));
        QCOMPARE(error, QStringLiteral("a drive profile named 'stiff' exists already"));
        QVERIFY(!AddDriveProfileCommand::create(doc, QStringLiteral("new"), 99, error));
        QCOMPARE(error, QStringLiteral("no drive profile has id 99"));
        QCOMPARE(doc->undoStack()->count(), 0);
        QCOMPARE(doc->rig().driveProfiles.size(), std::size_t(4));
    }

    void remove_andUndoPutsItBackInPlace()
    {
        QObject owner;
        Document* doc = mannequin(&owner);
        const std::vector<rig::DriveProfile> before = doc->rig().driveProfiles;
        QString error;
        push(doc, RemoveDriveProfileCommand::create(doc, profileId(*doc, "stagger"), error), error);
        QCOMPARE(doc->rig().driveProfiles.size(), std::size_t(3));
        QCOMPARE(driveProfileNamed(doc->rig(), QStringLiteral("stagger")), rig::kNone);
        doc->undoStack()->undo();
        QVERIFY(sameDriveProfiles(doc->rig().driveProfiles, before));
        QVERIFY(!RemoveDriveProfileCommand::create(doc, 0, error));
        QCOMPARE(error, QStringLiteral("no drive profile has id 0"));
    }

    void rename_uniqueAndNotEmpty_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("error");
        QTest::newRow("empty") << QString() << QStringLiteral("a drive profile needs a name");
        QTest::newRow("blank") << QStringLiteral("   ") << QStringLiteral("a drive profile needs a name");
        QTest::newRow("another's") << QStringLiteral("limp")
                                   << QStringLiteral("a drive profile named 'limp' exists already");
        QTest::newRow("its own") << QStringLiteral("stiff")
                                 << QStringLiteral("a drive profile named 'stiff' exists already");
    }
    void rename_uniqueAndNotEmpty()
    {
        QFETCH(QString, name);
        QFETCH(QString, error);
        QObject owner;
        Document* doc = mannequin(&owner);
        const rig::ElementId stiff = profileId(*doc, "stiff");
        QString message;
        QVERIFY(!RenameDriveProfileCommand::create(doc, stiff, name, message));
        QCOMPARE(message, error);
        QCOMPARE(profileOf(*doc, stiff).name, std::string("stiff"));
        push(doc, RenameDriveProfileCommand::create(doc, stiff, QStringLiteral(" rigid "), message), message);
        QCOMPARE(profileOf(*doc, stiff).name, std::string("rigid"));
        doc->undoStack()->undo();
        QCOMPARE(profileOf(*doc, stiff).name, std::string("stiff"));
    }

    // A spin box dragged over the default motor frequency: one step; dragged back where it was: no step.
    void defaults_valueEditsMerge()
    {
        QObject owner;
        Document* doc = mannequin(&owner);
        const rig::ElementId balanced = profileId(*doc, "balanced");
        const rig::DriveGains was = profileOf(*doc, balanced).defaults;
        QString error;
        for (double hz : {31.0, 32.5, 40.0})
            push(doc, SetDriveDefaultsCommand::create(doc, balanced, QStringLiteral("motorFrequency"), hz, error),
                 error);
        QCOMPARE(doc->undoStack()->count(), 1);
        QCOMPARE(profileOf(*doc, balanced).defaults.motorFrequency, 40.f);
        QCOMPARE(profileOf(*doc, balanced).defaults.motorDamping, was.motorDamping);
        // Another gain is another step.
        push(doc, SetDriveDefaultsCommand::create(doc, balanced, QStringLiteral("kinematic"), true, error), error);
        QCOMPARE(doc->undoStack()->count(), 2);
        QVERIFY(profileOf(*doc, balanced).defaults.kinematic);
        doc->undoStack()->undo();
        doc->undoStack()->undo();
        QVERIFY(profileOf(*doc, balanced).defaults == was);
        // There and back again merges into nothing.
        push(doc, SetDriveDefaultsCommand::create(doc, balanced, QStringLiteral("pinFrequency"), 5.0, error), error);
        push(doc,
             SetDriveDefaultsCommand::create(doc, balanced, QStringLiteral("pinFrequency"), double(was.pinFrequency),
                                             error),
             error);
        QCOMPARE(doc->undoStack()->count(), 0);
        // All the gains at once.
        rig::DriveGains all;
        all.motorFrequency = 12.f;
        all.maxForce = 800.f;
        push(doc, SetDriveDefaultsCommand::create(doc, balanced, all, error), error);
        QVERIFY(profileOf(*doc, balanced).defaults == all);
    }

    // Several rows edited at once: a part without an entry gets one holding the defaults with the edit; a
    // part with one keeps its other gains.
    void parts_multiRowEditKeepsTheOtherGains()
    {
        QObject owner;
        Document* doc = mannequin(&owner);
        const rig::ElementId balanced = profileId(*doc, "balanced");
        const rig::RigDescription& rig = doc->rig();
        const ElementRef shin = named(rig, ElementKind::Triangle, "shin_l"),
                         chest = named(rig, ElementKind::Triangle, "chest");
        const rig::DriveProfile before = profileOf(*doc, balanced);
        QVERIFY(findDrivePart(rig, before, shin));
        QVERIFY(!findDrivePart(rig, before, chest));
        const rig::DriveGains shinWas = driveGainsOf(rig, before, shin);
        QString error;
        for (double torque : {100.0, 250.0})
            push(doc,
                 SetDrivePartsCommand::create(doc, balanced, {shin, chest}, QStringLiteral("maxTorque"), torque, error),
                 error);
        QCOMPARE(doc->undoStack()->count(), 1);
        const rig::DriveProfile& after = profileOf(*doc, balanced);
        rig::DriveGains shinNow = shinWas, chestNow = before.defaults;
        shinNow.maxTorque = chestNow.maxTorque = 250.f;
        QVERIFY(driveGainsOf(doc->rig(), after, shin) == shinNow);
        QVERIFY(findDrivePart(doc->rig(), after, chest));
        QVERIFY(driveGainsOf(doc->rig(), after, chest) == chestNow);
        QCOMPARE(after.parts.size(), before.parts.size() + 1);
        doc->undoStack()->undo();
        QVERIFY(sameDriveProfiles({profileOf(*doc, balanced)}, {before}));

        // The neck's stick is a part (it drives a bone); so is any stick a profile lists.
        const ElementRef neck{ElementKind::Stick, doc->rig().sticks[std::size_t(doc->rig().bindings[3].index)].id};
        push(doc, SetDrivePartsCommand::create(doc, balanced, {neck}, QStringLiteral("pinFrequency"), 8.0, error),
             error);
        QCOMPARE(driveGainsOf(doc->rig(), profileOf(*doc, balanced), neck).pinFrequency, 8.f);
    }

    void parts_badInputChangesNothing_data()
    {
        QTest::addColumn<int>("profile");  // 0: the balanced profile's id
        QTest::addColumn<QString>("part"); // a triangle's name, or "particle:<name>", "triangle#<id>"
        QTest::addColumn<QString>("key");
        QTest::addColumn<QVariant>("value");
        QTest::addColumn<QString>("error");
        const double nan = std::numeric_limits<double>::quiet_NaN();
        QTest::newRow("unknown profile") << 42 << "chest"
                                         << "motorFrequency" << QVariant(1.0) << "no drive profile has id 42";
        QTest::newRow("a particle") << 0 << "particle:wrist_l"
                                    << "motorFrequency" << QVariant(1.0)
                                    << "a particle is not a drive part (triangles and sticks are)";
        QTest::newRow("missing triangle") << 0 << "triangle#999"
                                          << "motorFrequency" << QVariant(1.0) << "the rig has no triangle with id 999";
        QTest::newRow("unknown gain")
            << 0 << "chest"
            << "stiffness" << QVariant(1.0)
            << "unknown drive gain 'stiffness' (one of motorFrequency, motorDamping, maxTorque, "
               "pinFrequency, pinDamping, maxForce, kinematic)";
        QTest::newRow("NaN") << 0 << "chest"
                             << "motorFrequency" << QVariant(nan) << "motorFrequency: nan is outside [0, 60]";
        QTest::newRow("negative") << 0 << "chest"
                                  << "motorDamping" << QVariant(-0.5) << "motorDamping: -0.5 is outside [0, 10]";
        QTest::newRow("above its range") << 0 << "chest"
                                         << "pinFrequency" << QVariant(60.5) << "pinFrequency: 60.5 is outside [0, 60]";
        QTest::newRow("infinite force") << 0 << "chest"
                                        << "maxForce" << QVariant(std::numeric_limits<double>::infinity())
                                        << "maxForce: inf is outside [0, 1e+06]";
        QTest::newRow("text") << 0 << "chest"
                              << "maxTorque" << QVariant(QStringLiteral("lots"))
                              << "maxTorque: 'lots' is outside [0, 1e+06]";
        QTest::newRow("kinematic as a number") << 0 << "chest"
                                               << "kinematic" << QVariant(1.0) << "kinematic: expected true or false";
    }
    void parts_badInputChangesNothing()
    {
        QFETCH(int, profile);
        QFETCH(QString, part);
        QFETCH(QString, key);
        QFETCH(QVariant, value);
        QFETCH(QString, error);
        QObject owner;
        Document* doc = mannequin(&owner);
        const rig::RigDescription before = doc->rig();
        const rig::ElementId id = profile ? rig::ElementId(profile) : profileId(*doc, "balanced");
        ElementRef ref;
        if (part.startsWith(QLatin1String("particle:")))
            ref = named(before, ElementKind::Particle, qPrintable(part.mid(9)));
        else if (part.startsWith(QLatin1String("triangle#")))
            ref = {ElementKind::Triangle, rig::ElementId(part.mid(9).toUInt())};
        else
            ref = named(before, ElementKind::Triangle, qPrintable(part));
        QString message;
        QVERIFY(!SetDrivePartsCommand::create(doc, id, {ref}, key, value, message));
        QCOMPARE(message, error);
        // The defaults refuse the same gains and values.
        if (!profile && ref.kind == ElementKind::Triangle && indexOf(before, ref) != rig::kNone) {
            QString defaults;
            QVERIFY(!SetDriveDefaultsCommand::create(doc, id, key, value, defaults));
            QCOMPARE(defaults, error);
        }
        QCOMPARE(doc->undoStack()->count(), 0);
        QVERIFY(sameDriveProfiles(doc->rig().driveProfiles, before.driveProfiles));
    }

    void parts_wholeGainsChecked()
    {
        QObject owner;
        Document* doc = mannequin(&owner);
        const ElementRef chest = named(doc->rig(), ElementKind::Triangle, "chest");
        rig::DriveGains bad;
        bad.pinDamping = std::numeric_limits<float>::quiet_NaN();
        QString error;
        QVERIFY(!SetDrivePartsCommand::create(doc, profileId(*doc, "stiff"), {chest}, bad, error));
        QCOMPARE(error, QStringLiteral("pinDamping: nan is outside [0, 10]"));
        QVERIFY(!SetDrivePartsCommand::create(doc, profileId(*doc, "stiff"), {}, rig::DriveGains{}, error));
        QCOMPARE(error, QStringLiteral("no drive parts given"));
        QCOMPARE(doc->undoStack()->count(), 0);
    }

    void clear_backToTheDefaults()
    {
        QObject owner;
        Document* doc = mannequin(&owner);
        const rig::ElementId stagger = profileId(*doc, "stagger");
        const rig::DriveProfile before = profileOf(*doc, stagger);
        const ElementRef shinL = named(doc->rig(), ElementKind::Triangle, "shin_l"),
                         head = named(doc->rig(), ElementKind::Triangle, "head");
        QString error;
        push(doc, ClearDrivePartsCommand::create(doc, stagger, {shinL, head}, error), error);
        const rig::DriveProfile& after = profileOf(*doc, stagger);
        QCOMPARE(after.parts.size(), before.parts.size() - 1);
        QVERIFY(!findDrivePart(doc->rig(), after, shinL));
        QVERIFY(driveGainsOf(doc->rig(), after, shinL) == before.defaults);
        // Nothing left to clear on the head alone.
        QVERIFY(!ClearDrivePartsCommand::create(doc, stagger, {head}, error));
        QCOMPARE(error, QStringLiteral("none of these parts has gains of its own in the profile"));
        doc->undoStack()->undo();
        QVERIFY(sameDriveProfiles({profileOf(*doc, stagger)}, {before}));
    }

    // Symmetry on: the left upper arm's gains set in the table set the right one's too, one undo reverts
    // both; clearing the left shin clears the right one.
    void symmetric_partnerFollowsInOneStep()
    {
        QObject owner;
        Document* doc = mannequin(&owner);
        const rig::RigDescription& rig = doc->rig();
        const rig::ElementId balanced = profileId(*doc, "balanced");
        const rig::DriveProfile before = profileOf(*doc, balanced);
        const ElementRef armL = named(rig, ElementKind::Triangle, "upperarm_l"),
                         armR = named(rig, ElementKind::Triangle, "upperarm_r");
        QString error;
        for (double hz : {12.0, 14.0, 16.0}) {
            auto* edit =
                SetDrivePartsCommand::create(doc, balanced, {armL}, QStringLiteral("motorFrequency"), hz, error);
            QVERIFY2(edit, qPrintable(error));
            pushSymmetric(doc, edit);
        }
        QCOMPARE(doc->undoStack()->count(), 1);
        const rig::DriveProfile& after = profileOf(*doc, balanced);
        QCOMPARE(driveGainsOf(doc->rig(), after, armL).motorFrequency, 16.f);
        QVERIFY(findDrivePart(doc->rig(), after, armR));
        QVERIFY(driveGainsOf(doc->rig(), after, armR) == driveGainsOf(doc->rig(), after, armL));
        // The other profiles and the parts off the pair are untouched.
        QCOMPARE(after.parts.size(), before.parts.size() + 2);
        doc->undoStack()->undo();
        QVERIFY(sameDriveProfiles({profileOf(*doc, balanced)}, {before}));
        doc->undoStack()->redo();
        QCOMPARE(driveGainsOf(doc->rig(), profileOf(*doc, balanced), armR).motorFrequency, 16.f);
        doc->undoStack()->undo();

        const ElementRef shinL = named(rig, ElementKind::Triangle, "shin_l"),
                         shinR = named(rig, ElementKind::Triangle, "shin_r");
        auto* clear = ClearDrivePartsCommand::create(doc, balanced, {shinL}, error);
        QVERIFY2(clear, qPrintable(error));
        pushSymmetric(doc, clear);
        QVERIFY(!findDrivePart(doc->rig(), profileOf(*doc, balanced), shinL));
        QVERIFY(!findDrivePart(doc->rig(), profileOf(*doc, balanced), shinR));
        doc->undoStack()->undo();
        QVERIFY(sameDriveProfiles({profileOf(*doc, balanced)}, {before}));

        // Both sides edited at once: taken as given, neither copied onto the other. (The left arm's torque is
        // set first without symmetry, so the two sides differ before the edit.)
        push(doc, SetDrivePartsCommand::create(doc, balanced, {armL}, QStringLiteral("maxTorque"), 50.0, error), error);
        auto* both =
            SetDrivePartsCommand::create(doc, balanced, {armL, armR}, QStringLiteral("pinFrequency"), 3.0, error);
        QVERIFY2(both, qPrintable(error));
        pushSymmetric(doc, both);
        QCOMPARE(driveGainsOf(doc->rig(), profileOf(*doc, balanced), armL).maxTorque, 50.f);
        QCOMPARE(driveGainsOf(doc->rig(), profileOf(*doc, balanced), armR).maxTorque, before.defaults.maxTorque);
        QCOMPARE(driveGainsOf(doc->rig(), profileOf(*doc, balanced), armR).pinFrequency, 3.f);
        // The arms now differ: the validation list's asymmetries name them (the sample's profiles are symmetric).
        const project::SymmetrySettings s;
        auto asymmetries = [&] {
            QStringList out;
            const MirrorMap pairs = findMirrorPairs(doc->rig(), MirrorPlane::of(s), s.tolerance,
                                                    autorig::mirrorParticlesByName(doc->rig()));
            for (const ValidationIssue& issue : symmetryIssues(doc->rig(), pairs, MirrorPlane::of(s), s.tolerance))
                if (issue.message.startsWith(QLatin1String("drive profile")))
                    out << issue.message;
            return out;
        };
        QCOMPARE(asymmetries(), QStringList{QStringLiteral(
                                    "drive profile 'balanced': triangles 'upperarm_l' and 'upperarm_r': not symmetric (drive gains differ)")});
        doc->undoStack()->undo();
        doc->undoStack()->undo();
        QCOMPARE(asymmetries(), QStringList());
    }

    // Mirroring the left side onto the right (Edit ▸ Mirror) takes the profiles' entries along.
    void mirrorSide_copiesTheEntries()
    {
        QObject owner;
        Document* doc = mannequin(&owner);
        rig::RigDescription rig = doc->rig();
        const ElementRef armL = named(rig, ElementKind::Triangle, "upperarm_l"),
                         armR = named(rig, ElementKind::Triangle, "upperarm_r");
        rig::DriveProfile& stiff = rig.driveProfiles[std::size_t(driveProfileNamed(rig, QStringLiteral("stiff")))];
        rig::DriveGains gains;
        gains.pinFrequency = 9.f;
        stiff.parts.push_back({rig::DrivePartKind::Triangle, indexOf(rig, armR), gains});
        const project::SymmetrySettings s;
        const MirrorPlane plane = MirrorPlane::of(s);
        const MirrorMap pairs = findMirrorPairs(rig, plane, s.tolerance, autorig::mirrorParticlesByName(rig));
        // The left arm is on +x (the mannequin faces +z).
        QVERIFY(plane.distance(
                    rig.particles[std::size_t(rig.triangles[std::size_t(indexOf(rig, armL))].p[0])].position) > 0.f);
        const rig::RigDescription fromRight =
            mirrorSide(rig, pairs, plane, s.tolerance, MirrorSource::NegativeSide, {});
        const rig::DriveProfile& mirrored =
            fromRight.driveProfiles[std::size_t(driveProfileNamed(fromRight, QStringLiteral("stiff")))];
        QVERIFY(findDrivePart(fromRight, mirrored, armL));
        QCOMPARE(driveGainsOf(fromRight, mirrored, armL).pinFrequency, 9.f);
        const rig::RigDescription fromLeft = mirrorSide(rig, pairs, plane, s.tolerance, MirrorSource::PositiveSide, {});
        const rig::DriveProfile& cleared =
            fromLeft.driveProfiles[std::size_t(driveProfileNamed(fromLeft, QStringLiteral("stiff")))];
        QVERIFY(!findDrivePart(fromLeft, cleared, armR));
    }

    // Deleting a triangle drops its entries in every profile; undo brings them back with their gains.
    void deleteElement_dropsItsEntriesUndoRestores()
    {
        QObject owner;
        Document* doc = mannequin(&owner);
        const std::vector<rig::DriveProfile> before = doc->rig().driveProfiles;
        const ElementRef shinL = named(doc->rig(), ElementKind::Triangle, "shin_l");
        QSignalSpy changed(doc, &Document::driveProfilesChanged);
        doc->undoStack()->push(new RemoveElementsCommand(doc, {shinL}));
        QVERIFY(changed.count() >= 1);
        for (const rig::DriveProfile& p : doc->rig().driveProfiles) {
            QVERIFY(!findDrivePart(doc->rig(), p, shinL));
            for (const rig::DrivePart& part : p.parts)
                QVERIFY(part.index >= 0 && std::size_t(part.index) < (part.kind == rig::DrivePartKind::Triangle
                                                                          ? doc->rig().triangles.size()
                                                                          : doc->rig().sticks.size()));
        }
        QCOMPARE(profileOf(*doc, profileId(*doc, "balanced")).parts.size(), before[2].parts.size() - 1);
        doc->undoStack()->undo();
        QVERIFY(sameDriveProfiles(doc->rig().driveProfiles, before));
    }

    // Profiles the file left without an id (or with a repeated one) get fresh ones when the document takes
    // them, so the commands can name them.
    void adopt_givesProfilesIds()
    {
        project::Project p = test::mannequinProject();
        p.rig.driveProfiles[1].id = 0;
        p.rig.driveProfiles[3].id = p.rig.driveProfiles[0].id;
        Document doc;
        doc.adopt(std::move(p), QString(), false);
        const auto& profiles = doc.rig().driveProfiles;
        QCOMPARE(profiles[0].id, rig::ElementId(1));
        QCOMPARE(profiles[1].id, rig::ElementId(4)); // past the largest id in use then (3)
        QCOMPARE(profiles[2].id, rig::ElementId(3));
        QCOMPARE(profiles[3].id, rig::ElementId(5));
    }

    void findings_nameTheProfile()
    {
        rig::RigDescription rig = test::mannequinProject().rig;
        QVERIFY(driveProfileFindings(rig).empty());
        rig.driveProfiles[2].name = "limp";
        rig.driveProfiles[3].defaults.motorFrequency = 70.f;
        const std::vector<DriveProfileFinding> found = driveProfileFindings(rig);
        QCOMPARE(found.size(), std::size_t(2));
        QCOMPARE(found[0].profile, 2);
        QVERIFY2(found[0].message.contains(QLatin1String("name used by driveProfiles[0]")),
                 qPrintable(found[0].message));
        QCOMPARE(found[1].profile, 3);
        QVERIFY2(found[1].message.contains(QLatin1String("defaults.motorFrequency")), qPrintable(found[1].message));
    }
};

QTEST_GUILESS_MAIN(TestDriveProfiles)
#include "tst_driveprofiles.moc"
