// Meshes and materials in model space (Builder.h): vertices, normals, UVs, triangles, skin weights.
#include "Builder.h"
#include "Text.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace marionette::import::detail {
namespace {

namespace fs = std::filesystem;

/// A vertex's weights summing to 1 within this are taken as normalised (exporters round to 8 or 16 bits).
constexpr double kWeightSumTolerance = 0.01;

bool isFile(const fs::path& p)
{
    std::error_code ec;
    return fs::is_regular_file(p, ec);
}

void resolveTexture(const RawMaterial& raw, const std::string& sourcePath, ImportedMaterial& out)
{
    out.baseColorTexture = raw.texture;
    out.textureEmbedded = raw.embedded;
    out.embeddedTexture = raw.embeddedIndex;
    if (raw.texture.empty() || raw.embedded)
        return;
    std::string stored = raw.texture;
    std::replace(stored.begin(), stored.end(), '\\', '/');
    if (stored.rfind("file://", 0) == 0)
        stored.erase(0, 7);
    std::error_code ec;
    const fs::path dir = fs::absolute(fs::path(sourcePath), ec).parent_path();
    const fs::path texture(stored);
    fs::path resolved = (texture.is_absolute() ? texture : dir / texture).lexically_normal();
    if (!isFile(resolved) && texture.has_filename() && isFile(dir / texture.filename()))
        resolved = dir / texture.filename(); // e.g. a Windows path from the author's machine
    out.textureFound = isFile(resolved);
    out.baseColorTexturePath = resolved.generic_string();
}

/// Per-vertex weights in one flat array (CSR): entries[offsets[v] .. offsets[v + 1]).
struct RawWeights {
    std::vector<std::uint32_t> offsets;
    std::vector<std::pair<std::int32_t, float>> entries; ///< (bone, weight)
    std::vector<std::int32_t> rawBone;                   ///< per entry: index into RawMesh::bones
};

std::string gatherWeights(const BuildContext& ctx, const RawMesh& mesh, RawWeights& w, size_t& negative)
{
    const size_t nv = mesh.positions.size();
    std::vector<std::uint32_t> count(nv + 1, 0);
    for (const RawBone& bone : mesh.bones)
        for (const auto& [v, weight] : bone.weights) {
            if (!std::isfinite(weight))
                return cat("mesh ", named(mesh.name), " bone ", named(bone.name), " vertex ", v, ": weight is not finite");
            if (weight > 0.f)
                ++count[v];
            else if (weight < 0.f)
                ++negative;
        }
    w.offsets.assign(nv + 1, 0);
    for (size_t v = 0; v < nv; ++v)
        w.offsets[v + 1] = w.offsets[v] + count[v];
    w.entries.resize(w.offsets[nv]);
    w.rawBone.resize(w.offsets[nv]);
    std::vector<std::uint32_t> cursor(w.offsets.begin(), w.offsets.end() - 1);
    for (size_t b = 0; b < mesh.bones.size(); ++b) {
        const std::int32_t bone = ctx.boneByName.at(mesh.bones[b].name);
        for (const auto& [v, weight] : mesh.bones[b].weights)
            if (weight > 0.f) {
                w.entries[cursor[v]] = {bone, weight};
                w.rawBone[cursor[v]++] = std::int32_t(b);
            }
    }
    return {};
}

/// The kMaxInfluences largest weights of a vertex (duplicates of one bone summed), renormalised.
/// `total` receives the sum of all the vertex's weights before renormalising.
VertexInfluences strongest(std::vector<std::pair<std::int32_t, float>>& list, bool& truncated, double& total)
{
    std::sort(list.begin(), list.end());
    size_t merged = 0;
    for (size_t i = 0; i < list.size(); ++i) {
        if (merged > 0 && list[merged - 1].first == list[i].first)
            list[merged - 1].second += list[i].second;
        else
            list[merged++] = list[i];
    }
    list.resize(merged);
    total = 0.;
    for (const auto& entry : list)
        total += entry.second;
    std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    truncated = list.size() > size_t(kMaxInfluences);
    VertexInfluences out;
    const size_t keep = std::min(list.size(), size_t(kMaxInfluences));
    double sum = 0.;
    for (size_t k = 0; k < keep; ++k)
        sum += list[k].second;
    for (size_t k = 0; k < keep && sum > 0.; ++k) {
        out.bone[k] = list[k].first;
        out.weight[k] = float(list[k].second / sum);
    }
    return out;
}

/// Area-weighted face normals for the vertices flagged in `repair`.
void repairNormals(ImportedMesh& mesh, const std::vector<char>& repair)
{
    std::vector<V3d> sum(mesh.positions.size());
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
        const std::uint32_t a = mesh.indices[t], b = mesh.indices[t + 1], c = mesh.indices[t + 2];
        if (!repair[a] && !repair[b] && !repair[c])
            continue;
        const V3d pa = V3d::of(mesh.positions[a]);
        const V3d face = cross(V3d::of(mesh.positions[b]) - pa, V3d::of(mesh.positions[c]) - pa);
        for (std::uint32_t v : {a, b, c})
            sum[v] = sum[v] + face;
    }
    for (size_t v = 0; v < sum.size(); ++v)
        if (repair[v])
            mesh.normals[v] = normalizeOr(sum[v].toFloat(), Vec3{0.f, 1.f, 0.f});
}

std::string buildInstance(BuildContext& ctx, std::int32_t node, std::uint32_t meshIndex, ImportedScene& out)
{
    const RawMesh& raw = ctx.raw.meshes[meshIndex];
    const Affine toModel = ctx.X * ctx.skinSpace(node, meshIndex);
    ImportedMesh mesh;
    mesh.name = raw.name.empty() ? cat("mesh", meshIndex) : raw.name;
    mesh.nodeName = ctx.raw.nodes[size_t(node)].name;
    mesh.material = raw.material < out.materials.size() ? std::int32_t(raw.material) : rig::kNone;
    const size_t nv = raw.positions.size();

    const bool skinned = !raw.bones.empty() && !out.skeleton.empty();
    RawWeights weights;
    size_t negative = 0;
    if (skinned)
        if (std::string e = gatherWeights(ctx, raw, weights, negative); !e.empty())
            return e;
    const bool rebind = skinned && std::find(ctx.rebound.begin(), ctx.rebound.end(),
                                             std::pair{node, meshIndex}) != ctx.rebound.end();
    std::vector<Affine> skinToModel; // per raw bone: mesh space -> model space through the chosen bind pose
    if (rebind)
        for (const RawBone& bone : raw.bones)
            skinToModel.push_back(ctx.X * ctx.bindA[size_t(ctx.boneByName.at(bone.name))] *
                                  bone.offset);

    mesh.positions.resize(nv);
    mesh.normals.resize(nv);
    std::vector<char> repair(nv, 0);
    size_t repaired = 0;
    for (size_t v = 0; v < nv; ++v) {
        Affine m = toModel;
        if (rebind && weights.offsets[v + 1] > weights.offsets[v]) {
            double total = 0.;
            Affine blend = Affine::scaling(0.);
            for (std::uint32_t e = weights.offsets[v]; e < weights.offsets[v + 1]; ++e) {
                const double w = weights.entries[e].second;
                const Affine& s = skinToModel[size_t(weights.rawBone[e])];
                for (int r = 0; r < 3; ++r) {
                    for (int c = 0; c < 3; ++c)
                        blend.l[r][c] += w * s.l[r][c];
                    blend.t[r] += w * s.t[r];
                }
                total += w;
            }
            m = blend.scaledLinear(1. / total);
            for (double& t : m.t)
                t /= total;
        }
        mesh.positions[v] = m.point(V3d::of(raw.positions[v])).toFloat();
        const Vec3 n = v < raw.normals.size() ? raw.normals[v] : Vec3{};
        const Vec3 moved = m.normal(V3d::of(n)).toFloat();
        if (isFinite(n) && isFinite(moved) && lengthSquared(moved) > 1e-20f) {
            mesh.normals[v] = normalizeOr(moved, Vec3{0.f, 1.f, 0.f});
        } else {
            repair[v] = 1;
            ++repaired;
        }
    }
    if (!raw.uvs.empty()) {
        mesh.uvs = raw.uvs;
        for (size_t v = 0; v < nv; ++v)
            if (!std::isfinite(raw.uvs[v].u) || !std::isfinite(raw.uvs[v].v))
                return cat("mesh ", named(mesh.name), " vertex ", v, ": texture coordinate is not finite");
    }
    mesh.indices = raw.indices;
    if (toModel.det() < 0.) // a mirroring node transform turns faces inside out: keep them counter-clockwise
        for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3)
            std::swap(mesh.indices[t + 1], mesh.indices[t + 2]);
    if (repaired > 0) {
        repairNormals(mesh, repair);
        ctx.warn(cat("mesh ", named(mesh.name), ": ", repaired, " missing, zero or non-finite normals recomputed from the faces"));
    }

    if (skinned) {
        // Bones the skin names without weighting any vertex: harmless (they stay bones of the skeleton, and
        // move with whatever drives them), but often a sign of a skin bound to the wrong bones.
        std::vector<std::string> unused;
        for (const RawBone& bone : raw.bones)
            if (std::none_of(bone.weights.begin(), bone.weights.end(), [](const auto& w) { return w.second > 0.f; }))
                unused.push_back(bone.name);
        if (!unused.empty())
            ctx.warn(cat("mesh ", named(mesh.name), ": the skin names ", unused.size(), " bone(s) that weight no vertex (",
                         nameList(unused), "); kept as bones of the skeleton"));
        mesh.influences.resize(nv);
        std::vector<std::pair<std::int32_t, float>> list;
        size_t offSum = 0, firstOff = 0;
        double firstOffSum = 0.;
        for (size_t v = 0; v < nv; ++v) {
            list.assign(weights.entries.begin() + weights.offsets[v], weights.entries.begin() + weights.offsets[v + 1]);
            bool truncated = false;
            double total = 0.;
            mesh.influences[v] = strongest(list, truncated, total);
            mesh.truncatedVertices += truncated ? 1 : 0;
            mesh.unweightedVertices += mesh.influences[v].count() == 0 ? 1 : 0;
            if (!list.empty() && std::fabs(total - 1.) > kWeightSumTolerance && offSum++ == 0) {
                firstOff = v;
                firstOffSum = total;
            }
        }
        if (offSum > 0)
            ctx.repair(cat("mesh ", named(mesh.name), ": the bone weights of ", offSum, " of ", nv,
                           " vertices do not sum to 1 (vertex ", firstOff, ": ", firstOffSum, ')'),
                       "renormalised");
        if (mesh.unweightedVertices > 0)
            ctx.warn(cat("mesh ", named(mesh.name), ": ", mesh.unweightedVertices, " of ", nv,
                         " vertices have no bone weight and are bound to nothing"));
        if (mesh.truncatedVertices > 0)
            ctx.warn(cat("mesh ", named(mesh.name), ": ", mesh.truncatedVertices, " vertices had more than ",
                         kMaxInfluences, " bone weights; the ", kMaxInfluences, " largest were kept and renormalised"));
        if (negative > 0)
            ctx.warn(cat("mesh ", named(mesh.name), ": ", negative, " negative bone weights ignored"));
        if (rebind)
            ctx.warn(cat("mesh ", named(mesh.name), ": its skin binds some bones in another pose than an earlier "
                         "mesh does; its vertices were moved into that mesh's bind pose"));
    } else if (!out.skeleton.empty()) {
        for (std::int32_t a = node; a >= 0; a = ctx.raw.nodes[size_t(a)].parent)
            if (ctx.boneOfNode[size_t(a)] >= 0) {
                mesh.rigidBone = ctx.boneOfNode[size_t(a)];
                break;
            }
        if (mesh.rigidBone != rig::kNone) {
            VertexInfluences rigid;
            rigid.bone[0] = mesh.rigidBone;
            rigid.weight[0] = 1.f;
            mesh.influences.assign(nv, rigid);
        }
    }
    if (raw.droppedFaces > 0)
        ctx.warn(cat("mesh ", named(mesh.name), ": ", raw.droppedFaces, " faces that are not triangles (points, lines) dropped"));
    out.meshes.push_back(std::move(mesh));
    return {};
}

} // namespace

std::string buildMeshes(BuildContext& ctx, ImportedScene& out)
{
    for (size_t i = 0; i < ctx.raw.materials.size(); ++i) {
        const RawMaterial& raw = ctx.raw.materials[i];
        ImportedMaterial m;
        m.name = raw.name.empty() ? cat("material", i) : raw.name;
        m.baseColor = raw.color;
        for (float& c : m.baseColor) {
            if (!std::isfinite(c)) {
                ctx.warn(cat("material ", named(m.name), ": base colour is not finite; white used"));
                m.baseColor = {1.f, 1.f, 1.f, 1.f};
                break;
            }
            c = std::clamp(c, 0.f, 1.f);
        }
        resolveTexture(raw, out.sourcePath, m);
        out.materials.push_back(std::move(m));
    }
    size_t instances = 0, done = 0;
    for (const RawNode& node : ctx.raw.nodes)
        instances += node.meshes.size();
    for (size_t n = 0; n < ctx.raw.nodes.size(); ++n) {
        for (std::uint32_t m : ctx.raw.nodes[n].meshes) {
            if (ctx.stopped())
                return {};
            if (!ctx.raw.meshes[m].indices.empty())
                if (std::string e = buildInstance(ctx, std::int32_t(n), m, out); !e.empty())
                    return e;
            if (ctx.progress)
                ctx.progress(float(++done) / float(instances));
        }
    }
    if (ctx.raw.droppedMeshes > 0)
        ctx.warn(cat(ctx.raw.droppedMeshes, " meshes without triangles (points or lines only) dropped"));
    return {};
}

} // namespace marionette::import::detail
