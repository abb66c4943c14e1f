// Internal: the vector instruction set the runtime's kernels use, chosen at run time (World.h:
// instructionSet(), useInstructionSet()).
#pragma once

#include <cstdint>

/// Whether this build has the AVX2 kernels (x86 with GCC or Clang, whose target attribute compiles them
/// beside the baseline code); only then can the processor's AVX2 be used.
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define MARIONETTE_AVX2_KERNELS 1
#endif

namespace marionette::runtime {

/// Ordered: each includes the ones before it.
enum class InstructionSet : std::uint8_t {
    Scalar, ///< plain C++: any machine
    Sse2,   ///< the 4-wide stick blocks (every x86-64)
    Avx2,   ///< the 8-wide stick lanes, with fused multiply-add (x86-64 with AVX2 and FMA, and this build has
            ///< the kernels: MARIONETTE_AVX2_KERNELS)
};

/// The instruction set in use: the best this machine has, or the one useInstructionSet() limited it to.
InstructionSet activeInstructionSet();

} // namespace marionette::runtime
