// The editor's main window in a real window (Xvfb + Mesa), driven as a user would: menus' actions, QTest mouse
// clicks in the viewport, answers to its dialogs. See CMakeLists.txt; importing and the file dialogs' folders
// are tst_mainwindowfiles.
#include "DialogDriver.h"
#include "MainWindowTestSupport.h"
#include "GlProbe.h"
#include "LogPanel.h"
#include "MainWindow.h"
#include "OutlinerPanel.h"
#include "PropertiesPanel.h"
#include "ValidationPanel.h"
#include "viewport/Viewport.h"

#include "marionette/editor/document/Validation.h"
#include "marionette/editor/pluginhost/MeshImport.h"
#include "marionette/editor/document/Recovery.h"
#include "marionette/editor/document/commands/AddParticleCommand.h"
#include "marionette/project/ProjectFile.h"
#include "marionette/rig/Validation.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <QElapsedTimer>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QListWidget>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProgressDialog>
#include <QPushButton>
#include <QProcess>
#include <QSettings>
#include <QAbstractSpinBox>
#include <QLineEdit>
#include <QSlider>
#include <QToolBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdlib>

using namespace marionette;
using namespace marionette::test;
using project::ElementKind;
using project::ElementRef;

namespace {

// Every crossing of the ray with the mesh's triangles, sorted by distance: (t, facing the ray's origin).
std::vector<std::pair<float, bool>> crossings(const import::ImportedScene& scene, Vec3 origin, Vec3 dir)
{
    std::vector<std::pair<float, bool>> out;
    for (const auto& m : scene.meshes)
        for (std::size_t k = 0; k + 2 < m.indices.size(); k += 3) {
            const Vec3 a = m.positions[m.indices[k]], b = m.positions[m.indices[k + 1]], c = m.positions[m.indices[k + 2]];
            const Vec3 e1 = b - a, e2 = c - a, p = cross(dir, e2);
            const float det = dot(e1, p);
            if (std::fabs(det) < 1e-12f)
                continue;
            const Vec3 s = origin - a;
            const float u = dot(s, p) / det;
            const Vec3 q = cross(s, e1);
            const float v = dot(dir, q) / det;
            const float t = dot(e2, q) / det;
            if (u >= 0 && v >= 0 && u + v <= 1 && t > 0)
                out.emplace_back(t, dot(cross(e1, e2), dir) < 0);
        }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    void authoring_importRigClickUndoRedoSaveReopenExport();
    void viewport_drawsMeshAndRig();
    void drawing_xrayWhilePlacingAndSmallerParticles();
    void layout_everythingReachableWithoutOverflow_data();
    void layout_everythingReachableWithoutOverflow();
    void autoRig_massesFromTheMeshWhenAsked();
    void panels_outlinerPropertiesAndValidationEditTheDocument();
    void angularGizmo_dragEditsLimitAsOneStep();
    void recovery_offeredAfterCrash();
    void badProject_showsDialogAndKeepsDocument();
    void badMesh_showsDialogAndKeepsDocument();
    void unsavedChanges_promptCanCancel();
    void export_refusedWhenRigHasErrors();
    void export_validatesTheRigOnce_data();
    void export_validatesTheRigOnce();
    void exportAs_pluginFormat();
    void noOpenGl_windowOpensWithMessage();
    void viewportShadersFail_windowShowsMessage();

  private:
    QTemporaryDir mDir;
};

void TestMainWindow::initTestCase()
{
    useTestEnvironment(mDir.filePath(QStringLiteral("recovery")));
    if (!QFileInfo::exists(kHuman))
        QFAIL("the sample mannequin is missing");
}

void TestMainWindow::authoring_importRigClickUndoRedoSaveReopenExport()
{
    app::MainWindow w;
    w.show();
    waitForViewport(w);
    editor::Document& doc = w.document();

    // Import -> auto-rig, one undo step.
    QVERIFY(w.importMesh(kHuman, QStringLiteral("humanoid"), 70.f));
    QVERIFY(doc.mesh());
    const rig::RigDescription imported = doc.rig();
    QVERIFY(imported.particles.size() >= 14);
    QCOMPARE(doc.undoStack()->count(), 1);
    QVERIFY(doc.isModified());

    // Add a particle by clicking on the thigh, halfway between the hip and knee particles on screen.
    w.action(QStringLiteral("viewFront"))->trigger();
    w.action(QStringLiteral("viewFrame"))->trigger();
    QCoreApplication::processEvents();
    viewport::Viewport* vp = w.viewport();
    const std::int32_t hip = particleNamed(imported, "hip_l"), knee = particleNamed(imported, "knee_l");
    const std::int32_t pelvis = particleNamed(imported, "spine");
    QVERIFY(hip >= 0 && knee >= 0 && pelvis >= 0);
    const QPoint hipPx = pixelOf(vp, imported.particles[std::size_t(hip)].position);
    const QPoint kneePx = pixelOf(vp, imported.particles[std::size_t(knee)].position);
    const QPoint click = (hipPx + kneePx) / 2;
    QVERIFY2((hipPx - kneePx).manhattanLength() > 40, "the thigh is too small on screen to click");
    w.action(QStringLiteral("toolAddParticle"))->trigger();
    QTest::mouseClick(vp, Qt::LeftButton, {}, click);
    QTRY_COMPARE(doc.rig().particles.size(), imported.particles.size() + 1);
    const rig::Particle added = doc.rig().particles.back();
    // Independently: the ray through the click enters the leg and leaves it; the particle sits midway.
    const viewport::Ray ray = vp->camera().rayThrough(QPointF(click), vp->size());
    const auto hits = crossings(*doc.mesh(), ray.origin, ray.direction);
    QVERIFY(hits.size() >= 2);
    QVERIFY(hits.front().second); // the first crossing faces the camera
    const auto exit = std::find_if(hits.begin() + 1, hits.end(), [](const auto& h) { return !h.second; });
    QVERIFY(exit != hits.end());
    const Vec3 expected = ray.origin + ray.direction * (0.5f * (hits.front().first + exit->first));
    QVERIFY2(length(added.position - expected) < 0.005f,
        qPrintable(QStringLiteral("particle at %1 %2 %3, expected %4 %5 %6").arg(added.position.x).arg(added.position.y)
                       .arg(added.position.z).arg(expected.x).arg(expected.y).arg(expected.z)));
    const ElementRef addedRef{ElementKind::Particle, added.id};

    // Add a stick by clicking the new particle, then the knee.
    w.action(QStringLiteral("toolAddStick"))->trigger();
    QTest::mouseClick(vp, Qt::LeftButton, {}, pixelOf(vp, added.position));
    QTest::mouseClick(vp, Qt::LeftButton, {}, kneePx);
    QTRY_COMPARE(doc.rig().sticks.size(), imported.sticks.size() + 1);
    const rig::Stick& stick = doc.rig().sticks.back();
    QCOMPARE(std::minmax(stick.a, stick.b), std::minmax(std::int32_t(doc.rig().particles.size() - 1), knee));
    QCOMPARE(stick.kind, rig::StickKind::Rigid);

    // Make a triangle from three selected particles; then an angular constraint to a triangle on the knee.
    w.action(QStringLiteral("toolSelect"))->trigger();
    doc.setSelection({addedRef, {ElementKind::Particle, imported.particles[std::size_t(knee)].id},
        {ElementKind::Particle, imported.particles[std::size_t(pelvis)].id}});
    w.action(QStringLiteral("toolMakeTriangle"))->trigger();
    QCOMPARE(doc.rig().triangles.size(), imported.triangles.size() + 1);
    const rig::Triangle& tri = doc.rig().triangles.back();
    QCOMPARE(tri.p[1], knee);
    std::int32_t kneeTriangle = -1;
    for (std::size_t i = 0; i + 1 < doc.rig().triangles.size() && kneeTriangle < 0; ++i)
        for (std::int32_t p : doc.rig().triangles[i].p)
            if (p == knee)
                kneeTriangle = std::int32_t(i);
    QVERIFY(kneeTriangle >= 0);
    w.action(QStringLiteral("toolSelect"))->trigger();
    doc.setSelection({{ElementKind::Triangle, doc.rig().triangles.back().id},
        {ElementKind::Triangle, doc.rig().triangles[std::size_t(kneeTriangle)].id}});
    w.action(QStringLiteral("toolAddAngular"))->trigger();
    QCOMPARE(doc.rig().angular.size(), imported.angular.size() + 1);
    QCOMPARE(doc.rig().angular.back().triangleB, kneeTriangle);
    QCOMPARE(doc.undoStack()->count(), 5);

    // Undo everything (the import too), then redo everything.
    const QByteArray edited = rigBytes(doc.rig());
    while (doc.undoStack()->canUndo())
        w.action(QStringLiteral("editUndo"))->trigger();
    QCOMPARE(doc.rig().particles.size(), std::size_t(0));
    QVERIFY(!doc.mesh());
    QVERIFY(!doc.isModified());
    while (doc.undoStack()->canRedo())
        w.action(QStringLiteral("editRedo"))->trigger();
    QVERIFY(doc.mesh());
    QCOMPARE(rigBytes(doc.rig()), edited);

    // Save, reopen in a fresh window, export, load in the runtime.
    const QString projectPath = mDir.filePath(QStringLiteral("human.mproj"));
    QVERIFY(w.saveTo(projectPath));
    QVERIFY(!doc.isModified());
    QVERIFY(w.windowTitle().contains(QStringLiteral("human.mproj")));

    app::MainWindow reopened;
    reopened.show();
    QVERIFY(reopened.openProject(projectPath));
    QCOMPARE(rigBytes(reopened.document().rig()), edited);
    QVERIFY(reopened.document().mesh()); // the mesh found through the project's relative path
    QVERIFY(!reopened.document().isModified());
    const QString rigPath = mDir.filePath(QStringLiteral("human.mrig"));
    QVERIFY(reopened.exportRig(rigPath));
    std::string error;
    const auto runtimeRig = runtime::Rig::load(rigPath.toStdString(), &error);
    QVERIFY2(runtimeRig, error.c_str());
    QCOMPARE(runtimeRig->description().particles.size(), edited.isEmpty() ? 0 : reopened.document().rig().particles.size());
    QCOMPARE(runtimeRig->description().angular.size(), reopened.document().rig().angular.size());
    runtime::World world;
    world.addPlane({0, 1, 0}, 0.f);
    const auto ragdoll = world.spawn(runtimeRig, {{}, {0, 0.5f, 0}});
    QVERIFY(ragdoll != runtime::kInvalidRagdoll);
    for (int i = 0; i < 120; ++i)
        world.step();
}

void TestMainWindow::viewport_drawsMeshAndRig()
{
    app::MainWindow w;
    w.show();
    waitForViewport(w);
    QVERIFY(w.importMesh(kHuman, QStringLiteral("humanoid"), 70.f));
    w.action(QStringLiteral("viewFront"))->trigger();
    w.action(QStringLiteral("viewFrame"))->trigger();
    viewport::Viewport* vp = w.viewport();
    QCoreApplication::processEvents();
    const QImage image = vp->grabFramebuffer();
    QVERIFY(!image.isNull());
    // The character's screen box: from the projected mesh vertices.
    QRect box;
    for (const auto& m : w.document().mesh()->meshes)
        for (const Vec3& p : m.positions)
            box |= QRect(pixelOf(vp, p), QSize(1, 1));
    QVERIFY(box.width() > 50 && box.height() > 150);
    const QColor background = image.pixelColor(2, 2);
    auto differs = [&](int x, int y) {
        const QColor c = image.pixelColor(x, y);
        return std::abs(c.red() - background.red()) + std::abs(c.green() - background.green()) +
                   std::abs(c.blue() - background.blue()) > 40;
    };
    int inside = 0, samples = 0;
    for (int y = box.top() + box.height() / 4; y < box.bottom() - box.height() / 4; y += 4) {
        const int x = box.center().x();
        ++samples;
        inside += differs(x, y) ? 1 : 0;
    }
    QVERIFY2(inside > samples * 3 / 4, qPrintable(QStringLiteral("%1 of %2 pixels down the body differ from the background").arg(inside).arg(samples)));
    // Hiding the mesh (opacity 0) leaves the rig drawn: particles still show at their projected centres.
    w.action(QStringLiteral("viewOpacity0"))->trigger();
    QCoreApplication::processEvents();
    const QImage rigOnly = vp->grabFramebuffer();
    int particlesSeen = 0;
    for (const auto& p : w.document().rig().particles) {
        const QPoint px = pixelOf(vp, p.position);
        const QColor c = rigOnly.pixelColor(px);
        particlesSeen += (std::abs(c.red() - background.red()) + std::abs(c.green() - background.green()) +
                             std::abs(c.blue() - background.blue())) > 40;
    }
    QVERIFY2(particlesSeen >= int(w.document().rig().particles.size()) * 3 / 4, qPrintable(QString::number(particlesSeen)));
}

// Placing shows the rig through the mesh (X-ray while a placing tool is active, a setting); particles drawn at a
// quarter of their radius leave the mesh visible around their centres. Both are remembered.
void TestMainWindow::drawing_xrayWhilePlacingAndSmallerParticles()
{
    QSettings().remove(QStringLiteral("view"));
    app::MainWindow w;
    w.show();
    waitForViewport(w);
    QVERIFY(w.importMesh(kHuman, QStringLiteral("humanoid"), 70.f));
    viewport::Viewport* vp = w.viewport();
    const int steps = w.document().undoStack()->count();
    QVERIFY(!vp->displayOptions().xray);
    w.action(QStringLiteral("toolAddParticle"))->trigger();
    QVERIFY(vp->displayOptions().xray);
    w.action(QStringLiteral("toolSelect"))->trigger();
    QVERIFY(!vp->displayOptions().xray);
    w.action(QStringLiteral("viewXrayWhilePlacing"))->trigger(); // off
    w.action(QStringLiteral("toolAddStick"))->trigger();
    QVERIFY(!vp->displayOptions().xray);
    w.action(QStringLiteral("toolSelect"))->trigger();
    QCOMPARE(w.document().undoStack()->count(), steps); // a drawing preference, not an edit

    // The head particle at full size covers the pixel 0.6 of its radius left of its centre; at 25 % the mesh
    // shows there.
    w.action(QStringLiteral("viewFront"))->trigger();
    w.action(QStringLiteral("viewFrame"))->trigger();
    const rig::RigDescription& rig = w.document().rig();
    const auto head = std::find_if(rig.particles.begin(), rig.particles.end(), [](const rig::Particle& p) { return p.name == "head"; });
    QVERIFY(head != rig.particles.end());
    const QPoint probe = pixelOf(vp, head->position - Vec3{0.6f * head->radius, 0.f, 0.f});
    auto bluish = [&] {
        QCoreApplication::processEvents();
        const QColor c = vp->grabFramebuffer().pixelColor(probe);
        return c.blue() > c.red() + 60;
    };
    QVERIFY(bluish());
    w.action(QStringLiteral("viewParticleSize25"))->trigger();
    QCOMPARE(vp->displayOptions().particleSize, 0.25f);
    QVERIFY(!bluish());
    QCOMPARE(QSettings().value(QStringLiteral("view/particleSize")).toDouble(), 0.25);
    QCOMPARE(QSettings().value(QStringLiteral("view/xrayWhilePlacing")).toBool(), false);
    {   // the next window starts with them
        app::MainWindow again;
        QCOMPARE(again.viewport() ? again.viewport()->displayOptions().particleSize : 0.25f, 0.25f);
        QVERIFY(!again.action(QStringLiteral("viewXrayWhilePlacing"))->isChecked());
        QVERIFY(again.action(QStringLiteral("viewParticleSize25"))->isChecked());
    }
    QSettings().remove(QStringLiteral("view"));
}

void TestMainWindow::layout_everythingReachableWithoutOverflow_data()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("1400x900 (the default)") << QSize(1400, 900);
    QTest::newRow("1280x720") << QSize(1280, 720);
}

// At the default window size and at 1280×720 no tool bar hides an action in its overflow menu, the timeline is
// on screen, and no number field of the properties panel (the rig's settings: gravity x, y, z) is cut off.
void TestMainWindow::layout_everythingReachableWithoutOverflow()
{
    QFETCH(QSize, size);
    app::MainWindow w;
    w.resize(size);
    w.show();
    waitForViewport(w);
    QVERIFY(w.importMesh(kHuman, QStringLiteral("humanoid"), 70.f));
    w.document().setSelection({});
    QCoreApplication::processEvents();
    QCOMPARE(w.size(), size);
    int bars = 0, reachable = 0;
    for (QToolBar* bar : w.findChildren<QToolBar*>()) {
        if (!bar->isVisible())
            continue;
        ++bars;
        const QWidget* overflow = bar->findChild<QWidget*>(QStringLiteral("qt_toolbar_ext_button"));
        QVERIFY2(!overflow || !overflow->isVisible(), qPrintable(bar->objectName() + QStringLiteral(" overflows")));
        for (QAction* a : bar->actions()) {
            if (a->isSeparator() || !a->isVisible())
                continue;
            const QWidget* shown = bar->widgetForAction(a);
            QVERIFY2(shown && shown->isVisible() && bar->rect().contains(shown->geometry()),
                     qPrintable(QStringLiteral("%1: '%2' is not on the bar").arg(bar->objectName(), a->text().isEmpty() ? a->objectName() : a->text())));
            ++reachable;
        }
    }
    QVERIFY(bars >= 4); // file, tools, preview, preview timeline
    QVERIFY(reachable >= 30);
    for (const char* name : {"toolAutoRig", "previewPlay", "previewRecord", "previewFromAnimation", "previewFollow"})
        QVERIFY2(w.findChild<QAction*>(QString::fromLatin1(name)), name);
    const auto* timeline = w.findChild<QSlider*>(QStringLiteral("previewTimeline"));
    QVERIFY(timeline && timeline->isVisible() && timeline->width() >= 160);
    QVERIFY(timeline->mapTo(&w, QPoint(timeline->width(), timeline->height())).x() <= w.width());

    // Every number field in the properties panel shows its whole text.
    int fields = 0;
    for (const QAbstractSpinBox* box : w.findChild<QWidget*>(QStringLiteral("properties"))->findChildren<QAbstractSpinBox*>()) {
        if (!box->isVisible())
            continue;
        const QLineEdit* edit = box->findChild<QLineEdit*>();
        QVERIFY(edit);
        const int needed = edit->fontMetrics().horizontalAdvance(edit->displayText());
        QVERIFY2(needed <= edit->width(), qPrintable(QStringLiteral("'%1' needs %2 px, has %3").arg(edit->displayText()).arg(needed).arg(edit->width())));
        ++fields;
    }
    QVERIFY2(fields >= 3, qPrintable(QString::number(fields))); // at least the gravity vector
}

// Tools ▸ Auto-Rig… with "Masses from the mesh's volume" ticked: the same rig with the total spread by the skinned
// volume (the head lighter relative to the thighs than Dempster's table has it, on the mannequin's ellipsoids),
// the total kept, one undo step; the choice is remembered.
void TestMainWindow::autoRig_massesFromTheMeshWhenAsked()
{
    QSettings().remove(QStringLiteral("autoRig"));
    app::MainWindow w;
    w.show();
    QVERIFY(w.importMesh(kHuman, QStringLiteral("humanoid"), 70.f));
    const rig::RigDescription table = w.document().rig();
    const int steps = w.document().undoStack()->count();
    auto answer = answerNextDialog([](QDialog* d) {
        d->findChild<QComboBox*>(QStringLiteral("template"))->setCurrentText(QStringLiteral("humanoid"));
        d->findChild<QDoubleSpinBox*>(QStringLiteral("mass"))->setValue(70.0);
        d->findChild<QCheckBox*>(QStringLiteral("massFromMesh"))->setChecked(true);
        d->accept();
    });
    QVERIFY(w.autoRig(QString(), 0.f));
    QVERIFY(answer->seen);
    const rig::RigDescription& fromMesh = w.document().rig();
    QCOMPARE(fromMesh.particles.size(), table.particles.size());
    double total = 0.0, changed = 0.0;
    for (std::size_t i = 0; i < fromMesh.particles.size(); ++i) {
        total += double(fromMesh.particles[i].mass);
        changed = std::max(changed, std::fabs(double(fromMesh.particles[i].mass - table.particles[i].mass)));
    }
    QVERIFY2(std::fabs(total - 70.0) < 1e-3, qPrintable(QString::number(total)));
    QVERIFY2(changed > 0.1, qPrintable(QString::number(changed))); // not the template's table
    QCOMPARE(w.document().undoStack()->count(), steps + 1);
    QVERIFY(QSettings().value(QStringLiteral("autoRig/massFromMesh")).toBool());
    QSettings().remove(QStringLiteral("autoRig"));
}

void TestMainWindow::panels_outlinerPropertiesAndValidationEditTheDocument()
{
    app::MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.importMesh(kHuman, QStringLiteral("humanoid"), 70.f));
    editor::Document& doc = w.document();
    const rig::RigDescription& rig = doc.rig();
    const std::int32_t hipL = particleNamed(rig, "hip_l"), hipR = particleNamed(rig, "hip_r");

    // Outliner: selecting rows selects the elements; the eye box hides one (an undo step).
    app::OutlinerPanel* outliner = w.outliner();
    const QModelIndex rowL = outliner->indexOf({ElementKind::Particle, rig.particles[std::size_t(hipL)].id});
    const QModelIndex rowR = outliner->indexOf({ElementKind::Particle, rig.particles[std::size_t(hipR)].id});
    QVERIFY(rowL.isValid() && rowR.isValid());
    outliner->selectionModel()->select(rowL, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    outliner->selectionModel()->select(rowR, QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QCOMPARE(doc.selection().size(), std::size_t(2));
    const int steps = doc.undoStack()->count();

    // Properties: one radius typed for both selected particles is one undo step.
    auto* radius = qobject_cast<QDoubleSpinBox*>(w.properties()->editorFor(QStringLiteral("radius")));
    QVERIFY(radius);
    radius->setFocus();
    radius->selectAll();
    QTest::keyClicks(radius, QStringLiteral("0.123"));
    QTest::keyClick(radius, Qt::Key_Return);
    QCOMPARE(rig.particles[std::size_t(hipL)].radius, 0.123f);
    QCOMPARE(rig.particles[std::size_t(hipR)].radius, 0.123f);
    QCOMPARE(doc.undoStack()->count(), steps + 1);

    QStandardItem* eye = outliner->outlinerModel()->itemFromIndex(rowL.siblingAtColumn(app::OutlinerPanel::VisibleColumn));
    eye->setCheckState(Qt::Unchecked);
    QTRY_VERIFY(!doc.isVisible({ElementKind::Particle, rig.particles[std::size_t(hipL)].id}));
    QCOMPARE(doc.undoStack()->count(), steps + 2);
    QVERIFY(!w.viewport() || std::find(w.viewport()->scene().hidden.begin(), w.viewport()->scene().hidden.end(),
                                 ElementRef{ElementKind::Particle, rig.particles[std::size_t(hipL)].id}) != w.viewport()->scene().hidden.end());
    doc.undoStack()->undo();
    QVERIFY(doc.isVisible({ElementKind::Particle, rig.particles[std::size_t(hipL)].id}));

    // Validation: an isolated particle is listed; clicking the entry selects it.
    doc.undoStack()->push(new editor::AddParticleCommand(&doc, Vec3{3, 3, 3}, 0.05f));
    const ElementRef lonely{ElementKind::Particle, rig.particles.back().id};
    doc.setSelection({});
    app::ValidationPanel* validation = w.validationPanel();
    auto isolatedRow = [validation] {
        for (std::size_t i = 0; i < validation->issues().size(); ++i)
            if (validation->issues()[i].message.contains(QStringLiteral("isolated")))
                return int(i);
        return -1;
    };
    QTRY_VERIFY(isolatedRow() >= 0); // re-validated a moment after the edit
    const int row = isolatedRow();
    const QRect rect = validation->visualItemRect(validation->item(row));
    QTest::mouseClick(validation->viewport(), Qt::LeftButton, {}, rect.center());
    QCOMPARE(doc.selection(), std::vector<ElementRef>{lonely});
}

void TestMainWindow::angularGizmo_dragEditsLimitAsOneStep()
{
    app::MainWindow w;
    w.show();
    waitForViewport(w);
    QVERIFY(w.importMesh(kHuman, QStringLiteral("humanoid"), 70.f));
    editor::Document& doc = w.document();
    // The humanoid's joints are swing/twist limits: the Swing1 handle edits swing1 (a cone limit's edits coneAngle).
    const std::size_t cone = 0;
    QVERIFY(!doc.rig().angular.empty());
    QCOMPARE(doc.rig().angular[cone].limit, rig::AngularLimit::SwingTwist);
    const rig::AngularConstraint before = doc.rig().angular[cone];
    doc.setSelection({{ElementKind::Angular, before.id}});
    viewport::Viewport* vp = w.viewport();
    QCOMPARE(vp->scene().selection.size(), std::size_t(1));
    const int steps = doc.undoStack()->count();
    // The viewport reports a drag of the cone's rim handle in three moves, then the release.
    emit vp->angularLimitDragged(before.id, viewport::AngularLimitHandle::Swing1, 0.5f);
    emit vp->angularLimitDragged(before.id, viewport::AngularLimitHandle::Swing1, 0.6f);
    emit vp->angularLimitDragFinished(before.id, viewport::AngularLimitHandle::Swing1, 0.7f);
    QCOMPARE(doc.rig().angular[cone].swing1, 0.7f);
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    doc.undoStack()->undo();
    QCOMPARE(doc.rig().angular[cone].swing1, before.swing1);
    doc.undoStack()->redo();
    // A drag cancelled with Esc puts the original back and leaves no step.
    emit vp->angularLimitDragged(before.id, viewport::AngularLimitHandle::Swing1, 1.2f);
    emit vp->angularLimitDragCancelled(before.id, viewport::AngularLimitHandle::Swing1, 0.7f);
    QCOMPARE(doc.rig().angular[cone].swing1, 0.7f);
    QCOMPARE(doc.undoStack()->count(), steps + 1);
}

void TestMainWindow::recovery_offeredAfterCrash()
{
    // A child process (this executable in --crash-child mode) autosaves a document and aborts.
    const QString folder = mDir.filePath(QStringLiteral("crash"));
    QProcess child;
    child.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--crash-child"), folder});
    QVERIFY(child.waitForFinished(30000));
    QCOMPARE(child.exitStatus(), QProcess::CrashExit);

    qputenv("MARIONETTE_RECOVERY_DIR", folder.toUtf8());
    app::MainWindow w;
    w.show();
    auto dialog = answerNextDialog(pressButton(QStringLiteral("Recover")));
    w.offerRecovery();
    QVERIFY(dialog->seen);
    QCOMPARE(dialog->objectName, QStringLiteral("recoveryDialog"));
    QVERIFY(dialog->text.contains(QStringLiteral("crashed.mproj")));
    QCOMPARE(w.document().rig().particles.size(), std::size_t(2));
    QCOMPARE(w.document().rig().particles[1].name, std::string("recovered"));
    QVERIFY(w.document().isModified());
    QCOMPARE(QFileInfo(w.document().filePath()).fileName(), QStringLiteral("crashed.mproj"));
    // The orphan is gone once recovered: a second start offers nothing.
    QVERIFY(editor::RecoverySession(folder).orphans().empty());
    qputenv("MARIONETTE_RECOVERY_DIR", mDir.filePath(QStringLiteral("recovery")).toUtf8());
}

void TestMainWindow::badProject_showsDialogAndKeepsDocument()
{
    app::MainWindow w;
    w.show();
    QVERIFY(w.importMesh(kHuman, QStringLiteral("humanoid"), 70.f));
    const QByteArray before = rigBytes(w.document().rig());
    QVERIFY(w.saveTo(mDir.filePath(QStringLiteral("good.mproj"))));
    struct Case { const char* name; QByteArray bytes; const char* expect; };
    const Case cases[] = {
        {"garbage.mproj", QByteArray("\x00\x01 not json", 11), "garbage.mproj"},
        {"truncated.mproj", QByteArray("{\"format\": \"marionette-project\", \"version\": 1, \"rig\": {\"partic"), "truncated.mproj"},
        {"wrongref.mproj", QByteArray(), "wrongref.mproj"},
    };
    for (const Case& c : cases) {
        QByteArray bytes = c.bytes;
        if (bytes.isEmpty()) { // a valid project whose first stick names a particle that does not exist
            QFile good(mDir.filePath(QStringLiteral("good.mproj")));
            QVERIFY(good.open(QIODevice::ReadOnly));
            bytes = good.readAll();
            const qsizetype at = bytes.indexOf("\"sticks\"");
            const qsizetype a = bytes.indexOf("\"a\":", at);
            QVERIFY(at > 0 && a > 0);
            bytes.insert(a + 4, " 99999");
            bytes.remove(a + 10, bytes.indexOf(',', a + 10) - (a + 10));
        }
        const QString path = mDir.filePath(QString::fromLatin1(c.name));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        f.close();
        auto dialog = answerNextDialog(pressButton(QStringLiteral("OK")));
        QVERIFY(!w.openProject(path));
        QVERIFY2(dialog->seen, c.name);
        QCOMPARE(dialog->objectName, QStringLiteral("errorDialog"));
        QVERIFY2(dialog->text.contains(QLatin1String(c.expect)), qPrintable(dialog->text));
        QVERIFY2(!dialog->text.contains(QLatin1Char('\n')), qPrintable(dialog->text));
        QCOMPARE(rigBytes(w.document().rig()), before);
        QCOMPARE(QFileInfo(w.document().filePath()).fileName(), QStringLiteral("good.mproj"));
    }
}

void TestMainWindow::badMesh_showsDialogAndKeepsDocument()
{
    app::MainWindow w;
    w.show();
    QVERIFY(w.importMesh(kHuman, QStringLiteral("humanoid"), 70.f));
    const QByteArray before = rigBytes(w.document().rig());
    const int steps = w.document().undoStack()->count();
    const QString garbage = mDir.filePath(QStringLiteral("broken.gltf"));
    QFile f(garbage);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{ \"asset\": { \"version\": \"2.0\" }, \"meshes\": [ { \"primitives\": [ { \"attributes\": { \"POSITION\": 7 } } ] } ] }");
    f.close();
    for (const QString& path : {garbage, QStringLiteral(MARIONETTE_ASSIMP_MODELS "/invalid/empty.x"), mDir.filePath(QStringLiteral("missing.fbx"))}) {
        auto dialog = answerNextDialog(pressButton(QStringLiteral("OK")));
        QVERIFY(!w.importMesh(path, QStringLiteral("humanoid")));
        QVERIFY2(dialog->seen, qPrintable(path));
        QCOMPARE(dialog->objectName, QStringLiteral("errorDialog"));
        QVERIFY2(!dialog->text.isEmpty(), qPrintable(path));
        QCOMPARE(rigBytes(w.document().rig()), before);
        QCOMPARE(w.document().undoStack()->count(), steps);
    }
}

void TestMainWindow::unsavedChanges_promptCanCancel()
{
    app::MainWindow w;
    w.show();
    QVERIFY(w.importMesh(kHuman, QStringLiteral("humanoid"), 70.f));
    QVERIFY(w.document().isModified());
    const QByteArray before = rigBytes(w.document().rig());
    auto dialog = answerNextDialog(pressButton(QStringLiteral("Cancel")));
    QVERIFY(!w.openProject(mDir.filePath(QStringLiteral("human.mproj"))));
    QVERIFY(dialog->seen);
    QCOMPARE(dialog->objectName, QStringLiteral("unsavedDialog"));
    QCOMPARE(rigBytes(w.document().rig()), before);
    QVERIFY(w.document().isModified());
    // Discard lets the open go on.
    auto discard = answerNextDialog(pressButton(QStringLiteral("Discard")));
    QVERIFY(w.openProject(mDir.filePath(QStringLiteral("human.mproj"))));
    QVERIFY(discard->seen);
    QVERIFY(!w.document().isModified());
}

void TestMainWindow::export_refusedWhenRigHasErrors()
{
    app::MainWindow w;
    w.show();
    QVERIFY(w.importMesh(kHuman, QStringLiteral("humanoid"), 70.f));
    // Three particles on one line make a degenerate triangle: an error.
    editor::Document& doc = w.document();
    const std::int32_t hip = particleNamed(doc.rig(), "hip_l"), knee = particleNamed(doc.rig(), "knee_l");
    const Vec3 mid = (doc.rig().particles[std::size_t(hip)].position + doc.rig().particles[std::size_t(knee)].position) * 0.5f;
    w.action(QStringLiteral("toolSelect"))->trigger();
    doc.undoStack()->push(new editor::AddParticleCommand(&doc, mid, 0.05f));
    doc.setSelection({{ElementKind::Particle, doc.rig().particles[std::size_t(hip)].id},
        {ElementKind::Particle, doc.rig().particles[std::size_t(knee)].id}, {ElementKind::Particle, doc.rig().particles.back().id}});
    w.action(QStringLiteral("toolMakeTriangle"))->trigger();
    const QString target = mDir.filePath(QStringLiteral("refused.mrig"));
    auto dialog = answerNextDialog(pressButton(QStringLiteral("OK")));
    QVERIFY(!w.exportRig(target));
    QVERIFY(dialog->seen);
    QVERIFY2(dialog->text.contains(QStringLiteral("degenerate")), qPrintable(dialog->text));
    QVERIFY(!QFileInfo::exists(target));
}

void TestMainWindow::export_validatesTheRigOnce_data()
{
    QTest::addColumn<QString>("format");
    QTest::newRow("mrig") << QStringLiteral("mrig");
    QTest::newRow("json plugin") << QStringLiteral("json");
}

// File ▸ Export validates the rig once: the Validation list's verdict is the one the plugin host, the runtime
// builder and the .mrig writer go by (rig::validationCount() counts every validation of the process).
void TestMainWindow::export_validatesTheRigOnce()
{
    QFETCH(QString, format);
    app::MainWindow w;
    w.show();
    QVERIFY(w.importMesh(kHuman, QStringLiteral("humanoid"), 70.f));
    const QString target = mDir.filePath(QStringLiteral("once.") + format);
    const std::uint64_t before = rig::validationCount();
    QVERIFY(w.exportRig(target, format));
    QCOMPARE(rig::validationCount() - before, std::uint64_t(1));
    QVERIFY(QFileInfo(target).size() > 1000);
    QVERIFY(!editor::hasErrors(w.validationPanel()->issues()));
}

void TestMainWindow::exportAs_pluginFormat()
{
    app::MainWindow w;
    w.show();
    QVERIFY(w.importMesh(kHuman, QStringLiteral("humanoid"), 70.f));
    // File ▸ Export As lists every exporter the plugin host loaded, the shipped JSON plugin among them.
    QVERIFY(w.action(QStringLiteral("exportAs_mrig")));
    QVERIFY2(w.action(QStringLiteral("exportAs_json")), "the json exporter plugin did not load");
    const QString target = mDir.filePath(QStringLiteral("human.json"));
    QVERIFY(w.exportRig(target, QStringLiteral("json")));
    QFile file(target);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
    QCOMPARE(json.value(QStringLiteral("particles")).toArray().size(), qsizetype(w.document().rig().particles.size()));
}

void TestMainWindow::noOpenGl_windowOpensWithMessage()
{
    qputenv("MARIONETTE_NO_OPENGL", "1");
    app::MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    qunsetenv("MARIONETTE_NO_OPENGL");
    QVERIFY(!w.viewport());
    auto* message = w.findChild<QLabel*>(QStringLiteral("glMessage"));
    QVERIFY(message && message->isVisible());
    QVERIFY(message->text().contains(QStringLiteral("OpenGL 3.3")));
    // The rest of the editor works: import and save.
    QVERIFY(w.importMesh(kHuman, QStringLiteral("humanoid"), 70.f));
    QVERIFY(w.saveTo(mDir.filePath(QStringLiteral("nogl.mproj"))));
}

void TestMainWindow::viewportShadersFail_windowShowsMessage()
{
    // A context is there but the viewport cannot set itself up (here: forced): the centre says so, no crash.
    qputenv("MARIONETTE_VIEWPORT_FAIL", "1");
    app::MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* message = w.findChild<QLabel*>(QStringLiteral("glMessage"));
    QVERIFY(message);
    QTRY_VERIFY_WITH_TIMEOUT(message->isVisible(), 10000);
    qunsetenv("MARIONETTE_VIEWPORT_FAIL");
    QVERIFY(message->text().contains(QStringLiteral("not available")));
    QVERIFY(!w.glProblem().isEmpty());
    QVERIFY(w.importMesh(kHuman, QStringLiteral("humanoid"), 70.f)); // the rest of the editor works
}

// --crash-child FOLDER: autosave a small document as "crashed.mproj", then crash.
static int crashChild(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    editor::RecoverySession session(QString::fromLocal8Bit(argv[2]));
    project::Project p;
    p.rig.particles.resize(2);
    p.rig.particles[0].name = "first";
    p.rig.particles[1].name = "recovered";
    p.rig.particles[1].position = {0, 1, 0};
    project::assignMissingIds(p);
    QString error;
    if (!session.write(p, QFileInfo(QString::fromLocal8Bit(argv[2]) + QStringLiteral("/../crashed.mproj")).absoluteFilePath(), error))
        return 3;
    std::abort();
}

int main(int argc, char** argv)
{
    if (argc >= 3 && qstrcmp(argv[1], "--crash-child") == 0)
        return crashChild(argc, argv);
    TestMainWindow test;
    return test::runGuiTests(test, argc, argv);
}

#include "tst_mainwindow.moc"
