// editor/core Properties: every writable property of every kind (and of the settings) writes exactly its
// own field and reads back what was written; read-only ones refuse; checkValue() refuses what the rig
// cannot hold; angles are shown in degrees. Values are exact in float so read-back compares exactly.
#include "RigDump.h"
#include "RigEditTestSupport.h"

#include "marionette/editor/document/Properties.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace marionette;
using namespace marionette::test;
using editor::PropertyDef;

namespace {

constexpr int kSettings = -1; // "kind" of the rig's settings in the rows below

QVariant vec(double x, double y, double z) { return QVariantList{x, y, z}; }

struct WriteRow {
    int kind;
    const char* key;
    QVariant value;
    const char* field; ///< the dump field (prefix) that must be the only one to change
};

// Index 0 of each kind of the sample rig; hand-picked values that differ from the sample's.
std::vector<WriteRow> writeRows()
{
    const int P = int(ElementKind::Particle), S = int(ElementKind::Stick), A = int(ElementKind::Angle),
              T = int(ElementKind::Triangle), G = int(ElementKind::Angular), N = int(ElementKind::Pin),
              H = int(ElementKind::Shape), D = int(ElementKind::Binding);
    return {
        {P, "name", QString("hip"), "particles[0].name"},
        {P, "position", vec(0.5, -1.25, 2), "particles[0].position"},
        {P, "mass", 2.5, "particles[0].mass"},
        {P, "radius", 0.125, "particles[0].radius"},
        {P, "group", qulonglong(6), "particles[0].group"},
        {P, "mask", qulonglong(3), "particles[0].mask"},
        {S, "name", QString("forearm"), "sticks[0].name"},
        {S, "kind", 2, "sticks[0].kind"},
        {S, "restLength", 0.75, "sticks[0].restLength"},
        {S, "minLength", 0.25, "sticks[0].minLength"},
        {S, "maxLength", 1.5, "sticks[0].maxLength"},
        {S, "stiffness", 0.5, "sticks[0].stiffness"},
        {S, "compliance", 0.0625, "sticks[0].compliance"},
        {S, "tearRatio", 1.5, "sticks[0].tearRatio"},
        {S, "capsuleRadius", 0.03125, "sticks[0].capsuleRadius"},
        {S, "group", qulonglong(2), "sticks[0].group"},
        {S, "mask", qulonglong(5), "sticks[0].mask"},
        {A, "name", QString("elbow"), "angles[0].name"},
        {A, "minAngle", 0.5, "angles[0].minAngle"},
        {A, "maxAngle", 2.5, "angles[0].maxAngle"},
        {A, "stiffness", 0.75, "angles[0].stiffness"},
        {A, "form", 1, "angles[0].form"},
        {A, "damping", 4.5, "angles[0].damping"},
        {T, "name", QString("pelvis"), "triangles[0].name"},
        {G, "name", QString("hip_l"), "angular[0].name"},
        {G, "limit", 1, "angular[0].limit"},
        {G, "coneAngle", 1.25, "angular[0].coneAngle"},
        {G, "twistMin", -0.5, "angular[0].twistMin"},
        {G, "twistMax", 0.75, "angular[0].twistMax"},
        {G, "swing1", 0.25, "angular[0].swing1"},
        {G, "swing2", 0.375, "angular[0].swing2"},
        {G, "twistAxis", vec(0, 0, 1), "angular[0].twistAxis"},
        {G, "swingAxis1", vec(0, 1, 0), "angular[0].swingAxis1"},
        {G, "stiffness", 0.5, "angular[0].stiffness"},
        {G, "damping", 2.5, "angular[0].damping"},
        {G, "staticFrictionSpeed", 0.75, "angular[0].staticFrictionSpeed"},
        {N, "name", QString("grab"), "pins[0].name"},
        {N, "target", vec(1, 2, 3), "pins[0].target"},
        {N, "stiffness", 0.25, "pins[0].stiffness"},
        {N, "kinematic", false, "pins[0].kinematic"},
        {H, "name", QString("crate"), "shapes[0].name"},
        {H, "centre", vec(0.5, 0, -0.25), "shapes[0].local.translation"},
        {H, "halfExtents", vec(0.25, 0.5, 0.125), "shapes[0].halfExtents"},
        {H, "group", qulonglong(4), "shapes[0].group"},
        {H, "mask", qulonglong(8), "shapes[0].mask"},
        {D, "name", QString("pelvis_binding"), "bindings[0].name"},
        {kSettings, "gravity", vec(0, 0, -9.75), "settings.gravity"},
        {kSettings, "timeStep", 0.0078125, "settings.timeStep"},
        {kSettings, "maxSubsteps", qulonglong(8), "settings.maxSubsteps"},
        {kSettings, "substeps", qulonglong(3), "settings.substeps"},
        {kSettings, "iterations", qulonglong(16), "settings.iterations"},
        {kSettings, "solver", 2, "settings.solver"},
        {kSettings, "damping", 1.25, "settings.damping"},
        {kSettings, "friction", 0.5, "settings.friction"},
        {kSettings, "staticFrictionSpeed", 0.25, "settings.staticFrictionSpeed"},
        {kSettings, "sleepVelocity", 0.25, "settings.sleepVelocity"},
        {kSettings, "sleepTime", 2.0, "settings.sleepTime"},
        {kSettings, "overRelaxation", 1.5, "settings.overRelaxation"},
        {kSettings, "sqrtApproximation", true, "settings.sqrtApproximation"},
        {kSettings, "selfCollision", false, "settings.selfCollision"},
    };
}

const std::vector<PropertyDef>& defsOf(int kind)
{
    return kind == kSettings ? editor::settingsProperties() : editor::propertiesOf(ElementKind(kind));
}

QString kindName(int kind) { return kind == kSettings ? QStringLiteral("settings") : QString(project::toString(ElementKind(kind))); }

} // namespace

class TestProperties : public QObject {
    Q_OBJECT
  private slots:
    void writeProperty_readsBackAndChangesOnlyItsField_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QVariant>("value");
        QTest::addColumn<QString>("field");
        for (const WriteRow& row : writeRows())
            QTest::addRow("%s.%s", qPrintable(kindName(row.kind)), row.key)
                << row.kind << QString(row.key) << row.value << QString(row.field);
    }
    void writeProperty_readsBackAndChangesOnlyItsField()
    {
        QFETCH(int, kind);
        QFETCH(QString, key);
        QFETCH(QVariant, value);
        QFETCH(QString, field);
        rig::RigDescription r = sampleRig();
        const QStringList before = dumpRig(r);
        const PropertyDef* def = editor::findProperty(defsOf(kind), key);
        QVERIFY(def);
        QCOMPARE(editor::checkValue(*def, value), QString());
        if (kind == kSettings) {
            QVERIFY(editor::writeSetting(r.settings, key, value));
            QCOMPARE(editor::readSetting(r.settings, key), value);
        } else {
            QVERIFY(editor::writeProperty(r, ElementKind(kind), 0, key, value));
            QCOMPARE(editor::readProperty(r, ElementKind(kind), 0, key), value);
        }
        const QStringList changed = changedFields(before, dumpRig(r));
        QVERIFY(!changed.isEmpty());
        for (const QString& line : changed)
            QVERIFY2(line.startsWith(field + QLatin1Char(' ')) || line.startsWith(field + QLatin1Char('.')), qPrintable(line));
    }

    void writeRows_coverEveryWritableProperty()
    {
        for (int kind = kSettings; kind < project::kElementKindCount; ++kind)
            for (const PropertyDef& def : defsOf(kind)) {
                if (def.readOnly)
                    continue;
                bool found = false;
                for (const WriteRow& row : writeRows())
                    found = found || (row.kind == kind && def.key == QLatin1String(row.key));
                QVERIFY2(found, qPrintable(kindName(kind) + "." + def.key + " has no row in writeRows()"));
            }
    }

    void writeProperty_readOnly_refusesAndLeavesRig()
    {
        int readOnlyCount = 0;
        for (int kind = 0; kind < project::kElementKindCount; ++kind)
            for (const PropertyDef& def : defsOf(kind)) {
                if (!def.readOnly)
                    continue;
                ++readOnlyCount;
                rig::RigDescription r = sampleRig();
                const QVariant current = editor::readProperty(r, ElementKind(kind), 0, def.key);
                QVERIFY2(current.isValid(), qPrintable(def.key));
                QCOMPARE(editor::checkValue(def, current), def.label + QStringLiteral(": read-only"));
                QVERIFY(!editor::writeProperty(r, ElementKind(kind), 0, def.key, current));
                QCOMPARE(dumpRig(r), dumpRig(sampleRig()));
            }
        // particle bone; stick a, b; angle centre, a, b; triangle p0-p2; angular A, B; pin particle;
        // shape triangle; bone name, parent, head; binding bone, driver
        QCOMPARE(readOnlyCount, 1 + 2 + 3 + 3 + 2 + 1 + 1 + 3 + 2);
    }

    void writeProperty_invalid_refusesAndLeavesRig_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QVariant>("value");
        const double nan = std::numeric_limits<double>::quiet_NaN();
        QTest::newRow("unknown key") << int(ElementKind::Particle) << "colour" << QVariant(1.0);
        QTest::newRow("NaN radius") << int(ElementKind::Particle) << "radius" << QVariant(nan);
        QTest::newRow("stiffness 0") << int(ElementKind::Stick) << "stiffness" << QVariant(0.0);
        QTest::newRow("enum out of range") << int(ElementKind::Angle) << "form" << QVariant(2);
        QTest::newRow("vector of two") << int(ElementKind::Pin) << "target" << QVariant(QVariantList{1.0, 2.0});
    }
    void writeProperty_invalid_refusesAndLeavesRig()
    {
        QFETCH(int, kind);
        QFETCH(QString, key);
        QFETCH(QVariant, value);
        rig::RigDescription r = sampleRig();
        QVERIFY(!editor::writeProperty(r, ElementKind(kind), 0, key, value));
        QVERIFY(!editor::writeProperty(r, ElementKind(kind), 99, QStringLiteral("name"), QString("x")));
        QCOMPARE(dumpRig(r), dumpRig(sampleRig()));
        QVERIFY(!editor::readProperty(r, ElementKind(kind), 0, QStringLiteral("colour")).isValid());
        QVERIFY(!editor::readProperty(r, ElementKind(kind), 99, QStringLiteral("name")).isValid());
    }

    void readProperty_links_nameTheReferencedElement_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("index");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("expected");
        QTest::newRow("stick end") << int(ElementKind::Stick) << 1 << "b" << "p2";
        QTest::newRow("particle's bone") << int(ElementKind::Particle) << 3 << "bone" << "b3";
        QTest::newRow("particle without bone") << int(ElementKind::Particle) << 4 << "bone" << "(none)";
        QTest::newRow("unnamed element by index") << int(ElementKind::Stick) << 0 << "b" << "#1";
        QTest::newRow("angle centre") << int(ElementKind::Angle) << 0 << "center" << "#1";
        QTest::newRow("triangle corner") << int(ElementKind::Triangle) << 2 << "p2" << "p5";
        QTest::newRow("angular side B") << int(ElementKind::Angular) << 1 << "triangleB" << "t2";
        QTest::newRow("shape on a triangle") << int(ElementKind::Shape) << 0 << "triangle" << "t2";
        QTest::newRow("shape in a tetrahedron") << int(ElementKind::Shape) << 1 << "triangle" << "(none)";
        QTest::newRow("root bone's parent") << int(ElementKind::Bone) << 0 << "parent" << "(none)";
        QTest::newRow("bone's parent") << int(ElementKind::Bone) << 2 << "parent" << "b1";
        QTest::newRow("triangle driver") << int(ElementKind::Binding) << 2 << "driver" << "triangle t2";
        QTest::newRow("stick driver") << int(ElementKind::Binding) << 1 << "driver" << "stick s1";
        QTest::newRow("bound bone") << int(ElementKind::Binding) << 1 << "bone" << "b1";
    }
    void readProperty_links_nameTheReferencedElement()
    {
        QFETCH(int, kind);
        QFETCH(int, index);
        QFETCH(QString, key);
        QFETCH(QString, expected);
        rig::RigDescription r = sampleRig();
        r.particles[1].name.clear();
        QCOMPARE(editor::readProperty(r, ElementKind(kind), std::size_t(index), key).toString(), expected);
    }

    void readProperty_boneHead_isBindTranslation()
    {
        rig::RigDescription r = sampleRig();
        r.bones[2].bindWorld = Mat4::fromTransform(Transform{Quat{}, Vec3{0.25f, 1.5f, -2.f}});
        QCOMPARE(editor::readProperty(r, ElementKind::Bone, 2, QStringLiteral("head")), vec(0.25, 1.5, -2));
        QCOMPARE(editor::readProperty(r, ElementKind::Bone, 2, QStringLiteral("name")), QVariant(QString("b2")));
    }

    void checkValue_rejects_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QVariant>("value");
        QTest::addColumn<QString>("expected");
        const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
        const int P = int(ElementKind::Particle), S = int(ElementKind::Stick), G = int(ElementKind::Angular);
        QTest::newRow("NaN") << P << "radius" << QVariant(nan) << "Radius: must be a finite number";
        QTest::newRow("+inf") << P << "mass" << QVariant(inf) << "Mass: must be a finite number";
        QTest::newRow("-inf") << S << "minLength" << QVariant(-inf) << "Min length: must be a finite number";
        QTest::newRow("below minimum") << P << "radius" << QVariant(-0.01) << "Radius: must be at least 0 m";
        QTest::newRow("above maximum") << P << "radius" << QVariant(100.5) << "Radius: must be at most 100 m";
        QTest::newRow("exclusive minimum") << S << "stiffness" << QVariant(0.0) << "Stiffness: must be greater than 0";
        QTest::newRow("above 1") << S << "stiffness" << QVariant(1.0001) << "Stiffness: must be at most 1";
        QTest::newRow("not a number") << P << "mass" << QVariant(QString("heavy")) << "Mass: not a number";
        QTest::newRow("vector with NaN") << P << "position" << vec(0, nan, 0) << "Position: must be a finite number";
        QTest::newRow("vector with inf") << G << "twistAxis" << vec(inf, 0, 0) << "Twist axis: must be a finite number";
        QTest::newRow("vector of two") << P << "position" << QVariant(QVariantList{1.0, 2.0}) << "Position: needs three numbers";
        QTest::newRow("vector from text") << P << "position" << QVariant(QString("1 2 3")) << "Position: needs three numbers";
        QTest::newRow("angle above 180°") << G << "coneAngle" << QVariant(3.2) << "Cone angle: must be at most 180°";
        QTest::newRow("angle below -180°") << G << "twistMin" << QVariant(-3.2) << "Twist min: must be at least -180°";
        QTest::newRow("enum past the end") << S << "kind" << QVariant(4) << "Kind: no such choice";
        QTest::newRow("enum negative") << S << "kind" << QVariant(-1) << "Kind: no such choice";
        QTest::newRow("enum NaN") << S << "kind" << QVariant(nan) << "Kind: no such choice";
        QTest::newRow("enum fraction") << S << "kind" << QVariant(1.5) << "Kind: no such choice";
        QTest::newRow("enum from text") << S << "kind" << QVariant(QString("Rigid")) << "Kind: no such choice";
        QTest::newRow("uint NaN") << P << "group" << QVariant(nan) << "Group: not a whole number";
        QTest::newRow("uint inf") << P << "mask" << QVariant(inf) << "Mask: not a whole number";
        QTest::newRow("uint fraction") << P << "group" << QVariant(2.5) << "Group: not a whole number";
        QTest::newRow("uint negative") << P << "group" << QVariant(-1) << "Group: must be at least 0";
        QTest::newRow("uint above 32 bits") << P << "mask" << QVariant(qulonglong(1) << 32) << "Mask: must be at most 4.29497e+09";
        QTest::newRow("read-only link") << S << "a" << QVariant(QString("p1")) << "Particle A: read-only";
        QTest::newRow("read-only bone name") << int(ElementKind::Bone) << "name" << QVariant(QString("x")) << "Name: read-only";
        QTest::newRow("name too long") << P << "name" << QVariant(QString(257, QLatin1Char('x'))) << "Name: at most 256 characters";
        QTest::newRow("setting below 1") << kSettings << "iterations" << QVariant(qulonglong(0)) << "Iterations per substep: must be at least 1";
        QTest::newRow("setting above 64") << kSettings << "maxSubsteps" << QVariant(qulonglong(65)) << "Max steps per frame: must be at most 64";
        QTest::newRow("substeps 0") << kSettings << "substeps" << QVariant(qulonglong(0)) << "Substeps: must be at least 1";
        QTest::newRow("substeps above 64") << kSettings << "substeps" << QVariant(qulonglong(65)) << "Substeps: must be at most 64";
        QTest::newRow("damping negative") << kSettings << "damping" << QVariant(-0.01) << "Damping: must be at least 0 1/s";
        QTest::newRow("damping above 100") << kSettings << "damping" << QVariant(100.5) << "Damping: must be at most 100 1/s";
        QTest::newRow("static friction speed above 100") << kSettings << "staticFrictionSpeed" << QVariant(100.5)
                                                         << "Static friction speed: must be at most 100 m/s";
        QTest::newRow("friction above 10^4") << kSettings << "friction" << QVariant(10000.5) << "Friction: must be at most 10000";
        QTest::newRow("over-relaxation 1.995") << kSettings << "overRelaxation" << QVariant(1.995) << "Over-relaxation: must be at most 1.99";
        QTest::newRow("sleep time above an hour") << kSettings << "sleepTime" << QVariant(3601.0) << "Sleep time: must be at most 3600 s";
        QTest::newRow("joint damping above 1000") << G << "damping" << QVariant(1000.5) << "Damping: must be at most 1000 1/s";
        QTest::newRow("joint static friction above 100 rad/s") << G << "staticFrictionSpeed" << QVariant(100.5)
                                                             << "Static friction: must be at most 5729.58 °/s";
        QTest::newRow("time step 0") << kSettings << "timeStep" << QVariant(0.0) << "Time step: must be greater than 0 s";
        QTest::newRow("time step NaN") << kSettings << "timeStep" << QVariant(nan) << "Time step: must be a finite number";
        QTest::newRow("solver past the end") << kSettings << "solver" << QVariant(4) << "Solver: no such choice";
        QTest::newRow("gravity inf") << kSettings << "gravity" << vec(0, -inf, 0) << "Gravity: must be a finite number";
    }
    void checkValue_rejects()
    {
        QFETCH(int, kind);
        QFETCH(QString, key);
        QFETCH(QVariant, value);
        QFETCH(QString, expected);
        const PropertyDef* def = editor::findProperty(defsOf(kind), key);
        QVERIFY(def);
        QCOMPARE(editor::checkValue(*def, value), expected);
        if (kind == kSettings) {
            rig::Settings s;
            QVERIFY(!editor::writeSetting(s, key, value));
        }
    }

    void checkValue_acceptsBounds_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QVariant>("value");
        const int P = int(ElementKind::Particle), S = int(ElementKind::Stick);
        QTest::newRow("inclusive minimum") << P << "radius" << QVariant(0.0);
        QTest::newRow("inclusive maximum") << P << "radius" << QVariant(100.0);
        QTest::newRow("stiffness 1") << S << "stiffness" << QVariant(1.0);
        QTest::newRow("rest length -1 (bind distance)") << S << "restLength" << QVariant(-1.0);
        QTest::newRow("last enum") << S << "kind" << QVariant(3);
        QTest::newRow("enum as a whole double") << S << "kind" << QVariant(2.0);
        QTest::newRow("all mask bits") << P << "mask" << QVariant(qulonglong(0xffffffffu));
        QTest::newRow("uint as int") << P << "group" << QVariant(5);
        QTest::newRow("angle 180°") << int(ElementKind::Angle) << "maxAngle" << QVariant(double(kPi));
        QTest::newRow("setting 64") << kSettings << "iterations" << QVariant(qulonglong(64));
        QTest::newRow("substeps 64") << kSettings << "substeps" << QVariant(qulonglong(64));
        QTest::newRow("direct solver") << kSettings << "solver" << QVariant(int(rig::SolverMode::Direct));
        QTest::newRow("damping 100") << kSettings << "damping" << QVariant(100.0);
        QTest::newRow("static friction speed 100") << kSettings << "staticFrictionSpeed" << QVariant(100.0);
        QTest::newRow("friction 10^4") << kSettings << "friction" << QVariant(10000.0);
        QTest::newRow("joint damping 1000") << int(ElementKind::Angular) << "damping" << QVariant(1000.0);
        QTest::newRow("joint static friction 100 rad/s") << int(ElementKind::Angular) << "staticFrictionSpeed" << QVariant(100.0);
    }
    void checkValue_acceptsBounds()
    {
        QFETCH(int, kind);
        QFETCH(QString, key);
        QFETCH(QVariant, value);
        const PropertyDef* def = editor::findProperty(defsOf(kind), key);
        QVERIFY(def);
        QCOMPARE(editor::checkValue(*def, value), QString());
    }

    void displayScale_anglesInDegrees_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("key");
        const int A = int(ElementKind::Angle), G = int(ElementKind::Angular);
        for (const char* key : {"minAngle", "maxAngle"})
            QTest::addRow("angle.%s", key) << A << QString(key);
        for (const char* key : {"coneAngle", "twistMin", "twistMax", "swing1", "swing2"})
            QTest::addRow("angular.%s", key) << G << QString(key);
    }
    void displayScale_anglesInDegrees()
    {
        QFETCH(int, kind);
        QFETCH(QString, key);
        const PropertyDef* def = editor::findProperty(defsOf(kind), key);
        QVERIFY(def);
        QCOMPARE(def->type, editor::PropertyType::Float);
        QCOMPARE(def->unit, QStringLiteral("°"));
        QCOMPARE(def->displayScale, 180.0 / 3.14159265358979323846);
        // 45° stored as π/4 displays as 45.
        QCOMPARE(0.25 * 3.14159265358979323846 * def->displayScale, 45.0);
    }

    // Angular speeds are stored in rad/s and shown in °/s like the angles: 0.8 rad/s shows as 45.8°/s.
    void displayScale_angularSpeedsInDegreesPerSecond()
    {
        const PropertyDef* def = editor::findProperty(defsOf(int(ElementKind::Angular)), QStringLiteral("staticFrictionSpeed"));
        QVERIFY(def);
        QCOMPARE(def->unit, QStringLiteral("°/s"));
        QCOMPARE(def->displayScale, 180.0 / 3.14159265358979323846);
        QCOMPARE(def->maximum, 100.0);
        const PropertyDef* damping = editor::findProperty(defsOf(int(ElementKind::Angular)), QStringLiteral("damping"));
        QVERIFY(damping);
        QCOMPARE(damping->unit, QStringLiteral("1/s"));
        QCOMPARE(damping->displayScale, 1.0);
    }

    void displayScale_isOneForEverythingElse()
    {
        int degrees = 0;
        for (int kind = kSettings; kind < project::kElementKindCount; ++kind)
            for (const PropertyDef& def : defsOf(kind)) {
                if (def.unit.startsWith(QStringLiteral("°"))) {
                    ++degrees;
                    continue;
                }
                QVERIFY2(def.displayScale == 1.0, qPrintable(kindName(kind) + "." + def.key));
            }
        QCOMPARE(degrees, 8); // 7 angles in °, the joints' static friction in °/s
    }

    // The solver settings the panel shows, in the order it shows them, with their units.
    void settings_showTheSolverSchedule()
    {
        QStringList keys;
        for (const PropertyDef& def : editor::settingsProperties())
            keys << def.key;
        QCOMPARE(keys, (QStringList{"gravity", "timeStep", "maxSubsteps", "substeps", "iterations", "solver", "damping",
                                    "friction", "staticFrictionSpeed", "sleepVelocity", "sleepTime", "overRelaxation",
                                    "sqrtApproximation", "selfCollision"}));
        const std::vector<PropertyDef>& defs = editor::settingsProperties();
        const PropertyDef* solver = editor::findProperty(defs, QStringLiteral("solver"));
        QVERIFY(solver);
        QCOMPARE(solver->enumNames.value(int(rig::SolverMode::Direct)), QStringLiteral("Direct"));
        QCOMPARE(editor::findProperty(defs, QStringLiteral("damping"))->unit, QStringLiteral("1/s"));
        QCOMPARE(editor::findProperty(defs, QStringLiteral("staticFrictionSpeed"))->unit, QStringLiteral("m/s"));
        QCOMPARE(editor::findProperty(defs, QStringLiteral("staticFrictionSpeed"))->label, QStringLiteral("Static friction speed"));
        QVERIFY(editor::findProperty(defs, QStringLiteral("iterations"))->toolTip.contains(QStringLiteral("substep")));
        rig::Settings s;
        QCOMPARE(editor::readSetting(s, QStringLiteral("solver")), QVariant(int(rig::SolverMode::Direct)));
        QCOMPARE(editor::readSetting(s, QStringLiteral("substeps")), QVariant(qulonglong(8)));
        QCOMPARE(editor::readSetting(s, QStringLiteral("damping")), QVariant(double(0.6f)));
        QCOMPARE(editor::readSetting(s, QStringLiteral("staticFrictionSpeed")), QVariant(double(0.12f)));
        const PropertyDef* pin = editor::findProperty(defsOf(int(ElementKind::Pin)), QStringLiteral("stiffness"));
        QVERIFY(pin && pin->toolTip.contains(QStringLiteral("per 1/60 s")));
    }

    // The panel's bounds are validate()'s: each numeric setting (and the joints' friction) at its panel
    // minimum and maximum still validates, and the panel allows every value validate() allows at the edges
    // (a rig at validate()'s bounds reads back through checkValue()).
    void bounds_matchValidate_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("key");
        QTest::addColumn<double>("lowest");  ///< validate()'s bound (inclusive unless exclusive)
        QTest::addColumn<double>("highest");
        QTest::newRow("timeStep") << kSettings << "timeStep" << 0.0 << 0.1;
        QTest::newRow("maxSubsteps") << kSettings << "maxSubsteps" << 1.0 << 64.0;
        QTest::newRow("substeps") << kSettings << "substeps" << 1.0 << 64.0;
        QTest::newRow("iterations") << kSettings << "iterations" << 1.0 << 64.0;
        QTest::newRow("damping") << kSettings << "damping" << 0.0 << 100.0;
        QTest::newRow("friction") << kSettings << "friction" << 0.0 << 1e4;
        QTest::newRow("staticFrictionSpeed") << kSettings << "staticFrictionSpeed" << 0.0 << 100.0;
        QTest::newRow("sleepVelocity") << kSettings << "sleepVelocity" << 0.0 << 100.0;
        QTest::newRow("sleepTime") << kSettings << "sleepTime" << 0.0 << 3600.0;
        QTest::newRow("overRelaxation") << kSettings << "overRelaxation" << 1.0 << 1.99;
        QTest::newRow("angular damping") << int(ElementKind::Angular) << "damping" << 0.0 << 1000.0;
        QTest::newRow("angular staticFrictionSpeed") << int(ElementKind::Angular) << "staticFrictionSpeed" << 0.0 << 100.0;
    }
    void bounds_matchValidate()
    {
        QFETCH(int, kind);
        QFETCH(QString, key);
        QFETCH(double, lowest);
        QFETCH(double, highest);
        const PropertyDef* def = editor::findProperty(defsOf(kind), key);
        QVERIFY(def);
        QCOMPARE(def->minimum, lowest);
        QCOMPARE(float(def->maximum), float(highest));
        const bool whole = def->type == editor::PropertyType::UInt;
        const double low = def->minimumExclusive ? lowest + 1e-6 : lowest;
        for (double v : {low, highest}) {
            const QVariant value = whole ? QVariant(qulonglong(v)) : QVariant(v);
            rig::RigDescription r = sampleRig();
            QCOMPARE(editor::checkValue(*def, value), QString());
            QVERIFY(kind == kSettings ? editor::writeSetting(r.settings, key, value)
                                      : editor::writeProperty(r, ElementKind(kind), 0, key, value));
            QVERIFY2(r.validate().empty(), r.validate().c_str());
        }
    }

    void propertyTables_haveUniqueKeysAndLabels()
    {
        for (int kind = kSettings; kind < project::kElementKindCount; ++kind) {
            QSet<QString> keys;
            for (const PropertyDef& def : defsOf(kind)) {
                QVERIFY2(!keys.contains(def.key), qPrintable(def.key));
                keys.insert(def.key);
                QVERIFY(!def.label.isEmpty());
                if (def.type == editor::PropertyType::Enum)
                    QCOMPARE(def.maximum, double(def.enumNames.size() - 1));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestProperties)
#include "tst_properties.moc"
