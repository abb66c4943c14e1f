// Shared by the plugin suites: the folders of the build, a rig that uses every kind of element and field,
// and running the `marionette` executable. Header-only; each suite is one translation unit.
#pragma once

#include "marionette/editor/pluginhost/PluginHost.h"
#include "marionette/rig/RigDescription.h"
#include "marionette/runtime/Procedural.h"

#include "ProcessRunner.h"

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace marionette::test {

inline QString pluginDir() { return QStringLiteral(MARIONETTE_PLUGIN_DIR); }
inline QString testPluginDir() { return QStringLiteral(MARIONETTE_TEST_PLUGIN_DIR); }
inline QString testData(const char* file) { return QStringLiteral(MARIONETTE_TEST_DATA "/") + QLatin1String(file); }

/// The procedural humanoid with one of everything added and every field off its default somewhere: ids,
/// a range stick with an explicit rest length, a tearable rope, a dot-product angle, a cone joint with a
/// rest orientation, a pin, a box on a triangle and one in a tetrahedron, a binding with an offset, and
/// non-default settings. validate() and the runtime accept it.
inline rig::RigDescription richRig()
{
    rig::RigDescription d = runtime::makeHumanoid();
    d.name = "rich \"rig\" ü";
    rig::ElementId id = 100;
    for (auto& p : d.particles) p.id = id++;
    for (auto& s : d.sticks) s.id = id++;
    for (auto& t : d.triangles) t.id = id++;
    for (auto& a : d.angular) a.id = id++;
    for (auto& b : d.bones) b.id = id++;
    for (auto& b : d.bindings) b.id = id++;
    d.particles[3].group = 6;
    d.particles[3].mask = 0xfffffff9u;
    rig::Stick range;
    range.name = "range";
    range.a = runtime::kHead;
    range.b = runtime::kHipL;
    range.kind = rig::StickKind::Range;
    range.restLength = 1.0f;
    range.minLength = 0.5f;
    range.maxLength = 1.5f;
    range.stiffness = 0.5f;
    range.compliance = 0.001f;
    d.sticks.push_back(range);
    rig::Stick rope;
    rope.name = "rope";
    rope.a = runtime::kWristL;
    rope.b = runtime::kWristR;
    rope.kind = rig::StickKind::MaxOnly;
    rope.maxLength = 2.5f;
    rope.tearRatio = 1.5f;
    d.sticks.push_back(rope);
    rig::AngleConstraint angle;
    angle.name = "elbow_dot";
    angle.id = 7;
    angle.center = runtime::kElbowL;
    angle.a = runtime::kShoulderL;
    angle.b = runtime::kWristL;
    angle.minAngle = 0.5f;
    angle.maxAngle = 3.1f;
    angle.stiffness = 0.75f;
    d.angles.push_back(angle);
    rig::AngularConstraint cone;
    cone.name = "cone";
    cone.triangleA = runtime::kChestTri;
    cone.triangleB = runtime::kHeadTri;
    cone.limit = rig::AngularLimit::Cone;
    cone.coneAngle = 0.7f;
    cone.hasRestOrientation = true;
    cone.restOrientation = normalize(Quat{0.1f, 0.2f, 0.3f, 0.9f});
    cone.damping = 2.5f;
    cone.staticFrictionSpeed = 0.3f;
    d.angular.push_back(cone);
    rig::Pin pin;
    pin.name = "hand_pin";
    pin.id = 9;
    pin.particle = runtime::kWristR;
    pin.target = {-0.8f, 1.4f, 0.1f};
    pin.stiffness = 0.25f;
    pin.kinematic = false;
    d.pins.push_back(pin);
    rig::Shape box;
    box.name = "pelvis_box";
    box.id = 11;
    box.triangle = runtime::kPelvisTri;
    box.local = {normalize(Quat{0.f, 0.38f, 0.f, 0.92f}), {0.01f, 0.02f, 0.03f}};
    box.halfExtents = {0.15f, 0.1f, 0.08f};
    box.group = 2;
    box.mask = 5;
    d.shapes.push_back(box);
    rig::Shape tetra = box;
    tetra.name = "chest_box";
    tetra.triangle = rig::kNone;
    tetra.tetra[0] = runtime::kShoulderL;
    tetra.tetra[1] = runtime::kShoulderR;
    tetra.tetra[2] = runtime::kSpine;
    tetra.tetra[3] = runtime::kNeck;
    d.shapes.push_back(tetra);
    d.bindings[0].hasOffset = true;
    d.bindings[0].offset = {normalize(Quat{0.f, 0.f, 0.1f, 1.f}), {0.f, 0.05f, 0.f}};
    rig::DriveProfile guard;
    guard.name = "guard";
    guard.id = 700;
    guard.defaults.motorFrequency = 12.5f;
    guard.defaults.motorDamping = 0.75f;
    rig::DriveGains pelvis;
    pelvis.pinFrequency = 9.f;
    pelvis.maxForce = 250.f;
    rig::DriveGains forearm;
    forearm.kinematic = true;
    forearm.maxTorque = 40.f;
    guard.parts = {{rig::DrivePartKind::Triangle, runtime::kPelvisTri, pelvis}, {rig::DrivePartKind::Stick, 4, forearm}};
    d.driveProfiles.push_back(guard);
    d.settings.gravity = {0.f, -9.5f, 0.1f};
    d.settings.timeStep = 1.f / 120.f;
    d.settings.maxSubsteps = 6;
    d.settings.substeps = 5;
    d.settings.iterations = 3;
    d.settings.damping = 1.5f;
    d.settings.friction = 0.4f;
    d.settings.staticFrictionSpeed = 0.07f;
    d.settings.sleepVelocity = 0.03f;
    d.settings.sleepTime = 2.f;
    d.settings.overRelaxation = 1.2f;
    d.settings.sqrtApproximation = true;
    d.settings.selfCollision = false;
    d.settings.solver = rig::SolverMode::Jacobi;
    return d;
}

/// Runs `marionette arguments`. `pluginPath` set: MARIONETTE_PLUGIN_PATH is that value; unset (null
/// QString): the variable is removed, so the executable looks next to itself and in the user folder.
inline ProcessRun runCli(const QStringList& arguments, const QString& pluginPath)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (pluginPath.isNull())
        env.remove(QStringLiteral("MARIONETTE_PLUGIN_PATH"));
    else
        env.insert(QStringLiteral("MARIONETTE_PLUGIN_PATH"), pluginPath);
    return runProcess(QStringLiteral(MARIONETTE_CLI), arguments, 120000, env);
}

} // namespace marionette::test
