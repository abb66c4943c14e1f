// Writing baked clips: binary glTF 2.0 and the clip JSON (ClipFiles.h, docs/formats.md).
#include "marionette/editor/preview/ClipFiles.h"

#include "marionette/project/AtomicFile.h"
#include "marionette/project/JsonNumbers.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace marionette::editor {

namespace {

QString str(const std::string& s) { return QString::fromStdString(s); }


QJsonArray vec(Vec3 v) { return {project::shortestDouble(v.x), project::shortestDouble(v.y), project::shortestDouble(v.z)}; }
QJsonArray quat(Quat q) { return {project::shortestDouble(q.x), project::shortestDouble(q.y), project::shortestDouble(q.z), project::shortestDouble(q.w)}; }

// glTF constants.
constexpr int kFloat = 5126, kUnsignedShort = 5123, kUnsignedInt = 5125;
constexpr int kArrayBuffer = 34962, kElementArrayBuffer = 34963;

/// The BIN chunk with its buffer views and accessors.
class BinBuilder {
public:
    QJsonArray views, accessors;

    /// Appends `count` elements of `type` (each `components` values of `componentType`) as a view of their
    /// own, 4-byte aligned; returns the accessor's index.
    template <typename T>
    int add(const std::vector<T>& values, int componentType, const char* type, std::size_t count, int target,
            const QJsonArray& min = {}, const QJsonArray& max = {})
    {
        while (mData.size() % 4)
            mData.append('\0');
        QJsonObject view{{QStringLiteral("buffer"), 0}, {QStringLiteral("byteOffset"), qint64(mData.size())},
                         {QStringLiteral("byteLength"), qint64(values.size() * sizeof(T))}};
        if (target)
            view.insert(QStringLiteral("target"), target);
        mData.append(reinterpret_cast<const char*>(values.data()), qsizetype(values.size() * sizeof(T)));
        views.append(view);
        QJsonObject accessor{{QStringLiteral("bufferView"), views.size() - 1},
                             {QStringLiteral("componentType"), componentType},
                             {QStringLiteral("count"), qint64(count)},
                             {QStringLiteral("type"), QLatin1String(type)}};
        if (!min.isEmpty())
            accessor.insert(QStringLiteral("min"), min);
        if (!max.isEmpty())
            accessor.insert(QStringLiteral("max"), max);
        accessors.append(accessor);
        return int(accessors.size() - 1);
    }
    const QByteArray& data() const { return mData; }

private:
    QByteArray mData;
};

std::vector<float> flatten(const std::vector<Vec3>& v)
{
    std::vector<float> out;
    out.reserve(v.size() * 3);
    for (const Vec3& p : v)
        out.insert(out.end(), {p.x, p.y, p.z});
    return out;
}

/// One mesh as a glTF primitive; fills `skinned` with whether it carries joints.
QJsonObject meshPrimitive(const import::ImportedMesh& m, BinBuilder& bin, bool& skinned)
{
    QJsonObject attributes;
    Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
    for (const Vec3& p : m.positions) {
        lo = vmin(lo, p);
        hi = vmax(hi, p);
    }
    const std::size_t n = m.positions.size();
    attributes.insert(QStringLiteral("POSITION"), bin.add(flatten(m.positions), kFloat, "VEC3", n, kArrayBuffer,
                                                          vec(lo), vec(hi)));
    if (m.normals.size() == n)
        attributes.insert(QStringLiteral("NORMAL"), bin.add(flatten(m.normals), kFloat, "VEC3", n, kArrayBuffer));
    if (m.uvs.size() == n) {
        std::vector<float> uv;
        uv.reserve(2 * n);
        for (const import::TexCoord& t : m.uvs)
            uv.insert(uv.end(), {t.u, 1.f - t.v}); // glTF's v runs down the image
        attributes.insert(QStringLiteral("TEXCOORD_0"), bin.add(uv, kFloat, "VEC2", n, kArrayBuffer));
    }
    skinned = m.isSkinned() || m.rigidBone != rig::kNone;
    if (skinned) {
        std::vector<std::uint16_t> joints(4 * n, 0);
        std::vector<float> weights(4 * n, 0.f);
        for (std::size_t v = 0; v < n; ++v) {
            if (!m.isSkinned()) {
                joints[4 * v] = std::uint16_t(m.rigidBone);
                weights[4 * v] = 1.f;
                continue;
            }
            const import::VertexInfluences& in = m.influences[v];
            float sum = 0.f;
            for (int k = 0; k < import::kMaxInfluences; ++k)
                if (in.bone[std::size_t(k)] >= 0)
                    sum += in.weight[std::size_t(k)];
            for (int k = 0; k < import::kMaxInfluences && sum > 0.f; ++k)
                if (in.bone[std::size_t(k)] >= 0) {
                    joints[4 * v + std::size_t(k)] = std::uint16_t(in.bone[std::size_t(k)]);
                    weights[4 * v + std::size_t(k)] = in.weight[std::size_t(k)] / sum;
                }
        }
        attributes.insert(QStringLiteral("JOINTS_0"), bin.add(joints, kUnsignedShort, "VEC4", n, kArrayBuffer));
        attributes.insert(QStringLiteral("WEIGHTS_0"), bin.add(weights, kFloat, "VEC4", n, kArrayBuffer));
    }
    QJsonObject primitive{{QStringLiteral("attributes"), attributes}, {QStringLiteral("mode"), 4}};
    primitive.insert(QStringLiteral("indices"),
                     bin.add(m.indices, kUnsignedInt, "SCALAR", m.indices.size(), kElementArrayBuffer));
    if (m.material >= 0)
        primitive.insert(QStringLiteral("material"), m.material);
    return primitive;
}

void appendU32(QByteArray& out, std::uint32_t v)
{
    for (int shift = 0; shift < 32; shift += 8)
        out.append(char((v >> shift) & 0xFF));
}

} // namespace

QByteArray glbBytes(const import::ImportedScene& mesh, const BakedClip& clip, QString& error)
{
    const std::size_t bones = mesh.skeleton.size();
    if (clip.boneCount() != bones || clip.keys.size() != clip.frameCount() * bones || clip.frameCount() == 0) {
        error = QStringLiteral("the clip is not on the mesh's skeleton");
        return {};
    }
    if (bones > std::numeric_limits<std::uint16_t>::max()) {
        error = QStringLiteral("%1 bones: glTF joints are written as 16-bit indices").arg(bones);
        return {};
    }
    BinBuilder bin;
    QJsonArray nodes, roots;
    // Bones: nodes 0..bones-1 at their bind pose.
    std::vector<QJsonArray> children(bones);
    for (std::size_t b = 0; b < bones; ++b)
        if (const std::int32_t p = mesh.skeleton[b].parent; p >= 0)
            children[std::size_t(p)].append(qint64(b));
        else
            roots.append(qint64(b));
    for (std::size_t b = 0; b < bones; ++b) {
        const BoneKey bind = decomposeAffine(mesh.skeleton[b].bindLocal);
        QJsonObject node{{QStringLiteral("name"), str(mesh.skeleton[b].name)},
                         {QStringLiteral("translation"), vec(bind.translation)},
                         {QStringLiteral("rotation"), quat(bind.rotation)},
                         {QStringLiteral("scale"), vec(bind.scale)}};
        if (!children[b].isEmpty())
            node.insert(QStringLiteral("children"), children[b]);
        nodes.append(node);
    }
    // Meshes: one node each at the scene root (a skinned mesh's node transform is ignored by glTF).
    QJsonArray meshes;
    for (const import::ImportedMesh& m : mesh.meshes) {
        bool skinned = false;
        const QJsonObject primitive = meshPrimitive(m, bin, skinned);
        meshes.append(QJsonObject{{QStringLiteral("name"), str(m.name)},
                                  {QStringLiteral("primitives"), QJsonArray{primitive}}});
        // A node named like a bone would be taken for it by a reader matching joints by name.
        std::string name = m.nodeName.empty() ? m.name : m.nodeName;
        while (mesh.findBone(name) != rig::kNone)
            name += "_mesh";
        QJsonObject node{{QStringLiteral("name"), str(name)},
                         {QStringLiteral("mesh"), meshes.size() - 1}};
        if (skinned)
            node.insert(QStringLiteral("skin"), 0);
        roots.append(nodes.size());
        nodes.append(node);
    }
    // The skin: every bone a joint, joint i = node i, with the skeleton's inverse binds.
    std::vector<float> inverseBinds;
    QJsonArray joints;
    for (std::size_t b = 0; b < bones; ++b) {
        joints.append(qint64(b));
        inverseBinds.insert(inverseBinds.end(), std::begin(mesh.skeleton[b].inverseBind.m),
                            std::end(mesh.skeleton[b].inverseBind.m));
    }
    const int ibm = bin.add(inverseBinds, kFloat, "MAT4", bones, 0);
    const QJsonArray skins{QJsonObject{{QStringLiteral("joints"), joints}, {QStringLiteral("inverseBindMatrices"), ibm}}};
    // The animation: one shared time accessor, three samplers per bone.
    const std::size_t frames = clip.frameCount();
    const int input = bin.add(clip.times, kFloat, "SCALAR", frames, 0, QJsonArray{project::shortestDouble(clip.times.front())},
                              QJsonArray{project::shortestDouble(clip.times.back())});
    QJsonArray samplers, channels;
    for (std::size_t b = 0; b < bones; ++b) {
        std::vector<float> t, r, s;
        for (std::size_t f = 0; f < frames; ++f) {
            const BoneKey& k = clip.key(f, b);
            t.insert(t.end(), {k.translation.x, k.translation.y, k.translation.z});
            r.insert(r.end(), {k.rotation.x, k.rotation.y, k.rotation.z, k.rotation.w});
            s.insert(s.end(), {k.scale.x, k.scale.y, k.scale.z});
        }
        const std::pair<const char*, int> outputs[3] = {{"translation", bin.add(t, kFloat, "VEC3", frames, 0)},
                                                        {"rotation", bin.add(r, kFloat, "VEC4", frames, 0)},
                                                        {"scale", bin.add(s, kFloat, "VEC3", frames, 0)}};
        for (const auto& [path, output] : outputs) {
            samplers.append(QJsonObject{{QStringLiteral("input"), input}, {QStringLiteral("output"), output},
                                        {QStringLiteral("interpolation"), QStringLiteral("LINEAR")}});
            channels.append(QJsonObject{
                {QStringLiteral("sampler"), samplers.size() - 1},
                {QStringLiteral("target"), QJsonObject{{QStringLiteral("node"), qint64(b)},
                                                       {QStringLiteral("path"), QLatin1String(path)}}}});
        }
    }
    QJsonArray materials;
    for (const import::ImportedMaterial& m : mesh.materials) {
        QJsonArray colour;
        for (float c : m.baseColor)
            colour.append(project::shortestDouble(c));
        materials.append(QJsonObject{{QStringLiteral("name"), str(m.name)},
                                     {QStringLiteral("pbrMetallicRoughness"),
                                      QJsonObject{{QStringLiteral("baseColorFactor"), colour},
                                                  {QStringLiteral("metallicFactor"), 0}}}});
    }
    QJsonObject gltf{
        {QStringLiteral("asset"), QJsonObject{{QStringLiteral("version"), QStringLiteral("2.0")},
                                              {QStringLiteral("generator"), QStringLiteral("Marionette bake")}}},
        {QStringLiteral("scene"), 0},
        {QStringLiteral("scenes"), QJsonArray{QJsonObject{{QStringLiteral("nodes"), roots}}}},
        {QStringLiteral("nodes"), nodes},
        {QStringLiteral("meshes"), meshes},
        {QStringLiteral("skins"), skins},
        {QStringLiteral("animations"), QJsonArray{QJsonObject{{QStringLiteral("name"), str(clip.name)},
                                                              {QStringLiteral("samplers"), samplers},
                                                              {QStringLiteral("channels"), channels}}}},
        {QStringLiteral("bufferViews"), bin.views},
        {QStringLiteral("accessors"), bin.accessors},
        {QStringLiteral("buffers"), QJsonArray{QJsonObject{{QStringLiteral("byteLength"), qint64(bin.data().size())}}}},
    };
    if (!materials.isEmpty())
        gltf.insert(QStringLiteral("materials"), materials);

    QByteArray json = QJsonDocument(gltf).toJson(QJsonDocument::Compact);
    while (json.size() % 4)
        json.append(' ');
    QByteArray data = bin.data();
    while (data.size() % 4)
        data.append('\0');
    QByteArray glb;
    appendU32(glb, 0x46546C67); // "glTF"
    appendU32(glb, 2);
    appendU32(glb, std::uint32_t(12 + 8 + json.size() + 8 + data.size()));
    appendU32(glb, std::uint32_t(json.size()));
    appendU32(glb, 0x4E4F534A); // "JSON"
    glb.append(json);
    appendU32(glb, std::uint32_t(data.size()));
    appendU32(glb, 0x004E4942); // "BIN\0"
    glb.append(data);
    return glb;
}

QByteArray clipJsonBytes(const BakedClip& clip)
{
    QJsonArray times, steps, bones;
    for (std::size_t f = 0; f < clip.frameCount(); ++f) {
        times.append(project::shortestDouble(clip.times[f]));
        steps.append(qint64(clip.steps[f]));
    }
    for (std::size_t b = 0; b < clip.boneCount(); ++b) {
        QJsonArray t, r, s;
        for (std::size_t f = 0; f < clip.frameCount(); ++f) {
            const BoneKey& k = clip.key(f, b);
            t.append(vec(k.translation));
            r.append(quat(k.rotation));
            s.append(vec(k.scale));
        }
        const std::int32_t p = clip.parents[b];
        bones.append(QJsonObject{{QStringLiteral("index"), qint64(b)},
                                 {QStringLiteral("name"), str(clip.boneNames[b])},
                                 {QStringLiteral("parent"), p >= 0 ? QJsonValue(p) : QJsonValue()},
                                 {QStringLiteral("translation"), t},
                                 {QStringLiteral("rotation"), r},
                                 {QStringLiteral("scale"), s}});
    }
    const QJsonObject units{{QStringLiteral("length"), QStringLiteral("m")}, {QStringLiteral("time"), QStringLiteral("s")},
                            {QStringLiteral("up"), QStringLiteral("+y")}, {QStringLiteral("handedness"), QStringLiteral("right")},
                            {QStringLiteral("quaternions"), QStringLiteral("xyzw")}};
    const QJsonObject doc{{QStringLiteral("format"), QLatin1String(kClipJsonFormat)},
                          {QStringLiteral("version"), kClipJsonVersion},
                          {QStringLiteral("units"), units},
                          {QStringLiteral("name"), str(clip.name)},
                          {QStringLiteral("frameRate"), project::shortestDouble(clip.frameRate)},
                          {QStringLiteral("frameCount"), qint64(clip.frameCount())},
                          {QStringLiteral("times"), times},
                          {QStringLiteral("steps"), steps},
                          {QStringLiteral("bones"), bones}};
    return QJsonDocument(doc).toJson(QJsonDocument::Compact);
}

bool clipFormatForPath(const QString& path, ClipFormat& out)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("glb"))
        out = ClipFormat::Glb;
    else if (suffix == QLatin1String("json"))
        out = ClipFormat::Json;
    else
        return false;
    return true;
}

bool writeBakedClip(const QString& path, ClipFormat format, const import::ImportedScene& mesh, const BakedClip& clip,
                    QString& error)
{
    QString why;
    const QByteArray bytes = format == ClipFormat::Glb ? glbBytes(mesh, clip, why) : clipJsonBytes(clip);
    if (bytes.isEmpty()) {
        error = QStringLiteral("%1: not written: %2").arg(path, why);
        return false;
    }
    return project::writeFileAtomically(path, bytes, error);
}

} // namespace marionette::editor
