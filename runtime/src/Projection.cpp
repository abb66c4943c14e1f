// The direct projection (see Projection.h): structure at Rig::build, one Newton step per call of
// Solver::project.
#include "Projection.h"

#include "FastMath.h"
#include "RagdollState.h"
#include "geometry/Geometry.h"

#include <algorithm>
#include <cmath>

namespace marionette::runtime {

bool ProjectionStructure::build(const Rig& rig)
{
    core.clear();
    extra.clear();
    const auto sticks = rig.sticks();
    for (std::uint32_t k = 0; k < sticks.size(); ++k) {
        const ProjectionRow row{RowKind::Stick, 2, k, {sticks[k].a, sticks[k].b, 0, 0, 0, 0}};
        (sticks[k].minLength == sticks[k].maxLength ? core : extra).push_back(row);
    }
    const auto tris = rig.triangles();
    const auto angular = rig.angular();
    for (std::uint32_t i = 0; i < angular.size(); ++i) {
        ProjectionRow row{RowKind::Angular, 0, i, {}};
        for (const std::uint32_t t : {angular[i].triA, angular[i].triB})
            for (std::uint32_t p : tris[t].p)
                if (std::find(row.p, row.p + row.count, p) == row.p + row.count)
                    row.p[row.count++] = p;
        extra.push_back(row);
    }
    const auto capsules = rig.capsules();
    for (std::uint32_t c = 0; c < capsules.size(); ++c)
        extra.push_back({RowKind::CapsuleContact, 2, c, {capsules[c].a, capsules[c].b, 0, 0, 0, 0}});
    if (core.empty() || core.size() > kMaxProjectionCore)
        return false;

    const std::size_t n = rig.particleCount();
    coreBegin.assign(n + 1, 0);
    for (const ProjectionRow& r : core)
        for (std::uint32_t q = 0; q < 2; ++q)
            ++coreBegin[r.p[q] + 1];
    for (std::size_t p = 0; p < n; ++p)
        coreBegin[p + 1] += coreBegin[p];
    coreOf.assign(coreBegin[n], 0);
    corePlace.assign(coreBegin[n], 0);
    std::vector<std::uint32_t> fill(coreBegin.begin(), coreBegin.end() - 1);
    for (std::uint32_t i = 0; i < core.size(); ++i)
        for (std::uint32_t q = 0; q < 2; ++q) {
            const std::uint32_t p = core[i].p[q];
            coreOf[fill[p]] = i;
            corePlace[fill[p]] = std::uint8_t(q);
            ++fill[p];
        }

    // Couplings: every pair of core rows that share a particle, with the shared particles.
    couplings.clear();
    std::vector<SparseLdl::Entry> entries;
    for (std::uint32_t i = 0; i < core.size(); ++i) {
        std::vector<std::uint32_t> partners;
        for (std::uint32_t q = 0; q < 2; ++q) {
            const std::uint32_t p = core[i].p[q];
            for (std::uint32_t k = coreBegin[p]; k < coreBegin[p + 1]; ++k)
                if (coreOf[k] > i)
                    partners.push_back(coreOf[k]);
        }
        std::sort(partners.begin(), partners.end());
        partners.erase(std::unique(partners.begin(), partners.end()), partners.end());
        for (std::uint32_t j : partners) {
            Coupling c{i, j, {0, 0}, {0, 0}, 0, 0};
            for (std::uint32_t a = 0; a < 2; ++a)
                for (std::uint32_t b = 0; b < 2; ++b)
                    if (core[i].p[a] == core[j].p[b]) {
                        c.gI[c.shared] = 2 * i + a;
                        c.wgJ[c.shared] = 2 * j + b;
                        ++c.shared;
                    }
            couplings.push_back(c);
            entries.push_back({i, j});
        }
    }
    for (const ProjectionRow& row : extra) {
        std::uint32_t degree = 0;
        for (std::uint32_t q = 0; q < row.count; ++q)
            degree += coreBegin[row.p[q] + 1] - coreBegin[row.p[q]];
        if (degree > kMaxExtraCoupling)
            return false; // a joint or range among too many rigid links for the dense coupling
    }
    if (!ldl.analyse(std::uint32_t(core.size()), entries))
        return false;
    diagonalSlot.resize(core.size());
    for (std::uint32_t i = 0; i < core.size(); ++i)
        diagonalSlot[i] = ldl.diagonalSlot(i);
    for (std::uint32_t e = 0; e < couplings.size(); ++e)
        couplings[e].slot = ldl.entrySlot(e);
    return ldl.factorNonzeros() <= kMaxProjectionFill;
}

std::optional<Rig::DirectSolveShape> Rig::directSolveShape() const
{
    const ProjectionStructure* ps = projection();
    if (!ps)
        return std::nullopt;
    return DirectSolveShape{std::uint32_t(ps->core.size()), std::uint32_t(ps->ldl.factorNonzeros()), ps->ldl.depth(),
                            std::uint32_t(ps->extra.size())};
}

namespace {

/// Band within which a unilateral constraint near its limit takes part (and is dropped again when the
/// solution would pull on it): a contact 0.5 mm from its surface, a length range within 0.05 % of its limit,
/// an angular limit within 0.05°. Keeping nearly touching constraints in the system stops them from
/// flickering in and out between Newton steps.
constexpr float kContactBand = 0.0005f;
constexpr float kRangeBand = 0.0005f;
constexpr float kAngularBand = 8.7e-4f;
/// The dense active set's rounds and how far a left-out row may stay broken (m). Each round drops rows that
/// would pull or takes back one left broken, and a row is taken back at most once: at most 3 × the rows.
constexpr std::uint32_t kMaxActiveSetRounds = 3 * kMaxProjectionExtra + 2;
constexpr double kActiveSetTolerance = 1e-6;

/// Gradient of u·ω with respect to triangle t's three particles, where ω is the turn of its frame
/// (Rig::triangleFrame: up along p0→p1, facing normal to the plane with p2) and u a world axis. Exact, so it
/// also sees the frame turn when the triangle deforms: a thin limb triangle's frame turns fast when its third
/// particle moves across the long edge, which the gradient of rigid turns alone would miss (a Newton step
/// built on that can leave a limit further out than it found it). False when the triangle is (nearly)
/// degenerate.
bool frameTurnGradient(const RagdollState& s, const TriangleData& t, Vec3 u, Vec3 g[3])
{
    const Vec3 p0 = s.x[t.p[0]];
    const Vec3 e1 = s.x[t.p[1]] - p0, d2 = s.x[t.p[2]] - p0;
    const float l1 = length(e1);
    if (!(l1 > 1e-6f))
        return false;
    const Vec3 up = e1 / l1;
    const Vec3 normal = cross(up, d2);
    const float ln = length(normal);
    if (!(ln > 1e-4f * length(d2)) || !(ln > 1e-7f))
        return false;
    const Vec3 facing = normal / ln, right = cross(up, facing);
    // With δe = (1 − up upᵀ)(δp1 − δp0)/l1 the turn of the up axis:
    //   ω·right = facing·(δp1 − δp0)/l1,  ω·facing = −right·(δp1 − δp0)/l1,
    //   ω·up = (δe·(d2 × right) + facing·(δp2 − δp0))/ln.
    Vec3 a = cross(d2, right);
    a -= up * dot(up, a);
    const float ur = dot(u, right), uu = dot(u, up), uf = dot(u, facing);
    g[1] = facing * (ur / l1) - right * (uf / l1) + a * (uu / (l1 * ln));
    g[2] = facing * (uu / ln);
    g[0] = -(g[1] + g[2]);
    return true;
}

/// W_p·v: particle p's inverse mass, without the normal components its contacts forbid (this solve's locks,
/// ProjectionScratch::lockCount and lockNormal). Holds the arrays' addresses, so that a loop storing flags
/// (bytes, which may alias anything) does not reload them.
struct Weighted {
    const float* w;
    const std::uint8_t* lockCount;
    const Vec3* lockNormal;

    Weighted(const RagdollState& s, const ProjectionScratch& sc)
        : w(s.w.data()), lockCount(sc.lockCount.data()), lockNormal(sc.lockNormal.data())
    {
    }
    Vec3 operator()(std::uint32_t p, Vec3 v) const
    {
        for (std::uint32_t k = 0; k < lockCount[p]; ++k) {
            const Vec3 n = lockNormal[3 * p + k];
            v -= n * dot(n, v);
        }
        return v * w[p];
    }
};

/// Solves the dense symmetric system a·x = b of size n (row-major, overwritten) by LDLᵀ; a pivot that has
/// lost all but 1e-10 of its diagonal decouples its unknown (x = 0 there).
void denseSolve(double* a, double* b, std::uint32_t n)
{
    for (std::uint32_t j = 0; j < n; ++j) {
        double d = a[j * n + j];
        for (std::uint32_t k = 0; k < j; ++k)
            d -= a[j * n + k] * a[j * n + k] * a[k * n + k];
        const bool lost = !(d > 1e-10 * std::fabs(a[j * n + j])) || !(d > 0.0);
        a[j * n + j] = lost ? 1e30 : d;
        for (std::uint32_t i = j + 1; i < n; ++i) {
            double v = a[i * n + j];
            for (std::uint32_t k = 0; k < j; ++k)
                v -= a[i * n + k] * a[j * n + k] * a[k * n + k];
            a[i * n + j] = v / a[j * n + j];
        }
    }
    for (std::uint32_t i = 0; i < n; ++i)
        for (std::uint32_t k = 0; k < i; ++k)
            b[i] -= a[i * n + k] * b[k];
    for (std::uint32_t i = 0; i < n; ++i)
        b[i] /= a[i * n + i];
    for (std::uint32_t i = n; i-- > 0;)
        for (std::uint32_t k = i + 1; k < n; ++k)
            b[i] -= a[k * n + i] * b[k];
}

/// A row whose particles the contact locks let move along it by less than this share of what they could
/// unheld is held: it takes no correction and carries no force.
constexpr double kHeld = 1e-9;

/// g W gᵀ of a row with gradients g[0..count) on particles p[0..count) (W without the directions the contact
/// locks forbid), and in `free` whether the locks leave it more than kHeld of its weight unheld.
inline double rowWeight(const Weighted& weigh, const std::uint32_t* p, const Vec3* g, std::uint32_t count, bool& free)
{
    double weight = 0.0, unheld = 0.0;
    for (std::uint32_t q = 0; q < count; ++q) {
        weight += double(dot(g[q], weigh(p[q], g[q])));
        unheld += double(weigh.w[p[q]] * lengthSquared(g[q]));
    }
    free = weight > kHeld * unheld;
    return weight;
}

} // namespace

/// An unused ProjectionScratch::bSlot.
constexpr std::uint32_t kNoSlot = ~0u;

/// Gauss–Seidel sweeps over the sticks when a projection step would have grown the error.
constexpr int kFallbackSweeps = 4;
/// A solve that leaves a stick further than this from its length (metres), and worse than before, diverged.
constexpr float kDivergence = 0.02f;

bool Solver::project(Ragdoll& r, const StaticWorld& world)
{
    RagdollState& s = *r.mState;
    const Rig& rig = r.rig();
    const ProjectionStructure& ps = *rig.projection();
    ProjectionScratch& sc = s.projection;
    const std::uint32_t m = std::uint32_t(ps.core.size());
    const std::size_t n = s.w.size();
    const auto sticks = rig.sticks();
    const auto tris = rig.triangles();
    const auto cons = rig.angular();
    const auto caps = rig.capsules();
    const float h2 = s.dt * s.dt;
    auto torn = [&](std::uint32_t stick) { return !s.torn.empty() && s.torn[stick]; };

    refreshTriangleFrames(r);
    ++s.stats.newtonSteps;

    // Contacts within the band: single points lock their particle's inverse mass; the deepest point along
    // the middle of each capsule becomes that capsule's contact row.
    std::fill(sc.lockCount.begin(), sc.lockCount.end(), std::uint8_t(0));
    std::fill(sc.lockChanged.begin(), sc.lockChanged.end(), std::uint8_t(0));
    std::fill(sc.capsuleDepth.begin(), sc.capsuleDepth.end(), -1.f);
    const std::uint32_t nc = gatherContacts(r, world, kContactBand, sc.contacts.data(), std::uint32_t(sc.contacts.size()));
    for (std::uint32_t k = 0; k < nc; ++k) {
        const GatheredContact& c = sc.contacts[k];
        const ContactSide& side = c.row.side;
        std::int32_t only = -1;
        for (std::uint32_t q = 0; q < side.count; ++q)
            if (side.c[q] > 0.999f && s.w[side.idx[q]] > 0.f)
                only = std::int32_t(side.idx[q]);
        if (only < 0 && c.capsule >= 0) {
            const std::uint32_t cap = std::uint32_t(c.capsule);
            if (c.row.depth > sc.capsuleDepth[cap]) {
                sc.capsuleDepth[cap] = c.row.depth;
                sc.capsuleNormal[cap] = c.row.normal;
                sc.capsuleT[cap] = side.c[1];
            }
            continue;
        }
        if (only < 0)
            continue; // embedded boxes: relaxed by Gauss–Seidel only
        const std::uint32_t p = std::uint32_t(only);
        if (c.row.depth > 0.f)
            s.x[p] += c.row.normal * c.row.depth; // out of the surface first; the lock keeps it there
        else if (dot(s.x[p] - s.xPrev[p], c.row.normal) > kContactBand)
            continue; // leaving the surface faster than the band per substep: not resting on it
        // One lock per surface direction (a corner gives two or three).
        Vec3 nrm = c.row.normal;
        bool duplicate = false;
        for (std::uint32_t q = 0; q < sc.lockCount[p]; ++q) {
            const Vec3 o = sc.lockNormal[3 * p + q];
            if (dot(o, c.row.normal) > 0.99f)
                duplicate = true;
            nrm -= o * dot(o, nrm);
        }
        if (duplicate || sc.lockCount[p] >= 3 || !(lengthSquared(nrm) > 1e-4f))
            continue;
        sc.lockNormal[3 * p + sc.lockCount[p]] = normalizeOr(nrm, c.row.normal);
        sc.lockSurface[3 * p + sc.lockCount[p]] = c.row.normal;
        ++sc.lockCount[p];
    }
    // Static friction inside the solve: a particle resting on one surface that the contact pass left sliding
    // slower than the static friction speed is held in place tangentially too, as long as the force holding it
    // stays inside the friction cone (checked after the solve). Otherwise the solve would slide it along the
    // surface, and the next substep's friction would pull it back: a body at rest would never be still.
    const float mu = rig.settings().friction;
    const float still = rig.settings().staticFrictionSpeed * s.dt;
    for (std::size_t p = 0; p < n && mu > 0.f; ++p) {
        if (sc.lockCount[p] != 1)
            continue;
        const Vec3 nrm = sc.lockNormal[3 * p];
        const Vec3 v = s.x[p] - s.xPrev[p];
        if (lengthSquared(v - nrm * dot(nrm, v)) > still * still)
            continue;
        const Vec3 t1 = anyPerpendicular(nrm);
        sc.lockNormal[3 * p + 1] = t1;
        sc.lockNormal[3 * p + 2] = cross(nrm, t1);
        sc.lockSurface[3 * p + 1] = sc.lockSurface[3 * p + 2] = sc.lockSurface[3 * p];
        sc.lockCount[p] = 3;
    }

    // Core rows: every rigid stick, C = L − rest.
    float worstBefore = 0.f;
    for (std::uint32_t i = 0; i < m; ++i) {
        const StickData& c = sticks[ps.core[i].index];
        sc.coreActive[i] = !torn(ps.core[i].index) && s.w[c.a] + s.w[c.b] > 0.f;
        if (!sc.coreActive[i])
            continue;
        const Vec3 d = s.x[c.b] - s.x[c.a];
        const float L = length(d);
        const Vec3 u = L > 1e-9f ? d / L : Vec3{0.f, 1.f, 0.f};
        sc.coreG[2 * i] = -u;
        sc.coreG[2 * i + 1] = u;
        sc.coreCompliance[i] = c.compliance / h2;
        sc.coreRhs[i] = double((c.minLength - L) * c.stiffness) - double(sc.coreCompliance[i]) * sc.coreLambdaSum[i];
        worstBefore = std::max(worstBefore, std::fabs(c.minLength - L));
    }

    // Extra rows acting now (violated, or within the band of their limit).
    sc.extraCount = 0;
    for (std::uint32_t e = 0; e < ps.extra.size() && sc.extraCount < kMaxProjectionExtra; ++e) {
        const ProjectionRow& row = ps.extra[e];
        const std::uint32_t k = sc.extraCount;
        Vec3* g = &sc.extraG[6 * k];
        double rhs = 0.0;
        float compliance = 0.f;
        if (row.kind == RowKind::Stick) {
            const StickData& c = sticks[row.index];
            if (torn(row.index) || s.w[c.a] + s.w[c.b] <= 0.f)
                continue;
            const Vec3 d = s.x[c.b] - s.x[c.a];
            const float L = length(d);
            const Vec3 u = L > 1e-9f ? d / L : Vec3{0.f, 1.f, 0.f};
            if (c.minLength > 0.f && L < c.minLength * (1.f + kRangeBand)) {
                g[0] = -u; // pushes the ends apart
                g[1] = u;
                rhs = double(c.minLength - L);
            } else if (std::isfinite(c.maxLength) && L > c.maxLength * (1.f - kRangeBand)) {
                g[0] = u; // pulls them together
                g[1] = -u;
                rhs = double(L - c.maxLength);
            } else {
                continue;
            }
            rhs *= double(c.stiffness);
            compliance = c.compliance / h2;
        } else if (row.kind == RowKind::Angular) {
            const AngularData& c = cons[row.index];
            Vec3 u;
            float excess;
            if (!limitRow(r, row.index, kAngularBand, u, excess))
                continue;
            // The limit turns B relative to A about u: the gradient of B's frame turn minus A's.
            for (std::uint32_t q = 0; q < row.count; ++q)
                g[q] = {};
            bool ok = true;
            for (int side = 0; side < 2 && ok; ++side) {
                const TriangleData& t = tris[side == 0 ? c.triA : c.triB];
                Vec3 gt[3];
                if (!(ok = frameTurnGradient(s, t, u, gt)))
                    break;
                for (int q = 0; q < 3; ++q) {
                    const std::uint32_t at = std::uint32_t(std::find(row.p, row.p + row.count, t.p[q]) - row.p);
                    g[at] += gt[q] * (side == 0 ? -1.f : 1.f);
                }
            }
            if (!ok)
                continue;
            rhs = double(excess * c.stiffness);
        } else {
            const std::uint32_t cap = row.index;
            if (!(sc.capsuleDepth[cap] > -kContactBand) || torn(rig.compiledStick(caps[cap].stick)))
                continue;
            const float t = sc.capsuleT[cap];
            g[0] = sc.capsuleNormal[cap] * (1.f - t);
            g[1] = sc.capsuleNormal[cap] * t;
            rhs = double(sc.capsuleDepth[cap]);
        }
        sc.extraRow[k] = e;
        sc.rows[k] = row;
        sc.extraCompliance[k] = compliance;
        sc.extraRhs[k] = rhs - double(compliance) * sc.extraLambdaSum[e];
        sc.extraUnilateral[k] = 1;
        ++sc.extraCount;
    }
    // Capsule pairs of this body touching or within the band: the distance between their axes may not drop
    // below the sum of their radii. (The Gauss–Seidel pass before the projection pushes them apart and
    // applies their friction; without these rows the projection would pull them back together, and a body
    // lying folded onto itself would never be still.)
    const auto pairs = rig.selfCapsulePairs();
    for (std::uint32_t k = 0; k < s.selfPairCount && sc.extraCount < kMaxProjectionExtra; ++k) {
        const CapsuleData& A = caps[pairs[s.selfPairs[k]]];
        const CapsuleData& B = caps[pairs[s.selfPairs[k] + 1]];
        if (torn(rig.compiledStick(A.stick)) || torn(rig.compiledStick(B.stick)))
            continue;
        float sa, tb;
        geo::closestSegmentSegment(s.x[A.a], s.x[A.b], s.x[B.a], s.x[B.b], sa, tb);
        const Vec3 d = lerp(s.x[A.a], s.x[A.b], sa) - lerp(s.x[B.a], s.x[B.b], tb);
        const float dist = length(d), reach = A.radius + B.radius;
        if (!(dist < reach + kContactBand) || !(dist > 1e-6f))
            continue;
        std::uint32_t coupled = 0; // core rows at the four particles: bounded by the coupling buffers
        for (const std::uint32_t p : {A.a, A.b, B.a, B.b})
            coupled += ps.coreBegin[p + 1] - ps.coreBegin[p];
        if (coupled > kMaxExtraCoupling)
            continue;
        const Vec3 apart = d / dist; // from B to A
        const std::uint32_t row = sc.extraCount;
        Vec3* g = &sc.extraG[6 * row];
        g[0] = apart * (1.f - sa);
        g[1] = apart * sa;
        g[2] = -apart * (1.f - tb);
        g[3] = -apart * tb;
        ProjectionRow& out = sc.rows[row];
        out.kind = RowKind::SelfContact;
        out.count = 4;
        out.index = k;
        out.p[0] = A.a;
        out.p[1] = A.b;
        out.p[2] = B.a;
        out.p[3] = B.b;
        sc.extraRow[row] = kNoCandidate;
        sc.extraCompliance[row] = 0.f;
        sc.extraRhs[row] = double(reach - dist);
        sc.extraUnilateral[row] = 1;
        ++sc.extraCount;
    }
    const std::uint32_t ne = sc.extraCount;

    // A stick both of whose ends static friction holds still along it, but which is off its length by more
    // than the solve's tolerance, pulls on them harder than friction can hold: they slide.
    for (std::uint32_t i = 0; i < m; ++i) {
        if (!sc.coreActive[i])
            continue;
        const StickData& c = sticks[ps.core[i].index];
        if (!(std::fabs(sc.coreRhs[i]) > 1e-4 * double(c.minLength)))
            continue;
        bool free = false;
        rowWeight(Weighted(s, sc), ps.core[i].p, &sc.coreG[2 * i], 2, free);
        if (free)
            continue;
        for (std::uint32_t q = 0; q < 2; ++q) {
            const std::uint32_t p = ps.core[i].p[q];
            if (sc.lockCount[p] == 3 && sc.lockSurface[3 * p + 1] == sc.lockSurface[3 * p])
                sc.lockCount[p] = 1;
        }
    }

    // Solve: the core by sparse LDLᵀ, the extra rows through their Schur complement. A unilateral row that
    // would pull is dropped and the dense part solved again; a contact lock the body would lift off is
    // released and the whole solved again (at most three times).
    for (int pass = 0; pass < 3; ++pass) {
        // Core matrix A = J W Jᵀ (+ compliance), factorised.
        // A stick whose ends the contacts hold still along it (both resting under static friction) can take
        // no correction: it carries no force. Its multiplier would be its error over the regularisation, a
        // huge number the friction test below would read as a load on the contacts.
        // W g at both ends of each row (rowWeight's terms), which the couplings share. The matrix is assembled
        // straight into the factor's layout.
        // After contacts were let go (pass > 0), only the rows at their particles changed: the others keep
        // their entries, and the factor redoes only what depends on the changed ones.
        const bool partial = pass > 0;
        std::uint8_t* const redo = sc.refactor.data();
        if (partial)
            for (std::size_t p = 0; p < n; ++p)
                if (sc.lockChanged[p]) {
                    sc.lockChanged[p] = 0;
                    for (std::uint32_t k = ps.coreBegin[p]; k < ps.coreBegin[p + 1]; ++k)
                        redo[ps.ldl.permuted(ps.coreOf[k])] = 1;
                }
        double* const ax = sc.work.ax.data();
        const std::uint32_t* const diagonalSlot = ps.diagonalSlot.data();
        const ProjectionRow* const core = ps.core.data();
        const std::uint8_t* const active = sc.coreActive.data();
        const float* const compliance = sc.coreCompliance.data();
        const float* const w = s.w.data();
        const Weighted weigh(s, sc);
        std::uint8_t* const rowFree = sc.coreFree.data();
        const Vec3* const G = sc.coreG.data();
        Vec3* const WG = sc.coreWG.data();
        for (std::uint32_t i = 0; i < m; ++i) {
            if (partial && !redo[ps.ldl.permuted(i)])
                continue;
            if (!active[i]) {
                rowFree[i] = 0;
                ax[diagonalSlot[i]] = 1.0;
                continue;
            }
            double a = 0.0, unheld = 0.0;
            for (std::uint32_t q = 0; q < 2; ++q) {
                const std::uint32_t p = core[i].p[q];
                const Vec3 g = G[2 * i + q];
                const Vec3 wg = weigh(p, g);
                WG[2 * i + q] = wg;
                a += double(dot(g, wg));
                unheld += double(w[p] * lengthSquared(g));
            }
            const bool free = a > kHeld * unheld;
            rowFree[i] = free;
            ax[diagonalSlot[i]] = free ? a + double(compliance[i]) + 1e-12 + 1e-7 * a : 1.0;
        }
        for (const Coupling& c : ps.couplings) {
            if (partial && !redo[ps.ldl.permuted(c.i)] && !redo[ps.ldl.permuted(c.j)])
                continue;
            double v = 0.0;
            if (rowFree[c.i] & rowFree[c.j]) {
                v += double(dot(G[c.gI[0]], WG[c.wgJ[0]]));
                if (c.shared > 1)
                    v += double(dot(G[c.gI[1]], WG[c.wgJ[1]]));
            }
            ax[c.slot] = v;
        }
        if (partial) {
            ps.ldl.refactor(sc.work, redo);
            std::fill(sc.refactor.begin(), sc.refactor.end(), std::uint8_t(0));
        } else {
            ps.ldl.factor(sc.work);
        }
        ++s.stats.factorizations;
        // In the factor's numbering (A = P L D Lᵀ Pᵀ, SparseLdl::forward): u_r = L⁻¹Pᵀr for the core's
        // right-hand side and, per extra row, u_d = L⁻¹Pᵀb_d and v_d = D⁻¹u_d, so that b_dᵀA⁻¹b_e = v_d·u_e and
        // b_dᵀA⁻¹r = v_d·u_r. A b_d touches only the core rows at its particles; the forward pass skips the
        // columns it leaves zero.
        double* ur = sc.z.data();
        for (std::uint32_t k = 0; k < m; ++k) {
            const std::uint32_t i = ps.ldl.original(k);
            sc.invPivot[k] = 1.0 / SparseLdl::pivot(sc.work, k);
            ur[k] = sc.coreFree[i] ? sc.coreRhs[i] : 0.0;
        }
        ps.ldl.forward(ur, sc.work);

        // Each extra row d: b_d = J_core W g_dᵀ (sparse: the core rows at d's particles), and the Schur
        // complement K = C − Bᵀ A⁻¹ B with C_de = g_d W g_eᵀ.
        const ProjectionRow* const rows = sc.rows.data();
        const Vec3* const extraG = sc.extraG.data();
        const std::uint32_t* const coreBegin = ps.coreBegin.data();
        const std::uint32_t* const coreOf = ps.coreOf.data();
        const std::uint8_t* const corePlace = ps.corePlace.data();
        const double* const invPivot = sc.invPivot.data();
        std::uint32_t* const bSlot = sc.bSlot.data();
        std::uint64_t* const rowMask = sc.rowMask.data();
        double* const K = sc.K.data();
        for (std::uint32_t d = 0; d < ne; ++d) {
            const ProjectionRow& row = rows[d];
            // Its particles as bits (modulo 64): two rows whose masks do not meet share no particle.
            std::uint64_t mask = 0;
            for (std::uint32_t q = 0; q < row.count; ++q)
                mask |= std::uint64_t(1) << (row.p[q] & 63u);
            rowMask[d] = mask;
            std::uint32_t nb = 0;
            std::uint32_t* bi = &sc.bIndex[std::size_t(d) * kMaxExtraCoupling];
            double* bv = &sc.bValue[std::size_t(d) * kMaxExtraCoupling];
            for (std::uint32_t q = 0; q < row.count; ++q) {
                const std::uint32_t p = row.p[q];
                const Vec3 wg = weigh(p, extraG[6 * d + q]);
                for (std::uint32_t k = coreBegin[p]; k < coreBegin[p + 1]; ++k) {
                    const std::uint32_t i = coreOf[k];
                    if (!rowFree[i])
                        continue;
                    const double v = double(dot(G[2 * i + corePlace[k]], wg));
                    if (bSlot[i] == kNoSlot) {
                        bSlot[i] = nb;
                        bi[nb] = i;
                        bv[nb++] = 0.0;
                    }
                    bv[bSlot[i]] += v;
                }
            }
            sc.bCount[d] = nb;
            double* u = &sc.y[std::size_t(d) * m];
            double* v = &sc.yScaled[std::size_t(d) * m];
            std::fill(u, u + m, 0.0);
            std::uint32_t first = m; // u_d is zero before its first nonzero, and the forward pass keeps it so
            for (std::uint32_t k = 0; k < nb; ++k) {
                const std::uint32_t at = ps.ldl.permuted(bi[k]);
                u[at] = bv[k];
                first = std::min(first, at);
                bSlot[bi[k]] = kNoSlot;
            }
            ps.ldl.forward(u, sc.work, first);
            // u_d's nonzeros (the reach of b_d), and v_d there: the products below run over them only.
            std::uint32_t* nz = &sc.reach[std::size_t(d) * m];
            std::uint32_t count = 0;
            double bz = 0.0;
            for (std::uint32_t k = first; k < m; ++k)
                if (u[k] != 0.0) {
                    v[k] = u[k] * invPivot[k];
                    nz[count++] = k;
                    bz += v[k] * ur[k];
                }
            sc.reachCount[d] = count;
            sc.denseRhs[d] = sc.extraRhs[d] - bz;
            for (std::uint32_t e = 0; e <= d; ++e) {
                const ProjectionRow& other = rows[e];
                double c = 0.0;
                if ((mask & rowMask[e]) != 0)
                    for (std::uint32_t q = 0; q < row.count; ++q)
                        for (std::uint32_t o = 0; o < other.count; ++o)
                            if (row.p[q] == other.p[o])
                                c += double(dot(extraG[6 * d + q], weigh(row.p[q], extraG[6 * e + o])));
                const double* ue = &sc.y[std::size_t(e) * m];
                for (std::uint32_t k = 0; k < count; ++k)
                    c -= v[nz[k]] * ue[nz[k]];
                K[std::size_t(d) * ne + e] = K[std::size_t(e) * ne + d] = c;
            }
            K[std::size_t(d) * ne + d] += double(sc.extraCompliance[d]) + 1e-12 + 1e-7 * std::fabs(K[std::size_t(d) * ne + d]);
            // Likewise a row whose particles are all held still along it takes no part.
            bool free = false;
            rowWeight(weigh, row.p, &extraG[6 * d], row.count, free);
            sc.extraOn[d] = free;
        }
        // Dense active set: solve; drop the rows that would pull; take back a dropped row that the solution
        // leaves broken (dropping one row can load another past its limit); solve again.
        for (std::uint32_t d = 0; d < ne; ++d)
            sc.extraFree[d] = sc.extraOn[d];
        std::uint32_t acting = 0;
        for (std::uint32_t round = 0;; ++round) {
            std::uint32_t k = 0;
            for (std::uint32_t d = 0; d < ne; ++d)
                if (sc.extraOn[d])
                    sc.onList[k++] = d;
            for (std::uint32_t a = 0; a < k; ++a) {
                for (std::uint32_t b = 0; b < k; ++b)
                    sc.dense[std::size_t(a) * k + b] = sc.K[std::size_t(sc.onList[a]) * ne + sc.onList[b]];
                sc.extraLambda[a] = sc.denseRhs[sc.onList[a]];
            }
            denseSolve(sc.dense.data(), sc.extraLambda.data(), k);
            acting = k;
            if (round > kMaxActiveSetRounds)
                break;
            bool dropped = false;
            for (std::uint32_t a = 0; a < k; ++a)
                if (sc.extraUnilateral[sc.onList[a]] && sc.extraLambda[a] < 0.0) {
                    sc.extraOn[sc.onList[a]] = 0;
                    dropped = true;
                }
            if (dropped)
                continue;
            double worst = kActiveSetTolerance;
            std::uint32_t add = ne;
            for (std::uint32_t d = 0; d < ne; ++d) {
                if (sc.extraFree[d] != 1 || sc.extraOn[d] || sc.rows[d].kind == RowKind::Angular)
                    continue;
                double left = sc.denseRhs[d]; // what the solution leaves of this row's error
                for (std::uint32_t a = 0; a < k; ++a)
                    left -= sc.K[std::size_t(d) * ne + sc.onList[a]] * sc.extraLambda[a];
                if (left > worst) {
                    worst = left;
                    add = d;
                }
            }
            if (add == ne)
                break;
            sc.extraOn[add] = 1;
            sc.extraFree[add] = 2; // taken back once: if dropped again, it stays out (no cycling)
        }
        // Scatter: extraLambda by row (a row cut short by the round limit cannot pull), then the core's.
        for (std::uint32_t d = ne; d-- > 0;)
            sc.denseRhs[d] = 0.0;
        for (std::uint32_t a = 0; a < acting; ++a)
            sc.denseRhs[sc.onList[a]] = sc.extraUnilateral[sc.onList[a]] ? std::max(sc.extraLambda[a], 0.0) : sc.extraLambda[a];
        for (std::uint32_t d = 0; d < ne; ++d)
            sc.extraLambda[d] = sc.extraOn[d] ? sc.denseRhs[d] : 0.0;
        // λ_core = A⁻¹(r − Σ_d b_d λ_d) = P L⁻ᵀ D⁻¹ (u_r − Σ_d u_d λ_d).
        for (std::uint32_t d = 0; d < ne; ++d)
            if (sc.extraLambda[d] != 0.0) {
                const double* u = &sc.y[std::size_t(d) * m];
                const std::uint32_t* nz = &sc.reach[std::size_t(d) * m];
                for (std::uint32_t k = 0; k < sc.reachCount[d]; ++k)
                    ur[nz[k]] -= u[nz[k]] * sc.extraLambda[d];
            }
        for (std::uint32_t k = 0; k < m; ++k)
            ur[k] *= sc.invPivot[k];
        ps.ldl.backward(ur, sc.work);
        for (std::uint32_t k = 0; k < m; ++k)
            sc.coreLambda[ps.ldl.original(k)] = ur[k];

        // Forces on the particles (positional impulses): F_p = Σ g λ.
        std::fill(sc.force.begin(), sc.force.end(), Vec3{});
        for (std::uint32_t i = 0; i < m; ++i)
            if (sc.coreActive[i])
                for (std::uint32_t q = 0; q < 2; ++q)
                    sc.force[ps.core[i].p[q]] += sc.coreG[2 * i + q] * float(sc.coreLambda[i]);
        for (std::uint32_t d = 0; d < ne; ++d)
            if (sc.extraLambda[d] != 0.0) {
                const ProjectionRow& row = sc.rows[d];
                for (std::uint32_t q = 0; q < row.count; ++q)
                    sc.force[row.p[q]] += sc.extraG[6 * d + q] * float(sc.extraLambda[d]);
            }
        if (pass == 2)
            break;
        // A particle the body would lift off its surface is not in contact: release it and solve again. One
        // held by static friction that the solve pushes along the surface harder than μ × the push into it
        // slides: only the surface holds it.
        bool released = false;
        for (std::size_t p = 0; p < n; ++p) {
            for (std::uint32_t k = 0; k < sc.lockCount[p]; ++k)
                if (dot(sc.force[p], sc.lockSurface[3 * p + k]) > 1e-9f) {
                    sc.lockCount[p] = 0;
                    sc.lockChanged[p] = 1;
                    released = true;
                    break;
                }
            if (sc.lockCount[p] == 3 && sc.lockSurface[3 * p + 1] == sc.lockSurface[3 * p]) {
                const Vec3 nrm = sc.lockSurface[3 * p];
                const float into = -dot(sc.force[p], nrm);
                if (length(sc.force[p] + nrm * into) > mu * into) {
                    sc.lockCount[p] = 1;
                    sc.lockChanged[p] = 1;
                    released = true;
                }
            }
        }
        if (!released)
            break;
    }

    const Weighted weigh(s, sc);
    for (std::size_t p = 0; p < n; ++p) {
        sc.saved[p] = s.x[p];
        if (s.w[p] > 0.f)
            s.x[p] += weigh(std::uint32_t(p), sc.force[p]);
    }
    // The solve linearises the sticks about the current pose. Far from it (a pin dragged a metre away in one
    // step, a stick torn open) the linear step can overshoot and grow the error; then it is taken back and
    // Gauss–Seidel, which cannot diverge, brings the sticks near enough for the next solve.
    float worstAfter = 0.f;
    for (std::uint32_t i = 0; i < m; ++i)
        if (sc.coreActive[i]) {
            const StickData& c = sticks[ps.core[i].index];
            worstAfter = std::max(worstAfter, std::fabs(c.minLength - length(s.x[c.b] - s.x[c.a])));
        }
    if (!(worstAfter <= std::max(1.5f * worstBefore, kDivergence))) {
        for (std::size_t p = 0; p < n; ++p)
            s.x[p] = sc.saved[p];
        for (int sweep = 0; sweep < kFallbackSweeps; ++sweep)
            solveSticks(r, (sweep & 1) != 0);
        return false;
    }
    for (std::uint32_t i = 0; i < m; ++i)
        if (sc.coreActive[i])
            sc.coreLambdaSum[i] += sc.coreLambda[i];
    for (std::uint32_t d = 0; d < ne; ++d)
        if (sc.extraRow[d] != kNoCandidate)
            sc.extraLambdaSum[sc.extraRow[d]] += sc.extraLambda[d];
    return true;
}

} // namespace marionette::runtime
