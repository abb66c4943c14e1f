#include "marionette/rig/RigDescription.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace marionette::rig {

const char* toString(StickKind kind)
{
    switch (kind) {
    case StickKind::Rigid: return "rigid";
    case StickKind::Range: return "range";
    case StickKind::MinOnly: return "min-only";
    case StickKind::MaxOnly: return "max-only";
    }
    return "unknown";
}

const char* toString(SolverMode mode)
{
    switch (mode) {
    case SolverMode::GaussSeidel: return "gauss-seidel";
    case SolverMode::Jacobi: return "jacobi";
    case SolverMode::Xpbd: return "xpbd";
    case SolverMode::Direct: return "direct";
    }
    return "unknown";
}

namespace {

/// Finite and of unit length (within 1e-3).
bool unitQuat(Quat q)
{
    const float n = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    return std::isfinite(n) && std::fabs(n - 1.f) <= 1e-3f;
}


/// Builds "list[i] 'name': " prefixes and collects the first error.
class Checker {
public:
    bool failed() const { return !mError.empty(); }
    std::string error() const { return mError; }

    void fail(const char* list, std::size_t i, const std::string& name, const std::string& what)
    {
        if (failed())
            return;
        std::ostringstream s;
        s << list;
        if (i != std::size_t(-1))
            s << '[' << i << ']';
        if (!name.empty())
            s << " '" << name << '\'';
        s << ": " << what;
        mError = s.str();
    }

    void index(const char* list, std::size_t i, const std::string& name, const char* field, std::int32_t value,
               std::size_t count, const char* countName)
    {
        if (value < 0 || std::size_t(value) >= count) {
            std::ostringstream s;
            s << field << " index " << value << " out of range (" << count << ' ' << countName << ')';
            fail(list, i, name, s.str());
        }
    }

    void finite(const char* list, std::size_t i, const std::string& name, const char* field, float v)
    {
        if (!std::isfinite(v))
            fail(list, i, name, std::string(field) + " is not a finite number");
    }
    void finite(const char* list, std::size_t i, const std::string& name, const char* field, Vec3 v)
    {
        if (!isFinite(v))
            fail(list, i, name, std::string(field) + " is not a finite vector");
    }
    void range(const char* list, std::size_t i, const std::string& name, const char* field, float v, float lo,
               float hi, bool openLow = false)
    {
        finite(list, i, name, field, v);
        if (failed())
            return;
        if (v < lo || v > hi || (openLow && v == lo)) {
            std::ostringstream s;
            s << field << ' ' << v << " outside " << (openLow ? '(' : '[') << lo << ", " << hi << ']';
            fail(list, i, name, s.str());
        }
    }

private:
    std::string mError;
};

bool finiteMat(const Mat4& m)
{
    for (float v : m.m)
        if (!std::isfinite(v))
            return false;
    return true;
}

} // namespace

std::string RigDescription::validate() const
{
    Checker c;
    const std::size_t np = particles.size();
    constexpr float kHuge = 1e6f;
    constexpr std::size_t kNoIndex = std::size_t(-1);

    if (np == 0)
        c.fail("particles", kNoIndex, {}, "the rig has no particles");
    for (std::size_t i = 0; i < np && !c.failed(); ++i) {
        const Particle& p = particles[i];
        c.finite("particles", i, p.name, "position", p.position);
        if (!c.failed() && (std::fabs(p.position.x) > kHuge || std::fabs(p.position.y) > kHuge || std::fabs(p.position.z) > kHuge))
            c.fail("particles", i, p.name, "position is further than 1e6 m from the origin");
        c.range("particles", i, p.name, "mass", p.mass, 0.f, kHuge);
        c.range("particles", i, p.name, "radius", p.radius, 0.f, 100.f);
        if (!c.failed() && p.bone != kNone && (p.bone < 0 || std::size_t(p.bone) >= bones.size()))
            c.index("particles", i, p.name, "bone", p.bone, bones.size(), "bones");
    }
    for (std::size_t i = 0; i < sticks.size() && !c.failed(); ++i) {
        const Stick& s = sticks[i];
        c.index("sticks", i, s.name, "particle a", s.a, np, "particles");
        c.index("sticks", i, s.name, "particle b", s.b, np, "particles");
        if (!c.failed() && s.a == s.b)
            c.fail("sticks", i, s.name, "both ends are the same particle");
        if (unsigned(s.kind) > unsigned(StickKind::MaxOnly))
            c.fail("sticks", i, s.name, "unknown kind");
        c.finite("sticks", i, s.name, "restLength", s.restLength);
        if (s.restLength > kHuge)
            c.fail("sticks", i, s.name, "restLength above 1e6 m");
        if (s.kind == StickKind::Range || s.kind == StickKind::MinOnly)
            c.range("sticks", i, s.name, "minLength", s.minLength, 0.f, kHuge);
        if (s.kind == StickKind::Range || s.kind == StickKind::MaxOnly)
            c.range("sticks", i, s.name, "maxLength", s.maxLength, 0.f, kHuge);
        if (!c.failed() && s.kind == StickKind::Range && s.maxLength < s.minLength)
            c.fail("sticks", i, s.name, "maxLength is below minLength");
        c.range("sticks", i, s.name, "stiffness", s.stiffness, 0.f, 1.f, true);
        c.range("sticks", i, s.name, "compliance", s.compliance, 0.f, kHuge);
        c.range("sticks", i, s.name, "tearRatio", s.tearRatio, 0.f, kHuge);
        if (!c.failed() && s.tearRatio > 0.f && s.tearRatio <= 1.f)
            c.fail("sticks", i, s.name, "tearRatio must be 0 (never) or above 1");
        c.range("sticks", i, s.name, "capsuleRadius", s.capsuleRadius, 0.f, 100.f);
    }
    for (std::size_t i = 0; i < angles.size() && !c.failed(); ++i) {
        const AngleConstraint& a = angles[i];
        c.index("angles", i, a.name, "center", a.center, np, "particles");
        c.index("angles", i, a.name, "particle a", a.a, np, "particles");
        c.index("angles", i, a.name, "particle b", a.b, np, "particles");
        if (!c.failed() && (a.center == a.a || a.center == a.b || a.a == a.b))
            c.fail("angles", i, a.name, "uses the same particle twice");
        c.range("angles", i, a.name, "minAngle", a.minAngle, 0.f, kPi);
        c.range("angles", i, a.name, "maxAngle", a.maxAngle, 0.f, kPi);
        if (!c.failed() && a.maxAngle < a.minAngle)
            c.fail("angles", i, a.name, "maxAngle is below minAngle");
        c.range("angles", i, a.name, "stiffness", a.stiffness, 0.f, 1.f, true);
        c.range("angles", i, a.name, "damping", a.damping, 0.f, 1000.f);
    }
    for (std::size_t i = 0; i < triangles.size() && !c.failed(); ++i) {
        const Triangle& t = triangles[i];
        for (int k = 0; k < 3; ++k)
            c.index("triangles", i, t.name, k == 0 ? "p0" : (k == 1 ? "p1" : "p2"), t.p[k], np, "particles");
        if (c.failed())
            break;
        if (t.p[0] == t.p[1] || t.p[1] == t.p[2] || t.p[0] == t.p[2]) {
            c.fail("triangles", i, t.name, "uses the same particle twice");
            break;
        }
        const Vec3 e1 = particles[t.p[1]].position - particles[t.p[0]].position;
        const Vec3 e2 = particles[t.p[2]].position - particles[t.p[0]].position;
        const float area2 = length(cross(e1, e2));
        const float scale = std::max(lengthSquared(e1), lengthSquared(e2));
        if (!(area2 > 1e-4f * scale) || !(scale > 1e-12f))
            c.fail("triangles", i, t.name, "degenerate (its particles are collinear or coincide)");
    }
    for (std::size_t i = 0; i < angular.size() && !c.failed(); ++i) {
        const AngularConstraint& a = angular[i];
        c.index("angular", i, a.name, "triangleA", a.triangleA, triangles.size(), "triangles");
        c.index("angular", i, a.name, "triangleB", a.triangleB, triangles.size(), "triangles");
        if (!c.failed() && a.triangleA == a.triangleB)
            c.fail("angular", i, a.name, "both triangles are the same");
        if (unsigned(a.limit) > unsigned(AngularLimit::SwingTwist))
            c.fail("angular", i, a.name, "unknown limit kind");
        c.range("angular", i, a.name, "coneAngle", a.coneAngle, 0.f, kPi);
        c.range("angular", i, a.name, "twistMin", a.twistMin, -kPi, kPi);
        c.range("angular", i, a.name, "twistMax", a.twistMax, -kPi, kPi);
        if (!c.failed() && a.twistMax < a.twistMin)
            c.fail("angular", i, a.name, "twistMax is below twistMin");
        c.range("angular", i, a.name, "swing1", a.swing1, 0.f, kPi);
        c.range("angular", i, a.name, "swing2", a.swing2, 0.f, kPi);
        c.range("angular", i, a.name, "stiffness", a.stiffness, 0.f, 1.f, true);
        c.range("angular", i, a.name, "damping", a.damping, 0.f, 1000.f);
        c.range("angular", i, a.name, "staticFrictionSpeed", a.staticFrictionSpeed, 0.f, 100.f);
        c.finite("angular", i, a.name, "twistAxis", a.twistAxis);
        c.finite("angular", i, a.name, "swingAxis1", a.swingAxis1);
        if (!c.failed() && a.limit == AngularLimit::SwingTwist) {
            const float lt = length(a.twistAxis), ls = length(a.swingAxis1);
            if (std::fabs(lt - 1.f) > 1e-3f || std::fabs(ls - 1.f) > 1e-3f)
                c.fail("angular", i, a.name, "twistAxis and swingAxis1 must be unit vectors");
            else if (std::fabs(dot(a.twistAxis, a.swingAxis1)) > 1e-3f)
                c.fail("angular", i, a.name, "swingAxis1 must be perpendicular to twistAxis");
        }
        if (!c.failed() && a.hasRestOrientation && !unitQuat(a.restOrientation))
            c.fail("angular", i, a.name, "restOrientation is not a unit quaternion");
    }
    for (std::size_t i = 0; i < pins.size() && !c.failed(); ++i) {
        const Pin& p = pins[i];
        c.index("pins", i, p.name, "particle", p.particle, np, "particles");
        c.finite("pins", i, p.name, "target", p.target);
        c.range("pins", i, p.name, "stiffness", p.stiffness, 0.f, 1.f, true);
    }
    for (std::size_t i = 0; i < shapes.size() && !c.failed(); ++i) {
        const Shape& s = shapes[i];
        if (s.kind != ShapeKind::Box)
            c.fail("shapes", i, s.name, "unknown kind");
        if (s.triangle != kNone) {
            c.index("shapes", i, s.name, "triangle", s.triangle, triangles.size(), "triangles");
        } else {
            for (int k = 0; k < 4; ++k)
                c.index("shapes", i, s.name, "tetra", s.tetra[k], np, "particles");
            if (!c.failed()) {
                const Vec3 o = particles[s.tetra[0]].position;
                const float vol = dot(particles[s.tetra[1]].position - o,
                                      cross(particles[s.tetra[2]].position - o, particles[s.tetra[3]].position - o));
                if (!(std::fabs(vol) > 1e-9f))
                    c.fail("shapes", i, s.name, "embedding tetrahedron is flat (its four particles are coplanar)");
            }
        }
        c.finite("shapes", i, s.name, "local.translation", s.local.translation);
        if (!c.failed() && !unitQuat(s.local.rotation))
            c.fail("shapes", i, s.name, "local.rotation is not a unit quaternion");
        c.finite("shapes", i, s.name, "halfExtents", s.halfExtents);
        if (!c.failed() && !(s.halfExtents.x > 0.f && s.halfExtents.y > 0.f && s.halfExtents.z > 0.f))
            c.fail("shapes", i, s.name, "halfExtents must be positive");
    }
    for (std::size_t i = 0; i < bones.size() && !c.failed(); ++i) {
        const Bone& b = bones[i];
        if (b.parent != kNone && (b.parent < 0 || std::size_t(b.parent) >= i))
            c.fail("bones", i, b.name, "parent " + std::to_string(b.parent) + " must be an earlier bone or -1");
        if (!finiteMat(b.bindLocal) || !finiteMat(b.bindWorld) || !finiteMat(b.inverseBind))
            c.fail("bones", i, b.name, "bind matrices must be finite");
    }
    std::vector<char> bound(bones.size(), 0);
    for (std::size_t i = 0; i < bindings.size() && !c.failed(); ++i) {
        const BoneBinding& b = bindings[i];
        const std::string nm = (b.bone >= 0 && std::size_t(b.bone) < bones.size()) ? bones[b.bone].name : std::string();
        c.index("bindings", i, nm, "bone", b.bone, bones.size(), "bones");
        if (b.driver == BoneBinding::Driver::Triangle)
            c.index("bindings", i, nm, "triangle", b.index, triangles.size(), "triangles");
        else if (b.driver == BoneBinding::Driver::Stick)
            c.index("bindings", i, nm, "stick", b.index, sticks.size(), "sticks");
        else
            c.fail("bindings", i, nm, "unknown driver");
        if (!c.failed() && bound[b.bone]++)
            c.fail("bindings", i, nm, "bone is bound twice");
        if (!c.failed() && b.hasOffset) {
            c.finite("bindings", i, nm, "offset.translation", b.offset.translation);
            if (!c.failed() && !unitQuat(b.offset.rotation))
                c.fail("bindings", i, nm, "offset.rotation is not a unit quaternion");
        }
    }
    if (!c.failed()) {
        const Settings& s = settings;
        c.finite("settings", kNoIndex, {}, "gravity", s.gravity);
        c.range("settings", kNoIndex, {}, "timeStep", s.timeStep, 0.f, 0.1f, true);
        if (s.maxSubsteps < 1 || s.maxSubsteps > 64)
            c.fail("settings", kNoIndex, {}, "maxSubsteps " + std::to_string(s.maxSubsteps) + " outside [1, 64]");
        if (s.substeps < 1 || s.substeps > 64)
            c.fail("settings", kNoIndex, {}, "substeps " + std::to_string(s.substeps) + " outside [1, 64]");
        if (s.iterations < 1 || s.iterations > 64)
            c.fail("settings", kNoIndex, {}, "iterations " + std::to_string(s.iterations) + " outside [1, 64]");
        c.range("settings", kNoIndex, {}, "damping", s.damping, 0.f, 100.f);
        c.range("settings", kNoIndex, {}, "friction", s.friction, 0.f, 1e4f);
        c.range("settings", kNoIndex, {}, "staticFrictionSpeed", s.staticFrictionSpeed, 0.f, 100.f);
        c.range("settings", kNoIndex, {}, "sleepVelocity", s.sleepVelocity, 0.f, 100.f);
        c.range("settings", kNoIndex, {}, "sleepTime", s.sleepTime, 0.f, 3600.f);
        c.range("settings", kNoIndex, {}, "overRelaxation", s.overRelaxation, 1.f, 1.99f);
        if (unsigned(s.solver) > unsigned(SolverMode::Direct))
            c.fail("settings", kNoIndex, {}, "unknown solver mode");
    }
    return c.error();
}

namespace {
// The tops of validate()'s ranges for the rates (settings damping, speeds, angular damping).
constexpr float kMaxDamping = 100.f;
constexpr float kMaxSpeed = 100.f;
constexpr float kMaxAngularDamping = 1000.f;
} // namespace

void migrateLegacySettings(const LegacySettings& legacy, Settings& out)
{
    const float dt = legacy.timeStep > 0.f ? legacy.timeStep : 1.f / 60.f;
    out.substeps = 1;
    out.iterations = legacy.iterations;
    // Capped at the tops of validate()'s ranges: a valid legacy rig (drag up to 0.99, 10 m per step, any step
    // down to a few milliseconds) can ask for more than the rates allow, and must still load. NaN stays NaN
    // (validate() refuses it).
    out.damping = legacy.drag > 0.f && legacy.drag < 1.f ? std::min(-std::log1p(-legacy.drag) / dt, kMaxDamping)
                                                         : (legacy.drag <= 0.f ? 0.f : kMaxDamping);
    out.staticFrictionSpeed = std::min(legacy.staticFriction / dt, kMaxSpeed);
}

void migrateLegacyAngularFriction(float dynamicFriction, float staticFrictionAngle, float timeStep, AngularConstraint& out)
{
    const float dt = timeStep > 0.f ? timeStep : 1.f / 60.f;
    out.damping = dynamicFriction > 0.f && dynamicFriction < 1.f
                      ? std::min(-std::log1p(-dynamicFriction) / dt, kMaxAngularDamping)
                      : (dynamicFriction <= 0.f ? 0.f : kMaxAngularDamping);
    out.staticFrictionSpeed = std::min(staticFrictionAngle / dt, kMaxSpeed); // capped as in migrateLegacySettings
}

float migrateLegacyPinStiffness(float stiffness, std::uint32_t iterations, float timeStep)
{
    if (!(stiffness < 1.f))
        return 1.f;
    const float dt = timeStep > 0.f ? timeStep : 1.f / 60.f;
    // Per iteration s, iterations n per step of dt: over 1/60 s the remaining distance keeps (1 − s)^(n/(60 dt)).
    const float perReference = 1.f - std::pow(1.f - stiffness, float(iterations) / (60.f * dt));
    return std::clamp(perReference, 1e-6f, 1.f);
}

} // namespace marionette::rig
