// TestScenes (docs/preview.md): the preview's scenes, their top heights and the sphere penetration measure.
#include "marionette/editor/preview/TestScenes.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <QtTest>

#include <cmath>

using namespace marionette;
using editor::SceneGeometry;

class TestTestScenes : public QObject {
    Q_OBJECT

private slots:
    void scenes_haveTheDocumentedTopAtTheDropPoint_data();
    void scenes_haveTheDocumentedTopAtTheDropPoint();
    void penetrationDepth_isTheSphereDepthIntoFloorAndBoxes();
    void nearestSurfacePoint_findsTheFaceOrEdge();
    void sceneNames_roundTrip();
    void bindBottom_isTheLowestSphereAfterTheTurn();
    void visibleBoxes_stairsAreStepsStandingOnTheFloor();
    void visibleBoxes_keepTurnedBoxesAndDropBuriedOnes();
};

void TestTestScenes::scenes_haveTheDocumentedTopAtTheDropPoint_data()
{
    QTest::addColumn<int>("scene");
    QTest::addColumn<float>("top");
    QTest::addColumn<int>("boxes");
    QTest::newRow("floor") << int(project::Scene::Floor) << 0.f << 0;
    QTest::newRow("stairs") << int(project::Scene::Stairs) << 0.18f << 6;
    QTest::newRow("ledge") << int(project::Scene::Ledge) << 1.f << 1;
    QTest::newRow("box") << int(project::Scene::Box) << 0.6f << 1;
}

void TestTestScenes::scenes_haveTheDocumentedTopAtTheDropPoint()
{
    QFETCH(int, scene);
    QFETCH(float, top);
    QFETCH(int, boxes);
    runtime::World world;
    const SceneGeometry g = editor::buildTestScene(world, project::Scene(scene));
    QCOMPARE(int(g.boxes.size()), boxes);
    QCOMPARE(editor::sceneTopHeight(project::Scene(scene)), top);
    // A point a hair above the top at the drop point touches nothing; a hair below, it is inside by that much.
    QCOMPARE(editor::penetrationDepth(g, {0.f, top + 1e-3f, 0.f}, 0.f), 0.f);
    QVERIFY(std::fabs(editor::penetrationDepth(g, {0.f, top - 1e-3f, -1e-3f}, 0.f) - 1e-3f) < 1e-6f);
    if (boxes) { // every block reaches 1 m into the ground
        for (const editor::SceneBox& b : g.boxes)
            QVERIFY(std::fabs(b.pose.translation.y - b.halfExtents.y + 1.f) < 1e-6f);
    }
}

void TestTestScenes::penetrationDepth_isTheSphereDepthIntoFloorAndBoxes()
{
    const SceneGeometry ledge = editor::testSceneGeometry(project::Scene::Ledge);
    // Floor: a 5 cm sphere centred 3 cm up is 2 cm deep.
    QVERIFY(std::fabs(editor::penetrationDepth(ledge, {0.f, 0.03f, 2.f}, 0.05f) - 0.02f) < 1e-6f);
    // Inside the ledge 2 cm below its top: 2 cm + the radius.
    QVERIFY(std::fabs(editor::penetrationDepth(ledge, {0.f, 0.98f, -1.f}, 0.05f) - 0.07f) < 1e-6f);
    // Beyond the edge (z = 0, y = 1) by 3 cm in both directions: 5 cm − √(0.03² + 0.03²).
    QVERIFY(std::fabs(editor::penetrationDepth(ledge, {0.f, 1.03f, 0.03f}, 0.05f) - (0.05f - std::sqrt(0.0018f))) < 1e-6f);
    QCOMPARE(editor::penetrationDepth(ledge, {0.f, 1.2f, 0.5f}, 0.05f), 0.f);
}

void TestTestScenes::nearestSurfacePoint_findsTheFaceOrEdge()
{
    const SceneGeometry box = editor::testSceneGeometry(project::Scene::Box);
    float d = 0.f;
    Vec3 p = editor::nearestSurfacePoint(box, {0.2f, 0.7f, -0.5f}, &d); // above the box top
    QVERIFY(length(p - Vec3{0.2f, 0.6f, -0.5f}) < 1e-6f);
    QVERIFY(std::fabs(d - 0.1f) < 1e-6f);
    p = editor::nearestSurfacePoint(box, {0.f, 0.5f, -0.02f}, &d); // inside, 2 cm behind the +Z face
    QVERIFY(length(p - Vec3{0.f, 0.5f, 0.f}) < 1e-6f);
    QVERIFY(std::fabs(d + 0.02f) < 1e-6f);
    p = editor::nearestSurfacePoint(box, {3.f, 0.2f, 3.f}, &d); // far away: the floor below
    QCOMPARE(p, (Vec3{3.f, 0.f, 3.f}));
    QVERIFY(std::fabs(d - 0.2f) < 1e-6f);
}

void TestTestScenes::sceneNames_roundTrip()
{
    for (const project::Scene s : {project::Scene::Floor, project::Scene::Stairs, project::Scene::Ledge, project::Scene::Box}) {
        project::Scene back = project::Scene::Floor;
        QVERIFY(editor::sceneFromName(QLatin1String(editor::sceneName(s)), back));
        QCOMPARE(back, s);
    }
    project::Scene untouched = project::Scene::Ledge;
    QVERIFY(!editor::sceneFromName(QStringLiteral("moon"), untouched));
    QCOMPARE(untouched, project::Scene::Ledge);
}

void TestTestScenes::bindBottom_isTheLowestSphereAfterTheTurn()
{
    // Two particles: (0, 1, 0) r 0.1 and (0, 2, 0.5) r 0.3, one stick.
    rig::RigDescription d;
    d.particles.resize(2);
    d.particles[0].position = {0.f, 1.f, 0.f};
    d.particles[0].radius = 0.1f;
    d.particles[1].position = {0.f, 2.f, 0.5f};
    d.particles[1].radius = 0.3f;
    d.sticks.push_back({});
    d.sticks[0].a = 0;
    d.sticks[0].b = 1;
    std::string error;
    const auto rig = runtime::Rig::build(d, &error);
    QVERIFY2(rig, error.c_str());
    QCOMPARE(editor::bindBottom(*rig), 0.9f);
    // Upside down about the point (0, 1.5, 0): y → 3 − y, so the second particle is lowest: 1 − 0.3.
    const Quat flip = Quat::fromAxisAngle({1.f, 0.f, 0.f}, 3.14159265f);
    QVERIFY(std::fabs(editor::bindBottom(*rig, flip, {0.f, 1.5f, 0.f}) - (1.f - 1.5f - 0.3f)) < 1e-5f);
}

void TestTestScenes::visibleBoxes_stairsAreStepsStandingOnTheFloor()
{
    // The documented stairs: six steps 0.18 m high and 0.3 m deep rising toward −Z from z = 0, 3 m wide. What is
    // drawn of them stands on the floor: step k is 0.18 (k + 1) high over z in [−0.3 (k + 1), −0.3 k].
    const SceneGeometry g = editor::testSceneGeometry(project::Scene::Stairs);
    const std::vector<editor::SceneBox> seen = editor::visibleBoxes(g);
    QCOMPARE(int(seen.size()), 6);
    for (int k = 0; k < 6; ++k) {
        const editor::SceneBox& b = seen[size_t(k)];
        const Vec3 lo = b.pose.translation - b.halfExtents, hi = b.pose.translation + b.halfExtents;
        QVERIFY2(std::fabs(lo.y - 0.f) < 1e-6f, qPrintable(QString::number(double(lo.y))));
        QVERIFY(std::fabs(hi.y - 0.18f * float(k + 1)) < 1e-6f);
        QVERIFY(std::fabs(hi.z - (-0.3f * float(k))) < 1e-6f);
        QVERIFY(std::fabs(lo.z - (-0.3f * float(k + 1))) < 1e-6f);
        QVERIFY(std::fabs(hi.x - 1.5f) < 1e-6f && std::fabs(lo.x + 1.5f) < 1e-6f);
    }
    // The ledge is one block 1 m high on the floor.
    const auto ledge = editor::visibleBoxes(editor::testSceneGeometry(project::Scene::Ledge));
    QCOMPARE(int(ledge.size()), 1);
    QVERIFY(std::fabs(ledge[0].halfExtents.y - 0.5f) < 1e-6f && std::fabs(ledge[0].pose.translation.y - 0.5f) < 1e-6f);
}

void TestTestScenes::visibleBoxes_keepTurnedBoxesAndDropBuriedOnes()
{
    SceneGeometry g;
    g.floorHeight = 0.f;
    g.boxes.push_back({Transform{Quat{}, {0.f, -2.f, 0.f}}, {1.f, 1.f, 1.f}});                         // buried
    g.boxes.push_back({Transform{Quat::fromAxisAngle({0, 1, 0}, 0.5f), {0.f, 0.f, 0.f}}, {1.f, 1.f, 1.f}}); // turned
    g.boxes.push_back({Transform{Quat{}, {0.f, 3.f, 0.f}}, {1.f, 1.f, 1.f}});                          // floating
    const auto seen = editor::visibleBoxes(g);
    QCOMPARE(int(seen.size()), 2);
    QCOMPARE(seen[0].halfExtents.y, 1.f); // the turned one, whole
    QCOMPARE(seen[1].pose.translation.y, 3.f);
}

QTEST_GUILESS_MAIN(TestTestScenes)
#include "tst_testscenes.moc"
