// Shared by the suites that show the Viewport widget in a real window (tst_viewport, tst_viewportpreview):
// the common fixture, camera, display options, pixel checks and a base that creates, shows and grabs the
// viewport.
#pragma once

#include "ViewportTestSupport.h"

#include "viewport/Camera.h"
#include "viewport/DisplayOptions.h"
#include "viewport/Viewport.h"
#include "viewport/ViewportColours.h"
#include "viewport/ViewportScene.h"

#include <QImage>
#include <QSize>
#include <QString>
#include <QTest>

#include <cstdlib>
#include <memory>
#include <optional>

namespace marionette::test {

/// Two particles (radius 0.1) and a rigid stick on the left, at y = 0.5 from x = −0.5 to 0; a particle
/// (radius 0.08) inside a red box mesh [0.8, 1.3] × [0.2, 0.8] × [−0.25, 0.25] on the right.
struct StickAndBoxFixture {
    rig::RigDescription rig;
    import::ImportedScene mesh;
    viewport::ViewportScene scene;

    StickAndBoxFixture()
    {
        rig.particles = {particle(1, {-0.5f, 0.5f, 0}, 0.1f), particle(2, {0.f, 0.5f, 0}, 0.1f),
                         particle(3, {1.05f, 0.5f, 0}, 0.08f)};
        rig.sticks = {stick(10, 0, 1)};
        mesh = boxScene({0.8f, 0.2f, -0.25f}, {1.3f, 0.8f, 0.25f});
        import::ImportedMaterial red;
        red.baseColor = {1.f, 0.f, 0.f, 1.f};
        mesh.materials = {red};
        mesh.meshes[0].material = 0;
        scene.rig = &rig;
        scene.mesh = &mesh;
    }
    StickAndBoxFixture(const StickAndBoxFixture&) = delete; // scene points into it
    StickAndBoxFixture& operator=(const StickAndBoxFixture&) = delete;
};

/// Default display options without grid and ground, so everything not drawn on purpose is background.
inline viewport::DisplayOptions plainOptions()
{
    viewport::DisplayOptions o;
    o.showGrid = false;
    o.showGround = false;
    return o;
}

/// The front view (looking down −Z) at `target` from `distance` metres, for a viewport of `size`.
inline viewport::Camera frontCamera(QSize size, Vec3 target = {0, 0.5f, 0}, float distance = 4.f)
{
    viewport::Camera c;
    c.setViewportSize(size);
    c.setView(viewport::Camera::View::Front);
    c.setTarget(target);
    c.setDistance(distance);
    return c;
}

/// The viewport's background colour, within 3 per channel.
inline bool isBackground(QRgb c)
{
    const viewport::Colour b = viewport::colours::kBackground;
    return std::abs(qRed(c) - int(b.r * 255.f + 0.5f)) <= 3 && std::abs(qGreen(c) - int(b.g * 255.f + 0.5f)) <= 3 &&
           std::abs(qBlue(c) - int(b.b * 255.f + 0.5f)) <= 3;
}

/// "rgb(r, g, b)" for failure messages.
inline QString describe(QRgb c)
{
    return QStringLiteral("rgb(%1, %2, %3)").arg(qRed(c)).arg(qGreen(c)).arg(qBlue(c));
}

/// Base of the suites that show the widget: a Viewport of a fixed size showing a StickAndBoxFixture
/// through frontCamera() with plainOptions(). The suite calls showFixture() in init() and dropFixture() in
/// cleanup().
class ShownViewport {
protected:
    explicit ShownViewport(QSize size) : mSize(size) {}

    /// Creates the fixture and the viewport and shows it; "" or why the viewport cannot be used.
    QString showFixture()
    {
        mFixture = std::make_unique<StickAndBoxFixture>();
        mView = std::make_unique<viewport::Viewport>();
        mView->setFixedSize(mSize);
        mView->setCamera(frontCamera(mSize));
        mView->setDisplayOptions(plainOptions());
        mView->setScene(mFixture->scene);
        mView->show();
        if (!QTest::qWaitForWindowExposed(mView.get()))
            return QStringLiteral("the window was not exposed");
        return mView->isUsable() ? QString() : mView->failureReason();
    }

    void dropFixture()
    {
        mView.reset();
        mFixture.reset();
    }

    /// The framebuffer in logical pixels (scaled when the device pixel ratio is not 1).
    QImage render()
    {
        QImage image = mView->grabFramebuffer();
        if (image.size() != mSize)
            image = image.scaled(mSize);
        return image;
    }

    /// The widget pixel `p` projects to, or (−1, −1) behind the camera.
    QPoint pixelOf(Vec3 p) const
    {
        const std::optional<QPointF> s = mView->camera().project(p, mView->size());
        return s ? s->toPoint() : QPoint(-1, -1);
    }

    const QSize mSize;
    std::unique_ptr<StickAndBoxFixture> mFixture;
    std::unique_ptr<viewport::Viewport> mView;
};

} // namespace marionette::test
