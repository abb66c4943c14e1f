// The bundled mannequin sample's project (samples/characters/mannequin), loaded for the editor/core suites
// that start from a real authored rig. Needs MARIONETTE_SAMPLES defined by the test's CMake target.
#pragma once

#include "marionette/project/ProjectFile.h"

#include <QString>
#include <QtGlobal>

namespace marionette::test {

inline const QString kMannequinProject = QStringLiteral(MARIONETTE_SAMPLES "/characters/mannequin/mannequin.mproj");

/// The mannequin project; the test stops with the loader's message if it does not load.
inline project::Project mannequinProject()
{
    project::Project p;
    const project::LoadResult r = project::loadProject(kMannequinProject, p);
    if (!r.ok())
        qFatal("%s", qPrintable(r.error));
    return p;
}

} // namespace marionette::test
