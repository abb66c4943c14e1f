// Marionette viewport — the editor's 3-D view (DESIGN.md §9, docs/viewport.md): a QOpenGLWidget on an
// OpenGL 3.3 core context that draws a ViewportScene (mesh, skeleton, particles, sticks, triangles,
// angular limits, shapes, grid, ground, the move gizmo), navigates like Maya/Blender and reports clicks,
// rubber bands, hovering and gizmo drags as signals. It never edits the document: the application reacts
// to the signals and calls setScene() again. For the preview it also draws the simulation's feedback
// (ViewportScene's strain, violations, contacts, static boxes, overlay text) and, in InteractionMode::Preview,
// reports plain left drags as previewPressed/Dragged/Released (docs/viewport.md "Preview").
//
// When OpenGL 3.3 is unavailable or a shader fails to build, the widget does not crash: isUsable() turns
// false, failureReason() says why, glUnavailable() is emitted once and nothing is drawn afterwards.
// Test hook: setForceGlFailure(true) before the widget is first shown, or the environment variable
// MARIONETTE_VIEWPORT_FAIL=1, makes a shader fail on purpose.
#pragma once

#include "viewport/AngularGizmo.h"
#include "viewport/Camera.h"
#include "viewport/DisplayOptions.h"
#include "viewport/DrawList.h"
#include "viewport/MoveGizmo.h"
#include "viewport/Picking.h"
#include "viewport/ViewportScene.h"

#include <QOpenGLWidget>

#include <memory>
#include <optional>

namespace marionette::viewport {

class GlRenderer;
class MeshRaycaster;

/// Edit: the authoring tools (clicks, rubber band, move gizmo, angular gizmo). Preview: a plain left
/// press/drag/release is reported as previewPressed/Dragged/Released (drag a particle, hit, explode); no
/// gizmos, no rubber band, no clicked(). Navigation is the same in both.
enum class InteractionMode { Edit, Preview };

class Viewport : public QOpenGLWidget {
    Q_OBJECT

public:
    explicit Viewport(QWidget* parent = nullptr);
    ~Viewport() override;

    /// The scene to draw; the pointers inside must stay valid until the next call. Cheap: the mesh is
    /// uploaded again only after meshChanged() (or when the mesh pointer changes).
    void setScene(ViewportScene scene);
    const ViewportScene& scene() const { return mScene; }
    /// The mesh pointer or its contents changed: upload it again on the next paint.
    void meshChanged();

    void setDisplayOptions(const DisplayOptions& options);
    const DisplayOptions& displayOptions() const { return mOptions; }

    Camera& camera() { return mCamera; }
    const Camera& camera() const { return mCamera; }
    /// Replaces the camera (its viewport size is kept); emits cameraChanged().
    void setCamera(const Camera& camera);
    /// F: frames the selection, or everything when nothing is selected; with a scene focus (the preview's
    /// body centre) frames what is shown (the simulated pose and the skinned mesh) about the focus.
    /// Emits cameraChanged().
    void frameSelection();
    /// The view keys (1, 3, 7 and with Ctrl the opposite views): the axis view, turning about the scene's
    /// focus when it has one (the target moves there), else about the current target. Emits cameraChanged().
    void setView(Camera::View view);

    /// Shows the move gizmo at `origin` (nullopt hides it). During a drag the gizmo stays where the drag
    /// put it (origin at the start + delta) whatever is set here.
    void setGizmo(std::optional<Vec3> origin);
    std::optional<Vec3> gizmo() const { return mGizmo.origin(); }
    bool isMoving() const { return mGizmo.isDragging(); }

    /// Shows handles on the limits of the angular constraint with this stable id (nullopt hides them): the
    /// cone's rim (swing) and the twist arc's ends. Dragging one emits angularLimitDragged() with the new
    /// value; the document is not changed (the app applies it and calls setScene()).
    void setAngularGizmo(std::optional<rig::ElementId> id);
    std::optional<rig::ElementId> angularGizmo() const { return mAngular.constraint(); }

    /// Edit (default) or Preview. Switching cancels a drag in progress (a gizmo drag emits its
    /// cancelled signal; a preview drag emits previewReleased at the last position).
    void setInteractionMode(InteractionMode mode);
    InteractionMode interactionMode() const { return mMode; }

    /// The ray through a pixel for the current camera and widget size (Camera::rayThrough).
    Ray rayAt(QPointF pixel) const;
    /// The point under `pixel` on the plane through `reference` facing the camera (normal forward()): the
    /// cursor at the reference's depth, for dragging a particle. nullopt when the ray is parallel to the
    /// plane or the plane is behind the eye.
    std::optional<Vec3> pointAtDepth(QPointF pixel, Vec3 reference) const;

    /// The plain picking functions (Picking.h) on the current scene, camera, size and display layers.
    std::optional<Pick> pickAt(QPointF pixel) const;
    std::vector<project::ElementRef> pickInRect(const QRectF& rect) const;
    std::optional<SurfacePoint> surfacePoint(QPointF pixel) const;
    std::optional<int> nearestJoint(QPointF pixel, float maxPixels = 12.f) const;

    /// What the last paint drew over everything but the gizmo: the contact dots and the impulse arrows
    /// (ViewportScene::contactPoints, impulseArrows), rebuilt when the scene changes.
    const DrawList& onTopList() const { return mContactList; }

    /// What the paints so far sent to the GPU (to check that a preview frame, which changes only
    /// particlePositions, bonePalette and the feedback fields, uploads no mesh).
    struct Stats {
        int paints = 0;         ///< paintGL calls that drew
        int meshUploads = 0;    ///< vertex/index buffers built from scene.mesh
        int paletteUploads = 0; ///< skinning palette sent (a texture buffer of 16 floats per bone)
        int rigRebuilds = 0;    ///< rig, static box and contact draw lists rebuilt
    };
    const Stats& stats() const { return mStats; }

    bool isUsable() const { return mUsable; }
    QString failureReason() const { return mFailureReason; }
    /// Test hook: make a shader fail when GL initialises. Call before the widget is first shown.
    void setForceGlFailure(bool on) { mForceFailure = on; }

    /// Press-release distance (pixels) under which a left press is a click rather than a rubber band.
    static constexpr double kClickPixels = 4.;

signals:
    void glUnavailable(const QString& reason);
    void cameraChanged();
    void clicked(QPointF pixel, Qt::KeyboardModifiers modifiers);
    void boxSelected(QRectF rect, Qt::KeyboardModifiers modifiers);
    void hoverMoved(QPointF pixel);
    /// The mouse left the widget (no button held): nothing is hovered any more.
    void hoverLeft();
    /// The user panned the view (Alt/Shift + middle drag): the target was moved by hand.
    void panned();
    void moveStarted();
    void moveUpdated(marionette::Vec3 totalDelta);
    void moveFinished(marionette::Vec3 totalDelta);
    void moveCancelled();
    /// An angular limit handle was dragged: `newRadians` is the limit's new value (AngularGizmo.h ranges).
    void angularLimitDragged(quint32 id, marionette::viewport::AngularLimitHandle which, float newRadians);
    void angularLimitDragFinished(quint32 id, marionette::viewport::AngularLimitHandle which, float newRadians);
    /// Esc or a right click during the drag: `originalRadians` is the value before it began.
    void angularLimitDragCancelled(quint32 id, marionette::viewport::AngularLimitHandle which, float originalRadians);
    /// Preview mode: a left press without Alt (`modifiers` as pressed), the moves while it is held, the
    /// release. Every press is followed by exactly one release (also when the mode changes or Esc).
    void previewPressed(QPointF pixel, Qt::KeyboardModifiers modifiers);
    void previewDragged(QPointF pixel);
    void previewReleased(QPointF pixel);

protected:
    void initializeGL() override;
    void paintGL() override;
    void resizeGL(int w, int h) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    enum class Drag { None, Pending, RubberBand, Orbit, Pan, Zoom, Gizmo, Angular, Preview };

    void fail(const QString& reason);
    void releaseGl();
    void cancelMove();
    void cancelAngularDrag();
    /// Starts a gizmo or angular-handle drag under `pos`; false when there is no handle there.
    bool beginHandleDrag(QPointF pos);
    void buildHandles(DrawList& out) const;
    /// The rig's pose with the angular gizmos sized for the current camera (drawing, handles and drags agree).
    RigPose gizmoPose() const;
    /// scene.overlayLines in the top-left corner, with QPainter over what GL drew.
    void paintOverlayText();
    Bounds selectionBounds() const;
    /// The mesh skinned with the scene's palette, built when first needed after a change; null without a mesh.
    const MeshRaycaster* raycaster() const;
    void cameraMoved();

    ViewportScene mScene;
    DisplayOptions mOptions;
    InteractionMode mMode = InteractionMode::Edit;
    Camera mCamera;
    MoveGizmo mGizmo;
    AngularGizmo mAngular;

    std::unique_ptr<GlRenderer> mRenderer;
    bool mUsable = true;
    bool mForceFailure = false;
    QString mFailureReason;
    bool mMeshDirty = true;
    bool mPaletteDirty = true;
    bool mRigDirty = true;
    const import::ImportedScene* mUploadedMesh = nullptr;
    DrawList mRigList;
    Stats mStats;
    DrawList mStaticList;  ///< scene.staticBoxes, rebuilt with the rig list
    DrawList mContactList; ///< scene.contactPoints and impulseArrows, rebuilt with the rig list

    mutable std::unique_ptr<MeshRaycaster> mRaycaster;
    mutable bool mRaycasterDirty = true;

    Drag mDrag = Drag::None;
    QPointF mPressPos, mLastPos;
    Qt::KeyboardModifiers mPressModifiers;
};

} // namespace marionette::viewport

Q_DECLARE_METATYPE(marionette::Vec3)
Q_DECLARE_METATYPE(marionette::viewport::AngularLimitHandle)
