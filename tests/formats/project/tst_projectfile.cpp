// Project files on disk: save then load gives the same project; a save that fails at any point (abandoned
// before commit, cancelled, refused for its content, aimed at a folder or a missing folder) leaves the
// previous file byte for byte and no temporary file behind; loading refuses missing, folder and oversized
// paths with one line and allocates for the file's size, not the size limit; the source mesh helpers hash
// files and resolve paths relative to the project.
#include "marionette/project/Migration.h"
#include "marionette/project/ProjectFile.h"

#include <QtTest/QtTest>

#include <QSaveFile>
#include <QTemporaryDir>

#include "ProjectTestSupport.h"

using namespace marionette;
using namespace marionette::project;
using namespace marionette::test;

// ---- the largest block malloc()/realloc() hand out while gMeasuring is set (glibc; Qt allocates with malloc) ---

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
#define MARIONETTE_MEASURES_MALLOC 1
extern "C" void* __libc_malloc(std::size_t size);
extern "C" void* __libc_realloc(void* p, std::size_t size);

namespace {
bool gMeasuring = false;
std::size_t gLargestBlock = 0;

void measure(std::size_t size)
{
    if (gMeasuring && size > gLargestBlock)
        gLargestBlock = size;
}
} // namespace

extern "C" void* malloc(std::size_t size) noexcept
{
    measure(size);
    return __libc_malloc(size);
}

extern "C" void* realloc(void* p, std::size_t size) noexcept
{
    measure(size);
    return __libc_realloc(p, size);
}
#endif

namespace {

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

QStringList entries(const QString& folder)
{
    return QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

/// A different, valid project to save over the original.
Project otherProject()
{
    Project p = fullProject();
    p.name = QStringLiteral("Robot, afternoon edits");
    p.rig.particles[0].mass = 99.f;
    return p;
}

} // namespace

class TestProjectFile : public QObject {
    Q_OBJECT

  private slots:
    void init();
    void save_thenLoad_givesTheSameProject();
    void save_abandonedBeforeCommit_keepsThePreviousFile();
    void save_cancelledAfterWritingGarbage_keepsThePreviousFile();
    void save_refusedContent_keepsThePreviousFile();
    void save_ontoAFolder_failsAndKeepsTheFolder();
    void save_intoAMissingFolder_failsWithoutCreatingIt();
    void load_missingFolderOrHugeFile_failsWithOneLine();
    void load_emptyFile_isASyntaxError();
    void load_smallFile_allocatesForItsSizeNotTheLimit();
    void sourceMesh_hashesFilesAndResolvesPaths();

  private:
    std::unique_ptr<QTemporaryDir> mDir;
    QString mPath;
    QByteArray mOriginal;
};

// Every test starts with fullProject() saved as robot.mproj in a fresh folder.
void TestProjectFile::init()
{
    mDir = std::make_unique<QTemporaryDir>();
    QVERIFY(mDir->isValid());
    mPath = mDir->filePath(QStringLiteral("robot.mproj"));
    const SaveResult r = saveProject(mPath, fullProject());
    QVERIFY2(r.ok(), qPrintable(r.error));
    mOriginal = readFile(mPath);
    QVERIFY(mOriginal.size() > 1000);
    QCOMPARE(entries(mDir->path()), QStringList{QStringLiteral("robot.mproj")});
}

void TestProjectFile::save_thenLoad_givesTheSameProject()
{
    Project loaded;
    const LoadResult r = loadProject(mPath, loaded);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.fileVersion, kProjectVersion);
    QCOMPARE(firstDifference(fullProject(), loaded), QString());
    QString error;
    QCOMPARE(mOriginal, writeProject(fullProject(), error)); // the file is exactly writeProject()'s text

    const SaveResult second = saveProject(mPath, otherProject());
    QVERIFY2(second.ok(), qPrintable(second.error));
    QVERIFY(loadProject(mPath, loaded).ok());
    QCOMPARE(loaded.name, QStringLiteral("Robot, afternoon edits"));
    QCOMPARE(loaded.rig.particles[0].mass, 99.f);
    QCOMPARE(entries(mDir->path()), QStringList{QStringLiteral("robot.mproj")});
}

// The temporary file holds the whole new document when the save is abandoned: the rename never happens.
void TestProjectFile::save_abandonedBeforeCommit_keepsThePreviousFile()
{
    SaveOptions options;
    qint64 pending = -1;
    options.beforeCommit = [&](QSaveFile& file) {
        pending = file.size();
        return false;
    };
    const SaveResult r = saveProject(mPath, otherProject(), options);
    QCOMPARE(r.error, mPath + QStringLiteral(": not saved: the save was abandoned before completion"));
    QString error;
    QCOMPARE(pending, qint64(writeProject(otherProject(), error).size()));
    QCOMPARE(readFile(mPath), mOriginal);
    QCOMPARE(entries(mDir->path()), QStringList{QStringLiteral("robot.mproj")});
}

// As if the disk filled up half-way: the temporary file gets garbage and the write is cancelled.
void TestProjectFile::save_cancelledAfterWritingGarbage_keepsThePreviousFile()
{
    SaveOptions options;
    options.beforeCommit = [](QSaveFile& file) {
        file.write("{\"truncated");
        file.cancelWriting();
        return true; // commit() itself must then fail
    };
    const SaveResult r = saveProject(mPath, otherProject(), options);
    QCOMPARE(r.error, mPath + QStringLiteral(": not saved: Writing canceled by application"));
    QCOMPARE(readFile(mPath), mOriginal);
    QCOMPARE(entries(mDir->path()), QStringList{QStringLiteral("robot.mproj")});
}

void TestProjectFile::save_refusedContent_keepsThePreviousFile()
{
    Project p = otherProject();
    p.rig.sticks[1].id = p.rig.sticks[0].id;
    SaveResult r = saveProject(mPath, p);
    QCOMPARE(r.error,
             mPath + QStringLiteral(": not saved: $.rig.sticks[1].id: duplicate stick id 7 (also $.rig.sticks[0].id)"));
    QCOMPARE(readFile(mPath), mOriginal);

    p = otherProject();
    p.rig.particles.push_back(rig::Particle{});
    p.rig.particles.back().name = "new particle";
    r = saveProject(mPath, p);
    QCOMPARE(r.error, mPath + QStringLiteral(": not saved: $.rig.particles[5].id: the particle 'new particle' has no "
                                             "id (0); assignMissingIds() gives it one"));
    QCOMPARE(readFile(mPath), mOriginal);
    QCOMPARE(assignMissingIds(p), std::size_t(1));
    QCOMPARE(p.rig.particles.back().id, 51u);
    QVERIFY(saveProject(mPath, p).ok());
    QVERIFY(readFile(mPath) != mOriginal);
    QCOMPARE(entries(mDir->path()), QStringList{QStringLiteral("robot.mproj")});
}

void TestProjectFile::save_ontoAFolder_failsAndKeepsTheFolder()
{
    const QString folder = mDir->filePath(QStringLiteral("folder.mproj"));
    QVERIFY(QDir().mkdir(folder));
    QFile inside(folder + QStringLiteral("/keep.txt"));
    QVERIFY(inside.open(QIODevice::WriteOnly) && inside.write("keep") == 4);
    inside.close();
    const SaveResult r = saveProject(folder, fullProject());
    QCOMPARE(r.error, folder + QStringLiteral(": not saved: Filename refers to a directory"));
    QVERIFY(QFileInfo(folder).isDir());
    QCOMPARE(entries(folder), QStringList{QStringLiteral("keep.txt")});
    QCOMPARE(readFile(folder + QStringLiteral("/keep.txt")), QByteArray("keep"));
    QCOMPARE(entries(mDir->path()), (QStringList{QStringLiteral("folder.mproj"), QStringLiteral("robot.mproj")}));
}

void TestProjectFile::save_intoAMissingFolder_failsWithoutCreatingIt()
{
    const QString path = mDir->filePath(QStringLiteral("missing/robot.mproj"));
    const SaveResult r = saveProject(path, fullProject());
    QCOMPARE(r.error, path + QStringLiteral(": not saved: No such file or directory"));
    QVERIFY(!QFileInfo::exists(mDir->filePath(QStringLiteral("missing"))));
    QCOMPARE(entries(mDir->path()), QStringList{QStringLiteral("robot.mproj")});
}

void TestProjectFile::load_missingFolderOrHugeFile_failsWithOneLine()
{
    Project out;
    out.name = QStringLiteral("sentinel");
    const QString missing = mDir->filePath(QStringLiteral("nothing.mproj"));
    QCOMPARE(loadProject(missing, out).error, missing + QStringLiteral(": cannot open: no such file"));
    QCOMPARE(loadProject(mDir->path(), out).error, mDir->path() + QStringLiteral(": cannot open: it is a folder"));

    // A sparse file one byte over the limit: refused after reading at most the limit plus one byte.
    const QString huge = mDir->filePath(QStringLiteral("huge.mproj"));
    QFile f(huge);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(kMaxProjectFileBytes + 1));
    f.close();
    QCOMPARE(loadProject(huge, out).error, huge + QStringLiteral(": larger than 64 MiB, the limit for a project file"));
    QCOMPARE(out.name, QStringLiteral("sentinel"));
}

void TestProjectFile::load_emptyFile_isASyntaxError()
{
    const QString empty = mDir->filePath(QStringLiteral("empty.mproj"));
    QFile f(empty);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.close();
    Project out;
    const LoadResult r = loadProject(empty, out);
    QCOMPARE(r.error, empty + QStringLiteral(": invalid JSON at line 1, column 1 (offset 0): illegal value"));
    QCOMPARE(r.fileVersion, -1);
}

// Found by fuzz_mproj: loadProject() read with QIODevice::read(kMaxProjectFileBytes + 1), which sets aside
// the whole limit before reading (128 MiB with Qt's growth) for every file, however small.
void TestProjectFile::load_smallFile_allocatesForItsSizeNotTheLimit()
{
#ifdef MARIONETTE_MEASURES_MALLOC
    Project out;
    gLargestBlock = 0;
    gMeasuring = true;
    const LoadResult r = loadProject(mPath, out);
    gMeasuring = false;
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(firstDifference(fullProject(), out), QString());
    QVERIFY2(gLargestBlock < std::size_t(16 * mOriginal.size()),
             qPrintable(QStringLiteral("a %1-byte block to load %2 bytes").arg(gLargestBlock).arg(mOriginal.size())));
#else
    QSKIP("measures malloc() through glibc, without AddressSanitizer");
#endif
}

void TestProjectFile::sourceMesh_hashesFilesAndResolvesPaths()
{
    // FIPS 180-2 example: SHA-256("abc"); and the hash of nothing.
    const QString mesh = mDir->filePath(QStringLiteral("meshes/robot.fbx"));
    QVERIFY(QDir(mDir->path()).mkpath(QStringLiteral("meshes")));
    QFile f(mesh);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write("abc") == 3);
    f.close();
    QString error;
    QCOMPARE(SourceMesh::hashFile(mesh, &error),
             QStringLiteral("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    QCOMPARE(error, QString());
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.close();
    QCOMPARE(SourceMesh::hashFile(mesh),
             QStringLiteral("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));

    const QString missing = mDir->filePath(QStringLiteral("meshes/gone.fbx"));
    QCOMPARE(SourceMesh::hashFile(missing, &error), QString());
    QCOMPARE(error, missing + QStringLiteral(": cannot read the mesh: no such file"));
    QCOMPARE(SourceMesh::hashFile(mDir->path(), &error), QString());
    QCOMPARE(error, mDir->path() + QStringLiteral(": cannot read the mesh: it is a folder"));

    // Paths are stored relative to the project's folder, with '/' separators.
    const QString project = mDir->filePath(QStringLiteral("projects/robot.mproj"));
    QCOMPARE(SourceMesh::relativePath(mesh, project), QStringLiteral("../meshes/robot.fbx"));
    SourceMesh m;
    m.path = QStringLiteral("../meshes/robot.fbx");
    QCOMPARE(m.resolve(project), QDir::cleanPath(mesh));
    QCOMPARE(SourceMesh{}.resolve(project), QString());
    m.path = QStringLiteral("/opt/assets/robot.fbx"); // an absolute path stays as it is
    QCOMPARE(m.resolve(project), QStringLiteral("/opt/assets/robot.fbx"));
}

QTEST_GUILESS_MAIN(TestProjectFile)
#include "tst_projectfile.moc"
