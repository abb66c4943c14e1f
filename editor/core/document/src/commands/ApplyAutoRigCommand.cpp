#include "marionette/editor/document/commands/ApplyAutoRigCommand.h"

#include "marionette/editor/document/DriveProfiles.h"

#include <QCoreApplication>

namespace marionette::editor {

ApplyAutoRigCommand::ApplyAutoRigCommand(Document* document, rig::RigDescription rig, const QString& templateName)
    : mDocument(document), mAfter(std::move(rig))
{
    mDroppedDriveParts = carryDriveProfiles(document->rig(), mAfter);
    project::assignMissingIds(mAfter);
    assignDriveProfileIds(mAfter);
    setText(QCoreApplication::translate("Commands", "Auto-Rig (%1)").arg(templateName));
}

void ApplyAutoRigCommand::redo()
{
    mBefore = mDocument->rig();
    mViewsBefore = mDocument->project().editor.elements;
    mSelectionBefore = mDocument->selection();
    mDocument->replaceRig(mAfter, {});
    mDocument->setSelection({});
}

void ApplyAutoRigCommand::undo()
{
    mDocument->replaceRig(mBefore, mViewsBefore);
    mDocument->setSelection(mSelectionBefore);
}

} // namespace marionette::editor
