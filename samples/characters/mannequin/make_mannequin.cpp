// make_mannequin: writes mannequin.glb, the sample humanoid: a wooden artist's mannequin 1.8 m tall, standing
// on y = 0 facing +Z in a T-pose (glTF axes, metres, left = +X), made of ellipsoids that each follow one bone
// of a 21-bone skeleton with Mixamo's bone names, so `marionette import` picks the humanoid template.
//
//   make_mannequin OUT.glb
//
// The output is byte-for-byte reproducible: the geometry is axis-aligned and its sines and cosines are
// constants, so only +, −, ×, ÷ and √ (exactly rounded in IEEE arithmetic) produce it. The committed
// mannequin.glb is this program's output; tests/samples checks that regenerating it changes nothing, since
// the project (mannequin.mproj) records the mesh's SHA-256.
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct V3 {
    float x, y, z;
};

// The skeleton: name, parent (index in this table, parents first), joint position in the bind pose.
struct Joint {
    const char* name;
    int parent;
    V3 at;
};
// clang-format off
const Joint kJoints[] = {
    {"Hips", -1, {0.f, 0.95f, 0.f}},              // 0
    {"Spine", 0, {0.f, 1.05f, 0.f}},              // 1
    {"Spine1", 1, {0.f, 1.25f, 0.f}},             // 2  chest
    {"Neck", 2, {0.f, 1.48f, 0.f}},               // 3
    {"Head", 3, {0.f, 1.58f, 0.f}},               // 4
    {"LeftShoulder", 2, {0.05f, 1.43f, 0.f}},     // 5
    {"LeftArm", 5, {0.18f, 1.43f, 0.f}},          // 6
    {"LeftForeArm", 6, {0.46f, 1.43f, 0.f}},      // 7
    {"LeftHand", 7, {0.71f, 1.43f, 0.f}},         // 8
    {"RightShoulder", 2, {-0.05f, 1.43f, 0.f}},   // 9
    {"RightArm", 9, {-0.18f, 1.43f, 0.f}},        // 10
    {"RightForeArm", 10, {-0.46f, 1.43f, 0.f}},   // 11
    {"RightHand", 11, {-0.71f, 1.43f, 0.f}},      // 12
    {"LeftUpLeg", 0, {0.1f, 0.91f, 0.f}},         // 13
    {"LeftLeg", 13, {0.1f, 0.5f, 0.f}},           // 14
    {"LeftFoot", 14, {0.1f, 0.09f, 0.f}},         // 15
    {"LeftToeBase", 15, {0.1f, 0.02f, 0.13f}},    // 16
    {"RightUpLeg", 0, {-0.1f, 0.91f, 0.f}},       // 17
    {"RightLeg", 17, {-0.1f, 0.5f, 0.f}},         // 18
    {"RightFoot", 18, {-0.1f, 0.09f, 0.f}},       // 19
    {"RightToeBase", 19, {-0.1f, 0.02f, 0.13f}},  // 20
};
constexpr int kJointCount = int(sizeof kJoints / sizeof kJoints[0]);

// The body: axis-aligned ellipsoids (centre, radii along x, y, z), each skinned entirely to one bone.
struct Part {
    int bone;
    V3 centre, radii;
};
const Part kParts[] = {
    {0, {0.f, 0.95f, 0.f}, {0.17f, 0.11f, 0.11f}},      // pelvis
    {1, {0.f, 1.13f, 0.f}, {0.14f, 0.12f, 0.1f}},       // abdomen
    {2, {0.f, 1.33f, 0.f}, {0.19f, 0.15f, 0.12f}},      // chest
    {3, {0.f, 1.51f, 0.f}, {0.05f, 0.07f, 0.05f}},      // neck
    {4, {0.f, 1.69f, 0.01f}, {0.09f, 0.12f, 0.105f}},   // head
    {4, {0.f, 1.68f, 0.11f}, {0.015f, 0.025f, 0.02f}},  // nose (shows which way the figure faces)
    {6, {0.18f, 1.43f, 0.f}, {0.06f, 0.06f, 0.06f}},    // left shoulder ball
    {6, {0.32f, 1.43f, 0.f}, {0.15f, 0.05f, 0.05f}},    // left upper arm
    {7, {0.46f, 1.43f, 0.f}, {0.04f, 0.04f, 0.04f}},    // left elbow ball
    {7, {0.585f, 1.43f, 0.f}, {0.13f, 0.045f, 0.045f}}, // left forearm
    {8, {0.78f, 1.43f, 0.f}, {0.08f, 0.025f, 0.05f}},   // left hand
    {10, {-0.18f, 1.43f, 0.f}, {0.06f, 0.06f, 0.06f}},
    {10, {-0.32f, 1.43f, 0.f}, {0.15f, 0.05f, 0.05f}},
    {11, {-0.46f, 1.43f, 0.f}, {0.04f, 0.04f, 0.04f}},
    {11, {-0.585f, 1.43f, 0.f}, {0.13f, 0.045f, 0.045f}},
    {12, {-0.78f, 1.43f, 0.f}, {0.08f, 0.025f, 0.05f}},
    {13, {0.1f, 0.71f, 0.f}, {0.08f, 0.22f, 0.08f}},    // left thigh
    {14, {0.1f, 0.5f, 0.f}, {0.055f, 0.055f, 0.055f}},  // left knee ball
    {14, {0.1f, 0.29f, 0.f}, {0.06f, 0.21f, 0.06f}},    // left shin
    {15, {0.1f, 0.045f, 0.04f}, {0.05f, 0.045f, 0.12f}},// left foot (its sole on y = 0)
    {17, {-0.1f, 0.71f, 0.f}, {0.08f, 0.22f, 0.08f}},
    {18, {-0.1f, 0.5f, 0.f}, {0.055f, 0.055f, 0.055f}},
    {18, {-0.1f, 0.29f, 0.f}, {0.06f, 0.21f, 0.06f}},
    {19, {-0.1f, 0.045f, 0.04f}, {0.05f, 0.045f, 0.12f}},
};
// clang-format on

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

int main(int argc, char** argv)
{
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
    const std::size_t views[] = {append(bin, mesh.positions), append(bin, mesh.normals), append(bin, mesh.joints),
                                 append(bin, mesh.weights),   append(bin, inverseBinds), append(bin, mesh.indices)};
    const std::size_t sizes[] = {mesh.positions.size() * 12, mesh.normals.size() * 12, mesh.joints.size() * 4,
                                 mesh.weights.size() * 16,   inverseBinds.size() * 64,  mesh.indices.size() * 2};
    const std::size_t vertexCount = mesh.positions.size();

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
    add(json, R"("buffers":[{"byteLength":%zu}],"bufferViews":[)", bin.size());
    for (int v = 0; v < 6; ++v)
        add(json, R"(%s{"buffer":0,"byteOffset":%zu,"byteLength":%zu%s})", v ? "," : "", views[v], sizes[v],
            v == 5 ? R"(,"target":34963)" : "");
    // Accessors: 0 positions (with the bounds glTF requires), 1 normals, 2 joints, 3 weights, 4 inverse binds,
    // 5 indices.
    add(json, R"(],"accessors":[{"bufferView":0,"componentType":5126,"count":%zu,"type":"VEC3",)"
              R"("min":[%.9g,%.9g,%.9g],"max":[%.9g,%.9g,%.9g]},)",
        vertexCount, double(lo.x), double(lo.y), double(lo.z), double(hi.x), double(hi.y), double(hi.z));
    add(json, R"({"bufferView":1,"componentType":5126,"count":%zu,"type":"VEC3"},)", vertexCount);
    add(json, R"({"bufferView":2,"componentType":5121,"count":%zu,"type":"VEC4"},)", vertexCount);
    add(json, R"({"bufferView":3,"componentType":5126,"count":%zu,"type":"VEC4"},)", vertexCount);
    add(json, R"({"bufferView":4,"componentType":5126,"count":%d,"type":"MAT4"},)", kJointCount);
    add(json, R"({"bufferView":5,"componentType":5123,"count":%zu,"type":"SCALAR"}]})", mesh.indices.size());
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
    std::printf("wrote %s (%zu bytes): %zu vertices, %zu triangles, %d bones\n", argv[1], glb.size(), vertexCount,
                mesh.indices.size() / 3, kJointCount);
    return 0;
}
