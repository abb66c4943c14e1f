// Marionette — autosave and crash recovery. While a document has unsaved changes the editor writes it,
// every minute, to a recovery file owned by the running session (a QLockFile proves the owner is alive). A
// clean exit, a save or a close discards the file. At the next start, files whose owner is gone — the
// editor crashed or was killed — are offered for recovery.
#pragma once

#include "marionette/project/Project.h"

#include <QDateTime>
#include <QLockFile>
#include <QString>

#include <memory>
#include <vector>

namespace marionette::editor {

/// A recovery file left by a session that ended without discarding it.
struct RecoveryEntry {
    QString recoveryFile; ///< the autosaved .mproj
    QString originalPath; ///< where the document was saved before, empty for an untitled one
    QString displayName;  ///< "hero.mproj" or "Untitled"
    QDateTime savedAt;    ///< when the autosave was written (UTC)
};

class RecoverySession {
  public:
    /// A session writing into `folder` (created when missing). An empty folder means the default:
    /// $MARIONETTE_RECOVERY_DIR if set, else <AppLocalDataLocation>/recovery.
    explicit RecoverySession(QString folder = {});
    ~RecoverySession();
    RecoverySession(const RecoverySession&) = delete;
    RecoverySession& operator=(const RecoverySession&) = delete;

    static QString defaultFolder();
    QString folder() const { return mFolder; }
    /// The file this session autosaves into.
    QString recoveryFile() const { return mBase + QStringLiteral(".mproj"); }

    /// Writes `project` (the document as it would be saved; its mesh path relative to `originalPath`, or
    /// absolute for an untitled document) atomically. Returns false with `error` on failure; the previous
    /// autosave, if any, is then intact.
    bool write(const project::Project& project, const QString& originalPath, QString& error);
    /// Removes this session's autosave (after a save, a close, or at a clean exit).
    void discard();

    /// Autosaves left by sessions that are no longer running, newest first. This session's own is never
    /// listed. Unreadable sidecars are skipped.
    std::vector<RecoveryEntry> orphans() const;
    /// Reads an orphan back: the project with its mesh path re-expressed for `entry.originalPath` (absolute
    /// when untitled). Returns false with `error` naming the file when it cannot be read.
    static bool recover(const RecoveryEntry& entry, project::Project& out, QString& error);
    /// Deletes an orphan's files (after recovering it or when the user declines).
    static void remove(const RecoveryEntry& entry);

  private:
    QString mFolder;
    QString mBase; ///< folder/session-<pid>-<msecs>
    std::unique_ptr<QLockFile> mLock;
};

} // namespace marionette::editor
