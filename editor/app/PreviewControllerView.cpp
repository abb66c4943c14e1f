// PreviewController: the camera following the simulated body (Follow Body) and the hit tool's aim (its
// direction, the impulse and the arrow's anchor); the rest of the class is in PreviewController.cpp.
#include "PreviewController.h"

#include "viewport/Viewport.h"

#include <algorithm>
#include <cmath>

namespace marionette::app {

void PreviewController::setTool(PreviewTool tool)
{
    mTool = tool;
    if (mSession)
        emit frameReady(); // the hit tool's arrow comes or goes
}

void PreviewController::setHitStrength(float newtonSeconds)
{
    mHitStrength = newtonSeconds;
    if (mSession && mTool == PreviewTool::Hit && mHover)
        emit frameReady(); // the arrow's length
}

void PreviewController::setHitDirection(editor::HitDirection mode)
{
    mHitDirection = mode;
    if (mSession && mTool == PreviewTool::Hit && mHover)
        emit frameReady(); // the arrow's direction
}

float PreviewController::arrowLength(float newtonSeconds)
{
    return 0.25f * std::sqrt(std::max(newtonSeconds, 0.f) / 10.f);
}

void PreviewController::setFollowBody(bool on)
{
    if (on == mFollowBody)
        return;
    mFollowBody = on;
    if (on && mSession && mViewport) {
        mFollow.reset(mViewport->camera().target(), mSession->centreOfMass(mTimer.isActive() ? mAlpha : 1.f));
        if (!mTimer.isActive())
            follow(-1.);
    }
    emit followBodyChanged(on);
}

void PreviewController::follow(double seconds)
{
    if (!mSession || !mViewport || !mFollowBody || mSession->dragging())
        return; // a drag holds the view still, so the cursor stays where the particle is
    const Vec3 centre = mSession->centreOfMass(mTimer.isActive() ? mAlpha : 1.f);
    viewport::Camera& camera = mViewport->camera();
    if (seconds < 0.) {
        mFollow.snap(centre);
    } else {
        if (length(camera.target() - mFollow.target()) > 1e-6f) // moved by F or a view key: glide on from there
            mFollow.reset(camera.target(), mFollow.goal());
        mFollow.advance(centre, float(seconds));
    }
    if (length(camera.target() - mFollow.target()) > 0.f) {
        // Not recorded in the document: the view the project keeps is the one the user chose.
        camera.setTarget(mFollow.target());
        mViewport->update();
    }
}

Vec3 PreviewController::impulseFor(const editor::HitPoint& hit, Vec3 rayDirection) const
{
    const Vec3 up = mViewport ? mViewport->camera().up() : Vec3{0.f, 1.f, 0.f};
    return editor::hitImpulseDirection(mHitDirection, rayDirection, mSession->hitNormal(hit), up) * mHitStrength;
}

Vec3 PreviewController::anchorOf(editor::HitPoint::Kind kind, std::uint32_t index, float t) const
{
    const auto x = mSession->positions();
    if (kind == editor::HitPoint::Kind::Particle)
        return index < x.size() ? x[index] : Vec3{};
    const auto& sticks = mSession->rig().sticks;
    if (index >= sticks.size())
        return {};
    return x[std::size_t(sticks[index].a)] * (1.f - t) + x[std::size_t(sticks[index].b)] * t;
}

void PreviewController::onHover(std::optional<QPointF> pixel)
{
    mHover = pixel;
    if (mSession && mTool == PreviewTool::Hit)
        emit frameReady();
}

} // namespace marionette::app
