#include "viewport/MeshRaycaster.h"

#include <algorithm>

namespace marionette::viewport {

namespace {

constexpr std::uint32_t kLeafSize = 4;

} // namespace

MeshRaycaster::MeshRaycaster(const import::ImportedScene& mesh, const std::vector<Mat4>& palette)
{
    for (const import::ImportedMesh& m : mesh.meshes) {
        const auto base = std::uint32_t(mPositions.size());
        for (std::size_t v = 0; v < m.positions.size(); ++v) {
            Vec3 p;
            import::skinnedPosition(m, v, palette, p);
            mPositions.push_back(p);
        }
        for (std::size_t i = 0; i + 2 < m.indices.size(); i += 3) {
            const std::uint32_t a = m.indices[i], b = m.indices[i + 1], c = m.indices[i + 2];
            if (a >= m.positions.size() || b >= m.positions.size() || c >= m.positions.size())
                continue;
            mTriangles.insert(mTriangles.end(), {base + a, base + b, base + c});
        }
    }
    const auto count = std::uint32_t(mTriangles.size() / 3);
    if (count == 0)
        return;
    std::vector<Vec3> centroids(count);
    mOrder.resize(count);
    for (std::uint32_t t = 0; t < count; ++t) {
        mOrder[t] = t;
        centroids[t] = (mPositions[mTriangles[3 * t]] + mPositions[mTriangles[3 * t + 1]] +
                        mPositions[mTriangles[3 * t + 2]]) * (1.f / 3.f);
    }
    mNodes.reserve(2 * count / kLeafSize + 2);
    mNodes.push_back({});
    buildNode(0, 0, count, centroids);
}

void MeshRaycaster::buildNode(std::uint32_t node, std::uint32_t begin, std::uint32_t end,
                              const std::vector<Vec3>& centroids)
{
    Bounds box, centreBox;
    for (std::uint32_t i = begin; i < end; ++i) {
        const std::uint32_t t = mOrder[i];
        for (int k = 0; k < 3; ++k)
            box.add(mPositions[mTriangles[3 * t + std::uint32_t(k)]]);
        centreBox.add(centroids[t]);
    }
    mNodes[node].min = box.min;
    mNodes[node].max = box.max;
    if (end - begin <= kLeafSize) {
        mNodes[node].first = begin;
        mNodes[node].count = end - begin;
        return;
    }
    const Vec3 size = centreBox.size();
    const int axis = size.x > size.y && size.x > size.z ? 0 : (size.y > size.z ? 1 : 2);
    const std::uint32_t mid = begin + (end - begin) / 2;
    std::nth_element(mOrder.begin() + begin, mOrder.begin() + mid, mOrder.begin() + end,
                     [&](std::uint32_t a, std::uint32_t b) { return centroids[a][axis] < centroids[b][axis]; });
    const auto left = std::uint32_t(mNodes.size());
    mNodes.push_back({});
    mNodes.push_back({});
    mNodes[node].first = left;
    mNodes[node].count = 0;
    buildNode(left, begin, mid, centroids);
    buildNode(left + 1, mid, end, centroids);
}

void MeshRaycaster::intersectAll(const Ray& ray, std::vector<Hit>& hits) const
{
    hits.clear();
    if (mNodes.empty())
        return;
    std::uint32_t stack[128];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const Node& n = mNodes[stack[--top]];
        float tBox;
        if (!intersectBox(ray, n.min, n.max, tBox))
            continue;
        if (n.count == 0) {
            if (top + 2 <= 128) {
                stack[top++] = n.first;
                stack[top++] = n.first + 1;
            }
            continue;
        }
        for (std::uint32_t i = n.first; i < n.first + n.count; ++i) {
            const std::uint32_t t = mOrder[i];
            const Vec3 a = mPositions[mTriangles[3 * t]], b = mPositions[mTriangles[3 * t + 1]],
                       c = mPositions[mTriangles[3 * t + 2]];
            Hit h;
            if (intersectTriangle(ray, a, b, c, h.t, &h.frontFacing)) {
                h.normal = normalizeOr(cross(b - a, c - a), -ray.direction);
                hits.push_back(h);
            }
        }
    }
    std::sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) { return a.t < b.t; });
}

Bounds MeshRaycaster::bounds() const
{
    Bounds b;
    if (!mNodes.empty()) {
        b.add(mNodes[0].min);
        b.add(mNodes[0].max);
    }
    return b;
}

} // namespace marionette::viewport
