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

    bool operator==(const DisplayOptions&) const = default;
};

} // namespace marionette::viewport
