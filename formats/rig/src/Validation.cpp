// RigDescription::findings() and what is built on it: validate(), validated(), the geometric predicates and
// the validation counter.
//
// Checks run in a fixed order (the element vectors in declaration order, then the settings); within an
// element, a check that needs an earlier one to pass (an index before what it indexes, both ranges before
// max >= min) runs only when that one passed. So the first finding is the problem the checks meet first,
// and validate() returns the same message a validator stopping at the first problem would.
#include "marionette/rig/Validation.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <sstream>

namespace marionette::rig {

const char* sectionName(ElementKind kind)
{
    switch (kind) {
    case ElementKind::Particle: return "particles";
    case ElementKind::Stick: return "sticks";
    case ElementKind::Angle: return "angles";
    case ElementKind::Triangle: return "triangles";
    case ElementKind::Angular: return "angular";
    case ElementKind::Pin: return "pins";
    case ElementKind::Shape: return "shapes";
    case ElementKind::Bone: return "bones";
    case ElementKind::Binding: return "bindings";
    case ElementKind::Settings: return "settings";
    case ElementKind::Rig: return "rig";
    case ElementKind::DriveProfile: return "driveProfiles";
    }
    return "unknown";
}

bool isDegenerateTriangle(Vec3 p0, Vec3 p1, Vec3 p2)
{
    const Vec3 e1 = p1 - p0;
    const Vec3 e2 = p2 - p0;
    const float area2 = length(cross(e1, e2));
    const float scale = std::max(lengthSquared(e1), lengthSquared(e2));
    return !(area2 > 1e-4f * scale) || !(scale > 1e-12f) || !(lengthSquared(e1) > 1e-16f);
}

bool isFlatTetrahedron(Vec3 p0, Vec3 p1, Vec3 p2, Vec3 p3)
{
    const float volume6 = dot(p1 - p0, cross(p2 - p0, p3 - p0));
    return !(std::fabs(volume6) > 1e-9f);
}

namespace {

std::atomic<std::uint64_t> gValidations{0};

/// Finite and of unit length (within 1e-3).
bool unitQuat(Quat q)
{
    const float n = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    return std::isfinite(n) && std::fabs(n - 1.f) <= 1e-3f;
}

bool finiteMat(const Mat4& m)
{
    for (float v : m.m)
        if (!std::isfinite(v))
            return false;
    return true;
}

constexpr std::size_t kNoIndex = std::size_t(-1);
const std::string kNoName;

/// Collects findings about one element at a time: at() names the element, the checks add a finding with
/// the "list[i] 'name': " prefix when they fail and return whether they passed.
class Collector {
public:
    /// Keeps at most `limit` findings; the checks stop once that many are found.
    Collector(std::vector<Finding>& out, std::size_t limit) : mOut(out), mLimit(limit) {}

    bool full() const { return mOut.size() >= mLimit; }

    /// Names the element later findings are about; `list` overrides the section name messages start with.
    void at(ElementKind kind, std::size_t index, const std::string& name, const char* list = nullptr)
    {
        mKind = kind;
        mIndex = index;
        mName = &name;
        mList = list ? list : sectionName(kind);
    }

    /// Adds a finding on `field` of the current element ("" for the element as a whole); returns false.
    bool fail(const char* field, const std::string& what)
    {
        if (full())
            return false;
        std::ostringstream s;
        s << mList;
        if (mIndex != kNoIndex)
            s << '[' << mIndex << ']';
        if (!mName->empty())
            s << " '" << *mName << '\'';
        s << ": " << what;
        Finding f;
        f.kind = mKind;
        f.index = mIndex == kNoIndex ? -1 : std::int32_t(mIndex);
        f.field = field;
        f.message = s.str();
        mOut.push_back(std::move(f));
        return false;
    }

    /// An index into a vector of `count` (`label` names it in the message: "particle a", "p0").
    bool index(const char* field, const char* label, std::int32_t value, std::size_t count, const char* countName)
    {
        if (value >= 0 && std::size_t(value) < count)
            return true;
        if (full())
            return false;
        std::ostringstream s;
        s << label << " index " << value << " out of range (" << count << ' ' << countName << ')';
        return fail(field, s.str());
    }

    bool finite(const char* field, float v)
    {
        return std::isfinite(v) || (!full() && fail(field, std::string(field) + " is not a finite number"));
    }
    bool finite(const char* field, Vec3 v)
    {
        return isFinite(v) || (!full() && fail(field, std::string(field) + " is not a finite vector"));
    }
    /// Finite and inside [lo, hi] (or (lo, hi] when openLow).
    bool range(const char* field, float v, float lo, float hi, bool openLow = false)
    {
        if (!finite(field, v))
            return false;
        if (v >= lo && v <= hi && !(openLow && v == lo))
            return true;
        if (full())
            return false;
        std::ostringstream s;
        s << field << ' ' << v << " outside " << (openLow ? '(' : '[') << lo << ", " << hi << ']';
        return fail(field, s.str());
    }

private:
    std::vector<Finding>& mOut;
    std::size_t mLimit;
    ElementKind mKind = ElementKind::Rig;
    std::size_t mIndex = kNoIndex;
    const std::string* mName = &kNoName;
    const char* mList = "rig";
};

constexpr float kHuge = 1e6f;

void checkParticles(const RigDescription& d, Collector& c)
{
    if (d.particles.empty()) {
        c.at(ElementKind::Rig, kNoIndex, kNoName, "particles");
        c.fail("particles", "the rig has no particles");
    }
    for (std::size_t i = 0; i < d.particles.size() && !c.full(); ++i) {
        const Particle& p = d.particles[i];
        c.at(ElementKind::Particle, i, p.name);
        if (c.finite("position", p.position) &&
            (std::fabs(p.position.x) > kHuge || std::fabs(p.position.y) > kHuge || std::fabs(p.position.z) > kHuge))
            c.fail("position", "position is further than 1e6 m from the origin");
        c.range("mass", p.mass, 0.f, kHuge);
        c.range("radius", p.radius, 0.f, 100.f);
        if (p.bone != kNone)
            c.index("bone", "bone", p.bone, d.bones.size(), "bones");
    }
}

void checkSticks(const RigDescription& d, Collector& c)
{
    const std::size_t np = d.particles.size();
    for (std::size_t i = 0; i < d.sticks.size() && !c.full(); ++i) {
        const Stick& s = d.sticks[i];
        c.at(ElementKind::Stick, i, s.name);
        const bool a = c.index("a", "particle a", s.a, np, "particles");
        const bool b = c.index("b", "particle b", s.b, np, "particles");
        if (a && b && s.a == s.b)
            c.fail("b", "both ends are the same particle");
        if (unsigned(s.kind) > unsigned(StickKind::MaxOnly))
            c.fail("kind", "unknown kind");
        if (c.finite("restLength", s.restLength) && s.restLength > kHuge)
            c.fail("restLength", "restLength above 1e6 m");
        const bool hasMin = s.kind == StickKind::Range || s.kind == StickKind::MinOnly;
        const bool hasMax = s.kind == StickKind::Range || s.kind == StickKind::MaxOnly;
        const bool minOk = !hasMin || c.range("minLength", s.minLength, 0.f, kHuge);
        const bool maxOk = !hasMax || c.range("maxLength", s.maxLength, 0.f, kHuge);
        if (minOk && maxOk && s.kind == StickKind::Range && s.maxLength < s.minLength)
            c.fail("maxLength", "maxLength is below minLength");
        c.range("stiffness", s.stiffness, 0.f, 1.f, true);
        c.range("compliance", s.compliance, 0.f, kHuge);
        if (c.range("tearRatio", s.tearRatio, 0.f, kHuge) && s.tearRatio > 0.f && s.tearRatio <= 1.f)
            c.fail("tearRatio", "tearRatio must be 0 (never) or above 1");
        c.range("capsuleRadius", s.capsuleRadius, 0.f, 100.f);
    }
}

void checkAngles(const RigDescription& d, Collector& c)
{
    const std::size_t np = d.particles.size();
    for (std::size_t i = 0; i < d.angles.size() && !c.full(); ++i) {
        const AngleConstraint& a = d.angles[i];
        c.at(ElementKind::Angle, i, a.name);
        const bool center = c.index("center", "center", a.center, np, "particles");
        const bool pa = c.index("a", "particle a", a.a, np, "particles");
        const bool pb = c.index("b", "particle b", a.b, np, "particles");
        if (center && pa && pb && (a.center == a.a || a.center == a.b || a.a == a.b))
            c.fail("", "uses the same particle twice");
        const bool minOk = c.range("minAngle", a.minAngle, 0.f, kPi);
        const bool maxOk = c.range("maxAngle", a.maxAngle, 0.f, kPi);
        if (minOk && maxOk && a.maxAngle < a.minAngle)
            c.fail("maxAngle", "maxAngle is below minAngle");
        c.range("stiffness", a.stiffness, 0.f, 1.f, true);
        c.range("damping", a.damping, 0.f, 1000.f);
    }
}

void checkTriangles(const RigDescription& d, Collector& c)
{
    static constexpr const char* kField[3] = {"p[0]", "p[1]", "p[2]"};
    static constexpr const char* kLabel[3] = {"p0", "p1", "p2"};
    const std::size_t np = d.particles.size();
    for (std::size_t i = 0; i < d.triangles.size() && !c.full(); ++i) {
        const Triangle& t = d.triangles[i];
        c.at(ElementKind::Triangle, i, t.name);
        bool indices = true;
        for (int k = 0; k < 3; ++k)
            indices = c.index(kField[k], kLabel[k], t.p[k], np, "particles") && indices;
        if (!indices)
            continue;
        if (t.p[0] == t.p[1] || t.p[1] == t.p[2] || t.p[0] == t.p[2])
            c.fail("", "uses the same particle twice");
        else if (isDegenerateTriangle(d.particles[std::size_t(t.p[0])].position, d.particles[std::size_t(t.p[1])].position,
                                      d.particles[std::size_t(t.p[2])].position))
            c.fail("", "degenerate (its particles are collinear or coincide)");
    }
}

void checkAngular(const RigDescription& d, Collector& c)
{
    const std::size_t nt = d.triangles.size();
    for (std::size_t i = 0; i < d.angular.size() && !c.full(); ++i) {
        const AngularConstraint& a = d.angular[i];
        c.at(ElementKind::Angular, i, a.name);
        const bool ta = c.index("triangleA", "triangleA", a.triangleA, nt, "triangles");
        const bool tb = c.index("triangleB", "triangleB", a.triangleB, nt, "triangles");
        if (ta && tb && a.triangleA == a.triangleB)
            c.fail("triangleB", "both triangles are the same");
        if (unsigned(a.limit) > unsigned(AngularLimit::SwingTwist))
            c.fail("limit", "unknown limit kind");
        c.range("coneAngle", a.coneAngle, 0.f, kPi);
        const bool minOk = c.range("twistMin", a.twistMin, -kPi, kPi);
        const bool maxOk = c.range("twistMax", a.twistMax, -kPi, kPi);
        if (minOk && maxOk && a.twistMax < a.twistMin)
            c.fail("twistMax", "twistMax is below twistMin");
        c.range("swing1", a.swing1, 0.f, kPi);
        c.range("swing2", a.swing2, 0.f, kPi);
        c.range("stiffness", a.stiffness, 0.f, 1.f, true);
        c.range("damping", a.damping, 0.f, 1000.f);
        c.range("staticFrictionSpeed", a.staticFrictionSpeed, 0.f, 100.f);
        const bool twistAxis = c.finite("twistAxis", a.twistAxis);
        const bool swingAxis = c.finite("swingAxis1", a.swingAxis1);
        if (twistAxis && swingAxis && a.limit == AngularLimit::SwingTwist) {
            const float lt = length(a.twistAxis), ls = length(a.swingAxis1);
            if (std::fabs(lt - 1.f) > 1e-3f || std::fabs(ls - 1.f) > 1e-3f)
                c.fail(std::fabs(lt - 1.f) > 1e-3f ? "twistAxis" : "swingAxis1",
                       "twistAxis and swingAxis1 must be unit vectors");
            else if (std::fabs(dot(a.twistAxis, a.swingAxis1)) > 1e-3f)
                c.fail("swingAxis1", "swingAxis1 must be perpendicular to twistAxis");
        }
        if (a.hasRestOrientation && !unitQuat(a.restOrientation))
            c.fail("restOrientation", "restOrientation is not a unit quaternion");
    }
}

void checkPins(const RigDescription& d, Collector& c)
{
    for (std::size_t i = 0; i < d.pins.size() && !c.full(); ++i) {
        const Pin& p = d.pins[i];
        c.at(ElementKind::Pin, i, p.name);
        c.index("particle", "particle", p.particle, d.particles.size(), "particles");
        c.finite("target", p.target);
        c.range("stiffness", p.stiffness, 0.f, 1.f, true);
    }
}

void checkShapes(const RigDescription& d, Collector& c)
{
    static constexpr const char* kTetra[4] = {"tetra[0]", "tetra[1]", "tetra[2]", "tetra[3]"};
    const std::size_t np = d.particles.size();
    for (std::size_t i = 0; i < d.shapes.size() && !c.full(); ++i) {
        const Shape& s = d.shapes[i];
        c.at(ElementKind::Shape, i, s.name);
        if (s.kind != ShapeKind::Box)
            c.fail("kind", "unknown kind");
        if (s.triangle != kNone) {
            c.index("triangle", "triangle", s.triangle, d.triangles.size(), "triangles");
        } else {
            bool indices = true;
            for (int k = 0; k < 4; ++k)
                indices = c.index(kTetra[k], "tetra", s.tetra[k], np, "particles") && indices;
            const auto at = [&](int k) { return d.particles[std::size_t(s.tetra[k])].position; };
            if (indices && isFlatTetrahedron(at(0), at(1), at(2), at(3)))
                c.fail("tetra", "embedding tetrahedron is flat (its four particles are coplanar)");
        }
        c.finite("local.translation", s.local.translation);
        if (!unitQuat(s.local.rotation))
            c.fail("local.rotation", "local.rotation is not a unit quaternion");
        if (c.finite("halfExtents", s.halfExtents) &&
            !(s.halfExtents.x > 0.f && s.halfExtents.y > 0.f && s.halfExtents.z > 0.f))
            c.fail("halfExtents", "halfExtents must be positive");
    }
}

void checkBones(const RigDescription& d, Collector& c)
{
    for (std::size_t i = 0; i < d.bones.size() && !c.full(); ++i) {
        const Bone& b = d.bones[i];
        c.at(ElementKind::Bone, i, b.name);
        if (b.parent != kNone && (b.parent < 0 || std::size_t(b.parent) >= i))
            c.fail("parent", "parent " + std::to_string(b.parent) + " must be an earlier bone or -1");
        const char* bad = !finiteMat(b.bindLocal) ? "bindLocal"
                        : !finiteMat(b.bindWorld) ? "bindWorld"
                        : !finiteMat(b.inverseBind) ? "inverseBind" : nullptr;
        if (bad)
            c.fail(bad, "bind matrices must be finite");
    }
}

void checkBindings(const RigDescription& d, Collector& c)
{
    std::vector<char> bound(d.bones.size(), 0);
    for (std::size_t i = 0; i < d.bindings.size() && !c.full(); ++i) {
        const BoneBinding& b = d.bindings[i];
        // Messages name the binding by its bone's name.
        const bool bone = b.bone >= 0 && std::size_t(b.bone) < d.bones.size();
        c.at(ElementKind::Binding, i, bone ? d.bones[std::size_t(b.bone)].name : kNoName);
        c.index("bone", "bone", b.bone, d.bones.size(), "bones");
        bool driver = false;
        if (b.driver == BoneBinding::Driver::Triangle)
            driver = c.index("index", "triangle", b.index, d.triangles.size(), "triangles");
        else if (b.driver == BoneBinding::Driver::Stick)
            driver = c.index("index", "stick", b.index, d.sticks.size(), "sticks");
        else
            c.fail("driver", "unknown driver");
        // A bone counts as bound by the bindings that name it and their driver properly.
        if (bone && driver && bound[std::size_t(b.bone)]++)
            c.fail("bone", "bone is bound twice");
        if (b.hasOffset) {
            c.finite("offset.translation", b.offset.translation);
            if (!unitQuat(b.offset.rotation))
                c.fail("offset.rotation", "offset.rotation is not a unit quaternion");
        }
    }
}

/// Gains' ranges; `where` prefixes the fields ("defaults.", "parts[3].gains.").
void checkGains(const DriveGains& g, const std::string& where, Collector& c)
{
    for (const DriveGainField& f : kDriveGainFields)
        c.range((where + f.name).c_str(), g.*f.member, 0.f, f.max);
}

void checkDriveProfiles(const RigDescription& d, Collector& c)
{
    for (std::size_t i = 0; i < d.driveProfiles.size() && !c.full(); ++i) {
        const DriveProfile& p = d.driveProfiles[i];
        c.at(ElementKind::DriveProfile, i, p.name);
        if (p.name.empty())
            c.fail("name", "a drive profile needs a name");
        for (std::size_t j = 0; j < i; ++j)
            if (!p.name.empty() && d.driveProfiles[j].name == p.name) {
                c.fail("name", "name used by driveProfiles[" + std::to_string(j) + "] too");
                break;
            }
        checkGains(p.defaults, "defaults.", c);
        for (std::size_t k = 0; k < p.parts.size() && !c.full(); ++k) {
            const DrivePart& part = p.parts[k];
            const std::string where = "parts[" + std::to_string(k) + "].";
            bool known = false;
            if (part.kind == DrivePartKind::Triangle)
                known = c.index((where + "index").c_str(), "triangle", part.index, d.triangles.size(), "triangles");
            else if (part.kind == DrivePartKind::Stick)
                known = c.index((where + "index").c_str(), "stick", part.index, d.sticks.size(), "sticks");
            else
                c.fail((where + "kind").c_str(), where + "kind: unknown part kind");
            if (known)
                for (std::size_t j = 0; j < k; ++j)
                    if (p.parts[j].kind == part.kind && p.parts[j].index == part.index) {
                        c.fail((where + "index").c_str(),
                               where + "index: part listed twice (also parts[" + std::to_string(j) + "])");
                        break;
                    }
            checkGains(part.gains, where + "gains.", c);
        }
    }
}

void checkSettings(const Settings& s, Collector& c)
{
    c.at(ElementKind::Settings, kNoIndex, kNoName);
    c.finite("gravity", s.gravity);
    c.range("timeStep", s.timeStep, 0.f, 0.1f, true);
    if (s.maxSubsteps < 1 || s.maxSubsteps > 64)
        c.fail("maxSubsteps", "maxSubsteps " + std::to_string(s.maxSubsteps) + " outside [1, 64]");
    if (s.substeps < 1 || s.substeps > 64)
        c.fail("substeps", "substeps " + std::to_string(s.substeps) + " outside [1, 64]");
    if (s.iterations < 1 || s.iterations > 64)
        c.fail("iterations", "iterations " + std::to_string(s.iterations) + " outside [1, 64]");
    c.range("damping", s.damping, 0.f, 100.f);
    c.range("friction", s.friction, 0.f, 1e4f);
    c.range("staticFrictionSpeed", s.staticFrictionSpeed, 0.f, 100.f);
    c.range("sleepVelocity", s.sleepVelocity, 0.f, 100.f);
    c.range("sleepTime", s.sleepTime, 0.f, 3600.f);
    c.range("overRelaxation", s.overRelaxation, 1.f, 1.99f);
    if (unsigned(s.solver) > unsigned(SolverMode::Direct))
        c.fail("solver", "unknown solver mode");
}

/// The validation: every check in order, up to `limit` findings (all of them errors). Counted.
std::vector<Finding> collect(const RigDescription& d, std::size_t limit)
{
    gValidations.fetch_add(1, std::memory_order_relaxed);
    std::vector<Finding> out;
    Collector c(out, limit);
    checkParticles(d, c);
    checkSticks(d, c);
    checkAngles(d, c);
    checkTriangles(d, c);
    checkAngular(d, c);
    checkPins(d, c);
    checkShapes(d, c);
    checkBones(d, c);
    checkBindings(d, c);
    checkDriveProfiles(d, c);
    if (!c.full())
        checkSettings(d.settings, c);
    return out;
}

} // namespace

std::vector<Finding> RigDescription::findings() const
{
    return collect(*this, std::size_t(-1));
}

std::string RigDescription::validate() const
{
    std::vector<Finding> first = collect(*this, 1);
    return first.empty() ? std::string() : std::move(first.front().message);
}

std::optional<Validated> validated(const RigDescription& rig, std::string* error)
{
    std::vector<Finding> first = collect(rig, 1);
    if (first.empty())
        return Validated(rig);
    if (error)
        *error = std::move(first.front().message);
    return std::nullopt;
}

std::optional<Validated> validated(const RigDescription& rig, std::vector<Finding>& findings)
{
    findings = rig.findings();
    const bool valid = std::none_of(findings.begin(), findings.end(),
                                    [](const Finding& f) { return f.severity == Severity::Error; });
    if (!valid)
        return std::nullopt;
    return Validated(rig);
}

std::uint64_t validationCount()
{
    return gValidations.load(std::memory_order_relaxed);
}

} // namespace marionette::rig
