/* C11 test of the Marionette C API (marionette/marionette.h). Exits non-zero with a message on the first
 * failed check; prints "c_api_test: N passed, 0 failed" when everything holds. */
#include "marionette/marionette.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int gPassed = 0;

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (cond) {                                                                        \
            ++gPassed;                                                                     \
        } else {                                                                           \
            fprintf(stderr, "c_api_test: FAILED at %s:%d: %s\n  ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fprintf(stderr, "\n  mrLastError(): %s\nc_api_test: %d passed, 1 failed\n",    \
                    mrLastError(), gPassed);                                               \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

/* Expects a call to return `expected`. */
#define EXPECT_RESULT(call, expected)                                                      \
    do {                                                                                   \
        const MrResult r_ = (call);                                                        \
        CHECK(r_ == (expected), "%s returned %s, expected %s", #call, mrResultString(r_),  \
              mrResultString(expected));                                                   \
    } while (0)

#define OK(call) EXPECT_RESULT(call, MR_OK)

/* Expects a failure with the given code and a non-empty message (containing `needle` if not NULL). */
#define EXPECT_FAIL(call, expected, needle)                                                \
    do {                                                                                   \
        EXPECT_RESULT(call, expected);                                                     \
        CHECK(mrLastError() != NULL && mrLastError()[0] != '\0', "%s: empty mrLastError()", #call); \
        CHECK(contains(mrLastError(), (needle)), "%s: message lacks \"%s\"", #call,        \
              (needle) ? (const char*)(needle) : "");                                      \
    } while (0)

/* True when `needle` is NULL or occurs in `text`. */
static int contains(const char* text, const char* needle)
{
    return needle == NULL || (text != NULL && strstr(text, needle) != NULL);
}

#define MAX_PARTICLES 64
#define MAX_BONES 64

static MrVec3 vec3(float x, float y, float z)
{
    MrVec3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}

static MrTransform translation(float x, float y, float z)
{
    MrTransform t;
    t.rotation.x = 0.f;
    t.rotation.y = 0.f;
    t.rotation.z = 0.f;
    t.rotation.w = 1.f;
    t.translation = vec3(x, y, z);
    return t;
}

static int finiteVec(MrVec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

static float distance(MrVec3 a, MrVec3 b)
{
    const float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return sqrtf(dx * dx + dy * dy + dz * dz);
}

static size_t positions(MrWorld* world, MrRagdoll ragdoll, MrVec3* out)
{
    size_t count = 0;
    OK(mrRagdollGetPositions(world, ragdoll, out, MAX_PARTICLES, &count, 1.f));
    return count;
}

static void checkMatrices(MrWorld* world, MrRagdoll ragdoll, uint32_t bones, int skinning)
{
    MrMat4 mats[MAX_BONES];
    size_t count = 12345;
    if (skinning)
        OK(mrRagdollGetSkinningMatrices(world, ragdoll, mats, MAX_BONES, &count, 0.5f));
    else
        OK(mrRagdollGetBoneMatrices(world, ragdoll, mats, MAX_BONES, &count, 0.5f));
    CHECK(count == bones, "%s matrix count %zu != mrRigBoneCount %u", skinning ? "skinning" : "bone", count,
          (unsigned)bones);
    int allFinite = 1, affine = 1;
    for (size_t i = 0; i < count; ++i) {
        for (int k = 0; k < 16; ++k)
            if (!isfinite(mats[i].m[k]))
                allFinite = 0;
        if (mats[i].m[3] != 0.f || mats[i].m[7] != 0.f || mats[i].m[11] != 0.f || fabsf(mats[i].m[15] - 1.f) > 1e-6f)
            affine = 0;
    }
    CHECK(allFinite, "%s matrices are not all finite", skinning ? "skinning" : "bone");
    CHECK(affine, "%s matrices are not affine (column-major last row 0 0 0 1)", skinning ? "skinning" : "bone");
}

static void testDefaults(void)
{
    const MrRigDesc desc = mrRigDescDefault();
    CHECK(desc.particles == NULL && desc.particleCount == 0 && desc.stickCount == 0, "mrRigDescDefault has elements");
    CHECK(desc.settings.substeps == 8 && desc.settings.iterations == 3 && desc.settings.solver == MR_SOLVER_DIRECT,
          "default settings: substeps %u iterations %u solver %d", (unsigned)desc.settings.substeps,
          (unsigned)desc.settings.iterations, (int)desc.settings.solver);
    CHECK(desc.settings.damping == 0.6f && desc.settings.staticFrictionSpeed == 0.12f,
          "default rates: damping %g /s, static friction speed %g m/s", (double)desc.settings.damping,
          (double)desc.settings.staticFrictionSpeed);
    const MrParticleDesc p = mrParticleDescDefault();
    CHECK(p.mass == 1.f && p.radius > 0.f && p.group == 1u && p.mask == 0xFFFFFFFFu, "particle defaults");
    const MrStickDesc s = mrStickDescDefault();
    CHECK(s.kind == MR_STICK_RIGID && s.restLength < 0.f && s.stiffness == 1.f, "stick defaults");
    const MrWorldSettings w = mrWorldSettingsDefault();
    CHECK(fabsf(w.gravity.y + 9.81f) < 1e-6f && fabsf(w.timeStep - 1.f / 60.f) < 1e-7f && w.threads == 1,
          "world defaults");
    CHECK(strcmp(mrResultString(MR_NOT_FOUND), "MR_NOT_FOUND") == 0, "mrResultString");
}

/* Two humanoids dropped from 2 m onto a ground plane for 3 simulated seconds. */
static void testHumanoidsFall(void)
{
    MrRig* rig = NULL;
    OK(mrRigCreateHumanoid(1.8f, 75.f, &rig));
    CHECK(rig != NULL, "no rig");
    uint32_t particles = 0, bones = 0, sticks = 0;
    OK(mrRigParticleCount(rig, &particles));
    OK(mrRigBoneCount(rig, &bones));
    OK(mrRigStickCount(rig, &sticks));
    CHECK(particles == 20, "humanoid has %u particles, expected 20", (unsigned)particles);
    CHECK(bones > 0 && bones <= MAX_BONES, "humanoid has %u bones", (unsigned)bones);
    CHECK(sticks > 0, "humanoid has no sticks");

    MrWorld* world = NULL;
    OK(mrWorldCreate(NULL, &world));
    int32_t plane = -1;
    OK(mrWorldAddPlane(world, vec3(0.f, 1.f, 0.f), 0.f, &plane));
    CHECK(plane == 0, "first plane id %d", (int)plane);

    const MrTransform placeA = translation(-1.f, 2.f, 0.f);
    const MrTransform placeB = translation(1.f, 2.f, 0.f);
    MrRagdoll a = MR_INVALID_RAGDOLL, b = MR_INVALID_RAGDOLL;
    OK(mrWorldSpawn(world, rig, &placeA, vec3(0.f, 0.f, 0.f), &a));
    OK(mrWorldSpawn(world, rig, &placeB, vec3(0.f, 0.f, 0.f), &b));
    CHECK(a != MR_INVALID_RAGDOLL && b != MR_INVALID_RAGDOLL && a != b, "bad handles %llu %llu",
          (unsigned long long)a, (unsigned long long)b);
    uint32_t live = 0;
    OK(mrWorldRagdollCount(world, &live));
    CHECK(live == 2, "ragdoll count %u", (unsigned)live);

    /* The rig is refcounted: the ragdolls keep it alive after the caller's release. */
    OK(mrRigRetain(rig));
    OK(mrRigRelease(rig));

    MrVec3 start[MAX_PARTICLES];
    CHECK(positions(world, a, start) == particles, "position count");
    CHECK(fabsf(start[6].y - (1.72f + 2.f)) < 1e-4f, "head starts at y = %g, expected 3.72", (double)start[6].y);

    uint32_t totalSteps = 0;
    for (int frame = 0; frame < 180; ++frame) {
        uint32_t steps = 0;
        OK(mrWorldAdvance(world, 1.f / 60.f, &steps));
        totalSteps += steps;
    }
    CHECK(totalSteps >= 179 && totalSteps <= 181, "advanced %u steps in 3 s at 60 Hz", (unsigned)totalSteps);
    float alpha = -1.f;
    OK(mrWorldInterpolation(world, &alpha));
    CHECK(alpha >= 0.f && alpha < 1.f, "interpolation %g outside [0, 1)", (double)alpha);

    const MrRagdoll both[2] = {a, b};
    for (int k = 0; k < 2; ++k) {
        MrVec3 p[MAX_PARTICLES];
        const size_t n = positions(world, both[k], p);
        CHECK(n == particles, "position count %zu", n);
        for (size_t i = 0; i < n; ++i) {
            CHECK(finiteVec(p[i]), "ragdoll %d particle %zu is not finite", k, i);
            CHECK(p[i].y > -0.01f, "ragdoll %d particle %zu at y = %g is below the ground", k, i, (double)p[i].y);
        }
        /* It fell: the head is well below its start height. */
        CHECK(p[6].y < 2.5f, "ragdoll %d head still at y = %g after 3 s", k, (double)p[6].y);
        /* Interpolated positions are also finite. */
        MrVec3 q[MAX_PARTICLES];
        size_t m = 0;
        OK(mrRagdollGetPositions(world, both[k], q, MAX_PARTICLES, &m, alpha));
        for (size_t i = 0; i < m; ++i)
            CHECK(finiteVec(q[i]), "interpolated particle %zu not finite", i);
    }

    checkMatrices(world, a, bones, 0);
    checkMatrices(world, a, bones, 1);
    checkMatrices(world, b, bones, 1);

    /* Buffer protocol: query the count, too-small buffer. */
    size_t count = 0;
    OK(mrRagdollGetBoneMatrices(world, a, NULL, 0, &count, 1.f));
    CHECK(count == bones, "queried bone count %zu", count);
    MrMat4 small[2];
    count = 0;
    EXPECT_FAIL(mrRagdollGetSkinningMatrices(world, a, small, 2, &count, 1.f), MR_INVALID_ARGUMENT, "capacity");
    CHECK(count == bones, "too-small buffer still reports the count: %zu", count);
    EXPECT_FAIL(mrRagdollGetPositions(world, a, NULL, 5, &count, 1.f), MR_INVALID_ARGUMENT, NULL);
    MrVec3 tmp[MAX_PARTICLES];
    EXPECT_FAIL(mrRagdollGetPositions(world, a, tmp, MAX_PARTICLES, &count, 1.5f), MR_INVALID_ARGUMENT, "alpha");
    EXPECT_FAIL(mrRagdollGetPositions(world, a, tmp, MAX_PARTICLES, &count, NAN), MR_INVALID_ARGUMENT, "alpha");

    int asleep = -1;
    OK(mrRagdollIsAsleep(world, a, &asleep));
    CHECK(asleep == 0 || asleep == 1, "asleep = %d", asleep);

    /* Removing: the handle dies and is not reused. */
    OK(mrWorldRemove(world, a));
    EXPECT_FAIL(mrWorldRemove(world, a), MR_NOT_FOUND, NULL);
    EXPECT_FAIL(mrRagdollIsAsleep(world, a, &asleep), MR_NOT_FOUND, NULL);
    MrRagdoll c = MR_INVALID_RAGDOLL;
    OK(mrWorldSpawn(world, rig, &placeA, vec3(0.f, 0.f, 0.f), &c));
    CHECK(c != a, "handle %llu reused", (unsigned long long)c);
    OK(mrWorldStep(world));

    OK(mrRigRelease(rig)); /* the caller's last reference; ragdolls b and c keep the rig */
    for (int i = 0; i < 30; ++i)
        OK(mrWorldStep(world));
    MrVec3 p[MAX_PARTICLES];
    const size_t n = positions(world, c, p);
    for (size_t i = 0; i < n; ++i)
        CHECK(finiteVec(p[i]), "particle %zu not finite after the rig was released", i);
    OK(mrWorldDestroy(world));
}

/* The same ragdoll in two identical worlds, one receiving an impulse: its particle moves further. */
static void testImpulse(void)
{
    MrRig* rig = NULL;
    OK(mrRigCreateHumanoid(1.8f, 75.f, &rig));
    MrWorld* worlds[2] = {NULL, NULL};
    MrRagdoll r[2];
    const MrTransform place = translation(0.f, 5.f, 0.f);
    for (int k = 0; k < 2; ++k) {
        OK(mrWorldCreate(NULL, &worlds[k]));
        OK(mrWorldAddPlane(worlds[k], vec3(0.f, 1.f, 0.f), 0.f, NULL));
        OK(mrWorldSpawn(worlds[k], rig, &place, vec3(0.f, 0.f, 0.f), &r[k]));
        OK(mrWorldStep(worlds[k]));
    }
    MrVec3 before[2][MAX_PARTICLES], after[2][MAX_PARTICLES];
    for (int k = 0; k < 2; ++k)
        positions(worlds[k], r[k], before[k]);
    CHECK(distance(before[0][6], before[1][6]) == 0.f, "identical worlds diverged before the impulse");

    OK(mrRagdollApplyImpulse(worlds[1], r[1], 6u, vec3(10.f, 0.f, 0.f))); /* head, +X */
    for (int k = 0; k < 2; ++k) {
        OK(mrWorldStep(worlds[k]));
        positions(worlds[k], r[k], after[k]);
    }
    const float moved0 = after[0][6].x - before[0][6].x;
    const float moved1 = after[1][6].x - before[1][6].x;
    CHECK(moved1 - moved0 > 0.005f, "impulse moved the head by %g m in x vs %g without", (double)moved1,
          (double)moved0);

    /* Impulse on a stick (description stick 0, midpoint), explosion: accepted, state stays finite. */
    OK(mrRagdollApplyImpulseOnStick(worlds[1], r[1], 0u, 0.5f, vec3(0.f, 5.f, 0.f)));
    OK(mrWorldExplosion(worlds[1], vec3(0.f, 4.f, 1.f), 5.f, 3.f, 0.25f));
    OK(mrWorldStep(worlds[1]));
    positions(worlds[1], r[1], after[1]);
    for (int i = 0; i < 20; ++i)
        CHECK(finiteVec(after[1][i]), "particle %d not finite after impulses", i);

    /* Bad impulse arguments. */
    EXPECT_FAIL(mrRagdollApplyImpulse(worlds[1], r[1], 20u, vec3(1.f, 0.f, 0.f)), MR_INVALID_ARGUMENT, "out of range");
    EXPECT_FAIL(mrRagdollApplyImpulse(worlds[1], r[1], 0u, vec3(NAN, 0.f, 0.f)), MR_INVALID_ARGUMENT, "finite");
    EXPECT_FAIL(mrRagdollApplyImpulseOnStick(worlds[1], r[1], 0u, 1.5f, vec3(1.f, 0.f, 0.f)), MR_INVALID_ARGUMENT,
                NULL);
    EXPECT_FAIL(mrWorldExplosion(worlds[1], vec3(0.f, 0.f, 0.f), 1.f, 0.f, 0.25f), MR_INVALID_ARGUMENT, "radius");

    /* Pins: a kinematic pin holds the particle on its target and refuses impulses; release frees it. */
    const MrVec3 target = vec3(0.f, 6.f, 0.f);
    OK(mrRagdollSetPin(worlds[0], r[0], 6u, target, 1.f, 1));
    for (int i = 0; i < 30; ++i)
        OK(mrWorldStep(worlds[0]));
    positions(worlds[0], r[0], after[0]);
    CHECK(distance(after[0][6], target) < 1e-4f, "pinned head is %g m from its target",
          (double)distance(after[0][6], target));
    EXPECT_FAIL(mrRagdollApplyImpulse(worlds[0], r[0], 6u, vec3(1.f, 0.f, 0.f)), MR_INVALID_ARGUMENT, "kinematic");
    OK(mrRagdollReleasePin(worlds[0], r[0], 6u));
    EXPECT_FAIL(mrRagdollReleasePin(worlds[0], r[0], 6u), MR_NOT_FOUND, "no pin");
    OK(mrRagdollApplyImpulse(worlds[0], r[0], 6u, vec3(1.f, 0.f, 0.f)));
    EXPECT_FAIL(mrRagdollSetPin(worlds[0], r[0], 6u, target, 0.f, 0), MR_INVALID_ARGUMENT, "stiffness");

    /* Pose: teleport to the bind pose 1 m higher, at rest; previous NULL means no velocity. */
    MrVec3 pose[MAX_PARTICLES];
    for (int i = 0; i < 20; ++i) {
        pose[i] = before[0][i];
        pose[i].y += 1.f;
    }
    OK(mrRagdollSetPose(worlds[0], r[0], pose, NULL, 20));
    positions(worlds[0], r[0], after[0]);
    CHECK(distance(after[0][3], pose[3]) == 0.f, "setPose did not place particle 3");
    EXPECT_FAIL(mrRagdollSetPose(worlds[0], r[0], pose, NULL, 19), MR_INVALID_ARGUMENT, "count");
    pose[4].z = INFINITY;
    EXPECT_FAIL(mrRagdollSetPose(worlds[0], r[0], pose, NULL, 20), MR_INVALID_ARGUMENT, "current[4]");

    for (int k = 0; k < 2; ++k)
        OK(mrWorldDestroy(worlds[k]));
    OK(mrRigRelease(rig));
}

static void testErrors(void)
{
    MrRig* rig = NULL;
    MrWorld* world = NULL;
    MrRagdoll ragdoll = MR_INVALID_RAGDOLL;
    uint32_t u = 0;
    size_t count = 0;

    /* NULL pointers. */
    EXPECT_FAIL(mrRigCreateHumanoid(1.8f, 75.f, NULL), MR_INVALID_ARGUMENT, "out");
    EXPECT_FAIL(mrRigCreate(NULL, &rig), MR_INVALID_ARGUMENT, "desc");
    EXPECT_FAIL(mrWorldCreate(NULL, NULL), MR_INVALID_ARGUMENT, "out");
    EXPECT_FAIL(mrRigParticleCount(NULL, &u), MR_INVALID_ARGUMENT, "rig");
    EXPECT_FAIL(mrWorldStep(NULL), MR_INVALID_ARGUMENT, "world");
    EXPECT_FAIL(mrWorldAdvance(NULL, 0.1f, NULL), MR_INVALID_ARGUMENT, "world");
    EXPECT_FAIL(mrRagdollGetPositions(NULL, 1u, NULL, 0, &count, 1.f), MR_INVALID_ARGUMENT, "world");
    EXPECT_FAIL(mrRigRetain(NULL), MR_INVALID_ARGUMENT, "rig");
    OK(mrRigRelease(NULL)); /* free(NULL)-like */
    OK(mrWorldDestroy(NULL));

    /* Bad values. */
    EXPECT_FAIL(mrRigCreateHumanoid(NAN, 75.f, &rig), MR_INVALID_ARGUMENT, "height");
    EXPECT_FAIL(mrRigCreateHumanoid(1.8f, -1.f, &rig), MR_INVALID_ARGUMENT, "mass");
    EXPECT_FAIL(mrRigCreateCloth(0, 4, 0.1f, 1, 0.f, &rig), MR_INVALID_ARGUMENT, NULL);
    EXPECT_FAIL(mrRigCreateCloth(4, 4, 0.1f, 1, 0.5f, &rig), MR_INVALID_ARGUMENT, "tearRatio");
    EXPECT_FAIL(mrRigCreateCrate(vec3(0.5f, 0.f, 0.5f), 10.f, &rig), MR_INVALID_ARGUMENT, "half");
    MrWorldSettings ws = mrWorldSettingsDefault();
    ws.timeStep = 0.f;
    EXPECT_FAIL(mrWorldCreate(&ws, &world), MR_INVALID_ARGUMENT, "timeStep");
    ws = mrWorldSettingsDefault();
    ws.threads = 0;
    EXPECT_FAIL(mrWorldCreate(&ws, &world), MR_INVALID_ARGUMENT, "threads");
    CHECK(world == NULL, "failed create wrote its output");

    ws = mrWorldSettingsDefault();
    ws.threads = 2;
    OK(mrWorldCreate(&ws, &world));
    EXPECT_FAIL(mrWorldAddPlane(world, vec3(0.f, 0.f, 0.f), 0.f, NULL), MR_INVALID_ARGUMENT, "plane");
    EXPECT_FAIL(mrWorldAddSphere(world, vec3(0.f, 0.f, 0.f), -1.f, NULL), MR_INVALID_ARGUMENT, "sphere");
    EXPECT_FAIL(mrWorldAdvance(world, INFINITY, NULL), MR_INVALID_ARGUMENT, "seconds");
    EXPECT_FAIL(mrWorldAdvance(world, -1.f, NULL), MR_INVALID_ARGUMENT, "seconds");
    EXPECT_FAIL(mrWorldSetGravity(world, vec3(0.f, NAN, 0.f)), MR_INVALID_ARGUMENT, "gravity");

    /* Other static shapes, and a level mesh (a 20 m quad at y = 0) with a bad index first. */
    int32_t id = -1;
    const MrTransform boxPose = translation(5.f, 0.5f, 0.f);
    OK(mrWorldAddBox(world, &boxPose, vec3(0.5f, 0.5f, 0.5f), &id));
    CHECK(id == 0, "box id %d", (int)id);
    OK(mrWorldAddSphere(world, vec3(-5.f, 0.f, 0.f), 1.f, NULL));
    OK(mrWorldAddCapsule(world, vec3(0.f, 0.2f, -3.f), vec3(0.f, 0.2f, 3.f), 0.2f, NULL));
    const float verts[] = {-10.f, 0.f, -10.f, 10.f, 0.f, -10.f, 10.f, 0.f, 10.f, -10.f, 0.f, 10.f};
    const uint32_t badIdx[] = {0, 1, 4};
    EXPECT_FAIL(mrWorldAddTriangleMesh(world, verts, 4, badIdx, 3, &id), MR_INVALID_ARGUMENT, "out of range");
    EXPECT_FAIL(mrWorldAddTriangleMesh(world, NULL, 4, badIdx, 3, &id), MR_INVALID_ARGUMENT, "vertices");
    const uint32_t idx[] = {0, 2, 1, 0, 3, 2};
    OK(mrWorldAddTriangleMesh(world, verts, 4, idx, 6, &id));
    CHECK(id == 0, "mesh id %d", (int)id);

    /* A crate falls onto the static box and a cloth hangs above the mesh; the world steps on two threads. */
    MrRig* crate = NULL;
    MrRig* cloth = NULL;
    OK(mrRigCreateCrate(vec3(0.3f, 0.2f, 0.4f), 20.f, &crate));
    OK(mrRigCreateCloth(8, 6, 0.1f, 1, 3.f, &cloth));
    OK(mrRigBoneCount(crate, &u));
    CHECK(u == 0, "crate has %u bones", (unsigned)u);
    const MrTransform high = translation(0.f, 3.f, 0.f);
    const MrTransform aboveBox = translation(5.f, 3.f, 0.f);
    MrRagdoll crateDoll = 0, clothDoll = 0;
    OK(mrWorldSpawn(world, crate, &aboveBox, vec3(0.f, 0.f, 0.f), &crateDoll));
    OK(mrWorldSpawn(world, cloth, &high, vec3(0.f, 0.f, 0.f), &clothDoll));
    OK(mrRigRelease(crate));
    OK(mrRigRelease(cloth));
    for (int i = 0; i < 120; ++i)
        OK(mrWorldStep(world));
    MrVec3 p[MAX_PARTICLES];
    size_t n = positions(world, crateDoll, p);
    CHECK(n == 4, "crate particle count %zu", n);
    for (size_t i = 0; i < n; ++i)
        CHECK(finiteVec(p[i]) && p[i].y > 0.95f && p[i].y < 2.f, "crate particle %zu at y = %g, expected on the box",
              i, (double)p[i].y);
    int torn = -1;
    OK(mrRagdollIsStickTorn(world, clothDoll, 0u, &torn));
    CHECK(torn == 0, "cloth stick torn while hanging");
    count = 0;
    OK(mrRagdollGetBoneMatrices(world, clothDoll, NULL, 0, &count, 1.f));
    CHECK(count == 0, "cloth reports %zu bones", count);

    /* Unknown ragdoll handles. */
    EXPECT_FAIL(mrWorldRemove(world, (MrRagdoll)0xDEADBEEF12345ull), MR_NOT_FOUND, "ragdoll");
    EXPECT_FAIL(mrWorldRemove(world, MR_INVALID_RAGDOLL), MR_NOT_FOUND, NULL);
    EXPECT_FAIL(mrRagdollApplyImpulse(world, (MrRagdoll)999u, 0u, vec3(1.f, 0.f, 0.f)), MR_NOT_FOUND, NULL);
    EXPECT_FAIL(mrRagdollGetPositions(world, (MrRagdoll)999u, p, MAX_PARTICLES, &count, 1.f), MR_NOT_FOUND, NULL);
    EXPECT_FAIL(mrRagdollSetPin(world, (MrRagdoll)999u, 0u, vec3(0.f, 0.f, 0.f), 1.f, 1), MR_NOT_FOUND, NULL);
    /* The same handle value in another world is unknown there. */
    MrWorld* other = NULL;
    OK(mrWorldCreate(NULL, &other));
    EXPECT_FAIL(mrRagdollWake(other, crateDoll), MR_NOT_FOUND, NULL);
    OK(mrWorldDestroy(other));

    /* Spawn arguments. */
    MrRig* human = NULL;
    OK(mrRigCreateHumanoid(1.6f, 60.f, &human));
    MrTransform skewed = translation(0.f, 1.f, 0.f);
    skewed.rotation.w = 2.f;
    EXPECT_FAIL(mrWorldSpawn(world, human, &skewed, vec3(0.f, 0.f, 0.f), &ragdoll), MR_INVALID_ARGUMENT, "unit");
    EXPECT_FAIL(mrWorldSpawn(world, human, NULL, vec3(0.f, 0.f, 0.f), NULL), MR_INVALID_ARGUMENT, "out");
    EXPECT_FAIL(mrWorldSpawn(world, NULL, NULL, vec3(0.f, 0.f, 0.f), &ragdoll), MR_INVALID_ARGUMENT, "rig");
    EXPECT_FAIL(mrWorldSpawn(world, human, NULL, vec3(INFINITY, 0.f, 0.f), &ragdoll), MR_INVALID_ARGUMENT,
                "velocity");
    CHECK(ragdoll == MR_INVALID_RAGDOLL, "failed spawn wrote its output");
    OK(mrRigRelease(human));

    /* A rig description with a stick index out of range. */
    MrParticleDesc parts[2] = {mrParticleDescDefault(), mrParticleDescDefault()};
    parts[1].position = vec3(1.f, 0.f, 0.f);
    MrStickDesc stick = mrStickDescDefault();
    stick.a = 0;
    stick.b = 7;
    MrRigDesc desc = mrRigDescDefault();
    desc.particles = parts;
    desc.particleCount = 2;
    desc.sticks = &stick;
    desc.stickCount = 1;
    EXPECT_FAIL(mrRigCreate(&desc, &rig), MR_INVALID_RIG, "sticks[0]");
    CHECK(rig == NULL, "failed mrRigCreate wrote its output");
    stick.b = 1;
    stick.kind = 42;
    EXPECT_FAIL(mrRigCreate(&desc, &rig), MR_INVALID_RIG, "sticks[0]");
    stick.kind = MR_STICK_RIGID;
    desc.settings.iterations = 0;
    EXPECT_FAIL(mrRigCreate(&desc, &rig), MR_INVALID_RIG, "iterations");
    desc.settings = mrRigSettingsDefault();
    desc.stickCount = 3;
    desc.sticks = NULL;
    EXPECT_FAIL(mrRigCreate(&desc, &rig), MR_INVALID_ARGUMENT, "sticks");
    desc = mrRigDescDefault();
    EXPECT_FAIL(mrRigCreate(&desc, &rig), MR_INVALID_RIG, "no particles");

    /* The message is per call: a later failure replaces it. */
    EXPECT_FAIL(mrWorldStep(NULL), MR_INVALID_ARGUMENT, "mrWorldStep");
    OK(mrWorldDestroy(world));
}

/* A pendulum from arrays: particle 0 kinematic at the pivot, particle 1 on a 1 m rigid stick. */
static void testPendulum(void)
{
    MrParticleDesc parts[2] = {mrParticleDescDefault(), mrParticleDescDefault()};
    parts[0].name = "pivot";
    parts[0].position = vec3(0.f, 2.f, 0.f);
    parts[0].mass = 0.f;
    parts[1].name = "bob";
    parts[1].position = vec3(1.f, 2.f, 0.f);
    parts[1].mass = 1.f;
    MrStickDesc stick = mrStickDescDefault();
    stick.name = "rod";
    stick.a = 0;
    stick.b = 1;
    MrRigDesc desc = mrRigDescDefault();
    desc.name = "pendulum";
    desc.particles = parts;
    desc.particleCount = 2;
    desc.sticks = &stick;
    desc.stickCount = 1;
    desc.settings.sleepTime = 0.f;
    desc.settings.damping = 0.f;
    MrRig* rig = NULL;
    OK(mrRigCreate(&desc, &rig));
    uint32_t u = 99;
    OK(mrRigParticleCount(rig, &u));
    CHECK(u == 2, "pendulum particle count %u", (unsigned)u);
    OK(mrRigBoneCount(rig, &u));
    CHECK(u == 0, "pendulum bone count %u", (unsigned)u);

    MrWorld* world = NULL;
    OK(mrWorldCreate(NULL, &world));
    MrRagdoll r = 0;
    OK(mrWorldSpawn(world, rig, NULL, vec3(0.f, 0.f, 0.f), &r));
    OK(mrRigRelease(rig));
    EXPECT_FAIL(mrRagdollApplyImpulse(world, r, 0u, vec3(1.f, 0.f, 0.f)), MR_INVALID_ARGUMENT, "kinematic");

    float lowest = 10.f, worstError = 0.f;
    MrVec3 p[2];
    for (int i = 0; i < 120; ++i) {
        OK(mrWorldStep(world));
        size_t n = positions(world, r, p);
        CHECK(n == 2, "pendulum count %zu", n);
        const float err = fabsf(distance(p[0], p[1]) - 1.f);
        if (err > worstError)
            worstError = err;
        if (p[1].y < lowest)
            lowest = p[1].y;
        CHECK(distance(p[0], vec3(0.f, 2.f, 0.f)) == 0.f, "the kinematic pivot moved at step %d", i);
    }
    CHECK(worstError < 1e-3f, "stick length drifted by %g m", (double)worstError);
    CHECK(lowest < 1.2f, "the bob never swung down (lowest y = %g)", (double)lowest);
    OK(mrWorldDestroy(world));
}

/* Reads the whole file at path into a malloc'd buffer; *size receives its length. */
static unsigned char* readFile(const char* path, size_t* size)
{
    FILE* f = fopen(path, "rb");
    CHECK(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    CHECK(n > 0, "%s is empty", path);
    unsigned char* bytes = (unsigned char*)malloc((size_t)n);
    CHECK(bytes != NULL, "out of memory");
    CHECK(fread(bytes, 1, (size_t)n, f) == (size_t)n, "short read of %s", path);
    fclose(f);
    *size = (size_t)n;
    return bytes;
}

/* A .mrig of the procedural humanoid loads from a file and from memory into the same rig a game then
 * spawns and steps; damaged bytes are refused with a message naming the problem. */
static void testLoad(const char* path)
{
    MrRig* rig = NULL;
    uint32_t count = 0;
    OK(mrRigLoadFile(path, &rig));
    OK(mrRigParticleCount(rig, &count));
    CHECK(count == 20, "loaded humanoid has %u particles, expected 20", count);
    OK(mrRigBoneCount(rig, &count));
    CHECK(count == 14, "loaded humanoid has %u bones, expected 14", count);

    size_t size = 0;
    unsigned char* bytes = readFile(path, &size);
    MrRig* fromMemory = NULL;
    OK(mrRigLoadMemory(bytes, size, &fromMemory));

    /* Both fall identically onto a floor (each in its own world: same inputs, same results). */
    MrWorld* worlds[2] = {NULL, NULL};
    MrRagdoll dolls[2];
    const MrTransform at = translation(0.f, 1.f, 0.f);
    for (int w = 0; w < 2; ++w) {
        OK(mrWorldCreate(NULL, &worlds[w]));
        OK(mrWorldAddPlane(worlds[w], vec3(0.f, 1.f, 0.f), 0.f, NULL));
        OK(mrWorldSpawn(worlds[w], w == 0 ? rig : fromMemory, &at, vec3(0.f, 0.f, 0.f), &dolls[w]));
        for (int i = 0; i < 90; ++i)
            OK(mrWorldStep(worlds[w]));
    }
    MrVec3 pa[64], pb[64];
    const size_t n = positions(worlds[0], dolls[0], pa);
    CHECK(positions(worlds[1], dolls[1], pb) == n && n == 20, "position counts differ");
    for (size_t i = 0; i < n; ++i) {
        CHECK(finiteVec(pa[i]) && pa[i].y > -0.01f, "particle %zu at y = %g", i, (double)pa[i].y);
        CHECK(memcmp(&pa[i], &pb[i], sizeof pa[i]) == 0, "file and memory rigs diverged at particle %zu", i);
    }
    OK(mrWorldDestroy(worlds[0]));
    OK(mrWorldDestroy(worlds[1]));

    /* Damaged input. */
    MrRig* none = NULL;
    EXPECT_FAIL(mrRigLoadMemory(bytes, size / 2, &none), MR_INVALID_RIG, "header.fileSize");
    CHECK(none == NULL, "a failed load returned a rig");
    bytes[size - 5] ^= 0x40;
    EXPECT_FAIL(mrRigLoadMemory(bytes, size, &none), MR_INVALID_RIG, "checksum");
    EXPECT_FAIL(mrRigLoadMemory(bytes, 0, &none), MR_INVALID_RIG, NULL);
    EXPECT_FAIL(mrRigLoadMemory(NULL, 16, &none), MR_INVALID_ARGUMENT, "data");
    EXPECT_FAIL(mrRigLoadFile(NULL, &none), MR_INVALID_ARGUMENT, "path");
    EXPECT_FAIL(mrRigLoadFile(path, NULL), MR_INVALID_ARGUMENT, "out");
    EXPECT_FAIL(mrRigLoadFile("/nonexistent/folder/hero.mrig", &none), MR_INVALID_RIG, "/nonexistent/folder/hero.mrig: ");
    free(bytes);
    OK(mrRigRelease(fromMemory));
    OK(mrRigRelease(rig));
}

int main(int argc, char** argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: c_api_test HUMANOID.mrig\n");
        return 2;
    }
    testDefaults();
    testHumanoidsFall();
    testImpulse();
    testErrors();
    testPendulum();
    testLoad(argv[1]);
    printf("c_api_test: %d passed, 0 failed\n", gPassed);
    return 0;
}
