#include "marionette/editor/pluginhost/BoneMapFile.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

namespace marionette::editor {

QString readBoneMapFile(const QString& path, std::vector<std::pair<std::string, std::string>>& out)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return QStringLiteral("%1: cannot read: %2").arg(path, f.errorString());
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return QStringLiteral("%1: not JSON: %2 at offset %3").arg(path, parseError.errorString()).arg(parseError.offset);
    if (!doc.isObject())
        return QStringLiteral("%1: expected an object pairing bones, {\"SOURCE_BONE\": \"TARGET_BONE\", ...}").arg(path);
    const QJsonObject o = doc.object();
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!it.value().isString())
            return QStringLiteral("%1: '%2': the target bone must be a string").arg(path, it.key());
        out.emplace_back(it.key().toStdString(), it.value().toString().toStdString());
    }
    return {};
}

} // namespace marionette::editor
