// Levels of detail (autorig/Lod.h, preview/LodMeasure.h): the mannequin sample's 20-particle rig reduced to
// 12 and 7 particles binds every bone the full rig binds, keeps its total mass, validates and drops
// believably (finite, at rest within 10 s, sticks within 2 % and limits within 2° once at rest after a 2 m
// drop); its error against the full rig is 0 for the full rig itself and grows as particles go; a generic
// chain keeps every other joint; bad input is refused with one line.
#include "marionette/editor/autorig/AutoRig.h"
#include "marionette/editor/autorig/Lod.h"
#include "marionette/editor/preview/LodMeasure.h"
#include "marionette/project/ProjectFile.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <set>

#include "AutoRigTestSupport.h"
#include "SampleProject.h"

using namespace marionette;
using namespace marionette::editor;

namespace {

double totalMass(const rig::RigDescription& d)
{
    double sum = 0.0;
    for (const rig::Particle& p : d.particles)
        sum += double(p.mass);
    return sum;
}

/// A few ragdolls and steps: the cost is only checked to be measured (speed belongs to benchmarks).
LodMeasureOptions quickBench()
{
    LodMeasureOptions o;
    o.benchRagdolls = 4;
    o.benchFrames = 10;
    return o;
}

} // namespace

class TestLod : public QObject {
    Q_OBJECT

private slots:
    void level_bindsEveryBoneKeepsMassAndValidates_data()
    {
        QTest::addColumn<int>("target");
        QTest::newRow("12") << 12;
        QTest::newRow("7") << 7;
    }
    void level_bindsEveryBoneKeepsMassAndValidates()
    {
        QFETCH(int, target);
        const project::Project p = test::mannequinProject();
        QCOMPARE(int(p.rig.particles.size()), 20);
        const LodResult r = generateLod(p.rig, target);
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(int(r.rig.particles.size()), target);
        QCOMPARE(int(r.keptParticles.size()), target);
        QCOMPARE(boundBones(r.rig), boundBones(p.rig));
        QCOMPARE(r.rig.bindings.size(), p.rig.bindings.size());
        // The removed particles' mass went to the kept ones: the total is the full rig's (to float rounding).
        QVERIFY(std::abs(totalMass(r.rig) - totalMass(p.rig)) <= 1e-5 * totalMass(p.rig));
        for (const rig::Finding& f : r.rig.findings())
            QVERIFY2(f.severity != rig::Severity::Error, f.message.c_str());
        QVERIFY(r.rig.validate().empty());
        // Every particle of the full rig is the level's particle it was merged into.
        std::set<std::int32_t> targets(r.particleMap.begin(), r.particleMap.end());
        QCOMPARE(int(targets.size()), target);
        // The level is symmetric: it keeps the left joint exactly when it keeps the right one.
        std::set<std::string> kept;
        for (const rig::Particle& q : r.rig.particles)
            kept.insert(q.name);
        for (const std::string& name : kept)
            if (name.size() > 2 && name.ends_with("_l"))
                QVERIFY2(kept.count(name.substr(0, name.size() - 2) + "_r") == 1, name.c_str());
        // Every drive profile comes along; a part stays exactly when the level kept its triangle (by name, which
        // the level keeps), with the same gains.
        QCOMPARE(r.rig.driveProfiles.size(), p.rig.driveProfiles.size());
        QVERIFY(!p.rig.driveProfiles.empty());
        for (std::size_t k = 0; k < p.rig.driveProfiles.size(); ++k) {
            const rig::DriveProfile &full = p.rig.driveProfiles[k], &level = r.rig.driveProfiles[k];
            QCOMPARE(level.name, full.name);
            QVERIFY(level.defaults == full.defaults);
            std::size_t expected = 0;
            for (const rig::DrivePart& part : full.parts) {
                QCOMPARE(part.kind, rig::DrivePartKind::Triangle); // the sample's profiles list triangles
                const std::string& name = p.rig.triangles[std::size_t(part.index)].name;
                auto it = std::find_if(r.rig.triangles.begin(), r.rig.triangles.end(),
                                       [&](const rig::Triangle& t) { return t.name == name; });
                if (it == r.rig.triangles.end())
                    continue;
                ++expected;
                QVERIFY2(level.gainsOf(rig::DrivePartKind::Triangle, std::int32_t(it - r.rig.triangles.begin())) == part.gains,
                         name.c_str());
            }
            QCOMPARE(level.parts.size(), expected);
        }
        QStringList names;
        for (const std::string& name : kept)
            names << QString::fromStdString(name);
        qInfo("%d particles: %s; %zu sticks, %zu triangles, %zu angular, %zu angle limits", target,
              qPrintable(names.join(u' ')), r.rig.sticks.size(), r.rig.triangles.size(), r.rig.angular.size(),
              r.rig.angles.size());
    }

    void level_dropsBelievably_data() { level_bindsEveryBoneKeepsMassAndValidates_data(); }
    void level_dropsBelievably()
    {
        QFETCH(int, target);
        const project::Project p = test::mannequinProject();
        const LodResult r = generateLod(p.rig, target);
        QVERIFY2(r.ok, r.error.c_str());
        const DropFigures d = dropFigures(r.rig, 2.f, 10.f);
        QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
        qInfo("%d particles, 2 m drop: finite %d, at rest from %.2f s, sticks %.3f %% at rest (%.2f %% worst), "
              "limits %.2f deg at rest (%.2f deg worst)",
              target, int(d.finite), double(d.settledAt), double(d.maxStickError) * 100.0,
              double(d.worstStickError) * 100.0, double(d.maxLimitDegrees), double(d.worstLimitDegrees));
        QVERIFY(d.finite);
        QVERIFY(d.settledAt >= 0.f && d.settledAt <= 10.f);
        QVERIFY(d.maxStickError <= 0.02f);
        QVERIFY(d.maxLimitDegrees <= 2.f);
    }

    void error_isZeroForTheFullRigAndGrowsAsParticlesGo()
    {
        const project::Project p = test::mannequinProject();
        const LodMeasureResult self = measureLod(p, p.rig, quickBench());
        QVERIFY2(self.ok(), qPrintable(self.error));
        QCOMPARE(self.measurement.errorMeanCm, 0.f);
        QCOMPARE(self.measurement.errorMaxCm, 0.f);
        // The mannequin's scenarios that start from a drop (four) are compared; its driven ones need the mesh.
        const auto drops = std::count_if(p.scenarios.begin(), p.scenarios.end(),
                                         [](const project::Scenario& s) { return !s.driven && !s.animationStart; });
        QCOMPARE(int(drops), 4);
        QCOMPARE(int(self.measurement.runs), int(drops));
        float previous = 0.f;
        for (const int target : {12, 7}) {
            const LodResult r = generateLod(p.rig, target);
            QVERIFY2(r.ok, r.error.c_str());
            const LodMeasureResult m = measureLod(p, r.rig, quickBench());
            QVERIFY2(m.ok(), qPrintable(m.error));
            const project::LodMeasurement& f = m.measurement;
            qInfo("%d particles: bone error mean %.2f cm, max %.2f cm over %u frames of %u runs; %.2f us/ragdoll-step "
                  "(%u ragdolls, %u steps)",
                  target, double(f.errorMeanCm), double(f.errorMaxCm), f.frames, f.runs, double(f.usPerRagdollStep),
                  f.benchRagdolls, f.benchFrames);
            QVERIFY(std::isfinite(f.errorMeanCm) && std::isfinite(f.errorMaxCm));
            QVERIFY(f.errorMeanCm > previous);
            QVERIFY(f.errorMaxCm >= f.errorMeanCm);
            QVERIFY(f.usPerRagdollStep > 0.f && std::isfinite(f.usPerRagdollStep));
            QCOMPARE(f.benchRagdolls, 4u);
            QCOMPARE(f.benchFrames, 10u);
            previous = f.errorMeanCm;
        }
    }

    void error_withoutScenariosUsesFourPlainDrops()
    {
        project::Project p = test::mannequinProject();
        p.scenarios.clear();
        const LodResult r = generateLod(p.rig, 12);
        QVERIFY2(r.ok, r.error.c_str());
        const LodMeasureResult m = measureLod(p, r.rig, quickBench());
        QVERIFY2(m.ok(), qPrintable(m.error));
        QCOMPARE(m.measurement.runs, 4u);
        QCOMPARE(m.measurement.frames, 4u * 301u); // 5 s at 60 steps a second, and the start
        QVERIFY(m.measurement.errorMeanCm > 0.f);
    }

    void genericChain_keepsEveryOtherJoint()
    {
        const AutoRigResult full = autoRig([] {
            AutoRigInput in = test::makeTail(8);
            in.requested = RigTemplate::Generic;
            return in;
        }());
        QVERIFY2(full.ok, full.error.c_str());
        const int n = int(full.rig.particles.size());
        const int target = n - 3;
        const LodResult r = generateLod(full.rig, target);
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(int(r.rig.particles.size()), target);
        QCOMPARE(boundBones(r.rig), boundBones(full.rig));
        QVERIFY(std::abs(totalMass(r.rig) - totalMass(full.rig)) <= 1e-5 * totalMass(full.rig));
        QVERIFY2(r.rig.validate().empty(), r.rig.validate().c_str());
        // No two removed particles were neighbours along the chain: each removed joint's keeper is kept.
        for (std::size_t i = 0; i < full.rig.particles.size(); ++i) {
            const std::int32_t keeper = r.keptParticles[std::size_t(r.particleMap[i])];
            if (keeper == std::int32_t(i))
                continue;
            bool neighbours = false;
            for (const rig::Stick& s : full.rig.sticks)
                neighbours |= s.kind == rig::StickKind::Rigid &&
                              ((s.a == keeper && s.b == std::int32_t(i)) || (s.b == keeper && s.a == std::int32_t(i)));
            QVERIFY2(neighbours, full.rig.particles[i].name.c_str());
        }
        const DropFigures d = dropFigures(r.rig, 2.f, 10.f);
        qInfo("chain %d -> %d particles: finite %d, at rest from %.2f s, sticks %.3f %%, limits %.2f deg", n, target,
              int(d.finite), double(d.settledAt), double(d.maxStickError) * 100.0, double(d.maxLimitDegrees));
        QVERIFY(d.finite);
        QVERIFY(d.settledAt >= 0.f && d.settledAt <= 10.f);
        QVERIFY(d.maxStickError <= 0.02f);
        QVERIFY(d.maxLimitDegrees <= 2.f);
    }

    void badInput_isRefusedWithOneLine_data()
    {
        QTest::addColumn<int>("target");
        QTest::addColumn<bool>("unbound");
        QTest::addColumn<QString>("expected");
        QTest::newRow("two particles") << 2 << false << "3 or more particles and fewer than the full rig's 20, not 2";
        QTest::newRow("the full count") << 20 << false << "fewer than the full rig's 20, not 20";
        QTest::newRow("more than the full count") << 25 << false << "not 25";
        QTest::newRow("no bindings") << 12 << true << "binds no bone";
    }
    void badInput_isRefusedWithOneLine()
    {
        QFETCH(int, target);
        QFETCH(bool, unbound);
        QFETCH(QString, expected);
        project::Project p = test::mannequinProject();
        if (unbound)
            p.rig.bindings.clear();
        const LodResult r = generateLod(p.rig, target);
        QVERIFY(!r.ok);
        QVERIFY2(QString::fromStdString(r.error).contains(expected), r.error.c_str());
        QVERIFY(!QString::fromStdString(r.error).contains(u'\n'));
        QVERIFY(r.rig.particles.empty());
    }
};

QTEST_GUILESS_MAIN(TestLod)
#include "tst_lod.moc"
