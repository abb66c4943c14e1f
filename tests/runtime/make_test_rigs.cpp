// Writes the .mrig files the C API test loads: make_test_rigs OUTPUT_FOLDER.
#include "marionette/rig/Mrig.h"
#include "marionette/runtime/Procedural.h"

#include <cstdio>
#include <string>

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_test_rigs OUTPUT_FOLDER\n");
        return 2;
    }
    std::string path = argv[1];
    path.append("/humanoid.mrig");
    std::string error;
    if (!marionette::rig::saveMrig(path, marionette::runtime::makeHumanoid(), &error)) {
        std::fprintf(stderr, "make_test_rigs: %s\n", error.c_str());
        return 1;
    }
    return 0;
}
