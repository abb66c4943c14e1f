#include "BuiltinMrigExporter.h"

#include "marionette/rig/Mrig.h"

namespace marionette::editor {

namespace {

bool toBytes(const std::vector<std::byte>& bytes, const std::string& e, QByteArray& out, QString& error)
{
    if (bytes.empty()) {
        error = QString::fromStdString(e.empty() ? std::string("the .mrig writer produced nothing") : e);
        return false;
    }
    out = QByteArray(reinterpret_cast<const char*>(bytes.data()), qsizetype(bytes.size()));
    return true;
}

} // namespace

bool BuiltinMrigExporter::write(const rig::RigDescription& rig, const plugin::ExportContext&, QByteArray& out,
                                QString& error) const
{
    std::string e;
    const std::vector<std::byte> bytes = rig::writeMrig(rig, &e);
    return toBytes(bytes, e, out, error);
}

bool BuiltinMrigExporter::writeValidated(const rig::Validated& rig, QByteArray& out, QString& error) const
{
    std::string e;
    const std::vector<std::byte> bytes = rig::writeMrig(rig, &e);
    return toBytes(bytes, e, out, error);
}

} // namespace marionette::editor
