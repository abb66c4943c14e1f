#include "marionette/editor/document/Masses.h"

#include <algorithm>
#include <utility>

namespace marionette::editor {

float neighbourMass(const rig::RigDescription& rig, Vec3 position)
{
    std::vector<std::pair<float, float>> near; // (squared distance, mass)
    for (const rig::Particle& p : rig.particles)
        if (p.mass > 0.f)
            near.emplace_back(lengthSquared(p.position - position), p.mass);
    if (near.empty())
        return 1.f;
    const std::size_t n = std::min<std::size_t>(near.size(), kMassNeighbours);
    std::partial_sort(near.begin(), near.begin() + std::ptrdiff_t(n), near.end());
    double sum = 0.0;
    for (std::size_t k = 0; k < n; ++k)
        sum += double(near[k].second);
    return float(sum / double(n));
}

double totalMass(const rig::RigDescription& rig)
{
    double sum = 0.0;
    for (const rig::Particle& p : rig.particles)
        sum += double(p.mass);
    return sum;
}

std::vector<float> massesKeepingTotal(const rig::RigDescription& rig, float newMass)
{
    std::vector<float> out;
    out.reserve(rig.particles.size() + 1);
    for (const rig::Particle& p : rig.particles)
        out.push_back(p.mass);
    out.push_back(newMass);
    const double total = totalMass(rig);
    if (!(total > 0.0))
        return out;
    const double k = total / (total + double(newMass));
    for (float& m : out)
        m = float(double(m) * k);
    return out;
}

} // namespace marionette::editor
