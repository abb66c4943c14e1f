// Marionette — what a mesh import produces (DESIGN.md §7; docs/import.md).
//
// An ImportedScene is plain data, already converted to Marionette's frame: metres, right-handed, +Y up
// (`ImportedScene::conversion` records what was applied). Everything is in *model space*: the space of the
// file's scene root after that conversion; node transforms of static meshes are baked into their vertices.
// Every float in a scene returned by importScene() is finite and every index is in range;
// ImportedScene::validate() checks exactly that, so a scene built or edited by hand can be checked too.
//
// Skinning convention (standard linear blend skinning, what the runtime's matrix palette does):
//     skinned(v) = Σ_k weight[k] · (boneWorld[bone[k]] · skeleton[bone[k]].inverseBind) · position(v)
// At the bind pose (boneWorld = bindWorld) this reproduces `positions` for every weighted vertex:
// skeleton[i].bindWorld · skeleton[i].inverseBind is the identity for every bone.
#pragma once

#include "marionette/Math.h"
#include "marionette/rig/RigDescription.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace marionette::import {

/// Most bones that influence one vertex. Sources with more keep the kMaxInfluences largest weights,
/// renormalised to sum 1 (ImportedMesh::truncatedVertices counts those vertices).
constexpr int kMaxInfluences = 4;

/// Up axis of a source file (the axis that becomes +Y).
enum class UpAxis : std::uint8_t {
    Y = 0, ///< no rotation
    Z = 1, ///< (x, y, z) -> (x, z, -y): a rotation of -90° about X (Blender, 3ds Max, Collada Z_UP)
    X = 2, ///< (x, y, z) -> (-y, x, z): a rotation of +90° about Z (Collada X_UP)
};
const char* toString(UpAxis axis); ///< "y", "z" or "x"

/// A texture coordinate; OpenGL convention (v = 0 at the bottom of the image, as Assimp delivers it).
struct TexCoord {
    float u = 0.f, v = 0.f;
    constexpr bool operator==(const TexCoord&) const = default;
};

/// The bones and weights of one vertex: slots sorted by decreasing weight; unused slots have bone
/// rig::kNone and weight 0. The weights of a bound vertex sum to 1 (within float rounding). A vertex
/// of a skinned mesh that the file left without any weight has every slot unused: it is bound to no
/// bone and stays where it is in model space whatever the skeleton does.
struct VertexInfluences {
    std::array<std::int32_t, kMaxInfluences> bone{rig::kNone, rig::kNone, rig::kNone, rig::kNone};
    std::array<float, kMaxInfluences> weight{0.f, 0.f, 0.f, 0.f};
    int count() const; ///< number of used slots, 0..kMaxInfluences
};

/// One triangle mesh placed in model space. A mesh the file instances under several nodes appears once
/// per instance.
struct ImportedMesh {
    std::string name;                    ///< the file's mesh name; "mesh<i>" when the file has none
    std::string nodeName;                ///< the node that places this instance
    std::int32_t material = rig::kNone;  ///< index into ImportedScene::materials, or kNone
    std::vector<Vec3> positions;         ///< model space, metres, bind pose
    std::vector<Vec3> normals;           ///< unit length, one per position (Assimp generates missing ones)
    std::vector<TexCoord> uvs;           ///< first UV channel, one per position, or empty when the mesh has none
    std::vector<std::uint32_t> indices;  ///< three per triangle, counter-clockwise seen from the front
    /// One per position for a mesh the skeleton deforms, empty for a static mesh. Bone indices are into
    /// ImportedScene::skeleton.
    std::vector<VertexInfluences> influences;
    std::size_t unweightedVertices = 0;  ///< vertices of a skinned mesh the file gave no weight (bound to nothing)
    std::size_t truncatedVertices = 0;   ///< vertices that had more than kMaxInfluences weights
    /// A mesh without a skin that hangs under a bone node follows that bone rigidly: every vertex gets
    /// weight 1 on it and this is its index. kNone for skinned and static meshes.
    std::int32_t rigidBone = rig::kNone;

    bool isSkinned() const { return !influences.empty(); }
    std::size_t triangleCount() const { return indices.size() / 3; }
};

/// Surface appearance, enough to draw the mesh recognisably in the editor.
struct ImportedMaterial {
    std::string name;                                 ///< "material<i>" when the file has none
    std::array<float, 4> baseColor{1.f, 1.f, 1.f, 1.f}; ///< RGBA: glTF base colour factor, else diffuse colour
    /// Base-colour texture as the file stores it: a path (relative or absolute, possibly with Windows
    /// separators) or "*<n>" for a texture embedded in the file. Empty when there is none.
    std::string baseColorTexture;
    /// baseColorTexture resolved against the source file's folder (absolute, '/' separators); if that file
    /// does not exist but one with the same file name sits next to the source file, that one. Empty when
    /// there is no texture or it is embedded.
    std::string baseColorTexturePath;
    bool textureEmbedded = false;                     ///< the texture's pixels are inside the source file
    std::int32_t embeddedTexture = rig::kNone;        ///< index of that texture in the file, when known
    bool textureFound = false;                        ///< baseColorTexturePath names an existing file
};

/// Where a bone came from and how the file posed it; parallel to ImportedScene::skeleton.
struct ImportedBoneInfo {
    std::string sourceName;  ///< the node's name in the file (the bone's name differs when it was disambiguated)
    bool skinned = false;    ///< some skin references it (its inverse bind comes from the file)
    /// The node's own local transform in the file, converted like bindLocal: the pose animations are
    /// authored against. It differs from the bone's bindLocal when the skin was bound in another pose
    /// (e.g. glTF inverse bind matrices that do not match the node transforms); see bindDiffersFromRest.
    Mat4 restLocal;
    bool bindDiffersFromRest = false;
};

/// Keys of one animated bone. Times are seconds from the start of the clip, increasing. Values are the
/// bone's local transform relative to its parent bone (for a root bone: model space), in the same
/// converted frame as rig::Bone::bindLocal: local = T(position) · R(rotation) · S(scale).
struct VectorKey {
    float time = 0.f;
    Vec3 value;
};
struct RotationKey {
    float time = 0.f;
    Quat value; ///< unit quaternion
};
struct BoneChannel {
    std::int32_t bone = 0; ///< index into ImportedScene::skeleton
    /// Each list has at least one key: a kind the file does not animate holds one key at time 0 with the
    /// value of the bone's restLocal.
    std::vector<VectorKey> positions;
    std::vector<RotationKey> rotations;
    std::vector<VectorKey> scales;
};

struct AnimationClip {
    std::string name;            ///< "animation<i>" when the file has none
    float duration = 0.f;        ///< seconds: the file's duration in ticks / ticksPerSecond
    double ticksPerSecond = 25.; ///< the file's value (25 when the file says 0)
    /// At most one per bone, in skeleton order. A bone without a channel keeps its boneInfo restLocal (the
    /// file's node transform), as glTF and Assimp define it.
    std::vector<BoneChannel> channels;
};

/// What was done to bring the file into metres and +Y up. Stored by the project document so a
/// re-import applies the same settings.
struct ImportConversion {
    std::string format;          ///< the Assimp importer that read the file, e.g. "glTF2 Importer"
    std::string sourceUnit;      ///< "metre", "centimetre", "inch", ..., or "unknown" when the format does not say
    double sourceUnitMetres = 1.;///< length of the file's unit in metres (1 when unknown)
    /// The file does not write its unit; sourceUnit is its format's convention (the inch of the Quake,
    /// Doom 3 and Half-Life formats: MDL, MD2, MD3, MDC, MD5).
    bool unitByConvention = false;
    float scale = 1.f;           ///< factor applied to the file's lengths (sourceUnitMetres unless overridden)
    UpAxis sourceUpAxis = UpAxis::Y; ///< the file's up axis that was rotated to +Y
    bool scaleOverridden = false;    ///< ImportOptions::scale was given
    bool upAxisOverridden = false;   ///< ImportOptions::upAxis was given
    /// The applied map from file coordinates to model space: rotation(sourceUpAxis) scaled by `scale`.
    Mat4 matrix;
};

struct ImportedScene {
    std::string sourcePath;            ///< the path that was imported, as given
    ImportConversion conversion;
    std::vector<ImportedMesh> meshes;  ///< at least one on success
    std::vector<ImportedMaterial> materials;
    /// Bones referenced by skins, plus all their ancestors up to the scene root (the root itself is a bone
    /// only when a skin references it, it is animated or it carries a transform of its own); a skin bone no
    /// node is named after becomes a root bone. Parents come before children; names are unique (a repeated
    /// name gets "#2", "#3", ...); bone ids are 0 (the editor assigns ids).
    /// The bind pose is the skin's: bindWorld = (mesh node world) · (the skin's inverse bind)⁻¹ for a bone a
    /// skin references, parent.bindWorld · (node transform) for the others; inverseBind = bindWorld⁻¹, so
    /// bindWorld · inverseBind = identity. Where the file's node transforms differ from the skin's pose,
    /// boneInfo keeps them (restLocal, bindDiffersFromRest). Bone frames have unit scale: a uniform scale
    /// the file's nodes carried (e.g. an "Armature" node scaled by 100) is moved into the inverse binds and
    /// key values. Empty for a static scene: the auto-rig then reports that the mesh needs a skeleton.
    std::vector<rig::Bone> skeleton;
    std::vector<ImportedBoneInfo> boneInfo; ///< parallel to skeleton
    std::vector<AnimationClip> animations;
    /// One line per thing the import changed, dropped or could not represent (duplicate bone names
    /// renamed, vertices without weights, repaired normals, ignored channels, ...). Not errors.
    std::vector<std::string> warnings;
    /// Lenient import (ImportOptions::strict false) only: Assimp's message ("Validation failed: ...") when the
    /// file failed Assimp's validation and was read again without it; empty otherwise.
    std::string validationFailure;
    /// Lenient import only: each fault of the file that was repaired, naming where and what, e.g.
    /// "animation 'walk' bone 'arm': position key 219 at 220 past the clip's end 219". Its warning is the
    /// same text followed by what was changed ("; duration extended to 220"). A strict import refuses the
    /// file instead (strictImportError()).
    std::vector<std::string> faults;

    bool hasSkeleton() const { return !skeleton.empty(); }
    std::size_t vertexCount() const;
    std::size_t triangleCount() const;
    std::size_t unweightedVertexCount() const; ///< sum over meshes
    /// Index of the bone named `name`, or kNone.
    std::int32_t findBone(const std::string& name) const;
    /// Axis-aligned bounds of all positions (min, max); both zero for a scene without vertices.
    std::array<Vec3, 2> bounds() const;

    /// Checks every invariant documented above: finite floats, indices in range, one normal/uv/influence
    /// per position, unit normals, weights in [0, 1] summing to 1, parents before children, unique
    /// non-empty bone names, bindWorld = parent.bindWorld · bindLocal, bindWorld · inverseBind = identity,
    /// channels in range with increasing key times. Returns "" when usable, else a one-line message
    /// naming the element, e.g. `meshes[0] 'Body' vertex 12: weights sum to 0.5`.
    std::string validate() const;
};

/// Vertex `v` of `mesh` skinned by `palette` (one matrix per bone of the skeleton, bind pose to posed, e.g.
/// Ragdoll::skinningMatrices): the blend of its influences' matrices by weight (normalised by the weights of
/// the bones the palette has), or its rigid bone's matrix. False, with the bind position in `out`, when no
/// bone of the palette moves it (an unskinned mesh, an empty palette).
bool skinnedPosition(const ImportedMesh& mesh, std::size_t v, std::span<const Mat4> palette, Vec3& out);

} // namespace marionette::import
