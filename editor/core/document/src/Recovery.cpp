#include "marionette/editor/document/Recovery.h"

#include "marionette/project/ProjectFile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>

#include <algorithm>
#include <atomic>

namespace marionette::editor {

namespace {

QString sidecarOf(const QString& base) { return base + QStringLiteral(".json"); }
QString lockOf(const QString& base) { return base + QStringLiteral(".lock"); }

// The mesh path of `project` (relative to `from`, or absolute) expressed relative to `to` (or absolute
// when `to` is empty).
void rebaseMesh(project::Project& project, const QString& from, const QString& to)
{
    if (project.sourceMesh.path.isEmpty())
        return;
    const QString absolute = from.isEmpty() ? QDir::cleanPath(QFileInfo(project.sourceMesh.path).absoluteFilePath())
                                            : project.sourceMesh.resolve(from);
    project.sourceMesh.path = to.isEmpty() ? absolute : project::SourceMesh::relativePath(absolute, to);
}

} // namespace

QString RecoverySession::defaultFolder()
{
    const QString fromEnv = qEnvironmentVariable("MARIONETTE_RECOVERY_DIR");
    if (!fromEnv.isEmpty())
        return fromEnv;
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QStringLiteral("/recovery");
}

RecoverySession::RecoverySession(QString folder) : mFolder(folder.isEmpty() ? defaultFolder() : std::move(folder))
{
    QDir().mkpath(mFolder);
    // pid and time alone collide for two sessions of one process started within a millisecond (they would
    // share one autosave file and the second could never take the lock): a per-process counter separates them.
    static std::atomic<int> sessionCount{0};
    mBase = QStringLiteral("%1/session-%2-%3-%4")
                .arg(mFolder)
                .arg(QCoreApplication::applicationPid())
                .arg(QDateTime::currentMSecsSinceEpoch())
                .arg(++sessionCount);
    mLock = std::make_unique<QLockFile>(lockOf(mBase));
    mLock->setStaleLockTime(0); // only a dead owner makes the lock stale, never its age
    mLock->tryLock(0);
}

RecoverySession::~RecoverySession()
{
    discard();
    mLock->unlock();
}

bool RecoverySession::write(const project::Project& project, const QString& originalPath, QString& error)
{
    if (!QDir().mkpath(mFolder)) {
        error = QStringLiteral("%1: cannot create the recovery folder").arg(mFolder);
        return false;
    }
    project::Project copy = project;
    rebaseMesh(copy, originalPath, recoveryFile());
    const project::SaveResult saved = project::saveProject(recoveryFile(), copy);
    if (!saved.ok()) {
        error = saved.error;
        return false;
    }
    QJsonObject meta;
    meta[QStringLiteral("originalPath")] = originalPath;
    meta[QStringLiteral("displayName")] =
        originalPath.isEmpty() ? QStringLiteral("Untitled") : QFileInfo(originalPath).fileName();
    meta[QStringLiteral("savedAt")] = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    QSaveFile sidecar(sidecarOf(mBase));
    if (!sidecar.open(QIODevice::WriteOnly) || sidecar.write(QJsonDocument(meta).toJson()) < 0 || !sidecar.commit()) {
        error = QStringLiteral("%1: not saved: %2").arg(sidecarOf(mBase), sidecar.errorString());
        return false;
    }
    return true;
}

void RecoverySession::discard()
{
    QFile::remove(recoveryFile());
    QFile::remove(sidecarOf(mBase));
}

std::vector<RecoveryEntry> RecoverySession::orphans() const
{
    std::vector<RecoveryEntry> out;
    const QDir dir(mFolder);
    for (const QFileInfo& info : dir.entryInfoList({QStringLiteral("session-*.json")}, QDir::Files)) {
        const QString base = info.absolutePath() + QLatin1Char('/') + info.completeBaseName();
        if (base == mBase)
            continue;
        // Owner alive <=> its lock is held. tryLock() succeeds (removing a stale lock) only when the owner
        // process is gone.
        QLockFile lock(lockOf(base));
        lock.setStaleLockTime(0);
        if (!lock.tryLock(0))
            continue;
        lock.unlock();
        QFile sidecar(info.absoluteFilePath());
        if (!sidecar.open(QIODevice::ReadOnly) || sidecar.size() > 64 * 1024)
            continue;
        const QJsonObject meta = QJsonDocument::fromJson(sidecar.readAll()).object();
        RecoveryEntry entry;
        entry.recoveryFile = base + QStringLiteral(".mproj");
        entry.originalPath = meta.value(QStringLiteral("originalPath")).toString();
        entry.displayName = meta.value(QStringLiteral("displayName")).toString(QStringLiteral("Untitled"));
        entry.savedAt = QDateTime::fromString(meta.value(QStringLiteral("savedAt")).toString(), Qt::ISODateWithMs);
        if (QFileInfo::exists(entry.recoveryFile))
            out.push_back(entry);
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.savedAt > b.savedAt; });
    return out;
}

bool RecoverySession::recover(const RecoveryEntry& entry, project::Project& out, QString& error)
{
    project::Project loaded;
    project::LoadOptions options;
    options.acceptInvalidRig = true; // as Document::load opens it: the validation list judges the rig
    options.validateRig = false;
    const project::LoadResult result = project::loadProject(entry.recoveryFile, loaded, options);
    if (!result.ok()) {
        error = result.error;
        return false;
    }
    rebaseMesh(loaded, entry.recoveryFile, entry.originalPath);
    out = std::move(loaded);
    return true;
}

void RecoverySession::remove(const RecoveryEntry& entry)
{
    const QString base = entry.recoveryFile.chopped(int(QStringLiteral(".mproj").size()));
    QFile::remove(entry.recoveryFile);
    QFile::remove(sidecarOf(base));
    QFile::remove(lockOf(base));
}

} // namespace marionette::editor
