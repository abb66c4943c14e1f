// Shared by the viewport tests: hand-built rigs and meshes, and vector comparisons for failure messages.
// No widget (ViewportWindowTestSupport.h adds what the suites in a real window share).
#pragma once

#include "marionette/import/ImportedScene.h"
#include "marionette/rig/RigDescription.h"

#include <QString>

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>

namespace marionette::test {

inline rig::Particle particle(rig::ElementId id, Vec3 p, float radius = 0.05f)
{
    rig::Particle q;
    q.id = id;
    q.name = std::to_string(id);
    q.position = p;
    q.radius = radius;
    return q;
}

inline rig::Stick stick(rig::ElementId id, int a, int b, rig::StickKind kind = rig::StickKind::Rigid)
{
    rig::Stick s;
    s.id = id;
    s.a = a;
    s.b = b;
    s.kind = kind;
    return s;
}

/// Adds a box [min, max] to `mesh` as 12 counter-clockwise (outward-facing) triangles.
inline void addBox(import::ImportedMesh& mesh, Vec3 lo, Vec3 hi)
{
    const auto base = std::uint32_t(mesh.positions.size());
    for (int i = 0; i < 8; ++i)
        mesh.positions.push_back({(i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z});
    // faces as quads (a, b, c, d) counter-clockwise seen from outside
    const int quads[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    for (const auto& q : quads) {
        for (int k : {0, 1, 2, 0, 2, 3})
            mesh.indices.push_back(base + std::uint32_t(q[k]));
    }
    for (std::size_t i = mesh.normals.size(); i < mesh.positions.size(); ++i) {
        const Vec3 c = (lo + hi) * 0.5f;
        mesh.normals.push_back(normalizeOr(mesh.positions[i] - c, {0, 1, 0}));
    }
}

/// A scene with one box mesh.
inline import::ImportedScene boxScene(Vec3 lo, Vec3 hi)
{
    import::ImportedScene s;
    import::ImportedMesh m;
    m.name = "box";
    addBox(m, lo, hi);
    s.meshes.push_back(std::move(m));
    return s;
}

/// A "limb": a closed cylinder along X from x0 to x1, radius r, `sides` around, outward winding.
inline import::ImportedScene cylinderScene(float x0, float x1, float r, int sides)
{
    import::ImportedScene s;
    import::ImportedMesh m;
    m.name = "limb";
    for (int i = 0; i < sides; ++i) {
        const float a = 2.f * kPi * float(i) / float(sides);
        const float y = r * std::cos(a), z = r * std::sin(a);
        m.positions.push_back({x0, y, z});
        m.positions.push_back({x1, y, z});
        m.normals.push_back({0, std::cos(a), std::sin(a)});
        m.normals.push_back({0, std::cos(a), std::sin(a)});
    }
    const auto capA = std::uint32_t(m.positions.size());
    m.positions.push_back({x0, 0, 0});
    m.normals.push_back({-1, 0, 0});
    const auto capB = std::uint32_t(m.positions.size());
    m.positions.push_back({x1, 0, 0});
    m.normals.push_back({1, 0, 0});
    for (int i = 0; i < sides; ++i) {
        const auto a0 = std::uint32_t(2 * i), a1 = std::uint32_t(2 * ((i + 1) % sides));
        const std::uint32_t b0 = a0 + 1, b1 = a1 + 1;
        // side quad: angle increases from y toward z; outward = radial
        m.indices.insert(m.indices.end(), {a0, a1, b1, a0, b1, b0});
        m.indices.insert(m.indices.end(), {capA, a1, a0});
        m.indices.insert(m.indices.end(), {capB, b0, b1});
    }
    s.meshes.push_back(std::move(m));
    return s;
}

/// Two triangles sharing particle (0, 0, 0) and one angular constraint (id 7, `limit`) from A to B.
/// A = (0, 0, 0), (0, −1, 0), (1, −0.5, 0); B = (0, 0, 0), (0, 1, 0), (1, 0, 0), whose frame is right −X,
/// up +Y, facing −Z, so with the default axes the limit frame is s1 = −X, t = +Y, s2 = −Z at (0, 0, 0).
inline rig::RigDescription twoTriangleRig(rig::AngularLimit limit)
{
    rig::RigDescription r;
    r.particles = {particle(1, {0, 0, 0}), particle(2, {0, 1, 0}), particle(3, {1, 0, 0}), particle(4, {0, -1, 0}),
                   particle(5, {1, -0.5f, 0})};
    rig::Triangle a, b;
    a.id = 1;
    a.p[0] = 0, a.p[1] = 3, a.p[2] = 4;
    b.id = 2;
    b.p[0] = 0, b.p[1] = 1, b.p[2] = 2;
    r.triangles = {a, b};
    rig::AngularConstraint c;
    c.id = 7;
    c.triangleA = 0;
    c.triangleB = 1;
    c.limit = limit;
    r.angular = {c};
    return r;
}

/// Within `tolerance` metres of each other.
inline bool near(Vec3 a, Vec3 b, float tolerance = 1e-4f)
{
    return length(a - b) <= tolerance;
}

/// "(x, y, z)" for failure messages.
inline QString str(Vec3 v)
{
    return QStringLiteral("(%1, %2, %3)").arg(double(v.x)).arg(double(v.y)).arg(double(v.z));
}

} // namespace marionette::test
