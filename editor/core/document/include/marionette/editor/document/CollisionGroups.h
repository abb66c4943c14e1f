// Marionette — collision groups by name, and the symmetric "group A collides with group B" matrix the editor's
// Collision Groups dialog shows, over the rig's per-element group and mask bits (which the .mrig keeps).
//
// Elements: every particle, every stick with a capsule (capsuleRadius > 0) and every shape. Two of them
// collide when (groupA & maskB) && (groupB & maskA) (the runtime's filter). Group i is the bit 1 << i.
//
// The matrix is derived from the elements: cell (i, j) is
//   On    when every element in group i has mask bit j and every element in group j has mask bit i,
//   Off   when none of them has it,
//   Mixed when some do and some do not (elements with custom masks that disagree with their groups),
// and On when no element is in group i or j (the default mask, ~0, collides with everything).
// Applying a matrix writes each element's mask bit j from the cells (i, j) of the groups i the element is in:
// on when any of them is On, off when all are Off, unchanged when the others are Mixed. Group bits never
// change. Applying the matrix derived from a rig changes nothing.
#pragma once

#include "marionette/editor/document/RigEdit.h"
#include "marionette/project/Project.h"

#include <QString>

#include <array>
#include <cstdint>
#include <vector>

namespace marionette::editor {

enum class CollisionCell : std::uint8_t { Off, On, Mixed };

/// A symmetric 32 × 32 matrix of cells; set() writes both (a, b) and (b, a).
class CollisionMatrix {
  public:
    CollisionMatrix() { mCells.fill(CollisionCell::On); }
    CollisionCell at(int a, int b) const { return mCells[std::size_t(a * project::kCollisionGroupBits + b)]; }
    void set(int a, int b, CollisionCell cell);
    bool operator==(const CollisionMatrix&) const = default;

  private:
    std::array<CollisionCell, std::size_t(project::kCollisionGroupBits * project::kCollisionGroupBits)> mCells{};
};

/// The matrix of the rig's elements, as described above.
CollisionMatrix collisionMatrix(const rig::RigDescription& rig);
/// The elements whose mask `matrix` changes, with their new values (same id and kind; everything but the
/// mask unchanged), in rig order: what an edit of the matrix hands to ReplaceElementsCommand.
std::vector<AnyElement> applyCollisionMatrix(const rig::RigDescription& rig, const CollisionMatrix& matrix);
/// The group bits some element of the rig is in.
std::uint32_t usedGroupBits(const rig::RigDescription& rig);

/// The name of group `bit`: its name in `names`, else "Group <bit + 1>".
QString groupName(const std::vector<project::CollisionGroupName>& names, int bit);
/// Bits as words: "none", "all", the names joined by ", ", or "all but <names>" when fewer than half are off.
QString describeGroupBits(const std::vector<project::CollisionGroupName>& names, std::uint32_t bits);

} // namespace marionette::editor
