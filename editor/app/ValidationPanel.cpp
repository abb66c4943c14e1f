#include "ValidationPanel.h"

#include <QStyle>

namespace marionette::app {

ValidationPanel::ValidationPanel(QWidget* parent) : QListWidget(parent)
{
    setObjectName(QStringLiteral("validation"));
    setWordWrap(true);
    setAlternatingRowColors(true);
    connect(this, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        const int row = this->row(item);
        if (row >= 0 && std::size_t(row) < mIssues.size())
            emit culpritsActivated(mIssues[std::size_t(row)].elements);
    });
}

void ValidationPanel::setIssues(std::vector<editor::ValidationIssue> issues)
{
    mIssues = std::move(issues);
    clear();
    const QIcon errorIcon = style()->standardIcon(QStyle::SP_MessageBoxCritical);
    const QIcon warningIcon = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    for (const auto& issue : mIssues) {
        auto* item = new QListWidgetItem(issue.severity == editor::Severity::Error ? errorIcon : warningIcon, issue.message, this);
        item->setToolTip(issue.message);
    }
    if (mIssues.empty()) {
        auto* item = new QListWidgetItem(style()->standardIcon(QStyle::SP_DialogApplyButton), tr("No problems found."), this);
        item->setFlags(Qt::ItemIsEnabled);
    }
}

} // namespace marionette::app
