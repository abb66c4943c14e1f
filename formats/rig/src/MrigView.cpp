// MrigView: one aligned buffer, validated, typed spans; conversion to a RigDescription; readMrig and
// readMrigInfo on top of it.
#include "MrigInternal.h"

#include "marionette/rig/Mrig.h"

#include <cstring>
#include <new>
#include <sstream>

namespace marionette::rig {

using namespace mrig;
using detail::fail;
using detail::Msg;

const SettingsRecord MrigView::kNoSettings{};

struct MrigViewAccess {
    using Buffer = std::unique_ptr<std::byte[], MrigView::AlignedDelete>;
    static Buffer allocate(std::size_t size)
    {
        const std::size_t rounded = (size + kChunkAlignment - 1) / kChunkAlignment * kChunkAlignment;
        return Buffer(static_cast<std::byte*>(::operator new[](rounded, std::align_val_t{kChunkAlignment})));
    }
};

MrigView::MrigView(MrigView&& other) noexcept { *this = std::move(other); }

MrigView& MrigView::operator=(MrigView&& other) noexcept
{
    if (this == &other)
        return *this;
    mBuffer = std::move(other.mBuffer);
    mSize = other.mSize;
    mInfo = other.mInfo;
    mSettings = other.mSettings;
    mStrings = other.mStrings;
    mRigName = other.mRigName;
    mParticles = other.mParticles;
    mSticks = other.mSticks;
    mAngles = other.mAngles;
    mTriangles = other.mTriangles;
    mAngular = other.mAngular;
    mPins = other.mPins;
    mSolver = other.mSolver;
    mAngularFriction = other.mAngularFriction;
    mPinStiffness = other.mPinStiffness;
    mBendDamping = other.mBendDamping;
    mDriveProfiles = other.mDriveProfiles;
    mDriveParts = other.mDriveParts;
    mShapes = other.mShapes;
    mBones = other.mBones;
    mBindings = other.mBindings;
    other.reset();
    return *this;
}

void MrigView::reset()
{
    mBuffer.reset();
    mSize = 0;
    mInfo = MrigInfo{};
    mSettings = nullptr;
    mStrings = {};
    mRigName = {};
    mParticles = {};
    mSticks = {};
    mAngles = {};
    mTriangles = {};
    mAngular = {};
    mPins = {};
    mSolver = nullptr;
    mAngularFriction = {};
    mPinStiffness = {};
    mBendDamping = {};
    mDriveProfiles = {};
    mDriveParts = {};
    mShapes = {};
    mBones = {};
    mBindings = {};
}

std::string_view MrigView::string(StringRef ref) const
{
    if (std::uint64_t(ref.offset) + ref.length > mStrings.size())
        return {};
    return mStrings.substr(ref.offset, ref.length);
}

bool MrigView::adopt(std::unique_ptr<std::byte[], AlignedDelete> buffer, std::size_t size, std::string* error)
{
    const std::span<std::byte> bytes(buffer.get(), size);
    detail::Structure s;
    if (!detail::parseStructure(bytes, s, error) || !detail::verifyPayloads(bytes, s, error))
        return false;
    detail::repackRecords(bytes, s);
    detail::RecordSpans r;
    detail::mapRecords(buffer.get(), s, r);
    if (!detail::validateRecords(r, error))
        return false;
    mBuffer = std::move(buffer);
    mSize = size;
    mInfo = s.info;
    mSettings = r.settings;
    mStrings = r.strings;
    mParticles = r.particles;
    mSticks = r.sticks;
    mAngles = r.angles;
    mTriangles = r.triangles;
    mAngular = r.angular;
    mPins = r.pins;
    mSolver = r.solver;
    mAngularFriction = r.angularFriction;
    mPinStiffness = r.pinStiffness;
    mBendDamping = r.bendDamping;
    mDriveProfiles = r.driveProfiles;
    mDriveParts = r.driveParts;
    mShapes = r.shapes;
    mBones = r.bones;
    mBindings = r.bindings;
    mRigName = r.rig ? string(r.rig->name) : std::string_view();
    return true;
}

bool MrigView::open(std::span<const std::byte> bytes, std::string* error)
{
    reset();
    if (bytes.size() > kMaxFileSize) // before allocating
        return fail(error, Msg() << "file is " << bytes.size() << " bytes; .mrig files above " << kMaxFileSize
                                 << " bytes are refused");
    if (bytes.size() < 12)
        return fail(error, Msg() << "file is " << bytes.size() << " bytes, too small for a .mrig header (64 bytes)");
    try {
        auto buffer = MrigViewAccess::allocate(bytes.size());
        std::memcpy(buffer.get(), bytes.data(), bytes.size());
        return adopt(std::move(buffer), bytes.size(), error);
    } catch (const std::bad_alloc&) {
        return fail(error, Msg() << "out of memory for " << bytes.size() << " bytes");
    }
}

bool MrigView::load(const std::string& path, std::string* error)
{
    reset();
    MrigViewAccess::Buffer buffer;
    std::size_t size = 0;
    const auto allocate = [&](std::size_t n) {
        buffer = MrigViewAccess::allocate(n);
        return buffer.get();
    };
    bool ok = false;
    try {
        ok = detail::readWholeFile(path, allocate, size, error) && adopt(std::move(buffer), size, error);
    } catch (const std::bad_alloc&) {
        ok = fail(error, Msg() << "out of memory for " << size << " bytes");
    }
    if (!ok)
        detail::prefixPath(path, error);
    return ok;
}

namespace {

Vec3 vec(const float (&v)[3]) { return {v[0], v[1], v[2]}; }
Quat quat(const float (&v)[4]) { return {v[0], v[1], v[2], v[3]}; }
Mat4 mat(const float (&v)[16])
{
    Mat4 m;
    std::memcpy(m.m, v, sizeof m.m);
    return m;
}

/// A legacy per-step field that this reader migrates (a 1.0 file, or a 1.1 file without the chunk that
/// supersedes it) must lie in the range format 1.0's validate() gave it, and is refused with 1.0's message
/// (`settings: drag 5 outside [0, 0.99]`): migration, which caps the rates, never turns a rig a 1.0 reader
/// refused into one that loads.
bool legacyRange(const char* list, std::size_t i, std::string_view name, const char* field, float v, float lo,
                 float hi, bool openLow, std::string* error)
{
    if (v >= lo && v <= hi && !(openLow && v == lo)) // false for NaN, which the record checks refuse earlier
        return true;
    if (error) {
        std::ostringstream s; // formatted as RigDescription::validate() formats it
        s << list;
        if (i != std::size_t(-1))
            s << '[' << i << ']';
        if (!name.empty())
            s << " '" << name << '\'';
        s << ": " << field << ' ' << v << " outside " << (openLow ? '(' : '[') << lo << ", " << hi << ']';
        *error = s.str();
    }
    return false;
}

} // namespace

bool MrigView::toDescription(RigDescription& out, std::string* error) const
{
    return toValidatedDescription(out, error).has_value();
}

std::optional<Validated> MrigView::toValidatedDescription(RigDescription& out, std::string* error) const
{
    try {
        out = RigDescription{};
        if (!isOpen())
            return fail(error, Msg() << "no .mrig file is open"), std::nullopt;
        const auto str = [&](StringRef ref) { return std::string(string(ref)); };
        out.name = std::string(mRigName);
        const SettingsRecord& s = *mSettings;
        Settings& t = out.settings;
        t.gravity = vec(s.gravity);
        t.timeStep = s.timeStep;
        t.maxSubsteps = s.maxSubsteps;
        t.friction = s.friction;
        if (mSolver) {
            t.solver = static_cast<SolverMode>(mSolver->solver);
            t.substeps = mSolver->substeps;
            t.iterations = mSolver->iterations;
            t.damping = mSolver->damping;
            t.staticFrictionSpeed = mSolver->staticFrictionSpeed;
        } else {
            if (!legacyRange("settings", std::size_t(-1), {}, "drag", s.drag, 0.f, 0.99f, false, error) ||
                !legacyRange("settings", std::size_t(-1), {}, "staticFriction", s.staticFriction, 0.f, 10.f, false, error))
                return std::nullopt;
            t.solver = static_cast<SolverMode>(s.solver);
            migrateLegacySettings({s.timeStep, s.iterations, s.drag, s.staticFriction}, t);
        }
        t.sleepVelocity = s.sleepVelocity;
        t.sleepTime = s.sleepTime;
        t.overRelaxation = s.overRelaxation;
        t.sqrtApproximation = s.sqrtApproximation != 0;
        t.selfCollision = s.selfCollision != 0;

        out.particles.reserve(mParticles.size());
        for (const ParticleRecord& r : mParticles)
            out.particles.push_back({str(r.name), r.id, vec(r.position), r.mass, r.radius, r.group, r.mask, r.bone});
        out.sticks.reserve(mSticks.size());
        for (const StickRecord& r : mSticks)
            out.sticks.push_back({str(r.name), r.id, r.particleA, r.particleB, static_cast<StickKind>(r.kind),
                                  r.restLength, r.minLength, r.maxLength, r.stiffness, r.compliance, r.tearRatio,
                                  r.capsuleRadius, r.group, r.mask});
        out.angles.reserve(mAngles.size());
        for (std::size_t i = 0; i < mAngles.size(); ++i) {
            const AngleRecord& r = mAngles[i];
            out.angles.push_back({str(r.name), r.id, r.center, r.particleA, r.particleB, r.minAngle, r.maxAngle,
                                  r.stiffness, static_cast<AngleConstraint::Form>(r.form),
                                  !mBendDamping.empty() ? mBendDamping[i].damping : 0.f});
        }
        out.triangles.reserve(mTriangles.size());
        for (const TriangleRecord& r : mTriangles)
            out.triangles.push_back({str(r.name), r.id, {r.p[0], r.p[1], r.p[2]}});
        out.angular.reserve(mAngular.size());
        for (std::size_t i = 0; i < mAngular.size(); ++i) {
            const AngularRecord& r = mAngular[i];
            AngularConstraint a{str(r.name), r.id, r.triangleA, r.triangleB, static_cast<AngularLimit>(r.limit),
                                r.coneAngle, vec(r.twistAxis), vec(r.swingAxis1), r.twistMin, r.twistMax, r.swing1,
                                r.swing2, r.stiffness, 0.f, 0.f, r.hasRestOrientation != 0, quat(r.restOrientation)};
            if (!mAngularFriction.empty()) {
                a.damping = mAngularFriction[i].damping;
                a.staticFrictionSpeed = mAngularFriction[i].staticFrictionSpeed;
            } else {
                if (!legacyRange("angular", i, a.name, "dynamicFriction", r.dynamicFriction, 0.f, 0.999f, false, error) ||
                    !legacyRange("angular", i, a.name, "staticFrictionAngle", r.staticFrictionAngle, 0.f, kPi, false,
                                 error))
                    return std::nullopt;
                migrateLegacyAngularFriction(r.dynamicFriction, r.staticFrictionAngle, s.timeStep, a);
            }
            out.angular.push_back(std::move(a));
        }
        out.pins.reserve(mPins.size());
        for (std::size_t i = 0; i < mPins.size(); ++i) {
            const PinRecord& r = mPins[i];
            if (mPinStiffness.empty() &&
                !legacyRange("pins", i, string(r.name), "stiffness", r.stiffness, 0.f, 1.f, true, error))
                return std::nullopt;
            const float stiffness = !mPinStiffness.empty() ? mPinStiffness[i].stiffness
                                                           : migrateLegacyPinStiffness(r.stiffness, s.iterations, s.timeStep);
            out.pins.push_back({str(r.name), r.id, r.particle, vec(r.target), stiffness, r.kinematic != 0});
        }
        out.shapes.reserve(mShapes.size());
        for (const ShapeRecord& r : mShapes)
            out.shapes.push_back({str(r.name), r.id, static_cast<ShapeKind>(r.kind), r.triangle,
                                  {r.tetra[0], r.tetra[1], r.tetra[2], r.tetra[3]},
                                  Transform{quat(r.localRotation), vec(r.localTranslation)}, vec(r.halfExtents),
                                  r.group, r.mask});
        out.bones.reserve(mBones.size());
        for (const BoneRecord& r : mBones)
            out.bones.push_back({str(r.name), r.id, r.parent, mat(r.bindLocal), mat(r.bindWorld), mat(r.inverseBind)});
        out.bindings.reserve(mBindings.size());
        for (const BindingRecord& r : mBindings)
            out.bindings.push_back({str(r.name), r.id, r.bone, static_cast<BoneBinding::Driver>(r.driver), r.index,
                                    r.hasOffset != 0, Transform{quat(r.offsetRotation), vec(r.offsetTranslation)}});
        out.driveProfiles.reserve(mDriveProfiles.size());
        for (const DriveProfileRecord& r : mDriveProfiles) {
            DriveProfile p{str(r.name), r.id, detail::driveGains(r.defaults), {}};
            p.parts.reserve(r.partCount);
            for (const DrivePartRecord& q : mDriveParts.subspan(r.firstPart, r.partCount))
                p.parts.push_back({static_cast<DrivePartKind>(q.kind), q.index, detail::driveGains(q.gains)});
            out.driveProfiles.push_back(std::move(p));
        }
    } catch (const std::bad_alloc&) {
        fail(error, Msg() << "out of memory while building the rig description");
        return std::nullopt;
    }
    return validated(out, error);
}

std::optional<Validated> readValidatedMrig(std::span<const std::byte> bytes, RigDescription& out, std::string* error)
{
    MrigView view;
    if (!view.open(bytes, error))
        return std::nullopt;
    return view.toValidatedDescription(out, error);
}

bool readMrig(std::span<const std::byte> bytes, RigDescription& out, std::string* error)
{
    return readValidatedMrig(bytes, out, error).has_value();
}

std::optional<Validated> loadValidatedMrig(const std::string& path, RigDescription& out, std::string* error)
{
    MrigView view;
    if (!view.load(path, error))
        return std::nullopt;
    std::optional<Validated> valid = view.toValidatedDescription(out, error);
    if (!valid)
        detail::prefixPath(path, error);
    return valid;
}

bool loadMrig(const std::string& path, RigDescription& out, std::string* error)
{
    return loadValidatedMrig(path, out, error).has_value();
}

bool readMrigInfo(std::span<const std::byte> bytes, MrigInfo& out, std::string* error)
{
    detail::Structure s;
    if (!detail::parseStructure(bytes, s, error))
        return false;
    out = s.info;
    return true;
}

bool loadMrigInfo(const std::string& path, MrigInfo& out, std::string* error)
{
    std::vector<std::byte> bytes;
    std::size_t size = 0;
    const auto allocate = [&](std::size_t n) {
        bytes.resize(n);
        return bytes.data();
    };
    bool ok = false;
    try {
        ok = detail::readWholeFile(path, allocate, size, error) && readMrigInfo(bytes, out, error);
    } catch (const std::bad_alloc&) {
        ok = fail(error, Msg() << "out of memory for " << size << " bytes");
    }
    if (!ok)
        detail::prefixPath(path, error);
    return ok;
}

} // namespace marionette::rig
