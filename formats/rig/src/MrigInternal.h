// Internal helpers of the .mrig reader and writer: message building, checked arithmetic, the table of
// chunks this version knows, and the structural parser shared by MrigView and readMrigInfo.
#pragma once

#include "marionette/rig/MrigFormat.h"
#include "marionette/rig/MrigView.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace marionette::rig::detail {

/// Builds one-line messages by appending (std::string operator+ chains trip GCC 12's -Wrestrict).
class Msg {
public:
    Msg& operator<<(std::string_view s)
    {
        mText.append(s);
        return *this;
    }
    Msg& operator<<(const char* s) { return *this << std::string_view(s); }
    Msg& operator<<(const std::string& s) { return *this << std::string_view(s); }
    Msg& operator<<(char c)
    {
        mText.push_back(c);
        return *this;
    }
    // Numbers in their shortest round-trip form (std::to_chars). Out of line: inlined appends of
    // to_chars buffers trip GCC 12's -Wrestrict.
    Msg& operator<<(int value);
    Msg& operator<<(unsigned value);
    Msg& operator<<(long value);
    Msg& operator<<(unsigned long value);
    Msg& operator<<(long long value);
    Msg& operator<<(unsigned long long value);
    Msg& operator<<(float value);
    Msg& operator<<(double value);
    /// Appends `value` as 0x followed by 8 hex digits.
    Msg& hex(std::uint32_t value);
    const std::string& str() const { return mText; }

private:
    std::string mText;
};

/// Sets *error (when not null) and returns false, so failures read `return fail(error, Msg() << ...);`.
bool fail(std::string* error, const Msg& message);

/// a + b, false on overflow.
inline bool checkedAdd(std::uint64_t a, std::uint64_t b, std::uint64_t& out)
{
    if (a > UINT64_MAX - b)
        return false;
    out = a + b;
    return true;
}
/// a × b, false on overflow.
inline bool checkedMul(std::uint64_t a, std::uint64_t b, std::uint64_t& out)
{
    if (a != 0 && b > UINT64_MAX / a)
        return false;
    out = a * b;
    return true;
}

/// The chunk tag as text: its four characters when printable ASCII, else \xNN escapes.
std::string tagName(std::uint32_t tag);

/// The chunks format 1.x defines, in the order the writer writes them.
enum ChunkId : int {
    kRigChunk, kSettingsChunk, kParticlesChunk, kSticksChunk, kAnglesChunk, kTrianglesChunk, kAngularChunk,
    kPinsChunk, kShapesChunk, kBonesChunk, kBindingsChunk, kStringsChunk,
    kSolverChunk, kAngularFrictionChunk, kPinStiffnessChunk, kBendDampingChunk,
    kDriveProfilesChunk, kDrivePartsChunk, kKnownChunkCount
};

struct KnownChunk {
    std::uint32_t tag;
    std::uint32_t recordSize; ///< size of the record in the format version that introduced the chunk
    bool required;            ///< a file without it is refused
    bool single;              ///< exactly one record
    const char* what;         ///< plural noun used in messages ("particles")
    const char* since;        ///< the format version that introduced the chunk ("1.0")
};
extern const KnownChunk kKnownChunks[kKnownChunkCount];

/// Header, chunk table and where each known chunk lies, after structural validation.
struct Structure {
    struct Slot {
        bool present = false;
        std::uint32_t tableIndex = 0;
        std::uint64_t offset = 0;
        std::uint32_t count = 0;
        std::uint32_t recordSize = 0;
    };
    MrigInfo info;
    std::uint64_t tableEnd = 0;
    std::vector<mrig::ChunkEntry> entries; ///< the known 32-byte prefix of every table entry
    Slot slots[kKnownChunkCount];
};

/// Checks the header and the chunk table of `bytes` (FORMAT.md §7 steps 1–4): magic, version, header
/// checksum, file size, flags, table bounds and checksum, every entry's alignment and bounds, overlaps,
/// and the known chunks' record sizes, counts, duplicates and presence. Reads nothing outside `bytes`.
bool parseStructure(std::span<const std::byte> bytes, Structure& out, std::string* error);

/// Checks the payloads (steps 5–6): padding bytes zero and every chunk's checksum.
bool verifyPayloads(std::span<const std::byte> bytes, const Structure& s, std::string* error);

/// Moves the records of chunks written with a larger record size (newer minor version) down so they are
/// packed at this version's size. `bytes` must be the buffer that was parsed into `s`; updates `s`.
void repackRecords(std::span<std::byte> bytes, Structure& s);

/// Typed records of a packed, aligned buffer (FORMAT.md §6), checked by validateRecords().
struct RecordSpans {
    std::string_view strings;
    const mrig::RigRecord* rig = nullptr;           ///< null when NAME is absent
    const mrig::SettingsRecord* settings = nullptr; ///< never null after parseStructure
    std::span<const mrig::ParticleRecord> particles;
    std::span<const mrig::StickRecord> sticks;
    std::span<const mrig::AngleRecord> angles;
    std::span<const mrig::TriangleRecord> triangles;
    std::span<const mrig::AngularRecord> angular;
    std::span<const mrig::PinRecord> pins;
    std::span<const mrig::ShapeRecord> shapes;
    std::span<const mrig::BoneRecord> bones;
    std::span<const mrig::BindingRecord> bindings;
    const mrig::SolverRecord* solver = nullptr;    ///< null in a format 1.0 file
    std::span<const mrig::AngularFrictionRecord> angularFriction; ///< empty in 1.0, else one per angular
    std::span<const mrig::PinStiffnessRecord> pinStiffness;       ///< empty in 1.0, else one per pin
    std::span<const mrig::BendDampingRecord> bendDamping;         ///< empty before 1.2, else one per angle
    bool hasAngularFriction = false; ///< ANGF is present (possibly empty): its count must match ANGU's
    bool hasPinStiffness = false;    ///< PINF is present (possibly empty): its count must match PINS's
    bool hasBendDamping = false;     ///< BNDD is present (possibly empty): its count must match ANGL's
    std::span<const mrig::DriveProfileRecord> driveProfiles; ///< empty before 1.3
    std::span<const mrig::DrivePartRecord> driveParts;       ///< empty before 1.3; owned by the profiles
};

/// Points `out` at the records of a 16-byte-aligned, repacked buffer described by `s`.
void mapRecords(const std::byte* aligned, const Structure& s, RecordSpans& out);

/// Every record check of FORMAT.md §6: string references, indices, finite floats, signs, enums,
/// booleans, degenerate triangles and tetrahedra, bone order.
bool validateRecords(const RecordSpans& r, std::string* error);

/// A DRVP or DRPT record's gains as the description holds them (kinematic is a checked 0 or 1), and back.
inline DriveGains driveGains(const mrig::DriveGainsRecord& r)
{
    return {r.motorFrequency, r.motorDamping, r.maxTorque, r.pinFrequency, r.pinDamping, r.maxForce, r.kinematic != 0};
}
inline mrig::DriveGainsRecord driveGainsRecord(const DriveGains& g)
{
    return {g.motorFrequency, g.motorDamping, g.maxTorque, g.pinFrequency, g.pinDamping, g.maxForce,
            g.kinematic ? 1u : 0u};
}

/// Reads the whole regular file at `path` with one read into the memory `allocate(size)` returns (not
/// called for an empty file). Refuses files above mrig::kMaxFileSize before allocating. Messages do not
/// name the path.
bool readWholeFile(const std::string& path, const std::function<std::byte*(std::size_t)>& allocate, std::size_t& size,
                   std::string* error);

/// Prefixes *error with "path: " (when error is not null).
void prefixPath(const std::string& path, std::string* error);

} // namespace marionette::rig::detail
