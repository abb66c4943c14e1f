// The built-in importer: every format Assimp reads (formats/import, docs/import.md), registered with the
// plugin host like any plugin. It is the fallback: it accepts any file and reports what it cannot read.
#pragma once

#include "marionette/plugin/MeshImporter.h"

#include <QObject>

#include <stop_token>

namespace marionette::editor {

class BuiltinAssimpImporter : public QObject, public plugin::MeshImporter {
    Q_OBJECT
    Q_INTERFACES(marionette::plugin::MeshImporter)

public:
    QString shortName() const override { return QStringLiteral("assimp"); }
    QString displayName() const override { return QStringLiteral("Meshes Assimp reads (FBX, glTF, Collada, ...)"); }
    /// "Meshes (*.fbx *.gltf ...)" from import::supportedExtensions().
    QString nameFilter() const override;
    /// True for every path: Assimp is the fallback and names what it cannot read.
    bool supportsFile(const QString& path) const override;
    /// import::importScene() in a child process (the default isolation), progress passed through.
    bool read(const QString& path, const plugin::ImportSettings& settings, import::ImportedScene& out,
              QString& error) override;
    /// The same, stopped at once when `stop` is requested (then false, `cancelled` set, error "import
    /// cancelled").
    bool read(const QString& path, const plugin::ImportSettings& settings, import::ImportedScene& out,
              QString& error, std::stop_token stop, bool& cancelled);
};

} // namespace marionette::editor
