// Marionette — writing a whole file atomically (QSaveFile): on any failure an existing file is left as it was.
// The exporters' files and the baked clips go through it.
#pragma once

#include <QByteArray>
#include <QString>

namespace marionette::project {

/// Writes `bytes` to `path`, replacing it only once all is written. False with `error` "PATH: cannot write: WHY".
bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString& error);

} // namespace marionette::project
