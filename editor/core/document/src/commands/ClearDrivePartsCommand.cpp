#include "marionette/editor/document/commands/ClearDrivePartsCommand.h"

#include "marionette/editor/document/DriveProfiles.h"
#include "marionette/editor/document/commands/SetDrivePartsCommand.h"

#include <QCoreApplication>

namespace marionette::editor {

ClearDrivePartsCommand* ClearDrivePartsCommand::create(Document* document, rig::ElementId profile,
                                                       const std::vector<ElementRef>& parts, QString& error)
{
    const rig::RigDescription& rig = document->rig();
    if (!checkDriveParts(rig, profile, parts, error))
        return nullptr;
    auto* command = new ClearDrivePartsCommand(document, profile);
    rig::DriveProfile& profileAfter = command->edited();
    const std::size_t before = profileAfter.parts.size();
    for (const ElementRef& ref : parts)
        setDriveEntry(rig, profileAfter, ref, std::nullopt);
    if (profileAfter.parts.size() == before) {
        delete command;
        error = QStringLiteral("none of these parts has gains of its own in the profile");
        return nullptr;
    }
    return command;
}

ClearDrivePartsCommand::ClearDrivePartsCommand(Document* document, rig::ElementId profile)
    : DriveProfilesCommand(document, profile)
{
    setText(QCoreApplication::translate("Commands", "Clear '%1' Parts to Defaults")
                .arg(QString::fromStdString(edited().name)));
}

} // namespace marionette::editor
