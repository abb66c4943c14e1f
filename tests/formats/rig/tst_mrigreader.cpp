// Tests of the .mrig reader on hostile input, with files built by hand (MrigBuilder, FORMAT.md) rather
// than by the writer: truncation at every byte, every single-bit flip, newer minor versions (longer header
// and table entries, unknown chunks, informational flags, larger records), newer major versions, record
// sizes below the known size, counts and sizes whose arithmetic would overflow, string references that
// would multiply allocations, and an allocation bound measured with a counting operator new.
#include "MrigSuiteSupport.h"
#include "MrigTestSupport.h"

#include "marionette/rig/Mrig.h"
#include "marionette/runtime/Procedural.h"

#include <QtTest/QtTest>

#include <cstdlib>
#include <functional>
#include <new>

using namespace marionette;
using namespace marionette::rig;
using namespace marionette::test;

// ---- counting allocator: every operator new of this executable, counted while gCounting is set ---------------

namespace {
bool gCounting = false;
std::size_t gAllocated = 0, gLargest = 0;

void* countedAlloc(std::size_t n, std::size_t align)
{
    if (gCounting) {
        gAllocated += n;
        gLargest = std::max(gLargest, n);
    }
    const std::size_t rounded = (std::max<std::size_t>(n, 1) + align - 1) / align * align;
    void* p = align > alignof(std::max_align_t) ? std::aligned_alloc(align, rounded) : std::malloc(rounded);
    if (!p)
        throw std::bad_alloc();
    return p;
}
} // namespace

void* operator new(std::size_t n) { return countedAlloc(n, alignof(std::max_align_t)); }
void* operator new[](std::size_t n) { return countedAlloc(n, alignof(std::max_align_t)); }
void* operator new(std::size_t n, std::align_val_t a) { return countedAlloc(n, std::size_t(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return countedAlloc(n, std::size_t(a)); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace {

using Mutator = std::function<void(MrigBuilder&)>;
using Patcher = std::function<void(Bytes&)>;

Bytes sampleFile() { return builderFor(rawSample()).build(); }

/// Index of the chunk table entry for `tag` in builderFor()'s order.
int sampleIndex(std::uint32_t tag)
{
    const MrigBuilder b = builderFor(rawSample());
    for (std::size_t i = 0; i < b.chunks.size(); ++i)
        if (b.chunks[i].tag == tag)
            return int(i);
    return -1;
}

} // namespace

Q_DECLARE_METATYPE(Mutator)
Q_DECLARE_METATYPE(Patcher)

class TestMrigReader : public QObject {
    Q_OBJECT

private slots:
    void handBuiltSample_loads();
    void truncation_everyPrefixIsRefused();
    void bitFlip_everySingleBitIsCaught();
    void newerMinor_extensionsAreSkipped();
    void newerMajor_isRefusedWithExactMessage_data();
    void newerMajor_isRefusedWithExactMessage();
    void recordSize_largerReadsKnownPrefix();
    void recordSize_smallerIsRefused_data();
    void recordSize_smallerIsRefused();
    void overflow_isCaughtWithCheckedMath_data();
    void overflow_isCaughtWithCheckedMath();
    void allocation_isBoundedByInputSize_data();
    void allocation_isBoundedByInputSize();
};

void TestMrigReader::handBuiltSample_loads()
{
    const Bytes b = sampleFile();
    RigDescription d;
    std::string error;
    QVERIFY2(readMrig(b, d, &error), error.c_str());
    QCOMPARE(d.name, std::string("sample"));
    QCOMPARE(d.particles.size(), std::size_t(31));
    QCOMPARE(d.sticks.size(), std::size_t(13));
    QCOMPARE(d.particles[30].name, std::string("p30"));
    QCOMPARE(d.particles[7].id, 107u);
    QCOMPARE(d.sticks[12].b, 13);
    QCOMPARE(d.shapes[1].tetra[3], 30);
    QCOMPARE(d.bindings[1].index, 3);
    QCOMPARE(d.bones[2].parent, 1);
    QCOMPARE(d.settings.iterations, 8u); // a 1.0 file: one substep of the 8 iterations per step
    QCOMPARE(d.settings.substeps, 1u);
    QVERIFY(d.settings.selfCollision);
}

// Every proper prefix of a valid file is refused, with the message of the first check it fails.
void TestMrigReader::truncation_everyPrefixIsRefused()
{
    const Bytes full = writeMrig(runtime::makeHumanoid());
    QVERIFY(full.size() > 1000);
    for (std::size_t n = 0; n < full.size(); ++n) {
        const Bytes prefix(full.begin(), full.begin() + std::ptrdiff_t(n));
        const std::string e = readError(prefix);
        std::string expected;
        if (n < 12)
            expected = "file is " + std::to_string(n) + " bytes, too small for a .mrig header (64 bytes)";
        else if (n < 64)
            expected = "header: file is " + std::to_string(n) + " bytes, shorter than the 64-byte header";
        else
            expected = "header.fileSize: the header says " + std::to_string(full.size()) + " bytes but the file has " +
                       std::to_string(n) + " (truncated or extended)";
        if (e != expected)
            QFAIL(qPrintable(QStringLiteral("prefix of %1 bytes: '%2', expected '%3'")
                                 .arg(n)
                                 .arg(QString::fromStdString(e), QString::fromStdString(expected))));
    }
    Bytes longer = full;
    longer.push_back(std::byte{0});
    QCOMPARE(QString::fromStdString(readError(longer)),
             QStringLiteral("header.fileSize: the header says %1 bytes but the file has %2 (truncated or extended)")
                 .arg(full.size())
                 .arg(full.size() + 1));
}

// Flipping any one bit of a valid file is caught, and by the check that covers that byte: the magic, the
// version, the header checksum or a header bound; the table checksum; the chunk's payload checksum; or the
// zero-padding rule.
void TestMrigReader::bitFlip_everySingleBitIsCaught()
{
    const Bytes good = writeMrig(runtime::makeHumanoid());
    const auto h = peek<mrig::FileHeader>(good, 0);
    struct Region {
        std::uint64_t begin, end;
        std::string tag;
    };
    std::vector<Region> payloads;
    for (std::uint32_t i = 0; i < h.chunkCount; ++i) {
        const auto e = peek<mrig::ChunkEntry>(good, 64 + 32 * std::size_t(i));
        const char t[5] = {char(e.tag), char(e.tag >> 8), char(e.tag >> 16), char(e.tag >> 24), 0};
        payloads.push_back({e.offset, e.offset + e.size, t});
    }
    int caught = 0;
    for (std::size_t byte = 0; byte < good.size(); ++byte)
        for (int bit = 0; bit < 8; ++bit) {
            Bytes b = good;
            b[byte] ^= std::byte(1u << bit);
            const std::string e = readError(b);
            std::string expectedStart;
            if (byte < 8)
                expectedStart = "header.magic: not a .mrig file";
            else if (byte < 10)
                expectedStart = (byte == 8 && bit == 0) ? "header.versionMajor: 0 is not a valid version"
                                                        : "made by a newer Marionette (format ";
            else if (byte < 64)
                expectedStart = "header.";
            else if (byte < h.chunkTableOffset + 32 * h.chunkCount)
                expectedStart = "header.chunkTableCrc: checksum mismatch";
            else {
                expectedStart = "padding byte at offset " + std::to_string(byte) + " is not zero";
                for (const Region& r : payloads)
                    if (byte >= r.begin && byte < r.end)
                        expectedStart = r.tag + ": payload checksum mismatch";
            }
            if (e.rfind(expectedStart, 0) != 0)
                QFAIL(qPrintable(QStringLiteral("flip of bit %1 of byte %2: '%3', expected it to start with '%4'")
                                     .arg(bit)
                                     .arg(byte)
                                     .arg(QString::fromStdString(e), QString::fromStdString(expectedStart))));
            ++caught;
        }
    QCOMPARE(caught, int(good.size() * 8));
}

// A file from a future 1.3 writer: 80-byte header, 40-byte table entries, an informational flag, an
// unknown chunk, larger particle and bone records. It loads, and gives the same rig as the 1.0 layout.
void TestMrigReader::newerMinor_extensionsAreSkipped()
{
    const RawRig raw = rawSample();
    RigDescription expected;
    std::string error;
    QVERIFY2(readMrig(builderFor(raw).build(), expected, &error), error.c_str());

    MrigBuilder b = builderFor(raw);
    b.minor = 3;
    b.headerSize = 80;
    b.entrySize = 40;
    b.flags = 1u << 16;
    const Bytes extra = toBytes("future data!", 12);
    b.chunks.insert(b.chunks.begin() + 4, RawChunk{mrig::makeTag('X', 'T', 'R', 'A'), extra, 3, 4, {}, {}, {}});
    b.remove(mrig::kTagParticles); // re-added with larger records, as is BONE
    b.remove(mrig::kTagBones);
    b.add(mrig::kTagParticles, raw.particles, 52);
    b.add(mrig::kTagBones, raw.bones, 224);
    const Bytes file = b.build();

    RigDescription d;
    QVERIFY2(readMrig(file, d, &error), error.c_str());
    QCOMPARE(QString::fromStdString(diffRigs(expected, d)), QString());
    MrigInfo info;
    QVERIFY(readMrigInfo(file, info, &error));
    QCOMPARE(info.versionMajor, std::uint16_t(1));
    QCOMPARE(info.versionMinor, std::uint16_t(3));
    QCOMPARE(info.flags, 1u << 16);
    QCOMPARE(info.chunkCount, 13u);
    QCOMPARE(info.unknownChunks, 1u);
    QCOMPARE(info.particles, 31u);

    // A required flag this version does not know is refused.
    b.flags = 1u << 3;
    QCOMPARE(QString::fromStdString(readError(b.build())),
             QStringLiteral("header.flags: unknown required flags 0x00000008 (a feature of a newer Marionette)"));
}

void TestMrigReader::newerMajor_isRefusedWithExactMessage_data()
{
    QTest::addColumn<Bytes>("file");
    QTest::addColumn<QString>("message");
    const auto built = [](std::uint16_t major, std::uint16_t minor) {
        MrigBuilder b = builderFor(rawSample());
        b.major = major;
        b.minor = minor;
        return b.build();
    };
    QTest::newRow("2.0") << built(2, 0) << "made by a newer Marionette (format 2.0); this build reads up to 1.3";
    QTest::newRow("2.7") << built(2, 7) << "made by a newer Marionette (format 2.7); this build reads up to 1.3";
    QTest::newRow("65535.65535") << built(65535, 65535)
                                 << "made by a newer Marionette (format 65535.65535); this build reads up to 1.3";
    // A 3.1 file whose header layout changed completely: only magic and version are read.
    Bytes tiny = toBytes("MRIG\r\n\x1a\n", 8);
    for (std::byte v : {std::byte{3}, std::byte{0}, std::byte{1}, std::byte{0}, std::byte{0xEE}})
        tiny.push_back(v);
    QTest::newRow("3.1, 13 bytes, different layout")
        << tiny << "made by a newer Marionette (format 3.1); this build reads up to 1.3";
}

void TestMrigReader::newerMajor_isRefusedWithExactMessage()
{
    QFETCH(Bytes, file);
    QFETCH(QString, message);
    QCOMPARE(QString::fromStdString(readError(file)), message);
    MrigInfo info;
    std::string error;
    QVERIFY(!readMrigInfo(file, info, &error));
    QCOMPARE(QString::fromStdString(error), message);
}

// Records written by a newer minor version with a larger record size: the reader reads the known prefix
// of each and the view exposes them packed at this version's size.
void TestMrigReader::recordSize_largerReadsKnownPrefix()
{
    const RawRig raw = rawSample();
    MrigBuilder b;
    b.addBytes(mrig::kTagStrings, toBytes(raw.strings.data(), raw.strings.size()), std::uint32_t(raw.strings.size()), 1);
    b.add(mrig::kTagSettings, std::vector<mrig::SettingsRecord>{raw.settings}, 64);
    b.add(mrig::kTagParticles, raw.particles, 44 + 20);
    b.add(mrig::kTagSticks, raw.sticks, 64 + 4);
    b.add(mrig::kTagTriangles, raw.triangles, 24 + 104);
    b.add(mrig::kTagBones, raw.bones, 208 + 16);
    const RawRig raw11 = rawSample11();
    b.add(mrig::kTagSolver, std::vector<mrig::SolverRecord>{*raw11.solver}, 24 + 8);
    b.add(mrig::kTagAngularFriction, std::vector<mrig::AngularFrictionRecord>{}, 8 + 4);
    b.add(mrig::kTagBendDamping, std::vector<mrig::BendDampingRecord>{}, 4 + 12);
    b.minor = 3;
    MrigView view;
    std::string error;
    QVERIFY2(view.open(b.build(), &error), error.c_str());
    QCOMPARE(view.particles().size(), std::size_t(31));
    for (std::size_t i = 0; i < 31; ++i) {
        QCOMPARE(view.particles()[i].id, raw.particles[i].id);
        QCOMPARE(view.particles()[i].position[1], raw.particles[i].position[1]);
        QCOMPARE(view.particles()[i].bone, raw.particles[i].bone);
    }
    QCOMPARE(view.sticks()[12].particleB, 13);
    QCOMPARE(view.sticks()[12].mask, ~0u);
    QCOMPARE(view.triangles()[1].p[2], 9);
    QCOMPARE(view.bones()[2].parent, 1);
    QCOMPARE(view.bones()[2].inverseBind[15], 1.f);
    QCOMPARE(view.settings().iterations, 8u);
    QVERIFY(view.solver());
    QCOMPARE(view.solver()->substeps, 4u);
    QCOMPARE(view.solver()->staticFrictionSpeed, 0.25f);
    QCOMPARE(std::string(view.string(view.sticks()[5].name)), std::string("s5"));
    RigDescription d;
    QVERIFY2(view.toDescription(d, &error), error.c_str());
    QCOMPARE(d.triangles[1].p[0], 5);
    QVERIFY(d.angular.empty()); // absent optional chunks are empty
    QCOMPARE(d.settings.substeps, 4u);
    QCOMPARE(d.settings.iterations, 3u);
}

void TestMrigReader::recordSize_smallerIsRefused_data()
{
    QTest::addColumn<Mutator>("mutate");
    QTest::addColumn<QString>("message");
    const RawRig raw = rawSample();
    QTest::newRow("PART 40") << Mutator([raw](MrigBuilder& b) {
        b.remove(mrig::kTagParticles);
        b.add(mrig::kTagParticles, raw.particles, 40);
    }) << "PART: record size 40 is smaller than 44, the size in format 1.0";
    QTest::newRow("BONE 0") << Mutator([](MrigBuilder& b) {
        RawChunk* c = b.find(mrig::kTagBones);
        c->payload.clear();
        c->recordSize = 0;
    }) << "BONE: record size 0 is smaller than 208, the size in format 1.0";
    QTest::newRow("STCK 66") << Mutator([raw](MrigBuilder& b) {
        b.remove(mrig::kTagSticks);
        b.add(mrig::kTagSticks, raw.sticks, 66);
    }) << "STCK: record size 66 is not a multiple of 4";
    QTest::newRow("STRS 2") << Mutator([](MrigBuilder& b) {
        b.chunks[0].recordSize = 2;
        b.chunks[0].count = std::uint32_t(b.chunks[0].payload.size() / 2);
        b.chunks[0].payload.resize(b.chunks[0].count * 2);
    }) << "STRS: record size 2, expected 1";
    QTest::newRow("SOLV 16") << Mutator([](MrigBuilder& b) {
        b.add(mrig::kTagSolver, std::vector<mrig::SolverRecord>{*rawSample11().solver}, 16);
    }) << "SOLV: record size 16 is smaller than 24, the size in format 1.1";
    QTest::newRow("PINF 0") << Mutator([](MrigBuilder& b) {
        b.addBytes(mrig::kTagPinStiffness, {}, 1, 0);
    }) << "PINF: record size 0 is smaller than 4, the size in format 1.1";
    QTest::newRow("BNDD 0") << Mutator([](MrigBuilder& b) {
        b.addBytes(mrig::kTagBendDamping, {}, 1, 0);
    }) << "BNDD: record size 0 is smaller than 4, the size in format 1.2";
    QTest::newRow("BNDD 6") << Mutator([](MrigBuilder& b) {
        b.addBytes(mrig::kTagBendDamping, Bytes(6), 1, 6);
    }) << "BNDD: record size 6 is not a multiple of 4";
}

void TestMrigReader::recordSize_smallerIsRefused()
{
    QFETCH(Mutator, mutate);
    QFETCH(QString, message);
    MrigBuilder b = builderFor(rawSample());
    mutate(b);
    QCOMPARE(QString::fromStdString(readError(b.build())), message);
}

void TestMrigReader::overflow_isCaughtWithCheckedMath_data()
{
    QTest::addColumn<Patcher>("patch");
    QTest::addColumn<QString>("messageStart");
    const int stck = sampleIndex(mrig::kTagSticks);
    const auto entryField = [stck](std::size_t field) { return std::size_t(64 + 32 * stck) + field; };
    QTest::newRow("STCK count 2^32-1")
        << Patcher([=](Bytes& b) { poke<std::uint32_t>(b, entryField(offsetof(mrig::ChunkEntry, count)), 0xFFFFFFFFu); })
        << QStringLiteral("chunk table[%1] 'STCK': size 832 is not count 4294967295 x record size 64").arg(stck);
    QTest::newRow("STCK count and record size 2^32-4")
        << Patcher([=](Bytes& b) {
               poke<std::uint32_t>(b, entryField(offsetof(mrig::ChunkEntry, count)), 0xFFFFFFFCu);
               poke<std::uint32_t>(b, entryField(offsetof(mrig::ChunkEntry, recordSize)), 0xFFFFFFFCu);
               poke<std::uint64_t>(b, entryField(offsetof(mrig::ChunkEntry, size)), 0xFFFFFFF800000010ull);
           })
        << QStringLiteral("chunk table[%1] 'STCK': 18446744039349813264 bytes at offset ").arg(stck);
    QTest::newRow("STCK size 2^64-16 (offset + size wraps)")
        << Patcher([=](Bytes& b) { poke<std::uint64_t>(b, entryField(offsetof(mrig::ChunkEntry, size)), ~0ull - 15); })
        << QStringLiteral("chunk table[%1] 'STCK': 18446744073709551600 bytes at offset ").arg(stck);
    QTest::newRow("STCK offset 2^64-16")
        << Patcher([=](Bytes& b) { poke<std::uint64_t>(b, entryField(offsetof(mrig::ChunkEntry, offset)), ~0ull - 15); })
        << QStringLiteral("chunk table[%1] 'STCK': 832 bytes at offset 18446744073709551600 run past the end").arg(stck);
    QTest::newRow("STCK 2^30 records of 64 bytes")
        << Patcher([=](Bytes& b) {
               poke<std::uint32_t>(b, entryField(offsetof(mrig::ChunkEntry, count)), 1u << 30);
               poke<std::uint64_t>(b, entryField(offsetof(mrig::ChunkEntry, size)), 64ull << 30);
           })
        << QStringLiteral("chunk table[%1] 'STCK': 68719476736 bytes at offset ").arg(stck);
    QTest::newRow("chunk table 2^32-1 entries of 2^32-1 bytes")
        << Patcher([](Bytes& b) {
               poke<std::uint32_t>(b, offsetof(mrig::FileHeader, chunkCount), 0xFFFFFFFFu);
               poke<std::uint32_t>(b, offsetof(mrig::FileHeader, chunkEntrySize), 0xFFFFFFFFu);
           })
        << QStringLiteral("header.chunkCount: 4294967295 entries of 4294967295 bytes at offset 64 run past the end");
    QTest::newRow("chunk table offset 2^64-16")
        << Patcher([](Bytes& b) { poke<std::uint64_t>(b, offsetof(mrig::FileHeader, chunkTableOffset), ~0ull - 15); })
        << QStringLiteral("header.chunkCount: 12 entries of 32 bytes at offset 18446744073709551600 run past the end");
    QTest::newRow("header size 2^32-1")
        << Patcher([](Bytes& b) { poke<std::uint32_t>(b, offsetof(mrig::FileHeader, headerSize), 0xFFFFFFFFu); })
        << QStringLiteral("header.headerSize: 4294967295 runs past the end of the file");
    QTest::newRow("name at offset 2^32-1, length 2^32-1")
        << Patcher([](Bytes& b) {
               const std::size_t part = payloadOffset(b, mrig::kTagParticles);
               poke<mrig::StringRef>(b, part + 5 * sizeof(mrig::ParticleRecord) + 4, {0xFFFFFFFFu, 0xFFFFFFFFu});
           })
        << QStringLiteral("PART[5].name: string at offset 4294967295, length 4294967295 runs past the end of the string table");
}

// Each patch is followed by fixChecksums(), so the file reaches the check under test.
void TestMrigReader::overflow_isCaughtWithCheckedMath()
{
    QFETCH(Patcher, patch);
    QFETCH(QString, messageStart);
    Bytes b = sampleFile();
    patch(b);
    fixChecksums(b);
    const QString e = QString::fromStdString(readError(b));
    QVERIFY2(e.startsWith(messageStart), qPrintable(e));
}

void TestMrigReader::allocation_isBoundedByInputSize_data()
{
    QTest::addColumn<Bytes>("file");
    QTest::addColumn<bool>("valid");
    QTest::newRow("humanoid") << writeMrig(runtime::makeHumanoid()) << true;
    QTest::newRow("full rig") << writeMrig(fullRig()) << true;
    QTest::newRow("cloth 32x32") << writeMrig(runtime::makeCloth(32, 32, 0.05f)) << true;
    // 31 particles all naming the whole string table: 31 × table bytes if materialised.
    RawRig raw = rawSample();
    raw.strings.append(4000, 'x');
    for (auto& p : raw.particles)
        p.name = {0, std::uint32_t(raw.strings.size())};
    QTest::newRow("every name is the whole table") << builderFor(raw).build() << false;
    Bytes huge = sampleFile();
    poke<std::uint32_t>(huge, offsetof(mrig::FileHeader, chunkCount), 0x7FFFFFFFu);
    fixChecksums(huge);
    QTest::newRow("2^31 chunk entries claimed") << huge << false;
}

// Bytes requested from operator new while reading, in total, against the input size: the copy of the file,
// the element vectors (a Particle is larger than its record) and names.
void TestMrigReader::allocation_isBoundedByInputSize()
{
    QFETCH(Bytes, file);
    QFETCH(bool, valid);
    RigDescription d;
    std::string error;
    d.particles.reserve(1); // warm up the containers outside the counted window
    gAllocated = gLargest = 0;
    gCounting = true;
    const bool ok = readMrig(file, d, &error);
    gCounting = false;
    QCOMPARE(ok, valid);
    const std::size_t bound = 4 * file.size() + 4096;
    QVERIFY2(gAllocated <= bound, qPrintable(QStringLiteral("%1 bytes allocated reading %2 bytes (bound %3)")
                                                 .arg(gAllocated)
                                                 .arg(file.size())
                                                 .arg(bound)));
    QVERIFY(gLargest <= file.size() + 16 || gLargest <= 4096);
    if (!valid)
        QVERIFY(!error.empty());
}

QTEST_GUILESS_MAIN(TestMrigReader)
#include "tst_mrigreader.moc"
