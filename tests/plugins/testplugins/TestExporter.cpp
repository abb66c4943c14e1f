#include "TestExporter.h"

#include <cstdio>
#include <cstdlib>

namespace {

struct LoadMarker {
    LoadMarker()
    {
        if (const char* path = std::getenv("MARIONETTE_TEST_LOAD_MARKER"))
            if (std::FILE* f = std::fopen(path, "a")) {
                std::fputs(TEST_PLUGIN_NAME "\n", f);
                std::fclose(f);
            }
    }
};
const LoadMarker kMarker;

} // namespace

#ifndef TEST_PLUGIN_NO_INTERFACE
bool TestExporter::write(const marionette::rig::RigDescription& rig, const marionette::plugin::ExportContext&,
                         QByteArray& out, QString&) const
{
    out = "test export of " + QByteArray::fromStdString(rig.name) + "\n";
    return true;
}
#endif
