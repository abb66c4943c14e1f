// Marionette viewport — the move gizmo's geometry and drag arithmetic, without GL (the Viewport draws it
// and feeds it mouse positions). Three axis arrows and a centre square at `origin`, a constant size on
// screen. Dragging an arrow moves along its world axis only; dragging the square moves in the plane facing
// the camera through the origin. During a drag an axis lock (X/Y/Z keys) replaces the constraint by that
// world axis; locking the same axis again returns to the handle's own constraint. Deltas are always
// measured from the pixel where the drag began, so the total is the same whatever the path.
#pragma once

#include "viewport/Camera.h"

#include <QPointF>
#include <QSize>

#include <optional>

namespace marionette::viewport {

class MoveGizmo {
public:
    enum class Handle { None, X, Y, Z, Plane };

    static constexpr float kArrowPixels = 90.f;  ///< arrow length on screen
    static constexpr float kSquarePixels = 9.f;  ///< half size of the centre square on screen
    static constexpr float kPickPixels = 7.f;    ///< arrow pick tolerance

    void setOrigin(std::optional<Vec3> origin) { mOrigin = origin; }
    std::optional<Vec3> origin() const { return mOrigin; }
    /// Where to draw it: the origin plus the current drag's delta.
    std::optional<Vec3> drawnOrigin() const;

    /// World length of an arrow at the origin (kArrowPixels on screen).
    float arrowLength(const Camera& camera, QSize viewport) const;
    /// The handle under `pixel` (the square first, then the nearest arrow within kPickPixels).
    Handle hitTest(const Camera& camera, QSize viewport, QPointF pixel) const;
    /// The handle highlighted when hovering (set by the Viewport from hitTest).
    Handle hovered() const { return mHovered; }
    void setHovered(Handle h) { mHovered = h; }

    /// Starts dragging `handle` from `pixel`; false (no drag) without an origin or for Handle::None.
    bool begin(Handle handle, const Camera& camera, QSize viewport, QPointF pixel);
    /// The total delta for the cursor at `pixel` (kept unchanged when the ray is parallel to the axis).
    Vec3 drag(const Camera& camera, QSize viewport, QPointF pixel);
    /// X/Y/Z pressed during a drag: lock to that world axis, or unlock when it is already the lock.
    /// Returns the new total delta for the last cursor position.
    Vec3 toggleAxisLock(Handle axis, const Camera& camera, QSize viewport);
    /// Ends the drag; returns the total delta.
    Vec3 end();
    bool isDragging() const { return mDragging; }
    Handle activeHandle() const { return mHandle; }
    /// The constraint in force: the lock when there is one, else the dragged handle.
    Handle constraint() const { return mLock != Handle::None ? mLock : mHandle; }
    Vec3 delta() const { return mDelta; }

    static Vec3 axisVector(Handle axis);

private:
    std::optional<Vec3> pointFor(Handle constraint, const Camera& camera, QSize viewport, QPointF pixel) const;

    std::optional<Vec3> mOrigin;
    Handle mHovered = Handle::None;
    bool mDragging = false;
    Handle mHandle = Handle::None;
    Handle mLock = Handle::None;
    Vec3 mDragOrigin;
    Vec3 mPlaneNormal;
    QPointF mPressPixel, mLastPixel;
    Vec3 mDelta;
};

} // namespace marionette::viewport
