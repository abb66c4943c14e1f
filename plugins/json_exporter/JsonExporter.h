// The engine-neutral JSON exporter: the whole rig as one JSON document with stable ids, names and units,
// for engines and tools that do not read `.mrig`. Schema: docs/plugins/json-export.md (format
// "marionette.rig+json", version kSchemaVersion).
#pragma once

#include "marionette/plugin/RigExporter.h"

#include <QObject>

namespace marionette::plugins {

class JsonExporter : public QObject, public plugin::RigExporter {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID MARIONETTE_RIG_EXPORTER_IID FILE "json_exporter.json")
    Q_INTERFACES(marionette::plugin::RigExporter)

public:
    /// The "version" field of the documents this exporter writes; raised on any incompatible change
    /// (2: substeps and rates per second in place of per-step drag and frictions; pin stiffness per 1/60 s).
    static constexpr int kSchemaVersion = 3;

    QString shortName() const override { return QStringLiteral("json"); }
    QString displayName() const override { return QStringLiteral("Engine-neutral JSON rig"); }
    QString fileExtension() const override { return QStringLiteral("json"); }
    QString nameFilter() const override { return QStringLiteral("Marionette JSON rig (*.json)"); }
    /// Indented UTF-8 JSON, keys sorted, numbers in their shortest form that reads back to the same float.
    /// Never fails on a rig the host has checked.
    bool write(const rig::RigDescription& rig, const plugin::ExportContext& context, QByteArray& out,
               QString& error) const override;
};

} // namespace marionette::plugins
