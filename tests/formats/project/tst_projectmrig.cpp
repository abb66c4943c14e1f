// project → rig → .mrig → rig is lossless for everything the runtime uses: the rig read back from the binary
// file equals the project's field by field (bit for bit), and the runtime builds both into rigs that move
// identically.
#include "ProjectTestSupport.h"

#include "marionette/project/ProjectFile.h"
#include "marionette/rig/Mrig.h"
#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <QTest>

#include <cstring>

using namespace marionette;
using namespace marionette::project;
using marionette::test::firstDifference;
using marionette::test::fullProject;

namespace {

/// 90 steps of `rig` dropped onto a floor with a kick; every position of every step.
std::vector<Vec3> drop(const std::shared_ptr<const runtime::Rig>& rig)
{
    runtime::World world;
    world.addPlane({0.f, 1.f, 0.f}, 0.f);
    const runtime::RagdollHandle h = world.spawn(rig, Transform{Quat::fromAxisAngle({0.f, 0.f, 1.f}, 0.5f), {0.f, 1.5f, 0.f}});
    runtime::Ragdoll* r = world.ragdoll(h);
    if (!r)
        return {};
    r->applyImpulse(0, {2.f, 0.f, 1.f});
    std::vector<Vec3> all;
    for (int i = 0; i < 90; ++i) {
        world.step();
        all.insert(all.end(), r->positions().begin(), r->positions().end());
    }
    return all;
}

Project humanoidProject()
{
    Project p;
    p.name = QStringLiteral("humanoid");
    p.rig = runtime::makeHumanoid();
    assignMissingIds(p);
    return p;
}

} // namespace

class TestProjectMrig : public QObject {
    Q_OBJECT

private slots:
    void projectToMrig_lossless_data();
    void projectToMrig_lossless();
};

void TestProjectMrig::projectToMrig_lossless_data()
{
    QTest::addColumn<QString>("source");
    QTest::newRow("every field of every element") << QStringLiteral("full");
    QTest::newRow("procedural humanoid") << QStringLiteral("humanoid");
    QTest::newRow("committed v2 fixture") << QStringLiteral(MARIONETTE_PROJECT_TEST_DATA "/v2/robot.mproj");
    QTest::newRow("migrated v1 fixture") << QStringLiteral(MARIONETTE_PROJECT_TEST_DATA "/v1/robot.mproj");
    QTest::newRow("migrated v1 defaults") << QStringLiteral(MARIONETTE_PROJECT_TEST_DATA "/v1/defaults.mproj");
    QTest::newRow("migrated v0 fixture") << QStringLiteral(MARIONETTE_PROJECT_TEST_DATA "/v0/robot.mproj");
}

void TestProjectMrig::projectToMrig_lossless()
{
    QFETCH(QString, source);
    // The project as the editor has it: read from its JSON text.
    Project project;
    if (source == QLatin1String("full") || source == QLatin1String("humanoid")) {
        const Project made = source == QLatin1String("full") ? fullProject() : humanoidProject();
        QString error;
        const QByteArray json = writeProject(made, error);
        QVERIFY2(!json.isEmpty(), qPrintable(error));
        const LoadResult r = readProject(json, source, project);
        QVERIFY2(r.ok(), qPrintable(r.error));
    } else {
        const LoadResult r = loadProject(source, project);
        QVERIFY2(r.ok(), qPrintable(r.error));
    }

    std::string error;
    const std::vector<std::byte> bytes = rig::writeMrig(project.rig, &error);
    QVERIFY2(!bytes.empty(), error.c_str());
    Project back = project;
    back.rig = {};
    QVERIFY2(rig::readMrig(bytes, back.rig, &error), error.c_str());
    const QString difference = firstDifference(project, back);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));

    // What the runtime compiles from either is the same, step for step.
    const auto fromProject = runtime::Rig::build(project.rig, &error);
    QVERIFY2(fromProject, error.c_str());
    const auto fromFile = runtime::Rig::loadFromMemory(bytes, &error);
    QVERIFY2(fromFile, error.c_str());
    const std::vector<Vec3> a = drop(fromProject), b = drop(fromFile);
    QVERIFY(!a.empty());
    QVERIFY2(a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec3)) == 0,
             "the rig read from .mrig moves differently from the project's");
}

QTEST_APPLESS_MAIN(TestProjectMrig)
#include "tst_projectmrig.moc"
