#include "viewport/Picking.h"

#include "viewport/ElementSet.h"
#include "viewport/RigPose.h"

#include <algorithm>
#include <cmath>

namespace marionette::viewport {

namespace {

using project::ElementKind;

enum Priority { ParticlePriority, AngularPriority, StickPriority, BonePriority, ShapePriority, TrianglePriority };

struct Candidate {
    Pick pick;
    int priority = 0;
};

bool validIndex(std::int32_t i, std::size_t n)
{
    return i >= 0 && std::size_t(i) < n;
}

class Picker {
public:
    Picker(const ViewportScene& scene, const Camera& camera, QSize viewport, QPointF pixel)
        : mScene(scene), mCamera(camera), mViewport(viewport), mRay(camera.rayThrough(pixel, viewport)),
          mBlocked(scene.hidden, scene.locked)
    {
    }

    bool blocked(ElementKind kind, rig::ElementId id) const { return mBlocked.contains(kind, id); }
    float pixels(Vec3 p) const { return mCamera.worldPerPixel(p, mViewport); }

    void add(ElementKind kind, rig::ElementId id, int index, Vec3 point, float depth, int priority)
    {
        Candidate c;
        c.pick.element = {kind, id};
        c.pick.index = index;
        c.pick.point = point;
        c.pick.depth = depth;
        c.priority = priority;
        mCandidates.push_back(c);
    }

    void sphere(ElementKind kind, rig::ElementId id, int index, Vec3 centre, float radius, int priority)
    {
        float t;
        if (intersectSphere(mRay, centre, radius, t))
            add(kind, id, index, mRay.at(t), t, priority);
    }

    /// Segment within `tolerancePixels` on screen, or within `worldRadius` of the ray (capsules).
    void segment(ElementKind kind, rig::ElementId id, int index, Vec3 a, Vec3 b, float tolerancePixels,
                 float worldRadius, int priority)
    {
        float t, s;
        const float d = raySegmentDistance(mRay, a, b, t, s);
        const Vec3 onSegment = lerp(a, b, s);
        if (d <= tolerancePixels * pixels(onSegment) || d <= worldRadius)
            add(kind, id, index, onSegment, t, priority);
    }

    void triangle(rig::ElementId id, int index, Vec3 a, Vec3 b, Vec3 c)
    {
        float t;
        if (intersectTriangle(mRay, a, b, c, t))
            add(ElementKind::Triangle, id, index, mRay.at(t), t, TrianglePriority);
    }

    void box(rig::ElementId id, int index, const RigPose::Frame& f, Vec3 half)
    {
        const Ray local{f.axes.transposeMul(mRay.origin - f.origin), f.axes.transposeMul(mRay.direction)};
        float t;
        if (intersectBox(local, -half, half, t))
            add(ElementKind::Shape, id, index, mRay.at(t), t, ShapePriority);
    }

    std::optional<Pick> best() const
    {
        if (mCandidates.empty())
            return std::nullopt;
        const auto nearest = std::min_element(mCandidates.begin(), mCandidates.end(), [](auto& a, auto& b) {
            return a.pick.depth < b.pick.depth;
        });
        const float limit = nearest->pick.depth + kTiePixels * pixels(nearest->pick.point);
        const Candidate* chosen = nullptr;
        for (const Candidate& c : mCandidates) {
            if (c.pick.depth > limit)
                continue;
            if (!chosen || c.priority < chosen->priority ||
                (c.priority == chosen->priority && c.pick.depth < chosen->pick.depth))
                chosen = &c;
        }
        return chosen->pick;
    }

private:
    const ViewportScene& mScene;
    const Camera& mCamera;
    QSize mViewport;
    Ray mRay;
    ElementSet mBlocked;
    std::vector<Candidate> mCandidates;
};

} // namespace

std::optional<Pick> pickAt(const ViewportScene& scene, const Camera& camera, QSize viewport, QPointF pixel,
                           const DisplayOptions& layers)
{
    if (!scene.rig)
        return std::nullopt;
    const rig::RigDescription& r = *scene.rig;
    const RigPose pose(scene);
    Picker p(scene, camera, viewport, pixel);
    const std::vector<Vec3>& x = pose.positions();

    if (layers.showParticles)
        for (std::size_t i = 0; i < r.particles.size(); ++i) {
            const rig::Particle& q = r.particles[i];
            if (!p.blocked(ElementKind::Particle, q.id))
                p.sphere(ElementKind::Particle, q.id, int(i), x[i],
                         std::max(q.radius, kMinParticlePixels * p.pixels(x[i])), ParticlePriority);
        }
    if (layers.showAngular)
        for (std::size_t i = 0; i < r.angular.size(); ++i) {
            const RigPose::AngularAnchor& a = pose.angular()[i];
            if (a.valid && !p.blocked(ElementKind::Angular, r.angular[i].id))
                p.sphere(ElementKind::Angular, r.angular[i].id, int(i), a.point, kHandlePixels * p.pixels(a.point),
                         AngularPriority);
        }
    if (layers.showSticks || layers.showShapes)
        for (std::size_t i = 0; i < r.sticks.size(); ++i) {
            const rig::Stick& s = r.sticks[i];
            if (p.blocked(ElementKind::Stick, s.id) || !validIndex(s.a, x.size()) || !validIndex(s.b, x.size()))
                continue;
            const float tolerance = layers.showSticks ? kSegmentPixels : 0.f;
            const float capsule = layers.showShapes ? s.capsuleRadius : 0.f;
            if (tolerance > 0.f || capsule > 0.f)
                p.segment(ElementKind::Stick, s.id, int(i), x[std::size_t(s.a)], x[std::size_t(s.b)], tolerance,
                          capsule, StickPriority);
        }
    if (layers.showSkeleton)
        for (std::size_t i = 0; i < r.bones.size(); ++i) {
            const RigPose::BoneSegment& b = pose.bones()[i];
            if (!p.blocked(ElementKind::Bone, r.bones[i].id))
                p.segment(ElementKind::Bone, r.bones[i].id, int(i), b.head, b.tail, kSegmentPixels, 0.f, BonePriority);
        }
    if (layers.showShapes)
        for (std::size_t i = 0; i < r.shapes.size(); ++i)
            if (pose.shapes()[i].valid && !p.blocked(ElementKind::Shape, r.shapes[i].id))
                p.box(r.shapes[i].id, int(i), pose.shapes()[i], r.shapes[i].halfExtents);
    if (layers.showTriangles)
        for (std::size_t i = 0; i < r.triangles.size(); ++i) {
            const rig::Triangle& t = r.triangles[i];
            if (p.blocked(ElementKind::Triangle, t.id) || !validIndex(t.p[0], x.size()) ||
                !validIndex(t.p[1], x.size()) || !validIndex(t.p[2], x.size()))
                continue;
            p.triangle(t.id, int(i), x[std::size_t(t.p[0])], x[std::size_t(t.p[1])], x[std::size_t(t.p[2])]);
        }
    return p.best();
}

std::vector<project::ElementRef> pickInRect(const ViewportScene& scene, const Camera& camera, QSize viewport,
                                            const QRectF& rect, const DisplayOptions& layers)
{
    std::vector<project::ElementRef> out;
    if (!scene.rig)
        return out;
    const rig::RigDescription& r = *scene.rig;
    const RigPose pose(scene);
    const ElementSet blocked(scene.hidden, scene.locked);
    const QRectF area = rect.normalized();
    auto consider = [&](ElementKind kind, rig::ElementId id, Vec3 centre) {
        if (blocked.contains(kind, id))
            return;
        const std::optional<QPointF> s = camera.project(centre, viewport);
        if (s && area.contains(*s))
            out.push_back({kind, id});
    };
    if (layers.showParticles)
        for (std::size_t i = 0; i < r.particles.size(); ++i)
            consider(ElementKind::Particle, r.particles[i].id, pose.particle(i));
    if (layers.showSticks)
        for (std::size_t i = 0; i < r.sticks.size(); ++i)
            if (validIndex(r.sticks[i].a, pose.positions().size()) && validIndex(r.sticks[i].b, pose.positions().size()))
                consider(ElementKind::Stick, r.sticks[i].id, pose.stickMidpoint(i));
    if (layers.showTriangles)
        for (std::size_t i = 0; i < r.triangles.size(); ++i)
            if (pose.triangleFrames()[i].valid)
                consider(ElementKind::Triangle, r.triangles[i].id, pose.triangleFrames()[i].origin);
    if (layers.showAngular)
        for (std::size_t i = 0; i < r.angular.size(); ++i)
            if (pose.angular()[i].valid)
                consider(ElementKind::Angular, r.angular[i].id, pose.angular()[i].point);
    if (layers.showShapes)
        for (std::size_t i = 0; i < r.shapes.size(); ++i)
            if (pose.shapes()[i].valid)
                consider(ElementKind::Shape, r.shapes[i].id, pose.shapes()[i].origin);
    if (layers.showSkeleton)
        for (std::size_t i = 0; i < r.bones.size(); ++i)
            consider(ElementKind::Bone, r.bones[i].id, pose.bones()[i].head);
    return out;
}

std::optional<int> nearestJoint(const ViewportScene& scene, const Camera& camera, QSize viewport, QPointF pixel,
                                float maxPixels)
{
    const bool fromRig = scene.rig && !scene.rig->bones.empty();
    const std::vector<rig::Bone>* bones = fromRig ? &scene.rig->bones : (scene.mesh ? &scene.mesh->skeleton : nullptr);
    if (!bones)
        return std::nullopt;
    const ElementSet hidden(scene.hidden);
    std::optional<int> best;
    double bestDistance = double(maxPixels);
    for (std::size_t i = 0; i < bones->size(); ++i) {
        const rig::Bone& b = (*bones)[i];
        if (fromRig && hidden.contains(ElementKind::Bone, b.id))
            continue;
        const std::optional<QPointF> s = camera.project({b.bindWorld.m[12], b.bindWorld.m[13], b.bindWorld.m[14]}, viewport);
        if (!s)
            continue;
        const double d = std::hypot(s->x() - pixel.x(), s->y() - pixel.y());
        if (d <= bestDistance) {
            bestDistance = d;
            best = int(i);
        }
    }
    return best;
}

} // namespace marionette::viewport
