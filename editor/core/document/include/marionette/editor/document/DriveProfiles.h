// Marionette — drive profiles (powered ragdolls: rig::DriveProfile, docs/physics.md "Drives") as the editor
// edits them: the parts a profile can drive, profiles found by id, one gain read or written by its key with
// its range checked (rig::kDriveGainFields), the profiles' own validation findings. Pure functions on a
// rig::RigDescription; the undo commands (commands/*DriveProfile*, *DriveParts*, SetDriveDefaultsCommand) and
// the editor's Drive panel build on them.
//
// The editor names a part by its element (ElementRef of kind Triangle or Stick, stable across edits); the rig
// stores it as a rig::DrivePart (kind and index). A profile is named by its id (rig::DriveProfile::id).
#pragma once

#include "marionette/editor/document/RigEdit.h"

#include <QString>
#include <QStringList>
#include <QVariant>

#include <optional>
#include <vector>

namespace marionette::editor {

/// The parts drives act on, in runtime::Rig::driveParts() order: every triangle, then every stick that a
/// stick binding drives or that a profile lists (the runtime's rule, here for rigs that may not build yet).
/// Bindings and parts whose index is out of range are skipped.
std::vector<ElementRef> driveParts(const rig::RigDescription& rig);

/// ElementKind::Triangle or Stick for a part kind, and back (false for any other element kind).
ElementKind elementKindOf(rig::DrivePartKind kind);
bool drivePartKindOf(ElementKind kind, rig::DrivePartKind& out);

/// Index in rig.driveProfiles of the profile with id `id`, or rig::kNone (also for id 0).
std::int32_t driveProfileIndex(const rig::RigDescription& rig, rig::ElementId id);
/// Index of the profile named `name`, or rig::kNone.
std::int32_t driveProfileNamed(const rig::RigDescription& rig, const QString& name);
/// A fresh profile id: one more than the largest in use (1 when there are none).
rig::ElementId nextDriveProfileId(const rig::RigDescription& rig);
/// `base` when no profile has that name, else "<base> 2", "<base> 3" ... (`base` empty: "profile").
QString uniqueDriveProfileName(const rig::RigDescription& rig, const QString& base);
/// Gives every profile whose id is 0 or repeats an earlier one a fresh id (the project format allows ids to
/// be missing; the editor's commands name profiles by id). Returns how many it gave.
std::size_t assignDriveProfileIds(rig::RigDescription& rig);

/// The drive profiles of `from` carried onto `onto`, a rig rebuilt for the same character (the auto-rig run
/// again, a transferred rig): each of `from`'s profiles replaces `onto`'s of the same name or is added, its parts
/// matched to `onto`'s triangles and sticks by name (parts whose element `onto` lacks are dropped, and
/// returned as "profile: element" for the log); `onto`'s other profiles stay. Ids are left as they were:
/// assignDriveProfileIds() then gives a repeated or missing one a fresh id.
std::vector<std::string> carryDriveProfiles(const rig::RigDescription& from, rig::RigDescription& onto);

/// A part's entry in a profile (its overrides), or null when the part takes the profile's defaults.
/// `part` is a Triangle or Stick ref of `rig`.
const rig::DrivePart* findDrivePart(const rig::RigDescription& rig, const rig::DriveProfile& profile, ElementRef part);
/// The gains `part` gets under `profile`: its entry, else the defaults.
rig::DriveGains driveGainsOf(const rig::RigDescription& rig, const rig::DriveProfile& profile, ElementRef part);

/// A part's entry in a profile: its own gains, or nullopt when it takes the defaults (or is not a part).
std::optional<rig::DriveGains> driveEntry(const rig::RigDescription& rig, const rig::DriveProfile& profile,
                                          ElementRef part);
/// Gives `part` (a triangle or stick of `rig`) the entry `gains` in `profile` (appended when it has none), or
/// with nullopt removes its entry. Does nothing for a ref that is not a triangle or stick of `rig`.
void setDriveEntry(const rig::RigDescription& rig, rig::DriveProfile& profile, ElementRef part,
                   const std::optional<rig::DriveGains>& gains);
/// The parts `profile` lists, as refs (entries whose index is out of range skipped), in its order.
std::vector<ElementRef> listedDriveParts(const rig::RigDescription& rig, const rig::DriveProfile& profile);

/// The keys of the gains, in table order: rig::kDriveGainFields' names, then "kinematic".
QStringList driveGainKeys();
/// Words for a key in the editor ("Motor Hz", "Max torque (N·m)" ...); the key itself when unknown.
QString driveGainLabel(const QString& key);
/// The gain `key` of `gains`: a double for the numeric fields, a bool for "kinematic"; invalid for an
/// unknown key.
QVariant driveGain(const rig::DriveGains& gains, const QString& key);
/// Sets gain `key` of `gains` to `value`. Refuses (false, `error` one line, `gains` unchanged) an unknown
/// key, a value that is not a number (or a bool for "kinematic"), NaN, or outside [0, max] of its field.
bool setDriveGain(rig::DriveGains& gains, const QString& key, const QVariant& value, QString& error);
/// Checks every field of `gains` against its range; false with `error` naming the first bad field.
bool checkDriveGains(const rig::DriveGains& gains, QString& error);

/// Whether two lists of profiles are the same: names, ids, defaults and parts (in order) alike.
bool sameDriveProfiles(const std::vector<rig::DriveProfile>& a, const std::vector<rig::DriveProfile>& b);

/// The rig validation's findings about drive profiles (the validation list leaves them to the Drive
/// panel): one line each, with the profile's index.
struct DriveProfileFinding {
    std::int32_t profile = rig::kNone; ///< index in rig.driveProfiles
    QString message;
};
std::vector<DriveProfileFinding> driveProfileFindings(const rig::RigDescription& rig);

} // namespace marionette::editor
