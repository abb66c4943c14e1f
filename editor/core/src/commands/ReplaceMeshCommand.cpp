#include "marionette/editor/commands/ReplaceMeshCommand.h"

#include <QCoreApplication>

namespace marionette::editor {

ReplaceMeshCommand::ReplaceMeshCommand(Document* document, project::SourceMesh source,
    project::ImportSettings settings, std::shared_ptr<const import::ImportedScene> mesh)
    : mDocument(document), mSource(std::move(source)), mSettings(std::move(settings)), mMesh(std::move(mesh))
{
    setText(QCoreApplication::translate("Commands", "Import Mesh"));
}

void ReplaceMeshCommand::redo()
{
    mSourceBefore = mDocument->project().sourceMesh;
    mSettingsBefore = mDocument->project().import;
    mMeshBefore = mDocument->mesh();
    mDocument->setMeshSource(mSource, mSettings, mMesh);
}

void ReplaceMeshCommand::undo() { mDocument->setMeshSource(mSourceBefore, mSettingsBefore, mMeshBefore); }

} // namespace marionette::editor
