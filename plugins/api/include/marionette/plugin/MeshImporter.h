// Marionette — the importer interface: another source format read into an import::ImportedScene (meshes,
// materials, skeleton, skin weights, clips), beside the built-in Assimp importer.
//
// IID MARIONETTE_MESH_IMPORTER_IID ("org.marionette.MeshImporter/1"). The built-in Assimp importer
// implements it too and is registered the same way. When a file is imported the host asks the plugin
// importers first, in load order, whether they read it (supportsFile), and falls back to Assimp.
#pragma once

#include "marionette/import/ImportedScene.h"
#include "marionette/plugin/PluginInterface.h"

#include <QObject>
#include <QString>

#include <functional>
#include <optional>

namespace marionette::plugin {

/// What the user asked for. An importer applies `scale` and `upAxis` when given (they replace what the
/// file declares) and records what it applied in ImportedScene::conversion.
struct ImportSettings {
    std::optional<float> scale;             ///< metres per unit of the file; finite and > 0 when set
    std::optional<import::UpAxis> upAxis;   ///< the file's up axis
    bool animations = true;                 ///< false: leave ImportedScene::animations empty
    /// Progress, fraction in [0, 1] never decreasing, with a short stage name; may be empty. Call it on the
    /// importing thread only; it returns quickly.
    std::function<void(float fraction, const QString& stage)> progress;
};

/// Reads one source format. Instances live until the host is destroyed (see RigExporter for ownership).
/// read() may be called on a worker thread (the editor imports off the UI thread), but never twice at
/// the same time on one instance.
class MeshImporter {
public:
    virtual ~MeshImporter() = default;

    /// [a-z][a-z0-9_-]{0,31}, e.g. "mskel"; unique among importers (see RigExporter::shortName()).
    virtual QString shortName() const = 0;
    /// One line for menus and listings, e.g. "Marionette skeleton text".
    virtual QString displayName() const = 0;
    /// A Qt file-dialog filter, e.g. "Skeleton text (*.mskel)".
    virtual QString nameFilter() const = 0;

    /// True when this importer reads `path`. Cheap: decide by extension and at most the first few KB of
    /// the file; never fail loudly (an unreadable file is simply not supported, or supported and then
    /// refused by read() with a message).
    virtual bool supportsFile(const QString& path) const = 0;

    /// Reads `path` into `out` (default-constructed by the caller). On success the scene must be in
    /// metres, right-handed, +Y up, hold at least one mesh, and pass ImportedScene::validate() (the host
    /// checks and refuses it otherwise); out.sourcePath is set to `path`. On failure returns false with
    /// `error` one line starting with the path, e.g. "rig.mskel:12: bone 'tail' names an unknown parent
    /// 'hip'". Must not throw or crash on any input file: a damaged file is an error message.
    virtual bool read(const QString& path, const ImportSettings& settings, import::ImportedScene& out,
                      QString& error) = 0;
};

} // namespace marionette::plugin

Q_DECLARE_INTERFACE(marionette::plugin::MeshImporter, MARIONETTE_MESH_IMPORTER_IID)
