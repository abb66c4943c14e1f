// Marionette — which way the preview's hit tool strikes (docs/preview.md "Hits"): along the view ray, into
// the struck surface, or horizontally through the view, so a body lying on the floor can be struck from any
// camera. Plain functions; no Qt.
#pragma once

#include "marionette/Math.h"

#include <cstdint>

namespace marionette::editor {

enum class HitDirection : std::uint8_t {
    ViewRay,       ///< along the ray under the cursor (into the screen)
    SurfaceNormal, ///< along the struck sphere's or capsule's normal at the hit point, into the body
    Horizontal,    ///< the view ray projected onto the ground plane (y = 0), so the push is level
};

/// Below this length the horizontal part of a view ray counts as none (the view looks straight down or up).
constexpr float kHorizontalEpsilon = 1e-3f;

/// The unit direction of a hit's impulse.
/// - `rayDirection`: the view ray under the cursor (any length > 0);
/// - `inwardNormal`: the surface normal at the hit point pointing into the struck shape (PreviewSession::
///   hitNormal); used by SurfaceNormal, which falls back to the view ray when it is zero or not finite;
/// - `viewUp`: the camera's screen-up vector; Horizontal uses it when the view ray is (nearly) vertical: a
///   view straight down strikes toward the top of the screen, straight up toward its bottom (the way the
///   view would tilt), so a top view still pushes along the floor.
/// Returns the normalised view ray for ViewRay, and (0, 0, −1) only when every input is degenerate.
Vec3 hitImpulseDirection(HitDirection mode, Vec3 rayDirection, Vec3 inwardNormal, Vec3 viewUp);

} // namespace marionette::editor
