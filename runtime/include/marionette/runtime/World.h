// Marionette runtime — the world: static collision geometry, ragdolls, and the fixed-step clock.
//
// advance(seconds) feeds a fixed-step accumulator (leftover time carries to the next call, at most
// maxSubsteps steps per call, interpolation() gives the render blend factor). step() runs one fixed step:
// integrate every awake ragdoll, find ragdoll-versus-ragdoll contacts through a broadphase, group touching
// ragdolls into islands, and relax each island (constraints, static collisions, contacts) on the thread
// pool. Nothing in step() allocates; buffers are sized when ragdolls are spawned.
#pragma once

#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace marionette::runtime {

struct WorldSettings {
    Vec3 gravity{0.f, -9.81f, 0.f};
    float timeStep = 1.f / 60.f;      ///< seconds, (0, 0.1]
    std::uint32_t maxSubsteps = 4;    ///< steps advance() may take per call, [1, 64]
    std::uint32_t threads = 1;        ///< threads stepping ragdolls, including the caller, [1, 64]
    bool ragdollCollisions = true;    ///< ragdolls collide with each other (capsules, spheres, boxes)
    bool sleep = true;                ///< ragdolls may fall asleep (each rig's sleep settings apply)
    /// Contact buffers reserved per ragdoll, at least: ragdoll–ragdoll contacts, and static contacts (those
    /// grow with the ragdoll's colliders and the world's geometry as it is added, outside step())
    std::uint32_t contactsPerRagdoll = 96;
};

/// The vector instruction set the solver's kernels use: chosen when the library first runs, the best this
/// machine has: "avx2" (x86-64 with AVX2 and FMA: the 8-wide stick lanes of Gauss–Seidel rigs), "sse2" (any
/// x86-64: 4-wide stick blocks) or "scalar" (other processors).
const char* instructionSet();
/// Limits the kernels to `name` ("scalar", "sse2" or "avx2"), for comparing the paths; every path runs
/// every rig, and each is deterministic on its own, but their results differ in the last bits (the
/// order of rounding). Returns false, changing nothing, for a name this machine cannot run. Between steps:
/// it applies to every world of the process.
bool useInstructionSet(std::string_view name);

/// Identifies a ragdoll in its world; stays valid until remove() (then never reused for another).
using RagdollHandle = std::uint64_t;
constexpr RagdollHandle kInvalidRagdoll = 0;

/// World-level measurements of the last step.
struct WorldStats {
    std::uint32_t awakeRagdolls = 0;
    std::uint32_t islands = 0;
    std::uint32_t ragdollPairs = 0;       ///< broadphase pairs of overlapping ragdoll bounds
    std::uint32_t ragdollContacts = 0;    ///< shape-pair contact candidates between ragdolls
    std::uint32_t staticContacts = 0;     ///< contact candidates with static geometry, over the awake ragdolls
    std::uint32_t droppedContacts = 0;    ///< static and ragdoll contact candidates that did not fit the buffers
    std::uint32_t newtonSteps = 0;        ///< direct projections over the awake ragdolls (RagdollStats)
    std::uint32_t factorizations = 0;     ///< and the factorisations they took
};

class World {
public:
    explicit World(const WorldSettings& settings = {});
    ~World();
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    const WorldSettings& settings() const;
    /// Changes gravity between steps. False when not finite.
    bool setGravity(Vec3 gravity);

    // ---- static collision geometry (between steps; returns an id >= 0, or -1 and *error) -------------
    // Adding geometry wakes every ragdoll: it may now touch one that was asleep.
    /// Half-space n·x <= offset is solid; n is normalised here. The ground is addPlane({0,1,0}, 0).
    int addPlane(Vec3 normal, float offset, std::string* error = nullptr);
    int addBox(const Transform& pose, Vec3 halfExtents, std::string* error = nullptr);
    int addSphere(Vec3 centre, float radius, std::string* error = nullptr);
    int addCapsule(Vec3 a, Vec3 b, float radius, std::string* error = nullptr);
    /// Static triangle mesh (e.g. a level), culled with a BVH. indices.size() is a multiple of 3.
    int addTriangleMesh(std::span<const Vec3> vertices, std::span<const std::uint32_t> indices,
                        std::string* error = nullptr);
    /// Removes all static geometry and wakes every ragdoll. (Friction against static geometry is each rig's
    /// `friction` setting; static shapes carry no material of their own.)
    void clearStaticGeometry();

    // ---- ragdolls ------------------------------------------------------------------------------------
    /// Spawns an instance of `rig` in its bind pose transformed by `placement`, moving at `velocity`.
    /// Allocates its state here (never in step()). Returns kInvalidRagdoll and *error on failure.
    RagdollHandle spawn(std::shared_ptr<const Rig> rig, const Transform& placement = {}, Vec3 velocity = {},
                        std::string* error = nullptr);
    bool remove(RagdollHandle handle);
    /// The ragdoll, or null for an unknown or removed handle.
    Ragdoll* ragdoll(RagdollHandle handle);
    const Ragdoll* ragdoll(RagdollHandle handle) const;
    std::size_t ragdollCount() const;
    /// Handles of all live ragdolls, in spawn order; writes at most out.size(), returns the count written.
    std::size_t ragdolls(std::span<RagdollHandle> out) const;

    /// Explosion applied to every ragdoll (see Ragdoll::applyExplosion).
    void applyExplosion(Vec3 centre, float strength, float radius, float minDistance = 0.25f);

    // ---- time ----------------------------------------------------------------------------------------
    /// One fixed step of settings().timeStep.
    void step();
    /// Adds `seconds` (clamped to [0, 1]; non-finite counts as 0) to the accumulator and runs as many fixed
    /// steps as fit, at most maxSubsteps (the excess is dropped so a stall cannot spiral). Returns the steps.
    std::uint32_t advance(float seconds);
    /// Leftover time / time step in [0, 1): blend factor between the last two steps for rendering.
    float interpolation() const;
    std::uint64_t stepCount() const;
    const WorldStats& stats() const;

    struct Impl;

private:
    std::unique_ptr<Impl> mImpl;
};

} // namespace marionette::runtime
