// Marionette — lookup of rig elements by stable id.
#pragma once

#include "marionette/project/Project.h"

#include <array>
#include <cstdint>
#include <unordered_map>

namespace marionette::project {

/// Maps (kind, id) to the element's index in its RigDescription vector. Built once from a rig; it does not
/// follow later edits. Elements with id 0 are not indexed; of two elements sharing an id, the first wins
/// (checkElementIds() in ProjectFile.h reports such rigs).
class ElementIndex {
  public:
    ElementIndex() = default;
    explicit ElementIndex(const rig::RigDescription& rig);

    /// Index of the element, or rig::kNone when there is none with that id.
    std::int32_t find(ElementKind kind, rig::ElementId id) const;
    std::int32_t find(ElementRef ref) const { return find(ref.kind, ref.id); }
    bool contains(ElementRef ref) const { return find(ref) != rig::kNone; }
    /// Number of elements of the kind in the rig the index was built from (ids or not).
    std::size_t count(ElementKind kind) const { return mCounts[std::size_t(kind)]; }

  private:
    std::array<std::unordered_map<rig::ElementId, std::int32_t>, kElementKindCount> mMaps;
    std::array<std::size_t, kElementKindCount> mCounts{};
};

} // namespace marionette::project
