// A small hand-made rig that uses every kind of element and every kind of index reference, for the
// editor/core suites (RigEdit, commands), and helpers to name its elements. Element names start with a
// letter per kind: p particle, s stick, a angle, t triangle, g angular, n pin, h shape, b bone, d binding.
// Ids are deliberately not the indices (id = 100 + 7 × index) so that a mix-up of the two shows.
//
//   particles p0 (0,0,0) bone b0, p1 (0,1,0) b1, p2 (1,0,0) b2, p3 (0,0,1) b3, p4 (1,1,1) none, p5 (2,1,0) b3
//   sticks    s0 p0-p1, s1 p1-p2, s2 p3-p4, s3 p4-p5        angle a0 at p1 between p0 and p2
//   triangles t0 (p0,p1,p2), t1 (p2,p3,p4), t2 (p3,p4,p5)    angular g0 (t0,t1), g1 (t1,t2)
//   pin n0 on p5      shapes h0 box on t2, h1 box in the tetrahedron (p0,p1,p2,p3)
//   bones b0 root, b1 child of b0, b2 child of b1, b3 child of b0
//   bindings d0 b0 by triangle t0, d1 b1 by stick s1, d2 b3 by triangle t2
#pragma once

#include "marionette/editor/document/RigEdit.h"
#include "marionette/rig/RigDescription.h"

#include <QString>
#include <QStringList>

#include <algorithm>
#include <string>

namespace marionette::test {

using editor::ElementKind;
using editor::ElementRef;
constexpr std::int32_t kNone = rig::kNone;

inline rig::ElementId sampleId(int index) { return rig::ElementId(100 + 7 * index); }

/// "<letter><index>", e.g. "p3".
inline std::string label(char letter, int index)
{
    std::string s(1, letter);
    s += std::to_string(index);
    return s;
}

inline rig::Particle P(int i, Vec3 at, std::int32_t bone)
{
    rig::Particle p;
    p.name = label('p', i);
    p.id = sampleId(i);
    p.position = at;
    p.bone = bone;
    return p;
}
inline rig::Stick S(int i, std::int32_t a, std::int32_t b)
{
    rig::Stick s;
    s.name = label('s', i);
    s.id = sampleId(i);
    s.a = a;
    s.b = b;
    return s;
}
inline rig::AngleConstraint A(int i, std::int32_t center, std::int32_t a, std::int32_t b)
{
    rig::AngleConstraint c;
    c.name = label('a', i);
    c.id = sampleId(i);
    c.center = center;
    c.a = a;
    c.b = b;
    return c;
}
inline rig::Triangle T(int i, std::int32_t p0, std::int32_t p1, std::int32_t p2)
{
    rig::Triangle t;
    t.name = label('t', i);
    t.id = sampleId(i);
    t.p[0] = p0;
    t.p[1] = p1;
    t.p[2] = p2;
    return t;
}
inline rig::AngularConstraint G(int i, std::int32_t a, std::int32_t b)
{
    rig::AngularConstraint c;
    c.name = label('g', i);
    c.id = sampleId(i);
    c.triangleA = a;
    c.triangleB = b;
    return c;
}
inline rig::Pin N(int i, std::int32_t particle)
{
    rig::Pin p;
    p.name = label('n', i);
    p.id = sampleId(i);
    p.particle = particle;
    return p;
}
inline rig::Shape HTriangle(int i, std::int32_t triangle)
{
    rig::Shape s;
    s.name = label('h', i);
    s.id = sampleId(i);
    s.triangle = triangle;
    return s;
}
inline rig::Shape HTetra(int i, std::int32_t a, std::int32_t b, std::int32_t c, std::int32_t d)
{
    rig::Shape s;
    s.name = label('h', i);
    s.id = sampleId(i);
    s.tetra[0] = a;
    s.tetra[1] = b;
    s.tetra[2] = c;
    s.tetra[3] = d;
    return s;
}
inline rig::Bone B(int i, std::int32_t parent)
{
    rig::Bone b;
    b.name = label('b', i);
    b.id = sampleId(i);
    b.parent = parent;
    return b;
}
inline rig::BoneBinding D(int i, std::int32_t bone, rig::BoneBinding::Driver driver, std::int32_t index)
{
    rig::BoneBinding b;
    b.name = label('d', i);
    b.id = sampleId(i);
    b.bone = bone;
    b.driver = driver;
    b.index = index;
    return b;
}

constexpr auto kByTriangle = rig::BoneBinding::Driver::Triangle;
constexpr auto kByStick = rig::BoneBinding::Driver::Stick;

inline rig::RigDescription sampleRig()
{
    rig::RigDescription r;
    r.name = "sample";
    r.particles = {P(0, {0, 0, 0}, 0), P(1, {0, 1, 0}, 1), P(2, {1, 0, 0}, 2), P(3, {0, 0, 1}, 3),
        P(4, {1, 1, 1}, kNone), P(5, {2, 1, 0}, 3)};
    r.sticks = {S(0, 0, 1), S(1, 1, 2), S(2, 3, 4), S(3, 4, 5)};
    r.angles = {A(0, 1, 0, 2)};
    r.triangles = {T(0, 0, 1, 2), T(1, 2, 3, 4), T(2, 3, 4, 5)};
    r.angular = {G(0, 0, 1), G(1, 1, 2)};
    r.pins = {N(0, 5)};
    r.shapes = {HTriangle(0, 2), HTetra(1, 0, 1, 2, 3)};
    r.bones = {B(0, kNone), B(1, 0), B(2, 1), B(3, 0)};
    r.bindings = {D(0, 0, kByTriangle, 0), D(1, 1, kByStick, 1), D(2, 3, kByTriangle, 2)};
    return r;
}

inline ElementKind kindOfName(const QString& name)
{
    switch (name.isEmpty() ? ' ' : name.front().toLatin1()) {
    case 's': return ElementKind::Stick;
    case 'a': return ElementKind::Angle;
    case 't': return ElementKind::Triangle;
    case 'g': return ElementKind::Angular;
    case 'n': return ElementKind::Pin;
    case 'h': return ElementKind::Shape;
    case 'b': return ElementKind::Bone;
    case 'd': return ElementKind::Binding;
    default: return ElementKind::Particle;
    }
}

/// The element named `name` (kind from its first letter); id 0 when there is none.
inline ElementRef refNamed(const rig::RigDescription& rig, const QString& name)
{
    const ElementKind kind = kindOfName(name);
    for (std::size_t i = 0; i < editor::countOf(rig, kind); ++i)
        if (QString::fromStdString(editor::nameAt(rig, kind, i)) == name)
            return {kind, editor::idAt(rig, kind, i)};
    return {kind, 0};
}

inline std::vector<ElementRef> refsNamed(const rig::RigDescription& rig, const QStringList& names)
{
    std::vector<ElementRef> out;
    for (const QString& n : names)
        out.push_back(refNamed(rig, n));
    return out;
}

/// Names of the elements `refs` names, sorted.
inline QStringList namesOf(const rig::RigDescription& rig, const std::vector<ElementRef>& refs)
{
    QStringList out;
    for (const ElementRef& ref : refs) {
        const std::int32_t i = editor::indexOf(rig, ref);
        out << (i == kNone ? QStringLiteral("<missing>")
                           : QString::fromStdString(editor::nameAt(rig, ref.kind, std::size_t(i))));
    }
    out.sort();
    return out;
}

} // namespace marionette::test
