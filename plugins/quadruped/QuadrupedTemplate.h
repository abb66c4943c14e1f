// The quadruped rig template: a dog, horse or cat skeleton becomes a ragdoll with a pelvis and a chest
// triangle, four legs with hinged knees, a neck and head, and a tail (QuadrupedMapping.h for how the bones
// are recognised, QuadrupedBuilder.h for what is built).
#pragma once

#include "marionette/plugin/RigTemplate.h"

#include <QObject>

namespace marionette::plugins {

class QuadrupedTemplate : public QObject, public plugin::RigTemplate {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID MARIONETTE_RIG_TEMPLATE_IID FILE "quadruped.json")
    Q_INTERFACES(marionette::plugin::RigTemplate)

public:
    QString shortName() const override { return QStringLiteral("quadruped"); }
    QString displayName() const override { return QStringLiteral("Quadruped (dog, horse, cat)"); }
    QString description() const override;
    /// Fails naming what is missing: "quadruped template: 2 feet reach the ground (four are needed): ...".
    bool build(const plugin::TemplateInput& input, plugin::TemplateResult& result) const override;
};

} // namespace marionette::plugins
