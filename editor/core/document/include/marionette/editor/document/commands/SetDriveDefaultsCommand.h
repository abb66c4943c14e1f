// Marionette — undo command: set a drive profile's defaults (the gains of every part it does not list), one
// gain or all of them. Consecutive changes of the same gain of the same profile merge into one undo step, as
// ChangePropertyCommand's do, so dragging a spin box is one step.
#pragma once

#include "marionette/editor/document/commands/DriveProfilesCommand.h"

#include <QVariant>

namespace marionette::editor {

class SetDriveDefaultsCommand : public DriveProfilesCommand {
  public:
    /// Sets gain `key` (DriveProfiles.h driveGainKeys()) of the defaults of the profile with id `profile` to
    /// `value`. Refuses (null, `error` one line) an unknown id or key and a value setDriveGain() refuses (NaN,
    /// out of its kDriveGainFields range, not a number). The caller pushes the command.
    static SetDriveDefaultsCommand* create(Document* document, rig::ElementId profile, const QString& key,
                                           const QVariant& value, QString& error);
    /// Sets all the defaults to `gains` (each field checked as above). Never merges.
    static SetDriveDefaultsCommand* create(Document* document, rig::ElementId profile, const rig::DriveGains& gains,
                                           QString& error);

    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

  private:
    SetDriveDefaultsCommand(Document* document, rig::ElementId profile, const QString& key);

    QString mKey; ///< the gain edited; empty = all of them
};

} // namespace marionette::editor
