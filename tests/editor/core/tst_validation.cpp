// editor/core Validation: each check fires on a small hand-made rig, once, naming exactly the culprit; a clean
// rig and the procedural humanoid give no errors; every finding of an invalid rig is listed with its culprit;
// the editor, the .mrig writer, the reader and the runtime judge a triangle at the degeneracy threshold alike;
// an export validates once, and so does opening a project and exporting it. Dangling particles, masses more
// than 10× apart across a joint, and a total mass or size no character has are warnings.
#include "MrigTestSupport.h"
#include "RigEditTestSupport.h"

#include "marionette/editor/document/Document.h"
#include "marionette/editor/document/Validation.h"
#include "marionette/editor/pluginhost/PluginHost.h"
#include "marionette/import/ImportedScene.h"
#include "marionette/project/ProjectFile.h"
#include "marionette/rig/Mrig.h"
#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/Rig.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cstddef>

using namespace marionette;
using namespace marionette::test;
using editor::Severity;
using editor::ValidationIssue;

namespace {

// A tetrahedron corner: particles p0 (0,0,0), p1 (0,1,0), p2 (1,0,0), p3 (0,0,1); rigid sticks s0 p0-p1,
// s1 p1-p2, s2 p0-p2, s3 p0-p3, s4 p1-p3; triangles t0 (p0,p1,p2) and t1 (p0,p1,p3) sharing the edge p0-p1;
// a cone g0 between them; two root bones b0, b1 driven by t0 and t1 (d0, d1).
rig::RigDescription cleanRig()
{
    rig::RigDescription r;
    r.name = "clean";
    r.particles = {P(0, {0, 0, 0}, kNone), P(1, {0, 1, 0}, kNone), P(2, {1, 0, 0}, kNone), P(3, {0, 0, 1}, kNone)};
    r.sticks = {S(0, 0, 1), S(1, 1, 2), S(2, 0, 2), S(3, 0, 3), S(4, 1, 3)};
    r.triangles = {T(0, 0, 1, 2), T(1, 0, 1, 3)};
    r.angular = {G(0, 0, 1)};
    r.bones = {B(0, kNone), B(1, kNone)};
    r.bindings = {D(0, 0, kByTriangle, 0), D(1, 1, kByTriangle, 1)};
    return r;
}

rig::Stick link(int i, std::int32_t a, std::int32_t b, rig::StickKind kind, float minLength, float maxLength)
{
    rig::Stick s = S(i, a, b);
    s.kind = kind;
    s.minLength = minLength;
    s.maxLength = maxLength;
    return s;
}

// A skinned mesh over cleanRig()'s two bones: one triangle weighted to each bone as `weights` says
// (bone index per vertex, kNone = unweighted), or a rigid mesh hanging under `rigidBone`.
import::ImportedScene meshOver(const rig::RigDescription& r, std::vector<std::int32_t> weights, std::int32_t rigidBone = kNone)
{
    import::ImportedScene scene;
    scene.skeleton = r.bones;
    scene.boneInfo.resize(r.bones.size());
    for (std::size_t i = 0; i < r.bones.size(); ++i)
        scene.boneInfo[i].sourceName = r.bones[i].name;
    import::ImportedMesh mesh;
    mesh.name = "body";
    mesh.positions = {{0, 0, 0}, {0, 1, 0}, {1, 0, 0}};
    mesh.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    mesh.indices = {0, 2, 1};
    if (rigidBone != kNone)
        mesh.rigidBone = rigidBone;
    else
        for (std::int32_t bone : weights) {
            import::VertexInfluences v;
            if (bone != kNone) {
                v.bone[0] = bone;
                v.weight[0] = 1.f;
            }
            mesh.influences.push_back(v);
        }
    scene.meshes.push_back(mesh);
    return scene;
}

QString describe(const std::vector<ValidationIssue>& issues)
{
    QStringList out;
    for (const auto& i : issues)
        out << (i.severity == Severity::Error ? QStringLiteral("error: ") : QStringLiteral("warning: ")) + i.message;
    return out.join(QStringLiteral("\n"));
}

enum Case {
    IsolatedParticle, DegenerateTriangle, AngularWithoutSharedParticle, RangeBelowBind, RangeAboveBind,
    MinOnlyBelowBind, MaxOnlyAboveBind, MinAboveMax, DuplicateStick, ReversedDuplicate, ZeroLengthStick,
    BoneBoundTwice, WeightedBoneUnbound, RigidMeshBoneUnbound, AngleOutsideLimits, TwistExcludesRest,
    TwistMinAboveMax, IndexOutOfRange, DanglingParticle, MassRatioAcrossBend, MassRatioAcrossJoint, HeavyRig,
    HugeRig,
};

rig::RigDescription broken(int which)
{
    rig::RigDescription r = cleanRig();
    using K = rig::StickKind;
    switch (Case(which)) {
    case IsolatedParticle: r.particles.push_back(P(4, {2, 2, 2}, kNone)); break;
    case DegenerateTriangle: // p4 on the line p0-p1
        r.particles.push_back(P(4, {0, 2, 0}, kNone));
        r.triangles.push_back(T(2, 0, 1, 4));
        break;
    case AngularWithoutSharedParticle:
        r.particles.push_back(P(4, {3, 0, 0}, kNone));
        r.particles.push_back(P(5, {3, 1, 0}, kNone));
        r.particles.push_back(P(6, {4, 0, 0}, kNone));
        r.triangles.push_back(T(2, 4, 5, 6));
        r.angular.push_back(G(1, 0, 2));
        break;
    case RangeBelowBind: r.sticks.push_back(link(5, 0, 1, K::Range, 1.2f, 1.5f)); break;   // bind distance 1
    case RangeAboveBind: r.sticks.push_back(link(5, 0, 1, K::Range, 0.5f, 0.8f)); break;
    case MinOnlyBelowBind: r.sticks.push_back(link(5, 0, 1, K::MinOnly, 1.5f, 0.f)); break;
    case MaxOnlyAboveBind: r.sticks.push_back(link(5, 0, 1, K::MaxOnly, 0.f, 0.5f)); break;
    case MinAboveMax: r.sticks.push_back(link(5, 0, 1, K::Range, 1.5f, 1.2f)); break;
    case DuplicateStick: r.sticks.push_back(S(5, 0, 1)); break;
    case ReversedDuplicate: r.sticks.push_back(S(5, 3, 1)); break;
    case ZeroLengthStick: // p4 on top of p0, held by p1 too (so it does not also dangle)
        r.particles.push_back(P(4, {0, 0, 0}, kNone));
        r.sticks.push_back(S(5, 0, 4));
        r.sticks.push_back(S(6, 1, 4));
        break;
    case BoneBoundTwice: r.bindings.push_back(D(2, 0, kByTriangle, 1)); break;
    case WeightedBoneUnbound:
    case RigidMeshBoneUnbound: r.bindings.pop_back(); break; // b1, weighted by the mesh, is driven by nothing
    case AngleOutsideLimits: // 90° at p0 between p1 and p2, limits [0°, 57°]
        r.angles.push_back(A(0, 0, 1, 2));
        r.angles.back().maxAngle = 1.f;
        break;
    case TwistExcludesRest:
        r.angular[0].limit = rig::AngularLimit::SwingTwist;
        r.angular[0].twistMin = 0.2f;
        r.angular[0].twistMax = 0.5f;
        break;
    case TwistMinAboveMax:
        r.angular[0].limit = rig::AngularLimit::SwingTwist;
        r.angular[0].twistMin = 0.5f;
        r.angular[0].twistMax = 0.2f;
        break;
    case IndexOutOfRange: r.sticks[4].b = 9; break;
    case DanglingParticle: // p4 off p0 by one stick, nothing else
        r.particles.push_back(P(4, {-1, 0, 0}, kNone));
        r.sticks.push_back(S(5, 0, 4));
        break;
    case MassRatioAcrossBend: // the bend at p0 between p1 (1 kg) and p2 (20 kg)
        r.angles.push_back(A(0, 0, 1, 2));
        r.angles.back().minAngle = 0.f;
        r.angles.back().maxAngle = kPi;
        r.particles[2].mass = 20.f;
        break;
    case MassRatioAcrossJoint: r.particles[3].mass = 30.f; break; // t0 weighs 3 kg, t1 32 kg
    case HeavyRig:
        for (rig::Particle& p : r.particles)
            p.mass = 1000.f;
        break;
    case HugeRig:
        for (rig::Particle& p : r.particles)
            p.position = p.position * 40.f;
        break;
    }
    return r;
}

} // namespace

class TestValidation : public QObject {
    Q_OBJECT
  private slots:
    void cleanRig_hasNoIssues()
    {
        const rig::RigDescription r = cleanRig();
        const import::ImportedScene mesh = meshOver(r, {0, 1, 1});
        QCOMPARE(QString::fromStdString(mesh.validate()), QString());
        const auto issues = editor::validateRig(r, &mesh);
        QVERIFY2(issues.empty(), qPrintable(describe(issues)));
    }

    void check_firesOnceWithTheCulprit_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<bool>("error");
        QTest::addColumn<QStringList>("culprits");
        QTest::addColumn<QString>("says");
        const bool E = true, W = false;
        QTest::newRow("isolated particle") << int(IsolatedParticle) << W << QStringList{"p4"} << "isolated";
        QTest::newRow("degenerate triangle") << int(DegenerateTriangle) << E << QStringList{"t2"} << "degenerate";
        QTest::newRow("angular constraint without shared particle")
            << int(AngularWithoutSharedParticle) << W << QStringList{"g1", "t0", "t2"} << "share no particle";
        QTest::newRow("bind distance below a range's min") << int(RangeBelowBind) << W << QStringList{"s5"} << "below the limit 1.2 m";
        QTest::newRow("bind distance above a range's max") << int(RangeAboveBind) << W << QStringList{"s5"} << "above the limit 0.8 m";
        QTest::newRow("bind distance below a min-only limit") << int(MinOnlyBelowBind) << W << QStringList{"s5"} << "below the limit 1.5 m";
        QTest::newRow("bind distance above a max-only limit") << int(MaxOnlyAboveBind) << W << QStringList{"s5"} << "above the limit 0.5 m";
        QTest::newRow("min above max") << int(MinAboveMax) << E << QStringList{"s5"} << "maxLength is below minLength";
        QTest::newRow("duplicate stick") << int(DuplicateStick) << W << QStringList{"s5"} << "duplicates another link";
        QTest::newRow("duplicate stick, ends swapped") << int(ReversedDuplicate) << W << QStringList{"s5"} << "duplicates another link";
        QTest::newRow("zero-length stick") << int(ZeroLengthStick) << E << QStringList{"s5"} << "zero length";
        QTest::newRow("bone bound twice") << int(BoneBoundTwice) << E << QStringList{"d2"} << "bound twice";
        QTest::newRow("weighted bone driven by nothing") << int(WeightedBoneUnbound) << W << QStringList{"b1"} << "carries skin weight";
        QTest::newRow("rigid mesh on a bone driven by nothing") << int(RigidMeshBoneUnbound) << W << QStringList{"b1"} << "carries skin weight";
        QTest::newRow("angle constraint broken at bind") << int(AngleOutsideLimits) << W << QStringList{"a0"} << "bind angle 90.0°";
        QTest::newRow("twist range excludes the rest") << int(TwistExcludesRest) << W << QStringList{"g0"} << "excludes the rest";
        QTest::newRow("twist min above max") << int(TwistMinAboveMax) << E << QStringList{"g0"} << "twistMax is below twistMin";
        QTest::newRow("index out of range") << int(IndexOutOfRange) << E << QStringList{"s4"} << "particle b index 9 out of range";
        QTest::newRow("dangling particle") << int(DanglingParticle) << W << QStringList{"p4"} << "hangs off a single stick";
        QTest::newRow("masses 20x apart across a bend") << int(MassRatioAcrossBend) << W << QStringList{"a0"} << "weigh 1 kg and 20 kg (20×)";
        QTest::newRow("masses 11x apart across a joint") << int(MassRatioAcrossJoint) << W << QStringList{"g0"} << "weigh 3 kg and 32 kg (11×)";
        QTest::newRow("4 t in all") << int(HeavyRig) << W << QStringList{} << "weighs 4e+03 kg in all, outside 0.1 kg to 2e+03 kg";
        QTest::newRow("40 m across") << int(HugeRig) << W << QStringList{} << "spans 40 m at its largest, outside 0.02 m to 30 m";
    }
    void check_firesOnceWithTheCulprit()
    {
        QFETCH(int, which);
        QFETCH(bool, error);
        QFETCH(QStringList, culprits);
        QFETCH(QString, says);
        const rig::RigDescription r = broken(which);
        const import::ImportedScene mesh = meshOver(r, {0, 1, 1}, which == RigidMeshBoneUnbound ? 1 : kNone);
        const auto issues = editor::validateRig(r, &mesh);
        QVERIFY2(issues.size() == 1, qPrintable(describe(issues)));
        QCOMPARE(issues[0].severity == Severity::Error, error);
        QCOMPARE(namesOf(r, issues[0].elements), culprits);
        QVERIFY2(issues[0].message.contains(says), qPrintable(issues[0].message));
        QCOMPARE(editor::hasErrors(issues), error);
    }

    void unboundBone_isFine_data()
    {
        QTest::addColumn<int>("parentOfB1");
        QTest::addColumn<QList<int>>("weights");
        QTest::addColumn<bool>("withMesh");
        QTest::newRow("no mesh: nothing to say") << int(kNone) << QList<int>{0, 1, 1} << false;
        QTest::newRow("no skin weight") << int(kNone) << QList<int>{0, 0, kNone} << true;
        QTest::newRow("follows its bound parent") << 0 << QList<int>{0, 1, 1} << true;
    }
    void unboundBone_isFine()
    {
        QFETCH(int, parentOfB1);
        QFETCH(QList<int>, weights);
        QFETCH(bool, withMesh);
        rig::RigDescription r = broken(WeightedBoneUnbound);
        r.bones[1].parent = parentOfB1;
        const import::ImportedScene mesh = meshOver(r, std::vector<std::int32_t>(weights.begin(), weights.end()));
        const auto issues = editor::validateRig(r, withMesh ? &mesh : nullptr);
        QVERIFY2(issues.empty(), qPrintable(describe(issues)));
    }

    void unboundRoot_withBoundDescendant_isFine()
    {
        // b1 unbound, its child b2 bound to t1: the runtime makes the root copy its descendant.
        rig::RigDescription r = cleanRig();
        r.bones.push_back(B(2, 1));
        r.bindings[1].bone = 2;
        const import::ImportedScene mesh = meshOver(r, {0, 1, 2});
        const auto issues = editor::validateRig(r, &mesh);
        QVERIFY2(issues.empty(), qPrintable(describe(issues)));
    }

    // A rig kept on a mesh of another skeleton (an import that kept the old rig): the palette's bones are
    // not the mesh's, so the mesh cannot follow. One error says where the skeletons part; each binding to a
    // bone the mesh lacks is one more error naming the binding and the bone.
    void meshOfAnotherSkeleton_isAnError()
    {
        const rig::RigDescription r = cleanRig(); // bones b0, b1, bound by d0, d1
        import::ImportedScene mesh = meshOver(r, {0, 1, 1});
        mesh.sourcePath = "/assets/walk.fbx";
        mesh.skeleton.push_back(B(2, kNone)); // three bones against the rig's two
        mesh.boneInfo.resize(3);
        auto issues = editor::validateRig(r, &mesh);
        QCOMPARE(issues.size(), std::size_t(1));
        QCOMPARE(issues[0].severity, Severity::Error);
        QCOMPARE(issues[0].message, QStringLiteral("the rig's skeleton (2 bones) is not the skeleton of the mesh 'walk.fbx' (3 bones; the first 2 bones agree): the mesh cannot follow the rig; run Auto-Rig on this mesh, or import the mesh the rig was built on"));

        mesh.skeleton = {B(0, kNone), B(7, kNone)}; // b1 renamed b7: d1 drives a bone the mesh lacks
        issues = editor::validateRig(r, &mesh);
        QCOMPARE(issues.size(), std::size_t(2));
        QCOMPARE(issues[0].message, QStringLiteral("bone binding 'd1': drives bone 'b1', which the mesh 'walk.fbx' does not have"));
        QCOMPARE(namesOf(r, issues[0].elements), (QStringList{QStringLiteral("b1"), QStringLiteral("d1")}));
        QVERIFY2(issues[1].message.contains(QStringLiteral("bone 1 is 'b1' in the rig and 'b7' in the mesh")), qPrintable(issues[1].message));
        QVERIFY(editor::hasErrors(issues));
        QVERIFY(!editor::rigVerdict(r, &mesh).ok()); // an export refuses it

        mesh.skeleton = {B(1, kNone), B(0, kNone)}; // the same bones in another order: still not the palette
        QCOMPARE(editor::validateRig(r, &mesh).size(), std::size_t(1));
    }

    // Particles placed by hand on a skinned mesh, no bone bound yet: the mesh stays in its bind pose.
    void rigWithoutBonesOnASkinnedMesh_isAWarning()
    {
        rig::RigDescription r = cleanRig();
        const import::ImportedScene mesh = meshOver(r, {0, 1, 1});
        r.bindings.clear();
        r.bones.clear();
        const auto issues = editor::validateRig(r, &mesh);
        QCOMPARE(issues.size(), std::size_t(1));
        QCOMPARE(issues[0].severity, Severity::Warning);
        QCOMPARE(issues[0].message, QStringLiteral("the rig drives none of the 2 bones of the mesh: the mesh stays in its bind pose (Auto-Rig binds them)"));
    }

    void errors_comeFirst()
    {
        rig::RigDescription r = broken(ZeroLengthStick);
        r.particles.push_back(P(5, {2, 2, 2}, kNone)); // isolated: a warning listed before the stick's error
        const auto issues = editor::validateRig(r);
        QCOMPARE(issues.size(), std::size_t(2));
        QCOMPARE(issues[0].severity, Severity::Error);
        QCOMPARE(namesOf(r, issues[0].elements), QStringList{"s5"});
        QCOMPARE(issues[1].severity, Severity::Warning);
        QCOMPARE(namesOf(r, issues[1].elements), QStringList{"p5"});
    }

    void emptyRig_isOneError()
    {
        const auto issues = editor::validateRig(rig::RigDescription{});
        QCOMPARE(issues.size(), std::size_t(1));
        QVERIFY(editor::hasErrors(issues));
        QVERIFY(issues[0].elements.empty());
    }

    void angular_triangleJoinedByRigidStick_hasAPivot()
    {
        rig::RigDescription r = broken(AngularWithoutSharedParticle);
        QCOMPARE(editor::validateRig(r).size(), std::size_t(1));
        r.sticks.push_back(link(9, 5, 1, rig::StickKind::MaxOnly, 0.f, 100.f)); // a rope does not pin them
        QCOMPARE(editor::validateRig(r).size(), std::size_t(1));
        r.sticks.push_back(S(10, 5, 1)); // a rigid stick from triangle 2's p5 to triangle 0's p1 does
        QVERIFY2(editor::validateRig(r).empty(), qPrintable(describe(editor::validateRig(r))));
    }

    // A chain of plain segments between two frames (a spine between pelvis and chest triangles, as the generic
    // template makes them) spreads the joint along the chain: no warning. A chain through a third triangle's
    // particles (another joint) does not count.
    void angular_trianglesJoinedByAChainOfRigidSticks_haveAPivot()
    {
        rig::RigDescription r = broken(AngularWithoutSharedParticle);
        r.particles.push_back(P(7, {2, 0.5f, 0}, kNone)); // a chain p1 (0,1,0) - p7 - p8 - p5 (3,1,0)
        r.particles.push_back(P(8, {2.5f, 0.8f, 0}, kNone));
        r.sticks.push_back(S(9, 1, 7));
        r.sticks.push_back(link(10, 7, 8, rig::StickKind::Range, 0.1f, 1.f)); // a range is no rigid link
        r.sticks.push_back(S(11, 8, 5));
        QVERIFY2(describe(editor::validateRig(r)).contains(QStringLiteral("no pivot")), qPrintable(describe(editor::validateRig(r))));
        r.sticks[r.sticks.size() - 2] = S(10, 7, 8);
        QVERIFY2(editor::validateRig(r).empty(), qPrintable(describe(editor::validateRig(r))));
        // The same chain passing through a particle of a third triangle joins two joints, not one.
        r.particles.push_back(P(9, {2.5f, 2.f, 0}, kNone));
        r.particles.push_back(P(10, {3.f, 2.5f, 0}, kNone));
        r.triangles.push_back(T(3, 8, 9, 10));
        r.sticks.push_back(S(12, 8, 9));
        r.sticks.push_back(S(13, 9, 10));
        r.sticks.push_back(S(14, 10, 8));
        QVERIFY2(describe(editor::validateRig(r)).contains(QStringLiteral("no pivot")), qPrintable(describe(editor::validateRig(r))));
    }

    // Every problem of an invalid rig is listed (validation findings, typed: the culprit comes from the
    // finding's kind and index), in check order, with the message validate() gives the first.
    void invalidRig_listsEveryFindingWithItsCulprit()
    {
        rig::RigDescription r = cleanRig();
        r.sticks[4].b = 9;                 // s4: index out of range
        r.particles.push_back(P(4, {0, 2, 0}, kNone));
        r.triangles.push_back(T(2, 0, 1, 4)); // t2: collinear
        r.angular[0].stiffness = 2.f;      // g0: out of range
        r.settings.iterations = 0;         // rig-wide: no culprit
        const auto issues = editor::validateRig(r);
        QVERIFY2(issues.size() == 4, qPrintable(describe(issues)));
        const QStringList culprits[] = {{"s4"}, {"t2"}, {"g0"}, {}};
        for (std::size_t i = 0; i < issues.size(); ++i) {
            QCOMPARE(issues[i].severity, Severity::Error);
            QCOMPARE(namesOf(r, issues[i].elements), culprits[i]);
        }
        QCOMPARE(issues[0].message, QString::fromStdString(r.validate()));
        QCOMPARE(issues[0].message, QStringLiteral("sticks[4] 's4': particle b index 9 out of range (5 particles)"));
        QVERIFY2(issues[1].message.startsWith(QStringLiteral("triangles[2] 't2': degenerate")), qPrintable(issues[1].message));
        QVERIFY2(issues[3].message.startsWith(QStringLiteral("settings: iterations 0")), qPrintable(issues[3].message));
    }

    // One degenerate-triangle test: a triangle just inside the threshold (twice its area 1.001e-4 of its
    // longer edge squared) is accepted by the editor, the writer, the reader and the runtime; one just
    // outside (0.999e-4) is refused by each, the file reader included.
    void degenerateTriangle_sameVerdictEverywhere_data()
    {
        QTest::addColumn<float>("height");
        QTest::addColumn<bool>("degenerate");
        QTest::newRow("just inside") << 1.001e-4f << false;
        QTest::newRow("just outside") << 0.999e-4f << true;
    }
    void degenerateTriangle_sameVerdictEverywhere()
    {
        QFETCH(float, height);
        QFETCH(bool, degenerate);
        // t2 = (p0, p2, p4): edges (1, 0, 0) and (1, height, 0) from p0.
        auto withTriangle = [](float h) {
            rig::RigDescription r = cleanRig();
            r.particles.push_back(P(4, {1, h, 0}, kNone));
            r.triangles.push_back(T(2, 0, 2, 4));
            return r;
        };
        const rig::RigDescription r = withTriangle(height);
        const Vec3 p0 = r.particles[0].position, p1 = r.particles[2].position, p2 = r.particles[4].position;
        QCOMPARE(rig::isDegenerateTriangle(p0, p1, p2), degenerate);

        // The editor.
        const auto issues = editor::validateRig(r);
        QCOMPARE(editor::hasErrors(issues), degenerate);
        if (degenerate) {
            QCOMPARE(issues.size(), std::size_t(1));
            QCOMPARE(namesOf(r, issues[0].elements), QStringList{"t2"});
            QVERIFY2(issues[0].message.contains(QStringLiteral("degenerate")), qPrintable(issues[0].message));
        } else {
            QVERIFY2(issues.empty(), qPrintable(describe(issues)));
        }
        // The writer.
        std::string error;
        const std::vector<std::byte> written = rig::writeMrig(r, &error);
        QCOMPARE(written.empty(), degenerate);
        if (degenerate)
            QCOMPARE(QString::fromStdString(error), issues[0].message);
        // The runtime: the description builds (and then has its bind frame) exactly when it is valid.
        QCOMPARE(bool(runtime::Rig::build(r)), !degenerate);
        Mat3 frame;
        if (!degenerate)
            QVERIFY(runtime::Rig::triangleFrame(p0, p1, p2, frame));
        // The reader: the file written for the triangle just inside, with p4 moved to `height`.
        test::Bytes file = rig::writeMrig(withTriangle(1.001e-4f));
        QVERIFY(!file.empty());
        const std::size_t y = test::payloadOffset(file, rig::mrig::kTagParticles) + 4 * sizeof(rig::mrig::ParticleRecord) +
                              offsetof(rig::mrig::ParticleRecord, position) + sizeof(float);
        QCOMPARE(test::peek<float>(file, y), 1.001e-4f);
        test::poke(file, y, height);
        test::fixChecksums(file);
        rig::RigDescription read;
        error.clear();
        QCOMPARE(rig::readMrig(file, read, &error), !degenerate);
        if (degenerate)
            QCOMPARE(QString::fromStdString(error),
                     QStringLiteral("TRIS[2]: degenerate at bind (particles 0, 2 and 4 are collinear or coincide)"));
        else
            QCOMPARE(read.particles[4].position.y, height);
        QCOMPARE(bool(runtime::Rig::loadFromMemory(file, &error)), !degenerate);
    }

    // An export validates the rig once: the verdict's proof goes to the host, the runtime builder and the
    // .mrig writer; the host's own entry point (a description) validates once too.
    void export_validatesOnce()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        editor::PluginHost host;
        const plugin::RigExporter& mrig = *host.exporter(QStringLiteral("mrig"));
        const rig::RigDescription r = cleanRig();
        const QString target = dir.filePath(QStringLiteral("clean.mrig"));
        QString error;

        std::uint64_t before = rig::validationCount();
        const editor::RigVerdict verdict = editor::rigVerdict(r);
        QVERIFY(verdict.ok());
        QVERIFY(editor::PluginHost::exportRig(mrig, *verdict.valid, {target, {}, {}}, &error));
        QCOMPARE(rig::validationCount() - before, std::uint64_t(1));

        before = rig::validationCount();
        QVERIFY2(editor::PluginHost::exportRig(mrig, r, {target, {}, {}}, &error), qPrintable(error));
        QCOMPARE(rig::validationCount() - before, std::uint64_t(1));

        // Loading it back validates once as well (the reader's validation is the builder's).
        before = rig::validationCount();
        std::string loadError;
        QVERIFY2(runtime::Rig::load(target.toStdString(), &loadError), loadError.c_str());
        QCOMPARE(rig::validationCount() - before, std::uint64_t(1));
    }

    // The editor's whole path from a file to a .mrig: open the project (the reader leaves the rig to the
    // validation list), judge it, export it with the verdict's proof: one validation. An invalid rig still
    // opens, and the verdict names its problem as the strict reader does.
    void openAndExport_validatesOnce()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        project::Project saved;
        saved.name = QStringLiteral("clean");
        saved.rig = cleanRig();
        project::assignMissingIds(saved);
        const QString path = dir.filePath(QStringLiteral("clean.mproj"));
        QVERIFY(project::saveProject(path, saved).ok());
        editor::PluginHost host;
        const plugin::RigExporter& mrig = *host.exporter(QStringLiteral("mrig"));

        const std::uint64_t before = rig::validationCount();
        editor::Document document;
        QString error;
        QVERIFY2(document.load(path, error), qPrintable(error));
        const editor::RigVerdict verdict = editor::rigVerdict(document.project().rig);
        QVERIFY(verdict.ok());
        QVERIFY2(editor::PluginHost::exportRig(mrig, *verdict.valid, {dir.filePath(QStringLiteral("clean.mrig")), path, {}},
                                               &error),
                 qPrintable(error));
        QCOMPARE(rig::validationCount() - before, std::uint64_t(1));

        project::Project broken = saved;
        broken.rig.sticks[1].b = broken.rig.sticks[1].a; // both ends on one particle
        const QString brokenPath = dir.filePath(QStringLiteral("broken.mproj"));
        QVERIFY(project::saveProject(brokenPath, broken).ok());
        QVERIFY2(document.load(brokenPath, error), qPrintable(error));
        const editor::RigVerdict refused = editor::rigVerdict(document.project().rig);
        QVERIFY(!refused.ok());
        project::Project strict;
        const project::LoadResult strictLoad = project::loadProject(brokenPath, strict);
        QVERIFY(!strictLoad.ok());
        QVERIFY2(strictLoad.error.endsWith(refused.issues.front().message), qPrintable(strictLoad.error));
    }

    void humanoid_hasNoProblems()
    {
        rig::RigDescription r = runtime::makeHumanoid();
        project::assignMissingIds(r);
        const auto issues = editor::validateRig(r);
        QVERIFY2(issues.empty(), qPrintable(describe(issues)));
        for (const auto& issue : issues) {
            qInfo("humanoid: %s", qPrintable(issue.message));
            QVERIFY(!issue.elements.empty());
            for (const ElementRef& ref : issue.elements)
                QVERIFY(editor::indexOf(r, ref) != kNone);
        }
    }
};

QTEST_GUILESS_MAIN(TestValidation)
#include "tst_validation.moc"
