// Record validation of a .mrig file (FORMAT.md §6 and §7 step 7): every string reference, index, float,
// sign, enum and boolean, degenerate triangles and tetrahedra, and the bone order. Messages name the chunk,
// the record and the field: `STCK[12].particleB: index 40 out of range (31 particles)`.
#include "MrigInternal.h"

#include "marionette/Math.h"
#include "marionette/rig/Validation.h"

#include <cmath>

namespace marionette::rig::detail {

using namespace mrig;

namespace {

constexpr std::size_t kSingle = std::size_t(-1);

/// Where a check happens: chunk tag and record index, and where its first failure goes.
struct Ctx {
    const char* tag;
    std::size_t index;
    std::string* error;

    Msg where(const char* field) const
    {
        Msg m;
        m << tag;
        if (index != kSingle)
            m << '[' << index << ']';
        if (field)
            m << '.' << field;
        return m;
    }
};

// Each check is an inline test whose failure path (building the message) is out of line, so the
// loops over valid records stay tight.
#if defined(__GNUC__) || defined(__clang__)
#define MRIG_COLD [[gnu::cold, gnu::noinline]]
#else
#define MRIG_COLD
#endif

MRIG_COLD bool failNotFinite(const Ctx& c, const char* field, const char* component, float v)
{
    Msg m = c.where(field);
    if (component)
        m << component;
    return fail(c.error, m << ": not a finite number (" << v << ')');
}

MRIG_COLD bool failNotFiniteAt(const Ctx& c, const char* field, std::size_t k, float v)
{
    return fail(c.error, c.where(field) << '[' << k << "]: not a finite number (" << v << ')');
}

MRIG_COLD bool failNegative(const Ctx& c, const char* field, float v)
{
    return fail(c.error, c.where(field) << ": " << v << " is negative");
}

MRIG_COLD bool failIndex(const Ctx& c, const char* field, std::int32_t value, std::size_t count, const char* what)
{
    return fail(c.error, c.where(field) << ": index " << value << " out of range (" << count << ' ' << what << ')');
}

MRIG_COLD bool failEnum(const Ctx& c, const char* field, std::uint32_t value, std::uint32_t max)
{
    return fail(c.error, c.where(field) << ": unknown value " << value << " (0 to " << max << ')');
}

MRIG_COLD bool failBool(const Ctx& c, const char* field, std::uint32_t value)
{
    return fail(c.error, c.where(field) << ": " << value << " is not 0 or 1");
}

MRIG_COLD bool failSame(const Ctx& c, const char* field, std::int32_t value, const char* otherField)
{
    return fail(c.error, c.where(field) << ": same particle as " << otherField << " (" << value << ')');
}

inline bool finite(const Ctx& c, const char* field, float v)
{
    return std::isfinite(v) || failNotFinite(c, field, nullptr, v);
}

template <std::size_t N>
bool finite(const Ctx& c, const char* field, const float (&v)[N])
{
    bool all = true;
    for (std::size_t k = 0; k < N; ++k)
        all = all && std::isfinite(v[k]);
    if (all)
        return true;
    static constexpr const char* kXyzw[] = {".x", ".y", ".z", ".w"};
    for (std::size_t k = 0; k < N; ++k)
        if (!std::isfinite(v[k]))
            return N <= 4 ? failNotFinite(c, field, kXyzw[k], v[k]) : failNotFiniteAt(c, field, k, v[k]);
    return true;
}

inline bool nonNegative(const Ctx& c, const char* field, float v)
{
    return finite(c, field, v) && (v >= 0.f || failNegative(c, field, v));
}

inline bool index(const Ctx& c, const char* field, std::int32_t value, std::size_t count, const char* what)
{
    return (value >= 0 && std::size_t(value) < count) || failIndex(c, field, value, count, what);
}

inline bool optionalIndex(const Ctx& c, const char* field, std::int32_t value, std::size_t count, const char* what)
{
    return value == -1 || index(c, field, value, count, what);
}

inline bool enumValue(const Ctx& c, const char* field, std::uint32_t value, std::uint32_t max)
{
    return value <= max || failEnum(c, field, value, max);
}

inline bool boolean(const Ctx& c, const char* field, std::uint32_t value)
{
    return value <= 1 || failBool(c, field, value);
}

inline bool distinct(const Ctx& c, const char* field, std::int32_t value, const char* otherField, std::int32_t other)
{
    return value != other || failSame(c, field, value, otherField);
}

class Strings {
public:
    explicit Strings(std::string_view table) : mTable(table) {}

    /// The reference lies inside the table; lengths add up (FORMAT.md: at most the table's size in total).
    bool check(const Ctx& c, const StringRef& ref)
    {
        if (std::uint64_t(ref.offset) + ref.length > mTable.size())
            return failOutside(c, ref);
        mTotal += ref.length;
        return true;
    }
    bool checkTotal(std::string* error) const
    {
        if (mTotal <= mTable.size())
            return true;
        return fail(error, Msg() << "STRS: names reference " << mTotal << " bytes in total but the string table has "
                                 << mTable.size() << " (a table byte may be referenced only once)");
    }

private:
    MRIG_COLD bool failOutside(const Ctx& c, const StringRef& ref) const
    {
        return fail(c.error, c.where("name") << ": string at offset " << ref.offset << ", length " << ref.length
                                             << " runs past the end of the string table (" << mTable.size()
                                             << " bytes)");
    }

    std::string_view mTable;
    std::uint64_t mTotal = 0;
};

Vec3 vec(const float (&v)[3]) { return {v[0], v[1], v[2]}; }

bool checkSettings(const SettingsRecord& s, std::string* error)
{
    const Ctx c{"SETT", kSingle, error};
    return finite(c, "gravity", s.gravity) && finite(c, "timeStep", s.timeStep) && finite(c, "drag", s.drag) &&
           finite(c, "friction", s.friction) && finite(c, "staticFriction", s.staticFriction) &&
           finite(c, "sleepVelocity", s.sleepVelocity) && finite(c, "sleepTime", s.sleepTime) &&
           finite(c, "overRelaxation", s.overRelaxation) && boolean(c, "sqrtApproximation", s.sqrtApproximation) &&
           boolean(c, "selfCollision", s.selfCollision) && enumValue(c, "solver", s.solver, 2);
}

/// Format 1.1's solver record and the per-element rate records of 1.1 and 1.2: counts match their elements,
/// finite.
/// (The ranges are RigDescription::validate()'s: a description from any source meets the same limits.)
bool checkRates(const RecordSpans& r, std::string* error)
{
    if (r.solver) {
        const SolverRecord& s = *r.solver;
        const Ctx c{"SOLV", kSingle, error};
        if (!enumValue(c, "solver", s.solver, 3) || !finite(c, "damping", s.damping) ||
            !finite(c, "staticFrictionSpeed", s.staticFrictionSpeed))
            return false;
    }
    // Present means one record per element, also when that is zero records beside a non-empty ANGU/PINS
    // (else the rates of those elements would silently come from the legacy fields).
    if (r.hasAngularFriction && r.angularFriction.size() != r.angular.size())
        return fail(error, Msg() << "ANGF: " << r.angularFriction.size() << " records, expected one per angular constraint ("
                                 << r.angular.size() << ')');
    for (std::size_t i = 0; i < r.angularFriction.size(); ++i) {
        const Ctx c{"ANGF", i, error};
        if (!finite(c, "damping", r.angularFriction[i].damping) ||
            !finite(c, "staticFrictionSpeed", r.angularFriction[i].staticFrictionSpeed))
            return false;
    }
    if (r.hasPinStiffness && r.pinStiffness.size() != r.pins.size())
        return fail(error, Msg() << "PINF: " << r.pinStiffness.size() << " records, expected one per pin ("
                                 << r.pins.size() << ')');
    for (std::size_t i = 0; i < r.pinStiffness.size(); ++i)
        if (!finite(Ctx{"PINF", i, error}, "stiffness", r.pinStiffness[i].stiffness))
            return false;
    if (r.hasBendDamping && r.bendDamping.size() != r.angles.size())
        return fail(error, Msg() << "BNDD: " << r.bendDamping.size() << " records, expected one per angle constraint ("
                                 << r.angles.size() << ')');
    for (std::size_t i = 0; i < r.bendDamping.size(); ++i)
        if (!finite(Ctx{"BNDD", i, error}, "damping", r.bendDamping[i].damping))
            return false;
    return true;
}

bool checkParticles(const RecordSpans& r, Strings& strings, std::string* error)
{
    for (std::size_t i = 0; i < r.particles.size(); ++i) {
        const ParticleRecord& p = r.particles[i];
        const Ctx c{"PART", i, error};
        if (!strings.check(c, p.name) || !finite(c, "position", p.position) || !nonNegative(c, "mass", p.mass) ||
            !nonNegative(c, "radius", p.radius) || !optionalIndex(c, "bone", p.bone, r.bones.size(), "bones"))
            return false;
    }
    return true;
}

bool checkSticks(const RecordSpans& r, Strings& strings, std::string* error)
{
    const std::size_t np = r.particles.size();
    for (std::size_t i = 0; i < r.sticks.size(); ++i) {
        const StickRecord& s = r.sticks[i];
        const Ctx c{"STCK", i, error};
        if (!strings.check(c, s.name) || !index(c, "particleA", s.particleA, np, "particles") ||
            !index(c, "particleB", s.particleB, np, "particles") ||
            !distinct(c, "particleB", s.particleB, "particleA", s.particleA) || !enumValue(c, "kind", s.kind, 3) ||
            !finite(c, "restLength", s.restLength) || !finite(c, "minLength", s.minLength) ||
            !finite(c, "maxLength", s.maxLength) || !finite(c, "stiffness", s.stiffness) ||
            !finite(c, "compliance", s.compliance) || !finite(c, "tearRatio", s.tearRatio) ||
            !nonNegative(c, "capsuleRadius", s.capsuleRadius))
            return false;
    }
    return true;
}

bool checkAngles(const RecordSpans& r, Strings& strings, std::string* error)
{
    const std::size_t np = r.particles.size();
    for (std::size_t i = 0; i < r.angles.size(); ++i) {
        const AngleRecord& a = r.angles[i];
        const Ctx c{"ANGL", i, error};
        if (!strings.check(c, a.name) || !index(c, "center", a.center, np, "particles") ||
            !index(c, "particleA", a.particleA, np, "particles") || !index(c, "particleB", a.particleB, np, "particles") ||
            !distinct(c, "particleA", a.particleA, "center", a.center) ||
            !distinct(c, "particleB", a.particleB, "center", a.center) ||
            !distinct(c, "particleB", a.particleB, "particleA", a.particleA) || !enumValue(c, "form", a.form, 1) ||
            !finite(c, "minAngle", a.minAngle) || !finite(c, "maxAngle", a.maxAngle) ||
            !finite(c, "stiffness", a.stiffness))
            return false;
    }
    return true;
}

bool checkTriangles(const RecordSpans& r, Strings& strings, std::string* error)
{
    static constexpr const char* kP[] = {"p0", "p1", "p2"};
    const std::size_t np = r.particles.size();
    for (std::size_t i = 0; i < r.triangles.size(); ++i) {
        const TriangleRecord& t = r.triangles[i];
        const Ctx c{"TRIS", i, error};
        if (!strings.check(c, t.name))
            return false;
        for (int k = 0; k < 3; ++k)
            if (!index(c, kP[k], t.p[k], np, "particles"))
                return false;
        for (int k = 1; k < 3; ++k)
            for (int j = 0; j < k; ++j)
                if (t.p[k] == t.p[j])
                    return fail(error, c.where(kP[k]) << ": particle " << t.p[k] << " repeats " << kP[j]);
        // The one degenerate-triangle test (RigDescription validation and the runtime use it too).
        if (isDegenerateTriangle(vec(r.particles[std::size_t(t.p[0])].position),
                                 vec(r.particles[std::size_t(t.p[1])].position),
                                 vec(r.particles[std::size_t(t.p[2])].position)))
            return fail(error, c.where(nullptr) << ": degenerate at bind (particles " << t.p[0] << ", " << t.p[1]
                                                << " and " << t.p[2] << " are collinear or coincide)");
    }
    return true;
}

bool checkAngular(const RecordSpans& r, Strings& strings, std::string* error)
{
    const std::size_t nt = r.triangles.size();
    for (std::size_t i = 0; i < r.angular.size(); ++i) {
        const AngularRecord& a = r.angular[i];
        const Ctx c{"ANGU", i, error};
        if (!strings.check(c, a.name) || !index(c, "triangleA", a.triangleA, nt, "triangles") ||
            !index(c, "triangleB", a.triangleB, nt, "triangles"))
            return false;
        if (a.triangleA == a.triangleB)
            return fail(error, c.where("triangleB") << ": same triangle as triangleA (" << a.triangleA << ')');
        if (!enumValue(c, "limit", a.limit, 1) || !finite(c, "coneAngle", a.coneAngle) ||
            !finite(c, "twistAxis", a.twistAxis) || !finite(c, "swingAxis1", a.swingAxis1) ||
            !finite(c, "twistMin", a.twistMin) || !finite(c, "twistMax", a.twistMax) || !finite(c, "swing1", a.swing1) ||
            !finite(c, "swing2", a.swing2) || !finite(c, "stiffness", a.stiffness) ||
            !finite(c, "dynamicFriction", a.dynamicFriction) ||
            !finite(c, "staticFrictionAngle", a.staticFrictionAngle) ||
            !boolean(c, "hasRestOrientation", a.hasRestOrientation) || !finite(c, "restOrientation", a.restOrientation))
            return false;
    }
    return true;
}

bool checkPins(const RecordSpans& r, Strings& strings, std::string* error)
{
    for (std::size_t i = 0; i < r.pins.size(); ++i) {
        const PinRecord& p = r.pins[i];
        const Ctx c{"PINS", i, error};
        if (!strings.check(c, p.name) || !index(c, "particle", p.particle, r.particles.size(), "particles") ||
            !finite(c, "target", p.target) || !finite(c, "stiffness", p.stiffness) ||
            !boolean(c, "kinematic", p.kinematic))
            return false;
    }
    return true;
}

bool checkShapes(const RecordSpans& r, Strings& strings, std::string* error)
{
    static constexpr const char* kTetra[] = {"tetra[0]", "tetra[1]", "tetra[2]", "tetra[3]"};
    const std::size_t np = r.particles.size();
    for (std::size_t i = 0; i < r.shapes.size(); ++i) {
        const ShapeRecord& s = r.shapes[i];
        const Ctx c{"SHAP", i, error};
        if (!strings.check(c, s.name) || !enumValue(c, "kind", s.kind, 0) ||
            !optionalIndex(c, "triangle", s.triangle, r.triangles.size(), "triangles"))
            return false;
        if (s.triangle == -1) {
            for (int k = 0; k < 4; ++k)
                if (!index(c, kTetra[k], s.tetra[k], np, "particles"))
                    return false;
            // The one flat-tetrahedron test (RigDescription validation uses it too).
            const auto at = [&](int k) { return vec(r.particles[std::size_t(s.tetra[k])].position); };
            if (isFlatTetrahedron(at(0), at(1), at(2), at(3)))
                return fail(error, c.where("tetra") << ": flat at bind (particles " << s.tetra[0] << ", " << s.tetra[1]
                                                    << ", " << s.tetra[2] << " and " << s.tetra[3] << " are coplanar)");
        }
        if (!finite(c, "localRotation", s.localRotation) || !finite(c, "localTranslation", s.localTranslation) ||
            !finite(c, "halfExtents", s.halfExtents))
            return false;
        static constexpr const char* kXyz[] = {"halfExtents.x", "halfExtents.y", "halfExtents.z"};
        for (int k = 0; k < 3; ++k)
            if (!(s.halfExtents[k] > 0.f))
                return fail(error, c.where(kXyz[k]) << ": " << s.halfExtents[k] << " is not positive");
    }
    return true;
}

bool checkBones(const RecordSpans& r, Strings& strings, std::string* error)
{
    for (std::size_t i = 0; i < r.bones.size(); ++i) {
        const BoneRecord& b = r.bones[i];
        const Ctx c{"BONE", i, error};
        if (!strings.check(c, b.name))
            return false;
        if (b.parent != -1 && (b.parent < 0 || std::size_t(b.parent) >= i))
            return fail(error, c.where("parent") << ": " << b.parent << " is not an earlier bone or -1");
        if (!finite(c, "bindLocal", b.bindLocal) || !finite(c, "bindWorld", b.bindWorld) ||
            !finite(c, "inverseBind", b.inverseBind))
            return false;
    }
    return true;
}

bool checkBindings(const RecordSpans& r, Strings& strings, std::string* error)
{
    for (std::size_t i = 0; i < r.bindings.size(); ++i) {
        const BindingRecord& b = r.bindings[i];
        const Ctx c{"BIND", i, error};
        if (!strings.check(c, b.name) || !index(c, "bone", b.bone, r.bones.size(), "bones") ||
            !enumValue(c, "driver", b.driver, 1))
            return false;
        const bool ok = b.driver == 0 ? index(c, "index", b.index, r.triangles.size(), "triangles")
                                      : index(c, "index", b.index, r.sticks.size(), "sticks");
        if (!ok || !boolean(c, "hasOffset", b.hasOffset) || !finite(c, "offsetRotation", b.offsetRotation) ||
            !finite(c, "offsetTranslation", b.offsetTranslation))
            return false;
    }
    return true;
}

/// Gains of a DRVP or DRPT record: kinematic 0 or 1, every float finite and inside rig::kDriveGainFields'
/// range (the ranges RigDescription validation checks, so a file is refused at the record that holds the
/// value). `prefix` names the gains inside the record ("defaults.", "parts[1].").
bool checkGains(const Ctx& c, const std::string& prefix, const DriveGainsRecord& r)
{
    if (r.kinematic > 1)
        return failBool(c, (prefix + "kinematic").c_str(), r.kinematic);
    const DriveGains g = driveGains(r);
    for (const DriveGainField& f : kDriveGainFields) {
        const float v = g.*f.member;
        if (v >= 0.f && v <= f.max)
            continue;
        const std::string field = prefix + f.name;
        if (!std::isfinite(v))
            return failNotFinite(c, field.c_str(), nullptr, v);
        return fail(c.error, c.where(field.c_str()) << ": " << v << " outside [0, " << f.max << ']');
    }
    return true;
}

/// Format 1.3's drive profiles and their parts: names, gains, part kinds and indices, and the part ranges,
/// which follow each other from DRPT[0] and cover DRPT exactly (so every part belongs to one profile).
/// Messages name a part by its profile: `DRVP[2].parts[1].motorFrequency: 70 outside [0, 60]`.
bool checkDriveProfiles(const RecordSpans& r, Strings& strings, std::string* error)
{
    std::uint64_t next = 0; // the first DRPT record not yet owned
    for (std::size_t i = 0; i < r.driveProfiles.size(); ++i) {
        const DriveProfileRecord& p = r.driveProfiles[i];
        const Ctx c{"DRVP", i, error};
        if (!strings.check(c, p.name) || !checkGains(c, "defaults.", p.defaults))
            return false;
        if (p.firstPart != next)
            return fail(error, c.where("firstPart") << ": " << p.firstPart << ", expected " << next
                                                    << " (each profile's parts follow the previous profile's in DRPT)");
        if (next + p.partCount > r.driveParts.size())
            return fail(error, c.where("partCount") << ": " << p.partCount << " parts from DRPT[" << next
                                                    << "] run past the end of DRPT (" << r.driveParts.size()
                                                    << " records)");
        for (std::uint32_t k = 0; k < p.partCount; ++k) {
            const DrivePartRecord& part = r.driveParts[std::size_t(next + k)];
            const std::string prefix = (Msg() << "parts[" << k << "].").str();
            if (!enumValue(c, (prefix + "kind").c_str(), part.kind, 1))
                return false;
            const bool known = part.kind == 0
                                   ? index(c, (prefix + "index").c_str(), part.index, r.triangles.size(), "triangles")
                                   : index(c, (prefix + "index").c_str(), part.index, r.sticks.size(), "sticks");
            if (!known || !checkGains(c, prefix, part.gains))
                return false;
        }
        next += p.partCount;
    }
    if (next != r.driveParts.size())
        return fail(error, Msg() << "DRPT: " << r.driveParts.size() << " records, the drive profiles own " << next);
    return true;
}

} // namespace

bool validateRecords(const RecordSpans& r, std::string* error)
{
    Strings strings(r.strings);
    if (r.rig && !strings.check(Ctx{"NAME", kSingle, error}, r.rig->name))
        return false;
    return checkSettings(*r.settings, error) && checkParticles(r, strings, error) && checkSticks(r, strings, error) &&
           checkAngles(r, strings, error) && checkTriangles(r, strings, error) && checkAngular(r, strings, error) &&
           checkPins(r, strings, error) && checkShapes(r, strings, error) && checkBones(r, strings, error) &&
           checkBindings(r, strings, error) && checkRates(r, error) && checkDriveProfiles(r, strings, error) &&
           strings.checkTotal(error);
}

} // namespace marionette::rig::detail
