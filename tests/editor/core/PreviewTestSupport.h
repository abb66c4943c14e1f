// Test support for the preview suites: the procedural humanoid with stable ids, position copies and
// bit-for-bit comparison.
#pragma once

#include "marionette/Math.h"
#include "marionette/project/Project.h"
#include "marionette/runtime/Procedural.h"

#include <cstring>
#include <span>
#include <vector>

namespace marionette::test {

/// The procedural humanoid with stable ids (the editor always has them; scenarios name elements by id).
inline rig::RigDescription humanoid()
{
    rig::RigDescription r = runtime::makeHumanoid();
    project::assignMissingIds(r);
    return r;
}

inline std::vector<Vec3> copy(std::span<const Vec3> s) { return {s.begin(), s.end()}; }

inline bool sameBits(std::span<const Vec3> a, std::span<const Vec3> b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec3)) == 0;
}

} // namespace marionette::test
