#include "SparseLdl.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace marionette::runtime {

namespace {

/// Greedy minimum-degree ordering of a symmetric pattern (adjacency lists, no self loops): repeatedly
/// eliminates the unknown with the fewest neighbours, joining its neighbours into a clique. Quadratic in
/// the worst case, which is fine for the few hundred unknowns of a rig; ties go to the lower index, so the
/// order is deterministic.
std::vector<std::uint32_t> minimumDegree(std::vector<std::vector<std::uint32_t>> adj)
{
    const std::uint32_t n = std::uint32_t(adj.size());
    std::vector<char> done(n, 0);
    std::vector<std::uint32_t> order;
    order.reserve(n);
    for (auto& a : adj)
        std::sort(a.begin(), a.end());
    std::vector<std::uint32_t> merged;
    for (std::uint32_t step = 0; step < n; ++step) {
        std::uint32_t best = n;
        std::size_t bestDegree = std::numeric_limits<std::size_t>::max();
        for (std::uint32_t v = 0; v < n; ++v)
            if (!done[v] && adj[v].size() < bestDegree) {
                best = v;
                bestDegree = adj[v].size();
            }
        done[best] = 1;
        order.push_back(best);
        const std::vector<std::uint32_t> nb = adj[best];
        for (std::uint32_t u : nb) {
            // u's neighbours become u's ∪ best's, without u, best or eliminated unknowns.
            merged.clear();
            std::set_union(adj[u].begin(), adj[u].end(), nb.begin(), nb.end(), std::back_inserter(merged));
            std::vector<std::uint32_t>& au = adj[u];
            au.clear();
            for (std::uint32_t w : merged)
                if (w != u && w != best && !done[w])
                    au.push_back(w);
        }
        adj[best].clear();
    }
    return order;
}

} // namespace

bool SparseLdl::analyse(std::uint32_t n, std::span<const Entry> offDiagonal)
{
    mN = n;
    mDepth = 0;
    if (n == 0)
        return false;
    std::vector<std::vector<std::uint32_t>> adj(n);
    for (const Entry& e : offDiagonal) {
        if (e.i == e.j)
            continue;
        adj[e.i].push_back(e.j);
        adj[e.j].push_back(e.i);
    }
    for (auto& a : adj) {
        std::sort(a.begin(), a.end());
        a.erase(std::unique(a.begin(), a.end()), a.end());
    }
    mPerm = minimumDegree(adj);
    mInverse.assign(n, 0);
    for (std::uint32_t k = 0; k < n; ++k)
        mInverse[mPerm[k]] = k;

    // Permuted upper triangle by column: column k holds rows i < k, then the diagonal.
    std::vector<std::vector<std::uint32_t>> columns(n);
    for (std::uint32_t a = 0; a < n; ++a)
        for (std::uint32_t b : adj[a]) {
            const std::uint32_t pa = mInverse[a], pb = mInverse[b];
            if (pa < pb)
                columns[pb].push_back(pa);
        }
    mAp.assign(n + 1, 0);
    mAi.clear();
    mDiagToA.assign(n, 0);
    for (std::uint32_t k = 0; k < n; ++k) {
        std::sort(columns[k].begin(), columns[k].end());
        mAp[k] = std::uint32_t(mAi.size());
        mAi.insert(mAi.end(), columns[k].begin(), columns[k].end());
        mDiagToA[k] = std::uint32_t(mAi.size());
        mAi.push_back(k);
    }
    mAp[n] = std::uint32_t(mAi.size());
    mEntryToA.assign(offDiagonal.size(), 0);
    for (std::size_t e = 0; e < offDiagonal.size(); ++e) {
        std::uint32_t pa = mInverse[offDiagonal[e].i], pb = mInverse[offDiagonal[e].j];
        if (pa > pb)
            std::swap(pa, pb);
        const auto first = mAi.begin() + mAp[pb], last = mAi.begin() + mAp[pb + 1];
        mEntryToA[e] = std::uint32_t(std::lower_bound(first, last, pa) - mAi.begin());
    }

    // Elimination tree and column counts (LDL's symbolic pass).
    mParent.assign(n, -1);
    std::vector<std::uint32_t> lnz(n, 0), flag(n, 0);
    for (std::uint32_t k = 0; k < n; ++k) {
        flag[k] = k;
        for (std::uint32_t p = mAp[k]; p < mAp[k + 1]; ++p) {
            std::uint32_t i = mAi[p];
            if (i >= k)
                continue;
            while (flag[i] != k) {
                if (mParent[i] < 0)
                    mParent[i] = std::int32_t(k);
                ++lnz[i];
                flag[i] = k;
                i = std::uint32_t(mParent[i]);
            }
        }
    }
    mLp.assign(n + 1, 0);
    for (std::uint32_t k = 0; k < n; ++k)
        mLp[k + 1] = mLp[k] + lnz[k];
    // The tree's height (a parent always comes after its children).
    std::vector<std::uint32_t> height(n, 1);
    mDepth = 0;
    for (std::uint32_t k = 0; k < n; ++k) {
        mDepth = std::max(mDepth, height[k]);
        if (mParent[k] >= 0)
            height[std::size_t(mParent[k])] = std::max(height[std::size_t(mParent[k])], height[k] + 1);
    }

    // The factorisation's schedule, fixed by the pattern: for each row k of L, the columns i it takes from
    // (the elimination-tree reach of A's column k, in the topological order the up-looking solve needs) and
    // where L(k, i) goes. factor() then runs without walking the tree.
    mLi.assign(mLp[n], 0);
    mRowBegin.assign(n + 1, 0);
    mRowColumn.clear();
    mRowFirst.clear();
    mRowSlot.clear();
    std::fill(lnz.begin(), lnz.end(), 0u);
    std::fill(flag.begin(), flag.end(), 0u);
    std::vector<std::uint32_t> pattern(n, 0);
    for (std::uint32_t k = 0; k < n; ++k) {
        std::uint32_t top = n;
        flag[k] = k;
        for (std::uint32_t p = mAp[k]; p < mAp[k + 1]; ++p) {
            std::uint32_t i = mAi[p];
            if (i == k)
                continue;
            std::uint32_t len = 0;
            for (; flag[i] != k; i = std::uint32_t(mParent[i])) {
                pattern[len++] = i;
                flag[i] = k;
            }
            while (len > 0)
                pattern[--top] = pattern[--len];
        }
        for (; top < n; ++top) {
            const std::uint32_t i = pattern[top];
            const std::uint32_t slot = mLp[i] + lnz[i]++;
            mLi[slot] = k;
            mRowColumn.push_back(i);
            mRowFirst.push_back(mLp[i]);
            mRowSlot.push_back(slot);
        }
        mRowBegin[k + 1] = std::uint32_t(mRowColumn.size());
    }
    return true;
}

void SparseLdl::Work::reserve(const SparseLdl& s)
{
    const std::size_t n = s.mN;
    ax.assign(s.mAi.size(), 0.0);
    lx.assign(s.factorNonzeros(), 0.0);
    d.assign(n, 0.0);
    y.assign(n, 0.0);
    x.assign(n, 0.0);
}

void SparseLdl::load(std::span<const double> diag, std::span<const double> offDiag, Work& w) const
{
    for (std::uint32_t k = 0; k < mN; ++k)
        w.ax[mDiagToA[k]] = diag[mPerm[k]];
    for (std::size_t e = 0; e < mEntryToA.size(); ++e)
        w.ax[mEntryToA[e]] = offDiag[e];
}

namespace {

/// Up-looking LDLᵀ (SparseLdl::factor), rows marked in `redo` only, or all when it is null.
struct UpLooking {
    const std::uint32_t *ap, *ai, *li, *rowBegin, *column, *first, *slots;
    std::uint32_t n;

    void run(SparseLdl::Work& w, const std::uint8_t* redo) const
    {
        constexpr double kLost = 1e-10;   // a pivot below this part of its diagonal marks a redundant unknown
        constexpr double kDecoupled = 1e30;
        double* __restrict y = w.y.data();
        double* __restrict lx = w.lx.data();
        double* __restrict d = w.d.data();
        const double* __restrict ax = w.ax.data();
        // y is zero outside the row being built: row k starts from A's column k (each of whose row indices is
        // in the row's pattern), and every entry it uses is zeroed again.
        for (std::uint32_t k = 0; k < n; ++k) {
            if (redo && !redo[k])
                continue;
            const std::uint32_t last = ap[k + 1] - 1; // the diagonal, last in its column
            for (std::uint32_t p = ap[k]; p < last; ++p)
                y[ai[p]] = ax[p];
            const double diagonal = ax[last];
            double dk = diagonal;
            for (std::uint32_t t = rowBegin[k], end = rowBegin[k + 1]; t < end; ++t) {
                const std::uint32_t i = column[t], slot = slots[t];
                const double yi = y[i];
                y[i] = 0.0;
                for (std::uint32_t p = first[t]; p < slot; ++p)
                    y[li[p]] -= lx[p] * yi;
                const double lki = yi / d[i];
                dk -= lki * yi;
                lx[slot] = lki;
            }
            // A pivot that has (nearly) vanished belongs to a constraint the others already imply: decouple it.
            d[k] = (dk > kLost * std::fabs(diagonal) && dk > 0.0) ? dk : kDecoupled;
        }
    }
};

} // namespace

void SparseLdl::factor(Work& w) const
{
    // Row k of L from a sparse triangular solve, along the schedule analyse() recorded.
    const UpLooking u{mAp.data(), mAi.data(), mLi.data(), mRowBegin.data(), mRowColumn.data(), mRowFirst.data(),
                      mRowSlot.data(), mN};
    u.run(w, nullptr);
}

void SparseLdl::refactor(Work& w, std::uint8_t* redo) const
{
    for (std::uint32_t k = 0; k < mN; ++k) // a parent comes after its children
        if (redo[k] && mParent[k] >= 0)
            redo[mParent[k]] = 1;
    const UpLooking u{mAp.data(), mAi.data(), mLi.data(), mRowBegin.data(), mRowColumn.data(), mRowFirst.data(),
                      mRowSlot.data(), mN};
    u.run(w, redo);
}

void SparseLdl::solve(std::span<double> b, Work& w) const
{
    const std::uint32_t n = mN;
    double* x = w.x.data();
    const double* lx = w.lx.data();
    for (std::uint32_t k = 0; k < n; ++k)
        x[k] = b[mPerm[k]];
    for (std::uint32_t j = 0; j < n; ++j) {
        const double xj = x[j];
        for (std::uint32_t p = mLp[j]; p < mLp[j + 1]; ++p)
            x[mLi[p]] -= lx[p] * xj;
    }
    for (std::uint32_t j = 0; j < n; ++j)
        x[j] /= w.d[j];
    for (std::uint32_t j = n; j-- > 0;) {
        double xj = x[j];
        for (std::uint32_t p = mLp[j]; p < mLp[j + 1]; ++p)
            xj -= lx[p] * x[mLi[p]];
        x[j] = xj;
    }
    for (std::uint32_t k = 0; k < n; ++k)
        b[mPerm[k]] = x[k];
}

void SparseLdl::forward(double* __restrict u, const Work& w, std::uint32_t from) const
{
    const double* __restrict lx = w.lx.data();
    const std::uint32_t* __restrict lp = mLp.data();
    const std::uint32_t* __restrict li = mLi.data();
    for (std::uint32_t j = from; j < mN; ++j) {
        const double uj = u[j];
        if (uj == 0.0)
            continue;
        for (std::uint32_t p = lp[j], end = lp[j + 1]; p < end; ++p)
            u[li[p]] -= lx[p] * uj;
    }
}

void SparseLdl::backward(double* __restrict u, const Work& w) const
{
    const double* __restrict lx = w.lx.data();
    const std::uint32_t* __restrict lp = mLp.data();
    const std::uint32_t* __restrict li = mLi.data();
    for (std::uint32_t j = mN; j-- > 0;) {
        double uj = u[j];
        for (std::uint32_t p = lp[j], end = lp[j + 1]; p < end; ++p)
            uj -= lx[p] * u[li[p]];
        u[j] = uj;
    }
}

} // namespace marionette::runtime
