// File operations of the editor's main window in a real window (Xvfb + Mesa), answered as a user would:
// importing a mesh (cancelled from its progress dialog, through an importer plugin, the options and result
// dialogs with the size check's proposed scale and "keep the current rig"), the bind distance in the
// properties and the folder Export and Save offer. See CMakeLists.txt.
#include "DialogDriver.h"
#include "LogPanel.h"
#include "MainWindow.h"
#include "MainWindowTestSupport.h"
#include "PropertiesPanel.h"
#include "ValidationPanel.h"

#include "marionette/editor/document/Validation.h"
#include "marionette/editor/pluginhost/MeshImport.h"
#include "marionette/project/ProjectFile.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace marionette;
using namespace marionette::test;
using project::ElementKind;

class TestMainWindowFiles : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    void import_cancelledFromTheProgressDialog();
    void import_throughAnImporterPlugin();
    void import_dialogsProposeAScaleAndKeepTheRig();
    void editing_bindDistanceShownAndExportBesideTheProject();
    void samples_openWithAnEmptyValidationList_data();
    void samples_openWithAnEmptyValidationList();

  private:
    QTemporaryDir mDir;
};

void TestMainWindowFiles::initTestCase()
{
    useTestEnvironment(mDir.filePath(QStringLiteral("recovery")));
    if (!QFileInfo::exists(kHuman))
        QFAIL("the sample mannequin is missing");
}

void TestMainWindowFiles::import_cancelledFromTheProgressDialog()
{
    // A mesh big enough to take seconds to read: a 700 × 700 grid (about 1 M triangles, 20 MB of OBJ).
    const QString big = mDir.filePath(QStringLiteral("big.obj"));
    {
        QFile f(big);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const int n = 700;
        QByteArray text;
        text.reserve(21'000'000);
        for (int i = 0; i < n * n; ++i)
            text += "v " + QByteArray::number(i % n) + " 0 " + QByteArray::number(i / n) + "\n";
        for (int r = 0; r + 1 < n; ++r)
            for (int c = 0; c + 1 < n; ++c)
                text += "f " + QByteArray::number(r * n + c + 1) + ' ' + QByteArray::number(r * n + c + 2) + ' ' +
                        QByteArray::number((r + 1) * n + c + 2) + ' ' + QByteArray::number((r + 1) * n + c + 1) + "\n";
        f.write(text);
    }
    app::MainWindow w;
    w.show();
    QVERIFY(w.importMesh(kHuman, QStringLiteral("humanoid"), 70.f));
    const QByteArray before = rigBytes(w.document().rig());
    const int steps = w.document().undoStack()->count();
    auto progress = answerNextDialog([](QDialog* d) {
        // The user presses the dialog's Cancel button.
        if (auto* button = qobject_cast<QProgressDialog*>(d) ? d->findChild<QPushButton*>() : nullptr)
            button->click();
        else
            d->reject();
    }, 20000, true);
    const bool imported = w.importMesh(big, QStringLiteral("generic"));
    QVERIFY2(progress->seen, "no progress dialog");
    QVERIFY(!imported);
    QVERIFY2(progress->objectName != QStringLiteral("errorDialog"), "a cancelled import is not an error");
    QVERIFY(w.logPanel()->toPlainText().contains(QStringLiteral("Import cancelled")));
    QCOMPARE(rigBytes(w.document().rig()), before);
    QCOMPARE(w.document().undoStack()->count(), steps);
}

void TestMainWindowFiles::import_throughAnImporterPlugin()
{
#ifndef MARIONETTE_HAVE_TEST_IMPORTER
    QSKIP("built without the plugin tests (MARIONETTE_BUILD_PLUGINS off)");
#else
    // The editor finds its importer through the plugin host, as the command line does: the test-only
    // importer of .mskel skeleton text reads the dog, which Assimp cannot.
    const QByteArray folders = QByteArray(MARIONETTE_BIN_DIR "/plugins:") + MARIONETTE_TEST_PLUGIN_DIR;
    qputenv("MARIONETTE_PLUGIN_PATH", folders);
    app::MainWindow w;
    qputenv("MARIONETTE_PLUGIN_PATH", QByteArray(MARIONETTE_BIN_DIR "/plugins"));
    w.show();
    QVERIFY2(w.plugins().importer(QStringLiteral("mskel")), "the test importer did not load");
    QVERIFY(editor::meshFileFilter(w.plugins()).contains(QStringLiteral("*.mskel")));

    editor::Document& doc = w.document();
    QVERIFY(doc.project().name.isEmpty());
    QVERIFY(w.importMesh(QStringLiteral(MARIONETTE_MSKEL), QStringLiteral("generic"), 30.f));
    QVERIFY(doc.mesh());
    QFile text(QStringLiteral(MARIONETTE_MSKEL));
    QVERIFY(text.open(QIODevice::ReadOnly));
    std::size_t bones = 0; // one "bone NAME PARENT ..." line per bone
    for (const QByteArray& line : text.readAll().split('\n'))
        bones += line.startsWith("bone ") ? 1 : 0;
    QVERIFY(bones >= 20);
    QCOMPARE(doc.mesh()->skeleton.size(), bones);
    QVERIFY(!doc.rig().particles.empty());
    QCOMPARE(doc.project().name, QStringLiteral("dog"));
    QCOMPARE(doc.project().sourceMesh.sha256, project::SourceMesh::hashFile(QStringLiteral(MARIONETTE_MSKEL)));
    QVERIFY(w.logPanel()->toPlainText().contains(QStringLiteral("(mskel)")));

    // The import, name included, is one undo step.
    QCOMPARE(doc.undoStack()->count(), 1);
    w.action(QStringLiteral("editUndo"))->trigger();
    QVERIFY(!doc.mesh());
    QVERIFY(doc.rig().particles.empty());
    QVERIFY(doc.project().name.isEmpty());
    QVERIFY(doc.project().sourceMesh.path.isEmpty());
    w.action(QStringLiteral("editRedo"))->trigger();
    QCOMPARE(doc.project().name, QStringLiteral("dog"));
    QVERIFY(doc.mesh());
#endif
}

// File ▸ Import Mesh as a user meets it, on a project that has a rig: the options dialog, then the result
// dialog listing the warnings. Half-Life's man.mdl comes in at 0.25 m (inches); the size warning's proposed
// scale is one click, and the second read is a person's height. Keeping the mannequin's rig on it leaves
// the rig as it was, and validation (given the new mesh) says the mesh cannot follow it. One undo step.
void TestMainWindowFiles::import_dialogsProposeAScaleAndKeepTheRig()
{
    const QString man = QStringLiteral(MARIONETTE_ASSIMP_MODELS "/MDL/MDL (HL1)/man.mdl");
    if (!QFile::exists(man))
        QSKIP("Assimp's test models are not installed (assimp-testmodels)");
    QSettings().remove(QStringLiteral("import/strict"));
    app::MainWindow w;
    w.show();
    editor::Document& doc = w.document();
    QVERIFY(w.importMesh(kHuman, QStringLiteral("humanoid"), 70.f));
    const QByteArray mannequinRig = rigBytes(doc.rig());
    const int steps = doc.undoStack()->count();

    QStringList firstWarnings, secondSummary;
    bool proposed = false, strictOffered = false;
    auto chooseKeep = [&](QDialog* d) {
        secondSummary << d->findChild<QLabel*>(QStringLiteral("summary"))->text();
        auto* choice = d->findChild<QComboBox*>(QStringLiteral("rigChoice"));
        choice->setCurrentIndex(choice->findData(QStringLiteral("keep")));
        d->accept();
    };
    auto reimport = [&](QDialog* d) {
        auto* list = d->findChild<QListWidget*>(QStringLiteral("warnings"));
        for (int i = 0; list && i < list->count(); ++i)
            firstWarnings << list->item(i)->text();
        auto* again = d->findChild<QPushButton*>(QStringLiteral("useProposedScale"));
        proposed = again != nullptr;
        answerNextDialog(chooseKeep);
        if (again)
            again->click();
        else
            d->reject();
    };
    const auto options = answerNextDialog([&](QDialog* d) {
        strictOffered = d->findChild<QCheckBox*>(QStringLiteral("strict")) != nullptr;
        answerNextDialog(reimport);
        d->accept();
    });
    QVERIFY(w.importMesh(man));
    QCOMPARE(options->objectName, QStringLiteral("importOptionsDialog"));
    QVERIFY(strictOffered);
    QVERIFY(proposed);
    QVERIFY2(firstWarnings.filter(QStringLiteral("size: 0.248 m at its largest")).size() == 1, qPrintable(firstWarnings.join(u'\n')));
    QCOMPARE(secondSummary.size(), 1);
    QVERIFY2(secondSummary.front().contains(QStringLiteral("man.mdl (assimp)")), qPrintable(secondSummary.front()));

    QVERIFY(doc.mesh());
    const auto box = doc.mesh()->bounds();
    QVERIFY2(box[1].y - box[0].y >= 1.5f && box[1].y - box[0].y <= 2.f, qPrintable(QString::number(double(box[1].y - box[0].y))));
    QCOMPARE(rigBytes(doc.rig()), mannequinRig); // kept as it was
    const editor::RigVerdict verdict = editor::rigVerdict(doc.rig(), doc.mesh().get());
    QVERIFY(!verdict.ok());
    QStringList messages;
    for (const editor::ValidationIssue& issue : verdict.issues)
        messages << issue.message;
    QVERIFY2(messages.filter(QStringLiteral("is not the skeleton of the mesh 'man.mdl'")).size() == 1, qPrintable(messages.join(u'\n')));
    QVERIFY2(messages.filter(QStringLiteral("which the mesh 'man.mdl' does not have")).size() >= 10, qPrintable(messages.join(u'\n')));
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    w.action(QStringLiteral("editUndo"))->trigger();
    QCOMPARE(doc.mesh()->skeleton.size(), doc.rig().bones.size()); // the mannequin again
}

// A stick whose rest length is the bind distance (stored as −1) says so in the properties, and a typed
// length replaces it; Export offers to write beside the mesh of an unsaved project, then beside the project
// once saved, never into the editor's working directory.
void TestMainWindowFiles::editing_bindDistanceShownAndExportBesideTheProject()
{
    app::MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.importMesh(kHuman, QStringLiteral("humanoid"), 70.f));
    editor::Document& doc = w.document();
    const rig::RigDescription& rig = doc.rig();
    QCOMPARE(w.suggestedExportPath(QStringLiteral("mrig")),
             QFileInfo(kHuman).absolutePath() + QStringLiteral("/mannequin.mrig"));

    std::size_t stick = rig.sticks.size();
    for (std::size_t i = 0; i < rig.sticks.size() && stick == rig.sticks.size(); ++i)
        if (rig.sticks[i].kind == rig::StickKind::Rigid && rig.sticks[i].restLength < 0.f)
            stick = i;
    QVERIFY(stick < rig.sticks.size());
    doc.setSelection({{ElementKind::Stick, rig.sticks[stick].id}});
    auto* rest = qobject_cast<QDoubleSpinBox*>(w.properties()->editorFor(QStringLiteral("restLength")));
    QVERIFY(rest);
    QTRY_COMPARE(rest->text(), QStringLiteral("bind distance"));
    rest->setValue(0.25);
    QCOMPARE(rig.sticks[stick].restLength, 0.25f);
    QVERIFY(rest->text() != QStringLiteral("bind distance"));

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString project = dir.filePath(QStringLiteral("hero.mproj"));
    QVERIFY(w.saveTo(project));
    QCOMPARE(w.suggestedExportPath(QStringLiteral("json")), dir.filePath(QStringLiteral("hero.json")));
}

void TestMainWindowFiles::samples_openWithAnEmptyValidationList_data()
{
    QTest::addColumn<QString>("project");
    for (const char* name : {"mannequin", "bcn_epileptic", "wuson"})
        QTest::newRow(name) << QStringLiteral(MARIONETTE_SAMPLES "/characters/%1/%1.mproj").arg(QString::fromLatin1(name));
}

// A shipped sample opens clean: its mesh loads, and the Validation list (given the mesh) has no entry.
void TestMainWindowFiles::samples_openWithAnEmptyValidationList()
{
    QFETCH(QString, project);
    app::MainWindow w;
    w.show();
    QVERIFY2(w.openProject(project), qPrintable(w.logPanel()->toPlainText()));
    QVERIFY(w.document().mesh());
    const editor::RigVerdict verdict = editor::rigVerdict(w.document().rig(), w.document().mesh().get());
    QStringList lines;
    for (const editor::ValidationIssue& issue : verdict.issues)
        lines << issue.message;
    QVERIFY2(lines.isEmpty(), qPrintable(lines.join(QLatin1Char('\n'))));
    // The panel shows the same (after its debounce).
    QTest::qWait(400);
    QStringList shown;
    for (const editor::ValidationIssue& issue : w.validationPanel()->issues())
        shown << issue.message;
    QVERIFY2(shown.isEmpty(), qPrintable(shown.join(QLatin1Char('\n'))));
}

int main(int argc, char** argv)
{
    TestMainWindowFiles test;
    return runGuiTests(test, argc, argv);
}

#include "tst_mainwindowfiles.moc"
