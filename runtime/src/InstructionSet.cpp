// Which vector instructions the runtime's kernels use: found once from the processor, limitable for tests
// and benchmarks that compare the paths (World.h).
#include "InstructionSet.h"

#include "marionette/runtime/World.h"

#include <atomic>

namespace marionette::runtime {

namespace {

InstructionSet best()
{
    static const InstructionSet found = [] {
#if MARIONETTE_AVX2_KERNELS
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
            return InstructionSet::Avx2;
#endif
#if defined(__SSE2__)
        return InstructionSet::Sse2;
#else
        return InstructionSet::Scalar;
#endif
    }();
    return found;
}

/// useInstructionSet()'s limit, or -1 for none.
std::atomic<int> gLimit{-1};

const char* nameOf(InstructionSet set)
{
    switch (set) {
    case InstructionSet::Avx2:
        return "avx2";
    case InstructionSet::Sse2:
        return "sse2";
    case InstructionSet::Scalar:
        break;
    }
    return "scalar";
}

} // namespace

InstructionSet activeInstructionSet()
{
    const int limit = gLimit.load(std::memory_order_relaxed);
    return limit < 0 ? best() : InstructionSet(limit);
}

const char* instructionSet()
{
    return nameOf(activeInstructionSet());
}

bool useInstructionSet(std::string_view name)
{
    for (const InstructionSet set : {InstructionSet::Scalar, InstructionSet::Sse2, InstructionSet::Avx2})
        if (name == nameOf(set)) {
            if (set > best())
                return false;
            gLimit.store(int(set), std::memory_order_relaxed);
            return true;
        }
    return false;
}

} // namespace marionette::runtime
