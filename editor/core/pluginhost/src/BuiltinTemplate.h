// The built-in rig templates "auto", "humanoid" and "generic" (docs/autorig.md): the auto-rig behind the
// plugin interface, registered with the plugin host like any plugin.
#pragma once

#include "marionette/editor/autorig/AutoRig.h"
#include "marionette/plugin/RigTemplate.h"

#include <QObject>

namespace marionette::editor {

class BuiltinTemplate : public QObject, public plugin::RigTemplate {
    Q_OBJECT
    Q_INTERFACES(marionette::plugin::RigTemplate)

public:
    explicit BuiltinTemplate(editor::RigTemplate which) : mWhich(which) {}

    QString shortName() const override { return QString::fromLatin1(toString(mWhich)); }
    QString displayName() const override;
    QString description() const override;
    /// autoRig() with `requested` = this template; its error, notes and the template it used pass through.
    bool build(const plugin::TemplateInput& input, plugin::TemplateResult& result) const override;

private:
    editor::RigTemplate mWhich;
};

} // namespace marionette::editor
