// Test support for the .mrig suites, the corpus generator and the fuzzer (no Qt here).
//
// - MrigBuilder assembles files by hand from raw records following FORMAT.md, independently of
//   writeMrig(): tests use it for newer versions, larger records, unknown chunks and corrupt layouts.
// - rawSample() is a small valid rig as raw records (31 particles, 13 sticks, every 1.0 chunk present);
//   rawSample11() is the same rig as format 1.1 writes it (SOLV, ANGF and PINF added), rawSample12() as
//   format 1.2 writes it (BNDD added too).
// - fixChecksums() recomputes every checksum of a (possibly corrupt) file, bounds-checked.
// - fullRig() exercises every field of every element type; diffRigs() compares two rigs bit for bit.
#pragma once

#include "marionette/rig/Crc32c.h"
#include "marionette/rig/MrigFormat.h"
#include "marionette/rig/RigDescription.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace marionette::test {

using Bytes = std::vector<std::byte>;
namespace mrig = rig::mrig;

/// The bit pattern of a float, to compare values exactly (−0 and NaN payloads included).
inline std::uint32_t bits(float f)
{
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

template <typename T>
void poke(Bytes& b, std::size_t offset, T value)
{
    std::memcpy(b.data() + offset, &value, sizeof value);
}
template <typename T>
T peek(const Bytes& b, std::size_t offset)
{
    T v;
    std::memcpy(&v, b.data() + offset, sizeof v);
    return v;
}

inline Bytes toBytes(const void* data, std::size_t size)
{
    Bytes out(size);
    if (size)
        std::memcpy(out.data(), data, size);
    return out;
}

/// One chunk of a hand-built file; the optional fields override what build() would compute.
struct RawChunk {
    std::uint32_t tag = 0;
    Bytes payload;
    std::uint32_t count = 0;
    std::uint32_t recordSize = 0;
    std::optional<std::uint64_t> offset, size;
    std::optional<std::uint32_t> crc;
};

/// Lays out a file as FORMAT.md says: header, chunk table right after it, payloads 16-byte aligned in
/// the order added, checksums computed. Fields are public so tests can set what a newer version writes.
struct MrigBuilder {
    std::uint16_t major = mrig::kVersionMajor, minor = 0; ///< builderFor() sets 1 or 2 when it adds a 1.1 / 1.2 chunk
    std::uint32_t flags = 0;
    std::uint32_t headerSize = sizeof(mrig::FileHeader); ///< > 64: extra header bytes filled with 0x5A
    std::uint32_t entrySize = sizeof(mrig::ChunkEntry);  ///< > 32: extra entry bytes filled with 0x6B
    std::vector<RawChunk> chunks;

    /// Adds records; a recordSize above sizeof(R) appends 0xA5 bytes to each record (a newer minor's
    /// fields), one below truncates each record.
    template <typename R>
    RawChunk& add(std::uint32_t tag, const std::vector<R>& records, std::uint32_t recordSize = sizeof(R))
    {
        RawChunk c;
        c.tag = tag;
        c.count = static_cast<std::uint32_t>(records.size());
        c.recordSize = recordSize;
        for (const R& r : records) {
            const Bytes one = toBytes(&r, sizeof r);
            for (std::uint32_t k = 0; k < recordSize; ++k)
                c.payload.push_back(k < sizeof r ? one[k] : std::byte{0xA5});
        }
        chunks.push_back(std::move(c));
        return chunks.back();
    }
    RawChunk& addBytes(std::uint32_t tag, const Bytes& bytes, std::uint32_t count, std::uint32_t recordSize)
    {
        chunks.push_back(RawChunk{tag, bytes, count, recordSize, {}, {}, {}});
        return chunks.back();
    }
    void remove(std::uint32_t tag)
    {
        for (std::size_t i = 0; i < chunks.size(); ++i)
            if (chunks[i].tag == tag) {
                chunks.erase(chunks.begin() + std::ptrdiff_t(i));
                return;
            }
    }
    RawChunk* find(std::uint32_t tag)
    {
        for (RawChunk& c : chunks)
            if (c.tag == tag)
                return &c;
        return nullptr;
    }

    Bytes build() const
    {
        const std::uint64_t tableOffset = (headerSize + 15u) / 16u * 16u;
        std::uint64_t cursor = tableOffset + std::uint64_t(entrySize) * chunks.size();
        std::vector<mrig::ChunkEntry> entries(chunks.size());
        for (std::size_t i = 0; i < chunks.size(); ++i) {
            cursor = (cursor + 15u) / 16u * 16u;
            entries[i].tag = chunks[i].tag;
            entries[i].offset = cursor;
            entries[i].size = chunks[i].payload.size();
            entries[i].count = chunks[i].count;
            entries[i].recordSize = chunks[i].recordSize;
            cursor += chunks[i].payload.size();
        }
        Bytes out(cursor);
        for (std::size_t i = 0; i < chunks.size(); ++i) {
            if (!chunks[i].payload.empty())
                std::memcpy(out.data() + entries[i].offset, chunks[i].payload.data(), chunks[i].payload.size());
            entries[i].crc = rig::crc32c(chunks[i].payload);
            if (chunks[i].offset)
                entries[i].offset = *chunks[i].offset;
            if (chunks[i].size)
                entries[i].size = *chunks[i].size;
            if (chunks[i].crc)
                entries[i].crc = *chunks[i].crc;
            const std::size_t at = tableOffset + i * entrySize;
            std::memcpy(out.data() + at, &entries[i], sizeof entries[i]);
            for (std::uint32_t k = sizeof(mrig::ChunkEntry); k < entrySize; ++k)
                out[at + k] = std::byte{0x6B};
        }
        mrig::FileHeader h{};
        std::memcpy(h.magic, mrig::kMagic, 8);
        h.versionMajor = major;
        h.versionMinor = minor;
        h.flags = flags;
        h.fileSize = out.size();
        h.headerSize = headerSize;
        h.chunkTableOffset = tableOffset;
        h.chunkCount = static_cast<std::uint32_t>(chunks.size());
        h.chunkEntrySize = entrySize;
        h.chunkTableCrc = rig::crc32c({out.data() + tableOffset, std::size_t(entrySize) * chunks.size()});
        std::memcpy(out.data(), &h, sizeof h);
        for (std::uint32_t k = sizeof h; k < headerSize; ++k)
            out[k] = std::byte{0x5A};
        h.headerCrc = rig::crc32c({out.data(), headerSize});
        poke(out, offsetof(mrig::FileHeader, headerCrc), h.headerCrc);
        return out;
    }
};

/// Recomputes the checksums of `file` the way FORMAT.md defines them: chunk CRCs for entries inside the
/// file, then the table CRC, then the header CRC. Skips whatever does not fit; never reads out of bounds.
inline void fixChecksums(Bytes& file)
{
    if (file.size() < sizeof(mrig::FileHeader))
        return;
    mrig::FileHeader h;
    std::memcpy(&h, file.data(), sizeof h);
    const std::uint64_t n = file.size();
    const std::uint64_t entry = h.chunkEntrySize;
    if (entry >= sizeof(mrig::ChunkEntry) && h.chunkTableOffset <= n) {
        const std::uint64_t fit = (n - h.chunkTableOffset) / entry;
        const std::uint64_t count = h.chunkCount < fit ? h.chunkCount : fit;
        for (std::uint64_t i = 0; i < count; ++i) {
            const std::size_t at = static_cast<std::size_t>(h.chunkTableOffset + i * entry);
            mrig::ChunkEntry e = peek<mrig::ChunkEntry>(file, at);
            if (e.offset <= n && e.size <= n - e.offset) {
                e.crc = rig::crc32c({file.data() + e.offset, static_cast<std::size_t>(e.size)});
                poke(file, at + offsetof(mrig::ChunkEntry, crc), e.crc);
            }
        }
        if (std::uint64_t(h.chunkCount) * entry <= n - h.chunkTableOffset)
            poke(file, offsetof(mrig::FileHeader, chunkTableCrc),
                 rig::crc32c({file.data() + h.chunkTableOffset, static_cast<std::size_t>(h.chunkCount * entry)}));
    }
    const std::uint64_t headerBytes = h.headerSize >= sizeof h && h.headerSize <= n ? h.headerSize : sizeof h;
    poke<std::uint32_t>(file, offsetof(mrig::FileHeader, headerCrc), 0);
    poke(file, offsetof(mrig::FileHeader, headerCrc), rig::crc32c({file.data(), static_cast<std::size_t>(headerBytes)}));
}

/// Offset of the chunk table entry with `tag` in a well-formed file, or 0.
inline std::size_t entryOffset(const Bytes& file, std::uint32_t tag)
{
    const auto h = peek<mrig::FileHeader>(file, 0);
    for (std::uint32_t i = 0; i < h.chunkCount; ++i) {
        const std::size_t at = static_cast<std::size_t>(h.chunkTableOffset + std::uint64_t(i) * h.chunkEntrySize);
        if (peek<std::uint32_t>(file, at) == tag)
            return at;
    }
    return 0;
}
/// Offset of the payload of the chunk with `tag` in a well-formed file.
inline std::size_t payloadOffset(const Bytes& file, std::uint32_t tag)
{
    return static_cast<std::size_t>(peek<std::uint64_t>(file, entryOffset(file, tag) + offsetof(mrig::ChunkEntry, offset)));
}

// ---- a small valid rig as raw records ----------------------------------------------------------------------

struct RawRig {
    std::string strings;
    mrig::RigRecord rig{};
    mrig::SettingsRecord settings{};
    std::vector<mrig::ParticleRecord> particles;
    std::vector<mrig::StickRecord> sticks;
    std::vector<mrig::AngleRecord> angles;
    std::vector<mrig::TriangleRecord> triangles;
    std::vector<mrig::AngularRecord> angular;
    std::vector<mrig::PinRecord> pins;
    std::vector<mrig::ShapeRecord> shapes;
    std::vector<mrig::BoneRecord> bones;
    std::vector<mrig::BindingRecord> bindings;
    // Format 1.1 chunks; absent (a 1.0 file) when not set.
    std::optional<mrig::SolverRecord> solver;
    std::optional<std::vector<mrig::AngularFrictionRecord>> angularFriction;
    std::optional<std::vector<mrig::PinStiffnessRecord>> pinStiffness;
    // Format 1.2 chunk; absent (a 1.0 or 1.1 file) when not set.
    std::optional<std::vector<mrig::BendDampingRecord>> bendDamping;
    // Format 1.3 chunks; absent (an older file) when not set.
    std::optional<std::vector<mrig::DriveProfileRecord>> driveProfiles;
    std::optional<std::vector<mrig::DrivePartRecord>> driveParts;

    mrig::StringRef name(const std::string& s)
    {
        const mrig::StringRef r{static_cast<std::uint32_t>(strings.size()), static_cast<std::uint32_t>(s.size())};
        strings += s;
        return r;
    }
};

inline void setIdentity(float (&m)[16])
{
    for (int k = 0; k < 16; ++k)
        m[k] = (k % 5 == 0) ? 1.f : 0.f;
}

/// 31 particles on a slanted grid, 13 rigid sticks, 1 angle, 2 triangles, 1 angular constraint, 1 pin,
/// 2 boxes (on a triangle, in a tetrahedron), 3 bones and 2 bindings; valid for the reader and validate().
inline RawRig rawSample()
{
    RawRig r;
    r.rig.name = r.name("sample");
    r.settings = {{0.f, -9.81f, 0.f}, 1.f / 60.f, 4, 8, 0.01f, 0.6f, 0.0005f, 0.05f, 1.f, 1.f, 0, 1, 0};
    for (int i = 0; i < 31; ++i) {
        mrig::ParticleRecord p{};
        p.id = 100u + std::uint32_t(i);
        p.name = r.name(std::string("p").append(std::to_string(i)));
        p.position[0] = 0.1f * float(i % 4);
        p.position[1] = 0.1f * float(i / 4);
        p.position[2] = 0.03f * float(i % 3);
        p.mass = 1.f;
        p.radius = 0.05f;
        p.group = 1;
        p.mask = ~0u;
        p.bone = i < 3 ? i : -1;
        r.particles.push_back(p);
    }
    r.particles[30].position[0] = 0.05f;
    r.particles[30].position[1] = 0.05f;
    r.particles[30].position[2] = 0.5f;
    for (int i = 0; i < 13; ++i) {
        mrig::StickRecord s{};
        s.id = 200u + std::uint32_t(i);
        s.name = r.name(std::string("s").append(std::to_string(i)));
        s.particleA = i;
        s.particleB = i + 1;
        s.restLength = -1.f;
        s.stiffness = 1.f;
        s.group = 1;
        s.mask = ~0u;
        r.sticks.push_back(s);
    }
    r.angles.push_back({300, r.name("angle"), 1, 0, 2, 0, 0.5f, 3.f, 1.f});
    r.triangles.push_back({400, r.name("t0"), {0, 1, 4}});
    r.triangles.push_back({401, r.name("t1"), {5, 6, 9}});
    mrig::AngularRecord a{};
    a.id = 500;
    a.name = r.name("joint");
    a.triangleA = 0;
    a.triangleB = 1;
    a.coneAngle = 1.f;
    a.twistAxis[1] = 1.f;
    a.swingAxis1[0] = 1.f;
    a.twistMin = -0.5f;
    a.twistMax = 0.5f;
    a.swing1 = a.swing2 = 0.5f;
    a.stiffness = 1.f;
    a.restOrientation[3] = 1.f;
    r.angular.push_back(a);
    r.pins.push_back({600, r.name("pin"), 30, {0.05f, 0.05f, 0.5f}, 1.f, 1});
    mrig::ShapeRecord box{};
    box.id = 700;
    box.name = r.name("box_on_triangle");
    box.triangle = 0;
    box.tetra[0] = box.tetra[1] = box.tetra[2] = box.tetra[3] = -1;
    box.localRotation[3] = 1.f;
    box.halfExtents[0] = box.halfExtents[1] = box.halfExtents[2] = 0.1f;
    box.group = 1;
    box.mask = ~0u;
    r.shapes.push_back(box);
    box.id = 701;
    box.name = r.name("box_in_tetra");
    box.triangle = -1;
    box.tetra[0] = 0;
    box.tetra[1] = 1;
    box.tetra[2] = 4;
    box.tetra[3] = 30;
    r.shapes.push_back(box);
    for (int i = 0; i < 3; ++i) {
        mrig::BoneRecord b{};
        b.id = 800u + std::uint32_t(i);
        b.name = r.name(std::string("bone").append(std::to_string(i)));
        b.parent = i - 1;
        setIdentity(b.bindLocal);
        setIdentity(b.bindWorld);
        setIdentity(b.inverseBind);
        r.bones.push_back(b);
    }
    r.bindings.push_back({900, r.name("bind0"), 0, 0, 0, 0, {0, 0, 0, 1}, {0, 0, 0}});
    r.bindings.push_back({901, r.name("bind1"), 1, 1, 3, 1, {0, 0, 0, 1}, {0.f, 0.1f, 0.f}});
    return r;
}

/// rawSample() with the chunks of format 1.1: SOLV (Direct, 4 substeps of 3 iterations, damping 2.5/s,
/// static friction 0.25 m/s), ANGF (damping 5/s, 0.5 rad/s) and PINF (0.75 per 1/60 s). The legacy fields
/// of SETT, ANGU and PINS keep rawSample()'s 1.0 values: a 1.1 reader ignores them.
inline RawRig rawSample11()
{
    RawRig r = rawSample();
    r.solver = mrig::SolverRecord{3, 4, 3, 2.5f, 0.25f, 0};
    r.angularFriction = std::vector<mrig::AngularFrictionRecord>{{5.f, 0.5f}};
    r.pinStiffness = std::vector<mrig::PinStiffnessRecord>{{0.75f}};
    return r;
}

/// rawSample11() with the chunk of format 1.2: BNDD (bend damping 7.5/s for its one angle constraint).
inline RawRig rawSample12()
{
    RawRig r = rawSample11();
    r.bendDamping = std::vector<mrig::BendDampingRecord>{{7.5f}};
    return r;
}

/// rawSample12() with the chunks of format 1.3: DRVP with two profiles, "stagger" (id 1000; defaults motor
/// 4 Hz, ratio 1, 200 N·m; parts DRPT[0, 2): triangle 1 with a 12 Hz motor, stick 3 kinematic) and "limp"
/// (id 1001; every gain off, no parts), and DRPT with the two parts.
inline RawRig rawSample13()
{
    RawRig r = rawSample12();
    r.driveProfiles = std::vector<mrig::DriveProfileRecord>{
        {1000, r.name("stagger"), {4.f, 1.f, 200.f, 0.f, 1.f, 0.f, 0}, 0, 2},
        {1001, r.name("limp"), {0.f, 1.f, 0.f, 0.f, 1.f, 0.f, 0}, 2, 0},
    };
    r.driveParts = std::vector<mrig::DrivePartRecord>{
        {0, 1, {12.f, 0.5f, 0.f, 0.f, 1.f, 0.f, 0}},
        {1, 3, {0.f, 1.f, 0.f, 2.f, 1.f, 50.f, 1}},
    };
    return r;
}

/// A builder holding every chunk of `r` (string table first, to show order does not matter); version 1.0,
/// or 1.1 with SOLV, ANGF and PINF at the end when `r` has them, or 1.2 with BNDD after those, or 1.3 with DRVP and DRPT after BNDD.
inline MrigBuilder builderFor(const RawRig& r)
{
    MrigBuilder b;
    b.addBytes(mrig::kTagStrings, toBytes(r.strings.data(), r.strings.size()), std::uint32_t(r.strings.size()), 1);
    b.add(mrig::kTagRig, std::vector<mrig::RigRecord>{r.rig});
    b.add(mrig::kTagSettings, std::vector<mrig::SettingsRecord>{r.settings});
    b.add(mrig::kTagParticles, r.particles);
    b.add(mrig::kTagSticks, r.sticks);
    b.add(mrig::kTagAngles, r.angles);
    b.add(mrig::kTagTriangles, r.triangles);
    b.add(mrig::kTagAngular, r.angular);
    b.add(mrig::kTagPins, r.pins);
    b.add(mrig::kTagShapes, r.shapes);
    b.add(mrig::kTagBones, r.bones);
    b.add(mrig::kTagBindings, r.bindings);
    if (r.solver)
        b.add(mrig::kTagSolver, std::vector<mrig::SolverRecord>{*r.solver});
    if (r.angularFriction)
        b.add(mrig::kTagAngularFriction, *r.angularFriction);
    if (r.pinStiffness)
        b.add(mrig::kTagPinStiffness, *r.pinStiffness);
    if (r.bendDamping)
        b.add(mrig::kTagBendDamping, *r.bendDamping);
    if (r.driveProfiles)
        b.add(mrig::kTagDriveProfiles, *r.driveProfiles);
    if (r.driveParts)
        b.add(mrig::kTagDriveParts, *r.driveParts);
    if (r.solver || r.angularFriction || r.pinStiffness)
        b.minor = 1;
    if (r.bendDamping)
        b.minor = 2;
    if (r.driveProfiles || r.driveParts)
        b.minor = 3;
    return b;
}

// ---- a rig exercising every field, and a bit-exact comparison -----------------------------------------------

/// Every element type, every field away from its default, awkward floats (−0, subnormals, values that are
/// not exact in decimal) and names (empty, UTF-8, an embedded NUL).
rig::RigDescription fullRig();

/// "" when `a` and `b` are identical (floats compared by bit pattern), else the first difference, e.g.
/// `sticks[3].compliance: 0x00000001 != 0x00000000`.
std::string diffRigs(const rig::RigDescription& a, const rig::RigDescription& b);

} // namespace marionette::test
