// Internal: the 8-wide Gauss–Seidel pass over the sticks of a rig that has stick lanes (Rig::stickLanes()).
#pragma once

#include <cstdint>

namespace marionette::runtime {

class Rig;
struct RagdollState;

/// True when this build can run lanePass() (x86-64 with GCC or Clang); the caller checks the processor
/// (activeInstructionSet() == InstructionSet::Avx2).
bool lanePassAvailable();

/// One Gauss–Seidel pass over rig.sticks() in order (reversed when `reverse`), the sets of eight at once on
/// x, y and z in separate arrays, the sticks between them one by one: the same corrections as the scalar
/// pass, to rounding (fused multiply-adds). Rigs without tearable sticks only. Requires AVX2 and FMA.
void lanePass(const Rig& rig, RagdollState& s, float omega, bool reverse);

/// `count` lanePass()es, the first reversed when `firstReversed` and each next one the other way, the
/// positions kept in the separate arrays from the first to the last: the same result as the passes one by
/// one, to the bit.
void lanePasses(const Rig& rig, RagdollState& s, float omega, bool firstReversed, std::uint32_t count);

} // namespace marionette::runtime
