// Tests of what format 1.3 added to .mrig (FORMAT.md §5, §6, §13): named drive profiles (chunks DRVP and DRPT)
// survive write→read bit for bit, each profile's parts a run of DRPT records following the previous
// profile's; a reader that skips both chunks (as a 1.0 to 1.2 reader does) gets the same rig without
// profiles; files without them load with none; and hostile DRVP/DRPT chunks are refused with exact one-line
// messages that name the profile and its part.
#include "MrigFormat13Cases.h"
#include "MrigSuiteSupport.h"
#include "MrigTestSupport.h"

#include "marionette/rig/Mrig.h"
#include "marionette/runtime/Procedural.h"

#include <QtTest/QtTest>

using namespace marionette;
using namespace marionette::rig;
using namespace marionette::test;

class TestMrigFormat13 : public QObject {
    Q_OBJECT

private slots:
    void driveProfiles_roundTripBitExact();
    void driveProfiles_recordsFollowEachOther();
    void driveProfiles_changeNoOtherChunk();
    void readerSkippingProfiles_getsTheRigWithoutThem();
    void olderFiles_loadWithoutProfiles();
    void handBuiltSample_readsProfiles();
    void hostileFile_isRefusedWithExactMessage_data();
    void hostileFile_isRefusedWithExactMessage();
};

void TestMrigFormat13::driveProfiles_roundTripBitExact()
{
    const RigDescription d = fullRig();
    QCOMPARE(d.driveProfiles.size(), std::size_t(3));
    std::string error;
    const Bytes bytes = writeMrig(d, &error);
    QVERIFY2(!bytes.empty(), error.c_str());
    RigDescription back;
    QVERIFY2(readMrig(bytes, back, &error), error.c_str());
    QCOMPARE(QString::fromStdString(diffRigs(d, back)), QString());
    // Spot checks that do not go through diffRigs: the awkward values and names come back.
    QCOMPARE(back.driveProfiles[1].name, std::string("limp\0x", 6));
    QCOMPARE(bits(back.driveProfiles[0].defaults.maxForce), bits(1e-30f));
    QCOMPARE(bits(back.driveProfiles[0].parts[1].gains.motorFrequency), 0x80000000u); // −0
    QCOMPARE(back.driveProfiles[0].parts[1].kind, DrivePartKind::Stick);
    QCOMPARE(back.driveProfiles[0].parts[1].index, 3);
    QVERIFY(back.driveProfiles[0].parts[0].gains.kinematic);
    QVERIFY(back.driveProfiles[1].parts.empty());
    QCOMPARE(back.driveProfiles[2].id, 102u);
}

// The writer's layout (FORMAT.md §8): DRVP holds one 48-byte record per profile, DRPT the parts of all of them,
// profile by profile, each profile's firstPart the sum of the part counts before it.
void TestMrigFormat13::driveProfiles_recordsFollowEachOther()
{
    const RigDescription d = fullRig(); // 3, 0 and 1 parts
    const Bytes bytes = writeMrig(d);
    const auto p = peek<mrig::ChunkEntry>(bytes, entryOffset(bytes, mrig::kTagDriveProfiles));
    const auto q = peek<mrig::ChunkEntry>(bytes, entryOffset(bytes, mrig::kTagDriveParts));
    QCOMPARE(p.count, 3u);
    QCOMPARE(p.recordSize, 48u);
    QCOMPARE(q.count, 4u);
    QCOMPARE(q.recordSize, 36u);
    MrigView view;
    std::string error;
    QVERIFY2(view.open(bytes, &error), error.c_str());
    QCOMPARE(view.info().versionMinor, std::uint16_t(3));
    QCOMPARE(view.info().driveProfiles, 3u);
    const std::uint32_t first[3] = {0, 3, 3}, count[3] = {3, 0, 1};
    for (std::size_t i = 0; i < 3; ++i) {
        QCOMPARE(view.driveProfiles()[i].firstPart, first[i]);
        QCOMPARE(view.driveProfiles()[i].partCount, count[i]);
    }
    QCOMPARE(std::string(view.string(view.driveProfiles()[2].name)), std::string("stiff"));
    QCOMPARE(view.driveParts()[3].kind, 1u); // stiff's one part: stick 0, a 30 Hz motor
    QCOMPARE(view.driveParts()[3].index, 0);
    QCOMPARE(view.driveParts()[3].gains.motorFrequency, 30.f);
    QCOMPARE(view.driveParts()[0].gains.kinematic, 1u);
    QCOMPARE(view.driveProfiles()[1].defaults.kinematic, 1u);
}

// Profiles live in DRVP, DRPT and the names in STRS alone: every other chunk is the same bytes with or without.
void TestMrigFormat13::driveProfiles_changeNoOtherChunk()
{
    RigDescription without = fullRig();
    without.driveProfiles.clear();
    const Bytes a = writeMrig(fullRig()), b = writeMrig(without);
    int compared = 0;
    for (std::size_t i = 0; i < 18; ++i) {
        const auto ea = peek<mrig::ChunkEntry>(a, 64 + 32 * i);
        const auto eb = peek<mrig::ChunkEntry>(b, 64 + 32 * i);
        QCOMPARE(ea.tag, eb.tag);
        if (ea.tag == mrig::kTagDriveProfiles || ea.tag == mrig::kTagDriveParts || ea.tag == mrig::kTagStrings)
            continue;
        QCOMPARE(ea.size, eb.size);
        QCOMPARE(ea.crc, eb.crc);
        ++compared;
    }
    QCOMPARE(compared, 15);
}

// What a 1.0 to 1.2 reader does with a 1.3 file: DRVP and DRPT are chunks it does not know, skipped. It gets
// the same rig with no drive profiles.
void TestMrigFormat13::readerSkippingProfiles_getsTheRigWithoutThem()
{
    const RigDescription d = fullRig();
    Bytes b = renameChunk(writeMrig(d), mrig::kTagDriveProfiles, mrig::makeTag('d', 'r', 'v', 'p'));
    b = renameChunk(b, mrig::kTagDriveParts, mrig::makeTag('d', 'r', 'p', 't'));
    MrigView view;
    std::string error;
    QVERIFY2(view.open(b, &error), error.c_str());
    QVERIFY(view.driveProfiles().empty());
    QCOMPARE(view.info().unknownChunks, 2u);
    RigDescription old;
    QVERIFY2(view.toDescription(old, &error), error.c_str());
    RigDescription expected = d;
    expected.driveProfiles.clear();
    QCOMPARE(QString::fromStdString(diffRigs(expected, old)), QString());
}

// Files without DRVP and DRPT (1.0, 1.1, 1.2, or a 1.3 file leaving them out) have no drive profiles.
void TestMrigFormat13::olderFiles_loadWithoutProfiles()
{
    const Bytes v10 = builderFor(rawSample()).build();
    const Bytes v11 = builderFor(rawSample11()).build();
    const Bytes v12 = builderFor(rawSample12()).build();
    MrigBuilder without = builderFor(rawSample13());
    without.remove(mrig::kTagDriveProfiles);
    without.remove(mrig::kTagDriveParts);
    const Bytes v13 = without.build();
    for (const Bytes* b : {&v10, &v11, &v12, &v13}) {
        RigDescription d;
        std::string error;
        QVERIFY2(readMrig(*b, d, &error), error.c_str());
        QVERIFY(d.driveProfiles.empty());
        QCOMPARE(d.triangles.size(), std::size_t(2));
    }
}

// The hand-built 1.3 sample: the profiles come from DRVP and DRPT; everything else reads as the 1.2 sample.
void TestMrigFormat13::handBuiltSample_readsProfiles()
{
    RigDescription d, d12;
    std::string error;
    QVERIFY2(readMrig(builderFor(rawSample13()).build(), d, &error), error.c_str());
    QVERIFY2(readMrig(builderFor(rawSample12()).build(), d12, &error), error.c_str());
    QCOMPARE(d.driveProfiles.size(), std::size_t(2));
    const DriveProfile& stagger = d.driveProfiles[0];
    QCOMPARE(stagger.name, std::string("stagger"));
    QCOMPARE(stagger.id, 1000u);
    QCOMPARE(stagger.defaults, (DriveGains{4.f, 1.f, 200.f, 0.f, 1.f, 0.f, false}));
    QCOMPARE(stagger.parts.size(), std::size_t(2));
    QCOMPARE(stagger.gainsOf(DrivePartKind::Triangle, 1).motorFrequency, 12.f);
    QVERIFY(stagger.gainsOf(DrivePartKind::Stick, 3).kinematic);
    QCOMPARE(stagger.gainsOf(DrivePartKind::Stick, 3).maxForce, 50.f);
    QCOMPARE(stagger.gainsOf(DrivePartKind::Triangle, 0), stagger.defaults); // not listed: the defaults
    QCOMPARE(d.driveProfiles[1].name, std::string("limp"));
    QVERIFY(d.driveProfiles[1].parts.empty());
    d12.driveProfiles = d.driveProfiles;
    QCOMPARE(QString::fromStdString(diffRigs(d12, d)), QString());
}

void TestMrigFormat13::hostileFile_isRefusedWithExactMessage_data()
{
    addHostileFileRows(format13Cases());
    QVERIFY(format13Cases().size() >= 25);
}

void TestMrigFormat13::hostileFile_isRefusedWithExactMessage()
{
    QFETCH(Bytes, file);
    QFETCH(QString, message);
    QFETCH(bool, viewOpens);
    checkHostileFile(file, message, viewOpens);
}

QTEST_GUILESS_MAIN(TestMrigFormat13)
#include "tst_mrigformat13.moc"
