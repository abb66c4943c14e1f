// The only source file that includes Assimp (STYLE.md, convention 9): reads a file and copies the aiScene
// into a RawScene. Longer than most sources because everything touching Assimp types lives here.
#include "AssimpReader.h"

#include "Text.h"

#include <assimp/DefaultIOSystem.h>
#include <assimp/IOStream.hpp>
#include <assimp/Importer.hpp>
#include <assimp/ProgressHandler.hpp>
#include <assimp/commonMetaData.h>
#include <assimp/config.h>
#include <assimp/importerdesc.h>
#include <assimp/material.h>
#include <assimp/metadata.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <filesystem>
#include <unordered_set>

namespace marionette::import::detail {
namespace {

/// A file stream that stops delivering bytes once the import is cancelled, so a loader reading in pieces
/// fails at its next read instead of finishing the file.
class GuardedStream final : public Assimp::IOStream {
public:
    GuardedStream(Assimp::IOStream* inner, std::stop_token stop) : mInner(inner), mStop(std::move(stop)) {}
    ~GuardedStream() override { delete mInner; }
    size_t Read(void* buffer, size_t size, size_t count) override
    {
        return mStop.stop_requested() ? 0 : mInner->Read(buffer, size, count);
    }
    size_t Write(const void*, size_t, size_t) override { return 0; }
    aiReturn Seek(size_t offset, aiOrigin origin) override
    {
        return mStop.stop_requested() ? aiReturn_FAILURE : mInner->Seek(offset, origin);
    }
    size_t Tell() const override { return mInner->Tell(); }
    size_t FileSize() const override { return mInner->FileSize(); }
    void Flush() override {}

private:
    Assimp::IOStream* mInner;
    std::stop_token mStop;
};

/// Assimp's default file system, read-only, refusing anything that is not a regular file: a glTF buffer
/// URI naming a FIFO or a device must not block or read forever.
class GuardedIOSystem final : public Assimp::DefaultIOSystem {
public:
    explicit GuardedIOSystem(std::stop_token stop) : mStop(std::move(stop)) {}
    Assimp::IOStream* Open(const char* file, const char* mode) override
    {
        if (mStop.stop_requested() || file == nullptr || mode == nullptr || std::strpbrk(mode, "wa+") != nullptr)
            return nullptr;
        std::error_code ec;
        if (!std::filesystem::is_regular_file(std::filesystem::path(file), ec))
            return nullptr;
        Assimp::IOStream* inner = DefaultIOSystem::Open(file, mode);
        return inner ? new GuardedStream(inner, mStop) : nullptr;
    }
    void Close(Assimp::IOStream* stream) override { delete stream; }
    /// DefaultIOSystem::Exists() fopen()s the file, which blocks on a FIFO.
    bool Exists(const char* file) const override
    {
        std::error_code ec;
        return file != nullptr && std::filesystem::is_regular_file(std::filesystem::path(file), ec);
    }

private:
    std::stop_token mStop;
};

class ProgressForwarder final : public Assimp::ProgressHandler {
public:
    ProgressForwarder(const std::function<void(float)>& callback, std::stop_token stop)
        : mCallback(callback), mStop(std::move(stop))
    {
    }
    bool Update(float percentage) override
    {
        if (mCallback && percentage >= 0.f && std::isfinite(percentage)) {
            try {
                mCallback(std::clamp(percentage, 0.f, 1.f));
            } catch (...) {
                // A throwing callback must not unwind through Assimp; the import carries on.
            }
        }
        return !mStop.stop_requested(); // Assimp 5.2 mostly ignores this; GuardedStream does the real work
    }

private:
    const std::function<void(float)>& mCallback;
    std::stop_token mStop;
};

Affine toAffine(const aiMatrix4x4& m)
{
    Affine a;
    const ai_real* rows[3] = {&m.a1, &m.b1, &m.c1};
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c)
            a.l[r][c] = rows[r][c];
        a.t[r] = rows[r][3];
    }
    return a;
}

/// Bounded by the buffer: without Assimp's validation (lenient import) `length` is not checked.
std::string str(const aiString& s)
{
    return std::string(s.data, std::min<std::size_t>(s.length, sizeof(s.data) - 1));
}

/// A numeric metadata entry whatever its stored type (FBX writes UnitScaleFactor as float or double).
bool metaNumber(const aiMetadata* meta, const char* key, double& out)
{
    if (meta == nullptr)
        return false;
    for (unsigned i = 0; i < meta->mNumProperties; ++i) {
        if (std::strcmp(meta->mKeys[i].C_Str(), key) != 0 || meta->mValues[i].mData == nullptr)
            continue;
        const void* d = meta->mValues[i].mData;
        switch (meta->mValues[i].mType) {
        case AI_BOOL: out = *static_cast<const bool*>(d) ? 1. : 0.; return true;
        case AI_INT32: out = *static_cast<const int32_t*>(d); return true;
        case AI_UINT64: out = double(*static_cast<const uint64_t*>(d)); return true;
        case AI_FLOAT: out = *static_cast<const float*>(d); return true;
        case AI_DOUBLE: out = *static_cast<const double*>(d); return true;
        default: return false;
        }
    }
    return false;
}

std::string metaString(const aiMetadata* meta, const char* key)
{
    aiString s;
    return meta != nullptr && meta->Get(key, s) ? str(s) : std::string();
}

/// How Assimp 5's ValidateDataStructure step starts the message of the error it throws.
constexpr const char* kValidationFailed = "Validation failed";

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

/// The axis conversions Assimp's loaders bake into the root (Collada's up_axis, MD5/3DS/ASE Z-up).
const Affine& axisRotation(UpAxis axis)
{
    static const Affine y{};
    static const Affine z{{{1, 0, 0}, {0, 0, 1}, {0, -1, 0}}, {0, 0, 0}};
    static const Affine x{{{0, -1, 0}, {1, 0, 0}, {0, 0, 1}}, {0, 0, 0}};
    return axis == UpAxis::Z ? z : (axis == UpAxis::X ? x : y);
}

/// When the root node is exactly s · rotation(axis) (no translation), returns true with s and axis.
bool decomposeRootConversion(const Affine& root, double& scale, UpAxis& axis)
{
    const double s = root.uniformScale();
    if (!(s > 0.) || !std::isfinite(s) || root.det() < 0.)
        return false;
    for (UpAxis a : {UpAxis::Y, UpAxis::Z, UpAxis::X}) {
        if ((axisRotation(a).scaledLinear(s)).distance(root, s) < 1e-5) {
            scale = s;
            axis = a;
            return true;
        }
    }
    return false;
}

constexpr double kInchMetres = 0.0254;

RawFrame detectFrame(const aiScene& scene, const std::string& path, const Assimp::Importer& importer,
                     const Affine& rootLocal)
{
    RawFrame f;
    f.format = metaString(scene.mMetaData, AI_METADATA_SOURCE_FORMAT);
    if (f.format.empty()) {
        const std::string ext = lowerExtension(path);
        const size_t index = ext.empty() ? size_t(-1) : importer.GetImporterIndex(ext.c_str());
        const aiImporterDesc* desc = index == size_t(-1) ? nullptr : importer.GetImporterInfo(index);
        f.format = desc != nullptr && desc->mName != nullptr ? desc->mName : (ext.empty() ? "unknown" : ext);
    }
    const std::string& fmt = f.format;
    if (contains(fmt, "Autodesk FBX")) {
        double unit = 0., up = 1., upSign = 1.;
        if (metaNumber(scene.mMetaData, "UnitScaleFactor", unit) && std::isfinite(unit) && unit > 0.) {
            f.unitMetres = unit * 0.01; // FBX units are centimetres times UnitScaleFactor
            f.unitKnown = true;
        }
        metaNumber(scene.mMetaData, "UpAxis", up);
        metaNumber(scene.mMetaData, "UpAxisSign", upSign);
        const int axis = int(up);
        if (upSign < 0. || axis < 0 || axis > 2) {
            f.notes.push_back(cat("FBX declares an up axis (UpAxis ", axis, ", sign ", int(upSign),
                                  ") the import cannot convert; taken as +Y"));
        } else {
            f.up = axis == 2 ? UpAxis::Z : (axis == 0 ? UpAxis::X : UpAxis::Y);
        }
    } else if (contains(fmt, "glTF")) {
        f.unitKnown = true; // glTF is metres and +Y up by definition
    } else if (contains(fmt, "Blender")) {
        f.up = UpAxis::Z; // Assimp 5.2 leaves Blender's Z-up frame as it is; scene unit settings are not read
    } else if (contains(fmt, "Valve SMD")) {
        f.up = UpAxis::Z; // Source engine files are Z-up; Assimp leaves them so
    } else if (contains(fmt, "Collada") || contains(fmt, "MD5") || contains(fmt, "3DS") ||
               contains(fmt, "ASE") || contains(fmt, "DXF") || contains(fmt, "Inter-Quake") ||
               contains(fmt, "Wolfenstein")) {
        // These loaders multiply their unit scale (Collada <unit meter>) and Z-up (or X-up) rotation into
        // the root node they create. Recognise it so that it can be replaced by an override.
        double s = 1.;
        UpAxis axis = UpAxis::Y;
        if (decomposeRootConversion(rootLocal, s, axis)) {
            f.appliedByAssimp = rootLocal;
            f.up = axis;
            f.unitMetres = s;
            f.unitKnown = contains(fmt, "Collada"); // Collada's unit defaults to one metre
        }
    }
    // The id Software family and Half-Life (Quake MDL, HL1 MDL, MD2, MD3, MDC, MD5) declare no unit; their
    // engines' unit is the inch (a player is 56-74 units tall), so that is the unit of these files.
    if (!f.unitKnown && (contains(fmt, "Quake") || contains(fmt, "Doom 3") || contains(fmt, "Wolfenstein") ||
                         contains(fmt, "Half-Life") || contains(fmt, "MD5"))) {
        f.unitMetres *= kInchMetres;
        f.unitKnown = true;
        f.unitByConvention = true;
    }
    return f;
}

std::string readNodes(const aiScene& scene, const ImportOptions& options, RawScene& out)
{
    struct Pending {
        const aiNode* node;
        int32_t parent;
        int depth;
    };
    std::vector<Pending> stack{{scene.mRootNode, -1, 0}};
    std::unordered_set<const aiNode*> seen;
    while (!stack.empty()) {
        const Pending p = stack.back();
        stack.pop_back();
        if (p.node == nullptr)
            return "the file's node hierarchy has a missing node";
        if (!seen.insert(p.node).second)
            return cat("the file's node hierarchy has a cycle (node ", named(str(p.node->mName)), " is reached twice)");
        if (p.depth > options.maxNodeDepth)
            return cat("the file's node hierarchy is deeper than ", options.maxNodeDepth, " levels");
        if (out.nodes.size() >= options.maxNodes)
            return cat("the file has more than ", options.maxNodes, " nodes");
        RawNode n;
        n.name = str(p.node->mName);
        n.parent = p.parent;
        n.depth = p.depth;
        n.local = toAffine(p.node->mTransformation);
        for (unsigned i = 0; i < p.node->mNumMeshes; ++i) {
            if (p.node->mMeshes == nullptr || p.node->mMeshes[i] >= scene.mNumMeshes)
                return cat("node ", named(n.name), " refers to a mesh that does not exist");
            n.meshes.push_back(p.node->mMeshes[i]);
        }
        out.nodes.push_back(std::move(n));
        const auto self = int32_t(out.nodes.size() - 1);
        if (p.node->mNumChildren > 0 && p.node->mChildren == nullptr)
            return cat("node ", named(out.nodes.back().name), " has missing children");
        for (unsigned i = p.node->mNumChildren; i-- > 0;)
            stack.push_back({p.node->mChildren[i], self, p.depth + 1});
    }
    return {};
}

std::string readMesh(const aiMesh& m, RawMesh& out)
{
    out.name = str(m.mName);
    out.material = m.mMaterialIndex;
    if (m.mVertices == nullptr && m.mNumVertices > 0)
        return cat("mesh ", named(out.name), " has no positions");
    out.positions.resize(m.mNumVertices);
    for (unsigned v = 0; v < m.mNumVertices; ++v)
        out.positions[v] = {m.mVertices[v].x, m.mVertices[v].y, m.mVertices[v].z};
    if (m.mNormals != nullptr) {
        out.normals.resize(m.mNumVertices);
        for (unsigned v = 0; v < m.mNumVertices; ++v)
            out.normals[v] = {m.mNormals[v].x, m.mNormals[v].y, m.mNormals[v].z};
    }
    if (m.mTextureCoords[0] != nullptr) {
        out.uvs.resize(m.mNumVertices);
        for (unsigned v = 0; v < m.mNumVertices; ++v)
            out.uvs[v] = {m.mTextureCoords[0][v].x, m.mTextureCoords[0][v].y};
    }
    if (m.mFaces == nullptr && m.mNumFaces > 0)
        return cat("mesh ", named(out.name), " has no faces");
    out.indices.reserve(size_t(m.mNumFaces) * 3);
    for (unsigned f = 0; f < m.mNumFaces; ++f) {
        const aiFace& face = m.mFaces[f];
        if (face.mNumIndices != 3 || face.mIndices == nullptr) {
            ++out.droppedFaces;
            continue;
        }
        for (unsigned k = 0; k < 3; ++k) {
            if (face.mIndices[k] >= m.mNumVertices)
                return cat("mesh ", named(out.name), " face ", f, ": vertex index ", face.mIndices[k],
                           " out of range (", m.mNumVertices, " vertices)");
            out.indices.push_back(face.mIndices[k]);
        }
    }
    for (unsigned b = 0; b < m.mNumBones; ++b) {
        const aiBone* bone = m.mBones != nullptr ? m.mBones[b] : nullptr;
        if (bone == nullptr)
            return cat("mesh ", named(out.name), " has a missing bone");
        RawBone rb;
        rb.name = str(bone->mName);
        rb.offset = toAffine(bone->mOffsetMatrix);
        rb.weights.reserve(bone->mNumWeights);
        for (unsigned w = 0; w < bone->mNumWeights && bone->mWeights != nullptr; ++w) {
            if (bone->mWeights[w].mVertexId >= m.mNumVertices)
                return cat("mesh ", named(out.name), " bone ", named(rb.name), ": weight for vertex ",
                           bone->mWeights[w].mVertexId, " out of range");
            rb.weights.emplace_back(bone->mWeights[w].mVertexId, bone->mWeights[w].mWeight);
        }
        out.bones.push_back(std::move(rb));
    }
    return {};
}

RawMaterial readMaterial(const aiScene& scene, const aiMaterial& m)
{
    RawMaterial out;
    aiString name;
    if (m.Get(AI_MATKEY_NAME, name) == aiReturn_SUCCESS)
        out.name = str(name);
    aiColor4D c;
    if (m.Get(AI_MATKEY_BASE_COLOR, c) == aiReturn_SUCCESS) {
        out.color = {c.r, c.g, c.b, c.a};
    } else if (m.Get(AI_MATKEY_COLOR_DIFFUSE, c) == aiReturn_SUCCESS) {
        out.color = {c.r, c.g, c.b, c.a};
        float opacity = 1.f;
        // 0 is ignored: some Collada exporters write transparency 0 for opaque materials.
        if (m.Get(AI_MATKEY_OPACITY, opacity) == aiReturn_SUCCESS && opacity > 0.f && opacity < 1.f)
            out.color[3] = opacity;
    }
    aiString tex;
    if (m.GetTexture(aiTextureType_BASE_COLOR, 0, &tex) == aiReturn_SUCCESS ||
        m.GetTexture(aiTextureType_DIFFUSE, 0, &tex) == aiReturn_SUCCESS) {
        out.texture = str(tex);
        const auto embedded = scene.GetEmbeddedTextureAndIndex(tex.C_Str());
        out.embedded = embedded.first != nullptr || (!out.texture.empty() && out.texture[0] == '*');
        out.embeddedIndex = embedded.first != nullptr ? embedded.second : -1;
    }
    return out;
}

void readAnimation(const aiAnimation& a, RawAnimation& out)
{
    out.name = str(a.mName);
    out.duration = a.mDuration;
    out.ticksPerSecond = a.mTicksPerSecond;
    for (unsigned c = 0; c < a.mNumChannels; ++c) {
        const aiNodeAnim* ch = a.mChannels != nullptr ? a.mChannels[c] : nullptr;
        if (ch == nullptr)
            continue;
        RawChannel rc;
        rc.node = str(ch->mNodeName);
        for (unsigned k = 0; k < ch->mNumPositionKeys && ch->mPositionKeys != nullptr; ++k) {
            const auto& key = ch->mPositionKeys[k];
            rc.positions.push_back({key.mTime, {key.mValue.x, key.mValue.y, key.mValue.z}});
        }
        for (unsigned k = 0; k < ch->mNumRotationKeys && ch->mRotationKeys != nullptr; ++k) {
            const auto& key = ch->mRotationKeys[k];
            rc.rotations.push_back({key.mTime, {key.mValue.x, key.mValue.y, key.mValue.z, key.mValue.w}});
        }
        for (unsigned k = 0; k < ch->mNumScalingKeys && ch->mScalingKeys != nullptr; ++k) {
            const auto& key = ch->mScalingKeys[k];
            rc.scales.push_back({key.mTime, {key.mValue.x, key.mValue.y, key.mValue.z}});
        }
        out.channels.push_back(std::move(rc));
    }
}

/// The first vertex whose position is not finite, as the loader delivered it: "mesh 'Body' vertex 5: position
/// is not finite (nan, 2, 0)"; empty when there is none.
std::string findNonFinitePosition(const aiScene& scene)
{
    for (unsigned i = 0; i < scene.mNumMeshes && scene.mMeshes != nullptr; ++i) {
        const aiMesh* m = scene.mMeshes[i];
        if (m == nullptr || m->mVertices == nullptr)
            continue;
        for (unsigned v = 0; v < m->mNumVertices; ++v) {
            const Vec3 p{m->mVertices[v].x, m->mVertices[v].y, m->mVertices[v].z};
            if (!isFinite(p))
                return cat("mesh ", named(str(m->mName).empty() ? cat("mesh", i) : str(m->mName)), " vertex ", v,
                           ": position is not finite ", p);
        }
    }
    return {};
}

ReadOutcome copyScene(const aiScene& scene, const std::string& path, const Assimp::Importer& importer,
                      const ImportOptions& options, const std::stop_token& stop, RawScene& out)
{
    if (scene.mRootNode == nullptr)
        return {ReadOutcome::Kind::Failed, "Assimp returned a scene without a root node"};
    if (std::string e = readNodes(scene, options, out); !e.empty())
        return {ReadOutcome::Kind::Failed, e};
    out.frame = detectFrame(scene, path, importer, out.nodes.front().local);
    out.meshes.resize(scene.mNumMeshes);
    for (unsigned i = 0; i < scene.mNumMeshes; ++i) {
        if (stop.stop_requested())
            return {ReadOutcome::Kind::Cancelled, {}};
        if (scene.mMeshes == nullptr || scene.mMeshes[i] == nullptr)
            return {ReadOutcome::Kind::Failed, cat("mesh ", i, " is missing")};
        if (std::string e = readMesh(*scene.mMeshes[i], out.meshes[i]); !e.empty())
            return {ReadOutcome::Kind::Failed, e};
        if (out.meshes[i].indices.empty())
            ++out.droppedMeshes;
    }
    for (unsigned i = 0; i < scene.mNumMaterials; ++i)
        out.materials.push_back(scene.mMaterials != nullptr && scene.mMaterials[i] != nullptr
                                    ? readMaterial(scene, *scene.mMaterials[i])
                                    : RawMaterial{});
    if (options.animations) {
        for (unsigned i = 0; i < scene.mNumAnimations; ++i) {
            if (scene.mAnimations == nullptr || scene.mAnimations[i] == nullptr)
                continue;
            out.animations.emplace_back();
            readAnimation(*scene.mAnimations[i], out.animations.back());
        }
    }
    return {ReadOutcome::Kind::Ok, {}};
}

} // namespace

ReadOutcome readWithAssimp(const std::string& path, const ImportOptions& options,
                           const std::function<void(float)>& progress, std::stop_token stop, RawScene& out)
{
    try {
        Assimp::Importer importer;
        importer.SetIOHandler(new GuardedIOSystem(stop));                // owned by the importer
        importer.SetProgressHandler(new ProgressForwarder(progress, stop)); // owned by the importer
        importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
        importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, false); // no $AssimpFbx$ helper nodes
        importer.SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true);   // no made-up bone meshes
        importer.SetPropertyBool(AI_CONFIG_IMPORT_MD5_NO_ANIM_AUTOLOAD, !options.animations);
        // Validation (which Assimp runs before anything else) with the loader's output, then the other
        // steps: non-finite positions must be seen before aiProcess_JoinIdenticalVertices, which merges a
        // NaN vertex into another one (Assimp 5.2.5) and would hide it.
        const unsigned steps = aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType |
                               aiProcess_GenSmoothNormals;
        const aiScene* scene = importer.ReadFile(path, aiProcess_ValidateDataStructure);
        if (stop.stop_requested())
            return {ReadOutcome::Kind::Cancelled, {}};
        if (scene == nullptr) {
            std::string why = oneLine(importer.GetErrorString());
            // Lenient import: a file refused by the validation step alone is read again without it; the
            // builders repair or refuse what the validation would have caught.
            if (!options.strict && why.rfind(kValidationFailed, 0) == 0) {
                scene = importer.ReadFile(path, 0u);
                if (stop.stop_requested())
                    return {ReadOutcome::Kind::Cancelled, {}};
                if (scene != nullptr)
                    out.validationFailure = why;
                else
                    why = oneLine(importer.GetErrorString());
            }
            if (scene == nullptr)
                return {ReadOutcome::Kind::Failed,
                        cat("Assimp could not read the file: ", why.empty() ? std::string("no reason given") : why)};
        }
        if (std::string e = findNonFinitePosition(*scene); !e.empty())
            return {ReadOutcome::Kind::Failed, e};
        scene = importer.ApplyPostProcessing(steps);
        if (stop.stop_requested())
            return {ReadOutcome::Kind::Cancelled, {}};
        if (scene == nullptr) {
            const std::string why = oneLine(importer.GetErrorString());
            return {ReadOutcome::Kind::Failed,
                    cat("Assimp could not read the file: ", why.empty() ? std::string("no reason given") : why)};
        }
        return copyScene(*scene, path, importer, options, stop, out);
    } catch (const std::exception& e) {
        return {ReadOutcome::Kind::Failed, cat("Assimp failed: ", oneLine(e.what()))};
    } catch (...) {
        return {ReadOutcome::Kind::Failed, "Assimp failed with an unknown exception"};
    }
}

std::vector<std::string> assimpExtensions()
{
    Assimp::Importer importer;
    std::string list; // "*.3ds;*.obj;..."
    importer.GetExtensionList(list);
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= list.size()) {
        const size_t end = std::min(list.find(';', start), list.size());
        std::string item = list.substr(start, end - start);
        if (item.rfind("*.", 0) == 0)
            out.push_back(toLower(item.substr(1)));
        start = end + 1;
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

} // namespace marionette::import::detail
