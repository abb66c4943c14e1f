// Marionette — the exporter interface: a rig turned into the bytes of another file format
// (File ▸ Export As in the editor, `marionette export --format NAME` on the command line).
//
// IID MARIONETTE_RIG_EXPORTER_IID ("org.marionette.RigExporter/1"). The built-in `.mrig` exporter
// implements it too and is registered the same way. See docs/plugins/README.md for a complete plugin.
#pragma once

#include "marionette/plugin/PluginInterface.h"
#include "marionette/rig/RigDescription.h"

#include <QByteArray>
#include <QObject>
#include <QString>

namespace marionette::plugin {

/// What the host knows about an export besides the rig. Plain values; the exporter only reads them.
struct ExportContext {
    /// The file the bytes will be written to, absolute or relative to the working directory; empty for
    /// an export to memory. The host writes it (atomically); the exporter must NOT open or write it, but
    /// may use its base name (e.g. for a C identifier or a file name inside the output).
    QString targetPath;
    /// The project or mesh the rig came from, for messages and provenance comments; may be empty.
    QString sourcePath;
    /// "marionette 0.1.0" or similar, for a "generator" field; may be empty.
    QString generator;
};

/// Writes a rig in one file format. Instances are created by the host (one per plugin, owned by the
/// plugin loader or, for built-ins, by the host) and live until the host is destroyed.
class RigExporter {
public:
    virtual ~RigExporter() = default;

    /// The name users type and the host looks exporters up by: [a-z][a-z0-9_-]{0,31}, e.g. "json".
    /// Must be constant. A name already taken (built-ins first, then plugins in load order) makes the
    /// host refuse the later exporter.
    virtual QString shortName() const = 0;
    /// One line for menus and listings, e.g. "Engine-neutral JSON rig".
    virtual QString displayName() const = 0;
    /// The usual extension of the output without the dot, e.g. "json" (a save dialog appends it).
    virtual QString fileExtension() const = 0;
    /// A Qt file-dialog filter, e.g. "Marionette JSON rig (*.json)".
    virtual QString nameFilter() const = 0;

    /// Serialises `rig` into `out` (cleared first by the exporter). The host guarantees that
    /// rig.validate() passed and the runtime builds the rig, so every index is in range and every float
    /// finite. Returns true on success. On failure returns false with `error` set to one line saying what
    /// could not be written and why (without the target path: the host prefixes it), e.g.
    /// "particle name 'a\"b' cannot be a C identifier"; `out` is then ignored.
    /// Must not throw, must not touch the file system at targetPath, and must be deterministic: the same
    /// rig and context give the same bytes.
    virtual bool write(const rig::RigDescription& rig, const ExportContext& context, QByteArray& out,
                       QString& error) const = 0;
};

} // namespace marionette::plugin

Q_DECLARE_INTERFACE(marionette::plugin::RigExporter, MARIONETTE_RIG_EXPORTER_IID)
