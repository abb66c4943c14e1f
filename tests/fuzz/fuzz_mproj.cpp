// libFuzzer target for the .mproj reader (docs/project-format.md). Built by tests/fuzz/CMakeLists.txt with
// clang -fsanitize=fuzzer,address,undefined (formats/project and formats/rig are instrumented, the system's
// Qt is not); run by the ctest fuzz_mproj_smoke (run.sh).
//
// Each input is a file: it is written to a temporary file and opened with loadProject() twice, as the CLI
// opens it (strict: a rig failing validate() is refused) and as the editor does (acceptInvalidRig). An input
// whose first byte is '[' is also read, through readProject(), as the "scenarios" array of a small valid
// project, so that mutations of a scenario list reach the scenario checks without first having to build a
// rig its hits and drags can name. Besides "no crash, no out-of-bounds access, no undefined behaviour, no
// leak, no oversized allocation" (the sanitizers and -malloc_limit_mb), it checks properties and traps
// (after printing which) when one fails:
//   - a refusal is one nonempty line starting with the file name, and leaves the output project untouched;
//   - the two loads agree: the strict one loads exactly what the lenient one loads with no rig problem, and
//     refuses what the lenient one loads with a problem, with that problem as its message;
//   - a loaded project comes from a known version, has unique nonzero ids (assignMissingIds() gives none),
//     editor state naming only existing elements (pruneEditorState() removes none), and scenarios that the
//     replay (editor::runScenario) can start: every hit names an existing particle or stick, every drag an
//     existing particle with endFrame >= startFrame, durations in (0, 600];
//   - whatever loads saves (saveProject(), as the editor saves) and opens again as the current version with
//     the same rig problem and an equal document (ProjectTestSupport.h's field-by-field comparison); the
//     file is writeProject()'s text of both the original and the reopened project (so fields the comparison
//     does not list are kept too);
//   - a strictly loaded rig exports as .mrig (writeMrig()), which reads back.
#include "ProjectTestSupport.h"

#include "marionette/project/ElementIndex.h"
#include "marionette/project/Migration.h"
#include "marionette/project/ProjectFile.h"
#include "marionette/rig/Mrig.h"

#include <QByteArray>
#include <QFile>
#include <QString>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

using namespace marionette;
using namespace marionette::project;
using marionette::test::isSentinel;
using marionette::test::sentinel;

namespace {

QString gPath;         // the temporary file each input is written to
QString gSavedPath;    // the temporary file a loaded project is saved to
bool gVerbose = false; // FUZZ_MPROJ_VERBOSE=1: print the outcome of every load (to replay a finding)
const QString kScenarioFile = QStringLiteral("scenarios.mproj");

/// The project an input starting with '[' is spliced into as "scenarios": three particles, two sticks.
const QByteArray kScenarioHead =
    R"({"format": "marionette-project", "version": 2, "rig": {)"
    R"("particles": [{"id": 1, "position": [0, 1, 0]}, {"id": 2, "position": [0, 0.5, 0]},)"
    R"( {"id": 3, "position": [0.1, 0, 0]}],)"
    R"( "sticks": [{"id": 1, "a": 1, "b": 2}, {"id": 2, "a": 2, "b": 3}]}, "scenarios": )";
const QByteArray kScenarioTail = "}";

void require(bool condition, const char* what, const QString& detail = {})
{
    if (condition)
        return;
    std::fprintf(stderr, "fuzz_mproj: invariant broken: %s%s%s\n", what, detail.isEmpty() ? "" : ": ",
                 qPrintable(detail));
    __builtin_trap();
}

bool isOneLine(const QString& s)
{
    return !s.contains(u'\n') && !s.contains(u'\r');
}

/// A refusal: one nonempty line naming the file ("<file>: " or "<file> (upgraded from project version N): "),
/// the output untouched.
void checkRefusal(const LoadResult& r, const QString& fileName, const Project& out)
{
    require(!r.ok(), "checkRefusal on a successful load");
    require(isOneLine(r.error), "refusal message is one line", r.error);
    require(r.error.startsWith(fileName + QStringLiteral(": ")) ||
                r.error.startsWith(fileName + QStringLiteral(" (upgraded from project version ")),
            "refusal message starts with the file name", r.error);
    require(r.error.size() > fileName.size() + 2, "refusal message says something", r.error);
    require(isSentinel(out), "a refused load leaves the output untouched", r.error);
}

/// What the scenario replay and the editor rely on in a loaded project.
void checkLoaded(const Project& p, const LoadResult& r)
{
    require(r.fileVersion >= 0 && r.fileVersion <= kProjectVersion, "file version of a loaded project",
            QString::number(r.fileVersion));
    require(isOneLine(r.rigProblem), "rig problem is one line", r.rigProblem);
    const bool valid = p.rig.validate().empty();
    require(valid == r.rigProblem.isEmpty(), "rigProblem is set exactly when validate() fails", r.rigProblem);
    require(r.rigProblem.isEmpty() || r.rigProblem.startsWith(QStringLiteral("$.rig")),
            "rigProblem names a JSON path under $.rig", r.rigProblem);
    require(checkElementIds(p.rig).isEmpty(), "loaded ids are unique and nonzero", checkElementIds(p.rig));
    Project copy = p;
    require(assignMissingIds(copy) == 0, "a loaded project has no element without an id");
    require(pruneEditorState(copy) == 0, "a loaded project's editor state names only existing elements");

    const ElementIndex index(p.rig);
    for (const Scenario& s : p.scenarios) {
        require(s.duration > 0.f && s.duration <= 600.f, "scenario duration in (0, 600]", s.name);
        require(!s.expect.settleWithin || (*s.expect.settleWithin > 0.f && *s.expect.settleWithin <= s.duration),
                "settleWithin in (0, duration]", s.name);
        require(std::isfinite(s.dropHeight), "finite drop height", s.name);
        for (const Hit& h : s.hits) {
            require(h.target.kind == ElementKind::Particle || h.target.kind == ElementKind::Stick,
                    "a hit targets a particle or a stick", s.name);
            require(index.contains(h.target), "a hit names an existing element", s.name);
            require(h.along >= 0.f && h.along <= 1.f, "hit along in [0, 1]", s.name);
            require(std::isfinite(h.impulse.x) && std::isfinite(h.impulse.y) && std::isfinite(h.impulse.z),
                    "finite hit impulse", s.name);
        }
        for (const Drag& d : s.drags) {
            require(index.contains({ElementKind::Particle, d.particle}), "a drag names an existing particle", s.name);
            require(d.endFrame >= d.startFrame, "drag endFrame >= startFrame", s.name);
            require(d.stiffness > 0.f && d.stiffness <= 1.f, "drag stiffness in (0, 1]", s.name);
        }
    }
}

/// Save (through saveProject(), as the editor saves), open again, save again: the same document, and the
/// file holds exactly writeProject()'s bytes for both.
void checkRoundTrip(const Project& p, const LoadResult& r)
{
    const SaveResult saved = saveProject(gSavedPath, p);
    require(saved.ok(), "a loaded project saves", saved.error);
    LoadOptions lenient;
    lenient.acceptInvalidRig = true;
    Project back = sentinel();
    const LoadResult second = loadProject(gSavedPath, back, lenient);
    require(second.ok(), "a saved project loads again", second.error);
    require(second.fileVersion == kProjectVersion, "a saved project is of the current version");
    require(second.rigProblem == r.rigProblem, "a saved project has the same rig problem",
            r.rigProblem + QStringLiteral(" -> ") + second.rigProblem);
    const QString difference = test::firstDifference(p, back);
    require(difference.isEmpty(), "a saved project reads back equal", difference);

    QFile file(gSavedPath);
    require(file.open(QIODevice::ReadOnly), "the saved file opens", gSavedPath);
    const QByteArray bytes = file.readAll();
    QString error = QStringLiteral("unset");
    require(writeProject(p, error) == bytes && error.isEmpty(), "the saved file is writeProject()'s text", error);
    require(writeProject(back, error) == bytes && error.isEmpty(), "saving the reopened project gives the same bytes",
            error);
}

/// A rig that passed validate() exports and the .mrig reads back.
void checkExport(const rig::RigDescription& rig)
{
    std::string error;
    const std::vector<std::byte> bytes = rig::writeMrig(rig, &error);
    require(!bytes.empty(), "a valid rig exports as .mrig", QString::fromStdString(error));
    rig::RigDescription back;
    require(rig::readMrig(bytes, back, &error), "an exported .mrig reads back", QString::fromStdString(error));
}

/// `strict` and `lenient` are the results of the two loads of one document into `strictOut`/`lenientOut`.
void checkPair(const LoadResult& strict, const Project& strictOut, const LoadResult& lenient, const Project& lenientOut,
               const QString& fileName)
{
    if (gVerbose)
        std::fprintf(stderr, "strict: %s\nlenient: %s%s%s\n", strict.ok() ? "loaded" : qPrintable(strict.error),
                     lenient.ok() ? "loaded" : qPrintable(lenient.error),
                     lenient.rigProblem.isEmpty() ? "" : ", rig problem: ", qPrintable(lenient.rigProblem));
    if (!lenient.ok()) {
        checkRefusal(lenient, fileName, lenientOut);
        checkRefusal(strict, fileName, strictOut);
        require(strict.error == lenient.error, "both loads refuse with the same message",
                strict.error + QStringLiteral(" | ") + lenient.error);
        return;
    }
    checkLoaded(lenientOut, lenient);
    if (lenient.rigProblem.isEmpty()) {
        require(strict.ok(), "a rig without problems loads strictly", strict.error);
        require(strict.fileVersion == lenient.fileVersion && strict.rigProblem.isEmpty(), "both loads agree");
        const QString difference = test::firstDifference(strictOut, lenientOut);
        require(difference.isEmpty(), "both loads give the same project", difference);
        checkExport(strictOut.rig);
    } else {
        checkRefusal(strict, fileName, strictOut);
        require(strict.error.endsWith(QStringLiteral(": ") + lenient.rigProblem),
                "a strict load refuses with the rig problem",
                strict.error + QStringLiteral(" | ") + lenient.rigProblem);
        require(strict.fileVersion == lenient.fileVersion, "both loads report the file version");
    }
    checkRoundTrip(lenientOut, lenient);
}

/// The whole input as a file on disk, opened as the CLI and as the editor open it.
void exerciseFile(const std::uint8_t* data, std::size_t size)
{
    const QByteArray name = gPath.toLocal8Bit();
    std::FILE* f = std::fopen(name.constData(), "wb");
    require(f != nullptr, "cannot create the temporary file", gPath);
    const bool written = std::fwrite(data, 1, size, f) == size;
    require(std::fclose(f) == 0 && written, "cannot write the temporary file", gPath);

    Project strictOut = sentinel(), lenientOut = sentinel();
    const LoadResult strict = loadProject(gPath, strictOut);
    LoadOptions options;
    options.acceptInvalidRig = true;
    const LoadResult lenient = loadProject(gPath, lenientOut, options);
    checkPair(strict, strictOut, lenient, lenientOut, gPath);
}

/// The input as the scenario list of a small valid project.
void exerciseScenarios(const std::uint8_t* data, std::size_t size)
{
    const QByteArray json =
        kScenarioHead + QByteArray(reinterpret_cast<const char*>(data), qsizetype(size)) + kScenarioTail;
    Project strictOut = sentinel(), lenientOut = sentinel();
    const LoadResult strict = readProject(json, kScenarioFile, strictOut);
    LoadOptions options;
    options.acceptInvalidRig = true;
    const LoadResult lenient = readProject(json, kScenarioFile, lenientOut, options);
    checkPair(strict, strictOut, lenient, lenientOut, kScenarioFile);
}

void removeTemporaryFiles()
{
    std::remove(gPath.toLocal8Bit().constData());
    std::remove(gSavedPath.toLocal8Bit().constData());
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    const char* tmp = std::getenv("TMPDIR");
    const QString stem = QStringLiteral("%1/fuzz_mproj-%2")
                             .arg(QString::fromLocal8Bit(tmp && *tmp ? tmp : "/tmp"))
                             .arg(qint64(::getpid()));
    gPath = stem + QStringLiteral(".mproj");
    gSavedPath = stem + QStringLiteral("-saved.mproj");
    std::atexit(removeTemporaryFiles);
    const char* verbose = std::getenv("FUZZ_MPROJ_VERBOSE");
    gVerbose = verbose && *verbose && *verbose != '0';
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    exerciseFile(data, size);
    if (size > 0 && data[0] == '[')
        exerciseScenarios(data, size);
    return 0;
}
