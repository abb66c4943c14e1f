// The `marionette` command-line tool. See docs/cli.md.
#include "Cli.h"

#include <QCoreApplication>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("marionette"));
    QCoreApplication::setApplicationVersion(QStringLiteral(MARIONETTE_VERSION));
    return marionette::cli::run(QCoreApplication::arguments());
}
