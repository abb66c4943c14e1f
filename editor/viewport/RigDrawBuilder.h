// Marionette viewport — turns the rig of a ViewportScene into a DrawList (docs/viewport.md: what is drawn
// and in which colour). Plain C++: no GL, no camera (sizes that must stay constant on screen are given in
// pixels and resolved by the shaders).
#pragma once

#include "viewport/DisplayOptions.h"
#include "viewport/DrawList.h"
#include "viewport/RigPose.h"

namespace marionette::viewport {

class RigDrawBuilder {
public:
    static constexpr float kRigidStickWidth = 2.5f;
    static constexpr float kRangeStickWidth = 1.5f;
    static constexpr float kTrackedStickWidth = 4.f; ///< a driven stick in a driven preview
    static constexpr float kAngularHandlePixels = 6.f;

    /// The strain ramp (ViewportScene::stickStrain): `normal` within ±kStrainDeadZone, toward
    /// kStrainCompressed when compressed, through kStrainStretched to kStrainSaturated when stretched; the
    /// ramp follows sqrt(|strain| / kStrainSaturation) so a few per cent already shows, and saturates at
    /// ±kStrainSaturation. Alpha is `normal`'s.
    static Colour strainColour(Colour normal, float strain);
    static constexpr float kStrainDeadZone = 0.002f; ///< 0.2 %: numerical noise of a settled rig

    /// The tracking ramp (ViewportScene::triangleTracking, in tolerances): kTrackingGood at 0, kTrackingTolerance
    /// at 1, kTrackingBad at kTrackingSaturation and beyond (NaN too), linear between; opaque.
    static Colour trackingColour(float tolerances);

    /// Appends the visible rig elements of `scene` (posed by `pose`) to `out`.
    static void build(DrawList& out, const ViewportScene& scene, const RigPose& pose, const DisplayOptions& options);
};

} // namespace marionette::viewport
