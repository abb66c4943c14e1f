// Field-by-field dump of a rig::RigDescription for exact comparisons in the editor/core suites: one line per
// field, "sticks[3].minLength = 0.9 [3f666666]", floats with their bit pattern so that two dumps are equal
// exactly when the rigs are equal bit for bit. Comparing two dumps with QCOMPARE names the first field that
// differs. Header-only; each suite is one translation unit.
#pragma once

#include "marionette/rig/RigDescription.h"

#include <QString>
#include <QStringList>

#include <bit>
#include <cstdint>
#include <string>

namespace marionette::test {

class RigDumper {
  public:
    QStringList lines;

    void field(const QString& path, float v)
    {
        lines << QStringLiteral("%1 = %2 [%3]").arg(path).arg(double(v), 0, 'g', 9).arg(std::bit_cast<std::uint32_t>(v), 8, 16, QLatin1Char('0'));
    }
    void field(const QString& path, std::int32_t v) { lines << QStringLiteral("%1 = %2").arg(path).arg(v); }
    void field(const QString& path, std::uint32_t v) { lines << QStringLiteral("%1 = %2").arg(path).arg(v); }
    void field(const QString& path, bool v) { lines << QStringLiteral("%1 = %2").arg(path, v ? QStringLiteral("true") : QStringLiteral("false")); }
    void field(const QString& path, const std::string& v) { lines << QStringLiteral("%1 = '%2'").arg(path, QString::fromStdString(v)); }
    template <typename E>
        requires std::is_enum_v<E>
    void field(const QString& path, E v) { field(path, std::int32_t(v)); }
    void field(const QString& path, Vec3 v)
    {
        field(path + QStringLiteral(".x"), v.x);
        field(path + QStringLiteral(".y"), v.y);
        field(path + QStringLiteral(".z"), v.z);
    }
    void field(const QString& path, Quat q)
    {
        field(path + QStringLiteral(".x"), q.x);
        field(path + QStringLiteral(".y"), q.y);
        field(path + QStringLiteral(".z"), q.z);
        field(path + QStringLiteral(".w"), q.w);
    }
    void field(const QString& path, const Transform& t)
    {
        field(path + QStringLiteral(".rotation"), t.rotation);
        field(path + QStringLiteral(".translation"), t.translation);
    }
    void field(const QString& path, const Mat4& m)
    {
        for (int k = 0; k < 16; ++k)
            field(path + QStringLiteral("[%1]").arg(k), m.m[k]);
    }

    void rig(const rig::RigDescription& r)
    {
        field(QStringLiteral("name"), r.name);
        for (std::size_t i = 0; i < r.particles.size(); ++i) {
            const auto& p = r.particles[i];
            const QString at = QStringLiteral("particles[%1].").arg(i);
            field(at + "name", p.name); field(at + "id", p.id); field(at + "position", p.position);
            field(at + "mass", p.mass); field(at + "radius", p.radius); field(at + "group", p.group);
            field(at + "mask", p.mask); field(at + "bone", p.bone);
        }
        for (std::size_t i = 0; i < r.sticks.size(); ++i) {
            const auto& s = r.sticks[i];
            const QString at = QStringLiteral("sticks[%1].").arg(i);
            field(at + "name", s.name); field(at + "id", s.id); field(at + "a", s.a); field(at + "b", s.b);
            field(at + "kind", s.kind); field(at + "restLength", s.restLength); field(at + "minLength", s.minLength);
            field(at + "maxLength", s.maxLength); field(at + "stiffness", s.stiffness);
            field(at + "compliance", s.compliance); field(at + "tearRatio", s.tearRatio);
            field(at + "capsuleRadius", s.capsuleRadius); field(at + "group", s.group); field(at + "mask", s.mask);
        }
        for (std::size_t i = 0; i < r.angles.size(); ++i) {
            const auto& c = r.angles[i];
            const QString at = QStringLiteral("angles[%1].").arg(i);
            field(at + "name", c.name); field(at + "id", c.id); field(at + "center", c.center);
            field(at + "a", c.a); field(at + "b", c.b); field(at + "minAngle", c.minAngle);
            field(at + "maxAngle", c.maxAngle); field(at + "stiffness", c.stiffness); field(at + "form", c.form);
            field(at + "damping", c.damping);
        }
        for (std::size_t i = 0; i < r.triangles.size(); ++i) {
            const auto& t = r.triangles[i];
            const QString at = QStringLiteral("triangles[%1].").arg(i);
            field(at + "name", t.name); field(at + "id", t.id);
            field(at + "p0", t.p[0]); field(at + "p1", t.p[1]); field(at + "p2", t.p[2]);
        }
        for (std::size_t i = 0; i < r.angular.size(); ++i) {
            const auto& c = r.angular[i];
            const QString at = QStringLiteral("angular[%1].").arg(i);
            field(at + "name", c.name); field(at + "id", c.id); field(at + "triangleA", c.triangleA);
            field(at + "triangleB", c.triangleB); field(at + "limit", c.limit); field(at + "coneAngle", c.coneAngle);
            field(at + "twistAxis", c.twistAxis); field(at + "swingAxis1", c.swingAxis1);
            field(at + "twistMin", c.twistMin); field(at + "twistMax", c.twistMax); field(at + "swing1", c.swing1);
            field(at + "swing2", c.swing2); field(at + "stiffness", c.stiffness);
            field(at + "damping", c.damping); field(at + "staticFrictionSpeed", c.staticFrictionSpeed);
            field(at + "hasRestOrientation", c.hasRestOrientation); field(at + "restOrientation", c.restOrientation);
        }
        for (std::size_t i = 0; i < r.pins.size(); ++i) {
            const auto& p = r.pins[i];
            const QString at = QStringLiteral("pins[%1].").arg(i);
            field(at + "name", p.name); field(at + "id", p.id); field(at + "particle", p.particle);
            field(at + "target", p.target); field(at + "stiffness", p.stiffness); field(at + "kinematic", p.kinematic);
        }
        for (std::size_t i = 0; i < r.shapes.size(); ++i) {
            const auto& s = r.shapes[i];
            const QString at = QStringLiteral("shapes[%1].").arg(i);
            field(at + "name", s.name); field(at + "id", s.id); field(at + "kind", s.kind);
            field(at + "triangle", s.triangle);
            for (int k = 0; k < 4; ++k)
                field(at + QStringLiteral("tetra[%1]").arg(k), s.tetra[k]);
            field(at + "local", s.local); field(at + "halfExtents", s.halfExtents);
            field(at + "group", s.group); field(at + "mask", s.mask);
        }
        for (std::size_t i = 0; i < r.bones.size(); ++i) {
            const auto& b = r.bones[i];
            const QString at = QStringLiteral("bones[%1].").arg(i);
            field(at + "name", b.name); field(at + "id", b.id); field(at + "parent", b.parent);
            field(at + "bindLocal", b.bindLocal); field(at + "bindWorld", b.bindWorld);
            field(at + "inverseBind", b.inverseBind);
        }
        for (std::size_t i = 0; i < r.bindings.size(); ++i) {
            const auto& b = r.bindings[i];
            const QString at = QStringLiteral("bindings[%1].").arg(i);
            field(at + "name", b.name); field(at + "id", b.id); field(at + "bone", b.bone);
            field(at + "driver", b.driver); field(at + "index", b.index); field(at + "hasOffset", b.hasOffset);
            field(at + "offset", b.offset);
        }
        const auto gains = [&](const QString& at, const rig::DriveGains& g) {
            for (const rig::DriveGainField& f : rig::kDriveGainFields)
                field(at + QLatin1StringView(f.name), g.*f.member);
            field(at + "kinematic", g.kinematic);
        };
        for (std::size_t i = 0; i < r.driveProfiles.size(); ++i) {
            const auto& p = r.driveProfiles[i];
            const QString at = QStringLiteral("driveProfiles[%1].").arg(i);
            field(at + "name", p.name); field(at + "id", p.id);
            gains(at + "defaults.", p.defaults);
            for (std::size_t k = 0; k < p.parts.size(); ++k) {
                const QString part = at + QStringLiteral("parts[%1].").arg(k);
                field(part + "kind", p.parts[k].kind); field(part + "index", p.parts[k].index);
                gains(part, p.parts[k].gains);
            }
        }
        const auto& s = r.settings;
        field("settings.gravity", s.gravity); field("settings.timeStep", s.timeStep);
        field("settings.maxSubsteps", s.maxSubsteps); field("settings.substeps", s.substeps);
        field("settings.iterations", s.iterations); field("settings.damping", s.damping);
        field("settings.friction", s.friction); field("settings.staticFrictionSpeed", s.staticFrictionSpeed);
        field("settings.sleepVelocity", s.sleepVelocity);
        field("settings.sleepTime", s.sleepTime); field("settings.overRelaxation", s.overRelaxation);
        field("settings.sqrtApproximation", s.sqrtApproximation); field("settings.selfCollision", s.selfCollision);
        field("settings.solver", s.solver);
        // Element counts last, so a dump of a rig with an extra element differs even past the shared prefix.
        lines << QStringLiteral("counts = %1 %2 %3 %4 %5 %6 %7 %8 %9")
                     .arg(r.particles.size()).arg(r.sticks.size()).arg(r.angles.size()).arg(r.triangles.size())
                     .arg(r.angular.size()).arg(r.pins.size()).arg(r.shapes.size()).arg(r.bones.size())
                     .arg(r.bindings.size());
    }
};

/// Every field of `rig`, one line each (see the file comment).
inline QStringList dumpRig(const rig::RigDescription& rig)
{
    RigDumper d;
    d.rig(rig);
    return d.lines;
}

/// The lines of `after` that are not in `before` (the fields an edit changed), in order.
inline QStringList changedFields(const QStringList& before, const QStringList& after)
{
    QStringList out;
    for (qsizetype i = 0; i < after.size(); ++i)
        if (i >= before.size() || before[i] != after[i])
            out << after[i];
    return out;
}

} // namespace marionette::test
