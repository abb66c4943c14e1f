// Marionette — the rig template interface: a skinned skeleton turned into a ragdoll rig (the auto-rig's
// templates; `--template NAME` on the command line, the template dialog in the editor).
//
// IID MARIONETTE_RIG_TEMPLATE_IID ("org.marionette.RigTemplate/1"). The built-in templates ("auto",
// "humanoid", "generic", docs/autorig.md) implement it too and are registered the same way.
#pragma once

#include "marionette/Math.h"
#include "marionette/plugin/PluginInterface.h"
#include "marionette/rig/RigDescription.h"

#include <QObject>
#include <QString>

#include <string>
#include <vector>

namespace marionette::plugin {

/// The skeleton to rig, already checked and normalised by the host:
///  - bones are in model space (metres, +Y up), parents before children, names non-empty;
///  - every bindWorld is finite and invertible, its translation (the joint) within 100 km of the origin;
///  - bindLocal = parent.bindWorld⁻¹ · bindWorld (bindWorld for a root), bindWorld · inverseBind = identity;
///  - boneVertices has exactly one list per bone (possibly empty): the model-space bind positions of the
///    vertices that bone skins most; every vertex finite;
///  - totalMass is finite and in (0, 1e6] kg.
struct TemplateInput {
    std::vector<rig::Bone> skeleton;
    std::vector<std::vector<Vec3>> boneVertices;
    float totalMass = 75.f;
    std::string name; ///< the rig's name (the source file's base name), never empty
};

/// What build() fills. On entry rig.bones is the input skeleton, rig.name the input name and rig.settings
/// the defaults; everything else is empty.
struct TemplateResult {
    /// On success: particles, constraints, triangles, angular constraints, shapes and bone bindings added
    /// (bones may not be added, removed or reordered). The particle masses should add up to totalMass.
    /// The host runs rig.validate() and the runtime's Rig::build() on it and refuses a rig that fails
    /// either, naming the template ("template 'quadruped' made an invalid rig: ...").
    rig::RigDescription rig;
    /// One line each: what an artist should know (bones that follow their parent, guesses made, radii
    /// taken from proportions...). Shown after the summary.
    std::vector<std::string> notes;
    /// One line when build() returns false, e.g. "quadruped template: no four legs found (2 leg chains)".
    std::string error;
    /// Optional: a more specific name of what was used when the template delegates (the built-in "auto"
    /// says "humanoid" or "generic"). Empty means the template's shortName().
    std::string templateUsed;
};

/// Builds a rig from a skeleton. Instances live until the host is destroyed (see RigExporter).
class RigTemplate {
public:
    virtual ~RigTemplate() = default;

    /// [a-z][a-z0-9_-]{0,31}, e.g. "quadruped"; unique among templates (see RigExporter::shortName()).
    virtual QString shortName() const = 0;
    /// One line for menus and listings, e.g. "Quadruped (dog, horse, cat)".
    virtual QString displayName() const = 0;
    /// A few sentences for the template dialog: which skeletons it expects and what it builds.
    virtual QString description() const = 0;

    /// Fills `result` from `input` (see both structs for what is guaranteed and expected). Returns false
    /// with result.error set when this template cannot rig the skeleton. Must not throw; may be called on a
    /// worker thread, never twice at the same time on one instance.
    virtual bool build(const TemplateInput& input, TemplateResult& result) const = 0;
};

} // namespace marionette::plugin

Q_DECLARE_INTERFACE(marionette::plugin::RigTemplate, MARIONETTE_RIG_TEMPLATE_IID)
