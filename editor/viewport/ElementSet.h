// Marionette viewport — a sorted set of element references for quick "is it hidden/locked/selected".
#pragma once

#include "marionette/project/Project.h"

#include <algorithm>
#include <vector>

namespace marionette::viewport {

class ElementSet {
public:
    ElementSet() = default;
    explicit ElementSet(std::vector<project::ElementRef> refs) : mRefs(std::move(refs))
    {
        std::sort(mRefs.begin(), mRefs.end());
    }
    ElementSet(const std::vector<project::ElementRef>& a, const std::vector<project::ElementRef>& b)
    {
        mRefs = a;
        mRefs.insert(mRefs.end(), b.begin(), b.end());
        std::sort(mRefs.begin(), mRefs.end());
    }
    bool contains(project::ElementRef ref) const { return std::binary_search(mRefs.begin(), mRefs.end(), ref); }
    bool contains(project::ElementKind kind, rig::ElementId id) const { return contains({kind, id}); }
    bool empty() const { return mRefs.empty(); }

private:
    std::vector<project::ElementRef> mRefs;
};

} // namespace marionette::viewport
