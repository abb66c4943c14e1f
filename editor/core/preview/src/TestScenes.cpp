// The preview's test scenes (TestScenes.h).
#include "marionette/editor/preview/TestScenes.h"

#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace marionette::editor {

namespace {

/// A block of height `top` above the floor reaching 1 m into the ground, centred at (0, ·, z).
SceneBox block(float top, float z, float halfX, float halfZ)
{
    return {Transform{Quat{}, {0.f, 0.5f * (top - 1.f), z}}, {halfX, 0.5f * (top + 1.f), halfZ}};
}

/// Signed distance from `p` to box `b` (negative inside), and the nearest surface point.
float boxDistance(const SceneBox& b, Vec3 p, Vec3& surface)
{
    const Vec3 l = b.pose.rotation.conjugate().rotate(p - b.pose.translation);
    const Vec3 h = b.halfExtents;
    const Vec3 d{std::fabs(l.x) - h.x, std::fabs(l.y) - h.y, std::fabs(l.z) - h.z};
    Vec3 q;
    float dist;
    if (d.x > 0.f || d.y > 0.f || d.z > 0.f) {
        q = {std::clamp(l.x, -h.x, h.x), std::clamp(l.y, -h.y, h.y), std::clamp(l.z, -h.z, h.z)};
        dist = length(l - q);
    } else {
        // Inside: out through the nearest face.
        q = l;
        if (d.x >= d.y && d.x >= d.z)
            q.x = l.x < 0.f ? -h.x : h.x;
        else if (d.y >= d.z)
            q.y = l.y < 0.f ? -h.y : h.y;
        else
            q.z = l.z < 0.f ? -h.z : h.z;
        dist = std::max(d.x, std::max(d.y, d.z));
    }
    surface = b.pose.apply(q);
    return dist;
}

} // namespace

SceneGeometry testSceneGeometry(project::Scene scene)
{
    SceneGeometry g;
    switch (scene) {
    case project::Scene::Floor:
        break;
    case project::Scene::Stairs:
        for (int k = 0; k < 6; ++k)
            g.boxes.push_back(block(0.18f * float(k + 1), -0.15f - 0.3f * float(k), 1.5f, 0.15f));
        break;
    case project::Scene::Ledge:
        g.boxes.push_back(block(1.f, -1.5f, 2.f, 1.5f));
        break;
    case project::Scene::Box:
        g.boxes.push_back(block(0.6f, -0.5f, 0.5f, 0.5f));
        break;
    }
    return g;
}

SceneGeometry buildTestScene(runtime::World& world, project::Scene scene)
{
    SceneGeometry g = testSceneGeometry(scene);
    world.addPlane({0.f, 1.f, 0.f}, g.floorHeight);
    for (const SceneBox& b : g.boxes)
        world.addBox(b.pose, b.halfExtents);
    return g;
}

std::vector<SceneBox> visibleBoxes(const SceneGeometry& geometry)
{
    std::vector<SceneBox> out;
    for (const SceneBox& b : geometry.boxes) {
        const Quat& q = b.pose.rotation;
        const bool axisAligned = std::fabs(std::fabs(q.w) - 1.f) < 1e-6f;
        const float bottom = b.pose.translation.y - b.halfExtents.y, top = b.pose.translation.y + b.halfExtents.y;
        if (!axisAligned || bottom >= geometry.floorHeight) {
            out.push_back(b);
        } else if (top > geometry.floorHeight) {
            SceneBox cut = b;
            cut.halfExtents.y = 0.5f * (top - geometry.floorHeight);
            cut.pose.translation.y = 0.5f * (top + geometry.floorHeight);
            out.push_back(cut);
        }
    }
    return out;
}

float sceneTopHeight(project::Scene scene)
{
    switch (scene) {
    case project::Scene::Floor:
        return 0.f;
    case project::Scene::Stairs:
        return 0.18f;
    case project::Scene::Ledge:
        return 1.f;
    case project::Scene::Box:
        return 0.6f;
    }
    return 0.f;
}

Vec3 nearestSurfacePoint(const SceneGeometry& geometry, Vec3 point, float* signedDistance)
{
    Vec3 best{point.x, geometry.floorHeight, point.z};
    float bestDist = point.y - geometry.floorHeight;
    for (const SceneBox& b : geometry.boxes) {
        Vec3 s;
        const float d = boxDistance(b, point, s);
        // The union's surface: the deepest inside wins, else the nearest outside.
        if (d < bestDist) {
            bestDist = d;
            best = s;
        }
    }
    if (signedDistance)
        *signedDistance = bestDist;
    return best;
}

float penetrationDepth(const SceneGeometry& geometry, Vec3 point, float radius)
{
    float depth = std::max(0.f, radius - (point.y - geometry.floorHeight));
    for (const SceneBox& b : geometry.boxes) {
        Vec3 s;
        depth = std::max(depth, radius - boxDistance(b, point, s));
    }
    return depth;
}

const char* sceneName(project::Scene scene)
{
    switch (scene) {
    case project::Scene::Floor:
        return "floor";
    case project::Scene::Stairs:
        return "stairs";
    case project::Scene::Ledge:
        return "ledge";
    case project::Scene::Box:
        return "box";
    }
    return "floor";
}

bool sceneFromName(const QString& name, project::Scene& out)
{
    for (project::Scene s : {project::Scene::Floor, project::Scene::Stairs, project::Scene::Ledge, project::Scene::Box})
        if (name == QLatin1String(sceneName(s))) {
            out = s;
            return true;
        }
    return false;
}

float bindBottom(const runtime::Rig& rig, const Quat& rotation, Vec3 pivot)
{
    const auto bind = rig.bindPositions();
    const auto radii = rig.radii();
    float lowest = std::numeric_limits<float>::infinity();
    for (std::size_t i = 0; i < bind.size(); ++i)
        lowest = std::min(lowest, rotation.rotate(bind[i] - pivot).y - radii[i]);
    return std::isfinite(lowest) ? lowest : 0.f;
}

} // namespace marionette::editor
