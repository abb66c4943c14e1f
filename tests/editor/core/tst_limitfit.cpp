// Fitting angular limits to animation (editor/core/preview/LimitFit.h): a synthetic arm swept over a known
// swing cone and twist range, a joint the clip does not move, frames outside a narrower limit counted, bad
// input refused; and the bundled characters' clips never beyond the limits fitted to them.
#include "marionette/editor/pluginhost/MeshSource.h"
#include "marionette/editor/preview/AnimationPose.h"
#include "marionette/editor/preview/LimitFit.h"
#include "marionette/import/Import.h"
#include "marionette/project/ProjectFile.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/World.h"

#include <QDir>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace marionette;

namespace {

constexpr float kSwing = radians(35.f), kTwist = radians(20.f);
constexpr int kPoses = 8; ///< swing directions, 45° apart

/// Bones: root; upper (0, 1, 0) → lower (0, 2, 0), the joint the clip turns; other (1, 0, 0) → otherTip
/// (2, 0, 0), which no channel moves. Translations only, so inverseBind is the negated head.
std::vector<rig::Bone> skeleton()
{
    std::vector<rig::Bone> bones;
    auto bone = [&](const char* name, std::int32_t parent, Vec3 local, Vec3 world) {
        rig::Bone b;
        b.name = name;
        b.id = rig::ElementId(bones.size() + 1);
        b.parent = parent;
        b.bindLocal = Mat4::fromRotationTranslation({}, local);
        b.bindWorld = Mat4::fromRotationTranslation({}, world);
        b.inverseBind = Mat4::fromRotationTranslation({}, world * -1.f);
        bones.push_back(b);
    };
    bone("root", rig::kNone, {}, {});
    bone("upper", 0, {0.f, 1.f, 0.f}, {0.f, 1.f, 0.f});
    bone("lower", 1, {0.f, 1.f, 0.f}, {0.f, 2.f, 0.f});
    bone("other", 0, {1.f, 0.f, 0.f}, {1.f, 0.f, 0.f});
    bone("otherTip", 3, {1.f, 0.f, 0.f}, {2.f, 0.f, 0.f});
    return bones;
}

/// The pose of key k: swing kSwing about a horizontal axis at 45°·k, then twist ±kTwist about +Y
/// (alternating), i.e. R = Rot(u, 35°) · Rot(Y, ±20°), whose swing/twist split is exactly (35°, ±20°).
Quat poseOf(int k)
{
    const float phi = radians(45.f) * float(k);
    const Vec3 u{std::cos(phi), 0.f, std::sin(phi)};
    return Quat::fromAxisAngle(u, kSwing) * Quat::fromAxisAngle({0.f, 1.f, 0.f}, k % 2 == 0 ? kTwist : -kTwist);
}

/// One clip "sweep" of 2·kPoses seconds: the lower bone at rest at even seconds and at pose k at second 2k + 1,
/// so every stretch between keys turns about one fixed axis from rest to a pose or back.
import::ImportedScene sweepScene()
{
    import::ImportedScene scene;
    scene.skeleton = skeleton();
    import::AnimationClip clip;
    clip.name = "sweep";
    clip.duration = float(2 * kPoses);
    import::BoneChannel ch;
    ch.bone = 2;
    ch.positions = {{0.f, {0.f, 1.f, 0.f}}};
    ch.scales = {{0.f, {1.f, 1.f, 1.f}}};
    for (int k = 0; k < kPoses; ++k) {
        ch.rotations.push_back({float(2 * k), Quat{}});
        ch.rotations.push_back({float(2 * k + 1), poseOf(k)});
    }
    ch.rotations.push_back({float(2 * kPoses), Quat{}});
    clip.channels = {ch};
    scene.animations = {clip};
    return scene;
}

/// A rig on skeleton(): triangles "upperTri" and "lowerTri" (no shared particle) on the upper and lower bones,
/// "otherTri" and "tipTri" on the other two; angular constraints "elbow" (swing/twist, twist axis +Y and
/// swing axis +X in B's frame: the bone and its right), "elbowCone" (cone) and "still" (cone) between them.
rig::RigDescription sweepRig()
{
    rig::RigDescription r;
    r.bones = skeleton();
    auto triangle = [&](const char* name, std::int32_t bone, Vec3 base) {
        const std::int32_t first = std::int32_t(r.particles.size());
        for (Vec3 offset : {Vec3{0.f, 0.f, 0.f}, Vec3{0.f, 0.8f, 0.f}, Vec3{0.2f, 0.4f, 0.f}}) {
            rig::Particle p;
            p.name = std::string(name) + std::to_string(r.particles.size() - std::size_t(first));
            p.id = rig::ElementId(r.particles.size() + 1);
            p.position = base + offset;
            p.mass = 1.f;
            p.bone = bone;
            r.particles.push_back(p);
        }
        for (int e = 0; e < 3; ++e) {
            rig::Stick s;
            s.name = std::string(name) + "Edge" + std::to_string(e);
            s.id = rig::ElementId(r.sticks.size() + 1);
            s.a = first + e;
            s.b = first + (e + 1) % 3;
            r.sticks.push_back(s);
        }
        rig::Triangle t;
        t.name = name;
        t.id = rig::ElementId(r.triangles.size() + 1);
        t.p[0] = first;
        t.p[1] = first + 1;
        t.p[2] = first + 2;
        r.triangles.push_back(t);
    };
    triangle("upperTri", 1, {0.f, 1.f, 0.f});
    triangle("lowerTri", 2, {0.f, 2.1f, 0.f});
    triangle("otherTri", 3, {1.f, 0.f, 0.f});
    triangle("tipTri", 4, {2.f, 0.f, 0.f});
    auto angular = [&](const char* name, std::int32_t a, std::int32_t b, rig::AngularLimit limit) {
        rig::AngularConstraint c;
        c.name = name;
        c.id = rig::ElementId(r.angular.size() + 1);
        c.triangleA = a;
        c.triangleB = b;
        c.limit = limit;
        r.angular.push_back(c);
    };
    angular("elbow", 0, 1, rig::AngularLimit::SwingTwist);
    angular("elbowCone", 0, 1, rig::AngularLimit::Cone);
    angular("still", 2, 3, rig::AngularLimit::Cone);
    return r;
}

const editor::JointFit& joint(const editor::LimitFitResult& r, const char* name)
{
    for (const editor::JointFit& j : r.joints)
        if (j.name == name)
            return j;
    static const editor::JointFit none;
    return none;
}

/// The bundled projects whose source meshes carry clips.
const char* const kAnimatedSamples[] = {"characters/mannequin/mannequin.mproj",
                                        "characters/bcn_epileptic/bcn_epileptic.mproj",
                                        "characters/wuson/wuson.mproj"};

} // namespace

class TestLimitFit : public QObject {
    Q_OBJECT

private slots:
    void sweep_fitsTheSweptSwingAndTwistPlusTheMargin_data();
    void sweep_fitsTheSweptSwingAndTwistPlusTheMargin();
    void restOrientation_measuredFromIt();
    void jointHeldAtRest_notCovered();
    void narrowerLimit_countsTheFramesOutsideIt();
    void fit_changesOnlyLimitFields();
    void badInput_refusedWithOneLine();
    void samples_noFrameBeyondTheFittedLimits_data();
    void samples_noFrameBeyondTheFittedLimits();
};

void TestLimitFit::sweep_fitsTheSweptSwingAndTwistPlusTheMargin_data()
{
    QTest::addColumn<float>("marginDegrees");
    QTest::newRow("margin 0") << 0.f;
    QTest::newRow("margin 5") << 5.f;
    QTest::newRow("margin 12.5") << 12.5f;
}

void TestLimitFit::sweep_fitsTheSweptSwingAndTwistPlusTheMargin()
{
    QFETCH(float, marginDegrees);
    const import::ImportedScene scene = sweepScene();
    const rig::RigDescription rig = sweepRig();
    editor::LimitFitOptions options;
    options.margin = radians(marginDegrees);
    editor::LimitFitResult r;
    std::string error;
    QVERIFY2(editor::fitLimits(rig, {{&scene, 0, "sweep.glb"}}, options, r, error), error.c_str());
    // 16 s at 60 Hz; every key falls on the grid.
    QCOMPARE(r.framesSampled, std::size_t(2 * kPoses * 60 + 1));
    QCOMPARE(r.joints.size(), std::size_t(3));
    const float tol = radians(0.05f);

    const editor::JointFit& elbow = joint(r, "elbow");
    QCOMPARE(elbow.status, editor::JointFit::Status::Fitted);
    QVERIFY(!elbow.hinge);
    QCOMPARE(elbow.frames, r.framesSampled);
    // Observed: twist ±20°, swing 35° about each axis (the poses at 0° and 90° lie on them; the diagonal ones
    // are on the 35° circle, so the ellipse needs no scaling up).
    QVERIFY2(std::fabs(elbow.twistMax - kTwist) < tol && std::fabs(elbow.twistMin + kTwist) < tol,
             qPrintable(QStringLiteral("twist %1..%2").arg(degrees(elbow.twistMin)).arg(degrees(elbow.twistMax))));
    QVERIFY(std::fabs(elbow.swing1Max - kSwing) < tol && std::fabs(elbow.swing2Max - kSwing) < tol);
    QVERIFY(std::fabs(elbow.fitted.twistMax - (kTwist + options.margin)) < tol);
    QVERIFY(std::fabs(elbow.fitted.twistMin + (kTwist + options.margin)) < tol);
    QVERIFY2(std::fabs(elbow.fitted.swing1 - (kSwing + options.margin)) < tol &&
                 std::fabs(elbow.fitted.swing2 - (kSwing + options.margin)) < tol,
             qPrintable(QStringLiteral("swing %1, %2").arg(degrees(elbow.fitted.swing1)).arg(degrees(elbow.fitted.swing2))));

    // The cone measures the whole rotation: for R = Rot(u, σ)·Rot(Y, τ) with u ⊥ Y, cos(θ/2) = cos(σ/2)·cos(τ/2),
    // largest at the pose keys.
    const float theta = 2.f * std::acos(std::cos(kSwing / 2.f) * std::cos(kTwist / 2.f));
    const editor::JointFit& cone = joint(r, "elbowCone");
    QCOMPARE(cone.status, editor::JointFit::Status::Fitted);
    QVERIFY2(std::fabs(cone.maxAngle - theta) < tol, qPrintable(QString::number(degrees(cone.maxAngle))));
    QVERIFY(std::fabs(cone.fitted.coneAngle - (theta + options.margin)) < tol);

    const editor::JointFit& still = joint(r, "still");
    QCOMPARE(still.status, editor::JointFit::Status::NotCovered);
    QCOMPARE(still.frames, std::size_t(0));
    QCOMPARE(still.fitted.coneAngle, rig.angular[2].coneAngle);
    QCOMPARE(r.constraints[2].coneAngle, rig.angular[2].coneAngle);
    QVERIFY(QString::fromStdString(still.note).contains(QLatin1String("not covered")));
}

void TestLimitFit::restOrientation_measuredFromIt()
{
    // Rest = the bind's relative orientation turned 10° about the twist axis (+Y in both frames here): every
    // frame's twist is 10° less (a twist on the left of swing·twist adds to the twist and turns the swing's
    // axis), so the twist range is [−30°, 10°]; the swings keep their 35° size on axes turned by 10°, whose
    // per-axis maxima (35°·cos 10°) the ellipse scales back up to 35°.
    const import::ImportedScene scene = sweepScene();
    rig::RigDescription rig = sweepRig();
    rig.angular[0].hasRestOrientation = true;
    rig.angular[0].restOrientation = Quat::fromAxisAngle({0.f, 1.f, 0.f}, radians(10.f));
    editor::LimitFitResult r;
    std::string error;
    QVERIFY2(editor::fitLimits(rig, {{&scene, 0, "sweep.glb"}}, {}, r, error), error.c_str());
    const editor::JointFit& elbow = joint(r, "elbow");
    const float tol = radians(0.05f), m = editor::LimitFitOptions{}.margin;
    QVERIFY2(std::fabs(elbow.twistMin + radians(30.f)) < tol && std::fabs(elbow.twistMax - radians(10.f)) < tol,
             qPrintable(QStringLiteral("twist %1..%2").arg(degrees(elbow.twistMin)).arg(degrees(elbow.twistMax))));
    QVERIFY(std::fabs(elbow.swing1Max - kSwing * std::cos(radians(10.f))) < tol);
    QVERIFY(std::fabs(elbow.swing2Max - kSwing * std::cos(radians(10.f))) < tol);
    QVERIFY(std::fabs(elbow.fitted.twistMin + radians(30.f) + m) < tol);
    QVERIFY(std::fabs(elbow.fitted.twistMax - radians(10.f) - m) < tol);
    QVERIFY2(std::fabs(elbow.fitted.swing1 - kSwing - m) < tol && std::fabs(elbow.fitted.swing2 - kSwing - m) < tol,
             qPrintable(QStringLiteral("swing %1, %2").arg(degrees(elbow.fitted.swing1)).arg(degrees(elbow.fitted.swing2))));
}

void TestLimitFit::jointHeldAtRest_notCovered()
{
    // A channel on otherTip that holds it at rest: the clip animates the joint's bone but never turns it.
    import::ImportedScene scene = sweepScene();
    import::BoneChannel held;
    held.bone = 4;
    held.positions = {{0.f, {1.f, 0.f, 0.f}}};
    held.rotations = {{0.f, Quat{}}, {float(2 * kPoses), Quat{}}};
    held.scales = {{0.f, {1.f, 1.f, 1.f}}};
    scene.animations[0].channels.push_back(held);
    const rig::RigDescription rig = sweepRig();
    editor::LimitFitResult r;
    std::string error;
    QVERIFY2(editor::fitLimits(rig, {{&scene, 0, "sweep.glb"}}, {}, r, error), error.c_str());
    const editor::JointFit& still = joint(r, "still");
    QCOMPARE(still.status, editor::JointFit::Status::NotCovered);
    QCOMPARE(still.frames, r.framesSampled); // measured, at rest throughout
    QCOMPARE(still.fitted.coneAngle, rig.angular[2].coneAngle);
    QCOMPARE(joint(r, "elbow").status, editor::JointFit::Status::Fitted);
}

void TestLimitFit::narrowerLimit_countsTheFramesOutsideIt()
{
    const import::ImportedScene scene = sweepScene();
    rig::RigDescription rig = sweepRig();
    const float narrow = radians(30.f);
    rig.angular[1].coneAngle = narrow;
    rig.angular[0].twistMin = -radians(10.f);
    rig.angular[0].twistMax = radians(10.f);
    rig.angular[0].swing1 = rig.angular[0].swing2 = radians(90.f);
    editor::LimitFitResult r;
    std::string error;
    QVERIFY2(editor::fitLimits(rig, {{&scene, 0, "sweep.glb"}}, {}, r, error), error.c_str());

    // Frame k (t = k/60) lies a fraction f of the way between rest and pose q on nlerp: the quaternion
    // (1 − f + f·q.w, f·q.xyz), whose whole angle is 2·atan2(f·|q.xyz|, 1 − f + f·q.w) and whose twist is
    // 2·atan2(f·q.y', 1 − f + f·q.w) with q.y' = cos(σ/2)·sin(τ/2), the twist part of the swing·twist product.
    const double cs = std::cos(double(kSwing) / 2), ct = std::cos(double(kTwist) / 2), st = std::sin(double(kTwist) / 2);
    const double w = cs * ct, v = std::sqrt(1.0 - w * w), y = cs * st;
    std::size_t coneOutside = 0, twistOutside = 0;
    for (int k = 0; k <= 2 * kPoses * 60; ++k) {
        const int second = k / 60;
        const double frac = double(k % 60) / 60.0;
        const double f = second % 2 == 0 ? frac : 1.0 - frac; // rest at even seconds, a pose at odd ones
        const double angle = 2.0 * std::atan2(f * v, 1.0 - f + f * w);
        const double twist = 2.0 * std::atan2(f * y, 1.0 - f + f * w);
        coneOutside += angle - narrow > editor::kLimitFitTolerance ? 1 : 0;
        twistOutside += twist - radians(10.f) > editor::kLimitFitTolerance ? 1 : 0;
    }
    QVERIFY(coneOutside > 0 && twistOutside > 0 && coneOutside < r.framesSampled);
    QCOMPARE(joint(r, "elbowCone").framesOutside, coneOutside);
    QCOMPARE(joint(r, "elbow").framesOutside, twistOutside);
    QCOMPARE(joint(r, "still").framesOutside, std::size_t(0));
}

void TestLimitFit::fit_changesOnlyLimitFields()
{
    const import::ImportedScene scene = sweepScene();
    rig::RigDescription rig = sweepRig();
    rig.angular[0].stiffness = 0.7f;
    rig.angular[0].damping = 3.f;
    editor::LimitFitResult r;
    std::string error;
    QVERIFY2(editor::fitLimits(rig, {{&scene, 0, "sweep.glb"}}, {}, r, error), error.c_str());
    QCOMPARE(r.constraints.size(), rig.angular.size());
    const std::vector<rig::AngularConstraint> changed = r.changed();
    QCOMPARE(changed.size(), std::size_t(2)); // elbow and elbowCone; "still" is not covered
    for (std::size_t i = 0; i < rig.angular.size(); ++i) {
        const rig::AngularConstraint &a = rig.angular[i], &b = r.constraints[i];
        QCOMPARE(b.id, a.id);
        QCOMPARE(b.name, a.name);
        QCOMPARE(b.triangleA, a.triangleA);
        QCOMPARE(b.triangleB, a.triangleB);
        QCOMPARE(b.limit, a.limit);
        QCOMPARE(b.stiffness, a.stiffness);
        QCOMPARE(b.damping, a.damping);
        QCOMPARE(b.twistAxis.y, a.twistAxis.y);
        QCOMPARE(b.hasRestOrientation, a.hasRestOrientation);
    }
}

void TestLimitFit::badInput_refusedWithOneLine()
{
    const rig::RigDescription rig = sweepRig();
    editor::LimitFitResult r;
    std::string error;

    import::ImportedScene strangers = sweepScene();
    for (rig::Bone& b : strangers.skeleton)
        b.name = "mixamorig:" + b.name;
    QVERIFY(!editor::fitLimits(rig, {{&strangers, 0, "strangers.fbx"}}, {}, r, error));
    QCOMPARE(QString::fromStdString(error), QStringLiteral("strangers.fbx: shares no bone name with the rig"));

    import::ImportedScene nan = sweepScene();
    nan.animations[0].channels[0].rotations[3].value.x = std::numeric_limits<float>::quiet_NaN();
    QVERIFY(!editor::fitLimits(rig, {{&nan, 0, "nan.glb"}}, {}, r, error));
    QCOMPARE(QString::fromStdString(error), QStringLiteral("nan.glb: clip 'sweep': bone 'lower': rotation key 3 is not finite"));

    const import::ImportedScene scene = sweepScene();
    for (float margin : {-1.f, 90.5f, std::numeric_limits<float>::quiet_NaN()}) {
        editor::LimitFitOptions options;
        options.margin = radians(margin);
        QVERIFY(!editor::fitLimits(rig, {{&scene, 0, "sweep.glb"}}, options, r, error));
        QCOMPARE(QString::fromStdString(error), QStringLiteral("the margin must be within [0, 90] degrees"));
    }
    QVERIFY(!editor::fitLimits(rig, {{&scene, 4, "sweep.glb"}}, {}, r, error));
    QCOMPARE(QString::fromStdString(error), QStringLiteral("sweep.glb: no clip 4"));
    QVERIFY(r.joints.empty()); // untouched by the failures
}

void TestLimitFit::samples_noFrameBeyondTheFittedLimits_data()
{
    QTest::addColumn<QString>("project");
    QTest::addColumn<float>("marginDegrees");
    for (const char* p : kAnimatedSamples)
        for (float m : {0.f, 5.f})
            QTest::newRow(qPrintable(QStringLiteral("%1 margin %2").arg(QLatin1String(p)).arg(m))) << QString::fromLatin1(p) << m;
}

void TestLimitFit::samples_noFrameBeyondTheFittedLimits()
{
    QFETCH(QString, project);
    QFETCH(float, marginDegrees);
    const QString path = QStringLiteral(MARIONETTE_SAMPLES "/") + project;
    project::Project proj;
    const project::LoadResult loaded = project::loadProject(path, proj);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error));
    import::ImportResult imported =
        import::importScene(proj.sourceMesh.resolve(path).toStdString(), editor::importOptionsFor(proj.import));
    QVERIFY2(imported.ok(), imported.error.c_str());
    const import::ImportedScene& scene = imported.scene;
    QVERIFY(!scene.animations.empty());
    std::vector<editor::LimitFitClip> clips;
    for (std::size_t c = 0; c < scene.animations.size(); ++c)
        clips.push_back({&scene, c, "mesh"});
    editor::LimitFitOptions options;
    options.margin = radians(marginDegrees);
    editor::LimitFitResult r;
    std::string error;
    QVERIFY2(editor::fitLimits(proj.rig, clips, options, r, error), error.c_str());
    std::size_t fitted = 0;
    for (const editor::JointFit& j : r.joints)
        fitted += j.status == editor::JointFit::Status::Fitted ? 1 : 0;
    QVERIFY(fitted > 0);

    // Every sampled frame of every clip, posed on a ragdoll of the fitted rig, measured by the runtime.
    rig::RigDescription fittedRig = proj.rig;
    fittedRig.angular = r.constraints;
    std::string why;
    const std::shared_ptr<const runtime::Rig> built = runtime::Rig::build(fittedRig, &why);
    QVERIFY2(built, why.c_str());
    runtime::World world;
    runtime::Ragdoll* doll = world.ragdoll(world.spawn(built));
    QVERIFY(doll);
    const std::vector<std::int32_t> bones = editor::particleBones(proj.rig, scene);
    std::vector<float> excess(built->angular().size());
    float worst = 0.f;
    QString where;
    for (std::size_t c = 0; c < scene.animations.size(); ++c)
        for (float t : editor::limitFitTimes(scene.animations[c], options.sampleRate)) {
            const std::vector<Vec3> x = editor::posedParticles(proj.rig, scene, bones, editor::sampleBoneWorld(scene, c, t));
            QVERIFY(doll->setPose(x, x));
            QVERIFY(doll->angularExcesses(excess));
            for (std::size_t i = 0; i < excess.size(); ++i)
                if (excess[i] > worst) {
                    worst = excess[i];
                    where = QStringLiteral("%1 at %2 s of clip %3").arg(QString::fromStdString(proj.rig.angular[i].name)).arg(t).arg(c);
                }
        }
    // The fit measures the same positions with the same decomposition (runtime::angularDeviation), so a frame
    // can exceed its limit only by float rounding of the ellipse's scale and the sums: 1e-5 rad (0.0006°).
    QVERIFY2(worst <= 1e-5f, qPrintable(QStringLiteral("%1 rad beyond: %2").arg(worst).arg(where)));

    // And the fit is tight: every limit fitted with margin 0 narrowed by 0.1° leaves some frame outside it.
    if (marginDegrees != 0.f)
        return;
    const float shrink = radians(0.1f);
    rig::RigDescription narrowed = proj.rig;
    std::size_t moving = 0;
    for (const editor::JointFit& j : r.joints) {
        if (j.status != editor::JointFit::Status::Fitted || j.maxAngle < radians(1.f))
            continue;
        ++moving;
        rig::AngularConstraint& c = narrowed.angular[j.index];
        c = j.fitted;
        c.coneAngle = std::max(c.coneAngle - shrink, 0.f);
        c.twistMax = std::max(c.twistMax - shrink, 0.f);
        c.twistMin = std::min(c.twistMin + shrink, 0.f);
        c.swing1 = std::max(c.swing1 - shrink, 0.f);
        c.swing2 = std::max(c.swing2 - shrink, 0.f);
    }
    QVERIFY(moving > 0);
    editor::LimitFitResult again;
    QVERIFY2(editor::fitLimits(narrowed, clips, options, again, error), error.c_str());
    for (const editor::JointFit& j : r.joints)
        if (j.status == editor::JointFit::Status::Fitted && j.maxAngle >= radians(1.f))
            QVERIFY2(again.joints[j.index].framesOutside > 0, j.name.c_str());
}

QTEST_GUILESS_MAIN(TestLimitFit)
#include "tst_limitfit.moc"
