// The mannequin sample's animation clips (samples/characters/mannequin/mannequin.glb: idle, walk, getup_back,
// getup_front), read through the importer and posed on the sample's own rig as the preview and the limit fit
// pose it (editor::sampleBoneWorld, posedParticles): they turn only the bones that own a part of the rig, stay
// inside every angular limit (editor::fitLimits counts no frame outside, runtime::angularDeviation measures
// the margin), keep every particle's sphere on or above the floor, the rig's rigid sticks near their length and
// every pair of self-colliding capsules apart (a ragdoll driven toward the clip is not pushed off it), and the
// walk's stance foot stays put; the preview hands the walk to a ragdoll. The figures the sample's
// README quotes are printed.
#include "SampleClips.h"

#include "marionette/editor/autorig/AutoRigSupport.h"
#include "marionette/editor/pluginhost/MeshSource.h"
#include "marionette/editor/preview/AnimationPose.h"
#include "marionette/editor/preview/LimitFit.h"
#include "marionette/editor/preview/PreviewSession.h"
#include "marionette/editor/preview/TestScenes.h"
#include "marionette/import/Import.h"
#include "marionette/runtime/AngularDeviation.h"
#include "marionette/runtime/Rig.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <set>
#include <span>
#include <string>

using namespace marionette;

namespace {

using Sample = test::MannequinSample;
const Sample& sample() { return test::mannequinSample(); }

std::size_t clipIndex(const import::ImportedScene& scene, const QString& name)
{
    for (std::size_t c = 0; c < scene.animations.size(); ++c)
        if (QString::fromStdString(scene.animations[c].name) == name)
            return c;
    qFatal("no clip '%s' in the mannequin", qPrintable(name));
}


/// Radians from `d` to the nearest edge of c's limits (negative outside): the twist range and, but for a
/// hinge, the swing ellipse measured along the swing's own direction.
float limitMargin(const runtime::AngularData& c, const runtime::AngularDeviation& d)
{
    float margin = std::min(d.twist - c.twistMin, c.twistMax - d.twist);
    if (c.hinge)
        return margin;
    const float swing = std::hypot(d.swing1, d.swing2);
    if (swing < 1e-6f)
        return std::min(margin, std::min(c.swing1, c.swing2));
    // The ellipse's radius in the swing's direction: 1 / sqrt((cos/s1)² + (sin/s2)²).
    const float u = d.swing1 / swing, v = d.swing2 / swing;
    const float radius = 1.f / std::sqrt((u / c.swing1) * (u / c.swing1) + (v / c.swing2) * (v / c.swing2));
    return std::min(margin, radius - swing);
}

/// 30 frames a second and 60 between them: every key and the points the preview may sample between.
std::vector<float> sampleTimes(const import::AnimationClip& clip) { return editor::limitFitTimes(clip, 60.f); }

} // namespace

class TestMannequinClips : public QObject {
    Q_OBJECT

private slots:
    void clips_namedWithTheirDurations();
    void clips_turnOnlyTheBonesThatOwnABodyPart();
    void clips_insideEveryAngularLimit_data();
    void clips_insideEveryAngularLimit();
    void clips_keepEveryParticleAboveTheFloor_data() { clips_insideEveryAngularLimit_data(); }
    void clips_keepEveryParticleAboveTheFloor();
    void clips_keepTheRigidSticksLength_data() { clips_insideEveryAngularLimit_data(); }
    void clips_keepTheRigidSticksLength();
    void clips_keepTheSelfCollisionCapsulesApart_data() { clips_insideEveryAngularLimit_data(); }
    void clips_keepTheSelfCollisionCapsulesApart();
    void clips_moveEveryJointAtAPlausibleSpeed_data();
    void clips_moveEveryJointAtAPlausibleSpeed();
    void idle_loopsInPlace();
    void walk_loopsAStrideAheadWithTheStanceFootPlanted();
    void getups_startLyingFlatAndEndInTheBindPose_data();
    void getups_startLyingFlatAndEndInTheBindPose();
    void preview_startsTheRagdollMidStrideAtTheWalksSpeed();
};

void TestMannequinClips::clips_namedWithTheirDurations()
{
    const import::ImportedScene& scene = sample().scene;
    QCOMPARE(scene.animations.size(), std::size_t(4));
    // Keys at 30 frames a second: idle 120 frames, walk 4 cycles of 33, the get-ups as generated.
    const std::pair<const char*, float> expected[] = {{"idle", 4.f}, {"walk", 4.4f}, {"getup_back", 4.43333f}, {"getup_front", 3.1f}};
    for (const auto& [name, duration] : expected) {
        const import::AnimationClip& clip = scene.animations[clipIndex(scene, QString::fromLatin1(name))];
        QVERIFY2(std::fabs(clip.duration - duration) < 1e-4f, qPrintable(QStringLiteral("%1 lasts %2 s").arg(name).arg(clip.duration)));
        for (const import::BoneChannel& ch : clip.channels)
            QCOMPARE(ch.rotations.size(), std::size_t(std::lround(duration * 30.f)) + 1);
        qInfo("%s: %.3f s", name, double(clip.duration));
    }
}

void TestMannequinClips::clips_turnOnlyTheBonesThatOwnABodyPart()
{
    // The bones a ragdoll of the rig reproduces from its triangles: the pelvis (Hips, which also moves), the
    // chest (Spine1), the head and the limbs' first two bones. Spine, Neck, the shoulders, hands, feet and toes
    // have no channel, so they keep their bind rotation relative to the parent.
    const std::set<std::string> owners{"Hips",     "Spine1",    "Head",     "LeftArm", "LeftForeArm", "RightArm",
                                       "RightForeArm", "LeftUpLeg", "LeftLeg", "RightUpLeg", "RightLeg"};
    const import::ImportedScene& scene = sample().scene;
    for (const import::AnimationClip& clip : scene.animations) {
        std::set<std::string> animated;
        for (const import::BoneChannel& ch : clip.channels) {
            const std::string& bone = scene.skeleton[std::size_t(ch.bone)].name;
            animated.insert(bone);
            // Only the root translates: the others' one position key is their bind offset.
            if (bone != "Hips")
                QVERIFY2(ch.positions.size() <= 1, bone.c_str());
        }
        QVERIFY2(animated == owners, clip.name.c_str());
    }
}

void TestMannequinClips::clips_insideEveryAngularLimit_data()
{
    QTest::addColumn<QString>("clip");
    for (const char* name : {"idle", "walk", "getup_back", "getup_front"})
        QTest::newRow(name) << QString::fromLatin1(name);
}

void TestMannequinClips::clips_insideEveryAngularLimit()
{
    QFETCH(QString, clip);
    const Sample& s = sample();
    const std::size_t c = clipIndex(s.scene, clip);

    // What `marionette fit-limits` reports: no frame beyond any of the rig's limits.
    editor::LimitFitOptions options;
    options.margin = 0.f;
    editor::LimitFitResult fit;
    std::string error;
    QVERIFY2(editor::fitLimits(s.project.rig, {{&s.scene, c, "mannequin.glb"}}, options, fit, error), error.c_str());
    for (const editor::JointFit& j : fit.joints)
        QVERIFY2(j.framesOutside == 0, qPrintable(QStringLiteral("%1: %2 of %3 frames outside: %4")
                                                      .arg(QString::fromStdString(j.name)).arg(j.framesOutside)
                                                      .arg(j.frames).arg(QString::fromStdString(editor::observedText(j)))));

    // And by how much: the same measure per frame. The swing/twist joints keep at least 2° inside; the
    // hinges bend only the anatomical way (twist ≥ 0, their straight bind pose exactly at it).
    const std::shared_ptr<const runtime::Rig> rig = runtime::Rig::build(s.project.rig, &error);
    QVERIFY2(rig, error.c_str());
    const std::vector<std::int32_t> bones = editor::particleBones(s.project.rig, s.scene);
    float worst = 1e9f, hingeWorst = 1e9f;
    QString where, hingeWhere;
    for (float t : sampleTimes(s.scene.animations[c])) {
        const std::vector<Vec3> x = editor::posedParticles(s.project.rig, s.scene, bones, editor::sampleBoneWorld(s.scene, c, t));
        for (std::size_t i = 0; i < rig->angular().size(); ++i) {
            const runtime::AngularData& d = rig->angular()[i];
            const auto& ta = rig->triangles()[d.triA].p;
            const auto& tb = rig->triangles()[d.triB].p;
            Mat3 fa, fb;
            QVERIFY(runtime::Rig::triangleFrame(x[ta[0]], x[ta[1]], x[ta[2]], fa));
            QVERIFY(runtime::Rig::triangleFrame(x[tb[0]], x[tb[1]], x[tb[2]], fb));
            const runtime::AngularDeviation dev = runtime::angularDeviation(d, toQuatOrthonormal(fa), toQuatOrthonormal(fb));
            const float margin = limitMargin(d, dev);
            const QString here = QStringLiteral("%1 at %2 s").arg(QString::fromStdString(s.project.rig.angular[i].name)).arg(t);
            if (d.hinge) {
                QVERIFY2(margin >= -1e-4f, qPrintable(here));
                if (margin < hingeWorst) {
                    hingeWorst = margin;
                    hingeWhere = here;
                }
                continue;
            }
            QVERIFY2(margin >= radians(2.f), qPrintable(QStringLiteral("%1: %2° from the limit").arg(here).arg(degrees(margin))));
            if (margin < worst) {
                worst = margin;
                where = here;
            }
        }
    }
    qInfo("%s: swing/twist joints at least %.1f deg inside their limits (%s), hinges %.1f deg (%s)", qPrintable(clip),
          double(degrees(worst)), qPrintable(where), double(degrees(hingeWorst)), qPrintable(hingeWhere));
}

void TestMannequinClips::clips_keepEveryParticleAboveTheFloor()
{
    QFETCH(QString, clip);
    const Sample& s = sample();
    const std::size_t c = clipIndex(s.scene, clip);
    const std::vector<std::int32_t> bones = editor::particleBones(s.project.rig, s.scene);
    float lowest = 1e9f;
    QString where;
    for (float t : sampleTimes(s.scene.animations[c])) {
        const std::vector<Vec3> x = editor::posedParticles(s.project.rig, s.scene, bones, editor::sampleBoneWorld(s.scene, c, t));
        for (std::size_t i = 0; i < x.size(); ++i) {
            const float bottom = x[i].y - s.project.rig.particles[i].radius;
            if (bottom < lowest) {
                lowest = bottom;
                where = QStringLiteral("%1 at %2 s").arg(QString::fromStdString(s.project.rig.particles[i].name)).arg(t);
            }
        }
    }
    qInfo("%s: lowest particle bottom %.1f mm (%s)", qPrintable(clip), double(lowest) * 1000.0, qPrintable(where));
    QVERIFY2(lowest >= -0.005f, qPrintable(QStringLiteral("%1 m below the floor: %2").arg(lowest).arg(where)));
}

void TestMannequinClips::clips_keepTheRigidSticksLength()
{
    QFETCH(QString, clip);
    const Sample& s = sample();
    const std::size_t c = clipIndex(s.scene, clip);
    const rig::RigDescription& rig = s.project.rig;
    const std::vector<std::int32_t> bones = editor::particleBones(rig, s.scene);
    float worst = 0.f;
    QString where;
    for (float t : sampleTimes(s.scene.animations[c])) {
        const std::vector<Vec3> x = editor::posedParticles(rig, s.scene, bones, editor::sampleBoneWorld(s.scene, c, t));
        for (const rig::Stick& k : rig.sticks) {
            if (k.kind != rig::StickKind::Rigid)
                continue;
            const float rest = length(rig.particles[std::size_t(k.b)].position - rig.particles[std::size_t(k.a)].position);
            const float change = std::fabs(length(x[std::size_t(k.b)] - x[std::size_t(k.a)]) - rest);
            if (change > worst) {
                worst = change;
                where = QStringLiteral("%1 at %2 s").arg(QString::fromStdString(k.name)).arg(t);
            }
        }
    }
    qInfo("%s: rigid sticks within %.1f mm of their length (%s)", qPrintable(clip), double(worst) * 1000.0, qPrintable(where));
    // A ragdoll keeps them exactly. The chest triangle takes the spine particle from the pelvis' bone and the
    // head triangle the neck particle from Neck, so turning Spine1 or Head about its joint (10 cm from that
    // particle) stretches a stick by about 1 mm a degree: the clips turn them lightly (the head at most 10°).
    QVERIFY2(worst < 0.012f, qPrintable(where));
}

void TestMannequinClips::clips_keepTheSelfCollisionCapsulesApart()
{
    // Every pair of capsules the runtime collides with each other (Rig::selfCapsulePairs: filters passing, no
    // shared particle, not rigidly linked) keeps at least 5 mm between the surfaces in every frame, so a
    // ragdoll posed or driven by the clip starts without self-collision pushing its limbs off it.
    QFETCH(QString, clip);
    const Sample& s = sample();
    const std::size_t c = clipIndex(s.scene, clip);
    std::string error;
    const std::shared_ptr<const runtime::Rig> rig = runtime::Rig::build(s.project.rig, &error);
    QVERIFY2(rig, error.c_str());
    const std::span<const runtime::CapsuleData> capsules = rig->capsules();
    const std::span<const std::uint32_t> pairs = rig->selfCapsulePairs();
    QVERIFY(!pairs.empty()); // the pelvis against the forearms, among others
    const std::vector<std::int32_t> bones = editor::particleBones(s.project.rig, s.scene);
    float worst = 1e9f;
    QString where;
    for (float t : sampleTimes(s.scene.animations[c])) {
        const std::vector<Vec3> x = editor::posedParticles(s.project.rig, s.scene, bones, editor::sampleBoneWorld(s.scene, c, t));
        for (std::size_t k = 0; k + 1 < pairs.size(); k += 2) {
            const runtime::CapsuleData& a = capsules[pairs[k]];
            const runtime::CapsuleData& b = capsules[pairs[k + 1]];
            const float gap = editor::autorig::segmentDistance(x[a.a], x[a.b], x[b.a], x[b.b]) - a.radius - b.radius;
            if (gap < worst) {
                worst = gap;
                where = QStringLiteral("%1 and %2 at %3 s")
                            .arg(QString::fromStdString(s.project.rig.sticks[a.stick].name),
                                 QString::fromStdString(s.project.rig.sticks[b.stick].name))
                            .arg(t);
            }
        }
    }
    qInfo("%s: self-colliding capsules at least %.1f mm apart (%s)", qPrintable(clip), double(worst) * 1000.0, qPrintable(where));
    QVERIFY2(worst >= 0.005f, qPrintable(QStringLiteral("%1 mm apart: %2").arg(double(worst) * 1000.0).arg(where)));
}

void TestMannequinClips::clips_moveEveryJointAtAPlausibleSpeed_data()
{
    // The most a joint may move in one 1/60 s frame: 6 cm (3.6 m/s, a brisk hand); the walk's swing foot 8 cm.
    QTest::addColumn<QString>("clip");
    QTest::addColumn<float>("most");
    QTest::newRow("idle") << QStringLiteral("idle") << 0.06f;
    QTest::newRow("walk") << QStringLiteral("walk") << 0.08f;
    QTest::newRow("getup_back") << QStringLiteral("getup_back") << 0.06f;
    QTest::newRow("getup_front") << QStringLiteral("getup_front") << 0.06f;
}

void TestMannequinClips::clips_moveEveryJointAtAPlausibleSpeed()
{
    // Every bone's joint (its world position, sampled as the preview samples it) moves at most `most` between
    // frames 1/60 s apart: a ragdoll driven toward the clip, or a get-up blended from a resting pose, rides on
    // the clip's motion, so a faster sweep shows as a pop.
    QFETCH(QString, clip);
    QFETCH(float, most);
    const import::ImportedScene& scene = sample().scene;
    const std::size_t c = clipIndex(scene, clip);
    const int frames = int(std::lround(scene.animations[c].duration * 60.f));
    std::vector<Mat4> before = editor::sampleBoneWorld(scene, c, 0.f);
    float fastest = 0.f;
    QString where;
    for (int f = 1; f <= frames; ++f) {
        const float t = float(f) / 60.f;
        std::vector<Mat4> now = editor::sampleBoneWorld(scene, c, t);
        for (std::size_t b = 0; b < now.size(); ++b) {
            const float step = length(now[b].translation() - before[b].translation());
            if (step > fastest) {
                fastest = step;
                where = QStringLiteral("%1 at frame %2 (%3 s)").arg(QString::fromStdString(scene.skeleton[b].name)).arg(f).arg(t);
            }
        }
        before = std::move(now);
    }
    qInfo("%s: at most %.1f cm per 1/60 s frame (%s)", qPrintable(clip), double(fastest) * 100.0, qPrintable(where));
    QVERIFY2(fastest <= most, qPrintable(QStringLiteral("%1 cm in 1/60 s: %2").arg(double(fastest) * 100.0).arg(where)));
}

void TestMannequinClips::idle_loopsInPlace()
{
    const import::ImportedScene& scene = sample().scene;
    const std::size_t c = clipIndex(scene, QStringLiteral("idle"));
    const float end = scene.animations[c].duration;
    const std::vector<Mat4> first = editor::sampleBoneWorld(scene, c, 0.f), last = editor::sampleBoneWorld(scene, c, end);
    for (std::size_t b = 0; b < first.size(); ++b)
        QVERIFY2(length(last[b].translation() - first[b].translation()) < 1e-5f, scene.skeleton[b].name.c_str());
    // The root sways around its bind position by at most 3 cm.
    const Vec3 bind = scene.skeleton[0].bindWorld.translation();
    for (float t : sampleTimes(scene.animations[c]))
        QVERIFY2(length((editor::sampleBoneWorld(scene, c, t)[0]).translation() - bind) <= 0.03f, qPrintable(QString::number(t)));
}

void TestMannequinClips::walk_loopsAStrideAheadWithTheStanceFootPlanted()
{
    const Sample& s = sample();
    const import::ImportedScene& scene = s.scene;
    const std::size_t c = clipIndex(scene, QStringLiteral("walk"));
    const float end = scene.animations[c].duration;

    // Four cycles of 1.1 s at 1.2 m/s along +Z: the last frame is the first 5.28 m ahead.
    const std::vector<Mat4> first = editor::sampleBoneWorld(scene, c, 0.f), last = editor::sampleBoneWorld(scene, c, end);
    for (std::size_t b = 0; b < first.size(); ++b)
        QVERIFY2(length(last[b].translation() - first[b].translation() - Vec3{0.f, 0.f, 5.28f}) < 1e-4f,
                 scene.skeleton[b].name.c_str());
    const float speed = (last[0].translation().z - first[0].translation().z) / end;
    qInfo("walk: %.3f m/s", double(speed));
    QVERIFY(std::fabs(speed - 1.2f) < 1e-3f);

    // The ankles' spheres: a foot is down when its sphere is within 1 cm of the floor. One foot is always
    // down, and a foot that is down does not move more than 1 cm until it lifts.
    const std::vector<std::int32_t> bones = editor::particleBones(s.project.rig, scene);
    std::size_t ankle[2] = {0, 0};
    for (std::size_t i = 0; i < s.project.rig.particles.size(); ++i) {
        if (s.project.rig.particles[i].name == "ankle_l")
            ankle[0] = i;
        if (s.project.rig.particles[i].name == "ankle_r")
            ankle[1] = i;
    }
    QVERIFY(ankle[0] != ankle[1]);
    bool down[2] = {false, false};
    Vec3 planted[2];
    float slide = 0.f, highestStance = 0.f;
    int stances = 0;
    for (int frame = 0; frame <= int(std::lround(end * 30.f)); ++frame) {
        const float t = float(frame) / 30.f;
        const std::vector<Vec3> x = editor::posedParticles(s.project.rig, scene, bones, editor::sampleBoneWorld(scene, c, t));
        bool any = false;
        for (int f = 0; f < 2; ++f) {
            const Vec3 p = x[ankle[f]];
            const float bottom = p.y - s.project.rig.particles[ankle[f]].radius;
            const bool isDown = bottom <= 0.01f;
            any = any || isDown;
            if (isDown && !down[f]) {
                planted[f] = p;
                ++stances;
            }
            if (isDown) {
                slide = std::max(slide, std::hypot(p.x - planted[f].x, p.z - planted[f].z));
                highestStance = std::max(highestStance, bottom);
            }
            down[f] = isDown;
        }
        QVERIFY2(any, qPrintable(QStringLiteral("both feet off the floor at %1 s").arg(t)));
    }
    qInfo("walk: %d stances, the stance foot at most %.1f mm above the floor and sliding %.2f mm", stances,
          double(highestStance) * 1000.0, double(slide) * 1000.0);
    QVERIFY(stances >= 8); // two a cycle (the first two begin with the clip)
    QVERIFY2(slide < 0.01f, qPrintable(QString::number(slide)));
}

void TestMannequinClips::getups_startLyingFlatAndEndInTheBindPose_data()
{
    QTest::addColumn<QString>("clip");
    QTest::addColumn<float>("faceUp"); // +1 lying on the back, −1 face down
    QTest::newRow("getup_back") << QStringLiteral("getup_back") << 1.f;
    QTest::newRow("getup_front") << QStringLiteral("getup_front") << -1.f;
}

void TestMannequinClips::getups_startLyingFlatAndEndInTheBindPose()
{
    QFETCH(QString, clip);
    QFETCH(float, faceUp);
    const Sample& s = sample();
    const import::ImportedScene& scene = s.scene;
    const std::size_t c = clipIndex(scene, clip);
    const std::vector<std::int32_t> bones = editor::particleBones(s.project.rig, scene);

    // The first frame lies flat, as a ragdoll comes to rest: the trunk's lowest particle (of the hips, the
    // spine and the shoulders) on the floor (within 1 cm), the hips and shoulders within 5 cm of it.
    const std::vector<Mat4> start = editor::sampleBoneWorld(scene, c, 0.f);
    const std::vector<Vec3> x = editor::posedParticles(s.project.rig, scene, bones, start);
    float trunk = 1e9f;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const std::string& name = s.project.rig.particles[i].name;
        const float bottom = x[i].y - s.project.rig.particles[i].radius;
        QVERIFY2(bottom >= -0.005f, name.c_str());
        if (name == "hip_l" || name == "hip_r" || name == "shoulder_l" || name == "shoulder_r")
            QVERIFY2(bottom <= 0.05f, qPrintable(QStringLiteral("%1 %2 m above the floor").arg(name.c_str()).arg(bottom)));
        if (name == "hip_l" || name == "hip_r" || name == "spine" || name == "shoulder_l" || name == "shoulder_r")
            trunk = std::min(trunk, bottom);
    }
    QVERIFY2(trunk <= 0.01f, qPrintable(QStringLiteral("the trunk %1 m above the floor").arg(trunk)));
    // The pelvis' axes are the columns of its world matrix: its up axis (column 1) horizontal, its front
    // (column 2) up or down.
    QVERIFY2(std::fabs(start[0].m[5]) < 0.1f, "the trunk is not level");
    QVERIFY2(start[0].m[9] * faceUp > 0.95f, "not facing the way it lies");

    // The last frame is the bind pose standing on the floor facing +Z (moved along the floor only).
    const std::vector<Mat4> end = editor::sampleBoneWorld(scene, c, scene.animations[c].duration);
    const Vec3 offset = end[0].translation() - scene.skeleton[0].bindWorld.translation();
    QVERIFY2(std::fabs(offset.y) < 1e-5f, qPrintable(QString::number(offset.y)));
    for (std::size_t b = 0; b < end.size(); ++b)
        for (int k = 0; k < 16; ++k) {
            const float expected = scene.skeleton[b].bindWorld.m[k] + (k == 12 ? offset.x : k == 14 ? offset.z : 0.f);
            QVERIFY2(std::fabs(end[b].m[k] - expected) < 1e-5f, scene.skeleton[b].name.c_str());
        }
}

void TestMannequinClips::preview_startsTheRagdollMidStrideAtTheWalksSpeed()
{
    // The preview's animation hand-off (From Animation…) on the walk at 2 s: the ragdoll takes the clip's pose
    // on the floor scene, and its centre of mass the clip's forward speed (1.2 m/s, give or take the sway of
    // the limbs within the cycle), then it falls.
    const Sample& s = sample();
    const std::size_t c = clipIndex(s.scene, QStringLiteral("walk"));
    editor::PreviewSession session;
    QString error;
    QVERIFY2(session.start(s.project.rig, {}, error), qPrintable(error));
    QVERIFY2(session.startFromAnimation(s.scene, c, 2.f, error), qPrintable(error));
    const std::vector<std::int32_t> bones = editor::particleBones(s.project.rig, s.scene);
    const std::vector<Vec3> x = editor::posedParticles(s.project.rig, s.scene, bones, editor::sampleBoneWorld(s.scene, c, 2.f));
    const float top = editor::sceneTopHeight(project::Scene::Floor);
    for (std::size_t i = 0; i < x.size(); ++i)
        QVERIFY(length(session.positions()[i] - (x[i] + Vec3{0.f, top, 0.f})) < 1e-4f);
    const Vec3 before = session.centreOfMass();
    session.step();
    const float speed = (session.centreOfMass().z - before.z) / session.timeStep();
    qInfo("walk handed to the ragdoll at 2 s: centre of mass at %.2f m/s along +Z", double(speed));
    QVERIFY2(speed > 0.9f && speed < 1.5f, qPrintable(QString::number(speed)));
}

QTEST_GUILESS_MAIN(TestMannequinClips)
#include "tst_mannequinclips.moc"
