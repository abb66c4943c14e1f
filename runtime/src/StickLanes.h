// Internal: the 8-wide Gauss–Seidel pass over the sticks of a rig that has stick lanes (Rig::stickLanes()).
#pragma once

#include <cstddef>
#include <cstdint>

namespace marionette::runtime {

class Rig;
struct RagdollState;

/// Floats RagdollState::laneX holds for a body of `particles` particles: x, y and z each from a 32-byte
/// boundary.
std::size_t laneScratchSize(std::size_t particles);

/// `count` Gauss–Seidel passes over rig.sticks() in order, the first reversed when `firstReversed` and each
/// next one the other way: each run of Rig::stickLanes() at once on x, y and z in separate arrays, the
/// sticks between them one by one; the positions stay in the separate arrays from the first pass to the
/// last, so the result is the same as that of the passes one by one, to the bit. The corrections are the
/// scalar pass's, to rounding (fused multiply-adds). Rigs without tearable sticks only. Requires
/// activeInstructionSet() == InstructionSet::Avx2.
void lanePasses(const Rig& rig, RagdollState& s, float omega, bool firstReversed, std::uint32_t count);

} // namespace marionette::runtime
