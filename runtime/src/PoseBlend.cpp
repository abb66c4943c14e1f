// From ragdoll back to animation (PoseBlend.h).
#include "marionette/runtime/PoseBlend.h"

#include <algorithm>
#include <cmath>

namespace marionette::runtime {

namespace {

Mat4 compose(Quat q, Vec3 t, Vec3 scale)
{
    const Mat3 r = toMat3(q);
    Mat3 rs = Mat3::fromColumns(r.c[0] * scale.x, r.c[1] * scale.y, r.c[2] * scale.z);
    return Mat4::fromRotationTranslation(rs, t);
}

} // namespace

float tiltDifference(const Mat4& a, const Mat4& b, Vec3 up)
{
    const Vec3 n = normalizeOr(up, {0.f, 1.f, 0.f});
    const Vec3 ua = rotationOf(a).conjugate().rotate(n);
    const Vec3 ub = rotationOf(b).conjugate().rotate(n);
    return std::acos(std::clamp(dot(ua, ub), -1.f, 1.f));
}

std::int32_t closestTilt(const Mat4& root, std::span<const Mat4> candidates, Vec3 up)
{
    std::int32_t best = -1;
    float bestAngle = INFINITY;
    for (std::size_t k = 0; k < candidates.size(); ++k) {
        const float a = tiltDifference(root, candidates[k], up);
        if (a < bestAngle) {
            bestAngle = a;
            best = std::int32_t(k);
        }
    }
    return best;
}

Transform headingAlignment(const Mat4& clipRoot, const Mat4& root, Vec3 up)
{
    const Vec3 n = normalizeOr(up, {0.f, 1.f, 0.f});
    // The world rotation taking the clip's root orientation to the body's, reduced to its twist about up.
    const Quat q = rotationOf(root) * rotationOf(clipRoot).conjugate();
    const float along = dot(q.vec(), n);
    Quat twist = normalize(Quat{n.x * along, n.y * along, n.z * along, q.w});
    if (!(std::fabs(along) > 1e-9f || std::fabs(q.w) > 1e-9f))
        twist = Quat{};
    const Vec3 moved = twist.rotate(clipRoot.translation());
    Vec3 shift = root.translation() - moved;
    shift = shift - n * dot(shift, n);
    return {twist, shift};
}

bool blendPalettes(const Rig& rig, std::span<const Mat4> from, std::span<const Mat4> toStart, std::span<const Mat4> to,
                   float weight, std::span<Mat4> out)
{
    const std::size_t n = rig.bones().size();
    if (from.size() != n || toStart.size() != n || to.size() != n || out.size() < n || !(weight >= 0.f && weight <= 1.f))
        return false;
    const float keep = 1.f - weight;
    for (std::size_t b = 0; b < n; ++b) {
        Vec3 st;
        const Quat qf = rotationOf(from[b]), q0 = rotationOf(toStart[b]), qt = rotationOf(to[b], &st);
        // The world rotation taking the clip's first pose of the bone onto the body's, along the short arc,
        // scaled down by angle (uniform angular speed as the weight moves).
        Quat offset = normalize(qf * q0.conjugate());
        if (offset.w < 0.f)
            offset = Quat{-offset.x, -offset.y, -offset.z, -offset.w};
        const float half = std::acos(std::clamp(offset.w, -1.f, 1.f));
        const float sinHalf = std::sin(half);
        const Quat part = sinHalf > 1e-6f ? Quat::fromAxisAngle(offset.vec() / sinHalf, 2.f * half * keep) : Quat{};
        const Vec3 shift = (from[b].translation() - toStart[b].translation()) * keep;
        out[b] = compose(normalize(part * qt), to[b].translation() + shift, st);
    }
    return true;
}

} // namespace marionette::runtime
