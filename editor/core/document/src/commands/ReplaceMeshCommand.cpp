#include "marionette/editor/document/commands/ReplaceMeshCommand.h"

#include <QCoreApplication>

namespace marionette::editor {

ReplaceMeshCommand::ReplaceMeshCommand(Document* document, project::SourceMesh source,
    project::ImportSettings settings, std::shared_ptr<const import::ImportedScene> mesh, QString name)
    : mDocument(document), mSource(std::move(source)), mSettings(std::move(settings)), mMesh(std::move(mesh)),
      mName(std::move(name))
{
    setText(QCoreApplication::translate("Commands", "Import Mesh"));
}

void ReplaceMeshCommand::redo()
{
    mSourceBefore = mDocument->project().sourceMesh;
    mSettingsBefore = mDocument->project().import;
    mMeshBefore = mDocument->mesh();
    mNameBefore = mDocument->project().name;
    if (!mName.isEmpty())
        mDocument->setProjectName(mName);
    mDocument->setMeshSource(mSource, mSettings, mMesh);
}

void ReplaceMeshCommand::undo()
{
    mDocument->setProjectName(mNameBefore);
    mDocument->setMeshSource(mSourceBefore, mSettingsBefore, mMeshBefore);
}

} // namespace marionette::editor
