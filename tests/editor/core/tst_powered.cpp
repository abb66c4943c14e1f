// Powered ragdolls on the mannequin sample, with its own clips and drive profiles: at "balanced" the walk and
// the idle are tracked within 3 cm and 5°, a push answered with "stagger" knocks the chest and recovers, "limp"
// falls, the whole body kinematic reproduces the walk
// (the palette → targets → bones loop), the legs kinematic keep the feet on the clip to 1 mm while a hit
// knocks the upper body, and from 20 random resting poses the get-up clip chosen lies the way the body lies
// and blends in (`marionette simulate --animation` prints the same figures for any gains).
#include "marionette/editor/pluginhost/MeshSource.h"
#include "marionette/editor/preview/DrivenRun.h"
#include "marionette/editor/preview/GetUp.h"
#include "marionette/editor/preview/TestScenes.h"
#include "marionette/import/Import.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <random>

#include <QtTest/QtTest>

#include "SampleClips.h"

using namespace marionette;

namespace {

using Sample = test::MannequinSample;
const Sample& sample() { return test::mannequinSample(); }

/// The sample's rig compiled once for the program (its drive parts and profiles).
const std::shared_ptr<const runtime::Rig>& sampleRig()
{
    static const std::shared_ptr<const runtime::Rig> rig = runtime::Rig::build(sample().project.rig);
    if (!rig)
        qFatal("the mannequin's rig does not build");
    return rig;
}

std::size_t clipIndex(const char* name)
{
    for (std::size_t c = 0; c < sample().scene.animations.size(); ++c)
        if (sample().scene.animations[c].name == name)
            return c;
    qFatal("no clip %s", name);
}

} // namespace

class TestPowered : public QObject {
    Q_OBJECT
private slots:
    void tracking_walkAtBalancedStaysOnTheClip_data();
    void tracking_walkAtBalancedStaysOnTheClip();
    void reaction_hitWhileWalkingStaggersAndRecovers();
    void reaction_hitAtLimpDropsTheBody();
    void kinematic_wholeBodyReproducesTheWalk();
    void partial_legsKinematicFeetOnTheClipWhileTheUpperBodyReacts();
    void getUp_choosesTheClipThatLiesLikeTheBodyAndBlendsWithoutAPop();
};

std::size_t partOf(const rig::RigDescription& d, const char* triangle)
{
    for (std::size_t k = 0; k < d.triangles.size(); ++k)
        if (d.triangles[k].name == triangle)
            return k;
    qFatal("no triangle %s", triangle);
}

/// The gains of the sample's drive profile `name`, per part.
std::vector<rig::DriveGains> profile(const runtime::Rig& rig, const char* name)
{
    const std::int32_t p = rig.findDriveProfile(name);
    if (p < 0)
        qFatal("the mannequin has no drive profile '%s'", name);
    return rig.driveProfiles()[std::size_t(p)].gains;
}

void TestPowered::tracking_walkAtBalancedStaysOnTheClip_data()
{
    QTest::addColumn<QString>("clip");
    QTest::newRow("walk") << QStringLiteral("walk");
    QTest::newRow("idle") << QStringLiteral("idle");
}

// At the "balanced" profile, with no hit, every bone stays within 3 cm (relative to the root) and 5° of the
// clip at every frame of the walk (4.4 s, four cycles) and of the idle.
void TestPowered::tracking_walkAtBalancedStaysOnTheClip()
{
    QFETCH(QString, clip);
    const rig::RigDescription& d = sample().project.rig;
    const auto& rig = sampleRig();
    editor::DrivenRunOptions o;
    o.clip = clipIndex(qPrintable(clip));
    o.gains = profile(*rig, "balanced");
    const editor::DrivenRunResult r = editor::runDriven(d, sample().scene, o);
    QVERIFY2(r.error.empty(), r.error.c_str());
    qInfo("%s at balanced: worst %.2f cm (%s), %.2f° (%s) over %u frames", qPrintable(clip), r.worstPosition * 100.f,
          d.bones[std::size_t(r.worstPositionBone)].name.c_str(), degrees(r.worstAngle),
          d.bones[std::size_t(r.worstAngleBone)].name.c_str(), r.frames);
    QVERIFY(r.frames >= 200);
    QVERIFY(r.finite && !r.fell);
    QVERIFY2(r.worstPosition <= 0.03f, qPrintable(QStringLiteral("%1 cm").arg(r.worstPosition * 100.f)));
    QVERIFY2(r.worstAngle <= radians(5.f), qPrintable(QStringLiteral("%1°").arg(degrees(r.worstAngle))));
}

/// Largest distance over the frames after `from` seconds between the chest triangle's centroid and its target's.
float chestKnock(const rig::RigDescription& d, const editor::DrivenRunResult& r, float from, float dt)
{
    const std::size_t n = d.particles.size(), chest = partOf(d, "chest");
    float most = 0.f;
    for (std::size_t f = std::size_t(from / dt); f < r.frames; ++f) {
        Vec3 c, t;
        for (int k = 0; k < 3; ++k) {
            c += r.particles[f * n + std::size_t(d.triangles[chest].p[k])] / 3.f;
            t += r.targets[f * n + std::size_t(d.triangles[chest].p[k])] / 3.f;
        }
        most = std::max(most, length(c - t));
    }
    return most;
}

/// A 40 N·s push on the chest (its three corners), backward, at `seconds`.
void pushChest(const rig::RigDescription& d, editor::DrivenRunOptions& o, float seconds)
{
    const std::size_t chest = partOf(d, "chest");
    for (int k = 0; k < 3; ++k)
        o.hits.push_back({seconds, std::uint32_t(d.triangles[chest].p[k]), {0.f, 0.f, -40.f / 3.f}});
}

// Walking at "balanced", a 40 N·s push on the chest, answered as a game would: "stagger" at once for 0.3 s,
// then back to "balanced" over 0.5 s. The chest is knocked at least 10 cm off the clip, the tracking error is
// back below 3 cm within 1.5 s of the push (and stays), and the body does not fall.
void TestPowered::reaction_hitWhileWalkingStaggersAndRecovers()
{
    const rig::RigDescription& d = sample().project.rig;
    const auto& rig = sampleRig();
    editor::DrivenRunOptions o;
    o.clip = clipIndex("walk");
    o.gains = profile(*rig, "balanced");
    const float hit = 1.5f;
    pushChest(d, o, hit);
    o.switches.push_back({hit, profile(*rig, "stagger"), 0.03f});
    o.switches.push_back({hit + 0.3f, profile(*rig, "balanced"), 0.5f});
    const editor::DrivenRunResult r = editor::runDriven(d, sample().scene, o);
    QVERIFY2(r.error.empty(), r.error.c_str());
    const float knock = chestKnock(d, r, hit, rig->settings().timeStep);
    qInfo("chest knocked %.1f cm off the walk; back below 3 cm after %.2f s; root at most %.1f cm below the clip's",
          knock * 100.f, r.recoveredAfter, -r.lowestRootHeight * 100.f);
    QVERIFY(r.finite);
    QVERIFY2(knock >= 0.10f, qPrintable(QStringLiteral("knocked only %1 cm").arg(knock * 100.f)));
    QVERIFY2(r.recoveredAfter >= 0.f && r.recoveredAfter <= 1.5f,
             qPrintable(QStringLiteral("recovered after %1 s").arg(r.recoveredAfter)));
    QVERIFY(!r.fell);
}

// The same push with the body going "limp" at it (a kill): nothing holds it up and it falls.
void TestPowered::reaction_hitAtLimpDropsTheBody()
{
    const rig::RigDescription& d = sample().project.rig;
    const auto& rig = sampleRig();
    editor::DrivenRunOptions o;
    o.clip = clipIndex("walk");
    o.gains = profile(*rig, "balanced");
    pushChest(d, o, 1.5f);
    o.switches.push_back({1.5f, profile(*rig, "limp"), 0.f});
    const editor::DrivenRunResult r = editor::runDriven(d, sample().scene, o);
    QVERIFY2(r.error.empty(), r.error.c_str());
    qInfo("limp: root %.1f cm below the clip's at its lowest", -r.lowestRootHeight * 100.f);
    QVERIFY(r.fell);
}

// Every part kinematic: the ragdoll's bones follow the walk within what the rig can represent (the head and
// the chest pivot on particles the clip cannot turn exactly: ~1 mm of stick per degree, see the clips' test).
void TestPowered::kinematic_wholeBodyReproducesTheWalk()
{
    const rig::RigDescription& d = sample().project.rig;
    const auto& rig = sampleRig();
    editor::DrivenRunOptions o;
    o.clip = clipIndex("walk");
    o.gains.assign(rig->driveParts().size(), rig::DriveGains{});
    for (rig::DriveGains& g : o.gains)
        g.kinematic = true;
    const editor::DrivenRunResult r = editor::runDriven(d, sample().scene, o);
    QVERIFY2(r.error.empty(), r.error.c_str());
    QVERIFY(r.finite);
    QVERIFY2(r.worstPosition < 0.005f && r.worstAngle < radians(2.f),
             qPrintable(QStringLiteral("worst bone %1 cm (%2), %3° (%4)")
                            .arg(r.worstPosition * 100.f)
                            .arg(QString::fromStdString(d.bones[std::size_t(r.worstPositionBone)].name))
                            .arg(degrees(r.worstAngle))
                            .arg(QString::fromStdString(d.bones[std::size_t(r.worstAngleBone)].name))));
    QVERIFY(!r.fell);
}

// Legs kinematic on the walk, the upper body on motors: a 40 N·s push on the chest moves the shoulders more
// than 5 cm off their targets, and no ankle leaves its target by more than 1 mm at any frame.
void TestPowered::partial_legsKinematicFeetOnTheClipWhileTheUpperBodyReacts()
{
    const rig::RigDescription& d = sample().project.rig;
    const auto& rig = sampleRig();
    editor::DrivenRunOptions o;
    o.clip = clipIndex("walk");
    o.gains.assign(rig->driveParts().size(), rig::DriveGains{});
    for (rig::DriveGains& g : o.gains) {
        g.motorFrequency = 6.f;
        g.motorDamping = 1.f;
    }
    for (const char* leg : {"thigh_l", "shin_l", "thigh_r", "shin_r"})
        o.gains[partOf(d, leg)].kinematic = true;
    pushChest(d, o, 1.5f);
    o.seconds = 3.f;
    const editor::DrivenRunResult r = editor::runDriven(d, sample().scene, o);
    QVERIFY2(r.error.empty(), r.error.c_str());
    const std::size_t n = d.particles.size();
    float ankles = 0.f, shoulders = 0.f;
    for (std::size_t f = 0; f < r.frames; ++f)
        for (std::size_t i = 0; i < n; ++i) {
            const float e = length(r.particles[f * n + i] - r.targets[f * n + i]);
            if (d.particles[i].name.rfind("ankle", 0) == 0)
                ankles = std::max(ankles, e);
            if (d.particles[i].name.rfind("shoulder", 0) == 0)
                shoulders = std::max(shoulders, e);
        }
    qInfo("ankles within %.4f mm of the clip; shoulders knocked up to %.1f cm off it", ankles * 1e3f, shoulders * 100.f);
    QVERIFY(ankles <= 1e-3f);
    QVERIFY(shoulders > 0.05f);
}

// 20 seeded drops (random orientation, 1–2 m) of the mannequin onto the floor; once at rest, the get-up chosen
// among getup_back and getup_front must start lying the way the body lies (face up when the chest's front,
// the bind pose's +Z carried by the chest triangle, points up), placed where the body lies, and blending from
// the resting pose into it over 1 s moves no bone more than 2 cm in a frame beyond the clip's own motion (the
// clip's hands move up to 5.5 cm a frame: that is animation, not a pop). Reported: how much shorter than the
// clip's a bone gets mid-blend (positions fade in world space, so a limb turning far is briefly shortened).
void TestPowered::getUp_choosesTheClipThatLiesLikeTheBodyAndBlendsWithoutAPop()
{
    const rig::RigDescription& d = sample().project.rig;
    const auto& rig = sampleRig();
    const std::size_t back = clipIndex("getup_back"), front = clipIndex("getup_front");
    const std::size_t clips[] = {back, front};
    const std::size_t chest = partOf(d, "chest");
    const auto bind = rig->bindPositions();
    Mat3 chestBind;
    QVERIFY(runtime::Rig::triangleFrame(bind[std::size_t(d.triangles[chest].p[0])], bind[std::size_t(d.triangles[chest].p[1])],
                                        bind[std::size_t(d.triangles[chest].p[2])], chestBind));
    const float dt = rig->settings().timeStep, blend = 1.f;
    std::mt19937 rng(20261126);
    std::uniform_real_distribution<float> unit(-1.f, 1.f), height(1.f, 2.f);
    int faceUp = 0;
    float worstJump = 0.f, worstTilt = 0.f, worstShrink = 0.f;
    for (int seed = 0; seed < 20; ++seed) {
        runtime::WorldSettings ws;
        runtime::World world(ws);
        editor::buildTestScene(world, project::Scene::Floor);
        const Quat q = normalize(Quat{unit(rng), unit(rng), unit(rng), unit(rng)});
        runtime::Ragdoll* body = world.ragdoll(world.spawn(rig, Transform{q, {0.f, height(rng), 0.f}}));
        QVERIFY(body);
        for (int s = 0; s < 600 && !body->asleep(); ++s)
            world.step();
        std::vector<Mat4> resting(d.bones.size());
        QVERIFY(body->boneMatrices(resting));
        // Independently of the choice: which way the chest's front points.
        Mat3 chestNow;
        const auto x = body->positions();
        QVERIFY(runtime::Rig::triangleFrame(x[std::size_t(d.triangles[chest].p[0])], x[std::size_t(d.triangles[chest].p[1])],
                                            x[std::size_t(d.triangles[chest].p[2])], chestNow));
        const bool up = (chestNow * chestBind.transposed() * Vec3{0.f, 0.f, 1.f}).y > 0.f;
        faceUp += up ? 1 : 0;
        const std::optional<editor::GetUpChoice> choice = editor::chooseGetUp(d, sample().scene, clips, resting);
        QVERIFY(choice);
        QVERIFY2(choice->clip == (up ? back : front),
                 qPrintable(QStringLiteral("drop %1 lies face %2 but %3 was chosen (tilt %4°)")
                                .arg(seed).arg(up ? "up" : "down")
                                .arg(QString::fromStdString(sample().scene.animations[choice->clip].name))
                                .arg(degrees(choice->tilt))));
        worstTilt = std::max(worstTilt, choice->tilt);
        // The clip starts where the body lies: its root over the body's root.
        const std::vector<Mat4> start = editor::getUpPalette(*rig, sample().scene, *choice, resting, 0.f, 0.f);
        QVERIFY(!start.empty());
        {
            const Vec3 a{start[0].m[12], 0.f, start[0].m[14]}, b{resting[0].m[12], 0.f, resting[0].m[14]};
            QVERIFY2(length(a - b) < 1e-3f, qPrintable(QStringLiteral("clip root %1 cm from the body's").arg(length(a - b) * 100.f)));
        }
        // The blend's own motion: how far each bone moves in a frame beyond what the aligned clip moves it.
        std::vector<Mat4> previous(resting.begin(), resting.end()), clipPrevious = start;
        auto at = [](const Mat4& m) { return Vec3{m.m[12], m.m[13], m.m[14]}; };
        for (int f = 1; f <= int(std::lround(blend / dt)) + 5; ++f) {
            const float t = float(f) * dt;
            const std::vector<Mat4> now = editor::getUpPalette(*rig, sample().scene, *choice, resting, t, blend);
            const std::vector<Mat4> clipNow = editor::getUpPalette(*rig, sample().scene, *choice, resting, t, 0.f);
            QVERIFY(now.size() == previous.size() && clipNow.size() == previous.size());
            for (std::size_t b = 0; b < now.size(); ++b) {
                const float jump = length((at(now[b]) - at(previous[b])) - (at(clipNow[b]) - at(clipPrevious[b])));
                worstJump = std::max(worstJump, jump);
                if (const std::int32_t p = d.bones[b].parent; p >= 0) {
                    const float bone = length(at(clipNow[b]) - at(clipNow[std::size_t(p)]));
                    if (bone > 0.05f)
                        worstShrink = std::max(worstShrink, 1.f - length(at(now[b]) - at(now[std::size_t(p)])) / bone);
                }
            }
            previous = now;
            clipPrevious = clipNow;
        }
        // After the blend the palette is the clip's.
        for (std::size_t b = 0; b < previous.size(); ++b)
            QVERIFY(length(at(previous[b]) - at(clipPrevious[b])) < 1e-4f);
    }
    qInfo("%d of 20 drops face up; worst tilt to the chosen clip %.1f°; worst bone move in a frame of the blend %.2f cm; "
          "bones (over 5 cm) at most %.0f %% shorter mid-blend",
          faceUp, degrees(worstTilt), worstJump * 100.f, worstShrink * 100.f);
    QVERIFY(faceUp > 0 && faceUp < 20);
    QVERIFY2(worstJump <= 0.02f, qPrintable(QStringLiteral("a bone jumped %1 cm in a frame").arg(worstJump * 100.f)));
}

QTEST_GUILESS_MAIN(TestPowered)
#include "tst_powered.moc"
