// The C/C++ header exporter plugin (docs/plugins/c-header-export.md): a rig with every kind of element is
// exported as a header; a small C program that includes it (and a second rig's header, one without drive
// profiles) is compiled with the system C compiler in C99 with warnings as errors, and with the C++
// compiler, and run: it prints every value it sees, which must be the rig's, bit for bit.
#include "PluginTestSupport.h"

#include "marionette/editor/pluginhost/PluginHost.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

using namespace marionette;

namespace {

// Prints every field of the rig in the header, one element per line, floats with 9 significant digits
// (enough to read a float back exactly).
const char* kProgram = R"(#include <stdio.h>
#include "rich-rig.h"
#include "other.h"
#define F(x) printf(" %.9g", (double)(x))
#define I(x) printf(" %ld", (long)(x))
static void f3(const float* v) { F(v[0]); F(v[1]); F(v[2]); }
static void f4(const float* v) { F(v[0]); F(v[1]); F(v[2]); F(v[3]); }
static void gains(const MarionetteDriveGains* g) {
    F(g->motorFrequency); F(g->motorDamping); F(g->maxTorque); F(g->pinFrequency); F(g->pinDamping); F(g->maxForce);
    I(g->kinematic);
}
int main(void) {
    const MarionetteRigData* r = &rich_rig_rig;
    uint32_t i, j;
    int k;
    if (r->particleCount != RICH_RIG_PARTICLE_COUNT || r->bindingCount != RICH_RIG_BINDING_COUNT) return 3;
    if (r->driveProfileCount != RICH_RIG_DRIVE_PROFILE_COUNT) return 4;
    printf("counts"); I(r->particleCount); I(r->stickCount); I(r->angleCount); I(r->triangleCount); I(r->angularCount);
    I(r->pinCount); I(r->shapeCount); I(r->boneCount); I(r->bindingCount); I(r->driveProfileCount);
    I(RICH_RIG_DRIVE_PART_COUNT); printf("\n");
    for (i = 0; i < r->particleCount; ++i) {
        const MarionetteParticle* p = &r->particles[i];
        printf("particle %s", p->name); I(p->id); f3(p->position); F(p->mass); F(p->inverseMass); F(p->radius);
        I(p->group); I(p->mask); I(p->bone); printf("\n");
    }
    for (i = 0; i < r->stickCount; ++i) {
        const MarionetteStick* s = &r->sticks[i];
        printf("stick %s", s->name); I(s->id); I(s->a); I(s->b); I(s->kind); F(s->restLength); F(s->minLength);
        F(s->maxLength); F(s->stiffness); F(s->compliance); F(s->tearRatio); F(s->capsuleRadius); I(s->group); I(s->mask);
        printf("\n");
    }
    for (i = 0; i < r->angleCount; ++i) {
        const MarionetteAngle* a = &r->angles[i];
        printf("angle %s", a->name); I(a->id); I(a->center); I(a->a); I(a->b); F(a->minAngle); F(a->maxAngle);
        F(a->stiffness); I(a->form); printf("\n");
    }
    for (i = 0; i < r->triangleCount; ++i) {
        printf("triangle %s", r->triangles[i].name); I(r->triangles[i].id);
        for (k = 0; k < 3; ++k) I(r->triangles[i].p[k]);
        printf("\n");
    }
    for (i = 0; i < r->angularCount; ++i) {
        const MarionetteAngular* a = &r->angular[i];
        printf("angular %s", a->name); I(a->id); I(a->triangleA); I(a->triangleB); I(a->limit); F(a->coneAngle);
        f3(a->twistAxis); f3(a->swingAxis1); F(a->twistMin); F(a->twistMax); F(a->swing1); F(a->swing2);
        F(a->stiffness); F(a->damping); F(a->staticFrictionSpeed); I(a->hasRestOrientation);
        f4(a->restOrientation); printf("\n");
    }
    for (i = 0; i < r->pinCount; ++i) {
        const MarionettePin* p = &r->pins[i];
        printf("pin %s", p->name); I(p->id); I(p->particle); f3(p->target); F(p->stiffness); I(p->kinematic); printf("\n");
    }
    for (i = 0; i < r->shapeCount; ++i) {
        const MarionetteShape* s = &r->shapes[i];
        printf("shape %s", s->name); I(s->id); I(s->kind); I(s->triangle);
        for (k = 0; k < 4; ++k) I(s->tetra[k]);
        f4(s->localRotation); f3(s->localTranslation); f3(s->halfExtents); I(s->group); I(s->mask); printf("\n");
    }
    for (i = 0; i < r->boneCount; ++i) {
        const MarionetteBone* b = &r->bones[i];
        printf("bone %s", b->name); I(b->id); I(b->parent);
        for (k = 0; k < 16; ++k) F(b->bindLocal[k]);
        for (k = 0; k < 16; ++k) F(b->bindWorld[k]);
        for (k = 0; k < 16; ++k) F(b->inverseBind[k]);
        printf("\n");
    }
    for (i = 0; i < r->bindingCount; ++i) {
        const MarionetteBinding* b = &r->bindings[i];
        printf("binding %s", b->name); I(b->id); I(b->bone); I(b->driver); I(b->index); I(b->hasOffset);
        f4(b->offsetRotation); f3(b->offsetTranslation); printf("\n");
    }
    for (i = 0; i < r->driveProfileCount; ++i) {
        const MarionetteDriveProfile* p = &r->driveProfiles[i];
        printf("profile %s", p->name); I(p->id); gains(&p->defaults); I(p->partCount); I(p->parts == NULL); printf("\n");
        for (j = 0; j < p->partCount; ++j) {
            printf("part"); I(p->parts[j].kind); I(p->parts[j].index); gains(&p->parts[j].gains); printf("\n");
        }
    }
    printf("settings"); f3(r->settings.gravity); F(r->settings.timeStep); I(r->settings.maxSubsteps);
    I(r->settings.substeps); I(r->settings.iterations); F(r->settings.damping); F(r->settings.friction);
    F(r->settings.staticFrictionSpeed);
    F(r->settings.sleepVelocity); F(r->settings.sleepTime); F(r->settings.overRelaxation);
    I(r->settings.sqrtApproximation); I(r->settings.selfCollision); I(r->settings.solver); printf("\n");
    printf("other"); I(other_rig.particleCount); I(OTHER_BONE_COUNT); I(other_rig.driveProfileCount);
    I(other_rig.driveProfiles == NULL); I(OTHER_DRIVE_PROFILE_COUNT); I(OTHER_DRIVE_PART_COUNT); printf("\n");
    printf("name %s\n", r->name);
    return 0;
}
)";

/// The line the program should print for each element, built from the rig with the same format.
class Expected {
public:
    Expected& s(const std::string& v) { mLine += " " + QString::fromStdString(v); return *this; }
    Expected& i(long long v) { mLine += QStringLiteral(" %1").arg(v); return *this; }
    Expected& f(float v) // std::snprintf keeps the sign of -0 as the C program's printf does
    {
        char buf[32];
        std::snprintf(buf, sizeof buf, " %.9g", double(v));
        mLine += QLatin1String(buf);
        return *this;
    }
    Expected& v3(Vec3 v) { return f(v.x).f(v.y).f(v.z); }
    Expected& q(Quat v) { return f(v.x).f(v.y).f(v.z).f(v.w); }
    Expected& m(const Mat4& v) { for (float x : v.m) f(x); return *this; }
    Expected& g(const rig::DriveGains& v)
    {
        return f(v.motorFrequency).f(v.motorDamping).f(v.maxTorque).f(v.pinFrequency).f(v.pinDamping).f(v.maxForce)
            .i(v.kinematic);
    }
    QString take() { QString l = mLine.mid(1); mLine.clear(); return l; }

private:
    QString mLine;
};

/// richRig() and two more drive profiles: one without parts between two with parts (so the second's parts start
/// past the first's), and gains whose six floats all differ (so no two fields can be swapped unseen).
rig::RigDescription richRigWithProfiles()
{
    rig::RigDescription d = test::richRig();
    rig::DriveProfile limp;
    limp.name = "limp";
    limp.id = 701;
    limp.defaults = {1.5f, 2.25f, 3.5f, 4.75f, 5.125f, 6.0625f, true};
    d.driveProfiles.push_back(limp);
    rig::DriveProfile stiff;
    stiff.name = "stiff \"arms\"";
    stiff.id = 702;
    stiff.parts = {{rig::DrivePartKind::Stick, 0, {59.5f, 0.125f, 1e5f, 0.5f, 9.75f, 0.25f, false}}};
    d.driveProfiles.push_back(stiff);
    return d;
}

/// `other` has no drive profiles.
QStringList expectedLines(const rig::RigDescription& d, std::size_t otherParticles, std::size_t otherBones)
{
    Expected e;
    QStringList out;
    qint64 parts = 0;
    for (const rig::DriveProfile& p : d.driveProfiles)
        parts += qint64(p.parts.size());
    out << e.s("counts").i(qint64(d.particles.size())).i(qint64(d.sticks.size())).i(qint64(d.angles.size())).i(qint64(d.triangles.size()))
               .i(qint64(d.angular.size())).i(qint64(d.pins.size())).i(qint64(d.shapes.size())).i(qint64(d.bones.size())).i(qint64(d.bindings.size()))
               .i(qint64(d.driveProfiles.size())).i(parts).take();
    for (const rig::Particle& p : d.particles)
        out << e.s("particle").s(p.name).i(p.id).v3(p.position).f(p.mass).f(p.mass > 0.f ? 1.f / p.mass : 0.f).f(p.radius).i(p.group).i(p.mask).i(p.bone).take();
    for (const rig::Stick& s : d.sticks) {
        const float rest = s.restLength < 0.f ? length(d.particles[std::size_t(s.b)].position - d.particles[std::size_t(s.a)].position) : s.restLength;
        out << e.s("stick").s(s.name).i(s.id).i(s.a).i(s.b).i(int(s.kind)).f(rest).f(s.minLength).f(s.maxLength).f(s.stiffness)
                   .f(s.compliance).f(s.tearRatio).f(s.capsuleRadius).i(s.group).i(s.mask).take();
    }
    for (const rig::AngleConstraint& a : d.angles)
        out << e.s("angle").s(a.name).i(a.id).i(a.center).i(a.a).i(a.b).f(a.minAngle).f(a.maxAngle).f(a.stiffness).i(int(a.form)).take();
    for (const rig::Triangle& t : d.triangles)
        out << e.s("triangle").s(t.name).i(t.id).i(t.p[0]).i(t.p[1]).i(t.p[2]).take();
    for (const rig::AngularConstraint& a : d.angular)
        out << e.s("angular").s(a.name).i(a.id).i(a.triangleA).i(a.triangleB).i(int(a.limit)).f(a.coneAngle).v3(a.twistAxis).v3(a.swingAxis1)
                   .f(a.twistMin).f(a.twistMax).f(a.swing1).f(a.swing2).f(a.stiffness).f(a.damping).f(a.staticFrictionSpeed)
                   .i(a.hasRestOrientation).q(a.restOrientation).take();
    for (const rig::Pin& p : d.pins)
        out << e.s("pin").s(p.name).i(p.id).i(p.particle).v3(p.target).f(p.stiffness).i(p.kinematic).take();
    for (const rig::Shape& s : d.shapes)
        out << e.s("shape").s(s.name).i(s.id).i(int(s.kind)).i(s.triangle).i(s.tetra[0]).i(s.tetra[1]).i(s.tetra[2]).i(s.tetra[3])
                   .q(s.local.rotation).v3(s.local.translation).v3(s.halfExtents).i(s.group).i(s.mask).take();
    for (const rig::Bone& b : d.bones)
        out << e.s("bone").s(b.name).i(b.id).i(b.parent).m(b.bindLocal).m(b.bindWorld).m(b.inverseBind).take();
    for (const rig::BoneBinding& b : d.bindings)
        out << e.s("binding").s(b.name).i(b.id).i(b.bone).i(int(b.driver)).i(b.index).i(b.hasOffset).q(b.offset.rotation).v3(b.offset.translation).take();
    for (const rig::DriveProfile& p : d.driveProfiles) {
        out << e.s("profile").s(p.name).i(p.id).g(p.defaults).i(qint64(p.parts.size())).i(p.parts.empty()).take();
        for (const rig::DrivePart& part : p.parts)
            out << e.s("part").i(int(part.kind)).i(part.index).g(part.gains).take();
    }
    const rig::Settings& s = d.settings;
    out << e.s("settings").v3(s.gravity).f(s.timeStep).i(s.maxSubsteps).i(s.substeps).i(s.iterations).f(s.damping).f(s.friction).f(s.staticFrictionSpeed)
               .f(s.sleepVelocity).f(s.sleepTime).f(s.overRelaxation).i(s.sqrtApproximation).i(s.selfCollision).i(int(s.solver)).take();
    // The rig without profiles: a NULL pointer, count 0, both macros 0.
    out << e.s("other").i(qint64(otherParticles)).i(qint64(otherBones)).i(0).i(1).i(0).i(0).take();
    out << QStringLiteral("name ") + QString::fromStdString(d.name);
    return out;
}

/// Runs `program arguments` in `dir`; "" on success, else what went wrong.
QString runTool(const QString& program, const QStringList& arguments, const QString& dir, QString* output = nullptr)
{
    QProcess p;
    p.setWorkingDirectory(dir);
    p.start(program, arguments);
    if (!p.waitForFinished(120000))
        return program + QStringLiteral(": timed out");
    const QString all = QString::fromUtf8(p.readAllStandardOutput());
    if (output)
        *output = all;
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return QStringLiteral("%1 %2: exit %3\n%4%5").arg(program, arguments.join(QLatin1Char(' '))).arg(p.exitCode()).arg(all,
                                                                                                                   QString::fromUtf8(p.readAllStandardError()));
    return {};
}

} // namespace

class TestCHeaderExporter : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void header_compilesAndCarriesEveryValue_data();
    void header_compilesAndCarriesEveryValue();
    void identifiers_fromTheTargetName();
    void header_refusesAnotherVersionInTheSameUnit_data();
    void header_refusesAnotherVersionInTheSameUnit();
    void driveProfiles_withoutPartsHaveNoPartsArray();

private:
    editor::PluginHost mHost;
    const plugin::RigExporter* mHeader = nullptr;
};

void TestCHeaderExporter::initTestCase()
{
    mHost.loadFolder(test::pluginDir());
    mHeader = mHost.exporter(QStringLiteral("c-header"));
    QVERIFY(mHeader);
    QCOMPARE(mHeader->fileExtension(), QStringLiteral("h"));
}

void TestCHeaderExporter::header_compilesAndCarriesEveryValue_data()
{
    QTest::addColumn<QString>("compiler");
    QTest::addColumn<QStringList>("flags");
    QTest::newRow("C99") << QStringLiteral("cc") << QStringList{QStringLiteral("-std=c99"), QStringLiteral("-x"), QStringLiteral("c")};
    QTest::newRow("C++17") << QStringLiteral("c++") << QStringList{QStringLiteral("-std=c++17"), QStringLiteral("-x"), QStringLiteral("c++")};
}

void TestCHeaderExporter::header_compilesAndCarriesEveryValue()
{
    QFETCH(QString, compiler);
    QFETCH(QStringList, flags);
    const QString cc = QStandardPaths::findExecutable(compiler);
    if (cc.isEmpty())
        QSKIP("no system compiler on the PATH");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const rig::RigDescription rich = richRigWithProfiles(), other = runtime::makeHumanoid();
    QVERIFY(other.driveProfiles.empty());
    QString error;
    QVERIFY2(editor::PluginHost::exportRig(*mHeader, rich, {dir.filePath(QStringLiteral("rich-rig.h")), QStringLiteral("rich.mproj"), QStringLiteral("tst")}, &error),
             qPrintable(error));
    QVERIFY2(editor::PluginHost::exportRig(*mHeader, other, {dir.filePath(QStringLiteral("other.h")), {}, {}}, &error), qPrintable(error));
    QFile program(dir.filePath(QStringLiteral("main.c")));
    QVERIFY(program.open(QIODevice::WriteOnly));
    program.write(kProgram);
    program.close();
    const QStringList args = flags + QStringList{QStringLiteral("-Wall"), QStringLiteral("-Wextra"), QStringLiteral("-pedantic"), QStringLiteral("-Werror"),
                                                 QStringLiteral("main.c"), QStringLiteral("-o"), QStringLiteral("rigtest")};
    error = runTool(cc, args, dir.path());
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QString output;
    error = runTool(dir.filePath(QStringLiteral("rigtest")), {}, dir.path(), &output);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QStringList got = output.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QStringList want = expectedLines(rich, other.particles.size(), other.bones.size());
    QCOMPARE(got.size(), want.size());
    for (qsizetype i = 0; i < want.size(); ++i)
        QCOMPARE(got[i], want[i]);
}

// Identifiers come from the target file's name made a C identifier; an export to memory uses the rig's.
void TestCHeaderExporter::identifiers_fromTheTargetName()
{
    QByteArray bytes;
    QString error;
    QVERIFY(editor::PluginHost::exportRigBytes(*mHeader, runtime::makeHumanoid(), {QStringLiteral("out/3d hero.v2.h"), {}, {}}, bytes, &error));
    QVERIFY(bytes.contains("static const MarionetteParticle rig_3d_hero_v2_particles[20] = {"));
    QVERIFY(bytes.contains("#define RIG_3D_HERO_V2_PARTICLE_COUNT 20u"));
    QVERIFY(bytes.contains("#ifndef RIG_3D_HERO_V2_MARIONETTE_RIG_H"));
    QVERIFY(editor::PluginHost::exportRigBytes(*mHeader, runtime::makeHumanoid(), {}, bytes, &error));
    QVERIFY(bytes.contains("static const MarionetteRigData humanoid_rig = {"));
    QVERIFY(!bytes.contains("humanoid_pins"));
    QVERIFY(bytes.contains("NULL, 0u"));
    // Version 3 of the shared types: version 2's substeps, rates per second and direct solver, and drive profiles.
    QVERIFY(bytes.contains("#define MARIONETTE_RIG_HEADER_VERSION 3\n"));
    QVERIFY(bytes.contains("#elif MARIONETTE_RIG_HEADER_VERSION != 3\n"));
    QVERIFY(bytes.contains("MARIONETTE_SOLVER_DIRECT = 3"));
    QVERIFY(bytes.contains("MARIONETTE_DRIVE_PART_STICK = 1"));
    QVERIFY(!bytes.contains("drag") && !bytes.contains("dynamicFriction") && !bytes.contains("staticFrictionAngle"));
    // The humanoid has no drive profiles: no arrays, macros 0.
    QVERIFY(bytes.contains("#define HUMANOID_DRIVE_PROFILE_COUNT 0u\n#define HUMANOID_DRIVE_PART_COUNT 0u\n"));
    QVERIFY(!bytes.contains("humanoid_driveProfiles") && !bytes.contains("humanoid_driveParts"));
}

void TestCHeaderExporter::header_refusesAnotherVersionInTheSameUnit_data()
{
    header_compilesAndCarriesEveryValue_data();
}

// A unit that already has the shared types of another version (as an older rig header defines them) stops
// at the #error instead of compiling against mismatched structs.
void TestCHeaderExporter::header_refusesAnotherVersionInTheSameUnit()
{
    QFETCH(QString, compiler);
    QFETCH(QStringList, flags);
    const QString cc = QStandardPaths::findExecutable(compiler);
    if (cc.isEmpty())
        QSKIP("no system compiler on the PATH");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString error;
    QVERIFY2(editor::PluginHost::exportRig(*mHeader, test::richRig(),
                                           {dir.filePath(QStringLiteral("rich-rig.h")), {}, {}}, &error),
             qPrintable(error));
    QFile program(dir.filePath(QStringLiteral("main.c")));
    QVERIFY(program.open(QIODevice::WriteOnly));
    program.write("#define MARIONETTE_RIG_HEADER_VERSION 2\n#include \"rich-rig.h\"\nint main(void) { return 0; }\n");
    program.close();
    const QStringList args = flags + QStringList{QStringLiteral("-c"), QStringLiteral("main.c"), QStringLiteral("-o"),
                                                 QStringLiteral("main.o")};
    error = runTool(cc, args, dir.path());
    QVERIFY2(error.contains(QLatin1String("Marionette rig headers of different versions in one translation unit")),
             qPrintable(error));
}

// A profile that gives no part its own gains points nowhere; with no parts in any profile there is no parts array.
void TestCHeaderExporter::driveProfiles_withoutPartsHaveNoPartsArray()
{
    rig::RigDescription d = runtime::makeHumanoid();
    rig::DriveProfile limp;
    limp.name = "limp";
    limp.id = 9;
    d.driveProfiles.push_back(limp);
    QByteArray bytes;
    QString error;
    QVERIFY2(editor::PluginHost::exportRigBytes(*mHeader, d, {QStringLiteral("h.h"), {}, {}}, bytes, &error),
             qPrintable(error));
    QVERIFY(bytes.contains("#define H_DRIVE_PROFILE_COUNT 1u\n#define H_DRIVE_PART_COUNT 0u\n"));
    QVERIFY(bytes.contains("static const MarionetteDriveProfile h_driveProfiles[1] = {"));
    QVERIFY(bytes.contains("{\"limp\", 9u, {0.0f, 1.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0},\n        NULL, 0u},"));
    QVERIFY(!bytes.contains("h_driveParts"));
    QVERIFY(bytes.contains("h_driveProfiles, 1u"));
}

QTEST_GUILESS_MAIN(TestCHeaderExporter)
#include "tst_cheaderexporter.moc"
