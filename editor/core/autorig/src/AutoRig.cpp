#include "marionette/editor/autorig/AutoRig.h"

#include "Templates.h"

#include "marionette/editor/autorig/AutoRigSupport.h"
#include "marionette/runtime/Rig.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace marionette::editor {

const char* toString(RigTemplate t)
{
    switch (t) {
    case RigTemplate::Auto: return "auto";
    case RigTemplate::Humanoid: return "humanoid";
    case RigTemplate::Generic: return "generic";
    }
    return "unknown";
}

namespace {

bool finite(const Mat4& m)
{
    for (float v : m.m)
        if (!std::isfinite(v))
            return false;
    return true;
}

float maxDeviationFromIdentity(const Mat4& m)
{
    const Mat4 id;
    float worst = 0.f;
    for (int i = 0; i < 16; ++i)
        worst = std::max(worst, std::fabs(m.m[i] - id.m[i]));
    return worst;
}

std::string boneError(const std::string& name, const char* what)
{
    std::string e = "bone '";
    e.append(name).append("': ").append(what);
    return e;
}

/// A bone neither bound, nor below a bound bone, nor above one (the runtime moves an unbound root with its
/// first driven descendant) would stay where the ragdoll was spawned while the body falls, dragging its
/// vertices with it. Such bones take the driver of the bound bone whose joint is nearest (their offset is
/// captured at bind, so they move rigidly with that part).
void bindStrandedBones(rig::RigDescription& d, std::vector<std::string>& notes)
{
    const std::size_t n = d.bones.size();
    std::vector<int> binding(n, -1);
    for (std::size_t i = 0; i < d.bindings.size(); ++i)
        binding[std::size_t(d.bindings[i].bone)] = int(i);
    std::vector<char> carried(n, 0); // bound, or a bound ancestor carries it
    for (std::size_t i = 0; i < n; ++i) // parents come before children
        carried[i] = binding[i] >= 0 || (d.bones[i].parent >= 0 && carried[std::size_t(d.bones[i].parent)]);
    std::vector<char> boundBelow(n, 0); // a descendant is bound
    for (std::size_t i = n; i-- > 0;)
        if ((binding[i] >= 0 || boundBelow[i]) && d.bones[i].parent >= 0)
            boundBelow[std::size_t(d.bones[i].parent)] = 1;
    for (std::size_t i = 0; i < n; ++i) // below a root its descendant carries
        if (!carried[i] && boundBelow[i])
            carried[i] = 1;
    for (std::size_t i = 0; i < n; ++i)
        carried[i] = carried[i] || (d.bones[i].parent >= 0 && carried[std::size_t(d.bones[i].parent)]);
    std::string moved;
    for (std::size_t i = 0; i < n; ++i) {
        if (carried[i])
            continue;
        const Vec3 at = d.bones[i].bindWorld.transformPoint({});
        int nearest = -1;
        float best = std::numeric_limits<float>::max();
        for (std::size_t j = 0; j < n; ++j)
            if (binding[j] >= 0) {
                const float dist = length(d.bones[j].bindWorld.transformPoint({}) - at);
                if (dist < best) {
                    best = dist;
                    nearest = int(j);
                }
            }
        if (nearest < 0)
            return; // nothing is bound at all
        rig::BoneBinding b = d.bindings[std::size_t(binding[std::size_t(nearest)])];
        b.bone = std::int32_t(i);
        b.name = d.bones[i].name;
        b.id = 0;
        b.hasOffset = false;
        d.bindings.push_back(b);
        binding[i] = int(d.bindings.size() - 1);
        carried[i] = 1;
        // Its children are carried now too.
        for (std::size_t k = i + 1; k < n; ++k)
            carried[k] = carried[k] || (d.bones[k].parent >= 0 && carried[std::size_t(d.bones[k].parent)]);
        if (!moved.empty())
            moved.append(", ");
        moved.append(d.bones[i].name).append(" (with ").append(d.bones[std::size_t(nearest)].name).append(")");
    }
    if (!moved.empty())
        notes.push_back("root bones no part drives move with the nearest part: " + moved);
}

} // namespace

std::string prepareAutoRigSkeleton(const AutoRigInput& in, std::vector<rig::Bone>& bones, std::vector<std::string>& notes)
{
    if (in.skeleton.empty())
        return "the auto-rig needs a skeleton (the mesh has no bones)";
    if (!in.boneVertices.empty() && in.boneVertices.size() != in.skeleton.size())
        return "boneVertices has " + std::to_string(in.boneVertices.size()) + " lists for " +
               std::to_string(in.skeleton.size()) + " bones (give none or one per bone)";
    if (!std::isfinite(in.totalMass) || !(in.totalMass > 0.f) || in.totalMass > 1e6f)
        return "totalMass must be a finite number of kilograms above 0";
    bones = in.skeleton;
    std::vector<std::int32_t> recomputed;
    for (std::size_t i = 0; i < bones.size(); ++i) {
        rig::Bone& b = bones[i];
        if (b.name.empty()) {
            b.name = "bone" + std::to_string(i);
            notes.push_back("bones[" + std::to_string(i) + "] has no name: called " + b.name);
        }
        if (b.parent != rig::kNone && (b.parent < 0 || std::size_t(b.parent) >= i))
            return boneError(b.name, "its parent must be an earlier bone (parents first)");
        if (!finite(b.bindWorld))
            return boneError(b.name, "bindWorld is not finite");
        Mat4 inv;
        if (!invertAffine(b.bindWorld, inv) || !finite(inv))
            return boneError(b.name, "bindWorld cannot be inverted");
        if (std::fabs(b.bindWorld.m[12]) > 1e5f || std::fabs(b.bindWorld.m[13]) > 1e5f ||
            std::fabs(b.bindWorld.m[14]) > 1e5f)
            return boneError(b.name, "its joint is further than 100 km from the origin");
        if (!in.boneVertices.empty())
            for (const Vec3& v : in.boneVertices[i])
                if (!isFinite(v))
                    return boneError(b.name, "a skinned vertex is not finite");
        if (!finite(b.inverseBind) || maxDeviationFromIdentity(b.bindWorld * b.inverseBind) > 1e-3f) {
            b.inverseBind = inv;
            recomputed.push_back(std::int32_t(i));
        }
        if (b.parent == rig::kNone) {
            b.bindLocal = b.bindWorld;
        } else {
            Mat4 parentInv;
            invertAffine(bones[std::size_t(b.parent)].bindWorld, parentInv);
            b.bindLocal = parentInv * b.bindWorld;
        }
        b.id = 0;
    }
    if (!recomputed.empty()) {
        std::string n = "inverse bind matrices recomputed from bindWorld (they did not invert it) for ";
        n.append(autorig::listBones(bones, recomputed));
        notes.push_back(std::move(n));
    }
    return {};
}

AutoRigResult autoRig(const AutoRigInput& in)
{
    AutoRigResult out;
    if (std::string e = prepareAutoRigSkeleton(in, out.rig.bones, out.notes); !e.empty()) {
        out.error = std::move(e);
        out.rig.bones.clear();
        out.notes.clear();
        return out;
    }
    const std::vector<std::vector<Vec3>> noVertices(in.boneVertices.empty() ? in.skeleton.size() : 0);
    const autorig::TemplateInput tin{in.boneVertices.empty() ? noVertices : in.boneVertices, in.totalMass};
    rig::RigDescription& d = out.rig;
    d.name = in.name.empty() ? "autorig" : in.name;
    d.settings = rig::Settings{};

    bool humanoid = false;
    if (in.requested != RigTemplate::Generic) {
        out.mapping = mapHumanoid(d.bones);
        humanoid = out.mapping.complete();
        std::string why = out.mapping.problem;
        if (!out.mapping.shapeProblem.empty())
            why.append("; by shape: ").append(out.mapping.shapeProblem);
        if (!humanoid && in.requested == RigTemplate::Humanoid) {
            out.error = "humanoid template: " + why;
            return out;
        }
        if (!humanoid)
            out.notes.insert(out.notes.begin(), "generic template: not a humanoid (" + why + ")");
    }
    std::string error;
    const bool built = humanoid ? autorig::buildHumanoid(tin, out.mapping, d, out.notes, &error)
                                : autorig::buildGeneric(tin, d, out.notes, &error);
    if (!built) {
        out.error = std::move(error);
        return out;
    }
    bindStrandedBones(d, out.notes);
    out.templateUsed = humanoid ? "humanoid" : "generic";
    if (humanoid) {
        const HumanoidMapping& m = out.mapping;
        std::size_t found = 0;
        for (std::int32_t b : m.bones)
            found += b != rig::kNone ? 1 : 0;
        std::string note = "humanoid template: every body part was found";
        if (m.fromTopology && m.byShape.size() == found) {
            note = "humanoid template: bones matched by the skeleton's shape, not their names";
        } else if (m.fromTopology) {
            note = "humanoid template: ";
            for (std::size_t i = 0; i < m.byShape.size(); ++i)
                note.append(i ? ", " : "").append(toString(m.byShape[i]));
            note.append(" matched by the skeleton's shape, the other parts by their names");
        }
        out.notes.insert(out.notes.begin(), std::move(note));
    }
    // The result must be an ordinary rig the runtime accepts; anything else is a bug here, reported as such.
    std::string check;
    if (!runtime::Rig::build(d, &check) && check.empty()) // validates once
        check = "the runtime refused it";
    if (!check.empty()) {
        out.error = "the auto-rig made an invalid rig (please report): " + check;
        return out;
    }
    out.ok = true;
    return out;
}

} // namespace marionette::editor
