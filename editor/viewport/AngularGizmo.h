// Marionette viewport — handles on an angular constraint's limits (the cone's rim and the twist arc's
// ends), their hit test and the angle a drag gives, without GL. The geometry is the one RigDrawBuilder
// draws: the cone of length coneLength() along the twist axis at the anchor, the twist arc in the plane
// across the axis at half that length.
//   Swing1:   Cone limit: coneAngle; SwingTwist: swing1 (the rim where the axis tilts about swing axis 1)
//   Swing2:   SwingTwist only: swing2 (the rim where the axis tilts about swing axis 2)
//   TwistMin, TwistMax: SwingTwist only: the ends of the twist arc
// Angles: swings in [0, π]; twistMin in [−π, twistMax], twistMax in [twistMin, π].
#pragma once

#include "viewport/Camera.h"
#include "viewport/RigPose.h"

#include <QPointF>
#include <QSize>

#include <algorithm>
#include <optional>
#include <vector>

namespace marionette::viewport {

enum class AngularLimitHandle { Swing1, Swing2, TwistMin, TwistMax };

class AngularGizmo {
public:
    struct HandlePoint {
        AngularLimitHandle handle;
        Vec3 position;
    };

    static constexpr float kHandlePixels = 7.f; ///< drawn radius and pick radius

    static float coneLength(const RigPose::AngularAnchor& anchor) { return std::max(0.6f * anchor.length, anchor.minimumCone); }
    static Vec3 twistCentre(const RigPose::AngularAnchor& anchor);
    static float twistRadius(const RigPose::AngularAnchor& anchor) { return 0.35f * coneLength(anchor); }

    /// Shows the handles of the angular constraint with this stable id (nullopt hides them).
    void setConstraint(std::optional<rig::ElementId> id) { mId = id; }
    std::optional<rig::ElementId> constraint() const { return mId; }

    /// Index of the constraint in the rig, when it exists, is not hidden and has a valid anchor.
    std::optional<std::size_t> index(const ViewportScene& scene, const RigPose& pose) const;
    /// Where the handles are (empty when there is nothing to show). During a drag the dragged handle is
    /// at the dragged angle.
    std::vector<HandlePoint> handles(const ViewportScene& scene, const RigPose& pose) const;
    std::optional<AngularLimitHandle> hitTest(const ViewportScene& scene, const RigPose& pose, const Camera& camera,
                                              QSize viewport, QPointF pixel) const;

    /// Starts dragging `handle`; remembers the limit's current value (originalAngle()).
    bool begin(AngularLimitHandle handle, const ViewportScene& scene, const RigPose& pose);
    /// The limit's new value for the cursor at `pixel` (clamped to its range); nullopt when the cursor ray
    /// runs along the handle's plane (the value is then unchanged).
    std::optional<float> drag(const ViewportScene& scene, const RigPose& pose, const Camera& camera, QSize viewport,
                              QPointF pixel);
    void end() { mDragging = false; }
    bool isDragging() const { return mDragging; }
    AngularLimitHandle activeHandle() const { return mHandle; }
    float originalAngle() const { return mOriginal; }
    float currentAngle() const { return mCurrent; }

    /// The value of a limit in a constraint.
    static float limitValue(const rig::AngularConstraint& a, AngularLimitHandle h);

private:
    static Vec3 handlePosition(const RigPose::AngularAnchor& anchor, AngularLimitHandle h, float angle);

    std::optional<rig::ElementId> mId;
    bool mDragging = false;
    AngularLimitHandle mHandle = AngularLimitHandle::Swing1;
    float mOriginal = 0.f;
    float mCurrent = 0.f;
};

} // namespace marionette::viewport
