// Rig: what a compiled stick enforces, Rosen's triangle frame, loading, and build(), which runs the builders
// (RigBuild.cpp, RigSticks.cpp, RigDrives.cpp) one element kind after another.
#include "marionette/runtime/Rig.h"

#include "marionette/rig/Mrig.h"

#include "Projection.h"

#include <cmath>

namespace marionette::runtime {

Rig::~Rig() = default;

std::string Rig::stickName(std::size_t k) const
{
    if (k >= mStickOrigin.size())
        return {};
    const std::uint32_t origin = mStickOrigin[k], index = origin & (kFromAngle - 1);
    if (origin < kFromAngle)
        return mDescription.sticks[index].name;
    if ((origin & ~(kFromAngle - 1)) == kFromAngle)
        return "angle '" + mDescription.angles[index].name + "'";
    return "triangle '" + mDescription.triangles[index].name + "' edge";
}

std::int32_t Rig::stickAngle(std::size_t k) const
{
    if (k >= mStickOrigin.size() || (mStickOrigin[k] & ~(kFromAngle - 1)) != kFromAngle)
        return -1;
    return std::int32_t(mStickOrigin[k] & (kFromAngle - 1));
}

bool Rig::triangleFrame(Vec3 p0, Vec3 p1, Vec3 p2, Mat3& out)
{
    const Vec3 e1 = p1 - p0;
    const float l1 = lengthSquared(e1);
    if (!(l1 > 1e-16f))
        return false;
    const Vec3 up = e1 * (1.f / std::sqrt(l1));
    const Vec3 f = cross(up, p2 - p0);
    const float lf = lengthSquared(f);
    if (!(lf > 1e-14f * lengthSquared(p2 - p0)) || !(lf > 1e-20f))
        return false;
    const Vec3 facing = f * (1.f / std::sqrt(lf));
    out = Mat3::fromColumns(cross(up, facing), up, facing);
    return true;
}

std::shared_ptr<const Rig> Rig::load(const std::string& path, std::string* error)
{
    rig::RigDescription d;
    const std::optional<rig::Validated> valid = rig::loadValidatedMrig(path, d, error); // validates once
    return valid ? build(*valid) : nullptr;
}

std::shared_ptr<const Rig> Rig::loadFromMemory(std::span<const std::byte> bytes, std::string* error)
{
    rig::RigDescription d;
    const std::optional<rig::Validated> valid = rig::readValidatedMrig(bytes, d, error); // validates once
    return valid ? build(*valid) : nullptr;
}

std::shared_ptr<const Rig> Rig::build(const rig::RigDescription& d, std::string* error)
{
    const std::optional<rig::Validated> valid = rig::validated(d, error);
    return valid ? build(*valid) : nullptr;
}

std::shared_ptr<const Rig> Rig::build(const rig::Validated& valid)
{
    // Each builder reads what the ones before it compiled (Rig.h says what it needs).
    std::shared_ptr<Rig> r(new Rig());
    r->mDescription = valid.description();
    const Vec3 com = r->compileParticles();
    r->compileTriangles();
    r->compileSticks();
    r->compileAngles();
    const std::vector<Mat3> bindFrames = r->bindFrames();
    r->compileAngular(bindFrames);
    r->compileAngularEdges();
    r->compileCapsules();
    r->compileBoxes(bindFrames);
    r->compileColliders();
    r->compilePins();
    r->compileBones(bindFrames);
    r->compileDrives();
    r->compileProjection();
    r->compileBoundingRadius(com);
    return r;
}

} // namespace marionette::runtime
