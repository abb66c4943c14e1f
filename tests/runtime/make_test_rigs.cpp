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
    const std::string folder = argv[1];
    std::string error;
    // humanoid.mrig: the procedural humanoid as it is.
    if (!marionette::rig::saveMrig(folder + "/humanoid.mrig", marionette::runtime::makeHumanoid(), &error)) {
        std::fprintf(stderr, "make_test_rigs: %s\n", error.c_str());
        return 1;
    }
    // authored.mrig: the humanoid authored for another world (Mars gravity, 120 Hz, 6 steps per advance)
    // and without self-collision (c_api_authored_test).
    marionette::rig::RigDescription authored = marionette::runtime::makeHumanoid();
    authored.settings.gravity = {0.f, -3.71f, 0.f};
    authored.settings.timeStep = 1.f / 120.f;
    authored.settings.maxSubsteps = 6;
    authored.settings.selfCollision = false;
    if (!marionette::rig::saveMrig(folder + "/authored.mrig", authored, &error)) {
        std::fprintf(stderr, "make_test_rigs: %s\n", error.c_str());
        return 1;
    }
    // drives.mrig: the humanoid with two drive profiles (c_api_drive_test): "stagger" (a 4 Hz motor by
    // default, triangle 0 at 12 Hz, stick 0 kinematic) and "limp" (every spring off, no parts).
    marionette::rig::RigDescription drives = marionette::runtime::makeHumanoid();
    marionette::rig::DriveProfile stagger;
    stagger.name = "stagger";
    stagger.defaults.motorFrequency = 4.f;
    stagger.parts.push_back({marionette::rig::DrivePartKind::Triangle, 0, {12.f, 1.f, 0.f, 0.f, 1.f, 0.f, false}});
    stagger.parts.push_back({marionette::rig::DrivePartKind::Stick, 0, {0.f, 1.f, 0.f, 0.f, 1.f, 0.f, true}});
    marionette::rig::DriveProfile limp;
    limp.name = "limp";
    drives.driveProfiles = {stagger, limp};
    if (!marionette::rig::saveMrig(folder + "/drives.mrig", drives, &error)) {
        std::fprintf(stderr, "make_test_rigs: %s\n", error.c_str());
        return 1;
    }
    return 0;
}
