// Marionette viewport — the orbit camera (DESIGN.md §9). Plain C++ (no GL); QPointF/QSize only as value
// types for pixels. Pixels are widget (logical) pixels, origin at the top-left corner, x right, y down;
// pixel coordinates are continuous: the centre of a W×H viewport is (W/2, H/2).
//
// The camera orbits `target` at `distance`; yaw turns about +Y, pitch lifts the eye above the target
// (yaw 0, pitch 0: eye on +Z looking down −Z, the front view of a character facing +Z). The orthographic
// projection shows a view of the same height as the perspective one at the target's depth, so toggling
// keeps the framing.
#pragma once

#include "viewport/ViewMath.h"

#include "marionette/project/Project.h"

#include <QPointF>
#include <QSize>

#include <optional>

namespace marionette::viewport {

class Camera {
public:
    enum class View { Front, Back, Left, Right, Top, Bottom };

    static constexpr float kOrbitDegreesPerPixel = 0.4f;
    static constexpr float kZoomFactorPerStep = 0.85f; ///< distance × this per wheel step toward the scene
    static constexpr float kMinDistance = 1e-3f;
    static constexpr float kMaxDistance = 1e6f;

    Camera() = default;
    explicit Camera(const project::Camera& state);

    /// The saved form (what EditorState::camera stores) and back. Out-of-range values are clamped.
    project::Camera state() const { return mState; }
    void setState(const project::Camera& state);

    Vec3 target() const { return mState.target; }
    float yawDegrees() const { return mState.yawDegrees; }
    float pitchDegrees() const { return mState.pitchDegrees; }
    float distance() const { return mState.distance; }
    float fieldOfViewDegrees() const { return mState.fieldOfViewDegrees; }
    bool isOrthographic() const { return mState.projection == project::Projection::Orthographic; }
    void setTarget(Vec3 target) { mState.target = target; }
    void setYawPitch(float yawDegrees, float pitchDegrees);
    void setDistance(float distance);
    void setOrthographic(bool on);
    void setFieldOfViewDegrees(float degrees);

    /// Size of the viewport in pixels, used by pan() and frame() (the Viewport keeps it up to date).
    /// Default 800×600.
    void setViewportSize(QSize size);
    QSize viewportSize() const { return mViewportSize; }

    /// Turns the eye about the target: dx pixels to the right turns the scene right (yaw decreases), dy
    /// pixels down raises the eye (pitch increases, clamped to [−90, 90]).
    void orbit(float dx, float dy);
    /// Moves the target so the scene follows the mouse at the target's depth (dx right, dy down, pixels).
    void pan(float dx, float dy);
    /// Moves the eye toward the target (wheelSteps > 0) or away: distance × kZoomFactorPerStep^steps.
    void zoom(float wheelSteps);
    /// Centres the target on the box and sets the distance so the whole box (its bounding sphere) is in
    /// view for the current viewport aspect. An invalid box leaves the camera unchanged.
    void frame(const Bounds& box);
    /// Centres the target on `centre` (e.g. a body's centre of mass) and sets the distance so the whole box
    /// is still in view: the box mirrored about `centre` is framed. An invalid box or centre changes nothing.
    void frame(const Bounds& box, Vec3 centre);
    /// One of the six axis views (yaw/pitch only; target and distance stay).
    void setView(View view);

    Vec3 eye() const;
    Vec3 forward() const; ///< unit, from the eye toward the target
    Vec3 right() const;   ///< unit, screen right
    Vec3 up() const;      ///< unit, screen up

    float nearPlane() const;
    float farPlane() const;
    Mat4 viewMatrix() const;
    Mat4 projectionMatrix(float aspect) const;
    Mat4 viewProjection(QSize viewport) const;

    /// The ray under a pixel: from the eye (perspective) or from the near plane along forward() (ortho).
    Ray rayThrough(QPointF pixel, QSize viewport) const;
    /// The point under `pixel` on the plane through `reference` facing the camera (normal forward()), i.e.
    /// at the reference's depth: project(result) == pixel and depthOf(result) == depthOf(reference).
    /// nullopt when that plane is behind the eye (perspective).
    std::optional<Vec3> pointAtDepth(QPointF pixel, QSize viewport, Vec3 reference) const;
    /// Pixel of a world point; nullopt when it is behind the eye (perspective). Points outside the
    /// viewport get pixels outside [0, W] × [0, H].
    std::optional<QPointF> project(Vec3 point, QSize viewport) const;
    /// Depth of a point along forward() from the eye.
    float depthOf(Vec3 point) const;
    /// World length of one pixel at the depth of `point` (constant in ortho).
    float worldPerPixel(Vec3 point, QSize viewport) const;

private:
    project::Camera mState;
    QSize mViewportSize{800, 600};
};

} // namespace marionette::viewport
