// Tests of writing .mrig files and reading them back: the CRC-32C against its published check value, a
// rig exercising every field of every element type compared bit for bit, the procedural humanoid, cloth
// and crate, the layout the writer produces (FORMAT.md §8), the zero-copy view, MrigInfo, and the writer
// refusing an invalid rig with validate()'s message.
#include "MrigTestSupport.h"

#include "marionette/rig/Crc32c.h"
#include "marionette/rig/Mrig.h"
#include "marionette/runtime/Procedural.h"

#include <QtTest/QtTest>

#include <cstring>
#include <limits>
#include <random>

using namespace marionette;
using namespace marionette::rig;
using namespace marionette::test;

namespace {

Bytes ascii(const char* s) { return toBytes(s, std::strlen(s)); }

} // namespace

class TestMrigRoundTrip : public QObject {
    Q_OBJECT

private slots:
    void crc32c_matchesCheckValue();
    void crc32c_hardwareAndTableAgree();
    void fullRig_roundTripsBitExact();
    void fullRig_viewExposesRecords();
    void proceduralRigs_roundTrip_data();
    void proceduralRigs_roundTrip();
    void writer_layoutFollowsSpecification();
    void writer_isDeterministic();
    void writer_refusesInvalidRigWithValidateMessage();
    void info_countsEveryChunk();
    void view_moveKeepsSpansAndEmptiesSource();
};

// CRC-32C's check value (Rocksoft model catalogue, "CRC-32/ISCSI"): 0xE3069283 for "123456789".
void TestMrigRoundTrip::crc32c_matchesCheckValue()
{
    QCOMPARE(crc32c(ascii("123456789")), 0xE3069283u);
    QCOMPARE(crc32cPortable(ascii("123456789")), 0xE3069283u);
    QCOMPARE(crc32c({}), 0u);
    // 32 zero bytes: 0x8A9136AA (RFC 3720 appendix B.4 test vector).
    QCOMPARE(crc32c(Bytes(32)), 0x8A9136AAu);
    // Chaining: crc of "12345" continued with "6789".
    QCOMPARE(crc32c(ascii("6789"), crc32c(ascii("12345"))), 0xE3069283u);
}

void TestMrigRoundTrip::crc32c_hardwareAndTableAgree()
{
    std::mt19937 rng(7);
    Bytes data(4096 + 64);
    for (std::byte& b : data)
        b = std::byte(rng() & 0xFF);
    for (std::size_t offset = 0; offset < 9; ++offset)
        for (std::size_t len : {0u, 1u, 7u, 8u, 9u, 63u, 64u, 65u, 1000u, 4096u}) {
            const std::span<const std::byte> s(data.data() + offset, len);
            QCOMPARE(crc32c(s), crc32cPortable(s));
        }
}

void TestMrigRoundTrip::fullRig_roundTripsBitExact()
{
    const RigDescription d = fullRig();
    QCOMPARE(QString::fromStdString(d.validate()), QString());
    std::string error;
    const Bytes bytes = writeMrig(d, &error);
    QVERIFY2(!bytes.empty(), error.c_str());
    RigDescription back;
    QVERIFY2(readMrig(bytes, back, &error), error.c_str());
    QCOMPARE(QString::fromStdString(diffRigs(d, back)), QString());
    // The comparison itself is sharp: one changed bit in one float is reported.
    RigDescription changed = back;
    changed.sticks[0].compliance = std::nextafter(changed.sticks[0].compliance, 1.f);
    const std::uint32_t was = bits(d.sticks[0].compliance);
    QCOMPARE(QString::fromStdString(diffRigs(d, changed)),
             QStringLiteral("sticks[0].compliance: 0x%1 != 0x%2").arg(was, 8, 16, QChar('0')).arg(was + 1, 8, 16, QChar('0')));
}

void TestMrigRoundTrip::fullRig_viewExposesRecords()
{
    const RigDescription d = fullRig();
    MrigView view;
    std::string error;
    QVERIFY2(view.open(writeMrig(d), &error), error.c_str());
    QVERIFY(view.isOpen());
    QCOMPARE(view.particles().size(), d.particles.size());
    QCOMPARE(view.sticks().size(), d.sticks.size());
    QCOMPARE(view.angles().size(), d.angles.size());
    QCOMPARE(view.triangles().size(), d.triangles.size());
    QCOMPARE(view.angular().size(), d.angular.size());
    QCOMPARE(view.pins().size(), d.pins.size());
    QCOMPARE(view.shapes().size(), d.shapes.size());
    QCOMPARE(view.bones().size(), d.bones.size());
    QCOMPARE(view.bindings().size(), d.bindings.size());
    QCOMPARE(std::string(view.rigName()), d.name);
    QCOMPARE(std::string(view.string(view.particles()[2].name)), std::string("a\0b", 3));
    QCOMPARE(view.particles()[1].id, 0xFFFFFFFFu);
    QCOMPARE(bits(view.particles()[0].position[0]), 0x80000000u); // −0 survives
    QCOMPARE(bits(view.particles()[1].position[1]), bits(1e-39f)); // a subnormal survives
    QCOMPARE(view.sticks()[2].kind, 2u);
    QCOMPARE(view.sticks()[1].particleB, 2);
    QCOMPARE(view.angles()[1].form, 1u);
    QCOMPARE(view.angular()[1].hasRestOrientation, 1u);
    QCOMPARE(bits(view.angular()[1].restOrientation[3]), bits(d.angular[1].restOrientation.w));
    QCOMPARE(view.shapes()[1].triangle, -1);
    QCOMPARE(view.shapes()[0].tetra[1], -3);
    QCOMPARE(view.bones()[2].parent, 1);
    QCOMPARE(bits(view.bones()[1].inverseBind[3]), 0x80000000u);
    QCOMPARE(view.bindings()[1].driver, 1u);
    QCOMPARE(view.settings().solver, 0u); // Direct, which SETT (0–2) cannot hold: Gauss–Seidel for 1.0 readers
    QVERIFY(view.solver());
    QCOMPARE(view.solver()->solver, 3u);
    QCOMPARE(view.solver()->substeps, 7u);
    QCOMPARE(view.angularFriction().size(), d.angular.size());
    QCOMPARE(view.pinStiffness().size(), d.pins.size());
    QCOMPARE(view.bendDamping().size(), d.angles.size());
    QCOMPARE(bits(view.bendDamping()[0].damping), bits(0.1f));
    QCOMPARE(bits(view.bendDamping()[1].damping), bits(1000.f));
    QCOMPARE(view.settings().sqrtApproximation, 1u);
    QCOMPARE(view.settings().selfCollision, 0u);
    // Records sit in the aligned buffer: spans start at 16-byte boundaries.
    QCOMPARE(reinterpret_cast<std::uintptr_t>(view.particles().data()) % 16u, std::uintptr_t(0));
    QCOMPARE(reinterpret_cast<std::uintptr_t>(view.bones().data()) % 16u, std::uintptr_t(0));
}

void TestMrigRoundTrip::proceduralRigs_roundTrip_data()
{
    QTest::addColumn<int>("which");
    QTest::newRow("humanoid") << 0;
    QTest::newRow("humanoid, 1.2 m, no self-collision") << 1;
    QTest::newRow("cloth 8x6 pinned") << 2;
    QTest::newRow("cloth 5x5 tearable, free") << 3;
    QTest::newRow("crate") << 4;
}

void TestMrigRoundTrip::proceduralRigs_roundTrip()
{
    QFETCH(int, which);
    RigDescription d;
    switch (which) {
    case 0: d = runtime::makeHumanoid(); break;
    case 1: d = runtime::makeHumanoid({1.2f, 40.f, false}); break;
    case 2: d = runtime::makeCloth(8, 6, 0.1f); break;
    case 3: d = runtime::makeCloth(5, 5, 0.2f, false, 1.5f); break;
    default: d = runtime::makeCrate({0.3f, 0.2f, 0.4f}, 12.f); break;
    }
    std::string error;
    const Bytes bytes = writeMrig(d, &error);
    QVERIFY2(!bytes.empty(), error.c_str());
    RigDescription back;
    QVERIFY2(readMrig(bytes, back, &error), error.c_str());
    QCOMPARE(QString::fromStdString(diffRigs(d, back)), QString());
    if (which == 0) { // the documented shape of the humanoid, as a sanity check of the test itself
        QCOMPARE(back.particles.size(), std::size_t(20));
        QCOMPARE(back.triangles.size(), std::size_t(11));
        QCOMPARE(back.angular.size(), std::size_t(10));
        QCOMPARE(back.bones.size(), std::size_t(14));
    }
}

void TestMrigRoundTrip::writer_layoutFollowsSpecification()
{
    const RigDescription d = runtime::makeHumanoid();
    const Bytes b = writeMrig(d);
    QVERIFY(!b.empty());
    const auto h = peek<mrig::FileHeader>(b, 0);
    QVERIFY(std::memcmp(b.data(), "MRIG\r\n\x1a\n", 8) == 0);
    QCOMPARE(h.versionMajor, std::uint16_t(1));
    QCOMPARE(h.versionMinor, std::uint16_t(3));
    QCOMPARE(h.flags, 0u);
    QCOMPARE(h.fileSize, std::uint64_t(b.size()));
    QCOMPARE(h.headerSize, 64u);
    QCOMPARE(h.chunkTableOffset, std::uint64_t(64));
    QCOMPARE(h.chunkCount, 18u);
    QCOMPARE(h.chunkEntrySize, 32u);
    QCOMPARE(h.reserved[0] | h.reserved[1] | h.reserved[2], 0u);
    // Header CRC: over the 64 bytes with the CRC field as zero.
    Bytes head(b.begin(), b.begin() + 64);
    poke<std::uint32_t>(head, 28, 0);
    QCOMPARE(h.headerCrc, crc32c(head));
    QCOMPARE(h.chunkTableCrc, crc32c({b.data() + 64, 18 * 32}));

    // The 1.0 chunks in their 1.0 order, then the three of 1.1, the one of 1.2, the two of 1.3 (FORMAT.md §8).
    const std::uint32_t tags[18] = {mrig::kTagRig,    mrig::kTagSettings,  mrig::kTagParticles, mrig::kTagSticks,
                                    mrig::kTagAngles, mrig::kTagTriangles, mrig::kTagAngular,   mrig::kTagPins,
                                    mrig::kTagShapes, mrig::kTagBones,     mrig::kTagBindings,  mrig::kTagStrings,
                                    mrig::kTagSolver, mrig::kTagAngularFriction, mrig::kTagPinStiffness,
                                    mrig::kTagBendDamping, mrig::kTagDriveProfiles, mrig::kTagDriveParts};
    const std::uint32_t sizes[18] = {8, 60, 44, 64, 40, 24, 100, 36, 84, 208, 56, 1, 24, 8, 4, 4, 48, 36};
    const std::size_t counts[18] = {1, 1, d.particles.size(), d.sticks.size(), d.angles.size(), d.triangles.size(),
                                    d.angular.size(), d.pins.size(), d.shapes.size(), d.bones.size(),
                                    d.bindings.size(), 0, 1, d.angular.size(), d.pins.size(), d.angles.size(), 0, 0};
    std::uint64_t end = 64 + 18 * 32;
    for (int i = 0; i < 18; ++i) {
        const auto e = peek<mrig::ChunkEntry>(b, 64 + 32 * std::size_t(i));
        QCOMPARE(e.tag, tags[i]);
        QCOMPARE(e.recordSize, sizes[i]);
        if (i != 11)
            QCOMPARE(std::size_t(e.count), counts[i]);
        QCOMPARE(e.size, std::uint64_t(e.count) * e.recordSize);
        QCOMPARE(e.offset % 16, std::uint64_t(0));
        QVERIFY(e.offset >= end);  // in order, no overlap
        QVERIFY(e.offset < end + 16); // padding only to the next 16-byte boundary
        QCOMPARE(e.crc, crc32c({b.data() + e.offset, std::size_t(e.size)}));
        end = e.offset + e.size;
    }
    QCOMPARE(end, std::uint64_t(b.size()));
    // The string table holds each non-empty name once per reference: its size is the sum of the names.
    std::size_t names = d.name.size();
    for (const auto& p : d.particles)
        names += p.name.size();
    for (const auto& s : d.sticks)
        names += s.name.size();
    for (const auto& t : d.triangles)
        names += t.name.size();
    for (const auto& a : d.angular)
        names += a.name.size();
    for (const auto& bone : d.bones)
        names += bone.name.size();
    for (const auto& bb : d.bindings)
        names += bb.name.size();
    for (const auto& a : d.angles)
        names += a.name.size();
    for (const auto& p : d.pins)
        names += p.name.size();
    for (const auto& s : d.shapes)
        names += s.name.size();
    QCOMPARE(std::size_t(peek<mrig::ChunkEntry>(b, 64 + 32 * 11).count), names);
}

void TestMrigRoundTrip::writer_isDeterministic()
{
    const RigDescription d = fullRig();
    QVERIFY(writeMrig(d) == writeMrig(d));
    QVERIFY(writeMrig(d) != writeMrig(runtime::makeHumanoid()));
}

void TestMrigRoundTrip::writer_refusesInvalidRigWithValidateMessage()
{
    RigDescription d;
    for (int i = 0; i < 31; ++i) {
        Particle p;
        p.position = {float(i), 0.f, 0.f};
        d.particles.push_back(p);
    }
    for (int i = 0; i < 13; ++i) {
        Stick s;
        s.a = i;
        s.b = i + 1;
        d.sticks.push_back(s);
    }
    d.sticks[12].name = "l_forearm";
    d.sticks[12].b = 40;
    std::string error = "untouched";
    QVERIFY(writeMrig(d, &error).empty());
    QCOMPARE(QString::fromStdString(error),
             QStringLiteral("sticks[12] 'l_forearm': particle b index 40 out of range (31 particles)"));
    QCOMPARE(error, d.validate());
    QVERIFY(writeMrig(RigDescription{}).empty()); // no particles

    // A box's rotation that is not a rotation is refused by validate() before anything is written.
    RigDescription crate = runtime::makeCrate({0.3f, 0.2f, 0.4f}, 10.f);
    crate.shapes[0].local.rotation.y = std::numeric_limits<float>::quiet_NaN();
    QVERIFY(writeMrig(crate, &error).empty());
    QCOMPARE(error, crate.validate());
    QVERIFY2(error.find("local.rotation is not a unit quaternion") != std::string::npos, error.c_str());
}

void TestMrigRoundTrip::info_countsEveryChunk()
{
    const RigDescription d = fullRig();
    const Bytes b = writeMrig(d);
    MrigInfo info;
    std::string error;
    QVERIFY2(readMrigInfo(b, info, &error), error.c_str());
    QCOMPARE(info.versionMajor, std::uint16_t(1));
    QCOMPARE(info.versionMinor, std::uint16_t(3));
    QCOMPARE(info.fileSize, std::uint64_t(b.size()));
    QCOMPARE(info.chunkCount, 18u);
    QCOMPARE(info.unknownChunks, 0u);
    QCOMPARE(std::size_t(info.particles), d.particles.size());
    QCOMPARE(std::size_t(info.sticks), d.sticks.size());
    QCOMPARE(std::size_t(info.angles), d.angles.size());
    QCOMPARE(std::size_t(info.triangles), d.triangles.size());
    QCOMPARE(std::size_t(info.angular), d.angular.size());
    QCOMPARE(std::size_t(info.pins), d.pins.size());
    QCOMPARE(std::size_t(info.shapes), d.shapes.size());
    QCOMPARE(std::size_t(info.bones), d.bones.size());
    QCOMPARE(std::size_t(info.bindings), d.bindings.size());
    QCOMPARE(info.driveProfiles, 3u);
    MrigView view;
    QVERIFY(view.open(b, &error));
    QCOMPARE(view.info().stringBytes, info.stringBytes);
    QCOMPARE(view.info().particles, info.particles);
    // Info does not look at payloads: a corrupt payload passes readMrigInfo but not the reader.
    Bytes corrupt = b;
    corrupt[payloadOffset(b, mrig::kTagParticles)] ^= std::byte{1};
    QVERIFY(readMrigInfo(corrupt, info, &error));
    QVERIFY(!view.open(corrupt, &error));
    QCOMPARE(QString::fromStdString(error).left(34), QStringLiteral("PART: payload checksum mismatch (s"));
}

void TestMrigRoundTrip::view_moveKeepsSpansAndEmptiesSource()
{
    MrigView a;
    QVERIFY(a.open(writeMrig(runtime::makeHumanoid()), nullptr));
    const auto* particles = a.particles().data();
    MrigView b(std::move(a));
    QVERIFY(!a.isOpen());
    QVERIFY(a.particles().empty());
    QCOMPARE(a.info().particles, 0u);
    QCOMPARE(b.particles().data(), particles);
    QCOMPARE(b.particles().size(), std::size_t(20));
    QCOMPARE(std::string(b.string(b.particles()[0].name)), std::string("hip_l"));
    MrigView c;
    c = std::move(b);
    QCOMPARE(c.particles().data(), particles);
    QVERIFY(!b.isOpen());
    c.reset();
    QVERIFY(!c.isOpen());
    QCOMPARE(c.settings().iterations, 0u);
}

QTEST_GUILESS_MAIN(TestMrigRoundTrip)
#include "tst_mrigroundtrip.moc"
