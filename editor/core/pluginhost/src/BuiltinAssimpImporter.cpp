#include "BuiltinAssimpImporter.h"

#include "marionette/import/Import.h"

#include <QStringList>

namespace marionette::editor {

QString BuiltinAssimpImporter::nameFilter() const
{
    QStringList patterns;
    for (const std::string& ext : import::supportedExtensions())
        patterns << QStringLiteral("*") + QString::fromStdString(ext);
    return QStringLiteral("Meshes (%1)").arg(patterns.join(QLatin1Char(' ')));
}

bool BuiltinAssimpImporter::supportsFile(const QString&) const
{
    return true;
}

bool BuiltinAssimpImporter::read(const QString& path, const plugin::ImportSettings& settings,
                                 import::ImportedScene& out, QString& error)
{
    bool cancelled = false;
    return read(path, settings, out, error, {}, cancelled);
}

bool BuiltinAssimpImporter::read(const QString& path, const plugin::ImportSettings& settings,
                                 import::ImportedScene& out, QString& error, std::stop_token stop, bool& cancelled)
{
    import::ImportOptions options;
    options.scale = settings.scale;
    options.upAxis = settings.upAxis;
    options.animations = settings.animations;
    import::ProgressCallback progress;
    if (settings.progress)
        progress = [&settings](float fraction, std::string_view stage) {
            settings.progress(fraction, QString::fromUtf8(stage.data(), qsizetype(stage.size())));
        };
    import::ImportResult r = import::importScene(path.toStdString(), options, progress, stop);
    cancelled = r.status == import::ImportStatus::Cancelled;
    if (!r.ok()) {
        error = QString::fromStdString(r.error);
        return false;
    }
    out = std::move(r.scene);
    return true;
}

} // namespace marionette::editor
