// Marionette — the on-disk layout of the `.mrig` binary rig, format 1.3 (reads 1.0 to 1.2).
//
// formats/rig/FORMAT.md is the specification; this header pins it in code. Every struct here is a plain
// little-endian record exactly as it lies in a file: 4-byte fields only (u32, i32, IEEE-754 binary32), no
// padding, sizes and offsets fixed by the static_asserts below. Enums and booleans are stored as u32.
// Strings are StringRef (offset, length) into the one string table chunk `STRS`.
//
// The records can be used in place (MrigView in Mrig.h exposes typed spans of them) because chunk
// payloads are 16-byte aligned in the file and the reader copies the file into a 16-byte-aligned buffer.
// Big-endian hosts are not supported: the static_assert below stops the build there rather than reading
// byte-swapped numbers.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace marionette::rig::mrig {

static_assert(std::endian::native == std::endian::little,
              "the .mrig reader and writer use records in place and need a little-endian host");

/// File signature: "MRIG" then CR LF SUB LF (catches text-mode transfers, like PNG's signature).
constexpr std::uint8_t kMagic[8] = {'M', 'R', 'I', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
constexpr std::uint16_t kVersionMajor = 1; ///< a reader refuses a larger major version
constexpr std::uint16_t kVersionMinor = 3; ///< a reader accepts any minor version of its major version
constexpr std::uint32_t kChunkAlignment = 16; ///< chunk payloads and the chunk table start at multiples of 16
constexpr std::uint64_t kMaxFileSize = 1ull << 30; ///< readers refuse larger files (1 GiB) before allocating

/// Header flags. Bits 0–15 must be understood: a reader refuses a file with one it does not know. Bits
/// 16–31 are informational and ignored by readers that do not know them. Formats 1.0 to 1.3 define none.
constexpr std::uint32_t kRequiredFlagsMask = 0x0000FFFFu;
constexpr std::uint32_t kKnownRequiredFlags = 0u;

/// A chunk tag is four ASCII bytes; as a little-endian u32 its first character is the low byte.
constexpr std::uint32_t makeTag(char a, char b, char c, char d)
{
    return std::uint32_t(std::uint8_t(a)) | std::uint32_t(std::uint8_t(b)) << 8 |
           std::uint32_t(std::uint8_t(c)) << 16 | std::uint32_t(std::uint8_t(d)) << 24;
}

constexpr std::uint32_t kTagStrings = makeTag('S', 'T', 'R', 'S');   ///< UTF-8 bytes, record size 1
constexpr std::uint32_t kTagRig = makeTag('N', 'A', 'M', 'E');       ///< one RigRecord
constexpr std::uint32_t kTagSettings = makeTag('S', 'E', 'T', 'T');  ///< one SettingsRecord (required)
constexpr std::uint32_t kTagParticles = makeTag('P', 'A', 'R', 'T'); ///< ParticleRecord[] (required)
constexpr std::uint32_t kTagSticks = makeTag('S', 'T', 'C', 'K');    ///< StickRecord[]
constexpr std::uint32_t kTagAngles = makeTag('A', 'N', 'G', 'L');    ///< AngleRecord[]
constexpr std::uint32_t kTagTriangles = makeTag('T', 'R', 'I', 'S'); ///< TriangleRecord[]
constexpr std::uint32_t kTagAngular = makeTag('A', 'N', 'G', 'U');   ///< AngularRecord[]
constexpr std::uint32_t kTagPins = makeTag('P', 'I', 'N', 'S');      ///< PinRecord[]
constexpr std::uint32_t kTagShapes = makeTag('S', 'H', 'A', 'P');    ///< ShapeRecord[]
constexpr std::uint32_t kTagBones = makeTag('B', 'O', 'N', 'E');     ///< BoneRecord[]
constexpr std::uint32_t kTagBindings = makeTag('B', 'I', 'N', 'D');  ///< BindingRecord[]
// Format 1.1: substeps and per-second rates. A 1.0 reader skips these and reads SETT/ANGU/PINS, which a 1.1
// writer fills with the per-step values closest to the same behaviour; a 1.1 reader of a 1.0 file migrates
// those per-step values (rig::migrateLegacySettings and friends).
constexpr std::uint32_t kTagSolver = makeTag('S', 'O', 'L', 'V');           ///< one SolverRecord
constexpr std::uint32_t kTagAngularFriction = makeTag('A', 'N', 'G', 'F');  ///< AngularFrictionRecord per ANGU record
constexpr std::uint32_t kTagPinStiffness = makeTag('P', 'I', 'N', 'F');     ///< PinStiffnessRecord per PINS record
// Format 1.2: bend damping of angle constraints. A 1.0 or 1.1 reader skips it and loads the rig without bend
// damping; a 1.2 reader of an older file (no BNDD) gives every angle constraint damping 0.
constexpr std::uint32_t kTagBendDamping = makeTag('B', 'N', 'D', 'D');      ///< one BendDampingRecord per ANGL record
// Format 1.3: named drive profiles (powered ragdolls). Older readers skip both chunks and load the rig without
// profiles; a 1.3 reader of an older file gives the rig none. The parts of profile i are the partCount DRPT
// records from its firstPart; the profiles' part ranges follow each other and cover DRPT exactly.
constexpr std::uint32_t kTagDriveProfiles = makeTag('D', 'R', 'V', 'P'); ///< DriveProfileRecord[]
constexpr std::uint32_t kTagDriveParts = makeTag('D', 'R', 'P', 'T');    ///< DrivePartRecord[], owned by DRVP records

/// The fixed header at offset 0. A newer minor version may make it longer (headerSize); readers read
/// this prefix. headerCrc is CRC-32C of bytes [0, headerSize) with the four headerCrc bytes taken as 0.
struct FileHeader {
    std::uint8_t magic[8];          ///< kMagic
    std::uint16_t versionMajor;     ///< 1
    std::uint16_t versionMinor;     ///< 3 (0 to 2 in the files of older writers)
    std::uint32_t flags;            ///< see kRequiredFlagsMask
    std::uint64_t fileSize;         ///< total bytes of the file
    std::uint32_t headerSize;       ///< >= 64
    std::uint32_t headerCrc;        ///< CRC-32C, see above
    std::uint64_t chunkTableOffset; ///< multiple of 16, >= headerSize
    std::uint32_t chunkCount;       ///< entries in the chunk table
    std::uint32_t chunkEntrySize;   ///< >= 32; a newer minor version may append fields
    std::uint32_t chunkTableCrc;    ///< CRC-32C of the chunkCount × chunkEntrySize table bytes
    std::uint32_t reserved[3];      ///< written 0, ignored
};

/// One chunk table entry. size == count × recordSize; payload [offset, offset + size) lies after the
/// chunk table, inside the file, 16-byte aligned, overlapping no other chunk.
struct ChunkEntry {
    std::uint32_t tag;        ///< four ASCII characters, see makeTag
    std::uint32_t crc;        ///< CRC-32C of the payload bytes
    std::uint64_t offset;     ///< from the start of the file, multiple of 16
    std::uint64_t size;       ///< payload bytes
    std::uint32_t count;      ///< records in the payload
    std::uint32_t recordSize; ///< bytes per record; >= the size this version knows, multiple of 4
};

/// A string in the STRS chunk: bytes [offset, offset + length). Not NUL-terminated. {0, 0} is "".
struct StringRef {
    std::uint32_t offset;
    std::uint32_t length;
};

/// NAME: the rig.
struct RigRecord {
    StringRef name;
};

/// SETT: rig::Settings as format 1.0 knew them. Booleans are 0 or 1; solver is rig::SolverMode (0–2).
/// iterations, drag, staticFriction and solver are per-step values: a 1.1 file's SOLV chunk supersedes them.
struct SettingsRecord {
    float gravity[3];
    float timeStep;
    std::uint32_t maxSubsteps;
    std::uint32_t iterations;
    float drag;
    float friction;
    float staticFriction;
    float sleepVelocity;
    float sleepTime;
    float overRelaxation;
    std::uint32_t sqrtApproximation;
    std::uint32_t selfCollision;
    std::uint32_t solver;
};

/// SOLV (format 1.1): the solver schedule and its rates per second. Supersedes SETT's iterations, drag,
/// staticFriction and solver.
struct SolverRecord {
    std::uint32_t solver;        ///< rig::SolverMode, 0–3
    std::uint32_t substeps;      ///< [1, 64]
    std::uint32_t iterations;    ///< per substep, [1, 64]
    float damping;               ///< 1/s
    float staticFrictionSpeed;   ///< m/s
    std::uint32_t reserved;      ///< written 0, ignored
};

/// ANGF (format 1.1): angular friction of ANGU record i as rates. Supersedes ANGU's dynamicFriction and
/// staticFrictionAngle.
struct AngularFrictionRecord {
    float damping;               ///< 1/s
    float staticFrictionSpeed;   ///< rad/s
};

/// PINF (format 1.1): stiffness of PINS record i as the fraction of the way per 1/60 s. Supersedes PINS's
/// stiffness (a fraction per iteration).
struct PinStiffnessRecord {
    float stiffness;
};

/// BNDD (format 1.2): bend damping of ANGL record i. No legacy field holds it: without BNDD it is 0.
struct BendDampingRecord {
    float damping; ///< 1/s
};

/// rig::DriveGains inside DRVP and DRPT records (format 1.3), the fields of rig::kDriveGainFields in order.
struct DriveGainsRecord {
    float motorFrequency; ///< Hz, [0, 60]; 0 = no motor
    float motorDamping;   ///< damping ratio, [0, 10]
    float maxTorque;      ///< N·m, [0, 1e6]; 0 = no limit
    float pinFrequency;   ///< Hz, [0, 60]; 0 = no pin
    float pinDamping;     ///< damping ratio, [0, 10]
    float maxForce;       ///< N, [0, 1e6]; 0 = no limit
    std::uint32_t kinematic; ///< bool
};

/// DRVP (format 1.3): rig::DriveProfile. Its parts are DRPT records [firstPart, firstPart + partCount).
struct DriveProfileRecord {
    std::uint32_t id;
    StringRef name;
    DriveGainsRecord defaults;
    std::uint32_t firstPart;
    std::uint32_t partCount;
};

/// DRPT (format 1.3): rig::DrivePart. kind 0 = triangle (index into TRIS), 1 = stick (index into STCK).
struct DrivePartRecord {
    std::uint32_t kind;
    std::int32_t index;
    DriveGainsRecord gains;
};

/// PART: rig::Particle. bone is −1 or a BONE index.
struct ParticleRecord {
    std::uint32_t id;
    StringRef name;
    float position[3];
    float mass;   ///< >= 0, 0 = kinematic
    float radius; ///< >= 0
    std::uint32_t group;
    std::uint32_t mask;
    std::int32_t bone;
};

/// STCK: rig::Stick. kind is rig::StickKind (0 rigid, 1 range, 2 min-only, 3 max-only).
struct StickRecord {
    std::uint32_t id;
    StringRef name;
    std::int32_t particleA;
    std::int32_t particleB;
    std::uint32_t kind;
    float restLength; ///< < 0 = bind distance
    float minLength;
    float maxLength;
    float stiffness;
    float compliance;
    float tearRatio;
    float capsuleRadius; ///< >= 0
    std::uint32_t group;
    std::uint32_t mask;
    std::uint32_t reserved; ///< written 0, ignored
};

/// ANGL: rig::AngleConstraint. form is 0 dot product, 1 law of cosines.
struct AngleRecord {
    std::uint32_t id;
    StringRef name;
    std::int32_t center;
    std::int32_t particleA;
    std::int32_t particleB;
    std::uint32_t form;
    float minAngle;
    float maxAngle;
    float stiffness;
};

/// TRIS: rig::Triangle, three distinct particles not collinear at bind.
struct TriangleRecord {
    std::uint32_t id;
    StringRef name;
    std::int32_t p[3];
};

/// ANGU: rig::AngularConstraint. limit is 0 cone, 1 swing/twist. Quaternions are (x, y, z, w).
struct AngularRecord {
    std::uint32_t id;
    StringRef name;
    std::int32_t triangleA;
    std::int32_t triangleB;
    std::uint32_t limit;
    float coneAngle;
    float twistAxis[3];
    float swingAxis1[3];
    float twistMin;
    float twistMax;
    float swing1;
    float swing2;
    float stiffness;
    float dynamicFriction;
    float staticFrictionAngle;
    std::uint32_t hasRestOrientation;
    float restOrientation[4];
};

/// PINS: rig::Pin.
struct PinRecord {
    std::uint32_t id;
    StringRef name;
    std::int32_t particle;
    float target[3];
    float stiffness;
    std::uint32_t kinematic;
};

/// SHAP: rig::Shape. kind 0 = box. triangle is −1 (then tetra holds four particles) or a TRIS index
/// (then tetra is carried verbatim and ignored).
struct ShapeRecord {
    std::uint32_t id;
    StringRef name;
    std::uint32_t kind;
    std::int32_t triangle;
    std::int32_t tetra[4];
    float localRotation[4]; ///< (x, y, z, w)
    float localTranslation[3];
    float halfExtents[3]; ///< > 0
    std::uint32_t group;
    std::uint32_t mask;
};

/// BONE: rig::Bone. Matrices are column-major (m[col × 4 + row]). parent is −1 or an earlier bone.
struct BoneRecord {
    std::uint32_t id;
    StringRef name;
    std::int32_t parent;
    float bindLocal[16];
    float bindWorld[16];
    float inverseBind[16];
};

/// BIND: rig::BoneBinding. driver 0 = triangle (index into TRIS), 1 = stick (index into STCK).
struct BindingRecord {
    std::uint32_t id;
    StringRef name;
    std::int32_t bone;
    std::uint32_t driver;
    std::int32_t index;
    std::uint32_t hasOffset;
    float offsetRotation[4]; ///< (x, y, z, w)
    float offsetTranslation[3];
};

// ---- pinned layout (FORMAT.md tables) -------------------------------------------------------------------

static_assert(sizeof(FileHeader) == 64 && alignof(FileHeader) == 8);
static_assert(offsetof(FileHeader, versionMajor) == 8 && offsetof(FileHeader, versionMinor) == 10);
static_assert(offsetof(FileHeader, flags) == 12 && offsetof(FileHeader, fileSize) == 16);
static_assert(offsetof(FileHeader, headerSize) == 24 && offsetof(FileHeader, headerCrc) == 28);
static_assert(offsetof(FileHeader, chunkTableOffset) == 32 && offsetof(FileHeader, chunkCount) == 40);
static_assert(offsetof(FileHeader, chunkEntrySize) == 44 && offsetof(FileHeader, chunkTableCrc) == 48);
static_assert(offsetof(FileHeader, reserved) == 52);

static_assert(sizeof(ChunkEntry) == 32);
static_assert(offsetof(ChunkEntry, crc) == 4 && offsetof(ChunkEntry, offset) == 8);
static_assert(offsetof(ChunkEntry, size) == 16 && offsetof(ChunkEntry, count) == 24);
static_assert(offsetof(ChunkEntry, recordSize) == 28);

static_assert(sizeof(StringRef) == 8 && sizeof(RigRecord) == 8);

// Every element record starts with its stable id and its name.
#define MARIONETTE_MRIG_ID_NAME(R) static_assert(offsetof(R, id) == 0 && offsetof(R, name) == 4 && alignof(R) == 4)
MARIONETTE_MRIG_ID_NAME(ParticleRecord);
MARIONETTE_MRIG_ID_NAME(StickRecord);
MARIONETTE_MRIG_ID_NAME(AngleRecord);
MARIONETTE_MRIG_ID_NAME(TriangleRecord);
MARIONETTE_MRIG_ID_NAME(AngularRecord);
MARIONETTE_MRIG_ID_NAME(PinRecord);
MARIONETTE_MRIG_ID_NAME(ShapeRecord);
MARIONETTE_MRIG_ID_NAME(BoneRecord);
MARIONETTE_MRIG_ID_NAME(BindingRecord);
MARIONETTE_MRIG_ID_NAME(DriveProfileRecord);
#undef MARIONETTE_MRIG_ID_NAME

static_assert(sizeof(SettingsRecord) == 60);
static_assert(offsetof(SettingsRecord, timeStep) == 12 && offsetof(SettingsRecord, maxSubsteps) == 16);
static_assert(offsetof(SettingsRecord, iterations) == 20 && offsetof(SettingsRecord, drag) == 24);
static_assert(offsetof(SettingsRecord, friction) == 28 && offsetof(SettingsRecord, staticFriction) == 32);
static_assert(offsetof(SettingsRecord, sleepVelocity) == 36 && offsetof(SettingsRecord, sleepTime) == 40);
static_assert(offsetof(SettingsRecord, overRelaxation) == 44 && offsetof(SettingsRecord, sqrtApproximation) == 48);
static_assert(offsetof(SettingsRecord, selfCollision) == 52 && offsetof(SettingsRecord, solver) == 56);

static_assert(sizeof(SolverRecord) == 24 && offsetof(SolverRecord, damping) == 12);
static_assert(offsetof(SolverRecord, staticFrictionSpeed) == 16 && offsetof(SolverRecord, reserved) == 20);
static_assert(sizeof(AngularFrictionRecord) == 8 && sizeof(PinStiffnessRecord) == 4);
static_assert(sizeof(BendDampingRecord) == 4);
static_assert(sizeof(DriveGainsRecord) == 28 && offsetof(DriveGainsRecord, motorDamping) == 4);
static_assert(offsetof(DriveGainsRecord, maxTorque) == 8 && offsetof(DriveGainsRecord, pinFrequency) == 12);
static_assert(offsetof(DriveGainsRecord, pinDamping) == 16 && offsetof(DriveGainsRecord, maxForce) == 20);
static_assert(offsetof(DriveGainsRecord, kinematic) == 24);
static_assert(sizeof(DriveProfileRecord) == 48 && offsetof(DriveProfileRecord, defaults) == 12);
static_assert(offsetof(DriveProfileRecord, firstPart) == 40 && offsetof(DriveProfileRecord, partCount) == 44);
static_assert(sizeof(DrivePartRecord) == 36 && offsetof(DrivePartRecord, index) == 4);
static_assert(offsetof(DrivePartRecord, gains) == 8);

static_assert(sizeof(ParticleRecord) == 44);
static_assert(offsetof(ParticleRecord, name) == 4 && offsetof(ParticleRecord, position) == 12);
static_assert(offsetof(ParticleRecord, mass) == 24 && offsetof(ParticleRecord, radius) == 28);
static_assert(offsetof(ParticleRecord, group) == 32 && offsetof(ParticleRecord, mask) == 36);
static_assert(offsetof(ParticleRecord, bone) == 40);

static_assert(sizeof(StickRecord) == 64);
static_assert(offsetof(StickRecord, particleA) == 12 && offsetof(StickRecord, particleB) == 16);
static_assert(offsetof(StickRecord, kind) == 20 && offsetof(StickRecord, restLength) == 24);
static_assert(offsetof(StickRecord, minLength) == 28 && offsetof(StickRecord, maxLength) == 32);
static_assert(offsetof(StickRecord, stiffness) == 36 && offsetof(StickRecord, compliance) == 40);
static_assert(offsetof(StickRecord, tearRatio) == 44 && offsetof(StickRecord, capsuleRadius) == 48);
static_assert(offsetof(StickRecord, group) == 52 && offsetof(StickRecord, mask) == 56);
static_assert(offsetof(StickRecord, reserved) == 60);

static_assert(sizeof(AngleRecord) == 40);
static_assert(offsetof(AngleRecord, center) == 12 && offsetof(AngleRecord, particleA) == 16);
static_assert(offsetof(AngleRecord, particleB) == 20 && offsetof(AngleRecord, form) == 24);
static_assert(offsetof(AngleRecord, minAngle) == 28 && offsetof(AngleRecord, maxAngle) == 32);
static_assert(offsetof(AngleRecord, stiffness) == 36);

static_assert(sizeof(TriangleRecord) == 24 && offsetof(TriangleRecord, p) == 12);

static_assert(sizeof(AngularRecord) == 100);
static_assert(offsetof(AngularRecord, triangleA) == 12 && offsetof(AngularRecord, triangleB) == 16);
static_assert(offsetof(AngularRecord, limit) == 20 && offsetof(AngularRecord, coneAngle) == 24);
static_assert(offsetof(AngularRecord, twistAxis) == 28 && offsetof(AngularRecord, swingAxis1) == 40);
static_assert(offsetof(AngularRecord, twistMin) == 52 && offsetof(AngularRecord, twistMax) == 56);
static_assert(offsetof(AngularRecord, swing1) == 60 && offsetof(AngularRecord, swing2) == 64);
static_assert(offsetof(AngularRecord, stiffness) == 68 && offsetof(AngularRecord, dynamicFriction) == 72);
static_assert(offsetof(AngularRecord, staticFrictionAngle) == 76);
static_assert(offsetof(AngularRecord, hasRestOrientation) == 80 && offsetof(AngularRecord, restOrientation) == 84);

static_assert(sizeof(PinRecord) == 36);
static_assert(offsetof(PinRecord, particle) == 12 && offsetof(PinRecord, target) == 16);
static_assert(offsetof(PinRecord, stiffness) == 28 && offsetof(PinRecord, kinematic) == 32);

static_assert(sizeof(ShapeRecord) == 84);
static_assert(offsetof(ShapeRecord, kind) == 12 && offsetof(ShapeRecord, triangle) == 16);
static_assert(offsetof(ShapeRecord, tetra) == 20 && offsetof(ShapeRecord, localRotation) == 36);
static_assert(offsetof(ShapeRecord, localTranslation) == 52 && offsetof(ShapeRecord, halfExtents) == 64);
static_assert(offsetof(ShapeRecord, group) == 76 && offsetof(ShapeRecord, mask) == 80);

static_assert(sizeof(BoneRecord) == 208);
static_assert(offsetof(BoneRecord, parent) == 12 && offsetof(BoneRecord, bindLocal) == 16);
static_assert(offsetof(BoneRecord, bindWorld) == 80 && offsetof(BoneRecord, inverseBind) == 144);

static_assert(sizeof(BindingRecord) == 56);
static_assert(offsetof(BindingRecord, bone) == 12 && offsetof(BindingRecord, driver) == 16);
static_assert(offsetof(BindingRecord, index) == 20 && offsetof(BindingRecord, hasOffset) == 24);
static_assert(offsetof(BindingRecord, offsetRotation) == 28 && offsetof(BindingRecord, offsetTranslation) == 44);

static_assert(sizeof(float) == 4 && std::numeric_limits<float>::is_iec559, "records hold IEEE-754 binary32");

} // namespace marionette::rig::mrig
