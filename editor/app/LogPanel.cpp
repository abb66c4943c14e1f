#include "LogPanel.h"

#include <QTime>

#include <cstdio>

namespace marionette::app {

LogPanel::LogPanel(QWidget* parent) : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setMaximumBlockCount(5000);
    setObjectName(QStringLiteral("log"));
}

void LogPanel::log(Level level, const QString& message)
{
    const char* tag = level == Level::Error ? "error" : level == Level::Warning ? "warning" : "info";
    const QString colour = level == Level::Error ? QStringLiteral("#e05050")
                           : level == Level::Warning ? QStringLiteral("#d0a020") : QStringLiteral("palette(text)");
    appendHtml(QStringLiteral("<span style='color:gray'>%1</span> <span style='color:%2'>%3</span>")
                   .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), colour, message.toHtmlEscaped()));
    if (level != Level::Info)
        std::fprintf(stderr, "%s: %s\n", tag, qPrintable(message));
}

} // namespace marionette::app
