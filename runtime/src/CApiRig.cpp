// Marionette — C API: errors, description defaults and rigs.
#include "CApiInternal.h"

using namespace marionette::capi;
namespace mr = marionette;
namespace rt = marionette::runtime;

// ---- results ------------------------------------------------------------------------------------------

extern "C" const char* mrLastError(void) { return tLastError; }

extern "C" const char* mrResultString(MrResult result)
{
    switch (result) {
    case MR_OK: return "MR_OK";
    case MR_INVALID_ARGUMENT: return "MR_INVALID_ARGUMENT";
    case MR_INVALID_RIG: return "MR_INVALID_RIG";
    case MR_NOT_FOUND: return "MR_NOT_FOUND";
    case MR_OUT_OF_MEMORY: return "MR_OUT_OF_MEMORY";
    case MR_INTERNAL: return "MR_INTERNAL";
    }
    return "MR_UNKNOWN";
}

// ---- version --------------------------------------------------------------------------------------------

extern "C" MrResult mrGetVersion(uint32_t* major, uint32_t* minor, uint32_t* patch)
{
    const char* const F = __func__;
    if (!major)
        return nullArgument(F, "major");
    if (!minor)
        return nullArgument(F, "minor");
    if (!patch)
        return nullArgument(F, "patch");
    *major = MR_VERSION_MAJOR;
    *minor = MR_VERSION_MINOR;
    *patch = MR_VERSION_PATCH;
    return MR_OK;
}

extern "C" MrResult mrGetVersionString(const char** out)
{
    if (!out)
        return nullArgument(__func__, "out");
    *out = MR_VERSION_STRING;
    return MR_OK;
}

extern "C" MrResult mrGetCApiVersion(uint32_t* out)
{
    if (!out)
        return nullArgument(__func__, "out");
    *out = MR_C_API_VERSION;
    return MR_OK;
}

extern "C" MrResult mrGetInstructionSet(const char** nameOut)
{
    if (!nameOut)
        return nullArgument(__func__, "nameOut");
    *nameOut = rt::instructionSet();
    return MR_OK;
}

extern "C" MrResult mrUseInstructionSet(const char* name)
{
    if (!name)
        return nullArgument(__func__, "name");
    if (!rt::useInstructionSet(name))
        return fail(MR_INVALID_ARGUMENT, "%s: instruction set '%.64s' is unknown or not one this processor runs (%s is in use)",
                    __func__, name, rt::instructionSet());
    return MR_OK;
}

// ---- description defaults (taken from the C++ defaults so the two cannot drift apart) -----------------

namespace {

/// The C view of a rig's settings (the world-level gravity, timeStep and maxSubsteps, and selfCollision,
/// have no field in MrRigSettings).
MrRigSettings toMr(const mr::rig::Settings& s)
{
    MrRigSettings c;
    c.substeps = s.substeps;
    c.iterations = s.iterations;
    c.damping = s.damping;
    c.friction = s.friction;
    c.staticFrictionSpeed = s.staticFrictionSpeed;
    c.sleepVelocity = s.sleepVelocity;
    c.sleepTime = s.sleepTime;
    c.overRelaxation = s.overRelaxation;
    c.sqrtApproximation = s.sqrtApproximation ? 1 : 0;
    c.solver = static_cast<std::int32_t>(s.solver);
    return c;
}

} // namespace

extern "C" MrRigSettings mrRigSettingsDefault(void) { return toMr(mr::rig::Settings{}); }

extern "C" MrRigDesc mrRigDescDefault(void)
{
    MrRigDesc c;
    std::memset(&c, 0, sizeof c);
    c.settings = mrRigSettingsDefault();
    return c;
}

extern "C" MrParticleDesc mrParticleDescDefault(void)
{
    const mr::rig::Particle p;
    MrParticleDesc c;
    c.name = nullptr;
    c.position = toMr(p.position);
    c.mass = p.mass;
    c.radius = p.radius;
    c.group = p.group;
    c.mask = p.mask;
    return c;
}

extern "C" MrStickDesc mrStickDescDefault(void)
{
    const mr::rig::Stick s;
    MrStickDesc c;
    c.name = nullptr;
    c.a = s.a;
    c.b = s.b;
    c.kind = static_cast<std::int32_t>(s.kind);
    c.restLength = s.restLength;
    c.minLength = s.minLength;
    c.maxLength = s.maxLength;
    c.stiffness = s.stiffness;
    c.compliance = s.compliance;
    c.tearRatio = s.tearRatio;
    c.capsuleRadius = s.capsuleRadius;
    c.group = s.group;
    c.mask = s.mask;
    return c;
}

extern "C" MrAngleDesc mrAngleDescDefault(void)
{
    const mr::rig::AngleConstraint a;
    MrAngleDesc c;
    c.name = nullptr;
    c.center = a.center;
    c.a = a.a;
    c.b = a.b;
    c.minAngle = a.minAngle;
    c.maxAngle = a.maxAngle;
    c.stiffness = a.stiffness;
    c.form = static_cast<std::int32_t>(a.form);
    return c;
}

extern "C" MrTriangleDesc mrTriangleDescDefault(void)
{
    MrTriangleDesc c;
    c.name = nullptr;
    c.p[0] = 0;
    c.p[1] = 0;
    c.p[2] = 0;
    return c;
}

extern "C" MrAngularDesc mrAngularDescDefault(void)
{
    const mr::rig::AngularConstraint a;
    MrAngularDesc c;
    c.name = nullptr;
    c.triangleA = a.triangleA;
    c.triangleB = a.triangleB;
    c.limit = static_cast<std::int32_t>(a.limit);
    c.coneAngle = a.coneAngle;
    c.twistAxis = toMr(a.twistAxis);
    c.swingAxis1 = toMr(a.swingAxis1);
    c.twistMin = a.twistMin;
    c.twistMax = a.twistMax;
    c.swing1 = a.swing1;
    c.swing2 = a.swing2;
    c.stiffness = a.stiffness;
    c.damping = a.damping;
    c.staticFrictionSpeed = a.staticFrictionSpeed;
    c.hasRestOrientation = a.hasRestOrientation ? 1 : 0;
    c.restOrientation = toMr(a.restOrientation);
    return c;
}

extern "C" MrPinDesc mrPinDescDefault(void)
{
    const mr::rig::Pin p;
    MrPinDesc c;
    c.name = nullptr;
    c.particle = p.particle;
    c.target = toMr(p.target);
    c.stiffness = p.stiffness;
    c.kinematic = p.kinematic ? 1 : 0;
    return c;
}

// ---- drive profiles of a description --------------------------------------------------------------------

namespace {

/// MrRigDesc.profiles into out.driveProfiles. The part kinds are checked here (a C int does not fit the C++
/// enum); names, ranges and indices are RigDescription::validate()'s, as for every other element.
MrResult convertDriveProfiles(const char* function, const MrRigDesc& c, mr::rig::RigDescription& out)
{
    if (MrResult r = checkArray(function, "profiles", c.profiles, c.profileCount); r != MR_OK)
        return r;
    out.driveProfiles.resize(c.profileCount);
    for (std::size_t i = 0; i < c.profileCount; ++i) {
        const MrDriveProfileDesc& s = c.profiles[i];
        mr::rig::DriveProfile& p = out.driveProfiles[i];
        if (s.partCount > 0 && !s.parts)
            return fail(MR_INVALID_ARGUMENT, "%s: desc->profiles[%zu].parts is NULL but its count is %zu", function, i,
                        s.partCount);
        if (s.partCount > kMaxElements)
            return fail(MR_INVALID_ARGUMENT, "%s: desc->profiles[%zu].parts count %zu exceeds INT32_MAX", function, i,
                        s.partCount);
        p.name = nameOf(s.name);
        p.defaults = toGains(s.defaults);
        p.parts.resize(s.partCount);
        for (std::size_t k = 0; k < s.partCount; ++k) {
            const MrDrivePartDesc& q = s.parts[k];
            if (q.kind != MR_DRIVE_PART_TRIANGLE && q.kind != MR_DRIVE_PART_STICK)
                return fail(MR_INVALID_RIG, "%s: driveProfiles[%zu]%s%s%s: parts[%zu].kind: unknown part kind %d", function,
                            i, s.name && *s.name ? " '" : "", s.name ? s.name : "", s.name && *s.name ? "'" : "", k,
                            int(q.kind));
            p.parts[k] = {static_cast<mr::rig::DrivePartKind>(q.kind), q.index, toGains(q.gains)};
        }
    }
    return MR_OK;
}

} // namespace

extern "C" MrDriveGains mrDriveGainsDefault(void) { return toMr(mr::rig::DriveGains{}); }

extern "C" MrDrivePartDesc mrDrivePartDescDefault(void)
{
    const mr::rig::DrivePart p;
    MrDrivePartDesc c;
    c.kind = static_cast<std::int32_t>(p.kind);
    c.index = p.index;
    c.gains = toMr(p.gains);
    return c;
}

extern "C" MrDriveProfileDesc mrDriveProfileDescDefault(void)
{
    MrDriveProfileDesc c;
    c.name = nullptr;
    c.defaults = mrDriveGainsDefault();
    c.parts = nullptr;
    c.partCount = 0;
    return c;
}

// ---- rigs ---------------------------------------------------------------------------------------------

extern "C" MrResult mrRigCreateHumanoid(float height, float mass, MrRig** out)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        if (!out)
            return nullArgument(F, "out");
        if (!(height >= 0.1f && height <= 100.f))
            return fail(MR_INVALID_ARGUMENT, "%s: height %g outside [0.1, 100] m", F, d(height));
        if (!(mass > 0.f && mass <= 1e6f))
            return fail(MR_INVALID_ARGUMENT, "%s: mass %g outside (0, 1e6] kg", F, d(mass));
        rt::HumanoidOptions options;
        options.height = height;
        options.mass = mass;
        return wrapRig(F, rt::makeHumanoid(options), out);
    });
}

extern "C" MrResult mrRigLoadFile(const char* path, MrRig** out)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        if (!path)
            return nullArgument(F, "path");
        if (!out)
            return nullArgument(F, "out");
        std::string error;
        std::shared_ptr<const rt::Rig> rig = rt::Rig::load(path, &error);
        if (!rig)
            return fail(MR_INVALID_RIG, "%s: %s", F, error.c_str());
        auto handle = std::make_unique<MrRig>();
        handle->rig = std::move(rig);
        *out = handle.release();
        return MR_OK;
    });
}

extern "C" MrResult mrRigLoadMemory(const void* data, size_t size, MrRig** out)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        if (!data && size > 0)
            return nullArgument(F, "data");
        if (!out)
            return nullArgument(F, "out");
        std::string error;
        std::shared_ptr<const rt::Rig> rig =
            rt::Rig::loadFromMemory({static_cast<const std::byte*>(data), data ? size : 0}, &error);
        if (!rig)
            return fail(MR_INVALID_RIG, "%s: %s", F, error.c_str());
        auto handle = std::make_unique<MrRig>();
        handle->rig = std::move(rig);
        *out = handle.release();
        return MR_OK;
    });
}

extern "C" MrResult mrRigCreateCloth(int cols, int rows, float spacing, int pinTopRow, float tearRatio, MrRig** out)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        if (!out)
            return nullArgument(F, "out");
        if (cols < 1 || cols > 4096 || rows < 1 || rows > 4096)
            return fail(MR_INVALID_ARGUMENT, "%s: %d x %d particles: cols and rows must be in [1, 4096]", F, cols, rows);
        if (long(cols) * long(rows) > (1L << 20))
            return fail(MR_INVALID_ARGUMENT, "%s: %d x %d particles exceeds 1048576", F, cols, rows);
        if (!(spacing > 0.f && spacing <= 100.f))
            return fail(MR_INVALID_ARGUMENT, "%s: spacing %g outside (0, 100] m", F, d(spacing));
        if (!(tearRatio == 0.f || (tearRatio > 1.f && tearRatio <= 1e6f)))
            return fail(MR_INVALID_ARGUMENT, "%s: tearRatio %g must be 0 (never) or in (1, 1e6]", F, d(tearRatio));
        return wrapRig(F, rt::makeCloth(cols, rows, spacing, pinTopRow != 0, tearRatio), out);
    });
}

extern "C" MrResult mrRigCreateCrate(MrVec3 half, float mass, MrRig** out)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        if (!out)
            return nullArgument(F, "out");
        const auto ok = [](float h) { return h > 0.f && h <= 1e3f; };
        if (!ok(half.x) || !ok(half.y) || !ok(half.z))
            return fail(MR_INVALID_ARGUMENT, "%s: half extents (%g, %g, %g) must each be in (0, 1e3] m", F, d(half.x),
                        d(half.y), d(half.z));
        if (!(mass > 0.f && mass <= 1e6f))
            return fail(MR_INVALID_ARGUMENT, "%s: mass %g outside (0, 1e6] kg", F, d(mass));
        return wrapRig(F, rt::makeCrate(toVec(half), mass), out);
    });
}

extern "C" MrResult mrRigCreate(const MrRigDesc* desc, MrRig** out)
{
    const char* const F = __func__;
    return guarded(F, [&]() -> MrResult {
        if (!desc)
            return nullArgument(F, "desc");
        if (!out)
            return nullArgument(F, "out");
        mr::rig::RigDescription description;
        if (MrResult r = convertDescription(F, *desc, description); r != MR_OK)
            return r;
        if (MrResult r = convertDriveProfiles(F, *desc, description); r != MR_OK)
            return r;
        return wrapRig(F, description, out);
    });
}

extern "C" MrResult mrRigRetain(MrRig* rig)
{
    const char* const F = __func__;
    if (MrResult r = checkRig(F, rig); r != MR_OK)
        return r;
    rig->references.fetch_add(1, std::memory_order_relaxed);
    return MR_OK;
}

extern "C" MrResult mrRigRelease(MrRig* rig)
{
    const char* const F = __func__;
    if (!rig)
        return MR_OK;
    if (MrResult r = checkRig(F, rig); r != MR_OK)
        return r;
    if (rig->references.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        rig->magic = 0;
        delete rig; // the shared_ptr destructor does not throw
    }
    return MR_OK;
}

namespace {

/// Writes get(rig) to *out after checking both pointers (`outName` names the output in the message).
template <class Out, class Get>
MrResult rigRead(const char* function, const MrRig* rig, Out* out, const char* outName, Get get)
{
    if (MrResult r = checkRig(function, rig); r != MR_OK)
        return r;
    if (!out)
        return nullArgument(function, outName);
    *out = static_cast<Out>(get(*rig->rig));
    return MR_OK;
}

/// Writes one count of a rig's compiled contents to *count after checking both pointers.
template <class Get>
MrResult rigCount(const char* function, const MrRig* rig, uint32_t* count, Get get)
{
    return rigRead(function, rig, count, "count", get);
}

} // namespace

extern "C" MrResult mrRigParticleCount(const MrRig* rig, uint32_t* count)
{
    return rigCount(__func__, rig, count, [](const rt::Rig& r) { return r.particleCount(); });
}

extern "C" MrResult mrRigStickCount(const MrRig* rig, uint32_t* count)
{
    return rigCount(__func__, rig, count, [](const rt::Rig& r) { return r.description().sticks.size(); });
}

extern "C" MrResult mrRigBoneCount(const MrRig* rig, uint32_t* count)
{
    return rigCount(__func__, rig, count, [](const rt::Rig& r) { return r.bones().size(); });
}

extern "C" MrResult mrRigGetSettings(const MrRig* rig, MrRigSettings* out)
{
    return rigRead(__func__, rig, out, "out", [](const rt::Rig& r) { return toMr(r.settings()); });
}

extern "C" MrResult mrRigSelfCollision(const MrRig* rig, int32_t* on)
{
    return rigRead(__func__, rig, on, "on", [](const rt::Rig& r) { return r.settings().selfCollision ? 1 : 0; });
}

extern "C" MrResult mrRigAuthoredWorldSettings(const MrRig* rig, MrWorldSettings* out)
{
    return rigRead(__func__, rig, out, "out", [](const rt::Rig& r) {
        const mr::rig::Settings& s = r.settings();
        MrWorldSettings w = mrWorldSettingsDefault();
        w.gravity = toMr(s.gravity);
        w.timeStep = s.timeStep;
        w.maxSubsteps = s.maxSubsteps;
        return w;
    });
}

// ---- names --------------------------------------------------------------------------------------------

namespace {

/// Calls f(elements, what) with the description's vector of `kind` and its singular name for messages, or
/// fails when kind is not an MrElementKind.
template <class F>
MrResult withElements(const char* function, const MrRig& rig, std::int32_t kind, F&& f)
{
    const mr::rig::RigDescription& d = rig.rig->description();
    switch (kind) {
    case MR_ELEMENT_PARTICLE: return f(d.particles, "particle");
    case MR_ELEMENT_STICK: return f(d.sticks, "stick");
    case MR_ELEMENT_ANGLE: return f(d.angles, "angle constraint");
    case MR_ELEMENT_TRIANGLE: return f(d.triangles, "triangle");
    case MR_ELEMENT_ANGULAR: return f(d.angular, "angular constraint");
    case MR_ELEMENT_BONE: return f(d.bones, "bone");
    default: break;
    }
    return fail(MR_INVALID_ARGUMENT, "%s: kind %d is not an MrElementKind (%d to %d)", function, int(kind),
                int(MR_ELEMENT_PARTICLE), int(MR_ELEMENT_BONE));
}

/// Checks that `index` names an element of a list of `count` (messages say "bone index 14 out of range").
MrResult checkIndex(const char* function, const char* what, std::uint32_t index, std::size_t count)
{
    if (index >= count)
        return fail(MR_INVALID_ARGUMENT, "%s: %s index %u out of range (%zu %ss)", function, what, unsigned(index),
                    count, what);
    return MR_OK;
}

/// `list(rig, f)` calls f(elements, what) with a list of named things of the rig (an MrElementKind's,
/// through withElements(), or the drive profiles) or fails.
template <class List>
MrResult nameIn(const char* function, const MrRig* rig, List&& list, std::uint32_t index, const char** name)
{
    if (MrResult r = checkRig(function, rig); r != MR_OK)
        return r;
    if (!name)
        return nullArgument(function, "name");
    return list(*rig, [&](const auto& elements, const char* what) -> MrResult {
        if (MrResult r = checkIndex(function, what, index, elements.size()); r != MR_OK)
            return r;
        *name = elements[index].name.c_str();
        return MR_OK;
    });
}

/// indexName: the name of the out-parameter in the caller's declaration, for messages.
template <class List>
MrResult findIn(const char* function, const MrRig* rig, List&& list, const char* name, std::uint32_t* index,
                const char* indexName)
{
    if (MrResult r = checkRig(function, rig); r != MR_OK)
        return r;
    if (!name)
        return nullArgument(function, "name");
    if (!index)
        return nullArgument(function, indexName);
    return list(*rig, [&](const auto& elements, const char* what) -> MrResult {
        if (*name != '\0')
            for (std::size_t i = 0; i < elements.size(); ++i)
                if (elements[i].name == name) {
                    *index = static_cast<std::uint32_t>(i);
                    return MR_OK;
                }
        // The name is the caller's: quote at most 200 bytes of it so the rest of the message survives.
        return fail(MR_NOT_FOUND, "%s: no %s named '%.200s' (%zu %ss)%s", function, what, name, elements.size(),
                    what, *name ? "" : "; unnamed elements cannot be looked up");
    });
}

/// The elements of `kind`, for nameIn() and findIn().
auto elementsOf(const char* function, std::int32_t kind)
{
    return [=](const MrRig& rig, auto&& f) { return withElements(function, rig, kind, f); };
}

/// The drive profiles, for nameIn() and findIn() (messages say "drive profile").
MrResult withProfiles(const MrRig& rig, auto&& f) { return f(rig.rig->description().driveProfiles, "drive profile"); }

MrResult elementName(const char* function, const MrRig* rig, std::int32_t kind, std::uint32_t index,
                     const char** name)
{
    return nameIn(function, rig, elementsOf(function, kind), index, name);
}

MrResult findElement(const char* function, const MrRig* rig, std::int32_t kind, const char* name,
                     std::uint32_t* index, const char* indexName)
{
    return findIn(function, rig, elementsOf(function, kind), name, index, indexName);
}

} // namespace

extern "C" MrResult mrRigName(const MrRig* rig, const char** name)
{
    return rigRead(__func__, rig, name, "name", [](const rt::Rig& r) { return r.description().name.c_str(); });
}

extern "C" MrResult mrRigElementCount(const MrRig* rig, int32_t kind, uint32_t* count)
{
    const char* const F = __func__;
    if (MrResult r = checkRig(F, rig); r != MR_OK)
        return r;
    if (!count)
        return nullArgument(F, "count");
    return withElements(F, *rig, kind, [&](const auto& elements, const char*) -> MrResult {
        *count = static_cast<std::uint32_t>(elements.size());
        return MR_OK;
    });
}

extern "C" MrResult mrRigElementName(const MrRig* rig, int32_t kind, uint32_t index, const char** name)
{
    return elementName(__func__, rig, kind, index, name);
}

extern "C" MrResult mrRigFindElement(const MrRig* rig, int32_t kind, const char* name, uint32_t* index)
{
    return findElement(__func__, rig, kind, name, index, "index");
}

extern "C" MrResult mrRigBoneName(const MrRig* rig, uint32_t bone, const char** name)
{
    return elementName(__func__, rig, MR_ELEMENT_BONE, bone, name);
}

extern "C" MrResult mrRigFindBone(const MrRig* rig, const char* name, uint32_t* bone)
{
    return findElement(__func__, rig, MR_ELEMENT_BONE, name, bone, "bone");
}

extern "C" MrResult mrRigBoneParent(const MrRig* rig, uint32_t bone, int32_t* parent)
{
    const char* const F = __func__;
    if (MrResult r = checkRig(F, rig); r != MR_OK)
        return r;
    if (!parent)
        return nullArgument(F, "parent");
    const std::vector<mr::rig::Bone>& bones = rig->rig->description().bones; // the compiled bones follow it
    if (MrResult r = checkIndex(F, "bone", bone, bones.size()); r != MR_OK)
        return r;
    *parent = bones[bone].parent;
    return MR_OK;
}

// ---- drive profiles of a rig ------------------------------------------------------------------------------

extern "C" MrResult mrRigDriveProfileCount(const MrRig* rig, uint32_t* count)
{
    return rigCount(__func__, rig, count, [](const rt::Rig& r) { return r.description().driveProfiles.size(); });
}

extern "C" MrResult mrRigDriveProfileName(const MrRig* rig, uint32_t profile, const char** name)
{
    return nameIn(__func__, rig, [](const MrRig& r, auto&& f) { return withProfiles(r, f); }, profile, name);
}

extern "C" MrResult mrRigFindDriveProfile(const MrRig* rig, const char* name, uint32_t* profile)
{
    return findIn(__func__, rig, [](const MrRig& r, auto&& f) { return withProfiles(r, f); }, name, profile, "profile");
}
