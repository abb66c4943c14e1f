#include "marionette/editor/document/commands/SetDrivePartsCommand.h"

#include "marionette/editor/document/DriveProfiles.h"
#include "marionette/editor/document/commands/CommandIds.h"

#include <QCoreApplication>

namespace marionette::editor {

bool checkDriveParts(const rig::RigDescription& rig, rig::ElementId profile, const std::vector<ElementRef>& parts,
                     QString& error)
{
    if (driveProfileIndex(rig, profile) == rig::kNone) {
        error = QStringLiteral("no drive profile has id %1").arg(profile);
        return false;
    }
    if (parts.empty()) {
        error = QStringLiteral("no drive parts given");
        return false;
    }
    for (const ElementRef& part : parts) {
        rig::DrivePartKind kind;
        if (!drivePartKindOf(part.kind, kind)) {
            error = QStringLiteral("a %1 is not a drive part (triangles and sticks are)")
                        .arg(QLatin1String(project::describe(part.kind)));
            return false;
        }
        if (indexOf(rig, part) == rig::kNone) {
            error = QStringLiteral("the rig has no %1 with id %2")
                        .arg(QLatin1String(project::describe(part.kind)))
                        .arg(part.id);
            return false;
        }
    }
    return true;
}

SetDrivePartsCommand* SetDrivePartsCommand::create(Document* document, rig::ElementId profile,
                                                   std::vector<ElementRef> parts, const QString& key,
                                                   const QVariant& value, QString& error)
{
    if (!checkDriveParts(document->rig(), profile, parts, error))
        return nullptr;
    rig::DriveGains probe; // the key and value checked once, before any part is touched
    if (!setDriveGain(probe, key, value, error))
        return nullptr;
    auto* command = new SetDrivePartsCommand(document, profile, std::move(parts), key);
    QString ignored; // checked above
    command->apply([&](rig::DriveGains& gains) { setDriveGain(gains, key, value, ignored); });
    return command;
}

SetDrivePartsCommand* SetDrivePartsCommand::create(Document* document, rig::ElementId profile,
                                                   std::vector<ElementRef> parts, const rig::DriveGains& gains,
                                                   QString& error)
{
    if (!checkDriveParts(document->rig(), profile, parts, error) || !checkDriveGains(gains, error))
        return nullptr;
    auto* command = new SetDrivePartsCommand(document, profile, std::move(parts), QString());
    command->apply([&](rig::DriveGains& g) { g = gains; });
    return command;
}

SetDrivePartsCommand::SetDrivePartsCommand(Document* document, rig::ElementId profile, std::vector<ElementRef> parts,
                                           const QString& key)
    : DriveProfilesCommand(document, profile), mParts(std::move(parts)), mKey(key)
{
    const QString name = QString::fromStdString(edited().name);
    const QString what = mParts.size() == 1
                             ? QString::fromStdString(nameAt(document->rig(), mParts.front().kind,
                                                             std::size_t(indexOf(document->rig(), mParts.front()))))
                             : QCoreApplication::translate("Commands", "%n Parts", nullptr, int(mParts.size()));
    setText(key.isEmpty()
                ? QCoreApplication::translate("Commands", "Set '%1' Gains of %2").arg(name, what)
                : QCoreApplication::translate("Commands", "Change '%1' %2 of %3").arg(name, driveGainLabel(key), what));
}

template <class Edit> void SetDrivePartsCommand::apply(const Edit& edit)
{
    const rig::RigDescription& rig = mDocument->rig();
    rig::DriveProfile& profile = edited();
    for (const ElementRef& ref : mParts) {
        rig::DriveGains gains = driveEntry(rig, profile, ref).value_or(profile.defaults);
        edit(gains);
        setDriveEntry(rig, profile, ref, gains);
    }
}

int SetDrivePartsCommand::id() const
{
    return mKey.isEmpty() ? -1 : kSetDrivePartsCommandId;
}

bool SetDrivePartsCommand::mergeWith(const QUndoCommand* other)
{
    const auto* next = static_cast<const SetDrivePartsCommand*>(other);
    if (next->mProfileId != mProfileId || next->mKey != mKey || next->mParts != mParts)
        return false;
    takeResultOf(*next);
    return true;
}

} // namespace marionette::editor
