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
    static constexpr float kAngularHandlePixels = 6.f;

    /// Appends the visible rig elements of `scene` (posed by `pose`) to `out`.
    static void build(DrawList& out, const ViewportScene& scene, const RigPose& pose, const DisplayOptions& options);
};

} // namespace marionette::viewport
