// Marionette — undo command: set one property (Properties.h) on one or many elements, or on the rig's
// settings. Consecutive changes of the same property on the same elements merge into one undo step, so
// dragging a spin box or typing digits is one step.
#pragma once

#include "marionette/editor/document/Document.h"

#include <QUndoCommand>
#include <QVariant>

namespace marionette::editor {

class ChangePropertyCommand : public QUndoCommand {
  public:
    /// Sets `key` to `value` on every element of `targets` (all of one kind). Elements that lack the
    /// property or are missing are skipped. The value must pass checkValue() (the caller checks first).
    ChangePropertyCommand(Document* document, std::vector<ElementRef> targets, QString key, QVariant value);
    /// Sets a rig setting (Properties.h settingsProperties()).
    ChangePropertyCommand(Document* document, QString settingKey, QVariant value);

    void redo() override;
    void undo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

  private:
    void apply(bool forward);

    Document* mDocument;
    std::vector<ElementRef> mTargets; ///< empty = the rig's settings
    QString mKey;
    QVariant mValue;
    std::vector<QVariant> mOldValues; ///< per target, or one for settings
};

} // namespace marionette::editor
