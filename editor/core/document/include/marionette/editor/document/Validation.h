// Marionette — the editor's validation list: what is wrong or suspicious in a rig, each problem naming the
// elements at fault so a click selects them. Errors stop an export (the rig would not load or build, or is
// certainly broken); warnings are rigs that load but will likely misbehave.
//
// One verdict for every caller: the editor's list and its export, `marionette validate` and `marionette
// export` all call rigVerdict() (or validateRig(), its list), which validates the rig once
// (rig::validated(): RigDescription::findings(), typed) and hands the proof on to the export
// (PluginHost::exportRig(exporter, const rig::Validated&, ...)), so an export validates once.
#pragma once

#include "marionette/editor/document/RigEdit.h"
#include "marionette/import/ImportedScene.h"
#include "marionette/rig/Validation.h"

#include <QString>

#include <optional>
#include <vector>

namespace marionette::editor {

using Severity = rig::Severity;

struct ValidationIssue {
    Severity severity = Severity::Warning;
    QString message;                 ///< one line, naming the elements, e.g. "triangle 'pelvis': degenerate"
    std::vector<ElementRef> elements; ///< the culprits (may be empty for rig-wide problems)
};

/// The verdict on a rig: its issues and, when none is an error, the proof of validation an export takes.
struct RigVerdict {
    std::vector<ValidationIssue> issues; ///< errors first
    std::optional<rig::Validated> valid; ///< set exactly when no issue is an error; refers to the rig judged
    bool ok() const { return valid.has_value(); }
};

/// Checks the rig: every finding of rig validation (RigDescription::findings(): each an error naming its
/// element, the message as validate() words it), and when there is none, the editor's own checks:
/// zero-length sticks (errors), isolated particles, angular constraints whose triangles share no particle,
/// limits the bind pose already breaks (unreachable rest state), duplicate sticks, and — given the mesh —
/// a rig skeleton that is not the mesh's (an error, with one more per binding to a bone the mesh does not
/// have: the mesh cannot follow such a rig), a rig with particles that drives none of a skinned mesh's bones,
/// and bones that carry skin weight but are driven by nothing (their vertices would stay behind). Errors
/// come first. Validates the rig once (counted by rig::validationCount()).
RigVerdict rigVerdict(const rig::RigDescription& rig, const import::ImportedScene* mesh = nullptr);
/// rigVerdict().issues.
std::vector<ValidationIssue> validateRig(const rig::RigDescription& rig, const import::ImportedScene* mesh = nullptr);

bool hasErrors(const std::vector<ValidationIssue>& issues);

/// The rig's skeleton against a mesh's. The bone palette has one matrix per rig bone and the mesh is skinned
/// by its own bone indices, so they must be the same bones (names and parents) in the same order.
struct SkeletonFit {
    std::size_t agreeing = 0; ///< leading bones with the same name and parent in both
    bool same = false;        ///< every bone agrees and both have as many
    /// Bindings (indices) that drive a bone the mesh has no bone of that name for. Bindings whose bone index
    /// is out of range (a rig being edited may be invalid) are skipped.
    std::vector<std::size_t> missingBindings;
};
SkeletonFit compareSkeletons(const rig::RigDescription& rig, const import::ImportedScene& mesh);

} // namespace marionette::editor
