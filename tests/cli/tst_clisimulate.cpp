// The `marionette` simulation commands run as a user runs them (QProcess): `simulate` (the drop's figures,
// hits by name or index, the yaw, bad arguments), `bench` and `render`, on the procedural humanoid's rig.
#include "marionette/project/Project.h"
#include "marionette/rig/Mrig.h"
#include "marionette/runtime/Procedural.h"
#include "marionette/runtime/World.h"

#include "ProcessRunner.h"

#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstdlib>

using namespace marionette;

namespace {

using Run = test::ProcessRun;

Run cli(const QStringList& arguments) { return test::runProcess(QStringLiteral(MARIONETTE_CLI), arguments, 30000); }

} // namespace

class TestCliSimulate : public QObject {
    Q_OBJECT

    QTemporaryDir mDir;
    rig::RigDescription mHumanoid;
    QString mRig;

    QString path(const char* name) const { return mDir.filePath(QString::fromLatin1(name)); }

private slots:
    void initTestCase();
    void simulate_reportsTheDrop_data();
    void simulate_reportsTheDrop();
    void simulate_hitsByNameOrIndex();
    void simulate_yawTurnsTheDrop();
    void simulate_solverOverride();
    void simulate_badArguments_data();
    void simulate_badArguments();
    void bench_reportsMedians();
    void render_drawsTheDrop();
    void render_projectWithMesh();
};

void TestCliSimulate::initTestCase()
{
    QVERIFY(mDir.isValid());
    mHumanoid = runtime::makeHumanoid();
    project::assignMissingIds(mHumanoid);
    mRig = path("hero.mrig");
    std::string error;
    QVERIFY2(rig::saveMrig(mRig.toStdString(), mHumanoid, &error), error.c_str());
}

void TestCliSimulate::simulate_reportsTheDrop_data()
{
    QTest::addColumn<QString>("scene");
    QTest::newRow("floor") << QStringLiteral("floor");
    QTest::newRow("stairs") << QStringLiteral("stairs");
    QTest::newRow("ledge") << QStringLiteral("ledge");
}

void TestCliSimulate::simulate_reportsTheDrop()
{
    QFETCH(QString, scene);
    const Run r = cli({QStringLiteral("simulate"), mRig, QStringLiteral("--json"), QStringLiteral("--frames"), QStringLiteral("360"),
                       QStringLiteral("--drop"), QStringLiteral("1.5"), QStringLiteral("--scene"), scene});
    QVERIFY2(r.exitCode == 0 && r.err.isEmpty(), qPrintable(r.describe()));
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QStringList keys = o.keys();
    keys.sort();
    QCOMPARE(keys, (QStringList{QStringLiteral("dropped_contacts"), QStringLiteral("finite"), QStringLiteral("frames"),
                                QStringLiteral("max_limit_violation_deg"), QStringLiteral("max_penetration"),
                                QStringLiteral("max_stick_error"), QStringLiteral("max_stick_error_impact"),
                                QStringLiteral("max_stick_error_rest"), QStringLiteral("min_height"),
                                QStringLiteral("settle_seconds"), QStringLiteral("settled_frame"), QStringLiteral("worst_limit"),
                                QStringLiteral("worst_stick")}));
    QCOMPARE(o.value(QStringLiteral("frames")).toInteger(), 360);
    QCOMPARE(o.value(QStringLiteral("finite")).toBool(), true);
    const qint64 settled = o.value(QStringLiteral("settled_frame")).toInteger(-2);
    QVERIFY2(settled > 30 && settled < 360, qPrintable(r.out)); // it fell first, then came to rest
    QCOMPARE(o.value(QStringLiteral("settle_seconds")).toDouble(), double(settled + 1) * double(1.f / 60.f));
    QCOMPARE(o.value(QStringLiteral("dropped_contacts")).toInteger(-1), 0);
    // The impact window and the last second are parts of the run: never above the whole run's worst.
    const double impact = o.value(QStringLiteral("max_stick_error_impact")).toDouble(-1.0);
    const double rest = o.value(QStringLiteral("max_stick_error_rest")).toDouble(-1.0);
    QVERIFY2(impact > 0.0 && impact <= o.value(QStringLiteral("max_stick_error")).toDouble(), qPrintable(r.out));
    QVERIFY2(rest >= 0.0 && rest <= o.value(QStringLiteral("max_stick_error")).toDouble(), qPrintable(r.out));
    QVERIFY2(rest < 0.01, qPrintable(r.out)); // at rest every stick within 1 % of its length
    // The worst stick is named as the rig names it (a description stick, or a triangle edge / angle constraint).
    QVERIFY2(!o.value(QStringLiteral("worst_stick")).toString().isEmpty(), qPrintable(r.out));
    QVERIFY2(o.value(QStringLiteral("max_penetration")).toDouble(1.0) < 0.01, qPrintable(r.out));
    QVERIFY2(o.value(QStringLiteral("min_height")).toDouble(-1.0) > 0.0, qPrintable(r.out)); // particle centres above the floor
    const double stickError = o.value(QStringLiteral("max_stick_error")).toDouble(-1.0);
    QVERIFY2(stickError > 0.0 && stickError < 1.0, qPrintable(r.out)); // transient, at the impact: no stick doubles
    QVERIFY2(o.value(QStringLiteral("max_limit_violation_deg")).toDouble(-1.0) >= 0.0, qPrintable(r.out));
}

// A hit named by particle name or by index is the same hit (the run is deterministic), and changes the run.
void TestCliSimulate::simulate_hitsByNameOrIndex()
{
    const auto wrist = std::find_if(mHumanoid.particles.begin(), mHumanoid.particles.end(),
                                    [](const rig::Particle& p) { return p.name == "wrist_l"; });
    QVERIFY(wrist != mHumanoid.particles.end());
    const QString index = QString::number(wrist - mHumanoid.particles.begin());
    const QStringList base{QStringLiteral("simulate"), mRig, QStringLiteral("--json"), QStringLiteral("--frames"), QStringLiteral("120")};
    const Run byName = cli(base + QStringList{QStringLiteral("--hit"), QStringLiteral("wrist_l:0,30,-10@20")});
    const Run byIndex = cli(base + QStringList{QStringLiteral("--hit"), index + QStringLiteral(":0,30,-10@20")});
    const Run none = cli(base);
    QVERIFY2(byName.exitCode == 0 && byIndex.exitCode == 0 && none.exitCode == 0, qPrintable(byName.describe() + byIndex.describe()));
    QCOMPARE(byName.out, byIndex.out);
    QVERIFY2(byName.out != none.out, qPrintable(none.out));
}

// --yaw turns the rig about the vertical before the drop: 0 is the default, and a turned body lands
// another way (a standing body topples in another direction; across the ledge's edge another way).
void TestCliSimulate::simulate_yawTurnsTheDrop()
{
    const QStringList base{QStringLiteral("simulate"), mRig, QStringLiteral("--json"), QStringLiteral("--frames"), QStringLiteral("300"),
                           QStringLiteral("--drop"), QStringLiteral("1")};
    const Run plain = cli(base);
    const Run zero = cli(base + QStringList{QStringLiteral("--yaw"), QStringLiteral("0")});
    QVERIFY2(plain.exitCode == 0 && zero.exitCode == 0, qPrintable(plain.describe() + zero.describe()));
    QCOMPARE(zero.out, plain.out);
    for (const QString& scene : {QStringLiteral("floor"), QStringLiteral("ledge")}) {
        const QStringList onScene = base + QStringList{QStringLiteral("--scene"), scene};
        const Run straight = cli(onScene);
        const Run turned = cli(onScene + QStringList{QStringLiteral("--yaw"), QStringLiteral("-90")});
        QVERIFY2(straight.exitCode == 0 && turned.exitCode == 0, qPrintable(straight.describe() + turned.describe()));
        QVERIFY2(QJsonDocument::fromJson(turned.out.toUtf8()).object().value(QStringLiteral("finite")).toBool(), qPrintable(turned.out));
        QVERIFY2(turned.out != straight.out, qPrintable(scene + QStringLiteral(": ") + turned.out));
    }
}

// --solver runs the rig with another solver: one relaxation sweep per step (the cheapest schedule) lets the
// 1.5 m drop stretch the sticks far more than the rig's own direct solver does; naming the rig's own solver
// changes nothing.
void TestCliSimulate::simulate_solverOverride()
{
    const QStringList base{QStringLiteral("simulate"), mRig, QStringLiteral("--json"), QStringLiteral("--frames"), QStringLiteral("120"),
                           QStringLiteral("--drop"), QStringLiteral("1.5")};
    const Run own = cli(base);
    const Run direct = cli(base + QStringList{QStringLiteral("--solver"), QStringLiteral("direct")});
    const Run relaxed = cli(base + QStringList{QStringLiteral("--solver"), QStringLiteral("gauss-seidel"), QStringLiteral("--substeps"),
                                               QStringLiteral("1"), QStringLiteral("--iterations"), QStringLiteral("1")});
    QVERIFY2(own.exitCode == 0 && direct.exitCode == 0 && relaxed.exitCode == 0,
             qPrintable(own.describe() + direct.describe() + relaxed.describe()));
    QCOMPARE(direct.out, own.out);
    const auto stretch = [](const Run& r) {
        return QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("max_stick_error")).toDouble(-1.0);
    };
    QVERIFY2(stretch(own) >= 0.0 && stretch(own) < 0.005, qPrintable(own.out));
    QVERIFY2(stretch(relaxed) > 4.0 * stretch(own), qPrintable(relaxed.out));
}

void TestCliSimulate::simulate_badArguments_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown particle") << QStringList{QStringLiteral("--hit"), QStringLiteral("tail:0,1,0@3")} << 1
                                      << QStringLiteral("--hit 'tail:0,1,0@3': no particle named 'tail' (20 particles)");
    QTest::newRow("particle index out of range") << QStringList{QStringLiteral("--hit"), QStringLiteral("20:0,1,0@3")} << 1
                                                 << QStringLiteral("no particle 20 (20 particles)");
    QTest::newRow("hit without frame") << QStringList{QStringLiteral("--hit"), QStringLiteral("head:0,1,0")} << 2
                                       << QStringLiteral("error: --hit 'head:0,1,0' is not PARTICLE:FX,FY,FZ@FRAME");
    QTest::newRow("non-finite impulse") << QStringList{QStringLiteral("--hit"), QStringLiteral("head:0,inf,0@2")} << 2
                                        << QStringLiteral("is not PARTICLE:FX,FY,FZ@FRAME");
    QTest::newRow("zero frames") << QStringList{QStringLiteral("--frames"), QStringLiteral("0")} << 2
                                 << QStringLiteral("error: --frames must be an integer in [1, 1000000], not '0'");
    QTest::newRow("unknown scene") << QStringList{QStringLiteral("--scene"), QStringLiteral("moon")} << 2
                                   << QStringLiteral("error: --scene must be floor, stairs, ledge or box, not 'moon'");
    QTest::newRow("negative drop") << QStringList{QStringLiteral("--drop"), QStringLiteral("-1")} << 2
                                   << QStringLiteral("error: --drop must be a number in [0, 1000], not '-1'");
    QTest::newRow("yaw past a turn") << QStringList{QStringLiteral("--yaw"), QStringLiteral("400")} << 2
                                     << QStringLiteral("error: --yaw must be a number in [-360, 360], not '400'");
    QTest::newRow("zero substeps") << QStringList{QStringLiteral("--substeps"), QStringLiteral("0")} << 2
                                   << QStringLiteral("error: --substeps must be an integer in [1, 64], not '0'");
    QTest::newRow("too many iterations") << QStringList{QStringLiteral("--iterations"), QStringLiteral("65")} << 2
                                         << QStringLiteral("error: --iterations must be an integer in [1, 64], not '65'");
    QTest::newRow("unknown solver") << QStringList{QStringLiteral("--solver"), QStringLiteral("newton")} << 2
                                    << QStringLiteral("error: --solver must be gauss-seidel, jacobi, xpbd or direct, not 'newton'");
}

void TestCliSimulate::simulate_badArguments()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    const Run r = cli(QStringList{QStringLiteral("simulate"), mRig} + arguments);
    QVERIFY2(r.exitCode == exitCode && r.out.isEmpty(), qPrintable(r.describe()));
    QVERIFY2(r.err.contains(message), qPrintable(r.describe()));
    if (exitCode == 1)
        QVERIFY2(r.err.startsWith(QStringLiteral("error: %1: ").arg(mRig)), qPrintable(r.describe()));
}

// `bench --json` prints the contract's keys with the numbers asked for; the per-ragdoll figure is the median
// step divided by the ragdoll count.
void TestCliSimulate::bench_reportsMedians()
{
    Run r = cli({QStringLiteral("bench"), mRig, QStringLiteral("--json"), QStringLiteral("--ragdolls"), QStringLiteral("20"),
                 QStringLiteral("--frames"), QStringLiteral("30")});
    QVERIFY2(r.exitCode == 0 && r.err.isEmpty(), qPrintable(r.describe()));
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QStringList keys = o.keys();
    keys.sort();
    QCOMPARE(keys, (QStringList{QStringLiteral("direct_solve"), QStringLiteral("factorizations_per_ragdoll_step"), QStringLiteral("frames"),
                                QStringLiteral("instruction_set"), QStringLiteral("newton_steps_per_ragdoll_step"),
                                QStringLiteral("ragdolls"), QStringLiteral("schedule"), QStringLiteral("threads"),
                                QStringLiteral("us_per_ragdoll_step"), QStringLiteral("us_per_step_median")}));
    // The schedule is the rig's (the procedural humanoid's defaults), the instruction set the runtime's.
    const QJsonObject schedule = o.value(QStringLiteral("schedule")).toObject();
    QCOMPARE(schedule.value(QStringLiteral("solver")).toString(), QStringLiteral("direct"));
    QCOMPARE(schedule.value(QStringLiteral("substeps")).toInteger(), 8);
    QCOMPARE(schedule.value(QStringLiteral("iterations")).toInteger(), 3);
    QCOMPARE(o.value(QStringLiteral("instruction_set")).toString(), QLatin1String(marionette::runtime::instructionSet()));
    QCOMPARE(o.value(QStringLiteral("ragdolls")).toInteger(), 20);
    QCOMPARE(o.value(QStringLiteral("frames")).toInteger(), 30);
    QCOMPARE(o.value(QStringLiteral("threads")).toInteger(), 1);
    const double median = o.value(QStringLiteral("us_per_step_median")).toDouble();
    QVERIFY2(median > 0.0, qPrintable(r.out));
    QVERIFY(qFuzzyCompare(o.value(QStringLiteral("us_per_ragdoll_step")).toDouble(), median / 20.0));
    // The direct solver's work: between one projection per substep and one per iteration, and one
    // factorisation per projection plus at most two more when contacts are let go.
    const double newton = o.value(QStringLiteral("newton_steps_per_ragdoll_step")).toDouble();
    const double factorizations = o.value(QStringLiteral("factorizations_per_ragdoll_step")).toDouble();
    QVERIFY2(newton >= 8.0 && newton <= 24.0 && factorizations >= newton && factorizations <= 3.0 * newton,
             qPrintable(r.out));
    // The system it solves: the rig's rigid sticks (and any triangle edge the rig lacks), a connected body's
    // factor (at least one nonzero below every pivot but the last), at most as deep as it has rows.
    const QJsonObject solve = o.value(QStringLiteral("direct_solve")).toObject();
    const qint64 rigid = solve.value(QStringLiteral("rigid_sticks")).toInteger(), depth = solve.value(QStringLiteral("depth")).toInteger();
    const auto described = std::count_if(mHumanoid.sticks.begin(), mHumanoid.sticks.end(),
                                         [](const rig::Stick& k) { return k.kind == rig::StickKind::Rigid; });
    QVERIFY2(described > 0 && rigid >= described, qPrintable(r.out));
    QVERIFY2(solve.value(QStringLiteral("factor_nonzeros")).toInteger() >= rigid - 1 && depth >= 1 && depth <= rigid &&
                 solve.value(QStringLiteral("limit_rows")).toInteger() > 0,
             qPrintable(r.out));

    r = cli({QStringLiteral("bench"), mRig, QStringLiteral("--scene"), QStringLiteral("spread"), QStringLiteral("--threads"),
             QStringLiteral("2"), QStringLiteral("--no-sleep"), QStringLiteral("--iterations"), QStringLiteral("4"),
             QStringLiteral("--ragdolls"), QStringLiteral("8"), QStringLiteral("--frames"), QStringLiteral("10")});
    QVERIFY2(r.exitCode == 0 && r.out.contains(QLatin1String("8 ragdolls (spread), 2 thread(s), 10 steps, sleep off")), qPrintable(r.describe()));
    // --iterations shows in the schedule it ran.
    QVERIFY2(r.out.contains(QLatin1String("schedule            direct, 8 substep(s) x 4 iteration(s)")) &&
                 r.out.contains(QRegularExpression(QStringLiteral(
                     "projection          [0-9.]+ Newton steps, [0-9.]+ factorisations per ragdoll-step"))) &&
                 r.out.contains(QStringLiteral("instruction set     %1").arg(QLatin1String(marionette::runtime::instructionSet()))),
             qPrintable(r.describe()));
    // --solver and --substeps too.
    r = cli({QStringLiteral("bench"), mRig, QStringLiteral("--solver"), QStringLiteral("gauss-seidel"), QStringLiteral("--substeps"),
             QStringLiteral("2"), QStringLiteral("--ragdolls"), QStringLiteral("4"), QStringLiteral("--frames"), QStringLiteral("5")});
    QVERIFY2(r.exitCode == 0 && r.out.contains(QLatin1String("schedule            gauss-seidel, 2 substep(s) x 3 iteration(s)")),
             qPrintable(r.describe()));
    // Gauss–Seidel takes no projection: the line is left out, the keys are 0.
    QVERIFY2(!r.out.contains(QLatin1String("projection")), qPrintable(r.describe()));
    r = cli({QStringLiteral("bench"), mRig, QStringLiteral("--solver"), QStringLiteral("gauss-seidel"), QStringLiteral("--json"),
             QStringLiteral("--ragdolls"), QStringLiteral("4"), QStringLiteral("--frames"), QStringLiteral("5")});
    const QJsonObject relaxed = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QVERIFY2(r.exitCode == 0 && relaxed.value(QStringLiteral("direct_solve")).isNull() &&
                 relaxed.value(QStringLiteral("newton_steps_per_ragdoll_step")).toDouble(-1.0) == 0.0 &&
                 relaxed.value(QStringLiteral("factorizations_per_ragdoll_step")).toDouble(-1.0) == 0.0,
             qPrintable(r.describe()));
    r = cli({QStringLiteral("bench"), mRig, QStringLiteral("--solver"), QStringLiteral("pbd")});
    QVERIFY2(r.exitCode == 2 && r.err.startsWith(QLatin1String("error: --solver must be gauss-seidel, jacobi, xpbd or direct, not 'pbd'")),
             qPrintable(r.describe()));
    r = cli({QStringLiteral("bench"), mRig, QStringLiteral("--threads"), QStringLiteral("65")});
    QVERIFY2(r.exitCode == 2 && r.err.startsWith(QLatin1String("error: --threads must be an integer in [1, 64]")), qPrintable(r.describe()));
    // --instruction-set runs the kernels on another path and says so; every machine runs scalar, none avx512.
    r = cli({QStringLiteral("bench"), mRig, QStringLiteral("--instruction-set"), QStringLiteral("scalar"), QStringLiteral("--json"),
             QStringLiteral("--ragdolls"), QStringLiteral("2"), QStringLiteral("--frames"), QStringLiteral("3")});
    QVERIFY2(r.exitCode == 0 &&
                 QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("instruction_set")).toString() == QLatin1String("scalar"),
             qPrintable(r.describe()));
    r = cli({QStringLiteral("bench"), mRig, QStringLiteral("--instruction-set"), QStringLiteral("avx512")});
    QVERIFY2(r.exitCode == 2 && r.err.startsWith(QLatin1String("error: --instruction-set must be scalar, sse2 or avx2, one this machine runs (up to ")) &&
                 r.err.contains(QLatin1String("not 'avx512'")),
             qPrintable(r.describe()));
}

namespace {

/// Rows of a rendered picture: the lowest row holding a particle's fill colour, and the first row of floor.
struct RenderedRows {
    int lowestParticle = -1, floor = -1, particlePixels = 0;
};

RenderedRows rowsOf(const QImage& image)
{
    RenderedRows r;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QRgb c = image.pixel(x, y);
            if (qRed(c) == 250 && qGreen(c) == 210 && qBlue(c) == 60) {
                r.lowestParticle = y;
                ++r.particlePixels;
            }
            if (r.floor < 0 && qRed(c) == 196 && qGreen(c) == 200 && qBlue(c) == 208)
                r.floor = y;
        }
    return r;
}

} // namespace

// `render` draws the rig at a frame of a drop: at frame 0 of a 1 m drop the body hangs above the floor; two
// seconds later it lies on it.
void TestCliSimulate::render_drawsTheDrop()
{
    const QString before = path("before.png"), after = path("after.png");
    Run r = cli({QStringLiteral("render"), mRig, QStringLiteral("-o"), before, QStringLiteral("--drop"), QStringLiteral("1"),
                 QStringLiteral("--size"), QStringLiteral("256")});
    QVERIFY2(r.exitCode == 0 && r.out.startsWith(QStringLiteral("wrote %1 (256x256)").arg(before)), qPrintable(r.describe()));
    r = cli({QStringLiteral("render"), mRig, QStringLiteral("-o"), after, QStringLiteral("--drop"), QStringLiteral("1"),
             QStringLiteral("--frame"), QStringLiteral("120"), QStringLiteral("--size"), QStringLiteral("256")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    const QImage a(before), b(after);
    QCOMPARE(a.size(), QSize(256, 256));
    QCOMPARE(b.size(), QSize(256, 256));
    const RenderedRows ra = rowsOf(a), rb = rowsOf(b);
    QVERIFY2(ra.particlePixels > 256 && rb.particlePixels > 256, qPrintable(QStringLiteral("%1 and %2 particle pixels").arg(ra.particlePixels).arg(rb.particlePixels)));
    QVERIFY2(ra.floor > 0 && rb.floor > 0, "no floor drawn");
    // Gap between the body and the floor, as a fraction of the picture.
    const double gapBefore = double(ra.floor - ra.lowestParticle) / 256.0, gapAfter = double(rb.floor - rb.lowestParticle) / 256.0;
    QVERIFY2(gapBefore > 0.15, qPrintable(QStringLiteral("at the drop's start the body is %1 of the picture above the floor").arg(gapBefore)));
    QVERIFY2(gapAfter < 0.04, qPrintable(QStringLiteral("after two seconds the body is %1 of the picture above the floor").arg(gapAfter)));

    r = cli({QStringLiteral("render"), mRig, QStringLiteral("-o"), path("x.png"), QStringLiteral("--size"), QStringLiteral("5")});
    QVERIFY2(r.exitCode == 2 && r.err.startsWith(QLatin1String("error: --size must be an integer in [16, 8192]")), qPrintable(r.describe()));
    r = cli({QStringLiteral("render"), mRig});
    QVERIFY2(r.exitCode == 2 && r.err.startsWith(QLatin1String("error: missing -o POSE.png")), qPrintable(r.describe()));
    const QString nowhere = path("no/folder/pose.png");
    r = cli({QStringLiteral("render"), mRig, QStringLiteral("-o"), nowhere});
    QVERIFY2(r.exitCode == 1 && r.err.startsWith(QStringLiteral("error: %1: cannot write the picture").arg(nowhere)), qPrintable(r.describe()));
}

// A project's skinned mesh is drawn under the rig: many pixels are neither background, floor nor rig.
void TestCliSimulate::render_projectWithMesh()
{
    const QString source = QStringLiteral("/usr/share/assimp/models/X/BCN_Epileptic.X");
    if (!QFile::exists(source))
        QSKIP("Assimp's test models are not installed (Debian package assimp-testmodels)");
    const QString projectFile = path("render.mproj"), picture = path("render.png");
    QCOMPARE(cli({QStringLiteral("import"), source, QStringLiteral("-o"), projectFile}).exitCode, 0);
    const Run r = cli({QStringLiteral("render"), projectFile, QStringLiteral("-o"), picture, QStringLiteral("--size"), QStringLiteral("256")});
    QVERIFY2(r.exitCode == 0 && r.out.contains(QLatin1String("skinned mesh and rig")), qPrintable(r.describe()));
    const QImage image(picture);
    QCOMPARE(image.size(), QSize(256, 256));
    int mesh = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QRgb c = image.pixel(x, y);
            const bool background = qRed(c) == 236 && qGreen(c) == 238 && qBlue(c) == 242;
            const bool floor = qRed(c) == 196 && qGreen(c) == 200 && qBlue(c) == 208;
            // mesh pixels are grey-shaded: equal channels for this model's grey material
            mesh += !background && !floor && std::abs(qRed(c) - qGreen(c)) < 8 && std::abs(qGreen(c) - qBlue(c)) < 8 ? 1 : 0;
        }
    QVERIFY2(mesh > 256 * 256 / 20, qPrintable(QStringLiteral("%1 mesh pixels").arg(mesh)));
}

QTEST_GUILESS_MAIN(TestCliSimulate)
#include "tst_clisimulate.moc"
