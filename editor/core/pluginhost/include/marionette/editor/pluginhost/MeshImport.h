// Marionette — the one mesh-import workflow, shared by the editor (File ▸ Import Mesh, opening a project),
// and the command line (import, build, render, simulate --scenario):
//
//     plugin::MeshImporter* importer = host.importerFor(path);          // on the host's thread
//     editor::MeshImportResult r = editor::importMesh(*importer, request, stop); // any thread
//     project::SourceMesh source;
//     editor::sourceMeshFor(path, projectPath, source, &error);          // relative path + SHA-256
//     editor::AutoRigResult rig = editor::autoRigMesh(*tmpl, r.scene, 75.f, name);
//
// The importer is found through the plugin host, so an importer plugin reads meshes in the editor exactly as
// it does on the command line; the scene it returns is checked the same way (PluginHost::importScene), and
// what a lenient import repaired comes back as warning lines naming the file.
#pragma once

#include "marionette/editor/autorig/AutoRig.h"
#include "marionette/editor/pluginhost/MeshSource.h"
#include "marionette/import/Import.h"
#include "marionette/project/Project.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <stop_token>

namespace marionette::plugin {
class MeshImporter;
class RigTemplate;
} // namespace marionette::plugin

namespace marionette::editor {

class PluginHost;

/// What to import and how.
struct MeshImportRequest {
    QString path;
    std::optional<float> scale;           ///< metres per unit of the file, replacing what it declares
    std::optional<import::UpAxis> upAxis; ///< the file's up axis, replacing what it declares
    bool animations = true;               ///< false: the clips are not read (a render needs none)
    /// Refuse a file with any fault a lenient import repairs (import::strictImportError's line).
    bool strict = false;
    /// Progress on the importing thread: fraction in [0, 1] and a short stage name. May be empty.
    std::function<void(float fraction, const QString& stage)> progress;
};

struct MeshImportResult {
    import::ImportStatus status = import::ImportStatus::Failed;
    QString error;              ///< one line starting with the path; empty on success
    import::ImportedScene scene;
    QString importer;           ///< short name of the importer that read it ("assimp", a plugin's)
    /// "FILE: where: what": one per repair of a lenient import, then the size check's (checkImportedSize()).
    QStringList warnings;
    /// Set when the size check found the model implausibly large or small at the scale the file declares:
    /// the scale (metres per file unit) that brings it to a person's size. Never set when the request gave
    /// a scale.
    std::optional<float> proposedScale;

    bool ok() const { return status == import::ImportStatus::Success; }
};

/// What an imported character's size says after conversion to metres (docs/import.md, "Size check").
struct SizeCheck {
    QStringList warnings;               ///< "size: ..." and "bones: ..." lines (without the file name)
    std::optional<float> proposedScale; ///< metres per unit that make it kPersonHeight tall (or a unit near it)
};
/// Outside these a character's size is most likely a unit mistake: taller than kTallest metres, longer
/// than kLongest in any direction, or no extent reaching kShortest metres.
constexpr float kTallest = 3.f, kLongest = 10.f, kShortest = 0.3f, kPersonHeight = 1.75f;
/// Checks `scene`'s bind-pose size (its height along +Y, its largest extent) and its bones: a height above
/// kTallest, a largest extent above kLongest or below kShortest is a warning proposing the scale that
/// makes that extent kPersonHeight, snapped to a common unit
/// (centimetre, millimetre, inch, foot, decimetre, or their inverses) when one puts the height between 1.2
/// and 2.2 m; bones (other than roots) with children that all start where the bone does (zero length, so
/// a limb cannot bend there) are a warning naming them. `scale` is the scale the import applied (metres per unit).
SizeCheck checkImportedSize(const import::ImportedScene& scene, float scale);

/// The request that imports a project's mesh as the project recorded it (scale and up axis given
/// explicitly, so a file whose declarations changed still comes in as the rig was built on).
MeshImportRequest requestFor(const QString& meshPath, const project::ImportSettings& settings);

/// The request that imports the mesh of `project`, saved at `projectPath`, as it recorded it. False with
/// *error one line when the project has no mesh ("" then) or its file is missing; a file whose SHA-256
/// differs from the recorded one is imported, with a warning line in *warnings.
bool projectMeshRequest(const project::Project& project, const QString& projectPath, MeshImportRequest& out,
                        QStringList* warnings, QString* error);

/// Imports request.path with `importer` on the calling thread, then checks its size (checkImportedSize(),
/// only when the request gives no scale: a chosen scale is the user's). `stop` cancels: the built-in Assimp importer
/// stops at once (its reader is a child process); a plugin importer, whose interface cannot be interrupted,
/// runs to its end and the result is then reported cancelled.
MeshImportResult importMesh(plugin::MeshImporter& importer, const MeshImportRequest& request,
                            std::stop_token stop = {});

/// The importer for `path` (PluginHost::importerFor) and importMesh() with it. Call on the host's thread.
MeshImportResult importMesh(const PluginHost& host, const MeshImportRequest& request, std::stop_token stop = {});

/// How a project saved at `projectPath` refers to `meshPath`: its path relative to the project's folder
/// (absolute when the project has no path yet) and its SHA-256. False when the mesh cannot be read, with
/// *error one line naming it.
bool sourceMeshFor(const QString& meshPath, const QString& projectPath, project::SourceMesh& out, QString* error);

/// Records an imported mesh in `project`: the source mesh, the conversion the importer applied, and the
/// project's name (the mesh's base name) when it has none.
void recordImport(project::Project& project, const QString& meshPath, const project::SourceMesh& source,
                  const import::ImportConversion& conversion);

/// Runs `tmpl` on the scene's skeleton and skin for a body of `totalMass` kg named `name`
/// (PluginHost::buildRig: the template's rig is checked, validated and built by the runtime).
AutoRigResult autoRigMesh(const plugin::RigTemplate& tmpl, const import::ImportedScene& scene, float totalMass,
                          const std::string& name = {});

/// Replaces the masses of a template's rig with editor::massesFromMesh()'s (import and build
/// --mass-from-mesh; the templates keep their own masses by default, docs/autorig.md says why) for `totalMass` kg and adds a note
/// ("masses from the mesh's skinned volume (62.1 L, closed)"); when the mesh cannot give masses (no skin, no
/// volume) the masses stay and the note says why. False then.
bool applyMeshMasses(AutoRigResult& result, const import::ImportedScene& scene, float totalMass);

/// The file-dialog filter of every loaded importer: one entry per plugin importer, the built-in's
/// "Meshes (...)", then "All files (*)", separated by ";;".
QString meshFileFilter(const PluginHost& host);

} // namespace marionette::editor
