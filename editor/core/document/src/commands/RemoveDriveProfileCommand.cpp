#include "marionette/editor/document/commands/RemoveDriveProfileCommand.h"

#include "marionette/editor/document/DriveProfiles.h"

#include <QCoreApplication>

namespace marionette::editor {

RemoveDriveProfileCommand* RemoveDriveProfileCommand::create(Document* document, rig::ElementId profile, QString& error)
{
    const std::int32_t index = driveProfileIndex(document->rig(), profile);
    if (index == rig::kNone) {
        error = QStringLiteral("no drive profile has id %1").arg(profile);
        return nullptr;
    }
    return new RemoveDriveProfileCommand(document, profile, index);
}

RemoveDriveProfileCommand::RemoveDriveProfileCommand(Document* document, rig::ElementId profile, std::int32_t index)
    : DriveProfilesCommand(document, profile)
{
    setText(QCoreApplication::translate("Commands", "Remove Drive Profile '%1'")
                .arg(QString::fromStdString(mAfter[std::size_t(index)].name)));
    mAfter.erase(mAfter.begin() + index);
}

} // namespace marionette::editor
