// `marionette plugins`: what the plugin host registered (built-ins), loaded, refused and could not load;
// and the one plugin host the commands share.
#include "Cli.h"

#include "marionette/editor/pluginhost/PluginHost.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace marionette::cli {

namespace {

const char* kPluginsHelp =
    "Usage: marionette plugins [--json]\n\n"
    "Lists the exporters (export --format), importers and rig templates (import/build --template): the\n"
    "built-in ones, the plugins loaded from the plugin folders, and every library that was refused (built\n"
    "for another interface version, not a Marionette plugin, name taken) or could not be loaded, with why.\n"
    "Folders: 'plugins' next to this executable and ~/.local/share/marionette/plugins, or the\n"
    "':'-separated folders of MARIONETTE_PLUGIN_PATH when that variable is set.\n\n"
    "Options:\n"
    "  --json      print {\"folders\": [{\"path\", \"exists\"}], \"plugins\": [{\"name\", \"kind\", \"interface\",\n"
    "              \"version\", \"file\", \"builtIn\", \"status\", \"displayName\", \"message\"}]}\n"
    "  -h, --help  show this help\n\n"
    "Exit codes: 0 listed (whatever was refused); 2 usage error.\n";

QString interfaceOf(const editor::PluginRecord& r)
{
    const QString prefix = QString::fromLatin1(plugin::kIidPrefix);
    return r.interfaceId.startsWith(prefix) ? r.interfaceId.mid(prefix.size()) : r.interfaceId;
}

} // namespace

editor::PluginHost& pluginHost()
{
    static editor::PluginHost host;
    static const bool loaded = [] {
        host.loadDefaultFolders();
        return true;
    }();
    (void)loaded;
    return host;
}

int pluginsCommand(const QStringList& arguments, Io& io)
{
    QCommandLineParser parser;
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("JSON output."));
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help."));
    parser.addOptions({json, help});
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    if (!parser.parse(arguments))
        return usageError(io, arguments[0], parser.errorText());
    if (parser.isSet(help)) {
        io.out << kPluginsHelp;
        return kOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return usageError(io, arguments[0], QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().first()));
    const editor::PluginHost& host = pluginHost();

    if (parser.isSet(json)) {
        QJsonArray folders, plugins;
        for (const editor::PluginFolder& f : host.folders())
            folders.append(QJsonObject{{QStringLiteral("path"), f.path}, {QStringLiteral("exists"), f.exists}});
        for (const editor::PluginRecord& r : host.records())
            plugins.append(QJsonObject{{QStringLiteral("name"), r.name},
                                       {QStringLiteral("kind"), QLatin1String(editor::toString(r.kind))},
                                       {QStringLiteral("interface"), interfaceOf(r)},
                                       {QStringLiteral("version"), r.version},
                                       {QStringLiteral("file"), r.file},
                                       {QStringLiteral("builtIn"), r.builtIn},
                                       {QStringLiteral("status"), QLatin1String(editor::toString(r.status))},
                                       {QStringLiteral("displayName"), r.displayName},
                                       {QStringLiteral("message"), r.message}});
        io.out << QJsonDocument(QJsonObject{{QStringLiteral("folders"), folders}, {QStringLiteral("plugins"), plugins}})
                      .toJson(QJsonDocument::Compact)
               << '\n';
        return kOk;
    }

    using K = editor::PluginKind;
    for (const auto& [kind, title] : {std::pair{K::Exporter, "exporters (export --format NAME)"},
                                      std::pair{K::Importer, "importers (import/build: the first plugin that reads the file, else assimp)"},
                                      std::pair{K::Template, "rig templates (import/build --template NAME)"}}) {
        io.out << title << '\n';
        for (const editor::PluginRecord& r : host.records())
            if (r.kind == kind && r.status == editor::PluginStatus::Loaded)
                io.out << "  " << r.name.leftJustified(11) << ' ' << r.displayName << "  ["
                       << (r.builtIn ? QStringLiteral("built-in") : QStringLiteral("%1 %2, %3").arg(interfaceOf(r), r.version.isEmpty() ? QStringLiteral("-") : r.version, r.file))
                       << "]\n";
    }
    bool header = false;
    for (const editor::PluginRecord& r : host.records()) {
        if (r.status == editor::PluginStatus::Loaded)
            continue;
        if (!header)
            io.out << "not loaded\n";
        header = true;
        io.out << "  " << editor::toString(r.status) << ": " << r.message << '\n';
    }
    io.out << "plugin folders\n";
    for (const editor::PluginFolder& f : host.folders())
        io.out << "  " << f.path << (f.exists ? "" : " (does not exist)") << '\n';
    if (host.folders().empty())
        io.out << "  none (MARIONETTE_PLUGIN_PATH is set and empty)\n";
    return kOk;
}

} // namespace marionette::cli
