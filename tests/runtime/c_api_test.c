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

/* ---- version ------------------------------------------------------------------------------------- */

/* The library reports the versions of the header it was built from: the same macros as this program's. */
static void testVersion(void)
{
    uint32_t major = 999, minor = 999, patch = 999, api = 999;
    OK(mrGetVersion(&major, &minor, &patch));
    CHECK(major == MR_VERSION_MAJOR && minor == MR_VERSION_MINOR && patch == MR_VERSION_PATCH,
          "library version %u.%u.%u, header %d.%d.%d", (unsigned)major, (unsigned)minor, (unsigned)patch,
          MR_VERSION_MAJOR, MR_VERSION_MINOR, MR_VERSION_PATCH);
    const char* text = NULL;
    OK(mrGetVersionString(&text));
    CHECK(text != NULL && strcmp(text, MR_VERSION_STRING) == 0, "version string \"%s\", header \"%s\"",
          text ? text : "(null)", MR_VERSION_STRING);
    char expected[64];
    snprintf(expected, sizeof expected, "%u.%u.%u", (unsigned)major, (unsigned)minor, (unsigned)patch);
    CHECK(strcmp(text, expected) == 0, "version string \"%s\" is not MAJOR.MINOR.PATCH \"%s\"", text, expected);
    OK(mrGetCApiVersion(&api));
    CHECK(api == MR_C_API_VERSION, "library C API version %u, header %d", (unsigned)api, MR_C_API_VERSION);

    EXPECT_FAIL(mrGetVersion(NULL, &minor, &patch), MR_INVALID_ARGUMENT, "major is NULL");
    EXPECT_FAIL(mrGetVersion(&major, NULL, &patch), MR_INVALID_ARGUMENT, "minor is NULL");
    EXPECT_FAIL(mrGetVersion(&major, &minor, NULL), MR_INVALID_ARGUMENT, "patch is NULL");
    EXPECT_FAIL(mrGetVersionString(NULL), MR_INVALID_ARGUMENT, "mrGetVersionString: out is NULL");
    EXPECT_FAIL(mrGetCApiVersion(NULL), MR_INVALID_ARGUMENT, "mrGetCApiVersion: out is NULL");
}

/* ---- names and settings -------------------------------------------------------------------------- */

/* The procedural humanoid (runtime/src/Procedural.cpp), in description order. */
#define HUMANOID_PARTICLES 20
#define HUMANOID_STICKS 31
#define HUMANOID_TRIANGLES 11
#define HUMANOID_ANGULAR 10
#define HUMANOID_BONES 14
static const char* const kHumanoidParticles[HUMANOID_PARTICLES] = {
    "hip_l", "hip_r", "spine", "shoulder_l", "shoulder_r", "neck", "head", "nose", "elbow_l", "elbow_axis_l",
    "wrist_l", "elbow_r", "elbow_axis_r", "wrist_r", "knee_l", "knee_axis_l", "ankle_l", "knee_r", "knee_axis_r",
    "ankle_r"};
static const char* const kHumanoidSticks[HUMANOID_STICKS] = {
    "pelvis", "torso", "shoulders", "upperarm_l", "forearm_l", "upperarm_r", "forearm_r", "thigh_l", "shin_l",
    "thigh_r", "shin_r", "neck_head", "pelvis_spine_l", "pelvis_spine_r", "chest_spine_l", "chest_spine_r",
    "neck_l", "neck_r", "head_nose", "nose_neck",
    /* self-collision ranges */
    "knees_apart", "ankles_apart", "wrist_l_torso", "wrist_r_torso", "wrist_l_hip", "wrist_r_hip", "wrist_l_head",
    "wrist_r_head", "wrists_apart", "elbow_l_spine", "elbow_r_spine"};
static const char* const kHumanoidTriangles[HUMANOID_TRIANGLES] = {
    "pelvis", "chest", "head", "upperarm_l", "forearm_l", "upperarm_r", "forearm_r", "thigh_l", "shin_l", "thigh_r",
    "shin_r"};
static const char* const kHumanoidAngular[HUMANOID_ANGULAR] = {
    "spine", "neck", "shoulder_l", "shoulder_r", "elbow_l", "elbow_r", "hip_l", "hip_r", "knee_l", "knee_r"};
static const char* const kHumanoidBones[HUMANOID_BONES] = {
    "pelvis", "chest", "neck", "head", "upperarm_l", "forearm_l", "hand_l", "upperarm_r", "forearm_r", "hand_r",
    "thigh_l", "shin_l", "thigh_r", "shin_r"};
static const int32_t kHumanoidBoneParents[HUMANOID_BONES] = {-1, 0, 1, 2, 1, 4, 5, 1, 7, 8, 0, 10, 0, 12};

/* Singular names of the kinds, as the messages spell them. */
static const char* kindName(int32_t kind)
{
    static const char* const names[] = {"particle", "stick", "angle constraint", "triangle", "angular constraint",
                                        "bone"};
    return kind >= 0 && kind <= MR_ELEMENT_BONE ? names[kind] : "?";
}

/* Checks the names of every element of `kind` against `expected` (count entries; names unique within the
 * kind), each round trip name -> index -> name, and the failures at the ends of the range. */
static void checkKind(const MrRig* rig, int32_t kind, const char* const* expected, uint32_t expectedCount)
{
    uint32_t count = 12345;
    OK(mrRigElementCount(rig, kind, &count));
    CHECK(count == expectedCount, "%u %ss, expected %u", (unsigned)count, kindName(kind), (unsigned)expectedCount);
    for (uint32_t i = 0; i < count; ++i) {
        const char* name = NULL;
        OK(mrRigElementName(rig, kind, i, &name));
        CHECK(name != NULL && strcmp(name, expected[i]) == 0, "%s %u is named \"%s\", expected \"%s\"", kindName(kind),
              (unsigned)i, name ? name : "(null)", expected[i]);
        uint32_t found = UINT32_MAX;
        OK(mrRigFindElement(rig, kind, name, &found));
        CHECK(found == i, "%s \"%s\" found at %u, expected %u", kindName(kind), name, (unsigned)found, (unsigned)i);
        const char* again = NULL;
        OK(mrRigElementName(rig, kind, found, &again));
        CHECK(again == name, "%s %u: the name's pointer changed between calls", kindName(kind), (unsigned)i);
    }
    /* One past the end and far past it: refused, outputs untouched. */
    char text[96];
    const char* const needle = text; /* a pointer: EXPECT_FAIL tests it for NULL */
    snprintf(text, sizeof text, "%s index %u out of range (%u %ss)", kindName(kind), (unsigned)count,
             (unsigned)count, kindName(kind));
    const char* untouched = "untouched";
    EXPECT_FAIL(mrRigElementName(rig, kind, count, &untouched), MR_INVALID_ARGUMENT, needle);
    EXPECT_FAIL(mrRigElementName(rig, kind, UINT32_MAX, &untouched), MR_INVALID_ARGUMENT, "out of range");
    CHECK(strcmp(untouched, "untouched") == 0, "a failed mrRigElementName wrote its output");
    uint32_t index = 777;
    snprintf(text, sizeof text, "no %s named 'no_such_element'", kindName(kind));
    EXPECT_FAIL(mrRigFindElement(rig, kind, "no_such_element", &index), MR_NOT_FOUND, needle);
    EXPECT_FAIL(mrRigFindElement(rig, kind, "", &index), MR_NOT_FOUND, "unnamed");
    EXPECT_FAIL(mrRigFindElement(rig, kind, NULL, &index), MR_INVALID_ARGUMENT, "name is NULL");
    EXPECT_FAIL(mrRigFindElement(rig, kind, "x", NULL), MR_INVALID_ARGUMENT, "index is NULL");
    CHECK(index == 777, "a failed mrRigFindElement wrote its output");
}

/* Compares every field of two MrRigSettings. */
static void checkSettingsEqual(MrRigSettings got, MrRigSettings want, const char* what)
{
    CHECK(got.substeps == want.substeps, "%s: substeps %u, expected %u", what, (unsigned)got.substeps,
          (unsigned)want.substeps);
    CHECK(got.iterations == want.iterations, "%s: iterations %u, expected %u", what, (unsigned)got.iterations,
          (unsigned)want.iterations);
    CHECK(got.damping == want.damping, "%s: damping %g, expected %g", what, (double)got.damping, (double)want.damping);
    CHECK(got.friction == want.friction, "%s: friction %g, expected %g", what, (double)got.friction,
          (double)want.friction);
    CHECK(got.staticFrictionSpeed == want.staticFrictionSpeed, "%s: staticFrictionSpeed %g, expected %g", what,
          (double)got.staticFrictionSpeed, (double)want.staticFrictionSpeed);
    CHECK(got.sleepVelocity == want.sleepVelocity, "%s: sleepVelocity %g, expected %g", what,
          (double)got.sleepVelocity, (double)want.sleepVelocity);
    CHECK(got.sleepTime == want.sleepTime, "%s: sleepTime %g, expected %g", what, (double)got.sleepTime,
          (double)want.sleepTime);
    CHECK(got.overRelaxation == want.overRelaxation, "%s: overRelaxation %g, expected %g", what,
          (double)got.overRelaxation, (double)want.overRelaxation);
    CHECK(got.sqrtApproximation == want.sqrtApproximation, "%s: sqrtApproximation %d, expected %d", what,
          (int)got.sqrtApproximation, (int)want.sqrtApproximation);
    CHECK(got.solver == want.solver, "%s: solver %d, expected %d", what, (int)got.solver, (int)want.solver);
}

/* The humanoid's names, skeleton and settings, whether built in code or loaded from a .mrig. */
static void checkHumanoidNames(const MrRig* rig)
{
    const char* name = NULL;
    OK(mrRigName(rig, &name));
    CHECK(strcmp(name, "humanoid") == 0, "rig named \"%s\"", name);
    checkKind(rig, MR_ELEMENT_PARTICLE, kHumanoidParticles, HUMANOID_PARTICLES);
    checkKind(rig, MR_ELEMENT_STICK, kHumanoidSticks, HUMANOID_STICKS);
    checkKind(rig, MR_ELEMENT_ANGLE, NULL, 0);
    checkKind(rig, MR_ELEMENT_TRIANGLE, kHumanoidTriangles, HUMANOID_TRIANGLES);
    checkKind(rig, MR_ELEMENT_ANGULAR, kHumanoidAngular, HUMANOID_ANGULAR);
    checkKind(rig, MR_ELEMENT_BONE, kHumanoidBones, HUMANOID_BONES);

    /* The element counts agree with the older count functions. */
    uint32_t old = 0, count = 0;
    OK(mrRigParticleCount(rig, &old));
    OK(mrRigElementCount(rig, MR_ELEMENT_PARTICLE, &count));
    CHECK(old == count, "mrRigParticleCount %u, element count %u", (unsigned)old, (unsigned)count);
    OK(mrRigStickCount(rig, &old));
    OK(mrRigElementCount(rig, MR_ELEMENT_STICK, &count));
    CHECK(old == count, "mrRigStickCount %u, element count %u", (unsigned)old, (unsigned)count);
    OK(mrRigBoneCount(rig, &old));
    OK(mrRigElementCount(rig, MR_ELEMENT_BONE, &count));
    CHECK(old == count, "mrRigBoneCount %u, element count %u", (unsigned)old, (unsigned)count);

    /* Bones: names, parents (earlier bones, one root), lookups. */
    for (uint32_t b = 0; b < HUMANOID_BONES; ++b) {
        const char* bone = NULL;
        const char* element = NULL;
        OK(mrRigBoneName(rig, b, &bone));
        OK(mrRigElementName(rig, MR_ELEMENT_BONE, b, &element));
        CHECK(bone == element && strcmp(bone, kHumanoidBones[b]) == 0, "bone %u named \"%s\"", (unsigned)b, bone);
        int32_t parent = 99;
        OK(mrRigBoneParent(rig, b, &parent));
        CHECK(parent == kHumanoidBoneParents[b], "bone %u '%s' has parent %d, expected %d", (unsigned)b, bone,
              (int)parent, (int)kHumanoidBoneParents[b]);
        CHECK(parent < (int32_t)b && (parent >= 0 || b == 0), "bone %u: parent %d is not an earlier bone",
              (unsigned)b, (int)parent);
        uint32_t found = UINT32_MAX;
        OK(mrRigFindBone(rig, kHumanoidBones[b], &found));
        CHECK(found == b, "bone '%s' found at %u, expected %u", kHumanoidBones[b], (unsigned)found, (unsigned)b);
    }
    /* The parent of a hand, by names. */
    uint32_t hand = 0, forearm = 0;
    int32_t parent = -5;
    OK(mrRigFindBone(rig, "hand_l", &hand));
    OK(mrRigBoneParent(rig, hand, &parent));
    OK(mrRigFindBone(rig, "forearm_l", &forearm));
    CHECK(parent == (int32_t)forearm, "hand_l's parent is %d, forearm_l is %u", (int)parent, (unsigned)forearm);

    /* One name, several kinds: each kind is its own namespace. */
    uint32_t particle = 0, joint = 0, bone = 0;
    OK(mrRigFindElement(rig, MR_ELEMENT_PARTICLE, "neck", &particle));
    OK(mrRigFindElement(rig, MR_ELEMENT_ANGULAR, "neck", &joint));
    OK(mrRigFindElement(rig, MR_ELEMENT_BONE, "neck", &bone));
    CHECK(particle == 5 && joint == 1 && bone == 2, "\"neck\": particle %u, angular %u, bone %u (expected 5, 1, 2)",
          (unsigned)particle, (unsigned)joint, (unsigned)bone);
    EXPECT_FAIL(mrRigFindElement(rig, MR_ELEMENT_TRIANGLE, "neck", &particle), MR_NOT_FOUND,
                "no triangle named 'neck'");

    /* Bad bone arguments: out-of-range indices, unknown and NULL names, NULL outputs; outputs untouched. */
    const char* untouched = "untouched";
    parent = 42;
    uint32_t index = 777;
    EXPECT_FAIL(mrRigBoneName(rig, HUMANOID_BONES, &untouched), MR_INVALID_ARGUMENT,
                "bone index 14 out of range (14 bones)");
    EXPECT_FAIL(mrRigBoneParent(rig, HUMANOID_BONES, &parent), MR_INVALID_ARGUMENT,
                "mrRigBoneParent: bone index 14 out of range");
    EXPECT_FAIL(mrRigBoneParent(rig, UINT32_MAX, &parent), MR_INVALID_ARGUMENT, "out of range");
    EXPECT_FAIL(mrRigFindBone(rig, "tail", &index), MR_NOT_FOUND, "mrRigFindBone: no bone named 'tail'");
    EXPECT_FAIL(mrRigFindBone(rig, "Head", &index), MR_NOT_FOUND, "'Head'"); /* case-sensitive */
    EXPECT_FAIL(mrRigFindBone(rig, "", &index), MR_NOT_FOUND, "unnamed");
    EXPECT_FAIL(mrRigFindBone(rig, NULL, &index), MR_INVALID_ARGUMENT, "name is NULL");
    EXPECT_FAIL(mrRigFindBone(rig, "head", NULL), MR_INVALID_ARGUMENT, "bone is NULL");
    EXPECT_FAIL(mrRigBoneName(rig, 0, NULL), MR_INVALID_ARGUMENT, "name is NULL");
    EXPECT_FAIL(mrRigBoneParent(rig, 0, NULL), MR_INVALID_ARGUMENT, "parent is NULL");
    CHECK(strcmp(untouched, "untouched") == 0 && parent == 42 && index == 777, "a failed bone call wrote its output");

    /* Kinds that are not an MrElementKind. */
    EXPECT_FAIL(mrRigElementCount(rig, MR_ELEMENT_BONE + 1, &count), MR_INVALID_ARGUMENT,
                "kind 6 is not an MrElementKind");
    EXPECT_FAIL(mrRigElementCount(rig, -1, &count), MR_INVALID_ARGUMENT, "kind -1");
    EXPECT_FAIL(mrRigElementName(rig, 42, 0, &untouched), MR_INVALID_ARGUMENT, "kind 42");
    EXPECT_FAIL(mrRigFindElement(rig, INT32_MIN, "head", &index), MR_INVALID_ARGUMENT, "MrElementKind");
    EXPECT_FAIL(mrRigElementCount(rig, MR_ELEMENT_BONE, NULL), MR_INVALID_ARGUMENT, "count is NULL");
    EXPECT_FAIL(mrRigElementName(rig, MR_ELEMENT_BONE, 0, NULL), MR_INVALID_ARGUMENT, "name is NULL");
    EXPECT_FAIL(mrRigName(rig, NULL), MR_INVALID_ARGUMENT, "name is NULL");

    /* The humanoid keeps the default settings. */
    MrRigSettings settings;
    OK(mrRigGetSettings(rig, &settings));
    checkSettingsEqual(settings, mrRigSettingsDefault(), "humanoid");
}

/* A rig from arrays with every kind of element, unnamed and duplicate names, and settings that all differ
 * from the defaults: names and settings read back as given. */
static void testNamesAndSettings(void)
{
    MrRig* humanoid = NULL;
    OK(mrRigCreateHumanoid(1.8f, 75.f, &humanoid));
    checkHumanoidNames(humanoid);
    OK(mrRigRelease(humanoid));

    MrParticleDesc parts[4] = {mrParticleDescDefault(), mrParticleDescDefault(), mrParticleDescDefault(),
                               mrParticleDescDefault()};
    parts[0].name = "root";
    parts[1].name = NULL; /* unnamed */
    parts[1].position = vec3(0.f, 1.f, 0.f);
    parts[2].name = "tip";
    parts[2].position = vec3(1.f, 0.f, 0.f);
    parts[3].name = "tip"; /* a duplicate: lookups find the first */
    parts[3].position = vec3(0.f, 0.f, 1.f);
    MrStickDesc sticks[3] = {mrStickDescDefault(), mrStickDescDefault(), mrStickDescDefault()};
    sticks[0].name = "up";
    sticks[0].b = 1;
    sticks[1].name = "right";
    sticks[1].b = 2;
    sticks[2].b = 3; /* unnamed */
    MrAngleDesc angle = mrAngleDescDefault();
    angle.name = "bend";
    angle.center = 0;
    angle.a = 2;
    angle.b = 3;
    angle.minAngle = 0.5f;
    angle.maxAngle = 2.5f;
    MrTriangleDesc tris[2] = {mrTriangleDescDefault(), mrTriangleDescDefault()};
    tris[0].name = "left";
    tris[0].p[1] = 1;
    tris[0].p[2] = 2;
    tris[1].name = "right"; /* the same name as a stick: another kind */
    tris[1].p[1] = 1;
    tris[1].p[2] = 3;
    MrAngularDesc joint = mrAngularDescDefault();
    joint.name = "hinge";
    joint.triangleA = 0;
    joint.triangleB = 1;

    MrRigDesc desc = mrRigDescDefault();
    desc.particles = parts;
    desc.particleCount = 4;
    desc.sticks = sticks;
    desc.stickCount = 3;
    desc.angles = &angle;
    desc.angleCount = 1;
    desc.triangles = tris;
    desc.triangleCount = 2;
    desc.angular = &joint;
    desc.angularCount = 1;
    MrRigSettings want = mrRigSettingsDefault();
    const MrRigSettings defaults = want;
    want.substeps = 5;
    want.iterations = 7;
    want.damping = 1.25f;
    want.friction = 0.3f;
    want.staticFrictionSpeed = 0.2f;
    want.sleepVelocity = 0.07f;
    want.sleepTime = 2.5f;
    want.overRelaxation = 1.5f;
    want.sqrtApproximation = 1;
    want.solver = MR_SOLVER_JACOBI;
    /* Every field differs from its default, so each one is really read back. */
    CHECK(want.substeps != defaults.substeps && want.iterations != defaults.iterations &&
              want.damping != defaults.damping && want.friction != defaults.friction &&
              want.staticFrictionSpeed != defaults.staticFrictionSpeed &&
              want.sleepVelocity != defaults.sleepVelocity && want.sleepTime != defaults.sleepTime &&
              want.overRelaxation != defaults.overRelaxation &&
              want.sqrtApproximation != defaults.sqrtApproximation && want.solver != defaults.solver,
          "a test setting equals its default");
    desc.settings = want;
    MrRig* rig = NULL;
    OK(mrRigCreate(&desc, &rig));

    MrRigSettings got;
    memset(&got, 0xAB, sizeof got);
    OK(mrRigGetSettings(rig, &got));
    checkSettingsEqual(got, want, "mrRigCreate settings");
    desc.settings.solver = MR_SOLVER_XPBD; /* the rig copied its settings */
    OK(mrRigGetSettings(rig, &got));
    CHECK(got.solver == MR_SOLVER_JACOBI, "the rig's settings changed with the caller's description");

    const char* name = NULL;
    OK(mrRigName(rig, &name));
    CHECK(name != NULL && name[0] == '\0', "an unnamed rig is named \"%s\"", name ? name : "(null)");

    static const char* const particleNames[4] = {"root", "", "tip", "tip"};
    static const char* const stickNames[3] = {"up", "right", ""};
    static const char* const angleNames[1] = {"bend"};
    static const char* const triangleNames[2] = {"left", "right"};
    static const char* const angularNames[1] = {"hinge"};
    uint32_t count = 0;
    for (uint32_t i = 0; i < 4; ++i) {
        OK(mrRigElementName(rig, MR_ELEMENT_PARTICLE, i, &name));
        CHECK(strcmp(name, particleNames[i]) == 0, "particle %u named \"%s\"", (unsigned)i, name);
    }
    for (uint32_t i = 0; i < 3; ++i) {
        OK(mrRigElementName(rig, MR_ELEMENT_STICK, i, &name));
        CHECK(strcmp(name, stickNames[i]) == 0, "stick %u named \"%s\"", (unsigned)i, name);
    }
    uint32_t index = 777;
    OK(mrRigFindElement(rig, MR_ELEMENT_PARTICLE, "tip", &index));
    CHECK(index == 2, "duplicate name 'tip' found at %u, expected the first (2)", (unsigned)index);
    EXPECT_FAIL(mrRigFindElement(rig, MR_ELEMENT_PARTICLE, "", &index), MR_NOT_FOUND, "unnamed");
    EXPECT_FAIL(mrRigFindElement(rig, MR_ELEMENT_STICK, "", &index), MR_NOT_FOUND, "no stick named ''");
    OK(mrRigFindElement(rig, MR_ELEMENT_STICK, "right", &index));
    CHECK(index == 1, "stick 'right' at %u", (unsigned)index);
    OK(mrRigFindElement(rig, MR_ELEMENT_TRIANGLE, "right", &index));
    CHECK(index == 1, "triangle 'right' at %u", (unsigned)index);
    checkKind(rig, MR_ELEMENT_ANGLE, angleNames, 1);
    checkKind(rig, MR_ELEMENT_TRIANGLE, triangleNames, 2);
    checkKind(rig, MR_ELEMENT_ANGULAR, angularNames, 1);
    checkKind(rig, MR_ELEMENT_BONE, NULL, 0); /* no skeleton */
    OK(mrRigElementCount(rig, MR_ELEMENT_PARTICLE, &count));
    CHECK(count == 4, "%u particles", (unsigned)count);

    /* No bones: every bone index is out of range. */
    int32_t parent = 42;
    EXPECT_FAIL(mrRigBoneParent(rig, 0, &parent), MR_INVALID_ARGUMENT, "bone index 0 out of range (0 bones)");
    EXPECT_FAIL(mrRigBoneName(rig, 0, &name), MR_INVALID_ARGUMENT, "bone index 0 out of range (0 bones)");
    EXPECT_FAIL(mrRigFindBone(rig, "root", &index), MR_NOT_FOUND, "no bone named 'root' (0 bones)");
    CHECK(parent == 42, "a failed mrRigBoneParent wrote its output");

    /* NULL rigs and outputs. */
    EXPECT_FAIL(mrRigGetSettings(NULL, &got), MR_INVALID_ARGUMENT, "mrRigGetSettings: rig is NULL");
    EXPECT_FAIL(mrRigGetSettings(rig, NULL), MR_INVALID_ARGUMENT, "mrRigGetSettings: out is NULL");
    EXPECT_FAIL(mrRigName(NULL, &name), MR_INVALID_ARGUMENT, "rig is NULL");
    EXPECT_FAIL(mrRigElementCount(NULL, MR_ELEMENT_PARTICLE, &count), MR_INVALID_ARGUMENT, "rig is NULL");
    EXPECT_FAIL(mrRigElementName(NULL, MR_ELEMENT_PARTICLE, 0, &name), MR_INVALID_ARGUMENT, "rig is NULL");
    EXPECT_FAIL(mrRigFindElement(NULL, MR_ELEMENT_PARTICLE, "root", &index), MR_INVALID_ARGUMENT, "rig is NULL");
    EXPECT_FAIL(mrRigBoneName(NULL, 0, &name), MR_INVALID_ARGUMENT, "rig is NULL");
    EXPECT_FAIL(mrRigBoneParent(NULL, 0, &parent), MR_INVALID_ARGUMENT, "rig is NULL");
    EXPECT_FAIL(mrRigFindBone(NULL, "root", &index), MR_INVALID_ARGUMENT, "rig is NULL");
    OK(mrRigRelease(rig));
}

/* ---- world statistics ---------------------------------------------------------------------------- */

/* Two humanoids, one dropped onto the other, fall onto the ground, touch each other, rest and sleep. */
static void testWorldStats(void)
{
    MrWorld* world = NULL;
    MrWorldStats stats;
    OK(mrWorldCreate(NULL, &world));
    OK(mrWorldAddPlane(world, vec3(0.f, 1.f, 0.f), 0.f, NULL));
    memset(&stats, 0xAB, sizeof stats);
    OK(mrWorldGetStats(world, &stats));
    CHECK(stats.steps == 0 && stats.lastStepSeconds == 0.0 && stats.ragdolls == 0 && stats.asleepRagdolls == 0 &&
              stats.awakeRagdolls == 0 && stats.islands == 0 && stats.ragdollPairs == 0 &&
              stats.ragdollContacts == 0 && stats.staticContacts == 0 && stats.droppedContacts == 0,
          "a new world's stats are not all 0");

    MrRig* rig = NULL;
    OK(mrRigCreateHumanoid(1.8f, 75.f, &rig));
    const MrTransform low = translation(0.f, 0.3f, 0.f);
    const MrTransform high = translation(0.05f, 2.4f, 0.f); /* above the first one's head */
    MrRagdoll a = 0, b = 0;
    OK(mrWorldSpawn(world, rig, &low, vec3(0.f, 0.f, 0.f), &a));
    OK(mrWorldSpawn(world, rig, &high, vec3(0.f, 0.f, 0.f), &b));
    OK(mrRigRelease(rig));
    OK(mrWorldGetStats(world, &stats));
    CHECK(stats.ragdolls == 2 && stats.asleepRagdolls == 0 && stats.steps == 0,
          "after spawning: %u ragdolls, %u asleep, %llu steps", (unsigned)stats.ragdolls,
          (unsigned)stats.asleepRagdolls, (unsigned long long)stats.steps);

    /* 2 s: both land, the upper one on the lower one. */
    uint32_t maxPairs = 0, maxRagdollContacts = 0;
    for (int i = 1; i <= 120; ++i) {
        OK(mrWorldStep(world));
        OK(mrWorldGetStats(world, &stats));
        CHECK(stats.steps == (uint64_t)i, "stats.steps %llu after %d steps", (unsigned long long)stats.steps, i);
        CHECK(stats.lastStepSeconds > 0.0 && stats.lastStepSeconds < 10.0, "lastStepSeconds %g",
              stats.lastStepSeconds);
        CHECK(stats.ragdolls == 2 && stats.awakeRagdolls <= 2 && stats.islands <= stats.awakeRagdolls,
              "step %d: %u ragdolls, %u awake, %u islands", i, (unsigned)stats.ragdolls,
              (unsigned)stats.awakeRagdolls, (unsigned)stats.islands);
        CHECK(stats.droppedContacts == 0, "step %d: %u contacts dropped", i, (unsigned)stats.droppedContacts);
        if (stats.ragdollPairs > maxPairs)
            maxPairs = stats.ragdollPairs;
        if (stats.ragdollContacts > maxRagdollContacts)
            maxRagdollContacts = stats.ragdollContacts;
    }
    CHECK(maxPairs > 0 && maxRagdollContacts > 0, "the ragdolls never touched: at most %u pairs, %u contacts",
          (unsigned)maxPairs, (unsigned)maxRagdollContacts);
    CHECK(stats.asleepRagdolls == 0 && stats.awakeRagdolls == 2, "after 2 s: %u asleep, %u awake",
          (unsigned)stats.asleepRagdolls, (unsigned)stats.awakeRagdolls);
    CHECK(stats.staticContacts > 0, "resting on the ground with %u static contacts", (unsigned)stats.staticContacts);

    /* mrWorldAdvance counts its steps too. */
    uint32_t taken = 0;
    OK(mrWorldAdvance(world, 3.f / 60.f, &taken));
    OK(mrWorldGetStats(world, &stats));
    CHECK(taken == 3 && stats.steps == 123, "advance took %u steps, stats.steps %llu", (unsigned)taken,
          (unsigned long long)stats.steps);
    CHECK(stats.lastStepSeconds > 0.0, "lastStepSeconds %g after advance", stats.lastStepSeconds);

    /* Up to 30 s more: both settle and fall asleep; the count agrees with mrRagdollIsAsleep(). */
    for (int i = 0; i < 1800 && stats.asleepRagdolls < 2; ++i) {
        OK(mrWorldStep(world));
        OK(mrWorldGetStats(world, &stats));
    }
    int asleepA = 0, asleepB = 0;
    OK(mrRagdollIsAsleep(world, a, &asleepA));
    OK(mrRagdollIsAsleep(world, b, &asleepB));
    CHECK(stats.asleepRagdolls == 2 && asleepA && asleepB, "after %llu steps: %u asleep (a %d, b %d)",
          (unsigned long long)stats.steps, (unsigned)stats.asleepRagdolls, asleepA, asleepB);
    OK(mrWorldStep(world));
    OK(mrWorldGetStats(world, &stats));
    CHECK(stats.awakeRagdolls == 0 && stats.islands == 0 && stats.staticContacts == 0 && stats.ragdollContacts == 0,
          "asleep: %u awake, %u islands, %u static and %u ragdoll contacts", (unsigned)stats.awakeRagdolls,
          (unsigned)stats.islands, (unsigned)stats.staticContacts, (unsigned)stats.ragdollContacts);

    /* Waking one and removing the other. */
    OK(mrRagdollWake(world, a));
    OK(mrWorldRemove(world, b));
    OK(mrWorldGetStats(world, &stats));
    CHECK(stats.ragdolls == 1 && stats.asleepRagdolls == 0, "after wake and remove: %u ragdolls, %u asleep",
          (unsigned)stats.ragdolls, (unsigned)stats.asleepRagdolls);
    OK(mrWorldStep(world));
    OK(mrWorldGetStats(world, &stats));
    CHECK(stats.awakeRagdolls == 1 && stats.staticContacts > 0, "woken on the ground: %u awake, %u static contacts",
          (unsigned)stats.awakeRagdolls, (unsigned)stats.staticContacts);

    /* Bad arguments; the output is untouched. */
    MrWorldStats untouched;
    memset(&untouched, 0x5A, sizeof untouched);
    stats = untouched;
    EXPECT_FAIL(mrWorldGetStats(NULL, &stats), MR_INVALID_ARGUMENT, "mrWorldGetStats: world is NULL");
    EXPECT_FAIL(mrWorldGetStats(world, NULL), MR_INVALID_ARGUMENT, "mrWorldGetStats: out is NULL");
    CHECK(memcmp(&stats, &untouched, sizeof stats) == 0, "a failed mrWorldGetStats wrote its output");
    OK(mrWorldDestroy(world));
}

/* The direct solver's counts: none in a new world, at least one projection per substep while a humanoid
 * falls, a second solve when a contact is let go on landing, none for a Gauss-Seidel rig or once asleep. */
static void testSolverCounts(void)
{
    MrRig* rig = NULL;
    MrRigSettings settings;
    OK(mrRigCreateHumanoid(1.8f, 75.f, &rig));
    OK(mrRigGetSettings(rig, &settings));
    CHECK(settings.solver == MR_SOLVER_DIRECT, "the humanoid's solver is %d, not direct", (int)settings.solver);
    MrWorld* world = NULL;
    OK(mrWorldCreate(NULL, &world));
    OK(mrWorldAddPlane(world, vec3(0.f, 1.f, 0.f), 0.f, NULL));
    uint32_t newton = 77, factor = 77;
    OK(mrWorldGetSolverCounts(world, &newton, &factor));
    CHECK(newton == 0 && factor == 0, "a new world: %u Newton steps, %u factorisations", (unsigned)newton, (unsigned)factor);

    const MrTransform high = translation(0.f, 1.5f, 0.f);
    MrRagdoll a = 0;
    OK(mrWorldSpawn(world, rig, &high, vec3(0.f, 0.f, 0.f), &a));
    OK(mrWorldStep(world));
    OK(mrWorldGetSolverCounts(world, &newton, &factor));
    CHECK(newton >= settings.substeps && newton <= 2 * settings.substeps * settings.iterations && factor == newton,
          "falling freely: %u Newton steps and %u factorisations in %u substeps of %u iterations", (unsigned)newton,
          (unsigned)factor, (unsigned)settings.substeps, (unsigned)settings.iterations);
    uint32_t released = 0; /* steps in which a contact was let go */
    for (int i = 0; i < 120; ++i) {
        OK(mrWorldStep(world));
        OK(mrWorldGetSolverCounts(world, &newton, NULL));
        OK(mrWorldGetSolverCounts(world, NULL, &factor));
        CHECK(newton >= settings.substeps && factor >= newton, "step %d: %u Newton steps, %u factorisations", i,
              (unsigned)newton, (unsigned)factor);
        released += factor > newton ? 1u : 0u;
    }
    CHECK(released > 0, "landing let no contact go");
    for (int i = 0; i < 1800; ++i) {
        int asleep = 0;
        OK(mrRagdollIsAsleep(world, a, &asleep));
        if (asleep)
            break;
        OK(mrWorldStep(world));
    }
    OK(mrWorldStep(world));
    OK(mrWorldGetSolverCounts(world, &newton, &factor));
    CHECK(newton == 0 && factor == 0, "asleep: %u Newton steps, %u factorisations", (unsigned)newton, (unsigned)factor);
    OK(mrRigRelease(rig));

    /* A rod relaxed by Gauss-Seidel takes none. */
    MrRigDesc desc = mrRigDescDefault();
    MrParticleDesc parts[2] = {mrParticleDescDefault(), mrParticleDescDefault()};
    parts[0].name = "a";
    parts[1].name = "b";
    parts[1].position = vec3(0.5f, 3.f, 0.f);
    parts[0].position = vec3(0.f, 3.f, 0.f);
    MrStickDesc stick = mrStickDescDefault();
    stick.name = "rod";
    stick.a = 0;
    stick.b = 1;
    desc.name = "rod";
    desc.particles = parts;
    desc.particleCount = 2;
    desc.sticks = &stick;
    desc.stickCount = 1;
    desc.settings.solver = MR_SOLVER_GAUSS_SEIDEL;
    MrRig* rod = NULL;
    OK(mrRigCreate(&desc, &rod));
    MrWorld* other = NULL;
    OK(mrWorldCreate(NULL, &other));
    MrRagdoll r = 0;
    OK(mrWorldSpawn(other, rod, NULL, vec3(0.f, 0.f, 0.f), &r));
    OK(mrWorldStep(other));
    OK(mrWorldGetSolverCounts(other, &newton, &factor));
    CHECK(newton == 0 && factor == 0, "a Gauss-Seidel rod: %u Newton steps, %u factorisations", (unsigned)newton,
          (unsigned)factor);
    OK(mrRigRelease(rod));

    EXPECT_FAIL(mrWorldGetSolverCounts(NULL, &newton, &factor), MR_INVALID_ARGUMENT,
                "mrWorldGetSolverCounts: world is NULL");
    OK(mrWorldDestroy(other));
    OK(mrWorldDestroy(world));
}

/* The instruction set in use is one of the three; another can be chosen and the first one restored; a
 * name the processor cannot run is refused and changes nothing. */
static void testInstructionSet(void)
{
    const char* first = NULL;
    OK(mrGetInstructionSet(&first));
    CHECK(first != NULL && (!strcmp(first, "avx2") || !strcmp(first, "sse2") || !strcmp(first, "scalar")),
          "instruction set \"%s\"", first ? first : "(null)");
    char original[16];
    snprintf(original, sizeof original, "%s", first);
    const char* now = NULL;
    OK(mrUseInstructionSet("scalar"));
    OK(mrGetInstructionSet(&now));
    CHECK(!strcmp(now, "scalar"), "after choosing scalar: \"%s\"", now);
    EXPECT_FAIL(mrUseInstructionSet("avx512"), MR_INVALID_ARGUMENT, "'avx512'");
    EXPECT_FAIL(mrUseInstructionSet(""), MR_INVALID_ARGUMENT, "''");
    EXPECT_FAIL(mrUseInstructionSet(NULL), MR_INVALID_ARGUMENT, "mrUseInstructionSet: name is NULL");
    EXPECT_FAIL(mrGetInstructionSet(NULL), MR_INVALID_ARGUMENT, "mrGetInstructionSet: nameOut is NULL");
    OK(mrGetInstructionSet(&now));
    CHECK(!strcmp(now, "scalar"), "a refused name changed the instruction set to \"%s\"", now);
    OK(mrUseInstructionSet(original));
    OK(mrGetInstructionSet(&now));
    CHECK(!strcmp(now, original), "restored \"%s\", got \"%s\"", original, now);
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
    checkHumanoidNames(rig); /* names, skeleton and settings survive the file */

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
    testVersion();
    testNamesAndSettings();
    testWorldStats();
    testSolverCounts();
    testInstructionSet();
    testHumanoidsFall();
    testImpulse();
    testErrors();
    testPendulum();
    testLoad(argv[1]);
    printf("c_api_test: %d passed, 0 failed\n", gPassed);
    return 0;
}
