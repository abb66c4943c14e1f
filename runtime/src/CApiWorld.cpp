// Marionette — C API: worlds and ragdolls.
#include "CApiInternal.h"

#include <chrono>

using namespace marionette::capi;
namespace mr = marionette;
namespace rt = marionette::runtime;

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
        if (world->gains.size() < compiled.driveParts().size())
            world->gains.resize(compiled.driveParts().size());
        if (world->handles.size() < world->world.ragdollCount() + 1)
            world->handles.resize(world->world.ragdollCount() + 1);
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
        const auto start = std::chrono::steady_clock::now();
        world->world.step();
        world->lastStepSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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
        const auto start = std::chrono::steady_clock::now();
        const std::uint32_t steps = world->world.advance(seconds);
        if (steps > 0)
            world->lastStepSeconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / steps;
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

extern "C" MrResult mrWorldGetSolverCounts(const MrWorld* world, uint32_t* newtonSteps, uint32_t* factorizations)
{
    if (MrResult r = checkWorld(__func__, world); r != MR_OK)
        return r;
    const rt::WorldStats& s = world->world.stats();
    if (newtonSteps)
        *newtonSteps = s.newtonSteps;
    if (factorizations)
        *factorizations = s.factorizations;
    return MR_OK;
}

extern "C" MrResult mrWorldGetStats(const MrWorld* world, MrWorldStats* out)
{
    const char* const F = __func__;
    if (MrResult r = checkWorld(F, world); r != MR_OK)
        return r;
    if (!out)
        return nullArgument(F, "out");
    const rt::World& w = world->world;
    const rt::WorldStats& s = w.stats();
    MrWorldStats c;
    std::memset(&c, 0, sizeof c);
    c.steps = w.stepCount();
    c.lastStepSeconds = world->lastStepSeconds;
    c.ragdolls = static_cast<std::uint32_t>(w.ragdollCount());
    c.awakeRagdolls = s.awakeRagdolls;
    c.islands = s.islands;
    c.ragdollPairs = s.ragdollPairs;
    c.ragdollContacts = s.ragdollContacts;
    c.staticContacts = s.staticContacts;
    c.droppedContacts = s.droppedContacts;
    // The handle scratch is sized on spawn, so this never allocates.
    const std::size_t n = w.ragdolls(std::span<rt::RagdollHandle>(world->handles.data(), world->handles.size()));
    for (std::size_t i = 0; i < n; ++i)
        if (const rt::Ragdoll* r = w.ragdoll(world->handles[i]); r && r->asleep())
            ++c.asleepRagdolls;
    *out = c;
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


// ---- drives -----------------------------------------------------------------------------------------------

namespace {

/// The runtime's one-line refusal as the C API's error (the runtime checked, nothing changed).
MrResult refused(const char* function, const std::string& error, MrResult code = MR_INVALID_ARGUMENT)
{
    return fail(code, "%s: %s", function, error.c_str());
}

MrResult checkSeconds(const char* function, float seconds)
{
    if (!(seconds >= 0.f && seconds <= 3600.f))
        return fail(MR_INVALID_ARGUMENT, "%s: seconds %g outside [0, 3600]", function, d(seconds));
    return MR_OK;
}

} // namespace

extern "C" MrResult mrRigDrivePartCount(const MrRig* rig, uint32_t* count)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        if (MrResult e = checkRig(F, rig); e != MR_OK)
            return e;
        if (!count)
            return nullArgument(F, "count");
        *count = std::uint32_t(rig->rig->driveParts().size());
        return MR_OK;
    });
}

extern "C" MrResult mrRigDrivePart(const MrRig* rig, uint32_t part, int32_t* kind, uint32_t* index)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        if (MrResult e = checkRig(F, rig); e != MR_OK)
            return e;
        if (!kind || !index)
            return nullArgument(F, !kind ? "kind" : "index");
        const auto parts = rig->rig->driveParts();
        if (part >= parts.size())
            return fail(MR_INVALID_ARGUMENT, "%s: part %u out of range (%zu parts)", F, unsigned(part), parts.size());
        *kind = std::int32_t(parts[part].kind);
        *index = parts[part].index;
        return MR_OK;
    });
}

extern "C" MrResult mrRagdollSetPoseTarget(MrWorld* world, MrRagdoll ragdoll, const MrMat4* boneWorld, size_t count)
{
    const char* const F = __func__;
    static_assert(sizeof(MrMat4) == sizeof(mr::Mat4), "MrMat4 and Mat4 are both 16 column-major floats");
    return guarded(F, [&]() -> MrResult {
        rt::Ragdoll* r = nullptr;
        if (MrResult e = findRagdoll(F, world, ragdoll, r); e != MR_OK)
            return e;
        if (!boneWorld && count > 0)
            return nullArgument(F, "boneWorld");
        std::string error;
        if (!r->setPoseTarget({reinterpret_cast<const mr::Mat4*>(boneWorld), count}, &error))
            return refused(F, error);
        return MR_OK;
    });
}

extern "C" MrResult mrRagdollSetParticleTargets(MrWorld* world, MrRagdoll ragdoll, const MrVec3* targets, size_t count)
{
    const char* const F = __func__;
    static_assert(sizeof(MrVec3) == sizeof(mr::Vec3), "MrVec3 and Vec3 are both three floats");
    return guarded(F, [&]() -> MrResult {
        rt::Ragdoll* r = nullptr;
        if (MrResult e = findRagdoll(F, world, ragdoll, r); e != MR_OK)
            return e;
        if (!targets && count > 0)
            return nullArgument(F, "targets");
        std::string error;
        if (!r->setParticleTargets({reinterpret_cast<const mr::Vec3*>(targets), count}, &error))
            return refused(F, error);
        return MR_OK;
    });
}

extern "C" MrResult mrRagdollClearPoseTarget(MrWorld* world, MrRagdoll ragdoll)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        rt::Ragdoll* r = nullptr;
        if (MrResult e = findRagdoll(F, world, ragdoll, r); e != MR_OK)
            return e;
        r->clearPoseTarget();
        return MR_OK;
    });
}

extern "C" MrResult mrRagdollSetDriveProfile(MrWorld* world, MrRagdoll ragdoll, const char* name, float seconds)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        rt::Ragdoll* r = nullptr;
        if (MrResult e = findRagdoll(F, world, ragdoll, r); e != MR_OK)
            return e;
        if (!name)
            return nullArgument(F, "name");
        if (MrResult e = checkSeconds(F, seconds); e != MR_OK)
            return e;
        std::string error;
        if (r->rig().findDriveProfile(name) < 0) {
            r->setDriveProfile(name, seconds, &error); // refuses, and says which profiles the rig has
            return refused(F, error, MR_NOT_FOUND);
        }
        if (!r->setDriveProfile(name, seconds, &error))
            return refused(F, error);
        return MR_OK;
    });
}

extern "C" MrResult mrRagdollSetDriveGains(MrWorld* world, MrRagdoll ragdoll, const MrDriveGains* perPart, size_t count,
                                           float seconds)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        rt::Ragdoll* r = nullptr;
        if (MrResult e = findRagdoll(F, world, ragdoll, r); e != MR_OK)
            return e;
        if (!perPart && count > 0)
            return nullArgument(F, "perPart");
        const std::size_t parts = r->rig().driveParts().size();
        if (count != parts)
            return fail(MR_INVALID_ARGUMENT, "%s: count %zu differs from the part count %zu", F, count, parts);
        if (world->gains.size() < parts) // normally sized by mrWorldSpawn already
            world->gains.resize(parts);
        for (std::size_t k = 0; k < parts; ++k)
            world->gains[k] = toGains(perPart[k]);
        std::string error;
        if (!r->setDriveGains({world->gains.data(), parts}, seconds, &error))
            return refused(F, error);
        return MR_OK;
    });
}

extern "C" MrResult mrRagdollSetPartGains(MrWorld* world, MrRagdoll ragdoll, uint32_t part, const MrDriveGains* gains)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        rt::Ragdoll* r = nullptr;
        if (MrResult e = findRagdoll(F, world, ragdoll, r); e != MR_OK)
            return e;
        if (!gains)
            return nullArgument(F, "gains");
        std::string error;
        if (!r->setPartGains(part, toGains(*gains), &error))
            return refused(F, error);
        return MR_OK;
    });
}

extern "C" MrResult mrRagdollGoLimp(MrWorld* world, MrRagdoll ragdoll, float seconds)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        rt::Ragdoll* r = nullptr;
        if (MrResult e = findRagdoll(F, world, ragdoll, r); e != MR_OK)
            return e;
        if (MrResult e = checkSeconds(F, seconds); e != MR_OK)
            return e;
        r->goLimp(seconds);
        return MR_OK;
    });
}

extern "C" MrResult mrRagdollPartTrackingError(const MrWorld* world, MrRagdoll ragdoll, uint32_t part, float* metres,
                                               float* radians)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        const rt::Ragdoll* r = nullptr;
        if (MrResult e = findRagdoll(F, world, ragdoll, r); e != MR_OK)
            return e;
        if (!metres || !radians)
            return nullArgument(F, !metres ? "metres" : "radians");
        float m = 0.f, a = 0.f;
        if (!r->partTrackingError(part, m, a))
            return fail(MR_INVALID_ARGUMENT, "%s: part %u out of range (%zu parts) or not placed by a pose target", F,
                        unsigned(part), r->rig().driveParts().size());
        *metres = m;
        *radians = a;
        return MR_OK;
    });
}
