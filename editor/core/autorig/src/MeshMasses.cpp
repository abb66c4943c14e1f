#include "marionette/editor/autorig/MeshMasses.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <unordered_map>

namespace marionette::editor {

namespace {

struct DVec {
    double x = 0, y = 0, z = 0;
};
DVec dvec(Vec3 v) { return {double(v.x), double(v.y), double(v.z)}; }
DVec operator-(DVec a, DVec b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
double tripleProduct(DVec a, DVec b, DVec c)
{
    return a.x * (b.y * c.z - b.z * c.y) - a.y * (b.x * c.z - b.z * c.x) + a.z * (b.x * c.y - b.y * c.x);
}


bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

/// Every edge, with vertices welded by exact position (meshes split vertices at UV seams), shared by exactly
/// two triangles.
bool isClosed(const import::ImportedMesh& mesh)
{
    struct Key {
        float x, y, z;
        bool operator==(const Key& o) const { return std::memcmp(this, &o, sizeof(Key)) == 0; }
    };
    struct Hash {
        std::size_t operator()(const Key& k) const
        {
            std::uint32_t b[3];
            std::memcpy(b, &k, sizeof b);
            return std::size_t(b[0]) * 73856093u ^ std::size_t(b[1]) * 19349663u ^ std::size_t(b[2]) * 83492791u;
        }
    };
    std::unordered_map<Key, std::uint32_t, Hash> weld;
    std::vector<std::uint32_t> id(mesh.positions.size());
    for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
        const Vec3 p = mesh.positions[v];
        id[v] = weld.try_emplace(Key{p.x + 0.f, p.y + 0.f, p.z + 0.f}, std::uint32_t(weld.size())).first->second;
    }
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> edges;
    for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t a = id[mesh.indices[t + std::size_t(k)]], b = id[mesh.indices[t + std::size_t((k + 1) % 3)]];
            ++edges[{std::min(a, b), std::max(a, b)}];
        }
    return !edges.empty() && std::all_of(edges.begin(), edges.end(), [](const auto& e) { return e.second == 2; });
}

/// The dynamic particles of the stick or triangle that drives rig bone `bone`, or none.
std::vector<std::int32_t> driversOf(const rig::RigDescription& rig, std::int32_t bone)
{
    std::vector<std::int32_t> out;
    for (const rig::BoneBinding& b : rig.bindings) {
        if (b.bone != bone)
            continue;
        if (b.driver == rig::BoneBinding::Driver::Stick && b.index >= 0 && std::size_t(b.index) < rig.sticks.size())
            out = {rig.sticks[std::size_t(b.index)].a, rig.sticks[std::size_t(b.index)].b};
        else if (b.driver == rig::BoneBinding::Driver::Triangle && b.index >= 0 &&
                 std::size_t(b.index) < rig.triangles.size())
            out.assign(std::begin(rig.triangles[std::size_t(b.index)].p), std::end(rig.triangles[std::size_t(b.index)].p));
        std::erase_if(out, [&](std::int32_t p) {
            return p < 0 || std::size_t(p) >= rig.particles.size() || !(rig.particles[std::size_t(p)].mass > 0.f);
        });
        if (!out.empty())
            return out;
    }
    return out;
}

std::int32_t rigBoneNamed(const rig::RigDescription& rig, const std::string& name)
{
    for (std::size_t i = 0; i < rig.bones.size(); ++i)
        if (rig.bones[i].name == name)
            return std::int32_t(i);
    return rig::kNone;
}

/// The dynamic particles that carry scene bone `b`'s volume (step 2 of the header).
std::vector<std::int32_t> carriersOf(const rig::RigDescription& rig, const import::ImportedScene& scene, std::int32_t b)
{
    for (std::int32_t a = b; a >= 0; a = scene.skeleton[std::size_t(a)].parent) {
        const std::int32_t r = rigBoneNamed(rig, scene.skeleton[std::size_t(a)].name);
        if (r == rig::kNone)
            continue;
        std::vector<std::int32_t> drivers = driversOf(rig, r);
        if (!drivers.empty())
            return drivers;
    }
    std::vector<std::int32_t> out;
    if (rig.bindings.empty()) {
        const std::int32_t r = rigBoneNamed(rig, scene.skeleton[std::size_t(b)].name);
        for (std::size_t i = 0; i < rig.particles.size(); ++i)
            if (r != rig::kNone && rig.particles[i].bone == r && rig.particles[i].mass > 0.f)
                out.push_back(std::int32_t(i));
        if (!out.empty())
            return out;
    }
    const Vec3 head = (scene.skeleton[std::size_t(b)].bindWorld).translation();
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < rig.particles.size(); ++i) {
        if (!(rig.particles[i].mass > 0.f))
            continue;
        const double d = double(lengthSquared(rig.particles[i].position - head));
        if (d < best) {
            best = d;
            out = {std::int32_t(i)};
        }
    }
    return out;
}

} // namespace

MeshMasses massesFromMesh(const rig::RigDescription& rig, const import::ImportedScene& scene, float totalMass)
{
    MeshMasses r;
    if (!std::isfinite(totalMass) || !(totalMass > 0.f) || totalMass > 1e6f) {
        r.error = "total mass must be a finite number of kilograms above 0 (at most 1e6)";
        return r;
    }
    if (std::none_of(rig.particles.begin(), rig.particles.end(), [](const rig::Particle& p) { return p.mass > 0.f; })) {
        r.error = "the rig has no dynamic particle (every mass is 0)";
        return r;
    }
    if (scene.skeleton.empty()) {
        r.error = "the mesh has no skeleton";
        return r;
    }
    const std::size_t bones = scene.skeleton.size();
    for (std::size_t b = 0; b < bones; ++b)
        if (scene.skeleton[b].parent >= std::int32_t(b)) {
            r.error = "bone '" + scene.skeleton[b].name + "': its parent comes after it";
            return r;
        }
    r.boneVolumes.assign(bones, 0.0);
    bool anySkin = false;
    r.closed = true;
    for (const import::ImportedMesh& mesh : scene.meshes) {
        const bool skinned = mesh.isSkinned() && mesh.influences.size() == mesh.positions.size();
        if (!skinned && (mesh.rigidBone < 0 || std::size_t(mesh.rigidBone) >= bones))
            continue; // static: no bone carries it
        anySkin = true;
        DVec centroid;
        for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
            if (!finite(mesh.positions[v])) {
                r.error = "mesh '" + mesh.name + "' vertex " + std::to_string(v) + " is not finite";
                return r;
            }
            centroid.x += double(mesh.positions[v].x) / double(mesh.positions.size());
            centroid.y += double(mesh.positions[v].y) / double(mesh.positions.size());
            centroid.z += double(mesh.positions[v].z) / double(mesh.positions.size());
        }
        for (std::uint32_t i : mesh.indices)
            if (i >= mesh.positions.size()) {
                r.error = "mesh '" + mesh.name + "': vertex index " + std::to_string(i) + " out of range";
                return r;
            }
        const bool closed = isClosed(mesh);
        r.closed = r.closed && closed;
        // The bones of vertex v with their weights normalised over the bones the skeleton has.
        auto forEachBone = [&](std::size_t v, auto&& f) {
            if (!skinned) {
                f(mesh.rigidBone, 1.0);
                return;
            }
            const import::VertexInfluences& in = mesh.influences[v];
            double weights = 0.0;
            for (int k = 0; k < import::kMaxInfluences; ++k)
                if (in.bone[std::size_t(k)] >= 0 && std::size_t(in.bone[std::size_t(k)]) < bones && in.weight[std::size_t(k)] > 0.f)
                    weights += double(in.weight[std::size_t(k)]);
            if (!(weights > 0.0) || !std::isfinite(weights))
                return; // a vertex bound to nothing
            for (int k = 0; k < import::kMaxInfluences; ++k)
                if (in.bone[std::size_t(k)] >= 0 && std::size_t(in.bone[std::size_t(k)]) < bones && in.weight[std::size_t(k)] > 0.f)
                    f(in.bone[std::size_t(k)], double(in.weight[std::size_t(k)]) / weights);
        };
        auto tet = [&](std::uint32_t a, std::uint32_t b, std::uint32_t c, DVec apex) {
            return tripleProduct(dvec(mesh.positions[a]) - apex, dvec(mesh.positions[b]) - apex,
                                 dvec(mesh.positions[c]) - apex) / 6.0;
        };
        if (closed) {
            // Signed tetrahedra to the mesh's centroid: they add up to the enclosed volume.
            std::vector<double> vertexVolume(mesh.positions.size(), 0.0);
            double signedSum = 0.0;
            for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
                const std::uint32_t a = mesh.indices[t], b = mesh.indices[t + 1], c = mesh.indices[t + 2];
                const double v = tet(a, b, c, centroid);
                signedSum += v;
                vertexVolume[a] += v / 3.0;
                vertexVolume[b] += v / 3.0;
                vertexVolume[c] += v / 3.0;
            }
            const double turn = signedSum < 0.0 ? -1.0 : 1.0; // inside-out winding
            for (std::size_t v = 0; v < mesh.positions.size(); ++v)
                forEachBone(v, [&](std::int32_t bone, double w) { r.boneVolumes[std::size_t(bone)] += turn * w * vertexVolume[v]; });
            continue;
        }
        // Open: each bone's part measured to its own centre (the weighted centroid of its vertices), so a
        // part's missing caps cost only small cones and a part far from the body's centre is not inflated.
        std::vector<DVec> centre(bones);
        std::vector<double> weight(bones, 0.0);
        for (std::size_t v = 0; v < mesh.positions.size(); ++v)
            forEachBone(v, [&](std::int32_t bone, double w) {
                const DVec p = dvec(mesh.positions[v]);
                DVec& c = centre[std::size_t(bone)];
                c.x += w * p.x, c.y += w * p.y, c.z += w * p.z;
                weight[std::size_t(bone)] += w;
            });
        for (std::size_t b = 0; b < bones; ++b)
            if (weight[b] > 0.0)
                centre[b] = {centre[b].x / weight[b], centre[b].y / weight[b], centre[b].z / weight[b]};
        std::vector<double> part(bones, 0.0);
        for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
            const std::uint32_t corner[3] = {mesh.indices[t], mesh.indices[t + 1], mesh.indices[t + 2]};
            for (std::uint32_t v : corner)
                forEachBone(v, [&](std::int32_t bone, double w) {
                    part[std::size_t(bone)] += w / 3.0 * tet(corner[0], corner[1], corner[2], centre[std::size_t(bone)]);
                });
        }
        for (std::size_t b = 0; b < bones; ++b)
            r.boneVolumes[b] += std::abs(part[b]); // either winding
    }
    if (!anySkin) {
        r.error = "no vertex of the mesh is bound to a bone (the mesh has no skin)";
        r.boneVolumes.clear();
        return r;
    }
    for (double& v : r.boneVolumes) {
        v = std::max(v, 0.0); // a concave part of a closed mesh can give a bone a negative share
        r.volume += v;
    }
    if (!(r.volume > 1e-12) || !std::isfinite(r.volume)) {
        r.error = "the mesh encloses no volume its skin gives to bones";
        r.boneVolumes.clear();
        return r;
    }

    std::vector<double> mass(rig.particles.size(), 0.0);
    for (std::size_t b = 0; b < bones; ++b) {
        if (r.boneVolumes[b] <= 0.0)
            continue;
        const std::vector<std::int32_t> carriers = carriersOf(rig, scene, std::int32_t(b));
        for (std::int32_t p : carriers)
            mass[std::size_t(p)] += r.boneVolumes[b] / double(carriers.size());
    }
    const double heaviest = *std::max_element(mass.begin(), mass.end());
    double sum = 0.0;
    for (std::size_t i = 0; i < mass.size(); ++i) {
        mass[i] = rig.particles[i].mass > 0.f ? std::max(mass[i], heaviest / 10.0) : 0.0;
        sum += mass[i];
    }
    r.masses.resize(mass.size());
    std::size_t heaviestIndex = 0;
    double floatSum = 0.0;
    for (std::size_t i = 0; i < mass.size(); ++i) {
        r.masses[i] = float(mass[i] / sum * double(totalMass));
        floatSum += double(r.masses[i]);
        if (r.masses[i] > r.masses[heaviestIndex])
            heaviestIndex = i;
    }
    r.masses[heaviestIndex] = float(double(r.masses[heaviestIndex]) + (double(totalMass) - floatSum));
    return r;
}

} // namespace marionette::editor
