// Internal: the direct projection (SolverMode::Direct). Each Newton step moves the particles, by the
// smallest mass-weighted correction, onto every rigid stick, the broken or nearly broken length ranges and
// angular limits, and the contacts, all solved together. Local relaxation (Gauss–Seidel) passes a
// correction one constraint at a time, so an impact crosses the body over many iterations and thin limb
// triangles converge slowly; solved together, the whole body answers at once.
//
// The system is split in two. The rigid sticks (the body's structure, always active) form a sparse system
// whose pattern is fixed when the rig is compiled (ProjectionStructure); it is factorised once per step by
// a sparse LDLᵀ. The rows that come and go (length ranges, angular limits, contacts along capsules, capsule
// pairs of the body touching each other) are joined through their Schur complement, a small dense system,
// so deciding which of them act (a row that would pull is dropped) costs a dense re-solve, not a new
// factorisation. Contacts of single particles are not rows at all: they restrict the particle's inverse
// mass to the surface's tangent plane (and to nothing while static friction holds it); a row that such
// locks leave no way to move along takes no part.
#pragma once

#include "SparseLdl.h"

#include <cstdint>
#include <vector>

namespace marionette::runtime {

class Rig;

/// What a projection row constrains.
enum class RowKind : std::uint8_t { Stick = 0, Angular = 1, CapsuleContact = 2, SelfContact = 3 };

struct ProjectionRow {
    RowKind kind;
    std::uint8_t count;      ///< particles it touches (2 for sticks and capsules, 4 for capsule pairs, up to 6
                             ///< for angular)
    std::uint32_t index;     ///< compiled stick, angular constraint, capsule or near capsule pair of the step
    std::uint32_t p[6];
};

/// Two core rows i < j that share one particle or both: A_ij = Σ over the shared particles of g_i W g_jᵀ,
/// with row i's gradient there at ProjectionScratch::coreG[gI[s]] and row j's times W at coreWG[wgJ[s]].
struct Coupling {
    std::uint32_t i, j;
    std::uint32_t gI[2], wgJ[2];
    std::uint32_t shared; ///< 1 or 2
    std::uint32_t slot;   ///< where the factor takes A_ij (SparseLdl::Work::ax)
};

/// The symbolic part of the projection, built once per rig.
struct ProjectionStructure {
    /// The core: every rigid stick (two particles each), factorised as one sparse system.
    std::vector<ProjectionRow> core;
    /// Couplings between core rows (SparseLdl entry order), and where the factor takes each core row's
    /// diagonal (SparseLdl::Work::ax): the matrix is assembled in place.
    std::vector<Coupling> couplings;
    std::vector<std::uint32_t> diagonalSlot;
    /// Per particle: the core rows that touch it (coreOf[coreBegin[p] .. coreBegin[p + 1]]) and where.
    std::vector<std::uint32_t> coreBegin;
    std::vector<std::uint32_t> coreOf;
    std::vector<std::uint8_t> corePlace;
    SparseLdl ldl;
    /// The rows that act only sometimes: length ranges, angular limits, contacts along capsules.
    std::vector<ProjectionRow> extra;

    /// Builds the structure of `rig`; false when the rig has nothing to project or is too large for a
    /// direct solve (the solver then relaxes it by Gauss–Seidel).
    bool build(const Rig& rig);
};

/// Largest structure the direct projection takes: core rows, nonzeros of the factor, and rows acting at
/// once beside the core (more than this and the rest wait for the next Newton step).
constexpr std::uint32_t kMaxProjectionCore = 2048;
constexpr std::size_t kMaxProjectionFill = 60000;
constexpr std::uint32_t kMaxProjectionExtra = 96;
/// An extra row that is no candidate of ProjectionStructure::extra (a capsule pair found this step).
constexpr std::uint32_t kNoCandidate = ~0u;
/// Core rows one extra row can couple with (its ≤ 6 particles' rigid sticks).
constexpr std::uint32_t kMaxExtraCoupling = 64;

} // namespace marionette::runtime
