// A small skinned, animated BlitzBasic 3D (.b3d) character written by the tests themselves, good or with one
// fault of the kind real assets carry (tst_importlenient, tests/cli/tst_clistrict). B3D is the format of the
// issue's files, and Assimp 5.2.5 reads it as stored: keys in file order, the clip's duration from its ANIM
// chunk, weights as given, so every fault reaches the import unchanged.
//
// The model: node 'root' places mesh 'mesh0', a strip of two quads (6 vertices, 4 triangles) from y = 0 to 2,
// and holds clip frames 0..20 at 10 fps; bone 'hip' (child of root, at the origin) weights vertices 0-3,
// bone 'arm' (child of hip, at y = 1) weights vertices 4 and 5. 'hip' has position keys at frames 0, 10, 20;
// 'arm' rotation keys at frames 0 and 20.
#pragma once

#include <QByteArray>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace marionette::test {

enum class B3dFault {
    None,
    KeyPastEnd,       ///< hip's last position key at frame 21 in a 20-frame clip
    UnsortedKeys,     ///< hip's position keys in the order 0, 20, 10
    NanKey,           ///< hip's position key at frame 10 is (nan, 0.5, 0)
    NanVertex,        ///< vertex 5 is (nan, 2, 0)
    WeightsNotOne,    ///< vertex 4 has weight 0.5 on arm and nothing else
    ZeroDuration,     ///< the clip says 0 frames, its keys run to 20
    NegativeDuration, ///< the clip says -5 frames
    EmptyChannel,     ///< arm's KEYS chunk holds no key
    NanEverywhere,    ///< every key value is nan; hip has position, scale and rotation keys
    DuplicateKeys,    ///< hip has two position keys at frame 10, y = 0.25 then 0.5
};

class B3dWriter {
public:
    void begin(const char (&tag)[5])
    {
        mData.append(tag, 4);
        mOpen.push_back(mData.size());
        i32(0);
    }
    void end()
    {
        const qsizetype at = mOpen.back();
        mOpen.pop_back();
        const auto size = std::int32_t(mData.size() - at - 4);
        std::memcpy(mData.data() + at, &size, 4);
    }
    void i32(std::int32_t v) { mData.append(reinterpret_cast<const char*>(&v), 4); }
    void f32(float v) { mData.append(reinterpret_cast<const char*>(&v), 4); }
    void vec3(float x, float y, float z) { f32(x), f32(y), f32(z); }
    void text(const char* s) { mData.append(s, qsizetype(std::strlen(s) + 1)); }
    /// NODE header: name, position, scale 1, identity rotation (B3D stores w first).
    void node(const char* name, float x, float y, float z)
    {
        begin("NODE");
        text(name);
        vec3(x, y, z);
        vec3(1.f, 1.f, 1.f);
        f32(1.f), vec3(0.f, 0.f, 0.f);
    }
    const QByteArray& bytes() const { return mData; }

private:
    QByteArray mData;
    std::vector<qsizetype> mOpen;
};

inline QByteArray b3dModel(B3dFault fault = B3dFault::None)
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const bool nanKeys = fault == B3dFault::NanEverywhere;
    B3dWriter w;
    w.begin("BB3D");
    w.i32(1);
    w.node("root", 0.f, 0.f, 0.f);
    w.begin("MESH");
    w.i32(-1);
    w.begin("VRTS");
    w.i32(0), w.i32(0), w.i32(0); // no normals, colours or texture coordinates
    w.vec3(0.f, 0.f, 0.f), w.vec3(1.f, 0.f, 0.f), w.vec3(0.f, 1.f, 0.f), w.vec3(1.f, 1.f, 0.f);
    w.vec3(0.f, 2.f, 0.f), w.vec3(fault == B3dFault::NanVertex ? nan : 1.f, 2.f, 0.f);
    w.end();
    w.begin("TRIS");
    w.i32(-1);
    for (std::int32_t i : {0, 2, 1, 1, 2, 3, 2, 4, 3, 3, 4, 5})
        w.i32(i);
    w.end();
    w.end(); // MESH
    w.begin("ANIM");
    w.i32(0);
    w.i32(fault == B3dFault::ZeroDuration ? 0 : fault == B3dFault::NegativeDuration ? -5 : 20);
    w.f32(10.f);
    w.end();

    w.node("hip", 0.f, 0.f, 0.f);
    w.begin("BONE");
    for (std::int32_t v : {0, 1, 2, 3})
        w.i32(v), w.f32(1.f);
    w.end();
    w.begin("KEYS");
    w.i32(nanKeys ? 7 : 1); // positions (and scales and rotations)
    std::vector<std::int32_t> frames{0, fault == B3dFault::UnsortedKeys ? 20 : 10,
                                     fault == B3dFault::UnsortedKeys ? 10 : (fault == B3dFault::KeyPastEnd ? 21 : 20)};
    if (fault == B3dFault::DuplicateKeys)
        frames.insert(frames.begin() + 1, 10);
    for (size_t k = 0; k < frames.size(); ++k) {
        const std::int32_t frame = frames[k];
        w.i32(frame);
        const float y = frame == 10 ? (fault == B3dFault::DuplicateKeys && k == 1 ? 0.25f : 0.5f) : 0.f;
        w.vec3(nanKeys || (fault == B3dFault::NanKey && frame == 10) ? nan : 0.f, y, 0.f);
        if (nanKeys) {
            w.vec3(nan, nan, nan);              // scale
            w.f32(nan), w.vec3(nan, nan, nan); // rotation
        }
    }
    w.end();

    w.node("arm", 0.f, 1.f, 0.f);
    w.begin("BONE");
    if (fault == B3dFault::WeightsNotOne)
        w.i32(4), w.f32(0.5f), w.i32(5), w.f32(1.f);
    else
        w.i32(4), w.f32(1.f), w.i32(5), w.f32(1.f);
    w.end();
    w.begin("KEYS");
    w.i32(4); // rotations
    if (fault != B3dFault::EmptyChannel) {
        w.i32(0), w.f32(nanKeys ? nan : 1.f), w.vec3(0.f, 0.f, 0.f);
        w.i32(20), w.f32(0.7071068f), w.vec3(0.f, 0.f, 0.7071068f);
    }
    w.end();
    w.end(); // arm
    w.end(); // hip
    w.end(); // root
    w.end(); // BB3D
    return w.bytes();
}

} // namespace marionette::test
