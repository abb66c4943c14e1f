// Marionette editor — the validation list: the rig's errors and warnings (editor/core Validation.h),
// refreshed shortly after each edit. Clicking an entry selects its culprits.
#pragma once

#include "marionette/editor/document/Validation.h"

#include <QListWidget>

namespace marionette::app {

class ValidationPanel : public QListWidget {
    Q_OBJECT
  public:
    explicit ValidationPanel(QWidget* parent = nullptr);

    void setIssues(std::vector<editor::ValidationIssue> issues);
    const std::vector<editor::ValidationIssue>& issues() const { return mIssues; }

  signals:
    /// The user clicked an entry: select these elements.
    void culpritsActivated(const std::vector<marionette::project::ElementRef>& elements);

  private:
    std::vector<editor::ValidationIssue> mIssues;
};

} // namespace marionette::app
