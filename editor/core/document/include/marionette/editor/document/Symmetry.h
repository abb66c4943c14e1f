// Marionette — symmetric editing: the left/right pairs of a rig's elements through a mirror plane, an
// element mirrored onto its partner, one side of a rig mirrored onto the other, an edit repeated on the other
// side, and the pairs that differ (the validation list's asymmetries).
//
// Pairs are found on particles first: by name (the caller passes the partners its naming schemes find, e.g.
// autorig::mirrorPartnersByName, so this wing needs no knowledge of bone names), else by position (a
// particle's mirror image within the tolerance of another particle), and a particle within the tolerance of
// the plane is its own mirror. Every other kind pairs through its particles: a stick with the stick between
// the partners of its ends, a triangle with the triangle on the partners of its corners, an angular
// constraint with the one between the partners of its triangles, and so on.
//
// Mirroring reflects positions and directions, and turns a rotation's sense round: a twist range [a, b]
// becomes [−b, −a] about the reflected axis. Axes stored in a triangle's frame are carried through both
// frames (the partner triangle may list its corners in another order), and the result keeps the partner's
// own sign convention where it has one (an axis and its range turned round describe the same limit).
// Collision groups and masks stay with each side (a left arm's group is not the right arm's).
#pragma once

#include "marionette/editor/document/RigEdit.h"
#include "marionette/editor/document/Validation.h"

#include <functional>
#include <string>
#include <vector>

namespace marionette::editor {

/// The plane axis = offset (project::SymmetrySettings).
struct MirrorPlane {
    project::MirrorAxis axis = project::MirrorAxis::X;
    float offset = 0.f;

    static MirrorPlane of(const project::SymmetrySettings& s) { return {s.axis, s.offset}; }
    /// Signed distance of a point from the plane, positive on the axis's positive side.
    float distance(Vec3 p) const;
    Vec3 reflect(Vec3 point) const;
    Vec3 reflectDirection(Vec3 direction) const;
};

/// Per element index, its mirror partner's index: rig::kNone when it has none, its own index when it is its
/// own mirror (on the plane). Shapes, bones and bindings are not paired.
struct MirrorMap {
    std::vector<std::int32_t> particles, sticks, angles, triangles, angular, pins;

    /// rig::kNone for unpaired kinds and indices out of range.
    std::int32_t partner(ElementKind kind, std::int32_t index) const;
    /// Pairs of two distinct elements, each counted once.
    std::size_t pairCount() const;
};

/// The pairs of `rig` for `plane`. `namePartners` (one per particle, or empty): the partner each particle's
/// name gives (rig::kNone for none); names win over positions. Positions pair a particle with the unpaired
/// particle nearest its mirror image, within `tolerance` metres.
MirrorMap findMirrorPairs(const rig::RigDescription& rig, const MirrorPlane& plane, float tolerance,
                          const std::vector<std::int32_t>& namePartners = {});

/// Element `index` of `kind` mirrored onto `onto` (an element of the same kind, normally its partner): the
/// result is `onto` with the source's values reflected; `onto`'s name, id, references (particle and triangle
/// indices), groups and masks are kept. Triangles and the kinds without pairs are returned as `onto`.
AnyElement mirroredOnto(const rig::RigDescription& rig, const MirrorMap& map, const MirrorPlane& plane,
                        ElementKind kind, std::int32_t index, const AnyElement& onto);

/// Gives a mirrored element its name: "elbow_l" -> "elbow_r" (autorig::mirroredName in the editor).
using MirrorNamer = std::function<std::string(const std::string&)>;

/// Which side of the plane a mirror copies from.
enum class MirrorSource { PositiveSide, NegativeSide };

/// `rig` with every element on the `from` side mirrored onto the other: partners take the mirrored values,
/// elements without a partner are created mirrored (new ids, names from `namer`, made unique). An element is
/// on a side when all its particles are on that side or on the plane, at least one on the side. In every drive
/// profile, the partners of the `from` side's triangles and sticks take their entries (gains, or none).
rig::RigDescription mirrorSide(const rig::RigDescription& rig, const MirrorMap& map, const MirrorPlane& plane,
                               float tolerance, MirrorSource from, const MirrorNamer& namer);

/// The rig `after` an edit of `before` (whose pairs are `map`), with the edit repeated on the other side:
/// every element the edit changed takes its partner along (unless the edit changed both), every element it
/// removed removes its partner (with what depends on it), every particle, stick, angle, triangle, angular
/// constraint and pin it added is added mirrored (particles on the plane are their own mirror; an element
/// whose particles have no partners is not mirrored). In each drive profile (matched by id), a triangle or
/// stick whose entry the edit set or cleared gives its partner the same entry, unless the edit changed the
/// partner's too. Equal to `after` when there is nothing to repeat.
rig::RigDescription withMirroredEdit(const rig::RigDescription& before, const rig::RigDescription& after,
                                     const MirrorMap& map, const MirrorPlane& plane, float tolerance,
                                     const MirrorNamer& namer);

/// Whether two elements hold the same values (every field of the mirrored kinds; elements of other kinds
/// compare equal when they are of the same kind).
bool sameValues(const AnyElement& a, const AnyElement& b);

/// Pairs whose values are not mirror images: positions, radii and lengths more than `tolerance` apart,
/// masses more than 1 % apart, angles and limits more than kAsymmetryDegrees apart, and in a drive profile
/// triangles or sticks whose entries differ. Warnings naming both elements, for the validation list.
inline constexpr float kAsymmetryDegrees = 0.5f;
std::vector<ValidationIssue> symmetryIssues(const rig::RigDescription& rig, const MirrorMap& map,
                                            const MirrorPlane& plane, float tolerance);

} // namespace marionette::editor
