#include "QuadrupedTemplate.h"

#include "QuadrupedBuilder.h"
#include "QuadrupedMapping.h"

namespace marionette::plugins {

QString QuadrupedTemplate::description() const
{
    return QStringLiteral(
        "For a skeleton standing on four feet in its bind pose, +Y up. Legs are found by the hierarchy (chains down "
        "to the four lowest groups of leaf bones), front and hind by bone names (front/fore/arm/hand... against "
        "hind/rear/thigh/upleg/foot...) or the neck's side, left and right by names or position. Builds pelvis "
        "and chest triangles on a spine joint, hinged knees and elbows, a neck and head, a tail chain, radii "
        "from the skinned vertices and a dog's mass distribution.");
}

bool QuadrupedTemplate::build(const plugin::TemplateInput& input, plugin::TemplateResult& result) const
{
    QuadrupedMapping map = mapQuadruped(input.skeleton);
    if (!map.problem.empty()) {
        result.error = "quadruped template: " + map.problem;
        return false;
    }
    result.notes = std::move(map.notes);
    return buildQuadruped(input, map, result);
}

} // namespace marionette::plugins
