// Internal: readWithAssimp() in a child process (ImportOptions::Isolation::Process).
#pragma once

#include "AssimpReader.h"

namespace marionette::import::detail {

/// False where there is no fork(): readInChildProcess() then reads in-process.
bool processIsolationAvailable();

/// Like readWithAssimp(), in a forked child limited by options.memoryLimitBytes and options.timeoutSeconds.
/// A crash of the child is a Failed outcome naming the signal; `stop` kills the child at once (Cancelled).
/// `progress` is called on this thread.
ReadOutcome readInChildProcess(const std::string& path, const ImportOptions& options,
                               const std::function<void(float)>& progress, std::stop_token stop, RawScene& out);

} // namespace marionette::import::detail
