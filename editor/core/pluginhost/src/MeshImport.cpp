#include "marionette/editor/pluginhost/MeshImport.h"

#include "marionette/editor/pluginhost/PluginHost.h"
#include "marionette/editor/autorig/SceneInput.h"
#include "marionette/plugin/MeshImporter.h"
#include "marionette/plugin/RigTemplate.h"

#include <QFileInfo>

namespace marionette::editor {

MeshImportRequest requestFor(const QString& meshPath, const project::ImportSettings& settings)
{
    const import::ImportOptions options = importOptionsFor(settings);
    MeshImportRequest request;
    request.path = meshPath;
    request.scale = options.scale;
    request.upAxis = options.upAxis;
    return request;
}

bool projectMeshRequest(const project::Project& project, const QString& projectPath, MeshImportRequest& out,
                        QStringList* warnings, QString* error)
{
    const project::SourceMesh& source = project.sourceMesh;
    if (source.path.isEmpty()) {
        if (error)
            error->clear();
        return false;
    }
    const QString meshPath = source.resolve(projectPath.isEmpty() ? source.path : projectPath);
    if (!QFileInfo::exists(meshPath)) {
        if (error)
            *error = QStringLiteral("%1: the project's mesh is missing").arg(meshPath);
        return false;
    }
    if (!source.sha256.isEmpty() && project::SourceMesh::hashFile(meshPath) != source.sha256 && warnings)
        *warnings << QStringLiteral("%1: the mesh changed since the rig was built (SHA-256 differs); check the rig still fits").arg(meshPath);
    out = requestFor(meshPath, project.import);
    return true;
}

MeshImportResult importMesh(plugin::MeshImporter& importer, const MeshImportRequest& request, std::stop_token stop)
{
    MeshImportResult result;
    result.importer = importer.shortName();
    plugin::ImportSettings settings;
    settings.scale = request.scale;
    settings.upAxis = request.upAxis;
    settings.animations = request.animations;
    settings.progress = request.progress;
    bool cancelled = false;
    if (!PluginHost::importScene(importer, request.path, settings, result.scene, &result.error, stop, &cancelled)) {
        result.status = cancelled ? import::ImportStatus::Cancelled : import::ImportStatus::Failed;
        return result;
    }
    if (request.strict)
        if (const std::string refused = import::strictImportError(result.scene); !refused.empty()) {
            result.error = QString::fromStdString(refused);
            result.scene = import::ImportedScene{};
            return result;
        }
    for (const std::string& w : result.scene.warnings)
        result.warnings << QStringLiteral("%1: %2").arg(request.path, QString::fromStdString(w));
    result.status = import::ImportStatus::Success;
    return result;
}

MeshImportResult importMesh(const PluginHost& host, const MeshImportRequest& request, std::stop_token stop)
{
    if (plugin::MeshImporter* importer = host.importerFor(request.path))
        return importMesh(*importer, request, stop);
    MeshImportResult result;
    result.error = QStringLiteral("%1: no importer reads this file").arg(request.path);
    return result;
}

bool sourceMeshFor(const QString& meshPath, const QString& projectPath, project::SourceMesh& out, QString* error)
{
    const QString absolute = QFileInfo(meshPath).absoluteFilePath();
    QString why;
    const QString hash = project::SourceMesh::hashFile(absolute, &why);
    if (hash.isEmpty()) {
        if (error)
            *error = why.isEmpty() ? QStringLiteral("%1: cannot read it to hash it").arg(meshPath) : why;
        return false;
    }
    out.path = projectPath.isEmpty() ? absolute : project::SourceMesh::relativePath(absolute, projectPath);
    out.sha256 = hash;
    return true;
}

void recordImport(project::Project& project, const QString& meshPath, const project::SourceMesh& source,
                  const import::ImportConversion& conversion)
{
    project.sourceMesh = source;
    project.import = importSettingsFrom(conversion);
    if (project.name.isEmpty())
        project.name = QFileInfo(meshPath).completeBaseName();
}

AutoRigResult autoRigMesh(const plugin::RigTemplate& tmpl, const import::ImportedScene& scene, float totalMass,
                          const std::string& name)
{
    AutoRigInput input = autoRigInputFromScene(scene, RigTemplate::Auto, totalMass);
    input.name = name;
    return PluginHost::buildRig(tmpl, input);
}

QString meshFileFilter(const PluginHost& host)
{
    QStringList filters;
    QString builtIn;
    for (const plugin::MeshImporter* importer : host.importers()) {
        const PluginRecord* record = host.record(PluginKind::Importer, importer->shortName());
        if (record && record->builtIn)
            builtIn = importer->nameFilter();
        else
            filters << importer->nameFilter();
    }
    if (!builtIn.isEmpty())
        filters << builtIn;
    filters << QStringLiteral("All files (*)");
    return filters.join(QStringLiteral(";;"));
}

} // namespace marionette::editor
