// A test-only exporter built several times with another IID or short name (TEST_PLUGIN_IID,
// TEST_PLUGIN_NAME; TEST_PLUGIN_NO_INTERFACE leaves out Q_INTERFACES), to prove what the plugin host
// refuses: another interface version, a foreign or unknown IID, a taken name, a root object without the
// interface. When MARIONETTE_TEST_LOAD_MARKER names a file, loading the library appends TEST_PLUGIN_NAME
// to it (a static initialiser), so a test can tell whether the library was ever loaded.
#pragma once

#include "marionette/plugin/RigExporter.h"

#include <QObject>

#ifdef TEST_PLUGIN_NO_INTERFACE
// The root object declares the exporter IID but is no exporter at all.
class TestExporter : public QObject {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID TEST_PLUGIN_IID)
};
#else
class TestExporter : public QObject, public marionette::plugin::RigExporter {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID TEST_PLUGIN_IID)
    Q_INTERFACES(marionette::plugin::RigExporter)

public:
    QString shortName() const override { return QStringLiteral(TEST_PLUGIN_NAME); }
    QString displayName() const override { return QStringLiteral("Test exporter"); }
    QString fileExtension() const override { return QStringLiteral("txt"); }
    QString nameFilter() const override { return QStringLiteral("Text (*.txt)"); }
    /// "test export of NAME\n".
    bool write(const marionette::rig::RigDescription& rig, const marionette::plugin::ExportContext& context,
               QByteArray& out, QString& error) const override;
};
#endif
