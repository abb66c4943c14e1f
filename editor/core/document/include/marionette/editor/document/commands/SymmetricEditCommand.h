// Marionette — undo command: an edit repeated on the other side of the mirror plane (Edit ▸ Symmetry), as one
// step. It wraps the edit's own command: the edit runs, then withMirroredEdit() (Symmetry.h) repeats it on
// the partners; undo puts back the rig from before both. Consecutive steps of one drag merge as the wrapped
// commands do (a particle drag, a limit gizmo drag), so a whole drag is one step on both sides.
#pragma once

#include "marionette/editor/document/Document.h"
#include "marionette/editor/document/Symmetry.h"

#include <QUndoCommand>

#include <memory>

namespace marionette::editor {

class SymmetricEditCommand : public QUndoCommand {
  public:
    /// `edit` (taken over) is the edit on one side; `pairs` the mirror pairs of the document's rig now.
    SymmetricEditCommand(Document* document, QUndoCommand* edit, MirrorMap pairs, const project::SymmetrySettings& symmetry,
        MirrorNamer namer);
    ~SymmetricEditCommand() override;

    void redo() override;
    void undo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

    /// Whether the last redo() changed anything on the other side.
    bool mirrored() const { return mMirrored; }

  private:
    void apply(const rig::RigDescription& target, const std::vector<project::ElementView>* views);

    Document* mDocument;
    std::unique_ptr<QUndoCommand> mEdit;
    MirrorMap mPairs;
    MirrorPlane mPlane;
    float mTolerance;
    MirrorNamer mNamer;
    rig::RigDescription mBefore, mAfter;
    std::vector<project::ElementView> mViewsBefore;
    bool mDone = false;     ///< redo() ran once
    bool mMirrored = false; ///< the other side changed: undo/redo swap whole rigs, not the edit's own
};

} // namespace marionette::editor
