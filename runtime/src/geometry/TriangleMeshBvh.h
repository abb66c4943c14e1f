// Marionette runtime — static triangle mesh with a bounding-volume hierarchy, for collision queries.
//
// build() copies the mesh and builds a binned-SAH BVH (flat array of 32-byte nodes, at most
// kMaxLeafTriangles triangles per leaf, depth bounded by construction). Queries never allocate and use a
// fixed-size traversal stack, so they are safe to call concurrently on a built (const) tree.
//
// Triangles are identified by their index in the input (indices[3i], indices[3i+1], indices[3i+2]);
// zero-area triangles keep their index but are left out of the tree, so queries never report them.
#pragma once

#include "Geometry.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace marionette::runtime::geo {

class TriangleMeshBvh {
public:
    /// Largest number of triangles in a leaf.
    static constexpr std::uint32_t kMaxLeafTriangles = 4;
    /// Traversal stack size; build() guarantees depth() < kStackSize.
    static constexpr int kStackSize = 64;

    /// A node: bounds, then for an inner node (count == 0) the index of its first child (the second child
    /// follows it), for a leaf (count > 0) the first of its `count` entries in the leaf triangle arrays.
    struct Node {
        Aabb box;
        std::uint32_t first = 0;
        std::uint32_t count = 0;
    };
    static_assert(sizeof(Node) == 32, "BVH nodes are 32 bytes");

    /// Copies `vertices` and `indices` (three per triangle) and builds the tree. Fails, leaving the mesh
    /// empty and describing the problem in *error (when given), when the index count is not a multiple of
    /// 3, a vertex is not finite, an index is out of range, or there are 2^31 triangles or more. Zero-area
    /// triangles are skipped (see skippedTriangleCount()). An empty mesh builds fine and never hits.
    bool build(std::span<const Vec3> vertices, std::span<const std::uint32_t> indices, std::string* error);

    /// Releases everything; the mesh is then empty.
    void clear();

    /// Writes into `out` the ids of the triangles that touch the closed box `box` (exact triangle–box test),
    /// in no particular order, and returns how many were written. Stops when `out` is full; *truncated (when
    /// given) tells whether some overlapping triangles were left out.
    std::size_t overlap(const Aabb& box, std::span<std::uint32_t> out, bool* truncated = nullptr) const;

    /// Nearest crossing of segment p0–p1 with the mesh (two-sided; see segmentIntersectsTriangle()): tOut
    /// in [0, 1] along the segment and the triangle id. Ties go to the lowest id. False when nothing is hit.
    bool raycastSegment(Vec3 p0, Vec3 p1, float& tOut, std::uint32_t& triOut) const;

    /// Vertices of triangle i (any i < triangleCount(), skipped ones included); false when out of range.
    bool triangle(std::uint32_t i, Vec3& a, Vec3& b, Vec3& c) const;

    /// Number of triangles given to build() (indices / 3), skipped ones included.
    std::uint32_t triangleCount() const { return static_cast<std::uint32_t>(m_indices.size() / 3); }
    /// Number of zero-area triangles left out of the tree.
    std::uint32_t skippedTriangleCount() const { return triangleCount() - static_cast<std::uint32_t>(m_leafIds.size()); }
    /// Bounds of the triangles in the tree; emptyAabb() when there are none.
    Aabb bounds() const { return m_nodes.empty() ? emptyAabb() : m_nodes.front().box; }

    /// Tree statistics, for tests and tools.
    std::size_t nodeCount() const { return m_nodes.size(); }
    int depth() const { return m_depth; }
    std::span<const Node> nodes() const { return m_nodes; }

private:
    std::vector<Vec3> m_vertices;
    std::vector<std::uint32_t> m_indices;
    std::vector<Node> m_nodes;
    std::vector<std::uint32_t> m_leafIds; // triangle id of each leaf entry
    std::vector<Vec3> m_leafVertices;     // three vertices per leaf entry, in leaf order
    int m_depth = 0;
};

} // namespace marionette::runtime::geo
