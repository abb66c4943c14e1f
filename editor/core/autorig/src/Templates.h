// The two auto-rig templates. Both receive a checked skeleton (finite, invertible bind matrices, parents
// first) already copied into `out.bones`, and fill particles, sticks, triangles, angular constraints and
// bone bindings of `out`. They return false with *error when the skeleton cannot make such a rig.
#pragma once

#include "marionette/Math.h"
#include "marionette/editor/autorig/HumanoidMapping.h"
#include "marionette/rig/RigDescription.h"

#include <string>
#include <vector>

namespace marionette::editor::autorig {

struct TemplateInput {
    const std::vector<std::vector<Vec3>>& vertices; ///< one list per bone (possibly empty lists)
    float totalMass;
};

/// The humanoid template for a complete `mapping` (docs/autorig.md).
bool buildHumanoid(const TemplateInput& in, const HumanoidMapping& mapping, rig::RigDescription& out,
                   std::vector<std::string>& notes, std::string* error);

/// The generic template (docs/autorig.md).
bool buildGeneric(const TemplateInput& in, rig::RigDescription& out, std::vector<std::string>& notes,
                  std::string* error);

} // namespace marionette::editor::autorig
