#include "JsonExporter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <charconv>
#include <cstdlib>

namespace marionette::plugins {

namespace {

/// The float as the double its shortest decimal form denotes, so the document shows 0.1 rather than
/// 0.10000000149011612 and a reader parsing the number and rounding it to float gets `v` back.
double num(float v)
{
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf - 1, v);
    *r.ptr = '\0';
    return std::strtod(buf, nullptr);
}

QJsonArray vec(Vec3 v) { return {num(v.x), num(v.y), num(v.z)}; }
QJsonArray quat(Quat q) { return {num(q.x), num(q.y), num(q.z), num(q.w)}; }
QJsonArray mat(const Mat4& m)
{
    QJsonArray a;
    for (float v : m.m)
        a.append(num(v));
    return a;
}
QJsonValue index(std::int32_t i) { return i == rig::kNone ? QJsonValue() : QJsonValue(qint64(i)); }
QString str(const std::string& s) { return QString::fromStdString(s); }

/// Fields every element has: its position in its array, stable id (0 = none given) and name.
QJsonObject element(std::size_t i, rig::ElementId id, const std::string& name)
{
    return {{QStringLiteral("index"), qint64(i)}, {QStringLiteral("id"), qint64(id)}, {QStringLiteral("name"), str(name)}};
}

const char* stickKind(rig::StickKind k)
{
    switch (k) {
    case rig::StickKind::Rigid: return "rigid";
    case rig::StickKind::Range: return "range";
    case rig::StickKind::MinOnly: return "minOnly";
    case rig::StickKind::MaxOnly: return "maxOnly";
    }
    return "rigid";
}

const char* solver(rig::SolverMode m)
{
    switch (m) {
    case rig::SolverMode::GaussSeidel: return "gaussSeidel";
    case rig::SolverMode::Jacobi: return "jacobi";
    case rig::SolverMode::Xpbd: return "xpbd";
    case rig::SolverMode::Direct: return "direct";
    }
    return "gaussSeidel";
}

QJsonArray particles(const rig::RigDescription& d)
{
    QJsonArray out;
    for (std::size_t i = 0; i < d.particles.size(); ++i) {
        const rig::Particle& p = d.particles[i];
        QJsonObject o = element(i, p.id, p.name);
        o.insert(QStringLiteral("position"), vec(p.position));
        o.insert(QStringLiteral("mass"), num(p.mass));
        o.insert(QStringLiteral("inverseMass"), p.mass > 0.f ? num(1.f / p.mass) : 0.0);
        o.insert(QStringLiteral("radius"), num(p.radius));
        o.insert(QStringLiteral("group"), qint64(p.group));
        o.insert(QStringLiteral("mask"), qint64(p.mask));
        o.insert(QStringLiteral("bone"), index(p.bone));
        out.append(o);
    }
    return out;
}

QJsonArray sticks(const rig::RigDescription& d)
{
    QJsonArray out;
    for (std::size_t i = 0; i < d.sticks.size(); ++i) {
        const rig::Stick& s = d.sticks[i];
        QJsonObject o = element(i, s.id, s.name);
        const bool fromBind = s.restLength < 0.f;
        const float bind = length(d.particles[std::size_t(s.b)].position - d.particles[std::size_t(s.a)].position);
        o.insert(QStringLiteral("a"), qint64(s.a));
        o.insert(QStringLiteral("b"), qint64(s.b));
        o.insert(QStringLiteral("kind"), QLatin1String(stickKind(s.kind)));
        o.insert(QStringLiteral("restLength"), num(fromBind ? bind : s.restLength));
        o.insert(QStringLiteral("restLengthFromBind"), fromBind);
        o.insert(QStringLiteral("minLength"), num(s.minLength));
        o.insert(QStringLiteral("maxLength"), num(s.maxLength));
        o.insert(QStringLiteral("stiffness"), num(s.stiffness));
        o.insert(QStringLiteral("compliance"), num(s.compliance));
        o.insert(QStringLiteral("tearRatio"), num(s.tearRatio));
        o.insert(QStringLiteral("capsuleRadius"), num(s.capsuleRadius));
        o.insert(QStringLiteral("group"), qint64(s.group));
        o.insert(QStringLiteral("mask"), qint64(s.mask));
        out.append(o);
    }
    return out;
}

QJsonArray angles(const rig::RigDescription& d)
{
    QJsonArray out;
    for (std::size_t i = 0; i < d.angles.size(); ++i) {
        const rig::AngleConstraint& a = d.angles[i];
        QJsonObject o = element(i, a.id, a.name);
        o.insert(QStringLiteral("center"), qint64(a.center));
        o.insert(QStringLiteral("a"), qint64(a.a));
        o.insert(QStringLiteral("b"), qint64(a.b));
        o.insert(QStringLiteral("minAngle"), num(a.minAngle));
        o.insert(QStringLiteral("maxAngle"), num(a.maxAngle));
        o.insert(QStringLiteral("stiffness"), num(a.stiffness));
        o.insert(QStringLiteral("form"), a.form == rig::AngleConstraint::Form::DotProduct ? QStringLiteral("dotProduct")
                                                                                        : QStringLiteral("lawOfCosines"));
        out.append(o);
    }
    return out;
}

QJsonArray triangles(const rig::RigDescription& d)
{
    QJsonArray out;
    for (std::size_t i = 0; i < d.triangles.size(); ++i) {
        const rig::Triangle& t = d.triangles[i];
        QJsonObject o = element(i, t.id, t.name);
        o.insert(QStringLiteral("particles"), QJsonArray{qint64(t.p[0]), qint64(t.p[1]), qint64(t.p[2])});
        out.append(o);
    }
    return out;
}

QJsonArray angular(const rig::RigDescription& d)
{
    QJsonArray out;
    for (std::size_t i = 0; i < d.angular.size(); ++i) {
        const rig::AngularConstraint& a = d.angular[i];
        QJsonObject o = element(i, a.id, a.name);
        o.insert(QStringLiteral("triangleA"), qint64(a.triangleA));
        o.insert(QStringLiteral("triangleB"), qint64(a.triangleB));
        o.insert(QStringLiteral("limit"), a.limit == rig::AngularLimit::Cone ? QStringLiteral("cone") : QStringLiteral("swingTwist"));
        o.insert(QStringLiteral("coneAngle"), num(a.coneAngle));
        o.insert(QStringLiteral("twistAxis"), vec(a.twistAxis));
        o.insert(QStringLiteral("swingAxis1"), vec(a.swingAxis1));
        o.insert(QStringLiteral("twistMin"), num(a.twistMin));
        o.insert(QStringLiteral("twistMax"), num(a.twistMax));
        o.insert(QStringLiteral("swing1"), num(a.swing1));
        o.insert(QStringLiteral("swing2"), num(a.swing2));
        o.insert(QStringLiteral("stiffness"), num(a.stiffness));
        o.insert(QStringLiteral("damping"), num(a.damping));
        o.insert(QStringLiteral("staticFrictionSpeed"), num(a.staticFrictionSpeed));
        o.insert(QStringLiteral("restOrientation"), a.hasRestOrientation ? QJsonValue(quat(a.restOrientation)) : QJsonValue());
        out.append(o);
    }
    return out;
}

QJsonArray pins(const rig::RigDescription& d)
{
    QJsonArray out;
    for (std::size_t i = 0; i < d.pins.size(); ++i) {
        const rig::Pin& p = d.pins[i];
        QJsonObject o = element(i, p.id, p.name);
        o.insert(QStringLiteral("particle"), qint64(p.particle));
        o.insert(QStringLiteral("target"), vec(p.target));
        o.insert(QStringLiteral("stiffness"), num(p.stiffness));
        o.insert(QStringLiteral("kinematic"), p.kinematic);
        out.append(o);
    }
    return out;
}

QJsonArray shapes(const rig::RigDescription& d)
{
    QJsonArray out;
    for (std::size_t i = 0; i < d.shapes.size(); ++i) {
        const rig::Shape& s = d.shapes[i];
        QJsonObject o = element(i, s.id, s.name);
        o.insert(QStringLiteral("kind"), QStringLiteral("box"));
        o.insert(QStringLiteral("triangle"), index(s.triangle));
        o.insert(QStringLiteral("tetra"), s.triangle == rig::kNone
                                              ? QJsonValue(QJsonArray{qint64(s.tetra[0]), qint64(s.tetra[1]), qint64(s.tetra[2]), qint64(s.tetra[3])})
                                              : QJsonValue());
        o.insert(QStringLiteral("local"), QJsonObject{{QStringLiteral("rotation"), quat(s.local.rotation)},
                                                      {QStringLiteral("translation"), vec(s.local.translation)}});
        o.insert(QStringLiteral("halfExtents"), vec(s.halfExtents));
        o.insert(QStringLiteral("group"), qint64(s.group));
        o.insert(QStringLiteral("mask"), qint64(s.mask));
        out.append(o);
    }
    return out;
}

QJsonArray bones(const rig::RigDescription& d)
{
    QJsonArray out;
    for (std::size_t i = 0; i < d.bones.size(); ++i) {
        const rig::Bone& b = d.bones[i];
        QJsonObject o = element(i, b.id, b.name);
        o.insert(QStringLiteral("parent"), index(b.parent));
        o.insert(QStringLiteral("bindLocal"), mat(b.bindLocal));
        o.insert(QStringLiteral("bindWorld"), mat(b.bindWorld));
        o.insert(QStringLiteral("inverseBind"), mat(b.inverseBind));
        out.append(o);
    }
    return out;
}

QJsonArray bindings(const rig::RigDescription& d)
{
    QJsonArray out;
    for (std::size_t i = 0; i < d.bindings.size(); ++i) {
        const rig::BoneBinding& b = d.bindings[i];
        QJsonObject o = element(i, b.id, b.name);
        o.insert(QStringLiteral("bone"), qint64(b.bone));
        o.insert(QStringLiteral("driver"), b.driver == rig::BoneBinding::Driver::Triangle ? QStringLiteral("triangle") : QStringLiteral("stick"));
        o.insert(QStringLiteral("driverIndex"), qint64(b.index));
        o.insert(QStringLiteral("offset"), b.hasOffset ? QJsonValue(QJsonObject{{QStringLiteral("rotation"), quat(b.offset.rotation)},
                                                                                 {QStringLiteral("translation"), vec(b.offset.translation)}})
                                                       : QJsonValue());
        out.append(o);
    }
    return out;
}

QJsonObject gains(const rig::DriveGains& g)
{
    QJsonObject o;
    for (const rig::DriveGainField& f : rig::kDriveGainFields)
        o.insert(QLatin1String(f.name), num(g.*f.member));
    o.insert(QStringLiteral("kinematic"), g.kinematic);
    return o;
}

/// Profiles are named sets of per-part gains; a part names a triangle or a stick by index.
QJsonArray driveProfiles(const rig::RigDescription& d)
{
    QJsonArray out;
    for (std::size_t i = 0; i < d.driveProfiles.size(); ++i) {
        const rig::DriveProfile& p = d.driveProfiles[i];
        QJsonObject o = element(i, p.id, p.name);
        o.insert(QStringLiteral("defaults"), gains(p.defaults));
        QJsonArray parts;
        for (const rig::DrivePart& part : p.parts) {
            QJsonObject q = gains(part.gains);
            q.insert(part.kind == rig::DrivePartKind::Triangle ? QStringLiteral("triangle") : QStringLiteral("stick"),
                     qint64(part.index));
            parts.append(q);
        }
        o.insert(QStringLiteral("parts"), parts);
        out.append(o);
    }
    return out;
}

QJsonObject settings(const rig::Settings& s)
{
    return {{QStringLiteral("gravity"), vec(s.gravity)},
            {QStringLiteral("timeStep"), num(s.timeStep)},
            {QStringLiteral("maxSubsteps"), qint64(s.maxSubsteps)},
            {QStringLiteral("substeps"), qint64(s.substeps)},
            {QStringLiteral("iterations"), qint64(s.iterations)},
            {QStringLiteral("damping"), num(s.damping)},
            {QStringLiteral("friction"), num(s.friction)},
            {QStringLiteral("staticFrictionSpeed"), num(s.staticFrictionSpeed)},
            {QStringLiteral("sleepVelocity"), num(s.sleepVelocity)},
            {QStringLiteral("sleepTime"), num(s.sleepTime)},
            {QStringLiteral("overRelaxation"), num(s.overRelaxation)},
            {QStringLiteral("sqrtApproximation"), s.sqrtApproximation},
            {QStringLiteral("selfCollision"), s.selfCollision},
            {QStringLiteral("solver"), QLatin1String(solver(s.solver))}};
}

} // namespace

bool JsonExporter::write(const rig::RigDescription& d, const plugin::ExportContext& context, QByteArray& out,
                         QString&) const
{
    QJsonObject root{
        {QStringLiteral("format"), QStringLiteral("marionette.rig+json")},
        {QStringLiteral("version"), kSchemaVersion},
        {QStringLiteral("units"), QJsonObject{{QStringLiteral("length"), QStringLiteral("m")},
                                              {QStringLiteral("mass"), QStringLiteral("kg")},
                                              {QStringLiteral("time"), QStringLiteral("s")},
                                              {QStringLiteral("angle"), QStringLiteral("rad")},
                                              {QStringLiteral("up"), QStringLiteral("+y")},
                                              {QStringLiteral("handedness"), QStringLiteral("right")},
                                              {QStringLiteral("matrices"), QStringLiteral("column-major")},
                                              {QStringLiteral("quaternions"), QStringLiteral("xyzw")}}},
        {QStringLiteral("name"), str(d.name)},
        {QStringLiteral("particles"), particles(d)},
        {QStringLiteral("sticks"), sticks(d)},
        {QStringLiteral("angles"), angles(d)},
        {QStringLiteral("triangles"), triangles(d)},
        {QStringLiteral("angular"), angular(d)},
        {QStringLiteral("pins"), pins(d)},
        {QStringLiteral("shapes"), shapes(d)},
        {QStringLiteral("bones"), bones(d)},
        {QStringLiteral("bindings"), bindings(d)},
        {QStringLiteral("driveProfiles"), driveProfiles(d)},
        {QStringLiteral("settings"), settings(d.settings)},
    };
    if (!context.generator.isEmpty())
        root.insert(QStringLiteral("generator"), context.generator);
    out = QJsonDocument(root).toJson(QJsonDocument::Indented);
    return true;
}

} // namespace marionette::plugins
