#include "marionette/runtime/World.h"

#include "FloatMode.h"
#include "RagdollState.h"
#include "ThreadPool.h"
#include "RagdollContacts.h"
#include "geometry/Geometry.h"
#include "geometry/TriangleMeshBvh.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace marionette::runtime {

/// A candidate contact between colliders of two ragdolls of the same island.
struct PairContact {
    std::uint32_t a, b;        ///< indices into Impl::live
    std::uint32_t colliderA, colliderB; ///< indices into each rig's colliders()
    std::uint32_t island;
    float depth;               ///< projection accumulated over the step (static friction uses it)
    SegmentParams closest;     ///< closest points of sphere/capsule pairs, found in the step's first iteration
    /// The part of the penetration left for later substeps (heldPenetration), found at the substep's first
    /// contact: what was inside the other body before the substep comes out at kMaxDepenetrationSpeed at most.
    float held;
    bool heldKnown;
};

struct World::Impl {
    WorldSettings settings;
    StaticWorld statics;
    std::vector<std::unique_ptr<geo::TriangleMeshBvh>> meshes;

    struct Slot {
        std::unique_ptr<Ragdoll> ragdoll;
        std::uint32_t generation = 0;
    };
    std::vector<Slot> slots;
    std::vector<std::uint32_t> freeSlots;
    std::vector<Ragdoll*> live;            ///< dense list in spawn order
    std::vector<std::uint32_t> liveSlot;

    ThreadPool pool;
    // Per-step scratch, sized on spawn.
    std::vector<std::uint32_t> awake;
    std::vector<std::uint32_t> sweep;      ///< live indices sorted by bounds min x
    std::vector<std::uint32_t> parent;     ///< union-find over live indices
    std::vector<std::uint32_t> islandOf;
    std::vector<std::uint32_t> islandStart, islandMembers;
    std::vector<PairContact> pairContacts, pairSorted;
    std::vector<std::uint32_t> contactStart;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> bpPairs; ///< broadphase pairs (live indices)
    std::vector<std::uint8_t> pairTouching;                       ///< per broadphase pair: has candidates
    /// Per range of broadphase pairs: its candidates and the colliders of the pair inside the bounds' overlap.
    struct RangeScratch {
        std::vector<PairContact> contacts;
        std::vector<std::uint32_t> collidersA, collidersB;
        std::uint32_t count = 0, dropped = 0;
    };
    std::vector<RangeScratch> ranged;
    std::uint32_t islandCount = 0;

    float accumulator = 0.f;
    std::uint64_t steps = 0;
    WorldStats stats;

    explicit Impl(const WorldSettings& s) : settings(s), pool(std::clamp<std::uint32_t>(s.threads, 1, 64)) {}

    void rebuildLive()
    {
        live.clear();
        liveSlot.clear();
        std::size_t colliders = 0;
        for (std::uint32_t i = 0; i < slots.size(); ++i)
            if (slots[i].ragdoll) {
                live.push_back(slots[i].ragdoll.get());
                liveSlot.push_back(i);
                colliders = std::max(colliders, slots[i].ragdoll->rig().colliders().size());
            }
        const std::size_t n = live.size();
        awake.reserve(n);
        sweep.reserve(n);
        parent.resize(n);
        islandOf.resize(n + 1);
        islandStart.resize(n + 1);
        islandMembers.resize(n);
        pairContacts.resize(std::size_t(settings.contactsPerRagdoll) * n);
        pairSorted.resize(pairContacts.size());
        contactStart.resize(n + 2);
        bpPairs.resize(std::size_t(kPairsPerRagdoll) * n);
        pairTouching.resize(bpPairs.size());
        ranged.resize(pool.threadCount());
        for (RangeScratch& rs : ranged) {
            rs.contacts.resize(pairContacts.size());
            rs.collidersA.resize(colliders);
            rs.collidersB.resize(colliders);
        }
    }

    /// Static contact candidates a ragdoll of `rig` may need in this world: one per collider and plane (a
    /// particle always gets its planes) plus kObstaclesPerCollider other obstacles near each collider, or the
    /// settings' floor. Grown whenever a ragdoll or geometry is added, so step() never allocates; what still
    /// does not fit is counted in the stats.
    std::uint32_t contactCapacity(const Rig& rig) const
    {
        const std::uint64_t perCollider = statics.planes.size() + kObstaclesPerCollider;
        // Every movable particle is tested against the planes even without a collision radius.
        const std::uint64_t need = std::uint64_t(rig.particleCount() + rig.colliders().size()) * perCollider;
        return std::uint32_t(std::clamp<std::uint64_t>(need, settings.contactsPerRagdoll, kMaxContactsPerRagdoll));
    }
    static constexpr std::uint64_t kObstaclesPerCollider = 4;
    static constexpr std::uint64_t kMaxContactsPerRagdoll = 1u << 20;

    void reserveContacts()
    {
        for (Ragdoll* r : live)
            Solver::reserveContacts(*r, contactCapacity(r->rig()));
    }

    void wakeAll()
    {
        for (Ragdoll* r : live)
            r->wake();
    }

    std::uint32_t find(std::uint32_t i)
    {
        while (parent[i] != i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }

    void step();
    std::uint32_t findRagdollContacts();
    void narrowphase(std::uint32_t range, std::uint32_t begin, std::uint32_t end);
    /// Broadphase pairs reserved per ragdoll (a ragdoll touching more than this many others drops pairs).
    static constexpr std::uint32_t kPairsPerRagdoll = 32;
    void solveIsland(std::uint32_t island);
};


World::World(const WorldSettings& settings) : mImpl(std::make_unique<Impl>(settings))
{
    WorldSettings& s = mImpl->settings;
    if (!(s.timeStep > 0.f && s.timeStep <= 0.1f))
        s.timeStep = 1.f / 60.f;
    s.maxSubsteps = std::clamp<std::uint32_t>(s.maxSubsteps, 1, 64);
    s.threads = mImpl->pool.threadCount();
    if (!isFinite(s.gravity))
        s.gravity = {0.f, -9.81f, 0.f};
    mImpl->rebuildLive(); // sizes the step's work arrays, so an empty world steps too
}

World::~World() = default;

const WorldSettings& World::settings() const { return mImpl->settings; }

bool World::setGravity(Vec3 g)
{
    if (!isFinite(g))
        return false;
    mImpl->settings.gravity = g;
    mImpl->wakeAll();
    return true;
}

namespace {
bool fail(std::string* error, const char* message)
{
    if (error)
        *error = message;
    return false;
}
} // namespace

int World::addPlane(Vec3 normal, float offset, std::string* error)
{
    if (!isFinite(normal) || !std::isfinite(offset) || !(length(normal) > 1e-6f))
        return fail(error, "plane: normal must be a finite non-zero vector and offset finite"), -1;
    mImpl->statics.planes.push_back({normal / length(normal), offset});
    mImpl->reserveContacts();
    mImpl->wakeAll(); // new geometry may touch a sleeper
    return int(mImpl->statics.planes.size() - 1);
}

int World::addBox(const Transform& pose, Vec3 half, std::string* error)
{
    const Quat q = pose.rotation;
    const float qn = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    if (!isFinite(pose.translation) || !std::isfinite(qn) || std::fabs(qn - 1.f) > 1e-3f)
        return fail(error, "box: pose must be finite with a unit rotation"), -1;
    if (!isFinite(half) || !(half.x > 0.f && half.y > 0.f && half.z > 0.f))
        return fail(error, "box: half extents must be positive"), -1;
    StaticWorld::Box b;
    b.centre = pose.translation;
    b.axes = toMat3(normalize(q));
    b.half = half;
    const Vec3 ext{std::fabs(b.axes.c[0].x) * half.x + std::fabs(b.axes.c[1].x) * half.y + std::fabs(b.axes.c[2].x) * half.z,
                   std::fabs(b.axes.c[0].y) * half.x + std::fabs(b.axes.c[1].y) * half.y + std::fabs(b.axes.c[2].y) * half.z,
                   std::fabs(b.axes.c[0].z) * half.x + std::fabs(b.axes.c[1].z) * half.y + std::fabs(b.axes.c[2].z) * half.z};
    b.aabbMin = b.centre - ext;
    b.aabbMax = b.centre + ext;
    mImpl->statics.boxes.push_back(b);
    mImpl->reserveContacts();
    mImpl->wakeAll(); // new geometry may touch a sleeper
    return int(mImpl->statics.boxes.size() - 1);
}

int World::addSphere(Vec3 centre, float radius, std::string* error)
{
    if (!isFinite(centre) || !(radius > 0.f) || !std::isfinite(radius))
        return fail(error, "sphere: centre must be finite and radius positive"), -1;
    mImpl->statics.spheres.push_back({centre, radius});
    mImpl->reserveContacts();
    mImpl->wakeAll(); // new geometry may touch a sleeper
    return int(mImpl->statics.spheres.size() - 1);
}

int World::addCapsule(Vec3 a, Vec3 b, float radius, std::string* error)
{
    if (!isFinite(a) || !isFinite(b) || !(radius > 0.f) || !std::isfinite(radius))
        return fail(error, "capsule: ends must be finite and radius positive"), -1;
    mImpl->statics.capsules.push_back({a, b, radius});
    mImpl->reserveContacts();
    mImpl->wakeAll(); // new geometry may touch a sleeper
    return int(mImpl->statics.capsules.size() - 1);
}

int World::addTriangleMesh(std::span<const Vec3> vertices, std::span<const std::uint32_t> indices, std::string* error)
{
    if (mImpl->meshes.size() >= 0xFFFF)
        return fail(error, "triangle mesh: too many meshes (65535)"), -1;
    auto bvh = std::make_unique<geo::TriangleMeshBvh>();
    std::string e;
    if (!bvh->build(vertices, indices, &e)) {
        if (error)
            *error = "triangle mesh: " + e;
        return -1;
    }
    mImpl->statics.meshes.push_back(bvh.get());
    mImpl->meshes.push_back(std::move(bvh));
    mImpl->reserveContacts();
    mImpl->wakeAll();
    return int(mImpl->meshes.size() - 1);
}

void World::clearStaticGeometry()
{
    mImpl->statics = {};
    mImpl->meshes.clear();
    mImpl->wakeAll();
}

RagdollHandle World::spawn(std::shared_ptr<const Rig> rig, const Transform& placement, Vec3 velocity, std::string* error)
{
    if (!rig) {
        fail(error, "spawn: no rig");
        return kInvalidRagdoll;
    }
    const Quat q = placement.rotation;
    const float qn = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    if (!isFinite(placement.translation) || !std::isfinite(qn) || std::fabs(qn - 1.f) > 1e-3f || !isFinite(velocity)) {
        fail(error, "spawn: placement must be finite with a unit rotation, velocity finite");
        return kInvalidRagdoll;
    }
    Impl& m = *mImpl;
    std::uint32_t slot;
    if (!m.freeSlots.empty()) {
        slot = m.freeSlots.back();
        m.freeSlots.pop_back();
    } else {
        slot = std::uint32_t(m.slots.size());
        m.slots.emplace_back();
    }
    Transform p{normalize(q), placement.translation};
    m.slots[slot].ragdoll.reset(Solver::create(rig, p, m.settings.timeStep, m.contactCapacity(*rig)));
    m.slots[slot].generation++;
    if (velocity != Vec3{})
        m.slots[slot].ragdoll->addVelocity(velocity);
    m.rebuildLive();
    return (RagdollHandle(m.slots[slot].generation) << 32) | (RagdollHandle(slot) + 1);
}

static bool decode(const World::Impl& m, RagdollHandle h, std::uint32_t& slot)
{
    const std::uint64_t low = h & 0xFFFFFFFFull;
    if (low == 0 || low > m.slots.size())
        return false;
    slot = std::uint32_t(low - 1);
    return m.slots[slot].ragdoll && m.slots[slot].generation == std::uint32_t(h >> 32);
}

bool World::remove(RagdollHandle h)
{
    std::uint32_t slot;
    if (!decode(*mImpl, h, slot))
        return false;
    mImpl->slots[slot].ragdoll.reset();
    mImpl->freeSlots.push_back(slot);
    mImpl->rebuildLive();
    return true;
}

Ragdoll* World::ragdoll(RagdollHandle h)
{
    std::uint32_t slot;
    return decode(*mImpl, h, slot) ? mImpl->slots[slot].ragdoll.get() : nullptr;
}

const Ragdoll* World::ragdoll(RagdollHandle h) const
{
    std::uint32_t slot;
    return decode(*mImpl, h, slot) ? mImpl->slots[slot].ragdoll.get() : nullptr;
}

std::size_t World::ragdollCount() const { return mImpl->live.size(); }

std::size_t World::ragdolls(std::span<RagdollHandle> out) const
{
    std::size_t k = 0;
    for (std::size_t i = 0; i < mImpl->liveSlot.size() && k < out.size(); ++i) {
        const std::uint32_t s = mImpl->liveSlot[i];
        out[k++] = (RagdollHandle(mImpl->slots[s].generation) << 32) | (RagdollHandle(s) + 1);
    }
    return k;
}

void World::applyExplosion(Vec3 centre, float strength, float radius, float minDistance)
{
    for (Ragdoll* r : mImpl->live)
        r->applyExplosion(centre, strength, radius, minDistance);
}

void World::step() { mImpl->step(); }

std::uint32_t World::advance(float seconds)
{
    Impl& m = *mImpl;
    if (!std::isfinite(seconds) || seconds < 0.f)
        seconds = 0.f;
    m.accumulator += std::min(seconds, 1.f);
    std::uint32_t n = 0;
    // A step is due when the accumulator holds a whole step, allowing for float rounding of frame times
    // that are whole multiples of the step (3 × 1/60 s must give 3 steps, not 2 and a sliver).
    const float due = m.settings.timeStep * (1.f - 1e-4f);
    while (m.accumulator >= due && n < m.settings.maxSubsteps) {
        m.step();
        m.accumulator = std::max(0.f, m.accumulator - m.settings.timeStep);
        ++n;
    }
    // A stall longer than maxSubsteps steps is dropped rather than carried (no spiral of death).
    if (m.accumulator >= due)
        m.accumulator = std::fmod(m.accumulator, m.settings.timeStep);
    return n;
}

float World::interpolation() const { return std::clamp(mImpl->accumulator / mImpl->settings.timeStep, 0.f, 1.f); }
std::uint64_t World::stepCount() const { return mImpl->steps; }
const WorldStats& World::stats() const { return mImpl->stats; }

void World::Impl::step()
{
    const float dt = settings.timeStep;
    const std::size_t n = live.size();
    awake.clear();
    for (std::uint32_t i = 0; i < n; ++i) {
        RagdollState& s = Solver::state(*live[i]);
        if (!s.asleep || !settings.sleep) {
            s.asleep = false;
            awake.push_back(i);
        }
    }
    // 1. Gather static contact candidates over the step's motion, in parallel (ragdolls are independent here).
    pool.parallelFor(awake.size(), [&](std::size_t b, std::size_t e, unsigned) {
        for (std::size_t k = b; k < e; ++k) {
            Ragdoll& r = *live[awake[k]];
            const FlushDenormals flush(flushesDenormals(r.rig())); // FloatMode.h
            Solver::beginStep(r, statics, settings.gravity, dt);
        }
    }, 4);

    // 2. Ragdoll-versus-ragdoll contacts and islands.
    for (std::uint32_t i = 0; i < n; ++i)
        parent[i] = i;
    stats.droppedContacts = 0;
    const std::uint32_t contactCount = settings.ragdollCollisions ? findRagdollContacts() : 0;

    // Islands over awake ragdolls (ragdolls woken by contact joined the awake list in findRagdollContacts).
    std::fill(islandStart.begin(), islandStart.end(), 0u);
    islandCount = 0;
    std::vector<std::uint32_t>& root = islandOf; // reuse: root id → island id, then ragdoll → island
    for (std::uint32_t k : awake)
        Solver::state(*live[k]).island = ~0u;
    for (std::uint32_t k : awake) {
        const std::uint32_t rt = find(k);
        RagdollState& rs = Solver::state(*live[rt]);
        if (rs.island == ~0u)
            rs.island = islandCount++;
        Solver::state(*live[k]).island = rs.island;
    }
    for (std::uint32_t k : awake)
        islandStart[Solver::state(*live[k]).island + 1]++;
    for (std::uint32_t i = 0; i < islandCount; ++i)
        islandStart[i + 1] += islandStart[i];
    for (std::uint32_t i = 0; i <= islandCount; ++i)
        root[i] = islandStart[i];
    for (std::uint32_t k : awake)
        islandMembers[root[Solver::state(*live[k]).island]++] = k;
    // Bucket contacts by island.
    std::fill(contactStart.begin(), contactStart.begin() + islandCount + 2, 0u);
    for (std::uint32_t c = 0; c < contactCount; ++c) {
        PairContact& pc = pairContacts[c];
        pc.island = Solver::state(*live[pc.a]).island;
        contactStart[pc.island + 1]++;
    }
    for (std::uint32_t i = 0; i < islandCount; ++i)
        contactStart[i + 1] += contactStart[i];
    for (std::uint32_t i = 0; i <= islandCount; ++i)
        root[i] = contactStart[i];
    for (std::uint32_t c = 0; c < contactCount; ++c)
        pairSorted[root[pairContacts[c].island]++] = pairContacts[c];

    // 3. Relax each island on the pool.
    pool.parallelFor(islandCount, [&](std::size_t b, std::size_t e, unsigned) {
        for (std::size_t i = b; i < e; ++i)
            solveIsland(std::uint32_t(i));
    }, 1);

    stats.staticContacts = 0;
    stats.newtonSteps = 0;
    stats.factorizations = 0;
    for (std::uint32_t k : awake) { // static candidates, and those that did not fit (pair contacts counted above)
        const RagdollStats& own = Solver::state(*live[k]).stats;
        stats.staticContacts += own.contacts;
        stats.droppedContacts += own.droppedContacts;
        stats.newtonSteps += own.newtonSteps;
        stats.factorizations += own.factorizations;
    }
    stats.awakeRagdolls = std::uint32_t(awake.size());
    stats.islands = islandCount;
    stats.ragdollContacts = contactCount;
    ++steps;
}

void World::Impl::solveIsland(std::uint32_t island)
{
    const std::uint32_t mb = islandStart[island], me = islandStart[island + 1];
    const std::uint32_t cb = contactStart[island], ce = contactStart[island + 1];
    // The island advances together: the most substeps and iterations any member's rig asks for.
    std::uint32_t iterations = 1, substeps = 1;
    for (std::uint32_t k = mb; k < me; ++k) {
        const rig::Settings& st = live[islandMembers[k]]->rig().settings();
        iterations = std::max(iterations, st.iterations);
        substeps = std::max(substeps, st.substeps);
    }
    // Subnormals flushed when every member relaxes (FloatMode.h).
    bool flush = true;
    for (std::uint32_t k = mb; k < me; ++k)
        flush = flush && flushesDenormals(live[islandMembers[k]]->rig());
    const FlushDenormals mode(flush);
    const float dt = settings.timeStep;
    const float h = dt / float(substeps);
    // What was inside another ragdoll before a substep leaves it no faster than this (RagdollState.h).
    const float slack = kMaxDepenetrationSpeed * h;
    for (std::uint32_t sub = 0; sub < substeps; ++sub) {
        for (std::uint32_t k = mb; k < me; ++k) {
            Ragdoll& r = *live[islandMembers[k]];
            Solver::integrate(r, settings.gravity, h);
            Solver::solveDrives(r, sub, substeps);
            Solver::sweepFastParticles(r, statics);
            Solver::beginIterations(r);
        }
        for (std::uint32_t c = cb; c < ce; ++c) {
            pairSorted[c].depth = 0.f;
            pairSorted[c].closest.known = false;
            pairSorted[c].heldKnown = false;
        }
        // Ragdoll-ragdoll contacts come first in each iteration so each ragdoll's own pass, which ends with
        // the static contacts, has the last word: a pile cannot press its bottom body into the floor. A hard
        // impact can leave a direct-mode body stretched after its iterations; it gets up to as many again.
        // A lone body that only relaxes sticks takes its iterations in one go (Solver::relaxSticksOnly).
        const bool relaxed =
            me - mb == 1 && cb == ce && Solver::relaxSticksOnly(*live[islandMembers[mb]], iterations);
        for (std::uint32_t it = 0; !relaxed && it < 2 * iterations; ++it) {
            if (it >= iterations) {
                bool stretched = false;
                for (std::uint32_t k = mb; k < me && !stretched; ++k)
                    stretched = Solver::stretched(*live[islandMembers[k]]);
                if (!stretched)
                    break;
            }
            for (std::uint32_t c = cb; c < ce; ++c) {
                PairContact& pc = pairSorted[c];
                Ragdoll& ra = *live[pc.a];
                Ragdoll& rb = *live[pc.b];
                ContactSide sa, sb;
                Vec3 nrm;
                float depth;
                if (!colliderContact(ra, ra.rig().colliders()[pc.colliderA], rb, rb.rig().colliders()[pc.colliderB], sa,
                                     sb, nrm, depth, &pc.closest))
                    continue;
                const float wsum = sa.weight() + sb.weight();
                if (!(wsum > 1e-12f))
                    continue;
                if (!pc.heldKnown) { // how fast the two points already move apart along the normal
                    const Vec3 moved = (sa.point() - sa.pointIn(Solver::state(ra).xPrev)) -
                                       (sb.point() - sb.pointIn(Solver::state(rb).xPrev));
                    pc.held = heldPenetration(depth, dot(moved, nrm), slack);
                    pc.heldKnown = true;
                }
                depth -= pc.held;
                if (depth > 0.f) {
                    const float lambda = depth / wsum;
                    sa.move(nrm, lambda);
                    sb.move(-nrm, lambda);
                    pc.depth += depth;
                }
                if (pc.depth > 0.f)
                    contactFriction(ra, sa, rb, sb, nrm, std::max(depth, 0.f), pc.depth);
            }
            // From the last regular iteration on, whether to go on depends only on the stretch checked above
            // (a converged body is not stretched): the convergence test would not change it.
            const bool check = it + 1 < iterations;
            bool converged = true;
            for (std::uint32_t k = mb; k < me; ++k)
                converged = Solver::iterate(*live[islandMembers[k]], statics, it, check) && converged;
            if (converged && cb == ce)
                break;
        }
        for (std::uint32_t k = mb; k < me; ++k)
            Solver::endSubstep(*live[islandMembers[k]]);
    }
    // Island sleep: touching ragdolls fall asleep together, once every one of them has been still for its
    // sleep time; one asleep beside a moving neighbour would be woken by it at once.
    bool islandStill = settings.sleep;
    for (std::uint32_t k = mb; k < me; ++k) {
        Solver::finishStep(*live[islandMembers[k]], settings.sleep, dt);
        islandStill = islandStill && Solver::readyToSleep(*live[islandMembers[k]]);
    }
    if (islandStill)
        for (std::uint32_t k = mb; k < me; ++k)
            Solver::putToSleep(*live[islandMembers[k]]);
}

std::uint32_t World::Impl::findRagdollContacts()
{
    const std::uint32_t n = std::uint32_t(live.size());
    // 1. Sweep and prune on x over every live ragdoll (sleeping ones too: an awake body may hit them).
    sweep.resize(n);
    std::iota(sweep.begin(), sweep.end(), 0u);
    std::sort(sweep.begin(), sweep.end(), [&](std::uint32_t a, std::uint32_t b) {
        return Solver::state(*live[a]).aabbMin.x < Solver::state(*live[b]).aabbMin.x;
    });
    std::uint32_t pairs = 0, dropped = 0;
    const std::uint32_t pairCapacity = std::uint32_t(bpPairs.size());
    for (std::uint32_t i = 0; i < n; ++i) {
        const RagdollState& sa = Solver::state(*live[sweep[i]]);
        for (std::uint32_t j = i + 1; j < n; ++j) {
            const RagdollState& sb = Solver::state(*live[sweep[j]]);
            if (sb.aabbMin.x > sa.aabbMax.x)
                break;
            if ((sa.asleep && sb.asleep) || sb.aabbMin.y > sa.aabbMax.y || sa.aabbMin.y > sb.aabbMax.y ||
                sb.aabbMin.z > sa.aabbMax.z || sa.aabbMin.z > sb.aabbMax.z)
                continue;
            if (pairs < pairCapacity)
                bpPairs[pairs++] = {sweep[i], sweep[j]};
            else
                ++dropped;
        }
    }

    // 2. Narrowphase candidates, in parallel over contiguous ranges of pairs; each range fills its own
    //    buffer, and the buffers are joined in range order, so the result does not depend on the threads.
    const std::uint32_t ranges = std::min<std::uint32_t>(std::uint32_t(ranged.size()), std::max(1u, pairs));
    pool.parallelFor(ranges, [&](std::size_t rb, std::size_t re, unsigned) {
        for (std::size_t r = rb; r < re; ++r)
            narrowphase(std::uint32_t(r), std::uint32_t(pairs * r / ranges), std::uint32_t(pairs * (r + 1) / ranges));
    }, 1);

    // 3. Join, wake sleepers that are touched, and merge touching ragdolls into islands.
    std::uint32_t count = 0;
    const std::uint32_t capacity = std::uint32_t(pairContacts.size());
    for (std::uint32_t r = 0; r < ranges; ++r) {
        const RangeScratch& rs = ranged[r];
        const std::uint32_t take = std::min(rs.count, capacity - count);
        std::copy_n(rs.contacts.begin(), take, pairContacts.begin() + count);
        count += take;
        dropped += rs.count - take + rs.dropped;
    }
    for (std::uint32_t p = 0; p < pairs; ++p) {
        if (!pairTouching[p])
            continue;
        const std::uint32_t a = bpPairs[p].first, b = bpPairs[p].second;
        for (const std::uint32_t idx : {a, b}) {
            RagdollState& st = Solver::state(*live[idx]);
            if (st.asleep) { // at rest, so it joins without integrating
                st.asleep = false;
                st.stillTime = 0.f;
                awake.push_back(idx);
                Solver::beginStep(*live[idx], statics, settings.gravity, settings.timeStep);
            }
        }
        const std::uint32_t x = find(a), y = find(b);
        if (x != y)
            parent[std::max(x, y)] = std::min(x, y);
    }
    stats.ragdollPairs = pairs;
    stats.droppedContacts = dropped;
    return count;
}

void World::Impl::narrowphase(std::uint32_t range, std::uint32_t begin, std::uint32_t end)
{
    RangeScratch& rs = ranged[range];
    rs.count = 0;
    rs.dropped = 0;
    const std::uint32_t capacity = std::uint32_t(rs.contacts.size());
    for (std::uint32_t p = begin; p < end; ++p) {
        const std::uint32_t a = bpPairs[p].first, b = bpPairs[p].second;
        const RagdollState& sa = Solver::state(*live[a]);
        const RagdollState& sb = Solver::state(*live[b]);
        pairTouching[p] = 0;
        // The overlap of the two bounds culls each side's colliders before the pairwise test.
        const Vec3 lo = vmax(sa.aabbMin, sb.aabbMin), hi = vmin(sa.aabbMax, sb.aabbMax);
        const Rig& ra = live[a]->rig();
        const Rig& rb = live[b]->rig();
        std::uint32_t na = 0, nb = 0;
        const geo::Aabb overlap{lo, hi};
        for (std::uint32_t k = 0; k < ra.colliders().size(); ++k)
            if (geo::overlaps({sa.colliderLo[k], sa.colliderHi[k]}, overlap))
                rs.collidersA[na++] = k;
        if (na == 0)
            continue;
        for (std::uint32_t k = 0; k < rb.colliders().size(); ++k)
            if (geo::overlaps({sb.colliderLo[k], sb.colliderHi[k]}, overlap))
                rs.collidersB[nb++] = k;
        for (std::uint32_t i = 0; i < na; ++i) {
            const std::uint32_t ka = rs.collidersA[i];
            const ColliderRef& ca = ra.colliders()[ka];
            for (std::uint32_t j = 0; j < nb; ++j) {
                const std::uint32_t kb = rs.collidersB[j];
                const ColliderRef& cb = rb.colliders()[kb];
                if (!((ca.group & cb.mask) && (cb.group & ca.mask)))
                    continue;
                if ((ca.kind == std::uint8_t(ColliderKind::Capsule) && capsuleTorn(ra, sa, ca.index)) ||
                    (cb.kind == std::uint8_t(ColliderKind::Capsule) && capsuleTorn(rb, sb, cb.index)))
                    continue; // a capsule whose stick tore no longer collides
                if (!geo::overlaps({sa.colliderLo[ka], sa.colliderHi[ka]}, {sb.colliderLo[kb], sb.colliderHi[kb]}))
                    continue;
                // Spheres and capsules: the real distance, not just the bounds, must be within the margin.
                if (ca.kind != 2 && cb.kind != 2 && !nearEnough(*live[a], ca, *live[b], cb))
                    continue;
                pairTouching[p] = 1;
                if (rs.count < capacity)
                    rs.contacts[rs.count++] = {a, b, ka, kb, 0, 0.f, {}, 0.f, false};
                else
                    ++rs.dropped;
            }
        }
    }
}


} // namespace marionette::runtime
