// The frame conversion and the skeleton: which nodes are bones, their bind pose and frames (Builder.h).
#include "Builder.h"
#include "Text.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace marionette::import::detail {
namespace {

constexpr double kPoseTolerance = 1e-4; ///< relative to the scene size (translations) or absolute (rotations)

/// The name of a unit given in metres, snapping `metres` to the exact value of a known unit (files and
/// Assimp carry it as a float: 0.01 arrives as 0.0099999998).
std::string unitName(double& metres)
{
    static const std::pair<double, const char*> known[] = {
        {1., "metre"},      {0.01, "centimetre"}, {0.001, "millimetre"}, {0.1, "decimetre"},
        {1000., "kilometre"}, {0.0254, "inch"},   {0.3048, "foot"},      {0.9144, "yard"}};
    for (const auto& [m, name] : known)
        if (std::fabs(metres - m) <= 1e-6 * m) {
            metres = m;
            return name;
        }
    return cat(metres, " m");
}

Mat3 linearOf(const Affine& a, double divide)
{
    return Mat3::fromColumns((a.column(0) * (1. / divide)).toFloat(), (a.column(1) * (1. / divide)).toFloat(),
                             (a.column(2) * (1. / divide)).toFloat());
}

} // namespace

const Affine& upAxisRotation(UpAxis axis)
{
    static const Affine y{};
    static const Affine z{{{1, 0, 0}, {0, 0, 1}, {0, -1, 0}}, {0, 0, 0}}; // (x, y, z) -> (x, z, -y)
    static const Affine x{{{0, -1, 0}, {1, 0, 0}, {0, 0, 1}}, {0, 0, 0}}; // (x, y, z) -> (-y, x, z)
    return axis == UpAxis::Z ? z : (axis == UpAxis::X ? x : y);
}

Similarity toSimilarity(const Affine& a, double lengthScale, double& residual)
{
    Similarity s;
    s.scale = a.uniformScale();
    s.translation = a.translationPart();
    if (!(s.scale > 0.)) {
        residual = 1.;
        return s;
    }
    s.rotation = toQuat(linearOf(a, s.scale));
    Affine rebuilt = Affine::fromQuat(s.rotation).scaledLinear(s.scale);
    for (int i = 0; i < 3; ++i)
        rebuilt.t[i] = a.t[i];
    residual = rebuilt.distance(a, lengthScale) / s.scale;
    return s;
}

void decompose(const Affine& m, Vec3& translation, Quat& rotation, Vec3& scale)
{
    translation = m.translationPart().toFloat();
    double s[3] = {length(m.column(0)), length(m.column(1)), length(m.column(2))};
    if (m.det() < 0.)
        s[0] = -s[0];
    scale = {float(s[0]), float(s[1]), float(s[2])};
    if (std::fabs(s[0]) < 1e-12 || std::fabs(s[1]) < 1e-12 || std::fabs(s[2]) < 1e-12) {
        rotation = {};
        return;
    }
    rotation = toQuat(Mat3::fromColumns((m.column(0) * (1. / s[0])).toFloat(), (m.column(1) * (1. / s[1])).toFloat(),
                                        (m.column(2) * (1. / s[2])).toFloat()));
}

std::string setUpFrame(BuildContext& ctx, ImportConversion& conversion)
{
    const RawFrame& f = ctx.raw.frame;
    conversion.format = f.format;
    double unit = f.unitMetres;
    conversion.sourceUnit = f.unitKnown ? unitName(unit) : "unknown";
    conversion.sourceUnitMetres = unit;
    conversion.unitByConvention = f.unitByConvention;
    double scale = unit;
    if (ctx.options.scale) {
        if (!std::isfinite(*ctx.options.scale) || !(*ctx.options.scale > 0.f))
            return cat("the scale option must be a finite number > 0 (got ", *ctx.options.scale, ")");
        scale = *ctx.options.scale;
        conversion.scaleOverridden = true;
    }
    if (!std::isfinite(scale) || !(scale > 0.))
        return cat("the file declares an unusable unit (", scale, " m)");
    ctx.up = ctx.options.upAxis.value_or(f.up);
    conversion.upAxisOverridden = ctx.options.upAxis.has_value();
    conversion.sourceUpAxis = ctx.up;
    conversion.scale = float(scale);
    ctx.scale = scale;
    ctx.C = upAxisRotation(ctx.up).scaledLinear(scale);
    ctx.C.inverse(ctx.Cinv);
    conversion.matrix = ctx.C.toMat4();
    Affine kInv;
    if (!f.appliedByAssimp.inverse(kInv))
        return "Assimp's root conversion is singular";
    ctx.X = ctx.C * kInv;
    for (const std::string& note : f.notes)
        ctx.warn(note);

    const auto& nodes = ctx.raw.nodes;
    ctx.worldA.resize(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) {
        if (!nodes[i].local.isFinite())
            return cat("node ", named(nodes[i].name), ": transform is not finite");
        ctx.worldA[i] = nodes[i].parent < 0 ? nodes[i].local : ctx.worldA[size_t(nodes[i].parent)] * nodes[i].local;
    }
    // Non-finite positions are refused here, before anything uses them (docs/import.md: the file is broken).
    V3d lo{HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi{-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (size_t n = 0; n < nodes.size(); ++n) {
        for (std::uint32_t m : nodes[n].meshes) {
            const RawMesh& mesh = ctx.raw.meshes[m];
            if (mesh.indices.empty())
                continue;
            for (size_t v = 0; v < mesh.positions.size(); ++v) {
                if (!isFinite(mesh.positions[v]))
                    return cat("mesh ", named(mesh.name), " vertex ", v, ": position is not finite ", mesh.positions[v]);
                const V3d p = ctx.worldA[n].point(V3d::of(mesh.positions[v]));
                lo = {std::fmin(lo.x, p.x), std::fmin(lo.y, p.y), std::fmin(lo.z, p.z)};
                hi = {std::fmax(hi.x, p.x), std::fmax(hi.y, p.y), std::fmax(hi.z, p.z)};
            }
        }
    }
    const double diagonal = lo.x <= hi.x ? length(hi - lo) : 0.;
    if (!std::isfinite(diagonal))
        return "the scene's node transforms place vertices at non-finite positions";
    ctx.extentA = diagonal > 1e-12 ? diagonal : 1.;
    ctx.extentM = ctx.extentA * ctx.X.uniformScale();
    if (!(ctx.extentM > 0.) || !std::isfinite(ctx.extentM))
        return "the conversion to metres is degenerate";
    return {};
}

namespace {

/// Finds the skinned mesh instances bound in the scene root's space rather than their node's. Assimp takes a
/// bone's bind pose as (mesh node world) · offset⁻¹; DirectX (.X files written for D3DX skinning) does not apply
/// the skinned mesh's frame transform at all, so a file whose mesh frames carry a transform (BCN_Epileptic.X: a
/// quarter turn on every mesh frame and a head frame lifted half a metre) is bound as offset⁻¹ in the root's
/// space. The node hierarchy tells the two apart: a mesh is taken as root-space when every one of its bones'
/// node world transforms matches the root-space bind and not the mesh-node one.
void findRootSpaceSkins(BuildContext& ctx)
{
    const auto& nodes = ctx.raw.nodes;
    std::vector<std::string> names;
    for (size_t node = 1; node < nodes.size(); ++node) {
        if (ctx.worldA[node].distance(ctx.worldA[0], ctx.extentA) <= kPoseTolerance)
            continue; // the two readings agree
        for (std::uint32_t m : nodes[node].meshes) {
            const RawMesh& mesh = ctx.raw.meshes[m];
            if (mesh.indices.empty() || mesh.bones.empty())
                continue;
            double nodeError = 0., rootError = 0.;
            size_t compared = 0;
            for (const RawBone& bone : mesh.bones) {
                const auto it = ctx.nodeByName.find(bone.name);
                Affine offsetInverse;
                if (it == ctx.nodeByName.end() || !bone.offset.isFinite() || !bone.offset.inverse(offsetInverse))
                    continue;
                const Affine& boneWorld = ctx.worldA[size_t(it->second)];
                nodeError = std::fmax(nodeError, (ctx.worldA[node] * offsetInverse).distance(boneWorld, ctx.extentA));
                rootError = std::fmax(rootError, (ctx.worldA[0] * offsetInverse).distance(boneWorld, ctx.extentA));
                ++compared;
            }
            if (compared > 0 && rootError <= kPoseTolerance && nodeError > kPoseTolerance) {
                ctx.rootSpaceSkins.emplace_back(std::int32_t(node), m);
                names.push_back(named(mesh.name.empty() ? nodes[node].name : mesh.name));
            }
        }
    }
    if (!names.empty())
        ctx.warn(cat("skinned mesh(es) ", nameList(names), " are bound in the scene's root space (the DirectX "
                     "convention), not in their node's: their node transforms are not applied"));
}

} // namespace

std::string buildSkeleton(BuildContext& ctx, ImportedScene& out)
{
    const auto& nodes = ctx.raw.nodes;
    const size_t n = nodes.size();
    std::unordered_set<std::string> duplicateNames;
    for (size_t i = 0; i < n; ++i)
        if (!ctx.nodeByName.emplace(nodes[i].name, std::int32_t(i)).second)
            duplicateNames.insert(nodes[i].name);
    ctx.boneOfNode.assign(n, -1);

    // Bones the skins reference, with the bind pose the first skin gives them (Assimp: bone world at bind =
    // mesh node world · offset⁻¹). A later skin that disagrees is re-bound (MeshBuilder moves its vertices).
    std::vector<char> referenced(n, 0), inSet(n, 0);
    std::vector<Affine> bindOfNode(n);
    std::vector<std::string> ambiguous;
    std::vector<std::pair<std::string, Affine>> orphans; // skin bones no node is named after
    findRootSpaceSkins(ctx);
    for (size_t node = 0; node < n; ++node) {
        for (std::uint32_t m : nodes[node].meshes) {
            const RawMesh& mesh = ctx.raw.meshes[m];
            if (mesh.indices.empty())
                continue;
            bool rebound = false;
            std::unordered_set<std::string> boneNames;
            for (const RawBone& bone : mesh.bones) {
                // Skins refer to bones by name: two bones of one name cannot be told apart, so no repair.
                // Only a file read without Assimp's validation (lenient import) gets here with them; it is
                // refused with the validation's own line, as a strict import refuses it.
                if (!boneNames.insert(bone.name).second)
                    return ctx.raw.validationFailure.empty()
                               ? cat("mesh ", named(mesh.name), " is skinned to two bones named ", named(bone.name))
                               : cat("Assimp could not read the file: ", ctx.raw.validationFailure);
                if (duplicateNames.count(bone.name) && std::find(ambiguous.begin(), ambiguous.end(), bone.name) == ambiguous.end())
                    ambiguous.push_back(bone.name);
                Affine offsetInverse;
                if (!bone.offset.isFinite() || !bone.offset.inverse(offsetInverse))
                    return cat("mesh ", named(mesh.name), " bone ", named(bone.name),
                               ": the inverse bind (offset) matrix is singular or not finite");
                const Affine candidate = ctx.skinSpace(std::int32_t(node), m) * offsetInverse;
                const auto it = ctx.nodeByName.find(bone.name);
                if (it == ctx.nodeByName.end()) { // a skin bone without a node (X/anim_test.x): a root bone
                    auto v = std::find_if(orphans.begin(), orphans.end(), [&](const auto& o) { return o.first == bone.name; });
                    if (v == orphans.end())
                        orphans.emplace_back(bone.name, candidate);
                    else if (candidate.distance(v->second, ctx.extentA) > kPoseTolerance)
                        rebound = true;
                    continue;
                }
                const auto j = size_t(it->second);
                if (!referenced[j]) {
                    referenced[j] = 1;
                    bindOfNode[j] = candidate;
                } else if (candidate.distance(bindOfNode[j], ctx.extentA) > kPoseTolerance) {
                    rebound = true;
                }
            }
            if (rebound)
                ctx.rebound.emplace_back(std::int32_t(node), m);
        }
    }
    if (!ambiguous.empty())
        ctx.warn(cat("several nodes share the name of skinned bone(s) ", nameList(ambiguous),
                     "; the first in the hierarchy was used"));
    if (std::find(referenced.begin(), referenced.end(), 1) == referenced.end() && orphans.empty())
        return {}; // a static scene: no skeleton

    // The bone set: referenced nodes and all their ancestors; the root only when it matters.
    for (size_t j = 0; j < n; ++j)
        if (referenced[j])
            for (std::int32_t a = std::int32_t(j); a > 0 && !inSet[size_t(a)]; a = nodes[size_t(a)].parent)
                inSet[size_t(a)] = 1;
    bool rootAnimated = false;
    for (const RawAnimation& anim : ctx.raw.animations)
        for (const RawChannel& ch : anim.channels)
            rootAnimated = rootAnimated || (ctx.options.animations && ch.node == nodes[0].name);
    Affine kInv;
    ctx.raw.frame.appliedByAssimp.inverse(kInv);
    if (referenced[0] || rootAnimated || !(kInv * nodes[0].local).isIdentity(1e-6, ctx.extentA))
        inSet[0] = 1;

    std::vector<std::string> scaled, sheared, differ, renamed;
    std::unordered_set<std::string> usedNames;
    // Appends one bone. `node` < 0 for a skin bone without a node; `local` is its node's own transform.
    auto addBone = [&](std::int32_t node, const std::string& sourceName, std::int32_t parentBone, const Affine& bindA,
                       const Affine& left, const Affine& local, bool skinned) -> std::string {
        const auto b = std::int32_t(out.skeleton.size());
        const Affine world = ctx.X * bindA * ctx.Cinv;
        const double sigma = world.uniformScale();
        if (!(sigma > 1e-12) || !std::isfinite(sigma))
            return cat("bone ", named(sourceName), ": bind matrix is singular (scale ", sigma, ")");
        const Affine bindWorld = world.scaledLinear(1. / sigma);
        Affine inverseBind, parentInverse;
        if (!bindWorld.inverse(inverseBind) || !inverseBind.isFinite())
            return cat("bone ", named(sourceName), ": bind matrix cannot be inverted");
        if (parentBone >= 0)
            Affine::fromMat4(out.skeleton[size_t(parentBone)].bindWorld).inverse(parentInverse);
        const Affine bindLocal = parentBone >= 0 ? parentInverse * bindWorld : bindWorld;
        const Affine right = ctx.Cinv.scaledLinear(1. / sigma);
        const Affine restLocal = left * local * right;
        ctx.nodeOfBone.push_back(node);
        ctx.bindA.push_back(bindA);
        ctx.sigma.push_back(sigma);
        ctx.left.push_back(left);
        ctx.right.push_back(right);

        std::string name = sourceName.empty() ? cat("bone", b) : sourceName;
        if (!usedNames.insert(name).second) {
            const std::string base = name;
            for (int k = 2; !usedNames.insert(name = cat(base, '#', k)).second; ++k) {
            }
            renamed.push_back(cat(named(base), " -> ", named(name)));
        }
        rig::Bone bone;
        bone.name = name;
        bone.parent = parentBone;
        bone.bindLocal = bindLocal.toMat4();
        bone.bindWorld = bindWorld.toMat4();
        bone.inverseBind = inverseBind.toMat4();
        ImportedBoneInfo info;
        info.sourceName = sourceName;
        info.skinned = skinned;
        info.restLocal = restLocal.toMat4();
        info.bindDiffersFromRest = bindLocal.distance(restLocal, ctx.extentM) > kPoseTolerance;
        if (std::fabs(sigma - 1.) > 1e-3)
            scaled.push_back(cat(named(name), " x", sigma));
        const double sx = length(bindWorld.column(0)), sy = length(bindWorld.column(1)), sz = length(bindWorld.column(2));
        if (std::fmax(std::fabs(sx - 1.), std::fmax(std::fabs(sy - 1.), std::fabs(sz - 1.))) > 1e-3 ||
            std::fabs(dot(bindWorld.column(0), bindWorld.column(1))) > 1e-3 * sx * sy)
            sheared.push_back(named(name));
        if (info.bindDiffersFromRest)
            differ.push_back(named(name));
        out.skeleton.push_back(std::move(bone));
        out.boneInfo.push_back(std::move(info));
        ctx.boneByName.emplace(sourceName, b);
        return {};
    };

    for (size_t i = 0; i < n; ++i) {
        if (!inSet[i])
            continue;
        if (ctx.stopped())
            return {};
        ctx.boneOfNode[i] = std::int32_t(out.skeleton.size());
        const std::int32_t parentNode = nodes[i].parent;
        const std::int32_t parentBone = parentNode >= 0 ? ctx.boneOfNode[size_t(parentNode)] : -1;
        const Affine bindA = referenced[i]     ? bindOfNode[i]
                             : parentBone >= 0 ? ctx.bindA[size_t(parentBone)] * nodes[i].local
                                               : ctx.worldA[i];
        const Affine left = parentBone >= 0 ? ctx.C.scaledLinear(ctx.sigma[size_t(parentBone)])
                            : parentNode >= 0 ? ctx.X * ctx.worldA[size_t(parentNode)]
                                              : ctx.X;
        if (std::string e = addBone(std::int32_t(i), nodes[i].name, parentBone, bindA, left, nodes[i].local, referenced[i] != 0);
            !e.empty())
            return e;
    }
    std::vector<std::string> orphanNames;
    for (const auto& [name, bindA] : orphans) {
        // No node: the bind pose is its rest pose, in model space.
        if (std::string e = addBone(-1, name, -1, bindA, ctx.X, bindA, true); !e.empty())
            return e;
        orphanNames.push_back(named(name));
    }
    if (!orphanNames.empty())
        ctx.warn(cat("skinned bone(s) ", nameList(orphanNames), " have no node in the file; added as root bones "
                     "at their bind pose (no animation can reach them)"));
    if (!renamed.empty())
        ctx.warn(cat("bone names must be unique; renamed ", nameList(renamed)));
    if (!scaled.empty())
        ctx.warn(cat("bone frames carried a scale, moved into their inverse binds and keys: ", nameList(scaled)));
    if (!sheared.empty())
        ctx.warn(cat("bind matrices keep a non-uniform scale or shear: ", nameList(sheared)));
    if (!differ.empty())
        ctx.warn(cat("the skin was bound in a pose other than the node transforms; bind pose taken from the "
                     "skin's inverse bind matrices for ",
                     nameList(differ)));
    return {};
}

} // namespace marionette::import::detail
