// Marionette — the editor's validation list: what is wrong or suspicious in a rig, each problem naming the
// elements at fault so a click selects them. Errors stop an export (the rig would not load or build);
// warnings are rigs that load but will likely misbehave.
#pragma once

#include "marionette/editor/RigEdit.h"
#include "marionette/import/ImportedScene.h"

#include <QString>

#include <vector>

namespace marionette::editor {

enum class Severity { Error, Warning };

struct ValidationIssue {
    Severity severity = Severity::Warning;
    QString message;                 ///< one line, naming the elements, e.g. "triangle 'pelvis': degenerate"
    std::vector<ElementRef> elements; ///< the culprits (may be empty for rig-wide problems)
};

/// Checks the rig: validate()'s and the runtime builder's errors, isolated particles, degenerate triangles,
/// angular constraints whose triangles share no particle, limits the bind pose already breaks (unreachable
/// rest state), zero-length and duplicate sticks, bones bound twice, and — given the mesh — bones that
/// carry skin weight but are driven by nothing (their vertices would stay behind). Errors come first.
std::vector<ValidationIssue> validateRig(const rig::RigDescription& rig, const import::ImportedScene* mesh = nullptr);

bool hasErrors(const std::vector<ValidationIssue>& issues);

} // namespace marionette::editor
