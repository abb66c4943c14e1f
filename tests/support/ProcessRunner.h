// Runs a program (the `marionette` command line, a sample) as a child process, as a user would, and keeps
// its exit code and what it printed. Shared by the suites that drive executables (tests/cli, tests/plugins,
// tests/samples). Header-only.
#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <optional>

namespace marionette::test {

/// The outcome of one run.
struct ProcessRun {
    int exitCode = -1; ///< -1 when the program did not finish normally (crash, timeout, not found)
    QString out, err;  ///< stdout and stderr as UTF-8; err says why when exitCode is -1

    /// Everything printed, for failure messages.
    QString describe() const
    {
        return QStringLiteral("exit %1\nstdout:\n%2\nstderr:\n%3").arg(exitCode).arg(out, err);
    }
    /// The captures of the first match of `pattern` in stdout; empty when there is none.
    QStringList capture(const QString& pattern) const
    {
        const QRegularExpressionMatch m = QRegularExpression(pattern).match(out);
        return m.hasMatch() ? m.capturedTexts().mid(1) : QStringList{};
    }
};

/// Runs `program arguments` and waits up to `timeoutMs` for it (then kills it). `environment`, when set,
/// replaces the inherited environment.
inline ProcessRun runProcess(const QString& program, const QStringList& arguments, int timeoutMs = 60000,
                             const std::optional<QProcessEnvironment>& environment = std::nullopt)
{
    QProcess p;
    if (environment)
        p.setProcessEnvironment(*environment);
    p.start(program, arguments);
    ProcessRun r;
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

} // namespace marionette::test
