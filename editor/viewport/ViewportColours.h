// Marionette viewport — the colours of every element kind (docs/viewport.md lists them).
#pragma once

#include "viewport/DrawList.h"

namespace marionette::viewport::colours {

constexpr Colour kBackground{0.17f, 0.18f, 0.20f, 1.f};
constexpr Colour kSelected{1.f, 0.55f, 0.1f, 1.f};     ///< any selected element
constexpr Colour kHovered{1.f, 0.95f, 0.55f, 1.f};     ///< outline / tint of the hovered element
constexpr Colour kParticle{0.35f, 0.65f, 1.f, 1.f};
constexpr Colour kKinematicParticle{0.85f, 0.3f, 0.3f, 1.f}; ///< mass 0
constexpr Colour kRigidStick{0.95f, 0.95f, 0.95f, 1.f};
constexpr Colour kRangeStick{1.f, 0.82f, 0.2f, 1.f};
constexpr Colour kMinOnlyStick{0.35f, 0.9f, 0.45f, 1.f};
constexpr Colour kMaxOnlyStick{1.f, 0.4f, 0.8f, 1.f};
constexpr Colour kTriangleFace{0.2f, 0.8f, 0.8f, 0.22f};
constexpr Colour kTriangleEdge{0.2f, 0.8f, 0.8f, 0.8f};
constexpr Colour kAxisX{0.95f, 0.25f, 0.25f, 1.f};
constexpr Colour kAxisY{0.35f, 0.9f, 0.3f, 1.f};
constexpr Colour kAxisZ{0.3f, 0.5f, 1.f, 1.f};
constexpr Colour kAngularCone{0.7f, 0.45f, 1.f, 0.9f};
constexpr Colour kAngularTwist{0.3f, 0.95f, 0.95f, 0.9f};
constexpr Colour kShape{0.55f, 0.95f, 0.55f, 0.9f};
constexpr Colour kBone{0.85f, 0.75f, 0.55f, 1.f};
constexpr Colour kGridMinor{0.5f, 0.5f, 0.55f, 0.25f};
constexpr Colour kGridMajor{0.6f, 0.6f, 0.65f, 0.5f};
constexpr Colour kGround{0.1f, 0.11f, 0.12f, 0.55f};
constexpr Colour kGizmoCentre{0.95f, 0.95f, 0.7f, 1.f};
constexpr Colour kGizmoActive{1.f, 0.9f, 0.2f, 1.f};
constexpr Colour kRubberBand{0.55f, 0.75f, 1.f, 0.9f};
constexpr Colour kRubberBandFill{0.55f, 0.75f, 1.f, 0.12f};

// Preview feedback (RigDrawBuilder::strainColour, docs/viewport.md "Preview")
constexpr Colour kStrainCompressed{0.15f, 0.3f, 1.f, 1.f}; ///< stickStrain <= −kStrainSaturation
constexpr Colour kStrainStretched{1.f, 0.9f, 0.1f, 1.f};   ///< halfway to saturation when stretched
constexpr Colour kStrainSaturated{1.f, 0.1f, 0.05f, 1.f};  ///< stickStrain >= +kStrainSaturation
constexpr Colour kTrackingGood{0.2f, 0.85f, 0.3f, 1.f};     ///< a driven part on its target (tracking 0)
constexpr Colour kTrackingTolerance{1.f, 0.85f, 0.1f, 1.f}; ///< at the tracking tolerance (1)
constexpr Colour kTrackingBad{1.f, 0.15f, 0.1f, 1.f};       ///< at kTrackingSaturation and beyond
constexpr Colour kViolation{1.f, 0.12f, 0.12f, 1.f};       ///< an angular constraint beyond its limit
constexpr Colour kContact{1.f, 0.7f, 0.1f, 1.f};           ///< contact dots
constexpr Colour kContactOutline{0.1f, 0.05f, 0.f, 1.f};
constexpr Colour kImpulse{1.f, 0.3f, 0.6f, 1.f};           ///< the hit tool's impulse arrows
constexpr Colour kStaticBox{0.6f, 0.6f, 0.62f, 1.f};       ///< static scene boxes, before shading
constexpr Colour kStaticBoxEdge{0.25f, 0.25f, 0.27f, 1.f};

} // namespace marionette::viewport::colours
