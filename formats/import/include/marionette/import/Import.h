// Marionette — importing a mesh file through Assimp (every format Assimp 5 reads: glTF/GLB, FBX, Collada,
// X, BLEND, OBJ, MD5, SMD, B3D, 3DS, ...). See docs/import.md.
//
// importScene() runs on the calling thread; ImportJob (ImportJob.h) runs it on a thread of its own.
// Failures never throw and never crash: the result carries one line naming the file and, when Assimp refused
// it, Assimp's own message, e.g.
//   /models/box.gltf: Assimp could not read the file: GLTF: could not open referenced file "box.bin"
//   /models/inf.glb: mesh 'Mesh' vertex 0: position is not finite (-inf, -0.5, 0.5)
#pragma once

#include "marionette/import/ImportedScene.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace marionette::import {

struct ImportOptions {
    /// Metres per unit of the file, replacing what the file declares (FBX UnitScaleFactor, Collada
    /// <unit meter>); e.g. 0.01 for a centimetre file without a declaration. Must be finite and > 0.
    std::optional<float> scale;
    /// The file's up axis, replacing what the file declares (Collada <up_axis>, FBX UpAxis, Blender = Z).
    std::optional<UpAxis> upAxis;
    bool animations = true;          ///< false: skip animation clips
    /// false (lenient, the default): a file that fails Assimp's validation is read again without it, and
    /// the faults the import can repair (keys past a clip's end, unsorted or duplicate keys, non-finite keys,
    /// unusable durations, empty channels, weights not summing to 1) are repaired, each with a warning and an
    /// entry in ImportedScene::faults. true: any such fault refuses the file with one line (Assimp's own
    /// message when its validation failed, as before lenient import existed). See docs/import.md.
    bool strict = false;
    /// Guards against hostile or broken node graphs: deeper or larger hierarchies are refused.
    int maxNodeDepth = 1024;
    std::size_t maxNodes = 1'000'000;

    /// Where Assimp runs. Some of its loaders crash or allocate without bound on malformed files (Assimp
    /// 5.2.5: a truncated .md5mesh segfaults, invalid/OutOfMemory.off asks for 16 GB), so by default the file
    /// is read in a child process (POSIX fork; on other systems always in-process) and only the plain data
    /// comes back: a crash becomes an error message, cancel() stops the read at once, and the limits below
    /// apply. InProcess reads on the calling thread (no protection; for debugging).
    enum class Isolation : std::uint8_t { Process, InProcess };
    Isolation isolation = Isolation::Process;
    /// Address space the reader process may add to the caller's (RLIMIT_AS); 0 = no limit.
    std::size_t memoryLimitBytes = std::size_t(8) << 30;
    /// The reader process is stopped after this long and the import fails; 0 = no limit.
    double timeoutSeconds = 600.;
};

enum class ImportStatus : std::uint8_t {
    Success = 0,
    Failed = 1,    ///< `error` says why
    Cancelled = 2, ///< stopped on request; `error` says "import cancelled"
};
const char* toString(ImportStatus status); ///< "success", "failed", "cancelled"

struct ImportResult {
    ImportStatus status = ImportStatus::Failed;
    std::string error;   ///< one line, starting with the path; empty on success
    ImportedScene scene; ///< filled on success only
    bool ok() const { return status == ImportStatus::Success; }
};

/// Named stages, reported in this order (a stage may be skipped, e.g. "animations" for a static mesh).
namespace stage {
constexpr std::string_view kReading = "reading";            ///< 0 - 0.6: Assimp reads and post-processes the file
constexpr std::string_view kSkeleton = "skeleton";          ///< 0.6 - 0.65
constexpr std::string_view kMeshes = "converting meshes";   ///< 0.65 - 0.9, per mesh
constexpr std::string_view kAnimations = "animations";      ///< 0.9 - 0.99, per clip
constexpr std::string_view kDone = "done";                  ///< fraction 1, reported once on success
} // namespace stage

/// Progress: `fraction` in [0, 1], never decreasing within one import; `stage` is one of the names above.
/// Called on the importing thread; it must return quickly and not throw.
using ProgressCallback = std::function<void(float fraction, std::string_view stage)>;

/// Imports `path` on the calling thread. `stop` cancels: once stop is requested the import ends soon with
/// ImportStatus::Cancelled (the reader process is killed at once; the conversion checks between stages,
/// meshes and clips; in-process reading can only stop between Assimp's reads of the file).
ImportResult importScene(const std::string& path, const ImportOptions& options = {},
                         const ProgressCallback& progress = {}, std::stop_token stop = {});

/// The one-line error, starting with the path, that a strict import gives for a file a lenient import read
/// as `scene`: Assimp's validation message when the file failed it, else the first repaired fault; empty
/// when nothing was repaired. importScene() with ImportOptions::strict uses it, and so can a caller that
/// imported leniently (the command line's --strict does).
std::string strictImportError(const ImportedScene& scene);

/// File extensions Assimp can read, lower case with the dot (".fbx", ".gltf", ...), for file dialogs.
std::vector<std::string> supportedExtensions();

} // namespace marionette::import
