// Marionette editor — the log: what the editor did and what went wrong, newest last, with the time.
#pragma once

#include <QPlainTextEdit>

namespace marionette::app {

class LogPanel : public QPlainTextEdit {
    Q_OBJECT
  public:
    enum class Level { Info, Warning, Error };
    explicit LogPanel(QWidget* parent = nullptr);

    void log(Level level, const QString& message);
    void info(const QString& message) { log(Level::Info, message); }
    void warning(const QString& message) { log(Level::Warning, message); }
    void error(const QString& message) { log(Level::Error, message); }
};

} // namespace marionette::app
