// Runs a sample program (or the marionette command line) as a child process, as a user would, and keeps what
// it printed, for the tests of samples/.
#pragma once

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

namespace samples {

struct Run {
    int exitCode = -1; ///< -1 when the program did not finish normally (crash, timeout, not found)
    QString out, err;

    /// Everything printed, for failure messages.
    QString describe() const { return QStringLiteral("exit %1\nstdout:\n%2\nstderr:\n%3").arg(exitCode).arg(out, err); }
    /// The captures of the first match of `pattern` in stdout; empty when there is none.
    QStringList capture(const QString& pattern) const
    {
        const QRegularExpressionMatch m = QRegularExpression(pattern).match(out);
        return m.hasMatch() ? m.capturedTexts().mid(1) : QStringList{};
    }
};

inline Run run(const QString& program, const QStringList& arguments, int timeoutMs = 60000)
{
    QProcess p;
    p.start(program, arguments);
    Run r;
    if (!p.waitForFinished(timeoutMs) || p.exitStatus() != QProcess::NormalExit) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("did not finish normally: ") + p.errorString();
        return r;
    }
    r.exitCode = p.exitCode();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

inline bool writeBytes(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

inline QByteArray readBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace samples
