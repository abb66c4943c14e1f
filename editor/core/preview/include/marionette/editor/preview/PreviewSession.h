// Marionette — the editor's headless preview: a rig simulated through the shipping runtime (docs/preview.md).
//
// start() writes the rig to `.mrig` bytes and loads them with runtime::Rig::loadFromMemory (what ships is what
// is previewed), builds a World with a test scene and drops the ragdoll. step() runs one fixed step. Everything
// the artist does to the simulation (hits, explosions, drags, live setting changes) is an *event* stamped with
// the step index it happens at and applied at the start of the next step(), in a fixed order: setting changes,
// drive changes (a driven preview's profile changes, kills and get-ups; startDriven()), drag pins, hits,
// explosions. Live interaction and scenario replay therefore take the same code path, and a
// recorded session replays bit for bit. Events from seek() back in time are re-simulated from the start, so
// the restored state is exact (solver caches and sleep timers included).
//
// Not thread-safe; call from one thread. No Qt object: a plain class the UI owns.
#pragma once

#include "marionette/Math.h"
#include "marionette/editor/preview/TestScenes.h"
#include "marionette/import/ImportedScene.h"
#include "marionette/project/Project.h"
#include "marionette/rig/RigDescription.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace marionette::runtime {
class Rig;
class Ragdoll;
class World;
} // namespace marionette::runtime

namespace marionette::editor {

/// How start() sets a preview up.
struct PreviewSettings {
    project::Scene scene = project::Scene::Floor;
    float dropHeight = 0.f;            ///< metres from sceneTopHeight(scene) to the lowest particle sphere
    project::InitialRotation rotation; ///< about the bind pose's bounding-box centre
    bool gravity = true;               ///< false: no gravity (the rig's gravity vector otherwise)
    std::uint32_t iterations = 0;      ///< 0 = the rig's; else [1, 64]
    float timeStep = 0.f;              ///< 0 = the rig's; else (0, 0.1] seconds
    std::size_t historySteps = 600;    ///< states kept for scrubbing (>= 1)
    /// Set: the ragdoll is spawned with exactly this placement instead of the centred drop above (a level
    /// of detail is compared with its full rig from the full rig's placement, LodMeasure.h).
    std::optional<Transform> placement;
};

/// Measurements of the last step (stats()).
struct PreviewStats {
    double stepMicroseconds = 0.;    ///< wall time of World::step()
    float maxStickError = 0.f;       ///< metres, largest |L − clamp(L, min, max)| over sticks (runtime)
    float maxAngularViolation = 0.f; ///< radians, max of angularViolation()
    float maxPenetration = 0.f;      ///< metres, deepest particle sphere inside the floor or a box
    std::uint32_t contacts = 0;      ///< particles touching the scene (contactPoints().size())
    bool asleep = false;
    // Since the start, as `marionette simulate` reports them:
    float worstStickError = 0.f;     ///< largest |L − clamp(L)| / rest length so far
    std::int32_t worstStick = -1;    ///< the compiled stick it belongs to (runtime::Rig::stickName), or -1
    float impactStickError = 0.f;    ///< the same over the 0.5 s after the first contact
    float firstContact = -1.f;       ///< seconds: when a particle first touched the scene, or -1
    float worstLimitExcess = 0.f;    ///< radians, largest angular-limit excess so far
    std::int32_t worstLimit = -1;    ///< the angular constraint it belongs to, or -1
    float settledAt = -1.f;          ///< seconds: since when every particle moves slower than 5 cm/s, or -1
};

/// What hitRay() found: a stick capsule (t along it, 0 = end a) or a particle sphere.
struct HitPoint {
    enum class Kind { Particle, Stick };
    Kind kind = Kind::Particle;
    std::uint32_t index = 0; ///< particle or description-stick index
    float t = 0.f;           ///< stick hits: closest point of the stick's axis to `point`, [0, 1]
    Vec3 point;              ///< where the ray enters the shape
    float distance = 0.f;    ///< along the ray from its origin, >= 0
};

class PreviewSession {
public:
    PreviewSession();
    ~PreviewSession();
    PreviewSession(const PreviewSession&) = delete;
    PreviewSession& operator=(const PreviewSession&) = delete;

    // ---- set-up ------------------------------------------------------------------------------------------
    /// Builds the `.mrig` of `rig` in memory, loads it, builds the world and drops the ragdoll (bind pose,
    /// centred over the drop point, rotated, lowest sphere dropHeight above the scene's top); step 0 is
    /// recorded in the history. On failure returns false with `error` set to one line; the session is then
    /// empty (isRunning() false).
    bool start(const rig::RigDescription& rig, const PreviewSettings& settings, QString& error);
    /// start() with the scenario's scene, drop height and rotation, its hits, drags, explosions and setting
    /// changes scheduled at their frames, and, when it has an animation start, the ragdoll placed on that
    /// clip of `mesh` (the project's source mesh; required then, else an error naming the clip). Its events
    /// and its animation start are part of the session's start: reset() keeps them.
    bool startScenario(const rig::RigDescription& rig, const project::Scenario& scenario, QString& error,
                       const import::ImportedScene* mesh = nullptr,
                       const std::optional<Transform>& placement = std::nullopt);
    /// Back to exactly the start state: the same placement bit for bit, step 0, live events, history and
    /// recording cleared (a scenario's scheduled events and animation start are kept; a live animation
    /// start is dropped).
    void reset();
    bool isRunning() const;
    const PreviewSettings& settings() const { return mSettings; }
    /// Where the ragdoll was spawned (a clip start excepted): the drop's placement, requires isRunning().
    const Transform& placement() const { return mPlacement; }

    // ---- time --------------------------------------------------------------------------------------------
    /// One fixed step: applies the events due now, steps the world, updates stats(), records the history.
    void step();
    std::uint64_t stepIndex() const; ///< steps taken since the start (the state shown is "step stepIndex()")
    float time() const;              ///< seconds simulated (sum of the time steps taken)
    float timeStep() const;          ///< the step the next step() takes

    // ---- live changes (take effect at the next step; the state carries over exactly) -------------------
    void setIterations(std::uint32_t iterations); ///< [1, 64]; others are ignored
    void setTimeStep(float seconds);              ///< (0, 0.1]; velocities are kept (x* rescaled)
    void setGravity(bool on);
    std::uint32_t iterations() const;
    bool gravity() const;

    // ---- interaction (applied at the start of the next step) ---------------------------------------------
    void hitParticle(std::uint32_t particle, Vec3 impulse);
    /// Impulse at lerp(a, b, t) of description stick `stick`, split by barycentric weight.
    void hitStick(std::uint32_t stick, float t, Vec3 impulse);
    /// Nearest stick capsule (capsuleRadius, or for rigid sticks without one the smaller end radius) or
    /// particle sphere hit by the ray (origin, dir) at the current positions; nullopt when none.
    std::optional<HitPoint> hitRay(Vec3 origin, Vec3 dir) const;
    /// The unit normal of the struck shape at `hit.point`, pointing into it: toward the sphere's centre for a
    /// particle, toward the closest point of the stick's axis (lerp(a, b, hit.t)) for a capsule, at the
    /// current positions. Zero when the point is at that centre or axis, or the hit names nothing.
    Vec3 hitNormal(const HitPoint& hit) const;
    /// Explosion (Ragdoll::applyExplosion): velocity change strength / max(d², 0.25²) m/s within radius.
    void explode(Vec3 centre, float strength, float radius);
    /// Drag: a kinematic pin (Jakobsen's IK: inverse mass 0, placed on the target each iteration) that
    /// follows the target in steps of at least 1 cm (each a recorded drag segment); released by endDrag().
    void beginDrag(std::uint32_t particle, Vec3 target);
    void updateDrag(Vec3 target);
    void endDrag();
    bool dragging() const { return mDrag.active; }
    std::uint32_t draggedParticle() const { return mDrag.particle; }
    Vec3 dragTarget() const { return mDrag.target; } ///< the target the pin holds (last 1 cm step)

    // ---- animation hand-off (Jakobsen's motion control) -------------------------------------------------
    /// Restarts the session (as reset()) with the ragdoll placed on `clip` of `mesh` at clipTime and its
    /// previous positions at clipTime − timeStep(), so it inherits the clip's velocity. Poses are model space
    /// raised by sceneTopHeight(); each particle follows its bone (by name in mesh.skeleton) or else the bone
    /// whose bind head is nearest. False with `error` when the session is not running or the clip is bad.
    bool startFromAnimation(const import::ImportedScene& mesh, std::size_t clip, float clipTime, QString& error);
    /// Skinning palette (boneWorld · inverseBind per mesh.skeleton bone, raised by sceneTopHeight() as above)
    /// of `clip` at time t, to play the clip on the mesh before the switch. Empty for a bad clip index.
    std::vector<Mat4> animationPalette(const import::ImportedScene& mesh, std::size_t clip, float t) const;

    // ---- driven preview (powered ragdolls; docs/preview.md "Driven preview") ------------------------------
    /// Starts a driven preview: the ragdoll spawned on `play.clip`'s first pose of `mesh` (raised by sceneTopHeight as
    /// startFromAnimation does), its drives set to `play.profile`, and every step the clip (looped, its root motion
    /// carried on from loop to loop) set as its pose target. Hits, drags, explosions, setting changes, seek, reset and
    /// recording work as in a drop. False with `error` (one line naming the clip/profile) on a bad clip or profile.
    /// `mesh` must outlive the session's driven run (until the next start).
    bool startDriven(const rig::RigDescription& rig, const PreviewSettings& settings, const import::ImportedScene& mesh,
                     const project::DrivenPlay& play, QString& error);
    /// True from startDriven() (or a driven startScenario()) until start() or startFromAnimation(); reset(),
    /// seek() and setting changes keep it.
    bool isDriven() const;
    const std::optional<project::DrivenPlay>& drivenPlay() const;
    /// Events applied at the start of the next step (recorded as DriveChanges), like hits:
    /// Blends the drives to `profile` over blendSeconds ([0, 60]); while getting up, sets the profile the play
    /// resumes with instead; while limp, the drives come back on (the body pulled toward the clip where it plays).
    bool setDriveProfile(const QString& profile, float blendSeconds, QString& error); ///< unknown name: false, nothing changes
    void kill(float blendSeconds);                      ///< every drive blends to limp (Ragdoll::goLimp); [0, 60]
    /// From the body's bone palette, the get-up clip that lies as it lies (chooseGetUp), the body pinned and
    /// turned stiffly (20 Hz) toward the palette blended from the body into the clip over blendSeconds ([0, 60]);
    /// at its end the play resumes from where the get-up ended.
    bool getUp(float blendSeconds, QString& error);      ///< false when not driven or no get-up clip is set
    enum class DrivePhase { Off, Playing, Limp, GettingUp };
    DrivePhase drivePhase() const;
    /// The profile in force (or being blended to); "" when limp/off; while getting up, the one the play resumes with.
    QString driveProfile() const;
    /// Per runtime::Rig::driveParts() entry: the part's tracking error now (Ragdoll::partTrackingError); empty when not
    /// driven. Parts without a target get -1 in both fields.
    struct PartError { float metres = -1.f; float radians = -1.f; };
    std::vector<PartError> partTrackingErrors() const;
    /// The bone palette (world matrices per rig bone) the drives follow at the current step: the clip's, or the
    /// get-up's blend; empty when not driven.
    std::span<const Mat4> driveTarget() const;

    // ---- reading -----------------------------------------------------------------------------------------
    std::span<const Vec3> positions() const;
    std::vector<Vec3> interpolatedPositions(float alpha) const;
    /// The body's centre of mass at interpolatedPositions(alpha): the mass-weighted mean of the particles
    /// (kinematic ones, of mass 0, do not count; the plain mean when every particle is kinematic).
    Vec3 centreOfMass(float alpha = 1.f) const;
    /// The runtime's skinning matrices (one per rig bone), interpolated between the last two steps.
    std::vector<Mat4> skinningPalette(float alpha) const;
    const runtime::Ragdoll& ragdoll() const; ///< requires isRunning()
    const rig::RigDescription& rig() const;  ///< the rig as loaded from the .mrig bytes
    const SceneGeometry& sceneGeometry() const { return mGeometry; }

    // ---- feedback ----------------------------------------------------------------------------------------
    const PreviewStats& stats() const { return mStats; }
    /// Per description stick: rigid L/rest − 1; range/min/max (L − limit)/limit outside the limits, 0 inside;
    /// 0 for a torn stick.
    std::vector<float> stickStrain() const;
    /// The name `marionette simulate` gives compiled stick k (PreviewStats::worstStick), or "".
    std::string compiledStickName(std::int32_t k) const;
    /// Per angular constraint: radians beyond its limit, 0 inside (see docs/preview.md).
    std::vector<float> angularViolation() const;
    /// Nearest scene surface point of every particle within radius + 5 mm of the floor or a box.
    std::vector<Vec3> contactPoints() const;

    // ---- history -----------------------------------------------------------------------------------------
    /// Steps held: [historyBegin(), historyEnd()) (half-open; historyEnd() − 1 is the newest).
    std::uint64_t historyBegin() const;
    std::uint64_t historyEnd() const;
    /// Positions of a held step without seeking (cheap scrubbing); empty when not held.
    std::span<const Vec3> historyPositions(std::uint64_t step) const;
    /// The skinning palette the viewport showed at a held step (skinningPalette(1) then); empty when not held.
    std::span<const Mat4> historyPalette(std::uint64_t step) const;
    /// Seconds simulated at a held step; -1 when not held.
    double historyTime(std::uint64_t step) const;
    /// Restores step `step` exactly (re-simulated from the start), drag ended; the history after it is kept
    /// until the next step() or interaction, which discards it with the live events after it.
    bool seek(std::uint64_t step);

    // ---- recording ---------------------------------------------------------------------------------------
    /// While on, hits, drags, explosions and setting changes are recorded. Record from step 0 for an exact
    /// replay.
    void setRecording(bool on);
    bool recording() const { return mRecording; }
    /// Scene, drop height, rotation, duration (the time simulated), the recorded (plus scheduled) hits, drags,
    /// explosions and setting changes (one per frame; at frame 0 also the start's iteration, step and gravity
    /// overrides, since a scenario starts with the rig's settings), and the animation start if the session
    /// was started from a clip.
    project::Scenario recordedScenario(const QString& name, const project::Expectations& expect) const;

private:
    struct Event;
    struct History;
    struct Sim;
    struct Drive;
    struct DragState {
        bool active = false;
        std::uint32_t particle = 0;
        Vec3 target;
    };

    void restart();
    void applyEvents();
    void diverge();
    void addEvent(Event e);
    void record();
    void updateStats(double micros);
    /// Measures the step just taken into the run's figures (a fresh run's first step starts them anew).
    void measureRun();
    // Driven preview (PreviewSessionDriven.cpp).
    void placeDriven();                      ///< restart(): the body on the play's first pose, drives on
    void applyDriveEvent(const Event& e);    ///< a DriveProfile, DriveKill or DriveGetUp event
    void driveBeforeStep();                  ///< the pose target of the step about to be taken
    void redoDrive(const std::vector<rig::DriveGains>& gains); ///< after a rebuild: the drives as they were
    /// Validates a drive event's input; the profile index in runtime::Rig::driveProfiles() or -1 with `error`.
    std::int64_t driveProfileIndex(const QString& profile, QString& error) const;

    PreviewSettings mSettings;
    rig::RigDescription mSource;               ///< as given to start()
    std::shared_ptr<const runtime::Rig> mRig;  ///< loaded from the .mrig bytes
    std::unique_ptr<Sim> mSim;
    std::vector<Event> mEvents;                ///< sorted by frame (stable)
    std::size_t mNextEvent = 0;                ///< first event not applied yet
    std::unique_ptr<History> mHistory;
    Transform mPlacement;
    SceneGeometry mGeometry;
    PreviewStats mStats;
    DragState mDrag;
    bool mRecording = false;
    bool mHasFuture = false;                   ///< seek() went back: the next change discards the future
    std::vector<Vec3> mAnimCurrent, mAnimPrevious; ///< animation start pose (empty: bind placement)
    std::vector<Mat4> mAnimPalette;                ///< the clip's palette per rig bone at the switch
    std::optional<project::AnimationStart> mAnimStart; ///< the clip and time the session started from
    bool mAnimScripted = false;                    ///< the animation start is a scenario's: reset() keeps it
    std::optional<project::DrivenPlay> mDriven;    ///< set: a driven preview (startDriven)
    std::unique_ptr<Drive> mDrive;                 ///< the driven preview's clips, resolved (set with mDriven)
};

} // namespace marionette::editor
