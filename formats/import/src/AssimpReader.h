// Internal: the one place that talks to Assimp (STYLE.md convention 9). Reads a file into a RawScene.
#pragma once

#include "RawScene.h"

#include "marionette/import/Import.h"

#include <functional>
#include <stop_token>
#include <string>
#include <vector>

namespace marionette::import::detail {

struct ReadOutcome {
    enum class Kind { Ok, Failed, Cancelled } kind = Kind::Failed;
    std::string message; ///< on failure: what went wrong, without the path (the caller prefixes it)
};

/// Reads `path` with Assimp (triangulated, identical vertices joined, smooth normals generated where
/// missing, points and lines removed, data structure validated) and copies the result into `out`. A vertex
/// position that is not finite fails the read. Lenient (options.strict false): a file refused by the
/// validation alone is read again without it and RawScene::validationFailure keeps Assimp's message.
/// `progress` receives Assimp's own estimate in [0, 1]. `stop` aborts: file reads fail from then on and
/// the outcome is Cancelled.
ReadOutcome readWithAssimp(const std::string& path, const ImportOptions& options,
                           const std::function<void(float)>& progress, std::stop_token stop, RawScene& out);

/// ".fbx", ".gltf", ... as Assimp lists them, lower case.
std::vector<std::string> assimpExtensions();

} // namespace marionette::import::detail
