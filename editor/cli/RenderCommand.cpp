// `marionette render RIG|PROJECT -o POSE.png`: a picture of a rig (and, for a project, its skinned mesh) at
// a frame of a drop, drawn in software: no display or GPU needed, for thumbnails and review in pipelines.
#include "Cli.h"
#include "RigFiles.h"

#include "marionette/editor/pluginhost/MeshImport.h"
#include "marionette/editor/preview/TestScenes.h"
#include "marionette/project/ProjectFile.h"
#include "marionette/runtime/Ragdoll.h"
#include "marionette/runtime/Rig.h"
#include "marionette/runtime/World.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace marionette::cli {

namespace {

const char* kRenderHelp =
    "Usage: marionette render RIG.mrig|PROJECT.mproj -o POSE.png [--frame N] [--drop H] [--size PIXELS]\n\n"
    "Draws the rig (particles, sticks, triangles) and, for a project whose source mesh is found, the skinned\n"
    "mesh, at frame N of a drop from H metres onto a floor, seen from the front (+Z) with an orthographic\n"
    "camera framing the body. Software drawing: no display or GPU is needed.\n\n"
    "Options:\n"
    "  -o, --output POSE.png  the picture to write (required)\n"
    "  --frame N              steps to simulate before drawing (default 0: the bind pose)\n"
    "  --drop H               height of the bind pose's lowest point above the floor, metres (default 0)\n"
    "  --size PIXELS          width and height of the picture (default 512)\n"
    "  -h, --help             show this help\n\n"
    "Exit codes: 0 written; 1 bad rig, project or mesh, or the picture cannot be written; 2 usage error.\n";

struct Mesh {
    import::ImportedMesh mesh; ///< bind pose, model space
    QColor colour;
};

/// The project's source mesh, imported with the conversion the project recorded; empty when not found.
std::vector<Mesh> projectMesh(const QString& projectPath, Io& io)
{
    project::Project proj;
    if (!project::loadProject(projectPath, proj).ok() || proj.sourceMesh.path.isEmpty())
        return {};
    editor::MeshImportRequest request;
    QString why;
    if (!editor::projectMeshRequest(proj, projectPath, request, nullptr, &why)) {
        io.err << "warning: " << projectPath << ": " << why << "; drawing the rig only\n";
        return {};
    }
    request.animations = false;
    const editor::MeshImportResult r = editor::importMesh(pluginHost(), request);
    if (!r.ok()) {
        io.err << "warning: " << r.error << "; drawing the rig only\n";
        return {};
    }
    std::vector<Mesh> meshes;
    for (const import::ImportedMesh& m : r.scene.meshes) {
        Mesh out{m, QColor(224, 172, 140)};
        if (m.material >= 0 && std::size_t(m.material) < r.scene.materials.size()) {
            const auto& c = r.scene.materials[std::size_t(m.material)].baseColor;
            out.colour = QColor::fromRgbF(std::clamp(c[0], 0.f, 1.f), std::clamp(c[1], 0.f, 1.f), std::clamp(c[2], 0.f, 1.f));
        }
        meshes.push_back(std::move(out));
    }
    return meshes;
}

} // namespace

int renderCommand(const QStringList& arguments, Io& io)
{
    QCommandLineParser parser;
    const QCommandLineOption output({QStringLiteral("o"), QStringLiteral("output")}, {}, QStringLiteral("POSE.png"));
    const QCommandLineOption frameOption(QStringLiteral("frame"), {}, QStringLiteral("N"));
    const QCommandLineOption dropOption(QStringLiteral("drop"), {}, QStringLiteral("H"));
    const QCommandLineOption sizeOption(QStringLiteral("size"), {}, QStringLiteral("PIXELS"));
    parser.addOptions({output, frameOption, dropOption, sizeOption});
    if (const int code = parseCommand(arguments, parser, io, kRenderHelp, "RIG"); code >= 0)
        return code;
    const QString command = arguments[0];
    if (!parser.isSet(output) || parser.value(output).isEmpty())
        return usageError(io, command, QStringLiteral("missing -o POSE.png"));
    bool ok = true;
    const long frames = parser.isSet(frameOption) ? parser.value(frameOption).toLong(&ok) : 0;
    if (!ok || frames < 0 || frames > 1000000)
        return usageError(io, command, QStringLiteral("--frame must be an integer in [0, 1000000], not '%1'").arg(parser.value(frameOption)));
    const double drop = parser.isSet(dropOption) ? parser.value(dropOption).toDouble(&ok) : 0.0;
    if (!ok || !std::isfinite(drop) || drop < 0.0 || drop > 1000.0)
        return usageError(io, command, QStringLiteral("--drop must be a number in [0, 1000], not '%1'").arg(parser.value(dropOption)));
    const long size = parser.isSet(sizeOption) ? parser.value(sizeOption).toLong(&ok) : 512;
    if (!ok || size < 16 || size > 8192)
        return usageError(io, command, QStringLiteral("--size must be an integer in [16, 8192], not '%1'").arg(parser.value(sizeOption)));

    const QString path = parser.positionalArguments().first();
    RigFile file;
    if (const QString error = loadRigFile(path, file); !error.isEmpty())
        return fail(io, error);
    std::string error;
    const auto rig = runtime::Rig::build(file.rig, &error);
    if (!rig)
        return fail(io, QStringLiteral("%1: the runtime cannot build the rig: %2").arg(path, QString::fromStdString(error)));
    const std::vector<Mesh> meshes = file.kind == RigFile::Kind::Project ? projectMesh(path, io) : std::vector<Mesh>{};

    // Simulate.
    runtime::WorldSettings ws;
    ws.timeStep = rig->settings().timeStep;
    ws.sleep = false;
    runtime::World world(ws);
    world.addPlane({0.f, 1.f, 0.f}, 0.f);
    const float bottom = editor::bindBottom(*rig);
    runtime::Ragdoll* body = world.ragdoll(world.spawn(rig, Transform{Quat{}, {0.f, float(drop) - bottom, 0.f}}, {}, &error));
    if (!body)
        return fail(io, QStringLiteral("%1: cannot spawn: %2").arg(path, QString::fromStdString(error)));
    for (long f = 0; f < frames; ++f)
        world.step();
    const auto x = body->positions();
    std::vector<Mat4> skin(rig->bones().size());
    body->skinningMatrices(skin);

    // Skinned mesh in world space (the palette includes the spawn placement).
    std::vector<std::vector<Vec3>> skinned(meshes.size());
    for (std::size_t m = 0; m < meshes.size(); ++m) {
        const import::ImportedMesh& mesh = meshes[m].mesh;
        skinned[m].resize(mesh.positions.size());
        for (std::size_t v = 0; v < mesh.positions.size(); ++v)
            if (!import::skinnedPosition(mesh, v, skin, skinned[m][v]))
                skinned[m][v] += Vec3{0.f, float(drop) - bottom, 0.f}; // unbound: placed as the body was spawned
    }

    // Orthographic front view framing the body (and the floor line).
    Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
    const auto radii = rig->radii();
    for (std::size_t i = 0; i < x.size(); ++i) {
        lo = vmin(lo, x[i] - Vec3{radii[i], radii[i], radii[i]});
        hi = vmax(hi, x[i] + Vec3{radii[i], radii[i], radii[i]});
    }
    for (const auto& vs : skinned)
        for (const Vec3& p : vs) {
            lo = vmin(lo, p);
            hi = vmax(hi, p);
        }
    lo.y = std::min(lo.y, 0.f);
    const float extent = std::max({hi.x - lo.x, hi.y - lo.y, 1e-3f}) * 1.15f;
    const float cx = 0.5f * (lo.x + hi.x), cy = 0.5f * (lo.y + hi.y);
    const float pixels = float(size) / extent;
    auto toScreen = [&](Vec3 p) {
        return QPointF(double((p.x - cx) * pixels) + 0.5 * double(size), 0.5 * double(size) - double((p.y - cy) * pixels));
    };

    QImage image(static_cast<int>(size), static_cast<int>(size), QImage::Format_RGB32);
    image.fill(QColor(236, 238, 242));
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    // Floor.
    const double floorY = toScreen({0.f, 0.f, 0.f}).y();
    painter.fillRect(QRectF(0.0, floorY, double(size), double(size) - floorY), QColor(196, 200, 208));
    painter.setPen(QPen(QColor(120, 124, 132), 1.0));
    painter.drawLine(QPointF(0.0, floorY), QPointF(double(size), floorY));

    // Mesh triangles, far to near, flat shaded.
    struct Face {
        float depth;
        QPolygonF polygon;
        QColor colour;
    };
    std::vector<Face> faces;
    const Vec3 light = normalizeOr(Vec3{0.3f, 0.6f, 1.f}, {0.f, 0.f, 1.f});
    for (std::size_t m = 0; m < meshes.size(); ++m) {
        const auto& idx = meshes[m].mesh.indices;
        for (std::size_t t = 0; t + 2 < idx.size(); t += 3) {
            const Vec3 a = skinned[m][idx[t]], b = skinned[m][idx[t + 1]], c = skinned[m][idx[t + 2]];
            const Vec3 n = normalizeOr(cross(b - a, c - a), {0.f, 0.f, 1.f});
            const float shade = 0.35f + 0.65f * std::fabs(dot(n, light));
            const QColor base = meshes[m].colour;
            faces.push_back({(a.z + b.z + c.z) / 3.f, QPolygonF({toScreen(a), toScreen(b), toScreen(c)}),
                             QColor::fromRgbF(base.redF() * shade, base.greenF() * shade, base.blueF() * shade)});
        }
    }
    std::sort(faces.begin(), faces.end(), [](const Face& p, const Face& q) { return p.depth < q.depth; });
    painter.setRenderHint(QPainter::Antialiasing, false); // no seams between triangles
    for (const Face& f : faces) {
        painter.setPen(QPen(f.colour, 0.0));
        painter.setBrush(f.colour);
        painter.drawPolygon(f.polygon);
    }
    painter.setRenderHint(QPainter::Antialiasing);

    // The rig on top: triangles translucent, sticks as lines, particles as circles at their radius.
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor(60, 140, 220, meshes.empty() ? 90 : 60));
    for (const runtime::TriangleData& t : rig->triangles())
        painter.drawPolygon(QPolygonF({toScreen(x[t.p[0]]), toScreen(x[t.p[1]]), toScreen(x[t.p[2]])}));
    for (std::uint32_t k = 0; k < rig->sticks().size(); ++k) {
        const runtime::StickData& s = rig->sticks()[k];
        if (body->stickTorn(k))
            continue;
        const bool rigid = s.minLength == s.maxLength;
        painter.setPen(QPen(rigid ? QColor(30, 40, 60) : QColor(230, 120, 30), rigid ? 2.0 : 1.0,
                            rigid ? Qt::SolidLine : Qt::DashLine));
        painter.drawLine(toScreen(x[s.a]), toScreen(x[s.b]));
    }
    // Over a mesh the particles are outlines, so the mesh stays visible.
    painter.setPen(QPen(meshes.empty() ? QColor(20, 30, 50) : QColor(250, 200, 40), meshes.empty() ? 1.0 : 1.5));
    painter.setBrush(meshes.empty() ? QBrush(QColor(250, 210, 60)) : QBrush(Qt::NoBrush));
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double r = std::max(2.0, double(radii[i] * pixels));
        painter.drawEllipse(toScreen(x[i]), r, r);
    }
    painter.end();

    const QString target = parser.value(output);
    if (!image.save(target, "PNG"))
        return fail(io, QStringLiteral("%1: cannot write the picture").arg(target));
    io.out << "wrote " << target << " (" << size << "x" << size << "): " << path << " at frame " << frames
           << (meshes.empty() ? ", rig only" : ", skinned mesh and rig") << '\n';
    return kOk;
}

} // namespace marionette::cli
