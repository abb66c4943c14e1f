#include "MrigTestSupport.h"

#include <cmath>

// Tripwire: fullRig() and diffRigs() list every field by hand. A field added to a rig struct almost always
// changes its size, and then this trips: give the field a place in the .mrig format (a new chunk or a larger
// record in a new minor version, formats/rig/FORMAT.md §9), in the writer and the reader, in fullRig() and
// in diffRigs(), then update the size. (MrigView::toDescription's aggregate initialisers also stop compiling
// with -Wmissing-field-initializers.) Checked where the layout is known (libstdc++, x86-64).
#if defined(__GLIBCXX__) && defined(__x86_64__)
#define MRIG_TRIPWIRE(T, n) static_assert(sizeof(marionette::rig::T) == n, "rig::" #T " changed: update the .mrig format, fullRig() and diffRigs()")
MRIG_TRIPWIRE(Particle, 72);
MRIG_TRIPWIRE(Stick, 88);
MRIG_TRIPWIRE(AngleConstraint, 72);
MRIG_TRIPWIRE(Triangle, 48);
MRIG_TRIPWIRE(AngularConstraint, 128);
MRIG_TRIPWIRE(Pin, 64);
MRIG_TRIPWIRE(Shape, 112);
MRIG_TRIPWIRE(Bone, 232);
MRIG_TRIPWIRE(BoneBinding, 80);
MRIG_TRIPWIRE(Settings, 56);
MRIG_TRIPWIRE(DriveGains, 28);
MRIG_TRIPWIRE(DrivePart, 36);
MRIG_TRIPWIRE(DriveProfile, 88);
MRIG_TRIPWIRE(RigDescription, 328);
#undef MRIG_TRIPWIRE
#endif

namespace marionette::test {

using namespace rig;

RigDescription fullRig()
{
    RigDescription d;
    d.name = "full rig \xE2\x9C\x93"; // "full rig ✓"

    const Vec3 pos[6] = {{-0.f, 0.f, 0.f}, {0.1f, 1e-39f, 0.3f}, {0.7f, 0.1f, 0.2f},
                         {0.1f, 0.9f, 0.4f}, {0.5f, 0.5f, 0.9f}, {0.9f, 0.2f, 0.6f}};
    const char* names[6] = {"", "\xC3\xA9paule_gauche", nullptr, "p3", "p4", "p5"};
    for (int i = 0; i < 6; ++i) {
        Particle p;
        p.name = names[i] ? std::string(names[i]) : std::string("a\0b", 3);
        p.id = i == 1 ? 0xFFFFFFFFu : 10u + std::uint32_t(i);
        p.position = pos[i];
        p.mass = i == 0 ? 0.f : (i == 1 ? 1e6f : 1.f / 3.f + float(i));
        p.radius = i == 0 ? 0.f : (i == 1 ? 100.f : 0.01f * float(i));
        p.group = 0x80000001u >> i;
        p.mask = 0xDEADBEEFu ^ std::uint32_t(i);
        p.bone = i < 3 ? 2 - i : kNone;
        d.particles.push_back(p);
    }

    Stick s;
    s.name = "rigid";
    s.id = 20;
    s.a = 0;
    s.b = 1;
    s.kind = StickKind::Rigid;
    s.restLength = 0.123456789f;
    s.minLength = 0.01f;
    s.maxLength = 0.02f;
    s.stiffness = 0.3f;
    s.compliance = 1e-40f;
    s.tearRatio = 1.5f;
    s.capsuleRadius = 0.02f;
    s.group = 2;
    s.mask = 3;
    d.sticks.push_back(s);
    s = Stick{};
    s.name = "range";
    s.id = 21;
    s.a = 1;
    s.b = 2;
    s.kind = StickKind::Range;
    s.minLength = 0.1f;
    s.maxLength = 0.7f;
    s.compliance = 0.001f;
    d.sticks.push_back(s);
    s = Stick{};
    s.name = "min-only";
    s.id = 22;
    s.a = 3;
    s.b = 4;
    s.kind = StickKind::MinOnly;
    s.restLength = 5.f;
    s.minLength = 0.2f;
    s.maxLength = 0.33f;
    s.stiffness = 1.f;
    d.sticks.push_back(s);
    s = Stick{};
    s.id = 23;
    s.a = 5;
    s.b = 0;
    s.kind = StickKind::MaxOnly;
    s.maxLength = 0.9f;
    s.tearRatio = 1e6f;
    s.capsuleRadius = 100.f;
    s.group = 0;
    s.mask = 0;
    d.sticks.push_back(s);

    AngleConstraint a;
    a.name = "dot";
    a.id = 30;
    a.center = 1;
    a.a = 0;
    a.b = 2;
    a.minAngle = 0.25f;
    a.maxAngle = 3.f;
    a.stiffness = 0.75f;
    a.form = AngleConstraint::Form::DotProduct;
    a.damping = 0.1f; // not exact in binary
    d.angles.push_back(a);
    a.name = "cosines";
    a.id = 31;
    a.center = 4;
    a.a = 3;
    a.b = 5;
    a.minAngle = 0.f;
    a.maxAngle = kPi;
    a.stiffness = 1.f;
    a.form = AngleConstraint::Form::LawOfCosines;
    a.damping = 1000.f; // the top of its range
    d.angles.push_back(a);

    d.triangles.push_back({"tri0", 40, {0, 1, 3}});
    d.triangles.push_back({"", 41, {2, 4, 5}});
    d.triangles.push_back({"tri2", 0, {3, 4, 5}});

    AngularConstraint c;
    c.name = "cone";
    c.id = 50;
    c.triangleA = 0;
    c.triangleB = 1;
    c.limit = AngularLimit::Cone;
    c.coneAngle = 0.7f;
    c.twistAxis = {0.f, 0.f, 1.f};
    c.swingAxis1 = {0.f, 1.f, 0.f};
    c.twistMin = -3.f;
    c.twistMax = 3.1f;
    c.swing1 = 0.1f;
    c.swing2 = 0.2f;
    c.stiffness = 0.5f;
    c.damping = 0.3f;
    c.staticFrictionSpeed = 1e-40f;
    c.hasRestOrientation = false;
    c.restOrientation = {0.f, 0.f, 0.f, -1.f};
    d.angular.push_back(c);
    c.name = "swing twist";
    c.id = 51;
    c.triangleA = 2;
    c.triangleB = 0;
    c.limit = AngularLimit::SwingTwist;
    c.twistAxis = {0.6f, 0.8f, 0.f};
    c.swingAxis1 = {-0.8f, 0.6f, 0.f};
    c.twistMin = -0.4f;
    c.twistMax = 0.9f;
    c.swing1 = 1.2f;
    c.swing2 = 0.3f;
    c.stiffness = 1.f;
    c.damping = 1000.f;
    c.staticFrictionSpeed = 100.f;
    c.hasRestOrientation = true;
    c.restOrientation = normalize(Quat{0.1f, 0.2f, 0.3f, 0.9f});
    d.angular.push_back(c);

    d.pins.push_back({"pin", 60, 5, {1.f, 2.f, -3.f}, 0.1f, false});
    d.pins.push_back({"", 61, 0, {-0.f, 0.f, 1e-38f}, 1.f, true});
    d.pins.push_back({"soft", 62, 3, {0.f, 0.5f, 0.f}, 1e-6f, false});

    Shape box;
    box.name = "box on tri";
    box.id = 70;
    box.kind = ShapeKind::Box;
    box.triangle = 1;
    box.tetra[0] = 7; // ignored when the box is on a triangle, but carried verbatim
    box.tetra[1] = -3;
    box.local = {normalize(Quat{0.f, 0.3f, 0.f, 1.f}), {0.01f, -0.02f, 0.03f}};
    box.halfExtents = {0.1f, 0.2f, 0.05f};
    box.group = 4;
    box.mask = 5;
    d.shapes.push_back(box);
    box.name = "box in tetra";
    box.id = 71;
    box.triangle = kNone;
    box.tetra[0] = 0;
    box.tetra[1] = 1;
    box.tetra[2] = 3;
    box.tetra[3] = 4;
    box.local = {};
    box.halfExtents = {1e-30f, 3.f, 7.f};
    d.shapes.push_back(box);

    for (int i = 0; i < 3; ++i) {
        Bone b;
        b.name = "bone" + std::to_string(i);
        b.id = 80u + std::uint32_t(i);
        b.parent = i - 1;
        for (int k = 0; k < 16; ++k) {
            b.bindLocal.m[k] = float(k) * 0.5f - float(i);
            b.bindWorld.m[k] = 1.f / float(k + 1 + i);
            b.inverseBind.m[k] = k == 3 ? -0.f : float(k * k) * 1e-3f;
        }
        d.bones.push_back(b);
    }

    BoneBinding bb;
    bb.name = "tri-bound";
    bb.id = 90;
    bb.bone = 0;
    bb.driver = BoneBinding::Driver::Triangle;
    bb.index = 2;
    bb.hasOffset = true;
    bb.offset = {normalize(Quat{0.5f, -0.5f, 0.5f, 0.5f}), {0.25f, 0.5f, 0.75f}};
    d.bindings.push_back(bb);
    bb.name = "stick-bound";
    bb.id = 91;
    bb.bone = 2;
    bb.driver = BoneBinding::Driver::Stick;
    bb.index = 3;
    bb.hasOffset = false;
    bb.offset = {Quat{0.f, 1.f, 0.f, 0.f}, {-1.f, -2.f, -3.f}};
    d.bindings.push_back(bb);

    // Two profiles: every gain at an end of its range or an odd value, parts of both kinds, a profile
    // without parts, names with a NUL and UTF-8.
    DriveProfile stagger;
    stagger.name = "stagger \xC3\xA9";
    stagger.id = 100;
    stagger.defaults = {60.f, 0.f, 1e6f, 0.25f, 10.f, 1e-30f, false};
    stagger.parts.push_back({DrivePartKind::Triangle, 2, {0.f, 10.f, 0.f, 60.f, 0.5f, 1e6f, true}});
    stagger.parts.push_back({DrivePartKind::Stick, 3, {-0.f, 1.f, 12.5f, 0.f, 0.f, 0.f, false}});
    stagger.parts.push_back({DrivePartKind::Triangle, 0, {7.f, 0.7f, 0.125f, 3.f, 1.f, 250.f, false}});
    d.driveProfiles.push_back(stagger);
    d.driveProfiles.push_back({std::string("limp\0x", 6), 0, {0.f, 1.f, 0.f, 0.f, 1.f, 0.f, true}, {}});
    DriveProfile stiff;
    stiff.name = "stiff";
    stiff.id = 102;
    stiff.parts.push_back({DrivePartKind::Stick, 0, {30.f, 2.f, 100.f, 0.f, 1.f, 0.f, false}});
    d.driveProfiles.push_back(stiff);

    Settings& t = d.settings;
    t.gravity = {0.5f, -3.f, 0.25f};
    t.timeStep = 0.005f;
    t.maxSubsteps = 64;
    t.substeps = 7;
    t.iterations = 13; // 7 × 13 = 91 per step: the legacy SETT.iterations saturates at 64
    t.damping = 0.1f;
    t.friction = 1e4f;
    t.staticFrictionSpeed = 99.9f;
    t.sleepVelocity = 0.125f;
    t.sleepTime = 0.f;
    t.overRelaxation = 1.99f;
    t.sqrtApproximation = true;
    t.selfCollision = false;
    t.solver = SolverMode::Direct; // the mode format 1.0 cannot hold (SETT.solver is 0–2)
    return d;
}

namespace {

class Differ {
public:
    std::string result() const { return mFirst; }
    bool done() const { return !mFirst.empty(); }

    void at(const char* list, std::size_t i) { mWhere = std::string(list) + '[' + std::to_string(i) + "]."; }
    void at(const char* list) { mWhere = std::string(list) + '.'; }

    void f(const char* field, float a, float b)
    {
        std::uint32_t x, y;
        std::memcpy(&x, &a, 4);
        std::memcpy(&y, &b, 4);
        if (x != y)
            report(field, hex(x), hex(y));
    }
    void v(const char* field, Vec3 a, Vec3 b)
    {
        f((std::string(field) + ".x").c_str(), a.x, b.x);
        f((std::string(field) + ".y").c_str(), a.y, b.y);
        f((std::string(field) + ".z").c_str(), a.z, b.z);
    }
    void q(const char* field, Quat a, Quat b)
    {
        v(field, a.vec(), b.vec());
        f((std::string(field) + ".w").c_str(), a.w, b.w);
    }
    void m(const char* field, const Mat4& a, const Mat4& b)
    {
        for (int k = 0; k < 16; ++k)
            f((std::string(field) + '[' + std::to_string(k) + ']').c_str(), a.m[k], b.m[k]);
    }
    template <typename T>
    void e(const char* field, T a, T b)
    {
        if (a != b)
            report(field, std::to_string(static_cast<long long>(a)), std::to_string(static_cast<long long>(b)));
    }
    void s(const char* field, const std::string& a, const std::string& b)
    {
        if (a != b)
            report(field, '"' + a + '"', '"' + b + '"');
    }

private:
    static std::string hex(std::uint32_t x)
    {
        char buf[16];
        std::snprintf(buf, sizeof buf, "0x%08x", x);
        return buf;
    }
    void report(const char* field, const std::string& a, const std::string& b)
    {
        if (mFirst.empty())
            mFirst = mWhere + field + ": " + a + " != " + b;
    }
    std::string mWhere, mFirst;
};

} // namespace

std::string diffRigs(const RigDescription& a, const RigDescription& b)
{
    Differ d;
    d.at("rig");
    d.s("name", a.name, b.name);
    const auto sizes = [&](const char* list, std::size_t x, std::size_t y) {
        d.at(list);
        d.e("size", x, y);
        return x == y;
    };
    if (sizes("particles", a.particles.size(), b.particles.size()))
        for (std::size_t i = 0; i < a.particles.size(); ++i) {
            const Particle &x = a.particles[i], &y = b.particles[i];
            d.at("particles", i);
            d.s("name", x.name, y.name);
            d.e("id", x.id, y.id);
            d.v("position", x.position, y.position);
            d.f("mass", x.mass, y.mass);
            d.f("radius", x.radius, y.radius);
            d.e("group", x.group, y.group);
            d.e("mask", x.mask, y.mask);
            d.e("bone", x.bone, y.bone);
        }
    if (sizes("sticks", a.sticks.size(), b.sticks.size()))
        for (std::size_t i = 0; i < a.sticks.size(); ++i) {
            const Stick &x = a.sticks[i], &y = b.sticks[i];
            d.at("sticks", i);
            d.s("name", x.name, y.name);
            d.e("id", x.id, y.id);
            d.e("a", x.a, y.a);
            d.e("b", x.b, y.b);
            d.e("kind", x.kind, y.kind);
            d.f("restLength", x.restLength, y.restLength);
            d.f("minLength", x.minLength, y.minLength);
            d.f("maxLength", x.maxLength, y.maxLength);
            d.f("stiffness", x.stiffness, y.stiffness);
            d.f("compliance", x.compliance, y.compliance);
            d.f("tearRatio", x.tearRatio, y.tearRatio);
            d.f("capsuleRadius", x.capsuleRadius, y.capsuleRadius);
            d.e("group", x.group, y.group);
            d.e("mask", x.mask, y.mask);
        }
    if (sizes("angles", a.angles.size(), b.angles.size()))
        for (std::size_t i = 0; i < a.angles.size(); ++i) {
            const AngleConstraint &x = a.angles[i], &y = b.angles[i];
            d.at("angles", i);
            d.s("name", x.name, y.name);
            d.e("id", x.id, y.id);
            d.e("center", x.center, y.center);
            d.e("a", x.a, y.a);
            d.e("b", x.b, y.b);
            d.f("minAngle", x.minAngle, y.minAngle);
            d.f("maxAngle", x.maxAngle, y.maxAngle);
            d.f("stiffness", x.stiffness, y.stiffness);
            d.e("form", x.form, y.form);
            d.f("damping", x.damping, y.damping);
        }
    if (sizes("triangles", a.triangles.size(), b.triangles.size()))
        for (std::size_t i = 0; i < a.triangles.size(); ++i) {
            d.at("triangles", i);
            d.s("name", a.triangles[i].name, b.triangles[i].name);
            d.e("id", a.triangles[i].id, b.triangles[i].id);
            d.e("p[0]", a.triangles[i].p[0], b.triangles[i].p[0]);
            d.e("p[1]", a.triangles[i].p[1], b.triangles[i].p[1]);
            d.e("p[2]", a.triangles[i].p[2], b.triangles[i].p[2]);
        }
    if (sizes("angular", a.angular.size(), b.angular.size()))
        for (std::size_t i = 0; i < a.angular.size(); ++i) {
            const AngularConstraint &x = a.angular[i], &y = b.angular[i];
            d.at("angular", i);
            d.s("name", x.name, y.name);
            d.e("id", x.id, y.id);
            d.e("triangleA", x.triangleA, y.triangleA);
            d.e("triangleB", x.triangleB, y.triangleB);
            d.e("limit", x.limit, y.limit);
            d.f("coneAngle", x.coneAngle, y.coneAngle);
            d.v("twistAxis", x.twistAxis, y.twistAxis);
            d.v("swingAxis1", x.swingAxis1, y.swingAxis1);
            d.f("twistMin", x.twistMin, y.twistMin);
            d.f("twistMax", x.twistMax, y.twistMax);
            d.f("swing1", x.swing1, y.swing1);
            d.f("swing2", x.swing2, y.swing2);
            d.f("stiffness", x.stiffness, y.stiffness);
            d.f("damping", x.damping, y.damping);
            d.f("staticFrictionSpeed", x.staticFrictionSpeed, y.staticFrictionSpeed);
            d.e("hasRestOrientation", x.hasRestOrientation, y.hasRestOrientation);
            d.q("restOrientation", x.restOrientation, y.restOrientation);
        }
    if (sizes("pins", a.pins.size(), b.pins.size()))
        for (std::size_t i = 0; i < a.pins.size(); ++i) {
            const Pin &x = a.pins[i], &y = b.pins[i];
            d.at("pins", i);
            d.s("name", x.name, y.name);
            d.e("id", x.id, y.id);
            d.e("particle", x.particle, y.particle);
            d.v("target", x.target, y.target);
            d.f("stiffness", x.stiffness, y.stiffness);
            d.e("kinematic", x.kinematic, y.kinematic);
        }
    if (sizes("shapes", a.shapes.size(), b.shapes.size()))
        for (std::size_t i = 0; i < a.shapes.size(); ++i) {
            const Shape &x = a.shapes[i], &y = b.shapes[i];
            d.at("shapes", i);
            d.s("name", x.name, y.name);
            d.e("id", x.id, y.id);
            d.e("kind", x.kind, y.kind);
            d.e("triangle", x.triangle, y.triangle);
            for (int k = 0; k < 4; ++k)
                d.e(("tetra[" + std::to_string(k) + "]").c_str(), x.tetra[k], y.tetra[k]);
            d.q("local.rotation", x.local.rotation, y.local.rotation);
            d.v("local.translation", x.local.translation, y.local.translation);
            d.v("halfExtents", x.halfExtents, y.halfExtents);
            d.e("group", x.group, y.group);
            d.e("mask", x.mask, y.mask);
        }
    if (sizes("bones", a.bones.size(), b.bones.size()))
        for (std::size_t i = 0; i < a.bones.size(); ++i) {
            const Bone &x = a.bones[i], &y = b.bones[i];
            d.at("bones", i);
            d.s("name", x.name, y.name);
            d.e("id", x.id, y.id);
            d.e("parent", x.parent, y.parent);
            d.m("bindLocal", x.bindLocal, y.bindLocal);
            d.m("bindWorld", x.bindWorld, y.bindWorld);
            d.m("inverseBind", x.inverseBind, y.inverseBind);
        }
    if (sizes("bindings", a.bindings.size(), b.bindings.size()))
        for (std::size_t i = 0; i < a.bindings.size(); ++i) {
            const BoneBinding &x = a.bindings[i], &y = b.bindings[i];
            d.at("bindings", i);
            d.s("name", x.name, y.name);
            d.e("id", x.id, y.id);
            d.e("bone", x.bone, y.bone);
            d.e("driver", x.driver, y.driver);
            d.e("index", x.index, y.index);
            d.e("hasOffset", x.hasOffset, y.hasOffset);
            d.q("offset.rotation", x.offset.rotation, y.offset.rotation);
            d.v("offset.translation", x.offset.translation, y.offset.translation);
        }
    const auto gains = [&](const std::string& where, const DriveGains& x, const DriveGains& y) {
        for (const DriveGainField& g : kDriveGainFields)
            d.f((where + g.name).c_str(), x.*g.member, y.*g.member);
        d.e((where + "kinematic").c_str(), x.kinematic, y.kinematic);
    };
    if (sizes("driveProfiles", a.driveProfiles.size(), b.driveProfiles.size()))
        for (std::size_t i = 0; i < a.driveProfiles.size(); ++i) {
            const DriveProfile &x = a.driveProfiles[i], &y = b.driveProfiles[i];
            d.at("driveProfiles", i);
            d.s("name", x.name, y.name);
            d.e("id", x.id, y.id);
            gains("defaults.", x.defaults, y.defaults);
            d.e("parts.size", x.parts.size(), y.parts.size());
            for (std::size_t k = 0; k < x.parts.size() && k < y.parts.size(); ++k) {
                const std::string part = "parts[" + std::to_string(k) + "].";
                d.e((part + "kind").c_str(), x.parts[k].kind, y.parts[k].kind);
                d.e((part + "index").c_str(), x.parts[k].index, y.parts[k].index);
                gains(part, x.parts[k].gains, y.parts[k].gains);
            }
        }
    const Settings &x = a.settings, &y = b.settings;
    d.at("settings");
    d.v("gravity", x.gravity, y.gravity);
    d.f("timeStep", x.timeStep, y.timeStep);
    d.e("maxSubsteps", x.maxSubsteps, y.maxSubsteps);
    d.e("substeps", x.substeps, y.substeps);
    d.e("iterations", x.iterations, y.iterations);
    d.f("damping", x.damping, y.damping);
    d.f("friction", x.friction, y.friction);
    d.f("staticFrictionSpeed", x.staticFrictionSpeed, y.staticFrictionSpeed);
    d.f("sleepVelocity", x.sleepVelocity, y.sleepVelocity);
    d.f("sleepTime", x.sleepTime, y.sleepTime);
    d.f("overRelaxation", x.overRelaxation, y.overRelaxation);
    d.e("sqrtApproximation", x.sqrtApproximation, y.sqrtApproximation);
    d.e("selfCollision", x.selfCollision, y.selfCollision);
    d.e("solver", x.solver, y.solver);
    return d.result();
}

} // namespace marionette::test
