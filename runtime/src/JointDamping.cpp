// What takes spin out of the joints at the end of each substep: the direct mode's joint friction (static and
// dynamic, about each angular constraint's relative turn) and the bend damping of chain joints.
#include "AngularCorrection.h"
#include "FastMath.h"
#include "RagdollState.h"

#include <cmath>

namespace marionette::runtime {

namespace {

/// The shares of spin the joints' and the bends' damping take in a substep of length h (RagdollState).
void refreshDampingShares(RagdollState& s, const Rig& rig, float h)
{
    if (s.dampingStep == h)
        return;
    const auto cons = rig.angular();
    for (std::size_t i = 0; i < cons.size(); ++i)
        s.jointTake[i] = 1.f - std::exp(-cons[i].damping * h);
    const auto bends = rig.bends();
    for (std::size_t i = 0; i < bends.size(); ++i)
        s.bendTake[i] = 1.f - std::exp(-bends[i].damping * h);
    s.dampingStep = h;
}

} // namespace

void Solver::jointFriction(Ragdoll& r)
{
    RagdollState& s = *r.mState;
    const Rig& rig = r.rig();
    const auto cons = rig.angular();
    const auto tris = rig.triangles();
    const float h = s.dt;
    refreshDampingShares(s, rig, h);
    // Particles a static contact held in place in the last solve are fixed for the friction: the surface
    // takes their share, as it takes a kinematic particle's. Moving their velocity would only have the
    // contact stop them again next substep, and the two would rattle the body on the ground.
    const bool locks = r.rig().projection() != nullptr;
    auto movable = [&](std::uint32_t p) { return s.w[p] > 0.f && !(locks && s.projection.lockCount[p] == 3); };
    for (std::size_t i = 0; i < cons.size(); ++i) {
        const AngularData& c = cons[i];
        if ((c.damping <= 0.f && c.staticFrictionSpeed <= 0.f) || angularTorn(rig, s, i) || driven(s, c)) {
            s.held[i] = 0;
            continue;
        }
        // B's turn relative to A over this substep, as a world rotation.
        const Quat qA = s.frameQ[c.triA], qB = s.frameQ[c.triB];
        Vec3 u;
        float theta;
        if (!fast::axisAngle(qB * (qA * s.lastRelative[i]).conjugate(), u, theta))
            continue;
        if (c.hinge) {
            // The shared edge allows the turn about it only.
            const Vec3 e = normalizeOr(s.x[c.hingeB] - s.x[c.hingeA], u);
            theta *= dot(u, e);
            u = e;
        }
        const bool stop = std::fabs(theta) <= c.staticFrictionSpeed * h;
        if (s.held[i]) {
            if (stop) {
                // Held: put back where the hold began (a turn of at most the static friction speed's worth of
                // one substep, so the rigid links around it barely notice). The previous positions move along,
                // so the move itself adds no velocity (it cannot pump energy into a body the other
                // constraints pull the other way); the turn's spin is taken out of the velocity below.
                const TriangleData& A = tris[c.triA];
                const TriangleData& B = tris[c.triB];
                Vec3 before[6];
                for (int q = 0; q < 3; ++q) {
                    before[q] = s.x[A.p[q]];
                    before[3 + q] = s.x[B.p[q]];
                }
                if (c.hinge && s.w[c.freeA] > 0.f && s.w[c.freeB] > 0.f)
                    applyHinge(s, c, u, -theta);
                else
                    applyCorrection(s, A, c.triA, B, c.triB, u, -theta);
                for (int q = 0; q < 6; ++q) {
                    const std::uint32_t p = q < 3 ? A.p[q] : B.p[q - 3];
                    bool first = true; // a particle both triangles share moves once
                    for (int o = 0; o < q; ++o)
                        first = first && (o < 3 ? A.p[o] : B.p[o - 3]) != p;
                    if (first)
                        s.xPrev[p] += s.x[p] - before[q];
                }
            } else {
                s.held[i] = 0; // pushed harder than static friction holds: it turns, with dynamic friction
            }
        } else if (stop) {
            // Stops here: held from now on (recordRelativeOrientations keeps this orientation as the anchor).
            s.held[i] = 1;
            s.lastRelative[i] = qA.conjugate() * qB;
        }
        const float turn = theta * (stop ? 1.f : s.jointTake[i]);
        // Remove `turn` of the relative spin, split by the triangles' moments of inertia about u through their
        // centroids: move each triangle's previous positions along with the spin its velocity loses.
        const TriangleData& A = tris[c.triA];
        const TriangleData& B = tris[c.triB];
        Vec3 ca, cb;
        float ma = 0.f, mb = 0.f;
        for (std::uint32_t p : A.p)
            if (movable(p)) {
                ca += s.x[p] / s.w[p];
                ma += 1.f / s.w[p];
            }
        for (std::uint32_t p : B.p)
            if (movable(p)) {
                cb += s.x[p] / s.w[p];
                mb += 1.f / s.w[p];
            }
        if (!(ma > 0.f) && !(mb > 0.f))
            continue;
        // One side immovable (kinematic or pinned): the other takes the whole turn, about the particles the two
        // share (the joint) when they share any, and the immovable side absorbs the momentum.
        const bool fixedA = !(ma > 0.f), fixedB = !(mb > 0.f);
        auto jointPivot = [&](const TriangleData& moving, Vec3 fallback) {
            Vec3 sum;
            float count = 0.f;
            for (std::uint32_t p : moving.p)
                if (p == A.p[0] || p == A.p[1] || p == A.p[2])
                    if (p == B.p[0] || p == B.p[1] || p == B.p[2]) {
                        sum += s.x[p];
                        count += 1.f;
                    }
            return count > 0.f ? sum / count : fallback;
        };
        if (!fixedA)
            ca = ca / ma;
        if (!fixedB)
            cb = cb / mb;
        if (fixedA)
            cb = jointPivot(B, cb);
        if (fixedB)
            ca = jointPivot(A, ca);
        auto inertia = [&](const TriangleData& t, Vec3 centre) {
            float I = 0.f;
            for (std::uint32_t p : t.p)
                if (movable(p)) {
                    const Vec3 d = s.x[p] - centre;
                    const Vec3 perp = d - u * dot(d, u);
                    I += dot(perp, perp) / s.w[p];
                }
            return I;
        };
        const float ia = fixedA ? 0.f : inertia(A, ca), ib = fixedB ? 0.f : inertia(B, cb);
        if (!(ia + ib > 1e-12f))
            continue;
        const float shareA = fixedA ? 0.f : fixedB ? 1.f : ib / (ia + ib);
        const float shareB = fixedB ? 0.f : fixedA ? 1.f : ia / (ia + ib);
        SharedMoves spin; // what each particle's previous position moves by
        for (std::uint32_t p : A.p)
            spin.add(p, cross(u, s.x[p] - ca) * (-turn * shareA));
        for (std::uint32_t p : B.p)
            spin.add(p, cross(u, s.x[p] - cb) * (turn * shareB));
        Vec3 moves[6];
        Vec3 momentum;
        float mass = 0.f;
        for (std::uint32_t k = 0; k < spin.n; ++k)
            if (movable(spin.ids[k])) {
                moves[k] = spin.mean(k);
                momentum += moves[k] / s.w[spin.ids[k]];
                mass += 1.f / s.w[spin.ids[k]];
            }
        const Vec3 shift = fixedA || fixedB || !(mass > 0.f) ? Vec3{} : momentum / -mass;
        for (std::uint32_t k = 0; k < spin.n; ++k)
            if (movable(spin.ids[k]))
                s.xPrev[spin.ids[k]] += moves[k] + shift;
    }
}

void Solver::bendDamping(Ragdoll& r)
{
    RagdollState& s = *r.mState;
    const auto bends = r.rig().bends();
    if (bends.empty())
        return;
    const float h = s.dt;
    refreshDampingShares(s, r.rig(), h);
    const bool locks = r.rig().projection() != nullptr;
    auto moves = [&](std::uint32_t p) { return s.w[p] > 0.f && !(locks && s.projection.lockCount[p] == 3); };
    for (std::size_t k = 0; k < bends.size(); ++k) {
        const BendData& bd = bends[k];
        const float take = s.bendTake[k];
        if (!(take > 0.f) || !moves(bd.b))
            continue;
        // The reference: the motion b would have turning rigidly with the link c→a.
        const Vec3 va = (s.x[bd.a] - s.xPrev[bd.a]) / h, vb = (s.x[bd.b] - s.xPrev[bd.b]) / h,
                   vc = (s.x[bd.center] - s.xPrev[bd.center]) / h;
        const Vec3 r1 = s.x[bd.a] - s.x[bd.center], r2 = s.x[bd.b] - s.x[bd.center];
        const float l1 = lengthSquared(r1);
        if (!(l1 > 1e-12f))
            continue;
        const Vec3 w1 = cross(r1, va - vc) / l1;
        const Vec3 dev = vb - vc - cross(w1, r2);
        // An impulse on b takes `take` of its deviation; the link takes the reaction: the same impulse, and its
        // torque about c as a couple on a and c (but the part about the link itself).
        const Vec3 J = dev * (take / s.w[bd.b]);
        const Vec3 torque = cross(r2, J);
        const Vec3 tperp = torque - r1 * (dot(r1, torque) / l1);
        const Vec3 Ia = cross(tperp, r1) / l1, Ic = J - Ia;
        s.xPrev[bd.b] += J * (s.w[bd.b] * h);
        if (moves(bd.a))
            s.xPrev[bd.a] -= Ia * (s.w[bd.a] * h);
        if (moves(bd.center))
            s.xPrev[bd.center] -= Ic * (s.w[bd.center] * h);
    }
}

} // namespace marionette::runtime
