#include "marionette/editor/pluginhost/MeshImport.h"

#include "marionette/editor/pluginhost/PluginHost.h"
#include "marionette/editor/autorig/MeshMasses.h"
#include "marionette/editor/autorig/SceneInput.h"
#include "marionette/plugin/MeshImporter.h"
#include "marionette/plugin/RigTemplate.h"

#include <QFileInfo>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

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

namespace {

QString metres(float v) { return QString::number(double(v), 'g', 3) + QStringLiteral(" m"); }

/// "a, b, c and 4 more"
QString nameList(const QStringList& names)
{
    constexpr qsizetype kShown = 6;
    QString out = names.mid(0, kShown).join(QStringLiteral(", "));
    if (names.size() > kShown)
        out += QStringLiteral(" and %1 more").arg(names.size() - kShown);
    return out;
}

/// The scale that makes `extent` (metres at `scale`) a person's height: a common unit's when one lands
/// between 1.2 and 2.2 m, else exactly kPersonHeight (three significant digits).
float proposeScale(float extent, float scale)
{
    static constexpr double kUnits[] = {1., 0.01, 0.001, 0.0254, 0.3048, 0.1, 100., 1000., 1. / 0.0254};
    const double perMetre = double(extent) / double(scale); // file units the extent spans
    for (double unit : kUnits)
        if (const double h = perMetre * unit; h >= 1.2 && h <= 2.2 && std::fabs(unit - double(scale)) > 1e-9 * unit)
            return float(unit);
    const double exact = double(kPersonHeight) / perMetre;
    const double digits = std::pow(10., std::floor(std::log10(exact)) - 2.);
    return float(std::round(exact / digits) * digits);
}

} // namespace

SizeCheck checkImportedSize(const import::ImportedScene& scene, float scale)
{
    SizeCheck out;
    const std::array<Vec3, 2> box = scene.bounds();
    const Vec3 size = box[1] - box[0];
    const float largest = std::max({size.x, size.y, size.z});
    if (std::isfinite(largest) && largest > 0.f && std::isfinite(scale) && scale > 0.f) {
        const QString unit = scene.conversion.sourceUnit == "unknown"
                                 ? QStringLiteral("the file declares no unit")
                                 : QStringLiteral("the file's unit is the %1%2")
                                       .arg(QString::fromStdString(scene.conversion.sourceUnit),
                                            QLatin1String(scene.conversion.unitByConvention ? ", by its format's convention" : ""));
        const bool tall = size.y > kTallest, isLong = !tall && largest > kLongest, small = largest < kShortest;
        if (tall || isLong || small) {
            const float extent = tall ? size.y : largest;
            out.proposedScale = proposeScale(extent, scale);
            const float at = extent / scale * *out.proposedScale;
            const QString what = tall     ? QStringLiteral("%1 tall, over %2").arg(metres(size.y), metres(kTallest))
                                 : isLong ? QStringLiteral("%1 long, over %2").arg(metres(largest), metres(kLongest))
                                          : QStringLiteral("%1 at its largest, under %2").arg(metres(largest), metres(kShortest));
            out.warnings << QStringLiteral("size: %1 (%2, scale %3): too %4 for a character; import with scale %5 to make it %6")
                                .arg(what, unit, QString::number(double(scale), 'g', 4),
                                     small ? QStringLiteral("small") : QStringLiteral("large"),
                                     QString::number(double(*out.proposedScale), 'g', 4), metres(at));
        }
    }
    // Bones inside the skeleton (not a root, which is often a container such as "Armature") whose children
    // all start at the bone's own origin: a limb of zero length.
    const std::size_t n = scene.skeleton.size();
    std::vector<int> children(n), atOrigin(n);
    const float tolerance = 1e-4f * std::max(largest, 1e-3f);
    for (std::size_t i = 0; i < n; ++i) {
        const std::int32_t parent = scene.skeleton[i].parent;
        if (parent < 0 || std::size_t(parent) >= n)
            continue;
        ++children[std::size_t(parent)];
        const Vec3 a = scene.skeleton[std::size_t(parent)].bindWorld.transformPoint({});
        const Vec3 b = scene.skeleton[i].bindWorld.transformPoint({});
        if (length(b - a) <= tolerance)
            ++atOrigin[std::size_t(parent)];
    }
    QStringList zero;
    for (std::size_t i = 0; i < n; ++i)
        if (scene.skeleton[i].parent >= 0 && children[i] > 0 && atOrigin[i] == children[i])
            zero << QString::fromStdString(scene.skeleton[i].name);
    if (!zero.isEmpty())
        out.warnings << QStringLiteral("bones: %1 %2 zero length (every child starts where %3 does): a limb through %4 cannot bend there")
                            .arg(nameList(zero), zero.size() == 1 ? QStringLiteral("has") : QStringLiteral("have"),
                                 zero.size() == 1 ? QStringLiteral("it") : QStringLiteral("each"),
                                 zero.size() == 1 ? QStringLiteral("it") : QStringLiteral("them"));
    return out;
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
    if (!request.scale) {
        SizeCheck size = checkImportedSize(result.scene, result.scene.conversion.scale);
        for (const QString& w : size.warnings)
            result.warnings << QStringLiteral("%1: %2").arg(request.path, w);
        result.proposedScale = size.proposedScale;
    }
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

bool applyMeshMasses(AutoRigResult& result, const import::ImportedScene& scene, float totalMass)
{
    const MeshMasses masses = massesFromMesh(result.rig, scene, totalMass);
    if (!masses.error.empty()) {
        result.notes.push_back("masses from the template, not the mesh: " + masses.error);
        return false;
    }
    for (std::size_t i = 0; i < masses.masses.size(); ++i)
        result.rig.particles[i].mass = masses.masses[i];
    char litres[32];
    std::snprintf(litres, sizeof litres, "%.3g L", masses.volume * 1000.0);
    result.notes.push_back(std::string("masses from the mesh's skinned volume (") + litres + ", " +
                           (masses.closed ? "closed" : "open: estimated") + ")");
    return true;
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
