#include "viewport/Camera.h"

#include <algorithm>
#include <cmath>

namespace marionette::viewport {

namespace {

float aspectOf(QSize s)
{
    return s.width() > 0 && s.height() > 0 ? float(s.width()) / float(s.height()) : 1.f;
}

float heightOf(QSize s)
{
    return s.height() > 0 ? float(s.height()) : 1.f;
}

} // namespace

Camera::Camera(const project::Camera& state)
{
    setState(state);
}

void Camera::setState(const project::Camera& state)
{
    mState = state;
    if (!isFinite(mState.target))
        mState.target = {};
    setYawPitch(state.yawDegrees, state.pitchDegrees);
    setDistance(state.distance);
    setFieldOfViewDegrees(state.fieldOfViewDegrees);
}

void Camera::setYawPitch(float yawDegrees, float pitchDegrees)
{
    mState.yawDegrees = std::isfinite(yawDegrees) ? std::remainder(yawDegrees, 360.f) : 0.f;
    mState.pitchDegrees = std::isfinite(pitchDegrees) ? std::clamp(pitchDegrees, -90.f, 90.f) : 0.f;
}

void Camera::setDistance(float distance)
{
    mState.distance = std::isnan(distance) ? 3.f : std::clamp(distance, kMinDistance, kMaxDistance);
}

void Camera::setOrthographic(bool on)
{
    mState.projection = on ? project::Projection::Orthographic : project::Projection::Perspective;
}

void Camera::setFieldOfViewDegrees(float degrees)
{
    mState.fieldOfViewDegrees = std::isfinite(degrees) ? std::clamp(degrees, 1.f, 170.f) : 45.f;
}

void Camera::setViewportSize(QSize size)
{
    if (size.width() > 0 && size.height() > 0)
        mViewportSize = size;
}

void Camera::orbit(float dx, float dy)
{
    setYawPitch(mState.yawDegrees - dx * kOrbitDegreesPerPixel, mState.pitchDegrees + dy * kOrbitDegreesPerPixel);
}

void Camera::pan(float dx, float dy)
{
    const float w = worldPerPixel(mState.target, mViewportSize);
    mState.target = mState.target - right() * (dx * w) + up() * (dy * w);
}

void Camera::zoom(float wheelSteps)
{
    setDistance(mState.distance * std::pow(kZoomFactorPerStep, wheelSteps));
}

void Camera::frame(const Bounds& box)
{
    if (!box.isValid() || !isFinite(box.min) || !isFinite(box.max))
        return;
    const float radius = std::max(0.5f * length(box.size()), 0.01f);
    const float halfFovY = 0.5f * radians(mState.fieldOfViewDegrees);
    const float halfFovX = std::atan(std::tan(halfFovY) * aspectOf(mViewportSize));
    const float halfFov = std::min(halfFovY, halfFovX);
    mState.target = box.centre();
    const float margin = 1.05f;
    if (isOrthographic())
        setDistance(margin * radius / std::tan(halfFov));
    else
        setDistance(margin * radius / std::sin(halfFov));
}

void Camera::frame(const Bounds& box, Vec3 centre)
{
    if (!box.isValid() || !isFinite(box.min) || !isFinite(box.max) || !isFinite(centre))
        return;
    Bounds symmetric = box;
    symmetric.add(centre * 2.f - box.min);
    symmetric.add(centre * 2.f - box.max);
    frame(symmetric);
    mState.target = centre; // the mirrored box's centre, without its rounding
}

void Camera::setView(View view)
{
    switch (view) {
    case View::Front: setYawPitch(0.f, 0.f); break;
    case View::Back: setYawPitch(180.f, 0.f); break;
    case View::Right: setYawPitch(90.f, 0.f); break;
    case View::Left: setYawPitch(-90.f, 0.f); break;
    case View::Top: setYawPitch(0.f, 90.f); break;
    case View::Bottom: setYawPitch(0.f, -90.f); break;
    }
}

// Basis: R = RotY(yaw) · RotX(−pitch); right = R·X, up = R·Y, back (target → eye) = R·Z.
Vec3 Camera::right() const
{
    const float y = radians(mState.yawDegrees);
    return {std::cos(y), 0.f, -std::sin(y)};
}

Vec3 Camera::up() const
{
    const float y = radians(mState.yawDegrees), p = radians(mState.pitchDegrees);
    return {-std::sin(p) * std::sin(y), std::cos(p), -std::sin(p) * std::cos(y)};
}

Vec3 Camera::forward() const
{
    const float y = radians(mState.yawDegrees), p = radians(mState.pitchDegrees);
    return {-std::cos(p) * std::sin(y), -std::sin(p), -std::cos(p) * std::cos(y)};
}

Vec3 Camera::eye() const
{
    return mState.target - forward() * mState.distance;
}

float Camera::nearPlane() const
{
    if (isOrthographic())
        return -(mState.distance * 50.f + 100.f);
    return std::max(mState.distance * 0.01f, 1e-4f);
}

float Camera::farPlane() const
{
    return mState.distance * 200.f + 100.f;
}

Mat4 Camera::viewMatrix() const
{
    const Vec3 r = right(), u = up(), b = -forward(), e = eye();
    Mat4 v;
    v.m[0] = r.x, v.m[4] = r.y, v.m[8] = r.z, v.m[12] = -dot(r, e);
    v.m[1] = u.x, v.m[5] = u.y, v.m[9] = u.z, v.m[13] = -dot(u, e);
    v.m[2] = b.x, v.m[6] = b.y, v.m[10] = b.z, v.m[14] = -dot(b, e);
    v.m[3] = 0.f, v.m[7] = 0.f, v.m[11] = 0.f, v.m[15] = 1.f;
    return v;
}

Mat4 Camera::projectionMatrix(float aspect) const
{
    if (!(aspect > 0.f) || !std::isfinite(aspect))
        aspect = 1.f;
    const float fov = radians(mState.fieldOfViewDegrees);
    if (isOrthographic()) {
        const float h = mState.distance * std::tan(0.5f * fov);
        return orthographic(-h * aspect, h * aspect, -h, h, nearPlane(), farPlane());
    }
    return perspective(fov, aspect, nearPlane(), farPlane());
}

Mat4 Camera::viewProjection(QSize viewport) const
{
    return projectionMatrix(aspectOf(viewport)) * viewMatrix();
}

Ray Camera::rayThrough(QPointF pixel, QSize viewport) const
{
    const float aspect = aspectOf(viewport);
    const float w = viewport.width() > 0 ? float(viewport.width()) : 1.f;
    const float nx = 2.f * float(pixel.x()) / w - 1.f;
    const float ny = 1.f - 2.f * float(pixel.y()) / heightOf(viewport);
    const float t = std::tan(0.5f * radians(mState.fieldOfViewDegrees));
    if (isOrthographic()) {
        const float h = mState.distance * t;
        const Vec3 origin = eye() + right() * (nx * h * aspect) + up() * (ny * h) + forward() * nearPlane();
        return {origin, forward()};
    }
    const Vec3 d = forward() + right() * (nx * t * aspect) + up() * (ny * t);
    return {eye(), normalizeOr(d, forward())};
}

std::optional<Vec3> Camera::pointAtDepth(QPointF pixel, QSize viewport, Vec3 reference) const
{
    const Ray ray = rayThrough(pixel, viewport);
    const Vec3 f = forward();
    const float along = dot(ray.direction, f);
    if (!(along > 1e-6f))
        return std::nullopt;
    const float t = dot(reference - ray.origin, f) / along;
    // Orthographic rays are parallel: a plane between the eye and the near plane is still well defined.
    if (!std::isfinite(t) || (!isOrthographic() && !(t > 0.f)))
        return std::nullopt;
    return ray.origin + ray.direction * t;
}

std::optional<QPointF> Camera::project(Vec3 point, QSize viewport) const
{
    const Vec4 clip = mul(viewProjection(viewport), {point.x, point.y, point.z, 1.f});
    if (!(clip.w > 1e-7f))
        return std::nullopt;
    const float nx = clip.x / clip.w, ny = clip.y / clip.w;
    return QPointF(double((nx + 1.f) * 0.5f) * viewport.width(), double((1.f - ny) * 0.5f) * viewport.height());
}

float Camera::depthOf(Vec3 point) const
{
    return dot(point - eye(), forward());
}

float Camera::worldPerPixel(Vec3 point, QSize viewport) const
{
    const float t = std::tan(0.5f * radians(mState.fieldOfViewDegrees));
    const float depth = isOrthographic() ? mState.distance : std::max(depthOf(point), nearPlane());
    return 2.f * depth * t / heightOf(viewport);
}

} // namespace marionette::viewport
