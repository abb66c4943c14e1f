// editor/core's import workflow (pluginhost/MeshImport.h): the size check after conversion. A model far
// taller than a person or smaller than a cat gets one warning that names its size and unit and proposes the
// scale that makes it a person's height (a common unit when one fits); importing at that scale brings it to
// size with no warning; a scale the user chose is never second-guessed; bones of zero length are named.
// Checked on hand-made scenes (exact arithmetic), on OBJ files the test writes, and on Half-Life's man.mdl
// (inches by its format's convention). Each shipped sample's rig is the skeleton of its mesh.
#include "marionette/editor/document/Validation.h"
#include "marionette/editor/pluginhost/MeshImport.h"
#include "marionette/editor/pluginhost/PluginHost.h"
#include "marionette/project/ProjectFile.h"

#include <QDir>

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace marionette;

namespace {

/// A closed box `w` × `h` × `d` (file units) standing on the origin, as an OBJ file (no unit, +Y up).
bool writeBox(const QString& path, float w, float h, float d)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Text))
        return false;
    QTextStream out(&f);
    for (int i = 0; i < 8; ++i)
        out << "v " << ((i & 1) ? w / 2 : -w / 2) << ' ' << ((i & 2) ? h : 0.f) << ' ' << ((i & 4) ? d / 2 : -d / 2) << '\n';
    // Faces (1-based), outward: -z, +z, -x, +x, -y, +y.
    out << "f 1 3 4 2\nf 5 6 8 7\nf 1 5 7 3\nf 2 4 8 6\nf 1 2 6 5\nf 3 7 8 4\n";
    return true;
}

float height(const import::ImportedScene& scene)
{
    const auto box = scene.bounds();
    return box[1].y - box[0].y;
}

QString joined(const QStringList& lines) { return lines.join(QStringLiteral(" | ")); }

/// A scene holding one triangle spanning `size` metres along each axis.
import::ImportedScene sceneOfSize(Vec3 size, float scale, const char* unit = "unknown")
{
    import::ImportedScene s;
    import::ImportedMesh m;
    m.positions = {{0.f, 0.f, 0.f}, {size.x, size.y, 0.f}, {0.f, 0.f, size.z}};
    m.indices = {0, 1, 2};
    s.meshes.push_back(m);
    s.conversion.scale = scale;
    s.conversion.sourceUnit = unit;
    return s;
}

rig::Bone bone(const char* name, std::int32_t parent, Vec3 at)
{
    rig::Bone b;
    b.name = name;
    b.parent = parent;
    b.bindWorld = Mat4::fromRotationTranslation(Mat3{}, at);
    return b;
}

} // namespace

class TestMeshImport : public QObject {
    Q_OBJECT

private slots:
    void sizeCheck_personSizedIsQuiet()
    {
        const editor::SizeCheck c = editor::checkImportedSize(sceneOfSize({0.5f, 1.8f, 0.3f}, 1.f), 1.f);
        QVERIFY2(c.warnings.isEmpty(), qPrintable(joined(c.warnings)));
        QVERIFY(!c.proposedScale);
        // The bounds: a small animal (largest extent 0.3 m) and a tall one (3 m) are still characters.
        QVERIFY(!editor::checkImportedSize(sceneOfSize({0.3f, 0.2f, 0.1f}, 1.f), 1.f).proposedScale);
        QVERIFY(!editor::checkImportedSize(sceneOfSize({1.f, 3.f, 1.f}, 1.f), 1.f).proposedScale);
        QVERIFY(!editor::checkImportedSize(sceneOfSize({10.f, 1.f, 1.f}, 1.f), 1.f).proposedScale); // a long body
    }

    // Lying along x, 71.2 m long and 1.8 m tall at the centimetre (an FBX whose bones carry a scale of 100):
    // long, not tall; the proposal makes the length 1.75 m: 0.01 × 1.75 / 71.2 = 0.000246.
    void sizeCheck_tooLongProposesTheLengthOfAPerson()
    {
        const editor::SizeCheck c = editor::checkImportedSize(sceneOfSize({71.2f, 1.8f, 1.8f}, 0.01f, "centimetre"), 0.01f);
        QVERIFY(c.proposedScale);
        QVERIFY2(std::fabs(*c.proposedScale - 0.000246f) < 1e-9f, qPrintable(QString::number(double(*c.proposedScale))));
        QCOMPARE(c.warnings.size(), 1);
        QVERIFY2(c.warnings.front().startsWith(QStringLiteral("size: 71.2 m long, over 10 m (the file's unit is the centimetre, scale 0.01): too large")),
                 qPrintable(c.warnings.front()));
    }

    // 9.75 units tall at scale 1: no common unit lands between 1.2 and 2.2 m (0.1 → 0.975 m, 0.3048 →
    // 2.97 m), so the proposal is exact: 1.75 / 9.75 = 0.1795 → 0.179 (three digits).
    void sizeCheck_tooTallProposesTheScaleOfAPerson()
    {
        const editor::SizeCheck c = editor::checkImportedSize(sceneOfSize({1.f, 9.75f, 1.f}, 1.f), 1.f);
        QCOMPARE(c.warnings.size(), 1);
        QVERIFY(c.proposedScale);
        QCOMPARE(*c.proposedScale, 0.179f);
        QCOMPARE(c.warnings.front(), QStringLiteral("size: 9.75 m tall, over 3 m (the file declares no unit, scale 1): too large for a character; import with scale 0.179 to make it 1.75 m"));
    }

    // 180 units: centimetres make it 1.8 m, so the proposal is the centimetre itself.
    void sizeCheck_snapsToACommonUnit()
    {
        editor::SizeCheck c = editor::checkImportedSize(sceneOfSize({40.f, 180.f, 30.f}, 1.f), 1.f);
        QVERIFY(c.proposedScale);
        QCOMPARE(*c.proposedScale, 0.01f);
        // 70 units tall read as metres: inches make it 1.78 m.
        c = editor::checkImportedSize(sceneOfSize({20.f, 70.f, 10.f}, 1.f), 1.f);
        QVERIFY(c.proposedScale);
        QCOMPARE(*c.proposedScale, 0.0254f);
        // 0.0175 m at its largest, read in metres at scale 0.01 (1.75 file units): 1 m per unit fits.
        c = editor::checkImportedSize(sceneOfSize({0.005f, 0.0175f, 0.005f}, 0.01f, "centimetre"), 0.01f);
        QVERIFY(c.proposedScale);
        QCOMPARE(*c.proposedScale, 1.f);
        QVERIFY2(c.warnings.front().contains(QStringLiteral("under 0.3 m (the file's unit is the centimetre, scale 0.01): too small")),
                 qPrintable(c.warnings.front()));
    }

    // A chain root → hip → knee → ankle whose knee starts at the hip: the hip has zero length. The root is
    // a container and is not named even though its only child starts at it; a leaf has no length to judge.
    void sizeCheck_namesBonesOfZeroLength()
    {
        import::ImportedScene s = sceneOfSize({0.5f, 1.8f, 0.3f}, 1.f);
        s.skeleton = {bone("root", -1, {0, 1, 0}), bone("hip", 0, {0, 1, 0}), bone("knee", 1, {0, 1, 0}),
                      bone("ankle", 2, {0, 0.1f, 0}), bone("toe", 3, {0, 0.f, 0.1f})};
        const editor::SizeCheck c = editor::checkImportedSize(s, 1.f);
        QCOMPARE(c.warnings, QStringList{QStringLiteral("bones: hip has zero length (every child starts where it does): a limb through it cannot bend there")});
        QVERIFY(!c.proposedScale);
    }

    // The whole workflow on files: an OBJ 180 units tall (OBJ declares no unit) warns with the centimetre;
    // imported again at that scale it is 1.8 m with no size warning; a chosen scale is never questioned.
    void importMesh_warnsThenImportsAtTheProposedScale()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString tall = dir.filePath(QStringLiteral("tall.obj"));
        QVERIFY(writeBox(tall, 40.f, 180.f, 30.f));
        editor::PluginHost host;
        editor::MeshImportRequest request;
        request.path = tall;
        editor::MeshImportResult r = editor::importMesh(host, request);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(height(r.scene), 180.f);
        QVERIFY(r.proposedScale);
        QCOMPARE(*r.proposedScale, 0.01f);
        const QStringList size = r.warnings.filter(QStringLiteral(": size: "));
        QCOMPARE(size.size(), 1);
        QVERIFY2(size.front().startsWith(tall + QStringLiteral(": size: 180 m tall")), qPrintable(size.front()));

        request.scale = *r.proposedScale;
        r = editor::importMesh(host, request);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(std::fabs(height(r.scene) - 1.8f) < 1e-4f);
        QVERIFY2(r.warnings.filter(QStringLiteral(": size: ")).isEmpty(), qPrintable(joined(r.warnings)));
        QVERIFY(!r.proposedScale);

        request.scale = 1.f; // the user's own choice, however large
        r = editor::importMesh(host, request);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(r.warnings.filter(QStringLiteral(": size: ")).isEmpty());
        QVERIFY(!r.proposedScale);
    }

    // Half-Life's man.mdl: the format declares no unit and its engine's is the inch, so it comes in at
    // 0.248 m; the check proposes the scale of a person, and at that scale it is 1.5-2 m tall.
    void importMesh_halfLifeManInInchesThenAtPersonHeight()
    {
        const QString man = QStringLiteral(MARIONETTE_ASSIMP_MODELS "/MDL/MDL (HL1)/man.mdl");
        if (!QFile::exists(man))
            QSKIP("Assimp's test models are not installed (assimp-testmodels)");
        editor::PluginHost host;
        editor::MeshImportRequest request;
        request.path = man;
        editor::MeshImportResult r = editor::importMesh(host, request);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.scene.conversion.sourceUnit, std::string("inch"));
        QVERIFY(r.scene.conversion.unitByConvention);
        QCOMPARE(r.scene.conversion.scale, 0.0254f);
        QVERIFY(height(r.scene) < 0.3f);
        QVERIFY(r.proposedScale);
        QVERIFY2(r.warnings.filter(QStringLiteral("the file's unit is the inch, by its format's convention")).size() == 1,
                 qPrintable(joined(r.warnings)));

        request.scale = *r.proposedScale;
        r = editor::importMesh(host, request);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY2(height(r.scene) >= 1.5f && height(r.scene) <= 2.f, qPrintable(QString::number(double(height(r.scene)))));
        QVERIFY(r.warnings.filter(QStringLiteral(": size: ")).isEmpty());
    }

    // Every shipped sample, its mesh imported as the project records it (as the editor opens it): no size
    // warning (a recorded scale is the user's) and the validation, given the mesh, finds no error — in
    // particular the rig's skeleton is the mesh's.
    void samples_rigsMatchTheirMeshes()
    {
        const QDir samples(QStringLiteral(MARIONETTE_SAMPLES "/characters"));
        editor::PluginHost host;
        int checked = 0;
        for (const QString& folder : samples.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            const QDir dir(samples.filePath(folder));
            for (const QString& file : dir.entryList({QStringLiteral("*.mproj")})) {
                const QString path = dir.filePath(file);
                project::Project p;
                const project::LoadResult loaded = project::loadProject(path, p);
                QVERIFY2(loaded.ok(), qPrintable(loaded.error));
                editor::MeshImportRequest request;
                QStringList warnings;
                QString error;
                QVERIFY2(editor::projectMeshRequest(p, path, request, &warnings, &error), qPrintable(error));
                const editor::MeshImportResult r = editor::importMesh(host, request);
                QVERIFY2(r.ok(), qPrintable(r.error));
                QVERIFY2(!r.proposedScale && r.warnings.filter(QStringLiteral(": size: ")).isEmpty(), qPrintable(joined(r.warnings)));
                const editor::RigVerdict verdict = editor::rigVerdict(p.rig, &r.scene);
                QStringList errors;
                for (const editor::ValidationIssue& issue : verdict.issues)
                    if (issue.severity == editor::Severity::Error)
                        errors << issue.message;
                QVERIFY2(verdict.ok(), qPrintable(path + QStringLiteral(": ") + joined(errors)));
                ++checked;
            }
        }
        QVERIFY(checked >= 3);
    }
};

QTEST_GUILESS_MAIN(TestMeshImport)
#include "tst_meshimport.moc"
