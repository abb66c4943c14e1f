// The chain of project format migrations. Each step is a JSON -> JSON rewrite of one version into the
// next; docs/project-format.md describes every version.
#include "marionette/project/Migration.h"

#include "JsonSupport.h"

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

constexpr MigrationStep kSteps[] = {&upgrade0To1};
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
