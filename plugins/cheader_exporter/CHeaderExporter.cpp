#include "CHeaderExporter.h"

#include "CHeaderWriter.h"

#include <QFileInfo>

namespace marionette::plugins {

bool CHeaderExporter::write(const rig::RigDescription& rig, const plugin::ExportContext& context, QByteArray& out,
                            QString& error) const
{
    const QString base = context.targetPath.isEmpty() ? QString::fromStdString(rig.name)
                                                      : QFileInfo(context.targetPath).completeBaseName();
    CHeaderWriter writer(rig, cIdentifier(base.toStdString()));
    writer.setSource(QFileInfo(context.sourcePath).fileName().toStdString(), context.generator.toStdString());
    std::string text, why;
    if (!writer.write(text, why)) {
        error = QString::fromStdString(why);
        return false;
    }
    out = QByteArray::fromStdString(text);
    return true;
}

} // namespace marionette::plugins
