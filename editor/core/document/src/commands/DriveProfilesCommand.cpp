#include "marionette/editor/document/commands/DriveProfilesCommand.h"

#include "marionette/editor/document/DriveProfiles.h"

namespace marionette::editor {

DriveProfilesCommand::DriveProfilesCommand(Document* document, rig::ElementId profile)
    : mDocument(document), mProfileId(profile), mBefore(document->rig().driveProfiles), mAfter(mBefore)
{
}

rig::DriveProfile& DriveProfilesCommand::edited()
{
    for (rig::DriveProfile& p : mAfter)
        if (p.id == mProfileId)
            return p;
    return mAfter.front(); // not reached: the subclasses check the profile exists first
}

void DriveProfilesCommand::takeResultOf(const DriveProfilesCommand& next)
{
    mAfter = next.mAfter;
    if (sameDriveProfiles(mAfter, mBefore)) // typed back to where it started
        setObsolete(true);
}

void DriveProfilesCommand::redo()
{
    mDocument->setDriveProfiles(mAfter);
}

void DriveProfilesCommand::undo()
{
    mDocument->setDriveProfiles(mBefore);
}

} // namespace marionette::editor
