// `marionette fit-limits PROJECT [CLIP...] -o OUT`: a project's angular limits fitted to animation clips
// (editor::fitLimits, the code the editor's Tools ▸ Fit Limits from Animation runs), with a report per joint.
#include "Cli.h"

#include "marionette/editor/pluginhost/MeshImport.h"
#include "marionette/editor/preview/LimitFit.h"
#include "marionette/project/ProjectFile.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <deque>

namespace marionette::cli {

namespace {

const char* kFitLimitsHelp =
    "Usage: marionette fit-limits PROJECT.mproj [CLIP...] [--clip NAME]... [--margin DEG] -o OUT.mproj [--json]\n\n"
    "Fits the project's angular limits to animation clips (range-of-motion takes, mocap): every frame of every\n"
    "clip (each key, and 60 frames a second between) poses the rig from the clip's bones, matched to the rig's\n"
    "by name; each angular constraint's relative orientation is measured as the runtime limits it. A cone gets\n"
    "the largest angle seen plus the margin; a swing/twist joint the twist range seen (with the rest pose)\n"
    "widened by the margin and the smallest swing ellipse on its own axes holding every swing seen, each\n"
    "semi-axis plus the margin; a hinge its twist range only. Joints no clip moves keep their limits. Prints\n"
    "a report per joint (observed range, previous and fitted limits, frames beyond the previous limit) and\n"
    "writes the project to OUT atomically.\n\n"
    "Arguments:\n"
    "  PROJECT.mproj      the project to fit\n"
    "  CLIP...            mesh or animation files whose clips to use (any format the importer reads), imported\n"
    "                     with the project's unit scale and up axis; none: the clips of the project's own mesh\n\n"
    "Options:\n"
    "  --clip NAME        use only the clips of that name (repeatable; default: every clip)\n"
    "  --margin DEG       degrees added around the observed range, in [0, 90] (default 5)\n"
    "  -o, --output FILE  the project to write (required; may be PROJECT itself)\n"
    "  --json             print the report as one JSON object\n"
    "  -h, --help         show this help\n\n"
    "Exit codes: 0 written; 1 bad project or clip file, a clip file sharing no bone name with the rig, a\n"
    "non-finite key, no clip, or a write failure, with 'error: FILE: what' on stderr; 2 usage error (missing\n"
    "-o, an unknown --clip, a margin out of range).\n";

QJsonObject limitJson(const rig::AngularConstraint& c)
{
    if (c.limit == rig::AngularLimit::Cone)
        return {{QStringLiteral("cone_deg"), double(degrees(c.coneAngle))}};
    return {{QStringLiteral("twist_min_deg"), double(degrees(c.twistMin))},
            {QStringLiteral("twist_max_deg"), double(degrees(c.twistMax))},
            {QStringLiteral("swing1_deg"), double(degrees(c.swing1))},
            {QStringLiteral("swing2_deg"), double(degrees(c.swing2))}};
}

QJsonObject jointJson(const editor::JointFit& j)
{
    QJsonObject o{{QStringLiteral("name"), QString::fromStdString(j.name)},
                  {QStringLiteral("id"), qint64(j.id)},
                  {QStringLiteral("kind"), QString::fromLatin1(editor::limitKindName(j))},
                  {QStringLiteral("status"), QString::fromLatin1(editor::fitStatusName(j.status))},
                  {QStringLiteral("frames"), qint64(j.frames)},
                  {QStringLiteral("frames_outside_previous"), qint64(j.framesOutside)},
                  {QStringLiteral("previous"), limitJson(j.previous)},
                  {QStringLiteral("fitted"), limitJson(j.fitted)}};
    if (!j.note.empty())
        o.insert(QStringLiteral("note"), QString::fromStdString(j.note));
    if (j.frames > 0)
        o.insert(QStringLiteral("observed"), QJsonObject{{QStringLiteral("angle_max_deg"), double(degrees(j.maxAngle))},
                                                         {QStringLiteral("twist_min_deg"), double(degrees(j.twistMin))},
                                                         {QStringLiteral("twist_max_deg"), double(degrees(j.twistMax))},
                                                         {QStringLiteral("swing1_max_deg"), double(degrees(j.swing1Max))},
                                                         {QStringLiteral("swing2_max_deg"), double(degrees(j.swing2Max))}});
    return o;
}

/// "  neck (swing/twist): observed twist -12.3..8.1, swing 20.1 x 15.2; twist ... -> twist ...; 3 of 240
/// frames outside the previous limit", or the note of a joint left as it was.
QString jointLine(const editor::JointFit& j)
{
    auto q = [](const std::string& s) { return QString::fromStdString(s); };
    const QString line = QStringLiteral("  %1 (%2): ").arg(q(j.name), QLatin1String(editor::limitKindName(j)));
    if (j.status != editor::JointFit::Status::Fitted)
        return line + QStringLiteral("%1 (%2)").arg(q(j.note), q(editor::limitText(j.previous, j.hinge)));
    return line + QStringLiteral("observed %1; %2 -> %3; %4 of %5 frames outside the previous limit")
                      .arg(q(editor::observedText(j)), q(editor::limitText(j.previous, j.hinge)),
                           q(editor::limitText(j.fitted, j.hinge)))
                      .arg(j.framesOutside)
                      .arg(j.frames);
}

} // namespace

int fitLimitsCommand(const QStringList& arguments, Io& io)
{
    QCommandLineParser parser;
    const QCommandLineOption helpOption({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help."));
    const QCommandLineOption clipOption(QStringLiteral("clip"), QStringLiteral("Clip name."), QStringLiteral("NAME"));
    const QCommandLineOption marginOption(QStringLiteral("margin"), QStringLiteral("Degrees."), QStringLiteral("DEG"));
    const QCommandLineOption output({QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("Output project."),
                                    QStringLiteral("FILE"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("JSON report."));
    parser.addOptions({helpOption, clipOption, marginOption, output, json});
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QString command = arguments[0];
    if (!parser.parse(arguments))
        return usageError(io, command, parser.errorText());
    if (parser.isSet(helpOption)) {
        io.out << kFitLimitsHelp;
        return kOk;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty())
        return usageError(io, command, QStringLiteral("missing PROJECT.mproj argument"));
    if (!parser.isSet(output) || parser.value(output).isEmpty())
        return usageError(io, command, QStringLiteral("missing -o OUT.mproj"));
    editor::LimitFitOptions options;
    double marginDegrees = 5.0; // as given, for the report
    if (parser.isSet(marginOption)) {
        bool ok = false;
        const double value = parser.value(marginOption).toDouble(&ok);
        if (!ok || !std::isfinite(value) || value < 0.0 || value > 90.0)
            return usageError(io, command, QStringLiteral("--margin must be a number of degrees in [0, 90], not '%1'")
                                               .arg(parser.value(marginOption)));
        marginDegrees = value;
    }
    options.margin = radians(float(marginDegrees));
    const QString path = positional.first();
    const QString target = parser.value(output);

    project::Project proj;
    if (const project::LoadResult r = project::loadProject(path, proj); !r.ok())
        return fail(io, r.error);

    // The scenes the clips come from: the named files (kept alive in a deque), else the project's mesh.
    std::deque<import::ImportedScene> scenes;
    std::vector<QString> sources;
    if (positional.size() == 1) {
        QString error;
        std::optional<import::ImportedScene> mesh = importProjectMesh(proj, path, io, error);
        if (!mesh)
            return fail(io, QStringLiteral("%1: %2").arg(path, error.isEmpty()
                                                                   ? QStringLiteral("the project has no source mesh to take clips from; name clip files")
                                                                   : error));
        scenes.push_back(std::move(*mesh));
        sources.push_back(proj.sourceMesh.resolve(path));
    } else {
        for (const QString& file : positional.mid(1)) {
            if (!QFileInfo(file).isFile())
                return fail(io, QStringLiteral("%1: no such file").arg(file));
            editor::MeshImportResult imported = editor::importMesh(pluginHost(), editor::requestFor(file, proj.import));
            for (const QString& w : imported.warnings)
                io.err << "warning: " << w << '\n';
            if (!imported.ok())
                return fail(io, imported.error);
            scenes.push_back(std::move(imported.scene));
            sources.push_back(file);
        }
    }
    const QStringList wanted = parser.values(clipOption);
    std::vector<editor::LimitFitClip> clips;
    QStringList available, used;
    for (std::size_t s = 0; s < scenes.size(); ++s) {
        if (scenes[s].animations.empty() && wanted.isEmpty())
            return fail(io, QStringLiteral("%1: has no animation clips").arg(sources[s]));
        for (std::size_t c = 0; c < scenes[s].animations.size(); ++c) {
            const QString name = QString::fromStdString(scenes[s].animations[c].name);
            available << name;
            if (wanted.isEmpty() || wanted.contains(name)) {
                clips.push_back({&scenes[s], c, sources[s].toStdString()});
                used << name;
            }
        }
    }
    for (const QString& name : wanted)
        if (!used.contains(name))
            return usageError(io, command, QStringLiteral("no clip '%1' (clips: %2)")
                                               .arg(name, available.isEmpty() ? QStringLiteral("none")
                                                                              : available.join(QStringLiteral(", "))));

    editor::LimitFitResult result;
    std::string error;
    if (!editor::fitLimits(proj.rig, clips, options, result, error)) {
        const QString message = QString::fromStdString(error);
        // fitLimits names the clip's file first; a problem of the rig or the options names the project.
        const bool namesFile = std::any_of(sources.begin(), sources.end(),
                                           [&](const QString& s) { return message.startsWith(s + QLatin1Char(':')); });
        return fail(io, namesFile ? message : QStringLiteral("%1: %2").arg(path, message));
    }

    const std::size_t changed = result.changed().size();
    proj.rig.angular = result.constraints;
    // A project written to another folder still finds its mesh.
    if (!proj.sourceMesh.path.isEmpty() &&
        QFileInfo(target).absoluteDir() != QFileInfo(path).absoluteDir())
        proj.sourceMesh.path = project::SourceMesh::relativePath(proj.sourceMesh.resolve(path), target);
    const project::SaveResult saved = project::saveProject(target, proj);
    if (!saved.ok())
        return fail(io, saved.error);

    if (parser.isSet(json)) {
        QJsonArray joints, clipList;
        for (const editor::JointFit& j : result.joints)
            joints.append(jointJson(j));
        for (const editor::LimitFitClip& c : clips)
            clipList.append(QJsonObject{{QStringLiteral("file"), QString::fromStdString(c.source)},
                                        {QStringLiteral("name"), QString::fromStdString(c.scene->animations[c.clip].name)}});
        io.out << QJsonDocument(QJsonObject{{QStringLiteral("project"), path},
                                            {QStringLiteral("output"), target},
                                            {QStringLiteral("margin_deg"), marginDegrees},
                                            {QStringLiteral("frames"), qint64(result.framesSampled)},
                                            {QStringLiteral("clips"), clipList},
                                            {QStringLiteral("changed"), qint64(changed)},
                                            {QStringLiteral("joints"), joints}})
                      .toJson(QJsonDocument::Compact)
               << '\n';
        return kOk;
    }
    io.out << "fitted " << path << " to " << clips.size() << (clips.size() == 1 ? " clip" : " clips") << " ("
           << result.framesSampled << " frames), margin " << QString::number(marginDegrees, 'f', 1) << " deg; angles in degrees:\n";
    for (const editor::JointFit& j : result.joints)
        io.out << jointLine(j) << '\n';
    io.out << "wrote " << target << ": " << changed << " of " << result.joints.size() << " angular limits changed\n";
    return kOk;
}

} // namespace marionette::cli
