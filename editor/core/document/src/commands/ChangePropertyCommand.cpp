#include "marionette/editor/document/commands/ChangePropertyCommand.h"

#include "marionette/editor/document/Properties.h"
#include "marionette/editor/document/commands/CommandIds.h"

#include <QCoreApplication>

#include <algorithm>

namespace marionette::editor {

namespace {
QString labelOf(const std::vector<PropertyDef>& defs, const QString& key)
{
    const PropertyDef* def = findProperty(defs, key);
    return def ? def->label : key;
}
} // namespace

ChangePropertyCommand::ChangePropertyCommand(Document* document, std::vector<ElementRef> targets, QString key,
    QVariant value)
    : mDocument(document), mTargets(std::move(targets)), mKey(std::move(key)), mValue(std::move(value))
{
    const rig::RigDescription& rig = document->rig();
    for (const ElementRef& ref : mTargets) {
        const std::int32_t i = indexOf(rig, ref);
        mOldValues.push_back(i == rig::kNone ? QVariant() : readProperty(rig, ref.kind, std::size_t(i), mKey));
    }
    const QString label = mTargets.empty() ? mKey : labelOf(propertiesOf(mTargets.front().kind), mKey);
    setText(QCoreApplication::translate("Commands", "Change %1").arg(label));
    // No targets (an empty multi-selection): nothing to do. Empty mTargets also means "the settings" to
    // apply(), so the command must never run; an obsolete command is dropped by QUndoStack::push().
    setObsolete(mTargets.empty());
}

ChangePropertyCommand::ChangePropertyCommand(Document* document, QString settingKey, QVariant value)
    : mDocument(document), mKey(std::move(settingKey)), mValue(std::move(value))
{
    mOldValues.push_back(readSetting(document->rig().settings, mKey));
    setText(QCoreApplication::translate("Commands", "Change %1").arg(labelOf(settingsProperties(), mKey)));
}

void ChangePropertyCommand::apply(bool forward)
{
    if (mTargets.empty() && mOldValues.empty()) // element command without targets (obsolete, see above)
        return;
    if (mTargets.empty()) {
        rig::Settings settings = mDocument->rig().settings;
        if (writeSetting(settings, mKey, forward ? mValue : mOldValues.front()))
            mDocument->setSettings(settings);
        return;
    }
    // Write into a copy of each element, then hand it to the document (which emits the change).
    for (std::size_t k = 0; k < mTargets.size(); ++k) {
        const ElementRef ref = mTargets[k];
        const std::int32_t i = indexOf(mDocument->rig(), ref);
        const QVariant& value = forward ? mValue : mOldValues[k];
        if (i == rig::kNone || !value.isValid())
            continue;
        rig::RigDescription scratch;
        appendElement(scratch, elementAt(mDocument->rig(), ref.kind, std::size_t(i)));
        if (writeProperty(scratch, ref.kind, 0, mKey, value))
            mDocument->replaceElement(ref, elementAt(scratch, ref.kind, 0));
    }
}

void ChangePropertyCommand::redo() { apply(true); }

void ChangePropertyCommand::undo() { apply(false); }

int ChangePropertyCommand::id() const { return kChangePropertyCommandId; }

bool ChangePropertyCommand::mergeWith(const QUndoCommand* other)
{
    const auto* next = static_cast<const ChangePropertyCommand*>(other);
    if (next->mTargets != mTargets || next->mKey != mKey || next->mOldValues.size() != mOldValues.size())
        return false;
    mValue = next->mValue;
    // Back where it started (a cancelled drag, a value typed back): the step changes nothing; drop it.
    if (std::all_of(mOldValues.begin(), mOldValues.end(), [this](const QVariant& old) { return old == mValue; }))
        setObsolete(true);
    return true;
}

} // namespace marionette::editor
