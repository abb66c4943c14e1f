// Marionette — how a project refers to its mesh, shared by the editor and the command line: the import
// settings a project records for an imported scene, and the import options that reproduce that scene
// when the project is opened again.
#pragma once

#include "marionette/import/Import.h"
#include "marionette/project/Project.h"

namespace marionette::editor {

/// What the importer applied (unit scale, up axis, format) as the project records it.
project::ImportSettings importSettingsFrom(const import::ImportConversion& conversion);

/// Options that import the source mesh exactly as recorded: the scale and up axis are given explicitly,
/// so a file whose declarations changed still comes in as the rig was built on.
import::ImportOptions importOptionsFor(const project::ImportSettings& settings);

} // namespace marionette::editor
