// Internal: turning two triangles against each other, the step every angular correction ends in (Rosen's
// limits, angular friction, drives).
#pragma once

#include "RagdollState.h"

namespace marionette::runtime {

/// How a triangle turns during an angular correction: about `pivot` (its centroid, or its immovable
/// particle), with moment of inertia `inertia` about the correction axis (infinite: it cannot turn).
struct Turn {
    Vec3 pivot;
    float inertia;
    bool pinned; ///< has an immovable particle: momentum is not conserved, no re-centring
};

/// What two triangles propose for their (up to six) particles, a particle both share proposing twice:
/// add() sums the proposals per particle, mean(k) is the k-th particle's average.
struct SharedMoves {
    std::uint32_t ids[6];
    Vec3 sum[6];
    float count[6];
    std::uint32_t n = 0;

    void add(std::uint32_t id, Vec3 v)
    {
        for (std::uint32_t k = 0; k < n; ++k)
            if (ids[k] == id) {
                sum[k] += v;
                count[k] += 1.f;
                return;
            }
        ids[n] = id;
        sum[n] = v;
        count[n] = 1.f;
        ++n;
    }
    Vec3 mean(std::uint32_t k) const { return sum[k] / count[k]; }
};

/// Free triangle: centroid and Σ m r⊥². One immovable particle: turns about it. Two or more: cannot turn
/// (except about the line through two: then `u` becomes that line, when it is not too far from it).
Turn turnOf(const RagdollState& s, const TriangleData& t, Vec3& u);

/// Rotates triangle A by −φ·shareA and B by +φ·shareB about world axis u (each about its pivot: centroid,
/// or its immovable particle), split by inertia, averages particles both triangles move, then — when no
/// immovable particle takes part — shifts the movable particles so the mass-weighted centre stays put
/// (linear momentum is conserved). Keeps the cached frame quaternions of ia and ib turned with them.
void applyCorrection(RagdollState& s, const TriangleData& A, std::uint32_t ia, const TriangleData& B,
                     std::uint32_t ib, Vec3 u, float phi);

/// Hinge correction: turns B's third particle by +φ·shareB and A's by −φ·shareA about the hinge line
/// (through the shared particles, along unit `e`), split by their moments of inertia about that line. The
/// shared particles stay on the line; when they can move too, all four shift by one vector so their
/// mass-weighted centre does not move. Both third particles must be movable.
void applyHinge(RagdollState& s, const AngularData& c, Vec3 e, float phi);

} // namespace marionette::runtime
