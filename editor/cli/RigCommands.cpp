// `marionette validate FILE` and `marionette info RIG`.
#include "Cli.h"
#include "RigFiles.h"

#include "marionette/editor/autorig/Lod.h"
#include "marionette/editor/pluginhost/PluginHost.h"
#include "marionette/editor/document/Validation.h"
#include "marionette/project/ProjectFile.h"
#include "marionette/rig/Mrig.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <string>
#include <vector>

namespace marionette::cli {

namespace {

QJsonArray toJson(Vec3 v) { return {double(v.x), double(v.y), double(v.z)}; }

QString num(double v) { return QString::number(v, 'g', 6); }

struct Counts {
    std::size_t sticksByKind[4] = {0, 0, 0, 0};
    std::size_t capsules = 0, tearable = 0;
    std::size_t dotAngles = 0, cosineAngles = 0, dampedAngles = 0;
    std::size_t cones = 0, swingTwists = 0, withFriction = 0;
    std::size_t kinematic = 0;
    double totalMass = 0.0;
    std::vector<int> driver; ///< per bone: binding index or -1
    std::size_t bound = 0;
};

Counts count(const rig::RigDescription& d)
{
    Counts c;
    for (const rig::Particle& p : d.particles) {
        c.totalMass += double(p.mass);
        c.kinematic += p.mass == 0.f ? 1 : 0;
    }
    for (const rig::Stick& s : d.sticks) {
        ++c.sticksByKind[std::size_t(s.kind) & 3u];
        c.capsules += s.capsuleRadius > 0.f ? 1 : 0;
        c.tearable += s.tearRatio > 0.f ? 1 : 0;
    }
    for (const rig::AngleConstraint& a : d.angles) {
        (a.form == rig::AngleConstraint::Form::DotProduct ? c.dotAngles : c.cosineAngles) += 1;
        c.dampedAngles += a.damping > 0.f ? 1 : 0;
    }
    for (const rig::AngularConstraint& a : d.angular) {
        (a.limit == rig::AngularLimit::Cone ? c.cones : c.swingTwists) += 1;
        c.withFriction += (a.damping > 0.f || a.staticFrictionSpeed > 0.f) ? 1 : 0;
    }
    c.driver.assign(d.bones.size(), -1);
    for (std::size_t i = 0; i < d.bindings.size(); ++i)
        c.driver[std::size_t(d.bindings[i].bone)] = int(i); // validate() checked the index
    for (int b : c.driver)
        c.bound += b >= 0 ? 1 : 0;
    return c;
}

QString str(const std::string& s) { return QString::fromStdString(s); }

/// "triangle 'pelvis'", "stick 'neck_head'" or "" (unbound: follows its parent).
QString driverText(const rig::RigDescription& d, int binding)
{
    if (binding < 0)
        return {};
    const rig::BoneBinding& b = d.bindings[std::size_t(binding)];
    if (b.driver == rig::BoneBinding::Driver::Triangle)
        return QStringLiteral("triangle '%1'").arg(str(d.triangles[std::size_t(b.index)].name));
    return QStringLiteral("stick '%1'").arg(str(d.sticks[std::size_t(b.index)].name));
}

/// A drive profile's gains in a line: "motor 4 Hz (ratio 1, at most 200 N·m), pin off", "kinematic".
QString gainsText(const rig::DriveGains& g)
{
    if (g.kinematic)
        return QStringLiteral("kinematic");
    const auto spring = [](const char* what, float hz, float ratio, float most, const char* unit) {
        if (hz <= 0.f)
            return QStringLiteral("%1 off").arg(QLatin1String(what));
        QString t = QStringLiteral("%1 %2 Hz (ratio %3").arg(QLatin1String(what), num(double(hz)), num(double(ratio)));
        if (most > 0.f)
            t += QStringLiteral(", at most %1 %2").arg(num(double(most)), QString::fromUtf8(unit));
        return t + QLatin1Char(')');
    };
    return spring("motor", g.motorFrequency, g.motorDamping, g.maxTorque, "N·m") + QStringLiteral(", ") +
           spring("pin", g.pinFrequency, g.pinDamping, g.maxForce, "N");
}

QJsonObject gainsJson(const rig::DriveGains& g)
{
    QJsonObject o;
    for (const rig::DriveGainField& f : rig::kDriveGainFields)
        o.insert(QLatin1String(f.name), double(g.*f.member));
    o.insert(QStringLiteral("kinematic"), g.kinematic);
    return o;
}

/// "PATH: MESSAGE" of a verdict's first error: the line the editor's Validation list shows first.
QString firstError(const QString& path, const editor::RigVerdict& verdict)
{
    return QStringLiteral("%1: %2").arg(path, verdict.issues.front().message);
}

QString formatVersion(const RigFile& f)
{
    if (f.kind == RigFile::Kind::Mrig)
        return QStringLiteral(".mrig format %1.%2").arg(f.mrig.versionMajor).arg(f.mrig.versionMinor);
    return QStringLiteral(".mproj version %1").arg(f.projectVersion);
}

const char* kValidateHelp =
    "Usage: marionette validate [--json] FILE\n\n"
    "Checks a .mrig binary rig or a .mproj project (told apart by content): structure, checksums, every\n"
    "index, number and limit, and the editor's checks of the rig (its Validation list: the same verdict as\n"
    "the editor's and `export`'s). Prints one line per file: for an invalid rig, its first error.\n\n"
    "Options:\n"
    "  --json      print the result as a JSON object on stdout\n"
    "  -h, --help  show this help\n\n"
    "Exit codes: 0 valid; 1 invalid, with 'error: FILE: where: what' on stderr; 2 usage error.\n";

const char* kInfoHelp =
    "Usage: marionette info [--json] RIG\n\n"
    "Describes a .mrig rig (or the rig of a .mproj project): format version, the count of every kind of\n"
    "element, the bones and what drives each, the drive profiles, and the simulation settings.\n\n"
    "Options:\n"
    "  --json      print a JSON object instead of text\n"
    "  -h, --help  show this help\n\n"
    "Exit codes: 0 success; 1 unreadable or invalid file, with 'error: ...' on stderr; 2 usage error.\n";

const char* kExportHelp =
    "Usage: marionette export PROJECT.mproj -o FILE [--format NAME]\n\n"
    "Writes the rig of a project in a file format: the .mrig binary rig a game loads (the default), or the\n"
    "format of an exporter plugin ('marionette plugins' lists them, e.g. json). The project must load and\n"
    "its rig must have no error in the editor's checks (as 'marionette validate' reports them). The file is\n"
    "replaced atomically: on any failure an existing FILE is left as it was.\n\n"
    "Options:\n"
    "  -o, --output FILE  the file to write (required)\n"
    "  --format NAME      the exporter: mrig (default) or a plugin's short name\n"
    "  -h, --help         show this help\n\n"
    "Exit codes: 0 written; 1 bad project or write failure, with 'error: ...' on stderr; 2 usage error\n"
    "(including an unknown format, with the list of available ones).\n";

} // namespace

int exportCommand(const QStringList& arguments, Io& io)
{
    QCommandLineParser parser;
    const QCommandLineOption output({QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("Output file."),
                                    QStringLiteral("FILE"));
    const QCommandLineOption format(QStringLiteral("format"), QStringLiteral("Exporter."), QStringLiteral("NAME"));
    parser.addOptions({output, format});
    if (const int code = parseCommand(arguments, parser, io, kExportHelp, "PROJECT.mproj"); code >= 0)
        return code;
    const QString formatName = parser.isSet(format) ? parser.value(format) : QStringLiteral("mrig");
    const editor::PluginHost& host = pluginHost();
    const plugin::RigExporter* exporter = host.exporter(formatName);
    if (!exporter)
        return usageError(io, arguments[0], QStringLiteral("unknown format '%1' (available: %2)")
                                                .arg(formatName, host.names(editor::PluginKind::Exporter).join(QStringLiteral(", "))));
    if (!parser.isSet(output) || parser.value(output).isEmpty())
        return usageError(io, arguments[0], formatName == QLatin1String("mrig") ? QStringLiteral("missing -o RIG.mrig")
                                                                                : QStringLiteral("missing -o FILE.%1").arg(exporter->fileExtension()));
    const QString path = parser.positionalArguments().first();
    const QString target = parser.value(output);
    project::Project proj;
    editor::RigVerdict verdict;
    QString error = loadJudgedProject(path, proj, verdict);
    if (!error.isEmpty())
        return fail(io, error);
    const plugin::ExportContext context{target, path, QStringLiteral("marionette %1").arg(QCoreApplication::applicationVersion())};
    if (!editor::PluginHost::exportRig(*exporter, *verdict.valid, context, &error))
        return fail(io, error);
    const rig::RigDescription& d = proj.rig;
    io.out << "wrote " << target << " (" << QFileInfo(target).size() << " bytes): " << d.particles.size()
           << " particles, " << d.sticks.size() << " sticks, " << d.triangles.size() << " triangles, "
           << d.angular.size() << " angular constraints, " << d.bones.size() << " bones\n";
    // Levels of detail beside it: NAME.lod1.EXT, NAME.lod2.EXT, ... (the loader validated each level's rig).
    std::vector<QString> written;
    const bool levelsWritten = editor::PluginHost::exportLevels(*exporter, proj.lods, context, written, &error);
    for (std::size_t k = 0; k < written.size(); ++k) {
        const rig::RigDescription& level = proj.lods[k].rig;
        io.out << "wrote " << written[k] << " (" << QFileInfo(written[k]).size() << " bytes): level of detail " << k + 1
               << " of " << proj.lods.size() << ", " << level.particles.size() << " particles, "
               << editor::boundBones(level).size() << " bound bones\n";
    }
    if (!levelsWritten)
        return fail(io, error);
    return kOk;
}

int validateCommand(const QStringList& arguments, Io& io)
{
    QCommandLineParser parser;
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("JSON output."));
    parser.addOption(json);
    if (const int code = parseCommand(arguments, parser, io, kValidateHelp, "FILE"); code >= 0)
        return code;
    const QString path = parser.positionalArguments().first();
    RigFile file;
    QString error = loadRigFile(path, file, true);
    const bool loaded = error.isEmpty();
    editor::RigVerdict verdict;
    if (loaded) {
        verdict = editor::rigVerdict(file.rig); // the editor's verdict (without the mesh: not imported here)
        if (!verdict.ok())
            error = firstError(path, verdict);
    }
    if (parser.isSet(json)) {
        QJsonObject o{{QStringLiteral("file"), path}, {QStringLiteral("valid"), error.isEmpty()}};
        if (error.isEmpty()) {
            o.insert(QStringLiteral("kind"), QLatin1String(kindName(file.kind)));
            o.insert(QStringLiteral("format"), formatVersion(file));
        } else {
            o.insert(QStringLiteral("error"), error);
        }
        if (loaded) {
            QJsonArray errors, warnings;
            for (const editor::ValidationIssue& issue : verdict.issues)
                (issue.severity == editor::Severity::Error ? errors : warnings).append(issue.message);
            o.insert(QStringLiteral("errors"), errors);
            o.insert(QStringLiteral("warnings"), warnings);
        }
        io.out << QJsonDocument(o).toJson(QJsonDocument::Compact) << '\n';
    }
    if (!error.isEmpty())
        return fail(io, error);
    if (!parser.isSet(json)) {
        const rig::RigDescription& d = file.rig;
        io.out << path << ": valid (" << formatVersion(file) << "): " << d.particles.size() << " particles, "
               << d.sticks.size() << " sticks, " << d.triangles.size() << " triangles, " << d.angular.size()
               << " angular constraints, " << d.bones.size() << " bones\n";
    }
    return kOk;
}

int infoCommand(const QStringList& arguments, Io& io)
{
    QCommandLineParser parser;
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("JSON output."));
    parser.addOption(json);
    if (const int code = parseCommand(arguments, parser, io, kInfoHelp, "RIG"); code >= 0)
        return code;
    const QString path = parser.positionalArguments().first();
    RigFile file;
    if (const QString error = loadRigFile(path, file); !error.isEmpty())
        return fail(io, error);
    const rig::RigDescription& d = file.rig;
    const rig::Settings& st = d.settings;
    const Counts c = count(d);
    static const char* kStickKinds[4] = {"rigid", "range", "minOnly", "maxOnly"};
    // What the direct solve works on (docs/physics.md): the rig compiled as the runtime compiles it. Nothing
    // for the other solvers, or when the rig does not compile (validate says why).
    std::optional<runtime::Rig::DirectSolveShape> shape;
    bool compiled = false;
    if (st.solver == rig::SolverMode::Direct)
        if (const std::shared_ptr<const runtime::Rig> built = runtime::Rig::build(d)) {
            compiled = true;
            shape = built->directSolveShape();
        }

    if (parser.isSet(json)) {
        QJsonObject format{{QStringLiteral("kind"), QLatin1String(kindName(file.kind))}};
        if (file.kind == RigFile::Kind::Mrig) {
            format.insert(QStringLiteral("major"), file.mrig.versionMajor);
            format.insert(QStringLiteral("minor"), file.mrig.versionMinor);
            format.insert(QStringLiteral("chunks"), qint64(file.mrig.chunkCount));
            format.insert(QStringLiteral("unknownChunks"), qint64(file.mrig.unknownChunks));
        } else {
            format.insert(QStringLiteral("version"), file.projectVersion);
        }
        QJsonObject sticks{{QStringLiteral("total"), qint64(d.sticks.size())},
                           {QStringLiteral("capsules"), qint64(c.capsules)},
                           {QStringLiteral("tearable"), qint64(c.tearable)}};
        for (int k = 0; k < 4; ++k)
            sticks.insert(QLatin1String(kStickKinds[k]), qint64(c.sticksByKind[k]));
        QJsonArray bones;
        for (std::size_t i = 0; i < d.bones.size(); ++i) {
            const rig::Bone& b = d.bones[i];
            QJsonObject o{{QStringLiteral("name"), str(b.name)}, {QStringLiteral("id"), qint64(b.id)}};
            o.insert(QStringLiteral("parent"), b.parent >= 0 ? QJsonValue(str(d.bones[std::size_t(b.parent)].name))
                                                             : QJsonValue(QJsonValue::Null));
            const QString drv = driverText(d, c.driver[i]);
            o.insert(QStringLiteral("driver"), drv.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(drv));
            bones.append(o);
        }
        QJsonArray profiles;
        for (const rig::DriveProfile& p : d.driveProfiles)
            profiles.append(QJsonObject{{QStringLiteral("name"), str(p.name)},
                                        {QStringLiteral("id"), qint64(p.id)},
                                        {QStringLiteral("parts"), qint64(p.parts.size())},
                                        {QStringLiteral("defaults"), gainsJson(p.defaults)}});
        const QJsonObject settings{
            {QStringLiteral("gravity"), toJson(st.gravity)},
            {QStringLiteral("timeStep"), double(st.timeStep)},
            {QStringLiteral("maxSubsteps"), qint64(st.maxSubsteps)},
            {QStringLiteral("substeps"), qint64(st.substeps)},
            {QStringLiteral("iterations"), qint64(st.iterations)},
            {QStringLiteral("damping"), double(st.damping)},
            {QStringLiteral("friction"), double(st.friction)},
            {QStringLiteral("staticFrictionSpeed"), double(st.staticFrictionSpeed)},
            {QStringLiteral("sleepVelocity"), double(st.sleepVelocity)},
            {QStringLiteral("sleepTime"), double(st.sleepTime)},
            {QStringLiteral("overRelaxation"), double(st.overRelaxation)},
            {QStringLiteral("sqrtApproximation"), st.sqrtApproximation},
            {QStringLiteral("selfCollision"), st.selfCollision},
            {QStringLiteral("solver"), QLatin1String(rig::toString(st.solver))},
        };
        const QJsonObject o{
            {QStringLiteral("file"), path},
            {QStringLiteral("fileSize"), file.fileSize},
            {QStringLiteral("format"), format},
            {QStringLiteral("name"), str(d.name)},
            {QStringLiteral("particles"), QJsonObject{{QStringLiteral("total"), qint64(d.particles.size())},
                                                      {QStringLiteral("kinematic"), qint64(c.kinematic)},
                                                      {QStringLiteral("totalMass"), c.totalMass}}},
            {QStringLiteral("sticks"), sticks},
            {QStringLiteral("angles"), QJsonObject{{QStringLiteral("total"), qint64(d.angles.size())},
                                                   {QStringLiteral("dotProduct"), qint64(c.dotAngles)},
                                                   {QStringLiteral("lawOfCosines"), qint64(c.cosineAngles)},
                                                   {QStringLiteral("damped"), qint64(c.dampedAngles)}}},
            {QStringLiteral("triangles"), qint64(d.triangles.size())},
            {QStringLiteral("angular"), QJsonObject{{QStringLiteral("total"), qint64(d.angular.size())},
                                                    {QStringLiteral("cone"), qint64(c.cones)},
                                                    {QStringLiteral("swingTwist"), qint64(c.swingTwists)},
                                                    {QStringLiteral("withFriction"), qint64(c.withFriction)}}},
            {QStringLiteral("pins"), qint64(d.pins.size())},
            {QStringLiteral("shapes"), qint64(d.shapes.size())},
            {QStringLiteral("bones"), QJsonObject{{QStringLiteral("total"), qint64(d.bones.size())},
                                                  {QStringLiteral("bound"), qint64(c.bound)},
                                                  {QStringLiteral("unbound"), qint64(d.bones.size() - c.bound)},
                                                  {QStringLiteral("list"), bones}}},
            {QStringLiteral("driveProfiles"), profiles},
            {QStringLiteral("settings"), settings},
            {QStringLiteral("directSolve"),
             shape ? QJsonValue(QJsonObject{{QStringLiteral("rigidSticks"), qint64(shape->rigidSticks)},
                                            {QStringLiteral("factorNonzeros"), qint64(shape->factorNonzeros)},
                                            {QStringLiteral("depth"), qint64(shape->depth)},
                                            {QStringLiteral("limitRows"), qint64(shape->limitRows)}})
                   : QJsonValue(QJsonValue::Null)},
        };
        QJsonObject withLods = o;
        if (file.kind == RigFile::Kind::Project) {
            QJsonArray lods;
            for (std::size_t k = 0; k < file.lods.size(); ++k) {
                const project::LodLevel& level = file.lods[k];
                QJsonObject l{{QStringLiteral("level"), qint64(k + 1)},
                              {QStringLiteral("targetParticles"), qint64(level.targetParticles)},
                              {QStringLiteral("particles"), qint64(level.rig.particles.size())},
                              {QStringLiteral("boundBones"), qint64(editor::boundBones(level.rig).size())}};
                if (const auto& m = level.measurement) {
                    l.insert(QStringLiteral("errorMeanCm"), double(m->errorMeanCm));
                    l.insert(QStringLiteral("errorMaxCm"), double(m->errorMaxCm));
                    l.insert(QStringLiteral("usPerRagdollStep"), double(m->usPerRagdollStep));
                    l.insert(QStringLiteral("runs"), qint64(m->runs));
                    l.insert(QStringLiteral("frames"), qint64(m->frames));
                    l.insert(QStringLiteral("benchRagdolls"), qint64(m->benchRagdolls));
                    l.insert(QStringLiteral("benchFrames"), qint64(m->benchFrames));
                }
                lods.append(l);
            }
            withLods.insert(QStringLiteral("lods"), lods);
        }
        io.out << QJsonDocument(withLods).toJson(QJsonDocument::Indented);
        return kOk;
    }

    auto row = [&](const char* label, const QString& value) {
        io.out << "  " << QString::fromLatin1(label).leftJustified(12) << value << '\n';
    };
    io.out << path << '\n';
    QString fmt = formatVersion(file);
    if (file.kind == RigFile::Kind::Mrig) {
        fmt += QStringLiteral(", %1 bytes, %2 chunks").arg(file.fileSize).arg(file.mrig.chunkCount);
        if (file.mrig.unknownChunks > 0)
            fmt += QStringLiteral(" (%1 from a newer minor version, skipped)").arg(file.mrig.unknownChunks);
    } else if (!file.projectName.isEmpty()) {
        fmt += QStringLiteral(", project '%1'").arg(file.projectName);
    }
    row("format", fmt);
    row("name", d.name.empty() ? QStringLiteral("(unnamed)") : str(d.name));
    row("particles", QStringLiteral("%1 (total mass %2 kg, %3 kinematic)")
                         .arg(d.particles.size()).arg(num(c.totalMass)).arg(c.kinematic));
    row("sticks", QStringLiteral("%1 (rigid %2, range %3, min-only %4, max-only %5; %6 capsules, %7 tearable)")
                      .arg(d.sticks.size()).arg(c.sticksByKind[0]).arg(c.sticksByKind[1]).arg(c.sticksByKind[2])
                      .arg(c.sticksByKind[3]).arg(c.capsules).arg(c.tearable));
    row("angles", QStringLiteral("%1 (dot-product %2, law-of-cosines %3; %4 with bend damping)")
                      .arg(d.angles.size()).arg(c.dotAngles).arg(c.cosineAngles).arg(c.dampedAngles));
    row("triangles", QString::number(d.triangles.size()));
    row("angular", QStringLiteral("%1 (cone %2, swing/twist %3; %4 with friction)")
                       .arg(d.angular.size()).arg(c.cones).arg(c.swingTwists).arg(c.withFriction));
    row("pins", QString::number(d.pins.size()));
    row("shapes", QString::number(d.shapes.size()));
    row("bones", QStringLiteral("%1 (%2 bound, %3 follow their parent)")
                     .arg(d.bones.size()).arg(c.bound).arg(d.bones.size() - c.bound));
    for (std::size_t i = 0; i < d.bones.size(); ++i) {
        const rig::Bone& b = d.bones[i];
        const QString drv = driverText(d, c.driver[i]);
        io.out << "    " << str(b.name).leftJustified(16) << ' '
               << (b.parent >= 0 ? QStringLiteral("parent %1").arg(str(d.bones[std::size_t(b.parent)].name))
                                 : QStringLiteral("root"))
                      .leftJustified(22)
               << ' ' << (drv.isEmpty() ? QStringLiteral("unbound") : QStringLiteral("driven by %1").arg(drv)) << '\n';
    }
    auto plural = [](std::size_t n, const char* one, const char* many) {
        return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
    };
    row("drives", d.driveProfiles.empty() ? QStringLiteral("no profiles")
                                          : plural(d.driveProfiles.size(), "profile", "profiles"));
    for (const rig::DriveProfile& p : d.driveProfiles)
        io.out << "    " << str(p.name).leftJustified(16) << ' '
               << plural(p.parts.size(), "part", "parts").append(QStringLiteral(" overridden")).leftJustified(22)
               << " defaults " << gainsText(p.defaults) << '\n';
    row("settings", QStringLiteral("solver %1, %2 of %3 per step of %4 s (at most %5 per advance)")
                        .arg(QLatin1String(rig::toString(st.solver)), plural(st.substeps, "substep", "substeps"),
                             plural(st.iterations, "iteration", "iterations"), num(double(st.timeStep)),
                             plural(st.maxSubsteps, "step", "steps")));
    row("", QStringLiteral("gravity (%1, %2, %3) m/s², damping %4 1/s, over-relaxation %5")
                .arg(num(double(st.gravity.x)), num(double(st.gravity.y)), num(double(st.gravity.z)),
                     num(double(st.damping)), num(double(st.overRelaxation))));
    row("", QStringLiteral("friction %1, static friction speed %2 m/s, sleep below %3 m/s for %4 s")
                .arg(num(double(st.friction)), num(double(st.staticFrictionSpeed)), num(double(st.sleepVelocity)),
                     num(double(st.sleepTime))));
    row("", QStringLiteral("square-root approximation %1, self-collision %2")
                .arg(QLatin1String(st.sqrtApproximation ? "on" : "off"), QLatin1String(st.selfCollision ? "on" : "off")));
    if (shape)
        row("direct", directSolveText(*shape));
    else if (compiled)
        row("direct", QStringLiteral("relaxed by Gauss–Seidel instead (no rigid sticks, or too many for one system)"));
    if (!file.lods.empty()) {
        row("levels", QStringLiteral("%1 of detail (exported as NAME.lodK.mrig)").arg(file.lods.size()));
        for (std::size_t k = 0; k < file.lods.size(); ++k) {
            const project::LodLevel& level = file.lods[k];
            QString figures = QStringLiteral("not measured");
            if (const auto& m = level.measurement)
                figures = QStringLiteral("error mean %1 cm, max %2 cm, %3 us/ragdoll-step (%4 runs, %5 frames; %6 ragdolls x %7 steps)")
                              .arg(double(m->errorMeanCm), 0, 'f', 2).arg(double(m->errorMaxCm), 0, 'f', 2)
                              .arg(double(m->usPerRagdollStep), 0, 'f', 2).arg(m->runs).arg(m->frames)
                              .arg(m->benchRagdolls).arg(m->benchFrames);
            io.out << "    lod" << k + 1 << "  " << level.rig.particles.size() << " particles, "
                   << editor::boundBones(level.rig).size() << '/' << c.bound << " bones bound, " << figures << '\n';
        }
    }
    return kOk;
}

} // namespace marionette::cli
