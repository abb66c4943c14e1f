// Rig::compileSticks: every distance constraint of a rig (description sticks, law-of-cosines angle
// constraints, the triangle edges the description lacks) as a [min, max] clamp, ordered root-to-leaf and
// into the 4-wide blocks the solver takes at once, or, for a Gauss–Seidel cloth, into the sets of eight of
// the 8-wide lanes (StickLanes).
#include "marionette/runtime/Rig.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <queue>

namespace marionette::runtime {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

/// Breadth-first depth of every particle over the stick graph. The roots are the kinematic particles
/// (inverse mass 0: pins, the top row of a curtain), from which corrections should flow; a component
/// without one starts from its most connected particle.
std::vector<std::uint32_t> particleDepths(std::size_t n, const std::vector<StickData>& sticks,
                                          const std::vector<float>& inverseMasses)
{
    constexpr std::uint32_t kUnset = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::vector<std::uint32_t>> adj(n);
    for (const StickData& s : sticks) {
        adj[s.a].push_back(s.b);
        adj[s.b].push_back(s.a);
    }
    std::vector<std::uint32_t> depth(n, kUnset);
    std::queue<std::uint32_t> q;
    auto flood = [&] {
        while (!q.empty()) {
            const std::uint32_t i = q.front();
            q.pop();
            for (std::uint32_t j : adj[i])
                if (depth[j] == kUnset) {
                    depth[j] = depth[i] + 1;
                    q.push(j);
                }
        }
    };
    for (std::size_t i = 0; i < n; ++i)
        if (inverseMasses[i] <= 0.f && !adj[i].empty()) {
            depth[i] = 0;
            q.push(std::uint32_t(i));
        }
    flood();
    for (;;) {
        std::size_t root = n;
        std::size_t best = 0;
        for (std::size_t i = 0; i < n; ++i)
            if (depth[i] == kUnset && (root == n || adj[i].size() > best)) {
                root = i;
                best = adj[i].size();
            }
        if (root == n)
            break;
        depth[root] = 0;
        q.push(std::uint32_t(root));
        flood();
    }
    return depth;
}

/// Within one depth level, order the sticks so that each aligned block of four shares no particle, nor
/// with the block before it: the level-by-level root-to-leaf sweep is kept (it carries a correction down a
/// chain in one iteration), while the solver handles an independent block in one 4-wide pass, two
/// independent blocks together, and the CPU overlaps one block's square roots and divisions with the next
/// one's instead of waiting for their results. `sticks` is sorted by level already.
std::vector<StickData> blockOrder(const std::vector<StickData>& sticks, const std::vector<std::uint32_t>& depth)
{
    auto level = [&](const StickData& c) { return std::min(depth[c.a], depth[c.b]); };
    std::vector<StickData> ordered;
    ordered.reserve(sticks.size());
    std::vector<char> used;
    for (std::size_t begin = 0, end = 0; begin < sticks.size(); begin = end) {
        while (end < sticks.size() && level(sticks[end]) == level(sticks[begin]))
            ++end;
        used.assign(end - begin, 0);
        std::size_t firstUnused = begin;
        for (std::size_t placed = begin; placed < end; ++placed) {
            while (used[firstUnused - begin])
                ++firstUnused;
            // The current block, and the previous one when the current one is the second of a pair.
            const std::size_t blockStart = ordered.size() & ~std::size_t(3);
            const std::size_t windowStart = (blockStart & 4u) != 0 ? blockStart - 4 : blockStart;
            std::size_t pick = firstUnused;
            constexpr std::size_t kLookahead = 32;
            for (std::size_t k = firstUnused, seen = 0; k < end && seen < kLookahead; ++k) {
                if (used[k - begin])
                    continue;
                ++seen;
                bool clash = false;
                for (std::size_t j = windowStart; j < ordered.size(); ++j) {
                    const StickData& o = ordered[j];
                    clash = clash || o.a == sticks[k].a || o.a == sticks[k].b || o.b == sticks[k].a ||
                            o.b == sticks[k].b;
                }
                if (!clash) {
                    pick = k;
                    break;
                }
            }
            used[pick - begin] = 1;
            ordered.push_back(sticks[pick]);
        }
    }
    return ordered;
}

/// Gauss–Seidel rigs: within each depth level (the root-to-leaf sweep is kept), the sticks grouped into sets
/// of mutually independent ones, each set cut into runs of eight for the 8-wide kernel. A level's sticks are
/// first sorted by the offset between their ends' indices, largest first, then by their first end, so that a
/// cloth's vertical sticks (offset: one row) make one set with both ends consecutive, and its horizontal ones
/// two (even and odd columns) whose ends are pairs of neighbours. A set's last few sticks (fewer than eight)
/// stay in the order, solved one by one.
/// `starts` receives the position in the result of every run of eight.
std::vector<StickData> laneOrder(const std::vector<StickData>& sticks, const std::vector<std::uint32_t>& depth,
                                 std::size_t particleCount, std::vector<std::uint32_t>& starts)
{
    auto level = [&](const StickData& c) { return std::min(depth[c.a], depth[c.b]); };
    std::vector<StickData> ordered;
    ordered.reserve(sticks.size());
    starts.clear();
    std::vector<std::uint64_t> colours(particleCount, 0); // per particle: the sets of this level using it
    std::vector<StickData> segment;
    std::vector<std::vector<StickData>> sets;
    std::vector<StickData> leftover; // sticks at a particle that is already in 64 sets
    for (std::size_t begin = 0, end = 0; begin < sticks.size(); begin = end) {
        while (end < sticks.size() && level(sticks[end]) == level(sticks[begin]))
            ++end;
        segment.assign(sticks.begin() + std::ptrdiff_t(begin), sticks.begin() + std::ptrdiff_t(end));
        std::stable_sort(segment.begin(), segment.end(), [](const StickData& x, const StickData& y) {
            const std::int64_t ox = std::int64_t(x.b) - std::int64_t(x.a), oy = std::int64_t(y.b) - std::int64_t(y.a);
            return ox != oy ? ox > oy : x.a < y.a;
        });
        sets.clear();
        leftover.clear();
        for (const StickData& c : segment) {
            const std::uint64_t taken = colours[c.a] | colours[c.b];
            if (taken == ~std::uint64_t(0)) {
                leftover.push_back(c);
                continue;
            }
            const unsigned set = unsigned(std::countr_one(taken));
            if (set >= sets.size())
                sets.resize(set + 1);
            sets[set].push_back(c);
            colours[c.a] |= std::uint64_t(1) << set;
            colours[c.b] |= std::uint64_t(1) << set;
        }
        for (const StickData& c : segment) // clear this level's marks for the next
            colours[c.a] = colours[c.b] = 0;
        for (const std::vector<StickData>& set : sets) {
            std::size_t k = 0;
            for (; k + 8 <= set.size(); k += 8) {
                starts.push_back(std::uint32_t(ordered.size()));
                ordered.insert(ordered.end(), set.begin() + std::ptrdiff_t(k), set.begin() + std::ptrdiff_t(k + 8));
            }
            ordered.insert(ordered.end(), set.begin() + std::ptrdiff_t(k), set.end());
        }
        ordered.insert(ordered.end(), leftover.begin(), leftover.end());
    }
    return ordered;
}

/// The runs of eight laneOrder() formed, lane by lane.
std::vector<StickLanes> lanesOf(const std::vector<StickData>& sticks, const std::vector<std::uint32_t>& starts)
{
    std::vector<StickLanes> lanes(starts.size());
    for (std::size_t k = 0; k < starts.size(); ++k) {
        StickLanes& l = lanes[k];
        l.first = starts[k];
        bool consecutive = true, paired = true;
        for (std::uint32_t i = 0; i < 8; ++i) {
            const StickData& c = sticks[starts[k] + i];
            l.a[i] = c.a;
            l.b[i] = c.b;
            l.minLength[i] = c.minLength;
            l.maxLength[i] = c.maxLength;
            l.stiffness[i] = c.stiffness;
            consecutive = consecutive && c.a == l.a[0] + i && c.b == l.b[0] + i;
            paired = paired && c.a == l.a[0] + 2 * i && c.b == c.a + 1;
        }
        l.layout = consecutive ? StickLanes::Layout::Consecutive
                               : paired ? StickLanes::Layout::Paired : StickLanes::Layout::Scattered;
    }
    return lanes;
}

/// The compiled sticks four by four, lane by lane, with which blocks are independent and which pairs of
/// independent blocks share no particle either (StickBlock).
std::vector<StickBlock> blocksOf(const std::vector<StickData>& sticks)
{
    std::vector<StickBlock> blocks;
    for (std::size_t k = 0; k + 4 <= sticks.size(); k += 4) {
        StickBlock blk{};
        std::uint32_t touched[8];
        for (std::size_t l = 0; l < 4; ++l) {
            const StickData& c = sticks[k + l];
            blk.a[l] = c.a;
            blk.b[l] = c.b;
            blk.minLength[l] = c.minLength;
            blk.maxLength[l] = c.maxLength;
            blk.stiffness[l] = c.stiffness;
            touched[2 * l] = c.a;
            touched[2 * l + 1] = c.b;
        }
        blk.independent = true;
        for (std::size_t i = 0; i < 8; ++i)
            for (std::size_t j = i + 1; j < 8; ++j)
                blk.independent = blk.independent && touched[i] != touched[j];
        blocks.push_back(blk);
    }
    for (std::size_t k = 0; k + 1 < blocks.size(); ++k) {
        StickBlock& p = blocks[k];
        const StickBlock& q = blocks[k + 1];
        bool apart = p.independent && q.independent;
        for (std::size_t i = 0; i < 4 && apart; ++i)
            for (std::size_t j = 0; j < 4; ++j)
                apart = apart && p.a[i] != q.a[j] && p.a[i] != q.b[j] && p.b[i] != q.a[j] && p.b[i] != q.b[j];
        p.pairedWithNext = apart;
    }
    return blocks;
}

} // namespace

void Rig::compileSticks()
{
    const rig::RigDescription& d = mDescription;
    const std::size_t n = mBindPositions.size();
    const auto& X = mBindPositions;

    // Sticks: every kind becomes a [min, max] clamp.
    std::vector<StickData> sticks;
    sticks.reserve(d.sticks.size() + 3 * d.triangles.size() + d.angles.size());
    for (std::size_t i = 0; i < d.sticks.size(); ++i) {
        const rig::Stick& s = d.sticks[i];
        const float bind = length(X[s.b] - X[s.a]);
        const float rest = s.restLength >= 0.f ? s.restLength : bind;
        StickData o{std::uint32_t(s.a), std::uint32_t(s.b), rest, rest, s.stiffness, s.compliance, kInf, std::uint32_t(i)};
        float tearBase = rest;
        switch (s.kind) {
        case rig::StickKind::Rigid: break;
        case rig::StickKind::Range: o.minLength = s.minLength; o.maxLength = s.maxLength; tearBase = s.maxLength; break;
        case rig::StickKind::MinOnly: o.minLength = s.minLength; o.maxLength = kInf; tearBase = std::max(bind, s.minLength); break;
        case rig::StickKind::MaxOnly: o.minLength = 0.f; o.maxLength = s.maxLength; tearBase = s.maxLength; break;
        }
        if (s.tearRatio > 0.f) {
            o.tearLength = s.tearRatio * std::max(tearBase, 1e-6f);
            mTearable = true;
        }
        sticks.push_back(o);
    }
    // Law-of-cosines angle constraints become a distance range between the two outer particles.
    for (const rig::AngleConstraint& a : d.angles) {
        if (a.form != rig::AngleConstraint::Form::LawOfCosines)
            continue;
        const float A = length(X[a.a] - X[a.center]);
        const float B = length(X[a.b] - X[a.center]);
        auto dist = [&](float th) { return std::sqrt(std::max(0.f, A * A + B * B - 2.f * A * B * std::cos(th))); };
        sticks.push_back({std::uint32_t(a.a), std::uint32_t(a.b), dist(a.minAngle), dist(a.maxAngle), a.stiffness, 0.f,
                          kInf, kFromAngle | std::uint32_t(&a - d.angles.data())});
    }
    // Triangle edges are enforced by rigid sticks; add those the description lacks.
    auto hasLink = [&](std::uint32_t a, std::uint32_t b) {
        return std::any_of(sticks.begin(), sticks.end(), [&](const StickData& s) {
            return s.minLength == s.maxLength && ((s.a == a && s.b == b) || (s.a == b && s.b == a));
        });
    };
    for (const rig::Triangle& t : d.triangles)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t a = std::uint32_t(t.p[k]), b = std::uint32_t(t.p[(k + 1) % 3]);
            if (!hasLink(a, b)) {
                const float L = length(X[b] - X[a]);
                sticks.push_back({a, b, L, L, 1.f, 0.f, kInf, kFromTriangle | std::uint32_t(&t - d.triangles.data())});
            }
        }
    // Order root-to-leaf (the solver alternates direction every iteration), then into blocks of four.
    const std::vector<std::uint32_t> depth = particleDepths(n, sticks, mInverseMasses);
    std::stable_sort(sticks.begin(), sticks.end(), [&](const StickData& a, const StickData& b) {
        return std::min(depth[a.a], depth[a.b]) < std::min(depth[b.a], depth[b.b]);
    });
    // Rigs the direct projection may solve keep the 4-wide blocks (their sticks are its rows, in this order);
    // Gauss–Seidel rigs take the sets of eight when most of their sticks fall into them (a cloth, not a
    // ragdoll of a few sticks per level), unless sticks may tear: those are relaxed one by one whatever the
    // order, and where a cloth tears depends on it (the cloth sample keeps its rips).
    std::vector<std::uint32_t> laneStarts;
    if (d.settings.solver == rig::SolverMode::GaussSeidel && !mTearable) {
        std::vector<StickData> lanes = laneOrder(sticks, depth, n, laneStarts);
        if (laneStarts.size() * 8 * 2 >= sticks.size())
            sticks = std::move(lanes);
        else
            laneStarts.clear();
    }
    if (laneStarts.empty())
        sticks = blockOrder(sticks, depth);
    mStickRemap.assign(d.sticks.size(), 0);
    mStickOrigin.resize(sticks.size());
    for (std::size_t i = 0; i < sticks.size(); ++i) {
        mStickOrigin[i] = sticks[i].source;
        if (sticks[i].source >= kFromAngle)
            sticks[i].source = ~0u; // generated: no description stick
        else
            mStickRemap[sticks[i].source] = std::uint32_t(i);
    }
    mSticks = std::move(sticks);
    mStickBlocks = blocksOf(mSticks);
    mStickLanes = lanesOf(mSticks, laneStarts);
}

} // namespace marionette::runtime
