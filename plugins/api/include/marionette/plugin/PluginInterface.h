// Marionette — what every plugin shares: the interface ids, their versions, and the metadata a plugin
// carries (docs/plugins/README.md).
//
// A plugin is a Qt plugin (a shared library with one root QObject) declared with
//     Q_PLUGIN_METADATA(IID MARIONETTE_RIG_EXPORTER_IID FILE "myplugin.json")
//     Q_INTERFACES(marionette::plugin::RigExporter)
// Its IID names the one interface it implements *and the version of it it was built against*:
// "org.marionette.<Interface>/<version>". The host reads the IID from the library's metadata before it
// loads the library; an IID with another version than the host's is refused with a message
// ("plugins/libfoo.so: built for RigExporter/2, this Marionette supports RigExporter/1") and the library
// is never loaded. A version changes whenever an interface (or a type it passes) changes in a way that
// breaks a built plugin; rebuild the plugin against the new headers and change nothing else.
//
// The FILE json is optional; keys the host shows in `marionette plugins`:
//     {"name": "json", "version": "1.2.0", "description": "...", "author": "..."}
// "name" should equal the plugin's shortName() (it names a refused plugin that was never instantiated).
//
// Threading: the host calls plugins on the thread that loaded them, one call at a time, unless an
// interface says otherwise. Plugins must not throw across the interface and must not call exit().
#pragma once

#include <QString>

/// Interface ids: the string after the last '/' is the interface version.
#define MARIONETTE_RIG_EXPORTER_IID "org.marionette.RigExporter/1"
#define MARIONETTE_MESH_IMPORTER_IID "org.marionette.MeshImporter/1"
#define MARIONETTE_RIG_TEMPLATE_IID "org.marionette.RigTemplate/1"

namespace marionette::plugin {

/// The prefix every Marionette IID starts with.
inline constexpr const char* kIidPrefix = "org.marionette.";

/// The interface versions this build of the headers defines (the number in each IID above).
inline constexpr int kRigExporterVersion = 1;
inline constexpr int kMeshImporterVersion = 1;
inline constexpr int kRigTemplateVersion = 1;

/// An IID split into interface name and version: "org.marionette.RigExporter/1" -> {"RigExporter", 1}.
struct InterfaceId {
    QString name;     ///< "RigExporter"; empty when the IID is not a Marionette one
    int version = -1; ///< -1 when the IID has no "/<positive number>" suffix
    bool isMarionette() const { return !name.isEmpty(); }
};

/// Splits `iid`. Never fails: a foreign IID gives an empty name, a missing or malformed version -1.
inline InterfaceId parseInterfaceId(const QString& iid)
{
    InterfaceId id;
    const QString prefix = QString::fromLatin1(kIidPrefix);
    if (!iid.startsWith(prefix))
        return id;
    const QString rest = iid.mid(prefix.size());
    const qsizetype slash = rest.lastIndexOf(QLatin1Char('/'));
    id.name = slash < 0 ? rest : rest.left(slash);
    if (slash >= 0) {
        bool ok = false;
        const int v = rest.mid(slash + 1).toInt(&ok);
        id.version = ok && v > 0 ? v : -1;
    }
    return id;
}

/// True for a short name the host accepts: 1 to 32 characters of [a-z0-9_-], starting with a letter.
/// Short names are what users type (`--format json`, `--template quadruped`).
inline bool isValidShortName(const QString& name)
{
    if (name.isEmpty() || name.size() > 32 || !(name[0] >= QLatin1Char('a') && name[0] <= QLatin1Char('z')))
        return false;
    for (QChar c : name)
        if (!((c >= QLatin1Char('a') && c <= QLatin1Char('z')) || (c >= QLatin1Char('0') && c <= QLatin1Char('9')) ||
              c == QLatin1Char('_') || c == QLatin1Char('-')))
            return false;
    return true;
}

} // namespace marionette::plugin
