// Tests of .mrig files on disk: saveMrig writes atomically (a failed save leaves the previous file as it
// was and no temporary file behind: invalid rig, target is a directory, missing folder, a write that fails
// half-way under a file-size limit, a read-only folder), and every file function's error message starts
// with the path (missing file, directory, FIFO, empty, text, bad index).
#include "MrigTestSupport.h"

#include "marionette/rig/Mrig.h"
#include "marionette/runtime/Procedural.h"

#include <QtTest/QtTest>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <functional>

#ifdef Q_OS_UNIX
#include <csignal>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

using namespace marionette;
using namespace marionette::rig;
using namespace marionette::test;

namespace {

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

bool writeAll(const QString& path, const QByteArray& data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

QStringList entries(const QString& dir)
{
    return QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDir::Name);
}

RigDescription invalidRig()
{
    RigDescription d = runtime::makeHumanoid();
    d.sticks[3].stiffness = 0.f;
    return d;
}

} // namespace

class TestMrigFile : public QObject {
    Q_OBJECT

private slots:
    void save_writesWhatWriteMrigReturnsAndLoadsBack();
    void save_replacesExistingFile();
    void save_invalidRigKeepsPreviousFile();
    void save_directoryTargetIsRefused();
    void save_missingFolderIsReported();
    void save_writeFailingHalfwayKeepsPreviousFile();
    void save_readOnlyFolderKeepsPreviousFile();
    void load_errorsStartWithPath_data();
    void load_errorsStartWithPath();
};

void TestMrigFile::save_writesWhatWriteMrigReturnsAndLoadsBack()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("full.mrig"));
    const RigDescription d = fullRig();
    std::string error;
    QVERIFY2(saveMrig(path.toStdString(), d, &error), error.c_str());
    const Bytes expected = writeMrig(d);
    QCOMPARE(readAll(path), QByteArray(reinterpret_cast<const char*>(expected.data()), qsizetype(expected.size())));
    QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("full.mrig")});
    RigDescription back;
    QVERIFY2(loadMrig(path.toStdString(), back, &error), error.c_str());
    QCOMPARE(QString::fromStdString(diffRigs(d, back)), QString());
    MrigView view;
    QVERIFY2(view.load(path.toStdString(), &error), error.c_str());
    QCOMPARE(view.particles().size(), d.particles.size());
    MrigInfo info;
    QVERIFY2(loadMrigInfo(path.toStdString(), info, &error), error.c_str());
    QCOMPARE(info.fileSize, std::uint64_t(expected.size()));
}

void TestMrigFile::save_replacesExistingFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("rig.mrig"));
    QVERIFY(writeAll(path, QByteArray(20000, 'x')));
    std::string error;
    QVERIFY2(saveMrig(path.toStdString(), runtime::makeHumanoid(), &error), error.c_str());
    RigDescription back;
    QVERIFY2(loadMrig(path.toStdString(), back, &error), error.c_str());
    QCOMPARE(back.particles.size(), std::size_t(20));
    QCOMPARE(QFileInfo(path).size(), qint64(writeMrig(runtime::makeHumanoid()).size()));
    QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("rig.mrig")});
}

void TestMrigFile::save_invalidRigKeepsPreviousFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("rig.mrig"));
    QVERIFY(writeAll(path, "previous"));
    std::string error;
    QVERIFY(!saveMrig(path.toStdString(), invalidRig(), &error));
    QCOMPARE(QString::fromStdString(error), path + QStringLiteral(": ") + QString::fromStdString(invalidRig().validate()));
    QVERIFY(error.find("stiffness 0 outside (0, 1]") != std::string::npos);
    QCOMPARE(readAll(path), QByteArray("previous"));
    QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("rig.mrig")});
}

void TestMrigFile::save_directoryTargetIsRefused()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("rig.mrig"));
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("rig.mrig")));
    QVERIFY(writeAll(path + QStringLiteral("/inside"), "kept"));
    std::string error;
    QVERIFY(!saveMrig(path.toStdString(), runtime::makeHumanoid(), &error));
    QCOMPARE(QString::fromStdString(error), path + QStringLiteral(": cannot save: it is a directory"));
    QVERIFY(QFileInfo(path).isDir());
    QCOMPARE(readAll(path + QStringLiteral("/inside")), QByteArray("kept"));
    QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("rig.mrig")});
}

void TestMrigFile::save_missingFolderIsReported()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("missing/rig.mrig"));
    std::string error;
    QVERIFY(!saveMrig(path.toStdString(), runtime::makeHumanoid(), &error));
    QCOMPARE(QString::fromStdString(error),
             path + QStringLiteral(": cannot create a temporary file in its folder: No such file or directory"));
    QVERIFY(entries(dir.path()).isEmpty());
}

// A file-size limit (RLIMIT_FSIZE, honoured for root too) makes the write fail after 1 KiB of the ~9 KiB
// humanoid: the temporary file is removed and the previous file is untouched.
void TestMrigFile::save_writeFailingHalfwayKeepsPreviousFile()
{
#ifdef Q_OS_UNIX
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("rig.mrig"));
    QVERIFY(writeAll(path, "previous"));
    rlimit old{};
    QCOMPARE(getrlimit(RLIMIT_FSIZE, &old), 0);
    rlimit small = old;
    small.rlim_cur = 1024;
    const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
    QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
    std::string error;
    const bool saved = saveMrig(path.toStdString(), runtime::makeHumanoid(), &error);
    setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, oldHandler);
    QVERIFY(!saved);
    QCOMPARE(QString::fromStdString(error), path + QStringLiteral(": write failed: File too large"));
    QCOMPARE(readAll(path), QByteArray("previous"));
    QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("rig.mrig")});
    // And with the limit lifted the same save succeeds.
    QVERIFY2(saveMrig(path.toStdString(), runtime::makeHumanoid(), &error), error.c_str());
#else
    QSKIP("needs RLIMIT_FSIZE");
#endif
}

void TestMrigFile::save_readOnlyFolderKeepsPreviousFile()
{
#ifdef Q_OS_UNIX
    if (geteuid() == 0)
        QSKIP("root writes into read-only folders; the half-way write failure above covers this path");
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("rig.mrig"));
    QVERIFY(writeAll(path, "previous"));
    QVERIFY(QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::ExeOwner));
    std::string error;
    const bool saved = saveMrig(path.toStdString(), runtime::makeHumanoid(), &error);
    QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QVERIFY(!saved);
    QCOMPARE(QString::fromStdString(error),
             path + QStringLiteral(": cannot create a temporary file in its folder: Permission denied"));
    QCOMPARE(readAll(path), QByteArray("previous"));
#else
    QSKIP("POSIX permissions");
#endif
}

void TestMrigFile::load_errorsStartWithPath_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("contents"); // null: do not create
    QTest::addColumn<QString>("message");
    QTest::newRow("missing") << "missing.mrig" << QByteArray() << "cannot open: No such file or directory";
    QTest::newRow("directory") << "folder.mrig" << QByteArray() << "cannot open: it is a directory";
#ifdef Q_OS_UNIX
    // A FIFO with no writer: opening it must not block, and it is refused.
    QTest::newRow("fifo") << "fifo.mrig" << QByteArray() << "cannot open: not a regular file";
#endif
    QTest::newRow("empty") << "empty.mrig" << QByteArray("") << "file is 0 bytes, too small for a .mrig header (64 bytes)";
    QTest::newRow("text") << "text.mrig" << QByteArray("hello, this is not a rig at all, honestly; just text.\n")
                          << "header.magic: not a .mrig file (it must start with \"MRIG\\r\\n\\x1a\\n\")";
    RawRig raw = rawSample();
    raw.sticks[12].particleB = 40;
    const Bytes bad = builderFor(raw).build();
    QTest::newRow("bad index") << "index.mrig" << QByteArray(reinterpret_cast<const char*>(bad.data()), qsizetype(bad.size()))
                               << "STCK[12].particleB: index 40 out of range (31 particles)";
}

void TestMrigFile::load_errorsStartWithPath()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, contents);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString path = dir.filePath(name);
    if (name.startsWith(QLatin1String("folder")))
        QVERIFY(QDir(dir.path()).mkdir(name));
#ifdef Q_OS_UNIX
    else if (name.startsWith(QLatin1String("fifo")))
        QCOMPARE(mkfifo(QFile::encodeName(path).constData(), 0600), 0);
#endif
    else if (!contents.isNull())
        QVERIFY(writeAll(path, contents));
    const QString expected = path + QStringLiteral(": ") + message;
    RigDescription rig;
    std::string error;
    QVERIFY(!loadMrig(path.toStdString(), rig, &error));
    QCOMPARE(QString::fromStdString(error), expected);
    MrigView view;
    QVERIFY(!view.load(path.toStdString(), &error));
    QCOMPARE(QString::fromStdString(error), expected);
    QVERIFY(!view.isOpen());
    MrigInfo info;
    const bool infoOk = loadMrigInfo(path.toStdString(), info, &error);
    if (name != QLatin1String("index.mrig")) { // info does not look at records
        QVERIFY(!infoOk);
        QCOMPARE(QString::fromStdString(error), expected);
    } else {
        QVERIFY(infoOk);
        QCOMPARE(info.sticks, 13u);
    }
}

QTEST_GUILESS_MAIN(TestMrigFile)
#include "tst_mrigfile.moc"
