#include "marionette/editor/document/RigEdit.h"

#include <algorithm>
#include <set>
#include <string>

namespace marionette::editor {

namespace {

// Calls f(vector&) with the rig's vector for `kind`.
template <typename Rig, typename F>
decltype(auto) withVector(Rig& rig, ElementKind kind, F&& f)
{
    switch (kind) {
    case ElementKind::Particle: return f(rig.particles);
    case ElementKind::Stick: return f(rig.sticks);
    case ElementKind::Angle: return f(rig.angles);
    case ElementKind::Triangle: return f(rig.triangles);
    case ElementKind::Angular: return f(rig.angular);
    case ElementKind::Pin: return f(rig.pins);
    case ElementKind::Shape: return f(rig.shapes);
    case ElementKind::Bone: return f(rig.bones);
    case ElementKind::Binding: break;
    }
    return f(rig.bindings);
}

// Keeps the elements whose flag in `removed` is false; returns old index -> new index (kNone if removed).
template <typename T>
std::vector<std::int32_t> compact(std::vector<T>& items, const std::vector<bool>& removed)
{
    std::vector<std::int32_t> map(items.size(), rig::kNone);
    std::size_t out = 0;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (removed[i])
            continue;
        map[i] = std::int32_t(out);
        if (out != i)
            items[out] = std::move(items[i]);
        ++out;
    }
    items.resize(out);
    return map;
}

std::int32_t remap(const std::vector<std::int32_t>& map, std::int32_t index)
{
    return index >= 0 && std::size_t(index) < map.size() ? map[std::size_t(index)] : index;
}

bool refersTo(std::int32_t index, const std::vector<bool>& removed)
{
    return index >= 0 && std::size_t(index) < removed.size() && removed[std::size_t(index)];
}

} // namespace

ElementKind kindOf(const AnyElement& element) { return ElementKind(element.index()); }

rig::ElementId idOf(const AnyElement& element)
{
    return std::visit([](const auto& e) { return e.id; }, element);
}

const std::string& nameOf(const AnyElement& element)
{
    return std::visit([](const auto& e) -> const std::string& { return e.name; }, element);
}

std::size_t countOf(const rig::RigDescription& rig, ElementKind kind)
{
    return withVector(rig, kind, [](const auto& v) { return v.size(); });
}

AnyElement elementAt(const rig::RigDescription& rig, ElementKind kind, std::size_t index)
{
    return withVector(rig, kind, [index](const auto& v) { return AnyElement(v[index]); });
}

rig::ElementId idAt(const rig::RigDescription& rig, ElementKind kind, std::size_t index)
{
    return withVector(rig, kind, [index](const auto& v) { return v[index].id; });
}

const std::string& nameAt(const rig::RigDescription& rig, ElementKind kind, std::size_t index)
{
    return withVector(rig, kind, [index](const auto& v) -> const std::string& { return v[index].name; });
}

std::int32_t indexOf(const rig::RigDescription& rig, ElementRef ref)
{
    if (ref.id == 0)
        return rig::kNone;
    return withVector(rig, ref.kind, [ref](const auto& v) {
        for (std::size_t i = 0; i < v.size(); ++i)
            if (v[i].id == ref.id)
                return std::int32_t(i);
        return rig::kNone;
    });
}

void appendElement(rig::RigDescription& rig, AnyElement element)
{
    std::visit(
        [&rig](auto&& e) {
            using T = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<T, rig::Particle>) rig.particles.push_back(std::move(e));
            else if constexpr (std::is_same_v<T, rig::Stick>) rig.sticks.push_back(std::move(e));
            else if constexpr (std::is_same_v<T, rig::AngleConstraint>) rig.angles.push_back(std::move(e));
            else if constexpr (std::is_same_v<T, rig::Triangle>) rig.triangles.push_back(std::move(e));
            else if constexpr (std::is_same_v<T, rig::AngularConstraint>) rig.angular.push_back(std::move(e));
            else if constexpr (std::is_same_v<T, rig::Pin>) rig.pins.push_back(std::move(e));
            else if constexpr (std::is_same_v<T, rig::Shape>) rig.shapes.push_back(std::move(e));
            else if constexpr (std::is_same_v<T, rig::Bone>) rig.bones.push_back(std::move(e));
            else rig.bindings.push_back(std::move(e));
        },
        std::move(element));
}

void removeLastElement(rig::RigDescription& rig, ElementKind kind)
{
    withVector(rig, kind, [](auto& v) {
        if (!v.empty())
            v.pop_back();
    });
}

rig::ElementId nextId(const rig::RigDescription& rig, ElementKind kind)
{
    return withVector(rig, kind, [](const auto& v) {
        rig::ElementId largest = 0;
        for (const auto& e : v)
            largest = std::max(largest, e.id);
        return largest + 1;
    });
}

std::string uniqueName(const rig::RigDescription& rig, ElementKind kind, const std::string& base)
{
    std::set<std::string> used;
    withVector(rig, kind, [&used](const auto& v) {
        for (const auto& e : v)
            used.insert(e.name);
    });
    for (std::size_t n = 1;; ++n) {
        std::string candidate = base;
        candidate += std::to_string(n);
        if (!used.count(candidate))
            return candidate;
    }
}

std::vector<std::int32_t> particlesOf(const rig::RigDescription& rig, ElementKind kind, std::size_t index)
{
    switch (kind) {
    case ElementKind::Particle: return {std::int32_t(index)};
    case ElementKind::Stick: return {rig.sticks[index].a, rig.sticks[index].b};
    case ElementKind::Angle: return {rig.angles[index].center, rig.angles[index].a, rig.angles[index].b};
    case ElementKind::Triangle: {
        const auto& t = rig.triangles[index];
        return {t.p[0], t.p[1], t.p[2]};
    }
    case ElementKind::Angular: {
        std::vector<std::int32_t> out;
        for (std::int32_t t : {rig.angular[index].triangleA, rig.angular[index].triangleB})
            if (t >= 0 && std::size_t(t) < rig.triangles.size())
                for (std::int32_t p : rig.triangles[std::size_t(t)].p)
                    if (std::find(out.begin(), out.end(), p) == out.end())
                        out.push_back(p);
        return out;
    }
    case ElementKind::Pin: return {rig.pins[index].particle};
    case ElementKind::Shape: {
        const auto& s = rig.shapes[index];
        if (s.triangle >= 0 && std::size_t(s.triangle) < rig.triangles.size()) {
            const auto& t = rig.triangles[std::size_t(s.triangle)];
            return {t.p[0], t.p[1], t.p[2]};
        }
        return {s.tetra[0], s.tetra[1], s.tetra[2], s.tetra[3]};
    }
    case ElementKind::Bone:
    case ElementKind::Binding: break;
    }
    return {};
}

std::vector<ElementRef> withDependents(const rig::RigDescription& rig, const std::vector<ElementRef>& refs)
{
    // Flags per kind, then propagate in dependency order: bones -> bones (children, which come later) and
    // bindings; particles -> sticks, angles, triangles, pins, shapes; sticks -> bindings; triangles ->
    // angular, shapes, bindings.
    std::vector<bool> particle(rig.particles.size()), stick(rig.sticks.size()), angle(rig.angles.size()),
        triangle(rig.triangles.size()), angular(rig.angular.size()), pin(rig.pins.size()),
        shape(rig.shapes.size()), bone(rig.bones.size()), binding(rig.bindings.size());
    auto flags = [&](ElementKind kind) -> std::vector<bool>& {
        switch (kind) {
        case ElementKind::Particle: return particle;
        case ElementKind::Stick: return stick;
        case ElementKind::Angle: return angle;
        case ElementKind::Triangle: return triangle;
        case ElementKind::Angular: return angular;
        case ElementKind::Pin: return pin;
        case ElementKind::Shape: return shape;
        case ElementKind::Bone: return bone;
        case ElementKind::Binding: break;
        }
        return binding;
    };
    for (const ElementRef& ref : refs) {
        const std::int32_t i = indexOf(rig, ref);
        if (i != rig::kNone)
            flags(ref.kind)[std::size_t(i)] = true;
    }
    for (std::size_t i = 0; i < rig.bones.size(); ++i)
        if (refersTo(rig.bones[i].parent, bone))
            bone[i] = true;
    for (std::size_t i = 0; i < rig.sticks.size(); ++i)
        if (refersTo(rig.sticks[i].a, particle) || refersTo(rig.sticks[i].b, particle))
            stick[i] = true;
    for (std::size_t i = 0; i < rig.angles.size(); ++i) {
        const auto& c = rig.angles[i];
        if (refersTo(c.center, particle) || refersTo(c.a, particle) || refersTo(c.b, particle))
            angle[i] = true;
    }
    for (std::size_t i = 0; i < rig.triangles.size(); ++i)
        for (std::int32_t p : rig.triangles[i].p)
            if (refersTo(p, particle))
                triangle[i] = true;
    for (std::size_t i = 0; i < rig.pins.size(); ++i)
        if (refersTo(rig.pins[i].particle, particle))
            pin[i] = true;
    for (std::size_t i = 0; i < rig.angular.size(); ++i)
        if (refersTo(rig.angular[i].triangleA, triangle) || refersTo(rig.angular[i].triangleB, triangle))
            angular[i] = true;
    for (std::size_t i = 0; i < rig.shapes.size(); ++i) {
        const auto& s = rig.shapes[i];
        if (refersTo(s.triangle, triangle))
            shape[i] = true;
        for (std::int32_t p : s.tetra)
            if (s.triangle == rig::kNone && refersTo(p, particle))
                shape[i] = true;
    }
    for (std::size_t i = 0; i < rig.bindings.size(); ++i) {
        const auto& b = rig.bindings[i];
        const auto& driver = b.driver == rig::BoneBinding::Driver::Triangle ? triangle : stick;
        if (refersTo(b.bone, bone) || refersTo(b.index, driver))
            binding[i] = true;
    }
    std::vector<ElementRef> out;
    for (int k = 0; k < project::kElementKindCount; ++k) {
        const auto kind = ElementKind(k);
        const auto& f = flags(kind);
        for (std::size_t i = 0; i < f.size(); ++i)
            if (f[i])
                out.push_back({kind, idAt(rig, kind, i)});
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::size_t removeElements(rig::RigDescription& rig, const std::vector<ElementRef>& refs)
{
    std::vector<std::vector<bool>> removed(project::kElementKindCount);
    for (int k = 0; k < project::kElementKindCount; ++k)
        removed[std::size_t(k)].assign(countOf(rig, ElementKind(k)), false);
    std::size_t count = 0;
    for (const ElementRef& ref : refs) {
        const std::int32_t i = indexOf(rig, ref);
        if (i != rig::kNone && !removed[std::size_t(ref.kind)][std::size_t(i)]) {
            removed[std::size_t(ref.kind)][std::size_t(i)] = true;
            ++count;
        }
    }
    if (count == 0)
        return 0;
    auto flags = [&](ElementKind kind) -> const std::vector<bool>& { return removed[std::size_t(kind)]; };
    const auto particleMap = compact(rig.particles, flags(ElementKind::Particle));
    const auto stickMap = compact(rig.sticks, flags(ElementKind::Stick));
    compact(rig.angles, flags(ElementKind::Angle));
    const auto triangleMap = compact(rig.triangles, flags(ElementKind::Triangle));
    compact(rig.angular, flags(ElementKind::Angular));
    compact(rig.pins, flags(ElementKind::Pin));
    compact(rig.shapes, flags(ElementKind::Shape));
    const auto boneMap = compact(rig.bones, flags(ElementKind::Bone));
    compact(rig.bindings, flags(ElementKind::Binding));

    for (auto& p : rig.particles)
        p.bone = remap(boneMap, p.bone);
    for (auto& s : rig.sticks) {
        s.a = remap(particleMap, s.a);
        s.b = remap(particleMap, s.b);
    }
    for (auto& c : rig.angles) {
        c.center = remap(particleMap, c.center);
        c.a = remap(particleMap, c.a);
        c.b = remap(particleMap, c.b);
    }
    for (auto& t : rig.triangles)
        for (auto& p : t.p)
            p = remap(particleMap, p);
    for (auto& c : rig.angular) {
        c.triangleA = remap(triangleMap, c.triangleA);
        c.triangleB = remap(triangleMap, c.triangleB);
    }
    for (auto& p : rig.pins)
        p.particle = remap(particleMap, p.particle);
    for (auto& s : rig.shapes) {
        s.triangle = remap(triangleMap, s.triangle);
        for (auto& p : s.tetra)
            p = remap(particleMap, p);
    }
    for (auto& b : rig.bones)
        b.parent = remap(boneMap, b.parent);
    for (auto& b : rig.bindings) {
        b.bone = remap(boneMap, b.bone);
        b.index = remap(b.driver == rig::BoneBinding::Driver::Triangle ? triangleMap : stickMap, b.index);
    }
    // A drive profile is not an element: it stays, without the parts of removed triangles and sticks.
    for (auto& profile : rig.driveProfiles) {
        for (auto& part : profile.parts)
            part.index = remap(part.kind == rig::DrivePartKind::Triangle ? triangleMap : stickMap, part.index);
        std::erase_if(profile.parts, [](const rig::DrivePart& part) { return part.index == rig::kNone; });
    }
    return count;
}

} // namespace marionette::editor
