// Lenient import and ImportOptions::strict (docs/import.md, "Lenient import and strict"): a B3D character the
// test writes itself (B3dModel.h), good and with one fault each. The lenient import (the default) succeeds
// with exactly the expected warnings and the data the warnings describe; a strict import refuses each fault
// with one line starting with the path; nothing crashes or hangs.
//
// What Assimp 5.2.5 does with each fault (measured on these files; the expectations below follow it):
//   key past the clip's end  its validation refuses the file (the message), so only the lenient
//                            re-read without validation gets through; the strict error is Assimp's line
//   unsorted keys            its validation only logs a warning and the B3D loader keeps file order: the
//                            file passes, the import sorts (a fault of its own, so strict refuses it)
//   nan key value            not checked by Assimp: the import drops the key
//   nan vertex               not checked by the validation; aiProcess_JoinIdenticalVertices then merges the
//                            NaN vertex into another one (5 vertices instead of 6), so the reader checks
//                            positions before post-processing: the file is refused in both modes
//   weights summing to 0.5   its validation logs a warning only (it warns outside [0.94, 1.05]): the import
//                            renormalises with a warning
//   0 or -5 frames           not checked (the validation compares key times only when the duration is > 0)
//   empty channel            its validation refuses the file ("Empty node animation channel"); without it,
//                            Assimp's scene preprocessor fills the channel with one key of the node's
//                            transform, so no channel is left empty and only the validation warning remains
//   nan everywhere           every nan key dropped; arm keeps its finite key and the preprocessor's keys at
//                            time 0 for the kinds the file does not animate; hip (all three kinds nan) has
//                            no key left: its channel is dropped
//   two keys at one time     its validation only logs it: the import keeps the last one
#include "B3dModel.h"
#include "ImportTestSupport.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>

using namespace marionette;
using namespace marionette::import;
using namespace marionette::test;

Q_DECLARE_METATYPE(marionette::test::B3dFault)

namespace {

QStringList toQt(const std::vector<std::string>& lines)
{
    QStringList out;
    for (const std::string& l : lines)
        out << QString::fromStdString(l);
    return out;
}

const char* kPastEndValidation =
    "Validation failed: aiNodeAnim::mPositionKeys[2].mTime (21.00000) is larger than aiAnimation::mDuration "
    "(which is 20.00000)";

const BoneChannel* channelOf(const ImportedScene& s, const char* bone)
{
    if (s.animations.empty())
        return nullptr;
    const std::int32_t b = s.findBone(bone);
    for (const BoneChannel& ch : s.animations.front().channels)
        if (ch.bone == b)
            return &ch;
    return nullptr;
}

std::vector<float> times(const std::vector<VectorKey>& keys)
{
    std::vector<float> out;
    for (const VectorKey& k : keys)
        out.push_back(k.time);
    return out;
}

} // namespace

class TestImportLenient : public QObject {
    Q_OBJECT

    QTemporaryDir mDir;

    QString write(B3dFault fault, const char* name)
    {
        const QString path = mDir.filePath(QString::fromLatin1(name) + QStringLiteral(".b3d"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(b3dModel(fault)) < 0)
            return {};
        return path;
    }
    ImportResult import(const QString& path, bool strict, ImportOptions::Isolation isolation = ImportOptions::Isolation::Process)
    {
        ImportOptions o;
        o.strict = strict;
        o.isolation = isolation;
        return importFile(path, o);
    }

private slots:
    void goodModel_noWarnings();
    void lenient_repairsWithExactWarnings_data();
    void lenient_repairsWithExactWarnings();
    void strict_refusesEachFault_data();
    void strict_refusesEachFault();
    void keyPastEnd_extendsTheDuration();
    void unsortedKeys_areSorted();
    void nanKey_isDropped();
    void duplicateKeys_keepTheLast();
    void nanEverywhere_dropsTheChannel();
    void weights_areRenormalised();
    void nanVertex_refusesTheFileInBothModes();
};

void TestImportLenient::goodModel_noWarnings()
{
    QVERIFY(mDir.isValid());
    const QString path = write(B3dFault::None, "good");
    for (bool strict : {false, true}) {
        const ImportResult r = import(path, strict);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(toQt(r.scene.warnings), QStringList());
        QVERIFY(r.scene.faults.empty() && r.scene.validationFailure.empty());
        QCOMPARE(strictImportError(r.scene), std::string());
        QCOMPARE(r.scene.skeleton.size(), size_t(2));
        QCOMPARE(r.scene.animations.size(), size_t(1));
        QCOMPARE(r.scene.animations[0].duration, 2.f); // 20 frames at 10 fps
        QCOMPARE(r.scene.meshes[0].positions.size(), size_t(6));
    }
}

void TestImportLenient::lenient_repairsWithExactWarnings_data()
{
    QTest::addColumn<B3dFault>("fault");
    QTest::addColumn<QStringList>("warnings");
    const QString clip = QStringLiteral("animation 'animation0'"); // B3D clips have no name
    QTest::newRow("key past the end")
        << B3dFault::KeyPastEnd
        << QStringList{QStringLiteral("the file failed Assimp's validation (%1); read without it").arg(QLatin1String(kPastEndValidation)),
                       clip + QStringLiteral(" bone 'hip': position key 2 at 21 past the clip's end 20; duration extended to 21")};
    QTest::newRow("unsorted keys")
        << B3dFault::UnsortedKeys
        << QStringList{clip + QStringLiteral(" bone 'hip': position keys not in time order (key 2 at 10 after key 1 at 20); sorted")};
    // B3D is left-handed: Assimp negates z, so the key's 0 reads back as -0.
    QTest::newRow("nan key") << B3dFault::NanKey
                             << QStringList{clip + QStringLiteral(" bone 'hip': position key 1 at 10 is not finite (nan, 0.5, -0); dropped it")};
    QTest::newRow("weights not summing to 1")
        << B3dFault::WeightsNotOne
        << QStringList{QStringLiteral("mesh 'mesh0': the bone weights of 1 of 6 vertices do not sum to 1 (vertex 4: 0.5); renormalised")};
    // The loader lists arm's channel first (B3D writes a node's keys after its children).
    QTest::newRow("zero duration")
        << B3dFault::ZeroDuration
        << QStringList{clip + QStringLiteral(" bone 'arm': rotation key 1 at 20 past the clip's end 0 (and 2 more keys); duration extended to 20")};
    QTest::newRow("negative duration")
        << B3dFault::NegativeDuration
        << QStringList{clip + QStringLiteral(": duration -5 is not a finite number >= 0; set to the last key's time 20")};
    QTest::newRow("empty channel")
        << B3dFault::EmptyChannel
        << QStringList{QStringLiteral("the file failed Assimp's validation (Validation failed: Empty node animation channel); read without it")};
    QTest::newRow("nan everywhere")
        << B3dFault::NanEverywhere
        << QStringList{clip + QStringLiteral(" bone 'arm': rotation key 0 at 0 is not finite (-0, -0, 0, nan); dropped it"),
                       clip + QStringLiteral(" bone 'hip': position key 0 at 0 is not finite (nan, 0, -0) (and 2 more); dropped them"),
                       clip + QStringLiteral(" bone 'hip': rotation key 0 at 0 is not finite (nan, nan, nan, nan) (and 2 more); dropped them"),
                       clip + QStringLiteral(" bone 'hip': scale key 0 at 0 is not finite (nan, nan, nan) (and 2 more); dropped them"),
                       clip + QStringLiteral(" bone 'hip': the channel has no usable key; channel dropped (the bone keeps its rest pose)")};
    QTest::newRow("duplicate keys")
        << B3dFault::DuplicateKeys
        << QStringList{clip + QStringLiteral(" bone 'hip': 1 position key(s) at the same time as an earlier one (key 2 at 10); "
                                             "the last key of each time kept")};
}

void TestImportLenient::lenient_repairsWithExactWarnings()
{
    QFETCH(B3dFault, fault);
    QFETCH(QStringList, warnings);
    const QString path = write(fault, QTest::currentDataTag());
    // The same in the reader process and in-process (the validation message crosses the pipe).
    for (auto isolation : {ImportOptions::Isolation::Process, ImportOptions::Isolation::InProcess}) {
        const ImportResult r = import(path, false, isolation);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(toQt(r.scene.warnings), warnings);
        QVERIFY(r.scene.validate().empty());
        // Each repair is a fault: the warning is the fault and what was changed.
        const size_t repairs = size_t(warnings.size()) - (r.scene.validationFailure.empty() ? 0 : 1);
        QCOMPARE(r.scene.faults.size(), repairs);
        for (size_t i = 0; i < repairs; ++i)
            QVERIFY(r.scene.warnings[warnings.size() - repairs + i].rfind(r.scene.faults[i] + "; ", 0) == 0);
    }
}

void TestImportLenient::strict_refusesEachFault_data()
{
    QTest::addColumn<B3dFault>("fault");
    QTest::addColumn<QString>("error"); // after "PATH: "
    const QString clip = QStringLiteral("animation 'animation0'");
    QTest::newRow("key past the end") << B3dFault::KeyPastEnd
                                      << QStringLiteral("Assimp could not read the file: ") + QLatin1String(kPastEndValidation);
    QTest::newRow("unsorted keys") << B3dFault::UnsortedKeys
                                   << clip + QStringLiteral(" bone 'hip': position keys not in time order (key 2 at 10 after key 1 at 20)");
    QTest::newRow("nan key") << B3dFault::NanKey << clip + QStringLiteral(" bone 'hip': position key 1 at 10 is not finite (nan, 0.5, -0)");
    QTest::newRow("nan vertex") << B3dFault::NanVertex << QStringLiteral("mesh 'mesh0' vertex 11: position is not finite (nan, 2, -0)");
    QTest::newRow("weights not summing to 1")
        << B3dFault::WeightsNotOne << QStringLiteral("mesh 'mesh0': the bone weights of 1 of 6 vertices do not sum to 1 (vertex 4: 0.5)");
    QTest::newRow("zero duration") << B3dFault::ZeroDuration
                                   << clip + QStringLiteral(" bone 'arm': rotation key 1 at 20 past the clip's end 0 (and 2 more keys)");
    QTest::newRow("negative duration") << B3dFault::NegativeDuration << clip + QStringLiteral(": duration -5 is not a finite number >= 0");
    QTest::newRow("empty channel") << B3dFault::EmptyChannel
                                   << QStringLiteral("Assimp could not read the file: Validation failed: Empty node animation channel");
    QTest::newRow("nan everywhere") << B3dFault::NanEverywhere
                                    << clip + QStringLiteral(" bone 'arm': rotation key 0 at 0 is not finite (-0, -0, 0, nan)");
    QTest::newRow("duplicate keys") << B3dFault::DuplicateKeys
                                    << clip + QStringLiteral(" bone 'hip': 1 position key(s) at the same time as an earlier one (key 2 at 10)");
}

void TestImportLenient::strict_refusesEachFault()
{
    QFETCH(B3dFault, fault);
    QFETCH(QString, error);
    const QString path = write(fault, QTest::currentDataTag());
    const ImportResult r = import(path, true);
    QCOMPARE(r.status, ImportStatus::Failed);
    QCOMPARE(QString::fromStdString(r.error), path + QStringLiteral(": ") + error);
    QVERIFY(r.scene.meshes.empty());
    // A lenient import's record gives the same line (the command line's --strict relies on it).
    const ImportResult lenient = import(path, false);
    if (lenient.ok())
        QCOMPARE(strictImportError(lenient.scene), r.error);
}

void TestImportLenient::keyPastEnd_extendsTheDuration()
{
    const ImportResult r = import(write(B3dFault::KeyPastEnd, "pastEnd"), false);
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.scene.animations[0].duration, 2.1f); // 21 frames at 10 fps
    const BoneChannel* hip = channelOf(r.scene, "hip");
    QVERIFY(hip);
    QCOMPARE(times(hip->positions), (std::vector<float>{0.f, 1.f, 2.1f}));
    QCOMPARE(QString::fromStdString(r.scene.validationFailure), QLatin1String(kPastEndValidation));
}

void TestImportLenient::unsortedKeys_areSorted()
{
    const ImportResult r = import(write(B3dFault::UnsortedKeys, "unsorted"), false);
    QVERIFY2(r.ok(), r.error.c_str());
    const BoneChannel* hip = channelOf(r.scene, "hip");
    QVERIFY(hip);
    QCOMPARE(times(hip->positions), (std::vector<float>{0.f, 1.f, 2.f}));
    QCOMPARE(hip->positions[1].value.y, 0.5f); // frame 10's key, stored last in the file, now in the middle
    QCOMPARE(hip->positions[2].value.y, 0.f);
}

void TestImportLenient::nanKey_isDropped()
{
    const ImportResult r = import(write(B3dFault::NanKey, "nanKey"), false);
    QVERIFY2(r.ok(), r.error.c_str());
    const BoneChannel* hip = channelOf(r.scene, "hip");
    QVERIFY(hip);
    QCOMPARE(times(hip->positions), (std::vector<float>{0.f, 2.f}));
    QCOMPARE(r.scene.animations[0].duration, 2.f);
}

void TestImportLenient::duplicateKeys_keepTheLast()
{
    const ImportResult r = import(write(B3dFault::DuplicateKeys, "duplicates"), false);
    QVERIFY2(r.ok(), r.error.c_str());
    const BoneChannel* hip = channelOf(r.scene, "hip");
    QVERIFY(hip);
    QCOMPARE(times(hip->positions), (std::vector<float>{0.f, 1.f, 2.f}));
    QCOMPARE(hip->positions[1].value.y, 0.5f); // the file's second key at frame 10 (the first said 0.25)
}

void TestImportLenient::nanEverywhere_dropsTheChannel()
{
    const ImportResult r = import(write(B3dFault::NanEverywhere, "nanEverywhere"), false);
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(r.scene.animations.size(), size_t(1));
    QVERIFY(channelOf(r.scene, "hip") == nullptr);
    const BoneChannel* arm = channelOf(r.scene, "arm");
    QVERIFY(arm);
    QCOMPARE(arm->rotations.size(), size_t(1)); // frame 20's key; frame 0's was nan
    QCOMPARE(arm->rotations[0].time, 2.f);
}

void TestImportLenient::weights_areRenormalised()
{
    const ImportResult r = import(write(B3dFault::WeightsNotOne, "weights"), false);
    QVERIFY2(r.ok(), r.error.c_str());
    const ImportedMesh& mesh = r.scene.meshes[0];
    const std::int32_t arm = r.scene.findBone("arm");
    QVERIFY(arm >= 0);
    const VertexInfluences& v = mesh.influences[4]; // at (0, 2, 0): the vertex the file gave 0.5
    QCOMPARE(mesh.positions[4].y, 2.f);
    QCOMPARE(v.count(), 1);
    QCOMPARE(v.bone[0], arm);
    QCOMPARE(v.weight[0], 1.f);
}

void TestImportLenient::nanVertex_refusesTheFileInBothModes()
{
    // A NaN position cannot be repaired (the mesh's shape is unknown there): the file is refused, naming the
    // mesh and the vertex as the loader numbered it (B3D repeats vertices per triangle corner: 11 = 4th
    // triangle, 3rd corner).
    const QString path = write(B3dFault::NanVertex, "nanVertex");
    for (bool strict : {false, true}) {
        const ImportResult r = import(path, strict);
        QCOMPARE(r.status, ImportStatus::Failed);
        QCOMPARE(QString::fromStdString(r.error), path + QStringLiteral(": mesh 'mesh0' vertex 11: position is not finite (nan, 2, -0)"));
    }
}

QTEST_GUILESS_MAIN(TestImportLenient)
#include "tst_importlenient.moc"
