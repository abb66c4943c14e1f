// Marionette viewport — what to draw (the View menu's toggles). Layers switched off are neither drawn
// nor pickable through the Viewport's pick helpers.
#pragma once

namespace marionette::viewport {

struct DisplayOptions {
    float meshOpacity = 1.f; ///< [0, 1]; 0 hides the mesh, < 1 blends it over the rig
    bool xray = false;       ///< draw the rig a second time on top of everything, dimmed
    bool showMesh = true;
    bool showSkeleton = true;
    bool showParticles = true;
    bool showSticks = true;
    bool showTriangles = true;
    bool showAngular = true;
    bool showShapes = true; ///< boxes and stick capsules
    bool showGrid = true;
    bool showGround = true;
    /// Particle drawing: the sphere drawn is particleSize × the collision radius (a marker that leaves the
    /// mesh visible at 0.25), at particleOpacity. Picking still uses the full sphere.
    float particleSize = 1.f;    ///< (0, 1]
    float particleOpacity = 1.f; ///< (0, 1]
    bool bonesAsLines = false;   ///< bones as thin lines from head to tail instead of octahedra

    bool operator==(const DisplayOptions&) const = default;
};

} // namespace marionette::viewport
