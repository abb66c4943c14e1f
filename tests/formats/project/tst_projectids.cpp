// Stable element ids: assignMissingIds() numbers only the elements without one, per kind, past the largest
// id in use; checkElementIds() names zero and repeated ids; ElementIndex finds elements by (kind, id); and
// pruneEditorState() drops editor entries for elements that are gone while leaving scenarios alone.
#include "marionette/project/ElementIndex.h"
#include "marionette/project/ProjectFile.h"
#include "marionette/runtime/Procedural.h"

#include <QtTest/QtTest>

#include "ProjectTestSupport.h"

using namespace marionette;
using namespace marionette::project;
using namespace marionette::test;

namespace {

std::vector<rig::ElementId> particleIds(const rig::RigDescription& r)
{
    std::vector<rig::ElementId> ids;
    for (const rig::Particle& p : r.particles)
        ids.push_back(p.id);
    return ids;
}

rig::RigDescription withParticleIds(std::initializer_list<rig::ElementId> ids)
{
    rig::RigDescription r;
    for (const rig::ElementId id : ids) {
        r.particles.emplace_back();
        r.particles.back().id = id;
    }
    return r;
}

} // namespace

class TestProjectIds : public QObject {
    Q_OBJECT

  private slots:
    void assignMissingIds_numbersPastTheLargest_data();
    void assignMissingIds_numbersPastTheLargest();
    void assignMissingIds_givesEveryKindItsOwnSequence();
    void checkElementIds_namesZeroAndRepeatedIds();
    void elementIndex_findsByKindAndId();
    void elementKind_spellingsRoundTrip();
    void pruneEditorState_dropsEntriesForMissingElements();
};

void TestProjectIds::assignMissingIds_numbersPastTheLargest_data()
{
    QTest::addColumn<std::vector<rig::ElementId>>("before");
    QTest::addColumn<std::vector<rig::ElementId>>("after");
    QTest::addColumn<int>("given");
    const rig::ElementId top = 0xffffffffu;
    QTest::newRow("none yet") << std::vector<rig::ElementId>{0, 0, 0} << std::vector<rig::ElementId>{1, 2, 3} << 3;
    QTest::newRow("gaps stay gaps") << std::vector<rig::ElementId>{0, 5, 0, 2}
                                    << std::vector<rig::ElementId>{6, 5, 7, 2} << 2;
    QTest::newRow("all present") << std::vector<rig::ElementId>{4, 9} << std::vector<rig::ElementId>{4, 9} << 0;
    // Duplicates are the editor's bug to see, not ours to hide: they stay, and saving refuses them.
    QTest::newRow("duplicates untouched")
        << std::vector<rig::ElementId>{4, 4, 0} << std::vector<rig::ElementId>{4, 4, 5} << 1;
    // Past 2^32 − 1 the numbering wraps to the smallest unused ids.
    QTest::newRow("wraps at the top") << std::vector<rig::ElementId>{top, 0, 1, 0}
                                      << std::vector<rig::ElementId>{top, 2, 1, 3} << 2;
}

void TestProjectIds::assignMissingIds_numbersPastTheLargest()
{
    QFETCH(std::vector<rig::ElementId>, before);
    QFETCH(std::vector<rig::ElementId>, after);
    QFETCH(int, given);
    rig::RigDescription r;
    for (const rig::ElementId id : before) {
        r.particles.emplace_back();
        r.particles.back().id = id;
    }
    QCOMPARE(assignMissingIds(r), std::size_t(given));
    QCOMPARE(particleIds(r), after);
    QCOMPARE(assignMissingIds(r), std::size_t(0)); // nothing left to give
}

void TestProjectIds::assignMissingIds_givesEveryKindItsOwnSequence()
{
    Project p;
    p.rig = runtime::makeHumanoid();
    QCOMPARE(checkElementIds(p.rig), QStringLiteral("$.rig.particles[0].id: the particle 'hip_l' has no id (0); "
                                                    "assignMissingIds() gives it one"));
    const std::size_t total = p.rig.particles.size() + p.rig.sticks.size() + p.rig.angles.size() +
                              p.rig.triangles.size() + p.rig.angular.size() + p.rig.pins.size() + p.rig.shapes.size() +
                              p.rig.bones.size() + p.rig.bindings.size();
    QCOMPARE(assignMissingIds(p), total);
    QCOMPARE(checkElementIds(p.rig), QString());
    for (std::size_t i = 0; i < p.rig.particles.size(); ++i)
        QCOMPARE(p.rig.particles[i].id, rig::ElementId(i + 1));
    for (std::size_t i = 0; i < p.rig.triangles.size(); ++i)
        QCOMPARE(p.rig.triangles[i].id, rig::ElementId(i + 1));
    for (std::size_t i = 0; i < p.rig.bindings.size(); ++i)
        QCOMPARE(p.rig.bindings[i].id, rig::ElementId(i + 1));
    QCOMPARE(assignMissingIds(p), std::size_t(0));
}

void TestProjectIds::checkElementIds_namesZeroAndRepeatedIds()
{
    QCOMPARE(checkElementIds(withParticleIds({3, 1, 2})), QString());
    QCOMPARE(checkElementIds(withParticleIds({3, 0, 2})),
             QStringLiteral("$.rig.particles[1].id: the particle '' has no id (0); assignMissingIds() gives it one"));
    QCOMPARE(checkElementIds(withParticleIds({3, 1, 3})),
             QStringLiteral("$.rig.particles[2].id: duplicate particle id 3 (also $.rig.particles[0].id)"));
    Project p = fullProject();
    p.rig.bindings[1].id = p.rig.bindings[0].id;
    QCOMPARE(checkElementIds(p.rig),
             QStringLiteral("$.rig.bindings[1].id: duplicate bone binding id 31 (also $.rig.bindings[0].id)"));
    // The same id in two kinds is fine: each kind has its own id space.
    p = fullProject();
    p.rig.sticks[0].id = 10; // a particle's id too
    QCOMPARE(checkElementIds(p.rig), QString());
}

void TestProjectIds::elementIndex_findsByKindAndId()
{
    const Project p = fullProject();
    const ElementIndex index(p.rig);
    QCOMPARE(index.find(ElementKind::Particle, 30), 2);
    QCOMPARE(index.find(ElementKind::Stick, 1), 3);
    QCOMPARE(index.find({ElementKind::Bone, 899}), 2);
    QCOMPARE(index.find(ElementKind::Particle, 42), rig::kNone); // 42 is an angular constraint
    QCOMPARE(index.find(ElementKind::Angular, 42), 0);
    QCOMPARE(index.find(ElementKind::Particle, 0), rig::kNone);
    QCOMPARE(index.count(ElementKind::Shape), std::size_t(2));
    QVERIFY(index.contains({ElementKind::Binding, 32}));
    QVERIFY(!index.contains({ElementKind::Binding, 33}));
}

void TestProjectIds::elementKind_spellingsRoundTrip()
{
    const char* expected[] = {"particle", "stick", "angle", "triangle", "angular", "pin", "shape", "bone", "binding"};
    const char* sections[] = {"particles", "sticks", "angles", "triangles", "angular",
                              "pins",      "shapes", "bones",  "bindings"};
    for (int k = 0; k < kElementKindCount; ++k) {
        QCOMPARE(toString(ElementKind(k)), expected[k]);
        QCOMPARE(sectionName(ElementKind(k)), sections[k]);
        ElementKind parsed = ElementKind::Binding;
        QVERIFY(elementKindFromString(QString::fromLatin1(expected[k]), parsed));
        QCOMPARE(parsed, ElementKind(k));
    }
    ElementKind untouched = ElementKind::Pin;
    QVERIFY(!elementKindFromString(u"particles", untouched));
    QCOMPARE(untouched, ElementKind::Pin);
    QCOMPARE(describe(ElementKind::Angular), "angular constraint");
}

void TestProjectIds::pruneEditorState_dropsEntriesForMissingElements()
{
    Project p = fullProject();
    // Delete particle 20 (chest) the way an editor would: the rig loses it, the editor state still names it.
    p.rig = withParticleIds({10, 30, 40, 50});
    const std::size_t removed = pruneEditorState(p);
    // Views: particle 20, stick 3 and bone 901 all went with the old rig; selection: all but particle 10.
    QCOMPARE(removed, std::size_t(3 + 2));
    QVERIFY(p.editor.elements.empty());
    QCOMPARE(p.editor.selection, (std::vector<ElementRef>{{ElementKind::Particle, 10}}));
    QCOMPARE(p.scenarios.size(), std::size_t(2));
    QCOMPARE(p.scenarios[0].hits.size(), std::size_t(2)); // recorded work is never dropped silently
    QCOMPARE(pruneEditorState(p), std::size_t(0));
}

QTEST_GUILESS_MAIN(TestProjectIds)
#include "tst_projectids.moc"
