#include "RawSceneIO.h"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace marionette::import::detail {
namespace {

class Writer {
public:
    explicit Writer(std::string& out) : mOut(out) {}
    template <class T>
    void pod(const T& v)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        mOut.append(reinterpret_cast<const char*>(&v), sizeof(T));
    }
    void text(const std::string& s)
    {
        pod(std::uint64_t(s.size()));
        mOut.append(s);
    }
    template <class T>
    void pods(const std::vector<T>& v)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        pod(std::uint64_t(v.size()));
        if (!v.empty())
            mOut.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
    }

private:
    std::string& mOut;
};

class Reader {
public:
    Reader(const char* data, std::size_t size) : mData(data), mSize(size) {}
    bool ok() const { return mOk; }
    template <class T>
    void pod(T& v)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        if (!take(sizeof(T)))
            return;
        std::memcpy(&v, mData + mPos - sizeof(T), sizeof(T));
    }
    void text(std::string& s)
    {
        std::uint64_t n = 0;
        pod(n);
        if (!mOk || n > mSize - mPos) {
            mOk = false;
            return;
        }
        s.assign(mData + mPos, std::size_t(n));
        mPos += std::size_t(n);
    }
    template <class T>
    void pods(std::vector<T>& v)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        std::uint64_t n = 0;
        pod(n);
        if (!mOk || n > (mSize - mPos) / sizeof(T)) {
            mOk = false;
            return;
        }
        v.resize(std::size_t(n));
        if (n > 0)
            std::memcpy(v.data(), mData + mPos, std::size_t(n) * sizeof(T));
        mPos += std::size_t(n) * sizeof(T);
    }
    /// A count of records at least `minBytes` long each: refused when the bytes left cannot hold them.
    std::size_t count(std::size_t minBytes)
    {
        std::uint64_t n = 0;
        pod(n);
        if (!mOk || n > (mSize - mPos) / minBytes) {
            mOk = false;
            return 0;
        }
        return std::size_t(n);
    }
    bool atEnd() const { return mPos == mSize; }

private:
    bool take(std::size_t n)
    {
        if (!mOk || n > mSize - mPos)
            return mOk = false;
        mPos += n;
        return true;
    }
    const char* mData;
    std::size_t mSize;
    std::size_t mPos = 0;
    bool mOk = true;
};

constexpr std::uint32_t kMagic = 0x4d525753; // "SWRM"

struct WeightPod {
    std::uint32_t vertex;
    float weight;
};

} // namespace

void writeRawScene(const RawScene& s, std::string& out)
{
    Writer w(out);
    w.pod(kMagic);
    w.pod(std::uint64_t(s.nodes.size()));
    for (const RawNode& n : s.nodes) {
        w.text(n.name);
        w.pod(n.parent);
        w.pod(n.depth);
        w.pod(n.local);
        w.pods(n.meshes);
    }
    w.pod(std::uint64_t(s.meshes.size()));
    for (const RawMesh& m : s.meshes) {
        w.text(m.name);
        w.pod(m.material);
        w.pods(m.positions);
        w.pods(m.normals);
        w.pods(m.uvs);
        w.pods(m.indices);
        w.pod(std::uint64_t(m.droppedFaces));
        w.pod(std::uint64_t(m.bones.size()));
        for (const RawBone& b : m.bones) {
            w.text(b.name);
            w.pod(b.offset);
            std::vector<WeightPod> weights;
            weights.reserve(b.weights.size());
            for (const auto& [v, weight] : b.weights)
                weights.push_back({v, weight});
            w.pods(weights);
        }
    }
    w.pod(std::uint64_t(s.materials.size()));
    for (const RawMaterial& m : s.materials) {
        w.text(m.name);
        w.pod(m.color);
        w.text(m.texture);
        w.pod(m.embedded);
        w.pod(m.embeddedIndex);
    }
    w.pod(std::uint64_t(s.animations.size()));
    for (const RawAnimation& a : s.animations) {
        w.text(a.name);
        w.pod(a.duration);
        w.pod(a.ticksPerSecond);
        w.pod(std::uint64_t(a.channels.size()));
        for (const RawChannel& c : a.channels) {
            w.text(c.node);
            w.pods(c.positions);
            w.pods(c.rotations);
            w.pods(c.scales);
        }
    }
    w.text(s.frame.format);
    w.pod(s.frame.unitMetres);
    w.pod(s.frame.unitKnown);
    w.pod(s.frame.unitByConvention);
    w.pod(s.frame.up);
    w.pod(s.frame.appliedByAssimp);
    w.pod(std::uint64_t(s.frame.notes.size()));
    for (const std::string& note : s.frame.notes)
        w.text(note);
    w.pod(std::uint64_t(s.droppedMeshes));
    w.text(s.validationFailure);
}

std::string readRawScene(const char* data, std::size_t size, RawScene& s)
{
    Reader r(data, size);
    std::uint32_t magic = 0;
    r.pod(magic);
    if (!r.ok() || magic != kMagic)
        return "the reader process sent an unrecognised reply";
    s.nodes.resize(r.count(8 + sizeof(RawNode::parent) + sizeof(RawNode::depth) + sizeof(Affine) + 8));
    for (RawNode& n : s.nodes) {
        r.text(n.name);
        r.pod(n.parent);
        r.pod(n.depth);
        r.pod(n.local);
        r.pods(n.meshes);
    }
    s.meshes.resize(r.count(64));
    for (RawMesh& m : s.meshes) {
        r.text(m.name);
        r.pod(m.material);
        r.pods(m.positions);
        r.pods(m.normals);
        r.pods(m.uvs);
        r.pods(m.indices);
        std::uint64_t dropped = 0;
        r.pod(dropped);
        m.droppedFaces = std::size_t(dropped);
        m.bones.resize(r.count(16 + sizeof(Affine)));
        for (RawBone& b : m.bones) {
            r.text(b.name);
            r.pod(b.offset);
            std::vector<WeightPod> weights;
            r.pods(weights);
            b.weights.reserve(weights.size());
            for (const WeightPod& wp : weights)
                b.weights.emplace_back(wp.vertex, wp.weight);
        }
    }
    s.materials.resize(r.count(16 + sizeof(RawMaterial::color)));
    for (RawMaterial& m : s.materials) {
        r.text(m.name);
        r.pod(m.color);
        r.text(m.texture);
        r.pod(m.embedded);
        r.pod(m.embeddedIndex);
    }
    s.animations.resize(r.count(32));
    for (RawAnimation& a : s.animations) {
        r.text(a.name);
        r.pod(a.duration);
        r.pod(a.ticksPerSecond);
        a.channels.resize(r.count(32));
        for (RawChannel& c : a.channels) {
            r.text(c.node);
            r.pods(c.positions);
            r.pods(c.rotations);
            r.pods(c.scales);
        }
    }
    r.text(s.frame.format);
    r.pod(s.frame.unitMetres);
    r.pod(s.frame.unitKnown);
    r.pod(s.frame.unitByConvention);
    r.pod(s.frame.up);
    r.pod(s.frame.appliedByAssimp);
    s.frame.notes.resize(r.count(8));
    for (std::string& note : s.frame.notes)
        r.text(note);
    std::uint64_t droppedMeshes = 0;
    r.pod(droppedMeshes);
    s.droppedMeshes = std::size_t(droppedMeshes);
    r.text(s.validationFailure);
    if (!r.ok() || !r.atEnd())
        return "the reader process sent a truncated or malformed reply";
    // What the builders rely on (AssimpReader checked it in the reader process; a corrupted reply must not
    // turn into out-of-range accesses here).
    if (s.nodes.empty())
        return "the reader process sent a scene without nodes";
    for (const RawMesh& m : s.meshes) {
        const std::size_t n = m.positions.size();
        if ((!m.normals.empty() && m.normals.size() != n) || (!m.uvs.empty() && m.uvs.size() != n) ||
            m.indices.size() % 3 != 0)
            return "the reader process sent a malformed mesh";
        for (std::uint32_t i : m.indices)
            if (i >= n)
                return "the reader process sent a malformed mesh";
        for (const RawBone& b : m.bones)
            for (const auto& [v, weight] : b.weights)
                if (v >= n)
                    return "the reader process sent a malformed mesh";
    }
    for (std::size_t i = 0; i < s.nodes.size(); ++i) {
        if (s.nodes[i].parent >= std::int32_t(i) || (i > 0 && s.nodes[i].parent < 0))
            return "the reader process sent a malformed node hierarchy";
        for (std::uint32_t m : s.nodes[i].meshes)
            if (m >= s.meshes.size())
                return "the reader process sent a malformed node hierarchy";
    }
    return {};
}

} // namespace marionette::import::detail
