// Marionette — undo command: replace many elements in place with new values in one step (masses from the mesh,
// masses rescaled to keep the rig's total, masks from the collision-group matrix). References and ids are
// unchanged; only the values differ.
#pragma once

#include "marionette/editor/document/Document.h"

#include <QUndoCommand>

namespace marionette::editor {

class ReplaceElementsCommand : public QUndoCommand {
  public:
    /// Each element of `values` replaces the document's element of the same kind and id (an element the rig
    /// does not have is skipped). The old values are read here, so push it right after building it.
    ReplaceElementsCommand(Document* document, std::vector<AnyElement> values, const QString& text,
        QUndoCommand* parent = nullptr);

    void redo() override;
    void undo() override;

  private:
    Document* mDocument;
    std::vector<AnyElement> mNew, mOld;
};

/// The particles of `rig` with their masses set to `masses` (one per particle): the values for
/// ReplaceElementsCommand, only those that change.
std::vector<AnyElement> particlesWithMasses(const rig::RigDescription& rig, const std::vector<float>& masses);

} // namespace marionette::editor
