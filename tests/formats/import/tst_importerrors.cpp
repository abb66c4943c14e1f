// Broken input never crashes or hangs the import and gives one line starting with the path: the malformed
// glTF files Assimp ships (each either imports into a validated, finite scene or fails, as Assimp decides),
// truncated copies of good files, empty, random, missing and special files, non-finite values Assimp lets
// through, the node-graph caps, buffer URIs naming a FIFO or a device, and the loaders that crash or
// allocate without bound in Assimp 5.2.5 (caught by the reader process).
#include "ImportTestSupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#ifdef Q_OS_UNIX
#include <sys/stat.h>
#endif

using namespace marionette;
using namespace marionette::import;
using namespace marionette::test;

namespace {

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// A failure is one line that starts with the path.
void verifyOneLineError(const ImportResult& r, const QString& path)
{
    QVERIFY2(r.status == ImportStatus::Failed, qPrintable(QStringLiteral("%1 imports: status %2")
                                                              .arg(path, QString::fromUtf8(toString(r.status)))));
    const std::string prefix = path.toStdString() + ": ";
    QVERIFY2(r.error.rfind(prefix, 0) == 0, r.error.c_str());
    QVERIFY2(r.error.find_first_of("\r\n") == std::string::npos, r.error.c_str());
    QVERIFY(r.error.size() > prefix.size());
    QVERIFY(r.scene.meshes.empty());
}

} // namespace

class TestImportErrors : public QObject {
    Q_OBJECT

private slots:
    void malformedGltf_data();
    void malformedGltf();
    void skinBonesSharingAName_areRefusedByAssimp();
    void truncatedFiles_data();
    void truncatedFiles();
    void emptyAndRandomFiles_data();
    void emptyAndRandomFiles();
    void pathsThatAreNoFile();
    void nonFinitePositions_areRefusedNamingMeshAndVertex();
    void nodeGraphCaps_refuseDeepOrLargeHierarchies();
    void bufferUriNamingFifoOrDevice_failsWithoutBlocking();
    void assimpCrashOrRunawayAllocation_isAnErrorNotACrash_data();
    void assimpCrashOrRunawayAllocation_isAnErrorNotACrash();
    void readerTimeout_stopsTheReader();
};

void TestImportErrors::malformedGltf_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("imports");
    QTest::addColumn<QString>("message"); ///< part of the error, or of a warning when it imports
    const auto row = [](const char* name, const char* file, bool ok, const char* message) {
        QTest::newRow(name) << assimpModel(file) << ok << QString::fromUtf8(message);
    };
    // Imports: zero normals are recomputed from the faces (4 vertices of the front face have (0, 0, 0)).
    row("BoxBadNormals", "glTF2/BoxBadNormals-glTF-Binary/BoxBadNormals.glb", true, "4 missing, zero or non-finite normals");
    // Imports: Assimp keeps the triangles whose vertex arrays are complete (Cube, TruncatedCube, ...) and
    // drops the line primitives.
    row("IncorrectVertexArrays", "glTF2/IncorrectVertexArrays/Cube.gltf", true, "");
    // Imports: Assimp drops the triangle with the out-of-range index (11 of 12 remain).
    row("IndexOutOfRange", "glTF2/IndexOutOfRange/IndexOutOfRange.gltf", true, "");
    row("AllIndicesOutOfRange", "glTF2/IndexOutOfRange/AllIndicesOutOfRange.gltf", false,
        "Assimp could not read the file: Mesh \"Mesh\" has no faces");
    row("BoxWithInfinites", "glTF2/BoxWithInfinites-glTF-Binary/BoxWithInfinites.glb", false,
        "mesh 'Mesh' vertex 0: position is not finite (-inf, -0.5, 0.5)");
    row("MissingBin", "glTF2/MissingBin/BoxTextured.gltf", false,
        "Assimp could not read the file: GLTF: could not open referenced file \"BoxTextured0.bin\"");
    row("RecursiveNodes", "glTF2/RecursiveNodes/RecursiveNodes.gltf", false,
        "has recursive reference to itself");
    row("SchemaFailures sceneWrongType", "glTF2/SchemaFailures/sceneWrongType.gltf", false,
        "Member \"scene\" was not of type \"uint\"");
    row("TestNoRootNode NoScene", "glTF2/TestNoRootNode/NoScene.gltf", false, "GLTF: No scene");
    row("TestNoRootNode SceneWithoutNodes", "glTF2/TestNoRootNode/SceneWithoutNodes.gltf", false,
        "the file contains no mesh");
    row("wrongTypes badArray", "glTF2/wrongTypes/badArray.gltf", false, "Member \"primitives\" was not of type \"array\"");
    row("wrongTypes badExtension", "glTF2/wrongTypes/badExtension.gltf", false,
        "Member \"KHR_texture_transform\" was not of type \"object\"");
    row("wrongTypes badNumber", "glTF2/wrongTypes/badNumber.gltf", false, "Member \"scale\" was not of type \"number\"");
    row("wrongTypes badObject", "glTF2/wrongTypes/badObject.gltf", false,
        "Member \"pbrMetallicRoughness\" was not of type \"object\"");
    row("wrongTypes badString", "glTF2/wrongTypes/badString.gltf", false, "Member \"name\" was not of type \"string\"");
    row("wrongTypes badUint", "glTF2/wrongTypes/badUint.gltf", false, "Member \"index\" was not of type \"uint\"");
    row("issue_3269 texcoord_crash", "glTF2/issue_3269/texcoord_crash.gltf", false, "TEXCOORD_1");
}

void TestImportErrors::malformedGltf()
{
    QFETCH(QString, path);
    QFETCH(bool, imports);
    QFETCH(QString, message);
    MARIONETTE_REQUIRE_FILE(path);
    const ImportResult r = importFile(path);
    if (!imports) {
        verifyOneLineError(r, path);
        QVERIFY2(r.error.find(message.toStdString()) != std::string::npos, r.error.c_str());
        return;
    }
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.scene.validate(), std::string());
    if (!message.isEmpty())
        QVERIFY(std::any_of(r.scene.warnings.begin(), r.scene.warnings.end(),
                            [&](const std::string& w) { return w.find(message.toStdString()) != std::string::npos; }));
}

void TestImportErrors::skinBonesSharingAName_areRefusedByAssimp()
{
    // data/ambiguous_skin_bone.gltf: both joints are named "arm". Skins refer to bones by name in Assimp, so
    // its validation refuses the mesh rather than bind both to one node.
    const QString path = importData("ambiguous_skin_bone.gltf");
    const ImportResult r = importFile(path);
    verifyOneLineError(r, path);
    QCOMPARE(r.error, path.toStdString() + ": Assimp could not read the file: Validation failed: aiMesh::mBones[0], "
                                           "name = \"arm\" has the same name as aiMesh::mBones[1]");
}

void TestImportErrors::truncatedFiles_data()
{
    QTest::addColumn<QString>("source");
    QTest::addColumn<double>("fraction");
    QTest::addColumn<bool>("imports");
    const char* files[] = {"glTF2/BoxTextured-glTF-Binary/BoxTextured.glb", "glTF2/simple_skin/simple_skin.gltf",
                           "FBX/animation_with_skeleton.fbx", "X/Testwuson.X", "Collada/duck.dae",
                           "MD5/SimpleCube.md5mesh"};
    for (const char* file : files)
        for (double fraction : {0.0, 0.003, 0.1, 0.5, 0.9, 0.999}) {
            // SimpleCube.md5mesh is 2151 bytes; the 0.999 cut loses only its last 3, the closing brace of the mesh.
            const bool imports = fraction == 0.999 && QByteArray(file).endsWith(".md5mesh");
            QTest::newRow(qPrintable(QStringLiteral("%1 at %2").arg(QString::fromUtf8(file)).arg(fraction)))
                << assimpModel(file) << fraction << imports;
        }
}

void TestImportErrors::truncatedFiles()
{
    // Every cut of these files fails with a message but one, which still holds the whole mesh. (A cut .md5mesh
    // even makes Assimp 5.2.5 segfault; the reader process turns that into a message too.)
    QFETCH(QString, source);
    QFETCH(double, fraction);
    QFETCH(bool, imports);
    MARIONETTE_REQUIRE_FILE(source);
    const QByteArray whole = readFile(source);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QFileInfo(source).fileName());
    QVERIFY(writeFile(path, whole.left(qsizetype(double(whole.size()) * fraction))));
    const ImportResult r = importFile(path);
    if (imports) {
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.scene.validate(), std::string());
        return;
    }
    verifyOneLineError(r, path);
}

void TestImportErrors::emptyAndRandomFiles_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("size");
    for (const char* name : {"empty.obj", "empty.gltf", "empty.glb", "empty.fbx", "empty.dae", "empty.x", "empty"})
        QTest::newRow(name) << QString::fromUtf8(name) << 0;
    for (const char* name : {"random.bin", "random.fbx", "random.glb", "random.dae", "random.obj", "random.x",
                             "random.blend", "random.md5mesh", "random.smd"})
        QTest::newRow(name) << QString::fromUtf8(name) << 4096;
}

void TestImportErrors::emptyAndRandomFiles()
{
    QFETCH(QString, name);
    QFETCH(int, size);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QRandomGenerator random(0x5eed + quint32(name.size()));
    QByteArray bytes(size, '\0');
    for (char& c : bytes)
        c = char(random.bounded(256));
    const QString path = dir.filePath(name);
    QVERIFY(writeFile(path, bytes));
    const ImportResult r = importFile(path);
    verifyOneLineError(r, path);
    if (size == 0 && name != QLatin1String("empty"))
        QVERIFY2(r.error.find("Assimp could not read the file: ") != std::string::npos, r.error.c_str());
}

void TestImportErrors::pathsThatAreNoFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString missing = dir.filePath(QStringLiteral("missing.gltf"));
    verifyOneLineError(importFile(missing), missing);
    QCOMPARE(importFile(missing).error, missing.toStdString() + ": no such file");

    const QString folder = dir.filePath(QStringLiteral("folder.gltf"));
    QVERIFY(QDir().mkpath(folder));
    QCOMPARE(importFile(folder).error, folder.toStdString() + ": is a directory, not a mesh file");

    const ImportResult none = importScene(std::string());
    QCOMPARE(none.status, ImportStatus::Failed);
    QCOMPARE(none.error, std::string("(no path): no file given"));
#ifdef Q_OS_UNIX
    const QString fifo = dir.filePath(QStringLiteral("pipe.obj"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    QElapsedTimer timer;
    timer.start();
    QCOMPARE(importFile(fifo).error, fifo.toStdString() + ": is not a regular file");
    QVERIFY(timer.elapsed() < 5000);
#endif
}

void TestImportErrors::nonFinitePositions_areRefusedNamingMeshAndVertex()
{
    // BoxWithInfinites.glb: every vertex has x = ±inf; Assimp passes it on, the import refuses it.
    const QString path = assimpModel("glTF2/BoxWithInfinites-glTF-Binary/BoxWithInfinites.glb");
    MARIONETTE_REQUIRE_FILE(path);
    const ImportResult r = importFile(path);
    verifyOneLineError(r, path);
    QCOMPARE(r.error, path.toStdString() + ": mesh 'Mesh' vertex 0: position is not finite (-inf, -0.5, 0.5)");
}

void TestImportErrors::nodeGraphCaps_refuseDeepOrLargeHierarchies()
{
    // Testwuson.X: 40 nodes, 11 levels below the root.
    const QString path = assimpModel("X/Testwuson.X");
    MARIONETTE_REQUIRE_FILE(path);
    ImportOptions shallow;
    shallow.maxNodeDepth = 10;
    const ImportResult deep = importFile(path, shallow);
    verifyOneLineError(deep, path);
    QVERIFY2(deep.error.find("node hierarchy is deeper than 10 levels") != std::string::npos, deep.error.c_str());
    shallow.maxNodeDepth = 11;
    QVERIFY(importFile(path, shallow).ok());

    ImportOptions few;
    few.maxNodes = 39;
    const ImportResult large = importFile(path, few);
    verifyOneLineError(large, path);
    QVERIFY2(large.error.find("the file has more than 39 nodes") != std::string::npos, large.error.c_str());
    few.maxNodes = 40;
    QVERIFY(importFile(path, few).ok());
}

void TestImportErrors::bufferUriNamingFifoOrDevice_failsWithoutBlocking()
{
#ifndef Q_OS_UNIX
    QSKIP("FIFOs and /dev/zero are POSIX");
#else
    // A glTF whose buffer is a FIFO nobody writes to (opening it would block forever) or /dev/zero (reading
    // it never ends). The import's file system refuses anything but regular files.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QCOMPARE(::mkfifo(QFile::encodeName(dir.filePath(QStringLiteral("fifo.bin"))).constData(), 0600), 0);
    const QByteArray templ = R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],
"bufferViews":[{"buffer":0,"byteLength":36}],"buffers":[{"uri":"URI","byteLength":36}]})";
    for (const char* uri : {"fifo.bin", "/dev/zero"}) {
        const QString path = dir.filePath(QStringLiteral("buffer.gltf"));
        QVERIFY(writeFile(path, QByteArray(templ).replace("URI", uri)));
        QElapsedTimer timer;
        timer.start();
        const ImportResult r = importFile(path);
        verifyOneLineError(r, path);
        QVERIFY2(r.error.find(std::string("could not open referenced file \"") + uri) != std::string::npos, r.error.c_str());
        QVERIFY(timer.elapsed() < 10000);
    }
#endif
}

void TestImportErrors::assimpCrashOrRunawayAllocation_isAnErrorNotACrash_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("cutTo"); ///< empty: the file as is
    QTest::addColumn<QString>("message");
    // Assimp 5.2.5's MD5 loader dereferences a null pointer on this cut (half of SimpleCube.md5mesh).
    QTest::newRow("truncated md5mesh: segfault") << assimpModel("MD5/SimpleCube.md5mesh") << QByteArray("0.5")
                                                 << "Assimp crashed while reading the file (signal 11";
    // "353535235358 vertices": the OFF loader asks for 16 GB; the reader process's address-space limit
    // turns that into std::bad_alloc within milliseconds.
    QTest::newRow("invalid/OutOfMemory.off") << assimpModel("invalid/OutOfMemory.off") << QByteArray()
                                             << "Assimp could not read the file: std::bad_alloc (the reader process may use";
}

void TestImportErrors::assimpCrashOrRunawayAllocation_isAnErrorNotACrash()
{
    QFETCH(QString, path);
    QFETCH(QByteArray, cutTo);
    QFETCH(QString, message);
    MARIONETTE_REQUIRE_FILE(path);
    QTemporaryDir dir;
    QString file = path;
    if (!cutTo.isEmpty()) {
        const QByteArray whole = readFile(path);
        file = dir.filePath(QFileInfo(path).fileName());
        QVERIFY(writeFile(file, whole.left(qsizetype(double(whole.size()) * cutTo.toDouble()))));
    }
    QElapsedTimer timer;
    timer.start();
    const ImportResult r = importFile(file);
    verifyOneLineError(r, file);
    QVERIFY2(r.error.find(message.toStdString()) != std::string::npos, r.error.c_str());
    QVERIFY(timer.elapsed() < 10000);
}

void TestImportErrors::readerTimeout_stopsTheReader()
{
    // A reader process still at work when its time is up is killed (a loader stuck in a loop ends this way).
    const QString path = assimpModel("Collada/human.zae");
    MARIONETTE_REQUIRE_FILE(path);
    ImportOptions o;
    o.timeoutSeconds = 1e-9;
    const ImportResult r = importFile(path, o);
    verifyOneLineError(r, path);
    QCOMPARE(r.error, path.toStdString() + ": Assimp did not finish reading the file within 1e-09 s and was stopped");
    o.timeoutSeconds = 60.;
    QVERIFY(importFile(path, o).ok());
}

QTEST_APPLESS_MAIN(TestImportErrors)
#include "tst_importerrors.moc"
