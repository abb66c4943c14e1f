// Marionette — undo command: store a scenario recorded in the preview (drop, hits, drags, expectations)
// in the project, for `marionette simulate PROJECT --scenario NAME` to replay.
#pragma once

#include "marionette/editor/document/Document.h"

#include <QUndoCommand>

namespace marionette::editor {

class AddScenarioCommand : public QUndoCommand {
  public:
    /// A scenario whose name is already used replaces nothing: the name gets " (2)", " (3)" ... appended.
    AddScenarioCommand(Document* document, project::Scenario scenario);

    void redo() override;
    void undo() override;
    const project::Scenario& scenario() const { return mScenario; }

  private:
    Document* mDocument;
    project::Scenario mScenario;
};

} // namespace marionette::editor
