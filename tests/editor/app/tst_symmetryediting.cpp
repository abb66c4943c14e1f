// Edit ▸ Symmetry in a real window (Xvfb + Mesa), on the mannequin sample: a limit handle dragged on one side,
// the outliner's pairs, and the validation list and Mirror Left → Right on a damaged side.
#include "MainWindow.h"
#include "MainWindowTestSupport.h"
#include "ValidationPanel.h"
#include "viewport/Viewport.h"

#include "marionette/editor/document/Validation.h"
#include "marionette/editor/document/commands/MoveParticlesCommand.h"

#include <QAction>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QUndoStack>

#include <cmath>

using namespace marionette;
using namespace marionette::test;
using project::ElementKind;

class TestSymmetryEditing : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    void gizmoDragMirrorCommandsAndAsymmetries();

  private:
    QTemporaryDir mDir;
};

void TestSymmetryEditing::initTestCase()
{
    useTestEnvironment(mDir.filePath(QStringLiteral("recovery")));
    if (!QFileInfo::exists(kHuman))
        QFAIL("the sample mannequin is missing");
}

// With Edit ▸ Symmetry on, dragging the left elbow's limit handle changes the right elbow's limit to the
// mirrored value in one undo step; the outliner names each element's partner; a damaged right side is listed
// by the validation list and Edit ▸ Mirror Left → Right makes it whole again (one undo step).
void TestSymmetryEditing::gizmoDragMirrorCommandsAndAsymmetries()
{
    app::MainWindow w;
    w.show();
    waitForViewport(w);
    QVERIFY(w.openProject(QStringLiteral(MARIONETTE_SAMPLES "/characters/mannequin/mannequin.mproj")));
    editor::Document& doc = w.document();
    auto action = [&](const char* name) {
        QAction* a = w.findChild<QAction*>(QString::fromLatin1(name));
        if (!a)
            qFatal("no action %s", name);
        return a;
    };
    auto index = [&](ElementKind kind, const char* name) {
        for (std::size_t i = 0; i < editor::countOf(doc.rig(), kind); ++i)
            if (editor::nameAt(doc.rig(), kind, i) == name)
                return i;
        qFatal("no %s", name);
    };
    QVERIFY(!doc.project().editor.symmetry.enabled);
    action("editSymmetry")->trigger();
    QVERIFY(doc.project().editor.symmetry.enabled);
    QVERIFY(action("editMirrorAxis0")->isChecked()); // the X plane

    // The outliner shows the pairs.
    auto* outliner = w.findChild<QTreeView*>(QStringLiteral("outliner"));
    QVERIFY(outliner);
    QStringList rows;
    for (int g = 0; g < outliner->model()->rowCount(); ++g) {
        const QModelIndex group = outliner->model()->index(g, 0);
        for (int r = 0; r < outliner->model()->rowCount(group); ++r)
            rows << outliner->model()->index(r, 0, group).data().toString();
    }
    QVERIFY2(rows.contains(QStringLiteral("elbow_l  \u21c4 elbow_r")), qPrintable(rows.join(QStringLiteral(" | "))));

    const std::size_t left = index(ElementKind::Angular, "elbow_l"), right = index(ElementKind::Angular, "elbow_r");
    const rig::AngularConstraint rightBefore = doc.rig().angular[right];
    const quint32 id = doc.rig().angular[left].id;
    doc.setSelection({{ElementKind::Angular, id}});
    const int steps = doc.undoStack()->count();
    viewport::Viewport* vp = w.viewport();
    emit vp->angularLimitDragged(id, viewport::AngularLimitHandle::TwistMax, 2.4f);
    emit vp->angularLimitDragged(id, viewport::AngularLimitHandle::TwistMax, 2.2f);
    emit vp->angularLimitDragFinished(id, viewport::AngularLimitHandle::TwistMax, 2.0f);
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    QCOMPARE(doc.rig().angular[left].twistMax, 2.0f);
    // The right elbow's flexion axis is the left's mirrored (−x in its frame): the same range about it.
    QVERIFY2(std::fabs(doc.rig().angular[right].twistMax - 2.0f) < 1e-5f, qPrintable(QString::number(double(doc.rig().angular[right].twistMax))));
    QCOMPARE(doc.rig().angular[right].twistMin, rightBefore.twistMin);
    doc.undoStack()->undo();
    QCOMPARE(doc.rig().angular[right].twistMax, rightBefore.twistMax);
    QVERIFY(doc.rig().angular[left].twistMax != 2.0f);

    // A right side edited with symmetry off is listed, then mirrored back from the left.
    action("editSymmetry")->trigger();
    const std::size_t wrist = index(ElementKind::Particle, "wrist_r");
    const Vec3 wristBefore = doc.rig().particles[wrist].position;
    const quint32 wristId = doc.rig().particles[wrist].id;
    doc.undoStack()->push(new editor::MoveParticlesCommand(&doc, {{ElementKind::Particle, wristId}}, {wristBefore + Vec3{0.f, 0.1f, 0.f}}));
    QCOMPARE(doc.rig().particles[index(ElementKind::Particle, "wrist_l")].position.y, wristBefore.y); // left untouched
    action("editSymmetry")->trigger();
    app::ValidationPanel* validation = w.validationPanel();
    auto listed = [validation] {
        for (const editor::ValidationIssue& i : validation->issues())
            if (i.message.contains(QStringLiteral("'wrist_l' and 'wrist_r': not symmetric")))
                return true;
        return false;
    };
    QTRY_VERIFY(listed());
    const int before = doc.undoStack()->count();
    action("editMirrorLeftToRight")->trigger();
    QCOMPARE(doc.undoStack()->count(), before + 1);
    QVERIFY(length(doc.rig().particles[index(ElementKind::Particle, "wrist_r")].position - wristBefore) < 1e-6f);
    QTRY_VERIFY(!listed());
}

QTEST_MAIN(TestSymmetryEditing)
#include "tst_symmetryediting.moc"
