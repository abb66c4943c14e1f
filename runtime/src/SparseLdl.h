// Internal: a small sparse LDLᵀ factorisation for symmetric positive (semi-)definite systems whose nonzero
// pattern is known in advance (the rig's constraint coupling).
//
// analyse() runs once, when a rig is compiled: it orders the unknowns by minimum degree (to keep the fill
// small), builds the elimination tree, the column counts of L and the factorisation's schedule (which
// columns each row of L gathers from, in order, and where each entry goes). factor() and solve() run every
// substep on the same pattern with new values; they never allocate (the caller owns the work arrays, sized
// by Work::reserve()). The algorithm is the up-looking LDLᵀ of T. Davis's LDL package, on a pattern permuted
// once.
//
// Robust to singular systems: a pivot that has lost all but a 1e-10 part of its diagonal marks its unknown
// dependent on the others (redundant constraints); factor() zeroes that unknown's row and column so solve()
// gives it 0.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace marionette::runtime {

class SparseLdl {
public:
    /// An off-diagonal nonzero (i, j), i != j, of the symmetric n×n matrix, in the caller's numbering.
    struct Entry {
        std::uint32_t i, j;
    };

    /// Orders and analyses the pattern of an n×n symmetric matrix with the given off-diagonal nonzeros (each
    /// pair once, either order; the diagonal is always present). Returns false when n is 0.
    bool analyse(std::uint32_t n, std::span<const Entry> offDiagonal);

    std::uint32_t size() const { return mN; }
    /// Nonzeros of the strictly lower triangle of L.
    std::size_t factorNonzeros() const { return mN ? mLp[mN] : 0; }
    /// Height of the elimination tree: the longest chain of unknowns whose pivots each need the last.
    std::uint32_t depth() const { return mDepth; }

    /// Where the caller stores matrix values before factor(): diagonal() has n values (caller numbering);
    /// value(k) is off-diagonal entry k as passed to analyse().
    std::uint32_t valueCount() const { return std::uint32_t(mEntryToA.size()); }

    /// Scratch a factor/solve needs (doubles), for the caller to allocate once.
    struct Work {
        std::vector<double> ax;         ///< matrix values in the permuted upper-triangle layout
        std::vector<double> lx, d, y, x; ///< L's values, D, dense work column, permuted solution
        void reserve(const SparseLdl& s);
    };

    /// Where load() puts diagonal i (caller numbering) and analyse()'s off-diagonal entry k in Work::ax, for
    /// callers that assemble the matrix there directly.
    std::uint32_t diagonalSlot(std::uint32_t i) const { return mDiagToA[mInverse[i]]; }
    std::uint32_t entrySlot(std::uint32_t k) const { return mEntryToA[k]; }

    /// Loads values: diag[i] for the diagonal (caller numbering), offDiag[k] for analyse()'s entry k.
    void load(std::span<const double> diag, std::span<const double> offDiag, Work& w) const;
    /// Factorises the loaded values. Never fails; dependent unknowns are solved as 0.
    void factor(Work& w) const;
    /// Factorises again after only some columns of the matrix changed since the last factor() on `w`:
    /// `redo` (n flags, factor numbering) marks them on entry. A row of L changes only with its own column
    /// or a changed row below it in the elimination tree, so the marks are first carried up to every
    /// ancestor; the rows marked then are recomputed, the others kept. The result is the full factor's, to
    /// the bit.
    void refactor(Work& w, std::uint8_t* redo) const;
    /// Solves A x = b in place (caller numbering): b holds the right-hand side, then the solution.
    void solve(std::span<double> b, Work& w) const;

    /// The halves of solve(), for callers that combine several right-hand sides (a Schur complement) in the
    /// factor's own numbering: unknown i of the caller is unknown permuted(i) there. With A = P L D Lᵀ Pᵀ,
    /// forward() turns u (n values, factor numbering) into L⁻¹u in place, skipping the columns it leaves
    /// zero, so a right-hand side with few nonzeros costs only their reach; backward() turns u into L⁻ᵀu.
    /// So bᵀA⁻¹c = (L⁻¹Pᵀb)ᵀ D⁻¹ (L⁻¹Pᵀc), and A⁻¹b = P L⁻ᵀ D⁻¹ L⁻¹ Pᵀ b.
    std::uint32_t permuted(std::uint32_t i) const { return mInverse[i]; }
    std::uint32_t original(std::uint32_t k) const { return mPerm[k]; }
    /// `from`: the first column u may be nonzero in (the ones before it are skipped unread).
    void forward(double* u, const Work& w, std::uint32_t from = 0) const;
    void backward(double* u, const Work& w) const;
    /// D's k-th entry (factor numbering) after factor(): a decoupled unknown's is huge (its 1/D is ~0).
    static double pivot(const Work& w, std::uint32_t k) { return w.d[k]; }

    /// What analyse() fixed, for kernels that run the same factorisation on another data layout (bench_lanes
    /// runs it for several bodies at once, one per SIMD lane): the ordering (perm: factor → caller numbering),
    /// the permuted upper triangle (ap, ai; the diagonal last in each column), L's pattern (lp, li) and the
    /// schedule of factor() (row k takes from columns rowColumn[rowBegin[k] .. rowBegin[k + 1]), see below).
    struct Schedule {
        std::span<const std::uint32_t> perm, ap, ai, lp, li, rowBegin, rowColumn, rowFirst, rowSlot;
    };
    Schedule schedule() const { return {mPerm, mAp, mAi, mLp, mLi, mRowBegin, mRowColumn, mRowFirst, mRowSlot}; }

private:
    std::uint32_t mN = 0;
    std::uint32_t mDepth = 0;
    std::vector<std::uint32_t> mPerm, mInverse;  ///< permuted index → caller index, and back
    std::vector<std::uint32_t> mAp, mAi;         ///< permuted upper triangle, column-compressed (rows < col)
    std::vector<std::uint32_t> mEntryToA;        ///< analyse() entry k → position in mAi
    std::vector<std::int32_t> mParent;           ///< elimination tree
    std::vector<std::uint32_t> mLp;              ///< column pointers of L
    std::vector<std::uint32_t> mLi;              ///< row of each nonzero of L
    /// The factorisation's schedule: row k of L takes from columns mRowColumn[mRowBegin[k] .. mRowBegin[k + 1])
    /// in that order; L(k, column) goes to slot mRowSlot[..] of mLi/lx, and the solve for it subtracts the
    /// column's entries from mRowFirst[..] (the column's first) up to that slot.
    std::vector<std::uint32_t> mRowBegin, mRowColumn, mRowFirst, mRowSlot;
    std::vector<std::uint32_t> mDiagToA;         ///< permuted unknown k → position of (k, k) in mAi
};

} // namespace marionette::runtime
