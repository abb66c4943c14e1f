// Helpers shared by the project document suites: a project that sets every field of every element type to
// a value other than its default, a field-by-field comparison that names the first difference, and an
// editor for JSON documents addressed by path. Header-only; each suite is a single translation unit.
#pragma once

#include "marionette/project/Project.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

// The comparison below lists every field by hand. A field added to a rig struct almost always changes its
// size, and then this trips: add the field to the project writer and reader (formats/project/src/RigJson.cpp),
// to fullProject() and to Diff, then update the size. Checked where the layout is known (libstdc++, x86-64);
// a field that fits in padding slips through, so read the rig header's history too.
#if defined(__GLIBCXX__) && defined(__x86_64__)
static_assert(sizeof(marionette::rig::Particle) == 72,
              "rig::Particle changed: update the .mproj reader and writer, fullProject() and Diff");
static_assert(sizeof(marionette::rig::Stick) == 88,
              "rig::Stick changed: update the .mproj reader and writer, fullProject() and Diff");
static_assert(sizeof(marionette::rig::AngleConstraint) == 72,
              "rig::AngleConstraint changed: update the .mproj reader and writer, fullProject() and Diff");
static_assert(sizeof(marionette::rig::Triangle) == 48,
              "rig::Triangle changed: update the .mproj reader and writer, fullProject() and Diff");
static_assert(sizeof(marionette::rig::AngularConstraint) == 128,
              "rig::AngularConstraint changed: update the .mproj reader and writer, fullProject() and Diff");
static_assert(sizeof(marionette::rig::Pin) == 64,
              "rig::Pin changed: update the .mproj reader and writer, fullProject() and Diff");
static_assert(sizeof(marionette::rig::Shape) == 112,
              "rig::Shape changed: update the .mproj reader and writer, fullProject() and Diff");
static_assert(sizeof(marionette::rig::Bone) == 232,
              "rig::Bone changed: update the .mproj reader and writer, fullProject() and Diff");
static_assert(sizeof(marionette::rig::BoneBinding) == 80,
              "rig::BoneBinding changed: update the .mproj reader and writer, fullProject() and Diff");
static_assert(sizeof(marionette::rig::Settings) == 56,
              "rig::Settings changed: update the .mproj reader and writer, fullProject() and Diff");
static_assert(sizeof(marionette::rig::DriveGains) == 28,
              "rig::DriveGains changed: update the .mproj reader and writer and Diff");
static_assert(sizeof(marionette::rig::DrivePart) == 36,
              "rig::DrivePart changed: update the .mproj reader and writer and Diff");
static_assert(sizeof(marionette::rig::DriveProfile) == 88,
              "rig::DriveProfile changed: update the .mproj reader and writer and Diff");
#endif

namespace marionette::test {

using namespace marionette::project;

// ------------------------------------------------------------------------------------------ floats

inline std::uint32_t bitsOf(float f)
{
    std::uint32_t u = 0;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

inline float floatFromBits(std::uint32_t u)
{
    float f = 0.f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

/// Same bits, except that −0 and +0 count as equal: Qt writes −0.0 as 0, the one value JSON does not keep.
inline bool sameFloat(float a, float b)
{
    return bitsOf(a) == bitsOf(b) || (a == 0.f && b == 0.f);
}

// ------------------------------------------------------------------------------------------ enums

/// A rig enum's name for QCOMPARE. (Comparing the enums themselves would print a failure through ADL's
/// rig::toString(), whose static string QtTest then frees.)
inline QString nameOf(rig::SolverMode m)
{
    return QString::fromLatin1(rig::toString(m));
}
inline QString nameOf(rig::StickKind k)
{
    return QString::fromLatin1(rig::toString(k));
}

// ------------------------------------------------------------------------------------------ full project

inline Mat4 matrix(float base)
{
    Mat4 m;
    for (int i = 0; i < 16; ++i)
        m.m[i] = base + float(i) * 0.0625f - 1.f / float(i + 3);
    return m;
}

/// A project no successful load produces: a refused load must leave it as it is (tst_projectread, fuzz_mproj).
inline Project sentinel()
{
    Project p;
    p.name = QStringLiteral("sentinel");
    p.rig.name = "untouched";
    return p;
}

inline bool isSentinel(const Project& p)
{
    return p.name == QLatin1String("sentinel") && p.rig.name == "untouched" && p.rig.particles.empty() &&
           p.rig.sticks.empty() && p.scenarios.empty() && p.editor.elements.empty();
}

/// Every field of every element type off its default, ids that are not indices, and a rig that passes
/// validate(). The editor state and two scenarios cover the rest of the document.
inline Project fullProject()
{
    using namespace marionette::rig;
    using marionette::project::ElementKind; // not rig::ElementKind (the kinds validation findings name)
    Project p;
    p.name = QStringLiteral("Robot");
    p.sourceMesh.path = QStringLiteral("meshes/robot.fbx");
    p.sourceMesh.sha256 = QStringLiteral("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
    p.import.scaleToMetres = 0.01;
    p.import.sourceUpAxis = UpAxis::Z;
    p.import.unitConversionApplied = true;
    p.import.axisConversionApplied = true;
    p.import.flipWindingOrder = true;
    p.import.flipUVs = true;
    p.import.conversionNote = QStringLiteral("FBX UnitScaleFactor 1 (cm); Z-up → Y-up, −90° about X");

    RigDescription& r = p.rig;
    r.name = "robot rig";
    auto particle = [](const char* name, ElementId id, Vec3 pos, float mass, float radius, std::uint32_t group,
                       std::uint32_t mask, std::int32_t bone) {
        Particle q;
        q.name = name;
        q.id = id;
        q.position = pos;
        q.mass = mass;
        q.radius = radius;
        q.group = group;
        q.mask = mask;
        q.bone = bone;
        return q;
    };
    r.particles = {
        particle("hip", 10, {0.f, 1.f, 0.f}, 12.5f, 0.12f, 3u, 0xfffffff0u, 0),
        particle("chest", 20, {0.f, 1.4f, 0.05f}, 1.f / 3.f, 0.1f, 1u, ~0u, kNone),
        particle("épaule", 30, {0.2f, 1.45f, -0.01f}, 0.f, 0.f, 0u, 0u, 2),
        particle("head", 40, {0.0001f, 1.7f, 1e-7f}, 4.2f, 0.09f, 0x80000000u, 1u, 1),
        particle("knee", 50, {0.1f, 0.5f, 0.05f}, 3.f, 0.06f, 2u, 0x7fffffffu, kNone),
    };
    auto stick = [](const char* name, ElementId id, std::int32_t a, std::int32_t b, StickKind kind) {
        Stick s;
        s.name = name;
        s.id = id;
        s.a = a;
        s.b = b;
        s.kind = kind;
        return s;
    };
    r.sticks = {stick("spine", 7, 0, 1, StickKind::Rigid), stick("neck", 3, 1, 3, StickKind::Range),
                stick("arm", 9, 1, 2, StickKind::MinOnly), stick("thigh", 1, 0, 4, StickKind::MaxOnly)};
    r.sticks[0].stiffness = 0.9f;
    r.sticks[0].compliance = 1e-6f;
    r.sticks[0].capsuleRadius = 0.08f;
    r.sticks[0].group = 2u;
    r.sticks[0].mask = 5u;
    r.sticks[1].minLength = 0.2f;
    r.sticks[1].maxLength = 0.35f;
    r.sticks[1].tearRatio = 2.5f;
    r.sticks[1].capsuleRadius = 0.05f;
    r.sticks[1].restLength = 0.3f;
    r.sticks[2].minLength = 0.1f;
    r.sticks[2].maxLength = 7.f; // unused by min-only, kept anyway
    r.sticks[3].maxLength = 0.6f;
    r.sticks[3].restLength = 0.55f;
    r.sticks[3].stiffness = 0.25f;

    AngleConstraint a0;
    a0.name = "elbow";
    a0.id = 100;
    a0.center = 1;
    a0.a = 0;
    a0.b = 3;
    a0.minAngle = 0.1f;
    a0.maxAngle = 3.f;
    a0.stiffness = 0.7f;
    a0.damping = 12.5f;
    AngleConstraint a1 = a0;
    a1.name = "hip angle";
    a1.id = 101;
    a1.center = 0;
    a1.a = 1;
    a1.b = 4;
    a1.minAngle = 0.5f;
    a1.maxAngle = 2.5f;
    a1.form = AngleConstraint::Form::LawOfCosines;
    a1.damping = 0.375f;
    r.angles = {a0, a1};

    Triangle t0;
    t0.name = "pelvis";
    t0.id = 5;
    t0.p[0] = 0;
    t0.p[1] = 1;
    t0.p[2] = 2;
    Triangle t1;
    t1.name = "chest";
    t1.id = 6;
    t1.p[0] = 1;
    t1.p[1] = 3;
    t1.p[2] = 2;
    r.triangles = {t0, t1};

    AngularConstraint c0;
    c0.name = "spine cone";
    c0.id = 42;
    c0.triangleA = 0;
    c0.triangleB = 1;
    c0.coneAngle = 0.7f;
    c0.stiffness = 0.8f;
    c0.damping = 17.25f;
    c0.staticFrictionSpeed = 0.625f;
    c0.hasRestOrientation = true;
    c0.restOrientation = normalize(Quat{0.1f, 0.2f, 0.3f, 0.9f});
    AngularConstraint c1;
    c1.name = "neck swing-twist";
    c1.id = 43;
    c1.triangleA = 1;
    c1.triangleB = 0;
    c1.limit = AngularLimit::SwingTwist;
    c1.twistAxis = {0.f, 0.f, 1.f};
    c1.swingAxis1 = {0.f, 1.f, 0.f};
    c1.twistMin = -0.3f;
    c1.twistMax = 0.6f;
    c1.swing1 = 0.4f;
    c1.swing2 = 0.2f;
    c1.damping = 1000.f; // the top of its range
    c1.staticFrictionSpeed = 1e-3f;
    c1.restOrientation = {0.f, 0.f, 0.f, -1.f}; // unused without hasRestOrientation, kept anyway
    r.angular = {c0, c1};

    Pin pin;
    pin.name = "hand target";
    pin.id = 77;
    pin.particle = 2;
    pin.target = {0.2f, 1.6f, 0.1f};
    pin.stiffness = 0.5f;
    pin.kinematic = false;
    r.pins = {pin};

    Shape s0;
    s0.name = "pelvis box";
    s0.id = 8;
    s0.triangle = 0;
    s0.local = {normalize(Quat{0.f, 0.38f, 0.f, 0.92f}), {0.01f, -0.02f, 0.03f}};
    s0.halfExtents = {0.15f, 0.1f, 0.08f};
    s0.group = 4u;
    s0.mask = 0xffu;
    Shape s1;
    s1.name = "torso block";
    s1.id = 2;
    s1.tetra[0] = 0;
    s1.tetra[1] = 1;
    s1.tetra[2] = 2;
    s1.tetra[3] = 4;
    s1.halfExtents = {0.2f, 0.3f, 0.1f};
    r.shapes = {s0, s1};

    Bone b0;
    b0.name = "pelvis";
    b0.id = 900;
    b0.bindLocal = matrix(1.f);
    b0.bindWorld = matrix(2.f);
    b0.inverseBind = matrix(-3.f);
    Bone b1 = b0;
    b1.name = "head";
    b1.id = 901;
    b1.parent = 0;
    b1.bindLocal = matrix(0.5f);
    Bone b2 = b0;
    b2.name = "hand";
    b2.id = 899;
    b2.parent = 1;
    b2.inverseBind = matrix(1e-3f);
    r.bones = {b0, b1, b2};

    BoneBinding d0;
    d0.name = "pelvis from triangle";
    d0.id = 31;
    d0.bone = 0;
    d0.driver = BoneBinding::Driver::Triangle;
    d0.index = 0;
    d0.hasOffset = true;
    d0.offset = {normalize(Quat{0.f, 0.f, 0.6f, 0.8f}), {0.f, 0.05f, -0.01f}};
    BoneBinding d1;
    d1.name = "head from stick";
    d1.id = 32;
    d1.bone = 1;
    d1.driver = BoneBinding::Driver::Stick;
    d1.index = 1;
    d1.offset = {Quat{0.f, 1.f, 0.f, 0.f}, {1.f, 2.f, 3.f}}; // unused without hasOffset, kept anyway
    r.bindings = {d0, d1};

    Settings& st = r.settings;
    st.gravity = {0.5f, -9.80665f, 0.25f};
    st.timeStep = 1.f / 120.f;
    st.maxSubsteps = 7;
    st.substeps = 3;
    st.iterations = 12;
    st.damping = 2.75f;
    st.friction = 0.8f;
    st.staticFrictionSpeed = 0.0625f;
    st.sleepVelocity = 0.07f;
    st.sleepTime = 2.5f;
    st.overRelaxation = 1.3f;
    st.sqrtApproximation = true;
    st.selfCollision = false;
    st.solver = SolverMode::Xpbd;

    EditorState& e = p.editor;
    e.camera.target = {0.f, 1.f, 0.5f};
    e.camera.yawDegrees = -35.5f;
    e.camera.pitchDegrees = 12.25f;
    e.camera.distance = 4.5f;
    e.camera.projection = Projection::Orthographic;
    e.camera.fieldOfViewDegrees = 30.f;
    e.meshOpacity = 0.35f;
    e.xray = true;
    e.elements = {{{ElementKind::Particle, 20}, false, true, Rgba{255, 128, 0, 255}},
                  {{ElementKind::Stick, 3}, true, false, Rgba{1, 2, 3, 4}},
                  {{ElementKind::Bone, 901}, false, false, std::nullopt}};
    e.selection = {{ElementKind::Triangle, 6}, {ElementKind::Particle, 10}, {ElementKind::Binding, 32}};

    Scenario s;
    s.name = QStringLiteral("drop on stairs");
    s.scene = Scene::Stairs;
    s.dropHeight = 2.5f;
    s.initialRotation.rotation = normalize(Quat{0.3f, 0.f, 0.1f, 0.95f});
    s.initialRotation.seed = 12345u; // unused when not random, kept anyway
    s.duration = 6.f;
    s.hits = {{30u, {ElementKind::Particle, 40}, 0.5f, {0.f, 0.f, -25.5f}},
              {45u, {ElementKind::Stick, 9}, 0.25f, {10.f, 0.1f, -3.f}}};
    s.drags = {{30, 10u, 60u, {0.5f, 2.f, 0.f}, 0.75f}};
    s.expect.settleWithin = 4.5f;
    s.expect.maxPenetration = 0.015f;
    s.expect.maxLimitViolationDegrees = 3.5f;
    Scenario s2;
    s2.name = QStringLiteral("random ledge");
    s2.scene = Scene::Ledge;
    s2.dropHeight = -0.75f;
    s2.initialRotation.random = true;
    s2.initialRotation.seed = 0xC0FFEEu;
    s2.duration = 3.f;
    p.scenarios = {s, s2};
    return p;
}

// ------------------------------------------------------------------------------------------ comparison

/// Compares two projects field by field; first() names the first difference, empty when there is none.
class Diff {
  public:
    QString first() const { return mFirst; }

    void f(const QString& at, float a, float b)
    {
        if (!sameFloat(a, b))
            note(at, QStringLiteral("%1 (0x%2) != %3 (0x%4)")
                         .arg(double(a), 0, 'g', 9)
                         .arg(bitsOf(a), 8, 16, QLatin1Char('0'))
                         .arg(double(b), 0, 'g', 9)
                         .arg(bitsOf(b), 8, 16, QLatin1Char('0')));
    }
    void f(const QString& at, double a, double b)
    {
        if (!(a == b))
            note(at, QStringLiteral("%1 != %2").arg(a, 0, 'g', 17).arg(b, 0, 'g', 17));
    }
    template <class T> void v(const QString& at, const T& a, const T& b)
    {
        if (!(a == b))
            note(at, QStringLiteral("values differ"));
    }
    void f(const QString& at, Vec3 a, Vec3 b)
    {
        f(at + QStringLiteral(".x"), a.x, b.x);
        f(at + QStringLiteral(".y"), a.y, b.y);
        f(at + QStringLiteral(".z"), a.z, b.z);
    }
    void f(const QString& at, Quat a, Quat b)
    {
        f(at + QStringLiteral(".x"), a.x, b.x);
        f(at + QStringLiteral(".y"), a.y, b.y);
        f(at + QStringLiteral(".z"), a.z, b.z);
        f(at + QStringLiteral(".w"), a.w, b.w);
    }
    void f(const QString& at, const Mat4& a, const Mat4& b)
    {
        for (int i = 0; i < 16; ++i)
            f(at + QStringLiteral("[%1]").arg(i), a.m[i], b.m[i]);
    }
    void f(const QString& at, const Transform& a, const Transform& b)
    {
        f(at + QStringLiteral(".rotation"), a.rotation, b.rotation);
        f(at + QStringLiteral(".translation"), a.translation, b.translation);
    }
    void count(const QString& at, std::size_t a, std::size_t b)
    {
        if (a != b)
            note(at, QStringLiteral("%1 elements != %2").arg(a).arg(b));
    }

    void project(const Project& a, const Project& b)
    {
        v(QStringLiteral("name"), a.name, b.name);
        v(QStringLiteral("sourceMesh.path"), a.sourceMesh.path, b.sourceMesh.path);
        v(QStringLiteral("sourceMesh.sha256"), a.sourceMesh.sha256, b.sourceMesh.sha256);
        f(QStringLiteral("import.scaleToMetres"), a.import.scaleToMetres, b.import.scaleToMetres);
        v(QStringLiteral("import.sourceUpAxis"), a.import.sourceUpAxis, b.import.sourceUpAxis);
        v(QStringLiteral("import.unitConversionApplied"), a.import.unitConversionApplied,
          b.import.unitConversionApplied);
        v(QStringLiteral("import.axisConversionApplied"), a.import.axisConversionApplied,
          b.import.axisConversionApplied);
        v(QStringLiteral("import.flipWindingOrder"), a.import.flipWindingOrder, b.import.flipWindingOrder);
        v(QStringLiteral("import.flipUVs"), a.import.flipUVs, b.import.flipUVs);
        v(QStringLiteral("import.conversionNote"), a.import.conversionNote, b.import.conversionNote);
        rig(a.rig, b.rig);
        editor(a.editor, b.editor);
        count(QStringLiteral("scenarios"), a.scenarios.size(), b.scenarios.size());
        for (std::size_t i = 0; i < a.scenarios.size() && i < b.scenarios.size(); ++i)
            scenario(QStringLiteral("scenarios[%1]").arg(i), a.scenarios[i], b.scenarios[i]);
    }

    void rig(const rig::RigDescription& a, const rig::RigDescription& b)
    {
        v(QStringLiteral("rig.name"), a.name, b.name);
        list(QStringLiteral("rig.particles"), a.particles, b.particles,
             [&](const QString& at, const auto& x, const auto& y) {
                 f(at + QStringLiteral(".position"), x.position, y.position);
                 f(at + QStringLiteral(".mass"), x.mass, y.mass);
                 f(at + QStringLiteral(".radius"), x.radius, y.radius);
                 v(at + QStringLiteral(".group"), x.group, y.group);
                 v(at + QStringLiteral(".mask"), x.mask, y.mask);
                 v(at + QStringLiteral(".bone"), x.bone, y.bone);
             });
        list(QStringLiteral("rig.sticks"), a.sticks, b.sticks, [&](const QString& at, const auto& x, const auto& y) {
            v(at + QStringLiteral(".a"), x.a, y.a);
            v(at + QStringLiteral(".b"), x.b, y.b);
            v(at + QStringLiteral(".kind"), x.kind, y.kind);
            f(at + QStringLiteral(".restLength"), x.restLength, y.restLength);
            f(at + QStringLiteral(".minLength"), x.minLength, y.minLength);
            f(at + QStringLiteral(".maxLength"), x.maxLength, y.maxLength);
            f(at + QStringLiteral(".stiffness"), x.stiffness, y.stiffness);
            f(at + QStringLiteral(".compliance"), x.compliance, y.compliance);
            f(at + QStringLiteral(".tearRatio"), x.tearRatio, y.tearRatio);
            f(at + QStringLiteral(".capsuleRadius"), x.capsuleRadius, y.capsuleRadius);
            v(at + QStringLiteral(".group"), x.group, y.group);
            v(at + QStringLiteral(".mask"), x.mask, y.mask);
        });
        list(QStringLiteral("rig.angles"), a.angles, b.angles, [&](const QString& at, const auto& x, const auto& y) {
            v(at + QStringLiteral(".center"), x.center, y.center);
            v(at + QStringLiteral(".a"), x.a, y.a);
            v(at + QStringLiteral(".b"), x.b, y.b);
            f(at + QStringLiteral(".minAngle"), x.minAngle, y.minAngle);
            f(at + QStringLiteral(".maxAngle"), x.maxAngle, y.maxAngle);
            f(at + QStringLiteral(".stiffness"), x.stiffness, y.stiffness);
            v(at + QStringLiteral(".form"), x.form, y.form);
            f(at + QStringLiteral(".damping"), x.damping, y.damping);
        });
        list(QStringLiteral("rig.triangles"), a.triangles, b.triangles,
             [&](const QString& at, const auto& x, const auto& y) {
                 for (int k = 0; k < 3; ++k)
                     v(at + QStringLiteral(".p[%1]").arg(k), x.p[k], y.p[k]);
             });
        list(QStringLiteral("rig.angular"), a.angular, b.angular, [&](const QString& at, const auto& x, const auto& y) {
            v(at + QStringLiteral(".triangleA"), x.triangleA, y.triangleA);
            v(at + QStringLiteral(".triangleB"), x.triangleB, y.triangleB);
            v(at + QStringLiteral(".limit"), x.limit, y.limit);
            f(at + QStringLiteral(".coneAngle"), x.coneAngle, y.coneAngle);
            f(at + QStringLiteral(".twistAxis"), x.twistAxis, y.twistAxis);
            f(at + QStringLiteral(".swingAxis1"), x.swingAxis1, y.swingAxis1);
            f(at + QStringLiteral(".twistMin"), x.twistMin, y.twistMin);
            f(at + QStringLiteral(".twistMax"), x.twistMax, y.twistMax);
            f(at + QStringLiteral(".swing1"), x.swing1, y.swing1);
            f(at + QStringLiteral(".swing2"), x.swing2, y.swing2);
            f(at + QStringLiteral(".stiffness"), x.stiffness, y.stiffness);
            f(at + QStringLiteral(".damping"), x.damping, y.damping);
            f(at + QStringLiteral(".staticFrictionSpeed"), x.staticFrictionSpeed, y.staticFrictionSpeed);
            v(at + QStringLiteral(".hasRestOrientation"), x.hasRestOrientation, y.hasRestOrientation);
            f(at + QStringLiteral(".restOrientation"), x.restOrientation, y.restOrientation);
        });
        list(QStringLiteral("rig.pins"), a.pins, b.pins, [&](const QString& at, const auto& x, const auto& y) {
            v(at + QStringLiteral(".particle"), x.particle, y.particle);
            f(at + QStringLiteral(".target"), x.target, y.target);
            f(at + QStringLiteral(".stiffness"), x.stiffness, y.stiffness);
            v(at + QStringLiteral(".kinematic"), x.kinematic, y.kinematic);
        });
        list(QStringLiteral("rig.shapes"), a.shapes, b.shapes, [&](const QString& at, const auto& x, const auto& y) {
            v(at + QStringLiteral(".kind"), x.kind, y.kind);
            v(at + QStringLiteral(".triangle"), x.triangle, y.triangle);
            for (int k = 0; k < 4; ++k)
                v(at + QStringLiteral(".tetra[%1]").arg(k), x.tetra[k], y.tetra[k]);
            f(at + QStringLiteral(".local"), x.local, y.local);
            f(at + QStringLiteral(".halfExtents"), x.halfExtents, y.halfExtents);
            v(at + QStringLiteral(".group"), x.group, y.group);
            v(at + QStringLiteral(".mask"), x.mask, y.mask);
        });
        list(QStringLiteral("rig.bones"), a.bones, b.bones, [&](const QString& at, const auto& x, const auto& y) {
            v(at + QStringLiteral(".parent"), x.parent, y.parent);
            f(at + QStringLiteral(".bindLocal"), x.bindLocal, y.bindLocal);
            f(at + QStringLiteral(".bindWorld"), x.bindWorld, y.bindWorld);
            f(at + QStringLiteral(".inverseBind"), x.inverseBind, y.inverseBind);
        });
        list(QStringLiteral("rig.bindings"), a.bindings, b.bindings,
             [&](const QString& at, const auto& x, const auto& y) {
                 v(at + QStringLiteral(".bone"), x.bone, y.bone);
                 v(at + QStringLiteral(".driver"), x.driver, y.driver);
                 v(at + QStringLiteral(".index"), x.index, y.index);
                 v(at + QStringLiteral(".hasOffset"), x.hasOffset, y.hasOffset);
                 f(at + QStringLiteral(".offset"), x.offset, y.offset);
             });
        const auto gains = [&](const QString& at, const rig::DriveGains& x, const rig::DriveGains& y) {
            for (const rig::DriveGainField& g : rig::kDriveGainFields)
                f(at + QLatin1Char('.') + QLatin1StringView(g.name), x.*g.member, y.*g.member);
            v(at + QStringLiteral(".kinematic"), x.kinematic, y.kinematic);
        };
        list(QStringLiteral("rig.driveProfiles"), a.driveProfiles, b.driveProfiles,
             [&](const QString& at, const auto& x, const auto& y) {
                 gains(at + QStringLiteral(".defaults"), x.defaults, y.defaults);
                 count(at + QStringLiteral(".parts"), x.parts.size(), y.parts.size());
                 for (std::size_t k = 0; k < x.parts.size() && k < y.parts.size(); ++k) {
                     const QString part = at + QStringLiteral(".parts[%1]").arg(k);
                     v(part + QStringLiteral(".kind"), x.parts[k].kind, y.parts[k].kind);
                     v(part + QStringLiteral(".index"), x.parts[k].index, y.parts[k].index);
                     gains(part, x.parts[k].gains, y.parts[k].gains);
                 }
             });
        const rig::Settings &s = a.settings, &t = b.settings;
        f(QStringLiteral("rig.settings.gravity"), s.gravity, t.gravity);
        f(QStringLiteral("rig.settings.timeStep"), s.timeStep, t.timeStep);
        v(QStringLiteral("rig.settings.maxSubsteps"), s.maxSubsteps, t.maxSubsteps);
        v(QStringLiteral("rig.settings.substeps"), s.substeps, t.substeps);
        v(QStringLiteral("rig.settings.iterations"), s.iterations, t.iterations);
        f(QStringLiteral("rig.settings.damping"), s.damping, t.damping);
        f(QStringLiteral("rig.settings.friction"), s.friction, t.friction);
        f(QStringLiteral("rig.settings.staticFrictionSpeed"), s.staticFrictionSpeed, t.staticFrictionSpeed);
        f(QStringLiteral("rig.settings.sleepVelocity"), s.sleepVelocity, t.sleepVelocity);
        f(QStringLiteral("rig.settings.sleepTime"), s.sleepTime, t.sleepTime);
        f(QStringLiteral("rig.settings.overRelaxation"), s.overRelaxation, t.overRelaxation);
        v(QStringLiteral("rig.settings.sqrtApproximation"), s.sqrtApproximation, t.sqrtApproximation);
        v(QStringLiteral("rig.settings.selfCollision"), s.selfCollision, t.selfCollision);
        v(QStringLiteral("rig.settings.solver"), s.solver, t.solver);
    }

    void editor(const EditorState& a, const EditorState& b)
    {
        f(QStringLiteral("editor.camera.target"), a.camera.target, b.camera.target);
        f(QStringLiteral("editor.camera.yawDegrees"), a.camera.yawDegrees, b.camera.yawDegrees);
        f(QStringLiteral("editor.camera.pitchDegrees"), a.camera.pitchDegrees, b.camera.pitchDegrees);
        f(QStringLiteral("editor.camera.distance"), a.camera.distance, b.camera.distance);
        v(QStringLiteral("editor.camera.projection"), a.camera.projection, b.camera.projection);
        f(QStringLiteral("editor.camera.fieldOfViewDegrees"), a.camera.fieldOfViewDegrees, b.camera.fieldOfViewDegrees);
        f(QStringLiteral("editor.meshOpacity"), a.meshOpacity, b.meshOpacity);
        v(QStringLiteral("editor.xray"), a.xray, b.xray);
        count(QStringLiteral("editor.elements"), a.elements.size(), b.elements.size());
        for (std::size_t i = 0; i < a.elements.size() && i < b.elements.size(); ++i) {
            const QString at = QStringLiteral("editor.elements[%1]").arg(i);
            v(at + QStringLiteral(".element"), a.elements[i].element, b.elements[i].element);
            v(at + QStringLiteral(".visible"), a.elements[i].visible, b.elements[i].visible);
            v(at + QStringLiteral(".locked"), a.elements[i].locked, b.elements[i].locked);
            v(at + QStringLiteral(".colour"), a.elements[i].colour, b.elements[i].colour);
        }
        v(QStringLiteral("editor.selection"), a.selection, b.selection);
    }

    void scenario(const QString& at, const Scenario& a, const Scenario& b)
    {
        v(at + QStringLiteral(".name"), a.name, b.name);
        v(at + QStringLiteral(".scene"), a.scene, b.scene);
        f(at + QStringLiteral(".dropHeight"), a.dropHeight, b.dropHeight);
        v(at + QStringLiteral(".initialRotation.random"), a.initialRotation.random, b.initialRotation.random);
        f(at + QStringLiteral(".initialRotation.rotation"), a.initialRotation.rotation, b.initialRotation.rotation);
        v(at + QStringLiteral(".initialRotation.seed"), a.initialRotation.seed, b.initialRotation.seed);
        f(at + QStringLiteral(".duration"), a.duration, b.duration);
        count(at + QStringLiteral(".hits"), a.hits.size(), b.hits.size());
        for (std::size_t i = 0; i < a.hits.size() && i < b.hits.size(); ++i) {
            const QString h = at + QStringLiteral(".hits[%1]").arg(i);
            v(h + QStringLiteral(".frame"), a.hits[i].frame, b.hits[i].frame);
            v(h + QStringLiteral(".target"), a.hits[i].target, b.hits[i].target);
            f(h + QStringLiteral(".along"), a.hits[i].along, b.hits[i].along);
            f(h + QStringLiteral(".impulse"), a.hits[i].impulse, b.hits[i].impulse);
        }
        count(at + QStringLiteral(".drags"), a.drags.size(), b.drags.size());
        for (std::size_t i = 0; i < a.drags.size() && i < b.drags.size(); ++i) {
            const QString d = at + QStringLiteral(".drags[%1]").arg(i);
            v(d + QStringLiteral(".particle"), a.drags[i].particle, b.drags[i].particle);
            v(d + QStringLiteral(".startFrame"), a.drags[i].startFrame, b.drags[i].startFrame);
            v(d + QStringLiteral(".endFrame"), a.drags[i].endFrame, b.drags[i].endFrame);
            f(d + QStringLiteral(".target"), a.drags[i].target, b.drags[i].target);
            f(d + QStringLiteral(".stiffness"), a.drags[i].stiffness, b.drags[i].stiffness);
        }
        count(at + QStringLiteral(".explosions"), a.explosions.size(), b.explosions.size());
        for (std::size_t i = 0; i < a.explosions.size() && i < b.explosions.size(); ++i) {
            const QString x = at + QStringLiteral(".explosions[%1]").arg(i);
            v(x + QStringLiteral(".frame"), a.explosions[i].frame, b.explosions[i].frame);
            f(x + QStringLiteral(".centre"), a.explosions[i].centre, b.explosions[i].centre);
            f(x + QStringLiteral(".strength"), a.explosions[i].strength, b.explosions[i].strength);
            f(x + QStringLiteral(".radius"), a.explosions[i].radius, b.explosions[i].radius);
        }
        count(at + QStringLiteral(".settingChanges"), a.settingChanges.size(), b.settingChanges.size());
        for (std::size_t i = 0; i < a.settingChanges.size() && i < b.settingChanges.size(); ++i) {
            const QString c = at + QStringLiteral(".settingChanges[%1]").arg(i);
            v(c + QStringLiteral(".frame"), a.settingChanges[i].frame, b.settingChanges[i].frame);
            v(c + QStringLiteral(".iterations"), a.settingChanges[i].iterations, b.settingChanges[i].iterations);
            v(c + QStringLiteral(".timeStep"), a.settingChanges[i].timeStep, b.settingChanges[i].timeStep);
            v(c + QStringLiteral(".gravity"), a.settingChanges[i].gravity, b.settingChanges[i].gravity);
        }
        v(at + QStringLiteral(".animationStart.has_value"), a.animationStart.has_value(), b.animationStart.has_value());
        if (a.animationStart && b.animationStart) {
            v(at + QStringLiteral(".animationStart.clip"), a.animationStart->clip, b.animationStart->clip);
            f(at + QStringLiteral(".animationStart.time"), a.animationStart->time, b.animationStart->time);
        }
        v(at + QStringLiteral(".expect.settleWithin.has_value"), a.expect.settleWithin.has_value(),
          b.expect.settleWithin.has_value());
        if (a.expect.settleWithin && b.expect.settleWithin)
            f(at + QStringLiteral(".expect.settleWithin"), *a.expect.settleWithin, *b.expect.settleWithin);
        f(at + QStringLiteral(".expect.maxPenetration"), a.expect.maxPenetration, b.expect.maxPenetration);
        f(at + QStringLiteral(".expect.maxLimitViolationDegrees"), a.expect.maxLimitViolationDegrees,
          b.expect.maxLimitViolationDegrees);
        v(at + QStringLiteral(".driven.has_value"), a.driven.has_value(), b.driven.has_value());
        if (a.driven && b.driven) {
            v(at + QStringLiteral(".driven.clip"), a.driven->clip, b.driven->clip);
            v(at + QStringLiteral(".driven.profile"), a.driven->profile, b.driven->profile);
            v(at + QStringLiteral(".driven.getUpClips"), a.driven->getUpClips, b.driven->getUpClips);
        }
        count(at + QStringLiteral(".driveChanges"), a.driveChanges.size(), b.driveChanges.size());
        for (std::size_t i = 0; i < a.driveChanges.size() && i < b.driveChanges.size(); ++i) {
            const QString c = at + QStringLiteral(".driveChanges[%1]").arg(i);
            v(c + QStringLiteral(".frame"), a.driveChanges[i].frame, b.driveChanges[i].frame);
            v(c + QStringLiteral(".kind"), int(a.driveChanges[i].kind), int(b.driveChanges[i].kind));
            v(c + QStringLiteral(".profile"), a.driveChanges[i].profile, b.driveChanges[i].profile);
            f(c + QStringLiteral(".blend"), a.driveChanges[i].blend, b.driveChanges[i].blend);
        }
        v(at + QStringLiteral(".expect.maxTrackingErrorCm"), a.expect.maxTrackingErrorCm, b.expect.maxTrackingErrorCm);
        v(at + QStringLiteral(".expect.recoverWithin"), a.expect.recoverWithin, b.expect.recoverWithin);
        v(at + QStringLiteral(".expect.falls"), a.expect.falls, b.expect.falls);
        v(at + QStringLiteral(".expect.standsAtEnd"), a.expect.standsAtEnd, b.expect.standsAtEnd);
    }

  private:
    void note(const QString& at, const QString& what)
    {
        if (mFirst.isEmpty())
            mFirst = at + QStringLiteral(": ") + what;
    }
    /// Sizes, then ids and names, then the type's own fields through `fields`.
    template <class T, class F> void list(const QString& at, const std::vector<T>& a, const std::vector<T>& b, F fields)
    {
        count(at, a.size(), b.size());
        for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
            const QString e = at + QStringLiteral("[%1]").arg(i);
            v(e + QStringLiteral(".id"), a[i].id, b[i].id);
            v(e + QStringLiteral(".name"), a[i].name, b[i].name);
            fields(e, a[i], b[i]);
        }
    }

    QString mFirst;
};

inline QString firstDifference(const Project& a, const Project& b)
{
    Diff d;
    d.project(a, b);
    return d.first();
}

// ------------------------------------------------------------------------------------------ JSON editing

/// Replaces (or with `value` undefined, removes) the value at `path` ("rig.sticks[0].b", "" = the root)
/// inside `root`, creating missing object keys.
inline QJsonValue editJson(const QJsonValue& root, QStringView path, const QJsonValue& value)
{
    if (path.isEmpty())
        return value;
    if (path.startsWith(u'[')) {
        const qsizetype close = path.indexOf(u']');
        const qsizetype i = path.mid(1, close - 1).toLongLong();
        QStringView rest = path.mid(close + 1);
        if (rest.startsWith(u'.'))
            rest = rest.mid(1);
        QJsonArray a = root.toArray();
        if (rest.isEmpty() && value.isUndefined())
            a.removeAt(i);
        else
            a[i] = editJson(a[i], rest, value);
        return a;
    }
    qsizetype end = 0;
    while (end < path.size() && path[end] != u'.' && path[end] != u'[')
        ++end;
    const QString key = path.left(end).toString();
    QStringView rest = path.mid(end);
    if (rest.startsWith(u'.'))
        rest = rest.mid(1);
    QJsonObject o = root.toObject();
    if (rest.isEmpty() && value.isUndefined())
        o.remove(key);
    else
        o.insert(key, editJson(o.value(key), rest, value));
    return o;
}

/// `json` with the value at `path` replaced by the JSON text `valueJson`, or removed when it is "<remove>".
inline QByteArray editedDocument(const QByteArray& json, const QString& path, const QString& valueJson)
{
    QJsonValue value(QJsonValue::Undefined);
    if (valueJson != QLatin1String("<remove>"))
        value = QJsonDocument::fromJson(("[" + valueJson + "]").toUtf8()).array().at(0);
    const QJsonValue root = editJson(QJsonDocument::fromJson(json).object(), path, value);
    return QJsonDocument(root.toObject()).toJson(QJsonDocument::Indented);
}

} // namespace marionette::test
