// The two halves of mapHumanoid() (HumanoidMapping.h) that the name-based and the shape-based readings share:
// the checks every complete mapping must pass, and the shape-based reading itself (docs/autorig.md,
// "Shape-based fallback").
#pragma once

#include "marionette/editor/autorig/AutoRigSupport.h"
#include "marionette/editor/autorig/BoneNames.h"
#include "marionette/editor/autorig/HumanoidMapping.h"

#include <string>
#include <vector>

namespace marionette::editor::autorig {

/// "" when the required parts of `m` have the shape of a human: the arms and head hang from the spine above
/// the pelvis, left and right joints apart and on the same side for arms and legs, both legs pointing away
/// from the head. Otherwise the one-line problem. `m` must have every required part.
std::string humanoidShapeProblem(const SkeletonTree& tree, const HumanoidMapping& m);

/// The shape-based reading of a skeleton.
struct ShapeReading {
    /// False when no bone has two chains of three or more bones below it (a single chain, a prop): there is
    /// no shape to read, and `mapping` is empty.
    bool tried = false;
    /// Complete (problem empty) when the shape is a human's; otherwise `problem` says why not. Never sets
    /// fromTopology, byShape or shapeProblem (mapHumanoid() does).
    HumanoidMapping mapping;
};

/// Reads `skeleton` (parents first) as a human from its hierarchy and bind pose alone. `names` (one per bone,
/// as mapHumanoid() parsed them) only break ties the shape leaves open: a bone called head or pelvis on the
/// way, and the sides (left/right) that bone names carry. Bones whose bindWorld is not finite are absent.
ShapeReading readHumanoidShape(const std::vector<rig::Bone>& skeleton, const std::vector<ParsedName>& names);

} // namespace marionette::editor::autorig
