// Marionette — edits of a rig::RigDescription as pure functions (no Qt, no document): the building blocks of
// the editor's undo commands, testable on plain rigs.
//
// A RigDescription's elements refer to each other by index (a stick names two particle indices, an angular
// constraint two triangle indices ...). Removing an element therefore renumbers every reference after it;
// removeElements() does that and also removes whatever would be left pointing at nothing.
#pragma once

#include "marionette/project/Project.h"
#include "marionette/rig/RigDescription.h"

#include <variant>
#include <vector>

namespace marionette::editor {

using project::ElementKind;
using project::ElementRef;

/// One rig element of any kind; the alternatives are in ElementKind order.
using AnyElement = std::variant<rig::Particle, rig::Stick, rig::AngleConstraint, rig::Triangle,
    rig::AngularConstraint, rig::Pin, rig::Shape, rig::Bone, rig::BoneBinding>;

ElementKind kindOf(const AnyElement& element);
rig::ElementId idOf(const AnyElement& element);
const std::string& nameOf(const AnyElement& element);

/// Number of elements of a kind in the rig.
std::size_t countOf(const rig::RigDescription& rig, ElementKind kind);
/// The element at `index` of its kind's vector (index in range).
AnyElement elementAt(const rig::RigDescription& rig, ElementKind kind, std::size_t index);
/// Id and name of the element at `index` (index in range).
rig::ElementId idAt(const rig::RigDescription& rig, ElementKind kind, std::size_t index);
const std::string& nameAt(const rig::RigDescription& rig, ElementKind kind, std::size_t index);
/// Index of the element with that id, or rig::kNone. Linear in the kind's count (rigs are small).
std::int32_t indexOf(const rig::RigDescription& rig, ElementRef ref);

/// Appends the element at the end of its kind's vector. Its references must be valid indices already.
void appendElement(rig::RigDescription& rig, AnyElement element);
/// Removes the last element of a kind (the undo of appendElement). No-op when the kind is empty.
void removeLastElement(rig::RigDescription& rig, ElementKind kind);

/// A fresh id for a new element of `kind`: one more than the largest in use (1 for an empty kind).
rig::ElementId nextId(const rig::RigDescription& rig, ElementKind kind);
/// A name "<base><n>" not used by any element of the kind (n counts up from 1).
std::string uniqueName(const rig::RigDescription& rig, ElementKind kind, const std::string& base);

/// The elements `refs` plus everything that depends on them and cannot exist without them: the sticks,
/// angle constraints, triangles, pins and tetrahedron shapes of a removed particle; the angular constraints,
/// shapes and bindings of a removed triangle; the bindings driven by a removed stick or of a removed bone;
/// and, for a bone, its child bones (the skeleton comes from the mesh; removing a bone is allowed only with
/// its subtree). Refs to missing elements are ignored. Sorted, no repeats.
std::vector<ElementRef> withDependents(const rig::RigDescription& rig, const std::vector<ElementRef>& refs);

/// Removes exactly `refs` (which must already be closed under withDependents()) and renumbers every index
/// reference. Particle::bone of a removed bone becomes kNone; the drive profiles lose the parts of removed
/// triangles and sticks (the profiles themselves stay). Returns the number of elements removed.
std::size_t removeElements(rig::RigDescription& rig, const std::vector<ElementRef>& refs);

/// The particles an element touches (its endpoints, corners ...), as indices. Bones and bindings: none.
std::vector<std::int32_t> particlesOf(const rig::RigDescription& rig, ElementKind kind, std::size_t index);

} // namespace marionette::editor
