// Marionette — particle masses from the skinned mesh: a total mass spread over the particles by the volume of
// the body each one drives (docs/autorig.md, "Masses from the mesh").
//
// 1. Volume per bone: a closed mesh (every edge, with vertices welded by position, shared by exactly two
//    triangles): each triangle and the mesh's centroid make a signed tetrahedron, and these add up to the
//    volume the mesh encloses (inside-out winding is turned round); a tetrahedron's volume goes a third to each
//    corner vertex and from the vertex to its bones by skin weight. An open mesh: each bone's part is measured
//    the same way but to its own centre (the weight-averaged position of its vertices), and its absolute value
//    taken, so a part's missing caps cost only small cones and a part far from the body's centre (an ear, a
//    tail) is not inflated: an estimate. Static meshes are left out.
// 2. Bone to particles: a bone's volume goes in equal parts to the dynamic particles of the stick or triangle
//    whose binding drives it, or, for a bone nothing drives (fingers, twist bones), to those of its nearest
//    driven ancestor; a rig without bindings gives it to the particles created from the bone (Particle::bone),
//    else to the particle nearest its joint.
// 3. No dynamic particle ends below a tenth of the heaviest (PHYSICS.md: mass ratios within 1:10), so a
//    particle that drives nothing gets a tenth of the heaviest; kinematic particles (mass 0) stay 0; the
//    masses are scaled to the total, which they then add up to exactly (float rounding goes to the heaviest).
#pragma once

#include "marionette/import/ImportedScene.h"
#include "marionette/rig/RigDescription.h"

#include <string>
#include <vector>

namespace marionette::editor {

struct MeshMasses {
    /// Empty on success, else one line: "the mesh has no skeleton", "no vertex of the mesh is bound to a bone",
    /// "mesh 'Body' vertex 12 is not finite", "the mesh encloses no volume", "the rig has no dynamic particle",
    /// "total mass must be a finite number of kilograms above 0 (at most 1e6)".
    std::string error;
    std::vector<float> masses;       ///< kg, one per rig particle, adding up to the total
    std::vector<double> boneVolumes; ///< m³, one per scene bone
    double volume = 0.0;             ///< m³, the sum of boneVolumes
    bool closed = false;             ///< every skinned mesh was closed (signed volumes)
};

/// Masses for `rig`'s particles from `scene`'s skinned mesh, adding up to `totalMass` kg. Never throws; bad
/// input (no skin, zero volume, NaN, no dynamic particle, a bad total) gives `error` and no masses.
MeshMasses massesFromMesh(const rig::RigDescription& rig, const import::ImportedScene& scene, float totalMass);

} // namespace marionette::editor
