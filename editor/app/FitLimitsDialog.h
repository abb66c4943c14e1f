// Marionette editor — Tools ▸ Fit Limits from Animation…: the source mesh's clips (checkboxes) and clips from
// other files (Add Clip File…), the margin (remembered in the settings), and Fit, which sets every angular
// constraint's limits to the range the checked clips show (editor::fitLimits) as ONE undo step
// (ReplaceElementsCommand) and fills the report table: per joint the observed range, the previous and fitted
// limits and the frames beyond the previous limit.
#pragma once

#include "marionette/editor/preview/LimitFit.h"

#include <QDialog>

#include <memory>
#include <vector>

class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QPushButton;
class QTableWidget;

namespace marionette::editor {
class Document;
class PluginHost;
} // namespace marionette::editor

namespace marionette::app {

class FitLimitsDialog : public QDialog {
    Q_OBJECT
  public:
    /// Lists the clips of document->mesh(), all checked. `plugins` imports added clip files.
    FitLimitsDialog(editor::Document* document, editor::PluginHost* plugins, QWidget* parent = nullptr);

    /// Imports `path` (with the project's unit scale and up axis) and lists its clips, checked. False, with
    /// the one-line reason in the status line, when it cannot be read or has no clips.
    bool addClipFile(const QString& path);
    /// Fits the checked clips with the margin shown and pushes the change as one undo step (none when no limit
    /// changes). False, with the reason in the status line, when no clip is checked or the fit refuses them.
    bool fit();

    QListWidget* clipList() const { return mClips; }
    QDoubleSpinBox* marginBox() const { return mMargin; }
    QTableWidget* reportTable() const { return mReport; }
    /// The status line: what the last fit changed, or why it failed.
    QString status() const;
    /// The last fit's result (empty before the first).
    const editor::LimitFitResult& fitResult() const { return mResult; }

  private:
    void addScene(std::shared_ptr<const import::ImportedScene> scene, const QString& source);
    void showReport();

    editor::Document* mDocument;
    editor::PluginHost* mPlugins;
    std::vector<std::shared_ptr<const import::ImportedScene>> mScenes;
    std::vector<QString> mSources; ///< parallel to mScenes
    editor::LimitFitResult mResult;
    QListWidget* mClips = nullptr;
    QDoubleSpinBox* mMargin = nullptr;
    QPushButton* mAddFile = nullptr;
    QPushButton* mFit = nullptr;
    QLabel* mStatus = nullptr;
    QTableWidget* mReport = nullptr;
};

} // namespace marionette::app
