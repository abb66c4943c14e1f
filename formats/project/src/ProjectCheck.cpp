// Checks shared by the writer (before writing) and the reader (after reading): what the file form needs
// beyond RigDescription::validate(). Every message carries the JSON path of the value.
#include "ProjectInternal.h"

#include "marionette/project/ProjectFile.h"

#include <charconv>
#include <cmath>
#include <map>
#include <unordered_map>

namespace marionette::project {

namespace detail {

namespace {

/// A float as the shortest decimal that reads back as it (0.001f is "0.001", not its double expansion).
QString formatFloat(float f)
{
    char buffer[64];
    const std::to_chars_result written = std::to_chars(buffer, buffer + sizeof buffer, f);
    if (!std::isfinite(f) || written.ec != std::errc())
        return formatNumber(double(f));
    return QString::fromLatin1(buffer, written.ptr - buffer);
}

void range(float v, float lo, float hi, const JsonPath& at, bool openLow = false, bool openHigh = false)
{
    const bool above = openLow ? v > lo : v >= lo;
    const bool below = openHigh ? v < hi : v <= hi;
    if (!(above && below))
        fail(at, QStringLiteral("%1 is outside %2%3, %4%5")
                     .arg(formatFloat(v), openLow ? QStringLiteral("(") : QStringLiteral("["), formatFloat(lo),
                          formatFloat(hi), openHigh ? QStringLiteral(")") : QStringLiteral("]")));
}

void finite(float v, const JsonPath& at)
{
    if (!std::isfinite(v))
        fail(at, QStringLiteral("%1 is not a finite number").arg(formatNumber(double(v))));
}

void finite(Vec3 v, const JsonPath& at)
{
    finite(v.x, at.index(0));
    finite(v.y, at.index(1));
    finite(v.z, at.index(2));
}

/// A finite vector no longer than `limit`; `unit` is UTF-8.
void bounded(Vec3 v, float limit, const char* unit, const JsonPath& at)
{
    finite(v, at);
    const float l = length(v);
    if (!(l <= limit))
        fail(at, QStringLiteral("length %1 %2 is above %3")
                     .arg(formatNumber(double(l)), QString::fromUtf8(unit), formatNumber(double(limit))));
}

void exists(const ElementIndex& index, ElementRef ref, const JsonPath& at)
{
    if (!index.contains(ref))
        fail(at, QStringLiteral("no %1 with id %2").arg(QLatin1StringView(describe(ref.kind))).arg(ref.id));
}

bool isLowerHex(const QString& s)
{
    for (const QChar c : s)
        if (!((c >= u'0' && c <= u'9') || (c >= u'a' && c <= u'f')))
            return false;
    return true;
}

void checkCamera(const Camera& c, const JsonPath& at)
{
    finite(c.target, at.key("target"));
    finite(c.yawDegrees, at.key("yawDegrees"));
    range(c.pitchDegrees, -90.f, 90.f, at.key("pitchDegrees"));
    range(c.distance, 0.f, 1e6f, at.key("distance"), true);
    range(c.fieldOfViewDegrees, 0.f, 180.f, at.key("fieldOfViewDegrees"), true, true);
    if (c.projection != Projection::Perspective && c.projection != Projection::Orthographic)
        fail(at.key("projection"), QStringLiteral("unknown projection %1").arg(int(c.projection)));
}

void checkEditor(const EditorState& e, const ElementIndex& index, const JsonPath& at)
{
    checkCamera(e.camera, at.key("camera"));
    range(e.meshOpacity, 0.f, 1.f, at.key("meshOpacity"));
    const JsonPath symmetry = at.key("symmetry");
    range(e.symmetry.offset, -1e6f, 1e6f, symmetry.key("offset"));
    range(e.symmetry.tolerance, 0.f, 1.f, symmetry.key("tolerance"), true);
    if (e.symmetry.axis != MirrorAxis::X && e.symmetry.axis != MirrorAxis::Y && e.symmetry.axis != MirrorAxis::Z)
        fail(symmetry.key("axis"), QStringLiteral("unknown mirror axis %1").arg(int(e.symmetry.axis)));
    const JsonPath elements = at.key("elements");
    std::map<ElementRef, std::size_t> seen;
    for (std::size_t i = 0; i < e.elements.size(); ++i) {
        const JsonPath entry = elements.index(qsizetype(i));
        exists(index, e.elements[i].element, entry.key("id"));
        const auto [it, fresh] = seen.emplace(e.elements[i].element, i);
        if (!fresh)
            fail(entry, QStringLiteral("second entry for %1 %2 (the first is %3)")
                            .arg(QLatin1StringView(describe(it->first.kind)))
                            .arg(it->first.id)
                            .arg(elements.index(qsizetype(it->second)).toString()));
    }
    const JsonPath selection = at.key("selection");
    seen.clear();
    for (std::size_t i = 0; i < e.selection.size(); ++i) {
        const JsonPath entry = selection.index(qsizetype(i));
        exists(index, e.selection[i], entry.key("id"));
        const auto [it, fresh] = seen.emplace(e.selection[i], i);
        if (!fresh)
            fail(entry, QStringLiteral("%1 %2 is selected twice (also %3)")
                            .arg(QLatin1StringView(describe(it->first.kind)))
                            .arg(it->first.id)
                            .arg(selection.index(qsizetype(it->second)).toString()));
    }
}

void checkScenario(const Scenario& s, const ElementIndex& index, const rig::RigDescription& rig, const JsonPath& at)
{
    if (s.scene != Scene::Floor && s.scene != Scene::Stairs && s.scene != Scene::Ledge && s.scene != Scene::Box)
        fail(at.key("scene"), QStringLiteral("unknown scene %1").arg(int(s.scene)));
    range(s.dropHeight, -1000.f, 1000.f, at.key("dropHeight"));
    if (!s.initialRotation.random) {
        const JsonPath rotation = at.key("initialRotation");
        const JsonPath q = rotation.key("quaternion");
        const Quat r = s.initialRotation.rotation;
        finite(r.x, q.index(0));
        finite(r.y, q.index(1));
        finite(r.z, q.index(2));
        finite(r.w, q.index(3));
        const float n = r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w;
        if (!(std::fabs(n - 1.f) <= 1e-3f))
            fail(q, QStringLiteral("not a unit quaternion (squared length %1)").arg(formatNumber(double(n))));
    }
    range(s.duration, 0.f, 600.f, at.key("duration"), true);
    const JsonPath hits = at.key("hits");
    for (std::size_t i = 0; i < s.hits.size(); ++i) {
        const Hit& h = s.hits[i];
        const JsonPath hit = hits.index(qsizetype(i));
        if (h.target.kind != ElementKind::Particle && h.target.kind != ElementKind::Stick)
            fail(hit, QStringLiteral("a hit targets a particle or a stick, not a %1")
                          .arg(QLatin1StringView(describe(h.target.kind))));
        exists(index, h.target, hit.key(h.target.kind == ElementKind::Particle ? "particle" : "stick"));
        range(h.along, 0.f, 1.f, hit.key("along"));
        bounded(h.impulse, 1e6f, "N·s", hit.key("impulse"));
    }
    const JsonPath drags = at.key("drags");
    for (std::size_t i = 0; i < s.drags.size(); ++i) {
        const Drag& d = s.drags[i];
        const JsonPath drag = drags.index(qsizetype(i));
        exists(index, {ElementKind::Particle, d.particle}, drag.key("particle"));
        if (d.endFrame < d.startFrame)
            fail(drag.key("endFrame"), QStringLiteral("%1 is before startFrame %2").arg(d.endFrame).arg(d.startFrame));
        bounded(d.target, 1e6f, "m from the origin", drag.key("target"));
        range(d.stiffness, 0.f, 1.f, drag.key("stiffness"), true);
    }
    const JsonPath explosions = at.key("explosions");
    for (std::size_t i = 0; i < s.explosions.size(); ++i) {
        const Explosion& e = s.explosions[i];
        const JsonPath x = explosions.index(qsizetype(i));
        bounded(e.centre, 1e6f, "m from the origin", x.key("centre"));
        range(e.strength, 0.f, 1e6f, x.key("strength"));
        range(e.radius, 0.f, 1e6f, x.key("radius"), true);
    }
    const JsonPath changes = at.key("settingChanges");
    for (std::size_t i = 0; i < s.settingChanges.size(); ++i) {
        const SettingChange& c = s.settingChanges[i];
        const JsonPath x = changes.index(qsizetype(i));
        if (!c.iterations && !c.timeStep && !c.gravity)
            fail(x, QStringLiteral("changes nothing: give \"iterations\", \"timeStep\" or \"gravity\""));
        if (c.iterations && (*c.iterations < 1 || *c.iterations > 64))
            fail(x.key("iterations"), QStringLiteral("%1 outside [1, 64]").arg(*c.iterations));
        if (c.timeStep)
            range(*c.timeStep, 0.001f, 0.1f, x.key("timeStep"));
    }
    if (s.animationStart) {
        const JsonPath a = at.key("animationStart");
        if (s.animationStart->clip.isEmpty())
            fail(a.key("clip"), QStringLiteral("names no clip"));
        range(s.animationStart->time, 0.f, 1e6f, a.key("time"));
    }
    auto profileExists = [&](const QString& name, const JsonPath& where) {
        const std::string wanted = name.toStdString();
        for (const rig::DriveProfile& p : rig.driveProfiles)
            if (p.name == wanted)
                return;
        fail(where, QStringLiteral("the rig has no drive profile \"%1\"").arg(name));
    };
    if (s.driven) {
        const JsonPath d = at.key("driven");
        if (s.animationStart)
            fail(d, QStringLiteral("a driven scenario cannot also have an animationStart"));
        if (s.driven->clip.isEmpty())
            fail(d.key("clip"), QStringLiteral("names no clip"));
        if (s.driven->profile.isEmpty())
            fail(d.key("profile"), QStringLiteral("names no drive profile"));
        profileExists(s.driven->profile, d.key("profile"));
        const JsonPath getUps = d.key("getUpClips");
        for (std::size_t i = 0; i < s.driven->getUpClips.size(); ++i)
            if (s.driven->getUpClips[i].isEmpty())
                fail(getUps.index(qsizetype(i)), QStringLiteral("names no clip"));
    }
    const JsonPath driveChanges = at.key("driveChanges");
    if (!s.driven && !s.driveChanges.empty())
        fail(driveChanges, QStringLiteral("drive changes need a \"driven\" play"));
    for (std::size_t i = 0; i < s.driveChanges.size(); ++i) {
        const DriveChange& c = s.driveChanges[i];
        const JsonPath x = driveChanges.index(qsizetype(i));
        if (c.kind != DriveChange::Kind::Profile && c.kind != DriveChange::Kind::Kill && c.kind != DriveChange::Kind::GetUp)
            fail(x.key("kind"), QStringLiteral("unknown drive change %1").arg(int(c.kind)));
        if (i > 0 && c.frame < s.driveChanges[i - 1].frame)
            fail(x.key("frame"), QStringLiteral("%1 is before the previous change's frame %2")
                                     .arg(c.frame).arg(s.driveChanges[i - 1].frame));
        range(c.blend, 0.f, 60.f, x.key("blend"));
        if (c.kind == DriveChange::Kind::Profile && c.profile.isEmpty())
            fail(x.key("profile"), QStringLiteral("names no drive profile"));
        if (c.kind == DriveChange::Kind::Kill && !c.profile.isEmpty())
            fail(x.key("profile"), QStringLiteral("a kill takes no profile"));
        if (!c.profile.isEmpty())
            profileExists(c.profile, x.key("profile"));
        if (c.kind == DriveChange::Kind::GetUp && s.driven->getUpClips.empty())
            fail(x, QStringLiteral("a get-up needs the driven play's getUpClips"));
    }
    const JsonPath expect = at.key("expect");
    const bool drivenOnly = s.expect.maxTrackingErrorCm || s.expect.recoverWithin || s.expect.falls || s.expect.standsAtEnd;
    if (drivenOnly && !s.driven)
        fail(expect, QStringLiteral("maxTrackingErrorCm, recoverWithin, falls and standsAtEnd need a \"driven\" play"));
    if (s.expect.maxTrackingErrorCm)
        range(*s.expect.maxTrackingErrorCm, 0.f, 1000.f, expect.key("maxTrackingErrorCm"), true);
    if (s.expect.recoverWithin) {
        range(*s.expect.recoverWithin, 0.f, s.duration, expect.key("recoverWithin"), true);
        if (!s.expect.maxTrackingErrorCm)
            fail(expect.key("recoverWithin"), QStringLiteral("needs maxTrackingErrorCm, the bound to recover below"));
    }
    if (s.expect.settleWithin)
        range(*s.expect.settleWithin, 0.f, s.duration, expect.key("settleWithin"), true);
    range(s.expect.maxPenetration, 0.f, 100.f, expect.key("maxPenetration"));
    range(s.expect.maxLimitViolationDegrees, 0.f, 180.f, expect.key("maxLimitViolationDegrees"));
}

} // namespace

void checkElementCount(ElementKind kind, std::size_t count, const JsonPath& section)
{
    if (count > kMaxElementsPerKind)
        fail(section, QStringLiteral("%1 %2; a project holds at most %3 of each kind")
                          .arg(count)
                          .arg(QLatin1StringView(sectionName(kind)))
                          .arg(kMaxElementsPerKind));
}

namespace {

/// A level of detail: its counts and figures in range, its rig's ids unique and the rig valid.
void checkLod(const LodLevel& level, const JsonPath& at)
{
    if (level.targetParticles < 3 || level.targetParticles > 1'000'000)
        fail(at.key("targetParticles"), QStringLiteral("%1 is outside [3, 1000000]").arg(level.targetParticles));
    const JsonPath rigAt = at.key("rig");
    forEachSection(level.rig, [&](ElementKind kind, const auto& elements) {
        checkElementCount(kind, elements.size(), rigAt.key(sectionName(kind)));
    });
    const QString ids = checkElementIdsAt(level.rig, rigAt.toString());
    if (!ids.isEmpty())
        throw JsonError{ids};
    if (const std::string problem = level.rig.validate(); !problem.empty())
        fail(rigAt, QStringLiteral("the level's rig is not valid: %1").arg(QString::fromStdString(problem)));
    if (!level.measurement)
        return;
    const LodMeasurement& m = *level.measurement;
    const JsonPath mAt = at.key("measurement");
    range(m.errorMeanCm, 0.f, 1e6f, mAt.key("errorMeanCm"));
    range(m.errorMaxCm, m.errorMeanCm, 1e6f, mAt.key("errorMaxCm"));
    range(m.usPerRagdollStep, 0.f, 1e9f, mAt.key("usPerRagdollStep"));
    if (m.runs < 1 || m.runs > 1'000'000)
        fail(mAt.key("runs"), QStringLiteral("%1 is outside [1, 1000000]").arg(m.runs));
    if (m.benchRagdolls < 1 || m.benchRagdolls > 1'000'000)
        fail(mAt.key("benchRagdolls"), QStringLiteral("%1 is outside [1, 1000000]").arg(m.benchRagdolls));
    if (m.benchFrames < 1 || m.benchFrames > 1'000'000'000)
        fail(mAt.key("benchFrames"), QStringLiteral("%1 is outside [1, 1000000000]").arg(m.benchFrames));
}

} // namespace

void checkDocument(const Project& project, const ElementIndex& index)
{
    const JsonPath root;
    const JsonPath rigAt = root.key("rig");
    forEachSection(project.rig, [&](ElementKind kind, const auto& elements) {
        const JsonPath section = rigAt.key(sectionName(kind));
        checkElementCount(kind, elements.size(), section);
    });
    const QString ids = checkElementIds(project.rig);
    if (!ids.isEmpty())
        throw JsonError{ids};
    const QString& hash = project.sourceMesh.sha256;
    const JsonPath mesh = root.key("sourceMesh");
    if (!hash.isEmpty() && (hash.size() != 64 || !isLowerHex(hash)))
        fail(mesh.key("sha256"),
             QStringLiteral("expected 64 lowercase hexadecimal digits (SHA-256) or an empty string"));
    const ImportSettings& im = project.import;
    const JsonPath importAt = root.key("import");
    if (!(im.scaleToMetres > 0.0 && im.scaleToMetres <= 1e6))
        fail(importAt.key("scaleToMetres"),
             QStringLiteral("%1 is outside (0, 1e+06]").arg(formatNumber(im.scaleToMetres)));
    if (im.sourceUpAxis != UpAxis::Y && im.sourceUpAxis != UpAxis::Z)
        fail(importAt.key("sourceUpAxis"), QStringLiteral("unknown axis %1").arg(int(im.sourceUpAxis)));
    checkEditor(project.editor, index, root.key("editor"));
    const JsonPath groups = root.key("collisionGroups");
    std::uint32_t named = 0;
    for (std::size_t i = 0; i < project.collisionGroups.size(); ++i) {
        const CollisionGroupName& g = project.collisionGroups[i];
        const JsonPath at = groups.index(qsizetype(i));
        if (g.bit < 0 || g.bit >= kCollisionGroupBits)
            fail(at.key("bit"), QStringLiteral("%1 is outside [0, 31]").arg(g.bit));
        if (named & (1u << g.bit))
            fail(at.key("bit"), QStringLiteral("bit %1 is named twice").arg(g.bit));
        named |= 1u << g.bit;
        if (g.name.trimmed().isEmpty() || g.name.size() > kMaxCollisionGroupNameLength)
            fail(at.key("name"), QStringLiteral("expected a name of 1 to %1 characters").arg(kMaxCollisionGroupNameLength));
    }
    const JsonPath scenarios = root.key("scenarios");
    for (std::size_t i = 0; i < project.scenarios.size(); ++i)
        checkScenario(project.scenarios[i], index, project.rig, scenarios.index(qsizetype(i)));
    const JsonPath lods = root.key("lods");
    for (std::size_t i = 0; i < project.lods.size(); ++i)
        checkLod(project.lods[i], lods.index(qsizetype(i)));
}

} // namespace detail

QString checkElementIds(const rig::RigDescription& rig)
{
    return detail::checkElementIdsAt(rig, QStringLiteral("$.rig"));
}

QString detail::checkElementIdsAt(const rig::RigDescription& rig, const QString& rigPath)
{
    QString problem;
    detail::forEachSection(rig, [&](ElementKind kind, const auto& elements) {
        if (!problem.isEmpty())
            return;
        const auto idPath = [kind, &rigPath](std::size_t i) {
            return QStringLiteral("%1.%2[%3].id").arg(rigPath, QLatin1StringView(sectionName(kind))).arg(i);
        };
        std::unordered_map<rig::ElementId, std::size_t> first;
        first.reserve(elements.size());
        for (std::size_t i = 0; i < elements.size(); ++i) {
            const rig::ElementId id = elements[i].id;
            if (id == 0) {
                problem =
                    QStringLiteral("%1: the %2 '%3' has no id (0); assignMissingIds() gives it one")
                        .arg(idPath(i), QLatin1StringView(describe(kind)), QString::fromStdString(elements[i].name));
                return;
            }
            const auto [it, fresh] = first.emplace(id, i);
            if (!fresh) {
                problem = QStringLiteral("%1: duplicate %2 id %3 (also %4)")
                              .arg(idPath(i), QLatin1StringView(describe(kind)))
                              .arg(id)
                              .arg(idPath(it->second));
                return;
            }
        }
    });
    return problem;
}

} // namespace marionette::project
