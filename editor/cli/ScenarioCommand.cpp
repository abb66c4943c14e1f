// `marionette simulate PROJECT --scenario NAME | --all-scenarios`: recorded preview scenarios replayed headless
// (editor::runScenario, the preview's own code path) and checked against their expectations.
#include "Cli.h"
#include "RigFiles.h"

#include "marionette/editor/pluginhost/MeshImport.h"
#include "marionette/editor/preview/ScenarioRunner.h"
#include "marionette/project/ProjectFile.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <optional>

namespace marionette::cli {

int simulateScenarios(const QString& path, const QString& name, bool all, bool json, Io& io, const QString& command)
{
    RigFile file;
    if (const QString error = loadRigFile(path, file); !error.isEmpty())
        return fail(io, error);
    if (file.kind != RigFile::Kind::Project)
        return usageError(io, command, QStringLiteral("%1 is a binary rig: scenarios live in projects (.mproj)").arg(path));
    project::Project proj;
    if (const project::LoadResult r = project::loadProject(path, proj); !r.ok())
        return fail(io, r.error);

    std::vector<const project::Scenario*> chosen;
    for (const project::Scenario& s : proj.scenarios)
        if (all || s.name == name)
            chosen.push_back(&s);
    if (!all && chosen.empty()) {
        QStringList names;
        for (const project::Scenario& s : proj.scenarios)
            names << s.name;
        return usageError(io, command, names.isEmpty()
                                           ? QStringLiteral("no scenario '%1' in %2 (it has none)").arg(name, path)
                                           : QStringLiteral("no scenario '%1' in %2 (it has: %3)")
                                                 .arg(name, path, names.join(QStringLiteral(", "))));
    }
    if (chosen.empty())
        return fail(io, QStringLiteral("%1: the project has no scenarios to run").arg(path));

    // A scenario that starts from an animation clip needs the source mesh, imported as the project records.
    std::optional<import::ImportedScene> mesh;
    if (std::any_of(chosen.begin(), chosen.end(), [](const project::Scenario* s) { return s->animationStart.has_value(); })) {
        editor::MeshImportRequest request;
        QStringList warnings;
        QString why;
        if (!editor::projectMeshRequest(proj, path, request, &warnings, &why)) {
            io.err << "warning: " << path << ": "
                   << (why.isEmpty() ? QStringLiteral("the project has no source mesh to take animation clips from") : why) << '\n';
        } else {
            editor::MeshImportResult imported = editor::importMesh(pluginHost(), request);
            warnings << imported.warnings;
            if (imported.ok())
                mesh = std::move(imported.scene);
            else
                io.err << "warning: " << path << ": " << imported.error << '\n';
        }
        for (const QString& w : warnings)
            io.err << "warning: " << w << '\n';
    }

    bool allPassed = true;
    QJsonArray results;
    QStringList errors;
    for (const project::Scenario* s : chosen) {
        const editor::ScenarioResult r = editor::runScenario(proj.rig, *s, mesh ? &*mesh : nullptr);
        allPassed = allPassed && r.passed;
        for (const QString& f : r.failures)
            errors << QStringLiteral("%1: scenario '%2': %3").arg(path, s->name, f);
        if (json) {
            results.append(QJsonObject{{QStringLiteral("name"), s->name},
                                       {QStringLiteral("passed"), r.passed},
                                       {QStringLiteral("steps"), qint64(r.steps)},
                                       {QStringLiteral("settled_at"), double(r.settledAt)},
                                       {QStringLiteral("max_penetration"), double(r.maxPenetration)},
                                       {QStringLiteral("max_limit_violation_deg"), double(r.maxLimitViolationDegrees)},
                                       {QStringLiteral("failures"), QJsonArray::fromStringList(r.failures)}});
            continue;
        }
        const QString settled = r.settledAt >= 0.f ? QStringLiteral("settled at %1 s").arg(r.settledAt, 0, 'f', 2)
                                                   : QStringLiteral("not settled");
        io.out << (r.passed ? "PASS " : "FAIL ") << s->name << ": " << settled << ", penetration "
               << QString::number(double(r.maxPenetration) * 1000.0, 'f', 1) << " mm, limit excess "
               << QString::number(double(r.maxLimitViolationDegrees), 'f', 2) << " deg, " << r.steps << " steps";
        if (!r.passed)
            io.out << " (" << r.failures.join(QStringLiteral("; ")) << ")";
        io.out << '\n';
    }
    if (json)
        io.out << QJsonDocument(QJsonObject{{QStringLiteral("project"), path},
                                            {QStringLiteral("passed"), allPassed},
                                            {QStringLiteral("scenarios"), results}})
                      .toJson(QJsonDocument::Compact)
               << '\n';
    io.out.flush();
    for (const QString& e : errors)
        io.err << "error: " << e << '\n';
    return allPassed ? kOk : kUserError;
}

} // namespace marionette::cli
