#include "PreviewController.h"

#include "viewport/Viewport.h"

#include "marionette/editor/preview/AnimationPose.h"
#include "marionette/editor/preview/TestScenes.h"

#include <QString>

#include <algorithm>

namespace marionette::app {

namespace {
constexpr int kFrameMilliseconds = 16;
constexpr int kMaxStepsPerFrame = 4;
constexpr std::size_t kFrameSamples = 600;
} // namespace

PreviewController::PreviewController(editor::Document* document, viewport::Viewport* viewport, QObject* parent)
    : QObject(parent), mDocument(document), mViewport(viewport)
{
    mTimer.setInterval(kFrameMilliseconds);
    mTimer.setTimerType(Qt::PreciseTimer);
    connect(&mTimer, &QTimer::timeout, this, &PreviewController::tick);
    if (viewport) {
        connect(viewport, &viewport::Viewport::previewPressed, this, &PreviewController::onPressed);
        connect(viewport, &viewport::Viewport::previewDragged, this, &PreviewController::onDragged);
        connect(viewport, &viewport::Viewport::previewReleased, this, &PreviewController::onReleased);
        connect(viewport, &viewport::Viewport::hoverMoved, this, [this](QPointF p) { onHover(p); });
        connect(viewport, &viewport::Viewport::hoverLeft, this, [this] { onHover(std::nullopt); });
        connect(viewport, &viewport::Viewport::panned, this, [this] {
            // The user looked elsewhere on purpose: stop pulling the view back to the body.
            if (mSession && mFollowBody) {
                mFollowBody = false;
                emit followBodyChanged(false);
            }
        });
    }
}

PreviewController::~PreviewController() = default;

bool PreviewController::ensureSession()
{
    if (mSession)
        return true;
    auto session = std::make_unique<editor::PreviewSession>();
    QString error;
    if (!startSession(*session, error)) {
        emit errorOccurred(error);
        return false;
    }
    session->setRecording(mRecording);
    mSession = std::move(session);
    mAnimationPose.reset();
    mRecentHit.reset();
    if (mViewport) // glide from where the user looks; a paused step moves there at once
        mFollow.reset(mViewport->camera().target(), mSession->centreOfMass());
    mAlpha = 1.f;
    mFrameMs.clear();
    if (mViewport)
        mViewport->setInteractionMode(viewport::InteractionMode::Preview);
    emit activeChanged(true);
    emit frameReady();
    return true;
}

bool PreviewController::play()
{
    if (!ensureSession())
        return false;
    if (!mTimer.isActive()) {
        mAccumulator = 0;
        mClock.start();
        mTimer.start();
        emit playingChanged(true);
    }
    return true;
}

void PreviewController::pause()
{
    if (!mTimer.isActive())
        return;
    mTimer.stop();
    mAlpha = 1.f;
    emit playingChanged(false);
    emit frameReady();
}

bool PreviewController::stepOnce()
{
    if (!ensureSession())
        return false;
    pause();
    mSession->step();
    mAlpha = 1.f;
    if (mRecentHit)
        mRecentHit->age += mSession->timeStep();
    follow(-1.);
    emit frameReady();
    return true;
}

void PreviewController::reset()
{
    if (!mSession)
        return;
    pause();
    mSession->reset();
    mSession->setRecording(mRecording);
    mDragDepth.reset();
    mRecentHit.reset();
    mAlpha = 1.f;
    follow(-1.);
    emit frameReady();
}

void PreviewController::stop()
{
    if (!mSession)
        return;
    pause();
    mSession.reset();
    mDragDepth.reset();
    mRecentHit.reset();
    if (mViewport)
        mViewport->setInteractionMode(viewport::InteractionMode::Edit);
    emit activeChanged(false);
    emit frameReady();
}

bool PreviewController::startFromAnimation(std::size_t clip, float clipTime)
{
    const auto mesh = mDocument->mesh();
    if (!mesh || clip >= mesh->animations.size()) {
        emit errorOccurred(tr("The mesh has no animation clip %1").arg(clip));
        return false;
    }
    if (!ensureSession())
        return false;
    pause();
    QString error;
    if (!mSession->startFromAnimation(*mesh, clip, clipTime, error)) {
        emit errorOccurred(error);
        return false;
    }
    mAnimationPose.reset();
    mRecentHit.reset();
    mAlpha = 1.f;
    follow(-1.);
    emit frameReady();
    return true;
}

void PreviewController::showAnimationPose(std::optional<std::pair<std::size_t, float>> clipTime)
{
    mAnimationPose = clipTime;
    emit frameReady();
}

bool PreviewController::seek(std::uint64_t step)
{
    if (!mSession)
        return false;
    pause();
    const bool ok = mSession->seek(step);
    mAlpha = 1.f;
    mRecentHit.reset();
    follow(-1.);
    emit frameReady();
    return ok;
}

void PreviewController::setIterations(std::uint32_t iterations)
{
    mSettings.iterations = iterations;
    if (mSession)
        mSession->setIterations(iterations);
}

void PreviewController::setTimeStep(float seconds)
{
    mSettings.timeStep = seconds;
    if (mSession)
        mSession->setTimeStep(seconds);
}

void PreviewController::setGravity(bool on)
{
    mSettings.gravity = on;
    if (mSession)
        mSession->setGravity(on);
}

void PreviewController::setRecording(bool on)
{
    mRecording = on;
    if (mSession)
        mSession->setRecording(on);
}

void PreviewController::tick()
{
    if (!mSession)
        return;
    QElapsedTimer work;
    work.start();
    const double elapsed = double(mClock.nsecsElapsed()) * 1e-9;
    mClock.restart();
    const double dt = double(mSession->timeStep());
    // The accumulator (DESIGN.md §2): leftover time carries to the next frame; a long stall is cut to
    // kMaxStepsPerFrame steps so it cannot spiral.
    mAccumulator = std::min(mAccumulator + elapsed * double(mSpeed), dt * kMaxStepsPerFrame);
    while (mAccumulator >= dt) {
        mSession->step();
        mAccumulator -= dt;
    }
    mAlpha = float(mAccumulator / dt);
    if (mRecentHit)
        mRecentHit->age += float(elapsed);
    follow(elapsed);
    emit frameReady();
    mFrameMs.push_back(double(work.nsecsElapsed()) * 1e-6);
    if (mFrameMs.size() > kFrameSamples)
        mFrameMs.erase(mFrameMs.begin());
}

PreviewController::FrameTimes PreviewController::frameTimes() const
{
    FrameTimes t;
    t.frames = mFrameMs.size();
    if (mFrameMs.empty())
        return t;
    std::vector<double> sorted = mFrameMs;
    std::sort(sorted.begin(), sorted.end());
    t.medianMs = sorted[sorted.size() / 2];
    t.maxMs = sorted.back();
    return t;
}

void PreviewController::decorate(viewport::ViewportScene& scene) const
{
    const auto mesh = mDocument->mesh();
    if (!mSession) {
        if (mAnimationPose && mesh)
            scene.bonePalette = editor::animationPalette(*mesh, mAnimationPose->first, mAnimationPose->second,
                editor::sceneTopHeight(mSettings.scene)); // where startFromAnimation() will put it
        return;
    }
    // The drawn pose lags the simulation by (1 − alpha) of a step, blending the last two steps.
    const float alpha = mTimer.isActive() ? mAlpha : 1.f;
    scene.particlePositions = mSession->interpolatedPositions(alpha);
    if (mesh && mesh->skeleton.size() == mDocument->rig().bones.size())
        scene.bonePalette = mSession->skinningPalette(alpha);
    scene.stickStrain = mSession->stickStrain();
    scene.angularViolation = mSession->angularViolation();
    scene.contactPoints = mSession->contactPoints();
    for (const auto& box : editor::visibleBoxes(mSession->sceneGeometry()))
        scene.staticBoxes.push_back({box.pose, box.halfExtents});
    scene.selection.clear();
    scene.focus = mSession->centreOfMass(alpha);
    if (mTool == PreviewTool::Hit && mHover && mViewport) {
        const viewport::Ray ray = mViewport->rayAt(*mHover);
        if (const auto hit = mSession->hitRay(ray.origin, ray.direction)) {
            const Vec3 impulse = impulseFor(*hit, ray.direction);
            scene.impulseArrows.push_back({hit->point, normalizeOr(impulse, ray.direction), arrowLength(mHitStrength), 1.f});
        }
    }
    if (mRecentHit && mRecentHit->age < kHitArrowSeconds) {
        const RecentHit& h = *mRecentHit;
        const float fade = 1.f - 0.7f * h.age / kHitArrowSeconds; // still clear at the end, then gone
        scene.impulseArrows.push_back({anchorOf(h.kind, h.index, h.t) + h.offset, h.direction, h.length, fade});
    }
    const editor::PreviewStats& s = mSession->stats();
    const FrameTimes frames = frameTimes();
    scene.overlayLines = {
        tr("step %1   t %2 s   %3×%4").arg(mSession->stepIndex()).arg(double(mSession->time()), 0, 'f', 2)
            .arg(mSpeed == 1.f ? QStringLiteral("1") : QStringLiteral("1/%1").arg(double(1.f / mSpeed), 0, 'g', 3))
            .arg(mRecording ? tr("   ● recording") : QString()),
        tr("step %1 µs   %2 substeps × %3 iterations   dt %4 ms").arg(s.stepMicroseconds, 0, 'f', 1)
            .arg(mDocument->rig().settings.substeps)
            .arg(mSettings.iterations ? mSettings.iterations : mDocument->rig().settings.iterations)
            .arg(double(mSession->timeStep()) * 1000.0, 0, 'f', 2),
        tr("max stick error %1 mm   limit excess %2°   contacts %3%4").arg(double(s.maxStickError) * 1000.0, 0, 'f', 1)
            .arg(double(s.maxAngularViolation) * 180.0 / 3.14159265358979, 0, 'f', 1).arg(s.contacts)
            .arg(s.asleep ? tr("   asleep") : QString()),
        tr("worst stick %1 %%%2 (impact %3 %%)   worst limit %4°%5   %6")
            .arg(double(s.worstStickError) * 100.0, 0, 'f', 2)
            .arg(s.worstStick >= 0 ? QStringLiteral(" ") + QString::fromStdString(mSession->compiledStickName(s.worstStick)) : QString())
            .arg(double(s.impactStickError) * 100.0, 0, 'f', 2)
            .arg(double(s.worstLimitExcess) * 180.0 / 3.14159265358979, 0, 'f', 2)
            .arg(s.worstLimit >= 0 ? QStringLiteral(" ") + QString::fromStdString(mDocument->rig().angular[std::size_t(s.worstLimit)].name) : QString())
            .arg(s.settledAt >= 0.f ? tr("settled at %1 s").arg(double(s.settledAt), 0, 'f', 2) : tr("moving")),
        tr("frame %1 ms median, %2 ms max").arg(frames.medianMs, 0, 'f', 2).arg(frames.maxMs, 0, 'f', 2),
    };
    decorateDriven(scene); // after the lines above: it adds its own
}

void PreviewController::onPressed(QPointF pixel, Qt::KeyboardModifiers)
{
    if (!mSession || !mViewport)
        return;
    const viewport::Ray ray = mViewport->rayAt(pixel);
    switch (mTool) {
    case PreviewTool::Drag: {
        const std::optional<viewport::Pick> pick = mViewport->pickAt(pixel);
        if (!pick || pick->element.kind != project::ElementKind::Particle || pick->index < 0)
            return;
        const Vec3 grabbed = mSession->positions()[std::size_t(pick->index)];
        mDragDepth = grabbed;
        mSession->beginDrag(std::uint32_t(pick->index), grabbed);
        break;
    }
    case PreviewTool::Hit: {
        const auto hit = mSession->hitRay(ray.origin, ray.direction);
        if (!hit)
            return;
        const Vec3 impulse = impulseFor(*hit, ray.direction);
        if (hit->kind == editor::HitPoint::Kind::Stick)
            mSession->hitStick(hit->index, hit->t, impulse);
        else
            mSession->hitParticle(hit->index, impulse);
        RecentHit recent;
        recent.kind = hit->kind;
        recent.index = hit->index;
        recent.t = hit->t;
        recent.offset = hit->point - anchorOf(hit->kind, hit->index, hit->t);
        recent.direction = normalizeOr(impulse, ray.direction);
        recent.length = arrowLength(mHitStrength);
        mRecentHit = recent;
        break;
    }
    case PreviewTool::Explode: {
        const auto hit = mSession->hitRay(ray.origin, ray.direction);
        const Vec3 centre = hit ? hit->point - ray.direction * 0.3f : ray.at(3.f);
        mSession->explode(centre, mHitStrength * 20.f, 2.f);
        break;
    }
    }
    emit frameReady();
}

void PreviewController::onDragged(QPointF pixel)
{
    if (!mSession || !mViewport || !mDragDepth)
        return;
    if (const auto target = mViewport->pointAtDepth(pixel, *mDragDepth))
        mSession->updateDrag(*target);
}

void PreviewController::onReleased(QPointF)
{
    if (!mSession || !mDragDepth)
        return;
    mSession->endDrag();
    mDragDepth.reset();
}

} // namespace marionette::app
