#include "viewport/GlRenderer.h"

#include "viewport/GlMesh.h"
#include "viewport/GlShaders.h"
#include "viewport/Picking.h"

#include <QOpenGLShaderProgram>

#include <cmath>

namespace marionette::viewport {

namespace {

std::unique_ptr<QOpenGLShaderProgram> makeProgram(const char* vertex, const char* geometry, const char* fragment,
                                                  const char* name, QString* error)
{
    auto p = std::make_unique<QOpenGLShaderProgram>();
    bool ok = p->addShaderFromSourceCode(QOpenGLShader::Vertex, vertex);
    if (ok && geometry)
        ok = p->addShaderFromSourceCode(QOpenGLShader::Geometry, geometry);
    if (ok)
        ok = p->addShaderFromSourceCode(QOpenGLShader::Fragment, fragment);
    if (ok)
        ok = p->link();
    if (!ok) {
        *error = QStringLiteral("the viewport's %1 shader failed to build: %2").arg(QLatin1String(name), p->log().trimmed());
        return nullptr;
    }
    return p;
}

void setMatrix(QOpenGLFunctions_3_3_Core* gl, QOpenGLShaderProgram& p, const char* name, const Mat4& m)
{
    gl->glUniformMatrix4fv(p.uniformLocation(name), 1, GL_FALSE, m.m);
}

/// Unit icosphere subdivided twice (320 triangles): positions = normals.
void icosphere(std::vector<Vec3>& vertices, std::vector<std::uint32_t>& indices)
{
    const float t = (1.f + std::sqrt(5.f)) / 2.f;
    vertices = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
    for (Vec3& v : vertices)
        v = normalizeOr(v, {0, 1, 0});
    indices = {0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11, 1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6, 7, 1, 8,
               3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1};
    for (int level = 0; level < 2; ++level) {
        std::vector<std::uint32_t> next;
        for (std::size_t i = 0; i < indices.size(); i += 3) {
            std::uint32_t m[3];
            for (int k = 0; k < 3; ++k) {
                const Vec3 a = vertices[indices[i + std::size_t(k)]], b = vertices[indices[i + std::size_t((k + 1) % 3)]];
                vertices.push_back(normalizeOr(a + b, a));
                m[k] = std::uint32_t(vertices.size() - 1);
            }
            const std::uint32_t a = indices[i], b = indices[i + 1], c = indices[i + 2];
            next.insert(next.end(), {a, m[0], m[2], b, m[1], m[0], c, m[2], m[1], m[0], m[1], m[2]});
        }
        indices = std::move(next);
    }
}

} // namespace

GlRenderer::GlRenderer() = default;

GlRenderer::~GlRenderer()
{
    if (!mGl)
        return;
    mMesh.reset();
    const GLuint vaos[3] = {mLineVao, mFaceVao, mSphereVao};
    mGl->glDeleteVertexArrays(3, vaos);
    const GLuint buffers[5] = {mLineVbo, mFaceVbo, mSphereVbo, mSphereIbo, mSphereInstances};
    mGl->glDeleteBuffers(5, buffers);
}

bool GlRenderer::initialize(QOpenGLFunctions_3_3_Core* gl, bool forceFailure, QString* error)
{
    mGl = gl;
    mMeshProgram = makeProgram(forceFailure ? shaders::kBroken : shaders::kMeshVertex, nullptr, shaders::kMeshFragment,
                               "mesh", error);
    if (!mMeshProgram)
        return false;
    mSphereProgram = makeProgram(shaders::kSphereVertex, nullptr, shaders::kSphereFragment, "sphere", error);
    mLineProgram = mSphereProgram ? makeProgram(shaders::kLineVertex, shaders::kLineGeometry, shaders::kLineFragment,
                                                "line", error)
                                  : nullptr;
    mFaceProgram = mLineProgram ? makeProgram(shaders::kFaceVertex, nullptr, shaders::kFaceFragment, "face", error)
                                : nullptr;
    if (!mFaceProgram)
        return false;

    mGl->glGenVertexArrays(1, &mLineVao);
    mGl->glGenBuffers(1, &mLineVbo);
    mGl->glBindVertexArray(mLineVao);
    mGl->glBindBuffer(GL_ARRAY_BUFFER, mLineVbo);
    const GLsizei lineStride = sizeof(LineVertex);
    mGl->glEnableVertexAttribArray(0);
    mGl->glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, lineStride, nullptr);
    mGl->glEnableVertexAttribArray(1);
    mGl->glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, lineStride, reinterpret_cast<const void*>(3 * sizeof(float)));
    mGl->glEnableVertexAttribArray(2);
    mGl->glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, lineStride, reinterpret_cast<const void*>(7 * sizeof(float)));

    mGl->glGenVertexArrays(1, &mFaceVao);
    mGl->glGenBuffers(1, &mFaceVbo);
    mGl->glBindVertexArray(mFaceVao);
    mGl->glBindBuffer(GL_ARRAY_BUFFER, mFaceVbo);
    const GLsizei faceStride = sizeof(FaceVertex);
    mGl->glEnableVertexAttribArray(0);
    mGl->glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, faceStride, nullptr);
    mGl->glEnableVertexAttribArray(1);
    mGl->glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, faceStride, reinterpret_cast<const void*>(3 * sizeof(float)));

    std::vector<Vec3> sphere;
    std::vector<std::uint32_t> sphereIndices;
    icosphere(sphere, sphereIndices);
    mSphereIndexCount = GLsizei(sphereIndices.size());
    mGl->glGenVertexArrays(1, &mSphereVao);
    mGl->glGenBuffers(1, &mSphereVbo);
    mGl->glGenBuffers(1, &mSphereIbo);
    mGl->glGenBuffers(1, &mSphereInstances);
    mGl->glBindVertexArray(mSphereVao);
    mGl->glBindBuffer(GL_ARRAY_BUFFER, mSphereVbo);
    mGl->glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(sphere.size() * sizeof(Vec3)), sphere.data(), GL_STATIC_DRAW);
    mGl->glEnableVertexAttribArray(0);
    mGl->glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(Vec3), nullptr);
    mGl->glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, mSphereIbo);
    mGl->glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(sphereIndices.size() * sizeof(std::uint32_t)),
                      sphereIndices.data(), GL_STATIC_DRAW);
    mGl->glBindBuffer(GL_ARRAY_BUFFER, mSphereInstances);
    const GLsizei instanceStride = sizeof(SphereInstance);
    mGl->glEnableVertexAttribArray(1);
    mGl->glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, instanceStride, nullptr);
    mGl->glVertexAttribDivisor(1, 1);
    mGl->glEnableVertexAttribArray(2);
    mGl->glVertexAttribPointer(2, 4, GL_FLOAT, GL_FALSE, instanceStride, reinterpret_cast<const void*>(4 * sizeof(float)));
    mGl->glVertexAttribDivisor(2, 1);
    mGl->glBindVertexArray(0);

    mMesh = std::make_unique<GlMesh>(mGl);
    return true;
}

void GlRenderer::setMesh(const import::ImportedScene* mesh)
{
    if (mMesh)
        mMesh->upload(mesh);
}

void GlRenderer::setPalette(const std::vector<Mat4>& palette)
{
    if (mMesh)
        mMesh->setPalette(palette);
}

void GlRenderer::drawMesh(const Frame& frame, float opacity)
{
    mMeshProgram->bind();
    setMatrix(mGl, *mMeshProgram, "uView", frame.view);
    setMatrix(mGl, *mMeshProgram, "uProjection", frame.projection);
    mMeshProgram->setUniformValue("uOpacity", opacity);
    mMeshProgram->setUniformValue("uOrtho", frame.ortho);
    mMesh->draw(*mMeshProgram);
}

void GlRenderer::drawList(const DrawList& list, const Mat4& view, const Mat4& projection, float alphaScale,
                          const Frame& frame, bool solidFaces)
{
    const Mat4 viewProjection = projection * view;
    // translucent faces come last and do not write depth; solid faces (static boxes) come first and do,
    // so their edges (lines, depth-tested LEQUAL) stay on top of them
    const auto drawFaces = [&] {
        if (list.faces.empty())
            return;
        if (!solidFaces) {
            mGl->glDepthMask(GL_FALSE);
        } else { // pushed back a little so the edges drawn next are not half hidden by their own faces
            mGl->glEnable(GL_POLYGON_OFFSET_FILL);
            mGl->glPolygonOffset(1.f, 1.f);
        }
        mFaceProgram->bind();
        setMatrix(mGl, *mFaceProgram, "uViewProjection", viewProjection);
        mFaceProgram->setUniformValue("uAlphaScale", alphaScale);
        mGl->glBindVertexArray(mFaceVao);
        mGl->glBindBuffer(GL_ARRAY_BUFFER, mFaceVbo);
        mGl->glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(list.faces.size() * sizeof(FaceVertex)), list.faces.data(),
                          GL_STREAM_DRAW);
        mGl->glDrawArrays(GL_TRIANGLES, 0, GLsizei(list.faces.size()));
        mGl->glDepthMask(GL_TRUE);
        mGl->glDisable(GL_POLYGON_OFFSET_FILL);
    };
    if (solidFaces)
        drawFaces();
    // spheres and lines write depth
    if (!list.spheres.empty() || !list.outlines.empty()) {
        mSphereProgram->bind();
        setMatrix(mGl, *mSphereProgram, "uView", view);
        setMatrix(mGl, *mSphereProgram, "uProjection", projection);
        mSphereProgram->setUniformValue("uOrtho", frame.ortho);
        mSphereProgram->setUniformValue("uPixelScale", frame.pixelScale);
        mSphereProgram->setUniformValue("uMinPixels", kMinParticlePixels);
        mSphereProgram->setUniformValue("uAlphaScale", alphaScale);
        mGl->glBindVertexArray(mSphereVao);
        mGl->glBindBuffer(GL_ARRAY_BUFFER, mSphereInstances);
        mGl->glEnable(GL_CULL_FACE);
        for (int pass = 0; pass < 2; ++pass) {
            const std::vector<SphereInstance>& s = pass == 0 ? list.spheres : list.outlines;
            if (s.empty())
                continue;
            mGl->glCullFace(pass == 0 ? GL_BACK : GL_FRONT);
            mSphereProgram->setUniformValue("uFlat", pass == 1);
            mSphereProgram->setUniformValue("uGrowPixels", pass == 1 ? 2.5f : 0.f);
            mGl->glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(s.size() * sizeof(SphereInstance)), s.data(), GL_STREAM_DRAW);
            mGl->glDrawElementsInstanced(GL_TRIANGLES, mSphereIndexCount, GL_UNSIGNED_INT, nullptr, GLsizei(s.size()));
        }
        mGl->glCullFace(GL_BACK);
        mGl->glDisable(GL_CULL_FACE);
    }
    if (!list.lines.empty()) {
        mLineProgram->bind();
        setMatrix(mGl, *mLineProgram, "uViewProjection", viewProjection);
        mLineProgram->setUniformValue("uViewportPixels", float(frame.devicePixels.width()),
                                      float(frame.devicePixels.height()));
        mLineProgram->setUniformValue("uPixelRatio", frame.pixelRatio);
        mLineProgram->setUniformValue("uAlphaScale", alphaScale);
        mGl->glBindVertexArray(mLineVao);
        mGl->glBindBuffer(GL_ARRAY_BUFFER, mLineVbo);
        mGl->glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(list.lines.size() * sizeof(LineVertex)), list.lines.data(),
                          GL_STREAM_DRAW);
        mGl->glDrawArrays(GL_LINES, 0, GLsizei(list.lines.size()));
    }
    if (!solidFaces)
        drawFaces();
    mGl->glBindVertexArray(0);
}

void GlRenderer::render(const Frame& frame, const Lists& lists)
{
    const DisplayOptions& o = frame.options;
    mGl->glViewport(0, 0, frame.devicePixels.width(), frame.devicePixels.height());
    // whatever QPainter (the overlay text of the previous frame) left behind
    mGl->glDisable(GL_SCISSOR_TEST);
    mGl->glDisable(GL_STENCIL_TEST);
    mGl->glDisable(GL_CULL_FACE);
    mGl->glActiveTexture(GL_TEXTURE0);
    mGl->glClearColor(frame.background.r, frame.background.g, frame.background.b, 1.f);
    mGl->glDepthMask(GL_TRUE);
    mGl->glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    mGl->glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    mGl->glEnable(GL_BLEND);
    mGl->glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    mGl->glEnable(GL_DEPTH_TEST);
    mGl->glDepthFunc(GL_LEQUAL);

    // ground and grid: depth-tested, never hiding what is drawn after them
    mGl->glDepthMask(GL_FALSE);
    if (o.showGround && lists.ground)
        drawList(*lists.ground, frame.view, frame.projection, 1.f, frame);
    mGl->glDepthMask(GL_FALSE);
    if (o.showGrid && lists.grid)
        drawList(*lists.grid, frame.view, frame.projection, 1.f, frame);
    mGl->glDepthMask(GL_TRUE);
    if (lists.statics && !lists.statics->empty())
        drawList(*lists.statics, frame.view, frame.projection, 1.f, frame, true);

    const bool meshVisible = o.showMesh && o.meshOpacity > 0.001f && mMesh && !mMesh->isEmpty();
    const bool opaqueMesh = meshVisible && o.meshOpacity >= 0.999f;
    if (opaqueMesh)
        drawMesh(frame, 1.f);
    if (lists.rig)
        drawList(*lists.rig, frame.view, frame.projection, 1.f, frame);
    if (meshVisible && !opaqueMesh) {
        mGl->glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
        drawMesh(frame, 1.f);
        mGl->glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
        mGl->glDepthMask(GL_FALSE);
        drawMesh(frame, o.meshOpacity);
        mGl->glDepthMask(GL_TRUE);
    }
    if (o.xray && lists.rig) {
        mGl->glClear(GL_DEPTH_BUFFER_BIT);
        drawList(*lists.rig, frame.view, frame.projection, 0.55f, frame);
    }
    if (lists.onTop && !lists.onTop->empty()) {
        mGl->glClear(GL_DEPTH_BUFFER_BIT);
        drawList(*lists.onTop, frame.view, frame.projection, 1.f, frame);
    }
    if (lists.gizmo && !lists.gizmo->empty()) {
        mGl->glClear(GL_DEPTH_BUFFER_BIT);
        drawList(*lists.gizmo, frame.view, frame.projection, 1.f, frame);
    }
    if (lists.screen && !lists.screen->empty()) {
        mGl->glDisable(GL_DEPTH_TEST);
        const float w = float(frame.devicePixels.width()) / frame.pixelRatio;
        const float h = float(frame.devicePixels.height()) / frame.pixelRatio;
        drawList(*lists.screen, Mat4{}, orthographic(0.f, w, h, 0.f, -1.f, 1.f), 1.f, frame);
        mGl->glEnable(GL_DEPTH_TEST);
    }
}

} // namespace marionette::viewport
