// The Inter-Quake Model importer (docs/plugins/README.md): IQM 2 files (Cube 2, Tesseract, the IQM SDK's
// exporters) with their meshes, materials, skeleton, skin weights and animations, read without Assimp
// (which reads no skeleton from IQM). The file is read by IqmFile.h and converted by IqmSceneBuilder.h.
#pragma once

#include "marionette/plugin/MeshImporter.h"

#include <QObject>

namespace marionette::plugins {

class IqmImporter : public QObject, public plugin::MeshImporter {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID MARIONETTE_MESH_IMPORTER_IID FILE "iqm_importer.json")
    Q_INTERFACES(marionette::plugin::MeshImporter)

  public:
    QString shortName() const override { return QStringLiteral("iqm"); }
    QString displayName() const override { return QStringLiteral("Inter-Quake Model (skeleton, skin, animations)"); }
    QString nameFilter() const override { return QStringLiteral("Inter-Quake models (*.iqm)"); }
    /// A path ending in ".iqm" (any case), or any regular file starting with the IQM magic
    /// "INTERQUAKEMODEL\0". A damaged .iqm is taken, so read() says what is wrong with it.
    bool supportsFile(const QString& path) const override;
    /// Metres and +Y up (IqmSceneBuilder.h: Z-up source, the bind pose fitted to 1.75 m unless
    /// settings.scale is given). Errors are one line starting with the path:
    /// "mrfixit.iqm: joint 3 names parent 7, not an earlier joint".
    bool read(const QString& path, const plugin::ImportSettings& settings, import::ImportedScene& out,
              QString& error) override;
};

} // namespace marionette::plugins
