#include "viewport/AngularGizmo.h"

#include "viewport/ElementSet.h"

#include <algorithm>
#include <cmath>

namespace marionette::viewport {

Vec3 AngularGizmo::twistCentre(const RigPose::AngularAnchor& anchor)
{
    return anchor.point + anchor.axes.c[1] * (0.5f * coneLength(anchor));
}

float AngularGizmo::limitValue(const rig::AngularConstraint& a, AngularLimitHandle h)
{
    switch (h) {
    case AngularLimitHandle::Swing1: return a.limit == rig::AngularLimit::Cone ? a.coneAngle : a.swing1;
    case AngularLimitHandle::Swing2: return a.swing2;
    case AngularLimitHandle::TwistMin: return a.twistMin;
    case AngularLimitHandle::TwistMax: return a.twistMax;
    }
    return 0.f;
}

// Matches RigDrawBuilder: the rim point where the twist axis t tilts about s1 (toward s2) or about s2
// (toward −s1); twist θ puts s1 at s1·cos θ − s2·sin θ.
Vec3 AngularGizmo::handlePosition(const RigPose::AngularAnchor& anchor, AngularLimitHandle h, float angle)
{
    const Vec3 s1 = anchor.axes.c[0], t = anchor.axes.c[1], s2 = anchor.axes.c[2];
    const float len = coneLength(anchor);
    switch (h) {
    case AngularLimitHandle::Swing1: return anchor.point + (t * std::cos(angle) + s2 * std::sin(angle)) * len;
    case AngularLimitHandle::Swing2: return anchor.point + (t * std::cos(angle) - s1 * std::sin(angle)) * len;
    case AngularLimitHandle::TwistMin:
    case AngularLimitHandle::TwistMax:
        return twistCentre(anchor) + (s1 * std::cos(angle) - s2 * std::sin(angle)) * twistRadius(anchor);
    }
    return anchor.point;
}

std::optional<std::size_t> AngularGizmo::index(const ViewportScene& scene, const RigPose& pose) const
{
    if (!mId || !scene.rig || ElementSet(scene.hidden).contains(project::ElementKind::Angular, *mId))
        return std::nullopt;
    const std::vector<rig::AngularConstraint>& all = scene.rig->angular;
    for (std::size_t i = 0; i < all.size(); ++i)
        if (all[i].id == *mId)
            return i < pose.angular().size() && pose.angular()[i].valid ? std::optional<std::size_t>(i) : std::nullopt;
    return std::nullopt;
}

std::vector<AngularGizmo::HandlePoint> AngularGizmo::handles(const ViewportScene& scene, const RigPose& pose) const
{
    std::vector<HandlePoint> out;
    const std::optional<std::size_t> i = index(scene, pose);
    if (!i)
        return out;
    const rig::AngularConstraint& a = scene.rig->angular[*i];
    const RigPose::AngularAnchor& anchor = pose.angular()[*i];
    std::vector<AngularLimitHandle> kinds{AngularLimitHandle::Swing1};
    if (a.limit == rig::AngularLimit::SwingTwist)
        kinds.insert(kinds.end(), {AngularLimitHandle::Swing2, AngularLimitHandle::TwistMin, AngularLimitHandle::TwistMax});
    for (AngularLimitHandle h : kinds) {
        const float angle = mDragging && h == mHandle ? mCurrent : limitValue(a, h);
        out.push_back({h, handlePosition(anchor, h, angle)});
    }
    return out;
}

std::optional<AngularLimitHandle> AngularGizmo::hitTest(const ViewportScene& scene, const RigPose& pose,
                                                        const Camera& camera, QSize viewport, QPointF pixel) const
{
    std::optional<AngularLimitHandle> best;
    double bestDistance = double(kHandlePixels) + 1.;
    for (const HandlePoint& h : handles(scene, pose)) {
        const std::optional<QPointF> s = camera.project(h.position, viewport);
        if (!s)
            continue;
        const double d = std::hypot(s->x() - pixel.x(), s->y() - pixel.y());
        if (d <= bestDistance) {
            bestDistance = d;
            best = h.handle;
        }
    }
    return best;
}

bool AngularGizmo::begin(AngularLimitHandle handle, const ViewportScene& scene, const RigPose& pose)
{
    const std::optional<std::size_t> i = index(scene, pose);
    if (!i)
        return false;
    mDragging = true;
    mHandle = handle;
    mOriginal = mCurrent = limitValue(scene.rig->angular[*i], handle);
    return true;
}

std::optional<float> AngularGizmo::drag(const ViewportScene& scene, const RigPose& pose, const Camera& camera,
                                        QSize viewport, QPointF pixel)
{
    const std::optional<std::size_t> i = index(scene, pose);
    if (!mDragging || !i)
        return std::nullopt;
    const rig::AngularConstraint& a = scene.rig->angular[*i];
    const RigPose::AngularAnchor& anchor = pose.angular()[*i];
    const Vec3 s1 = anchor.axes.c[0], t = anchor.axes.c[1], s2 = anchor.axes.c[2];
    const bool twist = mHandle == AngularLimitHandle::TwistMin || mHandle == AngularLimitHandle::TwistMax;
    // the plane the handle moves in
    const Vec3 origin = twist ? twistCentre(anchor) : anchor.point;
    const Vec3 normal = twist ? t : (mHandle == AngularLimitHandle::Swing1 ? s1 : s2);
    const Ray ray = camera.rayThrough(pixel, viewport);
    const float denom = dot(ray.direction, normal);
    if (std::fabs(denom) < 1e-3f)
        return std::nullopt;
    const Vec3 v = ray.at(dot(origin - ray.origin, normal) / denom) - origin;
    float angle = 0.f;
    switch (mHandle) {
    case AngularLimitHandle::Swing1: angle = std::clamp(std::atan2(dot(v, s2), dot(v, t)), 0.f, kPi); break;
    case AngularLimitHandle::Swing2: angle = std::clamp(std::atan2(-dot(v, s1), dot(v, t)), 0.f, kPi); break;
    case AngularLimitHandle::TwistMin: angle = std::clamp(std::atan2(-dot(v, s2), dot(v, s1)), -kPi, a.twistMax); break;
    case AngularLimitHandle::TwistMax: angle = std::clamp(std::atan2(-dot(v, s2), dot(v, s1)), a.twistMin, kPi); break;
    }
    mCurrent = angle;
    return angle;
}

} // namespace marionette::viewport
