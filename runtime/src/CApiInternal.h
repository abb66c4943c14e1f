// Marionette — internal: shared pieces of the C API implementation (CApiRig.cpp, CApiWorld.cpp).
//
// Every entry point validates its arguments, runs the C++ code inside guarded() so that no exception
// crosses the C boundary, and reports failures through a thread-local fixed-size message buffer (writing
// the message never allocates, so an out-of-memory failure can still be described).
#pragma once

#include "marionette/marionette.h"

#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace mr = marionette;
namespace rt = marionette::runtime;

namespace marionette::capi {

constexpr std::uint32_t kRigMagic = 0x4D524947u;   // "MRIG"
constexpr std::uint32_t kWorldMagic = 0x4D574C44u; // "MWLD"
constexpr std::size_t kMaxElements = std::size_t(std::numeric_limits<std::int32_t>::max());

} // namespace marionette::capi

struct MrRig {
    std::uint32_t magic = marionette::capi::kRigMagic;
    std::atomic<std::uint32_t> references{1};
    std::shared_ptr<const rt::Rig> rig;
};

struct MrWorld {
    explicit MrWorld(const rt::WorldSettings& settings) : world(settings) {}

    std::uint32_t magic = marionette::capi::kWorldMagic;
    rt::World world;
    // Scratch sized on spawn to the largest rig spawned, so per-frame calls never allocate.
    std::vector<mr::Vec3> poseCurrent, posePrevious;
    std::vector<mr::Mat4> matrices;
    std::vector<mr::rig::DriveGains> gains; ///< drive gains converted from MrDriveGains
    /// At least the live ragdoll count: mrWorldGetStats() lists the ragdolls into it (a const query).
    mutable std::vector<rt::RagdollHandle> handles;
    double lastStepSeconds = 0.0; ///< wall-clock time of the last step (MrWorldStats)
};

namespace marionette::capi {

inline thread_local char tLastError[512] = "";

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
inline MrResult fail(MrResult code, const char* format, ...) noexcept
{
    va_list args;
    va_start(args, format);
    std::vsnprintf(tLastError, sizeof tLastError, format, args);
    va_end(args);
    return code;
}

/// Runs f, turning any escaping exception into an error code.
template <class F>
MrResult guarded(const char* function, F&& f) noexcept
{
    try {
        return f();
    } catch (const std::bad_alloc&) {
        return fail(MR_OUT_OF_MEMORY, "%s: out of memory", function);
    } catch (const std::exception& e) {
        return fail(MR_INTERNAL, "%s: internal error: %s", function, e.what());
    } catch (...) {
        return fail(MR_INTERNAL, "%s: internal error (unknown exception)", function);
    }
}

inline bool finite(float v) { return std::isfinite(v); }
inline bool finite(MrVec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
inline bool finite(MrQuat q) { return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w); }

inline mr::Vec3 toVec(MrVec3 v) { return {v.x, v.y, v.z}; }
inline MrVec3 toMr(mr::Vec3 v) { return {v.x, v.y, v.z}; }
inline mr::Quat toQuat(MrQuat q) { return {q.x, q.y, q.z, q.w}; }
inline MrQuat toMr(mr::Quat q) { return {q.x, q.y, q.z, q.w}; }
inline mr::Transform toTransform(const MrTransform* t)
{
    if (!t)
        return {};
    return {toQuat(t->rotation), toVec(t->translation)};
}
inline double d(float v) { return double(v); }

inline MrDriveGains toMr(const mr::rig::DriveGains& g)
{
    MrDriveGains c;
    c.motorFrequency = g.motorFrequency;
    c.motorDamping = g.motorDamping;
    c.maxTorque = g.maxTorque;
    c.pinFrequency = g.pinFrequency;
    c.pinDamping = g.pinDamping;
    c.maxForce = g.maxForce;
    c.kinematic = g.kinematic ? 1 : 0;
    return c;
}

inline mr::rig::DriveGains toGains(const MrDriveGains& c)
{
    return {c.motorFrequency, c.motorDamping, c.maxTorque, c.pinFrequency, c.pinDamping, c.maxForce, c.kinematic != 0};
}

inline MrResult nullArgument(const char* function, const char* name)
{
    return fail(MR_INVALID_ARGUMENT, "%s: %s is NULL", function, name);
}

inline MrResult checkRig(const char* function, const MrRig* rig)
{
    if (!rig)
        return nullArgument(function, "rig");
    if (rig->magic != kRigMagic || !rig->rig)
        return fail(MR_INVALID_ARGUMENT, "%s: rig is not a live MrRig handle", function);
    return MR_OK;
}

inline MrResult checkWorld(const char* function, const MrWorld* world)
{
    if (!world)
        return nullArgument(function, "world");
    if (world->magic != kWorldMagic)
        return fail(MR_INVALID_ARGUMENT, "%s: world is not a live MrWorld handle", function);
    return MR_OK;
}

template <class W, class R>
MrResult findRagdoll(const char* function, W* world, MrRagdoll handle, R*& out)
{
    if (MrResult r = checkWorld(function, world); r != MR_OK)
        return r;
    out = world->world.ragdoll(handle);
    if (!out)
        return fail(MR_NOT_FOUND, "%s: ragdoll %llu is not a live ragdoll of this world", function,
                    static_cast<unsigned long long>(handle));
    return MR_OK;
}

inline MrResult checkAlpha(const char* function, float alpha)
{
    if (!(alpha >= 0.f && alpha <= 1.f))
        return fail(MR_INVALID_ARGUMENT, "%s: alpha %g outside [0, 1]", function, d(alpha));
    return MR_OK;
}

/// Common buffer protocol of the getters: writes *count, then checks out/capacity.
inline MrResult checkBuffer(const char* function, const void* out, std::size_t capacity, std::size_t* count,
                     std::size_t needed, bool& queryOnly)
{
    queryOnly = false;
    if (!count)
        return nullArgument(function, "count");
    *count = needed;
    if (!out) {
        if (capacity != 0)
            return fail(MR_INVALID_ARGUMENT, "%s: out is NULL but capacity is %zu", function, capacity);
        queryOnly = true;
        return MR_OK;
    }
    if (capacity < needed)
        return fail(MR_INVALID_ARGUMENT, "%s: capacity %zu is below the required %zu", function, capacity, needed);
    return MR_OK;
}

inline MrResult wrapRig(const char* function, const mr::rig::RigDescription& description, MrRig** out)
{
    std::string error;
    std::shared_ptr<const rt::Rig> rig = rt::Rig::build(description, &error);
    if (!rig)
        return fail(MR_INVALID_RIG, "%s: %s", function, error.empty() ? "invalid rig" : error.c_str());
    auto handle = std::make_unique<MrRig>();
    handle->rig = std::move(rig);
    *out = handle.release();
    return MR_OK;
}

inline std::string nameOf(const char* name) { return name ? std::string(name) : std::string(); }

/// "list[i] 'name': " prefix as in RigDescription::validate() messages.
inline MrResult elementError(const char* function, const char* list, std::size_t i, const char* name, const char* what,
                      long long value)
{
    if (name && *name)
        return fail(MR_INVALID_RIG, "%s: %s[%zu] '%s': %s %lld", function, list, i, name, what, value);
    return fail(MR_INVALID_RIG, "%s: %s[%zu]: %s %lld", function, list, i, what, value);
}

template <class T>
MrResult checkArray(const char* function, const char* field, const T* data, std::size_t count)
{
    if (count > 0 && !data)
        return fail(MR_INVALID_ARGUMENT, "%s: desc->%s is NULL but its count is %zu", function, field, count);
    if (count > kMaxElements)
        return fail(MR_INVALID_ARGUMENT, "%s: desc->%s count %zu exceeds INT32_MAX", function, field, count);
    return MR_OK;
}

/// Converts the C description; enum fields are range-checked here because a C int does not fit the
/// C++ enums' underlying types. Everything else is left to RigDescription::validate().
inline MrResult convertDescription(const char* function, const MrRigDesc& c, mr::rig::RigDescription& out)
{
    namespace rig = mr::rig;
    if (MrResult r = checkArray(function, "particles", c.particles, c.particleCount); r != MR_OK)
        return r;
    if (MrResult r = checkArray(function, "sticks", c.sticks, c.stickCount); r != MR_OK)
        return r;
    if (MrResult r = checkArray(function, "angles", c.angles, c.angleCount); r != MR_OK)
        return r;
    if (MrResult r = checkArray(function, "triangles", c.triangles, c.triangleCount); r != MR_OK)
        return r;
    if (MrResult r = checkArray(function, "angular", c.angular, c.angularCount); r != MR_OK)
        return r;
    if (MrResult r = checkArray(function, "pins", c.pins, c.pinCount); r != MR_OK)
        return r;

    out.name = nameOf(c.name);
    out.particles.resize(c.particleCount);
    for (std::size_t i = 0; i < c.particleCount; ++i) {
        const MrParticleDesc& s = c.particles[i];
        rig::Particle& p = out.particles[i];
        p.name = nameOf(s.name);
        p.position = toVec(s.position);
        p.mass = s.mass;
        p.radius = s.radius;
        p.group = s.group;
        p.mask = s.mask;
    }
    out.sticks.resize(c.stickCount);
    for (std::size_t i = 0; i < c.stickCount; ++i) {
        const MrStickDesc& s = c.sticks[i];
        rig::Stick& k = out.sticks[i];
        if (s.kind < MR_STICK_RIGID || s.kind > MR_STICK_MAX_ONLY)
            return elementError(function, "sticks", i, s.name, "unknown kind", s.kind);
        k.name = nameOf(s.name);
        k.a = s.a;
        k.b = s.b;
        k.kind = static_cast<rig::StickKind>(s.kind);
        k.restLength = s.restLength;
        k.minLength = s.minLength;
        k.maxLength = s.maxLength;
        k.stiffness = s.stiffness;
        k.compliance = s.compliance;
        k.tearRatio = s.tearRatio;
        k.capsuleRadius = s.capsuleRadius;
        k.group = s.group;
        k.mask = s.mask;
    }
    out.angles.resize(c.angleCount);
    for (std::size_t i = 0; i < c.angleCount; ++i) {
        const MrAngleDesc& s = c.angles[i];
        rig::AngleConstraint& a = out.angles[i];
        if (s.form < MR_ANGLE_DOT_PRODUCT || s.form > MR_ANGLE_LAW_OF_COSINES)
            return elementError(function, "angles", i, s.name, "unknown form", s.form);
        a.name = nameOf(s.name);
        a.center = s.center;
        a.a = s.a;
        a.b = s.b;
        a.minAngle = s.minAngle;
        a.maxAngle = s.maxAngle;
        a.stiffness = s.stiffness;
        a.form = static_cast<rig::AngleConstraint::Form>(s.form);
    }
    out.triangles.resize(c.triangleCount);
    for (std::size_t i = 0; i < c.triangleCount; ++i) {
        const MrTriangleDesc& s = c.triangles[i];
        rig::Triangle& t = out.triangles[i];
        t.name = nameOf(s.name);
        for (int k = 0; k < 3; ++k)
            t.p[k] = s.p[k];
    }
    out.angular.resize(c.angularCount);
    for (std::size_t i = 0; i < c.angularCount; ++i) {
        const MrAngularDesc& s = c.angular[i];
        rig::AngularConstraint& a = out.angular[i];
        if (s.limit < MR_ANGULAR_CONE || s.limit > MR_ANGULAR_SWING_TWIST)
            return elementError(function, "angular", i, s.name, "unknown limit kind", s.limit);
        a.name = nameOf(s.name);
        a.triangleA = s.triangleA;
        a.triangleB = s.triangleB;
        a.limit = static_cast<rig::AngularLimit>(s.limit);
        a.coneAngle = s.coneAngle;
        a.twistAxis = toVec(s.twistAxis);
        a.swingAxis1 = toVec(s.swingAxis1);
        a.twistMin = s.twistMin;
        a.twistMax = s.twistMax;
        a.swing1 = s.swing1;
        a.swing2 = s.swing2;
        a.stiffness = s.stiffness;
        a.damping = s.damping;
        a.staticFrictionSpeed = s.staticFrictionSpeed;
        a.hasRestOrientation = s.hasRestOrientation != 0;
        a.restOrientation = toQuat(s.restOrientation);
    }
    out.pins.resize(c.pinCount);
    for (std::size_t i = 0; i < c.pinCount; ++i) {
        const MrPinDesc& s = c.pins[i];
        rig::Pin& p = out.pins[i];
        p.name = nameOf(s.name);
        p.particle = s.particle;
        p.target = toVec(s.target);
        p.stiffness = s.stiffness;
        p.kinematic = s.kinematic != 0;
    }
    const MrRigSettings& cs = c.settings;
    if (cs.solver < MR_SOLVER_GAUSS_SEIDEL || cs.solver > MR_SOLVER_DIRECT)
        return fail(MR_INVALID_RIG, "%s: settings: unknown solver mode %d", function, int(cs.solver));
    rig::Settings& s = out.settings; // gravity, timeStep and maxSubsteps keep their defaults (world-level)
    s.substeps = cs.substeps;
    s.iterations = cs.iterations;
    s.damping = cs.damping;
    s.friction = cs.friction;
    s.staticFrictionSpeed = cs.staticFrictionSpeed;
    s.sleepVelocity = cs.sleepVelocity;
    s.sleepTime = cs.sleepTime;
    s.overRelaxation = cs.overRelaxation;
    s.sqrtApproximation = cs.sqrtApproximation != 0;
    s.solver = static_cast<rig::SolverMode>(cs.solver);
    return MR_OK;
}

inline MrResult copyMatrices(const char* function, MrWorld* world, MrRagdoll ragdoll, MrMat4* out, std::size_t capacity,
                      std::size_t* count, float alpha, bool skinning)
{
    return guarded(function, [&]() -> MrResult {
        const rt::Ragdoll* r = nullptr;
        if (MrResult e = findRagdoll(function, world, ragdoll, r); e != MR_OK)
            return e;
        if (MrResult e = checkAlpha(function, alpha); e != MR_OK)
            return e;
        const std::size_t n = r->rig().bones().size();
        bool queryOnly = false;
        if (MrResult e = checkBuffer(function, out, capacity, count, n, queryOnly); e != MR_OK || queryOnly)
            return e;
        if (world->matrices.size() < n)
            world->matrices.resize(n); // normally sized by mrWorldSpawn already
        const std::span<mr::Mat4> scratch(world->matrices.data(), n);
        const bool ok = skinning ? r->skinningMatrices(scratch, alpha) : r->boneMatrices(scratch, alpha);
        if (!ok)
            return fail(MR_INTERNAL, "%s: the runtime refused a %zu-matrix buffer", function, n);
        for (std::size_t i = 0; i < n; ++i)
            std::memcpy(out[i].m, scratch[i].m, sizeof out[i].m);
        return MR_OK;
    });
}

} // namespace marionette::capi

