#include "TriangleMeshBvh.h"

#include <algorithm>
#include <cmath>

namespace marionette::runtime::geo {

namespace {

constexpr int kBins = 12;
// Below this depth splits are chosen by SAH; deeper, by object median, which halves the triangle count at
// every level. With fewer than 2^31 triangles the depth therefore stays below 32 + 29 < kStackSize - 1.
constexpr int kSahMaxDepth = 32;
constexpr std::uint32_t kMaxTriangles = 1u << 31;

struct BuildRef {
    Aabb box;
    Vec3 centroid;
    std::uint32_t id;
};

float surfaceArea(const Aabb& b)
{
    const Vec3 d = b.max - b.min;
    return 2.f * (d.x * d.y + d.y * d.z + d.z * d.x);
}

int binOf(float c, float lo, float scale) { return std::clamp(static_cast<int>((c - lo) * scale), 0, kBins - 1); }

struct Builder {
    std::vector<BuildRef>& refs;
    std::vector<TriangleMeshBvh::Node>& nodes;
    int maxDepth = 0;

    // Binned SAH over the three axes; returns the split index, or `begin` when no split is possible.
    std::uint32_t sahSplit(std::uint32_t begin, std::uint32_t end, const Aabb& cbox)
    {
        float bestCost = FLT_MAX;
        int bestAxis = -1, bestBin = 0;
        for (int axis = 0; axis < 3; ++axis) {
            const float lo = cbox.min[axis], extent = cbox.max[axis] - lo;
            if (!(extent > 0.f))
                continue;
            const float scale = static_cast<float>(kBins) / extent;
            std::uint32_t count[kBins] = {};
            Aabb box[kBins];
            std::fill(box, box + kBins, emptyAabb());
            for (std::uint32_t i = begin; i < end; ++i) {
                const int b = binOf(refs[i].centroid[axis], lo, scale);
                ++count[b];
                box[b] = merge(box[b], refs[i].box);
            }
            float leftArea[kBins - 1];
            std::uint32_t leftCount[kBins - 1];
            Aabb acc = emptyAabb();
            std::uint32_t n = 0;
            for (int b = 0; b < kBins - 1; ++b) {
                acc = merge(acc, box[b]);
                n += count[b];
                leftCount[b] = n;
                leftArea[b] = n ? surfaceArea(acc) : 0.f;
            }
            acc = emptyAabb();
            n = 0;
            for (int b = kBins - 1; b > 0; --b) {
                acc = merge(acc, box[b]);
                n += count[b];
                if (n == 0 || leftCount[b - 1] == 0)
                    continue;
                const float cost = leftArea[b - 1] * static_cast<float>(leftCount[b - 1]) +
                                   surfaceArea(acc) * static_cast<float>(n);
                if (cost < bestCost) {
                    bestCost = cost;
                    bestAxis = axis;
                    bestBin = b - 1;
                }
            }
        }
        if (bestAxis < 0)
            return begin;
        const float lo = cbox.min[bestAxis];
        const float scale = static_cast<float>(kBins) / (cbox.max[bestAxis] - lo);
        const auto it = std::partition(refs.begin() + begin, refs.begin() + end, [&](const BuildRef& r) {
            return binOf(r.centroid[bestAxis], lo, scale) <= bestBin;
        });
        return static_cast<std::uint32_t>(it - refs.begin());
    }

    // Object median along the widest centroid axis: both halves non-empty, sizes floor/ceil of n/2.
    std::uint32_t medianSplit(std::uint32_t begin, std::uint32_t end, const Aabb& cbox)
    {
        const Vec3 e = cbox.max - cbox.min;
        const int axis = e.x >= e.y && e.x >= e.z ? 0 : (e.y >= e.z ? 1 : 2);
        const std::uint32_t mid = begin + (end - begin) / 2;
        std::nth_element(refs.begin() + begin, refs.begin() + mid, refs.begin() + end,
                         [axis](const BuildRef& a, const BuildRef& b) {
                             const float ca = a.centroid[axis], cb = b.centroid[axis];
                             return ca < cb || (ca == cb && a.id < b.id);
                         });
        return mid;
    }

    void build(std::uint32_t node, std::uint32_t begin, std::uint32_t end, int depth)
    {
        maxDepth = std::max(maxDepth, depth);
        Aabb box = emptyAabb(), cbox = emptyAabb();
        for (std::uint32_t i = begin; i < end; ++i) {
            box = merge(box, refs[i].box);
            cbox = merge(cbox, refs[i].centroid);
        }
        nodes[node].box = box;
        if (end - begin <= TriangleMeshBvh::kMaxLeafTriangles) {
            nodes[node].first = begin;
            nodes[node].count = end - begin;
            return;
        }
        std::uint32_t mid = depth < kSahMaxDepth ? sahSplit(begin, end, cbox) : begin;
        if (mid <= begin || mid >= end)
            mid = medianSplit(begin, end, cbox);
        const auto left = static_cast<std::uint32_t>(nodes.size());
        nodes.emplace_back();
        nodes.emplace_back();
        nodes[node].first = left;
        nodes[node].count = 0;
        build(left, begin, mid, depth + 1);
        build(left + 1, mid, end, depth + 1);
    }
};

// Segment–box slab test over [0, tMax]. Slightly conservative (relative 1e-6), so rounding never culls a
// box whose triangles the exact triangle test would hit.
struct SegmentSlab {
    Vec3 origin, inv;
    bool parallel[3];

    SegmentSlab(Vec3 p0, Vec3 d) : origin(p0)
    {
        for (int i = 0; i < 3; ++i)
            parallel[i] = std::fabs(d[i]) < 1e-30f;
        inv = {parallel[0] ? 0.f : 1.f / d.x, parallel[1] ? 0.f : 1.f / d.y, parallel[2] ? 0.f : 1.f / d.z};
    }
    bool hit(const Aabb& box, float tMax, float& tEnter) const
    {
        float t0 = 0.f, t1 = tMax;
        for (int i = 0; i < 3; ++i) {
            if (parallel[i]) {
                if (origin[i] < box.min[i] || origin[i] > box.max[i])
                    return false;
                continue;
            }
            float ta = (box.min[i] - origin[i]) * inv[i], tb = (box.max[i] - origin[i]) * inv[i];
            if (ta > tb)
                std::swap(ta, tb);
            t0 = std::max(t0, ta);
            t1 = std::min(t1, tb);
        }
        tEnter = t0;
        return t0 <= t1 * (1.f + 1e-6f) + 1e-7f;
    }
};

} // namespace

void TriangleMeshBvh::clear()
{
    m_vertices.clear();
    m_indices.clear();
    m_nodes.clear();
    m_leafIds.clear();
    m_leafVertices.clear();
    m_depth = 0;
}

bool TriangleMeshBvh::build(std::span<const Vec3> vertices, std::span<const std::uint32_t> indices,
                            std::string* error)
{
    clear();
    const auto fail = [&](std::string message) {
        clear();
        if (error)
            *error = "TriangleMeshBvh: " + std::move(message);
        return false;
    };
    if (indices.size() % 3 != 0)
        return fail("index count " + std::to_string(indices.size()) + " is not a multiple of 3");
    if (indices.size() / 3 >= kMaxTriangles)
        return fail("too many triangles (" + std::to_string(indices.size() / 3) + ")");
    for (std::size_t i = 0; i < vertices.size(); ++i)
        if (!isFinite(vertices[i]))
            return fail("vertex " + std::to_string(i) + " is not finite");
    for (std::size_t k = 0; k < indices.size(); ++k)
        if (indices[k] >= vertices.size())
            return fail("index " + std::to_string(k) + " (triangle " + std::to_string(k / 3) + ") refers to vertex " +
                        std::to_string(indices[k]) + " but there are only " + std::to_string(vertices.size()) +
                        " vertices");

    m_vertices.assign(vertices.begin(), vertices.end());
    m_indices.assign(indices.begin(), indices.end());
    std::vector<BuildRef> refs;
    refs.reserve(indices.size() / 3);
    for (std::uint32_t t = 0; t < triangleCount(); ++t) {
        Vec3 a, b, c;
        triangle(t, a, b, c);
        if (!isDegenerateTriangle(a, b, c))
            refs.push_back({fromTriangle(a, b, c), (a + b + c) * (1.f / 3.f), t});
    }
    if (refs.empty())
        return true;

    m_nodes.reserve(2 * refs.size());
    m_nodes.emplace_back();
    Builder builder{refs, m_nodes};
    builder.build(0, 0, static_cast<std::uint32_t>(refs.size()), 0);
    m_depth = builder.maxDepth;

    m_leafIds.reserve(refs.size());
    m_leafVertices.reserve(3 * refs.size());
    for (const BuildRef& r : refs) {
        Vec3 a, b, c;
        triangle(r.id, a, b, c);
        m_leafIds.push_back(r.id);
        m_leafVertices.insert(m_leafVertices.end(), {a, b, c});
    }
    return true;
}

std::size_t TriangleMeshBvh::overlap(const Aabb& box, std::span<std::uint32_t> out, bool* truncated) const
{
    if (truncated)
        *truncated = false;
    if (m_nodes.empty())
        return 0;
    std::uint32_t stack[kStackSize];
    int sp = 0;
    stack[sp++] = 0;
    std::size_t written = 0;
    while (sp > 0) {
        const Node& node = m_nodes[stack[--sp]];
        if (!overlaps(node.box, box))
            continue;
        if (node.count == 0) { // depth() < kStackSize - 1 bounds sp (each pop pushes at most two)
            stack[sp++] = node.first + 1;
            stack[sp++] = node.first;
            continue;
        }
        for (std::uint32_t k = node.first; k < node.first + node.count; ++k) {
            const Vec3* v = &m_leafVertices[3 * std::size_t(k)];
            if (!triangleOverlapsAabb(v[0], v[1], v[2], box))
                continue;
            if (written == out.size()) {
                if (truncated)
                    *truncated = true;
                return written;
            }
            out[written++] = m_leafIds[k];
        }
    }
    return written;
}

bool TriangleMeshBvh::raycastSegment(Vec3 p0, Vec3 p1, float& tOut, std::uint32_t& triOut) const
{
    if (m_nodes.empty())
        return false;
    const SegmentSlab slab(p0, p1 - p0);
    struct Entry {
        std::uint32_t node;
        float t;
    };
    Entry stack[kStackSize];
    int sp = 0;
    float best = 1.f, tRoot = 0.f;
    std::uint32_t bestId = 0;
    bool hit = false;
    if (!slab.hit(m_nodes[0].box, best, tRoot))
        return false;
    stack[sp++] = {0, tRoot};
    while (sp > 0) {
        const Entry e = stack[--sp];
        if (e.t > best * (1.f + 1e-6f) + 1e-7f)
            continue;
        const Node& node = m_nodes[e.node];
        if (node.count > 0) {
            for (std::uint32_t k = node.first; k < node.first + node.count; ++k) {
                const Vec3* v = &m_leafVertices[3 * std::size_t(k)];
                float t = 0.f;
                if (!segmentIntersectsTriangle(p0, p1, v[0], v[1], v[2], t))
                    continue;
                if (!hit || t < best || (t == best && m_leafIds[k] < bestId)) {
                    best = t;
                    bestId = m_leafIds[k];
                    hit = true;
                }
            }
            continue;
        }
        // Visit the nearer child first: push it last.
        float tl = 0.f, tr = 0.f;
        const bool hl = slab.hit(m_nodes[node.first].box, best, tl);
        const bool hr = slab.hit(m_nodes[node.first + 1].box, best, tr);
        if (hl && hr && tl <= tr) {
            stack[sp++] = {node.first + 1, tr};
            stack[sp++] = {node.first, tl};
        } else {
            if (hl)
                stack[sp++] = {node.first, tl};
            if (hr)
                stack[sp++] = {node.first + 1, tr};
        }
    }
    if (hit) {
        tOut = best;
        triOut = bestId;
    }
    return hit;
}

bool TriangleMeshBvh::triangle(std::uint32_t i, Vec3& a, Vec3& b, Vec3& c) const
{
    if (i >= triangleCount())
        return false;
    const std::size_t k = 3 * std::size_t(i);
    a = m_vertices[m_indices[k]];
    b = m_vertices[m_indices[k + 1]];
    c = m_vertices[m_indices[k + 2]];
    return true;
}

} // namespace marionette::runtime::geo
