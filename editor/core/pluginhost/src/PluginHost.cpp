// The plugin host: folders, metadata checks before loading, registration and lookup. Running extensions
// (export, rig templates, import) is in PluginHostRun.cpp.
#include "marionette/editor/pluginhost/PluginHost.h"

#include "BuiltinAssimpImporter.h"
#include "BuiltinMrigExporter.h"
#include "BuiltinTemplate.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonObject>
#include <QLibrary>
#include <QPluginLoader>
#include <QStandardPaths>

namespace marionette::editor {

const char* toString(PluginKind kind)
{
    switch (kind) {
    case PluginKind::Unknown: return "unknown";
    case PluginKind::Exporter: return "exporter";
    case PluginKind::Importer: return "importer";
    case PluginKind::Template: return "template";
    }
    return "unknown";
}

const char* toString(PluginStatus status)
{
    switch (status) {
    case PluginStatus::Loaded: return "loaded";
    case PluginStatus::Refused: return "refused";
    case PluginStatus::Failed: return "failed";
    }
    return "failed";
}

namespace {

/// The interfaces this build supports: kind, interface name and version (the IID's parts).
struct InterfaceInfo {
    PluginKind kind;
    const char* name;
    int version;
};
constexpr InterfaceInfo kInterfaces[] = {
    {PluginKind::Exporter, "RigExporter", plugin::kRigExporterVersion},
    {PluginKind::Importer, "MeshImporter", plugin::kMeshImporterVersion},
    {PluginKind::Template, "RigTemplate", plugin::kRigTemplateVersion},
};

const InterfaceInfo* interfaceOf(PluginKind kind)
{
    for (const InterfaceInfo& i : kInterfaces)
        if (i.kind == kind)
            return &i;
    return nullptr;
}

QString supportedList()
{
    QStringList s;
    for (const InterfaceInfo& i : kInterfaces)
        s << QStringLiteral("%1/%2").arg(QLatin1String(i.name)).arg(i.version);
    return s.join(QStringLiteral(", "));
}

/// The names an object gives through the interface of `kind`; false when it does not implement it.
bool describe(QObject* object, PluginKind kind, QString& name, QString& display, QString& description)
{
    switch (kind) {
    case PluginKind::Exporter:
        if (auto* e = qobject_cast<plugin::RigExporter*>(object)) {
            name = e->shortName();
            display = e->displayName();
            return true;
        }
        return false;
    case PluginKind::Importer:
        if (auto* i = qobject_cast<plugin::MeshImporter*>(object)) {
            name = i->shortName();
            display = i->displayName();
            return true;
        }
        return false;
    case PluginKind::Template:
        if (auto* t = qobject_cast<plugin::RigTemplate*>(object)) {
            name = t->shortName();
            display = t->displayName();
            description = t->description();
            return true;
        }
        return false;
    case PluginKind::Unknown: break;
    }
    return false;
}

} // namespace

PluginHost::PluginHost()
{
    addBuiltIn(std::make_unique<BuiltinMrigExporter>(), PluginKind::Exporter);
    addBuiltIn(std::make_unique<BuiltinAssimpImporter>(), PluginKind::Importer);
    for (RigTemplate t : {RigTemplate::Auto, RigTemplate::Humanoid, RigTemplate::Generic})
        addBuiltIn(std::make_unique<BuiltinTemplate>(t), PluginKind::Template);
}

PluginHost::~PluginHost() = default;

QString PluginHost::applicationPluginFolder()
{
    const QString bin = QCoreApplication::applicationDirPath();
    const QString beside = bin + QStringLiteral("/plugins");
    if (QFileInfo(beside).isDir())
        return beside;
    const QString installed = QDir::cleanPath(bin + QLatin1Char('/') + QStringLiteral(MARIONETTE_INSTALLED_PLUGINS_FROM_BIN));
    return QFileInfo(installed).isDir() ? installed : beside;
}

QString PluginHost::userPluginFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + QStringLiteral("/marionette/plugins");
}

QStringList PluginHost::defaultFolders()
{
    if (qEnvironmentVariableIsSet("MARIONETTE_PLUGIN_PATH"))
        return qEnvironmentVariable("MARIONETTE_PLUGIN_PATH").split(QLatin1Char(':'), Qt::SkipEmptyParts);
    return {applicationPluginFolder(), userPluginFolder()};
}

void PluginHost::loadFolders(const QStringList& folders)
{
    for (const QString& f : folders)
        loadFolder(f);
}

void PluginHost::loadFolder(const QString& folder)
{
    const QFileInfo info(folder);
    if (!info.isDir()) {
        mFolders.push_back({folder, false});
        return;
    }
    const QString canonical = info.canonicalFilePath();
    if (mSeen.contains(canonical))
        return;
    mSeen << canonical;
    mFolders.push_back({folder, true});
    const QDir dir(folder);
    for (const QString& name : dir.entryList(QDir::Files, QDir::Name)) {
        if (!QLibrary::isLibrary(name))
            continue;
        const QString file = dir.filePath(name);
        const QString canonicalFile = QFileInfo(file).canonicalFilePath();
        if (mSeen.contains(canonicalFile))
            continue;
        mSeen << canonicalFile;
        loadLibrary(file);
    }
}

void PluginHost::loadLibrary(const QString& file)
{
    PluginRecord rec;
    rec.file = file;
    QPluginLoader loader(file);
    // The metadata is read from the file without loading it: nothing of a refused library ever runs.
    const QJsonObject metaData = loader.metaData();
    if (metaData.isEmpty()) {
        rec.status = PluginStatus::Failed;
        const QString why = loader.errorString();
        rec.message = QStringLiteral("%1: not a Qt plugin (%2)").arg(file, why.isEmpty() ? QStringLiteral("no plugin metadata") : why);
        mRecords.push_back(std::move(rec));
        return;
    }
    rec.interfaceId = metaData.value(QLatin1String("IID")).toString();
    const QJsonObject own = metaData.value(QLatin1String("MetaData")).toObject();
    rec.name = own.value(QLatin1String("name")).toString();
    rec.version = own.value(QLatin1String("version")).toString();
    rec.description = own.value(QLatin1String("description")).toString();

    rec.status = PluginStatus::Refused;
    const plugin::InterfaceId id = plugin::parseInterfaceId(rec.interfaceId);
    const InterfaceInfo* known = nullptr;
    for (const InterfaceInfo& i : kInterfaces)
        if (id.name == QLatin1String(i.name))
            known = &i;
    if (!id.isMarionette()) {
        rec.message = QStringLiteral("%1: not a Marionette plugin (IID '%2')").arg(file, rec.interfaceId);
    } else if (!known) {
        rec.message = QStringLiteral("%1: built for %2, an interface this Marionette does not know (it supports %3)")
                          .arg(file, rec.interfaceId.mid(qsizetype(qstrlen(plugin::kIidPrefix))), supportedList());
    } else {
        rec.kind = known->kind;
        if (id.version != known->version)
            rec.message = id.version < 0 ? QStringLiteral("%1: IID '%2' carries no interface version, this Marionette supports %3/%4")
                                               .arg(file, rec.interfaceId, QLatin1String(known->name)).arg(known->version)
                                         : QStringLiteral("%1: built for %2/%3, this Marionette supports %2/%4")
                                               .arg(file, QLatin1String(known->name)).arg(id.version).arg(known->version);
    }
    if (!rec.message.isEmpty()) {
        mRecords.push_back(std::move(rec));
        return;
    }
    QObject* instance = loader.instance();
    if (!instance) {
        rec.status = PluginStatus::Failed;
        rec.message = QStringLiteral("%1: %2").arg(file, loader.errorString());
        mRecords.push_back(std::move(rec));
        return;
    }
    registerInstance(rec, instance);
    mRecords.push_back(std::move(rec));
}

void PluginHost::registerInstance(PluginRecord& rec, QObject* instance)
{
    const QString who = rec.builtIn ? QStringLiteral("built-in %1").arg(QLatin1String(instance->metaObject()->className())) : rec.file;
    const InterfaceInfo* info = interfaceOf(rec.kind);
    QString name, display, description;
    rec.status = PluginStatus::Refused;
    if (!info || !describe(instance, rec.kind, name, display, description)) {
        rec.message = QStringLiteral("%1: its root object (%2) does not implement %3/%4 (Q_INTERFACES missing?)")
                          .arg(who, QLatin1String(instance->metaObject()->className()),
                               QLatin1String(info ? info->name : "?"))
                          .arg(info ? info->version : 0);
        return;
    }
    if (!plugin::isValidShortName(name)) {
        rec.message = QStringLiteral("%1: invalid short name '%2' (1 to 32 of a-z, 0-9, '_', '-', starting with a letter)").arg(who, name);
        return;
    }
    if (const PluginRecord* other = record(rec.kind, name)) {
        rec.message = QStringLiteral("%1: %2 name '%3' is already taken by %4")
                          .arg(who, QLatin1String(toString(rec.kind)), name,
                               other->builtIn ? QStringLiteral("the built-in %1").arg(QLatin1String(toString(rec.kind))) : other->file);
        rec.name = name;
        return;
    }
    rec.status = PluginStatus::Loaded;
    rec.name = name;
    rec.displayName = display;
    if (!description.isEmpty())
        rec.description = description;
    rec.instance = instance;
}

bool PluginHost::addBuiltIn(std::unique_ptr<QObject> object, PluginKind kind)
{
    PluginRecord rec;
    rec.builtIn = true;
    rec.kind = kind;
    if (const InterfaceInfo* info = interfaceOf(kind))
        rec.interfaceId = QStringLiteral("%1%2/%3").arg(QLatin1String(plugin::kIidPrefix), QLatin1String(info->name)).arg(info->version);
    rec.version = QCoreApplication::applicationVersion();
    registerInstance(rec, object.get());
    const bool loaded = rec.status == PluginStatus::Loaded;
    if (loaded)
        mBuiltIns.push_back(std::move(object));
    mRecords.push_back(std::move(rec));
    return loaded;
}

const PluginRecord* PluginHost::record(PluginKind kind, const QString& shortName) const
{
    for (const PluginRecord& r : mRecords)
        if (r.status == PluginStatus::Loaded && r.kind == kind && r.name == shortName)
            return &r;
    return nullptr;
}

plugin::RigExporter* PluginHost::exporter(const QString& shortName) const
{
    const PluginRecord* r = record(PluginKind::Exporter, shortName);
    return r ? qobject_cast<plugin::RigExporter*>(r->instance) : nullptr;
}

plugin::MeshImporter* PluginHost::importer(const QString& shortName) const
{
    const PluginRecord* r = record(PluginKind::Importer, shortName);
    return r ? qobject_cast<plugin::MeshImporter*>(r->instance) : nullptr;
}

plugin::RigTemplate* PluginHost::rigTemplate(const QString& shortName) const
{
    const PluginRecord* r = record(PluginKind::Template, shortName);
    return r ? qobject_cast<plugin::RigTemplate*>(r->instance) : nullptr;
}

std::vector<plugin::RigExporter*> PluginHost::exporters() const
{
    std::vector<plugin::RigExporter*> out;
    for (const PluginRecord& r : mRecords)
        if (r.status == PluginStatus::Loaded && r.kind == PluginKind::Exporter)
            out.push_back(qobject_cast<plugin::RigExporter*>(r.instance));
    return out;
}

std::vector<plugin::MeshImporter*> PluginHost::importers() const
{
    std::vector<plugin::MeshImporter*> out;
    for (const PluginRecord& r : mRecords)
        if (r.status == PluginStatus::Loaded && r.kind == PluginKind::Importer)
            out.push_back(qobject_cast<plugin::MeshImporter*>(r.instance));
    return out;
}

std::vector<plugin::RigTemplate*> PluginHost::templates() const
{
    std::vector<plugin::RigTemplate*> out;
    for (const PluginRecord& r : mRecords)
        if (r.status == PluginStatus::Loaded && r.kind == PluginKind::Template)
            out.push_back(qobject_cast<plugin::RigTemplate*>(r.instance));
    return out;
}

QStringList PluginHost::names(PluginKind kind) const
{
    QStringList out;
    for (const PluginRecord& r : mRecords)
        if (r.status == PluginStatus::Loaded && r.kind == kind)
            out << r.name;
    return out;
}

plugin::MeshImporter* PluginHost::importerFor(const QString& path) const
{
    for (const PluginRecord& r : mRecords)
        if (r.status == PluginStatus::Loaded && r.kind == PluginKind::Importer && !r.builtIn)
            if (auto* i = qobject_cast<plugin::MeshImporter*>(r.instance); i && i->supportsFile(path))
                return i;
    return importer(QStringLiteral("assimp"));
}

} // namespace marionette::editor
