#include "marionette/editor/document/Properties.h"

#include <cmath>
#include <functional>
#include <map>

namespace marionette::editor {

namespace {

using Rig = rig::RigDescription;
constexpr double kDegrees = 180.0 / 3.14159265358979323846;

struct Accessor {
    PropertyDef def;
    std::function<QVariant(const Rig&, std::size_t)> get;
    std::function<void(Rig&, std::size_t, const QVariant&)> set; // empty for read-only
};

PropertyDef def(QString key, QString label, PropertyType type, QString unit = {}, double lo = -1e9,
    double hi = 1e9, QString tip = {})
{
    PropertyDef d;
    d.key = std::move(key);
    d.label = std::move(label);
    d.type = type;
    d.unit = std::move(unit);
    d.minimum = lo;
    d.maximum = hi;
    d.toolTip = std::move(tip);
    return d;
}

/// `d` whose minimum stands for `means` (PropertyDef::minimumMeans).
PropertyDef meaning(PropertyDef d, const char* means)
{
    d.minimumMeans = QString::fromUtf8(means);
    return d;
}

PropertyDef angleDef(QString key, QString label, double lo, double hi, QString tip = {})
{
    PropertyDef d = def(std::move(key), std::move(label), PropertyType::Float, QStringLiteral("°"), lo, hi,
        std::move(tip));
    d.displayScale = kDegrees;
    return d;
}

// An angular speed, stored in rad/s and shown in °/s like the angles.
PropertyDef angularSpeedDef(QString key, QString label, double lo, double hi, QString tip = {})
{
    PropertyDef d = def(std::move(key), std::move(label), PropertyType::Float, QStringLiteral("°/s"), lo, hi,
        std::move(tip));
    d.displayScale = kDegrees;
    return d;
}

PropertyDef enumDef(QString key, QString label, QStringList names, QString tip = {})
{
    PropertyDef d = def(std::move(key), std::move(label), PropertyType::Enum, {}, 0, double(names.size() - 1),
        std::move(tip));
    d.enumNames = std::move(names);
    return d;
}

PropertyDef readOnly(PropertyDef d)
{
    d.readOnly = true;
    return d;
}

PropertyDef exclusive(PropertyDef d)
{
    d.minimumExclusive = true;
    return d;
}

QString str(const std::string& s) { return QString::fromStdString(s); }
std::string std8(const QVariant& v) { return v.toString().toStdString(); }
float f32(const QVariant& v) { return float(v.toDouble()); }

QVariant elementName(const Rig& rig, ElementKind kind, std::int32_t index)
{
    if (index < 0 || std::size_t(index) >= countOf(rig, kind))
        return QStringLiteral("(none)");
    const std::string& name = nameAt(rig, kind, std::size_t(index));
    return name.empty() ? QStringLiteral("#%1").arg(index) : str(name);
}

// A rig field as the panel's QVariant (stored units), and back. Enums travel as int.
template <typename T>
QVariant fieldToVariant(const T& v)
{
    if constexpr (std::is_same_v<T, float>) return double(v);
    else if constexpr (std::is_same_v<T, std::uint32_t>) return qulonglong(v);
    else if constexpr (std::is_same_v<T, bool>) return v;
    else if constexpr (std::is_same_v<T, std::string>) return str(v);
    else if constexpr (std::is_same_v<T, Vec3>) return toVariant(v);
    else return int(v);
}

template <typename T>
void assignField(T& v, const QVariant& value)
{
    if constexpr (std::is_same_v<T, float>) v = f32(value);
    else if constexpr (std::is_same_v<T, std::uint32_t>) v = std::uint32_t(value.toULongLong());
    else if constexpr (std::is_same_v<T, bool>) v = value.toBool();
    else if constexpr (std::is_same_v<T, std::string>) v = std8(value);
    else if constexpr (std::is_same_v<T, Vec3>) v = vec3FromVariant(value).value_or(v);
    else v = T(value.toInt());
}

// Builds accessors for a member of the element vector `V` of the rig.
template <auto Vector>
struct For {
    template <auto Member>
    static Accessor value(PropertyDef d)
    {
        Accessor a{std::move(d), {}, {}};
        a.get = [](const Rig& rig, std::size_t i) { return fieldToVariant((rig.*Vector)[i].*Member); };
        a.set = [](Rig& rig, std::size_t i, const QVariant& value) { assignField((rig.*Vector)[i].*Member, value); };
        return a;
    }
    static Accessor link(PropertyDef d, ElementKind target, std::function<std::int32_t(const Rig&, std::size_t)> index)
    {
        d.type = PropertyType::Element;
        d.readOnly = true;
        return {std::move(d), [target, index](const Rig& rig, std::size_t i) { return elementName(rig, target, index(rig, i)); }, {}};
    }
};

const PropertyDef kName = def(QStringLiteral("name"), QStringLiteral("Name"), PropertyType::String);
const QString kGroupTip = QStringLiteral("Collision group bits of this element");
const QString kMaskTip = QStringLiteral("Groups this element collides with");
const QString kStiffnessTip = QStringLiteral("Fraction of the correction applied per iteration, (0, 1]");

std::vector<Accessor> particleAccessors()
{
    using F = For<&Rig::particles>;
    using P = rig::Particle;
    return {
        F::value<&P::name>(kName),
        F::value<&P::position>(def("position", "Position", PropertyType::Vec3, "m")),
        F::value<&P::mass>(def("mass", "Mass", PropertyType::Float, "kg", 0, 1e6, "0 makes the particle kinematic (pinned)")),
        F::value<&P::radius>(def("radius", "Radius", PropertyType::Float, "m", 0, 100, "Collision sphere radius")),
        F::value<&P::group>(def("group", "Group", PropertyType::UInt, {}, 0, 4294967295.0, kGroupTip)),
        F::value<&P::mask>(def("mask", "Mask", PropertyType::UInt, {}, 0, 4294967295.0, kMaskTip)),
        F::link(def("bone", "Bone", PropertyType::Element), ElementKind::Bone, [](const Rig& r, std::size_t i) { return r.particles[i].bone; }),
    };
}

std::vector<Accessor> stickAccessors()
{
    using F = For<&Rig::sticks>;
    using S = rig::Stick;
    return {
        F::value<&S::name>(kName),
        F::value<&S::kind>(enumDef("kind", "Kind", {"Rigid", "Min/max range", "Min only", "Max only"})),
        F::link(def("a", "Particle A", PropertyType::Element), ElementKind::Particle, [](const Rig& r, std::size_t i) { return r.sticks[i].a; }),
        F::link(def("b", "Particle B", PropertyType::Element), ElementKind::Particle, [](const Rig& r, std::size_t i) { return r.sticks[i].b; }),
        F::value<&S::restLength>(meaning(def("restLength", "Rest length", PropertyType::Float, "m", -1, 1e4, "Rigid sticks; below 0 = the bind distance"), "bind distance")),
        F::value<&S::minLength>(def("minLength", "Min length", PropertyType::Float, "m", 0, 1e4)),
        F::value<&S::maxLength>(def("maxLength", "Max length", PropertyType::Float, "m", 0, 1e4)),
        F::value<&S::stiffness>(exclusive(def("stiffness", "Stiffness", PropertyType::Float, {}, 0, 1, kStiffnessTip))),
        F::value<&S::compliance>(def("compliance", "Compliance", PropertyType::Float, "m/N", 0, 1e6, "XPBD solver only")),
        F::value<&S::tearRatio>(def("tearRatio", "Tear ratio", PropertyType::Float, {}, 0, 1e4, "0 = never tears")),
        F::value<&S::capsuleRadius>(def("capsuleRadius", "Capsule radius", PropertyType::Float, "m", 0, 100, "0 = no collision capsule")),
        F::value<&S::group>(def("group", "Group", PropertyType::UInt, {}, 0, 4294967295.0, kGroupTip)),
        F::value<&S::mask>(def("mask", "Mask", PropertyType::UInt, {}, 0, 4294967295.0, kMaskTip)),
    };
}

std::vector<Accessor> angleAccessors()
{
    using F = For<&Rig::angles>;
    using A = rig::AngleConstraint;
    return {
        F::value<&A::name>(kName),
        F::link(def("center", "Centre", PropertyType::Element), ElementKind::Particle, [](const Rig& r, std::size_t i) { return r.angles[i].center; }),
        F::link(def("a", "Particle A", PropertyType::Element), ElementKind::Particle, [](const Rig& r, std::size_t i) { return r.angles[i].a; }),
        F::link(def("b", "Particle B", PropertyType::Element), ElementKind::Particle, [](const Rig& r, std::size_t i) { return r.angles[i].b; }),
        F::value<&A::minAngle>(angleDef("minAngle", "Min angle", 0, kPi)),
        F::value<&A::maxAngle>(angleDef("maxAngle", "Max angle", 0, kPi)),
        F::value<&A::stiffness>(exclusive(def("stiffness", "Stiffness", PropertyType::Float, {}, 0, 1, kStiffnessTip))),
        F::value<&A::form>(enumDef("form", "Form", {"Dot product", "Law of cosines"})),
        F::value<&A::damping>(def("damping", "Damping", PropertyType::Float, "1/s", 0, 1000,
            "Particle B's swing relative to the link from the centre to A decays as e^(−damping·t); 0 = none")),
    };
}

std::vector<Accessor> triangleAccessors()
{
    using F = For<&Rig::triangles>;
    return {
        F::value<&rig::Triangle::name>(kName),
        F::link(def("p0", "Origin", PropertyType::Element), ElementKind::Particle, [](const Rig& r, std::size_t i) { return r.triangles[i].p[0]; }),
        F::link(def("p1", "Up", PropertyType::Element), ElementKind::Particle, [](const Rig& r, std::size_t i) { return r.triangles[i].p[1]; }),
        F::link(def("p2", "Side", PropertyType::Element), ElementKind::Particle, [](const Rig& r, std::size_t i) { return r.triangles[i].p[2]; }),
    };
}

std::vector<Accessor> angularAccessors()
{
    using F = For<&Rig::angular>;
    using C = rig::AngularConstraint;
    return {
        F::value<&C::name>(kName),
        F::link(def("triangleA", "Triangle A", PropertyType::Element), ElementKind::Triangle, [](const Rig& r, std::size_t i) { return r.angular[i].triangleA; }),
        F::link(def("triangleB", "Triangle B", PropertyType::Element), ElementKind::Triangle, [](const Rig& r, std::size_t i) { return r.angular[i].triangleB; }),
        F::value<&C::limit>(enumDef("limit", "Limit", {"Cone", "Swing/twist"})),
        F::value<&C::coneAngle>(angleDef("coneAngle", "Cone angle", 0, kPi, "Cone: largest deviation from the rest orientation")),
        F::value<&C::twistMin>(angleDef("twistMin", "Twist min", -kPi, kPi)),
        F::value<&C::twistMax>(angleDef("twistMax", "Twist max", -kPi, kPi)),
        F::value<&C::swing1>(angleDef("swing1", "Swing 1", 0, kPi, "Swing limit about the first swing axis")),
        F::value<&C::swing2>(angleDef("swing2", "Swing 2", 0, kPi, "Swing limit about the second swing axis")),
        F::value<&C::twistAxis>(def("twistAxis", "Twist axis", PropertyType::Vec3, {}, -1, 1, "Unit axis in B's triangle frame")),
        F::value<&C::swingAxis1>(def("swingAxis1", "Swing axis", PropertyType::Vec3, {}, -1, 1, "Unit axis in B's frame, perpendicular to the twist axis")),
        F::value<&C::stiffness>(exclusive(def("stiffness", "Stiffness", PropertyType::Float, {}, 0, 1, kStiffnessTip))),
        F::value<&C::damping>(def("damping", "Damping", PropertyType::Float, "1/s", 0, 1000,
            "The joint's relative spin decays as e^(−damping·t); 0 = none")),
        F::value<&C::staticFrictionSpeed>(angularSpeedDef("staticFrictionSpeed", "Static friction", 0, 100,
            "A joint turning slower than this is held still")),
    };
}

std::vector<Accessor> pinAccessors()
{
    using F = For<&Rig::pins>;
    using P = rig::Pin;
    return {
        F::value<&P::name>(kName),
        F::link(def("particle", "Particle", PropertyType::Element), ElementKind::Particle, [](const Rig& r, std::size_t i) { return r.pins[i].particle; }),
        F::value<&P::target>(def("target", "Target", PropertyType::Vec3, "m")),
        F::value<&P::stiffness>(exclusive(def("stiffness", "Stiffness", PropertyType::Float, {}, 0, 1,
            "Fraction of the way to the target per 1/60 s, (0, 1]; 1 = all the way (non-kinematic pins)"))),
        F::value<&P::kinematic>(def("kinematic", "Kinematic", PropertyType::Bool)),
    };
}

std::vector<Accessor> shapeAccessors()
{
    using F = For<&Rig::shapes>;
    using S = rig::Shape;
    Accessor centre{def("centre", "Centre", PropertyType::Vec3, "m", -1e6, 1e6, "In the owner's bind frame"),
        [](const Rig& r, std::size_t i) { return toVariant(r.shapes[i].local.translation); },
        [](Rig& r, std::size_t i, const QVariant& v) {
            r.shapes[i].local.translation = vec3FromVariant(v).value_or(r.shapes[i].local.translation);
        }};
    return {
        F::value<&S::name>(kName),
        F::link(def("triangle", "Triangle", PropertyType::Element), ElementKind::Triangle, [](const Rig& r, std::size_t i) { return r.shapes[i].triangle; }),
        std::move(centre),
        F::value<&S::halfExtents>(exclusive(def("halfExtents", "Half extents", PropertyType::Vec3, "m", 0, 100))),
        F::value<&S::group>(def("group", "Group", PropertyType::UInt, {}, 0, 4294967295.0, kGroupTip)),
        F::value<&S::mask>(def("mask", "Mask", PropertyType::UInt, {}, 0, 4294967295.0, kMaskTip)),
    };
}

std::vector<Accessor> boneAccessors()
{
    using F = For<&Rig::bones>;
    Accessor head{readOnly(def("head", "Head", PropertyType::Vec3, "m")),
        [](const Rig& r, std::size_t i) {
            const Mat4& m = r.bones[i].bindWorld;
            return toVariant(Vec3{m(0, 3), m(1, 3), m(2, 3)});
        },
        {}};
    return {
        F::value<&rig::Bone::name>(readOnly(kName)),
        F::link(def("parent", "Parent", PropertyType::Element), ElementKind::Bone, [](const Rig& r, std::size_t i) { return r.bones[i].parent; }),
        std::move(head),
    };
}

std::vector<Accessor> bindingAccessors()
{
    using F = For<&Rig::bindings>;
    Accessor driver{readOnly(def("driver", "Driver", PropertyType::Element)),
        [](const Rig& r, std::size_t i) {
            const auto& b = r.bindings[i];
            const bool tri = b.driver == rig::BoneBinding::Driver::Triangle;
            return QVariant(QStringLiteral("%1 %2").arg(tri ? QStringLiteral("triangle") : QStringLiteral("stick"),
                elementName(r, tri ? ElementKind::Triangle : ElementKind::Stick, b.index).toString()));
        },
        {}};
    return {
        F::value<&rig::BoneBinding::name>(kName),
        F::link(def("bone", "Bone", PropertyType::Element), ElementKind::Bone, [](const Rig& r, std::size_t i) { return r.bindings[i].bone; }),
        std::move(driver),
    };
}

struct SettingAccessor {
    PropertyDef def;
    std::function<QVariant(const rig::Settings&)> get;
    std::function<void(rig::Settings&, const QVariant&)> set;
};

template <auto Member>
SettingAccessor setting(PropertyDef d)
{
    return {std::move(d),
        [](const rig::Settings& s) { return fieldToVariant(s.*Member); },
        [](rig::Settings& s, const QVariant& value) { assignField(s.*Member, value); }};
}

const std::vector<SettingAccessor>& settingAccessors()
{
    using S = rig::Settings;
    static const std::vector<SettingAccessor> table = {
        setting<&S::gravity>(def("gravity", "Gravity", PropertyType::Vec3, "m/s²", -1e4, 1e4)),
        setting<&S::timeStep>(exclusive(def("timeStep", "Time step", PropertyType::Float, "s", 0, 0.1,
            "The world's fixed step"))),
        setting<&S::maxSubsteps>(def("maxSubsteps", "Max steps per frame", PropertyType::UInt, {}, 1, 64,
            "Fixed steps one advance may take; the rest of a stall is dropped")),
        setting<&S::substeps>(def("substeps", "Substeps", PropertyType::UInt, {}, 1, 64,
            "Solver substeps each fixed step is split into")),
        setting<&S::iterations>(def("iterations", "Iterations per substep", PropertyType::UInt, {}, 1, 64,
            "Per substep: Newton steps at most (Direct) or relaxation sweeps")),
        setting<&S::solver>(enumDef("solver", "Solver", {"Gauss-Seidel", "Jacobi", "XPBD", "Direct"},
            "Direct: sticks, limits and contacts projected together by a direct solve each substep")),
        setting<&S::damping>(def("damping", "Damping", PropertyType::Float, "1/s", 0, 100,
            "Velocities decay as e^(−damping·t) (air drag)")),
        setting<&S::friction>(def("friction", "Friction", PropertyType::Float, {}, 0, 1e4,
            "Coulomb friction coefficient μ against static geometry and other ragdolls")),
        setting<&S::staticFrictionSpeed>(def("staticFrictionSpeed", "Static friction speed", PropertyType::Float,
            "m/s", 0, 100, "A contact sliding slower than this sticks")),
        setting<&S::sleepVelocity>(def("sleepVelocity", "Sleep velocity", PropertyType::Float, "m/s", 0, 100)),
        setting<&S::sleepTime>(def("sleepTime", "Sleep time", PropertyType::Float, "s", 0, 3600, "0 disables sleep")),
        setting<&S::overRelaxation>(def("overRelaxation", "Over-relaxation", PropertyType::Float, {}, 1, 1.99,
            "Gauss–Seidel SOR factor / Jacobi averaging factor")),
        setting<&S::sqrtApproximation>(def("sqrtApproximation", "Approximate sqrt", PropertyType::Bool)),
        setting<&S::selfCollision>(def("selfCollision", "Self-collision", PropertyType::Bool)),
    };
    return table;
}

const std::vector<Accessor>& accessors(ElementKind kind)
{
    static const std::map<ElementKind, std::vector<Accessor>> table = {
        {ElementKind::Particle, particleAccessors()}, {ElementKind::Stick, stickAccessors()},
        {ElementKind::Angle, angleAccessors()}, {ElementKind::Triangle, triangleAccessors()},
        {ElementKind::Angular, angularAccessors()}, {ElementKind::Pin, pinAccessors()},
        {ElementKind::Shape, shapeAccessors()}, {ElementKind::Bone, boneAccessors()},
        {ElementKind::Binding, bindingAccessors()},
    };
    return table.at(kind);
}

template <typename A>
std::vector<PropertyDef> defsOf(const std::vector<A>& list)
{
    std::vector<PropertyDef> out;
    for (const A& a : list)
        out.push_back(a.def);
    return out;
}

QString formatBound(const PropertyDef& d, double stored)
{
    QString text = QString::number(stored * d.displayScale, 'g', 6);
    if (!d.unit.isEmpty())
        text += (d.unit == QStringLiteral("°") ? QString() : QStringLiteral(" ")) + d.unit;
    return text;
}

QString checkNumber(const PropertyDef& d, double v)
{
    if (!std::isfinite(v))
        return QStringLiteral("%1: must be a finite number").arg(d.label);
    if (d.minimumExclusive ? v <= d.minimum : v < d.minimum)
        return QStringLiteral("%1: must be %2 %3").arg(d.label,
            d.minimumExclusive ? QStringLiteral("greater than") : QStringLiteral("at least"), formatBound(d, d.minimum));
    if (v > d.maximum)
        return QStringLiteral("%1: must be at most %2").arg(d.label, formatBound(d, d.maximum));
    return {};
}

// The value as a whole number (any numeric or numeric-text variant), or nullopt when it is not one.
std::optional<double> wholeNumber(const QVariant& value)
{
    bool ok = false;
    const double v = value.toDouble(&ok);
    if (!ok || !std::isfinite(v) || v != std::floor(v))
        return std::nullopt;
    return v;
}

} // namespace

QVariant toVariant(Vec3 v) { return QVariantList{double(v.x), double(v.y), double(v.z)}; }

std::optional<Vec3> vec3FromVariant(const QVariant& value)
{
    const QVariantList list = value.toList();
    if (list.size() != 3)
        return std::nullopt;
    bool okX = false, okY = false, okZ = false;
    const Vec3 v{float(list[0].toDouble(&okX)), float(list[1].toDouble(&okY)), float(list[2].toDouble(&okZ))};
    if (!okX || !okY || !okZ)
        return std::nullopt;
    return v;
}

const std::vector<PropertyDef>& propertiesOf(ElementKind kind)
{
    static const std::map<ElementKind, std::vector<PropertyDef>> defs = [] {
        std::map<ElementKind, std::vector<PropertyDef>> out;
        for (int k = 0; k < project::kElementKindCount; ++k)
            out[ElementKind(k)] = defsOf(accessors(ElementKind(k)));
        return out;
    }();
    return defs.at(kind);
}

const std::vector<PropertyDef>& settingsProperties()
{
    static const std::vector<PropertyDef> defs = defsOf(settingAccessors());
    return defs;
}

const PropertyDef* findProperty(const std::vector<PropertyDef>& defs, const QString& key)
{
    for (const PropertyDef& d : defs)
        if (d.key == key)
            return &d;
    return nullptr;
}

QVariant readProperty(const rig::RigDescription& rig, ElementKind kind, std::size_t index, const QString& key)
{
    if (index >= countOf(rig, kind))
        return {};
    for (const Accessor& a : accessors(kind))
        if (a.def.key == key)
            return a.get(rig, index);
    return {};
}

QVariant readSetting(const rig::Settings& settings, const QString& key)
{
    for (const SettingAccessor& a : settingAccessors())
        if (a.def.key == key)
            return a.get(settings);
    return {};
}

QString checkValue(const PropertyDef& d, const QVariant& value)
{
    if (d.readOnly)
        return QStringLiteral("%1: read-only").arg(d.label);
    switch (d.type) {
    case PropertyType::Float: {
        bool ok = false;
        const double v = value.toDouble(&ok);
        return ok ? checkNumber(d, v) : QStringLiteral("%1: not a number").arg(d.label);
    }
    case PropertyType::UInt: {
        // Through double: toULongLong() would pass NaN as 0, 2.5 as 2 and -1 as 2^64 - 1.
        const std::optional<double> v = wholeNumber(value);
        return v ? checkNumber(d, *v) : QStringLiteral("%1: not a whole number").arg(d.label);
    }
    case PropertyType::Enum: {
        const std::optional<double> v = wholeNumber(value);
        return v && *v >= 0 && *v < double(d.enumNames.size()) ? QString() : QStringLiteral("%1: no such choice").arg(d.label);
    }
    case PropertyType::Vec3: {
        const auto v = vec3FromVariant(value);
        if (!v)
            return QStringLiteral("%1: needs three numbers").arg(d.label);
        for (float c : {v->x, v->y, v->z})
            if (QString e = checkNumber(d, double(c)); !e.isEmpty())
                return e;
        return {};
    }
    case PropertyType::Bool: return value.canConvert<bool>() ? QString() : QStringLiteral("%1: not a boolean").arg(d.label);
    case PropertyType::String: {
        const QString s = value.toString();
        return s.size() <= 256 ? QString() : QStringLiteral("%1: at most 256 characters").arg(d.label);
    }
    case PropertyType::Element: break;
    }
    return QStringLiteral("%1: read-only").arg(d.label);
}

bool writeProperty(rig::RigDescription& rig, ElementKind kind, std::size_t index, const QString& key,
    const QVariant& value)
{
    if (index >= countOf(rig, kind))
        return false;
    for (const Accessor& a : accessors(kind))
        if (a.def.key == key) {
            if (!a.set || !checkValue(a.def, value).isEmpty())
                return false;
            a.set(rig, index, value);
            return true;
        }
    return false;
}

bool writeSetting(rig::Settings& settings, const QString& key, const QVariant& value)
{
    for (const SettingAccessor& a : settingAccessors())
        if (a.def.key == key) {
            if (!checkValue(a.def, value).isEmpty())
                return false;
            a.set(settings, value);
            return true;
        }
    return false;
}

} // namespace marionette::editor
