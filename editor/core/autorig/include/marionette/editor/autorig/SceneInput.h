// Marionette — from an imported scene (formats/import) to the auto-rig's input.
#pragma once

#include "marionette/editor/autorig/AutoRig.h"
#include "marionette/import/ImportedScene.h"

namespace marionette::editor {

/// The auto-rig's input for `scene`: its skeleton, and every vertex of every mesh given to the bone that
/// weighs most on it (a mesh without a skin that hangs under a bone gives its vertices to that bone).
/// `requested` and `totalMass` as in AutoRigInput; the rig is named after the source file.
AutoRigInput autoRigInputFromScene(const import::ImportedScene& scene, RigTemplate requested = RigTemplate::Auto,
                                   float totalMass = 75.f);

} // namespace marionette::editor
