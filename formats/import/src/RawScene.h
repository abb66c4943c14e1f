// Internal: the file as Assimp delivered it, copied out of the aiScene so that everything after reading
// (frames, skeleton, weights, animation conversion) is plain C++ that never sees an Assimp type.
// Only AssimpReader.cpp fills it. Lengths are in file units, axes as in the file.
#pragma once

#include "Affine.h"

#include "marionette/import/ImportedScene.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace marionette::import::detail {

/// Scene nodes in depth-first pre-order: a parent always comes before its children; nodes[0] is the root.
struct RawNode {
    std::string name;
    std::int32_t parent = -1;
    int depth = 0;
    Affine local;                  ///< relative to the parent, as in the file
    std::vector<std::uint32_t> meshes; ///< indices into RawScene::meshes placed by this node
};

struct RawBone {
    std::string name;              ///< the node it refers to, by name (Assimp's convention)
    Affine offset;                 ///< mesh space -> bone space at bind
    std::vector<std::pair<std::uint32_t, float>> weights; ///< (vertex, weight)
};

struct RawMesh {
    std::string name;
    std::uint32_t material = 0;
    std::vector<Vec3> positions;
    std::vector<Vec3> normals;     ///< empty when the file has none and Assimp could not make them
    std::vector<TexCoord> uvs;     ///< empty when the mesh has no first UV channel
    std::vector<std::uint32_t> indices; ///< triangles only
    std::vector<RawBone> bones;
    std::size_t droppedFaces = 0;  ///< faces that were not triangles after triangulation (points, lines)
};

struct RawMaterial {
    std::string name;
    std::array<float, 4> color{1.f, 1.f, 1.f, 1.f};
    std::string texture;           ///< as stored
    bool embedded = false;
    std::int32_t embeddedIndex = -1;
};

struct RawVectorKey {
    double time = 0.;              ///< ticks
    Vec3 value;
};
struct RawRotationKey {
    double time = 0.;
    Quat value;
};
struct RawChannel {
    std::string node;
    std::vector<RawVectorKey> positions, scales;
    std::vector<RawRotationKey> rotations;
};
struct RawAnimation {
    std::string name;
    double duration = 0.;          ///< ticks
    double ticksPerSecond = 0.;    ///< 0 when the file does not say
    std::vector<RawChannel> channels;
};

/// What the file (or Assimp) says about its frame.
struct RawFrame {
    std::string format;            ///< Assimp importer name
    double unitMetres = 1.;        ///< metres per file unit
    bool unitKnown = false;        ///< the format declares its unit (glTF: metres by definition)
    bool unitByConvention = false; ///< the unit is the format's convention, not written in the file (inches)
    UpAxis up = UpAxis::Y;
    /// The unit scale and axis rotation Assimp already multiplied into the root node (Collada, MD5, 3DS,
    /// ...); identity when the loader leaves the file's frame alone.
    Affine appliedByAssimp;
    std::vector<std::string> notes; ///< frame facts worth a warning (an FBX axis system we cannot honour)
};

struct RawScene {
    std::vector<RawNode> nodes;
    std::vector<RawMesh> meshes;
    std::vector<RawMaterial> materials;
    std::vector<RawAnimation> animations;
    RawFrame frame;
    std::size_t droppedMeshes = 0; ///< meshes without any triangle (points or lines only)
    /// Assimp's message when its validation refused the file and it was read again without validation
    /// (lenient import); empty when the file passed.
    std::string validationFailure;
};

} // namespace marionette::import::detail
