// The bundled mannequin sample's project with its mesh and clips (idle, walk, getup_back, getup_front),
// imported as the project imports it, once per test program. Needs MARIONETTE_SAMPLES (SampleProject.h) and
// the import and pluginhost libraries.
#pragma once

#include "marionette/editor/pluginhost/MeshSource.h"
#include "marionette/import/Import.h"

#include "SampleProject.h"

namespace marionette::test {

struct MannequinSample {
    project::Project project;
    import::ImportedScene scene;
};

/// The mannequin's project and its imported mesh; the test stops with the importer's message if it fails.
inline const MannequinSample& mannequinSample()
{
    static const MannequinSample s = [] {
        MannequinSample out;
        out.project = mannequinProject();
        import::ImportResult r = import::importScene(out.project.sourceMesh.resolve(kMannequinProject).toStdString(),
                                                     editor::importOptionsFor(out.project.import));
        if (!r.ok())
            qFatal("%s", r.error.c_str());
        out.scene = std::move(r.scene);
        return out;
    }();
    return s;
}

} // namespace marionette::test
