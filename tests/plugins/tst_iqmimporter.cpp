// The IQM importer plugin (plugins/iqm), found by the plugin host in bin/plugins: a tiny file the test writes
// (IqmTestFile.h) reads back with exactly the values derived by hand (names, parents, bind poses, winding,
// texture coordinates, weights, keys, the fitted scale, the scale and up-axis options); damaged files
// (truncated at every length, offsets past the end, huge counts, a joint naming itself or a later joint as
// parent, NaN positions, bad magic or version, ...) are refused with one line naming the file; the IQM SDK's
// mrfixit.iqm (Assimp's test models; skipped when absent) imports through the host with its 75 joints, skin
// and animation at human height, +Y up, auto-rigs and survives a 2 m drop, and `marionette build` makes a rig
// of it.
#include "IqmTestFile.h"
#include "PluginTestSupport.h"
#include "RagdollDropTestSupport.h"

#include "marionette/editor/pluginhost/MeshImport.h"
#include "marionette/editor/pluginhost/PluginHost.h"
#include "marionette/plugin/MeshImporter.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace marionette;
using test::Field;

namespace {

const QString kMrfixit = QStringLiteral("/usr/share/assimp/models/IQM/mrfixit.iqm");

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool near(Vec3 a, Vec3 b, float tolerance = 1e-5f)
{
    return length(a - b) <= tolerance;
}
bool near(Quat a, Quat b, float tolerance = 1e-5f)
{
    const float d = std::fabs(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w);
    return std::fabs(d - 1.f) <= tolerance;
}
QString text(Vec3 v)
{
    return QStringLiteral("(%1, %2, %3)").arg(double(v.x)).arg(double(v.y)).arg(double(v.z));
}

} // namespace

class TestIqmImporter : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase();
    void supportsFile_byExtensionOrMagic();
    void tiny_readsBackExactValues();
    void tiny_fitsHeightUnlessScaleGiven();
    void hostile_refusedWithOneLine_data();
    void hostile_refusedWithOneLine();
    void hostile_everyTruncationRefused();
    void hostile_everyOffsetPastTheEndRefused();
    void mrfixit_importsWithSkeletonSkinAndClips();
    void mrfixit_autoRigsAndDropsFinite();
    void mrfixit_cliBuildHasBones();

  private:
    /// Writes `bytes` to `name` in the temporary folder and reads it with the plugin.
    bool read(const QByteArray& bytes, const QString& name, QString& error, import::ImportedScene* scene = nullptr,
              const plugin::ImportSettings& settings = {});
    /// Fails the test unless reading `bytes` fails with one line "<path>: <expected or anything>".
    void expectRefusal(const QByteArray& bytes, const QString& name, const QString& expected = {});
    bool haveMrfixit() const { return QFile::exists(kMrfixit); }

    QTemporaryDir mDir;
    editor::PluginHost mHost;
    plugin::MeshImporter* mImporter = nullptr;
};

void TestIqmImporter::initTestCase()
{
    QVERIFY(mDir.isValid());
    mHost.loadFolder(test::pluginDir());
    mImporter = mHost.importer(QStringLiteral("iqm"));
    QVERIFY(mImporter);
    QCOMPARE(mImporter->nameFilter(), QStringLiteral("Inter-Quake models (*.iqm)"));
    const editor::PluginRecord* record = mHost.record(editor::PluginKind::Importer, QStringLiteral("iqm"));
    QVERIFY(record && record->file.endsWith(QLatin1String("/libmarionette_iqm_importer.so")));
    QCOMPARE(record->version, QStringLiteral("1.0.0"));
}

bool TestIqmImporter::read(const QByteArray& bytes, const QString& name, QString& error, import::ImportedScene* scene,
                           const plugin::ImportSettings& settings)
{
    const QString path = mDir.filePath(name);
    QFile::remove(path); // a new file, not a truncated one: ext4 flushes a file rewritten after truncation
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        return false;
    f.close();
    import::ImportedScene local;
    return mImporter->read(path, settings, scene ? *scene : local, error);
}

void TestIqmImporter::expectRefusal(const QByteArray& bytes, const QString& name, const QString& expected)
{
    QString error;
    QElapsedTimer timer;
    timer.start();
    const bool ok = read(bytes, name, error);
    const QString path = mDir.filePath(name);
    QVERIFY2(!ok, qPrintable(name + QStringLiteral(" was read")));
    QVERIFY2(timer.elapsed() < 2000, qPrintable(QStringLiteral("%1 took %2 ms").arg(name).arg(timer.elapsed())));
    QVERIFY2(error.startsWith(path + QStringLiteral(": ")) && !error.contains(QLatin1Char('\n')), qPrintable(error));
    if (!expected.isEmpty())
        QCOMPARE(error.mid(path.size() + 2), expected);
}

// ".iqm" in any case; another extension only with the magic; the host picks "iqm" for an .iqm path.
void TestIqmImporter::supportsFile_byExtensionOrMagic()
{
    QVERIFY(mImporter->supportsFile(QStringLiteral("/nowhere/hero.iqm")));
    QVERIFY(mImporter->supportsFile(QStringLiteral("/nowhere/HERO.IQM")));
    QVERIFY(!mImporter->supportsFile(QStringLiteral("/nowhere/hero.fbx")));
    const QString disguised = mDir.filePath(QStringLiteral("disguised.bin")),
                  other = mDir.filePath(QStringLiteral("other.bin"));
    QFile a(disguised), b(other);
    QVERIFY(a.open(QIODevice::WriteOnly) && b.open(QIODevice::WriteOnly));
    a.write(test::writeIqm(test::tinySpec()));
    b.write(QByteArray(200, 'x'));
    a.close();
    b.close();
    QVERIFY(mImporter->supportsFile(disguised));
    QVERIFY(!mImporter->supportsFile(other));
    QCOMPARE(mHost.importerFor(QStringLiteral("/nowhere/hero.iqm"))->shortName(), QStringLiteral("iqm"));
    QCOMPARE(mHost.importerFor(disguised)->shortName(), QStringLiteral("iqm"));
}

// The tiny file at scale 0.5: every value derived by hand from the Z-up file through (x, y, z) -> (x, z, -y).
void TestIqmImporter::tiny_readsBackExactValues()
{
    plugin::ImportSettings settings;
    settings.scale = 0.5f;
    import::ImportedScene s;
    QString error;
    QVERIFY2(read(test::writeIqm(test::tinySpec()), QStringLiteral("tiny.iqm"), error, &s, settings),
             qPrintable(error));
    QCOMPARE(QString::fromStdString(s.validate()), QString());
    QCOMPARE(QString::fromStdString(s.sourcePath), mDir.filePath(QStringLiteral("tiny.iqm")));
    QCOMPARE(s.conversion.scale, 0.5f);
    QVERIFY(s.conversion.scaleOverridden && !s.conversion.upAxisOverridden);
    QCOMPARE(s.conversion.sourceUpAxis, import::UpAxis::Z);
    QCOMPARE(s.conversion.sourceUnit, std::string("unknown"));

    // Skeleton: root at (0, 0.5, 0) turned 90° about +Y; tip 1 m along root's x, i.e. at (0, 0.5, -1).
    QCOMPARE(s.skeleton.size(), std::size_t(2));
    QCOMPARE(s.skeleton[0].name, std::string("root"));
    QCOMPARE(s.skeleton[1].name, std::string("tip"));
    QCOMPARE(s.skeleton[0].parent, rig::kNone);
    QCOMPARE(s.skeleton[1].parent, 0);
    const float h = std::sqrt(0.5f);
    const Quat aboutY{0.f, h, 0.f, h};
    QVERIFY2(near(s.skeleton[0].bindWorld.transformPoint({}), {0.f, 0.5f, 0.f}),
             qPrintable(text(s.skeleton[0].bindWorld.transformPoint({}))));
    QVERIFY2(near(s.skeleton[1].bindWorld.transformPoint({}), {0.f, 0.5f, -1.f}),
             qPrintable(text(s.skeleton[1].bindWorld.transformPoint({}))));
    QVERIFY(near(s.skeleton[0].bindWorld.transformPoint({1, 0, 0}), {0.f, 0.5f, -1.f})); // x turned onto -z
    QVERIFY(near(s.skeleton[1].bindLocal.transformPoint({}), {1.f, 0.f, 0.f}));
    QVERIFY(near((s.skeleton[1].bindWorld * s.skeleton[1].inverseBind).transformPoint({3, 4, 5}), {3, 4, 5}));
    QVERIFY(s.boneInfo[0].skinned && s.boneInfo[1].skinned);
    QCOMPARE(s.boneInfo[1].sourceName, std::string("tip"));

    // Mesh: positions scaled and turned, winding reversed to counter-clockwise, normals onto -z, v flipped.
    QCOMPARE(s.meshes.size(), std::size_t(1));
    const import::ImportedMesh& m = s.meshes[0];
    QCOMPARE(m.name, std::string("tri"));
    QCOMPARE(m.positions, (std::vector<Vec3>{{0, 0, 0}, {0.5f, 0, 0}, {0, 2, 0}}));
    QCOMPARE(m.indices, (std::vector<std::uint32_t>{0, 2, 1}));
    const Vec3 face = cross(m.positions[2] - m.positions[0], m.positions[1] - m.positions[0]);
    QVERIFY(dot(face, m.normals[0]) > 0.f);
    for (const Vec3& n : m.normals)
        QVERIFY2(near(n, {0, 0, -1}), qPrintable(text(n)));
    QCOMPARE(m.uvs.size(), std::size_t(3));
    QCOMPARE(m.uvs[0], (import::TexCoord{0.f, 1.f}));
    QCOMPARE(m.uvs[1], (import::TexCoord{1.f, 1.f}));
    QCOMPARE(m.uvs[2], (import::TexCoord{0.f, 0.f}));
    QCOMPARE(s.materials.size(), std::size_t(1));
    QCOMPARE(m.material, 0);
    QCOMPARE(s.materials[0].name, std::string("skin.png"));
    QCOMPARE(s.materials[0].baseColorTexture, std::string("skin.png"));
    QVERIFY(!s.materials[0].textureFound);

    // Weights: joined per bone, sorted by weight, ubyte / 255 renormalised.
    QCOMPARE(m.influences.size(), std::size_t(3));
    QCOMPARE(m.influences[0].count(), 1);
    QCOMPARE(m.influences[0].bone[0], 0);
    QCOMPARE(m.influences[0].weight[0], 1.f);
    QCOMPARE(m.influences[1].bone[0], 0);
    QCOMPARE(m.influences[1].bone[1], 1);
    QCOMPARE(m.influences[1].weight[0], (128.f / 255.f) / (128.f / 255.f + 127.f / 255.f));
    QCOMPARE(m.influences[2].bone[0], 1);
    QCOMPARE(m.influences[2].bone[1], 0);
    QVERIFY(std::fabs(m.influences[2].weight[0] - 200.f / 255.f) < 1e-6f);
    QVERIFY(std::fabs(m.influences[2].weight[1] - 55.f / 255.f) < 1e-6f);
    QCOMPARE(m.unweightedVertices, std::size_t(0));

    // Animation: 2 frames at 10 fps; root constant (one key each), tip moves 1 -> 1.5 m and turns 90° about +Y.
    QCOMPARE(s.animations.size(), std::size_t(1));
    const import::AnimationClip& clip = s.animations[0];
    QCOMPARE(clip.name, std::string("wave"));
    QCOMPARE(clip.ticksPerSecond, 10.);
    QCOMPARE(clip.duration, 0.1f);
    QCOMPARE(clip.channels.size(), std::size_t(2));
    const import::BoneChannel& root = clip.channels[0];
    QCOMPARE(root.positions.size(), std::size_t(1));
    QCOMPARE(root.rotations.size(), std::size_t(1));
    QCOMPARE(root.scales.size(), std::size_t(1));
    QVERIFY(near(root.positions[0].value, {0, 0.5f, 0}));
    QVERIFY(near(root.rotations[0].value, aboutY));
    QVERIFY(near(root.scales[0].value, {1, 1, 1}));
    const import::BoneChannel& tip = clip.channels[1];
    QCOMPARE(tip.bone, 1);
    QCOMPARE(tip.positions.size(), std::size_t(2));
    QCOMPARE(tip.rotations.size(), std::size_t(2));
    QCOMPARE(tip.scales.size(), std::size_t(1));
    QCOMPARE(tip.positions[1].time, 0.1f);
    QVERIFY(near(tip.positions[0].value, {1.f, 0, 0}));
    QVERIFY2(near(tip.positions[1].value, {1.5f, 0, 0}), qPrintable(text(tip.positions[1].value)));
    QVERIFY(near(tip.rotations[0].value, Quat{}));
    QVERIFY(near(tip.rotations[1].value, aboutY));
}

// No scale: the bind pose (4 units tall) is fitted to 1.75 m, with a warning; a given up axis replaces Z.
void TestIqmImporter::tiny_fitsHeightUnlessScaleGiven()
{
    const QByteArray bytes = test::writeIqm(test::tinySpec());
    import::ImportedScene s;
    QString error;
    QVERIFY2(read(bytes, QStringLiteral("fit.iqm"), error, &s), qPrintable(error));
    QCOMPARE(s.conversion.scale, 0.4375f); // 1.75 / 4, exact in binary
    QVERIFY(!s.conversion.scaleOverridden);
    const auto box = s.bounds();
    QVERIFY(std::fabs(box[1].y - box[0].y - 1.75f) < 1e-5f);
    QCOMPARE(s.warnings.size(), std::size_t(1));
    QVERIFY2(QString::fromStdString(s.warnings[0])
                 .startsWith(QLatin1String("the file carries no unit: scaled by 0.4375 so the bind pose is 1.75 m tall")),
             s.warnings[0].c_str());

    plugin::ImportSettings yUp;
    yUp.upAxis = import::UpAxis::Y;
    yUp.scale = 1.f;
    yUp.animations = false;
    import::ImportedScene y;
    QVERIFY2(read(bytes, QStringLiteral("yup.iqm"), error, &y, yUp), qPrintable(error));
    QVERIFY(y.conversion.upAxisOverridden && y.conversion.sourceUpAxis == import::UpAxis::Y);
    QCOMPARE(y.meshes[0].positions[2], (Vec3{0, 0, 4}));
    QVERIFY(near(y.skeleton[1].bindWorld.transformPoint({}), {0, 2, 1}));
    QVERIFY(y.animations.empty());
    QCOMPARE(QString::fromStdString(y.validate()), QString());
}

void TestIqmImporter::hostile_refusedWithOneLine_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected"); // after "<path>: "; empty: any one line
    const test::IqmSpec spec = test::tinySpec();
    const QByteArray good = test::writeIqm(spec);
    auto patched = [&](Field f, std::uint32_t v) {
        QByteArray b = good;
        test::setField(b, f, v);
        return b;
    };
    auto edited = [&](auto edit) {
        test::IqmSpec s = spec;
        edit(s);
        return test::writeIqm(s);
    };
    QByteArray magic = good;
    magic[4] = 'X';
    QTest::newRow("bad magic") << magic
                               << QStringLiteral("not an IQM file (it does not start with \"INTERQUAKEMODEL\")");
    QTest::newRow("version 1") << patched(Field::Version, 1)
                               << QStringLiteral("IQM version 1 is not supported (only version 2)");
    QTest::newRow("empty file") << QByteArray()
                                << QStringLiteral("not an IQM file (it does not start with \"INTERQUAKEMODEL\")");
    QTest::newRow("header size larger than the file")
        << patched(Field::FileSize, std::uint32_t(good.size() + 1))
        << QStringLiteral("the file is truncated: %1 of the %2 bytes its header gives")
               .arg(good.size())
               .arg(good.size() + 1);
    QTest::newRow("joint is its own parent") << edited([](test::IqmSpec& s) { s.joints[1].parent = 1; })
                                             << QStringLiteral("joint 1 names parent 1, not an earlier joint");
    QTest::newRow("joint names a later parent") << edited([](test::IqmSpec& s) { s.joints[0].parent = 1; })
                                                << QStringLiteral("joint 0 names parent 1, not an earlier joint");
    QTest::newRow("NaN position") << edited([](test::IqmSpec& s) { s.positions[1].x = std::nanf(""); })
                                  << QStringLiteral("mesh 'tri' vertex 1: position is not finite (nan, 0, 0)");
    QTest::newRow("infinite position") << edited([](test::IqmSpec& s) { s.positions[2].z = HUGE_VALF; })
                                       << QStringLiteral("mesh 'tri' vertex 2: position is not finite (0, 0, inf)");
    QTest::newRow("bone index out of range")
        << edited([](test::IqmSpec& s) { s.blendIndexes[2][1] = 7; })
        << QStringLiteral("mesh 'tri' vertex 2: blend index 1 names joint 7 (the file has 2 joints)");
    QTest::newRow("triangle outside its mesh")
        << edited([](test::IqmSpec& s) { s.triangles[0][2] = 3; })
        << QStringLiteral("mesh 'tri' triangle 0: vertex 3 is not one of the mesh's 3 vertices (from 0)");
    QTest::newRow("text without a final NUL")
        << edited([](test::IqmSpec& s) { s.text.back() = 'x'; })
        << QStringLiteral("animation 0: the string at text offset 23 has no NUL before the text ends");
    QTest::newRow("name offset outside the text")
        << edited([](test::IqmSpec& s) { s.joints[1].name = 900; })
        << QStringLiteral("joint 1: text offset 900 is outside the text (28 bytes)");
    QTest::newRow("zero rotation") << edited([](test::IqmSpec& s) {
        s.joints[0].rotate = {0, 0, 0, 0};
    }) << QStringLiteral("joint 0 'root': rotation (0, 0, 0, 0) is not a rotation");
    QTest::newRow("zero scale") << edited([](test::IqmSpec& s) {
        s.joints[1].scale = {0, 1, 1};
    }) << QStringLiteral("joint 1 'tip': scale (0, 1, 1) is outside 0.0001..10000");
    QTest::newRow("uneven scale") << edited([](test::IqmSpec& s) {
        s.joints[1].scale = {2000, 0.1f, 1};
    }) << QStringLiteral("joint 1 'tip': scale (2000, 0.1, 1) is uneven beyond 10000:1");
    QTest::newRow("joint far from the mesh")
        << edited([](test::IqmSpec& s) {
               s.joints[0].translate = {0, 0, 1e6f};
           })
        << QStringLiteral("joint 0 'root': bind position (0, 0, 1000000) lies more than 1000 times "
                          "the mesh's size from the mesh");
    QTest::newRow("NaN normal is recomputed, NaN uv is not") << edited([](test::IqmSpec& s) {
        s.normals[0].x = std::nanf("");
        s.texcoords[1][1] = std::nanf("");
    }) << QStringLiteral("mesh 'tri' vertex 1: texture coordinate is not finite (1, nan)");
    QTest::newRow("key overflows to infinity")
        << edited([](test::IqmSpec& s) { s.poses[1].scale[0] = 3e38f; })
        << QStringLiteral("animation 'wave' frame 1 joint 1 'tip': channel 0 is not finite");
    QTest::newRow("pose parent differs") << edited([](test::IqmSpec& s) { s.poses[1].parent = -1; })
                                         << QStringLiteral("pose 1 names parent -1 but joint 1's parent is 0");
    QTest::newRow("mask beyond 10 channels")
        << edited([](test::IqmSpec& s) { s.poses[0].mask = 1u << 12; })
        << QStringLiteral("pose 0: channel mask 0x1000 has bits beyond the 10 channels");
    QTest::newRow("channel count differs") << patched(Field::NumFrameChannels, 3) << QString();
    QByteArray pastFrames = good;
    test::writeU32(pastFrames, int(test::field(good, Field::OfsAnims)) + 8, 3);
    QTest::newRow("animation past the frames")
        << pastFrames << QStringLiteral("animation 'wave': frames 0 + 3 run past the file's 2");
    // Huge counts: refused at once, before anything is allocated for them.
    for (Field f : {Field::NumText, Field::NumMeshes, Field::NumVertexArrays, Field::NumVertexes, Field::NumTriangles,
                    Field::NumJoints, Field::NumPoses, Field::NumAnims, Field::NumFrames, Field::NumFrameChannels,
                    Field::NumComment, Field::NumExtensions})
        for (std::uint32_t v : {0xffffffffu, 0x10000000u, 0x00ffffffu})
            QTest::addRow("count %d = %u", int(f), v) << patched(f, v) << QString();
}

void TestIqmImporter::hostile_refusedWithOneLine()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    expectRefusal(bytes, QStringLiteral("hostile.iqm"), expected);
}

// The tiny file cut at every length, as is and with the header's size patched to the cut (so the section
// checks, not the size check, find it); mrfixit cut at 300 lengths with the size patched.
void TestIqmImporter::hostile_everyTruncationRefused()
{
    const QByteArray tiny = test::writeIqm(test::tinySpec());
    for (int n = 0; n < tiny.size(); ++n) {
        expectRefusal(tiny.left(n), QStringLiteral("cut.iqm"));
        if (n >= 124) {
            QByteArray patched = tiny.left(n);
            test::setField(patched, Field::FileSize, std::uint32_t(n));
            expectRefusal(patched, QStringLiteral("cut.iqm"));
        }
        if (QTest::currentTestFailed())
            QFAIL(qPrintable(QStringLiteral("tiny file cut at %1 bytes").arg(n)));
    }
    if (!haveMrfixit())
        QSKIP("mrfixit.iqm (assimp-testmodels) is not installed");
    const QByteArray real = readAll(kMrfixit);
    QVERIFY(real.size() > 1000);
    for (int i = 0; i < 300; ++i) {
        const int n = i < 150 ? i : int(std::int64_t(real.size() - 1) * (i - 150) / 149);
        QByteArray cut = real.left(n);
        if (n >= 124)
            test::setField(cut, Field::FileSize, std::uint32_t(n));
        expectRefusal(cut, QStringLiteral("mrfixit-cut.iqm"));
        if (QTest::currentTestFailed())
            QFAIL(qPrintable(QStringLiteral("mrfixit cut at %1 bytes").arg(n)));
    }
}

// Each header offset of a section the file has, and each vertex array's data offset, pointed past the end.
void TestIqmImporter::hostile_everyOffsetPastTheEndRefused()
{
    QList<QByteArray> files{test::writeIqm(test::tinySpec())};
    if (haveMrfixit())
        files << readAll(kMrfixit);
    for (const QByteArray& good : files) {
        const std::uint32_t size = std::uint32_t(good.size());
        QString error;
        QVERIFY2(read(good, QStringLiteral("good.iqm"), error), qPrintable(error));
        const std::pair<Field, Field> sections[] = {{Field::OfsText, Field::NumText},
                                                    {Field::OfsMeshes, Field::NumMeshes},
                                                    {Field::OfsVertexArrays, Field::NumVertexArrays},
                                                    {Field::OfsTriangles, Field::NumTriangles},
                                                    {Field::OfsAdjacency, Field::NumTriangles},
                                                    {Field::OfsJoints, Field::NumJoints},
                                                    {Field::OfsPoses, Field::NumPoses},
                                                    {Field::OfsAnims, Field::NumAnims},
                                                    {Field::OfsFrames, Field::NumFrames},
                                                    {Field::OfsBounds, Field::NumFrames},
                                                    {Field::OfsComment, Field::NumComment},
                                                    {Field::OfsExtensions, Field::NumExtensions}};
        int tested = 0;
        for (const auto& [offset, count] : sections) {
            if (test::field(good, count) == 0)
                continue;
            for (std::uint32_t v : {size, size - 1, 0xfffffff0u}) {
                QByteArray b = good;
                test::setField(b, offset, v);
                expectRefusal(b, QStringLiteral("offset.iqm"));
                if (QTest::currentTestFailed())
                    QFAIL(qPrintable(QStringLiteral("header field %1 = %2").arg(int(offset)).arg(v)));
                ++tested;
            }
        }
        const int arrays = int(test::field(good, Field::OfsVertexArrays));
        for (std::uint32_t a = 0; a < test::field(good, Field::NumVertexArrays); ++a) {
            QByteArray b = good;
            test::writeU32(b, arrays + int(a) * 20 + 16, size - 2);
            expectRefusal(b, QStringLiteral("array.iqm"));
            if (QTest::currentTestFailed())
                QFAIL(qPrintable(QStringLiteral("vertex array %1").arg(a)));
            ++tested;
        }
        QVERIFY(tested >= 25);
    }
}

// Through the host: the importer chosen is "iqm"; 75 bones (the file's joint count), weights summing to 1,
// 1.5–2 m tall, +Y up (feet at the bottom, head at the top), the idle animation.
void TestIqmImporter::mrfixit_importsWithSkeletonSkinAndClips()
{
    if (!haveMrfixit())
        QSKIP("mrfixit.iqm (assimp-testmodels) is not installed");
    QCOMPARE(mHost.importerFor(kMrfixit)->shortName(), QStringLiteral("iqm"));
    editor::MeshImportRequest request;
    request.path = kMrfixit;
    const editor::MeshImportResult r = editor::importMesh(mHost, request);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.importer, QStringLiteral("iqm"));
    const import::ImportedScene& s = r.scene;
    const std::uint32_t joints = test::field(readAll(kMrfixit), Field::NumJoints);
    QCOMPARE(s.skeleton.size(), std::size_t(joints));
    QVERIFY(joints > 0);
    QCOMPARE(QString::fromStdString(s.validate()), QString());
    std::size_t vertices = 0;
    for (const import::ImportedMesh& m : s.meshes) {
        QVERIFY(m.isSkinned());
        for (const import::VertexInfluences& in : m.influences) {
            float sum = 0.f;
            for (float w : in.weight)
                sum += w;
            QVERIFY(in.count() > 0);
            QVERIFY2(std::fabs(sum - 1.f) < 1e-5f, qPrintable(QString::number(double(sum))));
            ++vertices;
        }
    }
    QCOMPARE(vertices, s.vertexCount());
    const auto box = s.bounds();
    const float height = box[1].y - box[0].y;
    qInfo("mrfixit: %zu bones, %zu vertices, %zu triangles, %zu clips, %.3f m tall (scale %g), x %.3f..%.3f, z "
          "%.3f..%.3f",
          s.skeleton.size(), s.vertexCount(), s.triangleCount(), s.animations.size(), double(height),
          double(s.conversion.scale), double(box[0].x), double(box[1].x), double(box[0].z), double(box[1].z));
    QVERIFY2(height >= 1.5f && height <= 2.f, qPrintable(QString::number(double(height))));
    QVERIFY(height > box[1].x - box[0].x); // taller than deep: standing up
    auto boneY = [&](const char* name) {
        const std::int32_t b = s.findBone(name);
        return b < 0 ? std::nanf("") : s.skeleton[std::size_t(b)].bindWorld.transformPoint({}).y;
    };
    for (const char* foot : {"LowerFoot.L", "LowerFoot.R"})
        QVERIFY2(boneY(foot) - box[0].y < 0.15f * height, foot);
    QVERIFY(boneY("Head") - box[0].y > 0.8f * height);
    QVERIFY(boneY("Hips") > boneY("Shin.L") && boneY("Neck") > boneY("Hips"));
    QVERIFY(r.warnings.size() >= 1 &&
            r.warnings[0].startsWith(kMrfixit + QStringLiteral(": the file carries no unit")));
    QCOMPARE(s.materials.size(), std::size_t(2));
    QVERIFY(s.materials[0].textureFound);
    QVERIFY(!s.animations.empty());
    const import::AnimationClip& idle = s.animations[0];
    QCOMPARE(idle.name, std::string("idle"));
    QCOMPARE(idle.channels.size(), s.skeleton.size());
    QVERIFY(idle.duration > 1.f);
    std::size_t moving = 0;
    for (const import::BoneChannel& ch : idle.channels)
        moving += ch.rotations.size() > 1 ? 1 : 0;
    QVERIFY(moving > 0);
}

// The auto-rig makes a valid rig of it (the host checks validate() and Rig::build()); dropped from 2 m it
// stays finite and above the floor.
void TestIqmImporter::mrfixit_autoRigsAndDropsFinite()
{
    if (!haveMrfixit())
        QSKIP("mrfixit.iqm (assimp-testmodels) is not installed");
    editor::MeshImportRequest request;
    request.path = kMrfixit;
    const editor::MeshImportResult imported = editor::importMesh(mHost, request);
    QVERIFY2(imported.ok(), qPrintable(imported.error));
    const plugin::RigTemplate* tmpl = mHost.rigTemplate(QStringLiteral("auto"));
    QVERIFY(tmpl);
    const editor::AutoRigResult r = editor::autoRigMesh(*tmpl, imported.scene, 75.f, "mrfixit");
    QVERIFY2(r.ok, r.error.c_str());
    QCOMPARE(QString::fromStdString(r.rig.validate()), QString());
    QCOMPARE(r.rig.bones.size(), imported.scene.skeleton.size());
    const float palette = test::bindPaletteError(r.rig);
    QVERIFY2(palette >= 0.f && palette <= 1e-3f, qPrintable(QString::number(double(palette))));
    test::Drop s = test::spawnOnFloor(r.rig, test::dropPlacement(r.rig, Quat{}, 2.f));
    QVERIFY2(s.body, s.error.c_str());
    const test::DropResult m = test::runDrop(s, 600);
    qInfo("mrfixit: template %s, %zu particles, %zu sticks, %zu triangles; 2 m drop: %s", r.templateUsed.c_str(),
          r.rig.particles.size(), r.rig.sticks.size(), r.rig.triangles.size(), qPrintable(test::describe(m)));
    QVERIFY2(m.finite && m.lowestSurface >= -0.05f, qPrintable(test::describe(m)));
}

// `marionette build mrfixit.iqm -o X.mrig --json` finds the plugin in bin/plugins and rigs the skeleton.
void TestIqmImporter::mrfixit_cliBuildHasBones()
{
    if (!haveMrfixit())
        QSKIP("mrfixit.iqm (assimp-testmodels) is not installed");
    const QString out = mDir.filePath(QStringLiteral("mrfixit.mrig"));
    const test::ProcessRun r = test::runCli(
        {QStringLiteral("build"), kMrfixit, QStringLiteral("-o"), out, QStringLiteral("--json")}, test::pluginDir());
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QVERIFY2(o.value(QStringLiteral("bones")).toInt() > 0, qPrintable(r.out));
    QVERIFY(QFile::exists(out));
    QVERIFY2(r.err.contains(QStringLiteral("the file carries no unit")), qPrintable(r.err));
}

QTEST_GUILESS_MAIN(TestIqmImporter)
#include "tst_iqmimporter.moc"
