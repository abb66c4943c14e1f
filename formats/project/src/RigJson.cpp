// The "rig" section of a project: every element of a RigDescription with its id, references by id.
#include "ProjectInternal.h"

#include "marionette/project/ProjectFile.h"

#include <array>
#include <limits>

namespace marionette::project::detail {

namespace {

using rig::kNone;

constexpr EnumName<rig::StickKind> kStickKinds[] = {
    {"rigid", rig::StickKind::Rigid},
    {"range", rig::StickKind::Range},
    {"min-only", rig::StickKind::MinOnly},
    {"max-only", rig::StickKind::MaxOnly},
};
constexpr EnumName<rig::AngleConstraint::Form> kAngleForms[] = {
    {"dot-product", rig::AngleConstraint::Form::DotProduct},
    {"law-of-cosines", rig::AngleConstraint::Form::LawOfCosines},
};
constexpr EnumName<rig::AngularLimit> kAngularLimits[] = {
    {"cone", rig::AngularLimit::Cone},
    {"swing-twist", rig::AngularLimit::SwingTwist},
};
constexpr EnumName<rig::ShapeKind> kShapeKinds[] = {{"box", rig::ShapeKind::Box}};
constexpr EnumName<rig::SolverMode> kSolverModes[] = {
    {"gauss-seidel", rig::SolverMode::GaussSeidel},
    {"jacobi", rig::SolverMode::Jacobi},
    {"xpbd", rig::SolverMode::Xpbd},
    {"direct", rig::SolverMode::Direct},
};

constexpr std::int64_t kMaxId = std::numeric_limits<rig::ElementId>::max();

// ---- writing -------------------------------------------------------------------------------------------

class RigWriter {
  public:
    RigWriter(const rig::RigDescription& r, const ElementIndex& index) : mRig(r), mIndex(index) {}

    /// The id of element `index` of `kind`; null for kNone when `nullable`.
    QJsonValue ref(ElementKind kind, std::int32_t index, const JsonPath& at, bool nullable = false) const
    {
        if (nullable && index == kNone)
            return QJsonValue(QJsonValue::Null);
        const std::size_t count = mIndex.count(kind);
        if (index < 0 || std::size_t(index) >= count)
            fail(at, QStringLiteral("%1 index %2 out of range (%3 %4)")
                         .arg(QLatin1StringView(describe(kind)))
                         .arg(index)
                         .arg(count)
                         .arg(QLatin1StringView(sectionName(kind))));
        return QJsonValue(qint64(idAt(mRig, kind, std::size_t(index))));
    }
    void ref(ObjectWriter& w, const char* key, ElementKind kind, std::int32_t index, bool nullable = false) const
    {
        w.set(key, ref(kind, index, w.path().key(key), nullable));
    }

    void write(ObjectWriter& w, const rig::Particle& p) const
    {
        w.put("position", p.position);
        w.put("mass", p.mass);
        w.put("radius", p.radius);
        w.put("group", p.group);
        w.put("mask", p.mask);
        ref(w, "bone", ElementKind::Bone, p.bone, true);
    }
    void write(ObjectWriter& w, const rig::Stick& s) const
    {
        ref(w, "a", ElementKind::Particle, s.a);
        ref(w, "b", ElementKind::Particle, s.b);
        w.set("kind", enumValue<rig::StickKind>(s.kind, kStickKinds, w.path().key("kind"), "stick kind"));
        w.put("restLength", s.restLength);
        w.put("minLength", s.minLength);
        w.put("maxLength", s.maxLength);
        w.put("stiffness", s.stiffness);
        w.put("compliance", s.compliance);
        w.put("tearRatio", s.tearRatio);
        w.put("capsuleRadius", s.capsuleRadius);
        w.put("group", s.group);
        w.put("mask", s.mask);
    }
    void write(ObjectWriter& w, const rig::AngleConstraint& a) const
    {
        ref(w, "center", ElementKind::Particle, a.center);
        ref(w, "a", ElementKind::Particle, a.a);
        ref(w, "b", ElementKind::Particle, a.b);
        w.put("minAngle", a.minAngle);
        w.put("maxAngle", a.maxAngle);
        w.put("stiffness", a.stiffness);
        w.set("form", enumValue<rig::AngleConstraint::Form>(a.form, kAngleForms, w.path().key("form"), "angle form"));
        w.put("damping", a.damping);
    }
    void write(ObjectWriter& w, const rig::Triangle& t) const
    {
        const JsonPath at = w.path().key("particles");
        w.set("particles", QJsonArray{ref(ElementKind::Particle, t.p[0], at.index(0)),
                                      ref(ElementKind::Particle, t.p[1], at.index(1)),
                                      ref(ElementKind::Particle, t.p[2], at.index(2))});
    }
    void write(ObjectWriter& w, const rig::AngularConstraint& a) const
    {
        ref(w, "triangleA", ElementKind::Triangle, a.triangleA);
        ref(w, "triangleB", ElementKind::Triangle, a.triangleB);
        w.set("limit", enumValue<rig::AngularLimit>(a.limit, kAngularLimits, w.path().key("limit"), "angular limit"));
        w.put("coneAngle", a.coneAngle);
        w.put("twistAxis", a.twistAxis);
        w.put("swingAxis1", a.swingAxis1);
        w.put("twistMin", a.twistMin);
        w.put("twistMax", a.twistMax);
        w.put("swing1", a.swing1);
        w.put("swing2", a.swing2);
        w.put("stiffness", a.stiffness);
        w.put("damping", a.damping);
        w.put("staticFrictionSpeed", a.staticFrictionSpeed);
        w.put("hasRestOrientation", a.hasRestOrientation);
        w.put("restOrientation", a.restOrientation);
    }
    void write(ObjectWriter& w, const rig::Pin& p) const
    {
        ref(w, "particle", ElementKind::Particle, p.particle);
        w.put("target", p.target);
        w.put("stiffness", p.stiffness);
        w.put("kinematic", p.kinematic);
    }
    void write(ObjectWriter& w, const rig::Shape& s) const
    {
        w.set("kind", enumValue<rig::ShapeKind>(s.kind, kShapeKinds, w.path().key("kind"), "shape kind"));
        ref(w, "triangle", ElementKind::Triangle, s.triangle, true);
        const JsonPath at = w.path().key("tetra");
        QJsonArray tetra;
        for (int k = 0; k < 4; ++k)
            tetra.append(ref(ElementKind::Particle, s.tetra[k], at.index(k), true));
        w.set("tetra", tetra);
        w.put("local", s.local);
        w.put("halfExtents", s.halfExtents);
        w.put("group", s.group);
        w.put("mask", s.mask);
    }
    void write(ObjectWriter& w, const rig::Bone& b) const
    {
        ref(w, "parent", ElementKind::Bone, b.parent, true);
        w.put("bindLocal", b.bindLocal);
        w.put("bindWorld", b.bindWorld);
        w.put("inverseBind", b.inverseBind);
    }
    void write(ObjectWriter& w, const rig::BoneBinding& b) const
    {
        ref(w, "bone", ElementKind::Bone, b.bone);
        if (b.driver == rig::BoneBinding::Driver::Triangle)
            ref(w, "triangle", ElementKind::Triangle, b.index);
        else if (b.driver == rig::BoneBinding::Driver::Stick)
            ref(w, "stick", ElementKind::Stick, b.index);
        else
            fail(w.path(), QStringLiteral("unknown driver %1 cannot be saved").arg(int(b.driver)));
        w.put("hasOffset", b.hasOffset);
        w.put("offset", b.offset);
    }

    /// `rig.driveProfiles`: {id, name, defaults: {gains}, parts: [{"triangle" or "stick": id, gains}]}.
    QJsonArray writeDriveProfiles(const JsonPath& at) const
    {
        QJsonArray array;
        for (std::size_t i = 0; i < mRig.driveProfiles.size(); ++i) {
            const rig::DriveProfile& p = mRig.driveProfiles[i];
            const JsonPath profile = at.index(qsizetype(i));
            ObjectWriter w(profile);
            w.put("id", p.id);
            w.putString("name", p.name);
            const JsonPath defaultsAt = profile.key("defaults");
            ObjectWriter defaults(defaultsAt);
            writeGains(defaults, p.defaults);
            w.set("defaults", defaults.object());
            QJsonArray parts;
            const JsonPath partsAt = profile.key("parts");
            for (std::size_t k = 0; k < p.parts.size(); ++k) {
                const rig::DrivePart& part = p.parts[k];
                ObjectWriter e(partsAt.index(qsizetype(k)));
                if (part.kind == rig::DrivePartKind::Triangle)
                    ref(e, "triangle", ElementKind::Triangle, part.index);
                else if (part.kind == rig::DrivePartKind::Stick)
                    ref(e, "stick", ElementKind::Stick, part.index);
                else
                    fail(e.path(), QStringLiteral("unknown part kind %1 cannot be saved").arg(int(part.kind)));
                writeGains(e, part.gains);
                parts.append(e.object());
            }
            w.set("parts", parts);
            array.append(w.object());
        }
        return array;
    }

  private:
    static void writeGains(ObjectWriter& w, const rig::DriveGains& g)
    {
        for (const rig::DriveGainField& f : rig::kDriveGainFields)
            w.put(f.name, g.*f.member);
        w.put("kinematic", g.kinematic);
    }

    const rig::RigDescription& mRig;
    const ElementIndex& mIndex;
};

QJsonObject writeSettings(const rig::Settings& s, const JsonPath& at)
{
    ObjectWriter w(at);
    w.put("gravity", s.gravity);
    w.put("timeStep", s.timeStep);
    w.put("maxSubsteps", s.maxSubsteps);
    w.put("substeps", s.substeps);
    w.put("iterations", s.iterations);
    w.put("damping", s.damping);
    w.put("friction", s.friction);
    w.put("staticFrictionSpeed", s.staticFrictionSpeed);
    w.put("sleepVelocity", s.sleepVelocity);
    w.put("sleepTime", s.sleepTime);
    w.put("overRelaxation", s.overRelaxation);
    w.put("sqrtApproximation", s.sqrtApproximation);
    w.put("selfCollision", s.selfCollision);
    w.set("solver", enumValue<rig::SolverMode>(s.solver, kSolverModes, at.key("solver"), "solver mode"));
    return w.object();
}

// ---- reading -------------------------------------------------------------------------------------------

class RigReader {
  public:
    explicit RigReader(const ElementIndex& index) : mIndex(index) {}

    /// Index of the element whose id is `v`.
    std::int32_t resolve(const QJsonValue& v, const JsonPath& at, ElementKind kind) const
    {
        const auto id = static_cast<rig::ElementId>(toInteger(v, at, 1, kMaxId));
        const std::int32_t i = mIndex.find(kind, id);
        if (i == kNone)
            fail(at, QStringLiteral("no %1 with id %2").arg(QLatin1StringView(describe(kind))).arg(id));
        return i;
    }
    /// A required reference, or with `nullable` an optional one where absent or null is kNone.
    std::int32_t ref(ObjectReader& o, const char* key, ElementKind kind, bool nullable = false) const
    {
        const QJsonValue v = nullable ? o.take(key) : o.require(key);
        if (nullable && (v.isUndefined() || v.isNull()))
            return kNone;
        return resolve(v, o.path().key(key), kind);
    }

    void read(ObjectReader& o, rig::Particle& p) const
    {
        o.required("position", p.position);
        o.optional("mass", p.mass);
        o.optional("radius", p.radius);
        o.optional("group", p.group);
        o.optional("mask", p.mask);
        p.bone = ref(o, "bone", ElementKind::Bone, true);
    }
    void read(ObjectReader& o, rig::Stick& s) const
    {
        s.a = ref(o, "a", ElementKind::Particle);
        s.b = ref(o, "b", ElementKind::Particle);
        optionalEnum<rig::StickKind>(o, "kind", s.kind, kStickKinds, "stick kind");
        o.optional("restLength", s.restLength);
        o.optional("minLength", s.minLength);
        o.optional("maxLength", s.maxLength);
        o.optional("stiffness", s.stiffness);
        o.optional("compliance", s.compliance);
        o.optional("tearRatio", s.tearRatio);
        o.optional("capsuleRadius", s.capsuleRadius);
        o.optional("group", s.group);
        o.optional("mask", s.mask);
    }
    void read(ObjectReader& o, rig::AngleConstraint& a) const
    {
        a.center = ref(o, "center", ElementKind::Particle);
        a.a = ref(o, "a", ElementKind::Particle);
        a.b = ref(o, "b", ElementKind::Particle);
        o.optional("minAngle", a.minAngle);
        o.optional("maxAngle", a.maxAngle);
        o.optional("stiffness", a.stiffness);
        optionalEnum<rig::AngleConstraint::Form>(o, "form", a.form, kAngleForms, "angle form");
        o.optional("damping", a.damping); // version 2; absent (as in every version 1 file) is 0, no damping
    }
    void read(ObjectReader& o, rig::Triangle& t) const
    {
        const JsonPath at = o.path().key("particles");
        const QJsonArray p = toArray(o.require("particles"), at, 3);
        for (int k = 0; k < 3; ++k)
            t.p[k] = resolve(p[k], at.index(k), ElementKind::Particle);
    }
    void read(ObjectReader& o, rig::AngularConstraint& a) const
    {
        a.triangleA = ref(o, "triangleA", ElementKind::Triangle);
        a.triangleB = ref(o, "triangleB", ElementKind::Triangle);
        optionalEnum<rig::AngularLimit>(o, "limit", a.limit, kAngularLimits, "angular limit");
        o.optional("coneAngle", a.coneAngle);
        o.optional("twistAxis", a.twistAxis);
        o.optional("swingAxis1", a.swingAxis1);
        o.optional("twistMin", a.twistMin);
        o.optional("twistMax", a.twistMax);
        o.optional("swing1", a.swing1);
        o.optional("swing2", a.swing2);
        o.optional("stiffness", a.stiffness);
        o.optional("damping", a.damping);
        o.optional("staticFrictionSpeed", a.staticFrictionSpeed);
        o.optional("hasRestOrientation", a.hasRestOrientation);
        o.optional("restOrientation", a.restOrientation);
    }
    void read(ObjectReader& o, rig::Pin& p) const
    {
        p.particle = ref(o, "particle", ElementKind::Particle);
        o.required("target", p.target);
        o.optional("stiffness", p.stiffness);
        o.optional("kinematic", p.kinematic);
    }
    void read(ObjectReader& o, rig::Shape& s) const
    {
        optionalEnum<rig::ShapeKind>(o, "kind", s.kind, kShapeKinds, "shape kind");
        s.triangle = ref(o, "triangle", ElementKind::Triangle, true);
        const QJsonValue tetra = o.take("tetra");
        if (!tetra.isUndefined() && !tetra.isNull()) {
            const JsonPath at = o.path().key("tetra");
            const QJsonArray a = toArray(tetra, at, 4);
            for (int k = 0; k < 4; ++k)
                s.tetra[k] = a[k].isNull() ? kNone : resolve(a[k], at.index(k), ElementKind::Particle);
        }
        o.optional("local", s.local);
        o.optional("halfExtents", s.halfExtents);
        o.optional("group", s.group);
        o.optional("mask", s.mask);
    }
    void read(ObjectReader& o, rig::Bone& b) const
    {
        b.parent = ref(o, "parent", ElementKind::Bone, true);
        o.optional("bindLocal", b.bindLocal);
        o.optional("bindWorld", b.bindWorld);
        o.optional("inverseBind", b.inverseBind);
    }
    void read(ObjectReader& o, rig::BoneBinding& b) const
    {
        b.bone = ref(o, "bone", ElementKind::Bone);
        const bool triangle = o.has("triangle"), stick = o.has("stick");
        if (triangle == stick)
            fail(o.path(), triangle ? QStringLiteral("has both \"triangle\" and \"stick\"; a bone has one driver")
                                    : QStringLiteral("missing its driver: a \"triangle\" or a \"stick\" field"));
        b.driver = triangle ? rig::BoneBinding::Driver::Triangle : rig::BoneBinding::Driver::Stick;
        b.index = triangle ? ref(o, "triangle", ElementKind::Triangle) : ref(o, "stick", ElementKind::Stick);
        o.optional("hasOffset", b.hasOffset);
        o.optional("offset", b.offset);
    }

    /// `rig.driveProfiles` (optional; absent, as in every project saved before profiles, is none). Missing
    /// gains take rig::DriveGains' defaults; a part names its triangle or stick by id.
    void readDriveProfiles(const QJsonValue& v, const JsonPath& at, std::vector<rig::DriveProfile>& out) const
    {
        const QJsonArray array = toArray(v, at);
        if (array.size() > kMaxDriveProfiles)
            fail(at, QStringLiteral("%1 drive profiles, more than %2").arg(array.size()).arg(kMaxDriveProfiles));
        out.resize(std::size_t(array.size()));
        for (qsizetype i = 0; i < array.size(); ++i) {
            const JsonPath profile = at.index(i);
            ObjectReader o(array[i], profile);
            rig::DriveProfile& p = out[std::size_t(i)];
            const QJsonValue id = o.take("id");
            if (!id.isUndefined())
                p.id = static_cast<rig::ElementId>(toInteger(id, profile.key("id"), 0, kMaxId));
            for (qsizetype j = 0; j < i && p.id != 0; ++j)
                if (out[std::size_t(j)].id == p.id)
                    fail(profile.key("id"), QStringLiteral("id %1 used by driveProfiles[%2] too").arg(p.id).arg(j));
            o.optional("name", p.name);
            const QJsonValue defaults = o.take("defaults");
            if (!defaults.isUndefined()) {
                const JsonPath defaultsAt = profile.key("defaults");
                ObjectReader d(defaults, defaultsAt);
                readGains(d, p.defaults);
                d.finish();
            }
            const QJsonValue parts = o.take("parts");
            if (!parts.isUndefined()) {
                const JsonPath partsAt = profile.key("parts");
                const QJsonArray a = toArray(parts, partsAt);
                const std::size_t most = mIndex.count(ElementKind::Triangle) + mIndex.count(ElementKind::Stick);
                if (std::size_t(a.size()) > most) // each part at most once: more cannot be valid, and bounds the work
                    fail(partsAt, QStringLiteral("%1 parts, but the rig has only %2 triangles and sticks")
                                      .arg(a.size())
                                      .arg(most));
                p.parts.resize(std::size_t(a.size()));
                for (qsizetype k = 0; k < a.size(); ++k) {
                    const JsonPath partAt = partsAt.index(k);
                    ObjectReader e(a[k], partAt);
                    rig::DrivePart& part = p.parts[std::size_t(k)];
                    const bool triangle = e.has("triangle"), stick = e.has("stick");
                    if (triangle == stick)
                        fail(e.path(), triangle ? QStringLiteral("has both \"triangle\" and \"stick\"; a part is one of them")
                                                : QStringLiteral("missing its part: a \"triangle\" or a \"stick\" field"));
                    part.kind = triangle ? rig::DrivePartKind::Triangle : rig::DrivePartKind::Stick;
                    part.index = triangle ? ref(e, "triangle", ElementKind::Triangle) : ref(e, "stick", ElementKind::Stick);
                    readGains(e, part.gains);
                    e.finish();
                }
            }
            o.finish();
        }
    }

  private:
    static constexpr qsizetype kMaxDriveProfiles = 10000;

    static void readGains(ObjectReader& o, rig::DriveGains& g)
    {
        for (const rig::DriveGainField& f : rig::kDriveGainFields)
            o.optional(f.name, g.*f.member);
        o.optional("kinematic", g.kinematic);
    }

    const ElementIndex& mIndex;
};

void readSettings(const QJsonValue& v, const JsonPath& at, rig::Settings& s)
{
    ObjectReader o(v, at);
    o.optional("gravity", s.gravity);
    o.optional("timeStep", s.timeStep);
    o.optional("maxSubsteps", s.maxSubsteps);
    o.optional("substeps", s.substeps);
    o.optional("iterations", s.iterations);
    o.optional("damping", s.damping);
    o.optional("friction", s.friction);
    o.optional("staticFrictionSpeed", s.staticFrictionSpeed);
    o.optional("sleepVelocity", s.sleepVelocity);
    o.optional("sleepTime", s.sleepTime);
    o.optional("overRelaxation", s.overRelaxation);
    o.optional("sqrtApproximation", s.sqrtApproximation);
    o.optional("selfCollision", s.selfCollision);
    optionalEnum<rig::SolverMode>(o, "solver", s.solver, kSolverModes, "solver mode");
    o.finish();
}

} // namespace

QJsonObject writeRig(const rig::RigDescription& rig, const JsonPath& at)
{
    const ElementIndex index(rig);
    const RigWriter writer(rig, index);
    ObjectWriter w(at);
    w.putString("name", rig.name);
    forEachSection(rig, [&](ElementKind kind, const auto& elements) {
        const JsonPath section = at.key(sectionName(kind));
        QJsonArray array;
        for (std::size_t i = 0; i < elements.size(); ++i) {
            ObjectWriter e(section.index(qsizetype(i)));
            e.put("id", elements[i].id);
            e.putString("name", elements[i].name);
            writer.write(e, elements[i]);
            array.append(e.object());
        }
        w.set(sectionName(kind), array);
    });
    if (!rig.driveProfiles.empty()) // absent when there are none: older projects rewrite unchanged
        w.set("driveProfiles", writer.writeDriveProfiles(at.key("driveProfiles")));
    w.set("settings", writeSettings(rig.settings, at.key("settings")));
    return w.object();
}

void readRig(const QJsonValue& value, const JsonPath& at, rig::RigDescription& out)
{
    ObjectReader o(value, at);
    rig::RigDescription r;
    o.optional("name", r.name);
    // Pass 1: every element's id, so that references can be resolved whatever the order of the sections.
    std::array<QJsonArray, kElementKindCount> arrays;
    forEachSection(r, [&](ElementKind kind, auto& elements) {
        const char* key = sectionName(kind);
        const QJsonValue v = o.take(key);
        if (v.isUndefined())
            return;
        const JsonPath section = at.key(key);
        QJsonArray& array = arrays[std::size_t(kind)];
        array = toArray(v, section);
        checkElementCount(kind, std::size_t(array.size()), section);
        elements.resize(std::size_t(array.size()));
        for (qsizetype i = 0; i < array.size(); ++i) {
            const JsonPath element = section.index(i);
            const QJsonObject e = toObject(array[i], element);
            const QJsonValue id = e.value(QLatin1StringView("id"));
            if (id.isUndefined())
                fail(element.key("id"), QStringLiteral("missing required field"));
            elements[std::size_t(i)].id = static_cast<rig::ElementId>(toInteger(id, element.key("id"), 1, kMaxId));
        }
    });
    const QJsonValue settings = o.take("settings");
    const QJsonValue driveProfiles = o.take("driveProfiles");
    o.finish();
    const QString ids = checkElementIds(r);
    if (!ids.isEmpty())
        throw JsonError{ids};
    // Pass 2: the fields, references resolved into indices.
    const ElementIndex index(r);
    const RigReader reader(index);
    forEachSection(r, [&](ElementKind kind, auto& elements) {
        const JsonPath section = at.key(sectionName(kind));
        const QJsonArray& array = arrays[std::size_t(kind)];
        for (std::size_t i = 0; i < elements.size(); ++i) {
            ObjectReader e(array[qsizetype(i)], section.index(qsizetype(i)));
            e.take("id");
            e.optional("name", elements[i].name);
            reader.read(e, elements[i]);
            e.finish();
        }
    });
    if (!driveProfiles.isUndefined())
        reader.readDriveProfiles(driveProfiles, at.key("driveProfiles"), r.driveProfiles);
    if (!settings.isUndefined())
        readSettings(settings, at.key("settings"), r.settings);
    out = std::move(r);
}

} // namespace marionette::project::detail
