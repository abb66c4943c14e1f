// make_mannequin: writes mannequin.glb, the sample humanoid: a wooden artist's mannequin 1.8 m tall, standing
// on y = 0 facing +Z in a T-pose (glTF axes, metres, left = +X), made of ellipsoids that each follow one bone
// of a 21-bone skeleton with Mixamo's bone names, so `marionette import` picks the humanoid template; and four
// animation clips on that skeleton (idle, walk, getup_back, getup_front; see clips.cpp).
//
//   make_mannequin OUT.glb
//
// This file makes the mesh and writes the glTF; the skeleton and the body's tables are in body.cpp, the clips
// in clips.cpp, their maths in maths.cpp (mannequin.h lists what they share).
//
// The output is byte-for-byte reproducible: the geometry is axis-aligned and its sines and cosines are
// constants, and the clips' trigonometry is the program's own, so only +, −, ×, ÷ and √ (exactly rounded in
// IEEE arithmetic, built without fused multiply-add) produce it. The committed
// mannequin.glb is this program's output; tests/samples checks that regenerating it changes nothing, since
// the project (mannequin.mproj) records the mesh's SHA-256.
#include "mannequin.h"

#include <array>
#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace mannequin {
namespace {

// cos and sin of k · 22.5°, k = 0..16, as constants (no libm: the same bytes on every machine).
constexpr int kSlices = 16, kStacks = 8;
constexpr float kCos[kSlices + 1] = {1.f,         0.92387953f,  0.70710678f,  0.38268343f,  0.f,
                                     -0.38268343f, -0.70710678f, -0.92387953f, -1.f,         -0.92387953f,
                                     -0.70710678f, -0.38268343f, 0.f,          0.38268343f,  0.70710678f,
                                     0.92387953f,  1.f};
constexpr float kSin[kSlices + 1] = {0.f,          0.38268343f,  0.70710678f,  0.92387953f, 1.f,
                                     0.92387953f,  0.70710678f,  0.38268343f,  0.f,         -0.38268343f,
                                     -0.70710678f, -0.92387953f, -1.f,         -0.92387953f, -0.70710678f,
                                     -0.38268343f, 0.f};

struct Mesh {
    std::vector<V3> positions, normals;
    std::vector<std::array<std::uint8_t, 4>> joints;
    std::vector<std::array<float, 4>> weights;
    std::vector<std::uint16_t> indices;
};

// A latitude-longitude ellipsoid: (kStacks + 1) rings of (kSlices + 1) vertices (the seam is duplicated).
void addEllipsoid(Mesh& mesh, const Part& part)
{
    const auto first = std::uint16_t(mesh.positions.size());
    for (int i = 0; i <= kStacks; ++i) {
        // Polar angle i · 22.5° from +Y: the slice table covers it since kStacks = kSlices / 2.
        const float ringY = kCos[i], ringR = kSin[i];
        for (int j = 0; j <= kSlices; ++j) {
            const V3 unit{ringR * kSin[j], ringY, ringR * kCos[j]};
            const V3 r = part.radii;
            mesh.positions.push_back({part.centre.x + unit.x * r.x, part.centre.y + unit.y * r.y,
                                      part.centre.z + unit.z * r.z});
            // The normal of an ellipsoid at the image of a unit-sphere point u is normalise(u / radii).
            const V3 n{unit.x / r.x, unit.y / r.y, unit.z / r.z};
            const float inv = 1.f / std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
            mesh.normals.push_back({n.x * inv, n.y * inv, n.z * inv});
            mesh.joints.push_back({std::uint8_t(part.bone), 0, 0, 0});
            mesh.weights.push_back({1.f, 0.f, 0.f, 0.f});
        }
    }
    for (int i = 0; i < kStacks; ++i)
        for (int j = 0; j < kSlices; ++j) {
            const auto a = std::uint16_t(first + i * (kSlices + 1) + j), b = std::uint16_t(a + kSlices + 1);
            // Counter-clockwise seen from outside (glTF front faces).
            for (std::uint16_t v : {a, b, std::uint16_t(a + 1), std::uint16_t(a + 1), b, std::uint16_t(b + 1)})
                mesh.indices.push_back(v);
        }
}

// Appends raw bytes of a vector to the binary chunk, 4-byte aligned; returns the offset.
template <class T>
std::size_t append(std::vector<std::uint8_t>& bin, const std::vector<T>& data)
{
    const std::size_t offset = bin.size();
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(data.data());
    bin.insert(bin.end(), bytes, bytes + data.size() * sizeof(T));
    while (bin.size() % 4)
        bin.push_back(0);
    return offset;
}

// Appends printf-formatted text to `out`.
[[gnu::format(printf, 2, 3)]] void add(std::string& out, const char* format, ...)
{
    char text[512];
    std::va_list args;
    va_start(args, format);
    std::vsnprintf(text, sizeof text, format, args);
    va_end(args);
    out += text;
}

} // namespace
} // namespace mannequin

int main(int argc, char** argv)
{
    using namespace mannequin;

    if (argc != 2) {
        std::fprintf(stderr, "usage: make_mannequin OUT.glb\n");
        return 2;
    }

    Mesh mesh;
    for (const Part& part : kParts)
        addEllipsoid(mesh, part);
    V3 lo = mesh.positions[0], hi = lo;
    for (const V3& p : mesh.positions) {
        lo = {std::fmin(lo.x, p.x), std::fmin(lo.y, p.y), std::fmin(lo.z, p.z)};
        hi = {std::fmax(hi.x, p.x), std::fmax(hi.y, p.y), std::fmax(hi.z, p.z)};
    }
    // Inverse bind matrices: the joints carry no rotation, so each is a translation by −(joint position).
    std::vector<std::array<float, 16>> inverseBinds;
    for (const Joint& j : kJoints)
        inverseBinds.push_back({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -j.at.x, -j.at.y, -j.at.z, 1});

    std::vector<std::uint8_t> bin;
    // Buffer views and accessors: 0 positions (with the bounds glTF requires), 1 normals, 2 joints, 3 weights,
    // 4 inverse binds, 5 indices; then per clip its key times and one output per channel.
    std::string views, accessors;
    int accessorCount = 0;
    auto addView = [&](std::size_t offset, std::size_t size, const char* extra) {
        add(views, R"(%s{"buffer":0,"byteOffset":%zu,"byteLength":%zu%s})", accessorCount ? "," : "", offset, size, extra);
    };
    auto addAccessor = [&](int componentType, std::size_t count, const char* type, const std::string& extra) {
        add(accessors, R"(%s{"bufferView":%d,"componentType":%d,"count":%zu,"type":"%s"%s})", accessorCount ? "," : "",
            accessorCount, componentType, count, type, extra.c_str());
        return accessorCount++;
    };
    const std::size_t vertexCount = mesh.positions.size();
    std::string bounds;
    add(bounds, R"(,"min":[%.9g,%.9g,%.9g],"max":[%.9g,%.9g,%.9g])", double(lo.x), double(lo.y), double(lo.z),
        double(hi.x), double(hi.y), double(hi.z));
    addView(append(bin, mesh.positions), vertexCount * 12, "");
    addAccessor(5126, vertexCount, "VEC3", bounds);
    addView(append(bin, mesh.normals), vertexCount * 12, "");
    addAccessor(5126, vertexCount, "VEC3", "");
    addView(append(bin, mesh.joints), vertexCount * 4, "");
    addAccessor(5121, vertexCount, "VEC4", "");
    addView(append(bin, mesh.weights), vertexCount * 16, "");
    addAccessor(5126, vertexCount, "VEC4", "");
    addView(append(bin, inverseBinds), inverseBinds.size() * 64, "");
    addAccessor(5126, inverseBinds.size(), "MAT4", "");
    addView(append(bin, mesh.indices), mesh.indices.size() * 2, R"(,"target":34963)");
    addAccessor(5123, mesh.indices.size(), "SCALAR", "");

    // The clips: each animated bone's rotation and the root's translation at every frame (LINEAR).
    std::string animations;
    const std::vector<Clip> clips = makeClips();
    for (std::size_t c = 0; c < clips.size(); ++c) {
        const Clip& clip = clips[c];
        const std::size_t frames = clip.frames.size();
        std::vector<float> times;
        for (std::size_t f = 0; f < frames; ++f)
            times.push_back(float(f) / float(kFps));
        addView(append(bin, times), frames * 4, "");
        std::string timeBounds;
        add(timeBounds, R"(,"min":[%.9g],"max":[%.9g])", double(times.front()), double(times.back()));
        const int input = addAccessor(5126, frames, "SCALAR", timeBounds);
        std::string samplers, channels;
        int sampler = 0;
        auto addChannel = [&](int bone, const char* path, int output) {
            add(samplers, R"(%s{"input":%d,"output":%d,"interpolation":"LINEAR"})", sampler ? "," : "", input, output);
            add(channels, R"(%s{"sampler":%d,"target":{"node":%d,"path":"%s"}})", sampler ? "," : "", sampler, bone + 1,
                path);
            ++sampler;
        };
        std::vector<std::array<float, 3>> root;
        for (const Pose& p : clip.frames)
            root.push_back({float(p.root.x), float(p.root.y), float(p.root.z)});
        addView(append(bin, root), frames * 12, "");
        addChannel(kHips, "translation", addAccessor(5126, frames, "VEC3", ""));
        for (int bone : kAnimated) {
            std::vector<std::array<float, 4>> rotations;
            for (const Pose& p : clip.frames) {
                Q q = normalized(p.local[bone]);
                if (q.w < 0.0)
                    q = {-q.x, -q.y, -q.z, -q.w};
                rotations.push_back({float(q.x), float(q.y), float(q.z), float(q.w)});
            }
            addView(append(bin, rotations), frames * 16, "");
            addChannel(bone, "rotation", addAccessor(5126, frames, "VEC4", ""));
        }
        add(animations, R"(%s{"name":"%s","samplers":[)", c ? "," : "", clip.name);
        animations += samplers + R"(],"channels":[)" + channels + "]}";
    }

    // The glTF document. Node 0 is the skinned mesh, nodes 1.. the joints (joint i is node i + 1).
    std::string json;
    add(json, R"({"asset":{"version":"2.0","generator":"Marionette samples/characters/mannequin/make_mannequin"},)"
              R"("scene":0,"scenes":[{"name":"mannequin","nodes":[0,1]}],)"
              R"("nodes":[{"name":"mannequin","mesh":0,"skin":0})");
    for (int i = 0; i < kJointCount; ++i) {
        const Joint& j = kJoints[i];
        const V3 parent = j.parent < 0 ? V3{0, 0, 0} : kJoints[j.parent].at;
        add(json, R"(,{"name":"%s","translation":[%.9g,%.9g,%.9g])", j.name, double(j.at.x - parent.x),
            double(j.at.y - parent.y), double(j.at.z - parent.z));
        bool hasChildren = false;
        for (int c = 0; c < kJointCount; ++c)
            if (kJoints[c].parent == i) {
                add(json, "%s%d", hasChildren ? "," : R"(,"children":[)", c + 1);
                hasChildren = true;
            }
        json += hasChildren ? "]}" : "}";
    }
    json += R"(],"skins":[{"name":"mannequin","inverseBindMatrices":4,"skeleton":1,"joints":[)";
    for (int i = 0; i < kJointCount; ++i)
        add(json, "%s%d", i ? "," : "", i + 1);
    json += R"(]}],"materials":[{"name":"wood","pbrMetallicRoughness":{"baseColorFactor":[0.78,0.6,0.42,1],)"
            R"("metallicFactor":0,"roughnessFactor":0.7}}],"meshes":[{"name":"mannequin","primitives":[{)"
            R"("attributes":{"POSITION":0,"NORMAL":1,"JOINTS_0":2,"WEIGHTS_0":3},"indices":5,"material":0}]}],)";
    json += R"("animations":[)" + animations + "],";
    add(json, R"("buffers":[{"byteLength":%zu}],"bufferViews":[)", bin.size());
    json += views + R"(],"accessors":[)" + accessors + "]}";
    while (json.size() % 4)
        json += ' '; // the JSON chunk is padded with spaces

    // GLB container: header, JSON chunk, BIN chunk (all little-endian 32-bit fields).
    std::vector<std::uint8_t> glb;
    auto u32 = [&glb](std::size_t v) {
        for (int shift = 0; shift < 32; shift += 8)
            glb.push_back(std::uint8_t(v >> shift));
    };
    u32(0x46546C67); // "glTF"
    u32(2);
    u32(12 + 8 + json.size() + 8 + bin.size());
    u32(json.size());
    u32(0x4E4F534A); // "JSON"
    glb.insert(glb.end(), json.begin(), json.end());
    u32(bin.size());
    u32(0x004E4942); // "BIN\0"
    glb.insert(glb.end(), bin.begin(), bin.end());

    std::FILE* out = std::fopen(argv[1], "wb");
    if (!out || std::fwrite(glb.data(), 1, glb.size(), out) != glb.size() || std::fclose(out) != 0) {
        std::fprintf(stderr, "make_mannequin: %s: cannot write: %s\n", argv[1], std::strerror(errno));
        return 1;
    }
    std::printf("wrote %s (%zu bytes): %zu vertices, %zu triangles, %d bones, %zu clips\n", argv[1], glb.size(),
                vertexCount, mesh.indices.size() / 3, kJointCount, clips.size());
    return 0;
}
