// MainWindow: the file operations (open, import, auto-rig, save, export, recent files, prompts).
#include "AutoRigDialog.h"
#include "LogPanel.h"
#include "MainWindow.h"
#include "PreviewController.h"
#include "TaskRunner.h"
#include "ValidationPanel.h"
#include "viewport/Viewport.h"

#include "marionette/editor/pluginhost/MeshImport.h"
#include "marionette/editor/document/Validation.h"
#include "marionette/editor/document/commands/ApplyAutoRigCommand.h"
#include "marionette/editor/document/commands/ReplaceMeshCommand.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QDir>
#include <QSettings>
#include <QStatusBar>

namespace marionette::app {

namespace {
constexpr int kMaxRecentFiles = 8;
const char* kRecentKey = "recentFiles";
} // namespace

bool MainWindow::maybeSave()
{
    if (!mDocument.isModified())
        return true;
    QMessageBox box(QMessageBox::Warning, tr("Unsaved changes"),
        tr("%1 has unsaved changes. Save them?").arg(mDocument.displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("unsavedDialog"));
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
    case QMessageBox::Save: return saveTo(mDocument.filePath());
    case QMessageBox::Discard: return true;
    default: return false;
    }
}

bool MainWindow::openPath(const QString& given)
{
    QString path = given;
    if (path.isEmpty()) {
        path = QFileDialog::getOpenFileName(this, tr("Open"), QString(),
            tr("Marionette projects (*.mproj)") + QStringLiteral(";;") + editor::meshFileFilter(mPlugins));
        if (path.isEmpty())
            return false;
    }
    if (QFileInfo(path).suffix().compare(QLatin1String("mproj"), Qt::CaseInsensitive) == 0)
        return openProject(path);
    return importMesh(path);
}

bool MainWindow::openProject(const QString& path)
{
    mPreview->stop(); // the preview runs the document's rig: end it before the document changes
    if (!maybeSave())
        return false;
    QString error;
    if (!mDocument.load(path, error)) {
        showError(tr("Cannot open project"), error);
        return false;
    }
    mRecovery->discard();
    mAutosavedAt = mEditCounter;
    addRecentFile(mDocument.filePath());
    mLog->info(tr("Opened %1").arg(mDocument.filePath()));
    const auto& editorState = mDocument.project().editor;
    viewport::DisplayOptions display = mDisplay;
    display.meshOpacity = editorState.meshOpacity;
    display.xray = editorState.xray;
    if (auto* xray = action(QStringLiteral("viewXray")))
        xray->setChecked(display.xray);
    setDisplay(display);
    if (mViewport)
        mViewport->setCamera(viewport::Camera(editorState.camera));
    loadProjectMesh();
    runValidation();
    return true;
}

void MainWindow::loadProjectMesh()
{
    editor::MeshImportRequest request;
    QStringList warnings;
    QString why;
    if (!editor::projectMeshRequest(mDocument.project(), mDocument.filePath(), request, &warnings, &why)) {
        if (!why.isEmpty())
            mLog->warning(tr("%1; the rig is shown without it").arg(why));
        return;
    }
    plugin::MeshImporter* importer = mPlugins.importerFor(request.path);
    if (!importer) {
        mLog->warning(tr("%1: no importer reads this file; the rig is shown without it").arg(request.path));
        return;
    }
    editor::MeshImportResult result = importWithProgress(this, *importer, request);
    for (const QString& w : warnings + result.warnings)
        mLog->warning(w);
    if (!result.ok()) {
        mLog->warning(tr("The mesh could not be loaded: %1").arg(result.error));
        return;
    }
    mDocument.attachMesh(std::make_shared<const import::ImportedScene>(std::move(result.scene)));
    if (mDocument.project().editor.camera.distance == project::Camera{}.distance)
        frameSelection();
}

namespace {

constexpr const char* kStrictKey = "import/strict";

/// "walk.fbx (assimp): 2 meshes, 65 bones, 3 clips; 1.78 m tall (source unit centimetre, scale 0.01, up axis z)"
QString importSummary(const QString& path, const editor::MeshImportResult& r)
{
    const import::ImportedScene& s = r.scene;
    const auto box = s.bounds();
    const import::ImportConversion& c = s.conversion;
    return QObject::tr("%1 (%2): %3 mesh(es), %4 bones, %5 clip(s); %6 m tall (source unit %7%8, scale %9, up axis %10)")
        .arg(QFileInfo(path).fileName(), r.importer)
        .arg(s.meshes.size()).arg(s.skeleton.size()).arg(s.animations.size())
        .arg(double(box[1].y - box[0].y), 0, 'g', 3)
        .arg(QString::fromStdString(c.sourceUnit), c.unitByConvention ? QObject::tr(" by the format's convention") : QString())
        .arg(double(c.scale), 0, 'g', 4)
        .arg(QLatin1String(import::toString(c.sourceUpAxis)));
}

/// What keeping `rig` on `mesh` means: its skeleton is the mesh's, or how many of its bound bones the mesh
/// lacks. `matches` says whether the skeletons are the same.
QString keepDescription(const rig::RigDescription& rig, const import::ImportedScene& mesh, bool& matches)
{
    const editor::SkeletonFit fit = editor::compareSkeletons(rig, mesh);
    matches = fit.same;
    const QString what = QObject::tr("Keep the rig of %1 particles and %2 bones on the new mesh.").arg(rig.particles.size()).arg(rig.bones.size());
    if (matches)
        return what + QObject::tr(" Its skeleton is this mesh's, so the mesh follows it.");
    return what + QObject::tr(" Its skeleton is not this mesh's (%1 of its %2 bound bones are missing): the mesh will not "
                              "follow it until the rig is rebuilt; the Validation list names each problem.")
                      .arg(fit.missingBindings.size()).arg(rig.bindings.size());
}

} // namespace

bool MainWindow::importMesh(const QString& given, const QString& templateName, float totalMass,
                            const ImportOptions& scripted)
{
    QString path = given;
    if (path.isEmpty()) {
        path = QFileDialog::getOpenFileName(this, tr("Import Mesh"), QFileInfo(mDocument.filePath()).absolutePath(),
                                            editor::meshFileFilter(mPlugins));
        if (path.isEmpty())
            return false;
    }
    mPreview->stop();
    plugin::MeshImporter* importer = mPlugins.importerFor(path);
    if (!importer) {
        showError(tr("Import failed"), tr("%1: no importer reads this file").arg(path));
        return false;
    }
    const bool ask = templateName.isEmpty();
    ImportOptions options = scripted;
    if (ask) {
        options.strict = QSettings().value(QLatin1String(kStrictKey), false).toBool();
        ImportOptionsDialog dialog(path, options, this);
        if (dialog.exec() != QDialog::Accepted)
            return false;
        options = dialog.options();
        QSettings().setValue(QLatin1String(kStrictKey), options.strict);
    }

    QString chosen = templateName;
    float mass = totalMass;
    editor::MeshImportResult result;
    for (;;) {
        mLog->info(tr("Importing %1 (%2)…").arg(path, importer->shortName()));
        editor::MeshImportRequest request;
        request.path = path;
        request.scale = options.scale;
        request.upAxis = options.upAxis;
        request.strict = options.strict;
        result = importWithProgress(this, *importer, request);
        if (result.status == import::ImportStatus::Cancelled) {
            mLog->info(tr("Import cancelled"));
            return false;
        }
        if (!result.ok()) {
            showError(tr("Import failed"), result.error);
            return false;
        }
        if (!ask)
            break;
        // What came in, before anything changes: the warnings, a proposed scale, what to do with the rig.
        std::vector<ImportResultDialog::Choice> choices;
        const rig::RigDescription& current = mDocument.rig();
        bool matches = false;
        if (!current.particles.empty())
            choices.push_back({QLatin1String(ImportResultDialog::kKeepRig), tr("Keep the current rig"), keepDescription(current, result.scene, matches)});
        else
            choices.push_back({QLatin1String(ImportResultDialog::kNoRig), tr("No rig yet"), tr("Import the mesh only; place particles by hand or run Auto-Rig later.")});
        if (!result.scene.skeleton.empty())
            for (const auto& [name, description] : templateChoices())
                choices.push_back({name, tr("Auto-rig: %1").arg(name), description});
        QStringList shown;
        for (const QString& w : result.warnings)
            shown << (w.startsWith(path + QStringLiteral(": ")) ? w.mid(path.size() + 2) : w);
        const QString preferred = matches || result.scene.skeleton.empty() || choices.size() == 1 ? choices.front().name
                                                                                                  : choices[1].name;
        ImportResultDialog dialog(importSummary(path, result), shown, result.proposedScale, choices, preferred, this);
        const int answer = dialog.exec();
        if (answer == ImportResultDialog::kReimport && dialog.proposedScale()) {
            options.scale = dialog.proposedScale();
            continue;
        }
        if (answer != QDialog::Accepted) {
            mLog->info(tr("Import of %1 cancelled; nothing changed").arg(QFileInfo(path).fileName()));
            return false;
        }
        chosen = dialog.choice();
        mass = dialog.totalMass();
        break;
    }
    for (const QString& w : result.warnings)
        mLog->warning(w);
    project::SourceMesh source;
    QString why;
    if (!editor::sourceMeshFor(path, mDocument.filePath(), source, &why)) {
        showError(tr("Import failed"), why);
        return false;
    }
    auto scene = std::make_shared<const import::ImportedScene>(std::move(result.scene));

    // The project as the import records it (the same record the command line's import writes).
    project::Project recorded;
    recorded.name = mDocument.project().name;
    editor::recordImport(recorded, path, source, scene->conversion);

    QUndoStack* stack = mDocument.undoStack();
    stack->beginMacro(tr("Import %1").arg(QFileInfo(path).fileName()));
    stack->push(new editor::ReplaceMeshCommand(&mDocument, recorded.sourceMesh, recorded.import, scene, recorded.name));
    bool rigged = true;
    const bool keep = chosen == QLatin1String(ImportResultDialog::kKeepRig) || chosen == QLatin1String(ImportResultDialog::kNoRig);
    if (!scene->skeleton.empty() && !keep)
        rigged = autoRig(chosen, mass);
    stack->endMacro();
    mLog->info(tr("Imported %1: %2 mesh(es), %3 bones").arg(QFileInfo(path).fileName()).arg(scene->meshes.size()).arg(scene->skeleton.size()));
    if (scene->skeleton.empty())
        mLog->warning(tr("%1 has no skeleton: place particles by hand, or import a skinned mesh to auto-rig").arg(QFileInfo(path).fileName()));
    frameSelection();
    return rigged;
}

std::vector<std::pair<QString, QString>> MainWindow::templateChoices() const
{
    std::vector<std::pair<QString, QString>> out;
    for (plugin::RigTemplate* t : mPlugins.templates())
        out.emplace_back(t->shortName(), t->description());
    return out;
}

bool MainWindow::autoRig(const QString& given, float totalMass)
{
    mPreview->stop();
    const auto mesh = mDocument.mesh();
    if (!mesh || mesh->skeleton.empty()) {
        showError(tr("Auto-Rig"), tr("The auto-rig needs an imported mesh with a skeleton (File ▸ Import Mesh)."));
        return false;
    }
    QString name = given;
    float mass = totalMass;
    bool massFromMesh = false;
    if (name.isEmpty()) {
        std::vector<AutoRigDialog::Choice> choices;
        for (const auto& [n, description] : templateChoices())
            choices.push_back({n, description});
        AutoRigDialog dialog(choices, this);
        if (dialog.exec() != QDialog::Accepted)
            return false;
        name = dialog.templateName();
        mass = dialog.totalMass();
        massFromMesh = dialog.massFromMesh();
    }
    plugin::RigTemplate* tmpl = mPlugins.rigTemplate(name);
    if (!tmpl) {
        showError(tr("Auto-Rig"), tr("No rig template named '%1' (available: %2)").arg(name, mPlugins.names(editor::PluginKind::Template).join(QStringLiteral(", "))));
        return false;
    }
    const editor::AutoRigResult result = runWithProgress(this, tr("Building the rig…"),
        [tmpl, mesh, mass, massFromMesh, name = mDocument.project().name.toStdString()] {
            editor::AutoRigResult r = editor::autoRigMesh(*tmpl, *mesh, mass, name);
            if (r.ok && massFromMesh)
                editor::applyMeshMasses(r, *mesh, mass); // on failure the template's masses stay, a note says why
            return r;
        });
    if (!result.ok) {
        showError(tr("Auto-Rig failed"), QString::fromStdString(result.error));
        return false;
    }
    auto* apply = new editor::ApplyAutoRigCommand(&mDocument, result.rig, QString::fromStdString(result.templateUsed));
    const std::vector<std::string> dropped = apply->droppedDriveParts();
    mDocument.undoStack()->push(apply);
    mLog->info(tr("Auto-rig (%1): %2 particles, %3 sticks, %4 triangles, %5 angular constraints")
                   .arg(QString::fromStdString(result.templateUsed)).arg(result.rig.particles.size())
                   .arg(result.rig.sticks.size()).arg(result.rig.triangles.size()).arg(result.rig.angular.size()));
    for (const std::string& note : result.notes)
        mLog->info(QStringLiteral("  %1").arg(QString::fromStdString(note)));
    for (const std::string& part : dropped)
        mLog->warning(tr("  drive profile part dropped (the new rig has no such element): %1").arg(QString::fromStdString(part)));
    return true;
}

bool MainWindow::saveTo(const QString& given)
{
    QString path = given;
    if (path.isEmpty()) {
        const QString suggested = mDocument.filePath().isEmpty() ? suggestedExportPath(QStringLiteral("mproj")) : mDocument.filePath();
        path = QFileDialog::getSaveFileName(this, tr("Save Project"), suggested, tr("Marionette projects (*.mproj)"));
        if (path.isEmpty())
            return false;
        if (QFileInfo(path).suffix().isEmpty())
            path += QStringLiteral(".mproj");
    }
    if (mViewport)
        mDocument.setViewState(mViewport->camera().state(), mDisplay.meshOpacity, mDisplay.xray);
    QString error;
    if (!mDocument.save(path, error)) {
        showError(tr("Save failed"), error);
        return false;
    }
    mRecovery->discard();
    mAutosavedAt = mEditCounter;
    addRecentFile(mDocument.filePath());
    statusBar()->showMessage(tr("Saved %1").arg(mDocument.filePath()), 4000);
    mLog->info(tr("Saved %1").arg(mDocument.filePath()));
    return true;
}

QString MainWindow::suggestedExportPath(const QString& extension) const
{
    // Beside the project (named after it), else beside its mesh, else in the home folder: never the
    // editor's working directory.
    const QString project = mDocument.filePath();
    QString folder = QDir::homePath(), base = QStringLiteral("rig");
    if (!project.isEmpty()) {
        folder = QFileInfo(project).absolutePath();
        base = QFileInfo(project).completeBaseName();
    } else if (const project::SourceMesh& mesh = mDocument.project().sourceMesh; !mesh.path.isEmpty()) {
        const QFileInfo meshFile(mesh.resolve(QString()));
        folder = meshFile.absolutePath();
        base = meshFile.completeBaseName();
    }
    return QDir(folder).filePath(base + QLatin1Char('.') + extension);
}

bool MainWindow::exportRig(const QString& given, const QString& format)
{
    plugin::RigExporter* exporter = mPlugins.exporter(format);
    if (!exporter) {
        showError(tr("Export"), tr("No exporter named '%1'").arg(format));
        return false;
    }
    // The rig as it is now, judged once; the export writes this copy with the verdict's proof, so nothing
    // edited while the file dialog is open slips past the validation.
    const rig::RigDescription rig = mDocument.rig();
    const editor::RigVerdict verdict = editor::rigVerdict(rig, mDocument.mesh().get());
    const std::vector<editor::ValidationIssue>& issues = verdict.issues;
    mValidation->setIssues(issues);
    if (!verdict.ok()) {
        if (auto* dock = findChild<QDockWidget*>(QStringLiteral("validationDock"))) {
            dock->show();
            dock->raise();
        }
        const auto errors = std::count_if(issues.begin(), issues.end(), [](const auto& i) { return i.severity == editor::Severity::Error; });
        showError(tr("Export refused"), tr("The rig has %n error(s); fix them first (see the Validation list). First: %1", nullptr, int(errors))
                                            .arg(issues.front().message));
        return false;
    }
    QString path = given;
    if (path.isEmpty()) {
        path = QFileDialog::getSaveFileName(this, tr("Export Rig (%1)").arg(exporter->displayName()),
            suggestedExportPath(exporter->fileExtension()), exporter->nameFilter());
        if (path.isEmpty())
            return false;
    }
    plugin::ExportContext context;
    context.targetPath = path;
    context.sourcePath = mDocument.filePath();
    context.generator = QStringLiteral("Marionette %1").arg(QStringLiteral(MARIONETTE_VERSION));
    QString error;
    if (!editor::PluginHost::exportRig(*exporter, *verdict.valid, context, &error)) {
        showError(tr("Export failed"), error);
        return false;
    }
    // The levels of detail beside it (NAME.lod1.EXT, ...), as `marionette export` writes them.
    std::vector<QString> levels;
    if (!editor::PluginHost::exportLevels(*exporter, mDocument.project().lods, context, levels, &error)) {
        showError(tr("Export failed"), error);
        return false;
    }
    for (const QString& level : levels)
        mLog->info(tr("Exported level of detail %1").arg(level));
    const auto warnings = std::count_if(issues.begin(), issues.end(), [](const auto& i) { return i.severity == editor::Severity::Warning; });
    mLog->info(tr("Exported %1 (%2)%3").arg(path, exporter->displayName(),
        warnings ? tr(" with %1 warning(s) in the Validation list").arg(warnings) : QString()));
    statusBar()->showMessage(tr("Exported %1").arg(path), 4000);
    return true;
}

void MainWindow::addRecentFile(const QString& path)
{
    QSettings settings;
    QStringList files = settings.value(QLatin1String(kRecentKey)).toStringList();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    settings.setValue(QLatin1String(kRecentKey), files);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    mRecentMenu->clear();
    const QStringList files = QSettings().value(QLatin1String(kRecentKey)).toStringList();
    for (const QString& f : files) {
        QAction* a = mRecentMenu->addAction(QFileInfo(f).fileName(), this, [this, f] { openProject(f); });
        a->setToolTip(f);
        a->setStatusTip(f);
    }
    mRecentMenu->setEnabled(!files.isEmpty());
}

void MainWindow::rebuildExportMenu()
{
    mExportMenu->clear();
    for (plugin::RigExporter* e : mPlugins.exporters()) {
        const QString name = e->shortName();
        QAction* a = mExportMenu->addAction(tr("%1 (*.%2)…").arg(e->displayName(), e->fileExtension()), this,
            [this, name] { exportRig(QString(), name); });
        a->setObjectName(QStringLiteral("exportAs_") + name);
        mActions.adopt(a);
    }
}

} // namespace marionette::app
