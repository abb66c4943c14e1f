// Public entry points: parse and write documents in memory, load and save files.
#include "marionette/project/ProjectFile.h"

#include "marionette/project/AtomicFile.h"

#include "marionette/project/Migration.h"

#include "ProjectInternal.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QSaveFile>

#include <algorithm>
#include <climits>
#include <new>
#include <utility>

namespace marionette::project {

namespace {

/// Messages are one line whatever a file name, element name or key contains.
QString oneLine(QString s)
{
    for (QChar& c : s)
        if (c == u'\n' || c == u'\r' || c == u'\t')
            c = u' ';
    return s;
}

QString prefixed(const QString& fileName, const QString& message)
{
    return oneLine(fileName.isEmpty() ? message : fileName + QStringLiteral(": ") + message);
}

/// "line L, column C (offset O)", lines and columns from 1, columns counted in bytes.
QString position(const QByteArray& bytes, int offset)
{
    const qsizetype end = std::clamp<qsizetype>(offset, 0, bytes.size());
    int line = 1;
    qsizetype lineStart = 0;
    for (qsizetype i = 0; i < end; ++i)
        if (bytes[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    return QStringLiteral("line %1, column %2 (offset %3)").arg(line).arg(end - lineStart + 1).arg(offset);
}

/// A finding's message with the JSON path of its element: "sticks[3] 'name': what" (a finding's message
/// begins with its element, named as its section spells it) becomes "$.rig.sticks[3] 'name': what", a
/// problem of the settings "$.rig.settings...", one of the rig as a whole "$.rig: what".
QString rigProblemWithPath(const rig::Finding& finding)
{
    const QString message = QString::fromStdString(finding.message);
    return finding.kind == rig::ElementKind::Rig ? QStringLiteral("$.rig: ") + message : QStringLiteral("$.rig.") + message;
}

/// The first error of `rig`, with its JSON path; empty when the rig is usable.
QString firstRigError(const rig::RigDescription& rig)
{
    for (const rig::Finding& finding : rig.findings())
        if (finding.severity == rig::Severity::Error)
            return oneLine(rigProblemWithPath(finding));
    return {};
}

/// The file's bytes from the current position to the end, at most `limit` + 1 of them (one more than the
/// limit tells a larger file). Memory follows what the file holds: the buffer starts at the size the file
/// reports and grows only if the file does while it is read (QIODevice::read(n) would set aside n bytes,
/// the whole limit, for every file). False on a read error (the file's errorString() says which).
bool readAtMost(QFile& file, qint64 limit, QByteArray& out)
{
    qint64 capacity = std::clamp<qint64>(file.size(), 0, limit) + 1;
    QByteArray bytes(qsizetype(capacity), Qt::Uninitialized);
    qint64 got = 0;
    for (;;) {
        const qint64 n = file.read(bytes.data() + got, capacity - got);
        if (n < 0)
            return false;
        got += n;
        if (n == 0 || got > limit)
            break;
        if (got == capacity) {
            capacity = std::min(2 * capacity, limit + 1);
            bytes.resize(qsizetype(capacity));
        }
    }
    bytes.truncate(qsizetype(got));
    out = std::move(bytes);
    return true;
}

} // namespace

LoadResult readProject(const QByteArray& json, const QString& fileName, Project& out, const LoadOptions& options)
{
    LoadResult result;
    QString context = fileName; // grows "(upgraded from project version N)" once a migration ran
    try {
        QJsonParseError parse;
        const QJsonDocument doc = QJsonDocument::fromJson(json, &parse);
        if (parse.error != QJsonParseError::NoError) {
            result.error = prefixed(
                fileName,
                QStringLiteral("invalid JSON at %1: %2").arg(position(json, parse.offset), parse.errorString()));
            return result;
        }
        const detail::JsonPath root;
        if (!doc.isObject())
            detail::fail(root, QStringLiteral("expected an object, found %1")
                                   .arg(doc.isArray() ? QStringLiteral("an array") : QStringLiteral("nothing")));
        QJsonObject object = doc.object();
        const QJsonValue format = object.value(QLatin1StringView("format"));
        if (format.isUndefined())
            detail::fail(root.key("format"),
                         QStringLiteral("missing required field; this is not a Marionette project"));
        if (format != QJsonValue(QLatin1StringView(kProjectFormatTag)))
            detail::fail(root.key("format"),
                         QStringLiteral("not a Marionette project (expected \"%1\", found %2)")
                             .arg(QLatin1StringView(kProjectFormatTag),
                                  format.isString() ? u'"' + format.toString() + u'"' : detail::describeValue(format)));
        const QJsonValue versionValue = object.value(QLatin1StringView("version"));
        if (versionValue.isUndefined())
            detail::fail(root.key("version"), QStringLiteral("missing required field"));
        const auto version = static_cast<int>(detail::toInteger(versionValue, root.key("version"), 0, INT_MAX));
        result.fileVersion = version;
        if (version > kProjectVersion) {
            result.error = prefixed(fileName, QStringLiteral("made by a newer Marionette (project version %1); "
                                                             "this build reads up to %2")
                                                  .arg(version)
                                                  .arg(kProjectVersion));
            return result;
        }
        if (version < kProjectVersion) {
            const QString problem = migrateToCurrent(object, version);
            if (!problem.isEmpty()) {
                result.error = prefixed(fileName, problem);
                return result;
            }
            // From here paths name the upgraded document, not the file's own text.
            context = QStringLiteral("%1 (upgraded from project version %2)")
                          .arg(fileName.isEmpty() ? QStringLiteral("project") : fileName)
                          .arg(version);
        }
        Project p;
        detail::readDocument(object, p);
        if (options.validateRig) {
            if (QString problem = firstRigError(p.rig); !problem.isEmpty()) {
                if (!options.acceptInvalidRig) {
                    result.error = prefixed(context, problem);
                    return result;
                }
                result.rigProblem = std::move(problem);
            }
        }
        out = std::move(p);
    } catch (const detail::JsonError& e) {
        result.error = prefixed(context, e.message);
    } catch (const std::bad_alloc&) {
        result.error = prefixed(fileName, QStringLiteral("out of memory"));
    }
    return result;
}

LoadResult loadProject(const QString& path, Project& out, const LoadOptions& options)
{
    LoadResult result;
    const QFileInfo info(path);
    if (!info.exists()) {
        result.error = prefixed(path, QStringLiteral("cannot open: no such file"));
        return result;
    }
    if (!info.isFile()) {
        result.error = prefixed(path, info.isDir() ? QStringLiteral("cannot open: it is a folder")
                                                   : QStringLiteral("cannot open: not a regular file"));
        return result;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        result.error = prefixed(path, QStringLiteral("cannot open: %1").arg(file.errorString()));
        return result;
    }
    const QString tooLarge =
        QStringLiteral("larger than %1 MiB, the limit for a project file").arg(kMaxProjectFileBytes / (1024 * 1024));
    if (file.size() > kMaxProjectFileBytes) {
        result.error = prefixed(path, tooLarge);
        return result;
    }
    QByteArray bytes;
    if (!readAtMost(file, kMaxProjectFileBytes, bytes)) {
        result.error = prefixed(path, QStringLiteral("cannot read: %1").arg(file.errorString()));
        return result;
    }
    if (bytes.size() > kMaxProjectFileBytes) { // it grew while being read
        result.error = prefixed(path, tooLarge);
        return result;
    }
    return readProject(bytes, path, out, options);
}

QByteArray writeProject(const Project& project, QString& error)
{
    error.clear();
    try {
        return QJsonDocument(detail::writeDocument(project)).toJson(QJsonDocument::Indented);
    } catch (const detail::JsonError& e) {
        error = oneLine(e.message);
    } catch (const std::bad_alloc&) {
        error = QStringLiteral("out of memory");
    }
    return {};
}

SaveResult saveProject(const QString& path, const Project& project, const SaveOptions& options)
{
    const QString notSaved = oneLine(path) + QStringLiteral(": not saved: ");
    QString error;
    const QByteArray bytes = writeProject(project, error);
    if (!error.isEmpty())
        return {notSaved + error};
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {notSaved + file.errorString()};
    if (file.write(bytes) != bytes.size()) {
        const QString why = file.errorString();
        file.cancelWriting();
        return {notSaved + why};
    }
    if (options.beforeCommit && !options.beforeCommit(file)) {
        file.cancelWriting();
        return {notSaved + QStringLiteral("the save was abandoned before completion")};
    }
    // commit() discards the temporary file on an earlier write error and then reports "Unknown error":
    // keep the error it had.
    const QString pending = file.error() != QFileDevice::NoError ? file.errorString() : QString();
    if (!file.commit())
        return {notSaved + (pending.isEmpty() ? file.errorString() : pending)};
    return {};
}

bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString& error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        error = QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
        return false;
    }
    if (file.write(bytes) != bytes.size()) {
        error = QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
        file.cancelWriting();
        return false;
    }
    const QString pending = file.error() != QFileDevice::NoError ? file.errorString() : QString();
    if (!file.commit()) {
        error = QStringLiteral("%1: cannot write: %2").arg(path, pending.isEmpty() ? file.errorString() : pending);
        return false;
    }
    return true;
}


} // namespace marionette::project
