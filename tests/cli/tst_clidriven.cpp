// `marionette simulate RIG|PROJECT --animation CLIP` run as a user runs it (QProcess) on the mannequin sample:
// a kinematic body plays the clip exactly, motors lag and stiffer ones lag less, profiles read from a project
// are the gains they say, hits by particle or by triangle, a kill drops the body, and bad input refused.
#include "marionette/import/Import.h"
#include "marionette/project/ProjectFile.h"
#include "marionette/rig/Mrig.h"
#include "marionette/runtime/Rig.h"

#include "ProcessRunner.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace marionette;

namespace {

using Run = test::ProcessRun;

Run cli(const QStringList& arguments) { return test::runProcess(QStringLiteral(MARIONETTE_CLI), arguments, 60000); }

const QString kMannequin = QStringLiteral(MARIONETTE_SAMPLES "/characters/mannequin/mannequin.mproj");
const QString kMannequinMesh = QStringLiteral(MARIONETTE_SAMPLES "/characters/mannequin/mannequin.glb");

QJsonObject jsonOf(const Run& r) { return QJsonDocument::fromJson(r.out.toUtf8()).object(); }

/// The report without the keys that name how the run was asked for.
QJsonObject figuresOf(const Run& r)
{
    QJsonObject o = jsonOf(r);
    o.remove(QStringLiteral("rig"));
    o.remove(QStringLiteral("drive"));
    return o;
}

} // namespace

class TestCliDriven : public QObject {
    Q_OBJECT

    QTemporaryDir mDir;
    project::Project mProject;
    std::shared_ptr<const runtime::Rig> mRig;
    float mWalkSeconds = 0.f;
    QString mProfiled; ///< the mannequin with drive profiles 'balanced' and 'upper_free'
    QString mBare;     ///< the mannequin without drive profiles

private slots:
    void initTestCase();
    void kinematic_playsTheClip();
    void motors_stifferTracksCloser();
    void profiles_areTheGainsTheySay();
    void hits_byParticleOrTriangle();
    void kill_dropsTheBody();
    void clipFromFile();
    void mrig_needsAClipFile();
    void help_listsTheOptions();
    void badInput_data();
    void badInput();
    void drivenScenarios_reportTheirFiguresAndFailures();
};

void TestCliDriven::initTestCase()
{
    QVERIFY(mDir.isValid());
    const project::LoadResult loaded = project::loadProject(kMannequin, mProject);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error));
    std::string error;
    mRig = runtime::Rig::build(mProject.rig, &error);
    QVERIFY2(mRig, error.c_str());
    const import::ImportResult mesh = import::importScene(kMannequinMesh.toStdString());
    QVERIFY2(mesh.ok(), mesh.error.c_str());
    for (const import::AnimationClip& c : mesh.scene.animations)
        if (c.name == "walk")
            mWalkSeconds = c.duration;
    QVERIFY(mWalkSeconds > 1.f);

    // 'balanced': what --motor 10 --pin-root 10 gives (motors on every part, the roots pinned instead);
    // 'upper_free': the pelvis and legs kinematic, the rest on 25 Hz motors. Self-collision off: the
    // mannequin's arm capsules overlap its torso's in the clips' poses, and the contacts would hold the arms
    // tens of centimetres off the clip (never within the 3 cm of a recovery).
    project::Project profiled = mProject;
    profiled.rig.settings.selfCollision = false;
    rig::DriveProfile balanced;
    balanced.name = "balanced";
    balanced.defaults.motorFrequency = 10.f;
    rig::DriveProfile upper;
    upper.name = "upper_free";
    upper.defaults.motorFrequency = 25.f;
    for (const runtime::DrivePartData& part : mRig->driveParts()) {
        if (part.parent < 0) {
            rig::DriveGains g;
            g.pinFrequency = 10.f;
            balanced.parts.push_back({part.kind, std::int32_t(part.index), g});
        }
        const std::string name = part.kind == rig::DrivePartKind::Triangle ? mProject.rig.triangles[part.index].name : "";
        if (name == "pelvis" || name.starts_with("thigh_") || name.starts_with("shin_")) {
            rig::DriveGains g;
            g.kinematic = true;
            upper.parts.push_back({part.kind, std::int32_t(part.index), g});
        }
    }
    QCOMPARE(upper.parts.size(), std::size_t(5));
    profiled.rig.driveProfiles = {balanced, upper};
    // The sample's driven scenarios name its own profiles, which these replace.
    std::erase_if(profiled.scenarios, [](const project::Scenario& s) { return s.driven.has_value(); });
    project::assignMissingIds(profiled);
    mProfiled = mDir.filePath(QStringLiteral("profiled.mproj"));
    profiled.sourceMesh.path = project::SourceMesh::relativePath(kMannequinMesh, mProfiled);
    const project::SaveResult saved = project::saveProject(mProfiled, profiled);
    QVERIFY2(saved.ok(), qPrintable(saved.error));
    profiled.rig.driveProfiles.clear();
    mBare = mDir.filePath(QStringLiteral("bare.mproj"));
    QVERIFY2(project::saveProject(mBare, profiled).ok(), "bare.mproj");
}

// Every part kinematic: each particle is placed on its target, so the bones rebuilt from the particles are the
// clip's, up to how far the clip's bones move the particles of one triangle apart (the spine bends inside the
// chest triangle): within a centimetre and 2 degrees. The report's keys, counts and maxima hold together.
void TestCliDriven::kinematic_playsTheClip()
{
    const Run r = cli({QStringLiteral("simulate"), kMannequin, QStringLiteral("--animation"), QStringLiteral("walk"),
                       QStringLiteral("--kinematic"), QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    const QJsonObject o = jsonOf(r);
    QStringList keys = o.keys();
    keys.sort();
    QCOMPARE(keys, (QStringList{QStringLiteral("bones"), QStringLiteral("clip"), QStringLiteral("drive"), QStringLiteral("fell"),
                                QStringLiteral("finite"), QStringLiteral("frames"), QStringLiteral("last_hit"),
                                QStringLiteral("lowest_root_drop"), QStringLiteral("max_limit_violation_deg"),
                                QStringLiteral("max_penetration"), QStringLiteral("max_stick_error"), QStringLiteral("min_height"),
                                QStringLiteral("parts"), QStringLiteral("recovered"), QStringLiteral("recovered_after"),
                                QStringLiteral("rig"), QStringLiteral("scene"), QStringLiteral("seconds"), QStringLiteral("source"),
                                QStringLiteral("worst_angle_bone"), QStringLiteral("worst_angle_deg"), QStringLiteral("worst_limit"),
                                QStringLiteral("worst_position_bone"), QStringLiteral("worst_position_cm"),
                                QStringLiteral("worst_stick")}));
    const double dt = double(mProject.rig.settings.timeStep);
    const qint64 frames = std::lround(double(mWalkSeconds) / dt); // the clip's duration by default
    QCOMPARE(o.value(QStringLiteral("frames")).toInteger(), frames);
    QCOMPARE(o.value(QStringLiteral("seconds")).toDouble(), double(frames) * dt);
    QCOMPARE(o.value(QStringLiteral("clip")).toString(), QStringLiteral("walk"));
    QCOMPARE(QFileInfo(o.value(QStringLiteral("source")).toString()).canonicalFilePath(), QFileInfo(kMannequinMesh).canonicalFilePath());
    QCOMPARE(o.value(QStringLiteral("finite")).toBool(), true);
    QCOMPARE(o.value(QStringLiteral("fell")).toBool(), false);
    QCOMPARE(o.value(QStringLiteral("last_hit")).toDouble(), -1.0);
    QCOMPARE(o.value(QStringLiteral("recovered")).toBool(), false);
    QCOMPARE(o.value(QStringLiteral("recovered_after")).toDouble(), -1.0);
    const double worstCm = o.value(QStringLiteral("worst_position_cm")).toDouble(-1.0);
    const double worstDeg = o.value(QStringLiteral("worst_angle_deg")).toDouble(-1.0);
    QVERIFY2(worstCm >= 0.0 && worstCm < 1.0, qPrintable(r.out));
    QVERIFY2(worstDeg >= 0.0 && worstDeg < 2.0, qPrintable(r.out));

    // One entry per drive part and per bone; the run's worst is the worst bone's, and names it.
    const QJsonArray parts = o.value(QStringLiteral("parts")).toArray();
    const QJsonArray bones = o.value(QStringLiteral("bones")).toArray();
    QCOMPARE(std::size_t(parts.size()), mRig->driveParts().size());
    QCOMPARE(std::size_t(bones.size()), mProject.rig.bones.size());
    for (const QJsonValue& p : parts) {
        QVERIFY2(!p[QStringLiteral("name")].toString().isEmpty(), qPrintable(r.out));
        QVERIFY(p[QStringLiteral("kind")].toString() == QLatin1String("triangle") ||
                p[QStringLiteral("kind")].toString() == QLatin1String("stick"));
        QVERIFY2(p[QStringLiteral("position_cm")].toDouble(-1.0) >= 0.0 && p[QStringLiteral("position_cm")].toDouble() < 1.0, qPrintable(r.out));
    }
    double maxCm = 0.0, maxDeg = 0.0;
    QString maxCmBone, maxDegBone;
    for (const QJsonValue& b : bones) {
        if (b[QStringLiteral("position_cm")].toDouble() > maxCm) {
            maxCm = b[QStringLiteral("position_cm")].toDouble();
            maxCmBone = b[QStringLiteral("name")].toString();
        }
        if (b[QStringLiteral("angle_deg")].toDouble() > maxDeg) {
            maxDeg = b[QStringLiteral("angle_deg")].toDouble();
            maxDegBone = b[QStringLiteral("name")].toString();
        }
    }
    QCOMPARE(maxCm, worstCm);
    QCOMPARE(maxDeg, worstDeg);
    QCOMPARE(o.value(QStringLiteral("worst_position_bone")).toString(), maxCmBone);
    QCOMPARE(o.value(QStringLiteral("worst_angle_bone")).toString(), maxDegBone);
    QCOMPARE(bones.first()[QStringLiteral("position_cm")].toDouble(), 0.0); // the root, positions are relative to it

    // The text report says the same.
    const Run text = cli({QStringLiteral("simulate"), kMannequin, QStringLiteral("--animation"), QStringLiteral("walk"),
                          QStringLiteral("--kinematic")});
    QVERIFY2(text.exitCode == 0, qPrintable(text.describe()));
    QVERIFY2(text.out.contains(QStringLiteral("clip 'walk'")) && text.out.contains(QStringLiteral("%1 frames").arg(frames)),
             qPrintable(text.out));
    QVERIFY2(text.out.contains(QStringLiteral("worst position      %1 cm (%2)").arg(worstCm, 0, 'f', 1).arg(maxCmBone)),
             qPrintable(text.out));
    QVERIFY2(text.out.contains(QStringLiteral("fell                no")), qPrintable(text.out));
    QVERIFY2(text.out.contains(QStringLiteral("recovered           no hit")), qPrintable(text.out));
}

// Motors lag behind the clip (it moves, the springs follow), less so when they are stiffer; the body stays up.
void TestCliDriven::motors_stifferTracksCloser()
{
    auto worst = [](const char* hz) {
        const Run r = cli({QStringLiteral("simulate"), kMannequin, QStringLiteral("--animation"), QStringLiteral("walk"),
                           QStringLiteral("--motor"), QString::fromLatin1(hz), QStringLiteral("--pin-root"), QString::fromLatin1(hz),
                           QStringLiteral("--json")});
        const QJsonObject o = jsonOf(r);
        return r.exitCode == 0 && o.value(QStringLiteral("finite")).toBool() && !o.value(QStringLiteral("fell")).toBool(true)
                   ? o.value(QStringLiteral("worst_position_cm")).toDouble(-1.0) : -1.0;
    };
    const double soft = worst("10"), stiff = worst("30");
    QVERIFY2(soft > 1.0, qPrintable(QString::number(soft)));
    QVERIFY2(stiff > 0.0 && stiff < soft, qPrintable(QStringLiteral("%1 vs %2").arg(stiff).arg(soft)));
}

// A profile read from the project is the gains it says: 'balanced' (the default) runs exactly as --motor 10
// --pin-root 10; an unknown profile, or none to default to, is refused naming those there are.
void TestCliDriven::profiles_areTheGainsTheySay()
{
    const QStringList base{QStringLiteral("simulate"), mProfiled, QStringLiteral("--animation"), QStringLiteral("walk"),
                           QStringLiteral("--frames"), QStringLiteral("90"), QStringLiteral("--json")};
    const Run byDefault = cli(base);
    const Run named = cli(base + QStringList{QStringLiteral("--profile"), QStringLiteral("balanced")});
    const Run flags = cli(base + QStringList{QStringLiteral("--motor"), QStringLiteral("10"), QStringLiteral("--pin-root"), QStringLiteral("10")});
    QVERIFY2(byDefault.exitCode == 0 && named.exitCode == 0 && flags.exitCode == 0,
             qPrintable(byDefault.describe() + named.describe() + flags.describe()));
    QCOMPARE(byDefault.out, named.out);
    QCOMPARE(jsonOf(named).value(QStringLiteral("drive")).toString(), QStringLiteral("profile 'balanced'"));
    QCOMPARE(figuresOf(named), figuresOf(flags));
    const Run other = cli(base + QStringList{QStringLiteral("--profile"), QStringLiteral("upper_free")});
    QVERIFY2(other.exitCode == 0 && figuresOf(other) != figuresOf(named), qPrintable(other.describe()));

    const Run unknown = cli(base + QStringList{QStringLiteral("--profile"), QStringLiteral("stiff")});
    QCOMPARE(unknown.exitCode, 1);
    QVERIFY2(unknown.err.contains(QStringLiteral("error: %1: no drive profile 'stiff' (it has 'balanced', 'upper_free')").arg(mProfiled)),
             qPrintable(unknown.describe()));
    const Run none = cli({QStringLiteral("simulate"), mBare, QStringLiteral("--animation"), QStringLiteral("walk")});
    QCOMPARE(none.exitCode, 1);
    QVERIFY2(none.err.contains(QStringLiteral("error: %1: no drive profile 'balanced' to play with by default (it has none)")
                                   .arg(mBare)),
             qPrintable(none.describe()));
    QVERIFY2(none.out.isEmpty(), qPrintable(none.describe()));

    // The sample's own 'balanced' profile is the default: the walk stays up and finite.
    const Run sample = cli({QStringLiteral("simulate"), kMannequin, QStringLiteral("--animation"), QStringLiteral("walk"), QStringLiteral("--json")});
    QVERIFY2(sample.exitCode == 0, qPrintable(sample.describe()));
    QCOMPARE(jsonOf(sample).value(QStringLiteral("drive")).toString(), QStringLiteral("profile 'balanced'"));
    QCOMPARE(jsonOf(sample).value(QStringLiteral("fell")).toBool(true), false);
    QCOMPARE(jsonOf(sample).value(QStringLiteral("finite")).toBool(), true);
}

// A hit on a triangle is its impulse split over the three corners: the same run as three particle hits of a
// third each, by name or by index. The hit knocks the head off the clip; the motors bring it back.
void TestCliDriven::hits_byParticleOrTriangle()
{
    const rig::Triangle* head = nullptr;
    for (const rig::Triangle& t : mProject.rig.triangles)
        if (t.name == "head")
            head = &t;
    QVERIFY(head);
    const QStringList base{QStringLiteral("simulate"), mProfiled, QStringLiteral("--animation"), QStringLiteral("idle"),
                           QStringLiteral("--profile"), QStringLiteral("upper_free"), QStringLiteral("--frames"),
                           QStringLiteral("180"), QStringLiteral("--json")};
    const Run calm = cli(base);
    const Run byTriangle = cli(base + QStringList{QStringLiteral("--hit-part"), QStringLiteral("1:head:0,0,30")});
    QStringList corners;
    for (int k = 0; k < 3; ++k) {
        const auto& p = mProject.rig.particles[std::size_t(head->p[k])];
        corners << QStringLiteral("--hit")
                << QStringLiteral("1:%1:0,0,10").arg(k == 0 ? QString::fromStdString(p.name) : QString::number(head->p[k]));
    }
    const Run byParticles = cli(base + corners);
    QVERIFY2(calm.exitCode == 0 && byTriangle.exitCode == 0 && byParticles.exitCode == 0,
             qPrintable(calm.describe() + byTriangle.describe() + byParticles.describe()));
    QCOMPARE(byTriangle.out, byParticles.out);

    // The head part's error (its centre from its target, in the world) grows by centimetres.
    auto headCm = [](const Run& r) {
        for (const QJsonValue& p : jsonOf(r).value(QStringLiteral("parts")).toArray())
            if (p[QStringLiteral("name")].toString() == QLatin1String("head"))
                return p[QStringLiteral("position_cm")].toDouble(-1.0);
        return -1.0;
    };
    QVERIFY2(headCm(calm) >= 0.0 && headCm(byTriangle) > headCm(calm) + 2.0, qPrintable(calm.out + byTriangle.out));
    const QJsonObject after = jsonOf(byTriangle);
    QCOMPARE(after.value(QStringLiteral("last_hit")).toDouble(), 1.0);
    QCOMPARE(after.value(QStringLiteral("fell")).toBool(), false); // the legs are kinematic
    const double back = after.value(QStringLiteral("recovered_after")).toDouble(-1.0);
    QVERIFY2(after.value(QStringLiteral("recovered")).toBool() && back > 0.0 && back < 2.0, qPrintable(byTriangle.out));
}

// Killed, the drives blend to nothing and the walking body falls.
void TestCliDriven::kill_dropsTheBody()
{
    const QStringList base{QStringLiteral("simulate"), kMannequin, QStringLiteral("--animation"), QStringLiteral("walk"),
                           QStringLiteral("--motor"), QStringLiteral("10"), QStringLiteral("--pin-root"), QStringLiteral("10"),
                           QStringLiteral("--json")};
    const Run alive = cli(base);
    const Run killed = cli(base + QStringList{QStringLiteral("--kill"), QStringLiteral("0.5:0.2")});
    QVERIFY2(alive.exitCode == 0 && killed.exitCode == 0, qPrintable(alive.describe() + killed.describe()));
    QCOMPARE(jsonOf(alive).value(QStringLiteral("fell")).toBool(), false);
    QCOMPARE(jsonOf(killed).value(QStringLiteral("fell")).toBool(), true);
    QVERIFY2(jsonOf(killed).value(QStringLiteral("finite")).toBool(), qPrintable(killed.out));
}

// FILE:NAME takes the clip from a file: the project's own mesh named as a file is the same run as its clip name.
void TestCliDriven::clipFromFile()
{
    const QStringList options{QStringLiteral("--kinematic"), QStringLiteral("--frames"), QStringLiteral("30"), QStringLiteral("--json")};
    const Run byName = cli(QStringList{QStringLiteral("simulate"), kMannequin, QStringLiteral("--animation"), QStringLiteral("walk")} + options);
    const Run byFile = cli(QStringList{QStringLiteral("simulate"), kMannequin, QStringLiteral("--animation"),
                                       kMannequinMesh + QStringLiteral(":walk")} + options);
    QVERIFY2(byName.exitCode == 0 && byFile.exitCode == 0, qPrintable(byName.describe() + byFile.describe()));
    QJsonObject a = jsonOf(byName), b = jsonOf(byFile);
    a.remove(QStringLiteral("source"));
    b.remove(QStringLiteral("source"));
    QCOMPARE(a, b);
}

// A bare .mrig has no mesh: a clip name is refused; FILE:NAME's skeleton is matched to its bones by name, the
// same run as the project's.
void TestCliDriven::mrig_needsAClipFile()
{
    const QString mrig = mDir.filePath(QStringLiteral("mannequin.mrig"));
    std::string error;
    QVERIFY2(rig::saveMrig(mrig.toStdString(), mProject.rig, &error), error.c_str());
    const Run byName = cli({QStringLiteral("simulate"), mrig, QStringLiteral("--animation"), QStringLiteral("walk"), QStringLiteral("--kinematic")});
    QCOMPARE(byName.exitCode, 1);
    QVERIFY2(byName.err == QStringLiteral("error: %1: a .mrig has no mesh to take clip 'walk' from; give --animation FILE[:NAME]\n").arg(mrig),
             qPrintable(byName.describe()));
    const QStringList options{QStringLiteral("--animation"), kMannequinMesh + QStringLiteral(":walk"), QStringLiteral("--kinematic"),
                              QStringLiteral("--frames"), QStringLiteral("30"), QStringLiteral("--json")};
    const Run fromMrig = cli(QStringList{QStringLiteral("simulate"), mrig} + options);
    const Run fromProject = cli(QStringList{QStringLiteral("simulate"), kMannequin} + options);
    QVERIFY2(fromMrig.exitCode == 0 && fromProject.exitCode == 0, qPrintable(fromMrig.describe() + fromProject.describe()));
    QCOMPARE(figuresOf(fromMrig), figuresOf(fromProject));
}

// simulate's help points to --animation's, which lists its options.
void TestCliDriven::help_listsTheOptions()
{
    const Run plain = cli({QStringLiteral("simulate"), QStringLiteral("--help")});
    QVERIFY2(plain.exitCode == 0 && plain.out.contains(QStringLiteral("marionette simulate --animation=x --help")), qPrintable(plain.describe()));
    const Run driven = cli({QStringLiteral("simulate"), QStringLiteral("--animation=x"), QStringLiteral("--help")});
    QVERIFY2(driven.exitCode == 0, qPrintable(driven.describe()));
    for (const char* option : {"--profile NAME", "--motor HZ", "--pin-root HZ", "--kinematic", "--hit T:P:JX,JY,JZ",
                               "--hit-part T:TRI:J", "--kill T[:BLEND]", "--frames N", "--json"})
        QVERIFY2(driven.out.contains(QLatin1String(option)), option);
}

void TestCliDriven::badInput_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    const QString samples = QStringLiteral(MARIONETTE_SAMPLES "/characters");
    const QString k = QStringLiteral("--kinematic");
    QTest::newRow("unknown clip") << QStringList{QStringLiteral("--animation"), QStringLiteral("run"), k} << 1
                                  << QStringLiteral("mannequin.glb: no clip 'run' (it has 'idle', 'walk', 'getup_back', 'getup_front')");
    QTest::newRow("several clips, none named") << QStringList{QStringLiteral("--animation"), kMannequinMesh, k} << 1
                                               << QStringLiteral("mannequin.glb: has 4 clips ('idle', 'walk', 'getup_back', 'getup_front'); name one as FILE:NAME");
    QTest::newRow("missing file") << QStringList{QStringLiteral("--animation"), QStringLiteral("clips/run.fbx:Run"), k} << 1
                                  << QStringLiteral("error: clips/run.fbx: no such file");
    QTest::newRow("file without clips") << QStringList{QStringLiteral("--animation"), QStringLiteral("@STATIC@"), k} << 1
                                        << QStringLiteral("static.obj: has no animation clips");
    QTest::newRow("skeleton sharing no bone") << QStringList{QStringLiteral("--animation"), samples + QStringLiteral("/bcn_epileptic/BCN_Epileptic.X"), k}
                                              << 1 << QStringLiteral("BCN_Epileptic.X: its skeleton (54 bones) shares no bone name with the rig's 21 bones");
    QTest::newRow("malformed hit") << QStringList{QStringLiteral("--animation"), QStringLiteral("walk"), k, QStringLiteral("--hit"), QStringLiteral("1:head")}
                                   << 2 << QStringLiteral("error: --hit '1:head' is not T:PARTICLE:JX,JY,JZ");
    QTest::newRow("NaN impulse") << QStringList{QStringLiteral("--animation"), QStringLiteral("walk"), k, QStringLiteral("--hit"), QStringLiteral("1:head:0,nan,0")}
                                 << 2 << QStringLiteral("error: --hit '1:head:0,nan,0' is not T:PARTICLE:JX,JY,JZ");
    QTest::newRow("NaN time") << QStringList{QStringLiteral("--animation"), QStringLiteral("walk"), k, QStringLiteral("--hit-part"), QStringLiteral("nan:chest:0,1,0")}
                              << 2 << QStringLiteral("error: --hit-part 'nan:chest:0,1,0' is not T:TRIANGLE:JX,JY,JZ");
    QTest::newRow("unknown particle") << QStringList{QStringLiteral("--animation"), QStringLiteral("walk"), k, QStringLiteral("--hit"), QStringLiteral("1:tail:0,1,0")}
                                      << 1 << QStringLiteral("--hit '1:tail:0,1,0': no particle 'tail' (20 particles)");
    QTest::newRow("particle index out of range") << QStringList{QStringLiteral("--animation"), QStringLiteral("walk"), k, QStringLiteral("--hit"), QStringLiteral("1:20:0,1,0")}
                                                 << 1 << QStringLiteral("no particle '20' (20 particles)");
    QTest::newRow("unknown triangle") << QStringList{QStringLiteral("--animation"), QStringLiteral("walk"), k, QStringLiteral("--hit-part"), QStringLiteral("1:wing:0,1,0")}
                                      << 1 << QStringLiteral("--hit-part '1:wing:0,1,0': no triangle 'wing' (11 triangles)");
    QTest::newRow("hit after the end") << QStringList{QStringLiteral("--animation"), QStringLiteral("walk"), k, QStringLiteral("--frames"), QStringLiteral("60"),
                                                      QStringLiteral("--hit"), QStringLiteral("2:head:0,1,0")}
                                       << 2 << QStringLiteral("error: a hit at 2 s is at or after the run's end (1 s)");
    QTest::newRow("hit at the end") << QStringList{QStringLiteral("--animation"), QStringLiteral("walk"), k, QStringLiteral("--frames"), QStringLiteral("60"),
                                                   QStringLiteral("--hit-part"), QStringLiteral("1:head:0,1,0")}
                                    << 2 << QStringLiteral("error: a hit at 1 s is at or after the run's end (1 s)");
    QTest::newRow("kill after the end") << QStringList{QStringLiteral("--animation"), QStringLiteral("walk"), k, QStringLiteral("--frames"), QStringLiteral("60"),
                                                       QStringLiteral("--kill"), QStringLiteral("3")}
                                        << 2 << QStringLiteral("error: --kill at 3 s is at or after the run's end (1 s)");
    QTest::newRow("malformed kill") << QStringList{QStringLiteral("--animation"), QStringLiteral("walk"), k, QStringLiteral("--kill"), QStringLiteral("1:2:3")}
                                    << 2 << QStringLiteral("error: --kill '1:2:3' is not T[:BLEND] (seconds)");
    QTest::newRow("NaN motor") << QStringList{QStringLiteral("--animation"), QStringLiteral("walk"), QStringLiteral("--motor"), QStringLiteral("nan")}
                               << 2 << QStringLiteral("error: --motor must be a number in [0, 60], not 'nan'");
    QTest::newRow("profile and motor") << QStringList{QStringLiteral("--animation"), QStringLiteral("walk"), QStringLiteral("--motor"), QStringLiteral("5"),
                                                      QStringLiteral("--profile"), QStringLiteral("balanced")}
                                       << 2 << QStringLiteral("error: --profile, --motor and --kinematic exclude each other");
    QTest::newRow("zero frames") << QStringList{QStringLiteral("--animation"), QStringLiteral("walk"), k, QStringLiteral("--frames"), QStringLiteral("0")}
                                 << 2 << QStringLiteral("error: --frames must be an integer in [1, 1000000], not '0'");
    QTest::newRow("empty clip") << QStringList{QStringLiteral("--animation="), k} << 2
                                << QStringLiteral("error: --animation needs a clip name or FILE[:NAME]");
}

void TestCliDriven::badInput()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    const QString staticMesh = mDir.filePath(QStringLiteral("static.obj"));
    QFile obj(staticMesh);
    QVERIFY(obj.open(QIODevice::WriteOnly));
    obj.write("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    obj.close();
    arguments.replaceInStrings(QStringLiteral("@STATIC@"), staticMesh);
    const Run r = cli(QStringList{QStringLiteral("simulate"), kMannequin} + arguments);
    QVERIFY2(r.exitCode == exitCode && r.out.isEmpty(), qPrintable(r.describe()));
    QVERIFY2(r.err.contains(message), qPrintable(r.describe()));
    // One error line (warnings from the import may come before it).
    const QStringList lines = r.err.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY2(lines.filter(QStringLiteral("error: ")).size() == 1, qPrintable(r.describe()));
    if (exitCode == 1)
        QVERIFY2(lines.filter(QStringLiteral("error: ")).first().contains(QRegularExpression(QStringLiteral("^error: [^ ]+: "))),
                 qPrintable(r.describe()));
}

// The mannequin's driven scenarios through `simulate --scenario`: the JSON carries the driven figures, the
// line says how the body recovered and ended, and a driven expectation it misses fails with exit code 1.
void TestCliDriven::drivenScenarios_reportTheirFiguresAndFailures()
{
    Run r = cli({QStringLiteral("simulate"), kMannequin, QStringLiteral("--scenario"), QStringLiteral("hit while walking"),
                 QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    const QJsonObject hit = jsonOf(r)[QStringLiteral("scenarios")].toArray().at(0).toObject();
    QVERIFY(hit[QStringLiteral("passed")].toBool());
    const QJsonObject driven = hit[QStringLiteral("driven")].toObject();
    const double recovered = driven[QStringLiteral("recovered_after")].toDouble(-1.0);
    QVERIFY2(recovered > 0.0 && recovered <= 1.5, qPrintable(r.out));
    QCOMPARE(driven[QStringLiteral("fell_at")].toDouble(), -1.0);
    QCOMPARE(driven[QStringLiteral("end_phase")].toString(), QStringLiteral("playing"));
    QVERIFY(std::abs(driven[QStringLiteral("last_disturbance")].toDouble() - 1.5) < 1e-3);

    r = cli({QStringLiteral("simulate"), kMannequin, QStringLiteral("--scenario"), QStringLiteral("killed while walking")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QVERIFY2(r.out.startsWith(QStringLiteral("PASS killed while walking: ")) && r.out.contains(QStringLiteral(", fell at ")) &&
                 r.out.contains(QStringLiteral("ends limp at")),
             qPrintable(r.out));

    // Expected to stand at the end, the killed body fails saying it is limp.
    project::Project p = mProject;
    for (project::Scenario& s : p.scenarios)
        if (s.name == QLatin1String("killed while walking"))
            s.expect.standsAtEnd = true;
    const QString path = mDir.filePath(QStringLiteral("standing.mproj"));
    p.sourceMesh.path = project::SourceMesh::relativePath(kMannequinMesh, path);
    QVERIFY(project::saveProject(path, p).ok());
    r = cli({QStringLiteral("simulate"), path, QStringLiteral("--scenario"), QStringLiteral("killed while walking")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("scenario 'killed while walking': stands: at the end the body is limp")),
             qPrintable(r.err));
}

QTEST_GUILESS_MAIN(TestCliDriven)
#include "tst_clidriven.moc"
