// Baking a simulation into an animation clip (BakedClip.h, ClipFiles.h): the mannequin sample's scenarios
// baked to .glb and re-imported through formats/import, and to the clip JSON parsed back. Every bone's world
// position in the file, at the sampled frames, must be within 1 mm of the bone the preview's palette put
// there (palette · bindWorld), and the skinned mesh must come back skinning the same way.
#include "marionette/editor/preview/AnimationPose.h"
#include "marionette/editor/preview/BakedClip.h"
#include "marionette/editor/preview/ClipFiles.h"
#include "marionette/editor/preview/PreviewSession.h"
#include "marionette/import/Import.h"
#include "marionette/project/ProjectFile.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <limits>

using namespace marionette;

namespace {

const QString kProject = QStringLiteral(MARIONETTE_SAMPLES "/characters/mannequin/mannequin.mproj");
constexpr float kMillimetre = 1e-3f;


/// The bone positions the preview showed at record r: palette · bindWorld.
std::vector<Vec3> simulatedBones(const import::ImportedScene& mesh, const editor::PaletteRecording& rec, std::size_t r)
{
    std::vector<Vec3> out;
    for (std::size_t b = 0; b < mesh.skeleton.size(); ++b)
        out.push_back((rec.palettes[r][b] * mesh.skeleton[b].bindWorld).translation());
    return out;
}

/// Frames checked: every 10th, and the last.
std::vector<std::size_t> sampledFrames(std::size_t count)
{
    std::vector<std::size_t> out;
    for (std::size_t f = 0; f < count; f += 10)
        out.push_back(f);
    if (out.back() != count - 1)
        out.push_back(count - 1);
    return out;
}

std::size_t recordOf(const editor::PaletteRecording& rec, std::uint64_t step)
{
    return std::size_t(std::find(rec.steps.begin(), rec.steps.end(), step) - rec.steps.begin());
}

} // namespace

class TestBake : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void glb_reimportedBonesWithinAMillimetre_data();
    void glb_reimportedBonesWithinAMillimetre();
    void json_composedLocalsWithinAMillimetre();
    void fps_resamplesOnTheSimulationsSteps();
    void stride_keepsTheLastStep();
    void history_recordsWhatTheViewportShowed();
    void bake_refusesAMismatchedSkeletonAndABadRate();
    void write_unwritableLeavesNoFile();

private:
    project::Project mProject;
    import::ImportedScene mMesh;
    QTemporaryDir mDir;
    float mWorstGlb = 0.f;
};

void TestBake::initTestCase()
{
    QVERIFY(mDir.isValid());
    const project::LoadResult loaded = project::loadProject(kProject, mProject);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error));
    import::ImportOptions options;
    options.scale = float(mProject.import.scaleToMetres);
    import::ImportResult imported = import::importScene(mProject.sourceMesh.resolve(kProject).toStdString(), options);
    QVERIFY2(imported.ok(), imported.error.c_str());
    mMesh = std::move(imported.scene);
    QCOMPARE(mMesh.skeleton.size(), mProject.rig.bones.size());
    QVERIFY(mProject.scenarios.size() >= 3);
}

void TestBake::glb_reimportedBonesWithinAMillimetre_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::newRow("drop") << QStringLiteral("drop on the floor");
    QTest::newRow("stairs") << QStringLiteral("tumble down the stairs");
    QTest::newRow("hit") << QStringLiteral("hit on the right forearm");
    QTest::newRow("drag") << QStringLiteral("dragged by the head");
}

void TestBake::glb_reimportedBonesWithinAMillimetre()
{
    QFETCH(QString, scenario);
    const auto it = std::find_if(mProject.scenarios.begin(), mProject.scenarios.end(),
                                 [&](const project::Scenario& s) { return s.name == scenario; });
    QVERIFY(it != mProject.scenarios.end());
    editor::PaletteRecording rec;
    QString error;
    QVERIFY2(editor::recordScenario(mProject.rig, *it, &mMesh, rec, error), qPrintable(error));
    // The scenario's whole duration at 60 steps a second, step 0 included.
    QCOMPARE(rec.steps.size(), std::size_t(std::lround(it->duration * 60.f)) + 1);
    editor::BakedClip clip;
    editor::BakeOptions options;
    options.name = scenario.toStdString();
    QVERIFY2(editor::bakeClip(mMesh, rec, options, clip, error), qPrintable(error));
    QCOMPARE(clip.frameCount(), rec.steps.size());
    QCOMPARE(clip.frameRate, 60.f);

    const QString path = mDir.filePath(QStringLiteral("%1.glb").arg(QTest::currentDataTag()));
    QVERIFY2(editor::writeBakedClip(path, editor::ClipFormat::Glb, mMesh, clip, error), qPrintable(error));
    const import::ImportResult back = import::importScene(path.toStdString());
    QVERIFY2(back.ok(), back.error.c_str());
    const import::ImportedScene& file = back.scene;

    // The skinned mesh and the skeleton survive the round trip.
    QCOMPARE(file.meshes.size(), mMesh.meshes.size());
    QCOMPARE(file.vertexCount(), mMesh.vertexCount());
    QCOMPARE(file.triangleCount(), mMesh.triangleCount());
    QCOMPARE(file.skeleton.size(), mMesh.skeleton.size());
    std::vector<std::int32_t> inFile(mMesh.skeleton.size());
    for (std::size_t b = 0; b < mMesh.skeleton.size(); ++b) {
        inFile[b] = file.findBone(mMesh.skeleton[b].name);
        QVERIFY2(inFile[b] >= 0, mMesh.skeleton[b].name.c_str());
    }
    QCOMPARE(file.animations.size(), std::size_t(1));
    QCOMPARE(file.animations[0].name, options.name);
    QVERIFY(qAbs(file.animations[0].duration - clip.times.back()) < 1e-3f);

    // Bones: the file's clip sampled at each checked frame's time against the simulated palette.
    float worstBone = 0.f, worstVertex = 0.f;
    for (std::size_t f : sampledFrames(clip.frameCount())) {
        const std::vector<Mat4> world = editor::sampleBoneWorld(file, 0, clip.times[f]);
        const std::vector<Vec3> expected = simulatedBones(mMesh, rec, f);
        std::vector<Mat4> palette(file.skeleton.size());
        for (std::size_t b = 0; b < expected.size(); ++b) {
            const std::size_t k = std::size_t(inFile[b]);
            worstBone = std::max(worstBone, length(world[k].translation() - expected[b]));
            palette[k] = world[k] * file.skeleton[k].inverseBind;
        }
        // The skinned mesh: every vertex of the file skinned by its clip against the preview's skinning.
        for (std::size_t m = 0; m < mMesh.meshes.size(); ++m)
            for (std::size_t v = 0; v < mMesh.meshes[m].positions.size(); v += 7) {
                Vec3 a, b;
                QVERIFY(import::skinnedPosition(mMesh.meshes[m], v, rec.palettes[f], a));
                QVERIFY(import::skinnedPosition(file.meshes[m], v, palette, b));
                worstVertex = std::max(worstVertex, length(a - b));
            }
    }
    qInfo("%s: %zu frames, worst bone %.4f mm, worst vertex %.4f mm", qPrintable(scenario), clip.frameCount(),
          double(worstBone) * 1e3, double(worstVertex) * 1e3);
    QVERIFY2(worstBone < kMillimetre, qPrintable(QStringLiteral("worst bone %1 mm").arg(double(worstBone) * 1e3)));
    QVERIFY2(worstVertex < kMillimetre, qPrintable(QStringLiteral("worst vertex %1 mm").arg(double(worstVertex) * 1e3)));
    // The bones moved: the clip is not the bind pose over and over.
    QVERIFY(length(simulatedBones(mMesh, rec, 0)[0] - simulatedBones(mMesh, rec, rec.steps.size() - 1)[0]) > 0.05f);
    mWorstGlb = std::max(mWorstGlb, worstBone);
}

void TestBake::json_composedLocalsWithinAMillimetre()
{
    const project::Scenario& scenario = mProject.scenarios[2]; // the hit on the forearm
    editor::PaletteRecording rec;
    editor::BakedClip clip;
    QString error;
    QVERIFY2(editor::recordScenario(mProject.rig, scenario, &mMesh, rec, error), qPrintable(error));
    QVERIFY2(editor::bakeClip(mMesh, rec, {}, clip, error), qPrintable(error));
    const QString path = mDir.filePath(QStringLiteral("hit.json"));
    QVERIFY2(editor::writeBakedClip(path, editor::ClipFormat::Json, mMesh, clip, error), qPrintable(error));

    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QJsonParseError parseError;
    const QJsonObject doc = QJsonDocument::fromJson(file.readAll(), &parseError).object();
    QCOMPARE(parseError.error, QJsonParseError::NoError);
    QCOMPARE(doc.value(QStringLiteral("format")).toString(), QStringLiteral("marionette.clip+json"));
    QCOMPARE(doc.value(QStringLiteral("version")).toInt(), 1);
    QCOMPARE(doc.value(QStringLiteral("frameRate")).toDouble(), 60.0);
    const QJsonArray times = doc.value(QStringLiteral("times")).toArray();
    const QJsonArray bones = doc.value(QStringLiteral("bones")).toArray();
    QCOMPARE(qsizetype(times.size()), qsizetype(rec.steps.size()));
    QCOMPARE(qsizetype(bones.size()), qsizetype(mMesh.skeleton.size()));

    auto vec = [](const QJsonValue& v) {
        const QJsonArray a = v.toArray();
        return Vec3{float(a[0].toDouble()), float(a[1].toDouble()), float(a[2].toDouble())};
    };
    float worst = 0.f;
    for (std::size_t f : sampledFrames(std::size_t(times.size()))) {
        // Compose the locals down the hierarchy by hand: world = parent · T · R · S.
        std::vector<Mat4> world(std::size_t(bones.size()));
        for (qsizetype b = 0; b < bones.size(); ++b) {
            const QJsonObject bone = bones[b].toObject();
            QCOMPARE(bone.value(QStringLiteral("name")).toString().toStdString(), mMesh.skeleton[std::size_t(b)].name);
            const QJsonArray q = bone.value(QStringLiteral("rotation")).toArray()[qsizetype(f)].toArray();
            editor::BoneKey k;
            k.translation = vec(bone.value(QStringLiteral("translation")).toArray()[qsizetype(f)]);
            k.rotation = {float(q[0].toDouble()), float(q[1].toDouble()), float(q[2].toDouble()), float(q[3].toDouble())};
            k.scale = vec(bone.value(QStringLiteral("scale")).toArray()[qsizetype(f)]);
            const QJsonValue parent = bone.value(QStringLiteral("parent"));
            const Mat4 local = editor::composeKey(k);
            world[std::size_t(b)] = parent.isNull() ? local : world[std::size_t(parent.toInt())] * local;
        }
        const std::vector<Vec3> expected = simulatedBones(mMesh, rec, f);
        for (std::size_t b = 0; b < expected.size(); ++b)
            worst = std::max(worst, length(world[b].translation() - expected[b]));
    }
    qInfo("json: worst bone %.4f mm", double(worst) * 1e3);
    QVERIFY2(worst < kMillimetre, qPrintable(QStringLiteral("worst bone %1 mm").arg(double(worst) * 1e3)));
}

void TestBake::fps_resamplesOnTheSimulationsSteps()
{
    // At 30 fps from a 60 Hz simulation, frame k is step 2k: the same bones as the palette there.
    editor::PaletteRecording rec;
    editor::BakedClip clip;
    QString error;
    QVERIFY2(editor::recordScenario(mProject.rig, mProject.scenarios[0], &mMesh, rec, error), qPrintable(error));
    editor::BakeOptions options;
    options.fps = 30.f;
    QVERIFY2(editor::bakeClip(mMesh, rec, options, clip, error), qPrintable(error));
    QCOMPARE(clip.frameCount(), std::size_t(8 * 30 + 1)); // 8 s
    QCOMPARE(clip.frameRate, 30.f);
    float worst = 0.f;
    for (std::size_t f : sampledFrames(clip.frameCount())) {
        QVERIFY(qAbs(clip.times[f] - float(f) / 30.f) < 1e-4f);
        const std::vector<Mat4> world = clip.boneWorld(f);
        const std::vector<Vec3> expected = simulatedBones(mMesh, rec, recordOf(rec, 2 * f));
        for (std::size_t b = 0; b < expected.size(); ++b)
            worst = std::max(worst, length(world[b].translation() - expected[b]));
    }
    QVERIFY2(worst < kMillimetre, qPrintable(QStringLiteral("worst bone %1 mm").arg(double(worst) * 1e3)));
}

void TestBake::stride_keepsTheLastStep()
{
    editor::PaletteRecording rec;
    editor::BakedClip clip;
    QString error;
    QVERIFY2(editor::recordScenario(mProject.rig, mProject.scenarios[0], &mMesh, rec, error), qPrintable(error));
    editor::BakeOptions options;
    options.firstStep = 30;
    options.lastStep = 95;
    options.stepStride = 10;
    QVERIFY2(editor::bakeClip(mMesh, rec, options, clip, error), qPrintable(error));
    QCOMPARE(clip.steps, (std::vector<std::uint64_t>{30, 40, 50, 60, 70, 80, 90, 95}));
    QCOMPARE(clip.frameRate, 6.f); // a key every 10 steps of 1/60 s
    QCOMPARE(clip.times.front(), 0.f);
    QVERIFY(qAbs(clip.times.back() - 65.f / 60.f) < 1e-4f);
}

void TestBake::history_recordsWhatTheViewportShowed()
{
    editor::PreviewSession session;
    editor::PreviewSettings settings;
    settings.dropHeight = 0.5f;
    QString error;
    QVERIFY2(session.start(mProject.rig, settings, error), qPrintable(error));
    std::vector<std::vector<Mat4>> shown{session.skinningPalette(1.f)};
    for (int i = 0; i < 40; ++i) {
        session.step();
        shown.push_back(session.skinningPalette(1.f));
    }
    // Scrubbing back keeps the history; the bake covers [historyBegin, the step shown].
    QVERIFY(session.seek(25));
    editor::PaletteRecording rec;
    QVERIFY2(editor::recordHistory(session, session.historyBegin(), session.stepIndex(), rec, error), qPrintable(error));
    QCOMPARE(rec.steps.size(), std::size_t(26));
    for (std::size_t r = 0; r < rec.steps.size(); ++r) {
        QCOMPARE(rec.steps[r], std::uint64_t(r));
        QVERIFY(rec.palettes[r] == shown[r]);
    }
    editor::BakedClip clip;
    QVERIFY2(editor::bakeClip(mMesh, rec, {}, clip, error), qPrintable(error));
    QCOMPARE(clip.frameCount(), std::size_t(26));
    QVERIFY(qAbs(clip.times.back() - 25.f / 60.f) < 1e-4f);
}

void TestBake::bake_refusesAMismatchedSkeletonAndABadRate()
{
    editor::PaletteRecording rec;
    editor::BakedClip clip;
    QString error;
    QVERIFY2(editor::recordScenario(mProject.rig, mProject.scenarios[0], &mMesh, rec, error), qPrintable(error));
    import::ImportedScene other = mMesh;
    other.skeleton[3].name = "neck";
    QVERIFY(!editor::bakeClip(other, rec, {}, clip, error));
    QCOMPARE(error, QStringLiteral("the rig's bones are not the mesh's skeleton: bone 3 is 'Neck' in the rig, 'neck' in the mesh"));
    other.skeleton.clear();
    QVERIFY(!editor::bakeClip(other, rec, {}, clip, error));
    QCOMPARE(error, QStringLiteral("the mesh has no skeleton to bake onto"));
    for (float fps : {-1.f, std::numeric_limits<float>::quiet_NaN(), 1001.f}) {
        editor::BakeOptions options;
        options.fps = fps;
        QVERIFY(!editor::bakeClip(mMesh, rec, options, clip, error));
        QVERIFY2(error.startsWith(QStringLiteral("the frame rate must be in (0, 1000]")), qPrintable(error));
    }
    editor::BakeOptions late;
    late.firstStep = 100000;
    QVERIFY(!editor::bakeClip(mMesh, rec, late, clip, error));
    QCOMPARE(error, QStringLiteral("no steps to bake"));
}

void TestBake::write_unwritableLeavesNoFile()
{
    editor::PaletteRecording rec;
    editor::BakedClip clip;
    QString error;
    project::Scenario shortRun = mProject.scenarios[0];
    shortRun.duration = 0.5f;
    QVERIFY2(editor::recordScenario(mProject.rig, shortRun, &mMesh, rec, error), qPrintable(error));
    QVERIFY2(editor::bakeClip(mMesh, rec, {}, clip, error), qPrintable(error));
    const QString path = mDir.filePath(QStringLiteral("missing/folder/out.glb"));
    QVERIFY(!editor::writeBakedClip(path, editor::ClipFormat::Glb, mMesh, clip, error));
    QVERIFY2(error.startsWith(path + QStringLiteral(": cannot write: ")), qPrintable(error));
    QVERIFY(!error.contains(QLatin1Char('\n')));
    QVERIFY(!QFile::exists(path));
}

QTEST_GUILESS_MAIN(TestBake)
#include "tst_bake.moc"
