// Preview ▸ Bake to Animation in the real main window under Xvfb: a short preview of the mannequin sample
// baked through the file dialog (opened in the project's folder) to a .glb that re-imports with the mesh,
// the skeleton and a clip whose last frame is the pose the preview shows.
#include "DialogDriver.h"
#include "MainWindow.h"
#include "MainWindowTestSupport.h"
#include "PreviewController.h"

#include "marionette/editor/preview/AnimationPose.h"
#include "marionette/editor/preview/PreviewSession.h"
#include "marionette/import/Import.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace marionette;

class TestPreviewBake : public QObject {
    Q_OBJECT
  private slots:
    void bake_writesTheHistoryAsAGlbThroughTheFileDialog();
};

void TestPreviewBake::bake_writesTheHistoryAsAGlbThroughTheFileDialog()
{
    // The sample beside its mesh in a folder of the test's own: the dialog offers that folder.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString sample = QFileInfo(test::kHuman).absolutePath();
    const QString project = dir.filePath(QStringLiteral("mannequin.mproj"));
    QVERIFY(QFile::copy(sample + QStringLiteral("/mannequin.mproj"), project));
    QVERIFY(QFile::copy(test::kHuman, dir.filePath(QStringLiteral("mannequin.glb"))));

    app::MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openProject(project));
    const auto mesh = w.document().mesh();
    QVERIFY(mesh);
    w.preview()->settings().dropHeight = 0.5f;
    for (int i = 0; i < 30; ++i)
        w.action(QStringLiteral("previewStep"))->trigger();
    editor::PreviewSession* session = w.preview()->session();
    QVERIFY(session);
    QCOMPARE(session->stepIndex(), std::uint64_t(30));
    const std::vector<Mat4> shown = session->skinningPalette(1.f);

    const QString target = dir.filePath(QStringLiteral("fall.glb"));
    QString offeredFolder, offeredFile;
    const auto dialog = answerNextDialog([&](QDialog* d) {
        auto* files = qobject_cast<QFileDialog*>(d);
        if (!files) {
            d->reject();
            return;
        }
        offeredFolder = files->directory().absolutePath();
        offeredFile = files->selectedFiles().value(0);
        files->selectFile(target);
        d->accept(); // QFileDialog::accept(), through QDialog's public slot
    });
    w.action(QStringLiteral("previewBake"))->trigger();
    QVERIFY(dialog->seen);
    QCOMPARE(offeredFolder, QDir(dir.path()).absolutePath());
    QCOMPARE(QFileInfo(offeredFile).fileName(), QStringLiteral("mannequin-bake.glb")); // not the source mesh
    QVERIFY2(QFileInfo::exists(target), qPrintable(target));
    QCOMPARE(session->stepIndex(), std::uint64_t(30)); // the preview is where it was

    const import::ImportResult back = import::importScene(target.toStdString());
    QVERIFY2(back.ok(), back.error.c_str());
    const import::ImportedScene& file = back.scene;
    QCOMPARE(file.vertexCount(), mesh->vertexCount());
    QCOMPARE(file.skeleton.size(), mesh->skeleton.size());
    QCOMPARE(file.animations.size(), std::size_t(1));
    QCOMPARE(file.animations[0].name, std::string("fall"));
    QCOMPARE(file.animations[0].channels[0].positions.size(), std::size_t(31)); // steps 0 to 30
    QVERIFY(qAbs(file.animations[0].duration - 0.5f) < 1e-3f);
    // The clip's last frame is the pose on screen: every bone within 1 mm.
    const std::vector<Mat4> world = editor::sampleBoneWorld(file, 0, file.animations[0].duration);
    float worst = 0.f;
    for (std::size_t b = 0; b < mesh->skeleton.size(); ++b) {
        const std::int32_t k = file.findBone(mesh->skeleton[b].name);
        QVERIFY(k >= 0);
        const Mat4 expected = shown[b] * mesh->skeleton[b].bindWorld;
        const Mat4& got = world[std::size_t(k)];
        worst = std::max(worst, length(Vec3{got.m[12], got.m[13], got.m[14]} - Vec3{expected.m[12], expected.m[13], expected.m[14]}));
    }
    QVERIFY2(worst < 1e-3f, qPrintable(QStringLiteral("worst bone %1 mm").arg(double(worst) * 1e3)));
    w.preview()->stop();
}

int main(int argc, char** argv)
{
    TestPreviewBake test;
    return test::runGuiTests(test, argc, argv);
}

#include "tst_previewbake.moc"
