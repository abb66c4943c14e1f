// importScene(): checks the path, reads with Assimp, builds the scene, reports progress, honours cancel.
#include "marionette/import/Import.h"

#include "AssimpReader.h"
#include "Builder.h"
#include "ProcessReader.h"
#include "Progress.h"
#include "Text.h"

#include <exception>
#include <filesystem>

namespace marionette::import {

using detail::cat;

const char* toString(ImportStatus status)
{
    switch (status) {
    case ImportStatus::Success: return "success";
    case ImportStatus::Failed: return "failed";
    case ImportStatus::Cancelled: return "cancelled";
    }
    return "?";
}

namespace {

ImportResult failed(const std::string& path, const std::string& message)
{
    ImportResult r;
    r.status = ImportStatus::Failed;
    r.error = cat(path.empty() ? std::string("(no path)") : path, ": ", message);
    return r;
}

ImportResult cancelled(const std::string& path)
{
    ImportResult r;
    r.status = ImportStatus::Cancelled;
    r.error = cat(path, ": import cancelled");
    return r;
}

/// A clear message for paths Assimp would only call "unable to open".
std::string checkPath(const std::string& path)
{
    namespace fs = std::filesystem;
    if (path.empty())
        return "no file given";
    std::error_code ec;
    const fs::file_status st = fs::status(fs::path(path), ec);
    if (ec || !fs::exists(st))
        return "no such file";
    if (fs::is_directory(st))
        return "is a directory, not a mesh file";
    if (!fs::is_regular_file(st))
        return "is not a regular file";
    return {};
}

ImportResult run(const std::string& path, const ImportOptions& options, const ProgressCallback& callback,
                 const std::stop_token& stop)
{
    detail::ProgressReporter progress(callback);
    progress.enter(stage::kReading, 0.f, 0.6f);
    if (std::string e = checkPath(path); !e.empty())
        return failed(path, e);
    if (stop.stop_requested())
        return cancelled(path);

    detail::RawScene raw;
    const std::function<void(float)> reading = [&progress](float f) { progress.within(f); };
    const detail::ReadOutcome read = options.isolation == ImportOptions::Isolation::Process
                                         ? detail::readInChildProcess(path, options, reading, stop, raw)
                                         : detail::readWithAssimp(path, options, reading, stop, raw);
    if (stop.stop_requested() || read.kind == detail::ReadOutcome::Kind::Cancelled)
        return cancelled(path);
    if (read.kind == detail::ReadOutcome::Kind::Failed)
        return failed(path, read.message);
    size_t triangleMeshes = 0;
    for (const detail::RawMesh& m : raw.meshes)
        triangleMeshes += m.indices.empty() ? 0 : 1;
    if (triangleMeshes == 0)
        return failed(path, raw.meshes.empty() ? "the file contains no mesh"
                                               : cat("the file contains no triangles (", raw.meshes.size(),
                                                     " meshes of points or lines only)"));

    ImportResult result;
    ImportedScene& scene = result.scene;
    scene.sourcePath = path;
    detail::BuildContext ctx(raw, options, stop);
    ctx.warnings = &scene.warnings;
    ctx.faults = &scene.faults;
    if (!raw.validationFailure.empty()) {
        scene.validationFailure = raw.validationFailure;
        ctx.warn(cat("the file failed Assimp's validation (", raw.validationFailure, "); read without it"));
    }
    ctx.progress = [&progress](float f) { progress.within(f); };
    if (std::string e = detail::setUpFrame(ctx, scene.conversion); !e.empty())
        return failed(path, e);

    progress.enter(stage::kSkeleton, 0.6f, 0.65f);
    if (std::string e = detail::buildSkeleton(ctx, scene); !e.empty())
        return failed(path, e);
    if (stop.stop_requested())
        return cancelled(path);

    progress.enter(stage::kMeshes, 0.65f, 0.9f);
    if (std::string e = detail::buildMeshes(ctx, scene); !e.empty())
        return failed(path, e);
    if (stop.stop_requested())
        return cancelled(path);
    if (scene.meshes.empty())
        return failed(path, "no node of the file places a triangle mesh");

    if (options.animations && !raw.animations.empty()) {
        progress.enter(stage::kAnimations, 0.9f, 0.99f);
        if (std::string e = detail::buildAnimations(ctx, scene); !e.empty())
            return failed(path, e);
        if (stop.stop_requested())
            return cancelled(path);
    }
    if (options.strict)
        if (std::string e = strictImportError(scene); !e.empty()) {
            ImportResult refused;
            refused.error = std::move(e);
            return refused;
        }
    if (std::string e = scene.validate(); !e.empty())
        return failed(path, cat("the imported scene failed its own check (please report): ", e));
    result.status = ImportStatus::Success;
    progress.done();
    return result;
}

} // namespace

ImportResult importScene(const std::string& path, const ImportOptions& options, const ProgressCallback& progress,
                         std::stop_token stop)
{
    try {
        return run(path, options, progress, stop);
    } catch (const std::bad_alloc&) {
        return failed(path, "out of memory");
    } catch (const std::exception& e) {
        return failed(path, cat("unexpected error: ", detail::oneLine(e.what())));
    }
}

std::string strictImportError(const ImportedScene& scene)
{
    const std::string path = scene.sourcePath.empty() ? std::string("(no path)") : scene.sourcePath;
    if (!scene.validationFailure.empty())
        return cat(path, ": Assimp could not read the file: ", scene.validationFailure); // as before lenient import
    if (!scene.faults.empty())
        return cat(path, ": ", scene.faults.front());
    return {};
}

std::vector<std::string> supportedExtensions() { return detail::assimpExtensions(); }

} // namespace marionette::import
