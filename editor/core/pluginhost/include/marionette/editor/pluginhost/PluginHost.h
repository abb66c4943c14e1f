// Marionette — the plugin host: finds, checks and loads plugins (exporters, importers, rig templates; the
// interfaces are in plugins/api, docs/plugins/README.md), registers the built-in ones the same way, and
// runs them with the checks every caller needs. The editor (File ▸ Export As, the template dialog) and the
// command line use this class, so both export, import and rig through the same code.
//
//     editor::PluginHost host;                 // built-ins: mrig exporter, assimp importer, auto/humanoid/generic
//     host.loadDefaultFolders();               // bin/plugins, the user folder (or MARIONETTE_PLUGIN_PATH)
//     if (const plugin::RigExporter* e = host.exporter("json"))
//         ok = editor::PluginHost::exportRig(*e, rig, {path, projectPath, {}}, &error);
//
// Loading: for every library in a folder the host reads the plugin metadata WITHOUT loading the library,
// and refuses a foreign IID, an unknown interface or another interface version with a one-line message
// naming the file ("…/libfoo.so: built for RigExporter/2, this Marionette supports RigExporter/1"). Only
// then it loads the library and instantiates the root object. Every candidate is recorded with its status.
// Short names are unique per kind: built-ins first, then plugins in load order; a later plugin with a
// taken name is refused. Plugin libraries are never unloaded (their objects live until the process ends).
// Not thread-safe: load and look up on one thread; the returned interfaces say which calls may run on
// worker threads.
#pragma once

#include "marionette/editor/autorig/AutoRig.h"
#include "marionette/import/ImportedScene.h"
#include "marionette/plugin/MeshImporter.h"
#include "marionette/plugin/RigExporter.h"
#include "marionette/plugin/RigTemplate.h"
#include "marionette/project/Project.h"
#include "marionette/rig/RigDescription.h"
#include "marionette/rig/Validation.h"

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <stop_token>
#include <vector>

namespace marionette::editor {

enum class PluginKind : std::uint8_t {
    Unknown = 0,  ///< a refused or failed library whose IID names no interface this build knows
    Exporter = 1, ///< plugin::RigExporter
    Importer = 2, ///< plugin::MeshImporter
    Template = 3, ///< plugin::RigTemplate
};
const char* toString(PluginKind kind); ///< "unknown", "exporter", "importer", "template"

enum class PluginStatus : std::uint8_t {
    Loaded = 0,  ///< registered and usable
    Refused = 1, ///< Marionette said no: foreign IID, other interface version, bad or taken short name
    Failed = 2,  ///< Qt could not read or load it (not a plugin, broken library, missing dependency)
};
const char* toString(PluginStatus status); ///< "loaded", "refused", "failed"

/// One built-in or one library found in a plugin folder.
struct PluginRecord {
    QString file;          ///< the library as found (folder + file name); empty for a built-in
    bool builtIn = false;
    PluginKind kind = PluginKind::Unknown;
    QString interfaceId;   ///< the IID the library declares ("org.marionette.RigExporter/1"); "" if unreadable
    QString name;          ///< short name; for a plugin never instantiated its metadata "name", else ""
    QString displayName;   ///< "" unless loaded
    QString version;       ///< the plugin's own version (metadata "version"); Marionette's for built-ins
    QString description;   ///< metadata "description" (templates: description()); may be empty
    PluginStatus status = PluginStatus::Loaded;
    QString message;       ///< empty when loaded; else one line starting with the file
    QObject* instance = nullptr; ///< the root object when loaded (not owned by the record)
};

/// A folder the host looked in.
struct PluginFolder {
    QString path;
    bool exists = false;
};

class PluginHost {
public:
    /// Registers the built-ins: exporter "mrig", importer "assimp", templates "auto", "humanoid", "generic".
    PluginHost();
    ~PluginHost();
    PluginHost(const PluginHost&) = delete;
    PluginHost& operator=(const PluginHost&) = delete;

    /// The plugins shipped with the executables (needs a QCoreApplication): `plugins/` beside the executable
    /// (a build tree) if that folder exists, else the installation's `lib/marionette/plugins` (reached from
    /// the executable's folder, so a moved installation still finds its plugins).
    static QString applicationPluginFolder();
    /// The user's folder: QStandardPaths GenericDataLocation + "/marionette/plugins"
    /// (~/.local/share/marionette/plugins), shared by the editor and the command line.
    static QString userPluginFolder();
    /// The folders of MARIONETTE_PLUGIN_PATH (':'-separated; empty entries skipped) when that variable is
    /// set, even to "" (then none: built-ins only); else applicationPluginFolder() and userPluginFolder().
    static QStringList defaultFolders();

    /// Loads every library in `folder` (not recursive; files sorted by name; files Qt does not consider
    /// libraries by their name are skipped). A missing folder is recorded in folders() and skipped; a
    /// folder or file seen before is skipped. Never fails: each candidate gets a record.
    void loadFolder(const QString& folder);
    void loadFolders(const QStringList& folders);
    void loadDefaultFolders() { loadFolders(defaultFolders()); }

    /// Built-ins first, then libraries in the order they were found.
    const std::vector<PluginRecord>& records() const { return mRecords; }
    const std::vector<PluginFolder>& folders() const { return mFolders; }

    /// Lookup by short name (case-sensitive) among loaded ones; null when there is none.
    plugin::RigExporter* exporter(const QString& shortName) const;
    plugin::MeshImporter* importer(const QString& shortName) const;
    plugin::RigTemplate* rigTemplate(const QString& shortName) const;
    /// Loaded ones of a kind, built-ins first then plugins in load order (pointers owned by the host or
    /// the plugin libraries, valid while the host lives).
    std::vector<plugin::RigExporter*> exporters() const;
    std::vector<plugin::MeshImporter*> importers() const;
    std::vector<plugin::RigTemplate*> templates() const;
    /// Their short names in the same order, e.g. {"mrig", "json", "c-header"}.
    QStringList names(PluginKind kind) const;
    /// The record of a loaded extension, or null.
    const PluginRecord* record(PluginKind kind, const QString& shortName) const;

    /// The importer for `path`: the first plugin importer whose supportsFile() says yes, else the
    /// built-in Assimp importer (which reports what it cannot read itself).
    plugin::MeshImporter* importerFor(const QString& path) const;

    /// Registers an object implementing the interface of `kind` as a built-in (the host takes ownership).
    /// Returns true when registered; a bad or taken name is recorded as refused, as for plugins.
    bool addBuiltIn(std::unique_ptr<QObject> object, PluginKind kind);

    // ---- running extensions with the checks every caller needs (static: no host state involved)

    /// Exports `rig` to context.targetPath: validates it once (rig::validated(); messages start with
    /// context.sourcePath, or the target when there is no source: "hero.mproj: the rig is invalid: ..."),
    /// then exports it as the overload taking the proof does. Returns false with *error one line:
    /// "out.json: json export: ...", "out.json: cannot write: ...".
    static bool exportRig(const plugin::RigExporter& exporter, const rig::RigDescription& rig,
                          const plugin::ExportContext& context, QString* error);
    /// Exports a rig validated already (editor::rigVerdict(), rig::validated()) without validating it again:
    /// builds it in the runtime (which cannot refuse a valid rig), asks the exporter for the bytes (the
    /// built-in .mrig exporter writes the proof, rig::writeMrig(const rig::Validated&)), then writes them
    /// atomically (QSaveFile: an existing file is untouched on any failure).
    static bool exportRig(const plugin::RigExporter& exporter, const rig::Validated& rig,
                          const plugin::ExportContext& context, QString* error);
    /// The project's levels of detail exported beside context.targetPath, each as exportRig() does:
    /// NAME.lod1.EXT, NAME.lod2.EXT, ... (levelPath()). `written` gets each path written. Stops at the first
    /// failure with *error one line. The editor's Export and `marionette export` both call it.
    static bool exportLevels(const plugin::RigExporter& exporter, const std::vector<project::LodLevel>& levels,
                             const plugin::ExportContext& context, std::vector<QString>& written, QString* error);
    /// "out/hero.lod2.mrig" for level 2 of "out/hero.mrig" (the last suffix kept; "hero" gives "hero.lod2").
    static QString levelPath(const QString& target, int level);
    /// The same checks and the exporter's bytes, without writing a file.
    static bool exportRigBytes(const plugin::RigExporter& exporter, const rig::RigDescription& rig,
                               const plugin::ExportContext& context, QByteArray& out, QString* error);
    static bool exportRigBytes(const plugin::RigExporter& exporter, const rig::Validated& rig,
                               const plugin::ExportContext& context, QByteArray& out, QString* error);

    /// Runs `tmpl` on `input` (input.requested is ignored: the template is the one given). Checks and
    /// normalises the input as autoRig() does (same messages), runs the template, then checks its rig:
    /// the skeleton unchanged, validate() and the runtime's Rig::build() pass. The result's templateUsed
    /// is the template's name (or what it reported, e.g. "humanoid" for "auto"); mapping stays empty.
    static AutoRigResult buildRig(const plugin::RigTemplate& tmpl, const AutoRigInput& input);

    /// Runs `importer` on `path` and checks the scene it returns (at least one mesh, validate() passes).
    /// Returns false with *error one line starting with the path. `stop` stops the built-in Assimp importer
    /// at once; a plugin importer cannot be interrupted and runs to its end. Either way a stop requested
    /// before the result is final makes it false with *cancelled set (when given) and *error "PATH: import
    /// cancelled".
    static bool importScene(plugin::MeshImporter& importer, const QString& path,
                            const plugin::ImportSettings& settings, import::ImportedScene& out, QString* error,
                            std::stop_token stop = {}, bool* cancelled = nullptr);

private:
    void loadLibrary(const QString& file);
    /// Checks the names of a loaded object and registers it; fills the record's status.
    void registerInstance(PluginRecord& record, QObject* instance);

    std::vector<PluginRecord> mRecords;
    std::vector<PluginFolder> mFolders;
    std::vector<std::unique_ptr<QObject>> mBuiltIns;
    QStringList mSeen; ///< canonical paths of folders and files already looked at
};

} // namespace marionette::editor
