// `marionette fit-limits PROJECT [CLIP...] -o OUT` run as a user runs it (QProcess) on the BCN_Epileptic
// sample: the written project holds the limits the report gives, the --json report's fields, a clip named by
// file, and refusals with one `error:` line naming the file, exit codes 1/2 and no project written.
#include "marionette/project/ProjectFile.h"

#include "ProcessRunner.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace marionette;

namespace {

using Run = test::ProcessRun;

Run cli(const QStringList& arguments) { return test::runProcess(QStringLiteral(MARIONETTE_CLI), arguments, 120000); }

/// stderr without the import's `warning:` lines.
QStringList errorLines(const QString& text)
{
    QStringList out;
    for (const QString& line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        if (!line.startsWith(QLatin1String("warning: ")))
            out << line;
    return out;
}

const QString kSample = QStringLiteral(MARIONETTE_SAMPLES "/characters");

float deg(float radians) { return radians * 180.f / 3.14159265358979f; }

} // namespace

class TestCliFitLimits : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void fitLimits_writesTheReportedLimits();
    void fitLimits_textReportAndClipFile();
    void fitLimits_refusals_data();
    void fitLimits_refusals();

private:
    QTemporaryDir mDir;
    QString mProject, mMesh, mStranger;
    project::Project mBefore;
};

void TestCliFitLimits::initTestCase()
{
    QVERIFY(mDir.isValid());
    // The sample project beside its mesh (it refers to BCN_Epileptic.X by a relative path).
    mProject = mDir.filePath(QStringLiteral("bcn.mproj"));
    mMesh = mDir.filePath(QStringLiteral("BCN_Epileptic.X"));
    QVERIFY(QFile::copy(kSample + QStringLiteral("/bcn_epileptic/bcn_epileptic.mproj"), mProject));
    QVERIFY(QFile::copy(kSample + QStringLiteral("/bcn_epileptic/BCN_Epileptic.X"), mMesh));
    // A clip file of another character: no bone name in common with the project's rig.
    mStranger = kSample + QStringLiteral("/wuson/Testwuson.X");
    const project::LoadResult loaded = project::loadProject(mProject, mBefore);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error));
    QVERIFY(!mBefore.rig.angular.empty());
}

void TestCliFitLimits::fitLimits_writesTheReportedLimits()
{
    // Written into another folder: the project must still find its mesh.
    QVERIFY(QDir(mDir.path()).mkpath(QStringLiteral("fitted")));
    const QString target = mDir.filePath(QStringLiteral("fitted/out.mproj"));
    const Run r = cli({QStringLiteral("fit-limits"), mProject, QStringLiteral("-o"), target, QStringLiteral("--json")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QVERIFY2(errorLines(r.err).isEmpty(), qPrintable(r.err));
    const QJsonObject report = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(report.value(QLatin1String("margin_deg")).toDouble(), 5.0);
    QVERIFY(report.value(QLatin1String("frames")).toInt() > 0);
    const QJsonArray clips = report.value(QLatin1String("clips")).toArray();
    QCOMPARE(clips.size(), 1);
    QCOMPARE(clips[0].toObject().value(QLatin1String("name")).toString(), QStringLiteral("Epileptisch"));

    project::Project after;
    const project::LoadResult loaded = project::loadProject(target, after);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error));
    QCOMPARE(after.rig.angular.size(), mBefore.rig.angular.size());
    const QJsonArray joints = report.value(QLatin1String("joints")).toArray();
    QCOMPARE(joints.size(), qsizetype(after.rig.angular.size()));
    int changed = 0;
    for (qsizetype i = 0; i < joints.size(); ++i) {
        const QJsonObject j = joints[i].toObject();
        const rig::AngularConstraint &a = after.rig.angular[std::size_t(i)], &b = mBefore.rig.angular[std::size_t(i)];
        QCOMPARE(j.value(QLatin1String("name")).toString().toStdString(), a.name);
        QCOMPARE(qint64(a.id), j.value(QLatin1String("id")).toInteger());
        const QJsonObject fitted = j.value(QLatin1String("fitted")).toObject();
        const QJsonObject observed = j.value(QLatin1String("observed")).toObject();
        const QString status = j.value(QLatin1String("status")).toString();
        QVERIFY2(status == QLatin1String("fitted") || status == QLatin1String("not covered"), qPrintable(status));
        // The project holds what the report says, and a fitted joint covers what was observed plus 5°.
        if (a.limit == rig::AngularLimit::Cone) {
            QCOMPARE(fitted.value(QLatin1String("cone_deg")).toDouble(), double(deg(a.coneAngle)));
            if (status == QLatin1String("fitted"))
                QVERIFY(std::fabs(observed.value(QLatin1String("angle_max_deg")).toDouble() + 5.0 -
                                  double(deg(a.coneAngle))) < 1e-3);
        } else {
            QVERIFY(std::fabs(fitted.value(QLatin1String("twist_min_deg")).toDouble() - double(deg(a.twistMin))) < 1e-3);
            QVERIFY(std::fabs(fitted.value(QLatin1String("twist_max_deg")).toDouble() - double(deg(a.twistMax))) < 1e-3);
            QVERIFY(std::fabs(fitted.value(QLatin1String("swing1_deg")).toDouble() - double(deg(a.swing1))) < 1e-3);
            QVERIFY(std::fabs(fitted.value(QLatin1String("swing2_deg")).toDouble() - double(deg(a.swing2))) < 1e-3);
            if (status == QLatin1String("fitted")) {
                QVERIFY(std::fabs(std::max(observed.value(QLatin1String("twist_max_deg")).toDouble(), 0.0) + 5.0 -
                                  double(deg(a.twistMax))) < 1e-3);
                QVERIFY(std::fabs(std::min(observed.value(QLatin1String("twist_min_deg")).toDouble(), 0.0) - 5.0 -
                                  double(deg(a.twistMin))) < 1e-3);
                if (j.value(QLatin1String("kind")).toString() == QLatin1String("swing/twist"))
                    QVERIFY(double(deg(a.swing1)) >= observed.value(QLatin1String("swing1_max_deg")).toDouble() + 5.0 - 1e-3);
            }
        }
        // Only the limits change.
        QCOMPARE(a.triangleA, b.triangleA);
        QCOMPARE(a.triangleB, b.triangleB);
        QCOMPARE(a.limit, b.limit);
        QCOMPARE(a.stiffness, b.stiffness);
        const bool differs = a.coneAngle != b.coneAngle || a.twistMin != b.twistMin || a.twistMax != b.twistMax ||
                             a.swing1 != b.swing1 || a.swing2 != b.swing2;
        changed += differs ? 1 : 0;
        QVERIFY(j.value(QLatin1String("frames_outside_previous")).toInteger() <= j.value(QLatin1String("frames")).toInteger());
    }
    QCOMPARE(report.value(QLatin1String("changed")).toInt(), changed);
    QVERIFY(changed > 0);
    QCOMPARE(after.rig.particles.size(), mBefore.rig.particles.size());

    // The written project still finds its mesh from its new folder: fitting it again with margin 0 works.
    const Run again = cli({QStringLiteral("fit-limits"), target, QStringLiteral("--margin"), QStringLiteral("0"),
                           QStringLiteral("-o"), target});
    QVERIFY2(again.exitCode == 0, qPrintable(again.describe()));
}

void TestCliFitLimits::fitLimits_textReportAndClipFile()
{
    // The mesh named as a clip file and its clip by name gives the same fit as the project's own clips.
    const QString viaProject = mDir.filePath(QStringLiteral("a.mproj")), viaFile = mDir.filePath(QStringLiteral("b.mproj"));
    const Run a = cli({QStringLiteral("fit-limits"), mProject, QStringLiteral("-o"), viaProject});
    QVERIFY2(a.exitCode == 0, qPrintable(a.describe()));
    const Run b = cli({QStringLiteral("fit-limits"), mProject, mMesh, QStringLiteral("--clip"), QStringLiteral("Epileptisch"),
                       QStringLiteral("-o"), viaFile});
    QVERIFY2(b.exitCode == 0, qPrintable(b.describe()));
    QVERIFY2(a.out.contains(QStringLiteral("to 1 clip (")) && a.out.contains(QStringLiteral("frames outside the previous limit")),
             qPrintable(a.out));
    QVERIFY2(a.out.contains(QStringLiteral("wrote %1: ").arg(viaProject)), qPrintable(a.out));
    // One line per angular constraint between the header and the "wrote" line.
    QCOMPARE(a.out.count(QLatin1Char('\n')), qsizetype(mBefore.rig.angular.size() + 2));
    project::Project pa, pb;
    QVERIFY(project::loadProject(viaProject, pa).ok());
    QVERIFY(project::loadProject(viaFile, pb).ok());
    for (std::size_t i = 0; i < pa.rig.angular.size(); ++i) {
        QCOMPARE(pa.rig.angular[i].coneAngle, pb.rig.angular[i].coneAngle);
        QCOMPARE(pa.rig.angular[i].twistMax, pb.rig.angular[i].twistMax);
        QCOMPARE(pa.rig.angular[i].swing2, pb.rig.angular[i].swing2);
    }
}

void TestCliFitLimits::fitLimits_refusals_data()
{
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("error");
    const QString missing = QStringLiteral("/nonexistent/rom_take.fbx");
    QTest::newRow("missing clip file") << QStringList{missing} << 1 << QStringLiteral("error: %1: no such file").arg(missing);
    QTest::newRow("no bone in common") << QStringList{mStranger} << 1
                                       << QStringLiteral("error: %1: shares no bone name with the rig").arg(mStranger);
    QTest::newRow("margin -1") << QStringList{QStringLiteral("--margin"), QStringLiteral("-1")} << 2
                               << QStringLiteral("error: --margin must be a number of degrees in [0, 90], not '-1'");
    QTest::newRow("margin 91") << QStringList{QStringLiteral("--margin"), QStringLiteral("91")} << 2
                               << QStringLiteral("error: --margin must be a number of degrees in [0, 90], not '91'");
    QTest::newRow("unknown clip") << QStringList{QStringLiteral("--clip"), QStringLiteral("walk")} << 2
                                  << QStringLiteral("error: no clip 'walk' (clips: Epileptisch)");
    QTest::newRow("missing -o") << QStringList{QStringLiteral("NO_OUTPUT")} << 2 << QStringLiteral("error: missing -o OUT.mproj");
}

void TestCliFitLimits::fitLimits_refusals()
{
    QFETCH(QStringList, extra);
    QFETCH(int, exitCode);
    QFETCH(QString, error);
    const QString target = mDir.filePath(QStringLiteral("refused.mproj"));
    QStringList args{QStringLiteral("fit-limits"), mProject};
    if (extra.value(0) == QLatin1String("NO_OUTPUT"))
        extra.clear();
    else
        args << QStringLiteral("-o") << target;
    const Run r = cli(args + extra);
    QVERIFY2(r.exitCode == exitCode, qPrintable(r.describe()));
    const QStringList errors = errorLines(r.err);
    QVERIFY2(!errors.isEmpty() && errors.first() == error, qPrintable(r.err));
    // A usage error adds the pointer to the help; a user error is that one line.
    QCOMPARE(errors.size(), exitCode == 2 ? 2 : 1);
    QVERIFY(!QFile::exists(target));
}

QTEST_GUILESS_MAIN(TestCliFitLimits)
#include "tst_clifitlimits.moc"
