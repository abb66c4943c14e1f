#include "marionette/editor/document/commands/AddScenarioCommand.h"

#include <QCoreApplication>

namespace marionette::editor {

AddScenarioCommand::AddScenarioCommand(Document* document, project::Scenario scenario)
    : mDocument(document), mScenario(std::move(scenario))
{
    auto taken = [this](const QString& name) {
        for (const auto& s : mDocument->project().scenarios)
            if (s.name == name)
                return true;
        return false;
    };
    if (mScenario.name.isEmpty())
        mScenario.name = QStringLiteral("scenario");
    const QString base = mScenario.name;
    for (int n = 2; taken(mScenario.name); ++n)
        mScenario.name = QStringLiteral("%1 (%2)").arg(base).arg(n);
    setText(QCoreApplication::translate("Commands", "Add Scenario '%1'").arg(mScenario.name));
}

void AddScenarioCommand::redo() { mDocument->appendScenario(mScenario); }

void AddScenarioCommand::undo() { mDocument->removeLastScenario(); }

} // namespace marionette::editor
