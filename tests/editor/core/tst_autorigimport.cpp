// The auto-rig on real files: Assimp's test models imported through formats/import (Marionette::import),
// each vertex given to the bone with its largest weight, auto-rigged, then checked through the runtime:
// validate() passes, the rig is written as .mrig and loaded back by the runtime, the bind-pose skinning palette is the identity, and a drop from 2 m onto
// a floor stays finite and on the floor, with the skinned mesh still on the body, and comes to rest. simple_skin.gltf (two
// bones), two animals and three more skinned test files get the generic template; BCN_Epileptic.X (a "B_"-named human whose legs and spine hang from the root through separate
// bones, with an unnamed head) gets the humanoid one.
#include "marionette/editor/autorig/AutoRig.h"
#include "marionette/editor/autorig/SceneInput.h"
#include "marionette/import/Import.h"
#include "marionette/rig/Mrig.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <QtTest/QtTest>

#include "AutoRigTestSupport.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

using namespace marionette;

using marionette::test::num;

class TestAutoRigImport : public QObject {
    Q_OBJECT

private slots:
    void importedModel_rigsAndDrops_data();
    void importedModel_rigsAndDrops();
    void importedStaticModel_needsSkeleton_data();
    void importedStaticModel_needsSkeleton();
    void importedModel_scrambledNamesKeepTheTemplate_data();
    void importedModel_scrambledNamesKeepTheTemplate();
    void directXRootSpaceSkin_standsWithItsHeadOnItsNeck();
};

void TestAutoRigImport::importedModel_rigsAndDrops_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("templateUsed");
    QTest::addColumn<QStringList>("mapping"); // humanoid: pelvis, chest, head, upperarm_l, thigh_r, foot_l
    QTest::newRow("glTF2 simple_skin") << QStringLiteral("glTF2/simple_skin/simple_skin.gltf") << QStringLiteral("generic")
                                       << QStringList{};
    QTest::newRow("X BCN_Epileptic (human)")
        << QStringLiteral("X/BCN_Epileptic.X") << QStringLiteral("humanoid")
        << QStringList{"B_Root_Pelvis_L", "B_Spine4", "B_Neck", "B_UpperArm_Left", "B_Hip_Right", "B_Ankle_Left"};
    QTest::newRow("X Testwuson (pig)") << QStringLiteral("X/Testwuson.X") << QStringLiteral("generic") << QStringList{};
    QTest::newRow("FBX huesitos (bone chain)") << QStringLiteral("FBX/huesitos.fbx") << QStringLiteral("generic")
                                               << QStringList{};
    QTest::newRow("FBX animation_with_skeleton") << QStringLiteral("FBX/animation_with_skeleton.fbx") << QStringLiteral("generic")
                                                 << QStringList{};
    QTest::newRow("X anim_test") << QStringLiteral("X/anim_test.x") << QStringLiteral("generic") << QStringList{};
    QTest::newRow("Collada box_nested_animation") << QStringLiteral("Collada/box_nested_animation.dae") << QStringLiteral("generic")
                                                  << QStringList{};
}

void TestAutoRigImport::importedModel_rigsAndDrops()
{
    QFETCH(QString, file);
    QFETCH(QString, templateUsed);
    QFETCH(QStringList, mapping);
    const std::string path = std::string(MARIONETTE_ASSIMP_MODELS) + "/" + file.toStdString();
    if (!QFileInfo::exists(QString::fromStdString(path)))
        QSKIP(qPrintable(QStringLiteral("%1 is not installed (Debian package assimp-testmodels)").arg(QString::fromStdString(path))));
    const import::ImportResult imported = import::importScene(path);
    QVERIFY2(imported.ok(), imported.error.c_str());
    QVERIFY(imported.scene.hasSkeleton());

    const editor::AutoRigResult r = editor::autoRig(editor::autoRigInputFromScene(imported.scene));
    QVERIFY2(r.ok, r.error.c_str());
    QCOMPARE(QString::fromStdString(r.templateUsed), templateUsed);
    for (const std::string& n : r.notes)
        qInfo("note: %s", n.c_str());
    if (!mapping.isEmpty()) {
        using P = editor::HumanoidPart;
        const P parts[] = {P::Pelvis, P::Chest, P::Head, P::UpperArmL, P::ThighR, P::FootL};
        for (int i = 0; i < mapping.size(); ++i)
            QCOMPARE(QString::fromStdString(r.rig.bones[std::size_t(r.mapping[parts[i]])].name), mapping[i]);
    }
    QCOMPARE(QString::fromStdString(r.rig.validate()), QString());
    // Exported as the .mrig a game ships and loaded back by the runtime: the rig every check below uses.
    std::string error;
    const std::vector<std::byte> mrig = rig::writeMrig(r.rig, &error);
    QVERIFY2(!mrig.empty(), error.c_str());
    const std::shared_ptr<const runtime::Rig> rig = runtime::Rig::loadFromMemory(mrig, &error);
    QVERIFY2(rig, error.c_str());

    runtime::WorldSettings ws;
    ws.sleep = false;
    ws.threads = 1;
    {   // Bind pose: skinning matrices are the identity.
        runtime::World world(ws);
        runtime::Ragdoll* body = world.ragdoll(world.spawn(rig, {}, {}, &error));
        QVERIFY2(body, error.c_str());
        std::vector<Mat4> skin(r.rig.bones.size());
        QVERIFY(body->skinningMatrices(skin));
        float worst = 0.f;
        for (const Mat4& m : skin)
            for (int k = 0; k < 16; ++k)
                worst = std::max(worst, std::fabs(m.m[k] - Mat4{}.m[k]));
        QVERIFY2(worst <= 1e-4f, qPrintable(QStringLiteral("skinning matrix off identity by %1").arg(num(worst))));
    }
    // Dropped with its lowest point 2 m above the floor.
    float lowestBind = std::numeric_limits<float>::max();
    for (const rig::Particle& p : r.rig.particles)
        lowestBind = std::min(lowestBind, p.position.y - p.radius);
    runtime::World world(ws);
    QVERIFY(world.addPlane({0.f, 1.f, 0.f}, 0.f) >= 0);
    runtime::Ragdoll* body = world.ragdoll(world.spawn(rig, {Quat{}, {0.f, 2.f - lowestBind, 0.f}}, {}, &error));
    QVERIFY2(body, error.c_str());
    bool finite = true;
    float lowest = std::numeric_limits<float>::max(), fastest = 0.f;
    // Speeds over a frame (what the eye sees), as `marionette simulate` measures them.
    const float dt = world.settings().timeStep;
    std::vector<Vec3> last(body->positions().begin(), body->positions().end());
    auto frameSpeed = [&]() {
        float v = 0.f;
        for (std::uint32_t i = 0; i < body->particleCount(); ++i) {
            v = std::max(v, length(body->positions()[i] - last[i]) / dt);
            last[i] = body->positions()[i];
        }
        return v;
    };
    for (int n = 0; n < 360; ++n) {
        world.step();
        for (std::uint32_t i = 0; i < body->particleCount(); ++i) {
            finite = finite && isFinite(body->positions()[i]);
            lowest = std::min(lowest, body->positions()[i].y);
        }
        fastest = frameSpeed();
    }
    const QString what = QStringLiteral("finite %1, lowest particle centre %2 m, fastest particle after 6 s %3 m/s")
                             .arg(finite)
                             .arg(num(lowest), num(fastest));
    qInfo("%s", qPrintable(what));
    QVERIFY2(finite && lowest >= -0.01f, qPrintable(what));

    // The skinned mesh stays on the body: skinned with the runtime's palette after the drop, no vertex is
    // further from the nearest particle than the farthest vertex was from the bind pose's particles, plus 10 %
    // of the character's size. (A wrong binding or a bone left behind throws vertices far off the body.)
    std::vector<Mat4> skin(r.rig.bones.size());
    QVERIFY(body->skinningMatrices(skin));
    auto nearestParticle = [](Vec3 p, std::span<const Vec3> particles) {
        float best = std::numeric_limits<float>::max();
        for (const Vec3& x : particles)
            best = std::min(best, length(p - x));
        return best;
    };
    std::vector<Vec3> bindParticles;
    for (const rig::Particle& p : r.rig.particles)
        bindParticles.push_back(p.position);
    Vec3 lo{std::numeric_limits<float>::max(), std::numeric_limits<float>::max(), std::numeric_limits<float>::max()};
    Vec3 hi = -lo;
    float bindReach = 0.f, droppedReach = 0.f;
    std::size_t vertices = 0;
    for (const import::ImportedMesh& mesh : imported.scene.meshes)
        for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
            const Vec3 bindPos = mesh.positions[v];
            Vec3 skinned;
            float total = 0.f;
            if (mesh.isSkinned()) {
                const import::VertexInfluences& inf = mesh.influences[v];
                for (int k = 0; k < inf.count(); ++k) {
                    skinned += skin[std::size_t(inf.bone[std::size_t(k)])].transformPoint(bindPos) * inf.weight[std::size_t(k)];
                    total += inf.weight[std::size_t(k)];
                }
            } else if (mesh.rigidBone >= 0) {
                skinned = skin[std::size_t(mesh.rigidBone)].transformPoint(bindPos);
                total = 1.f;
            }
            if (!(total > 0.f))
                continue; // bound to nothing: stays where the file put it
            lo = vmin(lo, bindPos);
            hi = vmax(hi, bindPos);
            bindReach = std::max(bindReach, nearestParticle(bindPos, bindParticles));
            droppedReach = std::max(droppedReach, nearestParticle(skinned, body->positions()));
            ++vertices;
        }
    QVERIFY(vertices > 0);
    const float size = length(hi - lo);
    const QString attached = QStringLiteral("%1 skinned vertices: farthest from a particle %2 m at bind, %3 m after the drop (size %4 m)")
                                 .arg(vertices).arg(num(bindReach), num(droppedReach), num(size));
    qInfo("%s", qPrintable(attached));
    QVERIFY2(droppedReach <= bindReach + 0.1f * size, qPrintable(attached));

    // And it comes to rest on the floor: every particle slower than 5 cm/s within 20 s (large models take
    // longer: a 71 m skeleton falls and rolls over more slowly than a 2 m one).
    int settledAt = fastest < 0.05f ? 360 : -1;
    for (int n = 360; n < 1200 && settledAt < 0; ++n) {
        world.step();
        fastest = frameSpeed();
        if (fastest < 0.05f)
            settledAt = n + 1;
    }
    qInfo("at rest by %s s", qPrintable(settledAt < 0 ? QStringLiteral("(not within) 20") : num(double(settledAt) / 60.0)));
    // Known defect (runtime solver issue 12): this 71 m chain skeleton, whose root triangle rests on a
    // zero-radius axis particle, keeps rocking on the floor at about 2 m/s.
    QEXPECT_FAIL("FBX animation_with_skeleton", "the 71 m chain skeleton keeps rocking on its root axis particle", Continue);
    QVERIFY2(settledAt > 0, qPrintable(QStringLiteral("still moving at %1 m/s after 20 s").arg(num(fastest))));
}

// Two humans among the test models carry no skeleton Assimp 5.2.5 can read: human.zae has no skin, and the
// Blender importer reads no armature. They import as static meshes and the auto-rig says what it needs.
void TestAutoRigImport::importedStaticModel_needsSkeleton_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("Collada human.zae") << QStringLiteral("Collada/human.zae");
    QTest::newRow("BLEND HUMAN.blend") << QStringLiteral("BLEND/HUMAN.blend");
}

void TestAutoRigImport::importedStaticModel_needsSkeleton()
{
    QFETCH(QString, file);
    const std::string path = std::string(MARIONETTE_ASSIMP_MODELS "/") + file.toStdString();
    if (!QFileInfo::exists(QString::fromStdString(path)))
        QSKIP("Assimp's test models are not installed (Debian package assimp-testmodels)");
    const import::ImportResult imported = import::importScene(path);
    QVERIFY2(imported.ok(), imported.error.c_str());
    QVERIFY(!imported.scene.hasSkeleton());
    QVERIFY(!imported.scene.meshes.empty());
    const editor::AutoRigResult r = editor::autoRig(editor::autoRigInputFromScene(imported.scene));
    QVERIFY(!r.ok);
    QCOMPARE(QString::fromStdString(r.error), QStringLiteral("the auto-rig needs a skeleton (the mesh has no bones)"));
}

void TestAutoRigImport::importedModel_scrambledNamesKeepTheTemplate_data()
{
    QTest::addColumn<QString>("file"); // under Assimp's test models, or "samples:" + a path under samples/
    QTest::addColumn<QString>("templateUsed");
    QTest::newRow("sample mannequin (human)") << QStringLiteral("samples:characters/mannequin/mannequin.glb")
                                              << QStringLiteral("humanoid");
    QTest::newRow("X BCN_Epileptic (human)") << QStringLiteral("X/BCN_Epileptic.X") << QStringLiteral("humanoid");
    QTest::newRow("X Testwuson (pig)") << QStringLiteral("X/Testwuson.X") << QStringLiteral("generic");
    QTest::newRow("FBX huesitos (bone chain)") << QStringLiteral("FBX/huesitos.fbx") << QStringLiteral("generic");
    QTest::newRow("FBX animation_with_skeleton") << QStringLiteral("FBX/animation_with_skeleton.fbx") << QStringLiteral("generic");
    QTest::newRow("X anim_test") << QStringLiteral("X/anim_test.x") << QStringLiteral("generic");
    QTest::newRow("glTF2 simple_skin") << QStringLiteral("glTF2/simple_skin/simple_skin.gltf") << QStringLiteral("generic");
}

// The target on real characters: imported, then every bone renamed "b0".."bN" (hierarchy, bind pose and
// skin kept), the humans (the sample mannequin with Mixamo names and BCN_Epileptic, whose legs hang beside its
// spine and whose body lies along -Z) still get the humanoid template through RigTemplate::Auto, with a note
// saying the shape matched them, and exactly the parts their names map; the others stay generic.
void TestAutoRigImport::importedModel_scrambledNamesKeepTheTemplate()
{
    QFETCH(QString, file);
    QFETCH(QString, templateUsed);
    const std::string path = file.startsWith(QLatin1String("samples:"))
                                 ? std::string(MARIONETTE_SAMPLES) + "/" + file.mid(8).toStdString()
                                 : std::string(MARIONETTE_ASSIMP_MODELS) + "/" + file.toStdString();
    if (!QFileInfo::exists(QString::fromStdString(path)))
        QSKIP(qPrintable(QStringLiteral("%1 is not installed (Debian package assimp-testmodels)").arg(QString::fromStdString(path))));
    const import::ImportResult imported = import::importScene(path);
    QVERIFY2(imported.ok(), imported.error.c_str());
    editor::AutoRigInput in = editor::autoRigInputFromScene(imported.scene);
    const editor::AutoRigResult byNames = editor::autoRig(in);
    QVERIFY2(byNames.ok, byNames.error.c_str());
    QCOMPARE(QString::fromStdString(byNames.templateUsed), templateUsed);
    in.skeleton = test::scrambleNames(in.skeleton);
    in.requested = editor::RigTemplate::Auto;
    const editor::AutoRigResult r = editor::autoRig(in);
    QVERIFY2(r.ok, r.error.c_str());
    qInfo("note: %s", r.notes.front().c_str());
    QCOMPARE(QString::fromStdString(r.templateUsed), templateUsed);
    if (templateUsed == QLatin1String("humanoid")) {
        QCOMPARE(QString::fromStdString(r.notes.front()),
                 QStringLiteral("humanoid template: bones matched by the skeleton's shape, not their names"));
        QVERIFY(r.mapping.fromTopology);
        QVERIFY(r.mapping.bones == byNames.mapping.bones);
        QVERIFY(r.mapping.spine == byNames.mapping.spine && r.mapping.neck == byNames.mapping.neck);
        QCOMPARE(r.rig.particles.size(), byNames.rig.particles.size());
        for (std::size_t i = 0; i < r.rig.particles.size(); ++i)
            QVERIFY(length(r.rig.particles[i].position - byNames.rig.particles[i].position) < 1e-6f);
    } else {
        QVERIFY2(QString::fromStdString(r.notes.front()).startsWith(QStringLiteral("generic template: not a humanoid (missing pelvis")),
                 r.notes.front().c_str());
    }
}

// BCN_Epileptic.X binds its skin the DirectX way: in the root's space, its mesh frames' transforms (a quarter
// turn on each, and the head's frame lifted 0.5 m) not applied. Read so, it stands upright with the head mesh
// on the neck, and after a 2 m drop the head mesh is where the head particle is, as it was at bind.
void TestAutoRigImport::directXRootSpaceSkin_standsWithItsHeadOnItsNeck()
{
    const std::string path = std::string(MARIONETTE_SAMPLES) + "/characters/bcn_epileptic/BCN_Epileptic.X";
    const import::ImportResult imported = import::importScene(path);
    QVERIFY2(imported.ok(), imported.error.c_str());
    QVERIFY(std::any_of(imported.scene.warnings.begin(), imported.scene.warnings.end(),
                        [](const std::string& w) { return w.find("root space") != std::string::npos; }));
    const editor::AutoRigResult r = editor::autoRig(editor::autoRigInputFromScene(imported.scene));
    QVERIFY2(r.ok, r.error.c_str());
    QCOMPARE(QString::fromStdString(r.templateUsed), QStringLiteral("humanoid"));
    auto particle = [&r](const char* name) {
        for (std::size_t i = 0; i < r.rig.particles.size(); ++i)
            if (r.rig.particles[i].name == name)
                return i;
        return r.rig.particles.size();
    };
    const std::size_t head = particle("head"), neck = particle("neck"), ankle = particle("ankle_l");
    QVERIFY(head < r.rig.particles.size() && neck < r.rig.particles.size() && ankle < r.rig.particles.size());
    const Vec3 headBind = r.rig.particles[head].position, neckBind = r.rig.particles[neck].position;
    // Upright: head over neck over the ankles, the body about 1.7 m tall.
    QVERIFY2(headBind.y > neckBind.y && neckBind.y - r.rig.particles[ankle].position.y > 1.2f,
             qPrintable(QStringLiteral("head y %1, neck y %2, ankle y %3").arg(num(headBind.y), num(neckBind.y), num(r.rig.particles[ankle].position.y))));

    const import::ImportedMesh* headMesh = nullptr;
    for (const import::ImportedMesh& m : imported.scene.meshes)
        if (m.name == "Head")
            headMesh = &m;
    QVERIFY(headMesh && headMesh->isSkinned());
    auto centroid = [headMesh](std::span<const Mat4> skin) {
        Vec3 sum;
        for (std::size_t v = 0; v < headMesh->positions.size(); ++v) {
            const import::VertexInfluences& inf = headMesh->influences[v];
            Vec3 p;
            for (int k = 0; k < inf.count(); ++k)
                p += (skin.empty() ? headMesh->positions[v] : skin[std::size_t(inf.bone[std::size_t(k)])].transformPoint(headMesh->positions[v])) *
                     inf.weight[std::size_t(k)];
            sum += p;
        }
        return sum / float(headMesh->positions.size());
    };
    // At bind the head mesh surrounds the head particle (it sat 0.55 m off the spine when read the usual way).
    const Vec3 bindCentre = centroid({});
    const float bindOffset = length(bindCentre - headBind);
    QVERIFY2(bindOffset < 0.1f, qPrintable(QStringLiteral("head mesh centre %1 m from the head particle").arg(num(bindOffset))));

    std::string error;
    const std::vector<std::byte> mrig = rig::writeMrig(r.rig, &error);
    const std::shared_ptr<const runtime::Rig> rig = runtime::Rig::loadFromMemory(mrig, &error);
    QVERIFY2(rig, error.c_str());
    runtime::WorldSettings ws;
    ws.sleep = false;
    ws.threads = 1;
    runtime::World world(ws);
    world.addPlane({0.f, 1.f, 0.f}, 0.f);
    float lowest = std::numeric_limits<float>::max();
    for (const rig::Particle& p : r.rig.particles)
        lowest = std::min(lowest, p.position.y - p.radius);
    runtime::Ragdoll* body = world.ragdoll(world.spawn(rig, Transform{Quat{}, {0.f, 2.f - lowest, 0.f}}, {}, &error));
    QVERIFY2(body, error.c_str());
    for (int n = 0; n < 300; ++n)
        world.step();
    std::vector<Mat4> skin(r.rig.bones.size());
    QVERIFY(body->skinningMatrices(skin));
    const Vec3 droppedHead = body->positions()[head];
    QVERIFY2(droppedHead.y < 0.5f, "the body did not fall");
    const float droppedOffset = length(centroid(skin) - droppedHead);
    const QString what = QStringLiteral("head mesh centre from the head particle: %1 m at bind, %2 m after the drop")
                             .arg(num(bindOffset), num(droppedOffset));
    qInfo("%s", qPrintable(what));
    QVERIFY2(std::fabs(droppedOffset - bindOffset) < 0.02f, qPrintable(what));
}

QTEST_GUILESS_MAIN(TestAutoRigImport)
#include "tst_autorigimport.moc"
