#include "RagdollState.h"
#include "StickLanes.h"

#include <algorithm>
#include <cmath>

namespace marionette::runtime {

Ragdoll::Ragdoll(std::shared_ptr<const Rig> rig, const Transform& placement, float timeStep,
                 std::uint32_t contactCapacity)
    : mRig(std::move(rig)), mState(std::make_unique<RagdollState>())
{
    RagdollState& s = *mState;
    const Rig& R = *mRig;
    const std::size_t n = R.particleCount();
    s.bufA.resize(n);
    s.bufB.resize(n);
    s.x = s.bufA.data();
    s.xPrev = s.bufB.data();
    s.xFrame.resize(n);
    s.reach.assign(n, 0.f);
    s.w.assign(R.inverseMasses().begin(), R.inverseMasses().end());
    s.lambda.assign(R.sticks().size(), 0.f);
    if (R.hasTearableSticks())
        s.torn.assign(R.sticks().size(), 0);
    if (!R.stickLanes().empty())
        s.laneX.resize(laneScratchSize(n));
    if (R.settings().solver == rig::SolverMode::Jacobi) {
        s.jacobiDelta.assign(n, Vec3{});
        s.jacobiCount.assign(n, 0.f);
    }
    s.frames.resize(R.triangles().size());
    s.frameQ.resize(R.triangles().size());
    s.lastRelative.resize(R.angular().size());
    s.held.assign(R.angular().size(), 0);
    s.jointTake.resize(R.angular().size());
    s.bendTake.resize(R.bends().size());
    s.contacts.resize(contactCapacity);
    s.selfPairs.resize(R.selfCapsulePairs().size());
    s.selfDepth.resize(R.selfCapsulePairs().size());
    s.meshScratch.resize(256);
    s.colliderLo.resize(R.colliders().size());
    s.colliderHi.resize(R.colliders().size());
    s.pins.reserve(R.pins().size() + kMaxDynamicPins);
    Solver::allocateDrives(*this);
    if (const ProjectionStructure* ps = R.projection()) {
        ProjectionScratch& p = s.projection;
        const std::size_t m = ps->core.size(), e = ps->extra.size(),
                          k = std::min<std::size_t>(e + R.selfCapsulePairs().size() / 2, kMaxProjectionExtra);
        p.coreActive.assign(m, 0);
        p.coreFree.assign(m, 0);
        p.coreG.assign(2 * m, Vec3{});
        p.coreWG.assign(2 * m, Vec3{});
        p.coreRhs.assign(m, 0.0);
        p.coreLambda.assign(m, 0.0);
        p.coreLambdaSum.assign(m, 0.0);
        p.z.assign(m, 0.0);
        p.invPivot.assign(m, 0.0);
        p.coreCompliance.assign(m, 0.f);
        p.work.reserve(ps->ldl);
        p.extraRow.assign(k, 0);
        p.rows.assign(k, ProjectionRow{});
        p.extraG.assign(6 * k, Vec3{});
        p.extraRhs.assign(k, 0.0);
        p.extraLambda.assign(k, 0.0);
        p.y.assign(k * m, 0.0);
        p.yScaled.assign(k * m, 0.0);
        p.reach.assign(k * m, 0);
        p.reachCount.assign(k, 0);
        p.rowMask.assign(k, 0);
        p.bSlot.assign(m, ~0u);
        p.bIndex.assign(k * kMaxExtraCoupling, 0);
        p.bValue.assign(k * kMaxExtraCoupling, 0.0);
        p.bCount.assign(k, 0);
        p.K.assign(k * k, 0.0);
        p.dense.assign(k * k, 0.0);
        p.denseRhs.assign(k, 0.0);
        p.extraUnilateral.assign(k, 0);
        p.extraOn.assign(k, 0);
        p.extraFree.assign(k, 0);
        p.onList.assign(k, 0);
        p.extraCompliance.assign(k, 0.f);
        p.extraLambdaSum.assign(e, 0.0);
        p.force.assign(n, Vec3{});
        p.saved.assign(n, Vec3{});
        p.lockCount.assign(n, 0);
        p.lockChanged.assign(n, 0);
        p.refactor.assign(m, 0);
        p.lockNormal.assign(3 * n, Vec3{});
        p.lockSurface.assign(3 * n, Vec3{});
        p.capsuleDepth.assign(R.capsules().size(), 0.f);
        p.capsuleT.assign(R.capsules().size(), 0.f);
        p.capsuleNormal.assign(R.capsules().size(), Vec3{});
        p.contacts.resize(contactCapacity);
    }
    s.boneNow.resize(R.bones().size());
    s.bonePrev.resize(R.bones().size());
    s.frameDt = timeStep;
    s.dt = timeStep / float(R.settings().substeps);
    for (const PinData& p : R.pins()) {
        s.pins.push_back({p.particle, p.target, p.stiffness, p.kinematic, s.w[p.particle]});
        if (p.kinematic)
            s.w[p.particle] = 0.f;
    }
    resetToBindPose(placement);
}

Ragdoll::~Ragdoll() = default;

std::uint32_t Ragdoll::particleCount() const { return std::uint32_t(mState->w.size()); }
std::span<const Vec3> Ragdoll::positions() const { return {mState->x, mState->w.size()}; }
std::span<const Vec3> Ragdoll::previousPositions() const { return {mState->xPrev, mState->w.size()}; }
std::span<const float> Ragdoll::inverseMasses() const { return mState->w; }
bool Ragdoll::asleep() const { return mState->asleep; }
const RagdollStats& Ragdoll::stats() const
{
    mState->stats.maxStickError = Solver::maxStickError(*this); // measured on request, not every step
    return mState->stats;
}

void Ragdoll::wake()
{
    mState->asleep = false;
    mState->stillTime = 0.f;
}

Vec3 Ragdoll::interpolatedPosition(std::uint32_t i, float alpha) const
{
    if (i >= particleCount())
        return {};
    return lerp(mState->xFrame[i], mState->x[i], std::clamp(alpha, 0.f, 1.f));
}

Vec3 Ragdoll::velocity(std::uint32_t i) const
{
    if (i >= particleCount())
        return {};
    return (mState->x[i] - mState->xPrev[i]) / mState->dt;
}

Vec3 Ragdoll::centreOfMass() const
{
    Vec3 c;
    float m = 0.f;
    for (std::uint32_t i = 0; i < particleCount(); ++i)
        if (mState->w[i] > 0.f) {
            c += mState->x[i] / mState->w[i];
            m += 1.f / mState->w[i];
        }
    return m > 0.f ? c / m : Vec3{};
}

Vec3 Ragdoll::linearMomentum() const
{
    Vec3 p;
    for (std::uint32_t i = 0; i < particleCount(); ++i)
        if (mState->w[i] > 0.f)
            p += (mState->x[i] - mState->xPrev[i]) / (mState->w[i] * mState->dt);
    return p;
}

bool Ragdoll::applyImpulse(std::uint32_t particle, Vec3 impulse)
{
    if (particle >= particleCount() || !isFinite(impulse) || mState->w[particle] <= 0.f)
        return false;
    // Δv = J/m; with Verlet the velocity lives in x − x*, so move x* back by Δv·Δt.
    mState->xPrev[particle] -= impulse * (mState->w[particle] * mState->dt);
    wake();
    return true;
}

bool Ragdoll::applyImpulseOnStick(std::uint32_t stick, float t, Vec3 impulse)
{
    const auto& sticks = mRig->description().sticks;
    if (stick >= sticks.size() || !(t >= 0.f && t <= 1.f) || !isFinite(impulse))
        return false;
    const std::uint32_t a = std::uint32_t(sticks[stick].a), b = std::uint32_t(sticks[stick].b);
    const float c[2] = {1.f - t, t};
    const std::uint32_t p[2] = {a, b};
    float weight = 0.f;
    for (int k = 0; k < 2; ++k)
        weight += mState->w[p[k]] * c[k] * c[k];
    if (!(weight > 0.f))
        return false;
    // The point's velocity changes by J·(Σ w c²) — the barycentric rule of Jakobsen §5 applied to velocities.
    for (int k = 0; k < 2; ++k)
        mState->xPrev[p[k]] -= impulse * (mState->w[p[k]] * c[k] * mState->dt);
    wake();
    return true;
}

bool Ragdoll::addVelocity(Vec3 dv)
{
    if (!isFinite(dv))
        return false;
    for (std::uint32_t i = 0; i < particleCount(); ++i)
        if (mState->w[i] > 0.f)
            mState->xPrev[i] -= dv * mState->dt;
    wake();
    return true;
}

bool Ragdoll::applyExplosion(Vec3 centre, float strength, float radius, float minDistance)
{
    if (!isFinite(centre) || !std::isfinite(strength) || !(radius > 0.f) || !std::isfinite(radius) ||
        !(minDistance > 0.f) || !std::isfinite(minDistance))
        return false;
    bool touched = false;
    const float min2 = minDistance * minDistance;
    for (std::uint32_t i = 0; i < particleCount(); ++i) {
        if (mState->w[i] <= 0.f)
            continue;
        const Vec3 d = mState->x[i] - centre;
        const float d2 = lengthSquared(d);
        if (d2 > radius * radius)
            continue;
        const Vec3 dir = normalizeOr(d, {0.f, 1.f, 0.f});
        mState->xPrev[i] -= dir * (strength / std::max(d2, min2) * mState->dt);
        touched = true;
    }
    if (touched)
        wake();
    return true;
}

bool Ragdoll::setPose(std::span<const Vec3> current, std::span<const Vec3> previous)
{
    const std::size_t n = particleCount();
    if (current.size() != n || previous.size() != n)
        return false;
    for (std::size_t i = 0; i < n; ++i)
        if (!isFinite(current[i]) || !isFinite(previous[i]))
            return false;
    // `previous` is one fixed step before `current`; the Verlet state keeps one substep of that motion.
    RagdollState& s = *mState;
    const float f = s.dt / s.frameDt;
    for (std::size_t i = 0; i < n; ++i) {
        s.x[i] = current[i];
        s.xPrev[i] = current[i] - (current[i] - previous[i]) * f;
        s.xFrame[i] = previous[i];
    }
    Solver::refreshTriangleFrames(*this); // the frames drives take for the last substep's
    wake();
    return true;
}

void Ragdoll::resetToBindPose(const Transform& placement)
{
    RagdollState& s = *mState;
    const auto bind = mRig->bindPositions();
    s.placement = placement;
    for (std::size_t i = 0; i < bind.size(); ++i)
        s.x[i] = s.xPrev[i] = s.xFrame[i] = placement.apply(bind[i]);
    std::fill(s.torn.begin(), s.torn.end(), std::uint8_t(0));
    const auto tris = mRig->triangles();
    for (std::size_t i = 0; i < tris.size(); ++i) {
        Rig::triangleFrame(s.x[tris[i].p[0]], s.x[tris[i].p[1]], s.x[tris[i].p[2]], s.frames[i]);
        s.frameQ[i] = toQuat(s.frames[i]);
    }
    for (std::size_t i = 0; i < s.lastRelative.size(); ++i)
        s.lastRelative[i] = mRig->angular()[i].restQ;
    std::fill(s.held.begin(), s.held.end(), std::uint8_t(0));
    std::fill(s.boneNow.begin(), s.boneNow.end(), placement);
    Solver::updateBones(*this);
    std::copy(s.boneNow.begin(), s.boneNow.end(), s.bonePrev.begin());
    s.stats = {};
    wake();
}

bool Ragdoll::setPin(std::uint32_t particle, Vec3 target, float stiffness, bool kinematic)
{
    RagdollState& s = *mState;
    if (particle >= particleCount() || !isFinite(target) || !(stiffness > 0.f && stiffness <= 1.f))
        return false;
    auto it = std::find_if(s.pins.begin(), s.pins.end(), [&](const PinState& p) { return p.particle == particle; });
    if (it == s.pins.end()) {
        if (s.pins.size() >= mRig->pins().size() + kMaxDynamicPins)
            return false;
        s.pins.push_back({particle, target, stiffness, kinematic, s.w[particle]}); // capacity reserved
        it = s.pins.end() - 1;
    }
    it->target = target;
    it->stiffness = stiffness;
    it->kinematic = kinematic;
    s.w[particle] = kinematic ? 0.f : it->savedInverseMass;
    wake();
    return true;
}

bool Ragdoll::releasePin(std::uint32_t particle)
{
    RagdollState& s = *mState;
    auto it = std::find_if(s.pins.begin(), s.pins.end(), [&](const PinState& p) { return p.particle == particle; });
    if (it == s.pins.end())
        return false;
    s.w[particle] = it->savedInverseMass;
    s.pins.erase(it);
    wake();
    return true;
}

bool Ragdoll::stickTorn(std::uint32_t stick) const
{
    if (mState->torn.empty() || stick >= mRig->description().sticks.size())
        return false;
    return mState->torn[mRig->compiledStick(stick)] != 0;
}

} // namespace marionette::runtime
