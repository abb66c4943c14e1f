#include "viewport/MoveGizmo.h"

#include <cmath>

namespace marionette::viewport {

namespace {

double segmentDistance(QPointF p, QPointF a, QPointF b)
{
    const QPointF ab = b - a;
    const double len2 = QPointF::dotProduct(ab, ab);
    double t = len2 > 1e-12 ? QPointF::dotProduct(p - a, ab) / len2 : 0.;
    t = std::clamp(t, 0., 1.);
    const QPointF d = p - (a + ab * t);
    return std::hypot(d.x(), d.y());
}

} // namespace

std::optional<Vec3> MoveGizmo::drawnOrigin() const
{
    if (mDragging)
        return mDragOrigin + mDelta;
    return mOrigin;
}

Vec3 MoveGizmo::axisVector(Handle axis)
{
    switch (axis) {
    case Handle::X: return {1, 0, 0};
    case Handle::Y: return {0, 1, 0};
    case Handle::Z: return {0, 0, 1};
    default: return {};
    }
}

float MoveGizmo::arrowLength(const Camera& camera, QSize viewport) const
{
    const std::optional<Vec3> o = drawnOrigin();
    return o ? kArrowPixels * camera.worldPerPixel(*o, viewport) : 0.f;
}

MoveGizmo::Handle MoveGizmo::hitTest(const Camera& camera, QSize viewport, QPointF pixel) const
{
    const std::optional<Vec3> o = drawnOrigin();
    if (!o)
        return Handle::None;
    const std::optional<QPointF> centre = camera.project(*o, viewport);
    if (!centre)
        return Handle::None;
    const QPointF d = pixel - *centre;
    if (std::abs(d.x()) <= double(kSquarePixels) + 2. && std::abs(d.y()) <= double(kSquarePixels) + 2.)
        return Handle::Plane;
    const float len = arrowLength(camera, viewport);
    Handle best = Handle::None;
    double bestDistance = double(kPickPixels);
    for (Handle h : {Handle::X, Handle::Y, Handle::Z}) {
        const std::optional<QPointF> tip = camera.project(*o + axisVector(h) * len, viewport);
        if (!tip)
            continue;
        const double dist = segmentDistance(pixel, *centre, *tip);
        if (dist <= bestDistance) {
            bestDistance = dist;
            best = h;
        }
    }
    return best;
}

bool MoveGizmo::begin(Handle handle, const Camera& camera, QSize, QPointF pixel)
{
    if (!mOrigin || handle == Handle::None)
        return false;
    mDragging = true;
    mHandle = handle;
    mLock = Handle::None;
    mDragOrigin = *mOrigin;
    mPlaneNormal = camera.forward();
    mPressPixel = pixel;
    mLastPixel = pixel;
    mDelta = {};
    return true;
}

std::optional<Vec3> MoveGizmo::pointFor(Handle constraint, const Camera& camera, QSize viewport, QPointF pixel) const
{
    const Ray r = camera.rayThrough(pixel, viewport);
    if (constraint == Handle::Plane) {
        const float denom = dot(r.direction, mPlaneNormal);
        if (std::fabs(denom) < 1e-6f)
            return std::nullopt;
        const float t = dot(mDragOrigin - r.origin, mPlaneNormal) / denom;
        return r.at(t);
    }
    // closest point on the axis line (origin + s·a) to the ray's line
    const Vec3 a = axisVector(constraint);
    const Vec3 w = mDragOrigin - r.origin;
    const float b = dot(a, r.direction);
    const float denom = 1.f - b * b;
    if (denom < 1e-4f)
        return std::nullopt; // looking along the axis
    const float s = (b * dot(r.direction, w) - dot(a, w)) / denom;
    return mDragOrigin + a * s;
}

Vec3 MoveGizmo::drag(const Camera& camera, QSize viewport, QPointF pixel)
{
    if (!mDragging)
        return {};
    mLastPixel = pixel;
    const Handle c = constraint();
    const std::optional<Vec3> start = pointFor(c, camera, viewport, mPressPixel);
    const std::optional<Vec3> now = pointFor(c, camera, viewport, pixel);
    if (start && now && isFinite(*now - *start)) {
        Vec3 d = *now - *start;
        if (c != Handle::Plane) {
            const Vec3 a = axisVector(c);
            d = a * dot(d, a); // exactly along the axis
        }
        mDelta = d;
    }
    return mDelta;
}

Vec3 MoveGizmo::toggleAxisLock(Handle axis, const Camera& camera, QSize viewport)
{
    if (!mDragging || (axis != Handle::X && axis != Handle::Y && axis != Handle::Z))
        return mDelta;
    mLock = mLock == axis ? Handle::None : axis;
    mDelta = {};
    return drag(camera, viewport, mLastPixel);
}

Vec3 MoveGizmo::end()
{
    const Vec3 d = mDelta;
    mDragging = false;
    mHandle = Handle::None;
    mLock = Handle::None;
    mDelta = {};
    return d;
}

} // namespace marionette::viewport
