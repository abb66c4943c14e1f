// Marionette — undo command: set the drive gains of a set of parts (triangles, sticks) in one profile, one
// gain or all of them (the Drive panel's table, one row or many). Each part gets an entry of its own (an
// override of the profile's defaults) holding the gains it had, with the edit. Consecutive changes of the
// same gain on the same parts of the same profile merge into one undo step, as ChangePropertyCommand's do.
//
// Symmetric editing needs nothing here: wrapped in a SymmetricEditCommand, the partners' entries follow
// (Symmetry.h withMirroredEdit repeats drive-part edits).
#pragma once

#include "marionette/editor/document/commands/DriveProfilesCommand.h"

#include <QVariant>

namespace marionette::editor {

class SetDrivePartsCommand : public DriveProfilesCommand {
  public:
    /// Sets gain `key` (DriveProfiles.h driveGainKeys()) to `value` on every part of `parts` (Triangle or
    /// Stick refs of the document's rig, at least one) in the profile with id `profile`. Refuses (null,
    /// `error` one line, nothing changed) an unknown profile, a ref that is not a triangle or stick of the rig,
    /// an unknown key and a value setDriveGain() refuses. The caller pushes the command.
    static SetDrivePartsCommand* create(Document* document, rig::ElementId profile, std::vector<ElementRef> parts,
                                        const QString& key, const QVariant& value, QString& error);
    /// Sets all the gains of every part to `gains` (each field checked). Never merges.
    static SetDrivePartsCommand* create(Document* document, rig::ElementId profile, std::vector<ElementRef> parts,
                                        const rig::DriveGains& gains, QString& error);

    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

  private:
    SetDrivePartsCommand(Document* document, rig::ElementId profile, std::vector<ElementRef> parts, const QString& key);
    /// Gives each part its entry, `edit` applied to its gains.
    template <class Edit> void apply(const Edit& edit);

    std::vector<ElementRef> mParts;
    QString mKey; ///< the gain edited; empty = all of them
};

/// Checks a drive profile id and a set of parts for the drive-part commands: false with `error` when the
/// profile is unknown, `parts` is empty, or a ref is not a triangle or stick of `rig`.
bool checkDriveParts(const rig::RigDescription& rig, rig::ElementId profile, const std::vector<ElementRef>& parts,
                     QString& error);

} // namespace marionette::editor
