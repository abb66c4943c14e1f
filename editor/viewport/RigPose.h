// Marionette viewport — the rig's world-space geometry in the pose a ViewportScene shows: particle
// positions (simulated or bind), triangle frames, bone segments, the anchors and frames of angular
// constraints and the world transforms of shapes. Shared by drawing, picking and framing. Plain C++.
#pragma once

#include "viewport/Camera.h"
#include "viewport/ViewMath.h"
#include "viewport/ViewportScene.h"

#include <vector>

namespace marionette::viewport {

class RigPose {
public:
    /// A frame: origin + rotation (columns = world axes); valid false for degenerate input.
    struct Frame {
        Vec3 origin;
        Mat3 axes;
        bool valid = false;
    };
    /// Where an angular constraint is drawn: the point the two triangles share (a shared particle, the
    /// middle of a shared edge, else the middle between the centroids), the limit frame in world space
    /// (X = swing axis 1, Y = twist axis, Z = swing axis 2) as the parent triangle A sees it, and a length
    /// for the cone (the distance to triangle B's centroid). The cone is never shorter than minimumCone: it
    /// reaches out of the pivot particles' spheres (1.6 × their largest radius) and, once sizeGizmos() has
    /// been given the camera, spans kConePixels on screen, so its handles are never lost inside a knee.
    struct AngularAnchor {
        Vec3 point;
        Mat3 axes;
        float length = 0.1f;
        float minimumCone = 0.f;
        bool valid = false;
    };
    static constexpr float kConePixels = 60.f;
    /// A bone as a segment: head at its joint, tail at the mean of its children's heads (or, for a leaf, a stub
    /// half its parent's length continuing the parent's direction: a hand goes on along the forearm).
    struct BoneSegment {
        Vec3 head, tail;
        Mat3 axes; ///< world rotation of the bone (unit columns)
    };

    RigPose() = default;
    explicit RigPose(const ViewportScene& scene);

    const rig::RigDescription* rig() const { return mRig; }
    const std::vector<Vec3>& positions() const { return mPositions; }
    Vec3 particle(std::size_t i) const { return mPositions[i]; }
    const std::vector<Frame>& triangleFrames() const { return mTriangleFrames; }
    const std::vector<BoneSegment>& bones() const { return mBones; }
    const std::vector<AngularAnchor>& angular() const { return mAngular; }
    /// World transform of each shape's box (its centre and axes); half extents are the shape's.
    const std::vector<Frame>& shapes() const { return mShapes; }

    Vec3 stickMidpoint(std::size_t i) const;
    /// Bounds of everything drawn for the rig (particle spheres, bones, boxes).
    Bounds bounds() const;
    /// Lengthens each angular gizmo's cone to span at least kConePixels on screen.
    void sizeGizmos(const Camera& camera, QSize viewport);

private:
    void computeBones(const ViewportScene& scene);
    void computeAngular();
    void computeShapes();

    const rig::RigDescription* mRig = nullptr;
    std::vector<Vec3> mPositions;
    std::vector<Frame> mTriangleFrames;
    std::vector<Frame> mBindTriangleFrames;
    std::vector<BoneSegment> mBones;
    std::vector<AngularAnchor> mAngular;
    std::vector<Frame> mShapes;
};

} // namespace marionette::viewport
