// Tests of what format 1.2 added to .mrig (FORMAT.md §5, §6, §12): the bend damping of every angle constraint
// (chunk BNDD) survives write→read bit for bit, one record per ANGL record in order; it lives in BNDD alone,
// so a reader that skips BNDD (as a 1.0 or 1.1 reader does) gets the same rig without bend damping; files
// without BNDD (1.0, 1.1, or a 1.2 file that leaves it out) load with damping 0; and hostile BNDD chunks are
// refused with exact one-line messages.
#include "MrigFormat12Cases.h"
#include "MrigSuiteSupport.h"
#include "MrigTestSupport.h"

#include "marionette/rig/Mrig.h"
#include "marionette/runtime/Procedural.h"

#include <QtTest/QtTest>

#include <cstring>

using namespace marionette;
using namespace marionette::rig;
using namespace marionette::test;

namespace {

/// The payload of the chunk `tag` of a well-formed file.
Bytes payloadOf(const Bytes& file, std::uint32_t tag)
{
    const auto e = peek<mrig::ChunkEntry>(file, entryOffset(file, tag));
    return Bytes(file.begin() + std::ptrdiff_t(e.offset), file.begin() + std::ptrdiff_t(e.offset + e.size));
}

/// The humanoid with a dot-product angle constraint at each elbow and knee (it has none of its own), each
/// with its own bend damping.
RigDescription humanoidWithBends()
{
    RigDescription d = runtime::makeHumanoid();
    const auto index = [&](const char* name) {
        for (std::size_t i = 0; i < d.particles.size(); ++i)
            if (d.particles[i].name == name)
                return std::int32_t(i);
        return std::int32_t(-1);
    };
    const char* joints[][3] = {{"elbow_l", "shoulder_l", "wrist_l"}, {"elbow_r", "shoulder_r", "wrist_r"},
                               {"knee_l", "hip_l", "ankle_l"},       {"knee_r", "hip_r", "ankle_r"}};
    float damping = 0.5f;
    for (const auto& j : joints) {
        AngleConstraint a;
        a.name = std::string(j[0]) + "_bend";
        a.center = index(j[0]);
        a.a = index(j[1]);
        a.b = index(j[2]);
        a.minAngle = 0.3f;
        a.maxAngle = kPi;
        a.damping = damping;
        damping *= 3.f;
        if (a.center >= 0 && a.a >= 0 && a.b >= 0)
            d.angles.push_back(a);
    }
    return d;
}

} // namespace


class TestMrigFormat12 : public QObject {
    Q_OBJECT

private slots:
    void bendDamping_roundTripsBitExact_data();
    void bendDamping_roundTripsBitExact();
    void bendDamping_oneRecordPerAngleInOrder();
    void bendDamping_changesNoOtherChunk();
    void readerSkippingBendDamping_getsTheRigWithoutIt();
    void olderFiles_loadWithoutBendDamping();
    void handBuiltSample_readsBendDamping();
    void hostileFile_isRefusedWithExactMessage_data();
    void hostileFile_isRefusedWithExactMessage();
};

void TestMrigFormat12::bendDamping_roundTripsBitExact_data()
{
    QTest::addColumn<float>("damping");
    QTest::newRow("0") << 0.f;
    QTest::newRow("-0") << -0.f;
    QTest::newRow("subnormal") << 1e-40f;
    QTest::newRow("0.1 (not exact in binary)") << 0.1f;
    QTest::newRow("1000 (top of the range)") << 1000.f;
}

void TestMrigFormat12::bendDamping_roundTripsBitExact()
{
    QFETCH(float, damping);
    RigDescription d = fullRig();
    d.angles[0].damping = damping;
    QCOMPARE(QString::fromStdString(d.validate()), QString());
    std::string error;
    const Bytes bytes = writeMrig(d, &error);
    QVERIFY2(!bytes.empty(), error.c_str());
    RigDescription back;
    QVERIFY2(readMrig(bytes, back, &error), error.c_str());
    QCOMPARE(QString::fromStdString(diffRigs(d, back)), QString());
    QCOMPARE(bits(back.angles[0].damping), bits(damping));
    QCOMPARE(bits(back.angles[1].damping), bits(1000.f));
    MrigView view;
    QVERIFY2(view.open(bytes, &error), error.c_str());
    QCOMPARE(view.info().versionMinor, std::uint16_t(3));
    QCOMPARE(view.bendDamping().size(), std::size_t(2));
    QCOMPARE(bits(view.bendDamping()[0].damping), bits(damping));
}

void TestMrigFormat12::bendDamping_oneRecordPerAngleInOrder()
{
    const RigDescription d = humanoidWithBends();
    QCOMPARE(d.angles.size(), std::size_t(4));
    QCOMPARE(QString::fromStdString(d.validate()), QString());
    const Bytes bytes = writeMrig(d);
    QVERIFY(!bytes.empty());
    const auto e = peek<mrig::ChunkEntry>(bytes, entryOffset(bytes, mrig::kTagBendDamping));
    QCOMPARE(e.count, 4u);
    QCOMPARE(e.recordSize, 4u);
    MrigView view;
    std::string error;
    QVERIFY2(view.open(bytes, &error), error.c_str());
    for (std::size_t i = 0; i < d.angles.size(); ++i)
        QCOMPARE(bits(view.bendDamping()[i].damping), bits(d.angles[i].damping));
    RigDescription back;
    QVERIFY2(view.toDescription(back, &error), error.c_str());
    QCOMPARE(QString::fromStdString(diffRigs(d, back)), QString());

    // A rig without angle constraints still has BNDD, empty.
    const Bytes plain = writeMrig(runtime::makeHumanoid());
    QVERIFY(entryOffset(plain, mrig::kTagBendDamping) != 0);
    QCOMPARE(peek<mrig::ChunkEntry>(plain, entryOffset(plain, mrig::kTagBendDamping)).count, 0u);
}

// Bend damping is in BNDD only: the rig with and without it writes every other chunk byte for byte the same.
void TestMrigFormat12::bendDamping_changesNoOtherChunk()
{
    const RigDescription damped = fullRig();
    RigDescription undamped = damped;
    for (AngleConstraint& a : undamped.angles)
        a.damping = 0.f;
    const Bytes x = writeMrig(damped), y = writeMrig(undamped);
    QCOMPARE(x.size(), y.size());
    const auto h = peek<mrig::FileHeader>(x, 0);
    for (std::uint32_t i = 0; i < h.chunkCount; ++i) {
        const auto tag = peek<std::uint32_t>(x, std::size_t(h.chunkTableOffset) + 32 * std::size_t(i));
        if (tag == mrig::kTagBendDamping)
            QVERIFY(payloadOf(x, tag) != payloadOf(y, tag));
        else
            QVERIFY2(payloadOf(x, tag) == payloadOf(y, tag), qPrintable(QString::number(i)));
    }
}

// What a 1.0 or 1.1 reader does with a 1.2 file: BNDD is a chunk it does not know, skipped. It gets the same
// rig with no bend damping.
void TestMrigFormat12::readerSkippingBendDamping_getsTheRigWithoutIt()
{
    for (const RigDescription& d : {fullRig(), humanoidWithBends()}) {
        const Bytes b = renameChunk(writeMrig(d), mrig::kTagBendDamping, mrig::makeTag('b', 'n', 'd', 'd'));
        MrigView view;
        std::string error;
        QVERIFY2(view.open(b, &error), error.c_str());
        QVERIFY(view.bendDamping().empty());
        QCOMPARE(view.info().unknownChunks, 1u);
        RigDescription old;
        QVERIFY2(view.toDescription(old, &error), error.c_str());
        RigDescription expected = d;
        for (AngleConstraint& a : expected.angles)
            a.damping = 0.f;
        QCOMPARE(QString::fromStdString(diffRigs(expected, old)), QString());
    }
}

// Files without BNDD (format 1.0, 1.1, or a 1.2 file leaving it out) give every angle constraint damping 0.
void TestMrigFormat12::olderFiles_loadWithoutBendDamping()
{
    const Bytes v10 = builderFor(rawSample()).build();
    const Bytes v11 = builderFor(rawSample11()).build();
    MrigBuilder without = builderFor(rawSample12());
    without.remove(mrig::kTagBendDamping);
    const Bytes v12 = without.build();
    for (const Bytes* b : {&v10, &v11, &v12}) {
        MrigView view;
        std::string error;
        QVERIFY2(view.open(*b, &error), error.c_str());
        QVERIFY(view.bendDamping().empty());
        QCOMPARE(view.angles().size(), std::size_t(1));
        RigDescription d;
        QVERIFY2(view.toDescription(d, &error), error.c_str());
        QCOMPARE(d.angles.size(), std::size_t(1));
        QCOMPARE(bits(d.angles[0].damping), bits(0.f));
        QCOMPARE(d.angles[0].stiffness, 1.f);
    }
}

// The hand-built 1.2 sample: the damping comes from BNDD; everything else reads as the 1.1 sample does.
void TestMrigFormat12::handBuiltSample_readsBendDamping()
{
    RigDescription d, d11;
    std::string error;
    QVERIFY2(readMrig(builderFor(rawSample12()).build(), d, &error), error.c_str());
    QVERIFY2(readMrig(builderFor(rawSample11()).build(), d11, &error), error.c_str());
    QCOMPARE(d.angles[0].damping, 7.5f);
    QCOMPARE(d11.angles[0].damping, 0.f);
    d11.angles[0].damping = 7.5f;
    QCOMPARE(QString::fromStdString(diffRigs(d11, d)), QString());
}

void TestMrigFormat12::hostileFile_isRefusedWithExactMessage_data()
{
    addHostileFileRows(format12Cases());
    QVERIFY(format12Cases().size() >= 14);
}

void TestMrigFormat12::hostileFile_isRefusedWithExactMessage()
{
    QFETCH(Bytes, file);
    QFETCH(QString, message);
    QFETCH(bool, viewOpens);
    checkHostileFile(file, message, viewOpens);
}

QTEST_GUILESS_MAIN(TestMrigFormat12)
#include "tst_mrigformat12.moc"
