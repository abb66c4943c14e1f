// editor/core Recovery: a live session's autosave is never offered; a crashed one is (the crash is real: this
// executable re-runs itself with --write-and-crash, autosaves and aborts); recovery gives back the same
// project with its mesh path re-based for where the document lives; removal and clean exits leave nothing;
// a damaged autosave is an error, not a crash.
#include "marionette/editor/document/Recovery.h"
#include "marionette/project/ProjectFile.h"
#include "marionette/runtime/Procedural.h"

#include <QCoreApplication>
#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace marionette;
using editor::RecoveryEntry;
using editor::RecoverySession;

namespace {

const char* const kCrashArgument = "--write-and-crash";

// The document both the crashing child and the test build: the humanoid, with `meshPath` as its mesh.
project::Project makeProject(const QString& meshPath)
{
    project::Project p;
    p.name = QStringLiteral("hero");
    p.rig = runtime::makeHumanoid();
    project::assignMissingIds(p.rig);
    p.sourceMesh.path = meshPath;
    p.editor.selection = {{project::ElementKind::Particle, 3}};
    return p;
}

QByteArray bytesOf(const project::Project& p)
{
    QString error;
    const QByteArray out = project::writeProject(p, error);
    return error.isEmpty() ? out : error.toUtf8();
}

// Child process: autosave into `folder` for a document saved at `originalPath` (or untitled), then die.
[[noreturn]] void writeAndCrash(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    RecoverySession session(args.value(2));
    QString error;
    if (!session.write(makeProject(args.value(4)), args.value(3), error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        std::exit(2);
    }
    const rlimit noCore{0, 0}; // a crash on purpose: no core file
    setrlimit(RLIMIT_CORE, &noCore);
    std::abort();
}

QStringList filesIn(const QString& folder)
{
    return QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
}

} // namespace

class TestRecovery : public QObject {
    Q_OBJECT
    QTemporaryDir mDir;

    QString folder(const QString& name) const { return mDir.filePath(name); }

    // Runs the crashing child; true when it autosaved and then crashed.
    bool crashWriting(const QString& recoveryFolder, const QString& originalPath, const QString& meshPath)
    {
        QProcess child;
        child.start(QCoreApplication::applicationFilePath(), {kCrashArgument, recoveryFolder, originalPath, meshPath});
        if (!child.waitForFinished(30000))
            return false;
        if (child.exitStatus() != QProcess::CrashExit)
            qWarning("child: exit %d: %s", child.exitCode(), child.readAllStandardError().constData());
        return child.exitStatus() == QProcess::CrashExit;
    }

  private slots:
    void initTestCase() { QVERIFY(mDir.isValid()); }

    void write_liveSession_isNotAnOrphan()
    {
        const QString dir = folder("live");
        RecoverySession live(dir);
        QString error;
        QVERIFY2(live.write(makeProject("/assets/hero.glb"), QString(), error), qPrintable(error));
        QVERIFY(QFileInfo::exists(live.recoveryFile()));
        RecoverySession other(dir);
        QVERIFY(other.orphans().empty());
        QVERIFY(live.orphans().empty());
        QVERIFY(QFileInfo::exists(live.recoveryFile())); // looking did not disturb it
    }

    void sessions_inOneProcess_useDistinctFiles()
    {
        const QString dir = folder("many");
        std::vector<std::unique_ptr<RecoverySession>> sessions;
        QSet<QString> files;
        for (int i = 0; i < 8; ++i) { // created within the same millisecond, mostly
            sessions.push_back(std::make_unique<RecoverySession>(dir));
            files.insert(sessions.back()->recoveryFile());
        }
        QCOMPARE(files.size(), 8);
        QString error;
        QVERIFY(sessions[0]->write(makeProject({}), QString(), error));
        for (const auto& s : sessions)
            QVERIFY(s->orphans().empty());
    }

    void discard_onCleanDestruction_leavesNothing()
    {
        const QString dir = folder("clean");
        {
            RecoverySession session(dir);
            QString error;
            QVERIFY2(session.write(makeProject({}), QString(), error), qPrintable(error));
            QVERIFY2(filesIn(dir).size() == 3, qPrintable(filesIn(dir).join(' '))); // .mproj, .json, .lock
            session.discard();
            QVERIFY2(filesIn(dir).size() == 1, qPrintable(filesIn(dir).join(' '))); // the lock, while alive
            QVERIFY(session.write(makeProject({}), QString(), error));
        }
        QCOMPARE(filesIn(dir), QStringList());
    }

    void crash_leavesAnOrphan_thatRecovers_data()
    {
        QTest::addColumn<QString>("originalPath");
        QTest::addColumn<QString>("meshPath");      // as the document holds it
        QTest::addColumn<QString>("displayName");
        const QString dir = mDir.path();
        QTest::newRow("untitled: absolute mesh path")
            << QString() << dir + "/assets/hero.glb" << "Untitled";
        QTest::newRow("saved: mesh relative to the project, not to the recovery folder")
            << dir + "/projects/deep/hero.mproj" << "../../assets/hero.glb" << "hero.mproj";
        QTest::newRow("saved: mesh beside the project") << dir + "/projects/hero.mproj" << "hero.glb" << "hero.mproj";
    }
    void crash_leavesAnOrphan_thatRecovers()
    {
        QFETCH(QString, originalPath);
        QFETCH(QString, meshPath);
        QFETCH(QString, displayName);
        const QString dir = folder(QStringLiteral("crash-%1").arg(QTest::currentDataTag()).replace(' ', '_').replace(':', '_').replace(',', '_'));
        const QDateTime before = QDateTime::currentDateTimeUtc().addSecs(-1);
        QVERIFY(crashWriting(dir, originalPath, meshPath));

        RecoverySession next(dir);
        const std::vector<RecoveryEntry> orphans = next.orphans();
        QCOMPARE(orphans.size(), std::size_t(1));
        const RecoveryEntry& entry = orphans[0];
        QCOMPARE(entry.originalPath, originalPath);
        QCOMPARE(entry.displayName, displayName);
        QVERIFY(entry.savedAt.isValid() && entry.savedAt >= before && entry.savedAt <= QDateTime::currentDateTimeUtc());
        QVERIFY(entry.recoveryFile.startsWith(dir));

        project::Project recovered;
        QString error;
        QVERIFY2(RecoverySession::recover(entry, recovered, error), qPrintable(error));
        QCOMPARE(recovered.sourceMesh.path, meshPath);
        QCOMPARE(bytesOf(recovered), bytesOf(makeProject(meshPath)));

        RecoverySession::remove(entry);
        QCOMPARE(QDir(dir).entryList({"session-*"}).size(), 1); // only `next`'s own lock is left
        QVERIFY(next.orphans().empty());
    }

    void orphans_newestFirst()
    {
        const QString dir = folder("two");
        QVERIFY(crashWriting(dir, mDir.filePath("first.mproj"), "a.glb"));
        QTest::qWait(20);
        QVERIFY(crashWriting(dir, mDir.filePath("second.mproj"), "b.glb"));
        RecoverySession next(dir);
        const auto orphans = next.orphans();
        QCOMPARE(orphans.size(), std::size_t(2));
        QCOMPARE(orphans[0].displayName, QStringLiteral("second.mproj"));
        QCOMPARE(orphans[1].displayName, QStringLiteral("first.mproj"));
        for (const auto& entry : orphans)
            RecoverySession::remove(entry);
        QVERIFY(next.orphans().empty());
    }

    void recover_damagedFile_isAnError_data()
    {
        QTest::addColumn<QByteArray>("contents");
        QTest::newRow("garbage") << QByteArray("\x89garbage{{{ not json", 21);
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("truncated") << QByteArray("{\"format\": \"marionette-project\", \"version\": 1, \"rig\": {\"partic");
        QTest::newRow("valid JSON, not a project") << QByteArray("[1, 2, 3]");
    }
    void recover_damagedFile_isAnError()
    {
        QFETCH(QByteArray, contents);
        const QString dir = folder(QStringLiteral("damaged-%1").arg(QTest::currentDataTag()).replace(' ', '_').replace(',', '_'));
        QVERIFY(crashWriting(dir, QString(), "/assets/hero.glb"));
        RecoverySession next(dir);
        const auto orphans = next.orphans();
        QCOMPARE(orphans.size(), std::size_t(1));
        QFile file(orphans[0].recoveryFile);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(contents);
        file.close();
        project::Project out;
        out.name = QStringLiteral("untouched");
        QString error;
        QVERIFY(!RecoverySession::recover(orphans[0], out, error));
        QVERIFY2(error.contains(QFileInfo(orphans[0].recoveryFile).fileName()), qPrintable(error));
        QCOMPARE(out.name, QStringLiteral("untouched"));
        RecoverySession::remove(orphans[0]);
        QVERIFY(next.orphans().empty());
    }

    void recover_missingFile_isAnError()
    {
        RecoveryEntry entry;
        entry.recoveryFile = folder("nowhere/session-1-2.mproj");
        project::Project out;
        QString error;
        QVERIFY(!RecoverySession::recover(entry, out, error));
        QVERIFY(!error.isEmpty());
        RecoverySession::remove(entry); // nothing there: no harm
    }

    void orphans_sidecarWithoutProject_isSkipped()
    {
        const QString dir = folder("sidecar");
        QVERIFY(crashWriting(dir, QString(), "/a.glb"));
        RecoverySession next(dir);
        const auto orphans = next.orphans();
        QCOMPARE(orphans.size(), std::size_t(1));
        QVERIFY(QFile::remove(orphans[0].recoveryFile));
        QVERIFY(next.orphans().empty());
    }
};

int main(int argc, char** argv)
{
    if (argc >= 2 && std::strcmp(argv[1], kCrashArgument) == 0)
        writeAndCrash(argc, argv);
    QCoreApplication app(argc, argv);
    TestRecovery test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_recovery.moc"
