// Marionette — the preview's test scenes (DESIGN.md §9): a floor, stairs, a ledge and a box to fall over.
//
// One definition shared by the editor's preview (PreviewSession), scenario replay (ScenarioRunner) and the
// command line (`marionette simulate --scene`). The drop point is the origin's vertical (x = z = 0): a
// previewed character is centred over it. Blocks reach 1 m into the ground, as level geometry does: a block
// whose bottom face lay on the floor would offer that face as the shortest way out to a particle pressed
// into its base. All boxes are axis-aligned; the floor is the plane y = floorHeight.
#pragma once

#include "marionette/Math.h"
#include "marionette/project/Project.h"

#include <vector>

namespace marionette::runtime {
class Rig;
class World;
} // namespace marionette::runtime

namespace marionette::editor {

/// A static box of a test scene: centre and orientation, half extents (metres).
struct SceneBox {
    Transform pose;
    Vec3 halfExtents;
};

/// What buildTestScene() added to a world, for drawing and for penetration/contact measurements.
struct SceneGeometry {
    std::vector<SceneBox> boxes;
    float floorHeight = 0.f; ///< the ground plane y = floorHeight (solid below)
};

/// Adds `scene` to `world` (ground plane y = 0 plus the scene's boxes) and returns what it added.
///  - Floor: the ground plane only.
///  - Stairs: six steps 0.18 m high and 0.3 m deep, 3 m wide, rising toward −Z; the first step's edge runs
///    along x under the drop point (its top, 0.18 m, is the surface there).
///  - Ledge: a block 1 m high, 4 m wide, 3 m deep on the −Z side whose edge runs under the drop point.
///  - Box: a 1 × 0.6 × 1 m box (x × y × z) on the −Z side whose edge runs under the drop point: a body dropped
///    there lands on its edge and falls over it.
SceneGeometry buildTestScene(runtime::World& world, project::Scene scene);

/// The geometry buildTestScene() adds, without a world (for drawing and measuring).
SceneGeometry testSceneGeometry(project::Scene scene);

/// The boxes as they are seen: each axis-aligned box cut at the floor, keeping what is above it (the blocks
/// reach 1 m into the solid ground, which drawn through a translucent floor makes stairs read as towers).
/// Boxes wholly below the floor are left out; turned boxes are kept whole.
std::vector<SceneBox> visibleBoxes(const SceneGeometry& geometry);

/// Height of the highest surface at the drop point (x = z = 0, box edges included): 0 for Floor, 0.18 for
/// Stairs, 1 for Ledge, 0.6 for Box. A scenario's drop height is measured above it.
float sceneTopHeight(project::Scene scene);

/// The lowest point of a rig's bind pose (particle centre minus radius) after turning it by `rotation`
/// about `pivot`: a ragdoll spawned with that rotation, moved up by h − bindBottom(...), has its lowest point
/// h above y = 0. 0 for a rig without particles. The preview, scenarios and the command line place drops
/// with it.
float bindBottom(const runtime::Rig& rig, const Quat& rotation = {}, Vec3 pivot = {});

/// How deep a sphere (centre `point`, `radius` >= 0) is inside the floor or a box: the largest of
/// radius − (signed distance from the centre to the surface), 0 when it touches nothing.
float penetrationDepth(const SceneGeometry& geometry, Vec3 point, float radius);

/// The point of the scene's surface (floor or a box) nearest to `point`, and its signed distance (negative
/// inside). Used for contact points.
Vec3 nearestSurfacePoint(const SceneGeometry& geometry, Vec3 point, float* signedDistance = nullptr);

/// "floor", "stairs", "ledge" or "box"; sceneFromName() is the inverse (false for anything else).
const char* sceneName(project::Scene scene);
bool sceneFromName(const QString& name, project::Scene& out);

} // namespace marionette::editor
