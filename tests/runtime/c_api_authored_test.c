/* C API: what a rig says about the world it was authored for (mrRigAuthoredWorldSettings) and whether its
 * ragdolls collide with themselves (mrRigSelfCollision), read from .mrig files written by make_test_rigs:
 *   c_api_authored_test HUMANOID.mrig AUTHORED.mrig
 * humanoid.mrig has the defaults; authored.mrig Mars gravity, a 1/120 s step, 6 steps per advance and no
 * self-collision. Exits 0 when every check passes. */
#include "marionette/marionette.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int gFailed = 0;

#define CHECK(cond, what)                                                                                     \
    do {                                                                                                      \
        if (!(cond)) {                                                                                        \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, what);                                    \
            ++gFailed;                                                                                        \
        }                                                                                                     \
    } while (0)

static MrRig* load(const char* path)
{
    MrRig* rig = NULL;
    if (mrRigLoadFile(path, &rig) != MR_OK) {
        fprintf(stderr, "FAIL: %s\n", mrLastError());
        ++gFailed;
    }
    return rig;
}

int main(int argc, char** argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: c_api_authored_test HUMANOID.mrig AUTHORED.mrig\n");
        return 2;
    }
    MrRig* plain = load(argv[1]);
    MrRig* authored = load(argv[2]);
    if (!plain || !authored)
        return 1;

    const MrWorldSettings defaults = mrWorldSettingsDefault();
    MrWorldSettings w;
    int32_t self = -1;

    /* The plain humanoid: the default world, self-collision on. */
    CHECK(mrRigAuthoredWorldSettings(plain, &w) == MR_OK, "mrRigAuthoredWorldSettings(humanoid)");
    CHECK(w.gravity.x == defaults.gravity.x && w.gravity.y == defaults.gravity.y && w.gravity.z == defaults.gravity.z,
          "the humanoid's gravity is not the default");
    CHECK(w.timeStep == defaults.timeStep && w.maxSubsteps == defaults.maxSubsteps, "the humanoid's clock");
    CHECK(mrRigSelfCollision(plain, &self) == MR_OK && self == 1, "the humanoid collides with itself");

    /* The authored rig: its world, and the settings that are not the rig's stay the defaults. */
    memset(&w, 0xAB, sizeof w);
    CHECK(mrRigAuthoredWorldSettings(authored, &w) == MR_OK, "mrRigAuthoredWorldSettings(authored)");
    CHECK(w.gravity.x == 0.f && fabsf(w.gravity.y + 3.71f) < 1e-6f && w.gravity.z == 0.f, "Mars gravity");
    CHECK(fabsf(w.timeStep - 1.f / 120.f) < 1e-9f, "a 1/120 s step");
    CHECK(w.maxSubsteps == 6u, "6 steps per advance");
    CHECK(w.threads == defaults.threads && w.sleep == defaults.sleep && w.ragdollCollisions == defaults.ragdollCollisions &&
              w.contactsPerRagdoll == defaults.contactsPerRagdoll,
          "world settings the rig does not hold are the defaults");
    CHECK(mrRigSelfCollision(authored, &self) == MR_OK && self == 0, "the authored rig has no self-collision");

    /* A world made from them runs at the authored step: one second is 120 steps. */
    MrWorld* world = NULL;
    CHECK(mrWorldCreate(&w, &world) == MR_OK, "mrWorldCreate with the authored settings");
    if (world) {
        uint32_t steps = 0, total = 0;
        for (int i = 0; i < 60; ++i) {
            CHECK(mrWorldAdvance(world, 1.f / 60.f, &steps) == MR_OK, "mrWorldAdvance");
            total += steps;
        }
        CHECK(total == 120u, "one second at the authored 1/120 s step is 120 steps");
        mrWorldDestroy(world);
    }

    /* Bad input: a NULL rig or output fails, naming it, and writes nothing. */
    self = 7;
    CHECK(mrRigSelfCollision(NULL, &self) == MR_INVALID_ARGUMENT && strstr(mrLastError(), "rig is NULL"), "NULL rig");
    CHECK(mrRigSelfCollision(plain, NULL) == MR_INVALID_ARGUMENT && strstr(mrLastError(), "on is NULL"), "NULL on");
    CHECK(self == 7, "a failed mrRigSelfCollision wrote its output");
    CHECK(mrRigAuthoredWorldSettings(NULL, &w) == MR_INVALID_ARGUMENT, "NULL rig");
    CHECK(mrRigAuthoredWorldSettings(plain, NULL) == MR_INVALID_ARGUMENT && strstr(mrLastError(), "out is NULL"),
          "NULL out");

    mrRigRelease(plain);
    mrRigRelease(authored);
    if (gFailed)
        return 1;
    printf("c_api_authored_test: all passed\n");
    return 0;
}
