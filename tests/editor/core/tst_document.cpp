// editor/core Document as a file: the clean state across saves, Save As re-basing the mesh path, loading
// (a bad file leaves the document as it was), adopting an unsaved project, clearing.
#include "RigDump.h"
#include "RigEditTestSupport.h"

#include "marionette/editor/document/Document.h"
#include "marionette/editor/document/commands/AddScenarioCommand.h"
#include "marionette/editor/document/commands/ChangePropertyCommand.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace marionette;
using namespace marionette::test;
using editor::Document;

namespace {

std::unique_ptr<Document> documentWith(rig::RigDescription rig, const QString& path = {}, const QString& mesh = {})
{
    auto doc = std::make_unique<Document>();
    project::Project p;
    p.name = QStringLiteral("test");
    p.rig = std::move(rig);
    p.sourceMesh.path = mesh;
    doc->adopt(std::move(p), path, false);
    return doc;
}

std::vector<ElementRef> refs(const Document& doc, const QStringList& names) { return refsNamed(doc.rig(), names); }

} // namespace

class TestDocument : public QObject {
    Q_OBJECT
  private slots:
    void save_makesClean_thenEditMakesModified()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto doc = documentWith(sampleRig());
        QSignalSpy modified(doc.get(), &Document::modifiedChanged);
        QSignalSpy pathChanged(doc.get(), &Document::filePathChanged);
        QUndoStack* stack = doc->undoStack();
        stack->push(new editor::ChangePropertyCommand(doc.get(), refs(*doc, {"p0"}), "radius", 0.125));
        QString error;
        QVERIFY2(doc->save(dir.filePath("hero.mproj"), error), qPrintable(error));
        QVERIFY(!doc->isModified());
        QCOMPARE(doc->displayName(), QStringLiteral("hero.mproj"));
        QCOMPARE(pathChanged.count(), 1);
        // The same property again: it must not merge into the saved step, or undo could not reach the save.
        stack->push(new editor::ChangePropertyCommand(doc.get(), refs(*doc, {"p0"}), "radius", 0.25));
        QVERIFY(doc->isModified());
        QCOMPARE(stack->count(), 2);
        stack->undo();
        QVERIFY(!doc->isModified());
        QCOMPARE(doc->rig().particles[0].radius, 0.125f);
        stack->undo();
        QVERIFY(doc->isModified());
        QCOMPARE(modified.count(), 5); // edit, save, edit, undo to the save, undo past it
        // What was saved loads back as the rig at the save.
        Document reopened;
        QVERIFY2(reopened.load(dir.filePath("hero.mproj"), error), qPrintable(error));
        stack->redo();
        QCOMPARE(dumpRig(reopened.rig()), dumpRig(doc->rig()));
        QVERIFY(!reopened.isModified());
    }

    void adopt_modified_isModifiedUntilSaved()
    {
        QTemporaryDir dir;
        Document doc;
        project::Project p;
        p.rig = sampleRig();
        doc.adopt(p, QString(), true);
        QVERIFY(doc.isModified());
        QCOMPARE(doc.displayName(), QStringLiteral("Untitled"));
        QCOMPARE(doc.undoStack()->count(), 0);
        QString error;
        QVERIFY2(doc.save(dir.filePath("r.mproj"), error), qPrintable(error));
        QVERIFY(!doc.isModified());
        QVERIFY(!doc.save(dir.filePath("missing/folder/r.mproj"), error));
        QVERIFY(!error.isEmpty());
    }


    void saveAs_rebasesMeshPath_data()
    {
        QTest::addColumn<QString>("from");     // where the document was saved before ("" = untitled)
        QTest::addColumn<QString>("mesh");     // its mesh path as the document holds it
        QTest::addColumn<QString>("to");       // Save As target
        QTest::addColumn<QString>("expected"); // the mesh path afterwards
        QTest::newRow("untitled, absolute mesh") << QString() << "@/assets/hero.glb" << "@/hero.mproj" << "assets/hero.glb";
        QTest::newRow("saved, into a deeper folder")
            << "@/projects/a.mproj" << "meshes/hero.glb" << "@/other/deeper/b.mproj" << "../../projects/meshes/hero.glb";
        QTest::newRow("saved, same folder") << "@/projects/a.mproj" << "hero.glb" << "@/projects/b.mproj" << "hero.glb";
    }
    void saveAs_rebasesMeshPath()
    {
        QFETCH(QString, from);
        QFETCH(QString, mesh);
        QFETCH(QString, to);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString root = dir.path();
        from.replace('@', root);
        mesh.replace('@', root);
        to.replace('@', root);
        QVERIFY(QDir().mkpath(QFileInfo(to).absolutePath()));
        auto doc = documentWith(sampleRig(), from, mesh);
        QString error;
        QVERIFY2(doc->save(to, error), qPrintable(error));
        QCOMPARE(doc->project().sourceMesh.path, expected);
        QCOMPARE(doc->filePath(), QFileInfo(to).absoluteFilePath());
        Document reopened;
        QVERIFY2(reopened.load(to, error), qPrintable(error));
        QCOMPARE(reopened.project().sourceMesh.path, expected);
        const QString absoluteMesh = from.isEmpty() ? mesh : QDir::cleanPath(QFileInfo(from).absolutePath() + "/" + mesh);
        QCOMPARE(reopened.project().sourceMesh.resolve(reopened.filePath()), absoluteMesh);
    }

    void load_badFile_leavesDocumentUnchanged_data()
    {
        QTest::addColumn<QByteArray>("contents");
        QTest::newRow("garbage") << QByteArray("not a project");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("JSON array") << QByteArray("[]");
    }
    void load_badFile_leavesDocumentUnchanged()
    {
        QFETCH(QByteArray, contents);
        QTemporaryDir dir;
        const QString bad = dir.filePath("bad.mproj");
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(contents);
        file.close();
        auto doc = documentWith(sampleRig(), dir.filePath("good.mproj"));
        doc->undoStack()->push(new editor::ChangePropertyCommand(doc.get(), refs(*doc, {"p0"}), "radius", 0.5));
        const QStringList before = dumpRig(doc->rig());
        QSignalSpy structure(doc.get(), &Document::structureChanged);
        QString error;
        QVERIFY(!doc->load(bad, error));
        QVERIFY2(error.contains("bad.mproj"), qPrintable(error));
        QCOMPARE(dumpRig(doc->rig()), before);
        QCOMPARE(doc->filePath(), dir.filePath("good.mproj"));
        QVERIFY(doc->isModified());
        QCOMPARE(doc->undoStack()->count(), 1);
        QCOMPARE(structure.count(), 0);
        QVERIFY(!doc->load(dir.filePath("missing.mproj"), error));
    }

    void clear_emptiesEverything()
    {
        auto doc = documentWith(sampleRig(), "/somewhere/a.mproj", "hero.glb");
        doc->undoStack()->push(new editor::ChangePropertyCommand(doc.get(), refs(*doc, {"p0"}), "radius", 0.5));
        doc->attachMesh(std::make_shared<import::ImportedScene>());
        doc->setSelection(refs(*doc, {"p1"}));
        doc->clear();
        QCOMPARE(dumpRig(doc->rig()), dumpRig(rig::RigDescription{}));
        QVERIFY(doc->filePath().isEmpty());
        QVERIFY(doc->project().sourceMesh.path.isEmpty());
        QVERIFY(!doc->mesh());
        QVERIFY(doc->selection().empty());
        QVERIFY(!doc->isModified());
        QCOMPARE(doc->undoStack()->count(), 0);
    }

    void addScenario_isOneStep_andKeepsNamesUnique()
    {
        Document doc;
        QSignalSpy changed(&doc, &Document::scenariosChanged);
        project::Scenario s;
        s.name = QStringLiteral("drop");
        s.dropHeight = 2.f;
        doc.undoStack()->push(new editor::AddScenarioCommand(&doc, s));
        doc.undoStack()->push(new editor::AddScenarioCommand(&doc, s)); // same name again
        s.name.clear();
        doc.undoStack()->push(new editor::AddScenarioCommand(&doc, s)); // no name
        QCOMPARE(doc.project().scenarios.size(), std::size_t(3));
        QCOMPARE(doc.project().scenarios[0].name, QStringLiteral("drop"));
        QCOMPARE(doc.project().scenarios[1].name, QStringLiteral("drop (2)"));
        QCOMPARE(doc.project().scenarios[2].name, QStringLiteral("scenario"));
        QCOMPARE(doc.project().scenarios[1].dropHeight, 2.f);
        QVERIFY(doc.isModified());
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QCOMPARE(doc.project().scenarios.size(), std::size_t(1));
        doc.undoStack()->redo();
        QCOMPARE(doc.project().scenarios.back().name, QStringLiteral("drop (2)"));
        QCOMPARE(changed.count(), 6);
    }
};

QTEST_GUILESS_MAIN(TestDocument)
#include "tst_document.moc"
