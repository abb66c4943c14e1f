#include "viewport/OverlayBuilder.h"

#include "viewport/ViewportColours.h"

#include <algorithm>
#include <cmath>

namespace marionette::viewport {

namespace {

constexpr int kHalfLines = 20;   ///< lines each side of the centre, per level
constexpr int kSegments = 16;    ///< pieces per line, so the fade follows the distance from the centre

float fade(Vec3 p, Vec3 centre, float radius)
{
    const float d = length(Vec3{p.x - centre.x, 0.f, p.z - centre.z}) / radius;
    return std::clamp(1.f - d * d, 0.f, 1.f);
}

void gridLevel(DrawList& out, Vec3 centre, float spacing, float radius, Colour colour, bool axes)
{
    const float extent = float(kHalfLines) * spacing;
    for (int dir = 0; dir < 2; ++dir)
        for (int i = -kHalfLines; i <= kHalfLines; ++i) {
            const float offset = float(i) * spacing;
            const bool onXAxis = dir == 0 && std::fabs(centre.z + offset) < 0.5f * spacing;
            const bool onZAxis = dir == 1 && std::fabs(centre.x + offset) < 0.5f * spacing;
            Colour c = colour;
            float width = 1.f;
            if (axes && onXAxis) {
                c = colours::kAxisX.withAlpha(0.8f);
                width = 1.5f;
            } else if (axes && onZAxis) {
                c = colours::kAxisZ.withAlpha(0.8f);
                width = 1.5f;
            }
            for (int s = 0; s < kSegments; ++s) {
                const float a = -extent + 2.f * extent * float(s) / float(kSegments);
                const float b = -extent + 2.f * extent * float(s + 1) / float(kSegments);
                const Vec3 p0 = dir == 0 ? Vec3{centre.x + a, 0.f, centre.z + offset} : Vec3{centre.x + offset, 0.f, centre.z + a};
                const Vec3 p1 = dir == 0 ? Vec3{centre.x + b, 0.f, centre.z + offset} : Vec3{centre.x + offset, 0.f, centre.z + b};
                out.lines.push_back({p0, c.withAlpha(c.a * fade(p0, centre, radius)), width, 0.f});
                out.lines.push_back({p1, c.withAlpha(c.a * fade(p1, centre, radius)), width, 0.f});
            }
        }
}

} // namespace

float OverlayBuilder::gridSpacing(const Camera& camera)
{
    const float d = std::max(camera.distance(), 1e-3f);
    return std::pow(10.f, std::floor(std::log10(0.1f * d)));
}

void OverlayBuilder::grid(DrawList& out, const Camera& camera)
{
    const float minor = gridSpacing(camera);
    const float major = 10.f * minor;
    const Vec3 t = camera.target();
    // centred under the target, snapped to the major spacing so lines do not swim when panning
    const Vec3 centre{std::round(t.x / major) * major, 0.f, std::round(t.z / major) * major};
    gridLevel(out, centre, minor, float(kHalfLines) * minor, colours::kGridMinor, false);
    gridLevel(out, centre, major, float(kHalfLines) * major, colours::kGridMajor, true);
}

void OverlayBuilder::ground(DrawList& out, const Camera& camera)
{
    const float radius = float(kHalfLines) * 10.f * gridSpacing(camera);
    const Vec3 t = camera.target();
    const Vec3 centre{t.x, 0.f, t.z};
    const int n = 32;
    const Colour inner = colours::kGround, outer = colours::kGround.withAlpha(0.f);
    for (int i = 0; i < n; ++i) {
        const float a0 = 2.f * kPi * float(i) / float(n), a1 = 2.f * kPi * float(i + 1) / float(n);
        const Vec3 d0{std::cos(a0), 0.f, std::sin(a0)}, d1{std::cos(a1), 0.f, std::sin(a1)};
        const Vec3 m0 = centre + d0 * (0.5f * radius), m1 = centre + d1 * (0.5f * radius);
        const Vec3 o0 = centre + d0 * radius, o1 = centre + d1 * radius;
        out.faces.push_back({centre, inner});
        out.faces.push_back({m0, inner});
        out.faces.push_back({m1, inner});
        out.faces.push_back({m0, inner});
        out.faces.push_back({o0, outer});
        out.faces.push_back({o1, outer});
        out.faces.push_back({m0, inner});
        out.faces.push_back({o1, outer});
        out.faces.push_back({m1, inner});
    }
}

void OverlayBuilder::gizmo(DrawList& out, const MoveGizmo& gizmo, const Camera& camera, QSize viewport)
{
    const std::optional<Vec3> origin = gizmo.drawnOrigin();
    if (!origin)
        return;
    const Vec3 o = *origin;
    const float len = gizmo.arrowLength(camera, viewport);
    const MoveGizmo::Handle active = gizmo.isDragging() ? gizmo.constraint() : gizmo.hovered();
    const Colour axisColour[3] = {colours::kAxisX, colours::kAxisY, colours::kAxisZ};
    const MoveGizmo::Handle handles[3] = {MoveGizmo::Handle::X, MoveGizmo::Handle::Y, MoveGizmo::Handle::Z};
    for (int k = 0; k < 3; ++k) {
        const Vec3 a = MoveGizmo::axisVector(handles[k]);
        const Colour c = active == handles[k] ? colours::kGizmoActive : axisColour[k];
        out.line(o, o + a * (0.8f * len), c, 3.f);
        // arrow head: a cone of 12 faces
        const Vec3 u = anyPerpendicular(a), v = cross(a, u);
        const Vec3 base = o + a * (0.78f * len), tip = o + a * len;
        const float r = 0.07f * len;
        for (int i = 0; i < 12; ++i) {
            const float t0 = 2.f * kPi * float(i) / 12.f, t1 = 2.f * kPi * float(i + 1) / 12.f;
            const Vec3 p0 = base + (u * std::cos(t0) + v * std::sin(t0)) * r;
            const Vec3 p1 = base + (u * std::cos(t1) + v * std::sin(t1)) * r;
            const float shade = 0.75f + 0.25f * std::cos(t0);
            out.triangle(p0, p1, tip, c.scaled(shade));
            out.triangle(p1, p0, base, c.scaled(0.6f));
        }
        if (gizmo.isDragging() && gizmo.constraint() == handles[k])
            out.line(o - a * (50.f * len), o + a * (50.f * len), c.withAlpha(0.6f), 1.f);
    }
    const float h = MoveGizmo::kSquarePixels * camera.worldPerPixel(o, viewport);
    const Vec3 r = camera.right() * h, u = camera.up() * h;
    const Colour c = active == MoveGizmo::Handle::Plane ? colours::kGizmoActive : colours::kGizmoCentre;
    const Vec3 q[4] = {o - r - u, o + r - u, o + r + u, o - r + u};
    for (int k = 0; k < 4; ++k)
        out.line(q[k], q[(k + 1) % 4], c, 2.f);
    out.triangle(q[0], q[1], q[2], c.withAlpha(0.25f));
    out.triangle(q[0], q[2], q[3], c.withAlpha(0.25f));
}

void OverlayBuilder::staticBoxes(DrawList& out, const std::vector<SceneBoxShape>& boxes)
{
    const Vec3 light = normalizeOr(Vec3{0.35f, 1.f, 0.55f}, {0, 1, 0});
    // corner k has x = ±h.x by bit 0, y by bit 1, z by bit 2; faces counter-clockwise from outside
    const int quads[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    const Vec3 normals[6] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
    for (const SceneBoxShape& box : boxes) {
        const Vec3 h = box.halfExtents;
        if (!(std::isfinite(h.x) && std::isfinite(h.y) && std::isfinite(h.z)))
            continue;
        Vec3 corner[8];
        for (int k = 0; k < 8; ++k)
            corner[k] = box.pose.apply({(k & 1) ? h.x : -h.x, (k & 2) ? h.y : -h.y, (k & 4) ? h.z : -h.z});
        for (int f = 0; f < 6; ++f) {
            const Vec3 n = box.pose.rotation.rotate(normals[f]);
            const float shade = 0.45f + 0.55f * std::max(dot(n, light), 0.f);
            const Colour c = colours::kStaticBox.scaled(shade);
            const int* q = quads[f];
            out.triangle(corner[q[0]], corner[q[1]], corner[q[2]], c);
            out.triangle(corner[q[0]], corner[q[2]], corner[q[3]], c);
        }
        for (int k = 0; k < 8; ++k)
            for (int bit : {1, 2, 4})
                if (!(k & bit))
                    out.line(corner[k], corner[k | bit], colours::kStaticBoxEdge, 1.5f);
    }
}

void OverlayBuilder::contacts(DrawList& out, const std::vector<Vec3>& points)
{
    for (const Vec3& p : points) {
        if (!(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)))
            continue;
        out.spheres.push_back({p, -kContactPixels, colours::kContact});
        out.outlines.push_back({p, -kContactPixels, colours::kContactOutline});
    }
}

void OverlayBuilder::impulseArrows(DrawList& out, const std::vector<ImpulseArrow>& arrows)
{
    constexpr int kSegments = 12;
    constexpr float kPi = 3.14159265358979f;
    for (const ImpulseArrow& a : arrows) {
        const float l = length(a.direction);
        if (!isFinite(a.point) || !isFinite(a.direction) || !(l > 1e-6f) || !(a.length > 0.f) || !std::isfinite(a.length))
            continue;
        const Vec3 d = a.direction / l;
        const Colour c = colours::kImpulse.withAlpha(std::clamp(a.opacity, 0.f, 1.f));
        const float head = 0.25f * a.length;
        const Vec3 base = a.point - d * head, tail = a.point - d * a.length;
        out.line(tail, base, c, kArrowShaftPixels);
        const Vec3 u = anyPerpendicular(d), v = cross(d, u);
        const float r = 0.4f * head;
        for (int i = 0; i < kSegments; ++i) {
            const float t0 = 2.f * kPi * float(i) / kSegments, t1 = 2.f * kPi * float(i + 1) / kSegments;
            const Vec3 p0 = base + (u * std::cos(t0) + v * std::sin(t0)) * r;
            const Vec3 p1 = base + (u * std::cos(t1) + v * std::sin(t1)) * r;
            out.triangle(a.point, p0, p1, c);
            out.triangle(base, p1, p0, c.scaled(0.6f));
        }
    }
}

void OverlayBuilder::rubberBand(DrawList& out, const QRectF& rect)
{
    const QRectF r = rect.normalized();
    const Vec3 a{float(r.left()), float(r.top()), 0.f}, b{float(r.right()), float(r.top()), 0.f};
    const Vec3 c{float(r.right()), float(r.bottom()), 0.f}, d{float(r.left()), float(r.bottom()), 0.f};
    out.triangle(a, b, c, colours::kRubberBandFill);
    out.triangle(a, c, d, colours::kRubberBandFill);
    out.line(a, b, colours::kRubberBand, 1.f, true);
    out.line(b, c, colours::kRubberBand, 1.f, true);
    out.line(c, d, colours::kRubberBand, 1.f, true);
    out.line(d, a, colours::kRubberBand, 1.f, true);
}

} // namespace marionette::viewport
