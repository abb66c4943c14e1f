// Marionette — internals shared by the project reader, writer and checks.
#pragma once

#include "JsonSupport.h"

#include "marionette/project/ElementIndex.h"
#include "marionette/project/Project.h"

#include <QJsonObject>

namespace marionette::project::detail {

/// Calls f(kind, vector) for each of the nine element vectors of a rig, in ElementKind order.
template <class Rig, class F> void forEachSection(Rig& rig, F&& f)
{
    f(ElementKind::Particle, rig.particles);
    f(ElementKind::Stick, rig.sticks);
    f(ElementKind::Angle, rig.angles);
    f(ElementKind::Triangle, rig.triangles);
    f(ElementKind::Angular, rig.angular);
    f(ElementKind::Pin, rig.pins);
    f(ElementKind::Shape, rig.shapes);
    f(ElementKind::Bone, rig.bones);
    f(ElementKind::Binding, rig.bindings);
}

/// Fails unless `count` elements of `kind` are within kMaxElementsPerKind.
void checkElementCount(ElementKind kind, std::size_t count, const JsonPath& section);

/// Id of element `index` of a kind; the caller checks the range.
rig::ElementId idAt(const rig::RigDescription& rig, ElementKind kind, std::size_t index);

/// Checks what the file form needs beyond the rig's own validate(), failing (JsonError) with the JSON path:
/// unique nonzero ids, the source mesh hash, import, camera and editor values, editor references, scenario
/// references and values. Run by the writer before writing and by the reader after reading, so a file the
/// writer accepts always reads back.
void checkDocument(const Project& project, const ElementIndex& index);

/// checkElementIds() for a rig at `rigPath` ("$.rig", "$.lods[0].rig").
QString checkElementIdsAt(const rig::RigDescription& rig, const QString& rigPath);

/// The rig section. readRig() resolves ids into indices (the result has every id unique and nonzero).
void readRig(const QJsonValue& value, const JsonPath& at, rig::RigDescription& out);
QJsonObject writeRig(const rig::RigDescription& rig, const JsonPath& at);

/// A whole document of the current version (the caller has checked "format" and "version"): reads every
/// section, then checkDocument(). Fails (JsonError) at the first problem; `out` is only assigned at the end.
void readDocument(const QJsonObject& root, Project& out);
/// The current version's document; runs checkDocument() first.
QJsonObject writeDocument(const Project& project);

} // namespace marionette::project::detail
