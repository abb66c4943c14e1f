#include "viewport/RigDrawBuilder.h"

#include "viewport/AngularGizmo.h"
#include "viewport/ElementSet.h"
#include "viewport/ViewportColours.h"

#include <algorithm>
#include <cmath>

namespace marionette::viewport {

namespace {

using project::ElementKind;

bool validIndex(std::int32_t i, std::size_t n)
{
    return i >= 0 && std::size_t(i) < n;
}

Colour mix(Colour a, Colour b, float t)
{
    return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t, a.a + (b.a - a.a) * t};
}

class Builder {
public:
    Builder(DrawList& out, const ViewportScene& scene, const RigPose& pose, const DisplayOptions& options)
        : mOut(out), mScene(scene), mPose(pose), mOptions(options), mHidden(scene.hidden), mSelected(scene.selection)
    {
    }

    bool hidden(ElementKind k, rig::ElementId id) const { return mHidden.contains(k, id); }
    bool hovered(ElementKind k, rig::ElementId id) const
    {
        return mScene.hovered && *mScene.hovered == project::ElementRef{k, id};
    }
    /// The colour of an element: selected, hovered, else its own.
    Colour tint(ElementKind k, rig::ElementId id, Colour own) const
    {
        if (mSelected.contains(k, id))
            return colours::kSelected.withAlpha(std::max(own.a, 0.9f));
        if (hovered(k, id))
            return colours::kHovered.withAlpha(std::max(own.a, 0.9f));
        return own;
    }
    float widthBoost(ElementKind k, rig::ElementId id) const
    {
        return mSelected.contains(k, id) || hovered(k, id) ? 1.5f : 0.f;
    }

    void particles();
    void sticks(bool lines, bool capsules);
    void triangles();
    void angular();
    void shapes();
    void bones();

private:
    void capsule(Vec3 a, Vec3 b, float radius, Colour c);
    void cone(const RigPose::AngularAnchor& anchor, const rig::AngularConstraint& a, Colour coneColour,
              Colour twistColour);

    DrawList& mOut;
    const ViewportScene& mScene;
    const RigPose& mPose;
    const DisplayOptions& mOptions;
    ElementSet mHidden;
    ElementSet mSelected;
};

void Builder::particles()
{
    const rig::RigDescription& r = *mPose.rig();
    for (std::size_t i = 0; i < r.particles.size(); ++i) {
        const rig::Particle& p = r.particles[i];
        if (hidden(ElementKind::Particle, p.id))
            continue;
        const Colour own = p.mass > 0.f ? colours::kParticle : colours::kKinematicParticle;
        const Colour c = mSelected.contains(ElementKind::Particle, p.id) ? colours::kSelected : own;
        const float drawn = p.radius * std::clamp(mOptions.particleSize, 0.05f, 1.f);
        mOut.spheres.push_back({mPose.particle(i), drawn, c.withAlpha(c.a * std::clamp(mOptions.particleOpacity, 0.05f, 1.f))});
        if (hovered(ElementKind::Particle, p.id))
            mOut.outlines.push_back({mPose.particle(i), drawn, colours::kHovered});
    }
}

void Builder::sticks(bool lines, bool capsules)
{
    const rig::RigDescription& r = *mPose.rig();
    const std::size_t n = mPose.positions().size();
    const bool strained = mScene.stickStrain.size() == r.sticks.size();
    const bool tracked = mScene.stickTracking.size() == r.sticks.size();
    for (std::size_t i = 0; i < r.sticks.size(); ++i) {
        const rig::Stick& s = r.sticks[i];
        if (hidden(ElementKind::Stick, s.id) || !validIndex(s.a, n) || !validIndex(s.b, n))
            continue;
        const Vec3 a = mPose.particle(std::size_t(s.a)), b = mPose.particle(std::size_t(s.b));
        if (lines) {
            Colour own = colours::kRigidStick;
            float width = RigDrawBuilder::kRangeStickWidth;
            bool dashed = true;
            switch (s.kind) {
            case rig::StickKind::Rigid:
                width = RigDrawBuilder::kRigidStickWidth;
                dashed = false;
                break;
            case rig::StickKind::Range: own = colours::kRangeStick; break;
            case rig::StickKind::MinOnly: own = colours::kMinOnlyStick; break;
            case rig::StickKind::MaxOnly: own = colours::kMaxOnlyStick; break;
            }
            // a stick outside its limits shows its strain even when selected or hovered (drawn wider then)
            const float strain = strained ? mScene.stickStrain[i] : 0.f;
            Colour c = std::fabs(strain) > RigDrawBuilder::kStrainDeadZone ? RigDrawBuilder::strainColour(own, strain)
                                                                            : tint(ElementKind::Stick, s.id, own);
            // a driven stick shows how far it is from its target instead, drawn wider
            const float tracking = tracked ? mScene.stickTracking[i] : -1.f;
            if (tracking >= 0.f || std::isnan(tracking)) {
                c = RigDrawBuilder::trackingColour(tracking);
                width = std::max(width, RigDrawBuilder::kTrackedStickWidth);
                dashed = false;
            }
            mOut.line(a, b, c, width + widthBoost(ElementKind::Stick, s.id), dashed);
        }
        if (capsules && s.capsuleRadius > 0.f)
            capsule(a, b, s.capsuleRadius, tint(ElementKind::Stick, s.id, colours::kShape));
    }
}

void Builder::capsule(Vec3 a, Vec3 b, float radius, Colour c)
{
    const Vec3 axis = normalizeOr(b - a, {0, 1, 0});
    const Vec3 u = anyPerpendicular(axis), v = cross(axis, u);
    mOut.arc(a, u, v, radius, 0.f, 2.f * kPi, c, 1.f, 24);
    mOut.arc(b, u, v, radius, 0.f, 2.f * kPi, c, 1.f, 24);
    for (int k = 0; k < 4; ++k) {
        const float t = float(k) * 0.5f * kPi;
        const Vec3 off = (u * std::cos(t) + v * std::sin(t)) * radius;
        mOut.line(a + off, b + off, c, 1.f);
    }
    // end caps: half circles in the two planes through the axis
    mOut.arc(b, u, axis, radius, 0.f, kPi, c, 1.f, 12);
    mOut.arc(b, v, axis, radius, 0.f, kPi, c, 1.f, 12);
    mOut.arc(a, u, -axis, radius, 0.f, kPi, c, 1.f, 12);
    mOut.arc(a, v, -axis, radius, 0.f, kPi, c, 1.f, 12);
}

void Builder::triangles()
{
    const rig::RigDescription& r = *mPose.rig();
    const std::size_t n = mPose.positions().size();
    const bool tracked = mScene.triangleTracking.size() == r.triangles.size();
    for (std::size_t i = 0; i < r.triangles.size(); ++i) {
        const rig::Triangle& t = r.triangles[i];
        if (hidden(ElementKind::Triangle, t.id) || !validIndex(t.p[0], n) || !validIndex(t.p[1], n) ||
            !validIndex(t.p[2], n))
            continue;
        const Vec3 a = mPose.particle(std::size_t(t.p[0])), b = mPose.particle(std::size_t(t.p[1])),
                   c = mPose.particle(std::size_t(t.p[2]));
        // a driven triangle is filled with its tracking colour (selection still shows on its edges)
        const float tracking = tracked ? mScene.triangleTracking[i] : -1.f;
        const bool driven = tracking >= 0.f || std::isnan(tracking);
        const Colour fill = driven ? RigDrawBuilder::trackingColour(tracking) : tint(ElementKind::Triangle, t.id, colours::kTriangleFace);
        mOut.triangle(a, b, c, fill.withAlpha(driven ? 0.6f : 0.28f));
        const Colour edge = driven && !mSelected.contains(ElementKind::Triangle, t.id) ? RigDrawBuilder::trackingColour(tracking)
                                                                                      : tint(ElementKind::Triangle, t.id, colours::kTriangleEdge);
        const float w = 1.f + widthBoost(ElementKind::Triangle, t.id);
        mOut.line(a, b, edge, w);
        mOut.line(b, c, edge, w);
        mOut.line(c, a, edge, w);
        const RigPose::Frame& f = mPose.triangleFrames()[i];
        if (!f.valid)
            continue;
        const float len = 0.3f * (length(b - a) + length(c - b) + length(a - c)) / 3.f;
        mOut.line(f.origin, f.origin + f.axes.c[0] * len, colours::kAxisX, 2.f);
        mOut.line(f.origin, f.origin + f.axes.c[1] * len, colours::kAxisY, 2.f);
        mOut.line(f.origin, f.origin + f.axes.c[2] * len, colours::kAxisZ, 2.f);
    }
}

void Builder::cone(const RigPose::AngularAnchor& anchor, const rig::AngularConstraint& a, Colour coneColour,
                   Colour twistColour)
{
    const Vec3 s1 = anchor.axes.c[0], t = anchor.axes.c[1], s2 = anchor.axes.c[2];
    const float len = AngularGizmo::coneLength(anchor);
    const int segments = 32;
    Vec3 rim[segments];
    for (int i = 0; i < segments; ++i) {
        const float phi = 2.f * kPi * float(i) / float(segments);
        float angle = a.coneAngle;
        if (a.limit == rig::AngularLimit::SwingTwist) {
            const float c = std::cos(phi) / std::max(a.swing1, 1e-3f), s = std::sin(phi) / std::max(a.swing2, 1e-3f);
            angle = 1.f / std::sqrt(c * c + s * s);
        }
        // tilt the twist axis by `angle` about the swing axis at phi
        const Vec3 about = s1 * std::cos(phi) + s2 * std::sin(phi);
        rim[i] = anchor.point + Quat::fromAxisAngle(about, std::min(angle, kPi)).rotate(t) * len;
    }
    for (int i = 0; i < segments; ++i) {
        mOut.line(rim[i], rim[(i + 1) % segments], coneColour, 1.5f);
        if (i % 4 == 0)
            mOut.line(anchor.point, rim[i], coneColour.withAlpha(coneColour.a * 0.6f), 1.f);
    }
    mOut.line(anchor.point, anchor.point + t * len, coneColour, 1.f, true);
    if (a.limit != rig::AngularLimit::SwingTwist)
        return;
    // twist: rotating s1 about t by θ gives s1·cos θ − s2·sin θ
    const Vec3 centre = AngularGizmo::twistCentre(anchor);
    const float radius = AngularGizmo::twistRadius(anchor);
    mOut.arc(centre, s1, -s2, radius, a.twistMin, a.twistMax, twistColour, 2.f, 24);
    mOut.line(centre, centre + (s1 * std::cos(a.twistMin) - s2 * std::sin(a.twistMin)) * radius, twistColour, 1.f);
    mOut.line(centre, centre + (s1 * std::cos(a.twistMax) - s2 * std::sin(a.twistMax)) * radius, twistColour, 1.f);
}

void Builder::angular()
{
    const rig::RigDescription& r = *mPose.rig();
    const bool checked = mScene.angularViolation.size() == r.angular.size();
    for (std::size_t i = 0; i < r.angular.size(); ++i) {
        const rig::AngularConstraint& a = r.angular[i];
        const RigPose::AngularAnchor& anchor = mPose.angular()[i];
        if (hidden(ElementKind::Angular, a.id) || !anchor.valid)
            continue;
        // beyond the limit: red whatever the selection (like a strained stick)
        const bool violated = checked && mScene.angularViolation[i] > kViolationRadians;
        const Colour cone = violated ? colours::kViolation : tint(ElementKind::Angular, a.id, colours::kAngularCone);
        const Colour twist = violated ? colours::kViolation : tint(ElementKind::Angular, a.id, colours::kAngularTwist);
        this->cone(anchor, a, cone, twist);
        mOut.spheres.push_back({anchor.point, -RigDrawBuilder::kAngularHandlePixels, cone.withAlpha(1.f)});
        if (hovered(ElementKind::Angular, a.id))
            mOut.outlines.push_back({anchor.point, -RigDrawBuilder::kAngularHandlePixels, colours::kHovered});
    }
}

void Builder::shapes()
{
    const rig::RigDescription& r = *mPose.rig();
    for (std::size_t i = 0; i < r.shapes.size(); ++i) {
        const rig::Shape& s = r.shapes[i];
        const RigPose::Frame& f = mPose.shapes()[i];
        if (hidden(ElementKind::Shape, s.id) || !f.valid)
            continue;
        const Colour c = tint(ElementKind::Shape, s.id, colours::kShape);
        const float w = 1.f + widthBoost(ElementKind::Shape, s.id);
        Vec3 corner[8];
        for (int k = 0; k < 8; ++k) {
            const Vec3 local{(k & 1) ? s.halfExtents.x : -s.halfExtents.x, (k & 2) ? s.halfExtents.y : -s.halfExtents.y,
                             (k & 4) ? s.halfExtents.z : -s.halfExtents.z};
            corner[k] = f.origin + f.axes * local;
        }
        for (int k = 0; k < 8; ++k)
            for (int bit : {1, 2, 4})
                if (!(k & bit))
                    mOut.line(corner[k], corner[k | bit], c, w);
    }
}

void Builder::bones()
{
    const rig::RigDescription& r = *mPose.rig();
    for (std::size_t i = 0; i < r.bones.size(); ++i) {
        const rig::Bone& bone = r.bones[i];
        if (hidden(ElementKind::Bone, bone.id))
            continue;
        const RigPose::BoneSegment& s = mPose.bones()[i];
        const Colour c = tint(ElementKind::Bone, bone.id, colours::kBone);
        const float w = 1.f + widthBoost(ElementKind::Bone, bone.id);
        if (mOptions.bonesAsLines) {
            mOut.line(s.head, s.tail, c, w);
            continue;
        }
        const float len = length(s.tail - s.head);
        const Vec3 dir = normalizeOr(s.tail - s.head, {0, 1, 0});
        const Vec3 u = anyPerpendicular(dir), v = cross(dir, u);
        const Vec3 mid = s.head + dir * (0.15f * len);
        const float rad = 0.1f * len;
        Vec3 ring[4] = {mid + u * rad, mid + v * rad, mid - u * rad, mid - v * rad};
        for (int k = 0; k < 4; ++k) {
            mOut.line(s.head, ring[k], c, w);
            mOut.line(ring[k], s.tail, c, w);
            mOut.line(ring[k], ring[(k + 1) % 4], c, w);
        }
    }
}

} // namespace

Colour RigDrawBuilder::strainColour(Colour normal, float strain)
{
    if (!std::isfinite(strain) || std::fabs(strain) <= kStrainDeadZone)
        return normal;
    const float t = std::sqrt(std::min(std::fabs(strain) / kStrainSaturation, 1.f));
    Colour c;
    if (strain < 0.f)
        c = mix(normal, colours::kStrainCompressed, t);
    else if (t < 0.5f)
        c = mix(normal, colours::kStrainStretched, 2.f * t);
    else
        c = mix(colours::kStrainStretched, colours::kStrainSaturated, 2.f * t - 1.f);
    return c.withAlpha(normal.a);
}

Colour RigDrawBuilder::trackingColour(float tolerances)
{
    if (!(tolerances < kTrackingSaturation)) // NaN: as bad as it gets
        return colours::kTrackingBad;
    const float t = std::max(tolerances, 0.f);
    return t <= 1.f ? mix(colours::kTrackingGood, colours::kTrackingTolerance, t)
                    : mix(colours::kTrackingTolerance, colours::kTrackingBad, (t - 1.f) / (kTrackingSaturation - 1.f));
}

void RigDrawBuilder::build(DrawList& out, const ViewportScene& scene, const RigPose& pose, const DisplayOptions& options)
{
    if (!pose.rig())
        return;
    Builder b(out, scene, pose, options);
    if (options.showTriangles)
        b.triangles();
    if (options.showSticks || options.showShapes)
        b.sticks(options.showSticks, options.showShapes);
    if (options.showShapes)
        b.shapes();
    if (options.showAngular)
        b.angular();
    if (options.showSkeleton)
        b.bones();
    if (options.showParticles)
        b.particles();
}

} // namespace marionette::viewport
