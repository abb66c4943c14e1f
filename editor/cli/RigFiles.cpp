#include "RigFiles.h"

#include "marionette/project/ProjectFile.h"
#include "marionette/rig/Mrig.h"
#include "marionette/rig/MrigFormat.h"
#include "marionette/runtime/Rig.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace marionette::cli {

QString loadJudgedProject(const QString& path, project::Project& out, editor::RigVerdict& verdict)
{
    project::LoadOptions options;
    options.acceptInvalidRig = true; // judged below as the editor judges it, validating once
    options.validateRig = false;
    const project::LoadResult loaded = project::loadProject(path, out, options);
    if (!loaded.ok())
        return loaded.error;
    verdict = editor::rigVerdict(out.rig);
    if (!verdict.ok())
        return QStringLiteral("%1: %2").arg(path, verdict.issues.front().message);
    return {};
}

const char* kindName(RigFile::Kind kind) { return kind == RigFile::Kind::Mrig ? "mrig" : "mproj"; }

QString loadRigFile(const QString& path, RigFile& out, bool acceptInvalidRig)
{
    const QFileInfo info(path);
    if (!info.exists())
        return QStringLiteral("%1: no such file").arg(path);
    if (info.isDir())
        return QStringLiteral("%1: is a folder, not a rig or project file").arg(path);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("%1: cannot open: %2").arg(path, file.errorString());
    const QByteArray head = file.read(64);
    file.close();

    RigFile result;
    result.fileSize = info.size();
    const bool mrigSignature = head.size() >= 4 && std::memcmp(head.constData(), rig::mrig::kMagic, 4) == 0;
    const QByteArray trimmed = head.trimmed();
    const bool json = trimmed.startsWith('{');
    const QString suffix = info.suffix().toLower();
    if (mrigSignature || (suffix == QLatin1String("mrig") && !json)) {
        result.kind = RigFile::Kind::Mrig;
        const std::string p = path.toStdString();
        std::string error;
        if (!rig::loadMrig(p, result.rig, &error) || !rig::loadMrigInfo(p, result.mrig, &error))
            return QString::fromStdString(error);
    } else if (json || suffix == QLatin1String("mproj")) {
        result.kind = RigFile::Kind::Project;
        project::Project proj;
        project::LoadOptions options;
        options.acceptInvalidRig = acceptInvalidRig;
        options.validateRig = !acceptInvalidRig; // the caller judges it (editor::rigVerdict), once
        const project::LoadResult r = project::loadProject(path, proj, options);
        if (!r.ok())
            return r.error;
        result.rig = std::move(proj.rig);
        result.projectVersion = r.fileVersion;
        result.projectName = proj.name;
        result.lods = std::move(proj.lods);
    } else {
        return QStringLiteral("%1: neither a .mrig rig (no MRIG signature) nor a .mproj project (not a JSON "
                              "document)")
            .arg(path);
    }
    out = std::move(result);
    return {};
}

} // namespace marionette::cli
