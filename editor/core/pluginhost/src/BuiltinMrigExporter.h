// The built-in `.mrig` exporter (formats/rig/FORMAT.md), registered with the plugin host like any plugin.
#pragma once

#include "marionette/plugin/RigExporter.h"
#include "marionette/rig/Validation.h"

#include <QObject>

namespace marionette::editor {

class BuiltinMrigExporter : public QObject, public plugin::RigExporter {
    Q_OBJECT
    Q_INTERFACES(marionette::plugin::RigExporter)

public:
    QString shortName() const override { return QStringLiteral("mrig"); }
    QString displayName() const override { return QStringLiteral("Marionette binary rig"); }
    QString fileExtension() const override { return QStringLiteral("mrig"); }
    QString nameFilter() const override { return QStringLiteral("Marionette binary rig (*.mrig)"); }
    /// rig::writeMrig(): the file the runtime loads. Fails only on what the writer refuses.
    bool write(const rig::RigDescription& rig, const plugin::ExportContext& context, QByteArray& out,
               QString& error) const override;
    /// write() of a rig the host validated already: rig::writeMrig(const rig::Validated&), which does not
    /// validate again (PluginHost::exportRigBytes calls this for the built-in exporter).
    bool writeValidated(const rig::Validated& rig, QByteArray& out, QString& error) const;
};

} // namespace marionette::editor
