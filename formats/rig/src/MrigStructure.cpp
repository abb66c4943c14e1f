// Structural validation of a .mrig file: header, chunk table, chunk bounds, padding and checksums
// (FORMAT.md §7 steps 1–6), and the repacking of records from a newer minor version.
#include "MrigInternal.h"

#include "marionette/rig/Crc32c.h"

#include <algorithm>
#include <charconv>
#include <cstring>

namespace marionette::rig::detail {

using namespace mrig;

const KnownChunk kKnownChunks[kKnownChunkCount] = {
    {kTagRig, sizeof(RigRecord), false, true, "rig records", "1.0"},
    {kTagSettings, sizeof(SettingsRecord), true, true, "settings records", "1.0"},
    {kTagParticles, sizeof(ParticleRecord), true, false, "particles", "1.0"},
    {kTagSticks, sizeof(StickRecord), false, false, "sticks", "1.0"},
    {kTagAngles, sizeof(AngleRecord), false, false, "angle constraints", "1.0"},
    {kTagTriangles, sizeof(TriangleRecord), false, false, "triangles", "1.0"},
    {kTagAngular, sizeof(AngularRecord), false, false, "angular constraints", "1.0"},
    {kTagPins, sizeof(PinRecord), false, false, "pins", "1.0"},
    {kTagShapes, sizeof(ShapeRecord), false, false, "shapes", "1.0"},
    {kTagBones, sizeof(BoneRecord), false, false, "bones", "1.0"},
    {kTagBindings, sizeof(BindingRecord), false, false, "bone bindings", "1.0"},
    {kTagStrings, 1, false, false, "string bytes", "1.0"},
    {kTagSolver, sizeof(SolverRecord), false, true, "solver records", "1.1"},
    {kTagAngularFriction, sizeof(AngularFrictionRecord), false, false, "angular friction records", "1.1"},
    {kTagPinStiffness, sizeof(PinStiffnessRecord), false, false, "pin stiffness records", "1.1"},
    {kTagBendDamping, sizeof(BendDampingRecord), false, false, "bend damping records", "1.2"},
    {kTagDriveProfiles, sizeof(DriveProfileRecord), false, false, "drive profiles", "1.3"},
    {kTagDriveParts, sizeof(DrivePartRecord), false, false, "drive parts", "1.3"},
};

namespace {
template <typename T>
void appendNumber(std::string& text, T value)
{
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, value);
    text.append(buf, static_cast<std::size_t>(r.ptr - buf));
}
} // namespace

// clang-format off
Msg& Msg::operator<<(int v) { appendNumber(mText, v); return *this; }
Msg& Msg::operator<<(unsigned v) { appendNumber(mText, v); return *this; }
Msg& Msg::operator<<(long v) { appendNumber(mText, v); return *this; }
Msg& Msg::operator<<(unsigned long v) { appendNumber(mText, v); return *this; }
Msg& Msg::operator<<(long long v) { appendNumber(mText, v); return *this; }
Msg& Msg::operator<<(unsigned long long v) { appendNumber(mText, v); return *this; }
Msg& Msg::operator<<(float v) { appendNumber(mText, v); return *this; }
Msg& Msg::operator<<(double v) { appendNumber(mText, v); return *this; }
// clang-format on

Msg& Msg::hex(std::uint32_t value)
{
    static const char digits[] = "0123456789abcdef";
    char buf[10] = {'0', 'x'};
    for (int i = 0; i < 8; ++i)
        buf[2 + i] = digits[(value >> (28 - 4 * i)) & 0xFu];
    mText.append(buf, 10);
    return *this;
}

bool fail(std::string* error, const Msg& message)
{
    if (error)
        *error = message.str();
    return false;
}

std::string tagName(std::uint32_t tag)
{
    std::string s;
    for (int i = 0; i < 4; ++i) {
        const auto c = static_cast<unsigned char>(tag >> (8 * i));
        if (c >= 0x20 && c < 0x7F && c != '\\' && c != '\'') {
            s.push_back(static_cast<char>(c));
        } else {
            static const char digits[] = "0123456789abcdef";
            const char esc[4] = {'\\', 'x', digits[c >> 4], digits[c & 0xF]};
            s.append(esc, 4);
        }
    }
    return s;
}

void prefixPath(const std::string& path, std::string* error)
{
    if (error)
        error->insert(0, std::string(path).append(": "));
}

namespace {

template <typename T>
T load(const std::byte* p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

Msg entryName(std::uint32_t index, std::uint32_t tag)
{
    Msg m;
    m << "chunk table[" << index << "] '" << tagName(tag) << '\'';
    return m;
}

/// Steps 1–2: magic, version, header size and checksum, file size, flags.
bool parseHeader(std::span<const std::byte> bytes, FileHeader& h, std::string* error)
{
    const std::uint64_t size = bytes.size();
    if (size < 12)
        return fail(error, Msg() << "file is " << size << " bytes, too small for a .mrig header (64 bytes)");
    if (std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
        return fail(error, Msg() << "header.magic: not a .mrig file (it must start with \"MRIG\\r\\n\\x1a\\n\")");
    const auto major = load<std::uint16_t>(bytes.data() + 8);
    const auto minor = load<std::uint16_t>(bytes.data() + 10);
    if (major > kVersionMajor)
        return fail(error, Msg() << "made by a newer Marionette (format " << major << '.' << minor
                                 << "); this build reads up to " << kVersionMajor << '.' << kVersionMinor);
    if (major == 0)
        return fail(error, Msg() << "header.versionMajor: 0 is not a valid version");
    if (size > kMaxFileSize)
        return fail(error, Msg() << "file is " << size << " bytes; .mrig files above " << kMaxFileSize
                                 << " bytes are refused");
    if (size < sizeof(FileHeader))
        return fail(error, Msg() << "header: file is " << size << " bytes, shorter than the 64-byte header");
    std::memcpy(&h, bytes.data(), sizeof h);
    if (h.headerSize < sizeof(FileHeader))
        return fail(error, Msg() << "header.headerSize: " << h.headerSize << " is below 64");
    if (h.headerSize > size)
        return fail(error, Msg() << "header.headerSize: " << h.headerSize << " runs past the end of the file ("
                                 << size << " bytes)");
    const std::byte zero[4] = {};
    std::uint32_t crc = crc32c(bytes.first(offsetof(FileHeader, headerCrc)));
    crc = crc32c(zero, crc);
    crc = crc32c(bytes.subspan(offsetof(FileHeader, headerCrc) + 4, h.headerSize - offsetof(FileHeader, headerCrc) - 4), crc);
    if (crc != h.headerCrc)
        return fail(error, Msg() << "header.headerCrc: checksum mismatch (stored " << Msg().hex(h.headerCrc).str()
                                 << ", computed " << Msg().hex(crc).str() << ')');
    if (h.fileSize != size)
        return fail(error, Msg() << "header.fileSize: the header says " << h.fileSize << " bytes but the file has "
                                 << size << " (truncated or extended)");
    if (const std::uint32_t unknown = h.flags & kRequiredFlagsMask & ~kKnownRequiredFlags)
        return fail(error, Msg() << "header.flags: unknown required flags " << Msg().hex(unknown).str()
                                 << " (a feature of a newer Marionette)");
    return true;
}

/// Step 3: where the table lies, its checksum, its entries.
bool parseTable(std::span<const std::byte> bytes, const FileHeader& h, Structure& s, std::string* error)
{
    const std::uint64_t size = bytes.size();
    if (h.chunkEntrySize < sizeof(ChunkEntry))
        return fail(error, Msg() << "header.chunkEntrySize: " << h.chunkEntrySize << " is below 32");
    if (h.chunkTableOffset % kChunkAlignment != 0)
        return fail(error, Msg() << "header.chunkTableOffset: " << h.chunkTableOffset << " is not a multiple of 16");
    if (h.chunkTableOffset < h.headerSize)
        return fail(error, Msg() << "header.chunkTableOffset: " << h.chunkTableOffset << " overlaps the header ("
                                 << h.headerSize << " bytes)");
    std::uint64_t tableBytes = 0, tableEnd = 0;
    if (!checkedMul(h.chunkCount, h.chunkEntrySize, tableBytes) || !checkedAdd(h.chunkTableOffset, tableBytes, tableEnd) ||
        tableEnd > size)
        return fail(error, Msg() << "header.chunkCount: " << h.chunkCount << " entries of " << h.chunkEntrySize
                                 << " bytes at offset " << h.chunkTableOffset << " run past the end of the file ("
                                 << size << " bytes)");
    const auto table = bytes.subspan(static_cast<std::size_t>(h.chunkTableOffset), static_cast<std::size_t>(tableBytes));
    const std::uint32_t crc = crc32c(table);
    if (crc != h.chunkTableCrc)
        return fail(error, Msg() << "header.chunkTableCrc: checksum mismatch (stored " << Msg().hex(h.chunkTableCrc).str()
                                 << ", computed " << Msg().hex(crc).str() << ')');
    s.tableEnd = tableEnd;
    s.entries.resize(h.chunkCount); // bounded: chunkCount × 32 <= table bytes <= file size
    for (std::uint32_t i = 0; i < h.chunkCount; ++i)
        std::memcpy(&s.entries[i], table.data() + std::size_t(i) * h.chunkEntrySize, sizeof(ChunkEntry));
    return true;
}

/// Step 4a: each entry's alignment, bounds and size == count × recordSize.
bool checkEntries(std::uint64_t fileSize, Structure& s, std::string* error)
{
    for (std::uint32_t i = 0; i < s.entries.size(); ++i) {
        const ChunkEntry& e = s.entries[i];
        if (e.offset % kChunkAlignment != 0)
            return fail(error, entryName(i, e.tag) << ": offset " << e.offset << " is not a multiple of 16");
        if (e.offset < s.tableEnd)
            return fail(error, entryName(i, e.tag) << ": offset " << e.offset
                                                   << " overlaps the header or the chunk table (which end at "
                                                   << s.tableEnd << ')');
        std::uint64_t end = 0;
        if (!checkedAdd(e.offset, e.size, end) || end > fileSize)
            return fail(error, entryName(i, e.tag) << ": " << e.size << " bytes at offset " << e.offset
                                                   << " run past the end of the file (" << fileSize << " bytes)");
        std::uint64_t expected = 0;
        if (!checkedMul(e.count, e.recordSize, expected) || expected != e.size)
            return fail(error, entryName(i, e.tag) << ": size " << e.size << " is not count " << e.count
                                                   << " x record size " << e.recordSize);
    }
    return true;
}

/// Step 4b: no two chunks overlap (empty chunks overlap nothing).
bool checkOverlaps(const Structure& s, std::string* error)
{
    std::vector<std::uint32_t> order;
    order.reserve(s.entries.size());
    for (std::uint32_t i = 0; i < s.entries.size(); ++i)
        if (s.entries[i].size > 0)
            order.push_back(i);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return s.entries[a].offset < s.entries[b].offset || (s.entries[a].offset == s.entries[b].offset && a < b);
    });
    for (std::size_t k = 1; k < order.size(); ++k) {
        const ChunkEntry& prev = s.entries[order[k - 1]];
        const ChunkEntry& cur = s.entries[order[k]];
        if (prev.offset + prev.size > cur.offset) {
            const std::uint32_t later = std::max(order[k - 1], order[k]), earlier = std::min(order[k - 1], order[k]);
            return fail(error, entryName(later, s.entries[later].tag)
                                   << " overlaps " << entryName(earlier, s.entries[earlier].tag).str());
        }
    }
    return true;
}

/// Step 4c: known chunks: duplicates, record sizes, single-record counts, required chunks.
bool checkKnownChunks(Structure& s, std::string* error)
{
    for (std::uint32_t i = 0; i < s.entries.size(); ++i) {
        const ChunkEntry& e = s.entries[i];
        int id = -1;
        for (int k = 0; k < kKnownChunkCount; ++k)
            if (kKnownChunks[k].tag == e.tag)
                id = k;
        if (id < 0) {
            ++s.info.unknownChunks;
            continue;
        }
        const KnownChunk& known = kKnownChunks[id];
        Structure::Slot& slot = s.slots[id];
        const auto tag = [&] { return tagName(e.tag); };
        if (slot.present)
            return fail(error, entryName(i, e.tag) << ": duplicate chunk (first at chunk table[" << slot.tableIndex << "])");
        if (id == kStringsChunk) {
            if (e.recordSize != 1)
                return fail(error, Msg() << tag() << ": record size " << e.recordSize << ", expected 1");
        } else {
            if (e.recordSize < known.recordSize)
                return fail(error, Msg() << tag() << ": record size " << e.recordSize << " is smaller than "
                                         << known.recordSize << ", the size in format " << known.since);
            if (e.recordSize % 4 != 0)
                return fail(error, Msg() << tag() << ": record size " << e.recordSize << " is not a multiple of 4");
        }
        if (known.single && e.count != 1)
            return fail(error, Msg() << tag() << ": " << e.count << " records, expected 1");
        if (!known.single && id != kStringsChunk && e.count > std::uint32_t(INT32_MAX))
            return fail(error, Msg() << tag() << ": count " << e.count << " exceeds the largest index (2147483647)");
        slot.present = true;
        slot.tableIndex = i;
        slot.offset = e.offset;
        slot.count = e.count;
        slot.recordSize = e.recordSize;
    }
    for (int k = 0; k < kKnownChunkCount; ++k)
        if (kKnownChunks[k].required && !s.slots[k].present)
            return fail(error, Msg() << "missing required chunk " << tagName(kKnownChunks[k].tag) << " ("
                                     << kKnownChunks[k].what << ')');
    MrigInfo& n = s.info;
    n.particles = s.slots[kParticlesChunk].count;
    n.sticks = s.slots[kSticksChunk].count;
    n.angles = s.slots[kAnglesChunk].count;
    n.triangles = s.slots[kTrianglesChunk].count;
    n.angular = s.slots[kAngularChunk].count;
    n.pins = s.slots[kPinsChunk].count;
    n.shapes = s.slots[kShapesChunk].count;
    n.bones = s.slots[kBonesChunk].count;
    n.bindings = s.slots[kBindingsChunk].count;
    n.driveProfiles = s.slots[kDriveProfilesChunk].count;
    n.stringBytes = s.slots[kStringsChunk].count;
    return true;
}

} // namespace

bool parseStructure(std::span<const std::byte> bytes, Structure& out, std::string* error)
{
    out = Structure{};
    FileHeader h;
    if (!parseHeader(bytes, h, error) || !parseTable(bytes, h, out, error) || !checkEntries(bytes.size(), out, error) ||
        !checkOverlaps(out, error))
        return false;
    out.info.versionMajor = h.versionMajor;
    out.info.versionMinor = h.versionMinor;
    out.info.flags = h.flags;
    out.info.fileSize = h.fileSize;
    out.info.chunkCount = h.chunkCount;
    return checkKnownChunks(out, error);
}

bool verifyPayloads(std::span<const std::byte> bytes, const Structure& s, std::string* error)
{
    // Padding: every byte outside the header, the table and the chunks is zero, so that together with the
    // checksums every bit of a file is covered.
    std::vector<std::uint32_t> order;
    order.reserve(s.entries.size());
    for (std::uint32_t i = 0; i < s.entries.size(); ++i)
        if (s.entries[i].size > 0)
            order.push_back(i);
    std::sort(order.begin(), order.end(),
              [&](std::uint32_t a, std::uint32_t b) { return s.entries[a].offset < s.entries[b].offset; });
    const auto checkZero = [&](std::uint64_t from, std::uint64_t to) {
        for (std::uint64_t p = from; p < to; ++p)
            if (bytes[static_cast<std::size_t>(p)] != std::byte{0})
                return fail(error, Msg() << "padding byte at offset " << p
                                         << " is not zero (bytes outside the header, chunk table and chunks must be 0)");
        return true;
    };
    FileHeader h;
    std::memcpy(&h, bytes.data(), sizeof h);
    if (!checkZero(h.headerSize, h.chunkTableOffset))
        return false;
    std::uint64_t cursor = s.tableEnd;
    for (const std::uint32_t i : order) {
        if (!checkZero(cursor, s.entries[i].offset))
            return false;
        cursor = s.entries[i].offset + s.entries[i].size;
    }
    if (!checkZero(cursor, bytes.size()))
        return false;

    for (std::uint32_t i = 0; i < s.entries.size(); ++i) {
        const ChunkEntry& e = s.entries[i];
        const std::uint32_t crc =
            crc32c(bytes.subspan(static_cast<std::size_t>(e.offset), static_cast<std::size_t>(e.size)));
        if (crc != e.crc)
            return fail(error, Msg() << tagName(e.tag) << ": payload checksum mismatch (stored " << Msg().hex(e.crc).str()
                                     << ", computed " << Msg().hex(crc).str() << ")");
    }
    return true;
}

void repackRecords(std::span<std::byte> bytes, Structure& s)
{
    for (int k = 0; k < kKnownChunkCount; ++k) {
        Structure::Slot& slot = s.slots[k];
        const std::uint32_t known = kKnownChunks[k].recordSize;
        if (!slot.present || slot.recordSize == known)
            continue;
        std::byte* base = bytes.data() + slot.offset;
        for (std::uint32_t i = 0; i < slot.count; ++i) // forward: destination never passes the source
            std::memmove(base + std::size_t(i) * known, base + std::size_t(i) * slot.recordSize, known);
        slot.recordSize = known;
    }
}

void mapRecords(const std::byte* aligned, const Structure& s, RecordSpans& out)
{
    const auto at = [&](int id) { return aligned + s.slots[id].offset; };
    const auto span = [&]<typename T>(int id, std::span<const T>& dst) {
        dst = s.slots[id].present
                  ? std::span<const T>(std::launder(reinterpret_cast<const T*>(at(id))), s.slots[id].count)
                  : std::span<const T>();
    };
    out = RecordSpans{};
    if (s.slots[kStringsChunk].present)
        out.strings = std::string_view(reinterpret_cast<const char*>(at(kStringsChunk)), s.slots[kStringsChunk].count);
    if (s.slots[kRigChunk].present)
        out.rig = std::launder(reinterpret_cast<const RigRecord*>(at(kRigChunk)));
    out.settings = std::launder(reinterpret_cast<const SettingsRecord*>(at(kSettingsChunk)));
    span(kParticlesChunk, out.particles);
    span(kSticksChunk, out.sticks);
    span(kAnglesChunk, out.angles);
    span(kTrianglesChunk, out.triangles);
    span(kAngularChunk, out.angular);
    span(kPinsChunk, out.pins);
    span(kShapesChunk, out.shapes);
    span(kBonesChunk, out.bones);
    span(kBindingsChunk, out.bindings);
    if (s.slots[kSolverChunk].present)
        out.solver = std::launder(reinterpret_cast<const SolverRecord*>(at(kSolverChunk)));
    span(kAngularFrictionChunk, out.angularFriction);
    span(kPinStiffnessChunk, out.pinStiffness);
    span(kBendDampingChunk, out.bendDamping);
    span(kDriveProfilesChunk, out.driveProfiles);
    span(kDrivePartsChunk, out.driveParts);
    out.hasAngularFriction = s.slots[kAngularFrictionChunk].present;
    out.hasPinStiffness = s.slots[kPinStiffnessChunk].present;
    out.hasBendDamping = s.slots[kBendDampingChunk].present;
}

} // namespace marionette::rig::detail
