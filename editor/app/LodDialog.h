// Marionette editor — Tools ▸ Levels of Detail…: the project's levels of detail in a table (particles, bound
// bones, bone error mean and max against the full rig, cost per ragdoll-step), a particle count to generate
// a level at (editor::generateLod, measured by editor::measureLod) and Remove for the selected level. Each
// change is one undo step (SetLodsCommand); the table follows the document, so Undo shows at once.
#pragma once

#include "marionette/editor/preview/LodMeasure.h"

#include <QDialog>

class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace marionette::editor { class Document; }

namespace marionette::app {

class LodDialog : public QDialog {
    Q_OBJECT
  public:
    explicit LodDialog(editor::Document& document, QWidget* parent = nullptr);

    /// Generates, measures and adds a level of `particles` particles (one undo step). False, with the reason
    /// shown in the dialog, when the level cannot be made or measured.
    bool generate(int particles);
    /// Removes the level at `row` (one undo step); false when there is none.
    bool remove(int row);

  private:
    void refresh();

    editor::Document& mDocument;
    QTableWidget* mTable = nullptr;
    QSpinBox* mCount = nullptr;
    QSpinBox* mBenchRagdolls = nullptr;
    QSpinBox* mBenchFrames = nullptr;
    QPushButton* mGenerate = nullptr;
    QPushButton* mRemove = nullptr;
    QLabel* mStatus = nullptr;
};

} // namespace marionette::app
