#include "IqmFile.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <sstream>

namespace marionette::plugins::iqm {
namespace {

constexpr char kMagic[16] = {'I', 'N', 'T', 'E', 'R', 'Q', 'U', 'A', 'K', 'E', 'M', 'O', 'D', 'E', 'L', '\0'};

enum ArrayType : std::uint32_t {
    Position = 0,
    TexCoord = 1,
    Normal = 2,
    Tangent = 3,
    BlendIndexes = 4,
    BlendWeights = 5,
    Color = 6
};
enum Format : std::uint32_t { Byte = 0, UByte, Short, UShort, Int, UInt, Half, Float, Double, FormatCount };

constexpr std::size_t kMeshBytes = 24, kArrayBytes = 20, kTriangleBytes = 12, kJointBytes = 48, kPoseBytes = 88,
                      kAnimBytes = 20, kBoundsBytes = 32, kExtensionBytes = 16;

const char* arrayName(std::uint32_t type)
{
    static const char* names[] = {"position",      "texture coordinate", "normal", "tangent",
                                  "blend indexes", "blend weights",      "colour"};
    return type <= Color ? names[type] : "custom";
}
const char* formatName(std::uint32_t f)
{
    static const char* names[] = {"byte", "ubyte", "short", "ushort", "int", "uint", "half", "float", "double"};
    return f < FormatCount ? names[f] : "?";
}
std::size_t formatBytes(std::uint32_t f)
{
    static const std::size_t bytes[] = {1, 1, 2, 2, 4, 4, 2, 4, 8};
    return f < FormatCount ? bytes[f] : 0;
}
bool isIntegerFormat(std::uint32_t f)
{
    return f <= UInt;
}

/// Concatenates its arguments as text (numbers with up to 9 significant digits).
template <class... Args> std::string cat(const Args&... args)
{
    std::ostringstream s;
    s.precision(9);
    (s << ... << args);
    return s.str();
}
std::string text(Vec3 v)
{
    return cat('(', v.x, ", ", v.y, ", ", v.z, ')');
}
std::string inQuotes(const std::string& name)
{
    return cat('\'', name, '\'');
}

/// count elements of `size` bytes from `offset` lie within `limit` bytes; no product can overflow.
bool fits(std::uint64_t offset, std::uint64_t count, std::uint64_t size, std::uint64_t limit)
{
    if (offset > limit)
        return false;
    return count == 0 || size == 0 || count <= (limit - offset) / size;
}

/// Little-endian loads from a checked range.
class Bytes {
  public:
    explicit Bytes(std::span<const std::byte> data) : mData(data) {}
    std::uint64_t size() const { return mData.size(); }
    const std::byte* at(std::uint64_t offset) const { return mData.data() + offset; }
    std::uint8_t u8(std::uint64_t o) const { return std::uint8_t(mData[o]); }
    std::uint16_t u16(std::uint64_t o) const { return std::uint16_t(u8(o) | (u8(o + 1) << 8)); }
    std::uint32_t u32(std::uint64_t o) const
    {
        return std::uint32_t(u8(o)) | (std::uint32_t(u8(o + 1)) << 8) | (std::uint32_t(u8(o + 2)) << 16) |
               (std::uint32_t(u8(o + 3)) << 24);
    }
    std::uint64_t u64(std::uint64_t o) const { return std::uint64_t(u32(o)) | (std::uint64_t(u32(o + 4)) << 32); }
    std::int32_t i32(std::uint64_t o) const { return std::bit_cast<std::int32_t>(u32(o)); }
    float f32(std::uint64_t o) const { return std::bit_cast<float>(u32(o)); }
    Vec3 vec3(std::uint64_t o) const { return {f32(o), f32(o + 4), f32(o + 8)}; }

    /// One component of a vertex array as a number; integer formats divided by their largest value when
    /// `normalised` (weights, and normals or texture coordinates stored as integers).
    double component(std::uint64_t o, std::uint32_t format, bool normalised) const
    {
        switch (format) {
        case Byte:
            return double(std::int8_t(u8(o))) / (normalised ? 127. : 1.);
        case UByte:
            return double(u8(o)) / (normalised ? 255. : 1.);
        case Short:
            return double(std::int16_t(u16(o))) / (normalised ? 32767. : 1.);
        case UShort:
            return double(u16(o)) / (normalised ? 65535. : 1.);
        case Int:
            return double(i32(o)) / (normalised ? 2147483647. : 1.);
        case UInt:
            return double(u32(o)) / (normalised ? 4294967295. : 1.);
        case Half:
            return half(u16(o));
        case Float:
            return double(f32(o));
        case Double:
            return std::bit_cast<double>(u64(o));
        default:
            return 0.;
        }
    }

  private:
    static double half(std::uint16_t h)
    {
        const int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
        const double sign = (h & 0x8000) ? -1. : 1.;
        if (exponent == 0)
            return sign * std::ldexp(double(mantissa), -24);
        if (exponent == 31)
            return mantissa == 0 ? sign * HUGE_VAL : std::nan("");
        return sign * std::ldexp(double(mantissa + 1024), exponent - 25);
    }

    std::span<const std::byte> mData;
};

/// The header's 27 numbers, by name.
struct Header {
    std::uint32_t version, fileSize, flags, numText, ofsText, numMeshes, ofsMeshes, numVertexArrays, numVertexes,
        ofsVertexArrays, numTriangles, ofsTriangles, ofsAdjacency, numJoints, ofsJoints, numPoses, ofsPoses, numAnims,
        ofsAnims, numFrames, numFrameChannels, ofsFrames, ofsBounds, numComment, ofsComment, numExtensions,
        ofsExtensions;
};
static_assert(sizeof(Header) == 27 * sizeof(std::uint32_t));

struct VertexArray {
    std::uint32_t index = 0, type = 0, format = 0, size = 0, offset = 0;
    bool present = false;
};

class Reader {
  public:
    Reader(const Bytes& bytes, const Header& header, File& file, std::string& message)
        : b(bytes), h(header), out(file), error(message)
    {
    }

    bool read()
    {
        return sections() && meshes() && joints() && vertexArrays() && vertices() && triangles() && animations();
    }

  private:
    bool fail(std::string message)
    {
        error = std::move(message);
        return false;
    }

    /// A section of `count` elements of `size` bytes at `offset`: outside the header and inside the file.
    bool section(const char* what, std::uint64_t offset, std::uint64_t count, std::uint64_t size)
    {
        if (count == 0 || size == 0)
            return true;
        if (offset < kHeaderSize)
            return fail(cat(what, ": offset ", offset, " lies inside the header"));
        if (!fits(offset, count, size, b.size()))
            return fail(cat(what, ": ", count, " x ", size, " bytes at offset ", offset,
                            " run past the end of the file (", b.size(), " bytes)"));
        return true;
    }

    bool sections()
    {
        return section("text", h.ofsText, h.numText, 1) && section("meshes", h.ofsMeshes, h.numMeshes, kMeshBytes) &&
               section("vertex arrays", h.ofsVertexArrays, h.numVertexArrays, kArrayBytes) &&
               section("triangles", h.ofsTriangles, h.numTriangles, kTriangleBytes) &&
               (h.ofsAdjacency == 0 || section("adjacency", h.ofsAdjacency, h.numTriangles, kTriangleBytes)) &&
               section("joints", h.ofsJoints, h.numJoints, kJointBytes) &&
               section("poses", h.ofsPoses, h.numPoses, kPoseBytes) &&
               section("animations", h.ofsAnims, h.numAnims, kAnimBytes) &&
               section("frames", h.ofsFrames, h.numFrames, std::uint64_t(h.numFrameChannels) * 2) &&
               (h.ofsBounds == 0 || section("bounds", h.ofsBounds, h.numFrames, kBoundsBytes)) &&
               section("comments", h.ofsComment, h.numComment, 1) &&
               section("extensions", h.ofsExtensions, h.numExtensions == 0 ? 0 : 1, kExtensionBytes);
    }

    /// The string at `offset` of the text section: NUL-terminated inside it, at most kMaxNameBytes long.
    bool string(std::uint32_t offset, const std::string& where, std::string& s)
    {
        if (offset == 0 && h.numText == 0) { // a file without text: every name is empty
            s.clear();
            return true;
        }
        if (offset >= h.numText)
            return fail(cat(where, ": text offset ", offset, " is outside the text (", h.numText, " bytes)"));
        const std::size_t room = std::min<std::size_t>(h.numText - offset, kMaxNameBytes + 1);
        const std::byte* first = b.at(std::uint64_t(h.ofsText) + offset);
        const void* nul = std::memchr(first, 0, room);
        if (!nul)
            return fail(
                room > kMaxNameBytes
                    ? cat(where, ": the string at text offset ", offset, " is longer than ", kMaxNameBytes, " bytes")
                    : cat(where, ": the string at text offset ", offset, " has no NUL before the text ends"));
        s.assign(reinterpret_cast<const char*>(first), std::size_t(static_cast<const std::byte*>(nul) - first));
        return true;
    }

    bool meshes()
    {
        std::uint64_t vertices = 0, tris = 0;
        out.meshes.resize(h.numMeshes);
        for (std::uint32_t i = 0; i < h.numMeshes; ++i) {
            const std::uint64_t o = std::uint64_t(h.ofsMeshes) + std::uint64_t(i) * kMeshBytes;
            Mesh& m = out.meshes[i];
            const std::string where = cat("mesh ", i);
            if (!string(b.u32(o), where, m.name) || !string(b.u32(o + 4), where, m.material))
                return false;
            m.firstVertex = b.u32(o + 8);
            m.vertexCount = b.u32(o + 12);
            m.firstTriangle = b.u32(o + 16);
            m.triangleCount = b.u32(o + 20);
            const std::string named = cat("mesh ", inQuotes(m.name));
            if (std::uint64_t(m.firstVertex) + m.vertexCount > h.numVertexes)
                return fail(cat(named, ": vertices ", m.firstVertex, " + ", m.vertexCount, " run past the file's ",
                                h.numVertexes));
            if (std::uint64_t(m.firstTriangle) + m.triangleCount > h.numTriangles)
                return fail(cat(named, ": triangles ", m.firstTriangle, " + ", m.triangleCount, " run past the file's ",
                                h.numTriangles));
            vertices += m.vertexCount;
            tris += m.triangleCount;
        }
        // Meshes own disjoint ranges; overlapping ones would multiply what the import copies.
        if (vertices > h.numVertexes || tris > h.numTriangles)
            return fail(cat("the meshes claim ", vertices, " vertices and ", tris, " triangles of the file's ",
                            h.numVertexes, " and ", h.numTriangles, ": their ranges overlap"));
        return true;
    }

    bool joints()
    {
        if (h.numJoints > kMaxJoints)
            return fail(cat(h.numJoints, " joints, more than the ", kMaxJoints, " this importer reads"));
        out.joints.resize(h.numJoints);
        for (std::uint32_t i = 0; i < h.numJoints; ++i) {
            const std::uint64_t o = std::uint64_t(h.ofsJoints) + std::uint64_t(i) * kJointBytes;
            Joint& j = out.joints[i];
            if (!string(b.u32(o), cat("joint ", i), j.name))
                return false;
            const std::int32_t parent = b.i32(o + 4);
            if (parent >= std::int32_t(i))
                return fail(cat("joint ", i, " names parent ", parent, ", not an earlier joint"));
            j.parent = parent < 0 ? -1 : parent;
            j.translate = b.vec3(o + 8);
            const Quat q{b.f32(o + 20), b.f32(o + 24), b.f32(o + 28), b.f32(o + 32)};
            j.scale = b.vec3(o + 36);
            const std::string where = cat("joint ", i, ' ', inQuotes(j.name));
            const float q2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
            if (!isFinite(j.translate) || !isFinite(j.scale) || !std::isfinite(q2))
                return fail(cat(where, ": bind pose is not finite"));
            if (!(q2 > 1e-12f))
                return fail(cat(where, ": rotation (", q.x, ", ", q.y, ", ", q.z, ", ", q.w, ") is not a rotation"));
            j.rotate = normalize(q);
        }
        return true;
    }

    bool vertexArrays()
    {
        for (std::uint32_t i = 0; i < h.numVertexArrays; ++i) {
            const std::uint64_t o = std::uint64_t(h.ofsVertexArrays) + std::uint64_t(i) * kArrayBytes;
            VertexArray a{i, b.u32(o), b.u32(o + 8), b.u32(o + 12), b.u32(o + 16), true};
            const std::string where = cat("vertex array ", i, " (", arrayName(a.type), ')');
            if (a.format >= FormatCount)
                return fail(cat(where, ": unknown format ", a.format));
            if (!section(where.c_str(), a.offset, h.numVertexes, std::uint64_t(a.size) * formatBytes(a.format)))
                return false;
            if (a.type > BlendWeights || a.type == Tangent)
                continue; // tangents, colours and custom arrays are not imported
            const std::uint32_t needed =
                a.type == TexCoord ? 2 : (a.type == BlendIndexes || a.type == BlendWeights ? 1 : 3);
            if (a.size < needed || ((a.type == BlendIndexes || a.type == BlendWeights) && a.size > 4))
                return fail(cat(where, ": ", a.size, " components per vertex (",
                                a.type >= BlendIndexes ? "1 to 4" : cat(needed, " or more"), ')'));
            if (a.type == BlendIndexes && !isIntegerFormat(a.format))
                return fail(cat(where, ": format ", formatName(a.format), " is not an integer format"));
            if (arrays[a.type].present) {
                out.warnings.push_back(cat(where, ": a second ", arrayName(a.type), " array; ignored"));
                continue;
            }
            arrays[a.type] = a;
        }
        if (h.numVertexes > 0 && !arrays[Position].present)
            return fail("the file has vertices but no position array");
        if (arrays[BlendIndexes].present != arrays[BlendWeights].present)
            return fail(arrays[BlendIndexes].present ? "blend indexes without blend weights"
                                                     : "blend weights without blend indexes");
        if (arrays[BlendIndexes].present && arrays[BlendIndexes].size != arrays[BlendWeights].size)
            return fail(cat(arrays[BlendIndexes].size, " blend indexes per vertex but ", arrays[BlendWeights].size,
                            " blend weights"));
        return true;
    }

    /// "mesh 'Body' vertex 11" (the index within the first mesh that holds vertex v), or "vertex 11".
    std::string vertexName(std::uint32_t v) const
    {
        for (const Mesh& m : out.meshes)
            if (v >= m.firstVertex && v - m.firstVertex < m.vertexCount)
                return cat("mesh ", inQuotes(m.name), " vertex ", v - m.firstVertex);
        return cat("vertex ", v);
    }

    double component(const VertexArray& a, std::uint32_t v, std::uint32_t c, bool normalised) const
    {
        const std::uint64_t bytes = formatBytes(a.format);
        return b.component(a.offset + (std::uint64_t(v) * a.size + c) * bytes, a.format, normalised);
    }
    Vec3 vector(const VertexArray& a, std::uint32_t v, bool normalised) const
    {
        return {float(component(a, v, 0, normalised)), float(component(a, v, 1, normalised)),
                float(component(a, v, 2, normalised))};
    }

    bool vertices()
    {
        const std::uint32_t n = h.numVertexes;
        const VertexArray& p = arrays[Position];
        out.positions.resize(n);
        for (std::uint32_t v = 0; v < n; ++v) {
            out.positions[v] = vector(p, v, false);
            if (!isFinite(out.positions[v]))
                return fail(cat(vertexName(v), ": position is not finite ", text(out.positions[v])));
        }
        if (const VertexArray& a = arrays[Normal]; a.present) {
            out.normals.resize(n);
            for (std::uint32_t v = 0; v < n; ++v)
                out.normals[v] = vector(a, v, true); // a non-finite normal is recomputed by the scene builder
        }
        if (const VertexArray& a = arrays[TexCoord]; a.present) {
            out.texcoords.resize(n);
            for (std::uint32_t v = 0; v < n; ++v) {
                out.texcoords[v] = {float(component(a, v, 0, true)), float(component(a, v, 1, true))};
                if (!std::isfinite(out.texcoords[v][0]) || !std::isfinite(out.texcoords[v][1]))
                    return fail(cat(vertexName(v), ": texture coordinate is not finite (", out.texcoords[v][0], ", ",
                                    out.texcoords[v][1], ')'));
            }
        }
        if (const VertexArray& ji = arrays[BlendIndexes]; ji.present) {
            const VertexArray& jw = arrays[BlendWeights];
            out.blends.resize(n);
            for (std::uint32_t v = 0; v < n; ++v) {
                Blend& blend = out.blends[v];
                for (std::uint32_t k = 0; k < ji.size; ++k) {
                    const double w = component(jw, v, k, true), index = component(ji, v, k, false);
                    if (!std::isfinite(w) || w < 0.)
                        return fail(cat(vertexName(v), ": blend weight ", k, " is ", w, ", not a finite number >= 0"));
                    if (w == 0.)
                        continue;
                    if (index < 0. || index >= double(h.numJoints))
                        return fail(cat(vertexName(v), ": blend index ", k, " names joint ", index, " (the file has ",
                                        h.numJoints, " joints)"));
                    blend.joint[k] = std::uint32_t(index);
                    blend.weight[k] = float(w);
                }
            }
        }
        return true;
    }

    bool triangles()
    {
        out.triangles.resize(h.numTriangles);
        for (std::uint32_t t = 0; t < h.numTriangles; ++t) {
            const std::uint64_t o = std::uint64_t(h.ofsTriangles) + std::uint64_t(t) * kTriangleBytes;
            out.triangles[t] = {b.u32(o), b.u32(o + 4), b.u32(o + 8)};
        }
        for (const Mesh& m : out.meshes)
            for (std::uint32_t t = 0; t < m.triangleCount; ++t)
                for (std::uint32_t v : out.triangles[m.firstTriangle + t])
                    if (v < m.firstVertex || v - m.firstVertex >= m.vertexCount)
                        return fail(cat("mesh ", inQuotes(m.name), " triangle ", t, ": vertex ", v,
                                        " is not one of the mesh's ", m.vertexCount, " vertices (from ", m.firstVertex,
                                        ')'));
        return true;
    }

    bool animations()
    {
        if (h.numAnims == 0)
            return true;
        if (std::uint64_t(h.numAnims) * h.numJoints > kMaxChannels)
            return fail(cat(h.numAnims, " animations of ", h.numJoints, " joints: more than the ", kMaxChannels,
                            " channels this importer reads"));
        if (h.numPoses != h.numJoints)
            return fail(cat("the animations have ", h.numPoses, " poses for ", h.numJoints, " joints"));
        std::uint64_t channels = 0;
        out.poses.resize(h.numPoses);
        for (std::uint32_t i = 0; i < h.numPoses; ++i) {
            const std::uint64_t o = std::uint64_t(h.ofsPoses) + std::uint64_t(i) * kPoseBytes;
            Pose& p = out.poses[i];
            const std::int32_t parent = b.i32(o);
            p.parent = parent < 0 ? -1 : parent;
            p.mask = b.u32(o + 4);
            if (p.parent != out.joints[i].parent)
                return fail(
                    cat("pose ", i, " names parent ", parent, " but joint ", i, "'s parent is ", out.joints[i].parent));
            if (p.mask >> kChannels)
                return fail(cat("pose ", i, ": channel mask 0x", std::hex, p.mask, " has bits beyond the ", std::dec,
                                kChannels, " channels"));
            for (int c = 0; c < kChannels; ++c) {
                p.offset[std::size_t(c)] = b.f32(o + 8 + 4 * std::uint64_t(c));
                p.scale[std::size_t(c)] = b.f32(o + 48 + 4 * std::uint64_t(c));
                if (!std::isfinite(p.offset[std::size_t(c)]) || !std::isfinite(p.scale[std::size_t(c)]))
                    return fail(cat("pose ", i, ": channel ", c, " offset or scale is not finite"));
            }
            channels += std::uint64_t(std::popcount(p.mask));
        }
        if (channels != h.numFrameChannels)
            return fail(cat("the poses animate ", channels, " channels but each frame holds ", h.numFrameChannels));
        std::uint64_t claimed = 0;
        out.anims.resize(h.numAnims);
        for (std::uint32_t i = 0; i < h.numAnims; ++i) {
            const std::uint64_t o = std::uint64_t(h.ofsAnims) + std::uint64_t(i) * kAnimBytes;
            Anim& a = out.anims[i];
            if (!string(b.u32(o), cat("animation ", i), a.name))
                return false;
            a.firstFrame = b.u32(o + 4);
            a.frameCount = b.u32(o + 8);
            a.framerate = b.f32(o + 12);
            a.loop = (b.u32(o + 16) & 1u) != 0;
            if (std::uint64_t(a.firstFrame) + a.frameCount > h.numFrames)
                return fail(cat("animation ", inQuotes(a.name), ": frames ", a.firstFrame, " + ", a.frameCount,
                                " run past the file's ", h.numFrames));
            claimed += a.frameCount;
        }
        // Animations own disjoint frame ranges; overlapping ones would multiply the keys a small file makes.
        if (claimed > h.numFrames)
            return fail(
                cat("the animations claim ", claimed, " frames of the file's ", h.numFrames, ": their ranges overlap"));
        out.frameChannels = h.numFrameChannels;
        const std::uint64_t values = std::uint64_t(h.numFrames) * h.numFrameChannels;
        out.frames.resize(std::size_t(values));
        for (std::uint64_t k = 0; k < values; ++k)
            out.frames[std::size_t(k)] = b.u16(h.ofsFrames + 2 * k);
        return true;
    }

    const Bytes& b;
    const Header& h;
    File& out;
    std::string& error;
    VertexArray arrays[BlendWeights + 1];
};

} // namespace

bool hasMagic(std::span<const std::byte> bytes)
{
    return bytes.size() >= sizeof(kMagic) && std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) == 0;
}

bool readFile(std::span<const std::byte> bytes, File& out, std::string& error)
{
    if (bytes.size() < sizeof(kMagic) || !hasMagic(bytes)) {
        error = "not an IQM file (it does not start with \"INTERQUAKEMODEL\")";
        return false;
    }
    if (bytes.size() < kHeaderSize) {
        error = cat("the file ends inside the IQM header (", bytes.size(), " of ", kHeaderSize, " bytes)");
        return false;
    }
    if (bytes.size() > kMaxFileBytes) {
        error = cat("the file has ", bytes.size(), " bytes, more than the ", kMaxFileBytes, " this importer reads");
        return false;
    }
    const Bytes all(bytes);
    std::uint32_t fields[27];
    for (std::size_t i = 0; i < 27; ++i)
        fields[i] = all.u32(16 + 4 * i);
    Header h;
    std::memcpy(&h, fields, sizeof(h));
    if (h.version != kVersion) {
        error = cat("IQM version ", h.version, " is not supported (only version ", kVersion, ')');
        return false;
    }
    if (h.fileSize < kHeaderSize || h.fileSize > bytes.size()) {
        error = h.fileSize < kHeaderSize
                    ? cat("the header gives a file size of ", h.fileSize, " bytes, less than the header")
                    : cat("the file is truncated: ", bytes.size(), " of the ", h.fileSize, " bytes its header gives");
        return false;
    }
    if (h.fileSize < bytes.size())
        out.warnings.push_back(
            cat(bytes.size() - h.fileSize, " bytes after the end the header gives (", h.fileSize, " bytes); ignored"));
    const Bytes limited(bytes.first(h.fileSize));
    return Reader(limited, h, out, error).read();
}

} // namespace marionette::plugins::iqm
