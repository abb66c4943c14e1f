// editor/core RigEdit: the closure of an element under its dependents, removal with renumbering of every
// index reference, ids, names. Expected rigs are written out by hand from the sample's picture in
// RigEditTestSupport.h.
#include "RigDump.h"
#include "RigEditTestSupport.h"

#include "marionette/editor/document/RigEdit.h"
#include "marionette/runtime/Procedural.h"

#include <QtTest>

#include <set>

using namespace marionette;
using namespace marionette::test;

namespace {

// Every index reference of the rig spelled with ids ("stick 107: b = particle 114"), skipping elements in
// `removed` and writing references to them as "none": what the references of the rig must read after those
// elements were removed, whatever the new indices.
QStringList referencesById(const rig::RigDescription& r, const std::set<ElementRef>& removed = {})
{
    QStringList out;
    auto gone = [&](ElementKind kind, std::size_t i) { return removed.count({kind, editor::idAt(r, kind, i)}) > 0; };
    auto target = [&](ElementKind kind, std::int32_t index) -> QString {
        if (index < 0 || std::size_t(index) >= editor::countOf(r, kind) || gone(kind, std::size_t(index)))
            return QStringLiteral("none");
        return QStringLiteral("%1 %2").arg(project::toString(kind)).arg(editor::idAt(r, kind, std::size_t(index)));
    };
    auto add = [&](ElementKind kind, std::size_t i, const char* field, ElementKind to, std::int32_t index) {
        if (!gone(kind, i))
            out << QStringLiteral("%1 %2: %3 = %4").arg(project::toString(kind)).arg(editor::idAt(r, kind, i)).arg(field, target(to, index));
    };
    using K = ElementKind;
    for (std::size_t i = 0; i < r.particles.size(); ++i) add(K::Particle, i, "bone", K::Bone, r.particles[i].bone);
    for (std::size_t i = 0; i < r.sticks.size(); ++i) {
        add(K::Stick, i, "a", K::Particle, r.sticks[i].a);
        add(K::Stick, i, "b", K::Particle, r.sticks[i].b);
    }
    for (std::size_t i = 0; i < r.angles.size(); ++i) {
        add(K::Angle, i, "center", K::Particle, r.angles[i].center);
        add(K::Angle, i, "a", K::Particle, r.angles[i].a);
        add(K::Angle, i, "b", K::Particle, r.angles[i].b);
    }
    for (std::size_t i = 0; i < r.triangles.size(); ++i)
        for (int k = 0; k < 3; ++k) add(K::Triangle, i, "p", K::Particle, r.triangles[i].p[k]);
    for (std::size_t i = 0; i < r.angular.size(); ++i) {
        add(K::Angular, i, "triangleA", K::Triangle, r.angular[i].triangleA);
        add(K::Angular, i, "triangleB", K::Triangle, r.angular[i].triangleB);
    }
    for (std::size_t i = 0; i < r.pins.size(); ++i) add(K::Pin, i, "particle", K::Particle, r.pins[i].particle);
    for (std::size_t i = 0; i < r.shapes.size(); ++i) {
        add(K::Shape, i, "triangle", K::Triangle, r.shapes[i].triangle);
        for (int k = 0; k < 4; ++k) add(K::Shape, i, "tetra", K::Particle, r.shapes[i].tetra[k]);
    }
    for (std::size_t i = 0; i < r.bones.size(); ++i) add(K::Bone, i, "parent", K::Bone, r.bones[i].parent);
    for (std::size_t i = 0; i < r.bindings.size(); ++i) {
        const auto& b = r.bindings[i];
        add(K::Binding, i, "bone", K::Bone, b.bone);
        add(K::Binding, i, "driver", b.driver == kByTriangle ? K::Triangle : K::Stick, b.index);
    }
    return out;
}

// The sample after removing each closure, built by hand (see the picture in RigEditTestSupport.h).
rig::RigDescription expectedAfter(int which)
{
    rig::RigDescription r = sampleRig();
    switch (which) {
    case 0: // {p1, s0, s1, a0, t0, g0, h1, d0, d1}: particles p0 p2 p3 p4 p5 are now 0..4
        r.particles = {P(0, {0, 0, 0}, 0), P(2, {1, 0, 0}, 2), P(3, {0, 0, 1}, 3), P(4, {1, 1, 1}, kNone), P(5, {2, 1, 0}, 3)};
        r.sticks = {S(2, 2, 3), S(3, 3, 4)};
        r.angles = {};
        r.triangles = {T(1, 1, 2, 3), T(2, 2, 3, 4)};
        r.angular = {G(1, 0, 1)};
        r.pins = {N(0, 4)};
        r.shapes = {HTriangle(0, 1)};
        r.bindings = {D(2, 3, kByTriangle, 1)};
        break;
    case 1: // {b1, b2, d1}: b3 is now bone 1; p1 and p2 lose their bone
        r.particles = {P(0, {0, 0, 0}, 0), P(1, {0, 1, 0}, kNone), P(2, {1, 0, 0}, kNone), P(3, {0, 0, 1}, 1),
            P(4, {1, 1, 1}, kNone), P(5, {2, 1, 0}, 1)};
        r.bones = {B(0, kNone), B(3, 0)};
        r.bindings = {D(0, 0, kByTriangle, 0), D(2, 1, kByTriangle, 2)};
        break;
    case 2: // {s0}: the stick driving d1 is now stick 0
        r.sticks = {S(1, 1, 2), S(2, 3, 4), S(3, 4, 5)};
        r.bindings = {D(0, 0, kByTriangle, 0), D(1, 1, kByStick, 0), D(2, 3, kByTriangle, 2)};
        break;
    case 3: // {t1, g0, g1}: t2 is now triangle 1, for h0 and d2
        r.triangles = {T(0, 0, 1, 2), T(2, 3, 4, 5)};
        r.angular = {};
        r.shapes = {HTriangle(0, 1), HTetra(1, 0, 1, 2, 3)};
        r.bindings = {D(0, 0, kByTriangle, 0), D(1, 1, kByStick, 1), D(2, 3, kByTriangle, 1)};
        break;
    case 4: // {p5, s3, t2, g1, n0, h0, d2}: the last of each, nothing renumbered
        r.particles.pop_back();
        r.sticks.pop_back();
        r.triangles.pop_back();
        r.angular.pop_back();
        r.pins.clear();
        r.shapes = {HTetra(1, 0, 1, 2, 3)};
        r.bindings.pop_back();
        break;
    default: break;
    }
    return r;
}

rig::RigDescription humanoidWithIds()
{
    rig::RigDescription r = runtime::makeHumanoid();
    project::assignMissingIds(r);
    return r;
}

} // namespace

class TestRigEdit : public QObject {
    Q_OBJECT
  private slots:
    void sampleRig_isValid()
    {
        QCOMPARE(QString::fromStdString(sampleRig().validate()), QString());
    }

    void withDependents_closesOverReferences_data()
    {
        QTest::addColumn<QStringList>("selected");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("particle: sticks, angle, triangle, tetra shape, then angular and binding of the triangle")
            << QStringList{"p0"} << QStringList{"a0", "d0", "g0", "h1", "p0", "s0", "t0"};
        QTest::newRow("particle: stick-driven binding, centre of an angle")
            << QStringList{"p1"} << QStringList{"a0", "d0", "d1", "g0", "h1", "p1", "s0", "s1", "t0"};
        QTest::newRow("particle: pin, triangle's shape and binding")
            << QStringList{"p5"} << QStringList{"d2", "g1", "h0", "n0", "p5", "s3", "t2"};
        QTest::newRow("particle only in a tetra corner and triangles")
            << QStringList{"p3"} << QStringList{"d2", "g0", "g1", "h0", "h1", "p3", "s2", "t1", "t2"};
        QTest::newRow("triangle: angular constraints on either side")
            << QStringList{"t1"} << QStringList{"g0", "g1", "t1"};
        QTest::newRow("triangle: shape and binding") << QStringList{"t2"} << QStringList{"d2", "g1", "h0", "t2"};
        QTest::newRow("stick: the binding it drives") << QStringList{"s1"} << QStringList{"d1", "s1"};
        QTest::newRow("stick driving nothing") << QStringList{"s2"} << QStringList{"s2"};
        QTest::newRow("bone: subtree and its bindings") << QStringList{"b1"} << QStringList{"b1", "b2", "d1"};
        QTest::newRow("root bone: the whole skeleton")
            << QStringList{"b0"} << QStringList{"b0", "b1", "b2", "b3", "d0", "d1", "d2"};
        QTest::newRow("leaf elements alone") << QStringList{"g0", "h1", "n0", "d0", "a0"}
                                             << QStringList{"a0", "d0", "g0", "h1", "n0"};
        QTest::newRow("union, repeats once") << QStringList{"s1", "p1", "s1"}
                                             << QStringList{"a0", "d0", "d1", "g0", "h1", "p1", "s0", "s1", "t0"};
        QTest::newRow("missing elements are ignored") << QStringList{"p9", "t7"} << QStringList{};
    }
    void withDependents_closesOverReferences()
    {
        QFETCH(QStringList, selected);
        QFETCH(QStringList, expected);
        const rig::RigDescription r = sampleRig();
        const auto closure = editor::withDependents(r, refsNamed(r, selected));
        QCOMPARE(namesOf(r, closure), expected);
        QVERIFY(std::is_sorted(closure.begin(), closure.end()));
    }

    void withDependents_isClosed_onHumanoid()
    {
        // For every single element: the closure of the closure adds nothing.
        const rig::RigDescription r = humanoidWithIds();
        for (int k = 0; k < project::kElementKindCount; ++k)
            for (std::size_t i = 0; i < editor::countOf(r, ElementKind(k)); ++i) {
                const auto once = editor::withDependents(r, {{ElementKind(k), editor::idAt(r, ElementKind(k), i)}});
                QVERIFY(!once.empty());
                QVERIFY2(editor::withDependents(r, once) == once, project::toString(ElementKind(k)));
            }
    }

    void removeElements_renumbersReferences_data()
    {
        QTest::addColumn<QStringList>("selected");
        QTest::addColumn<int>("expected");
        QTest::newRow("particle in the middle") << QStringList{"p1"} << 0;
        QTest::newRow("bone subtree") << QStringList{"b1"} << 1;
        QTest::newRow("first stick") << QStringList{"s0"} << 2;
        QTest::newRow("middle triangle") << QStringList{"t1"} << 3;
        QTest::newRow("last particle") << QStringList{"p5"} << 4;
    }
    void removeElements_renumbersReferences()
    {
        QFETCH(QStringList, selected);
        QFETCH(int, expected);
        rig::RigDescription r = sampleRig();
        const auto closure = editor::withDependents(r, refsNamed(r, selected));
        QCOMPARE(editor::removeElements(r, closure), closure.size());
        QCOMPARE(dumpRig(r), dumpRig(expectedAfter(expected)));
        QCOMPARE(QString::fromStdString(r.validate()), QString());
    }

    void removeElements_keepsReferencesById_onHumanoid()
    {
        // Every element of every kind, removed with its dependents: the rest still validates, keeps its ids
        // and order, and every surviving reference names the same element (by id) as before.
        const rig::RigDescription before = humanoidWithIds();
        for (int k = 0; k < project::kElementKindCount; ++k)
            for (std::size_t i = 0; i < editor::countOf(before, ElementKind(k)); ++i) {
                const ElementRef ref{ElementKind(k), editor::idAt(before, ElementKind(k), i)};
                const auto closure = editor::withDependents(before, {ref});
                const std::set<ElementRef> removed(closure.begin(), closure.end());
                rig::RigDescription after = before;
                QCOMPARE(editor::removeElements(after, closure), closure.size());
                const QString what = QStringLiteral("%1 %2").arg(project::toString(ref.kind)).arg(i);
                QVERIFY2(after.validate().empty() || after.particles.empty(),
                    qPrintable(what + ": " + QString::fromStdString(after.validate())));
                QCOMPARE(referencesById(after), referencesById(before, removed));
                for (int m = 0; m < project::kElementKindCount; ++m) {
                    std::vector<rig::ElementId> kept;
                    for (std::size_t j = 0; j < editor::countOf(before, ElementKind(m)); ++j)
                        if (!removed.count({ElementKind(m), editor::idAt(before, ElementKind(m), j)}))
                            kept.push_back(editor::idAt(before, ElementKind(m), j));
                    std::vector<rig::ElementId> ids;
                    for (std::size_t j = 0; j < editor::countOf(after, ElementKind(m)); ++j)
                        ids.push_back(editor::idAt(after, ElementKind(m), j));
                    QVERIFY2(ids == kept, qPrintable(what));
                }
            }
    }

    void removeElements_countsEachElementOnce()
    {
        rig::RigDescription r = sampleRig();
        const ElementRef g0 = refNamed(r, "g0");
        QCOMPARE(editor::removeElements(r, {g0, g0, {ElementKind::Angular, 999}}), std::size_t(1));
        QCOMPARE(r.angular.size(), std::size_t(1));
        QCOMPARE(r.angular[0].name, std::string("g1"));
    }

    void removeElements_nothing_leavesRigUnchanged()
    {
        rig::RigDescription r = sampleRig();
        QCOMPARE(editor::removeElements(r, {}), std::size_t(0));
        QCOMPARE(editor::removeElements(r, {{ElementKind::Particle, 999}, {ElementKind::Stick, 0}}), std::size_t(0));
        QCOMPARE(dumpRig(r), dumpRig(sampleRig()));
    }

    void indexOf_findsById_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<uint>("id");
        QTest::addColumn<int>("expected");
        QTest::newRow("first particle") << int(ElementKind::Particle) << uint(100) << 0;
        QTest::newRow("last particle") << int(ElementKind::Particle) << uint(135) << 5;
        QTest::newRow("bone 3") << int(ElementKind::Bone) << uint(121) << 3;
        QTest::newRow("id of another kind's element") << int(ElementKind::Pin) << uint(107) << -1;
        QTest::newRow("id 0 is never found") << int(ElementKind::Particle) << uint(0) << -1;
        QTest::newRow("unused id") << int(ElementKind::Stick) << uint(101) << -1;
    }
    void indexOf_findsById()
    {
        QFETCH(int, kind);
        QFETCH(uint, id);
        QFETCH(int, expected);
        QCOMPARE(editor::indexOf(sampleRig(), {ElementKind(kind), id}), expected);
    }

    void nextId_isOneAboveLargest_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<uint>("expected");
        QTest::newRow("particles 100..135") << int(ElementKind::Particle) << uint(136);
        QTest::newRow("one pin, id 100") << int(ElementKind::Pin) << uint(101);
        QTest::newRow("bones 100..121") << int(ElementKind::Bone) << uint(122);
    }
    void nextId_isOneAboveLargest()
    {
        QFETCH(int, kind);
        QFETCH(uint, expected);
        QCOMPARE(editor::nextId(sampleRig(), ElementKind(kind)), rig::ElementId(expected));
    }

    void nextId_emptyKind_isOne()
    {
        rig::RigDescription r = sampleRig();
        r.pins.clear();
        QCOMPARE(editor::nextId(r, ElementKind::Pin), rig::ElementId(1));
        r.sticks = {S(0, 0, 1)};
        r.sticks[0].id = 40;
        r.sticks.push_back(S(1, 1, 2));
        r.sticks[1].id = 7; // not in order
        QCOMPARE(editor::nextId(r, ElementKind::Stick), rig::ElementId(41));
    }

    void uniqueName_countsUpFromOne_data()
    {
        QTest::addColumn<QStringList>("used");
        QTest::addColumn<QString>("expected");
        QTest::newRow("none used") << QStringList{} << "particle1";
        QTest::newRow("first used") << QStringList{"particle1"} << "particle2";
        QTest::newRow("gap") << QStringList{"particle1", "particle3"} << "particle2";
        QTest::newRow("other names do not count") << QStringList{"particle", "particle01", "Particle1"} << "particle1";
        QTest::newRow("run") << QStringList{"particle2", "particle1", "particle3"} << "particle4";
    }
    void uniqueName_countsUpFromOne()
    {
        QFETCH(QStringList, used);
        QFETCH(QString, expected);
        rig::RigDescription r;
        for (const QString& name : used) {
            rig::Particle p;
            p.name = name.toStdString();
            r.particles.push_back(p);
        }
        rig::Stick other; // names of another kind do not count
        other.name = "particle1";
        r.sticks.push_back(other);
        QCOMPARE(QString::fromStdString(editor::uniqueName(r, ElementKind::Particle, "particle")), expected);
    }

    void appendElement_removeLastElement_roundTrip()
    {
        rig::RigDescription r = sampleRig();
        editor::appendElement(r, editor::AnyElement(G(5, 2, 0)));
        QCOMPARE(r.angular.size(), std::size_t(3));
        QCOMPARE(r.angular.back().triangleA, 2);
        editor::removeLastElement(r, ElementKind::Angular);
        QCOMPARE(dumpRig(r), dumpRig(sampleRig()));
        r.pins.clear();
        editor::removeLastElement(r, ElementKind::Pin); // empty: no-op
        QVERIFY(r.pins.empty());
    }
};

QTEST_GUILESS_MAIN(TestRigEdit)
#include "tst_rigedit.moc"
