/* c_api: ragdolls from C, through marionette/marionette.h alone.
 *
 * Loads a .mrig, creates a world with a floor, drops four ragdolls, steps five seconds of 60 Hz frames through
 * the fixed-step accumulator, hits one of them, and reads positions and the skinning palette the way a
 * renderer would. Every call returns an MrResult; on failure mrLastError() says why.
 *
 *   c_api [RIG.mrig]
 *
 * Exits 0 when everything went as expected, 1 with one line on stderr otherwise (a missing or damaged rig
 * file: "error: PATH: what is wrong").
 */
#include "marionette/marionette.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define RAGDOLLS 4
#define FRAMES 300

/* Calls `call`; on failure prints the call and mrLastError() and jumps to the clean-up at the end of main. */
#define TRY(call)                                                                                             \
    do {                                                                                                      \
        const MrResult result_ = (call);                                                                      \
        if (result_ != MR_OK) {                                                                               \
            fprintf(stderr, "error: %s: %s (%s)\n", #call, mrLastError(), mrResultString(result_));          \
            goto done;                                                                                        \
        }                                                                                                     \
    } while (0)

int main(int argc, char** argv)
{
    const char* path = argc > 1 ? argv[1] : MARIONETTE_SAMPLE_RIG;
    int status = 1;
    MrRig* rig = NULL;
    MrWorld* world = NULL;
    MrRagdoll bodies[RAGDOLLS] = {0};
    MrMat4* palette = NULL;
    MrVec3* positions = NULL;
    uint32_t particles = 0, sticks = 0, bones = 0;
    size_t count = 0;
    int i, frame;

    /* 1. Load the rig. mrLastError() starts with the path: "hero.mrig: STCK[12].particleB: index 40 ...". */
    if (mrRigLoadFile(path, &rig) != MR_OK) {
        fprintf(stderr, "error: %s\n", mrLastError());
        return 1;
    }
    TRY(mrRigParticleCount(rig, &particles));
    TRY(mrRigStickCount(rig, &sticks));
    TRY(mrRigBoneCount(rig, &bones));
    printf("c_api: %s: %u particles, %u sticks, %u bones\n", path, particles, sticks, bones);

    /* 2. A world (default settings: gravity -9.81 m/s², fixed step 1/60 s, at most 4 steps per advance)
     * with the ground: the half-space y <= 0. */
    TRY(mrWorldCreate(NULL, &world));
    {
        const MrVec3 up = {0.f, 1.f, 0.f};
        TRY(mrWorldAddPlane(world, up, 0.f, NULL));
    }

    /* 3. Spawn: the bind pose moved by a placement. The world keeps its own reference to the rig. */
    for (i = 0; i < RAGDOLLS; ++i) {
        const MrTransform placement = {{0.f, 0.f, 0.f, 1.f}, {1.5f * (float)i, 1.f, 0.f}};
        const MrVec3 still = {0.f, 0.f, 0.f};
        TRY(mrWorldSpawn(world, rig, &placement, still, &bodies[i]));
    }
    printf("spawned %d ragdolls 1 m above the floor\n", RAGDOLLS);

    /* 4. The skinning palette: ask for the size once (NULL, 0), allocate, then fill it every frame. Each
     * matrix takes a vertex from the bind pose to where the ragdoll is now, so right after spawning every
     * one of them is just the placement. */
    TRY(mrRagdollGetSkinningMatrices(world, bodies[1], NULL, 0, &count, 1.f));
    palette = (MrMat4*)calloc(count ? count : 1, sizeof(MrMat4));
    positions = (MrVec3*)calloc(particles, sizeof(MrVec3));
    if (!palette || !positions) {
        fprintf(stderr, "error: out of memory\n");
        goto done;
    }
    TRY(mrRagdollGetSkinningMatrices(world, bodies[1], palette, count, &count, 1.f));
    for (i = 0; i < (int)count; ++i) {
        const float* m = palette[i].m; /* column-major: translation in m[12], m[13], m[14] */
        if (fabsf(m[0] - 1.f) > 1e-4f || fabsf(m[12] - 1.5f) > 1e-4f || fabsf(m[13] - 1.f) > 1e-4f) {
            fprintf(stderr, "error: skinning matrix %d at spawn is not the placement\n", i);
            goto done;
        }
    }
    printf("palette: %zu skinning matrices per ragdoll, each the spawn placement before the first step\n", count);

    /* 5. The frame loop: a game passes its measured frame time; here, 60 Hz frames. */
    for (frame = 1; frame <= FRAMES; ++frame) {
        uint32_t steps = 0;
        float alpha = 0.f;
        if (frame == 60) {
            /* A shot at the middle of description stick 0 of ragdoll 0: 60 N·s sideways and up. */
            const MrVec3 impulse = {60.f, 20.f, 0.f};
            TRY(mrRagdollApplyImpulseOnStick(world, bodies[0], 0, 0.5f, impulse));
            printf("frame %d: shot ragdoll 0\n", frame);
        }
        TRY(mrWorldAdvance(world, 1.f / 60.f, &steps));
        /* Render: interpolate between the last two steps by the leftover fraction. */
        TRY(mrWorldInterpolation(world, &alpha));
        for (i = 0; i < RAGDOLLS; ++i)
            TRY(mrRagdollGetSkinningMatrices(world, bodies[i], palette, count, &count, alpha));
    }

    /* 6. Where did they end up? */
    {
        float lowest = 1e30f;
        int asleep = 0, b;
        size_t p;
        for (b = 0; b < RAGDOLLS; ++b) {
            int sleeping = 0;
            TRY(mrRagdollGetPositions(world, bodies[b], positions, particles, &count, 1.f));
            for (p = 0; p < count; ++p)
                lowest = positions[p].y < lowest ? positions[p].y : lowest;
            TRY(mrRagdollIsAsleep(world, bodies[b], &sleeping));
            asleep += sleeping;
        }
        printf("end: %d ragdolls after %d frames, %d asleep, lowest particle at %.3f m\n", RAGDOLLS, FRAMES, asleep,
               (double)lowest);
        if (!(lowest > -0.01f)) {
            fprintf(stderr, "error: a particle went through the floor (%.3f m)\n", (double)lowest);
            goto done;
        }
    }
    status = 0;

done:
    /* 7. Clean up: destroying the world removes its ragdolls; the rig is reference counted. */
    free(palette);
    free(positions);
    mrWorldDestroy(world);
    mrRigRelease(rig);
    return status;
}
