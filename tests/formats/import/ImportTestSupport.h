// Helpers shared by the formats/import tests: where the models are, and a reference evaluation of poses and
// linear blend skinning written independently of the importer (so the tests check the importer against it).
#pragma once

#include "marionette/import/Import.h"

#include <QFileInfo>
#include <QString>
#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <vector>

/// Skips the test (does not fail it) when an Assimp test model is not installed (package assimp-testmodels).
#define MARIONETTE_REQUIRE_FILE(path)                                                                              \
    do {                                                                                                           \
        if (!QFileInfo::exists(path))                                                                              \
            QSKIP(qPrintable(QStringLiteral("test model not installed: ") + (path)));                               \
    } while (false)

namespace marionette::test {

using namespace marionette::import;

inline QString assimpModel(const char* relative)
{
    return QStringLiteral(MARIONETTE_ASSIMP_MODELS) + QLatin1Char('/') + QString::fromUtf8(relative);
}

inline QString importData(const char* name)
{
    return QStringLiteral(MARIONETTE_IMPORT_TEST_DATA) + QLatin1Char('/') + QString::fromUtf8(name);
}

inline ImportResult importFile(const QString& path, const ImportOptions& options = {})
{
    return importScene(path.toStdString(), options);
}

/// Diagonal of the scene's bounding box (at least 1e-6).
inline float sceneSize(const ImportedScene& s)
{
    const auto b = s.bounds();
    return std::max(1e-6f, length(b[1] - b[0]));
}

inline Mat4 trs(Vec3 t, Quat r, Vec3 s)
{
    Mat4 m = Mat4::fromTransform(Transform{normalize(r), t});
    for (int row = 0; row < 3; ++row) {
        m.at(row, 0) *= s.x;
        m.at(row, 1) *= s.y;
        m.at(row, 2) *= s.z;
    }
    return m;
}

/// Linear interpolation between keys, clamped at both ends.
inline Vec3 sampleVector(const std::vector<VectorKey>& keys, float t)
{
    if (t <= keys.front().time)
        return keys.front().value;
    for (size_t k = 1; k < keys.size(); ++k)
        if (t <= keys[k].time) {
            const float span = keys[k].time - keys[k - 1].time;
            return lerp(keys[k - 1].value, keys[k].value, span > 0.f ? (t - keys[k - 1].time) / span : 1.f);
        }
    return keys.back().value;
}

inline Quat sampleRotation(const std::vector<RotationKey>& keys, float t)
{
    if (t <= keys.front().time)
        return keys.front().value;
    for (size_t k = 1; k < keys.size(); ++k)
        if (t <= keys[k].time) {
            const float span = keys[k].time - keys[k - 1].time;
            return nlerp(keys[k - 1].value, keys[k].value, span > 0.f ? (t - keys[k - 1].time) / span : 1.f);
        }
    return keys.back().value;
}

/// Model-space bone matrices: the bind pose when clip is null; else the clip at time t (bones without a
/// channel keep their rest transform, as Import.h documents).
inline std::vector<Mat4> boneWorlds(const ImportedScene& s, const AnimationClip* clip = nullptr, float t = 0.f)
{
    std::vector<Mat4> local(s.skeleton.size());
    for (size_t b = 0; b < s.skeleton.size(); ++b)
        local[b] = clip ? s.boneInfo[b].restLocal : s.skeleton[b].bindLocal;
    if (clip)
        for (const BoneChannel& ch : clip->channels)
            local[size_t(ch.bone)] = trs(sampleVector(ch.positions, t), sampleRotation(ch.rotations, t),
                                         sampleVector(ch.scales, t));
    std::vector<Mat4> world(s.skeleton.size());
    for (size_t b = 0; b < s.skeleton.size(); ++b) {
        const int p = s.skeleton[b].parent;
        world[b] = p < 0 ? local[b] : world[size_t(p)] * local[b];
    }
    return world;
}

/// Σ weight · world[bone] · inverseBind[bone] · position; vertices without weight (and static meshes) stay.
inline std::vector<Vec3> skin(const ImportedScene& s, const ImportedMesh& mesh, const std::vector<Mat4>& world)
{
    std::vector<Vec3> out = mesh.positions;
    if (!mesh.isSkinned())
        return out;
    for (size_t v = 0; v < out.size(); ++v) {
        const VertexInfluences& inf = mesh.influences[v];
        if (inf.count() == 0)
            continue;
        Vec3 p;
        for (int k = 0; k < inf.count(); ++k) {
            const auto b = size_t(inf.bone[size_t(k)]);
            p += (world[b] * s.skeleton[b].inverseBind).transformPoint(mesh.positions[v]) * inf.weight[size_t(k)];
        }
        out[v] = p;
    }
    return out;
}

/// Largest distance, relative to the scene size, between a vertex and its bind-pose skinned position.
inline float bindPoseSkinningError(const ImportedScene& s)
{
    const std::vector<Mat4> world = boneWorlds(s);
    float worst = 0.f;
    for (const ImportedMesh& m : s.meshes) {
        const std::vector<Vec3> skinned = skin(s, m, world);
        for (size_t v = 0; v < skinned.size(); ++v)
            worst = std::max(worst, length(skinned[v] - m.positions[v]));
    }
    return worst / sceneSize(s);
}

inline float maxDifference(const Mat4& a, const Mat4& b)
{
    float d = 0.f;
    for (int i = 0; i < 16; ++i)
        d = std::max(d, std::fabs(a.m[i] - b.m[i]));
    return d;
}


inline Vec3 centroid(const std::vector<Vec3>& points)
{
    Vec3 c;
    for (const Vec3& p : points)
        c += p;
    return points.empty() ? c : c / float(points.size());
}

} // namespace marionette::test

namespace QTest {
/// So that QCOMPARE prints these values (QTest's generic enum printer fails on these enum classes).
template <>
inline char* toString(const marionette::Vec3& v)
{
    return qstrdup(QByteArray::number(v.x) + ", " + QByteArray::number(v.y) + ", " + QByteArray::number(v.z));
}
template <>
inline char* toString(const marionette::import::ImportStatus& s)
{
    return qstrdup(marionette::import::toString(s));
}
template <>
inline char* toString(const marionette::import::UpAxis& a)
{
    return qstrdup(marionette::import::toString(a));
}
} // namespace QTest
