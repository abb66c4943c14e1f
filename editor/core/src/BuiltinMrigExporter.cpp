#include "BuiltinMrigExporter.h"

#include "marionette/rig/Mrig.h"

namespace marionette::editor {

bool BuiltinMrigExporter::write(const rig::RigDescription& rig, const plugin::ExportContext&, QByteArray& out,
                                QString& error) const
{
    std::string e;
    const std::vector<std::byte> bytes = rig::writeMrig(rig, &e);
    if (bytes.empty()) {
        error = QString::fromStdString(e.empty() ? std::string("the .mrig writer produced nothing") : e);
        return false;
    }
    out = QByteArray(reinterpret_cast<const char*>(bytes.data()), qsizetype(bytes.size()));
    return true;
}

} // namespace marionette::editor
