// Whole-file reads and writes for tests that prepare inputs and check outputs. Header-only.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

namespace marionette::test {

/// Writes `bytes` to `path` (created or truncated); false when it cannot.
inline bool writeBytes(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

/// The bytes of `path`; empty when it cannot be read.
inline QByteArray readBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace marionette::test
