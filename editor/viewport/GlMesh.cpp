#include "viewport/GlMesh.h"

#include <QImage>
#include <QOpenGLShaderProgram>

namespace marionette::viewport {

namespace {

constexpr int kFloatsPerVertex = 16; // position 3, normal 3, uv 2, bones 4, weights 4

} // namespace

GlMesh::GlMesh(QOpenGLFunctions_3_3_Core* gl) : mGl(gl)
{
    mGl->glGenBuffers(1, &mPaletteBuffer);
    mGl->glGenTextures(1, &mPaletteTexture);
}

GlMesh::~GlMesh()
{
    release();
    mGl->glDeleteTextures(1, &mPaletteTexture);
    mGl->glDeleteBuffers(1, &mPaletteBuffer);
}

void GlMesh::release()
{
    for (Part& p : mParts) {
        mGl->glDeleteVertexArrays(1, &p.vao);
        mGl->glDeleteBuffers(1, &p.vbo);
        mGl->glDeleteBuffers(1, &p.ibo);
    }
    mParts.clear();
    for (GLuint t : mTextures)
        if (t)
            mGl->glDeleteTextures(1, &t);
    mTextures.clear();
    mColours.clear();
    mSkeletonSize = 0;
}

void GlMesh::upload(const import::ImportedScene* scene)
{
    release();
    if (!scene)
        return;
    mSkeletonSize = scene->skeleton.size();
    for (const import::ImportedMaterial& m : scene->materials) {
        mColours.push_back(m.baseColor);
        GLuint texture = 0;
        if (!m.baseColorTexturePath.empty() && !m.textureEmbedded) {
            QImage image(QString::fromStdString(m.baseColorTexturePath));
            if (!image.isNull()) {
                // v = 0 is the bottom row in the mesh's UVs (OpenGL convention); QImage starts at the top
                image = image.convertToFormat(QImage::Format_RGBA8888).mirrored();
                mGl->glGenTextures(1, &texture);
                mGl->glBindTexture(GL_TEXTURE_2D, texture);
                mGl->glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, image.width(), image.height(), 0, GL_RGBA,
                                  GL_UNSIGNED_BYTE, image.constBits());
                mGl->glGenerateMipmap(GL_TEXTURE_2D);
                mGl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
                mGl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
                mGl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
                mGl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
            }
        }
        mTextures.push_back(texture);
    }
    std::vector<float> vertices;
    for (const import::ImportedMesh& m : scene->meshes) {
        const std::size_t n = m.positions.size();
        if (n == 0 || m.indices.empty())
            continue;
        vertices.assign(n * kFloatsPerVertex, 0.f);
        for (std::size_t v = 0; v < n; ++v) {
            float* o = &vertices[v * kFloatsPerVertex];
            const Vec3 p = m.positions[v];
            const Vec3 nn = v < m.normals.size() ? m.normals[v] : Vec3{0, 1, 0};
            o[0] = p.x, o[1] = p.y, o[2] = p.z;
            o[3] = nn.x, o[4] = nn.y, o[5] = nn.z;
            if (v < m.uvs.size())
                o[6] = m.uvs[v].u, o[7] = m.uvs[v].v;
            for (int k = 0; k < 4; ++k) {
                o[8 + k] = -1.f;
                o[12 + k] = 0.f;
            }
            if (m.rigidBone != rig::kNone) {
                o[8] = float(m.rigidBone);
                o[12] = 1.f;
            } else if (v < m.influences.size()) {
                for (std::size_t k = 0; k < 4; ++k) {
                    o[8 + k] = float(m.influences[v].bone[k]);
                    o[12 + k] = m.influences[v].weight[k];
                }
            }
        }
        Part part;
        part.material = m.material;
        part.indexCount = GLsizei(m.indices.size());
        mGl->glGenVertexArrays(1, &part.vao);
        mGl->glGenBuffers(1, &part.vbo);
        mGl->glGenBuffers(1, &part.ibo);
        mGl->glBindVertexArray(part.vao);
        mGl->glBindBuffer(GL_ARRAY_BUFFER, part.vbo);
        mGl->glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(vertices.size() * sizeof(float)), vertices.data(), GL_STATIC_DRAW);
        mGl->glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, part.ibo);
        mGl->glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(m.indices.size() * sizeof(std::uint32_t)),
                          m.indices.data(), GL_STATIC_DRAW);
        const GLsizei stride = kFloatsPerVertex * sizeof(float);
        const int sizes[5] = {3, 3, 2, 4, 4};
        std::size_t offset = 0;
        for (GLuint a = 0; a < 5; ++a) {
            mGl->glEnableVertexAttribArray(a);
            mGl->glVertexAttribPointer(a, sizes[a], GL_FLOAT, GL_FALSE, stride,
                                       reinterpret_cast<const void*>(offset * sizeof(float)));
            offset += std::size_t(sizes[a]);
        }
        mGl->glBindVertexArray(0);
        mParts.push_back(part);
    }
}

void GlMesh::setPalette(const std::vector<Mat4>& palette)
{
    if (palette.empty()) {
        mPaletteBones = 0;
        return;
    }
    const std::size_t bones = std::max(palette.size(), mSkeletonSize);
    std::vector<float> data(bones * 16);
    for (std::size_t i = 0; i < bones; ++i) {
        const Mat4 m = i < palette.size() ? palette[i] : Mat4{};
        std::copy(std::begin(m.m), std::end(m.m), data.begin() + std::ptrdiff_t(i * 16));
    }
    mGl->glBindBuffer(GL_TEXTURE_BUFFER, mPaletteBuffer);
    mGl->glBufferData(GL_TEXTURE_BUFFER, GLsizeiptr(data.size() * sizeof(float)), data.data(), GL_DYNAMIC_DRAW);
    mGl->glBindTexture(GL_TEXTURE_BUFFER, mPaletteTexture);
    mGl->glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, mPaletteBuffer);
    mGl->glBindBuffer(GL_TEXTURE_BUFFER, 0);
    mPaletteBones = int(bones);
}

void GlMesh::draw(QOpenGLShaderProgram& program)
{
    mGl->glActiveTexture(GL_TEXTURE1);
    mGl->glBindTexture(GL_TEXTURE_BUFFER, mPaletteTexture);
    program.setUniformValue("uPalette", 1);
    program.setUniformValue("uSkinned", mPaletteBones > 0);
    program.setUniformValue("uBoneCount", mPaletteBones);
    program.setUniformValue("uTexture", 0);
    mGl->glActiveTexture(GL_TEXTURE0);
    for (const Part& p : mParts) {
        std::array<float, 4> c{0.75f, 0.72f, 0.68f, 1.f};
        GLuint texture = 0;
        if (p.material >= 0 && std::size_t(p.material) < mColours.size()) {
            c = mColours[std::size_t(p.material)];
            texture = mTextures[std::size_t(p.material)];
        }
        program.setUniformValue("uBaseColour", c[0], c[1], c[2], c[3]);
        program.setUniformValue("uTextured", texture != 0);
        mGl->glBindTexture(GL_TEXTURE_2D, texture);
        mGl->glBindVertexArray(p.vao);
        mGl->glDrawElements(GL_TRIANGLES, p.indexCount, GL_UNSIGNED_INT, nullptr);
    }
    mGl->glBindVertexArray(0);
    mGl->glBindTexture(GL_TEXTURE_2D, 0);
}

} // namespace marionette::viewport
