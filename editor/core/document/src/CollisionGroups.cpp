#include "marionette/editor/document/CollisionGroups.h"

#include <QStringList>

#include <bit>

namespace marionette::editor {

namespace {

constexpr int kBits = project::kCollisionGroupBits;

bool hasCapsule(const rig::Stick& s) { return s.capsuleRadius > 0.f; }

/// Calls f(group, mask) for every element that collides (particles, capsules, shapes).
template <class F> void forEachCollider(const rig::RigDescription& rig, F&& f)
{
    for (const rig::Particle& p : rig.particles)
        f(p.group, p.mask);
    for (const rig::Stick& s : rig.sticks)
        if (hasCapsule(s))
            f(s.group, s.mask);
    for (const rig::Shape& s : rig.shapes)
        f(s.group, s.mask);
}

/// The mask `matrix` gives an element of `group` whose mask is `mask` now.
std::uint32_t maskFor(std::uint32_t group, std::uint32_t mask, const CollisionMatrix& matrix)
{
    if (group == 0)
        return mask;
    std::uint32_t out = mask;
    for (int j = 0; j < kBits; ++j) {
        bool anyOn = false, allOff = true;
        for (int i = 0; i < kBits; ++i) {
            if (!(group & (1u << i)))
                continue;
            const CollisionCell c = matrix.at(i, j);
            anyOn = anyOn || c == CollisionCell::On;
            allOff = allOff && c == CollisionCell::Off;
        }
        if (anyOn)
            out |= 1u << j;
        else if (allOff)
            out &= ~(1u << j);
    }
    return out;
}

} // namespace

void CollisionMatrix::set(int a, int b, CollisionCell cell)
{
    mCells[std::size_t(a * kBits + b)] = cell;
    mCells[std::size_t(b * kBits + a)] = cell;
}

CollisionMatrix collisionMatrix(const rig::RigDescription& rig)
{
    // with[i][j] / without[i][j]: some element of group i has / lacks mask bit j.
    std::array<std::uint32_t, kBits> with{}, without{};
    forEachCollider(rig, [&](std::uint32_t group, std::uint32_t mask) {
        for (int i = 0; i < kBits; ++i)
            if (group & (1u << i)) {
                with[std::size_t(i)] |= mask;
                without[std::size_t(i)] |= ~mask;
            }
    });
    CollisionMatrix m;
    for (int i = 0; i < kBits; ++i)
        for (int j = i; j < kBits; ++j) {
            const bool on = (with[std::size_t(i)] >> j & 1u) || (with[std::size_t(j)] >> i & 1u);
            const bool off = (without[std::size_t(i)] >> j & 1u) || (without[std::size_t(j)] >> i & 1u);
            m.set(i, j, on && off ? CollisionCell::Mixed : off ? CollisionCell::Off : CollisionCell::On);
        }
    return m;
}

std::vector<AnyElement> applyCollisionMatrix(const rig::RigDescription& rig, const CollisionMatrix& matrix)
{
    std::vector<AnyElement> out;
    auto visit = [&](const auto& element) {
        const std::uint32_t mask = maskFor(element.group, element.mask, matrix);
        if (mask == element.mask)
            return;
        auto changed = element;
        changed.mask = mask;
        out.emplace_back(std::move(changed));
    };
    for (const rig::Particle& p : rig.particles)
        visit(p);
    for (const rig::Stick& s : rig.sticks)
        if (hasCapsule(s))
            visit(s);
    for (const rig::Shape& s : rig.shapes)
        visit(s);
    return out;
}

std::uint32_t usedGroupBits(const rig::RigDescription& rig)
{
    std::uint32_t bits = 0;
    forEachCollider(rig, [&](std::uint32_t group, std::uint32_t) { bits |= group; });
    return bits;
}

QString groupName(const std::vector<project::CollisionGroupName>& names, int bit)
{
    for (const project::CollisionGroupName& g : names)
        if (g.bit == bit)
            return g.name;
    return QStringLiteral("Group %1").arg(bit + 1);
}

QString describeGroupBits(const std::vector<project::CollisionGroupName>& names, std::uint32_t bits)
{
    if (bits == 0)
        return QStringLiteral("none");
    if (bits == ~0u)
        return QStringLiteral("all");
    const bool inverted = std::popcount(bits) > kBits / 2;
    const std::uint32_t listed = inverted ? ~bits : bits;
    QStringList words;
    for (int i = 0; i < kBits; ++i)
        if (listed & (1u << i))
            words << groupName(names, i);
    return (inverted ? QStringLiteral("all but ") : QString()) + words.join(QStringLiteral(", "));
}

} // namespace marionette::editor
