// Writes a rig::RigDescription as the text of a self-contained C/C++ header (docs/plugins/c-header-export.md).
// Plain C++: no Qt, so the layout logic can be read on its own.
#pragma once

#include "marionette/rig/RigDescription.h"

#include <string>

namespace marionette::plugins {

/// `name` made a C identifier: characters other than [A-Za-z0-9_] become '_', runs of '_' collapse, and a
/// name that is empty or starts with a digit gets "rig_" in front. "hero-rig.v2" -> "hero_rig_v2".
std::string cIdentifier(const std::string& name);

/// `text` as the body of a C string literal: quotes, backslashes, control and non-ASCII bytes as octal
/// escapes (UTF-8 names come out byte for byte).
std::string cString(const std::string& text);

class CHeaderWriter {
public:
    /// `rig` must outlive the writer; `prefix` is a C identifier (see cIdentifier()) that starts every
    /// array, macro and the guard.
    CHeaderWriter(const rig::RigDescription& rig, std::string prefix);

    /// Provenance for the comment at the top: the source file name and the generating tool; both optional.
    void setSource(std::string sourceFile, std::string generator);

    /// The whole header. Returns false with `error` naming the element ("particles[3] 'hip': a number is
    /// not finite") when a float cannot be written as a C literal; `out` is then incomplete.
    bool write(std::string& out, std::string& error);

private:
    void writeArrays();
    /// The drive parts of every profile in one array (prefix_driveParts), then the profiles pointing into it.
    void writeDriveProfiles();
    void writeRig();
    /// A float literal ("0.1f", "-2.0f", "1e-07f"); records an error for a non-finite value.
    std::string f(float v);
    std::string vec(Vec3 v);
    std::string quat(Quat q);
    std::string mat(const Mat4& m);
    /// A MarionetteDriveGains initializer: the rig::kDriveGainFields floats in table order, then kinematic.
    std::string gains(const rig::DriveGains& g);
    /// Starts an array of `count` elements named prefix_<what>; false (and nothing written) when empty.
    bool begin(const char* type, const char* what, std::size_t count);
    void element(std::size_t i, const std::string& name, const std::string& fields);
    std::string pointer(const char* what, std::size_t count) const;

    const rig::RigDescription& mRig;
    std::string mPrefix, mMacro;
    std::string mSource, mGenerator;
    std::string mOut;
    std::string mContext; ///< the element being written, for errors
    std::string mError;
};

} // namespace marionette::plugins
