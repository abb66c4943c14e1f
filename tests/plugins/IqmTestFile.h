// A tiny IQM 2 writer for tst_iqmimporter: the test builds its files from the format's definition (a
// 124-byte header of magic, version, size and counts/offsets, then the sections), so every value read back
// is known exactly. tinyIqm() is a two-joint, one-triangle character with a two-frame animation; Field names
// the header's numbers so a test can damage one of them. Header-only.
#pragma once

#include "marionette/Math.h"

#include <QByteArray>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace marionette::test {

/// The header's 27 little-endian uint32 after the 16-byte magic, in file order.
enum class Field : int {
    Version,
    FileSize,
    Flags,
    NumText,
    OfsText,
    NumMeshes,
    OfsMeshes,
    NumVertexArrays,
    NumVertexes,
    OfsVertexArrays,
    NumTriangles,
    OfsTriangles,
    OfsAdjacency,
    NumJoints,
    OfsJoints,
    NumPoses,
    OfsPoses,
    NumAnims,
    OfsAnims,
    NumFrames,
    NumFrameChannels,
    OfsFrames,
    OfsBounds,
    NumComment,
    OfsComment,
    NumExtensions,
    OfsExtensions
};
inline int fieldOffset(Field f)
{
    return 16 + 4 * int(f);
}

inline std::uint32_t readU32(const QByteArray& b, int at)
{
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i)
        v = (v << 8) | std::uint8_t(b[at + i]);
    return v;
}
inline void writeU32(QByteArray& b, int at, std::uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        b[at + i] = char((v >> (8 * i)) & 0xff);
}
inline void writeF32(QByteArray& b, int at, float f)
{
    std::uint32_t v;
    std::memcpy(&v, &f, 4);
    writeU32(b, at, v);
}
inline std::uint32_t field(const QByteArray& b, Field f)
{
    return readU32(b, fieldOffset(f));
}
inline void setField(QByteArray& b, Field f, std::uint32_t v)
{
    writeU32(b, fieldOffset(f), v);
}

struct IqmJoint {
    std::uint32_t name = 0;
    std::int32_t parent = -1;
    Vec3 translate;
    Quat rotate;
    Vec3 scale{1, 1, 1};
};
struct IqmPose {
    std::int32_t parent = -1;
    std::uint32_t mask = 0;
    std::array<float, 10> offset{};
    std::array<float, 10> scale{};
};

/// What tinyIqm() writes, and where, so tests can damage it.
struct IqmSpec {
    std::string text; ///< NUL-separated strings, starting with a NUL
    std::uint32_t meshName = 0, material = 0, animName = 0;
    std::vector<Vec3> positions, normals;
    std::vector<std::array<float, 2>> texcoords;
    std::vector<std::array<std::uint8_t, 4>> blendIndexes, blendWeights;
    std::vector<std::array<std::uint32_t, 3>> triangles;
    std::vector<IqmJoint> joints;
    std::vector<IqmPose> poses;
    std::uint32_t frameCount = 0, frameChannels = 0;
    float framerate = 10.f;
    std::vector<std::uint16_t> frames;
};

/// Two joints in a Z-up file: "root" at (0, 0, 1) turned 90° about Z, "tip" 2 units along root's x (world
/// (0, 2, 1)). One triangle "tri" with material "skin.png": (0, 0, 0), (1, 0, 0), (0, 0, 4), wound clockwise
/// seen from +Y (IQM's front), normals +Y, weights root 255 | root 128 + tip 127 | tip 200 + root 55.
/// Animation "wave", 2 frames at 10 fps: root constant at its bind pose; tip's translate x goes 2 -> 3
/// (offset 2, scale 0.001, values 0 and 1000) and its rotate z 0 -> 1 (scale 1/65535, values 0 and 65535; w
/// stays 1), i.e. identity -> 90° about Z.
inline IqmSpec tinySpec()
{
    IqmSpec s;
    s.text = std::string("\0root\0tip\0tri\0skin.png\0wave\0", 28);
    s.meshName = 10;
    s.material = 14;
    s.animName = 23;
    s.positions = {{0, 0, 0}, {1, 0, 0}, {0, 0, 4}};
    s.normals = {{0, 1, 0}, {0, 1, 0}, {0, 1, 0}};
    s.texcoords = {{0, 0}, {1, 0}, {0, 1}};
    s.blendIndexes = {{0, 0, 0, 0}, {0, 1, 0, 0}, {0, 1, 0, 0}};
    s.blendWeights = {{255, 0, 0, 0}, {128, 127, 0, 0}, {55, 200, 0, 0}};
    s.triangles = {{0, 1, 2}};
    const float h = std::sqrt(0.5f);
    s.joints = {{1, -1, {0, 0, 1}, {0, 0, h, h}, {1, 1, 1}}, {6, 0, {2, 0, 0}, {}, {1, 1, 1}}};
    IqmPose root;
    root.offset = {0, 0, 1, 0, 0, h, h, 1, 1, 1};
    IqmPose tip;
    tip.parent = 0;
    tip.mask = (1u << 0) | (1u << 5);
    tip.offset = {2, 0, 0, 0, 0, 0, 1, 1, 1, 1};
    tip.scale[0] = 0.001f;
    tip.scale[5] = 1.f / 65535.f;
    s.poses = {root, tip};
    s.frameCount = 2;
    s.frameChannels = 2;
    s.frames = {0, 0, 1000, 65535};
    return s;
}

/// The bytes of `s` as an IQM 2 file (no adjacency, bounds, comments or extensions).
inline QByteArray writeIqm(const IqmSpec& s)
{
    QByteArray b(124, '\0');
    std::memcpy(b.data(), "INTERQUAKEMODEL\0", 16);
    auto u32 = [&](std::uint32_t v) {
        const int at = int(b.size());
        b.append(4, '\0');
        writeU32(b, at, v);
    };
    auto f32 = [&](float f) {
        const int at = int(b.size());
        b.append(4, '\0');
        writeF32(b, at, f);
    };
    auto here = [&] { return std::uint32_t(b.size()); };
    const auto n = std::uint32_t(s.positions.size());
    setField(b, Field::Version, 2);
    setField(b, Field::NumText, std::uint32_t(s.text.size()));
    setField(b, Field::OfsText, here());
    b.append(s.text.data(), int(s.text.size()));
    while (b.size() % 4)
        b.append('\0');
    setField(b, Field::NumMeshes, 1);
    setField(b, Field::OfsMeshes, here());
    for (std::uint32_t v : {s.meshName, s.material, 0u, n, 0u, std::uint32_t(s.triangles.size())})
        u32(v);
    // Vertex arrays: type, flags, format, size, offset; the data follows the five records.
    struct Array {
        std::uint32_t type, format, size;
    };
    const Array arrays[] = {{0, 7, 3}, {2, 7, 3}, {1, 7, 2}, {4, 1, 4}, {5, 1, 4}};
    setField(b, Field::NumVertexArrays, 5);
    setField(b, Field::NumVertexes, n);
    setField(b, Field::OfsVertexArrays, here());
    std::uint32_t data = here() + 5 * 20;
    const std::uint32_t bytesPer[] = {12, 12, 8, 4, 4};
    for (int i = 0; i < 5; ++i) {
        for (std::uint32_t v : {arrays[i].type, 0u, arrays[i].format, arrays[i].size, data})
            u32(v);
        data += bytesPer[i] * n;
    }
    for (const Vec3& p : s.positions)
        f32(p.x), f32(p.y), f32(p.z);
    for (const Vec3& p : s.normals)
        f32(p.x), f32(p.y), f32(p.z);
    for (const auto& t : s.texcoords)
        f32(t[0]), f32(t[1]);
    for (const auto& i : s.blendIndexes)
        b.append(reinterpret_cast<const char*>(i.data()), 4);
    for (const auto& w : s.blendWeights)
        b.append(reinterpret_cast<const char*>(w.data()), 4);
    setField(b, Field::NumTriangles, std::uint32_t(s.triangles.size()));
    setField(b, Field::OfsTriangles, here());
    for (const auto& t : s.triangles)
        u32(t[0]), u32(t[1]), u32(t[2]);
    setField(b, Field::NumJoints, std::uint32_t(s.joints.size()));
    setField(b, Field::OfsJoints, here());
    for (const IqmJoint& j : s.joints) {
        u32(j.name);
        u32(std::uint32_t(j.parent));
        for (float f : {j.translate.x, j.translate.y, j.translate.z, j.rotate.x, j.rotate.y, j.rotate.z, j.rotate.w,
                        j.scale.x, j.scale.y, j.scale.z})
            f32(f);
    }
    setField(b, Field::NumPoses, std::uint32_t(s.poses.size()));
    setField(b, Field::OfsPoses, here());
    for (const IqmPose& p : s.poses) {
        u32(std::uint32_t(p.parent));
        u32(p.mask);
        for (float f : p.offset)
            f32(f);
        for (float f : p.scale)
            f32(f);
    }
    setField(b, Field::NumAnims, 1);
    setField(b, Field::OfsAnims, here());
    u32(s.animName);
    u32(0);
    u32(s.frameCount);
    f32(s.framerate);
    u32(0);
    setField(b, Field::NumFrames, s.frameCount);
    setField(b, Field::NumFrameChannels, s.frameChannels);
    setField(b, Field::OfsFrames, here());
    for (std::uint16_t v : s.frames)
        b.append(char(v & 0xff)).append(char(v >> 8));
    setField(b, Field::FileSize, std::uint32_t(b.size()));
    return b;
}

} // namespace marionette::test
