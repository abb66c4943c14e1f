// Marionette — one problem found in a rig description, as a typed record.
//
// RigDescription::findings() reports every problem it finds as a Finding: which element (kind and index
// in its vector), which field, how bad, and the one-line message. Callers that need the element (the
// editor selects it, the project loader names its JSON path) read the kind and index; nobody parses the
// message back.
#pragma once

#include <cstdint>
#include <string>

namespace marionette::rig {

/// The kinds of rig element a finding can name. The first nine are RigDescription's element vectors in
/// declaration order (the editor's project::ElementKind has the same order); Settings is
/// RigDescription::settings; Rig is the description as a whole (e.g. "the rig has no particles");
/// DriveProfile is RigDescription::driveProfiles.
enum class ElementKind : std::uint8_t {
    Particle, Stick, Angle, Triangle, Angular, Pin, Shape, Bone, Binding, Settings, Rig,
    DriveProfile, ///< RigDescription::driveProfiles (added after the others, so their values stay)
};

/// Name of the RigDescription member a kind lives in, as messages spell it: "particles", "sticks",
/// "angles", "triangles", "angular", "pins", "shapes", "bones", "bindings", "settings", "driveProfiles";
/// "rig" for Rig.
const char* sectionName(ElementKind kind);

enum class Severity : std::uint8_t {
    Error = 0,   ///< the rig is unusable: validate() fails, writeMrig() refuses it, Rig::build() refuses it
    Warning = 1, ///< the rig loads and builds but will likely misbehave (RigDescription reports none itself)
};

/// One problem of a rig description.
struct Finding {
    ElementKind kind = ElementKind::Rig;
    /// Position of the element in its vector (RigDescription::particles, sticks, ...); -1 for Settings and
    /// Rig. Always in range for its vector when not -1.
    std::int32_t index = -1;
    /// The member at fault, spelled as in RigDescription ("b", "minLength", "p[1]", "local.rotation",
    /// "timeStep"); empty when the element as a whole is at fault (a degenerate triangle).
    std::string field;
    Severity severity = Severity::Error;
    /// One line naming the element, e.g. `sticks[12] 'l_forearm': particle b index 40 out of range (31
    /// particles)` (what RigDescription::validate() returns for the first error).
    std::string message;
};

} // namespace marionette::rig
