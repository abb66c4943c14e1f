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

#include <optional>
#include <vector>

namespace marionette::viewport {

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
};

} // namespace marionette::viewport
