// Marionette — a validated, zero-copy view of a `.mrig` file (FORMAT.md).
//
// MrigView copies the file into ONE 16-byte-aligned buffer that it owns (one read from disk, or one
// memcpy from memory), checks everything FORMAT.md §5 lists, and then hands out typed spans of the records
// in that buffer: no per-element parsing, no further allocation. A view that failed to open is empty.
#pragma once

#include "marionette/rig/MrigFormat.h"
#include "marionette/rig/RigDescription.h"
#include "marionette/rig/Validation.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace marionette::rig {

/// What a `.mrig` file holds, from its header and chunk table (FORMAT.md §2–3). Cheap: see readMrigInfo().
struct MrigInfo {
    std::uint16_t versionMajor = 0;
    std::uint16_t versionMinor = 0;
    std::uint32_t flags = 0;
    std::uint64_t fileSize = 0;
    std::uint32_t chunkCount = 0;    ///< entries in the chunk table, known and unknown
    std::uint32_t unknownChunks = 0; ///< entries this build skips (from a newer minor version)
    std::uint64_t stringBytes = 0;   ///< size of the string table
    std::uint32_t particles = 0;
    std::uint32_t sticks = 0;
    std::uint32_t angles = 0;
    std::uint32_t triangles = 0;
    std::uint32_t angular = 0;
    std::uint32_t pins = 0;
    std::uint32_t shapes = 0;
    std::uint32_t bones = 0;
    std::uint32_t bindings = 0;
    std::uint32_t driveProfiles = 0; ///< 0 in a file before 1.3
};

class MrigView {
public:
    MrigView() = default;
    /// Moving keeps the spans valid (they point into the buffer, which moves along); the source is empty.
    MrigView(MrigView&& other) noexcept;
    MrigView& operator=(MrigView&& other) noexcept;
    MrigView(const MrigView&) = delete;
    MrigView& operator=(const MrigView&) = delete;

    /// Copies `bytes` (any alignment) into the view's aligned buffer and validates it. Returns false,
    /// leaves the view empty and sets *error (when not null) to a one-line message naming the chunk and
    /// field, e.g. `STCK[12].particleB: index 40 out of range (31 particles)`. Never reads outside
    /// `bytes`; allocates at most bytes.size() rounded up to 16 (files above mrig::kMaxFileSize are refused
    /// before allocating).
    bool open(std::span<const std::byte> bytes, std::string* error);

    /// Reads the file at `path` with one read into the buffer and validates it, as open(). Error messages
    /// start with `path: `.
    bool load(const std::string& path, std::string* error);

    /// Empties the view and frees its buffer.
    void reset();

    bool isOpen() const { return mSize != 0; }

    /// Header and chunk counts of the open file (all zero when empty).
    const MrigInfo& info() const { return mInfo; }

    // Typed spans into the buffer, valid until reset(), the next open()/load() or destruction (moving
    // the view keeps them valid). Empty when the view is empty or the file has no such chunk. Records
    // from a newer minor version with a larger record size are repacked to the size this build knows.
    std::span<const mrig::ParticleRecord> particles() const { return mParticles; }
    std::span<const mrig::StickRecord> sticks() const { return mSticks; }
    std::span<const mrig::AngleRecord> angles() const { return mAngles; }
    std::span<const mrig::TriangleRecord> triangles() const { return mTriangles; }
    std::span<const mrig::AngularRecord> angular() const { return mAngular; }
    std::span<const mrig::PinRecord> pins() const { return mPins; }
    std::span<const mrig::ShapeRecord> shapes() const { return mShapes; }
    std::span<const mrig::BoneRecord> bones() const { return mBones; }
    std::span<const mrig::BindingRecord> bindings() const { return mBindings; }
    /// The settings record; all zero when the view is empty.
    const mrig::SettingsRecord& settings() const { return mSettings ? *mSettings : kNoSettings; }
    /// Format 1.1's solver schedule and rates; null in a 1.0 file (whose SETT holds per-step values).
    const mrig::SolverRecord* solver() const { return mSolver; }
    /// Format 1.1's angular friction rates, one per angular constraint; empty in a 1.0 file.
    std::span<const mrig::AngularFrictionRecord> angularFriction() const { return mAngularFriction; }
    /// Format 1.1's pin stiffness per 1/60 s, one per pin; empty in a 1.0 file.
    std::span<const mrig::PinStiffnessRecord> pinStiffness() const { return mPinStiffness; }
    /// Format 1.2's bend damping, one per angle constraint; empty in a 1.0 or 1.1 file (damping 0).
    std::span<const mrig::BendDampingRecord> bendDamping() const { return mBendDamping; }
    /// Format 1.3's drive profiles; empty in an older file (no profiles).
    std::span<const mrig::DriveProfileRecord> driveProfiles() const { return mDriveProfiles; }
    /// Format 1.3's drive parts: profile p's are driveParts().subspan(p.firstPart, p.partCount).
    std::span<const mrig::DrivePartRecord> driveParts() const { return mDriveParts; }
    /// The string table bytes.
    std::string_view strings() const { return mStrings; }
    /// The bytes of a string reference; "" when it lies outside the table (never for a validated record).
    std::string_view string(mrig::StringRef ref) const;
    /// The rig's name (the NAME chunk), "" when absent.
    std::string_view rigName() const { return mRigName; }

    /// Builds the editable description from the records, then runs RigDescription::validate(). A format 1.0
    /// file's per-step settings become the rates and the one-substep schedule that behave the same
    /// (rig::migrateLegacySettings, migrateLegacyAngularFriction, migrateLegacyPinStiffness); a file without
    /// BNDD (1.0 or 1.1) gives every angle constraint damping 0, one without DRVP (1.0 to 1.2) has no drive
    /// profiles. On failure returns false with *error set to validate()'s message; `out` is then unspecified.
    bool toDescription(RigDescription& out, std::string* error) const;
    /// toDescription() returning the proof that `out` passed validation (rig::validated(); it refers to
    /// `out`), for a caller that goes on to build or write it without validating again; nullopt on failure.
    std::optional<Validated> toValidatedDescription(RigDescription& out, std::string* error) const;

private:
    struct AlignedDelete {
        void operator()(std::byte* p) const { ::operator delete[](p, std::align_val_t{mrig::kChunkAlignment}); }
    };
    bool adopt(std::unique_ptr<std::byte[], AlignedDelete> buffer, std::size_t size, std::string* error);
    friend struct MrigViewAccess;

    static const mrig::SettingsRecord kNoSettings;

    std::unique_ptr<std::byte[], AlignedDelete> mBuffer;
    std::size_t mSize = 0;
    MrigInfo mInfo;
    const mrig::SettingsRecord* mSettings = nullptr;
    std::string_view mStrings;
    std::string_view mRigName;
    std::span<const mrig::ParticleRecord> mParticles;
    std::span<const mrig::StickRecord> mSticks;
    std::span<const mrig::AngleRecord> mAngles;
    std::span<const mrig::TriangleRecord> mTriangles;
    std::span<const mrig::AngularRecord> mAngular;
    std::span<const mrig::PinRecord> mPins;
    std::span<const mrig::ShapeRecord> mShapes;
    std::span<const mrig::BoneRecord> mBones;
    std::span<const mrig::BindingRecord> mBindings;
    const mrig::SolverRecord* mSolver = nullptr;
    std::span<const mrig::AngularFrictionRecord> mAngularFriction;
    std::span<const mrig::PinStiffnessRecord> mPinStiffness;
    std::span<const mrig::BendDampingRecord> mBendDamping;
    std::span<const mrig::DriveProfileRecord> mDriveProfiles;
    std::span<const mrig::DrivePartRecord> mDriveParts;
};

} // namespace marionette::rig
