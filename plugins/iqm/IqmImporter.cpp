#include "IqmImporter.h"

#include "IqmFile.h"
#include "IqmSceneBuilder.h"

#include <QFile>
#include <QFileInfo>

namespace marionette::plugins {

bool IqmImporter::supportsFile(const QString& path) const
{
    const QFileInfo info(path);
    if (info.suffix().compare(QLatin1String("iqm"), Qt::CaseInsensitive) == 0)
        return true;
    if (!info.isFile())
        return false;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QByteArray head = file.read(16);
    return iqm::hasMagic(std::as_bytes(std::span(head.constData(), std::size_t(head.size()))));
}

bool IqmImporter::read(const QString& path, const plugin::ImportSettings& settings, import::ImportedScene& out,
                       QString& error)
{
    auto fail = [&](const QString& why) {
        error = QStringLiteral("%1: %2").arg(path, why);
        return false;
    };
    const QFileInfo info(path);
    if (info.isDir())
        return fail(QStringLiteral("is a directory, not a mesh file"));
    if (info.exists() && !info.isFile())
        return fail(QStringLiteral("is not a regular file"));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(file.errorString());
    if (quint64(file.size()) > iqm::kMaxFileBytes)
        return fail(QStringLiteral("the file has %1 bytes, more than the %2 this importer reads")
                        .arg(file.size())
                        .arg(iqm::kMaxFileBytes));
    if (settings.progress)
        settings.progress(0.f, QStringLiteral("reading"));
    const QByteArray bytes = file.readAll();
    if (file.error() != QFileDevice::NoError)
        return fail(file.errorString());

    iqm::File parsed;
    std::string why;
    if (!iqm::readFile(std::as_bytes(std::span(bytes.constData(), std::size_t(bytes.size()))), parsed, why))
        return fail(QString::fromStdString(why));
    iqm::SceneOptions options;
    options.scale = settings.scale;
    options.upAxis = settings.upAxis;
    options.animations = settings.animations;
    options.folder = info.absolutePath().toStdString();
    if (settings.progress)
        options.progress = [&](float f, const char* stage) {
            settings.progress(0.4f + 0.6f * f, QString::fromLatin1(stage));
        };
    if (!iqm::buildScene(parsed, options, out, why))
        return fail(QString::fromStdString(why));
    out.sourcePath = path.toStdString();
    return true;
}

} // namespace marionette::plugins
