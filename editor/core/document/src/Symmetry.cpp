#include "marionette/editor/document/Symmetry.h"

#include "marionette/editor/document/DriveProfiles.h"

#include "marionette/runtime/Rig.h"

#include <QStringList>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>

namespace marionette::editor {

// ---- the plane ------------------------------------------------------------------------------------------

namespace {

int axisIndex(project::MirrorAxis axis) { return axis == project::MirrorAxis::X ? 0 : axis == project::MirrorAxis::Y ? 1 : 2; }

float& component(Vec3& v, int i) { return i == 0 ? v.x : i == 1 ? v.y : v.z; }

} // namespace

float MirrorPlane::distance(Vec3 p) const { return component(p, axisIndex(axis)) - offset; } // p is a copy

Vec3 MirrorPlane::reflect(Vec3 point) const
{
    float& c = component(point, axisIndex(axis));
    c = 2.f * offset - c;
    return point;
}

Vec3 MirrorPlane::reflectDirection(Vec3 direction) const
{
    float& c = component(direction, axisIndex(axis));
    c = -c;
    return direction;
}

// ---- pairs ----------------------------------------------------------------------------------------------

std::int32_t MirrorMap::partner(ElementKind kind, std::int32_t index) const
{
    const std::vector<std::int32_t>* v = nullptr;
    switch (kind) {
    case ElementKind::Particle: v = &particles; break;
    case ElementKind::Stick: v = &sticks; break;
    case ElementKind::Angle: v = &angles; break;
    case ElementKind::Triangle: v = &triangles; break;
    case ElementKind::Angular: v = &angular; break;
    case ElementKind::Pin: v = &pins; break;
    default: return rig::kNone;
    }
    return index >= 0 && std::size_t(index) < v->size() ? (*v)[std::size_t(index)] : rig::kNone;
}

std::size_t MirrorMap::pairCount() const
{
    std::size_t n = 0;
    for (const std::vector<std::int32_t>* v : {&particles, &sticks, &angles, &triangles, &angular, &pins})
        for (std::size_t i = 0; i < v->size(); ++i)
            if ((*v)[i] != rig::kNone && std::size_t((*v)[i]) > i)
                ++n;
    return n;
}

namespace {

/// The other kinds' pairs from the particles' (map.particles filled in).
void pairThroughParticles(const rig::RigDescription& rig, MirrorMap& map)
{
    auto p = [&](std::int32_t i) { return i >= 0 && std::size_t(i) < map.particles.size() ? map.particles[std::size_t(i)] : rig::kNone; };
    std::map<std::pair<std::int32_t, std::int32_t>, std::int32_t> stickAt;
    for (std::size_t i = rig.sticks.size(); i-- > 0;)
        stickAt[std::minmax(rig.sticks[i].a, rig.sticks[i].b)] = std::int32_t(i);
    map.sticks.assign(rig.sticks.size(), rig::kNone);
    for (std::size_t i = 0; i < rig.sticks.size(); ++i) {
        const std::int32_t a = p(rig.sticks[i].a), b = p(rig.sticks[i].b);
        if (a == rig::kNone || b == rig::kNone)
            continue;
        if (auto it = stickAt.find(std::minmax(a, b)); it != stickAt.end())
            map.sticks[i] = it->second;
    }

    std::map<std::array<std::int32_t, 3>, std::int32_t> angleAt;
    for (std::size_t i = rig.angles.size(); i-- > 0;) {
        const auto [lo, hi] = std::minmax(rig.angles[i].a, rig.angles[i].b);
        angleAt[{rig.angles[i].center, lo, hi}] = std::int32_t(i);
    }
    map.angles.assign(rig.angles.size(), rig::kNone);
    for (std::size_t i = 0; i < rig.angles.size(); ++i) {
        const std::int32_t c = p(rig.angles[i].center), a = p(rig.angles[i].a), b = p(rig.angles[i].b);
        if (c == rig::kNone || a == rig::kNone || b == rig::kNone)
            continue;
        const auto [lo, hi] = std::minmax(a, b);
        if (auto it = angleAt.find({c, lo, hi}); it != angleAt.end())
            map.angles[i] = it->second;
    }

    auto corners = [](std::array<std::int32_t, 3> c) {
        std::sort(c.begin(), c.end());
        return c;
    };
    std::map<std::array<std::int32_t, 3>, std::int32_t> triangleAt;
    for (std::size_t i = rig.triangles.size(); i-- > 0;)
        triangleAt[corners({rig.triangles[i].p[0], rig.triangles[i].p[1], rig.triangles[i].p[2]})] = std::int32_t(i);
    map.triangles.assign(rig.triangles.size(), rig::kNone);
    for (std::size_t i = 0; i < rig.triangles.size(); ++i) {
        const std::array<std::int32_t, 3> m{p(rig.triangles[i].p[0]), p(rig.triangles[i].p[1]), p(rig.triangles[i].p[2])};
        if (std::find(m.begin(), m.end(), rig::kNone) != m.end())
            continue;
        if (auto it = triangleAt.find(corners(m)); it != triangleAt.end())
            map.triangles[i] = it->second;
    }

    auto t = [&](std::int32_t i) { return i >= 0 && std::size_t(i) < map.triangles.size() ? map.triangles[std::size_t(i)] : rig::kNone; };
    std::map<std::pair<std::int32_t, std::int32_t>, std::int32_t> angularAt;
    for (std::size_t i = rig.angular.size(); i-- > 0;)
        angularAt[{rig.angular[i].triangleA, rig.angular[i].triangleB}] = std::int32_t(i);
    map.angular.assign(rig.angular.size(), rig::kNone);
    for (std::size_t i = 0; i < rig.angular.size(); ++i) {
        const std::int32_t a = t(rig.angular[i].triangleA), b = t(rig.angular[i].triangleB);
        if (a == rig::kNone || b == rig::kNone)
            continue;
        if (auto it = angularAt.find({a, b}); it != angularAt.end())
            map.angular[i] = it->second;
    }

    std::map<std::int32_t, std::int32_t> pinAt;
    for (std::size_t i = rig.pins.size(); i-- > 0;)
        pinAt[rig.pins[i].particle] = std::int32_t(i);
    map.pins.assign(rig.pins.size(), rig::kNone);
    for (std::size_t i = 0; i < rig.pins.size(); ++i)
        if (const std::int32_t q = p(rig.pins[i].particle); q != rig::kNone)
            if (auto it = pinAt.find(q); it != pinAt.end())
                map.pins[i] = it->second;
}

} // namespace

MirrorMap findMirrorPairs(const rig::RigDescription& rig, const MirrorPlane& plane, float tolerance,
                          const std::vector<std::int32_t>& namePartners)
{
    MirrorMap map;
    const std::size_t n = rig.particles.size();
    map.particles.assign(n, rig::kNone);
    if (namePartners.size() == n)
        for (std::size_t i = 0; i < n; ++i) {
            const std::int32_t j = namePartners[i];
            if (j >= 0 && std::size_t(j) < n && std::size_t(j) != i && namePartners[std::size_t(j)] == std::int32_t(i))
                map.particles[i] = j;
        }
    // By position: nearest unpaired mirror image within the tolerance, closest pairs first.
    struct Candidate {
        float d;
        std::int32_t i, j;
    };
    std::vector<Candidate> candidates;
    for (std::size_t i = 0; i < n; ++i) {
        if (map.particles[i] != rig::kNone)
            continue;
        const Vec3 image = plane.reflect(rig.particles[i].position);
        for (std::size_t j = i + 1; j < n; ++j)
            if (map.particles[j] == rig::kNone)
                if (const float d = length(rig.particles[j].position - image); d <= tolerance)
                    candidates.push_back({d, std::int32_t(i), std::int32_t(j)});
    }
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) { return a.d < b.d; });
    for (const Candidate& c : candidates)
        if (map.particles[std::size_t(c.i)] == rig::kNone && map.particles[std::size_t(c.j)] == rig::kNone &&
            std::fabs(plane.distance(rig.particles[std::size_t(c.i)].position)) > tolerance) {
            map.particles[std::size_t(c.i)] = c.j;
            map.particles[std::size_t(c.j)] = c.i;
        }
    for (std::size_t i = 0; i < n; ++i)
        if (map.particles[i] == rig::kNone && std::fabs(plane.distance(rig.particles[i].position)) <= tolerance)
            map.particles[i] = std::int32_t(i);
    pairThroughParticles(rig, map);
    return map;
}

// ---- one element mirrored -------------------------------------------------------------------------------

namespace {

/// The reflection as a matrix (an improper orthogonal one).
Mat3 reflection(const MirrorPlane& plane)
{
    return Mat3::fromColumns(plane.reflectDirection({1, 0, 0}), plane.reflectDirection({0, 1, 0}), plane.reflectDirection({0, 0, 1}));
}

bool frameAt(const rig::RigDescription& rig, const rig::Triangle& t, Mat3& out)
{
    return runtime::Rig::triangleFrame(rig.particles[std::size_t(t.p[0])].position, rig.particles[std::size_t(t.p[1])].position,
                                       rig.particles[std::size_t(t.p[2])].position, out);
}

/// The frame of triangle `onto` in the mirror image of the source's configuration: each corner at the
/// reflection of the particle it is the partner of.
bool mirroredFrame(const rig::RigDescription& rig, const MirrorMap& map, const MirrorPlane& plane, const rig::Triangle& onto, Mat3& out)
{
    Vec3 x[3];
    for (int k = 0; k < 3; ++k) {
        const std::int32_t source = map.partner(ElementKind::Particle, onto.p[k]);
        if (source == rig::kNone)
            return false;
        x[k] = plane.reflect(rig.particles[std::size_t(source)].position);
    }
    return runtime::Rig::triangleFrame(x[0], x[1], x[2], out);
}

Quat canonical(Quat q) { return q.w < 0.f ? Quat{-q.x, -q.y, -q.z, -q.w} : q; }

rig::AngularConstraint mirroredAngular(const rig::RigDescription& rig, const MirrorMap& map, const MirrorPlane& plane,
                                       const rig::AngularConstraint& src, rig::AngularConstraint out)
{
    out.limit = src.limit;
    out.coneAngle = src.coneAngle;
    out.swing1 = src.swing1;
    out.swing2 = src.swing2;
    out.stiffness = src.stiffness;
    out.damping = src.damping;
    out.staticFrictionSpeed = src.staticFrictionSpeed;
    out.hasRestOrientation = src.hasRestOrientation;
    const auto inRange = [&](std::int32_t t) { return t >= 0 && std::size_t(t) < rig.triangles.size(); };
    Mat3 fa, fb, ma, mb;
    if (!inRange(src.triangleA) || !inRange(src.triangleB) || !inRange(out.triangleA) || !inRange(out.triangleB) ||
        !frameAt(rig, rig.triangles[std::size_t(src.triangleA)], fa) || !frameAt(rig, rig.triangles[std::size_t(src.triangleB)], fb) ||
        !mirroredFrame(rig, map, plane, rig.triangles[std::size_t(out.triangleA)], ma) ||
        !mirroredFrame(rig, map, plane, rig.triangles[std::size_t(out.triangleB)], mb)) {
        // No frames to carry the axes through: the values as they are, the twist turned round.
        out.twistAxis = src.twistAxis;
        out.swingAxis1 = src.swingAxis1;
        out.twistMin = -src.twistMax;
        out.twistMax = -src.twistMin;
        if (src.hasRestOrientation)
            out.restOrientation = src.restOrientation;
        return out;
    }
    // C = Fᵀ M F': a vector in the source frame to the same (reflected) vector in the partner's frame.
    const Mat3 m = reflection(plane);
    const Mat3 ca = fa.transposed() * m * ma, cb = fb.transposed() * m * mb;
    const Vec3 previousTwist = out.twistAxis, previousSwing = out.swingAxis1;
    out.twistAxis = normalizeOr(cb.transposed() * src.twistAxis, src.twistAxis);
    out.swingAxis1 = normalizeOr(cb.transposed() * src.swingAxis1, src.swingAxis1);
    // A reflection turns a rotation's sense round.
    out.twistMin = -src.twistMax;
    out.twistMax = -src.twistMin;
    // Keep the partner's sign convention: the opposite axis with the range turned round is the same limit.
    if (dot(out.twistAxis, previousTwist) < 0.f) {
        out.twistAxis = -out.twistAxis;
        std::swap(out.twistMin, out.twistMax);
        out.twistMin = -out.twistMin;
        out.twistMax = -out.twistMax;
    }
    if (dot(out.swingAxis1, previousSwing) < 0.f)
        out.swingAxis1 = -out.swingAxis1;
    // Rest: R' = C_Aᵀ R C_B (both C improper, the product a rotation). Without one, the bind pose gives it.
    if (src.hasRestOrientation)
        out.restOrientation = canonical(toQuat(ca.transposed() * toMat3(src.restOrientation) * cb));
    return out;
}

} // namespace

AnyElement mirroredOnto(const rig::RigDescription& rig, const MirrorMap& map, const MirrorPlane& plane, ElementKind kind,
                        std::int32_t index, const AnyElement& onto)
{
    if (index < 0 || std::size_t(index) >= countOf(rig, kind) || kindOf(onto) != kind)
        return onto;
    const AnyElement source = elementAt(rig, kind, std::size_t(index));
    return std::visit(
        [&](auto out) -> AnyElement {
            using T = std::decay_t<decltype(out)>;
            const T& s = std::get<T>(source);
            if constexpr (std::is_same_v<T, rig::Particle>) {
                out.position = plane.reflect(s.position);
                out.mass = s.mass;
                out.radius = s.radius;
            } else if constexpr (std::is_same_v<T, rig::Stick>) {
                out.kind = s.kind;
                out.restLength = s.restLength;
                out.minLength = s.minLength;
                out.maxLength = s.maxLength;
                out.stiffness = s.stiffness;
                out.compliance = s.compliance;
                out.tearRatio = s.tearRatio;
                out.capsuleRadius = s.capsuleRadius;
            } else if constexpr (std::is_same_v<T, rig::AngleConstraint>) {
                out.minAngle = s.minAngle;
                out.maxAngle = s.maxAngle;
                out.stiffness = s.stiffness;
                out.form = s.form;
                out.damping = s.damping;
            } else if constexpr (std::is_same_v<T, rig::AngularConstraint>) {
                out = mirroredAngular(rig, map, plane, s, out);
            } else if constexpr (std::is_same_v<T, rig::Pin>) {
                out.target = plane.reflect(s.target);
                out.stiffness = s.stiffness;
                out.kinematic = s.kinematic;
            }
            return out;
        },
        onto);
}

// ---- a side, or an edit, mirrored -----------------------------------------------------------------------

namespace {

constexpr ElementKind kMirroredKinds[] = {ElementKind::Particle, ElementKind::Stick, ElementKind::Angle,
                                          ElementKind::Triangle, ElementKind::Angular, ElementKind::Pin};

std::vector<std::int32_t>& partnersOf(MirrorMap& map, ElementKind kind)
{
    switch (kind) {
    case ElementKind::Particle: return map.particles;
    case ElementKind::Stick: return map.sticks;
    case ElementKind::Angle: return map.angles;
    case ElementKind::Triangle: return map.triangles;
    case ElementKind::Angular: return map.angular;
    default: return map.pins;
    }
}

void setElement(rig::RigDescription& rig, ElementKind kind, std::size_t index, const AnyElement& e)
{
    std::visit(
        [&](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, rig::Particle>) rig.particles[index] = v;
            else if constexpr (std::is_same_v<T, rig::Stick>) rig.sticks[index] = v;
            else if constexpr (std::is_same_v<T, rig::AngleConstraint>) rig.angles[index] = v;
            else if constexpr (std::is_same_v<T, rig::Triangle>) rig.triangles[index] = v;
            else if constexpr (std::is_same_v<T, rig::AngularConstraint>) rig.angular[index] = v;
            else if constexpr (std::is_same_v<T, rig::Pin>) rig.pins[index] = v;
        },
        e);
    (void)kind;
}

/// Element `index` of `kind` with its references mapped to their partners; false when one has none.
bool mappedCopy(const rig::RigDescription& rig, const MirrorMap& map, ElementKind kind, std::int32_t index, AnyElement& e)
{
    e = elementAt(rig, kind, std::size_t(index));
    auto p = [&](std::int32_t& i) { return (i = map.partner(ElementKind::Particle, i)) != rig::kNone; };
    auto t = [&](std::int32_t& i) { return (i = map.partner(ElementKind::Triangle, i)) != rig::kNone; };
    return std::visit(
        [&](auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, rig::Particle>) {
                v.bone = rig::kNone; // the bone it was made from is the other side's
                return true;
            } else if constexpr (std::is_same_v<T, rig::Stick>) return p(v.a) && p(v.b);
            else if constexpr (std::is_same_v<T, rig::AngleConstraint>) return p(v.center) && p(v.a) && p(v.b);
            else if constexpr (std::is_same_v<T, rig::Triangle>) return p(v.p[0]) && p(v.p[1]) && p(v.p[2]);
            else if constexpr (std::is_same_v<T, rig::AngularConstraint>) return t(v.triangleA) && t(v.triangleB);
            else if constexpr (std::is_same_v<T, rig::Pin>) return p(v.particle);
            else return false;
        },
        e);
}

/// Whether a mapped copy refers to what the original refers to: the element is its own mirror (a stick
/// between two partners, a triangle across the plane).
bool sameReferences(const rig::RigDescription& rig, ElementKind kind, std::int32_t index, const AnyElement& copy)
{
    if (kind == ElementKind::Particle)
        return false;
    if (kind == ElementKind::Angular) {
        const rig::AngularConstraint& a = rig.angular[std::size_t(index)];
        const rig::AngularConstraint& b = std::get<rig::AngularConstraint>(copy);
        return a.triangleA == b.triangleA && a.triangleB == b.triangleB;
    }
    rig::RigDescription probe; // particlesOf() of the copy, without appending it to the rig
    probe.particles = rig.particles;
    probe.triangles = rig.triangles;
    appendElement(probe, copy);
    const std::vector<std::int32_t> mine = particlesOf(rig, kind, std::size_t(index));
    const std::vector<std::int32_t> theirs = particlesOf(probe, kind, countOf(probe, kind) - 1);
    return std::set<std::int32_t>(mine.begin(), mine.end()) == std::set<std::int32_t>(theirs.begin(), theirs.end());
}

/// Appends `copy` (a mapped copy of element `index`) with a mirrored name and a fresh id, pairs the two and
/// mirrors the values onto it.
void appendMirrored(rig::RigDescription& rig, MirrorMap& map, const MirrorPlane& plane, ElementKind kind, std::int32_t index,
                    AnyElement copy, const MirrorNamer& namer)
{
    const std::string& name = nameOf(copy);
    std::string mirrored = namer ? namer(name) : name;
    bool used = false;
    for (std::size_t i = 0; i < countOf(rig, kind) && !used; ++i)
        used = nameAt(rig, kind, i) == mirrored;
    if (used)
        mirrored = uniqueName(rig, kind, mirrored == name ? name + "_mirror" : mirrored);
    std::visit(
        [&](auto& v) {
            v.name = mirrored;
            v.id = nextId(rig, kind);
        },
        copy);
    const std::int32_t at = std::int32_t(countOf(rig, kind));
    appendElement(rig, copy);
    std::vector<std::int32_t>& partners = partnersOf(map, kind);
    partners.resize(std::size_t(at) + 1, rig::kNone);
    partners[std::size_t(at)] = index;
    partners[std::size_t(index)] = at;
    setElement(rig, kind, std::size_t(at), mirroredOnto(rig, map, plane, kind, index, elementAt(rig, kind, std::size_t(at))));
}

/// Particles of an element, and on which side of the plane they lie: -1 all on the negative side or the
/// plane, +1 all on the positive side or the plane, 0 on both sides (or all on the plane).
int sideOf(const rig::RigDescription& rig, const MirrorPlane& plane, float tolerance, ElementKind kind, std::size_t index)
{
    std::vector<std::int32_t> particles = particlesOf(rig, kind, index);
    if (kind == ElementKind::Angular) {
        const rig::AngularConstraint& a = rig.angular[index];
        for (std::int32_t t : {a.triangleA, a.triangleB})
            if (t >= 0 && std::size_t(t) < rig.triangles.size())
                for (std::int32_t q : rig.triangles[std::size_t(t)].p)
                    particles.push_back(q);
    }
    bool positive = false, negative = false;
    for (std::int32_t q : particles) {
        if (q < 0 || std::size_t(q) >= rig.particles.size())
            continue;
        const float d = plane.distance(rig.particles[std::size_t(q)].position);
        positive = positive || d > tolerance;
        negative = negative || d < -tolerance;
    }
    return positive == negative ? 0 : positive ? 1 : -1;
}

/// The profile of `in` that is `profile` (by id; by name for profiles without one), or null.
const rig::DriveProfile* sameProfile(const rig::RigDescription& in, const rig::DriveProfile& profile)
{
    for (const rig::DriveProfile& p : in.driveProfiles)
        if (profile.id != 0 ? p.id == profile.id : p.name == profile.name)
            return &p;
    return nullptr;
}

/// Every profile's entries mirrored from the `from` side's triangles and sticks onto their partners.
void mirrorDrivePartsOfSide(rig::RigDescription& rig, const MirrorMap& map, const MirrorPlane& plane, float tolerance, int wanted)
{
    for (rig::DriveProfile& profile : rig.driveProfiles)
        for (ElementKind kind : {ElementKind::Triangle, ElementKind::Stick})
            for (std::size_t i = 0; i < countOf(rig, kind); ++i) {
                const std::int32_t j = map.partner(kind, std::int32_t(i));
                if (j == rig::kNone || j == std::int32_t(i) || sideOf(rig, plane, tolerance, kind, i) != wanted)
                    continue;
                const std::optional<rig::DriveGains> mine = driveEntry(rig, profile, {kind, idAt(rig, kind, i)});
                setDriveEntry(rig, profile, {kind, idAt(rig, kind, std::size_t(j))}, mine);
            }
}

} // namespace

rig::RigDescription mirrorSide(const rig::RigDescription& rig, const MirrorMap& pairs, const MirrorPlane& plane,
                               float tolerance, MirrorSource from, const MirrorNamer& namer)
{
    rig::RigDescription out = rig;
    MirrorMap map = pairs;
    const int wanted = from == MirrorSource::PositiveSide ? 1 : -1;
    for (ElementKind kind : kMirroredKinds) {
        const std::size_t count = countOf(out, kind); // elements appended below are mirrors: not sources
        for (std::size_t i = 0; i < count; ++i) {
            if (sideOf(out, plane, tolerance, kind, i) != wanted)
                continue;
            const std::int32_t partner = map.partner(kind, std::int32_t(i));
            if (AnyElement copy; partner == rig::kNone && mappedCopy(out, map, kind, std::int32_t(i), copy)) {
                if (sameReferences(out, kind, std::int32_t(i), copy))
                    partnersOf(map, kind)[i] = std::int32_t(i);
                else
                    appendMirrored(out, map, plane, kind, std::int32_t(i), std::move(copy), namer);
            } else if (partner != rig::kNone && partner != std::int32_t(i))
                setElement(out, kind, std::size_t(partner),
                           mirroredOnto(out, map, plane, kind, std::int32_t(i), elementAt(out, kind, std::size_t(partner))));
        }
    }
    mirrorDrivePartsOfSide(out, map, plane, tolerance, wanted);
    return out;
}

rig::RigDescription withMirroredEdit(const rig::RigDescription& before, const rig::RigDescription& after,
                                     const MirrorMap& pairs, const MirrorPlane& plane, float tolerance,
                                     const MirrorNamer& namer)
{
    // The pairs by id, from `before`.
    std::map<ElementRef, rig::ElementId> partnerId;
    for (ElementKind kind : kMirroredKinds)
        for (std::size_t i = 0; i < countOf(before, kind); ++i)
            if (const std::int32_t j = pairs.partner(kind, std::int32_t(i)); j != rig::kNone)
                partnerId[{kind, idAt(before, kind, i)}] = idAt(before, kind, std::size_t(j));
    auto partnerRef = [&](ElementRef r) -> std::optional<ElementRef> {
        auto it = partnerId.find(r);
        if (it == partnerId.end())
            return std::nullopt;
        return ElementRef{r.kind, it->second};
    };

    rig::RigDescription out = after;
    // Removed: their partners go too (with whatever depends on them).
    std::vector<ElementRef> removeAlso;
    for (ElementKind kind : kMirroredKinds)
        for (std::size_t i = 0; i < countOf(before, kind); ++i) {
            const ElementRef r{kind, idAt(before, kind, i)};
            if (indexOf(after, r) != rig::kNone)
                continue;
            if (const auto p = partnerRef(r); p && p->id != r.id && indexOf(out, *p) != rig::kNone)
                removeAlso.push_back(*p);
        }
    if (!removeAlso.empty())
        removeElements(out, withDependents(out, removeAlso));

    // The pairs on `out`: the surviving ones, by id.
    MirrorMap map;
    for (ElementKind kind : kMirroredKinds) {
        std::vector<std::int32_t>& v = partnersOf(map, kind);
        v.assign(countOf(out, kind), rig::kNone);
        for (std::size_t i = 0; i < v.size(); ++i)
            if (const auto p = partnerRef({kind, idAt(out, kind, i)}))
                v[i] = indexOf(out, *p);
    }

    // Changed: the partner follows, unless the edit changed it too.
    auto changed = [&](ElementRef r) {
        const std::int32_t b = indexOf(before, r), a = indexOf(after, r);
        return b != rig::kNone && a != rig::kNone &&
               !sameValues(elementAt(before, r.kind, std::size_t(b)), elementAt(after, r.kind, std::size_t(a)));
    };
    for (ElementKind kind : kMirroredKinds)
        for (std::size_t i = 0; i < countOf(out, kind); ++i) {
            const ElementRef r{kind, idAt(out, kind, i)};
            const std::int32_t j = map.partner(kind, std::int32_t(i));
            if (j == rig::kNone || j == std::int32_t(i) || !changed(r) || changed({kind, idAt(out, kind, std::size_t(j))}))
                continue;
            setElement(out, kind, std::size_t(j), mirroredOnto(out, map, plane, kind, std::int32_t(i), elementAt(out, kind, std::size_t(j))));
        }

    // Added: mirrored, particles first so the rest find their partners. A new particle on the plane is its own.
    for (ElementKind kind : kMirroredKinds) {
        const std::size_t count = countOf(out, kind);
        for (std::size_t i = 0; i < count; ++i) {
            const ElementRef r{kind, idAt(out, kind, i)};
            if (indexOf(before, r) != rig::kNone || map.partner(kind, std::int32_t(i)) != rig::kNone)
                continue;
            if (kind == ElementKind::Particle && std::fabs(plane.distance(out.particles[i].position)) <= tolerance) {
                map.particles[i] = std::int32_t(i);
                continue;
            }
            AnyElement copy;
            if (!mappedCopy(out, map, kind, std::int32_t(i), copy))
                continue;
            if (sameReferences(out, kind, std::int32_t(i), copy))
                partnersOf(map, kind)[i] = std::int32_t(i); // a stick between partners: its own mirror
            else
                appendMirrored(out, map, plane, kind, std::int32_t(i), std::move(copy), namer);
        }
    }

    // Drive profiles: a part whose entry the edit changed (gains set, entry added or cleared) takes its
    // partner along, unless the edit changed the partner's too. Profiles are matched by id.
    auto entryChanged = [&](const rig::DriveProfile* b, const rig::DriveProfile& a, ElementRef r) {
        const std::optional<rig::DriveGains> was = b && indexOf(before, r) != rig::kNone ? driveEntry(before, *b, r) : std::nullopt;
        return was != driveEntry(after, a, r);
    };
    for (rig::DriveProfile& profile : out.driveProfiles) {
        const rig::DriveProfile* a = sameProfile(after, profile);
        if (!a)
            continue;
        const rig::DriveProfile* b = sameProfile(before, profile);
        std::vector<ElementRef> parts = listedDriveParts(after, *a);
        if (b)
            for (const ElementRef& r : listedDriveParts(before, *b))
                if (indexOf(after, r) != rig::kNone && std::find(parts.begin(), parts.end(), r) == parts.end())
                    parts.push_back(r);
        for (const ElementRef& r : parts) {
            const auto p = partnerRef(r);
            if (!p || p->id == r.id || indexOf(out, *p) == rig::kNone || !entryChanged(b, *a, r) ||
                (indexOf(after, *p) != rig::kNone && entryChanged(b, *a, *p)))
                continue;
            setDriveEntry(out, profile, *p, driveEntry(after, *a, r));
        }
    }
    return out;
}

namespace {

template <class T>
bool sameAs(const T& a, const T& b);

template <>
bool sameAs(const rig::Particle& a, const rig::Particle& b)
{
    return a.name == b.name && a.position == b.position && a.mass == b.mass && a.radius == b.radius && a.group == b.group &&
           a.mask == b.mask && a.bone == b.bone;
}
template <>
bool sameAs(const rig::Stick& a, const rig::Stick& b)
{
    return a.name == b.name && a.a == b.a && a.b == b.b && a.kind == b.kind && a.restLength == b.restLength &&
           a.minLength == b.minLength && a.maxLength == b.maxLength && a.stiffness == b.stiffness && a.compliance == b.compliance &&
           a.tearRatio == b.tearRatio && a.capsuleRadius == b.capsuleRadius && a.group == b.group && a.mask == b.mask;
}
template <>
bool sameAs(const rig::AngleConstraint& a, const rig::AngleConstraint& b)
{
    return a.name == b.name && a.center == b.center && a.a == b.a && a.b == b.b && a.minAngle == b.minAngle &&
           a.maxAngle == b.maxAngle && a.stiffness == b.stiffness && a.form == b.form && a.damping == b.damping;
}
template <>
bool sameAs(const rig::Triangle& a, const rig::Triangle& b)
{
    return a.name == b.name && a.p[0] == b.p[0] && a.p[1] == b.p[1] && a.p[2] == b.p[2];
}
template <>
bool sameAs(const rig::AngularConstraint& a, const rig::AngularConstraint& b)
{
    return a.name == b.name && a.triangleA == b.triangleA && a.triangleB == b.triangleB && a.limit == b.limit &&
           a.coneAngle == b.coneAngle && a.twistAxis == b.twistAxis && a.swingAxis1 == b.swingAxis1 && a.twistMin == b.twistMin &&
           a.twistMax == b.twistMax && a.swing1 == b.swing1 && a.swing2 == b.swing2 && a.stiffness == b.stiffness &&
           a.damping == b.damping && a.staticFrictionSpeed == b.staticFrictionSpeed &&
           a.hasRestOrientation == b.hasRestOrientation && a.restOrientation == b.restOrientation;
}
template <>
bool sameAs(const rig::Pin& a, const rig::Pin& b)
{
    return a.name == b.name && a.particle == b.particle && a.target == b.target && a.stiffness == b.stiffness && a.kinematic == b.kinematic;
}

} // namespace

bool sameValues(const AnyElement& a, const AnyElement& b)
{
    if (a.index() != b.index())
        return false;
    return std::visit(
        [&](const auto& x) {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, rig::Particle> || std::is_same_v<T, rig::Stick> || std::is_same_v<T, rig::AngleConstraint> ||
                          std::is_same_v<T, rig::Triangle> || std::is_same_v<T, rig::AngularConstraint> || std::is_same_v<T, rig::Pin>)
                return sameAs(x, std::get<T>(b));
            else
                return true; // kinds that are not mirrored
        },
        a);
}

// ---- asymmetries ----------------------------------------------------------------------------------------

std::vector<ValidationIssue> symmetryIssues(const rig::RigDescription& rig, const MirrorMap& map, const MirrorPlane& plane,
                                            float tolerance)
{
    std::vector<ValidationIssue> issues;
    const float angle = radians(kAsymmetryDegrees);
    auto describePair = [&](ElementKind kind, std::size_t i, std::size_t j) {
        return QStringLiteral("%1s '%2' and '%3'")
            .arg(QString::fromLatin1(project::describe(kind)), QString::fromStdString(nameAt(rig, kind, i)),
                 QString::fromStdString(nameAt(rig, kind, j)));
    };
    auto number = [](float v) { return QString::number(double(v), 'g', 3); };
    for (ElementKind kind : kMirroredKinds) {
        if (kind == ElementKind::Triangle)
            continue;
        for (std::size_t i = 0; i < countOf(rig, kind); ++i) {
            const std::int32_t j = map.partner(kind, std::int32_t(i));
            if (j == rig::kNone || std::size_t(j) <= i)
                continue;
            const AnyElement mine = elementAt(rig, kind, std::size_t(j));
            const AnyElement ideal = mirroredOnto(rig, map, plane, kind, std::int32_t(i), mine);
            QStringList what;
            std::visit(
                [&](const auto& m) {
                    using T = std::decay_t<decltype(m)>;
                    const T& e = std::get<T>(ideal);
                    if constexpr (std::is_same_v<T, rig::Particle>) {
                        if (const float d = length(m.position - e.position); d > tolerance)
                            what << QStringLiteral("positions %1 m from mirror images").arg(number(d));
                        if (std::fabs(m.mass - e.mass) > 0.01f * std::max(m.mass, e.mass))
                            what << QStringLiteral("masses %1 and %2 kg").arg(number(e.mass), number(m.mass));
                        if (std::fabs(m.radius - e.radius) > tolerance)
                            what << QStringLiteral("radii %1 and %2 m").arg(number(e.radius), number(m.radius));
                    } else if constexpr (std::is_same_v<T, rig::Stick>) {
                        const float d = std::max({std::fabs(m.restLength - e.restLength), std::fabs(m.minLength - e.minLength),
                                                  std::fabs(m.maxLength - e.maxLength), std::fabs(m.capsuleRadius - e.capsuleRadius)});
                        if (m.kind != e.kind || d > tolerance)
                            what << QStringLiteral("lengths or capsules %1 m apart").arg(number(d));
                    } else if constexpr (std::is_same_v<T, rig::AngleConstraint>) {
                        const float d = std::max(std::fabs(m.minAngle - e.minAngle), std::fabs(m.maxAngle - e.maxAngle));
                        if (d > angle)
                            what << QStringLiteral("ranges %1° apart").arg(number(degrees(d)));
                    } else if constexpr (std::is_same_v<T, rig::AngularConstraint>) {
                        float d = std::fabs(m.coneAngle - e.coneAngle);
                        if (m.limit == rig::AngularLimit::SwingTwist)
                            d = std::max({std::fabs(m.twistMin - e.twistMin), std::fabs(m.twistMax - e.twistMax),
                                          std::fabs(m.swing1 - e.swing1), std::fabs(m.swing2 - e.swing2),
                                          std::acos(std::clamp(dot(m.twistAxis, e.twistAxis), -1.f, 1.f)),
                                          std::acos(std::clamp(dot(m.swingAxis1, e.swingAxis1), -1.f, 1.f))});
                        if (m.limit != e.limit || d > angle)
                            what << QStringLiteral("limits %1° apart").arg(number(degrees(d)));
                    } else if constexpr (std::is_same_v<T, rig::Pin>) {
                        if (const float d = length(m.target - e.target); d > tolerance)
                            what << QStringLiteral("targets %1 m from mirror images").arg(number(d));
                    }
                },
                mine);
            if (what.isEmpty())
                continue;
            ValidationIssue issue;
            issue.severity = Severity::Warning;
            issue.message = describePair(kind, i, std::size_t(j)) + QStringLiteral(": not symmetric (") + what.join(QStringLiteral(", ")) +
                            QStringLiteral(")");
            issue.elements = {{kind, idAt(rig, kind, i)}, {kind, idAt(rig, kind, std::size_t(j))}};
            issues.push_back(std::move(issue));
        }
    }
    // Drive profiles: a pair of parts whose entries differ (gains, or one listed and not the other).
    for (const rig::DriveProfile& profile : rig.driveProfiles)
        for (ElementKind kind : {ElementKind::Triangle, ElementKind::Stick})
            for (std::size_t i = 0; i < countOf(rig, kind); ++i) {
                const std::int32_t j = map.partner(kind, std::int32_t(i));
                if (j == rig::kNone || std::size_t(j) <= i)
                    continue;
                const ElementRef a{kind, idAt(rig, kind, i)}, b{kind, idAt(rig, kind, std::size_t(j))};
                if (driveEntry(rig, profile, a) == driveEntry(rig, profile, b))
                    continue;
                issues.push_back({Severity::Warning,
                                  QStringLiteral("drive profile '%1': %2: not symmetric (drive gains differ)")
                                      .arg(QString::fromStdString(profile.name), describePair(kind, i, std::size_t(j))),
                                  {a, b}});
            }
    return issues;
}

} // namespace marionette::editor
