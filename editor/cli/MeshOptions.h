// The mesh-import options the commands that read a mesh share (import, build, transfer): --scale, --up and
// --strict parsed into an editor::MeshImportRequest, and the import with a progress line on a terminal.
#pragma once

#include "Cli.h"

#include "marionette/editor/pluginhost/MeshImport.h"

#include <QCommandLineOption>
#include <QCommandLineParser>

#include <optional>

namespace marionette::cli {

struct MeshOptions {
    QCommandLineOption scale{QStringLiteral("scale"), {}, QStringLiteral("S")};
    QCommandLineOption up{QStringLiteral("up"), {}, QStringLiteral("y|z")};
    QCommandLineOption strict{QStringLiteral("strict"), {}};

    void addTo(QCommandLineParser& parser) const;
    /// The request for `path` with the options given. Returns -1 to go on, else kUsage after a usage error
    /// ("--scale must be a number in (0, 1e6], not 'x'", "--up must be y or z, not 'x'").
    int request(const QCommandLineParser& parser, const QString& path, Io& io, const QString& command,
                editor::MeshImportRequest& out) const;
};

/// editor::importMesh() through the command line's plugin host, with "importing: STAGE N %" on stderr when
/// it is a terminal.
editor::MeshImportResult importMeshFile(editor::MeshImportRequest& request, Io& io);

} // namespace marionette::cli
