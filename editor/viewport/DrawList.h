// Marionette viewport — what one draw call batch holds, in world space (or pixels for the screen
// overlay): wide lines (expanded to screen-space quads in a geometry shader, optionally dashed), shaded
// spheres (instanced), sphere outlines and flat faces. Built by RigDrawBuilder and OverlayBuilder without
// GL, uploaded and drawn by GlRenderer. All structs are tightly packed floats (uploaded as is).
#pragma once

#include "marionette/Math.h"

#include <cmath>
#include <vector>

namespace marionette::viewport {

struct Colour {
    float r = 1.f, g = 1.f, b = 1.f, a = 1.f;

    constexpr Colour withAlpha(float alpha) const { return {r, g, b, alpha}; }
    constexpr Colour scaled(float k) const { return {r * k, g * k, b * k, a}; }
    constexpr bool operator==(const Colour&) const = default;
};

struct LineVertex {
    Vec3 position;
    Colour colour;
    float width = 1.f;  ///< pixels
    float dashed = 0.f; ///< 1 = dashed
};

/// A sphere: radius in metres, or −pixels for a constant screen size. Spheres are never drawn smaller
/// than the renderer's minimum pixel radius (the picking minimum, kMinParticlePixels).
struct SphereInstance {
    Vec3 centre;
    float radius = 0.f;
    Colour colour;
};

struct FaceVertex {
    Vec3 position;
    Colour colour;
};

static_assert(sizeof(LineVertex) == 9 * sizeof(float));
static_assert(sizeof(SphereInstance) == 8 * sizeof(float));
static_assert(sizeof(FaceVertex) == 7 * sizeof(float));

struct DrawList {
    std::vector<LineVertex> lines;         ///< two per segment
    std::vector<SphereInstance> spheres;
    std::vector<SphereInstance> outlines;  ///< drawn as a rim a few pixels around the sphere
    std::vector<FaceVertex> faces;         ///< three per triangle, drawn both sides

    void clear()
    {
        lines.clear();
        spheres.clear();
        outlines.clear();
        faces.clear();
    }
    bool empty() const { return lines.empty() && spheres.empty() && outlines.empty() && faces.empty(); }

    void line(Vec3 a, Vec3 b, Colour c, float width = 1.5f, bool dashed = false)
    {
        lines.push_back({a, c, width, dashed ? 1.f : 0.f});
        lines.push_back({b, c, width, dashed ? 1.f : 0.f});
    }
    void triangle(Vec3 a, Vec3 b, Vec3 c, Colour colour)
    {
        faces.push_back({a, colour});
        faces.push_back({b, colour});
        faces.push_back({c, colour});
    }
    /// Arc of the circle centre + radius·(u·cos θ + v·sin θ) for θ in [from, to]; u, v unit and orthogonal.
    void arc(Vec3 centre, Vec3 u, Vec3 v, float radius, float from, float to, Colour c, float width = 1.5f,
             int segments = 32)
    {
        Vec3 prev = centre + (u * std::cos(from) + v * std::sin(from)) * radius;
        for (int i = 1; i <= segments; ++i) {
            const float t = from + (to - from) * float(i) / float(segments);
            const Vec3 p = centre + (u * std::cos(t) + v * std::sin(t)) * radius;
            line(prev, p, c, width);
            prev = p;
        }
    }
};

} // namespace marionette::viewport
