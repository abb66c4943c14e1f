// Tests of marionette::runtime::geo::TriangleMeshBvh: refused input, empty and degenerate meshes, the shape of
// the tree, and overlap queries and segment casts against brute force over random queries (fixed seeds).
#include "geometry/Geometry.h"
#include "geometry/TriangleMeshBvh.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "GeometryTestSupport.h"

using namespace marionette;
using namespace marionette::runtime::geo;
using namespace marionette::test;

namespace {

// 100×100 quads on a gently curved sheet over [0, 10]², plus 20 randomly rotated closed boxes.
void makeTestMesh(std::vector<Vec3>& vertices, std::vector<std::uint32_t>& indices)
{
    const int n = 100;
    for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i) {
            const float x = 0.1f * static_cast<float>(i), z = 0.1f * static_cast<float>(j);
            vertices.push_back({x, 0.3f * std::sin(x) * std::cos(z), z});
        }
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const auto v00 = static_cast<std::uint32_t>(j * (n + 1) + i);
            const std::uint32_t v10 = v00 + 1, v01 = v00 + n + 1, v11 = v01 + 1;
            indices.insert(indices.end(), {v00, v01, v10, v10, v01, v11});
        }
    std::mt19937 rng(7);
    const int quads[6][4] = {{0, 1, 3, 2}, {4, 6, 7, 5}, {0, 4, 5, 1}, {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 5, 7, 3}};
    for (int k = 0; k < 20; ++k) {
        Obb b;
        b.center = randomVec(rng, 0.f, 10.f);
        b.center.y = randomFloat(rng, -0.5f, 1.5f);
        b.axes = toMat3(Quat::fromAxisAngle(normalizeOr(randomVec(rng, -1.f, 1.f), {0.f, 1.f, 0.f}),
                                            randomFloat(rng, 0.f, 3.f)));
        b.half = randomVec(rng, 0.05f, 0.8f);
        const auto base = static_cast<std::uint32_t>(vertices.size());
        for (int c = 0; c < 8; ++c)
            vertices.push_back(world(b, {(c & 1) ? b.half.x : -b.half.x, (c & 2) ? b.half.y : -b.half.y,
                                         (c & 4) ? b.half.z : -b.half.z}));
        for (const auto& q : quads)
            indices.insert(indices.end(), {base + std::uint32_t(q[0]), base + std::uint32_t(q[1]), base + std::uint32_t(q[2]),
                                           base + std::uint32_t(q[0]), base + std::uint32_t(q[2]), base + std::uint32_t(q[3])});
    }
}

} // namespace

class TestBvh : public QObject {
    Q_OBJECT

private slots:
    void bvh_rejectsBadInput();
    void bvh_emptyAndDegenerate();
    void bvh_structure();
    void bvh_overlapMatchesBruteForce();
    void bvh_overlapTruncates();
    void bvh_raycastMatchesBruteForce();
};

void TestBvh::bvh_rejectsBadInput()
{
    TriangleMeshBvh bvh;
    std::string error;
    const std::vector<Vec3> vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
    const std::vector<std::uint32_t> seven = {0, 1, 2, 1, 3, 2, 0};
    QVERIFY(!bvh.build(vertices, seven, &error));
    QVERIFY2(error.find("index count 7 is not a multiple of 3") != std::string::npos, error.c_str());

    const std::vector<std::uint32_t> outOfRange = {0, 1, 2, 1, 9, 2};
    QVERIFY(!bvh.build(vertices, outOfRange, &error));
    QVERIFY2(error.find("index 4 (triangle 1) refers to vertex 9 but there are only 4 vertices") != std::string::npos,
             error.c_str());

    std::vector<Vec3> bad = vertices;
    bad[2].y = std::nanf("");
    QVERIFY(!bvh.build(bad, std::vector<std::uint32_t>{0, 1, 2}, &error));
    QVERIFY2(error.find("vertex 2 is not finite") != std::string::npos, error.c_str());
    bad[2].y = INFINITY;
    QVERIFY(!bvh.build(bad, std::vector<std::uint32_t>{0, 1, 3}, nullptr)); // unreferenced, still rejected

    // A failed build leaves the mesh empty, even after a good one.
    QVERIFY(bvh.build(vertices, std::vector<std::uint32_t>{0, 1, 2}, &error));
    QCOMPARE(bvh.triangleCount(), 1u);
    QVERIFY(!bvh.build(vertices, outOfRange, nullptr));
    QCOMPARE(bvh.triangleCount(), 0u);
    QCOMPARE(bvh.nodeCount(), std::size_t(0));
    float t = 0;
    std::uint32_t tri = 0;
    QVERIFY(!bvh.raycastSegment({0.2f, 0.2f, 1}, {0.2f, 0.2f, -1}, t, tri));
}

void TestBvh::bvh_emptyAndDegenerate()
{
    TriangleMeshBvh bvh;
    std::string error;
    QVERIFY(bvh.build({}, {}, &error));
    QCOMPARE(bvh.triangleCount(), 0u);
    std::uint32_t out[8];
    bool truncated = true;
    QCOMPARE(bvh.overlap({{-1e9f, -1e9f, -1e9f}, {1e9f, 1e9f, 1e9f}}, out, &truncated), std::size_t(0));
    QVERIFY(!truncated);
    QVERIFY(bvh.bounds().min.x > bvh.bounds().max.x);

    // Triangle 1 is collinear and triangle 2 repeats a vertex: skipped, but still addressable.
    const std::vector<Vec3> v = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {2, 0, 0}};
    const std::vector<std::uint32_t> idx = {0, 1, 2, 0, 1, 3, 2, 2, 1};
    QVERIFY(bvh.build(v, idx, &error));
    QCOMPARE(bvh.triangleCount(), 3u);
    QCOMPARE(bvh.skippedTriangleCount(), 2u);
    const std::size_t n = bvh.overlap({{-5, -5, -5}, {5, 5, 5}}, out, &truncated);
    QCOMPARE(n, std::size_t(1));
    QCOMPARE(out[0], 0u);
    Vec3 a, b, c;
    QVERIFY(bvh.triangle(1, a, b, c));
    QCOMPARE(c, Vec3(2, 0, 0));
    QVERIFY(!bvh.triangle(3, a, b, c));
    EXPECT_VEC(bvh.bounds().max, Vec3(1, 1, 0), 0.f);
    float t = 0;
    std::uint32_t tri = 7;
    QVERIFY(bvh.raycastSegment({0.25f, 0.25f, 1}, {0.25f, 0.25f, -1}, t, tri));
    QCOMPARE(tri, 0u);
    EXPECT_NEAR(t, 0.5f, kTol);
    QVERIFY(!bvh.raycastSegment({1.5f, 0, 1}, {1.5f, 0, -1}, t, tri));

    // All triangles degenerate: builds, never hits.
    QVERIFY(bvh.build(v, std::vector<std::uint32_t>{0, 1, 3}, &error));
    QCOMPARE(bvh.nodeCount(), std::size_t(0));
    QCOMPARE(bvh.overlap({{-5, -5, -5}, {5, 5, 5}}, out), std::size_t(0));
}

void TestBvh::bvh_structure()
{
    std::vector<Vec3> vertices;
    std::vector<std::uint32_t> indices;
    makeTestMesh(vertices, indices);
    TriangleMeshBvh bvh;
    std::string error;
    QVERIFY2(bvh.build(vertices, indices, &error), error.c_str());
    QCOMPARE(bvh.triangleCount(), std::uint32_t(indices.size() / 3));
    QCOMPARE(bvh.skippedTriangleCount(), 0u);
    QVERIFY(bvh.depth() < TriangleMeshBvh::kStackSize - 1);
    QVERIFY(bvh.depth() <= 40);
    std::vector<int> seen(bvh.triangleCount(), 0);
    std::size_t leafEntries = 0;
    const auto nodes = bvh.nodes();
    for (const TriangleMeshBvh::Node& node : nodes) {
        if (node.count > 0) {
            QVERIFY(node.count <= TriangleMeshBvh::kMaxLeafTriangles);
            leafEntries += node.count;
            continue;
        }
        QVERIFY(node.first + 1 < nodes.size());
        for (std::uint32_t k = node.first; k <= node.first + 1; ++k) {
            const Aabb& child = nodes[k].box;
            QVERIFY(contains(node.box, child.min) && contains(node.box, child.max));
        }
    }
    QCOMPARE(leafEntries, std::size_t(bvh.triangleCount()));
    // Every triangle is reported exactly once by an all-covering overlap query.
    std::vector<std::uint32_t> out(bvh.triangleCount() + 10);
    bool truncated = true;
    const std::size_t n = bvh.overlap(expand(bvh.bounds(), 1.f), out, &truncated);
    QVERIFY(!truncated);
    QCOMPARE(n, std::size_t(bvh.triangleCount()));
    for (std::size_t i = 0; i < n; ++i)
        ++seen[out[i]];
    QVERIFY(std::all_of(seen.begin(), seen.end(), [](int s) { return s == 1; }));
}

void TestBvh::bvh_overlapMatchesBruteForce()
{
    std::vector<Vec3> vertices;
    std::vector<std::uint32_t> indices;
    makeTestMesh(vertices, indices);
    TriangleMeshBvh bvh;
    QVERIFY(bvh.build(vertices, indices, nullptr));
    std::mt19937 rng(1);
    std::vector<std::uint32_t> out(bvh.triangleCount());
    std::vector<std::uint32_t> expected;
    std::size_t total = 0;
    for (int it = 0; it < 1000; ++it) {
        const Vec3 c = randomVec(rng, -0.5f, 10.5f);
        const Vec3 centre{c.x, randomFloat(rng, -1.f, 2.f), c.z};
        const float size = it % 10 == 0 ? randomFloat(rng, 0.5f, 3.f) : randomFloat(rng, 0.f, 0.3f);
        const Aabb box{centre - randomVec(rng, 0.f, size), centre + randomVec(rng, 0.f, size)};
        expected.clear();
        for (std::uint32_t i = 0; i < bvh.triangleCount(); ++i) {
            Vec3 a, b, cc;
            bvh.triangle(i, a, b, cc);
            if (triangleOverlapsAabb(a, b, cc, box))
                expected.push_back(i);
        }
        bool truncated = true;
        const std::size_t n = bvh.overlap(box, out, &truncated);
        QVERIFY(!truncated);
        std::vector<std::uint32_t> got(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n));
        std::sort(got.begin(), got.end());
        QVERIFY2(got == expected, qPrintable(QStringLiteral("query %1: %2 triangles, expected %3")
                                                 .arg(it).arg(got.size()).arg(expected.size())));
        total += n;
    }
    QVERIFY(total > 1000); // the queries do hit the mesh
}

void TestBvh::bvh_overlapTruncates()
{
    std::vector<Vec3> vertices;
    std::vector<std::uint32_t> indices;
    makeTestMesh(vertices, indices);
    TriangleMeshBvh bvh;
    QVERIFY(bvh.build(vertices, indices, nullptr));
    const Aabb box{{2, -1, 2}, {3, 1, 3}}; // about 10×10 quads of the sheet
    std::vector<std::uint32_t> all(bvh.triangleCount());
    bool truncated = true;
    const std::size_t n = bvh.overlap(box, all, &truncated);
    QVERIFY(n > 200);
    QVERIFY(!truncated);
    std::uint32_t few[16];
    QCOMPARE(bvh.overlap(box, few, &truncated), std::size_t(16));
    QVERIFY(truncated);
    for (std::uint32_t id : few)
        QVERIFY(std::find(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n), id) != all.begin() + static_cast<std::ptrdiff_t>(n));
    QCOMPARE(bvh.overlap(box, std::span<std::uint32_t>(all.data(), n), &truncated), n); // exactly full
    QVERIFY(!truncated);
    QCOMPARE(bvh.overlap(box, std::span<std::uint32_t>(), &truncated), std::size_t(0));
    QVERIFY(truncated);
}

void TestBvh::bvh_raycastMatchesBruteForce()
{
    std::vector<Vec3> vertices;
    std::vector<std::uint32_t> indices;
    makeTestMesh(vertices, indices);
    TriangleMeshBvh bvh;
    QVERIFY(bvh.build(vertices, indices, nullptr));
    std::mt19937 rng(1);
    int hits = 0;
    for (int it = 0; it < 2000; ++it) {
        Vec3 p0 = randomVec(rng, -1.f, 11.f), p1 = randomVec(rng, -1.f, 11.f);
        p0.y = randomFloat(rng, -2.f, 3.f);
        p1.y = it % 4 == 0 ? p0.y : randomFloat(rng, -2.f, 3.f); // some horizontal, axis-parallel-ish casts
        if (it % 7 == 0)
            p1 = {p0.x, p1.y, p0.z}; // vertical
        if (it % 11 == 0)
            p1 = p0 + (p1 - p0) * 0.05f; // short
        bool expectHit = false;
        float bestT = 0;
        std::uint32_t bestId = 0;
        for (std::uint32_t i = 0; i < bvh.triangleCount(); ++i) {
            Vec3 a, b, c;
            bvh.triangle(i, a, b, c);
            float t = 0;
            if (segmentIntersectsTriangle(p0, p1, a, b, c, t) && (!expectHit || t < bestT)) {
                expectHit = true;
                bestT = t;
                bestId = i;
            }
        }
        float t = -1;
        std::uint32_t id = 0;
        const bool hit = bvh.raycastSegment(p0, p1, t, id);
        QVERIFY2(hit == expectHit, qPrintable(QStringLiteral("cast %1: hit %2, expected %3").arg(it).arg(hit).arg(expectHit)));
        if (!hit)
            continue;
        ++hits;
        QCOMPARE(t, bestT);
        QCOMPARE(id, bestId);
    }
    QVERIFY(hits > 500);
}

QTEST_APPLESS_MAIN(TestBvh)
#include "tst_bvh.moc"
