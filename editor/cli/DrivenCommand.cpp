// `marionette simulate RIG|PROJECT --animation CLIP`: a powered ragdoll playing a clip (editor::runDriven, the
// code the tests measure drives with), hit and killed on the way, reported per part and per bone.
#include "Cli.h"
#include "RigFiles.h"

#include "marionette/editor/pluginhost/MeshImport.h"
#include "marionette/editor/preview/DrivenRun.h"
#include "marionette/editor/preview/TestScenes.h"
#include "marionette/project/ProjectFile.h"
#include "marionette/runtime/Rig.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace marionette::cli {

namespace {

const char* kDrivenHelp =
    "Usage: marionette simulate RIG|PROJECT --animation CLIP [--profile NAME | --motor HZ [--pin-root HZ] | --kinematic]\n"
    "                           [--frames N] [--scene NAME] [--hit T:P:JX,JY,JZ]... [--hit-part T:TRI:JX,JY,JZ]...\n"
    "                           [--kill T[:BLEND]] [--json]\n\n"
    "Plays a clip through the rig's drives (a powered ragdoll): the body starts in the clip's first pose, moving\n"
    "as it moves, on a test scene, and every step the drives pull it toward the clip's pose; hits knock it and a\n"
    "kill blends it limp. Reports, per drive part and per bone, the worst tracking error against the clip, the\n"
    "run's worst, whether it fell and when it recovered after the last hit, and the drop's figures.\n\n"
    "Options:\n"
    "  --animation CLIP      a clip of the project's own mesh by name, or FILE[:NAME]: a mesh or animation file\n"
    "                        (any format the importer reads, with the project's unit scale and up axis) and its\n"
    "                        clip NAME (may be left out when the file has one clip); a .mrig needs a FILE. The\n"
    "                        clip's skeleton is matched to the rig's bones by name\n"
    "  --profile NAME        the rig's drive profile to play with (default: 'balanced' when the rig has one)\n"
    "  --motor HZ            instead of a profile: every part's motor at HZ, critically damped, in [0, 60]\n"
    "  --pin-root HZ         with --motor: the root parts pinned to the clip at HZ, in [0, 60] (default 0)\n"
    "  --kinematic           instead of a profile: every part kinematic (the body plays the clip exactly)\n"
    "  --frames N            steps of the rig's time step to run (default: the clip's duration)\n"
    "  --scene NAME          floor | stairs | ledge | box (default floor)\n"
    "  --hit T:P:JX,JY,JZ    impulse (N·s) on particle P (a name or an index) T seconds in; repeatable\n"
    "  --hit-part T:TRI:J    the same impulse split in three over the corners of triangle TRI (name or index)\n"
    "  --kill T[:BLEND]      from T seconds the drives blend to limp over BLEND seconds (default 0.2)\n"
    "  --json                print the report as one JSON object\n"
    "  -h, --help            show this help\n\n"
    "Errors compare the ragdoll's bones with the clip's: positions relative to the root bone (cm), orientations\n"
    "(degrees); a part's error is its centre's distance from its target and its frame's or direction's angle.\n"
    "Recovered: the worst bone's error fell below 3 cm after the last hit and stayed there to the end. Fell: the\n"
    "root bone dropped below half the clip's root height.\n\n"
    "--json prints {\"rig\", \"clip\", \"source\", \"drive\", \"scene\", \"frames\", \"seconds\", \"finite\", \"fell\",\n"
    "\"lowest_root_drop\", \"worst_position_cm\", \"worst_position_bone\", \"worst_angle_deg\", \"worst_angle_bone\",\n"
    "\"last_hit\", \"recovered\", \"recovered_after\", \"max_stick_error\", \"worst_stick\", \"max_penetration\",\n"
    "\"min_height\", \"max_limit_violation_deg\", \"worst_limit\", \"parts\": [{\"name\", \"kind\", \"position_cm\",\n"
    "\"angle_deg\"}], \"bones\": [{\"name\", \"position_cm\", \"angle_deg\"}]} (last_hit and recovered_after -1 when\n"
    "there is no hit or no recovery).\n\n"
    "Exit codes: 0 success; 1 bad rig, project or clip file, unknown clip or profile, a skeleton sharing no bone\n"
    "with the rig, an unknown particle or triangle, with 'error: FILE: what' on stderr; 2 usage error.\n";

/// Parses "X,Y,Z" into three finite numbers.
bool parseVec3(const QString& text, Vec3& out)
{
    const QStringList parts = text.split(QLatin1Char(','));
    if (parts.size() != 3)
        return false;
    bool ok[3] = {false, false, false};
    out = {parts[0].toFloat(&ok[0]), parts[1].toFloat(&ok[1]), parts[2].toFloat(&ok[2])};
    return ok[0] && ok[1] && ok[2] && std::isfinite(out.x) && std::isfinite(out.y) && std::isfinite(out.z);
}

/// Parses a finite, non-negative number of seconds.
bool parseSeconds(const QString& text, float& out)
{
    bool ok = false;
    out = text.toFloat(&ok);
    return ok && std::isfinite(out) && out >= 0.f;
}

/// The element named `who` (or at index `who`) among `names`; -1 when there is none.
template <typename Elements>
long findByNameOrIndex(const Elements& elements, const QString& who)
{
    bool isIndex = false;
    const long index = who.toLong(&isIndex);
    if (isIndex)
        return index >= 0 && std::size_t(index) < elements.size() ? index : -1;
    for (std::size_t i = 0; i < elements.size(); ++i)
        if (QString::fromStdString(elements[i].name) == who)
            return long(i);
    return -1;
}

QString quotedList(const QStringList& names)
{
    if (names.isEmpty())
        return QStringLiteral("none");
    QStringList quoted;
    for (const QString& n : names)
        quoted << QStringLiteral("'%1'").arg(n);
    return quoted.join(QStringLiteral(", "));
}

/// The clip `spec` names: its scene (imported), its index and the file it came from. Empty with `code` set.
struct Clip {
    import::ImportedScene scene;
    std::size_t index = 0;
    QString source;
};

std::optional<Clip> resolveClip(const QString& spec, const RigFile& file, const QString& path,
                                const project::Project* proj, Io& io, int& code)
{
    // FILE, FILE:NAME (the longest existing file before a ':'), else a clip name of the project's mesh.
    QString fileName, clipName;
    if (QFileInfo(spec).isFile()) {
        fileName = spec;
    } else {
        for (qsizetype colon = spec.lastIndexOf(QLatin1Char(':')); colon > 0;
             colon = spec.lastIndexOf(QLatin1Char(':'), colon - 1))
            if (QFileInfo(spec.left(colon)).isFile()) {
                fileName = spec.left(colon);
                clipName = spec.mid(colon + 1);
                break;
            }
    }
    // Not a file: a clip name, unless it reads as a path ("clips/run.fbx:Run").
    const QString beforeColon = spec.section(QLatin1Char(':'), 0, 0);
    const bool looksLikeFile = beforeColon.contains(QLatin1Char('/')) || beforeColon.contains(QLatin1Char('.'));
    Clip out;
    if (!fileName.isEmpty()) {
        editor::MeshImportResult imported = editor::importMesh(
            pluginHost(), editor::requestFor(fileName, proj ? proj->import : project::ImportSettings{}));
        for (const QString& w : imported.warnings)
            io.err << "warning: " << w << '\n';
        if (!imported.ok()) {
            code = fail(io, imported.error.startsWith(fileName) ? imported.error
                                                                 : QStringLiteral("%1: %2").arg(fileName, imported.error));
            return std::nullopt;
        }
        out.scene = std::move(imported.scene);
        out.source = fileName;
    } else if (!proj) {
        code = fail(io, looksLikeFile ? QStringLiteral("%1: no such file").arg(spec.section(QLatin1Char(':'), 0, 0))
                                      : QStringLiteral("%1: a .mrig has no mesh to take clip '%2' from; give "
                                                       "--animation FILE[:NAME]").arg(path, spec));
        return std::nullopt;
    } else {
        clipName = spec;
        QString error;
        std::optional<import::ImportedScene> mesh = importProjectMesh(*proj, path, io, error);
        if (!mesh) {
            code = fail(io, QStringLiteral("%1: %2").arg(path, error.isEmpty()
                                                                   ? QStringLiteral("the project has no source mesh to take clip '%1' from; give --animation FILE[:NAME]").arg(spec)
                                                                   : error));
            return std::nullopt;
        }
        out.scene = std::move(*mesh);
        out.source = proj->sourceMesh.resolve(path);
        const bool isClip = std::any_of(out.scene.animations.begin(), out.scene.animations.end(),
                                        [&](const import::AnimationClip& c) { return c.name == spec.toStdString(); });
        if (!isClip && looksLikeFile) {
            code = fail(io, QStringLiteral("%1: no such file").arg(spec.section(QLatin1Char(':'), 0, 0)));
            return std::nullopt;
        }
    }
    QStringList names;
    for (const import::AnimationClip& c : out.scene.animations)
        names << QString::fromStdString(c.name);
    if (names.isEmpty()) {
        code = fail(io, QStringLiteral("%1: has no animation clips").arg(out.source));
        return std::nullopt;
    }
    if (clipName.isEmpty()) {
        if (names.size() > 1) {
            code = fail(io, QStringLiteral("%1: has %2 clips (%3); name one as FILE:NAME")
                                .arg(out.source).arg(names.size()).arg(quotedList(names)));
            return std::nullopt;
        }
        out.index = 0;
    } else if (const qsizetype i = names.indexOf(clipName); i >= 0) {
        out.index = std::size_t(i);
    } else {
        code = fail(io, QStringLiteral("%1: no clip '%2' (it has %3)").arg(out.source, clipName, quotedList(names)));
        return std::nullopt;
    }
    const std::vector<std::int32_t> matched = editor::rigBonesInScene(file.rig, out.scene);
    if (std::none_of(matched.begin(), matched.end(), [](std::int32_t s) { return s >= 0; })) {
        code = fail(io, QStringLiteral("%1: its skeleton (%2 bones) shares no bone name with the rig's %3 bones")
                            .arg(out.source).arg(out.scene.skeleton.size()).arg(file.rig.bones.size()));
        return std::nullopt;
    }
    return out;
}

QString partName(const rig::RigDescription& rig, const runtime::DrivePartData& part)
{
    const std::string& name = part.kind == rig::DrivePartKind::Triangle ? rig.triangles[part.index].name
                                                                          : rig.sticks[part.index].name;
    if (!name.empty())
        return QString::fromStdString(name);
    return QStringLiteral("%1 %2").arg(part.kind == rig::DrivePartKind::Triangle ? QStringLiteral("triangle")
                                                                                 : QStringLiteral("stick"))
        .arg(part.index);
}

double cm(float metres) { return double(metres) * 100.0; }
double deg(float rad) { return double(degrees(rad)); }

} // namespace

int simulateDriven(const QStringList& arguments, Io& io)
{
    QCommandLineParser parser;
    const QCommandLineOption animation(QStringLiteral("animation"), {}, QStringLiteral("CLIP"));
    const QCommandLineOption profile(QStringLiteral("profile"), {}, QStringLiteral("NAME"));
    const QCommandLineOption motor(QStringLiteral("motor"), {}, QStringLiteral("HZ"));
    const QCommandLineOption pinRoot(QStringLiteral("pin-root"), {}, QStringLiteral("HZ"));
    const QCommandLineOption kinematic(QStringLiteral("kinematic"), {});
    const QCommandLineOption frames(QStringLiteral("frames"), {}, QStringLiteral("N"));
    const QCommandLineOption scene(QStringLiteral("scene"), {}, QStringLiteral("NAME"));
    const QCommandLineOption hit(QStringLiteral("hit"), {}, QStringLiteral("T:P:JX,JY,JZ"));
    const QCommandLineOption hitPart(QStringLiteral("hit-part"), {}, QStringLiteral("T:TRI:JX,JY,JZ"));
    const QCommandLineOption kill(QStringLiteral("kill"), {}, QStringLiteral("T[:BLEND]"));
    const QCommandLineOption json(QStringLiteral("json"), {});
    parser.addOptions({animation, profile, motor, pinRoot, kinematic, frames, scene, hit, hitPart, kill, json});
    if (const int code = parseCommand(arguments, parser, io, kDrivenHelp, "RIG"); code >= 0)
        return code;
    const QString command = arguments[0];
    int code = kOk;
    long frameCount = -1;
    double motorHz = 0.0, pinHz = 0.0;
    if (!intOption(parser, frames, 1, 1000000, frameCount, io, command, code) ||
        !floatOption(parser, motor, 0.0, 60.0, motorHz, io, command, code) ||
        !floatOption(parser, pinRoot, 0.0, 60.0, pinHz, io, command, code))
        return code;
    if (parser.value(animation).isEmpty())
        return usageError(io, command, QStringLiteral("--animation needs a clip name or FILE[:NAME]"));
    if (int(parser.isSet(profile)) + int(parser.isSet(motor)) + int(parser.isSet(kinematic)) > 1)
        return usageError(io, command, QStringLiteral("--profile, --motor and --kinematic exclude each other"));
    if (parser.isSet(pinRoot) && !parser.isSet(motor))
        return usageError(io, command, QStringLiteral("--pin-root goes with --motor"));
    const QString sceneName = parser.isSet(scene) ? parser.value(scene) : QStringLiteral("floor");
    editor::DrivenRunOptions options;
    if (!editor::sceneFromName(sceneName, options.scene))
        return usageError(io, command, QStringLiteral("--scene must be floor, stairs, ledge or box, not '%1'").arg(sceneName));

    // Hits and the kill: their syntax first (usage errors), their particles once the rig is known.
    struct HitText {
        QString text, who;
        float seconds;
        Vec3 impulse;
        bool part;
    };
    std::vector<HitText> hitTexts;
    for (const QCommandLineOption* o : {&hit, &hitPart})
        for (const QString& h : parser.values(*o)) {
            const QStringList fields = h.split(QLatin1Char(':'));
            HitText t{h, {}, 0.f, {}, o == &hitPart};
            if (fields.size() != 3 || !parseSeconds(fields[0], t.seconds) || fields[1].isEmpty() ||
                !parseVec3(fields[2], t.impulse))
                return usageError(io, command, QStringLiteral("--%1 '%2' is not T:%3:JX,JY,JZ (seconds, then finite numbers)")
                                                   .arg(o->names().constFirst(), h,
                                                        t.part ? QStringLiteral("TRIANGLE") : QStringLiteral("PARTICLE")));
            t.who = fields[1];
            hitTexts.push_back(t);
        }
    if (parser.isSet(kill)) {
        const QStringList fields = parser.value(kill).split(QLatin1Char(':'));
        if (fields.size() > 2 || !parseSeconds(fields[0], options.killAt) ||
            (fields.size() == 2 && !parseSeconds(fields[1], options.killBlend)))
            return usageError(io, command, QStringLiteral("--kill '%1' is not T[:BLEND] (seconds)").arg(parser.value(kill)));
    }

    // The rig, and the project it may come with (its mesh, its import settings).
    const QString path = parser.positionalArguments().first();
    RigFile file;
    if (const QString error = loadRigFile(path, file); !error.isEmpty())
        return fail(io, error);
    std::optional<project::Project> proj;
    if (file.kind == RigFile::Kind::Project) {
        proj.emplace();
        if (const project::LoadResult r = project::loadProject(path, *proj); !r.ok())
            return fail(io, r.error);
    }
    std::string buildError;
    const std::shared_ptr<const runtime::Rig> rig = runtime::Rig::build(file.rig, &buildError);
    if (!rig)
        return fail(io, QStringLiteral("%1: the runtime cannot build the rig: %2").arg(path, QString::fromStdString(buildError)));

    // The gains: a profile, or --motor/--pin-root on every part.
    QStringList profiles;
    for (const runtime::DriveProfileData& p : rig->driveProfiles())
        profiles << QString::fromStdString(p.name);
    QString drive;
    if (parser.isSet(kinematic)) {
        rig::DriveGains g;
        g.kinematic = true;
        options.gains.assign(rig->driveParts().size(), g);
        drive = QStringLiteral("every part kinematic");
    } else if (parser.isSet(motor)) {
        for (const runtime::DrivePartData& part : rig->driveParts()) {
            rig::DriveGains g;
            if (part.parent >= 0)
                g.motorFrequency = float(motorHz);
            else
                g.pinFrequency = float(pinHz);
            options.gains.push_back(g);
        }
        drive = QStringLiteral("motors %1 Hz, root pinned %2 Hz").arg(motorHz).arg(pinHz);
    } else {
        const QString name = parser.isSet(profile) ? parser.value(profile) : QStringLiteral("balanced");
        const std::int32_t found = rig->findDriveProfile(name.toStdString());
        if (found < 0) {
            if (parser.isSet(profile))
                return fail(io, QStringLiteral("%1: no drive profile '%2' (it has %3)").arg(path, name, quotedList(profiles)));
            return fail(io, QStringLiteral("%1: no drive profile 'balanced' to play with by default (it has %2); name "
                                           "one with --profile, or give --motor HZ").arg(path, quotedList(profiles)));
        }
        options.gains = rig->driveProfiles()[std::size_t(found)].gains;
        drive = QStringLiteral("profile '%1'").arg(name);
    }

    const auto& particles = file.rig.particles;
    for (const HitText& t : hitTexts) {
        if (!t.part) {
            const long p = findByNameOrIndex(particles, t.who);
            if (p < 0)
                return fail(io, QStringLiteral("%1: --hit '%2': no particle '%3' (%4 particles)")
                                    .arg(path, t.text, t.who).arg(particles.size()));
            options.hits.push_back({t.seconds, std::uint32_t(p), t.impulse});
            continue;
        }
        const long tri = findByNameOrIndex(file.rig.triangles, t.who);
        if (tri < 0)
            return fail(io, QStringLiteral("%1: --hit-part '%2': no triangle '%3' (%4 triangles)")
                                .arg(path, t.text, t.who).arg(file.rig.triangles.size()));
        for (const std::int32_t corner : file.rig.triangles[std::size_t(tri)].p)
            options.hits.push_back({t.seconds, std::uint32_t(corner), t.impulse / 3.f});
    }

    const std::optional<Clip> clip = resolveClip(parser.value(animation), file, path, proj ? &*proj : nullptr, io, code);
    if (!clip)
        return code;
    options.clip = clip->index;
    const float dt = rig->settings().timeStep;
    const float duration = clip->scene.animations[clip->index].duration;
    options.seconds = frameCount > 0 ? float(double(frameCount) * double(dt)) : duration;
    if (std::lround(double(options.seconds) / double(dt)) < 1)
        return fail(io, QStringLiteral("%1: clip '%2' lasts %3 s, less than a step; give --frames")
                            .arg(clip->source, QString::fromStdString(clip->scene.animations[clip->index].name))
                            .arg(double(duration)));
    // A hit or kill at T acts at the start of step round(T / dt): one at or after the last step's end never does.
    const long steps = std::lround(double(options.seconds) / double(dt));
    auto afterTheEnd = [&](float t) { return std::lround(double(t) / double(dt)) >= steps; };
    for (const editor::DrivenHit& h : options.hits)
        if (afterTheEnd(h.seconds))
            return usageError(io, command, QStringLiteral("a hit at %1 s is at or after the run's end (%2 s)")
                                               .arg(double(h.seconds)).arg(double(options.seconds)));
    if (options.killAt >= 0.f && afterTheEnd(options.killAt))
        return usageError(io, command, QStringLiteral("--kill at %1 s is at or after the run's end (%2 s)")
                                           .arg(double(options.killAt)).arg(double(options.seconds)));

    const editor::DrivenRunResult run = editor::runDriven(file.rig, clip->scene, options);
    if (!run.error.empty())
        return fail(io, QStringLiteral("%1: %2").arg(clip->source, QString::fromStdString(run.error)));

    // The report.
    const QString clipName = QString::fromStdString(clip->scene.animations[clip->index].name);
    auto boneName = [&](std::int32_t b) { return b < 0 ? QString() : QString::fromStdString(file.rig.bones[std::size_t(b)].name); };
    const QString stickName = run.worstStick < 0 ? QString() : QString::fromStdString(rig->stickName(std::size_t(run.worstStick)));
    const QString limitName = run.worstLimit < 0 ? QString() : QString::fromStdString(file.rig.angular[std::size_t(run.worstLimit)].name);
    float lastHit = -1.f;
    for (const editor::DrivenHit& h : options.hits)
        lastHit = std::max(lastHit, h.seconds);
    const double seconds = double(run.frames) * double(dt);
    const auto parts = rig->driveParts();
    if (parser.isSet(json)) {
        QJsonArray partList, boneList;
        for (std::size_t p = 0; p < parts.size(); ++p)
            partList.append(QJsonObject{{QStringLiteral("name"), partName(file.rig, parts[p])},
                                        {QStringLiteral("kind"), parts[p].kind == rig::DrivePartKind::Triangle
                                                                     ? QStringLiteral("triangle") : QStringLiteral("stick")},
                                        {QStringLiteral("position_cm"), cm(run.partPosition[p])},
                                        {QStringLiteral("angle_deg"), deg(run.partAngle[p])}});
        for (std::size_t b = 0; b < file.rig.bones.size(); ++b)
            boneList.append(QJsonObject{{QStringLiteral("name"), QString::fromStdString(file.rig.bones[b].name)},
                                        {QStringLiteral("position_cm"), cm(run.bonePosition[b])},
                                        {QStringLiteral("angle_deg"), deg(run.boneAngle[b])}});
        const QJsonObject o{{QStringLiteral("rig"), path},
                            {QStringLiteral("clip"), clipName},
                            {QStringLiteral("source"), clip->source},
                            {QStringLiteral("drive"), drive},
                            {QStringLiteral("scene"), sceneName},
                            {QStringLiteral("frames"), qint64(run.frames)},
                            {QStringLiteral("seconds"), seconds},
                            {QStringLiteral("finite"), run.finite},
                            {QStringLiteral("fell"), run.fell},
                            {QStringLiteral("lowest_root_drop"), double(run.lowestRootHeight)},
                            {QStringLiteral("worst_position_cm"), cm(run.worstPosition)},
                            {QStringLiteral("worst_position_bone"), boneName(run.worstPositionBone)},
                            {QStringLiteral("worst_angle_deg"), deg(run.worstAngle)},
                            {QStringLiteral("worst_angle_bone"), boneName(run.worstAngleBone)},
                            {QStringLiteral("last_hit"), double(lastHit)},
                            {QStringLiteral("recovered"), run.recoveredAfter >= 0.f},
                            {QStringLiteral("recovered_after"), double(run.recoveredAfter)},
                            {QStringLiteral("max_stick_error"), double(run.maxStickError)},
                            {QStringLiteral("worst_stick"), stickName},
                            {QStringLiteral("max_penetration"), double(run.maxPenetration)},
                            {QStringLiteral("min_height"), double(run.minHeight)},
                            {QStringLiteral("max_limit_violation_deg"), deg(run.maxLimitExcess)},
                            {QStringLiteral("worst_limit"), limitName},
                            {QStringLiteral("parts"), partList},
                            {QStringLiteral("bones"), boneList}};
        io.out << QJsonDocument(o).toJson(QJsonDocument::Compact) << '\n';
        return kOk;
    }
    auto num = [](double v, int decimals = 1) { return QString::number(v, 'f', decimals); };
    auto named = [](const QString& n) { return n.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(n); };
    io.out << path << ": clip '" << clipName << "' (" << clip->source << "), " << run.frames << " frames ("
           << num(seconds, 2) << " s) on " << sceneName << ", " << drive << '\n'
           << "  finite              " << (run.finite ? "yes" : "NO") << '\n'
           << "  worst position      " << num(cm(run.worstPosition)) << " cm" << named(boneName(run.worstPositionBone)) << '\n'
           << "  worst angle         " << num(deg(run.worstAngle)) << " deg" << named(boneName(run.worstAngleBone)) << '\n'
           << "  fell                " << (run.fell ? "yes" : "no") << " (root at most "
           << num(-cm(run.lowestRootHeight)) << " cm below the clip's)\n"
           << "  recovered           ";
    if (lastHit < 0.f)
        io.out << "no hit\n";
    else if (run.recoveredAfter >= 0.f)
        io.out << num(double(run.recoveredAfter), 2) << " s after the last hit (at " << num(double(lastHit), 2) << " s)\n";
    else
        io.out << "never (the last hit at " << num(double(lastHit), 2) << " s)\n";
    io.out << "  max stick error     " << num(double(run.maxStickError) * 100.0, 2) << " %" << named(stickName) << '\n'
           << "  max penetration     " << num(double(run.maxPenetration) * 1000.0) << " mm\n"
           << "  lowest particle     " << num(double(run.minHeight), 3) << " m\n"
           << "  max limit excess    " << num(deg(run.maxLimitExcess), 2) << " deg" << named(limitName) << '\n';
    int width = 4;
    for (const runtime::DrivePartData& p : parts)
        width = std::max(width, int(partName(file.rig, p).size()));
    for (const rig::Bone& b : file.rig.bones)
        width = std::max(width, int(b.name.size()));
    io.out << "  " << QStringLiteral("part").leftJustified(width) << "      cm     deg\n";
    for (std::size_t p = 0; p < parts.size(); ++p)
        io.out << "  " << partName(file.rig, parts[p]).leftJustified(width) << num(cm(run.partPosition[p])).rightJustified(8)
               << num(deg(run.partAngle[p])).rightJustified(8) << '\n';
    io.out << "  " << QStringLiteral("bone").leftJustified(width) << "      cm     deg\n";
    for (std::size_t b = 0; b < file.rig.bones.size(); ++b)
        io.out << "  " << QString::fromStdString(file.rig.bones[b].name).leftJustified(width)
               << num(cm(run.bonePosition[b])).rightJustified(8) << num(deg(run.boneAngle[b])).rightJustified(8) << '\n';
    return kOk;
}

} // namespace marionette::cli
