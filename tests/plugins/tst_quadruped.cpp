// The quadruped template plugin, loaded by the plugin host and run through PluginHost::buildRig(): a
// hand-built dog (tests/editor/core/AutoRigTestSupport.h) named with animal names, with Mixamo-style names,
// with meaningless names (the hierarchy alone), without skinned vertices, horse-sized and turned to face -X.
// Each rig validates and builds in the runtime (the host checks both), has the template's layout with the
// right bones on the right legs, masses adding up to the total, an identity skinning palette at bind, and
// comes to rest above the floor when dropped. Skeletons that are not quadrupeds are refused with a reason.
#include "AutoRigTestSupport.h"
#include "PluginTestSupport.h"
#include "RagdollDropTestSupport.h"

#include "marionette/editor/pluginhost/PluginHost.h"

#include <QTest>

#include <random>

using namespace marionette;

namespace {

struct Row {
    editor::AutoRigInput input;
    std::vector<std::string> originalNames; ///< the names makeQuadruped gave, by bone index
};

/// Animal names, humanoid names, names that say nothing, no vertices, 2.5 times larger, facing -X.
Row makeRow(int variant)
{
    Row row;
    row.input = test::makeQuadruped(variant == 1);
    for (const rig::Bone& b : test::makeQuadruped(false).skeleton)
        row.originalNames.push_back(b.name);
    if (variant == 2)
        for (std::size_t i = 0; i < row.input.skeleton.size(); ++i)
            row.input.skeleton[i].name = QStringLiteral("b%1").arg(i).toStdString();
    if (variant == 3)
        row.input.boneVertices.clear();
    if (variant == 4 || variant == 5) {
        const float k = variant == 4 ? 2.5f : 1.f;
        const Quat turn = variant == 5 ? Quat::fromAxisAngle({0, 1, 0}, -kPi / 2) : Quat{};
        auto move = [&](Vec3 p) { return turn.rotate(p) * k; };
        for (rig::Bone& b : row.input.skeleton) {
            const Vec3 at = move(b.bindWorld.transformPoint({}));
            b.bindWorld = Mat4::fromRotationTranslation(Mat3{}, at);
            invertAffine(b.bindWorld, b.inverseBind);
        }
        for (auto& list : row.input.boneVertices)
            for (Vec3& v : list)
                v = move(v);
        row.input.totalMass = variant == 4 ? 500.f : 30.f;
    }
    return row;
}

} // namespace

class TestQuadruped : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void quadruped_rigsTheDog_data();
    void quadruped_rigsTheDog();
    void quadruped_settlesFromRandomDrops();
    void quadruped_refusesOtherSkeletons();

private:
    editor::PluginHost mHost;
    const plugin::RigTemplate* mTemplate = nullptr;
};

void TestQuadruped::initTestCase()
{
    mHost.loadFolder(test::pluginDir());
    mTemplate = mHost.rigTemplate(QStringLiteral("quadruped"));
    QVERIFY(mTemplate);
}

void TestQuadruped::quadruped_rigsTheDog_data()
{
    QTest::addColumn<int>("variant");
    QTest::newRow("animal names") << 0;
    QTest::newRow("Mixamo-style names") << 1;
    QTest::newRow("names that say nothing") << 2;
    QTest::newRow("no skinned vertices") << 3;
    QTest::newRow("horse-sized, 500 kg") << 4;
    QTest::newRow("facing -X") << 5;
}

void TestQuadruped::quadruped_rigsTheDog()
{
    QFETCH(int, variant);
    const Row row = makeRow(variant);
    const editor::AutoRigResult r = editor::PluginHost::buildRig(*mTemplate, row.input);
    QVERIFY2(r.ok, r.error.c_str());
    QCOMPARE(QString::fromStdString(r.templateUsed), QStringLiteral("quadruped"));
    const rig::RigDescription& d = r.rig;
    QCOMPARE(QString::fromStdString(d.validate()), QString());
    QCOMPARE(d.triangles.size(), std::size_t(11));
    QCOMPARE(d.angular.size(), std::size_t(10));
    QCOMPARE(test::angularFrictionProblem(d, runtime::kHumanoidJointDamping, runtime::kHumanoidJointStaticFriction), QString());
    QCOMPARE(test::solverSettingsProblem(d.settings), QString());
    for (const char* t : {"pelvis", "chest", "head", "front_l_upper", "front_l_lower", "hind_r_upper", "hind_r_lower"})
        QVERIFY2(test::findByName(d.triangles, t) >= 0, t);

    // Each leg's knee particle sits on the right animal's bone: front/hind and left/right found.
    const std::pair<const char*, const char*> knees[] = {{"front_l_knee", "FrontLegL2"}, {"front_r_knee", "FrontLegR2"},
                                                         {"hind_l_knee", "HindLegL2"},   {"hind_r_knee", "HindLegR2"},
                                                         {"head", "Head"},              {"tail0", "Tail1"}};
    for (const auto& [particle, bone] : knees) {
        const auto p = std::find_if(d.particles.begin(), d.particles.end(), [&](const rig::Particle& q) { return q.name == particle; });
        QVERIFY2(p != d.particles.end(), particle);
        QVERIFY2(p->bone >= 0 && row.originalNames[std::size_t(p->bone)] == bone,
                 qPrintable(QStringLiteral("%1 on bone %2").arg(QLatin1String(particle)).arg(p->bone)));
    }
    double total = 0.;
    float heaviest = 0.f, lightest = 1e9f;
    for (const rig::Particle& p : d.particles) {
        total += double(p.mass);
        heaviest = std::max(heaviest, p.mass);
        lightest = std::min(lightest, p.mass);
    }
    QVERIFY2(std::fabs(total - double(row.input.totalMass)) < 1e-3 * double(row.input.totalMass), qPrintable(QString::number(total)));
    QVERIFY(lightest >= heaviest / 10.f * 0.999f);
    QCOMPARE(d.bindings.size(), std::size_t(20)); // all but the six leaf bones
    if (variant == 0)
        QVERIFY(r.notes.size() >= 1);

    // The bind pose reproduces itself through the skinning palette.
    const float palette = test::bindPaletteError(d);
    QVERIFY2(palette >= 0.f && palette <= 1e-4f, qPrintable(QString::number(double(palette))));

    // Dropped from 1 m onto its feet: stays finite and above the floor, and comes to rest standing or lying.
    test::Drop s = test::spawnOnFloor(d, test::dropPlacement(d, Quat{}, 1.f));
    QVERIFY2(s.body, s.error.c_str());
    const test::DropResult m = test::runDrop(s, 600);
    qInfo("%s", qPrintable(describe(m)));
    QVERIFY2(m.finite && m.lowestSurface >= -0.01f && m.finalSpeed < 0.05f, qPrintable(describe(m)));
}

// 20 drops from 2 m in random orientations: all finite, none through the floor, nearly all at rest in 10 s.
void TestQuadruped::quadruped_settlesFromRandomDrops()
{
    const editor::AutoRigResult r = editor::PluginHost::buildRig(*mTemplate, makeRow(0).input);
    QVERIFY2(r.ok, r.error.c_str());
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(0.f, 1.f);
    int moving = 0;
    for (int i = 0; i < 20; ++i) {
        const Vec3 axis = normalizeOr(Vec3{u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f}, {1, 0, 0});
        const Quat q = Quat::fromAxisAngle(axis, u(rng) * kPi);
        test::Drop s = test::spawnOnFloor(r.rig, test::dropPlacement(r.rig, q, 2.f));
        QVERIFY2(s.body, s.error.c_str());
        const test::DropResult m = test::runDrop(s, 600);
        QVERIFY2(m.finite && m.lowestSurface >= -0.02f, qPrintable(QStringLiteral("drop %1: ").arg(i) + describe(m)));
        moving += m.finalSpeed >= 0.05f ? 1 : 0;
    }
    QVERIFY2(moving <= 2, qPrintable(QStringLiteral("%1 of 20 still moving").arg(moving)));
}

// A humanoid has two feet on the ground, a tail is flat, an empty skeleton is refused by the host.
void TestQuadruped::quadruped_refusesOtherSkeletons()
{
    test::HumanoidSpec spec;
    editor::AutoRigResult r = editor::PluginHost::buildRig(*mTemplate, test::makeHumanoidCharacter(spec).input);
    QVERIFY(!r.ok);
    QVERIFY2(QString::fromStdString(r.error).startsWith(QLatin1String("quadruped template: 2 feet reach the ground (four are needed): ")),
             r.error.c_str());
    r = editor::PluginHost::buildRig(*mTemplate, test::makeTail(4));
    QCOMPARE(QString::fromStdString(r.error),
             QStringLiteral("quadruped template: all joints are at one height: a quadruped stands on its feet in the bind pose"));
    r = editor::PluginHost::buildRig(*mTemplate, {});
    QCOMPARE(QString::fromStdString(r.error), QStringLiteral("the auto-rig needs a skeleton (the mesh has no bones)"));
}

QTEST_GUILESS_MAIN(TestQuadruped)
#include "tst_quadruped.moc"
