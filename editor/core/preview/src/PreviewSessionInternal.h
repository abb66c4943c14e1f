// PreviewSession's private parts: events, the history ring and the simulation (world + ragdoll).
#pragma once

#include "marionette/editor/preview/ClipPlayback.h"
#include "marionette/editor/preview/GetUp.h"
#include "marionette/editor/preview/PreviewSession.h"
#include "marionette/editor/preview/RunFigures.h"

#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <map>
#include <optional>

namespace marionette::editor {

/// A drag target moves the pin only once it is this far (metres) from the pin's target: each move is one
/// recorded drag segment.
constexpr float kDragStep = 0.01f;

struct PreviewSession::Event {
    enum class Kind {
        Iterations, TimeStep, Gravity, DragSet, DragRelease, HitParticle, HitStick, Explosion,
        DriveProfile, DriveKill, DriveGetUp ///< index: the profile (runtime::Rig::driveProfiles()), or kPlayProfile
    };
    static constexpr std::uint32_t kPlayProfile = 0xffffffffu; ///< a get-up resumes with the play's profile
    Kind kind = Kind::HitParticle;
    std::uint64_t frame = 0; ///< applied at the start of the step taken from state `frame`
    bool scripted = false;   ///< scheduled by startScenario(): survives reset() and seek()
    bool recorded = false;   ///< issued while recording
    std::uint32_t index = 0; ///< particle, description stick, or iteration count
    float value = 0.f;       ///< stick t, time step, drag stiffness, explosion strength or drive blend seconds
    float radius = 0.f;      ///< explosion radius
    Vec3 vec;                ///< impulse, drag target or explosion centre
    bool flag = false;       ///< gravity on
};

/// Ring buffer of the last N states.
struct PreviewSession::History {
    struct Frame {
        std::uint64_t step = 0;
        double time = 0.;
        std::vector<Vec3> positions, previous;
        std::vector<Mat4> palette; ///< skinningPalette(1) at this step
        PreviewStats stats;
    };
    std::vector<Frame> frames; ///< ring storage
    std::size_t head = 0;      ///< index of the oldest frame
    std::size_t count = 0;
    std::size_t capacity = 1;

    void clear(std::size_t cap)
    {
        capacity = std::max<std::size_t>(1, cap);
        frames.clear();
        head = count = 0;
    }
    std::uint64_t begin() const { return count ? frames[head].step : 0; }
    std::uint64_t end() const { return count ? frames[(head + count - 1) % frames.size()].step + 1 : 0; }
    const Frame* find(std::uint64_t step) const
    {
        if (!count || step < begin() || step >= end())
            return nullptr;
        return &frames[(head + std::size_t(step - begin())) % frames.size()];
    }
    void truncateAfter(std::uint64_t step)
    {
        if (count && step + 1 < end())
            count = std::size_t(step + 1 - begin());
    }
    void push(std::uint64_t step, double time, std::span<const Vec3> x, std::span<const Vec3> xp,
              std::vector<Mat4> palette, const PreviewStats& s)
    {
        Frame* f;
        if (frames.size() < capacity && count == frames.size()) {
            frames.emplace_back();
            f = &frames.back();
            ++count;
        } else if (count < frames.size()) {
            f = &frames[(head + count) % frames.size()];
            ++count;
        } else {
            f = &frames[head];
            head = (head + 1) % frames.size();
        }
        f->step = step;
        f->time = time;
        f->positions.assign(x.begin(), x.end());
        f->previous.assign(xp.begin(), xp.end());
        f->palette = std::move(palette);
        f->stats = s;
    }
};

/// A driven preview's set-up (startDriven): the mesh and its clips resolved against the rig.
struct PreviewSession::Drive {
    const import::ImportedScene* mesh = nullptr;
    ClipPlayback play;                  ///< the play's clip, placed on the scene's top
    std::vector<std::size_t> getUpClips; ///< indices in mesh->animations
    std::uint32_t profile = 0;          ///< the play's profile in runtime::Rig::driveProfiles()
    Transform raise;                    ///< the scene's top: clips are authored on the ground at 0
};

/// The driven run's state: rebuilt with the Sim, so reset() and seek() replay it exactly.
struct DriveRun {
    PreviewSession::DrivePhase phase = PreviewSession::DrivePhase::Off;
    std::int64_t profile = -1;        ///< in force or blended to (Playing), resumed with (GettingUp); -1 none
    double clock = 0.;                ///< seconds into the play (Playing, Limp) or into the get-up (GettingUp)
    double playClock = 0.;            ///< while getting up: where the play was when the get-up began
    ClipPlayback play;                ///< the play (its placement moves to where a get-up ends)
    std::optional<GetUpChoice> getUp; ///< the get-up under way
    std::vector<Mat4> resting;        ///< the body's palette the get-up started from (on the ground at 0)
    float getUpBlend = 0.f;
    std::vector<Mat4> target;         ///< the palette the drives follow in the step taken last (or next)
    /// After a get-up: the play's palette blends from where the get-up ended (`resumeFrom`, against the play's
    /// first frame `resumeStart`) over `resumeBlend` seconds (runtime::blendPalettes), so the targets do not jump.
    std::vector<Mat4> resumeFrom, resumeStart;
    float resumeBlend = 0.f;
    /// The last gains command, redone after a rebuild: a profile (>= 0), limp (-1) or the get-up's gains (-2), from
    /// `commandAt` seconds over `commandBlend`.
    std::int64_t command = 0;
    double commandAt = 0.;
    float commandBlend = 0.f;
};

/// The world, the ragdoll and the state that a rebuild carries over.
struct PreviewSession::Sim {
    struct Pin {
        Vec3 target;
        float stiffness = 1.f;
        bool scripted = false;
        bool recorded = false;
    };
    std::shared_ptr<const runtime::Rig> rig; ///< current: iterations or time step may differ from the shipped one
    std::unique_ptr<runtime::World> world;
    runtime::Ragdoll* ragdoll = nullptr;
    Transform placement;
    std::uint64_t step = 0;
    double time = 0.;
    float dt = 1.f / 60.f;
    std::uint32_t iterations = 8;
    bool gravity = true;
    int staleSteps = 0; ///< > 0: the runtime's previous bone transforms are not this motion's
    std::map<std::uint32_t, Pin> pins;
    std::optional<RunFigures> figures; ///< the run's figures (PreviewStats), measured after every step
    DriveRun drive;

    Vec3 gravityVector() const { return gravity ? rig->settings().gravity : Vec3{}; }

    void create(const Transform& at, float timeStep, project::Scene scene)
    {
        placement = at;
        dt = timeStep;
        iterations = rig->settings().iterations;
        runtime::WorldSettings ws;
        ws.gravity = gravityVector();
        ws.timeStep = dt;
        ws.threads = 1;
        ws.sleep = true;
        world = std::make_unique<runtime::World>(ws);
        buildTestScene(*world, scene);
        ragdoll = world->ragdoll(world->spawn(rig, placement));
    }
    void setGravity(bool on)
    {
        gravity = on;
        world->setGravity(gravityVector());
    }
    /// A new rig with these settings and a new world; positions carried over bit for bit, velocities kept
    /// (x* rescaled to the new step), pins re-applied.
    void rebuild(std::uint32_t newIterations, float newDt, project::Scene scene)
    {
        rig::RigDescription d = rig->description();
        d.settings.iterations = newIterations;
        d.settings.timeStep = newDt;
        auto built = runtime::Rig::build(d);
        if (!built)
            return;
        const std::vector<Vec3> x(ragdoll->positions().begin(), ragdoll->positions().end());
        std::vector<Vec3> xp(ragdoll->previousPositions().begin(), ragdoll->previousPositions().end());
        // x* is one substep back; setPose takes the pose one (new) fixed step back.
        const float substep = dt / float(rig->settings().substeps);
        for (std::size_t i = 0; i < x.size(); ++i)
            xp[i] = x[i] - (x[i] - xp[i]) * (newDt / substep);
        rig = std::move(built);
        create(placement, newDt, scene);
        ragdoll->setPose(x, xp);
        for (const auto& [particle, p] : pins)
            ragdoll->setPin(particle, p.target, p.stiffness, p.stiffness >= 1.f);
        staleSteps = 2;
    }
    void pin(std::uint32_t particle, Vec3 target, float stiffness, bool scripted, bool recorded)
    {
        // Stiffness 1 is Jakobsen's IK pin: inverse mass 0, placed on the target; below 1 a soft pull.
        if (ragdoll->setPin(particle, target, stiffness, stiffness >= 1.f))
            pins[particle] = {target, stiffness, scripted, recorded};
    }
    void unpin(std::uint32_t particle)
    {
        if (pins.erase(particle))
            ragdoll->releasePin(particle);
    }
    void advanced()
    {
        ++step;
        time += double(dt);
        drive.clock += double(dt);
        if (staleSteps > 0)
            --staleSteps;
    }
};

} // namespace marionette::editor
