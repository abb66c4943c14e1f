// Internal: the floating-point mode the solver runs in.
//
// A body coming to rest carries velocities, corrections and products of them that decay toward zero and,
// below 1.2e-38 (floats), become subnormal numbers, which x86 processors compute through a microcode assist
// about a hundred times slower than a normal operation: a 64×64 cloth settling under its pins went from
// 90 µs to over 700 µs a step. The bodies that relax (Gauss–Seidel, Jacobi, XPBD: cloth, ropes) are stepped
// with subnormal inputs read as zero and subnormal results stored as zero (the SSE control register's DAZ
// and FTZ bits), as physics engines commonly do. The direct projection keeps IEEE arithmetic: its active
// set decides on the signs of multipliers that can be subnormal near rest, and its behaviour at rest (the
// sample characters' settle times) is the one measured with them. The thread running a body's share of a
// step gets its own mode back afterwards.
#pragma once

#include "marionette/runtime/Rig.h"

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

namespace marionette::runtime {

#if defined(__SSE2__)
inline constexpr unsigned kFlushDenormals = 0x8040; // FTZ (bit 15) | DAZ (bit 6)

/// Subnormals flushed to zero while it lives when `flush`; the thread's previous mode restored after.
class FlushDenormals {
public:
    explicit FlushDenormals(bool flush) : mSaved(_mm_getcsr()), mSet(flush && (mSaved & kFlushDenormals) != kFlushDenormals)
    {
        if (mSet)
            _mm_setcsr(mSaved | kFlushDenormals);
    }
    ~FlushDenormals()
    {
        if (mSet)
            _mm_setcsr((_mm_getcsr() & 0x3Fu) | mSaved); // the exception flags raised meanwhile stay raised
    }
    FlushDenormals(const FlushDenormals&) = delete;
    FlushDenormals& operator=(const FlushDenormals&) = delete;

private:
    unsigned mSaved;
    bool mSet;
};
#else
class FlushDenormals {
public:
    explicit FlushDenormals(bool) {}
    FlushDenormals(const FlushDenormals&) = delete;
    FlushDenormals& operator=(const FlushDenormals&) = delete;
};
#endif

/// Whether `rig`'s bodies step with subnormals flushed (above): those without the direct projection.
inline bool flushesDenormals(const Rig& rig) { return rig.projection() == nullptr; }

} // namespace marionette::runtime
