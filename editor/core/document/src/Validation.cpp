#include "marionette/editor/document/Validation.h"

#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

namespace marionette::editor {

namespace {

QString label(const rig::RigDescription& rig, ElementKind kind, std::size_t index)
{
    const std::string& name = nameAt(rig, kind, index);
    const QString what = QString::fromUtf8(project::describe(kind));
    return name.empty() ? QStringLiteral("%1 #%2").arg(what).arg(index)
                        : QStringLiteral("%1 '%2'").arg(what, QString::fromStdString(name));
}

ElementRef refAt(const rig::RigDescription& rig, ElementKind kind, std::size_t index)
{
    return {kind, idAt(rig, kind, index)};
}

/// The editor's kind for a kind of rig element; none for the settings, the rig as a whole and drive profiles.
std::optional<ElementKind> editorKind(rig::ElementKind kind)
{
    switch (kind) {
    case rig::ElementKind::Particle: return ElementKind::Particle;
    case rig::ElementKind::Stick: return ElementKind::Stick;
    case rig::ElementKind::Angle: return ElementKind::Angle;
    case rig::ElementKind::Triangle: return ElementKind::Triangle;
    case rig::ElementKind::Angular: return ElementKind::Angular;
    case rig::ElementKind::Pin: return ElementKind::Pin;
    case rig::ElementKind::Shape: return ElementKind::Shape;
    case rig::ElementKind::Bone: return ElementKind::Bone;
    case rig::ElementKind::Binding: return ElementKind::Binding;
    case rig::ElementKind::Settings:
    case rig::ElementKind::Rig:
    case rig::ElementKind::DriveProfile: return std::nullopt; // the Drive panel shows its own findings
    }
    return std::nullopt;
}

/// The element a finding of rig validation names, by its id (none for the settings or the whole rig).
std::vector<ElementRef> culpritOf(const rig::RigDescription& rig, const rig::Finding& finding)
{
    const std::optional<ElementKind> kind = editorKind(finding.kind);
    if (!kind || finding.index < 0 || std::size_t(finding.index) >= countOf(rig, *kind))
        return {};
    return {refAt(rig, *kind, std::size_t(finding.index))};
}

float bindDistance(const rig::RigDescription& rig, std::int32_t a, std::int32_t b)
{
    return length(rig.particles[std::size_t(a)].position - rig.particles[std::size_t(b)].position);
}

QString metres(float v) { return QString::number(double(v), 'g', 3) + QStringLiteral(" m"); }

/// Outside these a rig's total mass (kg) or its largest extent at bind (m) is most likely a unit mistake.
constexpr float kLightestRig = 0.1f, kHeaviestRig = 2000.f, kSmallestRig = 0.02f, kLargestRig = 30.f;
QString degrees(float radiansValue) { return QString::number(double(radiansValue) * 180.0 / kPi, 'f', 1) + QStringLiteral("°"); }

void checkLinks(const rig::RigDescription& rig, std::vector<ValidationIssue>& out)
{
    std::set<std::tuple<std::int32_t, std::int32_t, int>> seen;
    for (std::size_t i = 0; i < rig.sticks.size(); ++i) {
        const rig::Stick& s = rig.sticks[i];
        const float d = bindDistance(rig, s.a, s.b);
        const ElementRef ref = refAt(rig, ElementKind::Stick, i);
        if (d < 1e-5f)
            out.push_back({Severity::Error, label(rig, ElementKind::Stick, i) + QStringLiteral(": its particles coincide at bind (zero length)"), {ref}});
        const auto key = std::make_tuple(std::min(s.a, s.b), std::max(s.a, s.b), int(s.kind));
        if (!seen.insert(key).second)
            out.push_back({Severity::Warning, label(rig, ElementKind::Stick, i) + QStringLiteral(": duplicates another link of the same kind between the same particles"), {ref}});
        const float tolerance = 1e-4f + 1e-3f * d;
        const bool tooShort = (s.kind == rig::StickKind::Range || s.kind == rig::StickKind::MinOnly) && d < s.minLength - tolerance;
        const bool tooLong = (s.kind == rig::StickKind::Range || s.kind == rig::StickKind::MaxOnly) && d > s.maxLength + tolerance;
        // (A range whose max is below its min is a validation error, reported before these checks run.)
        if (tooShort || tooLong)
            out.push_back({Severity::Warning, label(rig, ElementKind::Stick, i) + QStringLiteral(": the bind distance %1 is %2 the limit %3: the rig jumps on its first step").arg(metres(d), tooShort ? QStringLiteral("below") : QStringLiteral("above"), metres(tooShort ? s.minLength : s.maxLength)), {ref}});
    }
    for (std::size_t i = 0; i < rig.angles.size(); ++i) {
        const rig::AngleConstraint& c = rig.angles[i];
        const Vec3 p = rig.particles[std::size_t(c.center)].position;
        const Vec3 u = rig.particles[std::size_t(c.a)].position - p, v = rig.particles[std::size_t(c.b)].position - p;
        const float lu = length(u), lv = length(v);
        if (lu < 1e-6f || lv < 1e-6f)
            continue;
        const float angle = std::acos(std::clamp(dot(u, v) / (lu * lv), -1.f, 1.f));
        if (angle < c.minAngle - 1e-3f || angle > c.maxAngle + 1e-3f)
            out.push_back({Severity::Warning, label(rig, ElementKind::Angle, i) + QStringLiteral(": the bind angle %1 is outside [%2, %3]: the rig jumps on its first step").arg(degrees(angle), degrees(c.minAngle), degrees(c.maxAngle)), {refAt(rig, ElementKind::Angle, i)}});
    }
}

/// Particles nothing holds to the rig (isolated), and, when `dangling`, particles held by a single stick and
/// nothing else (no second stick, triangle, angle or pin), which swing freely about the stick's other end.
/// Indices are checked: an invalid rig gets the isolated ones too.
void checkParticles(const rig::RigDescription& rig, bool dangling, std::vector<ValidationIssue>& out)
{
    std::vector<int> sticks(rig.particles.size()), other(rig.particles.size());
    auto count = [](std::vector<int>& in, std::int32_t p) {
        if (p >= 0 && std::size_t(p) < in.size())
            ++in[std::size_t(p)];
    };
    for (const auto& s : rig.sticks) { count(sticks, s.a); count(sticks, s.b); }
    for (const auto& c : rig.angles) { count(other, c.center); count(other, c.a); count(other, c.b); }
    for (const auto& t : rig.triangles) for (auto p : t.p) count(other, p);
    for (const auto& p : rig.pins) count(other, p.particle);
    if (rig.particles.size() < 2)
        return;
    for (std::size_t i = 0; i < rig.particles.size(); ++i) {
        if (other[i] > 0 || sticks[i] > 1)
            continue;
        if (sticks[i] == 0)
            out.push_back({Severity::Warning, label(rig, ElementKind::Particle, i) + QStringLiteral(": isolated (no stick, triangle or pin holds it to the rig)"), {refAt(rig, ElementKind::Particle, i)}});
        else if (dangling)
            out.push_back({Severity::Warning, label(rig, ElementKind::Particle, i) + QStringLiteral(": hangs off a single stick with no angle or triangle, so it swings freely about the other end"), {refAt(rig, ElementKind::Particle, i)}});
    }
}

/// Masses more than kMassRatio apart across a joint (the two arms of a bend, the two bodies of an angular
/// constraint): the light side is thrown around by the heavy one and jitters, the instability every ragdoll
/// tool warns about. A total mass or a size no character has is most likely a unit mistake.
constexpr float kMassRatio = 10.f;
void checkMasses(const rig::RigDescription& rig, std::vector<ValidationIssue>& out)
{
    auto kg = [](float m) { return QString::number(double(m), 'g', 3) + QStringLiteral(" kg"); };
    auto ratioIssue = [&](ElementKind kind, std::size_t index, float a, float b, const QString& what) {
        const float lo = std::min(a, b), hi = std::max(a, b);
        if (lo > 0.f && hi > kMassRatio * lo)
            out.push_back({Severity::Warning, label(rig, kind, index) + QStringLiteral(": %1 weigh %2 and %3 (%4×): keep masses across a joint within 10× or the light side jitters").arg(what, kg(lo), kg(hi)).arg(double(hi / lo), 0, 'f', 0), {refAt(rig, kind, index)}});
    };
    auto mass = [&](std::int32_t p) { return rig.particles[std::size_t(p)].mass; };
    for (std::size_t i = 0; i < rig.angles.size(); ++i)
        ratioIssue(ElementKind::Angle, i, mass(rig.angles[i].a), mass(rig.angles[i].b), QStringLiteral("its two arms' ends"));
    for (std::size_t i = 0; i < rig.angular.size(); ++i) {
        auto body = [&](std::int32_t t) {
            float m = 0.f;
            for (std::int32_t p : rig.triangles[std::size_t(t)].p)
                m += mass(p);
            return m;
        };
        ratioIssue(ElementKind::Angular, i, body(rig.angular[i].triangleA), body(rig.angular[i].triangleB), QStringLiteral("its two triangles"));
    }
    float total = 0.f;
    Vec3 lo{1e30f, 1e30f, 1e30f}, hi{-1e30f, -1e30f, -1e30f};
    for (const rig::Particle& p : rig.particles) {
        total += p.mass;
        lo = Vec3{std::min(lo.x, p.position.x), std::min(lo.y, p.position.y), std::min(lo.z, p.position.z)};
        hi = Vec3{std::max(hi.x, p.position.x), std::max(hi.y, p.position.y), std::max(hi.z, p.position.z)};
    }
    if (rig.particles.size() >= 2 && (total < kLightestRig || total > kHeaviestRig))
        out.push_back({Severity::Warning, QStringLiteral("the rig weighs %1 in all, outside %2 to %3: check the masses' unit").arg(kg(total), kg(kLightestRig), kg(kHeaviestRig)), {}});
    const Vec3 size = hi - lo;
    const float largest = std::max({size.x, size.y, size.z});
    if (rig.particles.size() >= 2 && (largest > kLargestRig || largest < kSmallestRig))
        out.push_back({Severity::Warning, QStringLiteral("the rig spans %1 at its largest, outside %2 to %3: check the mesh's scale (File ▸ Import Mesh proposes one)").arg(metres(largest), metres(kSmallestRig), metres(kLargestRig)), {}});
}

// (Degenerate triangles and twist limits with max below min are validation errors: rig::isDegenerateTriangle
// and the findings, reported before these checks run.)
/// Whether a chain of rigid sticks leads from a particle of triangle `a` to one of triangle `b` through
/// particles of no other triangle (a spine of plain segments between a pelvis frame and a chest frame: the
/// joint is spread along the chain). Ranges, ropes and self-collision links pin nothing.
bool joinedByChain(const rig::RigDescription& rig, const std::int32_t (&a)[3], const std::int32_t (&b)[3],
                   const std::vector<char>& inTriangle, const std::vector<std::vector<std::int32_t>>& links)
{
    const std::size_t n = rig.particles.size();
    std::vector<char> seen(n, 0), isB(n, 0);
    for (std::int32_t p : b)
        isB[std::size_t(p)] = 1;
    std::vector<std::int32_t> queue(std::begin(a), std::end(a));
    for (std::int32_t p : a)
        seen[std::size_t(p)] = 1;
    for (std::size_t head = 0; head < queue.size(); ++head)
        for (std::int32_t q : links[std::size_t(queue[head])]) {
            if (seen[std::size_t(q)])
                continue;
            seen[std::size_t(q)] = 1;
            if (isB[std::size_t(q)])
                return true;
            if (!inTriangle[std::size_t(q)])
                queue.push_back(q);
        }
    return false;
}

void checkJoints(const rig::RigDescription& rig, std::vector<ValidationIssue>& out)
{
    std::vector<char> inTriangle(rig.particles.size(), 0);
    for (const rig::Triangle& t : rig.triangles)
        for (std::int32_t p : t.p)
            inTriangle[std::size_t(p)] = 1;
    std::vector<std::vector<std::int32_t>> links(rig.particles.size());
    for (const rig::Stick& s : rig.sticks)
        if (s.kind == rig::StickKind::Rigid) {
            links[std::size_t(s.a)].push_back(s.b);
            links[std::size_t(s.b)].push_back(s.a);
        }
    for (std::size_t i = 0; i < rig.angular.size(); ++i) {
        const auto& c = rig.angular[i];
        const auto& a = rig.triangles[std::size_t(c.triangleA)].p;
        const auto& b = rig.triangles[std::size_t(c.triangleB)].p;
        auto inB = [&b](std::int32_t p) { return std::find(std::begin(b), std::end(b), p) != std::end(b); };
        // Without a shared particle, a rigid stick (or a chain of them) from one triangle to the other still
        // pins them together.
        const bool shared = std::any_of(std::begin(a), std::end(a), inB);
        const ElementRef ref = refAt(rig, ElementKind::Angular, i);
        if (!shared && !joinedByChain(rig, a, b, inTriangle, links))
            out.push_back({Severity::Warning, label(rig, ElementKind::Angular, i) + QStringLiteral(": its triangles share no particle and no rigid stick or chain of links joins them, so the joint has no pivot"), {ref, refAt(rig, ElementKind::Triangle, std::size_t(c.triangleA)), refAt(rig, ElementKind::Triangle, std::size_t(c.triangleB))}});
        if (c.limit == rig::AngularLimit::SwingTwist && (c.twistMin > 1e-3f || c.twistMax < -1e-3f))
            out.push_back({Severity::Warning, label(rig, ElementKind::Angular, i) + QStringLiteral(": the twist range [%1, %2] excludes the rest orientation: the rig jumps on its first step").arg(degrees(c.twistMin), degrees(c.twistMax)), {ref}});
    }
}

/// "the mesh" or "the mesh 'walk.fbx'".
QString meshLabel(const import::ImportedScene& mesh)
{
    if (mesh.sourcePath.empty())
        return QStringLiteral("the mesh");
    return QStringLiteral("the mesh '%1'").arg(QFileInfo(QString::fromStdString(mesh.sourcePath)).fileName());
}

/// The rig's skeleton against the mesh's. The bone palette has one matrix per rig bone and the mesh is
/// skinned by its own bone indices, so they must be the same bones in the same order; a rig built on
/// another mesh (an import that kept the old rig) is not. True when they match.
bool checkSkeleton(const rig::RigDescription& rig, const import::ImportedScene& mesh, std::vector<ValidationIssue>& out)
{
    const std::vector<rig::Bone>& ours = rig.bones;
    const std::vector<rig::Bone>& theirs = mesh.skeleton;
    if (theirs.empty())
        return ours.empty(); // a static mesh: nothing to skin
    if (ours.empty()) {
        if (!rig.particles.empty())
            out.push_back({Severity::Warning, QStringLiteral("the rig drives none of the %1 bones of %2: the mesh stays in its bind pose (Auto-Rig binds them)").arg(theirs.size()).arg(meshLabel(mesh)), {}});
        return false;
    }
    const SkeletonFit fit = compareSkeletons(rig, mesh);
    if (fit.same)
        return true;
    const std::size_t first = fit.agreeing;
    for (const std::size_t i : fit.missingBindings) {
        const std::size_t b = std::size_t(rig.bindings[i].bone);
        out.push_back({Severity::Error, label(rig, ElementKind::Binding, i) + QStringLiteral(": drives bone '%1', which %2 does not have").arg(QString::fromStdString(ours[b].name), meshLabel(mesh)), {refAt(rig, ElementKind::Binding, i), refAt(rig, ElementKind::Bone, b)}});
    }
    const QString where = first < ours.size() && first < theirs.size()
                              ? QStringLiteral("bone %1 is '%2' in the rig and '%3' in the mesh").arg(first).arg(QString::fromStdString(ours[first].name), QString::fromStdString(theirs[first].name))
                              : QStringLiteral("the first %1 bones agree").arg(first);
    out.push_back({Severity::Error, QStringLiteral("the rig's skeleton (%1 bones) is not the skeleton of %2 (%3 bones; %4): the mesh cannot follow the rig; run Auto-Rig on this mesh, or import the mesh the rig was built on").arg(ours.size()).arg(meshLabel(mesh)).arg(theirs.size()).arg(where), {}});
    return false;
}

void checkBones(const rig::RigDescription& rig, const import::ImportedScene* mesh, std::vector<ValidationIssue>& out)
{
    // (A bone bound twice is a validation error, reported before these checks run.)
    std::vector<int> bindings(rig.bones.size());
    for (const rig::BoneBinding& b : rig.bindings)
        ++bindings[std::size_t(b.bone)];
    if (!mesh || !checkSkeleton(rig, *mesh, out))
        return;
    std::vector<double> weight(rig.bones.size());
    for (const auto& m : mesh->meshes) {
        for (const auto& v : m.influences)
            for (int k = 0; k < import::kMaxInfluences; ++k)
                if (v.bone[std::size_t(k)] >= 0 && std::size_t(v.bone[std::size_t(k)]) < weight.size())
                    weight[std::size_t(v.bone[std::size_t(k)])] += double(v.weight[std::size_t(k)]);
        if (m.rigidBone >= 0 && std::size_t(m.rigidBone) < weight.size())
            weight[std::size_t(m.rigidBone)] += double(m.positions.size());
    }
    // A bone moves when it or an ancestor is bound (it follows), or when it is an unbound root with a bound
    // descendant (the runtime makes it copy that descendant).
    std::vector<bool> moves(rig.bones.size()), boundBelow(rig.bones.size());
    for (std::size_t i = 0; i < rig.bones.size(); ++i) {
        const std::int32_t parent = rig.bones[i].parent;
        moves[i] = bindings[i] > 0 || (parent >= 0 && moves[std::size_t(parent)]);
    }
    for (std::size_t i = rig.bones.size(); i-- > 0;) {
        boundBelow[i] = boundBelow[i] || bindings[i] > 0;
        if (const std::int32_t parent = rig.bones[i].parent; parent >= 0 && boundBelow[i])
            boundBelow[std::size_t(parent)] = true;
    }
    for (std::size_t i = 0; i < rig.bones.size(); ++i)
        if (weight[i] > 0.0 && !moves[i] && !boundBelow[i])
            out.push_back({Severity::Warning, label(rig, ElementKind::Bone, i) + QStringLiteral(": carries skin weight but nothing drives it or its parents: its vertices stay at the bind pose"), {refAt(rig, ElementKind::Bone, i)}});
}

} // namespace

RigVerdict rigVerdict(const rig::RigDescription& rig, const import::ImportedScene* mesh)
{
    RigVerdict verdict;
    std::vector<ValidationIssue>& out = verdict.issues;
    std::vector<rig::Finding> findings;
    verdict.valid = rig::validated(rig, findings);
    for (const rig::Finding& f : findings)
        out.push_back({f.severity, QString::fromStdString(f.message), culpritOf(rig, f)});
    if (!verdict.valid) {
        // The detailed checks index freely; an invalid rig gets the validation's findings only.
        checkParticles(rig, false, out);
        return verdict;
    }
    checkLinks(rig, out);
    checkParticles(rig, true, out);
    checkJoints(rig, out);
    checkMasses(rig, out);
    checkBones(rig, mesh, out);
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.severity < b.severity; });
    if (hasErrors(out))
        verdict.valid.reset();
    return verdict;
}

std::vector<ValidationIssue> validateRig(const rig::RigDescription& rig, const import::ImportedScene* mesh)
{
    return rigVerdict(rig, mesh).issues;
}

SkeletonFit compareSkeletons(const rig::RigDescription& rig, const import::ImportedScene& mesh)
{
    const std::vector<rig::Bone>& ours = rig.bones;
    const std::vector<rig::Bone>& theirs = mesh.skeleton;
    SkeletonFit fit;
    while (fit.agreeing < ours.size() && fit.agreeing < theirs.size() && ours[fit.agreeing].name == theirs[fit.agreeing].name &&
           ours[fit.agreeing].parent == theirs[fit.agreeing].parent)
        ++fit.agreeing;
    fit.same = fit.agreeing == ours.size() && fit.agreeing == theirs.size();
    if (fit.same)
        return fit;
    std::set<std::string> names;
    for (const rig::Bone& b : theirs)
        names.insert(b.name);
    for (std::size_t i = 0; i < rig.bindings.size(); ++i) {
        const std::int32_t b = rig.bindings[i].bone;
        if (b >= 0 && std::size_t(b) < ours.size() && !names.count(ours[std::size_t(b)].name))
            fit.missingBindings.push_back(i);
    }
    return fit;
}

bool hasErrors(const std::vector<ValidationIssue>& issues)
{
    return std::any_of(issues.begin(), issues.end(), [](const auto& i) { return i.severity == Severity::Error; });
}

} // namespace marionette::editor
