// The editor's driven preview on the mannequin sample (PreviewSession::startDriven, docs/preview.md "Driven
// preview"): its walk played through the "balanced" profile stays on the clip across loops, a chest hit knocks
// the chest off it, a kill drops the body, a get-up from the floor ends standing on the idle without a pop,
// bad names change nothing, and a recorded driven session replays bit for bit, seeks back exactly and resets.
#include "marionette/editor/preview/ClipPlayback.h"
#include "marionette/editor/preview/GetUp.h"
#include "marionette/editor/preview/PreviewSession.h"
#include "marionette/editor/preview/ScenarioRunner.h"
#include "marionette/project/ProjectFile.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"

#include <QtTest/QtTest>

#include "PreviewTestSupport.h"
#include "SampleClips.h"

using namespace marionette;
using editor::PreviewSession;
using Phase = PreviewSession::DrivePhase;
using test::copy;
using test::sameBits;

namespace {

const test::MannequinSample& sample() { return test::mannequinSample(); }
const rig::RigDescription& mannequin() { return sample().project.rig; }

project::DrivenPlay play(const char* clip, const char* profile = "balanced")
{
    project::DrivenPlay p;
    p.clip = QString::fromLatin1(clip);
    p.profile = QString::fromLatin1(profile);
    p.getUpClips = {QStringLiteral("getup_back"), QStringLiteral("getup_front")};
    return p;
}

void startOrDie(PreviewSession& s, const project::DrivenPlay& p)
{
    QString error;
    if (!s.startDriven(mannequin(), editor::PreviewSettings{}, sample().scene, p, error))
        qFatal("startDriven: %s", qPrintable(error));
}

std::size_t clipIndex(const char* name)
{
    for (std::size_t c = 0; c < sample().scene.animations.size(); ++c)
        if (sample().scene.animations[c].name == name)
            return c;
    qFatal("no clip %s", name);
}

std::size_t rootBone()
{
    editor::ClipPlayback p;
    std::string error;
    if (!p.init(mannequin(), sample().scene, clipIndex("idle"), error))
        qFatal("%s", error.c_str());
    return p.rootBone();
}

std::vector<Mat4> bones(const PreviewSession& s)
{
    std::vector<Mat4> out(mannequin().bones.size());
    s.ragdoll().boneMatrices(out);
    return out;
}

/// The worst bone's position error relative to the root (metres) against the palette the drives follow.
float tracking(const PreviewSession& s)
{
    float metres = 0.f, radians = 0.f;
    const std::span<const Mat4> target = s.driveTarget();
    editor::trackingError(bones(s), target, rootBone(), metres, radians);
    return metres;
}

Vec3 at(const Mat4& m) { return {m.m[12], m.m[13], m.m[14]}; }

std::size_t triangle(const char* name)
{
    for (std::size_t k = 0; k < mannequin().triangles.size(); ++k)
        if (mannequin().triangles[k].name == name)
            return k;
    qFatal("no triangle %s", name);
}

/// The chest triangle's centroid and its target's.
float chestOffTarget(const PreviewSession& s)
{
    const rig::Triangle& t = mannequin().triangles[triangle("chest")];
    Vec3 c, target;
    for (int k = 0; k < 3; ++k) {
        c += s.positions()[std::size_t(t.p[k])] / 3.f;
        target += s.ragdoll().particleTargets()[std::size_t(t.p[k])] / 3.f;
    }
    return length(c - target);
}

/// A 40 N·s push backward on the chest, split over its three corners.
void pushChest(PreviewSession& s)
{
    const rig::Triangle& t = mannequin().triangles[triangle("chest")];
    for (int k = 0; k < 3; ++k)
        s.hitParticle(std::uint32_t(t.p[k]), {0.f, 0.f, -40.f / 3.f});
}

int steps(float seconds) { return int(std::lround(seconds * 60.f)); }

} // namespace

class TestDrivenPreview : public QObject {
    Q_OBJECT
private slots:
    void walk_staysOnTheClipAcrossLoops();
    void hit_knocksTheChestOffTheClip();
    void kill_dropsTheBody();
    void getUp_endsStandingWithoutAPop();
    void badNames_refusedWithTheSessionUnchanged();
    void recorded_replaysBitForBitThroughTheFile();
    void seekAndReset_restoreTheDrivenRunExactly();
    void settingChange_keepsTheDrives();
    void sampleScenarios_passWithTheirFigures();
    void drivenExpectations_failNamingWhatWasMissed_data();
    void drivenExpectations_failNamingWhatWasMissed();
};

// Walking at "balanced" for 5 s (past the clip's end at 4.4 s, where it loops with its root motion): every
// bone within 3 cm of the clip (root-relative) at every step, and the body 5 m down the walk (1.2 m/s).
void TestDrivenPreview::walk_staysOnTheClipAcrossLoops()
{
    PreviewSession s;
    startOrDie(s, play("walk"));
    QCOMPARE(s.drivePhase(), Phase::Playing);
    QCOMPARE(s.driveProfile(), QStringLiteral("balanced"));
    QCOMPARE(s.partTrackingErrors().size(), std::size_t(s.ragdoll().rig().driveParts().size()));
    const float startZ = at(bones(s)[rootBone()]).z;
    float worst = 0.f;
    for (int i = 0; i < steps(5.f); ++i) {
        s.step();
        worst = std::max(worst, tracking(s));
    }
    const float walked = at(bones(s)[rootBone()]).z - startZ;
    qInfo("walk at balanced over 5 s: worst bone %.2f cm off the clip, walked %.2f m", worst * 100.f, walked);
    QVERIFY2(worst <= 0.03f, qPrintable(QStringLiteral("%1 cm").arg(worst * 100.f)));
    QVERIFY2(walked > 5.f && walked < 7.f, qPrintable(QStringLiteral("walked %1 m").arg(walked)));
    for (const PreviewSession::PartError& e : s.partTrackingErrors())
        QVERIFY(e.metres >= 0.f && e.metres < 0.05f);
}

// A 40 N·s push on the chest 1.5 s into the walk, answered with "stagger": the chest leaves its target by
// at least 10 cm, and the body is back on the clip within 1.5 s.
void TestDrivenPreview::hit_knocksTheChestOffTheClip()
{
    PreviewSession s;
    startOrDie(s, play("walk"));
    for (int i = 0; i < steps(1.5f); ++i)
        s.step();
    const float before = chestOffTarget(s);
    pushChest(s);
    QString error;
    QVERIFY2(s.setDriveProfile(QStringLiteral("stagger"), 0.03f, error), qPrintable(error));
    float knock = 0.f, last = 0.f;
    for (int i = 0; i < steps(1.5f); ++i) {
        if (i == steps(0.3f))
            QVERIFY(s.setDriveProfile(QStringLiteral("balanced"), 0.5f, error));
        s.step();
        knock = std::max(knock, chestOffTarget(s));
        last = tracking(s);
    }
    qInfo("chest %.1f cm off its target before the push, knocked %.1f cm; 1.5 s later %.2f cm", before * 100.f,
          knock * 100.f, last * 100.f);
    QVERIFY(knock >= 0.10f);
    QVERIFY(last < 0.03f);
    QCOMPARE(s.driveProfile(), QStringLiteral("balanced"));
}

// Killed 1 s into the walk (limp over 0.2 s): the root ends below half the clip's root height.
void TestDrivenPreview::kill_dropsTheBody()
{
    PreviewSession s;
    startOrDie(s, play("walk"));
    for (int i = 0; i < steps(1.f); ++i)
        s.step();
    const float standing = at(s.driveTarget()[rootBone()]).y;
    s.kill(0.2f);
    for (int i = 0; i < steps(3.f); ++i)
        s.step();
    QCOMPARE(s.drivePhase(), Phase::Limp);
    QCOMPARE(s.driveProfile(), QString());
    const float root = at(bones(s)[rootBone()]).y;
    qInfo("killed: root at %.2f m (the clip's %.2f m)", root, standing);
    QVERIFY(root < 0.5f * standing);
}

// Idle, killed, lying 3 s, got up (1 s blend): while getting up the body follows, pinned and turned at 20 Hz,
// a palette that moves no bone more than the chosen clip does plus 2 cm in a frame, without breaking a limit
// by more than 5° or sinking 1 cm into the floor; the get-up ends standing on the idle, its tracking error small.
void TestDrivenPreview::getUp_endsStandingWithoutAPop()
{
    PreviewSession s;
    startOrDie(s, play("idle"));
    const float standing = at(s.driveTarget()[rootBone()]).y;
    s.step();
    s.kill(0.f);
    for (int i = 0; i < steps(3.f); ++i)
        s.step();
    QVERIFY(at(bones(s)[rootBone()]).y < 0.5f * standing);
    // The same choice as the session's, from the same palette, for the clip's own motion.
    const std::vector<Mat4> resting = bones(s);
    const std::size_t clips[] = {clipIndex("getup_back"), clipIndex("getup_front")};
    const std::optional<editor::GetUpChoice> choice = editor::chooseGetUp(mannequin(), sample().scene, clips, resting);
    QVERIFY(choice);
    QString error;
    QVERIFY2(s.getUp(1.f, error), qPrintable(error));
    std::vector<Mat4> previous = resting, clipPrevious = editor::getUpPalette(s.ragdoll().rig(), sample().scene, *choice,
                                                                              resting, 0.f, 0.f);
    const float length = sample().scene.animations[choice->clip].duration;
    float worstJump = 0.f, worstFold = 0.f;
    float worstSink = 0.f;
    int frames = 0;
    for (int i = 0; s.drivePhase() != Phase::Playing || i == 0; ++i) {
        s.step();
        if (s.drivePhase() != Phase::GettingUp)
            break;
        ++frames;
        worstFold = std::max(worstFold, s.stats().maxAngularViolation);
        worstSink = std::max(worstSink, s.stats().maxPenetration);
        for (const rig::DriveGains& g : s.ragdoll().driveGains())
            QVERIFY(!g.kinematic && g.pinFrequency > 0.f && g.motorFrequency > 0.f);
        const std::vector<Mat4> now(s.driveTarget().begin(), s.driveTarget().end());
        const std::vector<Mat4> clipNow =
            editor::getUpPalette(s.ragdoll().rig(), sample().scene, *choice, resting, float(frames) / 60.f, 0.f);
        for (std::size_t b = 0; b < now.size(); ++b)
            worstJump = std::max(worstJump, ::length((at(now[b]) - at(previous[b])) - (at(clipNow[b]) - at(clipPrevious[b]))));
        previous = now;
        clipPrevious = clipNow;
        QVERIFY(frames < 600);
    }
    QCOMPARE(s.drivePhase(), Phase::Playing);
    QCOMPARE(s.driveProfile(), QStringLiteral("balanced"));
    float worstAfter = 0.f;
    for (int i = 0; i < steps(2.f); ++i) {
        s.step();
        if (i >= steps(1.f))
            worstAfter = std::max(worstAfter, tracking(s));
    }
    const float root = at(bones(s)[rootBone()]).y;
    qInfo("got up with %s in %d frames (clip %.2f s); worst bone move beyond the clip's %.2f cm; standing 1-2 s "
          "later: root %.2f m (the idle's %.2f), tracking %.2f cm",
          sample().scene.animations[choice->clip].name.c_str(), frames, double(length), worstJump * 100.f, root,
          standing, worstAfter * 100.f);
    // The body follows the blended palette powered, not kinematically, so its limits and the floor hold even
    // where the mid-blend palette (runtime::blendPalettes fades each bone's world offset on its own) is no
    // skeleton.
    qInfo("while getting up: worst angular-limit excess %.2f°, deepest penetration %.1f mm", degrees(worstFold),
          worstSink * 1e3f);
    QVERIFY2(degrees(worstFold) <= 5.f, qPrintable(QStringLiteral("%1°").arg(degrees(worstFold))));
    QVERIFY2(worstSink <= 0.01f, qPrintable(QStringLiteral("%1 mm").arg(worstSink * 1e3f)));
    QVERIFY(std::abs(float(frames) / 60.f - length) <= 1.f / 60.f + 1e-4f);
    QVERIFY(root > 0.8f * standing);
    QVERIFY2(worstAfter < 0.03f, qPrintable(QStringLiteral("%1 cm").arg(worstAfter * 100.f)));
    QVERIFY2(worstJump <= 0.02f, qPrintable(QStringLiteral("a bone jumped %1 cm in a frame").arg(worstJump * 100.f)));
}

// An unknown clip or profile, a get-up without get-up clips, and a blend out of range are refused with a
// line naming them, and the session goes on exactly as if nothing had been asked.
void TestDrivenPreview::badNames_refusedWithTheSessionUnchanged()
{
    PreviewSession s, twin;
    startOrDie(s, play("walk"));
    startOrDie(twin, play("walk"));
    for (int i = 0; i < 10; ++i) {
        s.step();
        twin.step();
    }
    QString error;
    project::DrivenPlay bad = play("moonwalk");
    QVERIFY(!s.startDriven(mannequin(), editor::PreviewSettings{}, sample().scene, bad, error));
    QVERIFY2(error.contains(QStringLiteral("moonwalk")), qPrintable(error));
    bad = play("walk", "floppy");
    QVERIFY(!s.startDriven(mannequin(), editor::PreviewSettings{}, sample().scene, bad, error));
    QVERIFY2(error.contains(QStringLiteral("floppy")), qPrintable(error));
    bad = play("walk");
    bad.getUpClips.push_back(QStringLiteral("cartwheel"));
    QVERIFY(!s.startDriven(mannequin(), editor::PreviewSettings{}, sample().scene, bad, error));
    QVERIFY2(error.contains(QStringLiteral("cartwheel")), qPrintable(error));
    QVERIFY(!s.setDriveProfile(QStringLiteral("floppy"), 0.2f, error));
    QVERIFY2(error.contains(QStringLiteral("floppy")), qPrintable(error));
    QVERIFY(!s.setDriveProfile(QStringLiteral("stagger"), -1.f, error));
    QVERIFY(!s.getUp(std::nanf(""), error));
    s.kill(100.f);
    QCOMPARE(s.stepIndex(), twin.stepIndex());
    QCOMPARE(s.drivePhase(), Phase::Playing);
    for (int i = 0; i < 30; ++i) {
        s.step();
        twin.step();
    }
    QVERIFY(sameBits(s.positions(), twin.positions()));
    QCOMPARE(s.driveProfile(), QStringLiteral("balanced"));
    // Without get-up clips there is nothing to get up with.
    PreviewSession plain;
    project::DrivenPlay noGetUp = play("idle");
    noGetUp.getUpClips.clear();
    startOrDie(plain, noGetUp);
    QVERIFY(!plain.getUp(0.5f, error));
    QVERIFY2(error.contains(QStringLiteral("get-up")), qPrintable(error));
    // Not driven: the drive calls are refused.
    PreviewSession drop;
    QVERIFY(drop.start(mannequin(), editor::PreviewSettings{}, error));
    QVERIFY(!drop.isDriven());
    QVERIFY(!drop.setDriveProfile(QStringLiteral("balanced"), 0.f, error));
    QVERIFY(drop.partTrackingErrors().empty());
    QCOMPARE(drop.drivePhase(), Phase::Off);
}

namespace {

/// A walk with a hit and profile switches, a kill and a get-up, recorded from step 0; the positions of every step.
std::vector<std::vector<Vec3>> recordedRun(PreviewSession& s, int total)
{
    startOrDie(s, play("walk"));
    s.setRecording(true);
    std::vector<std::vector<Vec3>> x{copy(s.positions())};
    QString error;
    for (int i = 0; i < total; ++i) {
        if (i == 40) {
            pushChest(s);
            s.setDriveProfile(QStringLiteral("stagger"), 0.05f, error);
        }
        if (i == 60)
            s.setDriveProfile(QStringLiteral("balanced"), 0.5f, error);
        if (i == 100)
            s.kill(0.1f);
        if (i == 220)
            s.getUp(0.5f, error);
        s.step();
        x.push_back(copy(s.positions()));
    }
    return x;
}

project::Scenario throughTheFile(const project::Scenario& sc)
{
    project::Project p = sample().project;
    p.scenarios = {sc};
    QString error;
    const QByteArray json = project::writeProject(p, error);
    if (json.isEmpty())
        qFatal("writeProject: %s", qPrintable(error));
    project::Project back;
    const project::LoadResult loaded = project::readProject(json, test::kMannequinProject, back);
    if (!loaded.ok() || back.scenarios.size() != 1)
        qFatal("readProject: %s", qPrintable(loaded.error));
    return back.scenarios[0];
}

} // namespace

// Recorded, saved in the project and read back, the driven session replays bit for bit: the play, the hit,
// the profile switches, the kill and the get-up at their frames.
void TestDrivenPreview::recorded_replaysBitForBitThroughTheFile()
{
    PreviewSession s;
    const std::vector<std::vector<Vec3>> x = recordedRun(s, 330);
    const project::Scenario sc = throughTheFile(s.recordedScenario(QStringLiteral("driven"), {}));
    QVERIFY(sc.driven);
    QCOMPARE(sc.driven->clip, QStringLiteral("walk"));
    QCOMPARE(sc.driven->profile, QStringLiteral("balanced"));
    QCOMPARE(sc.driven->getUpClips.size(), std::size_t(2));
    QCOMPARE(sc.driveChanges.size(), std::size_t(4));
    QCOMPARE(sc.driveChanges[0].kind, project::DriveChange::Kind::Profile);
    QCOMPARE(sc.driveChanges[0].profile, QStringLiteral("stagger"));
    QCOMPARE(sc.driveChanges[0].frame, 40u);
    QCOMPARE(sc.driveChanges[2].kind, project::DriveChange::Kind::Kill);
    QCOMPARE(sc.driveChanges[3].kind, project::DriveChange::Kind::GetUp);
    QCOMPARE(sc.driveChanges[3].frame, 220u);
    QCOMPARE(sc.hits.size(), std::size_t(3));
    PreviewSession replay;
    QString error;
    QVERIFY2(replay.startScenario(mannequin(), sc, error, &sample().scene), qPrintable(error));
    QVERIFY(replay.isDriven());
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (i > 0)
            replay.step();
        QVERIFY2(sameBits(replay.positions(), x[i]), qPrintable(QStringLiteral("step %1 differs").arg(i)));
    }
    QCOMPARE(replay.drivePhase(), s.drivePhase());
    // Without the mesh a driven scenario cannot start, and says why.
    PreviewSession none;
    QVERIFY(!none.startScenario(mannequin(), sc, error));
    QVERIFY2(error.contains(QStringLiteral("mesh")), qPrintable(error));
    // A drive change naming a profile the rig lacks, or a driven scenario that also starts from a clip, is
    // refused naming it, and a session already running goes on untouched.
    project::Scenario bad = sc;
    bad.driveChanges[0].profile = QStringLiteral("floppy");
    const std::vector<Vec3> before = copy(replay.positions());
    QVERIFY(!replay.startScenario(mannequin(), bad, error, &sample().scene));
    QVERIFY2(error.contains(QStringLiteral("'floppy'")) && error.contains(QStringLiteral("drive change 0")), qPrintable(error));
    bad = sc;
    bad.animationStart = project::AnimationStart{QStringLiteral("walk"), 0.f};
    QVERIFY(!replay.startScenario(mannequin(), bad, error, &sample().scene));
    QVERIFY2(error.contains(QStringLiteral("animation clip")), qPrintable(error));
    QVERIFY(replay.isRunning() && replay.isDriven());
    QVERIFY(sameBits(replay.positions(), before));
    QCOMPARE(replay.stepIndex(), std::uint64_t(x.size() - 1));
}

// Seeking back into the run (before and after the kill, during the get-up) restores each step bit for bit,
// and stepping on from there takes the same path; reset() is the clip's first pose again, drives on.
void TestDrivenPreview::seekAndReset_restoreTheDrivenRunExactly()
{
    PreviewSession s;
    const std::vector<std::vector<Vec3>> x = recordedRun(s, 300);
    for (std::uint64_t back : {std::uint64_t(50), std::uint64_t(150), std::uint64_t(250)}) {
        QVERIFY(s.seek(back));
        QVERIFY2(sameBits(s.positions(), x[back]), qPrintable(QStringLiteral("seek %1").arg(back)));
    }
    QVERIFY(s.seek(230));
    QCOMPARE(s.drivePhase(), Phase::GettingUp);
    for (std::size_t i = 231; i <= 260; ++i) {
        s.step();
        QVERIFY2(sameBits(s.positions(), x[i]), qPrintable(QStringLiteral("step %1 after the seek").arg(i)));
    }
    s.reset();
    QCOMPARE(s.stepIndex(), std::uint64_t(0));
    QVERIFY(sameBits(s.positions(), x[0]));
    QCOMPARE(s.drivePhase(), Phase::Playing);
    QCOMPARE(s.driveProfile(), QStringLiteral("balanced"));
    for (std::size_t i = 1; i <= 40; ++i) // the live events are gone; before the first one the run is the same
        s.step();
    QVERIFY(sameBits(s.positions(), x[40]));
}

// A live change of the iterations rebuilds the world: the drives go on with the gains and the target they
// had, so the walk stays on the clip.
void TestDrivenPreview::settingChange_keepsTheDrives()
{
    PreviewSession s;
    startOrDie(s, play("walk"));
    for (int i = 0; i < 60; ++i)
        s.step();
    s.setIterations(12);
    float worst = 0.f;
    for (int i = 0; i < 120; ++i) {
        s.step();
        worst = std::max(worst, tracking(s));
    }
    QCOMPARE(s.iterations(), 12u);
    qInfo("walk with the iterations changed at 1 s: worst bone %.2f cm off the clip", worst * 100.f);
    QVERIFY(worst < 0.03f);
}

namespace {

const project::Scenario& sampleScenario(const char* name)
{
    for (const project::Scenario& s : sample().project.scenarios)
        if (s.name == QLatin1String(name))
            return s;
    qFatal("the mannequin has no scenario '%s'", name);
}

} // namespace

// The mannequin's driven scenarios pass (as ctest's mannequin.scenarios runs them), with the figures:
// the hit recovers below 3 cm within 1.5 s without a fall; the kill falls and settles; the get-up ends
// standing and back on the idle.
void TestDrivenPreview::sampleScenarios_passWithTheirFigures()
{
    const editor::ScenarioResult hit = editor::runScenario(mannequin(), sampleScenario("hit while walking"), &sample().scene);
    QVERIFY2(hit.passed, qPrintable(hit.failures.join(u'\n')));
    QVERIFY(hit.driven && hit.lastDisturbance > 1.4f && hit.recoveredAfter > 0.f && hit.recoveredAfter <= 1.5f);
    QVERIFY(hit.fellAt < 0.f);
    const editor::ScenarioResult killed =
        editor::runScenario(mannequin(), sampleScenario("killed while walking"), &sample().scene);
    QVERIFY2(killed.passed, qPrintable(killed.failures.join(u'\n')));
    QVERIFY(killed.fellAt > 1.f && killed.settledAt > 0.f);
    QCOMPARE(killed.endPhase, int(Phase::Limp));
    const editor::ScenarioResult up = editor::runScenario(mannequin(), sampleScenario("get up"), &sample().scene);
    QVERIFY2(up.passed, qPrintable(up.failures.join(u'\n')));
    QCOMPARE(up.endPhase, int(Phase::Playing));
    QVERIFY(up.endRootHeightRatio > 0.9f && up.endTrackingErrorCm < 3.f);
    qInfo("hit: recovered %.2f s after, worst %.2f cm otherwise; killed: fell at %.2f s, settled at %.2f s; "
          "get up: ends at %.0f %% of the idle's root height, %.2f cm off it",
          hit.recoveredAfter, hit.maxTrackingErrorCm, killed.fellAt, killed.settledAt, up.endRootHeightRatio * 100.f,
          up.endTrackingErrorCm);
}

void TestDrivenPreview::drivenExpectations_failNamingWhatWasMissed_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<int>("change");
    QTest::addColumn<QString>("failure");
    QTest::newRow("hit: falls expected") << QStringLiteral("hit while walking") << 0 << QStringLiteral("falls: the body never fell");
    QTest::newRow("hit: recovery too slow") << QStringLiteral("hit while walking") << 1 << QStringLiteral("recovery: back below 3.0 cm");
    QTest::newRow("hit: tracking too tight") << QStringLiteral("hit while walking") << 2 << QStringLiteral("tracking: ");
    QTest::newRow("kill: standing expected") << QStringLiteral("killed while walking") << 3
                                             << QStringLiteral("stands: at the end the body is limp");
    QTest::newRow("kill: no fall expected") << QStringLiteral("killed while walking") << 4 << QStringLiteral("falls: the body fell at");
    QTest::newRow("kill: nothing to recover from") << QStringLiteral("killed while walking") << 5
                                                   << QStringLiteral("recovery: nothing disturbed the body");
}

// The same scenarios with expectations they do not meet fail with one line naming the expectation.
void TestDrivenPreview::drivenExpectations_failNamingWhatWasMissed()
{
    QFETCH(QString, scenario);
    QFETCH(int, change);
    QFETCH(QString, failure);
    project::Scenario s = sampleScenario(qPrintable(scenario));
    switch (change) {
    case 0: s.expect.falls = true; break;
    case 1: s.expect.recoverWithin = 0.1f; break;
    case 2: s.expect.maxTrackingErrorCm = 1.f; s.expect.recoverWithin.reset(); break;
    case 3: s.expect.standsAtEnd = true; break;
    case 4: s.expect.falls = false; break;
    case 5: s.expect.maxTrackingErrorCm = 3.f; s.expect.recoverWithin = 1.f; break;
    }
    const editor::ScenarioResult r = editor::runScenario(mannequin(), s, &sample().scene);
    QVERIFY(r.started && !r.passed);
    QCOMPARE(r.failures.size(), qsizetype(1));
    QVERIFY2(r.failures[0].startsWith(failure), qPrintable(r.failures[0]));
}

QTEST_GUILESS_MAIN(TestDrivenPreview)
#include "tst_drivenpreview.moc"
