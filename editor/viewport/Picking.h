// Marionette viewport — picking without GL: what is under a pixel, what a rubber band encloses, where a
// ray enters and leaves the mesh, which joint is nearest. Everything works from a ViewportScene, a Camera
// and the viewport's size, so it is testable without a window.
//
// Rules (docs/viewport.md): hidden and locked elements are never picked; layers switched off in
// `layers` are not picked either. Particles are spheres of their radius, never smaller on screen than
// kMinParticlePixels; sticks and bones are segments picked within kSegmentPixels; triangles are picked by
// the ray; boxes by the ray; stick capsules (capsuleRadius > 0) by the ray and pick the stick; an angular
// constraint by a kHandlePixels handle at its anchor. The nearest hit wins; hits within
// kTiePixels' worth of depth of the nearest count as equal and then particles win over angular handles,
// sticks, bones, shapes and triangles, in that order.
#pragma once

#include "viewport/Camera.h"
#include "viewport/DisplayOptions.h"
#include "viewport/ViewportScene.h"

#include <QPointF>
#include <QRectF>
#include <QSize>

#include <optional>
#include <vector>

namespace marionette::viewport {

class MeshRaycaster;

constexpr float kMinParticlePixels = 5.f; ///< smallest pick (and drawn) radius of a particle, pixels
constexpr float kSegmentPixels = 6.f;     ///< stick and bone pick tolerance, pixels
constexpr float kHandlePixels = 7.f;      ///< radius of an angular constraint's handle, pixels
constexpr float kTiePixels = 4.f;         ///< depth difference (in pixels at the hit) treated as equal

/// An element under the cursor.
struct Pick {
    project::ElementRef element; ///< kind and stable id
    int index = -1;              ///< position in the rig's vector of that kind
    Vec3 point;                  ///< world point picked (on the sphere, the segment, the face, ...)
    float depth = 0.f;           ///< distance along the pick ray
};

/// Where the ray through a pixel meets the mesh: `entry` is the first surface facing the camera, `exit`
/// the first back face after it (where the ray leaves that part of the body) and `midpoint` halfway, the
/// centre of the limb. When the ray never leaves (an open mesh), exit = midpoint = entry and hasExit is
/// false.
struct SurfacePoint {
    Vec3 entry;
    Vec3 exit;
    Vec3 midpoint;
    Vec3 entryNormal; ///< unit outward normal at the entry
    bool hasExit = false;
};

/// The nearest pickable element under `pixel`, or nullopt.
std::optional<Pick> pickAt(const ViewportScene& scene, const Camera& camera, QSize viewport, QPointF pixel,
                           const DisplayOptions& layers = {});

/// Elements whose screen position lies inside `rect` (pixels): particle centres, stick midpoints, triangle
/// centroids, angular anchors, box centres and bone heads; in rig order, particles first.
std::vector<project::ElementRef> pickInRect(const ViewportScene& scene, const Camera& camera, QSize viewport,
                                            const QRectF& rect, const DisplayOptions& layers = {});

/// The ray through `pixel` against the mesh (skinned by scene.bonePalette when given). nullopt when
/// there is no mesh or the ray misses it. `cache`, when given, must have been built from the same mesh
/// and palette (Viewport keeps one); otherwise one is built for this call.
std::optional<SurfacePoint> surfacePoint(const ViewportScene& scene, const Camera& camera, QSize viewport,
                                         QPointF pixel, const MeshRaycaster* cache = nullptr);

/// Index (in scene.rig->bones, or in scene.mesh->skeleton when the rig has no bones) of the bone whose bind
/// head (bindWorld translation) projects nearest to `pixel`, within `maxPixels`; hidden bones are skipped.
std::optional<int> nearestJoint(const ViewportScene& scene, const Camera& camera, QSize viewport, QPointF pixel,
                                float maxPixels = 12.f);

} // namespace marionette::viewport
