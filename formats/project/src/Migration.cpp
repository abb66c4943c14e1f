// The chain of project format migrations. Each step is a JSON -> JSON rewrite of one version into the
// next; docs/project-format.md describes every version.
#include "marionette/project/Migration.h"

#include "ProjectInternal.h"

#include "marionette/rig/RigDescription.h"

#include <cmath>
#include <initializer_list>

namespace marionette::project {

namespace {

using detail::fail;
using detail::JsonError;
using detail::JsonPath;

/// Refuses keys a version 0 document never had: they would be dropped by the migration otherwise.
void checkKeys(const QJsonObject& o, const JsonPath& at, std::initializer_list<const char*> known)
{
    for (auto it = o.begin(); it != o.end(); ++it) {
        bool ok = false;
        for (const char* k : known)
            ok = ok || it.key() == QLatin1StringView(k);
        if (!ok)
            fail(at.withKey(it.key()), QStringLiteral("unknown field in a version 0 project"));
    }
}

QJsonArray optionalArray(const QJsonObject& o, const char* key, const JsonPath& at)
{
    const QJsonValue v = o.value(QLatin1StringView(key));
    return v.isUndefined() ? QJsonArray() : detail::toArray(v, at.key(key));
}

QJsonValue required(const QJsonObject& o, const char* key, const JsonPath& at)
{
    const QJsonValue v = o.value(QLatin1StringView(key));
    if (v.isUndefined())
        fail(at.key(key), QStringLiteral("missing required field"));
    return v;
}

/// A version 0 index into a list of `count` elements, as the id version 1 gives that element (index + 1).
qint64 indexToId(const QJsonValue& v, const JsonPath& at, qsizetype count, const char* plural)
{
    const std::int64_t i = detail::toInteger(v, at, 0, 0x7fffffff);
    if (i >= count)
        fail(at, QStringLiteral("index %1 out of range (%2 %3)").arg(i).arg(count).arg(QLatin1StringView(plural)));
    return i + 1;
}

/// Version 0: a hand-written shape from before ids. Elements refer to each other by array index, the
/// simulation settings sit flat at the top level, the mesh is a bare path and cone limits are in degrees.
/// Version 1 gives element i of each list the id i + 1, moves the elements and settings under "rig",
/// turns "cones" into angular constraints with radians, and records the import settings.
QString upgrade0To1(QJsonObject& doc)
{
    try {
        const JsonPath root;
        checkKeys(doc, root,
                  {"format", "version", "name", "mesh", "unitScale", "zUp", "gravity", "timeStep", "iterations", "drag",
                   "friction", "particles", "sticks", "triangles", "cones", "pins"});
        const QJsonArray particles = optionalArray(doc, "particles", root);
        const QJsonArray sticks = optionalArray(doc, "sticks", root);
        const QJsonArray triangles = optionalArray(doc, "triangles", root);
        const QJsonArray cones = optionalArray(doc, "cones", root);
        const QJsonArray pins = optionalArray(doc, "pins", root);
        const qsizetype np = particles.size(), nt = triangles.size();
        const JsonPath particlesAt = root.key("particles"), sticksAt = root.key("sticks");
        const JsonPath trianglesAt = root.key("triangles"), conesAt = root.key("cones"), pinsAt = root.key("pins");

        QJsonObject rig;
        QJsonArray out;
        for (qsizetype i = 0; i < particles.size(); ++i) {
            const JsonPath at = particlesAt.index(i);
            QJsonObject e = detail::toObject(particles[i], at);
            checkKeys(e, at, {"name", "position", "mass", "radius"});
            e.insert(QStringLiteral("id"), i + 1);
            out.append(e);
        }
        rig.insert(QStringLiteral("particles"), out);

        out = {};
        for (qsizetype i = 0; i < sticks.size(); ++i) {
            const JsonPath at = sticksAt.index(i);
            QJsonObject e = detail::toObject(sticks[i], at);
            checkKeys(e, at, {"name", "a", "b", "restLength", "minLength", "maxLength", "stiffness"});
            e.insert(QStringLiteral("id"), i + 1);
            e.insert(QStringLiteral("a"), indexToId(required(e, "a", at), at.key("a"), np, "particles"));
            e.insert(QStringLiteral("b"), indexToId(required(e, "b", at), at.key("b"), np, "particles"));
            const bool hasMin = e.contains(QLatin1StringView("minLength"));
            const bool hasMax = e.contains(QLatin1StringView("maxLength"));
            e.insert(QStringLiteral("kind"), hasMin && hasMax ? QStringLiteral("range")
                                             : hasMin         ? QStringLiteral("min-only")
                                             : hasMax         ? QStringLiteral("max-only")
                                                              : QStringLiteral("rigid"));
            out.append(e);
        }
        rig.insert(QStringLiteral("sticks"), out);

        out = {};
        for (qsizetype i = 0; i < triangles.size(); ++i) {
            const JsonPath at = trianglesAt.index(i);
            QJsonObject e = detail::toObject(triangles[i], at);
            checkKeys(e, at, {"name", "particles"});
            const JsonPath pAt = at.key("particles");
            const QJsonArray p = detail::toArray(required(e, "particles", at), pAt, 3);
            e.insert(QStringLiteral("id"), i + 1);
            e.insert(QStringLiteral("particles"), QJsonArray{indexToId(p[0], pAt.index(0), np, "particles"),
                                                             indexToId(p[1], pAt.index(1), np, "particles"),
                                                             indexToId(p[2], pAt.index(2), np, "particles")});
            out.append(e);
        }
        rig.insert(QStringLiteral("triangles"), out);

        out = {};
        for (qsizetype i = 0; i < cones.size(); ++i) {
            const JsonPath at = conesAt.index(i);
            const QJsonObject e = detail::toObject(cones[i], at);
            checkKeys(e, at, {"name", "triangleA", "triangleB", "maxAngleDegrees"});
            QJsonObject n;
            n.insert(QStringLiteral("id"), i + 1);
            if (e.contains(QLatin1StringView("name")))
                n.insert(QStringLiteral("name"), e.value(QLatin1StringView("name")));
            n.insert(QStringLiteral("triangleA"),
                     indexToId(required(e, "triangleA", at), at.key("triangleA"), nt, "triangles"));
            n.insert(QStringLiteral("triangleB"),
                     indexToId(required(e, "triangleB", at), at.key("triangleB"), nt, "triangles"));
            n.insert(QStringLiteral("limit"), QStringLiteral("cone"));
            if (e.contains(QLatin1StringView("maxAngleDegrees"))) {
                float degrees = 0.f;
                detail::convert(e.value(QLatin1StringView("maxAngleDegrees")), at.key("maxAngleDegrees"), degrees);
                // The float conversion the rig uses, so the result is the radians(float) value bit for bit.
                n.insert(QStringLiteral("coneAngle"), double(marionette::radians(degrees)));
            }
            out.append(n);
        }
        rig.insert(QStringLiteral("angular"), out);

        out = {};
        for (qsizetype i = 0; i < pins.size(); ++i) {
            const JsonPath at = pinsAt.index(i);
            QJsonObject e = detail::toObject(pins[i], at);
            checkKeys(e, at, {"name", "particle", "target"});
            e.insert(QStringLiteral("id"), i + 1);
            e.insert(QStringLiteral("particle"),
                     indexToId(required(e, "particle", at), at.key("particle"), np, "particles"));
            out.append(e);
        }
        rig.insert(QStringLiteral("pins"), out);

        QJsonObject settings;
        for (const char* key : {"gravity", "timeStep", "iterations", "drag", "friction"})
            if (doc.contains(QLatin1StringView(key)))
                settings.insert(QLatin1StringView(key), doc.value(QLatin1StringView(key)));
        rig.insert(QStringLiteral("settings"), settings);
        const QJsonValue name = doc.value(QLatin1StringView("name"));
        if (!name.isUndefined())
            rig.insert(QStringLiteral("name"), name);

        const QJsonValue scale = doc.value(QLatin1StringView("unitScale"));
        const QJsonValue zUp = doc.value(QLatin1StringView("zUp"));
        if (!scale.isUndefined() && !scale.isDouble())
            fail(root.key("unitScale"),
                 QStringLiteral("expected a number, found %1").arg(detail::describeValue(scale)));
        if (!zUp.isUndefined() && !zUp.isBool())
            fail(root.key("zUp"), QStringLiteral("expected true or false, found %1").arg(detail::describeValue(zUp)));
        QJsonObject importSettings;
        importSettings.insert(QStringLiteral("scaleToMetres"), scale.isUndefined() ? 1.0 : scale.toDouble());
        importSettings.insert(QStringLiteral("sourceUpAxis"), zUp.toBool() ? QStringLiteral("z") : QStringLiteral("y"));
        importSettings.insert(QStringLiteral("unitConversionApplied"), !scale.isUndefined() && scale.toDouble() != 1.0);
        importSettings.insert(QStringLiteral("axisConversionApplied"), zUp.toBool());
        importSettings.insert(QStringLiteral("conversionNote"), QStringLiteral("upgraded from project version 0"));

        QJsonObject mesh;
        const QJsonValue meshPath = doc.value(QLatin1StringView("mesh"));
        if (!meshPath.isUndefined())
            mesh.insert(QStringLiteral("path"), meshPath);

        QJsonObject next;
        next.insert(QStringLiteral("format"), doc.value(QLatin1StringView("format")));
        next.insert(QStringLiteral("version"), 1);
        if (!name.isUndefined())
            next.insert(QStringLiteral("name"), name);
        next.insert(QStringLiteral("sourceMesh"), mesh);
        next.insert(QStringLiteral("import"), importSettings);
        next.insert(QStringLiteral("rig"), rig);
        doc = next;
        return {};
    } catch (const JsonError& e) {
        return e.message;
    }
}

// ---- version 1 -> 2 -----------------------------------------------------------------------------------

/// What a version 1 build used for a key the document leaves out (its rig::Settings, AngularConstraint and
/// Pin defaults). They differ from version 2's, so the step applies them before converting.
constexpr float kV1TimeStep = 1.f / 60.f;
constexpr std::uint32_t kV1Iterations = 8;
constexpr float kV1Drag = 0.01f;
constexpr float kV1StaticFriction = 0.0005f;
constexpr float kV1PinStiffness = 1.f;
constexpr float kV1AngularFriction = 0.f; // dynamicFriction and staticFrictionAngle
/// Version 1's solver names; "direct" came with version 2.
constexpr detail::EnumName<rig::SolverMode> kV1SolverModes[] = {
    {"gauss-seidel", rig::SolverMode::GaussSeidel},
    {"jacobi", rig::SolverMode::Jacobi},
    {"xpbd", rig::SolverMode::Xpbd},
};

/// The value of `key` read as the version 1 reader read it (same conversion, same messages), or `fallback`.
template <class T> T valueOr(const QJsonObject& o, const char* key, const JsonPath& at, T fallback)
{
    const QJsonValue v = o.value(QLatin1StringView(key));
    if (!v.isUndefined())
        detail::convert(v, at.key(key), fallback);
    return fallback;
}

/// Refuses version 2 keys in a version 1 object: the step would overwrite them without a word.
void refuseNewerKeys(const QJsonObject& o, const JsonPath& at, std::initializer_list<const char*> keys)
{
    for (const char* k : keys)
        if (o.contains(QLatin1StringView(k)))
            fail(at.key(k), QStringLiteral("unknown field in a version 1 project"));
}

/// `rate` as the JSON number that reads back as the same float; `from` names the version 1 value it was
/// converted from, which a rate that is not finite is blamed on.
QJsonValue rateValue(float rate, float perStep, float timeStep, const JsonPath& from)
{
    if (!std::isfinite(rate)) {
        // Floats as written: the shortest text that reads back as them (both are finite, read from the file).
        const auto text = [&from](float f) { return detail::formatNumber(detail::floatValue(f, from).toDouble()); };
        fail(from, QStringLiteral("%1 per step at a timeStep of %2 s has no finite rate per second")
                       .arg(text(perStep), text(timeStep)));
    }
    return detail::floatValue(rate, from);
}

/// rig.settings: substeps 1, iterations, damping and staticFrictionSpeed from migrateLegacySettings() in
/// place of iterations, drag and staticFriction, and an explicit solver (absent meant Gauss–Seidel; version
/// 2's default is direct). Creates the object when the rig has none. Returns the version 1 values.
rig::LegacySettings upgradeSettings1To2(QJsonObject& rig, const JsonPath& rigAt)
{
    const JsonPath at = rigAt.key("settings");
    const QJsonValue value = rig.value(QLatin1StringView("settings"));
    QJsonObject s = value.isUndefined() ? QJsonObject() : detail::toObject(value, at);
    refuseNewerKeys(s, at, {"substeps", "damping", "staticFrictionSpeed"});
    const rig::LegacySettings legacy{valueOr(s, "timeStep", at, kV1TimeStep),
                                     valueOr(s, "iterations", at, kV1Iterations), valueOr(s, "drag", at, kV1Drag),
                                     valueOr(s, "staticFriction", at, kV1StaticFriction)};
    QJsonValue solver = s.value(QLatin1StringView("solver"));
    if (solver.isUndefined())
        solver = QStringLiteral("gauss-seidel");
    else
        detail::toEnum<rig::SolverMode>(solver, at.key("solver"), kV1SolverModes, "solver mode");
    rig::Settings migrated;
    rig::migrateLegacySettings(legacy, migrated);
    s.remove(QLatin1StringView("drag"));
    s.remove(QLatin1StringView("staticFriction"));
    s.insert(QStringLiteral("substeps"), qint64(migrated.substeps));
    s.insert(QStringLiteral("iterations"), qint64(migrated.iterations));
    s.insert(QStringLiteral("damping"), rateValue(migrated.damping, legacy.drag, legacy.timeStep, at.key("drag")));
    s.insert(QStringLiteral("staticFrictionSpeed"),
             rateValue(migrated.staticFrictionSpeed, legacy.staticFriction, legacy.timeStep, at.key("staticFriction")));
    s.insert(QStringLiteral("solver"), solver);
    rig.insert(QStringLiteral("settings"), s);
    return legacy;
}

/// Each rig.angles entry: version 1 had no bend damping, which is version 2's default (0), so nothing is
/// converted; a version 2 "damping" key is refused like the other version 2 keys.
void checkAngles1To2(const QJsonObject& rig, const JsonPath& rigAt)
{
    if (!rig.contains(QLatin1StringView("angles")))
        return;
    const JsonPath anglesAt = rigAt.key("angles");
    const QJsonArray angles = optionalArray(rig, "angles", rigAt);
    detail::checkElementCount(ElementKind::Angle, std::size_t(angles.size()), anglesAt);
    for (qsizetype i = 0; i < angles.size(); ++i) {
        const JsonPath at = anglesAt.index(i);
        refuseNewerKeys(detail::toObject(angles[i], at), at, {"damping"});
    }
}

/// Each rig.angular entry: damping and staticFrictionSpeed from migrateLegacyAngularFriction() in place of
/// dynamicFriction and staticFrictionAngle.
void upgradeAngular1To2(QJsonObject& rig, const JsonPath& rigAt, const rig::LegacySettings& legacy)
{
    if (!rig.contains(QLatin1StringView("angular")))
        return;
    const JsonPath angularAt = rigAt.key("angular");
    QJsonArray angular = optionalArray(rig, "angular", rigAt);
    detail::checkElementCount(ElementKind::Angular, std::size_t(angular.size()), angularAt);
    for (qsizetype i = 0; i < angular.size(); ++i) {
        const JsonPath at = angularAt.index(i);
        QJsonObject e = detail::toObject(angular[i], at);
        refuseNewerKeys(e, at, {"damping", "staticFrictionSpeed"});
        const float dynamicFriction = valueOr(e, "dynamicFriction", at, kV1AngularFriction);
        const float staticFrictionAngle = valueOr(e, "staticFrictionAngle", at, kV1AngularFriction);
        rig::AngularConstraint a;
        rig::migrateLegacyAngularFriction(dynamicFriction, staticFrictionAngle, legacy.timeStep, a);
        e.remove(QLatin1StringView("dynamicFriction"));
        e.remove(QLatin1StringView("staticFrictionAngle"));
        e.insert(QStringLiteral("damping"),
                 rateValue(a.damping, dynamicFriction, legacy.timeStep, at.key("dynamicFriction")));
        e.insert(QStringLiteral("staticFrictionSpeed"),
                 rateValue(a.staticFrictionSpeed, staticFrictionAngle, legacy.timeStep, at.key("staticFrictionAngle")));
        angular[i] = e;
    }
    rig.insert(QStringLiteral("angular"), angular);
}

/// Each rig.pins entry: stiffness per iteration becomes stiffness per 1/60 s (migrateLegacyPinStiffness()).
void upgradePins1To2(QJsonObject& rig, const JsonPath& rigAt, const rig::LegacySettings& legacy)
{
    if (!rig.contains(QLatin1StringView("pins")))
        return;
    const JsonPath pinsAt = rigAt.key("pins");
    QJsonArray pins = optionalArray(rig, "pins", rigAt);
    detail::checkElementCount(ElementKind::Pin, std::size_t(pins.size()), pinsAt);
    for (qsizetype i = 0; i < pins.size(); ++i) {
        const JsonPath at = pinsAt.index(i);
        QJsonObject e = detail::toObject(pins[i], at);
        const float stiffness = valueOr(e, "stiffness", at, kV1PinStiffness);
        const float migrated = rig::migrateLegacyPinStiffness(stiffness, legacy.iterations, legacy.timeStep);
        e.insert(QStringLiteral("stiffness"), detail::floatValue(migrated, at.key("stiffness"))); // in [1e-6, 1]
        pins[i] = e;
    }
    rig.insert(QStringLiteral("pins"), pins);
}

/// Version 1: one relaxation per fixed step, drag and frictions per step, a pin's stiffness per iteration.
/// Version 2 splits each step into substeps and states rates per second. The step converts with the rig
/// library's functions, as the .mrig reader does for a format 1.0 file, so both give the same floats. Keys
/// left out mean version 1's defaults; version 2 keys in a version 1 document are refused.
QString upgrade1To2(QJsonObject& doc)
{
    try {
        const JsonPath root;
        const JsonPath rigAt = root.key("rig");
        const QJsonValue rigValue = doc.value(QLatin1StringView("rig"));
        if (!rigValue.isUndefined()) { // else the version 2 reader reports the missing rig
            QJsonObject rig = detail::toObject(rigValue, rigAt);
            const rig::LegacySettings legacy = upgradeSettings1To2(rig, rigAt);
            checkAngles1To2(rig, rigAt);
            upgradeAngular1To2(rig, rigAt, legacy);
            upgradePins1To2(rig, rigAt, legacy);
            doc.insert(QStringLiteral("rig"), rig);
        }
        doc.insert(QStringLiteral("version"), 2);
        return {};
    } catch (const JsonError& e) {
        return e.message;
    }
}

constexpr MigrationStep kSteps[] = {&upgrade0To1, &upgrade1To2};
static_assert(std::size(kSteps) == std::size_t(kProjectVersion), "one migration step per older version");

} // namespace

std::span<const MigrationStep> migrationSteps()
{
    return kSteps;
}

QString migrateToCurrent(QJsonObject& document, int fromVersion)
{
    if (fromVersion < 0 || fromVersion > kProjectVersion)
        return QStringLiteral("$.version: no migration from version %1").arg(fromVersion);
    for (int v = fromVersion; v < kProjectVersion; ++v) {
        const QString error = kSteps[v](document);
        if (!error.isEmpty())
            return error;
    }
    return {};
}

} // namespace marionette::project
