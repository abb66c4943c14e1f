// Marionette — the project document (`.mproj`, DESIGN.md §6): everything the editor saves.
//
// A Project is plain data. The rig inside it is the ordinary `rig::RigDescription`, whose elements refer to
// each other by index; everything outside the rig (editor state, scenarios) refers to rig elements by
// (kind, stable id), so reordering the rig never breaks them. ProjectFile.h reads and writes the JSON form;
// docs/project-format.md is the schema.
//
// Units: metres, kilograms, seconds, radians, except where a name says Degrees.
#pragma once

#include "marionette/rig/RigDescription.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace marionette::project {

/// The kinds of rig element that carry a stable id (one id space per kind).
enum class ElementKind : std::uint8_t { Particle, Stick, Angle, Triangle, Angular, Pin, Shape, Bone, Binding };
constexpr int kElementKindCount = 9;

/// JSON spelling: "particle", "stick", "angle", "triangle", "angular", "pin", "shape", "bone", "binding".
const char* toString(ElementKind kind);
/// Words for messages: "particle", ..., "angle constraint", "angular constraint", "bone binding".
const char* describe(ElementKind kind);
/// Name of the RigDescription vector (and JSON array under "rig"): "particles", "sticks", ... "bindings".
const char* sectionName(ElementKind kind);
/// Parses toString()'s spelling; false (kind untouched) for anything else.
bool elementKindFromString(QStringView text, ElementKind& kind);

/// A rig element named by kind and stable id.
struct ElementRef {
    ElementKind kind = ElementKind::Particle;
    rig::ElementId id = 0;

    bool operator==(const ElementRef&) const = default;
    friend bool operator<(const ElementRef& a, const ElementRef& b)
    {
        return a.kind != b.kind ? a.kind < b.kind : a.id < b.id;
    }
};

/// The mesh the rig was built on.
struct SourceMesh {
    QString path;   ///< relative to the folder of the .mproj ('/' separators); empty = no mesh
    QString sha256; ///< SHA-256 of the file's bytes, 64 lowercase hex digits; empty = not recorded

    /// Absolute, cleaned path of the mesh for a project saved at `projectFilePath`; empty when `path` is.
    QString resolve(const QString& projectFilePath) const;
    /// `meshFilePath` expressed relative to the folder of `projectFilePath`, with '/' separators.
    static QString relativePath(const QString& meshFilePath, const QString& projectFilePath);
    /// SHA-256 of a file's contents as 64 lowercase hex digits. Returns an empty string and sets `*error`
    /// (when given) to a one-line message naming the file if it cannot be read.
    static QString hashFile(const QString& filePath, QString* error = nullptr);
};

enum class UpAxis : std::uint8_t { Y, Z };

/// How the importer brought the source into Marionette's frame (metres, right-handed, +Y up).
struct ImportSettings {
    double scaleToMetres = 1.0;         ///< source units × this = metres; (0, 1e6]
    UpAxis sourceUpAxis = UpAxis::Y;    ///< the up axis the source file declared
    bool unitConversionApplied = false; ///< the rig and mesh were scaled by scaleToMetres on import
    bool axisConversionApplied = false; ///< a Z-up source was rotated to Y-up on import
    bool flipWindingOrder = false;      ///< triangle winding was reversed on import
    bool flipUVs = false;               ///< texture V was flipped on import
    QString conversionNote;             ///< free text: whatever else the importer recorded (unit names, format)
};

enum class Projection : std::uint8_t { Perspective, Orthographic };

/// The orbit camera of the viewport.
struct Camera {
    Vec3 target;               ///< orbit centre, metres
    float yawDegrees = 0.f;    ///< about +Y, any finite value
    float pitchDegrees = 20.f; ///< [−90, 90]
    float distance = 3.f;      ///< metres from the target, (0, 1e6]
    Projection projection = Projection::Perspective;
    float fieldOfViewDegrees = 45.f; ///< vertical, (0, 180)
};

/// An 8-bit RGBA colour (QtCore has no QColor; the editor converts).
struct Rgba {
    std::uint8_t r = 255, g = 255, b = 255, a = 255;
    bool operator==(const Rgba&) const = default;
};

/// How the editor shows one element. Elements without an entry are visible, unlocked, default colour.
struct ElementView {
    ElementRef element;
    bool visible = true;
    bool locked = false;
    std::optional<Rgba> colour; ///< nullopt = the editor's colour for the kind
};

/// The axis a mirror plane is perpendicular to.
enum class MirrorAxis : std::uint8_t { X, Y, Z };

/// Symmetric editing (the editor's Edit ▸ Symmetry): left/right pairs mirror each other through the plane
/// axis = offset. Particles pair by their names' sides, else by mirrored positions within `tolerance`.
struct SymmetrySettings {
    bool enabled = false;
    MirrorAxis axis = MirrorAxis::X;
    float offset = 0.f;      ///< metres, |offset| <= 1e6
    float tolerance = 0.01f; ///< metres, (0, 1]

    bool operator==(const SymmetrySettings&) const = default;
};

struct EditorState {
    Camera camera;
    float meshOpacity = 1.f; ///< [0, 1]
    bool xray = false;
    SymmetrySettings symmetry;
    std::vector<ElementView> elements; ///< at most one entry per element, every one naming an existing element
    std::vector<ElementRef> selection; ///< selected elements in selection order, no repeats
};

enum class Scene : std::uint8_t { Floor, Stairs, Ledge, Box };

/// An impulse applied at one frame to a particle, or to a point on a stick split by barycentric weight.
struct Hit {
    std::uint32_t frame = 0; ///< simulation step at which it is applied (0 = first)
    ElementRef target;       ///< kind Particle or Stick
    float along = 0.5f;      ///< stick hits: 0 = end a, 1 = end b; [0, 1]
    Vec3 impulse;            ///< N·s, |impulse| <= 1e6
};

/// A particle pulled toward a world point during [startFrame, endFrame] (the editor's drag).
struct Drag {
    rig::ElementId particle = 0;
    std::uint32_t startFrame = 0;
    std::uint32_t endFrame = 0; ///< >= startFrame
    Vec3 target;
    float stiffness = 1.f; ///< (0, 1]
};

/// A blast at one frame (Ragdoll::applyExplosion): particles within `radius` of the centre gain
/// strength / max(d², 0.25²) m/s away from it.
struct Explosion {
    std::uint32_t frame = 0;
    Vec3 centre;           ///< |centre| <= 1e6 m
    float strength = 0.f;  ///< [0, 1e6]
    float radius = 1.f;    ///< (0, 1e6] metres
};

/// A live change of the simulation settings from one frame on (the preview's iterations, time step and
/// gravity controls). Fields left empty are unchanged; at least one is set.
struct SettingChange {
    std::uint32_t frame = 0;
    std::optional<std::uint32_t> iterations; ///< [1, 64] per substep
    std::optional<float> timeStep;           ///< [0.001, 0.1] seconds
    std::optional<bool> gravity;             ///< false: no gravity, true: the rig's
};

/// The ragdoll starts from a pose of one of the source mesh's animation clips (the animation hand-off),
/// inheriting the clip's velocity, instead of being dropped. Frame 0 is the switch.
struct AnimationStart {
    QString clip;    ///< the clip's name in the source mesh (not empty)
    float time = 0.f; ///< seconds into the clip, [0, 1e6]
};

/// A driven preview: the body plays a clip of the source mesh through the rig's drives instead of being dropped.
struct DrivenPlay {
    QString clip;                     ///< the source mesh's clip played, looped (not empty)
    QString profile;                  ///< the rig's drive profile it starts with (not empty)
    std::vector<QString> getUpClips;  ///< the clips a get-up chooses among (may be empty: no get-up)
};

/// A change to a driven preview from one frame on.
struct DriveChange {
    enum class Kind : std::uint8_t { Profile, Kill, GetUp };
    std::uint32_t frame = 0;
    Kind kind = Kind::Profile;
    QString profile;    ///< Profile: the profile blended to; GetUp: the profile the play resumes with (empty: the play's)
    float blend = 0.2f; ///< seconds the change blends over, [0, 60]
};

/// The ragdoll's orientation when dropped.
struct InitialRotation {
    bool random = false;    ///< true: a uniformly random rotation drawn from `seed`
    Quat rotation;          ///< used when !random; a unit quaternion
    std::uint32_t seed = 0; ///< used when random
};

/// What a scenario run must satisfy to pass.
struct Expectations {
    std::optional<float> settleWithin;    ///< seconds; the ragdoll sleeps by then; (0, duration]
    float maxPenetration = 0.02f;         ///< metres, [0, 100]
    float maxLimitViolationDegrees = 5.f; ///< [0, 180]
    // Driven scenarios only (Scenario::driven). The tracking error of a frame is the worst rig bone's position
    // relative to the root bone against the clip played (editor::trackingError), as the targets state it.
    /// Centimetres, (0, 1000]: the tracking error of every frame the body plays its clip (not limp, not getting
    /// up) and is not recovering from a disturbance (a hit, explosion, drag, or the end of a get-up: from it
    /// until the error is back below this bound).
    std::optional<float> maxTrackingErrorCm;
    /// Seconds, (0, duration]: after the last disturbance, the tracking error is back below maxTrackingErrorCm
    /// (required with it) within this and stays below it to the end.
    std::optional<float> recoverWithin;
    /// true: the body falls (its root bone below half the clip's root height at some frame); false: it never does.
    std::optional<bool> falls;
    /// true: at the end the body plays its clip (not limp, not getting up) with its root bone at least at 80 %
    /// of the clip's root height.
    std::optional<bool> standsAtEnd;
};

/// A recorded test: drop the rig into a scene, hit and drag it, check the outcome.
struct Scenario {
    QString name;
    Scene scene = Scene::Floor;
    float dropHeight = 1.f; ///< metres above the scene's top surface, [−1000, 1000]
    InitialRotation initialRotation;
    float duration = 5.f; ///< seconds of simulation, (0, 600]
    std::vector<Hit> hits;
    std::vector<Drag> drags;
    std::vector<Explosion> explosions;
    std::vector<SettingChange> settingChanges;
    std::optional<AnimationStart> animationStart; ///< set: starts from the clip, not from the drop
    std::optional<DrivenPlay> driven;      ///< set: the scenario is a driven preview (animationStart must be unset)
    std::vector<DriveChange> driveChanges; ///< only with `driven`, in frame order
    Expectations expect;
};

/// The name of one collision group bit (rig::Particle/Stick/Shape group and mask bits). Editor metadata: the
/// `.mrig` keeps only the bits.
struct CollisionGroupName {
    int bit = 0;  ///< [0, 31]: the group is the bit 1 << bit
    QString name; ///< not empty, at most kMaxCollisionGroupNameLength characters

    bool operator==(const CollisionGroupName&) const = default;
};
constexpr int kCollisionGroupBits = 32;
constexpr qsizetype kMaxCollisionGroupNameLength = 64;

/// What a level of detail was measured to cost and to differ from the full rig (editor::measureLod), with
/// the settings it was measured at.
struct LodMeasurement {
    float errorMeanCm = 0.f;      ///< bone positions against the full rig, mean over bones and frames, [0, 1e6] cm
    float errorMaxCm = 0.f;       ///< the largest, [errorMeanCm, 1e6] cm
    float usPerRagdollStep = 0.f; ///< median step time over the ragdoll count, [0, 1e9] µs
    std::uint32_t runs = 0;          ///< scenarios (or plain 2 m drops) compared, [1, 1e6]
    std::uint32_t frames = 0;        ///< frames compared over all runs
    std::uint32_t benchRagdolls = 0; ///< ragdolls the cost was timed on, [1, 1e6]
    std::uint32_t benchFrames = 0;   ///< steps timed, [1, 1e9]
};

/// A coarser rig generated from the project's rig (editor::generateLod), exported beside it as
/// NAME.lodN.mrig. Its rig keeps the ids of the elements it kept from the full rig; it must validate.
struct LodLevel {
    std::uint32_t targetParticles = 0; ///< the count asked for, [3, 1e6]
    rig::RigDescription rig;
    std::optional<LodMeasurement> measurement; ///< nullopt: not measured (yet)
};

/// The whole document. The format version is not stored: in memory a project is always the current
/// version (kProjectVersion in Migration.h); LoadResult says which version the file had.
struct Project {
    QString name;
    SourceMesh sourceMesh;
    ImportSettings import;
    rig::RigDescription rig;
    EditorState editor;
    std::vector<Scenario> scenarios;
    /// Named collision groups, each bit at most once (the editor keeps them in bit order); bits without a name
    /// have none.
    std::vector<CollisionGroupName> collisionGroups;
    /// Levels of detail, finest first (fewest particles last). Optional in the file ("lods").
    std::vector<LodLevel> lods;
};

/// Gives every rig element whose id is 0 a fresh id of its kind (larger than every id in use, or the
/// smallest unused one if that would overflow), in list order. Existing ids, duplicates included, are left
/// alone: saving refuses duplicates rather than renumbering. Returns how many ids were given.
std::size_t assignMissingIds(rig::RigDescription& rig);
std::size_t assignMissingIds(Project& project);

/// Removes editor-state entries (views, selection) naming elements the rig no longer has. Scenarios are
/// the artist's recorded work and are not touched: saving refuses a hit or drag on a missing element.
/// Returns how many entries were removed.
std::size_t pruneEditorState(Project& project);

} // namespace marionette::project
