// Loading the rig of either file kind the command line accepts: a .mrig binary rig or a .mproj project.
#pragma once

#include "marionette/editor/document/Validation.h"
#include "marionette/project/Project.h"
#include "marionette/rig/MrigView.h"
#include "marionette/rig/RigDescription.h"

#include <QString>

namespace marionette::cli {

struct RigFile {
    enum class Kind { Mrig, Project };
    Kind kind = Kind::Mrig;
    rig::RigDescription rig;
    rig::MrigInfo mrig;         ///< Mrig: header and chunk summary
    int projectVersion = -1;    ///< Project: the version the file was written in (older ones are migrated)
    QString projectName;        ///< Project: its name
    std::vector<project::LodLevel> lods; ///< Project: its levels of detail
    qint64 fileSize = 0;
};

/// Loads `path`, telling the kinds apart by content: the .mrig signature, else a JSON document (or the
/// .mproj extension). The rig must pass RigDescription::validate(), except in a project loaded with
/// `acceptInvalidRig`, whose rig is not validated here (the caller judges it once with editor::rigVerdict(),
/// as the editor does); a .mrig file is always refused when its rig is invalid. Returns an empty string, or one line starting with the
/// path: "hero.mrig: STCK[12].particleB: index 40 out of range (31 particles)".
QString loadRigFile(const QString& path, RigFile& out, bool acceptInvalidRig = false);

/// Loads the project at `path` and judges its rig as the editor does (editor::rigVerdict, validating once):
/// the load error, or "PATH: the verdict's first error", or an empty string with `verdict` set (its proof
/// refers to out.rig: `out` must stay where it is while the verdict is used).
QString loadJudgedProject(const QString& path, project::Project& out, editor::RigVerdict& verdict);

/// "mrig" or "mproj".
const char* kindName(RigFile::Kind kind);

} // namespace marionette::cli
