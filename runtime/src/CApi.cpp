// Marionette — the C API (marionette/marionette.h) over the C++ runtime.
//
// Every entry point validates its arguments, runs the C++ code inside guarded() so that no exception
// crosses the C boundary, and reports failures through a thread-local fixed-size message buffer (writing
// the message never allocates, so an out-of-memory failure can still be described).
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

namespace {

constexpr std::uint32_t kRigMagic = 0x4D524947u;   // "MRIG"
constexpr std::uint32_t kWorldMagic = 0x4D574C44u; // "MWLD"
constexpr std::size_t kMaxElements = std::size_t(std::numeric_limits<std::int32_t>::max());

} // namespace

struct MrRig {
    std::uint32_t magic = kRigMagic;
    std::atomic<std::uint32_t> references{1};
    std::shared_ptr<const rt::Rig> rig;
};

struct MrWorld {
    explicit MrWorld(const rt::WorldSettings& settings) : world(settings) {}

    std::uint32_t magic = kWorldMagic;
    rt::World world;
    // Scratch sized on spawn to the largest rig spawned, so per-frame calls never allocate.
    std::vector<mr::Vec3> poseCurrent, posePrevious;
    std::vector<mr::Mat4> matrices;
};

namespace {

thread_local char tLastError[512] = "";

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
MrResult fail(MrResult code, const char* format, ...) noexcept
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

bool finite(float v) { return std::isfinite(v); }
bool finite(MrVec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
bool finite(MrQuat q) { return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w); }

mr::Vec3 toVec(MrVec3 v) { return {v.x, v.y, v.z}; }
MrVec3 toMr(mr::Vec3 v) { return {v.x, v.y, v.z}; }
mr::Quat toQuat(MrQuat q) { return {q.x, q.y, q.z, q.w}; }
MrQuat toMr(mr::Quat q) { return {q.x, q.y, q.z, q.w}; }
mr::Transform toTransform(const MrTransform* t)
{
    if (!t)
        return {};
    return {toQuat(t->rotation), toVec(t->translation)};
}
double d(float v) { return double(v); }

MrResult nullArgument(const char* function, const char* name)
{
    return fail(MR_INVALID_ARGUMENT, "%s: %s is NULL", function, name);
}

MrResult checkRig(const char* function, const MrRig* rig)
{
    if (!rig)
        return nullArgument(function, "rig");
    if (rig->magic != kRigMagic || !rig->rig)
        return fail(MR_INVALID_ARGUMENT, "%s: rig is not a live MrRig handle", function);
    return MR_OK;
}

MrResult checkWorld(const char* function, const MrWorld* world)
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

MrResult checkAlpha(const char* function, float alpha)
{
    if (!(alpha >= 0.f && alpha <= 1.f))
        return fail(MR_INVALID_ARGUMENT, "%s: alpha %g outside [0, 1]", function, d(alpha));
    return MR_OK;
}

/// Common buffer protocol of the getters: writes *count, then checks out/capacity.
MrResult checkBuffer(const char* function, const void* out, std::size_t capacity, std::size_t* count,
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

MrResult wrapRig(const char* function, const mr::rig::RigDescription& description, MrRig** out)
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

std::string nameOf(const char* name) { return name ? std::string(name) : std::string(); }

/// "list[i] 'name': " prefix as in RigDescription::validate() messages.
MrResult elementError(const char* function, const char* list, std::size_t i, const char* name, const char* what,
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
MrResult convertDescription(const char* function, const MrRigDesc& c, mr::rig::RigDescription& out)
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
        a.dynamicFriction = s.dynamicFriction;
        a.staticFrictionAngle = s.staticFrictionAngle;
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
    if (cs.solver < MR_SOLVER_GAUSS_SEIDEL || cs.solver > MR_SOLVER_XPBD)
        return fail(MR_INVALID_RIG, "%s: settings: unknown solver mode %d", function, int(cs.solver));
    rig::Settings& s = out.settings; // gravity, timeStep and maxSubsteps keep their defaults (world-level)
    s.iterations = cs.iterations;
    s.drag = cs.drag;
    s.friction = cs.friction;
    s.staticFriction = cs.staticFriction;
    s.sleepVelocity = cs.sleepVelocity;
    s.sleepTime = cs.sleepTime;
    s.overRelaxation = cs.overRelaxation;
    s.sqrtApproximation = cs.sqrtApproximation != 0;
    s.solver = static_cast<rig::SolverMode>(cs.solver);
    return MR_OK;
}

MrResult copyMatrices(const char* function, MrWorld* world, MrRagdoll ragdoll, MrMat4* out, std::size_t capacity,
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

} // namespace

// ---- results ------------------------------------------------------------------------------------------

extern "C" const char* mrLastError(void) { return tLastError; }

extern "C" const char* mrResultString(MrResult result)
{
    switch (result) {
    case MR_OK: return "MR_OK";
    case MR_INVALID_ARGUMENT: return "MR_INVALID_ARGUMENT";
    case MR_INVALID_RIG: return "MR_INVALID_RIG";
    case MR_NOT_FOUND: return "MR_NOT_FOUND";
    case MR_OUT_OF_MEMORY: return "MR_OUT_OF_MEMORY";
    case MR_INTERNAL: return "MR_INTERNAL";
    }
    return "MR_UNKNOWN";
}

// ---- description defaults (taken from the C++ defaults so the two cannot drift apart) -----------------

extern "C" MrRigSettings mrRigSettingsDefault(void)
{
    const mr::rig::Settings s;
    MrRigSettings c;
    c.iterations = s.iterations;
    c.drag = s.drag;
    c.friction = s.friction;
    c.staticFriction = s.staticFriction;
    c.sleepVelocity = s.sleepVelocity;
    c.sleepTime = s.sleepTime;
    c.overRelaxation = s.overRelaxation;
    c.sqrtApproximation = s.sqrtApproximation ? 1 : 0;
    c.solver = static_cast<std::int32_t>(s.solver);
    return c;
}

extern "C" MrRigDesc mrRigDescDefault(void)
{
    MrRigDesc c;
    std::memset(&c, 0, sizeof c);
    c.settings = mrRigSettingsDefault();
    return c;
}

extern "C" MrParticleDesc mrParticleDescDefault(void)
{
    const mr::rig::Particle p;
    MrParticleDesc c;
    c.name = nullptr;
    c.position = toMr(p.position);
    c.mass = p.mass;
    c.radius = p.radius;
    c.group = p.group;
    c.mask = p.mask;
    return c;
}

extern "C" MrStickDesc mrStickDescDefault(void)
{
    const mr::rig::Stick s;
    MrStickDesc c;
    c.name = nullptr;
    c.a = s.a;
    c.b = s.b;
    c.kind = static_cast<std::int32_t>(s.kind);
    c.restLength = s.restLength;
    c.minLength = s.minLength;
    c.maxLength = s.maxLength;
    c.stiffness = s.stiffness;
    c.compliance = s.compliance;
    c.tearRatio = s.tearRatio;
    c.capsuleRadius = s.capsuleRadius;
    c.group = s.group;
    c.mask = s.mask;
    return c;
}

extern "C" MrAngleDesc mrAngleDescDefault(void)
{
    const mr::rig::AngleConstraint a;
    MrAngleDesc c;
    c.name = nullptr;
    c.center = a.center;
    c.a = a.a;
    c.b = a.b;
    c.minAngle = a.minAngle;
    c.maxAngle = a.maxAngle;
    c.stiffness = a.stiffness;
    c.form = static_cast<std::int32_t>(a.form);
    return c;
}

extern "C" MrTriangleDesc mrTriangleDescDefault(void)
{
    MrTriangleDesc c;
    c.name = nullptr;
    c.p[0] = 0;
    c.p[1] = 0;
    c.p[2] = 0;
    return c;
}

extern "C" MrAngularDesc mrAngularDescDefault(void)
{
    const mr::rig::AngularConstraint a;
    MrAngularDesc c;
    c.name = nullptr;
    c.triangleA = a.triangleA;
    c.triangleB = a.triangleB;
    c.limit = static_cast<std::int32_t>(a.limit);
    c.coneAngle = a.coneAngle;
    c.twistAxis = toMr(a.twistAxis);
    c.swingAxis1 = toMr(a.swingAxis1);
    c.twistMin = a.twistMin;
    c.twistMax = a.twistMax;
    c.swing1 = a.swing1;
    c.swing2 = a.swing2;
    c.stiffness = a.stiffness;
    c.dynamicFriction = a.dynamicFriction;
    c.staticFrictionAngle = a.staticFrictionAngle;
    c.hasRestOrientation = a.hasRestOrientation ? 1 : 0;
    c.restOrientation = toMr(a.restOrientation);
    return c;
}

extern "C" MrPinDesc mrPinDescDefault(void)
{
    const mr::rig::Pin p;
    MrPinDesc c;
    c.name = nullptr;
    c.particle = p.particle;
    c.target = toMr(p.target);
    c.stiffness = p.stiffness;
    c.kinematic = p.kinematic ? 1 : 0;
    return c;
}

// ---- rigs ---------------------------------------------------------------------------------------------

extern "C" MrResult mrRigCreateHumanoid(float height, float mass, MrRig** out)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        if (!out)
            return nullArgument(F, "out");
        if (!(height >= 0.1f && height <= 100.f))
            return fail(MR_INVALID_ARGUMENT, "%s: height %g outside [0.1, 100] m", F, d(height));
        if (!(mass > 0.f && mass <= 1e6f))
            return fail(MR_INVALID_ARGUMENT, "%s: mass %g outside (0, 1e6] kg", F, d(mass));
        rt::HumanoidOptions options;
        options.height = height;
        options.mass = mass;
        return wrapRig(F, rt::makeHumanoid(options), out);
    });
}

extern "C" MrResult mrRigCreateCloth(int cols, int rows, float spacing, int pinTopRow, float tearRatio, MrRig** out)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        if (!out)
            return nullArgument(F, "out");
        if (cols < 1 || cols > 4096 || rows < 1 || rows > 4096)
            return fail(MR_INVALID_ARGUMENT, "%s: %d x %d particles: cols and rows must be in [1, 4096]", F, cols, rows);
        if (long(cols) * long(rows) > (1L << 20))
            return fail(MR_INVALID_ARGUMENT, "%s: %d x %d particles exceeds 1048576", F, cols, rows);
        if (!(spacing > 0.f && spacing <= 100.f))
            return fail(MR_INVALID_ARGUMENT, "%s: spacing %g outside (0, 100] m", F, d(spacing));
        if (!(tearRatio == 0.f || (tearRatio > 1.f && tearRatio <= 1e6f)))
            return fail(MR_INVALID_ARGUMENT, "%s: tearRatio %g must be 0 (never) or in (1, 1e6]", F, d(tearRatio));
        return wrapRig(F, rt::makeCloth(cols, rows, spacing, pinTopRow != 0, tearRatio), out);
    });
}

extern "C" MrResult mrRigCreateCrate(MrVec3 half, float mass, MrRig** out)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        if (!out)
            return nullArgument(F, "out");
        const auto ok = [](float h) { return h > 0.f && h <= 1e3f; };
        if (!ok(half.x) || !ok(half.y) || !ok(half.z))
            return fail(MR_INVALID_ARGUMENT, "%s: half extents (%g, %g, %g) must each be in (0, 1e3] m", F, d(half.x),
                        d(half.y), d(half.z));
        if (!(mass > 0.f && mass <= 1e6f))
            return fail(MR_INVALID_ARGUMENT, "%s: mass %g outside (0, 1e6] kg", F, d(mass));
        return wrapRig(F, rt::makeCrate(toVec(half), mass), out);
    });
}

extern "C" MrResult mrRigCreate(const MrRigDesc* desc, MrRig** out)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        if (!desc)
            return nullArgument(F, "desc");
        if (!out)
            return nullArgument(F, "out");
        mr::rig::RigDescription description;
        if (MrResult r = convertDescription(F, *desc, description); r != MR_OK)
            return r;
        return wrapRig(F, description, out);
    });
}

extern "C" MrResult mrRigRetain(MrRig* rig)
{
    const char* const F = __func__;
    if (MrResult r = checkRig(F, rig); r != MR_OK)
        return r;
    rig->references.fetch_add(1, std::memory_order_relaxed);
    return MR_OK;
}

extern "C" MrResult mrRigRelease(MrRig* rig)
{
    const char* const F = __func__;
    if (!rig)
        return MR_OK;
    if (MrResult r = checkRig(F, rig); r != MR_OK)
        return r;
    if (rig->references.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        rig->magic = 0;
        delete rig; // the shared_ptr destructor does not throw
    }
    return MR_OK;
}

extern "C" MrResult mrRigParticleCount(const MrRig* rig, uint32_t* count)
{
    const char* const F = __func__;
    if (MrResult r = checkRig(F, rig); r != MR_OK)
        return r;
    if (!count)
        return nullArgument(F, "count");
    *count = static_cast<std::uint32_t>(rig->rig->particleCount());
    return MR_OK;
}

extern "C" MrResult mrRigStickCount(const MrRig* rig, uint32_t* count)
{
    const char* const F = __func__;
    if (MrResult r = checkRig(F, rig); r != MR_OK)
        return r;
    if (!count)
        return nullArgument(F, "count");
    *count = static_cast<std::uint32_t>(rig->rig->description().sticks.size());
    return MR_OK;
}

extern "C" MrResult mrRigBoneCount(const MrRig* rig, uint32_t* count)
{
    const char* const F = __func__;
    if (MrResult r = checkRig(F, rig); r != MR_OK)
        return r;
    if (!count)
        return nullArgument(F, "count");
    *count = static_cast<std::uint32_t>(rig->rig->bones().size());
    return MR_OK;
}

// ---- worlds -------------------------------------------------------------------------------------------

extern "C" MrWorldSettings mrWorldSettingsDefault(void)
{
    const rt::WorldSettings s;
    MrWorldSettings c;
    c.gravity = toMr(s.gravity);
    c.timeStep = s.timeStep;
    c.maxSubsteps = s.maxSubsteps;
    c.threads = s.threads;
    c.ragdollCollisions = s.ragdollCollisions ? 1 : 0;
    c.sleep = s.sleep ? 1 : 0;
    c.contactsPerRagdoll = s.contactsPerRagdoll;
    return c;
}

extern "C" MrResult mrWorldCreate(const MrWorldSettings* settings, MrWorld** out)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        if (!out)
            return nullArgument(F, "out");
        const MrWorldSettings c = settings ? *settings : mrWorldSettingsDefault();
        if (!finite(c.gravity))
            return fail(MR_INVALID_ARGUMENT, "%s: gravity is not a finite vector", F);
        if (!(c.timeStep > 0.f && c.timeStep <= 0.1f))
            return fail(MR_INVALID_ARGUMENT, "%s: timeStep %g outside (0, 0.1] s", F, d(c.timeStep));
        if (c.maxSubsteps < 1 || c.maxSubsteps > 64)
            return fail(MR_INVALID_ARGUMENT, "%s: maxSubsteps %u outside [1, 64]", F, unsigned(c.maxSubsteps));
        if (c.threads < 1 || c.threads > 64)
            return fail(MR_INVALID_ARGUMENT, "%s: threads %u outside [1, 64]", F, unsigned(c.threads));
        if (c.contactsPerRagdoll < 1 || c.contactsPerRagdoll > 65536)
            return fail(MR_INVALID_ARGUMENT, "%s: contactsPerRagdoll %u outside [1, 65536]", F,
                        unsigned(c.contactsPerRagdoll));
        rt::WorldSettings s;
        s.gravity = toVec(c.gravity);
        s.timeStep = c.timeStep;
        s.maxSubsteps = c.maxSubsteps;
        s.threads = c.threads;
        s.ragdollCollisions = c.ragdollCollisions != 0;
        s.sleep = c.sleep != 0;
        s.contactsPerRagdoll = c.contactsPerRagdoll;
        *out = new MrWorld(s);
        return MR_OK;
    });
}

extern "C" MrResult mrWorldDestroy(MrWorld* world)
{
    const char* const F = __func__;
    if (!world)
        return MR_OK;
    if (MrResult r = checkWorld(F, world); r != MR_OK)
        return r;
    return guarded(F, [&]() -> MrResult {
        world->magic = 0;
        delete world;
        return MR_OK;
    });
}

extern "C" MrResult mrWorldSetGravity(MrWorld* world, MrVec3 gravity)
{
    const char* const F = __func__;
    if (MrResult r = checkWorld(F, world); r != MR_OK)
        return r;
    if (!finite(gravity) || !world->world.setGravity(toVec(gravity)))
        return fail(MR_INVALID_ARGUMENT, "%s: gravity is not a finite vector", F);
    return MR_OK;
}

namespace {

MrResult finishAdd(const char* function, int id, const std::string& error, int32_t* idOut)
{
    if (id < 0)
        return fail(MR_INVALID_ARGUMENT, "%s: %s", function, error.empty() ? "rejected by the world" : error.c_str());
    if (idOut)
        *idOut = id;
    return MR_OK;
}

} // namespace

extern "C" MrResult mrWorldAddPlane(MrWorld* world, MrVec3 normal, float offset, int32_t* idOut)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        if (MrResult r = checkWorld(F, world); r != MR_OK)
            return r;
        std::string error;
        const int id = world->world.addPlane(toVec(normal), offset, &error);
        return finishAdd(F, id, error, idOut);
    });
}

extern "C" MrResult mrWorldAddBox(MrWorld* world, const MrTransform* pose, MrVec3 half, int32_t* idOut)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        if (MrResult r = checkWorld(F, world); r != MR_OK)
            return r;
        std::string error;
        const int id = world->world.addBox(toTransform(pose), toVec(half), &error);
        return finishAdd(F, id, error, idOut);
    });
}

extern "C" MrResult mrWorldAddSphere(MrWorld* world, MrVec3 centre, float radius, int32_t* idOut)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        if (MrResult r = checkWorld(F, world); r != MR_OK)
            return r;
        std::string error;
        const int id = world->world.addSphere(toVec(centre), radius, &error);
        return finishAdd(F, id, error, idOut);
    });
}

extern "C" MrResult mrWorldAddCapsule(MrWorld* world, MrVec3 a, MrVec3 b, float radius, int32_t* idOut)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        if (MrResult r = checkWorld(F, world); r != MR_OK)
            return r;
        std::string error;
        const int id = world->world.addCapsule(toVec(a), toVec(b), radius, &error);
        return finishAdd(F, id, error, idOut);
    });
}

extern "C" MrResult mrWorldAddTriangleMesh(MrWorld* world, const float* vertices, size_t vertexCount,
                                           const uint32_t* indices, size_t indexCount, int32_t* idOut)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        if (MrResult r = checkWorld(F, world); r != MR_OK)
            return r;
        if (vertexCount > 0 && !vertices)
            return fail(MR_INVALID_ARGUMENT, "%s: vertices is NULL but vertexCount is %zu", F, vertexCount);
        if (indexCount > 0 && !indices)
            return fail(MR_INVALID_ARGUMENT, "%s: indices is NULL but indexCount is %zu", F, indexCount);
        if (vertexCount > kMaxElements || indexCount > kMaxElements)
            return fail(MR_INVALID_ARGUMENT, "%s: vertexCount %zu or indexCount %zu exceeds INT32_MAX", F, vertexCount,
                        indexCount);
        if (indexCount % 3 != 0)
            return fail(MR_INVALID_ARGUMENT, "%s: indexCount %zu is not a multiple of 3", F, indexCount);
        std::vector<mr::Vec3> points(vertexCount);
        for (std::size_t i = 0; i < vertexCount; ++i) {
            points[i] = {vertices[3 * i], vertices[3 * i + 1], vertices[3 * i + 2]};
            if (!mr::isFinite(points[i]))
                return fail(MR_INVALID_ARGUMENT, "%s: vertex %zu is not finite", F, i);
        }
        for (std::size_t k = 0; k < indexCount; ++k)
            if (indices[k] >= vertexCount)
                return fail(MR_INVALID_ARGUMENT, "%s: indices[%zu] = %u is out of range (%zu vertices)", F, k,
                            unsigned(indices[k]), vertexCount);
        std::string error;
        const int id = world->world.addTriangleMesh(points, std::span<const std::uint32_t>(indices, indexCount), &error);
        return finishAdd(F, id, error, idOut);
    });
}

extern "C" MrResult mrWorldSpawn(MrWorld* world, const MrRig* rig, const MrTransform* placement, MrVec3 velocity,
                                 MrRagdoll* out)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        if (MrResult r = checkWorld(F, world); r != MR_OK)
            return r;
        if (MrResult r = checkRig(F, rig); r != MR_OK)
            return r;
        if (!out)
            return nullArgument(F, "out");
        if (placement && (!finite(placement->rotation) || !finite(placement->translation)))
            return fail(MR_INVALID_ARGUMENT, "%s: placement is not finite", F);
        if (!finite(velocity))
            return fail(MR_INVALID_ARGUMENT, "%s: velocity is not finite", F);
        if (placement) {
            const MrQuat q = placement->rotation;
            const float n = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
            if (std::fabs(n - 1.f) > 1e-3f)
                return fail(MR_INVALID_ARGUMENT, "%s: placement rotation is not a unit quaternion (|q|^2 = %g)", F, d(n));
        }
        // Grow the per-call scratch first: a failure here leaves the world unchanged.
        const rt::Rig& compiled = *rig->rig;
        if (world->poseCurrent.size() < compiled.particleCount()) {
            world->poseCurrent.resize(compiled.particleCount());
            world->posePrevious.resize(compiled.particleCount());
        }
        if (world->matrices.size() < compiled.bones().size())
            world->matrices.resize(compiled.bones().size());
        std::string error;
        const rt::RagdollHandle h = world->world.spawn(rig->rig, toTransform(placement), toVec(velocity), &error);
        if (h == rt::kInvalidRagdoll)
            return fail(MR_INVALID_ARGUMENT, "%s: %s", F, error.empty() ? "spawn failed" : error.c_str());
        *out = h;
        return MR_OK;
    });
}

extern "C" MrResult mrWorldRemove(MrWorld* world, MrRagdoll ragdoll)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        if (MrResult r = checkWorld(F, world); r != MR_OK)
            return r;
        if (!world->world.remove(ragdoll))
            return fail(MR_NOT_FOUND, "%s: ragdoll %llu is not a live ragdoll of this world", F,
                        static_cast<unsigned long long>(ragdoll));
        return MR_OK;
    });
}

extern "C" MrResult mrWorldRagdollCount(const MrWorld* world, uint32_t* count)
{
    const char* const F = __func__;
    if (MrResult r = checkWorld(F, world); r != MR_OK)
        return r;
    if (!count)
        return nullArgument(F, "count");
    *count = static_cast<std::uint32_t>(world->world.ragdollCount());
    return MR_OK;
}

extern "C" MrResult mrWorldStep(MrWorld* world)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        if (MrResult r = checkWorld(F, world); r != MR_OK)
            return r;
        world->world.step();
        return MR_OK;
    });
}

extern "C" MrResult mrWorldAdvance(MrWorld* world, float seconds, uint32_t* stepsOut)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        if (MrResult r = checkWorld(F, world); r != MR_OK)
            return r;
        if (!(seconds >= 0.f) || !finite(seconds))
            return fail(MR_INVALID_ARGUMENT, "%s: seconds %g must be finite and >= 0", F, d(seconds));
        const std::uint32_t steps = world->world.advance(seconds);
        if (stepsOut)
            *stepsOut = steps;
        return MR_OK;
    });
}

extern "C" MrResult mrWorldInterpolation(const MrWorld* world, float* alphaOut)
{
    const char* const F = __func__;
    if (MrResult r = checkWorld(F, world); r != MR_OK)
        return r;
    if (!alphaOut)
        return nullArgument(F, "alphaOut");
    *alphaOut = world->world.interpolation();
    return MR_OK;
}

extern "C" MrResult mrWorldExplosion(MrWorld* world, MrVec3 centre, float strength, float radius, float minDistance)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        if (MrResult r = checkWorld(F, world); r != MR_OK)
            return r;
        if (!finite(centre) || !finite(strength))
            return fail(MR_INVALID_ARGUMENT, "%s: centre and strength must be finite", F);
        if (!(radius > 0.f) || !finite(radius))
            return fail(MR_INVALID_ARGUMENT, "%s: radius %g must be finite and > 0", F, d(radius));
        if (!(minDistance > 0.f) || !finite(minDistance))
            return fail(MR_INVALID_ARGUMENT, "%s: minDistance %g must be finite and > 0", F, d(minDistance));
        world->world.applyExplosion(toVec(centre), strength, radius, minDistance);
        return MR_OK;
    });
}

// ---- ragdolls -----------------------------------------------------------------------------------------

extern "C" MrResult mrRagdollApplyImpulse(MrWorld* world, MrRagdoll ragdoll, uint32_t particle, MrVec3 impulse)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        rt::Ragdoll* r = nullptr;
        if (MrResult e = findRagdoll(F, world, ragdoll, r); e != MR_OK)
            return e;
        if (particle >= r->particleCount())
            return fail(MR_INVALID_ARGUMENT, "%s: particle %u out of range (%u particles)", F, unsigned(particle),
                        unsigned(r->particleCount()));
        if (!finite(impulse))
            return fail(MR_INVALID_ARGUMENT, "%s: impulse is not a finite vector", F);
        if (!(r->inverseMasses()[particle] > 0.f))
            return fail(MR_INVALID_ARGUMENT, "%s: particle %u is kinematic (mass 0 or pinned kinematically)", F,
                        unsigned(particle));
        if (!r->applyImpulse(particle, toVec(impulse)))
            return fail(MR_INTERNAL, "%s: the runtime rejected the impulse", F);
        return MR_OK;
    });
}

extern "C" MrResult mrRagdollApplyImpulseOnStick(MrWorld* world, MrRagdoll ragdoll, uint32_t stick, float t,
                                                 MrVec3 impulse)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        rt::Ragdoll* r = nullptr;
        if (MrResult e = findRagdoll(F, world, ragdoll, r); e != MR_OK)
            return e;
        const std::size_t sticks = r->rig().description().sticks.size();
        if (stick >= sticks)
            return fail(MR_INVALID_ARGUMENT, "%s: stick %u out of range (%zu sticks)", F, unsigned(stick), sticks);
        if (!(t >= 0.f && t <= 1.f))
            return fail(MR_INVALID_ARGUMENT, "%s: t %g outside [0, 1]", F, d(t));
        if (!finite(impulse))
            return fail(MR_INVALID_ARGUMENT, "%s: impulse is not a finite vector", F);
        if (!r->applyImpulseOnStick(stick, t, toVec(impulse)))
            return fail(MR_INVALID_ARGUMENT, "%s: the point at t = %g of stick %u cannot move (kinematic ends)", F,
                        d(t), unsigned(stick));
        return MR_OK;
    });
}

extern "C" MrResult mrRagdollSetPin(MrWorld* world, MrRagdoll ragdoll, uint32_t particle, MrVec3 target,
                                    float stiffness, int kinematic)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        rt::Ragdoll* r = nullptr;
        if (MrResult e = findRagdoll(F, world, ragdoll, r); e != MR_OK)
            return e;
        if (particle >= r->particleCount())
            return fail(MR_INVALID_ARGUMENT, "%s: particle %u out of range (%u particles)", F, unsigned(particle),
                        unsigned(r->particleCount()));
        if (!finite(target))
            return fail(MR_INVALID_ARGUMENT, "%s: target is not a finite vector", F);
        if (!(stiffness > 0.f && stiffness <= 1.f))
            return fail(MR_INVALID_ARGUMENT, "%s: stiffness %g outside (0, 1]", F, d(stiffness));
        if (!r->setPin(particle, toVec(target), stiffness, kinematic != 0))
            return fail(MR_INVALID_ARGUMENT, "%s: no free pin slot (at most %u pins beyond the rig's)", F,
                        unsigned(rt::Ragdoll::kMaxDynamicPins));
        return MR_OK;
    });
}

extern "C" MrResult mrRagdollReleasePin(MrWorld* world, MrRagdoll ragdoll, uint32_t particle)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        rt::Ragdoll* r = nullptr;
        if (MrResult e = findRagdoll(F, world, ragdoll, r); e != MR_OK)
            return e;
        if (particle >= r->particleCount())
            return fail(MR_INVALID_ARGUMENT, "%s: particle %u out of range (%u particles)", F, unsigned(particle),
                        unsigned(r->particleCount()));
        if (!r->releasePin(particle))
            return fail(MR_NOT_FOUND, "%s: particle %u has no pin", F, unsigned(particle));
        return MR_OK;
    });
}

extern "C" MrResult mrRagdollSetPose(MrWorld* world, MrRagdoll ragdoll, const MrVec3* current, const MrVec3* previous,
                                     size_t count)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        rt::Ragdoll* r = nullptr;
        if (MrResult e = findRagdoll(F, world, ragdoll, r); e != MR_OK)
            return e;
        if (!current)
            return nullArgument(F, "current");
        const std::size_t n = r->particleCount();
        if (count != n)
            return fail(MR_INVALID_ARGUMENT, "%s: count %zu differs from the particle count %zu", F, count, n);
        for (std::size_t i = 0; i < n; ++i) {
            if (!finite(current[i]))
                return fail(MR_INVALID_ARGUMENT, "%s: current[%zu] is not finite", F, i);
            if (previous && !finite(previous[i]))
                return fail(MR_INVALID_ARGUMENT, "%s: previous[%zu] is not finite", F, i);
        }
        if (world->poseCurrent.size() < n) { // normally sized by mrWorldSpawn already
            world->poseCurrent.resize(n);
            world->posePrevious.resize(n);
        }
        for (std::size_t i = 0; i < n; ++i) {
            world->poseCurrent[i] = toVec(current[i]);
            world->posePrevious[i] = toVec(previous ? previous[i] : current[i]);
        }
        if (!r->setPose(std::span<const mr::Vec3>(world->poseCurrent.data(), n),
                        std::span<const mr::Vec3>(world->posePrevious.data(), n)))
            return fail(MR_INTERNAL, "%s: the runtime rejected the pose", F);
        return MR_OK;
    });
}

extern "C" MrResult mrRagdollGetPositions(MrWorld* world, MrRagdoll ragdoll, MrVec3* out, size_t capacity,
                                          size_t* count, float alpha)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        const rt::Ragdoll* r = nullptr;
        if (MrResult e = findRagdoll(F, world, ragdoll, r); e != MR_OK)
            return e;
        if (MrResult e = checkAlpha(F, alpha); e != MR_OK)
            return e;
        const std::uint32_t n = r->particleCount();
        bool queryOnly = false;
        if (MrResult e = checkBuffer(F, out, capacity, count, n, queryOnly); e != MR_OK || queryOnly)
            return e;
        for (std::uint32_t i = 0; i < n; ++i)
            out[i] = toMr(r->interpolatedPosition(i, alpha));
        return MR_OK;
    });
}

extern "C" MrResult mrRagdollGetBoneMatrices(MrWorld* world, MrRagdoll ragdoll, MrMat4* out, size_t capacity,
                                             size_t* count, float alpha)
{
    return copyMatrices(__func__, world, ragdoll, out, capacity, count, alpha, false);
}

extern "C" MrResult mrRagdollGetSkinningMatrices(MrWorld* world, MrRagdoll ragdoll, MrMat4* out, size_t capacity,
                                                 size_t* count, float alpha)
{
    return copyMatrices(__func__, world, ragdoll, out, capacity, count, alpha, true);
}

extern "C" MrResult mrRagdollIsAsleep(const MrWorld* world, MrRagdoll ragdoll, int* asleep)
{
    const char* const F = __func__;
    const rt::Ragdoll* r = nullptr;
    if (MrResult e = findRagdoll(F, world, ragdoll, r); e != MR_OK)
        return e;
    if (!asleep)
        return nullArgument(F, "asleep");
    *asleep = r->asleep() ? 1 : 0;
    return MR_OK;
}

extern "C" MrResult mrRagdollWake(MrWorld* world, MrRagdoll ragdoll)
{
    const char* const F = __func__;
    rt::Ragdoll* r = nullptr;
    if (MrResult e = findRagdoll(F, world, ragdoll, r); e != MR_OK)
        return e;
    r->wake();
    return MR_OK;
}

extern "C" MrResult mrRagdollIsStickTorn(const MrWorld* world, MrRagdoll ragdoll, uint32_t stick, int* torn)
{
    const char* const F = __func__;
    const rt::Ragdoll* r = nullptr;
    if (MrResult e = findRagdoll(F, world, ragdoll, r); e != MR_OK)
        return e;
    if (!torn)
        return nullArgument(F, "torn");
    const std::size_t sticks = r->rig().description().sticks.size();
    if (stick >= sticks)
        return fail(MR_INVALID_ARGUMENT, "%s: stick %u out of range (%zu sticks)", F, unsigned(stick), sticks);
    *torn = r->stickTorn(stick) ? 1 : 0;
    return MR_OK;
}
