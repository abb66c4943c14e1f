#include "Cli.h"

#include "marionette/project/Migration.h"
#include "marionette/rig/MrigFormat.h"

#include <QCoreApplication>

#include <cmath>

#include <cstdio>

namespace marionette::cli {

namespace {

struct Command {
    const char* name;
    const char* summary;
    int (*run)(const QStringList& arguments, Io& io);
};

const Command kCommands[] = {
    {"validate", "check a .mrig rig or a .mproj project; exit 1 with the first problem", validateCommand},
    {"info", "describe a rig: format version, element counts, bones, settings", infoCommand},
    {"import", "import a skinned mesh and auto-rig it into a .mproj project", importCommand},
    {"export", "write a project's rig as a .mrig binary rig or another format (--format)", exportCommand},
    {"build", "import, auto-rig and export a mesh straight to a .mrig", buildCommand},
    {"simulate", "drop a rig onto a scene headless, apply hits, report settling and errors; or play a clip through its drives", simulateCommand},
    {"bake", "replay a project's scenario and write it as an animation clip: .glb with the skinned mesh, or .json", bakeCommand},
    {"fit-limits", "fit a project's angular limits to animation clips (range-of-motion takes, mocap)", fitLimitsCommand},
    {"render", "draw a rig (and a project's skinned mesh) at a frame of a drop into a PNG, headless", renderCommand},
    {"bench", "time World::step() on many ragdolls of a rig (piles or spread)", benchCommand},
    {"transfer", "apply a project's rig to another character's mesh (other proportions, same or mapped bones)", transferCommand},
    {"lod", "generate levels of detail of a project's rig, measure their error and cost, store them", lodCommand},
    {"plugins", "list the exporters, importers and rig templates, and the plugins that did not load", pluginsCommand},
};

void printUsage(QTextStream& s)
{
    s << "Usage: marionette COMMAND [options] [arguments]\n\n"
         "Marionette's command-line tool: builds rigs from meshes, checks, describes, simulates and benchmarks them.\n\n"
         "Commands:\n";
    for (const Command& c : kCommands)
        s << "  " << QString::fromLatin1(c.name).leftJustified(11) << c.summary << '\n';
    s << "\nOptions:\n"
         "  -h, --help     show this help, or a command's with 'marionette COMMAND --help'\n"
         "  -v, --version  show the version and the file formats this build reads\n\n"
         "Exit codes: 0 success, 1 invalid input (one 'error: FILE: where: what' line on stderr),\n"
         "2 usage error.\n";
}

} // namespace

int parseCommand(const QStringList& arguments, QCommandLineParser& parser, Io& io, const char* help,
                 const char* positional, int count)
{
    const QCommandLineOption helpOption({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help."));
    parser.addOption(helpOption);
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    if (!parser.parse(arguments))
        return usageError(io, arguments[0], parser.errorText());
    if (parser.isSet(helpOption)) {
        io.out << help;
        return kOk;
    }
    const QStringList given = parser.positionalArguments();
    if (given.size() != count)
        return usageError(io, arguments[0],
                          given.size() < count ? QStringLiteral("missing %1 argument").arg(QLatin1String(positional))
                                          : QStringLiteral("unexpected argument '%1'").arg(given.last()));
    return -1;
}

bool intOption(const QCommandLineParser& p, const QCommandLineOption& o, long lo, long hi, long& out, Io& io,
               const QString& command, int& code)
{
    if (!p.isSet(o))
        return true;
    bool ok = false;
    const long v = p.value(o).toLong(&ok);
    if (!ok || v < lo || v > hi) {
        code = usageError(io, command, QStringLiteral("--%1 must be an integer in [%2, %3], not '%4'")
                                           .arg(o.names().constLast()).arg(lo).arg(hi).arg(p.value(o)));
        return false;
    }
    out = v;
    return true;
}

bool floatOption(const QCommandLineParser& p, const QCommandLineOption& o, double lo, double hi, double& out, Io& io,
                 const QString& command, int& code)
{
    if (!p.isSet(o))
        return true;
    bool ok = false;
    const double v = p.value(o).toDouble(&ok);
    if (!ok || !std::isfinite(v) || v < lo || v > hi) {
        code = usageError(io, command, QStringLiteral("--%1 must be a number in [%2, %3], not '%4'")
                                           .arg(o.names().constLast()).arg(lo).arg(hi).arg(p.value(o)));
        return false;
    }
    out = v;
    return true;
}

QString directSolveText(const runtime::Rig::DirectSolveShape& shape)
{
    return QStringLiteral("%1 rigid sticks in one system (factor of %2 nonzeros, %3 pivots deep); %4 rows join it "
                          "near their limits")
        .arg(shape.rigidSticks)
        .arg(shape.factorNonzeros)
        .arg(shape.depth)
        .arg(shape.limitRows);
}

int fail(Io& io, const QString& message)
{
    io.err << "error: " << message << '\n';
    return kUserError;
}

int usageError(Io& io, const QString& command, const QString& message)
{
    io.err << "error: " << message << "\n";
    if (command.isEmpty())
        io.err << "Run 'marionette --help' for the commands.\n";
    else
        io.err << "Run 'marionette " << command << " --help' for its usage.\n";
    return kUsage;
}

int run(const QStringList& arguments)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    Io io{out, err};
    if (arguments.size() < 2) {
        printUsage(err);
        return kUsage;
    }
    const QString first = arguments[1];
    if (first == QLatin1String("-h") || first == QLatin1String("--help") || first == QLatin1String("help")) {
        if (first == QLatin1String("help") && arguments.size() > 2)
            return run({arguments[0], arguments[2], QStringLiteral("--help")});
        printUsage(out);
        return kOk;
    }
    if (first == QLatin1String("-v") || first == QLatin1String("--version")) {
        out << "marionette " << QCoreApplication::applicationVersion() << " (reads .mrig format up to "
            << rig::mrig::kVersionMajor << '.' << rig::mrig::kVersionMinor << ", .mproj version up to "
            << project::kProjectVersion << ")\n";
        return kOk;
    }
    for (const Command& c : kCommands)
        if (first == QLatin1String(c.name))
            return c.run(arguments.mid(1), io);
    if (first.startsWith(QLatin1Char('-')))
        return usageError(io, {}, QStringLiteral("unknown option '%1'").arg(first));
    return usageError(io, {}, QStringLiteral("unknown command '%1'").arg(first));
}

} // namespace marionette::cli
