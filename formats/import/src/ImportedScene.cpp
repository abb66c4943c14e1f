#include "marionette/import/ImportedScene.h"

#include "Affine.h"
#include "Text.h"

#include <cmath>
#include <unordered_set>

namespace marionette::import {

using detail::Affine;
using detail::cat;
using detail::named;

const char* toString(UpAxis axis)
{
    switch (axis) {
    case UpAxis::Y: return "y";
    case UpAxis::Z: return "z";
    case UpAxis::X: return "x";
    }
    return "?";
}

int VertexInfluences::count() const
{
    int n = 0;
    for (std::int32_t b : bone)
        n += b != rig::kNone ? 1 : 0;
    return n;
}

std::size_t ImportedScene::vertexCount() const
{
    std::size_t n = 0;
    for (const ImportedMesh& m : meshes)
        n += m.positions.size();
    return n;
}

std::size_t ImportedScene::triangleCount() const
{
    std::size_t n = 0;
    for (const ImportedMesh& m : meshes)
        n += m.triangleCount();
    return n;
}

std::size_t ImportedScene::unweightedVertexCount() const
{
    std::size_t n = 0;
    for (const ImportedMesh& m : meshes)
        n += m.unweightedVertices;
    return n;
}

std::int32_t ImportedScene::findBone(const std::string& name) const
{
    for (std::size_t i = 0; i < skeleton.size(); ++i)
        if (skeleton[i].name == name)
            return std::int32_t(i);
    return rig::kNone;
}

std::array<Vec3, 2> ImportedScene::bounds() const
{
    bool any = false;
    Vec3 lo, hi;
    for (const ImportedMesh& m : meshes)
        for (const Vec3& p : m.positions) {
            lo = any ? vmin(lo, p) : p;
            hi = any ? vmax(hi, p) : p;
            any = true;
        }
    return {lo, hi};
}

namespace {

bool finite(const Mat4& m)
{
    for (float v : m.m)
        if (!std::isfinite(v))
            return false;
    return true;
}

std::string checkMesh(const ImportedMesh& m, std::size_t index, std::size_t materials, std::size_t bones)
{
    const std::string where = cat("meshes[", index, "] ", named(m.name));
    const std::size_t n = m.positions.size();
    if (n == 0 || m.indices.empty())
        return cat(where, ": no triangles");
    if (m.indices.size() % 3 != 0)
        return cat(where, ": ", m.indices.size(), " indices is not a multiple of 3");
    if (m.normals.size() != n)
        return cat(where, ": ", m.normals.size(), " normals for ", n, " positions");
    if (!m.uvs.empty() && m.uvs.size() != n)
        return cat(where, ": ", m.uvs.size(), " texture coordinates for ", n, " positions");
    if (!m.influences.empty() && m.influences.size() != n)
        return cat(where, ": ", m.influences.size(), " influences for ", n, " positions");
    if (m.material != rig::kNone && (m.material < 0 || std::size_t(m.material) >= materials))
        return cat(where, ": material ", m.material, " out of range (", materials, " materials)");
    if (m.rigidBone != rig::kNone && (m.rigidBone < 0 || std::size_t(m.rigidBone) >= bones))
        return cat(where, ": rigid bone ", m.rigidBone, " out of range");
    for (std::size_t i = 0; i < m.indices.size(); ++i)
        if (m.indices[i] >= n)
            return cat(where, " triangle ", i / 3, ": vertex ", m.indices[i], " out of range (", n, " vertices)");
    std::size_t unweighted = 0;
    for (std::size_t v = 0; v < n; ++v) {
        const std::string vertex = cat(where, " vertex ", v);
        if (!isFinite(m.positions[v]))
            return cat(vertex, ": position is not finite");
        if (!isFinite(m.normals[v]) || std::fabs(length(m.normals[v]) - 1.f) > 1e-3f)
            return cat(vertex, ": normal is not of unit length");
        if (!m.uvs.empty() && (!std::isfinite(m.uvs[v].u) || !std::isfinite(m.uvs[v].v)))
            return cat(vertex, ": texture coordinate is not finite");
        if (m.influences.empty())
            continue;
        const VertexInfluences& inf = m.influences[v];
        double sum = 0.;
        int used = 0;
        for (int k = 0; k < kMaxInfluences; ++k) {
            const std::int32_t b = inf.bone[std::size_t(k)];
            const float w = inf.weight[std::size_t(k)];
            if (b == rig::kNone) {
                if (w != 0.f)
                    return cat(vertex, ": unused influence slot ", k, " has weight ", w);
                continue;
            }
            if (b < 0 || std::size_t(b) >= bones)
                return cat(vertex, ": bone ", b, " out of range (", bones, " bones)");
            if (!(w > 0.f && w <= 1.f))
                return cat(vertex, ": weight ", w, " outside (0, 1]");
            if (used != k)
                return cat(vertex, ": influence slots are not packed from the first");
            sum += w;
            ++used;
        }
        if (used == 0)
            ++unweighted;
        else if (std::fabs(sum - 1.) > 1e-4)
            return cat(vertex, ": weights sum to ", sum);
    }
    if (unweighted != m.unweightedVertices)
        return cat(where, ": ", unweighted, " vertices without weight but unweightedVertices says ", m.unweightedVertices);
    return {};
}

std::string checkSkeleton(const std::vector<rig::Bone>& skeleton, std::size_t infoCount, double size)
{
    if (infoCount != skeleton.size())
        return cat(infoCount, " bone infos for ", skeleton.size(), " bones");
    std::unordered_set<std::string> names;
    for (std::size_t i = 0; i < skeleton.size(); ++i) {
        const rig::Bone& b = skeleton[i];
        const std::string where = cat("skeleton[", i, "] ", named(b.name));
        if (b.name.empty())
            return cat(where, ": empty name");
        if (!names.insert(b.name).second)
            return cat(where, ": name used by an earlier bone");
        if (b.parent != rig::kNone && (b.parent < 0 || std::size_t(b.parent) >= i))
            return cat(where, ": parent ", b.parent, " does not come before it");
        if (!finite(b.bindLocal) || !finite(b.bindWorld) || !finite(b.inverseBind))
            return cat(where, ": a bind matrix is not finite");
        const Affine world = Affine::fromMat4(b.bindWorld);
        const Affine expected =
            b.parent == rig::kNone ? Affine::fromMat4(b.bindLocal)
                                   : Affine::fromMat4(skeleton[std::size_t(b.parent)].bindWorld) * Affine::fromMat4(b.bindLocal);
        if (world.distance(expected, size) > 1e-3)
            return cat(where, ": bindWorld is not parent.bindWorld * bindLocal");
        if ((world * Affine::fromMat4(b.inverseBind)).distance(Affine{}, size) > 1e-3)
            return cat(where, ": bindWorld * inverseBind is not the identity");
    }
    return {};
}

template <class Key>
std::string checkKeys(const std::vector<Key>& keys, const std::string& where, const char* kind)
{
    if (keys.empty())
        return cat(where, ": no ", kind, " key");
    for (std::size_t k = 0; k < keys.size(); ++k) {
        if (!std::isfinite(keys[k].time) || (k > 0 && keys[k].time < keys[k - 1].time))
            return cat(where, ": ", kind, " key ", k, " time is not finite or goes back");
    }
    return {};
}

std::string checkClip(const AnimationClip& clip, std::size_t index, std::size_t bones)
{
    const std::string where = cat("animations[", index, "] ", named(clip.name));
    if (!std::isfinite(clip.duration) || clip.duration < 0.f)
        return cat(where, ": duration is not finite and >= 0");
    std::int32_t previous = -1;
    for (const BoneChannel& ch : clip.channels) {
        if (ch.bone < 0 || std::size_t(ch.bone) >= bones || ch.bone <= previous)
            return cat(where, ": channel bone ", ch.bone, " out of range or out of order");
        previous = ch.bone;
        const std::string c = cat(where, " bone ", ch.bone);
        for (const std::string& e : {checkKeys(ch.positions, c, "position"), checkKeys(ch.rotations, c, "rotation"),
                                     checkKeys(ch.scales, c, "scale")})
            if (!e.empty())
                return e;
        for (const VectorKey& k : ch.positions)
            if (!isFinite(k.value))
                return cat(c, ": position key is not finite");
        for (const VectorKey& k : ch.scales)
            if (!isFinite(k.value))
                return cat(c, ": scale key is not finite");
        for (const RotationKey& k : ch.rotations) {
            const Quat& q = k.value;
            const float n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
            if (!std::isfinite(n) || std::fabs(n - 1.f) > 1e-3f)
                return cat(c, ": rotation key is not a unit quaternion");
        }
    }
    return {};
}

} // namespace

std::string ImportedScene::validate() const
{
    if (meshes.empty())
        return "no mesh";
    for (const ImportedMaterial& m : materials)
        for (float c : m.baseColor)
            if (!std::isfinite(c))
                return cat("material ", named(m.name), ": base colour is not finite");
    for (std::size_t i = 0; i < meshes.size(); ++i)
        if (std::string e = checkMesh(meshes[i], i, materials.size(), skeleton.size()); !e.empty())
            return e;
    const auto box = bounds();
    const double size = std::fmax(1e-6, double(length(box[1] - box[0])));
    if (std::string e = checkSkeleton(skeleton, boneInfo.size(), size); !e.empty())
        return e;
    for (std::size_t i = 0; i < boneInfo.size(); ++i)
        if (!finite(boneInfo[i].restLocal))
            return cat("boneInfo[", i, "]: restLocal is not finite");
    for (std::size_t i = 0; i < animations.size(); ++i)
        if (std::string e = checkClip(animations[i], i, skeleton.size()); !e.empty())
            return e;
    return {};
}

bool skinnedPosition(const ImportedMesh& mesh, std::size_t v, std::span<const Mat4> palette, Vec3& out)
{
    out = mesh.positions[v];
    auto matrix = [&](std::int32_t bone) -> const Mat4* {
        return bone >= 0 && std::size_t(bone) < palette.size() ? &palette[std::size_t(bone)] : nullptr;
    };
    if (mesh.rigidBone != rig::kNone) {
        const Mat4* b = matrix(mesh.rigidBone);
        if (b)
            out = b->transformPoint(out);
        return b != nullptr;
    }
    if (!mesh.isSkinned())
        return false;
    const VertexInfluences& in = mesh.influences[v];
    Vec3 sum;
    float total = 0.f;
    for (int k = 0; k < kMaxInfluences; ++k) {
        const float w = in.weight[std::size_t(k)];
        const Mat4* b = w > 0.f ? matrix(in.bone[std::size_t(k)]) : nullptr;
        if (!b)
            continue;
        sum += b->transformPoint(mesh.positions[v]) * w;
        total += w;
    }
    if (!(total > 1e-6f))
        return false;
    out = sum * (1.f / total);
    return true;
}

} // namespace marionette::import
