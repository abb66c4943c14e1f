// The `marionette` command line: command table, usage, exit codes.
#pragma once

#include <QCommandLineParser>
#include <QString>
#include <QStringList>
#include <QTextStream>

#include <optional>

#include "marionette/runtime/Rig.h"

namespace marionette::editor { class PluginHost; }
namespace marionette::import { struct ImportedScene; }
namespace marionette::project { struct Project; }

namespace marionette::cli {

/// Exit codes of every command.
enum Exit : int {
    kOk = 0,        ///< success
    kUserError = 1, ///< bad input file, failed check: a one-line "error: ..." on stderr
    kUsage = 2,     ///< unknown command or option, missing argument
};

/// Output streams of a command (stdout and stderr of the process).
struct Io {
    QTextStream& out;
    QTextStream& err;
};

/// Runs the command line `arguments` (arguments[0] is the program). Returns the exit code.
int run(const QStringList& arguments);

// Commands: `arguments` start with the command's name.
int validateCommand(const QStringList& arguments, Io& io);
int infoCommand(const QStringList& arguments, Io& io);
int exportCommand(const QStringList& arguments, Io& io);
int importCommand(const QStringList& arguments, Io& io);
int buildCommand(const QStringList& arguments, Io& io);
int renderCommand(const QStringList& arguments, Io& io);
int simulateCommand(const QStringList& arguments, Io& io);
int benchCommand(const QStringList& arguments, Io& io);
/// `lod PROJECT --levels 12,7 -o OUT`: levels of detail generated, measured and stored in the project.
int lodCommand(const QStringList& arguments, Io& io);
/// `simulate PROJECT --scenario NAME` (all = false) or `--all-scenarios`: replays and checks recorded scenarios.
int simulateScenarios(const QString& path, const QString& name, bool all, bool json, Io& io, const QString& command);
int pluginsCommand(const QStringList& arguments, Io& io);
/// `fit-limits PROJECT [CLIP...] -o OUT`: angular limits fitted to animation clips (editor::fitLimits).
int fitLimitsCommand(const QStringList& arguments, Io& io);

/// The project's source mesh, `proj` saved at `path`, imported as the project records it (the import's warnings
/// printed as `warning:` lines); nullopt with `error` one line, or "" when the project has no source mesh.
std::optional<import::ImportedScene> importProjectMesh(const project::Project& proj, const QString& path, Io& io,
                                                       QString& error);
/// `bake PROJECT --scenario NAME -o FILE`: a scenario replayed and written as an animation clip (.glb, .json).
int bakeCommand(const QStringList& arguments, Io& io);
/// `transfer PROJECT MESH -o OUT`: the project's rig moved onto another character (editor::transferRig).
int transferCommand(const QStringList& arguments, Io& io);

/// The plugin host the commands share: built-ins registered, the default plugin folders loaded on the first
/// call (commands that need no extension never load a plugin).
editor::PluginHost& pluginHost();

/// Parses a command's arguments (arguments[0] is the command) into `parser`, whose options the caller added;
/// adds -h/--help and expects exactly `count` positional arguments, called `positional` in messages. Returns
/// -1 to go on, else the exit code: kOk after printing `help`, kUsage after a usage error.
int parseCommand(const QStringList& arguments, QCommandLineParser& parser, Io& io, const char* help,
                 const char* positional, int count = 1);

/// Reads option `o`, when set, as an integer (intOption) or a finite number (floatOption) in [lo, hi] into
/// `out`; false with a usage error printed and `code` set when it is not one.
bool intOption(const QCommandLineParser& p, const QCommandLineOption& o, long lo, long hi, long& out, Io& io,
               const QString& command, int& code);
bool floatOption(const QCommandLineParser& p, const QCommandLineOption& o, double lo, double hi, double& out, Io& io,
                 const QString& command, int& code);
/// `simulate RIG|PROJECT --animation CLIP`: the rig driven toward a clip (editor::runDriven), hits, a kill,
/// and the tracking error (DrivenCommand.cpp).
int simulateDriven(const QStringList& arguments, Io& io);

/// What the direct solve of a rig works on, as `bench` and `info` print it: "32 rigid sticks in one system
/// (factor of 88 nonzeros, 16 pivots deep); 32 rows join it near their limits".
QString directSolveText(const runtime::Rig::DirectSolveShape& shape);

/// Prints "error: <message>" to stderr and returns kUserError.
int fail(Io& io, const QString& message);
/// Prints "error: <message>" and a pointer to the command's help to stderr and returns kUsage.
int usageError(Io& io, const QString& command, const QString& message);

} // namespace marionette::cli
