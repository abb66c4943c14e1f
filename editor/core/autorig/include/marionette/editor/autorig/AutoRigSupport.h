// Helpers shared by the auto-rig templates (the built-in humanoid and generic ones, and template plugins
// such as plugins/quadruped): the skeleton as a tree with joint positions, radius fitting, element
// construction, mass normalisation and the bind-pose overlap check of self-colliding capsules.
#pragma once

#include "marionette/Math.h"
#include "marionette/rig/RigDescription.h"

#include <cstdint>
#include <string>
#include <vector>

namespace marionette::editor::autorig {

/// The skeleton as a tree: joint positions (bindWorld translations), children, depths.
class SkeletonTree {
public:
    explicit SkeletonTree(const std::vector<rig::Bone>& bones);

    std::size_t size() const { return mParent.size(); }
    std::int32_t parent(std::int32_t b) const { return mParent[std::size_t(b)]; }
    const std::vector<std::int32_t>& children(std::int32_t b) const { return mChildren[std::size_t(b)]; }
    Vec3 joint(std::int32_t b) const { return mJoint[std::size_t(b)]; }
    int depth(std::int32_t b) const { return mDepth[std::size_t(b)]; }
    /// True when a is b or one of b's ancestors.
    bool isAncestorOrSelf(std::int32_t a, std::int32_t b) const;
    /// Lowest common ancestor, or kNone when a and b lie in different trees.
    std::int32_t lca(std::int32_t a, std::int32_t b) const;
    /// Bones strictly between ancestor `top` and `bottom`, from top down (empty when not an ancestor).
    std::vector<std::int32_t> between(std::int32_t top, std::int32_t bottom) const;
    /// The child of `top` on the way to its descendant `bottom`, or kNone.
    std::int32_t childToward(std::int32_t top, std::int32_t bottom) const;

private:
    std::vector<std::int32_t> mParent;
    std::vector<std::vector<std::int32_t>> mChildren;
    std::vector<Vec3> mJoint;
    std::vector<int> mDepth;
};

/// Distance from p to segment ab (a point when a == b).
float distanceToSegment(Vec3 p, Vec3 a, Vec3 b);
/// Shortest distance between segments ab and cd.
float segmentDistance(Vec3 a, Vec3 b, Vec3 c, Vec3 d);
/// The q-quantile (q in [0, 1]) of `values` (reordered). 0 for an empty list.
float quantile(std::vector<float>& values, float q);

/// Radius of the vertices around segment ab: the 75th percentile of their distances to it, clamped to
/// [lo, hi]. Returns `fallback` (unclamped) when `vertices` is empty; *fitted says which happened.
float fitRadius(const std::vector<const std::vector<Vec3>*>& vertices, Vec3 a, Vec3 b, float fallback, float lo,
                float hi, bool* fitted = nullptr);

rig::Particle makeParticle(std::string name, Vec3 position, float mass, float radius, std::int32_t bone,
                           std::uint32_t group = 1);
rig::Stick makeStick(std::string name, std::int32_t a, std::int32_t b, float capsuleRadius = 0.f,
                     std::uint32_t group = 1);
rig::Stick makeMinDistance(std::string name, std::int32_t a, std::int32_t b, float minLength);
rig::Triangle makeTriangle(std::string name, std::int32_t p0, std::int32_t p1, std::int32_t p2);
/// A swing-twist joint from triangle a to triangle b, its axes given in the world at bind: the twist axis
/// along `twistWorld` (`fallbackTwist` when that is zero), swing axis 1 along the part of `swingWorld`
/// perpendicular to it; both stored in b's bind frame `frameB` (Rig::triangleFrame). Twist limits are
/// clamped to [−π, π]; angular friction is the humanoid's (runtime::kHumanoidJointDamping 1/s, held still
/// below runtime::kHumanoidJointStaticFriction rad/s).
rig::AngularConstraint makeSwingTwist(std::string name, std::int32_t a, std::int32_t b, const Mat3& frameB,
                                      Vec3 twistWorld, Vec3 swingWorld, Vec3 fallbackTwist, float twistMin,
                                      float twistMax, float swing1, float swing2);
rig::BoneBinding makeBinding(const rig::RigDescription& d, std::int32_t bone, rig::BoneBinding::Driver driver,
                             std::int32_t index);

/// "a, b, c" of the names of `bones`, at most `limit` of them, then "and N more".
std::string listBones(const std::vector<rig::Bone>& skeleton, const std::vector<std::int32_t>& bones,
                      std::size_t limit = 12);

/// Scales the particle masses so they add up to `total` (positive masses only).
void normaliseMasses(rig::RigDescription& d, float total);

/// Self-colliding capsule pairs (the runtime's rule: filters pass, no shared particle, no rigid link)
/// that touch in the bind pose get both radii reduced so they clear each other by 5 % of their distance,
/// never below 40 % of the fitted radius; if some pair still touches, self-collision is switched off.
/// Each change is reported in `notes`.
void resolveBindOverlaps(rig::RigDescription& d, std::vector<std::string>& notes);

} // namespace marionette::editor::autorig
