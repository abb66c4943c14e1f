// The JSON exporter plugin (docs/plugins/json-export.md): a rig with every kind of element and field goes
// through the plugin as the host loads it, is parsed back and compared field by field; the document is
// deterministic and its numbers read back to the same floats.
#include "PluginTestSupport.h"

#include "marionette/editor/pluginhost/PluginHost.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace marionette;

namespace {

float f(const QJsonValue& v) { return float(v.toDouble(std::nan(""))); }

bool sameVec(const QJsonValue& v, Vec3 e)
{
    const QJsonArray a = v.toArray();
    return a.size() == 3 && f(a[0]) == e.x && f(a[1]) == e.y && f(a[2]) == e.z;
}

bool sameQuat(const QJsonValue& v, Quat e)
{
    const QJsonArray a = v.toArray();
    return a.size() == 4 && f(a[0]) == e.x && f(a[1]) == e.y && f(a[2]) == e.z && f(a[3]) == e.w;
}

bool sameMat(const QJsonValue& v, const Mat4& m)
{
    const QJsonArray a = v.toArray();
    if (a.size() != 16)
        return false;
    for (int i = 0; i < 16; ++i)
        if (f(a[i]) != m.m[i])
            return false;
    return true;
}

QJsonValue index(std::int32_t i) { return i < 0 ? QJsonValue() : QJsonValue(qint64(i)); }

/// The fields every element has.
bool sameElement(const QJsonObject& o, std::size_t i, rig::ElementId id, const std::string& name)
{
    return o.value(QStringLiteral("index")).toInteger() == qint64(i) && o.value(QStringLiteral("id")).toInteger() == qint64(id) &&
           o.value(QStringLiteral("name")).toString() == QString::fromStdString(name);
}

} // namespace

class TestJsonExporter : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void export_everyFieldReadsBack();
    void export_deterministicAndNamed();
    void export_solverNames_data();
    void export_solverNames();

private:
    editor::PluginHost mHost;
    const plugin::RigExporter* mJson = nullptr;
};

void TestJsonExporter::initTestCase()
{
    mHost.loadFolder(test::pluginDir());
    mJson = mHost.exporter(QStringLiteral("json"));
    QVERIFY(mJson);
    QCOMPARE(mJson->nameFilter(), QStringLiteral("Marionette JSON rig (*.json)"));
}

void TestJsonExporter::export_everyFieldReadsBack()
{
    const rig::RigDescription d = test::richRig();
    QByteArray bytes;
    QString error;
    QVERIFY2(editor::PluginHost::exportRigBytes(*mJson, d, {{}, {}, QStringLiteral("tst 1")}, bytes, &error), qPrintable(error));
    QJsonParseError parse;
    const QJsonObject root = QJsonDocument::fromJson(bytes, &parse).object();
    QCOMPARE(parse.error, QJsonParseError::NoError);
    QCOMPARE(root.value(QStringLiteral("format")).toString(), QStringLiteral("marionette.rig+json"));
    QCOMPARE(root.value(QStringLiteral("version")).toInt(), 3);
    QCOMPARE(root.value(QStringLiteral("generator")).toString(), QStringLiteral("tst 1"));
    QCOMPARE(root.value(QStringLiteral("name")).toString(), QString::fromStdString(d.name));
    const QJsonObject units = root.value(QStringLiteral("units")).toObject();
    QCOMPARE(units.value(QStringLiteral("length")).toString(), QStringLiteral("m"));
    QCOMPARE(units.value(QStringLiteral("angle")).toString(), QStringLiteral("rad"));
    QCOMPARE(units.value(QStringLiteral("up")).toString(), QStringLiteral("+y"));

    const QJsonArray particles = root.value(QStringLiteral("particles")).toArray();
    QCOMPARE(std::size_t(particles.size()), d.particles.size());
    for (std::size_t i = 0; i < d.particles.size(); ++i) {
        const rig::Particle& p = d.particles[i];
        const QJsonObject o = particles[qsizetype(i)].toObject();
        QVERIFY2(sameElement(o, i, p.id, p.name) && sameVec(o[QStringLiteral("position")], p.position) &&
                     f(o[QStringLiteral("mass")]) == p.mass && f(o[QStringLiteral("inverseMass")]) == (p.mass > 0.f ? 1.f / p.mass : 0.f) &&
                     f(o[QStringLiteral("radius")]) == p.radius && o[QStringLiteral("group")].toInteger() == p.group &&
                     o[QStringLiteral("mask")].toInteger() == p.mask && o[QStringLiteral("bone")] == index(p.bone),
                 p.name.c_str());
    }
    const QJsonArray sticks = root.value(QStringLiteral("sticks")).toArray();
    QCOMPARE(std::size_t(sticks.size()), d.sticks.size());
    const char* kinds[] = {"rigid", "range", "minOnly", "maxOnly"};
    for (std::size_t i = 0; i < d.sticks.size(); ++i) {
        const rig::Stick& s = d.sticks[i];
        const QJsonObject o = sticks[qsizetype(i)].toObject();
        const bool fromBind = s.restLength < 0.f;
        const float rest = fromBind ? length(d.particles[std::size_t(s.b)].position - d.particles[std::size_t(s.a)].position) : s.restLength;
        QVERIFY2(sameElement(o, i, s.id, s.name) && o[QStringLiteral("a")].toInteger() == s.a && o[QStringLiteral("b")].toInteger() == s.b &&
                     o[QStringLiteral("kind")].toString() == QLatin1String(kinds[int(s.kind)]) &&
                     f(o[QStringLiteral("restLength")]) == rest && o[QStringLiteral("restLengthFromBind")].toBool() == fromBind &&
                     f(o[QStringLiteral("minLength")]) == s.minLength && f(o[QStringLiteral("maxLength")]) == s.maxLength &&
                     f(o[QStringLiteral("stiffness")]) == s.stiffness && f(o[QStringLiteral("compliance")]) == s.compliance &&
                     f(o[QStringLiteral("tearRatio")]) == s.tearRatio && f(o[QStringLiteral("capsuleRadius")]) == s.capsuleRadius &&
                     o[QStringLiteral("group")].toInteger() == s.group && o[QStringLiteral("mask")].toInteger() == s.mask,
                 s.name.c_str());
    }
    const QJsonArray angles = root.value(QStringLiteral("angles")).toArray();
    QCOMPARE(std::size_t(angles.size()), d.angles.size());
    for (std::size_t i = 0; i < d.angles.size(); ++i) {
        const rig::AngleConstraint& a = d.angles[i];
        const QJsonObject o = angles[qsizetype(i)].toObject();
        QVERIFY(sameElement(o, i, a.id, a.name) && o[QStringLiteral("center")].toInteger() == a.center && o[QStringLiteral("a")].toInteger() == a.a &&
                o[QStringLiteral("b")].toInteger() == a.b && f(o[QStringLiteral("minAngle")]) == a.minAngle &&
                f(o[QStringLiteral("maxAngle")]) == a.maxAngle && f(o[QStringLiteral("stiffness")]) == a.stiffness &&
                o[QStringLiteral("form")].toString() == QLatin1String(a.form == rig::AngleConstraint::Form::DotProduct ? "dotProduct" : "lawOfCosines"));
    }
    const QJsonArray triangles = root.value(QStringLiteral("triangles")).toArray();
    QCOMPARE(std::size_t(triangles.size()), d.triangles.size());
    for (std::size_t i = 0; i < d.triangles.size(); ++i) {
        const rig::Triangle& t = d.triangles[i];
        const QJsonObject o = triangles[qsizetype(i)].toObject();
        QVERIFY(sameElement(o, i, t.id, t.name));
        QCOMPARE(o[QStringLiteral("particles")].toArray(), (QJsonArray{t.p[0], t.p[1], t.p[2]}));
    }
    const QJsonArray angular = root.value(QStringLiteral("angular")).toArray();
    QCOMPARE(std::size_t(angular.size()), d.angular.size());
    for (std::size_t i = 0; i < d.angular.size(); ++i) {
        const rig::AngularConstraint& a = d.angular[i];
        const QJsonObject o = angular[qsizetype(i)].toObject();
        QVERIFY2(sameElement(o, i, a.id, a.name) && o[QStringLiteral("triangleA")].toInteger() == a.triangleA &&
                     o[QStringLiteral("triangleB")].toInteger() == a.triangleB &&
                     o[QStringLiteral("limit")].toString() == QLatin1String(a.limit == rig::AngularLimit::Cone ? "cone" : "swingTwist") &&
                     f(o[QStringLiteral("coneAngle")]) == a.coneAngle && sameVec(o[QStringLiteral("twistAxis")], a.twistAxis) &&
                     sameVec(o[QStringLiteral("swingAxis1")], a.swingAxis1) && f(o[QStringLiteral("twistMin")]) == a.twistMin &&
                     f(o[QStringLiteral("twistMax")]) == a.twistMax && f(o[QStringLiteral("swing1")]) == a.swing1 &&
                     f(o[QStringLiteral("swing2")]) == a.swing2 && f(o[QStringLiteral("stiffness")]) == a.stiffness &&
                     f(o[QStringLiteral("damping")]) == a.damping &&
                     f(o[QStringLiteral("staticFrictionSpeed")]) == a.staticFrictionSpeed &&
                     !o.contains(QStringLiteral("dynamicFriction")) && !o.contains(QStringLiteral("staticFrictionAngle")) &&
                     (a.hasRestOrientation ? sameQuat(o[QStringLiteral("restOrientation")], a.restOrientation)
                                           : o[QStringLiteral("restOrientation")].isNull()),
                 a.name.c_str());
    }
    const QJsonArray pins = root.value(QStringLiteral("pins")).toArray();
    QCOMPARE(pins.size(), 1);
    const QJsonObject pin = pins[0].toObject();
    QVERIFY(sameElement(pin, 0, 9, "hand_pin") && pin[QStringLiteral("particle")].toInteger() == d.pins[0].particle &&
            sameVec(pin[QStringLiteral("target")], d.pins[0].target) && f(pin[QStringLiteral("stiffness")]) == 0.25f &&
            pin[QStringLiteral("kinematic")] == QJsonValue(false));
    const QJsonArray shapes = root.value(QStringLiteral("shapes")).toArray();
    QCOMPARE(std::size_t(shapes.size()), d.shapes.size());
    for (std::size_t i = 0; i < d.shapes.size(); ++i) {
        const rig::Shape& s = d.shapes[i];
        const QJsonObject o = shapes[qsizetype(i)].toObject();
        const QJsonObject local = o[QStringLiteral("local")].toObject();
        QVERIFY2(sameElement(o, i, s.id, s.name) && o[QStringLiteral("kind")].toString() == QLatin1String("box") &&
                     o[QStringLiteral("triangle")] == index(s.triangle) &&
                     (s.triangle >= 0 ? o[QStringLiteral("tetra")].isNull()
                                      : o[QStringLiteral("tetra")].toArray() == QJsonArray{s.tetra[0], s.tetra[1], s.tetra[2], s.tetra[3]}) &&
                     sameQuat(local[QStringLiteral("rotation")], s.local.rotation) && sameVec(local[QStringLiteral("translation")], s.local.translation) &&
                     sameVec(o[QStringLiteral("halfExtents")], s.halfExtents) && o[QStringLiteral("group")].toInteger() == s.group &&
                     o[QStringLiteral("mask")].toInteger() == s.mask,
                 s.name.c_str());
    }
    const QJsonArray bones = root.value(QStringLiteral("bones")).toArray();
    QCOMPARE(std::size_t(bones.size()), d.bones.size());
    for (std::size_t i = 0; i < d.bones.size(); ++i) {
        const rig::Bone& b = d.bones[i];
        const QJsonObject o = bones[qsizetype(i)].toObject();
        QVERIFY2(sameElement(o, i, b.id, b.name) && o[QStringLiteral("parent")] == index(b.parent) &&
                     sameMat(o[QStringLiteral("bindLocal")], b.bindLocal) && sameMat(o[QStringLiteral("bindWorld")], b.bindWorld) &&
                     sameMat(o[QStringLiteral("inverseBind")], b.inverseBind),
                 b.name.c_str());
    }
    const QJsonArray bindings = root.value(QStringLiteral("bindings")).toArray();
    QCOMPARE(std::size_t(bindings.size()), d.bindings.size());
    for (std::size_t i = 0; i < d.bindings.size(); ++i) {
        const rig::BoneBinding& b = d.bindings[i];
        const QJsonObject o = bindings[qsizetype(i)].toObject();
        const QJsonObject offset = o[QStringLiteral("offset")].toObject();
        QVERIFY2(sameElement(o, i, b.id, b.name) && o[QStringLiteral("bone")].toInteger() == b.bone &&
                     o[QStringLiteral("driver")].toString() == QLatin1String(b.driver == rig::BoneBinding::Driver::Triangle ? "triangle" : "stick") &&
                     o[QStringLiteral("driverIndex")].toInteger() == b.index &&
                     (b.hasOffset ? sameQuat(offset[QStringLiteral("rotation")], b.offset.rotation) &&
                                        sameVec(offset[QStringLiteral("translation")], b.offset.translation)
                                  : o[QStringLiteral("offset")].isNull()),
                 b.name.c_str());
    }
    const QJsonArray profiles = root.value(QStringLiteral("driveProfiles")).toArray();
    QCOMPARE(std::size_t(profiles.size()), d.driveProfiles.size());
    QVERIFY(!d.driveProfiles.empty());
    auto sameGains = [](const QJsonObject& o, const rig::DriveGains& g) {
        return f(o[QStringLiteral("motorFrequency")]) == g.motorFrequency && f(o[QStringLiteral("motorDamping")]) == g.motorDamping &&
               f(o[QStringLiteral("maxTorque")]) == g.maxTorque && f(o[QStringLiteral("pinFrequency")]) == g.pinFrequency &&
               f(o[QStringLiteral("pinDamping")]) == g.pinDamping && f(o[QStringLiteral("maxForce")]) == g.maxForce &&
               o[QStringLiteral("kinematic")].toBool() == g.kinematic;
    };
    for (std::size_t i = 0; i < d.driveProfiles.size(); ++i) {
        const rig::DriveProfile& p = d.driveProfiles[i];
        const QJsonObject o = profiles[qsizetype(i)].toObject();
        QVERIFY2(sameElement(o, i, p.id, p.name) && sameGains(o[QStringLiteral("defaults")].toObject(), p.defaults), p.name.c_str());
        const QJsonArray parts = o[QStringLiteral("parts")].toArray();
        QCOMPARE(std::size_t(parts.size()), p.parts.size());
        for (std::size_t k = 0; k < p.parts.size(); ++k) {
            const QJsonObject q = parts[qsizetype(k)].toObject();
            const bool triangle = p.parts[k].kind == rig::DrivePartKind::Triangle;
            QCOMPARE(q[triangle ? QStringLiteral("triangle") : QStringLiteral("stick")].toInteger(), qint64(p.parts[k].index));
            QVERIFY(!q.contains(triangle ? QStringLiteral("stick") : QStringLiteral("triangle")));
            QVERIFY(sameGains(q, p.parts[k].gains));
        }
    }
    const QJsonObject s = root.value(QStringLiteral("settings")).toObject();
    const rig::Settings& e = d.settings;
    QVERIFY(sameVec(s[QStringLiteral("gravity")], e.gravity));
    QCOMPARE(f(s[QStringLiteral("timeStep")]), e.timeStep);
    QCOMPARE(s[QStringLiteral("maxSubsteps")].toInteger(), qint64(e.maxSubsteps));
    QCOMPARE(s[QStringLiteral("substeps")].toInteger(), qint64(5));
    QCOMPARE(s[QStringLiteral("iterations")].toInteger(), qint64(3));
    QCOMPARE(f(s[QStringLiteral("damping")]), 1.5f);
    QCOMPARE(f(s[QStringLiteral("friction")]), e.friction);
    QCOMPARE(f(s[QStringLiteral("staticFrictionSpeed")]), 0.07f);
    QVERIFY(!s.contains(QStringLiteral("drag")) && !s.contains(QStringLiteral("staticFriction")));
    QCOMPARE(f(s[QStringLiteral("sleepVelocity")]), e.sleepVelocity);
    QCOMPARE(f(s[QStringLiteral("sleepTime")]), e.sleepTime);
    QCOMPARE(f(s[QStringLiteral("overRelaxation")]), e.overRelaxation);
    QCOMPARE(s[QStringLiteral("sqrtApproximation")].toBool(), e.sqrtApproximation);
    QCOMPARE(s[QStringLiteral("selfCollision")].toBool(), e.selfCollision);
    QCOMPARE(s[QStringLiteral("solver")].toString(), QStringLiteral("jacobi"));
}

// The same rig gives the same bytes; numbers are written short ("0.25", not "0.25000000000000000").
void TestJsonExporter::export_deterministicAndNamed()
{
    const rig::RigDescription d = runtime::makeHumanoid();
    QByteArray a, b;
    QString error;
    QVERIFY(editor::PluginHost::exportRigBytes(*mJson, d, {}, a, &error));
    QVERIFY(editor::PluginHost::exportRigBytes(*mJson, d, {}, b, &error));
    QCOMPARE(a, b);
    QVERIFY(!a.contains("0000000"));
    QVERIFY(a.contains("\"timeStep\": 0.016666668"));
}

// Every solver mode has its name; the settings' default, the direct solver, is "direct".
void TestJsonExporter::export_solverNames_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<QString>("name");
    QTest::newRow("Gauss-Seidel") << int(rig::SolverMode::GaussSeidel) << QStringLiteral("gaussSeidel");
    QTest::newRow("Jacobi") << int(rig::SolverMode::Jacobi) << QStringLiteral("jacobi");
    QTest::newRow("XPBD") << int(rig::SolverMode::Xpbd) << QStringLiteral("xpbd");
    QTest::newRow("direct") << int(rig::SolverMode::Direct) << QStringLiteral("direct");
}

void TestJsonExporter::export_solverNames()
{
    QFETCH(int, mode);
    QFETCH(QString, name);
    rig::RigDescription d = runtime::makeHumanoid();
    QCOMPARE(d.settings.solver, rig::SolverMode::Direct);
    d.settings.solver = rig::SolverMode(mode);
    QByteArray bytes;
    QString error;
    QVERIFY2(editor::PluginHost::exportRigBytes(*mJson, d, {}, bytes, &error), qPrintable(error));
    const QJsonObject s = QJsonDocument::fromJson(bytes).object().value(QStringLiteral("settings")).toObject();
    QCOMPARE(s.value(QStringLiteral("solver")).toString(), name);
}

QTEST_GUILESS_MAIN(TestJsonExporter)
#include "tst_jsonexporter.moc"
