// The Inter-Quake Model binary format, version 2 (IQM: Cube 2, Tesseract, the IQM SDK), read and checked
// into plain data in the file's own frame: no unit conversion, no axis change, triangles in the file's
// winding (IqmSceneBuilder converts). All data is little-endian.
//
// Layout: a 124-byte header ("INTERQUAKEMODEL\0", version 2, the file size, then a count and an offset for
// each section: text, meshes, vertex arrays, triangles, adjacency, joints, poses, anims, frames, bounds,
// comments, extensions), then the sections at those offsets. Every offset and count is checked against the
// file size before use (64-bit arithmetic, so no product overflows); a string is an offset into the text
// section and must end with a NUL inside it. Nothing is allocated for a count the file's bytes cannot hold.
#pragma once

#include "marionette/Math.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace marionette::plugins::iqm {

/// The only version this reader takes (IQM 1 stored quaternions without w).
constexpr std::uint32_t kVersion = 2;
/// Size of the header in bytes: 16 bytes of magic and 27 little-endian uint32.
constexpr std::size_t kHeaderSize = 124;
/// Files larger than this (128 MiB) are refused before anything is read: what the import allocates grows
/// with the file (about 25 bytes per byte at worst), never with a count the file merely claims.
constexpr std::uint64_t kMaxFileBytes = std::uint64_t(128) << 20;
/// Longest string (name, material) taken from the text section, in bytes.
constexpr std::size_t kMaxNameBytes = 4096;
/// Most joints: the rig's bone indices and the auto-rig stay far below this.
constexpr std::uint32_t kMaxJoints = 65536;
/// Most animations × joints (one channel each) read from one file, so a small file cannot ask for millions
/// of channels of constant keys.
constexpr std::uint64_t kMaxChannels = std::uint64_t(1) << 18;
/// Number of pose channels: translate x y z, rotate x y z w, scale x y z.
constexpr int kChannels = 10;

/// True when `bytes` start with the IQM magic "INTERQUAKEMODEL\0".
bool hasMagic(std::span<const std::byte> bytes);

/// One mesh: a range of the file's vertices and a range of its triangles, with a material name.
struct Mesh {
    std::string name;
    std::string material; ///< Cube 2 uses it as the skin's texture file name, e.g. "Body.jpg"
    std::uint32_t firstVertex = 0, vertexCount = 0;
    std::uint32_t firstTriangle = 0, triangleCount = 0;
};

/// A joint of the bind pose, relative to its parent: local = T(translate) · R(rotate) · S(scale).
struct Joint {
    std::string name;
    std::int32_t parent = -1; ///< an earlier joint, or -1 for a root (the file's negative values)
    Vec3 translate;
    Quat rotate; ///< normalised
    Vec3 scale{1.f, 1.f, 1.f};
};

/// How one joint moves in the frames: channel c of a frame is offset[c] + (mask bit c set ? the frame's
/// next 16-bit value · scale[c] : 0).
struct Pose {
    std::int32_t parent = -1;
    std::uint32_t mask = 0; ///< bits 0..9, one per channel
    std::array<float, kChannels> offset{};
    std::array<float, kChannels> scale{};
};

/// An animation: a range of the file's frames played at `framerate` frames per second.
struct Anim {
    std::string name;
    std::uint32_t firstFrame = 0, frameCount = 0;
    float framerate = 0.f; ///< as stored; may be 0 or not finite (the scene builder chooses a default)
    bool loop = false;
};

/// Up to four bones of a vertex with weights in [0, 1] as stored (not renormalised); index meaningful only
/// where the weight is > 0.
struct Blend {
    std::array<std::uint32_t, 4> joint{};
    std::array<float, 4> weight{};
};

/// The parts of an IQM file the importer uses, every index checked, every float finite.
struct File {
    std::vector<Mesh> meshes;
    std::vector<Vec3> positions;                         ///< one per vertex
    std::vector<Vec3> normals;                           ///< one per vertex, or empty (not normalised)
    std::vector<std::array<float, 2>> texcoords;         ///< (u, v) as stored (v = 0 at the image's top), or empty
    std::vector<Blend> blends;                           ///< one per vertex, or empty when the file has no skin
    std::vector<std::array<std::uint32_t, 3>> triangles; ///< vertex indices, each inside its mesh's range
    std::vector<Joint> joints;
    std::vector<Pose> poses; ///< one per joint when the file has animations
    std::vector<Anim> anims;
    std::uint32_t frameChannels = 0;   ///< 16-bit values per frame
    std::vector<std::uint16_t> frames; ///< frame count × frameChannels values
    /// What was ignored or tolerated (bytes after the file's stated end, repeated vertex arrays, ...).
    std::vector<std::string> warnings;
};

/// Reads a whole IQM file from `bytes` into `out` (default-constructed). False with `error` one line
/// without the path, naming the section and element ("joint 3 names parent 7, not an earlier joint") when
/// anything is out of range, not finite or inconsistent. Never reads outside `bytes`.
bool readFile(std::span<const std::byte> bytes, File& out, std::string& error);

} // namespace marionette::plugins::iqm
