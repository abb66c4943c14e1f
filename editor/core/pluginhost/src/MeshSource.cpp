#include "marionette/editor/pluginhost/MeshSource.h"

namespace marionette::editor {

project::ImportSettings importSettingsFrom(const import::ImportConversion& c)
{
    project::ImportSettings s;
    s.scaleToMetres = double(c.scale);
    s.sourceUpAxis = c.sourceUpAxis == import::UpAxis::Z ? project::UpAxis::Z : project::UpAxis::Y;
    s.unitConversionApplied = c.scale != 1.f;
    s.axisConversionApplied = c.sourceUpAxis != import::UpAxis::Y;
    s.conversionNote = QStringLiteral("%1; source unit %2 (scale %3%4); up axis %5%6")
                           .arg(QString::fromStdString(c.format),
                                QString::fromStdString(c.sourceUnit) +
                                    QLatin1String(c.unitByConvention ? " by the format's convention" : ""))
                           .arg(double(c.scale))
                           .arg(QLatin1String(c.scaleOverridden ? ", overridden" : ""),
                               QLatin1String(import::toString(c.sourceUpAxis)),
                               QLatin1String(c.upAxisOverridden ? " (overridden)" : ""));
    return s;
}

import::ImportOptions importOptionsFor(const project::ImportSettings& settings)
{
    import::ImportOptions o;
    o.scale = float(settings.scaleToMetres);
    o.upAxis = settings.sourceUpAxis == project::UpAxis::Z ? import::UpAxis::Z : import::UpAxis::Y;
    return o;
}

} // namespace marionette::editor
