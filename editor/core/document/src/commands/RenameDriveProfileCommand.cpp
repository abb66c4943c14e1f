#include "marionette/editor/document/commands/RenameDriveProfileCommand.h"

#include "marionette/editor/document/DriveProfiles.h"

#include <QCoreApplication>

namespace marionette::editor {

RenameDriveProfileCommand* RenameDriveProfileCommand::create(Document* document, rig::ElementId profile,
                                                             const QString& name, QString& error)
{
    const rig::RigDescription& rig = document->rig();
    const QString trimmed = name.trimmed();
    if (driveProfileIndex(rig, profile) == rig::kNone)
        error = QStringLiteral("no drive profile has id %1").arg(profile);
    else if (trimmed.isEmpty())
        error = QStringLiteral("a drive profile needs a name");
    else if (driveProfileNamed(rig, trimmed) != rig::kNone)
        error = QStringLiteral("a drive profile named '%1' exists already").arg(trimmed);
    else
        return new RenameDriveProfileCommand(document, profile, trimmed);
    return nullptr;
}

RenameDriveProfileCommand::RenameDriveProfileCommand(Document* document, rig::ElementId profile, const QString& name)
    : DriveProfilesCommand(document, profile)
{
    setText(QCoreApplication::translate("Commands", "Rename Drive Profile '%1' to '%2'")
                .arg(QString::fromStdString(edited().name), name));
    edited().name = name.toStdString();
}

} // namespace marionette::editor
