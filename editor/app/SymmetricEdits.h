// Marionette — symmetric editing in the editor (Edit ▸ Symmetry): every edit goes through pushEdit(), which,
// with symmetry on, wraps it so it is repeated on the other side of the mirror plane as one undo step.
#pragma once

#include "marionette/editor/document/Document.h"
#include "marionette/editor/document/Symmetry.h"

class QUndoCommand;

namespace marionette::app {

/// The document's mirror pairs for its symmetry settings: particles by their names' sides (every scheme the
/// auto-rig knows), else by mirrored positions.
editor::MirrorMap mirrorPairs(const editor::Document& document);

/// Names a mirrored element for the other side ("elbow_l" -> "elbow_r").
editor::MirrorNamer mirrorNamer();

/// Pushes `edit` on the document's undo stack; with symmetry on, wrapped in a SymmetricEditCommand.
void pushEdit(editor::Document* document, QUndoCommand* edit);

/// The name of the left or right side of the plane for the document ("left" is the side where particles
/// named left are; +axis when no name says).
editor::MirrorSource leftSide(const editor::Document& document);

} // namespace marionette::app
