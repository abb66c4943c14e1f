// Helpers shared by the Qt .mrig suites (tst_mrigreader, tst_mrigformat11, tst_mrigformat12): what the reader
// says of a file, a chunk renamed to a tag no reader knows, and the hostile-file test every format version's
// crafted cases go through. Header-only.
#pragma once

#include "MrigFormat11Cases.h"
#include "MrigTestSupport.h"

#include "marionette/rig/Mrig.h"

#include <QtTest/QtTest>

#include <cstdint>
#include <string>
#include <vector>

namespace marionette::test {

/// "OK", or the one-line message readMrig() refuses `bytes` with.
inline std::string readError(const Bytes& bytes)
{
    rig::RigDescription out;
    std::string error;
    return rig::readMrig(bytes, out, &error) ? std::string("OK") : error;
}

/// The bytes with the chunk `tag` renamed to `to` (an unknown tag): what a reader that does not know `tag`
/// sees. Checksums are recomputed.
inline Bytes renameChunk(Bytes b, std::uint32_t tag, std::uint32_t to)
{
    const std::size_t at = entryOffset(b, tag);
    if (at != 0)
        poke(b, at, to);
    fixChecksums(b);
    return b;
}

/// Data rows of a hostile-file test: each crafted case, the reader's exact message, and whether the zero-copy
/// view opens it (valid files, and files only validate() refuses).
inline void addHostileFileRows(const std::vector<CorpusCase>& cases)
{
    QTest::addColumn<Bytes>("file");
    QTest::addColumn<QString>("message");
    QTest::addColumn<bool>("viewOpens");
    for (const CorpusCase& c : cases)
        QTest::newRow(c.file.c_str()) << c.bytes << QString::fromStdString(c.expected)
                                      << (c.expected == "OK" || c.file.rfind("bad_validate_", 0) == 0);
}

/// A crafted file gets exactly `message` (one line) from the reader, the view opens it or refuses it with the
/// same message, and the header-only reader either reads it or says why.
inline void checkHostileFile(const Bytes& file, const QString& message, bool viewOpens)
{
    QCOMPARE(QString::fromStdString(readError(file)), message);
    QVERIFY(!message.contains(QLatin1Char('\n')));
    rig::MrigView view;
    std::string error;
    QCOMPARE(view.open(file, &error), viewOpens);
    if (!viewOpens)
        QCOMPARE(QString::fromStdString(error), message);
    rig::MrigInfo info;
    const bool infoOk = rig::readMrigInfo(file, info, &error);
    QVERIFY(infoOk || !error.empty());
}

} // namespace marionette::test

Q_DECLARE_METATYPE(marionette::test::Bytes)
