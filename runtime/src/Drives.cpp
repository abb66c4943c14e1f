// Drives (powered ragdolls): pose targets, per-part gains and their blends, and the solver pass that pulls
// the parts toward the targets inside every substep (docs/physics.md, "Drives").
//
// Every spring is an implicit (XPBD) spring–damper. With natural frequency ω = 2π·f, damping ratio ζ and
// substep h, a constraint C with velocity term v·h (its change over the substep, relative to the target's)
// gets the correction
//     Δ = −(ω²h²·C + 2ζωh·(v·h)) / (1 + 2ζωh + ω²h²),
// which is XPBD's Δλ with compliance α = 1/(ω²·m_eff) and damping β = 2ζω·m_eff times the effective inverse
// mass: the masses cancel, so gains mean the same on a finger and on a pelvis and at any substep count.
// A motor's C is the rotation vector taking its part's target orientation (relative to the parent) to its
// orientation; a pin's is the particle's offset from its target. A maximum torque or force caps |Δ|.
#include "AngularCorrection.h"
#include "FastMath.h"
#include "RagdollState.h"

#include <algorithm>
#include <cmath>

namespace marionette::runtime {

namespace {

constexpr float kTwoPi = 6.28318530718f;

void fail(std::string* error, std::string message)
{
    if (error)
        *error = std::move(message);
}

/// Rotation vector (axis × angle, angle in [0, π]) of the unit quaternion q.
Vec3 rotationVector(Quat q)
{
    Vec3 axis;
    float angle;
    return fast::axisAngle(q, axis, angle) ? axis * angle : Vec3{};
}

bool frameQuat(const Vec3* x, const std::uint32_t* p, Quat& out)
{
    Mat3 f;
    if (!Rig::triangleFrame(x[p[0]], x[p[1]], x[p[2]], f))
        return false;
    out = toQuatOrthonormal(f);
    return true;
}

/// Checks one part's gains against the ranges rig validation uses; names the part on failure.
bool checkGains(const rig::DriveGains& g, std::uint32_t part, std::string* error)
{
    for (const rig::DriveGainField& f : rig::kDriveGainFields) {
        const float v = g.*f.member;
        if (!(v >= 0.f && v <= f.max)) {
            fail(error, "drive part " + std::to_string(part) + ": " + f.name + " " + std::to_string(v) + " outside [0, " +
                            (f.max >= 1e6f ? std::string("1e6") : std::to_string(int(f.max))) + "]");
            return false;
        }
    }
    return true;
}

/// After a new pose target: the step moves from the last one to it (the first target does not move, so the
/// damping sees no jump in the target's velocity); a ragdoll with a drive on wakes.
void targetSet(Ragdoll& r, DriveState& d, bool first)
{
    if (first)
        d.targetPrev = d.target;
    d.active = true;
    d.fresh = true;
    if (d.anyGains || d.blendDuration > 0.f)
        r.wake();
}

bool anyDrive(const rig::DriveGains& g) { return g.motorFrequency > 0.f || g.pinFrequency > 0.f || g.kinematic; }

/// Blend of two parts' gains at t in [0, 1]. A cap of 0 (none) blends as the other end's cap.
rig::DriveGains blend(const rig::DriveGains& a, const rig::DriveGains& b, float t)
{
    auto mix = [t](float x, float y) { return x + (y - x) * t; };
    // From no cap, the new cap holds at once; toward no cap, the old one holds until the blend ends.
    auto cap = [&](float x, float y) { return x == 0.f ? y : y == 0.f ? (t >= 1.f ? 0.f : x) : mix(x, y); };
    rig::DriveGains g;
    g.motorFrequency = mix(a.motorFrequency, b.motorFrequency);
    g.motorDamping = mix(a.motorDamping, b.motorDamping);
    g.maxTorque = cap(a.maxTorque, b.maxTorque);
    g.pinFrequency = mix(a.pinFrequency, b.pinFrequency);
    g.pinDamping = mix(a.pinDamping, b.pinDamping);
    g.maxForce = cap(a.maxForce, b.maxForce);
    g.kinematic = t >= 1.f ? b.kinematic : (a.kinematic && b.kinematic);
    return g;
}

/// Implicit spring–damper correction (see the file comment): offset c, relative motion vh over the substep.
template <class T>
T springStep(T c, T vh, float omega, float zeta, float h)
{
    const float wh = omega * h;
    const float k = 1.f / (1.f + 2.f * zeta * wh + wh * wh);
    return (c * (wh * wh) + vh * (2.f * zeta * wh)) * -k;
}

} // namespace

void Solver::allocateDrives(Ragdoll& r)
{
    RagdollState& s = *r.mState;
    DriveState& d = s.drive;
    const std::size_t n = s.w.size(), parts = r.rig().driveParts().size();
    d.target.assign(n, Vec3{});
    d.targetPrev.assign(n, Vec3{});
    d.placed.assign(n, 0);
    d.kinematic.assign(n, 0);
    d.pinOmega.assign(n, 0.f);
    d.pinZeta.assign(n, 0.f);
    d.pinMaxForce.assign(n, 0.f);
    d.from.assign(parts, rig::DriveGains{});
    d.to.assign(parts, rig::DriveGains{});
    d.now.assign(parts, rig::DriveGains{});
    d.rel0.assign(parts, Quat{});
    d.rel1.assign(parts, Quat{});
    d.dir0.assign(parts, Vec3{});
    d.dir1.assign(parts, Vec3{});
    d.targetTurn.assign(parts, Vec3{});
    d.motorOk.assign(parts, 0);
}

// ---- the pass -----------------------------------------------------------------------------------------------

void Solver::beginDrives(Ragdoll& r, float dt)
{
    RagdollState& s = *r.mState;
    DriveState& d = s.drive;
    const Rig& rig = r.rig();
    const auto parts = rig.driveParts();
    // Advance the blend.
    if (d.blendDuration > 0.f) {
        d.blendTime = std::min(d.blendTime + dt, d.blendDuration);
        const float t = d.blendTime / d.blendDuration;
        for (std::size_t k = 0; k < parts.size(); ++k)
            d.now[k] = blend(d.from[k], d.to[k], t);
        if (d.blendTime >= d.blendDuration)
            d.blendDuration = 0.f;
    }
    d.anyGains = false;
    for (const rig::DriveGains& g : d.now)
        d.anyGains = d.anyGains || anyDrive(g);

    // Per particle: kinematic, and the strongest pin of the parts holding it. Nothing to do when no part
    // acts now and none did last step (the tables are all clear then; a rig without drives, a cloth).
    const bool acting = d.active && d.anyGains;
    if (!acting && d.particlesClear)
        return;
    d.particlesClear = !acting; // after this step's pass: released particles get their masses back below
    const std::size_t n = s.w.size();
    const auto rigW = rig.inverseMasses();
    for (std::size_t i = 0; i < n; ++i) {
        d.pinOmega[i] = 0.f;
        d.pinZeta[i] = 0.f;
        d.pinMaxForce[i] = 0.f;
    }
    // kinematic[i]: 2 = kinematic last step (until this step claims it again), 1 = kinematic now.
    for (std::uint8_t& k : d.kinematic)
        k = k ? 2 : 0;
    if (acting)
        for (std::size_t k = 0; k < parts.size(); ++k) {
            const rig::DriveGains& g = d.now[k];
            for (std::uint32_t c = 0; c < parts[k].count; ++c) {
                const std::uint32_t p = parts[k].particles[c];
                if (!d.placed[p])
                    continue;
                if (g.kinematic)
                    d.kinematic[p] = 1;
                const float omega = kTwoPi * g.pinFrequency;
                if (omega > d.pinOmega[p]) {
                    d.pinOmega[p] = omega;
                    d.pinZeta[p] = g.pinDamping;
                    d.pinMaxForce[p] = g.maxForce;
                }
            }
        }
    // Inverse masses follow: 0 while kinematic; a released particle gets the rig's back (unless a kinematic
    // pin holds it), and keeps the velocity its target gave it.
    for (std::size_t i = 0; i < n; ++i) {
        if (d.kinematic[i] == 1) {
            s.w[i] = 0.f;
        } else if (d.kinematic[i] == 2) {
            d.kinematic[i] = 0;
            bool pinned = false;
            for (const PinState& pin : s.pins)
                pinned = pinned || (pin.particle == i && pin.kinematic);
            s.w[i] = pinned ? 0.f : rigW[i];
        }
    }
    if (!acting)
        return;

    // Motors' targets relative to their parents at both ends of the step.
    for (std::size_t k = 0; k < parts.size(); ++k) {
        const DrivePartData& part = parts[k];
        d.motorOk[k] = 0;
        if (part.parent < 0 || !(d.now[k].motorFrequency > 0.f))
            continue;
        const TriangleData& A = rig.triangles()[std::size_t(part.parent)];
        bool placed = d.placed[A.p[0]] && d.placed[A.p[1]] && d.placed[A.p[2]];
        for (std::uint32_t c = 0; c < part.count; ++c)
            placed = placed && d.placed[part.particles[c]];
        Quat a0, a1;
        if (!placed || !frameQuat(d.targetPrev.data(), A.p, a0) || !frameQuat(d.target.data(), A.p, a1))
            continue;
        if (part.kind == rig::DrivePartKind::Triangle) {
            Quat b0, b1;
            if (!frameQuat(d.targetPrev.data(), part.particles, b0) || !frameQuat(d.target.data(), part.particles, b1))
                continue;
            d.rel0[k] = a0.conjugate() * b0;
            d.rel1[k] = a1.conjugate() * b1;
            d.targetTurn[k] = rotationVector(d.rel1[k] * d.rel0[k].conjugate());
        } else {
            const Vec3 e0 = d.targetPrev[part.particles[1]] - d.targetPrev[part.particles[0]];
            const Vec3 e1 = d.target[part.particles[1]] - d.target[part.particles[0]];
            if (!(lengthSquared(e0) > 1e-12f) || !(lengthSquared(e1) > 1e-12f))
                continue;
            d.dir0[k] = a0.conjugate().rotate(e0 / length(e0));
            d.dir1[k] = a1.conjugate().rotate(e1 / length(e1));
            d.targetTurn[k] = rotationVector(rotationBetween(d.dir0[k], d.dir1[k]));
        }
        d.motorOk[k] = 1;
    }
}

void Solver::solveDrives(Ragdoll& r, std::uint32_t substep, std::uint32_t substeps)
{
    RagdollState& s = *r.mState;
    DriveState& d = s.drive;
    if (!d.active || !d.anyGains)
        return;
    const Rig& rig = r.rig();
    const float h = s.dt;
    const float f1 = float(substep + 1) / float(substeps);
    const float share = 1.f / float(substeps);
    const std::size_t n = s.w.size();
    Vec3* x = s.x;
    const Vec3* xp = s.xPrev;

    // Kinematic particles ride their targets; pins pull the others.
    for (std::size_t i = 0; i < n; ++i) {
        if (!d.placed[i])
            continue;
        const Vec3 t = lerp(d.targetPrev[i], d.target[i], f1);
        if (d.kinematic[i]) {
            x[i] = t;
            continue;
        }
        const float omega = d.pinOmega[i];
        if (!(omega > 0.f) || !(s.w[i] > 0.f))
            continue;
        const Vec3 targetMove = (d.target[i] - d.targetPrev[i]) * share;
        Vec3 delta = springStep(x[i] - t, (x[i] - xp[i]) - targetMove, omega, d.pinZeta[i], h);
        if (d.pinMaxForce[i] > 0.f) {
            const float most = d.pinMaxForce[i] * h * h * s.w[i];
            const float len = length(delta);
            if (len > most)
                delta = delta * (most / len);
        }
        x[i] += delta;
    }

    // Motors: each part turns against its parent toward the target relative orientation.
    const auto parts = rig.driveParts();
    const auto tris = rig.triangles();
    for (std::size_t k = 0; k < parts.size(); ++k) {
        if (!d.motorOk[k])
            continue;
        const DrivePartData& part = parts[k];
        const rig::DriveGains& g = d.now[k];
        const TriangleData& A = tris[std::size_t(part.parent)];
        // Frames now, and at the end of the last substep (where xp is: the solver's cached frames).
        Quat qa;
        if (!frameQuat(x, A.p, qa))
            continue;
        const Quat qaPrev = s.frameQ[std::size_t(part.parent)];
        const float omega = kTwoPi * g.motorFrequency;
        if (part.kind == rig::DrivePartKind::Triangle) {
            Quat qb;
            if (!frameQuat(x, part.particles, qb))
                continue;
            const Quat qbPrev = s.frameQ[part.index];
            const Quat rel = qa.conjugate() * qb, relPrev = qaPrev.conjugate() * qbPrev;
            const Quat target = nlerp(d.rel0[k], d.rel1[k], f1);
            // In A's frame: how far B is turned past its target, and how fast it turns relative to the target.
            const Vec3 err = rotationVector(rel * target.conjugate());
            const Vec3 turn = rotationVector(rel * relPrev.conjugate()) - d.targetTurn[k] * share;
            const Vec3 local = springStep(err, turn, omega, g.motorDamping, h);
            Vec3 u = qa.rotate(local);
            float phi = length(u);
            if (!(phi > 1e-7f))
                continue;
            u = u / phi;
            const TriangleData& B = tris[part.index];
            auto free = [&](const TriangleData& t) { return s.w[t.p[0]] > 0.f && s.w[t.p[1]] > 0.f && s.w[t.p[2]] > 0.f; };
            // The inertias about u are only needed for a cap, or to see that neither side can turn (a triangle
            // of free particles always can: the common case skips both).
            if (g.maxTorque > 0.f || !free(A) || !free(B)) {
                Vec3 ua = u, ub = u;
                const Turn ta = turnOf(s, A, ua);
                const Turn tb = turnOf(s, B, ub);
                if (std::isinf(ta.inertia) && std::isinf(tb.inertia))
                    continue;
                if (g.maxTorque > 0.f) {
                    const float inertia = std::isinf(ta.inertia) ? tb.inertia
                                          : std::isinf(tb.inertia) ? ta.inertia
                                                                   : ta.inertia * tb.inertia / (ta.inertia + tb.inertia);
                    phi = std::min(phi, g.maxTorque * h * h / inertia);
                }
            }
            const AngularData* c = part.angular >= 0 ? &rig.angular()[std::size_t(part.angular)] : nullptr;
            if (c && c->hinge && s.w[c->freeA] > 0.f && s.w[c->freeB] > 0.f) {
                // A hinge turns only about its line; the shared edge holds the rest.
                const Vec3 e = normalizeOr(x[c->hingeB] - x[c->hingeA], u);
                applyHinge(s, *c, e, phi * dot(u, e));
            } else {
                applyCorrection(s, A, std::uint32_t(part.parent), B, part.index, u, phi);
            }
        } else {
            // A stick: its direction in A's frame turns toward the target's; the tip turns about the pivot and
            // the two ends shift together so their mass centre stays.
            const std::uint32_t p = part.particles[0], q = part.particles[1];
            const Vec3 arm = x[q] - x[p], armPrev = xp[q] - xp[p];
            const float len = length(arm);
            if (!(len > 1e-6f) || !(lengthSquared(armPrev) > 1e-12f))
                continue;
            const Vec3 dir = qa.conjugate().rotate(arm / len);
            const Vec3 dirPrev = qaPrev.conjugate().rotate(armPrev / length(armPrev));
            const Vec3 target = normalizeOr(lerp(d.dir0[k], d.dir1[k], f1), d.dir1[k]);
            const Vec3 err = rotationVector(rotationBetween(target, dir));
            const Vec3 turn = rotationVector(rotationBetween(dirPrev, dir)) - d.targetTurn[k] * share;
            Vec3 u = qa.rotate(springStep(err, turn, omega, g.motorDamping, h));
            float phi = length(u);
            const float wq = s.w[q], wp = s.w[p];
            if (!(phi > 1e-7f) || !(wq > 0.f))
                continue;
            u = u / phi;
            if (g.maxTorque > 0.f)
                phi = std::min(phi, g.maxTorque * h * h * wq / (len * len));
            const Vec3 move = x[p] + fast::fromAxisAngle(u, phi).rotate(arm) - x[q];
            if (wp > 0.f) {
                const float mq = 1.f / wq, mp = 1.f / wp;
                const Vec3 shift = move * (-mq / (mq + mp));
                x[q] += move + shift;
                x[p] += shift;
            } else {
                x[q] += move;
            }
        }
    }
}

void Solver::endDrives(Ragdoll& r)
{
    DriveState& d = r.mState->drive;
    if (d.fresh) {
        d.targetPrev = d.target;
        d.fresh = false;
    }
}

// ---- the API --------------------------------------------------------------------------------------------------

bool Ragdoll::setPoseTarget(std::span<const Mat4> boneWorld, std::string* error)
{
    const Rig& rig = *mRig;
    const std::size_t bones = rig.bones().size();
    if (boneWorld.size() != bones) {
        fail(error, "pose target: palette of " + std::to_string(boneWorld.size()) + " bones, the rig has " +
                        std::to_string(bones));
        return false;
    }
    for (std::size_t b = 0; b < bones; ++b)
        for (float v : boneWorld[b].m)
            if (!std::isfinite(v)) {
                fail(error, "pose target: bone " + std::to_string(b) + " '" + rig.description().bones[b].name +
                                "' has a non-finite matrix");
                return false;
            }
    DriveState& d = mState->drive;
    const auto targets = rig.driveTargets();
    const bool first = !d.active;
    for (std::size_t i = 0; i < targets.size(); ++i) {
        d.placed[i] = targets[i].bone >= 0;
        if (d.placed[i])
            d.target[i] = boneWorld[std::size_t(targets[i].bone)].transformPoint(targets[i].local);
    }
    targetSet(*this, d, first);
    return true;
}

bool Ragdoll::setParticleTargets(std::span<const Vec3> targets, std::string* error)
{
    const std::size_t n = particleCount();
    if (targets.size() != n) {
        fail(error, "pose target: " + std::to_string(targets.size()) + " particle targets, the rig has " +
                        std::to_string(n) + " particles");
        return false;
    }
    for (std::size_t i = 0; i < n; ++i)
        if (!isFinite(targets[i])) {
            fail(error, "pose target: particle " + std::to_string(i) + " '" + mRig->description().particles[i].name +
                            "' has a non-finite target");
            return false;
        }
    DriveState& d = mState->drive;
    const bool first = !d.active;
    std::copy(targets.begin(), targets.end(), d.target.begin());
    std::fill(d.placed.begin(), d.placed.end(), std::uint8_t(1));
    targetSet(*this, d, first);
    return true;
}

void Ragdoll::clearPoseTarget()
{
    DriveState& d = mState->drive;
    d.active = false;
    d.fresh = false;
    // Kinematic particles are released at the next step's start (beginDrives), with their velocity.
    wake();
}

bool Ragdoll::hasPoseTarget() const { return mState->drive.active; }

std::span<const Vec3> Ragdoll::particleTargets() const
{
    const DriveState& d = mState->drive;
    return d.active ? std::span<const Vec3>(d.target) : std::span<const Vec3>();
}

bool Ragdoll::setDriveGains(std::span<const rig::DriveGains> perPart, float seconds, std::string* error)
{
    DriveState& d = mState->drive;
    if (perPart.size() != d.now.size()) {
        fail(error, "drive gains: " + std::to_string(perPart.size()) + " parts given, the rig has " +
                        std::to_string(d.now.size()));
        return false;
    }
    if (!(seconds >= 0.f && seconds <= 3600.f)) {
        fail(error, "drive gains: blend time " + std::to_string(seconds) + " s outside [0, 3600]");
        return false;
    }
    for (std::size_t k = 0; k < perPart.size(); ++k)
        if (!checkGains(perPart[k], std::uint32_t(k), error))
            return false;
    std::copy(d.now.begin(), d.now.end(), d.from.begin());
    std::copy(perPart.begin(), perPart.end(), d.to.begin());
    d.blendTime = 0.f;
    d.blendDuration = seconds;
    if (seconds == 0.f)
        std::copy(perPart.begin(), perPart.end(), d.now.begin());
    else
        for (std::size_t k = 0; k < d.now.size(); ++k) // leaving kinematic starts at once
            d.now[k].kinematic = d.from[k].kinematic && d.to[k].kinematic;
    d.anyGains = false;
    for (std::size_t k = 0; k < d.now.size(); ++k)
        d.anyGains = d.anyGains || anyDrive(d.now[k]) || anyDrive(d.to[k]);
    wake();
    return true;
}

bool Ragdoll::setDriveProfile(std::string_view name, float seconds, std::string* error)
{
    const std::int32_t p = mRig->findDriveProfile(name);
    if (p < 0) {
        std::string known;
        for (const DriveProfileData& q : mRig->driveProfiles())
            known += (known.empty() ? "" : ", ") + ("'" + q.name + "'");
        fail(error, "drive profile '" + std::string(name) + "' not in the rig (" +
                        (known.empty() ? std::string("it has none") : "it has " + known) + ")");
        return false;
    }
    return setDriveGains(mRig->driveProfiles()[std::size_t(p)].gains, seconds, error);
}

bool Ragdoll::setPartGains(std::uint32_t part, const rig::DriveGains& gains, std::string* error)
{
    DriveState& d = mState->drive;
    if (part >= d.now.size()) {
        fail(error, "drive part " + std::to_string(part) + " out of range (" + std::to_string(d.now.size()) + " parts)");
        return false;
    }
    if (!checkGains(gains, part, error))
        return false;
    d.now[part] = d.from[part] = d.to[part] = gains;
    d.anyGains = d.anyGains || anyDrive(gains);
    wake();
    return true;
}

bool Ragdoll::goLimp(float seconds, std::string* error)
{
    if (!(seconds >= 0.f && seconds <= 3600.f)) {
        fail(error, "drive gains: blend time " + std::to_string(seconds) + " s outside [0, 3600]");
        return false;
    }
    DriveState& d = mState->drive;
    std::copy(d.now.begin(), d.now.end(), d.from.begin());
    std::fill(d.to.begin(), d.to.end(), rig::DriveGains{});
    d.blendTime = 0.f;
    d.blendDuration = seconds;
    for (std::size_t k = 0; k < d.now.size(); ++k)
        d.now[k] = seconds == 0.f ? rig::DriveGains{} : blend(d.from[k], d.to[k], 0.f);
    wake();
    return true;
}

std::span<const rig::DriveGains> Ragdoll::driveGains() const { return mState->drive.now; }

bool Ragdoll::partTrackingError(std::uint32_t part, float& metres, float& radians) const
{
    const DriveState& d = mState->drive;
    const auto parts = mRig->driveParts();
    if (!d.active || part >= parts.size())
        return false;
    const DrivePartData& p = parts[part];
    for (std::uint32_t c = 0; c < p.count; ++c)
        if (!d.placed[p.particles[c]])
            return false;
    const Vec3* x = mState->x;
    if (p.kind == rig::DrivePartKind::Triangle) {
        Quat q, qt;
        if (!frameQuat(x, p.particles, q) || !frameQuat(d.target.data(), p.particles, qt))
            return false;
        const Vec3 c = (x[p.particles[0]] + x[p.particles[1]] + x[p.particles[2]]) * (1.f / 3.f);
        const Vec3 ct = (d.target[p.particles[0]] + d.target[p.particles[1]] + d.target[p.particles[2]]) * (1.f / 3.f);
        metres = length(c - ct);
        radians = rotationAngle(q * qt.conjugate());
        return true;
    }
    const Vec3 a = x[p.particles[0]], b = x[p.particles[1]];
    const Vec3 at = d.target[p.particles[0]], bt = d.target[p.particles[1]];
    metres = length((a + b) * 0.5f - (at + bt) * 0.5f);
    const Vec3 u = normalizeOr(b - a, {0, 1, 0}), v = normalizeOr(bt - at, {0, 1, 0});
    radians = std::acos(std::clamp(dot(u, v), -1.f, 1.f));
    return true;
}

} // namespace marionette::runtime
