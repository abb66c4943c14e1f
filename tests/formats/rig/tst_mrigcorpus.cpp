// Replays the committed .mrig corpus (tests/formats/rig/corpus): valid files load, and each crafted bad file
// is refused by loadMrig, MrigView::load and readMrig with its expected message (corpus/expected.txt),
// prefixed by the file path for the file functions. The format 1.0 files are frozen (checked byte for byte
// against their size and CRC-32C) and their per-step settings, angular friction and pin stiffness load as
// rig::migrateLegacySettings, migrateLegacyAngularFriction and migrateLegacyPinStiffness make them. The files
// the 1.1 writer wrote are frozen too. Every 1.0 and 1.1 file loads with bend damping 0 (no BNDD). The same
// files seed the fuzzer.
#include "marionette/rig/Crc32c.h"
#include "marionette/rig/Mrig.h"
#include "MrigTestSupport.h"

#include <QtTest/QtTest>

#include <QDir>
#include <QFile>

#include <cstring>
#include <span>

using namespace marionette;
using namespace marionette::rig;
using test::bits;

namespace {

QString corpusDir() { return QStringLiteral(MRIG_CORPUS_DIR); }

/// The format 1.0 files as committed: regenerating the corpus must leave them alone (corpus/README.md).
struct FrozenFile {
    const char* name;
    std::size_t size;
    std::uint32_t crc;
};
const FrozenFile kFormat10Files[] = {
    {"good_humanoid.mrig", 8960, 0xc8c52286u},
    {"good_cloth_6x4.mrig", 4117, 0x3e4703cdu},
    {"good_crate.mrig", 1220, 0x309aa2a1u},
    {"good_full_rig.mrig", 2562, 0xafe242e4u},
    {"good_sample_handbuilt.mrig", 4096, 0x5c3a4585u},
    {"good_minor_1_3_extensions.mrig", 4508, 0xb779fc6eu},
    {"bad_empty.mrig", 0, 0x00000000u},
    {"bad_magic.mrig", 4096, 0x792856ddu},
    {"bad_text_mode_transfer.mrig", 4095, 0x34247447u},
    {"bad_major_2.mrig", 4096, 0xd70354c8u},
    {"bad_major_0.mrig", 4096, 0x4a330558u},
    {"bad_short_header.mrig", 40, 0xea47caf6u},
    {"bad_header_size_small.mrig", 4096, 0xb583cb67u},
    {"bad_header_crc.mrig", 4096, 0x78e5781eu},
    {"bad_truncated.mrig", 3996, 0xedd5dde2u},
    {"bad_required_flag.mrig", 4096, 0x038496ccu},
    {"bad_entry_size.mrig", 4096, 0xdebe0a99u},
    {"bad_table_misaligned.mrig", 4096, 0x24d0db98u},
    {"bad_table_in_header.mrig", 4096, 0x8cc5c765u},
    {"bad_table_past_end.mrig", 4096, 0x6c2bc918u},
    {"bad_table_crc.mrig", 4096, 0x5c8b0ecfu},
    {"bad_chunk_misaligned.mrig", 4096, 0xe35c54deu},
    {"bad_chunk_over_table.mrig", 4096, 0x3df0545eu},
    {"bad_chunk_past_end.mrig", 4096, 0x6f9ec43bu},
    {"bad_chunks_overlap.mrig", 4096, 0x828fae40u},
    {"bad_size_not_count_x_record.mrig", 4096, 0x720e7e03u},
    {"bad_count_overflow.mrig", 4096, 0xfcf773f2u},
    {"bad_size_wraps.mrig", 4096, 0xc14c301au},
    {"bad_padding_nonzero.mrig", 4096, 0xacbbfbfcu},
    {"bad_chunk_crc.mrig", 4096, 0x13a22d73u},
    {"bad_duplicate_chunk.mrig", 5492, 0x30cfd9efu},
    {"bad_missing_particles.mrig", 2688, 0x3fa6d5dfu},
    {"bad_missing_settings.mrig", 4000, 0xbb572d17u},
    {"bad_settings_count_2.mrig", 4160, 0xc9f7fad6u},
    {"bad_record_size_small.mrig", 3960, 0x6c015370u},
    {"bad_record_size_unaligned.mrig", 4122, 0xb1eb9084u},
    {"bad_strings_record_size.mrig", 4096, 0x44555280u},
    {"bad_stick_index.mrig", 4096, 0x64e42a17u},
    {"bad_stick_same_particle.mrig", 4096, 0x19e50000u},
    {"bad_stick_kind.mrig", 4096, 0xb12b4570u},
    {"bad_stick_capsule_negative.mrig", 4096, 0xec97e787u},
    {"bad_stick_nan.mrig", 4096, 0x44734665u},
    {"bad_particle_inf.mrig", 4096, 0xe35e89fdu},
    {"bad_particle_negative_mass.mrig", 4096, 0xa9c5aecdu},
    {"bad_particle_negative_radius.mrig", 4096, 0x4a7123b4u},
    {"bad_particle_bone.mrig", 4096, 0x6849c039u},
    {"bad_name_out_of_table.mrig", 4096, 0x23adc89eu},
    {"bad_rig_name_out_of_table.mrig", 4096, 0x724c2587u},
    {"bad_names_amplified.mrig", 4096, 0xd6992f35u},
    {"bad_angle_repeat.mrig", 4096, 0xa143f4dfu},
    {"bad_angle_form.mrig", 4096, 0x83add931u},
    {"bad_triangle_repeat.mrig", 4096, 0x5b45fadbu},
    {"bad_triangle_collinear.mrig", 4096, 0x892e8720u},
    {"bad_triangle_index.mrig", 4096, 0x54d36cc9u},
    {"bad_angular_limit.mrig", 4096, 0x9f4fa41du},
    {"bad_angular_same_triangle.mrig", 4096, 0xe7e73110u},
    {"bad_angular_bool.mrig", 4096, 0xd10e1df2u},
    {"bad_angular_quat_nan.mrig", 4096, 0x093cef0eu},
    {"bad_pin_index.mrig", 4096, 0x5139f7e8u},
    {"bad_pin_kinematic.mrig", 4096, 0x764a9246u},
    {"bad_shape_kind.mrig", 4096, 0x0cd93f51u},
    {"bad_shape_triangle.mrig", 4096, 0xdb9a8de1u},
    {"bad_shape_flat_tetra.mrig", 4096, 0x90adc442u},
    {"bad_shape_half_extents.mrig", 4096, 0x825483a3u},
    {"bad_bone_parent.mrig", 4096, 0xb081daaau},
    {"bad_bone_matrix_nan.mrig", 4096, 0x776570f8u},
    {"bad_binding_driver.mrig", 4096, 0xb8e6bdf1u},
    {"bad_binding_stick_index.mrig", 4096, 0xa19f54bbu},
    {"bad_binding_bone.mrig", 4096, 0xf8a57bc4u},
    {"bad_settings_solver.mrig", 4096, 0x66f51b96u},
    {"bad_settings_bool.mrig", 4096, 0x87a0f19du},
    {"bad_settings_nan.mrig", 4096, 0xeb433ac1u},
    {"bad_validate_stiffness.mrig", 4096, 0xb0ef956au},
    {"bad_validate_bound_twice.mrig", 4096, 0x458cdf3bu},
    {"bad_validate_iterations.mrig", 4096, 0x459d67aeu},
};

/// The files the format 1.1 writer wrote (mrig_make_corpus of that version), as committed: the writer writes
/// 1.2 now, so regenerating the corpus leaves them alone.
const FrozenFile kFormat11WriterFiles[] = {
    {"good_v11_humanoid.mrig", 9168, 0x4a403c27u},
    {"good_v11_cloth_6x4.mrig", 4256, 0x6f4e903fu},
    {"good_v11_crate.mrig", 1360, 0xe12a4a28u},
    {"good_v11_full_rig.mrig", 2764, 0x5e18574au},
};

/// The files the format 1.2 writer wrote (before drive profiles), frozen when the writer moved to 1.3.
const FrozenFile kFormat12WriterFiles[] = {
    {"good_v12_humanoid.mrig", 9200, 0x20c253e8u},
    {"good_v12_cloth_6x4.mrig", 4288, 0x68b0a705u},
    {"good_v12_crate.mrig", 1392, 0x5a8ead9du},
    {"good_v12_full_rig.mrig", 2808, 0x87b8a60bu},
};

QByteArray readFile(const QString& name)
{
    QFile f(corpusDir() + QLatin1Char('/') + name);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// (file, expected) pairs of corpus/expected.txt.
QList<QPair<QString, QString>> expectations()
{
    QList<QPair<QString, QString>> out;
    QFile f(corpusDir() + QStringLiteral("/expected.txt"));
    if (!f.open(QIODevice::ReadOnly))
        return out;
    for (const QByteArray& line : f.readAll().split('\n')) {
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        const qsizetype tab = line.indexOf('\t');
        out.append({QString::fromUtf8(line.left(tab)), QString::fromUtf8(line.mid(tab + 1))});
    }
    return out;
}

} // namespace

class TestMrigCorpus : public QObject {
    Q_OBJECT

private slots:
    void expectations_coverEveryFile();
    void file_givesExpectedResult_data();
    void file_givesExpectedResult();
    void humanoidFixture_isTheFormat10Humanoid();
    void format10Files_areUnchanged();
    void format10Files_migrateLegacyFields_data();
    void format10Files_migrateLegacyFields();
    void format10FullRig_ratesAreCappedToTheirRanges();
    void format11WriterFiles_areUnchanged();
    void format12WriterFiles_areUnchangedAndLoad();
    void olderFiles_loadWithoutBendDamping();
    void olderFiles_loadWithoutDriveProfiles();
    void generatedFiles_areWrittenByThisGenerator();
};

void TestMrigCorpus::expectations_coverEveryFile()
{
    QStringList listed;
    for (const auto& e : expectations())
        listed.append(e.first);
    QStringList present = QDir(corpusDir()).entryList({QStringLiteral("*.mrig")}, QDir::Files, QDir::Name);
    listed.sort();
    QCOMPARE(listed, present);
    QVERIFY(listed.size() >= 60);
    QVERIFY(listed.filter(QStringLiteral("good_")).size() >= 5);
}

void TestMrigCorpus::file_givesExpectedResult_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    for (const auto& e : expectations())
        QTest::newRow(qPrintable(e.first)) << e.first << e.second;
}

void TestMrigCorpus::file_givesExpectedResult()
{
    QFETCH(QString, file);
    QFETCH(QString, expected);
    const std::string path = (corpusDir() + QLatin1Char('/') + file).toStdString();
    RigDescription rig;
    std::string error;
    const bool loaded = loadMrig(path, rig, &error);
    if (expected == QLatin1String("OK")) {
        QVERIFY2(loaded, error.c_str());
        QVERIFY(!rig.particles.empty());
        QCOMPARE(QString::fromStdString(rig.validate()), QString());
        return;
    }
    QVERIFY2(!loaded, "a bad file loaded");
    const QString e = QString::fromStdString(error);
    const QString prefix = QString::fromStdString(path) + QStringLiteral(": ");
    QVERIFY2(e.startsWith(prefix), qPrintable(e));
    QVERIFY2(e.contains(expected), qPrintable(QStringLiteral("'%1' does not contain '%2'").arg(e, expected)));
    QVERIFY(!e.contains(QLatin1Char('\n')));

    // The same message from the view and, without the path, from memory.
    MrigView view;
    std::string viewError;
    const bool viewOpened = view.load(path, &viewError);
    QFile f(QString::fromStdString(path));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    std::string memoryError;
    QVERIFY(!readMrig({reinterpret_cast<const std::byte*>(bytes.constData()), std::size_t(bytes.size())}, rig, &memoryError));
    QCOMPARE(QString::fromStdString(path + ": " + memoryError), e);
    if (viewOpened) { // the file is well-formed; only RigDescription::validate() refuses it
        QVERIFY(file.startsWith(QLatin1String("bad_validate_")));
        QVERIFY(!view.toDescription(rig, &viewError));
        QCOMPARE(QString::fromStdString(viewError), QString::fromStdString(memoryError));
    } else {
        QCOMPARE(QString::fromStdString(viewError), e);
    }
}

// The committed humanoid is frozen format 1.0 output: its contents, not today's makeHumanoid(), are checked.
void TestMrigCorpus::humanoidFixture_isTheFormat10Humanoid()
{
    const std::string path = (corpusDir() + QStringLiteral("/good_humanoid.mrig")).toStdString();
    MrigInfo info;
    std::string error;
    QVERIFY2(loadMrigInfo(path, info, &error), error.c_str());
    QCOMPARE(info.versionMajor, std::uint16_t(1));
    QCOMPARE(info.versionMinor, std::uint16_t(0));
    QCOMPARE(info.particles, 20u);
    QCOMPARE(info.triangles, 11u);
    QCOMPARE(info.angular, 10u);
    QCOMPARE(info.bones, 14u);
    RigDescription rig;
    QVERIFY2(loadMrig(path, rig, &error), error.c_str());
    QCOMPARE(rig.name, std::string("humanoid"));
    QCOMPARE(rig.particles[0].name, std::string("hip_l"));
    QCOMPARE(rig.particles[6].name, std::string("head"));
    QCOMPARE(rig.particles[6].position.y, 1.72f);
    // Format 1.0 settings (8 iterations per 1/60 s step, drag 0.01, 0.5 mm of static friction per step),
    // migrated: one substep, −ln(0.99)·60 ≈ 0.603/s, 0.03 m/s.
    QCOMPARE(rig.settings.substeps, 1u);
    QCOMPARE(rig.settings.iterations, 8u);
    QCOMPARE(rig.settings.solver, SolverMode::GaussSeidel);
    QVERIFY(std::fabs(rig.settings.damping - 0.603018f) < 1e-4f);
    QVERIFY(std::fabs(rig.settings.staticFrictionSpeed - 0.03f) < 1e-5f);
}

void TestMrigCorpus::format10Files_areUnchanged()
{
    QStringList listed;
    for (const auto& e : expectations())
        listed.append(e.first);
    for (const FrozenFile& f : kFormat10Files) {
        const QString name = QString::fromLatin1(f.name);
        QVERIFY2(listed.contains(name), f.name);
        const QByteArray bytes = readFile(name);
        QVERIFY2(std::size_t(bytes.size()) == f.size, qPrintable(name + QStringLiteral(": size changed")));
        const std::uint32_t crc = crc32c({reinterpret_cast<const std::byte*>(bytes.constData()), std::size_t(bytes.size())});
        QVERIFY2(crc == f.crc, qPrintable(name + QStringLiteral(": contents changed (a frozen format 1.0 fixture)")));
    }
}

void TestMrigCorpus::format10Files_migrateLegacyFields_data()
{
    QTest::addColumn<QString>("file");
    int rows = 0;
    for (const FrozenFile& f : kFormat10Files)
        if (std::strncmp(f.name, "good_", 5) == 0) {
            QTest::newRow(f.name) << QString::fromLatin1(f.name);
            ++rows;
        }
    QCOMPARE(rows, 6);
}

// A 1.0 file (no SOLV, ANGF or PINF) loads with one substep of its per-step relaxation, the solver it names,
// and the rates rig::migrateLegacy* compute from its per-step fields, bit for bit; everything else is read
// as it lies in the file.
void TestMrigCorpus::format10Files_migrateLegacyFields()
{
    QFETCH(QString, file);
    const std::string path = (corpusDir() + QLatin1Char('/') + file).toStdString();
    MrigView view;
    std::string error;
    QVERIFY2(view.load(path, &error), error.c_str());
    QVERIFY(!view.solver());
    QVERIFY(view.angularFriction().empty());
    QVERIFY(view.pinStiffness().empty());
    QVERIFY(view.info().versionMinor != 1);
    RigDescription d;
    QVERIFY2(view.toDescription(d, &error), error.c_str());
    QCOMPARE(QString::fromStdString(d.validate()), QString());

    const mrig::SettingsRecord& s = view.settings();
    Settings expected;
    migrateLegacySettings({s.timeStep, s.iterations, s.drag, s.staticFriction}, expected);
    QCOMPARE(d.settings.substeps, 1u);
    QCOMPARE(expected.substeps, 1u);
    QCOMPARE(d.settings.iterations, s.iterations);
    QCOMPARE(bits(d.settings.damping), bits(expected.damping));
    QCOMPARE(bits(d.settings.staticFrictionSpeed), bits(expected.staticFrictionSpeed));
    QCOMPARE(std::uint32_t(d.settings.solver), s.solver);
    QCOMPARE(bits(d.settings.timeStep), bits(s.timeStep));
    QCOMPARE(d.settings.maxSubsteps, s.maxSubsteps);
    QCOMPARE(bits(d.settings.gravity.y), bits(s.gravity[1]));
    QCOMPARE(bits(d.settings.friction), bits(s.friction));
    QCOMPARE(bits(d.settings.sleepVelocity), bits(s.sleepVelocity));
    QCOMPARE(bits(d.settings.sleepTime), bits(s.sleepTime));
    QCOMPARE(bits(d.settings.overRelaxation), bits(s.overRelaxation));
    QCOMPARE(d.settings.sqrtApproximation, s.sqrtApproximation != 0);
    QCOMPARE(d.settings.selfCollision, s.selfCollision != 0);

    QCOMPARE(d.angular.size(), view.angular().size());
    for (std::size_t i = 0; i < d.angular.size(); ++i) {
        const mrig::AngularRecord& r = view.angular()[i];
        AngularConstraint e;
        migrateLegacyAngularFriction(r.dynamicFriction, r.staticFrictionAngle, s.timeStep, e);
        QCOMPARE(bits(d.angular[i].damping), bits(e.damping));
        QCOMPARE(bits(d.angular[i].staticFrictionSpeed), bits(e.staticFrictionSpeed));
        QCOMPARE(bits(d.angular[i].stiffness), bits(r.stiffness));
    }
    QCOMPARE(d.pins.size(), view.pins().size());
    for (std::size_t i = 0; i < d.pins.size(); ++i) {
        const mrig::PinRecord& r = view.pins()[i];
        QCOMPARE(bits(d.pins[i].stiffness), bits(migrateLegacyPinStiffness(r.stiffness, s.iterations, s.timeStep)));
        QCOMPARE(d.pins[i].kinematic, r.kinematic != 0);
    }
}

// The 1.0 full rig uses the tops of the 1.0 ranges at a 5 ms step: drag 0.99 and 10 m of static friction per
// step, angular friction 0.999 and π per step. As rates these exceed what validate() allows (921/s, 2000 m/s,
// 1381/s, 628 rad/s); migration caps them at the tops of the new ranges, so the file still loads.
void TestMrigCorpus::format10FullRig_ratesAreCappedToTheirRanges()
{
    const std::string path = (corpusDir() + QStringLiteral("/good_full_rig.mrig")).toStdString();
    RigDescription d;
    std::string error;
    QVERIFY2(loadMrig(path, d, &error), error.c_str());
    QCOMPARE(d.settings.timeStep, 0.005f);
    QCOMPARE(d.settings.solver, SolverMode::Xpbd);
    QCOMPARE(d.settings.substeps, 1u);
    QCOMPARE(d.settings.iterations, 1u);
    QCOMPARE(d.settings.damping, 100.f);
    QCOMPARE(d.settings.staticFrictionSpeed, 100.f);
    QCOMPARE(d.angular[1].damping, 1000.f);
    QCOMPARE(d.angular[1].staticFrictionSpeed, 100.f);
    // Below the caps the formulas hold: 0.25 per step at 5 ms is −ln(0.75)/0.005 ≈ 57.5/s; 0.01 rad is 2 rad/s.
    QVERIFY(std::fabs(d.angular[0].damping - 57.536414f) < 1e-3f);
    QVERIFY(std::fabs(d.angular[0].staticFrictionSpeed - 2.f) < 1e-5f);
    // A soft pin of 0.5 per iteration, 1 iteration per 5 ms step: 1 − 0.5^(1/0.3) ≈ 0.9 per 1/60 s.
    QVERIFY(std::fabs(d.pins[0].stiffness - 0.9007875f) < 1e-5f);
    QCOMPARE(d.pins[1].stiffness, 1.f);
}

namespace {

/// Each of `files` is listed in expected.txt, still has the size and CRC-32C it was frozen with, and its header
/// says format 1.`minor`.
void checkFrozenWriterFiles(std::span<const FrozenFile> files, std::uint16_t minor)
{
    QStringList listed;
    for (const auto& e : expectations())
        listed.append(e.first);
    for (const FrozenFile& f : files) {
        const QString name = QString::fromLatin1(f.name);
        QVERIFY2(listed.contains(name), f.name);
        const QByteArray bytes = readFile(name);
        QVERIFY2(std::size_t(bytes.size()) == f.size, qPrintable(name + QStringLiteral(": size changed")));
        const std::uint32_t crc = crc32c({reinterpret_cast<const std::byte*>(bytes.constData()), std::size_t(bytes.size())});
        QVERIFY2(crc == f.crc, qPrintable(name + QStringLiteral(": contents changed (a frozen writer file)")));
        MrigInfo info;
        std::string error;
        QVERIFY2(loadMrigInfo((corpusDir() + QLatin1Char('/') + name).toStdString(), info, &error), error.c_str());
        QCOMPARE(info.versionMinor, minor);
    }
}

} // namespace

void TestMrigCorpus::format11WriterFiles_areUnchanged()
{
    checkFrozenWriterFiles(kFormat11WriterFiles, 1);
}

// The 1.2 writer's files stay byte for byte what it wrote, and a 1.3 reader loads them with no drive profiles.
void TestMrigCorpus::format12WriterFiles_areUnchangedAndLoad()
{
    checkFrozenWriterFiles(kFormat12WriterFiles, 2);
    for (const FrozenFile& f : kFormat12WriterFiles) {
        MrigInfo info;
        RigDescription d;
        std::string error;
        const std::string path = (corpusDir() + QLatin1Char('/') + QString::fromLatin1(f.name)).toStdString();
        QVERIFY2(loadMrigInfo(path, info, &error), error.c_str());
        QCOMPARE(info.driveProfiles, 0u);
        QVERIFY2(loadMrig(path, d, &error), error.c_str());
        QVERIFY(d.driveProfiles.empty());
    }
    RigDescription full;
    std::string error;
    QVERIFY2(loadMrig((corpusDir() + QStringLiteral("/good_v12_full_rig.mrig")).toStdString(), full, &error),
             error.c_str());
    // The 1.2 full rig's name, counts and bend damping (fullRig() of the time: 6 particles, 3 triangles).
    QCOMPARE(full.name, std::string("full rig \xE2\x9C\x93"));
    QCOMPARE(full.particles.size(), std::size_t(6));
    QCOMPARE(full.triangles.size(), std::size_t(3));
    QCOMPARE(full.angles[1].damping, 1000.f);
}

// Every valid file before 1.3 (names without _v13_) has no DRVP or DRPT: it loads with no drive profiles.
void TestMrigCorpus::olderFiles_loadWithoutDriveProfiles()
{
    int files = 0;
    for (const auto& e : expectations()) {
        if (e.second != QLatin1String("OK") || e.first.contains(QLatin1String("_v13_")))
            continue;
        const std::string path = (corpusDir() + QLatin1Char('/') + e.first).toStdString();
        MrigView view;
        std::string error;
        QVERIFY2(view.load(path, &error), error.c_str());
        QVERIFY2(view.driveProfiles().empty() && view.driveParts().empty(), qPrintable(e.first));
        RigDescription d;
        QVERIFY2(view.toDescription(d, &error), error.c_str());
        QVERIFY2(d.driveProfiles.empty(), qPrintable(e.first));
        ++files;
    }
    QVERIFY(files >= 19); // 1.0: 6, 1.1: 6, 1.2: 7
}

// The format 1.0 and 1.1 files (every valid file but the _v12_ and _v13_ ones) have no BNDD: every angle constraint
// loads with bend damping 0.
void TestMrigCorpus::olderFiles_loadWithoutBendDamping()
{
    int files = 0, angles = 0;
    for (const auto& e : expectations()) {
        if (e.second != QLatin1String("OK") || e.first.contains(QLatin1String("_v12_")) ||
            e.first.contains(QLatin1String("_v13_")))
            continue;
        const std::string path = (corpusDir() + QLatin1Char('/') + e.first).toStdString();
        MrigView view;
        std::string error;
        QVERIFY2(view.load(path, &error), error.c_str());
        QVERIFY2(view.bendDamping().empty(), qPrintable(e.first));
        RigDescription d;
        QVERIFY2(view.toDescription(d, &error), error.c_str());
        for (const AngleConstraint& a : d.angles) {
            QVERIFY2(bits(a.damping) == bits(0.f), qPrintable(e.first));
            ++angles;
        }
        ++files;
    }
    QVERIFY(files >= 12);
    QVERIFY(angles >= 4); // the 1.0 and 1.1 full rigs and hand-built samples have angle constraints
}

// Every file that is not frozen (the 1.0 fixtures, the 1.1 and 1.2 writers' files) comes from mrig_make_corpus's
// cases ("_v11_", "_v12_" or "_v13_" in the name) or is a fuzzer find added by hand (bad_fuzz_*); the valid 1.1
// ones hold SOLV, ANGF and PINF, the valid 1.2 and 1.3 ones BNDD as well, and only 1.3 ones drive profiles.
void TestMrigCorpus::generatedFiles_areWrittenByThisGenerator()
{
    QStringList frozen;
    for (const FrozenFile& f : kFormat10Files)
        frozen.append(QString::fromLatin1(f.name));
    for (const FrozenFile& f : kFormat11WriterFiles)
        frozen.append(QString::fromLatin1(f.name));
    for (const FrozenFile& f : kFormat12WriterFiles)
        frozen.append(QString::fromLatin1(f.name));
    int v11 = 0, v12 = 0, v13 = 0;
    for (const auto& e : expectations()) {
        if (frozen.contains(e.first))
            continue;
        if (e.first.startsWith(QLatin1String("bad_fuzz_")))
            continue;
        const bool is13 = e.first.contains(QLatin1String("_v13_"));
        const bool is12 = is13 || e.first.contains(QLatin1String("_v12_"));
        QVERIFY2(is12 || e.first.contains(QLatin1String("_v11_")), qPrintable(e.first));
        ++(is13 ? v13 : is12 ? v12 : v11);
        if (e.second != QLatin1String("OK"))
            continue;
        MrigView view;
        std::string error;
        QVERIFY2(view.load((corpusDir() + QLatin1Char('/') + e.first).toStdString(), &error), error.c_str());
        QVERIFY(view.solver());
        QCOMPARE(view.angularFriction().size(), view.angular().size());
        QCOMPARE(view.pinStiffness().size(), view.pins().size());
        if (is12) {
            QVERIFY(view.info().versionMinor >= 2);
            QCOMPARE(view.bendDamping().size(), view.angles().size());
        } else {
            QVERIFY(view.bendDamping().empty());
        }
        if (is13)
            QVERIFY(view.info().versionMinor >= 3);
        else
            QVERIFY(view.driveProfiles().empty());
    }
    QVERIFY(v11 >= 30);
    QVERIFY(v12 >= 10);
    QVERIFY(v13 >= 25);
}

QTEST_GUILESS_MAIN(TestMrigCorpus)
#include "tst_mrigcorpus.moc"
