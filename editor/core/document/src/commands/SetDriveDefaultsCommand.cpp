#include "marionette/editor/document/commands/SetDriveDefaultsCommand.h"

#include "marionette/editor/document/DriveProfiles.h"
#include "marionette/editor/document/commands/CommandIds.h"

#include <QCoreApplication>

namespace marionette::editor {

SetDriveDefaultsCommand* SetDriveDefaultsCommand::create(Document* document, rig::ElementId profile, const QString& key,
                                                         const QVariant& value, QString& error)
{
    const std::int32_t index = driveProfileIndex(document->rig(), profile);
    if (index == rig::kNone) {
        error = QStringLiteral("no drive profile has id %1").arg(profile);
        return nullptr;
    }
    rig::DriveGains gains = document->rig().driveProfiles[std::size_t(index)].defaults;
    if (!setDriveGain(gains, key, value, error))
        return nullptr;
    auto* command = new SetDriveDefaultsCommand(document, profile, key);
    command->edited().defaults = gains;
    return command;
}

SetDriveDefaultsCommand* SetDriveDefaultsCommand::create(Document* document, rig::ElementId profile,
                                                         const rig::DriveGains& gains, QString& error)
{
    if (driveProfileIndex(document->rig(), profile) == rig::kNone) {
        error = QStringLiteral("no drive profile has id %1").arg(profile);
        return nullptr;
    }
    if (!checkDriveGains(gains, error))
        return nullptr;
    auto* command = new SetDriveDefaultsCommand(document, profile, QString());
    command->edited().defaults = gains;
    return command;
}

SetDriveDefaultsCommand::SetDriveDefaultsCommand(Document* document, rig::ElementId profile, const QString& key)
    : DriveProfilesCommand(document, profile), mKey(key)
{
    const QString name = QString::fromStdString(edited().name);
    setText(key.isEmpty()
                ? QCoreApplication::translate("Commands", "Set '%1' Defaults").arg(name)
                : QCoreApplication::translate("Commands", "Change '%1' Default %2").arg(name, driveGainLabel(key)));
}

int SetDriveDefaultsCommand::id() const
{
    return mKey.isEmpty() ? -1 : kSetDriveDefaultsCommandId;
}

bool SetDriveDefaultsCommand::mergeWith(const QUndoCommand* other)
{
    const auto* next = static_cast<const SetDriveDefaultsCommand*>(other);
    if (next->mProfileId != mProfileId || next->mKey != mKey)
        return false;
    takeResultOf(*next);
    return true;
}

} // namespace marionette::editor
