// Import off the caller's thread: ImportJob's progress arrives in stage order, never decreases and ends at
// 1 with "done"; the completion callback runs once, on the job's thread, before wait() returns; cancel()
// ends a job with ImportStatus::Cancelled; destroying a running job neither hangs nor crashes; jobs run
// side by side; and the reader process returns exactly what an in-process read gives.
#include "ImportTestSupport.h"

#include "marionette/import/ImportJob.h"

#include <QtTest/QtTest>

#include <atomic>
#include <future>
#include <mutex>

using namespace marionette;
using namespace marionette::import;
using namespace marionette::test;

namespace {

struct Report {
    float fraction;
    std::string stage;
};

/// Collects progress reports from any thread.
struct Recorder {
    std::mutex mutex;
    std::vector<Report> reports;
    std::vector<std::thread::id> threads;
    ProgressCallback callback()
    {
        return [this](float f, std::string_view stage) {
            std::lock_guard lock(mutex);
            reports.push_back({f, std::string(stage)});
            threads.push_back(std::this_thread::get_id());
        };
    }
};

void verifyProgress(const std::vector<Report>& reports, const std::vector<std::string>& expectedStages)
{
    QVERIFY(!reports.empty());
    QCOMPARE(reports.front().stage, std::string(stage::kReading));
    QCOMPARE(reports.front().fraction, 0.f);
    std::vector<std::string> stages;
    for (size_t i = 0; i < reports.size(); ++i) {
        QVERIFY(reports[i].fraction >= 0.f && reports[i].fraction <= 1.f);
        if (i > 0)
            QVERIFY2(reports[i].fraction >= reports[i - 1].fraction, reports[i].stage.c_str());
        if (stages.empty() || stages.back() != reports[i].stage)
            stages.push_back(reports[i].stage);
    }
    QCOMPARE(stages, expectedStages);
    QCOMPARE(reports.back().fraction, 1.f);
    QCOMPARE(std::count_if(reports.begin(), reports.end(), [](const Report& r) { return r.fraction == 1.f; }), 1);
}

const std::vector<std::string> kAllStages{std::string(stage::kReading), std::string(stage::kSkeleton),
                                          std::string(stage::kMeshes), std::string(stage::kAnimations),
                                          std::string(stage::kDone)};

void verifySameScene(const ImportedScene& a, const ImportedScene& b)
{
    QCOMPARE(a.meshes.size(), b.meshes.size());
    for (size_t i = 0; i < a.meshes.size(); ++i) {
        QCOMPARE(a.meshes[i].name, b.meshes[i].name);
        QCOMPARE(a.meshes[i].positions, b.meshes[i].positions);
        QCOMPARE(a.meshes[i].normals, b.meshes[i].normals);
        QCOMPARE(a.meshes[i].uvs, b.meshes[i].uvs);
        QCOMPARE(a.meshes[i].indices, b.meshes[i].indices);
        QCOMPARE(a.meshes[i].influences.size(), b.meshes[i].influences.size());
        for (size_t v = 0; v < a.meshes[i].influences.size(); ++v) {
            QCOMPARE(a.meshes[i].influences[v].bone, b.meshes[i].influences[v].bone);
            QCOMPARE(a.meshes[i].influences[v].weight, b.meshes[i].influences[v].weight);
        }
    }
    QCOMPARE(a.skeleton.size(), b.skeleton.size());
    for (size_t i = 0; i < a.skeleton.size(); ++i) {
        QCOMPARE(a.skeleton[i].name, b.skeleton[i].name);
        QCOMPARE(a.skeleton[i].parent, b.skeleton[i].parent);
        QVERIFY(a.skeleton[i].bindWorld == b.skeleton[i].bindWorld);
        QVERIFY(a.skeleton[i].inverseBind == b.skeleton[i].inverseBind);
        QVERIFY(a.boneInfo[i].restLocal == b.boneInfo[i].restLocal);
    }
    QCOMPARE(a.animations.size(), b.animations.size());
    for (size_t c = 0; c < a.animations.size(); ++c) {
        QCOMPARE(a.animations[c].duration, b.animations[c].duration);
        QCOMPARE(a.animations[c].channels.size(), b.animations[c].channels.size());
        for (size_t k = 0; k < a.animations[c].channels.size(); ++k) {
            const BoneChannel &x = a.animations[c].channels[k], &y = b.animations[c].channels[k];
            QCOMPARE(x.rotations.size(), y.rotations.size());
            for (size_t r = 0; r < x.rotations.size(); ++r)
                QVERIFY(x.rotations[r].time == y.rotations[r].time && x.rotations[r].value == y.rotations[r].value);
        }
    }
    QCOMPARE(a.materials.size(), b.materials.size());
    for (size_t i = 0; i < a.materials.size(); ++i) {
        QCOMPARE(a.materials[i].name, b.materials[i].name);
        QCOMPARE(a.materials[i].baseColorTexture, b.materials[i].baseColorTexture);
    }
    QCOMPARE(a.conversion.format, b.conversion.format);
    QCOMPARE(a.warnings, b.warnings);
}

} // namespace

class TestImportJob : public QObject {
    Q_OBJECT

private slots:
    void job_progressInOrderEndsAtOneThenCompletes();
    void importScene_staticMeshSkipsAnimationStage();
    void cancel_duringReadingEndsCancelled();
    void cancel_stopTokenOfImportScene();
    void destroyRunningJob_cancelsWithoutHanging();
    void wait_fromCompletionCallbackReturnsAtOnce();
    void twoJobsAtOnce();
    void readerProcess_givesTheSameSceneAsInProcess_data();
    void readerProcess_givesTheSameSceneAsInProcess();
};

void TestImportJob::job_progressInOrderEndsAtOneThenCompletes()
{
    const QString path = assimpModel("X/Testwuson.X");
    MARIONETTE_REQUIRE_FILE(path);
    Recorder recorder;
    std::atomic<int> completions{0};
    std::atomic<size_t> bonesSeen{0};
    std::atomic<bool> completionOnJobThread{false};
    const auto mainThread = std::this_thread::get_id();
    ImportJob job(path.toStdString(), {}, recorder.callback(), [&](const ImportResult& r) {
        bonesSeen = r.scene.skeleton.size();
        completionOnJobThread = std::this_thread::get_id() != mainThread;
        ++completions;
    });
    QCOMPARE(job.path(), path.toStdString());
    const ImportResult& r = job.wait();
    QVERIFY(job.isFinished());
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(completions.load(), 1); // before wait() returned
    QCOMPARE(bonesSeen.load(), size_t(38));
    QVERIFY(completionOnJobThread.load());
    QVERIFY(std::none_of(recorder.threads.begin(), recorder.threads.end(),
                         [&](std::thread::id id) { return id == mainThread; }));
    verifyProgress(recorder.reports, kAllStages);

    const ImportResult taken = job.takeResult();
    QCOMPARE(taken.scene.skeleton.size(), size_t(38));
    QVERIFY(job.wait().scene.skeleton.empty()); // moved out
    QVERIFY(job.waitFor(std::chrono::milliseconds(0)));
}

void TestImportJob::importScene_staticMeshSkipsAnimationStage()
{
    const QString path = assimpModel("OBJ/spider.obj");
    MARIONETTE_REQUIRE_FILE(path);
    Recorder recorder;
    const ImportResult r = importScene(path.toStdString(), {}, recorder.callback());
    QVERIFY2(r.ok(), r.error.c_str());
    verifyProgress(recorder.reports, {std::string(stage::kReading), std::string(stage::kSkeleton),
                                      std::string(stage::kMeshes), std::string(stage::kDone)});
    // Meshes report as they go: 19 instances give more than the stage's first report.
    QVERIFY(std::count_if(recorder.reports.begin(), recorder.reports.end(),
                          [](const Report& x) { return x.stage == stage::kMeshes; }) > 5);
}

void TestImportJob::cancel_duringReadingEndsCancelled()
{
    // The first report with a fraction above 0 comes from Assimp (through the reader process) while it is
    // still at work: the callback hands control to the test, which cancels, and only then lets it return.
    const QString path = assimpModel("X/Testwuson.X");
    MARIONETTE_REQUIRE_FILE(path);
    std::promise<void> reading;
    std::promise<void> cancelled;
    std::shared_future<void> cancelledFuture = cancelled.get_future().share();
    std::atomic<bool> handedOver{false};
    std::atomic<int> completions{0};
    ImportStatus completionStatus = ImportStatus::Success;
    ImportJob job(
        path.toStdString(), {},
        [&](float f, std::string_view stage) {
            if (stage == stage::kReading && f > 0.f && !handedOver.exchange(true)) {
                reading.set_value();
                cancelledFuture.wait();
            }
        },
        [&](const ImportResult& r) {
            completionStatus = r.status;
            ++completions;
        });
    QVERIFY(reading.get_future().wait_for(std::chrono::seconds(30)) == std::future_status::ready);
    QVERIFY(!job.isFinished());
    job.cancel();
    QVERIFY(job.cancelRequested());
    cancelled.set_value();
    QVERIFY(job.waitFor(std::chrono::seconds(30)));
    const ImportResult& r = job.wait();
    QCOMPARE(r.status, ImportStatus::Cancelled);
    QCOMPARE(r.error, path.toStdString() + ": import cancelled");
    QVERIFY(r.scene.meshes.empty());
    QCOMPARE(completions.load(), 1);
    QCOMPARE(completionStatus, ImportStatus::Cancelled);
}

void TestImportJob::cancel_stopTokenOfImportScene()
{
    // Cancelling from the progress callback at each stage in turn: the import ends Cancelled, whatever the stage.
    const QString path = assimpModel("FBX/huesitos.fbx");
    MARIONETTE_REQUIRE_FILE(path);
    for (std::string_view at : {stage::kReading, stage::kSkeleton, stage::kMeshes, stage::kAnimations}) {
        for (auto isolation : {ImportOptions::Isolation::Process, ImportOptions::Isolation::InProcess}) {
            std::stop_source source;
            ImportOptions o;
            o.isolation = isolation;
            bool sawDone = false;
            const ImportResult r = importScene(path.toStdString(), o,
                                               [&](float, std::string_view s) {
                                                   sawDone = sawDone || s == stage::kDone;
                                                   if (s == at)
                                                       source.request_stop();
                                               },
                                               source.get_token());
            QVERIFY2(r.status == ImportStatus::Cancelled, std::string(at).c_str());
            QVERIFY(!sawDone);
        }
    }
}

void TestImportJob::destroyRunningJob_cancelsWithoutHanging()
{
    const QString path = assimpModel("Collada/human.zae");
    MARIONETTE_REQUIRE_FILE(path);
    std::atomic<int> completions{0};
    std::atomic<int> status{-1};
    QElapsedTimer timer;
    timer.start();
    {
        ImportJob job(path.toStdString(), {}, {}, [&](const ImportResult& r) {
            status = int(r.status);
            ++completions;
        });
    } // cancels and joins
    QCOMPARE(completions.load(), 1);
    QVERIFY(status == int(ImportStatus::Cancelled) || status == int(ImportStatus::Success));
    QVERIFY(timer.elapsed() < 30000);
}

void TestImportJob::wait_fromCompletionCallbackReturnsAtOnce()
{
    const QString path = assimpModel("glTF2/simple_skin/simple_skin.gltf");
    MARIONETTE_REQUIRE_FILE(path);
    std::promise<ImportJob*> self;
    std::shared_future<ImportJob*> selfFuture = self.get_future().share();
    std::atomic<size_t> bonesInCallback{0};
    std::atomic<bool> waitForInCallback{true};
    ImportJob job(path.toStdString(), {}, {}, [&](const ImportResult&) {
        ImportJob* j = selfFuture.get();
        bonesInCallback = j->wait().scene.skeleton.size(); // must not deadlock
        waitForInCallback = j->waitFor(std::chrono::milliseconds(10));
    });
    self.set_value(&job);
    QVERIFY(job.waitFor(std::chrono::seconds(30)));
    QCOMPARE(bonesInCallback.load(), size_t(2));
    QVERIFY(!waitForInCallback.load()); // from its own thread the job is not finished yet
}

void TestImportJob::twoJobsAtOnce()
{
    const QString a = assimpModel("X/Testwuson.X"), b = assimpModel("FBX/animation_with_skeleton.fbx");
    MARIONETTE_REQUIRE_FILE(a);
    MARIONETTE_REQUIRE_FILE(b);
    ImportJob first(a.toStdString());
    ImportJob second(b.toStdString());
    const ImportResult& ra = first.wait();
    const ImportResult& rb = second.wait();
    QVERIFY2(ra.ok(), ra.error.c_str());
    QVERIFY2(rb.ok(), rb.error.c_str());
    QCOMPARE(ra.scene.skeleton.size(), size_t(38));
    QCOMPARE(rb.scene.skeleton.size(), size_t(15));
}

void TestImportJob::readerProcess_givesTheSameSceneAsInProcess_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("glTF2 simple_skin") << assimpModel("glTF2/simple_skin/simple_skin.gltf");
    QTest::newRow("X BCN_Epileptic") << assimpModel("X/BCN_Epileptic.X");
    QTest::newRow("FBX huesitos") << assimpModel("FBX/huesitos.fbx");
    QTest::newRow("OBJ spider") << assimpModel("OBJ/spider.obj");
    QTest::newRow("Collada arm cm Z-up") << importData("arm_centimetre_zup.dae");
    QTest::newRow("glTF2 BoxTextured.glb") << assimpModel("glTF2/BoxTextured-glTF-Binary/BoxTextured.glb");
}

void TestImportJob::readerProcess_givesTheSameSceneAsInProcess()
{
    QFETCH(QString, path);
    MARIONETTE_REQUIRE_FILE(path);
    ImportOptions inProcess;
    inProcess.isolation = ImportOptions::Isolation::InProcess;
    const ImportResult a = importFile(path);
    const ImportResult b = importFile(path, inProcess);
    QVERIFY2(a.ok(), a.error.c_str());
    QVERIFY2(b.ok(), b.error.c_str());
    verifySameScene(a.scene, b.scene);
}

QTEST_APPLESS_MAIN(TestImportJob)
#include "tst_importjob.moc"
