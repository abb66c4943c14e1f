// Marionette — reading and writing `.mproj` project documents (JSON; schema in docs/project-format.md).
//
// Every failure is one line: the file name, the JSON path of the problem and what is wrong, e.g.
//   robot.mproj: $.rig.sticks[3].b: no particle with id 12
// A failed load leaves the output Project untouched; a failed save leaves the previous file untouched.
#pragma once

#include "marionette/project/Project.h"

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <functional>

QT_BEGIN_NAMESPACE
class QSaveFile;
QT_END_NAMESPACE

namespace marionette::project {

/// Largest file loadProject() reads; a project of ten thousand elements is a few megabytes.
constexpr qint64 kMaxProjectFileBytes = 64 * 1024 * 1024;
/// Most elements of one kind a project holds (reading and writing refuse more), so that a hostile file of
/// tiny entries cannot make the reader allocate gigabytes of rig.
constexpr std::size_t kMaxElementsPerKind = 1'000'000;

struct LoadOptions {
    /// false (default): a rig failing RigDescription::validate() is a load error.
    /// true: such a project loads and LoadResult::rigProblem carries the message. The editor opens files
    /// this way, because saving does not require a valid rig (an artist may save half-way through an edit).
    bool acceptInvalidRig = false;
    /// false: the rig is not validated here at all (an invalid one loads, rigProblem stays empty), for a
    /// caller that judges the rig itself right after (the editor's document and the command line's validate
    /// and export, through editor::rigVerdict), so a load and its verdict validate once.
    bool validateRig = true;
};

struct LoadResult {
    QString error;        ///< empty on success, else the one-line message
    int fileVersion = -1; ///< version the file was written in (older ones were migrated); -1 if unknown
    QString rigProblem;   ///< with acceptInvalidRig: the first error's message with its JSON path, else empty
    bool ok() const { return error.isEmpty(); }
};

struct SaveOptions {
    /// Test seam: called after the whole document was written to the temporary file and before it replaces
    /// the target. Returning false abandons the save, exactly as a failed write does.
    std::function<bool(QSaveFile&)> beforeCommit;
};

struct SaveResult {
    QString error; ///< empty on success
    bool ok() const { return error.isEmpty(); }
};

/// Parses a project document from memory. `fileName` only prefixes messages (may be empty). Older
/// versions are migrated (Migration.h); newer ones are refused. On failure `out` is untouched.
LoadResult readProject(const QByteArray& json, const QString& fileName, Project& out, const LoadOptions& options = {});

/// Reads and parses the file at `path` (at most kMaxProjectFileBytes, a regular file).
LoadResult loadProject(const QString& path, Project& out, const LoadOptions& options = {});

/// Serialises to indented JSON of the current version. Fails, returning an empty array and setting
/// `error` to "$.path: message", when the project cannot be written faithfully: an element id that is 0 or
/// repeated within its kind, an index out of range, an unknown enum value, a NaN or infinite number, or
/// editor state or a scenario naming a missing element or holding a value out of range. It does not
/// require the rig to pass validate().
QByteArray writeProject(const Project& project, QString& error);

/// writeProject() then an atomic replace of `path` through QSaveFile (write a temporary file beside it,
/// then rename). On any failure the previous file, if any, is unchanged and the message starts with
/// "<path>: not saved: ".
SaveResult saveProject(const QString& path, const Project& project, const SaveOptions& options = {});

/// First problem with the rig's element ids as "$.rig.<section>[i].id: message": an id of 0 or one used
/// twice within a kind. Empty when every element has a unique nonzero id.
QString checkElementIds(const rig::RigDescription& rig);

} // namespace marionette::project
