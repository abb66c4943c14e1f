// The runtime's loader: a rig written to .mrig and loaded back (from a file or from memory) is the rig built
// from the description, for everything the solver uses: compiled arrays and the simulation bit for bit.
// Loading validates the description once. Damaged files are refused with the path and the problem.
#include "RuntimeTestSupport.h"

#include "marionette/rig/Mrig.h"
#include "marionette/rig/Validation.h"
#include "marionette/runtime/Procedural.h"

#include <QTemporaryDir>

#include <cstring>
#include <fstream>
#include <optional>

using namespace marionette;
using namespace marionette::runtime;

namespace {

template <typename T>
bool sameBytes(std::span<const T> a, std::span<const T> b)
{
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size_bytes()) == 0);
}

/// Drops `rig` from 1 m with a sideways kick onto a floor for `steps` steps; returns every position.
std::vector<Vec3> drop(const std::shared_ptr<const Rig>& rig, int steps)
{
    World world;
    world.addPlane({0.f, 1.f, 0.f}, 0.f);
    const RagdollHandle h = world.spawn(rig, Transform{Quat::fromAxisAngle({0.f, 0.f, 1.f}, 0.7f), {0.f, 1.f, 0.f}});
    Ragdoll* r = world.ragdoll(h);
    if (!r)
        return {};
    r->applyImpulse(0, {3.f, 0.f, 1.f});
    std::vector<Vec3> all;
    for (int i = 0; i < steps; ++i) {
        world.step();
        all.insert(all.end(), r->positions().begin(), r->positions().end());
    }
    return all;
}

} // namespace

class TestRigLoad : public QObject {
    Q_OBJECT

private slots:
    void load_sameRigAsBuilt_data();
    void load_sameRigAsBuilt();
    void load_refusesDamagedFiles();
};

void TestRigLoad::load_sameRigAsBuilt_data()
{
    QTest::addColumn<int>("which");
    QTest::newRow("humanoid") << 0;
    QTest::newRow("tearable cloth") << 1;
    QTest::newRow("crate") << 2;
}

void TestRigLoad::load_sameRigAsBuilt()
{
    QFETCH(int, which);
    const rig::RigDescription d = which == 0   ? makeHumanoid()
                                  : which == 1 ? makeCloth(8, 6, 0.05f, true, 1.5f)
                                               : makeCrate({0.3f, 0.2f, 0.25f}, 20.f);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath(QStringLiteral("rig.mrig")).toStdString();
    std::string error;
    QVERIFY2(rig::saveMrig(path, d, &error), error.c_str());

    BUILD_RIG(built, d);
    // Loading validates the description once: the reader's validation is the one the builder goes by.
    std::uint64_t validations = rig::validationCount();
    const std::shared_ptr<const Rig> loaded = Rig::load(path, &error);
    QVERIFY2(loaded, error.c_str());
    QCOMPARE(rig::validationCount() - validations, std::uint64_t(1));
    const std::vector<std::byte> bytes = rig::writeMrig(d, &error);
    validations = rig::validationCount();
    const std::shared_ptr<const Rig> fromMemory = Rig::loadFromMemory(bytes, &error);
    QVERIFY2(fromMemory, error.c_str());
    QCOMPARE(rig::validationCount() - validations, std::uint64_t(1));
    // The writer given the proof of validation writes the same bytes without validating again.
    const std::optional<rig::Validated> valid = rig::validated(d);
    QVERIFY(valid);
    validations = rig::validationCount();
    QVERIFY(rig::writeMrig(*valid) == bytes);
    QVERIFY(Rig::build(*valid));
    QCOMPARE(rig::validationCount() - validations, std::uint64_t(0));

    for (const Rig* r : {loaded.get(), fromMemory.get()}) {
        QVERIFY(sameBytes(built->bindPositions(), r->bindPositions()));
        QVERIFY(sameBytes(built->inverseMasses(), r->inverseMasses()));
        QVERIFY(sameBytes(built->radii(), r->radii()));
        QVERIFY(sameBytes(built->sticks(), r->sticks()));
        QVERIFY(sameBytes(built->triangles(), r->triangles()));
        QCOMPARE(r->angular().size(), built->angular().size());
        QCOMPARE(r->capsules().size(), built->capsules().size());
        QCOMPARE(r->boxes().size(), built->boxes().size());
        QCOMPARE(r->bones().size(), built->bones().size());
        QCOMPARE(r->selfCapsulePairs().size(), built->selfCapsulePairs().size());
        QCOMPARE(r->totalMass(), built->totalMass());
        QCOMPARE(r->description().name, d.name);
    }
    // The motion is the same bit for bit: everything the solver reads survived the file.
    const std::vector<Vec3> a = drop(built, 90);
    const std::vector<Vec3> b = drop(loaded, 90);
    QVERIFY(!a.empty());
    QVERIFY2(sameBytes(std::span<const Vec3>(a), std::span<const Vec3>(b)), "the loaded rig moves differently");
}

void TestRigLoad::load_refusesDamagedFiles()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath(QStringLiteral("hero.mrig")).toStdString();
    std::string error;
    std::vector<std::byte> bytes = rig::writeMrig(makeHumanoid(), &error);
    QVERIFY2(!bytes.empty(), error.c_str());

    QVERIFY(!Rig::load(path, &error)); // missing
    QVERIFY2(error.rfind(path + ": ", 0) == 0, error.c_str());

    bytes[bytes.size() / 2] ^= std::byte{0x01};
    {
        std::ofstream f(path, std::ios::binary);
        f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    }
    error.clear();
    QVERIFY(!Rig::load(path, &error));
    QVERIFY2(error.rfind(path + ": ", 0) == 0 && error.find("checksum") != std::string::npos, error.c_str());
    error.clear();
    QVERIFY(!Rig::loadFromMemory(std::span<const std::byte>(bytes).first(40), &error));
    QVERIFY2(!error.empty(), "no message for a truncated rig");
}

QTEST_APPLESS_MAIN(TestRigLoad)
#include "tst_rigload.moc"
