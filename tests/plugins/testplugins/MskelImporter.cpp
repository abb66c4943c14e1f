#include "MskelImporter.h"

#include <QFile>
#include <QFileInfo>
#include <QStringList>

#include <cmath>

using namespace marionette;

namespace {

std::int32_t findBone(const import::ImportedScene& scene, const std::string& name)
{
    for (std::size_t i = 0; i < scene.skeleton.size(); ++i)
        if (scene.skeleton[i].name == name)
            return std::int32_t(i);
    return rig::kNone;
}

} // namespace

bool MskelImporter::supportsFile(const QString& path) const
{
    return QFileInfo(path).suffix().compare(QLatin1String("mskel"), Qt::CaseInsensitive) == 0;
}

bool MskelImporter::read(const QString& path, const plugin::ImportSettings& settings, import::ImportedScene& out,
                         QString& error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    const float scale = settings.scale.value_or(1.f);
    std::vector<float> radii;
    int lineNumber = 0;
    while (!file.atEnd()) {
        ++lineNumber;
        const QString line = QString::fromUtf8(file.readLine()).section(QLatin1Char('#'), 0, 0).trimmed();
        if (line.isEmpty())
            continue;
        const QStringList f = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        auto bad = [&](const QString& why) {
            error = QStringLiteral("%1:%2: %3").arg(path).arg(lineNumber).arg(why);
            return false;
        };
        if (f.size() < 6 || f.size() > 7 || f[0] != QLatin1String("bone"))
            return bad(QStringLiteral("expected 'bone NAME PARENT X Y Z [RADIUS]'"));
        rig::Bone b;
        b.name = f[1].toStdString();
        if (f[2] != QLatin1String("-")) {
            b.parent = findBone(out, f[2].toStdString());
            if (b.parent == rig::kNone)
                return bad(QStringLiteral("bone '%1' names an unknown parent '%2'").arg(f[1], f[2]));
        }
        if (findBone(out, b.name) != rig::kNone)
            return bad(QStringLiteral("bone '%1' is defined twice").arg(f[1]));
        float v[4] = {0, 0, 0, 0};
        for (int i = 0; i < f.size() - 3; ++i) {
            bool ok = false;
            v[i] = f[3 + i].toFloat(&ok);
            if (!ok || !std::isfinite(v[i]))
                return bad(QStringLiteral("'%1' is not a number").arg(f[3 + i]));
        }
        b.bindWorld = Mat4::fromRotationTranslation(Mat3{}, Vec3{v[0], v[1], v[2]} * scale);
        invertAffine(b.bindWorld, b.inverseBind);
        if (b.parent == rig::kNone) {
            b.bindLocal = b.bindWorld;
        } else {
            b.bindLocal = out.skeleton[std::size_t(b.parent)].inverseBind * b.bindWorld;
        }
        radii.push_back(v[3] * scale);
        out.skeleton.push_back(b);
        import::ImportedBoneInfo info;
        info.sourceName = b.name;
        info.restLocal = b.bindLocal;
        out.boneInfo.push_back(info);
    }
    // One skinned mesh: a ring of 6 x 8 vertices around every segment with a radius, skinned to its parent.
    import::ImportedMesh mesh;
    mesh.name = "body";
    mesh.nodeName = "body";
    for (std::size_t i = 0; i < out.skeleton.size(); ++i) {
        const std::int32_t p = out.skeleton[i].parent;
        if (p == rig::kNone || !(radii[i] > 0.f))
            continue;
        const Vec3 a = out.skeleton[std::size_t(p)].bindWorld.transformPoint({}), b = out.skeleton[i].bindWorld.transformPoint({});
        const Vec3 d = normalizeOr(b - a, {0, 1, 0}), u = anyPerpendicular(d), w = cross(d, u);
        const std::uint32_t first = std::uint32_t(mesh.positions.size());
        for (int r = 1; r <= 6; ++r)
            for (int k = 0; k < 8; ++k) {
                const float phi = float(k) * kPi / 4.f;
                const Vec3 n = u * std::cos(phi) + w * std::sin(phi);
                mesh.positions.push_back(lerp(a, b, float(r) / 7.f) + n * radii[i]);
                mesh.normals.push_back(normalizeOr(n, u));
                import::VertexInfluences vi;
                vi.bone[0] = p;
                vi.weight[0] = 1.f;
                mesh.influences.push_back(vi);
            }
        for (std::uint32_t r = 0; r < 5; ++r)
            for (std::uint32_t k = 0; k < 8; ++k) {
                const std::uint32_t a0 = first + r * 8 + k, a1 = first + r * 8 + (k + 1) % 8, b0 = a0 + 8, b1 = a1 + 8;
                mesh.indices.insert(mesh.indices.end(), {a0, a1, b1, a0, b1, b0});
            }
        out.boneInfo[std::size_t(p)].skinned = true;
    }
    if (mesh.positions.empty()) {
        error = QStringLiteral("%1: no bone has a radius: nothing to skin").arg(path);
        return false;
    }
    out.meshes.push_back(std::move(mesh));
    out.sourcePath = path.toStdString();
    out.conversion.format = "mskel (test)";
    out.conversion.sourceUnit = "metre";
    out.conversion.scale = scale;
    out.conversion.scaleOverridden = settings.scale.has_value();
    out.conversion.matrix = Mat4::fromRotationTranslation(Mat3::fromColumns({scale, 0, 0}, {0, scale, 0}, {0, 0, scale}), {});
    if (settings.progress)
        settings.progress(1.f, QStringLiteral("done"));
    return true;
}
