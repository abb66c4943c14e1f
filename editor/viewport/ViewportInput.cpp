// Viewport's mouse and keyboard handling (navigation, clicks, rubber band, gizmo and angular-handle drags);
// the rest of the class is in Viewport.cpp.
#include "viewport/Viewport.h"

#include "viewport/RigPose.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>

#include <cmath>

namespace marionette::viewport {

void Viewport::cancelMove()
{
    if (!mGizmo.isDragging())
        return;
    mGizmo.end();
    mDrag = Drag::None;
    emit moveCancelled();
    update();
}

void Viewport::cancelAngularDrag()
{
    if (!mAngular.isDragging())
        return;
    mAngular.end();
    mDrag = Drag::None;
    emit angularLimitDragCancelled(*mAngular.constraint(), mAngular.activeHandle(), mAngular.originalAngle());
    update();
}

void Viewport::setInteractionMode(InteractionMode mode)
{
    if (mode == mMode)
        return;
    cancelMove();
    cancelAngularDrag();
    if (mDrag == Drag::Preview) {
        mDrag = Drag::None;
        emit previewReleased(mLastPos);
    } else if (mDrag == Drag::Pending || mDrag == Drag::RubberBand) {
        mDrag = Drag::None;
    }
    mGizmo.setHovered(MoveGizmo::Handle::None);
    mMode = mode;
    update();
}

bool Viewport::beginHandleDrag(QPointF pos)
{
    if (mMode == InteractionMode::Preview)
        return false;
    const MoveGizmo::Handle h = mGizmo.hitTest(mCamera, size(), pos);
    if (h != MoveGizmo::Handle::None && mGizmo.begin(h, mCamera, size(), pos)) {
        mDrag = Drag::Gizmo;
        emit moveStarted();
        update();
        return true;
    }
    if (!mAngular.constraint())
        return false;
    const RigPose pose = gizmoPose();
    const std::optional<AngularLimitHandle> a = mAngular.hitTest(mScene, pose, mCamera, size(), pos);
    if (a && mAngular.begin(*a, mScene, pose)) {
        mDrag = Drag::Angular;
        update();
        return true;
    }
    return false;
}

void Viewport::mousePressEvent(QMouseEvent* event)
{
    const QPointF pos = event->position();
    if (mDrag == Drag::Gizmo || mDrag == Drag::Angular) {
        if (event->button() == Qt::RightButton) {
            cancelMove();
            cancelAngularDrag();
        }
        return;
    }
    if (mDrag != Drag::None)
        return; // a second button during a drag is ignored
    mPressPos = mLastPos = pos;
    mPressModifiers = event->modifiers();
    mCamera.setViewportSize(size());
    const bool alt = event->modifiers() & Qt::AltModifier;
    const bool shift = event->modifiers() & Qt::ShiftModifier;
    switch (event->button()) {
    case Qt::LeftButton:
        if (alt) {
            mDrag = Drag::Orbit;
        } else if (mMode == InteractionMode::Preview) {
            mDrag = Drag::Preview;
            emit previewPressed(pos, mPressModifiers);
        } else if (!beginHandleDrag(pos))
            mDrag = Drag::Pending;
        break;
    case Qt::MiddleButton: mDrag = alt || shift ? Drag::Pan : Drag::Orbit; break;
    case Qt::RightButton:
        if (alt)
            mDrag = Drag::Zoom;
        break;
    default: break;
    }
    event->accept();
}

void Viewport::mouseMoveEvent(QMouseEvent* event)
{
    const QPointF pos = event->position();
    const QPointF d = pos - mLastPos;
    mLastPos = pos;
    switch (mDrag) {
    case Drag::Orbit:
        mCamera.orbit(float(d.x()), float(d.y()));
        cameraMoved();
        break;
    case Drag::Pan:
        mCamera.pan(float(d.x()), float(d.y()));
        cameraMoved();
        emit panned();
        break;
    case Drag::Zoom:
        mCamera.zoom(float(d.x() - d.y()) / 40.f);
        cameraMoved();
        break;
    case Drag::Gizmo:
        emit moveUpdated(mGizmo.drag(mCamera, size(), pos));
        update();
        break;
    case Drag::Angular:
        if (const std::optional<float> a = mAngular.drag(mScene, gizmoPose(), mCamera, size(), pos)) {
            emit angularLimitDragged(*mAngular.constraint(), mAngular.activeHandle(), *a);
            update();
        }
        break;
    case Drag::Pending:
        if (std::hypot(pos.x() - mPressPos.x(), pos.y() - mPressPos.y()) > kClickPixels) {
            mDrag = Drag::RubberBand;
            update();
        }
        break;
    case Drag::RubberBand: update(); break;
    case Drag::Preview: emit previewDragged(pos); break;
    case Drag::None: {
        const MoveGizmo::Handle h =
            mMode == InteractionMode::Preview ? MoveGizmo::Handle::None : mGizmo.hitTest(mCamera, size(), pos);
        if (h != mGizmo.hovered()) {
            mGizmo.setHovered(h);
            update();
        }
        emit hoverMoved(pos);
        break;
    }
    }
    event->accept();
}

void Viewport::mouseReleaseEvent(QMouseEvent* event)
{
    const QPointF pos = event->position();
    const Drag drag = mDrag;
    const bool left = event->button() == Qt::LeftButton;
    const bool middle = event->button() == Qt::MiddleButton;
    const bool right = event->button() == Qt::RightButton;
    switch (drag) {
    case Drag::Pending:
        if (!left)
            return;
        mDrag = Drag::None;
        emit clicked(mPressPos, mPressModifiers);
        break;
    case Drag::RubberBand:
        if (!left)
            return;
        mDrag = Drag::None;
        emit boxSelected(QRectF(mPressPos, pos).normalized(), mPressModifiers);
        update();
        break;
    case Drag::Gizmo:
        if (!left)
            return;
        mDrag = Drag::None;
        emit moveFinished(mGizmo.end());
        update();
        break;
    case Drag::Angular:
        if (!left)
            return;
        mDrag = Drag::None;
        mAngular.end();
        emit angularLimitDragFinished(*mAngular.constraint(), mAngular.activeHandle(), mAngular.currentAngle());
        update();
        break;
    case Drag::Preview:
        if (!left)
            return;
        mDrag = Drag::None;
        emit previewReleased(pos);
        break;
    case Drag::Orbit:
    case Drag::Pan:
    case Drag::Zoom:
        if ((drag == Drag::Orbit && (left || middle)) || (drag == Drag::Pan && middle) || (drag == Drag::Zoom && right))
            mDrag = Drag::None;
        break;
    case Drag::None: break;
    }
    event->accept();
}

void Viewport::wheelEvent(QWheelEvent* event)
{
    const float steps = float(event->angleDelta().y()) / 120.f;
    if (steps != 0.f) {
        mCamera.zoom(steps);
        cameraMoved();
    }
    event->accept();
}

void Viewport::keyPressEvent(QKeyEvent* event)
{
    const bool ctrl = event->modifiers() & Qt::ControlModifier;
    switch (event->key()) {
    case Qt::Key_F: frameSelection(); break;
    case Qt::Key_1: setView(ctrl ? Camera::View::Back : Camera::View::Front); break;
    case Qt::Key_3: setView(ctrl ? Camera::View::Left : Camera::View::Right); break;
    case Qt::Key_7: setView(ctrl ? Camera::View::Bottom : Camera::View::Top); break;
    case Qt::Key_5:
        mCamera.setOrthographic(!mCamera.isOrthographic());
        cameraMoved();
        break;
    case Qt::Key_X:
    case Qt::Key_Y:
    case Qt::Key_Z: {
        if (!mGizmo.isDragging()) {
            QOpenGLWidget::keyPressEvent(event);
            return;
        }
        const MoveGizmo::Handle axis = event->key() == Qt::Key_X   ? MoveGizmo::Handle::X
                                       : event->key() == Qt::Key_Y ? MoveGizmo::Handle::Y
                                                                   : MoveGizmo::Handle::Z;
        emit moveUpdated(mGizmo.toggleAxisLock(axis, mCamera, size()));
        update();
        break;
    }
    case Qt::Key_Escape:
        if (mGizmo.isDragging()) {
            cancelMove();
        } else if (mAngular.isDragging()) {
            cancelAngularDrag();
        } else if (mDrag == Drag::Preview) {
            mDrag = Drag::None;
            emit previewReleased(mLastPos);
        } else if (mDrag == Drag::RubberBand || mDrag == Drag::Pending) {
            mDrag = Drag::None;
            update();
        } else {
            QOpenGLWidget::keyPressEvent(event);
            return;
        }
        break;
    default: QOpenGLWidget::keyPressEvent(event); return;
    }
    event->accept();
}

void Viewport::leaveEvent(QEvent* event)
{
    if (mDrag == Drag::None)
        emit hoverLeft();
    if (mGizmo.hovered() != MoveGizmo::Handle::None) {
        mGizmo.setHovered(MoveGizmo::Handle::None);
        update();
    }
    QOpenGLWidget::leaveEvent(event);
}

} // namespace marionette::viewport
