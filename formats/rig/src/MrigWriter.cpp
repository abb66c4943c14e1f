// writeMrig: RigDescription -> format 1.3 bytes (FORMAT.md §8 describes what this writer produces).
#include "MrigInternal.h"

#include "marionette/rig/Crc32c.h"
#include "marionette/rig/Mrig.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>

namespace marionette::rig {

using namespace mrig;
using detail::fail;
using detail::Msg;

namespace {

void put(float (&dst)[3], Vec3 v)
{
    dst[0] = v.x;
    dst[1] = v.y;
    dst[2] = v.z;
}
void put(float (&dst)[4], Quat q)
{
    dst[0] = q.x;
    dst[1] = q.y;
    dst[2] = q.z;
    dst[3] = q.w;
}
void put(float (&dst)[16], const Mat4& m) { std::memcpy(dst, m.m, sizeof dst); }

/// The string table: every non-empty name appended once per reference (FORMAT.md: no byte is shared).
class StringTable {
public:
    bool add(const std::string& s, StringRef& ref)
    {
        ref = {0, 0};
        if (s.empty())
            return true;
        if (s.size() > UINT32_MAX - mBytes.size())
            return false;
        ref = {static_cast<std::uint32_t>(mBytes.size()), static_cast<std::uint32_t>(s.size())};
        mBytes.append(s);
        return true;
    }
    const std::string& bytes() const { return mBytes; }

private:
    std::string mBytes;
};

struct Payload {
    const void* data = nullptr;
    std::size_t count = 0;
    std::uint32_t recordSize = 0;
};

template <typename Record>
Payload payload(const std::vector<Record>& v)
{
    return {v.data(), v.size(), sizeof(Record)};
}

struct Records {
    RigRecord rig{};
    SettingsRecord settings{};
    std::vector<ParticleRecord> particles;
    std::vector<StickRecord> sticks;
    std::vector<AngleRecord> angles;
    std::vector<TriangleRecord> triangles;
    std::vector<AngularRecord> angular;
    std::vector<PinRecord> pins;
    std::vector<ShapeRecord> shapes;
    std::vector<BoneRecord> bones;
    std::vector<BindingRecord> bindings;
    SolverRecord solver{};
    std::vector<AngularFrictionRecord> angularFriction;
    std::vector<PinStiffnessRecord> pinStiffness;
    std::vector<BendDampingRecord> bendDamping;
    std::vector<DriveProfileRecord> driveProfiles;
    std::vector<DrivePartRecord> driveParts;
};

/// The per-step values format 1.0 readers take from SETT, ANGU and PINS, closest to the same behaviour
/// (1.1 readers read SOLV, ANGF and PINF instead).
std::uint32_t legacyIterations(const Settings& s) { return std::clamp(s.substeps * s.iterations, 1u, 64u); }
float legacyFraction(float rate, float dt, float most) { return std::clamp(1.f - std::exp(-rate * dt), 0.f, most); }

bool makeRecords(const RigDescription& d, StringTable& st, Records& r)
{
    bool ok = st.add(d.name, r.rig.name);
    const Settings& s = d.settings;
    SettingsRecord& t = r.settings;
    put(t.gravity, s.gravity);
    t.timeStep = s.timeStep;
    t.maxSubsteps = s.maxSubsteps;
    t.iterations = legacyIterations(s);
    t.drag = legacyFraction(s.damping, s.timeStep, 0.99f);
    t.friction = s.friction;
    t.staticFriction = std::clamp(s.staticFrictionSpeed * s.timeStep, 0.f, 10.f);
    t.sleepVelocity = s.sleepVelocity;
    t.sleepTime = s.sleepTime;
    t.overRelaxation = s.overRelaxation;
    t.sqrtApproximation = s.sqrtApproximation ? 1u : 0u;
    t.selfCollision = s.selfCollision ? 1u : 0u;
    t.solver = s.solver == SolverMode::Direct ? 0u : static_cast<std::uint32_t>(s.solver); // 1.0 knows 0–2
    r.solver = {static_cast<std::uint32_t>(s.solver), s.substeps, s.iterations, s.damping, s.staticFrictionSpeed, 0u};

    r.particles.resize(d.particles.size());
    for (std::size_t i = 0; i < d.particles.size(); ++i) {
        const Particle& p = d.particles[i];
        ParticleRecord& o = r.particles[i];
        ok = st.add(p.name, o.name) && ok;
        o.id = p.id;
        put(o.position, p.position);
        o.mass = p.mass;
        o.radius = p.radius;
        o.group = p.group;
        o.mask = p.mask;
        o.bone = p.bone;
    }
    r.sticks.resize(d.sticks.size());
    for (std::size_t i = 0; i < d.sticks.size(); ++i) {
        const Stick& s2 = d.sticks[i];
        StickRecord& o = r.sticks[i];
        ok = st.add(s2.name, o.name) && ok;
        o.id = s2.id;
        o.particleA = s2.a;
        o.particleB = s2.b;
        o.kind = static_cast<std::uint32_t>(s2.kind);
        o.restLength = s2.restLength;
        o.minLength = s2.minLength;
        o.maxLength = s2.maxLength;
        o.stiffness = s2.stiffness;
        o.compliance = s2.compliance;
        o.tearRatio = s2.tearRatio;
        o.capsuleRadius = s2.capsuleRadius;
        o.group = s2.group;
        o.mask = s2.mask;
    }
    r.angles.resize(d.angles.size());
    for (std::size_t i = 0; i < d.angles.size(); ++i) {
        const AngleConstraint& a = d.angles[i];
        AngleRecord& o = r.angles[i];
        ok = st.add(a.name, o.name) && ok;
        o.id = a.id;
        o.center = a.center;
        o.particleA = a.a;
        o.particleB = a.b;
        o.form = static_cast<std::uint32_t>(a.form);
        o.minAngle = a.minAngle;
        o.maxAngle = a.maxAngle;
        o.stiffness = a.stiffness;
        r.bendDamping.push_back({a.damping});
    }
    r.triangles.resize(d.triangles.size());
    for (std::size_t i = 0; i < d.triangles.size(); ++i) {
        const Triangle& tr = d.triangles[i];
        TriangleRecord& o = r.triangles[i];
        ok = st.add(tr.name, o.name) && ok;
        o.id = tr.id;
        for (int k = 0; k < 3; ++k)
            o.p[k] = tr.p[k];
    }
    r.angular.resize(d.angular.size());
    for (std::size_t i = 0; i < d.angular.size(); ++i) {
        const AngularConstraint& a = d.angular[i];
        AngularRecord& o = r.angular[i];
        ok = st.add(a.name, o.name) && ok;
        o.id = a.id;
        o.triangleA = a.triangleA;
        o.triangleB = a.triangleB;
        o.limit = static_cast<std::uint32_t>(a.limit);
        o.coneAngle = a.coneAngle;
        put(o.twistAxis, a.twistAxis);
        put(o.swingAxis1, a.swingAxis1);
        o.twistMin = a.twistMin;
        o.twistMax = a.twistMax;
        o.swing1 = a.swing1;
        o.swing2 = a.swing2;
        o.stiffness = a.stiffness;
        o.dynamicFriction = legacyFraction(a.damping, s.timeStep, 0.999f);
        o.staticFrictionAngle = std::clamp(a.staticFrictionSpeed * s.timeStep, 0.f, kPi);
        r.angularFriction.push_back({a.damping, a.staticFrictionSpeed});
        o.hasRestOrientation = a.hasRestOrientation ? 1u : 0u;
        put(o.restOrientation, a.restOrientation);
    }
    r.pins.resize(d.pins.size());
    for (std::size_t i = 0; i < d.pins.size(); ++i) {
        const Pin& p = d.pins[i];
        PinRecord& o = r.pins[i];
        ok = st.add(p.name, o.name) && ok;
        o.id = p.id;
        o.particle = p.particle;
        put(o.target, p.target);
        // Per iteration of a 1.0 reader's step: (1 − s)^(60 Δt / n) keeps the same fraction per 1/60 s.
        o.stiffness = p.stiffness >= 1.f ? 1.f
                                         : std::clamp(1.f - std::pow(1.f - p.stiffness, 60.f * s.timeStep /
                                                                                          float(legacyIterations(s))),
                                                      1e-6f, 1.f);
        o.kinematic = p.kinematic ? 1u : 0u;
        r.pinStiffness.push_back({p.stiffness});
    }
    r.shapes.resize(d.shapes.size());
    for (std::size_t i = 0; i < d.shapes.size(); ++i) {
        const Shape& s2 = d.shapes[i];
        ShapeRecord& o = r.shapes[i];
        ok = st.add(s2.name, o.name) && ok;
        o.id = s2.id;
        o.kind = static_cast<std::uint32_t>(s2.kind);
        o.triangle = s2.triangle;
        for (int k = 0; k < 4; ++k)
            o.tetra[k] = s2.tetra[k];
        put(o.localRotation, s2.local.rotation);
        put(o.localTranslation, s2.local.translation);
        put(o.halfExtents, s2.halfExtents);
        o.group = s2.group;
        o.mask = s2.mask;
    }
    r.bones.resize(d.bones.size());
    for (std::size_t i = 0; i < d.bones.size(); ++i) {
        const Bone& b = d.bones[i];
        BoneRecord& o = r.bones[i];
        ok = st.add(b.name, o.name) && ok;
        o.id = b.id;
        o.parent = b.parent;
        put(o.bindLocal, b.bindLocal);
        put(o.bindWorld, b.bindWorld);
        put(o.inverseBind, b.inverseBind);
    }
    r.bindings.resize(d.bindings.size());
    for (std::size_t i = 0; i < d.bindings.size(); ++i) {
        const BoneBinding& b = d.bindings[i];
        BindingRecord& o = r.bindings[i];
        ok = st.add(b.name, o.name) && ok;
        o.id = b.id;
        o.bone = b.bone;
        o.driver = static_cast<std::uint32_t>(b.driver);
        o.index = b.index;
        o.hasOffset = b.hasOffset ? 1u : 0u;
        put(o.offsetRotation, b.offset.rotation);
        put(o.offsetTranslation, b.offset.translation);
    }
    r.driveProfiles.resize(d.driveProfiles.size());
    for (std::size_t i = 0; i < d.driveProfiles.size(); ++i) {
        const DriveProfile& p = d.driveProfiles[i];
        DriveProfileRecord& o = r.driveProfiles[i];
        ok = st.add(p.name, o.name) && ok;
        o.id = p.id;
        o.defaults = detail::driveGainsRecord(p.defaults);
        o.firstPart = static_cast<std::uint32_t>(r.driveParts.size());
        o.partCount = static_cast<std::uint32_t>(p.parts.size());
        for (const DrivePart& part : p.parts)
            r.driveParts.push_back({static_cast<std::uint32_t>(part.kind), part.index,
                                    detail::driveGainsRecord(part.gains)});
    }
    return ok;
}

std::vector<std::byte> serialise(const Records& r, const std::string& strings, std::string* error)
{
    Payload p[detail::kKnownChunkCount];
    p[detail::kRigChunk] = {&r.rig, 1, sizeof(RigRecord)};
    p[detail::kSettingsChunk] = {&r.settings, 1, sizeof(SettingsRecord)};
    p[detail::kParticlesChunk] = payload(r.particles);
    p[detail::kSticksChunk] = payload(r.sticks);
    p[detail::kAnglesChunk] = payload(r.angles);
    p[detail::kTrianglesChunk] = payload(r.triangles);
    p[detail::kAngularChunk] = payload(r.angular);
    p[detail::kPinsChunk] = payload(r.pins);
    p[detail::kShapesChunk] = payload(r.shapes);
    p[detail::kBonesChunk] = payload(r.bones);
    p[detail::kBindingsChunk] = payload(r.bindings);
    p[detail::kStringsChunk] = {strings.data(), strings.size(), 1};
    p[detail::kSolverChunk] = {&r.solver, 1, sizeof(SolverRecord)};
    p[detail::kAngularFrictionChunk] = payload(r.angularFriction);
    p[detail::kPinStiffnessChunk] = payload(r.pinStiffness);
    p[detail::kBendDampingChunk] = payload(r.bendDamping);
    p[detail::kDriveProfilesChunk] = payload(r.driveProfiles);
    p[detail::kDrivePartsChunk] = payload(r.driveParts);

    FileHeader h{};
    std::memcpy(h.magic, kMagic, sizeof kMagic);
    h.versionMajor = kVersionMajor;
    h.versionMinor = kVersionMinor;
    h.headerSize = sizeof(FileHeader);
    h.chunkTableOffset = sizeof(FileHeader);
    h.chunkCount = detail::kKnownChunkCount;
    h.chunkEntrySize = sizeof(ChunkEntry);
    ChunkEntry entries[detail::kKnownChunkCount]{};
    std::uint64_t cursor = h.chunkTableOffset + sizeof entries;
    for (int k = 0; k < detail::kKnownChunkCount; ++k) {
        if (p[k].count > std::uint64_t(k == detail::kStringsChunk ? UINT32_MAX : INT32_MAX))
            return fail(error, Msg() << detail::tagName(detail::kKnownChunks[k].tag) << ": " << p[k].count << ' '
                                     << detail::kKnownChunks[k].what << " are more than a .mrig file can hold"),
                   std::vector<std::byte>();
        cursor = (cursor + kChunkAlignment - 1) / kChunkAlignment * kChunkAlignment;
        entries[k].tag = detail::kKnownChunks[k].tag;
        entries[k].offset = cursor;
        entries[k].size = std::uint64_t(p[k].count) * p[k].recordSize;
        entries[k].count = static_cast<std::uint32_t>(p[k].count);
        entries[k].recordSize = p[k].recordSize;
        cursor += entries[k].size;
    }
    if (cursor > kMaxFileSize)
        return fail(error, Msg() << "the rig needs " << cursor << " bytes, more than a .mrig file may hold ("
                                 << kMaxFileSize << ')'),
               std::vector<std::byte>();
    h.fileSize = cursor;

    std::vector<std::byte> out(static_cast<std::size_t>(cursor)); // zero: padding and reserved fields
    for (int k = 0; k < detail::kKnownChunkCount; ++k) {
        std::byte* dst = out.data() + entries[k].offset;
        if (entries[k].size > 0)
            std::memcpy(dst, p[k].data, static_cast<std::size_t>(entries[k].size));
        entries[k].crc = crc32c({dst, static_cast<std::size_t>(entries[k].size)});
    }
    std::memcpy(out.data() + h.chunkTableOffset, entries, sizeof entries);
    h.chunkTableCrc = crc32c({out.data() + h.chunkTableOffset, sizeof entries});
    std::memcpy(out.data(), &h, sizeof h); // headerCrc still 0: the CRC is defined with that field zero
    h.headerCrc = crc32c({out.data(), sizeof h});
    std::memcpy(out.data() + offsetof(FileHeader, headerCrc), &h.headerCrc, 4);
    return out;
}

} // namespace

std::vector<std::byte> writeMrig(const RigDescription& rig, std::string* error)
{
    const std::optional<Validated> valid = validated(rig, error);
    return valid ? writeMrig(*valid, error) : std::vector<std::byte>();
}

std::vector<std::byte> writeMrig(const Validated& valid, std::string* error)
{
    const RigDescription& rig = valid.description();
    try {
        StringTable strings;
        Records records;
        if (!makeRecords(rig, strings, records))
            return fail(error, Msg() << "STRS: the names add up to more than 4 GiB"), std::vector<std::byte>();
        std::vector<std::byte> out = serialise(records, strings.bytes(), error);
        if (out.empty())
            return out;
        // The writer's promise: what it writes, the reader accepts. The reader is stricter than validate()
        // in places (every float finite, also those validate() does not look at, like a box's rotation).
        MrigView check;
        std::string readBack;
        if (!check.open(out, &readBack))
            return fail(error, Msg() << "cannot be written as .mrig: " << readBack), std::vector<std::byte>();
        return out;
    } catch (const std::bad_alloc&) {
        return fail(error, Msg() << "out of memory while writing the rig"), std::vector<std::byte>();
    }
}

} // namespace marionette::rig
