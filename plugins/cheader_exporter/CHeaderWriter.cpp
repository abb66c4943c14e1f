#include "CHeaderWriter.h"

#include "CHeaderTypes.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <utility>

namespace marionette::plugins {

std::string cIdentifier(const std::string& name)
{
    std::string id;
    for (char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        if (ok)
            id.push_back(c);
        else if (id.empty() || id.back() != '_')
            id.push_back('_');
    }
    if (id.empty() || (id[0] >= '0' && id[0] <= '9'))
        id.insert(0, "rig_");
    return id;
}

std::string cString(const std::string& text)
{
    std::string s;
    for (unsigned char c : text) {
        if (c == '"' || c == '\\') {
            s.push_back('\\');
            s.push_back(char(c));
        } else if (c < 0x20 || c >= 0x7f || c == '?') { // '?' too: no trigraphs
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\%03o", unsigned(c));
            s.append(buf);
        } else {
            s.push_back(char(c));
        }
    }
    return s;
}

namespace {

std::string upper(std::string s)
{
    for (char& c : s)
        if (c >= 'a' && c <= 'z')
            c = char(c - 'a' + 'A');
    return s;
}

std::string i32(std::int32_t v) { return std::to_string(v); }
std::string u32(std::uint32_t v) { return std::to_string(v) + "u"; }

std::size_t drivePartCount(const rig::RigDescription& d)
{
    std::size_t n = 0;
    for (const rig::DriveProfile& p : d.driveProfiles)
        n += p.parts.size();
    return n;
}

} // namespace

CHeaderWriter::CHeaderWriter(const rig::RigDescription& rig, std::string prefix)
    : mRig(rig), mPrefix(std::move(prefix)), mMacro(upper(mPrefix))
{
}

void CHeaderWriter::setSource(std::string sourceFile, std::string generator)
{
    mSource = std::move(sourceFile);
    mGenerator = std::move(generator);
}

std::string CHeaderWriter::f(float v)
{
    if (!std::isfinite(v)) {
        if (mError.empty())
            mError = mContext + ": a number is not finite";
        return "0.0f";
    }
    char buf[40];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    std::string s(buf, r.ptr);
    if (s.find_first_of(".e") == std::string::npos)
        s.append(".0");
    return s + "f";
}

std::string CHeaderWriter::vec(Vec3 v)
{
    std::string s = "{";
    s.append(f(v.x)).append(", ").append(f(v.y)).append(", ").append(f(v.z)).append("}");
    return s;
}

std::string CHeaderWriter::quat(Quat q)
{
    std::string s = "{";
    s.append(f(q.x)).append(", ").append(f(q.y)).append(", ").append(f(q.z)).append(", ").append(f(q.w)).append("}");
    return s;
}

std::string CHeaderWriter::mat(const Mat4& m)
{
    std::string s = "{";
    for (int i = 0; i < 16; ++i)
        s.append(i ? ", " : "").append(f(m.m[i]));
    return s + "}";
}

bool CHeaderWriter::begin(const char* type, const char* what, std::size_t count)
{
    if (count == 0)
        return false;
    mOut.append("static const ").append(type).append(" ").append(mPrefix).append("_").append(what).append("[");
    mOut.append(std::to_string(count)).append("] = {\n");
    return true;
}

void CHeaderWriter::element(std::size_t i, const std::string& name, const std::string& fields)
{
    mOut.append("    /* ").append(std::to_string(i)).append(" */ {\"").append(cString(name)).append("\", ");
    mOut.append(fields).append("},\n");
}

std::string CHeaderWriter::gains(const rig::DriveGains& g)
{
    std::string s = "{";
    for (const rig::DriveGainField& field : rig::kDriveGainFields) // MarionetteDriveGains' order (CHeaderTypes.h)
        s.append(f(g.*field.member)).append(", ");
    return s + i32(g.kinematic ? 1 : 0) + "}";
}

std::string CHeaderWriter::pointer(const char* what, std::size_t count) const
{
    return count ? mPrefix + "_" + what + ", " + std::to_string(count) + "u" : std::string("NULL, 0u");
}

void CHeaderWriter::writeArrays()
{
    const rig::RigDescription& d = mRig;
    auto ctx = [&](const char* kind, std::size_t i, const std::string& name) {
        mContext = std::string(kind) + "[" + std::to_string(i) + "] '" + name + "'";
    };
    if (begin("MarionetteParticle", "particles", d.particles.size())) {
        for (std::size_t i = 0; i < d.particles.size(); ++i) {
            const rig::Particle& p = d.particles[i];
            ctx("particles", i, p.name);
            element(i, p.name, u32(p.id) + ", " + vec(p.position) + ", " + f(p.mass) + ", " +
                                               f(p.mass > 0.f ? 1.f / p.mass : 0.f) + ", " + f(p.radius) + ", " +
                                               u32(p.group) + ", " + u32(p.mask) + ", " + i32(p.bone));
        }
        mOut.append("};\n\n");
    }
    if (begin("MarionetteStick", "sticks", d.sticks.size())) {
        for (std::size_t i = 0; i < d.sticks.size(); ++i) {
            const rig::Stick& s = d.sticks[i];
            ctx("sticks", i, s.name);
            const float rest = s.restLength < 0.f ? length(d.particles[std::size_t(s.b)].position - d.particles[std::size_t(s.a)].position)
                                                  : s.restLength;
            element(i, s.name, u32(s.id) + ", " + i32(s.a) + ", " + i32(s.b) + ", " + i32(int(s.kind)) + ", " +
                                            f(rest) + ", " + f(s.minLength) + ", " + f(s.maxLength) + ", " +
                                            f(s.stiffness) + ", " + f(s.compliance) + ", " + f(s.tearRatio) + ", " +
                                            f(s.capsuleRadius) + ", " + u32(s.group) + ", " + u32(s.mask));
        }
        mOut.append("};\n\n");
    }
    if (begin("MarionetteAngle", "angles", d.angles.size())) {
        for (std::size_t i = 0; i < d.angles.size(); ++i) {
            const rig::AngleConstraint& a = d.angles[i];
            ctx("angles", i, a.name);
            element(i, a.name, u32(a.id) + ", " + i32(a.center) + ", " + i32(a.a) + ", " + i32(a.b) + ", " +
                                            f(a.minAngle) + ", " + f(a.maxAngle) + ", " + f(a.stiffness) + ", " +
                                            i32(int(a.form)));
        }
        mOut.append("};\n\n");
    }
    if (begin("MarionetteTriangle", "triangles", d.triangles.size())) {
        for (std::size_t i = 0; i < d.triangles.size(); ++i) {
            const rig::Triangle& t = d.triangles[i];
            element(i, t.name, u32(t.id) + ", {" + i32(t.p[0]) + ", " + i32(t.p[1]) + ", " + i32(t.p[2]) + "}");
        }
        mOut.append("};\n\n");
    }
    if (begin("MarionetteAngular", "angular", d.angular.size())) {
        for (std::size_t i = 0; i < d.angular.size(); ++i) {
            const rig::AngularConstraint& a = d.angular[i];
            ctx("angular", i, a.name);
            element(i, a.name,
                    u32(a.id) + ", " + i32(a.triangleA) + ", " + i32(a.triangleB) + ", " + i32(int(a.limit)) + ", " +
                        f(a.coneAngle) + ", " + vec(a.twistAxis) + ", " + vec(a.swingAxis1) + ", " + f(a.twistMin) +
                        ", " + f(a.twistMax) + ", " + f(a.swing1) + ", " + f(a.swing2) + ", " + f(a.stiffness) + ", " +
                        f(a.damping) + ", " + f(a.staticFrictionSpeed) + ", " + i32(a.hasRestOrientation ? 1 : 0) +
                        ", " + quat(a.restOrientation));
        }
        mOut.append("};\n\n");
    }
    if (begin("MarionettePin", "pins", d.pins.size())) {
        for (std::size_t i = 0; i < d.pins.size(); ++i) {
            const rig::Pin& p = d.pins[i];
            ctx("pins", i, p.name);
            element(i, p.name, u32(p.id) + ", " + i32(p.particle) + ", " + vec(p.target) + ", " + f(p.stiffness) +
                                          ", " + i32(p.kinematic ? 1 : 0));
        }
        mOut.append("};\n\n");
    }
    if (begin("MarionetteShape", "shapes", d.shapes.size())) {
        for (std::size_t i = 0; i < d.shapes.size(); ++i) {
            const rig::Shape& s = d.shapes[i];
            ctx("shapes", i, s.name);
            element(i, s.name,
                    u32(s.id) + ", " + i32(int(s.kind)) + ", " + i32(s.triangle) + ", {" + i32(s.tetra[0]) + ", " +
                        i32(s.tetra[1]) + ", " + i32(s.tetra[2]) + ", " + i32(s.tetra[3]) + "}, " + quat(s.local.rotation) +
                        ", " + vec(s.local.translation) + ", " + vec(s.halfExtents) + ", " + u32(s.group) + ", " + u32(s.mask));
        }
        mOut.append("};\n\n");
    }
    if (begin("MarionetteBone", "bones", d.bones.size())) {
        for (std::size_t i = 0; i < d.bones.size(); ++i) {
            const rig::Bone& b = d.bones[i];
            ctx("bones", i, b.name);
            element(i, b.name, u32(b.id) + ", " + i32(b.parent) + ",\n        " + mat(b.bindLocal) + ",\n        " +
                                           mat(b.bindWorld) + ",\n        " + mat(b.inverseBind));
        }
        mOut.append("};\n\n");
    }
    if (begin("MarionetteBinding", "bindings", d.bindings.size())) {
        for (std::size_t i = 0; i < d.bindings.size(); ++i) {
            const rig::BoneBinding& b = d.bindings[i];
            ctx("bindings", i, b.name);
            element(i, b.name, u32(b.id) + ", " + i32(b.bone) + ", " + i32(int(b.driver)) + ", " + i32(b.index) +
                                              ", " + i32(b.hasOffset ? 1 : 0) + ", " + quat(b.offset.rotation) + ", " +
                                              vec(b.offset.translation));
        }
        mOut.append("};\n\n");
    }
}

void CHeaderWriter::writeDriveProfiles()
{
    const std::vector<rig::DriveProfile>& profiles = mRig.driveProfiles;
    // Every profile's parts in one array, profile after profile; each profile points at its own run of it.
    if (begin("MarionetteDrivePart", "driveParts", drivePartCount(mRig))) {
        std::size_t at = 0;
        for (std::size_t i = 0; i < profiles.size(); ++i) {
            for (std::size_t k = 0; k < profiles[i].parts.size(); ++k, ++at) {
                const rig::DrivePart& part = profiles[i].parts[k];
                mContext = "driveProfiles[" + std::to_string(i) + "] '" + profiles[i].name + "' parts[" +
                           std::to_string(k) + "]";
                mOut.append("    /* ").append(std::to_string(at)).append(" */ {").append(i32(int(part.kind)));
                mOut.append(", ").append(i32(part.index)).append(", ").append(gains(part.gains)).append("},\n");
            }
        }
        mOut.append("};\n\n");
    }
    if (begin("MarionetteDriveProfile", "driveProfiles", profiles.size())) {
        std::size_t at = 0;
        for (std::size_t i = 0; i < profiles.size(); ++i) {
            const rig::DriveProfile& p = profiles[i];
            mContext = "driveProfiles[" + std::to_string(i) + "] '" + p.name + "'";
            const std::size_t n = p.parts.size();
            const std::string parts = n ? mPrefix + "_driveParts + " + std::to_string(at) : std::string("NULL");
            element(i, p.name,
                    u32(p.id) + ", " + gains(p.defaults) + ",\n        " + parts + ", " + u32(std::uint32_t(n)));
            at += n;
        }
        mOut.append("};\n\n");
    }
}

void CHeaderWriter::writeRig()
{
    const rig::RigDescription& d = mRig;
    const rig::Settings& s = d.settings;
    mContext = "settings";
    mOut.append("static const MarionetteRigData ").append(mPrefix).append("_rig = {\n    \"").append(cString(d.name)).append("\",\n");
    mOut.append("    ").append(pointer("particles", d.particles.size())).append(", ");
    mOut.append(pointer("sticks", d.sticks.size())).append(",\n    ");
    mOut.append(pointer("angles", d.angles.size())).append(", ").append(pointer("triangles", d.triangles.size())).append(",\n    ");
    mOut.append(pointer("angular", d.angular.size())).append(", ").append(pointer("pins", d.pins.size())).append(",\n    ");
    mOut.append(pointer("shapes", d.shapes.size())).append(", ").append(pointer("bones", d.bones.size())).append(",\n    ");
    mOut.append(pointer("bindings", d.bindings.size())).append(", ");
    mOut.append(pointer("driveProfiles", d.driveProfiles.size())).append(",\n");
    mOut.append("    {" + vec(s.gravity) + ", " + f(s.timeStep) + ", " + u32(s.maxSubsteps) + ", " + u32(s.substeps) + ", " +
                u32(s.iterations) + ", " + f(s.damping) + ", " + f(s.friction) + ", " + f(s.staticFrictionSpeed) + ", " +
                f(s.sleepVelocity) + ", " +
                f(s.sleepTime) + ", " + f(s.overRelaxation) + ", " + i32(s.sqrtApproximation ? 1 : 0) + ", " +
                i32(s.selfCollision ? 1 : 0) + ", " + i32(int(s.solver)) + "}\n};\n\n");
}

bool CHeaderWriter::write(std::string& out, std::string& error)
{
    const rig::RigDescription& d = mRig;
    mOut.clear();
    mError.clear();
    const std::string guard = mMacro + "_MARIONETTE_RIG_H";
    mOut.append("/* The Marionette rig '").append(cString(d.name)).append("' as static const arrays");
    if (!mSource.empty())
        mOut.append(", exported from ").append(cString(mSource));
    if (!mGenerator.empty())
        mOut.append(" by ").append(cString(mGenerator));
    mOut.append(".\n * Do not edit: export it again (marionette export PROJECT --format c-header -o FILE.h).\n *\n");
    mOut.append(" * Units: metres, kilograms, seconds, radians; right-handed, +Y up. Indices are positions in the\n"
                " * arrays below (-1 = none); matrices are column-major, quaternions x, y, z, w. Compiles as C99 and\n"
                " * C++; every object is static const. Layout: docs/plugins/c-header-export.md. */\n");
    mOut.append("#ifndef ").append(guard).append("\n#define ").append(guard).append("\n\n#include <stddef.h>\n#include <stdint.h>\n\n");
    mOut.append(kRigHeaderTypes);
    const std::pair<const char*, std::size_t> counts[] = {
        {"PARTICLE", d.particles.size()}, {"STICK", d.sticks.size()},  {"ANGLE", d.angles.size()},
        {"TRIANGLE", d.triangles.size()}, {"ANGULAR", d.angular.size()}, {"PIN", d.pins.size()},
        {"SHAPE", d.shapes.size()},       {"BONE", d.bones.size()},     {"BINDING", d.bindings.size()},
        {"DRIVE_PROFILE", d.driveProfiles.size()},                      {"DRIVE_PART", drivePartCount(d)}};
    for (const auto& [what, n] : counts)
        mOut.append("#define ").append(mMacro).append("_").append(what).append("_COUNT ").append(std::to_string(n)).append("u\n");
    mOut.append("\n");
    writeArrays();
    writeDriveProfiles();
    writeRig();
    mOut.append("#endif /* ").append(guard).append(" */\n");
    if (!mError.empty()) {
        error = mError;
        return false;
    }
    out = std::move(mOut);
    return true;
}

} // namespace marionette::plugins
