#include "marionette/editor/document/commands/AddDriveProfileCommand.h"

#include "marionette/editor/document/DriveProfiles.h"

#include <QCoreApplication>

namespace marionette::editor {

AddDriveProfileCommand* AddDriveProfileCommand::create(Document* document, const QString& name, rig::ElementId copyOf,
                                                       QString& error)
{
    const rig::RigDescription& rig = document->rig();
    rig::DriveProfile profile;
    if (copyOf != 0) {
        const std::int32_t source = driveProfileIndex(rig, copyOf);
        if (source == rig::kNone) {
            error = QStringLiteral("no drive profile has id %1").arg(copyOf);
            return nullptr;
        }
        profile = rig.driveProfiles[std::size_t(source)];
    }
    const QString trimmed = name.trimmed();
    if (!trimmed.isEmpty() && driveProfileNamed(rig, trimmed) != rig::kNone) {
        error = QStringLiteral("a drive profile named '%1' exists already").arg(trimmed);
        return nullptr;
    }
    const QString base = copyOf != 0 ? QString::fromStdString(profile.name) + QStringLiteral(" copy") : QString();
    profile.name = (trimmed.isEmpty() ? uniqueDriveProfileName(rig, base) : trimmed).toStdString();
    profile.id = nextDriveProfileId(rig);
    return new AddDriveProfileCommand(document, std::move(profile));
}

AddDriveProfileCommand::AddDriveProfileCommand(Document* document, rig::DriveProfile profile)
    : DriveProfilesCommand(document, profile.id)
{
    setText(
        QCoreApplication::translate("Commands", "Add Drive Profile '%1'").arg(QString::fromStdString(profile.name)));
    mAfter.push_back(std::move(profile));
}

} // namespace marionette::editor
