// Replays the committed .mrig corpus (tests/formats/rig/corpus): valid format 1.0 files load, and each
// crafted bad file is refused by loadMrig, MrigView::load and readMrig with its expected message
// (corpus/expected.txt), prefixed by the file path for the file functions. The same files seed the fuzzer.
#include "marionette/rig/Mrig.h"

#include <QtTest/QtTest>

#include <QDir>
#include <QFile>

using namespace marionette::rig;

namespace {

QString corpusDir() { return QStringLiteral(MRIG_CORPUS_DIR); }

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
}

QTEST_GUILESS_MAIN(TestMrigCorpus)
#include "tst_mrigcorpus.moc"
