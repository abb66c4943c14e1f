// `marionette lod PROJECT.mproj --levels 12,7 -o OUT.mproj`: levels of detail generated, measured and stored.
#include "Cli.h"
#include "RigFiles.h"

#include "marionette/editor/autorig/Lod.h"
#include "marionette/editor/preview/Bench.h"
#include "marionette/editor/preview/LodMeasure.h"
#include "marionette/project/ProjectFile.h"
#include "marionette/runtime/Rig.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <string>
#include <vector>

namespace marionette::cli {

namespace {

const char* kLodHelp =
    "Usage: marionette lod PROJECT.mproj --levels N[,N...] -o OUT.mproj [options]\n\n"
    "Generates levels of detail of a project's rig: for each N, a coarser rig of N particles made by merging\n"
    "particles along chains (docs/autorig.md, \"Levels of detail\"), binding every bone the full rig binds.\n"
    "Each level is measured: the bone positions' distance from the full rig's over the project's scenarios\n"
    "(those that start from a drop; four plain 2 m drops when there are none), mean and max in cm, and the\n"
    "cost of a step as 'marionette bench' measures it (piles, one thread), in us per ragdoll-step; and dropped\n"
    "2 m onto the floor for 10 s (finite, time to rest, stick and limit errors over the last second). The\n"
    "levels replace the project's levels and the project is saved to OUT (atomically; OUT may be PROJECT).\n"
    "'marionette export' writes each level beside the rig as NAME.lodK.mrig.\n\n"
    "Options:\n"
    "  --levels LIST        particle counts, e.g. 12,7: each at least 3 and below the rig's count (required)\n"
    "  -o, --output FILE    the project to write (required)\n"
    "  --bench-ragdolls N   ragdolls the cost is timed on (default 160)\n"
    "  --bench-frames N     steps timed (default 500)\n"
    "  --json               print the table as a JSON array\n"
    "  -h, --help           show this help\n\n"
    "Exit codes: 0 written; 1 bad project, a level that cannot be made, or a failed save, with\n"
    "'error: FILE: where: what' on stderr; 2 usage error.\n";

QString cm(double v) { return QString::number(v, 'f', 2) + QStringLiteral(" cm"); }

} // namespace

int lodCommand(const QStringList& arguments, Io& io)
{
    QCommandLineParser parser;
    const QCommandLineOption levels(QStringLiteral("levels"), {}, QStringLiteral("LIST"));
    const QCommandLineOption output({QStringLiteral("o"), QStringLiteral("output")}, {}, QStringLiteral("FILE"));
    const QCommandLineOption benchRagdolls(QStringLiteral("bench-ragdolls"), {}, QStringLiteral("N"));
    const QCommandLineOption benchFrames(QStringLiteral("bench-frames"), {}, QStringLiteral("N"));
    const QCommandLineOption json(QStringLiteral("json"), {});
    parser.addOptions({levels, output, benchRagdolls, benchFrames, json});
    if (const int code = parseCommand(arguments, parser, io, kLodHelp, "PROJECT.mproj"); code >= 0)
        return code;
    const QString command = arguments[0];
    if (!parser.isSet(levels))
        return usageError(io, command, QStringLiteral("missing --levels N[,N...]"));
    if (!parser.isSet(output) || parser.value(output).isEmpty())
        return usageError(io, command, QStringLiteral("missing -o OUT.mproj"));
    editor::LodMeasureOptions measure;
    for (const auto& [option, out] : {std::pair{&benchRagdolls, &measure.benchRagdolls}, std::pair{&benchFrames, &measure.benchFrames}}) {
        if (!parser.isSet(*option))
            continue;
        bool ok = false;
        const long v = parser.value(*option).toLong(&ok);
        if (!ok || v < 1 || v > 1000000)
            return usageError(io, command, QStringLiteral("--%1 must be an integer in [1, 1000000], not '%2'")
                                               .arg(option->names().constFirst(), parser.value(*option)));
        *out = v;
    }
    std::vector<int> counts;
    for (const QString& item : parser.value(levels).split(u',')) {
        bool ok = false;
        const int n = item.trimmed().toInt(&ok);
        if (!ok)
            return usageError(io, command, QStringLiteral("--levels: '%1' is not a particle count").arg(item));
        counts.push_back(n);
    }
    std::sort(counts.begin(), counts.end(), std::greater<>());
    counts.erase(std::unique(counts.begin(), counts.end()), counts.end());

    const QString path = parser.positionalArguments().first();
    project::Project proj;
    editor::RigVerdict verdict;
    if (const QString error = loadJudgedProject(path, proj, verdict); !error.isEmpty())
        return fail(io, error);

    std::string why;
    const auto fullRig = runtime::Rig::build(proj.rig, &why);
    if (!fullRig)
        return fail(io, QStringLiteral("%1: rig: %2").arg(path, QString::fromStdString(why)));
    editor::BenchOptions bench;
    bench.ragdolls = measure.benchRagdolls;
    bench.frames = measure.benchFrames;
    const editor::BenchResult fullCost = editor::benchRig(fullRig, bench);
    if (!fullCost.ok())
        return fail(io, QStringLiteral("%1: rig: %2").arg(path, fullCost.error));

    const std::size_t bound = editor::boundBones(proj.rig).size();
    std::vector<project::LodLevel> made;
    std::vector<editor::DropFigures> drops;
    for (std::size_t k = 0; k < counts.size(); ++k) {
        const editor::LodResult r = editor::generateLod(proj.rig, counts[k]);
        if (!r.ok)
            return fail(io, QStringLiteral("%1: --levels %2: %3").arg(path).arg(counts[k]).arg(QString::fromStdString(r.error)));
        project::LodLevel level;
        level.targetParticles = std::uint32_t(counts[k]);
        level.rig = r.rig;
        project::assignMissingIds(level.rig);
        const editor::LodMeasureResult m = editor::measureLod(proj, level.rig, measure);
        if (!m.ok())
            return fail(io, QStringLiteral("%1: --levels %2: %3").arg(path).arg(counts[k]).arg(m.error));
        level.measurement = m.measurement;
        drops.push_back(editor::dropFigures(level.rig));
        made.push_back(std::move(level));
    }
    proj.lods = made;
    const QString target = parser.value(output);
    if (const project::SaveResult saved = project::saveProject(target, proj); !saved.ok())
        return fail(io, saved.error);

    if (parser.isSet(json)) {
        QJsonArray rows;
        rows.append(QJsonObject{{QStringLiteral("level"), 0},
                                {QStringLiteral("particles"), qint64(proj.rig.particles.size())},
                                {QStringLiteral("boundBones"), qint64(bound)},
                                {QStringLiteral("errorMeanCm"), 0.0},
                                {QStringLiteral("errorMaxCm"), 0.0},
                                {QStringLiteral("usPerRagdollStep"), fullCost.usPerRagdollStep}});
        for (std::size_t k = 0; k < made.size(); ++k) {
            const project::LodMeasurement& m = *made[k].measurement;
            const editor::DropFigures& d = drops[k];
            rows.append(QJsonObject{{QStringLiteral("level"), qint64(k + 1)},
                                    {QStringLiteral("particles"), qint64(made[k].rig.particles.size())},
                                    {QStringLiteral("boundBones"), qint64(editor::boundBones(made[k].rig).size())},
                                    {QStringLiteral("errorMeanCm"), double(m.errorMeanCm)},
                                    {QStringLiteral("errorMaxCm"), double(m.errorMaxCm)},
                                    {QStringLiteral("usPerRagdollStep"), double(m.usPerRagdollStep)},
                                    {QStringLiteral("dropFinite"), d.finite},
                                    {QStringLiteral("dropSettledAt"), double(d.settledAt)},
                                    {QStringLiteral("dropStickError"), double(d.maxStickError)},
                                    {QStringLiteral("dropLimitDegrees"), double(d.maxLimitDegrees)}});
        }
        io.out << QJsonDocument(rows).toJson(QJsonDocument::Compact) << '\n';
        return kOk;
    }
    io.out << "wrote " << target << ": " << made.size() << (made.size() == 1 ? " level" : " levels") << " of "
           << path << " (error over " << made.front().measurement->runs << " runs; cost over "
           << measure.benchRagdolls << " ragdolls x " << measure.benchFrames << " steps)\n";
    io.out << "  level  particles  bound bones  error mean   error max    us/ragdoll-step  2 m drop (rest, sticks, limits)\n";
    const auto line = [&](const QString& name, std::size_t particles, std::size_t bones, double mean, double max,
                          double cost, const QString& drop) {
        io.out << "  " << name.leftJustified(7) << QString::number(particles).rightJustified(9) << "  "
               << QStringLiteral("%1/%2").arg(bones).arg(bound).rightJustified(11) << "  " << cm(mean).rightJustified(10)
               << "  " << cm(max).rightJustified(10) << "  " << QString::number(cost, 'f', 2).rightJustified(15)
               << (drop.isEmpty() ? QString() : QStringLiteral("  ") + drop) << '\n';
    };
    line(QStringLiteral("full"), proj.rig.particles.size(), bound, 0.0, 0.0, fullCost.usPerRagdollStep, QString());
    for (std::size_t k = 0; k < made.size(); ++k) {
        const project::LodMeasurement& m = *made[k].measurement;
        const editor::DropFigures& d = drops[k];
        const QString drop = !d.finite ? QStringLiteral("NOT FINITE")
                                       : QStringLiteral("%1, %2 %, %3 deg")
                                             .arg(d.settledAt >= 0.f ? QStringLiteral("%1 s").arg(double(d.settledAt), 0, 'f', 2)
                                                                     : QStringLiteral("still moving"))
                                             .arg(double(d.maxStickError) * 100.0, 0, 'f', 3)
                                             .arg(double(d.maxLimitDegrees), 0, 'f', 2);
        line(QStringLiteral("lod%1").arg(k + 1), made[k].rig.particles.size(), editor::boundBones(made[k].rig).size(),
             double(m.errorMeanCm), double(m.errorMaxCm), double(m.usPerRagdollStep), drop);
    }
    return kOk;
}

} // namespace marionette::cli
