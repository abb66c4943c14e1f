// Marionette viewport — every OpenGL call of the viewport: the four programs, the streamed buffers of the
// draw lists, the mesh (GlMesh) and the order of the passes (docs/viewport.md):
//   ground and grid (no depth writes) → static scene boxes (opaque faces writing depth) → opaque mesh →
//   rig → translucent mesh (depth pre-pass, then blended) → X-ray: the rig again over a cleared depth
//   buffer, dimmed → contact dots over a cleared depth buffer → gizmo over a cleared depth buffer →
//   screen overlay (rubber band) in pixels. (Overlay text is drawn by the Viewport with QPainter after.)
// Needs a current OpenGL 3.3 core context for every call, destruction included.
#pragma once

#include "viewport/DisplayOptions.h"
#include "viewport/DrawList.h"

#include "marionette/import/ImportedScene.h"

#include <QOpenGLFunctions_3_3_Core>
#include <QSize>
#include <QString>

#include <memory>

class QOpenGLShaderProgram;

namespace marionette::viewport {

class GlMesh;

class GlRenderer {
public:
    struct Frame {
        Mat4 view;
        Mat4 projection;
        QSize devicePixels;       ///< framebuffer size
        float pixelRatio = 1.f;   ///< device pixels per logical pixel
        bool ortho = false;
        float pixelScale = 0.01f; ///< world per logical pixel: at depth 1 (perspective) or everywhere (ortho)
        DisplayOptions options;
        Colour background;
    };
    struct Lists {
        const DrawList* ground = nullptr;
        const DrawList* grid = nullptr;
        const DrawList* statics = nullptr; ///< static scene geometry; its faces are opaque and write depth
        const DrawList* rig = nullptr;
        const DrawList* onTop = nullptr;   ///< contact dots, over everything but the gizmo
        const DrawList* gizmo = nullptr;
        const DrawList* screen = nullptr; ///< in logical pixels, origin top-left
    };

    GlRenderer();
    ~GlRenderer();

    /// Compiles the programs and creates the buffers. false with `*error` set when a shader fails;
    /// `forceFailure` makes one shader fail on purpose (test hook).
    bool initialize(QOpenGLFunctions_3_3_Core* gl, bool forceFailure, QString* error);
    void setMesh(const import::ImportedScene* mesh);
    void setPalette(const std::vector<Mat4>& palette);
    void render(const Frame& frame, const Lists& lists);

private:
    void drawList(const DrawList& list, const Mat4& view, const Mat4& projection, float alphaScale,
                  const Frame& frame, bool solidFaces = false);
    void drawMesh(const Frame& frame, float opacity);

    QOpenGLFunctions_3_3_Core* mGl = nullptr;
    std::unique_ptr<QOpenGLShaderProgram> mMeshProgram, mSphereProgram, mLineProgram, mFaceProgram;
    std::unique_ptr<GlMesh> mMesh;
    GLuint mLineVao = 0, mLineVbo = 0;
    GLuint mFaceVao = 0, mFaceVbo = 0;
    GLuint mSphereVao = 0, mSphereVbo = 0, mSphereIbo = 0, mSphereInstances = 0;
    GLsizei mSphereIndexCount = 0;
};

} // namespace marionette::viewport
