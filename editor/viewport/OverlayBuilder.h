// Marionette viewport — camera-dependent geometry rebuilt every frame: the grid and ground at y = 0 (sized
// and spaced from the camera's distance so they look infinite), the move gizmo (constant screen size) and
// the rubber band (in pixels). Plain C++.
#pragma once

#include "viewport/Camera.h"
#include "viewport/DrawList.h"
#include "viewport/MoveGizmo.h"
#include "viewport/ViewportScene.h"

#include <QRectF>

namespace marionette::viewport {

class OverlayBuilder {
public:
    /// Minor grid spacing: the power of ten at most a tenth of the camera distance (major lines every 10).
    static float gridSpacing(const Camera& camera);
    static void grid(DrawList& out, const Camera& camera);
    static void ground(DrawList& out, const Camera& camera);
    static void gizmo(DrawList& out, const MoveGizmo& gizmo, const Camera& camera, QSize viewport);
    /// Static scene boxes (ViewportScene::staticBoxes): grey faces shaded by a fixed light from above
    /// (baked into the colours, drawn opaque, writing depth) and darker edges.
    static void staticBoxes(DrawList& out, const std::vector<SceneBoxShape>& boxes);
    /// Contact points (ViewportScene::contactPoints): dots of kContactPixels with a dark rim, meant for a
    /// pass over a cleared depth buffer.
    static void contacts(DrawList& out, const std::vector<Vec3>& points);
    static constexpr float kContactPixels = 5.f;
    /// Impulse arrows (ViewportScene::impulseArrows): a 3 px shaft and a solid cone head a quarter of the
    /// arrow long, tip on the point, meant for the same pass as the contacts. Arrows with a non-finite or
    /// zero direction or length are skipped.
    static void impulseArrows(DrawList& out, const std::vector<ImpulseArrow>& arrows);
    static constexpr float kArrowShaftPixels = 3.f;
    /// The rubber band in pixel coordinates (z = 0).
    static void rubberBand(DrawList& out, const QRectF& rect);
};

} // namespace marionette::viewport
