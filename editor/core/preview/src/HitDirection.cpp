#include "marionette/editor/preview/HitDirection.h"

#include <cmath>

namespace marionette::editor {

namespace {

/// v without its vertical part, normalised; nullopt-like zero vector when too short.
Vec3 level(Vec3 v)
{
    const Vec3 flat{v.x, 0.f, v.z};
    const float l = length(flat);
    return l > kHorizontalEpsilon && std::isfinite(l) ? flat / l : Vec3{};
}

} // namespace

Vec3 hitImpulseDirection(HitDirection mode, Vec3 rayDirection, Vec3 inwardNormal, Vec3 viewUp)
{
    const Vec3 ray = isFinite(rayDirection) ? normalizeOr(rayDirection, Vec3{0, 0, -1}) : Vec3{0, 0, -1};
    switch (mode) {
    case HitDirection::ViewRay: return ray;
    case HitDirection::SurfaceNormal:
        return isFinite(inwardNormal) ? normalizeOr(inwardNormal, ray) : ray;
    case HitDirection::Horizontal: {
        const Vec3 flat = level(ray);
        if (lengthSquared(flat) > 0.f)
            return flat;
        // Looking straight down (ray.y < 0) the top of the screen is "away"; straight up, its bottom is.
        const Vec3 up = isFinite(viewUp) ? level(viewUp) : Vec3{};
        if (lengthSquared(up) > 0.f)
            return ray.y <= 0.f ? up : up * -1.f;
        return Vec3{0, 0, -1};
    }
    }
    return ray;
}

} // namespace marionette::editor
