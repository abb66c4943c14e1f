// Marionette viewport — ray casts against the imported mesh: the mesh's triangles in bind pose or skinned
// by a palette (on the CPU, the same linear blend skinning as the GPU), with a bounding volume hierarchy
// so a 50 000-triangle character answers in well under a millisecond. Plain C++.
#pragma once

#include "viewport/ViewMath.h"

#include "marionette/import/ImportedScene.h"

#include <cstdint>
#include <vector>

namespace marionette::viewport {

class MeshRaycaster {
public:
    struct Hit {
        float t = 0.f;            ///< ray parameter
        bool frontFacing = false; ///< the ray meets the counter-clockwise (outer) side
        Vec3 normal;              ///< unit geometric normal of the triangle (outward)
    };

    MeshRaycaster() = default;
    /// Builds from `mesh`, skinned by `palette` (bonePalette convention of ViewportScene; empty = bind).
    MeshRaycaster(const import::ImportedScene& mesh, const std::vector<Mat4>& palette);

    bool isEmpty() const { return mTriangles.empty(); }
    std::size_t triangleCount() const { return mTriangles.size() / 3; }
    /// Every triangle hit by the ray (t >= 0), sorted by increasing t. Appends to nothing: `hits` is cleared.
    void intersectAll(const Ray& ray, std::vector<Hit>& hits) const;
    /// Bounds of the (skinned) vertices.
    Bounds bounds() const;

private:
    struct Node {
        Vec3 min, max;
        std::uint32_t first = 0; ///< leaf: first triangle in mOrder; inner: index of the left child
        std::uint32_t count = 0; ///< leaf: triangle count; 0 for an inner node (right child = first + 1)
    };
    void buildNode(std::uint32_t node, std::uint32_t begin, std::uint32_t end, const std::vector<Vec3>& centroids);

    std::vector<Vec3> mPositions;
    std::vector<std::uint32_t> mTriangles; ///< three indices into mPositions per triangle
    std::vector<std::uint32_t> mOrder;     ///< triangle numbers, grouped by leaf
    std::vector<Node> mNodes;
};

} // namespace marionette::viewport
