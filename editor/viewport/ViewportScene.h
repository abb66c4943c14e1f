// Marionette viewport — what the application hands the viewport to draw and pick (plain data).
//
// The viewport only reads a scene; the pointers are the caller's and must stay valid until the next
// Viewport::setScene() (or until the plain picking function returns). Elements are named by
// project::ElementRef (kind + stable id, the `id` fields of the rig's elements).
#pragma once

#include "marionette/Math.h"
#include "marionette/import/ImportedScene.h"
#include "marionette/project/Project.h"
#include "marionette/rig/RigDescription.h"

#include <QStringList>

#include <optional>
#include <vector>

namespace marionette::viewport {

/// A static box of the preview's test scene (stairs, ledge, a box to fall over): the box
/// pose.apply([−halfExtents, halfExtents]).
struct SceneBoxShape {
    Transform pose;
    Vec3 halfExtents{0.5f, 0.5f, 0.5f};
};

/// An arrow showing an impulse about to be (or just) applied: its tip at `point`, its shaft `length` metres
/// back along −direction, so it points into what is struck. Drawn over everything (a cleared depth buffer).
struct ImpulseArrow {
    Vec3 point;
    Vec3 direction{0.f, 0.f, -1.f}; ///< unit
    float length = 0.3f;            ///< metres, > 0
    float opacity = 1.f;            ///< [0, 1]: a hit just applied fades out
};

struct ViewportScene {
    /// The rig to draw; null = no rig.
    const rig::RigDescription* rig = nullptr;
    /// The bind-pose mesh; null = no mesh. Call Viewport::meshChanged() when it (or what it points to)
    /// changes so the GPU buffers are uploaded again.
    const import::ImportedScene* mesh = nullptr;
    /// Particle positions overriding the rig's bind positions (the preview's simulated state). Used only
    /// when it holds exactly one position per rig particle; empty = bind positions.
    std::vector<Vec3> particlePositions;
    /// Skinning palette: bonePalette[i] = boneWorld_i · inverseBind_i for bone i of the mesh skeleton (the
    /// rig's bones have the same order; runtime::Ragdoll::skinningMatrices gives exactly this). Empty =
    /// bind pose. Missing entries (fewer than the skeleton's bones) count as identity.
    std::vector<Mat4> bonePalette;
    std::vector<project::ElementRef> selection; ///< drawn highlighted
    std::vector<project::ElementRef> hidden;    ///< not drawn, not pickable
    std::vector<project::ElementRef> locked;    ///< drawn, not pickable
    std::optional<project::ElementRef> hovered; ///< drawn outlined

    // Preview feedback (docs/viewport.md "Preview"); every vector empty = not shown.

    /// One per rig stick (same order as rig->sticks) or empty: signed relative stretch beyond the stick's
    /// limits (0 = at rest / inside its limits, +0.1 = 10 % too long, −0.1 = 10 % too short). Sticks are
    /// coloured on a diverging ramp: blue when compressed, their normal colour near 0, yellow → red when
    /// stretched, saturating at ±kStrainSaturation. Used only when the size matches the rig's sticks.
    std::vector<float> stickStrain;
    /// One per angular constraint (same order as rig->angular) or empty: radians beyond the limit. The
    /// constraint's cone and twist arc are drawn red when above kViolationRadians.
    std::vector<float> angularViolation;
    /// Driven preview (powered ragdolls): one per rig triangle / rig stick (same order as rig->triangles,
    /// rig->sticks) or empty: how far the part is from its pose target, in units of the tracking tolerance
    /// (1 = at the tolerance, e.g. 3 cm or 5°); negative = not a driven part. A driven triangle's face and
    /// edges, and a driven stick, are coloured green (0) → yellow (1) → red (kTrackingSaturation and more),
    /// whatever else would colour them. Used only when the size matches the rig's triangles / sticks.
    std::vector<float> triangleTracking, stickTracking;
    /// Contact points, drawn as small bright dots of constant screen size on top of everything.
    std::vector<Vec3> contactPoints;
    /// Static scene geometry drawn as shaded grey boxes with edges (the ground plane is drawn anyway).
    std::vector<SceneBoxShape> staticBoxes;
    /// Text drawn in the viewport's top-left corner (white on a translucent dark box), one entry per line.
    QStringList overlayLines;
    /// The hit tool's arrows: where and which way the impulse goes (under the cursor, and a hit just made).
    std::vector<ImpulseArrow> impulseArrows;
    /// The point the view is about while previewing (the simulated body's centre): F frames what is shown
    /// about it (the simulated pose and the skinned mesh) and the view keys turn about it. nullopt = the
    /// selection (F) and the current target (view keys).
    std::optional<Vec3> focus;
};

/// |stickStrain| at which the strain colour saturates (15 %).
constexpr float kStrainSaturation = 0.15f;
/// Tracking error (ViewportScene::triangleTracking, in tolerances) at which the colour is fully red.
constexpr float kTrackingSaturation = 2.f;
/// angularViolation above which a constraint is drawn red (0.5°).
constexpr float kViolationRadians = 0.5f * 3.14159265358979f / 180.f;

} // namespace marionette::viewport
