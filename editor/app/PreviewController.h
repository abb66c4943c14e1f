// Marionette editor — the preview (DESIGN.md §9, docs/preview.md): runs the rig through the runtime in the
// viewport. Play builds the .mrig in memory and loads it (editor/core PreviewSession), so what the artist
// sees is what the game gets. The controller owns the session, drives it at a fixed step from a display
// timer with an accumulator (slow motion scales the clock, at most four steps per frame), turns viewport
// presses into drags, hits and explosions, and hands the simulated pose, the skinning palette and the
// feedback (strain, limits, contacts, numbers) to the viewport. Editing is locked while a session exists.
#pragma once

#include "marionette/editor/document/Document.h"
#include "marionette/editor/preview/HitDirection.h"
#include "marionette/editor/preview/PreviewSession.h"
#include "viewport/CameraFollow.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointF>
#include <QTimer>

#include <memory>
#include <optional>
#include <vector>

namespace marionette::viewport {
class Viewport;
struct ViewportScene;
}

namespace marionette::app {

enum class PreviewTool { Drag, Hit, Explode };

class PreviewController : public QObject {
    Q_OBJECT
  public:
    PreviewController(editor::Document* document, viewport::Viewport* viewport, QObject* parent = nullptr);
    ~PreviewController() override;

    /// A session exists: the viewport shows the simulation and editing is locked.
    bool isActive() const { return mSession != nullptr; }
    bool isPlaying() const { return mTimer.isActive(); }
    editor::PreviewSession* session() const { return mSession.get(); }

    editor::PreviewSettings& settings() { return mSettings; }
    /// Simulated seconds per real second: 1, 1/2, 1/4, 1/10 ...
    void setSpeed(float speed) { mSpeed = speed; }
    float speed() const { return mSpeed; }
    void setTool(PreviewTool tool);
    PreviewTool tool() const { return mTool; }
    /// Impulse of the hit tool, N·s; explosions use 20× this as their strength.
    void setHitStrength(float newtonSeconds);
    float hitStrength() const { return mHitStrength; }
    /// Which way the hit tool strikes (HitDirection.h): along the view ray, into the surface, or level.
    void setHitDirection(editor::HitDirection mode);
    editor::HitDirection hitDirection() const { return mHitDirection; }
    /// Length of the hit tool's arrow for an impulse: 0.25 m × √(J / 10 N·s) (0.35 m at the default 20 N·s).
    static float arrowLength(float newtonSeconds);
    /// How long (seconds of play) the arrow of a hit stays drawn after the click, fading out.
    static constexpr float kHitArrowSeconds = 0.6f;

    /// Follow Body: while previewing, the camera's orbit target follows the body's centre of mass
    /// (viewport::CameraFollow: a 2 cm dead zone, critically damped) keeping the orbit angles and distance.
    /// While playing the target glides; a step, seek or reset while paused moves it at once; it holds still
    /// while a particle is dragged. A pan by the user turns it off (followBodyChanged(false)).
    void setFollowBody(bool on);
    bool followBody() const { return mFollowBody; }
    void setIterations(std::uint32_t iterations);
    void setTimeStep(float seconds);
    void setGravity(bool on);
    void setRecording(bool on);
    bool isRecording() const { return mRecording; }

    /// Starts (a session from the document's rig, if none) and runs. False with errorOccurred on failure.
    bool play();
    void pause();
    /// One fixed step (starting a session first if needed); pauses.
    bool stepOnce();
    /// Back to the start state of the session (the drop pose, bit for bit), paused.
    void reset();
    /// Ends the session: the viewport shows the rig being edited again and editing is unlocked.
    void stop();
    /// Starts a session from an animation clip of the mesh at `clipTime`, inheriting its velocity.
    bool startFromAnimation(std::size_t clip, float clipTime);
    /// Shows a clip's pose on the mesh (before switching to physics); nullopt clears it.
    void showAnimationPose(std::optional<std::pair<std::size_t, float>> clipTime);
    /// Goes back (or forward) to a step held in the history; pauses.
    bool seek(std::uint64_t step);

    // ---- driven preview (powered ragdolls; PreviewControllerDrive.cpp, docs/preview.md "Driven preview") ----
    /// The mesh's clip Play plays through the rig's drives (PreviewSession::startDriven); empty = the ordinary
    /// drop. Changed while previewing, the preview starts again in the new mode (playing if it was).
    void setDrivenClip(const QString& clip);
    QString drivenClip() const { return mDrivenClip; }
    /// The drive profile a driven preview starts with; while one runs, the drives blend to it over
    /// kDriveBlendSeconds. False (with errorOccurred) when the running preview refuses the name.
    bool setDriveProfile(const QString& profile);
    /// The profile a driven preview starts with: the one set if the rig has it, else "balanced", else the
    /// rig's first; empty when the rig has no profile.
    QString startProfile() const;
    /// Every drive blends to limp over kDriveBlendSeconds. False when no driven preview runs.
    bool kill();
    /// The body gets up with the get-up clip that lies as it lies (getUpClips()). False (with errorOccurred)
    /// when no driven preview runs or the mesh has no get-up clip.
    bool getUp();
    /// The mesh's clips a get-up chooses among: those whose names start with "getup".
    QStringList getUpClips() const;
    /// "walk · balanced · playing" for the status bar; empty when no driven preview runs.
    QString driveStatus() const;
    static constexpr float kDriveBlendSeconds = 0.3f;
    /// The tracking tolerance the viewport's colours are scaled by (the driven walk's targets: 3 cm, 5°).
    static constexpr float kTrackingMetres = 0.03f;
    static constexpr float kTrackingRadians = 5.f * 3.14159265358979f / 180.f;

    /// Adds the preview's state to a scene the main window built from the document.
    void decorate(viewport::ViewportScene& scene) const;

    struct FrameTimes {
        double medianMs = 0, maxMs = 0; ///< time the UI thread spent in one display frame (stepping + scene)
        std::size_t frames = 0;
    };
    FrameTimes frameTimes() const;

  signals:
    void activeChanged(bool active);
    void playingChanged(bool playing);
    /// The pose shown changed (a step, a seek, a reset): redraw.
    void frameReady();
    void errorOccurred(const QString& message);
    /// The driven clip, the profile, a kill or a get-up was asked for (the tool bar's controls follow).
    void driveChanged();
    /// Follow Body was turned on or off (also by a pan in the viewport).
    void followBodyChanged(bool on);

  private:
    bool ensureSession();
    /// Starts `session` as the settings say: a drop, or the driven clip (false with `error`).
    bool startSession(editor::PreviewSession& session, QString& error);
    /// The driven preview's colours and line in the viewport (tracking error per part).
    void decorateDriven(viewport::ViewportScene& scene) const;
    void tick();
    void onPressed(QPointF pixel, Qt::KeyboardModifiers modifiers);
    void onDragged(QPointF pixel);
    void onReleased(QPointF pixel);
    void onHover(std::optional<QPointF> pixel);
    /// Moves the camera's target toward the body: glides by `seconds` while playing; snaps when negative.
    void follow(double seconds);
    /// The impulse of a hit at `hit` for the ray under the cursor (the mode's direction × strength).
    Vec3 impulseFor(const editor::HitPoint& hit, Vec3 rayDirection) const;
    /// Where the struck shape of `hit` is now (the particle, or the point at t along the stick).
    Vec3 anchorOf(editor::HitPoint::Kind kind, std::uint32_t index, float t) const;

    editor::Document* mDocument;
    viewport::Viewport* mViewport;
    std::unique_ptr<editor::PreviewSession> mSession;
    editor::PreviewSettings mSettings;
    QTimer mTimer;
    QElapsedTimer mClock;
    double mAccumulator = 0;
    float mAlpha = 1.f;
    float mSpeed = 1.f;
    float mHitStrength = 20.f;
    editor::HitDirection mHitDirection = editor::HitDirection::ViewRay;
    bool mFollowBody = true;
    viewport::CameraFollow mFollow;
    std::optional<QPointF> mHover; ///< the cursor over the viewport, for the hit tool's arrow
    struct RecentHit {
        editor::HitPoint::Kind kind = editor::HitPoint::Kind::Particle;
        std::uint32_t index = 0;
        float t = 0.f;
        Vec3 offset;       ///< from the anchor (anchorOf) to the point struck
        Vec3 direction;
        float length = 0.f;
        float age = 0.f;   ///< seconds of play since the click
    };
    std::optional<RecentHit> mRecentHit;
    PreviewTool mTool = PreviewTool::Drag;
    bool mRecording = false;
    std::optional<Vec3> mDragDepth; ///< the dragged particle's position when grabbed: the drag plane
    std::optional<std::pair<std::size_t, float>> mAnimationPose;
    std::vector<double> mFrameMs;
    QString mDrivenClip;   ///< empty: a drop
    QString mDriveProfile; ///< asked for (startProfile() resolves it)
    std::shared_ptr<const import::ImportedScene> mDrivenMesh; ///< the driven session's mesh, kept alive
};

} // namespace marionette::app
