// Marionette — masses of a new particle from its neighbours, and keeping a rig's total mass when one is added.
#pragma once

#include "marionette/rig/RigDescription.h"

#include <vector>

namespace marionette::editor {

/// Neighbours whose masses give a new particle's: the nearest this many dynamic particles.
constexpr int kMassNeighbours = 3;

/// The mass for a particle added at `position`: the mean mass of the kMassNeighbours dynamic (mass > 0)
/// particles nearest to it (all of them when fewer), or 1 kg when the rig has none.
float neighbourMass(const rig::RigDescription& rig, Vec3 position);

/// The rig's total mass: the sum of its particles' masses, kg.
double totalMass(const rig::RigDescription& rig);

/// Masses for the rig's particles plus one new particle of `newMass` (the last entry) that keep the rig's
/// total: every dynamic mass, the new one's included, scaled by total / (total + newMass), so the new particle
/// keeps its proportion to its neighbours. Kinematic particles (mass 0) stay 0. With no dynamic mass in the
/// rig, the masses as they are plus newMass.
std::vector<float> massesKeepingTotal(const rig::RigDescription& rig, float newMass);

} // namespace marionette::editor
