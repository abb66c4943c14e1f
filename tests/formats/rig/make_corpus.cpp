// mrig_make_corpus DIR: writes the .mrig corpus (valid seeds and crafted bad files) and DIR/expected.txt,
// one line per file: "<file name><TAB><expected error substring, or OK>".
//
// The committed files in tests/formats/rig/corpus/ are format 1.0 fixtures: tst_mrigcorpus replays them
// and the fuzzer starts from them. Regenerate them only on purpose (see corpus/README.md); a change in the
// writer must not silently change what the committed files hold.
#include "MrigTestSupport.h"

#include "marionette/rig/Mrig.h"
#include "marionette/runtime/Procedural.h"

#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>

using namespace marionette;
using namespace marionette::test;
namespace mrig = marionette::rig::mrig;

namespace {

struct Case {
    std::string file;
    std::string expected;
    Bytes bytes;
};

std::vector<Case> gCases;

void add(const std::string& file, const std::string& expected, Bytes bytes)
{
    gCases.push_back({file, expected, std::move(bytes)});
}

/// The hand-built sample with its raw records changed by `change`, checksums right.
void raw(const std::string& file, const std::string& expected, const std::function<void(RawRig&)>& change)
{
    RawRig r = rawSample();
    change(r);
    add(file, expected, builderFor(r).build());
}

/// The hand-built sample with its builder changed by `change`.
void built(const std::string& file, const std::string& expected, const std::function<void(MrigBuilder&)>& change)
{
    MrigBuilder b = builderFor(rawSample());
    change(b);
    add(file, expected, b.build());
}

/// The sample's bytes changed by `patch`, then (when fix) every checksum recomputed.
void patched(const std::string& file, const std::string& expected, const std::function<void(Bytes&)>& patch,
             bool fix = true)
{
    Bytes b = builderFor(rawSample()).build();
    patch(b);
    if (fix)
        fixChecksums(b);
    add(file, expected, b);
}

std::size_t entryField(const Bytes& b, std::uint32_t tag, std::size_t field) { return entryOffset(b, tag) + field; }

void makeCases()
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();

    // ---- valid seeds
    add("good_humanoid.mrig", "OK", rig::writeMrig(runtime::makeHumanoid()));
    add("good_cloth_6x4.mrig", "OK", rig::writeMrig(runtime::makeCloth(6, 4, 0.1f)));
    add("good_crate.mrig", "OK", rig::writeMrig(runtime::makeCrate({0.3f, 0.2f, 0.4f}, 10.f)));
    add("good_full_rig.mrig", "OK", rig::writeMrig(fullRig()));
    add("good_sample_handbuilt.mrig", "OK", builderFor(rawSample()).build());
    {
        const RawRig r = rawSample();
        MrigBuilder b = builderFor(r);
        b.minor = 3;
        b.headerSize = 80;
        b.entrySize = 40;
        b.flags = 1u << 16;
        b.addBytes(mrig::makeTag('X', 'T', 'R', 'A'), toBytes("future data!", 12), 3, 4);
        b.remove(mrig::kTagParticles);
        b.add(mrig::kTagParticles, r.particles, 52);
        add("good_minor_1_3_extensions.mrig", "OK", b.build());
    }

    // ---- header
    add("bad_empty.mrig", "file is 0 bytes, too small for a .mrig header (64 bytes)", {});
    patched("bad_magic.mrig", "header.magic: not a .mrig file", [](Bytes& b) { b[0] = std::byte{'m'}; }, false);
    patched("bad_text_mode_transfer.mrig", "header.magic: not a .mrig file",
            [](Bytes& b) { b.erase(b.begin() + 4); }, false); // CR LF -> LF
    built("bad_major_2.mrig", "made by a newer Marionette (format 2.1); this build reads up to 1.0", [](MrigBuilder& b) {
        b.major = 2;
        b.minor = 1;
    });
    built("bad_major_0.mrig", "header.versionMajor: 0 is not a valid version", [](MrigBuilder& b) { b.major = 0; });
    patched("bad_short_header.mrig", "header: file is 40 bytes, shorter than the 64-byte header",
            [](Bytes& b) { b.resize(40); }, false);
    patched("bad_header_size_small.mrig", "header.headerSize: 32 is below 64",
            [](Bytes& b) { poke<std::uint32_t>(b, offsetof(mrig::FileHeader, headerSize), 32); });
    patched("bad_header_crc.mrig", "header.headerCrc: checksum mismatch",
            [](Bytes& b) { b[offsetof(mrig::FileHeader, reserved)] = std::byte{1}; }, false);
    patched("bad_truncated.mrig", "header.fileSize: the header says", [](Bytes& b) { b.resize(b.size() - 100); }, false);
    built("bad_required_flag.mrig", "header.flags: unknown required flags 0x00000001", [](MrigBuilder& b) { b.flags = 1; });

    // ---- chunk table
    patched("bad_entry_size.mrig", "header.chunkEntrySize: 16 is below 32",
            [](Bytes& b) { poke<std::uint32_t>(b, offsetof(mrig::FileHeader, chunkEntrySize), 16); });
    patched("bad_table_misaligned.mrig", "header.chunkTableOffset: 72 is not a multiple of 16",
            [](Bytes& b) { poke<std::uint64_t>(b, offsetof(mrig::FileHeader, chunkTableOffset), 72); });
    patched("bad_table_in_header.mrig", "header.chunkTableOffset: 48 overlaps the header (64 bytes)",
            [](Bytes& b) { poke<std::uint64_t>(b, offsetof(mrig::FileHeader, chunkTableOffset), 48); });
    patched("bad_table_past_end.mrig", "header.chunkCount: 100000 entries of 32 bytes at offset 64 run past the end",
            [](Bytes& b) { poke<std::uint32_t>(b, offsetof(mrig::FileHeader, chunkCount), 100000); });
    patched("bad_table_crc.mrig", "header.chunkTableCrc: checksum mismatch",
            [](Bytes& b) { b[64 + 30] ^= std::byte{0x10}; }, false);
    patched("bad_chunk_misaligned.mrig", "chunk table[3] 'PART': offset ", [](Bytes& b) {
        const std::size_t at = entryField(b, mrig::kTagParticles, offsetof(mrig::ChunkEntry, offset));
        poke<std::uint64_t>(b, at, peek<std::uint64_t>(b, at) + 4);
    });
    patched("bad_chunk_over_table.mrig",
            "chunk table[3] 'PART': offset 64 overlaps the header or the chunk table (which end at 448)",
            [](Bytes& b) { poke<std::uint64_t>(b, entryField(b, mrig::kTagParticles, offsetof(mrig::ChunkEntry, offset)), 64); });
    patched("bad_chunk_past_end.mrig", "chunk table[11] 'BIND': 112 bytes at offset ", [](Bytes& b) {
        poke<std::uint64_t>(b, entryField(b, mrig::kTagBindings, offsetof(mrig::ChunkEntry, offset)), (b.size() - 32) / 16 * 16);
    });
    patched("bad_chunks_overlap.mrig", "chunk table[6] 'TRIS' overlaps chunk table[4] 'STCK'", [](Bytes& b) {
        poke<std::uint64_t>(b, entryField(b, mrig::kTagTriangles, offsetof(mrig::ChunkEntry, offset)),
                            payloadOffset(b, mrig::kTagSticks) + 64);
    });
    patched("bad_size_not_count_x_record.mrig", "chunk table[4] 'STCK': size 768 is not count 13 x record size 64",
            [](Bytes& b) { poke<std::uint64_t>(b, entryField(b, mrig::kTagSticks, offsetof(mrig::ChunkEntry, size)), 768); });
    patched("bad_count_overflow.mrig", "chunk table[4] 'STCK': size 832 is not count 4294967295 x record size 64",
            [](Bytes& b) { poke<std::uint32_t>(b, entryField(b, mrig::kTagSticks, offsetof(mrig::ChunkEntry, count)), ~0u); });
    patched("bad_size_wraps.mrig", "chunk table[4] 'STCK': 18446744073709551600 bytes at offset ", [](Bytes& b) {
        poke<std::uint64_t>(b, entryField(b, mrig::kTagSticks, offsetof(mrig::ChunkEntry, size)), ~0ull - 15);
    });
    patched("bad_padding_nonzero.mrig", "is not zero (bytes outside the header, chunk table and chunks must be 0)",
            [](Bytes& b) { b[payloadOffset(b, mrig::kTagParticles) - 1] = std::byte{0x20}; }, false);
    patched("bad_chunk_crc.mrig", "PART: payload checksum mismatch",
            [](Bytes& b) { b[payloadOffset(b, mrig::kTagParticles) + 13] ^= std::byte{0x04}; }, false);

    // ---- known chunks
    built("bad_duplicate_chunk.mrig", "chunk table[12] 'PART': duplicate chunk (first at chunk table[3])",
          [](MrigBuilder& b) { b.chunks.push_back(*b.find(mrig::kTagParticles)); });
    built("bad_missing_particles.mrig", "missing required chunk PART (particles)",
          [](MrigBuilder& b) { b.remove(mrig::kTagParticles); });
    built("bad_missing_settings.mrig", "missing required chunk SETT (settings records)",
          [](MrigBuilder& b) { b.remove(mrig::kTagSettings); });
    built("bad_settings_count_2.mrig", "SETT: 2 records, expected 1", [](MrigBuilder& b) {
        RawChunk* c = b.find(mrig::kTagSettings);
        c->payload.insert(c->payload.end(), c->payload.begin(), c->payload.end());
        c->count = 2;
    });
    built("bad_record_size_small.mrig", "PART: record size 40 is smaller than 44, the size in format 1.0",
          [](MrigBuilder& b) {
              b.remove(mrig::kTagParticles);
              b.add(mrig::kTagParticles, rawSample().particles, 40);
          });
    built("bad_record_size_unaligned.mrig", "STCK: record size 66 is not a multiple of 4", [](MrigBuilder& b) {
        b.remove(mrig::kTagSticks);
        b.add(mrig::kTagSticks, rawSample().sticks, 66);
    });
    built("bad_strings_record_size.mrig", "STRS: record size 2, expected 1", [](MrigBuilder& b) {
        RawChunk* c = b.find(mrig::kTagStrings);
        c->payload.push_back(std::byte{0});
        c->count = std::uint32_t(c->payload.size() / 2);
        c->recordSize = 2;
    });

    // ---- records
    raw("bad_stick_index.mrig", "STCK[12].particleB: index 40 out of range (31 particles)",
        [](RawRig& r) { r.sticks[12].particleB = 40; });
    raw("bad_stick_same_particle.mrig", "STCK[3].particleB: same particle as particleA (3)",
        [](RawRig& r) { r.sticks[3].particleB = 3; });
    raw("bad_stick_kind.mrig", "STCK[2].kind: unknown value 4 (0 to 3)", [](RawRig& r) { r.sticks[2].kind = 4; });
    raw("bad_stick_capsule_negative.mrig", "STCK[1].capsuleRadius: -0.5 is negative",
        [](RawRig& r) { r.sticks[1].capsuleRadius = -0.5f; });
    raw("bad_stick_nan.mrig", "STCK[0].stiffness: not a finite number (nan)", [=](RawRig& r) { r.sticks[0].stiffness = nan; });
    raw("bad_particle_inf.mrig", "PART[7].position.y: not a finite number (inf)",
        [=](RawRig& r) { r.particles[7].position[1] = inf; });
    raw("bad_particle_negative_mass.mrig", "PART[4].mass: -2 is negative", [](RawRig& r) { r.particles[4].mass = -2.f; });
    raw("bad_particle_negative_radius.mrig", "PART[9].radius: -0.05 is negative",
        [](RawRig& r) { r.particles[9].radius = -0.05f; });
    raw("bad_particle_bone.mrig", "PART[2].bone: index 3 out of range (3 bones)", [](RawRig& r) { r.particles[2].bone = 3; });
    raw("bad_name_out_of_table.mrig", "PART[6].name: string at offset 100000, length 3 runs past the end of the string table",
        [](RawRig& r) { r.particles[6].name = {100000, 3}; });
    raw("bad_rig_name_out_of_table.mrig", "NAME.name: string at offset 0, length 5000 runs past the end",
        [](RawRig& r) { r.rig.name = {0, 5000}; });
    raw("bad_names_amplified.mrig", "STRS: names reference", [](RawRig& r) {
        for (auto& s : r.sticks)
            s.name = {0, std::uint32_t(r.strings.size())};
    });
    raw("bad_angle_repeat.mrig", "ANGL[0].particleA: same particle as center (1)", [](RawRig& r) { r.angles[0].particleA = 1; });
    raw("bad_angle_form.mrig", "ANGL[0].form: unknown value 2 (0 to 1)", [](RawRig& r) { r.angles[0].form = 2; });
    raw("bad_triangle_repeat.mrig", "TRIS[1].p2: particle 5 repeats p0", [](RawRig& r) { r.triangles[1].p[2] = 5; });
    raw("bad_triangle_collinear.mrig", "TRIS[0]: degenerate at bind (particles 0, 1 and 2 are collinear or coincide)",
        [](RawRig& r) { r.triangles[0].p[2] = 2; });
    raw("bad_triangle_index.mrig", "TRIS[1].p1: index -7 out of range (31 particles)", [](RawRig& r) { r.triangles[1].p[1] = -7; });
    raw("bad_angular_limit.mrig", "ANGU[0].limit: unknown value 9 (0 to 1)", [](RawRig& r) { r.angular[0].limit = 9; });
    raw("bad_angular_same_triangle.mrig", "ANGU[0].triangleB: same triangle as triangleA (0)",
        [](RawRig& r) { r.angular[0].triangleB = 0; });
    raw("bad_angular_bool.mrig", "ANGU[0].hasRestOrientation: 2 is not 0 or 1",
        [](RawRig& r) { r.angular[0].hasRestOrientation = 2; });
    raw("bad_angular_quat_nan.mrig", "ANGU[0].restOrientation.w: not a finite number (nan)",
        [=](RawRig& r) { r.angular[0].restOrientation[3] = nan; });
    raw("bad_pin_index.mrig", "PINS[0].particle: index 31 out of range (31 particles)", [](RawRig& r) { r.pins[0].particle = 31; });
    raw("bad_pin_kinematic.mrig", "PINS[0].kinematic: 255 is not 0 or 1", [](RawRig& r) { r.pins[0].kinematic = 255; });
    raw("bad_shape_kind.mrig", "SHAP[0].kind: unknown value 1 (0 to 0)", [](RawRig& r) { r.shapes[0].kind = 1; });
    raw("bad_shape_triangle.mrig", "SHAP[0].triangle: index 2 out of range (2 triangles)", [](RawRig& r) { r.shapes[0].triangle = 2; });
    raw("bad_shape_flat_tetra.mrig", "SHAP[1].tetra: flat at bind (particles 0, 1, 2 and 3 are coplanar)", [](RawRig& r) {
        r.shapes[1].tetra[2] = 2;
        r.shapes[1].tetra[3] = 3;
    });
    raw("bad_shape_half_extents.mrig", "SHAP[0].halfExtents.y: 0 is not positive", [](RawRig& r) { r.shapes[0].halfExtents[1] = 0.f; });
    raw("bad_bone_parent.mrig", "BONE[1].parent: 1 is not an earlier bone or -1", [](RawRig& r) { r.bones[1].parent = 1; });
    raw("bad_bone_matrix_nan.mrig", "BONE[2].inverseBind[5]: not a finite number (nan)",
        [=](RawRig& r) { r.bones[2].inverseBind[5] = nan; });
    raw("bad_binding_driver.mrig", "BIND[0].driver: unknown value 2 (0 to 1)", [](RawRig& r) { r.bindings[0].driver = 2; });
    raw("bad_binding_stick_index.mrig", "BIND[1].index: index 13 out of range (13 sticks)", [](RawRig& r) { r.bindings[1].index = 13; });
    raw("bad_binding_bone.mrig", "BIND[0].bone: index 3 out of range (3 bones)", [](RawRig& r) { r.bindings[0].bone = 3; });
    raw("bad_settings_solver.mrig", "SETT.solver: unknown value 3 (0 to 2)", [](RawRig& r) { r.settings.solver = 3; });
    raw("bad_settings_bool.mrig", "SETT.selfCollision: 7 is not 0 or 1", [](RawRig& r) { r.settings.selfCollision = 7; });
    raw("bad_settings_nan.mrig", "SETT.gravity.y: not a finite number (nan)", [=](RawRig& r) { r.settings.gravity[1] = nan; });

    // ---- well-formed files whose rig RigDescription::validate() refuses
    raw("bad_validate_stiffness.mrig", "sticks[0] 's0': stiffness 2 outside (0, 1]", [](RawRig& r) { r.sticks[0].stiffness = 2.f; });
    raw("bad_validate_bound_twice.mrig", "bindings[1] 'bone0': bone is bound twice", [](RawRig& r) { r.bindings[1].bone = 0; });
    raw("bad_validate_iterations.mrig", "settings: iterations 0 outside [1, 64]", [](RawRig& r) { r.settings.iterations = 0; });
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::cerr << "usage: mrig_make_corpus DIR\n";
        return 1;
    }
    makeCases();
    const std::string dir = argv[1];
    std::ofstream list(dir + "/expected.txt", std::ios::binary);
    list << "# file<TAB>expected error substring, or OK. Written by mrig_make_corpus (tests/formats/rig/make_corpus.cpp).\n";
    for (const Case& c : gCases) {
        std::ofstream f(dir + "/" + c.file, std::ios::binary);
        f.write(reinterpret_cast<const char*>(c.bytes.data()), std::streamsize(c.bytes.size()));
        list << c.file << '\t' << c.expected << '\n';
        if (!f || !list) {
            std::cerr << "cannot write " << dir << '/' << c.file << '\n';
            return 1;
        }
    }
    std::cout << gCases.size() << " files written to " << dir << '\n';
    return 0;
}
