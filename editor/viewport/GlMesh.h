// Marionette viewport — the imported mesh on the GPU: one vertex array per ImportedMesh (position,
// normal, uv, four bone indices and weights), material colours and textures, and the skinning palette as
// a texture buffer (so any number of bones works). Needs a current OpenGL 3.3 core context for every call,
// destruction included.
#pragma once

#include "marionette/Math.h"
#include "marionette/import/ImportedScene.h"

#include <QOpenGLFunctions_3_3_Core>

#include <array>
#include <vector>

class QOpenGLShaderProgram;

namespace marionette::viewport {

class GlMesh {
public:
    explicit GlMesh(QOpenGLFunctions_3_3_Core* gl);
    ~GlMesh();
    GlMesh(const GlMesh&) = delete;
    GlMesh& operator=(const GlMesh&) = delete;

    /// Replaces the buffers with `scene`'s meshes (null = none). Textures that fail to load are ignored.
    void upload(const import::ImportedScene* scene);
    /// The skinning palette (ViewportScene::bonePalette); empty = bind pose.
    void setPalette(const std::vector<Mat4>& palette);
    bool isEmpty() const { return mParts.empty(); }
    /// Draws every part with `program` (the mesh program, bound by the caller).
    void draw(QOpenGLShaderProgram& program);

private:
    struct Part {
        GLuint vao = 0, vbo = 0, ibo = 0;
        GLsizei indexCount = 0;
        std::int32_t material = -1;
    };
    void release();

    QOpenGLFunctions_3_3_Core* mGl;
    std::vector<Part> mParts;
    std::vector<std::array<float, 4>> mColours;
    std::vector<GLuint> mTextures; ///< per material, 0 = none
    std::size_t mSkeletonSize = 0;
    GLuint mPaletteBuffer = 0, mPaletteTexture = 0;
    int mPaletteBones = 0; ///< 0 = bind pose
};

} // namespace marionette::viewport
