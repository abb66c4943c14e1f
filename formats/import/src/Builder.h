// Internal: turning a RawScene (file units and axes, Assimp's conventions) into an ImportedScene
// (metres, +Y up, skeleton of rig::Bone). Three steps share a BuildContext, in this order:
//   buildSkeleton  -> which nodes are bones, their bind pose, the per-bone frame conversion
//   buildMeshes    -> vertices in model space, weights, normals, materials
//   buildAnimations-> keys converted with the same per-bone conversion as the bind pose
// Each returns "" or a one-line error (without the path; the caller prefixes it).
//
// Frames. A = Assimp's space (node chain from the root, root transform included). K = what Assimp already
// applied in the root (RawFrame::appliedByAssimp). C = the conversion chosen for the file (scale · axis
// rotation). Model space = X · A with X = C · K⁻¹. A bone's model-space frame is X · bindA · C⁻¹ (so bone-local
// lengths are in metres and axes are converted too), divided by its uniform scale σ so bone frames are rigid:
//   bindWorld = X · bindA · C⁻¹ · σ⁻¹,     inverseBind = bindWorld⁻¹.
// A local transform M of the bone's node (a key, the rest transform) converts as left · M · right with
//   left = σ_parent · C (parent is a bone)  or  X · worldA(parent node) (top bone),   right = C⁻¹ · σ⁻¹.
#pragma once

#include "Affine.h"
#include "RawScene.h"
#include "Text.h"

#include "marionette/import/Import.h"

#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>
#include <unordered_map>
#include <vector>

namespace marionette::import::detail {

/// A similarity p -> s·R·p + t, the form `left` takes for keys.
struct Similarity {
    double scale = 1.;
    Quat rotation;
    V3d translation;
};

struct BuildContext {
    BuildContext(const RawScene& r, const ImportOptions& o, std::stop_token s) : raw(r), options(o), stop(std::move(s)) {}

    const RawScene& raw;
    const ImportOptions& options;
    std::stop_token stop;
    std::function<void(float)> progress; ///< fraction within the current step

    // Frame conversion.
    UpAxis up = UpAxis::Y;
    double scale = 1.;          ///< C's scale
    Affine C, Cinv, X;
    std::vector<Affine> worldA; ///< per node
    double extentA = 1.;        ///< size of the scene in Assimp units (bounding-box diagonal), > 0
    double extentM = 1.;        ///< the same in metres, > 0

    // Skeleton.
    std::unordered_map<std::string, std::int32_t> nodeByName; ///< first node of each name (pre-order)
    std::vector<std::int32_t> boneOfNode;  ///< per node: bone index or -1
    std::vector<std::int32_t> nodeOfBone;  ///< per bone: node index, or -1 for a skin bone no node is named after
    std::unordered_map<std::string, std::int32_t> boneByName; ///< skin bone name (the node's name) -> bone
    std::vector<Affine> bindA;             ///< per bone, Assimp space
    std::vector<double> sigma;             ///< per bone: uniform scale removed from its frame
    std::vector<Affine> left, right;       ///< per bone: how its local transforms convert
    /// Skinned mesh instances (node, mesh) whose skin disagrees with the bind pose chosen for a bone.
    std::vector<std::pair<std::int32_t, std::uint32_t>> rebound;
    /// Skinned mesh instances (node, mesh) bound in the scene root's space, not their node's (the DirectX
    /// convention: a skinned mesh's frame transform is not applied; found by findRootSpaceSkins()).
    std::vector<std::pair<std::int32_t, std::uint32_t>> rootSpaceSkins;
    /// The space a skinned mesh instance's vertices and inverse bind matrices are in (Assimp space).
    const Affine& skinSpace(std::int32_t node, std::uint32_t mesh) const
    {
        for (const auto& s : rootSpaceSkins)
            if (s.first == node && s.second == mesh)
                return worldA[0];
        return worldA[size_t(node)];
    }

    std::vector<std::string>* warnings = nullptr;
    std::vector<std::string>* faults = nullptr; ///< ImportedScene::faults
    void warn(std::string line) const { warnings->push_back(std::move(line)); }
    /// A fault of the file that was repaired (lenient import): `fault` says where and what ("animation 'walk'
    /// bone 'arm': position keys not in time order"), `change` what was done ("sorted"). The warning is
    /// "fault; change"; a strict import refuses the file with the first fault (strictImportError()).
    void repair(const std::string& fault, const std::string& change) const
    {
        faults->push_back(fault);
        warnings->push_back(cat(fault, "; ", change));
    }
    bool stopped() const { return stop.stop_requested(); }
};

/// Chooses C from the file's frame and the options, fills conversion, worldA and the extents.
std::string setUpFrame(BuildContext& ctx, ImportConversion& conversion);
std::string buildSkeleton(BuildContext& ctx, ImportedScene& out);
std::string buildMeshes(BuildContext& ctx, ImportedScene& out);
std::string buildAnimations(BuildContext& ctx, ImportedScene& out);

/// s·R·p + t closest to `a` (exact when `a` is a similarity); `residual` = how far `a` is from it.
Similarity toSimilarity(const Affine& a, double lengthScale, double& residual);
/// Translation, rotation and scale of M = T·R·S (the sign of a mirror goes to scale.x).
void decompose(const Affine& m, Vec3& translation, Quat& rotation, Vec3& scale);
/// The rotation of the source up axis onto +Y.
const Affine& upAxisRotation(UpAxis axis);

} // namespace marionette::import::detail
