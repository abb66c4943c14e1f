// surfacePoint(): the entry/exit of the pick ray through the mesh (declared in Picking.h).
#include "viewport/MeshRaycaster.h"
#include "viewport/Picking.h"

namespace marionette::viewport {

std::optional<SurfacePoint> surfacePoint(const ViewportScene& scene, const Camera& camera, QSize viewport,
                                         QPointF pixel, const MeshRaycaster* cache)
{
    if (!scene.mesh)
        return std::nullopt;
    std::optional<MeshRaycaster> local;
    if (!cache)
        cache = &local.emplace(*scene.mesh, scene.bonePalette);
    const Ray ray = camera.rayThrough(pixel, viewport);
    std::vector<MeshRaycaster::Hit> hits;
    cache->intersectAll(ray, hits);
    if (hits.empty())
        return std::nullopt;
    std::size_t entry = 0;
    while (entry < hits.size() && !hits[entry].frontFacing)
        ++entry;
    if (entry == hits.size())
        entry = 0; // only back faces (inside, or an open mesh seen from behind): the first surface
    SurfacePoint out;
    out.entry = ray.at(hits[entry].t);
    out.entryNormal = hits[entry].normal;
    out.exit = out.entry;
    out.midpoint = out.entry;
    const float epsilon = 1e-6f * (1.f + hits[entry].t);
    for (std::size_t i = entry + 1; i < hits.size(); ++i)
        if (!hits[i].frontFacing && hits[i].t > hits[entry].t + epsilon) {
            out.exit = ray.at(hits[i].t);
            out.midpoint = (out.entry + out.exit) * 0.5f;
            out.hasExit = true;
            break;
        }
    return out;
}

} // namespace marionette::viewport
