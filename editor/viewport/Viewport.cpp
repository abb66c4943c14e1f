#include "viewport/Viewport.h"

#include "viewport/ElementSet.h"
#include "viewport/GlRenderer.h"
#include "viewport/MeshRaycaster.h"
#include "viewport/OverlayBuilder.h"
#include "viewport/RigDrawBuilder.h"
#include "viewport/RigPose.h"
#include "viewport/ViewportColours.h"

#include <QFontDatabase>
#include <QFontMetrics>
#include <QOpenGLContext>
#include <QPainter>
#include <QOpenGLVersionFunctionsFactory>

#include <cmath>

namespace marionette::viewport {

Viewport::Viewport(QWidget* parent) : QOpenGLWidget(parent)
{
    qRegisterMetaType<marionette::Vec3>();
    qRegisterMetaType<marionette::viewport::AngularLimitHandle>();
    QSurfaceFormat f = format();
    f.setRenderableType(QSurfaceFormat::OpenGL);
    f.setVersion(3, 3);
    f.setProfile(QSurfaceFormat::CoreProfile);
    f.setDepthBufferSize(24);
    f.setSamples(4);
    setFormat(f);
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setMinimumSize(64, 64);
    mForceFailure = qEnvironmentVariableIntValue("MARIONETTE_VIEWPORT_FAIL") != 0;
}

Viewport::~Viewport()
{
    releaseGl();
}

void Viewport::releaseGl()
{
    if (!mRenderer)
        return;
    makeCurrent();
    mRenderer.reset();
    doneCurrent();
}

void Viewport::fail(const QString& reason)
{
    if (!mUsable)
        return;
    mUsable = false;
    mFailureReason = reason;
    qWarning("Marionette viewport: %s", qPrintable(reason));
    emit glUnavailable(reason);
}

void Viewport::initializeGL()
{
    if (!mUsable)
        return;
    QOpenGLContext* ctx = context();
    connect(ctx, &QOpenGLContext::aboutToBeDestroyed, this, &Viewport::releaseGl, Qt::UniqueConnection);
    const QSurfaceFormat f = ctx->format();
    if (!ctx->isValid() || ctx->isOpenGLES() || f.version() < qMakePair(3, 3)) {
        fail(tr("OpenGL 3.3 core profile is not available (this system offers OpenGL%1 %2.%3); the 3-D view is "
                "disabled. Update the graphics driver or use Mesa's software renderer (LIBGL_ALWAYS_SOFTWARE=1).")
                 .arg(ctx->isOpenGLES() ? QStringLiteral(" ES") : QString())
                 .arg(f.majorVersion())
                 .arg(f.minorVersion()));
        return;
    }
    auto* gl = QOpenGLVersionFunctionsFactory::get<QOpenGLFunctions_3_3_Core>(ctx);
    if (!gl || !gl->initializeOpenGLFunctions()) {
        fail(tr("OpenGL 3.3 core functions could not be resolved; the 3-D view is disabled."));
        return;
    }
    auto renderer = std::make_unique<GlRenderer>();
    QString error;
    if (!renderer->initialize(gl, mForceFailure, &error)) {
        renderer.reset();
        fail(error);
        return;
    }
    mRenderer = std::move(renderer);
    mMeshDirty = mPaletteDirty = mRigDirty = true;
}

void Viewport::resizeGL(int, int)
{
    mCamera.setViewportSize(size());
}

void Viewport::paintGL()
{
    if (!mUsable || !mRenderer)
        return;
    mCamera.setViewportSize(size());
    ++mStats.paints;
    if (mMeshDirty || mScene.mesh != mUploadedMesh) {
        mRenderer->setMesh(mScene.mesh);
        mUploadedMesh = mScene.mesh;
        mMeshDirty = false;
        ++mStats.meshUploads;
        mPaletteDirty = true;
    }
    if (mPaletteDirty) {
        mRenderer->setPalette(mScene.bonePalette);
        mPaletteDirty = false;
        ++mStats.paletteUploads;
    }
    if (mRigDirty) {
        mRigList.clear();
        RigDrawBuilder::build(mRigList, mScene, gizmoPose(), mOptions);
        mStaticList.clear();
        OverlayBuilder::staticBoxes(mStaticList, mScene.staticBoxes);
        mContactList.clear();
        OverlayBuilder::contacts(mContactList, mScene.contactPoints);
        OverlayBuilder::impulseArrows(mContactList, mScene.impulseArrows);
        mRigDirty = false;
        ++mStats.rigRebuilds;
    }
    DrawList ground, grid, gizmo, screen;
    if (mOptions.showGround)
        OverlayBuilder::ground(ground, mCamera);
    if (mOptions.showGrid)
        OverlayBuilder::grid(grid, mCamera);
    if (mMode == InteractionMode::Edit) {
        OverlayBuilder::gizmo(gizmo, mGizmo, mCamera, size());
        buildHandles(gizmo);
    }
    if (mDrag == Drag::RubberBand)
        OverlayBuilder::rubberBand(screen, QRectF(mPressPos, mLastPos));

    GlRenderer::Frame frame;
    frame.view = mCamera.viewMatrix();
    frame.projection = mCamera.projectionMatrix(float(width()) / float(std::max(height(), 1)));
    frame.pixelRatio = float(devicePixelRatioF());
    frame.devicePixels = QSize(int(std::lround(width() * devicePixelRatioF())), int(std::lround(height() * devicePixelRatioF())));
    frame.ortho = mCamera.isOrthographic();
    frame.pixelScale = frame.ortho ? mCamera.worldPerPixel(mCamera.target(), size())
                                   : 2.f * std::tan(0.5f * radians(mCamera.fieldOfViewDegrees())) / float(std::max(height(), 1));
    frame.options = mOptions;
    frame.background = colours::kBackground;
    GlRenderer::Lists lists;
    lists.ground = &ground;
    lists.grid = &grid;
    lists.statics = &mStaticList;
    lists.rig = &mRigList;
    lists.onTop = &mContactList;
    lists.gizmo = &gizmo;
    lists.screen = &screen;
    mRenderer->render(frame, lists);
    if (!mScene.overlayLines.isEmpty())
        paintOverlayText();
}

void Viewport::paintOverlayText()
{
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setPointSizeF(std::max(font.pointSizeF(), 9.));
    const QFontMetrics metrics(font);
    constexpr int kMargin = 8, kPadding = 6;
    int textWidth = 0;
    for (const QString& line : mScene.overlayLines)
        textWidth = std::max(textWidth, metrics.horizontalAdvance(line));
    const int lineHeight = metrics.lineSpacing();
    const QRect box(kMargin, kMargin, textWidth + 2 * kPadding,
                    int(mScene.overlayLines.size()) * lineHeight + 2 * kPadding - metrics.leading());
    QPainter painter(this);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.fillRect(box, QColor(0, 0, 0, 150));
    painter.setFont(font);
    painter.setPen(Qt::white);
    int y = box.top() + kPadding + metrics.ascent();
    for (const QString& line : mScene.overlayLines) {
        painter.drawText(box.left() + kPadding, y, line);
        y += lineHeight;
    }
}

void Viewport::setScene(ViewportScene scene)
{
    if (scene.bonePalette != mScene.bonePalette) {
        mPaletteDirty = true;
        mRaycasterDirty = true;
    }
    if (scene.mesh != mScene.mesh)
        mRaycasterDirty = true;
    mScene = std::move(scene);
    mRigDirty = true;
    update();
}

void Viewport::meshChanged()
{
    mMeshDirty = true;
    mRaycasterDirty = true;
    update();
}

void Viewport::setDisplayOptions(const DisplayOptions& options)
{
    if (options == mOptions)
        return;
    mOptions = options;
    mOptions.meshOpacity = std::isfinite(options.meshOpacity) ? std::clamp(options.meshOpacity, 0.f, 1.f) : 1.f;
    mRigDirty = true;
    update();
}

void Viewport::setCamera(const Camera& camera)
{
    const QSize s = mCamera.viewportSize();
    mCamera = camera;
    mCamera.setViewportSize(s);
    cameraMoved();
}

void Viewport::cameraMoved()
{
    if (mScene.rig && !mScene.rig->angular.empty() && mOptions.showAngular)
        mRigDirty = true; // the joints' cones keep their size on screen
    emit cameraChanged();
    update();
}

Bounds Viewport::selectionBounds() const
{
    Bounds b;
    if (!mScene.rig || mScene.selection.empty())
        return b;
    using project::ElementKind;
    const rig::RigDescription& r = *mScene.rig;
    const RigPose pose(mScene);
    const ElementSet selected(mScene.selection);
    const std::size_t n = pose.positions().size();
    auto addParticle = [&](std::int32_t i) {
        if (i >= 0 && std::size_t(i) < n)
            b.add(pose.particle(std::size_t(i)), r.particles[std::size_t(i)].radius);
    };
    for (std::size_t i = 0; i < r.particles.size(); ++i)
        if (selected.contains(ElementKind::Particle, r.particles[i].id))
            addParticle(std::int32_t(i));
    for (const rig::Stick& s : r.sticks)
        if (selected.contains(ElementKind::Stick, s.id)) {
            addParticle(s.a);
            addParticle(s.b);
        }
    for (const rig::Triangle& t : r.triangles)
        if (selected.contains(ElementKind::Triangle, t.id))
            for (std::int32_t p : t.p)
                addParticle(p);
    for (std::size_t i = 0; i < r.angular.size(); ++i)
        if (selected.contains(ElementKind::Angular, r.angular[i].id) && pose.angular()[i].valid)
            b.add(pose.angular()[i].point, pose.angular()[i].length);
    for (std::size_t i = 0; i < r.shapes.size(); ++i)
        if (selected.contains(ElementKind::Shape, r.shapes[i].id) && pose.shapes()[i].valid)
            b.add(pose.shapes()[i].origin, length(r.shapes[i].halfExtents));
    for (std::size_t i = 0; i < r.bones.size(); ++i)
        if (selected.contains(ElementKind::Bone, r.bones[i].id)) {
            b.add(pose.bones()[i].head);
            b.add(pose.bones()[i].tail);
        }
    return b;
}

void Viewport::frameSelection()
{
    if (mScene.focus) {
        // The preview: the pose as simulated and the mesh as skinned, about the body's centre.
        Bounds b = RigPose(mScene).bounds();
        if (const MeshRaycaster* mesh = raycaster(); mesh && !mesh->isEmpty())
            b.add(mesh->bounds());
        if (!b.isValid())
            return;
        mCamera.setViewportSize(size());
        mCamera.frame(b, *mScene.focus);
        cameraMoved();
        return;
    }
    Bounds b = selectionBounds();
    if (!b.isValid()) {
        b.add(RigPose(mScene).bounds());
        if (mScene.mesh && mScene.mesh->vertexCount() > 0) {
            const std::array<Vec3, 2> m = mScene.mesh->bounds();
            b.add(m[0]);
            b.add(m[1]);
        }
    }
    if (!b.isValid())
        return;
    mCamera.setViewportSize(size());
    mCamera.frame(b);
    cameraMoved();
}

void Viewport::setView(Camera::View view)
{
    mCamera.setView(view);
    if (mScene.focus && isFinite(*mScene.focus))
        mCamera.setTarget(*mScene.focus);
    cameraMoved();
}

void Viewport::setGizmo(std::optional<Vec3> origin)
{
    mGizmo.setOrigin(origin);
    if (!origin && mGizmo.isDragging()) {
        mGizmo.end();
        mDrag = Drag::None;
    }
    update();
}

void Viewport::setAngularGizmo(std::optional<rig::ElementId> id)
{
    if (mAngular.isDragging() && id != mAngular.constraint())
        cancelAngularDrag();
    mAngular.setConstraint(id);
    update();
}

RigPose Viewport::gizmoPose() const
{
    RigPose pose(mScene);
    pose.sizeGizmos(mCamera, size());
    return pose;
}

void Viewport::buildHandles(DrawList& out) const
{
    if (!mAngular.constraint())
        return;
    const RigPose pose = gizmoPose();
    for (const AngularGizmo::HandlePoint& h : mAngular.handles(mScene, pose)) {
        const bool twist = h.handle == AngularLimitHandle::TwistMin || h.handle == AngularLimitHandle::TwistMax;
        Colour c = twist ? colours::kAngularTwist : colours::kAngularCone;
        if (mAngular.isDragging() && mAngular.activeHandle() == h.handle)
            c = colours::kGizmoActive;
        out.spheres.push_back({h.position, -AngularGizmo::kHandlePixels, c.withAlpha(1.f)});
        out.outlines.push_back({h.position, -AngularGizmo::kHandlePixels, colours::kHovered});
    }
}

Ray Viewport::rayAt(QPointF pixel) const
{
    return mCamera.rayThrough(pixel, size());
}

std::optional<Vec3> Viewport::pointAtDepth(QPointF pixel, Vec3 reference) const
{
    return mCamera.pointAtDepth(pixel, size(), reference);
}

std::optional<Pick> Viewport::pickAt(QPointF pixel) const
{
    return viewport::pickAt(mScene, mCamera, size(), pixel, mOptions);
}

std::vector<project::ElementRef> Viewport::pickInRect(const QRectF& rect) const
{
    return viewport::pickInRect(mScene, mCamera, size(), rect, mOptions);
}

const MeshRaycaster* Viewport::raycaster() const
{
    if (!mScene.mesh)
        return nullptr;
    if (!mRaycaster || mRaycasterDirty) {
        mRaycaster = std::make_unique<MeshRaycaster>(*mScene.mesh, mScene.bonePalette);
        mRaycasterDirty = false;
    }
    return mRaycaster.get();
}

std::optional<SurfacePoint> Viewport::surfacePoint(QPointF pixel) const
{
    if (!mScene.mesh)
        return std::nullopt;
    return viewport::surfacePoint(mScene, mCamera, size(), pixel, raycaster());
}

std::optional<int> Viewport::nearestJoint(QPointF pixel, float maxPixels) const
{
    return viewport::nearestJoint(mScene, mCamera, size(), pixel, maxPixels);
}

} // namespace marionette::viewport
