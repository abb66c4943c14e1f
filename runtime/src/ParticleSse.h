// Internal: four particles' positions (Vec3, 12 consecutive floats) in three SSE2 registers, x y z x | y z x y |
// z x y z, for the per-particle loops of Solver.cpp and Collision.cpp, which compute each float as their
// one-particle loops do, in the same order.
#pragma once

#include "marionette/Math.h"

// The loops read an array of positions as 3n consecutive floats.
static_assert(sizeof(marionette::Vec3) == 3 * sizeof(float) && alignof(marionette::Vec3) == alignof(float));

#if defined(__SSE2__)
#include <emmintrin.h>
#define MARIONETTE_PARTICLE_SSE 1

namespace marionette::runtime::sse {

/// One value per particle (lanes 0..3) spread over the three registers' coordinates of those particles.
inline void spreadOverCoordinates(__m128 v, __m128& r0, __m128& r1, __m128& r2)
{
    r0 = _mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 0, 0, 0)); // v0 v0 v0 v1
    r1 = _mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 2, 1, 1)); // v1 v1 v2 v2
    r2 = _mm_shuffle_ps(v, v, _MM_SHUFFLE(3, 3, 3, 2)); // v2 v3 v3 v3
}

} // namespace marionette::runtime::sse

#endif
