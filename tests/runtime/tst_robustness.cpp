// Robustness of the Marionette runtime through its public API: degenerate input (coinciding particles,
// zero-length sticks, collinear triangles, NaN, Inf and out-of-range arguments, 10 000 steps of random
// abuse) stays finite or is refused without side effects, and every validation message names the
// offending element. Every assertion on a number prints the measured value.
#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/rig/Validation.h"
#include "marionette/runtime/World.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "RuntimeTestSupport.h"

using namespace marionette;
using namespace marionette::runtime;
using namespace marionette::test;
using namespace marionette::test::worldSuites;

namespace {

bool finiteMatrix(const Mat4& a)
{
    for (float v : a.m)
        if (!std::isfinite(v))
            return false;
    return true;
}

/// A small, valid rig exercising every list: 4 particles, a stick, two triangles sharing an edge, an
/// angular constraint between them, an angle constraint, a pin, a box, two bones and a binding.
rig::RigDescription validSmallRig()
{
    rig::RigDescription d = pointsRig({{0.f, 0.f, 0.f}, {0.f, 1.f, 0.f}, {1.f, 0.f, 0.f}, {0.f, 0.f, 1.f}});
    d.name = "small";
    rig::Stick s;
    s.name = "s0";
    s.a = 0;
    s.b = 1;
    d.sticks.push_back(s);
    for (int k = 0; k < 2; ++k) {
        rig::Triangle t;
        t.p[0] = 0;
        t.p[1] = 1;
        t.p[2] = 2 + k;
        d.triangles.push_back(t);
    }
    rig::AngularConstraint a;
    a.name = "a0";
    a.triangleA = 0;
    a.triangleB = 1;
    d.angular.push_back(a);
    rig::AngleConstraint ang;
    ang.name = "angle0";
    ang.center = 0;
    ang.a = 1;
    ang.b = 2;
    d.angles.push_back(ang);
    rig::Shape box;
    box.name = "box0";
    box.tetra[0] = 0; box.tetra[1] = 1; box.tetra[2] = 2; box.tetra[3] = 3;
    d.shapes.push_back(box);
    for (int k = 0; k < 2; ++k) {
        rig::Bone bone;
        bone.parent = k - 1;
        d.bones.push_back(bone);
    }
    rig::BoneBinding b;
    b.bone = 0;
    b.index = 0;
    d.bindings.push_back(b);
    return d;
}

} // namespace

class TestRobustness : public QObject {
    Q_OBJECT

private slots:
    void degenerate_coincidingAndZeroLength();
    void degenerate_collinearTriangleRefused();
    void degenerate_refusedInputs();
    void degenerate_randomAbuseStaysFinite();
    void validation_messagesNameTheElement_data();
    void validation_messagesNameTheElement();
    void validation_findingsReportEveryProblem();
};

// ---------------------------------------------------------------------------------------------- degenerate input

void TestRobustness::degenerate_coincidingAndZeroLength()
{
    // Two particles at the same spot joined by a 0.3 m stick: they must separate, finitely.
    rig::RigDescription coinciding = pointsRig({{0.f, 1.f, 0.f}, {0.f, 1.f, 0.f}});
    rig::Stick s;
    s.a = 0;
    s.b = 1;
    s.restLength = 0.3f;
    coinciding.sticks.push_back(s);
    BUILD_RIG(coincidingRig, coinciding);
    // Two particles 0.3 m apart joined by a zero-length stick: they collapse onto one point, finitely.
    rig::RigDescription zero = pointsRig({{0.f, 1.f, 0.f}, {0.3f, 1.f, 0.f}});
    s.restLength = 0.f;
    zero.sticks.push_back(s);
    BUILD_RIG(zeroRig, zero);
    // A zero-length stick from the bind pose (coinciding particles, rest length = bind distance = 0).
    rig::RigDescription bindZero = pointsRig({{0.f, 1.f, 0.f}, {0.f, 1.f, 0.f}});
    s.restLength = -1.f;
    bindZero.sticks.push_back(s);
    BUILD_RIG(bindZeroRig, bindZero);

    World world;
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    SPAWN_RAGDOLL(a, world, coincidingRig, Transform{});
    SPAWN_RAGDOLL(b, world, zeroRig, (Transform{Quat{}, {2.f, 0.f, 0.f}}));
    SPAWN_RAGDOLL(c, world, bindZeroRig, (Transform{Quat{}, {4.f, 0.f, 0.f}}));
    for (int i = 0; i < 120; ++i) {
        world.step();
        for (RagdollHandle h : {a, b, c})
            QVERIFY2(allFinite(*world.ragdoll(h)), qPrintable(QStringLiteral("non-finite at step %1").arg(i)));
    }
    const Ragdoll& ra = *world.ragdoll(a);
    const float la = length(ra.positions()[1] - ra.positions()[0]);
    QVERIFY2(std::fabs(la - 0.3f) < 0.01f, qPrintable(QStringLiteral("coinciding particles separated to %1 m, stick length 0.3").arg(num(la))));
    const Ragdoll& rb = *world.ragdoll(b);
    const float lb = length(rb.positions()[1] - rb.positions()[0]);
    QVERIFY2(lb < 0.01f, qPrintable(QStringLiteral("zero-length stick holds its ends %1 m apart").arg(num(lb))));

    // A humanoid whose particles all coincide (every stick zero, every triangle degenerate) stays finite.
    BUILD_RIG(humanoid, makeHumanoid());
    SPAWN_RAGDOLL(hh, world, humanoid, (Transform{Quat{}, {-3.f, 0.f, 0.f}}));
    Ragdoll& rh = *world.ragdoll(hh);
    std::vector<Vec3> same(rh.particleCount(), Vec3{-3.f, 1.f, 0.f});
    QVERIFY(rh.setPose(same, same));
    // Also a pose where each limb triangle is collinear.
    for (int i = 0; i < 240; ++i) {
        world.step();
        QVERIFY2(allFinite(rh), qPrintable(QStringLiteral("collapsed humanoid non-finite at step %1").arg(i)));
        if (i == 120) {
            std::vector<Vec3> line(rh.particleCount());
            for (std::uint32_t k = 0; k < rh.particleCount(); ++k)
                line[k] = {-3.f + 0.1f * float(k), 1.f, 0.f};
            QVERIFY(rh.setPose(line, line));
        }
    }
    std::vector<Mat4> bones(humanoid->bones().size());
    QVERIFY(rh.boneMatrices(bones));
    for (std::size_t i = 0; i < bones.size(); ++i)
        QVERIFY2(finiteMatrix(bones[i]), qPrintable(QStringLiteral("bone %1 matrix not finite after degenerate poses").arg(i)));
}

void TestRobustness::degenerate_collinearTriangleRefused()
{
    rig::RigDescription d = pointsRig({{0.f, 0.f, 0.f}, {1.f, 0.f, 0.f}, {2.f, 0.f, 0.f}});
    rig::Triangle t;
    t.name = "flat";
    t.p[0] = 0; t.p[1] = 1; t.p[2] = 2;
    d.triangles.push_back(t);
    std::string error;
    const auto rig = Rig::build(d, &error);
    QVERIFY2(!rig, "a collinear triangle was accepted");
    QVERIFY2(error.find("triangles[0]") != std::string::npos, error.c_str());
    // The same for coinciding corners.
    d.particles[2].position = d.particles[1].position;
    error.clear();
    QVERIFY(!Rig::build(d, &error));
    QVERIFY2(error.find("triangles[0]") != std::string::npos, error.c_str());
}

void TestRobustness::degenerate_refusedInputs()
{
    BUILD_RIG(humanoid, makeHumanoid());
    World world;
    SPAWN_RAGDOLL(h, world, humanoid, Transform{});
    Ragdoll& r = *world.ragdoll(h);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<Vec3> before = snapshot(r);
    const std::vector<Vec3> prevBefore(r.previousPositions().begin(), r.previousPositions().end());

    QVERIFY2(!r.applyImpulse(kHead, {nan, 0.f, 0.f}), "NaN impulse accepted");
    QVERIFY2(!r.applyImpulse(kHead, {0.f, inf, 0.f}), "Inf impulse accepted");
    QVERIFY2(!r.applyImpulse(r.particleCount(), {0.f, 1.f, 0.f}), "impulse on particle out of range accepted");
    QVERIFY2(!r.applyImpulseOnStick(0, 0.5f, {nan, 0.f, 0.f}), "NaN stick impulse accepted");
    QVERIFY2(!r.applyImpulseOnStick(0, nan, {0.f, 1.f, 0.f}), "NaN stick parameter accepted");
    QVERIFY2(!r.applyImpulseOnStick(0, 1.5f, {0.f, 1.f, 0.f}), "stick parameter 1.5 accepted");
    QVERIFY2(!r.applyImpulseOnStick(std::uint32_t(humanoid->description().sticks.size()), 0.5f, {0.f, 1.f, 0.f}), "stick out of range accepted");
    QVERIFY2(!r.addVelocity({nan, 0.f, 0.f}), "NaN velocity accepted");
    QVERIFY2(!r.setPin(kHead, {inf, 0.f, 0.f}), "Inf pin target accepted");
    QVERIFY2(!r.setPin(kHead, {0.f, nan, 0.f}), "NaN pin target accepted");
    QVERIFY2(!r.setPin(kHead, {0.f, 1.f, 0.f}, 0.f), "pin stiffness 0 accepted");
    QVERIFY2(!r.setPin(kHead, {0.f, 1.f, 0.f}, nan), "pin stiffness NaN accepted");
    QVERIFY2(!r.applyExplosion({nan, 0.f, 0.f}, 1.f, 1.f), "NaN explosion centre accepted");
    QVERIFY2(!r.applyExplosion({0.f, 0.f, 0.f}, inf, 1.f), "Inf explosion strength accepted");
    std::vector<Vec3> bad = before;
    bad[3].y = nan;
    QVERIFY2(!r.setPose(bad, before), "setPose with NaN accepted");
    QVERIFY2(!r.setPose(std::span<const Vec3>(before.data(), before.size() - 1), before), "setPose with too few points accepted");
    QVERIFY2(!world.setGravity({0.f, nan, 0.f}), "NaN gravity accepted");
    // Refused calls changed nothing.
    QVERIFY2(std::memcmp(before.data(), r.positions().data(), before.size() * sizeof(Vec3)) == 0, "refused calls moved particles");
    QVERIFY2(std::memcmp(prevBefore.data(), r.previousPositions().data(), prevBefore.size() * sizeof(Vec3)) == 0,
             "refused calls changed velocities");
    QCOMPARE(r.inverseMasses()[kHead], humanoid->inverseMasses()[kHead]);

    // A huge but finite impulse is accepted and the world stays finite.
    QVERIFY(r.applyImpulse(kHead, {1e30f, -1e30f, 1e30f}));
    for (int i = 0; i < 30; ++i) {
        world.step();
        QVERIFY2(allFinite(r), qPrintable(QStringLiteral("non-finite after a 1e30 impulse, step %1").arg(i)));
    }
    // Explosion centred exactly on a particle.
    QVERIFY(r.applyExplosion(r.positions()[kSpine], 50.f, 2.f));
    for (int i = 0; i < 30; ++i) {
        world.step();
        QVERIFY2(allFinite(r), qPrintable(QStringLiteral("non-finite after an explosion on a particle, step %1").arg(i)));
    }
    // Static geometry with bad parameters is refused with a message.
    std::string error;
    QCOMPARE(world.addPlane({0.f, 0.f, 0.f}, 0.f, &error), -1);
    QVERIFY(!error.empty());
    QCOMPARE(world.addSphere({0.f, 0.f, 0.f}, -1.f), -1);
    QCOMPARE(world.addBox(Transform{}, {0.f, 1.f, 1.f}), -1);
    const Vec3 tri[3] = {{0.f, 0.f, 0.f}, {1.f, 0.f, 0.f}, {0.f, 0.f, 1.f}};
    const std::uint32_t badIndex[3] = {0, 1, 5};
    QCOMPARE(world.addTriangleMesh(tri, badIndex), -1);
}

void TestRobustness::degenerate_randomAbuseStaysFinite()
{
    BUILD_RIG(humanoid, makeHumanoid());
    rig::RigDescription pair = pointsRig({{0.f, 1.f, 0.f}, {0.f, 1.f, 0.f}});
    rig::Stick s;
    s.a = 0;
    s.b = 1;
    s.restLength = 0.2f;
    s.capsuleRadius = 0.05f;
    pair.sticks.push_back(s);
    BUILD_RIG(pairRig, pair);
    rig::RigDescription zero = pointsRig({{0.f, 1.f, 0.f}, {0.2f, 1.f, 0.f}, {0.1f, 1.2f, 0.f}});
    for (int k = 0; k < 3; ++k) {
        rig::Stick z;
        z.a = k;
        z.b = (k + 1) % 3;
        z.restLength = 0.f;
        zero.sticks.push_back(z);
    }
    BUILD_RIG(zeroRig, zero);
    BUILD_RIG(crate, makeCrate({0.2f, 0.2f, 0.2f}, 5.f));

    World world;
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    const Vec3 tri[4] = {{-3.f, 0.5f, -3.f}, {3.f, 0.5f, -3.f}, {3.f, 0.5f, 3.f}, {-3.f, 0.5f, 3.f}};
    const std::uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    QVERIFY(world.addTriangleMesh(tri, idx) >= 0);
    std::vector<RagdollHandle> handles;
    for (int i = 0; i < 3; ++i) {
        SPAWN_RAGDOLL(h, world, humanoid, (Transform{Quat{}, {float(i) * 0.4f, 1.f, 0.f}}));
        handles.push_back(h);
    }
    for (const auto& extra : {pairRig, zeroRig, crate}) {
        const RagdollHandle h = world.spawn(extra, Transform{Quat{}, {0.f, 2.f, 0.2f}});
        QVERIFY(h != kInvalidRagdoll);
        handles.push_back(h);
    }

    std::mt19937 rng(12345u);
    auto uniform = [&] { return float(rng() >> 8) * (1.f / 16777216.f); };
    int refusedNaN = 0, hugeAccepted = 0;
    for (int step = 0; step < 10000; ++step) {
        Ragdoll& r = *world.ragdoll(handles[rng() % handles.size()]);
        const std::uint32_t p = std::uint32_t(rng() % r.particleCount());
        const Vec3 dir = normalizeOr({uniform() - 0.5f, uniform() - 0.5f, uniform() - 0.5f}, {0.f, 1.f, 0.f});
        switch (rng() % 8) {
        case 0: { // any magnitude from 1e-3 to 1e30
            const float mag = std::pow(10.f, -3.f + 33.f * uniform());
            if (r.applyImpulse(p, dir * mag) && mag > 1e20f)
                ++hugeAccepted;
            break;
        }
        case 1:
            if (!r.applyImpulse(p, {std::numeric_limits<float>::quiet_NaN(), 1.f, 0.f}))
                ++refusedNaN;
            else
                QFAIL(qPrintable(QStringLiteral("step %1: NaN impulse accepted").arg(step)));
            break;
        case 2:
            QVERIFY2(!r.setPin(p, {std::numeric_limits<float>::infinity(), 0.f, 0.f}),
                     qPrintable(QStringLiteral("step %1: Inf pin target accepted").arg(step)));
            break;
        case 3: // explosion exactly at a particle
            r.applyExplosion(r.positions()[p], std::pow(10.f, 6.f * uniform()), 3.f, 0.25f);
            break;
        case 4:
            r.applyImpulseOnStick(std::uint32_t(rng() % std::max<std::size_t>(1, r.rig().description().sticks.size())),
                                  uniform(), dir * std::pow(10.f, 4.f * uniform()));
            break;
        case 5:
            if (uniform() < 0.05f)
                r.setPin(p, r.positions()[p] + dir, uniform() * 0.9f + 0.1f, uniform() < 0.5f);
            else
                r.releasePin(p);
            break;
        default:
            break;
        }
        world.step();
        for (RagdollHandle h : handles) {
            const Ragdoll& q = *world.ragdoll(h);
            if (!allFinite(q))
                QFAIL(qPrintable(QStringLiteral("step %1: ragdoll %2 has a non-finite position").arg(step).arg(h)));
        }
        if (step % 1000 == 999) // occasionally bring everyone back so they keep colliding
            for (std::size_t k = 0; k < handles.size(); ++k)
                world.ragdoll(handles[k])->resetToBindPose(Transform{Quat{}, {0.3f * float(k), 1.f, 0.f}});
    }
    QVERIFY2(refusedNaN > 100, qPrintable(QStringLiteral("only %1 NaN impulses tried").arg(refusedNaN)));
    QVERIFY2(hugeAccepted > 10, qPrintable(QStringLiteral("only %1 huge impulses accepted").arg(hugeAccepted)));
    for (RagdollHandle h : handles) {
        const Ragdoll& q = *world.ragdoll(h);
        std::vector<Mat4> bones(q.rig().bones().size());
        QVERIFY(q.boneMatrices(bones));
        for (const Mat4& m : bones)
            QVERIFY2(finiteMatrix(m), "non-finite bone matrix after random abuse");
    }
}

// ---------------------------------------------------------------------------------------------- validation

namespace {

struct ValidationCase {
    const char* name;
    void (*mutate)(rig::RigDescription&);
    const char* expect1;
    const char* expect2;
    rig::ElementKind kind; ///< the first finding's element kind, index and field
    int index;
    const char* field;
};

const ValidationCase kValidationCases[] = {
    {"stick index out of range", [](rig::RigDescription& d) { d.sticks[0].b = 7; }, "sticks[0]", "out of range", rig::ElementKind::Stick, 0, "b"},
    {"stick negative index", [](rig::RigDescription& d) { d.sticks[0].a = -2; }, "sticks[0]", "out of range", rig::ElementKind::Stick, 0, "a"},
    {"stick same particle twice", [](rig::RigDescription& d) { d.sticks[0].b = 0; }, "sticks[0]", "same particle", rig::ElementKind::Stick, 0, "b"},
    {"stick stiffness 0", [](rig::RigDescription& d) { d.sticks[0].stiffness = 0.f; }, "sticks[0]", "stiffness", rig::ElementKind::Stick, 0, "stiffness"},
    {"stick range max below min",
     [](rig::RigDescription& d) {
         d.sticks[0].kind = rig::StickKind::Range;
         d.sticks[0].minLength = 1.f;
         d.sticks[0].maxLength = 0.5f;
     },
     "sticks[0]", "maxLength", rig::ElementKind::Stick, 0, "maxLength"},
    {"stick tear ratio 0.5", [](rig::RigDescription& d) { d.sticks[0].tearRatio = 0.5f; }, "sticks[0]", "tearRatio", rig::ElementKind::Stick, 0, "tearRatio"},
    {"negative radius", [](rig::RigDescription& d) { d.particles[0].radius = -0.1f; }, "particles[0]", "radius", rig::ElementKind::Particle, 0, "radius"},
    {"mass NaN", [](rig::RigDescription& d) { d.particles[0].mass = std::numeric_limits<float>::quiet_NaN(); }, "particles[0]", "mass", rig::ElementKind::Particle, 0, "mass"},
    {"negative mass", [](rig::RigDescription& d) { d.particles[2].mass = -1.f; }, "particles[2]", "mass", rig::ElementKind::Particle, 2, "mass"},
    {"position Inf", [](rig::RigDescription& d) { d.particles[1].position.x = std::numeric_limits<float>::infinity(); }, "particles[1]", "position", rig::ElementKind::Particle, 1, "position"},
    {"no particles", [](rig::RigDescription& d) { d = rig::RigDescription{}; }, "particles", "no particles", rig::ElementKind::Rig, -1, "particles"},
    {"angle same particle", [](rig::RigDescription& d) { d.angles[0].b = 0; }, "angles[0]", "same particle", rig::ElementKind::Angle, 0, ""},
    {"angle max below min",
     [](rig::RigDescription& d) {
         d.angles[0].minAngle = 1.f;
         d.angles[0].maxAngle = 0.5f;
     },
     "angles[0]", "maxAngle", rig::ElementKind::Angle, 0, "maxAngle"},
    {"triangle index out of range", [](rig::RigDescription& d) { d.triangles[1].p[2] = 9; }, "triangles[1]", "out of range", rig::ElementKind::Triangle, 1, "p[2]"},
    {"collinear triangle", [](rig::RigDescription& d) { d.particles[2].position = {0.f, 2.f, 0.f}; }, "triangles[0]", "degenerate", rig::ElementKind::Triangle, 0, ""},
    {"angular same triangle twice", [](rig::RigDescription& d) { d.angular[0].triangleB = 0; }, "angular[0]", "same", rig::ElementKind::Angular, 0, "triangleB"},
    {"angular triangle out of range", [](rig::RigDescription& d) { d.angular[0].triangleB = 5; }, "angular[0]", "out of range", rig::ElementKind::Angular, 0, "triangleB"},
    {"angular damping negative", [](rig::RigDescription& d) { d.angular[0].damping = -1.f; }, "angular[0]", "damping", rig::ElementKind::Angular, 0, "damping"},
    {"angular static friction NaN", [](rig::RigDescription& d) { d.angular[0].staticFrictionSpeed = std::numeric_limits<float>::quiet_NaN(); }, "angular[0]", "staticFrictionSpeed", rig::ElementKind::Angular, 0, "staticFrictionSpeed"},
    {"angular twist max below min",
     [](rig::RigDescription& d) {
         d.angular[0].twistMin = 0.5f;
         d.angular[0].twistMax = -0.5f;
     },
     "angular[0]", "twistMax", rig::ElementKind::Angular, 0, "twistMax"},
    {"angular cone NaN", [](rig::RigDescription& d) { d.angular[0].coneAngle = std::numeric_limits<float>::quiet_NaN(); }, "angular[0]", "coneAngle", rig::ElementKind::Angular, 0, "coneAngle"},
    {"pin target Inf", [](rig::RigDescription& d) {
         rig::Pin p;
         p.particle = 1;
         p.target = {0.f, std::numeric_limits<float>::infinity(), 0.f};
         d.pins.push_back(p);
     }, "pins[0]", "target", rig::ElementKind::Pin, 0, "target"},
    {"pin particle out of range", [](rig::RigDescription& d) {
         rig::Pin p;
         p.particle = 4;
         d.pins.push_back(p);
     }, "pins[0]", "out of range", rig::ElementKind::Pin, 0, "particle"},
    {"shape flat tetrahedron", [](rig::RigDescription& d) { d.shapes[0].tetra[3] = d.shapes[0].tetra[2]; }, "shapes[0]", "flat", rig::ElementKind::Shape, 0, "tetra"},
    {"shape zero half extent", [](rig::RigDescription& d) { d.shapes[0].halfExtents.y = 0.f; }, "shapes[0]", "halfExtents", rig::ElementKind::Shape, 0, "halfExtents"},
    {"shape rotation NaN", [](rig::RigDescription& d) { d.shapes[0].local.rotation.y = std::numeric_limits<float>::quiet_NaN(); },
     "shapes[0]", "local.rotation is not a unit quaternion", rig::ElementKind::Shape, 0, "local.rotation"},
    {"binding offset not a rotation", [](rig::RigDescription& d) {
         d.bindings[0].hasOffset = true;
         d.bindings[0].offset.rotation = {0.f, 0.f, 0.f, 2.f};
     }, "bindings[0]", "offset.rotation is not a unit quaternion", rig::ElementKind::Binding, 0, "offset.rotation"},
    {"binding offset translation Inf", [](rig::RigDescription& d) {
         d.bindings[0].hasOffset = true;
         d.bindings[0].offset.translation.z = std::numeric_limits<float>::infinity();
     }, "bindings[0]", "offset.translation", rig::ElementKind::Binding, 0, "offset.translation"},
    {"bone parent after itself", [](rig::RigDescription& d) { d.bones[0].parent = 1; }, "bones[0]", "parent", rig::ElementKind::Bone, 0, "parent"},
    {"bone parent itself", [](rig::RigDescription& d) { d.bones[1].parent = 1; }, "bones[1]", "parent", rig::ElementKind::Bone, 1, "parent"},
    {"bone matrix NaN", [](rig::RigDescription& d) { d.bones[1].bindWorld.m[5] = std::numeric_limits<float>::quiet_NaN(); }, "bones[1]", "finite", rig::ElementKind::Bone, 1, "bindWorld"},
    {"binding bone out of range", [](rig::RigDescription& d) { d.bindings[0].bone = 2; }, "bindings[0]", "out of range", rig::ElementKind::Binding, 0, "bone"},
    {"binding triangle out of range", [](rig::RigDescription& d) { d.bindings[0].index = 2; }, "bindings[0]", "triangle", rig::ElementKind::Binding, 0, "index"},
    {"bone bound twice", [](rig::RigDescription& d) { d.bindings.push_back(d.bindings[0]); }, "bindings[1]", "twice", rig::ElementKind::Binding, 1, "bone"},
    {"iterations 0", [](rig::RigDescription& d) { d.settings.iterations = 0; }, "settings", "iterations", rig::ElementKind::Settings, -1, "iterations"},
    {"time step 0", [](rig::RigDescription& d) { d.settings.timeStep = 0.f; }, "settings", "timeStep", rig::ElementKind::Settings, -1, "timeStep"},
    {"iterations 65", [](rig::RigDescription& d) { d.settings.iterations = 65; }, "settings", "iterations", rig::ElementKind::Settings, -1, "iterations"},
    {"substeps 0", [](rig::RigDescription& d) { d.settings.substeps = 0; }, "settings", "substeps", rig::ElementKind::Settings, -1, "substeps"},
    {"substeps 65", [](rig::RigDescription& d) { d.settings.substeps = 65; }, "settings", "substeps", rig::ElementKind::Settings, -1, "substeps"},
    {"damping negative", [](rig::RigDescription& d) { d.settings.damping = -0.5f; }, "settings", "damping", rig::ElementKind::Settings, -1, "damping"},
    {"damping NaN", [](rig::RigDescription& d) { d.settings.damping = std::numeric_limits<float>::quiet_NaN(); }, "settings", "damping", rig::ElementKind::Settings, -1, "damping"},
    {"static friction speed 101", [](rig::RigDescription& d) { d.settings.staticFrictionSpeed = 101.f; }, "settings", "staticFrictionSpeed", rig::ElementKind::Settings, -1, "staticFrictionSpeed"},
    {"gravity NaN", [](rig::RigDescription& d) { d.settings.gravity.y = std::numeric_limits<float>::quiet_NaN(); }, "settings", "gravity", rig::ElementKind::Settings, -1, "gravity"},
    {"friction negative", [](rig::RigDescription& d) { d.settings.friction = -1.f; }, "settings", "friction", rig::ElementKind::Settings, -1, "friction"},
};

} // namespace

void TestRobustness::validation_messagesNameTheElement_data()
{
    QTest::addColumn<int>("index");
    for (int i = 0; i < int(std::size(kValidationCases)); ++i)
        QTest::newRow(kValidationCases[i].name) << i;
}

void TestRobustness::validation_messagesNameTheElement()
{
    QFETCH(int, index);
    const ValidationCase& c = kValidationCases[index];
    rig::RigDescription d = validSmallRig();
    {
        std::string error;
        QVERIFY2(Rig::build(d, &error), qPrintable(QStringLiteral("the base rig is refused: ") + QString::fromStdString(error)));
    }
    c.mutate(d);
    std::string error;
    const auto rig = Rig::build(d, &error);
    QVERIFY2(!rig, qPrintable(QStringLiteral("'%1' was accepted").arg(QString::fromLatin1(c.name))));
    const QString message = QString::fromStdString(error);
    QVERIFY2(error.find(c.expect1) != std::string::npos,
             qPrintable(QStringLiteral("message '%1' lacks '%2'").arg(message, QString::fromLatin1(c.expect1))));
    QVERIFY2(error.find(c.expect2) != std::string::npos,
             qPrintable(QStringLiteral("message '%1' lacks '%2'").arg(message, QString::fromLatin1(c.expect2))));
    QVERIFY2(error.find('\n') == std::string::npos, qPrintable(QStringLiteral("message is not one line: '%1'").arg(message)));
    QVERIFY2(d.validate() == error, "validate() and Rig::build() disagree");
    // The same problem as a typed finding: the element's kind and index, the field, the message.
    const std::vector<rig::Finding> findings = d.findings();
    QVERIFY(!findings.empty());
    QCOMPARE(int(findings.front().kind), int(c.kind));
    QCOMPARE(findings.front().index, c.index);
    QCOMPARE(QString::fromStdString(findings.front().field), QString::fromLatin1(c.field));
    QCOMPARE(findings.front().severity, rig::Severity::Error);
    QCOMPARE(QString::fromStdString(findings.front().message), message);
}

// findings() goes on past the first problem: every broken field of every element, in check order, each
// naming its element and field; validate() and Rig::build() report the first, validating once each.
void TestRobustness::validation_findingsReportEveryProblem()
{
    rig::RigDescription d = validSmallRig();
    QVERIFY(d.findings().empty());
    d.particles[1].mass = -1.f;
    d.sticks[0].stiffness = 0.f;
    d.sticks[0].compliance = -1.f;
    d.triangles[1].p[2] = 9;
    d.bindings[0].index = 5;
    d.settings.iterations = 0;
    struct Expected {
        rig::ElementKind kind;
        int index;
        const char* field;
        const char* message;
    };
    const Expected expected[] = {
        {rig::ElementKind::Particle, 1, "mass", "particles[1]: mass -1 outside [0, 1e+06]"},
        {rig::ElementKind::Stick, 0, "stiffness", "sticks[0] 's0': stiffness 0 outside (0, 1]"},
        {rig::ElementKind::Stick, 0, "compliance", "sticks[0] 's0': compliance -1 outside [0, 1e+06]"},
        {rig::ElementKind::Triangle, 1, "p[2]", "triangles[1]: p2 index 9 out of range (4 particles)"},
        {rig::ElementKind::Binding, 0, "index", "bindings[0]: triangle index 5 out of range (2 triangles)"},
        {rig::ElementKind::Settings, -1, "iterations", "settings: iterations 0 outside [1, 64]"},
    };
    const std::uint64_t before = rig::validationCount();
    const std::vector<rig::Finding> findings = d.findings();
    QCOMPARE(rig::validationCount() - before, std::uint64_t(1));
    QCOMPARE(findings.size(), std::size(expected));
    for (std::size_t i = 0; i < findings.size(); ++i) {
        QCOMPARE(int(findings[i].kind), int(expected[i].kind));
        QCOMPARE(findings[i].index, expected[i].index);
        QCOMPARE(QString::fromStdString(findings[i].field), QString::fromLatin1(expected[i].field));
        QCOMPARE(findings[i].severity, rig::Severity::Error);
        QCOMPARE(QString::fromStdString(findings[i].message), QString::fromLatin1(expected[i].message));
    }
    QCOMPARE(d.validate(), findings.front().message);
    std::string error;
    const std::uint64_t beforeBuild = rig::validationCount();
    QVERIFY(!Rig::build(d, &error));
    QCOMPARE(rig::validationCount() - beforeBuild, std::uint64_t(1));
    QCOMPARE(error, findings.front().message);
    std::vector<rig::Finding> all;
    QVERIFY(!rig::validated(d, all));
    QCOMPARE(all.size(), findings.size());
}

QTEST_APPLESS_MAIN(TestRobustness)
#include "tst_robustness.moc"
