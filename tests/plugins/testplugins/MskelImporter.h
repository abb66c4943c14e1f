// A test-only importer for a tiny text format (".mskel"), so tests can feed any skeleton through the
// command line's import path. One bone per line, parents first, '#' starts a comment:
//     bone NAME PARENT X Y Z [RADIUS]
// PARENT is '-' for a root. Joints are in metres, +Y up (ImportSettings::scale multiplies them). RADIUS > 0
// skins the segment from the parent's joint to this joint to the PARENT with a ring mesh of that radius
// (tests/editor/core/AutoRigTestSupport.h's convention).
#pragma once

#include "marionette/plugin/MeshImporter.h"

#include <QObject>

class MskelImporter : public QObject, public marionette::plugin::MeshImporter {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID MARIONETTE_MESH_IMPORTER_IID FILE "mskel_importer.json")
    Q_INTERFACES(marionette::plugin::MeshImporter)

public:
    QString shortName() const override { return QStringLiteral("mskel"); }
    QString displayName() const override { return QStringLiteral("Skeleton text (test)"); }
    QString nameFilter() const override { return QStringLiteral("Skeleton text (*.mskel)"); }
    /// By extension: ".mskel".
    bool supportsFile(const QString& path) const override;
    /// Errors: "dog.mskel:3: ...", naming the line.
    bool read(const QString& path, const marionette::plugin::ImportSettings& settings,
              marionette::import::ImportedScene& out, QString& error) override;
};
