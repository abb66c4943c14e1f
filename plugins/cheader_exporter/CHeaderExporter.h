// The C/C++ header exporter: the whole rig as `static const` arrays of plain structs in one self-contained
// header that compiles as C99 and C++ (no Marionette header needed), for games that compile their rigs in.
// Layout: docs/plugins/c-header-export.md.
#pragma once

#include "marionette/plugin/RigExporter.h"

#include <QObject>

namespace marionette::plugins {

class CHeaderExporter : public QObject, public plugin::RigExporter {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID MARIONETTE_RIG_EXPORTER_IID FILE "cheader_exporter.json")
    Q_INTERFACES(marionette::plugin::RigExporter)

public:
    QString shortName() const override { return QStringLiteral("c-header"); }
    QString displayName() const override { return QStringLiteral("C/C++ header with static const arrays"); }
    QString fileExtension() const override { return QStringLiteral("h"); }
    QString nameFilter() const override { return QStringLiteral("C/C++ header (*.h)"); }
    /// Identifiers start with the target file's base name made a C identifier ("hero-rig.h" ->
    /// hero_rig_particles, hero_rig_rig), or the rig's name for an export to memory. Fails only on a
    /// non-finite number (which a checked rig does not have).
    bool write(const rig::RigDescription& rig, const plugin::ExportContext& context, QByteArray& out,
               QString& error) const override;
};

} // namespace marionette::plugins
