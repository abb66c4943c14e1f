/* C API of powered ragdolls: drive profiles given to mrRigCreate() in MrRigDesc.profiles, their defaults,
 * their lookups by index and name, the errors of bad profiles, a .mrig 1.3 file with profiles written by
 * make_test_rigs, and a ragdoll of it driven toward a pose target (pins pull it 10 cm across; bad targets,
 * gains and profile names are refused and change nothing):
 *   c_api_drive_test DRIVES.mrig
 * drives.mrig is the humanoid with "stagger" (triangle 0 and stick 0 overridden) and "limp". Exits 0 when
 * every check passes. */
#include "marionette/marionette.h"

#include <stdio.h>
#include <string.h>

static int gFailed = 0;

#define CHECK(cond, what)                                                                                     \
    do {                                                                                                      \
        if (!(cond)) {                                                                                        \
            fprintf(stderr, "FAIL %s:%d: %s (last error: %s)\n", __FILE__, __LINE__, what, mrLastError());   \
            ++gFailed;                                                                                        \
        }                                                                                                     \
    } while (0)

/* The call fails with `code` and a message containing `needle`. */
#define EXPECT_FAIL(call, code, needle)                                                                       \
    do {                                                                                                      \
        const MrResult r_ = (call);                                                                           \
        CHECK(r_ == (code), #call " result");                                                                 \
        CHECK(strstr(mrLastError(), (needle)) != NULL, #call " message: " needle);                            \
    } while (0)

/* Four particles, two sticks (0-1, 1-2) and one triangle (0, 1, 2), with the profiles given. */
static MrResult createWith(const MrDriveProfileDesc* profiles, size_t count, MrRig** out)
{
    MrParticleDesc p[4];
    const MrVec3 at[4] = {{0, 1, 0}, {0, 0.5f, 0}, {0.3f, 0.5f, 0}, {0, 0, 0}};
    for (int i = 0; i < 4; ++i) {
        p[i] = mrParticleDescDefault();
        p[i].position = at[i];
    }
    MrStickDesc s[2];
    s[0] = mrStickDescDefault();
    s[0].a = 0;
    s[0].b = 1;
    s[1] = mrStickDescDefault();
    s[1].a = 1;
    s[1].b = 2;
    MrTriangleDesc t = mrTriangleDescDefault();
    t.p[0] = 0;
    t.p[1] = 1;
    t.p[2] = 2;
    MrRigDesc d = mrRigDescDefault();
    d.particles = p;
    d.particleCount = 4;
    d.sticks = s;
    d.stickCount = 2;
    d.triangles = &t;
    d.triangleCount = 1;
    d.profiles = profiles;
    d.profileCount = count;
    return mrRigCreate(&d, out);
}

static void testDefaults(void)
{
    const MrDriveGains g = mrDriveGainsDefault();
    CHECK(g.motorFrequency == 0.f && g.motorDamping == 1.f && g.maxTorque == 0.f, "motor defaults: off, ratio 1");
    CHECK(g.pinFrequency == 0.f && g.pinDamping == 1.f && g.maxForce == 0.f && g.kinematic == 0, "pin defaults");
    const MrDrivePartDesc part = mrDrivePartDescDefault();
    CHECK(part.kind == MR_DRIVE_PART_TRIANGLE && part.index == 0 && part.gains.motorDamping == 1.f, "part default");
    const MrDriveProfileDesc profile = mrDriveProfileDescDefault();
    CHECK(profile.name == NULL && profile.parts == NULL && profile.partCount == 0 && profile.defaults.pinDamping == 1.f,
          "profile default");
    const MrRigDesc rig = mrRigDescDefault();
    CHECK(rig.profiles == NULL && rig.profileCount == 0, "a default description has no profiles");
}

static void testCreateAndLookUp(void)
{
    MrDrivePartDesc parts[2];
    parts[0] = mrDrivePartDescDefault();
    parts[0].gains.motorFrequency = 12.f;
    parts[1] = mrDrivePartDescDefault();
    parts[1].kind = MR_DRIVE_PART_STICK;
    parts[1].index = 1;
    parts[1].gains.kinematic = 1;
    MrDriveProfileDesc profiles[2];
    profiles[0] = mrDriveProfileDescDefault();
    profiles[0].name = "stagger";
    profiles[0].defaults.motorFrequency = 4.f;
    profiles[0].defaults.maxTorque = 200.f;
    profiles[0].parts = parts;
    profiles[0].partCount = 2;
    profiles[1] = mrDriveProfileDescDefault();
    profiles[1].name = "limp";

    MrRig* rig = NULL;
    CHECK(createWith(profiles, 2, &rig) == MR_OK && rig, "mrRigCreate with two profiles");
    if (!rig)
        return;
    uint32_t count = 0, index = 777;
    const char* name = NULL;
    CHECK(mrRigDriveProfileCount(rig, &count) == MR_OK && count == 2u, "two profiles");
    CHECK(mrRigDriveProfileName(rig, 0, &name) == MR_OK && strcmp(name, "stagger") == 0, "profile 0 is stagger");
    CHECK(mrRigDriveProfileName(rig, 1, &name) == MR_OK && strcmp(name, "limp") == 0, "profile 1 is limp");
    CHECK(mrRigFindDriveProfile(rig, "limp", &index) == MR_OK && index == 1u, "limp is found at 1");
    CHECK(mrRigFindDriveProfile(rig, "stagger", &index) == MR_OK && index == 0u, "stagger is found at 0");

    index = 777;
    name = NULL;
    EXPECT_FAIL(mrRigFindDriveProfile(rig, "balanced", &index), MR_NOT_FOUND, "no drive profile named 'balanced'");
    EXPECT_FAIL(mrRigFindDriveProfile(rig, "Limp", &index), MR_NOT_FOUND, "'Limp'"); /* case-sensitive */
    EXPECT_FAIL(mrRigFindDriveProfile(rig, "", &index), MR_NOT_FOUND, "no drive profile named ''");
    EXPECT_FAIL(mrRigFindDriveProfile(rig, NULL, &index), MR_INVALID_ARGUMENT, "name is NULL");
    EXPECT_FAIL(mrRigFindDriveProfile(rig, "limp", NULL), MR_INVALID_ARGUMENT, "profile is NULL");
    EXPECT_FAIL(mrRigFindDriveProfile(NULL, "limp", &index), MR_INVALID_ARGUMENT, "rig is NULL");
    EXPECT_FAIL(mrRigDriveProfileName(rig, 2, &name), MR_INVALID_ARGUMENT,
                "drive profile index 2 out of range (2 drive profiles)");
    EXPECT_FAIL(mrRigDriveProfileName(rig, 0, NULL), MR_INVALID_ARGUMENT, "name is NULL");
    EXPECT_FAIL(mrRigDriveProfileCount(rig, NULL), MR_INVALID_ARGUMENT, "count is NULL");
    CHECK(index == 777u && name == NULL, "a failed lookup wrote its output");
    mrRigRelease(rig);

    /* No profiles: from mrRigDescDefault() as every caller of C API version 1 starts, and the procedural rigs. */
    CHECK(createWith(NULL, 0, &rig) == MR_OK, "mrRigCreate without profiles");
    CHECK(mrRigDriveProfileCount(rig, &count) == MR_OK && count == 0u, "no profiles");
    EXPECT_FAIL(mrRigFindDriveProfile(rig, "limp", &index), MR_NOT_FOUND, "(0 drive profiles)");
    mrRigRelease(rig);
    CHECK(mrRigCreateHumanoid(1.8f, 75.f, &rig) == MR_OK, "humanoid");
    CHECK(mrRigDriveProfileCount(rig, &count) == MR_OK && count == 0u, "the procedural humanoid has no profiles");
    mrRigRelease(rig);
}

static void testBadProfiles(void)
{
    MrDrivePartDesc part = mrDrivePartDescDefault();
    MrDriveProfileDesc profile = mrDriveProfileDescDefault();
    profile.name = "stagger";
    profile.parts = &part;
    profile.partCount = 1;
    MrRig* rig = NULL;

    part.kind = 7;
    EXPECT_FAIL(createWith(&profile, 1, &rig), MR_INVALID_RIG, "driveProfiles[0] 'stagger': parts[0].kind: unknown part kind 7");
    part.kind = MR_DRIVE_PART_TRIANGLE;
    part.index = 5;
    EXPECT_FAIL(createWith(&profile, 1, &rig), MR_INVALID_RIG, "driveProfiles[0] 'stagger': triangle index 5 out of range (1 triangles)");
    part.kind = MR_DRIVE_PART_STICK;
    part.index = 2;
    EXPECT_FAIL(createWith(&profile, 1, &rig), MR_INVALID_RIG, "stick index 2 out of range (2 sticks)");
    part.index = 0;
    part.gains.motorFrequency = 70.f;
    EXPECT_FAIL(createWith(&profile, 1, &rig), MR_INVALID_RIG, "parts[0].gains.motorFrequency 70 outside [0, 60]");
    part.gains.motorFrequency = 1.f;
    profile.defaults.pinDamping = -1.f;
    EXPECT_FAIL(createWith(&profile, 1, &rig), MR_INVALID_RIG, "defaults.pinDamping -1 outside [0, 10]");
    profile.defaults.pinDamping = 1.f;
    profile.parts = NULL;
    EXPECT_FAIL(createWith(&profile, 1, &rig), MR_INVALID_ARGUMENT, "desc->profiles[0].parts is NULL but its count is 1");
    profile.parts = &part;
    profile.name = NULL;
    EXPECT_FAIL(createWith(&profile, 1, &rig), MR_INVALID_RIG, "a drive profile needs a name");
    profile.name = "stagger";
    MrDriveProfileDesc twice[2] = {profile, profile};
    EXPECT_FAIL(createWith(twice, 2, &rig), MR_INVALID_RIG, "name used by driveProfiles[0] too");
    EXPECT_FAIL(createWith(NULL, 1, &rig), MR_INVALID_ARGUMENT, "desc->profiles is NULL but its count is 1");
    CHECK(rig == NULL, "a failed mrRigCreate wrote its output");
    CHECK(createWith(&profile, 1, &rig) == MR_OK && rig, "the profile once fixed");
    mrRigRelease(rig);
}

static void testFile(const char* path)
{
    MrRig* rig = NULL;
    CHECK(mrRigLoadFile(path, &rig) == MR_OK && rig, "mrRigLoadFile(drives.mrig)");
    if (!rig)
        return;
    uint32_t count = 0, index = 0;
    const char* name = NULL;
    CHECK(mrRigDriveProfileCount(rig, &count) == MR_OK && count == 2u, "the file's two profiles");
    CHECK(mrRigDriveProfileName(rig, 0, &name) == MR_OK && strcmp(name, "stagger") == 0, "stagger first");
    CHECK(mrRigFindDriveProfile(rig, "limp", &index) == MR_OK && index == 1u, "limp second");
    mrRigRelease(rig);
}

static void testRagdoll(const char* path)
{
    MrRig* rig = NULL;
    CHECK(mrRigLoadFile(path, &rig) == MR_OK && rig, "mrRigLoadFile(drives.mrig)");
    if (!rig)
        return;
    MrWorldSettings ws = mrWorldSettingsDefault();
    ws.gravity.y = 0.f;
    ws.sleep = 0;
    MrWorld* world = NULL;
    CHECK(mrWorldCreate(&ws, &world) == MR_OK && world, "mrWorldCreate");
    MrRagdoll body = MR_INVALID_RAGDOLL;
    MrTransform at = {{0, 0, 0, 1}, {0, 1, 0}};
    CHECK(mrWorldSpawn(world, rig, &at, (MrVec3){0, 0, 0}, &body) == MR_OK, "mrWorldSpawn");
    uint32_t bones = 0, parts = 0, particles = 0;
    mrRigBoneCount(rig, &bones);
    mrRigParticleCount(rig, &particles);
    CHECK(mrRigDrivePartCount(rig, &parts) == MR_OK && parts > 0, "mrRigDrivePartCount");
    int32_t kind = -1;
    uint32_t index = 99;
    CHECK(mrRigDrivePart(rig, 0, &kind, &index) == MR_OK && kind == MR_DRIVE_PART_TRIANGLE && index == 0u,
          "part 0 is triangle 0");
    EXPECT_FAIL(mrRigDrivePart(rig, parts, &kind, &index), MR_INVALID_ARGUMENT, "out of range");

    MrMat4 palette[64];
    MrVec3 before[64], after[64];
    size_t written = 0;
    CHECK(bones <= 64 && particles <= 64, "test buffers large enough");
    CHECK(mrRagdollGetBoneMatrices(world, body, palette, 64, &written, 1.f) == MR_OK && written == bones, "palette");
    mrRagdollGetPositions(world, body, before, 64, &written, 1.f);

    /* Refused, and nothing changes. */
    EXPECT_FAIL(mrRagdollSetPoseTarget(world, body, palette, bones - 1), MR_INVALID_ARGUMENT, "bones, the rig has");
    MrMat4 bad = palette[1];
    palette[1].m[12] = 0.f / 0.f;
    EXPECT_FAIL(mrRagdollSetPoseTarget(world, body, palette, bones), MR_INVALID_ARGUMENT, "non-finite matrix");
    palette[1] = bad;
    EXPECT_FAIL(mrRagdollSetDriveProfile(world, body, "stiff", 0.f), MR_NOT_FOUND, "'stiff' not in the rig");
    EXPECT_FAIL(mrRagdollSetDriveProfile(world, body, "limp", -1.f), MR_INVALID_ARGUMENT, "seconds");
    MrDriveGains gains[64];
    for (uint32_t k = 0; k < parts && k < 64; ++k) {
        gains[k] = mrDriveGainsDefault();
        gains[k].pinFrequency = 5.f;
    }
    gains[2].motorFrequency = 61.f;
    EXPECT_FAIL(mrRagdollSetDriveGains(world, body, gains, parts, 0.f), MR_INVALID_ARGUMENT, "motorFrequency");
    gains[2].motorFrequency = 0.f;
    EXPECT_FAIL(mrRagdollSetDriveGains(world, body, gains, parts - 1, 0.f), MR_INVALID_ARGUMENT, "part count");
    EXPECT_FAIL(mrRagdollSetPartGains(world, body, parts, &gains[0]), MR_INVALID_ARGUMENT, "out of range");
    float metres = 0.f, radians = 0.f;
    EXPECT_FAIL(mrRagdollPartTrackingError(world, body, 0, &metres, &radians), MR_INVALID_ARGUMENT, "pose target");
    mrRagdollGetPositions(world, body, after, 64, &written, 1.f);
    CHECK(memcmp(before, after, sizeof(MrVec3) * particles) == 0, "refused calls moved nothing");

    /* Pinned at 5 Hz to the pose 10 cm along +X: after 2 s every part is on its target. */
    for (uint32_t b = 0; b < bones; ++b)
        palette[b].m[12] += 0.1f;
    CHECK(mrRagdollSetPoseTarget(world, body, palette, bones) == MR_OK, "mrRagdollSetPoseTarget");
    CHECK(mrRagdollSetDriveGains(world, body, gains, parts, 0.f) == MR_OK, "mrRagdollSetDriveGains");
    for (int s = 0; s < 120; ++s) {
        mrRagdollSetPoseTarget(world, body, palette, bones);
        mrWorldStep(world);
    }
    CHECK(mrRagdollPartTrackingError(world, body, 0, &metres, &radians) == MR_OK && metres < 0.005f &&
              radians < 0.02f,
          "part 0 on its target after 2 s");
    mrRagdollGetPositions(world, body, after, 64, &written, 1.f);
    CHECK(after[0].x - before[0].x > 0.095f && after[0].x - before[0].x < 0.105f, "moved 10 cm along +X");
    CHECK(mrRagdollGoLimp(world, body, 0.5f) == MR_OK, "mrRagdollGoLimp");
    CHECK(mrRagdollSetDriveProfile(world, body, "stagger", 0.2f) == MR_OK, "mrRagdollSetDriveProfile");
    CHECK(mrRagdollClearPoseTarget(world, body) == MR_OK, "mrRagdollClearPoseTarget");
    mrWorldDestroy(world);
    mrRigRelease(rig);
}

int main(int argc, char** argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: c_api_drive_test DRIVES.mrig\n");
        return 2;
    }
    uint32_t api = 0;
    CHECK(mrGetCApiVersion(&api) == MR_OK && api == 2u && MR_C_API_VERSION == 2, "C API version 2 (MrRigDesc.profiles)");
    testDefaults();
    testCreateAndLookUp();
    testBadProfiles();
    testFile(argv[1]);
    testRagdoll(argv[1]);
    if (gFailed) {
        fprintf(stderr, "%d check(s) failed\n", gFailed);
        return 1;
    }
    printf("c_api_drive_test: all checks passed\n");
    return 0;
}
