#include "IqmSceneBuilder.h"

#include "IqmConversion.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>
#include <unordered_set>

namespace marionette::plugins::iqm {
namespace {

template <class... Args> std::string cat(const Args&... args)
{
    std::ostringstream s;
    s.precision(7);
    (s << ... << args);
    return s.str();
}
std::string inQuotes(const std::string& name)
{
    return cat('\'', name, '\'');
}

bool usableMesh(const Mesh& m)
{
    return m.vertexCount > 0 && m.triangleCount > 0;
}

/// Joints this many mesh sizes away from the mesh, or scaled more unevenly than this, are refused: a float
/// bind matrix cannot hold them precisely (and no character has them).
constexpr double kMaxJointDistance = 1000.;
constexpr double kMaxScaleRatio = 1e4;

/// The file-unit bounds of the vertices of the meshes that are imported.
struct Bounds {
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    double diagonal() const
    {
        double d = 0.;
        for (int i = 0; i < 3; ++i)
            d += (hi[i] - lo[i]) * (hi[i] - lo[i]);
        return std::sqrt(d);
    }
    /// Distance from p to the box (0 inside).
    double distance(const double p[3]) const
    {
        double d = 0.;
        for (int i = 0; i < 3; ++i) {
            const double out = std::max({lo[i] - p[i], p[i] - hi[i], 0.});
            d += out * out;
        }
        return std::sqrt(d);
    }
};

Bounds meshBounds(const File& file)
{
    Bounds b;
    for (const Mesh& m : file.meshes)
        if (usableMesh(m))
            for (std::uint32_t v = m.firstVertex; v < m.firstVertex + m.vertexCount; ++v) {
                const Vec3 p = file.positions[v];
                const double c[3] = {p.x, p.y, p.z};
                for (int i = 0; i < 3; ++i) {
                    b.lo[i] = std::min(b.lo[i], c[i]);
                    b.hi[i] = std::max(b.hi[i], c[i]);
                }
            }
    return b;
}

/// Chooses the scale and up axis and records them in out.conversion.
bool setUpFrame(const File& file, const SceneOptions& options, import::ImportedScene& out, Conversion& cv,
                std::string& error)
{
    const import::UpAxis up = options.upAxis.value_or(import::UpAxis::Z);
    cv.rotation = upRotation(up);
    Mat3 r;
    for (int c = 0; c < 3; ++c)
        r.c[c] = {float(cv.rotation.l[0][c]), float(cv.rotation.l[1][c]), float(cv.rotation.l[2][c])};
    cv.rotationQ = toQuat(r);
    import::ImportConversion& c = out.conversion;
    c.format = "Inter-Quake Model (IQM 2)";
    c.sourceUnit = "unknown";
    c.sourceUnitMetres = 1.;
    c.sourceUpAxis = up;
    c.upAxisOverridden = options.upAxis.has_value();
    if (options.scale) {
        if (!std::isfinite(*options.scale) || !(*options.scale > 0.f)) {
            error = cat("the scale must be a finite number > 0 (got ", *options.scale, ')');
            return false;
        }
        cv.scale = *options.scale;
        c.scaleOverridden = true;
    } else {
        double lo = HUGE_VAL, hi = -HUGE_VAL;
        for (const Mesh& m : file.meshes)
            if (usableMesh(m))
                for (std::uint32_t v = m.firstVertex; v < m.firstVertex + m.vertexCount; ++v) {
                    const double y = double(cv.rotation.vector(file.positions[v]).y);
                    lo = std::min(lo, y);
                    hi = std::max(hi, y);
                }
        const double height = hi - lo;
        if (std::isfinite(height) && height > 1e-9 && std::isfinite(float(kDefaultHeight / height))) {
            cv.scale = double(kDefaultHeight) / height;
            out.warnings.push_back(cat("the file carries no unit: scaled by ", cv.scale, " so the bind pose is ",
                                       kDefaultHeight, " m tall (it is ", height,
                                       " units); give a scale to choose another"));
        } else {
            out.warnings.push_back(
                "the file carries no unit and its bind pose has no height along the up axis; left unscaled");
        }
    }
    c.scale = float(cv.scale);
    Affine m = cv.rotation;
    for (auto& row : m.l)
        for (double& v : row)
            v *= cv.scale;
    c.matrix = m.toMat4();
    return true;
}

/// "a", "b#2", ...: unique, non-empty bone names; renamed ones listed in a warning.
std::vector<std::string> boneNames(const File& file, std::vector<std::string>& warnings)
{
    std::vector<std::string> names;
    std::unordered_set<std::string> used;
    std::vector<std::string> renamed;
    for (std::size_t i = 0; i < file.joints.size(); ++i) {
        const std::string base = file.joints[i].name.empty() ? cat("joint", i) : file.joints[i].name;
        std::string name = base;
        for (int k = 2; !used.insert(name).second; ++k)
            name = cat(base, '#', k);
        if (name != base)
            renamed.push_back(cat(inQuotes(base), " -> ", inQuotes(name)));
        names.push_back(name);
    }
    if (!renamed.empty())
        warnings.push_back(cat("bone names must be unique; renamed ", renamed.front(),
                               renamed.size() > 1 ? cat(" and ", renamed.size() - 1, " more") : std::string()));
    return names;
}

bool buildSkeleton(const File& file, const Conversion& cv, import::ImportedScene& out, std::vector<double>& sigma,
                   std::string& error)
{
    const std::vector<std::string> names = boneNames(file, out.warnings);
    std::vector<Affine> world(file.joints.size()), bind(file.joints.size()), inverse(file.joints.size());
    sigma.assign(file.joints.size(), 1.);
    std::size_t scaled = 0, sheared = 0;
    const Bounds box = meshBounds(file);
    const double size = std::max(box.diagonal(), 1e-30);
    for (std::size_t i = 0; i < file.joints.size(); ++i) {
        const Joint& j = file.joints[i];
        const auto p = std::size_t(j.parent);
        const double smallest = std::min({std::fabs(j.scale.x), std::fabs(j.scale.y), std::fabs(j.scale.z)}),
                     largest = std::max({std::fabs(j.scale.x), std::fabs(j.scale.y), std::fabs(j.scale.z)});
        const bool outside = !(smallest >= 1. / kMaxScaleRatio) || !(largest <= kMaxScaleRatio);
        if (outside || !(smallest * kMaxScaleRatio >= largest)) {
            error = cat("joint ", i, ' ', inQuotes(j.name), ": scale (", j.scale.x, ", ", j.scale.y, ", ", j.scale.z,
                        ") is ",
                        outside ? cat("outside ", 1. / kMaxScaleRatio, "..", kMaxScaleRatio)
                                : cat("uneven beyond ", kMaxScaleRatio, ":1"));
            return false;
        }
        const Affine local = Affine::trs(j.translate, j.rotate, j.scale);
        world[i] = j.parent >= 0 ? world[p] * local : local;
        if (!(box.distance(world[i].t) <= kMaxJointDistance * size)) {
            error =
                cat("joint ", i, ' ', inQuotes(j.name), ": bind position (", world[i].t[0], ", ", world[i].t[1], ", ",
                    world[i].t[2], ") lies more than ", kMaxJointDistance, " times the mesh's size from the mesh");
            return false;
        }
        const Affine g = cv.frame(world[i]);
        const double s = std::cbrt(std::fabs(g.det()));
        if (!(s > 1e-12) || !std::isfinite(s)) {
            error = cat("joint ", i, ' ', inQuotes(j.name), ": bind pose is singular (scale ", j.scale.x, ", ",
                        j.scale.y, ", ", j.scale.z, ')');
            return false;
        }
        sigma[i] = s;
        bind[i] = g;
        for (auto& row : bind[i].l)
            for (double& v : row)
                v /= s;
        if (!bind[i].inverse(inverse[i])) {
            error = cat("joint ", i, ' ', inQuotes(j.name), ": bind pose cannot be inverted");
            return false;
        }
        scaled += std::fabs(s - 1.) > 1e-3 ? 1 : 0;
        sheared += std::fabs(j.scale.x - j.scale.y) > 1e-3f * std::fabs(j.scale.x) ||
                           std::fabs(j.scale.x - j.scale.z) > 1e-3f * std::fabs(j.scale.x) || world[i].det() < 0.
                       ? 1
                       : 0;
        rig::Bone bone;
        bone.name = names[i];
        bone.parent = j.parent >= 0 ? j.parent : rig::kNone;
        bone.bindWorld = bind[i].toMat4();
        bone.inverseBind = inverse[i].toMat4();
        bone.bindLocal = (j.parent >= 0 ? inverse[p] * bind[i] : bind[i]).toMat4();
        import::ImportedBoneInfo info;
        info.sourceName = j.name;
        info.restLocal = bone.bindLocal;
        out.skeleton.push_back(std::move(bone));
        out.boneInfo.push_back(std::move(info));
    }
    if (scaled > 0)
        out.warnings.push_back(cat(scaled, " joint frame(s) carry a scale, moved into their inverse binds and keys"));
    if (sheared > 0)
        out.warnings.push_back(
            cat(sheared, " joint(s) carry a non-uniform or mirroring scale, which their bind matrices keep"));
    return true;
}

bool isImageName(const std::string& name)
{
    const auto dot = name.find_last_of('.');
    if (dot == std::string::npos)
        return false;
    std::string ext = name.substr(dot + 1);
    for (char& ch : ext)
        ch = char(std::tolower(static_cast<unsigned char>(ch)));
    for (const char* known : {"png", "jpg", "jpeg", "tga", "bmp", "dds", "webp", "gif", "tif", "tiff", "ktx", "pcx"})
        if (ext == known)
            return true;
    return false;
}

/// A material named like Cube 2's skins: the name, and its texture when the name is an image file name.
import::ImportedMaterial material(const std::string& name, const std::string& folder){namespace fs = std::filesystem;
import::ImportedMaterial m;
m.name = name;
if (!isImageName(name))
    return m;
m.baseColorTexture = name;
std::string relative = name;
std::replace(relative.begin(), relative.end(), '\\', '/');
const fs::path base = folder.empty() ? fs::path(".") : fs::path(folder);
std::error_code ec;
auto resolve = [&](const fs::path& p) { return fs::absolute(p, ec).lexically_normal().generic_string(); };
const fs::path direct = fs::path(relative).is_absolute() ? fs::path(relative) : base / relative;
const fs::path beside = base / fs::path(relative).filename();
if (fs::is_regular_file(direct, ec)) {
    m.baseColorTexturePath = resolve(direct);
    m.textureFound = true;
} else if (fs::is_regular_file(beside, ec)) {
    m.baseColorTexturePath = resolve(beside);
    m.textureFound = true;
} else {
    m.baseColorTexturePath = resolve(direct);
}
return m;
} // namespace

/// The skin of one vertex: bones joined, sorted by decreasing weight, renormalised; `sum` is the file's,
/// `used` the slots filled (0 for a vertex without weight).
import::VertexInfluences influences(const Blend& blend, float& sum, int& used){import::VertexInfluences in;
used = 0;
for (std::size_t k = 0; k < 4; ++k) {
    if (!(blend.weight[k] > 0.f))
        continue;
    const auto joint = std::int32_t(blend.joint[k]);
    int slot = 0;
    while (slot < used && in.bone[std::size_t(slot)] != joint)
        ++slot;
    if (slot == used)
        in.bone[std::size_t(used++)] = joint;
    in.weight[std::size_t(slot)] += blend.weight[k];
}
sum = 0.f;
for (int k = 0; k < used; ++k)
    sum += in.weight[std::size_t(k)];
if (!(sum > 0.f)) {
    used = 0;
    return {};
}
for (int a = 1; a < used; ++a) // insertion sort: by weight, then bone, both descending/ascending
    for (int b = a; b > 0; --b) {
        auto& w = in.weight;
        auto& j = in.bone;
        const auto x = std::size_t(b), y = std::size_t(b - 1);
        if (w[x] > w[y] || (w[x] == w[y] && j[x] < j[y])) {
            std::swap(w[x], w[y]);
            std::swap(j[x], j[y]);
        }
    }
for (int k = 0; k < used; ++k)
    in.weight[std::size_t(k)] /= sum;
return in;
} // namespace marionette::plugins::iqm

bool buildMeshes(const File& file, const Conversion& cv, const std::string& folder, import::ImportedScene& out,
                 std::string& error)
{
    std::map<std::string, std::int32_t> materials;
    std::size_t repairedNormals = 0, normalsExpected = 0;
    for (std::size_t index = 0; index < file.meshes.size(); ++index) {
        const Mesh& m = file.meshes[index];
        import::ImportedMesh mesh;
        mesh.name = m.name.empty() ? cat("mesh", index) : m.name;
        if (!usableMesh(m)) {
            out.warnings.push_back(cat("mesh ", inQuotes(mesh.name), " has no triangles; skipped"));
            continue;
        }
        mesh.nodeName = mesh.name;
        if (!m.material.empty()) {
            const auto [it, added] = materials.emplace(m.material, std::int32_t(out.materials.size()));
            if (added)
                out.materials.push_back(material(m.material, folder));
            mesh.material = it->second;
        }
        const std::uint32_t first = m.firstVertex, n = m.vertexCount;
        for (std::uint32_t v = 0; v < n; ++v) {
            mesh.positions.push_back(cv.point(file.positions[first + v]));
            if (!isFinite(mesh.positions.back())) {
                error =
                    cat("mesh ", inQuotes(mesh.name), " vertex ", v, ": position is not finite at scale ", cv.scale);
                return false;
            }
            if (!file.texcoords.empty())
                mesh.uvs.push_back({file.texcoords[first + v][0], 1.f - file.texcoords[first + v][1]});
        }
        // Clockwise in IQM, counter-clockwise here: the last two vertices swap.
        for (std::uint32_t t = 0; t < m.triangleCount; ++t) {
            const auto& tri = file.triangles[m.firstTriangle + t];
            mesh.indices.insert(mesh.indices.end(), {tri[0] - first, tri[2] - first, tri[1] - first});
        }
        // Area-weighted face normals, summed in double (float products overflow for huge coordinates).
        std::vector<std::array<double, 3>> faceNormals(n, {0., 0., 0.});
        for (std::size_t i = 0; i < mesh.indices.size(); i += 3) {
            const std::uint32_t a = mesh.indices[i], b = mesh.indices[i + 1], c = mesh.indices[i + 2];
            const Vec3 pa = mesh.positions[a], pb = mesh.positions[b], pc = mesh.positions[c];
            const double u[3] = {double(pb.x) - pa.x, double(pb.y) - pa.y, double(pb.z) - pa.z},
                         w[3] = {double(pc.x) - pa.x, double(pc.y) - pa.y, double(pc.z) - pa.z};
            const double area[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
            for (std::uint32_t v : {a, b, c})
                for (int k = 0; k < 3; ++k)
                    faceNormals[v][std::size_t(k)] += area[k];
        }
        for (std::uint32_t v = 0; v < n; ++v) {
            const auto& f = faceNormals[v];
            const double l = std::sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
            const Vec3 fromFaces = std::isfinite(l) && l > 1e-300
                                       ? Vec3{float(f[0] / l), float(f[1] / l), float(f[2] / l)}
                                       : Vec3{0.f, 1.f, 0.f};
            if (file.normals.empty()) {
                mesh.normals.push_back(fromFaces);
                continue;
            }
            ++normalsExpected;
            const Vec3 given = unitOr(cv.direction(file.normals[first + v]), {});
            const bool usable = given != Vec3{};
            repairedNormals += usable ? 0 : 1;
            mesh.normals.push_back(usable ? given : fromFaces);
        }
        if (!file.blends.empty() && !file.joints.empty()) {
            std::size_t offSum = 0, example = 0;
            float exampleSum = 0.f;
            for (std::uint32_t v = 0; v < n; ++v) {
                float sum = 0.f;
                int used = 0;
                const import::VertexInfluences in = influences(file.blends[first + v], sum, used);
                if (used == 0)
                    ++mesh.unweightedVertices;
                else if (std::fabs(sum - 1.f) > 0.01f && offSum++ == 0) {
                    example = v;
                    exampleSum = sum;
                }
                for (int k = 0; k < used; ++k)
                    out.boneInfo[std::size_t(in.bone[std::size_t(k)])].skinned = true;
                mesh.influences.push_back(in);
            }
            if (offSum > 0)
                out.warnings.push_back(cat("mesh ", inQuotes(mesh.name), ": the blend weights of ", offSum, " of ", n,
                                           " vertices do not sum to 1 (vertex ", example, ": ", exampleSum,
                                           "); renormalised"));
            if (mesh.unweightedVertices > 0)
                out.warnings.push_back(cat("mesh ", inQuotes(mesh.name), ": ", mesh.unweightedVertices,
                                           " vertices have no blend weight; they stay where they are"));
        }
        out.meshes.push_back(std::move(mesh));
    }
    if (normalsExpected == 0 && !out.meshes.empty())
        out.warnings.push_back("the file has no normals; computed from the faces");
    else if (repairedNormals > 0)
        out.warnings.push_back(cat(repairedNormals, " normals were zero or not finite; computed from the faces"));
    return true;
}

bool buildAnimations(const File& file, const Conversion& cv, const std::vector<double>& sigma,
                     import::ImportedScene& out, std::string& error)
{
    std::vector<std::uint32_t> start(file.poses.size());
    std::uint32_t next = 0;
    for (std::size_t i = 0; i < file.poses.size(); ++i) {
        start[i] = next;
        next += std::uint32_t(std::popcount(file.poses[i].mask));
    }
    for (std::size_t a = 0; a < file.anims.size(); ++a) {
        const Anim& anim = file.anims[a];
        import::AnimationClip clip;
        clip.name = anim.name.empty() ? cat("animation", a) : anim.name;
        if (anim.frameCount == 0) {
            out.warnings.push_back(cat("animation ", inQuotes(clip.name), " has no frames; dropped"));
            continue;
        }
        double fps = anim.framerate;
        if (!(fps > 0.) || !std::isfinite(fps) || !std::isfinite(float(double(anim.frameCount) / fps))) {
            out.warnings.push_back(cat("animation ", inQuotes(clip.name), ": frame rate ", anim.framerate,
                                       " is unusable; ", kDefaultFramerate, " frames per second assumed"));
            fps = kDefaultFramerate;
        }
        clip.ticksPerSecond = fps;
        clip.duration = float(double(anim.frameCount - 1) / fps);
        for (std::size_t i = 0; i < file.joints.size(); ++i) {
            const Pose& pose = file.poses[i];
            const std::int32_t parent = file.joints[i].parent;
            const double parentSigma = parent >= 0 ? sigma[std::size_t(parent)] : 1.;
            import::BoneChannel channel;
            channel.bone = std::int32_t(i);
            const std::uint32_t frames = pose.mask != 0 ? anim.frameCount : 1;
            for (std::uint32_t k = 0; k < frames; ++k) {
                const std::uint64_t frame = std::uint64_t(anim.firstFrame) + k;
                const std::uint16_t* data = file.frames.data() + frame * file.frameChannels + start[i];
                float v[kChannels];
                for (int c = 0; c < kChannels; ++c) {
                    const auto u = std::size_t(c);
                    double value = double(pose.offset[u]);
                    if (pose.mask & (1u << c))
                        value += double(*data++) * double(pose.scale[u]);
                    v[c] = float(value);
                    if (!std::isfinite(v[c])) {
                        error = cat("animation ", inQuotes(clip.name), " frame ", k, " joint ", i, ' ',
                                    inQuotes(file.joints[i].name), ": channel ", c, " is not finite");
                        return false;
                    }
                }
                const Quat q{v[3], v[4], v[5], v[6]};
                if (!(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w > 1e-12f)) {
                    error = cat("animation ", inQuotes(clip.name), " frame ", k, " joint ", i, ' ',
                                inQuotes(file.joints[i].name), ": rotation is zero");
                    return false;
                }
                const auto time = float(double(k) / fps);
                const Vec3 position = cv.point(Vec3{v[0], v[1], v[2]}) * float(parentSigma);
                if (!isFinite(position)) {
                    error = cat("animation ", inQuotes(clip.name), " frame ", k, " joint ", i, ' ',
                                inQuotes(file.joints[i].name), ": translation is not finite at scale ", cv.scale);
                    return false;
                }
                if (k == 0 || (pose.mask & 0x7u))
                    channel.positions.push_back({time, position});
                if (k == 0 || (pose.mask & 0x78u))
                    channel.rotations.push_back({time, cv.rotate(normalize(q))});
                if (k == 0 || (pose.mask & 0x380u))
                    channel.scales.push_back({time, cv.scaleAxes({v[7], v[8], v[9]}) * float(parentSigma / sigma[i])});
            }
            clip.channels.push_back(std::move(channel));
        }
        out.animations.push_back(std::move(clip));
    }
    return true;
}

} // namespace

bool buildScene(const File& file, const SceneOptions& options, import::ImportedScene& out, std::string& error)
{
    auto progress = [&](float f, const char* stage) {
        if (options.progress)
            options.progress(f, stage);
    };
    if (std::none_of(file.meshes.begin(), file.meshes.end(), usableMesh)) {
        error = "the file contains no mesh with triangles";
        return false;
    }
    out.warnings = file.warnings;
    Conversion cv;
    if (!setUpFrame(file, options, out, cv, error))
        return false;
    progress(0.f, "skeleton");
    std::vector<double> sigma;
    if (!buildSkeleton(file, cv, out, sigma, error))
        return false;
    progress(0.2f, "converting meshes");
    if (!buildMeshes(file, cv, options.folder, out, error))
        return false;
    if (options.animations && !file.anims.empty()) {
        progress(0.6f, "animations");
        if (!buildAnimations(file, cv, sigma, out, error))
            return false;
    }
    progress(1.f, "done");
    return true;
}

} // namespace marionette::plugins::iqm
